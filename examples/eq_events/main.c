/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file eq_events: allocate an MSI vector, create a DEVX EQ, arm, wait with epoll, print. */

/*
 * Usage: dpdk-eq_events <EAL args> [-- <mlx5v device name>]   (default mlx5v_sim0)
 *
 * The application builds every device command itself, as with rdma-core's
 * mlx5dv_devx_create_eq(): it fills create_eq_in (log_eq_size, uar_page, intr, event
 * mask), the driver adds the ring. A CQ whose ring and doorbell record live in EAL memory
 * is bound to the EQ, so completions arrive there too. Events are raised with GEN_EQE
 * and, on the simulator, as firmware raises them on its own (GEN_EQE is unverified there,
 * doc/guides/nics/running_on_hardware.rst): the port's cable pulled and plugged back
 * (PORT_CHANGE) and two completions on the CQ, the second after the re-arm.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_epoll.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <rte_pmd_mlx5v.h>

#include "mlx5v_sim.h"

#define EQ_LOG_SIZE 7                 /* 128 EQEs */
#define CQ_LOG_SIZE 6                 /* 64 CQEs, one 4 KiB page */
#define CQ_RING (64u << CQ_LOG_SIZE)
#define WAIT_MS 5000

static struct rte_pmd_mlx5v_dev *dev;
static struct rte_pmd_mlx5v_uar *uar;
static struct rte_pmd_mlx5v_eq *eq;
static uint32_t eqn;
static uint32_t eq_ci;
static unsigned int nb_events;

/* The caller's CQ: 64 CQEs then the 8-byte doorbell record, one DMA mapping. */
static uint8_t *cq_buf;
static uint64_t cq_iova;
static uint32_t cqn;
static uint32_t cq_ci;
static uint32_t cq_sn;

/* ---- events, dispatched by type ---- */

static void
on_completion(const uint8_t *eqe)
{
	uint32_t n = rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_COMP_CQN_OFF, 0, 23, 0);
	unsigned int cqes = 0;

	/* Consume the CQ, tell the device, and ask for the next completion event. */
	while (rte_pmd_mlx5v_cq_next_cqe(cq_buf, 1u << CQ_LOG_SIZE, cq_ci) != NULL) {
		cq_ci++;
		cqes++;
	}
	rte_pmd_mlx5v_cq_update_ci((volatile uint32_t *)(cq_buf + CQ_RING), cq_ci);
	printf("  completion on CQ %u: %u CQE(s), CQ consumer index %u\n", n, cqes, cq_ci);
	rte_pmd_mlx5v_cq_arm(uar, (volatile uint32_t *)(cq_buf + CQ_RING), cqn, ++cq_sn,
			     cq_ci, 0);
}

static void
on_port_change(const uint8_t *eqe)
{
	uint8_t sub = rte_pmd_mlx5v_eqe_sub_type(eqe);

	printf("  port %u changed: %s\n", eqe[RTE_PMD_MLX5V_EQE_PORT_OFF] >> 4,
	       sub == RTE_PMD_MLX5V_PORT_CHANGE_DOWN ? "DOWN" :
	       sub == RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE ? "ACTIVE" : "other");
}

static void
on_cq_error(const uint8_t *eqe)
{
	printf("  CQ %u error, syndrome 0x%x\n",
	       rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_CQ_ERR_CQN_OFF, 0, 23, 0),
	       eqe[RTE_PMD_MLX5V_EQE_CQ_ERR_SYNDROME_OFF]);
}

static void
on_other(const uint8_t *eqe)
{
	printf("  event type 0x%02x sub_type 0x%02x\n", rte_pmd_mlx5v_eqe_type(eqe),
	       rte_pmd_mlx5v_eqe_sub_type(eqe));
}

static void (*const handlers[RTE_PMD_MLX5V_EVENT_MAX])(const uint8_t *eqe) = {
	[RTE_PMD_MLX5V_EVENT_COMP] = on_completion,
	[RTE_PMD_MLX5V_EVENT_PORT_CHANGE] = on_port_change,
	[RTE_PMD_MLX5V_EVENT_CQ_ERROR] = on_cq_error,
};

static void
eqe_cb(const void *eqe, void *arg)
{
	uint8_t type = rte_pmd_mlx5v_eqe_type(eqe);

	RTE_SET_USED(arg);
	nb_events++;
	printf("EQ %u: EQE %u: type 0x%02x\n", eqn, eq_ci, type);
	(handlers[type] != NULL ? handlers[type] : on_other)(eqe);
}

