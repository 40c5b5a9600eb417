/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the mlx5 device model: init segment, bring-up, command engine. */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "test.h"

#include "ut_mlx5v_sim.h"

/* ---------------------------------------------------------------- init segment */

static int
test_mlx5v_sim_iseg_readback(void)
{
	uint32_t v;
	uint32_t c0;

	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDIF_REV_FW_SUB);
	TEST_ASSERT_EQUAL(v >> 16, (uint32_t)MLX5V_CMDIF_REV, "cmdif rev %u", v >> 16);
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_FW_REV);
	TEST_ASSERT(v != 0 && v != UINT32_MAX, "fw_rev 0x%x", v);
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	TEST_ASSERT_EQUAL(v & 0xff, 0x56u, "log_cmdq_size 5 / stride 6, got 0x%x", v & 0xff);
	TEST_ASSERT_EQUAL(v & MLX5V_CMDQ_ADDR_MASK, (uint32_t)g_cmdq_iova, "address read-back");
	TEST_ASSERT_EQUAL((v >> 8) & 7, (uint32_t)MLX5V_NIC_IF_FULL, "nic_interface");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_H),
			  (uint32_t)(g_cmdq_iova >> 32), "address high");
	/* The log fields are read-only. */
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ, (uint32_t)g_cmdq_iova | 0xff);
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	TEST_ASSERT_EQUAL(v & 0xff, 0x56u, "log fields changed by a write: 0x%x", v);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMD_EXEC_TO), 0u, "0xff8");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMD_Q_INIT_TO), 0u, "0xffc");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING) &
			  MLX5V_ISEG_INITIALIZING_BIT, 0u, "initializing with boot_ms 0");
	v = mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_FW_VER);
	TEST_ASSERT(v != UINT32_MAX && v != 0, "health fw_ver 0x%x", v);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), 0u, "RFR");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_IRISC_INDEX), 0u, "synd");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, 0x1001), 0u, "unaligned read");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, 0x3000), 0u, "read past the init segment");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "cmd_exec_to", 0x20000010), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMD_EXEC_TO), 0x20000010u, "0xff8");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "cmd_q_init_to", 7), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMD_Q_INIT_TO), 7u, "0xffc");
	/* Heartbeat: bits 31:24 stay 0, bits 23:0 advance. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_period_ms", 1), "knob");
	c0 = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER);
	TEST_ASSERT_EQUAL(c0 >> 24, 0u, "health counter bits 31:24");
	TEST_ASSERT_SUCCESS(UT_WAIT_FOR(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER) != c0),
			    "health counter never advanced");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_iseg_boot_delay(void)
{
	struct mlx5v_sim_params p;
	struct mlx5v_sim *sim;
	struct mlx5v_hw hw;
	uint64_t misuse = UT_CTR(DB_MISUSE);
	uint8_t out[0x70];
	int ret;

	/* A long boot delay via the knob: "initializing" is set, the address write changes
	 * nothing (prm/mlx5 §1.3 model rule), and a doorbell now is a driver bug.
	 */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "boot_ms", 600000), "knob");
	TEST_ASSERT(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING) & MLX5V_ISEG_INITIALIZING_BIT,
		    "initializing not set");
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ, (uint32_t)g_cmdq_iova);
	TEST_ASSERT(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING) & MLX5V_ISEG_INITIALIZING_BIT,
		    "the address write cleared initializing");
	memset(g_big_in, 0, 16);
	MLX5V_IFC_SET(enable_hca_in, g_big_in, opcode, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(0, g_big_in, 16, 12);
	ut_ring(0);
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "doorbell while booting not counted");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "boot_ms", 0), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING), 0u, "still booting");
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "command after boot");
	ut_read_out(0, out, 12);
	TEST_ASSERT_EQUAL(out[0], 0, "ENABLE_HCA status 0x%x", out[0]);

	/* boot_ms as a creation parameter. */
	mlx5v_sim_params_default(&p);
	p.boot_ms = 60000;
	sim = mlx5v_sim_create("ut_mlx5v_sim_boot", &p);
	TEST_ASSERT_NOT_NULL(sim, "create");
	mlx5v_sim_hw_init(sim, &hw);
	TEST_ASSERT(mlx5v_hw_rd32(&hw, MLX5V_ISEG_INITIALIZING) & MLX5V_ISEG_INITIALIZING_BIT,
		    "boot_ms 60000: initializing not set");
	mlx5v_sim_destroy(sim);
	p.boot_ms = 20;
	sim = mlx5v_sim_create("ut_mlx5v_sim_boot", &p);
	TEST_ASSERT_NOT_NULL(sim, "create");
	mlx5v_sim_hw_init(sim, &hw);
	ret = UT_WAIT_FOR(!(mlx5v_hw_rd32(&hw, MLX5V_ISEG_INITIALIZING) &
			    MLX5V_ISEG_INITIALIZING_BIT));
	mlx5v_sim_destroy(sim);
	TEST_ASSERT_SUCCESS(ret, "initializing never cleared");
	return TEST_SUCCESS;
}

