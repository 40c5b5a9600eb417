/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the mlx5v Ethernet PMD on the simulated function: probe as the net
 * class, configuration limits, the objects made at start and gone at stop, the vport and port
 * state behind the control operations, detach and class=none. The device's view is read with
 * commands built on the mlx5v_prm_eth.h layouts and with the simulator's live-object counters.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "test.h"

#include "mlx5v_cmd.h"
#include "mlx5v_dev.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlx5v_sim.h"

#define VDEV_NAME "mlx5v_sim0"


static struct rte_mempool *g_mp;
static uint16_t g_port;
static struct mlx5v_sim *g_sim;
static struct mlx5v_dev *g_dev;
static unsigned int g_base_objs;  /* the core's own objects (async EQ, UAR, windows) */
static unsigned int g_base_dma;
static uint8_t g_out[MLX5V_IFC_BYTES(query_nic_vport_context_out) + 64 * 8];

static unsigned int
live(enum mlx5v_sim_obj k)
{
	return mlx5v_sim_live_objects(g_sim, k);
}

/* Ethernet objects plus CQs, UARs and DMA windows: what a port may hold in the device. */
static unsigned int
live_port_objs(void)
{
	unsigned int k, n = 0;

	for (k = MLX5V_SIM_OBJ_PD; k < MLX5V_SIM_OBJ_MAX; k++)
		n += live(k);
	return n + live(MLX5V_SIM_OBJ_CQ) + live(MLX5V_SIM_OBJ_UAR) +
	       live(MLX5V_SIM_OBJ_DMA_WINDOWS);
}

static int
attach(const char *args)
{
	if (rte_vdev_init(VDEV_NAME, args) != 0)
		return -1;
	g_sim = mlx5v_sim_get(VDEV_NAME);
	g_dev = mlx5v_dev_get(VDEV_NAME);
	if (g_sim == NULL || g_dev == NULL)
		return -1;
	g_base_objs = live_port_objs();
	g_base_dma = live(MLX5V_SIM_OBJ_DMA_WINDOWS);
	return 0;
}

/* QUERY_NIC_VPORT_CONTEXT (UC list) into g_out. @return the context, NULL on failure. */
static uint8_t *
vport_query(void)
{
	uint8_t in[MLX5V_IFC_BYTES(query_nic_vport_context_in)];

	memset(in, 0, sizeof(in));
	MLX5V_SET(query_nic_vport_context_in, in, opcode, MLX5V_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	MLX5V_SET(query_nic_vport_context_in, in, allowed_list_type, MLX5V_VPORT_LIST_UC);
	if (mlx5v_cmd_do(g_dev, in, sizeof(in), g_out, sizeof(g_out)) != 0)
		return NULL;
	return MLX5V_IFC_ADDR_OF(query_nic_vport_context_out, g_out, ctx);
}

/* Configure n Rx and m Tx queues of ring nd and start. @return 0 or the failing errno. */
static int
port_up(uint16_t n, uint16_t m, uint16_t nd)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	if (n > 1)
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	ret = rte_eth_dev_configure(g_port, n, m, &conf);
	for (q = 0; ret == 0 && q < n; q++)
		ret = rte_eth_rx_queue_setup(g_port, q, nd, 0, NULL, g_mp);
	for (q = 0; ret == 0 && q < m; q++)
		ret = rte_eth_tx_queue_setup(g_port, q, nd, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(g_port);
	return ret;
}

static int
testsuite_setup(void)
{
	/* Enough mbufs to fill 16 Rx rings of 256. */
	g_mp = rte_pktmbuf_pool_create("ut_net_mlx5v", 8192, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (g_mp == NULL || attach("") != 0)
		return TEST_FAILED;
	return rte_eth_dev_get_port_by_name(VDEV_NAME, &g_port) == 0 ? TEST_SUCCESS :
	       TEST_FAILED;
}

static void
testsuite_teardown(void)
{
	rte_vdev_uninit(VDEV_NAME);
	rte_mempool_free(g_mp);
}

/* One ethdev named after the EAL device, with the function's permanent MAC. */
static int
test_net_mlx5v_probe(void)
{
	struct rte_ether_addr mac;
	struct rte_eth_dev_info info;
	uint8_t *ctx = vport_query();
	char fw[32];

	TEST_ASSERT_NOT_NULL(ctx, "vport query");
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 1, "one port");
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(g_port, &mac), "MAC");
	TEST_ASSERT(memcmp(mac.addr_bytes, (uint8_t *)MLX5V_IFC_ADDR_OF(nic_vport_context, ctx,
			   permanent_address) + 2, 6) == 0, "MAC is permanent_address");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(g_port, &info), "info");
	TEST_ASSERT_EQUAL(info.max_rx_queues, 16, "16 Rx queues");
	TEST_ASSERT_EQUAL(info.max_tx_queues, 16, "16 Tx queues");
	TEST_ASSERT_EQUAL(info.max_rx_pktlen, 9978u - 4, "max_rx_pktlen from PMTU");
	TEST_ASSERT_EQUAL(info.rx_desc_lim.nb_max, 32768, "ring limit");
	TEST_ASSERT(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER, "scatter offload");
	TEST_ASSERT(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS, "multi-segment Tx");
	TEST_ASSERT_SUCCESS(rte_eth_dev_fw_version_get(g_port, fw, sizeof(fw)), "fw");
	TEST_ASSERT(strchr(fw, '.') != NULL, "fw version %s", fw);
	return TEST_SUCCESS;
}

