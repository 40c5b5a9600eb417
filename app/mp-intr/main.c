/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file A client of Rx interrupts in several processes: every process (one primary, the
 * others --proc-type=secondary) sleeps in rte_epoll_wait() on the Rx interrupts of its own
 * queues of port 0 (queue q is process q % N's), as l3fwd-power's lcores do, and when woken
 * forwards what they hold to the same queues of port 1. The primary configures both ports
 * (--queues queue pairs, N by default; RSS; intr_conf.rxq) and on SIGUSR1 stops and starts
 * them again. A wait that times out receives nothing: frames leave only through a wake-up by
 * an interrupt. SIGINT or SIGTERM ends a process, which prints
 * "proc <id>: woke <n> times, forwarded <m> frames".
 *
 * usage: dpdk-mlxv-mp-intr <EAL args> -- --num-procs N --proc-id I [--queues Q]
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#define MI_RING 256
#define MI_MBUFS 8191
#define MI_BURST 32
/* A wait that ends without an event re-registers the queue (a restart removed it). */
#define MI_WAIT_MS 100
#define MI_POOL "mlxv_mp_intr_pool"
#define MI_MAX_QUEUES 16

static volatile sig_atomic_t mi_quit, mi_restart;

static void
mi_signal(int sig)
{
	if (sig == SIGUSR1)
		mi_restart = 1;
	else
		mi_quit = 1;
}

static int
mi_port_init(uint16_t port, uint16_t nq, struct rte_mempool *mp)
{
	struct rte_eth_conf conf = {
		.rxmode = { .mq_mode = RTE_ETH_MQ_RX_RSS },
		.rx_adv_conf.rss_conf = { .rss_hf = RTE_ETH_RSS_IP },
		.intr_conf = { .rxq = 1 },
	};
	struct rte_eth_dev_info info;
	uint16_t q;
	int ret;

	ret = rte_eth_dev_info_get(port, &info);
	if (ret != 0)
		return ret;
	conf.rx_adv_conf.rss_conf.rss_hf &= info.flow_type_rss_offloads;
	ret = rte_eth_dev_configure(port, nq, nq, &conf);
	for (q = 0; ret == 0 && q < nq; q++)
		ret = rte_eth_rx_queue_setup(port, q, MI_RING, rte_socket_id(), NULL, mp);
	for (q = 0; ret == 0 && q < nq; q++)
		ret = rte_eth_tx_queue_setup(port, q, MI_RING, rte_socket_id(), NULL);
	if (ret == 0)
		ret = rte_eth_promiscuous_enable(port);
	return ret != 0 ? ret : rte_eth_dev_start(port);
}

/* Forward what Rx queue q of port 0 holds to Tx queue q of port 1. @return frames. */
static unsigned int
mi_drain(uint16_t q)
{
	struct rte_mbuf *pkts[MI_BURST];
	unsigned int total = 0;
	uint16_t n, sent;

	while ((n = rte_eth_rx_burst(0, q, pkts, MI_BURST)) > 0) {
		sent = rte_eth_tx_burst(1, q, pkts, n);
		if (sent < n)
			rte_pktmbuf_free_bulk(&pkts[sent], n - sent);
		total += n;
	}
	return total;
}

/*
 * Register (once per start: a restart removes the registrations) and enable the interrupts
 * of this process's queues first, first + step, .. < nq. @return 0, or the first error
 * (-EAGAIN, say, while the primary restarts the port).
 */
static int
mi_arm(uint16_t first, uint16_t step, uint16_t nq, int *registered)
{
	uint16_t q;
	int ret;

	for (q = first; q < nq; q += step) {
		if (!*registered) {
			ret = rte_eth_dev_rx_intr_ctl_q(0, q, RTE_EPOLL_PER_THREAD,
							RTE_INTR_EVENT_ADD, NULL);
			if (ret != 0)
				return ret;
		}
		ret = rte_eth_dev_rx_intr_enable(0, q);
		if (ret != 0)
			return ret;
	}
	*registered = 1;
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "num-procs", required_argument, NULL, 'n' },
		{ "proc-id", required_argument, NULL, 'i' },
		{ "queues", required_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	int primary, ret, c, registered = 0, woken = 1, last_err = 0;
	unsigned int nprocs = 0, id = 0, nq = 0;
	struct rte_epoll_event ev[MI_MAX_QUEUES];
	uint64_t wakeups = 0, frames = 0;
	struct rte_mempool *mp;
	uint16_t port, q;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "EAL: %s\n", rte_strerror(rte_errno));
	argc -= ret;
	argv += ret;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'n')
			nprocs = atoi(optarg);
		else if (c == 'i')
			id = atoi(optarg);
		else if (c == 'q')
			nq = atoi(optarg);
		else
			rte_exit(EXIT_FAILURE,
				 "usage: -- --num-procs N --proc-id I [--queues Q]\n");
	}
	nq = nq != 0 ? nq : nprocs;
	if (nprocs == 0 || id >= nprocs || nq < nprocs || nq > MI_MAX_QUEUES ||
	    rte_eth_dev_count_avail() < 2)
		rte_exit(EXIT_FAILURE, "need --num-procs N > --proc-id, N <= --queues <= %d and "
			 "two ports\n", MI_MAX_QUEUES);
	primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	signal(SIGINT, mi_signal);
	signal(SIGTERM, mi_signal);
	signal(SIGUSR1, mi_signal);
	if (primary) {
		mp = rte_pktmbuf_pool_create(MI_POOL, MI_MBUFS, 256, 0,
					     RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
		if (mp == NULL)
			rte_exit(EXIT_FAILURE, "mempool: %s\n", rte_strerror(rte_errno));
		for (port = 0; port < 2; port++) {
			ret = mi_port_init(port, nq, mp);
			if (ret != 0)
				rte_exit(EXIT_FAILURE, "port %u: %s\n", port, strerror(-ret));
		}
	}
	printf("proc %u: sleeping on Rx queues %u.. (every %u-th) of port 0\n", id, id, nprocs);
	fflush(stdout);
	while (!mi_quit) {
		if (primary && mi_restart) {
			mi_restart = 0;
			for (port = 0; port < 2; port++)
				if (rte_eth_dev_stop(port) != 0 || rte_eth_dev_start(port) != 0)
					rte_exit(EXIT_FAILURE, "port %u: restart failed\n", port);
			registered = 0;
			woken = 1;
			printf("proc %u: ports restarted\n", id);
			fflush(stdout);
		}
		/* Frames leave only after a wake-up by an interrupt (or the first pass). */
		for (q = id; woken && q < nq; q += nprocs)
			frames += mi_drain(q);
		woken = 0;
		ret = mi_arm(id, nprocs, nq, &registered);
		if (ret != last_err && ret != 0)
			/* Said once per change: -EAGAIN while the primary restarts the port. */
			printf("proc %u: Rx interrupts: %s\n", id, strerror(-ret));
		last_err = ret;
		if (ret != 0) {
			/* The port is stopped (or not started in this process yet). */
			registered = 0;
			usleep(10000);
			continue;
		}
		ret = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, RTE_DIM(ev), MI_WAIT_MS);
		for (q = id; q < nq; q += nprocs)
			rte_eth_dev_rx_intr_disable(0, q);
		if (ret > 0) {
			wakeups++;
			woken = 1;
		} else {
			/* Perhaps no event any more: a restart removed the registrations. */
			registered = 0;
		}
	}
	printf("proc %u: woke %" PRIu64 " times, forwarded %" PRIu64 " frames\n", id, wakeups,
	       frames);
	fflush(stdout);
	if (primary)
		for (port = 0; port < 2; port++) {
			rte_eth_dev_stop(port);
			rte_eth_dev_close(port);
		}
	rte_eal_cleanup();
	return 0;
}
