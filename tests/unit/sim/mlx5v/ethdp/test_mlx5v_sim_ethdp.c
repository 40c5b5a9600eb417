/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the simulated ConnectX's Ethernet data path, driven as a raw user
 * would: class=none devices, PRM mailboxes through rte_pmd_mlx5v_devx_general_cmd(),
 * rings and buffers in DMA-mapped EAL memory, send WQEs and doorbells written by hand.
 * Section numbers are those of prm/mlx5_eth.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_arp.h>
#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_thash.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "test.h"

#include "ethdp_fx.h"
#include "hwsim_wire.h"
#include "mlx5v_sim_eth.h"
#include "ut_sh.h"
#include "ut_common.h"

/* An IPv4 address in host order: RTE_IPV4() shifts an int (undefined from 128.0.0.0 on). */
#define UT_IPV4(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/* Send a frame and take its send CQE; the frame's receive CQE is the caller's. */
static int
send_ok(struct fx *f, const uint8_t *frame, uint32_t len, uint8_t cs)
{
	uint16_t idx = f->sq_pc;
	uint8_t *cqe;

	sq_send(f, frame, len, cs, f->lkey, 0);
	cqe = cq_wait(f, 0);
	TEST_ASSERT_NOT_NULL(cqe, "no send CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_REQ, "send CQE opcode %#x"
			  " syndrome %#x/%#x", cqe[CQE_OP_OWN] >> 4, cqe[CQE_SYND],
			  cqe[CQE_VSYND]);
	TEST_ASSERT_EQUAL(be16(cqe + CQE_WQE_CTR), idx, "send wqe_counter");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_SOP_QPN), (0x0au << 24) | f->sq, "send opcode/SQN");
	return TEST_SUCCESS;
}

/* ---- tests ---- */

static struct fx fx_a;
static struct fx fx_b;
static struct fx fx_c;
static struct fx fx_d;

static int
testsuite_setup(void)
{
	if (fx_up(&fx_a, "mlx5v_sim20", "class=none,wire=loop") != 0) {
		fx_down(&fx_a);
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

static void
testsuite_teardown(void)
{
	if (fx_down(&fx_a) != 0)
		printf("objects left in %s\n", "mlx5v_sim20");
}

/*
 * Loop wire: a UDP frame comes back with the CQE fields of prm/mlx5_eth §8.2 and the bytes intact.
 */
static int
test_ethdp_loop(void)
{
	struct fx *f = &fx_a;
	uint8_t frame[128];
	const uint8_t *cqe;

	frame_udp(frame, sizeof(frame), f->mac, UT_IPV4(10, 0, 0, 1), 1000, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "no receive CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_RESP_SEND, "rx opcode");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_BYTE_CNT), sizeof(frame), "byte count");
	TEST_ASSERT_EQUAL(cqe[CQE_HDS_IP_EXT] & 0x7, 0x7, "L2/L3/L4 ok %#x", cqe[CQE_HDS_IP_EXT]);
	TEST_ASSERT_EQUAL((cqe[CQE_L4_L3] >> 2) & 3, 2, "L3 type IPv4");
	TEST_ASSERT_EQUAL((cqe[CQE_L4_L3] >> 4) & 7, 2, "L4 type UDP");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_SOP_QPN) & 0xffffff, 0x1234, "flow tag");
	TEST_ASSERT(memcmp(rx_buf(f, cqe), frame, sizeof(frame)) == 0, "frame bytes differ");
	rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	return TEST_SUCCESS;
}

/* Checksums asked by cs_flags are computed: the receiver finds them valid. */
static int
test_ethdp_tx_csum(void)
{
	struct fx *f = &fx_a;
	uint8_t frame[100];
	const uint8_t *cqe;
	const struct rte_ipv4_hdr *ip;

	frame_udp(frame, sizeof(frame), f->mac, UT_IPV4(10, 0, 0, 3), 2000, 1);
	/* Without offload the zero IP checksum is bad. */
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "no receive CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_HDS_IP_EXT] & 0x2, 0, "bad L3 checksum reported ok");
	rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	/* With L3 | L4 both are filled in. */
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0xc0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "no receive CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_HDS_IP_EXT] & 0x6, 0x6, "checksums not ok: %#x",
			  cqe[CQE_HDS_IP_EXT]);
	ip = (const struct rte_ipv4_hdr *)(rx_buf(f, cqe) + RTE_ETHER_HDR_LEN);
	TEST_ASSERT(ip->hdr_checksum != 0 && rte_ipv4_cksum(ip) == 0, "IP checksum");
	TEST_ASSERT_EQUAL(rte_ipv4_udptcp_cksum_verify(ip, ip + 1), 0, "UDP checksum");
	rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	return TEST_SUCCESS;
}

/* RSS: the CQE hash is Toeplitz over the 4-tuple, the RQ is rqt[hash % 4], all 4 used. */
static int
test_ethdp_rss(void)
{
	struct fx *f = &fx_a;
	struct rte_ipv4_tuple t;
	unsigned int used = 0;
	uint8_t frame[80];
	const uint8_t *cqe;
	uint32_t h, rq;
	unsigned int i;

	for (i = 0; i < 32; i++) {
		frame_udp(frame, sizeof(frame), f->mac, UT_IPV4(10, 168, 1, i), 3000 + i * 7,
			  0);
		TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send %u", i);
		cqe = cq_wait(f, 1);
		TEST_ASSERT_NOT_NULL(cqe, "no receive CQE %u", i);
		t.src_addr = UT_IPV4(10, 168, 1, i);
		t.dst_addr = UT_IPV4(10, 0, 0, 2);
		t.sport = 3000 + i * 7;
		t.dport = 4789;
		h = rte_softrss((uint32_t *)&t, RTE_THASH_V4_L4_LEN, rss_key);
		TEST_ASSERT_EQUAL(be32(cqe + CQE_RSS_HASH), h, "hash %u", i);
		TEST_ASSERT_EQUAL(cqe[CQE_RSS_TYPE], (1 << 2) | (2 << 6), "hash type");
		rq = be32(cqe + CQE_USER_INDEX) & 0xffffff;
		TEST_ASSERT_EQUAL(rq, h % NB_RQ, "frame %u in RQ %u, hash says %u", i, rq,
				  h % NB_RQ);
		used |= 1u << rq;
		rq_post(f, rq, 1);
	}
	TEST_ASSERT_EQUAL(used, (1u << NB_RQ) - 1, "RQs used: %#x", used);
	return TEST_SUCCESS;
}

/*
 * A TIR hashes only its class: ICMP over IPv4 reaching the IPv4/UDP TIR (which selects ports)
 * gets no hash and no hash type, and lands on RQT entry 0 (doc/guides/sim/silicon.rst).
 */
static int
test_ethdp_rss_other_class(void)
{
	struct fx *f = &fx_a;
	struct rte_ipv4_hdr *ip;
	uint8_t frame[80];
	const uint8_t *cqe;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		frame_udp(frame, sizeof(frame), f->mac, UT_IPV4(10, 168, 2, i), 3000 + i, 0);
		ip = (struct rte_ipv4_hdr *)(frame + RTE_ETHER_HDR_LEN);
		ip->next_proto_id = IPPROTO_ICMP;
		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send %u", i);
		cqe = cq_wait(f, 1);
		TEST_ASSERT_NOT_NULL(cqe, "no receive CQE %u", i);
		TEST_ASSERT_EQUAL(be32(cqe + CQE_RSS_HASH), 0, "hash of another class, %u", i);
		TEST_ASSERT_EQUAL(cqe[CQE_RSS_TYPE], 0, "hash type of another class");
		TEST_ASSERT_EQUAL(be32(cqe + CQE_USER_INDEX) & 0xffffff, 0, "RQT entry 0");
		rq_post(f, 0, 1);
	}
	return TEST_SUCCESS;
}

/* MAC filter: another DMAC misses the DMAC group; a catch-all entry (promisc) takes it. */
static int
test_ethdp_mac_filter(void)
{
	static const uint8_t other[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct mlx5v_sim_eth_stats st0, st1;
	struct fx *f = &fx_a;
	uint8_t frame[80];
	const uint8_t *cqe;

	frame_udp(frame, sizeof(frame), other, UT_IPV4(10, 0, 0, 9), 9, 0);
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st0), "stats");
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	TEST_ASSERT(cq_quiet(f, 1), "a frame for another MAC was received");
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st1), "stats");
	TEST_ASSERT_EQUAL(st1.rx_steer_miss, st0.rx_steer_miss + 1, "miss not counted");
	/* Promiscuous: a match-all entry to the direct TIR. */
	TEST_ASSERT_SUCCESS(fte_set(f, 2, f->fg_all, NULL, f->tir_direct, 0x99), "catch-all");
	f->have_fte_all = 1;
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "promiscuous frame not received");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_USER_INDEX) & 0xffffff, 0, "direct TIR: RQ 0");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_SOP_QPN) & 0xffffff, 0x99, "flow tag");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_RSS_HASH), 0, "no hash on a direct TIR");
	rq_post(f, 0, 1);
	TEST_ASSERT_SUCCESS(fte_del(f, 2), "delete catch-all");
	f->have_fte_all = 0;
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	TEST_ASSERT(cq_quiet(f, 1), "filter not back after the catch-all went");
	return TEST_SUCCESS;
}

/*
 * Entry index of table ft (group fg): value m (an fte_match_param; NULL: match-all) to a TIR
 * or a table.
 */
