/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Event queues in the model: commands, EQE writes, doorbells, interrupts, events. */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5v_sim_priv.h"

/* The bits of eqc field fld within its dword. */
#define MLX5V_SIM_EQC_F(fld) (MLX5V_IFC_MASK(eqc, fld) << MLX5V_IFC_SHIFT(eqc, fld))

/*
 * Bits of each eqc dword that a CREATE_EQ may set (prm/mlx5 §6.1, §6.2); everything else is
 * reserved. status, st and page_offset are allowed here and checked on their own.
 * consumer/producer counters are query-only, so they are reserved on create. intr is 12 bits,
 * so its bits 15:12 must stay clear (prm/mlx5 §6.2).
 */
static const uint32_t mlx5v_sim_eqc_allowed[MLX5V_IFC_DWORDS(eqc)] = {
	[MLX5V_IFC_DW(eqc, status)] = MLX5V_SIM_EQC_F(status) | MLX5V_SIM_EQC_F(ec) |
				      MLX5V_SIM_EQC_F(oi) | MLX5V_SIM_EQC_F(st),
	[MLX5V_IFC_DW(eqc, page_offset)] = MLX5V_SIM_EQC_F(page_offset),
	[MLX5V_IFC_DW(eqc, log_eq_size)] = MLX5V_SIM_EQC_F(log_eq_size) |
					   MLX5V_SIM_EQC_F(uar_page),
	[MLX5V_IFC_DW(eqc, intr)] = MLX5V_SIM_EQC_F(intr),
	[MLX5V_IFC_DW(eqc, log_page_size)] = MLX5V_SIM_EQC_F(log_page_size),
};
_Static_assert(MLX5V_IFC_DW(eqc, ec) == 0 && MLX5V_IFC_DW(eqc, oi) == 0 &&
	       MLX5V_IFC_DW(eqc, st) == 0 && MLX5V_IFC_DW(eqc, status) == 0 &&
	       MLX5V_IFC_DW(eqc, uar_page) == MLX5V_IFC_DW(eqc, log_eq_size),
	       "eqc fields grouped under one dword are not in the same dword");

/* A reserved field of create_eq_in as a byte range. */
#define MLX5V_SIM_EQ_IN_RSVD(fld) \
	{ MLX5V_IFC_BYTE_OFF(create_eq_in, fld), MLX5V_IFC_BIT_SZ(create_eq_in, fld) / 8 }

/* Reserved byte ranges of create_eq_in outside eqc and the mask (prm/mlx5 §6.1). */
static const struct {
	uint32_t off;
	uint32_t len;
} mlx5v_sim_eq_in_reserved[] = {
	MLX5V_SIM_EQ_IN_RSVD(reserved_at_40),
	MLX5V_SIM_EQ_IN_RSVD(reserved_at_280),
	MLX5V_SIM_EQ_IN_RSVD(reserved_at_3c0),
};

/*
 * EQN 0 is never handed out (see mlx5v_sim_cmd_create_eq()), so 0 doubles as "no EQ" for callers
 * that route by c_eqn or by event subscription.
 */
struct mlx5v_sim_eq *
mlx5v_sim_eq_get(struct mlx5v_sim *sim, uint32_t eqn)
{
	if (eqn > MLX5V_SIM_MAX_EQN || !sim->eq[eqn].valid)
		return NULL;
	return &sim->eq[eqn];
}

static int
mlx5v_sim_eq_subscribed(const struct mlx5v_sim_eq *eq, uint8_t type)
{
	/* Event type t is bit t % 64 of event_bitmask[t / 64] (prm/mlx5 §6.4). */
	return (eq->mask[type / 64] >> (type % 64)) & 1;
}

/*
 * The lowest-numbered subscribed EQ wins: the PRM defines no order, and a fixed one keeps the CMD
 * EQE of prm/mlx5 §3.6 deterministic when several EQs subscribe to CMD.
 */
