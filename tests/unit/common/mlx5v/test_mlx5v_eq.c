/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of mlx5v_eq: EQ lifecycle, owner bit, CI budget, dispatch. */

#include <pthread.h>
#include <unistd.h>

#include "test.h"

#include "ut_mlx5v.h"

#define VDEV_NAME "mlx5v_sim0"
#define UT_EVENT RTE_PMD_MLX5V_EVENT_GENERAL_EVENT

static struct mlx5v_dev *g_dev;
static struct mlx5v_sim *g_sim;

struct counter {
	int n;
	uint8_t last_sub;
};

static int
count_cb(struct mlx5v_dev *dev, uint8_t type, const uint8_t *eqe, void *arg)
{
	struct counter *c = arg;

	RTE_SET_USED(dev);
	RTE_SET_USED(type);
	c->n++;
	c->last_sub = MLX5V_IFC_GET(eqe, eqe, sub_type);
	return 0;
}

static int
eq_setup(void)
{
	return ut_main_up(VDEV_NAME, "msix=4,cmd_to_ms=2000", &g_dev, &g_sim) == 0 ?
	       TEST_SUCCESS : TEST_FAILED;
}

static void
eq_teardown(void)
{
	ut_dev_remove(VDEV_NAME);
}

/* Wait (bounded) until the vector's eventfd is readable, then drain it. @return 1 if it was. */
static int
wait_fd(int fd)
{
	uint64_t cnt;

	if (!ut_fd_wait(fd))
		return 0;
	return read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt);
}

/*
 * UAR doorbells are posted writes: the device may see them after later commands or
 * events. Wait (bounded) until QUERY_EQ reports the consumer counter we wrote.
 */
static int
wait_eq_ci(struct mlx5v_eq *eq, uint32_t ci)
{
	uint8_t in[MLX5V_IFC_BYTES(query_eq_in)];
	uint8_t out[MLX5V_IFC_BYTES(query_eq_out) + 8];
	uint64_t deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(query_eq_in, in, opcode, MLX5V_CMD_OP_QUERY_EQ);
	MLX5V_IFC_SET(query_eq_in, in, eq_number, mlx5v_eq_eqn(eq));
	do {
		if (mlx5v_cmd_exec(g_dev, in, sizeof(in), out, sizeof(out)) == 0 &&
		    MLX5V_IFC_GET(eqc, MLX5V_IFC_ADDR_OF(query_eq_out, out, eqc),
				  consumer_counter) == (ci & 0xffffff))
			return 0;
		ut_sleep_ms(1);
	} while (ut_now_ms() < deadline);
	return -1;
}

static struct mlx5v_eq *
user_eq(unsigned int log_size, int *vec, int *fd)
{
	struct mlx5v_eq_attr attr;

	*vec = mlx5v_msi_alloc(g_dev, fd);
	if (*vec < 1)
		return NULL;
	memset(&attr, 0, sizeof(attr));
	attr.log_size = log_size;
	attr.vector = *vec;
	attr.mask[UT_EVENT / 64] = UINT64_C(1) << (UT_EVENT % 64);
	return mlx5v_eq_create(g_dev, &attr);
}

static int
test_mlx5v_eq_create_destroy(void)
{
	unsigned int live = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_EQ);
	struct ut_heap before, after;
	struct mlx5v_eq *eq;
	int vec, fd;

	ut_heap_get(&before);
	eq = user_eq(6, &vec, &fd);
	TEST_ASSERT_NOT_NULL(eq, "create: %s", rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(vec, 1, "the first user vector must be 1");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_EQ), live + 1, "live");
	TEST_ASSERT(mlx5v_eq_eqn(eq) != mlx5v_eq_eqn(mlx5v_eq_async(g_dev)), "EQN reused");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_RING_SW_OWNED), 0u,
			  "EQ created with software-owned entries");
	TEST_ASSERT_EQUAL(mlx5v_msi_free(g_dev, vec, fd), -EBUSY, "vector freed under an EQ");
	TEST_ASSERT_SUCCESS(mlx5v_eq_destroy(eq), "destroy");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_EQ), live, "live");
	TEST_ASSERT_SUCCESS(mlx5v_msi_free(g_dev, vec, fd), "msi free");
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EQ buffer leaked");
	return TEST_SUCCESS;
}

