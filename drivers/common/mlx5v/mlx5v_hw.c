/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The seam wrappers: the only way the core reaches DMA mapping and MSI-X. */

#include <errno.h>

#include "mlx5v_hw.h"

/* A backend that lacks an optional operation returns -ENOTSUP (house style rule 3). */

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

unsigned int
mlx5v_hw_irq_count(struct mlx5v_hw *hw)
{
	if (hw->ops->irq_count == NULL)
		return 0;
	return hw->ops->irq_count(hw);
}

int
mlx5v_hw_irq_attach(struct mlx5v_hw *hw, unsigned int vec, int fd)
{
	if (hw->ops->irq_attach == NULL)
		return -ENOTSUP;
	return hw->ops->irq_attach(hw, vec, fd);
}

int
mlx5v_hw_bus_enable(struct mlx5v_hw *hw)
{
	if (hw->ops->bus_enable == NULL)
		return -ENOTSUP;
	return hw->ops->bus_enable(hw);
}
