/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file rte_flow_dev_dump() of the mlx5v PMD, as text: what each rule holds in the device
 * (its group's table and level, priority, entry index and one-entry flow group, the match
 * sets it enables with each field's value and mask, its actions with their TIR, RQT, target
 * table, flow tag and counter). doc/guides/nics/mlx5v.rst, "Flow rules (rte_flow)".
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mlx5v_ethdev.h"
#include "mlx5v_rte_flow.h"

/** How a field of struct mlx5v_rte_flow_hdrs prints. */
enum fld_kind {
	FLD_U8,
	FLD_U16,
	FLD_MAC,
	FLD_IP,
};

static const struct {
	const char *name;
	size_t off;
	enum fld_kind kind;
} hdr_fields[] = {
	{ "dmac", offsetof(struct mlx5v_rte_flow_hdrs, dmac), FLD_MAC },
	{ "smac", offsetof(struct mlx5v_rte_flow_hdrs, smac), FLD_MAC },
	{ "ethertype", offsetof(struct mlx5v_rte_flow_hdrs, ethertype), FLD_U16 },
	{ "cvlan_tag", offsetof(struct mlx5v_rte_flow_hdrs, cvlan_tag), FLD_U8 },
	{ "vlan_tci", offsetof(struct mlx5v_rte_flow_hdrs, vlan_tci), FLD_U16 },
	{ "ip_version", offsetof(struct mlx5v_rte_flow_hdrs, ip_version), FLD_U8 },
	{ "frag", offsetof(struct mlx5v_rte_flow_hdrs, frag), FLD_U8 },
	{ "ip_protocol", offsetof(struct mlx5v_rte_flow_hdrs, ip_protocol), FLD_U8 },
	{ "tcp_flags", offsetof(struct mlx5v_rte_flow_hdrs, tcp_flags), FLD_U16 },
	{ "tcp_sport", offsetof(struct mlx5v_rte_flow_hdrs, tcp_sport), FLD_U16 },
	{ "tcp_dport", offsetof(struct mlx5v_rte_flow_hdrs, tcp_dport), FLD_U16 },
	{ "udp_sport", offsetof(struct mlx5v_rte_flow_hdrs, udp_sport), FLD_U16 },
	{ "udp_dport", offsetof(struct mlx5v_rte_flow_hdrs, udp_dport), FLD_U16 },
	{ "src_ip", offsetof(struct mlx5v_rte_flow_hdrs, src_ip), FLD_IP },
	{ "dst_ip", offsetof(struct mlx5v_rte_flow_hdrs, dst_ip), FLD_IP },
};

/* One field as text into buf: a number (decimal value, hex mask), a MAC or an address. */
static void
fld_str(char *buf, size_t len, const uint8_t *p, enum fld_kind kind, int is_mask,
	int ip_version)
{
	uint16_t u16;

	switch (kind) {
	case FLD_U8:
		snprintf(buf, len, is_mask ? "0x%x" : "%u", *p);
		break;
	case FLD_U16:
		memcpy(&u16, p, sizeof(u16));
		snprintf(buf, len, is_mask ? "0x%x" : "%u", u16);
		break;
	case FLD_MAC:
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", p[0], p[1], p[2], p[3],
			 p[4], p[5]);
		break;
	default:
		/* IPv4 sits in the last 4 bytes of the 16 (prm/mlx5_eth §4.10). */
		if (ip_version == 6)
			inet_ntop(AF_INET6, p, buf, len);
		else
			inet_ntop(AF_INET, p + 12, buf, len);
		break;
	}
}

/* "name value/mask" of each field the header mask m uses. */
static void
dump_hdrs(FILE *file, const char *what, const struct mlx5v_rte_flow_hdrs *m,
	  const struct mlx5v_rte_flow_hdrs *v)
{
	static const struct mlx5v_rte_flow_hdrs none;
	static const uint8_t zero[16];
	const uint8_t *pm, *pv;
	char sv[48], sm[48];
	size_t n;
	unsigned int i;

	if (memcmp(m, &none, sizeof(none)) == 0)
		return;
	fprintf(file, "  %s:", what);
	for (i = 0; i < RTE_DIM(hdr_fields); i++) {
		pm = (const uint8_t *)m + hdr_fields[i].off;
		pv = (const uint8_t *)v + hdr_fields[i].off;
		n = hdr_fields[i].kind == FLD_U8 ? 1 : hdr_fields[i].kind == FLD_U16 ? 2 :
		    hdr_fields[i].kind == FLD_MAC ? 6 : 16;
		if (memcmp(pm, zero, n) == 0)
			continue;
		fld_str(sv, sizeof(sv), pv, hdr_fields[i].kind, 0, v->ip_version);
		fld_str(sm, sizeof(sm), pm, hdr_fields[i].kind, 1, v->ip_version);
		fprintf(file, " %s %s/%s", hdr_fields[i].name, sv, sm);
	}
	fprintf(file, "\n");
}

