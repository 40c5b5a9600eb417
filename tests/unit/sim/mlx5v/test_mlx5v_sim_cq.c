/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the mlx5 device model: CQs (completion to MSI, arming, overrun, errors). */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "test.h"

#include "ut_mlx5v_sim.h"

/* ---------------------------------------------------------------- CQs */

static int
test_mlx5v_sim_cq_completion_msi(void)
{
	uint8_t out[0x118];
	uint8_t *cqc = MLX5V_IFC_ADDR_OF(query_cq_out, out, cqc);
	const uint8_t *eqe;
	struct ut_ring eq;
	struct ut_ring cq;
	uint8_t *cqe;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, eq.num, 1, out), 0, "CREATE_CQ");
	TEST_ASSERT_EQUAL(cq.num, 1u, "first CQN must be 1");
	TEST_ASSERT_EQUAL(UT_LIVE(CQ), 1u, "live CQs");
	ut_eq_db(&eq, 0, 1);
	ut_cq_arm(&cq, 0, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, MLX5V_CQE_OPCODE_RESP_SEND, 100),
			    "post_cqe");
	cqe = cq.buf;
	TEST_ASSERT_EQUAL(cqe[RTE_PMD_MLX5V_CQE_OP_OWN_OFF] & 1, 0, "CQE owner on the first pass");
	TEST_ASSERT_EQUAL(cqe[RTE_PMD_MLX5V_CQE_OP_OWN_OFF] >> 4, MLX5V_CQE_OPCODE_RESP_SEND,
			  "opcode");
	TEST_ASSERT_EQUAL(ut_be32(cqe, RTE_PMD_MLX5V_CQE_BYTE_CNT_OFF), 100u, "byte_cnt");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "completion EQE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqe, eqe, type), RTE_PMD_MLX5V_EVENT_COMP, "type");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_COMP_CQN_OFF) & 0xffffff, cq.num, "cqn");
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "MSI on vector 1");
	/* FIRED: the next CQE posts no EQE until the CQ is armed again. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), "post_cqe");
	TEST_ASSERT(!ut_eqe_ready(&eq, 1), "EQE from a fired CQ");
	memset(out, 0, sizeof(out));
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_CQ, 0, cq.num, out, sizeof(out)), 0,
			  "QUERY_CQ");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cqc, cqc, c_eqn_or_apu_element), eq.num, "c_eqn");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cqc, cqc, log_cq_size), 4u, "log_cq_size");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cqc, cqc, producer_counter), 2u, "pi");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cqc, cqc, st), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED,
			  "st");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET64(cqc, cqc, dbr_addr), cq.dbr_iova, "dbr_addr");
	TEST_ASSERT_EQUAL(MLX5V_IFC_ARRAY_GET64(query_cq_out, out, pas, 0), cq.iova, "pas[0]");
	/* The EQ still has a CQ: DESTROY_EQ is refused. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_EQ, 0, eq.num, out, 16),
			  MLX5V_CMD_STAT_BAD_RES_STATE_ERR, "EQ with a CQ");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_EQ_HAS_CQ, "synd");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), MLX5V_CMD_STAT_BAD_RES_ERR, "twice");
	TEST_ASSERT_EQUAL(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), -ENOENT, "destroyed CQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	TEST_ASSERT_EQUAL(UT_LIVE(CQ), 0u, "live CQs");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cq_arm_pending(void)
{
	uint8_t out[16];
	struct ut_ring eq;
	struct ut_ring cq;
	uint64_t eqes;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, eq.num, 1, out), 0, "CREATE_CQ");
	eqes = UT_CTR(EQES);
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 64), "post_cqe");
	TEST_ASSERT_EQUAL(UT_CTR(EQES), eqes, "EQE from an unarmed CQ");
	/* DPDK d76a17f7b820: arming with a CQE pending must notify at once. */
	ut_cq_arm(&cq, 0, 0);
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 0), "arm with a pending CQE did not fire");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* sn must count the completion events raised (mod 4): other arms are counted, not refused. */
static int
test_mlx5v_sim_cq_arm_sn(void)
{
	uint64_t bad = UT_CTR(CQ_ARM_SN);
	uint8_t out[16];
	struct ut_ring eq;
	struct ut_ring cq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, eq.num, 1, out), 0, "CREATE_CQ");
	ut_cq_arm(&cq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(CQ_ARM_SN), bad + 1, "sn 1 before any event");
	ut_cq_arm(&cq, 0, 0);
	ut_cq_arm(&cq, 0, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(CQ_ARM_SN), bad + 1, "sn 0 twice without an event");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 64), "post_cqe");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 0), "completion EQE");
	ut_cq_arm(&cq, 1, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(CQ_ARM_SN), bad + 2, "sn kept after an event");
	ut_cq_arm(&cq, 1, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(CQ_ARM_SN), bad + 2, "sn 1 after one event");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cq_overrun(void)
{
	uint64_t overruns = UT_CTR(CQ_OVERRUNS);
	uint8_t out[0x118];
	const uint8_t *eqe;
	struct ut_ring eq;
	struct ut_ring err;
	struct ut_ring cq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "completion EQ");
	TEST_ASSERT_SUCCESS(ut_eq_create(&err, 4, 1ull << RTE_PMD_MLX5V_EVENT_CQ_ERROR, 2),
			    "async EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 1, eq.num, 1, out), 0, "CREATE_CQ");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), "CQE 0");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), "CQE 1");
	TEST_ASSERT_EQUAL(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), -ENOSPC, "CQE 2 overruns");
	TEST_ASSERT_EQUAL(UT_CTR(CQ_OVERRUNS), overruns + 1, "CQ overrun counter");
	eqe = ut_eqe_wait(&err, 0);
	TEST_ASSERT_NOT_NULL(eqe, "CQ_ERROR EQE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqe, eqe, type), RTE_PMD_MLX5V_EVENT_CQ_ERROR, "type");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_CQ_ERR_CQN_OFF) & 0xffffff, cq.num,
			  "cqn");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_CQ_ERR_SYNDROME_OFF],
			  RTE_PMD_MLX5V_CQ_ERR_SYND_OVERRUN, "syndrome");
	TEST_ASSERT_EQUAL(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), -ENOSPC, "CQ in error");
	TEST_ASSERT(!ut_eqe_ready(&err, 1), "a second CQ_ERROR");
	memset(out, 0, sizeof(out));
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_CQ, 0, cq.num, out, sizeof(out)), 0,
			  "QUERY_CQ");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cqc, MLX5V_IFC_ADDR_OF(query_cq_out, out, cqc), status),
			  (uint32_t)MLX5V_CQC_STATUS_CQ_OVERFLOW, "cqc.status");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&err), 0, "DESTROY_EQ");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	ut_ring_free(&err);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cq_errors(void)
{
	uint64_t sw_owned = UT_CTR(RING_SW_OWNED);
	uint64_t misuse;
	uint8_t in[0x118];
	uint8_t *cqc = MLX5V_IFC_ADDR_OF(create_cq_in, in, cqc);
	uint8_t out[16];
	struct ut_ring eq;
	struct ut_ring cq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, 77, 1, out), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "c_eqn 77");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_CQ_EQN, "synd");
	ut_ring_free(&cq);
	/* Software-owned CQEs at creation are logged and counted (prm/mlx5 §7.4). */
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, eq.num, 0, out), 0, "CREATE_CQ");
	TEST_ASSERT_EQUAL(UT_CTR(RING_SW_OWNED), sw_owned + 1, "software-owned CQ");
	/* Bad doorbells: unknown CQN, and an arm word that dbrec[1] does not hold. */
	misuse = UT_CTR(DB_MISUSE);
	mlx5v_hw_db_wr64(&g_hw, (uint8_t *)mlx5v_hw_uar_addr(&g_hw, g_uar) +
			 RTE_PMD_MLX5V_UAR_CQ_DB_OFF, 999);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "unknown CQN");
	rte_pmd_mlx5v_prm_set(cq.dbr, RTE_PMD_MLX5V_CQ_DBREC_ARM, 31, 0, 0x12345);
	mlx5v_hw_db_wr64(&g_hw, (uint8_t *)mlx5v_hw_uar_addr(&g_hw, g_uar) +
			 RTE_PMD_MLX5V_UAR_CQ_DB_OFF, cq.num);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 2, "dbrec[1] mismatch");
	ut_cq_arm(&cq, 3, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 3, "arm CI beyond the producer");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	ut_ring_free(&cq);
	/* Field checks. */
	TEST_ASSERT_SUCCESS(ut_ring_alloc(&cq, 4, 1), "alloc");
	cq.dbr = ut_alloc(64, 64, &cq.dbr_iova);
	TEST_ASSERT_NOT_NULL(cq.dbr, "dbr");
