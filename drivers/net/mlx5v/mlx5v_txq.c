/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Tx queues of the mlx5v PMD: ring memory at setup, CQ and SQ at start, the SQ moved
 * between RST and RDY by the queue's own start and stop.
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx5v_devx.h"
#include "mlx5v_eq.h"
#include "mlx5v_ethdev.h"

/* Send WQE basic block: 64 bytes (prm/mlx5_eth §6.1). */
#define TXQ_LOG_STRIDE 6
/* Ask for a completion at least every this many packets (a quarter of a small ring). */
#define TXQ_COMP_MAX 32
/* BlueFlame registers of a UAR, from UAR + 0x800 on, each of two halves (prm/mlx5_eth §6.6). */
#define TXQ_BF_REGS 4

/*
 * Where from UAR + 0x800 queue idx rings (prm/mlx5_eth §6.6): the registers are 2^log_bf bytes
 * each, as many as fit in the UAR's second half up to TXQ_BF_REGS, and a doorbell goes to the start
 * of either half of one; the queues take the halves in turn.
 */
static uint32_t
mlx5v_txq_db_off(uint8_t log_bf, uint16_t idx)
{
	const uint32_t bf = UINT32_C(1) << log_bf;
	const uint32_t nregs = RTE_MAX(RTE_MIN((uint32_t)TXQ_BF_REGS,
					       (uint32_t)RTE_PMD_MLX5V_UAR_BF_OFF / bf), 1u);
	const uint32_t k = idx % (2 * nregs);

	return (k / 2) * bf + (k % 2) * (bf / 2);
}

void
mlx5v_txq_release(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct mlx5v_txq *txq = eth_dev->data->tx_queues[idx];

	if (txq == NULL)
		return;
	mlx5v_txq_destroy(eth_dev, txq);
	mlx5v_ethdev_ring_free(eth_dev, &txq->ring);
	rte_free(txq->elts);
	rte_free(txq);
	eth_dev->data->tx_queues[idx] = NULL;
}

int
mlx5v_txq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_txconf *conf)
{
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct mlx5v_txq *txq;
	uint64_t offloads;
	int ret;

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
	/* Up to 4 packets per WQEBB (multi-packet WQEs), then the per-WQEBB elts index. */
	txq->elts = rte_zmalloc_socket("mlx5v_txq_elts",
				       (sizeof(*txq->elts) * 4 + sizeof(*txq->wqe_elts)) * nb_desc,
				       RTE_CACHE_LINE_SIZE, socket);
	if (txq->elts == NULL) {
		mlx5v_ethdev_ring_free(eth_dev, &txq->ring);
		rte_free(txq);
		return -ENOMEM;
	}
	txq->idx = idx;
	txq->nb_desc = nb_desc;
	txq->socket = socket;
	txq->eth_dev = eth_dev;
	txq->port_id = eth_dev->data->port_id;
	txq->wqes = txq->ring.buf;
	/* The SQ's doorbell record is dword 1 of the record (prm/mlx5_eth §6.6). */
	txq->dbrec = (volatile uint32_t *)(txq->ring.buf + txq->ring.ring_len) + 1;
	txq->wqe_mask = nb_desc - 1;
	txq->wqe_elts = (uint32_t *)(txq->elts + 4 * (size_t)nb_desc);
	txq->elts_mask = 4 * (uint32_t)nb_desc - 1;
	txq->comp_thresh = RTE_MAX(1, RTE_MIN(TXQ_COMP_MAX, nb_desc / 4));
	/* Reap every few completions: a quarter of the ring's packets (4 per WQEBB), at most. */
	txq->reap_pkts = RTE_MIN(MLX5V_TXQ_REAP_COMPS * (unsigned int)txq->comp_thresh,
				 (unsigned int)nb_desc);
	txq->min_inline = priv->caps.min_inline;
	/* Packets by pointer in a multi-packet WQE carry no inline header (prm/mlx5_empw §3.1). */
	txq->empw = priv->caps.empw && priv->caps.min_inline == 0;
	txq->vlan_insert = priv->caps.wqe_vlan_insert;
	txq->vlan_hw = priv->caps.hw_vlan_insert;
	txq->lkey = priv->caps.resd_lkey;
	offloads = conf->offloads | eth_dev->data->dev_conf.txmode.offloads;
	txq->fast_free = !!(offloads & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE);
	txq->deferred = conf->tx_deferred_start;
	/*
	 * The offloads promise plain packets (one pool, refcnt 1, direct, no offload flags
	 * honoured): the lean burst checks only the segment count (doc/guides/nics/mlx5v.rst,
	 * "Data path").
	 */
	txq->lean = txq->empw && txq->fast_free &&
		    !(offloads & (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
				  RTE_ETH_TX_OFFLOAD_TCP_CKSUM | RTE_ETH_TX_OFFLOAD_VLAN_INSERT |
				  RTE_ETH_TX_OFFLOAD_TCP_TSO));
	/*
	 * Packets per multi-packet WQE: the DS after control and Ethernet segments, and a CQE
	 * for each WQE of at most comp_thresh packets (prm/mlx5_eth §6.2, mlx5_empw
	 * prm/mlx5_eth §3).
	 */
	txq->mpw_kmax = RTE_MIN(txq->comp_thresh, priv->caps.max_wqe_ds - 2);
	/* prm/mlx5_eth §3.3: max_lso_cap is the log2 of the largest LSO message. */
	if (mlx5v_tx_offload_capa(&priv->caps) & RTE_ETH_TX_OFFLOAD_TCP_TSO)
		txq->max_lso = UINT32_C(1) << priv->caps.max_lso_cap;
	txq->max_segs = mlx5v_tx_max_segs(&priv->caps, 0);
	txq->tso_max_segs = mlx5v_tx_max_segs(&priv->caps, 1);
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
		.min_inline_mode = priv->caps.min_inline_mode,
		.allow_mpw = txq->empw,
		.log_wq_sz = rte_log2_u32(txq->nb_desc),
		.log_stride = TXQ_LOG_STRIDE,
		.dbr_iova = txq->ring.dbr_dma.iova[0],
		.ring = &txq->ring.dma,
		.npages = txq->ring.ring_len / MLX5V_ETH_RING_PAGE,
	};
	int ret;

	txq->cq = mlx5v_devx_cq_create(dev, RTE_MAX(a.log_wq_sz, 1u),
				       mlx5v_eq_eqn(mlx5v_eq_async(dev)),
				       mlx5v_ethdev_uar(eth_dev));
	if (txq->cq == NULL)
		return -rte_errno;
	a.cqn = txq->cq->cqn;
	txq->cqes = txq->cq->buf;
	txq->cq_dbrec = txq->cq->dbrec;
	txq->cq_nent = txq->cq->nent;
	/*
	 * Each queue rings its own half of a BlueFlame register (prm/mlx5_eth §6.6): two lcores
	 * never store to the same doorbell word, whose last value alone a polling model would see.
	 * The offset is shared: a secondary process rings the same word of its own mapping.
	 */
	txq->db_off = (uint8_t *)mlx5v_ethdev_uar(eth_dev)->reg_addr -
		      (uint8_t *)mlx5v_ethdev_uar(eth_dev)->base_addr +
		      mlx5v_txq_db_off(priv->caps.log_bf_reg_size, txq->idx);
	mlx5v_ethdev_proc(txq->port_id)->db[txq->idx] =
		(uint8_t *)mlx5v_ethdev_uar(eth_dev)->base_addr + txq->db_off;
	mlx5v_txq_reset(txq);
	ret = mlx5v_ethdev_cmd_sq_create(dev, &a, &txq->sqn);
	if (ret != 0)
		goto err_cq_destroy;
	mlx5v_txq_tmpl_init(txq);
	/* A deferred SQ stays in RST, where it sends nothing (prm/mlx5_eth §5.2). */
	if (txq->deferred)
		return 0;
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

