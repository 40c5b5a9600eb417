/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the mlx4v Ethernet PMD on simulated ConnectX-3 ports: probe as the net
 * class (one ethdev per port), configuration limits, the objects made at start and gone at
 * stop, reconfiguration, MAC/promiscuous/all-multicast rules, RSS and RETA, MTU and scattered
 * Rx, statistics, link control, a failing start, close and detach. The device's side is read
 * with the simulator's live-object counters and its link calls.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "test.h"

#include "mlx4v_ethdev.h"
#include "mlx4v_sim.h"
#include "ut_common.h"

#define VDEV_NAME "mlx4v_sim0"
#define VDEV_ARGS "ports=2,wire1=loop,wire2=loop,mac=02:00:00:00:4a:01"
/* Bursts polled at most, 1 ms apart after the first few: the simulator runs on its thread. */
#define POLLS 2000
#define E2E_FRAMES 64

static struct rte_mempool *g_mp;
static struct rte_mempool *g_mp_small;   /* mbufs too small for anything */
static uint16_t g_port;                  /* port 1 of the device */
static uint16_t g_port2;                 /* port 2 */
static struct mlx4v_sim *g_sim;

static unsigned int
live(enum mlx4v_sim_obj k)
{
	return mlx4v_sim_live_objects(g_sim, k);
}

/* Everything a port may hold in the device but its PD and memory regions. */
static unsigned int
live_queue_objs(void)
{
	return live(MLX4V_SIM_OBJ_CQ) + live(MLX4V_SIM_OBJ_QP) + live(MLX4V_SIM_OBJ_WQ) +
	       live(MLX4V_SIM_OBJ_IND) + live(MLX4V_SIM_OBJ_FLOW) + live(MLX4V_SIM_OBJ_SRQ);
}

static unsigned int
live_all(void)
{
	return live_queue_objs() + live(MLX4V_SIM_OBJ_PD) + live(MLX4V_SIM_OBJ_MR);
}

static int
attach(void)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	if (rte_vdev_init(VDEV_NAME, VDEV_ARGS) != 0)
		return -1;
	g_sim = mlx4v_sim_get(VDEV_NAME);
	/* DPDK's mlx4 names: "<device> port <n>". */
	snprintf(name, sizeof(name), "%s port 1", VDEV_NAME);
	if (g_sim == NULL || rte_eth_dev_get_port_by_name(name, &g_port) != 0)
		return -1;
	snprintf(name, sizeof(name), "%s port 2", VDEV_NAME);
	return rte_eth_dev_get_port_by_name(name, &g_port2);
}

/* Configure n Rx and m Tx queues of ring nd on port, then start. @return 0 or -errno. */
static int
port_up_conf(uint16_t port, uint16_t n, uint16_t m, uint16_t nd, struct rte_eth_conf *conf)
{
	uint16_t q;
	int ret;

	ret = rte_eth_dev_configure(port, n, m, conf);
	for (q = 0; ret == 0 && q < n; q++)
		ret = rte_eth_rx_queue_setup(port, q, nd, 0, NULL, g_mp);
	for (q = 0; ret == 0 && q < m; q++)
		ret = rte_eth_tx_queue_setup(port, q, nd, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

static int
port_up(uint16_t n, uint16_t m, uint16_t nd)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	if (n > 1)
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	return port_up_conf(g_port, n, m, nd, &conf);
}

static int
testsuite_setup(void)
{
	/* Enough mbufs to fill 16 Rx rings of 256 on one port. */
	g_mp = rte_pktmbuf_pool_create("ut_net_mlx4v", 8192, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	g_mp_small = rte_pktmbuf_pool_create("ut_net_mlx4v_small", 512, 0, 0,
					     RTE_PKTMBUF_HEADROOM + 16, 0);
	if (g_mp == NULL || g_mp_small == NULL || attach() != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
testsuite_teardown(void)
{
	rte_vdev_uninit(VDEV_NAME);
	rte_mempool_free(g_mp_small);
	rte_mempool_free(g_mp);
}

/* One ethdev per port, named as DPDK's mlx4 names them, with the ports' MACs and limits. */
static int
test_net_mlx4v_probe(void)
{
	struct rte_ether_addr mac, sim_mac;
	struct rte_eth_dev_info info;
	char name[RTE_ETH_NAME_MAX_LEN];
	char fw[64];

	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 2, "one ethdev per port");
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_name_by_port(g_port, name), "name");
	TEST_ASSERT(strcmp(name, "mlx4v_sim0 port 1") == 0, "port named %s", name);
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(g_port, &mac), "MAC");
	TEST_ASSERT_SUCCESS(mlx4v_sim_port_mac(g_sim, 1, &sim_mac), "sim MAC");
	TEST_ASSERT(rte_is_same_ether_addr(&mac, &sim_mac), "port 1 MAC is the device's");
	TEST_ASSERT(mac.addr_bytes[5] == 0x01 && mac.addr_bytes[4] == 0x4a, "mac= devarg");
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(g_port2, &mac), "MAC 2");
	TEST_ASSERT_SUCCESS(mlx4v_sim_port_mac(g_sim, 2, &sim_mac), "sim MAC 2");
	TEST_ASSERT(rte_is_same_ether_addr(&mac, &sim_mac), "port 2 MAC is the device's");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_port, &info), "infos");
	TEST_ASSERT_EQUAL(info.max_rx_queues, 16, "16 Rx queues");
	TEST_ASSERT_EQUAL(info.max_tx_queues, 16, "16 Tx queues");
	TEST_ASSERT_EQUAL(info.reta_size, MLX4V_ETH_RETA_SIZE, "RETA size");
	TEST_ASSERT_EQUAL(info.hash_key_size, 40, "Toeplitz key of 40 bytes");
	/* The simulator's 16351 WRs: the largest power of two below. */
	TEST_ASSERT_EQUAL(info.rx_desc_lim.nb_max, 8192, "ring limit from the caps");
	TEST_ASSERT(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER, "scatter");
	TEST_ASSERT(rte_eth_dev_fw_version_get(g_port, fw, sizeof(fw)) == 0 && fw[0] != '\0',
		    "firmware version");
	TEST_ASSERT(rte_eth_dev_fw_version_get(g_port, fw, 4) > 4, "size needed when short");
	/* Per port: a PD each, nothing else until queues are set up. */
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_PD), 2, "a PD per port");
	TEST_ASSERT_EQUAL(live_queue_objs(), 0, "no queue object at probe");
	return TEST_SUCCESS;
}

