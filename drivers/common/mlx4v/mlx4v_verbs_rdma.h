/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Registering real ConnectX-3 devices with the rdma-core backend. */

#ifndef _MLX4V_VERBS_RDMA_H_
#define _MLX4V_VERBS_RDMA_H_

#include <rte_compat.h>
#include <rte_dev.h>
#include <rte_pci.h>

/**
 * Make an ibverbs device (e.g. "mlx4_0") openable under an EAL device name.
 * @param ibdev ibverbs device name.
 * @param eal_name Name for rte_pmd_mlx4v_dev_open().
 * @param socket NUMA socket for the rings, or SOCKET_ID_ANY.
 * @return 0, -EINVAL, -EEXIST, -ENOSPC or -ENOMEM. The device is opened only by
 *   rte_pmd_mlx4v_dev_open(), which fails with ENODEV if it is gone.
 */
__rte_internal
int mlx4v_verbs_rdma_register(const char *ibdev, const char *eal_name, int socket);

/**
 * Undo mlx4v_verbs_rdma_register(). Handles and objects still open on the device
 * are force-released first (see mlx4v_dev_unregister()).
 * @return 0 or -ENOENT.
 */
__rte_internal
int mlx4v_verbs_rdma_unregister(const char *eal_name);

/**
 * Find the ibverbs device at a PCI address, register it under eal_name and probe the
 * class drivers that classes selects (NULL: the default).
 * @return 0 when registered, 1 when no ibverbs device sits at that address (the
 *   PCI probe then declines the device), or -errno.
 */
int mlx4v_verbs_rdma_probe_pci(const struct rte_pci_addr *addr, const char *eal_name,
			       int socket, struct rte_device *edev, const char *classes);

#endif /* _MLX4V_VERBS_RDMA_H_ */
