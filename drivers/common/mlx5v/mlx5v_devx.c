/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file DEVX resources: MSI vectors, UARs, DMA mappings, the raw command path. */


#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "mlx5v_class.h"
#include "mlx5v_devx_policy.h"
#include "mlx5v_devx_priv.h"
#include "mlx5v_log.h"

/* The handle is the object: the public structure is the first member. */
static_assert(offsetof(struct mlx5v_devx_msi, pub) == 0, "msi pub not first");
static_assert(offsetof(struct mlx5v_devx_uar, pub) == 0, "uar pub not first");

/* ---- MSI vectors ---- */

struct mlx5v_devx_msi *
mlx5v_devx_msi_alloc(struct mlx5v_dev *dev)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_msi *msi;
	int fd, v;

	/* The context tracks the vector, so a device removal frees what is left. */
	msi = mlx5v_devx_obj_begin(dev, MLX5V_DEVX_KIND_MSI, sizeof(*msi), &ctx);
	if (msi == NULL)
		return NULL;
	/* The core picks the lowest free vector >= 1 and attaches a non-blocking eventfd. */
	v = mlx5v_msi_alloc(dev, &fd);
	if (v < 0) {
		mlx5v_devx_obj_abort(MLX5V_DEVX_KIND_MSI, msi, sizeof(*msi), ctx, v);
		return NULL;
	}
	msi->dev = dev;
	msi->vector = v;
	msi->fd = fd;
	msi->pub.vector = v;
	msi->pub.fd = fd;
	MLX5V_DEVX_PUBLISH(MLX5V_DEVX_KIND_MSI, msis, msi, ctx);
	MLX5V_EQ_LOG(DEBUG, "%s: DEVX MSI vector %d allocated, fd %d", dev->name, v, fd);
	mlx5v_devx_ctx_put(ctx);
	return msi;
}

struct mlx5v_devx_msi *
mlx5v_devx_to_msi(struct rte_pmd_mlx5v_msi_vector *pub)
{
	return mlx5v_devx_obj_live(MLX5V_DEVX_KIND_MSI, pub);
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
	MLX5V_DEVX_RETIRE(MLX5V_DEVX_KIND_MSI, msis, msi, obj, ctx);
	mlx5v_devx_hmem_free(msi, sizeof(*msi));
	mlx5v_devx_ctx_put(ctx);
	return 0;
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
	 * created EQs are not served (prm/mlx5 §11.6, §12 #11).
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

	uar = mlx5v_devx_obj_begin(dev, MLX5V_DEVX_KIND_UAR, sizeof(*uar), &ctx);
	if (uar == NULL)
		return NULL;
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, RTE_PMD_MLX5V_CMD_OP_ALLOC_UAR);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret < 0)
		goto err_abort;
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
	MLX5V_DEVX_PUBLISH(MLX5V_DEVX_KIND_UAR, uars, uar, ctx);
	mlx5v_devx_ctx_put(ctx);
	return uar;

err_dealloc:
	mlx5v_devx_destroy_cmd(dev, RTE_PMD_MLX5V_CMD_OP_DEALLOC_UAR, idx);
err_abort:
	mlx5v_devx_obj_abort(MLX5V_DEVX_KIND_UAR, uar, sizeof(*uar), ctx, ret);
	return NULL;
}

struct mlx5v_devx_uar *
mlx5v_devx_to_uar(struct rte_pmd_mlx5v_uar *pub)
{
	return mlx5v_devx_obj_live(MLX5V_DEVX_KIND_UAR, pub);
}

int
mlx5v_devx_uar_free(struct mlx5v_devx_uar *uar)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get_excl(MLX5V_DEVX_KIND_UAR, uar);
	struct mlx5v_devx_ctx *ctx;
	int ret;

	/* Not live: freed already (also by the device removal), or never a UAR of ours. */
	if (obj == NULL)
		return -EINVAL;
	ctx = obj->ctx;
	ret = mlx5v_devx_destroy_cmd(uar->dev, RTE_PMD_MLX5V_CMD_OP_DEALLOC_UAR, uar->page_id);
	if (ret < 0) {
		mlx5v_devx_obj_put_excl(obj);
		return ret;
	}
	MLX5V_DEVX_RETIRE(MLX5V_DEVX_KIND_UAR, uars, uar, obj, ctx);
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

void
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

