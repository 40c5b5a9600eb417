/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Protection domains. */

#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

/* Called with mlx4v_verbs_lock() held, like every mlx4v_<object>_*() below. */
struct mlx4v_pd *
mlx4v_pd_create(struct mlx4v_ctx *ctx)
{
	struct mlx4v_pd *pd;
	int ret;

	if (mlx4v_obj_find(ctx, MLX4V_OBJ_CTX) == NULL)
		return NULL;
	pd = mlx4v_obj_alloc(ctx, MLX4V_OBJ_PD, sizeof(*pd));
	if (pd == NULL)
		return NULL;
	ret = mlx4v_verbs_pd_create(pd);
	if (ret)
		goto err_free;
	mlx4v_obj_publish(&pd->obj);
	return pd;

err_free:
	mlx4v_obj_free(&pd->obj);
	rte_errno = -ret;
	return NULL;
}

int
mlx4v_pd_destroy(struct mlx4v_pd *pd)
{
	int ret;

	if (mlx4v_obj_find(pd, MLX4V_OBJ_PD) == NULL)
		return -EINVAL;
	/*
	 * Refcount holds MRs, QPs, SRQs and WQs: the kernel refuses dealloc_pd with EBUSY, and the
	 * simulator must behave the same.
	 */
	if (pd->obj.refcnt != 0) {
		MLX4V_LOG(ERR, "PD %u still used by %u object(s)", pd->pdn, pd->obj.refcnt);
		return -EBUSY;
	}
	ret = mlx4v_verbs_pd_destroy(pd);
	if (ret)
		return ret;
	mlx4v_obj_free(&pd->obj);
	return 0;
}

struct rte_pmd_mlx4v_pd *
rte_pmd_mlx4v_alloc_pd(struct rte_pmd_mlx4v_dev *dev)
{
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_pd_create((struct mlx4v_ctx *)dev));
}

int
rte_pmd_mlx4v_dealloc_pd(struct rte_pmd_mlx4v_pd *pd)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_pd_destroy((struct mlx4v_pd *)pd));
}
