/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Helpers of the PMD interrupt tests (net_mlx5v_intr, net_mlx4v_intr): a port started
 * with the interrupts asked for, a bounded wait on the lcore's Rx interrupt epoll set, an
 * event callback that counts LSC and RMV events, and the checks both PMDs pass the same way
 * (enable/disable cycles of an Rx queue, LSC events for a cable pulled and put back), and a
 * UDP frame to send or inject.
 * Include after test.h.
 */

#ifndef _UT_ETHDEV_H_
#define _UT_ETHDEV_H_

#include <stdint.h>
#include <string.h>

#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>

#include "ut_common.h"

/** What ut_eth_event_cb() saw: counts, and the link status read at the last LSC. */
struct ut_eth_events {
	uint64_t lsc;
	uint64_t rmv;
	int lsc_status;
};

/**
 * Configure nq Rx queues (RSS over rss_hf when nq > 1) and one Tx queue of 256 descriptors
 * with intr_conf (rxq, lsc, rmv), set them up on mp, start. @return 0 or -errno.
 */
static inline int
ut_eth_port_start(uint16_t port, uint16_t nq, uint64_t rss_hf, int rxq, int lsc, int rmv,
		  struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	if (nq > 1) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = rss_hf;
	}
	conf.intr_conf.rxq = rxq;
	conf.intr_conf.lsc = lsc;
	conf.intr_conf.rmv = rmv;
	ret = rte_eth_dev_configure(port, nq, 1, &conf);
	for (q = 0; ret == 0 && q < nq; q++)
		ret = rte_eth_rx_queue_setup(port, q, 256, 0, NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, 256, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

/** Wait up to ms for Rx queue events on this lcore's epoll. @return events, the first's data. */
static inline int
ut_eth_wait_rx(int ms, uintptr_t *data)
{
	struct rte_epoll_event ev[16];
	int n;

	n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, RTE_DIM(ev), ms);
	if (n > 0 && data != NULL)
		*data = (uintptr_t)ev[0].epdata.data;
	return n;
}

/** The only ethdev port (a device of ports=1 alone). @return 0, or -1 for none or several. */
static inline int
ut_eth_only_port(uint16_t *only)
{
	uint16_t port, n = 0;

	RTE_ETH_FOREACH_DEV(port) {
		*only = port;
		n++;
	}
	return n == 1 ? 0 : -1;
}

/**
 * A 64-byte IPv4/UDP frame in f (10.0.0.1 to 10.0.0.2, UDP port sport to 9) to the MAC dst,
 * from a fixed locally administered source; sport varies the RSS hash.
 */
static inline void
ut_eth_udp4_frame(uint8_t f[64], const struct rte_ether_addr *dst, uint16_t sport)
{
	memset(f, 0, 64);
	memcpy(f, dst->addr_bytes, RTE_ETHER_ADDR_LEN);
	memcpy(f + 6, "\x02\x00\x00\x00\x00\x99", RTE_ETHER_ADDR_LEN);
	f[12] = 0x08;                                    /* IPv4 */
	f[14] = 0x45;                                    /* version 4, 20-byte header */
	f[17] = 50;                                      /* total length */
	f[22] = 64;                                      /* TTL */
	f[23] = 17;                                      /* UDP */
	memcpy(f + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	f[34] = sport >> 8;
	f[35] = sport & 0xff;
	f[37] = 9;                                       /* dport 9 */
	f[39] = 30;                                      /* UDP length */
}

/** ethdev callback counting LSC and RMV events in the struct ut_eth_events arg. */
static inline int
ut_eth_event_cb(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret)
{
	struct ut_eth_events *e = arg;
	struct rte_eth_link link;

	RTE_SET_USED(ret);
	if (type == RTE_ETH_EVENT_INTR_LSC) {
		/* With intr_conf.lsc this reads what the PMD stored before raising the event. */
		if (rte_eth_link_get_nowait(port, &link) == 0)
			__atomic_store_n(&e->lsc_status, link.link_status, __ATOMIC_RELAXED);
		__atomic_fetch_add(&e->lsc, 1, __ATOMIC_RELEASE);
	} else if (type == RTE_ETH_EVENT_INTR_RMV) {
		__atomic_fetch_add(&e->rmv, 1, __ATOMIC_RELEASE);
	}
	return 0;
}

/** What makes an Rx queue event on the simulated device, and what the Rx burst does with it. */
struct ut_eth_rx_ops {
	/** One completion on queue q (a frame, a CQE); i varies it. @return 0 or -errno. */
	int (*in)(uint16_t q, unsigned int i);
	/** Consume that one completion of queue q. @return 0, or -1 if it was not there. */
	int (*take)(uint16_t q);
};

/**
 * n enable/disable cycles of Rx queue q (epoll-added on this lcore), each with its event:
 * nothing wakes before the completion (the first cycle waits quiet_ms), the completion wakes
 * the lcore once, disable, the completion is taken. @return TEST_SUCCESS or TEST_FAILED.
 */
static inline int
ut_eth_rx_intr_cycles(uint16_t port, uint16_t q, unsigned int n, int quiet_ms,
		      const struct ut_eth_rx_ops *ops)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(port, q), "enable %u", i);
		TEST_ASSERT_EQUAL(ut_eth_wait_rx(i == 0 ? quiet_ms : 0, NULL), 0,
				  "woken early %u", i);
		TEST_ASSERT_SUCCESS(ops->in(q, i), "completion %u", i);
		TEST_ASSERT_EQUAL(ut_eth_wait_rx(UT_WAIT_LIMIT_MS, NULL), 1,
				  "no wake-up in cycle %u", i);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(port, q), "disable %u", i);
		TEST_ASSERT_SUCCESS(ops->take(q), "cycle %u: completion", i);
	}
	return TEST_SUCCESS;
}

