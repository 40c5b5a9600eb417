/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Memory regions: an address range or a whole mempool, giving an lkey. */

#include <rte_malloc.h>
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
mlx4v_mr_mem_covered(const void *addr, size_t len)
{
	size_t covered = 0;

	mlx4v_mem_runs(addr, len, mlx4v_mr_covered_cb, &covered);
	return covered == len;
}

static int
mlx4v_mr_mem_check(const void *addr, size_t len)
{
	if (mlx4v_mr_mem_covered(addr, len))
		return 0;
	MLX4V_LOG(ERR, "MR range %p + %zu is not all EAL or registered external memory", addr,
		  len);
	return -EFAULT;
}

/*
 * Verbs lock held (the memory walk then takes the EAL memory lock: the order everywhere, as ring
 * allocation under the verbs lock does the same). The MR is not published: mlx4v_mr_create()
 * publishes it, a mempool MR keeps it as a part.
 */
static struct mlx4v_mr *
mlx4v_mr_build(struct mlx4v_pd *pd, void *addr, size_t len)
{
	struct mlx4v_mr *mr;
	int ret;

	/*
	 * ibv_reg_mr() would pass a wrapping range to the kernel; the simulator's MPT bounds check
	 * relies on addr + len not wrapping.
	 */
	if (addr == NULL || len == 0 || (uintptr_t)addr + len < (uintptr_t)addr) {
		MLX4V_LOG(ERR, "bad MR range %p + %zu", addr, len);
		rte_errno = EINVAL;
		return NULL;
	}
	ret = mlx4v_mr_mem_check(addr, len);
	if (ret) {
		rte_errno = -ret;
		return NULL;
	}
	mr = mlx4v_obj_alloc(pd->obj.ctx, MLX4V_OBJ_MR, sizeof(*mr));
	if (mr == NULL)
		return NULL;
	mr->pd = pd;
	mr->addr = addr;
	mr->len = len;
	ret = mlx4v_verbs_mr_create(mr);
	if (ret) {
		mlx4v_obj_free(&mr->obj);
		rte_errno = -ret;
		return NULL;
	}
	/*
	 * The PD cannot be freed under a registered MR: ibv_dealloc_pd() would fail with EBUSY
	 * anyway.
	 */
	mlx4v_obj_get(&pd->obj);
	return mr;
}

/* Undoes mlx4v_mr_build(). Verbs lock held. */
static int
mlx4v_mr_unbuild(struct mlx4v_mr *mr)
{
	int ret;

	ret = mlx4v_verbs_mr_destroy(mr);
	if (ret)
		return ret;
	mlx4v_obj_put(&mr->pd->obj);
	mlx4v_obj_free(&mr->obj);
	return 0;
}

struct mlx4v_mr *
mlx4v_mr_create(struct mlx4v_pd *pd, void *addr, size_t len)
{
	struct mlx4v_mr *mr;

	if (mlx4v_obj_find(pd, MLX4V_OBJ_PD) == NULL)
		return NULL;
	mr = mlx4v_mr_build(pd, addr, len);
	if (mr != NULL)
		mlx4v_obj_publish(&mr->obj);
	return mr;
}

/* Destroy the parts from the last; stops at the first the backend refuses. Verbs lock held. */
static int
mlx4v_mr_parts_destroy(struct mlx4v_mr *mr)
{
	int ret;

	while (mr->nb_parts > 0) {
		ret = mlx4v_mr_unbuild(mr->parts[mr->nb_parts - 1]);
		if (ret)
			return ret;
		mr->nb_parts--;
	}
	rte_free(mr->parts);
	mr->parts = NULL;
	return 0;
}

int
mlx4v_mr_destroy(struct mlx4v_mr *mr)
{
	int ret;

	if (mlx4v_obj_find(mr, MLX4V_OBJ_MR) == NULL)
		return -EINVAL;
	if (mr->parts != NULL) {
		ret = mlx4v_mr_parts_destroy(mr);
		if (ret)
			return ret;
		mlx4v_obj_free(&mr->obj);
		return 0;
	}
	return mlx4v_mr_unbuild(mr);
}

