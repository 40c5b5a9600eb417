/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Every timeout of the mlx5v core, in one enum and one table. */

#ifndef _MLX5V_TOUT_H_
#define _MLX5V_TOUT_H_

#include <stdint.h>

/**
 * Timeouts (milliseconds). Every wait in the core is bounded by one of these
 * (contributing/style §5). The defaults are the kernel's (prm/mlx5 §1.3, §3.10, §4.4,
 * §5.2); the simulator vdev scales them with its tout_scale devarg and overrides single
 * ones with cmd_to_ms / health_ms.
 */
enum mlx5v_tout {
	MLX5V_TO_FW_PRE_INIT,   /**< "initializing" to clear after reset: 120 000 ms */
	MLX5V_TO_FW_INIT,       /**< "initializing" after the queue is programmed: 2 000 ms */
	MLX5V_TO_CMD,           /**< one command: 60 000 ms */
	MLX5V_TO_CMD_RECOVER,   /**< after an EQ-poll recovery, before -ETIMEDOUT: 5 000 ms */
	MLX5V_TO_CMD_SLOT,      /**< waiting for a free command slot: 60 000 ms */
	MLX5V_TO_PAGES_RECLAIM, /**< reclaim without progress: 5 000 ms */
	MLX5V_TO_HEALTH_POLL,   /**< health poll interval: 2 000 ms */
	MLX5V_TO_FAST_TEARDOWN, /**< nic_interface to read DISABLED: 3 000 ms */
	MLX5V_TO_MAX,
};

/** Default values, indexed by enum mlx5v_tout. */
static const uint32_t mlx5v_tout_default_ms[MLX5V_TO_MAX] = {
	[MLX5V_TO_FW_PRE_INIT] = 120000,
	[MLX5V_TO_FW_INIT] = 2000,
	[MLX5V_TO_CMD] = 60000,
	[MLX5V_TO_CMD_RECOVER] = 5000,
	[MLX5V_TO_CMD_SLOT] = 60000,
	[MLX5V_TO_PAGES_RECLAIM] = 5000,
	[MLX5V_TO_HEALTH_POLL] = 2000,
	[MLX5V_TO_FAST_TEARDOWN] = 3000,
};

/** Names, for logs and devargs documentation. */
static const char *const mlx5v_tout_name[MLX5V_TO_MAX] = {
	[MLX5V_TO_FW_PRE_INIT] = "fw_pre_init",
	[MLX5V_TO_FW_INIT] = "fw_init",
	[MLX5V_TO_CMD] = "cmd",
	[MLX5V_TO_CMD_RECOVER] = "cmd_recover",
	[MLX5V_TO_CMD_SLOT] = "cmd_slot",
	[MLX5V_TO_PAGES_RECLAIM] = "pages_reclaim",
	[MLX5V_TO_HEALTH_POLL] = "health_poll",
	[MLX5V_TO_FAST_TEARDOWN] = "fast_teardown",
};

/** Polling interval while waiting for "initializing" ([R]: 2 ms). */
#define MLX5V_FW_INIT_POLL_US 2000

#endif /* _MLX5V_TOUT_H_ */
