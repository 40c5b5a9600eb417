/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file DEVX-style objects: EQs with the rdma-core create_eq contract, MSI, UAR, DMA, CQs. */

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_interrupts.h>
#include <rte_io.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_pause.h>
#include <rte_rwlock.h>

#include "mlx5v_class.h"
#include "mlx5v_dev.h"
#include "mlx5v_devx.h"
#include "mlx5v_devx_policy.h"
#include "mlx5v_log.h"
#include "mlx5v_prm_eth.h"
#include "mlxv_intr_unreg.h"

/* The smallest CQ ring: one IOMMU page, as rdma-core's iova_min_page_size. */
#define MLX5V_DEVX_MIN_RING 4096u

/* The handle is the object: the public structure is the first member. */
static_assert(offsetof(struct mlx5v_devx_msi, pub) == 0, "msi pub not first");
static_assert(offsetof(struct mlx5v_devx_eq, pub) == 0, "eq pub not first");
static_assert(offsetof(struct mlx5v_devx_uar, pub) == 0, "uar pub not first");

/** A range mapped with mlx5v_devx_dma_map(). */
struct mlx5v_devx_dma {
	TAILQ_ENTRY(mlx5v_devx_dma) next;
	uint8_t *addr;
	size_t size;
	uint64_t iova;
	/* External memory this range put into the container (ctr_len 0: none). */
	uint8_t *ctr_va;
	uint64_t ctr_iova;
	size_t ctr_len;
};

/**
 * DEVX state of one device. struct mlx5v_dev has no slot for it, so it lives in a
 * process-local registry keyed by the device address, created by mlx5v_devx_dev_get()
 * and torn down by the device's REMOVE hook (objects the application forgot are
 * destroyed then). Its presence in that registry is what makes a device handle valid.
 */
struct mlx5v_devx_ctx {
	TAILQ_ENTRY(mlx5v_devx_ctx) next;
	struct mlx5v_dev *dev;
	struct mlx5v_dev_hook hook;
	uint32_t refs;             /**< atomic: calls in flight on the device or its objects */
	int dying;                 /**< removal began; under the registry write lock */
	rte_spinlock_t lock;       /**< the lists; never held across a command */
	TAILQ_HEAD(, mlx5v_devx_msi) msis;
	TAILQ_HEAD(, mlx5v_devx_eq) eqs;
	TAILQ_HEAD(, mlx5v_devx_uar) uars;
	TAILQ_HEAD(, mlx5v_devx_dma) dmas;
	TAILQ_HEAD(, mlx5v_devx_cq) cqs;
	struct mlx5v_devx_raw *raw; /**< objects created by rte_pmd_mlx5v_devx_general_cmd() */
};

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
static void
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

/** Kinds of registered objects, one sorted set each. */
enum mlx5v_devx_kind {
	MLX5V_DEVX_KIND_MSI,
	MLX5V_DEVX_KIND_EQ,
	MLX5V_DEVX_KIND_UAR,
	MLX5V_DEVX_KIND_CQ,
	MLX5V_DEVX_KIND_MAX,
};

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
static void
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
static struct mlx5v_devx_obj *
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

static void
mlx5v_devx_obj_put(struct mlx5v_devx_obj *obj)
{
	struct mlx5v_devx_ctx *ctx = obj->ctx;

	/* Read ctx first: once refs drops, a destroyer may free obj. */
	__atomic_fetch_sub(&obj->refs, 1, __ATOMIC_RELEASE);
	__atomic_fetch_sub(&ctx->refs, 1, __ATOMIC_RELEASE);
}

/*
 * As mlx5v_devx_obj_get(), for a destroy/free: only one caller at a time gets the
 * object (a second, concurrent one is refused as a double destroy). The reference is
 * on the device state only; other calls may keep using the object meanwhile.
 */
static struct mlx5v_devx_obj *
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
static void
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
static void
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
static int
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

static void
mlx5v_devx_ctx_put(struct mlx5v_devx_ctx *ctx)
{
	__atomic_fetch_sub(&ctx->refs, 1, __ATOMIC_RELEASE);
}

static void mlx5v_devx_ctx_release(struct mlx5v_devx_ctx *ctx, int reset);

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

/* ---- MSI vectors ---- */

struct mlx5v_devx_msi *
mlx5v_devx_msi_alloc(struct mlx5v_dev *dev)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_msi *msi;
	int fd, v, ret;

	/* The context tracks the vector, so a device removal frees what is left. */
	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0)
		goto err;
	msi = mlx5v_devx_hmem_alloc(sizeof(*msi));
	if (msi == NULL) {
		ret = -ENOMEM;
		goto err_ctx_put;
	}
	ret = mlx5v_devx_reg_reserve(MLX5V_DEVX_KIND_MSI);
	if (ret < 0)
		goto err_msi_free;
	/* The core picks the lowest free vector >= 1 and attaches a non-blocking eventfd. */
	v = mlx5v_msi_alloc(dev, &fd);
	if (v < 0) {
		ret = v;
		goto err_reg_cancel;
	}
	msi->dev = dev;
	msi->vector = v;
	msi->fd = fd;
	msi->pub.vector = v;
	msi->pub.fd = fd;
	rte_spinlock_lock(&ctx->lock);
	TAILQ_INSERT_TAIL(&ctx->msis, msi, next);
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_reg_publish(MLX5V_DEVX_KIND_MSI, msi, &msi->obj, ctx);
	MLX5V_EQ_LOG(DEBUG, "%s: DEVX MSI vector %d allocated, fd %d", dev->name, v, fd);
	mlx5v_devx_ctx_put(ctx);
	return msi;

err_reg_cancel:
	mlx5v_devx_reg_cancel(MLX5V_DEVX_KIND_MSI);
err_msi_free:
	mlx5v_devx_hmem_free(msi, sizeof(*msi));
err_ctx_put:
	mlx5v_devx_ctx_put(ctx);
err:
	rte_errno = -ret;
	return NULL;
}

struct mlx5v_devx_msi *
mlx5v_devx_to_msi(struct rte_pmd_mlx5v_msi_vector *pub)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_MSI, pub);

	if (obj == NULL)
		return NULL;
	mlx5v_devx_obj_put(obj);
	return (struct mlx5v_devx_msi *)pub;
}

int
mlx5v_devx_msi_free(struct mlx5v_devx_msi *msi)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get_excl(MLX5V_DEVX_KIND_MSI, msi);
	struct mlx5v_devx_ctx *ctx;
	int ret;

	/* Not live: freed already (also by the device removal), or never a vector of ours. */
	if (obj == NULL)
		return -EINVAL;
	ctx = obj->ctx;
	/*
	 * The caller can write the public fields, so they are only compared: a vector or fd
	 * that is not what this object was given (vector 0, out of range, another vector's
	 * fields) is EINVAL and keeps the object, as rdma-core's checks of those fields do,
	 * but what is freed is always this object's own vector and fd. Unlike rdma-core, a
	 * vector still used by a live EQ gives EBUSY (prm/mlx5 §12 #10).
	 */
	if (msi->pub.vector < 0 || (unsigned int)msi->pub.vector != msi->vector ||
	    msi->pub.fd != msi->fd)
		ret = -EINVAL;
	else
		ret = mlx5v_msi_free(msi->dev, msi->vector, msi->fd);
	if (ret < 0) {
		mlx5v_devx_obj_put_excl(obj);
		return ret;
	}
	mlx5v_devx_obj_retire(MLX5V_DEVX_KIND_MSI, msi, obj);
	rte_spinlock_lock(&ctx->lock);
	TAILQ_REMOVE(&ctx->msis, msi, next);
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_hmem_free(msi, sizeof(*msi));
	mlx5v_devx_ctx_put(ctx);
	return 0;
}