/*
 * BAR0 as memory for a host that maps it (mlx5v_sim_bar_export()): the init segment reads
 * as through the seam, and a store of the queue address is taken by the engine.
 */
static int
test_mlx5v_sim_bar_export(void)
{
	struct mlx5v_sim_bar_page pages[MLX5V_SIM_BAR_PAGES];
	struct mlx5v_sim_params p;
	volatile uint32_t *iseg;
	struct mlx5v_sim *sim;
	struct mlx5v_hw hw;
	int n, ret;

	mlx5v_sim_params_default(&p);
	p.host_page = 65536;
	sim = mlx5v_sim_create("ut_mlx5v_sim_bar", &p);
	TEST_ASSERT_NOT_NULL(sim, "create");
	n = mlx5v_sim_bar_export(sim, pages, RTE_DIM(pages));
	mlx5v_sim_destroy(sim);
	TEST_ASSERT_EQUAL(n, -ENOTSUP, "64 KiB host pages: a UAR is not a host page");
	sim = mlx5v_sim_create("ut_mlx5v_sim_bar", NULL);
	TEST_ASSERT_NOT_NULL(sim, "create");
	mlx5v_sim_hw_init(sim, &hw);
	TEST_ASSERT_EQUAL(mlx5v_sim_bar_export(sim, pages, 3), -EINVAL, "short array");
	n = mlx5v_sim_bar_export(sim, pages, RTE_DIM(pages));
	TEST_ASSERT(n > 3, "export: %d", n);
	TEST_ASSERT_EQUAL(pages[0].bar_off, 0u, "page 0");
	TEST_ASSERT_EQUAL(pages[3].bar_off, MLX5V_UAR_FIRST_INDEX * 4096u, "first UAR page");
	iseg = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, pages[0].fd, 0);
	TEST_ASSERT(iseg != MAP_FAILED, "map page 0");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(iseg[MLX5V_ISEG_CMDIF_REV_FW_SUB / 4]),
			  mlx5v_hw_rd32(&hw, MLX5V_ISEG_CMDIF_REV_FW_SUB), "cmdif_rev_fw_sub");
	iseg[MLX5V_ISEG_CMDQ_ADDR_H / 4] = rte_cpu_to_be_32(0x12);
	iseg[MLX5V_ISEG_CMDQ_ADDR_L_SZ / 4] = rte_cpu_to_be_32(0x34567000);
	ret = UT_WAIT_FOR(mlx5v_hw_rd32(&hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ) >> 12 == 0x34567 &&
			  rte_be_to_cpu_32(iseg[MLX5V_ISEG_CMDQ_ADDR_L_SZ / 4]) ==
			  mlx5v_hw_rd32(&hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ));
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&hw, MLX5V_ISEG_CMDQ_ADDR_H), 0x12u, "address high");
	munmap((void *)(uintptr_t)iseg, 4096);
	mlx5v_sim_destroy(sim);
	TEST_ASSERT_SUCCESS(ret, "the queue address store was not taken and published");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- bring-up */

