/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Ethernet function of the model: RQT, TIR and NIC RX flow table commands
 * (prm/mlx5_eth §4.8 - §4.10). Executing the steering is the receive path's business.
 */

#include <stdlib.h>
#include <string.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_priv.h"


#define MLX5V_SIM_ETH_RQN_MASK 0xffffffu

/* ---- RQT (prm/mlx5_eth §4.8) ---- */

/*
 * Read and check an RQ list: the rqtc at ctx_off gives its length, the entries start at
 * list_off; max is the table's size. On success *list is allocated (max entries).
 * @return status.
 */
static uint8_t
mlx5v_sim_eth_rqt_list(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, const uint8_t *ctx,
		       uint32_t list_off, uint32_t max, uint32_t *n, uint32_t **list)
{
	uint32_t size = MLX5V_GET(rqtc, ctx, rqt_actual_size);
	uint32_t i, v;

	if (MLX5V_GET(rqtc, ctx, list_q_type) != 0 || MLX5V_GET(rqtc, ctx, rq_vhca_id_format) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_RQT_LIST_TYPE);
	if (size == 0 || size > max)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_RQT_SIZE);
	if ((uint64_t)list_off + 4ull * size > c->inlen)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
					 MLX5V_SIM_SYND_RQT_LEN);
	for (i = 0; i < size; i++) {
		v = mlx5v_sim_be32(c->in, list_off + 4 * i);
		/* Bits 31:24 are reserved; the RQN is 24 bits. */
		if ((v & ~MLX5V_SIM_ETH_RQN_MASK) != 0 || mlx5v_sim_eth_rq_get(sim, v) == NULL)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR,
						 MLX5V_SIM_SYND_RQT_RQ);
	}
	*list = calloc(max, sizeof(**list));
	if (*list == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR, MLX5V_SIM_SYND_RQT_NONE);
	for (i = 0; i < size; i++)
		(*list)[i] = mlx5v_sim_be32(c->in, list_off + 4 * i);
	*n = size;
	return MLX5V_CMD_STAT_OK;
}

/* Take (delta 1) or drop (-1) one reference per list entry on the RQs it names. */
static void
mlx5v_sim_eth_rqt_refs(struct mlx5v_sim *sim, const uint32_t *list, uint32_t n, int delta)
{
	struct mlx5v_sim_eth_rq *rq;
	uint32_t i;

	for (i = 0; i < n; i++) {
		rq = mlx5v_sim_eth_rq_get(sim, list[i]);
		if (rq == NULL)
			continue;
		if (delta > 0)
			rq->refs++;
		else if (rq->refs > 0)
			rq->refs--;
	}
}

uint8_t
mlx5v_sim_cmd_create_rqt(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *ctx = MLX5V_IFC_ADDR_OF(create_rqt_in, c->in, ctx);
	struct mlx5v_sim_eth *e = sim->eth;
	uint32_t max = MLX5V_GET(rqtc, ctx, rqt_max_size);
	uint32_t *list = NULL;
	uint32_t n = 0;
	uint32_t i;
	uint8_t st;

	/* rqt_max_size <= 1 << log_max_rqt_size (prm/mlx5_eth §4.14). */
	if (max == 0 || max > (1u << MLX5V_SIM_ETH_LOG_MAX_RQT_SIZE))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_RQT_SIZE);
	for (i = 1; i < RTE_DIM(e->rqt); i++)
		if (!e->rqt[i].valid)
			break;
	if (i >= RTE_DIM(e->rqt))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_RQT_NONE);
	st = mlx5v_sim_eth_rqt_list(sim, c, ctx, MLX5V_IFC_BYTES(create_rqt_in), max, &n, &list);
	if (st != MLX5V_CMD_STAT_OK)
		return st;
	e->rqt[i].valid = 1;
	e->rqt[i].refs = 0;
	e->rqt[i].max_size = max;
	e->rqt[i].size = n;
	e->rqt[i].rqn = list;
	mlx5v_sim_eth_rqt_refs(sim, list, n, 1);
	e->live[MLX5V_SIM_ETH_K_RQT]++;
	MLX5V_SET(eth_obj_out, c->out, obj_id, MLX5V_SIM_ETH_RQT_BASE + i);
	return MLX5V_CMD_STAT_OK;
}

/*
 * bitmask bit 0: a new RQ list, within the table's max size ([K] repoints RQTs, prm/mlx5_eth §4.8).
 */
uint8_t
mlx5v_sim_cmd_modify_rqt(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *ctx = MLX5V_IFC_ADDR_OF(modify_rqt_in, c->in, ctx);
	struct mlx5v_sim_eth_rqt *rqt =
			mlx5v_sim_eth_rqt_get(sim, MLX5V_GET(modify_rqt_in, c->in, rqtn));
	uint32_t *list = NULL;
	uint32_t n = 0;
	uint8_t st;

	if (rqt == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQT_NUM);
	if (MLX5V_GET(modify_rqt_in, c->in, bitmask_hi) != 0 ||
			MLX5V_GET(modify_rqt_in, c->in, bitmask) != 1)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_RQT_BITMASK);
	st = mlx5v_sim_eth_rqt_list(sim, c, ctx, MLX5V_IFC_BYTES(modify_rqt_in), rqt->max_size,
				    &n, &list);
	if (st != MLX5V_CMD_STAT_OK)
		return st;
	/* New references first, so an RQ in both lists never drops to 0 in between. */
	mlx5v_sim_eth_rqt_refs(sim, list, n, 1);
	mlx5v_sim_eth_rqt_refs(sim, rqt->rqn, rqt->size, -1);
	free(rqt->rqn);
	rqt->rqn = list;
	rqt->size = n;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_destroy_rqt(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_rqt *rqt =
			mlx5v_sim_eth_rqt_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));

	if (rqt == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQT_NUM);
	/* prm/mlx5_eth §12: the TIRs go before their RQT. */
	if (rqt->refs != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_RQT_BUSY);
	mlx5v_sim_eth_rqt_refs(sim, rqt->rqn, rqt->size, -1);
	free(rqt->rqn);
	memset(rqt, 0, sizeof(*rqt));
	sim->eth->live[MLX5V_SIM_ETH_K_RQT]--;
	return MLX5V_CMD_STAT_OK;
}