static int
l4_fte(struct fx *f, uint32_t ft, uint32_t index, uint32_t fg, const uint8_t *m,
       uint32_t dtype, uint32_t dest, uint32_t tag)
{
	uint8_t in[MLX5V_IFC_BYTES(set_fte_in) + MLX5V_IFC_BYTES(dest_format)];
	uint8_t out[0x10];
	uint8_t *d = in + MLX5V_IFC_BYTES(set_fte_in);

	memset(in, 0, sizeof(in));
	MLX5V_SET(set_fte_in, in, opcode, MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY);
	MLX5V_SET(set_fte_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(set_fte_in, in, table_id, ft);
	MLX5V_SET(set_fte_in, in, flow_index, index);
	MLX5V_SET(set_fte_in, in, ctx.group_id, fg);
	MLX5V_SET(set_fte_in, in, ctx.flow_tag, tag);
	MLX5V_SET(set_fte_in, in, ctx.action, MLX5V_FTE_ACTION_FWD_DEST);
	MLX5V_SET(set_fte_in, in, ctx.destination_list_size, 1);
	if (m != NULL)
		memcpy(MLX5V_IFC_ADDR_OF(set_fte_in, in, ctx.match_value), m,
		       MLX5V_IFC_BYTES(fte_match_param));
	MLX5V_SET(dest_format, d, destination_type, dtype);
	MLX5V_SET(dest_format, d, destination_id, dest);
	return cmd(f, "SET_FTE", in, sizeof(in), out, sizeof(out));
}

/*
 * The outer header fields of the L4 test: IP protocol, UDP dport, IPv4 source (prm/mlx5_eth §4.10).
 */
static void
l4_match(uint8_t *m, uint8_t proto, uint16_t dport, uint32_t sip)
{
	memset(m, 0, MLX5V_IFC_BYTES(fte_match_param));
	MLX5V_SET(fte_match_set_lyr_2_4, m, ip_protocol, proto);
	MLX5V_SET(fte_match_set_lyr_2_4, m, udp_dport, dport);
	put_be32((uint8_t *)MLX5V_IFC_ADDR_OF(fte_match_set_lyr_2_4, m, src_ipv4_src_ipv6) + 12,
		 sip);
}

/* A level-1 table of 2 entries (prm/mlx5_eth §4.10); @return its id, or a negative value. */
static int64_t
level1_table(struct fx *f)
{
	uint8_t in[MLX5V_IFC_BYTES(create_flow_table_in)];

	memset(in, 0, sizeof(in));
	MLX5V_SET(create_flow_table_in, in, opcode, MLX5V_CMD_OP_CREATE_FLOW_TABLE);
	MLX5V_SET(create_flow_table_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_table_in, in, ctx.level, 1);
	MLX5V_SET(create_flow_table_in, in, ctx.log_size, 1);
	return cmd_obj(f, "CREATE_FLOW_TABLE", in, sizeof(in));
}

/*
 * Undo a test of the level-1 table ft1: the promiscuous entry to it, then its entries 0 to
 * n - 1 and their one-entry groups fg[], then the table.
 */
static int
level1_teardown(struct fx *f, uint32_t ft1, const uint32_t *fg, unsigned int n)
{
	uint8_t in[MLX5V_IFC_BYTES(flow_table_obj_in)];
	uint8_t out[16];
	unsigned int i;

	TEST_ASSERT_SUCCESS(fte_del(f, 2), "promiscuous entry");
	f->have_fte_all = 0;
	memset(in, 0, sizeof(in));
	MLX5V_SET(flow_table_obj_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(flow_table_obj_in, in, table_id, ft1);
	for (i = 0; i < n; i++) {
		MLX5V_SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_DELETE_FLOW_TABLE_ENTRY);
		MLX5V_SET(flow_table_obj_in, in, flow_index, i);
		TEST_ASSERT_SUCCESS(cmd(f, "DELETE_FTE", in, sizeof(in), out, sizeof(out)),
				    "entry %u", i);
		MLX5V_SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_DESTROY_FLOW_GROUP);
		MLX5V_SET(flow_table_obj_in, in, group_id, fg[i]);
		TEST_ASSERT_SUCCESS(cmd(f, "DESTROY_FLOW_GROUP", in, sizeof(in), out, sizeof(out)),
				    "group %u", i);
	}
	MLX5V_SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_DESTROY_FLOW_TABLE);
	TEST_ASSERT_SUCCESS(cmd(f, "DESTROY_FLOW_TABLE", in, sizeof(in), out, sizeof(out)),
			    "level-1 table");
	return TEST_SUCCESS;
}

/*
 * Matching beyond L2 (doc/guides/sim/silicon.rst): the promiscuous entry forwards to a level-1
 * table whose group masks the IP protocol, the UDP destination port and the IPv4 source; the
 * frame from 10.9.9.9 to UDP port 4789 takes its entry (flow tag 0x77, the direct TIR's RQ
 * 0) whatever its source port, one from 10.9.9.8 misses the table and is dropped.
 */
static int
test_ethdp_l4_match(void)
{
	static const uint8_t other[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x66 };
	uint8_t in[MLX5V_IFC_BYTES(create_flow_group_in)];
	uint8_t m[MLX5V_IFC_BYTES(fte_match_param)];
	struct mlx5v_sim_eth_stats st0, st1;
	struct fx *f = &fx_a;
	uint32_t ft1, fg1;
	uint8_t frame[80];
	const uint8_t *cqe;
	int64_t r;

	r = level1_table(f);
	TEST_ASSERT(r > 0, "level-1 table");
	ft1 = (uint32_t)r;
	memset(in, 0, sizeof(in));
	MLX5V_SET(create_flow_group_in, in, opcode, MLX5V_CMD_OP_CREATE_FLOW_GROUP);
	MLX5V_SET(create_flow_group_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_group_in, in, table_id, ft1);
	MLX5V_SET(create_flow_group_in, in, match_criteria_enable, MLX5V_MATCH_OUTER_HEADERS);
	l4_match(m, 0xff, 0xffff, UINT32_MAX);
	memcpy(MLX5V_IFC_ADDR_OF(create_flow_group_in, in, match_criteria), m, sizeof(m));
	r = cmd_obj(f, "CREATE_FLOW_GROUP", in, sizeof(in));
	TEST_ASSERT(r > 0, "L4 group");
	fg1 = (uint32_t)r;
	l4_match(m, IPPROTO_UDP, 4789, UT_IPV4(10, 9, 9, 9));
	TEST_ASSERT_SUCCESS(l4_fte(f, ft1, 0, fg1, m, MLX5V_FLOW_DEST_TIR, f->tir_direct, 0x77),
			    "L4 entry");
	TEST_ASSERT_SUCCESS(l4_fte(f, f->ft, 2, f->fg_all, NULL, MLX5V_FLOW_DEST_FLOW_TABLE, ft1,
				   0), "promiscuous entry to the table");
	f->have_fte_all = 1;
	frame_udp(frame, sizeof(frame), other, UT_IPV4(10, 9, 9, 9), 1111, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "the matching frame was not received");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_SOP_QPN) & 0xffffff, 0x77, "flow tag of the L4 entry");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_USER_INDEX) & 0xffffff, 0, "direct TIR: RQ 0");
	rq_post(f, 0, 1);
	frame_udp(frame, sizeof(frame), other, UT_IPV4(10, 9, 9, 9), 2222, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "the source port is not in the mask");
	rq_post(f, 0, 1);
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st0), "stats");
	frame_udp(frame, sizeof(frame), other, UT_IPV4(10, 9, 9, 8), 1111, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	TEST_ASSERT(cq_quiet(f, 1), "a frame from another source matched");
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st1), "stats");
	TEST_ASSERT_EQUAL(st1.rx_steer_miss, st0.rx_steer_miss + 1, "miss not counted");
	return level1_teardown(f, ft1, &fg1, 1);
}

/* An IPv4 ICMP frame of type and code 0 (len 80) to dst. */
static void
frame_icmp(uint8_t *p, const uint8_t *dst, uint8_t type)
{
	struct rte_ipv4_hdr *ip = frame_ipv4(p, 80, dst, IPPROTO_ICMP, UT_IPV4(10, 9, 9, 9));

	ip->hdr_checksum = rte_ipv4_cksum(ip);
	p[RTE_ETHER_HDR_LEN + sizeof(*ip)] = type;
}

/* A VXLAN frame (len 128) to dst: UDP to 4789, VNI vni, an inner IPv4/UDP frame to idst. */
static void
frame_vxlan(uint8_t *p, const uint8_t *dst, uint32_t vni, uint32_t idst)
{
	uint8_t *v = p + RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr) +
		     sizeof(struct rte_udp_hdr);
	struct rte_ipv4_hdr *ip;

	frame_udp(p, 128, dst, UT_IPV4(10, 9, 9, 9), 1111, 1);
	memset(v, 0, 8);
	v[0] = 0x08;
	put_be32(v + 4, vni << 8);
	ip = frame_ipv4(v + 8, 128 - (uint32_t)(v + 8 - p), dst, IPPROTO_UDP,
			UT_IPV4(192, 168, 0, 1));
	ip->dst_addr = rte_cpu_to_be_32(idst);
}

/*
 * Send frame (len bytes); @return the flow tag it was received with, -1 if nothing was
 * received within 50 ms (a frame the steering dropped).
 */
static int64_t
tag_of(struct fx *f, const uint8_t *frame, uint32_t len)
{
	const uint8_t *cqe;

	if (send_ok(f, frame, len, 0) != TEST_SUCCESS)
		return -2;
	if (cq_quiet(f, 1))
		return -1;
	cqe = cq_wait(f, 1);
	if (cqe == NULL)
		return -2;
	rq_post(f, 0, 1);
	return be32(cqe + CQE_SOP_QPN) & 0xffffff;
}

/*
 * The match sets past the outer headers (doc/guides/sim/silicon.rst, "mlx5: flow rules"): the
 * promiscuous entry forwards to a level-1 table of two groups, one masking the IP protocol and
 * misc 3's ICMP type (entry: ICMP echo request, tag 0x81), one masking misc's VXLAN VNI and
 * the inner IPv4 destination (entry: VNI 42 to 192.168.0.2, tag 0x42). The echo reply, VNI 43
 * and VNI 42 to another inner address miss the table.
 */
