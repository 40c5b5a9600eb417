/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file What the launchers dpdk-mlxv-vfio-run and dpdk-mlxv-verbs-run share: the BDF syntax,
 * finding their preload library, and running the command with it.
 */

#ifndef _EMU_LAUNCH_H_
#define _EMU_LAUNCH_H_

#include <stddef.h>

/** "dddd:bb:dd.f" and its NUL. */
#define EMU_BDF_LEN 13

/**
 * Check "dddd:bb:dd.f" (lower-case hex, device <= 0x1f, function <= 7).
 * @return 0 or -EINVAL.
 */
int emu_bdf_check(const char *bdf);

/**
 * The preload library lib: in subdir beside the running program (the build tree), else in
 * dir (where it is installed). prog names the launcher in the message when neither has it.
 * @return 0 with the path in buf, or -ENOENT.
 */
int emu_launch_preload(const char *prog, const char *subdir, const char *lib, const char *dir,
		       char *buf, size_t len);

/**
 * Execute argv[0] with preload first in LD_PRELOAD (the environment's own after it); the
 * caller set the emulation's variables. @return 127 when the command cannot run, 1 when the
 * environment cannot be set (with a message).
 */
int emu_launch_exec(const char *prog, const char *preload, char **argv);

#endif /* _EMU_LAUNCH_H_ */
