/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The generic flow API (rte_flow) of the mlx4v PMD, as DPDK's mlx4 offers it over verbs
 * steering rules (doc/guides/nics/mlx4v.rst, "Flow rules (rte_flow)"):
 *
 * - pattern ETH [VLAN] [IPV4 [UDP | TCP]]: ETH matches the destination MAC with a full mask,
 *   every frame (empty mask: a promiscuous rule) or every group frame (mask 01:00:00:00:00:00:
 *   an all-multicast rule, nothing after it); VLAN the VLAN ID; IPV4 its addresses, UDP and
 *   TCP their ports, each with a full or an empty mask;
 * - one fate: QUEUE, RSS (an aligned power-of-two block of queues, Toeplitz) or DROP (the
 *   default), as a verbs rule on its own RSS QP over an indirection table, or on the port's
 *   drop QP, which has a receive queue that is never posted to;
 * - priorities 0 to 0xfff, the last kept for the port's own MAC rules (mlx4v_ethflow.c) unless
 *   the port is isolated, which removes those.
 *
 * Rules live while the port is started; a rule created while stopped is applied at start.
 */

#include <errno.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_flow_driver.h>
#include <rte_malloc.h>

#include "mlx4v_ethdev.h"

/** A rule of the application. */
struct rte_flow {
	TAILQ_ENTRY(rte_flow) next;
	struct rte_pmd_mlx4v_flow_attr fa;  /**< the verbs rule, port set at apply */
	int drop;                           /**< DROP, else QUEUE or RSS */
	uint16_t base;                      /**< first Rx queue of the block */
	uint8_t log;                        /**< log2 of the block's queues */
	uint64_t hash_fields;               /**< RTE_PMD_MLX4V_RX_HASH_* (0 for one queue) */
	uint8_t key[MLX4V_ETH_RSS_KEY_LEN];
	/* While the port is started. */
	struct rte_pmd_mlx4v_ind_table *ind;
	struct rte_pmd_mlx4v_qp *rss_qp;
	struct rte_pmd_mlx4v_flow *hw;
};

/* RSS types DPDK's mlx4 also takes, hashed as IPv6 without extension headers. */
#define MLX4V_FLOW_RSS_EX (RTE_ETH_RSS_IPV6_EX | RTE_ETH_RSS_IPV6_TCP_EX | RTE_ETH_RSS_IPV6_UDP_EX)

static const uint8_t mlx4v_flow_key_default[MLX4V_ETH_RSS_KEY_LEN] =
	RTE_PMD_MLX4V_RSS_KEY_DEFAULT;

/* @return -code, rte_errno code, error filled. */
static int
mlx4v_flow_err(struct rte_flow_error *error, int code, enum rte_flow_error_type type,
	       const void *cause, const char *msg)
{
	return rte_flow_error_set(error, code, type, cause, msg);
}

/* @return 1 when no bit of mask (len bytes) is outside support. */
static int
mlx4v_flow_mask_within(const void *mask, const void *support, size_t len)
{
	const uint8_t *m = mask, *s = support;
	size_t i;

	for (i = 0; i < len; i++)
		if (m[i] & ~s[i])
			return 0;
	return 1;
}

/* A mask the device takes: none or every bit (len bytes). */
static int
mlx4v_flow_mask_whole(const void *mask, size_t len)
{
	const uint8_t *m = mask;
	size_t i, ones = 0;

	for (i = 0; i < len; i++)
		ones += m[i] == 0xff;
	for (i = 0; i < len; i++)
		if (m[i] != 0 && m[i] != 0xff)
			return 0;
	return ones == 0 || ones == len;
}

