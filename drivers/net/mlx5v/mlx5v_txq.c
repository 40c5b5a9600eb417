/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Tx queues of the mlx5v PMD: ring memory at setup, CQ and SQ at start. */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx5v_devx.h"
#include "mlx5v_eq.h"
#include "mlx5v_ethdev.h"

/* Send WQE basic block: 64 bytes (prm/mlx5_eth §5.1). */
#define TXQ_LOG_STRIDE 6

void
mlx5v_txq_release(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct mlx5v_txq *txq = eth_dev->data->tx_queues[idx];

	if (txq == NULL)
		return;
	mlx5v_txq_destroy(eth_dev, txq);
	mlx5v_ethdev_ring_free(eth_dev, &txq->ring);
	rte_free(txq);
	eth_dev->data->tx_queues[idx] = NULL;
}

int
mlx5v_txq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct mlx5v_txq *txq;
	int ret;

	RTE_SET_USED(conf);
	if (mlx5v_ethdev_core(eth_dev) == NULL)
		return -ENODEV;
	if (eth_dev->data->tx_queues[idx] != NULL)
		mlx5v_txq_release(eth_dev, idx);
	txq = rte_zmalloc_socket("mlx5v_txq", sizeof(*txq), RTE_CACHE_LINE_SIZE, socket);
	if (txq == NULL)
		return -ENOMEM;
	ret = mlx5v_ethdev_ring_alloc(eth_dev, &txq->ring, "Tx", idx, nb_desc, TXQ_LOG_STRIDE,
				      socket);
	if (ret != 0) {
		rte_free(txq);
		return ret;
	}
	txq->idx = idx;
	txq->nb_desc = nb_desc;
	txq->socket = socket;
	txq->eth_dev = eth_dev;
	eth_dev->data->tx_queues[idx] = txq;
	return 0;
}

int
mlx5v_txq_create(struct rte_eth_dev *eth_dev, struct mlx5v_txq *txq)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_ethdev_wq_attr a = {
		.pd = priv->obj.pd,
		.uar_page = mlx5v_ethdev_uar(eth_dev)->page_id,
		.tis_or_qcnt = priv->obj.tis,
		.log_wq_sz = rte_log2_u32(txq->nb_desc),
		.log_stride = TXQ_LOG_STRIDE,
		.dbr_iova = txq->ring.iova + txq->ring.ring_len,
		.ring_iova = txq->ring.iova,
		.npages = txq->ring.ring_len / MLX5V_ETH_RING_PAGE,
	};
	int ret;

	txq->cq = mlx5v_devx_cq_create(dev, RTE_MAX(a.log_wq_sz, 1u),
				       mlx5v_eq_eqn(mlx5v_eq_async(dev)),
				       mlx5v_ethdev_uar(eth_dev));
	if (txq->cq == NULL)
		return -rte_errno;
	a.cqn = txq->cq->cqn;
	ret = mlx5v_ethdev_cmd_sq_create(dev, &a, &txq->sqn);
	if (ret != 0)
		goto err_cq_destroy;
	ret = mlx5v_ethdev_cmd_q_ready(dev, 1, txq->sqn, 1);
	if (ret != 0)
		goto err_sq_destroy;
	txq->ready = 1;
	return 0;

err_sq_destroy:
	mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_SQ, txq->sqn);
	txq->sqn = 0;
err_cq_destroy:
	mlx5v_devx_cq_destroy(txq->cq);
	txq->cq = NULL;
	return ret;
}

void
mlx5v_txq_destroy(struct rte_eth_dev *eth_dev, struct mlx5v_txq *txq)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	if (dev == NULL)
		return;
	if (txq->ready)
		mlx5v_ethdev_cmd_q_ready(dev, 1, txq->sqn, 0);
	txq->ready = 0;
	if (txq->sqn != 0)
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_SQ, txq->sqn);
	txq->sqn = 0;
	if (txq->cq != NULL)
		mlx5v_devx_cq_destroy(txq->cq);
	txq->cq = NULL;
}

void
mlx5v_txq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx, struct rte_eth_txq_info *qinfo)
{
	const struct mlx5v_txq *txq = eth_dev->data->tx_queues[idx];

	if (txq == NULL)
		return;
	qinfo->nb_desc = txq->nb_desc;
	qinfo->conf.offloads = 0;
}
