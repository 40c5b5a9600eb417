/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Receive work queues (RWQ): checks, create, state changes, destroy. */

#include <rte_byteorder.h>

#include "mlx4v_log.h"
#include "mlx4v_prov.h"
#include "mlx4v_verbs.h"

struct mlx4v_wq *
mlx4v_wq_create(struct mlx4v_pd *pd, struct rte_pmd_mlx4v_wq_attr *attr)
{
	struct mlx4v_obj *cq;
	struct mlx4v_wq *wq;
	int ret;

	if (mlx4v_obj_find(pd, MLX4V_OBJ_PD) == NULL)
		return NULL;
	if (attr == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	cq = mlx4v_obj_find(attr->cq, MLX4V_OBJ_CQ);
	/*
	 * libmlx4 checks max_wr/max_sge against the device's caps (prm/mlx4 §3); the CQ lookup is
	 * our addition, libibverbs would dereference it blindly.
	 */
	if (cq == NULL || cq->ctx != pd->obj.ctx || attr->max_wr > pd->obj.ctx->caps.max_qp_wr ||
	    attr->max_sge > pd->obj.ctx->caps.max_sge || attr->port == 0) {
		MLX4V_LOG(ERR, "bad WQ attributes (CQ live on this handle, max_wr <= %u, "
			  "max_sge <= %u, port >= 1)", pd->obj.ctx->caps.max_qp_wr,
			  pd->obj.ctx->caps.max_sge);
		rte_errno = EINVAL;
		return NULL;
	}
	/* A WQ is no raw-packet QP (no CAP_NET_RAW), but it receives Ethernet frames. */
	ret = mlx4v_port_check(pd->obj.ctx, attr->port, MLX4V_PORT_NEED_ETH);
	if (ret) {
		rte_errno = -ret;
		return NULL;
	}
	wq = mlx4v_obj_alloc(pd->obj.ctx, MLX4V_OBJ_WQ, sizeof(*wq));
	if (wq == NULL)
		return NULL;
	wq->pd = pd;
	wq->cq = (struct mlx4v_cq *)cq;
	wq->attr = *attr;
	wq->state = RTE_PMD_MLX4V_WQS_RESET;
	ret = MLX4V_PROV_CALL(pd->obj.ctx, wq_layout, wq);
	if (ret)
		goto err_free;
	ret = mlx4v_verbs_wq_create(wq);
	if (ret)
		goto err_layout_free;
	mlx4v_obj_get(&pd->obj);
	mlx4v_obj_get(&wq->cq->obj);
	mlx4v_obj_publish(&wq->obj);
	*attr = wq->attr;
	return wq;

err_layout_free:
	MLX4V_PROV_RUN(pd->obj.ctx, wq_layout_free, wq);
err_free:
	mlx4v_obj_free(&wq->obj);
	rte_errno = -ret;
	return NULL;
}

int
mlx4v_wq_modify(struct mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state)
{
	int ret;

	if (mlx4v_obj_find(wq, MLX4V_OBJ_WQ) == NULL)
		return -EINVAL;
	if (!mlx4v_wq_transition_ok(wq->state, state)) {
		MLX4V_LOG(ERR, "WQ 0x%x: bad transition %d -> %d", wq->wqn, wq->state, state);
		return -EINVAL;
	}
	ret = mlx4v_verbs_wq_modify(wq, state);
	if (ret)
		return ret;
	MLX4V_PROV_RUN(wq->obj.ctx, wq_modify_post, wq, state);
	wq->state = state;
	return 0;
}

/* Verbs lock held. Backend first, so the device stops before the ring is cleaned and freed. */
int
mlx4v_wq_destroy(struct mlx4v_wq *wq)
{
	int ret;

	if (mlx4v_obj_find(wq, MLX4V_OBJ_WQ) == NULL)
		return -EINVAL;
	if (wq->obj.refcnt != 0) {
		MLX4V_LOG(ERR, "WQ 0x%x is in an indirection table", wq->wqn);
		return -EBUSY;
	}
	ret = mlx4v_verbs_wq_destroy(wq);
	if (ret)
		return ret;
	MLX4V_PROV_RUN(wq->obj.ctx, wq_destroyed, wq);
	mlx4v_obj_put(&wq->cq->obj);
	mlx4v_obj_put(&wq->pd->obj);
	mlx4v_obj_free(&wq->obj);
	return 0;
}

struct rte_pmd_mlx4v_wq *
rte_pmd_mlx4v_create_wq(struct rte_pmd_mlx4v_pd *pd, struct rte_pmd_mlx4v_wq_attr *attr)
{
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_wq_create((struct mlx4v_pd *)pd, attr));
}

int
rte_pmd_mlx4v_modify_wq(struct rte_pmd_mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_wq_modify((struct mlx4v_wq *)wq, state));
}

int
rte_pmd_mlx4v_destroy_wq(struct rte_pmd_mlx4v_wq *wq)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_wq_destroy((struct mlx4v_wq *)wq));
}

int
rte_pmd_mlx4v_wq_num(const struct rte_pmd_mlx4v_wq *wq, uint32_t *wqn)
{
	struct mlx4v_obj *obj;
	int ret = 0;

	mlx4v_verbs_lock();
	obj = mlx4v_obj_find(wq, MLX4V_OBJ_WQ);
	if (obj == NULL || wqn == NULL)
		ret = -EINVAL;
	else
		*wqn = ((const struct mlx4v_wq *)obj)->wqn;
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}