static int
mlx4v_flow_item_eth(struct rte_flow *flow, const struct rte_flow_item *item,
		    struct rte_flow_error *error)
{
	static const struct rte_flow_item_eth support = {
		.dst.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	static const uint8_t group[RTE_ETHER_ADDR_LEN] = { 0x01 };
	const struct rte_flow_item_eth *spec = item->spec;
	const struct rte_flow_item_eth *mask = item->mask ? item->mask : &rte_flow_item_eth_mask;

	if (spec == NULL || rte_is_zero_ether_addr(&mask->dst)) {
		if (spec != NULL && !mlx4v_flow_mask_within(mask, &support, sizeof(*mask)))
			goto bad_field;
		flow->fa.type = RTE_PMD_MLX4V_FLOW_PROMISC;
		return 0;
	}
	if (!mlx4v_flow_mask_within(mask, &support, sizeof(*mask)))
		goto bad_field;
	if (memcmp(mask->dst.addr_bytes, group, sizeof(group)) == 0) {
		if (!rte_is_multicast_ether_addr(&spec->dst))
			return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
					      "ETH dst: the device cannot match every unicast "
					      "frame (group bit 0 under mask 01:00:00:00:00:00)");
		flow->fa.type = RTE_PMD_MLX4V_FLOW_ALLMULTI;
		return 0;
	}
	if (!rte_is_broadcast_ether_addr(&mask->dst))
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				      "ETH dst mask: full, empty or 01:00:00:00:00:00 only");
	flow->fa.type = RTE_PMD_MLX4V_FLOW_MAC;
	memcpy(flow->fa.dmac, spec->dst.addr_bytes, sizeof(flow->fa.dmac));
	return 0;
bad_field:
	return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "ETH: only the destination MAC can be matched (src and type "
			      "masks must be 0)");
}

static int
mlx4v_flow_item_vlan(struct rte_flow *flow, const struct rte_flow_item *item,
		     struct rte_flow_error *error)
{
	const struct rte_flow_item_vlan *spec = item->spec;
	const struct rte_flow_item_vlan *mask = item->mask ? item->mask :
		&rte_flow_item_vlan_mask;

	if (spec == NULL || mask->tci != RTE_BE16(0x0fff) || mask->inner_type != 0)
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				      "VLAN: the VLAN ID alone (tci mask 0x0fff, no inner_type)");
	flow->fa.match |= RTE_PMD_MLX4V_FLOW_MATCH_VLAN;
	flow->fa.vid = rte_be_to_cpu_16(spec->tci) & 0x0fff;
	return 0;
}

static int
mlx4v_flow_item_ipv4(struct rte_flow *flow, const struct rte_flow_item *item,
		     struct rte_flow_error *error)
{
	static const struct rte_flow_item_ipv4 support = {
		.hdr = { .src_addr = RTE_BE32(UINT32_MAX), .dst_addr = RTE_BE32(UINT32_MAX) },
	};
	const struct rte_flow_item_ipv4 *spec = item->spec;
	const struct rte_flow_item_ipv4 *mask = item->mask ? item->mask :
		&rte_flow_item_ipv4_mask;

	flow->fa.match |= RTE_PMD_MLX4V_FLOW_MATCH_IPV4;
	if (spec == NULL)
		return 0;
	if (!mlx4v_flow_mask_within(mask, &support, sizeof(*mask)))
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				      "IPV4: only src and dst can be matched");
	if (!mlx4v_flow_mask_whole(&mask->hdr.src_addr, 4) ||
	    !mlx4v_flow_mask_whole(&mask->hdr.dst_addr, 4))
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				      "IPV4 src/dst: the device takes full or empty masks only");
	flow->fa.src_ip = spec->hdr.src_addr;
	flow->fa.src_ip_mask = mask->hdr.src_addr;
	flow->fa.dst_ip = spec->hdr.dst_addr;
	flow->fa.dst_ip_mask = mask->hdr.dst_addr;
	return 0;
}

