/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Ethernet function of the model: TIS, SQ and RQ commands and the queue state machine
 * (prm/mlx5_eth §4.4 - §4.7, §5).
 */

#include <stdlib.h>
#include <string.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_eth_dp.h"
#include "mlx5v_sim_priv.h"


#define MLX5V_SIM_ETH_WQ_CYCLIC 1
#define MLX5V_SIM_ETH_SQ_LOG_STRIDE 6       /* 64-byte WQEBB (prm/mlx5_eth §4.7) */
#define MLX5V_SIM_ETH_RQ_MIN_LOG_STRIDE 4   /* one 16-byte data segment */
/* The max_wqe_sz_rq the caps advertise: a larger RQ stride is refused. */
#define MLX5V_SIM_ETH_RQ_MAX_LOG_STRIDE 9
_Static_assert(1u << MLX5V_SIM_ETH_RQ_MAX_LOG_STRIDE == MLX5V_SIM_ETH_MAX_WQE_SZ_RQ,
	       "the RQ stride limit is not max_wqe_sz_rq");
/* sqc/rqc.ts_format values, and the sq_ts_format/rq_ts_format caps (prm/mlx5_eth §5.1). */
#define MLX5V_SIM_ETH_TS_FREE_RUNNING 0
#define MLX5V_SIM_ETH_TS_DEFAULT 1
#define MLX5V_SIM_ETH_TS_REAL_TIME 2
#define MLX5V_SIM_ETH_TS_CAP_FR 0
#define MLX5V_SIM_ETH_TS_CAP_RT 1

/* ---- TIS (prm/mlx5_eth §4.4) ---- */

uint8_t
mlx5v_sim_cmd_create_tis(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *in = c->in;
	struct mlx5v_sim_eth *e = sim->eth;
	struct mlx5v_sim_eth_dom *td;
	struct mlx5v_sim_eth_dom *pd = NULL;
	uint32_t pdn = MLX5V_GET(create_tis_in, in, ctx.pd);
	uint32_t i;

	/* One port, no LAG, no kTLS: those TIS fields must stay 0. */
	if (MLX5V_GET(create_tis_in, in, ctx.strict_lag_tx_port_affinity) != 0 ||
			MLX5V_GET(create_tis_in, in, ctx.lag_tx_port_affinity) != 0 ||
			MLX5V_GET(create_tis_in, in, ctx.tls_en) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_TIS_LAG);
	td = mlx5v_sim_eth_td_get(sim, MLX5V_GET(create_tis_in, in, ctx.transport_domain));
	if (td == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_TIS_TD);
	/* [K] leaves tisc.pd 0; a nonzero one must name a PD. */
	if (pdn != 0) {
		pd = mlx5v_sim_eth_pd_get(sim, pdn);
		if (pd == NULL)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR,
						 MLX5V_SIM_SYND_TIS_PD);
	}
	for (i = 1; i < RTE_DIM(e->tis); i++)
		if (!e->tis[i].valid)
			break;
	if (i >= RTE_DIM(e->tis))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_TIS_NONE);
	memset(&e->tis[i], 0, sizeof(e->tis[i]));
	e->tis[i].valid = 1;
	e->tis[i].td = MLX5V_GET(create_tis_in, in, ctx.transport_domain);
	e->tis[i].prio = MLX5V_GET(create_tis_in, in, ctx.prio);
	e->tis[i].pd = pdn;
	td->refs++;
	if (pd != NULL)
		pd->refs++;
	e->live[MLX5V_SIM_ETH_K_TIS]++;
	MLX5V_SET(eth_obj_out, c->out, obj_id, MLX5V_SIM_ETH_TIS_BASE + i);
	return MLX5V_CMD_STAT_OK;
}