static int
test_ethdp_tunnel_icmp_match(void)
{
	static const uint8_t other[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x66 };
	uint8_t in[MLX5V_IFC_BYTES(create_flow_group_in)];
	uint8_t m[MLX5V_IFC_BYTES(fte_match_param)];
	struct mlx5v_sim_eth_stats st0, st1;
	struct fx *f = &fx_a;
	uint32_t ft1, fg[2], i;
	uint8_t frame[128];
	int64_t r;

	r = level1_table(f);
	TEST_ASSERT(r > 0, "level-1 table");
	ft1 = (uint32_t)r;
	for (i = 0; i < 2; i++) {
		memset(in, 0, sizeof(in));
		MLX5V_SET(create_flow_group_in, in, opcode, MLX5V_CMD_OP_CREATE_FLOW_GROUP);
		MLX5V_SET(create_flow_group_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
		MLX5V_SET(create_flow_group_in, in, table_id, ft1);
		MLX5V_SET(create_flow_group_in, in, start_flow_index, i);
		MLX5V_SET(create_flow_group_in, in, end_flow_index, i);
		if (i == 0) {
			MLX5V_SET(create_flow_group_in, in, match_criteria_enable,
			    MLX5V_MATCH_OUTER_HEADERS | MLX5V_MATCH_MISC_PARAMETERS_3);
			MLX5V_SET(create_flow_group_in, in,
				  match_criteria.outer_headers.ip_protocol,
			    0xff);
			MLX5V_SET(create_flow_group_in, in,
				  match_criteria.misc_parameters_3.icmp_type,
			    0xff);
		} else {
			MLX5V_SET(create_flow_group_in, in, match_criteria_enable,
			    MLX5V_MATCH_MISC_PARAMETERS | MLX5V_MATCH_INNER_HEADERS);
			MLX5V_SET(create_flow_group_in, in,
				  match_criteria.misc_parameters.vxlan_vni,
			    0xffffff);
			memset((uint8_t *)MLX5V_IFC_ADDR_OF(create_flow_group_in, in,
				match_criteria.inner_headers.dst_ipv4_dst_ipv6) + 12, 0xff, 4);
		}
		r = cmd_obj(f, "CREATE_FLOW_GROUP", in, sizeof(in));
		TEST_ASSERT(r > 0, "group %u", i);
		fg[i] = (uint32_t)r;
	}
	memset(m, 0, sizeof(m));
	MLX5V_SET(fte_match_param, m, outer_headers.ip_protocol, IPPROTO_ICMP);
	MLX5V_SET(fte_match_param, m, misc_parameters_3.icmp_type, 8);
	TEST_ASSERT_SUCCESS(l4_fte(f, ft1, 0, fg[0], m, MLX5V_FLOW_DEST_TIR, f->tir_direct, 0x81),
			    "ICMP entry");
	memset(m, 0, sizeof(m));
	MLX5V_SET(fte_match_param, m, misc_parameters.vxlan_vni, 42);
	put_be32((uint8_t *)MLX5V_IFC_ADDR_OF(fte_match_param, m,
		 inner_headers.dst_ipv4_dst_ipv6) + 12, UT_IPV4(192, 168, 0, 2));
	TEST_ASSERT_SUCCESS(l4_fte(f, ft1, 1, fg[1], m, MLX5V_FLOW_DEST_TIR, f->tir_direct, 0x42),
			    "VXLAN entry");
	TEST_ASSERT_SUCCESS(l4_fte(f, f->ft, 2, f->fg_all, NULL, MLX5V_FLOW_DEST_FLOW_TABLE, ft1,
				   0), "promiscuous entry to the table");
	f->have_fte_all = 1;
	frame_icmp(frame, other, 8);
	TEST_ASSERT_EQUAL(tag_of(f, frame, 80), 0x81, "echo request: its entry's tag");
	frame_vxlan(frame, other, 42, UT_IPV4(192, 168, 0, 2));
	TEST_ASSERT_EQUAL(tag_of(f, frame, 128), 0x42, "VNI 42 to .2: its entry's tag");
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st0), "stats");
	frame_icmp(frame, other, 0);
	TEST_ASSERT_EQUAL(tag_of(f, frame, 80), -1, "an echo reply matched");
	frame_vxlan(frame, other, 43, UT_IPV4(192, 168, 0, 2));
	TEST_ASSERT_EQUAL(tag_of(f, frame, 128), -1, "VNI 43 matched");
	frame_vxlan(frame, other, 42, UT_IPV4(192, 168, 0, 3));
	TEST_ASSERT_EQUAL(tag_of(f, frame, 128), -1, "another inner address matched");
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st1), "stats");
	TEST_ASSERT_EQUAL(st1.rx_steer_miss, st0.rx_steer_miss + 3, "misses not counted");
	return level1_teardown(f, ft1, fg, 2);
}

/* MTU: a frame longer than the vport MTU (1522 with the FCS) is dropped. */
static int
test_ethdp_mtu(void)
{
	struct mlx5v_sim_eth_stats st0, st1;
	struct fx *f = &fx_a;
	static uint8_t frame[1600];
	const uint8_t *cqe;

	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st0), "stats");
	frame_udp(frame, 1519, f->mac, UT_IPV4(10, 0, 0, 4), 4, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, 1519, 0), "send");
	TEST_ASSERT(cq_quiet(f, 1), "an oversize frame was received");
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st1), "stats");
	TEST_ASSERT_EQUAL(st1.rx_mtu_drop, st0.rx_mtu_drop + 1, "MTU drop not counted");
	frame_udp(frame, 1518, f->mac, UT_IPV4(10, 0, 0, 4), 4, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, 1518, 0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "a frame of the MTU was not received");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_BYTE_CNT), 1518, "byte count");
	rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	return TEST_SUCCESS;
}

/* No posted WQE: the frame is dropped and out_of_buffer of the Q counter counts it. */
static int
test_ethdp_out_of_buffer(void)
{
	struct fx *f = &fx_a;
	uint8_t frame[80];
	uint32_t oob0, oob1;
	unsigned int i, n = 0;
	const uint8_t *cqe;

	oob0 = qcnt_out_of_buffer(f);
	TEST_ASSERT(oob0 != UINT32_MAX, "QUERY_Q_COUNTER");
	/* RQ 0 only through the direct TIR: 16 posted, send 18. */
	TEST_ASSERT_SUCCESS(fte_set(f, 2, f->fg_all, NULL, f->tir_direct, 0), "catch-all");
	f->have_fte_all = 1;
	frame_udp(frame, sizeof(frame), (const uint8_t *)"\x02\x99\x99\x99\x99\x99",
		  UT_IPV4(10, 0, 0, 5), 5, 0);
	for (i = 0; i < (1u << RQ_LOG) + 2; i++)
		TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send %u", i);
	while ((cqe = cq_wait(f, 1)) != NULL && ++n < (1u << RQ_LOG))
		;
	TEST_ASSERT_EQUAL(n, 1u << RQ_LOG, "received %u of %u", n, 1u << RQ_LOG);
	TEST_ASSERT(cq_quiet(f, 1), "more frames than WQEs received");
	oob1 = qcnt_out_of_buffer(f);
	TEST_ASSERT_EQUAL(oob1, oob0 + 2, "out_of_buffer %u -> %u", oob0, oob1);
	rq_post(f, 0, 1u << RQ_LOG);
	TEST_ASSERT_SUCCESS(fte_del(f, 2), "delete catch-all");
	f->have_fte_all = 0;
	return TEST_SUCCESS;
}

/*
 * The SQ's WQE idx failed: one error CQE (REQ_ERR, syndrome synd, vendor syndrome vsynd),
 * the SQ in ERR, nothing on the wire (leak: what it would mean), then recovered as a driver
 * does: ERR -> RST -> RDY, counters from 0 (prm/mlx5_eth §5.2).
 */