static int
test_net_mlx5v_bad_config(void)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	TEST_ASSERT(rte_eth_dev_configure(g_port, 17, 1, &conf) < 0, "17 Rx queues");
	TEST_ASSERT(rte_eth_dev_configure(g_port, 1, 17, &conf) < 0, "17 Tx queues");
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_port, 1, 1, &conf), "1/1");
	TEST_ASSERT_EQUAL(rte_eth_rx_queue_setup(g_port, 0, 100, 0, NULL, g_mp), -EINVAL,
			  "ring of 100");
	TEST_ASSERT_EQUAL(rte_eth_tx_queue_setup(g_port, 0, 1000, 0, NULL), -EINVAL,
			  "ring of 1000");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_DMA_WINDOWS), g_base_dma, "nothing mapped");
	return TEST_SUCCESS;
}

/* 1, 2, 4 and 16 queues, twice each: the objects while started, none after stop. */
static int
test_net_mlx5v_start_stop(void)
{
	static const uint16_t nq[] = { 1, 2, 4, 16 };
	unsigned int i, round;

	for (i = 0; i < RTE_DIM(nq); i++) {
		for (round = 0; round < 2; round++) {
			TEST_ASSERT_SUCCESS(port_up(nq[i], nq[i] > 1 ? nq[i] / 2 : 1, 256),
					    "start with %u queues", nq[i]);
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_RQ), nq[i], "RQs");
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_SQ), nq[i] > 1 ? nq[i] / 2u : 1u,
					  "SQs");
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_PD), 1u, "PD");
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_TD), 1u, "TD");
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_TIS), 1u, "TIS");
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_RQT), 1u, "RQT");
			/* A TIR per class: TCP and UDP over IPv4 and IPv6, IPv4, IPv6, other. */
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_TIR), 7u, "TIRs");
			/* rte_flow group 0 (the root), the destination table, the TTC. */
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FLOW_TABLE), 3u,
					  "group 0, destination and TTC");
			/* Full DMAC, any multicast, match-all; TTC: L4, L3, anything. */
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FLOW_GROUP), 6u, "groups");
			/* The permanent MAC and broadcast (not promiscuous), 7 in the TTC. */
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FTE), 9u, "entries");
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_Q_COUNTER), 1u, "Q counter");
			TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
			TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_RQ) + live(MLX5V_SIM_OBJ_SQ) +
					  live(MLX5V_SIM_OBJ_PD) + live(MLX5V_SIM_OBJ_FTE) +
					  live(MLX5V_SIM_OBJ_TIR), 0u, "objects left after stop");
		}
	}
	return TEST_SUCCESS;
}