/* MODIFY_TIS bitmask bit 0 = prio, the only field the model lets change. */
uint8_t
mlx5v_sim_cmd_modify_tis(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_tis *tis =
			mlx5v_sim_eth_tis_get(sim, MLX5V_GET(modify_tis_in, c->in, tisn));

	if (tis == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_TIS_NUM);
	if (MLX5V_GET(modify_tis_in, c->in, bitmask_hi) != 0 ||
			(MLX5V_GET(modify_tis_in, c->in, bitmask) & ~1u) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_TIS_BITMASK);
	if (MLX5V_GET(modify_tis_in, c->in, bitmask) & 1u)
		tis->prio = MLX5V_GET(modify_tis_in, c->in, ctx.prio);
	return MLX5V_CMD_STAT_OK;
}

/* prm/mlx5_eth §12: the SQs go before their TIS. */
uint8_t
mlx5v_sim_cmd_destroy_tis(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_tis *tis =
			mlx5v_sim_eth_tis_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));
	struct mlx5v_sim_eth_dom *td;
	struct mlx5v_sim_eth_dom *pd;

	if (tis == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_TIS_NUM);
	if (tis->refs != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_TIS_BUSY);
	td = mlx5v_sim_eth_td_get(sim, tis->td);
	if (td != NULL && td->refs > 0)
		td->refs--;
	pd = tis->pd != 0 ? mlx5v_sim_eth_pd_get(sim, tis->pd) : NULL;
	if (pd != NULL && pd->refs > 0)
		pd->refs--;
	tis->valid = 0;
	sim->eth->live[MLX5V_SIM_ETH_K_TIS]--;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_query_tis(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_tis *tis =
			mlx5v_sim_eth_tis_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));

	if (tis == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_TIS_NUM);
	MLX5V_SET(query_tis_out, c->out, ctx.prio, tis->prio);
	MLX5V_SET(query_tis_out, c->out, ctx.transport_domain, tis->td);
	MLX5V_SET(query_tis_out, c->out, ctx.pd, tis->pd);
	return MLX5V_CMD_STAT_OK;
}

/* ---- Work queues (prm/mlx5_eth §4.7) ---- */

static int
mlx5v_sim_eth_cq_live(struct mlx5v_sim *sim, uint32_t cqn)
{
	return cqn <= MLX5V_SIM_MAX_CQN && sim->cq[cqn].valid;
}

/*
 * Read and check the wq context at c->in + wq_off, then the PAS list at pas_off. Stride: SQ
 * exactly 64 bytes, RQ 16 bytes to max_wqe_sz_rq (512). On success wq->pas is allocated
 * (the caller owns it). @return the status, the failure recorded in c.
 */
static uint8_t
mlx5v_sim_eth_wq_read(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, uint32_t wq_off,
		      uint32_t pas_off, int is_sq, struct mlx5v_sim_eth_wq *wq)
{
	static const struct mlx5v_sim_ring_synd ring_synd = {
		.no_mem = MLX5V_SIM_SYND_WQ_NO_MEM,
		.pas_len = MLX5V_SIM_SYND_WQ_PAS_LEN,
		.pas_align = MLX5V_SIM_SYND_WQ_PAS_ALIGN,
		.unmapped = MLX5V_SIM_SYND_WQ_UNMAPPED,
	};
	const uint8_t *w = c->in + wq_off;
	uint32_t synd = 0;

	memset(wq, 0, sizeof(*wq));
	wq->type = MLX5V_GET(wq, w, wq_type);
	wq->log_stride = MLX5V_GET(wq, w, log_wq_stride);
	wq->log_pg_sz = MLX5V_GET(wq, w, log_wq_pg_sz);
	wq->log_sz = MLX5V_GET(wq, w, log_wq_sz);
	wq->end_padding = MLX5V_GET(wq, w, end_padding_mode);
	wq->lwm = MLX5V_GET(wq, w, lwm);
	wq->pd = MLX5V_GET(wq, w, pd);
	wq->uar = MLX5V_GET(wq, w, uar_page);
	wq->dbr_addr = MLX5V_IFC_GET64(wq, w, dbr_addr);
	/* Cyclic queues only: no linked lists and no striding RQ (prm/mlx5_eth §7.3). */
	if (wq->type != MLX5V_SIM_ETH_WQ_CYCLIC)
		synd = MLX5V_SIM_SYND_WQ_TYPE;
	else if (MLX5V_GET(wq, w, page_offset) != 0)
		synd = MLX5V_SIM_SYND_WQ_PAGE_OFFSET;
	else if (MLX5V_GET(wq, w, dbr_umem_valid) != 0 || MLX5V_GET(wq, w, wq_umem_valid) != 0)
		synd = MLX5V_SIM_SYND_WQ_UMEM;
	else if (wq->log_sz > MLX5V_SIM_ETH_LOG_MAX_WQ_SZ)
		synd = MLX5V_SIM_SYND_WQ_SIZE;
	else if (is_sq ? wq->log_stride != MLX5V_SIM_ETH_SQ_LOG_STRIDE :
		 wq->log_stride < MLX5V_SIM_ETH_RQ_MIN_LOG_STRIDE ||
		 wq->log_stride > MLX5V_SIM_ETH_RQ_MAX_LOG_STRIDE)
		synd = MLX5V_SIM_SYND_WQ_STRIDE;
	if (synd != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	/* "Wrong PD": the queue's PD must exist (prm/mlx5_eth §1). */
	if (mlx5v_sim_eth_pd_get(sim, wq->pd) == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_WQ_PD);
	/* The device reads the doorbell record on every doorbell (prm/mlx5_eth §6.6, §7.2). */
	if (wq->dbr_addr % 8 != 0 || !hwsim_dma_check(sim->dma, wq->dbr_addr, 8))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_WQ_DBR);
	return mlx5v_sim_ring_pas_read(sim, c, pas_off,
				       (uint64_t)1 << (wq->log_sz + wq->log_stride),
				       wq->log_pg_sz, &ring_synd, &wq->pas, &wq->npas);
}

