/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * BlueFlame (doc/guides/prm/mlx4.rst §4.9): software writes a whole small WQE, its control
 * segment first, in 8-byte stores into one half of the BlueFlame register of its UAR's BF page,
 * the two halves in turn. The control segment carries the QP number (in place of the VLAN
 * fields) and the WQE counter (owner_opcode bits 23:8), so the device needs neither the doorbell
 * nor the ring: it posts the WQE from the copy. The model assembles each half from the stores
 * in order, refuses a torn or malformed write (misuse bf_write), and hands the copy to the send
 * engine, which executes it in place of the ring slot when it reaches that counter.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

int
mlx4v_sim_bf_alloc(struct mlx4v_sim_qp *qp)
{
	qp->bf_wqe = calloc(qp->sq_wqe_cnt, MLX4V_SIM_BF_HALF);
	qp->bf_have = calloc(qp->sq_wqe_cnt, 1);
	qp->bf_ctr = calloc(qp->sq_wqe_cnt, sizeof(uint16_t));
	if (qp->bf_wqe == NULL || qp->bf_have == NULL || qp->bf_ctr == NULL) {
		mlx4v_sim_bf_free(qp);
		return -ENOMEM;
	}
	return 0;
}

void
mlx4v_sim_bf_free(struct mlx4v_sim_qp *qp)
{
	free(qp->bf_wqe);
	free(qp->bf_have);
	free(qp->bf_ctr);
	qp->bf_wqe = NULL;
	qp->bf_have = NULL;
	qp->bf_ctr = NULL;
}

void
mlx4v_sim_bf_reset(struct mlx4v_sim_qp *qp)
{
	if (qp->bf_have != NULL)
		memset(qp->bf_have, 0, qp->sq_wqe_cnt);
}

const uint8_t *
mlx4v_sim_bf_find(const struct mlx4v_sim_qp *qp, uint16_t index)
{
	uint32_t slot = index & (qp->sq_wqe_cnt - 1);

	if (qp->bf_have == NULL || !qp->bf_have[slot] || qp->bf_ctr[slot] != index)
		return NULL;
	return qp->bf_wqe + (size_t)slot * MLX4V_SIM_BF_HALF;
}

void
mlx4v_sim_bf_done(struct mlx4v_sim_qp *qp, uint16_t index)
{
	qp->bf_have[index & (qp->sq_wqe_cnt - 1)] = 0;
}

/* The live send QP numbered qpn, or NULL. Sim lock held. */
static struct mlx4v_sim_qp *
mlx4v_sim_bf_qp(struct mlx4v_sim *sim, uint32_t qpn)
{
	struct mlx4v_sim_qp *qp;
	unsigned int i;

	for (i = 0; i < MLX4V_SIM_MAX_QP; i++) {
		qp = sim->qps[i];
		if (qp != NULL && !qp->is_wq && qp->page != NULL && qp->qpn == qpn &&
		    qp->bf_have != NULL)
			return qp;
	}
	return NULL;
}

/* A whole WQE of len bytes in half h: hand it to its QP. Sim lock held. @return 1 if posted. */
static int
mlx4v_sim_bf_post(struct mlx4v_sim *sim, const uint8_t *wqe, uint32_t len)
{
	const struct mlx4_wqe_ctrl_seg *ctrl = (const void *)wqe;
	struct mlx4v_sim_qp *qp;
	uint32_t qpn, slot;
	uint16_t ctr, index;

	/* bf_qpn: the QP number in bits 31:8 in place of the VLAN fields (prm/mlx4 §4.9). */
	qpn = rte_be_to_cpu_32(ctrl->bf_qpn) >> 8;
	qp = mlx4v_sim_bf_qp(sim, qpn);
	if (qp == NULL) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_BF_WRITE,
				 "BlueFlame WQE names QP 0x%x, no live send QP", qpn);
		return 0;
	}
	ctr = (uint16_t)(rte_be_to_cpu_32(ctrl->owner_opcode) >> 8);
	index = (uint16_t)(qp->pos >> (qp->sq_shift - 6));
	/*
	 * The counter names a stride from the engine's position to one ring ahead; one behind is a
	 * WQE the engine already executed from the ring (its owner bit was valid first): dropped.
	 */
	if ((uint16_t)(ctr - index) >= qp->sq_wqe_cnt) {
		if ((uint16_t)(index - ctr) <= qp->sq_wqe_cnt)
			return 0;
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_BF_WRITE,
				 "QP 0x%x: BlueFlame WQE counter %u, engine at %u of %u", qp->qpn,
				 ctr, index, qp->sq_wqe_cnt);
		return 0;
	}
	slot = ctr & (qp->sq_wqe_cnt - 1);
	memcpy(qp->bf_wqe + (size_t)slot * MLX4V_SIM_BF_HALF, wqe, len);
	qp->bf_ctr[slot] = ctr;
	qp->bf_have[slot] = 1;
	qp->db_pending++;
	sim->stats.bf_writes++;
	return 1;
}

int
mlx4v_sim_bf_store(struct mlx4v_sim *sim, uint32_t off, uint64_t raw)
{
	uint32_t h, o, ds, need;
	uint8_t *half;
	int posted = 0;

	if (mlx4v_sim_dead(sim))
		return -EIO;
	pthread_mutex_lock(&sim->lock);
	/* Misuse check bf_write: 8-byte stores inside the one register of the page. */
	if (off >= MLX4V_SIM_BF_REG || (off & 7) != 0) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_BF_WRITE,
				 "BlueFlame store at page offset 0x%x, outside the register", off);
		pthread_mutex_unlock(&sim->lock);
		return -EINVAL;
	}
	h = off / MLX4V_SIM_BF_HALF;
	o = off % MLX4V_SIM_BF_HALF;
	half = sim->bf_buf[h];
	/*
	 * Misuse check bf_write: a half is written from its start, in order; a store elsewhere
	 * tears the WQE being written (dropped), or starts a new one at offset 0.
	 */
	if (o != sim->bf_fill[h]) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_BF_WRITE,
				 "BlueFlame half %u: store at 0x%x, expected 0x%x (torn WQE)", h, o,
				 sim->bf_fill[h]);
		sim->bf_fill[h] = 0;
		if (o != 0)
			goto out;
	}
	memcpy(half + o, &raw, sizeof(raw));
	sim->bf_fill[h] = o + sizeof(raw);
	/* The DS count in fence_size[5:0], the byte after the QP number (prm/mlx4 §4.2). */
	ds = half[7] & 0x3f;
	need = RTE_ALIGN_CEIL(ds * 16u, (uint32_t)MLX4V_SIM_TXBB);
	if (ds == 0 || need > MLX4V_SIM_BF_HALF) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_BF_WRITE,
				 "BlueFlame half %u: DS count %u, beyond the %u-byte half", h, ds,
				 MLX4V_SIM_BF_HALF);
		sim->bf_fill[h] = 0;
		goto out;
	}
	if (sim->bf_fill[h] < need)
		goto out;
	sim->bf_fill[h] = 0;
	posted = mlx4v_sim_bf_post(sim, half, need);
out:
	pthread_mutex_unlock(&sim->lock);
	/* A posted WQE is executed by the engine, as after a doorbell. */
	if (posted)
		hwsim_engine_kick(sim->engine);
	return 0;
}
