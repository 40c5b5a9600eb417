/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Receive steering of the mlx4v PMD: an RWQ indirection table over the Rx queues, an
 * RSS QP hashing over it (Toeplitz), and the steering rules that feed it: one per MAC
 * address, broadcast, one per multicast list address (full-mask MAC rules), promiscuous and
 * all-multicast, as DPDK's mlx4 builds them, at the last priority (0xfff) below the
 * application's rte_flow rules (mlx4v_rte_flow.c), and none of them while the port is isolated.
 *
 * A ConnectX-3 table lists consecutive WQ numbers aligned to its size, so the redirection
 * table ethdev sees can only spread over an aligned power-of-two block of Rx queues
 * (doc/guides/nics/mlx4v.rst).
 */

#include <errno.h>
#include <string.h>

#include "mlx4v_ethdev.h"

uint64_t
mlx4v_ethflow_hash_fields(uint64_t rss_hf)
{
	uint64_t f = 0;

	if (rss_hf & (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_OTHER |
		      RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV4_UDP))
		f |= RTE_PMD_MLX4V_RX_HASH_SRC_IPV4 | RTE_PMD_MLX4V_RX_HASH_DST_IPV4;
	if (rss_hf & (RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_FRAG_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_OTHER |
		      RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_NONFRAG_IPV6_UDP |
		      RTE_ETH_RSS_IPV6_EX | RTE_ETH_RSS_IPV6_TCP_EX | RTE_ETH_RSS_IPV6_UDP_EX))
		f |= RTE_PMD_MLX4V_RX_HASH_SRC_IPV6 | RTE_PMD_MLX4V_RX_HASH_DST_IPV6;
	if (rss_hf & (RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV6_TCP |
		      RTE_ETH_RSS_IPV6_TCP_EX))
		f |= RTE_PMD_MLX4V_RX_HASH_SRC_PORT_TCP | RTE_PMD_MLX4V_RX_HASH_DST_PORT_TCP;
	if (rss_hf & (RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_NONFRAG_IPV6_UDP |
		      RTE_ETH_RSS_IPV6_UDP_EX))
		f |= RTE_PMD_MLX4V_RX_HASH_SRC_PORT_UDP | RTE_PMD_MLX4V_RX_HASH_DST_PORT_UDP;
	return f;
}

/*
 * The block of Rx queues a redirection table spreads over: entry i must be base + i % n, n a
 * power of two, base a multiple of n. @return 0 or -EINVAL.
 */
static int
mlx4v_ethflow_reta_block(const uint16_t *reta, uint16_t nb_rxq, uint16_t *base, uint32_t *log)
{
	uint16_t n = 1, b, i;

	/* The block size is where the first entry repeats, or the whole table. */
	while (n < MLX4V_ETH_RETA_SIZE && reta[n] != reta[0])
		n++;
	if (!rte_is_power_of_2(n) || n > MLX4V_ETH_MAX_QUEUES)
		return -EINVAL;
	b = reta[0];
	if (b % n != 0 || b + n > nb_rxq)
		return -EINVAL;
	for (i = 0; i < MLX4V_ETH_RETA_SIZE; i++)
		if (reta[i] != b + i % n)
			return -EINVAL;
	*base = b;
	*log = rte_log2_u32(n);
	return 0;
}

static struct rte_pmd_mlx4v_flow *
mlx4v_ethflow_rule(struct mlx4v_ethdev_priv *priv, enum rte_pmd_mlx4v_flow_type type,
		   const struct rte_ether_addr *mac)
{
	/*
	 * The last priority, as DPDK's mlx4: the application's rules (mlx4v_rte_flow.c) come
	 * first.
	 */
	struct rte_pmd_mlx4v_flow_attr fa = {
		.type = type, .port = priv->port, .priority = RTE_PMD_MLX4V_FLOW_PRIORITY_LAST,
	};
	struct rte_pmd_mlx4v_flow *flow;

	if (mac != NULL)
		memcpy(fa.dmac, mac->addr_bytes, sizeof(fa.dmac));
	flow = rte_pmd_mlx4v_create_flow(priv->rss_qp, &fa);
	if (flow == NULL)
		MLX4V_ETH_LOG(ERR, "port %u: steering rule (type %d) refused: %s", priv->port_id,
			      type, strerror(rte_errno));
	return flow;
}

