/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Completion queues in the model: commands, CQE writes, arm doorbell, EQ binding. */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_priv.h"


/* Bits of each cqc dword a CREATE_CQ may set (prm/mlx5 §7.1); the rest is reserved. */
static const uint32_t mlx5v_sim_cqc_allowed[16] = {
	[0] = 0xf2ffff00,   /* status, dbr_umem_valid, cqe_sz, cc, oi, moderation, st */
	[1] = 0xffffffff,   /* dbr_umem_id (checked with dbr_umem_valid) */
	[2] = 0x00000fcc,   /* page_offset[11:6], mini_cqe_res_format_ext[3:2] */
	[3] = 0x1fffffff,   /* log_cq_size[28:24] uar_page[23:0] */
	[4] = 0x0fffffff,   /* cq_period[27:16] cq_max_count[15:0] */
	[5] = 0xffffffff,   /* c_eqn: 8 bits (DPDK) or 32 (newer kernels), prm/mlx5 §7.1 */
	[6] = 0x1f000000,   /* log_page_size[28:24] */
	[14] = 0xffffffff,  /* dbr_addr */
	[15] = 0xffffffff,
};

/* @return the live CQ cqn, or NULL (lock held). */
static struct mlx5v_sim_cq *
mlx5v_sim_cq_get(struct mlx5v_sim *sim, uint32_t cqn)
{
	if (cqn > MLX5V_SIM_MAX_CQN || !sim->cq[cqn].valid)
		return NULL;
	return &sim->cq[cqn];
}

/* Take cq off the list of held sessions (DESTROY_CQ); what it held is dropped. */
static void
mlx5v_sim_cq_zip_unlink(struct mlx5v_sim *sim, struct mlx5v_sim_cq *cq, uint32_t cqn)
{
	uint32_t *link = &sim->zip_head;

	while (cq->zip_queued && *link != 0) {
		if (*link == cqn) {
			*link = cq->zip_next;
			break;
		}
		link = &sim->cq[*link].zip_next;
	}
	cq->zip_queued = 0;
	cq->zip_n = 0;
	free(cq->zip);
	cq->zip = NULL;
}

/* The mini-CQE format of a CQ context: mini_cqe_res_format | mini_cqe_res_format_ext << 2. */
static uint8_t
mlx5v_sim_cq_mini_fmt(const uint8_t *cqc)
{
	return (uint8_t)(MLX5V_IFC_GET(cqc, cqc, mini_cqe_res_format) |
			 MLX5V_IFC_GET(cqc, cqc, mini_cqe_res_format_ext) << 2);
}

/*
 * Whether the caps let a CQ compress with mini-CQE format fmt (prm/mlx5_eth §8.5):
 * cqe_compression for any; HASH and both checksum formats always, FTAG with
 * mini_cqe_resp_flow_tag, L3/L4 with mini_cqe_resp_l3_l4_tag; no other value.
 */
static int
mlx5v_sim_cq_mini_fmt_ok(struct mlx5v_sim *sim, uint8_t fmt)
{
	const uint8_t *cap = sim->cap_cur;

	if (!MLX5V_IFC_GET(cmd_hca_cap_eth, cap, cqe_compression))
		return 0;
	switch (fmt) {
	case MLX5V_MINI_CQE_FMT_HASH:
	case MLX5V_MINI_CQE_FMT_CSUM:
	case MLX5V_MINI_CQE_FMT_CSUM_STRIDX:
		return 1;
	case MLX5V_MINI_CQE_FMT_FTAG:
		return MLX5V_IFC_GET(cmd_hca_cap_eth, cap, mini_cqe_resp_flow_tag);
	case MLX5V_MINI_CQE_FMT_L34H:
		return MLX5V_IFC_GET(cmd_hca_cap_eth, cap, mini_cqe_resp_l3_l4_tag);
	default:
		return 0;
	}
}

