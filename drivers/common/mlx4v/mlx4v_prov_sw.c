/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The software provider: what libmlx4 does in user space around each kernel command, for a
 * backend that is "kernel plus hardware" only (the simulator): object geometry, rings and
 * doorbell records in EAL memory, SQ ownership init, the SRQ free list, cq_clean and the
 * mlx4dv views (prm/mlx4 §3; doc/guides/platform/layers.rst, "mlx4v providers").
 */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_io.h>
#include <rte_malloc.h>

#include "mlx4v_log.h"
#include "mlx4v_prov.h"
#include "mlx4v_verbs.h"

static size_t
mlx4v_ring_len(const struct mlx4v_ctx *ctx, size_t len)
{
	return RTE_ALIGN_CEIL(len, ctx->caps.page_size);
}

static void *
mlx4v_ring_alloc(struct mlx4v_ctx *ctx, size_t len)
{
	/*
	 * Rings are EAL memory on the device's socket, aligned to the host page and a whole number
	 * of pages, as libmlx4 allocates them: the kernel describes a ring to the device page by
	 * page, from the start of its first page (prm/mlx4 §5.4; doc/guides/nics/mlx4v.rst,
	 * memory).
	 */
	return rte_zmalloc_socket("mlx4v_ring", mlx4v_ring_len(ctx, len), ctx->caps.page_size,
				  ctx->socket);
}

static void
mlx4v_ring_free(void *p)
{
	rte_free(p);
}

static uint32_t *
mlx4v_db_alloc(struct mlx4v_ctx *ctx)
{
	/* One cache line per doorbell record: the device reads it, software writes it. */
	return rte_zmalloc_socket("mlx4v_db", RTE_CACHE_LINE_SIZE, RTE_CACHE_LINE_SIZE,
				  ctx->socket);
}

static void
mlx4v_db_free(uint32_t *db)
{
	rte_free(db);
}

/*
 * libmlx4 align_queue_size(): roundup_pow_of_two with 0 -> 1. Every ring size in prm/mlx4 §3 goes
 * through it, and masking with cnt - 1 relies on the power of two.
 */
static uint32_t
mlx4v_align_queue_size(uint32_t req)
{
	uint32_t nent;

	for (nent = 1; nent < req; nent <<= 1)
		;
	return nent;
}

/* mlx4dv_get_qp() over our object. */
static int
mlx4v_obj_fill_qp(struct mlx4v_qp *qp, struct mlx4dv_qp *out)
{
	uint64_t mask_out = 0;

	out->buf.buf = qp->buf;
	out->buf.length = qp->buf_len;
	out->rdb = qp->rdb;
	out->sdb = qp->sdb;
	/*
	 * Already big-endian (BE32(qpn << 8)): DPDK writes it to sdb without a swap (prm/mlx4
	 * §4.2).
	 */
	out->doorbell_qpn = qp->doorbell_qpn;
	out->sq.wqe_cnt = qp->sq.wqe_cnt;
	out->sq.wqe_shift = qp->sq.wqe_shift;
	out->sq.offset = qp->sq.offset;
	out->rq.wqe_cnt = qp->rq.wqe_cnt;
	out->rq.wqe_shift = qp->rq.wqe_shift;
	out->rq.offset = qp->rq.offset;
	/* comp_mask is an input: the guarded field is written only when asked for. */
	if (out->comp_mask & MLX4DV_QP_MASK_UAR_MMAP_OFFSET) {
		out->uar_mmap_offset = (off_t)qp->uar_mmap_offset;
		mask_out |= MLX4DV_QP_MASK_UAR_MMAP_OFFSET;
	}
	/* Output comp_mask is the intersection of requested and supported bits (prm/mlx4 §1.3). */
	out->comp_mask = mask_out;
	return 0;
}

