/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The raw-user fixture of the Ethernet data path tests and benchmark (ethdp_fx.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_io.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_udp.h>

#include "ethdp_fx.h"
#include "ut_common.h"

const uint8_t rss_key[40] = {
	0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7, 0xfc, 0xa2,
	0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94, 0x6b, 0x9e, 0x38, 0xd9,
	0x2c, 0x9c, 0x03, 0xd1, 0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56,
	0x3d, 0x59, 0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a,
};


uint64_t
iova_of(const struct fx *f, const void *p)
{
	return f->iova + (uint64_t)((const uint8_t *)p - f->mem);
}

/* A command; @return 0, or -1 after printing the status and syndrome. */
int
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
int64_t
cmd_obj(struct fx *f, const char *what, void *in, size_t inlen)
{
	uint8_t out[0x10];

	if (cmd(f, what, in, inlen, out, sizeof(out)) != 0)
		return -1;
	return MLX5V_GET(eth_obj_out, out, obj_id);
}

int
cmd_simple(struct fx *f, const char *what, uint16_t opcode, uint32_t obj)
{
	uint8_t in[0x10];
	uint8_t out[0x10];

	memset(in, 0, sizeof(in));
	MLX5V_SET(eth_obj_in, in, opcode, opcode);
	MLX5V_SET(eth_obj_in, in, obj_id, obj);
	return cmd(f, what, in, sizeof(in), out, sizeof(out));
}

int fx_rxcq_comp = -1;

static int
cq_create(struct fx *f, uint32_t off, unsigned int log, uint32_t dbr_off, uint32_t *cqn,
	  int comp)
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
	if (comp >= 0) {
		MLX5V_SET(cqc, cqc, cqe_comp_en, 1);
		MLX5V_SET(cqc, cqc, mini_cqe_res_format, comp);
	}
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
int
q_modify(struct fx *f, int is_sq, uint32_t qn, unsigned int cur, unsigned int next)
{
	uint8_t in[MLX5V_IFC_BYTES(modify_rq_in)];
	uint8_t out[0x10];

	memset(in, 0, sizeof(in));
	if (is_sq) {
		MLX5V_SET(modify_sq_in, in, opcode, MLX5V_CMD_OP_MODIFY_SQ);
		MLX5V_SET(modify_sq_in, in, sq_state, cur);
		MLX5V_SET(modify_sq_in, in, sqn, qn);
		MLX5V_SET(modify_sq_in, in, ctx.state, next);
	} else {
		MLX5V_SET(modify_rq_in, in, opcode, MLX5V_CMD_OP_MODIFY_RQ);
		MLX5V_SET(modify_rq_in, in, rq_state, cur);
		MLX5V_SET(modify_rq_in, in, rqn, qn);
		MLX5V_SET(modify_rq_in, in, ctx.state, next);
	}
	return cmd(f, is_sq ? "MODIFY_SQ" : "MODIFY_RQ", in, sizeof(in), out, sizeof(out));
}

int
sq_state(struct fx *f)
{
	uint8_t in[0x10];
	uint8_t out[MLX5V_IFC_BYTES(query_sq_out)];

	memset(in, 0, sizeof(in));
	MLX5V_SET(eth_obj_in, in, opcode, MLX5V_CMD_OP_QUERY_SQ);
	MLX5V_SET(eth_obj_in, in, obj_id, f->sq);
	if (cmd(f, "QUERY_SQ", in, sizeof(in), out, sizeof(out)) != 0)
		return -1;
	return MLX5V_GET(query_sq_out, out, ctx.state);
}

uint32_t
qcnt_out_of_buffer(struct fx *f)
{
	uint8_t in[MLX5V_IFC_BYTES(query_q_counter_in)];
	uint8_t out[MLX5V_IFC_BYTES(query_q_counter_out)];

	memset(in, 0, sizeof(in));
	MLX5V_SET(query_q_counter_in, in, opcode, MLX5V_CMD_OP_QUERY_Q_COUNTER);
	MLX5V_SET(query_q_counter_in, in, counter_set_id, f->qcnt);
	if (cmd(f, "QUERY_Q_COUNTER", in, sizeof(in), out, sizeof(out)) != 0)
		return UINT32_MAX;
	return MLX5V_GET(query_q_counter_out, out, out_of_buffer);
}

/* One entry of table ft at index: DMAC match (or all when mac is NULL) to tir. */
int
fte_set(struct fx *f, uint32_t index, uint32_t group, const uint8_t *mac, uint32_t tir,
	uint32_t tag)
{
	uint8_t in[MLX5V_IFC_BYTES(set_fte_in) + 8];
	uint8_t out[0x10];
	uint8_t *d = in + MLX5V_IFC_BYTES(set_fte_in);

	memset(in, 0, sizeof(in));
	MLX5V_SET(set_fte_in, in, opcode, MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY);
	MLX5V_SET(set_fte_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(set_fte_in, in, table_id, f->ft);
	MLX5V_SET(set_fte_in, in, flow_index, index);
	MLX5V_SET(set_fte_in, in, ctx.group_id, group);
	MLX5V_SET(set_fte_in, in, ctx.flow_tag, tag);
	MLX5V_SET(set_fte_in, in, ctx.action, MLX5V_FTE_ACTION_FWD_DEST);
	MLX5V_SET(set_fte_in, in, ctx.destination_list_size, 1);
	if (mac != NULL) {
		MLX5V_SET(set_fte_in, in, ctx.match_value.outer_headers.dmac_47_16,
		    be32(mac));
		MLX5V_SET(set_fte_in, in, ctx.match_value.outer_headers.dmac_15_0,
		    be16(mac + 4));
	}
	MLX5V_SET(dest_format, d, destination_type, MLX5V_FLOW_DEST_TIR);
	MLX5V_SET(dest_format, d, destination_id, tir);
	return cmd(f, "SET_FTE", in, sizeof(in), out, sizeof(out));
}

int
fte_del(struct fx *f, uint32_t index)
{
	uint8_t in[MLX5V_IFC_BYTES(flow_table_obj_in)];
	uint8_t out[0x10];

	memset(in, 0, sizeof(in));
	MLX5V_SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_DELETE_FLOW_TABLE_ENTRY);
	MLX5V_SET(flow_table_obj_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(flow_table_obj_in, in, table_id, f->ft);
	MLX5V_SET(flow_table_obj_in, in, flow_index, index);
	return cmd(f, "DELETE_FTE", in, sizeof(in), out, sizeof(out));
}

static int
fg_create(struct fx *f, uint32_t start, uint32_t end, int dmac, uint32_t *id)
{
	uint8_t in[MLX5V_IFC_BYTES(create_flow_group_in)];
	int64_t r;

	memset(in, 0, sizeof(in));
	MLX5V_SET(create_flow_group_in, in, opcode, MLX5V_CMD_OP_CREATE_FLOW_GROUP);
	MLX5V_SET(create_flow_group_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_group_in, in, table_id, f->ft);
	MLX5V_SET(create_flow_group_in, in, start_flow_index, start);
	MLX5V_SET(create_flow_group_in, in, end_flow_index, end);
	if (dmac) {
		MLX5V_SET(create_flow_group_in, in, match_criteria_enable,
			  MLX5V_MATCH_OUTER_HEADERS);
		MLX5V_SET(create_flow_group_in, in, match_criteria.outer_headers.dmac_47_16,
		    UINT32_MAX);
		MLX5V_SET(create_flow_group_in, in, match_criteria.outer_headers.dmac_15_0, 0xffff);
	}
	r = cmd_obj(f, "CREATE_FLOW_GROUP", in, sizeof(in));
	*id = (uint32_t)r;
	return r < 0 ? -1 : 0;
}

/* Post one receive WQE (one 2 KiB buffer) on RQ i and publish the record. */
void
rq_post(struct fx *f, unsigned int i, unsigned int n)
{
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + 0xc0 + 0x40 * i);
	unsigned int k;

	for (k = 0; k < n; k++) {
		uint32_t slot = f->rq_posted[i] & ((1u << RQ_LOG) - 1);
		uint8_t *w = f->mem + OFF_RQ + 0x1000 * i + 16 * slot;
		uint8_t *buf = f->mem + OFF_RXBUF + (i * (1u << RQ_LOG) + slot) * BUF_SZ;

		put_be32(w, BUF_SZ);
		put_be32(w + 4, f->lkey);
		put_be64(w + 8, iova_of(f, buf));
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
	int64_t knob;
	int64_t r;
	unsigned int i;

	/* PD, TD, Q counter, MKEY over the whole region (prm/mlx5_eth §2). */
	memset(in, 0, 0x10);
	MLX5V_SET(eth_cmd_in, in, opcode, MLX5V_CMD_OP_ALLOC_PD);
	if ((r = cmd_obj(f, "ALLOC_PD", in, 0x10)) < 0)
		return -1;
	f->pd = r;
	MLX5V_SET(eth_cmd_in, in, opcode, MLX5V_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	if ((r = cmd_obj(f, "ALLOC_TD", in, 0x10)) < 0)
		return -1;
	f->td = r;
	MLX5V_SET(eth_cmd_in, in, opcode, MLX5V_CMD_OP_ALLOC_Q_COUNTER);
	if (cmd(f, "ALLOC_Q_COUNTER", in, 0x10, out, 0x10) != 0)
		return -1;
	f->qcnt = MLX5V_GET(alloc_q_counter_out, out, counter_set_id);
	memset(in, 0, sizeof(in));
	MLX5V_SET(create_mkey_in, in, opcode, MLX5V_CMD_OP_CREATE_MKEY);
	MLX5V_SET(create_mkey_in, in, mkc.lw, 1);
	MLX5V_SET(create_mkey_in, in, mkc.lr, 1);
	MLX5V_SET(create_mkey_in, in, mkc.access_mode_1_0, MLX5V_MKC_ACCESS_PA);
	MLX5V_SET(create_mkey_in, in, mkc.qpn, 0xffffff);
	MLX5V_SET(create_mkey_in, in, mkc.mkey_7_0, 0x42);
	MLX5V_SET(create_mkey_in, in, mkc.pd, f->pd);
	MLX5V_IFC_SET64(create_mkey_in, in, mkc.start_addr, f->iova);
	MLX5V_IFC_SET64(create_mkey_in, in, mkc.len, MEM_SIZE);
	if ((r = cmd_obj(f, "CREATE_MKEY", in, MLX5V_IFC_BYTES(create_mkey_in))) < 0)
		return -1;
	f->mkey = r;
	f->lkey = (uint32_t)r << 8 | 0x42;
	/* CQs, TIS, SQ. */
	if (cq_create(f, OFF_TXCQ, TXCQ_LOG, OFF_DBR, &f->txcqn, -1) != 0 ||
	    cq_create(f, OFF_RXCQ, RXCQ_LOG, OFF_DBR + 0x40, &f->rxcqn, fx_rxcq_comp) != 0)
		return -1;
	memset(in, 0, sizeof(in));
	MLX5V_SET(create_tis_in, in, opcode, MLX5V_CMD_OP_CREATE_TIS);
	MLX5V_SET(create_tis_in, in, ctx.transport_domain, f->td);
	if ((r = cmd_obj(f, "CREATE_TIS", in, MLX5V_IFC_BYTES(create_tis_in))) < 0)
		return -1;
	f->tis = r;
	memset(in, 0, sizeof(in));
	MLX5V_SET(create_sq_in, in, opcode, MLX5V_CMD_OP_CREATE_SQ);
	MLX5V_SET(create_sq_in, in, ctx.flush_in_error_en, 1);
	/* Multi-packet WQEs where the device takes them (doc/guides/prm/mlx5_empw.rst). */
	if (mlx5v_sim_knob_get(f->sim, "empw", &knob) == 0 && knob != 0)
		MLX5V_SET(create_sq_in, in, ctx.allow_multi_pkt_send_wqe, 1);
	MLX5V_SET(create_sq_in, in, ctx.cqn, f->txcqn);
	MLX5V_SET(create_sq_in, in, ctx.user_index, 0x77);
	MLX5V_SET(create_sq_in, in, ctx.tis_lst_sz, 1);
	MLX5V_SET(create_sq_in, in, ctx.tis_num_0, f->tis);
	MLX5V_SET(create_sq_in, in, ctx.wq.wq_type, 1);
	MLX5V_SET(create_sq_in, in, ctx.wq.pd, f->pd);
	MLX5V_SET(create_sq_in, in, ctx.wq.uar_page, f->uar->page_id);
	MLX5V_IFC_SET64(create_sq_in, in, ctx.wq.dbr_addr, f->iova + OFF_DBR + 0x80);
	MLX5V_SET(create_sq_in, in, ctx.wq.log_wq_stride, 6);
	MLX5V_SET(create_sq_in, in, ctx.wq.log_wq_sz, SQ_LOG);
	put_be64(in + MLX5V_IFC_BYTES(create_sq_in), f->iova + OFF_SQ);
	if ((r = cmd_obj(f, "CREATE_SQ", in, MLX5V_IFC_BYTES(create_sq_in) + 8)) < 0)
		return -1;
	f->sq = r;
	if (q_modify(f, 1, f->sq, 0, 1) != 0)
		return -1;
	/* Four RQs, each with its WQEs posted, an RQT over them. */
	for (i = 0; i < NB_RQ; i++) {
		memset(in, 0, sizeof(in));
		MLX5V_SET(create_rq_in, in, opcode, MLX5V_CMD_OP_CREATE_RQ);
		MLX5V_SET(create_rq_in, in, ctx.vsd, 1);
		MLX5V_SET(create_rq_in, in, ctx.flush_in_error_en, 1);
		MLX5V_SET(create_rq_in, in, ctx.user_index, i);
		MLX5V_SET(create_rq_in, in, ctx.cqn, f->rxcqn);
		MLX5V_SET(create_rq_in, in, ctx.counter_set_id, f->qcnt);
		MLX5V_SET(create_rq_in, in, ctx.wq.wq_type, 1);
		MLX5V_SET(create_rq_in, in, ctx.wq.pd, f->pd);
		MLX5V_IFC_SET64(create_rq_in, in, ctx.wq.dbr_addr,
				f->iova + OFF_DBR + 0xc0 + 0x40 * i);
		MLX5V_SET(create_rq_in, in, ctx.wq.log_wq_stride, 4);
		MLX5V_SET(create_rq_in, in, ctx.wq.log_wq_sz, RQ_LOG);
		put_be64(in + MLX5V_IFC_BYTES(create_rq_in), f->iova + OFF_RQ + 0x1000 * i);
		if ((r = cmd_obj(f, "CREATE_RQ", in, MLX5V_IFC_BYTES(create_rq_in) + 8)) < 0)
			return -1;
		f->rq[i] = r;
		if (q_modify(f, 0, f->rq[i], 0, 1) != 0)
			return -1;
		rq_post(f, i, 1u << RQ_LOG);
	}
	memset(in, 0, sizeof(in));
	MLX5V_SET(create_rqt_in, in, opcode, MLX5V_CMD_OP_CREATE_RQT);
	MLX5V_SET(create_rqt_in, in, ctx.rqt_max_size, NB_RQ);
	MLX5V_SET(create_rqt_in, in, ctx.rqt_actual_size, NB_RQ);
	for (i = 0; i < NB_RQ; i++)
		put_be32(in + MLX5V_IFC_BYTES(create_rqt_in) + 4 * i, f->rq[i]);
	if ((r = cmd_obj(f, "CREATE_RQT", in, MLX5V_IFC_BYTES(create_rqt_in) + 4 * NB_RQ)) < 0)
		return -1;
	f->rqt = r;
	/* TIRs: Toeplitz over IPv4/UDP 4-tuple through the RQT, and direct to RQ 0. */
	memset(in, 0, sizeof(in));
	MLX5V_SET(create_tir_in, in, opcode, MLX5V_CMD_OP_CREATE_TIR);
	MLX5V_SET(create_tir_in, in, ctx.disp_type, MLX5V_TIRC_DISP_INDIRECT);
	MLX5V_SET(create_tir_in, in, ctx.indirect_table, f->rqt);
	MLX5V_SET(create_tir_in, in, ctx.rx_hash_fn, MLX5V_TIRC_HASH_TOEPLITZ);
	MLX5V_SET(create_tir_in, in, ctx.transport_domain, f->td);
	memcpy(MLX5V_IFC_ADDR_OF(create_tir_in, in, ctx.rx_hash_toeplitz_key), rss_key,
	       sizeof(rss_key));
	MLX5V_SET(create_tir_in, in, ctx.hash_outer_l3_prot_type, 0);
	MLX5V_SET(create_tir_in, in, ctx.hash_outer_l4_prot_type, 1);
	MLX5V_SET(create_tir_in, in, ctx.hash_outer_selected_fields,
	    MLX5V_HASH_FIELD_SRC_IP | MLX5V_HASH_FIELD_DST_IP | MLX5V_HASH_FIELD_L4_SPORT |
	    MLX5V_HASH_FIELD_L4_DPORT);
	if ((r = cmd_obj(f, "CREATE_TIR rss", in, MLX5V_IFC_BYTES(create_tir_in))) < 0)
		return -1;
	f->tir_rss = r;
	memset(in, 0, sizeof(in));
	MLX5V_SET(create_tir_in, in, opcode, MLX5V_CMD_OP_CREATE_TIR);
	MLX5V_SET(create_tir_in, in, ctx.disp_type, MLX5V_TIRC_DISP_DIRECT);
	MLX5V_SET(create_tir_in, in, ctx.inline_rqn, f->rq[0]);
	MLX5V_SET(create_tir_in, in, ctx.transport_domain, f->td);
	if ((r = cmd_obj(f, "CREATE_TIR direct", in, MLX5V_IFC_BYTES(create_tir_in))) < 0)
		return -1;
	f->tir_direct = r;
	/* Root table: group 0 (0-1) matches the DMAC, group 1 (2-3) everything (promisc). */
	memset(in, 0, sizeof(in));
	MLX5V_SET(create_flow_table_in, in, opcode, MLX5V_CMD_OP_CREATE_FLOW_TABLE);
	MLX5V_SET(create_flow_table_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_table_in, in, ctx.log_size, 2);
	if ((r = cmd_obj(f, "CREATE_FLOW_TABLE", in, MLX5V_IFC_BYTES(create_flow_table_in))) < 0)
		return -1;
	f->ft = r;
	if (fg_create(f, 0, 1, 1, &f->fg_mac) != 0 || fg_create(f, 2, 3, 0, &f->fg_all) != 0)
		return -1;
	if (fte_set(f, 0, f->fg_mac, f->mac, f->tir_rss, 0x1234) != 0)
		return -1;
	memset(in, 0, sizeof(in));
	MLX5V_SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT);
	MLX5V_SET(flow_table_obj_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(flow_table_obj_in, in, table_id, f->ft);
	return cmd(f, "SET_FLOW_TABLE_ROOT", in, MLX5V_IFC_BYTES(flow_table_obj_in), out, 0x10);
}

int
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
	/* One IOVA-contiguous region, as the offsets from f->iova assume (IOVA as PA too). */
	f->mz = rte_memzone_reserve_aligned(f->name, MEM_SIZE, SOCKET_ID_ANY,
					    RTE_MEMZONE_IOVA_CONTIG, 4096);
	if (f->mz != NULL) {
		f->mem = f->mz->addr;
		memset(f->mem, 0, MEM_SIZE);
	}
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
	MLX5V_SET(query_nic_vport_context_in, q, opcode, MLX5V_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	if (cmd(f, "QUERY_NIC_VPORT_CONTEXT", q, sizeof(q), qo, sizeof(qo)) != 0)
		return -1;
	memcpy(f->mac, (uint8_t *)MLX5V_IFC_ADDR_OF(query_nic_vport_context_out, qo,
						    ctx.permanent_address) + 2, 6);
	return fx_objects(f);
}

int
fx_down(struct fx *f)
{
	unsigned int i;

	int leaked;

	if (f->dev == NULL)
		return 0;
	/* Teardown in the order of prm/mlx5_eth §12; errors only reported. */
	if (f->ft != 0) {
		uint8_t in[MLX5V_IFC_BYTES(flow_table_obj_in)];
		uint8_t out[0x10];

		if (f->have_fte_all)
			fte_del(f, 2);
		fte_del(f, 0);
		memset(in, 0, sizeof(in));
		MLX5V_SET(flow_table_obj_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
		MLX5V_SET(flow_table_obj_in, in, table_id, f->ft);
		MLX5V_SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_DESTROY_FLOW_GROUP);
		MLX5V_SET(flow_table_obj_in, in, group_id, f->fg_mac);
		cmd(f, "DESTROY_FLOW_GROUP", in, sizeof(in), out, sizeof(out));
		MLX5V_SET(flow_table_obj_in, in, group_id, f->fg_all);
		cmd(f, "DESTROY_FLOW_GROUP", in, sizeof(in), out, sizeof(out));
		MLX5V_SET(flow_table_obj_in, in, group_id, 0);
		MLX5V_SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT);
		MLX5V_SET(flow_table_obj_in, in, op_mod, 1);      /* disconnect the root */
		MLX5V_SET(flow_table_obj_in, in, table_id, 0);
		cmd(f, "unset root", in, sizeof(in), out, sizeof(out));
		MLX5V_SET(flow_table_obj_in, in, op_mod, 0);
		MLX5V_SET(flow_table_obj_in, in, opcode, MLX5V_CMD_OP_DESTROY_FLOW_TABLE);
		MLX5V_SET(flow_table_obj_in, in, table_id, f->ft);
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
		MLX5V_SET(dealloc_q_counter_in, in, opcode, MLX5V_CMD_OP_DEALLOC_Q_COUNTER);
		MLX5V_SET(dealloc_q_counter_in, in, counter_set_id, f->qcnt);
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
	if (f->eq != NULL)
		rte_pmd_mlx5v_devx_destroy_eq(f->eq);
	if (f->msi != NULL)
		rte_pmd_mlx5v_devx_free_msi_vector(f->msi);
	if (f->uar != NULL)
		rte_pmd_mlx5v_devx_free_uar(f->uar);
	if (f->mem != NULL) {
		rte_pmd_mlx5v_devx_dma_unmap(f->dev, f->mem, MEM_SIZE);
		rte_memzone_free(f->mz);
	}
	rte_vdev_uninit(f->name);
	leaked = f->leaked;
	memset(f, 0, sizeof(*f));
	return leaked;
}

/* ---- frames ---- */

/* Ethernet and IPv4 headers of a len-byte frame to dst carrying proto; @return the IP header. */
struct rte_ipv4_hdr *
frame_ipv4(uint8_t *p, uint32_t len, const uint8_t *dst, uint8_t proto, uint32_t sip)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);

	memset(p, 0, len);
	memcpy(eth->dst_addr.addr_bytes, dst, 6);
	memcpy(eth->src_addr.addr_bytes, "\x02\x00\x00\x00\x00\x01", 6);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->src_addr = rte_cpu_to_be_32(sip);
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, 2));
	return ip;
}

