/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/*
 * rte_flow on net_mlx4v (doc/guides/nics/mlx4v.rst, "Flow rules (rte_flow)") on a simulated
 * ConnectX-3 port cabled to itself (wire=loop): frames the port sends come back steered by its
 * rules. Rules across stop and start and created while stopped, VLAN and TCP items at a
 * priority, isolation, and the refusals (query, priority 4095, item order, a foreign handle),
 * each leaving nothing in the device.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "test.h"

#include "mlx4v_sim.h"
#include "ut_common.h"

#define VDEV_NAME "mlx4v_sim_fl0"
#define VDEV_ARGS "ports=1,wire1=loop,mac=02:00:00:00:4b:01"
#define NQ 4
#define POLLS 2000

static struct rte_mempool *g_mp;
static uint16_t g_port;
static struct mlx4v_sim *g_sim;
static struct rte_ether_addr g_mac;

static unsigned int
live_flows(void)
{
	return mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_FLOW);
}

/* NQ queues, RSS off: what the port's own rules take lands on queue 0. */
static int
port_setup(void)
{
	struct rte_eth_rss_conf none = { .rss_hf = 0 };
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	ret = rte_eth_dev_configure(g_port, NQ, 1, &conf);
	/* No hash fields: every frame of the port's own rules to entry 0 (configure's 0 is all). */
	if (ret == 0)
		ret = rte_eth_dev_rss_hash_update(g_port, &none);
	for (q = 0; ret == 0 && q < NQ; q++)
		ret = rte_eth_rx_queue_setup(g_port, q, 256, 0, NULL, g_mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(g_port, 0, 256, 0, NULL);
	return ret;
}

/* A frame to the port's MAC: VLAN vid when vid >= 0, IPv4, proto (6 or 17) to dport. */
static struct rte_mbuf *
frame(int vid, uint8_t proto, uint16_t dport, uint16_t sport)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_mp);
	uint8_t *p;
	uint32_t l3 = vid >= 0 ? 18 : 14;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, l3 + 20 + 20 + 32);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(p, 0, l3 + 72);
	memcpy(p, g_mac.addr_bytes, 6);
	p[6] = 0x02;
	p[11] = 0x77;
	if (vid >= 0) {
		p[12] = 0x81;
		p[14] = (uint8_t)(vid >> 8);
		p[15] = (uint8_t)vid;
	}
	p[l3 - 2] = 0x08;
	p[l3] = 0x45;
	p[l3 + 3] = 72;
	p[l3 + 8] = 64;
	p[l3 + 9] = proto;
	p[l3 + 12] = p[l3 + 16] = 10;
	p[l3 + 15] = 1;
	p[l3 + 19] = 2;
	p[l3 + 20] = (uint8_t)(sport >> 8);
	p[l3 + 21] = (uint8_t)sport;
	p[l3 + 22] = (uint8_t)(dport >> 8);
	p[l3 + 23] = (uint8_t)dport;
	return m;
}

/* Send n frames, receive what comes back per queue (per_q), until n came or the polls end. */
static unsigned int
round_trip(int vid, uint8_t proto, uint16_t dport, unsigned int n, unsigned int *per_q)
{
	struct rte_mbuf *m, *rx[32];
	unsigned int i, got = 0, polls, q, k;

	memset(per_q, 0, NQ * sizeof(*per_q));
	for (i = 0; i < n; i++) {
		m = frame(vid, proto, dport, (uint16_t)(1000 + i));
		if (m == NULL)
			return 0;
		for (polls = 0; rte_eth_tx_burst(g_port, 0, &m, 1) != 1; polls++) {
			if (polls == POLLS) {
				rte_pktmbuf_free(m);
				return 0;
			}
			ut_sleep_ms(1);
		}
	}
	/* Until all came, then a few more polls: a frame steered twice would show. */
	for (polls = 0; polls < POLLS && (got < n || polls < 20); polls++) {
		for (q = 0; q < NQ; q++) {
			k = rte_eth_rx_burst(g_port, q, rx, RTE_DIM(rx));
			per_q[q] += k;
			got += k;
			rte_pktmbuf_free_bulk(rx, k);
		}
		if (polls > 10)
			ut_sleep_ms(1);
	}
	return got;
}

/* Masks of the fields the rules match (the items' default masks take more). */
static const struct rte_flow_item_eth eth_dst = {
	.dst.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};
static const struct rte_flow_item_udp udp_dst = { .hdr.dst_port = RTE_BE16(0xffff) };
static const struct rte_flow_item_tcp tcp_dst = { .hdr.dst_port = RTE_BE16(0xffff) };

