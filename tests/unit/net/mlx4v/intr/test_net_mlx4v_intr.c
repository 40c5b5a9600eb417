/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the mlx4v PMD's interrupts on the simulated ConnectX-3: Rx queue
 * interrupts by CQ arm through rte_eth_dev_rx_intr_ctl_q() and rte_epoll_wait() as
 * l3fwd-power uses them (a frame wakes the lcore, nothing wakes it without one), link state
 * change events from the simulator's link control, removal events for a dead (the class
 * event, and the simulator's fatal knob) or detached device, and nothing left behind after
 * detach and attach or a device death.
 *
 * Frames come from the wire (mlx4v_sim_inject()) to the port's MAC and are read with
 * rte_eth_rx_burst(); the simulator's misuse counters check every arm doorbell (record,
 * packing, consumer index, sequence number).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_mbuf.h>

#include "test.h"

#include "mlx4v_class.h"
#include "mlx4v_sim.h"
#include "rte_pmd_mlx4v.h"
#include "ut_common.h"
#include "ut_ethdev.h"
#include "ut_mlx4v_vdev.h"

#define VDEV_NAME "mlx4v_sim0"
/* How long a "nothing happens" check waits: a bound, not a measured time. */
#define QUIET_MS 100
#define BURST 32

static struct rte_mempool *g_mp;
static uint16_t g_port;
static struct mlx4v_sim *g_sim;
static int g_attached;

/* Events the callback saw (any port). */
static struct ut_eth_events g_ev;

/* The device of the program (tests/lib/ut_mlx4v_vdev.h). */
#define attach(args) ut_mlx4v_vdev_attach(VDEV_NAME, (args), &g_attached, &g_sim, &g_port)
#define detach() ut_mlx4v_vdev_detach(VDEV_NAME, &g_attached)

#define wait_rx ut_eth_wait_rx

/* Start the port: nq Rx queues, RSS over UDP ports, the interrupts asked for. */
static int
port_start(uint16_t nq, int rxq, int lsc, int rmv)
{
	return ut_eth_port_start(g_port, nq, RTE_ETH_RSS_NONFRAG_IPV4_UDP, rxq, lsc, rmv, g_mp);
}

/* A 64-byte IPv4/UDP frame to the port's MAC from the wire; sport varies the RSS hash. */
static int
frame_in(uint16_t sport)
{
	uint8_t f[64];
	struct rte_ether_addr mac;

	if (rte_eth_macaddr_get(g_port, &mac) != 0)
		return -EINVAL;
	ut_eth_udp4_frame(f, &mac, sport);
	return mlx4v_sim_inject(g_sim, 1, f, sizeof(f));
}

/* Read and free what Rx queue q holds. @return frames read. */
static unsigned int
rx_drain(uint16_t q)
{
	struct rte_mbuf *m[BURST];
	unsigned int n = 0;
	uint16_t i, k;

	do {
		k = rte_eth_rx_burst(g_port, q, m, BURST);
		for (i = 0; i < k; i++)
			rte_pktmbuf_free(m[i]);
		n += k;
	} while (k > 0);
	return n;
}

/* The cycles' completion: a frame from the wire (to whichever queue RSS picks: one queue). */
static int
rx_frame(uint16_t q, unsigned int i)
{
	RTE_SET_USED(q);
	return frame_in(2000 + i);
}

/* Read the one frame of queue q. */
static int
rx_take(uint16_t q)
{
	return rx_drain(q) == 1 ? 0 : -1;
}

static const struct ut_eth_rx_ops rx_ops = { .in = rx_frame, .take = rx_take };

/* Port 1's cable. */
static int
link_set(int up)
{
	return mlx4v_sim_link_set(g_sim, 1, up);
}

