/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Helpers shared by the mlx4v unit tests: a raw-view consumer, as a PMD is. */

#ifndef _MLX4V_TEST_UTIL_H_
#define _MLX4V_TEST_UTIL_H_

#include <poll.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_io.h>
#include <rte_malloc.h>

#include <rte_pmd_mlx4v.h>

#include "mlx4v_sim.h"
#include "ut_common.h"

/* Every wait is bounded: up to this many polls of the device model. */
#define MLX4V_TEST_POLLS 20000
#define MLX4V_TEST_POLL_US 100

/** A consumer of the raw views, with its own indexes, as a PMD keeps them. */
struct mlx4v_test_sq {
	struct mlx4dv_qp v;
	uint32_t head;          /* WQEs posted, running */
	int no_dmac;            /* leave the control segment's MAC 0 (no loopback) */
	const uint8_t *dmac;    /* if set, this MAC instead of the frame's (misuse tests) */
};

struct mlx4v_test_rq {
	uint32_t *rdb;
	uint8_t *wqes;
	uint32_t wqe_cnt;
	int wqe_shift;
	uint32_t head;          /* WQEs posted, running */
};

struct mlx4v_test_cq {
	struct mlx4dv_cq v;
	uint32_t ci;            /* consumer index, running */
	int sn;                 /* our arm_sn copy */
};

static inline void
mlx4v_test_sq_init(struct mlx4v_test_sq *sq, const struct mlx4dv_qp *v)
{
	sq->v = *v;
	sq->head = 0;
	sq->no_dmac = 0;
	sq->dmac = NULL;
}

static inline void
mlx4v_test_rq_from_rwq(struct mlx4v_test_rq *rq, const struct mlx4dv_rwq *v)
{
	rq->rdb = v->rdb;
	rq->wqes = (uint8_t *)v->buf.buf + v->rq.offset;
	rq->wqe_cnt = v->rq.wqe_cnt;
	rq->wqe_shift = v->rq.wqe_shift;
	rq->head = 0;
}

static inline void
mlx4v_test_rq_from_qp(struct mlx4v_test_rq *rq, const struct mlx4dv_qp *v)
{
	rq->rdb = v->rdb;
	rq->wqes = (uint8_t *)v->buf.buf + v->rq.offset;
	rq->wqe_cnt = v->rq.wqe_cnt;
	rq->wqe_shift = v->rq.wqe_shift;
	rq->head = 0;
}

static inline void
mlx4v_test_cq_init(struct mlx4v_test_cq *cq, const struct mlx4dv_cq *v)
{
	cq->v = *v;
	cq->ci = 0;
	cq->sn = v->arm_sn;
}

/** Control segment of SQ WQE n (libmlx4 layout: one stride per WQE). */
static inline struct mlx4_wqe_ctrl_seg *
mlx4v_test_sq_wqe(struct mlx4v_test_sq *sq, uint32_t n)
{
	return (struct mlx4_wqe_ctrl_seg *)((uint8_t *)sq->v.buf.buf + sq->v.sq.offset +
		((size_t)(n & (sq->v.sq.wqe_cnt - 1)) << sq->v.sq.wqe_shift));
}

/**
 * Write one SEND WQE with one data segment; owner selects the owner bit
 * (-1: the right one for the pass). Does not ring the doorbell.
 */
static inline void
mlx4v_test_sq_write(struct mlx4v_test_sq *sq, uint32_t lkey, const void *addr,
		    uint32_t len, int signal, int owner)
{
	struct mlx4_wqe_ctrl_seg *ctrl = mlx4v_test_sq_wqe(sq, sq->head);
	struct mlx4_wqe_data_seg *dseg = (struct mlx4_wqe_data_seg *)(ctrl + 1);
	uint32_t own;

	if (owner < 0)
		owner = !!(sq->head & sq->v.sq.wqe_cnt);
	own = owner ? (1u << 31) : 0;
	mlx4dv_set_data_seg(dseg, len, lkey, (uintptr_t)addr);
	ctrl->fence_size = 2;
	ctrl->srcrb_flags = rte_cpu_to_be_32(MLX4_WQE_CTRL_SOLICIT |
					     (signal ? MLX4_WQE_CTRL_CQ_UPDATE : 0));
	/* The frame's destination MAC, as libmlx4 writes on every raw Ethernet send. */
	ctrl->imm = 0;
	if (!sq->no_dmac) {
		const uint8_t *mac = sq->dmac != NULL ? sq->dmac : addr;

		memcpy(&ctrl->srcrb_flags16[0], mac, 2);
		memcpy(&ctrl->imm, mac + 2, 4);
	}
	/* The owner word goes last, after a barrier: the device may start at once. */
	rte_io_wmb();
	ctrl->owner_opcode = rte_cpu_to_be_32(MLX4_OPCODE_SEND | own);
	sq->head++;
}

