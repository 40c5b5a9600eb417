/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the mlx5 device model: firmware pages and health. */

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

/* ---------------------------------------------------------------- pages */

/* One-page GIVE of address pa. */
static int
ut_give_pa(uint64_t pa, uint8_t *out)
{
	uint8_t in[24];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(manage_pages_in, in, opcode, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_IFC_SET(manage_pages_in, in, op_mod, MLX5V_MANAGE_PAGES_GIVE);
	MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, 1);
	MLX5V_IFC_ARRAY_SET64(manage_pages_in, in, pas, 0, pa);
	return ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, 16);
}

static int
test_mlx5v_sim_pages_give_take(void)
{
	uint8_t out[16 + 8 * UT_NPAGES];
	uint8_t in[16 + 8 * 2];
	uint64_t pa;
	uint32_t i;
	int32_t n;

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_give_pa(0, out), MLX5V_CMD_STAT_BAD_PARAM_ERR, "page 0");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGE_ZERO, "synd");
	TEST_ASSERT_EQUAL(ut_give_pa(g_pages_iova + 8, out), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "misaligned page");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGE_ALIGN, "synd");
	TEST_ASSERT_EQUAL(ut_give_pa(0x40000000000ull, out), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "unmapped page");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGE_UNMAPPED, "synd");
	/* The same page twice in one GIVE: nothing is kept. */
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(manage_pages_in, in, opcode, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_IFC_SET(manage_pages_in, in, op_mod, MLX5V_MANAGE_PAGES_GIVE);
	MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, 2);
	MLX5V_IFC_ARRAY_SET64(manage_pages_in, in, pas, 0, g_pages_iova);
	MLX5V_IFC_ARRAY_SET64(manage_pages_in, in, pas, 1, g_pages_iova);
	TEST_ASSERT_EQUAL(ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "duplicate page");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGE_DUP, "synd");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 0u, "a failed GIVE kept pages");
	/* More entries than inlen carries. */
	MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, 3);
	TEST_ASSERT_EQUAL(ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, 16),
			  MLX5V_CMD_STAT_BAD_INP_LEN_ERR, "entries beyond inlen");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGES_NENT, "synd");
	MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, 1);
	MLX5V_IFC_SET(manage_pages_in, in, function_id, 1);
	TEST_ASSERT_EQUAL(ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "function_id 1");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGES_FUNC, "synd");
	/* Accounting. */
	TEST_ASSERT_EQUAL(ut_give(0, 10, out), 0, "GIVE 10");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 10u, "pages held");
	TEST_ASSERT_EQUAL(ut_give(9, 1, out), MLX5V_CMD_STAT_BAD_PARAM_ERR, "given twice");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 10u, "pages held");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 6, "boot pages still needed");
	TEST_ASSERT_EQUAL(ut_take(4, out, 16 + 8 * 4), 0, "TAKE 4");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(manage_pages_out, out, output_num_entries), 4u, "taken");
	for (i = 0; i < 4; i++) {
		pa = MLX5V_IFC_ARRAY_GET64(manage_pages_out, out, pas, i);
		TEST_ASSERT(pa >= g_pages_iova && pa < g_pages_iova + 10 * 4096 &&
			    pa % 4096 == 0, "returned page 0x%" PRIx64 " was never given", pa);
	}
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 6u, "pages held");
	/* TAKE returns at most input_num_entries, and at most what is held. */
	TEST_ASSERT_EQUAL(ut_take(2, out, sizeof(out)), 0, "TAKE 2");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(manage_pages_out, out, output_num_entries), 2u, "taken");
	TEST_ASSERT_EQUAL(ut_take(UT_NPAGES, out, sizeof(out)), 0, "TAKE all");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(manage_pages_out, out, output_num_entries), 4u, "taken");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 0u, "pages held");
	TEST_ASSERT_EQUAL(ut_take(1, out, sizeof(out)), 0, "TAKE from nothing");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(manage_pages_out, out, output_num_entries), 0u, "taken");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_MANAGE_PAGES, MLX5V_MANAGE_PAGES_CANT_GIVE, 0,
				   out, 16), 0, "CANT_GIVE");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_pages_request_event(void)
{
	struct ut_ring eq;
	const uint8_t *eqe;

	TEST_ASSERT_EQUAL(mlx5v_sim_request_pages(g_sim, 4), -ENOENT, "no subscriber");
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 1ull << RTE_PMD_MLX5V_EVENT_PAGE_REQUEST, 0),
			    "create EQ");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_SUCCESS(mlx5v_sim_request_pages(g_sim, -5), "request");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "no PAGE_REQUEST EQE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqe, eqe, type), RTE_PMD_MLX5V_EVENT_PAGE_REQUEST,
			  "type");
	TEST_ASSERT_EQUAL((int32_t)ut_be32(eqe, RTE_PMD_MLX5V_EQE_PAGE_NUM_PAGES_OFF), -5,
			  "signed num_pages");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_PAGE_EC_FUNCTION_OFF), 0u, "func");
	TEST_ASSERT(ut_msi_wait(eq.fd) >= 1, "no MSI on vector 0");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- health */

