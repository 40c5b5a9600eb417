/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file rte_flow rules of the mlx5v PMD, parsed and validated: the items into the match sets
 * of a flow group and entry (prm/mlx5_eth §4.10): the outer headers (MACs, the first VLAN
 * tag, ethertype, IP version and protocol, IP addresses, TCP flags, TCP and UDP ports), the
 * ICMP and ICMPv6 type and code (misc 3), the VXLAN VNI (misc) and the inner headers after
 * it; the actions into a fate, a flow tag and a counter. A mask the match sets or the
 * device's caps cannot express is refused, naming the field.
 */

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>

#include "mlx5v_ethdev.h"
#include "mlx5v_rte_flow.h"

/** Layers seen so far, in the order items may come. */
enum {
	L_ETH = 1u << 0,
	L_VLAN = 1u << 1,
	L_IP = 1u << 2,
	L_L4 = 1u << 3,
	L_TUNNEL = 1u << 4,
};

static int
refuse(struct rte_flow_error *error, enum rte_flow_error_type type, const void *cause,
       const char *msg)
{
	return rte_flow_error_set(error, ENOTSUP, type, cause, msg);
}

static int
invalid(struct rte_flow_error *error, enum rte_flow_error_type type, const void *cause,
	const char *msg)
{
	return rte_flow_error_set(error, EINVAL, type, cause, msg);
}

/* @return 1 if the n bytes at p are all 0. */
static int
all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

/*
 * Mask m, value v of the item (its default mask when it gives none; "last" ranges are not
 * supported). @return 0 or -rte_errno.
 */
static int
item_mv(const struct rte_flow_item *item, const void *def, size_t size, const void **m,
	const void **v, struct rte_flow_error *error)
{
	static const uint8_t zero[64];

	*m = item->mask != NULL ? item->mask : def;
	*v = item->spec != NULL ? item->spec : zero;
	if (item->spec == NULL && item->mask != NULL && !all_zero(item->mask, size))
		return invalid(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item, "a mask without spec");
	if (item->spec == NULL)
		*m = zero;
	if (item->last != NULL)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_LAST, item,
			      "ranges (last) are not supported");
	return 0;
}

/* The header set the items fill: the outer headers, the inner ones past a tunnel item. */
static struct mlx5v_rte_flow_hdrs *
hdrs_m(struct mlx5v_rte_flow_spec *s)
{
	return s->inner ? &s->mask.inner : &s->mask.outer;
}

static struct mlx5v_rte_flow_hdrs *
hdrs_v(struct mlx5v_rte_flow_spec *s)
{
	return s->inner ? &s->value.inner : &s->value.outer;
}

/* A field set once: mask and value; another item asking a different one is refused. */
static int
put16(uint16_t *mask, uint16_t *val, uint16_t m, uint16_t v)
{
	if ((*mask & m) != 0 && ((*val ^ v) & *mask & m) != 0)
		return -1;
	*mask |= m;
	*val = (*val & ~m) | (v & m);
	return 0;
}

static int
put8(uint8_t *mask, uint8_t *val, uint8_t m, uint8_t v)
{
	uint16_t mm = *mask, vv = *val;
	int ret = put16(&mm, &vv, m, v);

	*mask = (uint8_t)mm;
	*val = (uint8_t)vv;
	return ret;
}

static int
item_eth(const struct rte_flow_item *item, struct mlx5v_rte_flow_spec *s,
	 struct rte_flow_error *error)
{
	struct mlx5v_rte_flow_hdrs *hm = hdrs_m(s), *hv = hdrs_v(s);
	const struct rte_flow_item_eth *m, *v;
	unsigned int i;
	int ret;

