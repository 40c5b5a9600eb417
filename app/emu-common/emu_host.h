/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file One model per function per command tree (emu_host.c): the process that creates a
 * function's model hosts it, and the other processes of the launcher's tree reach it through
 * the pages it serves over a unix socket (doc/guides/platform/vfio_emulation.rst, "Several
 * processes").
 */

#ifndef _EMU_HOST_H_
#define _EMU_HOST_H_

#include <stddef.h>
#include <stdint.h>

/** Set by the launchers: the name every process of its tree shares, one per launcher. */
#define EMU_HOST_ENV "MLXV_EMU_HOST"
/** Most descriptors one answer carries. */
#define EMU_HOST_MAX_FDS 64
/** Bytes of the answer's description of the function, the emulation's own. */
#define EMU_HOST_INFO_LEN 256

/** What the hosting process tells another one of a function. */
struct emu_host_msg {
	uint32_t nb_fds;                  /**< descriptors in fd[] */
	uint64_t off[EMU_HOST_MAX_FDS];   /**< where fd[i]'s page goes (the emulation's meaning) */
	int fd[EMU_HOST_MAX_FDS];         /**< the host's fds (serve) or the received ones (fetch) */
	uint8_t info[EMU_HOST_INFO_LEN];  /**< anything else the emulation needs */
};

/**
 * Fill m for a process asking for key: runs in the host's server thread, once per request.
 * The fds stay the host's. @return 0 or -errno (the request is refused).
 */
typedef int (*emu_host_fill_cb)(void *arg, const char *key, struct emu_host_msg *m);

/**
 * Host key: answer every process of the tree that asks for it with fill(arg). Not an error
 * outside a launcher (EMU_HOST_ENV unset): nothing is served.
 * @return 0, -EADDRINUSE (another process hosts key), or -errno.
 */
int emu_host_serve(const char *key, emu_host_fill_cb fill, void *arg);

/**
 * Ask the process hosting key. m->fd are then this process's to close.
 * @return 0, -ENOENT (nobody hosts key, or no launcher), or -errno.
 */
int emu_host_fetch(const char *key, struct emu_host_msg *m);

#endif /* _EMU_HOST_H_ */
