/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The basic statistics of the mlx5v and mlx4v PMDs: the software counters their bursts keep
 * per queue, folded into struct rte_eth_stats (doc/guides/nics/mlx5v.rst and
 * doc/guides/nics/mlx4v.rst). Each PMD says where its queue structures keep the counters; the
 * fold and the reset are this one piece of code.
 */

#ifndef _MLXV_ETHDEV_STATS_H_
#define _MLXV_ETHDEV_STATS_H_

#include <stddef.h>
#include <stdint.h>

#include <ethdev_driver.h>

/** A counter a queue structure does not keep. */
#define MLXV_STATS_NONE SIZE_MAX

/** Where a queue structure keeps its uint64_t software counters (offsetof() values). */
struct mlxv_stats_fields {
	size_t packets;
	size_t bytes;
	size_t errors;    /**< counted as ierrors / oerrors (and q_errors on Rx) */
	size_t errors2;   /**< a second counter added to errors, or MLXV_STATS_NONE */
	size_t nombuf;    /**< Rx: counted as rx_nombuf, or MLXV_STATS_NONE */
};

/**
 * The layout of a queue structure type that names its counters packets, bytes and errors, with
 * the optional ones at offsets err2 and nombuf (each an offsetof() or MLXV_STATS_NONE).
 */
#define MLXV_STATS_FIELDS(type, err2, nb) { \
	.packets = offsetof(type, packets), \
	.bytes = offsetof(type, bytes), \
	.errors = offsetof(type, errors), \
	.errors2 = (err2), \
	.nombuf = (nb), \
}

/* The counter at off in queue q, 0 for MLXV_STATS_NONE. */
static inline uint64_t
mlxv_stats_read(const void *q, size_t off)
{
	return off == MLXV_STATS_NONE ? 0 : *(const uint64_t *)((const char *)q + off);
}

/* Zero the counter at off in queue q, if the queue keeps it. */
static inline void
mlxv_stats_zero(void *q, size_t off)
{
	if (off != MLXV_STATS_NONE)
		*(uint64_t *)((char *)q + off) = 0;
}

/**
 * Add the counters of the port's Rx queues (layout rx) and Tx queues (layout tx) to stats,
 * and set the per-queue ones. Missing queues (NULL) are skipped. Any lcore; the counters are
 * read without a lock, as the bursts write them.
 */
static inline void
mlxv_stats_fold(const struct rte_eth_dev *eth_dev, const struct mlxv_stats_fields *rx,
		const struct mlxv_stats_fields *tx, struct rte_eth_stats *stats)
{
	uint64_t packets, bytes, errors;
	const void *q;
	unsigned int i;

	for (i = 0; i < eth_dev->data->nb_rx_queues; i++) {
		q = eth_dev->data->rx_queues[i];
		if (q == NULL)
			continue;
		packets = mlxv_stats_read(q, rx->packets);
		bytes = mlxv_stats_read(q, rx->bytes);
		errors = mlxv_stats_read(q, rx->errors) + mlxv_stats_read(q, rx->errors2);
		stats->ipackets += packets;
		stats->ibytes += bytes;
		stats->ierrors += errors;
		stats->rx_nombuf += mlxv_stats_read(q, rx->nombuf);
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			stats->q_ipackets[i] = packets;
			stats->q_ibytes[i] = bytes;
			stats->q_errors[i] = errors;
		}
	}
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++) {
		q = eth_dev->data->tx_queues[i];
		if (q == NULL)
			continue;
		packets = mlxv_stats_read(q, tx->packets);
		bytes = mlxv_stats_read(q, tx->bytes);
		stats->opackets += packets;
		stats->obytes += bytes;
		stats->oerrors += mlxv_stats_read(q, tx->errors) + mlxv_stats_read(q, tx->errors2);
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			stats->q_opackets[i] = packets;
			stats->q_obytes[i] = bytes;
		}
	}
}

/** Zero every counter mlxv_stats_fold() reads, on every queue of the port. */
static inline void
mlxv_stats_clear(struct rte_eth_dev *eth_dev, const struct mlxv_stats_fields *rx,
		 const struct mlxv_stats_fields *tx)
{
	const struct mlxv_stats_fields *f;
	void *q;
	unsigned int i, n, dir;

	for (dir = 0; dir < 2; dir++) {
		f = dir == 0 ? rx : tx;
		n = dir == 0 ? eth_dev->data->nb_rx_queues : eth_dev->data->nb_tx_queues;
		for (i = 0; i < n; i++) {
			q = dir == 0 ? eth_dev->data->rx_queues[i] : eth_dev->data->tx_queues[i];
			if (q == NULL)
				continue;
			mlxv_stats_zero(q, f->packets);
			mlxv_stats_zero(q, f->bytes);
			mlxv_stats_zero(q, f->errors);
			mlxv_stats_zero(q, f->errors2);
			mlxv_stats_zero(q, f->nombuf);
		}
	}
}

#endif /* _MLXV_ETHDEV_STATS_H_ */