uint32_t
mlx5v_sim_eq_subscriber(struct mlx5v_sim *sim, uint8_t type)
{
	uint32_t eqn;

	for (eqn = 0; eqn <= MLX5V_SIM_MAX_EQN; eqn++)
		if (sim->eq[eqn].valid && mlx5v_sim_eq_subscribed(&sim->eq[eqn], type))
			return eqn;
	return MLX5V_SIM_EQN_NONE;
}

/*
 * Byte off of a ring described by pas[] with pages of 2^(log_page_size + 12) bytes (prm/mlx5
 * §6.1: page size set by the driver).
 */
uint64_t
mlx5v_sim_ring_iova(const uint64_t *pas, uint8_t log_page_size, uint64_t off)
{
	unsigned int shift = log_page_size + MLX5V_ADAPTER_PAGE_SHIFT;

	return pas[off >> shift] + (off & ((UINT64_C(1) << shift) - 1));
}

void
mlx5v_sim_eq_overrun(struct mlx5v_sim *sim, struct mlx5v_sim_eq *eq)
{
	uint32_t eqn = eq - sim->eq;

	/*
	 * Sticky: once the EQ write failed, neither driver has a recovery path (prm/mlx5 §6.9),
	 * so later posts fail too and the failure is reported once.
	 */
	if (eq->status != RTE_PMD_MLX5V_EQC_STATUS_OK)
		return;
	/* prm/mlx5 §6.9: an EQ write failure; for the async (CMD) EQ, health syndrome 0xc. */
	eq->status = RTE_PMD_MLX5V_EQC_STATUS_EQ_WRITE_FAILURE;
	mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_EQ_OVERRUNS);
	SIM_LOG(WARNING, "%s: EQ %u overrun (pi %u ci %u nent %u): EQ write failure",
		sim->name, eqn, eq->pi, eq->ci, 1u << eq->log_size);
	if (mlx5v_sim_eq_subscribed(eq, RTE_PMD_MLX5V_EVENT_CMD))
		mlx5v_sim_health_fatal_locked(sim, MLX5V_HEALTH_SYND_ASYNC_EQ_OVERRUN_ERR);
}

/*
 * Called with the model lock held. Writes one EQE at pi the way hardware must
 * (prm/mlx5 §6.8) and runs the interrupt state machine of prm/mlx5 §6.11.
 */
int
mlx5v_sim_eq_post(struct mlx5v_sim *sim, struct mlx5v_sim_eq *eq, uint8_t type,
		  uint8_t sub_type, const void *data)
{
	uint8_t eqe[MLX5V_IFC_BYTES(eqe)];
	uint32_t nent = 1u << eq->log_size;
	uint64_t iova;
	uint8_t owner;

	if (!eq->valid || eq->status != RTE_PMD_MLX5V_EQC_STATUS_OK)
		return -EIO;
	/* prm/mlx5 §6.9: never hold more than nent unconsumed EQEs, unless overrun is ignored. */
	/*
	 * pi - ci >= nent: the driver has not written its CI for a whole ring, which prm/mlx5 §6.9
	 * calls an overrun (inference: a real HCA cannot hold more than nent unconsumed EQEs). oi =
	 * 1 asks the device to ignore it.
	 */
	if (mlx5v_sim_ctr_dist(eq->pi, eq->ci) >= nent && !eq->oi) {
		mlx5v_sim_eq_overrun(sim, eq);
		return -EIO;
	}
	memset(eqe, 0, sizeof(eqe));
	MLX5V_IFC_SET(eqe, eqe, type, type);
	MLX5V_IFC_SET(eqe, eqe, sub_type, sub_type);
	if (data != NULL)
		memcpy(MLX5V_IFC_ADDR_OF(eqe, eqe, data), data, MLX5V_SIM_EQE_DATA_LEN);
	iova = mlx5v_sim_ring_iova(eq->pas, eq->log_page_size,
				   (uint64_t)(eq->pi & (nent - 1)) * MLX5V_IFC_BYTES(eqe));
	/* Body first, then (release fence) the owner byte, so a reader never sees a torn EQE. */
	/*
	 * Hardware writes owner = (pi >> log_eq_size) & 1: 0 on the first lap over owner bytes the
	 * driver initialised to 1 (prm/mlx5 §6.8).
	 */
	owner = (eq->pi >> eq->log_size) & 1;
	if (hwsim_dma_write(sim->dma, iova, eqe, MLX5V_IFC_BYTE_OF(eqe, owner)) != 0 ||
			hwsim_dma_write_release(sim->dma, iova + MLX5V_IFC_BYTE_OF(eqe, owner),
						&owner, 1) != 0) {
		SIM_LOG(WARNING, "%s: EQ %u: EQE write to 0x%" PRIx64 " faulted", sim->name,
			(unsigned int)(eq - sim->eq), iova);
		/*
		 * An IOMMU fault on the ring is an EQ write failure (eqc.status 0xa, prm/mlx5
		 * §6.2).
		 */
		eq->status = RTE_PMD_MLX5V_EQC_STATUS_EQ_WRITE_FAILURE;
		return -EIO;
	}
	eq->pi = (eq->pi + 1) & MLX5V_SIM_CTR_MASK;
	mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_EQES);
	/* prm/mlx5 §6.11: ARMED + EQE raises once and goes to FIRED; FIRED stays silent. */
	/*
	 * The vector is queued, not raised: the engine raises it after dropping the sim lock, so a
	 * driver callback that rings a doorbell cannot deadlock against us.
	 */
	if (eq->always_armed || eq->armed) {
		eq->armed = 0;
		mlx5v_sim_irq_queue(sim, eq->intr);
	}
	return 0;
}