/* mlx4dv_get_cq() over our object; the DV-owned flag is set by the caller. */
static int
mlx4v_obj_fill_cq(struct mlx4v_cq *cq, struct mlx4dv_cq *out)
{
	uint64_t mask_out = 0;

	out->buf.buf = cq->buf;
	out->buf.length = cq->buf_len;
	out->cqn = cq->cqn;
	out->set_ci_db = cq->set_ci_db;
	out->arm_db = cq->arm_db;
	out->arm_sn = cq->arm_sn;
	out->cqe_size = cq->cqe_size;
	out->cqe_cnt = cq->cqe_cnt;
	/*
	 * cq_uar is left unwritten when not requested, as upstream does (prm/mlx4 §1.3); DPDK Rx
	 * always asks for it to reach the arm doorbell at +0x20.
	 */
	if (out->comp_mask & MLX4DV_CQ_MASK_UAR) {
		out->cq_uar = cq->uar;
		mask_out |= MLX4DV_CQ_MASK_UAR;
	}
	out->comp_mask = mask_out;
	return 0;
}

/* mlx4dv_get_srq(): the input comp_mask is ignored and the output is 0. */
static int
mlx4v_obj_fill_srq(struct mlx4v_srq *srq, struct mlx4dv_srq *out)
{
	out->comp_mask = 0;
	out->buf.buf = srq->buf;
	out->buf.length = srq->buf_len;
	out->wqe_shift = srq->wqe_shift;
	/*
	 * head/tail are a snapshot: from here on the DV consumer owns the free list (prm/mlx4
	 * §4.4).
	 */
	out->head = srq->head;
	out->tail = srq->tail;
	out->db = srq->db;
	return 0;
}

/* mlx4dv_get_rwq(): the input comp_mask is ignored and the output is 0. */
static int
mlx4v_obj_fill_rwq(struct mlx4v_wq *wq, struct mlx4dv_rwq *out)
{
	out->comp_mask = 0;
	out->buf.buf = wq->buf;
	out->buf.length = wq->buf_len;
	out->rdb = wq->rdb;
	out->rq.wqe_cnt = wq->rq.wqe_cnt;
	out->rq.wqe_shift = wq->rq.wqe_shift;
	/* 0 or 64: the RQ follows the dummy SQ WQE unless its stride is larger (prm/mlx4 §2.4). */
	out->rq.offset = wq->rq.offset;
	return 0;
}

/* WQE n of the SRQ ring; n must already be masked by the caller. */
static struct mlx4_wqe_srq_next_seg *
mlx4v_srq_wqe(struct mlx4v_srq *srq, int n)
{
	return (struct mlx4_wqe_srq_next_seg *)((uint8_t *)srq->buf +
						 ((size_t)n << srq->wqe_shift));
}

static int
mlx4v_srq_layout(struct mlx4v_srq *srq)
{
	struct mlx4_wqe_srq_next_seg *next;
	struct mlx4_wqe_data_seg *scatter;
	uint32_t size, buf_size, i;

	/*
	 * libmlx4 geometry (prm/mlx4 §3, SRQ row): one extra entry, because the list is full when
	 * head == tail, so one WQE is always parked at the tail.
	 */
	srq->max = mlx4v_align_queue_size(srq->max_wr_req + 1);
	size = sizeof(struct mlx4_wqe_srq_next_seg) +
		srq->max_gs * sizeof(struct mlx4_wqe_data_seg);
	/* At least 32 bytes: the 16-byte next segment plus one data segment (prm/mlx4 §4.4). */
	for (srq->wqe_shift = 5; (1u << srq->wqe_shift) < size; srq->wqe_shift++)
		;
	buf_size = srq->max << srq->wqe_shift;
	srq->buf_len = mlx4v_ring_len(srq->obj.ctx, buf_size);
	srq->buf = mlx4v_ring_alloc(srq->obj.ctx, buf_size);
	if (srq->buf == NULL)
		return -ENOMEM;
	/* Link every WQE into the free list; every scatter entry is a terminator. */
	for (i = 0; i < srq->max; i++) {
		next = mlx4v_srq_wqe(srq, i);
		next->next_wqe_index = rte_cpu_to_be_16((i + 1) & (srq->max - 1));
		for (scatter = (struct mlx4_wqe_data_seg *)(next + 1);
		     (uint8_t *)scatter < (uint8_t *)next + (1u << srq->wqe_shift);
		     ++scatter)
			/*
			 * lkey 0x100 is MLX4_INVALID_LKEY, the scatter terminator (prm/mlx4 §4.3),
			 * so an unused entry never names memory.
			 */
			scatter->lkey = rte_cpu_to_be_32(MLX4V_INVALID_LKEY);
	}
	srq->head = 0;
	srq->tail = srq->max - 1;
	srq->counter = 0;
	srq->db = mlx4v_db_alloc(srq->obj.ctx);
	if (srq->db == NULL)
		goto err_ring_free;
	/* SRQ doorbell record: the running count of posted WQEs, none yet (prm/mlx4 §4.4). */
	*srq->db = 0;
	return 0;

err_ring_free:
	mlx4v_ring_free(srq->buf);
	srq->buf = NULL;
	return -ENOMEM;
}

