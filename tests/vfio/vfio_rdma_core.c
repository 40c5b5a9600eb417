/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file rdma-core's mlx5 VFIO provider, unmodified (Debian's libmlx5), on an emulated function
 * (doc/guides/platform/vfio_emulation.rst, "rdma-core"). Run under dpdk-mlxv-vfio-run:
 *
 *     vfio-rdma-core BDF
 *
 * ibv_open_device() is rdma-core's whole bring-up; then MSI vectors, the UAR, DEVX EQs of
 * 2^6 .. 2^17 entries armed through the UAR, events by GEN_EQE through the general command,
 * MSI on the vector's eventfd, owner bits across wraps, destroy and free, page requests
 * served by mlx5dv_vfio_process_events(), an EQ whose ring leaves the IOMMU, the teardown of
 * ibv_close_device() and a second open. The model is in this process: after each step the
 * test reads it (live objects, misused doorbells, IOMMU faults, command errors). Prints
 * "ok:"/"FAIL:" lines; exit 1 on any failure.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "vfio_check.h"

static struct ibv_context *
open_ctx(const char *bdf)
{
	struct mlx5dv_vfio_context_attr attr = { .pci_name = bdf };
	struct ibv_device **list;
	struct ibv_context *ctx;

	list = mlx5dv_get_vfio_device_list(&attr);
	if (list == NULL) {
		printf("mlx5dv_get_vfio_device_list(%s): %s\n", bdf, strerror(errno));
		return NULL;
	}
	ctx = ibv_open_device(list[0]);
	if (ctx == NULL)
		printf("ibv_open_device: %s\n", strerror(errno));
	ibv_free_device_list(list);
	return ctx;
}

static int
gen_eqe(struct ibv_context *ctx, uint32_t eqn, uint32_t tag)
{
	uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE] = { 0 };

	gen_eqe_in(in, eqn, tag);
	return mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out, sizeof(out));
}

static void
eq_db(struct mlx5dv_devx_uar *uar, unsigned int off, uint32_t eqn, uint32_t ci)
{
	/* The EQEs read must be consumed before the device may reuse them. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*(volatile uint32_t *)((uint8_t *)uar->base_addr + off) =
		htobe32((eqn << 24) | (ci & 0xffffff));
}

static int
rc_gen_eqe(void *ctx, uint32_t eqn, uint32_t tag)
{
	return gen_eqe(ctx, eqn, tag);
}

static void
rc_arm(void *uar, uint32_t eqn, uint32_t ci)
{
	eq_db(uar, RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF, eqn, ci);
}

/* One EQ of 2^log entries: create, arm, events, (wraps), destroy. */
static void
eq_scenario(struct ibv_context *ctx, struct mlx5dv_devx_uar *uar,
	    struct mlx5dv_devx_msi_vector *msi, unsigned int log)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE] = { 0 };
	struct eq_driver d = { .gen_eqe = rc_gen_eqe, .arm = rc_arm };
	struct mlx5dv_devx_eq *eq;
	struct model_snap s;
	uint32_t nent = 1u << log;
	uint32_t ci, eqn;
	unsigned int i;

	snap(&s);
	create_eq_in(in, log, uar->page_id, msi->vector);
	eq = mlx5dv_devx_create_eq(ctx, in, sizeof(in), out, sizeof(out));
	CHECK(eq != NULL, "2^%u: mlx5dv_devx_create_eq (status 0x%x syndrome 0x%x errno %d)", log,
	      RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
	      RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME), eq == NULL ? errno : 0);
	if (eq == NULL)
		return;
	eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	/* rdma-core hands out the ring as allocated: the caller makes every EQE device-owned. */
	for (i = 0; i < nent; i++)
		((uint8_t *)eq->vaddr)[(size_t)i * RTE_PMD_MLX5V_EQE_SIZE +
				       RTE_PMD_MLX5V_EQE_OWNER_OFF] = 1;
	d.ctx = ctx;
	d.uar = uar;
	ci = eq_events(&d, eq->vaddr, log, eqn, msi->fd);
	eq_db(uar, RTE_PMD_MLX5V_UAR_EQ_DB_NOARM_OFF, eqn, ci);
	CHECK(mlx5dv_devx_destroy_eq(eq) == 0, "2^%u: mlx5dv_devx_destroy_eq", log);
	check_clean(&s, "EQ");
}

