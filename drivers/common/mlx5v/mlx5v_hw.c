/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The seam wrappers: the only way the core reaches DMA mapping and MSI-X. */

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "mlx5v_hw.h"

/* Process-local by construction: a static array of this library (see mlx5v_hw.h). */
struct mlx5v_hw mlx5v_hw_procs[MLX5V_HW_MAX];
static pthread_mutex_t mlx5v_hw_procs_lock = PTHREAD_MUTEX_INITIALIZER;

int
mlx5v_hw_slot_alloc(const struct mlx5v_hw *tmpl)
{
	int i, ret = -ENOSPC;

	if (tmpl == NULL || tmpl->ops == NULL)
		return -EINVAL;
	pthread_mutex_lock(&mlx5v_hw_procs_lock);
	for (i = 0; i < MLX5V_HW_MAX; i++) {
		if (mlx5v_hw_procs[i].ops == NULL) {
			mlx5v_hw_procs[i] = *tmpl;
			ret = i;
			break;
		}
	}
	pthread_mutex_unlock(&mlx5v_hw_procs_lock);
	return ret;
}

void
mlx5v_hw_slot_free(int slot)
{
	if (slot < 0 || slot >= MLX5V_HW_MAX)
		return;
	pthread_mutex_lock(&mlx5v_hw_procs_lock);
	memset(&mlx5v_hw_procs[slot], 0, sizeof(mlx5v_hw_procs[slot]));
	pthread_mutex_unlock(&mlx5v_hw_procs_lock);
}

struct mlx5v_hw *
mlx5v_hw_lookup(const char *name)
{
	struct mlx5v_hw *hw = NULL;
	int i;

	pthread_mutex_lock(&mlx5v_hw_procs_lock);
	for (i = 0; i < MLX5V_HW_MAX && hw == NULL; i++)
		if (mlx5v_hw_procs[i].ops != NULL && strcmp(mlx5v_hw_procs[i].name, name) == 0)
			hw = &mlx5v_hw_procs[i];
	pthread_mutex_unlock(&mlx5v_hw_procs_lock);
	return hw;
}

/* A backend that lacks an optional operation returns -ENOTSUP (contributing/style §3). */

int
mlx5v_hw_dma_map(struct mlx5v_hw *hw, void *va, size_t len, uint64_t *iova)
{
	if (hw->ops->dma_map == NULL)
		return -ENOTSUP;
	return hw->ops->dma_map(hw, va, len, iova);
}

int
mlx5v_hw_dma_unmap(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len)
{
	if (hw->ops->dma_unmap == NULL)
		return -ENOTSUP;
	return hw->ops->dma_unmap(hw, va, iova, len);
}

int
mlx5v_hw_container_map(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len)
{
	if (hw->ops->container_map == NULL)
		return -ENOTSUP;
	return hw->ops->container_map(hw, va, iova, len);
}

int
mlx5v_hw_container_unmap(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len)
{
	if (hw->ops->container_unmap == NULL)
		return -ENOTSUP;
	return hw->ops->container_unmap(hw, va, iova, len);
}

int
mlx5v_hw_irq_info(struct mlx5v_hw *hw, struct mlx5v_hw_irq_info *info)
{
	if (hw->ops->irq_info == NULL)
		return -ENOTSUP;
	return hw->ops->irq_info(hw, info);
}

int
mlx5v_hw_irq_set(struct mlx5v_hw *hw, unsigned int start, unsigned int count, const int *fds)
{
	if (hw->ops->irq_set == NULL)
		return -ENOTSUP;
	return hw->ops->irq_set(hw, start, count, fds);
}

int
mlx5v_hw_bus_enable(struct mlx5v_hw *hw)
{
	if (hw->ops->bus_enable == NULL)
		return -ENOTSUP;
	return hw->ops->bus_enable(hw);
}

int
mlx5v_hw_func_reset(struct mlx5v_hw *hw)
{
	if (hw->ops->func_reset == NULL)
		return -ENOTSUP;
	return hw->ops->func_reset(hw);
}