/* The VA ranges of a mempool: its chunks, merged where nothing but memory separates them. */
struct mlx4v_mr_ranges {
	struct rte_pmd_mlx4v_mr_range r[RTE_PMD_MLX4V_MR_MAX_RANGES];
	unsigned int n;
	int ret;
};

/* rte_mempool_mem_iter() callback: add one memory chunk of the pool, in address order. */
static void
mlx4v_mr_chunk_cb(struct rte_mempool *mp, void *opaque, struct rte_mempool_memhdr *memhdr,
		  unsigned int mem_idx)
{
	struct mlx4v_mr_ranges *rs = opaque;
	uintptr_t start = (uintptr_t)memhdr->addr;
	unsigned int i;

	RTE_SET_USED(mp);
	RTE_SET_USED(mem_idx);
	if (rs->ret != 0)
		return;
	/* Each chunk must be DMA-capable memory. */
	rs->ret = mlx4v_mr_mem_check(memhdr->addr, memhdr->len);
	if (rs->ret != 0)
		return;
	if (rs->n == RTE_DIM(rs->r)) {
		MLX4V_LOG(ERR, "mempool %s: more than %u memory chunks", mp->name,
			  RTE_PMD_MLX4V_MR_MAX_RANGES);
		rs->ret = -E2BIG;
		return;
	}
	for (i = rs->n; i > 0 && rs->r[i - 1].addr > start; i--)
		rs->r[i] = rs->r[i - 1];
	rs->r[i].addr = start;
	rs->r[i].len = memhdr->len;
	rs->n++;
}

/*
 * Merge neighbouring chunks whose gap is DMA-capable memory (other EAL allocations): the kernel
 * pins such a span as it is. A gap that is not (unmapped or inaccessible address space between
 * memseg lists or external areas) splits the pool: the kernel cannot pin a page that is not
 * there, ibv_reg_mr() fails with EFAULT (doc/guides/nics/mlx4v.rst, memory registration).
 */
static void
mlx4v_mr_ranges_merge(struct mlx4v_mr_ranges *rs)
{
	uintptr_t end, next;
	unsigned int i, n = 0;

	for (i = 0; i < rs->n; i++) {
		if (n > 0) {
			end = rs->r[n - 1].addr + rs->r[n - 1].len;
			next = rs->r[i].addr;
			if (next <= end || mlx4v_mr_mem_covered((void *)end, next - end)) {
				rs->r[n - 1].len = RTE_MAX(end, next + rs->r[i].len) -
					rs->r[n - 1].addr;
				continue;
			}
		}
		rs->r[n++] = rs->r[i];
	}
	rs->n = n;
}

/* A mempool MR: one MR per range, or for one range that MR itself. Verbs lock held. */
static struct mlx4v_mr *
mlx4v_mr_create_ranges(struct mlx4v_pd *pd, const struct mlx4v_mr_ranges *rs)
{
	const struct rte_pmd_mlx4v_mr_range *last = &rs->r[rs->n - 1];
	struct mlx4v_mr *mr, *part;
	unsigned int i;
	int ret;

	if (mlx4v_obj_find(pd, MLX4V_OBJ_PD) == NULL)
		return NULL;
	if (rs->n == 1)
		return mlx4v_mr_create(pd, (void *)rs->r[0].addr, rs->r[0].len);
	mr = mlx4v_obj_alloc(pd->obj.ctx, MLX4V_OBJ_MR, sizeof(*mr));
	if (mr == NULL)
		return NULL;
	mr->parts = rte_zmalloc_socket("mlx4v_mr_parts", rs->n * sizeof(mr->parts[0]), 0,
				       pd->obj.ctx->socket);
	if (mr->parts == NULL) {
		ret = -ENOMEM;
		goto err_free;
	}
	for (i = 0; i < rs->n; i++) {
		part = mlx4v_mr_build(pd, (void *)rs->r[i].addr, rs->r[i].len);
		if (part == NULL) {
			ret = -rte_errno;
			goto err_parts_destroy;
		}
		mr->parts[mr->nb_parts++] = part;
	}
	mr->pd = pd;
	mr->addr = (void *)rs->r[0].addr;
	mr->len = last->addr + last->len - rs->r[0].addr;
	mr->lkey = MLX4V_INVALID_LKEY;
	mlx4v_obj_publish(&mr->obj);
	return mr;

err_parts_destroy:
	mlx4v_mr_parts_destroy(mr);
err_free:
	rte_free(mr->parts);
	mlx4v_obj_free(&mr->obj);
	rte_errno = -ret;
	return NULL;
}