/* Field checks of create_cq_in that need no model state. @return syndrome or 0. */
static uint32_t
mlx5v_sim_cq_check_in(const uint8_t *in)
{
	const uint8_t *cqc = MLX5V_IFC_ADDR_OF(create_cq_in, in, cqc);
	unsigned int i;

	/*
	 * Reserved: create_cq_in 0x08-0x0f and 0x60-0x10f, between the cqc/umem fields and pas[] at
	 * 0x110 (prm/mlx5_eth §7.1). Reserved misuse is BAD_PARAM (prm/mlx5_eth §13).
	 */
	if (!mlx5v_sim_zero(in, 0x08, 0x08) || !mlx5v_sim_zero(in, 0x60, 0xb0))
		return MLX5V_SIM_SYND_CQ_IN_RESERVED;
	for (i = 0; i < RTE_DIM(mlx5v_sim_cqc_allowed); i++)
		if (mlx5v_sim_be32(cqc, 4 * i) & ~mlx5v_sim_cqc_allowed[i])
			return MLX5V_SIM_SYND_CQC_RESERVED;
	/* umem-backed rings and doorbell records are not modelled. */
	if (!mlx5v_sim_zero(in, MLX5V_IFC_BYTE_OFF(create_cq_in, cq_umem_offset), 0x10) ||
			MLX5V_IFC_GET(cqc, cqc, dbr_umem_valid) != 0 ||
			MLX5V_IFC_GET(cqc, cqc, dbr_umem_id) != 0)
		return MLX5V_SIM_SYND_CQ_UMEM;
	/*
	 * A new CQ starts with status OK and st 0, ARMED (0x9) or FIRED (0xa); ALWAYS_ARMED (0xb)
	 * is not modelled.
	 */
	if (MLX5V_IFC_GET(cqc, cqc, status) != 0 || (MLX5V_IFC_GET(cqc, cqc, st) != 0 &&
			MLX5V_IFC_GET(cqc, cqc, st) != RTE_PMD_MLX5V_EQC_ST_ARMED &&
			MLX5V_IFC_GET(cqc, cqc, st) != RTE_PMD_MLX5V_EQC_ST_FIRED))
		return MLX5V_SIM_SYND_CQ_ST;
	/* Only 64-byte CQEs (cqe_sz 0): the owner byte is then byte 63 (prm/mlx5 §7.4). */
	if (MLX5V_IFC_GET(cqc, cqc, cqe_sz) != 0)
		return MLX5V_SIM_SYND_CQ_CQE_SZ;
	if (MLX5V_IFC_GET(cqc, cqc, page_offset) != 0)
		return MLX5V_SIM_SYND_CQ_PAGE_OFFSET;
	/* Bounded by the log_max_cq_sz capability the model reports (prm/mlx5 §2.2). */
	if (MLX5V_IFC_GET(cqc, cqc, log_cq_size) > MLX5V_SIM_LOG_MAX_CQ_SZ)
		return MLX5V_SIM_SYND_CQ_SIZE;
	return 0;
}

uint8_t
mlx5v_sim_cmd_create_cq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	static const struct mlx5v_sim_ring_synd ring_synd = {
		.no_mem = MLX5V_SIM_SYND_CQ_NO_CQN,
		.pas_len = MLX5V_SIM_SYND_CQ_PAS_LEN,
		.pas_align = MLX5V_SIM_SYND_CQ_PAS_ALIGN,
		.unmapped = MLX5V_SIM_SYND_CQ_UNMAPPED,
	};
	const uint8_t *cqc = MLX5V_IFC_ADDR_OF(create_cq_in, c->in, cqc);
	uint32_t log_size = MLX5V_IFC_GET(cqc, cqc, log_cq_size);
	uint32_t log_page = MLX5V_IFC_GET(cqc, cqc, log_page_size);
	uint32_t uar = MLX5V_IFC_GET(cqc, cqc, uar_page);
	uint32_t eqn = MLX5V_IFC_GET(cqc, cqc, c_eqn_or_apu_element);
	uint64_t dbr = MLX5V_IFC_GET64(cqc, cqc, dbr_addr);
	struct mlx5v_sim_eq *eq;
	struct mlx5v_sim_cq *cq;
	uint64_t *pas;
	uint32_t npas = 0;
	uint32_t synd;
	uint32_t cqn;
	uint32_t bad;
	uint8_t status;

	synd = mlx5v_sim_cq_check_in(c->in);
	if (synd != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	/*
	 * Compression needs the cqe_compression capability, and a mini-CQE format the caps
	 * offer (prm/mlx5_eth §8.5).
	 */
	if (MLX5V_IFC_GET(cqc, cqc, cqe_comp_en) &&
	    !mlx5v_sim_cq_mini_fmt_ok(sim, mlx5v_sim_cq_mini_fmt(cqc)))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_CQ_COMP);
	/* The format extension means nothing without compression. */
	if (!MLX5V_IFC_GET(cqc, cqc, cqe_comp_en) &&
	    MLX5V_IFC_GET(cqc, cqc, mini_cqe_res_format_ext) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_CQ_COMP);
	/*
	 * The arm doorbell is accepted only on this page, so it must be a UAR the driver allocated.
	 */
	if (!mlx5v_sim_uar_allocated(sim, uar))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_CQ_UAR);
	/* c_eqn must name a live EQ, whichever width the driver wrote (prm/mlx5_eth §7.1). */
	eq = mlx5v_sim_eq_get(sim, eqn);
	if (eq == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_CQ_EQN);
	/*
	 * The device reads the doorbell record (CI, arm word, prm/mlx5_eth §7.3) on every CQE and
	 * arm; refuse a record it could not read now rather than fault later.
	 */
	if (dbr % 8 != 0 || !hwsim_dma_check(sim->dma, dbr, 8))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_CQ_DBR);
	status = mlx5v_sim_ring_pas_read(sim, c, MLX5V_IFC_BYTE_OFF(create_cq_in, pas),
					 (uint64_t)MLX5V_IFC_BYTES(cqe) << log_size, log_page,
					 &ring_synd, &pas, &npas);
	if (status != MLX5V_CMD_STAT_OK)
		return status;
	/*
	 * CQN first_num..: from 1, an arm doorbell word always has a nonzero low half; from 0 the
	 * words idle at all ones, which no CQN (24 bits) can write.
	 */
	for (cqn = sim->p.first_num; cqn <= MLX5V_SIM_MAX_CQN; cqn++)
		if (!sim->cq[cqn].valid)
			break;
	if (cqn > MLX5V_SIM_MAX_CQN) {
		free(pas);
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_CQ_NO_CQN);
	}
	cq = &sim->cq[cqn];
	memset(cq, 0, sizeof(*cq));
	if (MLX5V_IFC_GET(cqc, cqc, cqe_comp_en)) {
		/* The first held CQE, then one mini-CQE per held CQE. */
		cq->zip = malloc(MLX5V_IFC_BYTES(cqe_eth) +
				 MLX5V_SIM_ZIP_MAX * MLX5V_IFC_BYTES(mini_cqe_hash));
		if (cq->zip == NULL) {
			free(pas);
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR,
						 MLX5V_SIM_SYND_CQ_NO_CQN);
		}
		cq->comp_en = 1;
		cq->mini_fmt = mlx5v_sim_cq_mini_fmt(cqc);
	}
	cq->log_size = log_size;
	cq->log_page_size = log_page;
	cq->oi = MLX5V_IFC_GET(cqc, cqc, oi);
	cq->armed = MLX5V_IFC_GET(cqc, cqc, st) == RTE_PMD_MLX5V_EQC_ST_ARMED;
	cq->uar = uar;
	cq->eqn = eqn;
	cq->cq_period = MLX5V_IFC_GET(cqc, cqc, cq_period);
	cq->cq_max_count = MLX5V_IFC_GET(cqc, cqc, cq_max_count);
	cq->dbr_addr = dbr;
	cq->pas = pas;
	cq->npas = npas;
	cq->ring_host = hwsim_dma_translate(sim->dma, pas[0], 1, 1);
	cq->valid = 1;
	/*
	 * Pins the EQ: DESTROY_EQ of an EQ with CQs is BAD_RES_STATE (prm/mlx5_eth §13, inference).
	 */
	eq->ncq++;
	sim->nb_cqs++;
	/* prm/mlx5 §7.4: CQEs must start hardware-owned (owner 1, opcode INVALID). */
	bad = mlx5v_sim_ring_sw_owned(sim, pas, log_page, 1u << log_size, MLX5V_IFC_BYTES(cqe));
	/* Flagged and counted, not refused: prm/mlx5 §7.4 asks a model to flag it. */
	if (bad != 0) {
		SIM_LOG(WARNING, "%s: CQ %u created with %u software-owned CQE(s) (driver bug)",
			sim->name, cqn, bad);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_RING_SW_OWNED);
	}
	MLX5V_IFC_SET(create_cq_out, c->out, cqn, cqn);
	return MLX5V_CMD_STAT_OK;
}

