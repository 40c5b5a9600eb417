/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Registration of the pmd.sim.hwsim log type. */

#include <rte_log.h>

#include "hwsim_log.h"

/* One copy per process: librte_hwsim is the only library that holds this variable. */
RTE_LOG_REGISTER(hwsim_logtype, pmd.sim.hwsim, NOTICE);
