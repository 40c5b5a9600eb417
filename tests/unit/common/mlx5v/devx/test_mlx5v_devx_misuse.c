/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the DEVX EQ / MSI-vector API: removal, dead device, stale handles. */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "test.h"

#include "ut_mlx5v_devx.h"

/*
 * A dead device (fatal health event): create answers ENOLINK without touching the
 * hardware; destroy-class commands complete locally, so destroy still frees everything.
 */
static int
test_mlx5v_devx_dead_device(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_dev *dev;
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	uint64_t c0, c1, b0, b1;

	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim2", "msix=4"), "vdev");
	dev = rte_pmd_mlx5v_dev_get("mlx5v_sim2");
	TEST_ASSERT_NOT_NULL(dev, "dev");
	u = rte_pmd_mlx5v_devx_alloc_uar(dev);
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	TEST_ASSERT(u != NULL && m != NULL, "alloc");
	ut_eq_in_build(in, sizeof(in), 4, u->page_id, m->vector, 0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create");
	b0 = ut_heap_bytes(&c0);
	mlx5v_dev_set_dead((struct mlx5v_dev *)dev, MLX5V_DEAD_USER);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out)),
			 "create on a dead device");
	TEST_ASSERT_EQUAL(errno, ENOLINK, "errno %d", errno);
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "failed create leaked EAL memory");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy on a dead device");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	rte_pmd_mlx5v_devx_free_uar(u);
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim2"), "uninit");
	return TEST_SUCCESS;
}

/* Objects left at device removal are destroyed by the driver: nothing leaks. */
static int
test_mlx5v_devx_removal_cleanup(void)
{
	struct rte_pmd_mlx5v_dev *dev;
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	uint64_t c0, c1, b0, b1;

	b0 = ut_heap_bytes(&c0);
	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim1", "msix=4"), "vdev");
	dev = rte_pmd_mlx5v_dev_get("mlx5v_sim1");
	TEST_ASSERT_NOT_NULL(dev, "dev");
	u = rte_pmd_mlx5v_devx_alloc_uar(dev);
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	TEST_ASSERT(u != NULL && m != NULL, "alloc");
	ut_eq_in_build(in, sizeof(in), 4, u->page_id, m->vector, 0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(mlx5v_devx_to_eq(eq)), "intr");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim1"), "uninit");
	/* The context is freed by an alarm after the core's hook walk. */
	ut_sleep_ms(20);
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap %" PRIu64 " -> %" PRIu64, b0, b1);
	TEST_ASSERT_NULL(rte_pmd_mlx5v_dev_get("mlx5v_sim1"), "device still found");
	return TEST_SUCCESS;
}

/* A second destroy/free of any handle is EINVAL (errno too), and touches nothing. */
static int
test_mlx5v_devx_double_destroy(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	unsigned int eqs = ut_live_eqs();
	uint64_t cmds;
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	cmds = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS);
	errno = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), EINVAL, "second destroy_eq");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "the second destroy reached the device");
	TEST_ASSERT_EQUAL(ut_live_eqs(), eqs, "EQ count changed");
	/* The internal API refuses the dead EQ as well. */
	TEST_ASSERT_NULL(mlx5v_devx_to_eq(eq), "to_eq on a destroyed EQ");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_destroy((struct mlx5v_devx_eq *)eq), -EINVAL, "internal");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_poll((struct mlx5v_devx_eq *)eq), -EINVAL, "poll");

	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	errno = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "second free_msi");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_NULL(mlx5v_devx_to_msi(m), "to_msi on a freed vector");

	u = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	TEST_ASSERT_NOT_NULL(u, "alloc_uar");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_uar(u), "free_uar");
	cmds = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS);
	errno = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(u), EINVAL, "second free_uar");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "the second free reached the device");
	TEST_ASSERT_NULL(mlx5v_devx_to_uar(u), "to_uar on a freed UAR");
	/* One kind is not another: a live UAR is not an EQ or a vector. */
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq((struct rte_pmd_mlx5v_eq *)g_uar), EINVAL,
			  "a UAR destroyed as an EQ");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(
				(struct rte_pmd_mlx5v_msi_vector *)g_uar), EINVAL,
			  "a UAR freed as a vector");
	TEST_ASSERT_NOT_NULL(mlx5v_devx_to_uar(g_uar), "the suite UAR was harmed");
	return TEST_SUCCESS;
}

#define STALE_TRIES 50

/* One kind of handle for stale_rounds(). */
struct stale_kind {
	const char *name;
	void *(*create)(void);
	int (*destroy)(void *h);      /**< the public call: 0 or a positive errno */
	int (*live)(void *h);         /**< 1 if the internal lookup finds h */
};

