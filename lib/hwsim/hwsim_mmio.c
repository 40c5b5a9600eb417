/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Watched MMIO pages: doorbell words consumed by an atomic exchange with an idle value,
 * registers the device publishes into the page, and aliases of a page that another process
 * stores into, each with words of its own.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
	hwsim_mmio_rd_cb rd;        /* non-NULL: a published register (hwsim_mmio_reg()) */
	uint32_t pub;               /* a register's word as last published; the poller's own */
	void *arg;
};

/*
 * Watches are append-only. hwsim_mmio_watch() fills an entry, then publishes it
 * with a release store of nb_watch; hwsim_mmio_poll() loads nb_watch with acquire
 * and takes no lock, so a device model may add watches while its engine polls.
 * watch_lock only serialises concurrent writers.
 */
struct hwsim_mmio_page {
	uint8_t *addr;              /* one shared page of memfd: zeroed and page-aligned */
	int fd;                     /* the memfd, so a host emulation can map the page again */
	unsigned int nb_watch;      /* published with release, read with acquire */
	uint8_t alias;              /* made by hwsim_mmio_page_alias(): its memfd takes seals */
	pthread_mutex_t watch_lock;
	struct hwsim_mmio_watch watch[HWSIM_MMIO_MAX_WATCH];
};

/* A page whose memfd has flags (MFD_CLOEXEC and more). */
static struct hwsim_mmio_page *
hwsim_mmio_page_new(unsigned int flags)
{
	struct hwsim_mmio_page *pg;
	void *addr;

	/* libc, not rte_malloc: the page is not DMA memory and tests may run without EAL. */
	pg = calloc(1, sizeof(*pg));
	if (pg == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	/*
	 * A memfd, not anonymous memory: a VFIO emulation maps the same page again at its
	 * BAR offset (doc/guides/platform/vfio_emulation.rst), and stores through either
	 * mapping land in the one page the engine watches.
	 */
	pg->fd = memfd_create("hwsim-mmio", MFD_CLOEXEC | flags);
	if (pg->fd < 0 || ftruncate(pg->fd, HWSIM_MMIO_PAGE_SIZE) != 0) {
		rte_errno = errno;
		HWSIM_LOG(ERR, "cannot create an MMIO page: %s", rte_strerror(rte_errno));
		goto err_free;
	}
	addr = mmap(NULL, HWSIM_MMIO_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, pg->fd, 0);
	if (addr == MAP_FAILED) {
		rte_errno = errno;
		HWSIM_LOG(ERR, "cannot map an MMIO page: %s", rte_strerror(rte_errno));
		goto err_free;
	}
	pthread_mutex_init(&pg->watch_lock, NULL);
	pg->addr = addr;
	return pg;

err_free:
	if (pg->fd >= 0)
		close(pg->fd);
	free(pg);
	return NULL;
}

struct hwsim_mmio_page *
hwsim_mmio_page_alloc(void)
{
	return hwsim_mmio_page_new(0);
}

void
hwsim_mmio_page_free(struct hwsim_mmio_page *pg)
{
	if (pg == NULL)
		return;
	/* A page hwsim_mmio_page_retire() retired has no mapping left. */
	if (pg->addr != NULL)
		munmap(pg->addr, HWSIM_MMIO_PAGE_SIZE);
	close(pg->fd);
	pthread_mutex_destroy(&pg->watch_lock);
	free(pg);
}

void *
hwsim_mmio_page_addr(struct hwsim_mmio_page *pg)
{
	return pg->addr;
}

int
hwsim_mmio_page_fd(struct hwsim_mmio_page *pg)
{
	return pg->fd;
}

int
hwsim_mmio_watch(struct hwsim_mmio_page *pg, uint32_t off, uint32_t width,
		 hwsim_mmio_cb cb, void *arg)
{
	return hwsim_mmio_watch_idle(pg, off, width, 0, cb, arg);
}

static int hwsim_mmio_add(struct hwsim_mmio_page *pg, uint32_t off, uint32_t width,
			  uint64_t idle, hwsim_mmio_cb cb, hwsim_mmio_rd_cb rd, void *arg);

int
hwsim_mmio_watch_idle(struct hwsim_mmio_page *pg, uint32_t off, uint32_t width, uint64_t idle,
		      hwsim_mmio_cb cb, void *arg)
{
	return hwsim_mmio_add(pg, off, width, idle, cb, NULL, arg);
}

int
hwsim_mmio_reg(struct hwsim_mmio_page *pg, uint32_t off, hwsim_mmio_rd_cb rd, hwsim_mmio_cb wr,
	       void *arg)
{
	if (rd == NULL)
		return -EINVAL;
	return hwsim_mmio_add(pg, off, 4, 0, wr, rd, arg);
}

static int
hwsim_mmio_add(struct hwsim_mmio_page *pg, uint32_t off, uint32_t width, uint64_t idle,
	       hwsim_mmio_cb cb, hwsim_mmio_rd_cb rd, void *arg)
{
	struct hwsim_mmio_watch *w;
	unsigned int i;
	int ret = 0;

	if (pg == NULL || (cb == NULL && rd == NULL) || (width != 4 && width != 8) ||
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
	w->rd = rd;
	if (rd != NULL) {
		/* A register reads its device value from the start, before any poll. */
		w->pub = rd(arg, off);
		__atomic_store_n((uint32_t *)(void *)(pg->addr + off), w->pub, __ATOMIC_RELEASE);
	} else if (width == 8)
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

/*
 * A published register: a word that differs from what the device last published is a
 * software store, passed to the write callback; then the device's current value is
 * published with a compare-and-swap from the word seen, so a store that lands in between
 * is not overwritten but found by the next pass. A store of the value already published
 * is invisible, as for a doorbell of its idle value.
 */
static int
hwsim_mmio_reg_poll(struct hwsim_mmio_page *pg, struct hwsim_mmio_watch *w)
{
	uint32_t *word = (uint32_t *)(void *)(pg->addr + w->off);
	uint32_t cur;
	uint32_t val;
	int calls = 0;

	/* Acquire: the device's reaction to a store sees what software wrote before it. */
	cur = __atomic_load_n(word, __ATOMIC_ACQUIRE);
	if (cur != w->pub) {
		if (w->cb != NULL)
			w->cb(w->arg, w->off, cur);
		calls++;
	}
	val = w->rd(w->arg, w->off);
	/* Release: what the device did before publishing is visible to a reader of the word. */
	if (__atomic_compare_exchange_n(word, &cur, val, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		w->pub = val;
	return calls;
}

int
hwsim_mmio_poll(struct hwsim_mmio_page *pg)
{
	struct hwsim_mmio_watch *w;
	unsigned int n;
	unsigned int i;
	uint64_t raw;
	int calls = 0;

	/* An alias whose own mapping could not be made again (hwsim_mmio_page_retire()). */
	if (pg->addr == NULL)
		return 0;
	n = __atomic_load_n(&pg->nb_watch, __ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++) {
		w = &pg->watch[i];
		if (w->rd != NULL) {
			calls += hwsim_mmio_reg_poll(pg, w);
			continue;
		}
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

struct hwsim_mmio_page *
hwsim_mmio_page_alias(struct hwsim_mmio_page *pg)
{
	/*
	 * The alias's inode gets atime 0 once its own mapping exists: a mapping made later (by
	 * the process it is lent to) sets it to the time of day (hwsim_mmio_page_retire()).
	 */
	static const struct timespec never[2] = { { 0, 0 }, { 0, UTIME_OMIT } };
	const struct hwsim_mmio_watch *w;
	struct hwsim_mmio_page *al;
	unsigned int i;
	int ret = 0;

	if (pg == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* Sealable: how hwsim_mmio_page_retire() learns that no other mapping remains. */
	al = hwsim_mmio_page_new(MFD_ALLOW_SEALING);
	if (al == NULL)
		return NULL;
	al->alias = 1;
	pthread_mutex_lock(&pg->watch_lock);
	for (i = 0; i < pg->nb_watch && ret == 0; i++) {
		w = &pg->watch[i];
		ret = hwsim_mmio_add(al, w->off, w->width, w->idle, w->cb, w->rd, w->arg);
	}
	pthread_mutex_unlock(&pg->watch_lock);
	if (ret == 0 && futimens(al->fd, never) != 0)
		ret = -errno;
	if (ret != 0) {
		HWSIM_LOG(ERR, "cannot make an alias of an MMIO page: %s", rte_strerror(-ret));
		hwsim_mmio_page_free(al);
		rte_errno = -ret;
		return NULL;
	}
	return al;
}

int
hwsim_mmio_page_retire(struct hwsim_mmio_page *pg, int fresh_ok)
{
	struct stat st;
	void *addr;
	int ret;

	if (pg == NULL || !pg->alias)
		return -EINVAL;
	if (pg->addr == NULL)
		return 0;
	if (fstat(pg->fd, &st) != 0)
		return -errno;
	/* Never mapped since hwsim_mmio_page_alias(): its fd may be on its way to a process. */
	if (!fresh_ok && st.st_atim.tv_sec == 0 && st.st_atim.tv_nsec == 0)
		return -EAGAIN;
	/*
	 * The kernel seals a memfd against writes only while no writable shared mapping of it
	 * exists, in any process: drop the page's own, and the seal says whether another one
	 * remains. Sealed, the page cannot be mapped writable again: it is done with.
	 */
	munmap(pg->addr, HWSIM_MMIO_PAGE_SIZE);
	pg->addr = NULL;
	if (fcntl(pg->fd, F_ADD_SEALS, F_SEAL_WRITE) == 0)
		return 0;
	ret = errno == EBUSY ? -EBUSY : -errno;
	/* Stores made meanwhile are in the memfd: the new mapping finds them. */
	addr = mmap(NULL, HWSIM_MMIO_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, pg->fd, 0);
	if (addr == MAP_FAILED) {
		ret = -errno;
		HWSIM_LOG(ERR, "cannot map an MMIO alias page again: %s", rte_strerror(-ret));
		return ret;
	}
	pg->addr = addr;
	return ret;
}