struct rte_pmd_mlx4v_mr *
rte_pmd_mlx4v_reg_mr(struct rte_pmd_mlx4v_pd *pd, void *addr, size_t len)
{
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_mr_create((struct mlx4v_pd *)pd, addr, len));
}

struct rte_pmd_mlx4v_mr *
rte_pmd_mlx4v_reg_mempool(struct rte_pmd_mlx4v_pd *pd, struct rte_mempool *mp)
{
	struct mlx4v_mr_ranges *rs;
	struct mlx4v_mr *mr = NULL;

	if (mp == NULL || mp->nb_mem_chunks == 0) {
		MLX4V_LOG(ERR, "mempool %s has no memory", mp != NULL ? mp->name : "(null)");
		rte_errno = EINVAL;
		errno = EINVAL;
		return NULL;
	}
	rs = rte_zmalloc("mlx4v_mr_ranges", sizeof(*rs), 0);
	if (rs == NULL) {
		rte_errno = ENOMEM;
		errno = ENOMEM;
		return NULL;
	}
	/* Outside the lock, since it only reads the pool and the memory map. */
	rte_mempool_mem_iter(mp, mlx4v_mr_chunk_cb, rs);
	if (rs->ret == 0)
		mlx4v_mr_ranges_merge(rs);
	if (rs->ret != 0) {
		rte_errno = -rs->ret;
	} else {
		mlx4v_verbs_lock();
		mr = mlx4v_mr_create_ranges((struct mlx4v_pd *)pd, rs);
		mlx4v_verbs_unlock();
	}
	rte_free(rs);
	return mlx4v_obj_ptr(mr);
}

int
rte_pmd_mlx4v_dereg_mr(struct rte_pmd_mlx4v_mr *mr)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_mr_destroy((struct mlx4v_mr *)mr));
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
	else if (((const struct mlx4v_mr *)obj)->parts != NULL)
		/* One lkey per range: the caller needs rte_pmd_mlx4v_mr_ranges(). */
		ret = -ENOTUNIQ;
	else
		*lkey = ((const struct mlx4v_mr *)obj)->lkey;
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}

int
rte_pmd_mlx4v_mr_ranges(const struct rte_pmd_mlx4v_mr *mr, struct rte_pmd_mlx4v_mr_range *ranges,
			unsigned int n, unsigned int *count)
{
	const struct mlx4v_mr *m;
	const struct mlx4v_mr *part;
	unsigned int i, nb;
	int ret = 0;

	mlx4v_verbs_lock();
	m = (const struct mlx4v_mr *)mlx4v_obj_find(mr, MLX4V_OBJ_MR);
	if (m == NULL || count == NULL || (ranges == NULL && n > 0)) {
		ret = -EINVAL;
		goto out;
	}
	nb = m->parts != NULL ? m->nb_parts : 1;
	for (i = 0; i < nb && i < n; i++) {
		part = m->parts != NULL ? m->parts[i] : m;
		ranges[i].addr = (uintptr_t)part->addr;
		ranges[i].len = part->len;
		ranges[i].lkey = part->lkey;
	}
	*count = nb;
out:
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}
