/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the simulated Ethernet function, through the command interface only: a
 * device brought up by the core, mailboxes built with the mlx5v_prm_eth.h layouts and run
 * with mlx5v_cmd_do(). Every validation syndrome of the model has a test here.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "test.h"

#include "mlx5v_cmd.h"
#include "mlx5v_dev.h"
#include "mlx5v_devx.h"
#include "mlx5v_eq.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlx5v_sim.h"
#include "mlx5v_sim_eth.h"
#include "rte_pmd_mlx5v.h"
#include "ut_common.h"

#define VDEV_NAME "mlx5v_sim0"
#define VDEV_ARGS "msix=4"


/* DMA memory: MEM_PAGES mapped pages, then UNMAPPED_PAGES that are never mapped. */
#define PAGE 4096u
#define MEM_PAGES 32u
#define UNMAPPED_PAGES 4u
#define WQ_OFF 0u                    /* queue buffers (shared: the model only checks them) */
#define DBR_OFF (16u * PAGE)         /* doorbell records */
#define MTT_OFF (20u * PAGE)         /* MTT pages */
#define MBOX_LEN 8192u
#define QPN_NONE 0xffffffu

/* Syndromes of the rest of the model (mlx5v_sim_priv.h), which Ethernet commands also give. */
#define SYND_BAD_OP_MOD 0x51000002u   /* op_mod not defined */
#define SYND_INLEN 0x51000003u        /* inlen below the layout */
#define SYND_REG_ID 0x51010010u       /* register not modelled */
#define SYND_REG_DATA 0x51010011u     /* bad register argument */
#define SYND_VPORT 0x51010012u        /* another vport */
#define SYND_UAR_BUSY 0x51010015u     /* UAR still used */

static struct mlx5v_dev *g_dev;
static struct mlx5v_sim *g_sim;
static struct rte_pmd_mlx5v_uar *g_uar;
static struct mlx5v_devx_cq *g_cq;
static uint8_t *g_mem;
static uint64_t g_iova;
static uint8_t g_in[MBOX_LEN];
static uint8_t g_out[MBOX_LEN];
static uint32_t g_synd;

/* ---------------------------------------------------------------- helpers */

/*
 * Run a command. @return its outbox status (0 OK), g_synd set; -1 for a transport error.
 */
static int
cmd(const void *in, size_t inlen, void *out, size_t outlen)
{
	int ret;

	memset(out, 0, outlen);
	ret = mlx5v_cmd_do(g_dev, in, inlen, out, outlen);
	g_synd = MLX5V_GET(eth_cmd_out, out, syndrome);
	if (ret == 0)
		return 0;
	if (ret != -EREMOTEIO) {
		printf("command 0x%x: %s\n", MLX5V_GET(eth_cmd_in, in, opcode), strerror(-ret));
		return -1;
	}
	return MLX5V_GET(eth_cmd_out, out, status);
}

/* Start an input of inlen bytes in g_in. */
static uint8_t *
in_init(uint16_t opcode, uint16_t op_mod, size_t inlen)
{
	memset(g_in, 0, inlen);
	MLX5V_SET(eth_cmd_in, g_in, opcode, opcode);
	MLX5V_SET(eth_cmd_in, g_in, op_mod, op_mod);
	return g_in;
}

/* Run g_in (a create or alloc); *id gets the object number. @return status. */
static int
create(size_t inlen, uint32_t *id)
{
	int st = cmd(g_in, inlen, g_out, MLX5V_IFC_BYTES(eth_obj_out));

	if (st == 0 && id != NULL)
		*id = MLX5V_GET(eth_obj_out, g_out, obj_id);
	return st;
}

/* DEALLOC/DESTROY/QUERY of one object number (eth_obj_in). @return status. */
static int
obj_cmd(uint16_t opcode, uint32_t id, size_t outlen)
{
	in_init(opcode, 0, MLX5V_IFC_BYTES(eth_obj_in));
	MLX5V_SET(eth_obj_in, g_in, obj_id, id);
	return cmd(g_in, MLX5V_IFC_BYTES(eth_obj_in), g_out, outlen);
}

static int
destroy(uint16_t opcode, uint32_t id)
{
	return obj_cmd(opcode, id, MLX5V_IFC_BYTES(eth_cmd_out));
}

#define EXPECT(call, st, sy, what) do { \
	int r_ = (call); \
	TEST_ASSERT_EQUAL(r_, (int)(st), "%s: status 0x%x, expected 0x%x (syndrome 0x%x)", \
			  what, r_, (unsigned int)(st), g_synd); \
	TEST_ASSERT_EQUAL(g_synd, (uint32_t)(sy), "%s: syndrome 0x%x, expected 0x%x", what, \
			  g_synd, (uint32_t)(sy)); \
} while (0)
#define OK(call, what) TEST_ASSERT_EQUAL((call), 0, "%s failed (syndrome 0x%x)", what, g_synd)

static unsigned int
live(enum mlx5v_sim_obj k)
{
	return mlx5v_sim_live_objects(g_sim, k);
}

/* @return the number of live Ethernet objects of every kind. */
static unsigned int
live_eth(void)
{
	unsigned int k, n = 0;

	for (k = MLX5V_SIM_OBJ_PD; k < MLX5V_SIM_OBJ_MAX; k++)
		n += live(k);
	return n;
}

/* ---- object builders: fill g_in, a test may then change one field ---- */

/* Page-list entry at byte off of g_in (pas[] of a queue, MTT of a key). */
static void
pas_set(size_t off, uint64_t addr)
{
	MLX5V_IFC_SET64(pas_entry, g_in + off, addr, addr);
}

static uint32_t
pd_alloc(void)
{
	uint32_t pd = 0;

	in_init(MLX5V_CMD_OP_ALLOC_PD, 0, MLX5V_IFC_BYTES(eth_cmd_in));
	return create(MLX5V_IFC_BYTES(eth_cmd_in), &pd) == 0 ? pd : 0;
}

static uint32_t
td_alloc(void)
{
	uint32_t td = 0;

	in_init(MLX5V_CMD_OP_ALLOC_TRANSPORT_DOMAIN, 0, MLX5V_IFC_BYTES(eth_cmd_in));
	return create(MLX5V_IFC_BYTES(eth_cmd_in), &td) == 0 ? td : 0;
}

static uint32_t
qcnt_alloc(void)
{
	in_init(MLX5V_CMD_OP_ALLOC_Q_COUNTER, 0, MLX5V_IFC_BYTES(eth_cmd_in));
	if (cmd(g_in, MLX5V_IFC_BYTES(eth_cmd_in), g_out, MLX5V_IFC_BYTES(alloc_q_counter_out)))
		return 0;
	return MLX5V_GET(alloc_q_counter_out, g_out, counter_set_id);
}

static int
qcnt_dealloc(uint32_t id)
{
	in_init(MLX5V_CMD_OP_DEALLOC_Q_COUNTER, 0, MLX5V_IFC_BYTES(dealloc_q_counter_in));
	MLX5V_SET(dealloc_q_counter_in, g_in, counter_set_id, id);
	return cmd(g_in, MLX5V_IFC_BYTES(dealloc_q_counter_in), g_out, 16);
}

/* A PA key over the whole address space, local read and write (the [K] key). */
static void
mkey_pa_in(uint32_t pd, uint8_t variant)
{
	in_init(MLX5V_CMD_OP_CREATE_MKEY, 0, MLX5V_IFC_BYTES(create_mkey_in));
	MLX5V_SET(create_mkey_in, g_in, mkc.access_mode_1_0, MLX5V_MKC_ACCESS_PA);
	MLX5V_SET(create_mkey_in, g_in, mkc.lw, 1);
	MLX5V_SET(create_mkey_in, g_in, mkc.lr, 1);
	MLX5V_SET(create_mkey_in, g_in, mkc.qpn, QPN_NONE);
	MLX5V_SET(create_mkey_in, g_in, mkc.mkey_7_0, variant);
	MLX5V_SET(create_mkey_in, g_in, mkc.length64, 1);
	MLX5V_SET(create_mkey_in, g_in, mkc.pd, pd);
}

/* An MTT key over npages 4 KiB pages of the MTT area at virtual address va, read-only. */
static size_t
mkey_mtt_in(uint32_t pd, uint64_t va, uint32_t npages)
{
	size_t inlen = MLX5V_IFC_BYTES(create_mkey_in) + 8 * ((npages + 1) & ~1u);
	uint32_t i;

	in_init(MLX5V_CMD_OP_CREATE_MKEY, 0, inlen);
	MLX5V_SET(create_mkey_in, g_in, mkc.access_mode_1_0, MLX5V_MKC_ACCESS_MTT);
	MLX5V_SET(create_mkey_in, g_in, mkc.lr, 1);
	MLX5V_SET(create_mkey_in, g_in, mkc.qpn, QPN_NONE);
	MLX5V_SET(create_mkey_in, g_in, mkc.pd, pd);
	MLX5V_IFC_SET64(create_mkey_in, g_in, mkc.start_addr, va);
	MLX5V_IFC_SET64(create_mkey_in, g_in, mkc.len, (uint64_t)npages * PAGE);
	MLX5V_SET(create_mkey_in, g_in, mkc.log_page_size, 12);
	MLX5V_SET(create_mkey_in, g_in, mkc.translations_octword_size, (npages + 1) / 2);
	MLX5V_SET(create_mkey_in, g_in, translations_octword_actual_size, (npages + 1) / 2);
	for (i = 0; i < npages; i++)
		pas_set(MLX5V_IFC_BYTES(create_mkey_in) + 8 * i,
			(g_iova + MTT_OFF + i * PAGE) | MLX5V_MTT_READ);
	return inlen;
}

static void
tis_in(uint32_t td)
{
	in_init(MLX5V_CMD_OP_CREATE_TIS, 0, MLX5V_IFC_BYTES(create_tis_in));
	MLX5V_SET(create_tis_in, g_in, ctx.transport_domain, td);
}

/* SQ: 64 WQEBBs of 64 bytes in one 4 KiB page, record at DBR_OFF. @return inlen. */
static size_t
sq_in(uint32_t pd, uint32_t cqn, uint32_t tis)
{
	size_t inlen = MLX5V_IFC_BYTES(create_sq_in) + 8;
	uint8_t *wq = MLX5V_IFC_ADDR_OF(create_sq_in, g_in, ctx.wq);

	in_init(MLX5V_CMD_OP_CREATE_SQ, 0, inlen);
	MLX5V_SET(create_sq_in, g_in, ctx.flush_in_error_en, 1);
	MLX5V_SET(create_sq_in, g_in, ctx.cqn, cqn);
	MLX5V_SET(create_sq_in, g_in, ctx.tis_lst_sz, 1);
	MLX5V_SET(create_sq_in, g_in, ctx.tis_num_0, tis);
	MLX5V_SET(wq, wq, wq_type, 1);
	MLX5V_SET(wq, wq, pd, pd);
	MLX5V_SET(wq, wq, uar_page, g_uar->page_id);
	MLX5V_IFC_SET64(wq, wq, dbr_addr, g_iova + DBR_OFF);
	MLX5V_SET(wq, wq, log_wq_stride, 6);
	MLX5V_SET(wq, wq, log_wq_pg_sz, 0);
	MLX5V_SET(wq, wq, log_wq_sz, 6);
	pas_set(MLX5V_IFC_BYTES(create_sq_in), g_iova + WQ_OFF);
	return inlen;
}

/* RQ: 256 WQEs of 16 bytes in one page, record at DBR_OFF + 64. @return inlen. */
static size_t
rq_in(uint32_t pd, uint32_t cqn, uint32_t qcnt)
{
	size_t inlen = MLX5V_IFC_BYTES(create_rq_in) + 8;
	uint8_t *wq = MLX5V_IFC_ADDR_OF(create_rq_in, g_in, ctx.wq);

	in_init(MLX5V_CMD_OP_CREATE_RQ, 0, inlen);
	MLX5V_SET(create_rq_in, g_in, ctx.vsd, 1);
	MLX5V_SET(create_rq_in, g_in, ctx.cqn, cqn);
	MLX5V_SET(create_rq_in, g_in, ctx.counter_set_id, qcnt);
	MLX5V_SET(wq, wq, wq_type, 1);
	MLX5V_SET(wq, wq, pd, pd);
	MLX5V_IFC_SET64(wq, wq, dbr_addr, g_iova + DBR_OFF + 64);
	MLX5V_SET(wq, wq, log_wq_stride, 4);
	MLX5V_SET(wq, wq, log_wq_pg_sz, 0);
	MLX5V_SET(wq, wq, log_wq_sz, 8);
	pas_set(MLX5V_IFC_BYTES(create_rq_in), g_iova + WQ_OFF);
	return inlen;
}

/* MODIFY_SQ / MODIFY_RQ from cur to next. @return status. */
static int
modify_q(int sq, uint32_t qn, uint32_t cur, uint32_t next)
{
	if (sq) {
		in_init(MLX5V_CMD_OP_MODIFY_SQ, 0, MLX5V_IFC_BYTES(modify_sq_in));
		MLX5V_SET(modify_sq_in, g_in, sqn, qn);
		MLX5V_SET(modify_sq_in, g_in, sq_state, cur);
		MLX5V_SET(modify_sq_in, g_in, ctx.state, next);
		return cmd(g_in, MLX5V_IFC_BYTES(modify_sq_in), g_out, 16);
	}
	in_init(MLX5V_CMD_OP_MODIFY_RQ, 0, MLX5V_IFC_BYTES(modify_rq_in));
	MLX5V_SET(modify_rq_in, g_in, rqn, qn);
	MLX5V_SET(modify_rq_in, g_in, rq_state, cur);
	MLX5V_SET(modify_rq_in, g_in, ctx.state, next);
	return cmd(g_in, MLX5V_IFC_BYTES(modify_rq_in), g_out, 16);
}

/* RQT of max entries listing n RQs. @return inlen. */
static size_t
rqt_in(const uint32_t *rqn, uint32_t n, uint32_t max)
{
	size_t inlen = MLX5V_IFC_BYTES(create_rqt_in) + 4 * n;
	uint32_t i;

	in_init(MLX5V_CMD_OP_CREATE_RQT, 0, inlen);
	MLX5V_SET(create_rqt_in, g_in, ctx.rqt_max_size, max);
	MLX5V_SET(create_rqt_in, g_in, ctx.rqt_actual_size, n);
	for (i = 0; i < n; i++)
		rte_pmd_mlx5v_prm_set(g_in + MLX5V_IFC_BYTES(create_rqt_in) + 4 * i, 0, 31, 0,
				      rqn[i]);
	return inlen;
}

static void
tir_direct_in(uint32_t td, uint32_t rqn)
{
	in_init(MLX5V_CMD_OP_CREATE_TIR, 0, MLX5V_IFC_BYTES(create_tir_in));
	MLX5V_SET(create_tir_in, g_in, ctx.disp_type, MLX5V_TIRC_DISP_DIRECT);
	MLX5V_SET(create_tir_in, g_in, ctx.inline_rqn, rqn);
	MLX5V_SET(create_tir_in, g_in, ctx.transport_domain, td);
}

