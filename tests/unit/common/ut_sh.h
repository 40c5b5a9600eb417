/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Run a shell command line from a unit test (ip(8) for TAPs and namespaces). */

#ifndef _UT_SH_H_
#define _UT_SH_H_

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>

static inline int
ut_sh(const char *fmt, ...) __rte_format_printf(1, 2);

/** @return system()'s result for the formatted command line. */
static inline int
ut_sh(const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return system(line);
}

#endif /* _UT_SH_H_ */
