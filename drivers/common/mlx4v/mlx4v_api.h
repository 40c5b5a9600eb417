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

#endif /* _MLX4V_API_H_ */
