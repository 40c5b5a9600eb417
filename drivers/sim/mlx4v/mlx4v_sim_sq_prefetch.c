/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The send queue's WQE prefetcher (knob sq_prefetch): a ConnectX-3 reads 64-byte blocks
 * (TXBBs) ahead of the WQE it executes, and takes a block as soon as its first dword is no
 * stamp (doc/guides/prm/mlx4.rst §4.2, Stamping). The model snapshots every block ahead of the
 * send engine whose first dword changed to a value that is no stamp since it last looked, and
 * the engine executes what the snapshots hold: a producer that makes a block's first dword
 * valid before the rest of the block sends stale segments, and the difference is counted as
 * the misuse sq_prefetch.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>

#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

/* How far ahead the prefetcher reads: the 2 KiB software keeps free for it (prm/mlx4 §4.2). */
#define PF_AHEAD_BLOCKS (2048u / MLX4V_SIM_TXBB)
/* First dword not looked at since the last RESET. */
#define PF_UNSEEN 0x7fffffffu

/* libmlx4 stamps 0xffffffff, DPDK BE32(0x7fffffff | owner << 31) (prm/mlx4 §4.2, Stamping). */
static inline int
pf_is_stamp(uint32_t w)
{
	return (rte_be_to_cpu_32(w) & 0x7fffffffu) == 0x7fffffffu;
}

int
mlx4v_sim_sq_prefetch_alloc(struct mlx4v_sim_qp *qp)
{
	qp->pf_seen = calloc(1, qp->txbb_cnt * sizeof(uint32_t));
	qp->pf_have = calloc(1, qp->txbb_cnt);
	qp->pf_snap = calloc(1, (size_t)qp->txbb_cnt * MLX4V_SIM_TXBB);
	if (qp->pf_seen == NULL || qp->pf_have == NULL || qp->pf_snap == NULL) {
		mlx4v_sim_sq_prefetch_free(qp);
		return -ENOMEM;
	}
	return 0;
}

void
mlx4v_sim_sq_prefetch_free(struct mlx4v_sim_qp *qp)
{
	free(qp->pf_seen);
	free(qp->pf_have);
	free(qp->pf_snap);
	qp->pf_seen = NULL;
	qp->pf_have = NULL;
	qp->pf_snap = NULL;
}

void
mlx4v_sim_sq_prefetch_reset(struct mlx4v_sim_qp *qp)
{
	uint32_t i;

	if (qp->pf_seen == NULL)
		return;
	/* Nothing prefetched; what the ring holds is learnt at the next look. */
	for (i = 0; i < qp->txbb_cnt; i++)
		qp->pf_seen[i] = rte_cpu_to_be_32(PF_UNSEEN);
	memset(qp->pf_have, 0, qp->txbb_cnt);
}

/* Look at the blocks ahead of the engine: snapshot each whose first dword became valid. */
static void
mlx4v_sim_sq_prefetch_scan(struct mlx4v_sim_qp *qp)
{
	uint32_t k, pos, slot, w, n = RTE_MIN(qp->txbb_cnt, PF_AHEAD_BLOCKS);

	for (k = 0; k < n; k++) {
		pos = qp->pos + k;
		slot = pos & (qp->txbb_cnt - 1);
		if (qp->pf_have[slot])
			continue;
		if (mlx4v_sim_sq_dma_read(qp, pos, 0, &w, sizeof(w)) != 0)
			return;
		if (w == qp->pf_seen[slot])
			continue;
		/* Learnt, stamped, or a block software gave back: no prefetch yet. */
		if (qp->pf_seen[slot] == rte_cpu_to_be_32(PF_UNSEEN) || pf_is_stamp(w)) {
			qp->pf_seen[slot] = w;
			continue;
		}
		/* The device takes the whole block now, whatever its other dwords hold. */
		if (mlx4v_sim_sq_dma_read(qp, pos, 0, qp->pf_snap + (size_t)slot * MLX4V_SIM_TXBB,
					  MLX4V_SIM_TXBB) != 0)
			return;
		qp->pf_seen[slot] = w;
		qp->pf_have[slot] = 1;
	}
}