/*
 * first_only: events like CMD go to one EQ (the one driver EQ subscribed to them); port or vport
 * events may fan out to every subscribed EQ.
 */
int
mlx5v_sim_event_post(struct mlx5v_sim *sim, uint8_t type, uint8_t sub_type,
		     const void *data, int first_only)
{
	uint32_t eqn;
	int n = 0;

	for (eqn = 0; eqn <= MLX5V_SIM_MAX_EQN; eqn++) {
		if (!sim->eq[eqn].valid || !mlx5v_sim_eq_subscribed(&sim->eq[eqn], type))
			continue;
		if (mlx5v_sim_eq_post(sim, &sim->eq[eqn], type, sub_type, data) == 0)
			n++;
		if (first_only)
			break;
	}
	if (n == 0)
		SIM_LOG(DEBUG, "%s: event type 0x%x reached no EQ", sim->name, type);
	return n;
}

/* Validate eqc and create_eq_in reserved fields. @return syndrome or 0. */
static uint32_t
mlx5v_sim_eq_check_reserved(const uint8_t *in)
{
	const uint8_t *eqc = MLX5V_IFC_ADDR_OF(create_eq_in, in, eqc);
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_sim_eq_in_reserved); i++)
		if (!mlx5v_sim_zero(in, mlx5v_sim_eq_in_reserved[i].off,
				    mlx5v_sim_eq_in_reserved[i].len))
			return MLX5V_SIM_SYND_EQ_IN_RESERVED;
	/*
	 * eqc bits outside the allowed mask are reserved and must be 0 (prm/mlx5 §6.2; §13
	 * "reserved field misuse -> BAD_PARAM").
	 */
	for (i = 0; i < RTE_DIM(mlx5v_sim_eqc_allowed); i++)
		if (mlx5v_sim_be32(eqc, 4 * i) & ~mlx5v_sim_eqc_allowed[i])
			return MLX5V_SIM_SYND_EQC_RESERVED;
	return 0;
}

/* @return 0 (OK), 1 (PAS beyond inlen), 2 (misaligned), 3 (unmapped). */
static int
mlx5v_sim_ring_check(struct mlx5v_sim *sim, const uint8_t *in, uint32_t inlen,
		     uint32_t pas_off, uint64_t ring_bytes, uint8_t log_page_size,
		     uint64_t *pas, uint32_t *npas)
{
	/*
	 * The whole ring must be covered by PAS entries inside inlen, each aligned to the page size
	 * and DMA-mapped (prm/mlx5 §13 EQs).
	 */
	uint64_t page = UINT64_C(1) << (log_page_size + MLX5V_ADAPTER_PAGE_SHIFT);
	uint64_t n = (ring_bytes + page - 1) / page;
	uint64_t len;
	uint32_t i;

	if (n > MLX5V_SIM_MAX_PAS || pas_off + 8 * n > inlen)
		return 1;
	for (i = 0; i < n; i++) {
		pas[i] = MLX5V_IFC_GET64(cmd_pas, in + pas_off + i * MLX5V_IFC_BYTES(cmd_pas), pa);
		if (pas[i] % page != 0)
			return 2;
		len = RTE_MIN(page, ring_bytes - i * page);
		if (!hwsim_dma_check(sim->dma, pas[i], len))
			return 3;
	}
	*npas = n;
	return 0;
}

