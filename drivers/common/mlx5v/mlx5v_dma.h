/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Device-visible buffers as IOVA-contiguous chunks: mapping, addresses and PAS lists. */

#ifndef _MLX5V_DMA_H_
#define _MLX5V_DMA_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

#include "mlx5v_hw.h"

/** The IOMMU and adapter page (prm/mlx5 §11.9). */
#define MLX5V_DMA_PAGE_SHIFT 12
#define MLX5V_DMA_PAGE_SIZE (1u << MLX5V_DMA_PAGE_SHIFT)

/**
 * A buffer the device reaches through n chunks of 2^shift bytes, each IOVA-contiguous,
 * aligned to its size in IOVA, and mapped as its own DMA window. With IOVA as VA (or
 * physically adjacent hugepages) one chunk covers the whole buffer; with IOVA as PA on a
 * fragmented hugepage pool a buffer larger than a hugepage has one chunk per hugepage
 * (doc/guides/nics/running_on_hardware.rst, "IOVA modes").
 */
struct mlx5v_dma_buf {
	uint8_t *va;
	size_t size;
	unsigned int shift;     /**< log2 of the chunk size, >= MLX5V_DMA_PAGE_SHIFT */
	unsigned int n;         /**< chunks: size >> shift */
	uint64_t *iova;         /**< per chunk (EAL heap) */
};

/**
 * EAL's IOVA of the byte at va: its memseg's IOVA (external memory included, as
 * rte_extmem_register() gave it), not a translation of the first byte plus an offset.
 * @return the IOVA, or RTE_BAD_IOVA (not EAL memory, or a memseg without an IOVA).
 */
uint64_t mlx5v_dma_virt2iova(const void *va);

/**
 * Check that [va, va + len) is IOVA-contiguous as EAL reports it, page by page.
 * @return 0 with *iova the IOVA of va, -EFAULT (a page without an IOVA), -EINVAL (not
 * contiguous, or len 0).
 */
__rte_internal
int mlx5v_dma_contig(const void *va, size_t len, uint64_t *iova);

/**
 * Map [va, va + size) as chunks of the largest power of two up to 2^max_shift that keeps
 * each chunk IOVA-contiguous and IOVA-aligned, page by page as EAL reports it. va and size
 * must be multiples of 4 KiB. Control thread.
 * @return 0, -EINVAL (bad arguments), -EFAULT (a page without an IOVA), -ENOMEM, or the
 * seam's dma_map error; nothing stays mapped on failure.
 */
__rte_internal
int mlx5v_dma_buf_map(struct mlx5v_hw *hw, void *va, size_t size, unsigned int max_shift,
		      struct mlx5v_dma_buf *b);

/** Unmap every chunk of b and free its IOVA table; b may be unmapped already. */
__rte_internal
void mlx5v_dma_buf_unmap(struct mlx5v_hw *hw, struct mlx5v_dma_buf *b);

/** @return the device address of byte off of b. */
static inline uint64_t
mlx5v_dma_buf_iova(const struct mlx5v_dma_buf *b, size_t off)
{
	return b->iova[off >> b->shift] + (off & (((size_t)1 << b->shift) - 1));
}

/**
 * Write b's chunks as n big-endian 64-bit PAS entries at pas (prm/mlx5 §6.1: the page
 * size of the entries is 2^(log_page_size + 12), log_page_size = shift - 12).
 */
void mlx5v_dma_buf_pas_fill(const struct mlx5v_dma_buf *b, uint8_t *pas);

#endif /* _MLX5V_DMA_H_ */
