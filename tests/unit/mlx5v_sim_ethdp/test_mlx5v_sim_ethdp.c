/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the simulated ConnectX's Ethernet data path, driven as a raw user
 * would: class=none devices, PRM mailboxes through rte_pmd_mlx5v_devx_general_cmd(),
 * rings and buffers in DMA-mapped EAL memory, send WQEs and doorbells written by hand.
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
#include <rte_udp.h>

#include "test.h"

#include "hwsim_wire.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v.h"
#include "ut_sh.h"
#include "ut_wait.h"

#define GET(t, p, f) MLX5V_IFC_GET(t, p, f)
#define SET(t, p, f, v) MLX5V_IFC_SET(t, p, f, v)

/* Memory of one fixture: every ring, record and buffer, one DMA mapping. */
#define MEM_SIZE 0x60000u
#define OFF_TXCQ 0x00000u        /* 64 CQEs */
#define OFF_RXCQ 0x01000u        /* 256 CQEs, 4 pages */
#define OFF_DBR 0x05000u         /* records, 64 bytes apart */
#define OFF_SQ 0x06000u          /* 64 WQEBBs */
#define OFF_RQ 0x07000u          /* 4 RQs, a page each, 16 WQEs of 16 bytes */
#define OFF_RXBUF 0x10000u       /* 4 x 16 x 2 KiB */
#define OFF_TXBUF 0x30000u       /* 64 x 2 KiB */
#define TXCQ_LOG 6
#define RXCQ_LOG 8
#define SQ_LOG 6
#define RQ_LOG 4
#define NB_RQ 4
#define BUF_SZ 2048u
#define EQ_LOG 7

/* CQE fields (doc/guides/prm/mlx5_eth.rst §8.2, §8.4). */
#define CQE_RSS_HASH 0x0c
#define CQE_RSS_TYPE 0x10
#define CQE_HDS_IP_EXT 0x1c
#define CQE_L4_L3 0x1d
#define CQE_USER_INDEX 0x20
#define CQE_BYTE_CNT 0x2c
#define CQE_VSYND 0x36
#define CQE_SYND 0x37
#define CQE_SOP_QPN 0x38
#define CQE_WQE_CTR 0x3c
#define CQE_OP_OWN 0x3f

static const uint8_t rss_key[40] = {
	0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7, 0xfc, 0xa2,
	0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94, 0x6b, 0x9e, 0x38, 0xd9,
	0x2c, 0x9c, 0x03, 0xd1, 0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56,
	0x3d, 0x59, 0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a,
};

/** One device brought up as a raw user: objects from PD to the root flow table. */
struct fx {
	char name[32];
	struct rte_pmd_mlx5v_dev *dev;
	struct mlx5v_sim *sim;
	struct rte_pmd_mlx5v_uar *uar;
	struct rte_pmd_mlx5v_msi_vector *msi;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn, eq_ci;
	uint8_t *mem;
	uint64_t iova;
	uint32_t pd, td, tis, sq, rq[NB_RQ], rqt, tir_rss, tir_direct, ft, fg_mac, fg_all;
	uint32_t qcnt, mkey, lkey, txcqn, rxcqn;
	uint32_t txcq_ci, rxcq_ci;
	uint16_t sq_pc;
	uint16_t rq_posted[NB_RQ];
	uint8_t mac[RTE_ETHER_ADDR_LEN];
	int have_fte_all;
	int leaked;
};

/* Fixtures torn down with objects left: checked by the last test. */
static unsigned int leaks;

static struct fx fx_a;
static struct fx fx_b;
static struct fx fx_c;

static uint64_t
iova_of(const struct fx *f, const void *p)
{
	return f->iova + (uint64_t)((const uint8_t *)p - f->mem);
}

/* A command; @return 0, or -1 after printing the status and syndrome. */
static int
cmd(struct fx *f, const char *what, void *in, size_t inlen, void *out, size_t outlen)
{
	memset(out, 0, outlen);
	if (rte_pmd_mlx5v_devx_general_cmd(f->dev, in, inlen, out, outlen) == 0)
		return 0;
	printf("%s: %s: errno %d status %#x syndrome %#x\n", f->name, what, errno,
	       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
	       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
	return -1;
}

/* A command whose output is eth_obj_out: @return the object number, or -1. */
static int64_t
cmd_obj(struct fx *f, const char *what, void *in, size_t inlen)
{
	uint8_t out[0x10];

	if (cmd(f, what, in, inlen, out, sizeof(out)) != 0)
		return -1;
	return GET(eth_obj_out, out, obj_id);
}

static int
cmd_simple(struct fx *f, const char *what, uint16_t opcode, uint32_t obj)
{
	uint8_t in[0x10];
	uint8_t out[0x10];

	memset(in, 0, sizeof(in));
	SET(eth_obj_in, in, opcode, opcode);
	SET(eth_obj_in, in, obj_id, obj);
	return cmd(f, what, in, sizeof(in), out, sizeof(out));
}

static int
cq_create(struct fx *f, uint32_t off, unsigned int log, uint32_t dbr_off, uint32_t *cqn)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_CQ_IN_SIZE + 8 * 4];
	uint8_t out[RTE_PMD_MLX5V_CREATE_CQ_OUT_SIZE];
	uint8_t *cqc = in + RTE_PMD_MLX5V_CREATE_CQ_IN_CQC;
	uint32_t i, pages = RTE_MAX(1u, (64u << log) / 4096);

	for (i = 0; i < (1u << log); i++)
		f->mem[off + i * 64 + CQE_OP_OWN] = RTE_PMD_MLX5V_CQE_OP_OWN_INIT;
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_CQ);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_LOG_CQ_SIZE, log);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_UAR_PAGE, f->uar->page_id);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_C_EQN, f->eqn);
	RTE_PMD_MLX5V_SET64(cqc, RTE_PMD_MLX5V_CQC_DBR_ADDR, f->iova + dbr_off);
	for (i = 0; i < pages; i++)
		RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_CQ_IN_PAS + 8 * i,
				    f->iova + off + 4096 * i);
	if (cmd(f, "CREATE_CQ", in, RTE_PMD_MLX5V_CREATE_CQ_IN_SIZE + 8 * pages, out,
		sizeof(out)) != 0)
		return -1;
	*cqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_CQ_OUT_CQN);
	return 0;
}

