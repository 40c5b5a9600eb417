/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Ethernet function of the model: the object store, lookups, PD, TD, memory keys and
 * Q counters (prm/mlx5_eth §1, §4.2, §4.11).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_priv.h"


/* Largest MTT page the model accepts: 1 GiB (log 30). */
#define MLX5V_SIM_ETH_MKEY_MAX_LOG_PAGE 30
#define MLX5V_SIM_ETH_MKEY_MIN_LOG_PAGE 12
#define MLX5V_SIM_ETH_QPN_NONE 0xffffff

int
mlx5v_sim_eth_init(struct mlx5v_sim *sim)
{
	sim->eth = calloc(1, sizeof(*sim->eth));
	if (sim->eth == NULL)
		return -ENOMEM;
	mlx5v_sim_eth_port_init(sim);
	return 0;
}

static void
mlx5v_sim_eth_wq_free(struct mlx5v_sim_eth_wq *wq)
{
	free(wq->pas);
	wq->pas = NULL;
	wq->npas = 0;
}

static void
mlx5v_sim_eth_mkey_free(struct mlx5v_sim_eth_mkey *mk)
{
	free(mk->mtt);
	free(mk->mtt_perm);
	memset(mk, 0, sizeof(*mk));
}

/* Teardown only, engine stopped. The leftovers were logged by mlx5v_sim_destroy(). */
void
mlx5v_sim_eth_fini(struct mlx5v_sim *sim)
{
	struct mlx5v_sim_eth *e = sim->eth;
	unsigned int i;

	if (e == NULL)
		return;
	mlx5v_sim_eth_steer_free(sim);
	for (i = 0; i < RTE_DIM(e->mkey); i++)
		mlx5v_sim_eth_mkey_free(&e->mkey[i]);
	for (i = 0; i < RTE_DIM(e->sq); i++)
		mlx5v_sim_eth_wq_free(&e->sq[i].wq);
	for (i = 0; i < RTE_DIM(e->rq); i++)
		mlx5v_sim_eth_wq_free(&e->rq[i].wq);
	free(e);
	sim->eth = NULL;
}

unsigned int
mlx5v_sim_eth_live(struct mlx5v_sim *sim, enum mlx5v_sim_eth_kind k)
{
	if (sim->eth == NULL || (unsigned int)k >= MLX5V_SIM_ETH_K_MAX)
		return 0;
	return sim->eth->live[k];
}

/*
 * prm/mlx5_eth §11.1: the link comes up by itself after INIT_HCA unless the driver set
 * disable_link_up_by_init_hca; then it waits for a PAOS admin up.
 */
void
mlx5v_sim_eth_hca_init(struct mlx5v_sim *sim)
{
	sim->eth->port.admin_status =
		MLX5V_GET(cmd_hca_cap_eth, sim->cap_cur, disable_link_up_by_init_hca) != 0 ?
		MLX5V_PAOS_DOWN : MLX5V_PAOS_UP;
}

int
mlx5v_sim_eth_fault(struct mlx5v_sim *sim, unsigned int knob)
{
	int64_t n = mlx5v_sim_knob(sim, knob);

	if (n <= 0)
		return 0;
	hwsim_knob_set(sim->knobs, knob, n - 1);
	return 1;
}

/* ---- Lookups: number = base + index, index 0 never used (mlx5v_sim_eth.h) ---- */

#define ETH_GET(arr, base, num) do { \
	uint32_t i_ = (uint32_t)(num) - (uint32_t)(base); /* below base: wraps, too big */ \
	if (i_ == 0 || i_ >= RTE_DIM(arr) || !(arr)[i_].valid) \
		return NULL; \
	return &(arr)[i_]; \
} while (0)

struct mlx5v_sim_eth_dom *
mlx5v_sim_eth_pd_get(struct mlx5v_sim *sim, uint32_t pdn)
{
	ETH_GET(sim->eth->pd, MLX5V_SIM_ETH_PD_BASE, pdn);
}

struct mlx5v_sim_eth_dom *
mlx5v_sim_eth_td_get(struct mlx5v_sim *sim, uint32_t tdn)
{
	ETH_GET(sim->eth->td, MLX5V_SIM_ETH_TD_BASE, tdn);
}

struct mlx5v_sim_eth_sq *
mlx5v_sim_eth_sq_get(struct mlx5v_sim *sim, uint32_t sqn)
{
	ETH_GET(sim->eth->sq, MLX5V_SIM_ETH_SQ_BASE, sqn);
}

