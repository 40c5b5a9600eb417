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

/** The software counters of a queue, in the order of mlxv_stats_fields.off[]. */
enum {
	MLXV_STATS_PACKETS,
	MLXV_STATS_BYTES,
	MLXV_STATS_ERRORS,   /**< counted as ierrors / oerrors (and q_errors on Rx) */
	MLXV_STATS_ERRORS2,  /**< a second counter added to errors */
	MLXV_STATS_NOMBUF,   /**< Rx: counted as rx_nombuf */
	MLXV_STATS_N
};

/**
 * Where a queue structure keeps its uint64_t software counters (offsetof() values, or
 * MLXV_STATS_NONE), and its uint64_t stats_base[MLXV_STATS_N]: the counters at the last reset.
 * Only the bursts write the counters; a reset moves the base. A reset that zeroed them from
 * the control thread would be lost whenever it fell between a burst's load and store of a
 * counter (an idle queue's burst adds 0), as DPDK's mlx5 avoids with its stats_reset copy.
 */
struct mlxv_stats_fields {
	size_t off[MLXV_STATS_N];
	size_t base;
};

/**
 * The layout of a queue structure type that names its counters packets, bytes and errors and
 * its base stats_base, with the optional ones at offsets err2 and nombuf (each an offsetof()
 * or MLXV_STATS_NONE).
 */
#define MLXV_STATS_FIELDS(type, err2, nb) { \
	.off = { offsetof(type, packets), offsetof(type, bytes), offsetof(type, errors), \
		 (err2), (nb) }, \
	.base = offsetof(type, stats_base), \
}

/* Counter k of queue q since the last reset, 0 where the queue does not keep it. */
static inline uint64_t
mlxv_stats_read(const void *q, const struct mlxv_stats_fields *f, unsigned int k)
{
	const uint64_t *base = (const uint64_t *)((const char *)q + f->base);

	if (f->off[k] == MLXV_STATS_NONE)
		return 0;
	return *(const volatile uint64_t *)((const char *)q + f->off[k]) - base[k];
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
		packets = mlxv_stats_read(q, rx, MLXV_STATS_PACKETS);
		bytes = mlxv_stats_read(q, rx, MLXV_STATS_BYTES);
		errors = mlxv_stats_read(q, rx, MLXV_STATS_ERRORS) +
			 mlxv_stats_read(q, rx, MLXV_STATS_ERRORS2);
		stats->ipackets += packets;
		stats->ibytes += bytes;
		stats->ierrors += errors;
		stats->rx_nombuf += mlxv_stats_read(q, rx, MLXV_STATS_NOMBUF);
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
		packets = mlxv_stats_read(q, tx, MLXV_STATS_PACKETS);
		bytes = mlxv_stats_read(q, tx, MLXV_STATS_BYTES);
		stats->opackets += packets;
		stats->obytes += bytes;
		stats->oerrors += mlxv_stats_read(q, tx, MLXV_STATS_ERRORS) +
				  mlxv_stats_read(q, tx, MLXV_STATS_ERRORS2);
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			stats->q_opackets[i] = packets;
			stats->q_obytes[i] = bytes;
		}
	}
}

/** Make every counter mlxv_stats_fold() reads start again from 0, on every queue of the port. */
static inline void
mlxv_stats_clear(struct rte_eth_dev *eth_dev, const struct mlxv_stats_fields *rx,
		 const struct mlxv_stats_fields *tx)
{
	const struct mlxv_stats_fields *f;
	unsigned int i, k, n, dir;
	uint64_t *base;
	char *q;

	for (dir = 0; dir < 2; dir++) {
		f = dir == 0 ? rx : tx;
		n = dir == 0 ? eth_dev->data->nb_rx_queues : eth_dev->data->nb_tx_queues;
		for (i = 0; i < n; i++) {
			q = dir == 0 ? eth_dev->data->rx_queues[i] : eth_dev->data->tx_queues[i];
			if (q == NULL)
				continue;
			base = (uint64_t *)(q + f->base);
			for (k = 0; k < MLXV_STATS_N; k++)
				if (f->off[k] != MLXV_STATS_NONE)
					base[k] = *(const volatile uint64_t *)(q + f->off[k]);
		}
	}
}

#endif /* _MLXV_ETHDEV_STATS_H_ */