/* Promiscuous, all-multicast and MAC changes reach the vport, and the flow entries. */
static int
test_net_mlx5v_rx_filters(void)
{
	struct rte_ether_addr extra = { .addr_bytes = { 0x02, 0, 0, 0, 0, 0x55 } };
	uint8_t *ctx;

	TEST_ASSERT_SUCCESS(port_up(2, 1, 256), "start");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(g_port), "promisc on");
	ctx = vport_query();
	TEST_ASSERT(ctx != NULL && MLX5V_GET(nic_vport_context, ctx, promisc_all) == 1,
		    "promisc_all");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FTE), 10u, "match-all entry");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(g_port), "promisc off");
	ctx = vport_query();
	TEST_ASSERT(ctx != NULL && MLX5V_GET(nic_vport_context, ctx, promisc_all) == 0,
		    "promisc_all");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FTE), 9u, "no match-all entry");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(g_port), "allmulti on");
	ctx = vport_query();
	TEST_ASSERT(ctx != NULL && MLX5V_GET(nic_vport_context, ctx, promisc_mc) == 1,
		    "promisc_mc");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FTE), 10u, "any-multicast entry");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_disable(g_port), "allmulti off");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FTE), 9u, "no any-multicast entry");
	TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_add(g_port, &extra, 0), "MAC add");
	ctx = vport_query();
	TEST_ASSERT(ctx != NULL && MLX5V_GET(nic_vport_context, ctx, allowed_list_size) == 2,
		    "two UC addresses");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_prm_get(g_out +
			  MLX5V_IFC_BYTES(query_nic_vport_context_out) + 8, 1, 31, 0), 0x55u,
			  "the added address");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FTE), 10u, "an entry for the added MAC");
	TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_remove(g_port, &extra), "MAC remove");
	ctx = vport_query();
	TEST_ASSERT(ctx != NULL && MLX5V_GET(nic_vport_context, ctx, allowed_list_size) == 1,
		    "one UC address");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FTE), 9u, "entry removed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_port, 9000), "MTU 9000");
	ctx = vport_query();
	TEST_ASSERT(ctx != NULL && MLX5V_GET(nic_vport_context, ctx, mtu) == 9022, "vport MTU");
	TEST_ASSERT(rte_eth_dev_set_mtu(g_port, 9978) < 0, "MTU above the port");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_port, 1500), "MTU 1500");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return TEST_SUCCESS;
}

static int
test_net_mlx5v_link(void)
{
	struct rte_eth_link link;

	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "up after probe");
	TEST_ASSERT(link.link_speed >= RTE_ETH_SPEED_NUM_10G, "speed %u", link.link_speed);
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_down(g_port), "link down");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_DOWN, "down");
	TEST_ASSERT_EQUAL(link.link_speed, RTE_ETH_SPEED_NUM_NONE, "no speed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_up(g_port), "link up");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "up again");
	return TEST_SUCCESS;
}

static int
test_net_mlx5v_rss_stats(void)
{
	struct rte_eth_rss_reta_entry64 reta[1];
	struct rte_eth_rss_conf rss;
	struct rte_eth_xstat_name names[128];
	struct rte_eth_xstat xs[128];
	struct rte_eth_stats st;
	uint8_t key[40];
	unsigned int i;
	int n;

	TEST_ASSERT_SUCCESS(port_up(4, 1, 256), "start");
	memset(reta, 0, sizeof(reta));
	reta[0].mask = UINT64_MAX;
	for (i = 0; i < 64; i++)
		reta[0].reta[i] = 3 - i % 4;
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_reta_update(g_port, reta, 64), "RETA update");
	memset(reta[0].reta, 0, sizeof(reta[0].reta));
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_reta_query(g_port, reta, 64), "RETA query");
	TEST_ASSERT_EQUAL(reta[0].reta[1], 2, "RETA entry 1");
	reta[0].reta[0] = 4;
	TEST_ASSERT(rte_eth_dev_rss_reta_update(g_port, reta, 64) < 0, "queue 4 of 4");
	memset(key, 0x5a, sizeof(key));
	rss = (struct rte_eth_rss_conf){ .rss_key = key, .rss_key_len = 40,
					  .rss_hf = RTE_ETH_RSS_NONFRAG_IPV6_UDP };
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_update(g_port, &rss), "hash update");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_TIR), 7u, "the TIRs replaced");
	memset(key, 0, sizeof(key));
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_conf_get(g_port, &rss), "hash conf");
	TEST_ASSERT(key[39] == 0x5a && rss.rss_hf == RTE_ETH_RSS_NONFRAG_IPV6_UDP, "conf kept");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(g_port, &st), "stats");
	TEST_ASSERT_EQUAL(st.imissed, 0u, "no out_of_buffer");
	TEST_ASSERT_SUCCESS(rte_eth_stats_reset(g_port), "reset");
	n = rte_eth_xstats_get_names(g_port, names, RTE_DIM(names));
	TEST_ASSERT(n > 0 && n <= (int)RTE_DIM(names), "%d names", n);
	TEST_ASSERT_EQUAL(rte_eth_xstats_get(g_port, xs, RTE_DIM(xs)), n, "xstats");
	for (i = 0; i < (unsigned int)n; i++)
		if (strcmp(names[i].name, "rx_out_of_buffer") == 0)
			break;
	TEST_ASSERT(i < (unsigned int)n, "rx_out_of_buffer listed");
	TEST_ASSERT_EQUAL(xs[i].value, 0u, "rx_out_of_buffer is 0 without traffic");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return TEST_SUCCESS;
}