/* UDP and TCP: their headers start with the two ports. */
static int
mlx4v_flow_item_l4(struct rte_flow *flow, const struct rte_flow_item *item,
		   uint32_t priority, struct rte_flow_error *error)
{
	static const struct rte_flow_item_tcp tcp_support = {
		.hdr = { .src_port = RTE_BE16(UINT16_MAX), .dst_port = RTE_BE16(UINT16_MAX) },
	};
	static const struct rte_flow_item_udp udp_support = {
		.hdr = { .src_port = RTE_BE16(UINT16_MAX), .dst_port = RTE_BE16(UINT16_MAX) },
	};
	int udp = item->type == RTE_FLOW_ITEM_TYPE_UDP;
	const void *mask = item->mask ? item->mask : udp ?
		(const void *)&rte_flow_item_udp_mask : (const void *)&rte_flow_item_tcp_mask;
	const rte_be16_t *sp = item->spec, *mp = mask;

	flow->fa.match |= udp ? RTE_PMD_MLX4V_FLOW_MATCH_UDP : RTE_PMD_MLX4V_FLOW_MATCH_TCP;
	if (sp == NULL)
		return 0;
	if (!mlx4v_flow_mask_within(mask, udp ? (const void *)&udp_support :
				    (const void *)&tcp_support,
				    udp ? sizeof(udp_support) : sizeof(tcp_support)))
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				      "UDP/TCP: only the ports can be matched");
	if (!mlx4v_flow_mask_whole(&mp[0], 2) || !mlx4v_flow_mask_whole(&mp[1], 2))
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				      "UDP/TCP ports: the device takes full or empty masks only");
	/* The firmware ranks a rule on a UDP destination port ignoring its priority. */
	if (udp && mp[1] != 0 && priority != 0)
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, item,
				      "UDP dst port: only at priority 0 (the device ignores the "
				      "priority of such a rule)");
	flow->fa.src_port = sp[0];
	flow->fa.src_port_mask = mp[0];
	flow->fa.dst_port = sp[1];
	flow->fa.dst_port_mask = mp[1];
	return 0;
}

/* The pattern ETH [VLAN] [IPV4 [UDP | TCP]]. @return 0 or -rte_errno. */
static int
mlx4v_flow_pattern(struct rte_flow *flow, const struct rte_flow_item *items, uint32_t priority,
		   struct rte_flow_error *error)
{
	const struct rte_flow_item *item;
	enum rte_flow_item_type prev = RTE_FLOW_ITEM_TYPE_END;
	int ret = 0;

	for (item = items; item->type != RTE_FLOW_ITEM_TYPE_END; item++) {
		if (item->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (item->last != NULL)
			return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST,
					      item, "ranges (last) are not supported");
		if (item->spec == NULL && item->mask != NULL)
			return mlx4v_flow_err(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_MASK,
					      item, "a mask without a spec");
		if (prev == RTE_FLOW_ITEM_TYPE_ETH &&
		    flow->fa.type != RTE_PMD_MLX4V_FLOW_MAC)
			return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, item,
					      "nothing can follow an ETH item that matches every "
					      "frame or every group frame");
		switch (item->type) {
		case RTE_FLOW_ITEM_TYPE_ETH:
			if (prev != RTE_FLOW_ITEM_TYPE_END)
				goto order;
			ret = mlx4v_flow_item_eth(flow, item, error);
			break;
		case RTE_FLOW_ITEM_TYPE_VLAN:
			if (prev != RTE_FLOW_ITEM_TYPE_ETH)
				goto order;
			ret = mlx4v_flow_item_vlan(flow, item, error);
			break;
		case RTE_FLOW_ITEM_TYPE_IPV4:
			if (prev != RTE_FLOW_ITEM_TYPE_ETH && prev != RTE_FLOW_ITEM_TYPE_VLAN)
				goto order;
			ret = mlx4v_flow_item_ipv4(flow, item, error);
			break;
		case RTE_FLOW_ITEM_TYPE_UDP:
		case RTE_FLOW_ITEM_TYPE_TCP:
			if (prev != RTE_FLOW_ITEM_TYPE_IPV4)
				goto order;
			ret = mlx4v_flow_item_l4(flow, item, priority, error);
			break;
		default:
			return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, item,
					      "item not supported (ETH, VLAN, IPV4, UDP, TCP)");
		}
		if (ret != 0)
			return ret;
		prev = item->type;
	}
	if (prev == RTE_FLOW_ITEM_TYPE_END)
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_NUM, items,
				      "the pattern must start with ETH");
	return 0;
