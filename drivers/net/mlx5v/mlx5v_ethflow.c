/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Receive steering of the mlx5v PMD: the RQT over the Rx queues; the NIC RX root flow
 * table by destination: one entry per MAC address, broadcast and multicast list address, an
 * any-multicast entry while all-multicast and a match-all entry while promiscuous, each
 * forwarding to the traffic class table (TTC); the TTC by ethertype and IP protocol: TCP and
 * UDP over IPv4 and IPv6, other IPv4, other IPv6, anything else, each to its own indirect
 * Toeplitz TIR hashing what rss_hf asks for that class, as Linux mlx5e and DPDK mlx5 classify
 * (prm/mlx5_eth §4.8-§4.10, §10.2, §10.3). The NIC RX root is the table of rte_flow group 0,
 * whose miss goes on to the destination table (level 1; the TTC is at level 2); in isolated
 * mode none of these default objects is made (mlx5v_rte_flow.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <string.h>

#include "mlx5v_ethdev.h"

/*
 * Table layout: the full-dmac group first, then the one-entry any-multicast group, the
 * match-all group in the last entries (group ends are inclusive).
 */
#define FT_ENTRIES (1u << MLX5V_ETH_FT_LOG_SIZE)
#define FG_MAC_END (FT_ENTRIES - 4)
#define FG_MC_START (FT_ENTRIES - 3)
#define FG_ALL_START (FT_ENTRIES - 2)

static const struct rte_ether_addr mac_full = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }};
/* The group bit of the destination (dmac bit 40): every multicast and broadcast frame. */
static const struct rte_ether_addr mac_group = {{ 0x01, 0x00, 0x00, 0x00, 0x00, 0x00 }};
static const struct mlx5v_ethdev_match match_full = { .dmac = &mac_full };
static const struct mlx5v_ethdev_match match_group = { .dmac = &mac_group };

/* The TTC: entry i is traffic class i; L4 classes first, then L3, then anything else. */
#define TTC_LOG_SIZE 3
#define TTC_L4_END MLX5V_ETH_TT_IPV6_UDP
#define TTC_L3_END MLX5V_ETH_TT_IPV6

#define RSS_V4 (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_OTHER)
#define RSS_V6 (RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_FRAG_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_OTHER | \
		RTE_ETH_RSS_IPV6_EX)
#define RSS_V6_TCP (RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_IPV6_TCP_EX)
#define RSS_V6_UDP (RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_IPV6_UDP_EX)

/* Each class: what the TTC matches, and which rss_hf bits hash its addresses and ports. */
static const struct {
	uint16_t ethertype;
	uint8_t ip_protocol;
	uint8_t ipv6;
	uint64_t ip_hf;
	uint64_t ports_hf;
} tt_def[MLX5V_ETH_TT_N] = {
	[MLX5V_ETH_TT_IPV4_TCP] = { RTE_ETHER_TYPE_IPV4, IPPROTO_TCP, 0,
				    RSS_V4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP,
				    RTE_ETH_RSS_NONFRAG_IPV4_TCP },
	[MLX5V_ETH_TT_IPV6_TCP] = { RTE_ETHER_TYPE_IPV6, IPPROTO_TCP, 1,
				    RSS_V6 | RSS_V6_TCP, RSS_V6_TCP },
	[MLX5V_ETH_TT_IPV4_UDP] = { RTE_ETHER_TYPE_IPV4, IPPROTO_UDP, 0,
				    RSS_V4 | RTE_ETH_RSS_NONFRAG_IPV4_UDP,
				    RTE_ETH_RSS_NONFRAG_IPV4_UDP },
	[MLX5V_ETH_TT_IPV6_UDP] = { RTE_ETHER_TYPE_IPV6, IPPROTO_UDP, 1,
				    RSS_V6 | RSS_V6_UDP, RSS_V6_UDP },
	[MLX5V_ETH_TT_IPV4] = { RTE_ETHER_TYPE_IPV4, 0, 0, RSS_V4, 0 },
	[MLX5V_ETH_TT_IPV6] = { RTE_ETHER_TYPE_IPV6, 0, 1, RSS_V6, 0 },
	[MLX5V_ETH_TT_ANY] = { 0, 0, 0, 0, 0 },
};