uint8_t
mlx5v_sim_ring_pas_read(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, uint32_t pas_off,
			uint64_t ring_bytes, uint8_t log_page_size,
			const struct mlx5v_sim_ring_synd *synd, uint64_t **pas, uint32_t *npas)
{
	const uint32_t ring_synd[] = { 0, synd->pas_len, synd->pas_align, synd->unmapped };
	uint64_t *p;
	int ret;

	p = calloc(MLX5V_SIM_MAX_PAS, sizeof(*p));
	if (p == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_NO_RES_ERR, synd->no_mem);
	ret = mlx5v_sim_ring_check(sim, c->in, c->inlen, pas_off, ring_bytes, log_page_size, p,
				   npas);
	if (ret != 0) {
		free(p);
		return mlx5v_sim_cmd_err(c, ret == 1 ? MLX5V_CMD_STAT_BAD_INP_LEN_ERR :
					 MLX5V_CMD_STAT_BAD_PARAM_ERR, ring_synd[ret]);
	}
	*pas = p;
	return MLX5V_CMD_STAT_OK;
}

uint32_t
mlx5v_sim_ring_sw_owned(struct mlx5v_sim *sim, const uint64_t *pas, uint8_t log_page_size,
			uint32_t nent, uint32_t stride)
{
	/*
	 * Only the first MLX5V_SIM_RING_CHECK_MAX entries are read: enough to catch an
	 * uninitialised ring (prm/mlx5 §12 #5, #6) without a full scan of a large ring on every
	 * create.
	 */
	uint32_t n = RTE_MIN(nent, (uint32_t)MLX5V_SIM_RING_CHECK_MAX);
	uint32_t bad = 0;
	uint32_t i;
	uint8_t own;

	for (i = 0; i < n; i++) {
		if (hwsim_dma_read(sim->dma, mlx5v_sim_ring_iova(pas, log_page_size,
				   (uint64_t)i * stride + stride - 1), &own, 1) != 0)
			break;
		/*
		 * Owner/op_own is the last byte of each entry (offset stride - 1): catches the
		 * tinygrad offset-31 bug class (prm/mlx5 §12 #5).
		 */
		if (!(own & 1))
			bad++;
	}
	return bad;
}

