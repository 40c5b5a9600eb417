/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Device-visible buffers as IOVA-contiguous chunks, each its own DMA window. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "mlx5v_dma.h"
#include "mlx5v_log.h"

#define MLX5V_DMA_PAGE ((size_t)1 << MLX5V_DMA_PAGE_SHIFT)

uint64_t
mlx5v_dma_virt2iova(const void *va)
{
	const struct rte_memseg_list *msl;
	const struct rte_memseg *ms;

	/*
	 * From the memseg, not rte_mem_virt2iova(): in IOVA-as-VA mode that returns the address
	 * of anything, and in PA mode the physical address even of external memory whose
	 * registered IOVA differs.
	 */
	msl = rte_mem_virt2memseg_list(va);
	if (msl == NULL)
		return RTE_BAD_IOVA;
	ms = rte_mem_virt2memseg(va, msl);
	if (ms == NULL || ms->iova == RTE_BAD_IOVA)
		return RTE_BAD_IOVA;
	return ms->iova + (uint64_t)((const uint8_t *)va - (const uint8_t *)ms->addr);
}

int
mlx5v_dma_contig(const void *va, size_t len, uint64_t *iova)
{
	const uint8_t *start = va;
	uint64_t off = (uintptr_t)va & (MLX5V_DMA_PAGE - 1);
	const uint8_t *pg = start - off;
	uint64_t io0, io, k;

	if (va == NULL || len == 0)
		return -EINVAL;
	io0 = mlx5v_dma_virt2iova(pg);
	if (io0 == RTE_BAD_IOVA)
		return -EFAULT;
	for (k = 1, pg += MLX5V_DMA_PAGE; pg < start + len; pg += MLX5V_DMA_PAGE, k++) {
		io = mlx5v_dma_virt2iova(pg);
		if (io == RTE_BAD_IOVA)
			return -EFAULT;
		if (io != io0 + k * MLX5V_DMA_PAGE)
			return -EINVAL;
	}
	*iova = io0 + off;
	return 0;
}

/* @return 1 if chunks of 2^shift bytes over the n pages io[] are contiguous and aligned. */
static int
mlx5v_dma_shift_fits(const uint64_t *io, size_t n, unsigned int shift)
{
	size_t per = (size_t)1 << (shift - MLX5V_DMA_PAGE_SHIFT);
	size_t i;

	for (i = 0; i < n; i++) {
		if (i % per == 0) {
			if (io[i] & (((uint64_t)1 << shift) - 1))
				return 0;
		} else if (io[i] != io[i - 1] + MLX5V_DMA_PAGE) {
			return 0;
		}
	}
	return 1;
}

int
mlx5v_dma_buf_map(struct mlx5v_hw *hw, void *va, size_t size, unsigned int max_shift,
		  struct mlx5v_dma_buf *b)
{
	uint8_t *p = va;
	unsigned int shift, j;
	uint64_t *io;
	size_t i, npg;
	int ret;

	memset(b, 0, sizeof(*b));
	if (va == NULL || size == 0 || max_shift < MLX5V_DMA_PAGE_SHIFT || max_shift > 63 ||
			(((uintptr_t)va | size) & (MLX5V_DMA_PAGE - 1)) != 0)
		return -EINVAL;
	npg = size >> MLX5V_DMA_PAGE_SHIFT;
	io = malloc(npg * sizeof(*io));
	if (io == NULL)
		return -ENOMEM;
	/* Page by page: EAL memory is IOVA-contiguous only within a memseg (a hugepage). */
	for (i = 0; i < npg; i++) {
		io[i] = mlx5v_dma_virt2iova(p + (i << MLX5V_DMA_PAGE_SHIFT));
		if (io[i] == RTE_BAD_IOVA) {
			MLX5V_LOG(ERR, "%s: %p + 0x%zx has no IOVA (not EAL memory?)", hw->name,
				  va, i << MLX5V_DMA_PAGE_SHIFT);
			free(io);
			return -EFAULT;
		}
	}
	shift = RTE_MIN(max_shift, (unsigned int)__builtin_ctzll(size));
	shift = RTE_MIN(shift, (unsigned int)__builtin_ctzll((uintptr_t)va));
	while (shift > MLX5V_DMA_PAGE_SHIFT && !mlx5v_dma_shift_fits(io, npg, shift))
		shift--;
	b->n = size >> shift;
	b->iova = rte_malloc("mlx5v_dma_iova", (size_t)b->n * sizeof(*b->iova), 0);
	if (b->iova == NULL) {
		free(io);
		return -ENOMEM;
	}
	b->va = va;
	b->size = size;
	b->shift = shift;
	for (j = 0; j < b->n; j++) {
		ret = mlx5v_hw_dma_map(hw, p + ((size_t)j << shift), (size_t)1 << shift,
				       &b->iova[j]);
		if (ret < 0)
			goto err_unmap;
	}
	free(io);
	return 0;

err_unmap:
	while (j-- > 0)
		mlx5v_hw_dma_unmap(hw, p + ((size_t)j << shift), b->iova[j], (size_t)1 << shift);
	rte_free(b->iova);
	free(io);
	memset(b, 0, sizeof(*b));
	return ret;
}

void
mlx5v_dma_buf_unmap(struct mlx5v_hw *hw, struct mlx5v_dma_buf *b)
{
	unsigned int j;

	if (b->iova == NULL)
		return;
	for (j = 0; j < b->n; j++)
		mlx5v_hw_dma_unmap(hw, b->va + ((size_t)j << b->shift), b->iova[j],
				   (size_t)1 << b->shift);
	rte_free(b->iova);
	memset(b, 0, sizeof(*b));
}

void
mlx5v_dma_buf_pas_fill(const struct mlx5v_dma_buf *b, uint8_t *pas)
{
	uint64_t be;
	unsigned int j;

	for (j = 0; j < b->n; j++) {
		be = rte_cpu_to_be_64(b->iova[j]);
		memcpy(pas + (size_t)j * sizeof(be), &be, sizeof(be));
	}
}