/* QUERY_EQ through the general command: the EQ's status and its first page's IOVA. */
static int
query_eq(struct ibv_context *ctx, uint32_t eqn, uint32_t *status, uint64_t *pas0)
{
	uint8_t in[RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8] = { 0 };
	int ret;

	query_eq_in(in, eqn);
	ret = mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out, sizeof(out));
	query_eq_out(out, status, pas0);
	return ret;
}

/*
 * DMA outside the mapped windows (a host-side fault): the EQ's ring leaves the
 * IOMMU behind rdma-core's back, an event is raised; the device's write faults, the EQ
 * goes to EQ_WRITE_FAILURE, no MSI, and nothing waits forever. The window is put back
 * before the destroy, so the container and the model agree again.
 */
static void
eq_unmapped(struct ibv_context *ctx, struct mlx5dv_devx_uar *uar,
	    struct mlx5dv_devx_msi_vector *msi)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE] = { 0 };
	uint64_t faults, pas0 = 0;
	struct mlx5dv_devx_eq *eq;
	uint32_t eqn, status = 0;
	struct pollfd p = { .fd = msi->fd, .events = POLLIN };
	unsigned int i;

	create_eq_in(in, LOG_MIN, uar->page_id, msi->vector);
	eq = mlx5dv_devx_create_eq(ctx, in, sizeof(in), out, sizeof(out));
	CHECK(eq != NULL, "unmapped ring: create_eq");
	if (eq == NULL)
		return;
	eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	for (i = 0; i < 1u << LOG_MIN; i++)
		((uint8_t *)eq->vaddr)[i * RTE_PMD_MLX5V_EQE_SIZE +
				       RTE_PMD_MLX5V_EQE_OWNER_OFF] = 1;
	eq_db(uar, RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF, eqn, 0);
	CHECK(query_eq(ctx, eqn, &status, &pas0) == 0 && status == 0 && pas0 != 0,
	      "unmapped ring: QUERY_EQ gives the ring's IOVA 0x%" PRIx64, pas0);
	/* rdma-core maps the ring as one window of its size (4 KiB for 2^6 EQEs). */
	CHECK(mlx5v_sim_iommu_unmap(sim, pas0, 4096) == 0, "unmapped ring: window removed");
	faults = mlx5v_sim_counter(sim, MLX5V_SIM_CTR_IOMMU_FAULTS);
	CHECK(gen_eqe(ctx, eqn, 0) == 0,
	      "unmapped ring: GEN_EQE completes");
	CHECK(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_IOMMU_FAULTS) == faults + 1,
	      "unmapped ring: the device's EQE write is an IOMMU fault");
	CHECK(query_eq(ctx, eqn, &status, &pas0) == 0 &&
	      status == RTE_PMD_MLX5V_EQC_STATUS_EQ_WRITE_FAILURE,
	      "unmapped ring: the EQ reports EQ_WRITE_FAILURE (0x%x)", status);
	CHECK(poll(&p, 1, 0) == 0, "unmapped ring: no MSI for an EQE never written");
	CHECK(mlx5v_sim_iommu_map(sim, pas0, eq->vaddr, 4096) == 0, "unmapped ring: window back");
	CHECK(mlx5dv_devx_destroy_eq(eq) == 0, "unmapped ring: destroy_eq");
}

/* Page requests: the device asks, mlx5dv_vfio_process_events() gives (and takes back). */
static void
page_requests(struct ibv_context *ctx)
{
	unsigned int before = mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES);
	unsigned int i;
	int fd = mlx5dv_vfio_get_events_fd(ctx);
	struct model_snap s;

	snap(&s);
	CHECK(fd >= 0, "mlx5dv_vfio_get_events_fd");
	CHECK(mlx5v_sim_request_pages(sim, 8) == 0, "device asks for 8 pages");
	for (i = 0; i < 100 && mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES) != before + 8;
	     i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 50);
		mlx5dv_vfio_process_events(ctx);
	}
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES) == before + 8,
	      "process_events gave 8 pages (%u -> %u)", before,
	      mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES));
	CHECK(mlx5v_sim_request_pages(sim, -8) == 0, "device returns 8 pages");
	for (i = 0; i < 100 && mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES) != before;
	     i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 50);
		mlx5dv_vfio_process_events(ctx);
	}
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES) == before,
	      "process_events took 8 pages back");
	check_clean(&s, "page requests");
}

