/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Fixture of the DEVX EQ / MSI-vector API programs: one simulated device probed
 * through the vdev bus, a UAR, and the command builders the tests share.
 */

#ifndef _UT_MLX5V_DEVX_H_
#define _UT_MLX5V_DEVX_H_

#include <stddef.h>
#include <stdint.h>

#include "mlx5v_dev.h"
#include "mlx5v_devx.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v.h"
#include "ut_common.h"

#define VDEV_NAME "mlx5v_sim0"
#define VDEV_ARGS "msix=8"
#define NB_MSIX 8

/* The simulator's syndrome for "uar_page not allocated" (mlx5v_sim_priv.h). */
#define SIM_SYND_EQ_UAR 0x51030004u

extern struct rte_pmd_mlx5v_dev *g_dev;
extern struct mlx5v_sim *g_sim;
extern struct rte_pmd_mlx5v_uar *g_uar;

void ut_eq_in_build(uint8_t *in, size_t len, unsigned int log_size, uint32_t uar_page,
		    uint32_t intr, uint64_t mask0);
struct rte_pmd_mlx5v_eq *ut_eq_create(unsigned int log_size, uint32_t intr, uint64_t mask0,
				       uint32_t *eqn);
int ut_eq_query(uint32_t eqn, uint8_t *out, size_t outlen);
int ut_gen_eqe(uint32_t eqn, uint8_t type, uint8_t sub_type, uint8_t tag);
int ut_wait_eq_ci(uint32_t eqn, uint32_t ci);
int ut_wait_eq_st(uint32_t eqn, uint32_t st);
void ut_drain_fd(int fd);
unsigned int ut_live_eqs(void);
unsigned int ut_live_windows(void);
int ut_devx_setup(void);
void ut_devx_teardown(void);

#endif /* _UT_MLX5V_DEVX_H_ */