/* cqn at DW2[23:0] of destroy/query; the rest of DW2-3 is reserved. */
static struct mlx5v_sim_cq *
mlx5v_sim_cq_from_in(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, uint8_t *status)
{
	struct mlx5v_sim_cq *cq;

	if (MLX5V_IFC_GET(destroy_cq_in, c->in, reserved_at_40) != 0 ||
			MLX5V_IFC_GET(destroy_cq_in, c->in, reserved_at_60) != 0) {
		*status = mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					    MLX5V_SIM_SYND_CQ_IN_RESERVED);
		return NULL;
	}
	cq = mlx5v_sim_cq_get(sim, MLX5V_IFC_GET(destroy_cq_in, c->in, cqn));
	if (cq == NULL)
		*status = mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_CQ_CQN);
	return cq;
}

/* The CQ no longer pins its EQ; the driver's ring memory is its own business. */
uint8_t
mlx5v_sim_cmd_destroy_cq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_cq *cq = mlx5v_sim_cq_from_in(sim, c, &status);
	struct mlx5v_sim_eq *eq;

	if (cq == NULL)
		return status;
	/* An SQ or RQ completing into it pins the CQ: queues are destroyed first. */
	if (mlx5v_sim_eth_cq_busy(sim, MLX5V_IFC_GET(destroy_cq_in, c->in, cqn)))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_CQ_IN_USE);
	eq = mlx5v_sim_eq_get(sim, cq->eqn);
	if (eq != NULL && eq->ncq > 0)
		eq->ncq--;
	if (cq->destroy_failed)
		sim->nb_zombies--;
	mlx5v_sim_cq_zip_unlink(sim, cq, MLX5V_IFC_GET(destroy_cq_in, c->in, cqn));
	free(cq->pas);
	memset(cq, 0, sizeof(*cq));
	sim->nb_cqs--;
	return MLX5V_CMD_STAT_OK;
}

