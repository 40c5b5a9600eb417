/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the mlx5v PMD's data path: two simulated functions cabled together
 * (wire=pair), frames sent with rte_eth_tx_burst() on one port and read back with
 * rte_eth_rx_burst() on the other, byte for byte, with the offloads the CQE reports; error
 * CQE recovery through the simulator's knob; every mbuf back in its pool at the end.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cpuflags.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_thash.h>
#include <rte_udp.h>
#include <rte_vect.h>

#include "test.h"

#include "mlx5v_dev.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v.h"
#include "ut_common.h"
#include "ut_dev.h"

#define DEV0 "mlx5v_sim0"
#define DEV1 "mlx5v_sim1"
#define NB_MBUF 8192
#define BURST 32
/* Bounded polling for frames that the simulator delivers as the doorbell is rung. */
#define RX_POLLS 1000

static struct rte_mempool *g_mp;
static uint16_t g_p0, g_p1;
static struct mlx5v_sim *g_sim0, *g_sim1;
static struct rte_ether_addr g_mac0, g_mac1;
/* Device generation of both ends: "" (L2 inline header, SEND only) or ConnectX-5 like. */
static const char *g_caps;
#define CAPS_EMPW ",wqe_inline_mode=2,empw=1"
/* The same without the CQE compression capability (doc/guides/prm/mlx5_eth.rst §8.5). */
#define CAPS_NO_COMP CAPS_EMPW ",cqe_comp=0"
/*
 * The pool's per-lcore cache: the SSE Rx loops rearm the slots they take from it, and
 * without one the PMD takes the scalar loops and the bulk refill.
 */
static unsigned int g_cache;

/* Configure nq Rx and Tx queues with the offloads and MTU, then start. @return 0 or errno. */
static int
port_up(uint16_t port, uint16_t nq, uint16_t nd, uint64_t rx_off, uint64_t tx_off,
	uint16_t mtu)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.offloads = rx_off;
	conf.txmode.offloads = tx_off;
	if (nq > 1) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	}
	ret = rte_eth_dev_configure(port, nq, nq, &conf);
	if (ret == 0)
		ret = rte_eth_dev_set_mtu(port, mtu);
	for (q = 0; ret == 0 && q < nq; q++)
		ret = rte_eth_rx_queue_setup(port, q, nd, 0, NULL, g_mp);
	for (q = 0; ret == 0 && q < nq; q++)
		ret = rte_eth_tx_queue_setup(port, q, nd, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

static int
ports_up(uint16_t nq, uint16_t nd, uint64_t rx_off, uint64_t tx_off, uint16_t mtu)
{
	return port_up(g_p0, nq, nd, rx_off, tx_off, mtu) ?:
	       port_up(g_p1, nq, nd, rx_off, tx_off, mtu);
}

/* Stop both ports: every mbuf must then be back in the pool. */
static int
ports_down(void)
{
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_p0), "stop port 0");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_p1), "stop port 1");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(g_mp), NB_MBUF, "mbufs leaked: %u of %u back",
			  rte_mempool_avail_count(g_mp), NB_MBUF);
	return TEST_SUCCESS;
}

/*
 * An IPv4/UDP (or TCP) frame of len bytes to dst with correct checksums; the payload is a
 * pattern made of seed. @return it, or NULL.
 */
static struct rte_mbuf *
frame(const struct rte_ether_addr *dst, uint32_t len, uint32_t seed, int tcp)
{
	static uint8_t p[9216];
	struct rte_mbuf *m = NULL, *seg;
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	struct rte_tcp_hdr *th;
	uint32_t i, n;

	if (len > sizeof(p))
		return NULL;
	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 7 + i);
	eth = (struct rte_ether_hdr *)p;
	eth->dst_addr = *dst;
	eth->src_addr = g_mac0;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = tcp ? IPPROTO_TCP : IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eth));
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, seed >> 8 & 0xff, seed & 0xff));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 1, 0, 1));
	if (tcp) {
		th = (struct rte_tcp_hdr *)(ip + 1);
		memset(th, 0, sizeof(*th));
		th->src_port = rte_cpu_to_be_16(1000 + (seed & 0xfff));
		th->dst_port = rte_cpu_to_be_16(80);
		th->data_off = sizeof(*th) << 2;
		th->cksum = rte_ipv4_udptcp_cksum(ip, th);
	} else {
		udp = (struct rte_udp_hdr *)(ip + 1);
		udp->src_port = rte_cpu_to_be_16(1000 + (seed & 0xfff));
		udp->dst_port = rte_cpu_to_be_16(4789);
		udp->dgram_len = rte_cpu_to_be_16(len - sizeof(*eth) - sizeof(*ip));
		udp->dgram_cksum = 0;
		udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	}
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	/* In as many mbufs as it takes. */
	for (i = 0; i < len; i += n) {
		seg = rte_pktmbuf_alloc(g_mp);
		if (seg == NULL)
			goto error;
		n = RTE_MIN(len - i, (uint32_t)rte_pktmbuf_tailroom(seg));
		memcpy(rte_pktmbuf_append(seg, n), p + i, n);
		if (m == NULL) {
			m = seg;
		} else if (rte_pktmbuf_chain(m, seg) != 0) {
			rte_pktmbuf_free(seg);
			goto error;
		}
	}
	return m;
error:
	rte_pktmbuf_free(m);
	return NULL;
}

/* Send all n packets on queue q of port (the ring frees up as completions come). */
static int
send_all(uint16_t port, uint16_t q, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t sent = 0;
	unsigned int tries;

	for (tries = 0; sent < n && tries < RX_POLLS; tries++)
		sent += rte_eth_tx_burst(port, q, pkts + sent, n - sent);
	if (sent < n) {
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
		return -1;
	}
	return 0;
}

/* Receive up to n packets from queue q of port. @return how many. */
static uint16_t
recv_n(uint16_t port, uint16_t q, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t got = 0;
	unsigned int polls;

	for (polls = 0; got < n && polls < RX_POLLS; polls++) {
		got += rte_eth_rx_burst(port, q, pkts + got, n - got);
		if (got < n && polls > 10)
			ut_sleep_ms(1);
	}
	return got;
}

/* @return 1 if packets a and b hold the same bytes. */
static int
same_bytes(struct rte_mbuf *a, struct rte_mbuf *b)
{
	uint8_t ba[RTE_MBUF_DEFAULT_BUF_SIZE * 8], bb[RTE_MBUF_DEFAULT_BUF_SIZE * 8];
	const void *pa, *pb;

	if (a->pkt_len != b->pkt_len || a->pkt_len > sizeof(ba))
		return 0;
	pa = rte_pktmbuf_read(a, 0, a->pkt_len, ba);
	pb = rte_pktmbuf_read(b, 0, b->pkt_len, bb);
	return pa != NULL && pb != NULL && memcmp(pa, pb, a->pkt_len) == 0;
}

/* A deep copy of m in one or more mbufs, to compare with what arrives. */
static struct rte_mbuf *
copy_of(struct rte_mbuf *m)
{
	return rte_pktmbuf_copy(m, g_mp, 0, UINT32_MAX);
}

/* n frames of growing size each way; what arrives is what was sent, byte for byte. */
static int
test_net_mlx5v_dp_bytes(void)
{
	struct rte_mbuf *tx[BURST], *ref[BURST], *rx[BURST];
	struct rte_eth_stats st0, st1;
	uint16_t i, n;
	int dir;

	TEST_ASSERT_SUCCESS(ports_up(1, 256, 0, 0, 1500), "start");
	for (dir = 0; dir < 2; dir++) {
		uint16_t from = dir ? g_p1 : g_p0, to = dir ? g_p0 : g_p1;

		for (i = 0; i < BURST; i++) {
			tx[i] = frame(dir ? &g_mac0 : &g_mac1, 60 + i * 45, i, i & 1);
			TEST_ASSERT_NOT_NULL(tx[i], "frame");
			ref[i] = copy_of(tx[i]);
			TEST_ASSERT_NOT_NULL(ref[i], "copy");
		}
		TEST_ASSERT_SUCCESS(send_all(from, 0, tx, BURST), "send");
		n = recv_n(to, 0, rx, BURST);
		TEST_ASSERT_EQUAL(n, BURST, "received %u of %u", n, BURST);
		for (i = 0; i < n; i++) {
			TEST_ASSERT(same_bytes(rx[i], ref[i]), "frame %u differs", i);
			TEST_ASSERT_EQUAL(rx[i]->port, to, "mbuf port");
		}
		rte_pktmbuf_free_bulk(rx, n);
		rte_pktmbuf_free_bulk(ref, BURST);
	}
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p0, &st0), "stats 0");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st1), "stats 1");
	TEST_ASSERT(st0.opackets == BURST && st1.ipackets == BURST && st1.opackets == BURST &&
		    st0.ipackets == BURST, "packets %" PRIu64 "/%" PRIu64 " %" PRIu64 "/%" PRIu64,
		    st0.opackets, st1.ipackets, st1.opackets, st0.ipackets);
	TEST_ASSERT_EQUAL(st0.obytes, st1.ibytes, "bytes sent = bytes received");
	TEST_ASSERT(st0.oerrors == 0 && st1.ierrors == 0, "no errors");
	/* Every mbuf comes back from the send ring with tx_done_cleanup(). */
	TEST_ASSERT(rte_eth_tx_done_cleanup(g_p0, 0, 0) >= 0, "cleanup");
	return ports_down();
}

/*
 * With MBUF_FAST_FREE (completed packets go back by index): runs of plain packets of odd
 * and even lengths with a checksum-offload packet among them (it ends a multi-packet WQE's
 * run, on a pair or alone), sent several times over the ring; bytes, order and totals.
 */
static int
test_net_mlx5v_dp_fast_free(void)
{
	static const uint16_t counts[] = { 1, 2, 3, 31, 32, 7 };
	struct rte_mbuf *tx[BURST], *ref[BURST], *rx[BURST];
	struct rte_eth_stats st0, st1;
	unsigned int c, total = 0;
	uint16_t i, n;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
				     RTE_ETH_TX_OFFLOAD_IPV4_CKSUM, 1500), "start");
	for (c = 0; c < 4 * RTE_DIM(counts); c++) {
		n = RTE_MIN(counts[c % RTE_DIM(counts)], (uint16_t)BURST);
		for (i = 0; i < n; i++) {
			tx[i] = frame(&g_mac1, 64 + ((c + i) % 3) * 37, c * 64 + i, 0);
			TEST_ASSERT_NOT_NULL(tx[i], "frame");
			if (i == 4 + c % 3) {
				tx[i]->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
				tx[i]->l2_len = RTE_ETHER_HDR_LEN;
				tx[i]->l3_len = sizeof(struct rte_ipv4_hdr);
			}
			ref[i] = copy_of(tx[i]);
			TEST_ASSERT_NOT_NULL(ref[i], "copy");
		}
		TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, n), "send");
		TEST_ASSERT_EQUAL(recv_n(g_p1, 0, rx, n), n, "round %u: received", c);
		for (i = 0; i < n; i++)
			TEST_ASSERT(same_bytes(rx[i], ref[i]), "round %u: frame %u differs", c, i);
		rte_pktmbuf_free_bulk(rx, n);
		rte_pktmbuf_free_bulk(ref, n);
		total += n;
	}
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p0, &st0), "stats 0");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st1), "stats 1");
	TEST_ASSERT(st0.opackets == total && st1.ipackets == total, "packets %" PRIu64 "/%"
		    PRIu64 " of %u", st0.opackets, st1.ipackets, total);
	TEST_ASSERT_EQUAL(st0.obytes, st1.ibytes, "bytes sent = bytes received");
	TEST_ASSERT(rte_eth_tx_done_cleanup(g_p0, 0, 0) >= 0, "cleanup");
	return ports_down();
}

/* A packet of three segments, the first shorter than the inline header. */
static int
test_net_mlx5v_dp_multiseg(void)
{
	struct rte_mbuf *m, *ref, *rx[1];
	struct rte_mbuf *s1, *s2;
	uint8_t *p;

	TEST_ASSERT_SUCCESS(ports_up(1, 128, 0, RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 1500), "start");
	ref = frame(&g_mac1, 700, 3, 0);
	TEST_ASSERT_NOT_NULL(ref, "frame");
	m = rte_pktmbuf_alloc(g_mp);
	s1 = rte_pktmbuf_alloc(g_mp);
	s2 = rte_pktmbuf_alloc(g_mp);
	TEST_ASSERT(m != NULL && s1 != NULL && s2 != NULL, "mbufs");
	p = rte_pktmbuf_mtod(ref, uint8_t *);
	memcpy(rte_pktmbuf_append(m, 10), p, 10);
	memcpy(rte_pktmbuf_append(s1, 300), p + 10, 300);
	memcpy(rte_pktmbuf_append(s2, 390), p + 310, 390);
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(m, s1), "chain");
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(m, s2), "chain");
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, &m, 1), "send");
	TEST_ASSERT_EQUAL(recv_n(g_p1, 0, rx, 1), 1, "received");
	TEST_ASSERT(same_bytes(rx[0], ref), "bytes differ");
	rte_pktmbuf_free(rx[0]);
	rte_pktmbuf_free(ref);
	return ports_down();
}

/* MTU 9000: a jumbo frame is scattered over several mbufs; without scatter, start fails. */
static int
test_net_mlx5v_dp_jumbo(void)
{
	struct rte_mbuf *tx[2], *ref[2], *rx[2];
	uint16_t i;

	TEST_ASSERT_EQUAL(port_up(g_p1, 1, 64, 0, 0, 9000), -EINVAL,
			  "MTU 9000 with 2 KiB mbufs and no scatter started");
	TEST_ASSERT_SUCCESS(ports_up(1, 64, RTE_ETH_RX_OFFLOAD_SCATTER,
				     RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 9000), "start");
	for (i = 0; i < 2; i++) {
		/* 9018 bytes: MTU 9000 and the Ethernet header, built in 5 segments. */
		ref[i] = frame(&g_mac1, 9018 - i * 4000, i, 0);
		TEST_ASSERT_NOT_NULL(ref[i], "frame");
		tx[i] = copy_of(ref[i]);
		TEST_ASSERT(tx[i] != NULL && tx[i]->nb_segs > 1, "multi-segment copy");
	}
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 2), "send");
	TEST_ASSERT_EQUAL(recv_n(g_p1, 0, rx, 2), 2, "received");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT(rx[i]->nb_segs > 1, "frame %u in one mbuf", i);
		TEST_ASSERT(same_bytes(rx[i], ref[i]), "jumbo frame %u differs", i);
	}
	rte_pktmbuf_free_bulk(rx, 2);
	rte_pktmbuf_free_bulk(ref, 2);
	TEST_ASSERT_SUCCESS(ports_down(), "down");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_p0, 1500), "MTU 1500");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_p1, 1500), "MTU 1500");
	return TEST_SUCCESS;
}