/* Every doorbell and arm the PMD wrote was well formed (the simulator checks each one). */
static int
doorbells_clean(void)
{
	unsigned int k;

	for (k = 0; k < MLX4V_SIM_MISUSE_MAX; k++)
		TEST_ASSERT_EQUAL(mlx4v_sim_misuse_count(g_sim, k), 0u, "misuse %s",
				  mlx4v_sim_misuse_name(k));
	return TEST_SUCCESS;
}

/* Nothing of the port's queues left in the device model. */
static int
no_queue_objects(void)
{
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_CQ), 0u, "CQs left");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_WQ), 0u, "WQs left");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_QP), 0u, "QPs left");
	return TEST_SUCCESS;
}

#define fd_count ut_fd_count

static int
setup_loop(void)
{
	return attach("ports=1,wire=loop") == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static void
teardown(void)
{
	detach();
}

/*
 * One queue: no wake-up while nothing arrives, a frame wakes rte_epoll_wait with the data
 * the application registered, disable takes the event, the frame is there to read.
 */
static int
test_net_mlx4v_intr_rxq_wakes(void)
{
	uintptr_t data = 0;
	struct mlx4v_sim_stats st;
	uint64_t events0;
	int fd;

	TEST_ASSERT_SUCCESS(port_start(1, 1, 0, 0), "start");
	fd = rte_eth_dev_rx_intr_ctl_q_get_fd(g_port, 0);
	TEST_ASSERT(fd >= 0, "no fd for Rx queue 0");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, 0, RTE_EPOLL_PER_THREAD,
						      RTE_INTR_EVENT_ADD, (void *)0x41),
			    "epoll add");
	TEST_ASSERT_SUCCESS(mlx4v_sim_stats_get(g_sim, &st), "stats");
	events0 = st.events;
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 0), "enable");
	TEST_ASSERT_EQUAL(wait_rx(QUIET_MS, NULL), 0, "woken without traffic");
	TEST_ASSERT_SUCCESS(frame_in(1000), "frame");
	TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, &data), 1, "the frame did not wake the lcore");
	TEST_ASSERT_EQUAL(data, 0x41u, "the application's data");
	TEST_ASSERT_SUCCESS(mlx4v_sim_stats_get(g_sim, &st), "stats");
	TEST_ASSERT_EQUAL(st.events, events0 + 1, "one completion event");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, 0), "disable");
	TEST_ASSERT_EQUAL(rx_drain(0), 1u, "the frame is not in the queue");
	/* Disable took the event: the lcore does not wake again for it. */
	TEST_ASSERT_EQUAL(wait_rx(QUIET_MS, NULL), 0, "woken twice for one frame");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, 0, RTE_EPOLL_PER_THREAD,
						      RTE_INTR_EVENT_DEL, NULL), "epoll del");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return doorbells_clean();
}

/*
 * Enable/disable cycles, each with a frame: every arm carries the next sequence number; a
 * frame that came while disabled and was not read fires at the next enable; two enables in
 * a row still wake once; frames read while disabled make no event.
 */
