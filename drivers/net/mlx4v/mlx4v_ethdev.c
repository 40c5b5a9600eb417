/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The mlx4v Ethernet PMD: the "net" class driver of the mlx4v core. One ethdev per
 * port of the device; every object is made through the public rte_pmd_mlx4v_* API.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx4v_class.h"
#include "mlx4v_ethdev.h"
#include "mlxv_mp_bursts.h"
#include "mlx4v_verbs.h"

RTE_LOG_REGISTER_DEFAULT(mlx4v_ethdev_logtype, NOTICE);

/* Register mp for the device: its MR and its VA ranges (one lkey each) in e. Lock held. */
static int
mr_register(struct mlx4v_ethdev_priv *priv, struct rte_mempool *mp, struct mlx4v_ethdev_mr *e)
{
	unsigned int n = 0;
	int ret;

	e->mr = rte_pmd_mlx4v_reg_mempool(priv->pd, mp);
	if (e->mr == NULL)
		return -rte_errno;
	ret = rte_pmd_mlx4v_mr_ranges(e->mr, NULL, 0, &n);
	if (ret == 0 && n == 0)
		ret = EINVAL;
	if (ret == 0) {
		e->ranges = rte_malloc("mlx4v_mr_ranges", n * sizeof(*e->ranges), 0);
		ret = e->ranges == NULL ? ENOMEM :
		      rte_pmd_mlx4v_mr_ranges(e->mr, e->ranges, n, &n);
	}
	if (ret != 0) {
		rte_free(e->ranges);
		rte_pmd_mlx4v_dereg_mr(e->mr);
		memset(e, 0, sizeof(*e));
		return -ret;
	}
	e->mp = mp;
	e->n_ranges = n;
	e->lkey = e->ranges[0].lkey;
	return 0;
}

int
mlx4v_ethdev_mr_lookup(struct rte_eth_dev *eth_dev, struct rte_mempool *mp, uint32_t *lkey,
		       const struct rte_pmd_mlx4v_mr_range **ranges, uint32_t *n_ranges)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct mlx4v_ethdev_mr *e = NULL;
	unsigned int i;
	int ret = 0;

	rte_spinlock_lock(&priv->mr_lock);
	for (i = 0; i < priv->n_mr; i++)
		if (priv->mrs[i].mp == mp) {
			e = &priv->mrs[i];
			break;
		}
	if (e == NULL && rte_eal_process_type() != RTE_PROC_PRIMARY) {
		/* The PD is the primary's: it registers the pool, then the entry is shared. */
		rte_spinlock_unlock(&priv->mr_lock);
		ret = mlx4v_mp_mr_reg(eth_dev, mp);
		rte_spinlock_lock(&priv->mr_lock);
		for (i = 0; ret == 0 && i < priv->n_mr; i++)
			if (priv->mrs[i].mp == mp) {
				e = &priv->mrs[i];
				break;
			}
		if (e == NULL) {
			ret = ret != 0 ? ret : -ENOENT;
			goto out;
		}
	}
	if (e == NULL) {
		if (priv->n_mr == MLX4V_ETH_MAX_MR || priv->pd == NULL) {
			ret = -ENOSPC;
			goto out;
		}
		ret = mr_register(priv, mp, &priv->mrs[priv->n_mr]);
		if (ret != 0)
			goto out;
		e = &priv->mrs[priv->n_mr++];
	}
	/* A caller that takes one lkey for the whole pool cannot use a pool of several. */
	if (e->n_ranges > 1 && ranges == NULL) {
		ret = -ENOTUNIQ;
		goto out;
	}
	*lkey = e->lkey;
	if (ranges != NULL) {
		*ranges = e->ranges;
		*n_ranges = e->n_ranges;
	}
out:
	rte_spinlock_unlock(&priv->mr_lock);
	if (ret != 0)
		MLX4V_ETH_LOG(ERR, "%s port %u: mempool %s has no memory region: %s", priv->name,
			      priv->port, mp->name, strerror(-ret));
	return ret;
}

void
mlx4v_ethdev_mr_release_all(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	unsigned int i;

	rte_spinlock_lock(&priv->mr_lock);
	for (i = 0; i < priv->n_mr; i++) {
		rte_pmd_mlx4v_dereg_mr(priv->mrs[i].mr);
		rte_free(priv->mrs[i].ranges);
	}
	memset(priv->mrs, 0, sizeof(priv->mrs));
	priv->n_mr = 0;
	rte_spinlock_unlock(&priv->mr_lock);
}

/* Control thread: the port's state and speed from the device (not from an event callback). */
static void
mlx4v_ethdev_port_read(struct mlx4v_ethdev_priv *priv)
{
	struct rte_pmd_mlx4v_port_attr pa;

	if (priv->dead || rte_pmd_mlx4v_query_port(priv->dev, priv->port, &pa) != 0)
		return;
	priv->link_up = pa.state == RTE_PMD_MLX4V_PORT_ACTIVE;
	if (pa.speed_mbps != 0)
		priv->link_speed = pa.speed_mbps;
}

