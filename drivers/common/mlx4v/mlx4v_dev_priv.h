/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The device registry's entries, shared by mlx4v_dev.c and mlx4v_recovery.c. */

#ifndef _MLX4V_DEV_PRIV_H_
#define _MLX4V_DEV_PRIV_H_

#include <stdint.h>

#include <rte_dev.h>

#include "mlx4v_verbs.h"

/** A registered device. Process-local: holds backend function pointers (contributing/style §2). */
struct mlx4v_dev_entry {
	char name[RTE_DEV_NAME_MAX_LEN];
	const struct mlx4v_verbs_ops *ops;
	void *priv;
	int socket;
	unsigned int nctx;
	/* Recovery (mlx4v_recovery.c), under the verbs lock unless said otherwise. */
	enum mlx4v_recovery_mode recovery;
	int state;                  /**< enum mlx4v_dev_state (atomic: read lock-free) */
	uint32_t life;              /**< recoveries so far (atomic) */
	unsigned int tries;         /**< attempts of the recovery under way */
	uint64_t recoveries;
};

/** The entry of a registered device, or NULL. Verbs lock held. */
struct mlx4v_dev_entry *mlx4v_dev_lookup(const char *name);

/**
 * Stop the recovery scheduled for a device being removed, waiting for an attempt that runs.
 * No lock held.
 */
void mlx4v_recovery_cancel(const char *name);

#endif /* _MLX4V_DEV_PRIV_H_ */
