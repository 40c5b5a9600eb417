/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the mlx5 device model: EQs (lifecycle, owner wrap, arming, doorbells). */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_io.h>
#include <rte_malloc.h>

#include "test.h"

#include "ut_mlx5v_sim.h"

/* ---------------------------------------------------------------- EQs */

static int
test_mlx5v_sim_eq_create_query_destroy(void)
{
	uint8_t out[0x118];
	uint8_t *eqc = MLX5V_IFC_ADDR_OF(query_eq_out, out, eqc);
	uint64_t sw_owned = UT_CTR(RING_SW_OWNED);
	struct ut_ring eq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0xa00, 1), "create");
	TEST_ASSERT_EQUAL(eq.num, 1u, "first EQN must be 1 (doorbells never zero)");
	TEST_ASSERT_EQUAL(UT_LIVE(EQ), 1u, "live EQs");
	TEST_ASSERT_EQUAL(UT_CTR(RING_SW_OWNED), sw_owned, "owner-initialised ring flagged");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, eqc, log_eq_size), 4u, "log_eq_size");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, eqc, uar_page), g_uar, "uar_page");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, eqc, intr), 1u, "intr");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, eqc, log_page_size), 0u, "log_page_size");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, eqc, status), 0u, "status");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED, "not armed");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, eqc, producer_counter), 0u, "pi");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, eqc, consumer_counter), 0u, "ci");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET64(query_eq_out, out, event_bitmask), 0xa00ull,
			  "event_bitmask");
	TEST_ASSERT_EQUAL(MLX5V_IFC_ARRAY_GET64(query_eq_out, out, pas, 0), eq.iova, "pas[0]");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED, "armed");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DEALLOC_UAR, 0, g_uar, out, 16),
			  MLX5V_CMD_STAT_BAD_RES_STATE_ERR, "DEALLOC_UAR of a used UAR");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_UAR_BUSY, "synd");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	TEST_ASSERT_EQUAL(UT_LIVE(EQ), 0u, "live EQs");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), MLX5V_CMD_STAT_BAD_RES_ERR, "destroy twice");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), MLX5V_CMD_STAT_BAD_RES_ERR, "query destroyed");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_EQ_EQN, "synd");
	ut_ring_free(&eq);
	/* A ring left software-owned is flagged (prm/mlx5 §11.7) but accepted. */
	TEST_ASSERT_SUCCESS(ut_ring_alloc(&eq, 2, 0), "alloc");
	ut_eq_in(g_big_in, &eq, 2, 0, 1);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 0x118, out, 16), 0, "create");
	eq.num = MLX5V_IFC_GET(create_eq_out, out, eq_number);
	TEST_ASSERT_EQUAL(UT_CTR(RING_SW_OWNED), sw_owned + 1, "software-owned ring");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* Create with one field broken. @return the status; the syndrome is in out. */
static int
ut_eq_create_bad(struct ut_ring *r, uint8_t *in, uint32_t inlen, uint8_t *out)
{
	int st = ut_cmd(in, inlen, out, 16);

	if (st == 0) {
		r->num = MLX5V_IFC_GET(create_eq_out, out, eq_number);
		ut_eq_destroy(r);
	}
	return st;
}

#define UT_EQ_BAD(setup, status, synd, what) do { \
	ut_eq_in(in, &r, 4, 0, 1); \
	setup; \
	TEST_ASSERT_EQUAL(ut_eq_create_bad(&r, in, inlen, out), status, what); \
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)(synd), what ": syndrome 0x%x", \
			  ut_synd(out)); \
	inlen = 0x118; \
} while (0)

