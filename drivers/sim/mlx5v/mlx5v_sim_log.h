/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Log type of the mlx5 device model: pmd.sim.mlx5v. */

#ifndef _MLX5V_SIM_LOG_H_
#define _MLX5V_SIM_LOG_H_

#include <rte_log.h>

/** Registered in mlx5v_sim.c with RTE_LOG_REGISTER_DEFAULT. */
extern int mlx5v_sim_logtype;

/**
 * Log one line (newline appended) at RTE_LOG_<level>. The model logs driver bugs it
 * detects (bad doorbells, software-owned rings, leaks) at WARNING, so tests see them.
 */
#define SIM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5v_sim_logtype, "mlx5v_sim: " fmt "\n", ## __VA_ARGS__)

#endif /* _MLX5V_SIM_LOG_H_ */