/* MODIFY_SQ/RQ from state cur to next. */
static int
q_modify(struct fx *f, int is_sq, uint32_t qn, unsigned int cur, unsigned int next)
{
	uint8_t in[MLX5V_IFC_BYTES(modify_rq_in)];
	uint8_t out[0x10];

	memset(in, 0, sizeof(in));
	if (is_sq) {
		SET(modify_sq_in, in, opcode, MLX5V_CMD_OP_MODIFY_SQ);
		SET(modify_sq_in, in, sq_state, cur);
		SET(modify_sq_in, in, sqn, qn);
		SET(modify_sq_in, in, ctx.state, next);
	} else {
		SET(modify_rq_in, in, opcode, MLX5V_CMD_OP_MODIFY_RQ);
		SET(modify_rq_in, in, rq_state, cur);
		SET(modify_rq_in, in, rqn, qn);
		SET(modify_rq_in, in, ctx.state, next);
	}
	return cmd(f, is_sq ? "MODIFY_SQ" : "MODIFY_RQ", in, sizeof(in), out, sizeof(out));
}

static int
sq_state(struct fx *f)
{
	uint8_t in[0x10];
	uint8_t out[MLX5V_IFC_BYTES(query_sq_out)];

	memset(in, 0, sizeof(in));
	SET(eth_obj_in, in, opcode, MLX5V_CMD_OP_QUERY_SQ);
	SET(eth_obj_in, in, obj_id, f->sq);
	if (cmd(f, "QUERY_SQ", in, sizeof(in), out, sizeof(out)) != 0)
		return -1;
	return GET(query_sq_out, out, ctx.state);
}

static uint32_t
qcnt_out_of_buffer(struct fx *f)
{
	uint8_t in[MLX5V_IFC_BYTES(query_q_counter_in)];
	uint8_t out[MLX5V_IFC_BYTES(query_q_counter_out)];

	memset(in, 0, sizeof(in));
	SET(query_q_counter_in, in, opcode, MLX5V_CMD_OP_QUERY_Q_COUNTER);
	SET(query_q_counter_in, in, counter_set_id, f->qcnt);
	if (cmd(f, "QUERY_Q_COUNTER", in, sizeof(in), out, sizeof(out)) != 0)
		return UINT32_MAX;
	return GET(query_q_counter_out, out, out_of_buffer);
}