/* Checksums: computed on send when asked; on receive GOOD when verified, else UNKNOWN. */
static int
test_net_mlx5v_dp_csum(void)
{
	struct rte_mbuf *tx[4], *rx[4];
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	uint16_t i;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, RTE_ETH_RX_OFFLOAD_CHECKSUM,
				     RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				     RTE_ETH_TX_OFFLOAD_UDP_CKSUM, 1500), "start");
	for (i = 0; i < 4; i++) {
		tx[i] = frame(&g_mac1, 200, i, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
	}
	/* 0: both checksums left to the device. */
	ip = rte_pktmbuf_mtod_offset(tx[0], struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	udp = (struct rte_udp_hdr *)(ip + 1);
	ip->hdr_checksum = 0;
	udp->dgram_cksum = rte_ipv4_phdr_cksum(ip, 0);
	tx[0]->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM;
	tx[0]->l2_len = RTE_ETHER_HDR_LEN;
	tx[0]->l3_len = sizeof(*ip);
	/* 1: a wrong IP header checksum; 2: a wrong UDP checksum. */
	ip = rte_pktmbuf_mtod_offset(tx[1], struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	ip->hdr_checksum ^= 0x1234;
	ip = rte_pktmbuf_mtod_offset(tx[2], struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->dgram_cksum ^= 0x0101;
	/* 3: no UDP checksum (0, valid over IPv4): the device does not call it verified. */
	ip = rte_pktmbuf_mtod_offset(tx[3], struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->dgram_cksum = 0;
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 4), "send");
	TEST_ASSERT_EQUAL(recv_n(g_p1, 0, rx, 4), 4, "received");
	ip = rte_pktmbuf_mtod_offset(rx[0], struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	TEST_ASSERT_EQUAL(rte_ipv4_cksum(ip), 0, "IP checksum not computed on send");
	TEST_ASSERT_EQUAL(rte_ipv4_udptcp_cksum_verify(ip, ip + 1), 0,
			  "UDP checksum not computed on send");
	TEST_ASSERT_EQUAL(rx[0]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
			  RTE_MBUF_F_RX_IP_CKSUM_GOOD, "IP good");
	TEST_ASSERT_EQUAL(rx[0]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK,
			  RTE_MBUF_F_RX_L4_CKSUM_GOOD, "L4 good");
	/*
	 * A clear ok bit is UNKNOWN, never BAD (doc/guides/prm/mlx5_eth.rst §8.2): the device
	 * leaves it clear for what it did not verify as well as for a wrong sum.
	 */
	TEST_ASSERT_EQUAL(rx[1]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
			  RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN, "wrong IP checksum: %#" PRIx64,
			  rx[1]->ol_flags);
	TEST_ASSERT_EQUAL(rx[2]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
			  RTE_MBUF_F_RX_IP_CKSUM_GOOD, "IP good");
	TEST_ASSERT_EQUAL(rx[2]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK,
			  RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN, "wrong UDP checksum: %#" PRIx64,
			  rx[2]->ol_flags);
	TEST_ASSERT_EQUAL(rx[3]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
			  RTE_MBUF_F_RX_IP_CKSUM_GOOD, "IP good");
	TEST_ASSERT_EQUAL(rx[3]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK,
			  RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN, "valid frame without UDP checksum: %#"
			  PRIx64, rx[3]->ol_flags);
	rte_pktmbuf_free_bulk(rx, 4);
	return ports_down();
}

/* What one frame of test_net_mlx5v_dp_mixed() is and how it must arrive. */
struct mixed_frame {
	int tcp;            /**< TCP, else UDP */
	int bad;            /**< 1: IP header checksum wrong; 2: L4 checksum wrong */
	int vlan;           /**< tagged by the sender's device, stripped by the receiver's */
};

/*
 * Frames whose CQE header bits change, repeat and come back within one Rx burst, a VLAN
 * stripped among them: the burst reuses packet type and flags only for the same header
 * bits, and never a stripped frame's (doc/guides/nics/mlx5v.rst "Data path").
 */
static int
test_net_mlx5v_dp_mixed(void)
{
	static const struct mixed_frame f[] = {
		{ 0, 0, 0 }, { 0, 0, 0 }, { 0, 2, 0 }, { 0, 0, 0 }, { 1, 0, 0 },
		{ 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 0 }, { 0, 1, 0 }, { 0, 1, 0 },
	};
	struct rte_mbuf *tx[RTE_DIM(f)], *rx[RTE_DIM(f)];
	struct rte_eth_dev_info info;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	uint64_t want_ip, want_l4, vlan;
	unsigned int i, n = 0;
	int has_vlan;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	has_vlan = (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_VLAN_INSERT) &&
		   (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_VLAN_STRIP);
	TEST_ASSERT_SUCCESS(ports_up(1, 64, RTE_ETH_RX_OFFLOAD_CHECKSUM |
				     (has_vlan ? RTE_ETH_RX_OFFLOAD_VLAN_STRIP : 0),
				     has_vlan ? RTE_ETH_TX_OFFLOAD_VLAN_INSERT : 0, 1500), "start");
	for (i = 0; i < RTE_DIM(f); i++) {
		tx[i] = frame(&g_mac1, 120, i, f[i].tcp);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
		ip = rte_pktmbuf_mtod_offset(tx[i], struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
		udp = (struct rte_udp_hdr *)(ip + 1);
		if (f[i].bad == 1)
			ip->hdr_checksum ^= 0x1234;
		else if (f[i].bad == 2)
			udp->dgram_cksum ^= 0x0101;
		if (f[i].vlan && has_vlan) {
			tx[i]->ol_flags |= RTE_MBUF_F_TX_VLAN;
			tx[i]->vlan_tci = (uint16_t)(0x100 + i);
		}
	}
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, RTE_DIM(f)), "send");
	/* The frames are all there before the first poll, so that one burst takes them. */
	ut_sleep_ms(20);
	n = rte_eth_rx_burst(g_p1, 0, rx, RTE_DIM(f));
	n += recv_n(g_p1, 0, rx + n, RTE_DIM(f) - n);
	TEST_ASSERT_EQUAL(n, RTE_DIM(f), "received %u of %zu", n, RTE_DIM(f));
	for (i = 0; i < n; i++) {
		/* A clear ok bit is UNKNOWN (doc/guides/prm/mlx5_eth.rst §8.2). */
		want_ip = f[i].bad == 1 ? RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN :
			  RTE_MBUF_F_RX_IP_CKSUM_GOOD;
		want_l4 = f[i].bad == 2 ? RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN :
			  RTE_MBUF_F_RX_L4_CKSUM_GOOD;
		vlan = f[i].vlan && has_vlan ? RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED : 0;
		TEST_ASSERT_EQUAL(rx[i]->packet_type, RTE_PTYPE_L2_ETHER |
				  RTE_PTYPE_L3_IPV4_EXT_UNKNOWN |
				  (f[i].tcp ? RTE_PTYPE_L4_TCP : RTE_PTYPE_L4_UDP),
				  "frame %u: ptype %#x", i, rx[i]->packet_type);
		TEST_ASSERT_EQUAL(rx[i]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK, want_ip,
				  "frame %u: IP checksum flags %#" PRIx64, i, rx[i]->ol_flags);
		/* Behind a bad IP header the L4 result is the device's to choose. */
		if (f[i].bad != 1)
			TEST_ASSERT_EQUAL(rx[i]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK, want_l4,
					  "frame %u: L4 checksum flags %#" PRIx64, i,
					  rx[i]->ol_flags);
		TEST_ASSERT_EQUAL(rx[i]->ol_flags & (RTE_MBUF_F_RX_VLAN |
						     RTE_MBUF_F_RX_VLAN_STRIPPED), vlan,
				  "frame %u: VLAN flags %#" PRIx64, i, rx[i]->ol_flags);
		if (vlan != 0)
			TEST_ASSERT_EQUAL(rx[i]->vlan_tci, 0x100 + i, "frame %u: TCI %#x", i,
					  rx[i]->vlan_tci);
		TEST_ASSERT_EQUAL(rx[i]->pkt_len, 120u, "frame %u: %u bytes", i, rx[i]->pkt_len);
	}
	rte_pktmbuf_free_bulk(rx, n);
	return ports_down();
}

/* RSS spreads flows over 4 queues with the hash in the mbuf; the packet type is set. */
static int
test_net_mlx5v_dp_rss_ptype(void)
{
	struct rte_mbuf *tx[64], *rx[64];
	unsigned int q, i, total = 0, queues_hit = 0;
	uint16_t n;

	TEST_ASSERT_SUCCESS(ports_up(4, 128, RTE_ETH_RX_OFFLOAD_RSS_HASH, 0, 1500), "start");
	for (i = 0; i < 64; i++) {
		tx[i] = frame(&g_mac1, 128, i * 37 + 1, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
	}
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 64), "send");
	for (q = 0; q < 4; q++) {
		n = recv_n(g_p1, q, rx, 64 - total);
		if (n > 0)
			queues_hit++;
		total += n;
		for (i = 0; i < n; i++) {
			TEST_ASSERT(rx[i]->ol_flags & RTE_MBUF_F_RX_RSS_HASH, "no RSS hash flag");
			TEST_ASSERT(rx[i]->hash.rss != 0, "RSS hash 0");
			TEST_ASSERT_EQUAL(rx[i]->hash.rss & 63 & 3, q, "hash %#x on queue %u",
					  rx[i]->hash.rss, q);
			TEST_ASSERT_EQUAL(rx[i]->packet_type, RTE_PTYPE_L2_ETHER |
					  RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP,
					  "ptype %#x", rx[i]->packet_type);
		}
		rte_pktmbuf_free_bulk(rx, n);
	}
	TEST_ASSERT_EQUAL(total, 64u, "received %u of 64", total);
	TEST_ASSERT_EQUAL(queues_hit, 4u, "flows on %u queues of 4", queues_hit);
	TEST_ASSERT(rte_eth_dev_get_supported_ptypes(g_p1, RTE_PTYPE_ALL_MASK, NULL, 0) >= 5,
		    "supported ptypes listed");
	/* A TCP frame is typed TCP. */
	tx[0] = frame(&g_mac1, 100, 5, 1);
	TEST_ASSERT_NOT_NULL(tx[0], "frame");
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 1), "send");
	for (q = 0, n = 0; q < 4 && n == 0; q++)
		n = recv_n(g_p1, q, rx, 1);
	TEST_ASSERT_EQUAL(n, 1, "TCP frame received");
	TEST_ASSERT_EQUAL(rx[0]->packet_type & RTE_PTYPE_L4_MASK, RTE_PTYPE_L4_TCP, "TCP type");
	rte_pktmbuf_free(rx[0]);
	return ports_down();
}

/*
 * Send n frames to dst from port 0, then a marker frame to port 1's own address. One Rx
 * queue and one wire keep the order, so what arrives before the marker is what port 1 took
 * of the n. @return that count, or -1.
 */
static int
dmac_delivered(const struct rte_ether_addr *dst, uint16_t n)
{
	struct rte_mbuf *tx[9], *rx[9];
	uint16_t i, got = 0;
	unsigned int polls;

	if (n >= RTE_DIM(tx))
		return -1;
	for (i = 0; i <= n; i++) {
		tx[i] = i < n ? frame(dst, 96, i + 1, 0) : frame(&g_mac1, 100, 0, 0);
		if (tx[i] == NULL) {
			rte_pktmbuf_free_bulk(tx, i);
			return -1;
		}
	}
	if (send_all(g_p0, 0, tx, n + 1) != 0)
		return -1;
	for (polls = 0; polls < RX_POLLS; polls++) {
		got += rte_eth_rx_burst(g_p1, 0, rx + got, RTE_DIM(rx) - got);
		if (got > 0 && rx[got - 1]->pkt_len == 100)
			break;
		if (polls > 10)
			ut_sleep_ms(1);
	}
	rte_pktmbuf_free_bulk(rx, got);
	return got > 0 && polls < RX_POLLS ? got - 1 : -1;
}

/*
 * Destination filtering with promiscuous mode off: the port's own address and broadcast
 * (ARP, DHCP) arrive; another unicast address does not; a multicast address arrives once
 * added with mac_addr_add() and no longer after its removal (doc/guides/nics/mlx5v.rst).
 */
static int
test_net_mlx5v_dp_dmac(void)
{
	const struct rte_ether_addr bcast = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }};
	const struct rte_ether_addr other = {{ 0x02, 0x00, 0x00, 0x00, 0x0e, 0x01 }};
	struct rte_ether_addr mc4 = {{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 }};

	TEST_ASSERT_SUCCESS(ports_up(1, 128, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_p1), "promiscuous off");
	TEST_ASSERT_EQUAL(rte_eth_promiscuous_get(g_p1), 0, "promiscuous reads off");
	TEST_ASSERT_EQUAL(dmac_delivered(&g_mac1, 4), 4, "own address");
	TEST_ASSERT_EQUAL(dmac_delivered(&bcast, 4), 4, "broadcast without promiscuous mode");
	TEST_ASSERT_EQUAL(dmac_delivered(&other, 4), 0, "another unicast address filtered");
	TEST_ASSERT_EQUAL(dmac_delivered(&mc4, 4), 0, "multicast not subscribed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_add(g_p1, &mc4, 0), "add a multicast MAC");
	TEST_ASSERT_EQUAL(dmac_delivered(&mc4, 4), 4, "multicast MAC added");
	TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_remove(g_p1, &mc4), "remove it");
	TEST_ASSERT_EQUAL(dmac_delivered(&mc4, 4), 0, "multicast MAC removed");
	TEST_ASSERT_EQUAL(dmac_delivered(&bcast, 4), 4, "broadcast still");
	/* Across a restart the lists and entries come back from mac_addrs. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_p1), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_p1), "restart");
	TEST_ASSERT_EQUAL(dmac_delivered(&bcast, 4), 4, "broadcast after a restart");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(g_p1), "promiscuous on");
	TEST_ASSERT_EQUAL(dmac_delivered(&other, 4), 4, "promiscuous takes any address");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_p1), "promiscuous off again");
	return ports_down();
}

/*
 * Multicast with promiscuous mode off: IPv4 (01:00:5e:00:00:01) and IPv6 (33:33:00:00:00:01)
 * groups arrive while all-multicast is on or while the multicast address list names them,
 * and not otherwise; every frame once, never twice (doc/guides/nics/mlx5v.rst).
 */
static int
test_net_mlx5v_dp_allmulti(void)
{
	struct rte_ether_addr mc[2] = {
		{{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 }},
		{{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 }},
	};
	struct rte_ether_addr uc = {{ 0x02, 0x00, 0x00, 0x00, 0x0e, 0x01 }};
	unsigned int i;

	TEST_ASSERT_SUCCESS(ports_up(1, 128, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_p1), "promiscuous off");
	for (i = 0; i < RTE_DIM(mc); i++)
		TEST_ASSERT_EQUAL(dmac_delivered(&mc[i], 4), 0, "group %u not subscribed", i);
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(g_p1), "all-multicast on");
	for (i = 0; i < RTE_DIM(mc); i++)
		TEST_ASSERT_EQUAL(dmac_delivered(&mc[i], 4), 4, "group %u, all-multicast", i);
	TEST_ASSERT_EQUAL(dmac_delivered(&uc, 4), 0, "all-multicast takes no other unicast");
	/* A listed group under all-multicast: one copy only. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mc_addr_list(g_p1, mc, 2), "multicast list");
	TEST_ASSERT_EQUAL(dmac_delivered(&mc[0], 8), 8, "listed and all-multicast");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_disable(g_p1), "all-multicast off");
	for (i = 0; i < RTE_DIM(mc); i++)
		TEST_ASSERT_EQUAL(dmac_delivered(&mc[i], 4), 4, "group %u, listed", i);
	/* The list survives a restart. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_p1), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_p1), "restart");
	TEST_ASSERT_EQUAL(dmac_delivered(&mc[1], 4), 4, "listed after a restart");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mc_addr_list(g_p1, &mc[1], 1), "shorter list");
	TEST_ASSERT_EQUAL(dmac_delivered(&mc[0], 4), 0, "group 0 left the list");
	TEST_ASSERT_EQUAL(dmac_delivered(&mc[1], 4), 4, "group 1 still listed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mc_addr_list(g_p1, NULL, 0), "list cleared");
	for (i = 0; i < RTE_DIM(mc); i++)
		TEST_ASSERT_EQUAL(dmac_delivered(&mc[i], 4), 0, "group %u, list cleared", i);
	TEST_ASSERT_FAIL(rte_eth_dev_set_mc_addr_list(g_p1, &uc, 1), "unicast in the list");
	return ports_down();
}

/*
 * A 128-byte frame to port 1 of a traffic class: IPv4 or IPv6 (v6), carrying TCP or UDP
 * (proto; the ports a function of seed) or another protocol; ethertype ARP when proto is 0.
 * The source address follows seed. @return it, or NULL.
 */