static void
mlx4v_srq_layout_free(struct mlx4v_srq *srq)
{
	mlx4v_db_free(srq->db);
	mlx4v_ring_free(srq->buf);
	srq->db = NULL;
	srq->buf = NULL;
}

/*
 * Return a consumed WQE to the tail of the free list (prm/mlx4 §4.4). Only mlx4v_cq_clean() calls
 * it, for CQEs of a dead QP; verbs lock held.
 */
static void
mlx4v_srq_free_wqe(struct mlx4v_srq *srq, int ind)
{
	struct mlx4_wqe_srq_next_seg *next;

	/* wqe_index comes from a CQE, i.e. from the device: never trust it as an array index. */
	if (ind < 0 || (uint32_t)ind >= srq->max)
		return;
	next = mlx4v_srq_wqe(srq, srq->tail);
	next->next_wqe_index = rte_cpu_to_be_16(ind);
	srq->tail = ind;
}

/*
 * Simulator only: reproduces libmlx4 mlx4_create_cq() geometry (prm/mlx4 §3, CQ row) so that a DV
 * consumer sees the same view as on hardware. Called with the verbs lock held; the rdma-core
 * backend gets all of this from libmlx4 instead.
 */
static int
mlx4v_cq_layout(struct mlx4v_cq *cq)
{
	struct mlx4v_ctx *ctx = cq->obj.ctx;

	/* libmlx4: nent = align_queue_size(cqe + 1); ibv_cq.cqe = nent - 1. */
	cq->cqe_cnt = mlx4v_align_queue_size(cq->cqe_req + 1);
	cq->buf_len = mlx4v_ring_len(cq->obj.ctx, (size_t)cq->cqe_cnt * cq->cqe_size);
	/*
	 * The ring stays zeroed as libmlx4 leaves it; the simulator's CQ create then marks every
	 * CQE hardware-owned (prm/mlx4 §6 decision), not this generic layer.
	 */
	cq->buf = mlx4v_ring_alloc(ctx, cq->buf_len);
	if (cq->buf == NULL)
		return -ENOMEM;
	cq->set_ci_db = mlx4v_db_alloc(ctx);
	if (cq->set_ci_db == NULL)
		goto err_ring_free;
	/* The 8-byte record: consumer index, then the arm word (prm/mlx4 §4.8). */
	cq->arm_db = cq->set_ci_db + 1;
	/*
	 * Doorbell record starts at zero, as in libmlx4: CI 0 and no arm request pending, so the
	 * device (or simulator) sees no stale arm command before the consumer arms (prm/mlx4
	 * §4.8).
	 */
	*cq->arm_db = 0;
	*cq->set_ci_db = 0;
	/*
	 * arm_sn starts at 1, not 0, exactly as libmlx4; consumers copy it into the arm doorbell's
	 * sn field (prm/mlx4 §2.2), so a different start would change the first arm word.
	 */
	cq->arm_sn = 1;
	cq->cons_index = 0;
	return 0;

err_ring_free:
	mlx4v_ring_free(cq->buf);
	cq->buf = NULL;
	return -ENOMEM;
}

/* Simulator only, verbs lock held; undoes mlx4v_cq_layout() after the backend destroyed the CQ. */
static void
mlx4v_cq_layout_free(struct mlx4v_cq *cq)
{
	mlx4v_db_free(cq->set_ci_db);
	mlx4v_ring_free(cq->buf);
	cq->set_ci_db = NULL;
	cq->arm_db = NULL;
	cq->buf = NULL;
}

