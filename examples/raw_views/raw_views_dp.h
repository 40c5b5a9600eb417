/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The raw_views data path: send WQEs and the send doorbell, receive WQEs and the RQ
 * doorbell record, CQ polling with the owner rule, set_ci_db and arming, through the
 * mlx4dv views of rte_pmd_mlx4v_init_obj() only. The example runs it; app/mlx4v-bench
 * measures exactly this code.
 */

#ifndef _RAW_VIEWS_DP_H_
#define _RAW_VIEWS_DP_H_

#include <stdint.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <rte_io.h>

#include <rte_pmd_mlx4v.h>

#define RV_PKT_MAX 2048u       /* one buffer per WQE */

/* A send queue as the views describe it, plus the producer state we keep. */
struct rv_sq {
	struct mlx4dv_qp v;
	uint8_t *bufs;          /* wqe_cnt packet buffers, one per WQE slot */
	uint32_t lkey;
	uint32_t head;          /* WQEs posted, running */
	uint32_t done;          /* WQEs known complete, running */
	uint32_t max_post;      /* in flight at most (libmlx4 keeps spare WQEs) */
};

/* A receive queue (RWQ) from its view, with one buffer per WQE slot. */
struct rv_rq {
	struct mlx4dv_rwq v;
	uint8_t *wqes;
	uint8_t *bufs;
	uint32_t lkey;
	uint32_t head;          /* WQEs posted, running; the doorbell record's low 16 bits */
	uint32_t wqn;
	uint8_t port;
	uint64_t received;
};

/* A CQ from its view: consumer index and arm sequence number are ours. */
struct rv_cq {
	struct mlx4dv_cq v;
	uint32_t ci;
	uint32_t sn;
};

static inline struct mlx4_cqe *
rv_cqe(const struct rv_cq *cq, uint32_t n)
{
	unsigned int cqe_64 = (cq->v.cqe_size & 64) ? 1 : 0;

	/* With 64-byte CQEs the 32-byte CQE is the second half of the slot. */
	return (struct mlx4_cqe *)((uint8_t *)cq->v.buf.buf +
		((size_t)(n & (cq->v.cqe_cnt - 1)) << (5 + cqe_64)) + (cqe_64 << 5));
}

/* @return the CQE at the consumer index when software owns it, else NULL. */
static inline struct mlx4_cqe *
rv_cq_next(const struct rv_cq *cq)
{
	struct mlx4_cqe *cqe = rv_cqe(cq, cq->ci);

	/* Software owns it when the owner bit equals the pass parity of the index. */
	if (!!(cqe->owner_sr_opcode & MLX4_CQE_OWNER_MASK) != !!(cq->ci & cq->v.cqe_cnt))
		return NULL;
	/* The body is read only after ownership was seen. */
	rte_rmb();
	return cqe;
}

/* Publish the consumer index: the slots up to it may be reused by the device. */
static inline void
rv_cq_update_ci(struct rv_cq *cq)
{
	/* The CQEs were fully read before their slots are given back. */
	rte_io_wmb();
	*cq->v.set_ci_db = rte_cpu_to_be_32(cq->ci & 0xffffff);
}

/* Request an event for the next completion (mlx4 packing, not mlx5's). */
static inline void
rv_cq_arm(struct rv_cq *cq)
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

/* Post receive WQEs up to a full ring, then publish the producer count. */
static inline void
rv_rq_refill(struct rv_rq *rq, uint32_t tail)
{
	uint32_t nsegs = (1u << rq->v.rq.wqe_shift) / sizeof(struct mlx4_wqe_data_seg);
	struct mlx4_wqe_data_seg *seg;
	uint32_t slot, posted = 0;

	while (rq->head - tail < rq->v.rq.wqe_cnt) {
		slot = rq->head & (rq->v.rq.wqe_cnt - 1);
		seg = (struct mlx4_wqe_data_seg *)(rq->wqes +
						   ((size_t)slot << rq->v.rq.wqe_shift));
		mlx4dv_set_data_seg(seg, RV_PKT_MAX, rq->lkey,
				    (uintptr_t)(rq->bufs + (size_t)slot * RV_PKT_MAX));
		/* A scatter list shorter than the WQE ends with an invalid-lkey entry. */
		if (nsegs > 1)
			mlx4dv_set_data_seg(seg + 1, 0, MLX4_INVALID_LKEY, 0);
		rq->head++;
		posted++;
	}
	if (posted == 0)
		return;
	/* WQEs before the doorbell record that makes them visible to the device. */
	rte_io_wmb();
	*rq->v.rdb = rte_cpu_to_be_32(rq->head & 0xffff);
}

/* @return the packet buffer of the i-th WQE from the SQ head. */
static inline uint8_t *
rv_sq_frame(const struct rv_sq *sq, uint32_t i)
{
	return sq->bufs + (size_t)((sq->head + i) & (sq->v.sq.wqe_cnt - 1)) * RV_PKT_MAX;
}

/*
 * Write n SEND WQEs for the len-byte frames already in their slots' buffers
 * (rv_sq_frame()), the last one signalled, and ring the doorbell once.
 */
static inline void
rv_sq_send(struct rv_sq *sq, uint32_t n, uint32_t len)
{
	struct mlx4_wqe_ctrl_seg *ctrl;
	struct mlx4_wqe_data_seg *dseg;
	uint32_t i, slot, owner, flags;

	for (i = 0; i < n; i++) {
		slot = sq->head & (sq->v.sq.wqe_cnt - 1);
		ctrl = (struct mlx4_wqe_ctrl_seg *)((uint8_t *)sq->v.buf.buf + sq->v.sq.offset +
						    ((size_t)slot << sq->v.sq.wqe_shift));
		dseg = (struct mlx4_wqe_data_seg *)(ctrl + 1);
		mlx4dv_set_data_seg(dseg, len, sq->lkey,
				    (uintptr_t)(sq->bufs + (size_t)slot * RV_PKT_MAX));
		ctrl->fence_size = (sizeof(*ctrl) + sizeof(*dseg)) / 16;
		/*
		 * SOLICIT means "no ICRC" on raw Ethernet; only the last WQE of the
		 * burst asks for a CQE, which then stands for the whole burst.
		 */
		flags = MLX4_WQE_CTRL_SOLICIT;
		if (i == n - 1)
			flags |= MLX4_WQE_CTRL_CQ_UPDATE;
		ctrl->srcrb_flags = rte_cpu_to_be_32(flags);
		ctrl->imm = 0;
		owner = (sq->head & sq->v.sq.wqe_cnt) ? (1u << 31) : 0;
		/* The device may run the WQE once its owner bit is right: the rest first. */
		rte_io_wmb();
		ctrl->owner_opcode = rte_cpu_to_be_32(MLX4_OPCODE_SEND | owner);
		sq->head++;
	}
	/* Every owner word before the doorbell, which is doorbell_qpn, already BE. */
	rte_wmb();
	rte_write32(sq->v.doorbell_qpn, sq->v.sdb);
}

#endif /* _RAW_VIEWS_DP_H_ */
