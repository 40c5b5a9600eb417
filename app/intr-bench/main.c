/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Rx-interrupt wake-up latency: a frame sent on port 0 crosses the wire to port 1,
 * whose Rx queue interrupt (an EQ and MSI vector of the PMD) wakes a worker lcore sleeping in
 * rte_epoll_wait(); the time from the send to the worker's return is measured, and beside
 * it, with the same threads on the same CPUs, a plain eventfd written by the sender and
 * waited on the same way (the floor of any interrupt path through the kernel).
 * Prints p50/p99/max of both (doc/guides/bench/mlx5v_intr.rst).
 *
 * usage: dpdk-mlxv-intr-bench <EAL args: 2 lcores, two ports cabled> -- [-n samples]
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_interrupts.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#define IB_RING 256
#define IB_MBUFS 2047

enum ib_mode { IB_ETHDEV, IB_EVENTFD };

static struct {
	enum ib_mode mode;
	unsigned int n;
	int efd;                        /* IB_EVENTFD */
	struct rte_epoll_event efd_ev;
	uint64_t *sent, *woke;          /* ns, per sample */
	volatile unsigned int armed;    /* samples the worker is ready for */
	volatile unsigned int done;     /* samples the worker finished */
	volatile int error;
} ib;

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The sleeping side: arm, sleep, record the wake-up, consume, repeat. */
static int
worker(void *arg)
{
	struct rte_epoll_event ev;
	struct rte_mbuf *pkts[32];
	unsigned int i;
	uint64_t v;
	int n;

	RTE_SET_USED(arg);
	/* The epoll set is per thread: the worker joins its source to its own set. */
	if (ib.mode == IB_ETHDEV)
		n = rte_eth_dev_rx_intr_ctl_q(1, 0, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD, NULL);
	else
		n = rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_ADD, ib.efd, &ib.efd_ev);
	if (n != 0) {
		printf("intr-bench: cannot wait for the %s: %s\n",
		       ib.mode == IB_ETHDEV ? "Rx queue interrupt" : "eventfd", strerror(-n));
		ib.error = 1;
		return 0;
	}
	for (i = 0; i < ib.n && !ib.error; i++) {
		if (ib.mode == IB_ETHDEV && rte_eth_dev_rx_intr_enable(1, 0) != 0) {
			ib.error = 1;
			break;
		}
		__atomic_store_n(&ib.armed, i + 1, __ATOMIC_RELEASE);
		do {
			n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, &ev, 1, 5000);
		} while (n < 0 && errno == EINTR);
		ib.woke[i] = now_ns();
		if (n != 1) {
			printf("intr-bench: sample %u: no wake-up in 5 s\n", i);
			ib.error = 1;
			break;
		}
		if (ib.mode == IB_ETHDEV) {
			rte_eth_dev_rx_intr_disable(1, 0);
			/* The frame that woke us (a burst may come a moment after the event). */
			while (rte_eth_rx_burst(1, 0, pkts, RTE_DIM(pkts)) == 0 && !ib.error)
				;
			n = rte_eth_rx_burst(1, 0, pkts + 1, RTE_DIM(pkts) - 1) + 1;
			rte_pktmbuf_free_bulk(pkts, n);
		} else if (read(ib.efd, &v, sizeof(v)) != sizeof(v)) {
			ib.error = 1;
		}
		__atomic_store_n(&ib.done, i + 1, __ATOMIC_RELEASE);
	}
	if (ib.mode == IB_ETHDEV)
		rte_eth_dev_rx_intr_ctl_q(1, 0, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_DEL, NULL);
	else
		rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_DEL, ib.efd, &ib.efd_ev);
	return 0;
}

static int
port_init(uint16_t port, struct rte_mempool *mp, int rxq_intr)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.intr_conf.rxq = rxq_intr;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, IB_RING, rte_eth_dev_socket_id(port), NULL,
					     mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, IB_RING, rte_eth_dev_socket_id(port), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret == 0)
		ret = rte_eth_promiscuous_enable(port);
	if (ret != 0)
		printf("intr-bench: port %u: %s\n", port, rte_strerror(-ret));
	return ret;
}