	ret = item_mv(item, &rte_flow_item_eth_mask, sizeof(*m), (const void **)&m,
		      (const void **)&v, error);
	if (ret != 0)
		return ret;
	for (i = 0; i < RTE_ETHER_ADDR_LEN; i++) {
		hm->dmac[i] = m->dst.addr_bytes[i];
		hv->dmac[i] = v->dst.addr_bytes[i] & m->dst.addr_bytes[i];
		hm->smac[i] = m->src.addr_bytes[i];
		hv->smac[i] = v->src.addr_bytes[i] & m->src.addr_bytes[i];
	}
	/* The device's ethertype is the one after the VLAN tags: a TPID is has_vlan. */
	if (m->type != 0 && (rte_be_to_cpu_16(v->type & m->type) == RTE_ETHER_TYPE_VLAN ||
			     rte_be_to_cpu_16(v->type & m->type) == RTE_ETHER_TYPE_QINQ)) {
		if (rte_be_to_cpu_16(v->type & m->type) != RTE_ETHER_TYPE_VLAN ||
		    m->type != RTE_BE16(0xffff))
			return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				      "eth type: only a C-VLAN TPID (0x8100) is matched");
		hm->cvlan_tag = 1;
		hv->cvlan_tag = 1;
	} else if (m->type != 0) {
		hm->ethertype = rte_be_to_cpu_16(m->type);
		hv->ethertype = rte_be_to_cpu_16(v->type & m->type);
	}
	if (m->has_vlan) {
		hm->cvlan_tag = 1;
		hv->cvlan_tag = v->has_vlan;
	}
	if (m->reserved != 0)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item, "eth reserved bits");
	return 0;
}

static int
item_vlan(const struct rte_flow_item *item, struct mlx5v_rte_flow_spec *s,
	  struct rte_flow_error *error)
{
	struct mlx5v_rte_flow_hdrs *hm = hdrs_m(s), *hv = hdrs_v(s);
	const struct rte_flow_item_vlan *m, *v;
	int ret;

	ret = item_mv(item, &rte_flow_item_vlan_mask, sizeof(*m), (const void **)&m,
		      (const void **)&v, error);
	if (ret != 0)
		return ret;
	if (m->has_more_vlan || m->reserved != 0)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "vlan has_more_vlan: only the first tag is matched");
	if (hm->cvlan_tag && !hv->cvlan_tag)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ITEM, item,
			       "vlan after eth has_vlan 0");
	hm->cvlan_tag = 1;
	hv->cvlan_tag = 1;
	hm->vlan_tci = rte_be_to_cpu_16(m->tci);
	hv->vlan_tci = rte_be_to_cpu_16(v->tci & m->tci);
	if (m->inner_type != 0) {
		if (hm->ethertype != 0)
			return invalid(error, RTE_FLOW_ERROR_TYPE_ITEM, item,
				       "vlan inner_type with an eth type");
		hm->ethertype = rte_be_to_cpu_16(m->inner_type);
		hv->ethertype = rte_be_to_cpu_16(v->inner_type & m->inner_type);
	}
	return 0;
}

/* The IP version of the layer, consistent with an ethertype the pattern named. */
static int
ip_version(const struct rte_flow_item *item, struct mlx5v_rte_flow_spec *s, uint8_t ver,
	   uint16_t et, struct rte_flow_error *error)
{
	struct mlx5v_rte_flow_hdrs *hm = hdrs_m(s), *hv = hdrs_v(s);

	if (hm->ethertype != 0 && ((hv->ethertype ^ et) & hm->ethertype) != 0)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ITEM, item,
			       "the ethertype names another protocol");
	hm->ip_version = 0xf;
	hv->ip_version = ver;
	return 0;
}

/* The fragment offset and the MF flag of fragment_offset. */
#define FRAG_BITS (RTE_IPV4_HDR_OFFSET_MASK | RTE_IPV4_HDR_MF_FLAG)

static int
item_ipv4(const struct rte_flow_item *item, struct mlx5v_rte_flow_spec *s,
	  struct rte_flow_error *error)
{
	struct mlx5v_rte_flow_hdrs *hm = hdrs_m(s), *hv = hdrs_v(s);
	const struct rte_flow_item_ipv4 *m, *v;
	struct rte_ipv4_hdr h;
	int ret;