static struct rte_flow *
rule(uint32_t priority, int vid, uint8_t proto, uint16_t dport, uint16_t queue,
     struct rte_flow_error *err)
{
	struct rte_flow_attr attr = { .ingress = 1, .priority = priority };
	struct rte_flow_item_eth eth = { .dst = g_mac };
	struct rte_flow_item_vlan vlan = { .tci = rte_cpu_to_be_16((uint16_t)vid) };
	struct rte_flow_item_udp udp = { .hdr.dst_port = rte_cpu_to_be_16(dport) };
	struct rte_flow_item_tcp tcp = { .hdr.dst_port = rte_cpu_to_be_16(dport) };
	struct rte_flow_action_queue q = { .index = queue };
	struct rte_flow_item pattern[5] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth, .mask = &eth_dst },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	unsigned int n = 1;

	if (vid >= 0)
		pattern[n++] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_VLAN,
						       .spec = &vlan };
	pattern[n++] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_IPV4 };
	if (proto == IPPROTO_UDP)
		pattern[n++] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_UDP,
						       .spec = &udp, .mask = &udp_dst };
	else
		pattern[n++] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_TCP,
						       .spec = &tcp, .mask = &tcp_dst };
	pattern[n].type = RTE_FLOW_ITEM_TYPE_END;
	return rte_flow_create(g_port, &attr, pattern, actions, err);
}

/*
 * A rule lives on the device while the port is started: stop takes it off (nothing left in
 * the device), the next start puts it back; a rule created while stopped comes at start.
 */
static int
test_flow_stop_start(void)
{
	struct rte_flow_error err;
	unsigned int per_q[NQ];
	struct rte_flow *a, *b;

	TEST_ASSERT_SUCCESS(port_setup(), "setup");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start");
	a = rule(0, -1, IPPROTO_UDP, 4789, 3, &err);
	TEST_ASSERT_NOT_NULL(a, "UDP rule: %s", err.message);
	TEST_ASSERT_EQUAL(round_trip(-1, IPPROTO_UDP, 4789, 16, per_q), 16, "frames back");
	TEST_ASSERT_EQUAL(per_q[3], 16, "UDP to 4789 on queue 3 (%u on 0)", per_q[0]);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_EQUAL(live_flows(), 0, "rules off the device while stopped");
	b = rule(1, -1, IPPROTO_TCP, 80, 2, &err);
	TEST_ASSERT_NOT_NULL(b, "TCP rule while stopped: %s", err.message);
	TEST_ASSERT_EQUAL(live_flows(), 0, "a rule made while stopped waits for the start");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start again");
	TEST_ASSERT_EQUAL(round_trip(-1, IPPROTO_UDP, 4789, 16, per_q), 16, "frames back");
	TEST_ASSERT_EQUAL(per_q[3], 16, "the UDP rule after the restart");
	TEST_ASSERT_EQUAL(round_trip(-1, IPPROTO_TCP, 80, 16, per_q), 16, "frames back");
	TEST_ASSERT_EQUAL(per_q[2], 16, "the TCP rule made while stopped");
	TEST_ASSERT_EQUAL(round_trip(-1, IPPROTO_TCP, 81, 16, per_q), 16, "frames back");
	TEST_ASSERT_EQUAL(per_q[0], 16, "another port: the port's own rule");
	TEST_ASSERT_SUCCESS(rte_flow_destroy(g_port, a, &err), "destroy");
	TEST_ASSERT_SUCCESS(rte_flow_destroy(g_port, b, &err), "destroy");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_EQUAL(live_flows(), 0, "nothing left");
	return TEST_SUCCESS;
}

/* VLAN ID and TCP port at priority 1: the tagged frames of that VID only. */
static int
test_flow_vlan(void)
{
	struct rte_flow_error err;
	unsigned int per_q[NQ];
	struct rte_flow *f;

	TEST_ASSERT_SUCCESS(port_setup(), "setup");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start");
	f = rule(1, 5, IPPROTO_TCP, 80, 1, &err);
	TEST_ASSERT_NOT_NULL(f, "VLAN rule: %s", err.message);
	TEST_ASSERT_EQUAL(round_trip(5, IPPROTO_TCP, 80, 8, per_q), 8, "frames back");
	TEST_ASSERT_EQUAL(per_q[1], 8, "VLAN 5 on queue 1");
	TEST_ASSERT_EQUAL(round_trip(6, IPPROTO_TCP, 80, 8, per_q), 8, "frames back");
	TEST_ASSERT_EQUAL(per_q[0], 8, "VLAN 6 on queue 0");
	TEST_ASSERT_EQUAL(round_trip(-1, IPPROTO_TCP, 80, 8, per_q), 8, "frames back");
	TEST_ASSERT_EQUAL(per_q[0], 8, "untagged on queue 0");
	TEST_ASSERT_SUCCESS(rte_flow_flush(g_port, &err), "flush");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return TEST_SUCCESS;
}

/*
 * Refusals: query (no counters), priority 4095 unless isolated, isolation off while a rule
 * holds 4095, items out of order, a foreign handle; dev_reset ends isolation and the rules.
 */
