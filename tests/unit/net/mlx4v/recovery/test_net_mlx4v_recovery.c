/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of net_mlx4v's recovery from a fatal device error on the simulated
 * ConnectX-3 (doc/guides/nics/mlx4v.rst, "Recovery"): the fatal knob kills the device, the
 * application hears RMV, the common driver resets the device, the application hears RESET,
 * and rte_eth_dev_reset(), configure, queue setup and start bring traffic back over RSS.
 * Also: a device reset failing once (the next attempt recovers) and always (the port stays
 * dead), a handle of the old life answering errors, recovery=dead keeping the device dead,
 * a device of two ports, and 50 recoveries in a row with EAL memory, mbufs and fds flat.
 *
 * Frames go out of the port's Tx queue and come back on the loop wire to the port's MAC.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "test.h"

#include "mlx4v_sim.h"
#include "rte_pmd_mlx4v.h"
#include "ut_common.h"
#include "ut_ethdev.h"
#include "ut_mlx4v_vdev.h"

#define VDEV_NAME "mlx4v_sim0"
#define NQ 2
#define NFRAMES 16
#define BURST 32
/* How long a "nothing happens" check waits: a bound, not a measured time. */
#define QUIET_MS 300
#define ROUNDS 50

static struct rte_mempool *g_mp;
static uint16_t g_port;
static struct mlx4v_sim *g_sim;
static int g_attached;
static struct ut_eth_events g_ev;
static uint64_t g_reset;

static int
reset_cb(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret)
{
	RTE_SET_USED(port);
	RTE_SET_USED(type);
	RTE_SET_USED(arg);
	RTE_SET_USED(ret);
	__atomic_fetch_add(&g_reset, 1, __ATOMIC_RELEASE);
	return 0;
}

/* The device of the program (tests/lib/ut_mlx4v_vdev.h). */
#define attach(args) ut_mlx4v_vdev_attach(VDEV_NAME, (args), &g_attached, &g_sim, &g_port)
#define detach() ut_mlx4v_vdev_detach(VDEV_NAME, &g_attached)

static int
port_start_on(uint16_t port)
{
	return ut_eth_port_start(port, NQ, RTE_ETH_RSS_NONFRAG_IPV4_UDP, 0, 0, 1, g_mp);
}

static int
port_start(void)
{
	return port_start_on(g_port);
}

/* A 64-byte IPv4/UDP frame to the port's own MAC (the loop wire brings it back). */
static struct rte_mbuf *
frame_make(uint16_t port, uint16_t sport)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_mp);
	struct rte_ether_addr mac;
	uint8_t *f;

	if (m == NULL || rte_eth_macaddr_get(port, &mac) != 0 ||
	    (f = (uint8_t *)rte_pktmbuf_append(m, 64)) == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	ut_eth_udp4_frame(f, &mac, sport);
	return m;
}

/*
 * Send NFRAMES frames over varying UDP source ports and read them back from the Rx queues.
 * @return the frames received, with per-queue counts in rxq[] (NQ entries).
 */
static unsigned int
traffic(uint16_t port, unsigned int rxq[NQ])
{
	struct rte_mbuf *m[BURST];
	unsigned int got = 0, sent = 0, i;
	uint64_t t0;
	uint16_t q, k;

	memset(rxq, 0, NQ * sizeof(rxq[0]));
	for (i = 0; i < NFRAMES; i++) {
		m[0] = frame_make(port, 3000 + i);
		if (m[0] == NULL)
			break;
		if (rte_eth_tx_burst(port, 0, m, 1) != 1) {
			rte_pktmbuf_free(m[0]);
			break;
		}
		sent++;
	}
	t0 = ut_now_ms();
	while (got < sent && ut_now_ms() - t0 < UT_WAIT_LIMIT_MS) {
		for (q = 0; q < NQ; q++) {
			k = rte_eth_rx_burst(port, q, m, BURST);
			for (i = 0; i < k; i++)
				rte_pktmbuf_free(m[i]);
			rxq[q] += k;
			got += k;
		}
		rte_eth_tx_done_cleanup(port, 0, 0);
		if (got < sent)
			ut_sleep_ms(1);
	}
	rte_eth_tx_done_cleanup(port, 0, 0);
	return got;
}