/* The consumer counter is whatever the driver last wrote to dbrec[0]. */
uint8_t
mlx5v_sim_cmd_query_cq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_cq *cq = mlx5v_sim_cq_from_in(sim, c, &status);
	uint8_t *cqc = MLX5V_IFC_ADDR_OF(query_cq_out, c->out, cqc);
	uint32_t ci = 0;
	uint32_t i;
	uint32_t n;

	if (cq == NULL)
		return status;
	/*
	 * An unreadable record reads as CI 0 instead of failing: QUERY_CQ must work on a broken CQ.
	 */
	if (hwsim_dma_read(sim->dma, cq->dbr_addr, &ci, sizeof(ci)) == 0)
		ci = rte_be_to_cpu_32(ci) & MLX5V_SIM_CTR_MASK;
	MLX5V_IFC_SET(cqc, cqc, status, cq->status);
	MLX5V_IFC_SET(cqc, cqc, oi, cq->oi);
	MLX5V_IFC_SET(cqc, cqc, st, cq->armed ? RTE_PMD_MLX5V_EQC_ST_ARMED :
		      RTE_PMD_MLX5V_EQC_ST_FIRED);
	MLX5V_IFC_SET(cqc, cqc, log_cq_size, cq->log_size);
	MLX5V_IFC_SET(cqc, cqc, uar_page, cq->uar);
	MLX5V_IFC_SET(cqc, cqc, cq_period, cq->cq_period);
	MLX5V_IFC_SET(cqc, cqc, cq_max_count, cq->cq_max_count);
	MLX5V_IFC_SET(cqc, cqc, c_eqn_or_apu_element, cq->eqn);
	MLX5V_IFC_SET(cqc, cqc, log_page_size, cq->log_page_size);
	MLX5V_IFC_SET(cqc, cqc, consumer_counter, ci);
	MLX5V_IFC_SET(cqc, cqc, producer_counter, cq->pi);
	MLX5V_IFC_SET64(cqc, cqc, dbr_addr, cq->dbr_addr);
	n = RTE_MIN(cq->npas, (c->outlen - MLX5V_IFC_BYTE_OFF(query_cq_out, pas)) / 8);
	for (i = 0; i < n; i++)
		MLX5V_IFC_ARRAY_SET64(query_cq_out, c->out, pas, i, cq->pas[i]);
	return MLX5V_CMD_STAT_OK;
}

/* Completion EQE (type 0, cqn at EQE 0x38) into the CQ's c_eqn EQ (prm/mlx5 §7.2). Lock held. */
static void
mlx5v_sim_cq_notify(struct mlx5v_sim *sim, struct mlx5v_sim_cq *cq, uint32_t cqn)
{
	uint8_t data[MLX5V_SIM_EQE_DATA_LEN];
	struct mlx5v_sim_eq *eq = mlx5v_sim_eq_get(sim, cq->eqn);

	/*
	 * ARMED -> FIRED: one completion EQE per arm (prm/mlx5 §7.2); later CQEs wait for the next
	 * arm doorbell.
	 */
	cq->armed = 0;
	if (eq == NULL)
		return;
	/* Each event handled moves the consumer's arm sn on by one (prm/mlx5 §7.3). */
	cq->events++;
	memset(data, 0, sizeof(data));
	MLX5V_IFC_SET(eqe_comp, data, cqn, cqn);
	mlx5v_sim_eq_post(sim, eq, RTE_PMD_MLX5V_EVENT_COMP, 0, data);
}

/* CQ_ERROR event (cqn at 0x20, syndrome at 0x2b), routed by event_bitmask (prm/mlx5 §6.6). */
static void
mlx5v_sim_cq_error(struct mlx5v_sim *sim, uint32_t cqn, uint8_t synd)
{
	uint8_t data[MLX5V_SIM_EQE_DATA_LEN];

	memset(data, 0, sizeof(data));
	MLX5V_IFC_SET(eqe_cq_err, data, cqn, cqn);
	MLX5V_IFC_SET(eqe_cq_err, data, syndrome, synd);
	mlx5v_sim_event_post(sim, RTE_PMD_MLX5V_EVENT_CQ_ERROR, 0, data, 0);
}

/* One CQ_ERROR per overrun: the CQ stays in error and later CQEs are refused. */
int
mlx5v_sim_cq_overrun_locked(struct mlx5v_sim *sim, uint32_t cqn)
{
	struct mlx5v_sim_cq *cq = mlx5v_sim_cq_get(sim, cqn);

	if (cq == NULL)
		return -ENOENT;
	if (cq->status != MLX5V_CQC_STATUS_OK)
		return 0;
	cq->status = MLX5V_CQC_STATUS_CQ_OVERFLOW;
	mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_CQ_OVERRUNS);
	SIM_LOG(WARNING, "%s: CQ %u overrun", sim->name, cqn);
	mlx5v_sim_cq_error(sim, cqn, RTE_PMD_MLX5V_CQ_ERR_SYND_OVERRUN);
	return 0;
}

/*
 * A DMA fault on the ring or the record ends the CQ: WRITE_FAIL and CQ_ERROR with access
 * violation, as an IOMMU fault would on hardware (inference). @return -EFAULT.
 */
static int
mlx5v_sim_cq_write_fail(struct mlx5v_sim *sim, struct mlx5v_sim_cq *cq, uint32_t cqn)
{
	SIM_LOG(WARNING, "%s: CQ %u: DMA fault writing a CQE", sim->name, cqn);
	cq->status = MLX5V_CQC_STATUS_CQ_WRITE_FAIL;
	mlx5v_sim_cq_error(sim, cqn, RTE_PMD_MLX5V_CQ_ERR_SYND_ACCESS_VIOLATION);
	return -EFAULT;
}