static int
sq_error_recover(struct fx *f, uint16_t idx, uint8_t synd, uint8_t vsynd, const char *leak)
{
	uint8_t *cqe = cq_wait(f, 0);

	TEST_ASSERT_NOT_NULL(cqe, "no error CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_REQ_ERR, "opcode");
	TEST_ASSERT_EQUAL(cqe[CQE_SYND], synd, "syndrome %#x", cqe[CQE_SYND]);
	TEST_ASSERT_EQUAL(cqe[CQE_VSYND], vsynd, "vendor syndrome %#x", cqe[CQE_VSYND]);
	TEST_ASSERT_EQUAL(be16(cqe + CQE_WQE_CTR), idx, "wqe_counter");
	TEST_ASSERT_EQUAL(sq_state(f), 3, "SQ not in ERR");
	TEST_ASSERT(cq_quiet(f, 1), "%s", leak);
	TEST_ASSERT_SUCCESS(q_modify(f, 1, f->sq, 3, 0), "ERR -> RST");
	TEST_ASSERT_SUCCESS(q_modify(f, 1, f->sq, 0, 1), "RST -> RDY");
	f->sq_pc = 0;
	return TEST_SUCCESS;
}

/* Send a WQE whose data segment fails its key: error CQE syndrome, vendor byte, SQ ERR. */
static int
lkey_case(struct fx *f, uint32_t lkey, uint64_t addr, uint8_t vsynd)
{
	uint8_t frame[80];
	uint16_t idx = f->sq_pc;

	frame_udp(frame, sizeof(frame), f->mac, UT_IPV4(10, 0, 0, 6), 6, 0);
	sq_send(f, frame, sizeof(frame), 0, lkey, addr);
	/* 0x04: LOCAL_PROT_ERR. */
	return sq_error_recover(f, idx, 0x04, vsynd, "a frame left through a bad key");
}

static int
test_ethdp_lkey_errors(void)
{
	struct fx *f = &fx_a;
	uint8_t in[MLX5V_IFC_BYTES(create_mkey_in)];
	uint8_t frame[80];
	int64_t ro;
	int ret;

	TEST_ASSERT_SUCCESS(lkey_case(f, 0xabcd00, 0, 0x01), "unknown lkey");
	TEST_ASSERT_SUCCESS(lkey_case(f, f->lkey, f->iova + MEM_SIZE, 0x02), "out of range");
	/*
	 * The fixture's SQ has rlky 0: the reserved lkey is a key it may not use
	 * (prm/mlx5_eth §4.2).
	 */
	TEST_ASSERT_SUCCESS(lkey_case(f, MLX5V_SIM_ETH_RESD_LKEY, 0, 0x05), "resd without rlky");
	/* A write-only key: no local read for a gather. */
	memset(in, 0, sizeof(in));
	MLX5V_SET(create_mkey_in, in, opcode, MLX5V_CMD_OP_CREATE_MKEY);
	MLX5V_SET(create_mkey_in, in, mkc.lw, 1);
	MLX5V_SET(create_mkey_in, in, mkc.access_mode_1_0, MLX5V_MKC_ACCESS_PA);
	MLX5V_SET(create_mkey_in, in, mkc.qpn, 0xffffff);
	MLX5V_SET(create_mkey_in, in, mkc.pd, f->pd);
	MLX5V_IFC_SET64(create_mkey_in, in, mkc.start_addr, f->iova);
	MLX5V_IFC_SET64(create_mkey_in, in, mkc.len, MEM_SIZE);
	ro = cmd_obj(f, "CREATE_MKEY", in, sizeof(in));
	TEST_ASSERT(ro > 0, "CREATE_MKEY");
	ret = lkey_case(f, (uint32_t)ro << 8, 0, 0x03);
	cmd_simple(f, "DESTROY_MKEY", MLX5V_CMD_OP_DESTROY_MKEY, ro);
	TEST_ASSERT_SUCCESS(ret, "no read access");
	/* The recovered SQ sends again. */
	frame_udp(frame, sizeof(frame), f->mac, UT_IPV4(10, 0, 0, 7), 7, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send after recovery");
	TEST_ASSERT_NOT_NULL(cq_wait(f, 1), "no frame after recovery");
	rq_post(f, 0, 0);
	return TEST_SUCCESS;
}

/* The state of RQ i (QUERY_RQ), or -1. */
static int
rq_state(struct fx *f, unsigned int i)
{
	uint8_t in[MLX5V_IFC_BYTES(eth_obj_in)];
	uint8_t out[MLX5V_IFC_BYTES(query_rq_out)];

	memset(in, 0, sizeof(in));
	MLX5V_SET(eth_obj_in, in, opcode, MLX5V_CMD_OP_QUERY_RQ);
	MLX5V_SET(eth_obj_in, in, obj_id, f->rq[i]);
	if (cmd(f, "QUERY_RQ", in, sizeof(in), out, sizeof(out)) != 0)
		return -1;
	return MLX5V_GET(query_rq_out, out, ctx.state);
}

/* MODIFY_RQ RST->RDY of RQ i: @return the outbox syndrome (0 if it succeeded). */
static uint32_t
rq_ready_synd(struct fx *f, unsigned int i)
{
	uint8_t in[MLX5V_IFC_BYTES(modify_rq_in)];
	uint8_t out[0x10];

	memset(in, 0, sizeof(in));
	MLX5V_SET(modify_rq_in, in, opcode, MLX5V_CMD_OP_MODIFY_RQ);
	MLX5V_SET(modify_rq_in, in, rq_state, 0);
	MLX5V_SET(modify_rq_in, in, rqn, f->rq[i]);
	MLX5V_SET(modify_rq_in, in, ctx.state, 1);
	if (cmd(f, "MODIFY_RQ RST->RDY", in, sizeof(in), out, sizeof(out)) == 0)
		return 0;
	return RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME);
}

/*
 * RQ errors as silicon gives them (prm/mlx5_eth §4.2, §8.4): a WQE with the reserved lkey on
 * an RQ created without rlky is LOCAL_PROT (vendor 0x05) and moves the RQ to ERR; with
 * flush_in_error_en every other posted WQE completes with WR_FLUSH_ERR, in WQE order; after
 * ERR->RST, RST->RDY is refused while the record is not 0 (BAD_PARAM 0x51060037); a record
 * more than a ring ahead of the device is misuse and takes no WQE.
 */
static int
test_ethdp_rq_error(void)
{
	struct fx *f = &fx_a;
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + 0xc0);
	uint32_t misuse, outstanding, n = 0;
	uint16_t ctr = 0;
	uint8_t frame[80];
	const uint8_t *cqe;
	unsigned int k;

	TEST_ASSERT_SUCCESS(fte_set(f, 2, f->fg_all, NULL, f->tir_direct, 0), "catch-all");
	f->have_fte_all = 1;
	/* Every WQE of RQ 0 with the reserved lkey: the fixture's RQs have rlky 0. */
	for (k = 0; k < (1u << RQ_LOG); k++)
		put_be32(f->mem + OFF_RQ + 16 * k + 4, MLX5V_SIM_ETH_RESD_LKEY);
	rte_io_wmb();
	outstanding = 1u << RQ_LOG;
	frame_udp(frame, sizeof(frame), (const uint8_t *)"\x02\x99\x99\x99\x99\x99",
		  UT_IPV4(10, 0, 0, 9), 9, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "no error CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_RESP_ERR, "opcode");
	TEST_ASSERT_EQUAL(cqe[CQE_SYND], 0x04, "syndrome LOCAL_PROT_ERR");
	TEST_ASSERT_EQUAL(cqe[CQE_VSYND], 0x05, "vendor syndrome: reserved lkey without rlky");
	ctr = be16(cqe + CQE_WQE_CTR);
	TEST_ASSERT_EQUAL(rq_state(f, 0), 3, "RQ not in ERR");
	/* The other posted WQEs, flushed in order. */
	while ((cqe = cq_poll(f, 1)) != NULL) {
		TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_RESP_ERR, "flush opcode");
		TEST_ASSERT_EQUAL(cqe[CQE_SYND], 0x05, "syndrome WR_FLUSH_ERR");
		TEST_ASSERT_EQUAL(be16(cqe + CQE_WQE_CTR), (uint16_t)(ctr + 1 + n), "flush order");
		n++;
	}
	TEST_ASSERT_EQUAL(n, outstanding - 1, "%u flushed of %u posted", n, outstanding - 1);
	/* A frame for an RQ in ERR is dropped. */
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send to ERR");
	TEST_ASSERT(cq_quiet(f, 1), "a CQE from an RQ in ERR");
	TEST_ASSERT_SUCCESS(q_modify(f, 0, f->rq[0], 3, 0), "ERR -> RST");
	TEST_ASSERT_EQUAL(rq_ready_synd(f, 0), 0x51060037u, "RST -> RDY with a stale record");
	TEST_ASSERT_EQUAL(rq_state(f, 0), 0, "RQ left RST");
	/* Record 0, then RDY, then post as a driver does. */
	f->rq_posted[0] = 0;
	*dbr = 0;
	TEST_ASSERT_EQUAL(rq_ready_synd(f, 0), 0u, "RST -> RDY with the record 0");
	/* A record more than a ring ahead: misuse, nothing taken. */
	misuse = mlx5v_sim_counter(f->sim, MLX5V_SIM_CTR_DB_MISUSE);
	*dbr = rte_cpu_to_be_32((1u << RQ_LOG) + 1);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send over-posted");
	TEST_ASSERT(cq_quiet(f, 1), "a CQE from an over-posted RQ");
	TEST_ASSERT(mlx5v_sim_counter(f->sim, MLX5V_SIM_CTR_DB_MISUSE) > misuse,
		    "over-posted RQ not counted as misuse");
	*dbr = 0;
	rq_post(f, 0, 1u << RQ_LOG);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send after recovery");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "no frame after recovery");
	TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_RESP_SEND, "opcode after");
	TEST_ASSERT_EQUAL(be16(cqe + CQE_WQE_CTR), 0, "the RQ restarts at WQE 0");
	/* The WQE is posted again, so that RQ 0 stays full for the cases after. */
	rq_post(f, 0, 1);
	TEST_ASSERT_SUCCESS(fte_del(f, 2), "delete catch-all");
	f->have_fte_all = 0;
	return TEST_SUCCESS;
}

/* The tx_err_next knob: the next send fails, the SQ goes to ERR. */
static int
test_ethdp_tx_err_knob(void)
{
	struct fx *f = &fx_a;
	uint8_t frame[80];
	uint8_t *cqe;

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(f->sim, "tx_err_next", 1), "knob");
	frame_udp(frame, sizeof(frame), f->mac, UT_IPV4(10, 0, 0, 8), 8, 0);
	sq_send(f, frame, sizeof(frame), 0, f->lkey, 0);
	cqe = cq_wait(f, 0);
	TEST_ASSERT_NOT_NULL(cqe, "no CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_REQ_ERR, "opcode");
	TEST_ASSERT_EQUAL(cqe[CQE_SYND], 0x02, "syndrome LOCAL_QP_OP_ERR");
	TEST_ASSERT_EQUAL(sq_state(f), 3, "SQ not in ERR");
	/* With flush_in_error_en the next WQE is flushed (prm/mlx5_eth §8.4). */
	sq_send(f, frame, sizeof(frame), 0, f->lkey, 0);
	cqe = cq_wait(f, 0);
	TEST_ASSERT_NOT_NULL(cqe, "no flush CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_SYND], 0x05, "syndrome WR_FLUSH_ERR");
	TEST_ASSERT_SUCCESS(q_modify(f, 1, f->sq, 3, 0), "ERR -> RST");
	TEST_ASSERT_SUCCESS(q_modify(f, 1, f->sq, 0, 1), "RST -> RDY");
	f->sq_pc = 0;
	TEST_ASSERT(cq_quiet(f, 1), "a failed send reached the wire");
	return TEST_SUCCESS;
}

static int
test_ethdp_link(void)
{
	struct fx *f = &fx_a;
	uint8_t frame[80];
	const uint8_t *cqe;

	frame_udp(frame, sizeof(frame), f->mac, UT_IPV4(10, 0, 0, 10), 10, 0);
	/* Cable pulled: DOWN event, frames lost, no receive CQE. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_link_set(f->sim, 0), "pull");
	TEST_ASSERT_EQUAL(eq_wait(f, RTE_PMD_MLX5V_EVENT_PORT_CHANGE),
			  RTE_PMD_MLX5V_PORT_CHANGE_DOWN, "no DOWN event");
	TEST_ASSERT_EQUAL(mlx5v_sim_link_get(f->sim), 0, "link still up");
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	TEST_ASSERT(cq_quiet(f, 1), "a frame crossed a pulled cable");
	TEST_ASSERT_SUCCESS(mlx5v_sim_link_set(f->sim, 1), "plug");
	TEST_ASSERT_EQUAL(eq_wait(f, RTE_PMD_MLX5V_EVENT_PORT_CHANGE),
			  RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE, "no ACTIVE event");
	/* PAOS admin down from the driver. */
	TEST_ASSERT_SUCCESS(paos_write(f, MLX5V_PAOS_DOWN), "PAOS down");
	TEST_ASSERT_EQUAL(eq_wait(f, RTE_PMD_MLX5V_EVENT_PORT_CHANGE),
			  RTE_PMD_MLX5V_PORT_CHANGE_DOWN, "no DOWN event for PAOS");
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	TEST_ASSERT(cq_quiet(f, 1), "a frame crossed an admin-down port");
	TEST_ASSERT_SUCCESS(paos_write(f, MLX5V_PAOS_UP), "PAOS up");
	TEST_ASSERT_EQUAL(eq_wait(f, RTE_PMD_MLX5V_EVENT_PORT_CHANGE),
			  RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE, "no ACTIVE event for PAOS");
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "no frame once up again");
	rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	/* A flap: down then up, both reported even though the cable is back at once. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_link_flap(f->sim), "flap");
	TEST_ASSERT_EQUAL(eq_wait(f, RTE_PMD_MLX5V_EVENT_PORT_CHANGE),
			  RTE_PMD_MLX5V_PORT_CHANGE_DOWN, "no DOWN event for the flap");
	TEST_ASSERT_EQUAL(eq_wait(f, RTE_PMD_MLX5V_EVENT_PORT_CHANGE),
			  RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE, "no ACTIVE event for the flap");
	TEST_ASSERT_EQUAL(mlx5v_sim_link_get(f->sim), 1, "link down after a flap");
	/* The wire's knobs through the device: drop and corrupt the next frame. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(f->sim, "wire_drop_next", 1), "drop knob");
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	TEST_ASSERT(cq_quiet(f, 1), "a dropped frame arrived");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(f->sim, "wire_corrupt_next", 1), "corrupt knob");
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	TEST_ASSERT(cq_quiet(f, 1), "a frame with a bad FCS arrived");
	return TEST_SUCCESS;
}

/* An IPv4/TCP frame (ACK | PSH | FIN) with payload bytes of payload, checksums zero. */
static uint32_t
frame_tcp(uint8_t *p, uint32_t payload, const uint8_t *dst)
{
	uint32_t hdr = RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_tcp_hdr);
	struct rte_ipv4_hdr *ip = frame_ipv4(p, hdr + payload, dst, IPPROTO_TCP,
					     UT_IPV4(10, 0, 0, 1));
	struct rte_tcp_hdr *tcp = (struct rte_tcp_hdr *)(ip + 1);
	uint32_t i;

	ip->packet_id = rte_cpu_to_be_16(100);
	tcp->src_port = rte_cpu_to_be_16(5000);
	tcp->dst_port = rte_cpu_to_be_16(80);
	tcp->sent_seq = rte_cpu_to_be_32(0x1000);
	tcp->data_off = (sizeof(*tcp) / 4) << 4;
	tcp->tcp_flags = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG | RTE_TCP_FIN_FLAG;
	tcp->rx_win = rte_cpu_to_be_16(1024);
	for (i = 0; i < payload; i++)
		p[hdr + i] = (uint8_t)(i * 7);
	return hdr + payload;
}

