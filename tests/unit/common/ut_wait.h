/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Bounded waits for unit tests: poll a condition, never assert a duration. */

#ifndef _UT_WAIT_H_
#define _UT_WAIT_H_

#include <stdint.h>
#include <time.h>

/* Every wait is bounded by this; no test asserts how fast anything is. */
#define WAIT_LIMIT_MS 10000

static inline void
sleep_ms(unsigned int ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/* @return 0 once *cnt >= target, -1 if WAIT_LIMIT_MS passes first. */
static inline int
wait_counter(const uint64_t *cnt, uint64_t target)
{
	unsigned int ms;

	for (ms = 0; ms < WAIT_LIMIT_MS; ms++) {
		if (__atomic_load_n(cnt, __ATOMIC_ACQUIRE) >= target)
			return 0;
		sleep_ms(1);
	}
	return __atomic_load_n(cnt, __ATOMIC_ACQUIRE) >= target ? 0 : -1;
}

#endif /* _UT_WAIT_H_ */
