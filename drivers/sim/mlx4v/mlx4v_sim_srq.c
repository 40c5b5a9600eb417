/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The SRQ limit of the model (doc/guides/sim/mlx4v_sim.rst, "SRQ limit"): software arms
 * a watermark (mlx4_ib's modify_srq with IB_SRQ_LIMIT, firmware's ARM_SRQ); when the device
 * takes a WQE and fewer than that many stay posted, it raises the SRQ limit event once and
 * disarms (the watermark reads 0 again, as QUERY_SRQ's limit_watermark). A QP on an SRQ that
 * goes to the error state takes no more WQEs from it: the device then raises the QP's last-WQE
 * event (the IB spec's Last WQE Reached, which mlx4_ib passes on).
 */

#include <errno.h>
#include <pthread.h>

#include "mlx4v_sim_priv.h"

static struct mlx4v_sim_srq *
mlx4v_sim_srq_find(struct mlx4v_sim *sim, uint32_t srqn)
{
	if (srqn == 0 || srqn > MLX4V_SIM_MAX_SRQ)
		return NULL;
	return sim->srqs[srqn - 1];
}

int
mlx4v_sim_srq_arm(struct mlx4v_sim *sim, uint32_t srqn, uint32_t limit)
{
	struct mlx4v_sim_srq *srq;
	int ret = 0;

	pthread_mutex_lock(&sim->lock);
	srq = mlx4v_sim_srq_find(sim, srqn);
	if (srq == NULL)
		ret = -ENOENT;
	else if (limit >= srq->max) /* mlx4_ib: a limit of the ring's size or more is refused */
		ret = -EINVAL;
	else
		srq->limit = limit;
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

int
mlx4v_sim_srq_query(struct mlx4v_sim *sim, uint32_t srqn, uint32_t *limit)
{
	struct mlx4v_sim_srq *srq;
	int ret = 0;

	pthread_mutex_lock(&sim->lock);
	srq = mlx4v_sim_srq_find(sim, srqn);
	if (srq == NULL)
		ret = -ENOENT;
	else
		*limit = srq->limit;
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

/* Sim lock held: the device took a WQE of srq; posted is what the doorbell record said. */
void
mlx4v_sim_srq_taken(struct mlx4v_sim_srq *srq)
{
	if (srq->limit != 0 && srq->posted - srq->consumed < srq->limit) {
		srq->limit = 0;
		srq->limit_pending = 1;
	}
}

unsigned int
mlx4v_sim_srq_limits_take(struct mlx4v_sim *sim, uint32_t *srqns)
{
	struct mlx4v_sim_srq *srq;
	unsigned int i, n = 0;

	for (i = 0; i < MLX4V_SIM_MAX_SRQ; i++) {
		srq = sim->srqs[i];
		if (srq == NULL || !srq->limit_pending)
			continue;
		srq->limit_pending = 0;
		srqns[n++] = srq->srqn;
	}
	return n;
}

unsigned int
mlx4v_sim_srq_last_wqe_take(struct mlx4v_sim *sim, uint32_t *qpns)
{
	struct mlx4v_sim_qp *qp;
	unsigned int i, n = 0;

	for (i = 0; i < MLX4V_SIM_MAX_QP; i++) {
		qp = sim->qps[i];
		if (qp == NULL || !qp->last_wqe_pending)
			continue;
		qp->last_wqe_pending = 0;
		qpns[n++] = qp->qpn;
	}
	return n;
}