uint8_t
mlx5v_sim_cmd_create_eq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	static const struct mlx5v_sim_ring_synd ring_synd = {
		.no_mem = MLX5V_SIM_SYND_EQ_NO_EQN,
		.pas_len = MLX5V_SIM_SYND_EQ_PAS_LEN,
		.pas_align = MLX5V_SIM_SYND_EQ_PAS_ALIGN,
		.unmapped = MLX5V_SIM_SYND_EQ_UNMAPPED,
	};
	const uint8_t *eqc = MLX5V_IFC_ADDR_OF(create_eq_in, c->in, eqc);
	uint32_t log_size = MLX5V_IFC_GET(eqc, eqc, log_eq_size);
	uint32_t log_page = MLX5V_IFC_GET(eqc, eqc, log_page_size);
	uint32_t st = MLX5V_IFC_GET(eqc, eqc, st);
	uint32_t uar = MLX5V_IFC_GET(eqc, eqc, uar_page);
	uint32_t intr = MLX5V_IFC_GET(eqc, eqc, intr);
	struct mlx5v_sim_eq *eq;
	uint64_t *pas;
	uint32_t npas = 0;
	uint32_t synd;
	uint32_t eqn;
	uint32_t bad;
	uint8_t status;
	int i;

	synd = mlx5v_sim_eq_check_reserved(c->in);
	if (synd != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	/* status is output-only on create (0 = OK, 0xa = write failure, prm/mlx5 §6.2). */
	if (MLX5V_IFC_GET(eqc, eqc, status) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_STATUS);
	if (st != 0 && st != RTE_PMD_MLX5V_EQC_ST_ARMED && st != RTE_PMD_MLX5V_EQC_ST_FIRED &&
			st != RTE_PMD_MLX5V_EQC_ST_ALWAYS_ARMED)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_ST);
	/* page_offset must be 0 (prm/mlx5 §6.1). */
	if (MLX5V_IFC_GET(eqc, eqc, page_offset) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_EQ_PAGE_OFFSET);
	if (log_size > sim->p.log_max_eq_sz)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_SIZE);
	/*
	 * eqc.uar_page must be a UAR the driver allocated: its +0x40/+0x48 doorbells serve this EQ
	 * (prm/mlx5 §6.2).
	 */
	if (!mlx5v_sim_uar_allocated(sim, uar))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_UAR);
	/* intr is 12 bits (prm/mlx5 §6.2) and must name one of our MSI-X vectors. */
	if (intr >= sim->p.msix)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_INTR);
	status = mlx5v_sim_ring_pas_read(sim, c, MLX5V_IFC_BYTE_OFF(create_eq_in, pas),
					 (uint64_t)MLX5V_IFC_BYTES(eqe) << log_size, log_page,
					 &ring_synd, &pas, &npas);
	if (status != MLX5V_CMD_STAT_OK)
		return status;
	/*
	 * EQN first_num .. first_num + max_eqs - 1: from 1, doorbell words (eqn << 24 | ci) are
	 * never zero; from 0 they idle at all ones, which EQN 255 could write (first_num=0 stops
	 * at 254).
	 */
	for (eqn = sim->p.first_num; eqn < sim->p.first_num + sim->p.max_eqs; eqn++)
		if (!sim->eq[eqn].valid)
			break;
	if (eqn >= sim->p.first_num + sim->p.max_eqs) {
		free(pas);
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_EQ_NO_EQN);
	}
	eq = &sim->eq[eqn];
	memset(eq, 0, sizeof(*eq));
	eq->gen = ++sim->eq_gen;
	eq->log_size = log_size;
	eq->log_page_size = log_page;
	/* prm/mlx5 §6.11: not armed after CREATE_EQ unless the context says so. */
	eq->armed = st == RTE_PMD_MLX5V_EQC_ST_ARMED;
	eq->always_armed = st == RTE_PMD_MLX5V_EQC_ST_ALWAYS_ARMED;
	eq->oi = MLX5V_IFC_GET(eqc, eqc, oi);
	eq->ec = MLX5V_IFC_GET(eqc, eqc, ec);
	eq->uar = uar;
	eq->intr = intr;
	for (i = 0; i < 4; i++)
		eq->mask[i] = MLX5V_IFC_ARRAY_GET64(create_eq_in, c->in, event_bitmask, i);
	eq->pas = pas;
	eq->npas = npas;
	eq->ring_host = hwsim_dma_translate(sim->dma, pas[0], 1, 1);
	eq->valid = 1;
	sim->nb_eqs++;
	bad = mlx5v_sim_ring_sw_owned(sim, pas, log_page, 1u << log_size,
				      MLX5V_IFC_BYTES(eqe));
	/*
	 * Logged, not failed: a DEVX caller following rdma-core initialises owners after create
	 * (prm/mlx5 §11.7), which is legal but racy.
	 */
	if (bad != 0) {
		/*
		 * prm/mlx5 §11.7: owner bytes should be 1 before CREATE_EQ (rdma-core sets them
		 * after).
		 */
		SIM_LOG(NOTICE, "%s: EQ %u created with %u software-owned EQE(s)", sim->name,
			eqn, bad);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_RING_SW_OWNED);
	}
	MLX5V_IFC_SET(create_eq_out, c->out, eq_number, eqn);
	return MLX5V_CMD_STAT_OK;
}

