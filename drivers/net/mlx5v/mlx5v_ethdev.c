/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The mlx5v Ethernet PMD: the "net" class driver of the mlx5v core. One ethdev per
 * function, named after the EAL device; control operations go through mlx5v_ethdev_cmds.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ethdev_driver.h>
#include <rte_common.h>
#include <rte_cpuflags.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_ether.h>
#include <rte_kvargs.h>
#include <rte_vect.h>

#include "mlx5v_class.h"
#include "mlx5v_devx.h"
#include "mlx5v_ethdev.h"
#include "mlxv_mp_bursts.h"
#include "rte_pmd_mlx5v.h"

RTE_LOG_REGISTER_DEFAULT(mlx5v_ethdev_logtype, NOTICE);

/*
 * The core device of each port, process-local: the mlx5v_dev lives in the memory of the
 * process that probed it and must not be reached through dev_private.
 */
static struct mlx5v_dev *mlx5v_ethdev_cores[RTE_MAX_ETHPORTS];
/* The UAR of each started port, process-local for the same reason. */
static struct rte_pmd_mlx5v_uar *mlx5v_ethdev_uars[RTE_MAX_ETHPORTS];

/* DPDK's default RSS key (the 40-byte Toeplitz key of its testpmd and many PMDs). */
static const uint8_t mlx5v_ethdev_rss_key[MLX5V_ETH_RSS_KEY_LEN] = {
	0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7,
	0xfc, 0xa2, 0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94,
	0x6b, 0x9e, 0x38, 0xd9, 0x2c, 0x9c, 0x03, 0xd1,
	0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56, 0x3d, 0x59,
	0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a,
};

struct rte_pmd_mlx5v_uar *
mlx5v_ethdev_uar(const struct rte_eth_dev *eth_dev)
{
	uint16_t port = eth_dev->data->port_id;

	return port < RTE_MAX_ETHPORTS ? mlx5v_ethdev_uars[port] : NULL;
}

struct mlx5v_dev *
mlx5v_ethdev_core(const struct rte_eth_dev *eth_dev)
{
	uint16_t port = eth_dev->data->port_id;

	return port < RTE_MAX_ETHPORTS ? mlx5v_ethdev_cores[port] : NULL;
}

static struct mlx5v_ethdev_priv *
mlx5v_ethdev_priv_of(const struct rte_eth_dev *eth_dev)
{
	return eth_dev->data->dev_private;
}

/* The core device of a port that may take commands. @return it, or NULL (*ret = -errno). */
static struct mlx5v_dev *
mlx5v_ethdev_core_live(const struct rte_eth_dev *eth_dev, int *ret)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	if (dev == NULL) {
		*ret = -ENODEV;
		return NULL;
	}
	if (mlx5v_ethdev_priv_of(eth_dev)->dead || mlx5v_dev_is_dead(dev)) {
		*ret = -ENOLINK;
		return NULL;
	}
	*ret = 0;
	return dev;
}

/* ---------------------------------------------------------------- rings */

int
mlx5v_ethdev_ring_alloc(struct rte_eth_dev *eth_dev, struct mlx5v_ring *r, const char *what,
			uint16_t idx, uint16_t nb_desc, unsigned int log_stride, int socket)
{
	const struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	char name[RTE_MEMZONE_NAMESIZE];
	int ret;

	memset(r, 0, sizeof(*r));
	if (!rte_is_power_of_2(nb_desc) || nb_desc > MLX5V_ETH_RING_MAX(priv)) {
		MLX5V_ETH_LOG(ERR, "port %u %s queue %u: %u descriptors, a power of two up to %u "
			      "is required", eth_dev->data->port_id, what, idx, nb_desc,
			      MLX5V_ETH_RING_MAX(priv));
		return -EINVAL;
	}
	r->ring_len = RTE_ALIGN_CEIL((size_t)nb_desc << log_stride, MLX5V_ETH_RING_PAGE);
	r->map_len = r->ring_len + MLX5V_ETH_RING_PAGE;
	/*
	 * The device reaches the WQEs through one PAS entry per 4 KiB page and the doorbell
	 * record through its own address, so neither needs to be IOVA-contiguous with anything:
	 * with IOVA as PA, memory across hugepages is not, and a ring larger than a hugepage
	 * (32768 Tx WQEBBs are 2 MiB) could not be reserved as one IOVA-contiguous zone on a
	 * fragmented pool (doc/guides/nics/running_on_hardware.rst, "IOVA modes"). Aligned to
	 * its size up to a 2 MiB hugepage, a ring is one chunk (one DMA window) whenever it
	 * fits in one hugepage, and one chunk per hugepage otherwise.
	 */
	snprintf(name, sizeof(name), "mlx5v_ring_%u_%s%u", eth_dev->data->port_id, what, idx);
	r->mz = rte_memzone_reserve_aligned(name, r->map_len, socket, 0,
					    RTE_MIN(r->ring_len, (size_t)RTE_PGSIZE_2M));
	if (r->mz == NULL) {
		ret = -rte_errno;
		goto error;
	}
	r->buf = r->mz->addr;
	memset(r->buf, 0, r->map_len);
	ret = mlx5v_dma_buf_map(mlx5v_dev_hw(dev), r->buf, r->ring_len,
				rte_log2_u64(r->ring_len), &r->dma);
	if (ret != 0)
		goto error;
	ret = mlx5v_dma_buf_map(mlx5v_dev_hw(dev), r->buf + r->ring_len, MLX5V_ETH_RING_PAGE,
				MLX5V_DMA_PAGE_SHIFT, &r->dbr_dma);
	if (ret != 0)
		goto error;
	return 0;

error:
	MLX5V_ETH_LOG(ERR, "port %u %s queue %u: ring of %zu bytes: %s", eth_dev->data->port_id,
		      what, idx, r->map_len, strerror(-ret));
	mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &r->dma);
	rte_memzone_free(r->mz);
	memset(r, 0, sizeof(*r));
	return ret;
}

void
mlx5v_ethdev_ring_free(struct rte_eth_dev *eth_dev, struct mlx5v_ring *r)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	if (r->buf == NULL)
		return;
	if (dev != NULL) {
		mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &r->dbr_dma);
		mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &r->dma);
	}
	rte_memzone_free(r->mz);
	memset(r, 0, sizeof(*r));
}

/* ---------------------------------------------------------------- configuration */

/* Spread the RETA over the configured Rx queues. */
static int
mlx5v_ethdev_reta_default(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	unsigned int i;

	for (i = 0; i < MLX5V_ETH_RETA_SIZE; i++)
		priv->reta[i] = i % eth_dev->data->nb_rx_queues;
	return 0;
}

