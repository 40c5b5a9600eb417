/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Health: heartbeat and fatal sensors from an EAL alarm; fatal -> dead, never abort. */

#include <errno.h>
#include <inttypes.h>

#include <rte_alarm.h>
#include <rte_common.h>

#include "mlx5v_dev.h"
#include "mlx5v_log.h"

/*
 * The kernel's MAX_MISSES: a heartbeat stuck for this many polls is reported, and fatal only
 * under health_strict (prm/mlx5 §4.4).
 */
#define MLX5V_HEALTH_MAX_MISSES 3
/*
 * [R] masks the heartbeat to 24 bits; DPDK declares bits 31:24 as health_syndrome, so comparing all
 * 32 bits as [K] does could see a change that is not a heartbeat (prm/mlx5 §1.1).
 */
#define MLX5V_HEALTH_COUNTER_MASK 0xffffffu

/* Syndrome texts of prm/mlx5 §4.2, for the one-time report of a dead device. */
const char *
mlx5v_health_synd_str(uint8_t synd)
{
	switch (synd) {
	case MLX5V_HEALTH_SYND_FW_ERR:
		return "firmware internal error";
	case MLX5V_HEALTH_SYND_IRISC_ERR:
		return "irisc not responding";
	case MLX5V_HEALTH_SYND_HW_UNRECOVERABLE_ERR:
		return "unrecoverable hardware error";
	case MLX5V_HEALTH_SYND_CRC_ERR:
		return "firmware CRC error";
	case MLX5V_HEALTH_SYND_FETCH_PCI_ERR:
		return "ICM fetch PCI error";
	case MLX5V_HEALTH_SYND_HW_FTL_ERR:
		return "HW fatal error";
	case MLX5V_HEALTH_SYND_ASYNC_EQ_OVERRUN_ERR:
		return "async EQ buffer overrun";
	case MLX5V_HEALTH_SYND_EQ_ERR:
		return "EQ error";
	case MLX5V_HEALTH_SYND_EQ_INV:
		return "invalid EQ referenced";
	case MLX5V_HEALTH_SYND_FFSER_ERR:
		return "FFSER error";
	case MLX5V_HEALTH_SYND_HIGH_TEMP:
		return "high temperature";
	default:
		return "unrecognized error";
	}
}

const char *
mlx5v_health_reason_str(enum mlx5v_dead_reason why)
{
	switch (why) {
	case MLX5V_DEAD_PCI_COMM_ERR:
		return "PCI communication error (all-ones reads)";
	case MLX5V_DEAD_NIC_DISABLED:
		return "NIC interface disabled";
	case MLX5V_DEAD_NIC_SW_RESET:
		return "NIC interface in software reset";
	case MLX5V_DEAD_FW_SYND_RFR:
		return "firmware syndrome with recovery flow required";
	case MLX5V_DEAD_HEARTBEAT:
		return "health counter stuck";
	case MLX5V_DEAD_CMD_IF:
		return "command interface unusable";
	case MLX5V_DEAD_FUNC_RESET:
		return "function reset behind the driver (command queue address lost)";
	case MLX5V_DEAD_CMD_TIMEOUTS:
		return "commands time out: the firmware stopped answering";
	case MLX5V_DEAD_USER:
		return "declared dead by the driver";
	default:
		return "none";
	}
}

/* Log the decoded health buffer (prm/mlx5 §4.1), as rdma-core prints it before abort(). */
void
mlx5v_health_report(struct mlx5v_dev *dev, enum mlx5v_dead_reason why)
{
	struct mlx5v_hw *hw = mlx5v_dev_hw(dev);
	/* irisc_index, synd and ext_synd share the dword at 0x23c (prm/mlx5 §4.1). */
	uint32_t w23c = mlx5v_hw_rd32(hw, MLX5V_HEALTH_IRISC_INDEX);
	uint8_t synd = (w23c >> 16) & 0xff;
	unsigned int i;

	MLX5V_LOG(ERR, "%s: device is dead: %s", dev->name, mlx5v_health_reason_str(why));
	/*
	 * Five assert_var words: the [R] layout; the kernel's sixth word overlaps a reserved word
	 * in [R] and is not needed by any check (prm/mlx5 §4.1).
	 */
	for (i = 0; i < 5; i++)
		MLX5V_LOG(ERR, "%s: assert_var[%u] 0x%08x", dev->name, i,
			  mlx5v_hw_rd32(hw, MLX5V_HEALTH_ASSERT_VAR0 + 4 * i));
	MLX5V_LOG(ERR, "%s: assert_exit_ptr 0x%08x, assert_callra 0x%08x", dev->name,
		  mlx5v_hw_rd32(hw, MLX5V_HEALTH_ASSERT_EXIT_PTR),
		  mlx5v_hw_rd32(hw, MLX5V_HEALTH_ASSERT_CALLRA));
	MLX5V_LOG(ERR, "%s: fw_ver 0x%08x, hw_id 0x%08x, rfr %u, irisc_index %u", dev->name,
		  mlx5v_hw_rd32(hw, MLX5V_HEALTH_FW_VER), mlx5v_hw_rd32(hw, MLX5V_HEALTH_HW_ID),
		  mlx5v_hw_rd32(hw, MLX5V_HEALTH_RFR) >> 31, w23c >> 24);
	MLX5V_LOG(ERR, "%s: syndrome 0x%02x (%s), ext_synd 0x%04x", dev->name, synd,
		  mlx5v_health_synd_str(synd), w23c & 0xffff);
}