static int
test_mlx5v_sim_bringup(void)
{
	uint8_t *cap = MLX5V_IFC_ADDR_OF(query_hca_cap_out, g_big_out, capability);
	uint8_t out[16 + 8 * UT_NPAGES];
	uint32_t held;
	uint32_t uar2;
	int32_t n;

	TEST_ASSERT_EQUAL(ut_bringup(), 0, "bring-up step failed");
	TEST_ASSERT(g_uar >= MLX5V_UAR_FIRST_INDEX, "UAR index %u < 3", g_uar);
	TEST_ASSERT_NOT_NULL(mlx5v_hw_uar_addr(&g_hw, g_uar), "no UAR page");
	TEST_ASSERT_NULL(mlx5v_hw_uar_addr(&g_hw, 2), "UAR 2 is the init segment");
	TEST_ASSERT_EQUAL(UT_LIVE(UAR), 1u, "live UARs");
	held = UT_LIVE(PAGES);
	TEST_ASSERT_EQUAL(held, 48u, "pages held %u (16 boot + 32 init)", held);
	/* Capabilities (prm/mlx5 §2.2). */
	TEST_ASSERT_EQUAL(ut_query_cap(1, g_big_out), 0, "QUERY_HCA_CAP cur");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, umem_uid_0), 1u, "umem_uid_0");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, port_type), 1u, "port_type ETH");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, log_max_eq_sz), 22u, "log_max_eq_sz");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, max_num_eqs), 64u, "max_num_eqs");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, log_max_eq), 6u, "log_max_eq");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, log_max_cq), 10u, "log_max_cq");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, log_max_cq_sz), 22u, "log_max_cq_sz");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, fast_teardown), 1u, "fast_teardown");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, roce), 1u, "roce");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, cmdif_checksum), 0u, "cmdif_checksum");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, log_uar_page_sz), 0u, "log_uar_page_sz");
	TEST_ASSERT_EQUAL(ut_query_cap(0, g_big_out), 0, "QUERY_HCA_CAP max");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_hca_cap, cap, mkey_by_name), 1u, "max mkey_by_name");
	/* RoCE caps (prm/mlx5 §2.1 step 14): cur 0, max 1, then set. */
	TEST_ASSERT_EQUAL(ut_query_cap(0x9, g_big_out), 0, "RoCE cur");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(roce_cap, cap, sw_r_roce_src_udp_port), 0u, "cur");
	TEST_ASSERT_EQUAL(ut_query_cap(0x8, g_big_out), 0, "RoCE max");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(roce_cap, cap, sw_r_roce_src_udp_port), 1u, "max");
	/* SET_HCA_CAP after INIT_HCA is refused. */
	memset(g_big_in, 0, sizeof(g_big_in));
	MLX5V_IFC_SET(set_hca_cap_in, g_big_in, opcode, MLX5V_CMD_OP_SET_HCA_CAP);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, sizeof(g_big_in), out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "SET_HCA_CAP after INIT_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_SET_CAP_STATE, "syndrome");
	/* ACCESS_REG read back of 0x7004. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ACCESS_REG, MLX5V_ACCESS_REG_READ,
				   MLX5V_REG_HOST_ENDIANNESS, out, 32), 0, "ACCESS_REG read");
	/* MODIFY_NIC_VPORT_CONTEXT roce_en (prm/mlx5 §2.1 step 18). */
	memset(g_big_in, 0, MLX5V_IFC_BYTES(modify_nic_vport_context_in));
	MLX5V_IFC_SET(modify_nic_vport_context_in, g_big_in, opcode,
		      MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT);
	MLX5V_IFC_SET(modify_nic_vport_context_in, g_big_in, field_select_roce_en, 1);
	MLX5V_IFC_SET(modify_nic_vport_context_in, g_big_in, ctx.roce_en, 1);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, MLX5V_IFC_BYTES(modify_nic_vport_context_in), out, 16),
			  0,
			  "MODIFY_NIC_VPORT_CONTEXT");
	MLX5V_IFC_SET(modify_nic_vport_context_in, g_big_in, vport_number, 1);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, MLX5V_IFC_BYTES(modify_nic_vport_context_in), out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "other vport");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_VPORT, "syndrome");
	/* A second UAR, then both freed. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ALLOC_UAR, 0, 0, out, 16), 0, "ALLOC_UAR");
	uar2 = MLX5V_IFC_GET(alloc_uar_out, out, uar);
	TEST_ASSERT(uar2 >= MLX5V_UAR_FIRST_INDEX && uar2 != g_uar, "second UAR %u", uar2);
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DEALLOC_UAR, 0, uar2, out, 16), 0, "DEALLOC");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DEALLOC_UAR, 0, g_uar, out, 16), 0, "DEALLOC");
	TEST_ASSERT_EQUAL(UT_LIVE(UAR), 0u, "live UARs");
	/* [K] teardown: TEARDOWN_HCA graceful, reclaim, DISABLE_HCA. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 0, out, 16), 0, "TEARDOWN");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(teardown_hca_out, out, state), 0u, "state");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DISABLE_HCA, 0, 0, out, 12),
			  MLX5V_CMD_STAT_OK, "DISABLE_HCA with pages held is allowed");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "re-enable");
	TEST_ASSERT_EQUAL(ut_take(20, out, 16 + 8 * 20), 0, "TAKE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(manage_pages_out, out, output_num_entries), 20u, "taken");
	TEST_ASSERT_EQUAL(ut_take(UT_NPAGES, out, sizeof(out)), 0, "TAKE");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(manage_pages_out, out, output_num_entries), 28u, "taken");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 0u, "pages left");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 16, "boot pages wanted again");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DISABLE_HCA, 0, 0, out, 12), 0, "DISABLE_HCA");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_teardown_fast(void)
{
	uint8_t out[16];
	uint32_t v;

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 5, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "profile 5");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_TEARDOWN_PROFILE, "synd");
	/* teardown_fail: the driver must fall back to profile 0 (prm/mlx5 §2.3 step 2). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "teardown_fail", 1), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 2, out, 16), 0, "profile 2");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(teardown_hca_out, out, state), 1u, "FORCE_STATE_FAIL");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "teardown_fail", 0), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fast_teardown", 0), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 2, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "profile 2 without the cap");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_TEARDOWN_NO_FAST, "synd");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fast_teardown", 1), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 2, out, 16), 0, "profile 2");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(teardown_hca_out, out, state), 0u, "state");
	/* prm/mlx5 §2.3 step 3: request DISABLED; the model reflects it. */
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ, (v & 0xfffff000) | (1u << 8));
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	TEST_ASSERT_EQUAL((v >> 8) & 7, (uint32_t)MLX5V_NIC_IF_DISABLED, "nic_interface %u",
			  (v >> 8) & 7);
	TEST_ASSERT_EQUAL(v & 0xff, 0x56u, "log fields after the request");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "teardown twice");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_TEARDOWN_STATE, "synd");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_hca_state_errors(void)
{
	uint8_t out[0x70];
	int32_t n;

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "before ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_HCA_DISABLED, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 1, out, 12),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "function_id 1");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_ENABLE_FUNC, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DISABLE_HCA, 0, 0, out, 12),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "DISABLE before ENABLE");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_DISABLE_STATE, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "ENABLE twice");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_ENABLE_TWICE, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_CREATE_EQ, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "CREATE_EQ before INIT_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_HCA_NOT_INIT, "synd");
	/* The Ethernet function exists only after INIT_HCA too. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ALLOC_PD, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "ALLOC_PD before INIT_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_HCA_NOT_INIT, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_SQ, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "DESTROY_SQ before INIT_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_HCA_NOT_INIT, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_INIT_HCA, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "INIT_HCA before SET_ISSI");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_INIT_NO_ISSI, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_SET_ISSI, 0, 2, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "ISSI 2");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_BAD_ISSI, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_SET_ISSI, 0, 1, out, 16), 0, "SET_ISSI 1");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "ISSI");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(query_issi_out, out, current_issi), 1u, "current");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_INIT_HCA, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "INIT_HCA without pages");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_INIT_NO_PAGES, "synd");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_INIT, &n), 0, "QUERY_PAGES init");
	TEST_ASSERT_EQUAL(n, 48, "init answer counts boot pages not given yet");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_POST_INIT, &n), 0, "post-init");
	TEST_ASSERT_EQUAL(n, 0, "post-init answer");
	TEST_ASSERT_EQUAL(ut_give(0, 48, out), 0, "GIVE");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_INIT_HCA, 0, 0, out, 16), 0, "INIT_HCA");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_INIT_HCA, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "INIT_HCA twice");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_INIT_TWICE, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DISABLE_HCA, 0, 0, out, 12),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "DISABLE before TEARDOWN");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_DISABLE_INIT, "synd");
	TEST_ASSERT_EQUAL(ut_query_cap(2 << 1, g_big_out), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "ODP caps are not modelled");
	TEST_ASSERT_EQUAL(ut_synd(g_big_out), (uint32_t)MLX5V_SIM_SYND_BAD_OP_MOD, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_HCA_CAP, 1, 1, g_big_out,
				   MLX5V_IFC_BYTES(query_hca_cap_out)),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "other function");
	TEST_ASSERT_EQUAL(ut_synd(g_big_out), (uint32_t)MLX5V_SIM_SYND_CAP_OTHER_FUNC, "synd");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- command engine */

