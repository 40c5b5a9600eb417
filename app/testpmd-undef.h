/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Build DPDK's testpmd sources without the in-tree PMD hooks whose libraries
 * Debian's libdpdk does not link (and without Debian's mlx5 command file).
 */

#include <rte_config.h>
#undef RTE_NET_BNXT
#undef RTE_NET_BOND
#undef RTE_NET_DPAA
#undef RTE_BUS_DPAA
#undef RTE_NET_I40E
#undef RTE_NET_IXGBE
#undef RTE_NET_MLX5
