/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Log type pmd.common.mlx4v. */

#ifndef _MLX4V_LOG_H_
#define _MLX4V_LOG_H_

#include <rte_log.h>

extern int mlx4v_logtype;

#define MLX4V_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx4v_logtype, "mlx4v: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#endif /* _MLX4V_LOG_H_ */
