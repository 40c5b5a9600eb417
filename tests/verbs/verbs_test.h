/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file What the verbs emulation's test programs share: one line per check. */

#ifndef _VERBS_TEST_H_
#define _VERBS_TEST_H_

#include <stdio.h>

/** Failed checks so far; the program exits nonzero if any. */
static int verbs_test_fails;

/** "ok: ..." or "FAIL: ..." on one line of stdout. */
#define CHECK(cond, ...) do { \
	if (cond) { \
		printf("ok: " __VA_ARGS__); \
	} else { \
		printf("FAIL: " __VA_ARGS__); \
		verbs_test_fails++; \
	} \
	printf("\n"); \
} while (0)

#endif /* _VERBS_TEST_H_ */