/* An IPv4/UDP frame of len bytes (checksums valid unless zero_csum). */
uint32_t
frame_udp(uint8_t *p, uint32_t len, const uint8_t *dst, uint32_t sip, uint16_t sport,
	  int zero_csum)
{
	struct rte_ipv4_hdr *ip = frame_ipv4(p, len, dst, IPPROTO_UDP, sip);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint32_t i;

	udp->src_port = rte_cpu_to_be_16(sport);
	udp->dst_port = rte_cpu_to_be_16(4789);
	udp->dgram_len = rte_cpu_to_be_16(len - RTE_ETHER_HDR_LEN - sizeof(*ip));
	for (i = RTE_ETHER_HDR_LEN + sizeof(*ip) + sizeof(*udp); i < len; i++)
		p[i] = (uint8_t)i;
	if (!zero_csum) {
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	}
	return len;
}

/*
 * Post one SEND WQE without ringing: 18 bytes inline (prm/mlx5_eth §6.4), the rest by a
 * data segment with key lkey at addr (the frame's copy unless addr != 0); a CQE if ce.
 */
void
sq_post(struct fx *f, const uint8_t *frame, uint32_t len, uint8_t cs_flags, uint32_t lkey,
	uint64_t addr, int ce)
{
	uint32_t slot = f->sq_pc & ((1u << SQ_LOG) - 1);
	uint8_t *w = f->mem + OFF_SQ + 64 * slot;
	uint8_t *buf = f->mem + OFF_TXBUF + slot * BUF_SZ;

	memcpy(buf, frame, len);
	memset(w, 0, 64);
	put_be32(w, (uint32_t)f->sq_pc << 8 | 0x0a);
	put_be32(w + 4, f->sq << 8 | 4);
	w[11] = ce ? 2 << 2 : 0;                 /* CE: always, or only on error */
	w[0x14] = cs_flags;
	put_be16(w + 0x1c, 18);
	memcpy(w + 0x1e, frame, 18);
	put_be32(w + 0x30, len - 18);
	put_be32(w + 0x34, lkey);
	put_be64(w + 0x38, addr != 0 ? addr : iova_of(f, buf) + 18);
	f->sq_pc++;
}