/* Every frame through, over both queues (RSS works), and no doorbell misused. */
static int
traffic_on(uint16_t port, const char *when)
{
	unsigned int rxq[NQ], k;

	TEST_ASSERT_EQUAL(traffic(port, rxq), NFRAMES, "%s: port %u: frames lost", when, port);
	TEST_ASSERT(rxq[0] > 0 && rxq[1] > 0, "%s: RSS used one queue (%u/%u)", when, rxq[0],
		    rxq[1]);
	for (k = 0; k < MLX4V_SIM_MISUSE_MAX; k++)
		TEST_ASSERT_EQUAL(mlx4v_sim_misuse_count(g_sim, k), 0u, "%s: misuse %s", when,
				  mlx4v_sim_misuse_name(k));
	return TEST_SUCCESS;
}

static int
traffic_ok(const char *when)
{
	return traffic_on(g_port, when);
}

/* The fatal knob, then RMV. */
static int
kill_device(void)
{
	uint64_t rmv = __atomic_load_n(&g_ev.rmv, __ATOMIC_ACQUIRE);

	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, "fatal", 1), "fatal knob");
	mlx4v_sim_poll(g_sim);
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_ev.rmv, rmv + 1), "no RMV event");
	return TEST_SUCCESS;
}

/* RESET heard after the RMV, then the application's part: reset, configure, start. */
static int
recover_port(uint64_t reset_before)
{
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_reset, reset_before + 1), "no RESET event");
	TEST_ASSERT_SUCCESS(rte_eth_dev_reset(g_port), "rte_eth_dev_reset");
	TEST_ASSERT_SUCCESS(port_start(), "configure and start on the recovered device");
	return TEST_SUCCESS;
}

static int
one_recovery(unsigned int round)
{
	uint64_t reset0 = __atomic_load_n(&g_reset, __ATOMIC_ACQUIRE);

	TEST_ASSERT_SUCCESS(kill_device(), "round %u", round);
	TEST_ASSERT_SUCCESS(recover_port(reset0), "round %u", round);
	TEST_ASSERT_SUCCESS(traffic_ok("after a recovery"), "round %u", round);
	return TEST_SUCCESS;
}

/* Nothing left in the model once the port is closed. */
static int
close_clean(void)
{
	unsigned int k;

	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(g_port), "close");
	for (k = 0; k < MLX4V_SIM_OBJ_MAX; k++)
		TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, k), 0u,
				  "objects of kind %u left after close", k);
	return TEST_SUCCESS;
}

/*
 * The whole recovery: traffic, death (RMV, the bursts stop), RESET, the port rebuilt, traffic
 * again over both queues. A handle opened before the death is stale: its calls fail with EIO,
 * its close succeeds.
 */
static int
test_net_mlx4v_recovery_reset(void)
{
	uint64_t reset0 = __atomic_load_n(&g_reset, __ATOMIC_ACQUIRE);
	struct rte_pmd_mlx4v_dev *old;
	struct rte_mbuf *m;

	TEST_ASSERT_SUCCESS(attach("ports=1,wire=loop"), "attach");
	TEST_ASSERT_SUCCESS(port_start(), "start");
	TEST_ASSERT_SUCCESS(traffic_ok("before the error"), "traffic");
	old = rte_pmd_mlx4v_dev_open(VDEV_NAME);
	TEST_ASSERT_NOT_NULL(old, "a handle of the first life");
	TEST_ASSERT_SUCCESS(kill_device(), "death");
	/* Dead: the Tx burst takes nothing (its QP goes with the reset). */
	m = frame_make(g_port, 1);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(g_port, 0, &m, 1), 0, "a dead port's Tx took a frame");
	rte_pktmbuf_free(m);
	TEST_ASSERT_SUCCESS(recover_port(reset0), "recovery");
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_reset, __ATOMIC_ACQUIRE), reset0 + 1,
			  "one RESET event");
	TEST_ASSERT_SUCCESS(traffic_ok("after the recovery"), "traffic");
	/* The old handle: the kernel disassociated it. */
	TEST_ASSERT_NULL(rte_pmd_mlx4v_alloc_pd(old), "a PD on a stale handle");
	TEST_ASSERT_EQUAL(rte_errno, EIO, "a stale handle's error");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(old), "closing a stale handle");
	return close_clean();
}