/* ---- EQs ---- */

static int
mlx5v_devx_eq_destroy_cmd(struct mlx5v_dev *dev, uint32_t eqn)
{
	uint8_t in[MLX5V_IFC_BYTES(destroy_eq_in)];
	uint8_t out[MLX5V_IFC_BYTES(destroy_eq_out)];

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	MLX5V_IFC_SET(destroy_eq_in, in, opcode, RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ);
	MLX5V_IFC_SET(destroy_eq_in, in, eq_number, eqn);
	/* rdma-core destroys through cmd_exec: a translated errno, never EREMOTEIO (§11.5). */
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

struct mlx5v_devx_eq *
mlx5v_devx_eq_create(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		     size_t outlen)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_eq *eq;
	const uint8_t *eqc;
	uint8_t *cin;
	uint8_t *db;
	size_t cinlen;
	unsigned int i;
	int ret;

	/*
	 * rdma-core's checks, in its order (§11.4 step 1), plus what it misses (§12 #9):
	 * intr is read as 12 bits and must name a vector the caller allocated, and outlen
	 * must hold eq_number (byte 0x0b).
	 */
	if (dev == NULL || in == NULL || out == NULL)
		goto einval;
	/* Nor more than the device takes: EINVAL before the ring is allocated (prm/mlx5 §3.3). */
	if (inlen < MLX5V_IFC_BYTES(create_eq_in) || inlen > RTE_PMD_MLX5V_CMD_MAX_LEN)
		goto einval;
	if (MLX5V_IFC_GET(cmd_in_hdr, in, opcode) != RTE_PMD_MLX5V_CMD_OP_CREATE_EQ)
		goto einval;
	eqc = MLX5V_IFC_ADDR_OF(create_eq_in, in, eqc);
	/*
	 * Vector 0 belongs to the driver's async EQ ([R] rejects intr == 0 too, prm/mlx5 §11.4
	 * step 1, §11.8).
	 */
	if (MLX5V_IFC_GET(eqc, eqc, intr) == MLX5V_ASYNC_EQ_VECTOR)
		goto einval;
	if (outlen < MLX5V_IFC_BYTES(create_eq_out))
		goto einval;
	/*
	 * Command completions and page requests go to the first EQ that asks for them; the
	 * driver's async EQ owns them, and an application EQ asking too could take them from it
	 * (a documented strengthening over rdma-core, doc/guides/nics/mlx5v_devx.rst).
	 */
	if (MLX5V_IFC_ARRAY_GET64(create_eq_in, in, event_bitmask, 0) &
	    (RTE_BIT64(RTE_PMD_MLX5V_EVENT_CMD) | RTE_BIT64(RTE_PMD_MLX5V_EVENT_PAGE_REQUEST)))
		goto einval;
	/* The arguments are sound; now the device handle, by address only. */
	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	eq = mlx5v_devx_hmem_alloc(sizeof(*eq));
	if (eq == NULL) {
		ret = -ENOMEM;
		goto err_ctx_put;
	}
	ret = mlx5v_devx_reg_reserve(MLX5V_DEVX_KIND_EQ);
	if (ret < 0)
		goto err_eq_free;
	eq->dev = dev;
	rte_spinlock_init(&eq->lock);
	/*
	 * log_eq_size is not checked against log_max_eq_sz here: like [R], firmware gets the value
	 * as given and answers BAD_PARAM through the outbox (prm/mlx5 §11.4 step 1).
	 */
	eq->log_nent = MLX5V_IFC_GET(eqc, eqc, log_eq_size);
	eq->vector = MLX5V_IFC_GET(eqc, eqc, intr);
	eq->uar_page = MLX5V_IFC_GET(eqc, eqc, uar_page);
	for (i = 0; i < 4; i++)
		eq->mask[i] = MLX5V_IFC_ARRAY_GET64(create_eq_in, in, event_bitmask, i);
	/*
	 * Reference the vector first: it fails (EINVAL) unless the vector is allocated, and
	 * from here on the vector cannot be freed under the EQ (EBUSY).
	 */
	ret = mlx5v_msi_eq_ref(dev, eq->vector, 1);
	if (ret < 0)
		goto err_reg_cancel;
	/*
	 * Owner bytes are 1 BEFORE CREATE_EQ, which rdma-core leaves to the caller (§11.7
	 * risk), and one PAS covers the ring (§11.4 step 8). A failed DMA mapping is a
	 * local error: its errno, never EREMOTEIO, and the ring is already freed.
	 */
	ret = mlx5v_eq_ring_alloc(dev, eq->log_nent, "mlx5v_devx_eq_buf", &eq->ring);
	if (ret < 0)
		goto err_msi_unref;
	/* A private copy: the caller's mailbox is never modified (const in). */
	/*
	 * Room for one PAS per IOVA-contiguous chunk of the ring (one with IOVA as VA) even when
	 * the caller passed exactly 0x110; bytes past the last PAS in a longer input are kept, as
	 * [R] does (prm/mlx5 §11.4 step 8).
	 */
	cinlen = RTE_MAX(inlen, (size_t)MLX5V_IFC_BYTE_OFF(create_eq_in, pas) +
			 8 * (size_t)mlx5v_eq_ring_npas(&eq->ring));
	cin = calloc(1, cinlen);
	if (cin == NULL) {
		ret = -ENOMEM;
		goto err_ring_free;
	}
	memcpy(cin, in, inlen);
	mlx5v_eq_ring_pas_set(&eq->ring, cin);
	/* cmd_do: a device failure is -EREMOTEIO with status and syndrome in out (§3.9). */
	ret = mlx5v_cmd_do(dev, cin, cinlen, out, outlen);
	free(cin);
	/*
	 * Timed out: the device may still create the EQ on this ring; the command layer
	 * destroys it when the completion arrives, the ring waits for DISABLE_HCA
	 * (doc/guides/sim/fault_matrix.rst, "Late completions").
	 */
	if (ret == -ETIMEDOUT)
		mlx5v_eq_ring_quarantine(dev, &eq->ring);
	if (ret < 0)
		goto err_ring_free;
	/*
	 * eq_number is 8 bits at out 0x0b; outlen >= 16 was checked above, so it is the device's
	 * value and not stale caller memory (prm/mlx5 §12 #9).
	 */
	eq->eqn = MLX5V_IFC_GET(create_eq_out, out, eq_number);
	db = mlx5v_hw_uar_addr(mlx5v_dev_hw(dev), eq->uar_page);
	/*
	 * No doorbell when the UAR page is not mapped by the backend: poll and arm then fail with
	 * -ENOTSUP instead of writing to a wild address.
	 */
	eq->db = db != NULL ? db + MLX5V_IFC_BYTE_OFF(uar_page, eq_db_arm) : NULL;
	eq->pub.vaddr = eq->ring.buf;
	rte_spinlock_lock(&ctx->lock);
	TAILQ_INSERT_TAIL(&ctx->eqs, eq, next);
	rte_spinlock_unlock(&ctx->lock);
	/* Last: the handle becomes valid only once the EQ is complete. */
	mlx5v_devx_reg_publish(MLX5V_DEVX_KIND_EQ, eq, &eq->obj, ctx);
	MLX5V_EQ_LOG(DEBUG, "%s: DEVX EQ %u: %u entries, vector %u, UAR %u, IOVA 0x%" PRIx64,
		     dev->name, eq->eqn, eq->ring.nent, eq->vector, eq->uar_page, eq->ring.iova);
	mlx5v_devx_ctx_put(ctx);
	return eq;

err_ring_free:
	mlx5v_eq_ring_free(dev, &eq->ring);
err_msi_unref:
	mlx5v_msi_eq_ref(dev, eq->vector, -1);
err_reg_cancel:
	mlx5v_devx_reg_cancel(MLX5V_DEVX_KIND_EQ);
err_eq_free:
	mlx5v_devx_hmem_free(eq, sizeof(*eq));
err_ctx_put:
	mlx5v_devx_ctx_put(ctx);
	rte_errno = -ret;
	return NULL;
einval:
	rte_errno = EINVAL;
	return NULL;
}

