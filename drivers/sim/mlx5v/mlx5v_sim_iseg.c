/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Init segment of the model: BAR0 pages 0-2 (prm/mlx5 §1), trapped register by register. */

#include <inttypes.h>

#include "mlx5v_sim_priv.h"

#define MLX5V_SIM_ISEG_PAGES (3 * MLX5V_UAR_PAGE_SIZE)
#define MLX5V_SIM_CMDQ_RESERVED_BIT (1u << 11)
/*
 * 32 slots of 64 bytes (prm/mlx5 §3.1): the part of the 4 KiB queue page that must be DMA-mapped.
 */
#define MLX5V_SIM_CMDQ_BYTES (MLX5V_CMD_MAX_SLOTS * MLX5V_CMD_ENT_SIZE)

void
mlx5v_sim_iseg_init(struct mlx5v_sim *sim)
{
	sim->cmdq_addr_h = 0;
	sim->cmdq_addr_l = 0;
	sim->nic_if = MLX5V_NIC_IF_FULL;
	sim->hca_state = MLX5V_SIM_HCA_DISABLED;
	/*
	 * PRM prm/mlx5 §1.3 model rule: "initializing" depends only on time since reset, never on
	 * the queue address write (the kernel waits for it before writing the address).
	 */
	sim->boot_deadline_ns = hwsim_now_ns() +
		(uint64_t)mlx5v_sim_knob(sim, MLX5V_SIM_K_BOOT_MS) * 1000000ull;
}

/*
 * Lock-free, relaxed: a poller that sees the old deadline for one read cannot tell it from a
 * slightly longer boot.
 */
int
mlx5v_sim_iseg_booting(struct mlx5v_sim *sim)
{
	return hwsim_now_ns() < __atomic_load_n(&sim->boot_deadline_ns, __ATOMIC_RELAXED);
}

/* Health buffer dword at absolute offset off (prm/mlx5 §4.1). */
static uint32_t
mlx5v_sim_iseg_health(struct mlx5v_sim *sim, uint32_t off)
{
	switch (off) {
	case MLX5V_HEALTH_FW_VER:
		return (MLX5V_SIM_FW_MINOR << 16) | MLX5V_SIM_FW_MAJOR;
	case MLX5V_HEALTH_HW_ID:
		return MLX5V_SIM_HW_ID;
	case MLX5V_HEALTH_RFR:
		return sim->health_rfr ? MLX5V_HEALTH_RFR_BIT : 0;
	case MLX5V_HEALTH_IRISC_INDEX:
		/* irisc_index (u8), synd (u8), ext_synd (BE16) share this dword. */
		return ((uint32_t)sim->health_synd << 16) | sim->health_ext_synd;
	default:
		return 0;
	}
}

uint32_t
mlx5v_sim_iseg_read(struct mlx5v_sim *sim, uint32_t off)
{
	uint64_t now;
	uint32_t v = 0;

	/* Only aligned dwords of pages 0-2 exist; a stray read is a driver bug and reads 0. */
	if (off % 4 != 0 || off >= MLX5V_SIM_ISEG_PAGES) {
		SIM_LOG(WARNING, "%s: init segment read at bad offset 0x%x", sim->name, off);
		return 0;
	}
	pthread_mutex_lock(&sim->lock);
	switch (off) {
	case MLX5V_ISEG_FW_REV:
		v = (MLX5V_SIM_FW_MINOR << 16) | MLX5V_SIM_FW_MAJOR;
		break;
	case MLX5V_ISEG_CMDIF_REV_FW_SUB:
		/*
		 * cmdif_rev must read 5, or both drivers refuse the device (prm/mlx5 §1.1, §2.1
		 * step 1).
		 */
		v = (MLX5V_CMDIF_REV << 16) | MLX5V_SIM_FW_SUBMINOR;
		break;
	case MLX5V_ISEG_CMDQ_ADDR_H:
		v = sim->cmdq_addr_h;
		break;
	case MLX5V_ISEG_CMDQ_ADDR_L_SZ:
		/* The log fields are read-only: 32 slots of 64 bytes (prm/mlx5 §3.1). */
		v = sim->cmdq_addr_l | ((uint32_t)sim->nic_if << MLX5V_NIC_IF_SHIFT) |
			(MLX5V_CMDQ_LOG_SIZE << 4) | MLX5V_CMDQ_LOG_STRIDE;
		break;
	case MLX5V_ISEG_INITIALIZING:
		/* prm/mlx5 §1.3: bit 31 only; bit 30 ([K] FW reset supported) is not modelled. */
		v = mlx5v_sim_iseg_booting(sim) ? MLX5V_ISEG_INITIALIZING_BIT : 0;
		break;
	/* prm/mlx5 §1.1: 0 unless a knob sets them, so kernel timeouts stay at their defaults. */
	case MLX5V_ISEG_CMD_EXEC_TO:
		v = (uint32_t)mlx5v_sim_knob(sim, MLX5V_SIM_K_CMD_EXEC_TO);
		break;
	case MLX5V_ISEG_CMD_Q_INIT_TO:
		v = (uint32_t)mlx5v_sim_knob(sim, MLX5V_SIM_K_CMD_Q_INIT_TO);
		break;
	case MLX5V_ISEG_HEALTH_COUNTER:
		/* [23:0] heartbeat; [31:24] stay 0 (prm/mlx5 §4.4). */
		v = __atomic_load_n(&sim->health_counter, __ATOMIC_RELAXED) & MLX5V_SIM_CTR_MASK;
		break;
	case MLX5V_SIM_ISEG_INTERNAL_TIMER_H:
	case MLX5V_SIM_ISEG_REAL_TIME_H:
		now = hwsim_now_ns();
		v = (uint32_t)(now >> 32);
		break;
	case MLX5V_SIM_ISEG_INTERNAL_TIMER_L:
	case MLX5V_SIM_ISEG_REAL_TIME_L:
		now = hwsim_now_ns();
		v = (uint32_t)now;
		break;
	default:
		/*
		 * Health buffer 0x200-0x23f (prm/mlx5 §4.1); every other offset is reserved and
		 * reads 0.
		 */
		if (off >= MLX5V_ISEG_HEALTH && off < MLX5V_ISEG_HEALTH + 64)
			v = mlx5v_sim_iseg_health(sim, off);
		break;
	}
	pthread_mutex_unlock(&sim->lock);
	return v;
}