/* The doorbell record, then the last WQE's first 8 bytes to UAR + 0x800 (prm/mlx5_eth §6.6). */
void
sq_ring(struct fx *f)
{
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + 0x80);
	uint8_t *w = f->mem + OFF_SQ + 64 * ((uint16_t)(f->sq_pc - 1) & ((1u << SQ_LOG) - 1));

	rte_io_wmb();
	dbr[1] = rte_cpu_to_be_32(f->sq_pc);
	rte_wmb();
	uar_db(f, w);
}

void
sq_send(struct fx *f, const uint8_t *frame, uint32_t len, uint8_t cs_flags, uint32_t lkey,
	uint64_t addr)
{
	sq_post(f, frame, len, cs_flags, lkey, addr, 1);
	sq_ring(f);
}

/* The next CQE of a CQ if the device wrote it, consumed; else NULL. */
uint8_t *
cq_poll(struct fx *f, int rx)
{
	uint32_t log = rx ? RXCQ_LOG : TXCQ_LOG;
	uint32_t *ci = rx ? &f->rxcq_ci : &f->txcq_ci;
	volatile uint32_t *dbr = (volatile uint32_t *)(f->mem + OFF_DBR + (rx ? 0x40 : 0));
	uint8_t *cqe = rte_pmd_mlx5v_cq_next_cqe(f->mem + (rx ? OFF_RXCQ : OFF_TXCQ), 1u << log,
						 *ci);

	if (cqe != NULL) {
		(*ci)++;
		rte_pmd_mlx5v_cq_update_ci(dbr, *ci);
	}
	return cqe;
}