static struct rte_mbuf *
frame_class(int v6, uint8_t proto, uint32_t seed)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_mp);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip4;
	struct rte_ipv6_hdr *ip6;
	uint16_t *ports;
	uint8_t *p;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, 128);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(p, (int)seed, 128);
	eth = (struct rte_ether_hdr *)p;
	eth->dst_addr = g_mac1;
	eth->src_addr = g_mac0;
	if (proto == 0) {
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
		return m;
	}
	if (!v6) {
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		ip4 = (struct rte_ipv4_hdr *)(eth + 1);
		memset(ip4, 0, sizeof(*ip4));
		ip4->version_ihl = RTE_IPV4_VHL_DEF;
		ip4->time_to_live = 64;
		ip4->next_proto_id = proto;
		ip4->total_length = rte_cpu_to_be_16(128 - sizeof(*eth));
		ip4->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 2, seed >> 8 & 0xff, seed & 0xff));
		ip4->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 3, 0, 1));
		ip4->hdr_checksum = rte_ipv4_cksum(ip4);
		ports = (uint16_t *)(ip4 + 1);
	} else {
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
		ip6 = (struct rte_ipv6_hdr *)(eth + 1);
		memset(ip6, 0, sizeof(*ip6));
		ip6->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip6->payload_len = rte_cpu_to_be_16(128 - sizeof(*eth) - sizeof(*ip6));
		ip6->proto = proto;
		ip6->hop_limits = 64;
		ip6->src_addr[0] = 0xfd;
		ip6->src_addr[14] = (uint8_t)(seed >> 8);
		ip6->src_addr[15] = (uint8_t)seed;
		ip6->dst_addr[0] = 0xfd;
		ip6->dst_addr[15] = 1;
		ports = (uint16_t *)(ip6 + 1);
	}
	if (proto == IPPROTO_TCP || proto == IPPROTO_UDP) {
		ports[0] = rte_cpu_to_be_16(1024 + seed * 7);
		ports[1] = rte_cpu_to_be_16(proto == IPPROTO_TCP ? 80 : 53);
	}
	if (proto == IPPROTO_TCP)
		((struct rte_tcp_hdr *)ports)->data_off = sizeof(struct rte_tcp_hdr) << 2;
	if (proto == IPPROTO_UDP)
		((struct rte_udp_hdr *)ports)->dgram_len =
			rte_cpu_to_be_16(128 - (uint16_t)((uint8_t *)ports - p));
	return m;
}

/* Toeplitz over the addresses and, for TCP/UDP, the ports of a received frame of its class. */
static uint32_t
class_hash(struct rte_mbuf *m, const uint8_t *key)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t t[RTE_THASH_V6_L4_LEN], n = 0, i, w, l4;
	uint8_t proto;

	if (p[12] == 0x08 && p[13] == 0x00) {
		for (i = 0; i < 2; i++) {
			memcpy(&w, p + 26 + 4 * i, 4);
			t[n++] = rte_be_to_cpu_32(w);
		}
		proto = p[23];
		l4 = 34;
	} else {
		for (i = 0; i < 8; i++) {
			memcpy(&w, p + 22 + 4 * i, 4);
			t[n++] = rte_be_to_cpu_32(w);
		}
		proto = p[20];
		l4 = 54;
	}
	if (proto == IPPROTO_TCP || proto == IPPROTO_UDP) {
		memcpy(&w, p + l4, 4);
		t[n++] = rte_be_to_cpu_32(w);
	}
	return rte_softrss(t, n, key);
}

/*
 * RSS per traffic class: with rss_hf naming IPv4 and IPv6, TCP and UDP, frames of each class
 * (TCP and UDP over IPv4 and IPv6, other IPv4, other IPv6) spread over several of 4 queues,
 * each with the hash of its class's fields (rte_softrss) on the queue the RETA gives; a
 * non-IP frame has no hash and lands on RETA entry 0 (doc/guides/nics/mlx5v.rst).
 */
static int
test_net_mlx5v_dp_rss_classes(void)
{
	static const struct {
		int v6;
		uint8_t proto;
	} cls[] = {
		{ 0, IPPROTO_TCP }, { 0, IPPROTO_UDP }, { 1, IPPROTO_TCP }, { 1, IPPROTO_UDP },
		{ 0, IPPROTO_ICMP }, { 1, IPPROTO_NONE }, { 0, 0 },
	};
	uint8_t key[40];
	struct rte_eth_rss_conf rss = {
		.rss_hf = RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP |
			  RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_IPV6 |
			  RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_NONFRAG_IPV6_UDP,
	};
	struct rte_mbuf *tx[32], *rx[32];
	unsigned int c, q, i, total, hit, polls, per_q[4];
	uint16_t n;

	TEST_ASSERT_SUCCESS(ports_up(4, 128, RTE_ETH_RX_OFFLOAD_RSS_HASH, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_update(g_p1, &rss), "every class hashed");
	rss.rss_key = key;
	rss.rss_key_len = sizeof(key);
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_conf_get(g_p1, &rss), "the key");
	for (c = 0; c < RTE_DIM(cls); c++) {
		for (i = 0; i < RTE_DIM(tx); i++) {
			tx[i] = frame_class(cls[c].v6, cls[c].proto, c * 64 + i + 1);
			TEST_ASSERT_NOT_NULL(tx[i], "frame");
		}
		TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, RTE_DIM(tx)), "send");
		total = 0;
		memset(per_q, 0, sizeof(per_q));
		/* Every queue in turn until all came (bounded). */
		for (polls = 0; total < RTE_DIM(tx) && polls < RX_POLLS; polls++) {
			q = polls % 4;
			n = rte_eth_rx_burst(g_p1, q, rx, RTE_DIM(rx));
			per_q[q] += n;
			total += n;
			for (i = 0; i < n; i++) {
				if (cls[c].proto == 0) {
					TEST_ASSERT(!(rx[i]->ol_flags & RTE_MBUF_F_RX_RSS_HASH),
						    "class %u: a hash on a non-IP frame", c);
					continue;
				}
				TEST_ASSERT(rx[i]->ol_flags & RTE_MBUF_F_RX_RSS_HASH,
					    "class %u: no RSS hash", c);
				TEST_ASSERT_EQUAL(rx[i]->hash.rss, class_hash(rx[i], key),
						  "class %u: hash %#x", c, rx[i]->hash.rss);
				TEST_ASSERT_EQUAL(rx[i]->hash.rss % 4, q,
						  "class %u: hash %#x on %u", c,
						  rx[i]->hash.rss, q);
			}
			rte_pktmbuf_free_bulk(rx, n);
			if (total < RTE_DIM(tx) && polls > 40)
				ut_sleep_ms(1);
		}
		for (q = 0, hit = 0; q < 4; q++)
			hit += per_q[q] != 0;
		if (cls[c].proto == 0)
			TEST_ASSERT_EQUAL(per_q[0], total, "class %u: not all on queue 0", c);
		TEST_ASSERT_EQUAL(total, RTE_DIM(tx), "class %u: %u of %u received", c, total,
				  (unsigned int)RTE_DIM(tx));
		if (cls[c].proto != 0)
			TEST_ASSERT(hit >= 3, "class %u spread over %u queue(s) of 4", c, hit);
	}
	return ports_down();
}

/* ---- rte_flow rules on port 1 (doc/guides/nics/mlx5v.rst, "Flow rules (rte_flow)") ---- */

/* A frame of flow_send(): what a test varies of its headers. */
struct flow_frame {
	const struct rte_ether_addr *dst; /* NULL: port 1's address */
	uint16_t vlan;                    /* a C-VLAN tag with this TCI, 0 for none */
	int v6;
	uint8_t proto;                    /* IPPROTO_TCP or IPPROTO_UDP */
	uint16_t dport;
	uint8_t tcp_flags;
};

/*
 * 128 bytes from port 0 to port 1 as ff says, the source address (and port) varying with
 * seed so that RSS spreads them; the last byte says whether the rule should take it (want).
 */
static struct rte_mbuf *
flow_frame_make(const struct flow_frame *ff, uint32_t seed, int want)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_mp);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip4;
	struct rte_ipv6_hdr *ip6;
	struct rte_tcp_hdr *th;
	uint8_t *p, *l3, *l4;
	uint16_t l3_len;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, 128);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(p, 0, 128);
	eth = (struct rte_ether_hdr *)p;
	eth->dst_addr = ff->dst != NULL ? *ff->dst : g_mac1;
	eth->src_addr = g_mac0;
	l3 = p + sizeof(*eth);
	if (ff->vlan != 0) {
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		*(uint16_t *)l3 = rte_cpu_to_be_16(ff->vlan);
		*(uint16_t *)(l3 + 2) = rte_cpu_to_be_16(ff->v6 ? RTE_ETHER_TYPE_IPV6 :
							RTE_ETHER_TYPE_IPV4);
		l3 += RTE_VLAN_HLEN;
	} else {
		eth->ether_type = rte_cpu_to_be_16(ff->v6 ? RTE_ETHER_TYPE_IPV6 :
						   RTE_ETHER_TYPE_IPV4);
	}
	l3_len = ff->v6 ? sizeof(*ip6) : sizeof(*ip4);
	l4 = l3 + l3_len;
	if (ff->v6) {
		ip6 = (struct rte_ipv6_hdr *)l3;
		ip6->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip6->payload_len = rte_cpu_to_be_16(128 - (l4 - p));
		ip6->proto = ff->proto;
		ip6->hop_limits = 64;
		ip6->src_addr[0] = 0xfd;
		ip6->src_addr[15] = (uint8_t)seed;
		ip6->src_addr[14] = (uint8_t)(seed >> 8);
		ip6->dst_addr[0] = 0xfd;
		ip6->dst_addr[15] = 1;
	} else {
		ip4 = (struct rte_ipv4_hdr *)l3;
		ip4->version_ihl = RTE_IPV4_VHL_DEF;
		ip4->time_to_live = 64;
		ip4->next_proto_id = ff->proto;
		ip4->total_length = rte_cpu_to_be_16(128 - (l3 - p));
		ip4->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 2, seed >> 8 & 0xff, seed & 0xff));
		ip4->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 1, 0, 1));
		ip4->hdr_checksum = rte_ipv4_cksum(ip4);
	}
	/* The ports: TCP and UDP alike in their first 4 bytes. */
	*(uint16_t *)l4 = rte_cpu_to_be_16(1000 + (seed & 0xfff));
	*(uint16_t *)(l4 + 2) = rte_cpu_to_be_16(ff->dport);
	if (ff->proto == IPPROTO_TCP) {
		th = (struct rte_tcp_hdr *)l4;
		th->data_off = sizeof(*th) << 2;
		th->tcp_flags = ff->tcp_flags;
	} else {
		((struct rte_udp_hdr *)l4)->dgram_len = rte_cpu_to_be_16(128 - (l4 - p));
	}
	p[127] = (uint8_t)want;
	return m;
}

/*
 * With flow_async=1 (the default) a rule's entry may still be in flight when create returns,
 * and frames sent at once may reach the device first: rte_flow_query() of the rule returns
 * only once its entry is set (doc/guides/nics/mlx5v.rst, "Entries in flight"). A rule without
 * a counter answers ENOTSUP, which is expected here.
 */
static void
flow_settle(uint16_t port, struct rte_flow *flow)
{
	struct rte_flow_action count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	struct rte_flow_query_count q;
	struct rte_flow_error err;

	memset(&q, 0, sizeof(q));
	(void)rte_flow_query(port, flow, &count, &q, &err);
}

/*
 * Send n frames as hit says (taken by the rule) and n as miss says, interleaved, then take
 * the 2n from port 1's 4 queues: each hit on queue 3 with the FDIR id mark, no miss with an
 * FDIR flag. @return TEST_SUCCESS or TEST_FAILED.
 */
static int
flow_send(const struct flow_frame *hit, const struct flow_frame *miss, uint16_t n,
	  uint32_t mark, const char *what)
{
	struct rte_mbuf *tx[64], *rx[64];
	uint16_t i, q, got = 0, hits = 0, marked = 0;
	unsigned int polls;
	struct rte_mbuf *m;

	TEST_ASSERT(2u * n <= RTE_DIM(tx), "%s: too many frames", what);
	for (i = 0; i < 2 * n; i++) {
		tx[i] = flow_frame_make(i % 2 ? miss : hit, i, !(i % 2));
		TEST_ASSERT_NOT_NULL(tx[i], "%s: frame", what);
	}
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 2 * n), "%s: send", what);
	for (polls = 0; got < 2 * n && polls < RX_POLLS; polls++) {
		for (q = 0; q < 4; q++) {
			uint16_t k = rte_eth_rx_burst(g_p1, q, rx, RTE_DIM(rx));

			for (i = 0; i < k; i++) {
				m = rx[i];
				if (*rte_pktmbuf_mtod_offset(m, uint8_t *, 127) != 0)
					hits += q == 3 && (m->ol_flags & RTE_MBUF_F_RX_FDIR_ID) &&
						m->hash.fdir.hi == mark;
				else
					marked += (m->ol_flags & RTE_MBUF_F_RX_FDIR) != 0;
			}
			rte_pktmbuf_free_bulk(rx, k);
			got += k;
		}
		if (got < 2 * n && polls > 10)
			ut_sleep_ms(1);
	}
	TEST_ASSERT_EQUAL(got, 2 * n, "%s: %u of %u frames received", what, got, 2 * n);
	TEST_ASSERT_EQUAL(marked, 0, "%s: %u frames the rule misses are marked", what, marked);
	TEST_ASSERT_EQUAL(hits, n, "%s: %u of %u hits on queue 3 with mark %u", what, hits, n,
			  mark);
	return TEST_SUCCESS;
}

/*
 * One rule at a time on port 1, MARK and QUEUE 3, each taking its frames and only those: IPv6
 * and a TCP port, TCP flags (SYN without ACK), the VLAN ID, the multicast bit of the
 * destination, an IPv4 source prefix. A rule of priority 1 sends everything else to queue 3
 * unmarked, so that marked and unmarked completions share a CQ (and its compressed sessions:
 * in the flow tag mini-CQE format each frame has its own tag). Then a mask the device cannot
 * express is refused by validate and create, naming the field, and makes no object.
 */