/* A failed DESTROY_EQ leaves the EQ alive and usable; destroying again works. */
static int
test_mlx5v_eq_destroy_fails(void)
{
	struct mlx5v_eq *eq;
	int vec, fd;

	eq = user_eq(6, &vec, &fd);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, MLX5V_CMD_OP_DESTROY_EQ,
						    MLX5V_CMD_STAT_BAD_RES_STATE_ERR, 1), "arm");
	TEST_ASSERT_EQUAL(mlx5v_eq_destroy(eq), -EINVAL, "translated errno expected");
	TEST_ASSERT_SUCCESS(mlx5v_eq_destroy(eq), "second destroy");
	TEST_ASSERT_SUCCESS(mlx5v_msi_free(g_dev, vec, fd), "msi free");
	return TEST_SUCCESS;
}

/*
 * A failed DESTROY_EQ of the async EQ at unload: the EQ lives on in the device, which keeps
 * writing its ring until DISABLE_HCA. The ring must stay allocated and mapped until then,
 * and be freed after it (the model counts every write into a freed ring).
 */
static int
test_mlx5v_eq_ring_quarantined_after_failed_destroy(void)
{
	struct ut_dev u;
	uint64_t bad;

	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_eq_quarantine", 4, 0, NULL), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(u.sim, MLX5V_CMD_OP_DESTROY_EQ,
						    MLX5V_CMD_STAT_BAD_RES_STATE_ERR, 1), "arm");
	mlx5v_dev_unload(u.dev);
	bad = mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_FREED_RING_WRITES);
	TEST_ASSERT_EQUAL(u.dev->nb_quarantined, 0u, "quarantine not released at unload");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(u.sim, MLX5V_SIM_OBJ_EQ), 0u,
			  "EQ still alive after DISABLE_HCA");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(u.sim, MLX5V_SIM_OBJ_DMA_WINDOWS), 0u,
			  "ring still mapped after unload");
	ut_dev_destroy(&u);
	TEST_ASSERT_EQUAL(bad, 0u, "the device wrote %" PRIu64 " times into a freed ring", bad);
	return TEST_SUCCESS;
}

static int
test_mlx5v_eq_create_bad_attr(void)
{
	struct mlx5v_eq_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.log_size = 6;
	attr.vector = 2;   /* not allocated */
	TEST_ASSERT_NULL(mlx5v_eq_create(g_dev, &attr), "EQ on an unallocated vector");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	attr.vector = 99;
	TEST_ASSERT_NULL(mlx5v_eq_create(g_dev, &attr), "EQ on a vector out of range");
	attr.vector = 0;
	attr.log_size = 30;
	TEST_ASSERT_NULL(mlx5v_eq_create(g_dev, &attr), "EQ above log_max_eq_sz");
	return TEST_SUCCESS;
}

/*
 * 256 entries; 200 events, then 200 more: the second batch wraps the ring, so the owner
 * parity flips. The CI goes to the device without arming after each 128 consumed.
 */