	ret = item_mv(item, &rte_flow_item_ipv4_mask, sizeof(*m), (const void **)&m,
		      (const void **)&v, error);
	if (ret == 0)
		ret = ip_version(item, s, 4, RTE_ETHER_TYPE_IPV4, error);
	if (ret != 0)
		return ret;
	h = m->hdr;
	h.src_addr = 0;
	h.dst_addr = 0;
	h.next_proto_id = 0;
	h.fragment_offset = 0;
	if (!all_zero(&h, sizeof(h)))
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "ipv4: only src_addr, dst_addr, next_proto_id and fragment_offset "
			      "are matched");
	/*
	 * The match set's frag bit (prm/mlx5_eth §4.10): offset and MF under a full mask, 0
	 * (not a fragment, as Open vSwitch asks with "frag=no"); no other value or mask.
	 */
	if (m->hdr.fragment_offset != 0) {
		if (m->hdr.fragment_offset != RTE_BE16(FRAG_BITS) ||
		    (v->hdr.fragment_offset & m->hdr.fragment_offset) != 0)
			return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				      "ipv4: fragment_offset: only 0 under mask 0x3fff (not a "
				      "fragment)");
		hm->frag = 1;
		hv->frag = 0;
	}
	memcpy(&hm->src_ip[12], &m->hdr.src_addr, 4);
	memcpy(&hm->dst_ip[12], &m->hdr.dst_addr, 4);
	h.src_addr = v->hdr.src_addr & m->hdr.src_addr;
	h.dst_addr = v->hdr.dst_addr & m->hdr.dst_addr;
	memcpy(&hv->src_ip[12], &h.src_addr, 4);
	memcpy(&hv->dst_ip[12], &h.dst_addr, 4);
	hm->ip_protocol = m->hdr.next_proto_id;
	hv->ip_protocol = v->hdr.next_proto_id & m->hdr.next_proto_id;
	return 0;
}

static int
item_ipv6(const struct rte_flow_item *item, struct mlx5v_rte_flow_spec *s,
	  struct rte_flow_error *error)
{
	struct mlx5v_rte_flow_hdrs *hm = hdrs_m(s), *hv = hdrs_v(s);
	const struct rte_flow_item_ipv6 *m, *v;
	struct rte_flow_item_ipv6 h;
	unsigned int i;
	int ret;

	ret = item_mv(item, &rte_flow_item_ipv6_mask, sizeof(*m), (const void **)&m,
		      (const void **)&v, error);
	if (ret == 0)
		ret = ip_version(item, s, 6, RTE_ETHER_TYPE_IPV6, error);
	if (ret != 0)
		return ret;
	h = *m;
	memset(h.hdr.src_addr, 0, sizeof(h.hdr.src_addr));
	memset(h.hdr.dst_addr, 0, sizeof(h.hdr.dst_addr));
	h.hdr.proto = 0;
	if (!all_zero(&h, sizeof(h)))
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "ipv6: only src_addr, dst_addr and proto are matched");
	for (i = 0; i < 16; i++) {
		hm->src_ip[i] = m->hdr.src_addr[i];
		hv->src_ip[i] = v->hdr.src_addr[i] & m->hdr.src_addr[i];
		hm->dst_ip[i] = m->hdr.dst_addr[i];
		hv->dst_ip[i] = v->hdr.dst_addr[i] & m->hdr.dst_addr[i];
	}
	hm->ip_protocol = m->hdr.proto;
	hv->ip_protocol = v->hdr.proto & m->hdr.proto;
	return 0;
}

/* The L4 protocol: the IP item's protocol, if it named one, must agree. */
static int
l4_proto(const struct rte_flow_item *item, struct mlx5v_rte_flow_spec *s, uint8_t proto,
	 struct rte_flow_error *error)
{
	struct mlx5v_rte_flow_hdrs *hm = hdrs_m(s), *hv = hdrs_v(s);

	if (put8(&hm->ip_protocol, &hv->ip_protocol, 0xff, proto) != 0)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ITEM, item,
			       "the IP protocol names another one");
	return 0;
}

static int
item_udp(const struct rte_flow_item *item, struct mlx5v_rte_flow_spec *s,
	 struct rte_flow_error *error)
{
	struct mlx5v_rte_flow_hdrs *hm = hdrs_m(s), *hv = hdrs_v(s);
	const struct rte_flow_item_udp *m, *v;
	int ret;