/* One entry of table ft at index: DMAC match (or all when mac is NULL) to tir. */
static int
fte_set(struct fx *f, uint32_t index, uint32_t group, const uint8_t *mac, uint32_t tir,
	uint32_t tag)
{
	uint8_t in[MLX5V_IFC_BYTES(set_fte_in) + 8];
	uint8_t out[0x10];
	uint8_t *d = in + MLX5V_IFC_BYTES(set_fte_in);

	memset(in, 0, sizeof(in));
	SET(set_fte_in, in, opcode, MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY);
	SET(set_fte_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	SET(set_fte_in, in, table_id, f->ft);
	SET(set_fte_in, in, flow_index, index);
	SET(set_fte_in, in, ctx.group_id, group);
	SET(set_fte_in, in, ctx.flow_tag, tag);
	SET(set_fte_in, in, ctx.action, MLX5V_FTE_ACTION_FWD_DEST);
	SET(set_fte_in, in, ctx.destination_list_size, 1);
	if (mac != NULL) {
		SET(set_fte_in, in, ctx.match_value.outer_headers.dmac_47_16,
		    rte_be_to_cpu_32(*(const unaligned_uint32_t *)mac));
		SET(set_fte_in, in, ctx.match_value.outer_headers.dmac_15_0,
		    rte_be_to_cpu_16(*(const unaligned_uint16_t *)(mac + 4)));
	}
	SET(dest_format, d, destination_type, MLX5V_FLOW_DEST_TIR);
	SET(dest_format, d, destination_id, tir);
	return cmd(f, "SET_FTE", in, sizeof(in), out, sizeof(out));
}

static int
fte_del(struct fx *f, uint32_t index)
{
	uint8_t in[MLX5V_IFC_BYTES(flow_table_obj_in)];
	uint8_t out[0x10];

	memset(in, 0, sizeof(in));
	SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_DELETE_FLOW_TABLE_ENTRY);
	SET(flow_table_obj_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	SET(flow_table_obj_in, in, table_id, f->ft);
	SET(flow_table_obj_in, in, flow_index, index);
	return cmd(f, "DELETE_FTE", in, sizeof(in), out, sizeof(out));
}

static int
fg_create(struct fx *f, uint32_t start, uint32_t end, int dmac, uint32_t *id)
{
	uint8_t in[MLX5V_IFC_BYTES(create_flow_group_in)];
	int64_t r;

	memset(in, 0, sizeof(in));
	SET(create_flow_group_in, in, opcode, MLX5V_CMD_OP_CREATE_FLOW_GROUP);
	SET(create_flow_group_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	SET(create_flow_group_in, in, table_id, f->ft);
	SET(create_flow_group_in, in, start_flow_index, start);
	SET(create_flow_group_in, in, end_flow_index, end);
	if (dmac) {
		SET(create_flow_group_in, in, match_criteria_enable, MLX5V_MATCH_OUTER_HEADERS);
		SET(create_flow_group_in, in, match_criteria.outer_headers.dmac_47_16,
		    UINT32_MAX);
		SET(create_flow_group_in, in, match_criteria.outer_headers.dmac_15_0, 0xffff);
	}
	r = cmd_obj(f, "CREATE_FLOW_GROUP", in, sizeof(in));
	*id = (uint32_t)r;
	return r < 0 ? -1 : 0;
}

/* Post one receive WQE (one 2 KiB buffer) on RQ i and publish the record. */
static void
rq_post(struct fx *f, unsigned int i, unsigned int n)
{
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + 0xc0 + 0x40 * i);
	unsigned int k;

	for (k = 0; k < n; k++) {
		uint32_t slot = f->rq_posted[i] & ((1u << RQ_LOG) - 1);
		uint8_t *w = f->mem + OFF_RQ + 0x1000 * i + 16 * slot;
		uint8_t *buf = f->mem + OFF_RXBUF + (i * (1u << RQ_LOG) + slot) * BUF_SZ;

		*(unaligned_uint32_t *)w = rte_cpu_to_be_32(BUF_SZ);
		*(unaligned_uint32_t *)(w + 4) = rte_cpu_to_be_32(f->lkey);
		*(unaligned_uint64_t *)(w + 8) = rte_cpu_to_be_64(iova_of(f, buf));
		f->rq_posted[i]++;
	}
	rte_io_wmb();
	*dbr = rte_cpu_to_be_32(f->rq_posted[i]);
}

static int
fx_objects(struct fx *f)
{
	uint8_t in[0x400];
	uint8_t out[0x100];
	int64_t r;
	unsigned int i;

	/* PD, TD, Q counter, MKEY over the whole region (prm/mlx5_eth §2). */
	memset(in, 0, 0x10);
	SET(eth_cmd_in, in, opcode, MLX5V_CMD_OP_ALLOC_PD);
	if ((r = cmd_obj(f, "ALLOC_PD", in, 0x10)) < 0)
		return -1;
	f->pd = r;
	SET(eth_cmd_in, in, opcode, MLX5V_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	if ((r = cmd_obj(f, "ALLOC_TD", in, 0x10)) < 0)
		return -1;
	f->td = r;
	SET(eth_cmd_in, in, opcode, MLX5V_CMD_OP_ALLOC_Q_COUNTER);
	if (cmd(f, "ALLOC_Q_COUNTER", in, 0x10, out, 0x10) != 0)
		return -1;
	f->qcnt = GET(alloc_q_counter_out, out, counter_set_id);
	memset(in, 0, sizeof(in));
	SET(create_mkey_in, in, opcode, MLX5V_CMD_OP_CREATE_MKEY);
	SET(create_mkey_in, in, mkc.lw, 1);
	SET(create_mkey_in, in, mkc.lr, 1);
	SET(create_mkey_in, in, mkc.access_mode_1_0, MLX5V_MKC_ACCESS_PA);
	SET(create_mkey_in, in, mkc.qpn, 0xffffff);
	SET(create_mkey_in, in, mkc.mkey_7_0, 0x42);
	SET(create_mkey_in, in, mkc.pd, f->pd);
	MLX5V_IFC_SET64(create_mkey_in, in, mkc.start_addr, f->iova);
	MLX5V_IFC_SET64(create_mkey_in, in, mkc.len, MEM_SIZE);
	if ((r = cmd_obj(f, "CREATE_MKEY", in, MLX5V_IFC_BYTES(create_mkey_in))) < 0)
		return -1;
	f->mkey = r;
	f->lkey = (uint32_t)r << 8 | 0x42;
	/* CQs, TIS, SQ. */
	if (cq_create(f, OFF_TXCQ, TXCQ_LOG, OFF_DBR, &f->txcqn) != 0 ||
	    cq_create(f, OFF_RXCQ, RXCQ_LOG, OFF_DBR + 0x40, &f->rxcqn) != 0)
		return -1;
	memset(in, 0, sizeof(in));
	SET(create_tis_in, in, opcode, MLX5V_CMD_OP_CREATE_TIS);
	SET(create_tis_in, in, ctx.transport_domain, f->td);
	if ((r = cmd_obj(f, "CREATE_TIS", in, MLX5V_IFC_BYTES(create_tis_in))) < 0)
		return -1;
	f->tis = r;
	memset(in, 0, sizeof(in));
	SET(create_sq_in, in, opcode, MLX5V_CMD_OP_CREATE_SQ);
	SET(create_sq_in, in, ctx.flush_in_error_en, 1);
	SET(create_sq_in, in, ctx.cqn, f->txcqn);
	SET(create_sq_in, in, ctx.user_index, 0x77);
	SET(create_sq_in, in, ctx.tis_lst_sz, 1);
	SET(create_sq_in, in, ctx.tis_num_0, f->tis);
	SET(create_sq_in, in, ctx.wq.wq_type, 1);
	SET(create_sq_in, in, ctx.wq.pd, f->pd);
	SET(create_sq_in, in, ctx.wq.uar_page, f->uar->page_id);
	MLX5V_IFC_SET64(create_sq_in, in, ctx.wq.dbr_addr, f->iova + OFF_DBR + 0x80);
	SET(create_sq_in, in, ctx.wq.log_wq_stride, 6);
	SET(create_sq_in, in, ctx.wq.log_wq_sz, SQ_LOG);
	*(unaligned_uint64_t *)(in + MLX5V_IFC_BYTES(create_sq_in)) =
		rte_cpu_to_be_64(f->iova + OFF_SQ);
	if ((r = cmd_obj(f, "CREATE_SQ", in, MLX5V_IFC_BYTES(create_sq_in) + 8)) < 0)
		return -1;
	f->sq = r;
	if (q_modify(f, 1, f->sq, 0, 1) != 0)
		return -1;
	/* Four RQs, each with its WQEs posted, an RQT over them. */
	for (i = 0; i < NB_RQ; i++) {
		memset(in, 0, sizeof(in));
		SET(create_rq_in, in, opcode, MLX5V_CMD_OP_CREATE_RQ);
		SET(create_rq_in, in, ctx.vsd, 1);
		SET(create_rq_in, in, ctx.user_index, i);
		SET(create_rq_in, in, ctx.cqn, f->rxcqn);
		SET(create_rq_in, in, ctx.counter_set_id, f->qcnt);
		SET(create_rq_in, in, ctx.wq.wq_type, 1);
		SET(create_rq_in, in, ctx.wq.pd, f->pd);
		MLX5V_IFC_SET64(create_rq_in, in, ctx.wq.dbr_addr,
				f->iova + OFF_DBR + 0xc0 + 0x40 * i);
		SET(create_rq_in, in, ctx.wq.log_wq_stride, 4);
		SET(create_rq_in, in, ctx.wq.log_wq_sz, RQ_LOG);
		*(unaligned_uint64_t *)(in + MLX5V_IFC_BYTES(create_rq_in)) =
			rte_cpu_to_be_64(f->iova + OFF_RQ + 0x1000 * i);
		if ((r = cmd_obj(f, "CREATE_RQ", in, MLX5V_IFC_BYTES(create_rq_in) + 8)) < 0)
			return -1;
		f->rq[i] = r;
		if (q_modify(f, 0, f->rq[i], 0, 1) != 0)
			return -1;
		rq_post(f, i, 1u << RQ_LOG);
	}
	memset(in, 0, sizeof(in));
	SET(create_rqt_in, in, opcode, MLX5V_CMD_OP_CREATE_RQT);
	SET(create_rqt_in, in, ctx.rqt_max_size, NB_RQ);
	SET(create_rqt_in, in, ctx.rqt_actual_size, NB_RQ);
	for (i = 0; i < NB_RQ; i++)
		*(unaligned_uint32_t *)(in + MLX5V_IFC_BYTES(create_rqt_in) + 4 * i) =
			rte_cpu_to_be_32(f->rq[i]);
	if ((r = cmd_obj(f, "CREATE_RQT", in, MLX5V_IFC_BYTES(create_rqt_in) + 4 * NB_RQ)) < 0)
		return -1;
	f->rqt = r;
	/* TIRs: Toeplitz over IPv4/UDP 4-tuple through the RQT, and direct to RQ 0. */
	memset(in, 0, sizeof(in));
	SET(create_tir_in, in, opcode, MLX5V_CMD_OP_CREATE_TIR);
	SET(create_tir_in, in, ctx.disp_type, MLX5V_TIRC_DISP_INDIRECT);
	SET(create_tir_in, in, ctx.indirect_table, f->rqt);
	SET(create_tir_in, in, ctx.rx_hash_fn, MLX5V_TIRC_HASH_TOEPLITZ);
	SET(create_tir_in, in, ctx.transport_domain, f->td);
	memcpy(MLX5V_IFC_ADDR_OF(create_tir_in, in, ctx.rx_hash_toeplitz_key), rss_key,
	       sizeof(rss_key));
	SET(create_tir_in, in, ctx.hash_outer_l3_prot_type, 0);
	SET(create_tir_in, in, ctx.hash_outer_l4_prot_type, 1);
	SET(create_tir_in, in, ctx.hash_outer_selected_fields,
	    MLX5V_HASH_FIELD_SRC_IP | MLX5V_HASH_FIELD_DST_IP | MLX5V_HASH_FIELD_L4_SPORT |
	    MLX5V_HASH_FIELD_L4_DPORT);
	if ((r = cmd_obj(f, "CREATE_TIR rss", in, MLX5V_IFC_BYTES(create_tir_in))) < 0)
		return -1;
	f->tir_rss = r;
	memset(in, 0, sizeof(in));
	SET(create_tir_in, in, opcode, MLX5V_CMD_OP_CREATE_TIR);
	SET(create_tir_in, in, ctx.disp_type, MLX5V_TIRC_DISP_DIRECT);
	SET(create_tir_in, in, ctx.inline_rqn, f->rq[0]);
	SET(create_tir_in, in, ctx.transport_domain, f->td);
	if ((r = cmd_obj(f, "CREATE_TIR direct", in, MLX5V_IFC_BYTES(create_tir_in))) < 0)
		return -1;
	f->tir_direct = r;
	/* Root table: group 0 (0-1) matches the DMAC, group 1 (2-3) everything (promisc). */
	memset(in, 0, sizeof(in));
	SET(create_flow_table_in, in, opcode, MLX5V_CMD_OP_CREATE_FLOW_TABLE);
	SET(create_flow_table_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	SET(create_flow_table_in, in, ctx.log_size, 2);
	if ((r = cmd_obj(f, "CREATE_FLOW_TABLE", in, MLX5V_IFC_BYTES(create_flow_table_in))) < 0)
		return -1;
	f->ft = r;
	if (fg_create(f, 0, 1, 1, &f->fg_mac) != 0 || fg_create(f, 2, 3, 0, &f->fg_all) != 0)
		return -1;
	if (fte_set(f, 0, f->fg_mac, f->mac, f->tir_rss, 0x1234) != 0)
		return -1;
	memset(in, 0, sizeof(in));
	SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT);
	SET(flow_table_obj_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	SET(flow_table_obj_in, in, table_id, f->ft);
	return cmd(f, "SET_FLOW_TABLE_ROOT", in, MLX5V_IFC_BYTES(flow_table_obj_in), out, 0x10);
}

static int
fx_up(struct fx *f, const char *name, const char *args)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;
	uint8_t q[0x10];
	uint8_t qo[MLX5V_IFC_BYTES(query_nic_vport_context_out)];

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	if (rte_vdev_init(name, args) != 0) {
		printf("rte_vdev_init(%s, %s): %s\n", name, args, rte_strerror(rte_errno));
		return -1;
	}
	f->dev = rte_pmd_mlx5v_dev_get(name);
	f->sim = mlx5v_sim_get(name);
	if (f->dev == NULL || f->sim == NULL)
		return -1;
	f->uar = rte_pmd_mlx5v_devx_alloc_uar(f->dev);
	f->msi = rte_pmd_mlx5v_devx_alloc_msi_vector(f->dev);
	f->mem = rte_zmalloc("ut_ethdp", MEM_SIZE, 4096);
	if (f->uar == NULL || f->msi == NULL || f->mem == NULL ||
	    rte_pmd_mlx5v_devx_dma_map(f->dev, f->mem, MEM_SIZE, &f->iova) != 0)
		return -1;
	/* An EQ for completions, PORT_CHANGE and CQ_ERROR. */
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, EQ_LOG);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, f->uar->page_id);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, f->msi->vector);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK,
			    (1ull << RTE_PMD_MLX5V_EVENT_PORT_CHANGE) |
			    (1ull << RTE_PMD_MLX5V_EVENT_CQ_ERROR));
	f->eq = rte_pmd_mlx5v_devx_create_eq(f->dev, in, sizeof(in), out, sizeof(out));
	if (f->eq == NULL)
		return -1;
	f->eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	/* The permanent MAC, as a driver reads it. */
	memset(q, 0, sizeof(q));
	SET(query_nic_vport_context_in, q, opcode, MLX5V_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	if (cmd(f, "QUERY_NIC_VPORT_CONTEXT", q, sizeof(q), qo, sizeof(qo)) != 0)
		return -1;
	memcpy(f->mac, (uint8_t *)MLX5V_IFC_ADDR_OF(query_nic_vport_context_out, qo,
						    ctx.permanent_address) + 2, 6);
	return fx_objects(f);
}