/*
 * Room for n CQEs from the producer counter on. @return 0, -ENOSPC (CQ in error, or the
 * overrun raised here) or -EFAULT (record unreadable, the CQ failed). Lock held.
 */
static int
mlx5v_sim_cq_room(struct mlx5v_sim *sim, struct mlx5v_sim_cq *cq, uint32_t cqn, uint32_t n)
{
	uint32_t ci = 0;

	/* A CQ in error takes no more CQEs: hardware stops writing after CQ_ERROR (inference). */
	if (cq->status != MLX5V_CQC_STATUS_OK)
		return -ENOSPC;
	/* The consumer index lives in the doorbell record, dword 0 (prm/mlx5 §7.3). */
	if (hwsim_dma_read(sim->dma, cq->dbr_addr, &ci, sizeof(ci)) != 0)
		return mlx5v_sim_cq_write_fail(sim, cq, cqn);
	ci = rte_be_to_cpu_32(ci) & MLX5V_SIM_CTR_MASK;
	/*
	 * Overrun: nent CQEs not yet consumed (24-bit counters). cqc.oi (overrun ignore,
	 * prm/mlx5 §7.1) lets the CQ overwrite instead; otherwise CQ_ERROR with syndrome 0x1
	 * (prm/mlx5 §6.12).
	 */
	if (mlx5v_sim_ctr_dist(cq->pi, ci) + n > (1u << cq->log_size) && !cq->oi) {
		mlx5v_sim_cq_overrun_locked(sim, cqn);
		return -ENOSPC;
	}
	return 0;
}

/* The ring address of CQE slot pi + off. */
static uint64_t
mlx5v_sim_cq_slot(const struct mlx5v_sim_cq *cq, uint32_t off)
{
	uint32_t nent = 1u << cq->log_size;

	return mlx5v_sim_ring_iova(cq->pas, cq->log_page_size,
				   (uint64_t)((cq->pi + off) & (nent - 1)) * MLX5V_IFC_BYTES(cqe));
}

/*
 * The CQE at slot pi + off with the owner bit of that slot's lap. @return 0 or -EFAULT (the
 * caller fails the CQ).
 */
static int
mlx5v_sim_cq_write_cqe(struct mlx5v_sim *sim, const struct mlx5v_sim_cq *cq, uint32_t off,
		       const uint8_t *cqe)
{
	uint64_t iova = mlx5v_sim_cq_slot(cq, off);
	uint8_t op_own;

	/* Owner = (pi >> log_size) & 1, written last after a release fence (prm/mlx5 §6.8 rule). */
	/* The caller's op_own byte keeps its opcode; the owner bit comes from pi. */
	op_own = cqe[MLX5V_IFC_BYTE_OF(cqe, owner)];
	op_own = (op_own & ~MLX5V_CQE_OWNER_MASK) |
		 (((cq->pi + off) >> cq->log_size) & MLX5V_CQE_OWNER_MASK);
	/*
	 * Bytes 0-62 plain, then op_own (byte 63) with release semantics: a consumer that sees the
	 * new owner also sees the body.
	 */
	if (hwsim_dma_write(sim->dma, iova, cqe, MLX5V_IFC_BYTE_OF(cqe, owner)) != 0 ||
	    hwsim_dma_write_release(sim->dma, iova + MLX5V_IFC_BYTE_OF(cqe, owner),
				    &op_own, 1) != 0)
		return -EFAULT;
	return 0;
}

/* n CQEs were written from pi on: the counters, and the EQE of an armed CQ. */
static void
mlx5v_sim_cq_produced(struct mlx5v_sim *sim, struct mlx5v_sim_cq *cq, uint32_t cqn, uint32_t n)
{
	cq->pi = (cq->pi + n) & MLX5V_SIM_CTR_MASK;
	mlx5v_sim_ctr_add(sim, MLX5V_SIM_CTR_CQES, n);
	/* prm/mlx5 §7.2: only an armed CQ reports; a FIRED one fills silently until re-armed. */
	if (cq->armed)
		mlx5v_sim_cq_notify(sim, cq, cqn);
}

/*
 * Lock held. Writes one CQE as the device would after a completion; callers flush MSI-X after the
 * unlock. cqe holds every field but the owner bit, which this sets from the producer counter.
 */
int
mlx5v_sim_cq_post_raw_locked(struct mlx5v_sim *sim, uint32_t cqn, const uint8_t *cqe)
{
	struct mlx5v_sim_cq *cq = mlx5v_sim_cq_get(sim, cqn);
	int ret;

	if (cq == NULL)
		return -ENOENT;
	ret = mlx5v_sim_cq_room(sim, cq, cqn, 1);
	if (ret != 0)
		return ret;
	if (mlx5v_sim_cq_write_cqe(sim, cq, 0, cqe) != 0)
		return mlx5v_sim_cq_write_fail(sim, cq, cqn);
	mlx5v_sim_cq_produced(sim, cq, cqn, 1);
	return 0;
}

