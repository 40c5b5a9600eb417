/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file EAL bring-up, findings and input readers of the fuzz targets (fuzz_common.h). */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "fuzz_common.h"

static void
fuzz_exit(void)
{
	fuzz_teardown();
	rte_eal_cleanup();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char log_arg[64];
	const char *lvl = getenv("MLXV_FUZZ_LOG");
	char *eal_argv[] = {
		(char *)"mlxv-fuzz", (char *)"--no-huge", (char *)"-m", (char *)"512",
		(char *)"--no-shconf", (char *)"--no-pci", (char *)"--no-telemetry",
		(char *)"-l", (char *)"0", log_arg, NULL,
	};

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	snprintf(log_arg, sizeof(log_arg), "--log-level=%s",
		 lvl != NULL && lvl[0] != '\0' ? lvl : "emergency");
	if (rte_eal_init(RTE_DIM(eal_argv) - 1, eal_argv) < 0)
		fuzz_fail("rte_eal_init: %s", rte_strerror(rte_errno));
	fuzz_setup();
	atexit(fuzz_exit);
	return 0;
}

void
fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "FUZZ FINDING: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

uint8_t
fuzz_u8(struct fuzz_in *in)
{
	uint8_t v;

	if (in->n == 0)
		return 0;
	v = in->p[0];
	in->p++;
	in->n--;
	return v;
}

uint16_t
fuzz_u16(struct fuzz_in *in)
{
	uint16_t v = fuzz_u8(in);

	return v | (uint16_t)fuzz_u8(in) << 8;
}

uint32_t
fuzz_u32(struct fuzz_in *in)
{
	uint32_t v = fuzz_u16(in);

	return v | (uint32_t)fuzz_u16(in) << 16;
}

size_t
fuzz_take(struct fuzz_in *in, void *dst, size_t max)
{
	size_t len = RTE_MIN(in->n, max);

	memcpy(dst, in->p, len);
	in->p += len;
	in->n -= len;
	return len;
}