/* The list is returned as far as outlen holds it. */
uint8_t
mlx5v_sim_cmd_query_rqt(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_rqt *rqt =
			mlx5v_sim_eth_rqt_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));
	uint32_t off = MLX5V_IFC_BYTES(query_rqt_out);
	uint32_t i;

	if (rqt == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQT_NUM);
	MLX5V_SET(query_rqt_out, c->out, ctx.rqt_max_size, rqt->max_size);
	MLX5V_SET(query_rqt_out, c->out, ctx.rqt_actual_size, rqt->size);
	for (i = 0; i < rqt->size && off + 4 * (i + 1) <= c->outlen; i++)
		rte_pmd_mlx5v_prm_set(c->out + off + 4 * i, 0, 31, 0, rqt->rqn[i]);
	return MLX5V_CMD_STAT_OK;
}

/* ---- TIR (prm/mlx5_eth §4.9) ---- */

/*
 * The dispatch fields of a tirc: DIRECT needs no hash, INDIRECT needs Toeplitz or
 * INVERTED_XOR8 on known fields. @return syndrome or 0.
 */
static uint32_t
mlx5v_sim_eth_tir_check_hash(const uint8_t *ctx, uint32_t disp)
{
	uint32_t fn = MLX5V_GET(tirc, ctx, rx_hash_fn);
	uint32_t fields = MLX5V_GET(tirc, ctx, hash_outer_selected_fields);
	uint32_t known = MLX5V_HASH_FIELD_SRC_IP | MLX5V_HASH_FIELD_DST_IP |
			 MLX5V_HASH_FIELD_L4_SPORT | MLX5V_HASH_FIELD_L4_DPORT |
			 MLX5V_HASH_FIELD_IPSEC_SPI;

	if (disp == MLX5V_TIRC_DISP_DIRECT)
		return fn == MLX5V_TIRC_HASH_NONE ? 0 : MLX5V_SIM_SYND_TIR_HASH;
	if (fn != MLX5V_TIRC_HASH_TOEPLITZ && fn != MLX5V_TIRC_HASH_XOR8)
		return MLX5V_SIM_SYND_TIR_HASH;
	if ((fields & ~known) != 0 || MLX5V_GET(tirc, ctx, hash_inner) != 0)
		return MLX5V_SIM_SYND_TIR_HASH;
	return 0;
}

static void
mlx5v_sim_eth_tir_hash_take(struct mlx5v_sim_eth_tir *tir, const uint8_t *ctx)
{
	struct mlx5v_sim_eth_hash *h = &tir->hash;

	h->fn = MLX5V_GET(tirc, ctx, rx_hash_fn);
	h->symmetric = MLX5V_GET(tirc, ctx, rx_hash_symmetric);
	h->l3_ipv6 = MLX5V_GET(tirc, ctx, hash_outer_l3_prot_type);
	h->l4_udp = MLX5V_GET(tirc, ctx, hash_outer_l4_prot_type);
	h->fields = MLX5V_GET(tirc, ctx, hash_outer_selected_fields);
	memcpy(h->key, MLX5V_IFC_ADDR_OF(tirc, ctx, rx_hash_toeplitz_key), sizeof(h->key));
}

uint8_t
mlx5v_sim_cmd_create_tir(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *ctx = MLX5V_IFC_ADDR_OF(create_tir_in, c->in, ctx);
	struct mlx5v_sim_eth *e = sim->eth;
	uint32_t disp = MLX5V_GET(tirc, ctx, disp_type);
	struct mlx5v_sim_eth_rqt *rqt = NULL;
	struct mlx5v_sim_eth_rq *rq = NULL;
	struct mlx5v_sim_eth_tir *tir;
	struct mlx5v_sim_eth_dom *td;
	uint32_t synd;
	uint32_t i;

	if (disp != MLX5V_TIRC_DISP_DIRECT && disp != MLX5V_TIRC_DISP_INDIRECT)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_TIR_DISP);
	/* LRO, tunnel offloads and kTLS are not modelled. */
	if (MLX5V_GET(tirc, ctx, packet_merge_mask) != 0 ||
	    MLX5V_GET(tirc, ctx, tunneled_offload_en) != 0 || MLX5V_GET(tirc, ctx, tls_en) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_TIR_LRO);
	synd = mlx5v_sim_eth_tir_check_hash(ctx, disp);
	if (synd != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	td = mlx5v_sim_eth_td_get(sim, MLX5V_GET(tirc, ctx, transport_domain));
	if (td == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_TIR_TD);
	if (disp == MLX5V_TIRC_DISP_DIRECT) {
		rq = mlx5v_sim_eth_rq_get(sim, MLX5V_GET(tirc, ctx, inline_rqn));
		if (rq == NULL)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR,
						 MLX5V_SIM_SYND_TIR_RQ);
	} else {
		rqt = mlx5v_sim_eth_rqt_get(sim, MLX5V_GET(tirc, ctx, indirect_table));
		if (rqt == NULL)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR,
						 MLX5V_SIM_SYND_TIR_RQT);
	}
	for (i = 1; i < RTE_DIM(e->tir); i++)
		if (!e->tir[i].valid)
			break;
	if (i >= RTE_DIM(e->tir))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_TIR_NONE);
	if (mlx5v_sim_eth_fault(sim, MLX5V_SIM_K_FAIL_CREATE_TIR))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR, MLX5V_SIM_SYND_TIR_FAULT);
	tir = &e->tir[i];
	memset(tir, 0, sizeof(*tir));
	tir->valid = 1;
	tir->disp_type = disp;
	tir->self_lb_block = MLX5V_GET(tirc, ctx, self_lb_block);
	tir->td = MLX5V_GET(tirc, ctx, transport_domain);
	if (rq != NULL) {
		tir->inline_rqn = MLX5V_GET(tirc, ctx, inline_rqn);
		rq->refs++;
	} else {
		tir->rqt = MLX5V_GET(tirc, ctx, indirect_table);
		rqt->refs++;
	}
	mlx5v_sim_eth_tir_hash_take(tir, ctx);
	td->refs++;
	e->live[MLX5V_SIM_ETH_K_TIR]++;
	MLX5V_SET(eth_obj_out, c->out, obj_id, MLX5V_SIM_ETH_TIR_BASE + i);
	return MLX5V_CMD_STAT_OK;
}

