/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The simulated receive steering (prm/mlx4 §5.4): WQ number ranges per handle, RWQ
 * indirection tables, steering rules, the Toeplitz hash of RSS QPs, and the loopback of
 * sent frames by the destination MAC of their control segment (prm/mlx4 §4.2).
 *
 * A frame arriving on a port goes to the rules of that port that match it; of those, only the
 * most specific kind counts (NORMAL rules, which match the destination MAC and their VLAN,
 * IPv4 and TCP/UDP specs, and of them only those of the first priority; then the MC_DEFAULT
 * rule for a group address, then the ALL_DEFAULT rule: the default rules take only what no
 * NORMAL rule of the port took), and each QP they name gets one copy: its RQ or SRQ, or for an
 * RSS QP the WQ its hash selects.
 * A QP receives in RTR/RTS, an RSS QP in RTR, a WQ in RDY. Without a rule nothing arrives.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_thash.h>

#include "mlx4v_log.h"
#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

#define MLX4V_SIM_ETH_HLEN 14u

/* Sim lock held. */
void
mlx4v_sim_range_release(struct mlx4v_sim_ctx *sctx)
{
	struct mlx4v_sim *sim = sctx->sim;
	uint32_t i, n = 1u << sctx->log_range;

	if (sctx->range_base < 0)
		return;
	for (i = sctx->range_used; i < n; i++)
		sim->qp_resv[sctx->range_base + i] = 0;
	sctx->range_base = -1;
}

/*
 * Sim lock held. Without a range (log 0) a WQ takes any free number, as the kernel's single-WQ
 * ranges do; the table of such WQs is then rarely aligned (prm/mlx4 §5.4).
 */
int
mlx4v_sim_wq_slot(struct mlx4v_sim_ctx *sctx)
{
	struct mlx4v_sim *sim = sctx->sim;
	uint32_t n = 1u << sctx->log_range, i;
	int base;

	if (sctx->range_base < 0 || sctx->range_used == n) {
		mlx4v_sim_range_release(sctx);
		/* A new range: n free slots whose first number is aligned to n. */
		for (base = 0; base + (int)n <= MLX4V_SIM_MAX_QP; base++) {
			if ((MLX4V_SIM_QPN_BASE + base) & (n - 1))
				continue;
			for (i = 0; i < n; i++)
				if (sim->qps[base + i] != NULL || sim->qp_resv[base + i])
					break;
			if (i == n)
				break;
		}
		if (base + (int)n > MLX4V_SIM_MAX_QP)
			return -1;
		for (i = 0; i < n; i++)
			sim->qp_resv[base + i] = 1;
		sctx->range_base = base;
		sctx->range_used = 0;
	}
	return sctx->range_base + sctx->range_used++;
}

int
mlx4v_sim_wqs_range_set(struct mlx4v_ctx *ctx, uint8_t log_range)
{
	struct mlx4v_sim_ctx *sctx = mlx4v_sim_ctx_of(ctx);

	if (log_range > MLX4V_SIM_IND_LOG_MAX)
		return -EINVAL;
	pthread_mutex_lock(&sctx->sim->lock);
	mlx4v_sim_range_release(sctx);
	sctx->log_range = log_range;
	pthread_mutex_unlock(&sctx->sim->lock);
	return 0;
}

/*
 * Verbs lock held. The kernel's rule (mlx4_ib's create_rwq_ind_table): consecutive WQ numbers in
 * table order, the first aligned to the table's size.
 */
