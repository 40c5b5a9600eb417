/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Receive steering: WQ number ranges, RWQ indirection tables, RSS QPs and steering rules
 * (prm/mlx4 §4.5 and §5.4: nothing reaches a WQ without an RSS QP and a
 * rule, nothing reaches a QP without a rule).
 */

#include <string.h>

#include <rte_byteorder.h>

#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

/* Largest log2 of a WQ range and of a table: the devices' RSS table (256 entries). */
#define MLX4V_IND_LOG_MAX 8u

/* Hash fields come in source/destination pairs; ports need an address (the kernel's rule). */
#define MLX4V_HASH_IPV4 (RTE_PMD_MLX4V_RX_HASH_SRC_IPV4 | RTE_PMD_MLX4V_RX_HASH_DST_IPV4)
#define MLX4V_HASH_IPV6 (RTE_PMD_MLX4V_RX_HASH_SRC_IPV6 | RTE_PMD_MLX4V_RX_HASH_DST_IPV6)
#define MLX4V_HASH_TCP (RTE_PMD_MLX4V_RX_HASH_SRC_PORT_TCP | RTE_PMD_MLX4V_RX_HASH_DST_PORT_TCP)
#define MLX4V_HASH_UDP (RTE_PMD_MLX4V_RX_HASH_SRC_PORT_UDP | RTE_PMD_MLX4V_RX_HASH_DST_PORT_UDP)

static int
mlx4v_wqs_range_set(struct mlx4v_ctx *ctx, uint8_t log_range)
{
	int ret;

	if (mlx4v_obj_find(ctx, MLX4V_OBJ_CTX) == NULL)
		return -EINVAL;
	if (log_range > MLX4V_IND_LOG_MAX) {
		MLX4V_LOG(ERR, "WQ range 2^%u beyond the largest table 2^%u", log_range,
			  MLX4V_IND_LOG_MAX);
		return -EINVAL;
	}
	/* WQ numbers already given came from the old ranges (prm/mlx4 §5.4). */
	if (mlx4v_obj_first(ctx, MLX4V_OBJ_WQ) != NULL) {
		MLX4V_LOG(ERR, "WQ range set after the first WQ of the handle");
		return -EBUSY;
	}
	ret = mlx4v_verbs_wqs_range_set(ctx, log_range);
	if (ret == 0)
		ctx->log_wqs_range = log_range;
	return ret;
}

static struct mlx4v_ind *
mlx4v_ind_create(struct mlx4v_ctx *ctx, uint32_t log_size, struct rte_pmd_mlx4v_wq *const *wqs)
{
	struct mlx4v_ind *ind;
	struct mlx4v_obj *wq;
	uint32_t i, n;
	int ret;

	if (mlx4v_obj_find(ctx, MLX4V_OBJ_CTX) == NULL)
		return NULL;
	if (wqs == NULL || log_size > MLX4V_IND_LOG_MAX) {
		MLX4V_LOG(ERR, "indirection table: no WQs, or 2^%u entries", log_size);
		rte_errno = EINVAL;
		return NULL;
	}
	n = 1u << log_size;
	for (i = 0; i < n; i++) {
		wq = mlx4v_obj_find(wqs[i], MLX4V_OBJ_WQ);
		if (wq == NULL || wq->ctx != ctx) {
			MLX4V_LOG(ERR, "indirection table entry %u is not a WQ of this handle", i);
			rte_errno = EINVAL;
			return NULL;
		}
	}
	ind = mlx4v_obj_alloc(ctx, MLX4V_OBJ_IND, sizeof(*ind) + n * sizeof(ind->wqs[0]));
	if (ind == NULL)
		return NULL;
	ind->log_size = log_size;
	for (i = 0; i < n; i++)
		ind->wqs[i] = (struct mlx4v_wq *)wqs[i];
	ret = mlx4v_verbs_ind_create(ind);
	if (ret) {
		mlx4v_obj_free(&ind->obj);
		rte_errno = -ret;
		return NULL;
	}
	for (i = 0; i < n; i++)
		mlx4v_obj_get(&ind->wqs[i]->obj);
	mlx4v_obj_publish(&ind->obj);
	return ind;
}