static void
fx_down(struct fx *f)
{
	unsigned int i;

	if (f->dev == NULL)
		return;
	/* Teardown in the order of prm/mlx5_eth §12; errors only reported. */
	if (f->ft != 0) {
		uint8_t in[MLX5V_IFC_BYTES(flow_table_obj_in)];
		uint8_t out[0x10];

		if (f->have_fte_all)
			fte_del(f, 2);
		fte_del(f, 0);
		memset(in, 0, sizeof(in));
		SET(flow_table_obj_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
		SET(flow_table_obj_in, in, table_id, f->ft);
		SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_DESTROY_FLOW_GROUP);
		SET(flow_table_obj_in, in, group_id, f->fg_mac);
		cmd(f, "DESTROY_FLOW_GROUP", in, sizeof(in), out, sizeof(out));
		SET(flow_table_obj_in, in, group_id, f->fg_all);
		cmd(f, "DESTROY_FLOW_GROUP", in, sizeof(in), out, sizeof(out));
		SET(flow_table_obj_in, in, group_id, 0);
		SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT);
		SET(flow_table_obj_in, in, op_mod, 1);      /* disconnect the root */
		SET(flow_table_obj_in, in, table_id, 0);
		cmd(f, "unset root", in, sizeof(in), out, sizeof(out));
		SET(flow_table_obj_in, in, op_mod, 0);
		SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_DESTROY_FLOW_TABLE);
		SET(flow_table_obj_in, in, table_id, f->ft);
		cmd(f, "DESTROY_FLOW_TABLE", in, sizeof(in), out, sizeof(out));
	}
	if (f->tir_rss)
		cmd_simple(f, "DESTROY_TIR", MLX5V_CMD_OP_DESTROY_TIR, f->tir_rss);
	if (f->tir_direct)
		cmd_simple(f, "DESTROY_TIR", MLX5V_CMD_OP_DESTROY_TIR, f->tir_direct);
	if (f->rqt)
		cmd_simple(f, "DESTROY_RQT", MLX5V_CMD_OP_DESTROY_RQT, f->rqt);
	for (i = 0; i < NB_RQ; i++)
		if (f->rq[i])
			cmd_simple(f, "DESTROY_RQ", MLX5V_CMD_OP_DESTROY_RQ, f->rq[i]);
	if (f->sq)
		cmd_simple(f, "DESTROY_SQ", MLX5V_CMD_OP_DESTROY_SQ, f->sq);
	if (f->tis)
		cmd_simple(f, "DESTROY_TIS", MLX5V_CMD_OP_DESTROY_TIS, f->tis);
	if (f->txcqn) {
		uint8_t in[16], out[16];

		memset(in, 0, sizeof(in));
		RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ);
		RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN, f->txcqn);
		cmd(f, "DESTROY_CQ", in, sizeof(in), out, sizeof(out));
		RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN, f->rxcqn);
		cmd(f, "DESTROY_CQ", in, sizeof(in), out, sizeof(out));
	}
	if (f->mkey)
		cmd_simple(f, "DESTROY_MKEY", MLX5V_CMD_OP_DESTROY_MKEY, f->mkey);
	if (f->qcnt) {
		uint8_t in[MLX5V_IFC_BYTES(dealloc_q_counter_in)], out[0x10];

		memset(in, 0, sizeof(in));
		SET(dealloc_q_counter_in, in, opcode, MLX5V_CMD_OP_DEALLOC_Q_COUNTER);
		SET(dealloc_q_counter_in, in, counter_set_id, f->qcnt);
		cmd(f, "DEALLOC_Q_COUNTER", in, sizeof(in), out, sizeof(out));
	}
	if (f->td)
		cmd_simple(f, "DEALLOC_TD", MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, f->td);
	if (f->pd)
		cmd_simple(f, "DEALLOC_PD", MLX5V_CMD_OP_DEALLOC_PD, f->pd);
	/* Everything the fixture made is gone: the model agrees. */
	for (i = MLX5V_SIM_OBJ_PD; i < MLX5V_SIM_OBJ_MAX; i++)
		if (mlx5v_sim_live_objects(f->sim, i) != 0) {
			printf("%s: %u objects of kind %u left\n", f->name,
			       mlx5v_sim_live_objects(f->sim, i), i);
			f->leaked = 1;
		}
	leaks += f->leaked;
	if (f->eq != NULL)
		rte_pmd_mlx5v_devx_destroy_eq(f->eq);
	if (f->msi != NULL)
		rte_pmd_mlx5v_devx_free_msi_vector(f->msi);
	if (f->uar != NULL)
		rte_pmd_mlx5v_devx_free_uar(f->uar);
	if (f->mem != NULL) {
		rte_pmd_mlx5v_devx_dma_unmap(f->dev, f->mem, MEM_SIZE);
		rte_free(f->mem);
	}
	rte_vdev_uninit(f->name);
	memset(f, 0, sizeof(*f));
}