int
mlx4v_ethdev_link_publish(struct rte_eth_dev *eth_dev, int wait_to_complete)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_eth_link link;

	RTE_SET_USED(wait_to_complete);
	link = (struct rte_eth_link){
		.link_speed = priv->link_up ? priv->link_speed : RTE_ETH_SPEED_NUM_NONE,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_AUTONEG,
		.link_status = priv->link_up && !priv->dead,
	};
	return rte_eth_linkstatus_set(eth_dev, &link);
}

/* ethdev link_update (control thread): ask the device first. */
static int
mlx4v_ethdev_link_update(struct rte_eth_dev *eth_dev, int wait_to_complete)
{
	mlx4v_ethdev_port_read(mlx4v_priv(eth_dev));
	return mlx4v_ethdev_link_publish(eth_dev, wait_to_complete);
}

int
mlx4v_ethdev_name(char *buf, size_t len, const char *name, unsigned int port)
{
	return snprintf(buf, len, "%s port %u", name, port);
}

/* ---------------------------------------------------------------- configuration */

static int
mlx4v_ethdev_infos_get(struct rte_eth_dev *eth_dev, struct rte_eth_dev_info *info)
{
	const struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	/* Ring sizes are powers of two that one queue of the device holds. */
	uint16_t ring_max = rte_align32prevpow2(RTE_MIN(priv->caps.max_qp_wr,
							(uint32_t)UINT16_MAX));

	info->max_rx_queues = MLX4V_ETH_MAX_QUEUES;
	info->max_tx_queues = MLX4V_ETH_MAX_QUEUES;
	info->min_rx_bufsize = RTE_ETHER_MIN_LEN;
	info->max_rx_pktlen = priv->caps.max_mtu + MLX4V_ETH_MTU_OVERHEAD;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = priv->caps.max_mtu;
	info->max_mac_addrs = MLX4V_ETH_MAX_MAC;
	info->rx_offload_capa = mlx4v_rx_offload_capa() | RTE_ETH_RX_OFFLOAD_SCATTER;
	info->rx_queue_offload_capa = info->rx_offload_capa;
	info->tx_offload_capa = mlx4v_tx_offload_capa();
	info->tx_queue_offload_capa = info->tx_offload_capa;
	info->flow_type_rss_offloads = MLX4V_ETH_RSS_HF;
	info->hash_key_size = MLX4V_ETH_RSS_KEY_LEN;
	info->reta_size = MLX4V_ETH_RETA_SIZE;
	info->rx_desc_lim = (struct rte_eth_desc_lim){
		.nb_max = ring_max, .nb_min = MLX4V_ETH_RING_MIN, .nb_align = MLX4V_ETH_RING_MIN,
	};
	info->tx_desc_lim = (struct rte_eth_desc_lim){
		.nb_max = ring_max, .nb_min = MLX4V_ETH_RING_MIN, .nb_align = MLX4V_ETH_RING_MIN,
		.nb_seg_max = MLX4V_ETH_TX_MAX_SEGS, .nb_mtu_seg_max = MLX4V_ETH_TX_MAX_SEGS,
	};
	info->default_rxportconf = (struct rte_eth_dev_portconf){
		.burst_size = 32, .ring_size = 512, .nb_queues = 1,
	};
	info->default_txportconf = info->default_rxportconf;
	info->speed_capa = RTE_ETH_LINK_SPEED_1G | RTE_ETH_LINK_SPEED_10G |
			   RTE_ETH_LINK_SPEED_40G | RTE_ETH_LINK_SPEED_56G;
	return 0;
}

static int
mlx4v_ethdev_fw_version_get(struct rte_eth_dev *eth_dev, char *fw, size_t size)
{
	const struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	int n;

	if (priv->caps.fw_ver[0] == '\0')
		return -ENOTSUP;
	n = snprintf(fw, size, "%s", priv->caps.fw_ver);
	/* ethdev's contract: the size needed (with the NUL) when it does not fit. */
	return (size_t)n < size ? 0 : n + 1;
}

/* The default redirection: entry i to queue i modulo the largest power of two of queues. */
static void
mlx4v_ethdev_reta_default(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint16_t n = rte_align32prevpow2(RTE_MAX(eth_dev->data->nb_rx_queues, 1));
	unsigned int i;

	for (i = 0; i < MLX4V_ETH_RETA_SIZE; i++)
		priv->reta[i] = i % n;
	priv->reta_set = 0;
}

