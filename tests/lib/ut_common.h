/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Helpers shared by every unit-test program: EAL heap snapshots, sleeps and
 * bounded waits (on an fd, a counter or any condition), the process's open fds. No test
 * asserts a duration.
 */

#ifndef _UT_COMMON_H_
#define _UT_COMMON_H_

#include <dirent.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_devargs.h>
#include <rte_malloc.h>

/* Every wait is bounded by this; no test asserts how fast anything is. */
#define UT_WAIT_LIMIT_MS 10000

/** Monotonic time in milliseconds. */
static inline uint64_t
ut_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static inline void
ut_sleep_ms(unsigned int ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/** EAL heap in use, all sockets: allocated bytes and element count. */
struct ut_heap {
	uint64_t bytes;
	uint64_t count;
};

/** @return the EAL heap bytes in use over all sockets; *count (if not NULL) the elements. */
static inline uint64_t
ut_heap_bytes(uint64_t *count)
{
	struct rte_malloc_socket_stats st;
	uint64_t bytes = 0, n = 0;
	int s;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		if (rte_malloc_get_socket_stats(s, &st) != 0)
			continue;
		bytes += st.heap_allocsz_bytes;
		n += st.alloc_count;
	}
	if (count != NULL)
		*count = n;
	return bytes;
}

static inline void
ut_heap_get(struct ut_heap *h)
{
	h->bytes = ut_heap_bytes(&h->count);
}

/** @return 1 if both snapshots match, else 0 after printing them. */
static inline int
ut_heap_same(const struct ut_heap *a, const struct ut_heap *b)
{
	if (a->bytes == b->bytes && a->count == b->count)
		return 1;
	printf("EAL heap: %" PRIu64 " bytes in %" PRIu64 " elements before, %" PRIu64
	       " bytes in %" PRIu64 " after\n", a->bytes, a->count, b->bytes, b->count);
	return 0;
}

/** @return 1 once fd is readable, 0 after UT_WAIT_LIMIT_MS. Reads nothing. */
static inline int
ut_fd_wait(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, UT_WAIT_LIMIT_MS) == 1;
}

/**
 * Poll expr every millisecond for up to UT_WAIT_LIMIT_MS (and once more at the end).
 * @return 0 once expr is true, -1 if it never was.
 */
#define UT_WAIT_FOR(expr) __extension__ ({ \
	unsigned int ut_ms_; \
	int ut_ret_ = -1; \
	for (ut_ms_ = 0; ut_ms_ <= UT_WAIT_LIMIT_MS; ut_ms_++) { \
		if (expr) { \
			ut_ret_ = 0; \
			break; \
		} \
		if (ut_ms_ < UT_WAIT_LIMIT_MS) \
			ut_sleep_ms(1); \
	} \
	ut_ret_; \
})

/** @return 0 once *cnt >= target, -1 if UT_WAIT_LIMIT_MS passes first. */
static inline int
ut_wait_counter(const uint64_t *cnt, uint64_t target)
{
	return UT_WAIT_FOR(__atomic_load_n(cnt, __ATOMIC_ACQUIRE) >= target);
}

/** ut_wait_counter() for a 32-bit counter. */
static inline int
ut_wait_counter32(const uint32_t *cnt, uint32_t target)
{
	return UT_WAIT_FOR(__atomic_load_n(cnt, __ATOMIC_ACQUIRE) >= target);
}

/**
 * Put devargs for a device not probed yet into EAL's list, so a wire pair may name it
 * (doc/guides/sim/wire.rst); the device's probe replaces them and its removal drops them.
 * @return the devargs, or NULL.
 */
static inline struct rte_devargs *
ut_eal_devargs_add(const char *spec)
{
	struct rte_devargs *da = calloc(1, sizeof(*da));

	if (da == NULL)
		return NULL;
	if (rte_devargs_parse(da, spec) != 0 || rte_devargs_insert(&da) != 0) {
		free(da);
		return NULL;
	}
	return da;
}

/** @return the open file descriptors of this process, -1 if /proc cannot tell. */
static inline int
ut_fd_count(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

#endif /* _UT_COMMON_H_ */
