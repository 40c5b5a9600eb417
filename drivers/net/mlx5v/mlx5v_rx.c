/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Rx burst of the mlx5v PMD. Not yet: the receive data path (WQE posting, CQE parsing)
 * waits for the simulator's data path; until then the burst receives nothing
 * (doc/guides/nics/mlx5v.rst, "Not yet").
 */

#include <string.h>

#include "mlx5v_ethdev.h"

uint16_t
mlx5v_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	RTE_SET_USED(rxq);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	return 0;
}

int
mlx5v_rx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_burst_mode *mode)
{
	RTE_SET_USED(eth_dev);
	RTE_SET_USED(idx);
	snprintf(mode->info, sizeof(mode->info), "%s", "none (receive path not yet)");
	return 0;
}

const uint32_t *
mlx5v_rx_ptypes_get(struct rte_eth_dev *eth_dev)
{
	/* The burst reports no packet types until it parses CQEs. */
	static const uint32_t ptypes[] = { RTE_PTYPE_UNKNOWN };

	RTE_SET_USED(eth_dev);
	return ptypes;
}