	ret = item_mv(item, &rte_flow_item_udp_mask, sizeof(*m), (const void **)&m,
		      (const void **)&v, error);
	if (ret == 0)
		ret = l4_proto(item, s, IPPROTO_UDP, error);
	if (ret != 0)
		return ret;
	if (m->hdr.dgram_len != 0 || m->hdr.dgram_cksum != 0)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "udp: only src_port and dst_port are matched");
	hm->udp_sport = rte_be_to_cpu_16(m->hdr.src_port);
	hv->udp_sport = rte_be_to_cpu_16(v->hdr.src_port & m->hdr.src_port);
	hm->udp_dport = rte_be_to_cpu_16(m->hdr.dst_port);
	hv->udp_dport = rte_be_to_cpu_16(v->hdr.dst_port & m->hdr.dst_port);
	return 0;
}

static int
item_tcp(const struct rte_flow_item *item, struct mlx5v_rte_flow_spec *s,
	 struct rte_flow_error *error)
{
	struct mlx5v_rte_flow_hdrs *hm = hdrs_m(s), *hv = hdrs_v(s);
	const struct rte_flow_item_tcp *m, *v;
	struct rte_tcp_hdr h;
	int ret;

	ret = item_mv(item, &rte_flow_item_tcp_mask, sizeof(*m), (const void **)&m,
		      (const void **)&v, error);
	if (ret == 0)
		ret = l4_proto(item, s, IPPROTO_TCP, error);
	if (ret != 0)
		return ret;
	h = m->hdr;
	h.src_port = 0;
	h.dst_port = 0;
	h.tcp_flags = 0;
	if (!all_zero(&h, sizeof(h)))
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "tcp: only src_port, dst_port and tcp_flags are matched");
	hm->tcp_sport = rte_be_to_cpu_16(m->hdr.src_port);
	hv->tcp_sport = rte_be_to_cpu_16(v->hdr.src_port & m->hdr.src_port);
	hm->tcp_dport = rte_be_to_cpu_16(m->hdr.dst_port);
	hv->tcp_dport = rte_be_to_cpu_16(v->hdr.dst_port & m->hdr.dst_port);
	hm->tcp_flags = m->hdr.tcp_flags;
	hv->tcp_flags = v->hdr.tcp_flags & m->hdr.tcp_flags;
	return 0;
}

/* The caps of the port's device (prm/mlx5_eth §3.4). */
static const struct mlx5v_ethdev_caps *
caps_of(const struct rte_eth_dev *eth_dev)
{
	return &((const struct mlx5v_ethdev_priv *)eth_dev->data->dev_private)->caps;
}

/*
 * ICMP: the protocol, and the type and code in the misc parameters 3 where the device's flex
 * parser reads ICMP (flex_parser_protocols, prm/mlx5_eth §3.4); outer headers only.
 */
static int
item_icmp(struct rte_eth_dev *eth_dev, const struct rte_flow_item *item,
	  struct mlx5v_rte_flow_spec *s, struct rte_flow_error *error)
{
	const struct rte_flow_item_icmp *m, *v;
	struct rte_icmp_hdr h;
	int ret;

	ret = item_mv(item, &rte_flow_item_icmp_mask, sizeof(*m), (const void **)&m,
		      (const void **)&v, error);
	if (ret == 0 && s->value.outer.ip_version == 6)
		ret = invalid(error, RTE_FLOW_ERROR_TYPE_ITEM, item, "icmp over ipv6 (icmp6)");
	if (ret == 0)
		ret = l4_proto(item, s, IPPROTO_ICMP, error);
	if (ret != 0)
		return ret;
	h = m->hdr;
	h.icmp_type = 0;
	h.icmp_code = 0;
	if (!all_zero(&h, sizeof(h)))
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "icmp: only icmp_type and icmp_code are matched");
	if ((m->hdr.icmp_type | m->hdr.icmp_code) != 0 && !caps_of(eth_dev)->flex_icmp4)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "icmp: icmp_type and icmp_code: the device does not parse ICMP "
			      "(flex_parser_protocols)");
	s->mask.misc.icmp_type = m->hdr.icmp_type;
	s->value.misc.icmp_type = v->hdr.icmp_type & m->hdr.icmp_type;
	s->mask.misc.icmp_code = m->hdr.icmp_code;
	s->value.misc.icmp_code = v->hdr.icmp_code & m->hdr.icmp_code;
	return 0;
}