#define UT_CQ_BAD(setup, synd, what) do { \
	memset(in, 0, sizeof(in)); \
	MLX5V_IFC_SET(create_cq_in, in, opcode, MLX5V_CMD_OP_CREATE_CQ); \
	MLX5V_IFC_SET(cqc, cqc, log_cq_size, 4); \
	MLX5V_IFC_SET(cqc, cqc, uar_page, g_uar); \
	MLX5V_IFC_SET(cqc, cqc, c_eqn_or_apu_element, eq.num); \
	MLX5V_IFC_SET64(cqc, cqc, dbr_addr, cq.dbr_iova); \
	MLX5V_IFC_ARRAY_SET64(create_cq_in, in, pas, 0, cq.iova); \
	setup; \
	TEST_ASSERT_EQUAL(ut_cmd(in, sizeof(in), out, 16), MLX5V_CMD_STAT_BAD_PARAM_ERR, what); \
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)(synd), what); \
} while (0)
	UT_CQ_BAD(MLX5V_IFC_SET(cqc, cqc, cqe_sz, 1), MLX5V_SIM_SYND_CQ_CQE_SZ, "cqe_sz 1");
	UT_CQ_BAD(MLX5V_IFC_SET(cqc, cqc, dbr_umem_valid, 1), MLX5V_SIM_SYND_CQ_UMEM, "umem");
	UT_CQ_BAD(rte_pmd_mlx5v_prm_set(cqc, 7, 0, 0, 1), MLX5V_SIM_SYND_CQC_RESERVED, "DW7");
	UT_CQ_BAD(in[0x70] = 1, MLX5V_SIM_SYND_CQ_IN_RESERVED, "create_cq_in reserved");
	UT_CQ_BAD(MLX5V_IFC_SET(cqc, cqc, log_cq_size, 23), MLX5V_SIM_SYND_CQ_SIZE, "size");
	UT_CQ_BAD(MLX5V_IFC_SET(cqc, cqc, page_offset, 2), MLX5V_SIM_SYND_CQ_PAGE_OFFSET,
		  "page_offset");
	UT_CQ_BAD(MLX5V_IFC_SET(cqc, cqc, uar_page, 1), MLX5V_SIM_SYND_CQ_UAR, "uar 1");
	UT_CQ_BAD(MLX5V_IFC_SET64(cqc, cqc, dbr_addr, cq.dbr_iova + 4), MLX5V_SIM_SYND_CQ_DBR,
		  "dbr misaligned");
	UT_CQ_BAD(MLX5V_IFC_SET64(cqc, cqc, dbr_addr, 0x40000000000ull),
		  MLX5V_SIM_SYND_CQ_DBR, "dbr unmapped");
	UT_CQ_BAD(MLX5V_IFC_ARRAY_SET64(create_cq_in, in, pas, 0, cq.iova + 128),
		  MLX5V_SIM_SYND_CQ_PAS_ALIGN, "PAS misaligned");
	UT_CQ_BAD(MLX5V_IFC_ARRAY_SET64(create_cq_in, in, pas, 0, 0x40000000000ull),
		  MLX5V_SIM_SYND_CQ_UNMAPPED, "PAS unmapped");
	UT_CQ_BAD(MLX5V_IFC_SET(cqc, cqc, st, 5), MLX5V_SIM_SYND_CQ_ST, "st 5");
#undef UT_CQ_BAD
	MLX5V_IFC_SET(cqc, cqc, st, 0);
	TEST_ASSERT_EQUAL(ut_cmd(in, 0x110, out, 16), MLX5V_CMD_STAT_BAD_INP_LEN_ERR, "no PAS");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_CQ_PAS_LEN, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_CQ, 0, 77, out, 16),
			  MLX5V_CMD_STAT_BAD_RES_ERR, "no such CQ");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_CQ_CQN, "synd");
	TEST_ASSERT_EQUAL(UT_LIVE(CQ), 0u, "live CQs");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_sim_cq_suite = {
	.suite_name = "mlx5v_sim_cq",
	.unit_test_cases = {
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cq_completion_msi),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cq_arm_pending),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cq_arm_sn),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cq_overrun),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cq_errors),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_sim_cq(void)
{
	return unit_test_suite_runner(&mlx5v_sim_cq_suite);
}

REGISTER_TEST_COMMAND(mlx5v_sim_cq_autotest, test_mlx5v_sim_cq);