struct mlx5v_devx_eq *
mlx5v_devx_to_eq(struct rte_pmd_mlx5v_eq *pub)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, pub);

	if (obj == NULL)
		return NULL;
	mlx5v_devx_obj_put(obj);
	return (struct mlx5v_devx_eq *)pub;
}

static int mlx5v_devx_eq_intr_stop_one(struct mlx5v_devx_eq *eq);

/* Free the software side of an EQ the device no longer references and nobody uses. */
static void
mlx5v_devx_eq_free(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_dev *dev = eq->dev;

	/* The interrupt callback holds no reference: stop it (and wait for it) first. */
	mlx5v_devx_eq_intr_stop_one(eq);
	/* rdma-core leaks the ring here (§12 #1); we free it. */
	mlx5v_eq_ring_free(dev, &eq->ring);
	mlx5v_msi_eq_ref(dev, eq->vector, -1);
	mlx5v_devx_hmem_free(eq, sizeof(*eq));
}

int
mlx5v_devx_eq_destroy(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get_excl(MLX5V_DEVX_KIND_EQ, eq);
	struct mlx5v_devx_ctx *ctx;
	int ret;

	/* Not live: destroyed already (also by the device removal), or never an EQ of ours. */
	if (obj == NULL)
		return -EINVAL;
	ctx = obj->ctx;
	ret = mlx5v_devx_eq_destroy_cmd(eq->dev, eq->eqn);
	if (ret < 0) {
		mlx5v_devx_obj_put_excl(obj);
		return ret;   /* the device still owns the EQ: keep everything */
	}
	/* From here the handle is EINVAL for everybody; wait out calls still using it. */
	mlx5v_devx_obj_retire(MLX5V_DEVX_KIND_EQ, eq, obj);
	rte_spinlock_lock(&ctx->lock);
	TAILQ_REMOVE(&ctx->eqs, eq, next);
	rte_spinlock_unlock(&ctx->lock);
	MLX5V_EQ_LOG(DEBUG, "%s: DEVX EQ %u destroyed", eq->dev->name, eq->eqn);
	mlx5v_devx_eq_free(eq);
	mlx5v_devx_ctx_put(ctx);
	return 0;
}

struct mlx5v_devx_eq *
mlx5v_devx_eq_find(struct mlx5v_dev *dev, uint32_t eqn)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_eq *eq;

	if (mlx5v_devx_ctx_acquire(dev, &ctx) < 0)
		return NULL;
	rte_spinlock_lock(&ctx->lock);
	TAILQ_FOREACH(eq, &ctx->eqs, next)
		if (eq->eqn == eqn)
			break;
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_ctx_put(ctx);
	return eq;
}

int
mlx5v_devx_eq_list(struct mlx5v_dev *dev, struct mlx5v_devx_eq **eqs, unsigned int n)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_eq *eq;
	unsigned int i = 0;
	int ret;

	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0)
		return ret;
	rte_spinlock_lock(&ctx->lock);
	TAILQ_FOREACH(eq, &ctx->eqs, next) {
		if (i < n && eqs != NULL)
			eqs[i] = eq;
		i++;
	}
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_ctx_put(ctx);
	return (int)i;
}

int
mlx5v_devx_eq_handler_set(struct mlx5v_devx_eq *eq, unsigned int type, mlx5v_devx_event_cb cb,
			  void *arg)
{
	struct mlx5v_devx_obj *obj;

	if (type > MLX5V_DEVX_EVENT_ANY)
		return -EINVAL;
	obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	if (obj == NULL)
		return -EINVAL;
	/* Under the poll lock: a handler never runs with a half-written entry. */
	rte_spinlock_lock(&eq->lock);
	eq->handler[type].cb = cb;
	eq->handler[type].arg = arg;
	rte_spinlock_unlock(&eq->lock);
	mlx5v_devx_obj_put(obj);
	return 0;
}

/* Doorbell with the driver CI. Poll lock held. */
static void
mlx5v_devx_eq_db(struct mlx5v_devx_eq *eq, int arm)
{
	uint8_t *db = eq->db + (arm ? 0 : MLX5V_IFC_BYTE_OFF(uar_page, eq_db_noarm) -
					   MLX5V_IFC_BYTE_OFF(uar_page, eq_db_arm));

	/*
	 * EQE reads complete before the device learns the CI (loads before a store), so
	 * a full barrier, not a write barrier; then the 32-bit MMIO doorbell
	 * (prm/mlx5 §6.10).
	 */
	rte_io_mb();
	mlx5v_hw_db_wr32(mlx5v_dev_hw(eq->dev), db, rte_pmd_mlx5v_eq_db_val(eq->eqn, eq->ci));
	if (arm)
		eq->stats.arms++;
	else
		eq->stats.ci_updates++;
}

