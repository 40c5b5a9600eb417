/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The verbs emulation (doc/guides/platform/verbs_emulation.rst): what the launcher
 * dpdk-mlxv-verbs-run and its preload library share, and the preload's internal interfaces.
 */

#ifndef _VERBS_RUN_H_
#define _VERBS_RUN_H_

#include <stdint.h>
#include <stdio.h>

#include "emu_launch.h"

/** The functions to emulate: "BDF[,SIMDEVARGS];BDF[,SIMDEVARGS]...", set by the launcher. */
#define VERBS_RUN_ENV_DEVS "MLXV_VERBS_DEVS"
/** Set to 1 by the launcher (--trace): log every uverbs command to stderr. */
#define VERBS_RUN_ENV_TRACE "MLXV_VERBS_TRACE"
/** Most emulated functions. */
#define VERBS_RUN_MAX_DEVS 8
/** ConnectX-3 (mlx4_core): PCI vendor and device, and the PCI class of an Ethernet controller. */
#define VERBS_RUN_VENDOR 0x15b3
#define VERBS_RUN_DEVICE 0x1007
#define VERBS_RUN_CLASS 0x020000
/** The model of function BDF is "verbs-<BDF>" (mlx4v_sim_get()). */
#define VERBS_RUN_MODEL_PREFIX "verbs-"
/** The uverbs character devices: major 231, minors from 192 (the kernel's IB_UVERBS_BASE_DEV). */
#define VERBS_RUN_CDEV_MAJOR 231
#define VERBS_RUN_CDEV_MINOR 192

