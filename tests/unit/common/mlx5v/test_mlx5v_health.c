/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of mlx5v_health: sensors, heartbeat, dead mode, commands of a dead device. */

#include <pthread.h>

#include "test.h"

#include "ut_mlx5v.h"

static struct ut_dev g_u;
static struct ut_heap g_heap;
static int g_dead_events;
static int g_leaks;

static void
health_hook_event(struct mlx5v_dev *dev, enum mlx5v_dev_event ev, void *arg)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(arg);
	if (ev == MLX5V_DEV_EVENT_DEAD)
		__atomic_fetch_add(&g_dead_events, 1, __ATOMIC_RELAXED);
}

static struct mlx5v_dev_hook g_hook = { .event = health_hook_event };

/*
 * A fresh loaded device per test; the health alarm stays off unless a test starts it.
 * strict: a stuck heartbeat is fatal (health_strict=1), the policy the heartbeat death
 * tests need; otherwise the default, where it is only reported.
 */
static int
health_setup_policy(int strict)
{
	struct mlx5v_dev_params dp;

	ut_heap_get(&g_heap);
	ut_dev_params(&dp);
	dp.health_strict = strict;
	if (ut_dev_create(&g_u, "ut_health", 4, 0, &dp) != 0)
		return TEST_FAILED;
	/* Let the heartbeat move fast, so a stuck counter is told from a slow one quickly. */
	if (mlx5v_sim_knob_set(g_u.sim, "health_period_ms", 2) != 0)
		return TEST_FAILED;
	/* The model applies a new period after the current one (100 ms by default) ends. */
	ut_sleep_ms(110);
	if (mlx5v_dev_load(g_u.dev) != 0)
		return TEST_FAILED;
	g_dead_events = 0;
	return mlx5v_dev_hook_register(g_u.dev, &g_hook) == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
health_setup(void)
{
	return health_setup_policy(1);
}

static int
health_setup_default(void)
{
	return health_setup_policy(0);
}

static void
health_teardown(void)
{
	struct ut_heap after;

	mlx5v_dev_hook_unregister(g_u.dev, &g_hook);
	/* Teardown of a dead device must complete; the model is then destroyed whole. */
	mlx5v_dev_unload(g_u.dev);
	ut_dev_destroy(&g_u);
	ut_heap_get(&after);
	if (!ut_heap_same(&g_heap, &after))
		g_leaks++;
}

static int
expect_dead(int reason)
{
	uint64_t deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;

	/* The alarm thread marks the device dead first, then notifies consumers. */
	while (__atomic_load_n(&g_dead_events, __ATOMIC_RELAXED) == 0 && ut_now_ms() < deadline)
		ut_sleep_ms(1);
	TEST_ASSERT_EQUAL(mlx5v_dev_is_dead(g_u.dev), reason, "dead reason %d, expected %d",
			  mlx5v_dev_is_dead(g_u.dev), reason);
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_dead_events, __ATOMIC_RELAXED), 1,
			  "consumers got %d DEAD events", g_dead_events);
	return TEST_SUCCESS;
}

static int
test_mlx5v_health_healthy(void)
{
	int i;

	for (i = 0; i < 5; i++) {
		ut_sleep_ms(10);
		TEST_ASSERT_SUCCESS(mlx5v_health_check(g_u.dev), "healthy device reported sick");
	}
	TEST_ASSERT_EQUAL(mlx5v_dev_is_dead(g_u.dev), 0, "dead");
	return TEST_SUCCESS;
}

/* Heartbeat stuck: dead after 3 misses, not before 3 polls of a frozen counter. */
static int
test_mlx5v_health_frozen_counter(void)
{
	int i;

	TEST_ASSERT_SUCCESS(mlx5v_health_check(g_u.dev), "first check");
	ut_sleep_ms(10);
	TEST_ASSERT_SUCCESS(mlx5v_health_check(g_u.dev), "second check");
	TEST_ASSERT_EQUAL(g_u.dev->health.miss, 0u, "a moving counter counted as a miss");
	mlx5v_sim_health_freeze(g_u.sim, 1);
	ut_sleep_ms(10);
	/* The first check after the freeze may still see a last increment. */
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_SUCCESS(mlx5v_health_check(g_u.dev), "dead after %d checks", i + 1);
		ut_sleep_ms(10);
	}
	for (i = 0; i < 2 && mlx5v_dev_is_dead(g_u.dev) == 0; i++) {
		mlx5v_health_check(g_u.dev);
		ut_sleep_ms(10);
	}
	mlx5v_sim_health_freeze(g_u.sim, 0);
	return expect_dead(MLX5V_DEAD_HEARTBEAT);
}

/*
 * The default policy (Linux's): a stuck heartbeat is reported once per stall and never
 * fatal; the device stays usable and the miss count restarts when the counter moves.
 */