/* The 32-byte CQE of entry n; with 64-byte CQEs it is the second half. */
static struct mlx4_cqe *
mlx4v_cq_entry(struct mlx4v_cq *cq, uint32_t n)
{
	/* cqe_cnt is a power of two, so masking wraps the running index (prm/mlx4 §4.6). */
	uint8_t *slot = (uint8_t *)cq->buf + (size_t)(n & (cq->cqe_cnt - 1)) * cq->cqe_size;

	return (struct mlx4_cqe *)(slot + (cq->cqe_size == 64 ? 32 : 0));
}

/* libmlx4 get_sw_cqe(): software owns entry n when its owner bit is the pass parity. */
static int
mlx4v_cq_sw_owned(struct mlx4v_cq *cq, uint32_t n)
{
	const struct mlx4_cqe *cqe = mlx4v_cq_entry(cq, n);

	/* Owner bit check (prm/mlx4 §4.6): owner == !!(n & cqe_cnt) means software's. */
	return !!(cqe->owner_sr_opcode & MLX4_CQE_OWNER_MASK) == !!(n & cq->cqe_cnt);
}

/*
 * libmlx4 __mlx4_cq_clean(): drop the CQEs of a QP/WQ that is reset or destroyed, give its SRQ WQEs
 * back and advance the CI. Simulator backend only (libmlx4 does it itself on rdma-core); called
 * with the verbs lock held but not the simulator lock, so the engine thread may be writing CQEs of
 * other QPs meanwhile, as hardware does under libmlx4: hence the owner walk and the read barrier.
 */
static void
mlx4v_cq_clean(struct mlx4v_cq *cq, uint32_t qpn, struct mlx4v_srq *srq)
{
	struct mlx4_cqe *cqe, *dest;
	uint32_t prod_index;
	uint8_t owner_bit;
	int nfreed = 0;

	/* A DV consumer owns the consumer index: leave the ring alone (prm/mlx4 §1.4). */
	if (cq == NULL || (cq->flags & MLX4V_CQ_F_DV_OWNED))
		return;
	/*
	 * Find the producer end by walking software-owned entries from cons_index. A full ring of
	 * software-owned entries must not be walked past: libmlx4 stops one short of a whole lap so
	 * the backward sweep never reads an entry twice.
	 */
	for (prod_index = cq->cons_index; mlx4v_cq_sw_owned(cq, prod_index); ++prod_index)
		if (prod_index == cq->cons_index + cq->cqe_cnt - 1)
			break;
	rte_io_rmb(); /* read CQE bodies only after their ownership was seen */
	/* Sweep backwards, copying older entries over the removed ones. */
	while ((int)--prod_index - (int)cq->cons_index >= 0) {
		cqe = mlx4v_cq_entry(cq, prod_index);
		if ((rte_be_to_cpu_32(cqe->vlan_my_qpn) & MLX4_CQE_QPN_MASK) == qpn) {
			/*
			 * Receive CQEs of an SRQ QP name the SRQ WQE they consumed; libmlx4 puts it
			 * back on the free list (prm/mlx4 §4.4) or the SRQ would leak entries.
			 */
			if (srq != NULL && !(cqe->owner_sr_opcode & MLX4_CQE_IS_SEND_MASK))
				mlx4v_srq_free_wqe(srq, rte_be_to_cpu_16(cqe->wqe_index));
			++nfreed;
		} else if (nfreed) {
			dest = mlx4v_cq_entry(cq, prod_index + nfreed);
			/* The destination keeps its own owner bit: it is in its own pass. */
			owner_bit = dest->owner_sr_opcode & MLX4_CQE_OWNER_MASK;
			memcpy(dest, cqe, sizeof(*cqe));
			/*
			 * Owner bit write: keep the destination's parity. Copying the source's bit
			 * would make the slot read as the wrong pass and either hide or resurrect a
			 * completion (prm/mlx4 §4.6).
			 */
			dest->owner_sr_opcode = owner_bit |
				(dest->owner_sr_opcode & ~MLX4_CQE_OWNER_MASK);
		}
	}
	if (nfreed) {
		cq->cons_index += nfreed;
		/* The moved entries must be visible before the device sees the new CI. */
		rte_io_wmb();
		/*
		 * CQ doorbell record: only 24 bits of CI are meaningful (prm/mlx4 §4.6, §4.8); the
		 * store tells the producer these slots are free again.
		 */
		*cq->set_ci_db = rte_cpu_to_be_32(cq->cons_index & 0xffffff);
	}
}