/* Every refused configuration says why and leaves nothing behind. */
static int
test_net_mlx4v_bad_config(void)
{
	struct rte_eth_conf conf;
	struct rte_eth_rxconf rxc;
	uint8_t key[20] = { 0 };

	memset(&conf, 0, sizeof(conf));
	TEST_ASSERT(rte_eth_dev_configure(g_port, 0, 1, &conf) != 0, "no Rx queue");
	TEST_ASSERT(rte_eth_dev_configure(g_port, 17, 1, &conf) != 0, "17 Rx queues");
	TEST_ASSERT(rte_eth_dev_configure(g_port, 1, 17, &conf) != 0, "17 Tx queues");
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_VMDQ_ONLY;
	TEST_ASSERT(rte_eth_dev_configure(g_port, 1, 1, &conf) != 0, "VMDq");
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_key = key;
	conf.rx_adv_conf.rss_conf.rss_key_len = sizeof(key);
	TEST_ASSERT(rte_eth_dev_configure(g_port, 2, 1, &conf) != 0, "20-byte key");
	memset(&conf, 0, sizeof(conf));
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_L2_PAYLOAD;
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	TEST_ASSERT(rte_eth_dev_configure(g_port, 2, 1, &conf) != 0, "L2 payload hash");
	memset(&conf, 0, sizeof(conf));
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_port, 1, 1, &conf), "1/1");
	TEST_ASSERT(rte_eth_rx_queue_setup(g_port, 0, 100, 0, NULL, g_mp) != 0, "ring of 100");
	TEST_ASSERT(rte_eth_rx_queue_setup(g_port, 0, 32, 0, NULL, g_mp) != 0, "ring of 32");
	TEST_ASSERT(rte_eth_rx_queue_setup(g_port, 0, 16384, 0, NULL, g_mp) != 0,
		    "ring beyond the caps");
	TEST_ASSERT(rte_eth_tx_queue_setup(g_port, 0, 96, 0, NULL) != 0, "Tx ring of 96");
	TEST_ASSERT(rte_eth_rx_queue_setup(g_port, 0, 256, 0, NULL, g_mp_small) != 0,
		    "mbufs too small");
	memset(&rxc, 0, sizeof(rxc));
	rxc.rx_deferred_start = 1;
	TEST_ASSERT(rte_eth_rx_queue_setup(g_port, 0, 256, 0, &rxc, g_mp) != 0,
		    "deferred start");
	TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(g_port, 0, 256, 0, NULL), "Tx queue");
	TEST_ASSERT(rte_eth_dev_start(g_port) != 0, "start without the Rx queue");
	TEST_ASSERT_EQUAL(live_queue_objs(), 0, "nothing left by the failed start");
	return TEST_SUCCESS;
}

/* Objects at start, gone at stop; a restart and reconfigurations work the same. */
static int
test_net_mlx4v_start_stop(void)
{
	static const uint16_t nq[] = { 4, 1, 16, 3, 2 };
	unsigned int i;

	for (i = 0; i < RTE_DIM(nq); i++) {
		TEST_ASSERT_SUCCESS(port_up(nq[i], nq[i], 256), "start with %u queues", nq[i]);
		TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_WQ), nq[i], "a WQ per Rx queue");
		TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_CQ), 2u * nq[i], "a CQ per queue");
		TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_QP), nq[i] + 1u, "Tx QPs and the RSS QP");
		TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_IND), 1, "one indirection table");
		TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 2, "MAC and broadcast rules");
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
		TEST_ASSERT_EQUAL(live_queue_objs(), 0, "stop destroys every queue object");
		TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "restart");
		TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_WQ), nq[i], "WQs again");
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop again");
	}
	/* Both ports at once: each on its own handle and WQ range. */
	TEST_ASSERT_SUCCESS(port_up(4, 2, 256), "port 1");
	{
		struct rte_eth_conf conf;

		memset(&conf, 0, sizeof(conf));
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		TEST_ASSERT_SUCCESS(port_up_conf(g_port2, 2, 1, 128, &conf), "port 2");
	}
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_WQ), 6, "WQs of both ports");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_IND), 2, "a table per port");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port2), "stop port 2");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop port 1");
	TEST_ASSERT_EQUAL(live_queue_objs(), 0, "nothing left");
	return TEST_SUCCESS;
}

