/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The scenario of vfio_rdma_core.c through rte_pmd_mlx5v_* and our vfio-pci backend on
 * the same emulated function (doc/guides/nics/mlx5v_devx.rst, "rdma-core and mlx5v on one
 * function"). Run under dpdk-mlxv-vfio-run:
 *
 *     vfio-mlx5v-devx EAL_ARGS... -a BDF,class=none
 *
 * EAL's probe is our bring-up; then two MSI vectors, a UAR, DEVX EQs of 2^6 .. 2^17 entries
 * armed through the UAR, events by GEN_EQE through the general command, MSI on the vector's
 * eventfd, owner bits across wraps, destroy and free, an EQ whose ring leaves the IOMMU
 * (DMA outside the windows: the device reports it, nothing waits), the device's removal
 * (our teardown) and what it leaves in the model. Prints "ok:"/"FAIL:" lines; exit 1 on any
 * failure.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_byteorder.h>
#include <rte_dev.h>
#include <rte_eal.h>

#include "vfio_check.h"

static struct rte_pmd_mlx5v_dev *dev;

static int
gen_eqe(uint32_t eqn, uint32_t tag)
{
	uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE] = { 0 };

	gen_eqe_in(in, eqn, tag);
	return rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, sizeof(out));
}

static struct rte_pmd_mlx5v_eq *
eq_create(const struct rte_pmd_mlx5v_uar *uar, const struct rte_pmd_mlx5v_msi_vector *msi,
	  unsigned int log, uint32_t *eqn)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE] = { 0 };
	struct rte_pmd_mlx5v_eq *eq;

	create_eq_in(in, log, uar->page_id, msi->vector);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	CHECK(eq != NULL, "2^%u: rte_pmd_mlx5v_devx_create_eq (status 0x%x syndrome 0x%x "
	      "errno %d)", log, RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
	      RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME), eq == NULL ? errno : 0);
	*eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	return eq;
}

static int
pmd_gen_eqe(void *ctx __rte_unused, uint32_t eqn, uint32_t tag)
{
	return gen_eqe(eqn, tag);
}

static void
pmd_arm(void *uar, uint32_t eqn, uint32_t ci)
{
	rte_pmd_mlx5v_eq_arm(uar, eqn, ci);
}

/* One EQ of 2^log entries: create, arm, events, (wraps), destroy. */
static void
eq_scenario(const struct rte_pmd_mlx5v_uar *uar, const struct rte_pmd_mlx5v_msi_vector *msi,
	    unsigned int log)
{
	struct eq_driver d = { .gen_eqe = pmd_gen_eqe, .arm = pmd_arm, .uar = (void *)uar };
	struct rte_pmd_mlx5v_eq *eq;
	struct model_snap s;
	uint32_t ci, eqn;

	snap(&s);
	eq = eq_create(uar, msi, log, &eqn);
	if (eq == NULL)
		return;
	/* The driver hands the ring out with every EQE device-owned (rdma-core does not). */
	ci = eq_events(&d, eq->vaddr, log, eqn, msi->fd);
	rte_pmd_mlx5v_eq_update_ci(uar, eqn, ci, 0);
	CHECK(rte_pmd_mlx5v_devx_destroy_eq(eq) == 0, "2^%u: rte_pmd_mlx5v_devx_destroy_eq", log);
	check_clean(&s, "EQ");
}

static int
query_eq(uint32_t eqn, uint32_t *status, uint64_t *pas0)
{
	uint8_t in[RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8] = { 0 };
	int ret;

	query_eq_in(in, eqn);
	ret = rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, sizeof(out));
	query_eq_out(out, status, pas0);
	return ret;
}

/* An IOMMU window of the model. */
struct window {
	uint64_t iova;
	size_t len;
	void *addr;
};

/* Map [from, to) of window w into the model's IOMMU, as VFIO_IOMMU_MAP_DMA would. */
static int
page_map(const struct window *w, uint64_t from, uint64_t to)
{
	if (from == to)
		return 0;
	return mlx5v_sim_iommu_map(sim, from, (uint8_t *)w->addr + (from - w->iova), to - from);
}

static void
page_unmap(uint64_t from, uint64_t to)
{
	if (from != to)
		mlx5v_sim_iommu_unmap(sim, from, to - from);
}

/*
 * DMA outside the mapped windows: the EQ's ring page leaves the model's IOMMU behind the
 * driver's back; GEN_EQE completes, the EQE write is an IOMMU fault, the EQ reports
 * EQ_WRITE_FAILURE, no MSI, nothing waits. The page goes back before the destroy.
 */
