/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Shared receive queues: libmlx4's ring, free list and doorbell record. */

#include <rte_byteorder.h>

#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

/* libmlx4 limits (verbs.c mlx4_create_srq()). */
#define MLX4V_SRQ_MAX_WR (1u << 16)
#define MLX4V_SRQ_MAX_SGE 64u

/* WQE n of the SRQ ring; n must already be masked by the caller. */
static struct mlx4_wqe_srq_next_seg *
mlx4v_srq_wqe(struct mlx4v_srq *srq, int n)
{
	return (struct mlx4_wqe_srq_next_seg *)((uint8_t *)srq->buf +
						 ((size_t)n << srq->wqe_shift));
}

int
mlx4v_srq_layout(struct mlx4v_srq *srq)
{
	struct mlx4_wqe_srq_next_seg *next;
	struct mlx4_wqe_data_seg *scatter;
	uint32_t size, buf_size, i;

	/*
	 * libmlx4 geometry (prm/mlx4 §3, SRQ row): one extra entry, because the list is full when
	 * head == tail, so one WQE is always parked at the tail.
	 */
	srq->max = mlx4v_align_queue_size(srq->max_wr_req + 1);
	size = sizeof(struct mlx4_wqe_srq_next_seg) +
		srq->max_gs * sizeof(struct mlx4_wqe_data_seg);
	/* At least 32 bytes: the 16-byte next segment plus one data segment (prm/mlx4 §4.4). */
	for (srq->wqe_shift = 5; (1u << srq->wqe_shift) < size; srq->wqe_shift++)
		;
	buf_size = srq->max << srq->wqe_shift;
	srq->buf_len = mlx4v_ring_len(srq->obj.ctx, buf_size);
	srq->buf = mlx4v_ring_alloc(srq->obj.ctx, buf_size);
	if (srq->buf == NULL)
		return -ENOMEM;
	/* Link every WQE into the free list; every scatter entry is a terminator. */
	for (i = 0; i < srq->max; i++) {
		next = mlx4v_srq_wqe(srq, i);
		next->next_wqe_index = rte_cpu_to_be_16((i + 1) & (srq->max - 1));
		for (scatter = (struct mlx4_wqe_data_seg *)(next + 1);
		     (uint8_t *)scatter < (uint8_t *)next + (1u << srq->wqe_shift);
		     ++scatter)
			/*
			 * lkey 0x100 is MLX4_INVALID_LKEY, the scatter terminator (prm/mlx4 §4.3),
			 * so an unused entry never names memory.
			 */
			scatter->lkey = rte_cpu_to_be_32(MLX4V_INVALID_LKEY);
	}
	srq->head = 0;
	srq->tail = srq->max - 1;
	srq->counter = 0;
	srq->db = mlx4v_db_alloc(srq->obj.ctx);
	if (srq->db == NULL)
		goto err_ring_free;
	/* SRQ doorbell record: the running count of posted WQEs, none yet (prm/mlx4 §4.4). */
	*srq->db = 0;
	return 0;

err_ring_free:
	mlx4v_ring_free(srq->buf);
	srq->buf = NULL;
	return -ENOMEM;
}

void
mlx4v_srq_layout_free(struct mlx4v_srq *srq)
{
	mlx4v_db_free(srq->db);
	mlx4v_ring_free(srq->buf);
	srq->db = NULL;
	srq->buf = NULL;
}

/*
 * Return a consumed WQE to the tail of the free list (prm/mlx4 §4.4). Only mlx4v_cq_clean() calls
 * it, for CQEs of a dead QP; verbs lock held.
 */
void
mlx4v_srq_free_wqe(struct mlx4v_srq *srq, int ind)
{
	struct mlx4_wqe_srq_next_seg *next;

	/* wqe_index comes from a CQE, i.e. from the device: never trust it as an array index. */
	if (ind < 0 || (uint32_t)ind >= srq->max)
		return;
	next = mlx4v_srq_wqe(srq, srq->tail);
	next->next_wqe_index = rte_cpu_to_be_16(ind);
	srq->tail = ind;
}

struct mlx4v_srq *
mlx4v_srq_create(struct mlx4v_pd *pd, uint32_t max_wr, uint32_t max_sge)
{
	struct mlx4v_srq *srq;
	int sw, ret;

	if (mlx4v_obj_find(pd, MLX4V_OBJ_PD) == NULL)
		return NULL;
	/* libmlx4's own limits, checked before the kernel is asked (prm/mlx4 §3, SRQ). */
	if (max_wr > MLX4V_SRQ_MAX_WR || max_sge > MLX4V_SRQ_MAX_SGE) {
		MLX4V_LOG(ERR, "SRQ max_wr %u / max_sge %u beyond 65536 / 64", max_wr, max_sge);
		rte_errno = EINVAL;
		return NULL;
	}
	/* Then the kernel's, against the device's caps. */
	if (max_wr > pd->obj.ctx->caps.max_srq_wr || max_sge > pd->obj.ctx->caps.max_srq_sge) {
		MLX4V_LOG(ERR, "SRQ max_wr %u / max_sge %u beyond the device's %u / %u", max_wr,
			  max_sge, pd->obj.ctx->caps.max_srq_wr, pd->obj.ctx->caps.max_srq_sge);
		rte_errno = EINVAL;
		return NULL;
	}
	srq = mlx4v_obj_alloc(pd->obj.ctx, MLX4V_OBJ_SRQ, sizeof(*srq));
	if (srq == NULL)
		return NULL;
	srq->pd = pd;
	srq->max_wr_req = max_wr;
	srq->max_gs = max_sge;
	sw = mlx4v_verbs_sw_provider(pd->obj.ctx);
	if (sw) {
		ret = mlx4v_srq_layout(srq);
		if (ret)
			goto err_free;
	}
	ret = mlx4v_verbs_srq_create(srq);
	if (ret)
		goto err_layout_free;
	mlx4v_obj_get(&pd->obj);
	mlx4v_obj_publish(&srq->obj);
	return srq;

err_layout_free:
	if (sw)
		mlx4v_srq_layout_free(srq);
err_free:
	mlx4v_obj_free(&srq->obj);
	rte_errno = -ret;
	return NULL;
}

int
mlx4v_srq_destroy(struct mlx4v_srq *srq)
{
	int ret;

	if (mlx4v_obj_find(srq, MLX4V_OBJ_SRQ) == NULL)
		return -EINVAL;
	if (srq->obj.refcnt != 0) {
		MLX4V_LOG(ERR, "SRQ %u still used by %u QP(s)", srq->srqn, srq->obj.refcnt);
		return -EBUSY;
	}
	ret = mlx4v_verbs_srq_destroy(srq);
	if (ret)
		return ret;
	if (mlx4v_verbs_sw_provider(srq->obj.ctx))
		mlx4v_srq_layout_free(srq);
	mlx4v_obj_put(&srq->pd->obj);
	mlx4v_obj_free(&srq->obj);
	return 0;
}

struct rte_pmd_mlx4v_srq *
rte_pmd_mlx4v_create_srq(struct rte_pmd_mlx4v_pd *pd, uint32_t max_wr, uint32_t max_sge)
{
	struct mlx4v_srq *srq;

	mlx4v_verbs_lock();
	srq = mlx4v_srq_create((struct mlx4v_pd *)pd, max_wr, max_sge);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ptr(srq);
}

int
rte_pmd_mlx4v_destroy_srq(struct rte_pmd_mlx4v_srq *srq)
{
	int ret;

	mlx4v_verbs_lock();
	ret = mlx4v_srq_destroy((struct mlx4v_srq *)srq);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}
