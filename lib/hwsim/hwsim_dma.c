/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The simulator's IOMMU: a sorted table of DMA windows checked on every device access. */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_errno.h>
#include <rte_memory.h>
#include <rte_spinlock.h>

#include "hwsim_dma.h"
#include "hwsim_log.h"

#define HWSIM_DMA_NAME_LEN 32
#define HWSIM_DMA_MIN_CAP 16
#define HWSIM_DMA_LEAKS_SHOWN 8

/* One window; last = iova + len - 1, so a window may end at the top of the IOVA space. */
struct hwsim_dma_win {
	uint64_t iova;
	uint64_t last;
	uint8_t *va;
};

/* A range of external memory in the container (hwsim_dma_container_map()). */
struct hwsim_dma_ctr {
	uint8_t *va;
	uint64_t iova;
	size_t len;
};

/*
 * Allocated with libc calloc()/free() rather than rte_zmalloc(): the table is
 * process-local (it holds host pointers) and this keeps hwsim usable from unit
 * tests that never initialise EAL.
 */
struct hwsim_dma {
	pthread_rwlock_t lock;     /* writers: map/unmap; readers: every access */
	struct hwsim_dma_win *win; /* sorted by iova, never overlapping */
	unsigned int nb_win;
	unsigned int cap;
	struct hwsim_dma_ctr *ctr; /* container ranges of external memory, unsorted, few */
	unsigned int nb_ctr;
	rte_spinlock_t fault_lock; /* guards last_fault, taken under the read lock */
	uint64_t nb_faults;        /* atomic */
	struct hwsim_dma_fault last_fault;
	char name[HWSIM_DMA_NAME_LEN];
};

