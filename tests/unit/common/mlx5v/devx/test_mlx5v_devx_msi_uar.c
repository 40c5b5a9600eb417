/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the DEVX EQ / MSI-vector API: device handle, MSI vectors, UAR, DMA. */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "test.h"

#include "ut_mlx5v_devx.h"

static int
test_mlx5v_devx_dev_get(void)
{
	errno = 0;
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_dev_get(NULL), "NULL name accepted");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno %d", rte_errno);
	TEST_ASSERT_NULL(rte_pmd_mlx5v_dev_get("mlx5v_sim9"), "unknown device found");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "rte_errno %d", rte_errno);
	TEST_ASSERT(rte_pmd_mlx5v_dev_get(VDEV_NAME) == g_dev, "handle not stable");
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_msi_lowest_free(void)
{
	struct rte_pmd_mlx5v_msi_vector *m[3];
	uint64_t cnt;
	int i;

	for (i = 0; i < 3; i++) {
		m[i] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
		TEST_ASSERT_NOT_NULL(m[i], "alloc %d: %s", i, strerror(errno));
		TEST_ASSERT_EQUAL(m[i]->vector, i + 1, "vector %d, expected %d", m[i]->vector,
				  i + 1);
		/* A non-blocking eventfd: reading it empty gives EAGAIN, not a hang. */
		TEST_ASSERT(fcntl(m[i]->fd, F_GETFL) & O_NONBLOCK, "fd %d blocks", m[i]->fd);
		TEST_ASSERT_EQUAL(read(m[i]->fd, &cnt, sizeof(cnt)), -1, "empty fd read");
		TEST_ASSERT_EQUAL(errno, EAGAIN, "errno %d", errno);
	}
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[1]), "free 2");
	m[1] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m[1], "realloc");
	TEST_ASSERT_EQUAL(m[1]->vector, 2, "lowest free vector not reused: %d", m[1]->vector);
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[i]), "free %d", i);
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_msi_enospc(void)
{
	struct rte_pmd_mlx5v_msi_vector *m[NB_MSIX];
	struct rte_pmd_mlx5v_msi_vector *extra;
	int i;

	/* Vector 0 is the driver's: NB_MSIX - 1 vectors exist for users. */
	for (i = 0; i < NB_MSIX - 1; i++) {
		m[i] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
		TEST_ASSERT_NOT_NULL(m[i], "alloc %d: %s", i, strerror(errno));
	}
	errno = 0;
	extra = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NULL(extra, "a vector beyond the MSI-X table");
	TEST_ASSERT_EQUAL(errno, ENOSPC, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENOSPC, "rte_errno %d", rte_errno);
	for (i = 0; i < NB_MSIX - 1; i++)
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[i]), "free %d", i);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_alloc_msi_vector(NULL), "NULL dev");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_msi_free_einval(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_msi_vector saved;

	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(NULL), EINVAL, "NULL");
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	saved = *m;
	/* rdma-core checks the fields the caller sees; the object survives an EINVAL. */
	m->vector = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "vector 0");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	m->vector = NB_MSIX;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "vector = count");
	m->vector = 4000;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "vector 4000");
	m->vector = -1;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "vector -1");
	*m = saved;
	m->fd = saved.fd + 1000;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "fd mismatch");
	m->fd = -1;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "fd -1");
	/* Another allocated vector's fd does not match either. */
	*m = saved;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "valid free after EINVALs");
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_msi_free_ebusy(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EBUSY,
			  "vector freed under a live EQ");
	TEST_ASSERT_EQUAL(errno, EBUSY, "errno");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free after destroy");
	return TEST_SUCCESS;
}

/* The eventfd is wired to MSI-X entry v: an EQE on an armed EQ with intr v signals it. */
static int
msi_fd_wired_run(enum ut_src_kind kind)
{
	struct rte_pmd_mlx5v_msi_vector *m[2];
	struct rte_pmd_mlx5v_eq *eq;
	struct ut_src src;
	uint64_t cnt = 0;
	uint32_t eqn;

	m[0] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	m[1] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL, "alloc");
	eq = ut_eq_create(4, m[1]->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, eqn), "source");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, 0);
	TEST_ASSERT_SUCCESS(ut_wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "arm not seen");
	TEST_ASSERT_SUCCESS(ut_src_raise(&src, 1), "%s", ut_src_name(kind));
	TEST_ASSERT(ut_fd_wait(m[1]->fd), "vector %d fd not signalled", m[1]->vector);
	TEST_ASSERT_EQUAL(read(m[1]->fd, &cnt, sizeof(cnt)), (ssize_t)sizeof(cnt), "read");
	TEST_ASSERT(cnt >= 1, "count %" PRIu64, cnt);
	/* The other vector's fd saw nothing. */
	TEST_ASSERT_EQUAL(read(m[0]->fd, &cnt, sizeof(cnt)), -1, "wrong vector signalled");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, 1);
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, 1), "CI");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "source close");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[1]), "free");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[0]), "free");
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_devx_msi_fd_wired, msi_fd_wired_run)

