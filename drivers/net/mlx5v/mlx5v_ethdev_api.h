/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Internal API of the mlx5v Ethernet PMD for tools (testpmd): its interrupt scheme. */

#ifndef _MLX5V_ETHDEV_API_H_
#define _MLX5V_ETHDEV_API_H_

/*
 * Like the core's mlx5v_api.h: exported as INTERNAL, snapshot structures only, and no
 * other header of the project behind it (devtools/check-testpmd-api.sh).
 */

#include <stdint.h>

#include <rte_compat.h>

/** Where the completions of one Rx queue go. */
struct mlx5v_intr_rxq_info {
	uint32_t cqn;            /**< the queue's CQ */
	uint32_t eqn;            /**< the EQ the CQ reports to */
	unsigned int vector;     /**< MSI vector of that EQ (0: the async EQ, no Rx interrupt) */
	unsigned int sharing;    /**< Rx queues on this vector (1: a vector of its own) */
	int fd;                  /**< event fd in the port's interrupt handle, -1 if none */
};

/** The interrupt state of a port. */
struct mlx5v_intr_port_info {
	uint16_t nb_rxq;         /**< Rx queues with a CQ (0 while stopped) */
	int rxq_intr;            /**< 1: Rx queue interrupts are set up (intr_conf.rxq) */
	unsigned int nb_vec;     /**< MSI vectors the port allocated for them */
	uint32_t async_eqn;      /**< the core's async EQ (vector 0): commands, pages, ports */
	int lsc;                 /**< intr_conf.lsc: PORT_CHANGE raises RTE_ETH_EVENT_INTR_LSC */
	int rmv;                 /**< intr_conf.rmv: a dead device raises RTE_ETH_EVENT_INTR_RMV */
};

/**
 * Snapshot of the interrupt scheme of an mlx5v port: the port, then up to n Rx queues.
 * Control thread (not concurrently with start/stop of the port).
 * @return the number of Rx queues described in rxq (min(n, nb_rxq)), -EINVAL (NULL info,
 *         or rxq NULL with n > 0) or -ENODEV (not an mlx5v port).
 */
__rte_internal
int mlx5v_intr_info_get(uint16_t port_id, struct mlx5v_intr_port_info *info,
			struct mlx5v_intr_rxq_info *rxq, unsigned int n);

#endif /* _MLX5V_ETHDEV_API_H_ */
