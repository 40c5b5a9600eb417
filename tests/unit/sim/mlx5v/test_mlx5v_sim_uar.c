/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the mlx5 device model: doorbells of several processes. The page the
 * seam lends to another process (uar_fd), mapped here as a secondary process maps it, is
 * stored to as that process rings it: plain stores, no notify. The engine is held, so the
 * model sees those stores only at a pass after this process's own doorbell to the same word.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_io.h>

#include "test.h"

#include "ut_mlx5v_sim.h"

/* Secondary process starts the leak test emulates: each maps a lent page, then goes. */
#define UT_LENDS 100

/* The UAR page g_uar as another process maps it from the seam's fd. NULL on failure. */
static volatile uint8_t *
ut_other_map(void)
{
	int fd = mlx5v_hw_uar_fd(&g_hw, g_uar);
	void *p;

	if (fd < 0)
		return NULL;
	/* The fd is the model's: the other process gets a duplicate, as over IPC. */
	fd = dup(fd);
	if (fd < 0)
		return NULL;
	p = mmap(NULL, HWSIM_MMIO_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static void
ut_other_unmap(volatile uint8_t *p)
{
	munmap((void *)(uintptr_t)p, HWSIM_MMIO_PAGE_SIZE);
}

/*
 * Two EQ arms to the same word of one UAR, one from another process and one from this one,
 * before the engine looks: silicon takes both, and so must the model. Before each process
 * had a page of its own, this process's store replaced the other's in the shared word, and
 * the other's EQ stayed FIRED: its interrupt was lost.
 */
static int
test_mlx5v_sim_uar_eq_arms(void)
{
	struct ut_ring mine, theirs;
	volatile uint8_t *other;
	uint8_t out[0x118];

	TEST_ASSERT_SUCCESS(ut_eq_create(&theirs, 4, 0, 1), "the other process's EQ");
	TEST_ASSERT_SUCCESS(ut_eq_create(&mine, 4, 0, 1), "this process's EQ");
	other = ut_other_map();
	TEST_ASSERT_NOT_NULL(other, "map the lent UAR page");
	TEST_ASSERT_SUCCESS(mlx5v_sim_engine_hold(g_sim, 1), "hold the engine");
	/* As a secondary rings it: the barrier orders nothing here but keeps the idiom. */
	rte_io_wmb();
	rte_write32(rte_cpu_to_be_32(rte_pmd_mlx5v_eq_db_val(theirs.num, 0)),
		    other + RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF);
	ut_eq_db(&mine, 0, 1);
	TEST_ASSERT_SUCCESS(mlx5v_sim_engine_hold(g_sim, 0), "resume the engine");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_query_eq(&mine, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED,
			  "this process's arm was lost");
	TEST_ASSERT_EQUAL(ut_query_eq(&theirs, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED,
			  "the other process's arm was lost");
	ut_other_unmap(other);
	TEST_ASSERT_EQUAL(ut_eq_destroy(&mine), 0, "destroy");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&theirs), 0, "destroy");
	ut_ring_free(&mine);
	ut_ring_free(&theirs);
	return TEST_SUCCESS;
}

/* A CQ's state: ARMED or FIRED. */
static uint32_t
ut_cq_st(const struct ut_ring *cq)
{
	uint8_t out[0x118];

	memset(out, 0, sizeof(out));
	if (ut_cmd16(MLX5V_CMD_OP_QUERY_CQ, 0, cq->num, out, sizeof(out)) != 0)
		return UINT32_MAX;
	return MLX5V_IFC_GET(cqc, MLX5V_IFC_ADDR_OF(query_cq_out, out, cqc), st);
}

/*
 * The same with the 64-bit CQ arm word; and a doorbell of the other process for a CQ that
 * does not exist is still a driver bug the model counts.
 */
static int
test_mlx5v_sim_uar_cq_arms(void)
{
	uint64_t misuse = UT_CTR(DB_MISUSE);
	struct ut_ring eq, mine, theirs;
	volatile uint8_t *other;
	uint8_t out[0x118];

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&theirs, 4, eq.num, 1, out), 0, "the other's CQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&mine, 4, eq.num, 1, out), 0, "this process's CQ");
	other = ut_other_map();
	TEST_ASSERT_NOT_NULL(other, "map the lent UAR page");
	TEST_ASSERT_SUCCESS(mlx5v_sim_engine_hold(g_sim, 1), "hold the engine");
	/* The doorbell record first, then the UAR word, as ut_cq_arm() does (prm/mlx5 §7.3). */
	MLX5V_IFC_SET(cq_dbrec, theirs.dbr, set_ci, 0);
	rte_pmd_mlx5v_prm_set(theirs.dbr, RTE_PMD_MLX5V_CQ_DBREC_ARM, 31, 0, 0);
	rte_io_wmb();
	rte_write64(rte_cpu_to_be_64(theirs.num), other + RTE_PMD_MLX5V_UAR_CQ_DB_OFF);
	ut_cq_arm(&mine, 0, 0);
	TEST_ASSERT_SUCCESS(mlx5v_sim_engine_hold(g_sim, 0), "resume the engine");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_cq_st(&mine), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED,
			  "this process's arm was lost");
	TEST_ASSERT_EQUAL(ut_cq_st(&theirs), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED,
			  "the other process's arm was lost");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse, "a good doorbell counted as misuse");
	/* No CQ 0x77: the alias decodes as the page does, and the model still refuses it. */
	rte_write64(rte_cpu_to_be_64(0x77), other + RTE_PMD_MLX5V_UAR_CQ_DB_OFF);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "a doorbell of no CQ not counted");
	ut_other_unmap(other);
	TEST_ASSERT_EQUAL(ut_cq_destroy(&mine), 0, "DESTROY_CQ");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&theirs), 0, "DESTROY_CQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	ut_ring_free(&mine);
	ut_ring_free(&theirs);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/*
 * Secondary processes that start (the page is lent and mapped) and go (unmapped), one after
 * the other: the pages lent to those gone are freed, so their number stays bounded; the one
 * a process still maps stays.
 */