static int
test_mlx5v_health_stall_reported(void)
{
	int i;

	TEST_ASSERT_EQUAL(g_u.dev->health_strict, 0, "strict by default");
	TEST_ASSERT_SUCCESS(mlx5v_health_check(g_u.dev), "first check");
	mlx5v_sim_health_freeze(g_u.sim, 1);
	ut_sleep_ms(10);
	for (i = 0; i < 8; i++) {
		TEST_ASSERT_SUCCESS(mlx5v_health_check(g_u.dev), "a stall killed the device");
		ut_sleep_ms(5);
	}
	TEST_ASSERT_EQUAL(mlx5v_dev_is_dead(g_u.dev), 0, "dead");
	TEST_ASSERT_EQUAL(g_u.dev->health.stalls, 1u, "stall reported %" PRIu64 " times",
			  g_u.dev->health.stalls);
	mlx5v_sim_health_freeze(g_u.sim, 0);
	/*
	 * The counter moves on the simulator's engine thread, which a loaded machine may keep
	 * waiting: check until a check sees it move (each check before that is one more miss).
	 */
	TEST_ASSERT_SUCCESS(UT_WAIT_FOR(mlx5v_health_check(g_u.dev) == 0 &&
					g_u.dev->health.miss == 0),
			    "misses kept after the counter moved (%u)", g_u.dev->health.miss);
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_dead_events, __ATOMIC_RELAXED), 0, "DEAD event");
	/* The fatal sensors still kill it. */
	mlx5v_sim_health_fatal(g_u.sim, MLX5V_HEALTH_SYND_HW_FTL_ERR);
	TEST_ASSERT_EQUAL(mlx5v_health_check(g_u.dev), -ENOLINK, "fatal syndrome missed");
	return expect_dead(MLX5V_DEAD_FW_SYND_RFR);
}

/* The same through the EAL alarm: nobody calls the check by hand. */
static int
test_mlx5v_health_alarm_poll(void)
{
	uint64_t deadline;

	mlx5v_health_stop(g_u.dev);
	mlx5v_dev_tout_set(g_u.dev, MLX5V_TO_HEALTH_POLL, 10);
	mlx5v_health_start(g_u.dev);
	ut_sleep_ms(50);
	TEST_ASSERT_EQUAL(mlx5v_dev_is_dead(g_u.dev), 0, "alarm killed a healthy device");
	mlx5v_sim_health_freeze(g_u.sim, 1);
	deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;
	while (mlx5v_dev_is_dead(g_u.dev) == 0 && ut_now_ms() < deadline)
		ut_sleep_ms(5);
	mlx5v_sim_health_freeze(g_u.sim, 0);
	return expect_dead(MLX5V_DEAD_HEARTBEAT);
}

static int
test_mlx5v_health_fatal_syndrome(void)
{
	mlx5v_sim_health_fatal(g_u.sim, MLX5V_HEALTH_SYND_HW_FTL_ERR);
	TEST_ASSERT_EQUAL(mlx5v_health_check(g_u.dev), -ENOLINK, "fatal syndrome missed");
	TEST_ASSERT(strcmp(mlx5v_health_synd_str(MLX5V_HEALTH_SYND_HW_FTL_ERR),
			   "HW fatal error") == 0, "syndrome text");
	return expect_dead(MLX5V_DEAD_FW_SYND_RFR);
}

static int
test_mlx5v_health_nic_interface_disabled(void)
{
	mlx5v_sim_nic_interface_set(g_u.sim, MLX5V_NIC_IF_DISABLED);
	TEST_ASSERT_EQUAL(mlx5v_health_check(g_u.dev), -ENOLINK, "nic_interface 1 missed");
	return expect_dead(MLX5V_DEAD_NIC_DISABLED);
}

static int
test_mlx5v_health_nic_interface_sw_reset(void)
{
	mlx5v_sim_nic_interface_set(g_u.sim, MLX5V_NIC_IF_SW_RESET);
	TEST_ASSERT_EQUAL(mlx5v_health_check(g_u.dev), -ENOLINK, "nic_interface 7 missed");
	return expect_dead(MLX5V_DEAD_NIC_SW_RESET);
}

/* All-ones reads: the PCI link is gone; the first sensor in PRM order wins. */
static int
test_mlx5v_health_all_ones(void)
{
	int ret;

	mlx5v_sim_pci_offline(g_u.sim, 1);
	ret = mlx5v_health_check(g_u.dev);
	TEST_ASSERT_EQUAL(ret, -ENOLINK, "all-ones reads missed");
	ret = expect_dead(MLX5V_DEAD_PCI_COMM_ERR);
	/* Teardown must not wait on an offline device: every command is answered locally. */
	mlx5v_dev_unload(g_u.dev);
	mlx5v_sim_pci_offline(g_u.sim, 0);
	return ret;
}

