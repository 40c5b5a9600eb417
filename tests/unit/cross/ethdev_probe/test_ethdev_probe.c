/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The ethdev surface of net_mlx5v and net_mlx4v under bad and edge input: two simulated
 * ports cabled together, driven only through the public rte_eth_* API (configure and mq_mode,
 * queue setup and rings nb_min..64 with traffic, lifecycle x100, MTU, MAC tables, broadcast,
 * all-multicast, RSS, malformed Tx mbufs, stats/xstats, interrupts, hot-plug, deferred and
 * stopped queues, reset, queue calls on queues that are not set up). Each case runs in a
 * child process of its own (this program again, with MLXV_PROBE_CASE naming the case), so a
 * crash fails that case only; the parent bounds it in time. See
 * doc/guides/sim/silicon.rst, "Both simulators: ethdev surface".
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "test.h"

#include "ut_common.h"

#define NB_MBUF 8191
#define CASE_ENV "MLXV_PROBE_CASE"
/* A case's process is killed after this: a hang is a failure, not a stuck suite. */
#define CASE_LIMIT_S 240
/* Bounded polling: frames arrive as the simulator's engine delivers them. */
#define RX_POLL_MS 2000
/* The quiet period of "nothing arrives" checks. */
#define QUIET_MS 200
/* Local experimental ethertype: no parser takes these frames for IP. */
#define PROBE_ETHERTYPE 0x88b5

/** The two ports of one PMD, cabled together. */
struct probe_pmd {
	const char *name;
	/* Attach the devices of both ports. @return 0 or -1. */
	int (*attach)(void);
	void (*detach)(void);
};

static const struct probe_pmd *g_pmd;
static struct rte_mempool *g_mp;
static uint16_t g_p0, g_p1;

static int
ports_find(void)
{
	uint16_t p, n = 0;

	RTE_ETH_FOREACH_DEV(p) {
		if (n == 0)
			g_p0 = p;
		else if (n == 1)
			g_p1 = p;
		n++;
	}
	return n == 2 ? 0 : -1;
}

static int
mlx5v_attach(void)
{
	/* The second end's devargs first, so that the first end's pair can name it. */
	if (ut_eal_devargs_add("mlx5v_sim1,wire=pair:mlx5v_sim0") == NULL ||
	    rte_vdev_init("mlx5v_sim0", "wire=pair:mlx5v_sim1") != 0 ||
	    rte_vdev_init("mlx5v_sim1", "wire=pair:mlx5v_sim0") != 0)
		return -1;
	return ports_find();
}

static void
mlx5v_detach(void)
{
	rte_vdev_uninit("mlx5v_sim1");
	rte_vdev_uninit("mlx5v_sim0");
}

static int
mlx4v_attach(void)
{
	if (rte_vdev_init("mlx4v_sim0", "ports=2,mode=pair") != 0)
		return -1;
	return ports_find();
}

static void
mlx4v_detach(void)
{
	rte_vdev_uninit("mlx4v_sim0");
}

static const struct probe_pmd probe_mlx5v = { "mlx5v", mlx5v_attach, mlx5v_detach };
static const struct probe_pmd probe_mlx4v = { "mlx4v", mlx4v_attach, mlx4v_detach };

/* Configure nrx Rx and ntx Tx queues of nd descriptors (the confs may be NULL), start. */
static int
up_conf(uint16_t port, uint16_t nrx, uint16_t ntx, uint16_t nd, struct rte_eth_conf *conf,
	const struct rte_eth_rxconf *rxc, const struct rte_eth_txconf *txc)
{
	uint16_t q;
	int ret;

	ret = rte_eth_dev_configure(port, nrx, ntx, conf);
	for (q = 0; ret == 0 && q < nrx; q++)
		ret = rte_eth_rx_queue_setup(port, q, nd, SOCKET_ID_ANY, rxc, g_mp);
	for (q = 0; ret == 0 && q < ntx; q++)
		ret = rte_eth_tx_queue_setup(port, q, nd, SOCKET_ID_ANY, txc);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

static int
up(uint16_t port, uint16_t nrx, uint16_t ntx, uint16_t nd)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	if (nrx > 1)
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	return up_conf(port, nrx, ntx, nd, &conf, NULL, NULL);
}

static int
ports_up(uint16_t nd)
{
	return up(g_p0, 1, 1, nd) ?: up(g_p1, 1, 1, nd);
}

/* A 64-byte frame to dst from port's MAC; seed varies the payload. @return it or NULL. */
static struct rte_mbuf *
frame(uint16_t from, const struct rte_ether_addr *dst, unsigned int seed)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_mp);
	struct rte_ether_hdr *eth;
	uint8_t *p;
	unsigned int i;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, 64);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	for (i = 0; i < 64; i++)
		p[i] = (uint8_t)(seed + i);
	eth = (struct rte_ether_hdr *)p;
	eth->dst_addr = *dst;
	rte_eth_macaddr_get(from, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(PROBE_ETHERTYPE);
	return m;
}

