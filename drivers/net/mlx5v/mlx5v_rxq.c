/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Rx queues of the mlx5v PMD: ring memory at setup, CQ and RQ at start. */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx5v_devx.h"
#include "mlx5v_ethdev.h"

/* Receive WQE stride: one 16-byte data segment (prm/mlx5_eth §5.2). */
#define RXQ_LOG_STRIDE 4

void
mlx5v_rxq_release(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct mlx5v_rxq *rxq = eth_dev->data->rx_queues[idx];

	if (rxq == NULL)
		return;
	mlx5v_rxq_destroy(eth_dev, rxq);
	mlx5v_ethdev_ring_free(eth_dev, &rxq->ring);
	rte_free(rxq);
	eth_dev->data->rx_queues[idx] = NULL;
}

int
mlx5v_rxq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_rxconf *conf, struct rte_mempool *mp)
{
	struct mlx5v_rxq *rxq;
	int ret;

	RTE_SET_USED(conf);
	if (mlx5v_ethdev_core(eth_dev) == NULL)
		return -ENODEV;
	if (eth_dev->data->rx_queues[idx] != NULL)
		mlx5v_rxq_release(eth_dev, idx);
	rxq = rte_zmalloc_socket("mlx5v_rxq", sizeof(*rxq), RTE_CACHE_LINE_SIZE, socket);
	if (rxq == NULL)
		return -ENOMEM;
	ret = mlx5v_ethdev_ring_alloc(eth_dev, &rxq->ring, "Rx", idx, nb_desc, RXQ_LOG_STRIDE,
				      socket);
	if (ret != 0) {
		rte_free(rxq);
		return ret;
	}
	rxq->idx = idx;
	rxq->nb_desc = nb_desc;
	rxq->socket = socket;
	rxq->mp = mp;
	rxq->eth_dev = eth_dev;
	eth_dev->data->rx_queues[idx] = rxq;
	return 0;
}

int
mlx5v_rxq_create(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_ethdev_wq_attr a = {
		.pd = priv->obj.pd,
		.tis_or_qcnt = priv->obj.qcnt,
		.log_wq_sz = rte_log2_u32(rxq->nb_desc),
		.log_stride = RXQ_LOG_STRIDE,
		.dbr_iova = rxq->ring.iova + rxq->ring.ring_len,
		.ring_iova = rxq->ring.iova,
		.npages = rxq->ring.ring_len / MLX5V_ETH_RING_PAGE,
	};
	int ret;

	/* Bound to the queue's own EQ when Rx interrupts are on (mlx5v_intr.c). */
	rxq->cq = mlx5v_devx_cq_create(dev, RTE_MAX(a.log_wq_sz, 1u),
				       mlx5v_intr_rxq_eqn(eth_dev, rxq->idx),
				       mlx5v_ethdev_uar(eth_dev));
	if (rxq->cq == NULL)
		return -rte_errno;
	/* A new CQ starts at index 0; an arm with an older index would be beyond its producer. */
	rxq->cq_ci = 0;
	a.cqn = rxq->cq->cqn;
	ret = mlx5v_ethdev_cmd_rq_create(dev, &a, &rxq->rqn);
	if (ret != 0)
		goto err_cq_destroy;
	ret = mlx5v_ethdev_cmd_q_ready(dev, 0, rxq->rqn, 1);
	if (ret != 0)
		goto err_rq_destroy;
	rxq->ready = 1;
	return 0;

err_rq_destroy:
	mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_RQ, rxq->rqn);
	rxq->rqn = 0;
err_cq_destroy:
	mlx5v_devx_cq_destroy(rxq->cq);
	rxq->cq = NULL;
	return ret;
}

void
mlx5v_rxq_destroy(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	if (dev == NULL)
		return;
	if (rxq->ready)
		mlx5v_ethdev_cmd_q_ready(dev, 0, rxq->rqn, 0);
	rxq->ready = 0;
	if (rxq->rqn != 0)
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_RQ, rxq->rqn);
	rxq->rqn = 0;
	if (rxq->cq != NULL)
		mlx5v_devx_cq_destroy(rxq->cq);
	rxq->cq = NULL;
}

void
mlx5v_rxq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx, struct rte_eth_rxq_info *qinfo)
{
	const struct mlx5v_rxq *rxq = eth_dev->data->rx_queues[idx];

	if (rxq == NULL)
		return;
	qinfo->mp = rxq->mp;
	qinfo->nb_desc = rxq->nb_desc;
	qinfo->scattered_rx = 0;
	qinfo->conf.rx_free_thresh = 0;
	qinfo->conf.offloads = 0;
}