/* The multi-queue modes by value (rte_eth_rx_mq_mode, rte_eth_tx_mq_mode), for the log. */
static const char *const mq_rx_names[] = {
	[RTE_ETH_MQ_RX_DCB] = "DCB", [RTE_ETH_MQ_RX_DCB_RSS] = "DCB_RSS",
	[RTE_ETH_MQ_RX_VMDQ_ONLY] = "VMDQ_ONLY", [RTE_ETH_MQ_RX_VMDQ_RSS] = "VMDQ_RSS",
	[RTE_ETH_MQ_RX_VMDQ_DCB] = "VMDQ_DCB", [RTE_ETH_MQ_RX_VMDQ_DCB_RSS] = "VMDQ_DCB_RSS",
};
static const char *const mq_tx_names[] = {
	[RTE_ETH_MQ_TX_DCB] = "DCB", [RTE_ETH_MQ_TX_VMDQ_DCB] = "VMDQ_DCB",
	[RTE_ETH_MQ_TX_VMDQ_ONLY] = "VMDQ_ONLY",
};

static const char *
mlx5v_ethdev_mq_name(const char *const *names, size_t n, unsigned int mode)
{
	return mode < n && names[mode] != NULL ? names[mode] : "unknown";
}

static int
mlx5v_ethdev_configure(struct rte_eth_dev *eth_dev)
{
	struct rte_eth_dev_data *data = eth_dev->data;

	if (data->nb_rx_queues < 1 || data->nb_rx_queues > MLX5V_ETH_MAX_QUEUES ||
	    data->nb_tx_queues < 1 || data->nb_tx_queues > MLX5V_ETH_MAX_QUEUES) {
		MLX5V_ETH_LOG(ERR, "port %u: %u Rx / %u Tx queues requested, 1..%u supported",
			      data->port_id, data->nb_rx_queues, data->nb_tx_queues,
			      MLX5V_ETH_MAX_QUEUES);
		return -EINVAL;
	}
	/* RSS is the only multi-queue mode: no DCB or VMDq (traffic classes, pools). */
	if (data->dev_conf.rxmode.mq_mode != RTE_ETH_MQ_RX_NONE &&
	    data->dev_conf.rxmode.mq_mode != RTE_ETH_MQ_RX_RSS) {
		MLX5V_ETH_LOG(ERR,
			      "port %u: Rx multi-queue mode %s (%d) not supported, "
			      "none or RSS only",
			      data->port_id,
			      mlx5v_ethdev_mq_name(mq_rx_names, RTE_DIM(mq_rx_names),
						   data->dev_conf.rxmode.mq_mode),
			      data->dev_conf.rxmode.mq_mode);
		return -EINVAL;
	}
	if (data->dev_conf.txmode.mq_mode != RTE_ETH_MQ_TX_NONE) {
		MLX5V_ETH_LOG(ERR, "port %u: Tx multi-queue mode %s (%d) not supported, none only",
			      data->port_id,
			      mlx5v_ethdev_mq_name(mq_tx_names, RTE_DIM(mq_tx_names),
						   data->dev_conf.txmode.mq_mode),
			      data->dev_conf.txmode.mq_mode);
		return -EINVAL;
	}
	if (data->dev_conf.rx_adv_conf.rss_conf.rss_hf & ~MLX5V_ETH_RSS_HF) {
		MLX5V_ETH_LOG(ERR, "port %u: RSS types 0x%" PRIx64 " not supported",
			      data->port_id,
			      data->dev_conf.rx_adv_conf.rss_conf.rss_hf & ~MLX5V_ETH_RSS_HF);
		return -EINVAL;
	}
	return mlx5v_ethflow_rss_hash_update(eth_dev, &data->dev_conf.rx_adv_conf.rss_conf) ?:
	       mlx5v_ethdev_reta_default(eth_dev);
}

static int
mlx5v_ethdev_infos_get(struct rte_eth_dev *eth_dev, struct rte_eth_dev_info *info)
{
	const struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	uint16_t ring_max = (uint16_t)MLX5V_ETH_RING_MAX(priv);

	info->max_rx_queues = MLX5V_ETH_MAX_QUEUES;
	info->max_tx_queues = MLX5V_ETH_MAX_QUEUES;
	info->min_rx_bufsize = 32;
	info->max_rx_pktlen = priv->caps.max_hw_mtu - RTE_ETHER_CRC_LEN;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = priv->caps.max_hw_mtu - MLX5V_ETH_HW_MTU_OVERHEAD;
	info->max_mac_addrs = RTE_MIN(UINT32_C(1) << priv->caps.log_max_uc_list,
				      (uint32_t)MLX5V_ETH_MAX_MAC);
	info->rx_offload_capa = mlx5v_rx_offload_capa(&priv->caps);
	info->rx_queue_offload_capa = info->rx_offload_capa;
	info->tx_offload_capa = mlx5v_tx_offload_capa(&priv->caps);
	info->rx_desc_lim = (struct rte_eth_desc_lim){
		.nb_max = ring_max, .nb_min = 1, .nb_align = 1,
	};
	info->tx_desc_lim = info->rx_desc_lim;
	/* The segments a send WQE has room for after the headers the device needs inlined. */
	info->tx_desc_lim.nb_mtu_seg_max = mlx5v_tx_max_segs(&priv->caps, 0);
	info->tx_desc_lim.nb_seg_max = info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_TCP_TSO ?
				       RTE_MIN(mlx5v_tx_max_segs(&priv->caps, 1),
					       info->tx_desc_lim.nb_mtu_seg_max) :
				       info->tx_desc_lim.nb_mtu_seg_max;
	info->default_rxportconf.ring_size = 256;
	info->default_txportconf.ring_size = 256;
	info->speed_capa = RTE_ETH_LINK_SPEED_1G | RTE_ETH_LINK_SPEED_10G | RTE_ETH_LINK_SPEED_25G |
			   RTE_ETH_LINK_SPEED_40G | RTE_ETH_LINK_SPEED_50G |
			   RTE_ETH_LINK_SPEED_100G;
	info->dev_capa = 0;
	info->hash_key_size = MLX5V_ETH_RSS_KEY_LEN;
	info->reta_size = MLX5V_ETH_RETA_SIZE;
	info->flow_type_rss_offloads = MLX5V_ETH_RSS_HF;
	return 0;
}

int
mlx5v_avx2_ok(void)
{
#if MLX5V_AVX2
	return rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX2) > 0 &&
	       rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_256;
#else
	return 0;
#endif
}

/* ---------------------------------------------------------------- link */