static int
test_mlx5v_eq_ci_budget_128_owner_wrap(void)
{
	struct mlx5v_eq_stats st;
	struct counter c = { 0, 0 };
	struct mlx5v_eq *eq;
	int vec, fd, i, n;

	eq = user_eq(8, &vec, &fd);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(mlx5v_eq_subscribe(g_dev, UT_EVENT, count_cb, &c), "subscribe");
	for (i = 0; i < 200; i++)
		TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, UT_EVENT, i & 0xff, NULL), 1,
				  "inject %d", i);
	TEST_ASSERT(wait_fd(fd), "no MSI-X on vector %d", vec);
	n = mlx5v_eq_poll(eq);
	TEST_ASSERT_EQUAL(n, 200, "first pass consumed %d", n);
	mlx5v_eq_stats_get(eq, &st);
	TEST_ASSERT_EQUAL(st.ci_updates, 1u, "expected one no-arm CI update at 128");
	TEST_ASSERT_SUCCESS(wait_eq_ci(eq, 200), "the device never saw CI 200");
	for (i = 0; i < 200; i++)
		TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, UT_EVENT, 7, NULL), 1, "inject");
	TEST_ASSERT(wait_fd(fd), "no MSI-X after re-arm");
	n = mlx5v_eq_poll(eq);
	TEST_ASSERT_EQUAL(n, 200, "second pass (wrapping) consumed %d", n);
	TEST_ASSERT_EQUAL(c.n, 400, "callback saw %d events", c.n);
	TEST_ASSERT_EQUAL(c.last_sub, 7, "EQE body read wrong");
	mlx5v_eq_stats_get(eq, &st);
	TEST_ASSERT_EQUAL(st.ci_updates, 2u, "CI updates %" PRIu64, st.ci_updates);
	TEST_ASSERT_EQUAL(mlx5v_eq_poll(eq), 0, "an empty EQ returned entries");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_EQ_OVERRUNS), 0u, "overrun");
	TEST_ASSERT_SUCCESS(wait_eq_ci(eq, 400), "the device never saw CI 400");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_DB_MISUSE), 0u, "doorbells");
	TEST_ASSERT_SUCCESS(mlx5v_eq_unsubscribe(g_dev, UT_EVENT, count_cb, &c), "unsubscribe");
	TEST_ASSERT_SUCCESS(mlx5v_eq_destroy(eq), "destroy");
	TEST_ASSERT_SUCCESS(mlx5v_msi_free(g_dev, vec, fd), "msi free");
	return TEST_SUCCESS;
}

/* Arming with unconsumed entries raises the vector at once (no lost wake-up, prm/mlx5 §6.11). */
static int
test_mlx5v_eq_arm_with_pending_fires(void)
{
	struct counter c = { 0, 0 };
	struct mlx5v_eq *eq;
	int vec, fd;

	eq = user_eq(6, &vec, &fd);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(mlx5v_eq_subscribe(g_dev, UT_EVENT, count_cb, &c), "subscribe");
	TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, UT_EVENT, 1, NULL), 1, "inject");
	TEST_ASSERT(wait_fd(fd), "no MSI-X for the first event");
	/* Fired and not consumed: a second event raises nothing; an arm must. */
	TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, UT_EVENT, 2, NULL), 1, "inject");
	mlx5v_eq_arm(eq);
	TEST_ASSERT(wait_fd(fd), "arm with pending entries did not raise the vector");
	TEST_ASSERT_EQUAL(mlx5v_eq_poll(eq), 2, "entries");
	TEST_ASSERT_SUCCESS(mlx5v_eq_unsubscribe(g_dev, UT_EVENT, count_cb, &c), "unsubscribe");
	TEST_ASSERT_SUCCESS(mlx5v_eq_destroy(eq), "destroy");
	TEST_ASSERT_SUCCESS(mlx5v_msi_free(g_dev, vec, fd), "msi free");
	return TEST_SUCCESS;
}

