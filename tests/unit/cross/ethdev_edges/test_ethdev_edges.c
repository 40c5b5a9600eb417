/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The edges of the ethdev surface of both PMDs, each on two simulated ports cabled to
 * each other: calls an application may make in any state (Tx done cleanup, Rx queue count on
 * queues never set up, never started or not configured) answer without crashing; and every
 * ring size from the advertised nb_min to nb_max carries traffic both ways, every frame
 * received, with the minimum ring wrapped many times; and a statistics reset is not lost to a
 * burst that adds to a counter across it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "test.h"

#include "mlxv_ethdev_stats.h"
#include "ut_common.h"

#define MLX4_DEV "mlx4v_sim0"
#define MLX5_DEV0 "mlx5v_sim0"
#define MLX5_DEV1 "mlx5v_sim1"
/* Enough mbufs for the largest Rx ring of both ports, their Tx rings and the frames out. */
#define NB_MBUF (2 * 32768 + 2048)
/* Room for a 1518-byte frame: the default MTU without scatter. */
#define MBUF_ROOM (RTE_PKTMBUF_HEADROOM + 1536)
#define FRAME_LEN 64
/* Frames per direction per ring size: the smallest ring wraps several times. */
#define RING_FRAMES 256
#define RING_BURST 8

/* The two ports of one PMD under test. */
struct ut_pair {
	const char *pmd;
	uint16_t port[2];
	struct rte_ether_addr mac[2];
};

static struct rte_mempool *g_mp;
static struct ut_pair g_pair[2];

/* Configure port with nq Rx and Tx queues, set up the first `setup` of each of ring nd. */
static int
pair_conf(uint16_t port, uint16_t nq, uint16_t setup, uint16_t nd)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	if (nq > 1)
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	ret = rte_eth_dev_configure(port, nq, nq, &conf);
	for (q = 0; ret == 0 && q < setup; q++)
		ret = rte_eth_rx_queue_setup(port, q, nd, 0, NULL, g_mp);
	for (q = 0; ret == 0 && q < setup; q++)
		ret = rte_eth_tx_queue_setup(port, q, nd, 0, NULL);
	return ret;
}

/* Both ports stopped and their mbufs back: the state every case starts and ends in. */
static int
pair_down(const struct ut_pair *p)
{
	int i;

	for (i = 0; i < 2; i++)
		if (rte_eth_dev_stop(p->port[i]) != 0)
			return -1;
	return 0;
}

/* The frame number seq from port `from` of p to the other port. */
static struct rte_mbuf *
frame(const struct ut_pair *p, int from, uint32_t seq)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_mp);
	struct rte_ether_hdr *eth;
	uint8_t *d;
	uint32_t i;

	if (m == NULL)
		return NULL;
	d = (uint8_t *)rte_pktmbuf_append(m, FRAME_LEN);
	eth = (struct rte_ether_hdr *)d;
	eth->dst_addr = p->mac[!from];
	eth->src_addr = p->mac[from];
	eth->ether_type = rte_cpu_to_be_16(0x88b5);
	for (i = sizeof(*eth); i < FRAME_LEN; i++)
		d[i] = (uint8_t)(seq + i);
	memcpy(d + sizeof(*eth), &seq, sizeof(seq));
	return m;
}

/* Send n frames seq.. from port `from`, all taken (bounded retries). @return 0 or -1. */
static int
send_n(const struct ut_pair *p, int from, uint32_t seq, uint16_t n)
{
	struct rte_mbuf *tx[RING_BURST];
	uint16_t i, done = 0;
	unsigned int polls;

	for (i = 0; i < n; i++) {
		tx[i] = frame(p, from, seq + i);
		if (tx[i] == NULL) {
			rte_pktmbuf_free_bulk(tx, i);
			return -1;
		}
	}
	for (polls = 0; done < n && polls < UT_WAIT_LIMIT_MS; polls++) {
		done += rte_eth_tx_burst(p->port[from], 0, tx + done, n - done);
		if (done < n)
			ut_sleep_ms(1);
	}
	if (done < n) {
		printf("%s: port %u took %u of %u frames\n", p->pmd, p->port[from], done, n);
		rte_pktmbuf_free_bulk(tx + done, n - done);
		return -1;
	}
	return 0;
}

/* Receive the n frames seq.. on port `to`, in order and whole. @return 0 or -1. */
static int
recv_n(const struct ut_pair *p, int to, uint32_t seq, uint16_t n)
{
	struct rte_mbuf *rx[RING_BURST];
	uint16_t got = 0, k, i;
	unsigned int polls;
	uint32_t s;
	int bad = 0;

	for (polls = 0; got < n && polls < UT_WAIT_LIMIT_MS; polls++) {
		k = rte_eth_rx_burst(p->port[to], 0, rx, RTE_DIM(rx));
		for (i = 0; i < k; i++) {
			memcpy(&s, rte_pktmbuf_mtod_offset(rx[i], uint8_t *, RTE_ETHER_HDR_LEN),
			       sizeof(s));
			if (rx[i]->pkt_len != FRAME_LEN || s != seq + got + i)
				bad = 1;
		}
		rte_pktmbuf_free_bulk(rx, k);
		got += k;
		if (got < n && k == 0)
			ut_sleep_ms(1);
	}
	if (got != n || bad) {
		printf("%s: port %u received %u of %u frames%s\n", p->pmd, p->port[to], got, n,
		       bad ? ", some not as sent" : "");
		return -1;
	}
	return 0;
}