static int
test_mlx5v_sim_cmd_bad_opcode(void)
{
	uint64_t errs = UT_CTR(CMD_ERRORS);
	uint64_t cmds = UT_CTR(CMDS);
	uint8_t out[16];

	TEST_ASSERT_EQUAL(ut_cmd16(0x7ff, 0, 0, out, 16), MLX5V_CMD_STAT_BAD_OP_ERR, "BAD_OP");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_BAD_OPCODE, "syndrome");
	TEST_ASSERT_EQUAL(UT_CTR(CMD_ERRORS), errs + 1, "CMD_ERRORS");
	TEST_ASSERT_EQUAL(UT_CTR(CMDS), cmds + 1, "CMDS");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_bad_op_mod(void)
{
	uint8_t out[16];

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 1, 0, out, 12),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "ENABLE_HCA op_mod 1");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_BAD_OP_MOD, "syndrome");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "QUERY_PAGES op_mod 0");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_BAD_OP_MOD, "syndrome");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_MANAGE_PAGES, 3, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "MANAGE_PAGES op_mod 3");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ACCESS_REG, 2, MLX5V_REG_HOST_ENDIANNESS, out,
				   16), MLX5V_CMD_STAT_BAD_PARAM_ERR, "ACCESS_REG op_mod 2");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_bad_lengths(void)
{
	uint8_t out[16];

	memset(g_big_in, 0, 16);
	MLX5V_IFC_SET(cmd_in_hdr, g_big_in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 4, out, 16), UT_DELIV | MLX5V_CMD_DELIV_IN_LENGTH_ERR,
			  "inlen 4");
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 16, out, 4),
			  UT_DELIV | MLX5V_CMD_DELIV_OUT_LENGTH_ERR, "outlen 4");
	ut_post(0, g_big_in, 16, 16);
	MLX5V_IFC_SET(cmd_layout, g_cmdq, inlen, MLX5V_SIM_CMD_MAX_LEN + 1);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_IN_LENGTH_ERR, "inlen too large");
	ut_post(0, g_big_in, 16, 16);
	MLX5V_IFC_SET(cmd_layout, g_cmdq, outlen, MLX5V_SIM_CMD_MAX_LEN + 1);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_OUT_LENGTH_ERR, "outlen too large");
	/* Per-opcode minimums answer in the outbox. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_HCA_CAP, 1, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_OUTP_LEN_ERR, "QUERY_HCA_CAP outlen 16");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_OUTLEN, "syndrome");
	MLX5V_IFC_SET(set_hca_cap_in, g_big_in, opcode, MLX5V_CMD_OP_SET_HCA_CAP);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 16, out, 16), MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
			  "SET_HCA_CAP inlen 16");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_INLEN, "syndrome");
	MLX5V_IFC_SET(create_eq_in, g_big_in, opcode, MLX5V_CMD_OP_CREATE_EQ);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 0x100, out, 16), MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
			  "CREATE_EQ inlen 0x100");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_unmapped_mailbox(void)
{
	uint64_t faults = UT_CTR(IOMMU_FAULTS);
	uint8_t *ent = g_cmdq;
	uint8_t out[16];

	memset(g_big_in, 0, sizeof(g_big_in));
	MLX5V_IFC_SET(set_hca_cap_in, g_big_in, opcode, MLX5V_CMD_OP_SET_HCA_CAP);
	ut_post(0, g_big_in, sizeof(g_big_in), 16);
	MLX5V_IFC_SET64(cmd_layout, ent, iptr, 0x40000000000ull);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_IN_PTR_ALIGN_ERR, "unmapped input");
	TEST_ASSERT(UT_CTR(IOMMU_FAULTS) > faults, "IOMMU fault not counted");
	faults = UT_CTR(IOMMU_FAULTS);
	ut_post(0, g_big_in, 16, MLX5V_IFC_BYTES(query_hca_cap_out));
	MLX5V_IFC_SET(query_hca_cap_in, g_big_in, opcode, MLX5V_CMD_OP_QUERY_HCA_CAP);
	memcpy(MLX5V_IFC_ADDR_OF(cmd_layout, ent, in), g_big_in, 16);
	MLX5V_IFC_SET64(cmd_layout, ent, optr, 0x40000000000ull);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR, "unmapped output");
	TEST_ASSERT(UT_CTR(IOMMU_FAULTS) > faults, "IOMMU fault not counted");
	/* The device still works. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_bad_block_num(void)
{
	memset(g_big_in, 0, sizeof(g_big_in));
	MLX5V_IFC_SET(set_hca_cap_in, g_big_in, opcode, MLX5V_CMD_OP_SET_HCA_CAP);
	ut_post(0, g_big_in, sizeof(g_big_in), 16);
	MLX5V_IFC_SET(cmd_mbox, g_mb[0].in + UT_MBOX_STRIDE, block_num, 5);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_BAD_BLK_NUM_ERR, "input block_num");
	ut_post(0, g_big_in, 16, MLX5V_IFC_BYTES(query_hca_cap_out));
	MLX5V_IFC_SET(cmd_mbox, g_mb[0].out + 2 * UT_MBOX_STRIDE, block_num, 0);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_BAD_BLK_NUM_ERR, "output block_num");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_misaligned_mailbox(void)
{
	memset(g_big_in, 0, sizeof(g_big_in));
	MLX5V_IFC_SET(set_hca_cap_in, g_big_in, opcode, MLX5V_CMD_OP_SET_HCA_CAP);
	ut_post(0, g_big_in, sizeof(g_big_in), 16);
	MLX5V_IFC_SET64(cmd_layout, g_cmdq, iptr, g_mb[0].in_iova + 512);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_IN_PTR_ALIGN_ERR, "input at +512");
	MLX5V_IFC_SET(query_hca_cap_in, g_big_in, opcode, MLX5V_CMD_OP_QUERY_HCA_CAP);
	ut_post(0, g_big_in, 16, MLX5V_IFC_BYTES(query_hca_cap_out));
	MLX5V_IFC_SET64(cmd_layout, g_cmdq, optr, g_mb[0].out_iova + 512);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR, "output at +512");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_bad_type(void)
{
	uint8_t in[16];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(enable_hca_in, in, opcode, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(0, in, 16, 12);
	MLX5V_IFC_SET(cmd_layout, g_cmdq, type, 6);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_CMD_DESCR_ERR, "type 6");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_owner_zero(void)
{
	uint64_t misuse = UT_CTR(DB_MISUSE);
	uint8_t *ent = g_cmdq + 3 * MLX5V_CMD_ENT_SIZE;
	uint8_t out[0x70];
	uint8_t in[16];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(enable_hca_in, in, opcode, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(3, in, 16, 12);
	MLX5V_IFC_SET(cmd_layout, ent, status_own, 0);
	ent[MLX5V_IFC_BYTE_OFF(cmd_layout, out)] = 0xaa;
	ut_ring(3);
	/* Two commands on slot 0: the engine pass that saw slot 3 has ended. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "sync 1");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "sync 2");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "owner-0 doorbell not counted");
	TEST_ASSERT_EQUAL(ent[MLX5V_IFC_BYTE_OFF(cmd_layout, out)], 0xaa,
			  "software-owned slot was touched");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET(cmd_layout, ent, status_own), 0, "status_own changed");
	return TEST_SUCCESS;
}

/* Slot 0 stays device-owned (held) while slot 31 completes; a doorbell on busy slot 0 is
 * a driver bug.
 */