/* bitmask bit 1 indirect table, 2 hash, 4 self loopback; LRO and tunnels are refused. */
uint8_t
mlx5v_sim_cmd_modify_tir(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *ctx = MLX5V_IFC_ADDR_OF(modify_tir_in, c->in, ctx);
	struct mlx5v_sim_eth_tir *tir =
			mlx5v_sim_eth_tir_get(sim, MLX5V_GET(modify_tir_in, c->in, tirn));
	uint32_t mask = MLX5V_GET(modify_tir_in, c->in, bitmask);
	struct mlx5v_sim_eth_rqt *rqt = NULL, *old;
	uint32_t synd;
	uint32_t known = MLX5V_MODIFY_TIR_INDIRECT_TABLE | MLX5V_MODIFY_TIR_HASH |
			 MLX5V_MODIFY_TIR_SELF_LB;

	if (tir == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_TIR_NUM);
	if (MLX5V_GET(modify_tir_in, c->in, bitmask_hi) != 0 || (mask & ~known) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_TIR_BITMASK);
	if (mask & MLX5V_MODIFY_TIR_HASH) {
		synd = mlx5v_sim_eth_tir_check_hash(ctx, tir->disp_type);
		if (synd != 0)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	}
	if (mask & MLX5V_MODIFY_TIR_INDIRECT_TABLE) {
		rqt = mlx5v_sim_eth_rqt_get(sim, MLX5V_GET(tirc, ctx, indirect_table));
		if (tir->disp_type != MLX5V_TIRC_DISP_INDIRECT || rqt == NULL)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR,
						 MLX5V_SIM_SYND_TIR_RQT);
	}
	if (rqt != NULL) {
		rqt->refs++;
		old = mlx5v_sim_eth_rqt_get(sim, tir->rqt);
		if (old != NULL && old->refs > 0)
			old->refs--;
		tir->rqt = MLX5V_GET(tirc, ctx, indirect_table);
	}
	if (mask & MLX5V_MODIFY_TIR_HASH)
		mlx5v_sim_eth_tir_hash_take(tir, ctx);
	if (mask & MLX5V_MODIFY_TIR_SELF_LB)
		tir->self_lb_block = MLX5V_GET(tirc, ctx, self_lb_block);
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_destroy_tir(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_tir *tir =
			mlx5v_sim_eth_tir_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));
	struct mlx5v_sim_eth_rqt *rqt;
	struct mlx5v_sim_eth_rq *rq;
	struct mlx5v_sim_eth_dom *td;

	if (tir == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_TIR_NUM);
	/* prm/mlx5_eth §12: the flow entries go before the TIR they forward to. */
	if (tir->refs != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_TIR_BUSY);
	if (tir->disp_type == MLX5V_TIRC_DISP_DIRECT) {
		rq = mlx5v_sim_eth_rq_get(sim, tir->inline_rqn);
		if (rq != NULL && rq->refs > 0)
			rq->refs--;
	} else {
		rqt = mlx5v_sim_eth_rqt_get(sim, tir->rqt);
		if (rqt != NULL && rqt->refs > 0)
			rqt->refs--;
	}
	td = mlx5v_sim_eth_td_get(sim, tir->td);
	if (td != NULL && td->refs > 0)
		td->refs--;
	memset(tir, 0, sizeof(*tir));
	sim->eth->live[MLX5V_SIM_ETH_K_TIR]--;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_query_tir(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_tir *tir =
			mlx5v_sim_eth_tir_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));
	uint8_t *ctx = MLX5V_IFC_ADDR_OF(query_tir_out, c->out, ctx);

	if (tir == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_TIR_NUM);
	MLX5V_SET(tirc, ctx, disp_type, tir->disp_type);
	MLX5V_SET(tirc, ctx, inline_rqn, tir->inline_rqn);
	MLX5V_SET(tirc, ctx, indirect_table, tir->rqt);
	MLX5V_SET(tirc, ctx, rx_hash_symmetric, tir->hash.symmetric);
	MLX5V_SET(tirc, ctx, rx_hash_fn, tir->hash.fn);
	MLX5V_SET(tirc, ctx, self_lb_block, tir->self_lb_block);
	MLX5V_SET(tirc, ctx, transport_domain, tir->td);
	memcpy(MLX5V_IFC_ADDR_OF(tirc, ctx, rx_hash_toeplitz_key), tir->hash.key,
	       sizeof(tir->hash.key));
	MLX5V_SET(tirc, ctx, hash_outer_l3_prot_type, tir->hash.l3_ipv6);
	MLX5V_SET(tirc, ctx, hash_outer_l4_prot_type, tir->hash.l4_udp);
	MLX5V_SET(tirc, ctx, hash_outer_selected_fields, tir->hash.fields);
	return MLX5V_CMD_STAT_OK;
}

/* ---- Flow tables (prm/mlx5_eth §4.10) ---- */

