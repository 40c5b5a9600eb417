/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Log type of the simulator framework: pmd.sim.hwsim. */

#ifndef _HWSIM_LOG_H_
#define _HWSIM_LOG_H_

#include <rte_log.h>

/** Dynamic log type, registered in hwsim_log.c with default level NOTICE. */
extern int hwsim_logtype;

/** Log one line (the newline is appended) at RTE_LOG_<level>, e.g. HWSIM_LOG(ERR, "x"). */
#define HWSIM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, hwsim_logtype, "hwsim: " fmt "\n", ## __VA_ARGS__)

#endif /* _HWSIM_LOG_H_ */
