/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Memory regions: an address range or a whole mempool, giving an lkey. */

#include <rte_mempool.h>

#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

/* Verbs lock held. */
struct mlx4v_mr *
mlx4v_mr_create(struct mlx4v_pd *pd, void *addr, size_t len)
{
	struct mlx4v_mr *mr;
	int ret;

	if (mlx4v_obj_find(pd, MLX4V_OBJ_PD) == NULL)
		return NULL;
	/*
	 * ibv_reg_mr() would pass a wrapping range to the kernel; the simulator's MPT bounds check
	 * relies on addr + len not wrapping.
	 */
	if (addr == NULL || len == 0 || (uintptr_t)addr + len < (uintptr_t)addr) {
		MLX4V_LOG(ERR, "bad MR range %p + %zu", addr, len);
		rte_errno = EINVAL;
		return NULL;
	}
	mr = mlx4v_obj_alloc(pd->obj.ctx, MLX4V_OBJ_MR, sizeof(*mr));
	if (mr == NULL)
		return NULL;
	mr->pd = pd;
	mr->addr = addr;
	mr->len = len;
	ret = mlx4v_verbs_mr_create(mr);
	if (ret)
		goto err_free;
	/*
	 * The PD cannot be freed under a registered MR: ibv_dealloc_pd() would fail with EBUSY
	 * anyway.
	 */
	mlx4v_obj_get(&pd->obj);
	mlx4v_obj_publish(&mr->obj);
	return mr;

err_free:
	mlx4v_obj_free(&mr->obj);
	rte_errno = -ret;
	return NULL;
}

int
mlx4v_mr_destroy(struct mlx4v_mr *mr)
{
	int ret;

	if (mlx4v_obj_find(mr, MLX4V_OBJ_MR) == NULL)
		return -EINVAL;
	ret = mlx4v_verbs_mr_destroy(mr);
	if (ret)
		return ret;
	mlx4v_obj_put(&mr->pd->obj);
	mlx4v_obj_free(&mr->obj);
	return 0;
}

struct mlx4v_mr_span {
	uintptr_t start;
	uintptr_t end;
};

/* rte_mempool_mem_iter() callback: grow the span to cover one memory chunk of the pool. */
static void
mlx4v_mr_span_cb(struct rte_mempool *mp, void *opaque, struct rte_mempool_memhdr *memhdr,
		 unsigned int mem_idx)
{
	struct mlx4v_mr_span *s = opaque;
	uintptr_t start = (uintptr_t)memhdr->addr;

	RTE_SET_USED(mp);
	RTE_SET_USED(mem_idx);
	if (start < s->start)
		s->start = start;
	if (start + memhdr->len > s->end)
		s->end = start + memhdr->len;
}

struct rte_pmd_mlx4v_mr *
rte_pmd_mlx4v_reg_mr(struct rte_pmd_mlx4v_pd *pd, void *addr, size_t len)
{
	struct mlx4v_mr *mr;

	mlx4v_verbs_lock();
	mr = mlx4v_mr_create((struct mlx4v_pd *)pd, addr, len);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ptr(mr);
}

struct rte_pmd_mlx4v_mr *
rte_pmd_mlx4v_reg_mempool(struct rte_pmd_mlx4v_pd *pd, struct rte_mempool *mp)
{
	struct mlx4v_mr_span s = { .start = UINTPTR_MAX, .end = 0 };
	struct mlx4v_mr *mr;

	if (mp == NULL || mp->nb_mem_chunks == 0) {
		MLX4V_LOG(ERR, "mempool %s has no memory", mp != NULL ? mp->name : "(null)");
		rte_errno = EINVAL;
		errno = EINVAL;
		return NULL;
	}
	/*
	 * One lkey must cover the whole pool: register the span of its chunks. The span may include
	 * gaps between chunks: harmless for an lkey, it only widens what the MR admits. Outside the
	 * lock, since it only reads the pool.
	 */
	rte_mempool_mem_iter(mp, mlx4v_mr_span_cb, &s);
	mlx4v_verbs_lock();
	mr = mlx4v_mr_create((struct mlx4v_pd *)pd, (void *)s.start, s.end - s.start);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ptr(mr);
}

int
rte_pmd_mlx4v_dereg_mr(struct rte_pmd_mlx4v_mr *mr)
{
	int ret;

	mlx4v_verbs_lock();
	ret = mlx4v_mr_destroy((struct mlx4v_mr *)mr);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}

int
rte_pmd_mlx4v_mr_lkey(const struct rte_pmd_mlx4v_mr *mr, uint32_t *lkey)
{
	struct mlx4v_obj *obj;
	int ret = 0;

	mlx4v_verbs_lock();
	obj = mlx4v_obj_find(mr, MLX4V_OBJ_MR);
	if (obj == NULL || lkey == NULL)
		ret = -EINVAL;
	else
		*lkey = ((const struct mlx4v_mr *)obj)->lkey;
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}