/* ---- CQE compression (prm/mlx5_eth §8.5) ---- */

/* Bytes of a CQE and of a mini-CQE. */
#define ZIP_CQE MLX5V_IFC_BYTES(cqe_eth)
#define ZIP_MINI MLX5V_IFC_BYTES(mini_cqe_hash)

/* The CQE's byte 0x1d: the header types an L3/L4 mini-CQE carries (prm/mlx5_eth §8.5). */
#define ZIP_HDR_BYTE (MLX5V_IFC_BIT_OFF(cqe_eth, ip_frag) / 8)

/*
 * The mini-CQE of a receive CQE: its byte count, and per the CQ's format its hash, its
 * checksum, its flow tag (split 15:0 and 23:16 around the stride index) or its header types.
 */
static void
mlx5v_sim_cq_zip_mini(const struct mlx5v_sim_cq *cq, const uint8_t *cqe, uint8_t *mini)
{
	uint32_t tag = MLX5V_IFC_GET(cqe_eth, cqe, qpn);

	memset(mini, 0, ZIP_MINI);
	switch (cq->mini_fmt) {
	case MLX5V_MINI_CQE_FMT_CSUM:
	case MLX5V_MINI_CQE_FMT_CSUM_STRIDX:
		MLX5V_IFC_SET(mini_cqe_csum, mini, check_sum,
			      MLX5V_IFC_GET(cqe_eth, cqe, check_sum));
		MLX5V_IFC_SET(mini_cqe_csum, mini, byte_cnt, MLX5V_IFC_GET(cqe_eth, cqe, byte_cnt));
		break;
	case MLX5V_MINI_CQE_FMT_FTAG:
		MLX5V_IFC_SET(mini_cqe_ftag, mini, flow_tag_15_0, tag & 0xffff);
		MLX5V_IFC_SET(mini_cqe_ftag, mini, flow_tag_23_16, tag >> 16);
		MLX5V_IFC_SET(mini_cqe_ftag, mini, byte_cnt, MLX5V_IFC_GET(cqe_eth, cqe, byte_cnt));
		break;
	case MLX5V_MINI_CQE_FMT_L34H:
		MLX5V_IFC_SET(mini_cqe_l34h, mini, hdr_type, cqe[ZIP_HDR_BYTE]);
		MLX5V_IFC_SET(mini_cqe_l34h, mini, byte_cnt, MLX5V_IFC_GET(cqe_eth, cqe, byte_cnt));
		break;
	default:
		MLX5V_IFC_SET(mini_cqe_hash, mini, rx_hash_result,
			      MLX5V_IFC_GET(cqe_eth, cqe, rss_hash_result));
		MLX5V_IFC_SET(mini_cqe_hash, mini, byte_cnt, MLX5V_IFC_GET(cqe_eth, cqe, byte_cnt));
		break;
	}
}

/*
 * A CQE joins the session of title when every field but those its mini-CQE carries (and the
 * WQE counter, implied by the order) is the same.
 */
static int
mlx5v_sim_cq_zip_fits(const struct mlx5v_sim_cq *cq, const uint8_t *title, const uint8_t *cqe)
{
	uint8_t a[ZIP_CQE], b[ZIP_CQE];

	memcpy(a, title, ZIP_CQE);
	memcpy(b, cqe, ZIP_CQE);
	MLX5V_IFC_SET(cqe_eth, a, byte_cnt, 0);
	MLX5V_IFC_SET(cqe_eth, b, byte_cnt, 0);
	MLX5V_IFC_SET(cqe_eth, a, wqe_counter, 0);
	MLX5V_IFC_SET(cqe_eth, b, wqe_counter, 0);
	switch (cq->mini_fmt) {
	case MLX5V_MINI_CQE_FMT_CSUM:
	case MLX5V_MINI_CQE_FMT_CSUM_STRIDX:
		MLX5V_IFC_SET(cqe_eth, a, check_sum, 0);
		MLX5V_IFC_SET(cqe_eth, b, check_sum, 0);
		break;
	case MLX5V_MINI_CQE_FMT_FTAG:
		MLX5V_IFC_SET(cqe_eth, a, qpn, 0);
		MLX5V_IFC_SET(cqe_eth, b, qpn, 0);
		break;
	case MLX5V_MINI_CQE_FMT_L34H:
		a[ZIP_HDR_BYTE] = 0;
		b[ZIP_HDR_BYTE] = 0;
		break;
	default:
		MLX5V_IFC_SET(cqe_eth, a, rss_hash_result, 0);
		MLX5V_IFC_SET(cqe_eth, b, rss_hash_result, 0);
		break;
	}
	return memcmp(a, b, ZIP_CQE) == 0;
}

/*
 * Write the held CQEs of cq: one alone as it was, two or more as a session. The session
 * takes one slot per CQE: the title (format 3, byte_cnt = the count) at the first, the
 * mini-CQE array k (eight mini-CQEs) at slot 1 for k = 0 and at slot 8k after, the other
 * slots left as they are; the arrays are written before the title, whose owner byte goes
 * last. @return the CQEs lost. Lock held.
 */