struct mlx5v_sim_eth_rq *
mlx5v_sim_eth_rq_get(struct mlx5v_sim *sim, uint32_t rqn)
{
	ETH_GET(sim->eth->rq, MLX5V_SIM_ETH_RQ_BASE, rqn);
}

struct mlx5v_sim_eth_tis *
mlx5v_sim_eth_tis_get(struct mlx5v_sim *sim, uint32_t tisn)
{
	ETH_GET(sim->eth->tis, MLX5V_SIM_ETH_TIS_BASE, tisn);
}

struct mlx5v_sim_eth_tir *
mlx5v_sim_eth_tir_get(struct mlx5v_sim *sim, uint32_t tirn)
{
	ETH_GET(sim->eth->tir, MLX5V_SIM_ETH_TIR_BASE, tirn);
}

struct mlx5v_sim_eth_rqt *
mlx5v_sim_eth_rqt_get(struct mlx5v_sim *sim, uint32_t rqtn)
{
	ETH_GET(sim->eth->rqt, MLX5V_SIM_ETH_RQT_BASE, rqtn);
}

struct mlx5v_sim_eth_ft *
mlx5v_sim_eth_ft_get(struct mlx5v_sim *sim, uint32_t table_id)
{
	ETH_GET(sim->eth->ft, MLX5V_SIM_ETH_FT_BASE, table_id);
}

struct mlx5v_sim_eth_fg *
mlx5v_sim_eth_fg_get(struct mlx5v_sim_eth_ft *ft, uint32_t group_id)
{
	ETH_GET(ft->fg, MLX5V_SIM_ETH_FG_BASE, group_id);
}

struct mlx5v_sim_eth_qcnt *
mlx5v_sim_eth_qcnt_get(struct mlx5v_sim *sim, uint32_t id)
{
	ETH_GET(sim->eth->qcnt, 0, id);
}

struct mlx5v_sim_eth_fcnt *
mlx5v_sim_eth_fcnt_get(struct mlx5v_sim *sim, uint32_t id)
{
	ETH_GET(sim->eth->fcnt, MLX5V_SIM_ETH_FCNT_BASE, id);
}

static struct mlx5v_sim_eth_mkey *
mlx5v_sim_eth_mkey_get(struct mlx5v_sim *sim, uint32_t index)
{
	if (index < MLX5V_SIM_ETH_MKEY_FIRST)
		return NULL;
	ETH_GET(sim->eth->mkey, 0, index);
}

struct mlx5v_sim_eth_ft *
mlx5v_sim_eth_root(struct mlx5v_sim *sim)
{
	return sim->eth->root_ft != 0 ? mlx5v_sim_eth_ft_get(sim, sim->eth->root_ft) : NULL;
}

struct mlx5v_sim_eth_port *
mlx5v_sim_eth_port(struct mlx5v_sim *sim)
{
	return &sim->eth->port;
}

int
mlx5v_sim_eth_link_up(struct mlx5v_sim *sim)
{
	return sim->eth->port.admin_status == MLX5V_PAOS_UP && sim->eth->port.carrier;
}

uint64_t
mlx5v_sim_eth_wq_iova(const struct mlx5v_sim_eth_wq *wq, uint64_t off)
{
	return mlx5v_sim_ring_iova(wq->pas, wq->log_pg_sz, off);
}

/* ---- Protection and transport domains ---- */

/* @return the lowest free index >= first of a table of n entries, or n. */
#define ETH_FREE_SLOT(arr, first) __extension__ ({ \
	uint32_t i_; \
	for (i_ = (first); i_ < RTE_DIM(arr); i_++) \
		if (!(arr)[i_].valid) \
			break; \
	i_; })

/*
 * Allocate a PD or TD: the lowest free number, LIM_ERR past log_max_* (prm/mlx5_eth §3.2, §4.14).
 */
static uint8_t
mlx5v_sim_eth_dom_alloc(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c,
			struct mlx5v_sim_eth_dom *dom, uint32_t n, uint32_t base,
			enum mlx5v_sim_eth_kind kind, uint32_t synd_none)
{
	uint32_t i;

	for (i = 1; i < n; i++)
		if (!dom[i].valid)
			break;
	if (i >= n)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, synd_none);
	dom[i].valid = 1;
	dom[i].refs = 0;
	sim->eth->live[kind]++;
	MLX5V_SET(eth_obj_out, c->out, obj_id, base + i);
	return MLX5V_CMD_STAT_OK;
}