int
mlx5v_ethdev_link_update(struct rte_eth_dev *eth_dev, int wait_to_complete)
{
	struct rte_eth_link link = {
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_AUTONEG,
	};
	struct mlx5v_dev *dev;
	int admin, oper, ret;
	uint32_t mbps = 0;

	RTE_SET_USED(wait_to_complete);
	dev = mlx5v_ethdev_core_live(eth_dev, &ret);
	if (dev == NULL)
		return rte_eth_linkstatus_set(eth_dev, &link);
	ret = mlx5v_ethdev_cmd_paos_get(dev, &admin, &oper);
	if (ret == 0 && oper)
		ret = mlx5v_ethdev_cmd_ptys_speed(dev, mlx5v_ethdev_priv_of(eth_dev)->caps.ptys_ext,
						  &mbps);
	if (ret != 0) {
		MLX5V_ETH_LOG(ERR, "port %u: link query failed: %s", eth_dev->data->port_id,
			      strerror(-ret));
		return ret;
	}
	link.link_status = oper ? RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	link.link_speed = oper ? mbps : RTE_ETH_SPEED_NUM_NONE;
	return rte_eth_linkstatus_set(eth_dev, &link);
}

static int
mlx5v_ethdev_link_admin(struct rte_eth_dev *eth_dev, int up)
{
	struct mlx5v_dev *dev;
	int ret;

	dev = mlx5v_ethdev_core_live(eth_dev, &ret);
	if (dev == NULL)
		return ret;
	ret = mlx5v_ethdev_cmd_paos_set(dev, up);
	if (ret != 0)
		return ret;
	/* 0: this read changed the status; the PORT_CHANGE alarm may come after it. */
	if (mlx5v_ethdev_link_update(eth_dev, 0) == 0)
		mlx5v_intr_link_taken(eth_dev);
	return 0;
}

static int
mlx5v_ethdev_set_link_up(struct rte_eth_dev *eth_dev)
{
	return mlx5v_ethdev_link_admin(eth_dev, 1);
}

static int
mlx5v_ethdev_set_link_down(struct rte_eth_dev *eth_dev)
{
	return mlx5v_ethdev_link_admin(eth_dev, 0);
}

/* ---------------------------------------------------------------- Rx filters */

static int
mlx5v_ethdev_promisc_write(struct rte_eth_dev *eth_dev, int promisc, int allmulti)
{
	struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	struct mlx5v_dev *dev;
	int ret;

	dev = mlx5v_ethdev_core_live(eth_dev, &ret);
	if (dev == NULL)
		return ret;
	ret = mlx5v_ethdev_cmd_vport_promisc(dev, promisc, allmulti);
	if (ret != 0)
		return ret;
	priv->promisc = promisc;
	priv->allmulti = allmulti;
	return mlx5v_ethflow_sync(eth_dev);
}

static int
mlx5v_ethdev_promiscuous_enable(struct rte_eth_dev *eth_dev)
{
	return mlx5v_ethdev_promisc_write(eth_dev, 1, mlx5v_ethdev_priv_of(eth_dev)->allmulti);
}

static int
mlx5v_ethdev_promiscuous_disable(struct rte_eth_dev *eth_dev)
{
	return mlx5v_ethdev_promisc_write(eth_dev, 0, mlx5v_ethdev_priv_of(eth_dev)->allmulti);
}

static int
mlx5v_ethdev_allmulticast_enable(struct rte_eth_dev *eth_dev)
{
	return mlx5v_ethdev_promisc_write(eth_dev, mlx5v_ethdev_priv_of(eth_dev)->promisc, 1);
}

static int
mlx5v_ethdev_allmulticast_disable(struct rte_eth_dev *eth_dev)
{
	return mlx5v_ethdev_promisc_write(eth_dev, mlx5v_ethdev_priv_of(eth_dev)->promisc, 0);
}

/* No slot of mac_addrs changes. */
#define NO_SLOT UINT32_MAX

/*
 * The address in slot i of mac_addrs once slot `index` holds `addr` (NULL: empty). ethdev
 * updates mac_addrs itself after the callback succeeds. @return it, or NULL if empty.
 */
static const struct rte_ether_addr *
mlx5v_ethdev_mac_slot(const struct rte_eth_dev *eth_dev, unsigned int i, uint32_t index,
		      const struct rte_ether_addr *addr)
{
	const struct rte_ether_addr *a = i == index ? addr : &eth_dev->data->mac_addrs[i];

	return a == NULL || rte_is_zero_ether_addr(a) ? NULL : a;
}

/*
 * Write the vport address lists as mac_addrs will be once slot `index` holds `addr`: the
 * unicast addresses in the UC list; broadcast, the multicast addresses of mac_addrs and the
 * multicast address list in the MC list (index NO_SLOT: mac_addrs as it is). The vport filter
 * passes a multicast or broadcast frame only through the MC list or promisc_mc, so broadcast
 * is always listed, first, as Linux mlx5e lists it (doc/guides/prm/mlx5_eth.rst §4.3, §10.1
 * step 2).
 */
static int
mlx5v_ethdev_vport_lists_write(struct rte_eth_dev *eth_dev, uint32_t index,
			       const struct rte_ether_addr *addr)
{
	const struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	struct rte_ether_addr uc[MLX5V_ETH_MAX_MAC], mc[MLX5V_ETH_MAX_MAC];
	const struct rte_ether_addr *a;
	unsigned int i, nuc = 0, nmc = 0;
	unsigned int max_mc = RTE_MIN(UINT32_C(1) << priv->caps.log_max_mc_list,
				      (uint32_t)MLX5V_ETH_MAX_MAC);
	struct mlx5v_dev *dev;
	int ret;

	dev = mlx5v_ethdev_core_live(eth_dev, &ret);
	if (dev == NULL)
		return ret;
	if (index != NO_SLOT && index >= MLX5V_ETH_MAX_MAC)
		return -EINVAL;
	memset(&mc[nmc++], 0xff, sizeof(mc[0]));
	for (i = 0; i < MLX5V_ETH_MAX_MAC; i++) {
		a = mlx5v_ethdev_mac_slot(eth_dev, i, index, addr);
		if (a == NULL)
			continue;
		if (!rte_is_multicast_ether_addr(a))
			uc[nuc++] = *a;
		else if (nmc < max_mc)
			mc[nmc++] = *a;
		else
			goto nospc;
	}
	for (i = 0; i < priv->nb_mc; i++) {
		if (nmc >= max_mc)
			goto nospc;
		mc[nmc++] = priv->mc[i];
	}
	ret = mlx5v_ethdev_cmd_vport_list(dev, 0, uc, nuc);
	return ret != 0 ? ret : mlx5v_ethdev_cmd_vport_list(dev, 1, mc, nmc);

nospc:
	MLX5V_ETH_LOG(ERR, "port %u: the vport multicast list holds %u addresses, broadcast "
		      "included", eth_dev->data->port_id, max_mc);
	return -ENOSPC;
}