static unsigned int
mlx5v_sim_cq_zip_write(struct mlx5v_sim *sim, struct mlx5v_sim_cq *cq, uint32_t cqn)
{
	uint32_t n = cq->zip_n;
	uint8_t title[ZIP_CQE];
	uint8_t arr[ZIP_CQE];
	uint32_t k, cnt;
	int ret;

	cq->zip_n = 0;
	if (n == 0)
		return 0;
	if (n == 1)
		return mlx5v_sim_cq_post_raw_locked(sim, cqn, cq->zip) == 0 ? 0 : 1;
	ret = mlx5v_sim_cq_room(sim, cq, cqn, n);
	if (ret != 0)
		return n;
	for (k = 0; k * MLX5V_MINI_CQE_PER_SLOT < n; k++) {
		cnt = RTE_MIN(n - k * MLX5V_MINI_CQE_PER_SLOT, (uint32_t)MLX5V_MINI_CQE_PER_SLOT);
		memset(arr, 0, sizeof(arr));
		memcpy(arr, cq->zip + ZIP_CQE + (size_t)k * ZIP_CQE, cnt * ZIP_MINI);
		if (hwsim_dma_write(sim->dma, mlx5v_sim_cq_slot(cq, k == 0 ? 1 : 8 * k), arr,
				    sizeof(arr)) != 0) {
			mlx5v_sim_cq_write_fail(sim, cq, cqn);
			return n;
		}
	}
	memcpy(title, cq->zip, ZIP_CQE);
	MLX5V_IFC_SET(cqe_eth, title, byte_cnt, n);
	MLX5V_IFC_SET(cqe_eth, title, cqe_format, MLX5V_CQE_FORMAT_COMPRESSED);
	if (mlx5v_sim_cq_write_cqe(sim, cq, 0, title) != 0) {
		mlx5v_sim_cq_write_fail(sim, cq, cqn);
		return n;
	}
	mlx5v_sim_cq_produced(sim, cq, cqn, n);
	mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_CQE_SESSIONS);
	return 0;
}

unsigned int
mlx5v_sim_cq_post_rx_locked(struct mlx5v_sim *sim, uint32_t cqn, const uint8_t *cqe, int batch)
{
	struct mlx5v_sim_cq *cq = mlx5v_sim_cq_get(sim, cqn);
	unsigned int lost = 0;
	uint32_t cap;

	if (cq == NULL)
		return 1;
	/* Held: a good receive CQE of a burst, on a CQ that compresses. */
	if (!cq->comp_en || !batch ||
	    MLX5V_IFC_GET(cqe_eth, cqe, opcode) != MLX5V_CQE_OPCODE_RESP_SEND) {
		lost = mlx5v_sim_cq_zip_write(sim, cq, cqn);
		return lost + (mlx5v_sim_cq_post_raw_locked(sim, cqn, cqe) == 0 ? 0 : 1);
	}
	/* A session spans at most the ring and MLX5V_SIM_ZIP_MAX CQEs. */
	cap = RTE_MIN(1u << cq->log_size, (uint32_t)MLX5V_SIM_ZIP_MAX);
	if (cq->zip_n != 0 && (cq->zip_n == cap || !mlx5v_sim_cq_zip_fits(cq, cq->zip, cqe)))
		lost = mlx5v_sim_cq_zip_write(sim, cq, cqn);
	if (cq->zip_n == 0)
		memcpy(cq->zip, cqe, ZIP_CQE);
	mlx5v_sim_cq_zip_mini(cq, cqe, cq->zip + ZIP_CQE + (size_t)cq->zip_n * ZIP_MINI);
	cq->zip_n++;
	if (!cq->zip_queued) {
		cq->zip_queued = 1;
		cq->zip_next = sim->zip_head;
		sim->zip_head = cqn;
	}
	return lost;
}

unsigned int
mlx5v_sim_cq_zip_flush_locked(struct mlx5v_sim *sim)
{
	unsigned int lost = 0;
	struct mlx5v_sim_cq *cq;
	uint32_t cqn;

	while (sim->zip_head != 0) {
		cqn = sim->zip_head;
		cq = &sim->cq[cqn];
		sim->zip_head = cq->zip_next;
		cq->zip_queued = 0;
		cq->zip_next = 0;
		lost += mlx5v_sim_cq_zip_write(sim, cq, cqn);
	}
	return lost;
}


int
mlx5v_sim_cq_post_locked(struct mlx5v_sim *sim, uint32_t cqn, uint8_t opcode,
			 uint32_t byte_cnt)
{
	struct mlx5v_sim_cq *cq = mlx5v_sim_cq_get(sim, cqn);
	uint8_t cqe[MLX5V_IFC_BYTES(cqe)];

	if (cq == NULL)
		return -ENOENT;
	memset(cqe, 0, sizeof(cqe));
	MLX5V_IFC_SET(cqe, cqe, byte_cnt, byte_cnt);
	/*
	 * No WQE stands behind an injected CQE: wqe_counter carries the producer index so tests
	 * can check ordering.
	 */
	MLX5V_IFC_SET(cqe, cqe, wqe_counter, cq->pi & 0xffff);
	MLX5V_IFC_SET(cqe, cqe, opcode, opcode);
	return mlx5v_sim_cq_post_raw_locked(sim, cqn, cqe);
}