int
mlx4v_ind_destroy(struct mlx4v_ind *ind)
{
	uint32_t i;
	int ret;

	if (mlx4v_obj_find(ind, MLX4V_OBJ_IND) == NULL)
		return -EINVAL;
	if (ind->obj.refcnt != 0)
		return -EBUSY;
	ret = mlx4v_verbs_ind_destroy(ind);
	if (ret)
		return ret;
	for (i = 0; i < (1u << ind->log_size); i++)
		mlx4v_obj_put(&ind->wqs[i]->obj);
	mlx4v_obj_free(&ind->obj);
	return 0;
}

static int
mlx4v_rss_check(struct mlx4v_pd *pd, const void *arg, uint8_t *port)
{
	const struct rte_pmd_mlx4v_rss_qp_attr *attr = arg;
	struct mlx4v_obj *ind;
	uint64_t f;

	if (attr == NULL || attr->key == NULL || attr->port == 0)
		return -EINVAL;
	ind = mlx4v_obj_find(attr->ind_table, MLX4V_OBJ_IND);
	if (ind == NULL || ind->ctx != pd->obj.ctx) {
		MLX4V_LOG(ERR, "RSS QP needs a live indirection table of its handle");
		return -EINVAL;
	}
	f = attr->hash_fields;
	/*
	 * The mlx4 kernel driver takes the fields by pairs, ports only with an address, and
	 * nothing else (prm/mlx4 §5.4).
	 */
	if ((f & ~(uint64_t)(MLX4V_HASH_IPV4 | MLX4V_HASH_IPV6 | MLX4V_HASH_TCP |
			     MLX4V_HASH_UDP)) ||
	    ((f & MLX4V_HASH_IPV4) && (f & MLX4V_HASH_IPV4) != MLX4V_HASH_IPV4) ||
	    ((f & MLX4V_HASH_IPV6) && (f & MLX4V_HASH_IPV6) != MLX4V_HASH_IPV6) ||
	    ((f & MLX4V_HASH_TCP) && (f & MLX4V_HASH_TCP) != MLX4V_HASH_TCP) ||
	    ((f & MLX4V_HASH_UDP) && (f & MLX4V_HASH_UDP) != MLX4V_HASH_UDP) ||
	    ((f & (MLX4V_HASH_TCP | MLX4V_HASH_UDP)) &&
	     !(f & (MLX4V_HASH_IPV4 | MLX4V_HASH_IPV6)))) {
		MLX4V_LOG(ERR, "RSS hash fields 0x%" PRIx64 " not by pairs, or ports without "
			  "addresses", f);
		return -EINVAL;
	}
	*port = attr->port;
	return 0;
}

static struct mlx4v_qp *
mlx4v_rss_qp_create(struct mlx4v_pd *pd, const struct rte_pmd_mlx4v_rss_qp_attr *attr)
{
	struct mlx4v_qp *qp;
	int ret;

	/* An RSS QP exists only to be steered to: it needs steering besides a raw QP's needs. */
	qp = mlx4v_qp_alloc(pd, mlx4v_rss_check, attr, MLX4V_PORT_NEED_ETH |
			    MLX4V_PORT_NEED_NET_RAW | MLX4V_PORT_NEED_STEERING);
	if (qp == NULL)
		return NULL;
	qp->ind = (struct mlx4v_ind *)attr->ind_table;
	qp->rss = *attr;
	memcpy(qp->rss_key, attr->key, sizeof(qp->rss_key));
	qp->rss.key = qp->rss_key;
	ret = mlx4v_verbs_rss_qp_create(qp);
	if (ret) {
		mlx4v_obj_free(&qp->obj);
		rte_errno = -ret;
		return NULL;
	}
	mlx4v_obj_get(&pd->obj);
	mlx4v_obj_get(&qp->ind->obj);
	mlx4v_obj_publish(&qp->obj);
	return qp;
}

/* Verbs lock held; mlx4v_qp_destroy() checked the QP. No rings, so no CQ to clean. */
int
mlx4v_rss_qp_destroy(struct mlx4v_qp *qp)
{
	int ret;

	ret = mlx4v_verbs_qp_destroy(qp);
	if (ret)
		return ret;
	mlx4v_obj_put(&qp->ind->obj);
	mlx4v_obj_put(&qp->pd->obj);
	mlx4v_obj_free(&qp->obj);
	return 0;
}