/* The rules follow the MAC list, promiscuous and all-multicast, started or not. */
static int
test_net_mlx4v_rx_filters(void)
{
	struct rte_ether_addr extra = { .addr_bytes = { 0x02, 0, 0, 0, 0x4a, 0x77 } };
	struct rte_ether_addr mcast = { .addr_bytes = { 0x01, 0, 0x5e, 0, 0, 1 } };
	struct rte_ether_addr perm, cur;

	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(g_port, &perm), "MAC");
	TEST_ASSERT_SUCCESS(port_up(2, 1, 256), "start");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(g_port), "promisc on");
	TEST_ASSERT_EQUAL(rte_eth_promiscuous_get(g_port), 1, "promisc state");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 3, "promiscuous rule");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(g_port), "allmulti on");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 4, "all-multicast rule");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_port), "promisc off");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_disable(g_port), "allmulti off");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 2, "back to MAC and broadcast");
	TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_add(g_port, &extra, 0), "add a MAC");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 3, "a rule per MAC");
	TEST_ASSERT(rte_eth_dev_mac_addr_add(g_port, &mcast, 0) != 0, "multicast MAC refused");
	TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_remove(g_port, &extra), "remove it");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 2, "its rule is gone");
	TEST_ASSERT_SUCCESS(rte_eth_dev_default_mac_addr_set(g_port, &extra), "set the MAC");
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(g_port, &cur), "MAC");
	TEST_ASSERT(rte_is_same_ether_addr(&cur, &extra), "new default MAC");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 2, "replaced, not added");
	TEST_ASSERT(rte_eth_dev_default_mac_addr_set(g_port, &mcast) != 0, "multicast default");
	/* Stopped: the state is kept and the rules come back at start. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(g_port), "promisc while stopped");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 0, "no rule while stopped");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 3, "MAC, broadcast, promiscuous");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_port), "promisc off");
	TEST_ASSERT_SUCCESS(rte_eth_dev_default_mac_addr_set(g_port, &perm), "restore MAC");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return TEST_SUCCESS;
}

static int
reta_set_block(uint16_t base, uint16_t n)
{
	struct rte_eth_rss_reta_entry64 reta[1];
	unsigned int i;

	reta[0].mask = UINT64_MAX;
	for (i = 0; i < MLX4V_ETH_RETA_SIZE; i++)
		reta[0].reta[i] = base + i % n;
	return rte_eth_dev_rss_reta_update(g_port, reta, MLX4V_ETH_RETA_SIZE);
}

/* RSS key/types and the redirection table: checked, kept, and the steering made again. */
static int
test_net_mlx4v_rss_reta(void)
{
	uint8_t key[40], got[40];
	struct rte_eth_rss_conf rc;
	struct rte_eth_rss_reta_entry64 reta[1];
	unsigned int i;

	TEST_ASSERT_SUCCESS(port_up(4, 1, 256), "start over 4 queues");
	memset(&rc, 0, sizeof(rc));
	rc.rss_key = got;
	rc.rss_key_len = sizeof(got);
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_conf_get(g_port, &rc), "hash conf");
	TEST_ASSERT_EQUAL(got[0], 0x2c, "DPDK mlx4's default key");
	TEST_ASSERT(rc.rss_hf & RTE_ETH_RSS_NONFRAG_IPV4_TCP, "TCP by default");
	for (i = 0; i < sizeof(key); i++)
		key[i] = i * 7 + 1;
	rc.rss_key = key;
	rc.rss_key_len = 20;
	TEST_ASSERT(rte_eth_dev_rss_hash_update(g_port, &rc) != 0, "short key");
	rc.rss_key_len = sizeof(key);
	rc.rss_hf = RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_update(g_port, &rc), "new key and types");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_QP), 2, "RSS QP made again, Tx QP kept");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_FLOW), 2, "rules made again");
	memset(got, 0, sizeof(got));
	rc.rss_key = got;
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_conf_get(g_port, &rc), "hash conf");
	TEST_ASSERT(memcmp(got, key, sizeof(key)) == 0, "key kept");
	TEST_ASSERT_EQUAL(rc.rss_hf, RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_UDP, "types");
	/* The default RETA spreads over the 4 queues. */
	reta[0].mask = UINT64_MAX;
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_reta_query(g_port, reta, MLX4V_ETH_RETA_SIZE),
			    "query");
	for (i = 0; i < MLX4V_ETH_RETA_SIZE; i++)
		TEST_ASSERT_EQUAL(reta[0].reta[i], i % 4, "default entry %u", i);
	TEST_ASSERT_SUCCESS(reta_set_block(2, 2), "queues 2 and 3");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_reta_query(g_port, reta, MLX4V_ETH_RETA_SIZE),
			    "query");
	TEST_ASSERT_EQUAL(reta[0].reta[1], 3, "entry 1 -> queue 3");
	TEST_ASSERT_EQUAL(mlx4v_priv(&rte_eth_devices[g_port])->ind_log, 1, "table of 2");
	TEST_ASSERT_SUCCESS(reta_set_block(1, 1), "queue 1 alone");
	TEST_ASSERT(reta_set_block(1, 2) != 0, "block not aligned");
	TEST_ASSERT(reta_set_block(0, 8) != 0, "beyond the queues");
	reta[0].mask = 1;
	reta[0].reta[0] = 3;
	TEST_ASSERT(rte_eth_dev_rss_reta_update(g_port, reta, MLX4V_ETH_RETA_SIZE) != 0,
		    "not a block");
	TEST_ASSERT(rte_eth_dev_rss_reta_update(g_port, reta, 128) != 0, "wrong size");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_reta_query(g_port, reta, MLX4V_ETH_RETA_SIZE),
			    "query");
	TEST_ASSERT_EQUAL(reta[0].reta[0], 1, "refused updates change nothing");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_IND), 1, "one table");
	/* Three queues: the default table spreads over the first two, as DPDK's mlx4. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(port_up(3, 1, 256), "start over 3 queues");
	TEST_ASSERT_EQUAL(mlx4v_priv(&rte_eth_devices[g_port])->ind_log, 1, "table of 2");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return TEST_SUCCESS;
}

/* Jumbo frames need scattered Rx: refused without it, SGEs per WQE with it. */
static int
test_net_mlx4v_mtu(void)
{
	struct rte_eth_conf conf;
	const struct mlx4v_rxq *rxq;
	struct rte_eth_rxq_info qi;

	struct rte_eth_burst_mode bm;

	TEST_ASSERT_SUCCESS(port_up(1, 1, 256), "start");
	/* The Rx loop: four CQEs at a time with SSE on x86 (mlx4v_rx.c). */
	TEST_ASSERT_SUCCESS(rte_eth_rx_burst_mode_get(g_port, 0, &bm), "burst mode");
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
	TEST_ASSERT(strcmp(bm.info, "Vector SSE") == 0, "Rx burst mode %s", bm.info);
#else
	TEST_ASSERT(strcmp(bm.info, "Scalar") == 0, "Rx burst mode %s", bm.info);
#endif
	/* In range, but the running queues lack scatter: -EBUSY, not the range's -EINVAL. */
	TEST_ASSERT_EQUAL(rte_eth_dev_set_mtu(g_port, 9000), -EBUSY, "9000 without scatter");
	TEST_ASSERT_EQUAL(rte_eth_dev_set_mtu(g_port, 10000), -EINVAL, "beyond the port");
	TEST_ASSERT_EQUAL(rte_eth_dev_set_mtu(g_port, 60), -EINVAL, "below the minimum");
	TEST_ASSERT_SUCCESS(rte_eth_tx_burst_mode_get(g_port, 0, &bm), "Tx burst mode");
	TEST_ASSERT(strcmp(bm.info, "Scalar") == 0, "Tx burst mode %s", bm.info);
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_port, 1200), "smaller MTU");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	memset(&conf, 0, sizeof(conf));
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_SCATTER;
	conf.rxmode.mtu = 9000;
	TEST_ASSERT_SUCCESS(port_up_conf(g_port, 1, 1, 256, &conf), "jumbo with scatter");
	rxq = rte_eth_devices[g_port].data->rx_queues[0];
	/* 9000 + 22 bytes over mbufs of 2048: 5, rounded to 8 SGEs. */
	TEST_ASSERT_EQUAL(rxq->sges_log, 3, "8 SGEs per WQE");
	TEST_ASSERT_EQUAL(rxq->scatter, 1, "scattered");
	TEST_ASSERT_EQUAL(rxq->wqe_n, 256u >> 3, "256 mbufs over 32 WQEs");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_info_get(g_port, 0, &qi), "queue info");
	TEST_ASSERT_EQUAL(qi.scattered_rx, 1, "info says scattered");
	TEST_ASSERT_EQUAL(qi.nb_desc, 256, "info ring");
	TEST_ASSERT_SUCCESS(rte_eth_rx_burst_mode_get(g_port, 0, &bm), "burst mode");
	TEST_ASSERT(strcmp(bm.info, "Scalar scattered") == 0, "Rx burst mode %s", bm.info);
	/* 9600 bytes still fit the running WQEs' 8 SGEs of 2 KiB. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_port, 9578), "largest MTU while started");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	memset(&conf, 0, sizeof(conf));
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_port, 1, 1, &conf), "back to 1500");
	TEST_ASSERT_EQUAL(rte_eth_devices[g_port].data->mtu, RTE_ETHER_MTU, "MTU 1500");
	return TEST_SUCCESS;
}

/*
 * Open vSwitch's order: MTU 9000 on the stopped port first, then the Rx queue set up
 * again with mbufs that hold the frame. The MTU is checked against the queues at start, not when
 * it is set: a queue of 2 KiB mbufs without scatter fails the start, the larger one passes.
 */
