/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The simulator's IOMMU: DMA windows the driver mapped, checked on every access. */

#ifndef _HWSIM_DMA_H_
#define _HWSIM_DMA_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

/** A table of DMA windows (IOVA -> host VA), like an IOMMU domain. */
struct hwsim_dma;

/** The most recent IOMMU fault, for tests and logs. */
struct hwsim_dma_fault {
	uint64_t iova;   /**< first byte of the faulting access */
	uint64_t len;    /**< length of the faulting access */
	int write;       /**< 1 for a device write, 0 for a device read */
	int map;         /**< 1: a window refused by hwsim_dma_map_eal(); iova is then the
			  *   IOVA (or, if there is none, the host address) of the bad page */
};

/** The IOMMU page: windows from hwsim_dma_map_eal() are checked in these units. */
#define HWSIM_DMA_PAGE_SIZE 4096u

/**
 * Create an empty window table.
 * @return the table, or NULL with rte_errno set.
 */
__rte_internal
struct hwsim_dma *hwsim_dma_create(const char *name);

/** Destroy a table; windows still mapped are logged as leaks and dropped. */
__rte_internal
void hwsim_dma_destroy(struct hwsim_dma *dma);

/**
 * Map [iova, iova + len) to host memory at va.
 * @return 0, -EINVAL (len 0, wrap-around), -EEXIST (overlaps a window), -ENOMEM.
 * Thread-safe against concurrent accesses from the device engine.
 */
__rte_internal
int hwsim_dma_map(struct hwsim_dma *dma, uint64_t iova, void *va, size_t len);

/**
 * Map [va, va + len) at the IOVA EAL gives it, as a VFIO IOMMU would: every 4 KiB page
 * the range touches must be EAL memory (a memseg of EAL's own lists, which EAL maps into
 * the VFIO container at start-up) or external memory that hwsim_dma_container_map() put
 * into the container, and the pages must be IOVA-contiguous as EAL reports them (page by
 * page, not from the first address alone). Anything else is an IOMMU fault: recorded
 * (map = 1), nothing mapped. doc/guides/sim/mlx5v_sim.rst, "IOMMU".
 * @param iova gets the device address of va.
 * @return 0, -EFAULT (the rule above), or hwsim_dma_map()'s errors.
 */
__rte_internal
int hwsim_dma_map_eal(struct hwsim_dma *dma, void *va, size_t len, uint64_t *iova);

/**
 * The container side of external memory: [va, va + len) (rte_extmem_register()'ed) is
 * reachable at [iova, iova + len), as rte_dev_dma_map() makes it on VFIO. No window is
 * created; hwsim_dma_map_eal() then accepts pages of the range.
 * @return 0, -EINVAL (len 0, not page aligned, wrap-around, not external EAL memory),
 * -EEXIST (overlaps a container range), -ENOMEM.
 */
__rte_internal
int hwsim_dma_container_map(struct hwsim_dma *dma, void *va, uint64_t iova, size_t len);

/**
 * Remove the container range that starts at va and is exactly len long.
 * @return 0 or -ENOENT.
 */
__rte_internal
int hwsim_dma_container_unmap(struct hwsim_dma *dma, void *va, size_t len);

/**
 * Unmap the window that starts exactly at iova and is exactly len long.
 * @return 0 or -ENOENT.
 */
__rte_internal
int hwsim_dma_unmap(struct hwsim_dma *dma, uint64_t iova, size_t len);

/**
 * The window that holds iova: its first IOVA, length and address in *iova_out, *len, *va
 * (a test cuts a page out of it with unmap and two maps). @return 0 or -ENOENT.
 */
int hwsim_dma_window(struct hwsim_dma *dma, uint64_t iova, uint64_t *iova_out, size_t *len,
		     void **va);

/**
 * Device read of len bytes at iova. The whole range must lie inside one mapped window.
 * @return 0, or -EFAULT after recording an IOMMU fault.
 */
__rte_internal
int hwsim_dma_read(struct hwsim_dma *dma, uint64_t iova, void *dst, size_t len);

/**
 * Device write of len bytes at iova. The whole range must lie inside one mapped window.
 * @return 0, or -EFAULT after recording an IOMMU fault.
 */
__rte_internal
int hwsim_dma_write(struct hwsim_dma *dma, uint64_t iova, const void *src, size_t len);

/**
 * Device write that publishes after everything written before it: a release fence, then
 * the store. Used for owner bytes/words, which must become visible last.
 * @return 0, or -EFAULT after recording an IOMMU fault.
 */
__rte_internal
int hwsim_dma_write_release(struct hwsim_dma *dma, uint64_t iova, const void *src, size_t len);

/** @return 1 if [iova, iova + len) lies inside one mapped window, else 0 (no fault recorded). */
__rte_internal
int hwsim_dma_check(struct hwsim_dma *dma, uint64_t iova, size_t len);

/**
 * Host address of [iova, iova + len), which must lie inside one mapped window, for a model
 * that hands the data path a pointer (write says which access a fault would record). The
 * pointer is only valid while the driver keeps the window mapped: unlike hwsim_dma_read()
 * and hwsim_dma_write(), the access is not protected against a concurrent unmap.
 * @return the host address, or NULL after recording an IOMMU fault (len 0: NULL, no fault).
 */
__rte_internal
void *hwsim_dma_translate(struct hwsim_dma *dma, uint64_t iova, size_t len, int write);

/** @return the number of live windows. */
__rte_internal
unsigned int hwsim_dma_windows(struct hwsim_dma *dma);

/** @return the number of IOMMU faults so far; *last (if not NULL) gets the latest one. */
__rte_internal
uint64_t hwsim_dma_faults(struct hwsim_dma *dma, struct hwsim_dma_fault *last);

#endif /* _HWSIM_DMA_H_ */
