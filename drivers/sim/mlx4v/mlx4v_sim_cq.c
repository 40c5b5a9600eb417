/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The simulated CQ: CQE writer with owner bits, consumer-index checks, arming. */

#include <poll.h>
#include <string.h>

#include <rte_byteorder.h>

#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

/*
 * The CI in *set_ci_db and in the arm word is 24 bits (prm/mlx4 §4.6, §4.8); half the space
 * separates "behind" from "ahead" in modular comparisons.
 */
#define MLX4V_SIM_CI_MASK 0xffffffu
#define MLX4V_SIM_CI_HALF 0x800000u

/* The 32-byte CQE of entry n: with 64-byte CQEs, the second half (prm/mlx4 §4.6). */
static uint8_t *
mlx4v_sim_cq_entry(struct mlx4v_sim_cq *cq, uint32_t n)
{
	return cq->buf + (size_t)(n & (cq->cqe_cnt - 1)) * cq->cqe_size +
		(cq->cqe_size == 64 ? 32 : 0);
}

/*
 * CQ create, sim lock held, before the CQ is visible to the engine; skipped under the
 * strict_cqe_owner knob to show why it is needed.
 */
void
mlx4v_sim_cq_init_owner(struct mlx4v_sim_cq *cq)
{
	uint32_t i;

	/*
	 * Handing the CQ to the device marks every CQE hardware-owned (owner 1 on pass
	 * 0), as mlx4_en does; libmlx4 leaves zeros that would read as valid CQEs.
	 * This is the project's decision for the open question of prm/mlx4 §6.
	 */
	for (i = 0; i < cq->cqe_cnt; i++)
		/*
		 * Owner bit write: byte 31 is owner_sr_opcode, in the second half of a 64-byte slot
		 * (prm/mlx4 §4.6).
		 */
		mlx4v_sim_cq_entry(cq, i)[31] = MLX4_CQE_OWNER_MASK;
}

/* Engine thread, sim lock held. The caller pushes the CQE; the owner bit is set there. */
void
mlx4v_sim_cqe_error(struct mlx4_cqe *cqe, uint32_t qpn, uint16_t wqe_index,
		    uint8_t syndrome, int is_send)
{
	struct mlx4_err_cqe *ecqe = (struct mlx4_err_cqe *)cqe;

	memset(cqe, 0, sizeof(*cqe));
	ecqe->vlan_my_qpn = rte_cpu_to_be_32(qpn & MLX4_CQE_QPN_MASK);
	ecqe->wqe_index = rte_cpu_to_be_16(wqe_index);
	ecqe->syndrome = syndrome;
	/*
	 * Opcode 0x1e marks an error CQE; is_send tells DPDK which ring it belongs to (prm/mlx4
	 * §4.6).
	 */
	ecqe->owner_sr_opcode = MLX4_CQE_OPCODE_ERROR | (is_send ? MLX4_CQE_IS_SEND_MASK : 0);
}

/* Read *set_ci_db and check that the consumer index moves sanely. */
static uint32_t
mlx4v_sim_cq_read_ci(struct mlx4v_sim_cq *cq)
{
	struct mlx4v_sim *sim = cq->sim;
	uint32_t raw = 0, ci;

	/*
	 * Read through the DMA window like the device would: an unmapped record is a misuse, not a
	 * crash of the engine.
	 */
	if (hwsim_dma_read(sim->dma, (uintptr_t)cq->set_ci_db, &raw, sizeof(raw)) != 0) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DMA, "CQ 0x%x: set_ci_db unreadable",
				 cq->cqn);
		return cq->last_ci;
	}
	ci = rte_be_to_cpu_32(raw) & MLX4V_SIM_CI_MASK;
	if (ci == cq->last_ci)
		return ci;
	/*
	 * Judge each new value once: backwards from the last, or beyond the producer. Misuse check
	 * ci_backwards: a CI that moves back (a stale copy of cons_index) wrongly tells the device
	 * that consumed slots are busy again. ci_ahead: software claims CQEs that were never
	 * produced, so it consumed garbage (prm/mlx4 §7, checks worth having).
	 */
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

/* @return 1 if the CQ's event fd holds an event its driver has not read. */
static int
mlx4v_sim_cq_event_unread(const struct mlx4v_sim_cq *cq)
{
	struct pollfd pfd = { .fd = cq->fd, .events = POLLIN };

	return cq->fd >= 0 && poll(&pfd, 1, 0) == 1;
}