/** The default Toeplitz key of DPDK's mlx4 (and mlx5) PMD. */
static const uint8_t mlx4v_test_rss_key[RTE_PMD_MLX4V_RSS_KEY_LEN] =
	RTE_PMD_MLX4V_RSS_KEY_DEFAULT;

/** Steering to receive queues: a rule, and for WQs a table and an RSS QP. */
struct mlx4v_test_steer {
	struct rte_pmd_mlx4v_ind_table *ind;
	struct rte_pmd_mlx4v_qp *rss;
	struct rte_pmd_mlx4v_flow *flow;
};

/** A rule of type on port for qp (a QP with an RQ/SRQ, or an RSS QP). @return 0 or -1. */
static inline int
mlx4v_test_steer_qp(struct mlx4v_test_steer *st, struct rte_pmd_mlx4v_qp *qp, uint8_t port,
		    enum rte_pmd_mlx4v_flow_type type, const uint8_t *dmac)
{
	struct rte_pmd_mlx4v_flow_attr fa = { .type = type, .port = port };

	if (dmac != NULL)
		memcpy(fa.dmac, dmac, sizeof(fa.dmac));
	st->flow = rte_pmd_mlx4v_create_flow(qp, &fa);
	return st->flow != NULL ? 0 : -1;
}

/**
 * 1 << log WQs (RDY, consecutive WQNs) behind a table, an RSS QP in RTR on port hashing
 * IPv4/TCP, and a promiscuous rule. @return 0 or -1.
 */
static inline int
mlx4v_test_steer_wqs(struct mlx4v_test_steer *st, struct rte_pmd_mlx4v_dev *dev,
		     struct rte_pmd_mlx4v_pd *pd, struct rte_pmd_mlx4v_wq *const *wqs,
		     uint32_t log, uint8_t port)
{
	struct rte_pmd_mlx4v_rss_qp_attr ra = {
		.hash_fields = RTE_PMD_MLX4V_RX_HASH_SRC_IPV4 | RTE_PMD_MLX4V_RX_HASH_DST_IPV4 |
			RTE_PMD_MLX4V_RX_HASH_SRC_PORT_TCP | RTE_PMD_MLX4V_RX_HASH_DST_PORT_TCP,
		.key = mlx4v_test_rss_key, .port = port };

	memset(st, 0, sizeof(*st));
	st->ind = rte_pmd_mlx4v_create_rwq_ind_table(dev, log, wqs);
	if (st->ind == NULL)
		return -1;
	ra.ind_table = st->ind;
	st->rss = rte_pmd_mlx4v_create_rss_qp(pd, &ra);
	if (st->rss == NULL ||
	    rte_pmd_mlx4v_modify_qp(st->rss, RTE_PMD_MLX4V_QPS_INIT) != 0 ||
	    rte_pmd_mlx4v_modify_qp(st->rss, RTE_PMD_MLX4V_QPS_RTR) != 0)
		return -1;
	return mlx4v_test_steer_qp(st, st->rss, port, RTE_PMD_MLX4V_FLOW_PROMISC, NULL);
}

/** Undo mlx4v_test_steer_*(), in reverse; NULL members are skipped. */
static inline void
mlx4v_test_steer_destroy(struct mlx4v_test_steer *st)
{
	if (st->flow != NULL)
		rte_pmd_mlx4v_destroy_flow(st->flow);
	if (st->rss != NULL)
		rte_pmd_mlx4v_destroy_qp(st->rss);
	if (st->ind != NULL)
		rte_pmd_mlx4v_destroy_rwq_ind_table(st->ind);
	memset(st, 0, sizeof(*st));
}

/** Ring the send doorbell: doorbell_qpn, already big-endian, after a barrier. */
static inline void
mlx4v_test_sq_ring(struct mlx4v_test_sq *sq)
{
	rte_wmb();
	rte_write32(sq->v.doorbell_qpn, sq->v.sdb);
}

static inline void
mlx4v_test_sq_send(struct mlx4v_test_sq *sq, uint32_t lkey, const void *addr,
		   uint32_t len, int signal)
{
	mlx4v_test_sq_write(sq, lkey, addr, len, signal, -1);
	mlx4v_test_sq_ring(sq);
}