order:
	return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, item,
			      "items in the order ETH [VLAN] [IPV4 [UDP | TCP]] only");
}

static int
mlx4v_flow_rss(struct rte_eth_dev *eth_dev, struct rte_flow *flow,
	       const struct rte_flow_action *action, struct rte_flow_error *error)
{
	const struct rte_flow_action_rss *rss = action->conf;
	uint64_t types;
	const char *msg = NULL;
	uint32_t i, n = rss->queue_num;

	if (rss->func != RTE_ETH_HASH_FUNCTION_DEFAULT &&
	    rss->func != RTE_ETH_HASH_FUNCTION_TOEPLITZ)
		msg = "RSS: Toeplitz is the only hash function";
	else if (rss->level > 1)
		msg = "RSS: no hash on inner headers (level 0 or 1)";
	else if (rss->key_len != 0 && rss->key_len != MLX4V_ETH_RSS_KEY_LEN)
		msg = "RSS: the key has 40 bytes";
	else if (n == 0 || !rte_is_power_of_2(n) || n > MLX4V_ETH_MAX_QUEUES)
		msg = "RSS: a power-of-two number of queues, at most 16";
	else if (rss->queue[0] % n != 0)
		msg = "RSS: the first queue must be a multiple of the number of queues";
	else if (rss->queue[0] + n > eth_dev->data->nb_rx_queues)
		msg = "RSS: queue beyond the configured Rx queues";
	else if (rss->types & ~(MLX4V_ETH_RSS_HF | MLX4V_FLOW_RSS_EX))
		msg = "RSS: hash types beyond IPv4, IPv6, TCP and UDP";
	for (i = 1; msg == NULL && i < n; i++)
		if (rss->queue[i] != rss->queue[0] + i)
			msg = "RSS: consecutive queues only (an indirection table lists "
			      "consecutive WQ numbers)";
	if (msg != NULL)
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, action,
				      msg);
	types = rss->types != 0 ? rss->types : MLX4V_ETH_RSS_HF_DEFAULT;
	/* The device hashes the IPv6 header without its extensions: the _EX types as theirs. */
	if (types & RTE_ETH_RSS_IPV6_EX)
		types |= RTE_ETH_RSS_IPV6;
	if (types & RTE_ETH_RSS_IPV6_TCP_EX)
		types |= RTE_ETH_RSS_NONFRAG_IPV6_TCP;
	if (types & RTE_ETH_RSS_IPV6_UDP_EX)
		types |= RTE_ETH_RSS_NONFRAG_IPV6_UDP;
	flow->base = rss->queue[0];
	flow->log = (uint8_t)rte_log2_u32(n);
	/* One queue has nothing to spread over. */
	flow->hash_fields = n > 1 ? mlx4v_ethflow_hash_fields(types) : 0;
	/* A length without a key asks for the default key, as in DPDK's mlx4. */
	memcpy(flow->key, rss->key_len != 0 && rss->key != NULL ? rss->key :
	       mlx4v_flow_key_default, sizeof(flow->key));
	return 0;
}