/*
 * Every command of the start ladder failing once: start fails with the device's error and
 * the objects made before the failing step are gone; the next start succeeds.
 */
static int
test_net_mlx5v_start_fails_cleanly(void)
{
	static const struct {
		uint16_t opcode;
		const char *name;
	} steps[] = {
		{ MLX5V_CMD_OP_ALLOC_PD, "ALLOC_PD" },
		{ MLX5V_CMD_OP_ALLOC_TRANSPORT_DOMAIN, "ALLOC_TRANSPORT_DOMAIN" },
		{ MLX5V_CMD_OP_CREATE_TIS, "CREATE_TIS" },
		{ MLX5V_CMD_OP_ALLOC_Q_COUNTER, "ALLOC_Q_COUNTER" },
		{ MLX5V_CMD_OP_ALLOC_UAR, "ALLOC_UAR" },
		{ MLX5V_CMD_OP_CREATE_CQ, "CREATE_CQ" },
		{ MLX5V_CMD_OP_CREATE_RQ, "CREATE_RQ" },
		{ MLX5V_CMD_OP_MODIFY_RQ, "MODIFY_RQ" },
		{ MLX5V_CMD_OP_CREATE_SQ, "CREATE_SQ" },
		{ MLX5V_CMD_OP_MODIFY_SQ, "MODIFY_SQ" },
		{ MLX5V_CMD_OP_CREATE_RQT, "CREATE_RQT" },
		{ MLX5V_CMD_OP_CREATE_TIR, "CREATE_TIR" },
		{ MLX5V_CMD_OP_CREATE_FLOW_TABLE, "CREATE_FLOW_TABLE" },
		{ MLX5V_CMD_OP_CREATE_FLOW_GROUP, "CREATE_FLOW_GROUP" },
		{ MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY, "SET_FLOW_TABLE_ENTRY" },
		{ MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT, "SET_FLOW_TABLE_ROOT" },
	};
	unsigned int i, base;
	int ret;

	TEST_ASSERT_SUCCESS(port_up(2, 2, 128), "first start");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	base = live_port_objs();
	for (i = 0; i < RTE_DIM(steps); i++) {
		TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, steps[i].opcode,
							    MLX5V_CMD_STAT_BAD_PARAM_ERR, 0x5e),
				    "arm %s", steps[i].name);
		ret = rte_eth_dev_start(g_port);
		/* BAD_PARAM is -EINVAL; the core's CQ keeps the DEVX contract (EREMOTEIO). */
		TEST_ASSERT_EQUAL(ret, steps[i].opcode == MLX5V_CMD_OP_CREATE_CQ ? -EREMOTEIO :
				  -EINVAL, "%s failing: start gave %d", steps[i].name, ret);
		TEST_ASSERT_EQUAL(live_port_objs(), base, "%s failing: objects left",
				  steps[i].name);
		TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start after %s", steps[i].name);
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop after %s", steps[i].name);
		TEST_ASSERT_EQUAL(live_port_objs(), base, "after %s: objects left",
				  steps[i].name);
	}
	return TEST_SUCCESS;
}

/* Close leaves nothing in the device; detach and attach give the port back. */
static int
test_net_mlx5v_close_detach(void)
{
	TEST_ASSERT_SUCCESS(port_up(2, 2, 512), "start");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(g_port), "close");
	TEST_ASSERT_EQUAL(live_port_objs(), g_base_objs, "objects left after close");
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "no port after close");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	TEST_ASSERT_SUCCESS(attach(""), "attach");
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(VDEV_NAME, &g_port), "port back");
	/* Detach of a started port: remove stops and closes it. */
	TEST_ASSERT_SUCCESS(port_up(1, 1, 64), "start");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach a started port");
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "no port after detach");
	TEST_ASSERT_SUCCESS(attach("class=none"), "attach class=none");
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "class=none: no port");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	TEST_ASSERT_SUCCESS(attach(""), "attach");
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(VDEV_NAME, &g_port), "port");
	return TEST_SUCCESS;
}