/* The subscriber table: several per type, duplicates refused, a full row refused. */
static int
test_mlx5v_eq_dispatch_table(void)
{
	struct counter c[MLX5V_EQ_SUBS_PER_TYPE + 1];
	struct mlx5v_eq_stats st;
	struct mlx5v_eq *eq;
	int vec, fd, i;

	memset(c, 0, sizeof(c));
	eq = user_eq(6, &vec, &fd);
	TEST_ASSERT_NOT_NULL(eq, "create");
	for (i = 0; i < MLX5V_EQ_SUBS_PER_TYPE; i++)
		TEST_ASSERT_SUCCESS(mlx5v_eq_subscribe(g_dev, UT_EVENT, count_cb, &c[i]), "sub");
	TEST_ASSERT_EQUAL(mlx5v_eq_subscribe(g_dev, UT_EVENT, count_cb, &c[0]), -EEXIST, "dup");
	TEST_ASSERT_EQUAL(mlx5v_eq_subscribe(g_dev, UT_EVENT, count_cb, &c[i]), -ENOSPC, "full");
	TEST_ASSERT_EQUAL(mlx5v_eq_subscribe(g_dev, 256, count_cb, &c[0]), -EINVAL, "type");
	TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, UT_EVENT, 0, NULL), 1, "inject");
	TEST_ASSERT(wait_fd(fd), "no MSI-X");
	TEST_ASSERT_EQUAL(mlx5v_eq_poll(eq), 1, "entries");
	for (i = 0; i < MLX5V_EQ_SUBS_PER_TYPE; i++)
		TEST_ASSERT_EQUAL(c[i].n, 1, "subscriber %d called %d times", i, c[i].n);
	for (i = 0; i < MLX5V_EQ_SUBS_PER_TYPE; i++)
		TEST_ASSERT_SUCCESS(mlx5v_eq_unsubscribe(g_dev, UT_EVENT, count_cb, &c[i]),
				    "unsub");
	TEST_ASSERT_EQUAL(mlx5v_eq_unsubscribe(g_dev, UT_EVENT, count_cb, &c[0]), -ENOENT, "gone");
	TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, UT_EVENT, 0, NULL), 1, "inject");
	TEST_ASSERT(wait_fd(fd), "no MSI-X");
	TEST_ASSERT_EQUAL(mlx5v_eq_poll(eq), 1, "entries");
	TEST_ASSERT_EQUAL(c[0].n, 1, "an unsubscribed callback ran");
	mlx5v_eq_stats_get(eq, &st);
	TEST_ASSERT_EQUAL(st.unhandled, 1u, "unhandled event not counted");
	TEST_ASSERT_SUCCESS(mlx5v_eq_destroy(eq), "destroy");
	TEST_ASSERT_SUCCESS(mlx5v_msi_free(g_dev, vec, fd), "msi free");
	return TEST_SUCCESS;
}

/*
 * EQN 0 (first_num=0): the async EQ gets EQN 0, so its first arm doorbell (EQN 0, CI 0) is
 * the word 0, which the device must see; events then reach the driver through it, and a
 * user EQ and a second round work as with EQN 1 (doc/guides/nics/running_on_hardware.rst).
 */
static int
test_mlx5v_eq_number_zero(void)
{
	struct counter c = { 0, 0 };
	struct mlx5v_dev *dev;
	struct mlx5v_sim *sim;
	int i;

	TEST_ASSERT_SUCCESS(ut_vdev_up("mlx5v_sim2", "msix=4,cmd_to_ms=2000,first_num=0", &dev,
				       &sim), "probe with EQN/CQN from 0");
	TEST_ASSERT_EQUAL(mlx5v_eq_eqn(mlx5v_eq_async(dev)), 0u, "the async EQ is not EQN 0");
	TEST_ASSERT_SUCCESS(mlx5v_eq_subscribe(dev, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, count_cb, &c),
			    "subscribe");
	for (i = 1; i <= 3; i++) {
		TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(sim, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, 1,
							 NULL), 1, "inject %d", i);
		TEST_ASSERT_SUCCESS(UT_WAIT_FOR(__atomic_load_n(&c.n, __ATOMIC_ACQUIRE) == i),
				    "event %d not delivered through EQ 0 (%d seen)", i, c.n);
	}
	TEST_ASSERT_SUCCESS(mlx5v_eq_unsubscribe(dev, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, count_cb,
						 &c), "unsubscribe");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_DB_MISUSE), 0u, "doorbell misuse");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim2"), "uninit");
	return TEST_SUCCESS;
}

/* How long the removal may take to destroy the async EQ under a held poll: a bound. */
#define HOLD_MS 2000

/* 1 while block_cb() holds the thread polling the async EQ; set once it is in. */
static int g_block;
static int g_in_cb;