static int
test_net_mlx4v_intr_rxq_cycles(void)
{
	TEST_ASSERT_SUCCESS(port_start(1, 1, 0, 0), "start");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, 0, RTE_EPOLL_PER_THREAD,
						      RTE_INTR_EVENT_ADD, NULL), "epoll add");
	TEST_ASSERT_SUCCESS(ut_eth_rx_intr_cycles(g_port, 0, 8, QUIET_MS, &rx_ops), "cycles");
	/* Disabled: a frame arrives, nothing wakes until enable arms the CQ behind it. */
	TEST_ASSERT_SUCCESS(ut_eth_rx_intr_pending(g_port, 0, 1000, QUIET_MS, &rx_ops), "pending");
	/* A frame read while disabled leaves nothing to fire at the next enable. */
	TEST_ASSERT_SUCCESS(frame_in(3001), "frame");
	TEST_ASSERT_EQUAL(rx_drain(0), 1u, "frame read while disabled");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 0), "enable");
	TEST_ASSERT_EQUAL(wait_rx(QUIET_MS, NULL), 0, "woken for a frame already read");
	/* Enable again without a disable: one wake-up for the next frame. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 0), "enable again");
	TEST_ASSERT_SUCCESS(frame_in(3002), "frame");
	TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, NULL), 1, "no wake-up after two enables");
	/* The event fired and was not taken: an enable takes it and arms with the next number. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 0), "enable after the event");
	TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, NULL), 1, "the unread frame fires again");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, 0), "disable");
	TEST_ASSERT_EQUAL(rx_drain(0), 1u, "frame");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return doorbells_clean();
}

/* Four queues, an fd each: a frame wakes the queue that holds it, and only that one. */
static int
test_net_mlx4v_intr_four_queues(void)
{
	unsigned int i, woke = 0;
	uintptr_t data = 0;
	int fd[4];
	uint16_t q, r;

	TEST_ASSERT_SUCCESS(port_start(4, 1, 0, 0), "start");
	for (q = 0; q < 4; q++) {
		fd[q] = rte_eth_dev_rx_intr_ctl_q_get_fd(g_port, q);
		TEST_ASSERT(fd[q] >= 0, "queue %u: no fd", q);
		for (r = 0; r < q; r++)
			TEST_ASSERT(fd[q] != fd[r], "queues %u and %u share an fd", r, q);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, q, RTE_EPOLL_PER_THREAD,
							      RTE_INTR_EVENT_ADD,
							      (void *)(uintptr_t)(0x100 + q)),
				    "epoll add %u", q);
	}
	for (i = 0; i < 16; i++) {
		for (q = 0; q < 4; q++)
			TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, q), "enable %u", q);
		TEST_ASSERT_SUCCESS(frame_in(4000 + 7 * i), "frame %u", i);
		TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, &data), 1, "frame %u: one wake-up", i);
		TEST_ASSERT(data >= 0x100 && data < 0x104, "frame %u: data %#lx", i,
			    (unsigned long)data);
		q = (uint16_t)(data - 0x100);
		woke |= 1u << q;
		for (r = 0; r < 4; r++) {
			TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, r), "off %u", r);
			TEST_ASSERT_EQUAL(rx_drain(r), r == q ? 1u : 0u,
					  "frame %u: queue %u woke, queue %u read", i, q, r);
		}
	}
	printf("queues woken by 16 frames: %#x\n", woke);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(no_queue_objects(), "after stop");
	/* After a restart the queues register again: stop dropped the stale epoll entries. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "restart");
	for (q = 0; q < 4; q++) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, q, RTE_EPOLL_PER_THREAD,
							      RTE_INTR_EVENT_ADD,
							      (void *)(uintptr_t)(0x100 + q)),
				    "epoll add %u after restart", q);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, q), "enable %u", q);
	}
	TEST_ASSERT_SUCCESS(frame_in(5000), "frame");
	TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, &data), 1, "no wake-up after restart");
	for (r = 0; r < 4; r++)
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, r), "disable %u", r);
	TEST_ASSERT_EQUAL(rx_drain((uint16_t)(data - 0x100)), 1u, "frame after restart");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(g_port), "close");
	TEST_ASSERT_SUCCESS(no_queue_objects(), "after close");
	return doorbells_clean();
}

/* Bad use: a clear error, nothing armed. */
static int
test_net_mlx4v_intr_rxq_errors(void)
{
	/* Without intr_conf.rxq: no queue event in the handle, enable is not supported. */
	TEST_ASSERT_SUCCESS(port_start(2, 0, 0, 0), "start without Rx interrupts");
	TEST_ASSERT(rte_eth_dev_rx_intr_ctl_q(g_port, 0, RTE_EPOLL_PER_THREAD,
					      RTE_INTR_EVENT_ADD, NULL) < 0, "epoll add");
	TEST_ASSERT_EQUAL(rte_eth_dev_rx_intr_enable(g_port, 0), -ENOTSUP, "enable");
	TEST_ASSERT_EQUAL(rte_eth_dev_rx_intr_disable(g_port, 0), -ENOTSUP, "disable");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(port_start(2, 1, 0, 0), "start with Rx interrupts");
	TEST_ASSERT(rte_eth_dev_rx_intr_enable(g_port, 2) < 0, "enable of queue 2 of 2");
	TEST_ASSERT(rte_eth_dev_rx_intr_ctl_q(g_port, 5, RTE_EPOLL_PER_THREAD,
					      RTE_INTR_EVENT_ADD, NULL) < 0, "epoll add of 5");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	/* A stopped port has no CQ to arm. */
	TEST_ASSERT(rte_eth_dev_rx_intr_enable(g_port, 0) < 0, "enable while stopped");
	TEST_ASSERT(rte_eth_dev_rx_intr_disable(g_port, 0) < 0, "disable while stopped");
	TEST_ASSERT_SUCCESS(no_queue_objects(), "after stop");
	return doorbells_clean();
}

