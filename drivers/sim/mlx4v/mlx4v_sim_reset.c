/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The device reset of the model (doc/guides/sim/mlx4v_sim.rst, "Fatal error"): what the
 * kernel's mlx4_core does after a catastrophic error (its internal_err_reset) before it
 * registers the device again. The hardware forgets every object; the user contexts open at
 * that time are disassociated: their objects stay allocated until software destroys them, which
 * succeeds, while every other call on them fails as on a dead device; their doorbell pages
 * lead nowhere (the kernel maps a disassociated context's UAR to a dummy page), so a doorbell
 * a burst rang around the death is dropped. A handle opened after the reset works.
 */

#include <errno.h>
#include <pthread.h>

#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

/* Model lock held: nothing of the old life runs or raises an event any more. */
static void
mlx4v_sim_reset_objects(struct mlx4v_sim *sim)
{
	struct mlx4v_sim_qp *qp;
	struct mlx4v_sim_cq *cq;
	struct mlx4v_sim_srq *srq;
	unsigned int i;

	for (i = 0; i < MLX4V_SIM_MAX_QP; i++) {
		qp = sim->qps[i];
		if (qp == NULL)
			continue;
		/* No SQ walk, no receive, no steering to it (rules need a ready QP). */
		qp->state = RTE_PMD_MLX4V_QPS_RESET;
		qp->wq_state = RTE_PMD_MLX4V_WQS_RESET;
		qp->rq.ready = 0;
		qp->db_pending = 0;
		qp->last_wqe_pending = 0;
		qp->stale = 1;
	}
	for (i = 0; i < MLX4V_SIM_MAX_CQ; i++) {
		cq = sim->cqs[i];
		if (cq == NULL)
			continue;
		cq->armed = 0;
		cq->error_pending = 0;
		cq->stale = 1;
	}
	for (i = 0; i < MLX4V_SIM_MAX_SRQ; i++) {
		srq = sim->srqs[i];
		if (srq == NULL)
			continue;
		srq->limit = 0;
		srq->limit_pending = 0;
	}
}

int
mlx4v_sim_reset(void *dev_priv)
{
	struct mlx4v_sim *sim = dev_priv;
	uint32_t life;

	/* The error is reported before the reset, as the kernel's event comes first. */
	if (mlx4v_sim_dead(sim) && !__atomic_load_n(&sim->dead_reported, __ATOMIC_ACQUIRE))
		return -EAGAIN;
	pthread_mutex_lock(&sim->tx_lock);
	pthread_mutex_lock(&sim->lock);
	if (mlx4v_sim_knob_take(sim, MLX4V_SIM_KNOB_FAIL_RESET)) {
		pthread_mutex_unlock(&sim->lock);
		pthread_mutex_unlock(&sim->tx_lock);
		MLX4V_SIM_LOG(ERR, "%s: device reset failed (fail_reset)", sim->name);
		return -EIO;
	}
	mlx4v_sim_reset_objects(sim);
	/* The frames of the old life still queued for the wire are lost with it. */
	sim->txq_n = 0;
	sim->txq_bytes = 0;
	hwsim_knob_set(sim->knobs, MLX4V_SIM_KNOB_FATAL, 0);
	/*
	 * The new life before the device is alive: a call that finds it alive already finds its
	 * handle stale when that handle is of the old life.
	 */
	life = __atomic_add_fetch(&sim->life, 1, __ATOMIC_ACQ_REL);
	__atomic_store_n(&sim->dead_reported, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&sim->dead, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&sim->lock);
	pthread_mutex_unlock(&sim->tx_lock);
	MLX4V_SIM_LOG(NOTICE, "%s: device reset after the catastrophic error (life %u): the "
		      "handles open before it are stale", sim->name, life);
	return 0;
}