/* Toeplitz over IPv4 + TCP ports with a recognisable key. */
static void
tir_rss_in(uint32_t td, uint32_t rqt)
{
	uint8_t *key;
	unsigned int i;

	in_init(MLX5V_CMD_OP_CREATE_TIR, 0, MLX5V_IFC_BYTES(create_tir_in));
	MLX5V_SET(create_tir_in, g_in, ctx.disp_type, MLX5V_TIRC_DISP_INDIRECT);
	MLX5V_SET(create_tir_in, g_in, ctx.indirect_table, rqt);
	MLX5V_SET(create_tir_in, g_in, ctx.rx_hash_fn, MLX5V_TIRC_HASH_TOEPLITZ);
	MLX5V_SET(create_tir_in, g_in, ctx.transport_domain, td);
	MLX5V_SET(create_tir_in, g_in, ctx.hash_outer_selected_fields,
	    MLX5V_HASH_FIELD_SRC_IP | MLX5V_HASH_FIELD_DST_IP | MLX5V_HASH_FIELD_L4_SPORT |
	    MLX5V_HASH_FIELD_L4_DPORT);
	key = MLX5V_IFC_ADDR_OF(create_tir_in, g_in, ctx.rx_hash_toeplitz_key);
	for (i = 0; i < MLX5V_SIM_ETH_TOEPLITZ_KEY_LEN; i++)
		key[i] = 0x6d + i;
}

static void
ft_in(uint32_t level, uint32_t log_size)
{
	in_init(MLX5V_CMD_OP_CREATE_FLOW_TABLE, 0, MLX5V_IFC_BYTES(create_flow_table_in));
	MLX5V_SET(create_flow_table_in, g_in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_table_in, g_in, ctx.level, level);
	MLX5V_SET(create_flow_table_in, g_in, ctx.log_size, log_size);
}

/* A flow command on table id (DESTROY_FLOW_TABLE, SET_ROOT, DESTROY_GROUP, DELETE_FTE). */
static uint8_t *
ft_obj_in(uint16_t opcode, uint16_t op_mod, uint32_t ft)
{
	in_init(opcode, op_mod, MLX5V_IFC_BYTES(flow_table_obj_in));
	MLX5V_SET(flow_table_obj_in, g_in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(flow_table_obj_in, g_in, table_id, ft);
	return g_in;
}

static int
ft_obj_cmd(void)
{
	return cmd(g_in, MLX5V_IFC_BYTES(flow_table_obj_in), g_out, 16);
}

/* A group over [start, end]: match-all, or a full destination MAC mask. */
static void
fg_in(uint32_t ft, uint32_t start, uint32_t end, int dmac)
{
	in_init(MLX5V_CMD_OP_CREATE_FLOW_GROUP, 0, MLX5V_IFC_BYTES(create_flow_group_in));
	MLX5V_SET(create_flow_group_in, g_in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_group_in, g_in, table_id, ft);
	MLX5V_SET(create_flow_group_in, g_in, start_flow_index, start);
	MLX5V_SET(create_flow_group_in, g_in, end_flow_index, end);
	if (dmac) {
		MLX5V_SET(create_flow_group_in, g_in, match_criteria_enable,
			  MLX5V_MATCH_OUTER_HEADERS);
		MLX5V_SET(create_flow_group_in, g_in, match_criteria.outer_headers.dmac_47_16,
		    0xffffffff);
		MLX5V_SET(create_flow_group_in, g_in, match_criteria.outer_headers.dmac_15_0,
			  0xffff);
	}
}

/* An entry forwarding to one destination (TIR or table); dmac_lo 0 for none. @return inlen */
static size_t
fte_in(uint32_t ft, uint32_t index, uint32_t group, uint32_t dtype, uint32_t dest,
       uint32_t dmac_lo)
{
	size_t inlen = MLX5V_IFC_BYTES(set_fte_in) + MLX5V_IFC_BYTES(dest_format);
	uint8_t *d = g_in + MLX5V_IFC_BYTES(set_fte_in);

	in_init(MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY, 0, inlen);
	MLX5V_SET(set_fte_in, g_in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(set_fte_in, g_in, table_id, ft);
	MLX5V_SET(set_fte_in, g_in, flow_index, index);
	MLX5V_SET(set_fte_in, g_in, ctx.group_id, group);
	MLX5V_SET(set_fte_in, g_in, ctx.action, MLX5V_FTE_ACTION_FWD_DEST);
	MLX5V_SET(set_fte_in, g_in, ctx.destination_list_size, 1);
	MLX5V_SET(set_fte_in, g_in, ctx.flow_tag, 0x1234);
	if (dmac_lo != 0) {
		MLX5V_SET(set_fte_in, g_in, ctx.match_value.outer_headers.dmac_47_16, 0x025e0000);
		MLX5V_SET(set_fte_in, g_in, ctx.match_value.outer_headers.dmac_15_0, dmac_lo);
	}
	MLX5V_SET(dest_format, d, destination_type, dtype);
	MLX5V_SET(dest_format, d, destination_id, dest);
	return inlen;
}

static int
fte_delete(uint32_t ft, uint32_t index)
{
	ft_obj_in(MLX5V_CMD_OP_DELETE_FLOW_TABLE_ENTRY, 0, ft);
	MLX5V_SET(flow_table_obj_in, g_in, flow_index, index);
	return ft_obj_cmd();
}

static int
fg_destroy(uint32_t ft, uint32_t fg)
{
	ft_obj_in(MLX5V_CMD_OP_DESTROY_FLOW_GROUP, 0, ft);
	MLX5V_SET(flow_table_obj_in, g_in, group_id, fg);
	return ft_obj_cmd();
}

static int
ft_destroy(uint32_t ft)
{
	ft_obj_in(MLX5V_CMD_OP_DESTROY_FLOW_TABLE, 0, ft);
	return ft_obj_cmd();
}

/* QUERY_HCA_CAP of type, max or cur, into g_out. @return status. */
static int
query_cap(unsigned int type, int cur)
{
	in_init(MLX5V_CMD_OP_QUERY_HCA_CAP, (type << 1) | (cur ? 1 : 0), 16);
	return cmd(g_in, 16, g_out, MLX5V_IFC_BYTES(query_hca_cap_out));
}

/* ACCESS_REG of register id (size bytes) with data reg; the answer lands in g_out. */
static int
access_reg(uint16_t id, int write, const uint8_t *reg, size_t size)
{
	size_t len = MLX5V_IFC_BYTES(access_reg_in) + size;

	in_init(MLX5V_CMD_OP_ACCESS_REG, write ? MLX5V_ACCESS_REG_WRITE : MLX5V_ACCESS_REG_READ,
		len);
	MLX5V_SET(access_reg_in, g_in, register_id, id);
	memcpy(g_in + MLX5V_IFC_BYTES(access_reg_in), reg, size);
	return cmd(g_in, len, g_out, len);
}

/* ---------------------------------------------------------------- setup */

static int
testsuite_setup(void)
{
	size_t len = (MEM_PAGES + UNMAPPED_PAGES) * PAGE;

	if (rte_vdev_init(VDEV_NAME, VDEV_ARGS) != 0) {
		printf("rte_vdev_init(%s): %s\n", VDEV_NAME, rte_strerror(rte_errno));
		return TEST_FAILED;
	}
	g_dev = (struct mlx5v_dev *)rte_pmd_mlx5v_dev_get(VDEV_NAME);
	g_sim = mlx5v_sim_get(VDEV_NAME);
	if (g_dev == NULL || g_sim == NULL)
		return TEST_FAILED;
	g_uar = rte_pmd_mlx5v_devx_alloc_uar((struct rte_pmd_mlx5v_dev *)g_dev);
	g_mem = rte_zmalloc("ut_eth", len, PAGE);
	if (g_uar == NULL || g_mem == NULL)
		return TEST_FAILED;
	/* Only the first MEM_PAGES are mapped: the rest is memory the device cannot reach. */
	if (rte_pmd_mlx5v_devx_dma_map((struct rte_pmd_mlx5v_dev *)g_dev, g_mem,
				       MEM_PAGES * PAGE, &g_iova) != 0)
		return TEST_FAILED;
	g_cq = mlx5v_devx_cq_create(g_dev, 6, mlx5v_eq_eqn(mlx5v_eq_async(g_dev)), g_uar);
	return g_cq != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
testsuite_teardown(void)
{
	if (g_cq != NULL)
		mlx5v_devx_cq_destroy(g_cq);
	g_cq = NULL;
	if (g_mem != NULL) {
		rte_pmd_mlx5v_devx_dma_unmap((struct rte_pmd_mlx5v_dev *)g_dev, g_mem,
					     MEM_PAGES * PAGE);
		rte_free(g_mem);
	}
	g_mem = NULL;
	if (g_uar != NULL)
		rte_pmd_mlx5v_devx_free_uar(g_uar);
	g_uar = NULL;
	rte_vdev_uninit(VDEV_NAME);
}

/* Every test leaves the function as it found it. */
static int
ut_setup(void)
{
	return live_eth() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static void
ut_teardown(void)
{
	if (live_eth() != 0)
		printf("test left %u Ethernet objects\n", live_eth());
}

/* ---------------------------------------------------------------- the chain */

/*
 * prm/mlx5_eth §1: PD, TD -> MKEY, TIS -> CQ -> SQ/RQ -> RQT -> TIR -> flow table -> group
 * -> entry -> root, then the reverse, with every query agreeing and no object left.
 */
static int
test_eth_chain(void)
{
	uint32_t pd, td, mkey, tis, sqn, rqn[2], qc, rqt, tir_d, tir_r, ft, fg_mac, fg_all;
	uint32_t cqn = g_cq->cqn;
	uint8_t *ctx;
	size_t len;
	unsigned int i;

	pd = pd_alloc();
	td = td_alloc();
	TEST_ASSERT(pd != 0 && td != 0, "PD %u TD %u", pd, td);
	TEST_ASSERT(pd < (1u << 24) && td < (1u << 24), "numbers are 24 bits");
	mkey_pa_in(pd, 0x5a);
	OK(create(MLX5V_IFC_BYTES(create_mkey_in), &mkey), "CREATE_MKEY");
	tis_in(td);
	OK(create(MLX5V_IFC_BYTES(create_tis_in), &tis), "CREATE_TIS");
	qc = qcnt_alloc();
	TEST_ASSERT(qc != 0 && qc < 256, "Q counter %u", qc);
	len = sq_in(pd, cqn, tis);
	OK(create(len, &sqn), "CREATE_SQ");
	for (i = 0; i < 2; i++) {
		len = rq_in(pd, cqn, qc);
		OK(create(len, &rqn[i]), "CREATE_RQ");
	}
	TEST_ASSERT(sqn < (1u << 24) && rqn[0] != rqn[1] && rqn[0] != sqn, "queue numbers");
	/* prm/mlx5_eth §5.2: created in RST, then RDY. */
	OK(modify_q(1, sqn, MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_RDY), "SQ RST->RDY");
	OK(modify_q(0, rqn[0], MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_RDY), "RQ RST->RDY");
	OK(modify_q(0, rqn[1], MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_RDY), "RQ RST->RDY");
	len = rqt_in(rqn, 2, 4);
	OK(create(len, &rqt), "CREATE_RQT");
	tir_direct_in(td, rqn[0]);
	OK(create(MLX5V_IFC_BYTES(create_tir_in), &tir_d), "CREATE_TIR direct");
	tir_rss_in(td, rqt);
	OK(create(MLX5V_IFC_BYTES(create_tir_in), &tir_r), "CREATE_TIR RSS");
	ft_in(0, 4);
	OK(create(MLX5V_IFC_BYTES(create_flow_table_in), &ft), "CREATE_FLOW_TABLE");
	fg_in(ft, 0, 7, 1);
	OK(create(MLX5V_IFC_BYTES(create_flow_group_in), &fg_mac), "CREATE_FLOW_GROUP dmac");
	fg_in(ft, 8, 8, 0);
	OK(create(MLX5V_IFC_BYTES(create_flow_group_in), &fg_all), "CREATE_FLOW_GROUP all");
	len = fte_in(ft, 0, fg_mac, MLX5V_FLOW_DEST_TIR, tir_d, 0x0001);
	OK(cmd(g_in, len, g_out, 16), "SET_FTE dmac");
	len = fte_in(ft, 8, fg_all, MLX5V_FLOW_DEST_TIR, tir_r, 0);
	OK(cmd(g_in, len, g_out, 16), "SET_FTE match-all");
	ft_obj_in(MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT, 0, ft);
	OK(ft_obj_cmd(), "SET_FLOW_TABLE_ROOT");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_PD), 1u, "PDs");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_RQ), 2u, "RQs");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FLOW_GROUP), 2u, "groups");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FTE), 2u, "entries");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_Q_COUNTER), 1u, "Q counters");

	/* The queries give back what was created. */
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_SQ, sqn, MLX5V_IFC_BYTES(query_sq_out)), "QUERY_SQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_sq_out, g_out, ctx.state), MLX5V_SIM_ETH_Q_RDY,
			  "SQ state");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_sq_out, g_out, ctx.cqn), cqn, "SQ cqn");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_sq_out, g_out, ctx.tis_num_0), tis, "SQ tis");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_sq_out, g_out, ctx.wq.pd), pd, "SQ pd");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_sq_out, g_out, ctx.wq.log_wq_sz), 6u, "SQ size");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_RQ, rqn[1], MLX5V_IFC_BYTES(query_rq_out)), "QUERY_RQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_rq_out, g_out, ctx.counter_set_id), qc, "RQ counter");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_rq_out, g_out, ctx.vsd), 1u, "RQ vsd");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_rq_out, g_out, ctx.wq.log_wq_stride), 4u, "RQ stride");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_RQT, rqt, MLX5V_IFC_BYTES(query_rqt_out) + 16), "QUERY_RQT");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_rqt_out, g_out, ctx.rqt_actual_size), 2u, "RQT size");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_prm_get(g_out + MLX5V_IFC_BYTES(query_rqt_out), 1, 31, 0),
			  rqn[1], "RQT entry 1");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_TIR, tir_r, MLX5V_IFC_BYTES(query_tir_out)), "QUERY_TIR");
	ctx = MLX5V_IFC_ADDR_OF(query_tir_out, g_out, ctx);
	TEST_ASSERT_EQUAL(MLX5V_GET(tirc, ctx, rx_hash_fn), MLX5V_TIRC_HASH_TOEPLITZ, "hash fn");
	TEST_ASSERT_EQUAL(MLX5V_GET(tirc, ctx, indirect_table), rqt, "RQT");
	TEST_ASSERT_EQUAL(MLX5V_GET(tirc, ctx, hash_outer_selected_fields), 0xfu, "fields");
	TEST_ASSERT_EQUAL(((uint8_t *)MLX5V_IFC_ADDR_OF(tirc, ctx, rx_hash_toeplitz_key))[39],
			  0x6d + 39, "key");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_TIS, tis, MLX5V_IFC_BYTES(query_tis_out)), "QUERY_TIS");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_tis_out, g_out, ctx.transport_domain), td, "TIS td");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_MKEY, mkey, MLX5V_IFC_BYTES(query_mkey_out)), "QUERY_MKEY");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_mkey_out, g_out, memory_key_mkey_entry.pd), pd,
			  "MKEY pd");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_mkey_out, g_out, memory_key_mkey_entry.mkey_7_0), 0x5au,
			  "MKEY variant");

	/* Reverse order (prm/mlx5_eth §12). */
	ft_obj_in(MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT, 1, 0);
	OK(ft_obj_cmd(), "root disconnect");
	OK(fte_delete(ft, 0), "DELETE_FTE");
	OK(fte_delete(ft, 8), "DELETE_FTE");
	OK(fg_destroy(ft, fg_mac), "DESTROY_FLOW_GROUP");
	OK(fg_destroy(ft, fg_all), "DESTROY_FLOW_GROUP");
	OK(ft_destroy(ft), "DESTROY_FLOW_TABLE");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIR, tir_r), "DESTROY_TIR");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIR, tir_d), "DESTROY_TIR");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQT, rqt), "DESTROY_RQT");
	/* RQs go straight from RDY ([K] mlx5e_close_rq). */
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn[0]), "DESTROY_RQ");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn[1]), "DESTROY_RQ");
	OK(destroy(MLX5V_CMD_OP_DESTROY_SQ, sqn), "DESTROY_SQ");
	OK(qcnt_dealloc(qc), "DEALLOC_Q_COUNTER");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIS, tis), "DESTROY_TIS");
	OK(destroy(MLX5V_CMD_OP_DESTROY_MKEY, mkey), "DESTROY_MKEY");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td), "DEALLOC_TD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "DEALLOC_PD");
	TEST_ASSERT_EQUAL(live_eth(), 0u, "%u objects left", live_eth());
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- PD, TD, MKEY, Q counter */

