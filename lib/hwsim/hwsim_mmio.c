/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Watched MMIO pages: doorbell words consumed by an atomic exchange with an idle value. */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <rte_errno.h>

#include "hwsim_log.h"
#include "hwsim_mmio.h"

/** Watches per page; a UAR-like page has only a handful of doorbell words. */
#define HWSIM_MMIO_MAX_WATCH 64

struct hwsim_mmio_watch {
	uint32_t off;
	uint32_t width;
	uint64_t idle;              /* the word between two stores */
	hwsim_mmio_cb cb;
	void *arg;
};

/*
 * Watches are append-only. hwsim_mmio_watch() fills an entry, then publishes it
 * with a release store of nb_watch; hwsim_mmio_poll() loads nb_watch with acquire
 * and takes no lock, so a device model may add watches while its engine polls.
 * watch_lock only serialises concurrent writers.
 */
struct hwsim_mmio_page {
	uint8_t *addr;              /* one anonymous page: zeroed and page-aligned */
	unsigned int nb_watch;      /* published with release, read with acquire */
	pthread_mutex_t watch_lock;
	struct hwsim_mmio_watch watch[HWSIM_MMIO_MAX_WATCH];
};

struct hwsim_mmio_page *
hwsim_mmio_page_alloc(void)
{
	struct hwsim_mmio_page *pg;
	void *addr;

	/* libc, not rte_malloc: the page is not DMA memory and tests may run without EAL. */
	pg = calloc(1, sizeof(*pg));
	if (pg == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	addr = mmap(NULL, HWSIM_MMIO_PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (addr == MAP_FAILED) {
		rte_errno = errno;
		HWSIM_LOG(ERR, "cannot map an MMIO page: %s", rte_strerror(rte_errno));
		free(pg);
		return NULL;
	}
	pthread_mutex_init(&pg->watch_lock, NULL);
	pg->addr = addr;
	return pg;
}

void
hwsim_mmio_page_free(struct hwsim_mmio_page *pg)
{
	if (pg == NULL)
		return;
	munmap(pg->addr, HWSIM_MMIO_PAGE_SIZE);
	pthread_mutex_destroy(&pg->watch_lock);
	free(pg);
}

void *
hwsim_mmio_page_addr(struct hwsim_mmio_page *pg)
{
	return pg->addr;
}

int
hwsim_mmio_watch(struct hwsim_mmio_page *pg, uint32_t off, uint32_t width,
		 hwsim_mmio_cb cb, void *arg)
{
	return hwsim_mmio_watch_idle(pg, off, width, 0, cb, arg);
}

int
hwsim_mmio_watch_idle(struct hwsim_mmio_page *pg, uint32_t off, uint32_t width, uint64_t idle,
		      hwsim_mmio_cb cb, void *arg)
{
	struct hwsim_mmio_watch *w;
	unsigned int i;
	int ret = 0;

	if (pg == NULL || cb == NULL || (width != 4 && width != 8) ||
			off % width != 0 || off > HWSIM_MMIO_PAGE_SIZE - width)
		return -EINVAL;
	pthread_mutex_lock(&pg->watch_lock);
	/* Two watches on overlapping bytes would consume each other's stores. */
	for (i = 0; i < pg->nb_watch; i++) {
		w = &pg->watch[i];
		if (off < w->off + w->width && w->off < off + width) {
			ret = -EEXIST;
			goto out;
		}
	}
	if (pg->nb_watch == HWSIM_MMIO_MAX_WATCH) {
		ret = -ENOSPC;
		goto out;
	}
	w = &pg->watch[pg->nb_watch];
	w->off = off;
	w->width = width;
	w->idle = width == 8 ? idle : (uint32_t)idle;
	w->cb = cb;
	if (width == 8)
		__atomic_store_n((uint64_t *)(void *)(pg->addr + off), w->idle, __ATOMIC_RELAXED);
	else
		__atomic_store_n((uint32_t *)(void *)(pg->addr + off), (uint32_t)w->idle,
				 __ATOMIC_RELAXED);
	w->arg = arg;
	/* Publish the filled entry to a poller running without the lock. */
	__atomic_store_n(&pg->nb_watch, pg->nb_watch + 1, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&pg->watch_lock);
	return ret;
}

int
hwsim_mmio_poll(struct hwsim_mmio_page *pg)
{
	const struct hwsim_mmio_watch *w;
	unsigned int n;
	unsigned int i;
	uint64_t raw;
	int calls = 0;

	n = __atomic_load_n(&pg->nb_watch, __ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++) {
		w = &pg->watch[i];
		/*
		 * Exchange with the idle value so each software store is consumed exactly once.
		 * ACQ_REL: acquire orders the device's later reads of the rings after
		 * the doorbell (the driver wrote them before ringing, with a write
		 * barrier); release keeps the zeroing after earlier device work.
		 */
		if (w->width == 8)
			raw = __atomic_exchange_n((uint64_t *)(void *)(pg->addr + w->off),
						  w->idle, __ATOMIC_ACQ_REL);
		else
			raw = __atomic_exchange_n((uint32_t *)(void *)(pg->addr + w->off),
						  (uint32_t)w->idle, __ATOMIC_ACQ_REL);
		if (raw == w->idle)
			continue;
		w->cb(w->arg, w->off, raw);
		calls++;
	}
	return calls;
}
