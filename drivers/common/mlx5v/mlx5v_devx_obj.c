/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file DEVX handles: memory never reused, the registry of live handles, the device context. */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_rwlock.h>

#include "mlx5v_devx_policy.h"
#include "mlx5v_devx_priv.h"
#include "mlx5v_log.h"

/* ---- handle memory: addresses never reused ---- */

/*
 * The objects whose address is a handle (MSI vectors, EQs, UARs, CQs) live in anonymous
 * mappings whose addresses are never given out twice: a stale copy of a handle can never
 * name a newer object, so it stays EINVAL for the life of the process (a heap allocator
 * would hand the same address to the next object; see doc/guides/nics/mlx5v_devx.rst,
 * "Handle lifetime"). Objects are carved from a chunk in address order; a page whose
 * objects are all freed and that no later object can share goes back to the kernel with
 * MADV_DONTNEED, so only address space stays reserved (a few KiB per object created).
 */
#define MLX5V_DEVX_HMEM_CHUNK (4u << 20)   /**< bytes of address space per mapping */
#define MLX5V_DEVX_HMEM_ALIGN 64u          /**< object alignment (a cache line) */

struct mlx5v_devx_hmem_chunk {
	TAILQ_ENTRY(mlx5v_devx_hmem_chunk) next;
	uint8_t *base;
	size_t used;            /**< bytes carved; nothing below is carved again */
	unsigned int objs;      /**< objects of the chunk not yet freed */
	uint16_t *live;         /**< per page: objects overlapping it not yet freed */
};

static pthread_mutex_t mlx5v_devx_hmem_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, mlx5v_devx_hmem_chunk) mlx5v_devx_hmem_chunks =
	TAILQ_HEAD_INITIALIZER(mlx5v_devx_hmem_chunks);
static struct mlx5v_devx_hmem_chunk *mlx5v_devx_hmem_cur; /**< the chunk being carved */
static size_t mlx5v_devx_hmem_page;

/* Give page i back if nothing live is on it and no object will be carved on it. Lock held. */
static void
mlx5v_devx_hmem_page_trim(struct mlx5v_devx_hmem_chunk *c, size_t i)
{
	if (c->live[i] == 0 && (i + 1) * mlx5v_devx_hmem_page <= c->used)
		madvise(c->base + i * mlx5v_devx_hmem_page, mlx5v_devx_hmem_page, MADV_DONTNEED);
}

/* Stop carving the current chunk. Its mapping stays, so its addresses are never reused. */
static void
mlx5v_devx_hmem_retire_cur(void)
{
	struct mlx5v_devx_hmem_chunk *c = mlx5v_devx_hmem_cur;
	size_t last;

	if (c == NULL)
		return;
	mlx5v_devx_hmem_cur = NULL;
	/* The page of the last carved byte; the pages after it were never touched. */
	last = c->used == 0 ? 0 : (c->used - 1) / mlx5v_devx_hmem_page;
	c->used = MLX5V_DEVX_HMEM_CHUNK;
	if (c->objs == 0) {
		madvise(c->base, MLX5V_DEVX_HMEM_CHUNK, MADV_DONTNEED);
		TAILQ_REMOVE(&mlx5v_devx_hmem_chunks, c, next);
		free(c->live);
		free(c);
		return;
	}
	mlx5v_devx_hmem_page_trim(c, last);
}