static int
test_net_mlx5v_dp_flow(void)
{
	static const struct rte_ether_addr mc = {{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x09 }};
	struct rte_flow_item_ipv6 ip6 = { .hdr.proto = IPPROTO_TCP };
	struct rte_flow_item_ipv6 ip6_mask = { .hdr.proto = 0xff };
	struct rte_flow_item_tcp tcp = { .hdr.dst_port = RTE_BE16(443) };
	struct rte_flow_item_tcp tcp_mask = { .hdr.dst_port = RTE_BE16(0xffff) };
	struct rte_flow_item_tcp syn = { .hdr.tcp_flags = RTE_TCP_SYN_FLAG };
	struct rte_flow_item_tcp syn_mask = {
		.hdr.tcp_flags = RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG,
	};
	struct rte_flow_item_vlan vlan = { .tci = RTE_BE16(100) };
	struct rte_flow_item_vlan vlan_mask = { .tci = RTE_BE16(0x0fff) };
	struct rte_flow_item_eth eth_mc = { .dst.addr_bytes = { 0x01 } };
	struct rte_flow_item_eth eth_mc_mask = { .dst.addr_bytes = { 0x01 } };
	struct rte_flow_item_ipv4 ip4 = { .hdr.src_addr = RTE_BE32(RTE_IPV4(10, 2, 0, 0)) };
	struct rte_flow_item_ipv4 ip4_mask = { .hdr.src_addr = RTE_BE32(0xffffff00) };
	struct rte_flow_item_ipv4 ttl_mask = { .hdr.time_to_live = 0xff };
	struct rte_flow_item pat[4][4] = {
		{ { .type = RTE_FLOW_ITEM_TYPE_ETH },
		  { .type = RTE_FLOW_ITEM_TYPE_IPV6, .spec = &ip6, .mask = &ip6_mask },
		  { .type = RTE_FLOW_ITEM_TYPE_TCP, .spec = &tcp, .mask = &tcp_mask },
		  { .type = RTE_FLOW_ITEM_TYPE_END } },
		{ { .type = RTE_FLOW_ITEM_TYPE_ETH },
		  { .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		  { .type = RTE_FLOW_ITEM_TYPE_TCP, .spec = &syn, .mask = &syn_mask },
		  { .type = RTE_FLOW_ITEM_TYPE_END } },
		{ { .type = RTE_FLOW_ITEM_TYPE_ETH },
		  { .type = RTE_FLOW_ITEM_TYPE_VLAN, .spec = &vlan, .mask = &vlan_mask },
		  { .type = RTE_FLOW_ITEM_TYPE_END } },
		{ { .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth_mc, .mask = &eth_mc_mask },
		  { .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip4, .mask = &ip4_mask },
		  { .type = RTE_FLOW_ITEM_TYPE_END } },
	};
	const struct flow_frame hit[4] = {
		{ .v6 = 1, .proto = IPPROTO_TCP, .dport = 443 },
		{ .proto = IPPROTO_TCP, .dport = 80, .tcp_flags = RTE_TCP_SYN_FLAG },
		{ .vlan = 100, .proto = IPPROTO_UDP, .dport = 4789 },
		{ .dst = &mc, .proto = IPPROTO_UDP, .dport = 4789 },
	};
	const struct flow_frame miss[4] = {
		{ .v6 = 1, .proto = IPPROTO_TCP, .dport = 444 },
		{ .proto = IPPROTO_TCP, .dport = 80,
		  .tcp_flags = RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG },
		{ .vlan = 101, .proto = IPPROTO_UDP, .dport = 4789 },
		{ .proto = IPPROTO_UDP, .dport = 4789 },
	};
	const struct rte_flow_attr attr = { .ingress = 1 };
	const struct rte_flow_attr attr_low = { .ingress = 1, .priority = 1 };
	const struct rte_flow_item any[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_mark mark;
	struct rte_flow_action_queue queue = { .index = 3 };
	struct rte_flow_action act[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	struct rte_flow *flow, *rest;
	unsigned int i, fte;

	TEST_ASSERT_SUCCESS(ports_up(4, 256, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(g_p1), "all-multicast");
	rest = rte_flow_create(g_p1, &attr_low, any, &act[1], &err);
	TEST_ASSERT_NOT_NULL(rest, "the priority-1 rule: %s", err.message);
	flow_settle(g_p1, rest);
	for (i = 0; i < RTE_DIM(pat); i++) {
		mark.id = 0x100 + i;
		TEST_ASSERT_SUCCESS(rte_flow_validate(g_p1, &attr, pat[i], act, &err),
				    "validate rule %u: %s", i, err.message);
		flow = rte_flow_create(g_p1, &attr, pat[i], act, &err);
		TEST_ASSERT_NOT_NULL(flow, "create rule %u: %s", i, err.message);
		flow_settle(g_p1, flow);
		TEST_ASSERT_SUCCESS(flow_send(&hit[i], &miss[i], 16, mark.id, "rule"),
				    "rule %u", i);
		TEST_ASSERT_SUCCESS(rte_flow_destroy(g_p1, flow, &err), "destroy rule %u", i);
	}
	TEST_ASSERT_SUCCESS(rte_flow_destroy(g_p1, rest, &err), "destroy the priority-1 rule");
	fte = mlx5v_sim_live_objects(g_sim1, MLX5V_SIM_OBJ_FTE);
	pat[1][1].mask = &ttl_mask;
	pat[1][1].spec = &ttl_mask;
	TEST_ASSERT_EQUAL(rte_flow_validate(g_p1, &attr, pat[1], act, &err), -ENOTSUP,
			  "a TTL mask validated");
	TEST_ASSERT(err.message != NULL && strstr(err.message, "ipv4") != NULL,
		    "the refusal does not name the item: %s", err.message);
	TEST_ASSERT_NULL(rte_flow_create(g_p1, &attr, pat[1], act, &err), "a TTL rule made");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim1, MLX5V_SIM_OBJ_FTE), fte,
			  "a refused rule left an entry");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_disable(g_p1), "all-multicast off");
	return ports_down();
}

/* VLAN: inserted by the sender's device, stripped into the mbuf by the receiver's. */
static int
test_net_mlx5v_dp_vlan(void)
{
	struct rte_mbuf *m, *ref, *rx[1];
	struct rte_eth_dev_info info;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	if (!(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_VLAN_INSERT) ||
	    !(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_VLAN_STRIP)) {
		printf("VLAN offloads not advertised\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(ports_up(1, 64, RTE_ETH_RX_OFFLOAD_VLAN_STRIP,
				     RTE_ETH_TX_OFFLOAD_VLAN_INSERT, 1500), "start");
	m = frame(&g_mac1, 300, 9, 0);
	TEST_ASSERT_NOT_NULL(m, "frame");
	ref = copy_of(m);
	TEST_ASSERT_NOT_NULL(ref, "copy");
	m->ol_flags |= RTE_MBUF_F_TX_VLAN;
	m->vlan_tci = 0x2123;
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, &m, 1), "send");
	TEST_ASSERT_EQUAL(recv_n(g_p1, 0, rx, 1), 1, "received");
	TEST_ASSERT(rx[0]->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED, "not stripped");
	TEST_ASSERT_EQUAL(rx[0]->vlan_tci, 0x2123, "TCI %#x", rx[0]->vlan_tci);
	TEST_ASSERT(same_bytes(rx[0], ref), "frame without its tag differs");
	rte_pktmbuf_free(rx[0]);
	rte_pktmbuf_free(ref);
	return ports_down();
}

/* Send one frame tagged by the device (VLAN insert) from port 0; receive it on port 1. */
static struct rte_mbuf *
vlan_roundtrip(struct rte_mbuf **ref, uint16_t tci)
{
	struct rte_mbuf *m, *rx[1];

	m = frame(&g_mac1, 300, tci, 0);
	if (m == NULL)
		return NULL;
	*ref = copy_of(m);
	m->ol_flags |= RTE_MBUF_F_TX_VLAN;
	m->vlan_tci = tci;
	if (*ref == NULL || send_all(g_p0, 0, &m, 1) != 0 || recv_n(g_p1, 0, rx, 1) != 1)
		return NULL;
	return rx[0];
}

/* VLAN stripping switched on a running port, port-wide and per queue (MODIFY_RQ vsd). */
static int
test_net_mlx5v_dp_vlan_toggle(void)
{
	struct rte_mbuf *rx, *ref;
	struct rte_eth_dev_info info;
	uint16_t tpid;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	if (!(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_VLAN_INSERT) ||
	    !(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_VLAN_STRIP)) {
		printf("VLAN offloads not advertised\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, RTE_ETH_TX_OFFLOAD_VLAN_INSERT, 1500), "start");
	/* Off: the tag stays in the frame. */
	rx = vlan_roundtrip(&ref, 0x123);
	TEST_ASSERT_NOT_NULL(rx, "tagged frame not received");
	TEST_ASSERT(!(rx->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED), "stripped while off");
	/* The TPID follows the MAC addresses. */
	tpid = rte_be_to_cpu_16(*rte_pktmbuf_mtod_offset(rx, rte_be16_t *,
							 2 * RTE_ETHER_ADDR_LEN));
	TEST_ASSERT(rx->pkt_len == ref->pkt_len + RTE_VLAN_HLEN && tpid == RTE_ETHER_TYPE_VLAN,
		    "no tag in the frame (%u bytes, %#x)", rx->pkt_len, tpid);
	rte_pktmbuf_free(rx);
	rte_pktmbuf_free(ref);
	/* On for the running port. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_vlan_offload(g_p1, RTE_ETH_VLAN_STRIP_OFFLOAD),
			    "VLAN strip on");
	TEST_ASSERT(rte_eth_dev_get_vlan_offload(g_p1) & RTE_ETH_VLAN_STRIP_OFFLOAD, "not on");
	rx = vlan_roundtrip(&ref, 0x2a7);
	TEST_ASSERT_NOT_NULL(rx, "tagged frame not received");
	TEST_ASSERT(rx->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED, "not stripped once on");
	TEST_ASSERT_EQUAL(rx->vlan_tci, 0x2a7, "TCI %#x", rx->vlan_tci);
	TEST_ASSERT(same_bytes(rx, ref), "frame without its tag differs");
	rte_pktmbuf_free(rx);
	rte_pktmbuf_free(ref);
	/* Off again for queue 0 alone. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_vlan_strip_on_queue(g_p1, 0, 0), "queue strip off");
	rx = vlan_roundtrip(&ref, 0x3b1);
	TEST_ASSERT_NOT_NULL(rx, "tagged frame not received");
	TEST_ASSERT(!(rx->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED), "stripped on queue 0");
	TEST_ASSERT_EQUAL(rx->pkt_len, ref->pkt_len + RTE_VLAN_HLEN, "tag not in the frame");
	rte_pktmbuf_free(rx);
	rte_pktmbuf_free(ref);
	/* On for queue 0 while it is stopped (its RQ in RST): in force from its start. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_stop(g_p1, 0), "queue stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_vlan_strip_on_queue(g_p1, 0, 1), "strip on, stopped");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_start(g_p1, 0), "queue start");
	rx = vlan_roundtrip(&ref, 0x1c4);
	TEST_ASSERT_NOT_NULL(rx, "tagged frame not received");
	TEST_ASSERT(rx->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED, "not stripped after the start");
	TEST_ASSERT_EQUAL(rx->vlan_tci, 0x1c4, "TCI %#x", rx->vlan_tci);
	rte_pktmbuf_free(rx);
	rte_pktmbuf_free(ref);
	TEST_ASSERT_SUCCESS(ports_down(), "down");
	return TEST_SUCCESS;
}

/* TSO: a TCP packet of 3 MSS leaves as 3 segments with their own lengths and checksums. */
static int
test_net_mlx5v_dp_tso(void)
{
	const uint16_t mss = 400, hlen = RTE_ETHER_HDR_LEN + 20 + 20;
	struct rte_mbuf *m, *ref, *rx[4];
	struct rte_eth_dev_info info;
	struct rte_ipv4_hdr *ip;
	struct rte_tcp_hdr *th;
	uint16_t i, n;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	TEST_ASSERT(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_TCP_TSO,
		    "TSO not advertised on a device with LSO");
	TEST_ASSERT_SUCCESS(ports_up(1, 64, RTE_ETH_RX_OFFLOAD_CHECKSUM,
				     RTE_ETH_TX_OFFLOAD_TCP_TSO | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				     RTE_ETH_TX_OFFLOAD_TCP_CKSUM, 1500), "start");
	m = frame(&g_mac1, hlen + 3 * mss, 21, 1);
	TEST_ASSERT_NOT_NULL(m, "frame");
	th = rte_pktmbuf_mtod_offset(m, struct rte_tcp_hdr *, RTE_ETHER_HDR_LEN + 20);
	th->sent_seq = rte_cpu_to_be_32(1000);
	th->tcp_flags = RTE_TCP_PSH_FLAG | RTE_TCP_ACK_FLAG;
	ref = copy_of(m);
	TEST_ASSERT_NOT_NULL(ref, "copy");
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_TCP_SEG;
	m->l2_len = RTE_ETHER_HDR_LEN;
	m->l3_len = 20;
	m->l4_len = 20;
	m->tso_segsz = mss;
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, &m, 1), "send");
	n = recv_n(g_p1, 0, rx, 4);
	TEST_ASSERT_EQUAL(n, 3, "%u segments of a 3-MSS packet", n);
	for (i = 0; i < n; i++) {
		TEST_ASSERT_EQUAL(rx[i]->pkt_len, (uint32_t)hlen + mss, "segment %u: %u bytes", i,
				  rx[i]->pkt_len);
		ip = rte_pktmbuf_mtod_offset(rx[i], struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
		th = (struct rte_tcp_hdr *)(ip + 1);
		TEST_ASSERT_EQUAL(rte_be_to_cpu_16(ip->total_length), 20 + 20 + mss,
				  "segment %u: IP length", i);
		TEST_ASSERT_EQUAL(rte_ipv4_cksum(ip), 0, "segment %u: IP checksum", i);
		TEST_ASSERT_EQUAL(rte_ipv4_udptcp_cksum_verify(ip, th), 0,
				  "segment %u: TCP checksum", i);
		TEST_ASSERT_EQUAL(rx[i]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK,
				  RTE_MBUF_F_RX_L4_CKSUM_GOOD, "segment %u: L4 not good", i);
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(th->sent_seq), 1000u + i * mss,
				  "segment %u: sequence number", i);
		TEST_ASSERT_EQUAL(!!(th->tcp_flags & RTE_TCP_PSH_FLAG), i == n - 1,
				  "segment %u: PSH", i);
		TEST_ASSERT(memcmp(rte_pktmbuf_mtod_offset(rx[i], uint8_t *, hlen),
				   rte_pktmbuf_mtod_offset(ref, uint8_t *, hlen + i * mss),
				   mss) == 0, "segment %u: payload differs", i);
	}
	rte_pktmbuf_free_bulk(rx, n);
	rte_pktmbuf_free(ref);
	return ports_down();
}

/* An error CQE: counted, the SQ back to ready, and the next packets go through. */
static int
test_net_mlx5v_dp_tx_error(void)
{
	struct rte_mbuf *tx[8], *rx[8];
	struct rte_eth_stats st;
	uint16_t i, n;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim0, "tx_err_next", 1), "knob");
	for (i = 0; i < 8; i++) {
		tx[i] = frame(&g_mac1, 100, i, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
	}
	/* The first WQE fails, the SQ goes to ERR and the other 7 are flushed. */
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 8), "send");
	n = recv_n(g_p1, 0, rx, 8);
	TEST_ASSERT_EQUAL(n, 0, "%u frames crossed an SQ in error", n);
	for (i = 0; i < 8; i++) {
		tx[i] = frame(&g_mac1, 100, i, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
	}
	/* The next burst reaps the error, recovers the SQ and sends. */
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 8), "send after the error");
	n = recv_n(g_p1, 0, rx, 8);
	TEST_ASSERT_EQUAL(n, 8, "%u of 8 frames after recovery", n);
	rte_pktmbuf_free_bulk(rx, n);
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p0, &st), "stats");
	TEST_ASSERT_EQUAL(st.oerrors, 8u, "oerrors %" PRIu64, st.oerrors);
	TEST_ASSERT_EQUAL(st.opackets, 8u, "opackets %" PRIu64, st.opackets);
	return ports_down();
}