static int
test_mlx5v_sim_health(void)
{
	uint32_t v1;
	uint32_t v2;
	uint8_t in[16];
	uint8_t out[16];

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_period_ms", 1), "knob");
	mlx5v_sim_health_freeze(g_sim, 1);
	v1 = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER);
	ut_sleep_ms(30);
	v2 = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER);
	TEST_ASSERT_EQUAL(v1, v2, "frozen counter moved");
	mlx5v_sim_health_freeze(g_sim, 0);
	TEST_ASSERT_SUCCESS(UT_WAIT_FOR(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER) != v1),
			    "counter did not resume");
	/* Fatal syndrome (prm/mlx5 §4.3 sensor 5) and its clearing. */
	mlx5v_sim_health_fatal(g_sim, MLX5V_HEALTH_SYND_HW_UNRECOVERABLE_ERR);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), MLX5V_HEALTH_RFR_BIT, "RFR");
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_IRISC_INDEX) >> 16) & 0xff,
			  (uint32_t)MLX5V_HEALTH_SYND_HW_UNRECOVERABLE_ERR, "synd");
	mlx5v_sim_health_fatal(g_sim, 0);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), 0u, "RFR cleared");
	/* nic_interface forced to SW_RESET (sensor 4). */
	mlx5v_sim_nic_interface_set(g_sim, MLX5V_NIC_IF_SW_RESET);
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ) >> 8) & 7,
			  (uint32_t)MLX5V_NIC_IF_SW_RESET, "nic_interface");
	mlx5v_sim_nic_interface_set(g_sim, MLX5V_NIC_IF_FULL);
	/* PCI offline: all ones, the doorbell is lost; back online the device answers. */
	mlx5v_sim_pci_offline(g_sim, 1);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_FW_REV), UINT32_MAX, "fw_rev");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_FW_VER), UINT32_MAX, "fw_ver");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER), UINT32_MAX, "counter");
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(enable_hca_in, in, opcode, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(0, in, 16, 12);
	ut_ring(0);
	ut_sleep_ms(20);
	TEST_ASSERT(MLX5V_IFC_GET(cmd_layout, g_cmdq, status_own) & 1,
		    "an offline device answered");
	mlx5v_sim_pci_offline(g_sim, 0);
	TEST_ASSERT(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_FW_REV) != UINT32_MAX, "still offline");
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "command after recovery");
	ut_read_out(0, out, 12);
	TEST_ASSERT_EQUAL(out[0], 0, "status");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_sim_pages_health_suite = {
	.suite_name = "mlx5v_sim_pages_health",
	.unit_test_cases = {
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_pages_give_take),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_pages_request_event),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_health),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_sim_pages_health(void)
{
	return unit_test_suite_runner(&mlx5v_sim_pages_health_suite);
}

REGISTER_TEST_COMMAND(mlx5v_sim_pages_health_autotest, test_mlx5v_sim_pages_health);