/* Wait for the next CQE of a CQ; @return it, or NULL after UT_WAIT_LIMIT_MS. */
uint8_t *
cq_wait(struct fx *f, int rx)
{
	unsigned int ms;
	uint8_t *cqe;

	for (ms = 0; ms < UT_WAIT_LIMIT_MS; ms++) {
		cqe = cq_poll(f, rx);
		if (cqe != NULL)
			return cqe;
		ut_sleep_ms(1);
	}
	return NULL;
}

/* @return 1 if no CQE shows up on the CQ within 50 ms (a frame that must be dropped). */
int
cq_quiet(struct fx *f, int rx)
{
	uint8_t *ring = f->mem + (rx ? OFF_RXCQ : OFF_TXCQ);

	ut_sleep_ms(50);
	return rte_pmd_mlx5v_cq_next_cqe(ring, 1u << (rx ? RXCQ_LOG : TXCQ_LOG),
					 rx ? f->rxcq_ci : f->txcq_ci) == NULL;
}

uint32_t
be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return rte_be_to_cpu_32(v);
}

void
put_be16(void *p, uint16_t v)
{
	v = rte_cpu_to_be_16(v);
	memcpy(p, &v, sizeof(v));
}

void
put_be32(void *p, uint32_t v)
{
	v = rte_cpu_to_be_32(v);
	memcpy(p, &v, sizeof(v));
}

