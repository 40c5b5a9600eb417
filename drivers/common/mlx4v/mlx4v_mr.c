/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Memory regions: an address range or a whole mempool, giving an lkey. */

#include <rte_memory.h>
#include <rte_mempool.h>

#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

struct mlx4v_mem_walk {
	uintptr_t start;
	uintptr_t end;
	mlx4v_mem_run_cb cb;
	void *arg;
};

/* rte_memseg_contig_walk() callback: clip one run of segments to the range and report it. */
static int
mlx4v_mem_walk_cb(const struct rte_memseg_list *msl, const struct rte_memseg *ms, size_t len,
		  void *arg)
{
	struct mlx4v_mem_walk *w = arg;
	uintptr_t start = RTE_MAX((uintptr_t)ms->addr, w->start);
	uintptr_t end = RTE_MIN((uintptr_t)ms->addr + len, w->end);

	RTE_SET_USED(msl);
	if (start >= end)
		return 0;
	return w->cb(start, end - start, w->arg);
}

int
mlx4v_mem_runs(const void *addr, size_t len, mlx4v_mem_run_cb cb, void *arg)
{
	struct mlx4v_mem_walk w = {
		.start = (uintptr_t)addr,
		.end = (uintptr_t)addr + len,
		.cb = cb,
		.arg = arg,
	};

	if (len == 0 || w.end < w.start)
		return 0;
	/*
	 * External memory registered with rte_extmem_register() lives in memseg lists of its own,
	 * so one walk finds both kinds.
	 */
	return rte_memseg_contig_walk(mlx4v_mem_walk_cb, &w);
}

/* mlx4v_mem_runs() callback: count the covered bytes. */
static int
mlx4v_mr_covered_cb(uintptr_t va, size_t len, void *arg)
{
	RTE_SET_USED(va);
	*(size_t *)arg += len;
	return 0;
}

/*
 * What silicon can reach: the kernel pins and maps only pages that exist, and the device reaches
 * only what is in the IOMMU (doc/guides/nics/mlx4v.rst, memory registration). The PMD's
 * contract is stricter than ibv_reg_mr(): only EAL memory and registered external memory, so
 * that every registered byte is memory the EAL knows (plain malloc() memory may be freed behind
 * the MR). Runs never overlap, so the range is covered when their lengths add up to len.
 * @return 0 or -EFAULT.
 */
static int
mlx4v_mr_mem_check(const void *addr, size_t len)
{
	size_t covered = 0;

	mlx4v_mem_runs(addr, len, mlx4v_mr_covered_cb, &covered);
	if (covered == len)
		return 0;
	MLX4V_LOG(ERR, "MR range %p + %zu is not EAL or registered external memory "
		  "(%zu bytes are)", addr, len, covered);
	return -EFAULT;
}

/*
 * Verbs lock held (the memory walk then takes the EAL memory lock: the order everywhere, as ring
 * allocation under the verbs lock does the same). check_mem: the whole range must be memory;
 * reg_mempool checks its chunks instead, as the span between them may hold gaps.
 */
struct mlx4v_mr *
mlx4v_mr_create(struct mlx4v_pd *pd, void *addr, size_t len, int check_mem)
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
	if (check_mem) {
		ret = mlx4v_mr_mem_check(addr, len);
		if (ret) {
			rte_errno = -ret;
			return NULL;
		}
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
	int ret;
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
	/* Each chunk must be DMA-capable memory; the gaps between them are never DMA'd. */
	if (s->ret == 0)
		s->ret = mlx4v_mr_mem_check(memhdr->addr, memhdr->len);
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
	mr = mlx4v_mr_create((struct mlx4v_pd *)pd, addr, len, 1);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ptr(mr);
}

struct rte_pmd_mlx4v_mr *
rte_pmd_mlx4v_reg_mempool(struct rte_pmd_mlx4v_pd *pd, struct rte_mempool *mp)
{
	struct mlx4v_mr_span s = { .start = UINTPTR_MAX, .end = 0, .ret = 0 };
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
	if (s.ret) {
		rte_errno = -s.ret;
		errno = -s.ret;
		return NULL;
	}
	mlx4v_verbs_lock();
	mr = mlx4v_mr_create((struct mlx4v_pd *)pd, (void *)s.start, s.end - s.start, 0);
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
