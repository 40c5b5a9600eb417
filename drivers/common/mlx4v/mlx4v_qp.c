/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Raw-packet QPs: libmlx4's sizing, SQ ownership, state changes, destroy. */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_io.h>

#include "mlx4v_api.h"
#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

/* libmlx4's inline limit (verbs.c create_qp_ex()); WRs and SGEs come from the caps. */
#define MLX4V_QP_MAX_INLINE 1024u
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
void
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

int
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

void
mlx4v_qp_layout_free(struct mlx4v_qp *qp)
{
	if (qp->rdb != NULL)
		mlx4v_db_free(qp->rdb);
	mlx4v_ring_free(qp->buf);
	qp->rdb = NULL;
	qp->buf = NULL;
}

/*
 * The CQs and SRQ of a QP must be live objects of the QP's own handle. Verbs lock held. libibverbs
 * would follow these pointers blindly; we look them up first (stricter than upstream, prm/mlx4
 * §1.2).
 */
static int
mlx4v_qp_check_attr(struct mlx4v_pd *pd, const void *arg, uint8_t *port)
{
	const struct rte_pmd_mlx4v_qp_attr *attr = arg;
	struct mlx4v_obj *scq, *rcq, *srq = NULL;

	if (attr == NULL)
		return -EINVAL;
	scq = mlx4v_obj_find(attr->send_cq, MLX4V_OBJ_CQ);
	rcq = mlx4v_obj_find(attr->recv_cq, MLX4V_OBJ_CQ);
	if (attr->srq != NULL)
		srq = mlx4v_obj_find(attr->srq, MLX4V_OBJ_SRQ);
	if (scq == NULL || rcq == NULL || (attr->srq != NULL && srq == NULL)) {
		MLX4V_LOG(ERR, "QP needs live send/recv CQs (and SRQ when given)");
		return -EINVAL;
	}
	if (scq->ctx != pd->obj.ctx || rcq->ctx != pd->obj.ctx ||
	    (srq != NULL && srq->ctx != pd->obj.ctx)) {
		MLX4V_LOG(ERR, "QP objects belong to another device handle");
		return -EINVAL;
	}
	if (srq != NULL && ((struct mlx4v_srq *)srq)->pd != pd) {
		MLX4V_LOG(ERR, "SRQ belongs to another PD");
		return -EINVAL;
	}
	/*
	 * Port 0 does not exist in verbs numbering; libmlx4 leaves that to the kernel, we refuse it
	 * up front so both backends fail alike.
	 */
	/* libmlx4 checks against the device's caps, queried at context init (prm/mlx4 §3). */
	if (attr->max_send_wr > pd->obj.ctx->caps.max_qp_wr ||
	    attr->max_recv_wr > pd->obj.ctx->caps.max_qp_wr ||
	    attr->max_send_sge > pd->obj.ctx->caps.max_sge ||
	    attr->max_recv_sge > pd->obj.ctx->caps.max_sge ||
	    attr->max_inline_data > MLX4V_QP_MAX_INLINE || attr->port == 0) {
		MLX4V_LOG(ERR, "QP attributes beyond the device's %u WRs / %u SGEs / %u inline "
			  "bytes, or port 0", pd->obj.ctx->caps.max_qp_wr,
			  pd->obj.ctx->caps.max_sge, MLX4V_QP_MAX_INLINE);
		return -EINVAL;
	}
	*port = attr->port;
	return 0;
}

struct mlx4v_qp *
mlx4v_qp_alloc(struct mlx4v_pd *pd, mlx4v_qp_check_t check, const void *attr,
	       unsigned int need)
{
	struct mlx4v_qp *qp;
	uint8_t port = 0;
	int ret;

	if (mlx4v_obj_find(pd, MLX4V_OBJ_PD) == NULL)
		return NULL;
	ret = check(pd, attr, &port);
	if (ret == 0)
		ret = mlx4v_port_check(pd->obj.ctx, port, need);
	if (ret) {
		rte_errno = -ret;
		return NULL;
	}
	qp = mlx4v_obj_alloc(pd->obj.ctx, MLX4V_OBJ_QP, sizeof(*qp));
	if (qp == NULL)
		return NULL;
	qp->pd = pd;
	qp->attr.port = port;
	qp->state = RTE_PMD_MLX4V_QPS_RESET;
	return qp;
}