/* The first device reset fails: the next attempt, a period later, recovers. */
static int
test_net_mlx4v_recovery_reset_fails_once(void)
{
	TEST_ASSERT_SUCCESS(attach("ports=1,wire=loop,fail_reset=1"), "attach");
	TEST_ASSERT_SUCCESS(port_start(), "start");
	TEST_ASSERT_SUCCESS(traffic_ok("before the error"), "traffic");
	TEST_ASSERT_SUCCESS(one_recovery(0), "recovery after a failed reset");
	return close_clean();
}

/*
 * Every device reset fails: the recovery gives up after its attempts, no RESET comes,
 * rte_eth_dev_reset() answers -EAGAIN while it runs and -EIO after; teardown still works.
 */
static int
test_net_mlx4v_recovery_reset_fails_always(void)
{
	uint64_t reset0 = __atomic_load_n(&g_reset, __ATOMIC_ACQUIRE);
	uint64_t t0;
	int ret;

	TEST_ASSERT_SUCCESS(attach("ports=1,wire=loop,fail_reset=1000"), "attach");
	TEST_ASSERT_SUCCESS(port_start(), "start");
	TEST_ASSERT_SUCCESS(kill_device(), "death");
	t0 = ut_now_ms();
	do {
		ret = rte_eth_dev_reset(g_port);
		if (ret == -EAGAIN)
			ut_sleep_ms(10);
	} while (ret == -EAGAIN && ut_now_ms() - t0 < UT_WAIT_LIMIT_MS);
	TEST_ASSERT_EQUAL(ret, -EIO, "reset of a port whose recovery gave up");
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_reset, __ATOMIC_ACQUIRE), reset0,
			  "a RESET event without a recovery");
	return close_clean();
}

/* recovery=dead: today's behaviour, the device stays dead, no RESET, reset answers -EIO. */
static int
test_net_mlx4v_recovery_dead(void)
{
	uint64_t reset0 = __atomic_load_n(&g_reset, __ATOMIC_ACQUIRE);

	TEST_ASSERT_SUCCESS(attach("ports=1,wire=loop,recovery=dead"), "attach");
	TEST_ASSERT_SUCCESS(port_start(), "start");
	TEST_ASSERT_SUCCESS(kill_device(), "death");
	ut_sleep_ms(QUIET_MS);
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_reset, __ATOMIC_ACQUIRE), reset0,
			  "a RESET event with recovery=dead");
	TEST_ASSERT_EQUAL(rte_eth_dev_reset(g_port), -EIO, "reset of a dead port");
	TEST_ASSERT(rte_pmd_mlx4v_dev_open(VDEV_NAME) == NULL, "a handle on a dead device");
	return close_clean();
}

/*
 * A device of two ports: each port has its own handle; both hear RMV and RESET, and each is
 * rebuilt by its own reset, traffic on both afterwards.
 */
static int
test_net_mlx4v_recovery_two_ports(void)
{
	uint64_t reset0 = __atomic_load_n(&g_reset, __ATOMIC_ACQUIRE);
	uint64_t rmv0 = __atomic_load_n(&g_ev.rmv, __ATOMIC_ACQUIRE);
	uint16_t ports[2], port, n = 0, i;

	TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, "ports=2,mode=loopback"), "attach");
	g_attached = 1;
	g_sim = mlx4v_sim_get(VDEV_NAME);
	TEST_ASSERT_NOT_NULL(g_sim, "model");
	RTE_ETH_FOREACH_DEV(port) {
		TEST_ASSERT(n < 2, "more than two ports");
		ports[n++] = port;
	}
	TEST_ASSERT_EQUAL(n, 2, "two ports");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_SUCCESS(port_start_on(ports[i]), "start %u", i);
		TEST_ASSERT_SUCCESS(traffic_on(ports[i], "before the error"), "traffic");
	}
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, "fatal", 1), "fatal knob");
	mlx4v_sim_poll(g_sim);
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_ev.rmv, rmv0 + 2), "an RMV per port");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_reset, reset0 + 2), "a RESET per port");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_reset(ports[i]), "reset %u", i);
		TEST_ASSERT_SUCCESS(port_start_on(ports[i]), "start %u again", i);
	}
	for (i = 0; i < 2; i++)
		TEST_ASSERT_SUCCESS(traffic_on(ports[i], "after the recovery"), "traffic");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(ports[i]), "stop");
		TEST_ASSERT_SUCCESS(rte_eth_dev_close(ports[i]), "close");
	}
	for (i = 0; i < MLX4V_SIM_OBJ_MAX; i++)
		TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, i), 0u,
				  "objects of kind %u left after close", i);
	return TEST_SUCCESS;
}