/* The cable out and back, then a flap: an LSC event each time, with the new status. */
static int
test_net_mlx4v_intr_lsc(void)
{
	struct rte_eth_link link;
	uint64_t n;

	TEST_ASSERT_SUCCESS(ut_eth_intr_advertised(g_port), "interrupts");
	__atomic_store_n(&g_ev.lsc, 0, __ATOMIC_RELAXED);
	TEST_ASSERT_SUCCESS(port_start(1, 0, 1, 0), "start with intr_conf.lsc");
	TEST_ASSERT_SUCCESS(ut_eth_lsc_cable(g_port, &g_ev, link_set), "cable out and in");
	/*
	 * A flap: one event when down and up both come before the alarm runs, two when it runs
	 * between them; never none.
	 */
	TEST_ASSERT_SUCCESS(mlx4v_sim_link_flap(g_sim, 1), "flap");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_ev.lsc, 3), "no LSC event for a flap");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	rte_delay_ms(QUIET_MS);
	n = __atomic_load_n(&g_ev.lsc, __ATOMIC_ACQUIRE);
	TEST_ASSERT(n == 3 || n == 4, "%" PRIu64 " LSC events for a flap", n - 2);
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_ev.lsc_status, __ATOMIC_RELAXED), RTE_ETH_LINK_UP,
			  "the flap's last event");
	/* Without intr_conf.lsc: no event, the link reads right all the same. */
	TEST_ASSERT_SUCCESS(port_start(1, 0, 0, 0), "start without intr_conf.lsc");
	TEST_ASSERT_SUCCESS(mlx4v_sim_link_set(g_sim, 1, 0), "cable out");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_DOWN, "down without LSC");
	TEST_ASSERT_SUCCESS(mlx4v_sim_link_set(g_sim, 1, 1), "cable in");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "up without LSC");
	rte_delay_ms(QUIET_MS);
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_ev.lsc, __ATOMIC_ACQUIRE), n,
			  "an LSC event without intr_conf.lsc");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return TEST_SUCCESS;
}

/* The device fails (its DEAD event): the application hears RMV; teardown still completes. */
static int
test_net_mlx4v_intr_rmv(void)
{
	struct mlx4v_class_event dead = { .type = MLX4V_CLASS_EVENT_DEAD };
	struct rte_eth_link link;

	__atomic_store_n(&g_ev.rmv, 0, __ATOMIC_RELAXED);
	TEST_ASSERT_SUCCESS(port_start(2, 1, 0, 1), "start with intr_conf.rmv");
	/* What a backend reports for a fatal device error. */
	mlx4v_class_dev_event(VDEV_NAME, &dead);
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_ev.rmv, 1), "no RMV event");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_DOWN, "a dead port's link is down");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(g_port), "close");
	TEST_ASSERT_SUCCESS(no_queue_objects(), "after close");
	return TEST_SUCCESS;
}