/* rte_mempool_mem_iter() callback: unmap (arg NULL) or map again each chunk for port 1. */
static void
chunk_dma(struct rte_mempool *mp, void *arg, struct rte_mempool_memhdr *hdr, unsigned int i)
{
	struct rte_pmd_mlx5v_dev *dev =
		(struct rte_pmd_mlx5v_dev *)mlx5v_dev_get(ut_dev_name_at(DEV1, 1));
	uint64_t iova;

	RTE_SET_USED(mp);
	RTE_SET_USED(i);
	if (arg == NULL)
		rte_pmd_mlx5v_devx_dma_unmap(dev, hdr->addr, hdr->len);
	else
		rte_pmd_mlx5v_devx_dma_map(dev, hdr->addr, hdr->len, &iova);
}

/* A receive error CQE (the buffers not DMA-mapped): counted, the RQ back to ready. */
static int
test_net_mlx5v_dp_rx_error(void)
{
	struct rte_mbuf *tx[4], *rx[4];
	struct rte_eth_stats st;
	uint16_t i, n;

	UT_DEV_VDEV_ONLY("the mempool is EAL memory, in the VFIO container for the program's life");
	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	rte_mempool_mem_iter(g_mp, chunk_dma, NULL);
	tx[0] = frame(&g_mac1, 100, 1, 0);
	TEST_ASSERT_NOT_NULL(tx[0], "frame");
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 1), "send");
	n = recv_n(g_p1, 0, rx, 1);
	TEST_ASSERT_EQUAL(n, 0, "a frame arrived in unmapped buffers");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	TEST_ASSERT_EQUAL(st.ierrors, 1u, "ierrors %" PRIu64, st.ierrors);
	TEST_ASSERT_EQUAL(st.q_errors[0], 1u, "queue errors %" PRIu64, st.q_errors[0]);
	rte_mempool_mem_iter(g_mp, chunk_dma, g_mp);
	for (i = 0; i < 4; i++) {
		tx[i] = frame(&g_mac1, 100, i, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
	}
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 4), "send");
	n = recv_n(g_p1, 0, rx, 4);
	TEST_ASSERT_EQUAL(n, 4, "%u of 4 frames after the RQ recovered", n);
	rte_pktmbuf_free_bulk(rx, n);
	return ports_down();
}

/* n frames of len0 + i * step bytes (seeds from seed on) sent from port 0. @return 0 or -1. */
static int
send_lens(uint16_t n, uint32_t len0, uint32_t step, uint32_t seed)
{
	struct rte_mbuf *tx[BURST];
	uint16_t i;

	for (i = 0; i < n && i < BURST; i++) {
		tx[i] = frame(&g_mac1, len0 + i * step, seed + i, 0);
		if (tx[i] == NULL) {
			rte_pktmbuf_free_bulk(tx, i);
			return -1;
		}
	}
	return send_all(g_p0, 0, tx, i);
}

/*
 * Exactly n frames arrive on port 1 (polling for up to BURST), of len0 + i bytes in order.
 * @return TEST_SUCCESS or TEST_FAILED.
 */
static int
recv_lens(uint16_t n, uint32_t len0)
{
	struct rte_mbuf *rx[BURST];
	uint16_t i, got = recv_n(g_p1, 0, rx, BURST);
	int ret = got == n ? TEST_SUCCESS : TEST_FAILED;

	if (ret != TEST_SUCCESS)
		printf("%u frames arrived, %u expected\n", got, n);
	for (i = 0; ret == TEST_SUCCESS && i < got; i++) {
		if (rx[i]->pkt_len != len0 + i) {
			printf("frame %u: length %u, %u expected\n", i, rx[i]->pkt_len, len0 + i);
			ret = TEST_FAILED;
		}
	}
	rte_pktmbuf_free_bulk(rx, got);
	return ret;
}

/*
 * n frames (seeds from seed on) from port 0 to port 1; all must arrive byte for byte and in
 * order. @return TEST_SUCCESS or TEST_FAILED.
 */
static int
roundtrip(uint32_t seed, uint16_t n, const char *what)
{
	struct rte_mbuf *tx[BURST], *copy[BURST], *rx[BURST];
	uint16_t i, got;
	int ret = TEST_SUCCESS;

	for (i = 0; i < n; i++) {
		tx[i] = frame(&g_mac1, 64 + (seed + i) % 700, seed + i, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
		copy[i] = copy_of(tx[i]);
		TEST_ASSERT_NOT_NULL(copy[i], "copy");
	}
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, n), "send");
	got = recv_n(g_p1, 0, rx, n);
	if (got != n) {
		printf("%s: %u of %u frames arrived\n", what, got, n);
		ret = TEST_FAILED;
	}
	for (i = 0; ret == TEST_SUCCESS && i < got; i++) {
		if (!same_bytes(rx[i], copy[i])) {
			printf("%s: frame %u differs from what was sent\n", what, i);
			ret = TEST_FAILED;
		}
	}
	rte_pktmbuf_free_bulk(rx, got);
	rte_pktmbuf_free_bulk(copy, n);
	return ret;
}

/*
 * A fatal receive error CQE (LOCAL_PROT, from the simulator's rx_err_next knob) after good
 * frames not yet read and before frames sent while the RQ is in ERR: the RQ flushes every
 * posted WQE (WR_FLUSH_ERR CQEs fill the CQ), the PMD takes the good frames (a compressed
 * session where the device makes them), drains the flushed CQEs, resets the RQ with its
 * record 0 and posts again; what is sent after arrives intact and in order, and every mbuf
 * comes back.
 */
static int
test_net_mlx5v_dp_rx_error_flush(void)
{
	struct mlx5v_sim_eth_stats sst;
	struct rte_eth_stats st;
	unsigned int round;
	uint64_t errs;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(send_lens(8, 100, 1, 0), "send the good frames");
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(g_sim1, &sst), "sim stats");
	errs = sst.rx_err_cqes;
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim1, "rx_err_next", 1), "knob");
	/* The first fails with LOCAL_PROT; the others find the RQ in ERR. */
	TEST_ASSERT_SUCCESS(send_lens(9, 100, 0, 100), "send into the error");
	TEST_ASSERT_SUCCESS(recv_lens(8, 100), "the 8 good frames");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	TEST_ASSERT_EQUAL(st.ipackets, 8u, "ipackets %" PRIu64, st.ipackets);
	/* The error CQE, then a flushed one for each WQE still posted (at least 64 - 16 - 9). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(g_sim1, &sst), "sim stats");
	TEST_ASSERT(sst.rx_err_cqes - errs >= 1 + 39, "%" PRIu64 " error CQEs",
		    sst.rx_err_cqes - errs);
	/* Several rounds: the restarted RQ wraps its ring and its CQ. */
	for (round = 0; round < 6; round++)
		TEST_ASSERT_SUCCESS(roundtrip(1000 + round * BURST, BURST, "after the reset"),
				    "round %u after the RQ reset", round);
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	TEST_ASSERT_EQUAL(st.ipackets, 8u + 6 * BURST, "ipackets %" PRIu64, st.ipackets);
	return ports_down();
}

/*
 * A receive error CQE whose syndrome leaves the RQ ready (LOCAL_ACCESS 0x11, from the
 * rx_err_next and rx_err_synd knobs; DPDK's receive path skips such a CQE): the frame is
 * counted in ierrors and lost, the queue goes on without a reset and does not stall.
 */
static int
test_net_mlx5v_dp_rx_error_soft(void)
{
	struct rte_eth_stats st;
	int ret;

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim1, "rx_err_synd", 0x11), "knob");
	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim1, "rx_err_next", 1), "knob");
	TEST_ASSERT_SUCCESS(send_lens(8, 100, 1, 0), "send");
	ret = recv_lens(7, 101);
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim1, "rx_err_synd", 0x04), "knob back");
	TEST_ASSERT_SUCCESS(ret, "the 7 frames after the error");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	TEST_ASSERT_EQUAL(st.ierrors, 1u, "ierrors %" PRIu64, st.ierrors);
	TEST_ASSERT_SUCCESS(roundtrip(500, BURST, "after a soft error"), "after a soft error");
	return ports_down();
}

/*
 * Good receive CQEs with the solicited-event bit set (the simulator's rx_cqe_se knob): the
 * PMD tells errors by the opcode alone, so every frame arrives intact, one alone, in short
 * bursts and in compressed sessions, and none counts as an error.
 */
static int
test_net_mlx5v_dp_rx_cqe_se(void)
{
	static const uint16_t nb[] = { 1, 7, BURST, 3, BURST, 16 };
	struct rte_eth_stats st;
	unsigned int i;
	uint32_t seed = 0;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim1, "rx_cqe_se", 1), "knob");
	for (i = 0; i < RTE_DIM(nb) * 4 && ret == TEST_SUCCESS; i++) {
		ret = roundtrip(seed, nb[i % RTE_DIM(nb)], "se set");
		seed += nb[i % RTE_DIM(nb)];
	}
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim1, "rx_cqe_se", 0), "knob back");
	TEST_ASSERT_SUCCESS(ret, "frames with se set");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	TEST_ASSERT_EQUAL(st.ierrors, 0u, "ierrors %" PRIu64, st.ierrors);
	TEST_ASSERT_EQUAL(st.ipackets, seed, "ipackets %" PRIu64 " of %u", st.ipackets, seed);
	return ports_down();
}

/*
 * Compressed sessions whatever the mini-CQE format (rxq_cqe_comp_en 1 to 4): bursts of 1 to
 * 32 frames of one flow (so that the hash, which only the HASH format carries per frame, is
 * the same), each of its own length; every frame arrives with its length, in order, with
 * the packet type and checksum flags of a UDP/IPv4 frame, none counts as an error, and the
 * device writes sessions where it has the capability.
 */
static int
test_net_mlx5v_dp_cqe_comp_fmt(void)
{
	const uint64_t ok = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	uint64_t sessions = mlx5v_sim_counter(g_sim1, MLX5V_SIM_CTR_CQE_SESSIONS);
	struct rte_mbuf *tx[BURST], *rx[BURST];
	struct rte_eth_stats st;
	uint16_t nb, i, n;
	uint32_t len;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	for (nb = 1; nb <= BURST; nb++) {
		for (i = 0; i < nb; i++) {
			tx[i] = frame(&g_mac1, 60 + nb + 3 * i, 7, 0);
			TEST_ASSERT_NOT_NULL(tx[i], "frame");
		}
		TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, nb), "send %u", nb);
		n = recv_n(g_p1, 0, rx, nb);
		TEST_ASSERT_EQUAL(n, nb, "burst of %u: %u arrived", nb, n);
		for (i = 0; i < n; i++) {
			len = 60 + nb + 3 * i;
			TEST_ASSERT_EQUAL(rx[i]->pkt_len, len, "burst %u frame %u: length %u",
					  nb, i, rx[i]->pkt_len);
			TEST_ASSERT_EQUAL(rx[i]->packet_type, RTE_PTYPE_L2_ETHER |
					  RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP,
					  "burst %u frame %u: ptype %#x", nb, i,
					  rx[i]->packet_type);
			TEST_ASSERT_EQUAL(rx[i]->ol_flags & ok, ok, "checksum flags %#" PRIx64,
					  rx[i]->ol_flags);
		}
		rte_pktmbuf_free_bulk(rx, n);
	}
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	TEST_ASSERT_EQUAL(st.ierrors, 0u, "ierrors %" PRIu64, st.ierrors);
	sessions = mlx5v_sim_counter(g_sim1, MLX5V_SIM_CTR_CQE_SESSIONS) - sessions;
	if (strstr(g_caps, "cqe_comp=0") != NULL)
		TEST_ASSERT_EQUAL(sessions, 0u, "%" PRIu64 " sessions", sessions);
	else
		TEST_ASSERT(sessions >= BURST - 1, "only %" PRIu64 " sessions", sessions);
	return ports_down();
}

/* Many bursts through rings of 64: both rings and CQs wrap many times. */
static int
test_net_mlx5v_dp_wrap(void)
{
	struct rte_mbuf *tx[BURST], *rx[BURST];
	unsigned int round, total = 0;
	uint16_t i, n;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	for (round = 0; round < 300; round++) {
		for (i = 0; i < BURST; i++) {
			tx[i] = frame(&g_mac1, 64 + (round % 7) * 100, round * BURST + i, 0);
			TEST_ASSERT_NOT_NULL(tx[i], "frame");
		}
		TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, BURST), "send round %u", round);
		n = recv_n(g_p1, 0, rx, BURST);
		TEST_ASSERT_EQUAL(n, BURST, "round %u: %u of %u", round, n, BURST);
		for (i = 0; i < n; i++)
			TEST_ASSERT_EQUAL(rte_pktmbuf_mtod(rx[i], uint8_t *)[60],
					  (uint8_t)((round * BURST + i) * 7 + 60),
					  "round %u frame %u out of order", round, i);
		total += n;
		rte_pktmbuf_free_bulk(rx, n);
	}
	TEST_ASSERT_EQUAL(total, 300u * BURST, "total");
	return ports_down();
}

/*
 * CQE compression (doc/guides/prm/mlx5_eth.rst §8.5): bursts of 1 to 45 frames of distinct
 * lengths through rings of 64, so that sessions of every size cross the CQ's end and the
 * RQ's, taken whole or a few frames per rx_burst() (3, 5 or 11 at a time: sessions end
 * across bursts, and bursts start within an array of 8 mini-CQEs, then take whole arrays);
 * each mbuf has its frame's length, bytes, order, packet type and checksum flags, as
 * without compression, and the byte counter adds up; the port stops in a session taken in
 * part without losing an mbuf. The receiving device writes sessions exactly when it has the
 * capability (the PMD asks for them by default).
 */
