/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The simulator's IOMMU: DMA windows the driver mapped, checked on every access. */

#ifndef _HWSIM_DMA_H_
#define _HWSIM_DMA_H_

#include <stddef.h>
#include <stdint.h>

/** A table of DMA windows (IOVA -> host VA), like an IOMMU domain. */
struct hwsim_dma;

/** The most recent IOMMU fault, for tests and logs. */
struct hwsim_dma_fault {
	uint64_t iova;   /**< first byte of the faulting access */
	uint64_t len;    /**< length of the faulting access */
	int write;       /**< 1 for a device write, 0 for a device read */
};

/**
 * Create an empty window table.
 * @return the table, or NULL with rte_errno set.
 */
struct hwsim_dma *hwsim_dma_create(const char *name);

/** Destroy a table; windows still mapped are logged as leaks and dropped. */
void hwsim_dma_destroy(struct hwsim_dma *dma);

/**
 * Map [iova, iova + len) to host memory at va.
 * @return 0, -EINVAL (len 0, wrap-around), -EEXIST (overlaps a window), -ENOMEM.
 * Thread-safe against concurrent accesses from the device engine.
 */
int hwsim_dma_map(struct hwsim_dma *dma, uint64_t iova, void *va, size_t len);

/**
 * Unmap the window that starts exactly at iova and is exactly len long.
 * @return 0 or -ENOENT.
 */
int hwsim_dma_unmap(struct hwsim_dma *dma, uint64_t iova, size_t len);

/**
 * Device read of len bytes at iova. The whole range must lie inside one mapped window.
 * @return 0, or -EFAULT after recording an IOMMU fault.
 */
int hwsim_dma_read(struct hwsim_dma *dma, uint64_t iova, void *dst, size_t len);

/**
 * Device write of len bytes at iova. The whole range must lie inside one mapped window.
 * @return 0, or -EFAULT after recording an IOMMU fault.
 */
int hwsim_dma_write(struct hwsim_dma *dma, uint64_t iova, const void *src, size_t len);

/**
 * Device write that publishes after everything written before it: a release fence, then
 * the store. Used for owner bytes/words, which must become visible last.
 * @return 0, or -EFAULT after recording an IOMMU fault.
 */
int hwsim_dma_write_release(struct hwsim_dma *dma, uint64_t iova, const void *src, size_t len);

/** @return 1 if [iova, iova + len) lies inside one mapped window, else 0 (no fault recorded). */
int hwsim_dma_check(struct hwsim_dma *dma, uint64_t iova, size_t len);

/**
 * Host address of [iova, iova + len), which must lie inside one mapped window, for a model
 * that hands the data path a pointer (write says which access a fault would record). The
 * pointer is only valid while the driver keeps the window mapped: unlike hwsim_dma_read()
 * and hwsim_dma_write(), the access is not protected against a concurrent unmap.
 * @return the host address, or NULL after recording an IOMMU fault (len 0: NULL, no fault).
 */
void *hwsim_dma_translate(struct hwsim_dma *dma, uint64_t iova, size_t len, int write);

/** @return the number of live windows. */
unsigned int hwsim_dma_windows(struct hwsim_dma *dma);

/** @return the number of IOMMU faults so far; *last (if not NULL) gets the latest one. */
uint64_t hwsim_dma_faults(struct hwsim_dma *dma, struct hwsim_dma_fault *last);

#endif /* _HWSIM_DMA_H_ */