/** Post one receive buffer and publish the producer count. */
static inline void
mlx4v_test_rq_post(struct mlx4v_test_rq *rq, uint32_t lkey, void *addr, uint32_t len)
{
	struct mlx4_wqe_data_seg *seg = (struct mlx4_wqe_data_seg *)(rq->wqes +
		((size_t)(rq->head & (rq->wqe_cnt - 1)) << rq->wqe_shift));
	uint32_t nsegs = (1u << rq->wqe_shift) / sizeof(*seg);

	mlx4dv_set_data_seg(seg, len, lkey, (uintptr_t)addr);
	if (nsegs > 1)
		mlx4dv_set_data_seg(seg + 1, 0, 0x100, 0);
	rq->head++;
	/* WQEs before the doorbell record. */
	rte_io_wmb();
	*rq->rdb = rte_cpu_to_be_32(rq->head & 0xffff);
}

/** The 32-byte CQE at running index n (second half for 64-byte CQEs). */
static inline struct mlx4_cqe *
mlx4v_test_cqe(struct mlx4v_test_cq *cq, uint32_t n)
{
	int cqe_64 = (cq->v.cqe_size & 64) ? 1 : 0;

	return (struct mlx4_cqe *)((uint8_t *)cq->v.buf.buf +
		((size_t)(n & (cq->v.cqe_cnt - 1)) << (5 + cqe_64)) + (cqe_64 << 5));
}

/** @return the next software-owned CQE, or NULL; does not consume it. */
static inline struct mlx4_cqe *
mlx4v_test_cq_peek(struct mlx4v_test_cq *cq)
{
	struct mlx4_cqe *cqe = mlx4v_test_cqe(cq, cq->ci);

	if (!!(cqe->owner_sr_opcode & MLX4_CQE_OWNER_MASK) != !!(cq->ci & cq->v.cqe_cnt))
		return NULL;
	rte_rmb();
	return cqe;
}

/** Consume one CQE and publish the consumer index. */
static inline void
mlx4v_test_cq_consume(struct mlx4v_test_cq *cq)
{
	cq->ci++;
	rte_io_wmb();
	*cq->v.set_ci_db = rte_cpu_to_be_32(cq->ci & 0xffffff);
}

/** Wait (bounded) for the next CQE; NULL on timeout. */
static inline struct mlx4_cqe *
mlx4v_test_cq_wait(struct mlx4v_test_cq *cq, struct mlx4v_sim *sim)
{
	struct mlx4_cqe *cqe;
	int i;

	for (i = 0; i < MLX4V_TEST_POLLS; i++) {
		cqe = mlx4v_test_cq_peek(cq);
		if (cqe != NULL)
			return cqe;
		if (sim != NULL)
			mlx4v_sim_poll(sim);
		rte_delay_us_sleep(MLX4V_TEST_POLL_US);
	}
	return NULL;
}

/** Arm for the next completion: record, barrier, 64-bit BE doorbell (mlx4 packing). */
static inline void
mlx4v_test_cq_arm(struct mlx4v_test_cq *cq, uint32_t cmd)
{
	uint32_t sn = cq->sn & 3, ci = cq->ci & 0xffffff;
	uint64_t db;

	*cq->v.arm_db = rte_cpu_to_be_32(sn << 28 | cmd | ci);
	rte_wmb();
	db = ((uint64_t)(sn << 28 | cmd | cq->v.cqn) << 32) | ci;
	rte_write64(rte_cpu_to_be_64(db), (uint8_t *)cq->v.cq_uar + MLX4_CQ_DOORBELL);
}

/** Wait (bounded) for an fd to become readable. @return 1 readable, 0 timeout. */
static inline int
mlx4v_test_fd_wait(int fd, struct mlx4v_sim *sim, int polls)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int i;

	for (i = 0; i < polls; i++) {
		if (poll(&p, 1, 0) == 1)
			return 1;
		if (sim != NULL)
			mlx4v_sim_poll(sim);
		rte_delay_us_sleep(MLX4V_TEST_POLL_US);
	}
	return 0;
}

/** Wait (bounded) until a sim counter changes, by polling the model. */
static inline void
mlx4v_test_settle(struct mlx4v_sim *sim)
{
	int i;

	for (i = 0; i < 20; i++) {
		mlx4v_sim_poll(sim);
		rte_delay_us_sleep(MLX4V_TEST_POLL_US);
	}
}

#endif /* _MLX4V_TEST_UTIL_H_ */