struct mlx4v_qp *
mlx4v_qp_create(struct mlx4v_pd *pd, struct rte_pmd_mlx4v_qp_attr *attr)
{
	struct mlx4v_qp *qp;
	int sw, ret;

	qp = mlx4v_qp_alloc(pd, mlx4v_qp_check_attr, attr,
			    MLX4V_PORT_NEED_ETH | MLX4V_PORT_NEED_NET_RAW);
	if (qp == NULL)
		return NULL;
	qp->send_cq = (struct mlx4v_cq *)attr->send_cq;
	qp->recv_cq = (struct mlx4v_cq *)attr->recv_cq;
	qp->srq = (struct mlx4v_srq *)attr->srq;
	qp->attr = *attr;
	sw = mlx4v_verbs_sw_provider(pd->obj.ctx);
	if (sw) {
		ret = mlx4v_qp_layout(qp);
		if (ret)
			goto err_free;
	}
	ret = mlx4v_verbs_qp_create(qp);
	if (ret)
		goto err_layout_free;
	if (sw)
		/*
		 * Stored pre-swapped: the send doorbell is written as-is, without a byte swap
		 * (prm/mlx4 §4.2).
		 */
		qp->doorbell_qpn = rte_cpu_to_be_32(qp->qpn << 8);
	mlx4v_obj_get(&pd->obj);
	mlx4v_obj_get(&qp->send_cq->obj);
	mlx4v_obj_get(&qp->recv_cq->obj);
	if (qp->srq != NULL)
		mlx4v_obj_get(&qp->srq->obj);
	mlx4v_obj_publish(&qp->obj);
	*attr = qp->attr;
	return qp;

err_layout_free:
	if (sw)
		mlx4v_qp_layout_free(qp);
err_free:
	mlx4v_obj_free(&qp->obj);
	rte_errno = -ret;
	return NULL;
}

/*
 * libmlx4 after a QP reaches RESET, or is destroyed: clean both CQs. Simulator backend only; with
 * rdma-core libmlx4 does it inside ibv_modify_qp/ibv_destroy_qp. A CQ already handed out as a DV
 * view is skipped inside mlx4v_cq_clean() (prm/mlx4 §1.4).
 */
static void
mlx4v_qp_clean_cqs(struct mlx4v_qp *qp)
{
	mlx4v_cq_clean(qp->recv_cq, qp->qpn, qp->srq);
	if (qp->send_cq != qp->recv_cq)
		mlx4v_cq_clean(qp->send_cq, qp->qpn, NULL);
}

int
mlx4v_qp_modify(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state)
{
	int sw, ret;

	if (mlx4v_obj_find(qp, MLX4V_OBJ_QP) == NULL)
		return -EINVAL;
	if (!mlx4v_qp_transition_ok(qp->state, state)) {
		MLX4V_LOG(ERR, "QP 0x%x: bad transition %d -> %d", qp->qpn, qp->state, state);
		return -EINVAL;
	}
	/* An RSS QP has no rings and no SQ: RESET, INIT and RTR only. */
	if (qp->ind != NULL && state == RTE_PMD_MLX4V_QPS_RTS) {
		MLX4V_LOG(ERR, "RSS QP 0x%x: no RTS", qp->qpn);
		return -EINVAL;
	}
	sw = mlx4v_verbs_sw_provider(qp->obj.ctx) && qp->ind == NULL;
	/* libmlx4 initialises SQ ownership on RESET->INIT, before the kernel command. */
	if (sw && qp->state == RTE_PMD_MLX4V_QPS_RESET && state == RTE_PMD_MLX4V_QPS_INIT)
		mlx4v_sq_init_ownership((uint8_t *)qp->buf + qp->sq.offset, qp->sq.wqe_cnt,
					qp->sq.wqe_shift);
	/*
	 * The backend sees the state change only after ownership is set: the device may start
	 * fetching WQEs as soon as the QP leaves RESET (prm/mlx4 §3).
	 */
	ret = mlx4v_verbs_qp_modify(qp, state);
	if (ret)
		return ret;
	if (sw && state == RTE_PMD_MLX4V_QPS_RESET) {
		mlx4v_qp_clean_cqs(qp);
		/* The RQ producer count restarts with the indices. */
		if (qp->rq.wqe_cnt)
			/*
			 * RQ doorbell record write: the device restarts its consumer count at 0 on
			 * RESET, so software's 16-bit producer count must restart too (prm/mlx4
			 * §4.3).
			 */
			*qp->rdb = 0;
	}
	qp->state = state;
	return 0;
}

