/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file A net_mlx4v simulator device of one port (ports=1) that a unit program attaches and
 * detaches more than once (net_mlx4v_intr, net_mlx4v_recovery): its model and its only
 * ethdev port. Include after ut_ethdev.h.
 */

#ifndef _UT_MLX4V_VDEV_H_
#define _UT_MLX4V_VDEV_H_

#include <stdint.h>

#include <rte_bus_vdev.h>

#include "mlx4v_sim.h"

/**
 * Attach the vdev name with devargs args (ports=1): *attached once it exists, then its model
 * in *sim and its only ethdev port in *port. @return 0, or -1 (ut_mlx4v_vdev_detach() undoes
 * what was done).
 */
static inline int
ut_mlx4v_vdev_attach(const char *name, const char *args, int *attached, struct mlx4v_sim **sim,
		     uint16_t *port)
{
	if (rte_vdev_init(name, args) != 0)
		return -1;
	*attached = 1;
	*sim = mlx4v_sim_get(name);
	if (*sim == NULL)
		return -1;
	return ut_eth_only_port(port);
}

/** Detach the vdev name if *attached. */
static inline void
ut_mlx4v_vdev_detach(const char *name, int *attached)
{
	if (*attached)
		rte_vdev_uninit(name);
	*attached = 0;
}

#endif /* _UT_MLX4V_VDEV_H_ */