/*
 * The table a flow command names: own vport, NIC RX, a live table id. flow_table_obj_in,
 * create_flow_group_in and set_fte_in share these fields. @return the table or NULL.
 */
static struct mlx5v_sim_eth_ft *
mlx5v_sim_eth_ft_from_in(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, uint8_t *status)
{
	struct mlx5v_sim_eth_ft *ft;

	if (MLX5V_GET(flow_table_obj_in, c->in, other_vport) != 0 ||
			MLX5V_GET(flow_table_obj_in, c->in, vport_number) != 0) {
		*status = mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_VPORT);
		return NULL;
	}
	if (MLX5V_GET(flow_table_obj_in, c->in, table_type) != MLX5V_FT_TYPE_NIC_RX) {
		*status = mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					    MLX5V_SIM_SYND_FT_TYPE);
		return NULL;
	}
	ft = mlx5v_sim_eth_ft_get(sim, MLX5V_GET(flow_table_obj_in, c->in, table_id));
	if (ft == NULL)
		*status = mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FT_NUM);
	return ft;
}

/* 64-bit words of the busy bitmap of a table of 2^log_size entries. */
static uint32_t
mlx5v_sim_eth_ft_words(uint32_t log_size)
{
	return ((1u << log_size) + 63) / 64;
}

/* The entry memory of a table (its entries already freed). */
static void
mlx5v_sim_eth_ft_free(struct mlx5v_sim_eth_ft *ft)
{
	free(ft->fte);
	free(ft->busy);
	free(ft->busy_sum);
	ft->fte = NULL;
	ft->busy = NULL;
	ft->busy_sum = NULL;
}

/* Entry index is set (1) or empty (0) from now on, in both levels of the bitmap. */
static void
mlx5v_sim_eth_ft_busy(struct mlx5v_sim_eth_ft *ft, uint32_t index, int set)
{
	uint32_t w = index / 64;

	if (set) {
		ft->busy[w] |= UINT64_C(1) << (index % 64);
		ft->busy_sum[w / 64] |= UINT64_C(1) << (w % 64);
		return;
	}
	ft->busy[w] &= ~(UINT64_C(1) << (index % 64));
	if (ft->busy[w] == 0)
		ft->busy_sum[w / 64] &= ~(UINT64_C(1) << (w % 64));
}

uint32_t
mlx5v_sim_eth_ft_next(const struct mlx5v_sim_eth_ft *ft, uint32_t from)
{
	uint32_t nw = mlx5v_sim_eth_ft_words(ft->log_size);
	uint32_t w = from / 64;
	uint64_t bits, sum;

	if (from >= (1u << ft->log_size))
		return UINT32_MAX;
	/* The rest of the word of from first, then the next non-empty words by the summary. */
	bits = ft->busy[w] & (UINT64_MAX << (from % 64));
	while (bits == 0) {
		w++;
		if (w >= nw)
			return UINT32_MAX;
		sum = ft->busy_sum[w / 64] & (UINT64_MAX << (w % 64));
		while (sum == 0) {
			w = (w / 64 + 1) * 64;
			if (w >= nw)
				return UINT32_MAX;
			sum = ft->busy_sum[w / 64];
		}
		w = (w / 64) * 64 + (uint32_t)__builtin_ctzll(sum);
		bits = ft->busy[w];
	}
	return w * 64 + (uint32_t)__builtin_ctzll(bits);
}

uint8_t
mlx5v_sim_cmd_create_flow_table(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *in = c->in;
	struct mlx5v_sim_eth *e = sim->eth;
	struct mlx5v_sim_eth_ft *ft, *miss = NULL;
	uint32_t level = MLX5V_GET(create_flow_table_in, in, ctx.level);
	uint32_t log_size = MLX5V_GET(create_flow_table_in, in, ctx.log_size);
	uint32_t act = MLX5V_GET(create_flow_table_in, in, ctx.table_miss_action);
	uint32_t i;

	if (MLX5V_GET(create_flow_table_in, in, other_vport) != 0 ||
			MLX5V_GET(create_flow_table_in, in, vport_number) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_VPORT);
	if (MLX5V_GET(create_flow_table_in, in, table_type) != MLX5V_FT_TYPE_NIC_RX)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_FT_TYPE);
	if (level > MLX5V_SIM_ETH_MAX_FT_LEVEL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_FT_LEVEL);
	if (log_size > MLX5V_SIM_ETH_LOG_MAX_FT_SIZE)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_FT_SIZE);
	if (act != MLX5V_FT_MISS_DEFAULT && act != MLX5V_FT_MISS_FWD)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_FT_MISS);
	/* A miss goes down the levels, like a FLOW_TABLE destination (prm/mlx5_eth §4.10). */
	if (act == MLX5V_FT_MISS_FWD) {
		miss = mlx5v_sim_eth_ft_get(sim,
					    MLX5V_GET(create_flow_table_in, in, ctx.table_miss_id));
		if (miss == NULL || miss->level <= level)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR,
						 MLX5V_SIM_SYND_FT_MISS_ID);
	}
	for (i = 1; i < RTE_DIM(e->ft); i++)
		if (!e->ft[i].valid)
			break;
	if (i >= RTE_DIM(e->ft))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_FT_NONE);
	ft = &e->ft[i];
	memset(ft, 0, sizeof(*ft));
	ft->fte = calloc(1u << log_size, sizeof(*ft->fte));
	ft->busy = calloc(mlx5v_sim_eth_ft_words(log_size), sizeof(*ft->busy));
	ft->busy_sum = calloc(mlx5v_sim_eth_ft_words(log_size) / 64 + 1, sizeof(*ft->busy_sum));
	if (ft->fte == NULL || ft->busy == NULL || ft->busy_sum == NULL) {
		mlx5v_sim_eth_ft_free(ft);
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR, MLX5V_SIM_SYND_FT_NONE);
	}
	ft->valid = 1;
	ft->type = MLX5V_FT_TYPE_NIC_RX;
	ft->level = level;
	ft->log_size = log_size;
	ft->miss_action = act;
	if (miss != NULL) {
		ft->miss_table = MLX5V_GET(create_flow_table_in, in, ctx.table_miss_id);
		miss->refs++;
	}
	e->live[MLX5V_SIM_ETH_K_FT]++;
	MLX5V_SET(eth_obj_out, c->out, obj_id, MLX5V_SIM_ETH_FT_BASE + i);
	return MLX5V_CMD_STAT_OK;
}