/*
 * Verbs lock held. The backend destroy goes first: the device must stop using the ring before its
 * memory is freed.
 */
int
mlx4v_qp_destroy(struct mlx4v_qp *qp)
{
	int ret;

	if (mlx4v_obj_find(qp, MLX4V_OBJ_QP) == NULL)
		return -EINVAL;
	/* Steering rules point at it: ib_destroy_qp() refuses too. */
	if (qp->obj.refcnt != 0) {
		MLX4V_LOG(ERR, "QP 0x%x still has %u steering rule(s)", qp->qpn, qp->obj.refcnt);
		return -EBUSY;
	}
	if (qp->ind != NULL)
		return mlx4v_rss_qp_destroy(qp);
	ret = mlx4v_verbs_qp_destroy(qp);
	if (ret)
		return ret;
	/* Mirrors mlx4v_qp_create() in reverse, with libmlx4's CQ cleaning first. */
	if (mlx4v_verbs_sw_provider(qp->obj.ctx)) {
		mlx4v_qp_clean_cqs(qp);
		mlx4v_qp_layout_free(qp);
	}
	if (qp->srq != NULL)
		mlx4v_obj_put(&qp->srq->obj);
	mlx4v_obj_put(&qp->recv_cq->obj);
	mlx4v_obj_put(&qp->send_cq->obj);
	mlx4v_obj_put(&qp->pd->obj);
	mlx4v_obj_free(&qp->obj);
	return 0;
}

struct rte_pmd_mlx4v_qp *
rte_pmd_mlx4v_create_qp(struct rte_pmd_mlx4v_pd *pd, struct rte_pmd_mlx4v_qp_attr *attr)
{
	struct mlx4v_qp *qp;

	mlx4v_verbs_lock();
	qp = mlx4v_qp_create((struct mlx4v_pd *)pd, attr);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ptr(qp);
}

int
rte_pmd_mlx4v_modify_qp(struct rte_pmd_mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state)
{
	int ret;

	mlx4v_verbs_lock();
	ret = mlx4v_qp_modify((struct mlx4v_qp *)qp, state);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}

int
rte_pmd_mlx4v_destroy_qp(struct rte_pmd_mlx4v_qp *qp)
{
	int ret;

	mlx4v_verbs_lock();
	ret = mlx4v_qp_destroy((struct mlx4v_qp *)qp);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}

int
mlx4v_qp_sdb_fd(struct rte_pmd_mlx4v_qp *qp, int64_t *off)
{
	struct mlx4v_qp *q = (struct mlx4v_qp *)qp;
	int ret;

	if (q == NULL)
		return -EINVAL;
	mlx4v_verbs_lock();
	ret = mlx4v_verbs_qp_sdb_fd(q);
	/* Where the page is in the fd: libmlx4's and the simulator's 0, or the kernel's. */
	*off = q->uar_mmap_offset;
	mlx4v_verbs_unlock();
	return ret;
}

int
rte_pmd_mlx4v_qp_num(const struct rte_pmd_mlx4v_qp *qp, uint32_t *qpn)
{
	struct mlx4v_obj *obj;
	int ret = 0;

	mlx4v_verbs_lock();
	obj = mlx4v_obj_find(qp, MLX4V_OBJ_QP);
	if (obj == NULL || qpn == NULL)
		ret = -EINVAL;
	else
		*qpn = ((const struct mlx4v_qp *)obj)->qpn;
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}
