/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the mlx5 device model: fault knobs and devargs. */

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

/* ---------------------------------------------------------------- fault knobs */

static int
test_mlx5v_sim_knob_fail(void)
{
	uint8_t out[0x70];
	int64_t v;
	int i;

	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
						    MLX5V_CMD_STAT_LIM_ERR, 0x1234), "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  MLX5V_CMD_STAT_LIM_ERR, "forced status");
	TEST_ASSERT_EQUAL(ut_synd(out), 0x1234u, "forced syndrome");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0,
			  "one-shot");
	TEST_ASSERT_EQUAL(mlx5v_sim_fail_next_cmd(g_sim, 1, 0, 0), -EINVAL, "status 0");
	/* Named knobs: any opcode, twice. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_status", 4), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_syndrome", 7), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_count", 2), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_opcode", 0xffff), "knob");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16), 4, "fail");
		TEST_ASSERT_EQUAL(ut_synd(out), 7u, "syndrome");
	}
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16), 0, "third");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_get(g_sim, "fail_opcode", &v), "get");
	TEST_ASSERT_EQUAL(v, 0, "fail_opcode disarmed");
	/* fail_count -1: until cleared. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_count", -1), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_opcode", MLX5V_CMD_OP_QUERY_ISSI),
			    "knob");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 4,
				  "always");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16), 0, "other op");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_opcode", 0), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "off");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_knob_delivery_delay(void)
{
	uint8_t out[0x70];

	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_delivery(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
							 MLX5V_CMD_DELIV_FW_ERR), "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  UT_DELIV | MLX5V_CMD_DELIV_FW_ERR, "forced delivery status");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0,
			  "one-shot");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "deliv_status", 9), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "deliv_opcode", 0xffff), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16),
			  UT_DELIV | 9, "knob delivery status");
	TEST_ASSERT_EQUAL(mlx5v_sim_fail_next_delivery(g_sim, 1, 0), -EINVAL, "deliv 0");
	TEST_ASSERT_SUCCESS(mlx5v_sim_delay_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI, 20), "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0,
			  "delayed command completes");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "delay_ms", 5), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "delay_opcode", MLX5V_CMD_OP_QUERY_PAGES),
			    "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16), 0, "delayed");
	TEST_ASSERT_EQUAL(mlx5v_sim_delay_next_cmd(g_sim, 1, 0), -EINVAL, "delay 0");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_knob_drop_dup_hold(void)
{
	const uint8_t *eqe;
	uint8_t out[0x70];
	uint8_t in[16];
	struct ut_ring eq;
	int32_t n;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 1ull << RTE_PMD_MLX5V_EVENT_CMD, 0), "EQ");
	/* drop: the slot is handed back, but no CMD EQE; the next command's EQE is #0. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(g_sim, MLX5V_CMD_OP_QUERY_ISSI, 0),
			    "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "drop");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_POST_INIT, &n), 0, "slot 31");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "EQE");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_CMD_VECTOR_OFF), 1u << 31,
			  "EQE #0 belongs to the dropped command");
	/* dup: two EQEs for one command (#1 and #2). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_dup_next_completion(g_sim, MLX5V_CMD_OP_QUERY_ISSI), "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "dup");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 2), "duplicate EQE");
	TEST_ASSERT_EQUAL(ut_be32(eq.buf + 64, 0x20), 1u, "EQE #1 vector");
	TEST_ASSERT_EQUAL(ut_be32(eq.buf + 128, 0x20), 1u, "EQE #2 vector");
	/* hold: owned until released, then a late completion with its EQE (#3). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "drop_hold", 1), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "drop_opcode", MLX5V_CMD_OP_QUERY_ISSI),
			    "knob");
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	ut_post(0, in, 16, 0x70);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_POST_INIT, &n), 0, "slot 31");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 3), "slot 31 EQE");
	TEST_ASSERT(MLX5V_IFC_GET(cmd_layout, g_cmdq, status_own) & 1, "held slot completed");
	mlx5v_sim_release_held(g_sim);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "released");
	eqe = ut_eqe_wait(&eq, 4);
	TEST_ASSERT_NOT_NULL(eqe, "late completion EQE");
	TEST_ASSERT_EQUAL(ut_be32(eqe, 0x20), 1u, "late EQE vector");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* Lost and duplicated MSI-X, fed by GEN_EQE and (name_cqe) by CQ completions. */