/* A bad recovery= value is refused at probe. */
static int
test_net_mlx4v_recovery_devarg(void)
{
	TEST_ASSERT(rte_vdev_init(VDEV_NAME, "ports=1,wire=loop,recovery=maybe") != 0,
		    "recovery=maybe accepted");
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "a port of a refused device");
	return TEST_SUCCESS;
}

/* ROUNDS recoveries in a row: EAL memory, mbufs and fds the same after as after the first. */
static int
test_net_mlx4v_recovery_many(void)
{
	unsigned int avail0, i;
	struct ut_heap h0, h1;
	int fds0;

	TEST_ASSERT_SUCCESS(attach("ports=1,wire=loop"), "attach");
	TEST_ASSERT_SUCCESS(port_start(), "start");
	/* The first round makes what stays for good (alarm and log state). */
	TEST_ASSERT_SUCCESS(one_recovery(0), "first recovery");
	ut_heap_get(&h0);
	fds0 = ut_fd_count();
	avail0 = rte_mempool_avail_count(g_mp);
	for (i = 1; i <= ROUNDS; i++)
		TEST_ASSERT_SUCCESS(one_recovery(i), "recovery %u", i);
	ut_heap_get(&h1);
	TEST_ASSERT(ut_heap_same(&h0, &h1), "EAL memory grew over %u recoveries", ROUNDS);
	TEST_ASSERT_EQUAL(ut_fd_count(), fds0, "file descriptors leaked");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(g_mp), avail0, "mbufs leaked");
	return close_clean();
}

static int
setup(void)
{
	return TEST_SUCCESS;
}

static void
teardown(void)
{
	detach();
}

static int
testsuite_setup(void)
{
	g_mp = rte_pktmbuf_pool_create("ut_net_mlx4v_rec", 4096, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (g_mp == NULL)
		return TEST_FAILED;
	if (rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RMV, ut_eth_event_cb,
					  &g_ev) != 0 ||
	    rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RESET, reset_cb,
					  NULL) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
testsuite_teardown(void)
{
	rte_eth_dev_callback_unregister(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RMV, ut_eth_event_cb,
					&g_ev);
	rte_eth_dev_callback_unregister(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RESET, reset_cb, NULL);
	rte_mempool_free(g_mp);
}

static struct unit_test_suite net_mlx4v_recovery_suite = {
	.suite_name = "net_mlx4v recovery from a fatal error on the simulated ConnectX-3",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(setup, teardown, test_net_mlx4v_recovery_reset),
		TEST_CASE_ST(setup, teardown, test_net_mlx4v_recovery_reset_fails_once),
		TEST_CASE_ST(setup, teardown, test_net_mlx4v_recovery_reset_fails_always),
		TEST_CASE_ST(setup, teardown, test_net_mlx4v_recovery_dead),
		TEST_CASE_ST(setup, teardown, test_net_mlx4v_recovery_two_ports),
		TEST_CASE_ST(setup, teardown, test_net_mlx4v_recovery_devarg),
		TEST_CASE_ST(setup, teardown, test_net_mlx4v_recovery_many),
		TEST_CASES_END()
	}
};

static int
test_net_mlx4v_recovery(void)
{
	return unit_test_suite_runner(&net_mlx4v_recovery_suite);
}

REGISTER_TEST_COMMAND(net_mlx4v_recovery_autotest, test_net_mlx4v_recovery);