/* mlx5v_devx_eq_poll() on an EQ known to be alive (a reference, or its own callback). */
static int
mlx5v_devx_eq_poll_one(struct mlx5v_devx_eq *eq)
{
	unsigned int cc = 0;
	int n = 0;
	uint8_t *eqe;
	uint8_t type;

	/* UAR not mapped (see mlx5v_devx_eq_create()). */
	if (eq->db == NULL)
		return -ENOTSUP;
	/* Another thread is draining this EQ: it will see whatever we would have. */
	if (!rte_spinlock_trylock(&eq->lock))
		return 0;
	eq->stats.polls++;
	/*
	 * rte_pmd_mlx5v_eq_next_eqe() applies the owner rule and the read barrier before the body
	 * is read (prm/mlx5 §6.8); handlers see a complete EQE.
	 */
	while ((eqe = rte_pmd_mlx5v_eq_next_eqe(eq->ring.buf, eq->ring.nent, eq->ci)) != NULL) {
		type = MLX5V_IFC_GET(eqe, eqe, type);
		eq->stats.by_type[type]++;
		/*
		 * Handlers run with eq->lock held on the polling thread (an lcore, or the EAL
		 * interrupt thread via mlx5v_devx_eq_intr_cb()); they must not poll or arm this EQ.
		 */
		if (eq->handler[type].cb != NULL)
			eq->handler[type].cb(eq->dev, eq->eqn, eqe, eq->handler[type].arg);
		else if (eq->handler[MLX5V_DEVX_EVENT_ANY].cb != NULL)
			eq->handler[MLX5V_DEVX_EVENT_ANY].cb(eq->dev, eq->eqn, eqe,
				eq->handler[MLX5V_DEVX_EVENT_ANY].arg);
		else
			eq->stats.unhandled++;
		eq->ci++;
		eq->stats.eqes++;
		n++;
		/* §6.9: the CI reaches the device at least every 128 EQEs, without arming. */
		if (++cc == RTE_PMD_MLX5V_NUM_SPARE_EQE) {
			mlx5v_devx_eq_db(eq, 0);
			cc = 0;
		}
	}
	/* Arm after every pass, even an empty one, as both reference drivers (§6.10). */
	/*
	 * An arm with EQEs still pending makes the device raise the vector again at once
	 * (prm/mlx5 §6.11), so a trylock loser above loses no wake-up.
	 */
	mlx5v_devx_eq_db(eq, 1);
	rte_spinlock_unlock(&eq->lock);
	return n;
}

int
mlx5v_devx_eq_poll(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	int ret;

	if (obj == NULL)
		return -EINVAL;
	ret = mlx5v_devx_eq_poll_one(eq);
	mlx5v_devx_obj_put(obj);
	return ret;
}

/*
 * Arm without consuming: for callers that poll by hand and want the next EQE to interrupt. Under
 * eq->lock so the CI written never moves backwards.
 */
static int
mlx5v_devx_eq_arm_one(struct mlx5v_devx_eq *eq)
{
	if (eq->db == NULL)
		return -ENOTSUP;
	rte_spinlock_lock(&eq->lock);
	mlx5v_devx_eq_db(eq, 1);
	rte_spinlock_unlock(&eq->lock);
	return 0;
}

int
mlx5v_devx_eq_arm(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	int ret;

	if (obj == NULL)
		return -EINVAL;
	ret = mlx5v_devx_eq_arm_one(eq);
	mlx5v_devx_obj_put(obj);
	return ret;
}

unsigned int
mlx5v_devx_eq_pending(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	unsigned int n = 0;

	if (obj == NULL)
		return 0;
	rte_spinlock_lock(&eq->lock);
	/* Counts without consuming; bounded by nent since a full ring is all software-owned. */
	while (n < eq->ring.nent &&
	       rte_pmd_mlx5v_eq_next_eqe(eq->ring.buf, eq->ring.nent, eq->ci + n) != NULL)
		n++;
	rte_spinlock_unlock(&eq->lock);
	mlx5v_devx_obj_put(obj);
	return n;
}

int
mlx5v_devx_eq_stats_get(struct mlx5v_devx_eq *eq, struct mlx5v_devx_eq_stats *st)
{
	struct mlx5v_devx_obj *obj;

	if (st == NULL)
		return -EINVAL;
	obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	if (obj == NULL)
		return -EINVAL;
	rte_spinlock_lock(&eq->lock);
	*st = eq->stats;
	rte_spinlock_unlock(&eq->lock);
	st->intrs = __atomic_load_n(&eq->stats.intrs, __ATOMIC_RELAXED);
	mlx5v_devx_obj_put(obj);
	return 0;
}

int
mlx5v_devx_eq_info_get(struct mlx5v_devx_eq *eq, struct mlx5v_devx_eq_info *info)
{
	struct mlx5v_devx_obj *obj;

	if (info == NULL)
		return -EINVAL;
	obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	if (obj == NULL)
		return -EINVAL;
	info->eqn = eq->eqn;
	info->nent = 1u << eq->log_nent;
	info->vector = eq->vector;
	info->uar_page = eq->uar_page;
	memcpy(info->mask, eq->mask, sizeof(info->mask));
	info->vaddr = eq->pub.vaddr;
	info->size = eq->ring.size;
	info->iova = eq->ring.iova;
	info->intr = eq->ih != NULL;
	/*
	 * Not under eq->lock: the EQ's own handler runs with it held and asks for the index
	 * of the EQE it handles. One 32-bit word, written only by the lock holder.
	 */
	info->ci = __atomic_load_n(&eq->ci, __ATOMIC_RELAXED);
	mlx5v_devx_obj_put(obj);
	return 0;
}

/*
 * EAL interrupt thread, on the EQ's vector. The handle is EXT: EAL neither reads the
 * eventfd nor stops its level-triggered epoll, so drain the fd first (a raise after the
 * drain wakes us again), then consume and re-arm (prm/mlx5 §11.9, §11.7 step 8).
 * No registry lookup: the EQ is freed only after mlx5v_devx_eq_intr_stop_one() has
 * waited for this callback to return.
 */
/*
 * EAL interrupt thread. The handle is EXT-type, so EAL does not read the eventfd and its
 * level-triggered epoll would spin until we drain it (prm/mlx5 §11.9).
 */