/*
 * LSO (prm/mlx5_eth §6.5): the 54-byte header inline (4 more DS), the payload by a data
 * segment; 3000 bytes at mss 1000 arrive as 3 frames with sequence numbers, lengths,
 * checksums and flags of their own.
 */
static int
test_ethdp_lso(void)
{
	static uint8_t frame[4096];
	struct fx *f = &fx_a;
	const uint32_t hdr = 54, mss = 1000, payload = 3000;
	uint32_t slot = f->sq_pc & ((1u << SQ_LOG) - 1);
	uint8_t *w = f->mem + OFF_SQ + 64 * slot;
	uint8_t *buf = f->mem + OFF_TXBUF + slot * BUF_SZ;
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + 0x80);
	const struct rte_tcp_hdr *tcp;
	const struct rte_ipv4_hdr *ip;
	const uint8_t *cqe, *rx;
	uint32_t len, i;

	TEST_ASSERT(slot + 1 < (1u << SQ_LOG), "the 2-WQEBB WQE would wrap");
	len = frame_tcp(frame, payload, f->mac);
	/* The payload is longer than one buffer: it spans this slot's and the next one's. */
	memcpy(buf, frame + hdr, payload);
	memset(w, 0, 128);
	put_be32(w, (uint32_t)f->sq_pc << 8 | 0x0e);
	put_be32(w + 4, f->sq << 8 | 7);
	w[11] = 2 << 2;
	w[0x14] = 0xc0;
	put_be16(w + 0x16, mss);
	put_be16(w + 0x1c, hdr);
	memcpy(w + 0x1e, frame, hdr);
	put_be32(w + 0x60, payload);
	put_be32(w + 0x64, f->lkey);
	put_be64(w + 0x68, iova_of(f, buf));
	f->sq_pc += 2;
	rte_io_wmb();
	dbr[1] = rte_cpu_to_be_32(f->sq_pc);
	rte_wmb();
	uar_db(f, w);
	cqe = cq_wait(f, 0);
	TEST_ASSERT_NOT_NULL(cqe, "no send CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_REQ, "LSO failed: %#x/%#x",
			  cqe[CQE_SYND], cqe[CQE_VSYND]);
	for (i = 0; i < payload / mss; i++) {
		cqe = cq_wait(f, 1);
		TEST_ASSERT_NOT_NULL(cqe, "segment %u missing", i);
		TEST_ASSERT_EQUAL(be32(cqe + CQE_BYTE_CNT), hdr + mss, "segment %u length", i);
		TEST_ASSERT_EQUAL(cqe[CQE_HDS_IP_EXT] & 0x6, 0x6, "segment %u checksums", i);
		TEST_ASSERT_EQUAL((cqe[CQE_L4_L3] >> 4) & 7, 4, "L4 type TCP ACK with data");
		rx = rx_buf(f, cqe);
		ip = (const struct rte_ipv4_hdr *)(rx + RTE_ETHER_HDR_LEN);
		tcp = (const struct rte_tcp_hdr *)(ip + 1);
		TEST_ASSERT_EQUAL(rte_be_to_cpu_16(ip->total_length), hdr - 14 + mss, "IP length");
		TEST_ASSERT_EQUAL(rte_be_to_cpu_16(ip->packet_id), 100 + i, "IP ID");
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(tcp->sent_seq), 0x1000 + i * mss, "sequence");
		TEST_ASSERT_EQUAL(!!(tcp->tcp_flags & RTE_TCP_FIN_FLAG), i == payload / mss - 1,
				  "FIN on segment %u", i);
		TEST_ASSERT(memcmp(rx + hdr, frame + hdr + i * mss, mss) == 0, "payload %u", i);
		rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	}
	TEST_ASSERT(len == hdr + payload, "frame length");
	return TEST_SUCCESS;
}

/* MODIFY_RQ RDY -> RDY of every RQ with only vsd selected. */
static int
rq_vsd_all(struct fx *f, unsigned int vsd)
{
	uint8_t in[MLX5V_IFC_BYTES(modify_rq_in)];
	uint8_t out[0x10];
	unsigned int i;

	for (i = 0; i < NB_RQ; i++) {
		memset(in, 0, sizeof(in));
		MLX5V_SET(modify_rq_in, in, opcode, MLX5V_CMD_OP_MODIFY_RQ);
		MLX5V_SET(modify_rq_in, in, rq_state, 1);
		MLX5V_SET(modify_rq_in, in, rqn, f->rq[i]);
		MLX5V_SET(modify_rq_in, in, modify_bitmask, MLX5V_MODIFY_RQ_VSD);
		MLX5V_SET(modify_rq_in, in, ctx.state, 1);
		MLX5V_SET(modify_rq_in, in, ctx.vsd, vsd);
		if (cmd(f, "MODIFY_RQ vsd", in, sizeof(in), out, sizeof(out)) != 0)
			return -1;
	}
	return 0;
}

/* VLAN: with vsd 0 the tag is stripped into the CQE (prm/mlx5_eth §8.2). */
static int
test_ethdp_vlan_strip(void)
{
	struct fx *f = &fx_a;
	uint8_t plain[100], tagged[104];
	const uint8_t *cqe;

	TEST_ASSERT_SUCCESS(rq_vsd_all(f, 0), "vsd 0");
	frame_udp(plain, sizeof(plain), f->mac, UT_IPV4(10, 0, 0, 11), 11, 0);
	memcpy(tagged, plain, 12);
	put_be16(tagged + 12, RTE_ETHER_TYPE_VLAN);
	put_be16(tagged + 14, 0x2064);
	memcpy(tagged + 16, plain + 12, sizeof(plain) - 12);
	TEST_ASSERT_SUCCESS(send_ok(f, tagged, sizeof(tagged), 0), "send");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "no receive CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_L4_L3] & 1, 1, "VLAN stripped bit");
	TEST_ASSERT_EQUAL(be16(cqe + 0x1e), 0x2064, "TCI");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_BYTE_CNT), sizeof(plain), "byte count without the tag");
	TEST_ASSERT(memcmp(rx_buf(f, cqe), plain, sizeof(plain)) == 0, "frame not untagged");
	rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	TEST_ASSERT_SUCCESS(rq_vsd_all(f, 1), "vsd 1");
	return TEST_SUCCESS;
}

/*
 * A SEND WQE asking the device for a VLAN tag (bytes 0x0c-0x0f of the Ethernet segment,
 * prm/mlx5_eth §6.3) instead of an inline header, the whole frame by one data segment.
 */
static void
sq_send_vlan(struct fx *f, const uint8_t *frame, uint32_t len, uint16_t tci)
{
	uint32_t slot = f->sq_pc & ((1u << SQ_LOG) - 1);
	uint8_t *w = f->mem + OFF_SQ + 64 * slot;

	sq_post(f, frame, len, 0, f->lkey, 0, 1);
	put_be32(w + 4, f->sq << 8 | 3);
	put_be32(w + 0x1c, 0x80000000u | tci);
	memset(w + 0x20, 0, 0x20);
	put_be32(w + 0x20, len);
	put_be32(w + 0x24, f->lkey);
	put_be64(w + 0x28, iova_of(f, f->mem + OFF_TXBUF + slot * BUF_SZ));
	sq_ring(f);
}

/*
 * VLAN insertion takes the inline header's place (prm/mlx5_eth §6.3, §6.4): refused as too
 * little inline data (LOCAL_QP_OP_ERR, vendor 0x14, SQ to ERR) while the device requires the
 * L2 header inline, taken (tag after the MAC addresses) once it requires none.
 */
static int
test_ethdp_vlan_insert_inline(void)
{
	struct fx *f = &fx_a;
	uint8_t plain[100], tagged[104];
	uint16_t idx = f->sq_pc;
	const uint8_t *cqe;
	int ret;

	frame_udp(plain, sizeof(plain), f->mac, UT_IPV4(10, 0, 0, 12), 12, 0);
	memcpy(tagged, plain, 12);
	put_be16(tagged + 12, RTE_ETHER_TYPE_VLAN);
	put_be16(tagged + 14, 0x0123);
	memcpy(tagged + 16, plain + 12, sizeof(plain) - 12);
	TEST_ASSERT_SUCCESS(rq_vsd_all(f, 1), "vsd 1");
	sq_send_vlan(f, plain, sizeof(plain), 0x0123);
	TEST_ASSERT_SUCCESS(sq_error_recover(f, idx, 0x02, 0x14, "a tag without header sent"),
			    "L2 inline mode");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(f->sim, "wqe_inline_mode", 2), "no inline");
	sq_send_vlan(f, plain, sizeof(plain), 0x0123);
	cqe = cq_wait(f, 0);
	ret = cqe != NULL && cqe[CQE_OP_OWN] >> 4 == MLX5V_CQE_OPCODE_REQ ? 0 : -1;
	mlx5v_sim_knob_set(f->sim, "wqe_inline_mode", 0);
	TEST_ASSERT_SUCCESS(ret, "tag request refused without an inline requirement");
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "no receive CQE");
	TEST_ASSERT_EQUAL(be32(cqe + CQE_BYTE_CNT), sizeof(tagged), "byte count with the tag");
	TEST_ASSERT(memcmp(rx_buf(f, cqe), tagged, sizeof(tagged)) == 0, "tag not in place");
	rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	return TEST_SUCCESS;
}