int
main(int argc, char **argv)
{
	const char *bdf = argc > 1 ? argv[1] : "0000:00:05.0";
	struct mlx5dv_devx_msi_vector *msi, *msi2;
	struct mlx5dv_devx_uar *uar;
	struct ibv_context *ctx;
	struct model_snap s = { 0 };
	unsigned int log, pages;
	char name[32];

	/* Line by line: a hang still shows how far it got. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	ctx = open_ctx(bdf);
	CHECK(ctx != NULL, "ibv_open_device: rdma-core's bring-up on %s", bdf);
	if (ctx == NULL)
		return 1;
	snprintf(name, sizeof(name), "vfio-%s", bdf);
	sim = mlx5v_sim_get(name);
	CHECK(sim != NULL, "the model %s is in this process", name);
	if (sim == NULL)
		return 1;
	check_clean(&s, "bring-up");
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ) == 1, "one EQ (rdma-core's async EQ)");
	pages = mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES);
	CHECK(pages > 0, "the device holds %u firmware pages", pages);
	CHECK(mlx5v_sim_msix_enabled(sim, NULL) > 0, "MSI-X enabled through VFIO");

	msi = mlx5dv_devx_alloc_msi_vector(ctx);
	CHECK(msi != NULL && msi->vector > 0 && msi->fd >= 0,
	      "mlx5dv_devx_alloc_msi_vector: vector %d", msi != NULL ? msi->vector : -1);
	msi2 = mlx5dv_devx_alloc_msi_vector(ctx);
	CHECK(msi2 != NULL && msi != NULL && msi2->vector != msi->vector,
	      "a second vector %d", msi2 != NULL ? msi2->vector : -1);
	uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	CHECK(uar != NULL, "mlx5dv_devx_alloc_uar: page %u", uar != NULL ? uar->page_id : 0);
	if (msi == NULL || uar == NULL)
		return 1;
	for (log = LOG_MIN; log <= LOG_MAX; log++)
		eq_scenario(ctx, uar, log % 2 == 0 || msi2 == NULL ? msi : msi2, log);
	eq_unmapped(ctx, uar, msi);
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ) == 1, "only the async EQ is left");
	mlx5dv_devx_free_uar(uar);
	CHECK(msi2 == NULL || mlx5dv_devx_free_msi_vector(msi2) == 0, "free the second vector");
	CHECK(mlx5dv_devx_free_msi_vector(msi) == 0, "mlx5dv_devx_free_msi_vector");
	page_requests(ctx);

	snap(&s);
	ibv_close_device(ctx);
	check_clean(&s, "ibv_close_device");
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ) == 0, "teardown: no EQ left");
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_UAR) == 0, "teardown: no UAR left");
	/*
	 * rdma-core 44 tears down with TEARDOWN_HCA only: no MANAGE_PAGES TAKE, no DISABLE_HCA
	 * (prm/mlx5 §2.3 has both); the pages stay with the device until vfio-pci resets it.
	 */
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES) == pages,
	      "teardown: the device still holds the %u pages of the bring-up (%u)", pages,
	      mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES));
	CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_DMA_WINDOWS) == 0,
	      "teardown: the container closed, no DMA window left (%u)",
	      mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_DMA_WINDOWS));
	CHECK(mlx5v_sim_msix_enabled(sim, NULL) == 0, "teardown: MSI-X off");

	/* A second open: vfio-pci resets the function, rdma-core brings it up again. */
	ctx = open_ctx(bdf);
	CHECK(ctx != NULL, "second ibv_open_device");
	if (ctx != NULL) {
		sim = mlx5v_sim_get(name);
		CHECK(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES) == pages,
		      "second open: the reset device took %u pages again",
		      mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES));
		snap(&s);
		ibv_close_device(ctx);
		check_clean(&s, "second ibv_close_device");
	}
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