/* Segment sizes from mlx4dv.h. */
#define MLX4V_CTRL_SEG_SIZE 16u
#define MLX4V_DATA_SEG_SIZE 16u
#define MLX4V_INLINE_SEG_SIZE 4u
#define MLX4V_BIND_SEG_SIZE 32u
#define MLX4V_INLINE_ALIGN 64u

/*
 * libmlx4 mlx4_qp_init_sq_ownership() (prm/mlx4 §3, SQ ownership init). Runs on RESET->INIT and
 * for a WQ's dummy SQ at create, before the device may look at the ring, so plain stores without
 * barriers are enough.
 */
static void
mlx4v_sq_init_ownership(void *sq, uint32_t wqe_cnt, int wqe_shift)
{
	struct mlx4_wqe_ctrl_seg *ctrl;
	uint32_t *wqe;
	uint32_t i;
	int ds, j;

	for (i = 0; i < wqe_cnt; i++) {
		wqe = (uint32_t *)((uint8_t *)sq + ((size_t)i << wqe_shift));
		ctrl = (struct mlx4_wqe_ctrl_seg *)wqe;
		/* Owner 1 is "not valid" on the first pass (prm/mlx4 §4.2). */
		ctrl->owner_opcode = rte_cpu_to_be_32(1u << 31);
		/*
		 * DS count of a whole stride, in 16-byte units (prm/mlx4 §4.2): a prefetching
		 * device must never see a zero size in a WQE it has not been given yet.
		 */
		ctrl->fence_size = 1 << (wqe_shift - 4);
		/* Stamp every 64-byte chunk but the first so a prefetch sees it invalid. */
		ds = (ctrl->fence_size & 0x3f) << 2;
		for (j = 16; j < ds; j += 16)
			/*
			 * libmlx4's init stamp is all-ones; DPDK later stamps 0x7fffffff | owner <<
			 * 31 instead, and the simulator accepts both (prm/mlx4 §4.2, Stamping).
			 */
			wqe[j] = 0xffffffff;
	}
}

/* libmlx4 num_inline_segs() for a non-UD QP. */
static uint32_t
mlx4v_qp_num_inline_segs(uint32_t data)
{
	/*
	 * Inline segments must not cross a 64-byte boundary (prm/mlx4 §4.2), so each chunk pays a
	 * 4-byte header; the +16 is the raddr segment libmlx4 assumes ahead of the data (non-UD).
	 */
	data += (MLX4V_CTRL_SEG_SIZE + 16) % MLX4V_INLINE_ALIGN;
	return (data + MLX4V_INLINE_ALIGN - MLX4V_INLINE_SEG_SIZE - 1) /
		(MLX4V_INLINE_ALIGN - MLX4V_INLINE_SEG_SIZE);
}

/* libmlx4 mlx4_calc_sq_wqe_size() for IBV_QPT_RAW_PACKET. */
static int
mlx4v_qp_sq_wqe_shift(uint32_t max_inline, uint32_t max_send_sge)
{
	uint32_t max_sq_sge, size;
	int shift;

	max_sq_sge = RTE_ALIGN_CEIL(max_inline + mlx4v_qp_num_inline_segs(max_inline) *
				    MLX4V_INLINE_SEG_SIZE, MLX4V_DATA_SEG_SIZE) /
		MLX4V_DATA_SEG_SIZE;
	if (max_sq_sge < max_send_sge)
		max_sq_sge = max_send_sge;
	size = max_sq_sge * MLX4V_DATA_SEG_SIZE;
	/*
	 * The stride must also hold a bind segment (prm/mlx4 §2.1, sq.wqe_shift), even though a
	 * raw packet QP never posts one: libmlx4 sizes it in, and the view must match.
	 */
	if (size < MLX4V_BIND_SEG_SIZE)
		size = MLX4V_BIND_SEG_SIZE;
	size += MLX4V_CTRL_SEG_SIZE;
	/*
	 * At least one 64-byte TXBB (prm/mlx4 §3, QP SQ): the device fetches whole basic blocks.
	 */
	for (shift = 6; (1u << shift) < size; shift++)
		;
	return shift;
}