/* After ethdev updated mac_addrs: the flow entries follow. */
static int
mlx5v_ethdev_mac_flows_sync(struct rte_eth_dev *eth_dev, uint32_t index,
			    const struct rte_ether_addr *addr)
{
	struct rte_ether_addr old = eth_dev->data->mac_addrs[index];
	int ret;

	/* The entries are rebuilt from mac_addrs, which ethdev writes after this callback. */
	if (addr != NULL)
		eth_dev->data->mac_addrs[index] = *addr;
	else
		memset(&eth_dev->data->mac_addrs[index], 0, sizeof(old));
	ret = mlx5v_ethflow_sync(eth_dev);
	eth_dev->data->mac_addrs[index] = old;
	return ret;
}

static int
mlx5v_ethdev_mac_addr_set(struct rte_eth_dev *eth_dev, struct rte_ether_addr *addr)
{
	return mlx5v_ethdev_vport_lists_write(eth_dev, 0, addr)
			       ?: mlx5v_ethdev_mac_flows_sync(eth_dev, 0, addr);
}

static int
mlx5v_ethdev_mac_addr_add(struct rte_eth_dev *eth_dev, struct rte_ether_addr *addr,
			  uint32_t index, uint32_t vmdq)
{
	if (vmdq != 0) {
		MLX5V_ETH_LOG(ERR, "port %u: VMDq pools are not supported",
			      eth_dev->data->port_id);
		return -ENOTSUP;
	}
	return mlx5v_ethdev_vport_lists_write(eth_dev, index, addr)
			       ?: mlx5v_ethdev_mac_flows_sync(eth_dev, index, addr);
}

static void
mlx5v_ethdev_mac_addr_remove(struct rte_eth_dev *eth_dev, uint32_t index)
{
	int ret = mlx5v_ethdev_vport_lists_write(eth_dev, index, NULL)
				  ?: mlx5v_ethdev_mac_flows_sync(eth_dev, index, NULL);

	if (ret != 0)
		MLX5V_ETH_LOG(ERR, "port %u: removing MAC %u failed: %s", eth_dev->data->port_id,
			      index, strerror(-ret));
}

/*
 * The multicast address list replaces the last one: in the vport MC list and one flow entry
 * per address (doc/guides/nics/mlx5v.rst). Stopped, the entries follow at start.
 */
static int
mlx5v_ethdev_set_mc_addr_list(struct rte_eth_dev *eth_dev, struct rte_ether_addr *list,
			      uint32_t n)
{
	struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	struct rte_ether_addr old[MLX5V_ETH_MAX_MC];
	uint32_t i, old_n = priv->nb_mc;
	int ret;

	if (n > MLX5V_ETH_MAX_MC) {
		MLX5V_ETH_LOG(ERR, "port %u: %u multicast addresses, at most %u",
			      eth_dev->data->port_id, n, MLX5V_ETH_MAX_MC);
		return -ENOSPC;
	}
	for (i = 0; i < n; i++)
		if (!rte_is_multicast_ether_addr(&list[i])) {
			MLX5V_ETH_LOG(ERR, "port %u: address %u of the multicast list is not "
				      "multicast", eth_dev->data->port_id, i);
			return -EINVAL;
		}
	memcpy(old, priv->mc, sizeof(old));
	if (n > 0)
		memcpy(priv->mc, list, n * sizeof(*list));
	priv->nb_mc = n;
	ret = mlx5v_ethdev_vport_lists_write(eth_dev, NO_SLOT, NULL);
	if (ret == 0)
		ret = mlx5v_ethflow_sync(eth_dev);
	if (ret == 0)
		return 0;
	memcpy(priv->mc, old, sizeof(old));
	priv->nb_mc = old_n;
	/* Best effort back to the list that worked; the first error is the answer. */
	if (mlx5v_ethdev_vport_lists_write(eth_dev, NO_SLOT, NULL) != 0 ||
	    mlx5v_ethflow_sync(eth_dev) != 0)
		MLX5V_ETH_LOG(ERR, "port %u: multicast filter not restored",
			      eth_dev->data->port_id);
	return ret;
}

static int
mlx5v_ethdev_mtu_set(struct rte_eth_dev *eth_dev, uint16_t mtu)
{
	const struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	uint32_t hw_mtu = (uint32_t)mtu + MLX5V_ETH_HW_MTU_OVERHEAD;
	struct mlx5v_dev *dev;
	int ret;

	if (hw_mtu > priv->caps.max_hw_mtu || mtu < RTE_ETHER_MIN_MTU) {
		MLX5V_ETH_LOG(ERR, "port %u: MTU %u outside %u..%u", eth_dev->data->port_id, mtu,
			      RTE_ETHER_MIN_MTU,
			      priv->caps.max_hw_mtu - MLX5V_ETH_HW_MTU_OVERHEAD);
		return -EINVAL;
	}
	dev = mlx5v_ethdev_core_live(eth_dev, &ret);
	if (dev == NULL)
		return ret;
	/* The port (PMTU) bounds what the wire carries, the vport MTU what the function gets. */
	ret = mlx5v_ethdev_cmd_pmtu_set(dev, hw_mtu);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_vport_mtu(dev, hw_mtu);
	return ret;
}

static int
mlx5v_ethdev_fw_version_get(struct rte_eth_dev *eth_dev, char *fw_version, size_t fw_size)
{
	const struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	int n;

	/* The init segment's fw_rev: minor in the high half, major in the low half. */
	n = snprintf(fw_version, fw_size, "%u.%u", priv->caps.fw_rev & 0xffff,
		     priv->caps.fw_rev >> 16);
	if (n < 0)
		return -EINVAL;
	return (size_t)n < fw_size ? 0 : n + 1;
}

/* ---------------------------------------------------------------- lifecycle */

/* Reverse of mlx5v_ethdev_start(): every object number 0 is one that was not made. */
static void mlx5v_ethdev_objs_destroy_port(struct rte_eth_dev *eth_dev, struct mlx5v_dev *dev);

static void
mlx5v_ethdev_objs_destroy(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	uint16_t port = eth_dev->data->port_id;
	unsigned int i;
	int stale;

	/* After a recovery the objects' numbers are the old life's: destroyed locally. */
	stale = mlx5v_recovery_stale_begin(eth_dev);
	mlx5v_ethflow_destroy(eth_dev);
	for (i = eth_dev->data->nb_tx_queues; i > 0; i--)
		if (eth_dev->data->tx_queues[i - 1] != NULL)
			mlx5v_txq_destroy(eth_dev, eth_dev->data->tx_queues[i - 1]);
	for (i = eth_dev->data->nb_rx_queues; i > 0; i--)
		if (eth_dev->data->rx_queues[i - 1] != NULL)
			mlx5v_rxq_destroy(eth_dev, eth_dev->data->rx_queues[i - 1]);
	mlx5v_mem_unmap_all(eth_dev);
	/* The Rx queue EQs: after the CQs bound to them, before the UAR they ring. */
	mlx5v_intr_rx_destroy(eth_dev);
	if (mlx5v_ethdev_uars[port] != NULL)
		rte_pmd_mlx5v_devx_free_uar(mlx5v_ethdev_uars[port]);
	mlx5v_ethdev_uars[port] = NULL;
	if (dev != NULL)
		mlx5v_ethdev_objs_destroy_port(eth_dev, dev);
	mlx5v_recovery_stale_end(stale);
}

