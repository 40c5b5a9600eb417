/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Commands of DPDK's app/test runner that our unit-test programs do not carry. */

#include <cmdline_parse.h>

#include "test.h"

int
test_mp_secondary(void)
{
	return -1;
}

int
test_panic(void)
{
	return -1;
}

int
test_exit(void)
{
	return -1;
}

int
test_set_rxtx_conf(cmdline_fixed_string_t mode)
{
	(void)mode;
	return -1;
}

int
test_set_rxtx_anchor(cmdline_fixed_string_t type)
{
	(void)type;
	return -1;
}

int
test_set_rxtx_sc(cmdline_fixed_string_t type)
{
	(void)type;
	return -1;
}