/* Send n frames to dst on queue 0 of from. @return how many the PMD took. */
static unsigned int
send_to(uint16_t from, const struct rte_ether_addr *dst, unsigned int n)
{
	struct rte_mbuf *m;
	unsigned int i, sent = 0, tries;

	for (i = 0; i < n; i++) {
		m = frame(from, dst, i);
		if (m == NULL)
			break;
		for (tries = 0; tries < 1000; tries++) {
			if (rte_eth_tx_burst(from, 0, &m, 1) == 1)
				break;
			ut_sleep_ms(1);
		}
		if (tries == 1000) {
			rte_pktmbuf_free(m);
			break;
		}
		sent++;
	}
	return sent;
}

/* Send n frames from one port to the other's MAC. */
static unsigned int
send_n(uint16_t from, uint16_t to, unsigned int n)
{
	struct rte_ether_addr dst;

	if (rte_eth_macaddr_get(to, &dst) != 0)
		return 0;
	return send_to(from, &dst, n);
}

/*
 * Receive on every configured Rx queue of port until want frames came or ms passed
 * (the frames are freed). @return how many arrived.
 */
static unsigned int
recv_n(uint16_t port, unsigned int want, unsigned int ms)
{
	struct rte_eth_dev_info info;
	struct rte_mbuf *b[32];
	uint64_t end = ut_now_ms() + ms;
	unsigned int got = 0;
	uint16_t q, n, i;

	if (rte_eth_dev_info_get(port, &info) != 0)
		return 0;
	do {
		for (q = 0; q < info.nb_rx_queues; q++) {
			n = rte_eth_rx_burst(port, q, b, RTE_DIM(b));
			for (i = 0; i < n; i++)
				rte_pktmbuf_free(b[i]);
			got += n;
		}
		if (got >= want && want > 0)
			break;
		ut_sleep_ms(1);
	} while (ut_now_ms() < end);
	return got;
}

/* n frames from one port to the other all arrive. @return TEST_SUCCESS or TEST_FAILED. */
static int
traffic(uint16_t from, uint16_t to, unsigned int n)
{
	unsigned int sent = send_n(from, to, n), got;

	TEST_ASSERT_EQUAL(sent, n, "port %u sent %u of %u", from, sent, n);
	got = recv_n(to, n, RX_POLL_MS);
	TEST_ASSERT_EQUAL(got, n, "port %u received %u of %u", to, got, n);
	return TEST_SUCCESS;
}

/* Stop and close both ports: every mbuf is back in the pool. */
static int
ports_close(void)
{
	rte_eth_dev_stop(g_p0);
	rte_eth_dev_stop(g_p1);
	rte_eth_dev_close(g_p0);
	rte_eth_dev_close(g_p1);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(g_mp), NB_MBUF, "mbufs: %u of %u back",
			  rte_mempool_avail_count(g_mp), NB_MBUF);
	return TEST_SUCCESS;
}

/*
 * mq_mode: only what the PMD implements (Rx NONE or RSS, Tx NONE) is accepted; DCB, VMDq
 * and garbage values are refused by configure with -EINVAL.
 */
static int
probe_cfg_mq(void)
{
	static const int bad_rx[] = { RTE_ETH_MQ_RX_DCB, RTE_ETH_MQ_RX_DCB_RSS,
		RTE_ETH_MQ_RX_VMDQ_ONLY, RTE_ETH_MQ_RX_VMDQ_RSS, RTE_ETH_MQ_RX_VMDQ_DCB,
		RTE_ETH_MQ_RX_VMDQ_DCB_RSS, 77 };
	static const int bad_tx[] = { RTE_ETH_MQ_TX_DCB, RTE_ETH_MQ_TX_VMDQ_DCB,
		RTE_ETH_MQ_TX_VMDQ_ONLY, 55 };
	struct rte_eth_conf c;
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad_rx); i++) {
		memset(&c, 0, sizeof(c));
		c.rxmode.mq_mode = bad_rx[i];
		TEST_ASSERT_EQUAL(rte_eth_dev_configure(g_p0, 4, 4, &c), -EINVAL,
				  "Rx mq_mode %d accepted", bad_rx[i]);
	}
	for (i = 0; i < RTE_DIM(bad_tx); i++) {
		memset(&c, 0, sizeof(c));
		c.txmode.mq_mode = bad_tx[i];
		TEST_ASSERT_EQUAL(rte_eth_dev_configure(g_p0, 4, 4, &c), -EINVAL,
				  "Tx mq_mode %d accepted", bad_tx[i]);
	}
	TEST_ASSERT_SUCCESS(up(g_p0, 4, 4, 256), "RSS on 4 queues after the refusals");
	TEST_ASSERT_SUCCESS(up(g_p1, 1, 1, 256), "peer");
	TEST_ASSERT_SUCCESS(traffic(g_p1, g_p0, 8), "traffic");
	return ports_close();
}