static int
mlx4v_ethdev_configure(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	const struct rte_eth_conf *conf = &eth_dev->data->dev_conf;
	const struct rte_eth_rss_conf *rss = &conf->rx_adv_conf.rss_conf;
	uint16_t nrx = eth_dev->data->nb_rx_queues, ntx = eth_dev->data->nb_tx_queues;

	if (priv->dead)
		return -EIO;
	if (nrx < 1 || nrx > MLX4V_ETH_MAX_QUEUES || ntx < 1 || ntx > MLX4V_ETH_MAX_QUEUES) {
		MLX4V_ETH_LOG(ERR, "port %u: %u Rx and %u Tx queues asked, 1 to %u each supported",
			      priv->port_id, nrx, ntx, MLX4V_ETH_MAX_QUEUES);
		return -EINVAL;
	}
	if (conf->rxmode.mq_mode != RTE_ETH_MQ_RX_NONE &&
	    conf->rxmode.mq_mode != RTE_ETH_MQ_RX_RSS) {
		MLX4V_ETH_LOG(ERR, "port %u: Rx multi-queue mode %d not supported (none or RSS)",
			      priv->port_id, conf->rxmode.mq_mode);
		return -EINVAL;
	}
	if (conf->txmode.mq_mode != RTE_ETH_MQ_TX_NONE) {
		MLX4V_ETH_LOG(ERR, "port %u: Tx multi-queue mode %d not supported",
			      priv->port_id, conf->txmode.mq_mode);
		return -EINVAL;
	}
	if (rss->rss_key != NULL && rss->rss_key_len != MLX4V_ETH_RSS_KEY_LEN) {
		MLX4V_ETH_LOG(ERR, "port %u: RSS key of %u bytes, the device takes %u",
			      priv->port_id, rss->rss_key_len, MLX4V_ETH_RSS_KEY_LEN);
		return -EINVAL;
	}
	if (conf->intr_conf.rxq && eth_dev->intr_handle == NULL) {
		MLX4V_ETH_LOG(ERR, "port %u: Rx interrupts are not available", priv->port_id);
		return -ENOTSUP;
	}
	if (rss->rss_key != NULL)
		memcpy(priv->rss_key, rss->rss_key, MLX4V_ETH_RSS_KEY_LEN);
	/* No types given: the default ones (addresses and TCP/UDP ports), as DPDK's mlx4. */
	if (conf->rxmode.mq_mode == RTE_ETH_MQ_RX_RSS)
		priv->rss_hf = rss->rss_hf != 0 ? rss->rss_hf & MLX4V_ETH_RSS_HF :
			       MLX4V_ETH_RSS_HF_DEFAULT;
	if (eth_dev->data->dev_conf.rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG)
		eth_dev->data->dev_conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_RSS_HASH &
							  mlx4v_rx_offload_capa();
	mlx4v_ethdev_reta_default(eth_dev);
	return 0;
}

/* ---------------------------------------------------------------- start / stop */

static void
mlx4v_ethdev_queues_destroy(struct rte_eth_dev *eth_dev)
{
	uint16_t i;

	for (i = 0; i < eth_dev->data->nb_rx_queues; i++)
		if (eth_dev->data->rx_queues[i] != NULL)
			mlx4v_rxq_destroy(eth_dev, eth_dev->data->rx_queues[i]);
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++)
		if (eth_dev->data->tx_queues[i] != NULL)
			mlx4v_txq_destroy(eth_dev, eth_dev->data->tx_queues[i]);
}

/*
 * The port's MTU, which the kernel netdev owns on a ConnectX-3: the port drops longer frames
 * (mlx4_en programs its largest frame from the netdev MTU; DPDK's mlx4 sets it with SIOCSIFMTU).
 * A backend without a kernel interface has nothing to set. @return 0 or -errno.
 */
static int
mlx4v_ethdev_port_mtu(struct rte_eth_dev *eth_dev, uint16_t mtu)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	int ret;

	ret = -rte_pmd_mlx4v_port_mtu_set(priv->dev, priv->port, mtu);
	if (ret == -ENOTSUP)
		return 0;
	if (ret != 0)
		MLX4V_ETH_LOG(ERR, "port %u: MTU %u on the port's kernel interface: %s",
			      priv->port_id, mtu, strerror(-ret));
	return ret;
}

static int
mlx4v_ethdev_start(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint16_t i;
	int ret;

	if (priv->dead)
		return -EIO;
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++)
		if (eth_dev->data->rx_queues[i] == NULL) {
			MLX4V_ETH_LOG(ERR, "port %u: Rx queue %u is not set up", priv->port_id, i);
			return -EINVAL;
		}
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++)
		if (eth_dev->data->tx_queues[i] == NULL) {
			MLX4V_ETH_LOG(ERR, "port %u: Tx queue %u is not set up", priv->port_id, i);
			return -EINVAL;
		}
	/* The MTU of configure (or of mtu_set while stopped) is the port's before any frame. */
	ret = mlx4v_ethdev_port_mtu(eth_dev, eth_dev->data->mtu);
	if (ret != 0)
		return ret;
	/*
	 * WQs in queue order, from a fresh range as big as the queues (no WQ exists while
	 * stopped): the indirection table needs consecutive WQ numbers aligned to its size,
	 * and a range is never handed out twice (doc/guides/nics/mlx4v.rst).
	 */
	if (rte_pmd_mlx4v_set_wqs_range(priv->dev,
			rte_log2_u32(rte_align32pow2(eth_dev->data->nb_rx_queues))) != 0) {
		ret = -rte_errno;
		MLX4V_ETH_LOG(ERR, "port %u: WQ number range: %s", priv->port_id,
			      strerror(rte_errno));
		return ret;
	}
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++) {
		ret = mlx4v_rxq_create(eth_dev, eth_dev->data->rx_queues[i]);
		if (ret != 0)
			goto err_queues;
	}
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++) {
		ret = mlx4v_txq_create(eth_dev, eth_dev->data->tx_queues[i]);
		if (ret != 0)
			goto err_queues;
	}
	ret = mlx4v_intr_rx_create(eth_dev);
	if (ret != 0)
		goto err_queues;
	ret = mlx4v_ethflow_create(eth_dev);
	if (ret != 0)
		goto err_intr;
	ret = mlx4v_flow_start(eth_dev);
	if (ret != 0)
		goto err_ethflow;
	priv->started = 1;
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++)
		eth_dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++)
		eth_dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	rte_wmb();	/* queues complete before a data-path lcore can reach them */
	eth_dev->rx_pkt_burst = mlx4v_rx_burst;
	eth_dev->tx_pkt_burst = mlx4v_tx_burst;
	eth_dev->rx_queue_count = mlx4v_rx_queue_count;
	mlx4v_ethdev_link_update(eth_dev, 0);
	/* The secondaries' bursts, on the queues as they are now. */
	mlx4v_mp_start_rxtx(eth_dev);
	return 0;

