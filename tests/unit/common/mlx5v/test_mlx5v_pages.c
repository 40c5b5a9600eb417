/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of mlx5v_pages: firmware page give and reclaim on PAGE_REQUEST events. */

#include <rte_alarm.h>

#include "test.h"

#include "ut_mlx5v.h"

#define VDEV_NAME "mlx5v_sim0"

static struct mlx5v_dev *g_dev;
static struct mlx5v_sim *g_sim;

static int
pages_setup(void)
{
	return ut_main_up(VDEV_NAME, "msix=4,cmd_to_ms=2000", &g_dev, &g_sim) == 0 ?
	       TEST_SUCCESS : TEST_FAILED;
}

static void
pages_teardown(void)
{
	ut_dev_remove(VDEV_NAME);
}

static int
wait_pages(uint64_t want)
{
	uint64_t deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;

	while (ut_now_ms() < deadline) {
		if (mlx5v_pages_given(g_dev) == want &&
		    mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PAGES) == want)
			return 0;
		ut_sleep_ms(1);
	}
	printf("pages: driver %" PRIu64 ", device %u, want %" PRIu64 "\n",
	       mlx5v_pages_given(g_dev), mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PAGES), want);
	return -1;
}

/* PAGE_REQUEST events on the async EQ: give, reclaim, a storm, a failed give. */
static int
test_mlx5v_pages_requests(void)
{
	uint64_t base = mlx5v_pages_given(g_dev);

	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, 100) >= 0, "request +100");
	TEST_ASSERT_SUCCESS(wait_pages(base + 100), "give of 100 pages");
	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, -60) >= 0, "request -60");
	TEST_ASSERT_SUCCESS(wait_pages(base + 40), "reclaim of 60 pages");
	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, 1000) >= 0, "request +1000");
	TEST_ASSERT_SUCCESS(wait_pages(base + 1040), "give of 1000 pages (two commands)");
	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, -1000) >= 0, "request -1000");
	TEST_ASSERT_SUCCESS(wait_pages(base + 40), "reclaim of 1000 pages (two TAKEs)");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "page_storm_pages", 3), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "page_storm", 20), "storm");
	TEST_ASSERT_SUCCESS(wait_pages(base + 100), "storm of 20 x 3 pages");
	/* A give the device refuses: pages return to the allocator, CANT_GIVE follows. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, MLX5V_CMD_OP_MANAGE_PAGES,
						    MLX5V_CMD_STAT_LIM_ERR, 1), "arm");
	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, 10) >= 0, "request +10");
	ut_sleep_ms(50);
	TEST_ASSERT_SUCCESS(wait_pages(base + 100), "failed give changed the page count");
	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, -100) >= 0, "request -100");
	TEST_ASSERT_SUCCESS(wait_pages(base), "reclaim back to the bring-up pages");
	return TEST_SUCCESS;
}

/* A command issued from the EAL interrupt thread (an alarm), as page work and health do. */
struct intr_cmd {
	uint16_t opcode;
	int ret;
	int done;
};

static void
intr_cmd_cb(void *arg)
{
	struct intr_cmd *ic = arg;
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, ic->opcode);
	ic->ret = mlx5v_cmd_exec(g_dev, in, sizeof(in), out, sizeof(out));
	__atomic_store_n(&ic->done, 1, __ATOMIC_RELEASE);
}

/*
 * hold_for_pages: firmware holds a command until the pages it requested arrive. Issued
 * from the interrupt thread, where the page work alarm cannot run while the command
 * waits, it completes only if the waiter serves the request itself.
 */