static int
test_mlx5v_sim_cmd_slots_concurrent(void)
{
	uint64_t misuse;
	uint8_t out[16];
	uint8_t in[16];
	int32_t n;
	unsigned int s;

	TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(g_sim, MLX5V_CMD_OP_ENABLE_HCA, 1),
			    "hold knob");
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(enable_hca_in, in, opcode, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(0, in, 16, 12);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "slot 31 runs");
	TEST_ASSERT_EQUAL(n, 16, "boot pages");
	TEST_ASSERT(MLX5V_IFC_GET(cmd_layout, g_cmdq, status_own) & 1, "held slot 0 was completed");
	misuse = UT_CTR(DB_MISUSE);
	ut_ring(0);
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "doorbell on a busy slot");
	mlx5v_sim_release_held(g_sim);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "released slot 0");
	ut_read_out(0, out, 12);
	TEST_ASSERT_EQUAL(out[0], 0, "ENABLE_HCA status");
	/* Several slots in one doorbell write (prm/mlx5 §3.5). */
	for (s = 1; s <= 3; s++) {
		memset(in, 0, sizeof(in));
		MLX5V_IFC_SET(query_pages_in, in, opcode, MLX5V_CMD_OP_QUERY_PAGES);
		MLX5V_IFC_SET(query_pages_in, in, op_mod, s);
		ut_post(s, in, 16, 16);
	}
	rte_wmb();
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMD_DBELL, 0xe);
	for (s = 1; s <= 3; s++) {
		TEST_ASSERT_EQUAL(ut_wait(s), 0, "slot %u", s);
		TEST_ASSERT_EQUAL(*(uint8_t *)MLX5V_IFC_ADDR_OF(cmd_layout,
				  g_cmdq + s * MLX5V_CMD_ENT_SIZE, out), 0,
				  "slot %u status", s);
	}
	return TEST_SUCCESS;
}

