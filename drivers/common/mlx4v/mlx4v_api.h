/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The mlx4v core's internal API for programs outside the library (our testpmd commands
 * and tools), besides the public rte_pmd_mlx4v.h: calls by EAL device name, exported
 * through version.map (INTERNAL). No structure of the library's internals is visible.
 */

#ifndef _MLX4V_API_H_
#define _MLX4V_API_H_

#include <rte_compat.h>

/**
 * Run the backend's progress hook of a device once (see struct mlx4v_verbs_ops). Any thread.
 * @return the work done (>= 0), 0 when the backend has no hook, or -ENODEV.
 */
__rte_internal
int mlx4v_dev_progress(const char *name);

/** @return the backend name of a registered device ("simulator", "rdma-core") or NULL. */
__rte_internal
const char *mlx4v_dev_backend(const char *name);

struct rte_pmd_mlx4v_qp;

/**
 * A file descriptor of the page holding a QP's send doorbell, for a secondary process to map
 * at *off (the backend's: do not close it; the doorbell is at the address's offset in its
 * page): the simulator's page at 0, or rdma-core's verbs context, whose UAR the kernel maps
 * at the QP's uar_mmap_offset. @return the fd, or -errno.
 */
__rte_internal
int mlx4v_qp_sdb_fd(struct rte_pmd_mlx4v_qp *qp, int64_t *off);

struct rte_pmd_mlx4v_cq;

/** What another process needs to sleep on a CQ's completion events and to arm the CQ. */
struct mlx4v_cq_share {
	int event_fd;      /**< rte_pmd_mlx4v_cq_event_fd() (the backend's: do not close it) */
	int uar_fd;        /**< the arm doorbell page (the backend's), as mlx4v_qp_sdb_fd() */
	int64_t uar_off;   /**< where uar_fd maps the page */
	int desc;          /**< event_fd's format, for mlx4v_cq_events_read() */
};

/**
 * Fill *sh for a CQ made with completion events. @return 0 or -errno (-ENOTSUP: the backend
 * cannot lend the doorbell page).
 */
__rte_internal
int mlx4v_cq_share(struct rte_pmd_mlx4v_cq *cq, struct mlx4v_cq_share *sh);

/**
 * Another process: take every event waiting on a CQ's event fd received from the primary
 * (non-blocking, as the primary made it), in format desc (struct mlx4v_cq_share). Each one
 * moves the CQ's arm sequence number on, and on rdma-core must be acknowledged by the
 * primary (mlx4v_cq_events_foreign()). @return the number taken (0: none), or -errno.
 */
__rte_internal
int mlx4v_cq_events_read(int fd, int desc);

/**
 * Primary: acknowledge n events another process took from the CQ's event fd
 * (mlx4v_cq_events_read()), which the CQ's destroy would otherwise wait for on rdma-core
 * (libibverbs counts the events read against those acknowledged). @return 0 or -errno.
 */
__rte_internal
int mlx4v_cq_events_foreign(struct rte_pmd_mlx4v_cq *cq, unsigned int n);

#endif /* _MLX4V_API_H_ */