/* Free a PD or TD; one still referenced stays (prm/mlx5_eth §12: its users go first). */
static uint8_t
mlx5v_sim_eth_dom_dealloc(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c,
			  struct mlx5v_sim_eth_dom *d, enum mlx5v_sim_eth_kind kind,
			  uint32_t synd_num, uint32_t synd_busy)
{
	if (d == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, synd_num);
	if (d->refs != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR, synd_busy);
	d->valid = 0;
	sim->eth->live[kind]--;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_alloc_pd(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	return mlx5v_sim_eth_dom_alloc(sim, c, sim->eth->pd, RTE_DIM(sim->eth->pd),
				       MLX5V_SIM_ETH_PD_BASE, MLX5V_SIM_ETH_K_PD,
				       MLX5V_SIM_SYND_PD_NONE);
}

uint8_t
mlx5v_sim_cmd_dealloc_pd(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	return mlx5v_sim_eth_dom_dealloc(
			sim, c, mlx5v_sim_eth_pd_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id)),
			MLX5V_SIM_ETH_K_PD, MLX5V_SIM_SYND_PD_NUM, MLX5V_SIM_SYND_PD_BUSY);
}

uint8_t
mlx5v_sim_cmd_alloc_td(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	return mlx5v_sim_eth_dom_alloc(sim, c, sim->eth->td, RTE_DIM(sim->eth->td),
				       MLX5V_SIM_ETH_TD_BASE, MLX5V_SIM_ETH_K_TD,
				       MLX5V_SIM_SYND_TD_NONE);
}

uint8_t
mlx5v_sim_cmd_dealloc_td(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	return mlx5v_sim_eth_dom_dealloc(
			sim, c, mlx5v_sim_eth_td_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id)),
			MLX5V_SIM_ETH_K_TD, MLX5V_SIM_SYND_TD_NUM, MLX5V_SIM_SYND_TD_BUSY);
}

/* ---- Memory keys (prm/mlx5_eth §4.2) ---- */

uint8_t
mlx5v_sim_cmd_query_special_contexts(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	RTE_SET_USED(sim);
	MLX5V_SET(query_special_contexts_out, c->out, dump_fill_mkey, MLX5V_SIM_ETH_DUMP_FILL_MKEY);
	MLX5V_SET(query_special_contexts_out, c->out, resd_lkey, MLX5V_SIM_ETH_RESD_LKEY);
	MLX5V_SET(query_special_contexts_out, c->out, null_mkey, MLX5V_SIM_ETH_NULL_MKEY);
	MLX5V_SET(query_special_contexts_out, c->out, terminate_scatter_list_mkey,
	    MLX5V_SIM_ETH_TERM_MKEY);
	return MLX5V_CMD_STAT_OK;
}

/*
 * MTT translation entries (MTT mode): inlen holds them, each is page aligned once the
 * permission bits are masked, and each page is DMA mapped now. @return status.
 */
static uint8_t
mlx5v_sim_eth_mtt_read(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c,
		       struct mlx5v_sim_eth_mkey *mk, uint32_t npages)
{
	uint32_t off = MLX5V_IFC_BYTES(create_mkey_in);
	uint32_t oct = MLX5V_GET(create_mkey_in, c->in, translations_octword_actual_size);
	uint64_t psz = UINT64_C(1) << mk->log_page_size;
	uint64_t e;
	uint32_t i;

	/* Two BE64 entries per octword (prm/mlx5_eth §4.2). */
	if (oct == 0 || (uint64_t)oct * 2 < npages)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_MKEY_MTT_SIZE);
	if ((uint64_t)off + (uint64_t)npages * 8 > c->inlen)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
					 MLX5V_SIM_SYND_MKEY_MTT_LEN);
	mk->mtt = calloc(npages, sizeof(*mk->mtt));
	mk->mtt_perm = calloc(npages, 1);
	if (mk->mtt == NULL || mk->mtt_perm == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR,
					 MLX5V_SIM_SYND_MKEY_NONE);
	for (i = 0; i < npages; i++) {
		e = MLX5V_IFC_GET64(pas_entry, c->in + off + 8 * i, addr);
		mk->mtt_perm[i] = e & (MLX5V_MTT_READ | MLX5V_MTT_WRITE);
		mk->mtt[i] = e & ~(uint64_t)(MLX5V_MTT_READ | MLX5V_MTT_WRITE);
		if (mk->mtt[i] & (psz - 1))
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_MKEY_MTT_ALIGN);
		if (!hwsim_dma_check(sim->dma, mk->mtt[i], psz))
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_MKEY_UNMAPPED);
	}
	mk->nmtt = npages;
	return MLX5V_CMD_STAT_OK;
}

