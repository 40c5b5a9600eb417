/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Tx burst of the mlx4v PMD on the QP and CQ views (placeholder until the data path). */

#include "mlx4v_ethdev.h"

uint16_t
mlx4v_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t n)
{
	RTE_SET_USED(txq);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	return 0;
}

void
mlx4v_txq_reset(struct mlx4v_txq *txq)
{
	RTE_SET_USED(txq);
}

void
mlx4v_txq_drain(struct mlx4v_txq *txq)
{
	RTE_SET_USED(txq);
}

uint64_t
mlx4v_tx_offload_capa(void)
{
	return 0;
}