/*
 * Ring nd on both ports of p: bursts from port 0, single frames back from port 1, each
 * received before the next, as an echo application would (probe-ethdev.md, finding 7).
 */
static int
ring_traffic(const struct ut_pair *p, uint16_t nd)
{
	/* No more frames in flight than the Rx ring holds: none is dropped for want of room. */
	uint16_t burst = RTE_MIN(nd, RING_BURST);
	uint32_t seq;
	int i;

	for (i = 0; i < 2; i++)
		if (pair_conf(p->port[i], 1, 1, nd) != 0 || rte_eth_dev_start(p->port[i]) != 0) {
			printf("%s: ring %u: port %u does not start\n", p->pmd, nd, p->port[i]);
			return -1;
		}
	for (seq = 0; seq < RING_FRAMES; seq += burst) {
		if (send_n(p, 0, seq, burst) != 0 || recv_n(p, 1, seq, burst) != 0 ||
		    send_n(p, 1, seq, 1) != 0 || recv_n(p, 0, seq, 1) != 0) {
			printf("%s: ring %u: lost at frame %u\n", p->pmd, nd, seq);
			pair_down(p);
			return -1;
		}
	}
	return pair_down(p);
}

/* Every power-of-two ring from nb_min to nb_max, on both PMDs. */
static int
test_ethdev_edges_ring_sizes(void)
{
	struct rte_eth_dev_info info;
	unsigned int k, avail = rte_mempool_avail_count(g_mp);
	uint32_t nd, lo, hi;

	for (k = 0; k < RTE_DIM(g_pair); k++) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_pair[k].port[0], &info), "info");
		lo = RTE_MAX(RTE_MAX(info.rx_desc_lim.nb_min, info.tx_desc_lim.nb_min), 1);
		hi = RTE_MIN(info.rx_desc_lim.nb_max, info.tx_desc_lim.nb_max);
		TEST_ASSERT(lo <= hi && hi <= 32768, "%s: limits %u..%u", g_pair[k].pmd, lo, hi);
		for (nd = rte_align32pow2(lo); nd <= hi; nd <<= 1)
			TEST_ASSERT_SUCCESS(ring_traffic(&g_pair[k], (uint16_t)nd),
					    "%s: ring of %u", g_pair[k].pmd, nd);
		TEST_ASSERT_EQUAL(rte_mempool_avail_count(g_mp), avail, "%s: mbufs lost",
				  g_pair[k].pmd);
	}
	return TEST_SUCCESS;
}

/*
 * rte_eth_tx_done_cleanup() in every queue state: set up on a port never started, configured
 * but never set up; and rte_eth_rx_queue_count() for a queue that is not set up on a
 * started port. ethdev 22.11 hands the driver what it has (NULL included).
 */
static int
test_ethdev_edges_misuse(void)
{
	unsigned int k;
	uint16_t port;
	int ret;

	for (k = 0; k < RTE_DIM(g_pair); k++) {
		port = g_pair[k].port[0];
		/* Configured, not set up (queue 1 of 2, new since the first configure). */
		TEST_ASSERT_SUCCESS(pair_conf(port, 1, 1, 256), "%s: configure", g_pair[k].pmd);
		TEST_ASSERT_SUCCESS(pair_conf(port, 2, 1, 256), "%s: configure", g_pair[k].pmd);
		ret = rte_eth_tx_done_cleanup(port, 1, 0);
		TEST_ASSERT(ret == -EINVAL || ret == -ENOTSUP, "%s: cleanup of a queue not set "
			    "up: %d", g_pair[k].pmd, ret);
		/* Set up, never started. */
		TEST_ASSERT_SUCCESS(pair_conf(port, 2, 2, 256), "%s: set up", g_pair[k].pmd);
		ret = rte_eth_tx_done_cleanup(port, 1, 0);
		TEST_ASSERT(ret == 0 || ret == -ENOTSUP, "%s: cleanup before start: %d",
			    g_pair[k].pmd, ret);
		TEST_ASSERT_SUCCESS(pair_conf(port, 1, 1, 256), "%s: configure", g_pair[k].pmd);
		TEST_ASSERT_SUCCESS(rte_eth_dev_start(port), "%s: start", g_pair[k].pmd);
		TEST_ASSERT_EQUAL(rte_eth_tx_done_cleanup(port, 0, 0), 0, "%s: nothing sent",
				  g_pair[k].pmd);
		/* Queue 1 of a port with one: not configured (ethdev's array holds NULL). */
		ret = rte_eth_rx_queue_count(port, 1);
		TEST_ASSERT(ret == -EINVAL || ret == -ENOTSUP, "%s: Rx count of no queue: %d",
			    g_pair[k].pmd, ret);
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "%s: stop", g_pair[k].pmd);
	}
	return TEST_SUCCESS;
}