/* Engine thread (or the arm doorbell handler), sim lock held: deliver one completion event. */
static void
mlx4v_sim_cq_raise(struct mlx4v_sim_cq *cq)
{
	struct mlx4v_sim *sim = cq->sim;

	/* One event per arm: disarm, and remember which sn fired (prm/mlx4 §4.8). */
	cq->fired_sn = cq->armed_sn;
	cq->armed = 0;
	/*
	 * Fault knob: the CQ is disarmed but no interrupt arrives, as with a lost MSI-X; lets tests
	 * check that the consumer re-polls instead of sleeping forever.
	 */
	if (mlx4v_sim_knob_take(sim, MLX4V_SIM_KNOB_LOSE_CQ_EVENT)) {
		sim->stats.events_lost++;
		return;
	}
	if (cq->fd < 0)
		return;
	if (hwsim_irq_raise(sim->irq, cq->idx) == 0)
		sim->stats.events++;
}

/* Engine thread, sim lock held. */
int
mlx4v_sim_cq_push(struct mlx4v_sim_cq *cq, struct mlx4_cqe *cqe, int is_err)
{
	struct mlx4v_sim *sim = cq->sim;
	uint8_t *slot;
	uint32_t ci;
	uint8_t owner;

	/* A CQ in error writes nothing until it is destroyed (prm/mlx4 §4.6, CQ overrun). */
	if (cq->error) {
		sim->stats.cqe_dropped++;
		return -ENOSPC;
	}
	ci = mlx4v_sim_cq_read_ci(cq);
	/*
	 * A full ring by *set_ci_db: the consumer index is stale or the CQ too small. As on
	 * hardware, an overrun puts the CQ in error and raises the asynchronous CQ error event
	 * (IBV_EVENT_CQ_ERR); the CQE and every later one are lost. Misuse check cq_overrun
	 * counts it too, as software caused it (prm/mlx4 §4.6, §7).
	 */
	if (((cq->pi - ci) & MLX4V_SIM_CI_MASK) >= cq->cqe_cnt) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_CQ_OVERRUN,
				 "CQ 0x%x overrun: producer %u, consumer index %u, %u entries",
				 cq->cqn, cq->pi & MLX4V_SIM_CI_MASK, ci, cq->cqe_cnt);
		cq->error = 1;
		cq->error_pending = 1;
		cq->armed = 0;
		sim->stats.cq_errors++;
		sim->stats.cqe_dropped++;
		return -ENOSPC;
	}
	slot = mlx4v_sim_cq_entry(cq, cq->pi);
	/*
	 * Owner bit write: the pass parity (pi / cqe_cnt) & 1, 0 on the first pass, which
	 * software's check !!(owner) == !!(n & cqe_cnt) reads as its own (prm/mlx4 §4.6).
	 */
	owner = (cq->pi & cq->cqe_cnt) ? MLX4_CQE_OWNER_MASK : 0;
	cqe->owner_sr_opcode = (cqe->owner_sr_opcode & ~MLX4_CQE_OWNER_MASK) | owner;
	/*
	 * Body first, then the owner byte with release order: software polls the owner, and its rmb
	 * after the owner check pairs with this release (prm/mlx4 §4.6, §7 CQ).
	 */
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
	/*
	 * Armed for any completion, or solicited-only and this is an error CQE. Solicited-only
	 * arming (1 << 24) also fires on errors, as the IB spec requires; the simulator never sets
	 * the solicited bit on a success CQE, so that is the only case (prm/mlx4 §4.8).
	 */
	if (cq->armed == MLX4_CQ_DB_REQ_NOT || (cq->armed == MLX4_CQ_DB_REQ_NOT_SOL && is_err))
		mlx4v_sim_cq_raise(cq);
	return 0;
}

/*
 * Doorbell handler of a CQ's UAR page: the arm doorbell at +0x20. Engine thread, sim lock
 * held; hwsim_mmio_poll() calls it once per store seen.
 */