static int
test_mlx5v_sim_eq_create_errors(void)
{
	uint8_t *in = g_big_in;
	uint8_t *eqc = MLX5V_IFC_ADDR_OF(create_eq_in, in, eqc);
	uint8_t out[16];
	uint32_t inlen = 0x118;
	struct ut_ring r;

	TEST_ASSERT_SUCCESS(ut_ring_alloc(&r, 4, 1), "alloc");
	UT_EQ_BAD(rte_pmd_mlx5v_prm_set(eqc, 1, 0, 0, 1), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQC_RESERVED, "eqc DW1 reserved");
	UT_EQ_BAD(rte_pmd_mlx5v_prm_set(eqc, 5, 12, 12, 1), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQC_RESERVED, "intr bit 12");
	UT_EQ_BAD(MLX5V_IFC_SET(eqc, eqc, consumer_counter, 3),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQC_RESERVED, "consumer counter");
	UT_EQ_BAD(in[0x80] = 1, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_IN_RESERVED,
		  "create_eq_in reserved");
	UT_EQ_BAD(in[0x0c] = 1, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_IN_RESERVED,
		  "header reserved");
	UT_EQ_BAD(MLX5V_IFC_SET(eqc, eqc, status, 1), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQ_STATUS, "status");
	UT_EQ_BAD(MLX5V_IFC_SET(eqc, eqc, st, 3), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQ_ST, "st 3");
	UT_EQ_BAD(MLX5V_IFC_SET(eqc, eqc, page_offset, 1),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_PAGE_OFFSET, "page_offset");
	UT_EQ_BAD(MLX5V_IFC_SET(eqc, eqc, log_eq_size, 23),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_SIZE, "log_eq_size 23");
	UT_EQ_BAD(MLX5V_IFC_SET(eqc, eqc, uar_page, 2), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQ_UAR, "uar_page 2");
	UT_EQ_BAD(MLX5V_IFC_SET(eqc, eqc, uar_page, g_uar + 1),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_UAR, "uar not allocated");
	UT_EQ_BAD(MLX5V_IFC_SET(eqc, eqc, intr, 8), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQ_INTR, "intr = MSI-X count");
	UT_EQ_BAD(inlen = 0x110, MLX5V_CMD_STAT_BAD_INP_LEN_ERR, MLX5V_SIM_SYND_EQ_PAS_LEN,
		  "no PAS");
	UT_EQ_BAD(MLX5V_IFC_ARRAY_SET64(create_eq_in, in, pas, 0, r.iova + 64),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_PAS_ALIGN, "PAS misaligned");
	UT_EQ_BAD(MLX5V_IFC_ARRAY_SET64(create_eq_in, in, pas, 0, 0x40000000000ull),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_UNMAPPED, "PAS unmapped");
	/* 4 KiB pages but a ring of 128 x 64 B = 8 KiB: two PAS needed. */
	UT_EQ_BAD(MLX5V_IFC_SET(eqc, eqc, log_eq_size, 7),
		  MLX5V_CMD_STAT_BAD_INP_LEN_ERR, MLX5V_SIM_SYND_EQ_PAS_LEN, "one PAS of two");
	UT_EQ_BAD({ MLX5V_IFC_SET(eqc, eqc, log_eq_size, 7);
		   MLX5V_IFC_ARRAY_SET64(create_eq_in, in, pas, 1, 0x40000000000ull);
		   inlen = 0x120; }, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_UNMAPPED,
		  "second page unmapped");
	UT_EQ_BAD((void)0, MLX5V_CMD_STAT_OK, 0, "the unbroken input");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_EQ, 0, 0x100 | 1, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "eq_number bits 31:8");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_EQ_IN_HI, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_EQ, 0, 200, out, 16),
			  MLX5V_CMD_STAT_BAD_RES_ERR, "no such EQ");
	TEST_ASSERT_EQUAL(UT_LIVE(EQ), 0u, "live EQs");
	ut_ring_free(&r);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_eq_no_free_eqn(void)
{
	struct mlx5v_sim_params p;
	struct ut_ring eq[3];
	uint8_t out[16];
	unsigned int i;

	ut_teardown();
	mlx5v_sim_params_default(&p);
	p.max_eqs = 2;
	TEST_ASSERT_SUCCESS(ut_setup_params(&p), "setup");
	TEST_ASSERT_EQUAL(ut_bringup(), 0, "bring-up");
	for (i = 0; i < 2; i++)
		TEST_ASSERT_SUCCESS(ut_eq_create(&eq[i], 2, 0, 1 + i), "EQ %u", i);
	TEST_ASSERT_SUCCESS(ut_ring_alloc(&eq[2], 2, 1), "alloc");
	ut_eq_in(g_big_in, &eq[2], 2, 0, 1);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 0x118, out, 16), MLX5V_CMD_STAT_LIM_ERR, "3rd EQ");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_EQ_NO_EQN, "synd");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_EQUAL(ut_eq_destroy(&eq[i]), 0, "destroy");
		ut_ring_free(&eq[i]);
	}
	ut_ring_free(&eq[2]);
	return TEST_SUCCESS;
}

/*
 * Owner bits across three passes of a 4-entry EQ (prm/mlx5 §6.8): 0, then 1, then 0. Each test
 * raising events runs twice: with GEN_EQE, and (name_cqe) with CQ completions.
 */
