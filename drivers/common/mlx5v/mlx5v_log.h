/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Log types of the mlx5v core: pmd.common.mlx5v, its .cmd and .eq parts. */

#ifndef _MLX5V_LOG_H_
#define _MLX5V_LOG_H_

#include <rte_log.h>

/* Registered in mlx5v_dev.c with default level NOTICE. */
extern int mlx5v_logtype;
extern int mlx5v_logtype_cmd;
extern int mlx5v_logtype_eq;

/** Core log line (newline appended): MLX5V_LOG(ERR, "%s: ...", dev->name). */
#define MLX5V_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5v_logtype, "mlx5v: " fmt "\n", ## __VA_ARGS__)

/** Command-interface log line (pmd.common.mlx5v.cmd). */
#define MLX5V_CMD_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5v_logtype_cmd, "mlx5v.cmd: " fmt "\n", ## __VA_ARGS__)

/** EQ log line (pmd.common.mlx5v.eq). */
#define MLX5V_EQ_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5v_logtype_eq, "mlx5v.eq: " fmt "\n", ## __VA_ARGS__)

#endif /* _MLX5V_LOG_H_ */