/*
 * The public rule as verbs rules, as DPDK's mlx4 and mlx4_en build them: a MAC (unicast,
 * broadcast or a multicast group) is a NORMAL rule with a full DMAC mask, the VLAN ID in the
 * same Ethernet spec, then an IPv4 spec and a TCP or UDP spec when asked; promiscuous and
 * all-multicast are the default rule types without a spec. Never a NORMAL rule with an empty or
 * partial DMAC mask: mlx4_en's validator refuses one, and firmware that took it would rank it as
 * a regular rule above the kernel netdev's own (doc/guides/prm/mlx4.rst §5.4). Values keep only
 * their masked bits, as the verbs specs carry them. Masks go to the backend as given: the device
 * decides which it takes.
 */
static void
mlx4v_flow_encode(const struct rte_pmd_mlx4v_flow_attr *attr, struct mlx4v_flow_rule *rule)
{
	memset(rule, 0, sizeof(*rule));
	switch (attr->type) {
	case RTE_PMD_MLX4V_FLOW_MAC:
		rule->type = MLX4V_FLOW_RULE_NORMAL;
		rule->num_specs = 1;
		rule->priority = attr->priority;
		memcpy(rule->dmac, attr->dmac, sizeof(rule->dmac));
		memset(rule->dmac_mask, 0xff, sizeof(rule->dmac_mask));
		if (attr->match & RTE_PMD_MLX4V_FLOW_MATCH_VLAN) {
			rule->vlan_tag_mask = rte_cpu_to_be_16(0x0fff);
			rule->vlan_tag = rte_cpu_to_be_16(attr->vid) & rule->vlan_tag_mask;
		}
		if (!(attr->match & RTE_PMD_MLX4V_FLOW_MATCH_IPV4))
			break;
		rule->num_specs = 2;
		rule->src_ip_mask = attr->src_ip_mask;
		rule->src_ip = attr->src_ip & attr->src_ip_mask;
		rule->dst_ip_mask = attr->dst_ip_mask;
		rule->dst_ip = attr->dst_ip & attr->dst_ip_mask;
		if (!(attr->match & (RTE_PMD_MLX4V_FLOW_MATCH_TCP | RTE_PMD_MLX4V_FLOW_MATCH_UDP)))
			break;
		rule->num_specs = 3;
		rule->l4 = (attr->match & RTE_PMD_MLX4V_FLOW_MATCH_TCP) ? MLX4V_FLOW_L4_TCP :
			MLX4V_FLOW_L4_UDP;
		rule->src_port_mask = attr->src_port_mask;
		rule->src_port = attr->src_port & attr->src_port_mask;
		rule->dst_port_mask = attr->dst_port_mask;
		rule->dst_port = attr->dst_port & attr->dst_port_mask;
		break;
	case RTE_PMD_MLX4V_FLOW_ALLMULTI:
		rule->type = MLX4V_FLOW_RULE_MC_DEFAULT;
		break;
	case RTE_PMD_MLX4V_FLOW_PROMISC:
		rule->type = MLX4V_FLOW_RULE_ALL_DEFAULT;
		break;
	}
}

/* What no verbs rule can say (the device's own refusals are the backend's). @return 0/-EINVAL. */
static int
mlx4v_flow_attr_check(const struct mlx4v_qp *qp, const struct rte_pmd_mlx4v_flow_attr *attr)
{
	const uint32_t l4 = RTE_PMD_MLX4V_FLOW_MATCH_TCP | RTE_PMD_MLX4V_FLOW_MATCH_UDP;
	const uint32_t all = RTE_PMD_MLX4V_FLOW_MATCH_VLAN | RTE_PMD_MLX4V_FLOW_MATCH_IPV4 | l4;

	if (attr == NULL || attr->type > RTE_PMD_MLX4V_FLOW_PROMISC ||
	    attr->port != qp->attr.port) {
		MLX4V_LOG(ERR, "QP 0x%x: bad steering rule (type, or port other than %u)",
			  qp->qpn, qp->attr.port);
		return -EINVAL;
	}
	if ((attr->match & ~all) || (attr->match != 0 && attr->type != RTE_PMD_MLX4V_FLOW_MAC) ||
	    (attr->match & l4) == l4 ||
	    ((attr->match & l4) && !(attr->match & RTE_PMD_MLX4V_FLOW_MATCH_IPV4)) ||
	    attr->vid > 0x0fff) {
		MLX4V_LOG(ERR, "QP 0x%x: steering rule match 0x%x, VLAN ID %u: specs only after a "
			  "MAC, TCP or UDP only over IPv4", qp->qpn, attr->match, attr->vid);
		return -EINVAL;
	}
	return 0;
}