/*
 * rxq_cqe_comp_en (doc/guides/nics/mlx5v.rst): 0 to 4 as DPDK mlx5 takes them (off, then the
 * hash, flow tag, checksum and L3/L4 header mini-CQE formats), anything else refused at
 * probe, and so are 2 and 4 on a device without their capabilities (the simulator's
 * mini_cqe_tags=0) and the key with class=none (doc/guides/platform/layers.rst, "Devargs");
 * the Rx burst mode says whether the queue takes compressed CQEs and in which format
 * (default: the hash one, the simulator has the capability).
 */
static int
test_net_mlx5v_cqe_comp_devarg(void)
{
	static const char *const args[] = { "rxq_cqe_comp_en=0", "rxq_cqe_comp_en=2",
					     "rxq_cqe_comp_en=3", "rxq_cqe_comp_en=4", "" };
	static const char *const want[] = { NULL, "flow tag", "checksum", "L3/L4", "hash" };
	static const char *const bad[] = { "rxq_cqe_comp_en=5", "rxq_cqe_comp_en=12",
					   "rxq_cqe_comp_en=2,mini_cqe_tags=0",
					   "rxq_cqe_comp_en=4,mini_cqe_tags=0",
					   /* The net class's key, the net class not selected. */
					   "class=none,rxq_cqe_comp_en=1" };
	struct rte_eth_burst_mode mode;
	unsigned int i;

	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT(attach(bad[i]) != 0, "\"%s\" taken", bad[i]);
		rte_vdev_uninit(VDEV_NAME);
	}
	for (i = 0; i < RTE_DIM(args); i++) {
		TEST_ASSERT_SUCCESS(attach(args[i]), "attach \"%s\"", args[i]);
		TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(VDEV_NAME, &g_port), "port");
		TEST_ASSERT_SUCCESS(port_up(1, 1, 64), "start");
		TEST_ASSERT_SUCCESS(rte_eth_rx_burst_mode_get(g_port, 0, &mode), "burst mode");
		TEST_ASSERT_EQUAL(strstr(mode.info, "compressed CQEs") != NULL, want[i] != NULL,
				  "\"%s\": Rx burst mode \"%s\"", args[i], mode.info);
		TEST_ASSERT(want[i] == NULL || strstr(mode.info, want[i]) != NULL,
			    "\"%s\": Rx burst mode \"%s\"", args[i], mode.info);
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
		if (i + 1 < RTE_DIM(args))
			TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	}
	return TEST_SUCCESS;
}

/*
 * The link speed from PTYS (doc/guides/prm/mlx5_eth.rst §11.3) for optics, backplane and
 * extended modes: the simulator's port module takes the one mode link_mode names (a legacy
 * PTYS bit, or with ptys_ext=1 an extended one, PCAM then saying so and the legacy fields
 * reading 0).
 */
static int
test_net_mlx5v_link_modes(void)
{
	static const struct {
		const char *args;
		uint32_t mbps;
	} m[] = {
		{ "link_mode=13", RTE_ETH_SPEED_NUM_10G },             /* 10GBASE-SR */
		{ "link_mode=4", RTE_ETH_SPEED_NUM_10G },              /* 10GBASE-KR */
		{ "link_mode=29", RTE_ETH_SPEED_NUM_25G },             /* 25GBASE-SR */
		{ "link_mode=15", RTE_ETH_SPEED_NUM_40G },             /* 40GBASE-SR4 */
		{ "link_mode=21", RTE_ETH_SPEED_NUM_100G },            /* 100GBASE-SR4 */
		{ "link_mode=22", RTE_ETH_SPEED_NUM_100G },            /* 100GBASE-KR4 */
		{ "link_mode=25", RTE_ETH_SPEED_NUM_1G },              /* 1000BASE-T */
		{ "ptys_ext=1", RTE_ETH_SPEED_NUM_100G },              /* CAUI-4 */
		{ "ptys_ext=1,link_mode=8", RTE_ETH_SPEED_NUM_50G },   /* 50GAUI-1 */
		{ "ptys_ext=1,link_mode=12", RTE_ETH_SPEED_NUM_200G }, /* 200GAUI-4 */
		{ "ptys_ext=1,link_mode=16", 400000 },                 /* 400GAUI-4 */
	};
	struct rte_eth_link link;
	unsigned int i;

	for (i = 0; i < RTE_DIM(m); i++) {
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
		TEST_ASSERT_SUCCESS(attach(m[i].args), "attach \"%s\"", m[i].args);
		TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(VDEV_NAME, &g_port), "port");
		TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
		TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "\"%s\": down", m[i].args);
		TEST_ASSERT_EQUAL(link.link_speed, m[i].mbps, "\"%s\": %u Mb/s, not %u",
				  m[i].args, link.link_speed, m[i].mbps);
	}
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
	TEST_ASSERT_SUCCESS(attach(""), "attach");
	return rte_eth_dev_get_port_by_name(VDEV_NAME, &g_port);
}