/**
 * Rx queue q (epoll-added, interrupt disabled): a completion (ops->in(q, i)) while disabled
 * wakes nothing within quiet_ms; the next enable arms behind it and the event comes at once;
 * disable, the completion is taken. @return TEST_SUCCESS or TEST_FAILED.
 */
static inline int
ut_eth_rx_intr_pending(uint16_t port, uint16_t q, unsigned int i, int quiet_ms,
		       const struct ut_eth_rx_ops *ops)
{
	TEST_ASSERT_SUCCESS(ops->in(q, i), "completion while disabled");
	TEST_ASSERT_EQUAL(ut_eth_wait_rx(quiet_ms, NULL), 0, "woken while disabled");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(port, q), "enable");
	TEST_ASSERT_EQUAL(ut_eth_wait_rx(UT_WAIT_LIMIT_MS, NULL), 1,
			  "the pending completion was lost");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(port, q), "disable");
	TEST_ASSERT_SUCCESS(ops->take(q), "pending completion");
	return TEST_SUCCESS;
}

/** The port advertises LSC and RMV interrupts. @return TEST_SUCCESS or TEST_FAILED. */
static inline int
ut_eth_intr_advertised(uint16_t port)
{
	struct rte_eth_dev_info info;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(port, &info), "info");
	TEST_ASSERT(*info.dev_flags & RTE_ETH_DEV_INTR_LSC, "LSC not advertised");
	TEST_ASSERT(*info.dev_flags & RTE_ETH_DEV_INTR_RMV, "RMV not advertised");
	return TEST_SUCCESS;
}

/**
 * A port started with intr_conf.lsc, link up, e->lsc at 0: the cable out through
 * link_set(0), then in through link_set(1), each makes one LSC event carrying the new status;
 * the link is up with a speed after. @return TEST_SUCCESS or TEST_FAILED.
 */
static inline int
ut_eth_lsc_cable(uint16_t port, struct ut_eth_events *e, int (*link_set)(int up))
{
	struct rte_eth_link link;

	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "up at start");
	TEST_ASSERT_SUCCESS(link_set(0), "cable out");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&e->lsc, 1), "no LSC event for link down");
	TEST_ASSERT_EQUAL(__atomic_load_n(&e->lsc_status, __ATOMIC_RELAXED), RTE_ETH_LINK_DOWN,
			  "the event's link status");
	TEST_ASSERT_SUCCESS(link_set(1), "cable in");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&e->lsc, 2), "no LSC event for link up");
	TEST_ASSERT_EQUAL(__atomic_load_n(&e->lsc_status, __ATOMIC_RELAXED), RTE_ETH_LINK_UP,
			  "the event's link status");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT(link.link_status == RTE_ETH_LINK_UP && link.link_speed > 0, "link kept");
	return TEST_SUCCESS;
}

#endif /* _UT_ETHDEV_H_ */
