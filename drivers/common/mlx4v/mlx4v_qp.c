/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Raw-packet QPs: checks, create, state changes, destroy. */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_io.h>

#include "mlx4v_api.h"
#include "mlx4v_log.h"
#include "mlx4v_prov.h"
#include "mlx4v_verbs.h"

/* libmlx4's inline limit (verbs.c create_qp_ex()); WRs and SGEs come from the caps. */
#define MLX4V_QP_MAX_INLINE 1024u
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
	int ret;

	qp = mlx4v_qp_alloc(pd, mlx4v_qp_check_attr, attr,
			    MLX4V_PORT_NEED_ETH | MLX4V_PORT_NEED_NET_RAW);
	if (qp == NULL)
		return NULL;
	qp->send_cq = (struct mlx4v_cq *)attr->send_cq;
	qp->recv_cq = (struct mlx4v_cq *)attr->recv_cq;
	qp->srq = (struct mlx4v_srq *)attr->srq;
	qp->attr = *attr;
	ret = MLX4V_PROV_CALL(pd->obj.ctx, qp_layout, qp);
	if (ret)
		goto err_free;
	ret = mlx4v_verbs_qp_create(qp);
	if (ret)
		goto err_layout_free;
	MLX4V_PROV_RUN(pd->obj.ctx, qp_created, qp);
	mlx4v_obj_get(&pd->obj);
	mlx4v_obj_get(&qp->send_cq->obj);
	mlx4v_obj_get(&qp->recv_cq->obj);
	if (qp->srq != NULL)
		mlx4v_obj_get(&qp->srq->obj);
	mlx4v_obj_publish(&qp->obj);
	*attr = qp->attr;
	return qp;

err_layout_free:
	MLX4V_PROV_RUN(pd->obj.ctx, qp_layout_free, qp);
err_free:
	mlx4v_obj_free(&qp->obj);
	rte_errno = -ret;
	return NULL;
}

int
mlx4v_qp_modify(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state)
{
	int ret;

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
	/*
	 * The backend sees the state change only after the provider's step before it (SQ
	 * ownership on RESET->INIT): the device may start fetching WQEs as soon as the QP leaves
	 * RESET (prm/mlx4 §3).
	 */
	MLX4V_PROV_RUN(qp->obj.ctx, qp_modify_pre, qp, state);
	ret = mlx4v_verbs_qp_modify(qp, state);
	if (ret)
		return ret;
	MLX4V_PROV_RUN(qp->obj.ctx, qp_modify_post, qp, state);
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
	/* Mirrors mlx4v_qp_create() in reverse, with the provider's CQ cleaning first. */
	MLX4V_PROV_RUN(qp->obj.ctx, qp_destroyed, qp);
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
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_qp_create((struct mlx4v_pd *)pd, attr));
}

int
rte_pmd_mlx4v_modify_qp(struct rte_pmd_mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_qp_modify((struct mlx4v_qp *)qp, state));
}

int
rte_pmd_mlx4v_destroy_qp(struct rte_pmd_mlx4v_qp *qp)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_qp_destroy((struct mlx4v_qp *)qp));
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
