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
	int fd[EMU_HOST_MAX_FDS];         /**< the host's (serve), or received ones (fetch) */
	uint8_t info[EMU_HOST_INFO_LEN];  /**< anything else the emulation needs */
};

/**
 * Fill m for a process asking for key: runs in the host's server thread, once per request.
 * The fds stay the host's. @return 0 or -errno (the request is refused).
 */
typedef int (*emu_host_fill_cb)(void *arg, const char *key, struct emu_host_msg *m);

/**
 * A store another process made to a page of the model that only the host reaches (a trapped
 * doorbell): hand it to the model. Runs in a server thread of the host. @return 0 or -errno.
 */
typedef int (*emu_host_store_cb)(void *arg, uint32_t off, uint64_t val);

/**
 * Host key: answer every process of the tree that asks for it with fill(arg), and take the
 * stores of its store channels with store(arg) (NULL: none taken). Not an error outside a
 * launcher (EMU_HOST_ENV unset): nothing is served.
 * @return 0, -EADDRINUSE (another process hosts key), or -errno.
 */
int emu_host_serve(const char *key, emu_host_fill_cb fill, emu_host_store_cb store, void *arg);

/**
 * Ask the process hosting key. m->fd are then this process's to close.
 * @return 0, -ENOENT (nobody hosts key, or no launcher), or -errno.
 */
int emu_host_fetch(const char *key, struct emu_host_msg *m);

/**
 * A store channel to the process hosting key (emu_host_store()). @return its fd (this
 * process's to close), -ENOENT (nobody hosts key) or -errno.
 */
int emu_host_connect(const char *key);

/**
 * Hand the store of val at off to the host's model over channel conn and wait until the host
 * took it, as a trapped store waits for the device. Async-signal-safe (a store trap calls it).
 * @return 0 or -errno.
 */
int emu_host_store(int conn, uint32_t off, uint64_t val);

/**
 * The name fd's memfd was created with, into name (len bytes): how a process knows an
 * emulated node's fd another process passed it. @return 0, or -ENOENT (not a memfd).
 */
int emu_host_memfd_name(int fd, char *name, size_t len);

#endif /* _EMU_HOST_H_ */
