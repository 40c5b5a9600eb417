/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The raw command policy of rte_pmd_mlx5v_devx_general_cmd(): opcodes and ownership. */

#ifndef _MLX5V_DEVX_POLICY_H_
#define _MLX5V_DEVX_POLICY_H_

#include <stddef.h>
#include <stdint.h>

/** How the policy treats an opcode (the devx column of the opcode table in mlx5v_cmd.c). */
enum mlx5v_devx_rule {
	MLX5V_DEVX_UNLISTED = 0, /**< not in the policy: refused */
	MLX5V_DEVX_DENY,         /**< function management: reserved to the driver */
	MLX5V_DEVX_ANY,          /**< a query of the function: always allowed */
	MLX5V_DEVX_PORT,         /**< changes the port or vport: only while no net class owns it */
	MLX5V_DEVX_CREATE,       /**< creates an object of fam; its id is tracked on success */
	MLX5V_DEVX_USE,          /**< names an object of fam, which must be the caller's */
	MLX5V_DEVX_DESTROY,      /**< destroys an object of fam, which must be the caller's */
};

/** Object families the raw path can create, each with its own id space. */
enum mlx5v_devx_fam {
	MLX5V_DEVX_FAM_NONE = 0,
	MLX5V_DEVX_FAM_EQ,
	MLX5V_DEVX_FAM_CQ,
	MLX5V_DEVX_FAM_PD,
	MLX5V_DEVX_FAM_TD,
	MLX5V_DEVX_FAM_MKEY,
	MLX5V_DEVX_FAM_QCNT,
	MLX5V_DEVX_FAM_TIS,
	MLX5V_DEVX_FAM_SQ,
	MLX5V_DEVX_FAM_RQ,
	MLX5V_DEVX_FAM_RQT,
	MLX5V_DEVX_FAM_TIR,
	MLX5V_DEVX_FAM_FT,
	MLX5V_DEVX_FAM_FG,
};

/** The objects of one device created through the raw path (opaque). */
struct mlx5v_devx_raw;

/** What the policy needs to know of the device, gathered by the caller per command. */
struct mlx5v_devx_policy_env {
	int port_owned;       /**< a class that owns the ports (MLXV_CLASS_F_OWNS_PORT) is probed */
	uint32_t async_eqn;   /**< the driver's async EQ (UINT32_MAX if none) */
	/** @return 1 if eqn is an EQ of rte_pmd_mlx5v_devx_create_eq() on this device. */
	int (*eq_owned)(void *arg, uint32_t eqn);
	/** @return 1 if page is a UAR of rte_pmd_mlx5v_devx_alloc_uar() on this device. */
	int (*uar_owned)(void *arg, uint32_t page);
	void *arg;
};

/** One command between mlx5v_devx_policy_check() and mlx5v_devx_policy_done(). */
struct mlx5v_devx_policy_req {
	uint16_t opcode;
	uint8_t fam;
	uint8_t track;        /**< a create: track the returned id on success */
	uint8_t untracked;    /**< a destroy: id was untracked, restore it on failure */
	uint32_t id;
};

/** @return an empty table, or NULL (no memory). */
struct mlx5v_devx_raw *mlx5v_devx_raw_create(void);

/** Free the table (the objects themselves are the caller's to destroy). NULL is a no-op. */
void mlx5v_devx_raw_destroy(struct mlx5v_devx_raw *raw);

/** @return the number of objects tracked, for tests and telemetry. */
unsigned int mlx5v_devx_raw_count(struct mlx5v_devx_raw *raw);

/**
 * Decide whether the raw path may run the command in inbox (inlen >= 16 bytes). A destroy
 * of a tracked object untracks it at once. Any thread; the table has its own lock.
 *
 * @return 0 (run it, then call mlx5v_devx_policy_done()), or -EPERM (logged once).
 */
int mlx5v_devx_policy_check(struct mlx5v_devx_raw *raw, const struct mlx5v_devx_policy_env *env,
			    const void *inbox, size_t inlen, struct mlx5v_devx_policy_req *req);

/** After an allowed command ran with result ret (0 or -errno): track or restore ids. */
void mlx5v_devx_policy_done(struct mlx5v_devx_raw *raw, const struct mlx5v_devx_policy_req *req,
			    int ret, const void *out);

#endif /* _MLX5V_DEVX_POLICY_H_ */
