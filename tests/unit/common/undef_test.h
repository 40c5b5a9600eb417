/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Trim DPDK's app/test runner to what a unit-test program of ours needs. */

#include <rte_config.h>
#undef RTE_LIB_PDUMP
#undef RTE_LIB_TIMER