static int
test_mlx5v_devx_uar(void)
{
	struct rte_pmd_mlx5v_uar *u;
	unsigned int uars = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_UAR);

	u = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	TEST_ASSERT_NOT_NULL(u, "alloc: %s", strerror(errno));
	TEST_ASSERT(u->page_id >= 3, "UAR index %u inside the init segment", u->page_id);
	TEST_ASSERT(u->page_id != g_uar->page_id, "UAR shared");
	TEST_ASSERT_NOT_NULL(u->base_addr, "base_addr");
	TEST_ASSERT((uint8_t *)u->reg_addr == (uint8_t *)u->base_addr + 0x800, "reg_addr");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_UAR), uars + 1, "live");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_uar(u), "free");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_UAR), uars, "leak");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(NULL), EINVAL, "NULL");
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_alloc_uar(NULL), "NULL dev");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno");
	return TEST_SUCCESS;
}

/*
 * The device reaches [iova, iova + len) at buf through one IOMMU window of the model: on a PCI
 * function one of the windows EAL mapped into the VFIO container at start-up.
 */
static int
ut_window_holds(uint64_t iova, size_t len, const uint8_t *buf)
{
	uint64_t first;
	size_t wlen;
	void *va;

	if (mlx5v_sim_iommu_window(g_sim, iova, &first, &wlen, &va) != 0)
		return 0;
	return iova + len <= first + wlen && (uint8_t *)va + (iova - first) == buf;
}

static int
test_mlx5v_devx_dma_map(void)
{
	unsigned int win = ut_live_windows();
	uint64_t iova = 0;
	uint8_t *buf;

	buf = rte_zmalloc("ut_dma", 8192, 4096);
	TEST_ASSERT_NOT_NULL(buf, "malloc");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_map(g_dev, buf, 8192, &iova), "map");
	TEST_ASSERT_EQUAL(iova, (uint64_t)rte_malloc_virt2iova(buf), "iova");
	TEST_ASSERT(ut_window_holds(iova, 8192, buf), "the device does not reach the buffer");
	/* A vdev maps a window per call; EAL memory is in a PCI function's container already. */
	TEST_ASSERT_EQUAL(ut_live_windows(), win + (ut_dev_pci() ? 0 : 1), "window");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_map(g_dev, buf + 4096, 4096, &iova), EINVAL,
			  "overlap");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_map(g_dev, buf, 0, &iova), EINVAL, "size 0");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_unmap(g_dev, buf, 4096), EINVAL, "size");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_unmap(g_dev, buf, 8192), "unmap");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_unmap(g_dev, buf, 8192), EINVAL, "twice");
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "window left");
	rte_free(buf);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_devx_msi_uar_suite = {
	.suite_name = "mlx5v DEVX API: msi uar",
	.setup = ut_devx_setup,
	.teardown = ut_devx_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_devx_dev_get),
		TEST_CASE(test_mlx5v_devx_msi_lowest_free),
		TEST_CASE(test_mlx5v_devx_msi_enospc),
		TEST_CASE(test_mlx5v_devx_msi_free_einval),
		TEST_CASE(test_mlx5v_devx_msi_free_ebusy),
		TEST_CASE(test_mlx5v_devx_msi_fd_wired),
		TEST_CASE(test_mlx5v_devx_msi_fd_wired_cqe),
		TEST_CASE(test_mlx5v_devx_uar),
		TEST_CASE(test_mlx5v_devx_dma_map),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_devx_msi_uar(void)
{
	return unit_test_suite_runner(&mlx5v_devx_msi_uar_suite);
}

REGISTER_TEST_COMMAND(mlx5v_devx_msi_uar_autotest, test_mlx5v_devx_msi_uar);