/* Send one 64-byte frame on Tx queue 0. @return frames the burst took. */
static uint16_t
tx_one(void)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_mp);
	uint16_t n;

	if (m == NULL || rte_pktmbuf_append(m, 64) == NULL) {
		rte_pktmbuf_free(m);
		return 0;
	}
	memset(rte_pktmbuf_mtod(m, void *), 0xff, 64);
	n = rte_eth_tx_burst(g_port, 0, &m, 1);
	if (n == 0)
		rte_pktmbuf_free(m);
	return n;
}

/*
 * The simulated device fails as hardware does (the fatal knob, a catastrophic error): the
 * backend reports DEAD, the application hears RMV, the queues stop (no CQE for a frame sent
 * or received), and the port is stopped, closed and the device detached with nothing left in
 * the model, the mbuf pool, EAL memory or file descriptors.
 */
static int
test_net_mlx4v_intr_rmv_fatal(void)
{
	struct mlx4v_sim_stats st0, st1;
	struct rte_eth_link link;
	struct ut_heap h0, h1;
	unsigned int avail0, k;
	int fds0;

	/* setup_loop's device made what EAL keeps for good: measure from its detach. */
	detach();
	ut_heap_get(&h0);
	fds0 = fd_count();
	avail0 = rte_mempool_avail_count(g_mp);
	__atomic_store_n(&g_ev.rmv, 0, __ATOMIC_RELAXED);
	/* No recovery: the device stays dead (net_mlx4v_recovery tests recovery=reset). */
	TEST_ASSERT_SUCCESS(attach("ports=1,wire=loop,recovery=dead"), "attach");
	TEST_ASSERT_SUCCESS(port_start(2, 1, 1, 1), "start with every interrupt");
	/* The device works before the error: a frame from the wire lands in a queue. */
	TEST_ASSERT_SUCCESS(frame_in(7000), "a frame before the error");
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, "fatal", 1), "fatal knob");
	mlx4v_sim_poll(g_sim);
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_ev.rmv, 1), "no RMV event");
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_ev.rmv, __ATOMIC_ACQUIRE), 1u, "one RMV event");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_DOWN, "a dead port's link is down");
	/* Latched: the knob back at 0 revives nothing. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, "fatal", 0), "fatal knob off");
	/* The queues stop: nothing is received, nothing sent, no CQE written. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_stats_get(g_sim, &st0), "stats");
	TEST_ASSERT_EQUAL(frame_in(7001), -EIO, "a dead device received a frame");
	TEST_ASSERT_EQUAL(tx_one(), 1, "the Tx burst takes the frame (the PMD cannot know)");
	mlx4v_sim_poll(g_sim);
	TEST_ASSERT_SUCCESS(mlx4v_sim_stats_get(g_sim, &st1), "stats");
	TEST_ASSERT_EQUAL(st1.cqes, st0.cqes, "a dead device wrote CQEs");
	TEST_ASSERT_EQUAL(st1.tx_packets, st0.tx_packets, "a dead device sent");
	TEST_ASSERT_EQUAL(st1.rx_packets, st0.rx_packets, "a dead device received");
	/* Control calls fail; teardown does not. */
	TEST_ASSERT(rte_eth_promiscuous_enable(g_port) != 0, "promiscuous on a dead port");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(g_port), "close");
	for (k = 0; k < MLX4V_SIM_OBJ_MAX; k++)
		TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, k), 0u,
				  "objects of kind %u left after close", k);
	detach();
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(g_mp), avail0, "mbufs leaked");
	ut_heap_get(&h1);
	TEST_ASSERT(ut_heap_same(&h0, &h1), "EAL memory leaked");
	TEST_ASSERT_EQUAL(fd_count(), fds0, "file descriptors leaked");
	return TEST_SUCCESS;
}

/*
 * One attach, start with every interrupt on, a wake-up, then the device detached under the
 * started port. @return TEST_SUCCESS or TEST_FAILED.
 */