/* ICMPv6: the protocol, the type and code (misc 3) as for ICMP; after IPv6 only. */
static int
item_icmp6(struct rte_eth_dev *eth_dev, const struct rte_flow_item *item,
	   struct mlx5v_rte_flow_spec *s, struct rte_flow_error *error)
{
	const struct rte_flow_item_icmp6 *m, *v;
	int ret;

	ret = item_mv(item, &rte_flow_item_icmp6_mask, sizeof(*m), (const void **)&m,
		      (const void **)&v, error);
	if (ret == 0 && s->value.outer.ip_version != 6)
		ret = invalid(error, RTE_FLOW_ERROR_TYPE_ITEM, item, "icmp6 without ipv6");
	if (ret == 0)
		ret = l4_proto(item, s, IPPROTO_ICMPV6, error);
	if (ret != 0)
		return ret;
	if (m->checksum != 0)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "icmp6: only type and code are matched");
	if ((m->type | m->code) != 0 && !caps_of(eth_dev)->flex_icmp6)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "icmp6: type and code: the device does not parse ICMPv6 "
			      "(flex_parser_protocols)");
	s->mask.misc.icmpv6_type = m->type;
	s->value.misc.icmpv6_type = v->type & m->type;
	s->mask.misc.icmpv6_code = m->code;
	s->value.misc.icmpv6_code = v->code & m->code;
	return 0;
}

/*
 * VXLAN: UDP to port 4789, the one the device parses as VXLAN (as DPDK's mlx5 adds it), the
 * VNI in the misc parameters where ft_field_support says so; the items after it match the
 * inner headers.
 */
static int
item_vxlan(struct rte_eth_dev *eth_dev, const struct rte_flow_item *item,
	   struct mlx5v_rte_flow_spec *s, struct rte_flow_error *error)
{
	const struct rte_flow_item_vxlan *m, *v;
	struct rte_flow_item_vxlan h;
	uint32_t vm, vv;
	int ret;

	ret = item_mv(item, &rte_flow_item_vxlan_mask, sizeof(*m), (const void **)&m,
		      (const void **)&v, error);
	if (ret != 0)
		return ret;
	if (s->value.outer.ip_protocol != IPPROTO_UDP)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ITEM, item, "vxlan without udp");
	h = *m;
	memset(h.vni, 0, sizeof(h.vni));
	if (!all_zero(&h, sizeof(h)))
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "vxlan: only vni is matched (not the flags)");
	vm = (uint32_t)m->vni[0] << 16 | (uint32_t)m->vni[1] << 8 | m->vni[2];
	vv = (uint32_t)v->vni[0] << 16 | (uint32_t)v->vni[1] << 8 | v->vni[2];
	if (vm != 0 && !caps_of(eth_dev)->ft_vxlan_vni)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
			      "vxlan: vni: the device's NIC RX tables do not match it "
			      "(ft_field_support)");
	if (put16(&s->mask.outer.udp_dport, &s->value.outer.udp_dport, 0xffff,
		  RTE_VXLAN_DEFAULT_PORT) != 0)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ITEM, item,
			       "vxlan with a udp dst_port other than 4789");
	s->mask.misc.vxlan_vni = vm;
	s->value.misc.vxlan_vni = vv & vm;
	s->inner = 1;
	return 0;
}

/*
 * The pattern: each layer once, outer to inner; after a VXLAN item the inner headers, each
 * layer once again (no ICMP, no second tunnel).
 */
static int
parse_items(struct rte_eth_dev *eth_dev, const struct rte_flow_item items[],
	    struct mlx5v_rte_flow_spec *s, struct rte_flow_error *error)
{
	static const struct mlx5v_rte_flow_hdrs none;
	const struct rte_flow_item *it;
	unsigned int seen = 0, need, layer;
	int ret;

