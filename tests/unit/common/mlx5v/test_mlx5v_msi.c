/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of mlx5v_msi: MSI-X vectors and their eventfds; vector 0 is the driver's. */

#include "test.h"

#include "mlx5v_cmd.h"
#include "mlx5v_ifc.h"
#include "ut_mlx5v.h"

#define VDEV_NAME "mlx5v_sim0"

static struct mlx5v_dev *g_dev;
static struct mlx5v_sim *g_sim;

static int
msi_setup(void)
{
	return ut_main_up(VDEV_NAME, "msix=4,cmd_to_ms=2000", &g_dev, &g_sim) == 0 ?
	       TEST_SUCCESS : TEST_FAILED;
}

static void
msi_teardown(void)
{
	ut_dev_remove(VDEV_NAME);
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

/*
 * Only the vectors in use are enabled: vector 0 at load, one more per user vector, and a host
 * with 4 interrupt vectors for a function that has 64 still runs the device
 * (doc/guides/nics/running_on_hardware.rst, "MSI-X"). A driver enabling all 64 fails probe.
 */
static int
test_mlx5v_msi_only_used_vectors(void)
{
	struct mlx5v_dev *dev;
	struct mlx5v_sim *sim;
	unsigned int max;
	int fd[4], vec[4], i;

	TEST_ASSERT_SUCCESS(ut_vdev_up("mlx5v_sim1", "msix=64,msix_host_vectors=4,cmd_to_ms=2000",
				       &dev, &sim), "probe with 4 host vectors for 64");
	TEST_ASSERT_EQUAL(mlx5v_msi_count(dev), 64u, "the function's vectors");
	TEST_ASSERT_EQUAL(mlx5v_sim_msix_enabled(sim, &max), 1u, "only vector 0 enabled at load");
	TEST_ASSERT_EQUAL(max, 1u, "more than vector 0 enabled during load");
	for (i = 0; i < 3; i++) {
		vec[i] = mlx5v_msi_alloc(dev, &fd[i]);
		TEST_ASSERT_EQUAL(vec[i], i + 1, "vector %d", vec[i]);
		TEST_ASSERT_EQUAL(mlx5v_sim_msix_enabled(sim, NULL), (unsigned int)i + 2,
				  "enabled vectors after %d allocations", i + 1);
	}
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_MSIX_BAD_ENABLE), 0u,
			  "refused enable within the host's vectors");
	/* The fifth vector does not exist on this host: a clear error, nothing changed. */
	TEST_ASSERT_EQUAL(mlx5v_msi_alloc(dev, &fd[3]), -ENOSPC, "fifth vector");
	TEST_ASSERT_EQUAL(mlx5v_sim_msix_enabled(sim, &max), 4u, "vectors after the refusal");
	TEST_ASSERT_EQUAL(max, 4u, "most vectors enabled");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(mlx5v_msi_free(dev, vec[i], fd[i]), "free %d", i);
	vec[0] = mlx5v_msi_alloc(dev, &fd[0]);
	TEST_ASSERT_EQUAL(vec[0], 1, "vector 1 again");
	TEST_ASSERT_SUCCESS(mlx5v_msi_free(dev, vec[0], fd[0]), "free");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_MSIX_NOT_ENABLED), 0u,
			  "interrupt on a vector not enabled");
	rte_vdev_uninit("mlx5v_sim1");
	return TEST_SUCCESS;
}

/*
 * VFIO without dynamic MSI-X (NORESIZE): a new vector is enabled by switching MSI-X off and on
 * with the larger count, never by adding one (which VFIO refuses); the control vector keeps
 * working across it; unload switches MSI-X off.
 */
/* A device on a simulator created with knobs (the MSI-X information is read at init). */
static int
msi_dev_create(struct ut_dev *u, const char *name, const char *knobs)
{
	struct mlx5v_dev_params dp;
	struct mlx5v_sim_params sp;

	memset(u, 0, sizeof(*u));
	mlx5v_sim_params_default(&sp);
	sp.knobs = knobs;
	u->sim = mlx5v_sim_create(name, &sp);
	if (u->sim == NULL)
		return -rte_errno;
	mlx5v_sim_hw_init(u->sim, &u->hw);
	ut_dev_params(&dp);
	u->dev = mlx5v_dev_init(name, &u->hw, &dp);
	return u->dev == NULL ? -rte_errno : 0;
}

static int
test_mlx5v_msi_noresize(void)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE], out[0x70];
	struct ut_dev u;
	unsigned int max;
	uint64_t cmds;
	int fd[2], vec[2], i;

	TEST_ASSERT_SUCCESS(msi_dev_create(&u, "ut_msi_noresize", "msix_noresize=1"), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load");
	TEST_ASSERT_EQUAL(mlx5v_sim_msix_enabled(u.sim, NULL), 1u, "vector 0 only");
	for (i = 0; i < 2; i++) {
		vec[i] = mlx5v_msi_alloc(u.dev, &fd[i]);
		TEST_ASSERT_EQUAL(vec[i], i + 1, "vector %d", vec[i]);
	}
	TEST_ASSERT_EQUAL(mlx5v_sim_msix_enabled(u.sim, &max), 3u, "enabled after two");
	TEST_ASSERT_EQUAL(max, 3u, "most enabled");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_MSIX_BAD_ENABLE), 0u,
			  "a vector added under NORESIZE");
	/* Commands complete through the control vector's EQ after the re-enables. */
	cmds = mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_CMDS);
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_exec(u.dev, in, sizeof(in), out, sizeof(out)),
			    "a command after the re-enables");
	TEST_ASSERT(mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_CMDS) > cmds, "command ran");
	for (i = 0; i < 2; i++)
		TEST_ASSERT_SUCCESS(mlx5v_msi_free(u.dev, vec[i], fd[i]), "free %d", i);
	mlx5v_dev_unload(u.dev);
	TEST_ASSERT_EQUAL(mlx5v_sim_msix_enabled(u.sim, NULL), 0u, "MSI-X on after unload");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_MSIX_BAD_ENABLE), 0u,
			  "refused enable");
	ut_dev_destroy(&u);
	return TEST_SUCCESS;
}

/* MSI-X that cannot signal eventfds (no VFIO_IRQ_INFO_EVENTFD): refused before any SET_IRQS. */
static int
test_mlx5v_msi_no_eventfd(void)
{
	struct ut_dev u;
	int ret;

	ret = msi_dev_create(&u, "ut_msi_noefd", "msix_no_eventfd=1");
	TEST_ASSERT_NOT_NULL(u.sim, "create");
	if (u.dev != NULL)
		mlx5v_dev_load(u.dev);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_MSIX_BAD_ENABLE), 0u,
			  "eventfds handed to MSI-X that cannot signal them");
	ut_dev_destroy(&u);
	TEST_ASSERT_EQUAL(ret, -ENOTSUP, "a device without eventfd MSI-X: init returned %d", ret);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_msi_suite = {
	.suite_name = "mlx5v_msi",
	.setup = msi_setup,
	.teardown = msi_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_msi_vectors),
		TEST_CASE(test_mlx5v_msi_only_used_vectors),
		TEST_CASE(test_mlx5v_msi_noresize),
		TEST_CASE(test_mlx5v_msi_no_eventfd),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_msi(void)
{
	return unit_test_suite_runner(&mlx5v_msi_suite);
}

REGISTER_TEST_COMMAND(mlx5v_msi_autotest, test_mlx5v_msi);