static uint32_t stale_vector;

static void *
stale_eq_create(void)
{
	uint32_t eqn;

	return ut_eq_create(4, stale_vector, 0, &eqn);
}

static int
stale_eq_destroy(void *h)
{
	return rte_pmd_mlx5v_devx_destroy_eq(h);
}

static int
stale_eq_live(void *h)
{
	return mlx5v_devx_to_eq(h) != NULL;
}

static void *
stale_uar_alloc(void)
{
	return rte_pmd_mlx5v_devx_alloc_uar(g_dev);
}

static int
stale_uar_free(void *h)
{
	return rte_pmd_mlx5v_devx_free_uar(h);
}

static int
stale_uar_live(void *h)
{
	return mlx5v_devx_to_uar(h) != NULL;
}

static void *
stale_msi_alloc(void)
{
	return rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
}

static int
stale_msi_free(void *h)
{
	return rte_pmd_mlx5v_devx_free_msi_vector(h);
}

static int
stale_msi_live(void *h)
{
	return mlx5v_devx_to_msi(h) != NULL;
}

/*
 * A stale handle stays EINVAL after a new object of its kind was created: it never names
 * the new object, whatever address the new one gets. Each round destroys A, creates B,
 * then destroys A again.
 */
static int
stale_rounds(const struct stale_kind *k)
{
	void *a, *b;
	int i;

	for (i = 0; i < STALE_TRIES; i++) {
		a = k->create();
		TEST_ASSERT_NOT_NULL(a, "%s A, round %d: %s", k->name, i, strerror(errno));
		TEST_ASSERT_SUCCESS(k->destroy(a), "%s: destroy A, round %d", k->name, i);
		b = k->create();
		TEST_ASSERT_NOT_NULL(b, "%s B, round %d: %s", k->name, i, strerror(errno));
		TEST_ASSERT_EQUAL(k->destroy(a), EINVAL, "stale %s handle accepted, round %d "
				  "(B %s A)", k->name, i, a == b ? "==" : "!=");
		TEST_ASSERT(k->live(b), "%s B destroyed through A, round %d", k->name, i);
		TEST_ASSERT_SUCCESS(k->destroy(b), "%s: destroy B, round %d", k->name, i);
	}
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_stale_eq(void)
{
	static const struct stale_kind k = {
		"EQ", stale_eq_create, stale_eq_destroy, stale_eq_live,
	};
	struct rte_pmd_mlx5v_msi_vector *m;
	int ret;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	stale_vector = m->vector;
	ret = stale_rounds(&k);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return ret;
}

static int
test_mlx5v_devx_stale_uar(void)
{
	static const struct stale_kind k = {
		"UAR", stale_uar_alloc, stale_uar_free, stale_uar_live,
	};

	return stale_rounds(&k);
}

static int
test_mlx5v_devx_stale_msi(void)
{
	static const struct stale_kind k = {
		"MSI vector", stale_msi_alloc, stale_msi_free, stale_msi_live,
	};

	return stale_rounds(&k);
}

/*
 * The public fields are the caller's to scribble on: a free acts on the object's own vector
 * and fd, never on what the fields name. A vector dressed as another is refused.
 */
static int
test_mlx5v_devx_free_msi_foreign_fields(void)
{
	struct rte_pmd_mlx5v_msi_vector *m1, *m2;
	struct rte_pmd_mlx5v_msi_vector saved;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn;

	m1 = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	m2 = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT(m1 != NULL && m2 != NULL, "alloc");
	saved = *m1;
	m1->vector = m2->vector;
	m1->fd = m2->fd;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m1), EINVAL,
			  "a vector freed through another's fields");
	TEST_ASSERT(fcntl(m2->fd, F_GETFD) >= 0, "the other vector's fd was closed");
	eq = ut_eq_create(4, m2->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "the other vector was freed");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m2), "free the other vector");
	*m1 = saved;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m1), "free after the restore");
	return TEST_SUCCESS;
}

/* The same for a UAR: freeing u1 gives back u1's own page whatever page_id says. */
static int
test_mlx5v_devx_free_uar_foreign_fields(void)
{
	struct rte_pmd_mlx5v_uar *u1, *u2;

	u1 = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	u2 = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	TEST_ASSERT(u1 != NULL && u2 != NULL, "alloc_uar");
	TEST_ASSERT(u1->page_id != u2->page_id, "two UARs, one page");
	u1->page_id = u2->page_id;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_uar(u1), "free_uar");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_uar(u2), "the other UAR was freed through u1");
	return TEST_SUCCESS;
}

#define RACE_ITERS 200

