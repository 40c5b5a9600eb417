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
#include <rte_cycles.h>
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

/** Queues of a port a gate follows (both PMDs have at most this many). */
#define MLXV_MP_GATE_QUEUES 16

/**
 * The gate of a port's bursts in a secondary process. The primary destroys the queues as
 * soon as every secondary has answered STOP_RXTX; a burst an lcore of the secondary entered
 * before the swap must have left by then, however long the lcore was descheduled in it (a
 * grace period alone does not do on a loaded machine). Each burst runs between two stores
 * of its queue's sequence (odd: inside) and only while the gate is on; the STOP handler
 * closes the gate, then waits for every odd sequence to move.
 */
struct mlxv_mp_gate {
	uint32_t on;                                /**< the bursts may run */
	eth_rx_burst_t rx;                          /**< the PMD's bursts behind the gate */
	eth_tx_burst_t tx;
	uint32_t rx_seq[MLXV_MP_GATE_QUEUES];       /**< odd while an lcore is in the burst */
	uint32_t tx_seq[MLXV_MP_GATE_QUEUES];
};

/* A burst behind the gate: the queue's sequence odd while inside, the gate checked after. */
static inline uint16_t
mlxv_mp_gate_pass(struct mlxv_mp_gate *g, uint32_t *seq, uint16_t (*burst)(void *,
		  struct rte_mbuf **, uint16_t), void *q, struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t s = *seq + 1;
	uint16_t ret = 0;

	__atomic_store_n(seq, s, __ATOMIC_RELAXED);
	/*
	 * The odd sequence is visible before the gate is read, as the closed gate is before
	 * the closer reads the sequences (Dekker): either this burst sees the gate closed, or
	 * the closer sees it inside and waits.
	 */
	rte_smp_mb();
	if (__atomic_load_n(&g->on, __ATOMIC_RELAXED))
		ret = burst(q, pkts, n);
	/* Every access of the burst is done before the closer may see it out. */
	__atomic_store_n(seq, s + 1, __ATOMIC_RELEASE);
	return ret;
}

/** Rx burst of queue idx behind the gate. */
static inline uint16_t
mlxv_mp_gate_rx(struct mlxv_mp_gate *g, uint16_t idx, void *q, struct rte_mbuf **pkts,
		uint16_t n)
{
	return mlxv_mp_gate_pass(g, &g->rx_seq[idx % MLXV_MP_GATE_QUEUES], g->rx, q, pkts, n);
}

/** Tx burst of queue idx behind the gate. */
static inline uint16_t
mlxv_mp_gate_tx(struct mlxv_mp_gate *g, uint16_t idx, void *q, struct rte_mbuf **pkts,
		uint16_t n)
{
	return mlxv_mp_gate_pass(g, &g->tx_seq[idx % MLXV_MP_GATE_QUEUES], g->tx, q, pkts, n);
}

/**
 * Secondary: the port's bursts become rx and tx on the primary's queues (whose doorbells
 * this process has mapped), called through the PMD's gate wrappers grx and gtx, in eth_dev
 * and in this process's rte_eth_fp_ops.
 */
static inline void
mlxv_mp_bursts_on(struct rte_eth_dev *eth_dev, struct mlxv_mp_gate *g, eth_rx_burst_t rx,
		  eth_tx_burst_t tx, eth_rx_burst_t grx, eth_tx_burst_t gtx,
		  eth_rx_queue_count_t rx_count)
{
	struct rte_eth_fp_ops *fpo = &rte_eth_fp_ops[eth_dev->data->port_id];

	g->rx = rx;
	g->tx = tx;
	__atomic_store_n(&g->on, 1, __ATOMIC_RELAXED);
	eth_dev->rx_pkt_burst = grx;
	eth_dev->tx_pkt_burst = gtx;
	eth_dev->rx_queue_count = rx_count;
	/* The queue arrays may be new since the attach (the primary reconfigured). */
	fpo->rxq.data = eth_dev->data->rx_queues;
	fpo->txq.data = eth_dev->data->tx_queues;
	/* The doorbells, the gate and the queue arrays before an lcore takes the bursts. */
	rte_wmb();
	fpo->rx_queue_count = rx_count;
	fpo->rx_pkt_burst = grx;
	fpo->tx_pkt_burst = gtx;
}

/* Wait until an lcore inside the burst of seq (odd) has left it. */
static inline void
mlxv_mp_gate_wait(const uint32_t *seq)
{
	uint32_t s = __atomic_load_n(seq, __ATOMIC_ACQUIRE);

	if ((s & 1) == 0)
		return;
	while (__atomic_load_n(seq, __ATOMIC_ACQUIRE) == s)
		rte_delay_us_sleep(10);
}

/**
 * Secondary: the port's bursts return 0 and none is running any more when this returns
 * (the primary is answered after it). The doorbell mappings stay until the next start.
 */
static inline void
mlxv_mp_bursts_off(struct rte_eth_dev *eth_dev, struct mlxv_mp_gate *g)
{
	struct rte_eth_fp_ops *fpo = &rte_eth_fp_ops[eth_dev->data->port_id];
	unsigned int i;

	__atomic_store_n(&g->on, 0, __ATOMIC_RELAXED);
	eth_dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->rx_queue_count = NULL;
	fpo->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	fpo->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	fpo->rx_queue_count = NULL;
	/* The closed gate is visible before the sequences are read (mlxv_mp_gate_pass()). */
	rte_smp_mb();
	for (i = 0; i < MLXV_MP_GATE_QUEUES; i++) {
		mlxv_mp_gate_wait(&g->rx_seq[i]);
		mlxv_mp_gate_wait(&g->tx_seq[i]);
	}
}

#endif /* _MLXV_MP_BURSTS_H_ */