static struct rte_mbuf *
frame(struct rte_mempool *mp)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct rte_ether_hdr *eth;

	if (m == NULL)
		return NULL;
	eth = (void *)rte_pktmbuf_append(m, 60);
	if (eth == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(eth, 0, 60);
	memset(&eth->dst_addr, 0xff, sizeof(eth->dst_addr));
	eth->src_addr.addr_bytes[0] = 0x02;
	eth->ether_type = rte_cpu_to_be_16(0x88b5); /* local experimental */
	return m;
}

/* One series in mode; the worker runs on lcore wl. @return 0 or -1. */
static int
series(enum ib_mode mode, unsigned int wl, struct rte_mempool *mp)
{
	struct rte_mbuf *m;
	unsigned int i;
	uint64_t one = 1;

	ib.mode = mode;
	ib.armed = ib.done = 0;
	ib.error = 0;
	if (rte_eal_remote_launch(worker, NULL, wl) != 0)
		return -1;
	for (i = 0; i < ib.n && !ib.error; i++) {
		while (__atomic_load_n(&ib.armed, __ATOMIC_ACQUIRE) != i + 1 && !ib.error)
			;
		/* Let the worker reach epoll_wait: we measure a sleeper's wake-up, not a spin. */
		usleep(200);
		if (mode == IB_ETHDEV) {
			m = frame(mp);
			ib.sent[i] = now_ns();
			if (m == NULL || rte_eth_tx_burst(0, 0, &m, 1) != 1) {
				rte_pktmbuf_free(m);
				ib.error = 1;
			}
		} else {
			ib.sent[i] = now_ns();
			if (write(ib.efd, &one, sizeof(one)) != sizeof(one))
				ib.error = 1;
		}
		while (__atomic_load_n(&ib.done, __ATOMIC_ACQUIRE) != i + 1 && !ib.error)
			;
	}
	rte_eal_wait_lcore(wl);
	return ib.error ? -1 : 0;
}

static void
report(const char *what)
{
	unsigned int i;

	for (i = 0; i < ib.n; i++)
		ib.woke[i] -= ib.sent[i];
	qsort(ib.woke, ib.n, sizeof(ib.woke[0]), cmp_u64);
	printf("intr-bench: %-28s samples %u  p50 %.1f us  p99 %.1f us  max %.1f us\n", what,
	       ib.n, ib.woke[ib.n / 2] / 1e3, ib.woke[(ib.n * 99) / 100] / 1e3,
	       ib.woke[ib.n - 1] / 1e3);
}

int
main(int argc, char **argv)
{
	struct rte_mempool *mp = NULL;
	unsigned int wl;
	int ret, opt, rc = 1;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("intr-bench: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	ib.n = 2000;
	ib.efd = -1;
	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			goto usage;
		ib.n = strtoul(optarg, NULL, 0);
	}
	wl = rte_get_next_lcore(-1, 1, 0);
	if (ib.n < 10 || ib.n > 1000000 || wl >= RTE_MAX_LCORE || rte_eth_dev_count_avail() < 2)
		goto usage;
	ib.sent = calloc(ib.n, sizeof(*ib.sent));
	ib.woke = calloc(ib.n, sizeof(*ib.woke));
	ib.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	mp = rte_pktmbuf_pool_create("intr_bench", IB_MBUFS, 64, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (ib.sent == NULL || ib.woke == NULL || ib.efd < 0 || mp == NULL ||
	    port_init(0, mp, 0) != 0 || port_init(1, mp, 1) != 0)
		goto out;
	ib.efd_ev.epdata.event = EPOLLIN;
	printf("intr-bench: worker on lcore %u, sender on lcore %u\n", wl, rte_lcore_id());
	if (series(IB_EVENTFD, wl, mp) != 0)
		goto out;
	report("eventfd (floor)");
	if (series(IB_ETHDEV, wl, mp) != 0)
		goto out;
	report("frame -> Rx interrupt");
	rc = 0;
out:
	if (rte_eth_dev_count_avail() >= 2) {
		rte_eth_dev_stop(0);
		rte_eth_dev_stop(1);
		rte_eth_dev_close(0);
		rte_eth_dev_close(1);
	}
	rte_mempool_free(mp);
	if (ib.efd >= 0)
		close(ib.efd);
	free(ib.sent);
	free(ib.woke);
	rte_eal_cleanup();
	return rc;
usage:
	printf("usage: dpdk-mlxv-intr-bench <EAL args: 2 lcores, 2 cabled ports> -- "
	       "[-n samples, 10 to 10^6]\n");
	goto out;
}