static int
test_eth_pd_td(void)
{
	uint32_t pd = pd_alloc(), td = td_alloc(), mkey, tis;

	EXPECT(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd + 1), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_PD_NUM, "unknown PD");
	EXPECT(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td + 7),
	       MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_TD_NUM, "unknown TD");
	mkey_pa_in(pd, 0);
	OK(create(MLX5V_IFC_BYTES(create_mkey_in), &mkey), "MKEY");
	tis_in(td);
	OK(create(MLX5V_IFC_BYTES(create_tis_in), &tis), "TIS");
	/* In use: refused, and still there. */
	EXPECT(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_PD_BUSY, "PD with an MKEY");
	EXPECT(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td),
	       MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_TD_BUSY, "TD with a TIS");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_PD), 1u, "PD kept");
	OK(destroy(MLX5V_CMD_OP_DESTROY_MKEY, mkey), "MKEY");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIS, tis), "TIS");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "PD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td), "TD");
	/* Twice: the number names nothing any more. */
	EXPECT(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_PD_NUM, "PD twice");
	return TEST_SUCCESS;
}

/* Creates one object per call until the device refuses; then frees them all. */
typedef int (*ut_make_fn)(uint32_t *id);

static int
exhaust(ut_make_fn make, uint16_t destroy_op, unsigned int expect, uint8_t st,
	uint32_t synd_expect, const char *what)
{
	static uint32_t ids[1u << 12];
	unsigned int n = 0, i;
	int r = 0;
	uint32_t synd;

	while (n < RTE_DIM(ids)) {
		r = make(&ids[n]);
		if (r != 0)
			break;
		n++;
	}
	synd = g_synd;
	for (i = 0; i < n; i++)
		if (destroy_op == MLX5V_CMD_OP_DEALLOC_Q_COUNTER ? qcnt_dealloc(ids[i]) :
				destroy(destroy_op, ids[i]))
			return TEST_FAILED;
	TEST_ASSERT_EQUAL(n, expect, "%s: %u created, the cap says %u", what, n, expect);
	TEST_ASSERT_EQUAL(r, (int)st, "%s: status 0x%x", what, r);
	TEST_ASSERT_EQUAL(synd, synd_expect, "%s: syndrome 0x%x", what, synd);
	return TEST_SUCCESS;
}

static uint32_t g_pd, g_td, g_tis, g_rqn, g_ft;

static int
make_pd(uint32_t *id)
{
	in_init(MLX5V_CMD_OP_ALLOC_PD, 0, 16);
	return create(16, id);
}

static int
make_td(uint32_t *id)
{
	in_init(MLX5V_CMD_OP_ALLOC_TRANSPORT_DOMAIN, 0, 16);
	return create(16, id);
}

static int
make_mkey(uint32_t *id)
{
	mkey_pa_in(g_pd, 1);
	return create(MLX5V_IFC_BYTES(create_mkey_in), id);
}

static int
make_qcnt(uint32_t *id)
{
	*id = qcnt_alloc();
	return *id != 0 ? 0 : MLX5V_GET(eth_cmd_out, g_out, status);
}

static int
make_tis(uint32_t *id)
{
	tis_in(g_td);
	return create(MLX5V_IFC_BYTES(create_tis_in), id);
}

static int
make_sq(uint32_t *id)
{
	return create(sq_in(g_pd, g_cq->cqn, g_tis), id);
}

static int
make_rq(uint32_t *id)
{
	return create(rq_in(g_pd, g_cq->cqn, 0), id);
}

static int
make_rqt(uint32_t *id)
{
	return create(rqt_in(&g_rqn, 1, 1), id);
}

static int
make_tir(uint32_t *id)
{
	tir_direct_in(g_td, g_rqn);
	return create(MLX5V_IFC_BYTES(create_tir_in), id);
}

static int
make_ft(uint32_t *id)
{
	ft_in(0, 0);
	return create(MLX5V_IFC_BYTES(create_flow_table_in), id);
}

static int
make_fg(uint32_t *id)
{
	static uint32_t next;
	int r;

	fg_in(g_ft, next, next, 0);
	r = create(MLX5V_IFC_BYTES(create_flow_group_in), id);
	next = r == 0 ? next + 1 : 0;
	return r;
}

/*
 * The log_max_* capabilities are the model's real limits: exactly 2^log - 1 objects of each
 * kind (number 0 is never used), then LIM_ERR with the kind's syndrome.
 */
static int
test_eth_caps_limits(void)
{
	uint8_t *cap = MLX5V_IFC_ADDR_OF(query_hca_cap_out, g_out, capability);
	uint32_t pd_log, td_log, mkey_log, tis_log, sq_log, rq_log, rqt_log, tir_log, qcnt;
	uint8_t *ft;

	OK(query_cap(MLX5V_CAP_GENERAL, 1), "general cur");
	TEST_ASSERT_EQUAL(MLX5V_GET(cmd_hca_cap_eth, cap, eth_net_offloads), 1u,
			  "eth_net_offloads");
	TEST_ASSERT_EQUAL(MLX5V_GET(cmd_hca_cap_eth, cap, nic_flow_table), 1u, "nic_flow_table");
	TEST_ASSERT_EQUAL(MLX5V_GET(cmd_hca_cap_eth, cap, port_type), 1u, "port_type Ethernet");
	TEST_ASSERT_EQUAL(MLX5V_GET(cmd_hca_cap_eth, cap, num_ports), 1u, "one port per function");
	TEST_ASSERT_EQUAL(MLX5V_GET(cmd_hca_cap_eth, cap, log_bf_reg_size), 9u, "log_bf_reg_size");
	TEST_ASSERT_EQUAL(MLX5V_GET(cmd_hca_cap_eth, cap, terminate_scatter_list_mkey), 1u, "tsl");
	pd_log = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_pd);
	td_log = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_transport_domain);
	mkey_log = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_mkey);
	tis_log = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_tis);
	sq_log = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_sq);
	rq_log = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_rq);
	rqt_log = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_rqt);
	tir_log = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_tir);
	qcnt = MLX5V_GET(cmd_hca_cap_eth, cap, max_qp_cnt);
	TEST_ASSERT(pd_log > 0 && mkey_log > 0 && sq_log > 0 && qcnt > 0, "zero caps");
	/* Types 1 and 7: max equals cur, nothing in them is settable. */
	OK(query_cap(MLX5V_CAP_TYPE_FLOW_TABLE, 0), "flow table max");
	memcpy(g_in + 0x1000, cap, 0x1000);
	OK(query_cap(MLX5V_CAP_TYPE_FLOW_TABLE, 1), "flow table cur");
	TEST_ASSERT(memcmp(g_in + 0x1000, cap, 0x1000) == 0, "flow table max != cur");
	ft = MLX5V_IFC_ADDR_OF(flow_table_nic_cap, cap, flow_table_properties_nic_receive);
	TEST_ASSERT_EQUAL(MLX5V_GET(flow_table_prop_layout, ft, ft_support), 1u, "ft_support");
	TEST_ASSERT_EQUAL(MLX5V_GET(flow_table_prop_layout, ft, ft_field_support.outer_dmac), 1u,
			  "outer dmac");
	TEST_ASSERT_EQUAL(MLX5V_GET(flow_table_prop_layout, ft,
					    ft_field_support.outer_vxlan_vni), 1u,
			  "outer VXLAN VNI");
	TEST_ASSERT_EQUAL(MLX5V_GET(flow_table_prop_layout, ft, ft_field_support.inner_sip), 1u,
			  "inner source IP");
	TEST_ASSERT_EQUAL(MLX5V_GET(flow_table_prop_layout, ft, max_ft_level),
			  MLX5V_SIM_ETH_MAX_FT_LEVEL, "max_ft_level");
	TEST_ASSERT_EQUAL(MLX5V_GET(flow_table_prop_layout, ft, log_max_ft_num),
			  MLX5V_SIM_ETH_LOG_MAX_FT, "log_max_ft_num");
	OK(query_cap(MLX5V_CAP_TYPE_ETH_OFFLOADS, 1), "offloads");
	TEST_ASSERT_EQUAL(MLX5V_GET(eth_offload_cap, cap, csum_cap), 1u, "csum_cap");
	TEST_ASSERT_EQUAL(MLX5V_GET(eth_offload_cap, cap, scatter_fcs), 1u, "scatter_fcs");
	/* wqe_inline_mode follows its knob. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "wqe_inline_mode", 2), "knob");
	OK(query_cap(MLX5V_CAP_TYPE_ETH_OFFLOADS, 1), "offloads");
	TEST_ASSERT_EQUAL(MLX5V_GET(eth_offload_cap, cap, wqe_inline_mode), 2u, "wqe_inline_mode");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "wqe_inline_mode", 0), "knob");

	TEST_ASSERT_SUCCESS(exhaust(make_pd, MLX5V_CMD_OP_DEALLOC_PD, (1u << pd_log) - 1,
				    MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_PD_NONE, "PD"), "PD");
	TEST_ASSERT_SUCCESS(exhaust(make_td, MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN,
				    (1u << td_log) - 1, MLX5V_CMD_STAT_LIM_ERR,
				    MLX5V_SIM_SYND_TD_NONE, "TD"), "TD");
	TEST_ASSERT_SUCCESS(exhaust(make_qcnt, MLX5V_CMD_OP_DEALLOC_Q_COUNTER, qcnt,
				    MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_QCNT_NONE, "Q counter"),
			    "Q counter");
	g_pd = pd_alloc();
	g_td = td_alloc();
	/* MKEY indices 1-4 are the reserved keys. */
	TEST_ASSERT_SUCCESS(exhaust(make_mkey, MLX5V_CMD_OP_DESTROY_MKEY,
				    (1u << mkey_log) - MLX5V_SIM_ETH_MKEY_FIRST,
				    MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_MKEY_NONE, "MKEY"),
			    "MKEY");
	TEST_ASSERT_SUCCESS(exhaust(make_tis, MLX5V_CMD_OP_DESTROY_TIS, (1u << tis_log) - 1,
				    MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_TIS_NONE, "TIS"),
			    "TIS");
	tis_in(g_td);
	OK(create(MLX5V_IFC_BYTES(create_tis_in), &g_tis), "TIS");
	TEST_ASSERT_SUCCESS(exhaust(make_sq, MLX5V_CMD_OP_DESTROY_SQ, (1u << sq_log) - 1,
				    MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_SQ_NONE, "SQ"), "SQ");
	TEST_ASSERT_SUCCESS(exhaust(make_rq, MLX5V_CMD_OP_DESTROY_RQ, (1u << rq_log) - 1,
				    MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_RQ_NONE, "RQ"), "RQ");
	OK(make_rq(&g_rqn), "RQ");
	TEST_ASSERT_SUCCESS(exhaust(make_rqt, MLX5V_CMD_OP_DESTROY_RQT, (1u << rqt_log) - 1,
				    MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_RQT_NONE, "RQT"),
			    "RQT");
	TEST_ASSERT_SUCCESS(exhaust(make_tir, MLX5V_CMD_OP_DESTROY_TIR, (1u << tir_log) - 1,
				    MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_TIR_NONE, "TIR"),
			    "TIR");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, g_rqn), "RQ");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIS, g_tis), "TIS");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, g_pd), "PD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, g_td), "TD");
	return TEST_SUCCESS;
}

/*
 * Flow tables and groups have their own destroy form: log_max_ft_num - 1 tables, and as many
 * groups per table as the model keeps; then LIM_ERR.
 */
static int
test_eth_ft_limits(void)
{
	static uint32_t ids[1u << MLX5V_SIM_ETH_LOG_MAX_FG];
	unsigned int n = 0, i;
	int r = 0;

	while (n < RTE_DIM(ids)) {
		r = make_ft(&ids[n]);
		if (r != 0)
			break;
		n++;
	}
	EXPECT(r, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_FT_NONE, "table past the cap");
	TEST_ASSERT_EQUAL(n, (1u << MLX5V_SIM_ETH_LOG_MAX_FT) - 1, "%u tables", n);
	for (i = 0; i < n; i++)
		OK(ft_destroy(ids[i]), "DESTROY_FLOW_TABLE");
	/* A table of 2^9 entries holds 255 one-entry groups. */
	ft_in(0, 9);
	OK(create(MLX5V_IFC_BYTES(create_flow_table_in), &g_ft), "table");
	n = 0;
	while (n < RTE_DIM(ids)) {
		r = make_fg(&ids[n]);
		if (r != 0)
			break;
		n++;
	}
	EXPECT(r, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_FG_NONE, "group past the cap");
	TEST_ASSERT_EQUAL(n, (1u << MLX5V_SIM_ETH_LOG_MAX_FG) - 1, "%u groups", n);
	for (i = 0; i < n; i++)
		OK(fg_destroy(g_ft, ids[i]), "DESTROY_FLOW_GROUP");
	OK(ft_destroy(g_ft), "table");
	return TEST_SUCCESS;
}