/* Queue setup refusals, and every power-of-two ring from nb_min to 64 carries traffic. */
static int
probe_rings(void)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf c;
	unsigned int nd, r;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_p0, 2, 2, &c), "configure");
	TEST_ASSERT(rte_eth_rx_queue_setup(g_p0, 0, 100, 0, NULL, g_mp) < 0, "Rx ring of 100");
	TEST_ASSERT(rte_eth_tx_queue_setup(g_p0, 0, 100, 0, NULL) < 0, "Tx ring of 100");
	TEST_ASSERT(rte_eth_rx_queue_setup(g_p0, 0, 65535, 0, NULL, g_mp) < 0, "ring of 65535");
	TEST_ASSERT(rte_eth_rx_queue_setup(g_p0, 2, 256, 0, NULL, g_mp) < 0, "queue 2 of 2");
	TEST_ASSERT(rte_eth_tx_queue_setup(g_p0, 2, 256, 0, NULL) < 0, "Tx queue 2 of 2");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(g_p0, 0, 256, 0, NULL, g_mp), "queue 0");
	TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(g_p0, 0, 256, 0, NULL), "Tx queue 0");
	TEST_ASSERT(rte_eth_dev_start(g_p0) < 0, "start with queue 1 not set up");
	for (nd = RTE_MAX(info.rx_desc_lim.nb_min, info.tx_desc_lim.nb_min); nd <= 64; nd *= 2) {
		TEST_ASSERT_SUCCESS(ports_up(nd), "rings of %u", nd);
		for (r = 0; r < 200; r++) {
			/* At most half the ring in flight: a PMD may refill its ring in bulks. */
			TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, RTE_MAX(1u, RTE_MIN(nd / 2, 8u))),
					    "ring %u round %u", nd, r);
			TEST_ASSERT_SUCCESS(traffic(g_p1, g_p0, 1), "ring %u round %u back", nd, r);
		}
		TEST_ASSERT_SUCCESS(ports_close(), "ring %u", nd);
		/* Closed ports come back through a remove and add. */
		g_pmd->detach();
		TEST_ASSERT_SUCCESS(g_pmd->attach(), "attach after ring %u", nd);
	}
	return TEST_SUCCESS;
}

/* One tx_burst of n frames to the other port's MAC. @return how many the PMD took. */
static unsigned int
burst_to(uint16_t from, uint16_t to, unsigned int n)
{
	struct rte_ether_addr dst;
	struct rte_mbuf *m[32];
	unsigned int i, k = 0;
	uint16_t sent;

	if (n > RTE_DIM(m) || rte_eth_macaddr_get(to, &dst) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		m[k] = frame(from, &dst, i);
		if (m[k] != NULL)
			k++;
	}
	sent = rte_eth_tx_burst(from, 0, m, k);
	for (i = sent; i < k; i++)
		rte_pktmbuf_free(m[i]);
	return sent;
}

/*
 * The smallest rings, as the review drove them: five rounds of configure and start of both
 * ports at nb_min (16 at least), each with 200 single tx_burst calls of 8 frames one way and
 * 1 the other, not retried. A PMD may take fewer than offered when its Tx ring is full, but
 * every frame it took arrives (each burst is received before the next, so the Rx ring never
 * overflows), and over a round it takes more than one ring's worth.
 */
static int
probe_smallring(void)
{
	struct rte_eth_dev_info info;
	unsigned int round, r, t, took[2], got[2];
	uint16_t nd;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	nd = RTE_MAX(RTE_MAX(info.rx_desc_lim.nb_min, info.tx_desc_lim.nb_min), 16);
	for (round = 0; round < 5; round++) {
		TEST_ASSERT_SUCCESS(ports_up(nd), "round %u: rings of %u", round, nd);
		took[0] = took[1] = got[0] = got[1] = 0;
		for (r = 0; r < 200; r++) {
			t = burst_to(g_p0, g_p1, 8);
			took[0] += t;
			got[0] += recv_n(g_p1, t, t > 0 ? RX_POLL_MS : 0);
			t = burst_to(g_p1, g_p0, 1);
			took[1] += t;
			got[1] += recv_n(g_p0, t, t > 0 ? RX_POLL_MS : 0);
		}
		TEST_ASSERT_EQUAL(got[0], took[0], "round %u: %u of %u taken frames arrived",
				  round, got[0], took[0]);
		TEST_ASSERT_EQUAL(got[1], took[1], "round %u back: %u of %u arrived", round,
				  got[1], took[1]);
		TEST_ASSERT(took[0] > nd && took[1] > nd, "round %u: the PMD took %u and %u frames "
			    "of 1600 and 200 at rings of %u", round, took[0], took[1], nd);
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_p0), "stop");
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_p1), "stop");
	}
	return ports_close();
}

/* 100 start/stop cycles with traffic: the heap flat after the first, every mbuf back. */
static int
probe_lifecycle(void)
{
	struct ut_heap h0 = { 0, 0 }, h1;
	unsigned int i;

	TEST_ASSERT_SUCCESS(ports_up(256), "up");
	for (i = 0; i < 100; i++) {
		TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 8), "cycle %u", i);
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_p1), "stop %u", i);
		TEST_ASSERT_EQUAL(rte_eth_dev_stop(g_p1), 0, "second stop %u", i);
		TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_p1), "start %u", i);
		if (i == 0)
			ut_heap_get(&h0);
	}
	ut_heap_get(&h1);
	TEST_ASSERT(ut_heap_same(&h0, &h1), "the EAL heap grew over the cycles");
	TEST_ASSERT_SUCCESS(ports_close(), "close");
	TEST_ASSERT_EQUAL(rte_eth_dev_close(g_p0), -ENODEV, "second close");
	return TEST_SUCCESS;
}