/* Field checks of create_mkey_in that need no object. @return syndrome or 0. */
static uint32_t
mlx5v_sim_eth_mkey_check(const uint8_t *in)
{
	/* Free keys (UMR targets), UMR, umem and QP binding are not modelled. */
	if (MLX5V_GET(create_mkey_in, in, mkc.free) != 0 ||
	    MLX5V_GET(create_mkey_in, in, mkc.umr_en) != 0 ||
	    MLX5V_GET(create_mkey_in, in, mkey_umem_valid) != 0 ||
	    MLX5V_GET(create_mkey_in, in, pg_access) != 0 ||
	    MLX5V_GET(create_mkey_in, in, mkc.bsf_en) != 0 ||
	    MLX5V_GET(create_mkey_in, in, mkc.qpn) != MLX5V_SIM_ETH_QPN_NONE)
		return MLX5V_SIM_SYND_MKEY_UNSUPP;
	if (MLX5V_GET(create_mkey_in, in, mkc.access_mode_4_2) != 0 ||
	    (MLX5V_GET(create_mkey_in, in, mkc.access_mode_1_0) != MLX5V_MKC_ACCESS_PA &&
	     MLX5V_GET(create_mkey_in, in, mkc.access_mode_1_0) != MLX5V_MKC_ACCESS_MTT))
		return MLX5V_SIM_SYND_MKEY_MODE;
	return 0;
}