/* The misc parameters (VXLAN VNI) and misc 3 (ICMP, ICMPv6 type and code) a rule uses. */
static void
dump_misc(FILE *file, const struct mlx5v_rte_flow_misc *m, const struct mlx5v_rte_flow_misc *v)
{
	if (m->vxlan_vni != 0)
		fprintf(file, "  misc: vxlan_vni %u/0x%x\n", v->vxlan_vni, m->vxlan_vni);
	if ((m->icmp_type | m->icmp_code) != 0)
		fprintf(file, "  misc3: icmp_type %u/0x%x icmp_code %u/0x%x\n", v->icmp_type,
			m->icmp_type, v->icmp_code, m->icmp_code);
	if ((m->icmpv6_type | m->icmpv6_code) != 0)
		fprintf(file, "  misc3: icmpv6_type %u/0x%x icmpv6_code %u/0x%x\n", v->icmpv6_type,
			m->icmpv6_type, v->icmpv6_code, m->icmpv6_code);
}

/* The fate, its device objects, the flow tag and the counter (read now) of rule f. */
static void
dump_actions(FILE *file, struct mlx5v_dev *dev, const struct mlx5v_rte_flow_port *p,
	     const struct rte_flow *f)
{
	const struct mlx5v_rte_flow_spec *s = &f->spec;
	uint64_t packets, bytes;
	unsigned int i;

	fprintf(file, "  actions:");
	switch (s->fate) {
	case MLX5V_RTE_FLOW_FATE_QUEUE:
		fprintf(file, " queue %u tir 0x%x", s->queue, p->qtir[s->queue]);
		break;
	case MLX5V_RTE_FLOW_FATE_DROP:
		fprintf(file, " drop");
		break;
	case MLX5V_RTE_FLOW_FATE_JUMP:
		fprintf(file, " jump group %u table 0x%x", s->jump_group,
			p->table[s->jump_group].ft);
		break;
	case MLX5V_RTE_FLOW_FATE_RSS:
		fprintf(file, " rss queues");
		for (i = 0; i < s->rss.n; i++)
			fprintf(file, " %u", s->rss.queue[i]);
		fprintf(file, " tir 0x%x rqt 0x%x", f->tir, f->rqt);
		break;
	default:
		break;
	}
	if (s->flow_tag != 0)
		fprintf(file, " flow_tag 0x%x", s->flow_tag);
	if (f->counter != 0) {
		fprintf(file, " counter 0x%x", f->counter);
		if (dev != NULL && mlx5v_rte_flow_hw_counter_query(dev, f->counter, &packets,
								   &bytes) == 0)
			fprintf(file, " hits %" PRIu64 " bytes %" PRIu64, packets, bytes);
	}
	fprintf(file, " \n");
}

/* Rule number n (its place in the port's list, as testpmd numbers them) f. */
static void
dump_rule(FILE *file, struct mlx5v_dev *dev, const struct mlx5v_rte_flow_port *p,
	  unsigned int n, const struct rte_flow *f)
{
	const struct mlx5v_rte_flow_spec *s = &f->spec;

	fprintf(file, "mlx5v flow rule %u: group %u table 0x%x level %u priority %u index %u "
		"flow_group 0x%x criteria 0x%x \n", n, s->group, p->table[s->group].ft,
		MLX5V_RTE_FLOW_LEVEL(s->group), s->priority, f->index, f->fg,
		mlx5v_rte_flow_hw_criteria(&s->mask));
	dump_hdrs(file, "outer", &s->mask.outer, &s->value.outer);
	dump_misc(file, &s->mask.misc, &s->value.misc);
	dump_hdrs(file, "inner", &s->mask.inner, &s->value.inner);
	dump_actions(file, dev, p, f);
}

int
mlx5v_rte_flow_dump(struct rte_eth_dev *eth_dev, struct rte_flow *flow, FILE *file,
		    struct rte_flow_error *error)
{
	struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	const struct mlx5v_rte_flow_port *p = &priv->rflow;
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	const struct rte_flow *f;
	unsigned int n = 0;
	int found = 0;

	if (file == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
					  "no output file");
	if (p->rules.tqh_last == NULL)
		return flow == NULL ? 0 :
		       rte_flow_error_set(error, ENOENT, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					  "no such rule on the port");
	TAILQ_FOREACH(f, &p->rules, next) {
		if (flow == NULL || f == flow) {
			dump_rule(file, dev, p, n, f);
			found = 1;
		}
		n++;
	}
	if (flow != NULL && !found)
		return rte_flow_error_set(error, ENOENT, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					  "no such rule on the port");
	return 0;
}