static int
test_mlx5v_sim_uar_lend_no_leak(void)
{
	volatile uint8_t *other, *last = NULL;
	unsigned int i;

	for (i = 0; i < UT_LENDS; i++) {
		other = ut_other_map();
		TEST_ASSERT_NOT_NULL(other, "start %u: map the lent UAR page", i);
		if (last != NULL)
			ut_other_unmap(last);
		last = other;
		TEST_ASSERT(mlx5v_sim_uar_aliases(g_sim, g_uar) <= 2,
			    "start %u: %u pages lent", i, mlx5v_sim_uar_aliases(g_sim, g_uar));
	}
	TEST_ASSERT(mlx5v_sim_uar_aliases(g_sim, g_uar) >= 1, "a page still mapped was freed");
	ut_other_unmap(last);
	return TEST_SUCCESS;
}

/*
 * Port starts and stops without secondary processes: each start allocates a UAR and lends
 * it to the secondaries (none maps it), each stop frees it. What was lent in a UAR's
 * earlier life goes at the next lend, without waiting for the grace period of a page on
 * its way to a process.
 */
static int
test_mlx5v_sim_uar_lend_restarts(void)
{
	uint8_t out[16];
	unsigned int i;
	uint32_t uar;

	for (i = 0; i < UT_LENDS; i++) {
		TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ALLOC_UAR, 0, 0, out, 16), 0,
				  "start %u: ALLOC_UAR", i);
		uar = MLX5V_IFC_GET(alloc_uar_out, out, uar);
		TEST_ASSERT(mlx5v_hw_uar_fd(&g_hw, uar) >= 0, "start %u: lend the page", i);
		TEST_ASSERT(mlx5v_sim_uar_aliases(g_sim, uar) <= 2, "start %u: %u pages lent", i,
			    mlx5v_sim_uar_aliases(g_sim, uar));
		TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DEALLOC_UAR, 0, uar, out, 16), 0,
				  "stop %u: DEALLOC_UAR", i);
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_sim_uar_suite = {
	.suite_name = "mlx5v_sim_uar",
	.unit_test_cases = {
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_uar_eq_arms),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_uar_cq_arms),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_uar_lend_no_leak),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_uar_lend_restarts),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_sim_uar(void)
{
	return unit_test_suite_runner(&mlx5v_sim_uar_suite);
}

REGISTER_TEST_COMMAND(mlx5v_sim_uar_autotest, test_mlx5v_sim_uar);