static int
test_net_mlx4v_mtu_before_queues(void)
{
	struct rte_mempool *big;
	struct rte_eth_conf conf;
	const struct mlx4v_rxq *rxq;

	memset(&conf, 0, sizeof(conf));
	big = rte_pktmbuf_pool_create("ut_net_mlx4v_big", 512, 0, 0,
				      RTE_PKTMBUF_HEADROOM + 9000 + MLX4V_ETH_MTU_OVERHEAD, 0);
	TEST_ASSERT_NOT_NULL(big, "pool of jumbo mbufs");
	TEST_ASSERT_SUCCESS(port_up(1, 1, 256), "start at 1500");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_port, 9000), "MTU 9000 on the stopped port");
	TEST_ASSERT_EQUAL(rte_eth_dev_start(g_port), -EINVAL, "start with 2 KiB mbufs, no scatter");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(g_port, 0, 256, 0, NULL, big), "larger mbufs");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start at 9000");
	rxq = rte_eth_devices[g_port].data->rx_queues[0];
	TEST_ASSERT_EQUAL(rxq->scatter, 0, "one mbuf per frame");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_port, 1, 1, &conf), "back to 1500");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(g_port, 0, 256, 0, NULL, g_mp), "small again");
	rte_mempool_free(big);
	return TEST_SUCCESS;
}

/* Counters are the queues' software counters; reset zeroes them. */
static int
test_net_mlx4v_stats(void)
{
	struct rte_eth_xstat xs[64];
	struct rte_eth_stats st;
	struct mlx4v_rxq *rxq;
	struct mlx4v_txq *txq;
	int n, i, found = 0;

	TEST_ASSERT_SUCCESS(port_up(2, 1, 256), "start");
	rxq = rte_eth_devices[g_port].data->rx_queues[1];
	txq = rte_eth_devices[g_port].data->tx_queues[0];
	rxq->packets = 5;
	rxq->bytes = 300;
	rxq->nombuf = 2;
	txq->packets = 7;
	txq->err_cqes = 1;
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_port, &st), "stats");
	TEST_ASSERT_EQUAL(st.ipackets, 5, "ipackets");
	TEST_ASSERT_EQUAL(st.q_ipackets[1], 5, "per queue");
	TEST_ASSERT_EQUAL(st.ibytes, 300, "ibytes");
	TEST_ASSERT_EQUAL(st.rx_nombuf, 2, "rx_nombuf");
	TEST_ASSERT_EQUAL(st.opackets, 7, "opackets");
	TEST_ASSERT_EQUAL(st.oerrors, 1, "oerrors");
	n = rte_eth_xstats_get_names(g_port, NULL, 0);
	TEST_ASSERT(n > 4 && n <= (int)RTE_DIM(xs), "xstats count %d", n);
	n = rte_eth_xstats_get(g_port, xs, RTE_DIM(xs));
	TEST_ASSERT(n > 0, "xstats");
	for (i = 0; i < n; i++) {
		struct rte_eth_xstat_name name;
		uint64_t id = xs[i].id;

		if (rte_eth_xstats_get_names_by_id(g_port, &name, 1, &id) == 1 &&
		    strcmp(name.name, "tx_err_cqes") == 0) {
			TEST_ASSERT_EQUAL(xs[i].value, 1, "tx_err_cqes");
			found = 1;
		}
	}
	TEST_ASSERT(found, "tx_err_cqes listed");
	TEST_ASSERT_SUCCESS(rte_eth_stats_reset(g_port), "reset");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_port, &st), "stats");
	TEST_ASSERT(st.ipackets == 0 && st.opackets == 0 && st.rx_nombuf == 0 && st.oerrors == 0,
		    "all zero after reset");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return TEST_SUCCESS;
}