/*
 * MTU: out of range refused with -EINVAL; a value inside [min_mtu, max_mtu] on a stopped port
 * is not refused for the mbuf size of queues set up before (the check belongs to setup/start).
 */
static int
probe_mtu(void)
{
	struct rte_eth_dev_info info;
	uint16_t big;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	TEST_ASSERT_SUCCESS(ports_up(256), "up");
	TEST_ASSERT_EQUAL(rte_eth_dev_set_mtu(g_p0, 0), -EINVAL, "MTU 0");
	TEST_ASSERT_EQUAL(rte_eth_dev_set_mtu(g_p0, 67), -EINVAL, "MTU 67");
	TEST_ASSERT_EQUAL(rte_eth_dev_set_mtu(g_p0, info.max_mtu + 1), -EINVAL, "max + 1");
	big = RTE_MIN(info.max_mtu, 9000);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_p0), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_p0, big), "MTU %u on a stopped port", big);
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_p0, 1500), "MTU 1500");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_p0), "start");
	TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 8), "traffic at 1500");
	return ports_close();
}

/* Broadcast reaches a port that is not promiscuous (ARP, DHCP). */
static int
probe_bcast(void)
{
	static const struct rte_ether_addr bc = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }};
	unsigned int got;

	TEST_ASSERT_SUCCESS(ports_up(256), "up");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_p1), "promisc off");
	TEST_ASSERT_EQUAL(send_to(g_p0, &bc, 8), 8, "sent");
	got = recv_n(g_p1, 8, RX_POLL_MS);
	TEST_ASSERT_EQUAL(got, 8, "broadcast: %u of 8 received without promiscuous mode", got);
	return ports_close();
}

/* All-multicast delivers IPv4 and IPv6 multicast to a port that is not promiscuous. */
static int
probe_allmulti(void)
{
	static const struct rte_ether_addr mc4 = {{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x09 }};
	static const struct rte_ether_addr mc6 = {{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 }};
	unsigned int got;

	TEST_ASSERT_SUCCESS(ports_up(256), "up");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_p1), "promisc off");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(g_p1), "allmulti on");
	TEST_ASSERT_EQUAL(rte_eth_allmulticast_get(g_p1), 1, "allmulti reported");
	TEST_ASSERT_EQUAL(send_to(g_p0, &mc4, 8), 8, "sent");
	got = recv_n(g_p1, 8, RX_POLL_MS);
	TEST_ASSERT_EQUAL(got, 8, "01:00:5e:00:00:09: %u of 8 received", got);
	TEST_ASSERT_EQUAL(send_to(g_p0, &mc6, 8), 8, "sent");
	got = recv_n(g_p1, 8, RX_POLL_MS);
	TEST_ASSERT_EQUAL(got, 8, "33:33:00:00:00:01: %u of 8 received", got);
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_disable(g_p1), "allmulti off");
	return ports_close();
}

/*
 * MAC table: a multicast address is either refused (-EINVAL) or delivered; the table fills
 * to -ENOSPC; removing the default or an absent address does not break the port.
 */
static int
probe_mac(void)
{
	static const struct rte_ether_addr mc = {{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x09 }};
	struct rte_ether_addr a;
	unsigned int i, got;
	int ret;

	TEST_ASSERT_SUCCESS(ports_up(256), "up");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_p1), "promisc off");
	ret = rte_eth_dev_mac_addr_add(g_p1, (struct rte_ether_addr *)(uintptr_t)&mc, 0);
	if (ret == 0) {
		TEST_ASSERT_EQUAL(send_to(g_p0, &mc, 8), 8, "sent");
		got = recv_n(g_p1, 8, RX_POLL_MS);
		TEST_ASSERT_EQUAL(got, 8, "multicast MAC added with 0: %u of 8 received", got);
		TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_remove(g_p1,
				(struct rte_ether_addr *)(uintptr_t)&mc), "remove");
	} else {
		TEST_ASSERT_EQUAL(ret, -EINVAL, "multicast MAC: %d", ret);
	}
	/* A unicast address added is received. */
	rte_ether_unformat_addr("02:00:00:aa:00:01", &a);
	TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_add(g_p1, &a, 0), "unicast add");
	TEST_ASSERT_EQUAL(send_to(g_p0, &a, 8), 8, "sent");
	got = recv_n(g_p1, 8, RX_POLL_MS);
	TEST_ASSERT_EQUAL(got, 8, "added unicast: %u of 8 received", got);
	for (i = 2; i < 4096; i++) {
		a.addr_bytes[4] = (uint8_t)(i >> 8);
		a.addr_bytes[5] = (uint8_t)i;
		ret = rte_eth_dev_mac_addr_add(g_p1, &a, 0);
		if (ret != 0)
			break;
	}
	TEST_ASSERT_EQUAL(ret, -ENOSPC, "table full: %d after %u", ret, i);
	rte_ether_unformat_addr("02:00:00:bb:00:01", &a);
	rte_eth_dev_mac_addr_remove(g_p1, &a);
	TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 8), "traffic after");
	return ports_close();
}

