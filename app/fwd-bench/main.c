/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file io forwarding between two ethdev ports, for the driver cost per packet of any PMD
 * (ours, and DPDK's net_null and net_ring as the floor). Ports 0 and 1 are configured with
 * one queue each, both sides are primed with frames, then one lcore loops: receive a burst
 * on one port, send it on the other. Only bench_rx() and bench_tx() (one ethdev burst call
 * each) are meant to be counted (callgrind --toggle-collect, devtools/bench-fwd.sh);
 * the program reports the packets received and the time (doc/guides/bench/mlx5v_fwd.rst).
 * With -w N, a port is polled only once rte_eth_rx_queue_count() reports N frames waiting
 * (or after FWD_WAIT_MAX checks): for a device that delivers asynchronously, so that the
 * empty polls it would cause are left out of the count (doc/guides/bench/mlx4v_fwd.rst).
 * For a PMD that cannot count them (DPDK's net_mlx4), -p USEC sleeps before each poll, so that
 * the device fills the bursts, and -i N calibrates an empty poll: after the run, with nothing
 * in flight, bench_idle() polls each port N times, and the script subtracts the empty polls of
 * the run at that cost (doc/guides/bench/mlx4_verbs_fwd.rst).
 *
 * usage: dpdk-mlxv-fwd-bench <EAL args with two ports> -- [-n packets] [-b burst] [-s size]
 *        [-w frames] [-p usec] [-i polls]
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#define FWD_RING 1024
#define FWD_MBUFS 8191
#define FWD_MAX_BURST 64

/* Checks of one port's waiting frames before it is polled anyway (-w). */
#define FWD_WAIT_MAX 100000

static unsigned int fwd_burst = 32;

/* Counted by the benchmark script: one Rx burst call (not inlined into the loop). */
__rte_noinline uint16_t
bench_rx(uint16_t port, struct rte_mbuf **pkts, uint16_t n)
{
	return rte_eth_rx_burst(port, 0, pkts, n);
}

/* Counted apart by the benchmark script: one Rx burst call on an empty queue (-i). */
__rte_noinline uint16_t
bench_idle(uint16_t port, struct rte_mbuf **pkts, uint16_t n)
{
	return rte_eth_rx_burst(port, 0, pkts, n);
}

/* Counted by the benchmark script: one Tx burst call. */
__rte_noinline uint16_t
bench_tx(uint16_t port, struct rte_mbuf **pkts, uint16_t n)
{
	return rte_eth_tx_burst(port, 0, pkts, n);
}

static int
port_init(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	/* As testpmd does: one mempool, refcnt 1, so the PMD may free by index alone. */
	if (rte_eth_dev_info_get(port, &info) == 0 &&
	    (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE))
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, FWD_RING, rte_eth_dev_socket_id(port), NULL,
					     mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, FWD_RING, rte_eth_dev_socket_id(port), NULL);
	if (ret == 0)
		ret = rte_eth_promiscuous_enable(port);
	if (ret == 0 || ret == -ENOTSUP)
		ret = rte_eth_dev_start(port);
	if (ret != 0)
		printf("fwd-bench: port %u: %s\n", port, rte_strerror(-ret));
	return ret;
}

/* A 64-byte (or size) UDP/IPv4 frame, checksum filled, payload zero. */
static struct rte_mbuf *
frame(struct rte_mempool *mp, uint16_t size, uint16_t seq)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	uint16_t len = size - RTE_ETHER_CRC_LEN;

	if (m == NULL)
		return NULL;
	eth = (void *)rte_pktmbuf_append(m, len);
	if (eth == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(eth, 0, len);
	memset(&eth->dst_addr, 0xff, sizeof(eth->dst_addr));
	eth->src_addr.addr_bytes[0] = 0x02;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (void *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eth));
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, 1));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 1, seq & 0xff));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp = (void *)(ip + 1);
	udp->src_port = rte_cpu_to_be_16(1024 + (seq & 0xff));
	udp->dst_port = rte_cpu_to_be_16(9);
	udp->dgram_len = rte_cpu_to_be_16(len - sizeof(*eth) - sizeof(*ip));
	return m;
}

/* Put n frames into port's Tx queue. @return the number sent. */
static unsigned int
prime(uint16_t port, struct rte_mempool *mp, unsigned int n, uint16_t size)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	unsigned int done = 0, i, k;

	while (done < n) {
		k = RTE_MIN(n - done, fwd_burst);
		for (i = 0; i < k; i++) {
			pkts[i] = frame(mp, size, done + i);
			if (pkts[i] == NULL)
				break;
		}
		k = i;
		i = bench_tx(port, pkts, k);
		rte_pktmbuf_free_bulk(&pkts[i], k - i);
		done += i;
		if (i < k)
			break;
	}
	return done;
}

/*
 * After the run: receive and free until neither port has had a frame for 200 ms (10 s at the
 * most), then poll the empty queues through bench_idle() (-i), whose instructions the script
 * reads. @return how many bench_idle() calls returned nothing.
 */