static int
mlx4v_qp_layout(struct mlx4v_qp *qp)
{
	struct rte_pmd_mlx4v_qp_attr *attr = &qp->attr;
	uint32_t wqe_size, buf_size;

	qp->sq.wqe_shift = mlx4v_qp_sq_wqe_shift(attr->max_inline_data, attr->max_send_sge);
	/* 2 KiB plus one WQE of headroom for the hardware prefetcher (libmlx4). */
	qp->sq_spare_wqes = (2048 >> qp->sq.wqe_shift) + 1;
	/*
	 * Spare WQEs are counted into the ring but not into max_send_wr (prm/mlx4 §3): the
	 * producer may never get within 2 KiB of the consumer.
	 */
	qp->sq.wqe_cnt = mlx4v_align_queue_size(attr->max_send_wr + qp->sq_spare_wqes);
	/*
	 * An SRQ QP has no RQ of its own: rq.wqe_cnt 0 and no RQ doorbell record, so the view's rdb
	 * is NULL as in libmlx4 (prm/mlx4 §2.1).
	 */
	if (qp->srq != NULL) {
		attr->max_recv_wr = 0;
		attr->max_recv_sge = 0;
		qp->rq.wqe_cnt = 0;
	} else {
		qp->rq.wqe_cnt = mlx4v_align_queue_size(attr->max_recv_wr);
		/* libmlx4 gives a non-SRQ QP at least one SGE and one WR (prm/mlx4 §3, QP RQ). */
		if (attr->max_recv_sge < 1)
			attr->max_recv_sge = 1;
		if (attr->max_recv_wr < 1)
			attr->max_recv_wr = 1;
	}
	/* libmlx4 mlx4_alloc_qp_buf(). */
	qp->rq_max_gs = attr->max_recv_sge;
	wqe_size = qp->rq_max_gs * MLX4V_DATA_SEG_SIZE;
	/*
	 * rq.wqe_shift = max(4, ceil_log2(sge * 16)), exactly: DPDK Rx treats the RQ as a flat
	 * array of 16-byte data segments and relies on it (prm/mlx4 §3).
	 */
	for (qp->rq.wqe_shift = 4; (1u << qp->rq.wqe_shift) < wqe_size; qp->rq.wqe_shift++)
		;
	buf_size = mlx4v_wq_geom_place(&qp->rq, &qp->sq);
	qp->buf_len = mlx4v_ring_len(qp->obj.ctx, buf_size);
	qp->buf = mlx4v_ring_alloc(qp->obj.ctx, buf_size);
	if (qp->buf == NULL)
		return -ENOMEM;
	if (attr->max_recv_sge) {
		qp->rdb = mlx4v_db_alloc(qp->obj.ctx);
		if (qp->rdb == NULL)
			goto err_ring_free;
		/* RQ doorbell record: no WQE posted yet (prm/mlx4 §4.3). */
		*qp->rdb = 0;
	}
	/*
	 * What the kernel returns (mlx4_ib set_rq_size()): the rounded RQ size, and the SGE count
	 * rounded up to a power of two, which is what one stride holds (prm/mlx4 §3, QP RQ).
	 */
	attr->max_recv_wr = qp->rq.wqe_cnt;
	if (qp->srq == NULL)
		attr->max_recv_sge = 1u << (qp->rq.wqe_shift - 4);
	/* libmlx4 mlx4_set_sq_sizes() for a raw-packet QP. */
	wqe_size = (1u << qp->sq.wqe_shift) - MLX4V_CTRL_SEG_SIZE;
	qp->sq_max_gs = wqe_size / MLX4V_DATA_SEG_SIZE;
	qp->sq_max_post = qp->sq.wqe_cnt - qp->sq_spare_wqes;
	/* One 4-byte inline header per 64-byte chunk of the stride (prm/mlx4 §4.2). */
	qp->max_inline_data = wqe_size - MLX4V_INLINE_SEG_SIZE *
		(RTE_ALIGN_CEIL(wqe_size, MLX4V_INLINE_ALIGN) / MLX4V_INLINE_ALIGN);
	attr->max_send_sge = qp->sq_max_gs;
	attr->max_send_wr = qp->sq_max_post;
	attr->max_inline_data = qp->max_inline_data;
	/* libmlx4 reports the context UAR at offset 0 of the verbs fd (prm/mlx4 §2.1). */
	qp->uar_mmap_offset = 0;
	return 0;

err_ring_free:
	mlx4v_ring_free(qp->buf);
	qp->buf = NULL;
	return -ENOMEM;
}