/* RDY, or ERR after an error CQE not recovered yet, to RST. @return 0 or -errno. */
static int
mlx5v_txq_to_rst(struct mlx5v_dev *dev, struct mlx5v_txq *txq)
{
	if (mlx5v_ethdev_cmd_q_modify(dev, 1, txq->sqn, MLX5V_ETHDEV_Q_RDY,
				      MLX5V_ETHDEV_Q_RST) == 0)
		return 0;
	return mlx5v_ethdev_cmd_q_modify(dev, 1, txq->sqn, MLX5V_ETHDEV_Q_ERR,
					 MLX5V_ETHDEV_Q_RST);
}

/*
 * Tx queue idx of a started port to RDY (start) or to RST (stop: the CQEs written before
 * skipped, the packets posted freed, the indexes back to 0, as the SQ's are from RST,
 * prm/mlx5_eth §5.2); its ethdev state follows. @return 0 or -errno.
 */
static int
mlx5v_txq_switch(struct rte_eth_dev *eth_dev, uint16_t idx, int start)
{
	struct mlx5v_txq *txq = eth_dev->data->tx_queues[idx];
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	int ret;

	if (dev == NULL)
		return -ENODEV;
	if (txq == NULL || txq->sqn == 0)
		return -EINVAL;
	/* The bursts send nothing from here on; the application is in none of them. */
	txq->ready = 0;
	ret = start ? mlx5v_ethdev_cmd_q_ready(dev, 1, txq->sqn, 1) : mlx5v_txq_to_rst(dev, txq);
	if (ret != 0) {
		MLX5V_ETH_LOG(ERR, "port %u Tx queue %u: %s failed: %s", eth_dev->data->port_id,
			      idx, start ? "start" : "stop", strerror(-ret));
		txq->ready = !start;
		return ret;
	}
	if (!start)
		mlx5v_txq_sync(txq);
	txq->ready = start;
	eth_dev->data->tx_queue_state[idx] = start ? RTE_ETH_QUEUE_STATE_STARTED :
						     RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

int
mlx5v_txq_start(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx5v_txq_switch(eth_dev, idx, 1);
}

int
mlx5v_txq_stop(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx5v_txq_switch(eth_dev, idx, 0);
}

void
mlx5v_txq_destroy(struct rte_eth_dev *eth_dev, struct mlx5v_txq *txq)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	uint8_t ready = txq->ready;

	txq->ready = 0;
	mlx5v_ethdev_proc(txq->port_id)->db[txq->idx] = NULL;
	mlx5v_txq_drain(txq);
	if (dev == NULL)
		return;
	/* RDY or ERR (an unrecovered error) to RST; a failure is logged, teardown goes on. */
	if (txq->sqn != 0 && ready)
		mlx5v_txq_to_rst(dev, txq);
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
	qinfo->conf.offloads = eth_dev->data->dev_conf.txmode.offloads;
}