static int
attach_run_detach(unsigned int round)
{
	uint64_t rmv = __atomic_load_n(&g_ev.rmv, __ATOMIC_ACQUIRE);

	TEST_ASSERT_SUCCESS(attach("ports=1,wire=loop"), "attach %u", round);
	TEST_ASSERT_SUCCESS(port_start(2, 1, 1, 1), "start %u", round);
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, 0, RTE_EPOLL_PER_THREAD,
						      RTE_INTR_EVENT_ADD, NULL), "epoll add");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, 1, RTE_EPOLL_PER_THREAD,
						      RTE_INTR_EVENT_ADD, NULL), "epoll add");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 0), "enable");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 1), "enable");
	TEST_ASSERT_SUCCESS(frame_in(6000 + round), "frame");
	TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, NULL), 1, "no wake-up in round %u", round);
	TEST_ASSERT_SUCCESS(doorbells_clean(), "round %u", round);
	/* Hot-unplug: the event fired and was never taken; the port is started. */
	detach();
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "a port left after detach");
	/* RMV asks the application to remove the port: not for its own detach. */
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_ev.rmv, __ATOMIC_ACQUIRE), rmv,
			  "round %u: an RMV event for the application's own detach", round);
	/* The epoll set holds nothing of the gone port. */
	TEST_ASSERT_EQUAL(wait_rx(0, NULL), 0, "an event of a detached port");
	return TEST_SUCCESS;
}

/* Detach and attach again, three times: no EAL memory, no fd left behind. */
static int
test_net_mlx4v_intr_detach_attach(void)
{
	struct ut_heap h0, h1;
	int fds0, fds1;
	unsigned int i;

	detach();
	/* A first round makes what EAL keeps for good (the lcore's epoll fd, log types). */
	TEST_ASSERT_SUCCESS(attach_run_detach(0), "warm-up");
	ut_heap_get(&h0);
	fds0 = fd_count();
	for (i = 1; i <= 3; i++)
		TEST_ASSERT_SUCCESS(attach_run_detach(i), "round %u", i);
	ut_heap_get(&h1);
	fds1 = fd_count();
	TEST_ASSERT(ut_heap_same(&h0, &h1), "EAL memory leaked over detach/attach");
	TEST_ASSERT_EQUAL(fds0, fds1, "file descriptors leaked over detach/attach");
	return TEST_SUCCESS;
}

static int
testsuite_setup(void)
{
	g_mp = rte_pktmbuf_pool_create("ut_net_mlx4v_intr", 4096, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (g_mp == NULL)
		return TEST_FAILED;
	/* For every port, now and later: the registrations outlive detach and attach. */
	if (rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_LSC, ut_eth_event_cb,
					  &g_ev) != 0 ||
	    rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RMV, ut_eth_event_cb,
					  &g_ev) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
testsuite_teardown(void)
{
	rte_eth_dev_callback_unregister(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_LSC, ut_eth_event_cb,
					&g_ev);
	rte_eth_dev_callback_unregister(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RMV, ut_eth_event_cb,
					&g_ev);
	rte_mempool_free(g_mp);
}

static struct unit_test_suite net_mlx4v_intr_suite = {
	.suite_name = "mlx4v PMD interrupts on the simulated ConnectX-3",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx4v_intr_rxq_wakes),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx4v_intr_rxq_cycles),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx4v_intr_four_queues),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx4v_intr_rxq_errors),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx4v_intr_lsc),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx4v_intr_rmv),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx4v_intr_rmv_fatal),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx4v_intr_detach_attach),
		TEST_CASES_END()
	}
};

static int
test_net_mlx4v_intr(void)
{
	return unit_test_suite_runner(&net_mlx4v_intr_suite);
}

REGISTER_TEST_COMMAND(net_mlx4v_intr_autotest, test_net_mlx4v_intr);
