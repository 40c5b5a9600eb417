/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Rx queues of the mlx4v PMD: set up, and at start a CQ and a receive WQ (RWQ) made
 * through rte_pmd_mlx4v_*, whose mlx4dv views the Rx burst drives.
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx4v_ethdev.h"

void
mlx4v_rxq_release(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct mlx4v_rxq *rxq = eth_dev->data->rx_queues[idx];

	if (rxq == NULL)
		return;
	mlx4v_rxq_destroy(eth_dev, rxq);
	mlx4v_priv(eth_dev)->rx_nombuf_acc += rxq->nombuf;
	rte_free(rxq);
	eth_dev->data->rx_queues[idx] = NULL;
}

/* A ring size the device takes: a power of two between the limits. */
int
mlx4v_ethdev_ring_check(struct rte_eth_dev *eth_dev, const char *what, uint16_t idx,
			uint16_t nb_desc)
{
	const struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint32_t max = rte_align32prevpow2(RTE_MIN(priv->caps.max_qp_wr, (uint32_t)UINT16_MAX));

	if (!rte_is_power_of_2(nb_desc) || nb_desc < MLX4V_ETH_RING_MIN || nb_desc > max) {
		MLX4V_ETH_LOG(ERR, "port %u %s queue %u: %u descriptors, a power of two from %u "
			      "to %u is required", eth_dev->data->port_id, what, idx, nb_desc,
			      MLX4V_ETH_RING_MIN, max);
		return -EINVAL;
	}
	return 0;
}

int
mlx4v_rxq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_rxconf *conf, struct rte_mempool *mp)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct mlx4v_rxq *rxq;
	const struct rte_pmd_mlx4v_mr_range *mr_ranges;
	uint32_t room, lkey, mr_n;
	int ret;

	if (priv->dead)
		return -EIO;
	ret = mlx4v_ethdev_ring_check(eth_dev, "Rx", idx, nb_desc);
	if (ret != 0)
		return ret;
	room = rte_pktmbuf_data_room_size(mp);
	if (room < RTE_PKTMBUF_HEADROOM + RTE_ETHER_MIN_LEN) {
		MLX4V_ETH_LOG(ERR, "port %u Rx queue %u: mbufs of mempool %s hold %u bytes, "
			      "%u at least are required", eth_dev->data->port_id, idx, mp->name,
			      room, RTE_PKTMBUF_HEADROOM + RTE_ETHER_MIN_LEN);
		return -EINVAL;
	}
	if (conf->rx_deferred_start) {
		MLX4V_ETH_LOG(ERR, "port %u Rx queue %u: deferred start is not supported",
			      eth_dev->data->port_id, idx);
		return -ENOTSUP;
	}
	/* The device reads the pool's buffers under this lkey. */
	ret = mlx4v_ethdev_mr_lookup(eth_dev, mp, &lkey, &mr_ranges, &mr_n);
	if (ret != 0)
		return ret;
	if (eth_dev->data->rx_queues[idx] != NULL)
		mlx4v_rxq_release(eth_dev, idx);
	rxq = rte_zmalloc_socket("mlx4v_rxq", sizeof(*rxq), RTE_CACHE_LINE_SIZE, socket);
	if (rxq == NULL)
		return -ENOMEM;
	rxq->idx = idx;
	rxq->nb_desc = nb_desc;
	rxq->socket = socket;
	rxq->mp = mp;
	rxq->lkey = lkey;
	rxq->mr_ranges = mr_ranges;
	rxq->mr_n = mr_n;
	rxq->eth_dev = eth_dev;
	rxq->port_id = eth_dev->data->port_id;
	rxq->seg_size = room - RTE_PKTMBUF_HEADROOM;
	rxq->offloads = conf->offloads | eth_dev->data->dev_conf.rxmode.offloads;
	eth_dev->data->rx_queues[idx] = rxq;
	return 0;
}

/*
 * SGEs per WQE for the largest frame the MTU lets in (Ethernet header, one VLAN tag, FCS
 * room), with the queue's mbufs. @return 0 or -EINVAL (scatter needed and not enabled, or
 * beyond the device's SGEs).
 */
static int
mlx4v_rxq_sges(struct rte_eth_dev *eth_dev, struct mlx4v_rxq *rxq)
{
	const struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint32_t frame = eth_dev->data->mtu + MLX4V_ETH_MTU_OVERHEAD;
	uint32_t segs = (frame + rxq->seg_size - 1) / rxq->seg_size;
	uint32_t max = RTE_MIN(1u << MLX4V_ETH_RX_MAX_SGES_LOG,
			       rte_align32prevpow2(priv->caps.max_sge));

	segs = rte_align32pow2(segs);
	if (segs > 1 && !(rxq->offloads & RTE_ETH_RX_OFFLOAD_SCATTER)) {
		MLX4V_ETH_LOG(ERR, "port %u Rx queue %u: MTU %u needs frames of %u bytes over "
			      "%u mbufs of %u: enable the scatter offload", rxq->port_id,
			      rxq->idx, eth_dev->data->mtu, frame, segs, rxq->seg_size);
		return -EINVAL;
	}
	if (segs > max || segs > rxq->nb_desc) {
		MLX4V_ETH_LOG(ERR, "port %u Rx queue %u: MTU %u needs %u mbufs of %u per frame, "
			      "%u at most", rxq->port_id, rxq->idx, eth_dev->data->mtu, segs,
			      rxq->seg_size, RTE_MIN(max, rxq->nb_desc));
		return -EINVAL;
	}
	rxq->sges_log = rte_log2_u32(segs);
	rxq->scatter = segs > 1;
	return 0;
}

