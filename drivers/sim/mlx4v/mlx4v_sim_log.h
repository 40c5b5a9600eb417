/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Log type of the simulated ConnectX-3: pmd.sim.mlx4v. */

#ifndef _MLX4V_SIM_LOG_H_
#define _MLX4V_SIM_LOG_H_

#include <rte_log.h>

/** Registered in mlx4v_sim.c. */
extern int mlx4v_sim_logtype;

#define MLX4V_SIM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx4v_sim_logtype, "mlx4v_sim: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#endif /* _MLX4V_SIM_LOG_H_ */
