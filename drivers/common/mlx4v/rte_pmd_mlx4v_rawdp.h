/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The raw mlx4 data path over the mlx4dv views of rte_pmd_mlx4v_init_obj(), and nothing
 * else: send WQEs with owner bits and the send doorbell, receive WQEs and the doorbell
 * record of a QP's RQ or an RWQ, SRQ WQEs on the free list, CQ polling with the owner
 * rule, set_ci_db and arming (prm/mlx4 §4). Static inline functions on the views and
 * the producer/consumer indexes an application keeps; no call into the library.
 *
 * Installed beside rte_pmd_mlx4v.h, as the application side of the views it documents:
 * examples/raw_views, app/mlx4v-bench (which measures exactly this code) and the
 * "mlx4v ..." testpmd commands use it as any application can.
 */

#ifndef _RTE_PMD_MLX4V_RAWDP_H_
#define _RTE_PMD_MLX4V_RAWDP_H_

#include <stdint.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_io.h>

#include "rte_pmd_mlx4v.h"

/** One packet buffer per WQE slot, of this size. */
#define RTE_PMD_MLX4V_RAWDP_BUF_SIZE 2048u

/** A CQ from its view: the consumer index and the arm sequence number are ours. */
struct rte_pmd_mlx4v_rawdp_cq {
	struct mlx4dv_cq v;
	uint32_t ci;            /**< CQEs consumed, running */
	uint32_t sn;            /**< arm sequence number, + 1 per completion event taken */
};

/** A send queue from its view, with the producer state the application keeps. */
struct rte_pmd_mlx4v_rawdp_sq {
	struct mlx4dv_qp v;
	uint8_t *bufs;          /**< wqe_cnt packet buffers, one per WQE slot */
	uint32_t lkey;          /**< of bufs */
	uint32_t head;          /**< WQEs posted, running */
	uint32_t done;          /**< WQEs known complete, running */
	uint32_t max_post;      /**< in flight at most (libmlx4 keeps spare WQEs) */
};

/** A receive ring (a QP's RQ or an RWQ) with one buffer per WQE slot. */
struct rte_pmd_mlx4v_rawdp_rq {
	__be32 *rdb;            /**< doorbell record */
	uint8_t *wqes;          /**< the ring */
	uint32_t wqe_cnt;
	int wqe_shift;
	uint8_t *bufs;          /**< wqe_cnt packet buffers, one per WQE slot */
	uint32_t lkey;          /**< of bufs */
	uint32_t head;          /**< WQEs posted, running; the record's low 16 bits */
	uint32_t tail;          /**< WQEs completed, running (counted by the CQ consumer) */
};

/** A shared receive queue from its view: the free list is ours after init_obj. */
struct rte_pmd_mlx4v_rawdp_srq {
	struct mlx4dv_srq v;
	uint8_t *bufs;          /**< one packet buffer per WQE, by WQE index */
	uint32_t lkey;          /**< of bufs */
	int head;               /**< free-list head: the next WQE to post */
	int tail;               /**< free-list tail */
	uint32_t counter;       /**< WQEs posted, running: the doorbell record value */
	uint32_t done;          /**< WQEs given back by completions */
};

/* ---- CQ ---- */

/** @return the 32-byte CQE at running index n (the second half of a 64-byte slot). */
static inline struct mlx4_cqe *
rte_pmd_mlx4v_rawdp_cqe(const struct rte_pmd_mlx4v_rawdp_cq *cq, uint32_t n)
{
	unsigned int cqe_64 = (cq->v.cqe_size & 64) ? 1 : 0;

	return (struct mlx4_cqe *)((uint8_t *)cq->v.buf.buf +
				   ((size_t)(n & (cq->v.cqe_cnt - 1)) << (5 + cqe_64)) +
				   (cqe_64 << 5));
}

/** @return the CQE at the consumer index when software owns it, else NULL. */
static inline struct mlx4_cqe *
rte_pmd_mlx4v_rawdp_cq_next(const struct rte_pmd_mlx4v_rawdp_cq *cq)
{
	struct mlx4_cqe *cqe = rte_pmd_mlx4v_rawdp_cqe(cq, cq->ci);

	/* Software owns it when the owner bit equals the pass parity of the index. */
	if (!!(cqe->owner_sr_opcode & MLX4_CQE_OWNER_MASK) != !!(cq->ci & cq->v.cqe_cnt))
		return NULL;
	/* The body is read only after ownership was seen. */
	rte_rmb();
	return cqe;
}