/* ---- frames ---- */

/* An IPv4/UDP frame of len bytes (checksums valid unless zero_csum). */
static uint32_t
frame_udp(uint8_t *p, uint32_t len, const uint8_t *dst, uint32_t sip, uint16_t sport,
	  int zero_csum)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint32_t i;

	memset(p, 0, len);
	memcpy(eth->dst_addr.addr_bytes, dst, 6);
	memcpy(eth->src_addr.addr_bytes, "\x02\x00\x00\x00\x00\x01", 6);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(sip);
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, 2));
	udp->src_port = rte_cpu_to_be_16(sport);
	udp->dst_port = rte_cpu_to_be_16(4789);
	udp->dgram_len = rte_cpu_to_be_16(len - sizeof(*eth) - sizeof(*ip));
	for (i = sizeof(*eth) + sizeof(*ip) + sizeof(*udp); i < len; i++)
		p[i] = (uint8_t)i;
	if (!zero_csum) {
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	}
	return len;
}

/*
 * Post one SEND WQE: 18 bytes inline (prm/mlx5_eth §6.4), the rest by a data segment
 * with key lkey at addr (the frame's buffer unless addr != 0), then ring the doorbell.
 */
static void
sq_send(struct fx *f, const uint8_t *frame, uint32_t len, uint8_t cs_flags, uint32_t lkey,
	uint64_t addr)
{
	uint32_t slot = f->sq_pc & ((1u << SQ_LOG) - 1);
	uint8_t *w = f->mem + OFF_SQ + 64 * slot;
	uint8_t *buf = f->mem + OFF_TXBUF + slot * BUF_SZ;
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + 0x80);

	memcpy(buf, frame, len);
	memset(w, 0, 64);
	*(unaligned_uint32_t *)w = rte_cpu_to_be_32((uint32_t)f->sq_pc << 8 | 0x0a);
	*(unaligned_uint32_t *)(w + 4) = rte_cpu_to_be_32(f->sq << 8 | 4);
	w[11] = 2 << 2;                          /* CE: always */
	w[0x14] = cs_flags;
	*(unaligned_uint16_t *)(w + 0x1c) = rte_cpu_to_be_16(18);
	memcpy(w + 0x1e, frame, 18);
	*(unaligned_uint32_t *)(w + 0x30) = rte_cpu_to_be_32(len - 18);
	*(unaligned_uint32_t *)(w + 0x34) = rte_cpu_to_be_32(lkey);
	*(unaligned_uint64_t *)(w + 0x38) =
		rte_cpu_to_be_64(addr != 0 ? addr : iova_of(f, buf) + 18);
	f->sq_pc++;
	rte_io_wmb();
	dbr[1] = rte_cpu_to_be_32(f->sq_pc);
	rte_wmb();
	/* §6.6: the first 8 bytes of the control segment to UAR + 0x800. */
	*(volatile uint64_t *)f->uar->reg_addr = *(unaligned_uint64_t *)w;
}

