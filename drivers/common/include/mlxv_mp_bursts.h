/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The IPC action and the burst swaps of a secondary process, shared by the mlx5v and mlx4v
 * PMDs (doc/guides/nics/mlx5v.rst and mlx4v.rst, "Secondary processes"): the primary tells
 * the secondaries when a port starts and stops, as DPDK's mlx5 does with START_RXTX and
 * STOP_RXTX, and each secondary swaps its own rte_eth_fp_ops entry of the port.
 */

#ifndef _MLXV_MP_BURSTS_H_
#define _MLXV_MP_BURSTS_H_

#include <errno.h>

#include <ethdev_driver.h>
#include <rte_atomic.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_string_fns.h>

/** The IPC action of a PMD: one per process, registered by the first of its ports. */
struct mlxv_mp_action {
	const char *name;
	rte_mp_t handler;
	unsigned int users;      /**< ports of this process that use it */
	int registered;
};

/**
 * A port starts using the action (each process answers what the other asks).
 * @return 0, or -errno with rte_errno set (nothing to undo).
 */
static inline int
mlxv_mp_action_get(struct mlxv_mp_action *a)
{
	if (a->users++ > 0 || a->registered)
		return 0;
	if (rte_mp_action_register(a->name, a->handler) == 0) {
		a->registered = 1;
		return 0;
	}
	/* No shared configuration (--no-shconf, --in-memory): no secondary can come either. */
	if (rte_errno == ENOTSUP)
		return 0;
	a->users--;
	return -rte_errno;
}

/** A port stops using the action: unregistered after the last. */
static inline void
mlxv_mp_action_put(struct mlxv_mp_action *a)
{
	if (a->users == 0 || --a->users > 0)
		return;
	if (a->registered) {
		rte_mp_action_unregister(a->name);
		a->registered = 0;
	}
}

/**
 * The port named by a peer's request (a string not trusted to be terminated), if it is one
 * of ours in this process: private data and per-process state set. @return it or NULL.
 */
static inline struct rte_eth_dev *
mlxv_mp_port(const char *peer_name)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_eth_dev *eth_dev;

	strlcpy(name, peer_name, sizeof(name));
	eth_dev = rte_eth_dev_allocated(name);
	if (eth_dev == NULL || eth_dev->data->dev_private == NULL ||
	    eth_dev->process_private == NULL)
		return NULL;
	return eth_dev;
}

/**
 * Secondary: the port's bursts become rx and tx on the primary's queues (whose doorbells
 * this process has mapped), in eth_dev and in this process's rte_eth_fp_ops.
 */
static inline void
mlxv_mp_bursts_on(struct rte_eth_dev *eth_dev, eth_rx_burst_t rx, eth_tx_burst_t tx,
		  eth_rx_queue_count_t rx_count)
{
	struct rte_eth_fp_ops *fpo = &rte_eth_fp_ops[eth_dev->data->port_id];

	eth_dev->rx_pkt_burst = rx;
	eth_dev->tx_pkt_burst = tx;
	eth_dev->rx_queue_count = rx_count;
	/* The queue arrays may be new since the attach (the primary reconfigured). */
	fpo->rxq.data = eth_dev->data->rx_queues;
	fpo->txq.data = eth_dev->data->tx_queues;
	/* The doorbells and the queue arrays are in place before an lcore takes the bursts. */
	rte_wmb();
	fpo->rx_queue_count = rx_count;
	fpo->rx_pkt_burst = rx;
	fpo->tx_pkt_burst = tx;
}

/**
 * Secondary: the port's bursts return 0. The doorbell mappings stay (a burst may still run
 * on them); the primary is answered after this.
 */
static inline void
mlxv_mp_bursts_off(struct rte_eth_dev *eth_dev)
{
	struct rte_eth_fp_ops *fpo = &rte_eth_fp_ops[eth_dev->data->port_id];

	eth_dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->rx_queue_count = NULL;
	fpo->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	fpo->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	fpo->rx_queue_count = NULL;
	/* The new bursts are visible before the primary is told, and goes on to stop. */
	rte_mb();
}

#endif /* _MLXV_MP_BURSTS_H_ */
