/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Trim DPDK's app/test runner to what a unit-test program of ours needs. */

#include <rte_config.h>
#undef RTE_LIB_PDUMP
#undef RTE_LIB_TIMER

/*
 * rte_test.h compares its arguments unparenthesised (a == b), so an argument
 * such as "v & 0xff" would compare the wrong thing: give every unit test
 * parenthesised equality assertions.
 */
#include <rte_test.h>
#undef RTE_TEST_ASSERT_EQUAL
#define RTE_TEST_ASSERT_EQUAL(a, b, msg, ...) \
	RTE_TEST_ASSERT((a) == (b), msg, ##__VA_ARGS__)
#undef RTE_TEST_ASSERT_NOT_EQUAL
#define RTE_TEST_ASSERT_NOT_EQUAL(a, b, msg, ...) \
	RTE_TEST_ASSERT((a) != (b), msg, ##__VA_ARGS__)