/** Publish the consumer index: the slots up to it may be reused by the device. */
static inline void
rte_pmd_mlx4v_rawdp_cq_update_ci(const struct rte_pmd_mlx4v_rawdp_cq *cq)
{
	/* The CQEs were fully read before their slots are given back. */
	rte_io_wmb();
	*cq->v.set_ci_db = rte_cpu_to_be_32(cq->ci & 0xffffff);
}

/**
 * Request an event for the next completion (prm/mlx4 §4.8: record, barrier, 64-bit
 * doorbell; mlx4 packing, not mlx5's). The view must have cq_uar (MLX4DV_CQ_MASK_UAR).
 */
static inline void
rte_pmd_mlx4v_rawdp_cq_arm(const struct rte_pmd_mlx4v_rawdp_cq *cq)
{
	uint32_t sn = cq->sn & 3, ci = cq->ci & 0xffffff;
	uint32_t cmd = MLX4_CQ_DB_REQ_NOT;
	uint64_t db;

	*cq->v.arm_db = rte_cpu_to_be_32(sn << 28 | cmd | ci);
	/* The device matches the doorbell against this record: record first. */
	rte_wmb();
	db = ((uint64_t)(sn << 28 | cmd | cq->v.cqn) << 32) | ci;
	rte_write64(rte_cpu_to_be_64(db), (uint8_t *)cq->v.cq_uar + MLX4_CQ_DOORBELL);
}

/* ---- receive rings ---- */

/** Set rq up on the ring of a view (rdb, buf + offset); bufs and lkey are the caller's. */
static inline void
rte_pmd_mlx4v_rawdp_rq_init(struct rte_pmd_mlx4v_rawdp_rq *rq, __be32 *rdb, void *buf, int offset,
			    uint32_t wqe_cnt, int wqe_shift)
{
	rq->rdb = rdb;
	rq->wqes = (uint8_t *)buf + offset;
	rq->wqe_cnt = wqe_cnt;
	rq->wqe_shift = wqe_shift;
	rq->head = 0;
	rq->tail = 0;
}

/** The receive ring of an RWQ view. */
static inline void
rte_pmd_mlx4v_rawdp_rq_init_rwq(struct rte_pmd_mlx4v_rawdp_rq *rq, const struct mlx4dv_rwq *v)
{
	rte_pmd_mlx4v_rawdp_rq_init(rq, v->rdb, v->buf.buf, v->rq.offset, v->rq.wqe_cnt,
				    v->rq.wqe_shift);
}

/** The receive ring of a QP view. */
static inline void
rte_pmd_mlx4v_rawdp_rq_init_qp(struct rte_pmd_mlx4v_rawdp_rq *rq, const struct mlx4dv_qp *v)
{
	rte_pmd_mlx4v_rawdp_rq_init(rq, v->rdb, v->buf.buf, v->rq.offset, v->rq.wqe_cnt,
				    v->rq.wqe_shift);
}

/** @return the packet buffer of receive WQE wqe_index (as a CQE names it). */
static inline uint8_t *
rte_pmd_mlx4v_rawdp_rq_buf(const struct rte_pmd_mlx4v_rawdp_rq *rq, uint32_t wqe_index)
{
	return rq->bufs + (size_t)(wqe_index & (rq->wqe_cnt - 1)) * RTE_PMD_MLX4V_RAWDP_BUF_SIZE;
}

/**
 * Post up to n receive WQEs of one data segment each, as many as the ring has room for
 * (head - tail < wqe_cnt), then publish the producer count once.
 * @return the number posted.
 */
