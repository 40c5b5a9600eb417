/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Rx queues of the mlx5v PMD: ring memory at setup, CQ and RQ at start, the RQ moved
 * between RST and RDY by the queue's own start and stop.
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx5v_devx.h"
#include "mlx5v_ethdev.h"

/* Receive WQE stride of one 16-byte data segment (prm/mlx5_eth §7.1). */
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
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct mlx5v_rxq *rxq;
	uint32_t room;
	int ret;

	if (mlx5v_ethdev_core(eth_dev) == NULL)
		return -ENODEV;
	room = rte_pktmbuf_data_room_size(mp);
	if (room < RTE_PKTMBUF_HEADROOM + RTE_ETHER_MIN_LEN) {
		MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: mbufs of mempool %s hold %u bytes, "
			      "%u at least are required", eth_dev->data->port_id, idx, mp->name,
			      room, RTE_PKTMBUF_HEADROOM + RTE_ETHER_MIN_LEN);
		return -EINVAL;
	}
	/* The data path posts buffers at the pool's own IOVAs (mlx5v_mem.c maps the pool). */
	if (rte_pktmbuf_priv_flags(mp) & RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF) {
		MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: mempool %s has pinned external buffers, "
			      "which are not supported", eth_dev->data->port_id, idx, mp->name);
		return -ENOTSUP;
	}
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
	rxq->port_id = eth_dev->data->port_id;
	rxq->wqe_mask = nb_desc - 1;
	rxq->seg_size = room - RTE_PKTMBUF_HEADROOM;
	rxq->lkey = priv->caps.resd_lkey;
	rxq->offloads = conf->offloads | eth_dev->data->dev_conf.rxmode.offloads;
	rxq->deferred = conf->rx_deferred_start;
	eth_dev->data->rx_queues[idx] = rxq;
	return 0;
}

/*
 * Data segments per WQE for the largest frame the MTU lets in (Ethernet header, one VLAN
 * tag, no FCS) with the queue's mbufs. @return 0 or -EINVAL (scatter needed and not enabled).
 */
static int
mlx5v_rxq_sges(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq)
{
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	uint32_t frame = eth_dev->data->mtu + MLX5V_ETH_HW_MTU_OVERHEAD - RTE_ETHER_CRC_LEN;
	uint32_t nseg = (frame + rxq->seg_size - 1) / rxq->seg_size;

	if (nseg > 1 && !(rxq->offloads & RTE_ETH_RX_OFFLOAD_SCATTER)) {
		MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: MTU %u needs frames of %u bytes, the "
			      "mbufs hold %u: enable the scatter offload or use larger mbufs",
			      eth_dev->data->port_id, rxq->idx, eth_dev->data->mtu, frame,
			      rxq->seg_size);
		return -EINVAL;
	}
	rxq->sges_log = (uint8_t)rte_log2_u32(rte_align32pow2(nseg));
	/* The device refuses a receive WQE beyond max_wqe_sz_rq: say so before it does. */
	if (rxq->sges_log > priv->caps.rx_max_sges_log) {
		MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: MTU %u would take %u mbufs of %u bytes, "
			      "%u at most (receive WQEs of %u bytes): use larger mbufs",
			      eth_dev->data->port_id, rxq->idx, eth_dev->data->mtu, nseg,
			      rxq->seg_size, 1u << priv->caps.rx_max_sges_log,
			      MLX5V_WQE_DS << priv->caps.rx_max_sges_log);
		return -EINVAL;
	}
	return 0;
}

/*
 * CQE compression where the device has it and the devarg asks for it, for one-mbuf WQEs
 * (prm/mlx5_eth §8.5), and the mini-CQE format the devarg names (DPDK mlx5's values).
 */
static void
mlx5v_rxq_cqe_comp(const struct mlx5v_ethdev_priv *priv, struct mlx5v_rxq *rxq)
{
	static const uint8_t fmt[] = {
		[MLX5V_ETH_CQE_COMP_HASH] = MLX5V_DEVX_MINI_CQE_HASH,
		[MLX5V_ETH_CQE_COMP_FTAG] = MLX5V_DEVX_MINI_CQE_FTAG,
		[MLX5V_ETH_CQE_COMP_CSUM] = MLX5V_DEVX_MINI_CQE_CSUM_STRIDX,
		[MLX5V_ETH_CQE_COMP_L34H] = MLX5V_DEVX_MINI_CQE_L34H,
	};

	rxq->cqe_comp = priv->caps.cqe_comp && priv->cqe_comp_en != MLX5V_ETH_CQE_COMP_OFF &&
			priv->cqe_comp_en < RTE_DIM(fmt) && rxq->sges_log == 0;
	rxq->mini_fmt = rxq->cqe_comp ? fmt[priv->cqe_comp_en] : MLX5V_DEVX_MINI_CQE_HASH;
}