static struct mlx4v_flow *
mlx4v_flow_create(struct mlx4v_qp *qp, const struct rte_pmd_mlx4v_flow_attr *attr)
{
	struct mlx4v_flow *flow;
	int ret;

	if (mlx4v_obj_find(qp, MLX4V_OBJ_QP) == NULL)
		return NULL;
	ret = mlx4v_flow_attr_check(qp, attr);
	if (ret) {
		rte_errno = -ret;
		return NULL;
	}
	/* A send-only QP has nothing to steer to. */
	if (qp->ind == NULL && qp->rq.wqe_cnt == 0 && qp->srq == NULL) {
		MLX4V_LOG(ERR, "QP 0x%x has no receive queue to steer to", qp->qpn);
		rte_errno = EINVAL;
		return NULL;
	}
	ret = mlx4v_port_check(qp->obj.ctx, attr->port, MLX4V_PORT_NEED_ETH |
			       MLX4V_PORT_NEED_NET_RAW | MLX4V_PORT_NEED_STEERING);
	if (ret) {
		rte_errno = -ret;
		return NULL;
	}
	flow = mlx4v_obj_alloc(qp->obj.ctx, MLX4V_OBJ_FLOW, sizeof(*flow));
	if (flow == NULL)
		return NULL;
	flow->qp = qp;
	flow->attr = *attr;
	mlx4v_flow_encode(attr, &flow->rule);
	ret = mlx4v_verbs_flow_create(flow);
	if (ret) {
		mlx4v_obj_free(&flow->obj);
		rte_errno = -ret;
		return NULL;
	}
	mlx4v_obj_get(&qp->obj);
	mlx4v_obj_publish(&flow->obj);
	return flow;
}

int
mlx4v_flow_destroy(struct mlx4v_flow *flow)
{
	int ret;

	if (mlx4v_obj_find(flow, MLX4V_OBJ_FLOW) == NULL)
		return -EINVAL;
	ret = mlx4v_verbs_flow_destroy(flow);
	if (ret)
		return ret;
	mlx4v_obj_put(&flow->qp->obj);
	mlx4v_obj_free(&flow->obj);
	return 0;
}

int
rte_pmd_mlx4v_set_wqs_range(struct rte_pmd_mlx4v_dev *dev, uint8_t log_range)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_wqs_range_set((struct mlx4v_ctx *)dev, log_range));
}

struct rte_pmd_mlx4v_ind_table *
rte_pmd_mlx4v_create_rwq_ind_table(struct rte_pmd_mlx4v_dev *dev, uint32_t log_size,
				   struct rte_pmd_mlx4v_wq *const *wqs)
{
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_ind_create((struct mlx4v_ctx *)dev, log_size, wqs));
}

int
rte_pmd_mlx4v_destroy_rwq_ind_table(struct rte_pmd_mlx4v_ind_table *ind)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_ind_destroy((struct mlx4v_ind *)ind));
}

struct rte_pmd_mlx4v_qp *
rte_pmd_mlx4v_create_rss_qp(struct rte_pmd_mlx4v_pd *pd,
			    const struct rte_pmd_mlx4v_rss_qp_attr *attr)
{
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_rss_qp_create((struct mlx4v_pd *)pd, attr));
}

struct rte_pmd_mlx4v_flow *
rte_pmd_mlx4v_create_flow(struct rte_pmd_mlx4v_qp *qp, const struct rte_pmd_mlx4v_flow_attr *attr)
{
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_flow_create((struct mlx4v_qp *)qp, attr));
}

int
rte_pmd_mlx4v_destroy_flow(struct rte_pmd_mlx4v_flow *flow)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_flow_destroy((struct mlx4v_flow *)flow));
}