/* Wait for the next CQE of a CQ; @return it, or NULL after WAIT_LIMIT_MS. */
static uint8_t *
cq_wait(struct fx *f, int rx)
{
	uint32_t log = rx ? RXCQ_LOG : TXCQ_LOG;
	uint32_t *ci = rx ? &f->rxcq_ci : &f->txcq_ci;
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + (rx ? 0x40 : 0));
	uint8_t *ring = f->mem + (rx ? OFF_RXCQ : OFF_TXCQ);
	unsigned int ms;
	uint8_t *cqe;

	for (ms = 0; ms < WAIT_LIMIT_MS; ms++) {
		cqe = rte_pmd_mlx5v_cq_next_cqe(ring, 1u << log, *ci);
		if (cqe != NULL) {
			(*ci)++;
			rte_pmd_mlx5v_cq_update_ci(dbr, *ci);
			return cqe;
		}
		sleep_ms(1);
	}
	return NULL;
}

/* @return 1 if no CQE shows up on the CQ within 50 ms (a frame that must be dropped). */
static int
cq_quiet(struct fx *f, int rx)
{
	uint8_t *ring = f->mem + (rx ? OFF_RXCQ : OFF_TXCQ);

	sleep_ms(50);
	return rte_pmd_mlx5v_cq_next_cqe(ring, 1u << (rx ? RXCQ_LOG : TXCQ_LOG),
					 rx ? f->rxcq_ci : f->txcq_ci) == NULL;
}

static uint32_t
be32(const uint8_t *p)
{
	return rte_be_to_cpu_32(*(const unaligned_uint32_t *)p);
}

static uint16_t
be16(const uint8_t *p)
{
	return rte_be_to_cpu_16(*(const unaligned_uint16_t *)p);
}

/* The next EQE of type (others are skipped); @return its sub-type, or -1. */
static int
eq_wait(struct fx *f, uint8_t type)
{
	unsigned int ms;
	void *eqe;

	for (ms = 0; ms < WAIT_LIMIT_MS; ms++) {
		while ((eqe = rte_pmd_mlx5v_eq_next_eqe(f->eq->vaddr, 1u << EQ_LOG,
							f->eq_ci)) != NULL) {
			f->eq_ci++;
			rte_pmd_mlx5v_eq_update_ci(f->uar, f->eqn, f->eq_ci, 0);
			if (rte_pmd_mlx5v_eqe_type(eqe) == type)
				return rte_pmd_mlx5v_eqe_sub_type(eqe);
		}
		sleep_ms(1);
	}
	return -1;
}

/* Received bytes of the CQE's WQE (RQ from user_index, WQE from wqe_counter). */
static const uint8_t *
rx_buf(struct fx *f, const uint8_t *cqe)
{
	uint32_t rq = be32(cqe + CQE_USER_INDEX) & 0xffffff;
	uint32_t slot = be16(cqe + CQE_WQE_CTR) & ((1u << RQ_LOG) - 1);

	return f->mem + OFF_RXBUF + (rq * (1u << RQ_LOG) + slot) * BUF_SZ;
}

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
	fx_down(&fx_a);
}