/* The port-wide objects of start, in reverse. */
static void
mlx5v_ethdev_objs_destroy_port(struct rte_eth_dev *eth_dev, struct mlx5v_dev *dev)
{
	struct mlx5v_ethdev_objs *o = &mlx5v_ethdev_priv_of(eth_dev)->obj;

	if (o->qcnt != 0) {
		mlx5v_stats_save(eth_dev);
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_QCNT, o->qcnt);
	}
	o->qcnt = 0;
	if (o->tis != 0)
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_TIS, o->tis);
	o->tis = 0;
	if (o->td != 0)
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_TD, o->td);
	o->td = 0;
	if (o->pd != 0)
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_PD, o->pd);
	o->pd = 0;
}

/*
 * PD, TD, TIS, Q counter, UAR, the queues (CQ, RQ/SQ, RDY), then the steering
 * (doc/guides/nics/mlx5v.rst "Objects"). A failure undoes everything made so far.
 */
static int
mlx5v_ethdev_start(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	struct mlx5v_ethdev_objs *o = &priv->obj;
	uint16_t port = eth_dev->data->port_id;
	struct mlx5v_dev *dev;
	unsigned int i;
	int ret;

	dev = mlx5v_ethdev_core_live(eth_dev, &ret);
	if (dev == NULL)
		return ret;
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++)
		if (eth_dev->data->rx_queues[i] == NULL)
			goto no_queue;
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++)
		if (eth_dev->data->tx_queues[i] == NULL)
			goto no_queue;
	ret = mlx5v_ethdev_cmd_alloc(dev, MLX5V_ETHDEV_OBJ_PD, &o->pd);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_alloc(dev, MLX5V_ETHDEV_OBJ_TD, &o->td);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_tis_create(dev, o->td, &o->tis);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_alloc(dev, MLX5V_ETHDEV_OBJ_QCNT, &o->qcnt);
	if (ret != 0)
		goto error;
	mlx5v_ethdev_uars[port] = rte_pmd_mlx5v_devx_alloc_uar((struct rte_pmd_mlx5v_dev *)dev);
	if (mlx5v_ethdev_uars[port] == NULL) {
		ret = -(rte_errno != 0 ? rte_errno : ENOMEM);
		goto error;
	}
	ret = mlx5v_intr_rx_create(eth_dev);
	for (i = 0; i < eth_dev->data->nb_rx_queues && ret == 0; i++)
		ret = mlx5v_rxq_create(eth_dev, eth_dev->data->rx_queues[i]);
	for (i = 0; i < eth_dev->data->nb_tx_queues && ret == 0; i++)
		ret = mlx5v_txq_create(eth_dev, eth_dev->data->tx_queues[i]);
	if (ret == 0)
		ret = mlx5v_ethflow_create(eth_dev);
	if (ret != 0)
		goto error;
	/* Deferred queues stay stopped until their own start (rx/tx_queue_start). */
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++)
		eth_dev->data->rx_queue_state[i] =
			((struct mlx5v_rxq *)eth_dev->data->rx_queues[i])->deferred ?
			RTE_ETH_QUEUE_STATE_STOPPED : RTE_ETH_QUEUE_STATE_STARTED;
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++)
		eth_dev->data->tx_queue_state[i] =
			((struct mlx5v_txq *)eth_dev->data->tx_queues[i])->deferred ?
			RTE_ETH_QUEUE_STATE_STOPPED : RTE_ETH_QUEUE_STATE_STARTED;
	eth_dev->rx_pkt_burst = mlx5v_rx_burst;
	eth_dev->tx_pkt_burst = mlx5v_tx_burst_pick(eth_dev);
	mlx5v_ethdev_link_update(eth_dev, 0);
	/* The secondaries' bursts, on the queues as they are now. */
	mlx5v_mp_start_rxtx(eth_dev);
	return 0;

no_queue:
	MLX5V_ETH_LOG(ERR, "port %u: a queue is not set up", port);
	return -EINVAL;
error:
	MLX5V_ETH_LOG(ERR, "port %u: start failed: %s", port, strerror(-ret));
	mlx5v_ethdev_objs_destroy(eth_dev);
	return ret;
}

static int
mlx5v_ethdev_stop(struct rte_eth_dev *eth_dev)
{
	unsigned int i;

	eth_dev->data->dev_started = 0;
	/*
	 * The bursts of this process receive and send nothing already (ethdev swapped them);
	 * those of the secondaries are swapped now, before their queues go.
	 */
	mlx5v_mp_stop_rxtx(eth_dev);
	mlx5v_ethdev_objs_destroy(eth_dev);
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++)
		eth_dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++)
		eth_dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

static void
mlx5v_ethdev_queues_release(struct rte_eth_dev *eth_dev)
{
	unsigned int i;

	for (i = 0; i < eth_dev->data->nb_rx_queues; i++)
		mlx5v_rxq_release(eth_dev, i);
	for (i = 0; i < eth_dev->data->nb_tx_queues; i++)
		mlx5v_txq_release(eth_dev, i);
}

static int
mlx5v_ethdev_rx_queue_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
			    unsigned int socket, const struct rte_eth_rxconf *conf,
			    struct rte_mempool *mp)
{
	return mlx5v_rxq_setup(eth_dev, idx, nb_desc, socket, conf, mp);
}

static void
mlx5v_ethdev_rx_queue_release(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	mlx5v_rxq_release(eth_dev, idx);
}

static int
mlx5v_ethdev_tx_queue_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
			    unsigned int socket, const struct rte_eth_txconf *conf)
{
	return mlx5v_txq_setup(eth_dev, idx, nb_desc, socket, conf);
}

static void
mlx5v_ethdev_tx_queue_release(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	mlx5v_txq_release(eth_dev, idx);
}

/* Put the vport back as probe found it: no promiscuity, the permanent address only. */
static int
mlx5v_ethdev_vport_defaults(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_ethdev_priv *priv = mlx5v_ethdev_priv_of(eth_dev);
	struct mlx5v_ethdev_vport v;
	struct mlx5v_dev *dev;
	int ret;

	dev = mlx5v_ethdev_core_live(eth_dev, &ret);
	if (dev == NULL)
		return ret;
	ret = mlx5v_ethdev_cmd_vport_query(dev, &v);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_vport_promisc(dev, 0, 0);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_vport_list(dev, 0, &v.perm_mac, 1);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_vport_list(dev, 1, NULL, 0);
	if (ret != 0)
		return ret;
	priv->promisc = 0;
	priv->allmulti = 0;
	priv->nb_mc = 0;
	if (eth_dev->data->mac_addrs != NULL) {
		memset(eth_dev->data->mac_addrs, 0,
		       sizeof(struct rte_ether_addr) * MLX5V_ETH_MAX_MAC);
		eth_dev->data->mac_addrs[0] = v.perm_mac;
	}
	return 0;
}