err_ethflow:
	mlx4v_ethflow_destroy(eth_dev);
err_intr:
	mlx4v_intr_rx_destroy(eth_dev);
err_queues:
	mlx4v_ethdev_queues_destroy(eth_dev);
	return ret;
}

int
mlx4v_ethdev_stop(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint16_t i;

	eth_dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->rx_queue_count = NULL;
	/* Those of the secondaries too (ethdev swapped this process's already). */
	mlx4v_mp_stop_rxtx(eth_dev);
	/* Let data-path lcores leave the bursts before the queues go. */
	rte_mb();
	rte_delay_us_sleep(1000 * eth_dev->data->nb_rx_queues);
	mlx4v_flow_stop(eth_dev);
	mlx4v_ethflow_destroy(eth_dev);
	mlx4v_intr_rx_destroy(eth_dev);
	mlx4v_ethdev_queues_destroy(eth_dev);
	priv->started = 0;
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++)
		eth_dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++)
		eth_dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

void
mlx4v_ethdev_queues_release(struct rte_eth_dev *eth_dev)
{
	uint16_t i;

	for (i = 0; i < eth_dev->data->nb_rx_queues; i++)
		mlx4v_rxq_release(eth_dev, i);
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++)
		mlx4v_txq_release(eth_dev, i);
}

/* Everything the port holds on the device, in reverse order of probe. */
void
mlx4v_ethdev_free(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);

	mlx4v_ethdev_mr_release_all(eth_dev);
	if (priv->pd != NULL && rte_pmd_mlx4v_dealloc_pd(priv->pd) != 0)
		MLX4V_ETH_LOG(WARNING, "%s port %u: PD: %s", priv->name, priv->port,
			      strerror(rte_errno));
	priv->pd = NULL;
	if (priv->dev != NULL && rte_pmd_mlx4v_dev_close(priv->dev) != 0)
		MLX4V_ETH_LOG(WARNING, "%s port %u: handle: %s", priv->name, priv->port,
			      strerror(rte_errno));
	priv->dev = NULL;
}

static int
mlx4v_ethdev_close(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	if (priv->started)
		mlx4v_ethdev_stop(eth_dev);
	mlx4v_flow_release(eth_dev);
	mlx4v_ethdev_queues_release(eth_dev);
	mlx4v_recovery_port_close(eth_dev);
	mlx4v_intr_uninstall(eth_dev);
	mlx4v_mp_primary_put();
	mlx4v_ethdev_free(eth_dev);
	free(eth_dev->process_private);
	eth_dev->process_private = NULL;
	MLX4V_ETH_LOG(INFO, "%s port %u: closed", priv->name, priv->port);
	return 0;
}

/*
 * ethdev has stopped the port: back to the state of probe (no queues, no memory regions,
 * the permanent MAC, filters off); the application configures it again.
 */
static int
mlx4v_ethdev_reset(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_pmd_mlx4v_port_attr pa;
	int ret;

	/* A dead port comes back only on a recovered device (recovery=reset). */
	ret = mlx4v_recovery_port_reset(eth_dev);
	if (ret != 0)
		return ret;
	if (priv->started)
		mlx4v_ethdev_stop(eth_dev);
	mlx4v_flow_release(eth_dev);
	priv->isolated = 0;
	mlx4v_ethdev_queues_release(eth_dev);
	mlx4v_ethdev_mr_release_all(eth_dev);
	memset(eth_dev->data->mac_addrs, 0, sizeof(struct rte_ether_addr) * MLX4V_ETH_MAX_MAC);
	if (rte_pmd_mlx4v_query_port(priv->dev, priv->port, &pa) == 0 && pa.has_mac)
		memcpy(eth_dev->data->mac_addrs[0].addr_bytes, pa.mac, RTE_ETHER_ADDR_LEN);
	priv->promisc = 0;
	priv->allmulti = 0;
	priv->nb_mc = 0;
	eth_dev->data->promiscuous = 0;
	eth_dev->data->all_multicast = 0;
	return 0;
}

/* ---------------------------------------------------------------- filters, MTU */