static void
mlx4v_ethflow_rule_drop(struct rte_pmd_mlx4v_flow **flow)
{
	if (*flow != NULL && rte_pmd_mlx4v_destroy_flow(*flow) != 0)
		MLX4V_ETH_LOG(WARNING, "destroying a steering rule: %s", strerror(rte_errno));
	*flow = NULL;
}

/* One rule present (want) or absent: made or destroyed as needed. @return 0 or -errno. */
static int
mlx4v_ethflow_rule_set(struct mlx4v_ethdev_priv *priv, struct rte_pmd_mlx4v_flow **flow,
		       int want, enum rte_pmd_mlx4v_flow_type type,
		       const struct rte_ether_addr *mac)
{
	if (!want) {
		mlx4v_ethflow_rule_drop(flow);
		return 0;
	}
	if (*flow != NULL)
		return 0;
	*flow = mlx4v_ethflow_rule(priv, type, mac);
	return *flow != NULL ? 0 : -rte_errno;
}

int
mlx4v_ethflow_sync(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	const struct rte_ether_addr *mac = eth_dev->data->mac_addrs;
	static const struct rte_ether_addr bcast = {
		.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	/* Isolated (rte_flow_isolate()): none of the port's own rules. */
	const int on = !priv->isolated;
	unsigned int i;
	int ret;

	if (priv->rss_qp == NULL)
		return 0;
	for (i = 0; i < MLX4V_ETH_MAX_MAC; i++) {
		ret = mlx4v_ethflow_rule_set(priv, &priv->flow_mac[i],
					     on && !rte_is_zero_ether_addr(&mac[i]),
					     RTE_PMD_MLX4V_FLOW_MAC, &mac[i]);
		if (ret != 0)
			return ret;
	}
	ret = mlx4v_ethflow_rule_set(priv, &priv->flow_bcast, on, RTE_PMD_MLX4V_FLOW_MAC, &bcast);
	for (i = 0; ret == 0 && i < MLX4V_ETH_MAX_MC; i++)
		ret = mlx4v_ethflow_rule_set(priv, &priv->flow_mc[i], on && i < priv->nb_mc,
					     RTE_PMD_MLX4V_FLOW_MAC, &priv->mc[i]);
	if (ret == 0)
		ret = mlx4v_ethflow_rule_set(priv, &priv->flow_allmulti, on && priv->allmulti,
					     RTE_PMD_MLX4V_FLOW_ALLMULTI, NULL);
	if (ret == 0)
		ret = mlx4v_ethflow_rule_set(priv, &priv->flow_promisc, on && priv->promisc,
					     RTE_PMD_MLX4V_FLOW_PROMISC, NULL);
	return ret;
}

int
mlx4v_ethflow_mac_set(struct rte_eth_dev *eth_dev, uint32_t index,
		      const struct rte_ether_addr *mac)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_pmd_mlx4v_flow *flow = NULL;

	if (index >= MLX4V_ETH_MAX_MAC)
		return -EINVAL;
	if (priv->rss_qp == NULL || priv->isolated)
		return 0;
	if (mac != NULL) {
		flow = mlx4v_ethflow_rule(priv, RTE_PMD_MLX4V_FLOW_MAC, mac);
		if (flow == NULL)
			return -rte_errno;
	}
	mlx4v_ethflow_rule_drop(&priv->flow_mac[index]);
	priv->flow_mac[index] = flow;
	return 0;
}