static int
test_net_mlx5v_dp_cqe_comp(void)
{
	const uint64_t ok = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	uint64_t sessions = mlx5v_sim_counter(g_sim1, MLX5V_SIM_CTR_CQE_SESSIONS);
	static const uint16_t take[4] = { 64, 3, 5, 11 };
	struct rte_mbuf *tx[64], *rx[64];
	unsigned int round, seed = 0;
	struct rte_eth_stats st;
	uint16_t i, n, got, nb;
	uint64_t bytes = 0;
	uint32_t len;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	bytes = st.ibytes;
	for (round = 0; round < 180; round++) {
		nb = 1 + round % 45;
		for (i = 0; i < nb; i++) {
			tx[i] = frame(&g_mac1, 60 + (round * 13 + i * 29) % 1400, seed + i, 0);
			TEST_ASSERT_NOT_NULL(tx[i], "frame");
		}
		TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, nb), "send round %u", round);
		for (got = 0, n = 1; got < nb && n > 0; got += n)
			n = recv_n(g_p1, 0, rx + got, RTE_MIN(take[round % 4], nb - got));
		TEST_ASSERT_EQUAL(got, nb, "round %u: %u of %u", round, got, nb);
		/* The slots after the last session: consumed ones of earlier laps, no frame. */
		TEST_ASSERT_EQUAL(rte_eth_rx_burst(g_p1, 0, rx + nb, 64 - nb), 0,
				  "round %u: a frame from a stale CQE slot", round);
		for (i = 0; i < nb; i++) {
			len = 60 + (round * 13 + i * 29) % 1400;
			TEST_ASSERT_EQUAL(rx[i]->pkt_len, len, "round %u frame %u: length %u",
					  round, i, rx[i]->pkt_len);
			TEST_ASSERT_EQUAL(rx[i]->data_len, len, "data_len");
			bytes += len;
			TEST_ASSERT_EQUAL(rte_pktmbuf_mtod(rx[i], uint8_t *)[59],
					  (uint8_t)((seed + i) * 7 + 59), "round %u frame %u order",
					  round, i);
			TEST_ASSERT_EQUAL(rx[i]->packet_type, RTE_PTYPE_L2_ETHER |
					  RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP,
					  "ptype %#x", rx[i]->packet_type);
			TEST_ASSERT_EQUAL(rx[i]->ol_flags & ok, ok, "checksum flags %#" PRIx64,
					  rx[i]->ol_flags);
			TEST_ASSERT(rx[i]->nb_segs == 1 && rx[i]->port == g_p1, "segments, port");
		}
		rte_pktmbuf_free_bulk(rx, nb);
		seed += nb;
	}
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	TEST_ASSERT_EQUAL(st.ibytes, bytes, "%" PRIu64 " bytes counted, %" PRIu64 " received",
			  st.ibytes, bytes);
	sessions = mlx5v_sim_counter(g_sim1, MLX5V_SIM_CTR_CQE_SESSIONS) - sessions;
	if (strstr(g_caps, "cqe_comp=0") != NULL)
		TEST_ASSERT_EQUAL(sessions, 0u, "%" PRIu64 " sessions without the capability",
				  sessions);
	else
		TEST_ASSERT(sessions >= 160, "only %" PRIu64 " compressed sessions", sessions);
	/*
	 * A session taken in part when the port stops: its WQEs hold fresh mbufs that wait for
	 * the session's end to be posted, and go back to the pool with the posted ones.
	 */
	for (i = 0; i < 20; i++) {
		tx[i] = frame(&g_mac1, 60 + i, seed + i, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
	}
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, 20), "send the last session");
	n = recv_n(g_p1, 0, rx, 5);
	TEST_ASSERT_EQUAL(n, 5, "%u of 5 from the last session", n);
	rte_pktmbuf_free_bulk(rx, n);
	return ports_down();
}

/* The Tx burst mode says which send path the device's capabilities chose. */
static int
test_net_mlx5v_dp_tx_mode(void)
{
	struct rte_eth_burst_mode mode;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_tx_burst_mode_get(g_p0, 0, &mode), "burst mode");
	TEST_ASSERT_EQUAL(strstr(mode.info, "enhanced MPW") != NULL, *g_caps != '\0',
			  "Tx burst mode \"%s\" with devargs \"%s\"", mode.info, g_caps);
	return ports_down();
}

/*
 * The Rx burst mode says which loop reads the CQEs: the SSE one where it is built (x86 with
 * SSSE3) and EAL allows 128-bit vectors, unless the RSS hash goes into the mbufs.
 */
static int
test_net_mlx5v_dp_rx_mode(void)
{
	struct rte_eth_burst_mode mode;
	int vec, avx2;

#if defined(RTE_ARCH_X86) && defined(__SSSE3__)
	vec = rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_128;
#else
	vec = 0;
#endif
#if defined(RTE_ARCH_X86_64)
	/* The SSE loops in their AVX2 build where the CPU has it and EAL allows 256 bits. */
	avx2 = vec && rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_256 &&
	       rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX2) > 0;
#else
	avx2 = 0;
#endif
	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_rx_burst_mode_get(g_p1, 0, &mode), "burst mode");
	TEST_ASSERT_EQUAL(strstr(mode.info, "Vector SSE") != NULL, vec,
			  "Rx burst mode \"%s\", SIMD width %u", mode.info,
			  rte_vect_get_max_simd_bitwidth());
	TEST_ASSERT_EQUAL(strstr(mode.info, "AVX2") != NULL, avx2,
			  "Rx burst mode \"%s\", SIMD width %u", mode.info,
			  rte_vect_get_max_simd_bitwidth());
	TEST_ASSERT_SUCCESS(ports_down(), "stop");
	/* RSS over two queues: ethdev takes the hash offload only with the RSS mode. */
	TEST_ASSERT_SUCCESS(ports_up(2, 64, RTE_ETH_RX_OFFLOAD_RSS_HASH, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_rx_burst_mode_get(g_p1, 0, &mode), "burst mode");
	TEST_ASSERT(strstr(mode.info, "Scalar") != NULL, "Rx burst mode \"%s\" with the hash",
		    mode.info);
	return ports_down();
}

/* Send n frames of 64 bytes numbered from seed in one burst and receive them. */
static int
send_recv(unsigned int seed, uint16_t n)
{
	struct rte_mbuf *tx[BURST], *rx[BURST];
	uint16_t i;

	for (i = 0; i < n; i++) {
		tx[i] = frame(&g_mac1, 64, seed + i, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
	}
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, n), "send");
	TEST_ASSERT_EQUAL(recv_n(g_p1, 0, rx, n), n, "received");
	rte_pktmbuf_free_bulk(rx, n);
	return TEST_SUCCESS;
}

/* Packets whose completions tx_done_cleanup() gives back within a few polls. */
static unsigned int
cleanup_all(void)
{
	unsigned int polls, freed = 0;
	int ret;

	for (polls = 0; polls < 20; polls++) {
		ret = rte_eth_tx_done_cleanup(g_p0, 0, 0);
		if (ret > 0)
			freed += (unsigned int)ret;
		ut_sleep_ms(1);
	}
	return freed;
}

/*
 * A burst reaps the completions only once enough packets are in flight (a few completions'
 * worth, at most a quarter of the ring's packets, or half its WQEBBs): a small burst after
 * a completed one leaves both in flight; the in flight never grow past that bound.
 */
static int
test_net_mlx5v_dp_tx_reap(void)
{
	unsigned int round, freed;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE, 1500), "start");
	TEST_ASSERT_SUCCESS(send_recv(0, 8), "8 frames");
	/* The completion of the 8 is in the CQ before the next burst. */
	ut_sleep_ms(20);
	TEST_ASSERT_SUCCESS(send_recv(8, 1), "1 frame");
	freed = cleanup_all();
	TEST_ASSERT_EQUAL(freed, 9u, "%u of 9 packets still in flight after a small burst",
			  freed);
	for (round = 0; round < 20; round++)
		TEST_ASSERT_SUCCESS(send_recv(100 + round * 10, 10), "round %u", round);
	ut_sleep_ms(20);
	freed = cleanup_all();
	TEST_ASSERT(freed >= 1 && freed < 64 + 10, "%u packets in flight after 200", freed);
	return ports_down();
}

/* Send n frames of 100 bytes numbered from seed (not received here). */
static int
send_frames(unsigned int seed, uint16_t n)
{
	struct rte_mbuf *tx[BURST];
	uint16_t i;

	for (i = 0; i < n; i++) {
		tx[i] = frame(&g_mac1, 100, seed + i, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
	}
	return send_all(g_p0, 0, tx, n);
}

/*
 * An error behind good completions that are not due yet: the next burst still reaps it,
 * brings the SQ back and sends (Tx offloads tx_off).
 */
static int
tx_reap_error(uint64_t tx_off)
{
	struct rte_mbuf *rx[8];
	struct rte_eth_stats st;
	uint16_t n;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, tx_off, 1500), "start");
	TEST_ASSERT_SUCCESS(send_recv(0, 4), "4 frames");
	ut_sleep_ms(20);
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim0, "tx_err_next", 1), "knob");
	TEST_ASSERT_SUCCESS(send_frames(4, 4), "send");
	/* The error CQE is in the CQ behind the good one before the next burst. */
	ut_sleep_ms(20);
	TEST_ASSERT_SUCCESS(send_frames(10, 8), "send after the error");
	n = recv_n(g_p1, 0, rx, 8);
	TEST_ASSERT_EQUAL(n, 8, "%u of 8 frames after the error", n);
	rte_pktmbuf_free_bulk(rx, n);
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p0, &st), "stats");
	TEST_ASSERT(st.oerrors == 4 && st.opackets == 12, "oerrors %" PRIu64 ", opackets %"
		    PRIu64, st.oerrors, st.opackets);
	return ports_down();
}

/* tx_reap_error() in the general burst, then in the lean one (where the device has it). */
static int
test_net_mlx5v_dp_tx_reap_error(void)
{
	TEST_ASSERT_SUCCESS(tx_reap_error(0), "general burst");
	return tx_reap_error(RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE);
}

/*
 * Compressed sessions of 8 to 40 frames (whole arrays of mini-CQEs) each taken by an
 * rx_burst() of its size, between bursts of 1 to 7 frames, through rings of 64, so that they start
 * anywhere and some cross the CQ's end or the RQ's (the one-pass whole-session burst where
 * they do not, the general one where they do): every frame as sent, in order, no stale CQE
 * slot read as a frame on any later lap, the byte counter adds up.
 */
static int
test_net_mlx5v_dp_cqe_comp_whole(void)
{
	struct rte_mbuf *tx[64], *rx[64];
	unsigned int round, seed = 0;
	struct rte_eth_stats st;
	uint64_t bytes;
	uint16_t i, got, nb;
	uint32_t len;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	bytes = st.ibytes;
	for (round = 0; round < 300; round++) {
		/* Odd rounds: 1 to 7 frames, so that sessions start anywhere in the ring. */
		nb = round % 2 ? 1 + (round / 2) % 7 : 8 * (1 + (round / 2 * 3) % 5);
		for (i = 0; i < nb; i++) {
			tx[i] = frame(&g_mac1, 60 + (round * 7 + i * 31) % 1400, seed + i, 0);
			TEST_ASSERT_NOT_NULL(tx[i], "frame");
		}
		TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, nb), "send round %u", round);
		got = recv_n(g_p1, 0, rx, nb);
		TEST_ASSERT_EQUAL(got, nb, "round %u: %u of %u", round, got, nb);
		/* The slots after the last session: consumed ones of earlier laps, no frame. */
		TEST_ASSERT_EQUAL(rte_eth_rx_burst(g_p1, 0, rx + nb, 64 - nb), 0,
				  "round %u: a frame from a stale CQE slot", round);
		for (i = 0; i < nb; i++) {
			len = 60 + (round * 7 + i * 31) % 1400;
			TEST_ASSERT(rx[i]->pkt_len == len && rx[i]->data_len == len,
				    "round %u frame %u: length %u, not %u", round, i,
				    rx[i]->pkt_len, len);
			TEST_ASSERT_EQUAL(rte_pktmbuf_mtod(rx[i], uint8_t *)[59],
					  (uint8_t)((seed + i) * 7 + 59), "round %u frame %u order",
					  round, i);
			bytes += len;
		}
		rte_pktmbuf_free_bulk(rx, nb);
		seed += nb;
	}
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st), "stats");
	TEST_ASSERT_EQUAL(st.ibytes, bytes, "%" PRIu64 " bytes counted, %" PRIu64 " received",
			  st.ibytes, bytes);
	return ports_down();
}

/* Move all but the first k bytes of one-segment m into a second segment. @return 0 or -1. */
static int
split_at(struct rte_mbuf *m, uint16_t k)
{
	struct rte_mbuf *seg = rte_pktmbuf_alloc(g_mp);
	uint16_t n = m->data_len - k;
	char *dst;

	dst = seg != NULL ? rte_pktmbuf_append(seg, n) : NULL;
	if (dst == NULL) {
		rte_pktmbuf_free(seg);
		return -1;
	}
	memcpy(dst, rte_pktmbuf_mtod_offset(m, char *, k), n);
	rte_pktmbuf_trim(m, n);
	return rte_pktmbuf_chain(m, seg);
}

/* Move the second half of one-segment m into a second segment. @return 0 or -1. */
static int
split2(struct rte_mbuf *m)
{
	return split_at(m, m->data_len - m->data_len / 2);
}

/*
 * Send the b packets of tx from port 0, receive them on port 1 and compare each with a copy
 * taken before sending; *pkts and *bytes count what was sent. @return 0 or -1.
 */
static int
burst_roundtrip(struct rte_mbuf **tx, uint16_t b, uint64_t *pkts, uint64_t *bytes)
{
	struct rte_mbuf *rx[3 * BURST], *ref[3 * BURST];
	uint16_t i, n;

	TEST_ASSERT(b <= RTE_DIM(rx), "burst of %u: too long", b);
	for (i = 0; i < b; i++) {
		ref[i] = copy_of(tx[i]);
		TEST_ASSERT_NOT_NULL(ref[i], "copy");
		*bytes += tx[i]->pkt_len;
	}
	*pkts += b;
	TEST_ASSERT_SUCCESS(send_all(g_p0, 0, tx, b), "burst of %u: send", b);
	n = recv_n(g_p1, 0, rx, b);
	TEST_ASSERT_EQUAL(n, b, "burst of %u: %u received", b, n);
	for (i = 0; i < n; i++)
		TEST_ASSERT(same_bytes(rx[i], ref[i]), "burst of %u: frame %u differs", b, i);
	rte_pktmbuf_free_bulk(rx, n);
	rte_pktmbuf_free_bulk(ref, b);
	return 0;
}

/* Port 0 sent pkts packets of bytes bytes without error, port 1 received them. */
static int
counters_check(uint64_t pkts, uint64_t bytes)
{
	struct rte_eth_stats st0, st1;

	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p0, &st0), "stats 0");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p1, &st1), "stats 1");
	TEST_ASSERT(st0.opackets == pkts && st1.ipackets == pkts && st0.oerrors == 0,
		    "packets %" PRIu64 "/%" PRIu64 " of %" PRIu64 ", %" PRIu64 " errors",
		    st0.opackets, st1.ipackets, pkts, st0.oerrors);
	TEST_ASSERT(st0.obytes == bytes && st1.ibytes == bytes,
		    "bytes %" PRIu64 "/%" PRIu64 " of %" PRIu64, st0.obytes, st1.ibytes, bytes);
	return 0;
}

/*
 * Bursts of 1 to 32 packets, each a mix by position: plain ones (in runs of every length,
 * starting at odd and even places), two-segment ones and, where the device has them,
 * checksum requests; the ring (64) wraps at changing places. Every frame arrives as sent,
 * and the counters add up to the bytes sent.
 */