int
mlx4v_sim_ind_create(struct mlx4v_ind *ind)
{
	struct mlx4v_sim *sim = mlx4v_sim_ctx_of(ind->obj.ctx)->sim;
	uint32_t i, n = 1u << ind->log_size;
	struct mlx4v_sim_ind *sind;

	if (ind->log_size > MLX4V_SIM_IND_LOG_MAX)
		return -EINVAL;
	if (mlx4v_sim_dead(sim) || mlx4v_sim_ctx_stale(ind->obj.ctx))
		return -EIO;
	if (ind->wqs[0]->wqn & (n - 1)) {
		MLX4V_SIM_LOG(ERR, "%s: indirection table of %u starts at WQN 0x%x, not aligned to "
			      "its size", sim->name, n, ind->wqs[0]->wqn);
		return -EINVAL;
	}
	for (i = 1; i < n; i++) {
		if (ind->wqs[i]->wqn != ind->wqs[0]->wqn + i) {
			MLX4V_SIM_LOG(ERR, "%s: indirection table WQNs not consecutive (0x%x at %u "
				      "after 0x%x)", sim->name, ind->wqs[i]->wqn, i,
				      ind->wqs[0]->wqn);
			return -EINVAL;
		}
	}
	sind = calloc(1, sizeof(*sind) + n * sizeof(sind->wqs[0]));
	if (sind == NULL)
		return -ENOMEM;
	sind->log_size = ind->log_size;
	for (i = 0; i < n; i++)
		sind->wqs[i] = ind->wqs[i]->be;
	pthread_mutex_lock(&sim->lock);
	sim->live[MLX4V_SIM_OBJ_IND]++;
	pthread_mutex_unlock(&sim->lock);
	ind->be = sind;
	return 0;
}

/* Verbs lock held; no RSS QP uses it any more (the common layer counts them). */
int
mlx4v_sim_ind_destroy(struct mlx4v_ind *ind)
{
	struct mlx4v_sim *sim = mlx4v_sim_ctx_of(ind->obj.ctx)->sim;

	pthread_mutex_lock(&sim->lock);
	sim->live[MLX4V_SIM_OBJ_IND]--;
	pthread_mutex_unlock(&sim->lock);
	free(ind->be);
	ind->be = NULL;
	return 0;
}

/* Ranks of the default rules: after every NORMAL rule's priority (0 to PRIORITY_LAST). */
#define MLX4V_SIM_RANK_MC_DEFAULT (RTE_PMD_MLX4V_FLOW_PRIORITY_LAST + 1)
#define MLX4V_SIM_RANK_ALL_DEFAULT (RTE_PMD_MLX4V_FLOW_PRIORITY_LAST + 2)

/* A mask the device takes: none, or every bit of the field. */
static int
mlx4v_sim_flow_mask_ok(uint32_t mask, uint32_t full)
{
	return mask == 0 || mask == full;
}

/*
 * The specs of a NORMAL rule past its DMAC, as mlx4_en's rule validator takes them (doc/guides/
 * prm/mlx4.rst §5.4): a VLAN ID mask of all 12 bits or none, IPv4 addresses and ports of full
 * or empty masks, a priority up to PRIORITY_LAST (the kernel's largest), and a UDP destination
 * port only at priority 0: the firmware ranks such a rule ignoring its priority, which DPDK's
 * mlx4 avoids; the model refuses it rather than rank it as silicon would. @return 0 or -EINVAL.
 */
static int
mlx4v_sim_flow_specs_check(const struct mlx4v_sim *sim, const struct mlx4v_flow_rule *r)
{
	const char *why = NULL;

	if (r->priority > RTE_PMD_MLX4V_FLOW_PRIORITY_LAST)
		why = "priority beyond 0xfff";
	else if (!mlx4v_sim_flow_mask_ok(rte_be_to_cpu_16(r->vlan_tag_mask), 0x0fff))
		why = "partial VLAN ID mask";
	else if (r->num_specs >= 2 && (!mlx4v_sim_flow_mask_ok(r->src_ip_mask, UINT32_MAX) ||
				       !mlx4v_sim_flow_mask_ok(r->dst_ip_mask, UINT32_MAX)))
		why = "partial IPv4 address mask";
	else if (r->num_specs == 3 && (!mlx4v_sim_flow_mask_ok(r->src_port_mask, UINT16_MAX) ||
				       !mlx4v_sim_flow_mask_ok(r->dst_port_mask, UINT16_MAX)))
		why = "partial port mask";
	else if (r->num_specs == 3 && r->l4 == MLX4V_FLOW_L4_UDP && r->dst_port_mask != 0 &&
		 r->priority != 0)
		why = "UDP destination port at a priority other than 0 (ranked ignoring it)";
	else if (r->num_specs == 3 && r->l4 != MLX4V_FLOW_L4_TCP && r->l4 != MLX4V_FLOW_L4_UDP)
		why = "L4 spec neither TCP nor UDP";
	if (why == NULL)
		return 0;
	MLX4V_SIM_LOG(ERR, "%s: NORMAL rule refused: %s", sim->name, why);
	return -EINVAL;
}

