/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The IPC action and the burst swaps of a secondary process, shared by the mlx5v and mlx4v
 * PMDs (doc/guides/nics/mlx5v.rst and mlx4v.rst, "Secondary processes"): the primary tells
 * the secondaries when a port starts and stops, as DPDK's mlx5 does with START_RXTX and
 * STOP_RXTX, and each secondary swaps its own rte_eth_fp_ops entry of the port; and the
 * secondary's link_update.
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

/**
 * link_update of a secondary's ops: the primary keeps the port's shared link up to date (its
 * device's events, its own reads); a secondary reads it as the primary last stored it.
 */
static inline int
mlxv_mp_link_update(struct rte_eth_dev *eth_dev, int wait_to_complete)
{
	RTE_SET_USED(eth_dev);
	RTE_SET_USED(wait_to_complete);
	return 0;
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

struct mlxv_mp_gate;

/**
 * A queue as the lcores of a secondary process see it: what this process's rte_eth_fp_ops
 * entry of the port hands to the bursts instead of the primary's queue structure. An lcore
 * takes it (rte_eth_rx_burst() reads the queue, then calls the burst) and may be
 * descheduled before it is inside the gate; by then the primary may have stopped the port
 * and freed or reused the queue structure, so the burst must find the gate without reading
 * the queue: it reads this, which lives as long as the process, and takes the primary's
 * queue from the shared queue array only once inside the open gate.
 */
struct mlxv_mp_gate_q {
	struct mlxv_mp_gate *g;
	uint16_t port_id;
	uint16_t idx;
};

/**
 * The gate of a port's bursts in a secondary process, in static storage of the PMD (one
 * per port id), never freed. The primary destroys the queues as soon as every secondary
 * has answered STOP_RXTX; a burst an lcore of the secondary entered before the swap must
 * have left by then, however long the lcore was descheduled in it (a grace period alone
 * does not do on a loaded machine). Each burst runs between two stores of its queue's
 * sequence (odd: inside) and only while the gate is on; the STOP handler closes the gate,
 * then waits for every odd sequence to move.
 */
struct mlxv_mp_gate {
	uint32_t on;                                /**< the bursts may run */
	eth_rx_burst_t rx;                          /**< the PMD's bursts behind the gate */
	eth_tx_burst_t tx;
	eth_rx_queue_count_t rx_count;              /**< the PMD's queue count, or NULL */
	uint32_t rx_seq[MLXV_MP_GATE_QUEUES];       /**< odd while an lcore is in the burst */
	uint32_t tx_seq[MLXV_MP_GATE_QUEUES];
	struct mlxv_mp_gate_q rxq[MLXV_MP_GATE_QUEUES];   /**< what the lcores hold */
	struct mlxv_mp_gate_q txq[MLXV_MP_GATE_QUEUES];
	void *rxd[MLXV_MP_GATE_QUEUES];             /**< rte_eth_fp_ops' queue arrays */
	void *txd[MLXV_MP_GATE_QUEUES];
};

/*
 * Enter the burst of the Rx (tx 0) or Tx (tx 1) queue gq: its sequence odd (*s), then the
 * gate read. @return the primary's queue, read only once inside the open gate (the primary
 * frees none while an lcore is inside), or NULL: gate closed or no such queue any more.
 */
static inline void *
mlxv_mp_gate_enter(const struct mlxv_mp_gate_q *gq, int tx, uint32_t *s)
{
	uint32_t *seq = tx ? &gq->g->tx_seq[gq->idx] : &gq->g->rx_seq[gq->idx];
	const struct rte_eth_dev_data *data;

	*s = *seq + 1;
	__atomic_store_n(seq, *s, __ATOMIC_RELAXED);
	/*
	 * The odd sequence is visible before the gate is read, as the closed gate is before
	 * the closer reads the sequences (Dekker): either this burst sees the gate closed, or
	 * the closer sees it inside and waits.
	 */
	rte_smp_mb();
	if (!__atomic_load_n(&gq->g->on, __ATOMIC_ACQUIRE))
		return NULL;
	data = rte_eth_devices[gq->port_id].data;
	if (tx)
		return gq->idx < data->nb_tx_queues ? data->tx_queues[gq->idx] : NULL;
	return gq->idx < data->nb_rx_queues ? data->rx_queues[gq->idx] : NULL;
}

/* Leave the burst of gq entered with s. */
static inline void
mlxv_mp_gate_leave(const struct mlxv_mp_gate_q *gq, int tx, uint32_t s)
{
	uint32_t *seq = tx ? &gq->g->tx_seq[gq->idx] : &gq->g->rx_seq[gq->idx];

	/* Every access of the burst is done before the closer may see it out. */
	__atomic_store_n(seq, s + 1, __ATOMIC_RELEASE);
}

/* The Rx (tx 0) or Tx (tx 1) burst of a secondary: q is the struct mlxv_mp_gate_q. */
static inline uint16_t
mlxv_mp_gate_burst(void *q, struct rte_mbuf **pkts, uint16_t n, int tx)
{
	const struct mlxv_mp_gate_q *gq = q;
	uint16_t ret = 0;
	uint32_t s;
	void *pq = mlxv_mp_gate_enter(gq, tx, &s);

	if (pq != NULL)
		ret = tx ? gq->g->tx(pq, pkts, n) : gq->g->rx(pq, pkts, n);
	mlxv_mp_gate_leave(gq, tx, s);
	return ret;
}

/** Rx burst of a secondary (rte_eth_fp_ops): q is the struct mlxv_mp_gate_q of the queue. */
static inline uint16_t
mlxv_mp_gate_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	return mlxv_mp_gate_burst(q, pkts, n, 0);
}