/* Link state from the device and its events; set link down closes the port's cable end. */
static int
test_net_mlx4v_link(void)
{
	struct rte_eth_link link;

	TEST_ASSERT_SUCCESS(port_up(1, 1, 256), "start");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "loop wire is up");
	TEST_ASSERT(link.link_speed > 0, "speed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_down(g_port), "set link down");
	TEST_ASSERT_EQUAL(mlx4v_sim_link_get(g_sim, 1), 0, "the device's port is down");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_DOWN, "ethdev sees it down");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_up(g_port), "set link up");
	TEST_ASSERT_EQUAL(mlx4v_sim_link_get(g_sim, 1), 1, "the device's port is up");
	/* A cable pulled by the operator: the port event updates the link. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_link_set(g_sim, 1, 0), "pull the cable");
	TEST_ASSERT_EQUAL(rte_eth_devices[g_port].data->dev_link.link_status, RTE_ETH_LINK_DOWN,
			  "event took the link down");
	TEST_ASSERT_SUCCESS(mlx4v_sim_link_set(g_sim, 1, 1), "plug it back");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "up again");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return TEST_SUCCESS;
}

/* A UDP/IPv4 frame to dst from UDP source port sport, payload bytes tagged with tag. */
static struct rte_mbuf *
e2e_frame(const struct rte_ether_addr *dst, uint16_t sport, uint8_t tag)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_mp);
	struct rte_ether_hdr *eh;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *uh;
	const uint16_t plen = 64;
	uint8_t *pl;

	if (m == NULL)
		return NULL;
	eh = (struct rte_ether_hdr *)rte_pktmbuf_append(m, sizeof(*eh) + sizeof(*ip) +
							sizeof(*uh) + plen);
	if (eh == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	eh->dst_addr = *dst;
	rte_eth_macaddr_get(g_port, &eh->src_addr);
	eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eh + 1);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + sizeof(*uh) + plen);
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, 1));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, 2));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	uh = (struct rte_udp_hdr *)(ip + 1);
	uh->src_port = rte_cpu_to_be_16(sport);
	uh->dst_port = rte_cpu_to_be_16(4789);
	uh->dgram_len = rte_cpu_to_be_16(sizeof(*uh) + plen);
	uh->dgram_cksum = 0;
	pl = (uint8_t *)(uh + 1);
	memset(pl, tag, plen);
	return m;
}

/* Send frames to dst from n source ports; @return how many came back over the Rx queues. */
static unsigned int
e2e_round(const struct rte_ether_addr *dst, unsigned int n, uint16_t nq, unsigned int *per_q,
	  unsigned int *bad)
{
	struct rte_mbuf *tx[E2E_FRAMES], *rx[32];
	unsigned int polls, sent = 0, got = 0, i, k;
	uint16_t q;

	for (i = 0; i < n; i++)
		tx[i] = e2e_frame(dst, 1000 + i * 7, (uint8_t)i);
	for (i = 0; i < n; i++)
		if (tx[i] == NULL) {
			for (k = 0; k < n; k++)
				rte_pktmbuf_free(tx[k]);
			return 0;
		}
	for (polls = 0; sent < n && polls < POLLS; polls++) {
		sent += rte_eth_tx_burst(g_port, 0, tx + sent, n - sent);
		if (sent < n && polls > 10)
			ut_sleep_ms(1);
	}
	for (i = sent; i < n; i++)
		rte_pktmbuf_free(tx[i]);
	for (polls = 0; got < sent && polls < POLLS; polls++) {
		for (q = 0; q < nq; q++) {
			k = rte_eth_rx_burst(g_port, q, rx, RTE_DIM(rx));
			per_q[q] += k;
			got += k;
			for (i = 0; i < k; i++) {
				/* 14 + 20 + 8 + 64 bytes, the payload as sent. */
				if (rte_pktmbuf_pkt_len(rx[i]) != 106 ||
				    rx[i]->port != g_port)
					(*bad)++;
				rte_pktmbuf_free(rx[i]);
			}
		}
		if (got < sent && polls > 10)
			ut_sleep_ms(1);
	}
	return got;
}

/*
 * Frames through the ethdev API on the loop wire: the port's own MAC comes back spread over
 * the queues by RSS; another unicast MAC only with promiscuous on; the counters agree.
 */
static int
test_net_mlx4v_e2e_frames(void)
{
	struct rte_ether_addr own, other = { .addr_bytes = { 0x02, 0, 0, 0, 0x99, 0x01 } };
	unsigned int per_q[4] = { 0 }, bad = 0, got, q, used = 0;
	struct rte_eth_stats st;
	uint64_t drop0, drop1;
	struct mlx4v_sim_stats ss;

	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(g_port, &own), "MAC");
	TEST_ASSERT_SUCCESS(port_up(4, 1, 256), "start over 4 queues");
	TEST_ASSERT_SUCCESS(rte_eth_stats_reset(g_port), "reset");
	got = e2e_round(&own, E2E_FRAMES, 4, per_q, &bad);
	TEST_ASSERT_EQUAL(got, E2E_FRAMES, "every frame to the port's MAC came back");
	TEST_ASSERT_EQUAL(bad, 0, "length and port of each frame");
	for (q = 0; q < 4; q++)
		used += per_q[q] != 0;
	TEST_ASSERT(used > 1, "RSS spread the flows over %u queue(s)", used);
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_port, &st), "stats");
	TEST_ASSERT_EQUAL(st.ipackets, E2E_FRAMES, "ipackets");
	TEST_ASSERT_EQUAL(st.opackets, E2E_FRAMES, "opackets");
	for (q = 0; q < 4; q++)
		TEST_ASSERT_EQUAL(st.q_ipackets[q], per_q[q], "queue %u counter", q);
	/* Another MAC: dropped by the device for want of a rule, then received in promisc. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_stats_get(g_sim, &ss), "sim stats");
	drop0 = ss.rx_no_rule;
	memset(per_q, 0, sizeof(per_q));
	got = e2e_round(&other, 8, 4, per_q, &bad);
	TEST_ASSERT_EQUAL(got, 0, "no rule for another MAC");
	TEST_ASSERT_SUCCESS(mlx4v_sim_stats_get(g_sim, &ss), "sim stats");
	drop1 = ss.rx_no_rule;
	TEST_ASSERT_EQUAL(drop1 - drop0, 8, "the device dropped the 8 frames");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(g_port), "promisc on");
	got = e2e_round(&other, 8, 4, per_q, &bad);
	TEST_ASSERT_EQUAL(got, 8, "promiscuous receives them");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_port), "promisc off");
	/* A RETA over queue 3 alone: every flow lands there. */
	TEST_ASSERT_SUCCESS(reta_set_block(3, 1), "queue 3 only");
	memset(per_q, 0, sizeof(per_q));
	got = e2e_round(&own, 16, 4, per_q, &bad);
	TEST_ASSERT_EQUAL(got, 16, "frames back");
	TEST_ASSERT_EQUAL(per_q[3], 16, "all on queue 3");
	TEST_ASSERT_EQUAL(bad, 0, "frames intact");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_EQUAL(live_queue_objs(), 0, "nothing left");
	TEST_ASSERT_EQUAL(rte_mempool_in_use_count(g_mp), 0, "every mbuf back in the pool");
	return TEST_SUCCESS;
}