/*
 * The rule as the device takes it (doc/guides/prm/mlx4.rst §5.4): a NORMAL rule whose first spec
 * is Ethernet with a full destination MAC mask, then optionally IPv4 and TCP or UDP specs
 * (mlx4v_sim_flow_specs_check()), or a default rule (ALL_DEFAULT, MC_DEFAULT) without a spec or
 * with one Ethernet spec of empty mask. A NORMAL rule with an empty or partial DMAC mask is
 * refused, as mlx4_en's rule validator refuses it: on silicon it would be a regular rule ranked
 * above the kernel netdev's own, or refused by firmware or by the PF for a VF. @return the kind
 * it steers as (enum rte_pmd_mlx4v_flow_type), or -EINVAL.
 */
static int
mlx4v_sim_flow_rule_check(const struct mlx4v_sim *sim, const struct mlx4v_flow_rule *r)
{
	static const uint8_t full[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t zero[6];

	switch (r->type) {
	case MLX4V_FLOW_RULE_NORMAL:
		if (r->num_specs >= 1 && r->num_specs <= 3 &&
		    memcmp(r->dmac_mask, full, sizeof(full)) == 0)
			return mlx4v_sim_flow_specs_check(sim, r) == 0 ?
				RTE_PMD_MLX4V_FLOW_MAC : -EINVAL;
		MLX4V_SIM_LOG(ERR, "%s: NORMAL rule refused: %u spec(s), DMAC mask "
			      "%02x:%02x:%02x:%02x:%02x:%02x (an Ethernet spec with a full mask "
			      "first; promiscuous and all-multicast are default rules)", sim->name,
			      r->num_specs, r->dmac_mask[0], r->dmac_mask[1], r->dmac_mask[2],
			      r->dmac_mask[3], r->dmac_mask[4], r->dmac_mask[5]);
		return -EINVAL;
	case MLX4V_FLOW_RULE_ALL_DEFAULT:
	case MLX4V_FLOW_RULE_MC_DEFAULT:
		/*
		 * mlx4_ib passes a default rule's specs on to firmware (no default-rule
		 * template of an Ethernet port matches them): DPDK's mlx4 makes its
		 * promiscuous rule with one Ethernet spec of empty DMAC mask, which matches
		 * every frame and narrows nothing. A spec that would narrow a default rule is
		 * not known on silicon: refused.
		 */
		if (r->num_specs == 0 ||
		    (r->num_specs == 1 && memcmp(r->dmac_mask, zero, sizeof(zero)) == 0))
			return r->type == MLX4V_FLOW_RULE_ALL_DEFAULT ?
				RTE_PMD_MLX4V_FLOW_PROMISC : RTE_PMD_MLX4V_FLOW_ALLMULTI;
		MLX4V_SIM_LOG(ERR, "%s: default rule with %u spec(s) of DMAC mask "
			      "%02x:%02x:%02x:%02x:%02x:%02x refused (no spec, or one that matches "
			      "every frame)", sim->name, r->num_specs, r->dmac_mask[0],
			      r->dmac_mask[1], r->dmac_mask[2], r->dmac_mask[3], r->dmac_mask[4],
			      r->dmac_mask[5]);
		return -EINVAL;
	}
	MLX4V_SIM_LOG(ERR, "%s: steering rule of type %u refused", sim->name, r->type);
	return -EINVAL;
}

int
mlx4v_sim_flow_create(struct mlx4v_flow *flow)
{
	struct mlx4v_sim *sim = mlx4v_sim_ctx_of(flow->obj.ctx)->sim;
	struct mlx4v_sim_flow *f;
	int ret, type;

	if (flow->attr.port == 0 || flow->attr.port > sim->nports)
		return -EINVAL;
	ret = mlx4v_sim_cmd_check(sim, flow->obj.ctx, MLX4V_SIM_KNOB_MAX, 0, 0);
	if (ret)
		return ret;
	/* The kernel's order: uverbs checks CAP_NET_RAW, then the driver must have the verb. */
	ret = mlx4v_sim_net_raw_check(sim, "steering rule");
	if (ret)
		return ret;
	/* mlx4_ib offers ibv_create_flow only in device-managed steering mode. */
	if (mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_NO_DMFS)) {
		MLX4V_SIM_LOG(ERR, "%s: steering rule refused: no device-managed flow steering "
			      "(no_dmfs=1)", sim->name);
		return -EOPNOTSUPP;
	}
	/* An Ethernet specification on an InfiniBand port matches nothing the port carries. */
	if ((mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_IB_PORTS) >> (flow->attr.port - 1)) & 1) {
		MLX4V_SIM_LOG(ERR, "%s: Ethernet rule on port %u, an InfiniBand port (ib_ports=)",
			      sim->name, flow->attr.port);
		return -EINVAL;
	}
	type = mlx4v_sim_flow_rule_check(sim, &flow->rule);
	if (type < 0)
		return type;
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	f->type = type;
	f->port = flow->attr.port;
	memcpy(f->dmac, flow->rule.dmac, sizeof(f->dmac));
	f->rule = flow->rule;
	f->qp = flow->qp->be;
	pthread_mutex_lock(&sim->lock);
	TAILQ_INSERT_TAIL(&sim->flows, f, next);
	sim->live[MLX4V_SIM_OBJ_FLOW]++;
	pthread_mutex_unlock(&sim->lock);
	flow->be = f;
	return 0;
}