	if (items == NULL)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ITEM_NUM, NULL, "no pattern");
	for (it = items; it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		switch (it->type) {
		case RTE_FLOW_ITEM_TYPE_VOID:
			continue;
		case RTE_FLOW_ITEM_TYPE_ETH:
			layer = L_ETH;
			need = 0;
			break;
		case RTE_FLOW_ITEM_TYPE_VLAN:
			layer = L_VLAN;
			need = 0;
			break;
		case RTE_FLOW_ITEM_TYPE_IPV4:
		case RTE_FLOW_ITEM_TYPE_IPV6:
			layer = L_IP;
			need = 0;
			break;
		case RTE_FLOW_ITEM_TYPE_UDP:
		case RTE_FLOW_ITEM_TYPE_TCP:
		case RTE_FLOW_ITEM_TYPE_ICMP:
		case RTE_FLOW_ITEM_TYPE_ICMP6:
			layer = L_L4;
			need = L_IP;
			break;
		case RTE_FLOW_ITEM_TYPE_VXLAN:
			layer = L_TUNNEL;
			need = L_L4;
			break;
		default:
			return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM, it, "item not supported");
		}
		if (s->inner && (layer == L_TUNNEL || it->type == RTE_FLOW_ITEM_TYPE_ICMP ||
				 it->type == RTE_FLOW_ITEM_TYPE_ICMP6))
			return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM, it,
				      "after vxlan only eth, vlan, ipv4, ipv6, udp and tcp (the "
				      "inner headers) are matched");
		if ((seen & ~(layer - 1)) != 0)
			return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM, it,
				      "item out of order or repeated");
		if ((seen & need) != need)
			return invalid(error, RTE_FLOW_ERROR_TYPE_ITEM, it,
				       "item without the layer below it");
		seen |= layer;
		switch (it->type) {
		case RTE_FLOW_ITEM_TYPE_ETH:
			ret = item_eth(it, s, error);
			break;
		case RTE_FLOW_ITEM_TYPE_VLAN:
			ret = item_vlan(it, s, error);
			break;
		case RTE_FLOW_ITEM_TYPE_IPV4:
			ret = item_ipv4(it, s, error);
			break;
		case RTE_FLOW_ITEM_TYPE_IPV6:
			ret = item_ipv6(it, s, error);
			break;
		case RTE_FLOW_ITEM_TYPE_UDP:
			ret = item_udp(it, s, error);
			break;
		case RTE_FLOW_ITEM_TYPE_TCP:
			ret = item_tcp(it, s, error);
			break;
		case RTE_FLOW_ITEM_TYPE_ICMP:
			ret = item_icmp(eth_dev, it, s, error);
			break;
		case RTE_FLOW_ITEM_TYPE_ICMP6:
			ret = item_icmp6(eth_dev, it, s, error);
			break;
		default:
			ret = item_vxlan(eth_dev, it, s, error);
			/* The inner headers: each layer once again. */
			seen = 0;
			break;
		}
		if (ret != 0)
			return ret;
	}
	if (memcmp(&s->mask.inner, &none, sizeof(none)) != 0 && !caps_of(eth_dev)->ft_inner)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ITEM, items,
			      "inner headers: the device's NIC RX tables do not match them "
			      "(ft_field_support)");
	return 0;
}

static int
fate_set(struct mlx5v_rte_flow_spec *s, enum mlx5v_rte_flow_fate f,
	 const struct rte_flow_action *a, struct rte_flow_error *error)
{
	if (s->fate != MLX5V_RTE_FLOW_FATE_NONE)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION, a, "a second fate action");
	s->fate = f;
	return 0;
}

/*
 * The rss_hf bits of an IPv4 (v6 0) or IPv6 class: addresses, then the L4 protocol's. The
 * IPv6 "_EX" types hash as the plain ones (the TIR reads the fixed header), as on DPDK's mlx5.
 */
#define RSS_L3(v6) ((v6) ? RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_FRAG_IPV6 | \
		    RTE_ETH_RSS_NONFRAG_IPV6_OTHER | RTE_ETH_RSS_IPV6_EX : RTE_ETH_RSS_IPV4 | \
		    RTE_ETH_RSS_FRAG_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_OTHER)