static uint8_t
ut_xor8(const uint8_t *p, size_t len)
{
	uint8_t x = 0;

	while (len-- > 0)
		x ^= *p++;
	return x;
}

/* Sign slot s and its input blocks as [K] does (prm/mlx5 §3.4). */
static void
ut_sign(unsigned int slot, uint32_t inlen)
{
	uint8_t *ent = g_cmdq + slot * MLX5V_CMD_ENT_SIZE;
	uint8_t *blk;
	uint32_t n;

	for (n = 0; n < ut_nblocks(inlen); n++) {
		blk = g_mb[slot == UT_PAGE_SLOT].in + n * UT_MBOX_STRIDE;
		MLX5V_IFC_SET(cmd_mbox, blk, ctrl_sig, 0);
		MLX5V_IFC_SET(cmd_mbox, blk, sig, 0);
		MLX5V_IFC_SET(cmd_mbox, blk, ctrl_sig, ~ut_xor8(blk + 0x200, 0x3f));
		MLX5V_IFC_SET(cmd_mbox, blk, sig, ~ut_xor8(blk, MLX5V_MBOX_SIZE - 1));
	}
	MLX5V_IFC_SET(cmd_layout, ent, sig, 0);
	MLX5V_IFC_SET(cmd_layout, ent, sig, ~ut_xor8(ent, MLX5V_CMD_ENT_SIZE));
}