/* eq_number at byte 0x0b; the rest of DW2-3 is reserved. @return the EQ or NULL (+err). */
static struct mlx5v_sim_eq *
mlx5v_sim_eq_from_in(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, uint8_t *status)
{
	struct mlx5v_sim_eq *eq;

	if (MLX5V_IFC_GET(destroy_eq_in, c->in, reserved_at_40) != 0 ||
			MLX5V_IFC_GET(destroy_eq_in, c->in, reserved_at_60) != 0) {
		*status = mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					    MLX5V_SIM_SYND_EQ_IN_HI);
		return NULL;
	}
	eq = mlx5v_sim_eq_get(sim, MLX5V_IFC_GET(destroy_eq_in, c->in, eq_number));
	if (eq == NULL)
		*status = mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_EQ_EQN);
	return eq;
}

uint8_t
mlx5v_sim_cmd_destroy_eq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_eq *eq = mlx5v_sim_eq_from_in(sim, c, &status);

	if (eq == NULL)
		return status;
	/* A CQ still reports to this EQ (inference, prm/mlx5 §13). */
	if (eq->ncq != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_EQ_HAS_CQ);
	if (eq->destroy_failed)
		sim->nb_zombies--;
	free(eq->pas);
	memset(eq, 0, sizeof(*eq));
	sim->nb_eqs--;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_query_eq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_eq *eq = mlx5v_sim_eq_from_in(sim, c, &status);
	uint8_t *eqc = MLX5V_IFC_ADDR_OF(query_eq_out, c->out, eqc);
	uint32_t st;
	uint32_t i;
	uint32_t n;

	if (eq == NULL)
		return status;
	if (eq->always_armed)
		st = RTE_PMD_MLX5V_EQC_ST_ALWAYS_ARMED;
	else
		st = eq->armed ? RTE_PMD_MLX5V_EQC_ST_ARMED : RTE_PMD_MLX5V_EQC_ST_FIRED;
	MLX5V_IFC_SET(eqc, eqc, status, eq->status);
	MLX5V_IFC_SET(eqc, eqc, ec, eq->ec);
	MLX5V_IFC_SET(eqc, eqc, oi, eq->oi);
	MLX5V_IFC_SET(eqc, eqc, st, st);
	MLX5V_IFC_SET(eqc, eqc, log_eq_size, eq->log_size);
	MLX5V_IFC_SET(eqc, eqc, uar_page, eq->uar);
	MLX5V_IFC_SET(eqc, eqc, intr, eq->intr);
	MLX5V_IFC_SET(eqc, eqc, log_page_size, eq->log_page_size);
	MLX5V_IFC_SET(eqc, eqc, consumer_counter, eq->ci);
	MLX5V_IFC_SET(eqc, eqc, producer_counter, eq->pi);
	/* query_eq_out has a single 64-bit event_bitmask word (prm/mlx5 §6.3). */
	MLX5V_IFC_SET64(query_eq_out, c->out, event_bitmask, eq->mask[0]);
	n = RTE_MIN(eq->npas, (c->outlen - RTE_PMD_MLX5V_QUERY_EQ_OUT_PAS) / 8);
	for (i = 0; i < n; i++)
		MLX5V_IFC_ARRAY_SET64(query_eq_out, c->out, pas, i, eq->pas[i]);
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_gen_eqe(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *eqe = MLX5V_IFC_ADDR_OF(gen_eqe_in, c->in, eqe);
	uint8_t status = MLX5V_CMD_STAT_OK;
	struct mlx5v_sim_eq *eq = mlx5v_sim_eq_from_in(sim, c, &status);

	if (eq == NULL)
		return status;
	if (eq->status != RTE_PMD_MLX5V_EQC_STATUS_OK)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_EQ_ERROR);
	/* The device sets the owner bit; an overrun here is the EQ's failure, not ours. */
	mlx5v_sim_eq_post(sim, eq, MLX5V_IFC_GET(eqe, eqe, type),
			  MLX5V_IFC_GET(eqe, eqe, sub_type), MLX5V_IFC_ADDR_OF(eqe, eqe, data));
	return MLX5V_CMD_STAT_OK;
}

