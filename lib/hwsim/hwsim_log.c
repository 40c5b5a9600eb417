/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Registration of the pmd.sim.hwsim log type. */

#include <rte_log.h>

#include "hwsim_log.h"

/*
 * Each driver links hwsim whole, so a process may hold several copies of this
 * variable; rte_log_register() hands every copy the same id for the same name.
 */
RTE_LOG_REGISTER(hwsim_logtype, pmd.sim.hwsim, NOTICE);