static int
mlx4v_ethdev_filter_set(struct rte_eth_dev *eth_dev, int *what, int on)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	int old = *what, ret;

	if (priv->dead)
		return -EIO;
	*what = on;
	ret = mlx4v_ethflow_sync(eth_dev);
	if (ret != 0)
		*what = old;
	return ret;
}

static int
mlx4v_ethdev_promiscuous_enable(struct rte_eth_dev *eth_dev)
{
	return mlx4v_ethdev_filter_set(eth_dev, &mlx4v_priv(eth_dev)->promisc, 1);
}

static int
mlx4v_ethdev_promiscuous_disable(struct rte_eth_dev *eth_dev)
{
	return mlx4v_ethdev_filter_set(eth_dev, &mlx4v_priv(eth_dev)->promisc, 0);
}

static int
mlx4v_ethdev_allmulticast_enable(struct rte_eth_dev *eth_dev)
{
	return mlx4v_ethdev_filter_set(eth_dev, &mlx4v_priv(eth_dev)->allmulti, 1);
}

static int
mlx4v_ethdev_allmulticast_disable(struct rte_eth_dev *eth_dev)
{
	return mlx4v_ethdev_filter_set(eth_dev, &mlx4v_priv(eth_dev)->allmulti, 0);
}

static int
mlx4v_ethdev_mac_check(struct rte_eth_dev *eth_dev, const struct rte_ether_addr *mac)
{
	if (mlx4v_priv(eth_dev)->dead)
		return -EIO;
	if (!rte_is_valid_assigned_ether_addr(mac)) {
		MLX4V_ETH_LOG(ERR, "port %u: " RTE_ETHER_ADDR_PRT_FMT " is not a unicast address",
			      eth_dev->data->port_id, RTE_ETHER_ADDR_BYTES(mac));
		return -EINVAL;
	}
	return 0;
}

static int
mlx4v_ethdev_mac_addr_set(struct rte_eth_dev *eth_dev, struct rte_ether_addr *mac)
{
	int ret = mlx4v_ethdev_mac_check(eth_dev, mac);

	return ret != 0 ? ret : mlx4v_ethflow_mac_set(eth_dev, 0, mac);
}

static int
mlx4v_ethdev_mac_addr_add(struct rte_eth_dev *eth_dev, struct rte_ether_addr *mac,
			  uint32_t index, uint32_t vmdq)
{
	int ret = mlx4v_ethdev_mac_check(eth_dev, mac);

	RTE_SET_USED(vmdq);
	if (ret == 0 && index >= MLX4V_ETH_MAX_MAC)
		ret = -EINVAL;
	return ret != 0 ? ret : mlx4v_ethflow_mac_set(eth_dev, index, mac);
}

static void
mlx4v_ethdev_mac_addr_remove(struct rte_eth_dev *eth_dev, uint32_t index)
{
	if (index < MLX4V_ETH_MAX_MAC)
		mlx4v_ethflow_mac_set(eth_dev, index, NULL);
}

static int
mlx4v_ethdev_set_mc_addr_list(struct rte_eth_dev *eth_dev, struct rte_ether_addr *list,
			      uint32_t n)
{
	if (mlx4v_priv(eth_dev)->dead)
		return -EIO;
	return mlx4v_ethflow_mc_set(eth_dev, list, n);
}

/*
 * A stopped port takes any MTU in range: its Rx queues may still be set up again with larger
 * mbufs, and start checks each against the MTU (mlx4v_rxq_create()), as net_mlx5v does. A
 * started port's rings keep their SGEs per WQE, so each must already hold the larger frame:
 * else -EBUSY, whether the queue lacks the scatter offload or needs more SGEs
 * (doc/guides/nics/mlx4v.rst).
 */
static int
mlx4v_ethdev_mtu_set(struct rte_eth_dev *eth_dev, uint16_t mtu)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint32_t frame = (uint32_t)mtu + MLX4V_ETH_MTU_OVERHEAD;
	const struct mlx4v_rxq *rxq;
	uint16_t i;

	if (priv->dead)
		return -EIO;
	if (mtu < RTE_ETHER_MIN_MTU || mtu > priv->caps.max_mtu) {
		MLX4V_ETH_LOG(ERR, "port %u: MTU %u outside %u..%u", priv->port_id, mtu,
			      RTE_ETHER_MIN_MTU, priv->caps.max_mtu);
		return -EINVAL;
	}
	for (i = 0; priv->started && i < eth_dev->data->nb_rx_queues; i++) {
		rxq = eth_dev->data->rx_queues[i];
		if (rxq == NULL || frame <= ((uint32_t)rxq->seg_size << rxq->sges_log))
			continue;
		MLX4V_ETH_LOG(ERR, "port %u: MTU %u needs frames of %u bytes, Rx queue %u holds %u "
			      "(%s): stop the port first", priv->port_id, mtu, frame, i,
			      (uint32_t)rxq->seg_size << rxq->sges_log,
			      (rxq->offloads & RTE_ETH_RX_OFFLOAD_SCATTER) ?
			      "more SGEs per WQE needed" : "no scatter offload");
		return -EBUSY;
	}
	return mlx4v_ethdev_port_mtu(eth_dev, mtu);
}

/* ---------------------------------------------------------------- ops */

