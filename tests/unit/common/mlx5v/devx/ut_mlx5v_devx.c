/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Fixture of the DEVX EQ / MSI-vector API programs (ut_mlx5v_devx.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* Wait until the device reads CQ cqn as state st (ARMED / FIRED). */
int
ut_wait_cq_st(uint32_t cqn, uint32_t st)
{
	uint8_t in[16];
	uint8_t out[RTE_PMD_MLX5V_QUERY_CQ_OUT_SIZE + 8];
	unsigned int ms;

	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_CQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN, cqn);
	for (ms = 0; ms < UT_WAIT_LIMIT_MS; ms++) {
		/* Internal: CQs of mlx5v_devx_cq_create() are the driver's, not the raw path's. */
		if (mlx5v_cmd_do((struct mlx5v_dev *)g_dev, in, sizeof(in), out, sizeof(out)) != 0)
			return -1;
		if (RTE_PMD_MLX5V_GET(out + RTE_PMD_MLX5V_QUERY_CQ_OUT_CQC,
				      RTE_PMD_MLX5V_CQC_ST) == st)
			return 0;
		ut_sleep_ms(1);
	}
	return -1;
}

const char *
ut_src_name(enum ut_src_kind kind)
{
	return kind == UT_SRC_GEN_EQE ? "GEN_EQE" : "CQ completion";
}

/* Bind an event source to EQ eqn: for UT_SRC_CQE a 16-entry CQ reporting to it. */
int
ut_src_open(struct ut_src *s, enum ut_src_kind kind, uint32_t eqn)
{
	return ut_src_open_uar(s, kind, eqn, g_uar);
}

int
ut_src_open_uar(struct ut_src *s, enum ut_src_kind kind, uint32_t eqn,
		struct rte_pmd_mlx5v_uar *uar)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->eqn = eqn;
	if (kind == UT_SRC_GEN_EQE)
		return 0;
	s->cq = mlx5v_devx_cq_create((struct mlx5v_dev *)g_dev, 4, eqn, uar);
	if (s->cq == NULL) {
		printf("CQ on EQ %u: %s\n", eqn, rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

/*
 * One event on the EQ, written before this returns. UT_SRC_CQE: arm the CQ (its arm doorbell
 * is asynchronous: wait until the device reads it ARMED), complete one CQE, which fires the
 * armed CQ into the EQ, then consume the CQE and account the event, so the next arm carries
 * the next sequence number and the CQ never overruns (prm/mlx5 §7.3). The tag is not in a
 * completion EQE (it names the CQ); it goes into the CQE's byte count.
 */
int
ut_src_raise(struct ut_src *s, uint8_t tag)
{
	if (s->kind == UT_SRC_GEN_EQE)
		return ut_gen_eqe(s->eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, tag);
	mlx5v_devx_cq_arm(s->cq, 0);
	if (ut_wait_cq_st(s->cq->cqn, RTE_PMD_MLX5V_EQC_ST_ARMED) != 0 ||
	    mlx5v_sim_post_cqe(g_sim, s->cq->cqn, 0x2, tag) != 0 ||
	    mlx5v_devx_cq_poll(s->cq) != 1)
		return -1;
	mlx5v_devx_cq_event(s->cq);
	return 0;
}

/* @return the EQE type the source raises. */
uint8_t
ut_src_type(const struct ut_src *s)
{
	return s->kind == UT_SRC_GEN_EQE ? RTE_PMD_MLX5V_EVENT_GENERAL_EVENT :
					   RTE_PMD_MLX5V_EVENT_COMP;
}

/* @return 1 if eqe is what ut_src_raise(s, tag) writes, else 0. */
int
ut_src_eqe_is(const struct ut_src *s, const uint8_t *eqe, uint8_t tag)
{
	if (rte_pmd_mlx5v_eqe_type(eqe) != ut_src_type(s))
		return 0;
	if (s->kind == UT_SRC_GEN_EQE)
		return eqe[RTE_PMD_MLX5V_EQE_DATA_OFF] == tag;
	return rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_COMP_CQN_OFF, 0, 23, 0) ==
	       s->cq->cqn;
}

/* Unbind: the CQ goes first, an EQ cannot be destroyed under it. @return 0 or -1. */
int
ut_src_close(struct ut_src *s)
{
	int ret = 0;

	if (s->cq != NULL && mlx5v_devx_cq_destroy(s->cq) != 0)
		ret = -1;
	s->cq = NULL;
	return ret;
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
	if (ut_dev_probe(VDEV, VDEV_ARGS) != 0) {
		printf("probe of %s: %s\n", VDEV_NAME, rte_strerror(rte_errno));
		return TEST_FAILED;
	}
	g_dev = rte_pmd_mlx5v_dev_get(VDEV_NAME);
	g_sim = mlx5v_sim_get(ut_dev_sim_name(VDEV));
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
	ut_dev_remove(VDEV);
}