/* Loop wire: a UDP frame comes back with the CQE fields of §8.2 and the bytes intact. */
static int
test_ethdp_loop(void)
{
	struct fx *f = &fx_a;
	uint8_t frame[128];
	const uint8_t *cqe;

	frame_udp(frame, sizeof(frame), f->mac, RTE_IPV4(10, 0, 0, 1), 1000, 0);
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

	frame_udp(frame, sizeof(frame), f->mac, RTE_IPV4(10, 0, 0, 3), 2000, 1);
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
		frame_udp(frame, sizeof(frame), f->mac, RTE_IPV4(192, 168, 1, i), 3000 + i * 7,
			  0);
		TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send %u", i);
		cqe = cq_wait(f, 1);
		TEST_ASSERT_NOT_NULL(cqe, "no receive CQE %u", i);
		t.src_addr = RTE_IPV4(192, 168, 1, i);
		t.dst_addr = RTE_IPV4(10, 0, 0, 2);
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

/* MAC filter: another DMAC misses the DMAC group; a catch-all entry (promisc) takes it. */
static int
test_ethdp_mac_filter(void)
{
	static const uint8_t other[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct mlx5v_sim_eth_stats st0, st1;
	struct fx *f = &fx_a;
	uint8_t frame[80];
	const uint8_t *cqe;

	frame_udp(frame, sizeof(frame), other, RTE_IPV4(10, 0, 0, 9), 9, 0);
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

/* MTU: a frame longer than the vport MTU (1522 with the FCS) is dropped. */
static int
test_ethdp_mtu(void)
{
	struct mlx5v_sim_eth_stats st0, st1;
	struct fx *f = &fx_a;
	static uint8_t frame[1600];
	const uint8_t *cqe;

	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st0), "stats");
	frame_udp(frame, 1519, f->mac, RTE_IPV4(10, 0, 0, 4), 4, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, 1519, 0), "send");
	TEST_ASSERT(cq_quiet(f, 1), "an oversize frame was received");
	TEST_ASSERT_SUCCESS(mlx5v_sim_eth_stats_get(f->sim, &st1), "stats");
	TEST_ASSERT_EQUAL(st1.rx_mtu_drop, st0.rx_mtu_drop + 1, "MTU drop not counted");
	frame_udp(frame, 1518, f->mac, RTE_IPV4(10, 0, 0, 4), 4, 0);
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
		  RTE_IPV4(10, 0, 0, 5), 5, 0);
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