static void
eq_unmapped(const struct rte_pmd_mlx5v_uar *uar, const struct rte_pmd_mlx5v_msi_vector *msi)
{
	struct pollfd p = { .fd = msi->fd, .events = POLLIN };
	struct window w = { .iova = 0 };
	struct rte_pmd_mlx5v_eq *eq;
	int cut;
	uint64_t faults, pas0 = 0;
	uint32_t eqn, status = 0;

	eq = eq_create(uar, msi, LOG_MIN, &eqn);
	if (eq == NULL)
		return;
	rte_pmd_mlx5v_eq_arm(uar, eqn, 0);
	CHECK(query_eq(eqn, &status, &pas0) == 0 && status == 0 && pas0 != 0,
	      "unmapped ring: QUERY_EQ gives the ring's IOVA 0x%" PRIx64, pas0);
	/*
	 * EAL maps its memory in windows of a segment or more: the window of the ring leaves
	 * the model's IOMMU and comes back without the ring's page, all else reachable (the
	 * command queue).
	 */
	cut = mlx5v_sim_iommu_window(sim, pas0, &w.iova, &w.len, &w.addr) == 0 &&
	      mlx5v_sim_iommu_unmap(sim, w.iova, w.len) == 0;
	CHECK(cut && page_map(&w, w.iova, pas0) == 0 &&
	      page_map(&w, pas0 + 4096, w.iova + w.len) == 0,
	      "unmapped ring: the ring's page cut out of its window [0x%" PRIx64 ", +0x%zx)",
	      w.iova, w.len);
	faults = mlx5v_sim_counter(sim, MLX5V_SIM_CTR_IOMMU_FAULTS);
	CHECK(gen_eqe(eqn, 0) == 0, "unmapped ring: GEN_EQE completes");
	CHECK(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_IOMMU_FAULTS) == faults + 1,
	      "unmapped ring: the device's EQE write is an IOMMU fault");
	CHECK(query_eq(eqn, &status, &pas0) == 0 &&
	      status == RTE_PMD_MLX5V_EQC_STATUS_EQ_WRITE_FAILURE,
	      "unmapped ring: the EQ reports EQ_WRITE_FAILURE (0x%x)", status);
	CHECK(poll(&p, 1, 0) == 0, "unmapped ring: no MSI for an EQE never written");
	if (cut) {
		page_unmap(w.iova, pas0);
		page_unmap(pas0 + 4096, w.iova + w.len);
		CHECK(mlx5v_sim_iommu_map(sim, w.iova, w.addr, w.len) == 0,
		      "unmapped ring: the window back whole");
	}
	CHECK(rte_pmd_mlx5v_devx_destroy_eq(eq) == 0, "unmapped ring: destroy_eq");
}

int
main(int argc, char **argv)
{
	struct rte_pmd_mlx5v_msi_vector *msi, *msi2;
	struct rte_pmd_mlx5v_uar *uar;
	struct model_snap s = { 0 };
	struct rte_dev_iterator it;
	struct rte_device *rdev = NULL;
	unsigned int log, pages;
	char name[64], bdf[64], devargs[96];
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = rte_eal_init(argc, argv);
	CHECK(ret >= 0, "EAL and our bring-up through the PCI bus");
	if (ret < 0)
		return 1;
	RTE_DEV_FOREACH(rdev, "bus=pci", &it)
		break;
	CHECK(rdev != NULL, "one PCI function probed");
	if (rdev == NULL)
		return 1;
	dev = rte_pmd_mlx5v_dev_get(rte_dev_name(rdev));
	snprintf(name, sizeof(name), "vfio-%s", rte_dev_name(rdev));
	sim = mlx5v_sim_get(name);
	CHECK(dev != NULL && sim != NULL, "the device %s and its model are in this process",
	      rte_dev_name(rdev));
	if (dev == NULL || sim == NULL)
		return 1;
	check_clean(&s, "bring-up");
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ) == 1, "one EQ (our async EQ)");
	pages = mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES);
	CHECK(pages > 0, "the device holds %u firmware pages", pages);
	CHECK(mlx5v_sim_msix_enabled(sim, NULL) > 0, "MSI-X enabled through VFIO");

	msi = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	CHECK(msi != NULL && msi->vector > 0 && msi->fd >= 0,
	      "rte_pmd_mlx5v_devx_alloc_msi_vector: vector %d", msi != NULL ? msi->vector : -1);
	msi2 = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	CHECK(msi2 != NULL && msi != NULL && msi2->vector != msi->vector,
	      "a second vector %d", msi2 != NULL ? msi2->vector : -1);
	uar = rte_pmd_mlx5v_devx_alloc_uar(dev);
	CHECK(uar != NULL, "rte_pmd_mlx5v_devx_alloc_uar: page %u",
	      uar != NULL ? uar->page_id : 0);
	if (msi == NULL || uar == NULL)
		return 1;
	for (log = LOG_MIN; log <= LOG_MAX; log++)
		eq_scenario(uar, log % 2 == 0 || msi2 == NULL ? msi : msi2, log);
	eq_unmapped(uar, msi);
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ) == 1, "only the async EQ is left");
	CHECK(rte_pmd_mlx5v_devx_free_uar(uar) == 0, "rte_pmd_mlx5v_devx_free_uar");
	CHECK(msi2 == NULL || rte_pmd_mlx5v_devx_free_msi_vector(msi2) == 0,
	      "free the second vector");
	CHECK(rte_pmd_mlx5v_devx_free_msi_vector(msi) == 0, "rte_pmd_mlx5v_devx_free_msi_vector");

	/* Our teardown: the device removed through EAL, what it leaves in the model. */
	snap(&s);
	CHECK(rte_dev_remove(rdev) == 0, "rte_dev_remove: our teardown");
	check_clean(&s, "teardown");
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ) == 0, "teardown: no EQ left");
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_UAR) == 0, "teardown: no UAR left");
	printf("teardown: the device holds %u firmware pages (%u after bring-up), %u DMA "
	       "windows, MSI-X %s\n", mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES), pages,
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_DMA_WINDOWS),
	       mlx5v_sim_msix_enabled(sim, NULL) > 0 ? "on" : "off");
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES) == 0,
	      "teardown: the pages taken back (MANAGE_PAGES TAKE)");
	/* A second probe: vfio-pci resets the function at open, our bring-up runs again. */
	snprintf(bdf, sizeof(bdf), "%s", name + strlen("vfio-"));
	snprintf(devargs, sizeof(devargs), "%s,mlx5v=1,class=none", bdf);
	CHECK(rte_dev_probe(devargs) == 0, "second probe of %s", bdf);
	sim = mlx5v_sim_get(name);
	dev = rte_pmd_mlx5v_dev_get(bdf);
	CHECK(sim != NULL && dev != NULL &&
	      mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES) == pages,
	      "second probe: the reset device took %u pages again", pages);
	rte_eal_cleanup();
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