static void
mlx5v_devx_eq_intr_cb(void *arg)
{
	struct mlx5v_devx_eq *eq = arg;
	uint64_t cnt;

	while (read(eq->intr_fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		;
	__atomic_fetch_add(&eq->stats.intrs, 1, __ATOMIC_RELAXED);
	mlx5v_devx_eq_poll_one(eq);
}

int
mlx5v_devx_eq_intr_start(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	struct rte_intr_handle *ih = NULL;
	int fd, ret;

	if (obj == NULL)
		return -EINVAL;
	/* Under the poll lock: two racing starts of one EQ cannot both register. */
	rte_spinlock_lock(&eq->lock);
	if (eq->ih != NULL) {
		ret = -EEXIST;
		goto out;
	}
	rte_spinlock_lock(&eq->dev->msi.lock);
	/*
	 * Vector v >= 1 maps to the eventfd the MSI layer set up for it (efds[v - 1] on vfio-pci,
	 * one eventfd per vector in the simulator, prm/mlx5 §11.9).
	 */
	fd = eq->vector < eq->dev->msi.count ? eq->dev->msi.fd[eq->vector] : -1;
	rte_spinlock_unlock(&eq->dev->msi.lock);
	if (fd < 0) {
		ret = -EINVAL;
		goto out;
	}
	ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (ih == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	if (rte_intr_type_set(ih, RTE_INTR_HANDLE_EXT) != 0 || rte_intr_fd_set(ih, fd) != 0) {
		ret = -EINVAL;
		goto err_ih_free;
	}
	/*
	 * Publish the fd before registering: the callback may run at once on the interrupt
	 * thread (the fd may already be readable), and an undrained fd spins the
	 * level-triggered epoll. Several EQs may share the vector: EAL then runs every
	 * callback of that fd. The callback only trylocks the poll lock held here.
	 */
	eq->intr_fd = fd;
	eq->ih = ih;
	ret = rte_intr_callback_register(ih, mlx5v_devx_eq_intr_cb, eq);
	if (ret < 0) {
		eq->ih = NULL;
		goto err_ih_free;
	}
	/* Arm so the first EQE raises the vector (a new EQ is not armed, §6.11). */
	if (eq->db != NULL)
		mlx5v_devx_eq_db(eq, 1);
	ret = 0;
	goto out;

err_ih_free:
	rte_intr_instance_free(ih);
out:
	rte_spinlock_unlock(&eq->lock);
	mlx5v_devx_obj_put(obj);
	return ret;
}

/* Stop the callback of an EQ known to be alive. */
static int
mlx5v_devx_eq_intr_stop_one(struct mlx5v_devx_eq *eq)
{
	struct rte_intr_handle *ih;

	rte_spinlock_lock(&eq->lock);
	ih = eq->ih;
	eq->ih = NULL;
	rte_spinlock_unlock(&eq->lock);
	if (ih == NULL)
		return -ENOENT;
	/*
	 * From another thread, wait until a running callback returns (plain unregister
	 * answers -EAGAIN then); on the interrupt thread this callback is not running.
	 * Not under the poll lock: the running callback may be waiting for it.
	 */
	/*
	 * rte_intr_callback_unregister() returns -EAGAIN while the callback runs; wait for it
	 * (prm/mlx5 §11.9).
	 */
	mlxv_intr_callback_unregister_wait(ih, mlx5v_devx_eq_intr_cb, eq);
	rte_intr_instance_free(ih);
	return 0;
}

int
mlx5v_devx_eq_intr_stop(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	int ret;

	if (obj == NULL)
		return -EINVAL;
	ret = mlx5v_devx_eq_intr_stop_one(eq);
	mlx5v_devx_obj_put(obj);
	return ret;
}

/* ---- misc ---- */

int
mlx5v_devx_query_eqn(struct mlx5v_dev *dev, uint32_t vector, uint32_t *eqn)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_eq *async;
	int ret;

	if (dev == NULL || eqn == NULL)
		return -EINVAL;
	/*
	 * rdma-core over VFIO serves only vector 0, with the async EQ; vectors used by
	 * created EQs are not served (§11.6, §12 #11).
	 */
	if (vector != MLX5V_ASYNC_EQ_VECTOR)
		return -EINVAL;
	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0)
		return ret;
	async = mlx5v_eq_async(dev);
	if (async == NULL)
		ret = -ENODEV;
	else
		*eqn = mlx5v_eq_eqn(async);
	mlx5v_devx_ctx_put(ctx);
	return ret;
}

/* Policy callback: eqn is an EQ of rte_pmd_mlx5v_devx_create_eq() on this device. */
static int
mlx5v_devx_policy_eq_owned(void *arg, uint32_t eqn)
{
	struct mlx5v_devx_ctx *ctx = arg;
	struct mlx5v_devx_eq *eq;

	rte_spinlock_lock(&ctx->lock);
	TAILQ_FOREACH(eq, &ctx->eqs, next)
		if (eq->eqn == eqn)
			break;
	rte_spinlock_unlock(&ctx->lock);
	return eq != NULL;
}

/* Policy callback: page is a UAR of rte_pmd_mlx5v_devx_alloc_uar() on this device. */
static int
mlx5v_devx_policy_uar_owned(void *arg, uint32_t page)
{
	struct mlx5v_devx_ctx *ctx = arg;
	struct mlx5v_devx_uar *uar;

	rte_spinlock_lock(&ctx->lock);
	TAILQ_FOREACH(uar, &ctx->uars, next)
		if (uar->page_id == page)
			break;
	rte_spinlock_unlock(&ctx->lock);
	return uar != NULL;
}

/*
 * Pass-through for device commands within the raw command policy (mlx5v_devx_policy.c,
 * doc/guides/nics/mlx5v_devx.rst): cmd_do semantics, so a firmware failure is -EREMOTEIO with
 * the outbox intact (prm/mlx5 §3.9), as [R] devx_general_cmd.
 */
int
mlx5v_devx_general_cmd(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		       size_t outlen)
{
	struct mlx5v_devx_policy_env env;
	struct mlx5v_devx_policy_req req;
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_eq *async;
	int ret;

	/* Lengths first: a malformed call is EINVAL whatever it asks for. */
	if (dev == NULL || in == NULL || out == NULL || inlen < MLX5V_CMD_HDR_SIZE ||
	    outlen < MLX5V_CMD_HDR_SIZE || inlen > RTE_PMD_MLX5V_CMD_MAX_LEN ||
	    outlen > RTE_PMD_MLX5V_CMD_MAX_LEN)
		return -EINVAL;
	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0)
		return ret;
	async = mlx5v_eq_async(dev);
	env = (struct mlx5v_devx_policy_env){
		.port_owned = !!(mlx5v_class_dev_flags(dev->name) & MLXV_CLASS_F_OWNS_PORT),
		.async_eqn = async != NULL ? mlx5v_eq_eqn(async) : UINT32_MAX,
		.eq_owned = mlx5v_devx_policy_eq_owned,
		.uar_owned = mlx5v_devx_policy_uar_owned,
		.arg = ctx,
	};
	ret = mlx5v_devx_policy_check(ctx->raw, &env, in, inlen, &req);
	if (ret == 0) {
		ret = mlx5v_cmd_do(dev, in, inlen, out, outlen);
		mlx5v_devx_policy_done(ctx->raw, &req, ret, out);
	}
	mlx5v_devx_ctx_put(ctx);
	return ret;
}

unsigned int
mlx5v_devx_raw_objects(struct mlx5v_dev *dev)
{
	struct mlx5v_devx_ctx *ctx;
	unsigned int n;

	if (mlx5v_devx_ctx_acquire(dev, &ctx) < 0)
		return 0;
	n = mlx5v_devx_raw_count(ctx->raw);
	mlx5v_devx_ctx_put(ctx);
	return n;
}