static inline uint32_t
rte_pmd_mlx4v_rawdp_rq_post(struct rte_pmd_mlx4v_rawdp_rq *rq, uint32_t n)
{
	uint32_t nsegs = (1u << rq->wqe_shift) / sizeof(struct mlx4_wqe_data_seg);
	uint32_t head = rq->head, used = head - rq->tail, mask = rq->wqe_cnt - 1;
	uint8_t *wqes = rq->wqes, *bufs = rq->bufs;
	struct mlx4_wqe_data_seg *seg;
	int shift = rq->wqe_shift;
	uint32_t lkey = rq->lkey;
	uint32_t i, slot;

	/* Locals, not rq->: the WQE stores below could alias rq for the compiler. */
	if (used >= rq->wqe_cnt)
		return 0;
	n = RTE_MIN(n, rq->wqe_cnt - used);
	for (i = 0; i < n; i++, head++) {
		slot = head & mask;
		seg = (struct mlx4_wqe_data_seg *)(wqes + ((size_t)slot << shift));
		mlx4dv_set_data_seg(
				seg, RTE_PMD_MLX4V_RAWDP_BUF_SIZE, lkey,
				(uintptr_t)(bufs + (size_t)slot * RTE_PMD_MLX4V_RAWDP_BUF_SIZE));
		/* A scatter list shorter than the WQE ends with an invalid-lkey entry. */
		if (nsegs > 1)
			mlx4dv_set_data_seg(seg + 1, 0, MLX4_INVALID_LKEY, 0);
	}
	rq->head = head;
	if (n == 0)
		return 0;
	/*
	 * The device reads WQEs up to the producer count in the doorbell record: the WQEs
	 * must be visible first (prm/mlx4 §4.3). A 16-bit running count, not an index.
	 */
	rte_io_wmb();
	*rq->rdb = rte_cpu_to_be_32(head & 0xffff);
	return n;
}

/* ---- shared receive queues ---- */

/** Take over the free list and the posted count from the view (after init_obj). */
static inline void
rte_pmd_mlx4v_rawdp_srq_init(struct rte_pmd_mlx4v_rawdp_srq *s)
{
	s->head = s->v.head;
	s->tail = s->v.tail;
	s->counter = rte_be_to_cpu_32(*s->v.db);
	s->done = 0;
}

/** @return the packet buffer of SRQ WQE wqe_index. */
static inline uint8_t *
rte_pmd_mlx4v_rawdp_srq_buf(const struct rte_pmd_mlx4v_rawdp_srq *s, uint32_t wqe_index)
{
	return s->bufs + (size_t)wqe_index * RTE_PMD_MLX4V_RAWDP_BUF_SIZE;
}

/** Post up to n WQEs by following the free list. @return the number posted. */
static inline uint32_t
rte_pmd_mlx4v_rawdp_srq_post(struct rte_pmd_mlx4v_rawdp_srq *s, uint32_t n)
{
	uint32_t i, nsegs = ((1u << s->v.wqe_shift) - sizeof(struct mlx4_wqe_srq_next_seg)) /
			    sizeof(struct mlx4_wqe_data_seg);
	struct mlx4_wqe_srq_next_seg *next;
	struct mlx4_wqe_data_seg *seg;
	uint8_t *wqe;

	/* head == tail: only the tail WQE is left, which links the list (prm/mlx4 §4.4). */
	for (i = 0; i < n && s->head != s->tail; i++) {
		wqe = (uint8_t *)s->v.buf.buf + ((size_t)s->head << s->v.wqe_shift);
		next = (struct mlx4_wqe_srq_next_seg *)wqe;
		seg = (struct mlx4_wqe_data_seg *)(next + 1);
		mlx4dv_set_data_seg(seg, RTE_PMD_MLX4V_RAWDP_BUF_SIZE, s->lkey,
				    (uintptr_t)rte_pmd_mlx4v_rawdp_srq_buf(s, s->head));
		if (nsegs > 1)
			mlx4dv_set_data_seg(seg + 1, 0, MLX4_INVALID_LKEY, 0);
		s->head = rte_be_to_cpu_16(next->next_wqe_index);
		s->counter++;
	}
	if (i == 0)
		return 0;
	/* WQEs before the doorbell record, which carries the running posted count. */
	rte_io_wmb();
	*s->v.db = rte_cpu_to_be_32(s->counter);
	return i;
}

/** Give the WQE a CQE named back to the free list, at its tail. */
static inline void
rte_pmd_mlx4v_rawdp_srq_free(struct rte_pmd_mlx4v_rawdp_srq *s, uint16_t wqe_index)
{
	struct mlx4_wqe_srq_next_seg *tail;

	tail = (struct mlx4_wqe_srq_next_seg *)((uint8_t *)s->v.buf.buf +
						((size_t)s->tail << s->v.wqe_shift));
	tail->next_wqe_index = rte_cpu_to_be_16(wqe_index);
	s->tail = wqe_index;
	s->done++;
}

/* ---- send queue ---- */

