/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The emulations' file system (emu_path.c), shared by the preloads of
 * dpdk-mlxv-vfio-run and dpdk-mlxv-verbs-run: each preload describes its prefixes and its
 * tree in emu_path_conf; emu_path.c interposes the libc path calls.
 */

#ifndef _EMU_PATH_H_
#define _EMU_PATH_H_

#include <stdio.h>

/** How a prefix matches: a whole path component, or the start of a name ("/sys/module/vfio"). */
struct emu_path_prefix {
	const char *path;
	int name_prefix;
};

/** What one preload emulates; defined once by each preload. */
struct emu_path_conf {
	/** Log prefix, and the tree's directory name under $TMPDIR. */
	const char *name;
	/** Absolute paths redirected into the tree. */
	const struct emu_path_prefix *prefixes;
	unsigned int nb_prefixes;
	/** @return how many devices are emulated (0: no tree, nothing redirected). */
	unsigned int (*prepare)(void);
	/** Fill the tree (emu_path_mkdir/file/link). @return 0, else the tree is incomplete. */
	int (*build)(void);
	/** Open of a path under a prefix: an fd, -1 with errno, or -2 when not a device node. */
	int (*open_node)(const char *path);
};

extern const struct emu_path_conf emu_path_conf;

/** Log one line to stderr, prefixed with the emulation's name. */
#define EMU_PATH_LOG(fmt, ...) \
	fprintf(stderr, "%s: " fmt "\n", emu_path_conf.name, ##__VA_ARGS__)

/** The real libc function behind an interposed one, or NULL. */
void *emu_path_next(const char *name);

/** The real function name, looked up on first use, as real_<name>. */
#define EMU_PATH_REAL(ret, name, ...) \
	static ret (*real_##name)(__VA_ARGS__); \
	if (real_##name == NULL) \
		real_##name = (ret (*)(__VA_ARGS__))emu_path_next(#name)

/** Write the file rel of the tree (printf-style content). @return 0 or -errno. */
int emu_path_file(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** mkdir -p of a directory of the tree (printf-style). @return 0 or -errno. */
int emu_path_mkdir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** A link of the tree to target (printf-style name). @return 0 or -errno. */
int emu_path_link(const char *target, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* _EMU_PATH_H_ */
