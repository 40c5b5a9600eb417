/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of mlx5v_pages: firmware page give and reclaim on PAGE_REQUEST events. */

#include "test.h"

#include "ut_mlx5v.h"

#define VDEV_NAME "mlx5v_sim0"

static struct mlx5v_dev *g_dev;
static struct mlx5v_sim *g_sim;

static int
pages_setup(void)
{
	return ut_vdev_up(VDEV_NAME, "msix=4,cmd_to_ms=2000", &g_dev, &g_sim) == 0 ?
	       TEST_SUCCESS : TEST_FAILED;
}

static void
pages_teardown(void)
{
	rte_vdev_uninit(VDEV_NAME);
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

static struct unit_test_suite mlx5v_pages_suite = {
	.suite_name = "mlx5v_pages",
	.setup = pages_setup,
	.teardown = pages_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_pages_requests),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_pages(void)
{
	return unit_test_suite_runner(&mlx5v_pages_suite);
}

REGISTER_TEST_COMMAND(mlx5v_pages_autotest, test_mlx5v_pages);