/* A table in use (root, miss target, destination) or with groups stays (prm/mlx5_eth §12). */
uint8_t
mlx5v_sim_cmd_destroy_flow_table(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_eth_ft *ft = mlx5v_sim_eth_ft_from_in(sim, c, &status);
	struct mlx5v_sim_eth_ft *miss;

	if (ft == NULL)
		return status;
	if (ft->refs != 0 || ft->nfg != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_FT_BUSY);
	miss = ft->miss_table != 0 ? mlx5v_sim_eth_ft_get(sim, ft->miss_table) : NULL;
	if (miss != NULL && miss->refs > 0)
		miss->refs--;
	mlx5v_sim_eth_ft_free(ft);
	memset(ft, 0, sizeof(*ft));
	sim->eth->live[MLX5V_SIM_ETH_K_FT]--;
	return MLX5V_CMD_STAT_OK;
}

/*
 * op_mod 0 sets the NIC RX root, op_mod 1 disconnects it ([K] update_root_ft, prm/mlx5_eth §4.10).
 */
uint8_t
mlx5v_sim_cmd_set_flow_table_root(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_eth *e = sim->eth;
	struct mlx5v_sim_eth_ft *ft = NULL, *old;

	if (c->op_mod == 0) {
		ft = mlx5v_sim_eth_ft_from_in(sim, c, &status);
		if (ft == NULL)
			return status;
	} else if (MLX5V_GET(flow_table_obj_in, c->in, other_vport) != 0 ||
		   MLX5V_GET(flow_table_obj_in, c->in, vport_number) != 0) {
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_VPORT);
	}
	if (ft != NULL)
		ft->refs++;
	old = mlx5v_sim_eth_root(sim);
	if (old != NULL && old->refs > 0)
		old->refs--;
	e->root_ft = ft != NULL ? MLX5V_GET(flow_table_obj_in, c->in, table_id) : 0;
	return MLX5V_CMD_STAT_OK;
}

/* The modelled fields of one fte_match_set_lyr_2_4 (outer or inner headers). */
static void
mlx5v_sim_eth_match_modelled_lyr(uint8_t *m)
{
	MLX5V_SET(fte_match_set_lyr_2_4, m, smac_47_16, UINT32_MAX);
	MLX5V_SET(fte_match_set_lyr_2_4, m, smac_15_0, 0xffff);
	MLX5V_SET(fte_match_set_lyr_2_4, m, ethertype, 0xffff);
	MLX5V_SET(fte_match_set_lyr_2_4, m, dmac_47_16, UINT32_MAX);
	MLX5V_SET(fte_match_set_lyr_2_4, m, dmac_15_0, 0xffff);
	MLX5V_SET(fte_match_set_lyr_2_4, m, ip_protocol, 0xff);
	MLX5V_SET(fte_match_set_lyr_2_4, m, ip_version, 0xf);
	MLX5V_SET(fte_match_set_lyr_2_4, m, frag, 0x1);
	MLX5V_SET(fte_match_set_lyr_2_4, m, first_prio, 0x7);
	MLX5V_SET(fte_match_set_lyr_2_4, m, first_cfi, 0x1);
	MLX5V_SET(fte_match_set_lyr_2_4, m, first_vid, 0xfff);
	MLX5V_SET(fte_match_set_lyr_2_4, m, cvlan_tag, 0x1);
	MLX5V_SET(fte_match_set_lyr_2_4, m, tcp_flags, 0x1ff);
	MLX5V_SET(fte_match_set_lyr_2_4, m, tcp_sport, 0xffff);
	MLX5V_SET(fte_match_set_lyr_2_4, m, tcp_dport, 0xffff);
	MLX5V_SET(fte_match_set_lyr_2_4, m, udp_sport, 0xffff);
	MLX5V_SET(fte_match_set_lyr_2_4, m, udp_dport, 0xffff);
	memset(MLX5V_IFC_ADDR_OF(fte_match_set_lyr_2_4, m, src_ipv4_src_ipv6), 0xff, 16);
	memset(MLX5V_IFC_ADDR_OF(fte_match_set_lyr_2_4, m, dst_ipv4_dst_ipv6), 0xff, 16);
}

void
mlx5v_sim_eth_match_modelled(uint8_t *m)
{
	RTE_BUILD_BUG_ON(MLX5V_IFC_BYTE_OFF(fte_match_param, misc_parameters_4) !=
			 MLX5V_SIM_ETH_MATCH_LEN);
	memset(m, 0, MLX5V_SIM_ETH_MATCH_LEN);
	mlx5v_sim_eth_match_modelled_lyr(MLX5V_IFC_ADDR_OF(fte_match_param, m, outer_headers));
	mlx5v_sim_eth_match_modelled_lyr(MLX5V_IFC_ADDR_OF(fte_match_param, m, inner_headers));
	MLX5V_SET(fte_match_param, m, misc_parameters.vxlan_vni, 0xffffff);
	MLX5V_SET(fte_match_param, m, misc_parameters_3.icmp_type, 0xff);
	MLX5V_SET(fte_match_param, m, misc_parameters_3.icmp_code, 0xff);
	MLX5V_SET(fte_match_param, m, misc_parameters_3.icmpv6_type, 0xff);
	MLX5V_SET(fte_match_param, m, misc_parameters_3.icmpv6_code, 0xff);
}