/* One fate: DROP (also without any), QUEUE or RSS. @return 0 or -rte_errno. */
static int
mlx4v_flow_actions(struct rte_eth_dev *eth_dev, struct rte_flow *flow,
		   const struct rte_flow_action *actions, struct rte_flow_error *error)
{
	const struct rte_flow_action *action;
	const struct rte_flow_action_queue *queue;
	int fate = 0, ret;

	flow->drop = 1;
	for (action = actions; action->type != RTE_FLOW_ACTION_TYPE_END; action++) {
		if (action->type == RTE_FLOW_ACTION_TYPE_VOID)
			continue;
		if (action->type == RTE_FLOW_ACTION_TYPE_COUNT)
			return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
					      "COUNT: the device has no flow counters");
		if (action->type != RTE_FLOW_ACTION_TYPE_DROP &&
		    action->type != RTE_FLOW_ACTION_TYPE_QUEUE &&
		    action->type != RTE_FLOW_ACTION_TYPE_RSS)
			return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
					      "action not supported (DROP, QUEUE, RSS)");
		if (fate++)
			return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
					      "one of DROP, QUEUE or RSS only");
		flow->drop = action->type == RTE_FLOW_ACTION_TYPE_DROP;
		memcpy(flow->key, mlx4v_flow_key_default, sizeof(flow->key));
		if (action->type == RTE_FLOW_ACTION_TYPE_RSS) {
			ret = mlx4v_flow_rss(eth_dev, flow, action, error);
			if (ret != 0)
				return ret;
		} else if (action->type == RTE_FLOW_ACTION_TYPE_QUEUE) {
			queue = action->conf;
			if (queue->index >= eth_dev->data->nb_rx_queues)
				return mlx4v_flow_err(error, EINVAL,
						      RTE_FLOW_ERROR_TYPE_ACTION_CONF, action,
						      "QUEUE: beyond the configured Rx queues");
			flow->base = queue->index;
		}
	}
	return 0;
}

/* The rule of attr, pattern and actions in flow. @return 0 or -rte_errno. */
static int
mlx4v_flow_prepare(struct rte_eth_dev *eth_dev, struct rte_flow *flow,
		   const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		   const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	const struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	int ret;

	memset(flow, 0, sizeof(*flow));
	if (attr->group != 0)
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
				      "groups are not supported");
	if (attr->priority > RTE_PMD_MLX4V_FLOW_PRIORITY_LAST)
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
				      "priority 0 (first) to 4095 (0xfff) only");
	if (attr->priority == RTE_PMD_MLX4V_FLOW_PRIORITY_LAST && !priv->isolated)
		return mlx4v_flow_err(error, EACCES, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
				      "priority 4095 belongs to the port's MAC rules unless "
				      "isolated");
	if (attr->egress || attr->transfer || !attr->ingress)
		return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR, attr,
				      "ingress rules only");
	flow->fa.priority = (uint16_t)attr->priority;
	ret = mlx4v_flow_pattern(flow, pattern, attr->priority, error);
	if (ret != 0)
		return ret;
	return mlx4v_flow_actions(eth_dev, flow, actions, error);
}

/* The port's drop QP: a receive queue never posted to drops what reaches it. */
static int
mlx4v_flow_drop_qp(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_pmd_mlx4v_qp_attr qa;

	if (priv->drop_qp != NULL)
		return 0;
	priv->drop_cq = rte_pmd_mlx4v_create_cq(priv->dev, 1, 0, 0);
	if (priv->drop_cq == NULL)
		return -rte_errno;
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = priv->drop_cq;
	qa.recv_cq = priv->drop_cq;
	qa.max_send_wr = 1;
	qa.max_send_sge = 1;
	qa.max_recv_wr = 1;
	qa.max_recv_sge = 1;
	qa.port = priv->port;
	priv->drop_qp = rte_pmd_mlx4v_create_qp(priv->pd, &qa);
	if (priv->drop_qp == NULL ||
	    rte_pmd_mlx4v_modify_qp(priv->drop_qp, RTE_PMD_MLX4V_QPS_INIT) != 0 ||
	    rte_pmd_mlx4v_modify_qp(priv->drop_qp, RTE_PMD_MLX4V_QPS_RTR) != 0) {
		int ret = -rte_errno;

		mlx4v_flow_drop_qp_destroy(eth_dev);
		return ret;
	}
	return 0;
}