static int
test_mlx5v_sim_cmd_token_checksums(void)
{
	uint8_t *blk = g_mb[0].in;
	uint8_t out[0x70];

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	/* Token check: block token differs from the entry token -> delivery 0x2. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "check_token", 1), "knob");
	memset(g_big_in, 0, 32);
	MLX5V_IFC_SET(access_register_in, g_big_in, opcode, MLX5V_CMD_OP_ACCESS_REG);
	MLX5V_IFC_SET(access_register_in, g_big_in, register_id, MLX5V_REG_HOST_ENDIANNESS);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 32, out, 16), 0, "matching tokens");
	ut_post(0, g_big_in, 32, 16);
	blk[MLX5V_IFC_BYTE_OFF(cmd_mbox, token)] ^= 0x55;
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_TOK_ERR, "token mismatch");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "check_token", 0), "knob");
	/* Signatures: unsigned -> 0x1; signed -> OK and the output is signed. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "checksums", 1), "knob");
	ut_post(0, g_big_in, 32, 16);
	ut_sign(0, 32);
	g_cmdq[MLX5V_IFC_BYTE_OFF(cmd_layout, sig)] ^= 1;    /* a wrong entry signature */
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_SIGNAT_ERR, "bad entry signature");
	ut_post(0, g_big_in, 32, 16);
	ut_sign(0, 32);
	blk[0x10] ^= 1;            /* corrupt a signed block */
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_SIGNAT_ERR, "corrupt block");
	memset(g_big_in, 0, 16);
	MLX5V_IFC_SET(cmd_in_hdr, g_big_in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	ut_post(0, g_big_in, 16, 0x70);
	ut_sign(0, 16);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "signed command");
	TEST_ASSERT_EQUAL(g_cmdq[MLX5V_IFC_BYTE_OFF(cmd_layout, out)], 0, "status");
	TEST_ASSERT_EQUAL(ut_xor8(g_cmdq, MLX5V_CMD_ENT_SIZE), 0xff, "entry signature");
	TEST_ASSERT_EQUAL(ut_xor8(g_mb[0].out + 0x200, 0x3f), 0xff, "block ctrl_sig");
	TEST_ASSERT_EQUAL(ut_xor8(g_mb[0].out, MLX5V_MBOX_SIZE), 0xff, "block sig");
	TEST_ASSERT_EQUAL(ut_be32(g_mb[0].out, MLX5V_IFC_BYTE_OFF(query_issi_out,
					supported_issi_dw0) - MLX5V_CMD_INLINE_LEN), 3u,
			  "supported_issi in the signed block");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_sim_cmd_suite = {
	.suite_name = "mlx5v_sim_cmd",
	.unit_test_cases = {
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_iseg_readback),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_iseg_boot_delay),
		TEST_CASE(test_mlx5v_sim_bar_export),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_bringup),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_teardown_fast),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_hca_state_errors),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_bad_opcode),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_bad_op_mod),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cmd_bad_lengths),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_unmapped_mailbox),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_bad_block_num),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_misaligned_mailbox),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_bad_type),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_owner_zero),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_slots_concurrent),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_token_checksums),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_sim_cmd(void)
{
	return unit_test_suite_runner(&mlx5v_sim_cmd_suite);
}

REGISTER_TEST_COMMAND(mlx5v_sim_cmd_autotest, test_mlx5v_sim_cmd);