/* RSS: key lengths other than the advertised size and bad RETA calls are refused. */
static int
probe_rss(void)
{
	static const uint8_t lens[] = { 1, 20, 39, 41, 52 };
	struct rte_eth_rss_reta_entry64 reta[4];
	struct rte_eth_dev_info info;
	struct rte_eth_rss_conf rc;
	uint8_t *key;
	unsigned int i;

	TEST_ASSERT_SUCCESS(up(g_p0, 4, 1, 256), "up RSS");
	TEST_ASSERT_SUCCESS(up(g_p1, 1, 1, 256), "peer");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	for (i = 0; i < RTE_DIM(lens); i++) {
		if (lens[i] == info.hash_key_size)
			continue;
		/* Exact-size heap buffers: a read past the end shows under ASan. */
		key = calloc(1, lens[i]);
		TEST_ASSERT_NOT_NULL(key, "key");
		rc = (struct rte_eth_rss_conf){ .rss_key = key, .rss_key_len = lens[i],
						.rss_hf = RTE_ETH_RSS_IP };
		TEST_ASSERT(rte_eth_dev_rss_hash_update(g_p0, &rc) < 0, "key of %u", lens[i]);
		free(key);
	}
	memset(reta, 0, sizeof(reta));
	TEST_ASSERT(rte_eth_dev_rss_reta_update(g_p0, reta, 0) < 0, "RETA size 0");
	for (i = 0; i < RTE_DIM(reta); i++) {
		reta[i].mask = UINT64_MAX;
		memset(reta[i].reta, 7, sizeof(reta[i].reta));
	}
	if (info.reta_size <= RTE_DIM(reta) * RTE_ETH_RETA_GROUP_SIZE)
		TEST_ASSERT(rte_eth_dev_rss_reta_update(g_p0, reta, info.reta_size) < 0,
			    "RETA entry 7 of 4 queues");
	TEST_ASSERT_SUCCESS(traffic(g_p1, g_p0, 8), "traffic");
	return ports_close();
}

/* A chain of n segments of len bytes each. */
static struct rte_mbuf *
chain(unsigned int n, uint16_t len)
{
	struct rte_mbuf *head = NULL, *m;
	unsigned int i;

	for (i = 0; i < n; i++) {
		m = rte_pktmbuf_alloc(g_mp);
		if (m == NULL || rte_pktmbuf_append(m, len) == NULL) {
			rte_pktmbuf_free(m);
			rte_pktmbuf_free(head);
			return NULL;
		}
		memset(rte_pktmbuf_mtod(m, void *), 0x5a, len);
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0)
			return NULL;
	}
	return head;
}

/*
 * Misbehaving Tx mbufs are dropped or counted, never crash or wedge the queue: the next
 * frames arrive and every mbuf is back after close.
 */
static int
probe_bad_mbufs(void)
{
	struct rte_mbuf *bad[8], *m;
	unsigned int i, n = 0;
	uint16_t sent;

	TEST_ASSERT_SUCCESS(ports_up(256), "up");
	bad[n++] = chain(64, 64);
	bad[n++] = chain(200, 60);
	m = chain(2, 64);
	if (m != NULL)
		m->pkt_len += 500;
	bad[n++] = m;
	m = chain(2, 64);
	if (m != NULL)
		m->pkt_len -= 10;
	bad[n++] = m;
	m = chain(1, 64);
	if (m != NULL) {
		m->data_len = 0;
		m->pkt_len = 0;
	}
	bad[n++] = m;
	bad[n++] = chain(1, 1);
	m = chain(1, 64);
	if (m != NULL) {
		m->ol_flags |= RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_VLAN;
		m->l2_len = 127;
		m->l3_len = 511;
		m->l4_len = 255;
		m->tso_segsz = 1;
	}
	bad[n++] = m;
	bad[n++] = chain(3, 17);
	for (i = 0; i < n; i++)
		TEST_ASSERT_NOT_NULL(bad[i], "mbuf %u", i);
	sent = rte_eth_tx_burst(g_p0, 0, bad, n);
	for (i = sent; i < n; i++)
		rte_pktmbuf_free(bad[i]);
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(g_p0, 0, NULL, 0), 0, "burst of 0");
	recv_n(g_p1, 0, QUIET_MS);
	TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 32), "32 frames after the bad ones");
	return ports_close();
}