struct pending_arg {
	struct mlx5v_dev *dev;
	int ret;
	uint8_t out[MLX5V_CMD_HDR_SIZE];
};

static void *
pending_cmd_thread(void *arg)
{
	struct pending_arg *a = arg;
	uint8_t in[MLX5V_CMD_HDR_SIZE];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_ALLOC_UAR);
	a->ret = mlx5v_cmd_do(a->dev, in, sizeof(in), a->out, sizeof(a->out));
	return NULL;
}

/* A command pending when the device dies completes with the dead-device error. */
static int
test_mlx5v_health_pending_command_flushed(void)
{
	struct pending_arg a;
	struct mlx5v_cmd_info info;
	uint64_t deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;
	pthread_t tid;

	memset(&a, 0, sizeof(a));
	a.dev = g_u.dev;
	mlx5v_dev_tout_set(g_u.dev, MLX5V_TO_CMD, 60000);
	TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(g_u.sim, MLX5V_CMD_OP_ALLOC_UAR, 1),
			    "hold knob");
	TEST_ASSERT_SUCCESS(pthread_create(&tid, NULL, pending_cmd_thread, &a), "thread");
	do {
		mlx5v_cmd_info_get(g_u.dev, &info);
		ut_sleep_ms(1);
	} while (info.busy_mask == 0 && ut_now_ms() < deadline);
	TEST_ASSERT(info.busy_mask != 0, "the command never got a slot");
	mlx5v_sim_health_fatal(g_u.sim, MLX5V_HEALTH_SYND_FW_ERR);
	mlx5v_health_check(g_u.dev);
	pthread_join(tid, NULL);
	mlx5v_sim_release_held(g_u.sim);
	TEST_ASSERT_EQUAL(a.ret, -ENOLINK, "pending create returned %d", a.ret);
	TEST_ASSERT_EQUAL(a.out[0], MLX5V_CMD_STAT_DRIVER_ABORTED, "status not ABORTED");
	return expect_dead(MLX5V_DEAD_FW_SYND_RFR);
}

/* On a dead device: destroy-class succeeds, create-class fails with -ENOLINK. */
static int
test_mlx5v_health_dead_create_destroy(void)
{
	struct mlx5v_eq_attr attr;
	struct mlx5v_eq *eq;
	int vec, fd;

	vec = mlx5v_msi_alloc(g_u.dev, &fd);
	TEST_ASSERT(vec >= 1, "msi alloc %d", vec);
	memset(&attr, 0, sizeof(attr));
	attr.log_size = 6;
	attr.vector = vec;
	eq = mlx5v_eq_create(g_u.dev, &attr);
	TEST_ASSERT_NOT_NULL(eq, "EQ on a live device");
	mlx5v_sim_nic_interface_set(g_u.sim, MLX5V_NIC_IF_SW_RESET);
	TEST_ASSERT_EQUAL(mlx5v_health_check(g_u.dev), -ENOLINK, "not dead");
	TEST_ASSERT_NULL(mlx5v_eq_create(g_u.dev, &attr), "EQ created on a dead device");
	TEST_ASSERT_EQUAL(rte_errno, ENOLINK, "create errno %d", rte_errno);
	TEST_ASSERT_SUCCESS(mlx5v_eq_destroy(eq), "destroy on a dead device must succeed");
	TEST_ASSERT_SUCCESS(mlx5v_msi_free(g_u.dev, vec, fd), "msi free");
	return expect_dead(MLX5V_DEAD_NIC_SW_RESET);
}

/* Runs last: every test above returned the EAL heap to where it was. */
static int
test_mlx5v_health_no_leak(void)
{
	TEST_ASSERT_EQUAL(g_leaks, 0, "%d test(s) leaked EAL memory", g_leaks);
	return TEST_SUCCESS;
}

#define HTEST(f) TEST_CASE_ST(health_setup, health_teardown, f)

static struct unit_test_suite mlx5v_health_suite = {
	.suite_name = "mlx5v_health",
	.unit_test_cases = {
		HTEST(test_mlx5v_health_healthy),
		HTEST(test_mlx5v_health_frozen_counter),
		TEST_CASE_ST(health_setup_default, health_teardown,
			     test_mlx5v_health_stall_reported),
		HTEST(test_mlx5v_health_alarm_poll),
		HTEST(test_mlx5v_health_fatal_syndrome),
		HTEST(test_mlx5v_health_nic_interface_disabled),
		HTEST(test_mlx5v_health_nic_interface_sw_reset),
		HTEST(test_mlx5v_health_all_ones),
		HTEST(test_mlx5v_health_pending_command_flushed),
		HTEST(test_mlx5v_health_dead_create_destroy),
		TEST_CASE(test_mlx5v_health_no_leak),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_health(void)
{
	return unit_test_suite_runner(&mlx5v_health_suite);
}

REGISTER_TEST_COMMAND(mlx5v_health_autotest, test_mlx5v_health);
