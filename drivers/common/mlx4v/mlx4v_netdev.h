/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The kernel network interface of a ConnectX-3 port (mlx4_en), for the rdma-core backend: on a
 * bifurcated device the kernel owns the port's MAC, MTU and admin state, so they are read and
 * set on its netdev, as DPDK's mlx4 does (doc/guides/nics/running_on_hardware.rst).
 */

#ifndef _MLX4V_NETDEV_H_
#define _MLX4V_NETDEV_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

/**
 * Find the netdev of a port: the entry of ibdev_path/device/net whose dev_port (or, on kernels
 * without it, dev_id, in hex) is port - 1, as DPDK's mlx4 looks it up.
 *
 * @param ibdev_path The verbs device's sysfs directory (struct ibv_device ibdev_path), e.g.
 *   /sys/class/infiniband/mlx4_0; a test passes a tree of its own.
 * @param port Physical port, 1-based.
 * @param ifname Filled with the interface name.
 * @param size Bytes at ifname (IF_NAMESIZE).
 * @return 0, -ENODEV (no netdev for that port), or -errno of opening the directory.
 */
__rte_internal
int mlx4v_netdev_ifname(const char *ibdev_path, uint8_t port, char *ifname, size_t size);

/**
 * Read the interface's MAC: its sysfs "address" under ibdev_path/device/net/ifname, else (no
 * ibdev_path, no such file) SIOCGIFHWADDR. @return 0 or -errno.
 */
__rte_internal
int mlx4v_netdev_mac_get(const char *ibdev_path, const char *ifname, uint8_t mac[6]);

/**
 * Read the interface's link speed with SIOCETHTOOL: ETHTOOL_GLINKSETTINGS, or ETHTOOL_GSET where
 * the kernel or driver lacks it, as DPDK's mlx4 reads it: mlx4_ib's port query gives 10 Gb/s for
 * every Ethernet speed but 40 and 56 GbE.
 * @param mbps Set to the speed in Mb/s, 0 when unknown (link down).
 * @return 0 or -errno (-EOPNOTSUPP: the driver reports no link settings, as lo).
 */
__rte_internal
int mlx4v_netdev_speed_get(const char *ifname, uint32_t *mbps);

/**
 * Set the interface's MTU (SIOCSIFMTU; needs CAP_NET_ADMIN). An interface already at mtu, as
 * SIOCGIFMTU says (else, when this process's sockets know no such interface, its sysfs "mtu"
 * under ibdev_path/device/net/ifname), is left alone. @return 0 or -errno.
 */
__rte_internal
int mlx4v_netdev_mtu_set(const char *ibdev_path, const char *ifname, uint16_t mtu);

/**
 * Set or clear IFF_UP (SIOCSIFFLAGS; needs CAP_NET_ADMIN). An interface already so, as
 * SIOCGIFFLAGS says (else its sysfs "flags"), is left alone. mlx4_en opens the port (INIT_PORT)
 * when the interface goes up and closes it when it goes down: a port whose netdev is down neither
 * sends nor receives. @return 0 or -errno.
 */
__rte_internal
int mlx4v_netdev_up_set(const char *ibdev_path, const char *ifname, int up);

#endif /* _MLX4V_NETDEV_H_ */