/* Write a queue's wq context (QUERY_SQ / QUERY_RQ); sw_counter from the record. */
static void
mlx5v_sim_eth_wq_write(struct mlx5v_sim *sim, const struct mlx5v_sim_eth_wq *wq, uint8_t *w,
		       uint32_t hw_counter, uint32_t dbr_dw)
{
	uint32_t sw = 0;

	MLX5V_SET(wq, w, wq_type, wq->type);
	MLX5V_SET(wq, w, end_padding_mode, wq->end_padding);
	MLX5V_SET(wq, w, lwm, wq->lwm);
	MLX5V_SET(wq, w, pd, wq->pd);
	MLX5V_SET(wq, w, uar_page, wq->uar);
	MLX5V_IFC_SET64(wq, w, dbr_addr, wq->dbr_addr);
	MLX5V_SET(wq, w, hw_counter, hw_counter);
	if (hwsim_dma_read(sim->dma, wq->dbr_addr + 4 * dbr_dw, &sw, sizeof(sw)) == 0)
		MLX5V_SET(wq, w, sw_counter, rte_be_to_cpu_32(sw));
	MLX5V_SET(wq, w, log_wq_stride, wq->log_stride);
	MLX5V_SET(wq, w, log_wq_pg_sz, wq->log_pg_sz);
	MLX5V_SET(wq, w, log_wq_sz, wq->log_sz);
}

/*
 * ts_format (prm/mlx5_eth §5.1) against the sq_ts_format/rq_ts_format caps (knob
 * ts_format_cap): 1 (the device's default) always; 0 (free-running) unless the firmware runs
 * the real-time clock only; 2 (real-time) unless it runs the free-running one only; 3 never.
 */
static int
mlx5v_sim_eth_ts_ok(struct mlx5v_sim *sim, uint32_t ts)
{
	int64_t cap = mlx5v_sim_knob(sim, MLX5V_SIM_K_TS_FORMAT_CAP);

	switch (ts) {
	case MLX5V_SIM_ETH_TS_FREE_RUNNING:
		return cap != MLX5V_SIM_ETH_TS_CAP_RT;
	case MLX5V_SIM_ETH_TS_DEFAULT:
		return 1;
	case MLX5V_SIM_ETH_TS_REAL_TIME:
		return cap != MLX5V_SIM_ETH_TS_CAP_FR;
	default:
		return 0;
	}
}