static int
tx_runs(uint64_t tx_off)
{
	struct rte_mbuf *tx[BURST];
	struct rte_eth_dev_info info;
	uint64_t bytes = 0, pkts = 0;
	uint16_t b, i, len;
	unsigned int kind;
	int csum;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	csum = (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM) &&
	       (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_UDP_CKSUM);
	if (csum)
		tx_off |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, tx_off | RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 1500),
			    "start");
	for (b = 1; b <= BURST; b++) {
		for (i = 0; i < b; i++) {
			kind = (unsigned int)(b * 3 + i * i) % 7;
			len = 64 + (b * 37 + i * 11) % 400;
			tx[i] = frame(&g_mac1, len, b * BURST + i, 0);
			TEST_ASSERT_NOT_NULL(tx[i], "frame");
			if (kind == 5)
				TEST_ASSERT_SUCCESS(split2(tx[i]), "two segments");
			if (kind == 6 && csum) {
				tx[i]->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
						   RTE_MBUF_F_TX_UDP_CKSUM;
				tx[i]->l2_len = RTE_ETHER_HDR_LEN;
				tx[i]->l3_len = sizeof(struct rte_ipv4_hdr);
			}
		}
		TEST_ASSERT_SUCCESS(burst_roundtrip(tx, b, &pkts, &bytes), "burst of %u", b);
	}
	return counters_check(pkts, bytes) ?: ports_down();
}

/* tx_runs() with MBUF_FAST_FREE, then without. */
static int
test_net_mlx5v_dp_tx_runs(void)
{
	TEST_ASSERT_SUCCESS(tx_runs(RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE), "with MBUF_FAST_FREE");
	return tx_runs(0);
}

/*
 * The lean Tx burst (MBUF_FAST_FREE, no checksum, VLAN or TSO offload, on devices that
 * take multi-packet WQEs): bursts of 1 to 3 * BURST packets on a 64-WQEBB ring, so that
 * bursts are cut by the WQE's packet limit, the ring's end and the list's end at changing
 * places, with a two-segment packet at a changing place in every fourth burst (it goes the
 * general way with what follows). Every frame arrives as sent; counters add up.
 */
static int
test_net_mlx5v_dp_tx_lean(void)
{
	struct rte_mbuf *tx[3 * BURST];
	struct rte_eth_burst_mode mode;
	uint64_t bytes = 0, pkts = 0;
	uint16_t b, i, len;
	int lean;

	TEST_ASSERT_SUCCESS(ports_up(1, 128, 0, RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
				     RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_tx_burst_mode_get(g_p0, 0, &mode), "burst mode");
	lean = strstr(mode.info, "lean") != NULL;
	/* Lean exactly where the device takes multi-packet WQEs. */
	TEST_ASSERT_EQUAL(lean, strcmp(g_caps, "") != 0, "burst mode \"%s\" with caps \"%s\"",
			  mode.info, g_caps);
	for (b = 1; b <= 3 * BURST; b++) {
		for (i = 0; i < b; i++) {
			len = 60 + (b * 13 + i * 7) % 300;
			tx[i] = frame(&g_mac1, len, b * 3 * BURST + i, 0);
			TEST_ASSERT_NOT_NULL(tx[i], "frame");
			if (b % 4 == 0 && i == (b / 4) % b)
				TEST_ASSERT_SUCCESS(split2(tx[i]), "two segments");
		}
		TEST_ASSERT_SUCCESS(burst_roundtrip(tx, b, &pkts, &bytes), "burst of %u", b);
	}
	return counters_check(pkts, bytes) ?: ports_down();
}

/* The two paired functions with the device caps given, as --vdev would give them. */
/* The simulated port's counters of sim (0 on a failed read, which the waits then see). */
static struct mlx5v_sim_eth_stats
sim_stats(struct mlx5v_sim *sim)
{
	struct mlx5v_sim_eth_stats st;

	if (mlx5v_sim_eth_stats_get(sim, &st) != 0)
		memset(&st, 0, sizeof(st));
	return st;
}

/* @return 1 once n frames more than s0 says reached port 1's RQ (or found it empty). */
static int
rq_reached(const struct mlx5v_sim_eth_stats *s0, uint16_t n, struct mlx5v_sim_eth_stats *s1)
{
	*s1 = sim_stats(g_sim1);
	return s1->rx_frames + s1->rx_out_of_buffer >= s0->rx_frames + s0->rx_out_of_buffer + n;
}

/* Send n frames of seeds seed.. to dst on port's queue 0. @return 0 or -1. */
static int
send_seeded(uint16_t port, const struct rte_ether_addr *dst, uint16_t n, uint32_t seed)
{
	struct rte_mbuf *tx[64];
	uint16_t i;

	for (i = 0; i < n; i++) {
		tx[i] = frame(dst, 60 + (i * 37) % 400, seed + i, 0);
		if (tx[i] == NULL) {
			rte_pktmbuf_free_bulk(tx, i);
			return -1;
		}
	}
	return send_all(port, 0, tx, n);
}

/* Receive exactly n frames of seeds seed.. in order on port's queue 0. */
static int
recv_seeded(uint16_t port, uint16_t n, uint32_t seed)
{
	struct rte_mbuf *rx[64];
	uint16_t i, got;

	got = recv_n(port, 0, rx, n);
	for (i = 0; i < got; i++) {
		TEST_ASSERT_EQUAL(rte_pktmbuf_mtod(rx[i], uint8_t *)[59],
				  (uint8_t)((seed + i) * 7 + 59), "frame %u of %u: another seed",
				  i, n);
	}
	rte_pktmbuf_free_bulk(rx, got);
	TEST_ASSERT_EQUAL(got, n, "%u of %u frames", got, n);
	TEST_ASSERT_EQUAL(rte_eth_rx_burst(port, 0, rx, 64), 0, "a frame more");
	return TEST_SUCCESS;
}

/*
 * rx_queue_stop/start and tx_queue_stop/start with traffic. Rx: frames in the CQ but not
 * taken when the queue stops (a compressed session taken in part among them) go back to the
 * pool; the stopped RQ refuses frames (the device counts them as not ready) and the burst
 * takes nothing; after the start only frames sent since arrive, in order. Tx: packets posted
 * when the queue stops go back; those the device sent arrive; after the start the SQ sends
 * from WQE 0 again. Every mbuf is back at the end.
 */
static int
test_net_mlx5v_dp_queue_stop(void)
{
	struct mlx5v_sim_eth_stats s0, s1;
	struct rte_mbuf *rx[64];
	unsigned int round;
	uint32_t seed = 1;
	uint16_t nb, got, sent;

	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, 0, 1500), "start");
	for (round = 0; round < 24; round++) {
		nb = 8 + round * 7 % 40;
		s0 = sim_stats(g_sim1);
		TEST_ASSERT_SUCCESS(send_seeded(g_p0, &g_mac1, nb, seed), "send round %u", round);
		got = recv_n(g_p1, 0, rx, round % 5);
		rte_pktmbuf_free_bulk(rx, got);
		/* Every frame is in the CQ (or refused) before the stop: none comes after it. */
		TEST_ASSERT_SUCCESS(UT_WAIT_FOR(rq_reached(&s0, nb, &s1)),
				    "round %u: the frames did not reach the RQ", round);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_stop(g_p1, 0), "Rx stop round %u", round);
		seed += nb;
		TEST_ASSERT_SUCCESS(send_seeded(g_p0, &g_mac1, 4, seed), "send while stopped");
		TEST_ASSERT_SUCCESS(UT_WAIT_FOR(sim_stats(g_sim1).rx_rq_not_ready >=
						s1.rx_rq_not_ready + 4),
				    "round %u: a stopped RQ took frames", round);
		TEST_ASSERT_EQUAL(rte_eth_rx_burst(g_p1, 0, rx, 64), 0, "a stopped queue's burst");
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_start(g_p1, 0), "Rx start %u", round);
		seed += 4;
		TEST_ASSERT_SUCCESS(send_seeded(g_p0, &g_mac1, 16, seed), "send after start");
		TEST_ASSERT_SUCCESS(recv_seeded(g_p1, 16, seed), "round %u after the Rx start",
				    round);
		seed += 16;
		/* Tx: stop with packets posted; what the SQ sent before RST arrives. */
		s0 = sim_stats(g_sim1);
		TEST_ASSERT_SUCCESS(send_seeded(g_p1, &g_mac0, nb, seed), "send on port 1");
		TEST_ASSERT_SUCCESS(rte_eth_dev_tx_queue_stop(g_p1, 0), "Tx stop round %u", round);
		sent = (uint16_t)(sim_stats(g_sim1).tx_frames - s0.tx_frames);
		TEST_ASSERT_SUCCESS(recv_seeded(g_p0, sent, seed),
				    "round %u: %u sent before the stop", round, sent);
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(g_p1, 0, rx, 0), 0, "a stopped queue's burst");
		TEST_ASSERT_SUCCESS(rte_eth_dev_tx_queue_start(g_p1, 0), "Tx start %u", round);
		seed += nb;
		TEST_ASSERT_SUCCESS(send_seeded(g_p1, &g_mac0, 16, seed), "send after Tx start");
		TEST_ASSERT_SUCCESS(recv_seeded(g_p0, 16, seed), "round %u after the Tx start",
				    round);
		seed += 16;
	}
	return ports_down();
}

/* On two PCI functions (ut_dev.h): the launcher cabled them, the caps are its knobs. */
static int
pair_create_pci(void)
{
	const char *n0 = ut_dev_name_at(DEV0, 0), *n1 = ut_dev_name_at(DEV1, 1);

	if (ut_dev_pci_count() < 2) {
		printf("two PCI functions needed, %u allowed\n", ut_dev_pci_count());
		return TEST_FAILED;
	}
	if (ut_dev_probe_at(DEV0, 0, NULL, NULL) != 0 || ut_dev_probe_at(DEV1, 1, NULL, NULL) != 0)
		return TEST_FAILED;
	g_sim0 = mlx5v_sim_get(ut_dev_sim_name_at(DEV0, 0));
	g_sim1 = mlx5v_sim_get(ut_dev_sim_name_at(DEV1, 1));
	if (g_sim0 == NULL || g_sim1 == NULL || rte_eth_dev_get_port_by_name(n0, &g_p0) != 0 ||
	    rte_eth_dev_get_port_by_name(n1, &g_p1) != 0 ||
	    rte_eth_macaddr_get(g_p0, &g_mac0) != 0 || rte_eth_macaddr_get(g_p1, &g_mac1) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static int
pair_create(const char *caps)
{
	char a0[128], a1[128];

	if (ut_dev_pci())
		return caps[0] == '\0' ? pair_create_pci() : TEST_FAILED;
	snprintf(a0, sizeof(a0), "wire=pair:" DEV1 "%s", caps);
	snprintf(a1, sizeof(a1), DEV1 ",wire=pair:" DEV0 "%s", caps);
	if (ut_eal_devargs_add(a1) == NULL || rte_vdev_init(DEV0, a0) != 0 ||
	    rte_vdev_init(DEV1, a1 + strlen(DEV1 ",")) != 0)
		return TEST_FAILED;
	g_sim0 = mlx5v_sim_get(DEV0);
	g_sim1 = mlx5v_sim_get(DEV1);
	if (g_sim0 == NULL || g_sim1 == NULL || rte_eth_dev_get_port_by_name(DEV0, &g_p0) != 0 ||
	    rte_eth_dev_get_port_by_name(DEV1, &g_p1) != 0 ||
	    rte_eth_macaddr_get(g_p0, &g_mac0) != 0 || rte_eth_macaddr_get(g_p1, &g_mac1) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
pair_destroy(void)
{
	ut_dev_remove_at(DEV1, 1);
	ut_dev_remove_at(DEV0, 0);
}

/*
 * A copy of one-segment m in n segments (the last takes the rest), for a packet of as
 * many segments as the device allows. @return it, or NULL.
 */
static struct rte_mbuf *
chain_of(struct rte_mbuf *m, uint16_t n)
{
	uint16_t piece = m->data_len / n, i, k;
	struct rte_mbuf *head = NULL, *seg;
	char *dst;

	for (i = 0; i < n; i++) {
		k = i + 1 < n ? piece : m->data_len - piece * (n - 1);
		seg = rte_pktmbuf_alloc(g_mp);
		dst = seg != NULL ? rte_pktmbuf_append(seg, k) : NULL;
		if (dst == NULL || (head != NULL && rte_pktmbuf_chain(head, seg) != 0)) {
			rte_pktmbuf_free(seg);
			rte_pktmbuf_free(head);
			return NULL;
		}
		memcpy(dst, rte_pktmbuf_mtod_offset(m, char *, piece * i), k);
		if (head == NULL)
			head = seg;
	}
	return head;
}

/*
 * Send m (tagged with tci if tag) from port 0 and check what port 1 receives (stripping
 * off): the frame with the tag after the MAC addresses, its bytes unchanged. m is sent and
 * freed in any case. @return TEST_SUCCESS or TEST_FAILED.
 */
static int
inline_roundtrip(const char *caps, struct rte_mbuf *m, int tag, uint16_t tci)
{
	static uint8_t want[RTE_MBUF_DEFAULT_BUF_SIZE], got[RTE_MBUF_DEFAULT_BUF_SIZE];
	uint32_t hl = tag ? 2 * RTE_ETHER_ADDR_LEN : 0;
	struct rte_mbuf *ref, *rx[1];
	rte_be16_t vlan[2];
	uint32_t len;
	int ret;

	ref = copy_of(m);
	if (ref == NULL || rte_pktmbuf_linearize(ref) != 0 ||
	    ref->pkt_len + RTE_VLAN_HLEN > sizeof(want)) {
		rte_pktmbuf_free(m);
		rte_pktmbuf_free(ref);
		return TEST_FAILED;
	}
	if (tag) {
		m->ol_flags |= RTE_MBUF_F_TX_VLAN;
		m->vlan_tci = tci;
	}
	/* The frame as sent with the tag after the MAC addresses. */
	vlan[0] = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
	vlan[1] = rte_cpu_to_be_16(tci);
	memcpy(want, rte_pktmbuf_mtod(ref, uint8_t *), hl);
	memcpy(want + hl, vlan, tag ? sizeof(vlan) : 0);
	len = hl + (tag ? sizeof(vlan) : 0);
	memcpy(want + len, rte_pktmbuf_mtod_offset(ref, uint8_t *, hl), ref->pkt_len - hl);
	len += ref->pkt_len - hl;
	ret = send_all(g_p0, 0, &m, 1);
	rte_pktmbuf_free(ref);
	TEST_ASSERT_SUCCESS(ret, "send");
	TEST_ASSERT_EQUAL(recv_n(g_p1, 0, rx, 1), 1, "caps \"%s\", %u bytes, tag %d: lost",
			  caps, len, tag);
	ret = rx[0]->pkt_len == len &&
	      memcmp(rte_pktmbuf_read(rx[0], 0, len, got), want, len) == 0;
	rte_pktmbuf_free(rx[0]);
	TEST_ASSERT(ret, "caps \"%s\", %u bytes, tag %d: not the frame sent", caps, len, tag);
	return TEST_SUCCESS;
}

/*
 * The devices made anew with caps (a minimum inline mode); frames shorter and longer than
 * the inline header, one of two segments whose first is shorter than any header, and one
 * of as many segments as nb_seg_max allows, each tagged if tag: every one must arrive as
 * sent, none counted as a send error.
 */
static int
inline_mode_run(const char *caps, int tag)
{
	static const uint16_t lens[] = { 60, 70, 90, 140, 160, 300, 1000 };
	struct rte_eth_dev_info info;
	struct rte_eth_stats st;
	struct rte_mbuf *m, *c;
	unsigned int i;
	uint16_t tci;

	pair_destroy();
	TEST_ASSERT_SUCCESS(pair_create(caps), "devices with \"%s\"", caps);
	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, (tag ? RTE_ETH_TX_OFFLOAD_VLAN_INSERT : 0) |
				     RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	for (i = 0; i < RTE_DIM(lens) + 2; i++) {
		tci = (uint16_t)(0x100 + i);
		m = frame(&g_mac1, i < RTE_DIM(lens) ? lens[i] : 1200, tci, i & 1);
		TEST_ASSERT_NOT_NULL(m, "frame");
		if (i == RTE_DIM(lens)) {
			TEST_ASSERT_SUCCESS(split_at(m, 10), "two segments");
		} else if (i == RTE_DIM(lens) + 1) {
			c = chain_of(m, info.tx_desc_lim.nb_mtu_seg_max);
			rte_pktmbuf_free(m);
			m = c;
			TEST_ASSERT_NOT_NULL(m, "%u segments", info.tx_desc_lim.nb_mtu_seg_max);
		}
		TEST_ASSERT_SUCCESS(inline_roundtrip(caps, m, tag, tci), "frame %u", i);
	}
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p0, &st), "stats");
	TEST_ASSERT_EQUAL(st.oerrors, 0, "caps \"%s\": send errors", caps);
	return ports_down();
}

/* run(caps[k], arg) for each of the n device caps, then the suite's devices back. */
static int
pairs_run(const char *const *caps, unsigned int n, int (*run)(const char *, int), int arg)
{
	unsigned int k;
	int ret = TEST_SUCCESS;

	UT_DEV_VDEV_ONLY("device caps are knobs of the models, the launcher's for every case");
	for (k = 0; k < n && ret == TEST_SUCCESS; k++)
		ret = run(caps[k], arg);
	if (ret != TEST_SUCCESS) {
		rte_eth_dev_stop(g_p0);
		rte_eth_dev_stop(g_p1);
	}
	pair_destroy();
	TEST_ASSERT_SUCCESS(pair_create(g_caps), "devices back");
	return ret;
}

/*
 * VLAN insertion under every minimum inline mode (doc/guides/prm/mlx5_eth.rst §6.3, §6.4):
 * the device's tag request takes the place of the inline header, so only a device that
 * requires none (wqe_inline_mode 2) may be asked for it; with L2 (18 bytes), a vport mode
 * of none, IP (58) or TCP/UDP (78) the tag goes into the inlined header. The simulator
 * refuses a tag request with too little inline data as silicon does (an error CQE, the SQ to
 * ERR). The devices are made anew per mode: once, in the first pass.
 */
static int
test_net_mlx5v_dp_vlan_inline(void)
{
	static const char *const modes[] = {
		"", ",wqe_inline_mode=1,vport_inline_mode=0",
		",wqe_inline_mode=1,vport_inline_mode=2",
		",wqe_inline_mode=1,vport_inline_mode=3", ",wqe_inline_mode=2",
	};

	if (strcmp(g_caps, "") != 0 || g_cache != 0)
		return TEST_SKIPPED;
	return pairs_run(modes, RTE_DIM(modes), inline_mode_run, 1);
}

/*
 * The inner (tunnel) minimum inline modes 5, 6, 7 (doc/guides/prm/mlx5_eth.rst §6.4): 92,
 * 132 and 152 bytes inlined, untagged and tagged, a packet of nb_seg_max segments among
 * them (the inline header leaves that many DS). The simulator refuses fewer bytes.
 */
static int
test_net_mlx5v_dp_inner_inline(void)
{
	static const char *const modes[] = {
		",wqe_inline_mode=1,vport_inline_mode=5",
		",wqe_inline_mode=1,vport_inline_mode=6",
		",wqe_inline_mode=1,vport_inline_mode=7",
	};

	if (strcmp(g_caps, "") != 0 || g_cache != 0)
		return TEST_SKIPPED;
	UT_DEV_VDEV_ONLY("device caps are knobs of the models, the launcher's for every case");
	TEST_ASSERT_SUCCESS(pairs_run(modes, RTE_DIM(modes), inline_mode_run, 0), "untagged");
	return pairs_run(modes, RTE_DIM(modes), inline_mode_run, 1);
}

/*
 * A device whose send WQEs are at most 256 bytes (cap max_wqe_sz_sq, doc/guides/prm/
 * mlx5_eth.rst prm/mlx5_eth §6.1), with SEND WQEs and with multi-packet ones: a packet of
 * nb_mtu_seg_max segments arrives, one of a segment more is refused by the PMD (counted as
 * an error, not sent), and bursts of plain packets arrive whole (a multi-packet WQE holds
 * no more packets than the size allows). The simulator refuses a larger WQE.
 */
static int
wqe_limit_run(const char *caps, int unused)
{
	struct rte_mbuf *tx[BURST], *m, *c, *rx[1];
	struct rte_eth_dev_info info;
	struct rte_eth_stats st;
	uint64_t pkts = 0, bytes = 0;
	uint16_t nseg, i;

	RTE_SET_USED(unused);
	pair_destroy();
	TEST_ASSERT_SUCCESS(pair_create(caps), "devices with \"%s\"", caps);
	TEST_ASSERT_SUCCESS(ports_up(1, 64, 0, RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 1500), "start");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_p0, &info), "info");
	nseg = info.tx_desc_lim.nb_mtu_seg_max;
	for (i = 0; i < 2; i++) {
		m = frame(&g_mac1, 1200, i, 0);
		TEST_ASSERT_NOT_NULL(m, "frame");
		c = chain_of(m, nseg + i);
		rte_pktmbuf_free(m);
		TEST_ASSERT_NOT_NULL(c, "%u segments", nseg + i);
		if (i == 0) {
			TEST_ASSERT_SUCCESS(inline_roundtrip(caps, c, 0, 0), "%u segments", nseg);
			continue;
		}
		TEST_ASSERT_SUCCESS(send_all(g_p0, 0, &c, 1), "send");
		TEST_ASSERT_EQUAL(recv_n(g_p1, 0, rx, 1), 0, "%u segments sent", nseg + 1);
	}
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_p0, &st), "stats");
	TEST_ASSERT_EQUAL(st.oerrors, 1, "caps \"%s\": %" PRIu64 " send errors", caps,
			  st.oerrors);
	for (i = 0; i < BURST; i++) {
		tx[i] = frame(&g_mac1, 60 + i, i, 0);
		TEST_ASSERT_NOT_NULL(tx[i], "frame");
	}
	TEST_ASSERT_SUCCESS(burst_roundtrip(tx, BURST, &pkts, &bytes), "caps \"%s\": burst",
			    caps);
	return ports_down();
}

