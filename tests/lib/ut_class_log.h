/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The log of the class-registry tests (mlx5v_class, mlx4v_class): the test classes
 * append what they saw, in order ("a+" probed, "b-" removed, "a:dead", "b:port1/4", ...),
 * and a test compares the sequence with what it expects.
 */

#ifndef _UT_CLASS_LOG_H_
#define _UT_CLASS_LOG_H_

#include <stdio.h>
#include <string.h>

#include "test.h"

struct mlxv_class_driver;

#define UT_CLASS_LOG_MAX 32

static char ut_class_log_e[UT_CLASS_LOG_MAX][24];
static unsigned int ut_class_log_n;

/** Append cls followed by what; entries past UT_CLASS_LOG_MAX are dropped. */
static inline void
ut_class_log(const char *cls, const char *what)
{
	unsigned int n = ut_class_log_n;

	/*
	 * Port events come from the EAL interrupt thread: the entry first, then the count
	 * (release), which the test reads with ut_class_log_count() (acquire).
	 */
	if (n < UT_CLASS_LOG_MAX) {
		snprintf(ut_class_log_e[n], sizeof(ut_class_log_e[0]), "%s%s", cls, what);
		__atomic_store_n(&ut_class_log_n, n + 1, __ATOMIC_RELEASE);
	}
}

static inline unsigned int
ut_class_log_count(void)
{
	return __atomic_load_n(&ut_class_log_n, __ATOMIC_ACQUIRE);
}

static inline void
ut_class_log_reset(void)
{
	__atomic_store_n(&ut_class_log_n, 0, __ATOMIC_RELEASE);
}

/** @return 1 if the log is want[0 .. n - 1]; otherwise prints the log and returns 0. */
static inline int
ut_class_log_is(const char *const *want, unsigned int n)
{
	unsigned int i, have = ut_class_log_count();

	if (have != n)
		goto bad;
	for (i = 0; i < n; i++)
		if (strcmp(ut_class_log_e[i], want[i]) != 0)
			goto bad;
	return 1;
bad:
	printf("class log (%u):", have);
	for (i = 0; i < have; i++)
		printf(" %s", ut_class_log_e[i]);
	printf("\n");
	return 0;
}

/**
 * Run suite with the test classes a and b registered through reg (either family's registry),
 * and unregistered through unreg afterwards. @return the suite's result, or TEST_FAILED when a
 * registry call fails.
 */
static inline int
ut_class_suite_run(struct unit_test_suite *suite, int (*reg)(struct mlxv_class_driver *),
		   int (*unreg)(struct mlxv_class_driver *), struct mlxv_class_driver *a,
		   struct mlxv_class_driver *b)
{
	int ret;

	if (reg(a) != 0 || reg(b) != 0)
		return TEST_FAILED;
	ret = unit_test_suite_runner(suite);
	if (unreg(a) != 0 || unreg(b) != 0)
		ret = TEST_FAILED;
	return ret;
}

#endif /* _UT_CLASS_LOG_H_ */