struct mlx5v_devx_uar *
mlx5v_devx_uar_alloc(struct mlx5v_dev *dev)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE];
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_uar *uar;
	uint8_t *base;
	uint32_t idx;
	int ret;

	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	uar = mlx5v_devx_hmem_alloc(sizeof(*uar));
	if (uar == NULL) {
		ret = -ENOMEM;
		goto err_ctx_put;
	}
	ret = mlx5v_devx_reg_reserve(MLX5V_DEVX_KIND_UAR);
	if (ret < 0)
		goto err_free;
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, RTE_PMD_MLX5V_CMD_OP_ALLOC_UAR);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret < 0)
		goto err_reg_cancel;
	idx = MLX5V_IFC_GET(alloc_uar_out, out, uar);
	base = mlx5v_hw_uar_addr(mlx5v_dev_hw(dev), idx);
	if (base == NULL) {
		ret = -ENXIO;
		goto err_dealloc;
	}
	uar->dev = dev;
	uar->page_id = idx;
	uar->pub.page_id = idx;
	uar->pub.base_addr = base;
	uar->pub.reg_addr = base + MLX5V_IFC_BYTE_OFF(uar_page, bf);
	rte_spinlock_lock(&ctx->lock);
	TAILQ_INSERT_TAIL(&ctx->uars, uar, next);
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_reg_publish(MLX5V_DEVX_KIND_UAR, uar, &uar->obj, ctx);
	mlx5v_devx_ctx_put(ctx);
	return uar;

err_dealloc:
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(dealloc_uar_in, in, opcode, RTE_PMD_MLX5V_CMD_OP_DEALLOC_UAR);
	MLX5V_IFC_SET(dealloc_uar_in, in, uar, idx);
	mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
err_reg_cancel:
	mlx5v_devx_reg_cancel(MLX5V_DEVX_KIND_UAR);
err_free:
	mlx5v_devx_hmem_free(uar, sizeof(*uar));
err_ctx_put:
	mlx5v_devx_ctx_put(ctx);
	rte_errno = -ret;
	return NULL;
}

struct mlx5v_devx_uar *
mlx5v_devx_to_uar(struct rte_pmd_mlx5v_uar *pub)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_UAR, pub);

	if (obj == NULL)
		return NULL;
	mlx5v_devx_obj_put(obj);
	return (struct mlx5v_devx_uar *)pub;
}

int
mlx5v_devx_uar_free(struct mlx5v_devx_uar *uar)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE];
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get_excl(MLX5V_DEVX_KIND_UAR, uar);
	struct mlx5v_devx_ctx *ctx;
	int ret;

	/* Not live: freed already (also by the device removal), or never a UAR of ours. */
	if (obj == NULL)
		return -EINVAL;
	ctx = obj->ctx;
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	MLX5V_IFC_SET(dealloc_uar_in, in, opcode, RTE_PMD_MLX5V_CMD_OP_DEALLOC_UAR);
	MLX5V_IFC_SET(dealloc_uar_in, in, uar, uar->page_id);
	ret = mlx5v_cmd_exec(uar->dev, in, sizeof(in), out, sizeof(out));
	if (ret < 0) {
		mlx5v_devx_obj_put_excl(obj);
		return ret;
	}
	mlx5v_devx_obj_retire(MLX5V_DEVX_KIND_UAR, uar, obj);
	rte_spinlock_lock(&ctx->lock);
	TAILQ_REMOVE(&ctx->uars, uar, next);
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_hmem_free(uar, sizeof(*uar));
	mlx5v_devx_ctx_put(ctx);
	return 0;
}

/*
 * Check that d's range is memory the IOMMU can reach and IOVA-contiguous, and put external
 * memory into the container (doc/guides/nics/running_on_hardware.rst, "IOVA modes"): EAL
 * maps its own memsegs into the VFIO container at start-up, never what an application
 * registers with rte_extmem_register().
 */
static int
mlx5v_devx_dma_reach(struct mlx5v_dev *dev, struct mlx5v_devx_dma *d)
{
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(d->addr);
	uintptr_t first, end;
	uint64_t io;
	int ret;

	if (msl == NULL || rte_mem_virt2memseg_list(d->addr + d->size - 1) != msl) {
		MLX5V_EQ_LOG(ERR, "%s: DMA map of %p + %zu: not EAL memory (register external "
			     "memory with rte_extmem_register() first)", dev->name, d->addr,
			     d->size);
		return -EINVAL;
	}
	ret = mlx5v_dma_contig(d->addr, d->size, &io);
	if (ret < 0) {
		MLX5V_EQ_LOG(ERR, "%s: DMA map of %p + %zu: %s", dev->name, d->addr, d->size,
			     ret == -EFAULT ? "a page has no IOVA (external memory registered "
			     "without an IOVA table?)" : "not IOVA-contiguous (IOVA as PA across "
			     "hugepages? use an RTE_MEMZONE_IOVA_CONTIG memzone)");
		return -EINVAL;
	}
	if (!msl->external)
		return 0;
	/* The container maps whole pages. */
	first = RTE_ALIGN_FLOOR((uintptr_t)d->addr, MLX5V_DMA_PAGE_SIZE);
	end = RTE_ALIGN_CEIL((uintptr_t)d->addr + d->size, MLX5V_DMA_PAGE_SIZE);
	ret = mlx5v_hw_container_map(mlx5v_dev_hw(dev), (void *)first,
				     io - ((uintptr_t)d->addr - first), end - first);
	/* Already there (mapped by the application): not ours to unmap later. */
	if (ret == -EEXIST)
		return 0;
	if (ret < 0) {
		MLX5V_EQ_LOG(ERR, "%s: cannot map external memory %p + %zu into the IOMMU "
			     "container: %s", dev->name, d->addr, d->size, strerror(-ret));
		return ret;
	}
	d->ctr_va = (uint8_t *)first;
	d->ctr_iova = io - ((uintptr_t)d->addr - first);
	d->ctr_len = end - first;
	return 0;
}

static void
mlx5v_devx_dma_unreach(struct mlx5v_dev *dev, struct mlx5v_devx_dma *d)
{
	if (d->ctr_len != 0)
		mlx5v_hw_container_unmap(mlx5v_dev_hw(dev), d->ctr_va, d->ctr_iova, d->ctr_len);
	d->ctr_len = 0;
}

int
mlx5v_devx_dma_map(struct mlx5v_dev *dev, void *addr, size_t size, uint64_t *iova)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_dma *d, *it;
	uint8_t *a = addr;
	int ret;

	if (dev == NULL || addr == NULL || size == 0 || iova == NULL)
		return -EINVAL;
	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0)
		return ret;
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	d->addr = a;
	d->size = size;
	/* Insert first (under the lock) so two racing maps of one range cannot both win. */
	rte_spinlock_lock(&ctx->lock);
	TAILQ_FOREACH(it, &ctx->dmas, next) {
		if (a < it->addr + it->size && it->addr < a + size) {
			rte_spinlock_unlock(&ctx->lock);
			free(d);
			ret = -EINVAL;
			goto out;
		}
	}
	TAILQ_INSERT_TAIL(&ctx->dmas, d, next);
	rte_spinlock_unlock(&ctx->lock);
	ret = mlx5v_devx_dma_reach(dev, d);
	if (ret == 0) {
		ret = mlx5v_hw_dma_map(mlx5v_dev_hw(dev), addr, size, &d->iova);
		if (ret < 0)
			mlx5v_devx_dma_unreach(dev, d);
	}
	if (ret < 0) {
		rte_spinlock_lock(&ctx->lock);
		TAILQ_REMOVE(&ctx->dmas, d, next);
		rte_spinlock_unlock(&ctx->lock);
		free(d);
		goto out;
	}
	*iova = d->iova;