static struct mlx5v_ethdev_priv *
mlx5v_ethflow_priv_of(const struct rte_eth_dev *eth_dev)
{
	return eth_dev->data->dev_private;
}

/* The RQ of each RQT entry. */
static void
mlx5v_ethflow_rqt_list(const struct rte_eth_dev *eth_dev, uint32_t *rqn)
{
	const struct mlx5v_ethdev_priv *priv = mlx5v_ethflow_priv_of(eth_dev);
	unsigned int i;

	for (i = 0; i < MLX5V_ETH_RETA_SIZE; i++) {
		const struct mlx5v_rxq *rxq = eth_dev->data->rx_queues[priv->reta[i]];

		rqn[i] = rxq->rqn;
	}
}

/* Destroy the TIRs of tir[] that exist. */
static void
mlx5v_ethflow_tirs_destroy(struct mlx5v_dev *dev, uint32_t *tir)
{
	unsigned int i;

	for (i = 0; i < MLX5V_ETH_TT_N; i++) {
		if (tir[i] != 0)
			mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_TIR, tir[i]);
		tir[i] = 0;
	}
}

/*
 * One TIR per traffic class over the RQT, hashing the fields rss_hf asks for that class: a
 * class rss_hf does not name hashes nothing and lands on RETA entry 0. @return 0 or -errno
 * with none made.
 */
static int
mlx5v_ethflow_tirs_create(struct rte_eth_dev *eth_dev, struct mlx5v_dev *dev, uint32_t *tir)
{
	struct mlx5v_ethdev_priv *priv = mlx5v_ethflow_priv_of(eth_dev);
	uint64_t hf = priv->rss_hf;
	struct mlx5v_ethdev_tir_attr a = {
		.td = priv->obj.td,
		.rqtn = priv->obj.rqt,
		.key = priv->rss_key,
	};
	unsigned int i;
	int ret;

	memset(tir, 0, sizeof(*tir) * MLX5V_ETH_TT_N);
	for (i = 0; i < MLX5V_ETH_TT_N; i++) {
		a.ipv6 = tt_def[i].ipv6;
		a.udp = tt_def[i].ip_protocol == IPPROTO_UDP;
		a.ip = (hf & tt_def[i].ip_hf) != 0;
		a.l4 = (hf & tt_def[i].ports_hf) != 0;
		ret = mlx5v_ethdev_cmd_tir_create(dev, &a, &tir[i]);
		if (ret != 0) {
			mlx5v_ethflow_tirs_destroy(dev, tir);
			return ret;
		}
	}
	return 0;
}

/* Delete the TTC's entries. */
static void
mlx5v_ethflow_tt_entries_clear(struct mlx5v_dev *dev, struct mlx5v_ethdev_objs *o)
{
	for (; o->n_tt > 0; o->n_tt--)
		mlx5v_ethdev_cmd_fte_delete(dev, o->ttc, o->n_tt - 1);
}