static int
test_flow_refusals(void)
{
	struct rte_flow_attr attr = { .ingress = 1, .priority = 4095 };
	struct rte_flow_item_eth eth = { .dst = g_mac };
	struct rte_flow_item bad_order[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth, .mask = &eth_dst },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth, .mask = &eth_dst },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	static const uint16_t queues[NQ] = { 0, 1, 2, 3 };
	struct rte_flow_action_rss rss = {
		.types = RTE_ETH_RSS_IP, .key_len = 40, .queue_num = NQ, .queue = queues,
	};
	struct rte_flow_action rss_ip[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_RSS, .conf = &rss },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	struct rte_flow_query_count qc;
	struct rte_flow_error err;
	unsigned int per_q[NQ], base;
	struct rte_flow *f;

	TEST_ASSERT_SUCCESS(port_setup(), "setup");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start");
	base = live_flows();
	TEST_ASSERT_EQUAL(rte_flow_validate(g_port, &attr, pattern, actions, &err), -EACCES,
			  "priority 4095 while not isolated");
	attr.priority = 0;
	TEST_ASSERT_EQUAL(rte_flow_validate(g_port, &attr, bad_order, actions, &err), -ENOTSUP,
			  "IPV4 before ETH");
	/* testpmd's default RSS types (with IPv6_EX) and a key length without a key. */
	TEST_ASSERT_SUCCESS(rte_flow_validate(g_port, &attr, pattern, rss_ip, &err),
			    "RSS over RTE_ETH_RSS_IP: %s", err.message);
	rss.types = RTE_ETH_RSS_L2_PAYLOAD;
	TEST_ASSERT_EQUAL(rte_flow_validate(g_port, &attr, pattern, rss_ip, &err), -ENOTSUP,
			  "RSS over L2 payload");
	f = rte_flow_create(g_port, &attr, pattern, actions, &err);
	TEST_ASSERT_NOT_NULL(f, "DROP rule: %s", err.message);
	TEST_ASSERT_EQUAL(live_flows(), base + 1, "the rule in the device");
	TEST_ASSERT_EQUAL(round_trip(-1, IPPROTO_UDP, 9, 8, per_q), 0, "DROP took them all");
	TEST_ASSERT_EQUAL(rte_flow_query(g_port, f, &count, &qc, &err), -ENOTSUP, "query");
	TEST_ASSERT_EQUAL(rte_flow_destroy(g_port, (struct rte_flow *)&qc, &err), -EINVAL,
			  "a handle not of this port");
	TEST_ASSERT_SUCCESS(rte_flow_destroy(g_port, f, &err), "destroy");
	TEST_ASSERT_EQUAL(live_flows(), base, "back to the port's own rules");
	/* Isolated: the port's own rules go; 4095 is the application's. */
	TEST_ASSERT_SUCCESS(rte_flow_isolate(g_port, 1, &err), "isolate");
	TEST_ASSERT_EQUAL(live_flows(), 0, "no rule of the port's own");
	TEST_ASSERT_EQUAL(round_trip(-1, IPPROTO_UDP, 9, 8, per_q), 0, "isolated: nothing");
	attr.priority = 4095;
	f = rte_flow_create(g_port, &attr, pattern, actions, &err);
	TEST_ASSERT_NOT_NULL(f, "priority 4095 when isolated: %s", err.message);
	TEST_ASSERT_EQUAL(rte_flow_isolate(g_port, 0, &err), -EBUSY, "a rule holds 4095");
	TEST_ASSERT_SUCCESS(rte_flow_destroy(g_port, f, &err), "destroy");
	TEST_ASSERT_SUCCESS(rte_flow_isolate(g_port, 0, &err), "isolation off");
	TEST_ASSERT_EQUAL(live_flows(), base, "the port's own rules back");
	TEST_ASSERT_EQUAL(round_trip(-1, IPPROTO_UDP, 9, 8, per_q), 8, "frames back");
	/* dev_reset: rules and isolation gone. */
	TEST_ASSERT_SUCCESS(rte_flow_isolate(g_port, 1, &err), "isolate");
	TEST_ASSERT_NOT_NULL(rte_flow_create(g_port, &attr, pattern, actions, &err), "rule");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_reset(g_port), "reset");
	TEST_ASSERT_SUCCESS(port_setup(), "setup");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start");
	TEST_ASSERT_EQUAL(live_flows(), base, "the port's own rules, no other");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return TEST_SUCCESS;
}

static int
testsuite_setup(void)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	g_mp = rte_pktmbuf_pool_create("ut_net_mlx4v_flow", 4096, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (g_mp == NULL || rte_vdev_init(VDEV_NAME, VDEV_ARGS) != 0)
		return TEST_FAILED;
	g_sim = mlx4v_sim_get(VDEV_NAME);
	snprintf(name, sizeof(name), "%s port 1", VDEV_NAME);
	if (g_sim == NULL || rte_eth_dev_get_port_by_name(name, &g_port) != 0 ||
	    rte_eth_macaddr_get(g_port, &g_mac) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
testsuite_teardown(void)
{
	rte_vdev_uninit(VDEV_NAME);
	rte_mempool_free(g_mp);
}

static struct unit_test_suite net_mlx4v_flow_suite = {
	.suite_name = "net_mlx4v rte_flow",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_flow_stop_start),
		TEST_CASE(test_flow_vlan),
		TEST_CASE(test_flow_refusals),
		TEST_CASES_END()
	}
};

static int
test_net_mlx4v_flow(void)
{
	return unit_test_suite_runner(&net_mlx4v_flow_suite);
}

REGISTER_TEST_COMMAND(net_mlx4v_flow_autotest, test_net_mlx4v_flow);
