/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The port's side of a recovery (recovery=reset): RMV when the device dies, RESET once
 * the common driver reset it, and rte_eth_dev_reset() rebuilding the port on a new handle
 * (doc/guides/nics/mlx4v.rst, "Recovery").
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "mlx4v_ethdev.h"
#include "mlx4v_verbs.h"
#include "mlxv_ethdev_recovery.h"

void
mlx4v_recovery_port_dead(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	int recovering = mlx4v_dev_state(priv->name, NULL) == MLX4V_DEV_RECOVERING;

	MLX4V_ETH_LOG(ERR, "port %u: the device died (%s)", priv->port_id,
		      recovering ? "recovery under way" : "dead until removed");
	if (!recovering)
		return;
	/* The device reset stops the queues: no doorbell of the old life rung any more. */
	mlxv_recovery_bursts_stop(eth_dev);
}

void
mlx4v_recovery_port_recovered(struct rte_eth_dev *eth_dev)
{
	uint16_t port = eth_dev->data->port_id;

	/* Dead even if DEAD was lost (a class event may be): its handle is of the old life. */
	__atomic_store_n(&mlx4v_priv(eth_dev)->dead, 1, __ATOMIC_RELEASE);
	MLX4V_ETH_LOG(NOTICE, "port %u: the device recovered: rte_eth_dev_reset() rebuilds the "
		      "port", port);
	if (mlxv_recovery_reset_post(eth_dev) != 0)
		MLX4V_ETH_LOG(ERR, "port %u: cannot schedule the RESET event", port);
}

void
mlx4v_recovery_port_close(struct rte_eth_dev *eth_dev)
{
	mlxv_recovery_reset_cancel(eth_dev);
}

/* The port's handle and PD on the new life, and its MAC as the device gives it. */
static int
mlx4v_recovery_port_open(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_pmd_mlx4v_port_attr pa;
	int ret;

	priv->dev = rte_pmd_mlx4v_dev_open(priv->name);
	if (priv->dev == NULL)
		return -rte_errno;
	priv->pd = rte_pmd_mlx4v_alloc_pd(priv->dev);
	if (priv->pd == NULL)
		goto err;
	if (rte_pmd_mlx4v_query_port(priv->dev, priv->port, &pa) != 0)
		goto err;
	priv->link_up = pa.state == RTE_PMD_MLX4V_PORT_ACTIVE;
	if (pa.speed_mbps != 0)
		priv->link_speed = pa.speed_mbps;
	/* The kernel netdev up again, as at probe. */
	ret = -rte_pmd_mlx4v_port_admin_set(priv->dev, priv->port, 1);
	if (ret != 0 && ret != -ENOTSUP)
		MLX4V_ETH_LOG(WARNING, "port %u: the port's kernel interface stays down: %s",
			      priv->port_id, strerror(-ret));
	return 0;

err:
	ret = -rte_errno;
	mlx4v_ethdev_free(eth_dev);
	return ret;
}

int
mlx4v_recovery_port_reset(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint32_t life;
	int ret;

	ret = mlx4v_dev_state(priv->name, &life);
	/* The port's handle is of the device's life: nothing to rebuild. */
	if (!priv->dead && ret == MLX4V_DEV_LIVE && life == priv->life)
		return 0;
	/* Called again once RTE_ETH_EVENT_INTR_RESET came. */
	if (ret == MLX4V_DEV_RECOVERING)
		return -EAGAIN;
	/* recovery=dead, or the recovery gave up: dead until removed, as before. */
	if (ret != MLX4V_DEV_LIVE || life == priv->life)
		return -EIO;
	/*
	 * The old life's objects: every destroy succeeds on the reset device, which no longer
	 * runs them, so the ordinary teardown frees the rings, mbufs and memory regions.
	 */
	if (priv->started)
		mlx4v_ethdev_stop(eth_dev);
	mlx4v_flow_release(eth_dev);
	mlx4v_ethdev_queues_release(eth_dev);
	mlx4v_ethdev_free(eth_dev);
	ret = mlx4v_recovery_port_open(eth_dev);
	if (ret != 0) {
		MLX4V_ETH_LOG(ERR, "port %u: cannot open the recovered device: %s",
			      priv->port_id, strerror(-ret));
		return ret;
	}
	priv->life = life;
	__atomic_store_n(&priv->dead, 0, __ATOMIC_RELEASE);
	MLX4V_ETH_LOG(NOTICE, "port %u: on the recovered device (life %u)", priv->port_id, life);
	return 0;
}