/* wqe_limit_run() on both device generations; once, in the first pass. */
static int
test_net_mlx5v_dp_wqe_limit(void)
{
	static const char *const caps[] = {
		",max_wqe_sz_sq=256", CAPS_EMPW ",max_wqe_sz_sq=256",
	};

	if (strcmp(g_caps, "") != 0 || g_cache != 0)
		return TEST_SKIPPED;
	return pairs_run(caps, RTE_DIM(caps), wqe_limit_run, 0);
}

/* Eight Tx queues of the devices made anew with caps: a frame from each arrives as sent. */
static int
bf_run(const char *caps, int unused)
{
	struct rte_mbuf *m, *ref, *rx[1];
	uint16_t q;
	int got;

	RTE_SET_USED(unused);
	pair_destroy();
	TEST_ASSERT_SUCCESS(pair_create(caps), "devices with \"%s\"", caps);
	TEST_ASSERT_SUCCESS(port_up(g_p0, 8, 64, 0, 0, 1500) ?:
			    port_up(g_p1, 1, 64, 0, 0, 1500), "start");
	for (q = 0; q < 8; q++) {
		m = frame(&g_mac1, 100, q, 0);
		ref = m != NULL ? copy_of(m) : NULL;
		TEST_ASSERT(m != NULL && ref != NULL, "frame");
		TEST_ASSERT_SUCCESS(send_all(g_p0, q, &m, 1), "send");
		got = recv_n(g_p1, 0, rx, 1) == 1;
		got = got && same_bytes(rx[0], ref) ? 2 : got;
		if (got)
			rte_pktmbuf_free(rx[0]);
		rte_pktmbuf_free(ref);
		TEST_ASSERT_EQUAL(got, 2, "caps \"%s\": Tx queue %u: %s", caps, q,
				  got ? "frame differs" : "lost");
	}
	return ports_down();
}

/*
 * BlueFlame registers of 256 and of 1024 bytes (cap log_bf_reg_size, doc/guides/prm/
 * mlx5_eth.rst prm/mlx5_eth §6.6): eight Tx queues ring the halves in turn; a frame from each
 * arrives. The simulator refuses a doorbell anywhere else than the start of a half.
 */
static int
test_net_mlx5v_dp_bf_regs(void)
{
	static const char *const caps[] = { ",log_bf_reg_size=8", ",log_bf_reg_size=10" };

	if (strcmp(g_caps, "") != 0 || g_cache != 0)
		return TEST_SKIPPED;
	return pairs_run(caps, RTE_DIM(caps), bf_run, 0);
}

static int
testsuite_setup(void)
{
	g_mp = rte_pktmbuf_pool_create("ut_net_mlx5v_dp", NB_MBUF, g_cache, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (g_mp == NULL)
		return TEST_FAILED;
	return pair_create(g_caps);
}

static void
testsuite_teardown(void)
{
	pair_destroy();
	rte_mempool_free(g_mp);
}

static struct unit_test_suite net_mlx5v_dp_suite = {
	.suite_name = "mlx5v PMD data path on two paired simulated functions",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_mlx5v_dp_bytes),
		TEST_CASE(test_net_mlx5v_dp_fast_free),
		TEST_CASE(test_net_mlx5v_dp_multiseg),
		TEST_CASE(test_net_mlx5v_dp_jumbo),
		TEST_CASE(test_net_mlx5v_dp_csum),
		TEST_CASE(test_net_mlx5v_dp_mixed),
		TEST_CASE(test_net_mlx5v_dp_rss_ptype),
		TEST_CASE(test_net_mlx5v_dp_dmac),
		TEST_CASE(test_net_mlx5v_dp_allmulti),
		TEST_CASE(test_net_mlx5v_dp_flow),
		TEST_CASE(test_net_mlx5v_dp_rss_classes),
		TEST_CASE(test_net_mlx5v_dp_vlan),
		TEST_CASE(test_net_mlx5v_dp_vlan_toggle),
		TEST_CASE(test_net_mlx5v_dp_vlan_inline),
		TEST_CASE(test_net_mlx5v_dp_inner_inline),
		TEST_CASE(test_net_mlx5v_dp_wqe_limit),
		TEST_CASE(test_net_mlx5v_dp_bf_regs),
		TEST_CASE(test_net_mlx5v_dp_tso),
		TEST_CASE(test_net_mlx5v_dp_tx_error),
		TEST_CASE(test_net_mlx5v_dp_rx_error),
		TEST_CASE(test_net_mlx5v_dp_rx_error_flush),
		TEST_CASE(test_net_mlx5v_dp_rx_error_soft),
		TEST_CASE(test_net_mlx5v_dp_rx_cqe_se),
		TEST_CASE(test_net_mlx5v_dp_cqe_comp_fmt),
		TEST_CASE(test_net_mlx5v_dp_wrap),
		TEST_CASE(test_net_mlx5v_dp_cqe_comp),
		TEST_CASE(test_net_mlx5v_dp_tx_mode),
		TEST_CASE(test_net_mlx5v_dp_rx_mode),
		TEST_CASE(test_net_mlx5v_dp_tx_reap),
		TEST_CASE(test_net_mlx5v_dp_tx_runs),
		TEST_CASE(test_net_mlx5v_dp_tx_lean),
		TEST_CASE(test_net_mlx5v_dp_cqe_comp_whole),
		TEST_CASE(test_net_mlx5v_dp_tx_reap_error),
		TEST_CASE(test_net_mlx5v_dp_queue_stop),
		TEST_CASES_END()
	}
};

/* The cases that the mini-CQE format changes, run for each rxq_cqe_comp_en value. */
static struct unit_test_suite net_mlx5v_dp_fmt_suite = {
	.suite_name = "mlx5v PMD data path, one mini-CQE format",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_mlx5v_dp_bytes),
		TEST_CASE(test_net_mlx5v_dp_cqe_comp_fmt),
		TEST_CASE(test_net_mlx5v_dp_rx_error_flush),
		TEST_CASE(test_net_mlx5v_dp_rx_cqe_se),
		TEST_CASE(test_net_mlx5v_dp_flow),
		TEST_CASES_END()
	}
};

/*
 * Every case five times: on devices that want the L2 header inline (SEND WQEs) with a pool
 * without lcore caches, then with caches on devices that want none and take enhanced
 * multi-packet WQEs (doc/guides/prm/mlx5_empw.rst), then on those without CQE compression
 * (and a few cases with each mini-CQE format but the hash one),
 * then again on ConnectX-5 like ones with 128-bit vectors only (the loops in their build for
 * the build's -march where the CPU would take their AVX2 build) and with vectors refused to
 * the PMD (the scalar loops where the SSE ones would otherwise run).
 */
static int
test_net_mlx5v_dp(void)
{
	static const char *const fmt_caps[] = {
		CAPS_EMPW ",rxq_cqe_comp_en=2", CAPS_EMPW ",rxq_cqe_comp_en=3",
		CAPS_EMPW ",rxq_cqe_comp_en=4",
	};
	uint16_t width = rte_vect_get_max_simd_bitwidth();
	unsigned int fmt;
	int ret;

	g_caps = "";
	g_cache = 0;
	ret = unit_test_suite_runner(&net_mlx5v_dp_suite);
	if (ret != TEST_SUCCESS)
		return ret;
	if (ut_dev_pci()) {
		printf("PCI functions: the passes with other device caps (model knobs) skipped\n");
		return TEST_SUCCESS;
	}
	g_cache = 256;
	g_caps = CAPS_EMPW;
	ret = unit_test_suite_runner(&net_mlx5v_dp_suite);
	if (ret != TEST_SUCCESS)
		return ret;
	/* Without CQE compression: the same cases, the same expectations. */
	g_caps = CAPS_NO_COMP;
	ret = unit_test_suite_runner(&net_mlx5v_dp_suite);
	if (ret != TEST_SUCCESS)
		return ret;
	/* The other mini-CQE formats (rxq_cqe_comp_en, doc/guides/nics/mlx5v.rst). */
	for (fmt = 0; fmt < RTE_DIM(fmt_caps); fmt++) {
		g_caps = fmt_caps[fmt];
		ret = unit_test_suite_runner(&net_mlx5v_dp_fmt_suite);
		if (ret != TEST_SUCCESS)
			return ret;
	}
	g_caps = CAPS_EMPW;
	/* 128-bit vectors: the SSE loops in their build for the build's -march, no AVX2. */
	if (rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_128) != 0) {
		printf("SIMD width fixed by the command line: no SSE or scalar pass\n");
		return TEST_SUCCESS;
	}
	ret = unit_test_suite_runner(&net_mlx5v_dp_suite);
	if (ret == TEST_SUCCESS) {
		rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_DISABLED);
		ret = unit_test_suite_runner(&net_mlx5v_dp_suite);
	}
	rte_vect_set_max_simd_bitwidth(width);
	return ret;
}

REGISTER_TEST_COMMAND(net_mlx5v_dp_autotest, test_net_mlx5v_dp);