int
mlx5v_sim_post_cqe(struct mlx5v_sim *sim, uint32_t cqn, uint8_t opcode, uint32_t byte_cnt)
{
	int ret;

	pthread_mutex_lock(&sim->lock);
	ret = mlx5v_sim_cq_post_locked(sim, cqn, opcode, byte_cnt);
	pthread_mutex_unlock(&sim->lock);
	mlx5v_sim_irq_flush(sim);
	return ret;
}

/*
 * UAR + 0x20: 64-bit BE ((sn << 28 | cmd | ci) << 32) | cqn (prm/mlx5_eth §7.3). Consumed on the
 * engine thread; a malformed word is counted, never acted on.
 */
void
mlx5v_sim_cq_doorbell(struct mlx5v_sim *sim, uint32_t uar, uint64_t val)
{
	uint32_t hi = (uint32_t)(val >> 32);
	uint32_t cqn = (uint32_t)val & MLX5V_SIM_CTR_MASK;
	uint32_t ci = hi & MLX5V_CQ_DB_CI_MASK;
	struct mlx5v_sim_cq *cq;
	uint32_t rec = 0;

	pthread_mutex_lock(&sim->lock);
	cq = mlx5v_sim_cq_get(sim, cqn);
	/*
	 * The low dword holds only the 24-bit cqn, and the doorbell must come through cqc.uar_page:
	 * a driver with mixed-up UARs or CQNs is caught here.
	 */
	if (cq == NULL || cq->uar != uar || ((uint32_t)val >> 24) != 0) {
		SIM_LOG(WARNING, "%s: CQ doorbell 0x%016" PRIx64 " on UAR %u: %s (driver bug)",
			sim->name, val, uar, cq == NULL ? "no such CQ" :
			cq->uar != uar ? "not the CQ's uar_page" : "reserved bits set");
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		goto out;
	}
	/* prm/mlx5_eth §7.3: the record's dword 1 must already hold the same arm word. */
	if (hwsim_dma_read(sim->dma, cq->dbr_addr + 4, &rec, sizeof(rec)) != 0 ||
			rte_be_to_cpu_32(rec) != hi) {
		/*
		 * Logged only, the MMIO word wins: prm/mlx5_eth §7.3 writes the record before the
		 * MMIO, so a mismatch means a skipped record write or barrier.
		 */
		SIM_LOG(WARNING, "%s: CQ %u arm 0x%08x but dbrec[1] = 0x%08x (driver bug)",
			sim->name, cqn, hi, rte_be_to_cpu_32(rec));
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
	}
	if (cq->status != MLX5V_CQC_STATUS_OK)
		goto out;
	/*
	 * The CI may not move back past the last arm nor beyond the producer: the prm/mlx5_eth §13
	 * EQ doorbell rule, applied to CQs (inference).
	 */
	if (mlx5v_sim_ctr_dist(ci, cq->arm_ci) > mlx5v_sim_ctr_dist(cq->pi, cq->arm_ci)) {
		SIM_LOG(WARNING, "%s: CQ %u arm with CI %u (last %u, pi %u) rejected",
			sim->name, cqn, ci, cq->arm_ci, cq->pi);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		goto out;
	}
	/*
	 * cmd (REQ_NOT_SOL or REQ_NOT) is not told apart: the model writes no solicited CQEs, so
	 * both arm for any completion (deviation).
	 */
	cq->arm_ci = ci;
	cq->arm_sn = (hi >> MLX5V_CQ_DB_SN_SHIFT) & 3;
	/*
	 * sn counts the completion events the consumer handled (libmlx5, Linux and DPDK bump it
	 * per event, prm/mlx5 §7.3); after each event raised it must move on by one, and two
	 * arms without an event between keep it. Flagged, not refused: the arm still takes
	 * effect, as the model cannot tell a late consumer from a wrong one.
	 */
	if (cq->arm_sn != (cq->events & 3)) {
		SIM_LOG(WARNING, "%s: CQ %u armed with sn %u after %u event(s): expected sn %u "
			"(driver bug)", sim->name, cqn, cq->arm_sn, cq->events, cq->events & 3);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_CQ_ARM_SN);
	}
	/* Arming with CQEs beyond ci fires at once (DPDK d76a17f7b820, prm/mlx5 §12 #7). */
	if (cq->pi != ci)
		mlx5v_sim_cq_notify(sim, cq, cqn);
	else
		cq->armed = 1;
out:
	pthread_mutex_unlock(&sim->lock);
}

/* Teardown only, with the engine stopped: no lock needed. */
void
mlx5v_sim_cq_free_all(struct mlx5v_sim *sim)
{
	unsigned int i;

	if (sim->cq == NULL)
		return;
	for (i = 0; i <= MLX5V_SIM_MAX_CQN; i++) {
		free(sim->cq[i].pas);
		sim->cq[i].pas = NULL;
		free(sim->cq[i].zip);
		sim->cq[i].zip = NULL;
		sim->cq[i].valid = 0;
	}
}