/* The match_criteria_enable bit of each section the model keeps, in layout order. */
static const struct {
	uint8_t bit;
	uint16_t off;
	uint16_t len;
} mlx5v_sim_eth_sections[] = {
	{ MLX5V_MATCH_OUTER_HEADERS, MLX5V_IFC_BYTE_OFF(fte_match_param, outer_headers),
	  MLX5V_IFC_BYTES(fte_match_set_lyr_2_4) },
	{ MLX5V_MATCH_MISC_PARAMETERS, MLX5V_IFC_BYTE_OFF(fte_match_param, misc_parameters),
	  MLX5V_IFC_BYTES(fte_match_set_misc) },
	{ MLX5V_MATCH_INNER_HEADERS, MLX5V_IFC_BYTE_OFF(fte_match_param, inner_headers),
	  MLX5V_IFC_BYTES(fte_match_set_lyr_2_4) },
	{ MLX5V_MATCH_MISC_PARAMETERS_3, MLX5V_IFC_BYTE_OFF(fte_match_param, misc_parameters_3),
	  MLX5V_IFC_BYTES(fte_match_set_misc3) },
};

/*
 * Match-all groups, and masks over the modelled fields of the enabled sections (outer and
 * inner headers, misc, misc 3; mlx5v_sim_eth_match_modelled()): any other enable bit or mask
 * bit (DSCP, ECN, TTL, GRE, metadata) is refused. Misc 3's ICMP fields need the flex parser
 * the general caps announce (flex_parser_protocols, prm/mlx5_eth §3.4), the VNI and the inner
 * fields the flow table caps' ft_field_support bits; a section not enabled
 * leaves its mask 0, whatever its bytes hold. @return syndrome or 0.
 */
static uint32_t
mlx5v_sim_eth_fg_check_criteria(struct mlx5v_sim *sim, const uint8_t *in, uint8_t *mask)
{
	const uint8_t *crit = MLX5V_IFC_ADDR_OF(create_flow_group_in, in, match_criteria);
	uint32_t en = MLX5V_GET(create_flow_group_in, in, match_criteria_enable);
	uint8_t modelled[MLX5V_SIM_ETH_MATCH_LEN];
	uint32_t known = 0;
	uint32_t i, j, off;

	memset(mask, 0, MLX5V_SIM_ETH_MATCH_LEN);
	for (i = 0; i < RTE_DIM(mlx5v_sim_eth_sections); i++)
		known |= mlx5v_sim_eth_sections[i].bit;
	if ((en & ~known) != 0)
		return MLX5V_SIM_SYND_FG_CRITERIA;
	mlx5v_sim_eth_match_modelled(modelled);
	if (!mlx5v_sim_eth_flex_icmp(sim, 4)) {
		MLX5V_SET(fte_match_param, modelled, misc_parameters_3.icmp_type, 0);
		MLX5V_SET(fte_match_param, modelled, misc_parameters_3.icmp_code, 0);
	}
	if (!mlx5v_sim_eth_flex_icmp(sim, 6)) {
		MLX5V_SET(fte_match_param, modelled, misc_parameters_3.icmpv6_type, 0);
		MLX5V_SET(fte_match_param, modelled, misc_parameters_3.icmpv6_code, 0);
	}
	/* ft_field_support: the VNI and the inner fields only where the caps say so. */
	if (!mlx5v_sim_eth_ft_tunnel(sim)) {
		MLX5V_SET(fte_match_param, modelled, misc_parameters.vxlan_vni, 0);
		memset(MLX5V_IFC_ADDR_OF(fte_match_param, modelled, inner_headers), 0,
		       MLX5V_IFC_BYTES(fte_match_set_lyr_2_4));
	}
	for (i = 0; i < RTE_DIM(mlx5v_sim_eth_sections); i++) {
		if (!(en & mlx5v_sim_eth_sections[i].bit))
			continue;
		off = mlx5v_sim_eth_sections[i].off;
		for (j = off; j < off + mlx5v_sim_eth_sections[i].len; j++)
			if ((crit[j] & ~modelled[j]) != 0)
				return MLX5V_SIM_SYND_FG_CRITERIA;
		memcpy(mask + off, crit + off, mlx5v_sim_eth_sections[i].len);
	}
	return 0;
}

uint8_t
mlx5v_sim_cmd_create_flow_group(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_eth_ft *ft = mlx5v_sim_eth_ft_from_in(sim, c, &status);
	uint32_t start = MLX5V_GET(create_flow_group_in, c->in, start_flow_index);
	uint32_t end = MLX5V_GET(create_flow_group_in, c->in, end_flow_index);
	uint8_t mask[MLX5V_SIM_ETH_MATCH_LEN];
	struct mlx5v_sim_eth_fg *fg;
	uint32_t synd;
	uint32_t i;

	if (ft == NULL)
		return status;
	if (start > end || end >= (1u << ft->log_size))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_FG_RANGE);
	for (i = 1; i < RTE_DIM(ft->fg); i++)
		if (ft->fg[i].valid && start <= ft->fg[i].end && ft->fg[i].start <= end)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_FG_OVERLAP);
	synd = mlx5v_sim_eth_fg_check_criteria(sim, c->in, mask);
	if (synd != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	for (i = 1; i < RTE_DIM(ft->fg); i++)
		if (!ft->fg[i].valid)
			break;
	if (i >= RTE_DIM(ft->fg))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_FG_NONE);
	fg = &ft->fg[i];
	memset(fg, 0, sizeof(*fg));
	fg->valid = 1;
	fg->start = start;
	fg->end = end;
	fg->criteria_enable = MLX5V_GET(create_flow_group_in, c->in, match_criteria_enable);
	memcpy(fg->mask, mask, sizeof(mask));
	ft->nfg++;
	sim->eth->live[MLX5V_SIM_ETH_K_FG]++;
	MLX5V_SET(eth_obj_out, c->out, obj_id, MLX5V_SIM_ETH_FG_BASE + i);
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_destroy_flow_group(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_eth_ft *ft = mlx5v_sim_eth_ft_from_in(sim, c, &status);
	struct mlx5v_sim_eth_fg *fg;

	if (ft == NULL)
		return status;
	fg = mlx5v_sim_eth_fg_get(ft, MLX5V_GET(flow_table_obj_in, c->in, group_id));
	if (fg == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FG_NUM);
	/* prm/mlx5_eth §12: the entries go before their group. */
	if (fg->refs != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_FG_BUSY);
	memset(fg, 0, sizeof(*fg));
	ft->nfg--;
	sim->eth->live[MLX5V_SIM_ETH_K_FG]--;
	return MLX5V_CMD_STAT_OK;
}

