/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The mlx4v Ethernet PMD: the "net" class driver of the mlx4v core. One ethdev per
 * port of the device; every object is made through the public rte_pmd_mlx4v_* API.
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx4v_ethdev.h"

RTE_LOG_REGISTER_DEFAULT(mlx4v_ethdev_logtype, NOTICE);

int
mlx4v_ethdev_mr_lookup(struct rte_eth_dev *eth_dev, struct rte_mempool *mp, uint32_t *lkey)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_pmd_mlx4v_mr *mr;
	unsigned int i;
	int ret = 0;

	rte_spinlock_lock(&priv->mr_lock);
	for (i = 0; i < priv->n_mr; i++)
		if (priv->mrs[i].mp == mp) {
			*lkey = priv->mrs[i].lkey;
			goto out;
		}
	if (priv->n_mr == MLX4V_ETH_MAX_MR || priv->pd == NULL) {
		ret = -ENOSPC;
		goto out;
	}
	mr = rte_pmd_mlx4v_reg_mempool(priv->pd, mp);
	if (mr == NULL) {
		ret = -rte_errno;
		goto out;
	}
	if (rte_pmd_mlx4v_mr_lkey(mr, lkey) != 0) {
		ret = -rte_errno;
		rte_pmd_mlx4v_dereg_mr(mr);
		goto out;
	}
	priv->mrs[priv->n_mr].mp = mp;
	priv->mrs[priv->n_mr].mr = mr;
	priv->mrs[priv->n_mr].lkey = *lkey;
	priv->n_mr++;
out:
	rte_spinlock_unlock(&priv->mr_lock);
	if (ret != 0)
		MLX4V_ETH_LOG(ERR, "%s port %u: mempool %s has no memory region: %s", priv->name,
			      priv->port, mp->name, strerror(-ret));
	return ret;
}

void
mlx4v_ethdev_mr_release_all(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	unsigned int i;

	rte_spinlock_lock(&priv->mr_lock);
	for (i = 0; i < priv->n_mr; i++)
		rte_pmd_mlx4v_dereg_mr(priv->mrs[i].mr);
	memset(priv->mrs, 0, sizeof(priv->mrs));
	priv->n_mr = 0;
	rte_spinlock_unlock(&priv->mr_lock);
}

int
mlx4v_ethdev_link_update(struct rte_eth_dev *eth_dev, int wait_to_complete)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_eth_link link = {
		.link_speed = priv->link_up ? priv->link_speed : RTE_ETH_SPEED_NUM_NONE,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_AUTONEG,
		.link_status = priv->link_up && !priv->dead,
	};

	RTE_SET_USED(wait_to_complete);
	return rte_eth_linkstatus_set(eth_dev, &link);
}
