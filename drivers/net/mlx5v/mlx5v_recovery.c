/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The port's side of a core recovery (recovery=reset): RMV when the device dies, RESET
 * once it is back, and rte_eth_dev_reset() rebuilding the port on the new life of the device
 * (doc/guides/nics/mlx5v.rst, "Recovery").
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "mlx5v_devx.h"
#include "mlx5v_ethdev.h"
#include "mlxv_ethdev_recovery.h"

int
mlx5v_recovery_dead(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	if (dev == NULL || !mlx5v_dev_recovering(dev))
		return 0;
	mlxv_recovery_bursts_stop(eth_dev);
	/* RMV now; RESET follows once the device is back (mlx5v_recovery_recovered()). */
	mlx5v_intr_dead_event(eth_dev);
	return 1;
}

void
mlx5v_recovery_recovered(struct rte_eth_dev *eth_dev)
{
	uint16_t port = eth_dev->data->port_id;

	MLX5V_ETH_LOG(NOTICE, "port %u: the device recovered: rte_eth_dev_reset() rebuilds the "
		      "port", port);
	if (mlxv_recovery_reset_post(eth_dev) != 0)
		MLX5V_ETH_LOG(ERR, "port %u: cannot schedule the RESET event", port);
}

void
mlx5v_recovery_close(struct rte_eth_dev *eth_dev)
{
	mlxv_recovery_reset_cancel(eth_dev);
}

int
mlx5v_recovery_port_stale(const struct rte_eth_dev *eth_dev)
{
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	return dev != NULL && priv->epoch != mlx5v_dev_epoch(dev);
}

int
mlx5v_recovery_stale_begin(struct rte_eth_dev *eth_dev)
{
	/*
	 * Objects of an older life: their numbers may name objects of the new one, so their
	 * destroys must not reach the device.
	 */
	if (!mlx5v_recovery_port_stale(eth_dev))
		return 0;
	mlx5v_cmd_stale_begin(mlx5v_ethdev_core(eth_dev));
	return 1;
}

void
mlx5v_recovery_stale_end(int stale)
{
	if (stale)
		mlx5v_cmd_stale_end();
}

int
mlx5v_recovery_port_reset(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_ethdev_caps caps;
	uint32_t epoch;
	int ret;

	if (dev == NULL)
		return -ENODEV;
	epoch = mlx5v_dev_epoch(dev);
	if (priv->epoch == epoch)
		return 0;
	/* Called again once RTE_ETH_EVENT_INTR_RESET came. */
	if (mlx5v_dev_recovering(dev))
		return -EAGAIN;
	/* The recovery gave up: the device stays dead until it is removed. */
	if (mlx5v_dev_is_dead(dev) || !mlx5v_dev_is_live(dev))
		return -ENOLINK;
	/* The old life's DEVX context went with the reset: the queues' CQs need a new one. */
	if (mlx5v_devx_dev_get(priv->name) != dev)
		return -ENODEV;
	ret = mlx5v_ethdev_cmd_caps(dev, &caps);
	if (ret != 0)
		return ret;
	priv->caps = caps;
	memset(&priv->obj, 0, sizeof(priv->obj));
	priv->epoch = epoch;
	priv->dead = 0;
	MLX5V_ETH_LOG(NOTICE, "port %u: on the recovered device (life %u)",
		      eth_dev->data->port_id, epoch);
	return 0;
}