/* Take (1) or drop (-1) the references an entry holds on its destinations. */
static void
mlx5v_sim_eth_fte_refs(struct mlx5v_sim *sim, const struct mlx5v_sim_eth_fte *f, int delta)
{
	struct mlx5v_sim_eth_fcnt *cnt;
	struct mlx5v_sim_eth_tir *tir;
	struct mlx5v_sim_eth_ft *ft;
	unsigned int *refs;
	uint32_t i;

	cnt = f->counter != 0 ? mlx5v_sim_eth_fcnt_get(sim, f->counter) : NULL;
	if (cnt != NULL && delta > 0)
		cnt->refs++;
	else if (cnt != NULL && cnt->refs > 0)
		cnt->refs--;
	for (i = 0; i < f->ndest; i++) {
		refs = NULL;
		if (f->dest[i].type == MLX5V_FLOW_DEST_TIR) {
			tir = mlx5v_sim_eth_tir_get(sim, f->dest[i].id);
			refs = tir != NULL ? &tir->refs : NULL;
		} else {
			ft = mlx5v_sim_eth_ft_get(sim, f->dest[i].id);
			refs = ft != NULL ? &ft->refs : NULL;
		}
		if (refs == NULL)
			continue;
		if (delta > 0)
			(*refs)++;
		else if (*refs > 0)
			(*refs)--;
	}
}

/*
 * The counter list after the n destinations: with the COUNT action exactly one entry, an
 * allocated counter; none without it. Fills f->counter. @return status.
 */
static uint8_t
mlx5v_sim_eth_fte_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c,
			  struct mlx5v_sim_eth_fte *f, uint32_t n)
{
	const uint8_t *fc = MLX5V_IFC_ADDR_OF(set_fte_in, c->in, ctx);
	uint32_t nc = MLX5V_GET(flow_context, fc, flow_counter_list_size);
	uint32_t off = MLX5V_IFC_BYTES(set_fte_in) + n * MLX5V_IFC_BYTES(dest_format);

	if ((nc != 0) != ((f->action & MLX5V_FTE_ACTION_COUNT) != 0) || nc > 1)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_FTE_ACTION);
	if (nc == 0)
		return MLX5V_CMD_STAT_OK;
	if ((uint64_t)off + MLX5V_IFC_BYTES(flow_counter_list) > c->inlen)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
					 MLX5V_SIM_SYND_FTE_DEST_LEN);
	f->counter = MLX5V_GET(flow_counter_list, c->in + off, flow_counter_id);
	/* A counter id never allocated, or deallocated, names nothing (prm/mlx5_eth §4.10). */
	if (mlx5v_sim_eth_fcnt_get(sim, f->counter) == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR,
					 MLX5V_SIM_SYND_FTE_COUNTER);
	return MLX5V_CMD_STAT_OK;
}

/*
 * Action and destination checks of set_fte_in: FWD_DEST to TIRs or deeper tables, or DROP
 * with no destination, either with COUNT. Fills f->dest and f->counter. @return status.
 */
static uint8_t
mlx5v_sim_eth_fte_dests(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c,
			const struct mlx5v_sim_eth_ft *src, struct mlx5v_sim_eth_fte *f)
{
	const uint8_t *fc = MLX5V_IFC_ADDR_OF(set_fte_in, c->in, ctx);
	uint32_t n = MLX5V_GET(flow_context, fc, destination_list_size);
	uint32_t off = MLX5V_IFC_BYTES(set_fte_in);
	struct mlx5v_sim_eth_ft *ft;
	const uint8_t *d;
	uint32_t i;

	uint32_t fate;

	f->action = MLX5V_GET(flow_context, fc, action);
	fate = f->action & ~(uint32_t)MLX5V_FTE_ACTION_COUNT;
	/* Header rewrites, VLAN actions and extended destinations: not modelled. */
	if ((fate != MLX5V_FTE_ACTION_FWD_DEST && fate != MLX5V_FTE_ACTION_DROP) ||
			MLX5V_GET(flow_context, fc, extended_destination) != 0 ||
			(fate == MLX5V_FTE_ACTION_FWD_DEST) != (n != 0))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_FTE_ACTION);
	if (n > (1u << MLX5V_SIM_ETH_LOG_MAX_DEST))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_FTE_DEST_TYPE);
	if ((uint64_t)off + (uint64_t)n * MLX5V_IFC_BYTES(dest_format) > c->inlen)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
					 MLX5V_SIM_SYND_FTE_DEST_LEN);
	f->dest = calloc(n + 1, sizeof(*f->dest));
	if (f->dest == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR, MLX5V_SIM_SYND_FTE_DUP);
	for (i = 0; i < n; i++) {
		d = c->in + off + i * MLX5V_IFC_BYTES(dest_format);
		f->dest[i].type = MLX5V_GET(dest_format, d, destination_type);
		f->dest[i].id = MLX5V_GET(dest_format, d, destination_id);
		if (f->dest[i].type == MLX5V_FLOW_DEST_TIR) {
			if (mlx5v_sim_eth_tir_get(sim, f->dest[i].id) == NULL)
				return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR,
							 MLX5V_SIM_SYND_FTE_DEST_ID);
		} else if (f->dest[i].type == MLX5V_FLOW_DEST_FLOW_TABLE) {
			ft = mlx5v_sim_eth_ft_get(sim, f->dest[i].id);
			if (ft == NULL)
				return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR,
							 MLX5V_SIM_SYND_FTE_DEST_ID);
			/*
			 * prm/mlx5_eth §4.10: a table forwards down the levels unless
			 * ignore_flow_level.
			 */
			if (ft->level <= src->level &&
					!MLX5V_GET(set_fte_in, c->in, ignore_flow_level))
				return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
							 MLX5V_SIM_SYND_FTE_DEST_LEVEL);
		} else {
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_FTE_DEST_TYPE);
		}
	}
	f->ndest = n;
	return mlx5v_sim_eth_fte_counter(sim, c, f, n);
}

