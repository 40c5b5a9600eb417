/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Helpers of the PMD interrupt tests (net_mlx5v_intr, net_mlx4v_intr): a port started
 * with the interrupts asked for, a bounded wait on the lcore's Rx interrupt epoll set, and an
 * event callback that counts LSC and RMV events.
 */

#ifndef _UT_ETHDEV_H_
#define _UT_ETHDEV_H_

#include <stdint.h>
#include <string.h>

#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>

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

#endif /* _UT_ETHDEV_H_ */