static int
mlx4v_ethdev_set_link_up(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	int ret;

	if (priv->dead)
		return -EIO;
	ret = -rte_pmd_mlx4v_port_admin_set(priv->dev, priv->port, 1);
	if (ret == 0)
		mlx4v_ethdev_link_update(eth_dev, 0);
	return ret;
}

static int
mlx4v_ethdev_set_link_down(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	int ret;

	if (priv->dead)
		return -EIO;
	ret = -rte_pmd_mlx4v_port_admin_set(priv->dev, priv->port, 0);
	if (ret == 0)
		mlx4v_ethdev_link_update(eth_dev, 0);
	return ret;
}

static const uint32_t *
mlx4v_ethdev_ptypes_get(struct rte_eth_dev *eth_dev)
{
	return mlx4v_rx_ptypes_get(eth_dev);
}

/*
 * The entries a secondary process shares with the primary: reads of the port's shared data
 * (infos, queue and RSS state, statistics) and the statistics reset.
 */
#define MLX4V_ETHDEV_OPS_SHARED \
	.dev_infos_get = mlx4v_ethdev_infos_get, \
	.fw_version_get = mlx4v_ethdev_fw_version_get, \
	.rxq_info_get = mlx4v_rxq_info_get, \
	.txq_info_get = mlx4v_txq_info_get, \
	.rx_burst_mode_get = mlx4v_rx_burst_mode_get, \
	.tx_burst_mode_get = mlx4v_tx_burst_mode_get, \
	.dev_supported_ptypes_get = mlx4v_ethdev_ptypes_get, \
	.stats_get = mlx4v_stats_get, \
	.stats_reset = mlx4v_stats_reset, \
	.xstats_get = mlx4v_xstats_get, \
	.xstats_get_names = mlx4v_xstats_get_names, \
	.xstats_reset = mlx4v_stats_reset, \
	.rss_hash_conf_get = mlx4v_ethflow_rss_hash_conf_get, \
	.reta_query = mlx4v_ethflow_reta_query

static const struct eth_dev_ops mlx4v_ethdev_ops = {
	MLX4V_ETHDEV_OPS_SHARED,
	.dev_configure = mlx4v_ethdev_configure,
	.dev_start = mlx4v_ethdev_start,
	.dev_stop = mlx4v_ethdev_stop,
	.dev_close = mlx4v_ethdev_close,
	.dev_reset = mlx4v_ethdev_reset,
	.dev_set_link_up = mlx4v_ethdev_set_link_up,
	.dev_set_link_down = mlx4v_ethdev_set_link_down,
	.link_update = mlx4v_ethdev_link_update,
	.promiscuous_enable = mlx4v_ethdev_promiscuous_enable,
	.promiscuous_disable = mlx4v_ethdev_promiscuous_disable,
	.allmulticast_enable = mlx4v_ethdev_allmulticast_enable,
	.allmulticast_disable = mlx4v_ethdev_allmulticast_disable,
	.mac_addr_set = mlx4v_ethdev_mac_addr_set,
	.mac_addr_add = mlx4v_ethdev_mac_addr_add,
	.mac_addr_remove = mlx4v_ethdev_mac_addr_remove,
	.set_mc_addr_list = mlx4v_ethdev_set_mc_addr_list,
	.mtu_set = mlx4v_ethdev_mtu_set,
	.rx_queue_setup = mlx4v_rxq_setup,
	.rx_queue_release = mlx4v_rxq_release,
	.tx_queue_setup = mlx4v_txq_setup,
	.tx_queue_release = mlx4v_txq_release,
	.tx_done_cleanup = mlx4v_tx_done_cleanup,
	.rx_queue_intr_enable = mlx4v_intr_rx_enable,
	.rx_queue_intr_disable = mlx4v_intr_rx_disable,
	.rss_hash_update = mlx4v_ethflow_rss_hash_update,
	.reta_update = mlx4v_ethflow_reta_update,
	.flow_ops_get = mlx4v_flow_ops_get,
};

/*
 * What a secondary process may do besides the bursts: read (infos, link, statistics, queue
 * and RSS state); reset statistics. Each entry reads only the port's shared data, never the
 * primary's handle or object pointers. Control stays with the primary.
 */
const struct eth_dev_ops mlx4v_ethdev_secondary_ops = {
	MLX4V_ETHDEV_OPS_SHARED,
	.link_update = mlxv_mp_link_update,
	.rx_queue_intr_enable = mlx4v_mp_rx_intr_enable,
	.rx_queue_intr_disable = mlx4v_mp_rx_intr_disable,
};

/* ---------------------------------------------------------------- net class */

static const uint8_t mlx4v_ethdev_rss_key[MLX4V_ETH_RSS_KEY_LEN] = RTE_PMD_MLX4V_RSS_KEY_DEFAULT;

