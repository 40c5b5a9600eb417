/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The simulated CQ: CQE writer with owner bits, consumer-index checks, arming. */

#include <string.h>

#include <rte_byteorder.h>

#include "mlx4v_log.h"
#include "mlx4v_sim_priv.h"

#define MLX4V_SIM_CI_MASK 0xffffffu
#define MLX4V_SIM_CI_HALF 0x800000u

/* The 32-byte CQE of entry n: with 64-byte CQEs, the second half (mlx4dv.md §4.6). */
static uint8_t *
mlx4v_sim_cq_entry(struct mlx4v_sim_cq *cq, uint32_t n)
{
	return cq->buf + (size_t)(n & (cq->cqe_cnt - 1)) * cq->cqe_size +
		(cq->cqe_size == 64 ? 32 : 0);
}

void
mlx4v_sim_cq_init_owner(struct mlx4v_sim_cq *cq)
{
	uint32_t i;

	/*
	 * Handing the CQ to the device marks every CQE hardware-owned (owner 1 on pass
	 * 0), as mlx4_en does; libmlx4 leaves zeros that would read as valid CQEs.
	 * This is the project's decision for the open question of mlx4dv.md §6.
	 */
	for (i = 0; i < cq->cqe_cnt; i++)
		mlx4v_sim_cq_entry(cq, i)[31] = MLX4_CQE_OWNER_MASK;
}

void
mlx4v_sim_cqe_error(struct mlx4_cqe *cqe, uint32_t qpn, uint16_t wqe_index,
		    uint8_t syndrome, int is_send)
{
	struct mlx4_err_cqe *ecqe = (struct mlx4_err_cqe *)cqe;

	memset(cqe, 0, sizeof(*cqe));
	ecqe->vlan_my_qpn = rte_cpu_to_be_32(qpn & MLX4_CQE_QPN_MASK);
	ecqe->wqe_index = rte_cpu_to_be_16(wqe_index);
	ecqe->syndrome = syndrome;
	ecqe->owner_sr_opcode = MLX4_CQE_OPCODE_ERROR | (is_send ? MLX4_CQE_IS_SEND_MASK : 0);
}

/* Read *set_ci_db and check that the consumer index moves sanely. */
static uint32_t
mlx4v_sim_cq_read_ci(struct mlx4v_sim_cq *cq)
{
	struct mlx4v_sim *sim = cq->sim;
	uint32_t raw = 0, ci;

	if (hwsim_dma_read(sim->dma, (uintptr_t)cq->set_ci_db, &raw, sizeof(raw)) != 0) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DMA, "CQ 0x%x: set_ci_db unreadable",
				 cq->cqn);
		return cq->last_ci;
	}
	ci = rte_be_to_cpu_32(raw) & MLX4V_SIM_CI_MASK;
	if (ci == cq->last_ci)
		return ci;
	/* Judge each new value once: backwards from the last, or beyond the producer. */
	if (((cq->last_ci - ci) & MLX4V_SIM_CI_MASK) < MLX4V_SIM_CI_HALF)
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_CI_BACKWARDS,
				 "CQ 0x%x: consumer index %u -> %u", cq->cqn, cq->last_ci, ci);
	else if (((ci - cq->pi) & MLX4V_SIM_CI_MASK) != 0 &&
		 ((ci - cq->pi) & MLX4V_SIM_CI_MASK) < MLX4V_SIM_CI_HALF)
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_CI_AHEAD,
				 "CQ 0x%x: consumer index %u beyond producer %u", cq->cqn, ci,
				 cq->pi & MLX4V_SIM_CI_MASK);
	cq->last_ci = ci;
	return ci;
}

static void
mlx4v_sim_cq_raise(struct mlx4v_sim_cq *cq)
{
	struct mlx4v_sim *sim = cq->sim;

	/* One event per arm: disarm, and remember which sn fired (mlx4dv.md §4.8). */
	cq->fired_sn = cq->armed_sn;
	cq->armed = 0;
	if (mlx4v_sim_knob_take(sim, MLX4V_SIM_KNOB_LOSE_CQ_EVENT)) {
		sim->stats.events_lost++;
		return;
	}
	if (cq->fd < 0)
		return;
	if (hwsim_irq_raise(sim->irq, cq->idx) == 0)
		sim->stats.events++;
}