/* Stats and xstats: sizes, ids, reset; the burst mode of each direction; fw_version. */
static int
probe_stats(void)
{
	struct rte_eth_burst_mode bm;
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *xs, one;
	struct rte_eth_stats st;
	char fw[64];
	int n, i, ret;

	TEST_ASSERT_SUCCESS(ports_up(256), "up");
	TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 8), "traffic");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	TEST_ASSERT(st.ipackets >= 8, "ipackets %" PRIu64, st.ipackets);
	n = rte_eth_xstats_get(g_p1, NULL, 0);
	TEST_ASSERT(n > 0, "xstats count %d", n);
	TEST_ASSERT_EQUAL(rte_eth_xstats_get(g_p1, &one, 1), n, "size-1 buffer");
	xs = calloc(n, sizeof(*xs));
	names = calloc(n, sizeof(*names));
	TEST_ASSERT(xs != NULL && names != NULL, "alloc");
	TEST_ASSERT_EQUAL(rte_eth_xstats_get_names(g_p1, names, n), n, "names");
	TEST_ASSERT_EQUAL(rte_eth_xstats_get(g_p1, xs, n), n, "xstats");
	for (i = 0; i < n; i++)
		TEST_ASSERT_EQUAL(xs[i].id, (uint64_t)i, "id %d", i);
	TEST_ASSERT_SUCCESS(rte_eth_xstats_reset(g_p1), "reset");
	TEST_ASSERT_EQUAL(rte_eth_xstats_get(g_p1, xs, n), n, "xstats");
	for (i = 0; i < n; i++)
		TEST_ASSERT_EQUAL(xs[i].value, 0, "%s after reset", names[i].name);
	free(xs);
	free(names);
	for (i = 0; i < 4; i++) {
		ret = rte_eth_dev_fw_version_get(g_p0, i == 0 ? NULL : fw, i);
		TEST_ASSERT(ret == 0 || ret > i || ret == -ENOTSUP, "fw_version size %d: %d",
			    i, ret);
	}
	TEST_ASSERT_SUCCESS(rte_eth_rx_burst_mode_get(g_p0, 0, &bm), "Rx burst mode");
	TEST_ASSERT_SUCCESS(rte_eth_tx_burst_mode_get(g_p0, 0, &bm), "Tx burst mode");
	return ports_close();
}

/* Rx interrupts without intr_conf.rxq are refused; bad queues and ops are errors. */
static int
probe_intr(void)
{
	TEST_ASSERT_SUCCESS(ports_up(256), "up");
	TEST_ASSERT(rte_eth_dev_rx_intr_enable(g_p0, 0) < 0, "enable without intr_conf.rxq");
	TEST_ASSERT(rte_eth_dev_rx_intr_disable(g_p0, 0) < 0, "disable without intr_conf.rxq");
	TEST_ASSERT(rte_eth_dev_rx_intr_enable(g_p0, 9) < 0, "queue 9");
	TEST_ASSERT(rte_eth_dev_rx_intr_ctl_q(g_p0, 0, RTE_EPOLL_PER_THREAD, 77, NULL) < 0,
		    "ctl op 77");
	TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 8), "traffic");
	return ports_close();
}

/* 20 rounds of up, traffic, close, remove and add: the heap flat, the mbufs back. */
static int
probe_hotplug(void)
{
	struct ut_heap h0 = { 0, 0 }, h1;
	unsigned int i;

	for (i = 0; i < 20; i++) {
		TEST_ASSERT_SUCCESS(ports_up(256), "up %u", i);
		TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 8), "traffic %u", i);
		TEST_ASSERT_SUCCESS(ports_close(), "close %u", i);
		g_pmd->detach();
		TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "ports left after remove %u", i);
		TEST_ASSERT_SUCCESS(g_pmd->attach(), "add %u", i);
		if (i == 0)
			ut_heap_get(&h0);
	}
	ut_heap_get(&h1);
	TEST_ASSERT(ut_heap_same(&h0, &h1), "the EAL heap grew over the rounds");
	return TEST_SUCCESS;
}

/* tx_done_cleanup on a queue set up on a port that was never started. */
static int
probe_cleanup_nostart(void)
{
	struct rte_eth_conf c;
	int ret;

	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_p0, 2, 2, &c), "configure");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(g_p0, 0, 256, 0, NULL, g_mp), "rxq");
	TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(g_p0, 0, 256, 0, NULL), "txq");
	ret = rte_eth_tx_done_cleanup(g_p0, 0, 0);
	TEST_ASSERT(ret >= 0 || ret == -ENOTSUP || ret == -EINVAL, "cleanup: %d", ret);
	rte_eth_dev_close(g_p0);
	return TEST_SUCCESS;
}

/* tx_done_cleanup on a configured queue that is not set up answers an error. */
static int
probe_cleanup_notsetup(void)
{
	struct rte_eth_conf c;

	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_p0, 2, 2, &c), "configure");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(g_p0, 0, 256, 0, NULL, g_mp), "rxq");
	TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(g_p0, 0, 256, 0, NULL), "txq");
	TEST_ASSERT(rte_eth_tx_done_cleanup(g_p0, 1, 0) < 0, "cleanup of queue 1");
	rte_eth_dev_close(g_p0);
	return TEST_SUCCESS;
}

/* rx_queue_count on a started port for a queue that is not configured answers an error. */
static int
probe_rxq_count(void)
{
	TEST_ASSERT_SUCCESS(up(g_p0, 2, 2, 256), "up");
	TEST_ASSERT(rte_eth_rx_queue_count(g_p0, 2) < 0, "count of queue 2 of 2");
	TEST_ASSERT(rte_eth_rx_queue_count(g_p0, 0) >= 0 ||
		    rte_eth_rx_queue_count(g_p0, 0) == -ENOTSUP, "count of queue 0");
	rte_eth_dev_stop(g_p0);
	rte_eth_dev_close(g_p0);
	return TEST_SUCCESS;
}