void
mlx5v_sim_eq_doorbell(struct mlx5v_sim *sim, uint32_t uar, int arm, uint32_t val)
{
	uint32_t eqn = val >> 24;
	uint32_t ci = val & MLX5V_SIM_CTR_MASK;
	struct mlx5v_sim_eq *eq;
	uint32_t used;
	uint32_t adv;

	pthread_mutex_lock(&sim->lock);
	eq = mlx5v_sim_eq_get(sim, eqn);
	if (eq == NULL || eq->uar != uar) {
		SIM_LOG(WARNING, "%s: EQ doorbell 0x%08x on UAR %u: %s (driver bug)", sim->name,
			val, uar, eq == NULL ? "no such EQ" : "not the EQ's uar_page");
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		goto out;
	}
	if (eq->status != RTE_PMD_MLX5V_EQC_STATUS_OK)
		goto out;
	/* prm/mlx5 §13: the CI may not move backwards, nor beyond what the device produced. */
	adv = mlx5v_sim_ctr_dist(ci, eq->ci);
	used = mlx5v_sim_ctr_dist(eq->pi, eq->ci);
	/*
	 * A polled model sees an arm and a later CI-only update of the same pass
	 * together and applies the CI-only word first; the arm's older CI is then
	 * behind. Hardware would have taken the arm, then the newer CI: keep the
	 * newer CI and take the arm.
	 */
	if (arm && adv > used && eq->noarm_pass == mlx5v_sim_db_pass() &&
	    mlx5v_sim_ctr_dist(eq->ci, ci) <= (1u << eq->log_size)) {
		ci = eq->ci;
		adv = 0;
	}
	if (adv > used) {
		SIM_LOG(WARNING, "%s: EQ %u doorbell CI %u %s (ci %u pi %u) rejected", sim->name,
			eqn, ci, mlx5v_sim_ctr_dist(eq->ci, ci) < adv ? "moves backwards" :
			"is beyond the producer", eq->ci, eq->pi);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		goto out;
	}
	eq->ci = ci;
	if (!arm)
		eq->noarm_pass = mlx5v_sim_db_pass();
	if (!arm || eq->always_armed)
		goto out;
	/* prm/mlx5 §6.11: arming with unconsumed EQEs raises at once (no lost wake-up). */
	if (eq->pi != eq->ci) {
		eq->armed = 0;
		mlx5v_sim_irq_queue(sim, eq->intr);
	} else {
		eq->armed = 1;
	}
out:
	pthread_mutex_unlock(&sim->lock);
}

void
mlx5v_sim_eq_free_all(struct mlx5v_sim *sim)
{
	unsigned int i;

	for (i = 0; i <= MLX5V_SIM_MAX_EQN; i++) {
		free(sim->eq[i].pas);
		sim->eq[i].pas = NULL;
		sim->eq[i].valid = 0;
	}
}

int
mlx5v_sim_inject_event(struct mlx5v_sim *sim, uint8_t type, uint8_t sub_type,
		       const void *data)
{
	int n;

	pthread_mutex_lock(&sim->lock);
	/* One consumer for the driver's own events: the first subscribed EQ. */
	n = mlx5v_sim_event_post(sim, type, sub_type, data,
				 type == RTE_PMD_MLX5V_EVENT_CMD ||
				 type == RTE_PMD_MLX5V_EVENT_PAGE_REQUEST);
	pthread_mutex_unlock(&sim->lock);
	mlx5v_sim_irq_flush(sim);
	return n;
}

int
mlx5v_sim_port_event(struct mlx5v_sim *sim, unsigned int port, uint8_t sub_type)
{
	uint8_t data[MLX5V_SIM_EQE_DATA_LEN];

	if (port < 1 || port > sim->p.ports)
		return -EINVAL;
	memset(data, 0, sizeof(data));
	/* EQE 0x28: port number in bits 7:4 (prm/mlx5 §6.6). */
	MLX5V_IFC_SET(eqe_port_change, data, port, port);
	return mlx5v_sim_inject_event(sim, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, sub_type, data);
}
