/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The verbs emulation's core clock page (doc/guides/platform/verbs_emulation.rst, "Clock"):
 * mmap of the uverbs fd at 3 pages (mlx4_ib's hardware clock page, which libmlx4 maps when the
 * extended device query gives a clock offset) gives one page that reads as the HCA's
 * free-running clock register: the counter's high word (big-endian) at the offset the query
 * reported, its low word after it. The page is inaccessible to the program and each read of
 * it traps (emu_trap_add_read()), so that the counter is current at every read, as a device
 * register is. The counter counts VERBS_CLOCK_KHZ ticks per millisecond of CLOCK_MONOTONIC,
 * modulo 2^48 (the timestamp mask the query reports).
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <rte_byteorder.h>

#include "emu_trap.h"
#include "verbs_run.h"

#define VERBS_CLOCK_MAX 64

struct verbs_clock {
	uint8_t *user;          /**< the program's mapping, NULL: free slot */
	uint8_t *alias;         /**< the preload's writable view of the same page */
	size_t len;
};

static struct verbs_clock verbs_clocks[VERBS_CLOCK_MAX];

uint64_t
verbs_clock_now(void)
{
	struct timespec ts;
	uint64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return (uint64_t)((unsigned __int128)ns * VERBS_CLOCK_KHZ / 1000000u) &
		VERBS_CLOCK_MASK;
}

/* Before a read of the page (emu_trap.c, in the reading thread): the register's value now. */
static void
verbs_clock_fill(void *arg, void *page)
{
	struct verbs_clock *c = arg;
	uint64_t t = verbs_clock_now();
	uint32_t w[2];

	(void)page;
	w[0] = rte_cpu_to_be_32((uint32_t)(t >> 32));
	w[1] = rte_cpu_to_be_32((uint32_t)t);
	memcpy(c->alias + VERBS_CLOCK_OFFSET, w, sizeof(w));
}

void *
verbs_clock_mmap(size_t len)
{
	struct verbs_clock *c = NULL;
	unsigned int i;
	int ret;

	for (i = 0; i < VERBS_CLOCK_MAX && c == NULL; i++)
		if (verbs_clocks[i].user == NULL)
			c = &verbs_clocks[i];
	if (c == NULL) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	c->user = verbs_page_pair(len, PROT_NONE, &c->alias);
	if (c->user == MAP_FAILED) {
		c->user = NULL;
		return MAP_FAILED;
	}
	c->len = len;
	ret = emu_trap_add_read(c->user, len, verbs_clock_fill, c);
	if (ret) {
		VERBS_RUN_LOG("clock page: no read trap (%s)", strerror(-ret));
		munmap(c->user, len);
		munmap(c->alias, len);
		c->user = NULL;
		errno = -ret;
		return MAP_FAILED;
	}
	return c->user;
}

void
verbs_clock_munmap(void *addr, size_t len, int (*unmap)(void *, size_t))
{
	struct verbs_clock *c;
	unsigned int i;

	for (i = 0; i < VERBS_CLOCK_MAX; i++) {
		c = &verbs_clocks[i];
		if (c->user == NULL || (uint8_t *)addr >= c->user + c->len ||
		    c->user >= (uint8_t *)addr + len)
			continue;
		unmap(c->alias, c->len);
		c->user = NULL;
	}
}