int
mlx4v_rxq_create(struct rte_eth_dev *eth_dev, struct mlx4v_rxq *rxq)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_pmd_mlx4v_wq_attr wa;
	struct rte_pmd_mlx4v_obj obj;
	uint32_t wqes;
	int ret;

	ret = mlx4v_rxq_sges(eth_dev, rxq);
	if (ret != 0)
		return ret;
	wqes = rxq->nb_desc >> rxq->sges_log;
	rxq->with_events = eth_dev->data->dev_conf.intr_conf.rxq != 0;
	rxq->cq = rte_pmd_mlx4v_create_cq(priv->dev, wqes, 0, rxq->with_events);
	if (rxq->cq == NULL)
		goto error;
	memset(&wa, 0, sizeof(wa));
	wa.cq = rxq->cq;
	wa.max_wr = wqes;
	wa.max_sge = 1u << rxq->sges_log;
	wa.port = priv->port;
	rxq->wq = rte_pmd_mlx4v_create_wq(priv->pd, &wa);
	if (rxq->wq == NULL)
		goto error;
	memset(&obj, 0, sizeof(obj));
	obj.rwq.in = rxq->wq;
	obj.rwq.out = &rxq->rwq;
	obj.cq.in = rxq->cq;
	obj.cq.out = &rxq->cqv;
	/* The CQ's UAR page: Rx interrupts ring its arm doorbell (mlx4v_intr.c). */
	rxq->cqv.comp_mask = MLX4DV_CQ_MASK_UAR;
	if (rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_RWQ | MLX4DV_OBJ_CQ) != 0 ||
	    rte_pmd_mlx4v_wq_num(rxq->wq, &rxq->wqn) != 0)
		goto error;
	/* The ring may be bigger than asked (rounded up): every WQE gets its mbufs. */
	rxq->wqe_n = rxq->rwq.rq.wqe_cnt;
	rxq->wqe_mask = rxq->wqe_n - 1;
	rxq->cq_size = rxq->cqv.cqe_cnt;
	rxq->csum = (rxq->offloads & (RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
				      RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
				      RTE_ETH_RX_OFFLOAD_TCP_CKSUM)) != 0;
	rxq->rss_hash = (rxq->offloads & RTE_ETH_RX_OFFLOAD_RSS_HASH) != 0;
	rxq->rq_ci = 0;
	rxq->rq_tail = 0;
	rxq->cq_ci = 0;
	rxq->arm_sn = rxq->cqv.arm_sn;
	rxq->elts = rte_calloc_socket("mlx4v_rxq_elts", (size_t)rxq->wqe_n << rxq->sges_log,
				      sizeof(*rxq->elts), RTE_CACHE_LINE_SIZE, rxq->socket);
	if (rxq->elts == NULL) {
		rte_errno = ENOMEM;
		goto error;
	}
	ret = mlx4v_rxq_fill(rxq);
	if (ret != 0) {
		rte_errno = -ret;
		goto error;
	}
	if (rte_pmd_mlx4v_modify_wq(rxq->wq, RTE_PMD_MLX4V_WQS_RDY) != 0)
		goto error;
	rxq->ready = 1;
	return 0;

error:
	ret = -rte_errno;
	MLX4V_ETH_LOG(ERR, "port %u Rx queue %u: creating its CQ and WQ failed: %s",
		      rxq->port_id, rxq->idx, strerror(rte_errno));
	mlx4v_rxq_destroy(eth_dev, rxq);
	return ret != 0 ? ret : -EIO;
}

void
mlx4v_rxq_destroy(struct rte_eth_dev *eth_dev, struct mlx4v_rxq *rxq)
{
	RTE_SET_USED(eth_dev);
	mlx4v_rxq_recover_cancel(rxq);
	/* RESET first: the device writes no more into the mbufs the drain frees. */
	if (rxq->wq != NULL && rxq->ready)
		rte_pmd_mlx4v_modify_wq(rxq->wq, RTE_PMD_MLX4V_WQS_RESET);
	rxq->ready = 0;
	if (rxq->elts != NULL) {
		mlx4v_rxq_drain(rxq);
		rte_free(rxq->elts);
		rxq->elts = NULL;
	}
	if (rxq->wq != NULL && rte_pmd_mlx4v_destroy_wq(rxq->wq) != 0)
		MLX4V_ETH_LOG(WARNING, "port %u Rx queue %u: WQ: %s", rxq->port_id, rxq->idx,
			      strerror(rte_errno));
	rxq->wq = NULL;
	if (rxq->cq != NULL && rte_pmd_mlx4v_destroy_cq(rxq->cq) != 0)
		MLX4V_ETH_LOG(WARNING, "port %u Rx queue %u: CQ: %s", rxq->port_id, rxq->idx,
			      strerror(rte_errno));
	rxq->cq = NULL;
	memset(&rxq->rwq, 0, sizeof(rxq->rwq));
	memset(&rxq->cqv, 0, sizeof(rxq->cqv));
}

void
mlx4v_rxq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx, struct rte_eth_rxq_info *qinfo)
{
	const struct mlx4v_rxq *rxq = eth_dev->data->rx_queues[idx];

	qinfo->mp = rxq->mp;
	qinfo->nb_desc = rxq->nb_desc;
	qinfo->scattered_rx = rxq->scatter;
	qinfo->rx_buf_size = rxq->seg_size;
	qinfo->conf.offloads = rxq->offloads;
	qinfo->conf.rx_free_thresh = 0;
}