static int
pair_attach(struct ut_pair *p, const char *pmd, const char *n0, const char *n1)
{
	int i;

	p->pmd = pmd;
	if (rte_eth_dev_get_port_by_name(n0, &p->port[0]) != 0 ||
	    rte_eth_dev_get_port_by_name(n1, &p->port[1]) != 0)
		return -1;
	for (i = 0; i < 2; i++)
		if (rte_eth_macaddr_get(p->port[i], &p->mac[i]) != 0)
			return -1;
	return 0;
}

static int
testsuite_setup(void)
{
	g_mp = rte_pktmbuf_pool_create("ut_ethdev_edges", NB_MBUF, 256, 0, MBUF_ROOM, 0);
	if (g_mp == NULL)
		return TEST_FAILED;
	/* Two ports of one ConnectX-3 cabled to each other; two mlx5 functions likewise. */
	if (rte_vdev_init(MLX4_DEV, "ports=2,mode=pair") != 0 ||
	    ut_eal_devargs_add(MLX5_DEV1 ",wire=pair:" MLX5_DEV0) == NULL ||
	    rte_vdev_init(MLX5_DEV0, "wire=pair:" MLX5_DEV1) != 0 ||
	    rte_vdev_init(MLX5_DEV1, "wire=pair:" MLX5_DEV0) != 0)
		return TEST_FAILED;
	if (pair_attach(&g_pair[0], "net_mlx4v", MLX4_DEV " port 1", MLX4_DEV " port 2") != 0 ||
	    pair_attach(&g_pair[1], "net_mlx5v", MLX5_DEV0, MLX5_DEV1) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

/* A queue as the PMDs keep its counters (mlxv_ethdev_stats.h). */
struct ut_stats_q {
	uint64_t packets, bytes, errors, nombuf;
	uint64_t stats_base[MLXV_STATS_N];
};

/*
 * A burst loads a counter, the control thread resets the statistics, the burst stores its sum
 * (an idle queue's burst adds 0): the reset must hold. Zeroing the counters from the control
 * thread lost it (the old value stored back), so "clear port stats" on a polled port could
 * leave the counts of before (seen as a flaky per-queue count in the rte_flow scripts).
 */
static int
test_ethdev_edges_stats_reset_race(void)
{
	static const struct mlxv_stats_fields f =
		MLXV_STATS_FIELDS(struct ut_stats_q, MLXV_STATS_NONE,
				  offsetof(struct ut_stats_q, nombuf));
	struct ut_stats_q q = { .packets = 10, .bytes = 640, .nombuf = 2 };
	struct rte_eth_dev_data data = { .nb_rx_queues = 1, .nb_tx_queues = 1 };
	struct rte_eth_dev dev = { .data = &data };
	void *queues[1] = { &q };
	struct rte_eth_stats st;
	uint64_t loaded_packets, loaded_bytes;

	data.rx_queues = queues;
	data.tx_queues = queues;
	/* The burst's loads, then the reset, then its stores of what it loaded plus 0. */
	loaded_packets = q.packets;
	loaded_bytes = q.bytes;
	mlxv_stats_clear(&dev, &f, &f);
	q.packets = loaded_packets + 0;
	q.bytes = loaded_bytes + 0;
	memset(&st, 0, sizeof(st));
	mlxv_stats_fold(&dev, &f, &f, &st);
	TEST_ASSERT_EQUAL(st.ipackets, 0u, "a reset lost to a burst: %" PRIu64 " packets",
			  st.ipackets);
	TEST_ASSERT_EQUAL(st.ibytes, 0u, "a reset lost to a burst: %" PRIu64 " bytes", st.ibytes);
	TEST_ASSERT_EQUAL(st.rx_nombuf, 0u, "rx_nombuf not reset");
	TEST_ASSERT_EQUAL(st.q_ipackets[0], 0u, "queue 0 not reset");
	/* Counting goes on from the reset. */
	q.packets += 3;
	q.bytes += 192;
	memset(&st, 0, sizeof(st));
	mlxv_stats_fold(&dev, &f, &f, &st);
	TEST_ASSERT(st.ipackets == 3 && st.opackets == 3 && st.ibytes == 192,
		    "after the reset: %" PRIu64 " in, %" PRIu64 " out", st.ipackets, st.opackets);
	return TEST_SUCCESS;
}

static void
testsuite_teardown(void)
{
	rte_vdev_uninit(MLX5_DEV1);
	rte_vdev_uninit(MLX5_DEV0);
	rte_vdev_uninit(MLX4_DEV);
	rte_mempool_free(g_mp);
}

static struct unit_test_suite ethdev_edges_suite = {
	.suite_name = "both PMDs at the edges of the ethdev surface",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_ethdev_edges_misuse),
		TEST_CASE(test_ethdev_edges_ring_sizes),
		TEST_CASE(test_ethdev_edges_stats_reset_race),
		TEST_CASES_END()
	}
};

static int
test_ethdev_edges(void)
{
	return unit_test_suite_runner(&ethdev_edges_suite);
}

REGISTER_TEST_COMMAND(ethdev_edges_autotest, test_ethdev_edges);