int
mlx4v_sim_flow_destroy(struct mlx4v_flow *flow)
{
	struct mlx4v_sim *sim = mlx4v_sim_ctx_of(flow->obj.ctx)->sim;

	pthread_mutex_lock(&sim->lock);
	TAILQ_REMOVE(&sim->flows, (struct mlx4v_sim_flow *)flow->be, next);
	sim->live[MLX4V_SIM_OBJ_FLOW]--;
	pthread_mutex_unlock(&sim->lock);
	free(flow->be);
	flow->be = NULL;
	return 0;
}

/*
 * Whether a frame matches the specs of a NORMAL rule past its DMAC: the VLAN ID of an 802.1Q
 * outer tag, then (behind up to two tags) IPv4 addresses, and the ports of the rule's L4
 * protocol in a first fragment. A frame too short for a field the rule matches does not match.
 */
static int
mlx4v_sim_flow_specs_match(const struct mlx4v_flow_rule *r, const uint8_t *pkt, uint32_t len)
{
	uint32_t i, l3 = MLX4V_SIM_ETH_HLEN, l4, w;
	uint16_t et, h;

	et = (uint16_t)(pkt[12] << 8 | pkt[13]);
	if (r->vlan_tag_mask != 0) {
		if (et != 0x8100 || len < l3 + 4)
			return 0;
		memcpy(&h, pkt + l3, sizeof(h));
		if ((h & r->vlan_tag_mask) != r->vlan_tag)
			return 0;
	}
	if (r->num_specs < 2)
		return 1;
	for (i = 0; i < 2 && (et == 0x8100 || et == 0x88a8) && l3 + 4 <= len; i++) {
		et = (uint16_t)(pkt[l3 + 2] << 8 | pkt[l3 + 3]);
		l3 += 4;
	}
	if (et != 0x0800 || len < l3 + 20)
		return 0;
	memcpy(&w, pkt + l3 + 12, sizeof(w));
	if ((w & r->src_ip_mask) != r->src_ip)
		return 0;
	memcpy(&w, pkt + l3 + 16, sizeof(w));
	if ((w & r->dst_ip_mask) != r->dst_ip)
		return 0;
	if (r->num_specs < 3)
		return 1;
	if (pkt[l3 + 9] != (r->l4 == MLX4V_FLOW_L4_TCP ? 6 : 17))
		return 0;
	/* A later fragment carries no L4 header: no port to match. */
	if ((pkt[l3 + 6] & 0x1f) != 0 || pkt[l3 + 7] != 0) {
		if (r->src_port_mask != 0 || r->dst_port_mask != 0)
			return 0;
		return 1;
	}
	l4 = l3 + (pkt[l3] & 0xf) * 4;
	if (l4 + 4 > len)
		return r->src_port_mask == 0 && r->dst_port_mask == 0;
	memcpy(&h, pkt + l4, sizeof(h));
	if ((h & r->src_port_mask) != r->src_port)
		return 0;
	memcpy(&h, pkt + l4 + 2, sizeof(h));
	return (h & r->dst_port_mask) == r->dst_port;
}

