/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Fixture of the DEVX EQ / MSI-vector API programs (ut_mlx5v_devx.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_errno.h>

#include "test.h"

#include "ut_mlx5v_devx.h"

struct rte_pmd_mlx5v_dev *g_dev;
struct mlx5v_sim *g_sim;
struct rte_pmd_mlx5v_uar *g_uar;

/* Build a create_eq_in: only what a caller fills (no log_page_size, no PAS). */
void
ut_eq_in_build(uint8_t *in, size_t len, unsigned int log_size, uint32_t uar_page,
	       uint32_t intr, uint64_t mask0)
{
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;

	memset(in, 0, len);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, log_size);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, uar_page);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, intr);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK, mask0);
}

/* Create an EQ with the public API. @return it or NULL; *eqn set. */
struct rte_pmd_mlx5v_eq *
ut_eq_create(unsigned int log_size, uint32_t intr, uint64_t mask0, uint32_t *eqn)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_eq *eq;

	ut_eq_in_build(in, sizeof(in), log_size, g_uar->page_id, intr, mask0);
	memset(out, 0, sizeof(out));
	eq = rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out));
	if (eq != NULL)
		*eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	else
		printf("create_eq: %s\n", strerror(errno));
	return eq;
}

/* QUERY_EQ through the general command into out (0x118 bytes). */
int
ut_eq_query(uint32_t eqn, uint8_t *out, size_t outlen)
{
	uint8_t in[RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE];

	memset(in, 0, sizeof(in));
	memset(out, 0, outlen);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_EQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	return rte_pmd_mlx5v_devx_general_cmd(g_dev, in, sizeof(in), out, outlen);
}

/* GEN_EQE: the device writes an EQE of type/sub_type (data byte 0 = tag) into eqn. */
int
ut_gen_eqe(uint32_t eqn, uint8_t type, uint8_t sub_type, uint8_t tag)
{
	uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE];
	uint8_t *eqe = in + RTE_PMD_MLX5V_GEN_EQE_IN_EQE;

	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_GEN_EQE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF] = type;
	eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF] = sub_type;
	eqe[RTE_PMD_MLX5V_EQE_DATA_OFF] = tag;
	/* A wrong owner value on purpose: the device sets the owner bit itself. */
	eqe[RTE_PMD_MLX5V_EQE_OWNER_OFF] = 0x5a;
	return rte_pmd_mlx5v_devx_general_cmd(g_dev, in, sizeof(in), out, sizeof(out));
}

/* Wait until the EQ context field (dw, hi, lo) of eqn reads want. */
static int
ut_wait_eqc(uint32_t eqn, unsigned int dw, unsigned int hi, unsigned int lo, uint32_t want)
{
	uint8_t out[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8];
	unsigned int ms;

	for (ms = 0; ms < UT_WAIT_LIMIT_MS; ms++) {
		if (ut_eq_query(eqn, out, sizeof(out)) != 0)
			return -1;
		if (rte_pmd_mlx5v_prm_get(out + RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC, dw, hi, lo) == want)
			return 0;
		ut_sleep_ms(1);
	}
	return -1;
}

/* Wait until the device's consumer counter of eqn reads ci (doorbells are asynchronous). */
int
ut_wait_eq_ci(uint32_t eqn, uint32_t ci)
{
	return ut_wait_eqc(eqn, RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER, ci & 0xffffff);
}

/* Wait until eqn reads state st (ARMED / FIRED). */
int
ut_wait_eq_st(uint32_t eqn, uint32_t st)
{
	return ut_wait_eqc(eqn, RTE_PMD_MLX5V_EQC_ST, st);
}

void
ut_drain_fd(int fd)
{
	uint64_t cnt;

	while (read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		;
}

unsigned int
ut_live_eqs(void)
{
	return mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_EQ);
}

unsigned int
ut_live_windows(void)
{
	return mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_DMA_WINDOWS);
}

int
ut_devx_setup(void)
{
	if (rte_vdev_init(VDEV_NAME, VDEV_ARGS) != 0) {
		printf("rte_vdev_init(%s): %s\n", VDEV_NAME, rte_strerror(rte_errno));
		return TEST_FAILED;
	}
	g_dev = rte_pmd_mlx5v_dev_get(VDEV_NAME);
	g_sim = mlx5v_sim_get(VDEV_NAME);
	if (g_dev == NULL || g_sim == NULL)
		return TEST_FAILED;
	g_uar = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	if (g_uar == NULL)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

void
ut_devx_teardown(void)
{
	if (g_uar != NULL)
		rte_pmd_mlx5v_devx_free_uar(g_uar);
	g_uar = NULL;
	rte_vdev_uninit(VDEV_NAME);
}
