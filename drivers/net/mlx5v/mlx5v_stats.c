/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Statistics of the mlx5v PMD: the port's Q counter and the queues' software counters. */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_eal.h>

#include "mlxv_ethdev_stats.h"
#include "mlx5v_ethdev.h"

int
mlx5v_stats_oob_live(struct rte_eth_dev *eth_dev, uint64_t *cur)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	*cur = 0;
	if (dev != NULL && priv->obj.qcnt != 0 && !priv->dead)
		return mlx5v_ethdev_cmd_qcnt_query(dev, priv->obj.qcnt, 0, cur);
	return 0;
}

/*
 * out_of_buffer since the last reset: earlier starts, plus the live Q counter (which a
 * secondary process asks of the primary, the owner of the command queue).
 */
static int
mlx5v_stats_oob_read(struct rte_eth_dev *eth_dev, uint64_t *oob)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	uint64_t cur;
	int ret;

	if (rte_eal_process_type() == RTE_PROC_PRIMARY)
		ret = mlx5v_stats_oob_live(eth_dev, &cur);
	else
		ret = mlx5v_mp_oob_live(eth_dev, &cur);
	if (ret != 0)
		return ret;
	*oob = priv->oob_acc + cur - priv->oob_base;
	return 0;
}

void
mlx5v_stats_save(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	uint64_t oob;

	/* The counter goes away with the port's objects: keep what it counted. */
	if (mlx5v_stats_oob_read(eth_dev, &oob) == 0) {
		priv->oob_acc = oob;
		priv->oob_base = 0;
	}
}

/* Where the queues keep their counters (Tx error CQEs are not output errors here). */
static const struct mlxv_stats_fields mlx5v_stats_rx =
	MLXV_STATS_FIELDS(struct mlx5v_rxq, MLXV_STATS_NONE, offsetof(struct mlx5v_rxq, nombuf));
static const struct mlxv_stats_fields mlx5v_stats_tx =
	MLXV_STATS_FIELDS(struct mlx5v_txq, MLXV_STATS_NONE, MLXV_STATS_NONE);

int
mlx5v_stats_get(struct rte_eth_dev *eth_dev, struct rte_eth_stats *stats)
{
	uint64_t oob;
	int ret;

	mlxv_stats_fold(eth_dev, &mlx5v_stats_rx, &mlx5v_stats_tx, stats);
	ret = mlx5v_stats_oob_read(eth_dev, &oob);
	if (ret != 0)
		return ret;
	stats->imissed = oob;
	return 0;
}

int
mlx5v_stats_reset(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	uint64_t oob;
	int ret;

	mlxv_stats_clear(eth_dev, &mlx5v_stats_rx, &mlx5v_stats_tx);
	ret = mlx5v_stats_oob_read(eth_dev, &oob);
	if (ret != 0)
		return ret;
	/* The live counter keeps counting; remember where zero is. */
	priv->oob_base += oob;
	return 0;
}

static const char *const mlx5v_xstat_names[] = {
	"rx_out_of_buffer",
};

int
mlx5v_xstats_get(struct rte_eth_dev *eth_dev, struct rte_eth_xstat *xstats, unsigned int n)
{
	uint64_t oob;
	int ret;

	if (n < RTE_DIM(mlx5v_xstat_names) || xstats == NULL)
		return RTE_DIM(mlx5v_xstat_names);
	ret = mlx5v_stats_oob_read(eth_dev, &oob);
	if (ret != 0)
		return ret;
	xstats[0].id = 0;
	xstats[0].value = oob;
	return RTE_DIM(mlx5v_xstat_names);
}

int
mlx5v_xstats_get_names(struct rte_eth_dev *eth_dev, struct rte_eth_xstat_name *names,
		       unsigned int size)
{
	unsigned int i;

	RTE_SET_USED(eth_dev);
	if (names == NULL || size < RTE_DIM(mlx5v_xstat_names))
		return RTE_DIM(mlx5v_xstat_names);
	for (i = 0; i < RTE_DIM(mlx5v_xstat_names); i++)
		snprintf(names[i].name, sizeof(names[i].name), "%s", mlx5v_xstat_names[i]);
	return RTE_DIM(mlx5v_xstat_names);
}