static int
mlx5v_ethdev_close(struct rte_eth_dev *eth_dev)
{
	uint16_t port = eth_dev->data->port_id;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	if (eth_dev->data->dev_started)
		mlx5v_ethdev_stop(eth_dev);
	mlx5v_recovery_close(eth_dev);
	mlx5v_intr_cleanup(eth_dev);
	mlx5v_ethdev_queues_release(eth_dev);
	/* Best effort: a dead device cannot be reset, and close must still complete. */
	if (mlx5v_ethdev_vport_defaults(eth_dev) != 0)
		MLX5V_ETH_LOG(NOTICE, "port %u: vport left as it was", port);
	if (port < RTE_MAX_ETHPORTS)
		mlx5v_ethdev_cores[port] = NULL;
	mlx5v_mp_action_put();
	free(eth_dev->process_private);
	eth_dev->process_private = NULL;
	return 0;
}

/* The port's VLAN stripping (rte_eth_dev_set_vlan_offload), running or not. */
static int
mlx5v_ethdev_vlan_offload_set(struct rte_eth_dev *eth_dev, int mask)
{
	const struct rte_eth_rxmode *rxmode = &eth_dev->data->dev_conf.rxmode;
	int on = !!(rxmode->offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP);
	unsigned int i;
	int ret;

	if (!(mask & RTE_ETH_VLAN_STRIP_MASK))
		return 0;
	if (!mlx5v_ethdev_priv_of(eth_dev)->caps.vlan_cap)
		return -ENOTSUP;
	for (i = 0; i < eth_dev->data->nb_rx_queues; i++) {
		if (eth_dev->data->rx_queues[i] == NULL)
			continue;
		ret = mlx5v_rxq_vlan_strip_set(eth_dev, eth_dev->data->rx_queues[i], on);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/* One queue's VLAN stripping (rte_eth_dev_set_vlan_strip_on_queue); failures are logged. */
static void
mlx5v_ethdev_vlan_strip_queue_set(struct rte_eth_dev *eth_dev, uint16_t idx, int on)
{
	struct mlx5v_rxq *rxq = eth_dev->data->rx_queues[idx];

	if (rxq != NULL && mlx5v_ethdev_priv_of(eth_dev)->caps.vlan_cap)
		mlx5v_rxq_vlan_strip_set(eth_dev, rxq, on);
}

static int
mlx5v_ethdev_reset(struct rte_eth_dev *eth_dev)
{
	int ret;

	if (eth_dev->data->dev_started)
		mlx5v_ethdev_stop(eth_dev);
	/* After a recovery, the port moves to the device's new life first. */
	ret = mlx5v_recovery_port_reset(eth_dev);
	if (ret == 0)
		ret = mlx5v_ethdev_vport_defaults(eth_dev);
	if (ret != 0) {
		MLX5V_ETH_LOG(ERR, "port %u: reset failed: %s", eth_dev->data->port_id,
			      strerror(-ret));
		return ret;
	}
	/*
	 * ethdev's flags say what the vport now does: its config restore at the next start
	 * would otherwise turn promiscuity back on behind the application (mlx5v.rst, "Reset").
	 */
	eth_dev->data->promiscuous = 0;
	eth_dev->data->all_multicast = 0;
	return 0;
}

/*
 * The entries a secondary process shares with the primary: reads of the port's shared data
 * (infos, queue and RSS state, statistics) and the statistics reset.
 */
#define MLX5V_ETHDEV_OPS_SHARED \
	.dev_infos_get = mlx5v_ethdev_infos_get, \
	.fw_version_get = mlx5v_ethdev_fw_version_get, \
	.rxq_info_get = mlx5v_rxq_info_get, \
	.txq_info_get = mlx5v_txq_info_get, \
	.rx_burst_mode_get = mlx5v_rx_burst_mode_get, \
	.tx_burst_mode_get = mlx5v_tx_burst_mode_get, \
	.dev_supported_ptypes_get = mlx5v_rx_ptypes_get, \
	.stats_get = mlx5v_stats_get, \
	.stats_reset = mlx5v_stats_reset, \
	.xstats_get = mlx5v_xstats_get, \
	.xstats_get_names = mlx5v_xstats_get_names, \
	.xstats_reset = mlx5v_stats_reset, \
	.rss_hash_conf_get = mlx5v_ethflow_rss_hash_conf_get, \
	.reta_query = mlx5v_ethflow_reta_query

static const struct eth_dev_ops mlx5v_ethdev_ops = {
	MLX5V_ETHDEV_OPS_SHARED,
	.dev_configure = mlx5v_ethdev_configure,
	.dev_start = mlx5v_ethdev_start,
	.dev_stop = mlx5v_ethdev_stop,
	.dev_close = mlx5v_ethdev_close,
	.dev_reset = mlx5v_ethdev_reset,
	.dev_set_link_up = mlx5v_ethdev_set_link_up,
	.dev_set_link_down = mlx5v_ethdev_set_link_down,
	.link_update = mlx5v_ethdev_link_update,
	.promiscuous_enable = mlx5v_ethdev_promiscuous_enable,
	.promiscuous_disable = mlx5v_ethdev_promiscuous_disable,
	.allmulticast_enable = mlx5v_ethdev_allmulticast_enable,
	.allmulticast_disable = mlx5v_ethdev_allmulticast_disable,
	.mac_addr_set = mlx5v_ethdev_mac_addr_set,
	.mac_addr_add = mlx5v_ethdev_mac_addr_add,
	.mac_addr_remove = mlx5v_ethdev_mac_addr_remove,
	.set_mc_addr_list = mlx5v_ethdev_set_mc_addr_list,
	.mtu_set = mlx5v_ethdev_mtu_set,
	.rx_queue_setup = mlx5v_ethdev_rx_queue_setup,
	.rx_queue_release = mlx5v_ethdev_rx_queue_release,
	.tx_queue_setup = mlx5v_ethdev_tx_queue_setup,
	.tx_queue_release = mlx5v_ethdev_tx_queue_release,
	.tx_done_cleanup = mlx5v_tx_done_cleanup,
	.rx_queue_start = mlx5v_rxq_start,
	.rx_queue_stop = mlx5v_rxq_stop,
	.tx_queue_start = mlx5v_txq_start,
	.tx_queue_stop = mlx5v_txq_stop,
	.rss_hash_update = mlx5v_ethflow_rss_hash_update,
	.reta_update = mlx5v_ethflow_reta_update,
	.flow_ops_get = mlx5v_rte_flow_ops_get,
	.rx_queue_intr_enable = mlx5v_intr_rx_enable,
	.rx_queue_intr_disable = mlx5v_intr_rx_disable,
	.vlan_offload_set = mlx5v_ethdev_vlan_offload_set,
	.vlan_strip_queue_set = mlx5v_ethdev_vlan_strip_queue_set,
};

/* ---------------------------------------------------------------- net class */

/*
 * The net class's devarg rxq_cqe_comp_en=0..4 (doc/guides/nics/mlx5v.rst, DPDK mlx5's
 * values): 0 off, 1 the hash mini-CQE format, 2 the flow tag, 3 the checksum, 4 the L3/L4
 * header types; the other keys are the front-end's. @return 0 or -EINVAL with one log line.
 */
#define MLX5V_ETH_ARG_RXQ_CQE_COMP_EN "rxq_cqe_comp_en"
/*
 * flow_async=0|1 (default 0): 1 posts rte_flow rules' entries without waiting for their
 * completion (doc/guides/nics/mlx5v.rst, "Flow rules (rte_flow)"); 0 waits for each, so that
 * a rule is in effect when rte_flow_create() returns.
 */
#define MLX5V_ETH_ARG_FLOW_ASYNC "flow_async"

/* The devargs keys of the net class: the front-ends accept them for it. */
static const char *const mlx5v_ethdev_keys[] = {
	MLX5V_ETH_ARG_RXQ_CQE_COMP_EN, MLX5V_ETH_ARG_FLOW_ASYNC, NULL
};

/* A one-digit devarg key of 0 to max, given at most once, into *v. @return 0 or -EINVAL. */
static int
mlx5v_ethdev_devarg_digit(const char *name, struct rte_kvargs *kv, const char *key,
			  unsigned int max, uint8_t *v)
{
	const char *val;

	if (rte_kvargs_count(kv, key) == 0)
		return 0;
	val = rte_kvargs_get(kv, key);
	if (rte_kvargs_count(kv, key) > 1 || val == NULL || val[0] < '0' ||
	    val[0] > (char)('0' + max) || val[1] != '\0') {
		MLX5V_ETH_LOG(ERR, "%s: devarg %s=%s: expected 0 to %u, once", name, key,
			      val != NULL ? val : "", max);
		return -EINVAL;
	}
	*v = (uint8_t)(val[0] - '0');
	return 0;
}

static int
mlx5v_ethdev_devargs(const char *name, const char *devargs, uint8_t *cqe_comp_en,
		     uint8_t *flow_async)
{
	struct rte_kvargs *kv;
	int ret;

	*cqe_comp_en = 1;
	*flow_async = 0;
	if (devargs == NULL || devargs[0] == '\0')
		return 0;
	kv = rte_kvargs_parse(devargs, NULL);
	if (kv == NULL)
		return 0;	/* the front-end refused it already */
	ret = mlx5v_ethdev_devarg_digit(name, kv, MLX5V_ETH_ARG_RXQ_CQE_COMP_EN,
					MLX5V_ETH_CQE_COMP_L34H, cqe_comp_en);
	if (ret == 0)
		ret = mlx5v_ethdev_devarg_digit(name, kv, MLX5V_ETH_ARG_FLOW_ASYNC, 1, flow_async);
	rte_kvargs_free(kv);
	return ret;
}

static int
mlx5v_ethdev_probe(struct mlxv_class_dev *cd, struct rte_device *edev, const char *devargs)
{
	struct mlx5v_dev *dev = cd->ctx;
	const char *name = rte_dev_name(edev);
	struct mlx5v_ethdev_priv *priv;
	struct mlx5v_ethdev_vport v;
	struct mlx5v_ethdev_caps caps;
	struct rte_eth_dev *eth_dev;
	uint8_t cqe_comp_en, flow_async;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		MLX5V_ETH_LOG(ERR, "%s: secondary processes are not supported", name);
		return -ENOTSUP;
	}
	ret = mlx5v_ethdev_devargs(name, devargs, &cqe_comp_en, &flow_async);
	if (ret != 0)
		return ret;
	/* The DEVX context (DMA windows, UARs, CQs of the queues); released at REMOVE. */
	if (mlx5v_devx_dev_get(name) != dev) {
		MLX5V_ETH_LOG(ERR, "%s: no DEVX context: %s", name, rte_strerror(rte_errno));
		return -ENODEV;
	}
	ret = mlx5v_ethdev_cmd_caps(dev, &caps);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_vport_query(dev, &v);
	if (ret != 0) {
		MLX5V_ETH_LOG(ERR, "%s: reading the capabilities and vport failed: %s", name,
			      strerror(-ret));
		return ret;
	}
	/* The flow tag and L3/L4 formats only where the firmware writes them (as DPDK). */
	if ((cqe_comp_en == MLX5V_ETH_CQE_COMP_FTAG && !caps.mini_cqe_ftag) ||
	    (cqe_comp_en == MLX5V_ETH_CQE_COMP_L34H && !caps.mini_cqe_l34h)) {
		MLX5V_ETH_LOG(ERR, "%s: devarg %s=%u: the device has no %s mini-CQE format", name,
			      MLX5V_ETH_ARG_RXQ_CQE_COMP_EN, cqe_comp_en,
			      cqe_comp_en == MLX5V_ETH_CQE_COMP_FTAG ? "flow tag" :
			      "L3/L4 header");
		return -ENOTSUP;
	}
	eth_dev = rte_eth_dev_allocate(name);
	if (eth_dev == NULL) {
		MLX5V_ETH_LOG(ERR, "%s: no ethdev port left", name);
		return -ENOMEM;
	}
	eth_dev->data->dev_private = rte_zmalloc_socket(name, sizeof(*priv), RTE_CACHE_LINE_SIZE,
							dev->socket);
	eth_dev->data->mac_addrs = rte_zmalloc_socket(name, sizeof(struct rte_ether_addr) *
						      MLX5V_ETH_MAX_MAC, 0, dev->socket);
	if (eth_dev->data->dev_private == NULL || eth_dev->data->mac_addrs == NULL) {
		ret = -ENOMEM;
		goto err_release;
	}
	priv = eth_dev->data->dev_private;
	snprintf(priv->name, sizeof(priv->name), "%s", name);
	priv->port_id = eth_dev->data->port_id;
	priv->caps = caps;
	priv->promisc = v.promisc_all;
	priv->allmulti = v.promisc_mc;
	priv->cqe_comp_en = cqe_comp_en;
	priv->rflow.async = flow_async;
	priv->epoch = mlx5v_dev_epoch(dev);
	memcpy(priv->rss_key, mlx5v_ethdev_rss_key, sizeof(priv->rss_key));
	priv->rss_hf = RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP;
	eth_dev->data->mac_addrs[0] = v.perm_mac;
	eth_dev->data->mtu = RTE_MIN(v.hw_mtu, caps.max_hw_mtu) - MLX5V_ETH_HW_MTU_OVERHEAD;
	eth_dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	eth_dev->device = edev;
	eth_dev->dev_ops = &mlx5v_ethdev_ops;
	/* This process's doorbells: the core's seam, the queues' registers at their start. */
	eth_dev->process_private = calloc(1, sizeof(struct mlx5v_ethdev_proc));
	if (eth_dev->process_private == NULL) {
		ret = -ENOMEM;
		goto err_release;
	}
	mlx5v_ethdev_proc(eth_dev->data->port_id)->hw = mlx5v_dev_hw(dev);
	mlx5v_ethdev_cores[eth_dev->data->port_id] = dev;
	/* The permanent address and broadcast in the lists: the vport and mac_addrs agree. */
	ret = mlx5v_ethdev_vport_lists_write(eth_dev, 0, &v.perm_mac);
	if (ret != 0)
		goto err_core;
	ret = mlx5v_intr_init(eth_dev);
	if (ret != 0)
		goto err_core;
	ret = mlx5v_mp_action_get();
	if (ret != 0)
		goto err_intr;
	rte_eth_dev_probing_finish(eth_dev);
	MLX5V_ETH_LOG(INFO, "%s: port %u, MAC " RTE_ETHER_ADDR_PRT_FMT, name,
		      eth_dev->data->port_id, RTE_ETHER_ADDR_BYTES(&v.perm_mac));
	return 0;

err_intr:
	mlx5v_intr_cleanup(eth_dev);
err_core:
	mlx5v_ethdev_cores[eth_dev->data->port_id] = NULL;
err_release:
	free(eth_dev->process_private);
	eth_dev->process_private = NULL;
	/* rte_eth_dev_release_port() frees dev_private and mac_addrs. */
	rte_eth_dev_release_port(eth_dev);
	return ret;
}

static int
mlx5v_ethdev_remove(struct mlxv_class_dev *cd)
{
	struct rte_eth_dev *eth_dev = rte_eth_dev_allocated(cd->name);

	/* The application may have closed the port already (port close, then detach). */
	if (eth_dev == NULL)
		return 0;
	if (eth_dev->data->dev_started)
		rte_eth_dev_stop(eth_dev->data->port_id);
	return rte_eth_dev_close(eth_dev->data->port_id);
}

static void
mlx5v_ethdev_event(struct mlxv_class_dev *cd, const void *arg)
{
	struct rte_eth_dev *eth_dev = rte_eth_dev_allocated(cd->name);
	const struct mlx5v_class_event *ev = arg;

	if (eth_dev == NULL || eth_dev->data->dev_private == NULL)
		return;
	switch (ev->type) {
	case MLX5V_DEV_EVENT_DEAD:
		/* Release: a start telling the secondaries reads it (mlx5v_mp.c). */
		__atomic_store_n(&mlx5v_ethdev_priv_of(eth_dev)->dead, 1, __ATOMIC_RELEASE);
		/* recovery=reset: RMV now, RESET once the device is back. */
		if (mlx5v_recovery_dead(eth_dev))
			break;
		rte_eth_dev_callback_process(eth_dev, RTE_ETH_EVENT_INTR_RESET, NULL);
		mlx5v_intr_dead_event(eth_dev);
		break;
	case MLX5V_DEV_EVENT_RECOVERED:
		mlx5v_recovery_recovered(eth_dev);
		break;
	case MLX5V_DEV_EVENT_PORT:
		mlx5v_intr_port_event(eth_dev, ev->sub_type);
		break;
	case MLX5V_DEV_EVENT_REMOVE:
		/*
		 * The application (or EAL at exit) removes the device itself: no RMV, which
		 * would ask it to remove the port again. A device that goes away on its own
		 * dies first (DEAD above), and that raises RMV (mlx5v.rst, "Interrupts").
		 */
		break;
	default:
		break;
	}
}

/* ---------------------------------------------------------------- secondary processes */

/*
 * What a secondary process may do besides the bursts: read (infos, link, statistics, queue
 * and RSS state); reset statistics; the Rx interrupts of the primary's queues. Control stays
 * with the primary.
 */
static const struct eth_dev_ops mlx5v_ethdev_secondary_ops = {
	MLX5V_ETHDEV_OPS_SHARED,
	.link_update = mlxv_mp_link_update,
	.rx_queue_intr_enable = mlx5v_mp_rx_intr_enable,
	.rx_queue_intr_disable = mlx5v_mp_rx_intr_disable,
};

static int
mlx5v_ethdev_attach(struct rte_device *edev)
{
	const char *name = rte_dev_name(edev);
	struct rte_eth_dev *eth_dev;
	int ret;

	eth_dev = rte_eth_dev_attach_secondary(name);
	if (eth_dev == NULL) {
		MLX5V_ETH_LOG(ERR, "%s: the primary process has no such port", name);
		return -ENODEV;
	}
	eth_dev->device = edev;
	eth_dev->dev_ops = &mlx5v_ethdev_secondary_ops;
	eth_dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	/*
	 * ethdev sets this process's rte_eth_fp_ops of the port from eth_dev here, the shared
	 * queue arrays included: the gate's own arrays must come after (mlxv_mp_bursts.h).
	 */
	rte_eth_dev_probing_finish(eth_dev);
	/* The bursts, on the primary's queues while it has the port started. */
	ret = mlx5v_mp_secondary_attach(eth_dev);
	if (ret != 0) {
		rte_eth_dev_release_port(eth_dev);
		return ret;
	}
	MLX5V_ETH_LOG(INFO, "%s: port %u attached (secondary process)", name,
		      eth_dev->data->port_id);
	return 0;
}

static int
mlx5v_ethdev_detach(struct rte_device *edev)
{
	struct rte_eth_dev *eth_dev = rte_eth_dev_allocated(rte_dev_name(edev));

	if (eth_dev == NULL)
		return 0;
	mlx5v_mp_secondary_detach(eth_dev);
	/* A secondary's release leaves the shared data to the primary. */
	return rte_eth_dev_release_port(eth_dev);
}

MLXV_CLASS_DRIVER_REGISTER(mlx5v_ethdev_class,
			   mlx5v_class_driver_register, MLX5V_ETH_LOG,
			   .name = "net",
			   .flags = MLXV_CLASS_F_OWNS_PORT,
			   .keys = mlx5v_ethdev_keys,
			   .probe = mlx5v_ethdev_probe,
			   .remove = mlx5v_ethdev_remove,
			   .event = mlx5v_ethdev_event,
			   .attach = mlx5v_ethdev_attach,
			   .detach = mlx5v_ethdev_detach);