/*
 * @return the rule's rank for the frame (its priority for a NORMAL rule, then the default
 * rules; lowest first), or -1 when it does not match. dmac is the MAC the device steers by.
 */
static int
mlx4v_sim_flow_rank(const struct mlx4v_sim_flow *f, const uint8_t *dmac, const uint8_t *pkt,
		    uint32_t len)
{
	switch (f->type) {
	case RTE_PMD_MLX4V_FLOW_MAC:
		if (memcmp(f->dmac, dmac, sizeof(f->dmac)) != 0 ||
		    !mlx4v_sim_flow_specs_match(&f->rule, pkt, len))
			return -1;
		return f->rule.priority;
	case RTE_PMD_MLX4V_FLOW_ALLMULTI:
		/* The group bit: multicast and broadcast. */
		return (dmac[0] & 1) ? MLX4V_SIM_RANK_MC_DEFAULT : -1;
	case RTE_PMD_MLX4V_FLOW_PROMISC:
		return MLX4V_SIM_RANK_ALL_DEFAULT;
	}
	return -1;
}

static int
mlx4v_sim_flow_qp_ready(const struct mlx4v_sim_qp *qp)
{
	if (qp->is_rss)
		return qp->state == RTE_PMD_MLX4V_QPS_RTR;
	return qp->rq.ready;
}

/*
 * Toeplitz over the fields the RSS QP hashes, in DPDK's order (source then destination address,
 * then source and destination port), with rte_softrss(), behind up to two VLAN tags as the
 * port's parser reads them; no ports for an IPv4 fragment (the header of a later one is
 * payload). A frame of another kind hashes to 0.
 */