/* Send one len-byte frame to dst from port 1 (from pool mp); @return frames received back. */
static unsigned int
kif_round(struct rte_mempool *mp, const struct rte_ether_addr *dst, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp), *rx[4];
	struct rte_ether_hdr *eh;
	unsigned int polls, got = 0, i, k;

	if (m == NULL)
		return 0;
	eh = (struct rte_ether_hdr *)rte_pktmbuf_append(m, len);
	if (eh == NULL) {
		rte_pktmbuf_free(m);
		return 0;
	}
	memset(eh, 0x3c, len);
	eh->dst_addr = *dst;
	rte_eth_macaddr_get(g_port, &eh->src_addr);
	eh->ether_type = rte_cpu_to_be_16(0x88b5);
	if (rte_eth_tx_burst(g_port, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return 0;
	}
	/* Whatever comes, within the polls: a frame dropped on the way never does. */
	for (polls = 0; polls < 200; polls++) {
		k = rte_eth_rx_burst(g_port, 0, rx, RTE_DIM(rx));
		for (i = 0; i < k; i++)
			got += rte_pktmbuf_pkt_len(rx[i]) == len;
		rte_pktmbuf_free_bulk(rx, k);
		if (polls > 10)
			ut_sleep_ms(1);
	}
	return got;
}

/*
 * Settings the kernel netdev owns on a ConnectX-3: start gives the port the
 * ethdev's MTU, and the port drops frames above its MTU, as mlx4_en's port does; link down
 * stops the traffic. A PMD that left the port at the netdev's 1500 lost every jumbo frame.
 */
static int
test_net_mlx4v_kernel_interface(void)
{
	struct rte_ether_addr other = { .addr_bytes = { 0x02, 0, 0, 0, 0x99, 0x02 } };
	struct mlx4v_sim_port_stats ps0, ps;
	struct rte_eth_conf conf;
	struct rte_mempool *big;

	big = rte_pktmbuf_pool_create("ut_net_mlx4v_kif", 64, 0, 0,
				      RTE_PKTMBUF_HEADROOM + 9000 + MLX4V_ETH_MTU_OVERHEAD, 0);
	TEST_ASSERT_NOT_NULL(big, "pool of jumbo mbufs");
	memset(&conf, 0, sizeof(conf));
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_SCATTER;
	conf.rxmode.mtu = 9000;
	TEST_ASSERT_SUCCESS(port_up_conf(g_port, 1, 1, 256, &conf), "jumbo with scatter");
	TEST_ASSERT_EQUAL(mlx4v_sim_port_mtu_get(g_sim, 1), 9000, "the port's MTU");
	/* Through the loop wire (another MAC, promiscuous): the port's MTU applies. */
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(g_port), "promisc on");
	TEST_ASSERT_EQUAL(kif_round(big, &other, 9000 + RTE_ETHER_HDR_LEN), 1, "jumbo frame");
	/* The operator sets the netdev back to 1500: the port drops the jumbo frame. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_port_mtu_set(g_sim, 1, RTE_ETHER_MTU), "kernel MTU 1500");
	TEST_ASSERT_SUCCESS(mlx4v_sim_port_stats_get(g_sim, 1, &ps0), "port stats");
	TEST_ASSERT_EQUAL(kif_round(big, &other, 9000 + RTE_ETHER_HDR_LEN), 0, "dropped");
	TEST_ASSERT_SUCCESS(mlx4v_sim_port_stats_get(g_sim, 1, &ps), "port stats");
	TEST_ASSERT_EQUAL(ps.rx_over_mtu, ps0.rx_over_mtu + 1, "counted above the MTU");
	TEST_ASSERT_EQUAL(kif_round(big, &other, 1000), 1, "a small frame passes");
	/* The ethdev MTU goes to the port again. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_port, 9000), "MTU 9000 again");
	TEST_ASSERT_EQUAL(mlx4v_sim_port_mtu_get(g_sim, 1), 9000, "the port's MTU again");
	/* Link down (the netdev down on hardware): nothing flows until it is up again. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_down(g_port), "link down");
	TEST_ASSERT_EQUAL(kif_round(big, &other, 1000), 0, "traffic while down");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_up(g_port), "link up");
	TEST_ASSERT_EQUAL(kif_round(big, &other, 1000), 1, "traffic after link up");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_port), "promisc off");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	memset(&conf, 0, sizeof(conf));
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_port, 1, 1, &conf), "back to 1500");
	rte_mempool_free(big);
	return TEST_SUCCESS;
}

/*
 * A port whose kernel netdev is down at probe (netdev_down=1): the PMD sets it up, as DPDK's mlx4
 * forces IFF_UP; left down, the port would neither send nor receive, without an error.
 */
static int
test_net_mlx4v_netdev_up_at_probe(void)
{
	struct mlx4v_sim *sim;
	int probed, up = -1;
	uint16_t port;

	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx4v_sim9", "ports=1,netdev_down=1"), "attach");
	sim = mlx4v_sim_get("mlx4v_sim9");
	probed = rte_eth_dev_get_port_by_name("mlx4v_sim9 port 1", &port) == 0;
	if (sim != NULL)
		up = mlx4v_sim_link_get(sim, 1);
	/* Detached before any assertion: the cases after this one count the ports. */
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx4v_sim9"), "detach");
	TEST_ASSERT(probed, "no ethdev for the port");
	TEST_ASSERT_EQUAL(up, 1, "the port's netdev is up after probe");
	return TEST_SUCCESS;
}

/*
 * Send n frames to dst from port 2, then a marker to port 1's own address; one Rx queue and
 * one wire keep the order. @return how many of the n port 1 received, or -1.
 */