/** Log one line to stderr, prefixed with the emulation's name. */
#define VERBS_RUN_LOG(fmt, ...) \
	fprintf(stderr, "mlxv-verbs: " fmt "\n", ##__VA_ARGS__)

/** One emulated function. */
struct verbs_run_dev {
	char bdf[EMU_BDF_LEN];
	const char *devargs;        /**< SIMDEVARGS, "" for none */
	unsigned int idx;           /**< mlx4_<idx>, uverbs<idx> */
};

/**
 * Parse one "BDF[,SIMDEVARGS]" into d (devargs points into s, which the caller keeps).
 * @return 0, or -EINVAL with a message in err.
 */
int verbs_run_dev_parse(char *s, unsigned int idx, struct verbs_run_dev *d, char *err,
			size_t errlen);

/* ---- preload: the functions and their models (verbs_preload_path.c) ---- */

struct mlx4v_sim;

/** @return the emulated functions (parsed from the environment once), *n their count. */
struct verbs_run_dev *verbs_preload_devs(unsigned int *n);

/** @return the model of function idx, created at the first call; NULL if it cannot be. */
struct mlx4v_sim *verbs_preload_sim(unsigned int idx);

/**
 * The model of function idx for a new open while none of its files is open: a dead model
 * (catastrophic error) is replaced by a new one, as mlx4_core's reset. @return it, or NULL.
 */
struct mlx4v_sim *verbs_preload_sim_revive(unsigned int idx);
/**
 * The model of function idx for a new open while files of it are open: a dead model is reset
 * in place, as mlx4_core's reset after the catastrophic error, which disassociates the open
 * contexts (their objects are stale in the model) and lets a new one work. @return it, or NULL.
 */
struct mlx4v_sim *verbs_preload_sim_reset(unsigned int idx);

/* ---- preload: one model per function per command tree (verbs_preload_host.c) ---- */

/** Ports a host describes (mlx4: two at most). */
#define VERBS_HOST_MAX_PORTS 2

/** The ports of a function as its model has them (the host's, in another process). */
struct verbs_host_ports {
	uint32_t nports;
	struct {
		uint8_t up;
		uint8_t mac[6];
		uint16_t mtu;
	} port[VERBS_HOST_MAX_PORTS];
};

/** The emu_host key of function idx: its model's name. */
void verbs_host_key(unsigned int idx, char *key, size_t len);

/** Host function idx's model for the tree. @return 0, -EADDRINUSE (hosted elsewhere), -errno. */
int verbs_host_serve(unsigned int idx);

/** Reach the model another process hosts. @return 0, -ENOENT (none hosts it) or -errno. */
int verbs_host_join(unsigned int idx);

/** @return 1 if another process hosts function idx's model (verbs_preload_sim() is NULL). */
int verbs_host_is_remote(unsigned int idx);

/** The ports of function idx, here or from its host. @return 0 or -ENODEV. */
int verbs_host_ports(unsigned int idx, struct verbs_host_ports *hp);

/** The netdev name of port (1-based) of function idx, as mlx4_en names them. */
void verbs_preload_ifname(unsigned int idx, unsigned int port, char *buf, size_t len);

/* ---- preload: the mlx4_en netdevs (verbs_preload_netdev.c) ---- */

/** verbs_netdev_ioctl(): the request is not on an emulated netdev. */
#define VERBS_NETDEV_NOT_OURS (-2)

/**
 * An ioctl on fd: answered when it is an interface request on a socket naming an emulated
 * port's netdev. @return 0, -1 with errno set, or VERBS_NETDEV_NOT_OURS.
 */
int verbs_netdev_ioctl(int fd, unsigned long req, void *arg);

/* ---- preload: the uverbs character device (verbs_preload_dev.c) ---- */

/** Open of /dev/infiniband/uverbs<idx>. @return an fd, or -1 with errno set. */
int verbs_preload_dev_open(unsigned int idx);

/** @return 1 with --trace. */
int verbs_preload_trace_on(void);

/* ---- preload: completion channels (verbs_preload_event.c) ---- */

/** A new channel. @return the fd the command reads events from, or -errno. */
int verbs_event_channel_new(void);

/** @return the write end of channel rd, or -1 when rd is no channel. */
int verbs_event_channel_wr(int rd);

/** fd is being closed: if it is a channel, its write end goes too. */
void verbs_event_channel_closed(int fd);

/**
 * Deliver the events the model raises on event_fd to channel chan_wr as descriptors naming
 * user_handle, counting them in *reported. @return 0 or -errno.
 */
int verbs_event_watch(int event_fd, int chan_wr, uint64_t user_handle, uint32_t *reported);

/** No more deliveries for event_fd once this returns. */
void verbs_event_unwatch(int event_fd);

/* ---- preload: asynchronous events (verbs_preload_async.c) ---- */

/**
 * The context whose async event file has write end wr, on function idx, hears the events of
 * its model sim. @return 0 or -errno.
 */
int verbs_async_ctx_add(unsigned int idx, struct mlx4v_sim *sim, int wr);

/** No more events to wr (and its CQs); before wr is closed. */
void verbs_async_ctx_del(int wr);

/**
 * CQ cqn of the context of wr: its error event names user_handle, counted in *reported.
 * @return 0 or -errno.
 */
int verbs_async_cq_add(int wr, uint32_t cqn, uint64_t user_handle, uint32_t *reported);

/** No more error events of CQ cqn; before its counter goes. */
void verbs_async_cq_del(int wr, uint32_t cqn);

/**
 * SRQ srqn of the context of wr: its limit event names user_handle, counted in *reported.
 * @return 0 or -errno.
 */
int verbs_async_srq_add(int wr, uint32_t srqn, uint64_t user_handle, uint32_t *reported);

/** No more limit events of SRQ srqn; before its counter goes. */
void verbs_async_srq_del(int wr, uint32_t srqn);

/**
 * QP qpn (on an SRQ) of the context of wr: its last-WQE event names user_handle, counted here.
 * @return 0 or -errno.
 */
int verbs_async_qp_add(int wr, uint32_t qpn, uint64_t user_handle);

/** No more events of QP qpn. @return the events delivered for it. */
uint32_t verbs_async_qp_del(int wr, uint32_t qpn);

/* ---- preload: the core clock page (verbs_preload_clock.c) ---- */

/** The page index of mlx4_ib's hardware clock page in the uverbs fd's mmap offsets. */
#define VERBS_CLOCK_PGOFF 3
/** The model's clock frequency (the extended device query's hca_core_clock, kHz). */
#define VERBS_CLOCK_KHZ 1000000u
/** The counter's width: 48 bits (the query's timestamp mask). */
#define VERBS_CLOCK_MASK ((1ull << 48) - 1)
/** Where in the page the counter is (the query's hca_core_clock_offset). */
#define VERBS_CLOCK_OFFSET 0

/**
 * A page of len bytes mapped twice: for the program with prot, returned (MAP_FAILED with
 * errno), and writable for the preload in *alias (verbs_preload_dev.c).
 */
void *verbs_page_pair(size_t len, int prot, uint8_t **alias);

/** The clock counter now. */
uint64_t verbs_clock_now(void);

/** A clock page of len bytes for the program, or MAP_FAILED with errno. */
void *verbs_clock_mmap(size_t len);

/** Forget the clock pages in [addr, addr + len), their views unmapped with unmap. */
void verbs_clock_munmap(void *addr, size_t len, int (*unmap)(void *, size_t));

#define VERBS_TRACE(fmt, ...) do { \
	if (verbs_preload_trace_on()) \
		VERBS_RUN_LOG(fmt, ##__VA_ARGS__); \
} while (0)

#endif /* _VERBS_RUN_H_ */