static uint32_t
mlx4v_sim_flow_hash(const struct mlx4v_sim_qp *qp, const uint8_t *pkt, uint32_t len)
{
	uint32_t tuple[RTE_THASH_V6_L4_LEN], n = 0, l4 = 0, i, w, l3 = MLX4V_SIM_ETH_HLEN;
	uint64_t f = qp->hash_fields;
	uint8_t proto = 0;
	uint16_t et;

	if (len < MLX4V_SIM_ETH_HLEN)
		return 0;
	et = (uint16_t)(pkt[12] << 8 | pkt[13]);
	/* 802.1Q or 802.1ad tags: 4 bytes each before the ethertype (prm/mlx4 §4.6). */
	for (i = 0; i < 2 && (et == 0x8100 || et == 0x88a8) && l3 + 4 <= len; i++) {
		et = (uint16_t)(pkt[l3 + 2] << 8 | pkt[l3 + 3]);
		l3 += 4;
	}
	if (et == 0x0800 && len >= l3 + 20 && (f & RTE_PMD_MLX4V_RX_HASH_SRC_IPV4)) {
		for (i = 0; i < 2; i++) {
			memcpy(&w, pkt + l3 + 12 + 4 * i, sizeof(w));
			tuple[n++] = rte_be_to_cpu_32(w);
		}
		proto = pkt[l3 + 9];
		l4 = l3 + (pkt[l3] & 0xf) * 4;
		/* More fragments, or an offset: a fragment, hashed by its addresses only. */
		if ((pkt[l3 + 6] & 0x3f) != 0 || pkt[l3 + 7] != 0)
			proto = 0;
	} else if (et == 0x86dd && len >= l3 + 40 && (f & RTE_PMD_MLX4V_RX_HASH_SRC_IPV6)) {
		for (i = 0; i < 8; i++) {
			memcpy(&w, pkt + l3 + 8 + 4 * i, sizeof(w));
			tuple[n++] = rte_be_to_cpu_32(w);
		}
		proto = pkt[l3 + 6];
		l4 = l3 + 40;
	}
	if (n == 0)
		return 0;
	/* Ports only for the protocol the QP hashes, and only when the header is whole. */
	if (l4 + 4 <= len && ((proto == 6 && (f & RTE_PMD_MLX4V_RX_HASH_SRC_PORT_TCP)) ||
			      (proto == 17 && (f & RTE_PMD_MLX4V_RX_HASH_SRC_PORT_UDP)))) {
		memcpy(&w, pkt + l4, sizeof(w));
		tuple[n++] = rte_be_to_cpu_32(w);
	}
	return rte_softrss(tuple, n, qp->key);
}

/* One copy to one QP. @return 0 when received, -ENOBUFS when it had nothing posted. */
static int
mlx4v_sim_flow_to_qp(struct mlx4v_sim *sim, struct mlx4v_sim_qp *qp, const uint8_t *pkt,
		     uint32_t len)
{
	struct mlx4v_sim_qp *wq;
	uint32_t hash;

	if (!qp->is_rss)
		return mlx4v_sim_rq_consume(sim, &qp->rq, pkt, len, 0);
	hash = mlx4v_sim_flow_hash(qp, pkt, len);
	/* The table entry of the hash's low bits; only a WQ in RDY takes the frame. */
	wq = qp->ind->wqs[hash & ((1u << qp->ind->log_size) - 1)];
	if (!wq->rq.ready)
		return -ENOBUFS;
	return mlx4v_sim_rq_consume(sim, &wq->rq, pkt, len, hash);
}

/*
 * mlx4v_sim_flow_steer() over the rules of rank max_rank or more specific only. Engine thread or
 * mlx4v_sim_inject(), sim lock held.
 */
static int
mlx4v_sim_flow_steer_rank(struct mlx4v_sim *sim, unsigned int port, const uint8_t *dmac,
			  const uint8_t *pkt, uint32_t len, int max_rank)
{
	struct mlx4v_sim_flow *f, *g;
	int rank, best = -1, got = 0;

	if (len < MLX4V_SIM_ETH_HLEN)
		return -ENOENT;
	TAILQ_FOREACH(f, &sim->flows, next) {
		if (f->port != port || !mlx4v_sim_flow_qp_ready(f->qp))
			continue;
		rank = mlx4v_sim_flow_rank(f, dmac, pkt, len);
		if (rank >= 0 && rank <= max_rank && (best < 0 || rank < best))
			best = rank;
	}
	if (best < 0)
		return -ENOENT;
	TAILQ_FOREACH(f, &sim->flows, next) {
		if (f->port != port || !mlx4v_sim_flow_qp_ready(f->qp) ||
		    mlx4v_sim_flow_rank(f, dmac, pkt, len) != best)
			continue;
		/* One copy per QP, however many of its rules match. */
		for (g = TAILQ_FIRST(&sim->flows); g != f; g = TAILQ_NEXT(g, next))
			if (g->qp == f->qp && g->port == port &&
			    mlx4v_sim_flow_rank(g, dmac, pkt, len) == best)
				break;
		if (g == f && mlx4v_sim_flow_to_qp(sim, f->qp, pkt, len) == 0)
			got++;
	}
	return got ? 0 : -ENOBUFS;
}