/* The handle, PD, port attributes and MAC of a new port. @return 0 or -errno. */
static int
mlx4v_ethdev_port_init(struct rte_eth_dev *eth_dev, const struct rte_pmd_mlx4v_dev_attr *da)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_ether_addr *mac = &eth_dev->data->mac_addrs[0];
	struct rte_pmd_mlx4v_port_attr pa;

	priv->caps.max_qp_wr = da->max_qp_wr;
	priv->caps.max_sge = da->max_sge;
	priv->caps.max_cqe = da->max_cqe;
	priv->caps.nports = da->phys_port_cnt;
	priv->caps.max_mtu = MLX4V_ETH_MAX_MTU;
	snprintf(priv->caps.fw_ver, sizeof(priv->caps.fw_ver), "%s", da->fw_ver);
	priv->caps.vf = da->vf;
	TAILQ_INIT(&priv->flows);
	/* The device's life the port's objects belong to (mlx4v_recovery.c). */
	if (mlx4v_dev_state(priv->name, &priv->life) < 0)
		return -ENODEV;
	/* A handle per port: its objects and its WQ number range are the port's alone. */
	priv->dev = rte_pmd_mlx4v_dev_open(priv->name);
	if (priv->dev == NULL)
		return -rte_errno;
	priv->pd = rte_pmd_mlx4v_alloc_pd(priv->dev);
	if (priv->pd == NULL)
		return -rte_errno;
	if (rte_pmd_mlx4v_query_port(priv->dev, priv->port, &pa) != 0)
		return -rte_errno;
	priv->link_up = pa.state == RTE_PMD_MLX4V_PORT_ACTIVE;
	priv->link_speed = pa.speed_mbps != 0 ? pa.speed_mbps : RTE_ETH_SPEED_NUM_NONE;
	if (pa.has_mac) {
		memcpy(mac->addr_bytes, pa.mac, RTE_ETHER_ADDR_LEN);
	} else {
		rte_eth_random_addr(mac->addr_bytes);
		MLX4V_ETH_LOG(WARNING, "%s port %u: the backend gives no MAC, using "
			      RTE_ETHER_ADDR_PRT_FMT, priv->name, priv->port,
			      RTE_ETHER_ADDR_BYTES(mac));
	}
	return 0;
}

static int
mlx4v_ethdev_port_probe(struct rte_device *edev, const char *name,
			const struct rte_pmd_mlx4v_dev_attr *da, unsigned int port)
{
	char ethname[RTE_ETH_NAME_MAX_LEN];
	struct mlx4v_ethdev_priv *priv;
	struct rte_eth_dev *eth_dev;
	int socket = edev->numa_node;
	int ret;

	mlx4v_ethdev_name(ethname, sizeof(ethname), name, port);
	eth_dev = rte_eth_dev_allocate(ethname);
	if (eth_dev == NULL) {
		MLX4V_ETH_LOG(ERR, "%s: no ethdev port left", ethname);
		return -ENOMEM;
	}
	eth_dev->data->dev_private = rte_zmalloc_socket(ethname, sizeof(*priv),
							RTE_CACHE_LINE_SIZE, socket);
	eth_dev->data->mac_addrs = rte_zmalloc_socket(ethname, sizeof(struct rte_ether_addr) *
						      MLX4V_ETH_MAX_MAC, 0, socket);
	if (eth_dev->data->dev_private == NULL || eth_dev->data->mac_addrs == NULL) {
		ret = -ENOMEM;
		goto err_release;
	}
	priv = eth_dev->data->dev_private;
	snprintf(priv->name, sizeof(priv->name), "%s", name);
	priv->port = port;
	priv->port_id = eth_dev->data->port_id;
	rte_spinlock_init(&priv->mr_lock);
	memcpy(priv->rss_key, mlx4v_ethdev_rss_key, sizeof(priv->rss_key));
	priv->rss_hf = MLX4V_ETH_RSS_HF_DEFAULT;
	ret = mlx4v_ethdev_port_init(eth_dev, da);
	if (ret != 0) {
		MLX4V_ETH_LOG(ERR, "%s: opening the port failed: %s", ethname, strerror(-ret));
		goto err_free;
	}
	/* This process's send doorbells, filled at start. */
	eth_dev->process_private = calloc(1, sizeof(struct mlx4v_ethdev_proc));
	if (eth_dev->process_private == NULL) {
		ret = -ENOMEM;
		goto err_free;
	}
	eth_dev->device = edev;
	eth_dev->dev_ops = &mlx4v_ethdev_ops;
	eth_dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->data->mtu = RTE_ETHER_MTU;
	eth_dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	ret = mlx4v_intr_install(eth_dev);
	if (ret != 0)
		goto err_free;
	ret = mlx4v_mp_primary_get();
	if (ret != 0)
		goto err_intr;
	/*
	 * The kernel netdev up (IFF_UP), as DPDK's mlx4 forces it at probe: mlx4_en opens the
	 * port only then, and a port left down neither sends nor receives, silently.
	 */
	ret = -rte_pmd_mlx4v_port_admin_set(priv->dev, priv->port, 1);
	if (ret != 0 && ret != -ENOTSUP)
		MLX4V_ETH_LOG(WARNING, "%s: the port's kernel interface stays down: %s", ethname,
			      strerror(-ret));
	mlx4v_ethdev_link_publish(eth_dev, 0);
	rte_eth_dev_probing_finish(eth_dev);
	MLX4V_ETH_LOG(INFO, "%s: ethdev port %u, MAC " RTE_ETHER_ADDR_PRT_FMT, ethname,
		      eth_dev->data->port_id, RTE_ETHER_ADDR_BYTES(&eth_dev->data->mac_addrs[0]));
	return 0;

err_intr:
	mlx4v_intr_uninstall(eth_dev);
err_free:
	free(eth_dev->process_private);
	eth_dev->process_private = NULL;
	mlx4v_ethdev_free(eth_dev);
err_release:
	/* rte_eth_dev_release_port() frees dev_private and mac_addrs. */
	rte_eth_dev_release_port(eth_dev);
	return ret;
}

