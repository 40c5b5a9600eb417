/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Rx interrupts by CQ arm, link state and removal events of the mlx4v PMD (placeholder:
 * no interrupt support yet; the port works polled).
 */

#include <errno.h>

#include "mlx4v_ethdev.h"

int
mlx4v_intr_install(struct rte_eth_dev *eth_dev)
{
	RTE_SET_USED(eth_dev);
	return 0;
}

void
mlx4v_intr_uninstall(struct rte_eth_dev *eth_dev)
{
	RTE_SET_USED(eth_dev);
}

int
mlx4v_intr_rx_create(struct rte_eth_dev *eth_dev)
{
	/* Rx interrupts are refused at configure until this exists. */
	RTE_SET_USED(eth_dev);
	return 0;
}

void
mlx4v_intr_rx_destroy(struct rte_eth_dev *eth_dev)
{
	RTE_SET_USED(eth_dev);
}

int
mlx4v_rx_intr_enable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	RTE_SET_USED(eth_dev);
	RTE_SET_USED(idx);
	return -ENOTSUP;
}

int
mlx4v_rx_intr_disable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	RTE_SET_USED(eth_dev);
	RTE_SET_USED(idx);
	return -ENOTSUP;
}

void
mlx4v_intr_port_event(struct rte_eth_dev *eth_dev, int up)
{
	RTE_SET_USED(up);
	mlx4v_ethdev_link_update(eth_dev, 0);
}

void
mlx4v_intr_dead_event(struct rte_eth_dev *eth_dev)
{
	RTE_SET_USED(eth_dev);
}