int
mlx4v_ethflow_mc_set(struct rte_eth_dev *eth_dev, const struct rte_ether_addr *list, uint32_t n)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_ether_addr old[MLX4V_ETH_MAX_MC];
	uint32_t i, old_n = priv->nb_mc;
	int ret;

	if (n > MLX4V_ETH_MAX_MC) {
		MLX4V_ETH_LOG(ERR, "port %u: %u multicast addresses, at most %u", priv->port_id,
			      n, MLX4V_ETH_MAX_MC);
		return -ENOSPC;
	}
	for (i = 0; i < n; i++)
		if (!rte_is_multicast_ether_addr(&list[i])) {
			MLX4V_ETH_LOG(ERR, "port %u: address %u of the multicast list is not "
				      "multicast", priv->port_id, i);
			return -EINVAL;
		}
	/* The rules name their address: all of them again for the new list. */
	for (i = 0; i < MLX4V_ETH_MAX_MC; i++)
		mlx4v_ethflow_rule_drop(&priv->flow_mc[i]);
	memcpy(old, priv->mc, sizeof(old));
	if (n > 0)
		memcpy(priv->mc, list, n * sizeof(*list));
	priv->nb_mc = n;
	ret = mlx4v_ethflow_sync(eth_dev);
	if (ret == 0)
		return 0;
	for (i = 0; i < MLX4V_ETH_MAX_MC; i++)
		mlx4v_ethflow_rule_drop(&priv->flow_mc[i]);
	memcpy(priv->mc, old, sizeof(old));
	priv->nb_mc = old_n;
	if (mlx4v_ethflow_sync(eth_dev) != 0)
		MLX4V_ETH_LOG(ERR, "port %u: multicast rules not restored", priv->port_id);
	return ret;
}

void
mlx4v_ethflow_rss_ctx_destroy(struct rte_eth_dev *eth_dev, struct rte_pmd_mlx4v_ind_table **ind,
			      struct rte_pmd_mlx4v_qp **qp)
{
	const struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);

	if (*qp != NULL && rte_pmd_mlx4v_destroy_qp(*qp) != 0)
		MLX4V_ETH_LOG(WARNING, "port %u: RSS QP: %s", priv->port_id, strerror(rte_errno));
	*qp = NULL;
	if (*ind != NULL && rte_pmd_mlx4v_destroy_rwq_ind_table(*ind) != 0)
		MLX4V_ETH_LOG(WARNING, "port %u: indirection table: %s", priv->port_id,
			      strerror(rte_errno));
	*ind = NULL;
}

int
mlx4v_ethflow_rss_ctx(struct rte_eth_dev *eth_dev, uint16_t base, uint32_t log,
		      uint64_t hash_fields, const uint8_t *key,
		      struct rte_pmd_mlx4v_ind_table **ind, struct rte_pmd_mlx4v_qp **qp)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_pmd_mlx4v_wq *wqs[MLX4V_ETH_MAX_QUEUES];
	struct rte_pmd_mlx4v_rss_qp_attr ra;
	const struct mlx4v_rxq *rxq;
	uint32_t i, n = 1u << log;
	int ret;

	for (i = 0; i < n; i++) {
		rxq = eth_dev->data->rx_queues[base + i];
		wqs[i] = rxq->wq;
	}
	*ind = rte_pmd_mlx4v_create_rwq_ind_table(priv->dev, log, wqs);
	if (*ind == NULL)
		goto error;
	memset(&ra, 0, sizeof(ra));
	ra.ind_table = *ind;
	ra.hash_fields = hash_fields;
	ra.key = key;
	ra.port = priv->port;
	*qp = rte_pmd_mlx4v_create_rss_qp(priv->pd, &ra);
	if (*qp == NULL)
		goto error;
	/* An RSS QP stops at RTR: it only receives. */
	if (rte_pmd_mlx4v_modify_qp(*qp, RTE_PMD_MLX4V_QPS_INIT) != 0 ||
	    rte_pmd_mlx4v_modify_qp(*qp, RTE_PMD_MLX4V_QPS_RTR) != 0)
		goto error;
	return 0;