static int
test_eth_mkey(void)
{
	uint32_t pd = pd_alloc(), pd2 = pd_alloc(), pa, mtt, resd;
	uint64_t iova = 0;
	uint64_t va = 0x7f0000000000ull;
	size_t len;

	TEST_ASSERT(pd != 0 && pd2 != 0, "PDs");
	/* QUERY_SPECIAL_CONTEXTS: the reserved lkey translates bus addresses as they are. */
	in_init(MLX5V_CMD_OP_QUERY_SPECIAL_CONTEXTS, 0, 16);
	OK(cmd(g_in, 16, g_out, MLX5V_IFC_BYTES(query_special_contexts_out)), "special");
	resd = MLX5V_GET(query_special_contexts_out, g_out, resd_lkey);
	TEST_ASSERT(resd != 0 && resd != MLX5V_GET(query_special_contexts_out, g_out, null_mkey),
		    "resd_lkey 0x%x", resd);
	/* The reserved lkey only for a queue created with rlky (prm/mlx5_eth §4.2). */
	TEST_ASSERT_EQUAL(mlx5v_sim_mkey_translate(g_sim, 0, resd, g_iova + 64, 64,
						   MLX5V_SIM_ETH_ACC_WRITE, &iova), -EPERM,
			  "resd without rlky");
	TEST_ASSERT_SUCCESS(mlx5v_sim_mkey_translate(g_sim, 0, resd, g_iova + 64, 64,
						     MLX5V_SIM_ETH_ACC_WRITE |
						     MLX5V_SIM_ETH_ACC_RLKY, &iova), "resd");
	TEST_ASSERT_EQUAL(iova, g_iova + 64, "resd iova");
	TEST_ASSERT_EQUAL(mlx5v_sim_mkey_translate(g_sim, 0, resd, g_iova + MEM_PAGES * PAGE, 64,
						   MLX5V_SIM_ETH_ACC_READ | MLX5V_SIM_ETH_ACC_RLKY,
						   &iova), -EFAULT,
			  "resd unmapped");
	/* PA key: the lkey is index << 8 | variant and belongs to its PD. */
	mkey_pa_in(pd, 0x33);
	OK(create(MLX5V_IFC_BYTES(create_mkey_in), &pa), "PA key");
	TEST_ASSERT(pa >= MLX5V_SIM_ETH_MKEY_FIRST && pa < (1u << 24), "index %u", pa);
	TEST_ASSERT_SUCCESS(mlx5v_sim_mkey_translate(g_sim, pd, pa << 8 | 0x33, g_iova, 128,
						     MLX5V_SIM_ETH_ACC_WRITE, &iova), "PA");
	TEST_ASSERT_EQUAL(iova, g_iova, "PA iova");
	TEST_ASSERT_EQUAL(mlx5v_sim_mkey_translate(g_sim, pd2, pa << 8 | 0x33, g_iova, 128,
						   MLX5V_SIM_ETH_ACC_READ, &iova), -EINVAL,
			  "key of another PD");
	TEST_ASSERT_EQUAL(mlx5v_sim_mkey_translate(g_sim, pd, pa << 8 | 0x34, g_iova, 128,
						   MLX5V_SIM_ETH_ACC_READ, &iova), -EINVAL,
			  "wrong variant");
	/* MTT key, read only: VA va maps to the MTT pages. */
	len = mkey_mtt_in(pd, va, 2);
	OK(create(len, &mtt), "MTT key");
	TEST_ASSERT_SUCCESS(mlx5v_sim_mkey_translate(g_sim, pd, mtt << 8, va + PAGE + 16, 32,
						     MLX5V_SIM_ETH_ACC_READ, &iova), "MTT");
	TEST_ASSERT_EQUAL(iova, g_iova + MTT_OFF + PAGE + 16, "MTT iova");
	TEST_ASSERT_EQUAL(mlx5v_sim_mkey_translate(g_sim, pd, mtt << 8, va, 32,
						   MLX5V_SIM_ETH_ACC_WRITE, &iova), -EACCES,
			  "write through a read-only key");
	TEST_ASSERT_EQUAL(mlx5v_sim_mkey_translate(g_sim, pd, mtt << 8, va + 2 * PAGE, 32,
						   MLX5V_SIM_ETH_ACC_READ, &iova), -ERANGE,
			  "past the key");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_MKEY, mtt, MLX5V_IFC_BYTES(query_mkey_out)), "QUERY_MKEY");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_mkey_out, g_out, memory_key_mkey_entry.access_mode_1_0),
			  MLX5V_MKC_ACCESS_MTT, "mode");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET64(query_mkey_out, g_out, memory_key_mkey_entry.len),
			  2ull * PAGE, "len");

	/* Every CREATE_MKEY check. */
	mkey_pa_in(pd + 100, 0);
	EXPECT(create(MLX5V_IFC_BYTES(create_mkey_in), NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_MKEY_PD, "wrong PD");
	mkey_pa_in(pd, 0);
	MLX5V_SET(create_mkey_in, g_in, mkc.access_mode_1_0, 2);
	EXPECT(create(MLX5V_IFC_BYTES(create_mkey_in), NULL), MLX5V_CMD_STAT_BAD_PARAM_ERR,
	       MLX5V_SIM_SYND_MKEY_MODE, "KLM");
	mkey_pa_in(pd, 0);
	MLX5V_SET(create_mkey_in, g_in, mkc.umr_en, 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_mkey_in), NULL), MLX5V_CMD_STAT_BAD_PARAM_ERR,
	       MLX5V_SIM_SYND_MKEY_UNSUPP, "UMR");
	mkey_pa_in(pd, 0);
	MLX5V_SET(create_mkey_in, g_in, mkc.length64, 0);
	EXPECT(create(MLX5V_IFC_BYTES(create_mkey_in), NULL), MLX5V_CMD_STAT_BAD_PARAM_ERR,
	       MLX5V_SIM_SYND_MKEY_RANGE, "empty range");
	len = mkey_mtt_in(pd, va, 2);
	MLX5V_SET(create_mkey_in, g_in, mkc.log_page_size, 11);
	EXPECT(create(len, NULL), MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_MKEY_PAGE_SZ,
	       "2 KiB pages");
	len = mkey_mtt_in(pd, va, 2);
	MLX5V_SET(create_mkey_in, g_in, translations_octword_actual_size, 0);
	EXPECT(create(len, NULL), MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_MKEY_MTT_SIZE,
	       "no MTT");
	len = mkey_mtt_in(pd, va, 2);
	EXPECT(create(len - 8, NULL), MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
	       MLX5V_SIM_SYND_MKEY_MTT_LEN, "MTT beyond inlen");
	len = mkey_mtt_in(pd, va, 2);
	pas_set(MLX5V_IFC_BYTES(create_mkey_in) + 8, g_iova + MTT_OFF + 0x800);
	EXPECT(create(len, NULL), MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_MKEY_MTT_ALIGN,
	       "unaligned MTT");
	len = mkey_mtt_in(pd, va, 2);
	pas_set(MLX5V_IFC_BYTES(create_mkey_in) + 8, g_iova + MEM_PAGES * PAGE);
	EXPECT(create(len, NULL), MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_MKEY_UNMAPPED,
	       "unmapped MTT page");
	/* Too short for the fixed part: the engine's length check. */
	mkey_pa_in(pd, 0);
	EXPECT(create(MLX5V_IFC_BYTES(create_mkey_in) - 0x10, NULL),
	       MLX5V_CMD_STAT_BAD_INP_LEN_ERR, SYND_INLEN, "short CREATE_MKEY");
	/* fail_create_mkey: the next valid create fails, the one after works. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_create_mkey", 1), "knob");
	mkey_pa_in(pd, 0);
	EXPECT(create(MLX5V_IFC_BYTES(create_mkey_in), NULL), MLX5V_CMD_STAT_NO_RES_ERR,
	       MLX5V_SIM_SYND_MKEY_FAULT, "fail_create_mkey");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_MKEY), 2u, "no key from a failed create");
	OK(create(MLX5V_IFC_BYTES(create_mkey_in), &resd), "after the fault");
	OK(destroy(MLX5V_CMD_OP_DESTROY_MKEY, resd), "DESTROY_MKEY");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_MKEY, 1), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_MKEY_NUM, "a reserved key");
	OK(destroy(MLX5V_CMD_OP_DESTROY_MKEY, pa), "DESTROY_MKEY");
	OK(destroy(MLX5V_CMD_OP_DESTROY_MKEY, mtt), "DESTROY_MKEY");
	EXPECT(obj_cmd(MLX5V_CMD_OP_QUERY_MKEY, mtt, MLX5V_IFC_BYTES(query_mkey_out)),
	       MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_MKEY_NUM, "query destroyed key");
	TEST_ASSERT_EQUAL(mlx5v_sim_mkey_translate(g_sim, pd, pa << 8 | 0x33, g_iova, 8,
						   MLX5V_SIM_ETH_ACC_READ, &iova), -EINVAL,
			  "destroyed key");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "PD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd2), "PD");
	return TEST_SUCCESS;
}

static int
test_eth_q_counter(void)
{
	uint32_t pd = pd_alloc(), qc = qcnt_alloc(), rqn;

	TEST_ASSERT(qc != 0, "Q counter");
	in_init(MLX5V_CMD_OP_QUERY_Q_COUNTER, 0, MLX5V_IFC_BYTES(query_q_counter_in));
	MLX5V_SET(query_q_counter_in, g_in, counter_set_id, qc);
	OK(cmd(g_in, MLX5V_IFC_BYTES(query_q_counter_in), g_out,
	       MLX5V_IFC_BYTES(query_q_counter_out)), "QUERY_Q_COUNTER");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_q_counter_out, g_out, out_of_buffer), 0u,
			  "fresh counter");
	MLX5V_SET(query_q_counter_in, g_in, other_vport, 1);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(query_q_counter_in), g_out,
		   MLX5V_IFC_BYTES(query_q_counter_out)), MLX5V_CMD_STAT_BAD_PARAM_ERR,
	       SYND_VPORT, "other vport");
	in_init(MLX5V_CMD_OP_QUERY_Q_COUNTER, 0, MLX5V_IFC_BYTES(query_q_counter_in));
	MLX5V_SET(query_q_counter_in, g_in, counter_set_id, qc + 1);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(query_q_counter_in), g_out,
		   MLX5V_IFC_BYTES(query_q_counter_out)), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_QCNT_NUM, "unknown counter");
	OK(create(rq_in(pd, g_cq->cqn, qc), &rqn), "RQ counting into it");
	EXPECT(qcnt_dealloc(qc), MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_QCNT_BUSY,
	       "counter in use");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn), "RQ");
	OK(qcnt_dealloc(qc), "DEALLOC_Q_COUNTER");
	EXPECT(qcnt_dealloc(qc), MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_QCNT_NUM, "twice");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "PD");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- TIS, SQ, RQ */

static int
test_eth_tis(void)
{
	uint32_t td = td_alloc(), pd = pd_alloc(), tis;

	tis_in(td + 9);
	EXPECT(create(MLX5V_IFC_BYTES(create_tis_in), NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_TIS_TD, "unknown TD");
	tis_in(td);
	MLX5V_SET(create_tis_in, g_in, ctx.pd, pd + 9);
	EXPECT(create(MLX5V_IFC_BYTES(create_tis_in), NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_TIS_PD, "unknown PD");
	tis_in(td);
	MLX5V_SET(create_tis_in, g_in, ctx.lag_tx_port_affinity, 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_tis_in), NULL), MLX5V_CMD_STAT_BAD_PARAM_ERR,
	       MLX5V_SIM_SYND_TIS_LAG, "LAG affinity");
	tis_in(td);
	MLX5V_SET(create_tis_in, g_in, ctx.pd, pd);
	MLX5V_SET(create_tis_in, g_in, ctx.prio, 2);
	OK(create(MLX5V_IFC_BYTES(create_tis_in), &tis), "TIS");
	/* A TIS with a PD pins it. */
	EXPECT(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_PD_BUSY, "PD of a TIS");
	in_init(MLX5V_CMD_OP_MODIFY_TIS, 0, MLX5V_IFC_BYTES(modify_tis_in));
	MLX5V_SET(modify_tis_in, g_in, tisn, tis);
	MLX5V_SET(modify_tis_in, g_in, bitmask, 1);
	MLX5V_SET(modify_tis_in, g_in, ctx.prio, 6);
	OK(cmd(g_in, MLX5V_IFC_BYTES(modify_tis_in), g_out, 16), "MODIFY_TIS prio");
	MLX5V_SET(modify_tis_in, g_in, bitmask, 2);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_tis_in), g_out, 16),
	       MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_TIS_BITMASK, "modify LAG");
	MLX5V_SET(modify_tis_in, g_in, tisn, tis + 1);
	MLX5V_SET(modify_tis_in, g_in, bitmask, 1);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_tis_in), g_out, 16), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_TIS_NUM, "modify unknown TIS");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_TIS, tis, MLX5V_IFC_BYTES(query_tis_out)), "QUERY_TIS");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_tis_out, g_out, ctx.prio), 6u, "prio after modify");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIS, tis), "TIS");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_TIS, tis), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_TIS_NUM, "TIS twice");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "PD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td), "TD");
	return TEST_SUCCESS;
}

/* One CREATE_SQ (sq 1) or CREATE_RQ check: build, break one field, expect. */
#define Q_BAD(sq, mutate, len_delta, st, sy, what) do { \
	uint8_t *w_; \
	size_t l_ = (sq) ? sq_in(pd, cqn, tis) : rq_in(pd, cqn, 0); \
	w_ = (sq) ? MLX5V_IFC_ADDR_OF(create_sq_in, g_in, ctx.wq) : \
		    MLX5V_IFC_ADDR_OF(create_rq_in, g_in, ctx.wq); \
	RTE_SET_USED(w_); \
	mutate; \
	EXPECT(create(l_ + (len_delta), NULL), st, sy, what); \
} while (0)

/* The checks CREATE_SQ and CREATE_RQ share (the wq context, prm/mlx5_eth §4.7). */
static int
wq_checks(int sq, uint32_t pd, uint32_t cqn, uint32_t tis)
{
	const uint8_t bp = MLX5V_CMD_STAT_BAD_PARAM_ERR;

	Q_BAD(sq, MLX5V_SET(wq, w_, wq_type, 3), 0, bp, MLX5V_SIM_SYND_WQ_TYPE, "striding");
	Q_BAD(sq, MLX5V_SET(wq, w_, page_offset, 1), 0, bp, MLX5V_SIM_SYND_WQ_PAGE_OFFSET,
	      "offset");
	Q_BAD(sq, MLX5V_SET(wq, w_, wq_umem_valid, 1), 0, bp, MLX5V_SIM_SYND_WQ_UMEM, "umem");
	Q_BAD(sq, MLX5V_SET(wq, w_, log_wq_sz, MLX5V_SIM_ETH_LOG_MAX_WQ_SZ + 1), 0, bp,
	      MLX5V_SIM_SYND_WQ_SIZE, "size above log_max_wq_sz");
	Q_BAD(sq, MLX5V_SET(wq, w_, log_wq_stride, 3), 0, bp, MLX5V_SIM_SYND_WQ_STRIDE, "stride");
	Q_BAD(sq, MLX5V_SET(wq, w_, pd, pd + 50), 0, MLX5V_CMD_STAT_BAD_RES_ERR,
	      MLX5V_SIM_SYND_WQ_PD, "wrong PD");
	Q_BAD(sq, MLX5V_IFC_SET64(wq, w_, dbr_addr, g_iova + DBR_OFF + 4), 0, bp,
	      MLX5V_SIM_SYND_WQ_DBR, "unaligned record");
	Q_BAD(sq, MLX5V_IFC_SET64(wq, w_, dbr_addr, g_iova + MEM_PAGES * PAGE), 0, bp,
	      MLX5V_SIM_SYND_WQ_DBR, "unmapped record");
	Q_BAD(sq, , -8, MLX5V_CMD_STAT_BAD_INP_LEN_ERR, MLX5V_SIM_SYND_WQ_PAS_LEN,
	      "no PAS");
	Q_BAD(sq, pas_set(MLX5V_IFC_BYTES(create_sq_in), g_iova + 64), 0, bp,
	      MLX5V_SIM_SYND_WQ_PAS_ALIGN, "unaligned PAS");
	Q_BAD(sq, pas_set(MLX5V_IFC_BYTES(create_sq_in), g_iova + MEM_PAGES * PAGE),
	      0, bp, MLX5V_SIM_SYND_WQ_UNMAPPED, "unmapped buffer");
	/* Bigger than the one page the PAS list gives: the rest is not mapped by it. */
	Q_BAD(sq, MLX5V_SET(wq, w_, log_wq_sz, 12), 0, MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
	      MLX5V_SIM_SYND_WQ_PAS_LEN, "PAS shorter than the queue");
	Q_BAD(sq, if (sq) MLX5V_SET(create_sq_in, g_in, ctx.state, 1);
	      else MLX5V_SET(create_rq_in, g_in, ctx.state, 1), 0, bp, MLX5V_SIM_SYND_WQ_STATE,
	      "created in RDY");
	Q_BAD(sq, if (sq) MLX5V_SET(create_sq_in, g_in, ctx.ts_format, 2);
	      else MLX5V_SET(create_rq_in, g_in, ctx.ts_format, 2), 0, bp,
	      MLX5V_SIM_SYND_WQ_TS_FORMAT, "real-time timestamps");
	/* Real-time-only firmware (knob ts_format_cap 1) refuses free-running queues. */
	OK(mlx5v_sim_knob_set(g_sim, "ts_format_cap", 1), "ts_format_cap");
	Q_BAD(sq, , 0, bp, MLX5V_SIM_SYND_WQ_TS_FORMAT, "free-running on real-time firmware");
	Q_BAD(sq, if (sq) MLX5V_SET(create_sq_in, g_in, ctx.ts_format, 3);
	      else MLX5V_SET(create_rq_in, g_in, ctx.ts_format, 3), 0, bp,
	      MLX5V_SIM_SYND_WQ_TS_FORMAT, "ts_format 3");
	OK(mlx5v_sim_knob_set(g_sim, "ts_format_cap", 0), "ts_format_cap");
	Q_BAD(sq, if (sq) MLX5V_SET(create_sq_in, g_in, ctx.cqn, cqn + 1);
	      else MLX5V_SET(create_rq_in, g_in, ctx.cqn, cqn + 1), 0, MLX5V_CMD_STAT_BAD_RES_ERR,
	      MLX5V_SIM_SYND_WQ_CQ, "unknown CQ");
	/* Too short for the fixed part: the engine's length check. */
	Q_BAD(sq, , -0x20, MLX5V_CMD_STAT_BAD_INP_LEN_ERR, SYND_INLEN, "short input");
	return TEST_SUCCESS;
}