static void
mlx4v_qp_layout_free(struct mlx4v_qp *qp)
{
	if (qp->rdb != NULL)
		mlx4v_db_free(qp->rdb);
	mlx4v_ring_free(qp->buf);
	qp->rdb = NULL;
	qp->buf = NULL;
}

/*
 * libmlx4 geometry of a receive WQ (prm/mlx4 §3, WQ row; prm/mlx4 §4.5). Simulator
 * backend only, verbs lock held.
 */
static int
mlx4v_wq_layout(struct mlx4v_wq *wq)
{
	struct rte_pmd_mlx4v_wq_attr *attr = &wq->attr;
	uint32_t wqe_size, buf_size;

	/* Zero is rounded up as libmlx4 does for a QP RQ, so the view never has an empty stride. */
	if (attr->max_sge < 1)
		attr->max_sge = 1;
	if (attr->max_wr < 1)
		attr->max_wr = 1;
	/* "Kernel driver requires a dummy SQ with minimum properties" (libmlx4). */
	wq->sq.wqe_shift = 6;
	wq->sq.wqe_cnt = 1;
	wq->rq.wqe_cnt = mlx4v_align_queue_size(attr->max_wr);
	wqe_size = attr->max_sge * sizeof(struct mlx4_wqe_data_seg);
	/*
	 * Exactly 4 + log2(sges): DPDK Rx indexes the RQ as a flat data-segment array (prm/mlx4
	 * §3).
	 */
	for (wq->rq.wqe_shift = 4; (1u << wq->rq.wqe_shift) < wqe_size; wq->rq.wqe_shift++)
		;
	buf_size = mlx4v_wq_geom_place(&wq->rq, &wq->sq);
	wq->buf_len = mlx4v_ring_len(wq->obj.ctx, buf_size);
	wq->buf = mlx4v_ring_alloc(wq->obj.ctx, buf_size);
	if (wq->buf == NULL)
		return -ENOMEM;
	/*
	 * The dummy SQ is never posted to, but libmlx4 initialises its ownership at create so the
	 * device sees an invalid WQE there (prm/mlx4 §3).
	 */
	mlx4v_sq_init_ownership((uint8_t *)wq->buf + wq->sq.offset, wq->sq.wqe_cnt,
				wq->sq.wqe_shift);
	wq->rdb = mlx4v_db_alloc(wq->obj.ctx);
	if (wq->rdb == NULL)
		goto err_ring_free;
	/* RQ doorbell record: nothing posted (prm/mlx4 §4.3, §4.5). */
	*wq->rdb = 0;
	/* What the kernel returns: the rounded RQ size and SGE count (set_rq_size()). */
	attr->max_wr = wq->rq.wqe_cnt;
	attr->max_sge = 1u << (wq->rq.wqe_shift - 4);
	return 0;

err_ring_free:
	mlx4v_ring_free(wq->buf);
	wq->buf = NULL;
	return -ENOMEM;
}

static void
mlx4v_wq_layout_free(struct mlx4v_wq *wq)
{
	mlx4v_db_free(wq->rdb);
	mlx4v_ring_free(wq->buf);
	wq->rdb = NULL;
	wq->buf = NULL;
}

/*
 * libmlx4 after a QP reaches RESET, or is destroyed: clean both CQs (with rdma-core libmlx4
 * does it inside ibv_modify_qp/ibv_destroy_qp). A CQ already handed out as a DV view is
 * skipped inside mlx4v_cq_clean() (prm/mlx4 §1.4).
 */
static void
mlx4v_qp_clean_cqs(struct mlx4v_qp *qp)
{
	mlx4v_cq_clean(qp->recv_cq, qp->qpn, qp->srq);
	if (qp->send_cq != qp->recv_cq)
		mlx4v_cq_clean(qp->send_cq, qp->qpn, NULL);
}

/*
 * 0 means the device's native size: the simulated ConnectX-3 reports
 * MLX4_USER_DEV_CAP_LARGE_CQE, as the kernel's default (64-byte CQEs) gives (prm/mlx4 §2.2).
 */