/* rte_epoll_wait() leaves the eventfd alone: the event callback reads it. */
static void
drain_fd(int fd, void *arg)
{
	uint64_t cnt;

	RTE_SET_USED(arg);
	while (read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		;
}

/* Sleep until the vector fires, then consume every EQE and re-arm. @return 0 or -1. */
static int
wait_and_consume(const char *what)
{
	struct rte_epoll_event ev[1];
	int n;

	n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 1, WAIT_MS);
	if (n != 1) {
		printf("no interrupt within %d ms for %s\n", WAIT_MS, what);
		return -1;
	}
	/* Owner check, read barrier, CI every 128 EQEs, arm at the end: all in the helper. */
	rte_pmd_mlx5v_eq_poll(eq->vaddr, 1u << EQ_LOG_SIZE, &eq_ci, uar, eqn, eqe_cb, NULL);
	return 0;
}

/* GEN_EQE (opcode 0x304) through the general command: the device writes the EQE. */
static int
gen_eqe(uint8_t type, uint8_t sub_type, uint8_t port)
{
	uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE] = { 0 };
	uint8_t out[RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE];
	uint8_t *e = in + RTE_PMD_MLX5V_GEN_EQE_IN_EQE;

	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_GEN_EQE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	e[RTE_PMD_MLX5V_EQE_TYPE_OFF] = type;
	e[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF] = sub_type;
	e[RTE_PMD_MLX5V_EQE_PORT_OFF] = port << 4;
	return rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, sizeof(out));
}

static int
cq_create(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_CQ_IN_SIZE + 8] = { 0 };
	uint8_t out[RTE_PMD_MLX5V_CREATE_CQ_OUT_SIZE];
	uint8_t *cqc = in + RTE_PMD_MLX5V_CREATE_CQ_IN_CQC;
	unsigned int i;
	int ret;

	cq_buf = rte_zmalloc("eq_events_cq", CQ_RING + 4096, CQ_RING);
	if (cq_buf == NULL)
		return -ENOMEM;
	/* Every CQE starts invalid and hardware-owned (op_own 0xf1). */
	for (i = 0; i < 1u << CQ_LOG_SIZE; i++)
		cq_buf[i * 64 + RTE_PMD_MLX5V_CQE_OP_OWN_OFF] = RTE_PMD_MLX5V_CQE_OP_OWN_INIT;
	ret = rte_pmd_mlx5v_devx_dma_map(dev, cq_buf, CQ_RING + 4096, &cq_iova);
	if (ret != 0)
		return -ret;
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_CQ);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_LOG_CQ_SIZE, CQ_LOG_SIZE);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_UAR_PAGE, uar->page_id);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_C_EQN, eqn);
	RTE_PMD_MLX5V_SET64(cqc, RTE_PMD_MLX5V_CQC_DBR_ADDR, cq_iova + CQ_RING);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_CQ_IN_PAS, cq_iova);
	ret = rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (ret != 0)
		return -ret;
	cqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_CQ_OUT_CQN);
	rte_pmd_mlx5v_cq_arm(uar, (volatile uint32_t *)(cq_buf + CQ_RING), cqn, cq_sn, 0, 0);
	return 0;
}

static void
cq_destroy(void)
{
	uint8_t in[16] = { 0 };
	uint8_t out[16];

	if (cqn != 0) {
		RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ);
		RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN, cqn);
		rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, sizeof(out));
	}
	if (cq_iova != 0)
		rte_pmd_mlx5v_devx_dma_unmap(dev, cq_buf, CQ_RING + 4096);
	rte_free(cq_buf);
}

/*
 * What only the simulator can do: the firmware's own events (the cable pulled and plugged
 * back) and completions on the CQ (mlx5v_sim.h, not the public API). Returns the failures.
 */
static int
sim_events(struct mlx5v_sim *sim)
{
	int failures = 0;

	printf("-- simulator: cable pulled\n");
	if (mlx5v_sim_link_set(sim, 0) != 0 || wait_and_consume("link down") != 0)
		failures++;
	printf("-- simulator: cable plugged\n");
	if (mlx5v_sim_link_set(sim, 1) != 0 || wait_and_consume("link up") != 0)
		failures++;
	if (cq_create() != 0) {
		fprintf(stderr, "CQ: %s\n", strerror(errno));
		failures++;
	} else {
		printf("-- simulator: a completion on CQ %u (bound to EQ %u)\n", cqn, eqn);
		/*
		 * Doorbells are posted writes: if the CQE lands before the device
		 * sees the arm, the arm itself fires (CQEs beyond ci), so no race.
		 */
		if (mlx5v_sim_post_cqe(sim, cqn, 0x2, 64) != 0 ||
		    wait_and_consume("completion") != 0)
			failures++;
		/* The handler re-armed the CQ with sn + 1: the next CQE raises again. */
		printf("-- simulator: a second completion on CQ %u\n", cqn);
		if (mlx5v_sim_post_cqe(sim, cqn, 0x2, 64) != 0 ||
		    wait_and_consume("second completion") != 0)
			failures++;
	}
	return failures;
}