static int
ut_eq_owner_wrap(enum ut_src_kind kind)
{
	uint8_t out[0x118];
	const uint8_t *eqe;
	struct ut_ring eq;
	struct ut_src src;
	uint32_t ci;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 2, 0, 1), "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, &eq), "event source");
	for (ci = 0; ci < 12; ci++) {
		TEST_ASSERT_EQUAL(ut_src_raise(&src, ci), 0, "event %u", ci);
		eqe = ut_eqe_wait(&eq, ci);
		TEST_ASSERT_NOT_NULL(eqe, "EQE %u not software-owned", ci);
		TEST_ASSERT_EQUAL(eqe[63] & 1, (ci >> 2) & 1, "owner of EQE %u", ci);
		TEST_ASSERT(ut_src_eqe_is(&src, eqe, ci), "EQE %u: type 0x%02x, data 0x%08x", ci,
			    MLX5V_IFC_GET(eqe, eqe, type), ut_be32(eqe, 0x20));
		if ((ci & 3) == 3) {
			/* Consume the pass: CI-only doorbell, then let the engine see it. */
			ut_eq_db(&eq, ci + 1, 0);
			TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
		}
	}
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, out + 0x10, producer_counter), 12u, "pi");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, out + 0x10, consumer_counter), 12u, "ci");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, out + 0x10, status), 0u, "no overrun");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "close the source");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_sim_eq_owner_wrap, ut_eq_owner_wrap)

/* prm/mlx5 §6.11, order 1: arm, then EQEs: one MSI, then FIRED and silent. */
static int
ut_eq_arm_then_eqe(enum ut_src_kind kind)
{
	uint8_t out[0x118];
	struct ut_ring eq;
	struct ut_src src;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, &eq), "event source");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "MSI from arming an empty EQ");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 0), 0, "event");
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "armed EQ + EQE: exactly one MSI");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED, "FIRED");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 1), 0, "event");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 1), "second EQE");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "FIRED EQ raised again");
	/* Consume both and re-arm: empty, so ARMED and silent. */
	ut_eq_db(&eq, 2, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "MSI from an empty arm");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED, "ARMED");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "close the source");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_sim_eq_arm_then_eqe, ut_eq_arm_then_eqe)

/* prm/mlx5 §6.11, order 2: EQE first (silent), then the arm raises at once (no lost wake-up). */
static int
ut_eq_eqe_then_arm(enum ut_src_kind kind)
{
	uint8_t out[0x118];
	struct ut_ring eq;
	struct ut_src src;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, &eq), "event source");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 0), 0, "event");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 0), "EQE");
	TEST_ASSERT(ut_src_eqe_is(&src, ut_eqe_wait(&eq, 0), 0), "not the source's EQE");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "MSI from an EQ never armed");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "arm with a pending EQE must raise");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED, "FIRED");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "close the source");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_sim_eq_eqe_then_arm, ut_eq_eqe_then_arm)

static int
ut_eq_ci_only_doorbell(enum ut_src_kind kind)
{
	uint8_t out[0x118];
	struct ut_ring eq;
	struct ut_src src;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, &eq), "event source");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 0), 0, "event");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 1), 0, "event");
	ut_eq_db(&eq, 2, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, out + 0x10, consumer_counter), 2u, "ci");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED, "still unarmed");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 2), 0, "event");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 2), "third EQE");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "CI-only doorbell armed the EQ");
	ut_eq_db(&eq, 3, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED, "ARMED");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "close the source");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_sim_eq_ci_only_doorbell, ut_eq_ci_only_doorbell)