out:
	mlx5v_devx_ctx_put(ctx);
	return ret;
}

int
mlx5v_devx_dma_unmap(struct mlx5v_dev *dev, void *addr, size_t size)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_dma *d;
	int ret;

	if (dev == NULL || addr == NULL)
		return -EINVAL;
	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0)
		return ret;
	rte_spinlock_lock(&ctx->lock);
	TAILQ_FOREACH(d, &ctx->dmas, next)
		if (d->addr == (uint8_t *)addr && d->size == size)
			break;
	if (d != NULL)
		TAILQ_REMOVE(&ctx->dmas, d, next);
	rte_spinlock_unlock(&ctx->lock);
	if (d == NULL) {
		mlx5v_devx_ctx_put(ctx);
		return -EINVAL;
	}
	mlx5v_hw_dma_unmap(mlx5v_dev_hw(dev), d->addr, d->iova, d->size);
	mlx5v_devx_dma_unreach(dev, d);
	free(d);
	mlx5v_devx_ctx_put(ctx);
	return 0;
}

/* ---- CQs ---- */

/* Unmap both windows of a CQ (either may be unmapped already). */
static void
mlx5v_devx_cq_unmap(struct mlx5v_dev *dev, struct mlx5v_devx_cq *cq)
{
	mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &cq->dbr_dma);
	mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &cq->ring_dma);
}

struct mlx5v_devx_cq *
mlx5v_devx_cq_create(struct mlx5v_dev *dev, unsigned int log_size, uint32_t eqn,
		     const struct rte_pmd_mlx5v_uar *uar)
{
	return mlx5v_devx_cq_create_opts(dev, log_size, eqn, uar, NULL);
}

_Static_assert(MLX5V_DEVX_MINI_CQE_HASH == MLX5V_MINI_CQE_FMT_HASH &&
	       MLX5V_DEVX_MINI_CQE_CSUM == MLX5V_MINI_CQE_FMT_CSUM &&
	       MLX5V_DEVX_MINI_CQE_FTAG == MLX5V_MINI_CQE_FMT_FTAG &&
	       MLX5V_DEVX_MINI_CQE_CSUM_STRIDX == MLX5V_MINI_CQE_FMT_CSUM_STRIDX &&
	       MLX5V_DEVX_MINI_CQE_L34H == MLX5V_MINI_CQE_FMT_L34H,
	       "mini_cqe_res_format values (prm/mlx5_eth §8.5)");

struct mlx5v_devx_cq *
mlx5v_devx_cq_create_opts(struct mlx5v_dev *dev, unsigned int log_size, uint32_t eqn,
			  const struct rte_pmd_mlx5v_uar *uar,
			  const struct mlx5v_devx_cq_opts *opts)
{
	uint8_t out[MLX5V_IFC_BYTES(create_cq_out)];
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_cq *cq;
	uint8_t *in = NULL;
	size_t ring, inlen;
	uint8_t *cqc;
	unsigned int i;
	int ret;

	/*
	 * Same limit as the EQ: log_size must describe a ring that one naturally aligned PAS can
	 * cover.
	 */
	if (dev == NULL || uar == NULL || log_size < 1 || log_size > 22) {
		rte_errno = EINVAL;
		return NULL;
	}
	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	cq = mlx5v_devx_hmem_alloc(sizeof(*cq));
	if (cq == NULL) {
		ret = -ENOMEM;
		goto err_ctx_put;
	}
	ret = mlx5v_devx_reg_reserve(MLX5V_DEVX_KIND_CQ);
	if (ret < 0)
		goto err_cq_free;
	cq->dev = dev;
	cq->nent = 1u << log_size;
	cq->eqn = eqn;
	cq->uar = *uar;
	/* Ring aligned to its power-of-two size (one PAS), then a page for the dbrec. */
	/*
	 * The dbrec sits in its own 4 KiB page after the ring so that the single PAS (log_page_size
	 * = log2(ring) - 12) covers only CQEs.
	 */
	ring = RTE_MAX((size_t)cq->nent * MLX5V_IFC_BYTES(cqe), (size_t)MLX5V_DEVX_MIN_RING);
	cq->size = ring + MLX5V_DEVX_MIN_RING;
	cq->buf = rte_zmalloc_socket("mlx5v_devx_cq", cq->size, ring, dev->socket);
	if (cq->buf == NULL) {
		ret = -ENOMEM;
		goto err_reg_cancel;
	}
	cq->dbrec = (volatile uint32_t *)(cq->buf + ring);
	/*
	 * Every CQE starts invalid and hardware-owned (prm/mlx5 §7.4; §12 #6 is the bug
	 * otherwise).
	 */
	for (i = 0; i < cq->nent; i++) {
		uint8_t *cqe = cq->buf + (size_t)i * MLX5V_IFC_BYTES(cqe);

		MLX5V_IFC_SET(cqe, cqe, opcode, RTE_PMD_MLX5V_CQE_OPCODE_INVALID);
		MLX5V_IFC_SET(cqe, cqe, owner, 1);
	}
	/*
	 * The CQEs as IOVA-contiguous chunks (one PAS each), the dbrec page as a window of its
	 * own: its IOVA is never the ring's plus an offset (prm/mlx5 §7.3, §11.9).
	 */
	ret = mlx5v_dma_buf_map(mlx5v_dev_hw(dev), cq->buf, ring, rte_log2_u64(ring),
				&cq->ring_dma);
	if (ret < 0)
		goto err_buf_free;
	ret = mlx5v_dma_buf_map(mlx5v_dev_hw(dev), cq->buf + ring, MLX5V_DEVX_MIN_RING,
				MLX5V_DMA_PAGE_SHIFT, &cq->dbr_dma);
	if (ret < 0)
		goto err_buf_unmap;
	cq->iova = cq->ring_dma.iova[0];
	inlen = MLX5V_IFC_BYTES(create_cq_in) + 8 * (size_t)cq->ring_dma.n;
	in = calloc(1, inlen);
	if (in == NULL) {
		ret = -ENOMEM;
		goto err_buf_unmap;
	}
	memset(out, 0, sizeof(out));
	MLX5V_IFC_SET(create_cq_in, in, opcode, RTE_PMD_MLX5V_CMD_OP_CREATE_CQ);
	cqc = MLX5V_IFC_ADDR_OF(create_cq_in, in, cqc);
	MLX5V_IFC_SET(cqc, cqc, log_cq_size, log_size);
	MLX5V_IFC_SET(cqc, cqc, uar_page, uar->page_id);
	/*
	 * c_eqn names the EQ that gets completion EQEs while the CQ is armed; binding to the
	 * vector-0 async EQ would lose them (prm/mlx5 §7.2, §6.13).
	 */
	MLX5V_IFC_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	MLX5V_IFC_SET(cqc, cqc, log_page_size, cq->ring_dma.shift - MLX5V_ADAPTER_PAGE_SHIFT);
	MLX5V_IFC_SET64(cqc, cqc, dbr_addr, cq->dbr_dma.iova[0]);
	if (opts != NULL && opts->cqe_comp_en) {
		/* Sessions of mini-CQEs behind a title CQE (prm/mlx5_eth §8.5). */
		MLX5V_IFC_SET(cqc, cqc, cqe_comp_en, 1);
		/* Formats above 3 take the extension field: L3/L4 is format 0, ext 1. */
		MLX5V_IFC_SET(cqc, cqc, mini_cqe_res_format, opts->mini_cqe_res_format & 3);
		MLX5V_IFC_SET(cqc, cqc, mini_cqe_res_format_ext, opts->mini_cqe_res_format >> 2);
	}
	mlx5v_dma_buf_pas_fill(&cq->ring_dma, in + MLX5V_IFC_BYTE_OFF(create_cq_in, pas));
	/*
	 * cmd_do: the caller gets -EREMOTEIO and the outbox for firmware failures, as with
	 * CREATE_EQ (prm/mlx5 §3.9).
	 */
	ret = mlx5v_cmd_do(dev, in, inlen, out, sizeof(out));
	free(in);
	if (ret == -ETIMEDOUT) {
		/* As for CREATE_EQ: a late CQ may write here until it is destroyed. */
		struct mlx5v_dma_buf dma[] = { cq->ring_dma, cq->dbr_dma };

		mlx5v_dev_quarantine(dev, cq->buf, cq->size, dma, RTE_DIM(dma));
		goto err_reg_cancel;
	}
	if (ret < 0)
		goto err_buf_unmap;
	cq->cqn = MLX5V_IFC_GET(create_cq_out, out, cqn);
	rte_spinlock_lock(&ctx->lock);
	TAILQ_INSERT_TAIL(&ctx->cqs, cq, next);
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_reg_publish(MLX5V_DEVX_KIND_CQ, cq, &cq->obj, ctx);
	mlx5v_devx_ctx_put(ctx);
	return cq;

err_buf_unmap:
	mlx5v_devx_cq_unmap(dev, cq);
err_buf_free:
	rte_free(cq->buf);
err_reg_cancel:
	mlx5v_devx_reg_cancel(MLX5V_DEVX_KIND_CQ);
err_cq_free:
	mlx5v_devx_hmem_free(cq, sizeof(*cq));
err_ctx_put:
	mlx5v_devx_ctx_put(ctx);
	rte_errno = -ret;
	return NULL;
}

