/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file rte_pmd_mlx5v_devx_*: thin wrappers keeping rdma-core's errno contract. */

#include <errno.h>

#include <rte_errno.h>

#include "mlx5v_dev.h"
#include "mlx5v_devx.h"
#include "rte_pmd_mlx5v.h"

/*
 * rdma-core's contract (house style, "Errors"): pointer calls return NULL with errno set,
 * int calls return a positive errno. We also set rte_errno, so DPDK-style callers work.
 *
 * Handles are passed down as they are: a public object is the first member of the
 * internal one (same address), and a device handle is the core device. The internal
 * calls look every handle up in the DEVX registry by address before reading it, so a
 * stale handle (double destroy/free, or any call after the device was removed) gives
 * EINVAL (objects) or ENODEV (devices), never a use after free. Object addresses are never
 * reused, so a stale object handle never names a newer object.
 */
static void *
mlx5v_api_null(int err)
{
	errno = err;
	rte_errno = err;
	return NULL;
}

static int
mlx5v_api_ret(int ret)
{
	if (ret < 0) {
		errno = -ret;
		rte_errno = -ret;
		return -ret;
	}
	return 0;
}

struct rte_pmd_mlx5v_dev *
rte_pmd_mlx5v_dev_get(const char *eal_device_name)
{
	struct mlx5v_dev *dev = mlx5v_devx_dev_get(eal_device_name);

	if (dev == NULL)
		return mlx5v_api_null(rte_errno);
	/* The handle is the core device itself, opaque to the application. */
	return (struct rte_pmd_mlx5v_dev *)dev;
}

struct rte_pmd_mlx5v_msi_vector *
rte_pmd_mlx5v_devx_alloc_msi_vector(struct rte_pmd_mlx5v_dev *dev)
{
	struct mlx5v_devx_msi *msi = mlx5v_devx_msi_alloc((struct mlx5v_dev *)dev);

	if (msi == NULL)
		return mlx5v_api_null(rte_errno);
	return &msi->pub;
}

int
rte_pmd_mlx5v_devx_free_msi_vector(struct rte_pmd_mlx5v_msi_vector *msi)
{
	/* Validated by address in the registry before anything reads it. */
	return mlx5v_api_ret(mlx5v_devx_msi_free((struct mlx5v_devx_msi *)msi));
}

struct rte_pmd_mlx5v_eq *
rte_pmd_mlx5v_devx_create_eq(struct rte_pmd_mlx5v_dev *dev, const void *in, size_t inlen,
			     void *out, size_t outlen)
{
	struct mlx5v_devx_eq *eq;

	eq = mlx5v_devx_eq_create((struct mlx5v_dev *)dev, in, inlen, out, outlen);
	if (eq == NULL)
		return mlx5v_api_null(rte_errno);
	return &eq->pub;
}

int
rte_pmd_mlx5v_devx_destroy_eq(struct rte_pmd_mlx5v_eq *eq)
{
	return mlx5v_api_ret(mlx5v_devx_eq_destroy((struct mlx5v_devx_eq *)eq));
}

int
rte_pmd_mlx5v_devx_query_eqn(struct rte_pmd_mlx5v_dev *dev, uint32_t vector, uint32_t *eqn)
{
	return mlx5v_api_ret(mlx5v_devx_query_eqn((struct mlx5v_dev *)dev, vector, eqn));
}

int
rte_pmd_mlx5v_devx_general_cmd(struct rte_pmd_mlx5v_dev *dev, const void *in, size_t inlen,
			       void *out, size_t outlen)
{
	return mlx5v_api_ret(mlx5v_devx_general_cmd((struct mlx5v_dev *)dev, in, inlen, out,
						    outlen));
}

struct rte_pmd_mlx5v_uar *
rte_pmd_mlx5v_devx_alloc_uar(struct rte_pmd_mlx5v_dev *dev)
{
	struct mlx5v_devx_uar *uar = mlx5v_devx_uar_alloc((struct mlx5v_dev *)dev);

	if (uar == NULL)
		return mlx5v_api_null(rte_errno);
	return &uar->pub;
}

int
rte_pmd_mlx5v_devx_free_uar(struct rte_pmd_mlx5v_uar *uar)
{
	return mlx5v_api_ret(mlx5v_devx_uar_free((struct mlx5v_devx_uar *)uar));
}

int
rte_pmd_mlx5v_devx_dma_map(struct rte_pmd_mlx5v_dev *dev, void *addr, size_t size,
			   uint64_t *iova)
{
	return mlx5v_api_ret(mlx5v_devx_dma_map((struct mlx5v_dev *)dev, addr, size, iova));
}

int
rte_pmd_mlx5v_devx_dma_unmap(struct rte_pmd_mlx5v_dev *dev, void *addr, size_t size)
{
	return mlx5v_api_ret(mlx5v_devx_dma_unmap((struct mlx5v_dev *)dev, addr, size));
}
