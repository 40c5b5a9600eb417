/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Tx burst of the mlx5v PMD. Not yet: the send data path (WQE building, doorbells,
 * completions) waits for the simulator's data path; until then the burst accepts nothing,
 * so the caller keeps (and frees) its mbufs (doc/guides/nics/mlx5v.rst, "Not yet").
 */

#include <string.h>

#include "mlx5v_ethdev.h"

uint16_t
mlx5v_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t n)
{
	RTE_SET_USED(txq);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	return 0;
}

int
mlx5v_tx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_burst_mode *mode)
{
	RTE_SET_USED(eth_dev);
	RTE_SET_USED(idx);
	snprintf(mode->info, sizeof(mode->info), "%s", "none (send path not yet)");
	return 0;
}