error:
	ret = rte_errno != 0 ? -rte_errno : -EIO;
	MLX4V_ETH_LOG(ERR, "port %u: RSS over %u Rx queues from %u failed: %s", priv->port_id,
		      n, base, strerror(-ret));
	mlx4v_ethflow_rss_ctx_destroy(eth_dev, ind, qp);
	return ret;
}

/* Every rule, then the RSS QP, then the table (they reference each other in this order). */
void
mlx4v_ethflow_destroy(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	unsigned int i;

	for (i = 0; i < MLX4V_ETH_MAX_MAC; i++)
		mlx4v_ethflow_rule_drop(&priv->flow_mac[i]);
	mlx4v_ethflow_rule_drop(&priv->flow_bcast);
	for (i = 0; i < MLX4V_ETH_MAX_MC; i++)
		mlx4v_ethflow_rule_drop(&priv->flow_mc[i]);
	mlx4v_ethflow_rule_drop(&priv->flow_allmulti);
	mlx4v_ethflow_rule_drop(&priv->flow_promisc);
	mlx4v_ethflow_rss_ctx_destroy(eth_dev, &priv->ind, &priv->rss_qp);
}

int
mlx4v_ethflow_create(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint32_t i, n;
	int ret;

	ret = mlx4v_ethflow_reta_block(priv->reta, eth_dev->data->nb_rx_queues,
				       &priv->ind_base, &priv->ind_log);
	if (ret != 0) {
		/* A RETA of an earlier configuration: back to the default one. */
		priv->ind_base = 0;
		priv->ind_log = rte_log2_u32(rte_align32prevpow2(eth_dev->data->nb_rx_queues));
		for (i = 0; i < MLX4V_ETH_RETA_SIZE; i++)
			priv->reta[i] = i % (1u << priv->ind_log);
		priv->reta_set = 0;
	}
	n = 1u << priv->ind_log;
	/* One queue has nothing to spread over: no fields, every frame to entry 0. */
	ret = mlx4v_ethflow_rss_ctx(eth_dev, priv->ind_base, priv->ind_log,
				    n > 1 ? mlx4v_ethflow_hash_fields(priv->rss_hf) : 0,
				    priv->rss_key, &priv->ind, &priv->rss_qp);
	if (ret == 0)
		ret = mlx4v_ethflow_sync(eth_dev);
	if (ret != 0)
		mlx4v_ethflow_destroy(eth_dev);
	return ret;
}

/* Started: the table, RSS QP and rules again, with the new settings. */
static int
mlx4v_ethflow_recreate(struct rte_eth_dev *eth_dev)
{
	if (mlx4v_priv(eth_dev)->rss_qp == NULL)
		return 0;
	mlx4v_ethflow_destroy(eth_dev);
	return mlx4v_ethflow_create(eth_dev);
}

int
mlx4v_ethflow_rss_hash_update(struct rte_eth_dev *eth_dev, struct rte_eth_rss_conf *conf)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint8_t key[MLX4V_ETH_RSS_KEY_LEN];
	uint64_t hf = priv->rss_hf;
	int ret;

	if (priv->dead)
		return -EIO;
	if (conf->rss_key != NULL && conf->rss_key_len != MLX4V_ETH_RSS_KEY_LEN) {
		MLX4V_ETH_LOG(ERR, "port %u: RSS key of %u bytes, the device takes %u",
			      priv->port_id, conf->rss_key_len, MLX4V_ETH_RSS_KEY_LEN);
		return -EINVAL;
	}
	if (conf->rss_hf & ~MLX4V_ETH_RSS_HF) {
		MLX4V_ETH_LOG(ERR, "port %u: RSS types 0x%" PRIx64 " not supported",
			      priv->port_id, conf->rss_hf & ~MLX4V_ETH_RSS_HF);
		return -EINVAL;
	}
	memcpy(key, priv->rss_key, sizeof(key));
	if (conf->rss_key != NULL)
		memcpy(priv->rss_key, conf->rss_key, sizeof(priv->rss_key));
	priv->rss_hf = conf->rss_hf;
	ret = mlx4v_ethflow_recreate(eth_dev);
	if (ret != 0) {
		memcpy(priv->rss_key, key, sizeof(key));
		priv->rss_hf = hf;
		if (mlx4v_ethflow_recreate(eth_dev) != 0)
			MLX4V_ETH_LOG(ERR, "port %u: receive steering lost", priv->port_id);
	}
	return ret;
}