/*
 * Called from the health alarm on the EAL interrupt thread, and from tests on an lcore;
 * it only reads init-segment registers, so it needs no lock. A dead device is not
 * re-reported.
 */
int
mlx5v_health_check(struct mlx5v_dev *dev)
{
	struct mlx5v_health *h;
	struct mlx5v_hw *hw;
	uint32_t addr_l, nic_if, rfr, w23c, count;
	uint8_t synd;

	if (dev == NULL)
		return -EINVAL;
	h = &dev->health;
	hw = mlx5v_dev_hw(dev);
	h->polls++;
	if (mlx5v_dev_is_dead(dev))
		return -ENOLINK;
	/*
	 * Every sensor below means the device is gone: switch to dead (prm/mlx5 §3.11) where
	 * rdma-core would abort() (prm/mlx5 §12 #2).
	 */
	/* Fatal sensors in the PRM order (prm/mlx5 §4.3). 1: an offline PCI link reads all ones. */
	if (mlx5v_hw_rd32(hw, MLX5V_HEALTH_FW_VER) == UINT32_MAX) {
		mlx5v_dev_set_dead(dev, MLX5V_DEAD_PCI_COMM_ERR);
		return -ENOLINK;
	}
	/* 2 (PCI channel offline) has no user-space equivalent. 3 and 4: NIC interface. */
	addr_l = mlx5v_hw_rd32(hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	nic_if = (addr_l >> MLX5V_NIC_IF_SHIFT) & MLX5V_NIC_IF_MASK;
	/*
	 * During a requested fast teardown nic_interface = DISABLED is expected, but the health
	 * poll is stopped before teardown starts (mlx5v_dev_unload()), so here it is always fatal
	 * (prm/mlx5 §4.4).
	 */
	if (nic_if == MLX5V_NIC_IF_DISABLED) {
		mlx5v_dev_set_dead(dev, MLX5V_DEAD_NIC_DISABLED);
		return -ENOLINK;
	}
	if (nic_if == MLX5V_NIC_IF_SW_RESET) {
		mlx5v_dev_set_dead(dev, MLX5V_DEAD_NIC_SW_RESET);
		return -ENOLINK;
	}
	/*
	 * Not a PRM sensor: a function level reset the driver was not told of (the host's
	 * VFIO_DEVICE_RESET, a sysfs reset) clears the command queue address, and the firmware
	 * then never sees a command of ours (prm/mlx5 §2.1 step 6 writes it once per bring-up;
	 * needs a card: doc/guides/nics/running_on_hardware.rst, "VFIO emulation"). Compared with
	 * what bring-up read back, so bits a device masks do not count.
	 */
	if ((addr_l & MLX5V_CMDQ_ADDR_MASK) != dev->cmd.iseg_addr_l ||
	    mlx5v_hw_rd32(hw, MLX5V_ISEG_CMDQ_ADDR_H) != dev->cmd.iseg_addr_h) {
		mlx5v_dev_set_dead(dev, MLX5V_DEAD_FUNC_RESET);
		return -ENOLINK;
	}
	/* 5: recovery flow required together with a syndrome. */
	rfr = mlx5v_hw_rd32(hw, MLX5V_HEALTH_RFR);
	w23c = mlx5v_hw_rd32(hw, MLX5V_HEALTH_IRISC_INDEX);
	synd = (w23c >> 16) & 0xff;
	if ((rfr & MLX5V_HEALTH_RFR_BIT) && synd != 0) {
		mlx5v_dev_set_dead(dev, MLX5V_DEAD_FW_SYND_RFR);
		return -ENOLINK;
	/*
	 * A syndrome without RFR is reported but not fatal: only the combination is a fatal sensor
	 * (prm/mlx5 §4.3 #5).
	 */
	}
	if (synd != 0)
		MLX5V_LOG(WARNING, "%s: health syndrome 0x%02x (%s) without recovery flag",
			  dev->name, synd, mlx5v_health_synd_str(synd));
	/*
	 * Heartbeat: firmware advances health_counter[23:0]. 3 stuck polls are reported; as in
	 * Linux, death comes from the fatal sensors above. health_strict makes the stall fatal,
	 * as rdma-core does (prm/mlx5 §4.4).
	 */
	count = mlx5v_hw_rd32(hw, MLX5V_ISEG_HEALTH_COUNTER) & MLX5V_HEALTH_COUNTER_MASK;
	/*
	 * The first poll compares with the value read at start, not with 0 as [R] does, so a
	 * counter that happens to read 0 at start is not a miss (prm/mlx5 §4.4).
	 */
	if (count == h->prev_counter) {
		MLX5V_LOG(DEBUG, "%s: health counter stuck at 0x%06x (%u)", dev->name, count,
			  h->miss + 1);
		/* miss stops at the limit: a stall is reported once, however long it lasts. */
		if (h->miss < MLX5V_HEALTH_MAX_MISSES && ++h->miss == MLX5V_HEALTH_MAX_MISSES) {
			if (dev->health_strict) {
				mlx5v_dev_set_dead(dev, MLX5V_DEAD_HEARTBEAT);
				return -ENOLINK;
			}
			h->stalls++;
			MLX5V_LOG(ERR, "%s: health compromised: counter stuck at 0x%06x for %u "
				  "polls (reported, not fatal; health_strict=1 makes it fatal)",
				  dev->name, count, h->miss);
		}
	} else {
		if (h->miss >= MLX5V_HEALTH_MAX_MISSES)
			MLX5V_LOG(NOTICE, "%s: health counter moves again", dev->name);
		h->miss = 0;
	}
	h->prev_counter = count;
	return 0;
}

/* EAL alarm callback (EAL interrupt thread): one check, then re-arm unless stopped or dead. */
static void
mlx5v_health_poll(void *arg)
{
	struct mlx5v_dev *dev = arg;
	struct mlx5v_health *h = &dev->health;

	/*
	 * Checked before touching the device: unload sets stop, then cancels the alarm; a callback
	 * already past this point finishes one harmless check.
	 */
	if (__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE))
		return;
	/*
	 * No re-arm once dead: recovery is a reload, never a restart of this poll on a dead device.
	 */
	if (mlx5v_health_check(dev) < 0)
		return;
	/*
	 * A fixed period without [K]'s random jitter: one device per alarm, so no thundering herd
	 * to avoid (prm/mlx5 §4.4).
	 */
	if (rte_eal_alarm_set((uint64_t)mlx5v_tout_ms(dev, MLX5V_TO_HEALTH_POLL) * 1000,
			      mlx5v_health_poll, dev) != 0)
		MLX5V_LOG(ERR, "%s: cannot re-arm the health poll", dev->name);
}