static int
test_eth_sq(void)
{
	uint32_t pd = pd_alloc(), td = td_alloc(), tis, sqn, cqn = g_cq->cqn;
	const uint8_t bp = MLX5V_CMD_STAT_BAD_PARAM_ERR;
	uint8_t cq_in[16];

	tis_in(td);
	OK(create(MLX5V_IFC_BYTES(create_tis_in), &tis), "TIS");
	TEST_ASSERT_SUCCESS(wq_checks(1, pd, cqn, tis), "wq checks");
	Q_BAD(1, MLX5V_SET(create_sq_in, g_in, ctx.tis_num_0, tis + 1), 0,
	      MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_SQ_TIS, "unknown TIS");
	Q_BAD(1, MLX5V_SET(create_sq_in, g_in, ctx.tis_lst_sz, 2), 0, bp, MLX5V_SIM_SYND_SQ_TIS_LST,
	      "two TISes");
	Q_BAD(1, MLX5V_SET(wq, w_, uar_page, 0), 0, bp, MLX5V_SIM_SYND_SQ_UAR, "UAR not allocated");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_SQ), 0u, "a failed create left an SQ");
	/* fail_create_sq: one valid create fails with NO_RES, then creates work again. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_create_sq", 1), "knob");
	EXPECT(create(sq_in(pd, cqn, tis), NULL), MLX5V_CMD_STAT_NO_RES_ERR,
	       MLX5V_SIM_SYND_SQ_FAULT, "fail_create_sq");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_SQ), 0u, "fault left an SQ");
	OK(create(sq_in(pd, cqn, tis), &sqn), "CREATE_SQ");
	/* In use: TIS, PD, CQ and UAR stay. */
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_TIS, tis), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_TIS_BUSY, "TIS of an SQ");
	EXPECT(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_PD_BUSY, "PD of an SQ");
	memset(cq_in, 0, sizeof(cq_in));
	MLX5V_SET(eth_obj_in, cq_in, opcode, MLX5V_CMD_OP_DESTROY_CQ);
	MLX5V_SET(eth_obj_in, cq_in, obj_id, cqn);
	EXPECT(cmd(cq_in, 16, g_out, 16), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_CQ_IN_USE, "CQ of an SQ");
	memset(cq_in, 0, sizeof(cq_in));
	MLX5V_SET(eth_obj_in, cq_in, opcode, MLX5V_CMD_OP_DEALLOC_UAR);
	MLX5V_SET(eth_obj_in, cq_in, obj_id, g_uar->page_id);
	EXPECT(cmd(cq_in, 16, g_out, 16), MLX5V_CMD_STAT_BAD_RES_STATE_ERR, SYND_UAR_BUSY,
	       "UAR of an SQ");
	/* The state machine (prm/mlx5_eth §5.2). */
	EXPECT(modify_q(1, sqn, MLX5V_SIM_ETH_Q_RDY, MLX5V_SIM_ETH_Q_RST),
	       MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_Q_CUR_STATE, "wrong sq_state");
	EXPECT(modify_q(1, sqn, MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_ERR), bp,
	       MLX5V_SIM_SYND_Q_TRANSITION, "RST->ERR");
	EXPECT(modify_q(1, sqn, MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_RST), bp,
	       MLX5V_SIM_SYND_Q_TRANSITION, "RST->RST");
	EXPECT(modify_q(1, sqn + 1, MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_RDY),
	       MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_SQ_NUM, "unknown SQ");
	OK(modify_q(1, sqn, MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_RDY), "RST->RDY");
	EXPECT(modify_q(1, sqn, MLX5V_SIM_ETH_Q_RDY, MLX5V_SIM_ETH_Q_ERR), bp,
	       MLX5V_SIM_SYND_Q_TRANSITION, "SQ RDY->ERR is the device's move");
	in_init(MLX5V_CMD_OP_MODIFY_SQ, 0, MLX5V_IFC_BYTES(modify_sq_in));
	MLX5V_SET(modify_sq_in, g_in, sqn, sqn);
	MLX5V_SET(modify_sq_in, g_in, sq_state, MLX5V_SIM_ETH_Q_RDY);
	MLX5V_SET(modify_sq_in, g_in, ctx.state, MLX5V_SIM_ETH_Q_RDY);
	MLX5V_SET(modify_sq_in, g_in, modify_bitmask, 1);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_sq_in), g_out, 16), bp,
	       MLX5V_SIM_SYND_SQ_BITMASK, "rate limit");
	OK(modify_q(1, sqn, MLX5V_SIM_ETH_Q_RDY, MLX5V_SIM_ETH_Q_RST), "RDY->RST");
	OK(modify_q(1, sqn, MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_RDY), "RST->RDY again");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_SQ, sqn, MLX5V_IFC_BYTES(query_sq_out)), "QUERY_SQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_sq_out, g_out, ctx.state), MLX5V_SIM_ETH_Q_RDY, "state");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_sq_out, g_out, ctx.wq.hw_counter), 0u,
			  "counter after RST");
	OK(destroy(MLX5V_CMD_OP_DESTROY_SQ, sqn), "DESTROY_SQ from RDY");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_SQ, sqn), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_SQ_NUM, "SQ twice");
	EXPECT(obj_cmd(MLX5V_CMD_OP_QUERY_SQ, sqn, MLX5V_IFC_BYTES(query_sq_out)),
	       MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_SQ_NUM, "query destroyed SQ");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIS, tis), "TIS");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "PD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td), "TD");
	return TEST_SUCCESS;
}

static int
test_eth_rq(void)
{
	uint32_t pd = pd_alloc(), td = td_alloc(), qc = qcnt_alloc(), qc2 = qcnt_alloc();
	uint32_t cqn = g_cq->cqn, tis = 0, rqn, tir;
	const uint8_t bp = MLX5V_CMD_STAT_BAD_PARAM_ERR;

	TEST_ASSERT_SUCCESS(wq_checks(0, pd, cqn, tis), "wq checks");
	Q_BAD(0, MLX5V_SET(create_rq_in, g_in, ctx.counter_set_id, 200), 0,
	      MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQ_QCNT, "unknown Q counter");
	Q_BAD(0, MLX5V_SET(create_rq_in, g_in, ctx.mem_rq_type, 1), 0, bp,
	      MLX5V_SIM_SYND_RQ_MEM_TYPE, "RMP");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_create_rq", 1), "knob");
	EXPECT(create(rq_in(pd, cqn, qc), NULL), MLX5V_CMD_STAT_NO_RES_ERR,
	       MLX5V_SIM_SYND_RQ_FAULT, "fail_create_rq");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_RQ), 0u, "fault left an RQ");
	OK(create(rq_in(pd, cqn, qc), &rqn), "CREATE_RQ");
	/* RQ-only transitions: RDY->ERR on request, ERR->RST, never ERR->RDY. */
	OK(modify_q(0, rqn, MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_RDY), "RST->RDY");
	OK(modify_q(0, rqn, MLX5V_SIM_ETH_Q_RDY, MLX5V_SIM_ETH_Q_ERR), "RDY->ERR");
	EXPECT(modify_q(0, rqn, MLX5V_SIM_ETH_Q_ERR, MLX5V_SIM_ETH_Q_RDY), bp,
	       MLX5V_SIM_SYND_Q_TRANSITION, "ERR->RDY");
	EXPECT(modify_q(0, rqn, MLX5V_SIM_ETH_Q_RDY, MLX5V_SIM_ETH_Q_RST),
	       MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_Q_CUR_STATE, "not in RDY");
	OK(modify_q(0, rqn, MLX5V_SIM_ETH_Q_ERR, MLX5V_SIM_ETH_Q_RST), "ERR->RST");
	OK(modify_q(0, rqn, MLX5V_SIM_ETH_Q_RST, MLX5V_SIM_ETH_Q_RDY), "RST->RDY");
	/* RDY->RDY with the counter moved to another Q counter. */
	in_init(MLX5V_CMD_OP_MODIFY_RQ, 0, MLX5V_IFC_BYTES(modify_rq_in));
	MLX5V_SET(modify_rq_in, g_in, rqn, rqn);
	MLX5V_SET(modify_rq_in, g_in, rq_state, MLX5V_SIM_ETH_Q_RDY);
	MLX5V_SET(modify_rq_in, g_in, ctx.state, MLX5V_SIM_ETH_Q_RDY);
	MLX5V_SET(modify_rq_in, g_in, modify_bitmask, MLX5V_MODIFY_RQ_COUNTER_SET_ID |
	    MLX5V_MODIFY_RQ_VSD);
	MLX5V_SET(modify_rq_in, g_in, ctx.counter_set_id, 250);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_rq_in), g_out, 16), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_RQ_QCNT, "modify to an unknown counter");
	MLX5V_SET(modify_rq_in, g_in, ctx.counter_set_id, qc2);
	OK(cmd(g_in, MLX5V_IFC_BYTES(modify_rq_in), g_out, 16), "MODIFY_RQ counter");
	MLX5V_SET(modify_rq_in, g_in, modify_bitmask, 0x10);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_rq_in), g_out, 16), bp,
	       MLX5V_SIM_SYND_RQ_BITMASK, "unknown modify bit");
	OK(qcnt_dealloc(qc), "the old counter is free");
	EXPECT(qcnt_dealloc(qc2), MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_QCNT_BUSY,
	       "the new one is in use");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_RQ, rqn, MLX5V_IFC_BYTES(query_rq_out)), "QUERY_RQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_rq_out, g_out, ctx.counter_set_id), qc2, "counter");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_rq_out, g_out, ctx.vsd), 0u, "vsd cleared");
	/* An RQ behind a TIR stays. */
	tir_direct_in(td, rqn);
	OK(create(MLX5V_IFC_BYTES(create_tir_in), &tir), "TIR");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_RQ_BUSY, "RQ of a TIR");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIR, tir), "TIR");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn), "RQ");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_RQ_NUM, "RQ twice");
	OK(qcnt_dealloc(qc2), "counter");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "PD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td), "TD");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- RQT, TIR */