static int
ut_knob_msix(enum ut_src_kind kind)
{
	struct ut_ring eq;
	struct ut_src src;
	uint64_t n;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, &eq), "event source");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	/* A lost MSI-X: the EQE is there, the interrupt is not; re-arming recovers. */
	mlx5v_sim_drop_msix(g_sim, 1, 1);
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 0), 0, "event");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 0), "EQE");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "dropped MSI arrived");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "re-arm with a pending EQE");
	/* The same through the named knobs. */
	ut_eq_db(&eq, 1, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "msix_vec", 1), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "lose_msix", 1), "knob");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 1), 0, "event");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "lose_msix");
	/* A spurious (duplicated) MSI-X. */
	mlx5v_sim_dup_msix(g_sim, 1, 1);
	ut_eq_db(&eq, 2, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 2), 0, "event");
	n = ut_msi_wait(eq.fd);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	n += ut_msi_read(eq.fd);
	TEST_ASSERT_EQUAL(n, 2u, "dup_msix: two signals");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "dup_msix", 1), "knob");
	ut_eq_db(&eq, 3, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_src_raise(&src, 3), 0, "event");
	n = ut_msi_wait(eq.fd);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	n += ut_msi_read(eq.fd);
	TEST_ASSERT_EQUAL(n, 2u, "dup_msix knob: two signals");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "close the source");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_sim_knob_msix, ut_knob_msix)