void
mlx5v_health_start(struct mlx5v_dev *dev)
{
	struct mlx5v_health *h = &dev->health;

	h->miss = 0;
	/*
	 * Baseline read at start so that the first poll can only miss if the counter really
	 * stopped.
	 */
	h->prev_counter = mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_HEALTH_COUNTER) &
			  MLX5V_HEALTH_COUNTER_MASK;
	__atomic_store_n(&h->stop, 0, __ATOMIC_RELEASE);
	if (rte_eal_alarm_set((uint64_t)mlx5v_tout_ms(dev, MLX5V_TO_HEALTH_POLL) * 1000,
			      mlx5v_health_poll, dev) != 0) {
		MLX5V_LOG(ERR, "%s: cannot start the health poll", dev->name);
		return;
	}
	h->running = 1;
}

void
mlx5v_health_stop(struct mlx5v_dev *dev)
{
	struct mlx5v_health *h = &dev->health;

	if (!h->running)
		return;
	__atomic_store_n(&h->stop, 1, __ATOMIC_RELEASE);
	/* Waits for a callback running on the interrupt thread. */
	/*
	 * rte_eal_alarm_cancel() waits for a running callback unless called from the interrupt
	 * thread itself, where the callback cannot be running.
	 */
	rte_eal_alarm_cancel(mlx5v_health_poll, dev);
	h->running = 0;
}