/** Tx burst of a secondary (rte_eth_fp_ops): q is the struct mlxv_mp_gate_q of the queue. */
static inline uint16_t
mlxv_mp_gate_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	return mlxv_mp_gate_burst(q, pkts, n, 1);
}

/** Rx queue count of a secondary, behind the Rx queue's gate; -EINVAL: no queue. */
static inline uint32_t
mlxv_mp_gate_rx_count(void *q)
{
	const struct mlxv_mp_gate_q *gq = q;
	uint32_t s;
	void *rxq = mlxv_mp_gate_enter(gq, 0, &s);
	uint32_t ret = rxq != NULL ? gq->g->rx_count(rxq) : (uint32_t)-EINVAL;

	mlxv_mp_gate_leave(gq, 0, s);
	return ret;
}

/**
 * Secondary: the port's bursts become rx and tx (and rx_count, or NULL) on the primary's
 * queues, whose doorbells this process has mapped, behind the gate g of the port: in
 * eth_dev and in this process's rte_eth_fp_ops, whose queue arrays become the gate's.
 */
static inline void
mlxv_mp_bursts_on(struct rte_eth_dev *eth_dev, struct mlxv_mp_gate *g, eth_rx_burst_t rx,
		  eth_tx_burst_t tx, eth_rx_queue_count_t rx_count)
{
	struct rte_eth_fp_ops *fpo = &rte_eth_fp_ops[eth_dev->data->port_id];
	unsigned int i;

	g->rx = rx;
	g->tx = tx;
	g->rx_count = rx_count;
	/* The gate's queues once: an lcore may hold them from an earlier start. */
	for (i = 0; i < MLXV_MP_GATE_QUEUES && g->rxd[i] == NULL; i++) {
		g->rxq[i] = (struct mlxv_mp_gate_q){ g, eth_dev->data->port_id, i };
		g->txq[i] = g->rxq[i];
		g->rxd[i] = &g->rxq[i];
		g->txd[i] = &g->txq[i];
	}
	/* The bursts behind the gate before it opens to an lcore holding a gate queue. */
	__atomic_store_n(&g->on, 1, __ATOMIC_RELEASE);
	eth_dev->rx_pkt_burst = mlxv_mp_gate_rx_burst;
	eth_dev->tx_pkt_burst = mlxv_mp_gate_tx_burst;
	eth_dev->rx_queue_count = rx_count != NULL ? mlxv_mp_gate_rx_count : NULL;
	fpo->rxq.data = g->rxd;
	fpo->txq.data = g->txd;
	/* The doorbells, the gate and the queue arrays before an lcore takes the bursts. */
	rte_wmb();
	fpo->rx_queue_count = eth_dev->rx_queue_count;
	fpo->rx_pkt_burst = mlxv_mp_gate_rx_burst;
	fpo->tx_pkt_burst = mlxv_mp_gate_tx_burst;
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
 * (the primary is answered after it). The doorbell mappings stay until the next start;
 * an lcore that took the bursts before finds the gate closed, never the primary's queues.
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
	/* The closed gate is visible before the sequences are read (mlxv_mp_gate_enter()). */
	rte_smp_mb();
	for (i = 0; i < MLXV_MP_GATE_QUEUES; i++) {
		mlxv_mp_gate_wait(&g->rx_seq[i]);
		mlxv_mp_gate_wait(&g->tx_seq[i]);
	}
}

#endif /* _MLXV_MP_BURSTS_H_ */