static int
test_eth_rqt_tir(void)
{
	uint32_t pd = pd_alloc(), td = td_alloc(), rqn[3], rqt, rqt2, tir, bad[1];
	const uint8_t bp = MLX5V_CMD_STAT_BAD_PARAM_ERR;
	unsigned int i;
	size_t len;

	for (i = 0; i < 3; i++)
		OK(create(rq_in(pd, g_cq->cqn, 0), &rqn[i]), "RQ");
	/* RQT checks. */
	EXPECT(create(rqt_in(rqn, 2, 1), NULL), bp, MLX5V_SIM_SYND_RQT_SIZE, "actual > max");
	EXPECT(create(rqt_in(rqn, 2, (1u << MLX5V_SIM_ETH_LOG_MAX_RQT_SIZE) + 1), NULL), bp,
	       MLX5V_SIM_SYND_RQT_SIZE, "max above log_max_rqt_size");
	len = rqt_in(rqn, 2, 1u << MLX5V_SIM_ETH_LOG_MAX_RQT_SIZE);
	EXPECT(create(len - 4, NULL), MLX5V_CMD_STAT_BAD_INP_LEN_ERR, MLX5V_SIM_SYND_RQT_LEN,
	       "list beyond inlen");
	bad[0] = rqn[2] + 100;
	EXPECT(create(rqt_in(bad, 1, 1), NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_RQT_RQ, "unknown RQ");
	len = rqt_in(rqn, 1, 1);
	MLX5V_SET(create_rqt_in, g_in, ctx.list_q_type, 1);
	EXPECT(create(len, NULL), bp, MLX5V_SIM_SYND_RQT_LIST_TYPE, "list type");
	OK(create(rqt_in(rqn, 2, 4), &rqt), "RQT");
	/* An RQ in an RQT stays. */
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn[1]), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_RQ_BUSY, "RQ of an RQT");
	/* MODIFY_RQT: repoint to rqn[2]; rqn[1] becomes free. */
	in_init(MLX5V_CMD_OP_MODIFY_RQT, 0, MLX5V_IFC_BYTES(modify_rqt_in) + 8);
	MLX5V_SET(modify_rqt_in, g_in, rqtn, rqt);
	MLX5V_SET(modify_rqt_in, g_in, bitmask, 1);
	MLX5V_SET(modify_rqt_in, g_in, ctx.rqt_actual_size, 2);
	rte_pmd_mlx5v_prm_set(g_in + MLX5V_IFC_BYTES(modify_rqt_in), 0, 31, 0, rqn[0]);
	rte_pmd_mlx5v_prm_set(g_in + MLX5V_IFC_BYTES(modify_rqt_in), 1, 31, 0, rqn[2]);
	OK(cmd(g_in, MLX5V_IFC_BYTES(modify_rqt_in) + 8, g_out, 16), "MODIFY_RQT");
	MLX5V_SET(modify_rqt_in, g_in, bitmask, 2);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_rqt_in) + 8, g_out, 16), bp,
	       MLX5V_SIM_SYND_RQT_BITMASK, "unknown modify bit");
	MLX5V_SET(modify_rqt_in, g_in, bitmask, 1);
	MLX5V_SET(modify_rqt_in, g_in, ctx.rqt_actual_size, 5);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_rqt_in) + 8, g_out, 16), bp,
	       MLX5V_SIM_SYND_RQT_SIZE, "beyond the table's max");
	MLX5V_SET(modify_rqt_in, g_in, rqtn, rqt + 1);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_rqt_in) + 8, g_out, 16),
	       MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQT_NUM, "unknown RQT");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn[1]), "RQ out of the RQT");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn[2]), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_RQ_BUSY, "RQ now in the RQT");

	/* TIR checks. */
	tir_rss_in(td, rqt);
	MLX5V_SET(create_tir_in, g_in, ctx.disp_type, 2);
	EXPECT(create(MLX5V_IFC_BYTES(create_tir_in), NULL), bp, MLX5V_SIM_SYND_TIR_DISP,
	       "disp_type 2");
	tir_rss_in(td, rqt);
	MLX5V_SET(create_tir_in, g_in, ctx.packet_merge_mask, 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_tir_in), NULL), bp, MLX5V_SIM_SYND_TIR_LRO,
	       "LRO");
	tir_rss_in(td, rqt);
	MLX5V_SET(create_tir_in, g_in, ctx.rx_hash_fn, MLX5V_TIRC_HASH_NONE);
	EXPECT(create(MLX5V_IFC_BYTES(create_tir_in), NULL), bp, MLX5V_SIM_SYND_TIR_HASH,
	       "indirect without hash");
	tir_rss_in(td, rqt);
	MLX5V_SET(create_tir_in, g_in, ctx.hash_outer_selected_fields, 0x20);
	EXPECT(create(MLX5V_IFC_BYTES(create_tir_in), NULL), bp, MLX5V_SIM_SYND_TIR_HASH,
	       "unknown hash field");
	tir_direct_in(td, rqn[0]);
	MLX5V_SET(create_tir_in, g_in, ctx.rx_hash_fn, MLX5V_TIRC_HASH_TOEPLITZ);
	EXPECT(create(MLX5V_IFC_BYTES(create_tir_in), NULL), bp, MLX5V_SIM_SYND_TIR_HASH,
	       "direct with a hash");
	tir_rss_in(td + 1, rqt);
	EXPECT(create(MLX5V_IFC_BYTES(create_tir_in), NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_TIR_TD, "unknown TD");
	tir_rss_in(td, rqt + 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_tir_in), NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_TIR_RQT, "unknown RQT");
	tir_direct_in(td, rqn[1]);
	EXPECT(create(MLX5V_IFC_BYTES(create_tir_in), NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_TIR_RQ, "destroyed RQ");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_create_tir", 1), "knob");
	tir_rss_in(td, rqt);
	EXPECT(create(MLX5V_IFC_BYTES(create_tir_in), NULL), MLX5V_CMD_STAT_NO_RES_ERR,
	       MLX5V_SIM_SYND_TIR_FAULT, "fail_create_tir");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_TIR), 0u, "fault left a TIR");
	OK(create(MLX5V_IFC_BYTES(create_tir_in), &tir), "TIR");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_RQT, rqt), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_RQT_BUSY, "RQT of a TIR");
	EXPECT(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td),
	       MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_TD_BUSY, "TD of a TIR");
	/* MODIFY_TIR: a new RQT and a new hash; the old RQT is then free. */
	OK(create(rqt_in(&rqn[0], 1, 1), &rqt2), "second RQT");
	in_init(MLX5V_CMD_OP_MODIFY_TIR, 0, MLX5V_IFC_BYTES(modify_tir_in));
	MLX5V_SET(modify_tir_in, g_in, tirn, tir);
	MLX5V_SET(modify_tir_in, g_in, bitmask, MLX5V_MODIFY_TIR_INDIRECT_TABLE |
	    MLX5V_MODIFY_TIR_HASH);
	MLX5V_SET(modify_tir_in, g_in, ctx.indirect_table, rqt2);
	MLX5V_SET(modify_tir_in, g_in, ctx.rx_hash_fn, MLX5V_TIRC_HASH_XOR8);
	MLX5V_SET(modify_tir_in, g_in, ctx.hash_outer_selected_fields, MLX5V_HASH_FIELD_SRC_IP);
	OK(cmd(g_in, MLX5V_IFC_BYTES(modify_tir_in), g_out, 16), "MODIFY_TIR");
	MLX5V_SET(modify_tir_in, g_in, bitmask, MLX5V_MODIFY_TIR_LRO);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_tir_in), g_out, 16), bp,
	       MLX5V_SIM_SYND_TIR_BITMASK, "modify LRO");
	MLX5V_SET(modify_tir_in, g_in, bitmask, 0);
	MLX5V_SET(modify_tir_in, g_in, tirn, tir + 1);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(modify_tir_in), g_out, 16), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_TIR_NUM, "unknown TIR");
	OK(obj_cmd(MLX5V_CMD_OP_QUERY_TIR, tir, MLX5V_IFC_BYTES(query_tir_out)), "QUERY_TIR");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_tir_out, g_out, ctx.indirect_table), rqt2, "new RQT");
	TEST_ASSERT_EQUAL(MLX5V_GET(query_tir_out, g_out, ctx.rx_hash_fn), MLX5V_TIRC_HASH_XOR8,
			  "new hash");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQT, rqt), "old RQT is free");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIR, tir), "TIR");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_TIR, tir), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_TIR_NUM, "TIR twice");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_RQT, rqt), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_RQT_NUM, "RQT twice");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQT, rqt2), "RQT");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn[0]), "RQ");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn[2]), "RQ");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "PD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td), "TD");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- flow tables */

static int
test_eth_flow(void)
{
	uint32_t pd = pd_alloc(), td = td_alloc(), rqn, tir, ft0, ft1, fg, fg1, fg_all;
	const uint8_t bp = MLX5V_CMD_STAT_BAD_PARAM_ERR;
	size_t len;

	OK(create(rq_in(pd, g_cq->cqn, 0), &rqn), "RQ");
	tir_direct_in(td, rqn);
	OK(create(MLX5V_IFC_BYTES(create_tir_in), &tir), "TIR");
	/* CREATE_FLOW_TABLE checks. */
	ft_in(0, 4);
	MLX5V_SET(create_flow_table_in, g_in, table_type, 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_table_in), NULL), bp, MLX5V_SIM_SYND_FT_TYPE,
	       "NIC TX");
	ft_in(0, 4);
	MLX5V_SET(create_flow_table_in, g_in, other_vport, 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_table_in), NULL), bp, SYND_VPORT,
	       "other vport");
	ft_in(MLX5V_SIM_ETH_MAX_FT_LEVEL + 1, 4);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_table_in), NULL), bp, MLX5V_SIM_SYND_FT_LEVEL,
	       "level above max_ft_level");
	ft_in(0, MLX5V_SIM_ETH_LOG_MAX_FT_SIZE + 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_table_in), NULL), bp, MLX5V_SIM_SYND_FT_SIZE,
	       "size above log_max_ft_size");
	ft_in(0, 4);
	MLX5V_SET(create_flow_table_in, g_in, ctx.table_miss_action, 2);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_table_in), NULL), bp, MLX5V_SIM_SYND_FT_MISS,
	       "miss action 2");
	ft_in(1, 4);
	OK(create(MLX5V_IFC_BYTES(create_flow_table_in), &ft1), "level-1 table");
	ft_in(1, 4);
	MLX5V_SET(create_flow_table_in, g_in, ctx.table_miss_action, MLX5V_FT_MISS_FWD);
	MLX5V_SET(create_flow_table_in, g_in, ctx.table_miss_id, ft1);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_table_in), NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_FT_MISS_ID, "miss to the same level");
	MLX5V_SET(create_flow_table_in, g_in, ctx.level, 0);
	OK(create(MLX5V_IFC_BYTES(create_flow_table_in), &ft0), "root table, miss to ft1");
	EXPECT(ft_destroy(ft1), MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_FT_BUSY,
	       "miss target");
	EXPECT(ft_destroy(ft1 + 100), MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FT_NUM,
	       "unknown table");

	/* Groups. */
	fg_in(ft0, 4, 2, 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_group_in), NULL), bp, MLX5V_SIM_SYND_FG_RANGE,
	       "start > end");
	fg_in(ft0, 0, 16, 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_group_in), NULL), bp, MLX5V_SIM_SYND_FG_RANGE,
	       "past the table");
	fg_in(ft0, 0, 3, 1);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria.outer_headers.ip_dscp, 0x3f);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_group_in), NULL), bp,
	       MLX5V_SIM_SYND_FG_CRITERIA, "DSCP mask (not modelled)");
	fg_in(ft0, 0, 3, 1);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria_enable, 0x9);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_group_in), NULL), bp,
	       MLX5V_SIM_SYND_FG_CRITERIA, "misc parameters 2 (not modelled)");
	fg_in(ft0, 0, 3, 1);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria_enable, 3);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria.misc_parameters.vxlan_vni, 0xffffff);
	g_in[MLX5V_IFC_BYTE_OFF(create_flow_group_in, match_criteria.misc_parameters)] = 0xff;
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_group_in), NULL), bp,
	       MLX5V_SIM_SYND_FG_CRITERIA, "misc source_sqn (not modelled)");
	/* Misc 3's ICMP fields need the flex parser, the VNI and inner fields the caps. */
	OK(mlx5v_sim_knob_set(g_sim, "flex_parser_icmp", 2), "flex_parser_icmp");
	fg_in(ft0, 0, 3, 0);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria_enable, MLX5V_MATCH_MISC_PARAMETERS_3);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria.misc_parameters_3.icmp_type, 0xff);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_group_in), NULL), bp,
	       MLX5V_SIM_SYND_FG_CRITERIA, "ICMP type without the ICMP flex parser");
	OK(mlx5v_sim_knob_set(g_sim, "flex_parser_icmp", 3), "flex_parser_icmp");
	OK(mlx5v_sim_knob_set(g_sim, "ft_tunnel", 0), "ft_tunnel");
	fg_in(ft0, 0, 3, 0);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria_enable, MLX5V_MATCH_INNER_HEADERS);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria.inner_headers.ip_protocol, 0xff);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_group_in), NULL), bp,
	       MLX5V_SIM_SYND_FG_CRITERIA, "inner headers without ft_field_support");
	OK(mlx5v_sim_knob_set(g_sim, "ft_tunnel", 1), "ft_tunnel");
	fg_in(ft0, 0, 3, 0);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria_enable, MLX5V_MATCH_MISC_PARAMETERS |
	    MLX5V_MATCH_INNER_HEADERS | MLX5V_MATCH_MISC_PARAMETERS_3);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria.misc_parameters.vxlan_vni, 0xffffff);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria.inner_headers.ip_protocol, 0xff);
	MLX5V_SET(create_flow_group_in, g_in, match_criteria.misc_parameters_3.icmpv6_type, 0xff);
	OK(create(MLX5V_IFC_BYTES(create_flow_group_in), &fg), "VNI, inner and ICMPv6 group");
	OK(fg_destroy(ft0, fg), "destroy it");
	fg_in(ft0 + 100, 0, 3, 1);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_group_in), NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_FT_NUM, "group in an unknown table");
	fg_in(ft0, 0, 3, 1);
	OK(create(MLX5V_IFC_BYTES(create_flow_group_in), &fg), "DMAC group");
	fg_in(ft0, 3, 5, 0);
	EXPECT(create(MLX5V_IFC_BYTES(create_flow_group_in), NULL), bp,
	       MLX5V_SIM_SYND_FG_OVERLAP, "overlap");
	fg_in(ft0, 15, 15, 0);
	OK(create(MLX5V_IFC_BYTES(create_flow_group_in), &fg_all), "match-all group");
	fg_in(ft1, 0, 0, 0);
	OK(create(MLX5V_IFC_BYTES(create_flow_group_in), &fg1), "group of ft1");

	/* Entries. */
	len = fte_in(ft0, 7, fg, MLX5V_FLOW_DEST_TIR, tir, 1);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_INDEX, "index in no group");
	len = fte_in(ft0, 1, fg_all, MLX5V_FLOW_DEST_TIR, tir, 1);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_GROUP, "another group's id");
	len = fte_in(ft0, 15, fg_all, MLX5V_FLOW_DEST_TIR, tir, 1);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_MATCH,
	       "DMAC value in a match-all group");
	len = fte_in(ft0, 1, fg, MLX5V_FLOW_DEST_TIR, tir, 1);
	MLX5V_SET(set_fte_in, g_in, ctx.action, MLX5V_FTE_ACTION_FWD_DEST | MLX5V_FTE_ACTION_COUNT);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_ACTION, "counter action");
	len = fte_in(ft0, 1, fg, MLX5V_FLOW_DEST_TIR, tir, 1);
	MLX5V_SET(set_fte_in, g_in, ctx.destination_list_size, 0);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_ACTION, "forward nowhere");
	len = fte_in(ft0, 1, fg, MLX5V_FLOW_DEST_TIR, tir, 1);
	EXPECT(cmd(g_in, len - 8, g_out, 16), MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
	       MLX5V_SIM_SYND_FTE_DEST_LEN, "destination beyond inlen");
	len = fte_in(ft0, 1, fg, 0, 0, 1);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_DEST_TYPE, "vport destination");
	len = fte_in(ft0, 1, fg, MLX5V_FLOW_DEST_TIR, tir, 1);
	MLX5V_SET(set_fte_in, g_in, ctx.destination_list_size,
	    (1u << MLX5V_SIM_ETH_LOG_MAX_DEST) + 1);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_DEST_TYPE,
	       "more than log_max_destination");
	len = fte_in(ft0, 1, fg, MLX5V_FLOW_DEST_TIR, tir + 1, 1);
	EXPECT(cmd(g_in, len, g_out, 16), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_FTE_DEST_ID, "unknown TIR");
	len = fte_in(ft1, 0, fg1, MLX5V_FLOW_DEST_FLOW_TABLE, ft0, 0);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_DEST_LEVEL,
	       "forward up the levels");
	MLX5V_SET(set_fte_in, g_in, ignore_flow_level, 1);
	OK(cmd(g_in, len, g_out, 16), "with ignore_flow_level");
	OK(fte_delete(ft1, 0), "DELETE_FTE");
	len = fte_in(ft0, 1, fg, MLX5V_FLOW_DEST_TIR, tir, 1);
	OK(cmd(g_in, len, g_out, 16), "SET_FTE dmac -> TIR");
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_DUP, "index used");
	len = fte_in(ft0, 15, fg_all, MLX5V_FLOW_DEST_FLOW_TABLE, ft1, 0);
	OK(cmd(g_in, len, g_out, 16), "match-all -> level-1 table");
	len = fte_in(ft1, 0, fg1, MLX5V_FLOW_DEST_TIR, tir, 0);
	OK(cmd(g_in, len, g_out, 16), "ft1 -> TIR");
	/* DROP needs no destination. */
	len = fte_in(ft0, 2, fg, MLX5V_FLOW_DEST_TIR, tir, 2);
	MLX5V_SET(set_fte_in, g_in, ctx.action, MLX5V_FTE_ACTION_DROP);
	MLX5V_SET(set_fte_in, g_in, ctx.destination_list_size, 0);
	OK(cmd(g_in, len, g_out, 16), "drop entry");

	/* The root, and what is in use. */
	ft_obj_in(MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT, 0, ft0 + 100);
	EXPECT(ft_obj_cmd(), MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FT_NUM, "unknown root");
	ft_obj_in(MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT, 0, ft0);
	OK(ft_obj_cmd(), "SET_FLOW_TABLE_ROOT");
	EXPECT(destroy(MLX5V_CMD_OP_DESTROY_TIR, tir), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
	       MLX5V_SIM_SYND_TIR_BUSY, "TIR of an entry");
	EXPECT(fg_destroy(ft0, fg), MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_FG_BUSY,
	       "group with entries");
	EXPECT(fg_destroy(ft0, fg + 50), MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FG_NUM,
	       "unknown group");
	EXPECT(fte_delete(ft0, 3), MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FTE_NUM,
	       "empty index");
	OK(fte_delete(ft0, 1), "DELETE_FTE");
	OK(fte_delete(ft0, 2), "DELETE_FTE");
	OK(fte_delete(ft1, 0), "DELETE_FTE");
	OK(fg_destroy(ft0, fg), "group");
	OK(fg_destroy(ft1, fg1), "group");
	EXPECT(ft_destroy(ft0), MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_FT_BUSY,
	       "root table with a group");
	OK(fte_delete(ft0, 15), "DELETE_FTE");
	OK(fg_destroy(ft0, fg_all), "group");
	EXPECT(ft_destroy(ft0), MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_FT_BUSY,
	       "the root");
	ft_obj_in(MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT, 1, 0);
	OK(ft_obj_cmd(), "disconnect the root");
	OK(ft_destroy(ft0), "table");
	OK(ft_destroy(ft1), "miss target now free");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIR, tir), "TIR");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn), "RQ");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "PD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td), "TD");
	/* SET_FTE op_mod 1 (modify) is not modelled: the engine refuses the op_mod. */
	in_init(MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY, 1, MLX5V_IFC_BYTES(set_fte_in));
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(set_fte_in), g_out, 16), bp, SYND_BAD_OP_MOD,
	       "modify entry");
	return TEST_SUCCESS;
}