/* Entry i of the TTC: class i to tir[i]. @return 0 or -errno. */
static int
mlx5v_ethflow_tt_entries_set(struct mlx5v_dev *dev, struct mlx5v_ethdev_objs *o,
			     const uint32_t *tir)
{
	struct mlx5v_ethdev_match m;
	uint32_t fg;
	int ret;

	for (o->n_tt = 0; o->n_tt < MLX5V_ETH_TT_N; o->n_tt++) {
		m = (struct mlx5v_ethdev_match){
			.ethertype = tt_def[o->n_tt].ethertype,
			.ip_protocol = tt_def[o->n_tt].ip_protocol,
		};
		fg = o->n_tt <= TTC_L4_END ? o->fg_tt_l4 :
		     o->n_tt <= TTC_L3_END ? o->fg_tt_l3 : o->fg_tt_any;
		ret = mlx5v_ethdev_cmd_fte_set(dev, o->ttc, o->n_tt, fg, 0, tir[o->n_tt],
					       o->n_tt == MLX5V_ETH_TT_ANY ? NULL : &m);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/* The TTC (level 2, below the destination table), its three groups and entries. */
static int
mlx5v_ethflow_ttc_create(struct mlx5v_dev *dev, struct mlx5v_ethdev_objs *o)
{
	const struct mlx5v_ethdev_match l4 = { .ethertype = 0xffff, .ip_protocol = 0xff };
	const struct mlx5v_ethdev_match l3 = { .ethertype = 0xffff };
	int ret;

	ret = mlx5v_ethdev_cmd_ft_create(dev, 2, TTC_LOG_SIZE, &o->ttc);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_fg_create(dev, o->ttc, 0, TTC_L4_END, &l4, &o->fg_tt_l4);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_fg_create(dev, o->ttc, TTC_L4_END + 1, TTC_L3_END, &l3,
						 &o->fg_tt_l3);
	if (ret == 0)
		ret = mlx5v_ethdev_cmd_fg_create(dev, o->ttc, MLX5V_ETH_TT_ANY, MLX5V_ETH_TT_ANY,
						 NULL, &o->fg_tt_any);
	return ret != 0 ? ret : mlx5v_ethflow_tt_entries_set(dev, o, o->tir);
}

/* Undo mlx5v_ethflow_ttc_create() as far as it went. */
static void
mlx5v_ethflow_ttc_destroy(struct mlx5v_dev *dev, struct mlx5v_ethdev_objs *o)
{
	if (o->ttc == 0)
		return;
	mlx5v_ethflow_tt_entries_clear(dev, o);
	if (o->fg_tt_any != 0)
		mlx5v_ethdev_cmd_fg_destroy(dev, o->ttc, o->fg_tt_any);
	if (o->fg_tt_l3 != 0)
		mlx5v_ethdev_cmd_fg_destroy(dev, o->ttc, o->fg_tt_l3);
	if (o->fg_tt_l4 != 0)
		mlx5v_ethdev_cmd_fg_destroy(dev, o->ttc, o->fg_tt_l4);
	o->fg_tt_any = 0;
	o->fg_tt_l3 = 0;
	o->fg_tt_l4 = 0;
	mlx5v_ethdev_cmd_ft_destroy(dev, o->ttc);
	o->ttc = 0;
}

/* Delete every entry the table holds. */
static void
mlx5v_ethflow_entries_clear(struct rte_eth_dev *eth_dev, struct mlx5v_dev *dev)
{
	struct mlx5v_ethdev_objs *o = &mlx5v_ethflow_priv_of(eth_dev)->obj;
	uint32_t i;

	if (o->fte_all)
		mlx5v_ethdev_cmd_fte_delete(dev, o->ft, FG_ALL_START);
	o->fte_all = 0;
	if (o->fte_mc)
		mlx5v_ethdev_cmd_fte_delete(dev, o->ft, FG_MC_START);
	o->fte_mc = 0;
	for (i = o->n_fte; i > 0; i--)
		mlx5v_ethdev_cmd_fte_delete(dev, o->ft, i - 1);
	o->n_fte = 0;
}

/* One full-dmac entry more. @return 0 or -errno. */
static int
mlx5v_ethflow_entry_mac(struct mlx5v_dev *dev, struct mlx5v_ethdev_objs *o,
			const struct rte_ether_addr *m)
{
	const struct mlx5v_ethdev_match v = { .dmac = m };
	int ret;

	if (o->n_fte > FG_MAC_END)
		return -ENOSPC;
	ret = mlx5v_ethdev_cmd_fte_set(dev, o->ft, o->n_fte, o->fg_mac, 1, o->ttc, &v);
	if (ret == 0)
		o->n_fte++;
	return ret;
}

/*
 * Set the entries: each MAC address, broadcast, each multicast list address; any multicast
 * when all-multicast, match-all when promiscuous.
 */
static int
mlx5v_ethflow_entries_set(struct rte_eth_dev *eth_dev, struct mlx5v_dev *dev)
{
	struct mlx5v_ethdev_priv *priv = mlx5v_ethflow_priv_of(eth_dev);
	struct mlx5v_ethdev_objs *o = &priv->obj;
	unsigned int i;
	int ret;

	for (i = 0; i < MLX5V_ETH_MAX_MAC; i++) {
		const struct rte_ether_addr *m = &eth_dev->data->mac_addrs[i];

		if (rte_is_zero_ether_addr(m))
			continue;
		ret = mlx5v_ethflow_entry_mac(dev, o, m);
		if (ret != 0)
			return ret;
	}
	ret = mlx5v_ethflow_entry_mac(dev, o, &mac_full);
	for (i = 0; ret == 0 && i < priv->nb_mc; i++)
		ret = mlx5v_ethflow_entry_mac(dev, o, &priv->mc[i]);
	if (ret != 0)
		return ret;
	if (priv->allmulti) {
		ret = mlx5v_ethdev_cmd_fte_set(dev, o->ft, FG_MC_START, o->fg_mc, 1, o->ttc,
					       &match_group);
		if (ret != 0)
			return ret;
		o->fte_mc = 1;
	}
	if (priv->promisc) {
		ret = mlx5v_ethdev_cmd_fte_set(dev, o->ft, FG_ALL_START, o->fg_all, 1, o->ttc,
					       NULL);
		if (ret != 0)
			return ret;
		o->fte_all = 1;
	}
	return 0;
}

int
mlx5v_ethflow_create(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_ethdev_objs *o = &mlx5v_ethflow_priv_of(eth_dev)->obj;
	uint32_t rqn[MLX5V_ETH_RETA_SIZE];
	int ret;

	/* Isolated: the rules alone receive (rte_flow_isolate()). */
	if (mlx5v_ethflow_priv_of(eth_dev)->rflow.isolated) {
		ret = mlx5v_rte_flow_start(eth_dev, 0);
		if (ret != 0)
			goto error;
		return 0;
	}
	mlx5v_ethflow_rqt_list(eth_dev, rqn);
	ret = mlx5v_ethdev_cmd_rqt_create(dev, rqn, MLX5V_ETH_RETA_SIZE, &o->rqt);
	if (ret != 0)
		goto error;
	ret = mlx5v_ethflow_tirs_create(eth_dev, dev, o->tir);
	if (ret != 0)
		goto error;
	ret = mlx5v_ethflow_ttc_create(dev, o);
	if (ret != 0)
		goto error;
	ret = mlx5v_ethdev_cmd_ft_create(dev, 1, MLX5V_ETH_FT_LOG_SIZE, &o->ft);
	if (ret != 0)
		goto error;
	ret = mlx5v_ethdev_cmd_fg_create(dev, o->ft, 0, FG_MAC_END, &match_full, &o->fg_mac);
	if (ret != 0)
		goto error;
	ret = mlx5v_ethdev_cmd_fg_create(dev, o->ft, FG_MC_START, FG_MC_START, &match_group,
					 &o->fg_mc);
	if (ret != 0)
		goto error;
	ret = mlx5v_ethdev_cmd_fg_create(dev, o->ft, FG_ALL_START, FT_ENTRIES - 1, NULL,
					 &o->fg_all);
	if (ret != 0)
		goto error;
	ret = mlx5v_ethflow_entries_set(eth_dev, dev);
	if (ret != 0)
		goto error;
	/* Group 0 of rte_flow first, its miss here. */
	ret = mlx5v_rte_flow_start(eth_dev, o->ft);
	if (ret != 0)
		goto error;
	return 0;

error:
	/* mlx5v_ethflow_destroy() undoes exactly what exists (each number 0 = not made). */
	mlx5v_ethflow_destroy(eth_dev);
	return ret;
}

void
mlx5v_ethflow_destroy(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_ethdev_objs *o = &mlx5v_ethflow_priv_of(eth_dev)->obj;

	/* The root and the rules first: group 0's table misses into this one. */
	mlx5v_rte_flow_stop(eth_dev);
	if (dev == NULL)
		return;
	if (o->ft != 0)
		mlx5v_ethflow_entries_clear(eth_dev, dev);
	if (o->fg_all != 0)
		mlx5v_ethdev_cmd_fg_destroy(dev, o->ft, o->fg_all);
	if (o->fg_mc != 0)
		mlx5v_ethdev_cmd_fg_destroy(dev, o->ft, o->fg_mc);
	if (o->fg_mac != 0)
		mlx5v_ethdev_cmd_fg_destroy(dev, o->ft, o->fg_mac);
	o->fg_all = 0;
	o->fg_mc = 0;
	o->fg_mac = 0;
	if (o->ft != 0)
		mlx5v_ethdev_cmd_ft_destroy(dev, o->ft);
	o->ft = 0;
	mlx5v_ethflow_ttc_destroy(dev, o);
	mlx5v_ethflow_tirs_destroy(dev, o->tir);
	if (o->rqt != 0)
		mlx5v_ethdev_cmd_destroy(dev, MLX5V_ETHDEV_OBJ_RQT, o->rqt);
	o->rqt = 0;
}

int
mlx5v_ethflow_sync(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_ethdev_objs *o = &mlx5v_ethflow_priv_of(eth_dev)->obj;

	if (dev == NULL || o->ft == 0)
		return 0;
	mlx5v_ethflow_entries_clear(eth_dev, dev);
	return mlx5v_ethflow_entries_set(eth_dev, dev);
}

int
mlx5v_ethflow_rss_hash_update(struct rte_eth_dev *eth_dev, struct rte_eth_rss_conf *conf)
{
	struct mlx5v_ethdev_priv *priv = mlx5v_ethflow_priv_of(eth_dev);
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	struct mlx5v_ethdev_objs *o = &priv->obj;
	uint8_t old_key[MLX5V_ETH_RSS_KEY_LEN];
	uint64_t old_hf = priv->rss_hf;
	uint32_t tir[MLX5V_ETH_TT_N];
	int ret;

	if (conf->rss_hf & ~MLX5V_ETH_RSS_HF) {
		MLX5V_ETH_LOG(ERR, "port %u: RSS types 0x%" PRIx64 " not supported",
			      eth_dev->data->port_id, conf->rss_hf & ~MLX5V_ETH_RSS_HF);
		return -EINVAL;
	}
	if (conf->rss_key != NULL && conf->rss_key_len != MLX5V_ETH_RSS_KEY_LEN) {
		MLX5V_ETH_LOG(ERR, "port %u: RSS key of %u bytes, %u required",
			      eth_dev->data->port_id, conf->rss_key_len, MLX5V_ETH_RSS_KEY_LEN);
		return -EINVAL;
	}
	memcpy(old_key, priv->rss_key, sizeof(old_key));
	if (conf->rss_key != NULL)
		memcpy(priv->rss_key, conf->rss_key, MLX5V_ETH_RSS_KEY_LEN);
	priv->rss_hf = conf->rss_hf;
	if (dev == NULL || o->ttc == 0)
		return 0;
	/*
	 * Started: new TIRs, the TTC entries moved onto them, then the old TIRs go. A class
	 * misses (and drops) between the deletion and the new setting of its entry.
	 */
	ret = mlx5v_ethflow_tirs_create(eth_dev, dev, tir);
	if (ret == 0) {
		mlx5v_ethflow_tt_entries_clear(dev, o);
		ret = mlx5v_ethflow_tt_entries_set(dev, o, tir);
		if (ret == 0) {
			mlx5v_ethflow_tirs_destroy(dev, o->tir);
			memcpy(o->tir, tir, sizeof(tir));
			return 0;
		}
		mlx5v_ethflow_tt_entries_clear(dev, o);
		mlx5v_ethflow_tirs_destroy(dev, tir);
		if (mlx5v_ethflow_tt_entries_set(dev, o, o->tir) != 0)
			MLX5V_ETH_LOG(ERR, "port %u: traffic class entries not restored",
				      eth_dev->data->port_id);
	}
	priv->rss_hf = old_hf;
	memcpy(priv->rss_key, old_key, sizeof(old_key));
	return ret;
}

int
mlx5v_ethflow_rss_hash_conf_get(struct rte_eth_dev *eth_dev, struct rte_eth_rss_conf *conf)
{
	const struct mlx5v_ethdev_priv *priv = mlx5v_ethflow_priv_of(eth_dev);

	if (conf->rss_key != NULL) {
		if (conf->rss_key_len < MLX5V_ETH_RSS_KEY_LEN)
			return -EINVAL;
		memcpy(conf->rss_key, priv->rss_key, MLX5V_ETH_RSS_KEY_LEN);
	}
	conf->rss_key_len = MLX5V_ETH_RSS_KEY_LEN;
	conf->rss_hf = priv->rss_hf;
	return 0;
}

int
mlx5v_ethflow_reta_update(struct rte_eth_dev *eth_dev, struct rte_eth_rss_reta_entry64 *conf,
			  uint16_t size)
{
	struct mlx5v_ethdev_priv *priv = mlx5v_ethflow_priv_of(eth_dev);
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	uint16_t reta[MLX5V_ETH_RETA_SIZE];
	uint32_t rqn[MLX5V_ETH_RETA_SIZE];
	unsigned int i;
	int ret;

	if (size != MLX5V_ETH_RETA_SIZE) {
		MLX5V_ETH_LOG(ERR, "port %u: RETA size %u, %u required", eth_dev->data->port_id,
			      size, MLX5V_ETH_RETA_SIZE);
		return -EINVAL;
	}
	memcpy(reta, priv->reta, sizeof(reta));
	for (i = 0; i < size; i++) {
		const struct rte_eth_rss_reta_entry64 *e = &conf[i / RTE_ETH_RETA_GROUP_SIZE];
		unsigned int j = i % RTE_ETH_RETA_GROUP_SIZE;

		if (!(e->mask & (UINT64_C(1) << j)))
			continue;
		if (e->reta[j] >= eth_dev->data->nb_rx_queues) {
			MLX5V_ETH_LOG(ERR, "port %u: RETA entry %u names queue %u of %u",
				      eth_dev->data->port_id, i, e->reta[j],
				      eth_dev->data->nb_rx_queues);
			return -EINVAL;
		}
		reta[i] = e->reta[j];
	}
	if (dev != NULL && priv->obj.rqt != 0) {
		for (i = 0; i < MLX5V_ETH_RETA_SIZE; i++)
			rqn[i] = ((const struct mlx5v_rxq *)
				  eth_dev->data->rx_queues[reta[i]])->rqn;
		ret = mlx5v_ethdev_cmd_rqt_modify(dev, priv->obj.rqt, rqn, MLX5V_ETH_RETA_SIZE);
		if (ret != 0)
			return ret;
	}
	memcpy(priv->reta, reta, sizeof(reta));
	return 0;
}

int
mlx5v_ethflow_reta_query(struct rte_eth_dev *eth_dev, struct rte_eth_rss_reta_entry64 *conf,
			 uint16_t size)
{
	const struct mlx5v_ethdev_priv *priv = mlx5v_ethflow_priv_of(eth_dev);
	unsigned int i;

	if (size != MLX5V_ETH_RETA_SIZE)
		return -EINVAL;
	for (i = 0; i < size; i++) {
		struct rte_eth_rss_reta_entry64 *e = &conf[i / RTE_ETH_RETA_GROUP_SIZE];
		unsigned int j = i % RTE_ETH_RETA_GROUP_SIZE;

		if (e->mask & (UINT64_C(1) << j))
			e->reta[j] = priv->reta[i];
	}
	return 0;
}
