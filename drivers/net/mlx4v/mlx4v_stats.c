/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Statistics of the mlx4v PMD: the software counters the bursts keep per queue (the
 * device counts nothing the verbs-level API would give), summed per port.
 */

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mlxv_ethdev_stats.h"
#include "mlx4v_ethdev.h"

/* Where the queues keep their counters; a Tx error CQE counts as an output error too. */
static const struct mlxv_stats_fields mlx4v_stats_rx =
	MLXV_STATS_FIELDS(struct mlx4v_rxq, MLXV_STATS_NONE, offsetof(struct mlx4v_rxq, nombuf));
static const struct mlxv_stats_fields mlx4v_stats_tx =
	MLXV_STATS_FIELDS(struct mlx4v_txq, offsetof(struct mlx4v_txq, err_cqes), MLXV_STATS_NONE);

int
mlx4v_stats_get(struct rte_eth_dev *eth_dev, struct rte_eth_stats *stats)
{
	stats->rx_nombuf = mlx4v_priv(eth_dev)->rx_nombuf_acc;
	mlxv_stats_fold(eth_dev, &mlx4v_stats_rx, &mlx4v_stats_tx, stats);
	return 0;
}

int
mlx4v_stats_reset(struct rte_eth_dev *eth_dev)
{
	mlx4v_priv(eth_dev)->rx_nombuf_acc = 0;
	mlxv_stats_clear(eth_dev, &mlx4v_stats_rx, &mlx4v_stats_tx);
	return 0;
}

/* Port-wide extended counters, each a sum over the queues. */
enum mlx4v_xstat {
	MLX4V_XSTAT_RX_ERR_CQES,
	MLX4V_XSTAT_RX_NOMBUF,
	MLX4V_XSTAT_TX_ERR_CQES,
	MLX4V_XSTAT_TX_DROPPED,
	MLX4V_XSTAT_MAX,
};

static const char *const mlx4v_xstat_names[MLX4V_XSTAT_MAX] = {
	[MLX4V_XSTAT_RX_ERR_CQES] = "rx_err_cqes",
	[MLX4V_XSTAT_RX_NOMBUF] = "rx_nombuf_drops",
	[MLX4V_XSTAT_TX_ERR_CQES] = "tx_err_cqes",
	[MLX4V_XSTAT_TX_DROPPED] = "tx_dropped",
};

int
mlx4v_xstats_get(struct rte_eth_dev *eth_dev, struct rte_eth_xstat *xstats, unsigned int n)
{
	uint64_t v[MLX4V_XSTAT_MAX] = { 0 };
	const struct mlx4v_rxq *rxq;
	const struct mlx4v_txq *txq;
	unsigned int i;

	if (xstats == NULL || n < MLX4V_XSTAT_MAX)
		return MLX4V_XSTAT_MAX;
	v[MLX4V_XSTAT_RX_NOMBUF] = mlx4v_priv(eth_dev)->rx_nombuf_acc;
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++) {
		rxq = eth_dev->data->rx_queues[i];
		if (rxq == NULL)
			continue;
		v[MLX4V_XSTAT_RX_ERR_CQES] += rxq->errors;
		v[MLX4V_XSTAT_RX_NOMBUF] += rxq->nombuf;
	}
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++) {
		txq = eth_dev->data->tx_queues[i];
		if (txq == NULL)
			continue;
		v[MLX4V_XSTAT_TX_ERR_CQES] += txq->err_cqes;
		v[MLX4V_XSTAT_TX_DROPPED] += txq->errors;
	}
	for (i = 0; i < MLX4V_XSTAT_MAX; i++) {
		xstats[i].id = i;
		xstats[i].value = v[i];
	}
	return MLX4V_XSTAT_MAX;
}

int
mlx4v_xstats_get_names(struct rte_eth_dev *eth_dev, struct rte_eth_xstat_name *names,
		       unsigned int size)
{
	unsigned int i;

	RTE_SET_USED(eth_dev);
	if (names == NULL || size < MLX4V_XSTAT_MAX)
		return MLX4V_XSTAT_MAX;
	for (i = 0; i < MLX4V_XSTAT_MAX; i++)
		snprintf(names[i].name, sizeof(names[i].name), "%s", mlx4v_xstat_names[i]);
	return MLX4V_XSTAT_MAX;
}