/* ALLOC/QUERY/DEALLOC_FLOW_COUNTER of counter id. @return status. */
static int
fcnt_cmd(uint16_t opcode, uint32_t id, uint32_t *out_id)
{
	int st;

	if (opcode == MLX5V_CMD_OP_QUERY_FLOW_COUNTER) {
		in_init(opcode, 0, MLX5V_IFC_BYTES(query_flow_counter_in));
		MLX5V_SET(query_flow_counter_in, g_in, flow_counter_id, id);
		return cmd(g_in, MLX5V_IFC_BYTES(query_flow_counter_in), g_out,
			   MLX5V_IFC_BYTES(query_flow_counter_out));
	}
	in_init(opcode, 0, MLX5V_IFC_BYTES(dealloc_flow_counter_in));
	MLX5V_SET(dealloc_flow_counter_in, g_in, flow_counter_id, id);
	st = cmd(g_in, MLX5V_IFC_BYTES(dealloc_flow_counter_in), g_out, 16);
	if (st == 0 && out_id != NULL)
		*out_id = MLX5V_GET(alloc_flow_counter_out, g_out, flow_counter_id);
	return st;
}

/* A counting entry: the counter list after its one destination (prm/mlx5_eth §4.10). */
static size_t
fte_count_in(uint32_t ft, uint32_t fg, uint32_t tir, uint32_t counter, uint32_t nc)
{
	size_t len = fte_in(ft, 0, fg, MLX5V_FLOW_DEST_TIR, tir, 0);

	MLX5V_SET(set_fte_in, g_in, ctx.action, MLX5V_FTE_ACTION_FWD_DEST | MLX5V_FTE_ACTION_COUNT);
	MLX5V_SET(set_fte_in, g_in, ctx.flow_counter_list_size, nc);
	MLX5V_SET(flow_counter_list, g_in + len, flow_counter_id, counter);
	return len + MLX5V_IFC_BYTES(flow_counter_list);
}

/*
 * Flow counters: ALLOC gives an id QUERY reads as 0/0; an entry counts only into a counter
 * allocated; a counter an entry uses stays; after DEALLOC the id names nothing.
 */
static int
test_eth_flow_counter(void)
{
	uint32_t pd = pd_alloc(), td = td_alloc(), rqn, tir, ft, fg, fc;
	const uint8_t bp = MLX5V_CMD_STAT_BAD_PARAM_ERR;
	size_t len;

	OK(create(rq_in(pd, g_cq->cqn, 0), &rqn), "RQ");
	tir_direct_in(td, rqn);
	OK(create(MLX5V_IFC_BYTES(create_tir_in), &tir), "TIR");
	ft_in(0, 2);
	OK(create(MLX5V_IFC_BYTES(create_flow_table_in), &ft), "table");
	fg_in(ft, 0, 0, 0);
	OK(create(MLX5V_IFC_BYTES(create_flow_group_in), &fg), "group");
	OK(fcnt_cmd(MLX5V_CMD_OP_ALLOC_FLOW_COUNTER, 0, &fc), "ALLOC_FLOW_COUNTER");
	TEST_ASSERT_EQUAL(live(MLX5V_SIM_OBJ_FLOW_COUNTER), 1u, "one counter");
	MLX5V_SET(alloc_flow_counter_in, g_in, flow_counter_bulk, 1);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(alloc_flow_counter_in), g_out, 16), bp,
	       MLX5V_SIM_SYND_FCNT_PARAM, "bulk allocation");
	OK(fcnt_cmd(MLX5V_CMD_OP_QUERY_FLOW_COUNTER, fc, NULL), "QUERY_FLOW_COUNTER");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET64(query_flow_counter_out, g_out, packets), 0u, "packets");
	TEST_ASSERT_EQUAL(MLX5V_IFC_GET64(query_flow_counter_out, g_out, octets), 0u, "octets");
	len = fte_count_in(ft, fg, tir, fc + 1, 1);
	EXPECT(cmd(g_in, len, g_out, 16), MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FTE_COUNTER,
	       "counter never allocated");
	len = fte_count_in(ft, fg, tir, fc, 0);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_ACTION, "COUNT without a list");
	len = fte_count_in(ft, fg, tir, fc, 1);
	MLX5V_SET(set_fte_in, g_in, ctx.action, MLX5V_FTE_ACTION_FWD_DEST);
	EXPECT(cmd(g_in, len, g_out, 16), bp, MLX5V_SIM_SYND_FTE_ACTION, "a list without COUNT");
	len = fte_count_in(ft, fg, tir, fc, 1);
	EXPECT(cmd(g_in, len - 8, g_out, 16), MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
	       MLX5V_SIM_SYND_FTE_DEST_LEN, "counter list beyond inlen");
	OK(cmd(g_in, len, g_out, 16), "counting entry");
	EXPECT(fcnt_cmd(MLX5V_CMD_OP_DEALLOC_FLOW_COUNTER, fc, NULL),
	       MLX5V_CMD_STAT_BAD_RES_STATE_ERR, MLX5V_SIM_SYND_FCNT_BUSY, "counter in use");
	OK(fte_delete(ft, 0), "entry");
	OK(fcnt_cmd(MLX5V_CMD_OP_DEALLOC_FLOW_COUNTER, fc, NULL), "DEALLOC_FLOW_COUNTER");
	EXPECT(fcnt_cmd(MLX5V_CMD_OP_DEALLOC_FLOW_COUNTER, fc, NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_FCNT_NUM, "twice");
	EXPECT(fcnt_cmd(MLX5V_CMD_OP_QUERY_FLOW_COUNTER, fc, NULL), MLX5V_CMD_STAT_BAD_RES_ERR,
	       MLX5V_SIM_SYND_FCNT_NUM, "query after dealloc");
	len = fte_count_in(ft, fg, tir, fc, 1);
	EXPECT(cmd(g_in, len, g_out, 16), MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FTE_COUNTER,
	       "counter deallocated");
	OK(fg_destroy(ft, fg), "group");
	OK(ft_destroy(ft), "table");
	OK(destroy(MLX5V_CMD_OP_DESTROY_TIR, tir), "TIR");
	OK(destroy(MLX5V_CMD_OP_DESTROY_RQ, rqn), "RQ");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_PD, pd), "PD");
	OK(destroy(MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, td), "TD");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- vport and port */

static int
query_vport(uint32_t list_type, size_t outlen)
{
	in_init(MLX5V_CMD_OP_QUERY_NIC_VPORT_CONTEXT, 0,
		MLX5V_IFC_BYTES(query_nic_vport_context_in));
	MLX5V_SET(query_nic_vport_context_in, g_in, allowed_list_type, list_type);
	return cmd(g_in, MLX5V_IFC_BYTES(query_nic_vport_context_in), g_out, outlen);
}

static uint8_t *
modify_vport_in(size_t inlen)
{
	in_init(MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT, 0, inlen);
	return MLX5V_IFC_ADDR_OF(modify_nic_vport_context_in, g_in, ctx);
}

static int
test_eth_vport(void)
{
	size_t base = MLX5V_IFC_BYTES(modify_nic_vport_context_in);
	uint8_t *ctx;
	uint8_t mac[6];
	unsigned int i;

	OK(query_vport(MLX5V_VPORT_LIST_UC, MLX5V_IFC_BYTES(query_nic_vport_context_out)),
	   "QUERY_NIC_VPORT_CONTEXT");
	ctx = MLX5V_IFC_ADDR_OF(query_nic_vport_context_out, g_out, ctx);
	memcpy(mac, (uint8_t *)MLX5V_IFC_ADDR_OF(nic_vport_context, ctx, permanent_address) + 2,
	       6);
	TEST_ASSERT(mac[0] == 0x02 && (mac[1] | mac[2] | mac[3] | mac[4] | mac[5]) != 0,
		    "permanent MAC: locally administered, nonzero");
	TEST_ASSERT_EQUAL(MLX5V_GET(nic_vport_context, ctx, mtu), MLX5V_SIM_ETH_DEF_MTU, "MTU");
	/* MTU, promiscuous, all-multicast, a 3-entry UC list. */
	ctx = modify_vport_in(base + 3 * 8);
	MLX5V_SET(modify_nic_vport_context_in, g_in, field_select_mtu, 1);
	MLX5V_SET(modify_nic_vport_context_in, g_in, field_select_promisc, 1);
	MLX5V_SET(modify_nic_vport_context_in, g_in, field_select_addresses_list, 1);
	MLX5V_SET(nic_vport_context, ctx, mtu, 9000);
	MLX5V_SET(nic_vport_context, ctx, promisc_mc, 1);
	MLX5V_SET(nic_vport_context, ctx, promisc_all, 1);
	MLX5V_SET(nic_vport_context, ctx, allowed_list_type, MLX5V_VPORT_LIST_UC);
	MLX5V_SET(nic_vport_context, ctx, allowed_list_size, 3);
	for (i = 0; i < 3; i++) {
		rte_pmd_mlx5v_prm_set(g_in + base + 8 * i, 0, 15, 0, 0x0200);
		rte_pmd_mlx5v_prm_set(g_in + base + 8 * i, 1, 31, 0, 0x10 + i);
	}
	OK(cmd(g_in, base + 3 * 8, g_out, 16), "MODIFY_NIC_VPORT_CONTEXT");
	OK(query_vport(MLX5V_VPORT_LIST_UC, MLX5V_IFC_BYTES(query_nic_vport_context_out) + 64),
	   "query");
	ctx = MLX5V_IFC_ADDR_OF(query_nic_vport_context_out, g_out, ctx);
	TEST_ASSERT_EQUAL(MLX5V_GET(nic_vport_context, ctx, mtu), 9000u, "MTU");
	TEST_ASSERT_EQUAL(MLX5V_GET(nic_vport_context, ctx, promisc_uc), 0u, "promisc_uc");
	TEST_ASSERT_EQUAL(MLX5V_GET(nic_vport_context, ctx, promisc_mc), 1u, "all-multicast");
	TEST_ASSERT_EQUAL(MLX5V_GET(nic_vport_context, ctx, promisc_all), 1u, "promiscuous");
	TEST_ASSERT_EQUAL(MLX5V_GET(nic_vport_context, ctx, allowed_list_size), 3u, "UC list");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_prm_get(g_out +
						MLX5V_IFC_BYTES(query_nic_vport_context_out) + 16,
						1, 31, 0), 0x12u, "UC entry 2");
	OK(query_vport(MLX5V_VPORT_LIST_MC, MLX5V_IFC_BYTES(query_nic_vport_context_out)), "MC");
	ctx = MLX5V_IFC_ADDR_OF(query_nic_vport_context_out, g_out, ctx);
	TEST_ASSERT_EQUAL(MLX5V_GET(nic_vport_context, ctx, allowed_list_size), 0u,
			  "MC list empty");
	/* Unselected fields do not change. */
	ctx = modify_vport_in(base);
	MLX5V_SET(nic_vport_context, ctx, mtu, 1000);
	OK(cmd(g_in, base, g_out, 16), "nothing selected");
	OK(query_vport(MLX5V_VPORT_LIST_UC, MLX5V_IFC_BYTES(query_nic_vport_context_out)), "q");
	ctx = MLX5V_IFC_ADDR_OF(query_nic_vport_context_out, g_out, ctx);
	TEST_ASSERT_EQUAL(MLX5V_GET(nic_vport_context, ctx, mtu), 9000u, "MTU kept");
	/* Checks. */
	ctx = modify_vport_in(base);
	MLX5V_SET(modify_nic_vport_context_in, g_in, field_select_mtu, 1);
	MLX5V_SET(nic_vport_context, ctx, mtu, MLX5V_SIM_ETH_MAX_MTU + 1);
	EXPECT(cmd(g_in, base, g_out, 16), MLX5V_CMD_STAT_BAD_PARAM_ERR,
	       MLX5V_SIM_SYND_VPORT_MTU, "MTU above max_mtu");
	ctx = modify_vport_in(base);
	MLX5V_SET(modify_nic_vport_context_in, g_in, field_select_addresses_list, 1);
	MLX5V_SET(nic_vport_context, ctx, allowed_list_type, MLX5V_VPORT_LIST_VLAN);
	EXPECT(cmd(g_in, base, g_out, 16), MLX5V_CMD_STAT_BAD_PARAM_ERR,
	       MLX5V_SIM_SYND_VPORT_LIST_TYPE, "VLAN list");
	MLX5V_SET(nic_vport_context, ctx, allowed_list_type, MLX5V_VPORT_LIST_MC);
	MLX5V_SET(nic_vport_context, ctx, allowed_list_size,
		  (1u << MLX5V_SIM_ETH_LOG_MAX_MC_LIST) + 1);
	EXPECT(cmd(g_in, base, g_out, 16), MLX5V_CMD_STAT_BAD_PARAM_ERR,
	       MLX5V_SIM_SYND_VPORT_LIST_SIZE, "MC list above the cap");
	MLX5V_SET(nic_vport_context, ctx, allowed_list_size, 2);
	EXPECT(cmd(g_in, base + 8, g_out, 16), MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
	       MLX5V_SIM_SYND_VPORT_LIST_LEN, "list beyond inlen");
	modify_vport_in(base);
	MLX5V_SET(modify_nic_vport_context_in, g_in, field_select_permanent_address, 1);
	EXPECT(cmd(g_in, base, g_out, 16), MLX5V_CMD_STAT_BAD_PARAM_ERR,
	       MLX5V_SIM_SYND_VPORT_FIELD, "own permanent address");
	modify_vport_in(base);
	MLX5V_SET(modify_nic_vport_context_in, g_in, other_vport, 1);
	EXPECT(cmd(g_in, base, g_out, 16), MLX5V_CMD_STAT_BAD_PARAM_ERR, SYND_VPORT,
	       "other vport");
	EXPECT(query_vport(MLX5V_VPORT_LIST_VLAN,
			   MLX5V_IFC_BYTES(query_nic_vport_context_out)),
	       MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_VPORT_LIST_TYPE, "query VLAN list");
	/* Back to the defaults for the other tests. */
	ctx = modify_vport_in(base);
	MLX5V_SET(modify_nic_vport_context_in, g_in, field_select_mtu, 1);
	MLX5V_SET(modify_nic_vport_context_in, g_in, field_select_promisc, 1);
	MLX5V_SET(modify_nic_vport_context_in, g_in, field_select_addresses_list, 1);
	MLX5V_SET(nic_vport_context, ctx, mtu, MLX5V_SIM_ETH_DEF_MTU);
	OK(cmd(g_in, base, g_out, 16), "restore");
	return TEST_SUCCESS;
}

static int
vport_state(void)
{
	in_init(MLX5V_CMD_OP_QUERY_VPORT_STATE, 0, MLX5V_IFC_BYTES(query_vport_state_in));
	if (cmd(g_in, MLX5V_IFC_BYTES(query_vport_state_in), g_out,
		MLX5V_IFC_BYTES(query_vport_state_out)) != 0)
		return -1;
	return MLX5V_GET(query_vport_state_out, g_out, state);
}