/*
 * Deferred start: a PMD without queue start/stop refuses it at setup (-EINVAL or -ENOTSUP);
 * one with
 * it leaves the queue stopped at dev_start (it receives nothing) until the queue is started.
 */
static int
probe_deferred(void)
{
	struct rte_eth_rxconf rxc;
	struct rte_eth_txconf txc;
	struct rte_eth_rxq_info ri;
	struct rte_eth_txq_info ti;
	struct rte_eth_conf c;
	struct rte_eth_dev_info info;
	int ret;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p1, &info), "info");
	memset(&c, 0, sizeof(c));
	rxc = info.default_rxconf;
	rxc.rx_deferred_start = 1;
	txc = info.default_txconf;
	txc.tx_deferred_start = 1;
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_p1, 1, 1, &c), "configure");
	ret = rte_eth_rx_queue_setup(g_p1, 0, 256, 0, &rxc, g_mp);
	if (ret != 0) {
		TEST_ASSERT(ret == -EINVAL || ret == -ENOTSUP, "deferred Rx setup: %d", ret);
		ret = rte_eth_tx_queue_setup(g_p1, 0, 256, 0, &txc);
		TEST_ASSERT(ret == -EINVAL || ret == -ENOTSUP, "deferred Tx setup: %d", ret);
		rte_eth_dev_close(g_p1);
		return TEST_SUCCESS;
	}
	TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(g_p1, 0, 256, 0, &txc), "Tx setup");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_p1), "start");
	TEST_ASSERT_SUCCESS(up(g_p0, 1, 1, 256), "peer");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_info_get(g_p1, 0, &ri), "rxq info");
	TEST_ASSERT_EQUAL(ri.queue_state, RTE_ETH_QUEUE_STATE_STOPPED, "Rx queue state");
	TEST_ASSERT_SUCCESS(rte_eth_tx_queue_info_get(g_p1, 0, &ti), "txq info");
	TEST_ASSERT_EQUAL(ti.queue_state, RTE_ETH_QUEUE_STATE_STOPPED, "Tx queue state");
	TEST_ASSERT_EQUAL(send_n(g_p0, g_p1, 8), 8, "sent");
	TEST_ASSERT_EQUAL(recv_n(g_p1, 0, QUIET_MS), 0, "a deferred Rx queue received");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_start(g_p1, 0), "Rx queue start");
	TEST_ASSERT_SUCCESS(rte_eth_dev_tx_queue_start(g_p1, 0), "Tx queue start");
	TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 8), "after the Rx queue start");
	TEST_ASSERT_SUCCESS(traffic(g_p1, g_p0, 8), "after the Tx queue start");
	/* Stop/start with traffic: a stopped Rx queue takes nothing, then works again. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_stop(g_p1, 0), "Rx queue stop");
	TEST_ASSERT_EQUAL(send_n(g_p0, g_p1, 8), 8, "sent");
	TEST_ASSERT_EQUAL(recv_n(g_p1, 0, QUIET_MS), 0, "a stopped Rx queue received");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_start(g_p1, 0), "Rx queue start");
	TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 8), "after the Rx queue restart");
	TEST_ASSERT_SUCCESS(rte_eth_dev_tx_queue_stop(g_p1, 0), "Tx queue stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_tx_queue_start(g_p1, 0), "Tx queue start");
	TEST_ASSERT_SUCCESS(traffic(g_p1, g_p0, 8), "after the Tx queue restart");
	return ports_close();
}

/*
 * dev_reset ten times, then the port configures, starts and carries traffic. The reset
 * returns the filters to the probe state, and ethdev's flags say so (its config restore at
 * the next start would otherwise apply them again).
 */
static int
probe_reset(void)
{
	unsigned int i;

	TEST_ASSERT_SUCCESS(ports_up(256), "up");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(g_p1), "promisc");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(g_p1), "allmulti");
	for (i = 0; i < 10; i++)
		TEST_ASSERT_SUCCESS(rte_eth_dev_reset(g_p1), "reset %u", i);
	TEST_ASSERT_EQUAL(rte_eth_promiscuous_get(g_p1), 0, "promiscuous after reset");
	TEST_ASSERT_EQUAL(rte_eth_allmulticast_get(g_p1), 0, "all-multicast after reset");
	TEST_ASSERT_SUCCESS(up(g_p1, 1, 1, 256), "up after reset");
	TEST_ASSERT_SUCCESS(traffic(g_p0, g_p1, 8), "traffic");
	return ports_close();
}

/** A case: its name (MLXV_PROBE_CASE) and its body, run in the child. */
struct probe_case {
	const char *name;
	int (*fn)(void);
};

static const struct probe_case probe_cases[] = {
	{ "cfg_mq", probe_cfg_mq },
	{ "rings", probe_rings },
	{ "smallring", probe_smallring },
	{ "lifecycle", probe_lifecycle },
	{ "mtu", probe_mtu },
	{ "bcast", probe_bcast },
	{ "allmulti", probe_allmulti },
	{ "mac", probe_mac },
	{ "rss", probe_rss },
	{ "bad_mbufs", probe_bad_mbufs },
	{ "stats", probe_stats },
	{ "intr", probe_intr },
	{ "hotplug", probe_hotplug },
	{ "cleanup_nostart", probe_cleanup_nostart },
	{ "cleanup_notsetup", probe_cleanup_notsetup },
	{ "rxq_count", probe_rxq_count },
	{ "deferred", probe_deferred },
	{ "reset", probe_reset },
};