/* The ethdev of a port of device name in this process, or NULL. */
static struct rte_eth_dev *
mlx4v_ethdev_find(const char *name, unsigned int port)
{
	char ethname[RTE_ETH_NAME_MAX_LEN];

	mlx4v_ethdev_name(ethname, sizeof(ethname), name, port);
	return rte_eth_dev_allocated(ethname);
}

static int
mlx4v_ethdev_remove(struct mlxv_class_dev *cd)
{
	const char *name = cd->name;
	struct rte_eth_dev *eth_dev;
	unsigned int port;
	int ret = 0;

	for (port = MLX4V_ETH_MAX_PORTS; port >= 1; port--) {
		eth_dev = mlx4v_ethdev_find(name, port);
		/* The application may have closed the port already (port close, then detach). */
		if (eth_dev == NULL)
			continue;
		if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
			rte_eth_dev_release_port(eth_dev);
			continue;
		}
		if (eth_dev->data->dev_started)
			rte_eth_dev_stop(eth_dev->data->port_id);
		if (rte_eth_dev_close(eth_dev->data->port_id) != 0)
			ret = -EIO;
	}
	return ret;
}

static int
mlx4v_ethdev_probe(struct mlxv_class_dev *cd, struct rte_device *edev, const char *devargs)
{
	const char *name = cd->name;
	struct rte_pmd_mlx4v_dev_attr da;
	struct rte_pmd_mlx4v_dev *dev;
	unsigned int port;
	int ret;

	RTE_SET_USED(devargs);
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx4v_mp_secondary_attach(edev);
	dev = rte_pmd_mlx4v_dev_open(name);
	if (dev == NULL) {
		MLX4V_ETH_LOG(ERR, "%s: cannot open the device: %s", name, strerror(rte_errno));
		return -rte_errno;
	}
	ret = -rte_pmd_mlx4v_query_device(dev, &da);
	rte_pmd_mlx4v_dev_close(dev);
	if (ret != 0)
		return ret;
	if (da.phys_port_cnt < 1 || da.phys_port_cnt > MLX4V_ETH_MAX_PORTS) {
		MLX4V_ETH_LOG(ERR, "%s: %u ports, 1 to %u supported", name, da.phys_port_cnt,
			      MLX4V_ETH_MAX_PORTS);
		return -ENOTSUP;
	}
	for (port = 1; port <= da.phys_port_cnt; port++) {
		ret = mlx4v_ethdev_port_probe(edev, name, &da, port);
		if (ret != 0) {
			mlx4v_ethdev_remove(cd);
			return ret;
		}
	}
	return 0;
}

static void
mlx4v_ethdev_event(struct mlxv_class_dev *cd, const void *arg)
{
	const struct mlx4v_class_event *ev = arg;
	const char *name = cd->name;
	struct rte_eth_dev *eth_dev;
	unsigned int port;

	for (port = 1; port <= MLX4V_ETH_MAX_PORTS; port++) {
		eth_dev = mlx4v_ethdev_find(name, port);
		if (eth_dev == NULL || eth_dev->data->dev_private == NULL)
			continue;
		switch (ev->type) {
		case MLX4V_CLASS_EVENT_PORT:
			if (ev->port != port)
				break;
			/* The event's state: no verbs call from the reporting thread. */
			mlx4v_priv(eth_dev)->link_up = ev->up;
			mlx4v_intr_port_event(eth_dev, ev->up);
			break;
		case MLX4V_CLASS_EVENT_DEAD:
			mlx4v_priv(eth_dev)->dead = 1;
			mlx4v_recovery_port_dead(eth_dev);
			mlx4v_intr_dead_event(eth_dev);
			break;
		case MLX4V_CLASS_EVENT_RECOVERED:
			mlx4v_recovery_port_recovered(eth_dev);
			break;
		case MLX4V_CLASS_EVENT_REMOVE:
			/*
			 * The application removes the device itself: no RMV, which would ask it
			 * to remove the port (doc/guides/nics/mlx4v.rst, "Interrupts").
			 */
			break;
		default:
			break;
		}
	}
}

MLXV_CLASS_DRIVER_REGISTER(mlx4v_ethdev_class,
			   mlx4v_class_driver_register, MLX4V_ETH_LOG,
			   .name = "net",
			   .flags = MLXV_CLASS_F_OWNS_PORT,
			   .probe = mlx4v_ethdev_probe,
			   .remove = mlx4v_ethdev_remove,
			   .event = mlx4v_ethdev_event,
			   .attach = mlx4v_mp_secondary_attach,
			   .detach = mlx4v_mp_secondary_detach);