struct hwsim_dma *
hwsim_dma_create(const char *name)
{
	struct hwsim_dma *dma;

	dma = calloc(1, sizeof(*dma));
	if (dma == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	if (pthread_rwlock_init(&dma->lock, NULL) != 0) {
		free(dma);
		rte_errno = ENOMEM;
		return NULL;
	}
	rte_spinlock_init(&dma->fault_lock);
	snprintf(dma->name, sizeof(dma->name), "%s", name != NULL ? name : "dma");
	return dma;
}

void
hwsim_dma_destroy(struct hwsim_dma *dma)
{
	unsigned int i;

	if (dma == NULL)
		return;
	if (dma->nb_win > 0)
		HWSIM_LOG(WARNING, "%s: destroyed with %u DMA windows still mapped",
			  dma->name, dma->nb_win);
	/* Name the first few: enough to find the leak without flooding the log. */
	for (i = 0; i < dma->nb_win && i < HWSIM_DMA_LEAKS_SHOWN; i++)
		HWSIM_LOG(WARNING, "%s: leaked DMA window iova 0x%" PRIx64 " len 0x%" PRIx64,
			  dma->name, dma->win[i].iova, dma->win[i].last - dma->win[i].iova + 1);
	if (dma->nb_ctr > 0)
		HWSIM_LOG(WARNING, "%s: destroyed with %u external ranges still in the container",
			  dma->name, dma->nb_ctr);
	pthread_rwlock_destroy(&dma->lock);
	free(dma->ctr);
	free(dma->win);
	free(dma);
}

/* @return the index of the first window whose iova is greater than iova (0..nb_win). */
static unsigned int
hwsim_dma_upper(const struct hwsim_dma *dma, uint64_t iova)
{
	unsigned int lo = 0;
	unsigned int hi = dma->nb_win;
	unsigned int mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (dma->win[mid].iova <= iova)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Find the window that holds all of [iova, iova + len); len must be nonzero.
 * Caller holds the lock. @return the window or NULL.
 */
static const struct hwsim_dma_win *
hwsim_dma_find(const struct hwsim_dma *dma, uint64_t iova, size_t len)
{
	const struct hwsim_dma_win *w;
	uint64_t last = iova + (uint64_t)len - 1;
	unsigned int i;

	if (last < iova)	/* the access wraps around the IOVA space */
		return NULL;
	i = hwsim_dma_upper(dma, iova);
	if (i == 0)
		return NULL;
	w = &dma->win[i - 1];
	/* Windows never overlap, so one that does not hold last means a straddle or a hole. */
	if (iova > w->last || last > w->last)
		return NULL;
	return w;
}

int
hwsim_dma_map(struct hwsim_dma *dma, uint64_t iova, void *va, size_t len)
{
	struct hwsim_dma_win *nwin;
	uint64_t last = iova + (uint64_t)len - 1;
	unsigned int ncap;
	unsigned int i;
	int ret = 0;

	if (dma == NULL || va == NULL || len == 0 || last < iova)
		return -EINVAL;
	pthread_rwlock_wrlock(&dma->lock);
	i = hwsim_dma_upper(dma, iova);
	if ((i > 0 && dma->win[i - 1].last >= iova) ||
			(i < dma->nb_win && dma->win[i].iova <= last)) {
		ret = -EEXIST;
		goto out;
	}
	if (dma->nb_win == dma->cap) {
		ncap = dma->cap != 0 ? dma->cap * 2 : HWSIM_DMA_MIN_CAP;
		nwin = realloc(dma->win, (size_t)ncap * sizeof(*nwin));
		if (nwin == NULL) {
			ret = -ENOMEM;
			goto out;
		}
		dma->win = nwin;
		dma->cap = ncap;
	}
	memmove(&dma->win[i + 1], &dma->win[i], (dma->nb_win - i) * sizeof(dma->win[0]));
	dma->win[i].iova = iova;
	dma->win[i].last = last;
	dma->win[i].va = va;
	dma->nb_win++;
out:
	pthread_rwlock_unlock(&dma->lock);
	if (ret != 0)
		HWSIM_LOG(DEBUG, "%s: map iova 0x%" PRIx64 " len 0x%zx failed: %d",
			  dma->name, iova, len, ret);
	return ret;
}

int
hwsim_dma_unmap(struct hwsim_dma *dma, uint64_t iova, size_t len)
{
	unsigned int i;
	int ret = -ENOENT;

	if (dma == NULL || len == 0)
		return -ENOENT;
	pthread_rwlock_wrlock(&dma->lock);
	i = hwsim_dma_upper(dma, iova);
	if (i > 0 && dma->win[i - 1].iova == iova &&
			dma->win[i - 1].last - iova == (uint64_t)len - 1) {
		i--;
		memmove(&dma->win[i], &dma->win[i + 1],
			(dma->nb_win - i - 1) * sizeof(dma->win[0]));
		dma->nb_win--;
		ret = 0;
	}
	pthread_rwlock_unlock(&dma->lock);
	if (ret != 0)
		HWSIM_LOG(DEBUG, "%s: unmap iova 0x%" PRIx64 " len 0x%zx: no such window",
			  dma->name, iova, len);
	return ret;
}

int
hwsim_dma_window(struct hwsim_dma *dma, uint64_t iova, uint64_t *iova_out, size_t *len,
		 void **va)
{
	unsigned int i;
	int ret = -ENOENT;

	if (dma == NULL)
		return -ENOENT;
	pthread_rwlock_rdlock(&dma->lock);
	i = hwsim_dma_upper(dma, iova);
	if (i > 0 && iova <= dma->win[i - 1].last) {
		*iova_out = dma->win[i - 1].iova;
		*len = dma->win[i - 1].last - dma->win[i - 1].iova + 1;
		*va = dma->win[i - 1].va;
		ret = 0;
	}
	pthread_rwlock_unlock(&dma->lock);
	return ret;
}

/* Record an IOMMU fault. Called with the read lock held; several engines may fault at once. */
static void
hwsim_dma_fault_rec(struct hwsim_dma *dma, uint64_t iova, size_t len, int write, int map)
{
	rte_spinlock_lock(&dma->fault_lock);
	dma->last_fault.iova = iova;
	dma->last_fault.len = len;
	dma->last_fault.write = write;
	dma->last_fault.map = map;
	__atomic_fetch_add(&dma->nb_faults, 1, __ATOMIC_RELAXED);
	rte_spinlock_unlock(&dma->fault_lock);
}

static void
hwsim_dma_fault(struct hwsim_dma *dma, uint64_t iova, size_t len, int write)
{
	hwsim_dma_fault_rec(dma, iova, len, write, 0);
	HWSIM_LOG(ERR, "%s: IOMMU fault: device %s iova 0x%" PRIx64 " len 0x%zx",
		  dma->name, write ? "write" : "read", iova, len);
}

/*
 * Begin a device access to [iova, iova + len), len nonzero: take the read lock and
 * translate. The caller copies under the read lock, so an unmap cannot pull the memory
 * from under the device, then releases it.
 * @return the host address with the read lock held, or NULL after recording an IOMMU
 * fault and releasing the lock.
 */
static uint8_t *
hwsim_dma_access(struct hwsim_dma *dma, uint64_t iova, size_t len, int write)
{
	const struct hwsim_dma_win *w;

	pthread_rwlock_rdlock(&dma->lock);
	w = hwsim_dma_find(dma, iova, len);
	if (w == NULL) {
		hwsim_dma_fault(dma, iova, len, write);
		pthread_rwlock_unlock(&dma->lock);
		return NULL;
	}
	return w->va + (iova - w->iova);
}

/*
 * A zero-length access moves no data and, as on a PCIe bus, issues no transaction:
 * it succeeds without a window and records no fault.
 */

int
hwsim_dma_read(struct hwsim_dma *dma, uint64_t iova, void *dst, size_t len)
{
	const uint8_t *src;

	if (len == 0)
		return 0;
	src = hwsim_dma_access(dma, iova, len, 0);
	if (src == NULL)
		return -EFAULT;
	memcpy(dst, src, len);
	pthread_rwlock_unlock(&dma->lock);
	return 0;
}

int
hwsim_dma_write(struct hwsim_dma *dma, uint64_t iova, const void *src, size_t len)
{
	uint8_t *dst;

	if (len == 0)
		return 0;
	dst = hwsim_dma_access(dma, iova, len, 1);
	if (dst == NULL)
		return -EFAULT;
	memcpy(dst, src, len);
	pthread_rwlock_unlock(&dma->lock);
	return 0;
}

void *
hwsim_dma_translate(struct hwsim_dma *dma, uint64_t iova, size_t len, int write)
{
	uint8_t *va;

	if (len == 0)
		return NULL;
	va = hwsim_dma_access(dma, iova, len, write);
	if (va != NULL)
		pthread_rwlock_unlock(&dma->lock);
	return va;
}

/*
 * Store len bytes at dst. A naturally aligned 1/2/4/8-byte store is done as one
 * atomic store, so the driver never sees a torn owner word; anything else is memcpy.
 */
static void
hwsim_dma_store(uint8_t *dst, const void *src, size_t len)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;
	int aligned = ((uintptr_t)dst & (len - 1)) == 0;

	if (len == 1) {
		__atomic_store_n(dst, *(const uint8_t *)src, __ATOMIC_RELAXED);
	} else if (len == 2 && aligned) {
		memcpy(&v16, src, sizeof(v16));
		__atomic_store_n((uint16_t *)(void *)dst, v16, __ATOMIC_RELAXED);
	} else if (len == 4 && aligned) {
		memcpy(&v32, src, sizeof(v32));
		__atomic_store_n((uint32_t *)(void *)dst, v32, __ATOMIC_RELAXED);
	} else if (len == 8 && aligned) {
		memcpy(&v64, src, sizeof(v64));
		__atomic_store_n((uint64_t *)(void *)dst, v64, __ATOMIC_RELAXED);
	} else {
		memcpy(dst, src, len);
	}
}

int
hwsim_dma_write_release(struct hwsim_dma *dma, uint64_t iova, const void *src, size_t len)
{
	uint8_t *dst;

	if (len == 0)
		return 0;
	dst = hwsim_dma_access(dma, iova, len, 1);
	if (dst == NULL)
		return -EFAULT;
	/*
	 * Owner bit/word protocol: the driver reads the owner field, then (after its
	 * read barrier) the body. Every earlier device write must therefore be visible
	 * before this store: release fence first, then the store itself.
	 */
	rte_atomic_thread_fence(__ATOMIC_RELEASE);
	hwsim_dma_store(dst, src, len);
	pthread_rwlock_unlock(&dma->lock);
	return 0;
}

int
hwsim_dma_check(struct hwsim_dma *dma, uint64_t iova, size_t len)
{
	int ok;

	if (len == 0)
		return 1;
	pthread_rwlock_rdlock(&dma->lock);
	ok = hwsim_dma_find(dma, iova, len) != NULL;
	pthread_rwlock_unlock(&dma->lock);
	return ok;
}

unsigned int
hwsim_dma_windows(struct hwsim_dma *dma)
{
	unsigned int n;

	pthread_rwlock_rdlock(&dma->lock);
	n = dma->nb_win;
	pthread_rwlock_unlock(&dma->lock);
	return n;
}

uint64_t
hwsim_dma_faults(struct hwsim_dma *dma, struct hwsim_dma_fault *last)
{
	uint64_t n;

	/* Under fault_lock so the count and *last describe the same fault. */
	rte_spinlock_lock(&dma->fault_lock);
	n = __atomic_load_n(&dma->nb_faults, __ATOMIC_RELAXED);
	if (last != NULL)
		*last = dma->last_fault;
	rte_spinlock_unlock(&dma->fault_lock);
	return n;
}

/*
 * EAL's IOVA of the 4 KiB page at pg as the IOMMU sees it, or RTE_BAD_IOVA if the page is
 * not in the container. EAL maps every memseg of its own lists into the VFIO container at
 * the memseg's IOVA; external memory is there only once hwsim_dma_container_map() put it
 * there. Caller holds the lock.
 */
static uint64_t
hwsim_dma_page_iova(const struct hwsim_dma *dma, const uint8_t *pg)
{
	const struct rte_memseg_list *msl;
	const struct rte_memseg *ms;
	const struct hwsim_dma_ctr *c;
	unsigned int i;

	msl = rte_mem_virt2memseg_list(pg);
	if (msl == NULL)
		return RTE_BAD_IOVA;	/* libc heap, stack, a plain mmap: not EAL memory */
	if (msl->external) {
		for (i = 0; i < dma->nb_ctr; i++) {
			c = &dma->ctr[i];
			if (pg >= c->va && pg < c->va + c->len)
				return c->iova + (uint64_t)(pg - c->va);
		}
		return RTE_BAD_IOVA;
	}
	ms = rte_mem_virt2memseg(pg, msl);
	if (ms == NULL || ms->iova == RTE_BAD_IOVA)
		return RTE_BAD_IOVA;
	return ms->iova + (uint64_t)(pg - (const uint8_t *)ms->addr);
}

int
hwsim_dma_map_eal(struct hwsim_dma *dma, void *va, size_t len, uint64_t *iova)
{
	uint8_t *start = va;
	uint64_t off = (uintptr_t)va & (HWSIM_DMA_PAGE_SIZE - 1);
	uint8_t *pg = start - off;
	uint64_t io0, io = RTE_BAD_IOVA;
	uint64_t k;

	if (dma == NULL || va == NULL || len == 0 || iova == NULL ||
			(uintptr_t)va + len - 1 < (uintptr_t)va)
		return -EINVAL;
	pthread_rwlock_rdlock(&dma->lock);
	io0 = hwsim_dma_page_iova(dma, pg);
	/* Page by page: an IOVA taken from the first byte alone says nothing of the rest. */
	for (k = 0; pg < start + len; pg += HWSIM_DMA_PAGE_SIZE, k++) {
		io = k == 0 ? io0 : hwsim_dma_page_iova(dma, pg);
		if (io == RTE_BAD_IOVA || io != io0 + k * HWSIM_DMA_PAGE_SIZE)
			break;
	}
	if (pg < start + len) {
		hwsim_dma_fault_rec(dma, io != RTE_BAD_IOVA ? io : (uintptr_t)pg,
				    HWSIM_DMA_PAGE_SIZE, 0, 1);
		pthread_rwlock_unlock(&dma->lock);
		if (io == RTE_BAD_IOVA)
			HWSIM_LOG(ERR, "%s: IOMMU fault: map of %p len 0x%zx: page %p is not in "
				  "the container (neither EAL memory nor mapped external memory)",
				  dma->name, va, len, pg);
		else
			HWSIM_LOG(ERR, "%s: IOMMU fault: map of %p len 0x%zx: page %p is at IOVA "
				  "0x%" PRIx64 ", not 0x%" PRIx64 " (not IOVA-contiguous)",
				  dma->name, va, len, pg, io, io0 + k * HWSIM_DMA_PAGE_SIZE);
		return -EFAULT;
	}
	pthread_rwlock_unlock(&dma->lock);
	*iova = io0 + off;
	return hwsim_dma_map(dma, *iova, va, len);
}

int
hwsim_dma_container_map(struct hwsim_dma *dma, void *va, uint64_t iova, size_t len)
{
	const struct rte_memseg_list *msl;
	struct hwsim_dma_ctr *nctr;
	uint8_t *a = va;
	unsigned int i;
	int ret = 0;

	if (dma == NULL || va == NULL || len == 0 || (uintptr_t)va + len - 1 < (uintptr_t)va ||
			iova + len - 1 < iova ||
			(((uintptr_t)va | iova | len) & (HWSIM_DMA_PAGE_SIZE - 1)) != 0)
		return -EINVAL;
	/* VFIO's rte_dev_dma_map() path refuses what rte_extmem_register() did not register. */
	msl = rte_mem_virt2memseg_list(va);
	if (msl == NULL || !msl->external || rte_mem_virt2memseg_list(a + len - 1) != msl)
		return -EINVAL;
	pthread_rwlock_wrlock(&dma->lock);
	for (i = 0; i < dma->nb_ctr; i++) {
		if (a < dma->ctr[i].va + dma->ctr[i].len && dma->ctr[i].va < a + len) {
			ret = -EEXIST;
			goto out;
		}
	}
	nctr = realloc(dma->ctr, (size_t)(dma->nb_ctr + 1) * sizeof(*nctr));
	if (nctr == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	dma->ctr = nctr;
	dma->ctr[dma->nb_ctr].va = a;
	dma->ctr[dma->nb_ctr].iova = iova;
	dma->ctr[dma->nb_ctr].len = len;
	dma->nb_ctr++;
out:
	pthread_rwlock_unlock(&dma->lock);
	return ret;
}

int
hwsim_dma_container_unmap(struct hwsim_dma *dma, void *va, size_t len)
{
	unsigned int i;
	int ret = -ENOENT;

	if (dma == NULL)
		return -ENOENT;
	pthread_rwlock_wrlock(&dma->lock);
	for (i = 0; i < dma->nb_ctr; i++) {
		if (dma->ctr[i].va == (uint8_t *)va && dma->ctr[i].len == len) {
			dma->ctr[i] = dma->ctr[--dma->nb_ctr];
			ret = 0;
			break;
		}
	}
	pthread_rwlock_unlock(&dma->lock);
	return ret;
}