/*
 * The prm/mlx5_eth §5.2 transitions. Both queues: RST->RDY, RDY->RST, RDY->RDY (attributes),
 * ERR->RST; the RQ also RDY->ERR on the driver's request. Anything else is refused.
 */
static int
mlx5v_sim_eth_transition_ok(uint32_t cur, uint32_t next, int is_sq)
{
	switch (cur) {
	case MLX5V_SIM_ETH_Q_RST:
		return next == MLX5V_SIM_ETH_Q_RDY;
	case MLX5V_SIM_ETH_Q_RDY:
		return next == MLX5V_SIM_ETH_Q_RST || next == MLX5V_SIM_ETH_Q_RDY ||
		       (!is_sq && next == MLX5V_SIM_ETH_Q_ERR);
	case MLX5V_SIM_ETH_Q_ERR:
		return next == MLX5V_SIM_ETH_Q_RST;
	default:
		return 0;
	}
}

/* ---- SQ (prm/mlx5_eth §4.5) ---- */

/* Field checks of create_sq_in that need no object. @return syndrome or 0. */
static uint32_t
mlx5v_sim_eth_sq_check(struct mlx5v_sim *sim, const uint8_t *in)
{
	if (MLX5V_GET(create_sq_in, in, ctx.state) != MLX5V_SIM_ETH_Q_RST)
		return MLX5V_SIM_SYND_WQ_STATE;
	if (!mlx5v_sim_eth_ts_ok(sim, MLX5V_GET(create_sq_in, in, ctx.ts_format)))
		return MLX5V_SIM_SYND_WQ_TS_FORMAT;
	if (MLX5V_GET(create_sq_in, in, ctx.tis_lst_sz) != 1)
		return MLX5V_SIM_SYND_SQ_TIS_LST;
	return 0;
}