int
mlx4v_sim_cq_push(struct mlx4v_sim_cq *cq, struct mlx4_cqe *cqe, int is_err)
{
	struct mlx4v_sim *sim = cq->sim;
	uint8_t *slot;
	uint32_t ci;
	uint8_t owner;

	ci = mlx4v_sim_cq_read_ci(cq);
	/* A full ring by *set_ci_db: the consumer index is stale or the CQ too small. */
	if (((cq->pi - ci) & MLX4V_SIM_CI_MASK) >= cq->cqe_cnt) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_CQ_OVERRUN,
				 "CQ 0x%x overrun: producer %u, consumer index %u, %u entries",
				 cq->cqn, cq->pi & MLX4V_SIM_CI_MASK, ci, cq->cqe_cnt);
		sim->stats.cqe_dropped++;
		return -ENOSPC;
	}
	slot = mlx4v_sim_cq_entry(cq, cq->pi);
	/* The owner bit the device writes is the pass parity: 0 on the first pass. */
	owner = (cq->pi & cq->cqe_cnt) ? MLX4_CQE_OWNER_MASK : 0;
	cqe->owner_sr_opcode = (cqe->owner_sr_opcode & ~MLX4_CQE_OWNER_MASK) | owner;
	/* Body first, then the owner byte with release order: software polls the owner. */
	if (hwsim_dma_write(sim->dma, (uintptr_t)slot, cqe, sizeof(*cqe) - 1) != 0 ||
	    hwsim_dma_write_release(sim->dma, (uintptr_t)slot + sizeof(*cqe) - 1,
				    &cqe->owner_sr_opcode, 1) != 0) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DMA, "CQ 0x%x: ring not writable",
				 cq->cqn);
		return -EFAULT;
	}
	cq->pi++;
	sim->stats.cqes++;
	if (is_err)
		sim->stats.err_cqes++;
	/* Armed for any completion, or solicited-only and this is an error CQE. */
	if (cq->armed == MLX4_CQ_DB_REQ_NOT || (cq->armed == MLX4_CQ_DB_REQ_NOT_SOL && is_err))
		mlx4v_sim_cq_raise(cq);
	return 0;
}

/* Doorbell handler of a CQ's UAR page: the arm doorbell at +0x20. */
void
mlx4v_sim_cq_doorbell(void *arg, uint32_t off, uint64_t raw)
{
	struct mlx4v_sim_cq *cq = arg;
	struct mlx4v_sim *sim = cq->sim;
	uint32_t hi, lo, sn, cmd, ci, rec = 0, set_ci;
	uint64_t v;

	if (off != MLX4V_CQ_DOORBELL) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DB_WRONG_PAGE,
				 "CQ 0x%x: doorbell written at UAR offset 0x%x", cq->cqn, off);
		return;
	}
	/* A 64-bit big-endian store: (sn << 28 | cmd | cqn) << 32 | ci (mlx4dv.md §4.8). */
	v = rte_be_to_cpu_64(raw);
	hi = (uint32_t)(v >> 32);
	lo = (uint32_t)v;
	sn = (hi >> 28) & 3;
	cmd = hi & (3u << 24);
	ci = lo & MLX4V_SIM_CI_MASK;
	if ((hi & MLX4V_SIM_CI_MASK) != cq->cqn) {
		/* mlx5 packs ci high and cqn low: an easy mix-up to catch. */
		if ((lo & MLX4V_SIM_CI_MASK) == cq->cqn)
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_ARM_PACKING,
					 "CQ 0x%x: arm doorbell packed mlx5-style", cq->cqn);
		else
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_ARM_CQN,
					 "CQ 0x%x: arm doorbell names CQ 0x%x", cq->cqn,
					 hi & MLX4V_SIM_CI_MASK);
		return;
	}
	if (cmd != MLX4_CQ_DB_REQ_NOT && cmd != MLX4_CQ_DB_REQ_NOT_SOL) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_ARM_PACKING,
				 "CQ 0x%x: arm command 0x%x is not mlx4's", cq->cqn, cmd >> 24);
		return;
	}
	/* The record must be written, then a barrier, then the MMIO: check the record. */
	if (hwsim_dma_read(sim->dma, (uintptr_t)cq->arm_db, &rec, sizeof(rec)) != 0 ||
	    rte_be_to_cpu_32(rec) != ((sn << 28) | cmd | ci)) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_ARM_DB_RECORD,
				 "CQ 0x%x: arm_db record 0x%08x does not match the arm 0x%08x",
				 cq->cqn, rte_be_to_cpu_32(rec), (sn << 28) | cmd | ci);
		return;
	}
	set_ci = mlx4v_sim_cq_read_ci(cq);
	if (set_ci != ci)
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_CI_STALE,
				 "CQ 0x%x: arm with CI %u but set_ci_db says %u", cq->cqn, ci,
				 set_ci);
	/* After an event software must bump arm_sn; an old sn re-arms nothing. */
	if ((int)sn == cq->fired_sn) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_ARM_SN,
				 "CQ 0x%x: arm with sn %u, which already fired", cq->cqn, sn);
		return;
	}
	cq->armed = cmd;
	cq->armed_sn = sn;
	sim->stats.arms++;
	/* Completions already beyond the armed CI: signal at once, or they'd be missed. */
	if (cmd == MLX4_CQ_DB_REQ_NOT && ((cq->pi - ci) & MLX4V_SIM_CI_MASK) != 0)
		mlx4v_sim_cq_raise(cq);
}