/* A PORT_CHANGE subscriber that keeps the async EQ's poll (EQ loaded) until let go. */
static int
block_cb(struct mlx5v_dev *dev, uint8_t type, const uint8_t *eqe, void *arg)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(type);
	RTE_SET_USED(eqe);
	RTE_SET_USED(arg);
	__atomic_store_n(&g_in_cb, 1, __ATOMIC_RELEASE);
	UT_WAIT_FOR(__atomic_load_n(&g_block, __ATOMIC_ACQUIRE) == 0);
	return 0;
}

static void *
remove_thread(void *arg)
{
	*(int *)arg = ut_dev_remove(VDEV_NAME);
	return NULL;
}

/*
 * Removal while the EAL interrupt thread polls the async EQ: the teardown must not destroy
 * the EQ under that poll, which re-arms it when done (an arm of an EQ the device no longer
 * has). The poll is held in a PORT_CHANGE subscriber until the device is seen without the
 * async EQ or the teardown waits for it. The model is read after the removal: on a PCI
 * function it stays until the next open (doc/guides/platform/vfio_emulation.rst); a vdev
 * takes its model with it. The last case: the suite's device is gone after it.
 */
static int
test_mlx5v_eq_async_destroy_after_poll(void)
{
	struct mlx5v_sim *sim = g_sim;
	unsigned int live, ms;
	pthread_t th;
	int ret = -1;

	if (!ut_dev_pci()) {
		printf("skipped on a vdev: the check reads the model after the removal\n");
		return TEST_SKIPPED;
	}
	live = mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ);
	TEST_ASSERT_SUCCESS(mlx5v_eq_subscribe(g_dev, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, block_cb,
					       NULL), "subscribe");
	__atomic_store_n(&g_block, 1, __ATOMIC_RELEASE);
	TEST_ASSERT(mlx5v_sim_inject_event(sim, RTE_PMD_MLX5V_EVENT_PORT_CHANGE,
					   RTE_PMD_MLX5V_PORT_CHANGE_DOWN, NULL) >= 1, "inject");
	if (UT_WAIT_FOR(__atomic_load_n(&g_in_cb, __ATOMIC_ACQUIRE)) != 0) {
		__atomic_store_n(&g_block, 0, __ATOMIC_RELEASE);
		TEST_ASSERT(0, "the async EQ's poll did not come");
	}
	if (pthread_create(&th, NULL, remove_thread, &ret) != 0) {
		__atomic_store_n(&g_block, 0, __ATOMIC_RELEASE);
		TEST_ASSERT(0, "thread");
	}
	/*
	 * Either the async EQ goes (DESTROY_EQ under the poll, a polled command: milliseconds)
	 * or the teardown waits for the poll; let the poll go after that bound either way.
	 */
	for (ms = 0; ms < HOLD_MS && mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ) >= live; ms++)
		ut_sleep_ms(1);
	__atomic_store_n(&g_block, 0, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	g_dev = NULL;
	TEST_ASSERT_SUCCESS(ret, "remove");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_DB_MISUSE), 0u,
			  "the async EQ was armed after its DESTROY_EQ");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ), 0u, "EQs left");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_eq_suite = {
	.suite_name = "mlx5v_eq",
	.setup = eq_setup,
	.teardown = eq_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_eq_create_destroy),
		TEST_CASE(test_mlx5v_eq_destroy_fails),
		TEST_CASE(test_mlx5v_eq_ring_quarantined_after_failed_destroy),
		TEST_CASE(test_mlx5v_eq_create_bad_attr),
		TEST_CASE(test_mlx5v_eq_ci_budget_128_owner_wrap),
		TEST_CASE(test_mlx5v_eq_arm_with_pending_fires),
		TEST_CASE(test_mlx5v_eq_dispatch_table),
		TEST_CASE(test_mlx5v_eq_number_zero),
		TEST_CASE(test_mlx5v_eq_async_destroy_after_poll),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_eq(void)
{
	return unit_test_suite_runner(&mlx5v_eq_suite);
}

REGISTER_TEST_COMMAND(mlx5v_eq_autotest, test_mlx5v_eq);