uint8_t
mlx5v_sim_cmd_create_mkey(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *in = c->in;
	struct mlx5v_sim_eth *e = sim->eth;
	struct mlx5v_sim_eth_mkey *mk;
	struct mlx5v_sim_eth_dom *pd;
	uint64_t first, last;
	uint32_t synd;
	uint32_t i;
	uint8_t st;

	synd = mlx5v_sim_eth_mkey_check(in);
	if (synd != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	pd = mlx5v_sim_eth_pd_get(sim, MLX5V_GET(create_mkey_in, in, mkc.pd));
	if (pd == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_MKEY_PD);
	i = ETH_FREE_SLOT(e->mkey, MLX5V_SIM_ETH_MKEY_FIRST);
	if (i >= RTE_DIM(e->mkey))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_MKEY_NONE);
	mk = &e->mkey[i];
	memset(mk, 0, sizeof(*mk));
	mk->mode = MLX5V_GET(create_mkey_in, in, mkc.access_mode_1_0);
	mk->variant = MLX5V_GET(create_mkey_in, in, mkc.mkey_7_0);
	mk->lw = MLX5V_GET(create_mkey_in, in, mkc.lw);
	mk->lr = MLX5V_GET(create_mkey_in, in, mkc.lr);
	mk->length64 = MLX5V_GET(create_mkey_in, in, mkc.length64);
	mk->pd = MLX5V_GET(create_mkey_in, in, mkc.pd);
	mk->start = MLX5V_IFC_GET64(create_mkey_in, in, mkc.start_addr);
	mk->len = MLX5V_IFC_GET64(create_mkey_in, in, mkc.len);
	/* A key covers [start, start + len), or everything with length64 (PA mode only). */
	if (mk->mode == MLX5V_MKC_ACCESS_MTT && mk->length64)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_MKEY_RANGE);
	if (!mk->length64 && (mk->len == 0 || mk->start + mk->len - 1 < mk->start))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_MKEY_RANGE);
	if (mk->mode == MLX5V_MKC_ACCESS_MTT) {
		/* mkc.log_page_size is the absolute log2 of the page size (prm/mlx5_eth §4.2). */
		mk->log_page_size = MLX5V_GET(create_mkey_in, in, mkc.log_page_size);
		if (mk->log_page_size < MLX5V_SIM_ETH_MKEY_MIN_LOG_PAGE ||
				mk->log_page_size > MLX5V_SIM_ETH_MKEY_MAX_LOG_PAGE)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_MKEY_PAGE_SZ);
		first = mk->start >> mk->log_page_size;
		last = (mk->start + mk->len - 1) >> mk->log_page_size;
		if (last - first + 1 > MLX5V_SIM_MAX_PAS)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_MKEY_MTT_SIZE);
		st = mlx5v_sim_eth_mtt_read(sim, c, mk, (uint32_t)(last - first + 1));
		if (st != MLX5V_CMD_STAT_OK) {
			mlx5v_sim_eth_mkey_free(mk);
			return st;
		}
	}
	/* fail_create_mkey: a device out of key resources after every check passed. */
	if (mlx5v_sim_eth_fault(sim, MLX5V_SIM_K_FAIL_CREATE_MKEY)) {
		mlx5v_sim_eth_mkey_free(mk);
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR, MLX5V_SIM_SYND_MKEY_FAULT);
	}
	mk->valid = 1;
	pd->refs++;
	e->live[MLX5V_SIM_ETH_K_MKEY]++;
	/* lkey = mkey_index << 8 | mkey_7_0; the output carries the index (prm/mlx5_eth §4.2). */
	MLX5V_SET(eth_obj_out, c->out, obj_id, i);
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_destroy_mkey(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_mkey *mk =
			mlx5v_sim_eth_mkey_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));
	struct mlx5v_sim_eth_dom *pd;

	if (mk == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_MKEY_NUM);
	pd = mlx5v_sim_eth_pd_get(sim, mk->pd);
	if (pd != NULL && pd->refs > 0)
		pd->refs--;
	mlx5v_sim_eth_mkey_free(mk);
	sim->eth->live[MLX5V_SIM_ETH_K_MKEY]--;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_query_mkey(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint32_t idx = MLX5V_GET(eth_obj_in, c->in, obj_id);
	struct mlx5v_sim_eth_mkey *mk = mlx5v_sim_eth_mkey_get(sim, idx);
	uint8_t *o = c->out;

	if (mk == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_MKEY_NUM);
	MLX5V_SET(query_mkey_out, o, memory_key_mkey_entry.access_mode_1_0, mk->mode);
	MLX5V_SET(query_mkey_out, o, memory_key_mkey_entry.lw, mk->lw);
	MLX5V_SET(query_mkey_out, o, memory_key_mkey_entry.lr, mk->lr);
	MLX5V_SET(query_mkey_out, o, memory_key_mkey_entry.qpn, MLX5V_SIM_ETH_QPN_NONE);
	MLX5V_SET(query_mkey_out, o, memory_key_mkey_entry.mkey_7_0, mk->variant);
	MLX5V_SET(query_mkey_out, o, memory_key_mkey_entry.length64, mk->length64);
	MLX5V_SET(query_mkey_out, o, memory_key_mkey_entry.pd, mk->pd);
	MLX5V_IFC_SET64(query_mkey_out, o, memory_key_mkey_entry.start_addr, mk->start);
	MLX5V_IFC_SET64(query_mkey_out, o, memory_key_mkey_entry.len, mk->len);
	MLX5V_SET(query_mkey_out, o, memory_key_mkey_entry.translations_octword_size,
	    (mk->nmtt + 1) / 2);
	MLX5V_SET(query_mkey_out, o, memory_key_mkey_entry.log_page_size, mk->log_page_size);
	return MLX5V_CMD_STAT_OK;
}