/* Send a WQE whose data segment fails its key: error CQE syndrome, vendor byte, SQ ERR. */
static int
lkey_case(struct fx *f, uint32_t lkey, uint64_t addr, uint8_t vsynd)
{
	uint8_t frame[80];
	uint8_t *cqe;
	uint16_t idx = f->sq_pc;

	frame_udp(frame, sizeof(frame), f->mac, RTE_IPV4(10, 0, 0, 6), 6, 0);
	sq_send(f, frame, sizeof(frame), 0, lkey, addr);
	cqe = cq_wait(f, 0);
	TEST_ASSERT_NOT_NULL(cqe, "no error CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_REQ_ERR, "opcode");
	TEST_ASSERT_EQUAL(cqe[CQE_SYND], 0x04, "syndrome LOCAL_PROT_ERR");
	TEST_ASSERT_EQUAL(cqe[CQE_VSYND], vsynd, "vendor syndrome %#x", cqe[CQE_VSYND]);
	TEST_ASSERT_EQUAL(be16(cqe + CQE_WQE_CTR), idx, "wqe_counter");
	TEST_ASSERT_EQUAL(sq_state(f), 3, "SQ not in ERR");
	TEST_ASSERT(cq_quiet(f, 1), "a frame left through a bad key");
	/* Recover as a driver does: ERR -> RST -> RDY, counters from 0 (§5.2). */
	TEST_ASSERT_SUCCESS(q_modify(f, 1, f->sq, 3, 0), "ERR -> RST");
	TEST_ASSERT_SUCCESS(q_modify(f, 1, f->sq, 0, 1), "RST -> RDY");
	f->sq_pc = 0;
	return TEST_SUCCESS;
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
	/* A write-only key: no local read for a gather. */
	memset(in, 0, sizeof(in));
	SET(create_mkey_in, in, opcode, MLX5V_CMD_OP_CREATE_MKEY);
	SET(create_mkey_in, in, mkc.lw, 1);
	SET(create_mkey_in, in, mkc.access_mode_1_0, MLX5V_MKC_ACCESS_PA);
	SET(create_mkey_in, in, mkc.qpn, 0xffffff);
	SET(create_mkey_in, in, mkc.pd, f->pd);
	MLX5V_IFC_SET64(create_mkey_in, in, mkc.start_addr, f->iova);
	MLX5V_IFC_SET64(create_mkey_in, in, mkc.len, MEM_SIZE);
	ro = cmd_obj(f, "CREATE_MKEY", in, sizeof(in));
	TEST_ASSERT(ro > 0, "CREATE_MKEY");
	ret = lkey_case(f, (uint32_t)ro << 8, 0, 0x03);
	cmd_simple(f, "DESTROY_MKEY", MLX5V_CMD_OP_DESTROY_MKEY, ro);
	TEST_ASSERT_SUCCESS(ret, "no read access");
	/* The recovered SQ sends again. */
	frame_udp(frame, sizeof(frame), f->mac, RTE_IPV4(10, 0, 0, 7), 7, 0);
	TEST_ASSERT_SUCCESS(send_ok(f, frame, sizeof(frame), 0), "send after recovery");
	TEST_ASSERT_NOT_NULL(cq_wait(f, 1), "no frame after recovery");
	rq_post(f, 0, 0);
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
	frame_udp(frame, sizeof(frame), f->mac, RTE_IPV4(10, 0, 0, 8), 8, 0);
	sq_send(f, frame, sizeof(frame), 0, f->lkey, 0);
	cqe = cq_wait(f, 0);
	TEST_ASSERT_NOT_NULL(cqe, "no CQE");
	TEST_ASSERT_EQUAL(cqe[CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_REQ_ERR, "opcode");
	TEST_ASSERT_EQUAL(cqe[CQE_SYND], 0x02, "syndrome LOCAL_QP_OP_ERR");
	TEST_ASSERT_EQUAL(sq_state(f), 3, "SQ not in ERR");
	/* With flush_in_error_en the next WQE is flushed (§8.4). */
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

/* Link: PAOS down from the driver and the cable pulled both stop delivery, with events. */
static int
paos_write(struct fx *f, unsigned int admin)
{
	uint8_t in[MLX5V_IFC_BYTES(access_reg_in) + MLX5V_IFC_BYTES(paos_reg)];
	uint8_t out[0x10 + MLX5V_IFC_BYTES(paos_reg)];
	uint8_t *reg = in + MLX5V_IFC_BYTES(access_reg_in);

	memset(in, 0, sizeof(in));
	SET(access_reg_in, in, opcode, MLX5V_CMD_OP_ACCESS_REG);
	SET(access_reg_in, in, op_mod, 0);
	SET(access_reg_in, in, register_id, MLX5V_REG_PAOS);
	SET(paos_reg, reg, local_port, 1);
	SET(paos_reg, reg, admin_status, admin);
	SET(paos_reg, reg, ase, 1);
	return cmd(f, "ACCESS_REG PAOS", in, sizeof(in), out, sizeof(out));
}

static int
test_ethdp_link(void)
{
	struct fx *f = &fx_a;
	uint8_t frame[80];
	const uint8_t *cqe;

	frame_udp(frame, sizeof(frame), f->mac, RTE_IPV4(10, 0, 0, 10), 10, 0);
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

/* EAL devargs for a device not probed yet, so a pair may name it (doc/guides/sim/wire.rst). */
static struct rte_devargs *
eal_devargs_add(const char *spec)
{
	struct rte_devargs *da = calloc(1, sizeof(*da));

	if (da == NULL)
		return NULL;
	if (rte_devargs_parse(da, spec) != 0 || rte_devargs_insert(&da) != 0) {
		free(da);
		return NULL;
	}
	return da;
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
	if (eal_devargs_add("mlx5v_sim22,class=none,wire=pair:mlx5v_sim21") == NULL) {
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
	/* B -> C, to C's MAC, through C's RSS. */
	frame_udp(frame, sizeof(frame), c->mac, RTE_IPV4(10, 1, 0, 1), 1, 0);
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
	frame_udp(frame, 64, b->mac, RTE_IPV4(10, 1, 0, 2), 2, 0);
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
	fx_down(b);
	fx_down(c);
	if (leaks != 0)
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

/* An ARP request from our MAC for 10.9.0.1, asked by 10.9.0.2. */
static uint32_t
frame_arp_request(uint8_t *p, const uint8_t *mac)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(eth + 1);

	memset(p, 0, 60);
	memset(eth->dst_addr.addr_bytes, 0xff, RTE_ETHER_ADDR_LEN);
	memcpy(eth->src_addr.addr_bytes, mac, RTE_ETHER_ADDR_LEN);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	arp->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = RTE_ETHER_ADDR_LEN;
	arp->arp_plen = 4;
	arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REQUEST);
	memcpy(arp->arp_data.arp_sha.addr_bytes, mac, RTE_ETHER_ADDR_LEN);
	arp->arp_data.arp_sip = rte_cpu_to_be_32(RTE_IPV4(10, 9, 0, 2));
	arp->arp_data.arp_tip = rte_cpu_to_be_32(RTE_IPV4(10, 9, 0, 1));
	return 60;
}

/* @return 1 if the CQE's frame is the kernel's ARP reply to us. */
static int
is_arp_reply(struct fx *f, const uint8_t *cqe)
{
	const uint8_t *p = rx_buf(f, cqe);
	const struct rte_arp_hdr *arp = (const struct rte_arp_hdr *)(p + RTE_ETHER_HDR_LEN);

	return cqe[CQE_OP_OWN] >> 4 == MLX5V_CQE_OPCODE_RESP_SEND &&
	       be32(cqe + CQE_BYTE_CNT) >= RTE_ETHER_HDR_LEN + sizeof(*arp) &&
	       be16(p + 12) == RTE_ETHER_TYPE_ARP &&
	       rte_be_to_cpu_16(arp->arp_opcode) == RTE_ARP_OP_REPLY &&
	       memcmp(p, f->mac, RTE_ETHER_ADDR_LEN) == 0 &&
	       arp->arp_data.arp_sip == rte_cpu_to_be_32(RTE_IPV4(10, 9, 0, 1)) &&
	       memcmp(arp->arp_data.arp_tha.addr_bytes, f->mac, RTE_ETHER_ADDR_LEN) == 0;
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
	int fd, ns_made = 0;
	int ret = TEST_FAILED;

	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("skipped: /dev/net/tun: %s\n", strerror(errno));
		return TEST_SKIPPED;
	}
	close(fd);
	if (ut_sh("command -v ip >/dev/null 2>&1") != 0) {
		printf("skipped: no ip(8)\n");
		return TEST_SKIPPED;
	}
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
		frame_arp_request(frame, f->mac);
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
	if (ns_made)
		ut_sh("ip netns del %s >/dev/null 2>&1", ns);
	if (if_nametoindex(ifname) != 0) {
		printf("TAP %s left behind\n", ifname);
		ut_sh("ip link del %s >/dev/null 2>&1", ifname);
		ret = TEST_FAILED;
	}
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
		TEST_CASE(test_ethdp_mac_filter),
		TEST_CASE(test_ethdp_mtu),
		TEST_CASE(test_ethdp_out_of_buffer),
		TEST_CASE(test_ethdp_lkey_errors),
		TEST_CASE(test_ethdp_tx_err_knob),
		TEST_CASE(test_ethdp_link),
		TEST_CASE(test_ethdp_pair),
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