void
mlx4v_flow_drop_qp_destroy(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);

	if (priv->drop_qp != NULL && rte_pmd_mlx4v_destroy_qp(priv->drop_qp) != 0)
		MLX4V_ETH_LOG(WARNING, "port %u: drop QP: %s", priv->port_id,
			      strerror(rte_errno));
	priv->drop_qp = NULL;
	if (priv->drop_cq != NULL && rte_pmd_mlx4v_destroy_cq(priv->drop_cq) != 0)
		MLX4V_ETH_LOG(WARNING, "port %u: drop CQ: %s", priv->port_id,
			      strerror(rte_errno));
	priv->drop_cq = NULL;
}

/* The verbs rule, then its RSS QP and table (they reference each other in this order). */
static void
mlx4v_flow_remove(struct rte_eth_dev *eth_dev, struct rte_flow *flow)
{
	if (flow->hw != NULL && rte_pmd_mlx4v_destroy_flow(flow->hw) != 0)
		MLX4V_ETH_LOG(WARNING, "port %u: flow rule: %s", eth_dev->data->port_id,
			      strerror(rte_errno));
	flow->hw = NULL;
	mlx4v_ethflow_rss_ctx_destroy(eth_dev, &flow->ind, &flow->rss_qp);
}

/*
 * The rule on the device (port started): on the drop QP, or on an RSS QP of its own over the
 * WQs of its queues; a rule whose queues are gone since (fewer queues configured) drops.
 * @return 0 or -errno with nothing left.
 */
static int
mlx4v_flow_apply(struct rte_eth_dev *eth_dev, struct rte_flow *flow)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_pmd_mlx4v_qp *qp;
	int ret;

	flow->fa.port = priv->port;
	if (flow->drop || flow->base + (1u << flow->log) > eth_dev->data->nb_rx_queues) {
		ret = mlx4v_flow_drop_qp(eth_dev);
		qp = priv->drop_qp;
	} else {
		ret = mlx4v_ethflow_rss_ctx(eth_dev, flow->base, flow->log, flow->hash_fields,
					    flow->key, &flow->ind, &flow->rss_qp);
		qp = flow->rss_qp;
	}
	if (ret != 0)
		return ret;
	flow->hw = rte_pmd_mlx4v_create_flow(qp, &flow->fa);
	if (flow->hw != NULL)
		return 0;
	ret = rte_errno != 0 ? -rte_errno : -EIO;
	mlx4v_flow_remove(eth_dev, flow);
	return ret;
}

static int
mlx4v_flow_validate(struct rte_eth_dev *eth_dev, const struct rte_flow_attr *attr,
		    const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		    struct rte_flow_error *error)
{
	struct rte_flow flow;

	return mlx4v_flow_prepare(eth_dev, &flow, attr, pattern, actions, error);
}

static struct rte_flow *
mlx4v_flow_create(struct rte_eth_dev *eth_dev, const struct rte_flow_attr *attr,
		  const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		  struct rte_flow_error *error)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_flow *flow;
	int ret;

	if (priv->dead) {
		mlx4v_flow_err(error, EIO, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			       "the device failed");
		return NULL;
	}
	flow = rte_zmalloc_socket("mlx4v_flow", sizeof(*flow), 0, eth_dev->data->numa_node);
	if (flow == NULL) {
		mlx4v_flow_err(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			       "no memory for the rule");
		return NULL;
	}
	ret = mlx4v_flow_prepare(eth_dev, flow, attr, pattern, actions, error);
	if (ret == 0 && priv->started) {
		ret = mlx4v_flow_apply(eth_dev, flow);
		if (ret != 0)
			mlx4v_flow_err(error, -ret, RTE_FLOW_ERROR_TYPE_HANDLE, NULL,
				       "the device refused the rule (see the log)");
	}
	if (ret != 0) {
		rte_free(flow);
		return NULL;
	}
	TAILQ_INSERT_TAIL(&priv->flows, flow, next);
	return flow;
}