uint8_t
mlx5v_sim_cmd_create_sq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *in = c->in;
	struct mlx5v_sim_eth *e = sim->eth;
	struct mlx5v_sim_eth_tis *tis;
	struct mlx5v_sim_eth_sq *sq;
	struct mlx5v_sim_eth_wq wq;
	uint32_t cqn = MLX5V_GET(create_sq_in, in, ctx.cqn);
	uint32_t synd;
	uint32_t i;
	uint8_t st;

	synd = mlx5v_sim_eth_sq_check(sim, in);
	if (synd != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	/* prm/mlx5_empw §1.2: multi-packet send WQEs only where the capability says so. */
	if (MLX5V_GET(create_sq_in, in, ctx.allow_multi_pkt_send_wqe) &&
	    !mlx5v_sim_knob(sim, MLX5V_SIM_K_EMPW))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_SQ_MPW);
	if (!mlx5v_sim_eth_cq_live(sim, cqn))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_WQ_CQ);
	tis = mlx5v_sim_eth_tis_get(sim, MLX5V_GET(create_sq_in, in, ctx.tis_num_0));
	if (tis == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_SQ_TIS);
	/* The SQ's doorbells arrive on this page: it must be allocated (prm/mlx5_eth §4.7). */
	if (!mlx5v_sim_uar_allocated(sim, MLX5V_GET(create_sq_in, in, ctx.wq.uar_page)))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_SQ_UAR);
	for (i = 1; i < RTE_DIM(e->sq); i++)
		if (!e->sq[i].valid)
			break;
	if (i >= RTE_DIM(e->sq))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_SQ_NONE);
	st = mlx5v_sim_eth_wq_read(sim, c, MLX5V_IFC_BYTE_OFF(create_sq_in, ctx.wq),
				   MLX5V_IFC_BYTES(create_sq_in), 1, &wq);
	if (st != MLX5V_CMD_STAT_OK)
		return st;
	if (mlx5v_sim_eth_fault(sim, MLX5V_SIM_K_FAIL_CREATE_SQ)) {
		free(wq.pas);
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR, MLX5V_SIM_SYND_SQ_FAULT);
	}
	sq = &e->sq[i];
	memset(sq, 0, sizeof(*sq));
	sq->state = MLX5V_SIM_ETH_Q_RST;
	sq->rlky = MLX5V_GET(create_sq_in, in, ctx.rlky);
	sq->fre = MLX5V_GET(create_sq_in, in, ctx.fre);
	sq->flush_in_error_en = MLX5V_GET(create_sq_in, in, ctx.flush_in_error_en);
	sq->min_wqe_inline_mode = MLX5V_GET(create_sq_in, in, ctx.min_wqe_inline_mode);
	sq->allow_mpw = MLX5V_GET(create_sq_in, in, ctx.allow_multi_pkt_send_wqe);
	sq->ts_format = MLX5V_GET(create_sq_in, in, ctx.ts_format);
	sq->user_index = MLX5V_GET(create_sq_in, in, ctx.user_index);
	sq->cqn = cqn;
	sq->tis = MLX5V_GET(create_sq_in, in, ctx.tis_num_0);
	sq->wq = wq;
	sq->valid = 1;
	tis->refs++;
	mlx5v_sim_eth_pd_get(sim, wq.pd)->refs++;
	e->live[MLX5V_SIM_ETH_K_SQ]++;
	MLX5V_SET(eth_obj_out, c->out, obj_id, MLX5V_SIM_ETH_SQ_BASE + i);
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_modify_sq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_sq *sq =
			mlx5v_sim_eth_sq_get(sim, MLX5V_GET(modify_sq_in, c->in, sqn));
	uint32_t next = MLX5V_GET(modify_sq_in, c->in, ctx.state);

	if (sq == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_SQ_NUM);
	/* sq_state must be the state the SQ is in (prm/mlx5_eth §4.14). */
	if (MLX5V_GET(modify_sq_in, c->in, sq_state) != sq->state)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_Q_CUR_STATE);
	if (!mlx5v_sim_eth_transition_ok(sq->state, next, 1))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_Q_TRANSITION);
	/* Rate limits and QoS groups (bitmask bits 0, 2) are not modelled. */
	if (MLX5V_GET(modify_sq_in, c->in, modify_bitmask_hi) != 0 ||
			MLX5V_GET(modify_sq_in, c->in, modify_bitmask) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_SQ_BITMASK);
	/* Counters restart at 0 on every move to RST (prm/mlx5_eth §5.2). */
	if (next == MLX5V_SIM_ETH_Q_RST) {
		sq->hw_counter = 0;
		sq->mpw_d = 0;
	}
	sq->state = next;
	return MLX5V_CMD_STAT_OK;
}

/* Allowed in every state ([K] destroys from RDY, prm/mlx5_eth §12). */
uint8_t
mlx5v_sim_cmd_destroy_sq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_sq *sq =
			mlx5v_sim_eth_sq_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));
	struct mlx5v_sim_eth_tis *tis;
	struct mlx5v_sim_eth_dom *pd;

	if (sq == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_SQ_NUM);
	tis = mlx5v_sim_eth_tis_get(sim, sq->tis);
	if (tis != NULL && tis->refs > 0)
		tis->refs--;
	pd = mlx5v_sim_eth_pd_get(sim, sq->wq.pd);
	if (pd != NULL && pd->refs > 0)
		pd->refs--;
	free(sq->wq.pas);
	memset(sq, 0, sizeof(*sq));
	sim->eth->live[MLX5V_SIM_ETH_K_SQ]--;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_query_sq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_sq *sq =
			mlx5v_sim_eth_sq_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));
	uint8_t *o = c->out;

	if (sq == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_SQ_NUM);
	MLX5V_SET(query_sq_out, o, ctx.rlky, sq->rlky);
	MLX5V_SET(query_sq_out, o, ctx.fre, sq->fre);
	MLX5V_SET(query_sq_out, o, ctx.flush_in_error_en, sq->flush_in_error_en);
	MLX5V_SET(query_sq_out, o, ctx.allow_multi_pkt_send_wqe, sq->allow_mpw);
	MLX5V_SET(query_sq_out, o, ctx.min_wqe_inline_mode, sq->min_wqe_inline_mode);
	MLX5V_SET(query_sq_out, o, ctx.state, sq->state);
	MLX5V_SET(query_sq_out, o, ctx.ts_format, sq->ts_format);
	MLX5V_SET(query_sq_out, o, ctx.user_index, sq->user_index);
	MLX5V_SET(query_sq_out, o, ctx.cqn, sq->cqn);
	MLX5V_SET(query_sq_out, o, ctx.tis_lst_sz, 1);
	MLX5V_SET(query_sq_out, o, ctx.tis_num_0, sq->tis);
	/* The SQ producer counter is dword 1 of its record (prm/mlx5_eth §6.6). */
	mlx5v_sim_eth_wq_write(sim, &sq->wq, MLX5V_IFC_ADDR_OF(query_sq_out, o, ctx.wq),
			       sq->hw_counter, 1);
	return MLX5V_CMD_STAT_OK;
}