static int
mc_round(const struct rte_ether_addr *dst, const struct rte_ether_addr *own, unsigned int n)
{
	struct rte_mbuf *tx[9], *rx[9];
	unsigned int polls, sent = 0, got = 0, i;
	int seen = -1;

	if (n >= RTE_DIM(tx))
		return -1;
	for (i = 0; i <= n; i++) {
		tx[i] = e2e_frame(i < n ? dst : own, 1000 + i, (uint8_t)i);
		if (tx[i] == NULL) {
			rte_pktmbuf_free_bulk(tx, i);
			return -1;
		}
	}
	for (polls = 0; sent <= n && polls < POLLS; polls++)
		sent += rte_eth_tx_burst(g_port2, 0, tx + sent, n + 1 - sent);
	if (sent <= n) {
		rte_pktmbuf_free_bulk(tx + sent, n + 1 - sent);
		return -1;
	}
	for (polls = 0; seen < 0 && polls < POLLS; polls++) {
		got += rte_eth_rx_burst(g_port, 0, rx + got, RTE_DIM(rx) - got);
		for (i = 0; i < got && seen < 0; i++)
			if (rte_is_same_ether_addr(&rte_pktmbuf_mtod(rx[i],
						   struct rte_ether_hdr *)->dst_addr, own))
				seen = (int)i;
		if (polls > 10)
			ut_sleep_ms(1);
	}
	rte_pktmbuf_free_bulk(rx, got);
	return seen;
}

/*
 * Multicast with promiscuous mode off, on the two ports of a device cabled to each other:
 * IPv4 (01:00:5e:00:00:01) and IPv6 (33:33:00:00:00:01) groups arrive while all-multicast
 * is on or while the multicast address list names them (full-mask MAC rules), and not
 * otherwise; one copy each.
 */
static int
test_net_mlx4v_mc_list(void)
{
	struct rte_ether_addr mc[2] = {
		{{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 }},
		{{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 }},
	};
	struct rte_ether_addr uc = {{ 0x02, 0x00, 0x00, 0x00, 0x0e, 0x01 }};
	struct rte_eth_conf conf;
	struct rte_ether_addr own;
	unsigned int i;

	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, "ports=2,mode=pair"), "a cabled pair");
	g_sim = mlx4v_sim_get(VDEV_NAME);
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(VDEV_NAME " port 1", &g_port), "p1");
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(VDEV_NAME " port 2", &g_port2), "p2");
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(g_port, &own), "MAC");
	memset(&conf, 0, sizeof(conf));
	TEST_ASSERT_SUCCESS(port_up_conf(g_port, 1, 1, 256, &conf), "port 1");
	TEST_ASSERT_SUCCESS(port_up_conf(g_port2, 1, 1, 256, &conf), "port 2");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_port), "promisc off");
	for (i = 0; i < RTE_DIM(mc); i++)
		TEST_ASSERT_EQUAL(mc_round(&mc[i], &own, 4), 0, "group %u unlisted", i);
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(g_port), "allmulti on");
	for (i = 0; i < RTE_DIM(mc); i++)
		TEST_ASSERT_EQUAL(mc_round(&mc[i], &own, 4), 4, "group %u, allmulti", i);
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mc_addr_list(g_port, mc, 2), "multicast list");
	TEST_ASSERT_EQUAL(mc_round(&mc[0], &own, 8), 8, "listed and allmulti: one copy");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_disable(g_port), "allmulti off");
	for (i = 0; i < RTE_DIM(mc); i++)
		TEST_ASSERT_EQUAL(mc_round(&mc[i], &own, 4), 4, "group %u, listed", i);
	/* Stopped, the list stays; the rules come back at start. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "restart");
	TEST_ASSERT_EQUAL(mc_round(&mc[1], &own, 4), 4, "listed after a restart");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mc_addr_list(g_port, &mc[1], 1), "shorter list");
	TEST_ASSERT_EQUAL(mc_round(&mc[0], &own, 4), 0, "group 0 left the list");
	TEST_ASSERT_EQUAL(mc_round(&mc[1], &own, 4), 4, "group 1 still listed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mc_addr_list(g_port, NULL, 0), "list cleared");
	TEST_ASSERT_EQUAL(mc_round(&mc[1], &own, 4), 0, "list cleared");
	TEST_ASSERT_FAIL(rte_eth_dev_set_mc_addr_list(g_port, &uc, 1), "unicast in the list");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port2), "stop port 2");
	TEST_ASSERT_EQUAL(rte_mempool_in_use_count(g_mp), 0, "every mbuf back in the pool");
	/* The loop-wired device of the other cases again. */
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach the pair");
	TEST_ASSERT_SUCCESS(attach(), "attach again");
	return TEST_SUCCESS;
}

/* Attach a one-port device without a cable with devargs args, start its port. */
static int
vf_attach(const char *args)
{
	struct rte_eth_conf conf;

	TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, args), "attach %s", args);
	g_sim = mlx4v_sim_get(VDEV_NAME);
	TEST_ASSERT_NOT_NULL(g_sim, "sim");
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(VDEV_NAME " port 1", &g_port), "p1");
	memset(&conf, 0, sizeof(conf));
	TEST_ASSERT_SUCCESS(port_up_conf(g_port, 1, 1, 256, &conf), "port up");
	return TEST_SUCCESS;
}

/*
 * The control segment's MAC on a VF only, as DPDK's mlx4 writes it (doc/guides/sim/silicon.rst):
 * on a VF (vf=1) the embedded switch hands a frame to the port's own MAC back to the port, on a
 * PF nothing the port sends comes back but by its cable (none here). A PMD that wrote the MAC
 * on a PF looped its own frames back, broadcasts included: a bridge of two ports stormed.
 */