static unsigned int
idle_calibrate(unsigned int polls)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	unsigned int quiet = 0, i, empty = 0, left = 10000;
	uint16_t p, n;

	while (quiet < 200 && left-- > 0) {
		usleep(1000);
		n = rte_eth_rx_burst(0, 0, pkts, FWD_MAX_BURST);
		rte_pktmbuf_free_bulk(pkts, n);
		p = rte_eth_rx_burst(1, 0, pkts, FWD_MAX_BURST);
		rte_pktmbuf_free_bulk(pkts, p);
		quiet = n + p == 0 ? quiet + 1 : 0;
	}
	for (i = 0; i < polls; i++)
		for (p = 0; p < 2; p++) {
			n = bench_idle(p, pkts, fwd_burst);
			rte_pktmbuf_free_bulk(pkts, n);
			empty += n == 0;
		}
	return empty;
}

int
main(int argc, char **argv)
{
	char name0[RTE_ETH_NAME_MAX_LEN] = "", name1[RTE_ETH_NAME_MAX_LEN] = "";
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	uint64_t want = 1000000, rx = 0, tx = 0, idle = 0, empty = 0, bursts = 0, spins;
	unsigned int wait_min = 0, waits[2] = { 0, 0 }, pace = 0, calib = 0, calib_empty;
	int started[2] = { 0, 0 };
	uint16_t size = 64, p, n, k;
	struct rte_mempool *mp = NULL;
	struct timespec t0, t1;
	unsigned int primed;
	double s;
	int ret, opt;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("fwd-bench: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	while ((opt = getopt(argc, argv, "n:b:s:w:p:i:")) != -1) {
		if (opt == 'n')
			want = strtoull(optarg, NULL, 0);
		else if (opt == 'b')
			fwd_burst = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			size = strtoul(optarg, NULL, 0);
		else if (opt == 'w')
			wait_min = strtoul(optarg, NULL, 0);
		else if (opt == 'p')
			pace = strtoul(optarg, NULL, 0);
		else if (opt == 'i')
			calib = strtoul(optarg, NULL, 0);
		else
			goto usage;
	}
	if (fwd_burst == 0 || fwd_burst > FWD_MAX_BURST || size < 64 || size > 1518 ||
	    want == 0 || wait_min > fwd_burst)
		goto usage;
	if (rte_eth_dev_count_avail() < 2) {
		printf("fwd-bench: two ports needed, %u found\n", rte_eth_dev_count_avail());
		goto err;
	}
	mp = rte_pktmbuf_pool_create("fwd_bench", FWD_MBUFS, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (mp == NULL)
		goto err;
	for (p = 0; p < 2; p++) {
		if (port_init(p, mp) != 0)
			goto err;
		started[p] = 1;
	}
	if (wait_min > 0 &&
	    (rte_eth_rx_queue_count(0, 0) < 0 || rte_eth_rx_queue_count(1, 0) < 0)) {
		printf("fwd-bench: -w: a port cannot count its waiting frames\n");
		goto err;
	}
	/* A quarter of each ring in flight per side. */
	primed = prime(0, mp, FWD_RING / 4, size) + prime(1, mp, FWD_RING / 4, size);
	if (primed == 0) {
		printf("fwd-bench: no port accepted a frame\n");
		goto err;
	}
	/* Bound the spins: a path that loses every frame ends instead of spinning for ever. */
	spins = want * 64 + 100000000;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (p = 0; rx < want && spins > 0; p ^= 1, spins--) {
		/* -w: not counted, an empty or short poll is skipped (see the file's comment). */
		if (wait_min > 0 && rte_eth_rx_queue_count(p, 0) < (int)wait_min &&
		    ++waits[p] < FWD_WAIT_MAX) {
			idle++;
			continue;
		}
		waits[p] = 0;
		/* -p: not counted, the device's threads fill the queue meanwhile. */
		if (pace > 0)
			usleep(pace);
		n = bench_rx(p, pkts, fwd_burst);
		if (n == 0) {
			idle++;
			empty++;
			continue;
		}
		rx += n;
		bursts++;
		k = bench_tx(p ^ 1, pkts, n);
		tx += k;
		if (k < n)
			rte_pktmbuf_free_bulk(&pkts[k], n - k);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	rte_eth_dev_get_name_by_port(0, name0);
	rte_eth_dev_get_name_by_port(1, name1);
	printf("fwd-bench: %s <-> %s, %" PRIu64 " packets received, %" PRIu64 " sent, %" PRIu64
	       " empty polls, %u primed, burst %u, %u bytes, %.3f s, %.0f packets/s\n",
	       name0, name1, rx, tx, idle,
	       primed, fwd_burst, size, s, s > 0 ? rx / s : 0.0);
	printf("fwd-bench: %" PRIu64 " bursts received (%.1f packets each), %" PRIu64
	       " empty bursts polled\n", bursts, bursts > 0 ? (double)rx / bursts : 0.0, empty);
	if (calib > 0) {
		calib_empty = idle_calibrate(calib);
		printf("fwd-bench: idle calibration: %u polls, %u empty\n", 2 * calib, calib_empty);
	}
	ret = rx >= want ? 0 : 1;
	goto out;
usage:
	printf("usage: dpdk-mlxv-fwd-bench <EAL args> -- [-n packets] [-b burst (1-%u)] "
	       "[-s size (64-1518)] [-w frames (0-burst)] [-p usec] [-i polls]\n", FWD_MAX_BURST);
err:
	ret = 1;
out:
	/* A started port may still be fed by its device: stopped before it is closed. */
	for (p = 0; p < 2; p++) {
		if (!started[p])
			continue;
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return ret;
}