/* ---- RQ (prm/mlx5_eth §4.6) ---- */

static uint32_t
mlx5v_sim_eth_rq_check(struct mlx5v_sim *sim, const uint8_t *in)
{
	if (MLX5V_GET(create_rq_in, in, ctx.state) != MLX5V_SIM_ETH_Q_RST)
		return MLX5V_SIM_SYND_WQ_STATE;
	if (!mlx5v_sim_eth_ts_ok(sim, MLX5V_GET(create_rq_in, in, ctx.ts_format)))
		return MLX5V_SIM_SYND_WQ_TS_FORMAT;
	/* Inline RQs only: no shared receive pool (RMP), no hairpin. */
	if (MLX5V_GET(create_rq_in, in, ctx.mem_rq_type) != 0 ||
	    MLX5V_GET(create_rq_in, in, ctx.hairpin) != 0)
		return MLX5V_SIM_SYND_RQ_MEM_TYPE;
	return 0;
}

/* Dword 0 of the RQ's doorbell record (prm/mlx5_eth §7.2); an unreadable record reads as not 0. */
static uint32_t
mlx5v_sim_eth_rq_record(struct mlx5v_sim *sim, const struct mlx5v_sim_eth_rq *rq)
{
	uint32_t dbr = 0;

	if (hwsim_dma_read(sim->dma, rq->wq.dbr_addr, &dbr, sizeof(dbr)) != 0)
		return UINT32_MAX;
	return rte_be_to_cpu_32(dbr) & 0xffff;
}

/* Move rq's Q counter reference to counter id (0 = none). @return 0 or -1 (unknown). */
static int
mlx5v_sim_eth_rq_qcnt_set(struct mlx5v_sim *sim, struct mlx5v_sim_eth_rq *rq, uint32_t id)
{
	struct mlx5v_sim_eth_qcnt *q = id != 0 ? mlx5v_sim_eth_qcnt_get(sim, id) : NULL;
	struct mlx5v_sim_eth_qcnt *old;

	if (id != 0 && q == NULL)
		return -1;
	old = rq->counter_set_id != 0 ? mlx5v_sim_eth_qcnt_get(sim, rq->counter_set_id) : NULL;
	if (old != NULL && old->refs > 0)
		old->refs--;
	if (q != NULL)
		q->refs++;
	rq->counter_set_id = id;
	return 0;
}