int
mlx5v_sim_eth_mkey_xlate(struct mlx5v_sim *sim, uint32_t pd, uint32_t lkey, uint64_t addr,
			 uint32_t len, unsigned int access, uint64_t *iova)
{
	struct mlx5v_sim_eth_mkey *mk;
	uint64_t off, psz, page, end;

	if (len == 0)
		return -ERANGE;
	/*
	 * The reserved lkey carries bus addresses: no key, no PD (prm/mlx5_eth §4.2), and only on a
	 * queue whose context has rlky (reserved lkey enable); silicon fails it otherwise.
	 */
	if (lkey == MLX5V_SIM_ETH_RESD_LKEY) {
		if (!(access & MLX5V_SIM_ETH_ACC_RLKY))
			return -EPERM;
		*iova = addr;
	} else {
		mk = mlx5v_sim_eth_mkey_get(sim, lkey >> 8);
		if (mk == NULL || mk->variant != (lkey & 0xff) || mk->pd != pd)
			return -EINVAL;
		if (((access & MLX5V_SIM_ETH_ACC_WRITE) && !mk->lw) ||
				((access & MLX5V_SIM_ETH_ACC_READ) && !mk->lr))
			return -EACCES;
		end = addr + len - 1;
		if (end < addr)
			return -ERANGE;
		if (!mk->length64 && (addr < mk->start || end > mk->start + mk->len - 1))
			return -ERANGE;
		if (mk->mode == MLX5V_MKC_ACCESS_PA) {
			*iova = addr;
		} else {
			/* One page at most per segment here; the data path splits at pages. */
			psz = UINT64_C(1) << mk->log_page_size;
			page = (addr >> mk->log_page_size) - (mk->start >> mk->log_page_size);
			off = addr & (psz - 1);
			if (off + len > psz)
				return -ERANGE;
			if (((access & MLX5V_SIM_ETH_ACC_WRITE) &&
					!(mk->mtt_perm[page] & MLX5V_MTT_WRITE)) ||
					((access & MLX5V_SIM_ETH_ACC_READ) &&
					 !(mk->mtt_perm[page] & MLX5V_MTT_READ)))
				return -EACCES;
			*iova = mk->mtt[page] + off;
		}
	}
	return hwsim_dma_check(sim->dma, *iova, len) ? 0 : -EFAULT;
}

int
mlx5v_sim_mkey_translate(struct mlx5v_sim *sim, uint32_t pd, uint32_t lkey, uint64_t addr,
			 uint32_t len, unsigned int access, uint64_t *iova)
{
	int ret;

	pthread_mutex_lock(&sim->lock);
	ret = mlx5v_sim_eth_mkey_xlate(sim, pd, lkey, addr, len, access, iova);
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

void *
mlx5v_sim_eth_mkey_ptr(struct mlx5v_sim *sim, uint32_t pd, uint32_t lkey, uint64_t addr,
		       uint32_t len, unsigned int access)
{
	uint64_t iova = 0;
	void *va;
	int ret;

	ret = mlx5v_sim_eth_mkey_xlate(sim, pd, lkey, addr, len, access, &iova);
	if (ret != 0 && ret != -EFAULT) {
		rte_errno = -ret;
		return NULL;
	}
	/* Through the IOMMU: an unmapped range is recorded as a fault. */
	va = hwsim_dma_translate(sim->dma, iova, len, (access & MLX5V_SIM_ETH_ACC_WRITE) != 0);
	if (va == NULL)
		rte_errno = EFAULT;
	return va;
}

/* ---- Q counters (prm/mlx5_eth §4.11) ---- */

uint8_t
mlx5v_sim_cmd_alloc_q_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth *e = sim->eth;
	uint32_t i = ETH_FREE_SLOT(e->qcnt, 1);

	/* prm/mlx5_eth §4.11: out of counters is syndrome 0x587239. */
	if (i >= RTE_DIM(e->qcnt))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_QCNT_NONE);
	memset(&e->qcnt[i], 0, sizeof(e->qcnt[i]));
	e->qcnt[i].valid = 1;
	e->live[MLX5V_SIM_ETH_K_QCNT]++;
	MLX5V_SET(alloc_q_counter_out, c->out, counter_set_id, i);
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_dealloc_q_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_qcnt *q =
		mlx5v_sim_eth_qcnt_get(sim, MLX5V_GET(dealloc_q_counter_in, c->in, counter_set_id));

	if (q == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_QCNT_NUM);
	if (q->refs != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_QCNT_BUSY);
	q->valid = 0;
	sim->eth->live[MLX5V_SIM_ETH_K_QCNT]--;
	return MLX5V_CMD_STAT_OK;
}

/* out_of_buffer is counted by the receive path; clear resets it after the read. */
uint8_t
mlx5v_sim_cmd_query_q_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_qcnt *q;

	if (MLX5V_GET(query_q_counter_in, c->in, other_vport) != 0 ||
			MLX5V_GET(query_q_counter_in, c->in, vport_number) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_VPORT);
	q = mlx5v_sim_eth_qcnt_get(sim, MLX5V_GET(query_q_counter_in, c->in, counter_set_id));
	if (q == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_QCNT_NUM);
	MLX5V_SET(query_q_counter_out, c->out, out_of_buffer, q->out_of_buffer);
	if (MLX5V_GET(query_q_counter_in, c->in, clear))
		q->out_of_buffer = 0;
	return MLX5V_CMD_STAT_OK;
}