/* In the child: attach, run the case, detach. @return TEST_SUCCESS or TEST_FAILED. */
static int
probe_child(const char *name)
{
	const struct probe_case *pc = NULL;
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(probe_cases); i++)
		if (strcmp(probe_cases[i].name, name) == 0)
			pc = &probe_cases[i];
	if (pc == NULL) {
		printf("no probe case %s\n", name);
		return TEST_FAILED;
	}
	g_mp = rte_pktmbuf_pool_create("ut_probe", NB_MBUF, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	if (g_mp == NULL || g_pmd->attach() != 0) {
		printf("%s: cannot attach the ports\n", g_pmd->name);
		return TEST_FAILED;
	}
	ret = pc->fn();
	printf("%s %s: %s\n", g_pmd->name, name, ret == TEST_SUCCESS ? "passed" : "FAILED");
	g_pmd->detach();
	rte_mempool_free(g_mp);
	return ret;
}

/*
 * This program's command line, as read from /proc, with a --file-prefix (hugepage runs,
 * tests/lib/ut-eal.sh) made the case's own. @return argv (static), or NULL.
 */
static char **
self_argv(unsigned int idx)
{
	static char buf[4096], prefix[4096 + 16];
	static char *argv[64];
	ssize_t len;
	int fd, argc = 0;
	char *p;

	fd = open("/proc/self/cmdline", O_RDONLY);
	if (fd < 0)
		return NULL;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return NULL;
	buf[len] = '\0';
	for (p = buf; p < buf + len && argc < (int)RTE_DIM(argv) - 1; p += strlen(p) + 1) {
		if (argc > 0 && strcmp(argv[argc - 1], "--file-prefix") == 0) {
			snprintf(prefix, sizeof(prefix), "%s_c%u", p, idx);
			argv[argc++] = prefix;
			continue;
		}
		argv[argc++] = p;
	}
	argv[argc] = NULL;
	return argv;
}

/* In the parent: run the case in a child of its own, bounded. */
static int
probe_spawn(const void *data)
{
	const struct probe_case *pc = data;
	char **argv = self_argv((unsigned int)(pc - probe_cases));
	uint64_t end;
	pid_t pid;
	int st = 0;

	TEST_ASSERT_NOT_NULL(argv, "command line");
	fflush(stdout);
	pid = fork();
	TEST_ASSERT(pid >= 0, "fork");
	if (pid == 0) {
		setenv(CASE_ENV, pc->name, 1);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	end = ut_now_ms() + CASE_LIMIT_S * 1000ULL;
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (ut_now_ms() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			TEST_ASSERT(0, "%s %s: hung, killed after %d s", g_pmd->name, pc->name,
				    CASE_LIMIT_S);
		}
		ut_sleep_ms(10);
	}
	TEST_ASSERT(!WIFSIGNALED(st), "%s %s: killed by signal %d", g_pmd->name, pc->name,
		    WTERMSIG(st));
	TEST_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s %s: exit %d", g_pmd->name,
		    pc->name, WEXITSTATUS(st));
	return TEST_SUCCESS;
}

#define PROBE_CASE(i) \
	TEST_CASE_NAMED_WITH_DATA(NULL, NULL, NULL, probe_spawn, &probe_cases[i])

static struct unit_test_suite probe_suite = {
	.suite_name = "ethdev surface probe, one process per case",
	.unit_test_cases = {
		PROBE_CASE(0), PROBE_CASE(1), PROBE_CASE(2), PROBE_CASE(3), PROBE_CASE(4),
		PROBE_CASE(5), PROBE_CASE(6), PROBE_CASE(7), PROBE_CASE(8), PROBE_CASE(9),
		PROBE_CASE(10), PROBE_CASE(11), PROBE_CASE(12), PROBE_CASE(13), PROBE_CASE(14),
		PROBE_CASE(15), PROBE_CASE(16), PROBE_CASE(17),
		TEST_CASES_END()
	}
};

static int
probe_run(const struct probe_pmd *pmd)
{
	const char *only = getenv(CASE_ENV);
	unsigned int i;

	RTE_BUILD_BUG_ON(RTE_DIM(probe_cases) != 18);
	g_pmd = pmd;
	if (only != NULL)
		return probe_child(only);
	for (i = 0; i < RTE_DIM(probe_cases); i++)
		probe_suite.unit_test_cases[i].name = probe_cases[i].name;
	return unit_test_suite_runner(&probe_suite);
}

static int
test_ethdev_probe_mlx5v(void)
{
	return probe_run(&probe_mlx5v);
}

static int
test_ethdev_probe_mlx4v(void)
{
	return probe_run(&probe_mlx4v);
}

REGISTER_TEST_COMMAND(ethdev_probe_mlx5v_autotest, test_ethdev_probe_mlx5v);
REGISTER_TEST_COMMAND(ethdev_probe_mlx4v_autotest, test_ethdev_probe_mlx4v);