void
mlx4v_sim_sq_prefetch_poll_locked(struct mlx4v_sim *sim)
{
	struct mlx4v_sim_qp *qp;
	unsigned int i;

	if (mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_SQ_PREFETCH) == 0)
		return;
	for (i = 0; i < MLX4V_SIM_MAX_QP; i++) {
		qp = sim->qps[i];
		if (qp != NULL && !qp->is_wq && qp->pf_seen != NULL &&
		    qp->state == RTE_PMD_MLX4V_QPS_RTS)
			mlx4v_sim_sq_prefetch_scan(qp);
	}
}

void
mlx4v_sim_sq_prefetch_apply(struct mlx4v_sim_qp *qp, uint8_t *wqe, uint32_t len, uint32_t nbb)
{
	uint32_t b, slot, part, differ = 0;
	uint8_t *snap;

	if (qp->pf_seen == NULL)
		return;
	/* Off (perhaps since a look): forget what was read; looks start afresh when on. */
	if (mlx4v_sim_knob(qp->sim, MLX4V_SIM_KNOB_SQ_PREFETCH) == 0) {
		for (b = 0; b < nbb; b++) {
			slot = (qp->pos + b) & (qp->txbb_cnt - 1);
			qp->pf_have[slot] = 0;
			qp->pf_seen[slot] = rte_cpu_to_be_32(PF_UNSEEN);
		}
		return;
	}
	for (b = 0; b < nbb; b++) {
		slot = (qp->pos + b) & (qp->txbb_cnt - 1);
		if (qp->pf_have[slot]) {
			qp->pf_have[slot] = 0;
			part = b * MLX4V_SIM_TXBB < len ?
			       RTE_MIN(MLX4V_SIM_TXBB, len - b * MLX4V_SIM_TXBB) : 0;
			snap = qp->pf_snap + (size_t)slot * MLX4V_SIM_TXBB;
			/* What the device saw is what it sends (prm/mlx4 §4.2, Stamping). */
			if (part != 0 && memcmp(wqe + b * MLX4V_SIM_TXBB, snap, part) != 0) {
				memcpy(wqe + b * MLX4V_SIM_TXBB, snap, part);
				differ++;
			}
		}
		/* Consumed: the block counts as new again once software writes it. */
		if (mlx4v_sim_sq_dma_read(qp, qp->pos + b, 0, &qp->pf_seen[slot],
					  sizeof(uint32_t)) != 0)
			qp->pf_seen[slot] = rte_cpu_to_be_32(PF_UNSEEN);
	}
	/*
	 * Misuse check sq_prefetch: a block changed after its first dword was valid. The device
	 * had already read it, so the WQE goes out with the stale segments (libmlx4 writes the
	 * data segments last to first for this reason).
	 */
	if (differ != 0)
		mlx4v_sim_misuse(qp->sim, MLX4V_SIM_MISUSE_SQ_PREFETCH,
				 "QP 0x%x: WQE at %u: %u block(s) changed after their first dword "
				 "was valid; sent as prefetched", qp->qpn, qp->pos, differ);
}

int
mlx4v_sim_prefetch_poll(struct mlx4v_sim *sim)
{
	if (sim == NULL)
		return -EINVAL;
	pthread_mutex_lock(&sim->lock);
	mlx4v_sim_sq_prefetch_poll_locked(sim);
	pthread_mutex_unlock(&sim->lock);
	return 0;
}

void
mlx4v_sim_sq_prefetch_drop(struct mlx4v_sim_qp *qp, uint32_t nbb)
{
	uint32_t b, slot;

	if (qp->pf_seen == NULL)
		return;
	for (b = 0; b < nbb; b++) {
		slot = (qp->pos + b) & (qp->txbb_cnt - 1);
		qp->pf_have[slot] = 0;
	}
}