void
put_be64(void *p, uint64_t v)
{
	v = rte_cpu_to_be_64(v);
	memcpy(p, &v, sizeof(v));
}

void
uar_db(struct fx *f, const uint8_t *wqe)
{
	uint64_t v;

	memcpy(&v, wqe, sizeof(v));
	*(volatile uint64_t *)f->uar->reg_addr = v;
}

uint16_t
be16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return rte_be_to_cpu_16(v);
}

/* The next EQE of type (others are skipped); @return its sub-type, or -1. */
int
eq_wait(struct fx *f, uint8_t type)
{
	unsigned int ms;
	void *eqe;

	for (ms = 0; ms < UT_WAIT_LIMIT_MS; ms++) {
		while ((eqe = rte_pmd_mlx5v_eq_next_eqe(f->eq->vaddr, 1u << EQ_LOG,
							f->eq_ci)) != NULL) {
			f->eq_ci++;
			rte_pmd_mlx5v_eq_update_ci(f->uar, f->eqn, f->eq_ci, 0);
			if (rte_pmd_mlx5v_eqe_type(eqe) == type)
				return rte_pmd_mlx5v_eqe_sub_type(eqe);
		}
		ut_sleep_ms(1);
	}
	return -1;
}

/* Received bytes of the CQE's WQE (RQ from user_index, WQE from wqe_counter). */
const uint8_t *
rx_buf(struct fx *f, const uint8_t *cqe)
{
	uint32_t rq = be32(cqe + CQE_USER_INDEX) & 0xffffff;
	uint32_t slot = be16(cqe + CQE_WQE_CTR) & ((1u << RQ_LOG) - 1);

	return f->mem + OFF_RXBUF + (rq * (1u << RQ_LOG) + slot) * BUF_SZ;
}

/* PAOS admin_status write with ase (prm/mlx5_eth §11.1). */
int
paos_write(struct fx *f, unsigned int admin)
{
	uint8_t in[MLX5V_IFC_BYTES(access_reg_in) + MLX5V_IFC_BYTES(paos_reg)];
	uint8_t out[0x10 + MLX5V_IFC_BYTES(paos_reg)];
	uint8_t *reg = in + MLX5V_IFC_BYTES(access_reg_in);

	memset(in, 0, sizeof(in));
	MLX5V_SET(access_reg_in, in, opcode, MLX5V_CMD_OP_ACCESS_REG);
	MLX5V_SET(access_reg_in, in, op_mod, 0);
	MLX5V_SET(access_reg_in, in, register_id, MLX5V_REG_PAOS);
	MLX5V_SET(paos_reg, reg, local_port, 1);
	MLX5V_SET(paos_reg, reg, admin_status, admin);
	MLX5V_SET(paos_reg, reg, ase, 1);
	return cmd(f, "ACCESS_REG PAOS", in, sizeof(in), out, sizeof(out));
}