struct race_arg {
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t go;            /* atomic: the main lcore set eq */
	int destroy_ret;
	uint32_t bad;           /* poll results other than >= 0 or -EINVAL */
	int mode;               /* 0: destroy the same EQ; 1: poll/arm until EINVAL */
};

static int
race_worker(void *arg)
{
	struct race_arg *ra = arg;
	struct mlx5v_devx_eq *deq;
	int ret;

	while (!__atomic_load_n(&ra->go, __ATOMIC_ACQUIRE))
		rte_pause();
	if (ra->mode == 0) {
		ra->destroy_ret = rte_pmd_mlx5v_devx_destroy_eq(ra->eq);
		return 0;
	}
	deq = (struct mlx5v_devx_eq *)ra->eq;
	for (;;) {
		ret = mlx5v_devx_eq_poll(deq);
		if (ret == -EINVAL)
			break;
		if (ret < 0)
			ra->bad++;
		ret = mlx5v_devx_eq_arm(deq);
		if (ret == -EINVAL)
			break;
		if (ret < 0)
			ra->bad++;
	}
	return 0;
}

/*
 * Two lcores destroy one EQ at once: exactly one wins, the other gets EINVAL. Then one
 * lcore polls and arms an EQ while the other destroys it: every call either works or
 * answers EINVAL; under ASan any read of the freed EQ would abort the test.
 */