#define RSS_V6_TCP (RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_IPV6_TCP_EX)
#define RSS_V6_UDP (RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_IPV6_UDP_EX)
#define RSS_ALL (RSS_L3(0) | RSS_L3(1) | RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
		 RTE_ETH_RSS_NONFRAG_IPV4_UDP | RSS_V6_TCP | RSS_V6_UDP)

/*
 * RSS: one indirect Toeplitz TIR over an RQT of the queues. A TIR hashes one class
 * (prm/mlx5_eth §4.9), the one the pattern names: its IP version, TCP or UDP if it names
 * one; types say whether the addresses and the ports are hashed (0: the addresses).
 */
static int
action_rss(struct rte_eth_dev *eth_dev, const struct rte_flow_action *a,
	   struct mlx5v_rte_flow_spec *s, struct rte_flow_error *error)
{
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	const struct rte_flow_action_rss *r = a->conf;
	struct mlx5v_rte_flow_rss *o = &s->rss;
	uint64_t types, l4 = 0;
	unsigned int i;

	RTE_BUILD_BUG_ON(MLX5V_RTE_FLOW_RSS_KEY_LEN != MLX5V_ETH_RSS_KEY_LEN ||
			 MLX5V_RTE_FLOW_RSS_MAX < MLX5V_ETH_MAX_QUEUES);
	if (r == NULL || r->queue_num == 0 || r->queue_num > MLX5V_RTE_FLOW_RSS_MAX)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, "rss: 1 to 16 queues");
	if (r->func != RTE_ETH_HASH_FUNCTION_DEFAULT &&
	    r->func != RTE_ETH_HASH_FUNCTION_TOEPLITZ)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, "rss func: Toeplitz only");
	if (r->level > 1)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			      "rss level: the outer headers only");
	if (r->key_len != 0 && r->key_len != MLX5V_RTE_FLOW_RSS_KEY_LEN)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			      "rss key_len: 40 bytes (or 0 for the port's key)");
	if ((r->types & ~RSS_ALL) != 0)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			      "rss types: IPv4/IPv6 addresses and TCP/UDP ports only");
	if (s->mask.outer.ip_version == 0)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION, a,
			      "rss: the pattern must name ipv4 or ipv6 (one TIR hashes one class)");
	for (i = 0; i < r->queue_num; i++) {
		if (r->queue[i] >= eth_dev->data->nb_rx_queues)
			return invalid(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
				       "rss: a queue beyond the Rx queues");
		o->queue[i] = r->queue[i];
	}
	o->n = (uint16_t)r->queue_num;
	memcpy(o->key, r->key_len != 0 ? r->key : priv->rss_key, sizeof(o->key));
	o->ipv6 = s->value.outer.ip_version == 6;
	if (s->mask.outer.ip_protocol == 0xff && s->value.outer.ip_protocol == IPPROTO_UDP) {
		o->udp = 1;
		l4 = o->ipv6 ? RSS_V6_UDP : RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	} else if (s->mask.outer.ip_protocol == 0xff && s->value.outer.ip_protocol == IPPROTO_TCP) {
		l4 = o->ipv6 ? RSS_V6_TCP : RTE_ETH_RSS_NONFRAG_IPV4_TCP;
	}
	types = r->types != 0 ? r->types : RSS_L3(o->ipv6);
	o->ip = (types & (RSS_L3(o->ipv6) | l4)) != 0;
	o->l4 = (types & l4) != 0;
	return fate_set(s, MLX5V_RTE_FLOW_FATE_RSS, a, error);
}

static int
parse_actions(struct rte_eth_dev *eth_dev, const struct rte_flow_action actions[],
	      struct mlx5v_rte_flow_spec *s, struct rte_flow_error *error)
{
	const struct rte_flow_action_queue *q;
	const struct rte_flow_action_mark *mark;
	const struct rte_flow_action_jump *jump;
	const struct rte_flow_action_count *cnt;
	const struct rte_flow_action *a;
	int ret;