uint8_t
mlx5v_sim_cmd_create_rq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *in = c->in;
	struct mlx5v_sim_eth *e = sim->eth;
	struct mlx5v_sim_eth_rq *rq;
	struct mlx5v_sim_eth_wq wq;
	uint32_t cqn = MLX5V_GET(create_rq_in, in, ctx.cqn);
	uint32_t qc = MLX5V_GET(create_rq_in, in, ctx.counter_set_id);
	uint32_t synd;
	uint32_t i;
	uint8_t st;

	synd = mlx5v_sim_eth_rq_check(sim, in);
	if (synd != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	if (!mlx5v_sim_eth_cq_live(sim, cqn))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_WQ_CQ);
	if (qc != 0 && mlx5v_sim_eth_qcnt_get(sim, qc) == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQ_QCNT);
	for (i = 1; i < RTE_DIM(e->rq); i++)
		if (!e->rq[i].valid)
			break;
	if (i >= RTE_DIM(e->rq))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_RQ_NONE);
	st = mlx5v_sim_eth_wq_read(sim, c, MLX5V_IFC_BYTE_OFF(create_rq_in, ctx.wq),
				   MLX5V_IFC_BYTES(create_rq_in), 0, &wq);
	if (st != MLX5V_CMD_STAT_OK)
		return st;
	if (mlx5v_sim_eth_fault(sim, MLX5V_SIM_K_FAIL_CREATE_RQ)) {
		free(wq.pas);
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR, MLX5V_SIM_SYND_RQ_FAULT);
	}
	rq = &e->rq[i];
	memset(rq, 0, sizeof(*rq));
	rq->state = MLX5V_SIM_ETH_Q_RST;
	rq->rlky = MLX5V_GET(create_rq_in, in, ctx.rlky);
	rq->vsd = MLX5V_GET(create_rq_in, in, ctx.vsd);
	rq->scatter_fcs = MLX5V_GET(create_rq_in, in, ctx.scatter_fcs);
	rq->delay_drop_en = MLX5V_GET(create_rq_in, in, ctx.delay_drop_en);
	rq->flush_in_error_en = MLX5V_GET(create_rq_in, in, ctx.flush_in_error_en);
	rq->ts_format = MLX5V_GET(create_rq_in, in, ctx.ts_format);
	rq->user_index = MLX5V_GET(create_rq_in, in, ctx.user_index);
	rq->cqn = cqn;
	rq->wq = wq;
	rq->valid = 1;
	mlx5v_sim_eth_rq_qcnt_set(sim, rq, qc);
	mlx5v_sim_eth_pd_get(sim, wq.pd)->refs++;
	e->live[MLX5V_SIM_ETH_K_RQ]++;
	MLX5V_SET(eth_obj_out, c->out, obj_id, MLX5V_SIM_ETH_RQ_BASE + i);
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_modify_rq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *in = c->in;
	struct mlx5v_sim_eth_rq *rq = mlx5v_sim_eth_rq_get(sim, MLX5V_GET(modify_rq_in, in, rqn));
	uint32_t next = MLX5V_GET(modify_rq_in, in, ctx.state);
	uint32_t mask = MLX5V_GET(modify_rq_in, in, modify_bitmask);
	uint32_t qc = MLX5V_GET(modify_rq_in, in, ctx.counter_set_id);

	if (rq == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQ_NUM);
	if (MLX5V_GET(modify_rq_in, in, rq_state) != rq->state)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_Q_CUR_STATE);
	if (!mlx5v_sim_eth_transition_ok(rq->state, next, 0))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_Q_TRANSITION);
	if (MLX5V_GET(modify_rq_in, in, modify_bitmask_hi) != 0 ||
			(mask & ~(uint32_t)(MLX5V_MODIFY_RQ_LWM | MLX5V_MODIFY_RQ_VSD |
					    MLX5V_MODIFY_RQ_SCATTER_FCS |
					    MLX5V_MODIFY_RQ_COUNTER_SET_ID)) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_RQ_BITMASK);
	/* Checked before anything changes: a failed MODIFY leaves the RQ as it was. */
	if ((mask & MLX5V_MODIFY_RQ_COUNTER_SET_ID) && qc != 0 &&
			mlx5v_sim_eth_qcnt_get(sim, qc) == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQ_QCNT);
	/*
	 * RST->RDY: the device starts at WQE 0 and takes the record as the count posted since,
	 * so the record must say 0 (DPDK zeroes it, Linux resets the WQ, before this move); a
	 * stale count would hand the device WQEs the driver has not written again. The state
	 * is the right one, the record is a bad input: BAD_PARAM.
	 */
	if (rq->state == MLX5V_SIM_ETH_Q_RST && next == MLX5V_SIM_ETH_Q_RDY &&
	    mlx5v_sim_eth_rq_record(sim, rq) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_RQ_RECORD);
	if (mask & MLX5V_MODIFY_RQ_LWM)
		rq->wq.lwm = MLX5V_GET(modify_rq_in, in, ctx.wq.lwm);
	if (mask & MLX5V_MODIFY_RQ_VSD)
		rq->vsd = MLX5V_GET(modify_rq_in, in, ctx.vsd);
	if (mask & MLX5V_MODIFY_RQ_SCATTER_FCS)
		rq->scatter_fcs = MLX5V_GET(modify_rq_in, in, ctx.scatter_fcs);
	if (mask & MLX5V_MODIFY_RQ_COUNTER_SET_ID)
		mlx5v_sim_eth_rq_qcnt_set(sim, rq, qc);
	if (next == MLX5V_SIM_ETH_Q_RST)
		rq->hw_counter = 0;
	rq->state = next;
	/*
	 * RDY->ERR on request: the posted WQEs complete flushed, as after an error
	 * (prm/mlx5_eth §8.4).
	 */
	mlx5v_sim_eth_rq_flush(sim, rq);
	return MLX5V_CMD_STAT_OK;
}

