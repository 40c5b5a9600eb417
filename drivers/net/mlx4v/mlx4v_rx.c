/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Rx burst of the mlx4v PMD on the RWQ and CQ views (placeholder until the data path). */

#include "mlx4v_ethdev.h"

uint16_t
mlx4v_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	RTE_SET_USED(rxq);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	return 0;
}

int
mlx4v_rxq_fill(struct mlx4v_rxq *rxq)
{
	RTE_SET_USED(rxq);
	return 0;
}

void
mlx4v_rxq_drain(struct mlx4v_rxq *rxq)
{
	RTE_SET_USED(rxq);
}

uint64_t
mlx4v_rx_offload_capa(void)
{
	return 0;
}

const uint32_t *
mlx4v_rx_ptypes_get(struct rte_eth_dev *eth_dev)
{
	static const uint32_t ptypes[] = { RTE_PTYPE_UNKNOWN };

	RTE_SET_USED(eth_dev);
	return ptypes;
}