static int
ut_eq_bad_doorbells(enum ut_src_kind kind)
{
	uint64_t misuse = UT_CTR(DB_MISUSE);
	uint8_t out[0x118];
	struct ut_ring eq;
	struct ut_src src;
	uint32_t uar2;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, &eq), "event source");
	ut_db32(g_uar, RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF, rte_pmd_mlx5v_eq_db_val(99, 0));
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "unknown EQN");
	ut_eq_db(&eq, 5, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 2, "CI beyond the producer");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 0), 0, "event");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 1), 0, "event");
	ut_eq_db(&eq, 2, 0);
	ut_eq_db(&eq, 1, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	/* The two stores may land in one engine pass: the second overwrote the first. */
	TEST_ASSERT(UT_CTR(DB_MISUSE) >= misuse + 2, "counter went down");
	ut_eq_db(&eq, 2, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	misuse = UT_CTR(DB_MISUSE);
	ut_eq_db(&eq, 1, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "CI moved backwards");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, out + 0x10, consumer_counter), 2u,
			  "a rejected doorbell changed the CI");
	/* The right EQN through another (allocated) UAR, and through a free UAR. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ALLOC_UAR, 0, 0, out, 16), 0, "ALLOC_UAR");
	uar2 = MLX5V_IFC_GET(alloc_uar_out, out, uar);
	ut_db32(uar2, RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF, rte_pmd_mlx5v_eq_db_val(eq.num, 2));
	TEST_ASSERT_SUCCESS(ut_sync(uar2), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 2, "doorbell on another UAR");
	ut_db32(uar2 + 1, RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF, rte_pmd_mlx5v_eq_db_val(eq.num, 2));
	TEST_ASSERT_SUCCESS(ut_sync(uar2 + 1), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 3, "doorbell on a free UAR");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DEALLOC_UAR, 0, uar2, out, 16), 0, "DEALLOC");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "close the source");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_sim_eq_bad_doorbells, ut_eq_bad_doorbells)

/*
 * An EQ arm written before DESTROY_EQ is taken before the command, also when the engine's
 * look at the UAR pages in that pass came before the arm was written (the engine is held
 * and the pass's command step run here, after the arm and the command doorbell). The arm
 * is a plain store to the UAR page, as a DEVX application writes it, which the model
 * finds only on its own passes. An arm written after DESTROY_EQ completed is still a
 * driver bug.
 */
static int
test_mlx5v_sim_eq_arm_before_destroy(void)
{
	uint64_t misuse = UT_CTR(DB_MISUSE);
	uint8_t in[16], out[16];
	struct ut_ring eq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "create");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_SUCCESS(mlx5v_sim_engine_hold(g_sim, 1), "hold the engine");
	rte_write32(rte_cpu_to_be_32(rte_pmd_mlx5v_eq_db_val(eq.num, 0)),
		    (uint8_t *)mlx5v_hw_uar_addr(&g_hw, g_uar) + RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF);
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_DESTROY_EQ);
	MLX5V_IFC_SET(cmd_in_hdr, in, command_dw2, eq.num);
	ut_post(0, in, sizeof(in), sizeof(out));
	ut_ring(0);
	TEST_ASSERT(mlx5v_sim_cmd_pass(g_sim) > 0, "the command step ran nothing");
	TEST_ASSERT_SUCCESS(mlx5v_sim_engine_hold(g_sim, 0), "resume the engine");
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "DESTROY_EQ delivery");
	ut_read_out(0, out, sizeof(out));
	TEST_ASSERT_EQUAL(out[0], MLX5V_CMD_STAT_OK, "DESTROY_EQ status");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse,
			  "an arm written before DESTROY_EQ was reported as a driver bug");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1,
			  "an arm written after DESTROY_EQ completed was not reported");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
ut_eq_overrun(enum ut_src_kind kind)
{
	uint64_t overruns = UT_CTR(EQ_OVERRUNS);
	uint8_t out[0x118];
	struct ut_ring eq;
	struct ut_src src;
	unsigned int i;

	/* An ordinary EQ of 2 entries, never consumed: the third EQE overruns (prm/mlx5 §6.9). */
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 1, 0, 1), "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, &eq), "event source");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(ut_src_raise(&src, i), 0, "event %u", i);
	TEST_ASSERT_EQUAL(UT_CTR(EQ_OVERRUNS), overruns + 1, "overrun not counted");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, out + 0x10, status),
			  (uint32_t)RTE_PMD_MLX5V_EQC_STATUS_EQ_WRITE_FAILURE, "eqc.status");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, out + 0x10, producer_counter), 2u,
			  "the overrunning EQE was written");
	/* A failed EQ takes nothing more: GEN_EQE is refused, a completion is not written. */
	if (kind == UT_SRC_GEN_EQE)
		TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 9), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
				  "GEN_EQE on a failed EQ");
	else
		TEST_ASSERT_EQUAL(ut_src_raise(&src, 9), 0, "CQE on a CQ of a failed EQ");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, out + 0x10, producer_counter), 2u,
			  "an EQE was written into a failed EQ");
	TEST_ASSERT_EQUAL(UT_CTR(EQ_OVERRUNS), overruns + 1, "overrun counted twice");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), 0u, "ordinary EQ is not fatal");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "close the source");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	/* The async (CMD) EQ: its overrun is health syndrome 0xc. */
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 1, 1ull << RTE_PMD_MLX5V_EVENT_CMD, 0), "create");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, 0x70), 0, "cmd");
	TEST_ASSERT_EQUAL(UT_CTR(EQ_OVERRUNS), overruns + 2, "async overrun not counted");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), MLX5V_HEALTH_RFR_BIT, "RFR");
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_IRISC_INDEX) >> 16) & 0xff,
			  (uint32_t)MLX5V_HEALTH_SYND_ASYNC_EQ_OVERRUN_ERR, "health synd");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_sim_eq_overrun, ut_eq_overrun)