/* An RQ named by an RQT or a direct TIR stays (prm/mlx5_eth §12). */
uint8_t
mlx5v_sim_cmd_destroy_rq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_rq *rq =
			mlx5v_sim_eth_rq_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));
	struct mlx5v_sim_eth_dom *pd;

	if (rq == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQ_NUM);
	if (rq->refs != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_RQ_BUSY);
	mlx5v_sim_eth_rq_qcnt_set(sim, rq, 0);
	pd = mlx5v_sim_eth_pd_get(sim, rq->wq.pd);
	if (pd != NULL && pd->refs > 0)
		pd->refs--;
	free(rq->wq.pas);
	memset(rq, 0, sizeof(*rq));
	sim->eth->live[MLX5V_SIM_ETH_K_RQ]--;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_query_rq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_rq *rq =
			mlx5v_sim_eth_rq_get(sim, MLX5V_GET(eth_obj_in, c->in, obj_id));
	uint8_t *o = c->out;

	if (rq == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_RQ_NUM);
	MLX5V_SET(query_rq_out, o, ctx.rlky, rq->rlky);
	MLX5V_SET(query_rq_out, o, ctx.delay_drop_en, rq->delay_drop_en);
	MLX5V_SET(query_rq_out, o, ctx.scatter_fcs, rq->scatter_fcs);
	MLX5V_SET(query_rq_out, o, ctx.vsd, rq->vsd);
	MLX5V_SET(query_rq_out, o, ctx.state, rq->state);
	MLX5V_SET(query_rq_out, o, ctx.flush_in_error_en, rq->flush_in_error_en);
	MLX5V_SET(query_rq_out, o, ctx.ts_format, rq->ts_format);
	MLX5V_SET(query_rq_out, o, ctx.user_index, rq->user_index);
	MLX5V_SET(query_rq_out, o, ctx.cqn, rq->cqn);
	MLX5V_SET(query_rq_out, o, ctx.counter_set_id, rq->counter_set_id);
	/* The RQ counter is dword 0 of its record (prm/mlx5_eth §7.2). */
	mlx5v_sim_eth_wq_write(sim, &rq->wq, MLX5V_IFC_ADDR_OF(query_rq_out, o, ctx.wq),
			       rq->hw_counter, 0);
	return MLX5V_CMD_STAT_OK;
}

int
mlx5v_sim_eth_cq_busy(struct mlx5v_sim *sim, uint32_t cqn)
{
	struct mlx5v_sim_eth *e = sim->eth;
	unsigned int i;

	for (i = 1; i < RTE_DIM(e->sq); i++)
		if (e->sq[i].valid && e->sq[i].cqn == cqn)
			return 1;
	for (i = 1; i < RTE_DIM(e->rq); i++)
		if (e->rq[i].valid && e->rq[i].cqn == cqn)
			return 1;
	return 0;
}

int
mlx5v_sim_eth_uar_busy(struct mlx5v_sim *sim, uint32_t uar)
{
	struct mlx5v_sim_eth *e = sim->eth;
	unsigned int i;

	for (i = 1; i < RTE_DIM(e->sq); i++)
		if (e->sq[i].valid && e->sq[i].wq.uar == uar)
			return 1;
	return 0;
}