static int
test_mlx5v_pages_request_while_cmd_waits(void)
{
	uint64_t base = mlx5v_pages_given(g_dev);
	struct intr_cmd ic = { .opcode = MLX5V_CMD_OP_QUERY_ISSI, .ret = -1, .done = 0 };
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	uint8_t in[MLX5V_CMD_HDR_SIZE];

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "hold_pages", 24), "knob");
	/* From an lcore: the alarm serves the request while the lcore waits. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "hold_for_pages",
					       MLX5V_CMD_OP_QUERY_ISSI), "arm");
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_exec(g_dev, in, sizeof(in), out, sizeof(out)),
			    "held command from an lcore");
	TEST_ASSERT_SUCCESS(wait_pages(base + 24), "pages for the lcore command");
	/* From the interrupt thread: nobody but the waiter can serve it. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "hold_for_pages",
					       MLX5V_CMD_OP_QUERY_ISSI), "arm");
	TEST_ASSERT_SUCCESS(rte_eal_alarm_set(1, intr_cmd_cb, &ic), "alarm");
	TEST_ASSERT_SUCCESS(UT_WAIT_FOR(__atomic_load_n(&ic.done, __ATOMIC_ACQUIRE)),
			    "command on the interrupt thread never returned");
	TEST_ASSERT_SUCCESS(ic.ret, "held command on the interrupt thread: %s",
			    strerror(-ic.ret));
	TEST_ASSERT_SUCCESS(wait_pages(base + 48), "pages for the interrupt-thread command");
	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, -48) >= 0, "request -48");
	TEST_ASSERT_SUCCESS(wait_pages(base), "reclaim");
	return TEST_SUCCESS;
}

/* ec_function 0x8000: the GIVE carries embedded_cpu_function (prm/mlx5 §5.2). */
static int
test_mlx5v_pages_ec_function_forwarded(void)
{
	uint64_t base = mlx5v_pages_given(g_dev);
	uint64_t ec0 = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_EC_PAGES);

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "request_pages_ec", 10), "request");
	TEST_ASSERT_SUCCESS(UT_WAIT_FOR(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_EC_PAGES) ==
					ec0 + 10), "the embedded-CPU function got %" PRIu64
			    " pages, not 10",
			    mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_EC_PAGES) - ec0);
	TEST_ASSERT_SUCCESS(wait_pages(base + 10), "pages");
	return TEST_SUCCESS;
}

/* ec_function 0x4000 "release all": freed locally, no MANAGE_PAGES (prm/mlx5 §5.2). */
static int
test_mlx5v_pages_release_all(void)
{
	TEST_ASSERT(mlx5v_pages_given(g_dev) > 0, "no pages to release");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "release_all_pages", 1), "release");
	TEST_ASSERT_SUCCESS(wait_pages(0), "pages still counted after release all");
	/* The allocator still works afterwards. */
	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, 5) >= 0, "request +5");
	TEST_ASSERT_SUCCESS(wait_pages(5), "give after release all");
	return TEST_SUCCESS;
}

/*
 * 10^4 pages each way. Give and reclaim are O(1) per page: the allocator's work counter
 * (chunks and hash entries visited) stays a small multiple of the pages moved, where a
 * walk over the chunk list would visit about a hundred chunks per page at this size.
 */
static int
test_mlx5v_pages_scale_1e4(void)
{
	const uint64_t n = 10000;
	uint64_t base = mlx5v_pages_given(g_dev);
	uint64_t steps0 = g_dev->pages.steps;
	uint64_t steps;

	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, n) >= 0, "request +10^4");
	TEST_ASSERT_SUCCESS(wait_pages(base + n), "give of 10^4 pages");
	TEST_ASSERT(mlx5v_sim_request_pages(g_sim, -(int32_t)n) >= 0, "request -10^4");
	TEST_ASSERT_SUCCESS(wait_pages(base), "reclaim of 10^4 pages");
	steps = g_dev->pages.steps - steps0;
	printf("allocator steps for 2 x %" PRIu64 " pages: %" PRIu64 "\n", n, steps);
	TEST_ASSERT(steps <= 4 * 2 * n, "%" PRIu64 " allocator steps for %" PRIu64
		    " page operations: not O(1) per page", steps, 2 * n);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_pages_suite = {
	.suite_name = "mlx5v_pages",
	.setup = pages_setup,
	.teardown = pages_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_pages_requests),
		TEST_CASE(test_mlx5v_pages_request_while_cmd_waits),
		TEST_CASE(test_mlx5v_pages_ec_function_forwarded),
		TEST_CASE(test_mlx5v_pages_scale_1e4),
		TEST_CASE(test_mlx5v_pages_release_all),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_pages(void)
{
	return unit_test_suite_runner(&mlx5v_pages_suite);
}

REGISTER_TEST_COMMAND(mlx5v_pages_autotest, test_mlx5v_pages);