void
mlx4v_sim_cq_doorbell(void *arg, uint32_t off, uint64_t raw)
{
	struct mlx4v_sim_cq *cq = arg;
	struct mlx4v_sim *sim = cq->sim;
	uint32_t hi, lo, sn, cmd, ci, rec = 0, set_ci;
	uint64_t v;

	/* A CQ of a life before the device reset: its page leads nowhere (mlx4v_sim_reset.c). */
	if (cq->stale)
		return;
	/*
	 * Misuse check db_wrong_page: a send doorbell (+0x14) in a CQ's page. On hardware both
	 * share the context UAR page, so the sdb / cq_uar mix-up goes unnoticed; per-object pages
	 * expose it (prm/mlx4 §7).
	 */
	if (off != MLX4V_CQ_DOORBELL) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DB_WRONG_PAGE,
				 "CQ 0x%x: doorbell written at UAR offset 0x%x", cq->cqn, off);
		return;
	}
	/* A 64-bit big-endian store: (sn << 28 | cmd | cqn) << 32 | ci (prm/mlx4 §4.8). */
	v = rte_be_to_cpu_64(raw);
	hi = (uint32_t)(v >> 32);
	lo = (uint32_t)v;
	sn = (hi >> 28) & 3;
	/*
	 * Only the two mlx4 commands are valid: 1 << 24 solicited, 2 << 24 next completion. mlx5's
	 * "any" command is 0, a likely mistake in shared code (prm/mlx4 §4.8).
	 */
	cmd = hi & (3u << 24);
	ci = lo & MLX4V_SIM_CI_MASK;
	/*
	 * Misuse check arm_packing / arm_cqn: mlx4 puts cqn in the high word and ci in the low word
	 * (prm/mlx4 §4.8); anything else would arm another CQ on hardware.
	 */
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
	/*
	 * Misuse check arm_db_record: the record must be written, then a barrier, then the MMIO
	 * (prm/mlx4 §4.8). An arm whose record does not match was issued without, or before, the
	 * record store.
	 */
	if (hwsim_dma_read(sim->dma, (uintptr_t)cq->arm_db, &rec, sizeof(rec)) != 0 ||
	    rte_be_to_cpu_32(rec) != ((sn << 28) | cmd | ci)) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_ARM_DB_RECORD,
				 "CQ 0x%x: arm_db record 0x%08x does not match the arm 0x%08x",
				 cq->cqn, rte_be_to_cpu_32(rec), (sn << 28) | cmd | ci);
		return;
	}
	set_ci = mlx4v_sim_cq_read_ci(cq);
	/*
	 * Misuse check ci_stale: arming with a CI other than the one in *set_ci_db means the record
	 * store and the arm disagree; the device would signal on completions already consumed.
	 */
	if (set_ci != ci)
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_CI_STALE,
				 "CQ 0x%x: arm with CI %u but set_ci_db says %u", cq->cqn, ci,
				 set_ci);
	/*
	 * An arm with the sn that already fired re-arms nothing (prm/mlx4 §4.8). The sn exists for
	 * the arm software makes before it has read the event already on its way, which is legal
	 * (DPDK's mlx4 re-arms so when rx_queue_intr_disable() found the channel still empty,
	 * prm/mlx4 §5.3): counted, not a misuse, while the event is unread on the CQ's event fd,
	 * or when a host took it (it then waits in the host's completion channel, where the model
	 * cannot see it read). Misuse check arm_sn: the event read from the fd by the driver, the
	 * sn not bumped (libmlx4 mlx4_cq_event, DPDK rx_queue_intr_disable).
	 */
	if ((int)sn == cq->fired_sn) {
		if (sim->hosted || mlx4v_sim_cq_event_unread(cq)) {
			sim->stats.arms_stale++;
			MLX4V_SIM_LOG(DEBUG, "%s: CQ 0x%x: arm with sn %u before its event read",
				      sim->name, cq->cqn, sn);
		} else {
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_ARM_SN,
					 "CQ 0x%x: arm with sn %u, which already fired", cq->cqn,
					 sn);
		}
		return;
	}
	cq->armed = cmd;
	cq->armed_sn = sn;
	sim->stats.arms++;
	/* Completions already beyond the armed CI: signal at once, or they'd be missed. */
	if (cmd == MLX4_CQ_DB_REQ_NOT && ((cq->pi - ci) & MLX4V_SIM_CI_MASK) != 0)
		mlx4v_sim_cq_raise(cq);
}

/*
 * Engine pass, sim lock held: the CQ error events to report once the lock is released (the
 * common layer takes the verbs lock, which ranks above the model lock).
 */
unsigned int
mlx4v_sim_cq_errors_take(struct mlx4v_sim *sim, uint32_t *cqns)
{
	struct mlx4v_sim_cq *cq;
	unsigned int i, n = 0;

	for (i = 0; i < MLX4V_SIM_MAX_CQ; i++) {
		cq = sim->cqs[i];
		if (cq == NULL || !cq->error_pending)
			continue;
		cq->error_pending = 0;
		cqns[n++] = cq->cqn;
	}
	return n;
}
