/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file What the DEVX files share: the per-device context, the handle registry, handle memory. */

#ifndef _MLX5V_DEVX_PRIV_H_
#define _MLX5V_DEVX_PRIV_H_

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_spinlock.h>

#include "mlx5v_dev.h"
#include "mlx5v_devx.h"

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

/** Kinds of registered objects, one sorted set each. */
enum mlx5v_devx_kind {
	MLX5V_DEVX_KIND_MSI,
	MLX5V_DEVX_KIND_EQ,
	MLX5V_DEVX_KIND_UAR,
	MLX5V_DEVX_KIND_CQ,
	MLX5V_DEVX_KIND_MAX,
};

/* mlx5v_devx_obj.c: handle memory whose addresses are never reused. */
void mlx5v_devx_hmem_free(void *p, size_t size);

/* mlx5v_devx_obj.c: the registry of live handles and the per-device context. */
void mlx5v_devx_reg_publish(enum mlx5v_devx_kind kind, const void *handle,
			    struct mlx5v_devx_obj *obj, struct mlx5v_devx_ctx *ctx);
struct mlx5v_devx_obj *mlx5v_devx_obj_get(enum mlx5v_devx_kind kind, const void *handle);
void mlx5v_devx_obj_put(struct mlx5v_devx_obj *obj);
/* @return handle if it names a live object of kind (a handle the caller may pass on), or NULL. */
void *mlx5v_devx_obj_live(enum mlx5v_devx_kind kind, void *handle);
struct mlx5v_devx_obj *mlx5v_devx_obj_get_excl(enum mlx5v_devx_kind kind, const void *handle);
void mlx5v_devx_obj_put_excl(struct mlx5v_devx_obj *obj);
void mlx5v_devx_obj_retire(enum mlx5v_devx_kind kind, const void *handle,
			   struct mlx5v_devx_obj *obj);
int mlx5v_devx_ctx_acquire(struct mlx5v_dev *dev, struct mlx5v_devx_ctx **out);
void mlx5v_devx_ctx_put(struct mlx5v_devx_ctx *ctx);

/*
 * The first steps of every create: a reference on the device's context, memory for the
 * handle and a slot in the registry. @return the object, or NULL with rte_errno set.
 */
void *mlx5v_devx_obj_begin(struct mlx5v_dev *dev, enum mlx5v_devx_kind kind, size_t size,
			   struct mlx5v_devx_ctx **ctx);
/* Undo mlx5v_devx_obj_begin() for a create that failed with ret, which goes to rte_errno. */
void mlx5v_devx_obj_abort(enum mlx5v_devx_kind kind, void *p, size_t size,
			  struct mlx5v_devx_ctx *ctx, int ret);

/* The last step of a create: list o in its context, then make its handle valid. */
#define MLX5V_DEVX_PUBLISH(kind, list, o, ctx) do { \
	rte_spinlock_lock(&(ctx)->lock); \
	TAILQ_INSERT_TAIL(&(ctx)->list, o, next); \
	rte_spinlock_unlock(&(ctx)->lock); \
	mlx5v_devx_reg_publish(kind, o, &(o)->obj, ctx); \
} while (0)

/* The first step after a successful destroy: the handle dies, then o leaves its list. */
#define MLX5V_DEVX_RETIRE(kind, list, o, obj, ctx) do { \
	mlx5v_devx_obj_retire(kind, o, obj); \
	rte_spinlock_lock(&(ctx)->lock); \
	TAILQ_REMOVE(&(ctx)->list, o, next); \
	rte_spinlock_unlock(&(ctx)->lock); \
} while (0)

/* DESTROY_EQ, DESTROY_CQ or DEALLOC_UAR of object id (mlx5v_devx_obj.c). */
int mlx5v_devx_destroy_cmd(struct mlx5v_dev *dev, uint16_t opcode, uint32_t id);

/* What the device removal (mlx5v_devx_obj.c) calls to destroy what the application left. */
void mlx5v_devx_eq_free(struct mlx5v_devx_eq *eq);
void mlx5v_devx_cq_unmap(struct mlx5v_dev *dev, struct mlx5v_devx_cq *cq);
void mlx5v_devx_dma_unreach(struct mlx5v_dev *dev, struct mlx5v_devx_dma *d);

#endif /* _MLX5V_DEVX_PRIV_H_ */