/* An armed receive CQ: the frame's CQE brings a completion EQE and the EQ's MSI-X. */
static int
test_ethdp_cq_armed(void)
{
	volatile uint32_t *dbr = (volatile uint32_t *)(fx_a.mem + OFF_DBR + 0x40);
	struct pollfd pfd = { .fd = fx_a.msi->fd, .events = POLLIN };
	struct fx *f = &fx_a;
	uint8_t frame[80];
	const uint8_t *cqe;
	uint64_t cnt;
	unsigned int ms;
	void *eqe;
	int found = 0;

	/* Nothing pending on the vector, the EQ armed, then the CQ armed at its CI. */
	while (read(f->msi->fd, &cnt, sizeof(cnt)) == sizeof(cnt))
		;
	rte_pmd_mlx5v_eq_arm(f->uar, f->eqn, f->eq_ci);
	rte_pmd_mlx5v_cq_arm(f->uar, dbr, f->rxcqn, 0, f->rxcq_ci, 0);
	frame_udp(frame, sizeof(frame), f->mac, UT_IPV4(10, 0, 0, 13), 13, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send");
	for (ms = 0; ms < UT_WAIT_LIMIT_MS && !found; ms++) {
		while (!found && (eqe = rte_pmd_mlx5v_eq_next_eqe(f->eq->vaddr, 1u << EQ_LOG,
								  f->eq_ci)) != NULL) {
			f->eq_ci++;
			found = rte_pmd_mlx5v_eqe_type(eqe) == RTE_PMD_MLX5V_EVENT_COMP &&
				(be32((uint8_t *)eqe + RTE_PMD_MLX5V_EQE_COMP_CQN_OFF) &
				 0xffffff) == f->rxcqn;
		}
		if (!found)
			ut_sleep_ms(1);
	}
	rte_pmd_mlx5v_eq_update_ci(f->uar, f->eqn, f->eq_ci, 0);
	TEST_ASSERT(found, "no completion EQE for the receive CQ");
	TEST_ASSERT(poll(&pfd, 1, UT_WAIT_LIMIT_MS) == 1, "no MSI-X on vector %d", f->msi->vector);
	cqe = cq_wait(f, 1);
	TEST_ASSERT_NOT_NULL(cqe, "no receive CQE");
	rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	return TEST_SUCCESS;
}

/*
 * Receive CQ overrun: WQEs keep being posted but no CQE is consumed; the CQE that would
 * overwrite an unconsumed one raises CQ_ERROR (syndrome 1) instead. The CQ is dead after:
 * this runs last on the loop device.
 */
static int
test_ethdp_cq_overrun(void)
{
	struct fx *f = &fx_a;
	uint8_t frame[64];
	unsigned int i;
	uint32_t ci = f->rxcq_ci;
	uint8_t *cqe;

	frame_udp(frame, sizeof(frame), (const uint8_t *)"\x02\x99\x99\x99\x99\x99",
		  UT_IPV4(10, 0, 0, 12), 12, 0);
	TEST_ASSERT_SUCCESS(fte_set(f, 2, f->fg_all, NULL, f->tir_direct, 0), "catch-all");
	f->have_fte_all = 1;
	for (i = 0; i <= (1u << RXCQ_LOG); i++) {
		TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send %u", i);
		rq_post(f, 0, 1);
	}
	TEST_ASSERT_EQUAL(eq_wait(f, RTE_PMD_MLX5V_EVENT_CQ_ERROR), 0, "no CQ_ERROR event");
	/* Exactly a ring of CQEs was written, none consumed. */
	for (i = 0; i < (1u << RXCQ_LOG); i++) {
		cqe = rte_pmd_mlx5v_cq_next_cqe(f->mem + OFF_RXCQ, 1u << RXCQ_LOG, ci + i);
		TEST_ASSERT_NOT_NULL(cqe, "CQE %u missing", i);
	}
	return TEST_SUCCESS;
}

/* PTYS read (prm/mlx5_eth §11.3): @return eth_proto_oper, or UINT32_MAX. */
static uint32_t
ptys_oper(struct fx *f)
{
	uint8_t in[MLX5V_IFC_BYTES(access_reg_in) + MLX5V_IFC_BYTES(ptys_reg)];
	uint8_t out[0x10 + MLX5V_IFC_BYTES(ptys_reg)];
	uint8_t *reg = in + MLX5V_IFC_BYTES(access_reg_in);

	memset(in, 0, sizeof(in));
	MLX5V_SET(access_reg_in, in, opcode, MLX5V_CMD_OP_ACCESS_REG);
	MLX5V_SET(access_reg_in, in, op_mod, 1);
	MLX5V_SET(access_reg_in, in, register_id, MLX5V_REG_PTYS);
	MLX5V_SET(ptys_reg, reg, local_port, 1);
	MLX5V_SET(ptys_reg, reg, proto_mask, MLX5V_PTYS_PROTO_ETH);
	if (cmd(f, "ACCESS_REG PTYS", in, sizeof(in), out, sizeof(out)) != 0)
		return UINT32_MAX;
	return MLX5V_GET(ptys_reg, out + 0x10, eth_proto_oper);
}

/* Pair: two devices cabled together; frames cross both ways, a pulled cable downs both. */
static int
test_ethdp_pair(void)
{
	struct fx *b = &fx_b;
	struct fx *c = &fx_c;
	uint8_t frame[200];
	const uint8_t *cqe;
	int ret = TEST_FAILED;

	/* C is named by B before it exists: its devargs must be known to EAL. */
	if (ut_eal_devargs_add("mlx5v_sim22,class=none,wire=pair:mlx5v_sim21") == NULL) {
		printf("cannot add EAL devargs\n");
		return TEST_FAILED;
	}
	if (fx_up(b, "mlx5v_sim21", "class=none,wire=pair:mlx5v_sim22,speed=25000") != 0 ||
	    fx_up(c, "mlx5v_sim22", "class=none,wire=pair:mlx5v_sim21") != 0)
		goto out;
	if (hwsim_wire_speed(mlx5v_sim_wire_port(c->sim)) != 25000) {
		printf("pair speed %u, expected the slower end's 25000\n",
		       hwsim_wire_speed(mlx5v_sim_wire_port(c->sim)));
		goto out;
	}
	/* PTYS: both ends run at the slower end's 25 Gb/s (25GBASE-CR, legacy bit 27). */
	if (ptys_oper(b) != 1u << 27 || ptys_oper(c) != 1u << 27) {
		printf("PTYS oper %#x / %#x, expected 25G on both ends\n", ptys_oper(b),
		       ptys_oper(c));
		goto out;
	}
	/* B -> C, to C's MAC, through C's RSS. */
	frame_udp(frame, sizeof(frame), c->mac, UT_IPV4(10, 1, 0, 1), 1, 0);
	if (send_ok(b, frame, sizeof(frame), 0) != TEST_SUCCESS)
		goto out;
	cqe = cq_wait(c, 1);
	if (cqe == NULL || be32(cqe + CQE_BYTE_CNT) != sizeof(frame) ||
	    memcmp(rx_buf(c, cqe), frame, sizeof(frame)) != 0) {
		printf("C did not receive B's frame intact\n");
		goto out;
	}
	if (!cq_quiet(b, 1)) {
		printf("B received its own frame on a pair\n");
		goto out;
	}
	/* C -> B. */
	frame_udp(frame, 64, b->mac, UT_IPV4(10, 1, 0, 2), 2, 0);
	if (send_ok(c, frame, 64, 0) != TEST_SUCCESS)
		goto out;
	cqe = cq_wait(b, 1);
	if (cqe == NULL || be32(cqe + CQE_BYTE_CNT) != 64) {
		printf("B did not receive C's frame\n");
		goto out;
	}
	/* B's driver takes its port down: C's link goes down too (a down end downs both). */
	if (paos_write(b, MLX5V_PAOS_DOWN) != 0 ||
	    eq_wait(c, RTE_PMD_MLX5V_EVENT_PORT_CHANGE) != RTE_PMD_MLX5V_PORT_CHANGE_DOWN) {
		printf("C did not see the link go down\n");
		goto out;
	}
	if (send_ok(c, frame, 64, 0) != TEST_SUCCESS || !cq_quiet(b, 1)) {
		printf("a frame crossed a pair with one end down\n");
		goto out;
	}
	if (paos_write(b, MLX5V_PAOS_UP) != 0 ||
	    eq_wait(c, RTE_PMD_MLX5V_EVENT_PORT_CHANGE) != RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE) {
		printf("C did not see the link come back\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	/* Objects left in the model mean the teardown order is wrong somewhere. */
	if (fx_down(b) != 0 || fx_down(c) != 0)
		ret = TEST_FAILED;
	return ret;
}

/*
 * An enhanced multi-packet WQE (doc/guides/prm/mlx5_empw.rst) of n frames, frame i inline
 * if inl has bit i, with checksum flags cs and inline_hdr_sz hdr, written into the ring
 * (wrapping) and rung. @return its WQE index.
 */
static uint16_t
empw_send(struct fx *f, uint8_t frames[][128], const uint32_t *lens, unsigned int n,
	  unsigned int inl, uint8_t cs, uint16_t hdr)
{
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + 0x80);
	const uint32_t ring = 64u << SQ_LOG;
	uint16_t idx = f->sq_pc;
	uint8_t wqe[MLX5V_WQE_MAX_DS * MLX5V_WQE_DS];
	uint32_t ds = 2, i, k;
	uint8_t *buf, *d;

	memset(wqe, 0, sizeof(wqe));
	put_be32(wqe, (uint32_t)idx << 8 | MLX5V_WQE_OPC_EMPW);
	wqe[11] = 2 << 2;
	wqe[0x14] = cs;
	put_be16(wqe + 0x1c, hdr);
	for (i = 0; i < n; i++) {
		buf = f->mem + OFF_TXBUF + i * BUF_SZ;
		memcpy(buf, frames[i], lens[i]);
		d = wqe + ds * MLX5V_WQE_DS;
		if (inl & (1u << i)) {
			put_be32(d, MLX5V_WQE_DSEG_INLINE | lens[i]);
			memcpy(d + 4, frames[i], lens[i]);
			ds += (4 + lens[i] + MLX5V_WQE_DS - 1) / MLX5V_WQE_DS;
		} else {
			put_be32(d, lens[i]);
			put_be32(d + 4, f->lkey);
			put_be64(d + 8, iova_of(f, buf));
			ds++;
		}
	}
	put_be32(wqe + 4, f->sq << 8 | ds);
	for (k = 0; k < ds; k++)
		memcpy(f->mem + OFF_SQ + ((uint32_t)(idx & ((1u << SQ_LOG) - 1)) * 64 + k * 16) %
		       ring, wqe + k * MLX5V_WQE_DS, MLX5V_WQE_DS);
	f->sq_pc += (ds + 3) / 4;
	rte_io_wmb();
	dbr[1] = rte_cpu_to_be_32(f->sq_pc);
	rte_wmb();
	uar_db(f, f->mem + OFF_SQ + (idx & ((1u << SQ_LOG) - 1)) * 64);
	return idx;
}

/* A multi-packet WQE that breaks a rule: error CQE with vsynd, SQ to ERR, recovered. */
static int
empw_reject(struct fx *f, uint8_t frames[][128], const uint32_t *lens, uint16_t hdr,
	    uint8_t synd, uint8_t vsynd)
{
	uint16_t idx = empw_send(f, frames, lens, 1, 0, 0, hdr);

	return sq_error_recover(f, idx, synd, vsynd, "a rejected packet reached the wire");
}

/*
 * Enhanced multi-packet send: one WQE, one CQE, every packet on the wire in order with the
 * Ethernet segment's checksums; the rules of the format enforced; not on a device or SQ
 * without the capability.
 */
static int
test_ethdp_empw(void)
{
	static uint8_t frames[4][128];
	const uint32_t lens[4] = { 128, 64, 100, 90 };
	struct fx *f = &fx_d;
	const uint8_t *cqe;
	const struct rte_ipv4_hdr *ip;
	uint16_t idx;
	unsigned int i;
	uint8_t *w;
	int ret = TEST_FAILED;

	/* Not taken on a device without the capability (its SQ cannot allow it). */
	if (fx_up(f, "mlx5v_sim25", "class=none,wire=loop,wqe_inline_mode=2") != 0)
		goto out;
	for (i = 0; i < RTE_DIM(lens); i++)
		frame_udp(frames[i], lens[i], f->mac, UT_IPV4(10, 5, 0, i), 50 + i, 1);
	if (empw_reject(f, frames, lens, 0, 0x02, 0x13) != TEST_SUCCESS)
		goto out;
	if (fx_down(f) != 0 ||
	    fx_up(f, "mlx5v_sim25", "class=none,wire=loop,empw=1,wqe_inline_mode=2") != 0)
		goto out;
	for (i = 0; i < RTE_DIM(lens); i++)
		frame_udp(frames[i], lens[i], f->mac, UT_IPV4(10, 5, 0, i), 50 + i, 1);
	/* NOPs up to 2 WQEBBs before the ring's end, so that the WQE (3 WQEBBs) wraps. */
	for (i = 0; i < (1u << SQ_LOG) - 2; i++) {
		w = f->mem + OFF_SQ + 64 * i;
		memset(w, 0, 64);
		put_be32(w, i << 8 | MLX5V_WQE_OPC_NOP);
		put_be32(w + 4, f->sq << 8 | 1);
	}
	w[11] = 2 << 2;
	f->sq_pc = (1u << SQ_LOG) - 2;
	sq_ring(f);
	cqe = cq_wait(f, 0);
	if (cqe == NULL || cqe[CQE_OP_OWN] >> 4 != MLX5V_CQE_OPCODE_REQ) {
		printf("NOPs not completed\n");
		goto out;
	}
	idx = empw_send(f, frames, lens, 4, 1u << 2, 0xc0, 0);
	cqe = cq_wait(f, 0);
	if (cqe == NULL || cqe[CQE_OP_OWN] >> 4 != MLX5V_CQE_OPCODE_REQ ||
	    be16(cqe + CQE_WQE_CTR) != idx ||
	    be32(cqe + CQE_SOP_QPN) != ((uint32_t)MLX5V_WQE_OPC_EMPW << 24 | f->sq)) {
		printf("no good send CQE for the multi-packet WQE %u: %#x %#x/%#x ctr %u\n", idx,
		       cqe == NULL ? 0 : cqe[CQE_OP_OWN], cqe == NULL ? 0 : cqe[CQE_SYND],
		       cqe == NULL ? 0 : cqe[CQE_VSYND], cqe == NULL ? 0 : be16(cqe + CQE_WQE_CTR));
		goto out;
	}
	if (!cq_quiet(f, 0)) {
		printf("more than one send CQE for one WQE\n");
		goto out;
	}
	for (i = 0; i < RTE_DIM(lens); i++) {
		cqe = cq_wait(f, 1);
		if (cqe == NULL || be32(cqe + CQE_BYTE_CNT) != lens[i]) {
			printf("packet %u of the WQE not received (len %u)\n", i,
			       cqe == NULL ? 0 : be32(cqe + CQE_BYTE_CNT));
			goto out;
		}
		ip = (const struct rte_ipv4_hdr *)(rx_buf(f, cqe) + RTE_ETHER_HDR_LEN);
		if ((cqe[CQE_HDS_IP_EXT] & 0x6) != 0x6 || rte_ipv4_cksum(ip) != 0 ||
		    memcmp((const uint8_t *)(ip + 1) + 8, frames[i] + RTE_ETHER_HDR_LEN +
			   sizeof(*ip) + 8, lens[i] - RTE_ETHER_HDR_LEN - sizeof(*ip) - 8) != 0) {
			printf("packet %u: checksums or bytes wrong\n", i);
			goto out;
		}
		rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	}
	/* No inline header, no VLAN insertion, no mss in its Ethernet segment. */
	if (empw_reject(f, frames, lens, 18, 0x02, 0x18) != TEST_SUCCESS)
		goto out;
	/* The L2 header required inline: no packet by pointer (prm/mlx5_eth §6.4). */
	if (mlx5v_sim_knob_set(f->sim, "wqe_inline_mode", 0) != 0 ||
	    empw_reject(f, frames, lens, 0, 0x02, 0x14) != TEST_SUCCESS)
		goto out;
	/* ... but whole packets inline. */
	idx = empw_send(f, frames, lens, 2, 0x3, 0, 0);
	cqe = cq_wait(f, 0);
	if (cqe == NULL || cqe[CQE_OP_OWN] >> 4 != MLX5V_CQE_OPCODE_REQ) {
		printf("inline packets refused in L2 inline mode\n");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		cqe = cq_wait(f, 1);
		if (cqe == NULL || be32(cqe + CQE_BYTE_CNT) != lens[i]) {
			printf("inline packet %u not received\n", i);
			goto out;
		}
		rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
	}
	ret = TEST_SUCCESS;
out:
	if (f->sim != NULL && fx_down(f) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* Bad devargs fail the probe and leave nothing behind. */
static int
test_ethdp_bad_devargs(void)
{
	static const char *const bad[] = {
		"wire=cable", "wire=pair:", "wire2=loop", "mac=01:00:00:00:00:01",
		"mac=zz", "speed=0", "wire=pair:mlx5v_sim99",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT(rte_vdev_init("mlx5v_sim23", bad[i]) != 0, "%s accepted", bad[i]);
		TEST_ASSERT_NULL(mlx5v_sim_get("mlx5v_sim23"), "%s left a device", bad[i]);
		TEST_ASSERT_NULL(hwsim_wire_port_find("mlx5v_sim23.1"), "%s left a port", bad[i]);
	}
	/* mac= sets the permanent MAC the vport reports. */
	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim23", "class=none,mac=02:aa:bb:cc:dd:ee,"
					  "wire=none"), "good devargs refused");
	TEST_ASSERT_EQUAL(mlx5v_sim_link_get(mlx5v_sim_get("mlx5v_sim23")), 0,
			  "wire=none is up");
	TEST_ASSERT_EQUAL(mlx5v_sim_link_set(mlx5v_sim_get("mlx5v_sim23"), 1), -ENOTSUP,
			  "a none wire plugged");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim23"), "uninit");
	return TEST_SUCCESS;
}

/* ---- TAP: the kernel as the peer, inside a network namespace the test makes ---- */

/* @return 1 if the CQE's frame is the kernel's ARP reply to us. */
static int
is_arp_reply(struct fx *f, const uint8_t *cqe)
{
	return cqe[CQE_OP_OWN] >> 4 == MLX5V_CQE_OPCODE_RESP_SEND &&
	       ut_arp_is_reply(rx_buf(f, cqe), be32(cqe + CQE_BYTE_CNT), f->mac,
			       UT_IPV4(10, 9, 0, 1));
}

static int
test_ethdp_tap_arp(void)
{
	struct fx *f = &fx_c;
	char ifname[IF_NAMESIZE];
	char ns[32];
	char args[64];
	uint8_t frame[64];
	const uint8_t *cqe;
	unsigned int tries;
	int ns_made = 0;
	int ret = TEST_FAILED;

	if (ut_tap_usable() != 0)
		return TEST_SKIPPED;
	snprintf(ifname, sizeof(ifname), "m5d%d", (int)getpid() % 1000000);
	snprintf(ns, sizeof(ns), "mlx5v_ethdp%d", (int)getpid());
	snprintf(args, sizeof(args), "class=none,wire=tap:%s", ifname);
	if (ut_sh("ip netns add %s >/dev/null 2>&1", ns) != 0) {
		printf("skipped: cannot create a network namespace\n");
		return TEST_SKIPPED;
	}
	ns_made = 1;
	if (fx_up(f, "mlx5v_sim24", args) != 0) {
		if (mlx5v_sim_get("mlx5v_sim24") == NULL) {
			printf("skipped: cannot create the TAP %s\n", ifname);
			ret = TEST_SKIPPED;
		}
		goto out;
	}
	/* The kernel end: in the namespace, 10.9.0.1/24, up. */
	if (ut_sh("ip link set %s netns %s && ip -n %s addr add 10.9.0.1/24 dev %s && "
	       "ip -n %s link set %s up", ifname, ns, ns, ifname, ns, ifname) != 0) {
		printf("cannot set %s up in %s\n", ifname, ns);
		goto out;
	}
	/* Out to the kernel, and its answer back in: an ARP request and the reply. */
	for (tries = 0; tries < 20 && ret != TEST_SUCCESS; tries++) {
		ut_arp_request(frame, f->mac, UT_IPV4(10, 9, 0, 2), UT_IPV4(10, 9, 0, 1));
		if (send_ok(f, frame, 60, 0) != TEST_SUCCESS)
			goto out;
		while ((cqe = cq_wait(f, 1)) != NULL) {
			int ok = is_arp_reply(f, cqe);

			rq_post(f, be32(cqe + CQE_USER_INDEX) & 0xffffff, 1);
			if (ok) {
				ret = TEST_SUCCESS;
				break;
			}
		}
	}
	if (ret != TEST_SUCCESS)
		printf("no ARP reply from the kernel\n");
out:
	fx_down(f);
	if (ut_tap_done(ns, ns_made, ifname) != 0)
		ret = TEST_FAILED;
	return ret;
}

/*
 * Compressed CQE sessions (doc/guides/prm/mlx5_eth.rst §8.5)
 */

/* The RX CQ slot ci, consumed as a driver does: op_own marked INVALID, the record moved. */
static void
comp_consume(struct fx *f, unsigned int n)
{
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + 0x40);
	unsigned int k;

	for (k = 0; k < n; k++)
		f->mem[OFF_RXCQ + 64 * ((f->rxcq_ci + k) & ((1u << RXCQ_LOG) - 1)) + CQE_OP_OWN] =
			RTE_PMD_MLX5V_CQE_OPCODE_INVALID << 4;
	f->rxcq_ci += n;
	rte_pmd_mlx5v_cq_update_ci(dbr, f->rxcq_ci);
}

/*
 * One doorbell of n frames (one UDP flow, frame i of lens[i] bytes, frame tcp_at a TCP one
 * when < n); then the receive CQ must hold, from its consumer index on, what `expect`
 * lists: a run of k > 1 frames as a session (title with format 3 and byte_cnt k, arrays at
 * slot +1 and every eighth after, each mini-CQE the frame's byte count and the hash (fmt
 * HASH) or checksum (CSUM) of the title), k == 1 as a full CQE.
 */
static int
comp_burst(struct fx *f, const uint16_t *lens, unsigned int n, unsigned int tcp_at,
	   const unsigned int *expect, int fmt)
{
	static uint8_t frames[64][1600];
	const uint32_t mask = (1u << RXCQ_LOG) - 1;
	uint8_t *ring = f->mem + OFF_RXCQ;
	unsigned int i, j, k, ms, done = 0;
	const uint8_t *cqe, *mini;
	uint32_t rq;

	for (i = 0; i < n; i++) {
		frame_udp(frames[i], lens[i], f->mac, UT_IPV4(10, 9, 0, 1), 777, 0);
		if (i == tcp_at)
			frame_ipv4(frames[i], lens[i], f->mac, IPPROTO_TCP, UT_IPV4(10, 9, 0, 1));
		sq_post(f, frames[i], lens[i], 0, f->lkey, 0, 1);
	}
	sq_ring(f);
	for (i = 0; i < n; i++)
		TEST_ASSERT_NOT_NULL(cq_wait(f, 0), "send CQE %u of %u", i, n);
	for (i = 0; done < n; i++) {
		k = expect[i];
		for (ms = 0, cqe = NULL; cqe == NULL && ms < UT_WAIT_LIMIT_MS; ms++) {
			cqe = rte_pmd_mlx5v_cq_next_cqe(ring, 1u << RXCQ_LOG, f->rxcq_ci);
			if (cqe == NULL)
				ut_sleep_ms(1);
		}
		TEST_ASSERT_NOT_NULL(cqe, "no receive CQE for frame %u of %u", done, n);
		TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_RESP_SEND, "opcode");
		TEST_ASSERT(memcmp(rx_buf(f, cqe), frames[done], lens[done]) == 0,
			    "frame %u bytes", done);
		rq = be32(cqe + CQE_USER_INDEX) & 0xffffff;
		if (k == 1) {
			TEST_ASSERT_EQUAL((cqe[CQE_OP_OWN] >> 2) & 3, 0, "frame %u: a full CQE",
					  done);
			TEST_ASSERT_EQUAL(be32(cqe + CQE_BYTE_CNT), lens[done], "byte count");
		} else {
			TEST_ASSERT_EQUAL((cqe[CQE_OP_OWN] >> 2) & 3, MLX5V_CQE_FORMAT_COMPRESSED,
					  "frame %u: no session of %u (op_own %#x)", done, k,
					  cqe[CQE_OP_OWN]);
			TEST_ASSERT_EQUAL(be32(cqe + CQE_BYTE_CNT), k, "session count");
			for (j = 0; j < k; j++) {
				mini = ring + 64 * ((f->rxcq_ci + (j < 8 ? 1 : (j & ~7u))) & mask) +
				       8 * (j & 7);
				TEST_ASSERT_EQUAL(be32(mini + 4), lens[done + j],
						  "mini-CQE %u of %u: byte count", j, k);
				if (fmt == MLX5V_MINI_CQE_FMT_HASH)
					TEST_ASSERT_EQUAL(be32(mini), be32(cqe + CQE_RSS_HASH),
							  "mini-CQE %u: hash", j);
				else
					TEST_ASSERT(be16(mini) == be16(cqe + 0x14) &&
						    be16(mini + 2) == 0, "mini-CQE %u: csum", j);
			}
		}
		comp_consume(f, k);
		rq_post(f, rq, k);
		done += k;
	}
	TEST_ASSERT(cq_quiet(f, 1), "more receive CQEs than frames");
	return TEST_SUCCESS;
}