int
main(int argc, char **argv)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE] = { 0 };
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE] = { 0 };
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;
	struct rte_pmd_mlx5v_msi_vector *msi = NULL;
	struct rte_epoll_event ev;
	struct mlx5v_sim *sim;
	const char *name = "mlx5v_sim0";
	uint8_t mask[32] = { 0 };
	int ret, failures = 0;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (argc - ret > 1)
		name = argv[ret + 1];
	dev = rte_pmd_mlx5v_dev_get(name);
	if (dev == NULL) {
		fprintf(stderr, "%s: %s (try --vdev=mlx5v_sim0,msix=8)\n", name, strerror(errno));
		rte_eal_cleanup();
		return 1;
	}
	sim = mlx5v_sim_get(name);

	/* 1. A UAR for the doorbells and an MSI vector with its eventfd. */
	uar = rte_pmd_mlx5v_devx_alloc_uar(dev);
	msi = uar != NULL ? rte_pmd_mlx5v_devx_alloc_msi_vector(dev) : NULL;
	if (msi == NULL) {
		fprintf(stderr, "UAR/MSI vector: %s\n", strerror(errno));
		goto out;
	}
	printf("%s: UAR page %u, MSI vector %d (eventfd %d)\n", name, uar->page_id, msi->vector,
	       msi->fd);

	/* 2. create_eq_in as on hardware; the driver adds log_page_size and the PAS. */
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, EQ_LOG_SIZE);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, uar->page_id);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, msi->vector);
	rte_pmd_mlx5v_event_mask_set(mask, RTE_PMD_MLX5V_EVENT_PORT_CHANGE);
	rte_pmd_mlx5v_event_mask_set(mask, RTE_PMD_MLX5V_EVENT_CQ_ERROR);
	memcpy(in + RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK, mask, sizeof(mask));
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	if (eq == NULL) {
		fprintf(stderr, "create_eq: %s (status 0x%x syndrome 0x%x)\n", strerror(errno),
			RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
			RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
		goto out;
	}
	eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	printf("%s: EQ %u created, %u entries at %p\n", name, eqn, 1u << EQ_LOG_SIZE, eq->vaddr);

	/* 3. Watch the vector from this lcore's epoll set, then arm the EQ. */
	memset(&ev, 0, sizeof(ev));
	ev.epdata.event = EPOLLIN | EPOLLET;
	ev.epdata.cb_fun = drain_fd;
	if (rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_ADD, msi->fd, &ev) != 0) {
		fprintf(stderr, "rte_epoll_ctl failed\n");
		goto out;
	}
	rte_pmd_mlx5v_eq_arm(uar, eqn, eq_ci);

	/* 4. Raise events one at a time and sleep in rte_epoll_wait() for each. */
	printf("-- GEN_EQE: port 1 down\n");
	if (gen_eqe(RTE_PMD_MLX5V_EVENT_PORT_CHANGE, RTE_PMD_MLX5V_PORT_CHANGE_DOWN, 1) != 0 ||
	    wait_and_consume("GEN_EQE port change") != 0)
		failures++;
	printf("-- GEN_EQE: a general event\n");
	if (gen_eqe(RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, 0) != 0 ||
	    wait_and_consume("GEN_EQE general event") != 0)
		failures++;
	if (sim != NULL)
		failures += sim_events(sim);
	printf("%s: %u event(s) received, %d failure(s)\n", name, nb_events, failures);
	rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_DEL, msi->fd, &ev);

out:
	/* 5. Tear down in reverse: CQ, EQ, vector, UAR. */
	if (cq_buf != NULL)
		cq_destroy();
	if (eq != NULL && rte_pmd_mlx5v_devx_destroy_eq(eq) != 0)
		failures++;
	if (msi != NULL && rte_pmd_mlx5v_devx_free_msi_vector(msi) != 0)
		failures++;
	if (uar != NULL && rte_pmd_mlx5v_devx_free_uar(uar) != 0)
		failures++;
	rte_eal_cleanup();
	return failures == 0 && eq != NULL ? 0 : 1;
}
