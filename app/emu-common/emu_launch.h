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
#include <stdio.h>

/** "dddd:bb:dd.f" and its NUL. */
#define EMU_BDF_LEN 13

/**
 * Check "dddd:bb:dd.f" (lower-case hex, device <= 0x1f, function <= 7).
 * @return 0 or -EINVAL.
 */
int emu_bdf_check(const char *bdf);

/** Separator of the functions in the environment list (devargs use ','). */
#define EMU_DEV_SEP ';'

/** One launcher's options besides --dev. */
struct emu_launch_opts {
	const char *prog;               /**< the launcher's name, for messages */
	unsigned int max_devs;          /**< most --dev */
	void (*usage)(FILE *f);
	/**
	 * Another option at argv[*i]: take it (advancing *i past its value). @return 0, 1 when
	 * it is not an option of this launcher, or an exit status > 1.
	 */
	int (*opt)(int argc, char **argv, int *i);
	/* For emu_launch_main(): */
	const char *default_bdf;        /**< the function without --dev */
	const char *env_devs;           /**< the environment variable of the function list */
	const char *preload_subdir;     /**< the preload's directory beside the launcher */
	const char *preload_lib;        /**< the preload's file name */
	const char *preload_dir;        /**< where the preload is installed */
	/** Parse and check the functions (the models refuse bad devargs). @return 0, else 2. */
	int (*check)(char **spec, unsigned int nb);
	/** Set the launcher's own variables. @return 0 or -errno. */
	int (*env)(void);
};

/**
 * Parse "[OPTION | --dev BDF[,SIMDEVARGS]]... -- COMMAND": each --dev value is checked (no
 * EMU_DEV_SEP, a BDF, not given twice) and kept in spec[] (*nb of them), the others go to
 * o->opt(). -h prints the usage.
 * @return the index of COMMAND in argv, or -(exit status): -2 for a usage error, 0 after -h.
 */
int emu_launch_args(const struct emu_launch_opts *o, int argc, char **argv, char **spec,
		    unsigned int *nb);

/** @return spec[0 .. nb - 1] joined with EMU_DEV_SEP (malloc'd), or NULL. */
char *emu_launch_env_devs(char *const *spec, unsigned int nb);

/**
 * The functions of the environment list env (as emu_launch_env_devs() wrote it), each given to
 * parse(tok, idx) until max; a function parse refuses is named on stderr with its message
 * and skipped. The tokens are kept for the life of the process. @return the count parsed.
 */
unsigned int emu_preload_devs(const char *prog, const char *env, unsigned int max,
			      int (*parse)(char *tok, unsigned int idx, char *err, size_t errlen));

/**
 * A launcher's main: the arguments, the functions (default_bdf without --dev) checked, their
 * list in env_devs, and COMMAND executed with the preload. @return the exit status when
 * COMMAND is not executed.
 */
int emu_launch_main(const struct emu_launch_opts *o, int argc, char **argv);

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