static int
mlx4v_flow_destroy(struct rte_eth_dev *eth_dev, struct rte_flow *flow,
		   struct rte_flow_error *error)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_flow *f;

	TAILQ_FOREACH(f, &priv->flows, next)
		if (f == flow)
			break;
	if (f == NULL)
		return mlx4v_flow_err(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
				      "not a rule of this port");
	mlx4v_flow_remove(eth_dev, flow);
	TAILQ_REMOVE(&priv->flows, flow, next);
	rte_free(flow);
	return 0;
}

static int
mlx4v_flow_flush(struct rte_eth_dev *eth_dev, struct rte_flow_error *error)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);

	while (!TAILQ_EMPTY(&priv->flows))
		mlx4v_flow_destroy(eth_dev, TAILQ_FIRST(&priv->flows), error);
	return 0;
}

static int
mlx4v_flow_query(struct rte_eth_dev *eth_dev __rte_unused, struct rte_flow *flow __rte_unused,
		 const struct rte_flow_action *action, void *data __rte_unused,
		 struct rte_flow_error *error)
{
	return mlx4v_flow_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
			      "COUNT: the device has no flow counters, nothing to query");
}

/* Isolated: the port's own MAC, broadcast, promiscuous and all-multicast rules go. */
static int
mlx4v_flow_isolate(struct rte_eth_dev *eth_dev, int enable, struct rte_flow_error *error)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_flow *flow;
	int ret;

	if (!!enable == priv->isolated)
		return 0;
	if (!enable)
		TAILQ_FOREACH(flow, &priv->flows, next)
			if (flow->fa.priority == RTE_PMD_MLX4V_FLOW_PRIORITY_LAST)
				return mlx4v_flow_err(error, EBUSY, RTE_FLOW_ERROR_TYPE_HANDLE,
						      flow, "a rule holds priority 4095, "
						      "which the port's MAC rules need");
	priv->isolated = !!enable;
	ret = mlx4v_ethflow_sync(eth_dev);
	if (ret != 0) {
		priv->isolated = !enable;
		if (mlx4v_ethflow_sync(eth_dev) != 0)
			MLX4V_ETH_LOG(ERR, "port %u: MAC rules not restored", priv->port_id);
		return mlx4v_flow_err(error, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				      "the port's MAC rules could not follow");
	}
	return 0;
}

static const struct rte_flow_ops mlx4v_flow_ops = {
	.validate = mlx4v_flow_validate,
	.create = mlx4v_flow_create,
	.destroy = mlx4v_flow_destroy,
	.flush = mlx4v_flow_flush,
	.query = mlx4v_flow_query,
	.isolate = mlx4v_flow_isolate,
};

int
mlx4v_flow_ops_get(struct rte_eth_dev *eth_dev __rte_unused, const struct rte_flow_ops **ops)
{
	/* The rules' device objects are the primary's (process-local handles), as in mlx4. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return -ENOTSUP;
	*ops = &mlx4v_flow_ops;
	return 0;
}

int
mlx4v_flow_start(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_flow *flow;
	int ret;

	TAILQ_FOREACH(flow, &priv->flows, next) {
		ret = mlx4v_flow_apply(eth_dev, flow);
		if (ret != 0) {
			MLX4V_ETH_LOG(ERR, "port %u: a flow rule could not be applied: %s",
				      priv->port_id, strerror(-ret));
			mlx4v_flow_stop(eth_dev);
			return ret;
		}
	}
	return 0;
}

void
mlx4v_flow_stop(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_flow *flow;

	TAILQ_FOREACH(flow, &priv->flows, next)
		mlx4v_flow_remove(eth_dev, flow);
	mlx4v_flow_drop_qp_destroy(eth_dev);
}

void
mlx4v_flow_release(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);
	struct rte_flow *flow;

	while ((flow = TAILQ_FIRST(&priv->flows)) != NULL) {
		mlx4v_flow_remove(eth_dev, flow);
		TAILQ_REMOVE(&priv->flows, flow, next);
		rte_free(flow);
	}
	mlx4v_flow_drop_qp_destroy(eth_dev);
}