static int
mlx5v_devx_cq_destroy_cmd(struct mlx5v_dev *dev, uint32_t cqn)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE];

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	MLX5V_IFC_SET(destroy_cq_in, in, opcode, RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ);
	MLX5V_IFC_SET(destroy_cq_in, in, cqn, cqn);
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

int
mlx5v_devx_cq_destroy(struct mlx5v_devx_cq *cq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get_excl(MLX5V_DEVX_KIND_CQ, cq);
	struct mlx5v_devx_ctx *ctx;
	int ret;

	if (obj == NULL)
		return -EINVAL;
	ctx = obj->ctx;
	ret = mlx5v_devx_cq_destroy_cmd(cq->dev, cq->cqn);
	/*
	 * The CQ stays alive on failure: its memory must not be unmapped while firmware can still
	 * write CQEs into it.
	 */
	if (ret < 0) {
		mlx5v_devx_obj_put_excl(obj);
		return ret;
	}
	mlx5v_devx_obj_retire(MLX5V_DEVX_KIND_CQ, cq, obj);
	rte_spinlock_lock(&ctx->lock);
	TAILQ_REMOVE(&ctx->cqs, cq, next);
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_cq_unmap(cq->dev, cq);
	rte_free(cq->buf);
	mlx5v_devx_hmem_free(cq, sizeof(*cq));
	mlx5v_devx_ctx_put(ctx);
	return 0;
}

void
mlx5v_devx_cq_arm_ci(struct mlx5v_devx_cq *cq, uint32_t ci, int solicited)
{
	uint32_t cmd = solicited ? RTE_PMD_MLX5V_CQ_DB_REQ_NOT_SOL : RTE_PMD_MLX5V_CQ_DB_REQ_NOT;
	uint32_t word = ((cq->arm_sn & 3) << 28) | cmd | (ci & 0xffffff);

	/*
	 * The arm word goes to dbrec[1] first: the device reads the record when it takes the
	 * MMIO doorbell and compares the two (prm/mlx5 §7.3).
	 */
	cq->dbrec[RTE_PMD_MLX5V_CQ_DBREC_ARM] = rte_cpu_to_be_32(word);
	/*
	 * Then the 64-bit BE MMIO at UAR + 0x20 through the seam, whose write barrier makes the
	 * record visible before the doorbell (§7.3) and which tells a polling model at once.
	 */
	mlx5v_hw_db_wr64(mlx5v_dev_hw(cq->dev),
			 (uint8_t *)cq->uar.base_addr + RTE_PMD_MLX5V_UAR_CQ_DB_OFF,
			 ((uint64_t)word << 32) | (cq->cqn & 0xffffff));
}

void
mlx5v_devx_cq_arm(struct mlx5v_devx_cq *cq, int solicited)
{
	mlx5v_devx_cq_arm_ci(cq, cq->ci, solicited);
}

void
mlx5v_devx_cq_event(struct mlx5v_devx_cq *cq)
{
	/*
	 * sn advances per completion event consumed, never per arm (libmlx5, Linux and DPDK;
	 * prm/mlx5 §7.3): two arms without an event between carry the same sn.
	 */
	cq->arm_sn++;
}

unsigned int
mlx5v_devx_cq_poll(struct mlx5v_devx_cq *cq)
{
	unsigned int n = 0;

	/*
	 * rte_pmd_mlx5v_cq_next_cqe() applies the CQE owner rule and read barrier; this helper only
	 * consumes, it does not look at the CQE contents.
	 */
	while (rte_pmd_mlx5v_cq_next_cqe(cq->buf, cq->nent, cq->ci) != NULL) {
		cq->ci++;
		n++;
	}
	if (n != 0)
		/*
		 * dbrec[0] = BE32(ci & 0xffffff): the CI that tells the device which CQEs it may
		 * reuse (prm/mlx5 §7.3, §13 CQs).
		 */
		rte_pmd_mlx5v_cq_update_ci(cq->dbrec, cq->ci);
	return n;
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
		if (mlx5v_devx_cq_destroy_cmd(dev, cq->cqn) < 0) {
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
		if (mlx5v_devx_eq_destroy_cmd(dev, eq->eqn) < 0)
			mlx5v_eq_ring_quarantine(dev, &eq->ring);
		mlx5v_devx_eq_free(eq);
	}
	while ((uar = TAILQ_FIRST(&ctx->uars)) != NULL) {
		uint8_t in[MLX5V_CMD_HDR_SIZE] = { 0 };
		uint8_t out[MLX5V_CMD_HDR_SIZE];

		TAILQ_REMOVE(&ctx->uars, uar, next);
		MLX5V_IFC_SET(dealloc_uar_in, in, opcode, RTE_PMD_MLX5V_CMD_OP_DEALLOC_UAR);
		MLX5V_IFC_SET(dealloc_uar_in, in, uar, uar->page_id);
		mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
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