/* The ring and the mbuf table for the scatter the MTU needs. @return 0 or -errno. */
static int
mlx5v_rxq_ring_size(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq)
{
	unsigned int log_stride = RXQ_LOG_STRIDE + rxq->sges_log;
	size_t len = RTE_ALIGN_CEIL((size_t)rxq->nb_desc << log_stride, MLX5V_ETH_RING_PAGE);
	int ret;

	if (rxq->ring.ring_len != len) {
		mlx5v_ethdev_ring_free(eth_dev, &rxq->ring);
		ret = mlx5v_ethdev_ring_alloc(eth_dev, &rxq->ring, "Rx", rxq->idx, rxq->nb_desc,
					      log_stride, rxq->socket);
		if (ret != 0)
			return ret;
	}
	rxq->wqes = rxq->ring.buf;
	/* The RQ's doorbell record is dword 0 of the record (prm/mlx5_eth §7.2). */
	rxq->dbrec = (volatile uint32_t *)(rxq->ring.buf + rxq->ring.ring_len);
	*rxq->dbrec = 0;
	rxq->elts = rte_zmalloc_socket("mlx5v_rxq_elts",
				       sizeof(*rxq->elts) * ((size_t)rxq->nb_desc << rxq->sges_log),
				       RTE_CACHE_LINE_SIZE, rxq->socket);
	return rxq->elts == NULL ? -ENOMEM : 0;
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
		.vsd = !(rxq->offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP),
	};
	struct mlx5v_devx_cq_opts opts;
	int ret;

	ret = mlx5v_rxq_sges(eth_dev, rxq);
	if (ret == 0)
		mlx5v_rxq_cqe_comp(priv, rxq);
	if (ret == 0)
		ret = mlx5v_rxq_ring_size(eth_dev, rxq);
	if (ret == 0)
		ret = mlx5v_mem_pool_map(eth_dev, rxq->mp);
	/* A deferred queue takes its mbufs at its own start. */
	if (ret == 0 && !rxq->deferred)
		ret = mlx5v_rxq_fill(rxq);
	if (ret != 0)
		goto err_elts_free;
	a.log_stride = RXQ_LOG_STRIDE + rxq->sges_log;
	a.dbr_iova = rxq->ring.dbr_dma.iova[0];
	a.ring = &rxq->ring.dma;
	a.npages = rxq->ring.ring_len / MLX5V_ETH_RING_PAGE;
	/* Bound to the queue's own EQ when Rx interrupts are on (mlx5v_intr.c). */
	opts.cqe_comp_en = rxq->cqe_comp;
	opts.mini_cqe_res_format = rxq->mini_fmt;
	rxq->cq = mlx5v_devx_cq_create_opts(dev, RTE_MAX(a.log_wq_sz, 1u),
					    mlx5v_intr_rxq_eqn(eth_dev, rxq->idx),
					    mlx5v_ethdev_uar(eth_dev), &opts);
	if (rxq->cq == NULL) {
		ret = -rte_errno;
		goto err_elts_free;
	}
	rxq->cqes = rxq->cq->buf;
	rxq->cq_dbrec = rxq->cq->dbrec;
	rxq->cq_nent = rxq->cq->nent;
	rxq->cq_log = (uint8_t)rte_log2_u32(rxq->cq_nent);
	/* A new CQ starts at index 0; an arm with an older index would be beyond its producer. */
	rxq->cq_ci = 0;
	a.cqn = rxq->cq->cqn;
	/* Its Rx interrupt arms it from the queue's shared state: a new CQ's sequence is 0. */
	rte_spinlock_lock(&rxq->intr.lock);
	rxq->intr.cqn = rxq->cq->cqn;
	rxq->intr.arm_sn = 0;
	rte_spinlock_unlock(&rxq->intr.lock);
	ret = mlx5v_ethdev_cmd_rq_create(dev, &a, &rxq->rqn);
	if (ret != 0)
		goto err_cq_destroy;
	/* An RQ in RST drops what the steering gives it (prm/mlx5_eth §5.2). */
	if (rxq->deferred)
		return 0;
	ret = mlx5v_ethdev_cmd_q_ready(dev, 0, rxq->rqn, 1);
	if (ret != 0)
		goto err_rq_destroy;
	mlx5v_rxq_post(rxq);
	rxq->ready = 1;
	return 0;

err_rq_destroy:
	mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_RQ, rxq->rqn);
	rxq->rqn = 0;
err_cq_destroy:
	mlx5v_devx_cq_destroy(rxq->cq);
	rxq->cq = NULL;
err_elts_free:
	mlx5v_rxq_drain(rxq);
	rte_free(rxq->elts);
	rxq->elts = NULL;
	return ret;
}