/*
 * Sessions of 1 to 40 frames (one is a full CQE) in both mini-CQE formats, over the CQ's
 * end several times; a frame whose CQE differs splits the burst; without the capability
 * CREATE_CQ refuses cqe_comp_en, and without mini_cqe_resp_flow_tag the flow tag format.
 */
static int
test_ethdp_cqe_comp(void)
{
	static const char *const args = "class=none,wire=loop";
	struct fx *f = &fx_d;
	uint16_t lens[64];
	unsigned int expect[3], n, i, fmt;
	uint64_t sessions;
	int ret = TEST_FAILED;

	for (fmt = MLX5V_MINI_CQE_FMT_HASH; fmt <= MLX5V_MINI_CQE_FMT_CSUM; fmt++) {
		fx_rxcq_comp = fmt;
		if (fx_up(f, "mlx5v_sim26", args) != 0)
			goto out;
		sessions = mlx5v_sim_counter(f->sim, MLX5V_SIM_CTR_CQE_SESSIONS);
		for (n = 1; n <= 40; n++) {
			for (i = 0; i < n; i++)
				lens[i] = 60 + (n * 31 + i * 17) % 1400;
			expect[0] = n;
			if (comp_burst(f, lens, n, n, expect, fmt) != TEST_SUCCESS) {
				printf("burst of %u, format %u\n", n, fmt);
				goto out;
			}
		}
		if (mlx5v_sim_counter(f->sim, MLX5V_SIM_CTR_CQE_SESSIONS) - sessions != 39) {
			printf("%" PRIu64 " sessions for 39 bursts\n",
			       mlx5v_sim_counter(f->sim, MLX5V_SIM_CTR_CQE_SESSIONS) - sessions);
			goto out;
		}
		/* A TCP frame among UDP ones: session of 5, full CQE, session of 4. */
		expect[0] = 5;
		expect[1] = 1;
		expect[2] = 4;
		if (comp_burst(f, lens, 10, 5, expect, fmt) != TEST_SUCCESS || fx_down(f) != 0)
			goto out;
	}
	/* Refused: the flow tag format without its capability, then no compression. */
	fx_rxcq_comp = MLX5V_MINI_CQE_FMT_FTAG;
	if (fx_up(f, "mlx5v_sim26", "class=none,wire=loop,mini_cqe_tags=0") == 0) {
		printf("CREATE_CQ took mini_cqe_res_format 2 without mini_cqe_resp_flow_tag\n");
		goto out;
	}
	fx_down(f);
	fx_rxcq_comp = MLX5V_MINI_CQE_FMT_HASH;
	if (fx_up(f, "mlx5v_sim26", "class=none,wire=loop,cqe_comp=0") == 0) {
		printf("CREATE_CQ took cqe_comp_en without the capability\n");
		goto out;
	}
	fx_down(f);
	ret = TEST_SUCCESS;
out:
	if (ret != TEST_SUCCESS)
		fx_down(f);
	fx_rxcq_comp = -1;
	return ret;
}