static int
test_mlx5v_devx_concurrent_destroy(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct rte_pmd_mlx5v_msi_vector *m;
	unsigned int eqs = ut_live_eqs();
	struct race_arg ra;
	uint32_t eqn;
	int i, mine, mode;

	if (worker >= RTE_MAX_LCORE) {
		printf("needs a second lcore (-l 0-1)\n");
		return TEST_SKIPPED;
	}
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	for (mode = 0; mode < 2; mode++) {
		for (i = 0; i < RACE_ITERS; i++) {
			memset(&ra, 0, sizeof(ra));
			ra.mode = mode;
			ra.destroy_ret = -1;
			ra.eq = ut_eq_create(2, m->vector, 0, &eqn);
			TEST_ASSERT_NOT_NULL(ra.eq, "create %d", i);
			TEST_ASSERT_SUCCESS(rte_eal_remote_launch(race_worker, &ra, worker),
					    "launch");
			__atomic_store_n(&ra.go, 1, __ATOMIC_RELEASE);
			mine = rte_pmd_mlx5v_devx_destroy_eq(ra.eq);
			rte_eal_wait_lcore(worker);
			if (mode == 0)
				TEST_ASSERT((mine == 0 && ra.destroy_ret == EINVAL) ||
					    (mine == EINVAL && ra.destroy_ret == 0),
					    "iteration %d: destroys returned %d and %d", i, mine,
					    ra.destroy_ret);
			else
				TEST_ASSERT(mine == 0 && ra.bad == 0,
					    "iteration %d: destroy %d, %u bad poll/arm results", i,
					    mine, ra.bad);
		}
	}
	TEST_ASSERT_EQUAL(ut_live_eqs(), eqs, "EQs leaked in hardware");
	ut_drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/*
 * The device is removed with objects still allocated: the removal releases them, and
 * every later call with the old handles fails cleanly (objects EINVAL, the device
 * handle ENODEV) without reading freed memory. A new device then works end to end.
 */
static int
test_mlx5v_devx_handles_after_removal(void)
{
	struct rte_pmd_mlx5v_dev *dev;
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	struct mlx5v_devx_eq *deq;
	struct mlx5v_devx_eq_stats st;
	struct mlx5v_devx_eq *list[4];
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	uint8_t qin[RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE];
	uint8_t qout[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8];
	uint64_t c0, c1, b0, b1, iova;
	uint32_t eqn, qeqn;
	uint8_t *buf;

	buf = rte_zmalloc("devx_removal", 4096, 4096);
	TEST_ASSERT_NOT_NULL(buf, "buffer");
	b0 = ut_heap_bytes(&c0);
	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim3", "msix=4"), "vdev");
	dev = rte_pmd_mlx5v_dev_get("mlx5v_sim3");
	TEST_ASSERT_NOT_NULL(dev, "dev");
	u = rte_pmd_mlx5v_devx_alloc_uar(dev);
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	TEST_ASSERT(u != NULL && m != NULL, "alloc");
	ut_eq_in_build(in, sizeof(in), 4, u->page_id, m->vector, 0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create");
	eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	deq = mlx5v_devx_to_eq(eq);
	TEST_ASSERT_NOT_NULL(deq, "to_eq");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(deq), "intr");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_map(dev, buf, 4096, &iova), "dma_map");

	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim3"), "uninit");

	/* Object handles: EINVAL, errno too. */
	errno = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), EINVAL, "destroy_eq");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "free_msi_vector");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(u), EINVAL, "free_uar");
	TEST_ASSERT_NULL(mlx5v_devx_to_eq(eq), "to_eq");
	TEST_ASSERT_NULL(mlx5v_devx_to_msi(m), "to_msi");
	TEST_ASSERT_NULL(mlx5v_devx_to_uar(u), "to_uar");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_poll(deq), -EINVAL, "eq_poll");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_arm(deq), -EINVAL, "eq_arm");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_pending(deq), 0, "eq_pending");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_stats_get(deq, &st), -EINVAL, "eq_stats_get");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_handler_set(deq, 0, NULL, NULL), -EINVAL, "handler");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_intr_start(deq), -EINVAL, "intr_start");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_intr_stop(deq), -EINVAL, "intr_stop");

	/* The device handle: ENODEV, errno too; nothing reaches the freed device. */
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_alloc_msi_vector(dev), "alloc_msi_vector");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "rte_errno %d", rte_errno);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_alloc_uar(dev), "alloc_uar");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out)),
			 "create_eq");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_query_eqn(dev, 0, &qeqn), ENODEV, "query_eqn");
	memset(qin, 0, sizeof(qin));
	RTE_PMD_MLX5V_SET(qin, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_EQ);
	RTE_PMD_MLX5V_SET(qin, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(dev, qin, sizeof(qin), qout,
							 sizeof(qout)), ENODEV, "general_cmd");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_map(dev, buf, 4096, &iova), ENODEV, "dma_map");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_unmap(dev, buf, 4096), ENODEV, "dma_unmap");
	TEST_ASSERT_NULL(mlx5v_devx_eq_find((struct mlx5v_dev *)dev, eqn), "eq_find");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_list((struct mlx5v_dev *)dev, list, RTE_DIM(list)),
			  -ENODEV, "eq_list");
	TEST_ASSERT_NULL(mlx5v_devx_cq_create((struct mlx5v_dev *)dev, 4, eqn, g_uar),
			 "cq_create");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "rte_errno %d", rte_errno);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_dev_get("mlx5v_sim3"), "device still found");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	/* Everything the application left was released, in the device and in EAL memory. */
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap %" PRIu64 " -> %" PRIu64, b0, b1);

	/* A new device under the same name: a full cycle with new handles. */
	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim3", "msix=4"), "vdev again");
	dev = rte_pmd_mlx5v_dev_get("mlx5v_sim3");
	TEST_ASSERT_NOT_NULL(dev, "dev again");
	u = rte_pmd_mlx5v_devx_alloc_uar(dev);
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	TEST_ASSERT(u != NULL && m != NULL, "alloc again");
	TEST_ASSERT_EQUAL(m->vector, 1, "vector %d: the old one was not released", m->vector);
	ut_eq_in_build(in, sizeof(in), 4, u->page_id, m->vector, 0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create again");
	eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	RTE_PMD_MLX5V_SET(qin, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_general_cmd(dev, qin, sizeof(qin), qout,
							   sizeof(qout)), "QUERY_EQ");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_query_eqn(dev, 0, &qeqn), "query_eqn");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_map(dev, buf, 4096, &iova), "dma_map");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_unmap(dev, buf, 4096), "dma_unmap");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free_msi");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_uar(u), "free_uar");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim3"), "uninit again");
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap %" PRIu64 " -> %" PRIu64, b0, b1);
	rte_free(buf);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_devx_misuse_suite = {
	.suite_name = "mlx5v DEVX API: misuse",
	.setup = ut_devx_setup,
	.teardown = ut_devx_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_devx_removal_cleanup),
		TEST_CASE(test_mlx5v_devx_dead_device),
		TEST_CASE(test_mlx5v_devx_double_destroy),
		TEST_CASE(test_mlx5v_devx_stale_eq),
		TEST_CASE(test_mlx5v_devx_stale_uar),
		TEST_CASE(test_mlx5v_devx_stale_msi),
		TEST_CASE(test_mlx5v_devx_free_msi_foreign_fields),
		TEST_CASE(test_mlx5v_devx_free_uar_foreign_fields),
		TEST_CASE(test_mlx5v_devx_concurrent_destroy),
		TEST_CASE(test_mlx5v_devx_handles_after_removal),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_devx_misuse(void)
{
	return unit_test_suite_runner(&mlx5v_devx_misuse_suite);
}

REGISTER_TEST_COMMAND(mlx5v_devx_misuse_autotest, test_mlx5v_devx_misuse);