/*
 * Rx queue idx of a started port to RDY (start: the ring filled first) or to RST (stop: the
 * CQEs written before taken, the ring emptied); its ethdev state follows. @return 0/-errno.
 */
static int
mlx5v_rxq_switch(struct rte_eth_dev *eth_dev, uint16_t idx, int start)
{
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct mlx5v_rxq *rxq = eth_dev->data->rx_queues[idx];
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	int ret, strip;

	if (dev == NULL)
		return -ENODEV;
	if (rxq == NULL || rxq->rqn == 0)
		return -EINVAL;
	if (start) {
		/*
		 * The RQ restarts at WQE 0 from RST (prm/mlx5_eth §5.2): every WQE holds a buffer;
		 * the record says 0 while the RQ moves to RDY and all of them once it is there
		 * (mlx5v_rxq_post(): the barrier, then the record), as DPDK's mlx5 starts a
		 * queue.
		 */
		ret = mlx5v_rxq_fill(rxq);
		if (ret == 0) {
			*rxq->dbrec = 0;
			ret = mlx5v_ethdev_cmd_q_ready(dev, 0, rxq->rqn, 1);
		}
		if (ret == 0)
			mlx5v_rxq_post(rxq);
		/* VLAN stripping as the queue's offloads say now: they may have changed in RST. */
		if (ret == 0 && priv->caps.vlan_cap) {
			strip = !!(rxq->offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP);
			ret = mlx5v_ethdev_cmd_rq_vsd(dev, rxq->rqn, strip);
			if (ret != 0)
				mlx5v_ethdev_cmd_rq_reset(dev, rxq->rqn);
		}
	} else {
		/* The bursts take nothing from here on; the application is in none of them. */
		rxq->ready = 0;
		ret = mlx5v_ethdev_cmd_rq_reset(dev, rxq->rqn);
	}
	if (ret != 0) {
		MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: %s failed: %s", eth_dev->data->port_id,
			      idx, start ? "start" : "stop", strerror(-ret));
		if (start)
			mlx5v_rxq_drain(rxq);
		rxq->ready = !start;
		return ret;
	}
	if (!start) {
		mlx5v_rxq_flush(rxq);
		mlx5v_rxq_drain(rxq);
	}
	rxq->ready = start;
	eth_dev->data->rx_queue_state[idx] = start ? RTE_ETH_QUEUE_STATE_STARTED :
						     RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

int
mlx5v_rxq_start(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx5v_rxq_switch(eth_dev, idx, 1);
}

int
mlx5v_rxq_stop(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx5v_rxq_switch(eth_dev, idx, 0);
}

void
mlx5v_rxq_destroy(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	rxq->ready = 0;
	if (dev != NULL && rxq->rqn != 0) {
		/* RDY or ERR (an unrecovered error) to RST; teardown goes on regardless. */
		mlx5v_ethdev_cmd_rq_reset(dev, rxq->rqn);
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_RQ, rxq->rqn);
	}
	rxq->rqn = 0;
	if (dev != NULL && rxq->cq != NULL)
		mlx5v_devx_cq_destroy(rxq->cq);
	rxq->cq = NULL;
	/* The device no longer writes the buffers: they go back to the pool. */
	mlx5v_rxq_drain(rxq);
	rte_free(rxq->elts);
	rxq->elts = NULL;
}

int
mlx5v_rxq_vlan_strip_set(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq, int on)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	int ret;

	/*
	 * The burst takes the stripping from each CQE: the RQ may change under it. An RQ in RST
	 * (the queue stopped or deferred) takes it at the queue's start.
	 */
	if (rxq->rqn != 0 && rxq->ready) {
		ret = dev != NULL ? mlx5v_ethdev_cmd_rq_vsd(dev, rxq->rqn, on) : -ENODEV;
		if (ret != 0) {
			MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: VLAN stripping %s failed: %s",
				      eth_dev->data->port_id, rxq->idx, on ? "on" : "off",
				      strerror(-ret));
			return ret;
		}
	}
	if (on)
		rxq->offloads |= RTE_ETH_RX_OFFLOAD_VLAN_STRIP;
	else
		rxq->offloads &= ~RTE_ETH_RX_OFFLOAD_VLAN_STRIP;
	return 0;
}

void
mlx5v_rxq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx, struct rte_eth_rxq_info *qinfo)
{
	const struct mlx5v_rxq *rxq = eth_dev->data->rx_queues[idx];

	if (rxq == NULL)
		return;
	qinfo->mp = rxq->mp;
	qinfo->nb_desc = rxq->nb_desc;
	qinfo->scattered_rx = rxq->sges_log != 0;
	qinfo->conf.rx_free_thresh = 0;
	qinfo->conf.offloads = rxq->offloads;
}