static struct unit_test_suite mlx5v_sim_ethdp_suite = {
	.suite_name = "mlx5v sim Ethernet data path",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_ethdp_loop),
		TEST_CASE(test_ethdp_tx_csum),
		TEST_CASE(test_ethdp_rss),
		TEST_CASE(test_ethdp_rss_other_class),
		TEST_CASE(test_ethdp_mac_filter),
		TEST_CASE(test_ethdp_l4_match),
		TEST_CASE(test_ethdp_tunnel_icmp_match),
		TEST_CASE(test_ethdp_mtu),
		TEST_CASE(test_ethdp_out_of_buffer),
		TEST_CASE(test_ethdp_lkey_errors),
		TEST_CASE(test_ethdp_rq_error),
		TEST_CASE(test_ethdp_tx_err_knob),
		TEST_CASE(test_ethdp_link),
		TEST_CASE(test_ethdp_lso),
		TEST_CASE(test_ethdp_vlan_strip),
		TEST_CASE(test_ethdp_vlan_insert_inline),
		TEST_CASE(test_ethdp_cq_armed),
		TEST_CASE(test_ethdp_cq_overrun),
		TEST_CASE(test_ethdp_pair),
		TEST_CASE(test_ethdp_empw),
		TEST_CASE(test_ethdp_cqe_comp),
		TEST_CASE(test_ethdp_bad_devargs),
		TEST_CASE(test_ethdp_tap_arp),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_sim_ethdp(void)
{
	return unit_test_suite_runner(&mlx5v_sim_ethdp_suite);
}

REGISTER_TEST_COMMAND(mlx5v_sim_ethdp_autotest, test_mlx5v_sim_ethdp);