static int
mlx4v_prov_sw_cq_layout(struct mlx4v_cq *cq)
{
	if (cq->cqe_size == 0)
		cq->cqe_size = cq->obj.ctx->caps.cqe_size;
	return mlx4v_cq_layout(cq);
}

/*
 * Stored pre-swapped: the send doorbell is written as-is, without a byte swap (prm/mlx4
 * §4.2).
 */
static void
mlx4v_prov_sw_qp_created(struct mlx4v_qp *qp)
{
	qp->doorbell_qpn = rte_cpu_to_be_32(qp->qpn << 8);
}

/* libmlx4 initialises SQ ownership on RESET->INIT, before the kernel command. */
static void
mlx4v_prov_sw_qp_modify_pre(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state)
{
	/* An RSS QP has no rings. */
	if (qp->ind == NULL && qp->state == RTE_PMD_MLX4V_QPS_RESET &&
	    state == RTE_PMD_MLX4V_QPS_INIT)
		mlx4v_sq_init_ownership((uint8_t *)qp->buf + qp->sq.offset, qp->sq.wqe_cnt,
					qp->sq.wqe_shift);
}

static void
mlx4v_prov_sw_qp_modify_post(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state)
{
	if (qp->ind != NULL || state != RTE_PMD_MLX4V_QPS_RESET)
		return;
	mlx4v_qp_clean_cqs(qp);
	/* The RQ producer count restarts with the indices. */
	if (qp->rq.wqe_cnt)
		/*
		 * RQ doorbell record write: the device restarts its consumer count at 0 on
		 * RESET, so software's 16-bit producer count must restart too (prm/mlx4 §4.3).
		 */
		*qp->rdb = 0;
}

static void
mlx4v_prov_sw_qp_destroyed(struct mlx4v_qp *qp)
{
	mlx4v_qp_clean_cqs(qp);
	mlx4v_qp_layout_free(qp);
}

/* libmlx4 mlx4_modify_wq(): on RESET clean the CQ and restart the count. */
static void
mlx4v_prov_sw_wq_modify_post(struct mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state)
{
	if (state != RTE_PMD_MLX4V_WQS_RESET)
		return;
	/*
	 * Skipped inside when the CQ is DV-owned, which is the normal case for DPDK Rx
	 * (prm/mlx4 §1.4).
	 */
	mlx4v_cq_clean(wq->cq, wq->wqn, NULL);
	/*
	 * RQ doorbell record write: the device consumer count restarts at RESET, so must the
	 * producer count (prm/mlx4 §4.3).
	 */
	*wq->rdb = 0;
}

static void
mlx4v_prov_sw_wq_destroyed(struct mlx4v_wq *wq)
{
	mlx4v_cq_clean(wq->cq, wq->wqn, NULL);
	mlx4v_wq_layout_free(wq);
}

const struct mlx4v_prov_ops mlx4v_sw_prov = {
	.name = "mlx4v_sw",
	.cq_layout = mlx4v_prov_sw_cq_layout,
	.qp_layout = mlx4v_qp_layout,
	.srq_layout = mlx4v_srq_layout,
	.wq_layout = mlx4v_wq_layout,
	.cq_layout_free = mlx4v_cq_layout_free,
	.qp_layout_free = mlx4v_qp_layout_free,
	.srq_layout_free = mlx4v_srq_layout_free,
	.wq_layout_free = mlx4v_wq_layout_free,
	.cq_destroyed = mlx4v_cq_layout_free,
	.qp_destroyed = mlx4v_prov_sw_qp_destroyed,
	.srq_destroyed = mlx4v_srq_layout_free,
	.wq_destroyed = mlx4v_prov_sw_wq_destroyed,
	.qp_created = mlx4v_prov_sw_qp_created,
	.qp_modify_pre = mlx4v_prov_sw_qp_modify_pre,
	.qp_modify_post = mlx4v_prov_sw_qp_modify_post,
	.wq_modify_post = mlx4v_prov_sw_wq_modify_post,
	.qp_view = mlx4v_obj_fill_qp,
	.cq_view = mlx4v_obj_fill_cq,
	.srq_view = mlx4v_obj_fill_srq,
	.rwq_view = mlx4v_obj_fill_rwq,
};