/* See the file comment for the rule. */
int
mlx4v_sim_flow_steer(struct mlx4v_sim *sim, unsigned int port, const uint8_t *dmac,
		     const uint8_t *pkt, uint32_t len)
{
	return mlx4v_sim_flow_steer_rank(sim, port, dmac, pkt, len, MLX4V_SIM_RANK_ALL_DEFAULT);
}

/*
 * Engine thread, tx_lock and sim lock held. The control segment of a raw Ethernet send may carry
 * the frame's destination MAC (bytes 0-1 in srcrb_flags, 2-5 in imm, prm/mlx4 §4.2): libmlx4
 * writes it on every send, DPDK's mlx4 on VFs only. A zero MAC asks for no loopback: the frame
 * leaves by the port's wire only. With the MAC the send goes through the embedded switch, which
 * hands it to every MAC rule of the port that names that MAC, the sender's own QP included: the
 * kernel's mlx4_en drops its own group frames and sets the multicast-loopback source check for
 * that reason, and mlx4_ib offers IBV_QP_CREATE_BLOCK_SELF_MCAST_LB (which the seam does not
 * express). The promiscuous and all-multicast rules take wire traffic only. A unicast frame a
 * rule took stays in the device; every other frame, group frames always, leaves by the port's
 * wire, which takes it where its cable leads (the same port for a loop, the peer of a pair, the
 * TAP, or nowhere). See doc/guides/sim/silicon.rst, "mlx4: steering and port settings".
 */
void
mlx4v_sim_flow_send(struct mlx4v_sim_qp *qp, const uint8_t *wqe, const uint8_t *pkt,
		    uint32_t len)
{
	static const uint8_t zero_mac[6];
	struct mlx4v_sim *sim = qp->sim;
	unsigned int port = qp->rq.port;
	uint8_t cmac[6];
	int ret;

	memcpy(cmac, wqe + 8, 2);
	memcpy(cmac + 2, wqe + 12, 4);
	/* No MAC: no loopback, the wire only (see above). */
	if (memcmp(cmac, zero_mac, sizeof(cmac)) == 0) {
		mlx4v_sim_wire_queue(sim, port, pkt, len);
		return;
	}
	/* Misuse check sq_dmac: hardware steers the loopback by this MAC, not the frame's. */
	if (len >= 6 && memcmp(cmac, pkt, sizeof(cmac)) != 0)
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_SQ_DMAC,
				 "QP 0x%x: control segment MAC %02x:%02x:%02x:%02x:%02x:%02x, "
				 "frame to %02x:%02x:%02x:%02x:%02x:%02x", qp->qpn, cmac[0],
				 cmac[1], cmac[2], cmac[3], cmac[4], cmac[5], pkt[0], pkt[1],
				 pkt[2], pkt[3], pkt[4], pkt[5]);
	ret = mlx4v_sim_flow_steer_rank(sim, port, cmac, pkt, len,
					RTE_PMD_MLX4V_FLOW_PRIORITY_LAST);
	if (ret != -ENOENT)
		sim->stats.tx_loopback++;
	/* A unicast frame a local rule took stays in the device (see above). */
	if (ret == -ENOENT || (cmac[0] & 1))
		mlx4v_sim_wire_queue(sim, port, pkt, len);
	if (ret == -ENOBUFS)
		sim->stats.rx_dropped++;
}