/* The group whose range holds index, or 0. */
static uint32_t
mlx5v_sim_eth_fg_of(const struct mlx5v_sim_eth_ft *ft, uint32_t index)
{
	uint32_t i;

	for (i = 1; i < RTE_DIM(ft->fg); i++)
		if (ft->fg[i].valid && ft->fg[i].start <= index && index <= ft->fg[i].end)
			return i;
	return 0;
}

static void
mlx5v_sim_eth_fte_free(struct mlx5v_sim_eth_fte *f)
{
	if (f == NULL)
		return;
	free(f->dest);
	free(f);
}

/* op_mod 0 only: a new entry at a free index (dispatch refuses op_mod 1, modify). */
uint8_t
mlx5v_sim_cmd_set_fte(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_eth_ft *ft = mlx5v_sim_eth_ft_from_in(sim, c, &status);
	const uint8_t *fc = MLX5V_IFC_ADDR_OF(set_fte_in, c->in, ctx);
	const uint8_t *val = MLX5V_IFC_ADDR_OF(flow_context, fc, match_value);
	uint32_t index = MLX5V_GET(set_fte_in, c->in, flow_index);
	struct mlx5v_sim_eth_fte *f;
	struct mlx5v_sim_eth_fg *fg;
	uint32_t g, i;

	if (ft == NULL)
		return status;
	g = index < (1u << ft->log_size) ? mlx5v_sim_eth_fg_of(ft, index) : 0;
	if (g == 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_FTE_INDEX);
	fg = &ft->fg[g];
	if (MLX5V_GET(flow_context, fc, group_id) != MLX5V_SIM_ETH_FG_BASE + g)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_FTE_GROUP);
	if (ft->fte[index] != NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_FTE_DUP);
	/* A value bit the group does not mask could never match (prm/mlx5_eth §4.14). */
	for (i = 0; i < MLX5V_SIM_ETH_MATCH_LEN; i++)
		if ((val[i] & ~fg->mask[i]) != 0)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_FTE_MATCH);
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR, MLX5V_SIM_SYND_FTE_DUP);
	status = mlx5v_sim_eth_fte_dests(sim, c, ft, f);
	if (status != MLX5V_CMD_STAT_OK) {
		mlx5v_sim_eth_fte_free(f);
		return status;
	}
	f->group = MLX5V_SIM_ETH_FG_BASE + g;
	f->flow_tag = MLX5V_GET(flow_context, fc, flow_tag);
	memcpy(f->value, val, MLX5V_SIM_ETH_MATCH_LEN);
	mlx5v_sim_eth_fte_refs(sim, f, 1);
	fg->refs++;
	ft->fte[index] = f;
	mlx5v_sim_eth_ft_busy(ft, index, 1);
	ft->nfte++;
	sim->eth->live[MLX5V_SIM_ETH_K_FTE]++;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_delete_fte(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_eth_ft *ft = mlx5v_sim_eth_ft_from_in(sim, c, &status);
	uint32_t index = MLX5V_GET(flow_table_obj_in, c->in, flow_index);
	struct mlx5v_sim_eth_fte *f;
	struct mlx5v_sim_eth_fg *fg;

	if (ft == NULL)
		return status;
	if (index >= (1u << ft->log_size) || ft->fte[index] == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FTE_NUM);
	f = ft->fte[index];
	mlx5v_sim_eth_fte_refs(sim, f, -1);
	fg = mlx5v_sim_eth_fg_get(ft, f->group);
	if (fg != NULL && fg->refs > 0)
		fg->refs--;
	mlx5v_sim_eth_fte_free(f);
	ft->fte[index] = NULL;
	mlx5v_sim_eth_ft_busy(ft, index, 0);
	ft->nfte--;
	sim->eth->live[MLX5V_SIM_ETH_K_FTE]--;
	return MLX5V_CMD_STAT_OK;
}

/* Teardown only, engine stopped. */
void
mlx5v_sim_eth_steer_free(struct mlx5v_sim *sim)
{
	struct mlx5v_sim_eth *e = sim->eth;
	struct mlx5v_sim_eth_ft *ft;
	uint32_t i, j;

	for (i = 0; i < RTE_DIM(e->ft); i++) {
		ft = &e->ft[i];
		if (ft->fte != NULL)
			for (j = 0; j < (1u << ft->log_size); j++)
				mlx5v_sim_eth_fte_free(ft->fte[j]);
		mlx5v_sim_eth_ft_free(ft);
		ft->valid = 0;
	}
	for (i = 0; i < RTE_DIM(e->rqt); i++) {
		free(e->rqt[i].rqn);
		e->rqt[i].rqn = NULL;
		e->rqt[i].valid = 0;
	}
}