/* The driver's nic_interface request in 0x014 [10:8] (prm/mlx5 §1.2, §2.3). Lock held. */
static void
mlx5v_sim_iseg_nic_request(struct mlx5v_sim *sim, uint8_t req)
{
	switch (req) {
	case MLX5V_NIC_IF_FULL:
		/*
		 * Every queue-address write carries 0 in bits 10:8, an implicit FULL request
		 * (prm/mlx5 §1.2).
		 */
		sim->nic_if = MLX5V_NIC_IF_FULL;
		break;
	case MLX5V_NIC_IF_DISABLED:
		/* Fast teardown step 3: reflected at once, well inside the 3 s the driver polls. */
		if (!sim->fast_teardown_prepared)
			SIM_LOG(WARNING, "%s: nic_interface DISABLED requested without "
				"TEARDOWN_HCA PREPARE_FAST_TEARDOWN", sim->name);
		sim->nic_if = MLX5V_NIC_IF_DISABLED;
		/*
		 * teardown_offline: the function drops off the bus instead (a VF whose PF
		 * reset it, a surprise removal): every read from now on is all ones
		 * (prm/mlx5 §1.2).
		 */
		if (mlx5v_sim_knob(sim, MLX5V_SIM_K_TEARDOWN_OFFLINE) != 0)
			__atomic_store_n(&sim->pci_offline, 1, __ATOMIC_RELAXED);
		break;
	case MLX5V_NIC_IF_SW_RESET:
		/* [K] software reset: the function ends up disabled; the model keeps objects. */
		SIM_LOG(NOTICE, "%s: software reset requested; nic_interface reads DISABLED",
			sim->name);
		sim->nic_if = MLX5V_NIC_IF_DISABLED;
		break;
	default:
		/*
		 * 2 (NO_DRAM_NIC) and 3 (INVALID) read back as written; no driver in the sources
		 * requests them (prm/mlx5 §1.2).
		 */
		sim->nic_if = req;
		break;
	}
}

void
mlx5v_sim_iseg_write(struct mlx5v_sim *sim, uint32_t off, uint32_t val)
{
	uint64_t q;

	if (off % 4 != 0 || off >= MLX5V_SIM_ISEG_PAGES) {
		SIM_LOG(WARNING, "%s: init segment write at bad offset 0x%x", sim->name, off);
		return;
	}
	/*
	 * Before the lock: the doorbell path takes it itself and kicks the engine after dropping
	 * it.
	 */
	if (off == MLX5V_ISEG_CMD_DBELL) {
		/* Bit s posts slot s; the engine reads the entries (prm/mlx5 §3.5). */
		mlx5v_sim_cmd_doorbell(sim, val);
		return;
	}
	pthread_mutex_lock(&sim->lock);
	switch (off) {
	case MLX5V_ISEG_CMDQ_ADDR_H:
		/*
		 * Checked with the next 0x014 write: drivers write 0x010 first (prm/mlx5 §2.1 step
		 * 3).
		 */
		sim->cmdq_addr_h = val;
		break;
	case MLX5V_ISEG_CMDQ_ADDR_L_SZ:
		/* Bits 7:0 are read-only, bit 11 reserved; the queue is 4 KiB aligned. */
		if (val & MLX5V_SIM_CMDQ_RESERVED_BIT)
			SIM_LOG(WARNING, "%s: 0x014 written with reserved bit 11 set (0x%08x)",
				sim->name, val);
		sim->cmdq_addr_l = val & MLX5V_CMDQ_ADDR_MASK;
		mlx5v_sim_iseg_nic_request(sim, (val >> MLX5V_NIC_IF_SHIFT) & MLX5V_NIC_IF_MASK);
		q = ((uint64_t)sim->cmdq_addr_h << 32) | sim->cmdq_addr_l;
		/*
		 * prm/mlx5 §13 deviation: an unmapped queue is logged, not rejected. Each command
		 * then faults and is lost, which the driver sees as a timeout.
		 */
		if (sim->nic_if == MLX5V_NIC_IF_FULL &&
				!hwsim_dma_check(sim->dma, q, MLX5V_SIM_CMDQ_BYTES))
			SIM_LOG(WARNING, "%s: command queue 0x%" PRIx64 " is not DMA mapped "
				"(commands will fault until it is)", sim->name, q);
		break;
	default:
		/* Read-only and reserved registers ignore writes, as on hardware. */
		SIM_LOG(DEBUG, "%s: write 0x%08x to read-only register 0x%x ignored",
			sim->name, val, off);
		break;
	}
	pthread_mutex_unlock(&sim->lock);
}
