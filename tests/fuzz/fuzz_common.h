/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Shared by the libFuzzer targets: EAL brought up once per process, the leak
 * oracle (EAL heap snapshots) and the finding report (doc/guides/testing/fuzzing.rst).
 */

#ifndef _FUZZ_COMMON_H_
#define _FUZZ_COMMON_H_

#include <stddef.h>
#include <stdint.h>

/*
 * LLVMFuzzerInitialize() (fuzz_common.c) runs rte_eal_init() once: --no-huge, --no-shconf,
 * no PCI scan, no telemetry, the global log level "emergency" unless MLXV_FUZZ_LOG names
 * another (e.g. MLXV_FUZZ_LOG=debug); then the target's fuzz_setup(). At exit the target's
 * fuzz_teardown() runs, then rte_eal_cleanup(), which removes the vdevs left, so that
 * LeakSanitizer sees only what the drivers really lost.
 */

/** Defined by each target: create what every input uses. Aborts (fuzz_fail) on failure. */
void fuzz_setup(void);

/** Defined by each target: undo fuzz_setup(), at exit. */
void fuzz_teardown(void);

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/**
 * A finding: print what and where, then abort() so that libFuzzer keeps the input
 * as a crash file. Used for hangs, leaks and broken contracts the sanitizers cannot see.
 */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/** Consume-from-the-front reader of a fuzz input. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

/** @return the next byte, or 0 once the input is used up. */
uint8_t fuzz_u8(struct fuzz_in *in);
/** @return the next 16 bits (little endian), 0 for missing bytes. */
uint16_t fuzz_u16(struct fuzz_in *in);
/** @return the next 32 bits (little endian), 0 for missing bytes. */
uint32_t fuzz_u32(struct fuzz_in *in);
/** Copy up to max bytes into dst (the rest of dst is left alone). @return bytes copied. */
size_t fuzz_take(struct fuzz_in *in, void *dst, size_t max);

#endif /* _FUZZ_COMMON_H_ */