/** @return the packet buffer of the i-th WQE from the SQ head. */
static inline uint8_t *
rte_pmd_mlx4v_rawdp_sq_frame(const struct rte_pmd_mlx4v_rawdp_sq *sq, uint32_t i)
{
	return sq->bufs +
	       (size_t)((sq->head + i) & (sq->v.sq.wqe_cnt - 1)) * RTE_PMD_MLX4V_RAWDP_BUF_SIZE;
}

/**
 * Write one SEND WQE (control segment and one data segment) at the SQ head for the
 * len-byte frame already in its slot's buffer (rte_pmd_mlx4v_rawdp_sq_frame(sq, 0)), with lkey
 * and the control flags (MLX4_WQE_CTRL_*). No doorbell.
 */
static inline void
rte_pmd_mlx4v_rawdp_sq_write(struct rte_pmd_mlx4v_rawdp_sq *sq, uint32_t len, uint32_t lkey,
			     uint32_t flags)
{
	uint32_t slot = sq->head & (sq->v.sq.wqe_cnt - 1);
	const uint8_t *frame = sq->bufs + (size_t)slot * RTE_PMD_MLX4V_RAWDP_BUF_SIZE;
	struct mlx4_wqe_ctrl_seg *ctrl;
	struct mlx4_wqe_data_seg *dseg;
	uint32_t owner;

	ctrl = (struct mlx4_wqe_ctrl_seg *)((uint8_t *)sq->v.buf.buf + sq->v.sq.offset +
					    ((size_t)slot << sq->v.sq.wqe_shift));
	dseg = (struct mlx4_wqe_data_seg *)(ctrl + 1);
	mlx4dv_set_data_seg(dseg, len, lkey, (uintptr_t)frame);
	/* WQE size in 16-byte units, control segment included. */
	ctrl->fence_size = (sizeof(*ctrl) + sizeof(*dseg)) / 16;
	ctrl->srcrb_flags = rte_cpu_to_be_32(flags);
	/*
	 * The frame's destination MAC on every raw Ethernet send, as libmlx4 does: bytes 0-1 over
	 * the upper half of srcrb_flags, 2-5 in imm. The device loops a frame back by it to every
	 * rule of the port for that MAC, a group frame to the sending port's own rules too
	 * (prm/mlx4 §4.2); net_mlx4v writes it on VFs only, as DPDK's mlx4 does.
	 */
	memcpy(&ctrl->srcrb_flags16[0], frame, 2);
	memcpy(&ctrl->imm, frame + 2, 4);
	/* The owner bit is valid for the device when it equals the pass parity of the head. */
	owner = (sq->head & sq->v.sq.wqe_cnt) ? (1u << 31) : 0;
	/*
	 * The device may execute the WQE as soon as the owner bit is right: everything else
	 * must be visible before the owner word is stored (prm/mlx4 §4.2).
	 */
	rte_io_wmb();
	ctrl->owner_opcode = rte_cpu_to_be_32(MLX4_OPCODE_SEND | owner);
	sq->head++;
}

/** Ring the send doorbell for every WQE written so far. */
static inline void
rte_pmd_mlx4v_rawdp_sq_doorbell(const struct rte_pmd_mlx4v_rawdp_sq *sq)
{
	/*
	 * Every owner word before the doorbell, which is the QP's doorbell_qpn, already
	 * big-endian, stored without a swap (prm/mlx4 §4.2).
	 */
	rte_wmb();
	rte_write32(sq->v.doorbell_qpn, sq->v.sdb);
}

/**
 * Write n SEND WQEs for the len-byte frames already in their slots' buffers
 * (rte_pmd_mlx4v_rawdp_sq_frame()), only the last one signalled, and ring the doorbell once.
 */
static inline void
rte_pmd_mlx4v_rawdp_sq_send(struct rte_pmd_mlx4v_rawdp_sq *sq, uint32_t n, uint32_t len)
{
	uint32_t i;

	/*
	 * SOLICIT means "no ICRC" on raw Ethernet; only the last WQE of the burst asks for
	 * a CQE, which then stands for the whole burst.
	 */
	for (i = 0; i < n; i++)
		rte_pmd_mlx4v_rawdp_sq_write(
				sq, len, sq->lkey,
				MLX4_WQE_CTRL_SOLICIT | (i == n - 1 ? MLX4_WQE_CTRL_CQ_UPDATE : 0));
	rte_pmd_mlx4v_rawdp_sq_doorbell(sq);
}

#endif /* _RTE_PMD_MLX4V_RAWDP_H_ */