	if (actions == NULL)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL, "no actions");
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		ret = 0;
		switch (a->type) {
		case RTE_FLOW_ACTION_TYPE_VOID:
			break;
		case RTE_FLOW_ACTION_TYPE_QUEUE:
			q = a->conf;
			if (q == NULL || q->index >= eth_dev->data->nb_rx_queues)
				return invalid(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					       "queue index beyond the Rx queues");
			s->queue = q->index;
			ret = fate_set(s, MLX5V_RTE_FLOW_FATE_QUEUE, a, error);
			break;
		case RTE_FLOW_ACTION_TYPE_DROP:
			ret = fate_set(s, MLX5V_RTE_FLOW_FATE_DROP, a, error);
			break;
		case RTE_FLOW_ACTION_TYPE_RSS:
			ret = action_rss(eth_dev, a, s, error);
			break;
		case RTE_FLOW_ACTION_TYPE_JUMP:
			jump = a->conf;
			if (jump == NULL || jump->group > MLX5V_RTE_FLOW_MAX_GROUP ||
			    jump->group <= s->group)
				return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					      "jump group: a higher group, at most 5");
			s->jump_group = jump->group;
			ret = fate_set(s, MLX5V_RTE_FLOW_FATE_JUMP, a, error);
			break;
		case RTE_FLOW_ACTION_TYPE_MARK:
			mark = a->conf;
			if (s->flow_tag != 0)
				return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION, a,
					      "a second mark or flag");
			if (mark == NULL || mark->id >= MLX5V_RTE_FLOW_MARK_MAX)
				return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					      "mark id: below 0xfffff0 (24-bit flow tag)");
			s->flow_tag = mark->id + 1;
			break;
		case RTE_FLOW_ACTION_TYPE_FLAG:
			if (s->flow_tag != 0)
				return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION, a,
					      "a second mark or flag");
			s->flow_tag = MLX5V_RTE_FLOW_TAG_FLAG;
			break;
		case RTE_FLOW_ACTION_TYPE_COUNT:
			cnt = a->conf;
			if (s->count)
				return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION, a,
					      "a second count");
			if (cnt != NULL && cnt->id != 0)
				return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					      "count id: shared counters are not supported");
			s->count = 1;
			break;
		default:
			return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION, a,
				      "action not supported");
		}
		if (ret != 0)
			return ret;
	}
	if (s->fate == MLX5V_RTE_FLOW_FATE_NONE)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION_NUM, actions,
			      "a fate action is required (queue, rss, drop or jump)");
	if (s->fate == MLX5V_RTE_FLOW_FATE_DROP && s->flow_tag != 0)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ACTION, actions,
			      "mark or flag with drop: nothing is received to carry it");
	return 0;
}

static int
parse_attr(const struct rte_flow_attr *attr, struct mlx5v_rte_flow_spec *s,
	   struct rte_flow_error *error)
{
	if (attr == NULL)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ATTR, NULL, "no attributes");
	if (attr->egress)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS, attr,
			      "egress rules are not supported");
	if (attr->transfer)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, attr,
			      "transfer rules are not supported");
	if (!attr->ingress)
		return invalid(error, RTE_FLOW_ERROR_TYPE_ATTR_INGRESS, attr,
			       "ingress is required");
	if (attr->group > MLX5V_RTE_FLOW_MAX_GROUP)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
			      "group: 0 to 5");
	if (attr->priority >= MLX5V_RTE_FLOW_PRIOS)
		return refuse(error, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
			      "priority: 0 to 7");
	s->group = attr->group;
	s->priority = attr->priority;
	return 0;
}

int
mlx5v_rte_flow_parse(struct rte_eth_dev *eth_dev, const struct rte_flow_attr *attr,
		     const struct rte_flow_item items[], const struct rte_flow_action actions[],
		     struct mlx5v_rte_flow_spec *spec, struct rte_flow_error *error)
{
	int ret;

	memset(spec, 0, sizeof(*spec));
	ret = parse_attr(attr, spec, error);
	if (ret == 0)
		ret = parse_items(eth_dev, items, spec, error);
	if (ret == 0)
		ret = parse_actions(eth_dev, actions, spec, error);
	return ret;
}
