/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Tx queues of the mlx4v PMD: set up, and at start a CQ and a raw-packet QP made
 * through rte_pmd_mlx4v_*, whose mlx4dv views the Tx burst drives.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx4v_ethdev.h"

void
mlx4v_txq_release(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct mlx4v_txq *txq = eth_dev->data->tx_queues[idx];

	if (txq == NULL)
		return;
	mlx4v_txq_destroy(eth_dev, txq);
	rte_free(txq);
	eth_dev->data->tx_queues[idx] = NULL;
}

int
mlx4v_txq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct mlx4v_txq *txq;
	int ret;

	if (priv->dead)
		return -EIO;
	ret = mlx4v_ethdev_ring_check(eth_dev, "Tx", idx, nb_desc);
	if (ret != 0)
		return ret;
	if (conf->tx_deferred_start) {
		MLX4V_ETH_LOG(ERR, "port %u Tx queue %u: deferred start is not supported",
			      eth_dev->data->port_id, idx);
		return -ENOTSUP;
	}
	if (eth_dev->data->tx_queues[idx] != NULL)
		mlx4v_txq_release(eth_dev, idx);
	txq = rte_zmalloc_socket("mlx4v_txq", sizeof(*txq), RTE_CACHE_LINE_SIZE, socket);
	if (txq == NULL)
		return -ENOMEM;
	txq->idx = idx;
	txq->nb_desc = nb_desc;
	txq->socket = socket;
	txq->eth_dev = eth_dev;
	txq->port_id = eth_dev->data->port_id;
	txq->offloads = conf->offloads | eth_dev->data->dev_conf.txmode.offloads;
	eth_dev->data->tx_queues[idx] = txq;
	return 0;
}

int
mlx4v_txq_create(struct rte_eth_dev *eth_dev, struct mlx4v_txq *txq)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	static const enum rte_pmd_mlx4v_qp_state up[] = {
		RTE_PMD_MLX4V_QPS_INIT, RTE_PMD_MLX4V_QPS_RTR, RTE_PMD_MLX4V_QPS_RTS,
	};
	struct rte_pmd_mlx4v_qp_attr qa;
	struct rte_pmd_mlx4v_obj obj;
	unsigned int i;
	int ret;

	txq->cq = rte_pmd_mlx4v_create_cq(priv->dev, txq->nb_desc, 0, 0);
	if (txq->cq == NULL)
		goto error;
	/* One SGE and no inline data: 64-byte WQEBBs, as the header documents. */
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = txq->cq;
	qa.recv_cq = txq->cq;
	qa.max_send_wr = txq->nb_desc;
	qa.max_send_sge = 1;
	qa.port = priv->port;
	txq->qp = rte_pmd_mlx4v_create_qp(priv->pd, &qa);
	if (txq->qp == NULL)
		goto error;
	txq->max_inline = qa.max_inline_data;
	/* RESET->INIT (the port, SQ ownership initialised), RTR, RTS. */
	for (i = 0; i < RTE_DIM(up); i++)
		if (rte_pmd_mlx4v_modify_qp(txq->qp, up[i]) != 0)
			goto error;
	memset(&obj, 0, sizeof(obj));
	obj.qp.in = txq->qp;
	obj.qp.out = &txq->qpv;
	obj.cq.in = txq->cq;
	obj.cq.out = &txq->cqv;
	if (rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ) != 0 ||
	    rte_pmd_mlx4v_qp_num(txq->qp, &txq->qpn) != 0)
		goto error;
	txq->sq_n = txq->qpv.sq.wqe_cnt;
	txq->sq_mask = txq->sq_n - 1;
	/* What libmlx4 keeps spare (wqe_cnt - max_send_wr granted) stays unposted. */
	txq->max_post = qa.max_send_wr;
	txq->doorbell_qpn = txq->qpv.doorbell_qpn;
	txq->csum = (txq->offloads & (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				      RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
				      RTE_ETH_TX_OFFLOAD_TCP_CKSUM)) != 0;
	/*
	 * The destination MAC in the control segment on a VF only, as DPDK's mlx4 does: the
	 * embedded switch of SR-IOV steers by it, to the PF and the other VFs of the port, and
	 * back to the sender's own rules. On a PF a zero MAC sends to the wire only; a group
	 * frame is then never handed back to the port that sent it (doc/guides/sim/silicon.rst).
	 */
	txq->dmac_in_ctrl = priv->caps.vf;
	txq->elts = rte_calloc_socket("mlx4v_txq_elts", txq->sq_n, sizeof(*txq->elts),
				      RTE_CACHE_LINE_SIZE, txq->socket);
	if (txq->elts == NULL) {
		rte_errno = ENOMEM;
		goto error;
	}
	if (mlx4v_txq_check(txq) != 0) {
		rte_errno = EINVAL;
		goto error;
	}
	mlx4v_txq_reset(txq);
	mlx4v_ethdev_proc(txq->port_id)->sdb[txq->idx] = txq->qpv.sdb;
	txq->ready = 1;
	return 0;

error:
	ret = -rte_errno;
	MLX4V_ETH_LOG(ERR, "port %u Tx queue %u: creating its CQ and QP failed: %s",
		      txq->port_id, txq->idx, strerror(rte_errno));
	mlx4v_txq_destroy(eth_dev, txq);
	return ret != 0 ? ret : -EIO;
}

void
mlx4v_txq_destroy(struct rte_eth_dev *eth_dev, struct mlx4v_txq *txq)
{
	RTE_SET_USED(eth_dev);
	mlx4v_ethdev_proc(txq->port_id)->sdb[txq->idx] = NULL;
	/* RESET first: the device reads no more from the mbufs the drain frees. */
	if (txq->qp != NULL && txq->ready)
		rte_pmd_mlx4v_modify_qp(txq->qp, RTE_PMD_MLX4V_QPS_RESET);
	txq->ready = 0;
	if (txq->elts != NULL) {
		mlx4v_txq_drain(txq);
		rte_free(txq->elts);
		txq->elts = NULL;
	}
	if (txq->qp != NULL && rte_pmd_mlx4v_destroy_qp(txq->qp) != 0)
		MLX4V_ETH_LOG(WARNING, "port %u Tx queue %u: QP: %s", txq->port_id, txq->idx,
			      strerror(rte_errno));
	txq->qp = NULL;
	if (txq->cq != NULL && rte_pmd_mlx4v_destroy_cq(txq->cq) != 0)
		MLX4V_ETH_LOG(WARNING, "port %u Tx queue %u: CQ: %s", txq->port_id, txq->idx,
			      strerror(rte_errno));
	txq->cq = NULL;
	txq->mp_last = NULL;
	memset(&txq->qpv, 0, sizeof(txq->qpv));
	memset(&txq->cqv, 0, sizeof(txq->cqv));
}

void
mlx4v_txq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx, struct rte_eth_txq_info *qinfo)
{
	const struct mlx4v_txq *txq = eth_dev->data->tx_queues[idx];

	qinfo->nb_desc = txq->nb_desc;
	qinfo->conf.offloads = txq->offloads;
}

/* One loop serves every queue (mlx4v_tx_burst()); segments as the queue's offloads allow. */
int
mlx4v_tx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx, struct rte_eth_burst_mode *mode)
{
	const struct mlx4v_txq *txq = eth_dev->data->tx_queues[idx];

	if (txq == NULL)
		return -EINVAL;
	snprintf(mode->info, sizeof(mode->info), "%s",
		 (txq->offloads & RTE_ETH_TX_OFFLOAD_MULTI_SEGS) ? "Scalar multi-segment" :
		 "Scalar");
	return 0;
}