/* PORT_CHANGE events seen on the device's async EQ, by sub-type (1 down, 4 active). */
static uint64_t g_port_ev[8];

static int
port_event_cb(struct mlx5v_dev *dev, uint8_t type, const uint8_t *eqe, void *arg)
{
	uint8_t sub = eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF];

	RTE_SET_USED(dev);
	RTE_SET_USED(type);
	RTE_SET_USED(arg);
	if (sub < RTE_DIM(g_port_ev) && (eqe[RTE_PMD_MLX5V_EQE_PORT_OFF] >> 4) == 1)
		__atomic_fetch_add(&g_port_ev[sub], 1, __ATOMIC_RELEASE);
	return 0;
}

/* Poll eq until g_port_ev[sub] reaches n. @return 0, or -1 after UT_WAIT_LIMIT_MS. */
static int
wait_port_event(struct mlx5v_eq *eq, unsigned int sub, uint64_t n)
{
	unsigned int ms;

	for (ms = 0; ms < UT_WAIT_LIMIT_MS; ms++) {
		mlx5v_eq_poll(eq);
		if (__atomic_load_n(&g_port_ev[sub], __ATOMIC_ACQUIRE) >= n)
			return 0;
		ut_sleep_ms(1);
	}
	return -1;
}

static int
test_eth_port_regs(void)
{
	uint8_t reg[0x40], pcam[0x50];
	uint8_t *out = g_out + MLX5V_IFC_BYTES(access_reg_in);
	const uint8_t bp = MLX5V_CMD_STAT_BAD_PARAM_ERR;
	struct mlx5v_eq *eq;

	/* The link is up after INIT_HCA (prm/mlx5_eth §11.1). */
	TEST_ASSERT_EQUAL(vport_state(), MLX5V_VPORT_STATE_UP, "vport state");
	memset(reg, 0, sizeof(reg));
	MLX5V_SET(paos_reg, reg, local_port, 1);
	OK(access_reg(MLX5V_REG_PAOS, 0, reg, 0x10), "PAOS read");
	TEST_ASSERT_EQUAL(MLX5V_GET(paos_reg, out, admin_status), MLX5V_PAOS_UP, "admin up");
	TEST_ASSERT_EQUAL(MLX5V_GET(paos_reg, out, oper_status), MLX5V_PAOS_UP, "oper up");
	/* Admin down: the vport state, PAOS, PTYS and the events agree. */
	memset(g_port_ev, 0, sizeof(g_port_ev));
	/*
	 * The async EQ subscribes PORT_CHANGE itself; polling it here as well only speeds the
	 * wait (the interrupt thread may have taken the EQE already).
	 */
	eq = mlx5v_eq_async(g_dev);
	TEST_ASSERT_NOT_NULL(eq, "the async EQ");
	TEST_ASSERT_SUCCESS(mlx5v_eq_subscribe(g_dev, RTE_PMD_MLX5V_EVENT_PORT_CHANGE,
					       port_event_cb, NULL), "subscribe");
	MLX5V_SET(paos_reg, reg, admin_status, MLX5V_PAOS_DOWN);
	MLX5V_SET(paos_reg, reg, ase, 1);
	OK(access_reg(MLX5V_REG_PAOS, 1, reg, 0x10), "PAOS down");
	TEST_ASSERT_SUCCESS(wait_port_event(eq, RTE_PMD_MLX5V_PORT_CHANGE_DOWN, 1),
			    "no PORT_CHANGE DOWN");
	TEST_ASSERT_EQUAL(MLX5V_GET(paos_reg, out, oper_status), MLX5V_PAOS_DOWN, "oper down");
	TEST_ASSERT_EQUAL(vport_state(), MLX5V_VPORT_STATE_DOWN, "vport state down");
	memset(reg, 0, sizeof(reg));
	MLX5V_SET(ptys_reg, reg, local_port, 1);
	MLX5V_SET(ptys_reg, reg, proto_mask, MLX5V_PTYS_PROTO_ETH);
	OK(access_reg(MLX5V_REG_PTYS, 0, reg, 0x40), "PTYS read");
	TEST_ASSERT_EQUAL(MLX5V_GET(ptys_reg, out, eth_proto_oper), 0u, "no speed while down");
	/* ase = 0: the write does nothing. */
	memset(reg, 0, sizeof(reg));
	MLX5V_SET(paos_reg, reg, local_port, 1);
	MLX5V_SET(paos_reg, reg, admin_status, MLX5V_PAOS_UP);
	OK(access_reg(MLX5V_REG_PAOS, 1, reg, 0x10), "PAOS without ase");
	TEST_ASSERT_EQUAL(MLX5V_GET(paos_reg, out, admin_status), MLX5V_PAOS_DOWN, "still down");
	MLX5V_SET(paos_reg, reg, ase, 1);
	OK(access_reg(MLX5V_REG_PAOS, 1, reg, 0x10), "PAOS up");
	TEST_ASSERT_EQUAL(vport_state(), MLX5V_VPORT_STATE_UP, "vport state up");
	TEST_ASSERT_SUCCESS(wait_port_event(eq, RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE, 1),
			    "no PORT_CHANGE ACTIVE");
	/* Up again while up: no state change, no event (the query orders it after the write). */
	OK(access_reg(MLX5V_REG_PAOS, 1, reg, 0x10), "PAOS up twice");
	OK(vport_state() == MLX5V_VPORT_STATE_UP ? 0 : -1, "still up");
	mlx5v_eq_poll(eq);
	mlx5v_eq_unsubscribe(g_dev, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, port_event_cb, NULL);
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_port_ev[RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE],
					  __ATOMIC_ACQUIRE), 1u, "one ACTIVE event");
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_port_ev[RTE_PMD_MLX5V_PORT_CHANGE_DOWN],
					  __ATOMIC_ACQUIRE), 1u, "one DOWN event");
	MLX5V_SET(paos_reg, reg, admin_status, 3);
	EXPECT(access_reg(MLX5V_REG_PAOS, 1, reg, 0x10), bp, MLX5V_SIM_SYND_PAOS_ADMIN,
	       "admin_status 3");
	MLX5V_SET(paos_reg, reg, local_port, 2);
	EXPECT(access_reg(MLX5V_REG_PAOS, 0, reg, 0x10), bp, MLX5V_SIM_SYND_REG_PORT,
	       "port 2");
	MLX5V_SET(paos_reg, reg, local_port, 1);
	EXPECT(access_reg(MLX5V_REG_PAOS, 0, reg, 0x8), MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
	       MLX5V_SIM_SYND_REG_INLEN, "half a register");
	in_init(MLX5V_CMD_OP_ACCESS_REG, MLX5V_ACCESS_REG_READ, 0x20);
	MLX5V_SET(access_reg_in, g_in, register_id, MLX5V_REG_PAOS);
	memcpy(g_in + 0x10, reg, 0x10);
	EXPECT(cmd(g_in, 0x20, g_out, 0x18), MLX5V_CMD_STAT_BAD_OUTP_LEN_ERR,
	       MLX5V_SIM_SYND_REG_OUTLEN, "output too short");
	MLX5V_SET(access_reg_in, g_in, argument, 1);
	EXPECT(cmd(g_in, 0x20, g_out, 0x20), bp, SYND_REG_DATA, "argument");

	/*
	 * PTYS: every mode is advertised; the fastest admin mode is the operational one. Without
	 * ptys_ext the port speaks in the legacy fields only (prm/mlx5_eth §11.3).
	 */
	memset(reg, 0, sizeof(reg));
	MLX5V_SET(ptys_reg, reg, local_port, 1);
	MLX5V_SET(ptys_reg, reg, proto_mask, MLX5V_PTYS_PROTO_ETH);
	OK(access_reg(MLX5V_REG_PTYS, 0, reg, 0x40), "PTYS read");
	TEST_ASSERT_EQUAL(MLX5V_GET(ptys_reg, out, eth_proto_oper), 1u << 20, "100GBASE-CR4");
	TEST_ASSERT_EQUAL(MLX5V_GET(ptys_reg, out, ext_eth_proto_oper), 0u, "no extended field");
	TEST_ASSERT(MLX5V_GET(ptys_reg, out, eth_proto_capability) & (1u << 27), "25G capable");
	MLX5V_SET(ptys_reg, reg, eth_proto_admin, 1u << 27);
	OK(access_reg(MLX5V_REG_PTYS, 1, reg, 0x40), "PTYS write 25G");
	TEST_ASSERT_EQUAL(MLX5V_GET(ptys_reg, out, eth_proto_oper), 1u << 27, "25GBASE-CR");
	/* With ptys_ext, the extended fields only. */
	OK(mlx5v_sim_knob_set(g_sim, "ptys_ext", 1), "ptys_ext");
	OK(access_reg(MLX5V_REG_PTYS, 0, reg, 0x40), "PTYS read, extended");
	TEST_ASSERT_EQUAL(MLX5V_GET(ptys_reg, out, ext_eth_proto_oper), 1u << 6, "ext 25G");
	TEST_ASSERT_EQUAL(MLX5V_GET(ptys_reg, out, eth_proto_oper), 0u, "no legacy field");
	memset(pcam, 0, sizeof(pcam));
	OK(access_reg(MLX5V_REG_PCAM, 0, pcam, sizeof(pcam)), "PCAM read");
	TEST_ASSERT_EQUAL(MLX5V_GET(pcam_reg, out, ptys_extended_ethernet), 1u,
			  "PCAM extended bit");
	OK(mlx5v_sim_knob_set(g_sim, "ptys_ext", 0), "ptys_ext off");
	/* 1000BASE-CX/SGMII (bit 0): the model has 1000BASE-KX (bit 1) only. */
	MLX5V_SET(ptys_reg, reg, eth_proto_admin, 1u << 0);
	EXPECT(access_reg(MLX5V_REG_PTYS, 1, reg, 0x40), bp, MLX5V_SIM_SYND_PTYS_ADMIN,
	       "mode not in the capability");
	MLX5V_SET(ptys_reg, reg, eth_proto_admin, 0);
	EXPECT(access_reg(MLX5V_REG_PTYS, 1, reg, 0x40), bp, MLX5V_SIM_SYND_PTYS_ADMIN,
	       "no mode");
	MLX5V_SET(ptys_reg, reg, eth_proto_admin, (1u << 20) | (1u << 30) | (1u << 6) | (1u << 27) |
	    (1u << 12) | (1u << 1));
	OK(access_reg(MLX5V_REG_PTYS, 1, reg, 0x40), "PTYS all modes back");
	MLX5V_SET(ptys_reg, reg, proto_mask, 1);
	EXPECT(access_reg(MLX5V_REG_PTYS, 0, reg, 0x40), bp, MLX5V_SIM_SYND_PTYS_PROTO,
	       "InfiniBand");

	/* PMTU. */
	memset(reg, 0, sizeof(reg));
	MLX5V_SET(pmtu_reg, reg, local_port, 1);
	OK(access_reg(MLX5V_REG_PMTU, 0, reg, 0x10), "PMTU read");
	TEST_ASSERT_EQUAL(MLX5V_GET(pmtu_reg, out, max_mtu), MLX5V_SIM_ETH_MAX_MTU, "max_mtu");
	MLX5V_SET(pmtu_reg, reg, admin_mtu, 9000);
	OK(access_reg(MLX5V_REG_PMTU, 1, reg, 0x10), "PMTU write");
	TEST_ASSERT_EQUAL(MLX5V_GET(pmtu_reg, out, oper_mtu), 9000u, "oper_mtu");
	MLX5V_SET(pmtu_reg, reg, admin_mtu, MLX5V_SIM_ETH_MAX_MTU + 1);
	EXPECT(access_reg(MLX5V_REG_PMTU, 1, reg, 0x10), bp, MLX5V_SIM_SYND_PMTU_MTU,
	       "above max_mtu");
	MLX5V_SET(pmtu_reg, reg, admin_mtu, MLX5V_SIM_ETH_DEF_MTU);
	OK(access_reg(MLX5V_REG_PMTU, 1, reg, 0x10), "PMTU restore");
	/* Unknown registers keep their old answer. */
	EXPECT(access_reg(0x5008, 0, reg, 0x10), bp, SYND_REG_ID, "PPCNT not modelled");
	/* QUERY_VPORT_STATE of another vport. */
	in_init(MLX5V_CMD_OP_QUERY_VPORT_STATE, 0, MLX5V_IFC_BYTES(query_vport_state_in));
	MLX5V_SET(query_vport_state_in, g_in, other_vport, 1);
	EXPECT(cmd(g_in, MLX5V_IFC_BYTES(query_vport_state_in), g_out, 16), bp,
	       SYND_VPORT, "other vport state");
	return TEST_SUCCESS;
}

/*
 * Objects a driver leaves behind are freed by the simulator's teardown, which logs them
 * (the ASan build of devtools/test.sh catches a leak): a second device is removed with a
 * PD, TD, MKEY, Q counter, TIS, table, group, entry and root still live.
 */
static int
test_eth_teardown_frees(void)
{
	struct mlx5v_dev *main_dev = g_dev;
	struct mlx5v_sim *sim;
	uint32_t pd, td, ft, fg, id;
	size_t len;
	int ret = TEST_FAILED;

	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim1", "msix=2"), "second device");
	g_dev = (struct mlx5v_dev *)rte_pmd_mlx5v_dev_get("mlx5v_sim1");
	sim = mlx5v_sim_get("mlx5v_sim1");
	if (g_dev == NULL || sim == NULL)
		goto out;
	pd = pd_alloc();
	td = td_alloc();
	mkey_pa_in(pd, 7);
	if (pd == 0 || td == 0 || create(MLX5V_IFC_BYTES(create_mkey_in), &id) != 0 ||
			qcnt_alloc() == 0)
		goto out;
	tis_in(td);
	if (create(MLX5V_IFC_BYTES(create_tis_in), &id) != 0)
		goto out;
	ft_in(0, 2);
	if (create(MLX5V_IFC_BYTES(create_flow_table_in), &ft) != 0)
		goto out;
	fg_in(ft, 0, 3, 0);
	if (create(MLX5V_IFC_BYTES(create_flow_group_in), &fg) != 0)
		goto out;
	len = fte_in(ft, 0, fg, MLX5V_FLOW_DEST_TIR, 0, 0);
	MLX5V_SET(set_fte_in, g_in, ctx.action, MLX5V_FTE_ACTION_DROP);
	MLX5V_SET(set_fte_in, g_in, ctx.destination_list_size, 0);
	if (cmd(g_in, len, g_out, 16) != 0)
		goto out;
	ft_obj_in(MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT, 0, ft);
	if (ft_obj_cmd() != 0)
		goto out;
	if (mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_FTE) != 1 ||
			mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_TIS) != 1 ||
			mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_Q_COUNTER) != 1 ||
			mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PD) != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	g_dev = main_dev;
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim1"), "remove");
	TEST_ASSERT_NULL(mlx5v_sim_get("mlx5v_sim1"), "simulator still there");
	return ret;
}

static struct unit_test_suite mlx5v_sim_eth_suite = {
	.suite_name = "mlx5v simulated Ethernet function",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_chain),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_pd_td),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_caps_limits),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_ft_limits),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_mkey),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_q_counter),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_tis),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_sq),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_rq),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_rqt_tir),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_flow),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_flow_counter),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_vport),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_port_regs),
		TEST_CASE_ST(ut_setup, ut_teardown, test_eth_teardown_frees),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_sim_eth(void)
{
	return unit_test_suite_runner(&mlx5v_sim_eth_suite);
}

REGISTER_TEST_COMMAND(mlx5v_sim_eth_autotest, test_mlx5v_sim_eth);