static int
test_mlx5v_sim_knob_actions(void)
{
	uint64_t mask = (1ull << RTE_PMD_MLX5V_EVENT_PAGE_REQUEST) |
		(1ull << RTE_PMD_MLX5V_EVENT_PORT_CHANGE) |
		(1ull << RTE_PMD_MLX5V_EVENT_CQ_ERROR);
	uint64_t cq_overruns = UT_CTR(CQ_OVERRUNS);
	uint8_t out[0x118];
	const uint8_t *eqe;
	struct ut_ring eq;
	struct ut_ring cq;
	int32_t n;
	int64_t v;
	uint32_t i;

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "boot_pages", 100), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "init_pages", 10), "knob");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 100 - 48, "boot_pages");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_INIT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 110 - 48, "init_pages");
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, mask, 1), "EQ");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "request_pages", -3), "knob");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "request_pages EQE");
	TEST_ASSERT_EQUAL((int32_t)ut_be32(eqe, RTE_PMD_MLX5V_EQE_PAGE_NUM_PAGES_OFF), -3, "n");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "page_storm_pages", 2), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "page_storm", 3), "knob");
	for (i = 1; i <= 3; i++) {
		eqe = ut_eqe_wait(&eq, i);
		TEST_ASSERT_NOT_NULL(eqe, "storm EQE %u", i);
		TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqe, eqe, type),
				  RTE_PMD_MLX5V_EVENT_PAGE_REQUEST, "type");
		TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_PAGE_NUM_PAGES_OFF), 2u, "n");
	}
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "port_down", 1), "knob");
	eqe = ut_eqe_wait(&eq, 4);
	TEST_ASSERT_NOT_NULL(eqe, "port_down EQE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqe, eqe, sub_type), RTE_PMD_MLX5V_PORT_CHANGE_DOWN,
			  "sub_type");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "port_up", 1), "knob");
	eqe = ut_eqe_wait(&eq, 5);
	TEST_ASSERT_NOT_NULL(eqe, "port_up EQE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqe, eqe, sub_type), RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE,
			  "sub_type");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, eq.num, 1, out), 0, "CQ");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "cq_overrun", cq.num), "knob");
	eqe = ut_eqe_wait(&eq, 6);
	TEST_ASSERT_NOT_NULL(eqe, "cq_overrun EQE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqe, eqe, type), RTE_PMD_MLX5V_EVENT_CQ_ERROR, "type");
	TEST_ASSERT_EQUAL(UT_CTR(CQ_OVERRUNS), cq_overruns + 1, "counter");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "eq_overrun", eq.num), "knob");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(eqc, out + 0x10, status),
			  (uint32_t)RTE_PMD_MLX5V_EQC_STATUS_EQ_WRITE_FAILURE, "eq_overrun");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	/* Health, NIC interface and PCI knobs. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_synd", 0x10), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), MLX5V_HEALTH_RFR_BIT, "RFR");
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_IRISC_INDEX) >> 16) & 0xff, 0x10u,
			  "synd");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_synd", 0), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), 0u, "RFR cleared");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "nic_interface", 7), "knob");
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ) >> 8) & 7, 7u, "nic");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "nic_interface", 0), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "pci_offline", 1), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDIF_REV_FW_SUB), UINT32_MAX, "off");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "pci_offline", 0), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDIF_REV_FW_SUB) >> 16, 5u, "on");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_freeze", 1), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_get(g_sim, "health_freeze", &v), "get");
	TEST_ASSERT_EQUAL(v, 1, "health_freeze");
	/* Names and ranges. */
	TEST_ASSERT_EQUAL(mlx5v_sim_knob_set(g_sim, "no_such_knob", 1), -ENOENT, "unknown");
	TEST_ASSERT_EQUAL(mlx5v_sim_knob_set(g_sim, "fail_status", 0x100), -ERANGE, "range");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_get(g_sim, "delay_ms", &v), "get");
	TEST_ASSERT_EQUAL(v, 100, "delay_ms default");
	TEST_ASSERT_EQUAL(mlx5v_sim_knob_get(g_sim, "nope", &v), -ENOENT, "get unknown");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_params_devargs(void)
{
	static const char args[] =
		"msix=4,ports=2,pages=8:4,fail_opcode=0x10a,fail_status=5,fail_count=-1";
	struct mlx5v_hw_irq_info irq;
	struct mlx5v_sim_params p;
	struct mlx5v_sim *sim;
	uint8_t out[0x70];
	int32_t n;

	mlx5v_sim_params_default(&p);
	TEST_ASSERT_SUCCESS(mlx5v_sim_params_parse(&p, args), "parse");
	TEST_ASSERT_EQUAL(p.msix, 4u, "msix");
	TEST_ASSERT_EQUAL(p.ports, 2u, "ports");
	TEST_ASSERT_EQUAL(p.boot_pages, 8u, "boot pages");
	TEST_ASSERT_EQUAL(p.init_pages, 4u, "init pages");
	TEST_ASSERT(p.knobs == args, "knobs string");
	ut_teardown();
	TEST_ASSERT_SUCCESS(ut_setup_params(&p), "setup with devargs");
	TEST_ASSERT(mlx5v_sim_get("ut_mlx5v_sim0") == g_sim, "registry");
	TEST_ASSERT_NULL(mlx5v_sim_get("ut_no_such_sim"), "registry miss");
	TEST_ASSERT_SUCCESS(g_hw.ops->irq_info(&g_hw, &irq), "MSI-X info");
	TEST_ASSERT_EQUAL(irq.count, 4u, "MSI-X count");
	TEST_ASSERT_EQUAL(UT_LIVE(DMA_WINDOWS), 6u, "DMA windows of the test");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 5,
			  "fail knobs from devargs");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 8, "boot pages from devargs");
	TEST_ASSERT_EQUAL(mlx5v_sim_port_event(g_sim, 2, 1), 0, "port 2 of 2");
	/* Rejections. */
	mlx5v_sim_params_default(&p);
	TEST_ASSERT_EQUAL(mlx5v_sim_params_parse(&p, "msix=abc"), -EINVAL, "bad msix");
	TEST_ASSERT_EQUAL(mlx5v_sim_params_parse(&p, "pages=1:x"), -EINVAL, "bad pages");
	mlx5v_sim_params_default(&p);
	p.knobs = "fail_opcode=1,bogus=1";
	sim = mlx5v_sim_create("ut_mlx5v_sim_bad", &p);
	TEST_ASSERT(sim == NULL && rte_errno == EINVAL, "unknown knob accepted");
	/* A creation string must not stall the bring-up that follows. */
	p.knobs = "drop_opcode=0xffff,drop_hold=1";
	sim = mlx5v_sim_create("ut_mlx5v_sim_bad", &p);
	TEST_ASSERT(sim == NULL && rte_errno == EINVAL, "held bring-up command accepted");
	p.knobs = "delay_opcode=0xffff,delay_ms=10001";
	sim = mlx5v_sim_create("ut_mlx5v_sim_bad", &p);
	TEST_ASSERT(sim == NULL && rte_errno == EINVAL, "long bring-up delay accepted");
	p.knobs = NULL;
	p.msix = 1;
	sim = mlx5v_sim_create("ut_mlx5v_sim_bad", &p);
	TEST_ASSERT(sim == NULL && rte_errno == EINVAL, "msix 1 accepted");
	p.msix = 8;
	sim = mlx5v_sim_create("ut_mlx5v_sim0", &p);
	TEST_ASSERT(sim == NULL && rte_errno == EEXIST, "duplicate name accepted");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_sim_faults_suite = {
	.suite_name = "mlx5v_sim_faults",
	.unit_test_cases = {
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_fail),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_delivery_delay),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_drop_dup_hold),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_msix),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_msix_cqe),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_actions),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_params_devargs),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_sim_faults(void)
{
	return unit_test_suite_runner(&mlx5v_sim_faults_suite);
}

REGISTER_TEST_COMMAND(mlx5v_sim_faults_autotest, test_mlx5v_sim_faults);
