/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Shared receive queues: checks, create, destroy. */

#include <rte_byteorder.h>

#include "mlx4v_log.h"
#include "mlx4v_prov.h"
#include "mlx4v_verbs.h"

/* libmlx4 limits (verbs.c mlx4_create_srq()). */
#define MLX4V_SRQ_MAX_WR (1u << 16)
#define MLX4V_SRQ_MAX_SGE 64u

struct mlx4v_srq *
mlx4v_srq_create(struct mlx4v_pd *pd, uint32_t max_wr, uint32_t max_sge)
{
	struct mlx4v_srq *srq;
	int ret;

	if (mlx4v_obj_find(pd, MLX4V_OBJ_PD) == NULL)
		return NULL;
	/* libmlx4's own limits, checked before the kernel is asked (prm/mlx4 §3, SRQ). */
	if (max_wr > MLX4V_SRQ_MAX_WR || max_sge > MLX4V_SRQ_MAX_SGE) {
		MLX4V_LOG(ERR, "SRQ max_wr %u / max_sge %u beyond 65536 / 64", max_wr, max_sge);
		rte_errno = EINVAL;
		return NULL;
	}
	/* Then the kernel's, against the device's caps. */
	if (max_wr > pd->obj.ctx->caps.max_srq_wr || max_sge > pd->obj.ctx->caps.max_srq_sge) {
		MLX4V_LOG(ERR, "SRQ max_wr %u / max_sge %u beyond the device's %u / %u", max_wr,
			  max_sge, pd->obj.ctx->caps.max_srq_wr, pd->obj.ctx->caps.max_srq_sge);
		rte_errno = EINVAL;
		return NULL;
	}
	srq = mlx4v_obj_alloc(pd->obj.ctx, MLX4V_OBJ_SRQ, sizeof(*srq));
	if (srq == NULL)
		return NULL;
	srq->pd = pd;
	srq->max_wr_req = max_wr;
	srq->max_gs = max_sge;
	ret = MLX4V_PROV_CALL(pd->obj.ctx, srq_layout, srq);
	if (ret)
		goto err_free;
	ret = mlx4v_verbs_srq_create(srq);
	if (ret)
		goto err_layout_free;
	mlx4v_obj_get(&pd->obj);
	mlx4v_obj_publish(&srq->obj);
	return srq;

err_layout_free:
	MLX4V_PROV_RUN(pd->obj.ctx, srq_layout_free, srq);
err_free:
	mlx4v_obj_free(&srq->obj);
	rte_errno = -ret;
	return NULL;
}

int
mlx4v_srq_destroy(struct mlx4v_srq *srq)
{
	int ret;

	if (mlx4v_obj_find(srq, MLX4V_OBJ_SRQ) == NULL)
		return -EINVAL;
	if (srq->obj.refcnt != 0) {
		MLX4V_LOG(ERR, "SRQ %u still used by %u QP(s)", srq->srqn, srq->obj.refcnt);
		return -EBUSY;
	}
	ret = mlx4v_verbs_srq_destroy(srq);
	if (ret)
		return ret;
	MLX4V_PROV_RUN(srq->obj.ctx, srq_destroyed, srq);
	mlx4v_obj_put(&srq->pd->obj);
	mlx4v_obj_free(&srq->obj);
	return 0;
}

struct rte_pmd_mlx4v_srq *
rte_pmd_mlx4v_create_srq(struct rte_pmd_mlx4v_pd *pd, uint32_t max_wr, uint32_t max_sge)
{
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_srq_create((struct mlx4v_pd *)pd, max_wr, max_sge));
}

int
rte_pmd_mlx4v_destroy_srq(struct rte_pmd_mlx4v_srq *srq)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_srq_destroy((struct mlx4v_srq *)srq));
}