/* Event mode (prm/mlx5 §3.6): CMD EQEs name the slot, the creating and destroying commands of the
 * command EQ complete by ownership alone.
 */
static int
test_mlx5v_sim_eq_cmd_event_mode(void)
{
	const uint8_t *eqe;
	uint8_t out[0x70];
	struct ut_ring eq;
	uint64_t eqes;
	int32_t n;

	eqes = UT_CTR(EQES);
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 1ull << RTE_PMD_MLX5V_EVENT_CMD, 0), "create");
	TEST_ASSERT_EQUAL(UT_CTR(EQES), eqes, "CREATE_EQ of the command EQ posted an EQE");
	ut_eq_db(&eq, 0, 1);
	/* ut_sync runs two commands: EQEs 0 and 1. */
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "CMD EQE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqe, eqe, type), RTE_PMD_MLX5V_EVENT_CMD, "type");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_CMD_VECTOR_OFF), 1u, "slot 0 bit");
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "one MSI");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 1), "second CMD EQE");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_POST_INIT, &n), 0, "slot 31 command");
	eqe = ut_eqe_wait(&eq, 2);
	TEST_ASSERT_NOT_NULL(eqe, "slot 31 CMD EQE");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_CMD_VECTOR_OFF), 1u << 31, "bit 31");
	eqes = UT_CTR(EQES);
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	TEST_ASSERT_EQUAL(UT_CTR(EQES), eqes, "DESTROY_EQ of the command EQ posted an EQE");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "poll");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_eq_event_routing(void)
{
	struct ut_ring a;
	struct ut_ring b;
	const uint8_t *eqe;
	uint64_t mask = (1ull << RTE_PMD_MLX5V_EVENT_PORT_CHANGE) |
		(1ull << RTE_PMD_MLX5V_EVENT_PAGE_REQUEST);

	TEST_ASSERT_SUCCESS(ut_eq_create(&a, 4, mask, 1), "create");
	TEST_ASSERT_SUCCESS(ut_eq_create(&b, 4, mask, 2), "create");
	TEST_ASSERT_EQUAL(mlx5v_sim_port_event(g_sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_DOWN), 2,
			  "a port event reaches every subscriber");
	eqe = ut_eqe_wait(&b, 0);
	TEST_ASSERT_NOT_NULL(eqe, "port EQE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqe, eqe, sub_type), RTE_PMD_MLX5V_PORT_CHANGE_DOWN,
			  "sub_type");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_PORT_OFF] >> 4, 1, "port");
	TEST_ASSERT_EQUAL(mlx5v_sim_port_event(g_sim, 2, 4), -EINVAL, "port 2 of 1");
	TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, RTE_PMD_MLX5V_EVENT_PAGE_REQUEST, 0,
						 NULL), 1, "PAGE_REQUEST: first EQ only");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&a, 1), "EQ a got it");
	TEST_ASSERT(!ut_eqe_ready(&b, 1), "EQ b got it too");
	TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0,
						 NULL), 0, "no subscriber");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&a), 0, "destroy");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&b), 0, "destroy");
	ut_ring_free(&a);
	ut_ring_free(&b);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_sim_eq_suite = {
	.suite_name = "mlx5v_sim_eq",
	.unit_test_cases = {
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_create_query_destroy),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_create_errors),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_eq_no_free_eqn),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_owner_wrap),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_owner_wrap_cqe),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_arm_then_eqe),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_arm_then_eqe_cqe),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_eqe_then_arm),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_eqe_then_arm_cqe),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_ci_only_doorbell),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_ci_only_doorbell_cqe),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_bad_doorbells),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_bad_doorbells_cqe),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_arm_before_destroy),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_overrun),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_overrun_cqe),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_cmd_event_mode),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_event_routing),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_sim_eq(void)
{
	return unit_test_suite_runner(&mlx5v_sim_eq_suite);
}

REGISTER_TEST_COMMAND(mlx5v_sim_eq_autotest, test_mlx5v_sim_eq);