int
mlx4v_ethflow_rss_hash_conf_get(struct rte_eth_dev *eth_dev, struct rte_eth_rss_conf *conf)
{
	const struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);

	if (conf->rss_key != NULL) {
		if (conf->rss_key_len < MLX4V_ETH_RSS_KEY_LEN)
			return -EINVAL;
		memcpy(conf->rss_key, priv->rss_key, MLX4V_ETH_RSS_KEY_LEN);
	}
	conf->rss_key_len = MLX4V_ETH_RSS_KEY_LEN;
	conf->rss_hf = priv->rss_hf;
	return 0;
}

int
mlx4v_ethflow_reta_update(struct rte_eth_dev *eth_dev, struct rte_eth_rss_reta_entry64 *conf,
			  uint16_t size)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	uint16_t reta[MLX4V_ETH_RETA_SIZE], old[MLX4V_ETH_RETA_SIZE], base;
	uint32_t log;
	unsigned int i, g, b;
	int ret;

	if (priv->dead)
		return -EIO;
	if (size != MLX4V_ETH_RETA_SIZE) {
		MLX4V_ETH_LOG(ERR, "port %u: RETA of %u entries, the port has %u", priv->port_id,
			      size, MLX4V_ETH_RETA_SIZE);
		return -EINVAL;
	}
	memcpy(reta, priv->reta, sizeof(reta));
	for (i = 0; i < size; i++) {
		g = i / RTE_ETH_RETA_GROUP_SIZE;
		b = i % RTE_ETH_RETA_GROUP_SIZE;
		if (conf[g].mask & (UINT64_C(1) << b))
			reta[i] = conf[g].reta[b];
	}
	ret = mlx4v_ethflow_reta_block(reta, eth_dev->data->nb_rx_queues, &base, &log);
	if (ret != 0) {
		MLX4V_ETH_LOG(ERR, "port %u: a ConnectX-3 spreads over an aligned power-of-two "
			      "block of Rx queues: entry i must be base + i %% n (n a power "
			      "of two, base a multiple of n, within %u queues)", priv->port_id,
			      eth_dev->data->nb_rx_queues);
		return ret;
	}
	memcpy(old, priv->reta, sizeof(old));
	memcpy(priv->reta, reta, sizeof(reta));
	ret = mlx4v_ethflow_recreate(eth_dev);
	if (ret != 0) {
		memcpy(priv->reta, old, sizeof(old));
		if (mlx4v_ethflow_recreate(eth_dev) != 0)
			MLX4V_ETH_LOG(ERR, "port %u: receive steering lost", priv->port_id);
		return ret;
	}
	priv->reta_set = 1;
	return 0;
}

int
mlx4v_ethflow_reta_query(struct rte_eth_dev *eth_dev, struct rte_eth_rss_reta_entry64 *conf,
			 uint16_t size)
{
	const struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	unsigned int i, g, b;

	if (size != MLX4V_ETH_RETA_SIZE)
		return -EINVAL;
	for (i = 0; i < size; i++) {
		g = i / RTE_ETH_RETA_GROUP_SIZE;
		b = i % RTE_ETH_RETA_GROUP_SIZE;
		if (conf[g].mask & (UINT64_C(1) << b))
			conf[g].reta[b] = priv->reta[i];
	}
	return 0;
}