/*
 * The queues' ts_format follows the device's sq_ts_format/rq_ts_format caps (the
 * simulator's ts_format_cap knob): free-running only (0), real-time only (1: the simulator
 * refuses free-running queues, as such firmware does) and both (2); the port starts with
 * each and its queues run.
 */
static int
test_net_mlx5v_ts_format(void)
{
	static const char *const args[] = { "ts_format_cap=1", "ts_format_cap=2",
					     "ts_format_cap=0" };
	unsigned int i;

	for (i = 0; i < RTE_DIM(args); i++) {
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "detach");
		TEST_ASSERT_SUCCESS(attach(args[i]), "attach \"%s\"", args[i]);
		TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(VDEV_NAME, &g_port), "port");
		TEST_ASSERT_SUCCESS(port_up(2, 2, 64), "\"%s\": start", args[i]);
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	}
	return TEST_SUCCESS;
}

/*
 * Scattered Rx over mbufs of 256 bytes: at most 32 per receive WQE (512 bytes, the
 * simulator's max_wqe_sz_rq, DPDK's limit). MTU 8174 (frames of 8192 bytes, 32 mbufs)
 * starts; MTU 8175 (33 mbufs) is refused at start by the PMD itself, before any command
 * the device would refuse.
 */
static int
test_net_mlx5v_rx_max_sges(void)
{
	static const uint16_t mtu[2] = { 8174, 8175 };
	struct rte_mempool *mp;
	struct rte_eth_conf conf;
	uint64_t errs;
	unsigned int i;
	int ret = 0;

	mp = rte_pktmbuf_pool_create("ut_net_mlx5v_256", 4096, 0, 0,
				     RTE_PKTMBUF_HEADROOM + 256, 0);
	TEST_ASSERT_NOT_NULL(mp, "pool");
	memset(&conf, 0, sizeof(conf));
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_SCATTER;
	for (i = 0; i < RTE_DIM(mtu) && ret == 0; i++) {
		ret = rte_eth_dev_configure(g_port, 1, 1, &conf) ?:
		      rte_eth_dev_set_mtu(g_port, mtu[i]) ?:
		      rte_eth_rx_queue_setup(g_port, 0, 64, 0, NULL, mp) ?:
		      rte_eth_tx_queue_setup(g_port, 0, 64, 0, NULL);
		if (ret != 0)
			break;
		errs = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMD_ERRORS);
		ret = rte_eth_dev_start(g_port);
		if (i == 0 && ret == 0)
			ret = rte_eth_dev_stop(g_port);
		else if (i == 1)
			ret = ret == -EINVAL &&
			      mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMD_ERRORS) == errs ? 0 : -1;
	}
	TEST_ASSERT_SUCCESS(ret, "MTU %u: %d (33 mbufs: -EINVAL and no refused command)",
			    mtu[i < RTE_DIM(mtu) ? i : 1], ret);
	/* The queue set up again on the suite's pool lets this one go. */
	memset(&conf, 0, sizeof(conf));
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(g_port, 1, 1, &conf), "configure");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(g_port, 1500), "MTU back");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(g_port, 0, 64, 0, NULL, g_mp), "Rx queue");
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static struct unit_test_suite net_mlx5v_suite = {
	.suite_name = "mlx5v Ethernet PMD on the simulated function",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_mlx5v_probe),
		TEST_CASE(test_net_mlx5v_bad_config),
		TEST_CASE(test_net_mlx5v_start_stop),
		TEST_CASE(test_net_mlx5v_rx_filters),
		TEST_CASE(test_net_mlx5v_link),
		TEST_CASE(test_net_mlx5v_link_modes),
		TEST_CASE(test_net_mlx5v_rss_stats),
		TEST_CASE(test_net_mlx5v_start_fails_cleanly),
		TEST_CASE(test_net_mlx5v_close_detach),
		TEST_CASE(test_net_mlx5v_cqe_comp_devarg),
		TEST_CASE(test_net_mlx5v_ts_format),
		TEST_CASE(test_net_mlx5v_rx_max_sges),
		TEST_CASES_END()
	}
};

static int
test_net_mlx5v(void)
{
	return unit_test_suite_runner(&net_mlx5v_suite);
}

REGISTER_TEST_COMMAND(net_mlx5v_autotest, test_net_mlx5v);