static int
test_net_mlx4v_vf_loopback(void)
{
	static const struct {
		const char *args;
		unsigned int back;      /* frames and loopbacks expected */
	} fn[2] = {
		{ "ports=1,wire1=none,vf=1", 1 },
		{ "ports=1,wire1=none", 0 },
	};
	struct mlx4v_sim_stats st0, st;
	struct rte_ether_addr own;
	unsigned int got, i;

	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	for (i = 0; i < RTE_DIM(fn); i++) {
		TEST_ASSERT_SUCCESS(vf_attach(fn[i].args), "%s", fn[i].args);
		TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(g_port, &own), "MAC");
		TEST_ASSERT_SUCCESS(mlx4v_sim_stats_get(g_sim, &st0), "sim stats");
		got = kif_round(g_mp, &own, 64);
		TEST_ASSERT_SUCCESS(mlx4v_sim_stats_get(g_sim, &st), "sim stats");
		TEST_ASSERT_EQUAL(got, fn[i].back, "%s: a frame to the port's own MAC came back "
				  "%u time(s)", fn[i].args, got);
		TEST_ASSERT_EQUAL(st.tx_loopback - st0.tx_loopback, fn[i].back,
				  "%s: looped back by the embedded switch", fn[i].args);
		TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(g_sim), 0, "misuse");
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach %s", fn[i].args);
	}
	TEST_ASSERT_EQUAL(rte_mempool_in_use_count(g_mp), 0, "every mbuf back in the pool");
	/* The loop-wired device of the other cases again. */
	TEST_ASSERT_SUCCESS(attach(), "attach again");
	return TEST_SUCCESS;
}

/*
 * A 1 GbE port reports 1000 Mb/s: the speed comes from the port query of the seam, which on
 * the rdma-core backend reads the netdev's ethtool speed (mlx4_ib says 10 Gb/s for 1 GbE).
 */
static int
test_net_mlx4v_speed_1g(void)
{
	struct rte_eth_link link;
	unsigned int polls;

	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	TEST_ASSERT_SUCCESS(vf_attach("ports=1,speed=1000"), "a 1 GbE port");
	memset(&link, 0, sizeof(link));
	for (polls = 0; polls < POLLS && link.link_status != RTE_ETH_LINK_UP; polls++) {
		TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
		if (link.link_status != RTE_ETH_LINK_UP)
			ut_sleep_ms(1);
	}
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "link up");
	TEST_ASSERT_EQUAL(link.link_speed, RTE_ETH_SPEED_NUM_1G, "speed %u", link.link_speed);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach the 1 GbE port");
	TEST_ASSERT_SUCCESS(attach(), "attach again");
	return TEST_SUCCESS;
}

/* Every step of start may fail: the error comes back and nothing stays in the device. */
static int
test_net_mlx4v_start_fails_cleanly(void)
{
	static const char *const knobs[] = {
		"fail_create_cq", "fail_create_wq", "fail_create_qp", "fail_modify_wq",
		"fail_modify_qp",
	};
	unsigned int i, base = live_all();

	for (i = 0; i < RTE_DIM(knobs); i++) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_port, 2, 2, &(struct rte_eth_conf){
			.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS }), "configure");
		TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(g_port, 0, 256, 0, NULL, g_mp), "rxq");
		TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(g_port, 1, 256, 0, NULL, g_mp), "rxq");
		TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(g_port, 0, 256, 0, NULL), "txq");
		TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(g_port, 1, 256, 0, NULL), "txq");
		/* The first of its kind: the queues and objects made before must be unwound. */
		TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, knobs[i], 1), "knob %s", knobs[i]);
		TEST_ASSERT(rte_eth_dev_start(g_port) != 0, "start fails with %s", knobs[i]);
		TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, knobs[i], 0), "knob off");
		TEST_ASSERT_EQUAL(live_all(), base, "nothing left after %s", knobs[i]);
		TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start after %s", knobs[i]);
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	}
	return TEST_SUCCESS;
}

/* Close frees everything the port made; detach and attach give fresh ports; class=none. */
static int
test_net_mlx4v_close_detach(void)
{
	TEST_ASSERT_SUCCESS(port_up(4, 4, 256), "start port 1");
	TEST_ASSERT(rte_eth_dev_close(g_port) != 0, "ethdev refuses to close a started port");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(g_port), "close");
	TEST_ASSERT_EQUAL(live_queue_objs(), 0, "queues gone");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_PD), 1, "port 2's PD only");
	TEST_ASSERT_EQUAL(live(MLX4V_SIM_OBJ_MR), 1, "port 2's memory region only");
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 1, "port 2 remains");
	{
		struct rte_eth_conf conf;

		memset(&conf, 0, sizeof(conf));
		TEST_ASSERT_SUCCESS(port_up_conf(g_port2, 1, 1, 256, &conf), "port 2 runs");
	}
	/* Detach with port 2 started: its stop and close run from the class remove. */
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "no port left");
	TEST_ASSERT_SUCCESS(attach(), "attach again");
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 2, "two fresh ports");
	TEST_ASSERT_EQUAL(live_all(), 2, "a PD per port, nothing else");
	TEST_ASSERT_SUCCESS(port_up(2, 2, 256), "the fresh port runs");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	/* class=none: the device without ports. */
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, "class=none"), "class=none");
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "no ethdev");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	TEST_ASSERT_SUCCESS(attach(), "attach for the teardown");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_mlx4v_suite = {
	.suite_name = "net_mlx4v",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_mlx4v_probe),
		TEST_CASE(test_net_mlx4v_bad_config),
		TEST_CASE(test_net_mlx4v_start_stop),
		TEST_CASE(test_net_mlx4v_rx_filters),
		TEST_CASE(test_net_mlx4v_rss_reta),
		TEST_CASE(test_net_mlx4v_mtu),
		TEST_CASE(test_net_mlx4v_mtu_before_queues),
		TEST_CASE(test_net_mlx4v_kernel_interface),
		TEST_CASE(test_net_mlx4v_netdev_up_at_probe),
		TEST_CASE(test_net_mlx4v_stats),
		TEST_CASE(test_net_mlx4v_link),
		TEST_CASE(test_net_mlx4v_e2e_frames),
		TEST_CASE(test_net_mlx4v_start_fails_cleanly),
		TEST_CASE(test_net_mlx4v_close_detach),
		/* Last: it re-attaches the device cabled as a pair, then as before. */
		TEST_CASE(test_net_mlx4v_mc_list),
		TEST_CASE(test_net_mlx4v_vf_loopback),
		TEST_CASE(test_net_mlx4v_speed_1g),
		TEST_CASES_END()
	}
};

static int
test_net_mlx4v(void)
{
	return unit_test_suite_runner(&net_mlx4v_suite);
}

REGISTER_TEST_COMMAND(net_mlx4v_autotest, test_net_mlx4v);
