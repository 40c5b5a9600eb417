/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of mlx5v_msi: MSI-X vectors and their eventfds; vector 0 is the driver's. */

#include "test.h"

#include "ut_mlx5v.h"

#define VDEV_NAME "mlx5v_sim0"

static struct mlx5v_dev *g_dev;
static struct mlx5v_sim *g_sim;

static int
msi_setup(void)
{
	return ut_vdev_up(VDEV_NAME, "msix=4,cmd_to_ms=2000", &g_dev, &g_sim) == 0 ?
	       TEST_SUCCESS : TEST_FAILED;
}

static void
msi_teardown(void)
{
	rte_vdev_uninit(VDEV_NAME);
}

/* MSI-X vectors: lowest free first, ENOSPC when exhausted, EINVAL for bad frees. */
static int
test_mlx5v_msi_vectors(void)
{
	int fd[4], vec[4], i, n = (int)mlx5v_msi_count(g_dev) - 1;

	TEST_ASSERT_EQUAL(n, 3, "msix=4 leaves 3 user vectors");
	for (i = 0; i < n; i++) {
		vec[i] = mlx5v_msi_alloc(g_dev, &fd[i]);
		TEST_ASSERT_EQUAL(vec[i], i + 1, "vector %d", vec[i]);
	}
	TEST_ASSERT_EQUAL(mlx5v_msi_alloc(g_dev, &fd[3]), -ENOSPC, "no ENOSPC");
	TEST_ASSERT_EQUAL(mlx5v_msi_free(g_dev, 0, fd[0]), -EINVAL, "vector 0 freed");
	TEST_ASSERT_EQUAL(mlx5v_msi_free(g_dev, vec[0], fd[1]), -EINVAL, "wrong fd accepted");
	TEST_ASSERT_SUCCESS(mlx5v_msi_free(g_dev, vec[1], fd[1]), "free 2");
	TEST_ASSERT_EQUAL(mlx5v_msi_alloc(g_dev, &fd[1]), 2, "lowest free vector not reused");
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(mlx5v_msi_free(g_dev, vec[i], fd[i]), "free %d", i);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_msi_suite = {
	.suite_name = "mlx5v_msi",
	.setup = msi_setup,
	.teardown = msi_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_msi_vectors),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_msi(void)
{
	return unit_test_suite_runner(&mlx5v_msi_suite);
}

REGISTER_TEST_COMMAND(mlx5v_msi_autotest, test_mlx5v_msi);