/* @return zeroed memory for an object whose address is a handle, or NULL (no memory). */
static void *
mlx5v_devx_hmem_alloc(size_t size)
{
	struct mlx5v_devx_hmem_chunk *c;
	size_t i, off;
	void *base;

	size = RTE_ALIGN_CEIL(size, MLX5V_DEVX_HMEM_ALIGN);
	if (size > MLX5V_DEVX_HMEM_CHUNK)
		return NULL;
	pthread_mutex_lock(&mlx5v_devx_hmem_lock);
	if (mlx5v_devx_hmem_page == 0)
		mlx5v_devx_hmem_page = (size_t)sysconf(_SC_PAGESIZE);
	c = mlx5v_devx_hmem_cur;
	if (c == NULL || c->used + size > MLX5V_DEVX_HMEM_CHUNK) {
		mlx5v_devx_hmem_retire_cur();
		c = calloc(1, sizeof(*c));
		if (c == NULL)
			goto err;
		c->live = calloc(MLX5V_DEVX_HMEM_CHUNK / mlx5v_devx_hmem_page, sizeof(c->live[0]));
		base = mmap(NULL, MLX5V_DEVX_HMEM_CHUNK, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (c->live == NULL || base == MAP_FAILED) {
			/* Nothing was carved from a failed mapping: it may be unmapped. */
			if (base != MAP_FAILED)
				munmap(base, MLX5V_DEVX_HMEM_CHUNK);
			free(c->live);
			free(c);
			goto err;
		}
		c->base = base;
		TAILQ_INSERT_TAIL(&mlx5v_devx_hmem_chunks, c, next);
		mlx5v_devx_hmem_cur = c;
	}
	off = c->used;
	c->used += size;
	c->objs++;
	for (i = off / mlx5v_devx_hmem_page; i <= (off + size - 1) / mlx5v_devx_hmem_page; i++)
		c->live[i]++;
	pthread_mutex_unlock(&mlx5v_devx_hmem_lock);
	/* Fresh (or given back, hence zero-filled) pages, but earlier objects may share one. */
	memset(c->base + off, 0, size);
	return c->base + off;
err:
	pthread_mutex_unlock(&mlx5v_devx_hmem_lock);
	return NULL;
}

/* Free an object of mlx5v_devx_hmem_alloc(size); its address is never handed out again. */
void
mlx5v_devx_hmem_free(void *p, size_t size)
{
	struct mlx5v_devx_hmem_chunk *c;
	size_t i, off;

	if (p == NULL)
		return;
	size = RTE_ALIGN_CEIL(size, MLX5V_DEVX_HMEM_ALIGN);
	pthread_mutex_lock(&mlx5v_devx_hmem_lock);
	TAILQ_FOREACH(c, &mlx5v_devx_hmem_chunks, next)
		if ((uint8_t *)p >= c->base && (uint8_t *)p < c->base + MLX5V_DEVX_HMEM_CHUNK)
			break;
	if (c == NULL) {
		/* Not ours: a bug of the caller in this file; keep the memory rather than crash. */
		pthread_mutex_unlock(&mlx5v_devx_hmem_lock);
		MLX5V_LOG(ERR, "DEVX handle memory %p freed twice or never allocated", p);
		return;
	}
	off = (size_t)((uint8_t *)p - c->base);
	for (i = off / mlx5v_devx_hmem_page; i <= (off + size - 1) / mlx5v_devx_hmem_page; i++) {
		c->live[i]--;
		mlx5v_devx_hmem_page_trim(c, i);
	}
	/* A chunk carved to the end and empty keeps only its address range. */
	if (--c->objs == 0 && c != mlx5v_devx_hmem_cur) {
		TAILQ_REMOVE(&mlx5v_devx_hmem_chunks, c, next);
		free(c->live);
		free(c);
	}
	pthread_mutex_unlock(&mlx5v_devx_hmem_lock);
}

/* ---- the registry of live handles ---- */

struct mlx5v_devx_ent {
	uintptr_t key;                 /**< the handle, compared and never dereferenced */
	struct mlx5v_devx_obj *obj;
};

/** Live handles of one kind, sorted by address; capacity reserved before each create. */
struct mlx5v_devx_set {
	struct mlx5v_devx_ent *ent;
	unsigned int n;
	unsigned int cap;
	unsigned int reserved;         /**< creates in progress, each owed one slot */
};

/*
 * One lock for every set and the context list. Lookups (read side) take references
 * with atomics; insertions, removals and ctx->dying change under the write side, so a
 * reader either took its reference before a removal or does not find the handle.
 */
static rte_rwlock_t mlx5v_devx_reg_lock = RTE_RWLOCK_INITIALIZER;
static struct mlx5v_devx_set mlx5v_devx_reg[MLX5V_DEVX_KIND_MAX];
static TAILQ_HEAD(, mlx5v_devx_ctx) mlx5v_devx_ctxs = TAILQ_HEAD_INITIALIZER(mlx5v_devx_ctxs);
/* Serialises context creation (it registers a core hook, which may sleep). */
static pthread_mutex_t mlx5v_devx_ctx_create_lock = PTHREAD_MUTEX_INITIALIZER;

/* @return the index of key in set, or -1. Registry lock held (either side). */
static int
mlx5v_devx_set_find(const struct mlx5v_devx_set *set, uintptr_t key)
{
	unsigned int lo = 0, hi = set->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (set->ent[mid].key == key)
			return (int)mid;
		if (set->ent[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * Owe one slot to a create in progress, so that publishing after the device command
 * cannot fail. @return 0 or -ENOMEM.
 */
static int
mlx5v_devx_reg_reserve(enum mlx5v_devx_kind kind)
{
	struct mlx5v_devx_set *set = &mlx5v_devx_reg[kind];
	struct mlx5v_devx_ent *ent;
	unsigned int need, cap;
	int ret = 0;

	rte_rwlock_write_lock(&mlx5v_devx_reg_lock);
	need = set->n + set->reserved + 1;
	if (need > set->cap) {
		cap = RTE_MAX(RTE_MAX(set->cap * 2, 16u), need);
		ent = realloc(set->ent, (size_t)cap * sizeof(*ent));
		if (ent == NULL) {
			ret = -ENOMEM;
			goto out;
		}
		set->ent = ent;
		set->cap = cap;
	}
	set->reserved++;
out:
	rte_rwlock_write_unlock(&mlx5v_devx_reg_lock);
	return ret;
}

/* Give back the slot of a create that failed. */
static void
mlx5v_devx_reg_cancel(enum mlx5v_devx_kind kind)
{
	rte_rwlock_write_lock(&mlx5v_devx_reg_lock);
	mlx5v_devx_reg[kind].reserved--;
	rte_rwlock_write_unlock(&mlx5v_devx_reg_lock);
}

/* Make a created object a live handle, in its reserved slot. */
void
mlx5v_devx_reg_publish(enum mlx5v_devx_kind kind, const void *handle,
		       struct mlx5v_devx_obj *obj, struct mlx5v_devx_ctx *ctx)
{
	struct mlx5v_devx_set *set = &mlx5v_devx_reg[kind];
	uintptr_t key = (uintptr_t)handle;
	unsigned int i = 0;

	obj->ctx = ctx;
	obj->refs = 0;
	obj->busy = 0;
	rte_rwlock_write_lock(&mlx5v_devx_reg_lock);
	set->reserved--;
	while (i < set->n && set->ent[i].key < key)
		i++;
	memmove(&set->ent[i + 1], &set->ent[i], (set->n - i) * sizeof(set->ent[0]));
	set->ent[i].key = key;
	set->ent[i].obj = obj;
	set->n++;
	rte_rwlock_write_unlock(&mlx5v_devx_reg_lock);
}

/* Remove handle from its set. Registry write lock held. */
static void
mlx5v_devx_reg_remove_locked(enum mlx5v_devx_kind kind, const void *handle)
{
	struct mlx5v_devx_set *set = &mlx5v_devx_reg[kind];
	int i = mlx5v_devx_set_find(set, (uintptr_t)handle);

	if (i < 0)
		return;
	memmove(&set->ent[i], &set->ent[i + 1], (set->n - i - 1) * sizeof(set->ent[0]));
	set->n--;
}

/*
 * Wait until *cnt reads 0. The holders are calls in flight; each is short or bounded
 * by a command timeout (mlx5v_tout.h), so this wait is bounded by them.
 */
static void
mlx5v_devx_wait_unused(uint32_t *cnt)
{
	unsigned int spins = 0;

	while (__atomic_load_n(cnt, __ATOMIC_ACQUIRE) != 0) {
		if (++spins < 1024)
			rte_pause();
		else
			sched_yield();
	}
}

/*
 * Look up a handle and take a reference on it and on its device state.
 * @return the header, or NULL if handle is not live (or its device is being removed).
 */
struct mlx5v_devx_obj *
mlx5v_devx_obj_get(enum mlx5v_devx_kind kind, const void *handle)
{
	struct mlx5v_devx_obj *obj = NULL;
	int i;

	if (handle == NULL)
		return NULL;
	rte_rwlock_read_lock(&mlx5v_devx_reg_lock);
	i = mlx5v_devx_set_find(&mlx5v_devx_reg[kind], (uintptr_t)handle);
	/* Found means not freed: removal from the set precedes every free. */
	if (i >= 0 && !mlx5v_devx_reg[kind].ent[i].obj->ctx->dying) {
		obj = mlx5v_devx_reg[kind].ent[i].obj;
		__atomic_fetch_add(&obj->refs, 1, __ATOMIC_ACQUIRE);
		__atomic_fetch_add(&obj->ctx->refs, 1, __ATOMIC_ACQUIRE);
	}
	rte_rwlock_read_unlock(&mlx5v_devx_reg_lock);
	return obj;
}

void
mlx5v_devx_obj_put(struct mlx5v_devx_obj *obj)
{
	struct mlx5v_devx_ctx *ctx = obj->ctx;

	/* Read ctx first: once refs drops, a destroyer may free obj. */
	__atomic_fetch_sub(&obj->refs, 1, __ATOMIC_RELEASE);
	__atomic_fetch_sub(&ctx->refs, 1, __ATOMIC_RELEASE);
}

void *
mlx5v_devx_obj_live(enum mlx5v_devx_kind kind, void *handle)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(kind, handle);

	if (obj == NULL)
		return NULL;
	mlx5v_devx_obj_put(obj);
	return handle;
}

/*
 * As mlx5v_devx_obj_get(), for a destroy/free: only one caller at a time gets the
 * object (a second, concurrent one is refused as a double destroy). The reference is
 * on the device state only; other calls may keep using the object meanwhile.
 */
struct mlx5v_devx_obj *
mlx5v_devx_obj_get_excl(enum mlx5v_devx_kind kind, const void *handle)
{
	struct mlx5v_devx_obj *obj = NULL;
	uint32_t idle = 0;
	int i;

	if (handle == NULL)
		return NULL;
	rte_rwlock_read_lock(&mlx5v_devx_reg_lock);
	i = mlx5v_devx_set_find(&mlx5v_devx_reg[kind], (uintptr_t)handle);
	if (i >= 0 && !mlx5v_devx_reg[kind].ent[i].obj->ctx->dying &&
	    __atomic_compare_exchange_n(&mlx5v_devx_reg[kind].ent[i].obj->busy, &idle, 1, 0,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		obj = mlx5v_devx_reg[kind].ent[i].obj;
		__atomic_fetch_add(&obj->ctx->refs, 1, __ATOMIC_ACQUIRE);
	}
	rte_rwlock_read_unlock(&mlx5v_devx_reg_lock);
	return obj;
}

/* The destroy failed: the object stays live. */
void
mlx5v_devx_obj_put_excl(struct mlx5v_devx_obj *obj)
{
	struct mlx5v_devx_ctx *ctx = obj->ctx;

	__atomic_store_n(&obj->busy, 0, __ATOMIC_RELEASE);
	__atomic_fetch_sub(&ctx->refs, 1, __ATOMIC_RELEASE);
}

/*
 * The destroy succeeded: unregister the handle (from now on every call with it is
 * EINVAL) and wait out the calls still using it. The caller then frees the object and
 * drops its context reference with mlx5v_devx_ctx_put(), saved beforehand.
 */
void
mlx5v_devx_obj_retire(enum mlx5v_devx_kind kind, const void *handle,
		      struct mlx5v_devx_obj *obj)
{
	rte_rwlock_write_lock(&mlx5v_devx_reg_lock);
	mlx5v_devx_reg_remove_locked(kind, handle);
	rte_rwlock_write_unlock(&mlx5v_devx_reg_lock);
	mlx5v_devx_wait_unused(&obj->refs);
}

/*
 * Take a reference on the DEVX state of a device handle, found by address.
 * @return 0, -EINVAL (NULL) or -ENODEV (not a device handle, or its removal began).
 */
int
mlx5v_devx_ctx_acquire(struct mlx5v_dev *dev, struct mlx5v_devx_ctx **out)
{
	struct mlx5v_devx_ctx *ctx;

	if (dev == NULL)
		return -EINVAL;
	rte_rwlock_read_lock(&mlx5v_devx_reg_lock);
	TAILQ_FOREACH(ctx, &mlx5v_devx_ctxs, next)
		if (ctx->dev == dev)
			break;
	if (ctx != NULL)
		__atomic_fetch_add(&ctx->refs, 1, __ATOMIC_ACQUIRE);
	rte_rwlock_read_unlock(&mlx5v_devx_reg_lock);
	if (ctx == NULL)
		return -ENODEV;
	*out = ctx;
	return 0;
}

void
mlx5v_devx_ctx_put(struct mlx5v_devx_ctx *ctx)
{
	__atomic_fetch_sub(&ctx->refs, 1, __ATOMIC_RELEASE);
}

void *
mlx5v_devx_obj_begin(struct mlx5v_dev *dev, enum mlx5v_devx_kind kind, size_t size,
		     struct mlx5v_devx_ctx **ctx)
{
	void *p;
	int ret;

	ret = mlx5v_devx_ctx_acquire(dev, ctx);
	if (ret < 0)
		goto err;
	p = mlx5v_devx_hmem_alloc(size);
	if (p == NULL) {
		ret = -ENOMEM;
		goto err_ctx_put;
	}
	ret = mlx5v_devx_reg_reserve(kind);
	if (ret == 0)
		return p;
	mlx5v_devx_hmem_free(p, size);
err_ctx_put:
	mlx5v_devx_ctx_put(*ctx);
err:
	rte_errno = -ret;
	return NULL;
}

void
mlx5v_devx_obj_abort(enum mlx5v_devx_kind kind, void *p, size_t size,
		     struct mlx5v_devx_ctx *ctx, int ret)
{
	mlx5v_devx_reg_cancel(kind);
	mlx5v_devx_hmem_free(p, size);
	mlx5v_devx_ctx_put(ctx);
	rte_errno = -ret;
}

/*
 * DESTROY_EQ, DESTROY_CQ or DEALLOC_UAR of object id. Through cmd_exec, as rdma-core
 * destroys: a translated errno, never EREMOTEIO (prm/mlx5 §11.5).
 */
int
mlx5v_devx_destroy_cmd(struct mlx5v_dev *dev, uint16_t opcode, uint32_t id)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE] = { 0 };
	uint8_t out[MLX5V_CMD_HDR_SIZE] = { 0 };

	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, opcode);
	if (opcode == RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ)
		MLX5V_IFC_SET(destroy_eq_in, in, eq_number, id);
	else if (opcode == RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ)
		MLX5V_IFC_SET(destroy_cq_in, in, cqn, id);
	else
		MLX5V_IFC_SET(dealloc_uar_in, in, uar, id);
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

/* ---- device removal: destroy what the application left ---- */

/*
 * reset: a recovery's function reset, not a removal: the objects left are expected (their
 * users learn of it from the recovery's events), so they are counted in one line.
 */
static void
mlx5v_devx_ctx_release(struct mlx5v_devx_ctx *ctx, int reset)
{
	const uint32_t lvl = reset ? RTE_LOG_DEBUG : RTE_LOG_WARNING;
	unsigned int left = 0;
	struct mlx5v_devx_eq *eq;
	struct mlx5v_devx_uar *uar;
	struct mlx5v_devx_dma *d;
	struct mlx5v_devx_msi *msi;
	struct mlx5v_devx_cq *cq;
	struct mlx5v_dev *dev = ctx->dev;

	/*
	 * First the handles die: the device handle and every object handle of it answer
	 * ENODEV/EINVAL from now on. Then wait out the calls already in flight (each holds
	 * a context reference, creates and destroys included), so that nothing below races
	 * with the application and no object is half created or half destroyed.
	 */
	rte_rwlock_write_lock(&mlx5v_devx_reg_lock);
	ctx->dying = 1;
	TAILQ_REMOVE(&mlx5v_devx_ctxs, ctx, next);
	rte_rwlock_write_unlock(&mlx5v_devx_reg_lock);
	mlx5v_devx_wait_unused(&ctx->refs);
	rte_rwlock_write_lock(&mlx5v_devx_reg_lock);
	TAILQ_FOREACH(cq, &ctx->cqs, next)
		mlx5v_devx_reg_remove_locked(MLX5V_DEVX_KIND_CQ, cq);
	TAILQ_FOREACH(eq, &ctx->eqs, next)
		mlx5v_devx_reg_remove_locked(MLX5V_DEVX_KIND_EQ, eq);
	TAILQ_FOREACH(uar, &ctx->uars, next)
		mlx5v_devx_reg_remove_locked(MLX5V_DEVX_KIND_UAR, uar);
	TAILQ_FOREACH(msi, &ctx->msis, next)
		mlx5v_devx_reg_remove_locked(MLX5V_DEVX_KIND_MSI, msi);
	rte_rwlock_write_unlock(&mlx5v_devx_reg_lock);

	/* Reverse creation order: CQs reference EQs and UARs, EQs reference UARs. */
	while ((cq = TAILQ_FIRST(&ctx->cqs)) != NULL) {
		rte_log(lvl, mlx5v_logtype_eq, "mlx5v.eq: %s: DEVX CQ %u still alive at removal\n",
			dev->name, cq->cqn);
		left++;
		TAILQ_REMOVE(&ctx->cqs, cq, next);
		/*
		 * A CQ whose destroy fails is still alive and may write CQEs: its memory
		 * waits for DISABLE_HCA in the device's quarantine.
		 */
		if (mlx5v_devx_destroy_cmd(dev, RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ, cq->cqn) < 0) {
			struct mlx5v_dma_buf dma[] = { cq->ring_dma, cq->dbr_dma };

			mlx5v_dev_quarantine(dev, cq->buf, cq->size, dma, RTE_DIM(dma));
		} else {
			mlx5v_devx_cq_unmap(dev, cq);
			rte_free(cq->buf);
		}
		mlx5v_devx_hmem_free(cq, sizeof(*cq));
	}
	while ((eq = TAILQ_FIRST(&ctx->eqs)) != NULL) {
		rte_log(lvl, mlx5v_logtype_eq, "mlx5v.eq: %s: DEVX EQ %u still alive at removal\n",
			dev->name, eq->eqn);
		left++;
		TAILQ_REMOVE(&ctx->eqs, eq, next);
		/* The same for an EQ: its ring goes to quarantine, the rest is freed. */
		if (mlx5v_devx_destroy_cmd(dev, RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ, eq->eqn) < 0)
			mlx5v_eq_ring_quarantine(dev, &eq->ring);
		mlx5v_devx_eq_free(eq);
	}
	while ((uar = TAILQ_FIRST(&ctx->uars)) != NULL) {
		TAILQ_REMOVE(&ctx->uars, uar, next);
		mlx5v_devx_destroy_cmd(dev, RTE_PMD_MLX5V_CMD_OP_DEALLOC_UAR, uar->page_id);
		mlx5v_devx_hmem_free(uar, sizeof(*uar));
	}
	while ((d = TAILQ_FIRST(&ctx->dmas)) != NULL) {
		TAILQ_REMOVE(&ctx->dmas, d, next);
		mlx5v_hw_dma_unmap(mlx5v_dev_hw(dev), d->addr, d->iova, d->size);
		mlx5v_devx_dma_unreach(dev, d);
		free(d);
	}
	/* Vectors last: no EQ references them any more. */
	while ((msi = TAILQ_FIRST(&ctx->msis)) != NULL) {
		rte_log(lvl, mlx5v_logtype_eq,
			"mlx5v.eq: %s: DEVX MSI vector %u still allocated at removal\n",
			dev->name, msi->vector);
		left++;
		TAILQ_REMOVE(&ctx->msis, msi, next);
		mlx5v_msi_free(dev, msi->vector, msi->fd);
		mlx5v_devx_hmem_free(msi, sizeof(*msi));
	}
	if (reset && left != 0)
		MLX5V_EQ_LOG(INFO, "%s: function reset: %u DEVX CQs, EQs and MSI vectors released",
			     dev->name, left);
	/* The core's hook walk allows a hook to unregister itself from its callback. */
	mlx5v_dev_hook_unregister(dev, &ctx->hook);
	/* Objects of raw commands die with the device; only the table is the driver's. */
	mlx5v_devx_raw_destroy(ctx->raw);
	free(ctx);
}

/*
 * Core REMOVE hook, under the core's hook lock, before the device is torn down. RESET (a
 * recovery reset the function) ends the context the same way: its objects are gone from the
 * device, and the device is dead, so their destroys complete locally; every handle answers
 * an error from now on, and rte_pmd_mlx5v_dev_get() gives a new context once the device is
 * back (doc/guides/nics/mlx5v_devx.rst, "Recovery").
 */
static void
mlx5v_devx_dev_event(struct mlx5v_dev *dev, enum mlx5v_dev_event ev, void *arg)
{
	RTE_SET_USED(dev);
	if (ev != MLX5V_DEV_EVENT_REMOVE && ev != MLX5V_DEV_EVENT_RESET)
		return;
	mlx5v_devx_ctx_release(arg, ev == MLX5V_DEV_EVENT_RESET);
}

/* @return the context of a live dev, created if needed, or NULL with rte_errno. */
static struct mlx5v_devx_ctx *
mlx5v_devx_ctx_get(struct mlx5v_dev *dev)
{
	struct mlx5v_devx_ctx *ctx;
	int ret;

	pthread_mutex_lock(&mlx5v_devx_ctx_create_lock);
	rte_rwlock_read_lock(&mlx5v_devx_reg_lock);
	TAILQ_FOREACH(ctx, &mlx5v_devx_ctxs, next)
		if (ctx->dev == dev)
			break;
	rte_rwlock_read_unlock(&mlx5v_devx_reg_lock);
	if (ctx != NULL)
		goto out;
	ctx = calloc(1, sizeof(*ctx));
	if (ctx == NULL) {
		rte_errno = ENOMEM;
		goto out;
	}
	ctx->dev = dev;
	ctx->raw = mlx5v_devx_raw_create();
	if (ctx->raw == NULL) {
		free(ctx);
		ctx = NULL;
		rte_errno = ENOMEM;
		goto out;
	}
	rte_spinlock_init(&ctx->lock);
	TAILQ_INIT(&ctx->msis);
	TAILQ_INIT(&ctx->eqs);
	TAILQ_INIT(&ctx->uars);
	TAILQ_INIT(&ctx->dmas);
	TAILQ_INIT(&ctx->cqs);
	ctx->hook.event = mlx5v_devx_dev_event;
	ctx->hook.arg = ctx;
	/*
	 * Register and list under the core's (recursive) hook lock, which the REMOVE walk
	 * holds: REMOVE sees either no hook, or a hook whose context is listed. Registering
	 * is refused (-ENODEV) once the removal has begun: the context would outlive dev.
	 */
	pthread_mutex_lock(&dev->hook_lock);
	ret = mlx5v_dev_hook_register(dev, &ctx->hook);
	if (ret == 0) {
		rte_rwlock_write_lock(&mlx5v_devx_reg_lock);
		TAILQ_INSERT_TAIL(&mlx5v_devx_ctxs, ctx, next);
		rte_rwlock_write_unlock(&mlx5v_devx_reg_lock);
	}
	pthread_mutex_unlock(&dev->hook_lock);
	if (ret < 0) {
		mlx5v_devx_raw_destroy(ctx->raw);
		free(ctx);
		ctx = NULL;
		rte_errno = -ret;
	}
out:
	pthread_mutex_unlock(&mlx5v_devx_ctx_create_lock);
	return ctx;
}

struct mlx5v_dev *
mlx5v_devx_dev_get(const char *name)
{
	struct mlx5v_dev *dev;

	if (name == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	dev = mlx5v_dev_get(name);
	/* Only a loaded device has a command queue, an async EQ and a UAR. */
	if (!mlx5v_dev_is_live(dev)) {
		rte_errno = ENODEV;
		return NULL;
	}
	if (mlx5v_devx_ctx_get(dev) == NULL)
		return NULL;
	return dev;
}

int
mlx5v_devx_dev_call(const char *name, int (*fn)(struct mlx5v_dev *dev, void *arg), void *arg)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_dev *dev;
	int ret;

	if (fn == NULL)
		return -EINVAL;
	dev = mlx5v_devx_dev_get(name);
	if (dev == NULL)
		return -rte_errno;
	/* By address: fails (-ENODEV) if dev was removed since the lookup above. */
	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0)
		return ret;
	ret = fn(dev, arg);
	mlx5v_devx_ctx_put(ctx);
	return ret;
}
