/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The receive path of the Ethernet function: a frame from the wire goes through the
 * link gate, the MTU, the vport MAC filter, the NIC RX flow tables, a TIR (RSS Toeplitz over
 * an RQT), and is scattered into the RQ's next WQE with a receive CQE
 * (doc/guides/prm/mlx5_eth.rst §7, §8.2, §10).
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_net.h>
#include <rte_net_crc.h>
#include <rte_tcp.h>
#include <rte_thash.h>
#include <rte_udp.h>
#include <rte_vxlan.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_eth_dp.h"
#include "mlx5v_sim_priv.h"

/* Flow table hops a frame may take (one per level, prm/mlx5_eth §10.1 step 5). */
#define MLX5V_SIM_RX_MAX_HOPS (MLX5V_SIM_ETH_MAX_FT_LEVEL + 1)
/* Scatters stop at 4 KiB edges: an MTT key translates one page at a time (prm/mlx5_eth §4.2). */
#define MLX5V_SIM_SCATTER_CHUNK 4096u


/** What the parser learned about one frame, shared by every TIR it reaches. */
struct mlx5v_sim_rx_frame {
	const uint8_t *data;
	uint32_t len;
	uint32_t ptype;
	struct rte_net_hdr_lens hl;
	uint8_t l3_ok, l4_ok;      /**< CQE checksum-ok bits (L2 is always ok here) */
	uint8_t l3_type, l4_type;  /**< CQE l3_hdr_type, l4_hdr_type */
	uint8_t ip_options, ip_frag;
	int from_self;             /**< this port sent it (loop wire) */
	/** The fields flow entries match (prm/mlx5_eth §4.10), in fte_match_param. */
	uint8_t key[MLX5V_SIM_ETH_MATCH_LEN];
};

/** The CQE's RSS hash type: the IP version and the L4 protocol hashed (prm/mlx5_eth §8.2). */
struct mlx5v_sim_rx_hash_type {
	uint8_t ip;
	uint8_t l4;
};

/** The headers of one frame or of the frame a tunnel carries, as DPDK's parser found them. */
struct mlx5v_sim_rx_hdrs {
	const uint8_t *data;
	uint32_t len;
	uint32_t ptype;
	struct rte_net_hdr_lens hl;
};

/* The parser's view of n bytes at p (nothing is written through the borrowed mbuf). */
static void
mlx5v_sim_rx_hdrs_parse(struct mlx5v_sim_rx_hdrs *h, const uint8_t *p, uint32_t n)
{
	struct rte_mbuf m;

	memset(&m, 0, sizeof(m));
	m.buf_addr = (void *)(uintptr_t)p;
	m.buf_len = RTE_MIN(n, (uint32_t)UINT16_MAX);
	m.data_len = m.buf_len;
	m.pkt_len = m.buf_len;
	m.nb_segs = 1;
	h->data = p;
	h->len = n;
	h->ptype = rte_net_get_ptype(&m, &h->hl, RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK |
				     RTE_PTYPE_L4_MASK);
}

/* The CQE's view of the frame: its types and checksums, on DPDK's parser. */
static void
mlx5v_sim_rx_parse(struct mlx5v_sim_rx_frame *fr)
{
	const struct rte_ipv4_hdr *ip4;
	const struct rte_ipv6_hdr *ip6;
	const struct rte_tcp_hdr *tcp;
	struct mlx5v_sim_rx_hdrs h;
	const void *l4;
	uint32_t l4_type;
	int l3_ok = 0;
	int l4_ok = 0;

	mlx5v_sim_rx_hdrs_parse(&h, fr->data, fr->len);
	fr->ptype = h.ptype;
	fr->hl = h.hl;
	fr->l3_type = MLX5V_CQE_L3_NONE;
	fr->l4_type = MLX5V_CQE_L4_NONE;
	fr->ip_options = 0;
	fr->ip_frag = 0;
	l4_type = fr->ptype & RTE_PTYPE_L4_MASK;
	l4 = fr->data + fr->hl.l2_len + fr->hl.l3_len;
	if ((uint32_t)fr->hl.l2_len + fr->hl.l3_len + fr->hl.l4_len > fr->len)
		l4_type = 0;
	if (RTE_ETH_IS_IPV4_HDR(fr->ptype)) {
		ip4 = (const struct rte_ipv4_hdr *)(fr->data + fr->hl.l2_len);
		fr->l3_type = MLX5V_CQE_L3_IPV4;
		/* A valid header sums to 0xffff, so rte_ipv4_cksum() of it gives 0. */
		l3_ok = rte_ipv4_cksum(ip4) == 0;
		if (l3_ok && (l4_type == RTE_PTYPE_L4_TCP || l4_type == RTE_PTYPE_L4_UDP))
			l4_ok = rte_ipv4_udptcp_cksum_verify(ip4, l4) == 0;
		fr->ip_options = rte_ipv4_hdr_len(ip4) > sizeof(*ip4);
	} else if (RTE_ETH_IS_IPV6_HDR(fr->ptype)) {
		ip6 = (const struct rte_ipv6_hdr *)(fr->data + fr->hl.l2_len);
		fr->l3_type = MLX5V_CQE_L3_IPV6;
		l3_ok = 1;      /* IPv6 has no header checksum */
		if (l4_type == RTE_PTYPE_L4_TCP || l4_type == RTE_PTYPE_L4_UDP)
			l4_ok = rte_ipv6_udptcp_cksum_verify(ip6, l4) == 0;
		fr->ip_options = fr->hl.l3_len > sizeof(*ip6);
	}
	fr->ip_frag = (fr->ptype & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_FRAG;
	if (l4_type == RTE_PTYPE_L4_UDP) {
		fr->l4_type = MLX5V_CQE_L4_UDP;
	} else if (l4_type == RTE_PTYPE_L4_TCP) {
		tcp = l4;
		if (!(tcp->tcp_flags & RTE_TCP_ACK_FLAG))
			fr->l4_type = MLX5V_CQE_L4_TCP;
		else if ((uint32_t)fr->hl.l2_len + fr->hl.l3_len + fr->hl.l4_len < fr->len)
			fr->l4_type = MLX5V_CQE_L4_TCP_ACK_DATA;
		else
			fr->l4_type = MLX5V_CQE_L4_TCP_ACK;
	}
	fr->l3_ok = l3_ok;
	fr->l4_ok = l4_ok;
}

/*
 * The L4 fields of a header match set k (prm/mlx5_eth §4.10): TCP ports and flags, or UDP ports,
 * of a first fragment whose header the frame holds whole; the other fields stay 0.
 */
static void
mlx5v_sim_rx_match_key_l4(const struct mlx5v_sim_rx_hdrs *fr, uint32_t l4, uint8_t *k)
{
	const uint8_t *h = fr->data + fr->hl.l2_len + fr->hl.l3_len;

	if ((uint32_t)fr->hl.l2_len + fr->hl.l3_len + fr->hl.l4_len > fr->len)
		return;
	if (l4 == RTE_PTYPE_L4_TCP) {
		MLX5V_SET(fte_match_set_lyr_2_4, k, tcp_sport, mlx5v_sim_dp_be16(h));
		MLX5V_SET(fte_match_set_lyr_2_4, k, tcp_dport, mlx5v_sim_dp_be16(h + 2));
		/* The 9 flag bits: NS (the low bit of byte 12), then byte 13. */
		MLX5V_SET(fte_match_set_lyr_2_4, k, tcp_flags,
		    (uint32_t)(h[12] & 1) << 8 | h[13]);
	} else if (l4 == RTE_PTYPE_L4_UDP) {
		MLX5V_SET(fte_match_set_lyr_2_4, k, udp_sport, mlx5v_sim_dp_be16(h));
		MLX5V_SET(fte_match_set_lyr_2_4, k, udp_dport, mlx5v_sim_dp_be16(h + 2));
	}
}

/*
 * A header match set k of the headers fr: the MACs, the first VLAN tag (cvlan_tag and its
 * TCI), the ethertype after the VLAN tags, for IP the version, the protocol (IPv4: the
 * header's protocol; IPv6: TCP or UDP when the parser found one behind extension headers,
 * else the fixed header's next header) and the addresses (IPv4 in the last 4 bytes of the
 * 16-byte fields), then the L4 fields. @return the IP protocol, 0 without IP.
 */
static uint8_t
mlx5v_sim_rx_match_lyr(const struct mlx5v_sim_rx_hdrs *fr, uint8_t *k)
{
	const uint8_t *f = fr->data;
	uint32_t off = 2 * RTE_ETHER_ADDR_LEN;
	uint32_t l4 = fr->ptype & RTE_PTYPE_L4_MASK;
	const struct rte_ipv4_hdr *ip4;
	const struct rte_ipv6_hdr *ip6;
	uint16_t et = 0;
	uint16_t tci;
	uint8_t proto;

	if (fr->len < RTE_ETHER_HDR_LEN)
		return 0;
	MLX5V_SET(fte_match_set_lyr_2_4, k, dmac_47_16, mlx5v_sim_dp_be32(f));
	MLX5V_SET(fte_match_set_lyr_2_4, k, dmac_15_0, mlx5v_sim_dp_be16(f + 4));
	MLX5V_SET(fte_match_set_lyr_2_4, k, smac_47_16, mlx5v_sim_dp_be32(f + 6));
	MLX5V_SET(fte_match_set_lyr_2_4, k, smac_15_0, mlx5v_sim_dp_be16(f + 10));
	while (off + 2 <= fr->len) {
		et = mlx5v_sim_dp_be16(f + off);
		if ((et != RTE_ETHER_TYPE_VLAN && et != RTE_ETHER_TYPE_QINQ) ||
		    off + 2 + RTE_VLAN_HLEN > fr->len)
			break;
		if (off == 2 * RTE_ETHER_ADDR_LEN && et == RTE_ETHER_TYPE_VLAN) {
			tci = mlx5v_sim_dp_be16(f + off + 2);
			MLX5V_SET(fte_match_set_lyr_2_4, k, cvlan_tag, 1);
			MLX5V_SET(fte_match_set_lyr_2_4, k, first_prio, tci >> 13);
			MLX5V_SET(fte_match_set_lyr_2_4, k, first_cfi, (tci >> 12) & 1);
			MLX5V_SET(fte_match_set_lyr_2_4, k, first_vid, tci & 0xfff);
		}
		off += RTE_VLAN_HLEN;
	}
	MLX5V_SET(fte_match_set_lyr_2_4, k, ethertype, et);
	if (RTE_ETH_IS_IPV4_HDR(fr->ptype)) {
		ip4 = (const struct rte_ipv4_hdr *)(f + fr->hl.l2_len);
		proto = ip4->next_proto_id;
		MLX5V_SET(fte_match_set_lyr_2_4, k, ip_version, 4);
		memcpy((uint8_t *)MLX5V_IFC_ADDR_OF(fte_match_set_lyr_2_4, k, src_ipv4_src_ipv6) +
		       12, &ip4->src_addr, 4);
		memcpy((uint8_t *)MLX5V_IFC_ADDR_OF(fte_match_set_lyr_2_4, k, dst_ipv4_dst_ipv6) +
		       12, &ip4->dst_addr, 4);
	} else if (RTE_ETH_IS_IPV6_HDR(fr->ptype)) {
		ip6 = (const struct rte_ipv6_hdr *)(f + fr->hl.l2_len);
		proto = ip6->proto;
		if (l4 == RTE_PTYPE_L4_TCP)
			proto = IPPROTO_TCP;
		else if (l4 == RTE_PTYPE_L4_UDP)
			proto = IPPROTO_UDP;
		MLX5V_SET(fte_match_set_lyr_2_4, k, ip_version, 6);
		memcpy(MLX5V_IFC_ADDR_OF(fte_match_set_lyr_2_4, k, src_ipv4_src_ipv6),
		       ip6->src_addr, 16);
		memcpy(MLX5V_IFC_ADDR_OF(fte_match_set_lyr_2_4, k, dst_ipv4_dst_ipv6),
		       ip6->dst_addr, 16);
	} else {
		return 0;
	}
	MLX5V_SET(fte_match_set_lyr_2_4, k, ip_protocol, proto);
	/* frag: an IPv4 offset or MF, or an IPv6 fragment header (prm/mlx5_eth §4.10). */
	MLX5V_SET(fte_match_set_lyr_2_4, k, frag, l4 == RTE_PTYPE_L4_FRAG);
	mlx5v_sim_rx_match_key_l4(fr, l4, k);
	return proto;
}

/*
 * Misc 3's ICMP fields (prm/mlx5_eth §4.10): the type and code of an ICMP message right after an
 * IPv4 header that is not a fragment, or of an ICMPv6 message right after the fixed IPv6 header
 * (the model parses no extension header for it).
 */
static void
mlx5v_sim_rx_match_icmp(const struct mlx5v_sim_rx_hdrs *fr, uint8_t proto, uint8_t *k)
{
	uint32_t off = (uint32_t)fr->hl.l2_len + fr->hl.l3_len;
	const uint8_t *h = fr->data + off;

	if (off + 2 > fr->len || (fr->ptype & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_FRAG)
		return;
	if (RTE_ETH_IS_IPV4_HDR(fr->ptype) && proto == IPPROTO_ICMP) {
		MLX5V_SET(fte_match_param, k, misc_parameters_3.icmp_type, h[0]);
		MLX5V_SET(fte_match_param, k, misc_parameters_3.icmp_code, h[1]);
	} else if (RTE_ETH_IS_IPV6_HDR(fr->ptype) && proto == IPPROTO_ICMPV6 &&
		   fr->hl.l3_len == sizeof(struct rte_ipv6_hdr)) {
		MLX5V_SET(fte_match_param, k, misc_parameters_3.icmpv6_type, h[0]);
		MLX5V_SET(fte_match_param, k, misc_parameters_3.icmpv6_code, h[1]);
	}
}

/*
 * A VXLAN encapsulation (prm/mlx5_eth §4.10): UDP to port 4789 whose datagram holds the 8-byte
 * VXLAN header; its VNI goes into the misc parameters, the Ethernet frame after it is parsed into
 * the inner headers. The device parses that port as VXLAN whatever the flags say.
 */
static void
mlx5v_sim_rx_match_vxlan(const struct mlx5v_sim_rx_hdrs *fr, uint8_t *k)
{
	uint32_t off = (uint32_t)fr->hl.l2_len + fr->hl.l3_len + sizeof(struct rte_udp_hdr);
	struct mlx5v_sim_rx_hdrs in;
	const uint8_t *v;

	if ((fr->ptype & RTE_PTYPE_L4_MASK) != RTE_PTYPE_L4_UDP ||
	    off + sizeof(struct rte_vxlan_hdr) > fr->len ||
	    mlx5v_sim_dp_be16(fr->data + off - sizeof(struct rte_udp_hdr) + 2) !=
	    MLX5V_VXLAN_UDP_PORT)
		return;
	v = fr->data + off;
	/* VNI: bytes 4-6 of the VXLAN header. */
	MLX5V_SET(fte_match_param, k, misc_parameters.vxlan_vni,
	    (uint32_t)v[4] << 16 | (uint32_t)v[5] << 8 | v[6]);
	off += sizeof(struct rte_vxlan_hdr);
	mlx5v_sim_rx_hdrs_parse(&in, fr->data + off, fr->len - off);
	mlx5v_sim_rx_match_lyr(&in, MLX5V_IFC_ADDR_OF(fte_match_param, k, inner_headers));
}

/*
 * The frame's match sets (fte_match_param, prm/mlx5_eth §4.10): outer headers, VNI, inner headers,
 * ICMP.
 */
static void
mlx5v_sim_rx_match_key(struct mlx5v_sim_rx_frame *fr)
{
	struct mlx5v_sim_rx_hdrs h = {
		.data = fr->data, .len = fr->len, .ptype = fr->ptype, .hl = fr->hl,
	};
	uint8_t proto;

	memset(fr->key, 0, MLX5V_SIM_ETH_MATCH_LEN);
	proto = mlx5v_sim_rx_match_lyr(&h, MLX5V_IFC_ADDR_OF(fte_match_param, fr->key,
							     outer_headers));
	mlx5v_sim_rx_match_icmp(&h, proto, fr->key);
	mlx5v_sim_rx_match_vxlan(&h, fr->key);
}

/* @return 1 if mac is one of the n entries of list. */
static int
mlx5v_sim_rx_mac_in(const uint8_t (*list)[MLX5V_SIM_ETH_MAC_LEN], uint32_t n,
		    const uint8_t *mac)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (memcmp(list[i], mac, MLX5V_SIM_ETH_MAC_LEN) == 0)
			return 1;
	return 0;
}

/*
 * prm/mlx5_eth §10.1 step 2, the vport filter: everything while no address list is programmed, else
 * the permanent MAC, the UC/MC lists and the promiscuous bits.
 */
static int
mlx5v_sim_rx_vport_accepts(const struct mlx5v_sim_eth_port *p, const uint8_t *dmac)
{
	if (p->promisc_all || (p->nuc == 0 && p->nmc == 0))
		return 1;
	if (dmac[0] & 1)
		return p->promisc_mc || mlx5v_sim_rx_mac_in(p->mc, p->nmc, dmac);
	return p->promisc_uc || memcmp(dmac, p->perm_mac, MLX5V_SIM_ETH_MAC_LEN) == 0 ||
	       mlx5v_sim_rx_mac_in(p->uc, p->nuc, dmac);
}

/*
 * Toeplitz over the fields the TIR selects (prm/mlx5_eth §10.2) in the usual order: source address,
 * destination address, then source and destination port, with rte_softrss(). A TIR hashes
 * only frames of its class: a frame of another IP version than l3_prot_type, or, when the TIR
 * selects ports, not of l4_prot_type (with its L4 header whole), is hashed over nothing (0,
 * no hash type, RQT entry 0). No public source says what silicon does with them: this is the
 * conservative reading (doc/guides/nics/running_on_hardware.rst).
 * @return the hash; *type gets the CQE's hash type.
 */
static uint32_t
mlx5v_sim_rx_rss(const struct mlx5v_sim_eth_hash *h, const struct mlx5v_sim_rx_frame *fr,
		 struct mlx5v_sim_rx_hash_type *type)
{
	uint32_t tuple[RTE_THASH_V6_L4_LEN];
	const struct rte_ipv4_hdr *ip4;
	const struct rte_ipv6_hdr *ip6;
	const uint8_t *l4;
	uint32_t l4_type = fr->ptype & RTE_PTYPE_L4_MASK;
	uint32_t n = 0;
	uint32_t ports;
	uint32_t i;
	int is6;

	type->ip = 0;
	type->l4 = 0;
	if (h->fn != MLX5V_TIRC_HASH_TOEPLITZ)
		return 0;
	if (RTE_ETH_IS_IPV4_HDR(fr->ptype))
		is6 = 0;
	else if (RTE_ETH_IS_IPV6_HDR(fr->ptype))
		is6 = 1;
	else
		return 0;
	if (is6 != h->l3_ipv6)
		return 0;
	/* A TIR that hashes ports takes only its L4 protocol (TCP or UDP, header whole). */
	if ((h->fields & (MLX5V_HASH_FIELD_L4_SPORT | MLX5V_HASH_FIELD_L4_DPORT)) &&
	    !((l4_type == RTE_PTYPE_L4_TCP && !h->l4_udp) ||
	      (l4_type == RTE_PTYPE_L4_UDP && h->l4_udp)))
		return 0;
	if (!is6) {
		ip4 = (const struct rte_ipv4_hdr *)(fr->data + fr->hl.l2_len);
		if (h->fields & MLX5V_HASH_FIELD_SRC_IP)
			tuple[n++] = rte_be_to_cpu_32(ip4->src_addr);
		if (h->fields & MLX5V_HASH_FIELD_DST_IP)
			tuple[n++] = rte_be_to_cpu_32(ip4->dst_addr);
	} else {
		ip6 = (const struct rte_ipv6_hdr *)(fr->data + fr->hl.l2_len);
		for (i = 0; i < 4 && (h->fields & MLX5V_HASH_FIELD_SRC_IP); i++)
			tuple[n++] = mlx5v_sim_dp_be32(ip6->src_addr + 4 * i);
		for (i = 0; i < 4 && (h->fields & MLX5V_HASH_FIELD_DST_IP); i++)
			tuple[n++] = mlx5v_sim_dp_be32(ip6->dst_addr + 4 * i);
	}
	if (n > 0)
		type->ip = is6 ? MLX5V_CQE_RSS_IPV6 : MLX5V_CQE_RSS_IPV4;
	/* Ports only for the TIR's own L4 protocol, and only when the header is whole. */
	if ((h->fields & (MLX5V_HASH_FIELD_L4_SPORT | MLX5V_HASH_FIELD_L4_DPORT)) &&
	    ((l4_type == RTE_PTYPE_L4_TCP && !h->l4_udp) ||
	     (l4_type == RTE_PTYPE_L4_UDP && h->l4_udp))) {
		l4 = fr->data + fr->hl.l2_len + fr->hl.l3_len;
		ports = mlx5v_sim_dp_be32(l4);  /* sport, dport */
		tuple[n] = 0;
		if (h->fields & MLX5V_HASH_FIELD_L4_SPORT)
			tuple[n] |= ports & 0xffff0000u;
		if (h->fields & MLX5V_HASH_FIELD_L4_DPORT)
			tuple[n] |= ports & 0xffffu;
		n++;
		type->l4 = h->l4_udp ? MLX5V_CQE_RSS_UDP : MLX5V_CQE_RSS_TCP;
	}
	if (n == 0)
		return 0;
	return rte_softrss(tuple, n, h->key);
}

/*
 * Copy the frame into the WQE's data segments (prm/mlx5_eth §7.1). @return 0, or -1 with err set.
 */
static int
mlx5v_sim_rx_scatter(struct mlx5v_sim *sim, struct mlx5v_sim_eth_rq *rq, const uint8_t *f,
		     uint32_t len, uint8_t *synd, uint8_t *vsynd)
{
	uint32_t nseg = (1u << rq->wq.log_stride) / MLX5V_WQE_DS;
	uint64_t off = ((uint64_t)(rq->hw_counter & ((1u << rq->wq.log_sz) - 1))) <<
		       rq->wq.log_stride;
	uint8_t seg[MLX5V_IFC_BYTES(wqe_data_seg)];
	uint32_t i, bc, lkey, chunk, n;
	uint64_t addr;
	void *dst;

	for (i = 0; i < nseg && len > 0; i++) {
		if (hwsim_dma_read(sim->dma, mlx5v_sim_eth_wq_iova(&rq->wq, off + i * sizeof(seg)),
				   seg, sizeof(seg)) != 0)
			break;
		/*
		 * prm/mlx5_eth §7.1: bit 31 of byte_count is masked; a terminating key ends the
		 * list.
		 */
		bc = MLX5V_GET(wqe_data_seg, seg, byte_count) & ~MLX5V_WQE_DSEG_INLINE;
		lkey = MLX5V_GET(wqe_data_seg, seg, lkey);
		addr = MLX5V_IFC_GET64(wqe_data_seg, seg, addr);
		if (lkey == MLX5V_SIM_ETH_TERM_MKEY || (bc == 0 && lkey == 0))
			break;
		n = RTE_MIN(bc, len);
		while (n > 0) {
			chunk = RTE_MIN(n, MLX5V_SIM_SCATTER_CHUNK -
					(uint32_t)(addr & (MLX5V_SIM_SCATTER_CHUNK - 1)));
			/* The reserved lkey only on an RQ created with rlky (prm/mlx5_eth §4.2). */
			dst = mlx5v_sim_eth_mkey_ptr(sim, rq->wq.pd, lkey, addr, chunk,
						     MLX5V_SIM_ETH_ACC_WRITE |
						     (rq->rlky ? MLX5V_SIM_ETH_ACC_RLKY : 0));
			if (dst == NULL) {
				*synd = MLX5V_CQE_SYND_LOCAL_PROT;
				*vsynd = mlx5v_sim_eth_key_vsynd(rte_errno);
				return -1;
			}
			memcpy(dst, f, chunk);
			f += chunk;
			addr += chunk;
			n -= chunk;
			len -= chunk;
		}
	}
	if (len > 0) {
		/*
		 * prm/mlx5_eth §10.1: longer than the WQE's buffers: LOCAL_LENGTH_ERR, the RQ stays
		 * RDY.
		 */
		*synd = MLX5V_CQE_SYND_LOCAL_LENGTH;
		*vsynd = MLX5V_SIM_VSYND_RX_LENGTH;
		return -1;
	}
	return 0;
}

/*
 * The RQ's producer counter: dword 0 of its record, 16 bits significant (prm/mlx5_eth §7.2). A
 * record more than a ring ahead of the device's counter claims WQEs the ring cannot hold: a driver
 * bug, logged and counted as misuse (as for the SQ), and nothing is taken. @return 0 with
 * *pc set, -1 otherwise. Lock held.
 */
static int
mlx5v_sim_rx_posted(struct mlx5v_sim *sim, const struct mlx5v_sim_eth_rq *rq, uint16_t *pc)
{
	uint32_t dbr = 0;

	if (hwsim_dma_read(sim->dma, rq->wq.dbr_addr, &dbr, sizeof(dbr)) != 0)
		return -1;
	*pc = (uint16_t)rte_be_to_cpu_32(dbr);
	if ((uint16_t)(*pc - rq->hw_counter) > (1u << rq->wq.log_sz)) {
		SIM_LOG(WARNING, "%s: RQ 0x%x record %u is more than a ring ahead of %u "
			"(driver bug)", sim->name,
			MLX5V_SIM_ETH_RQ_BASE + (uint32_t)(rq - sim->eth->rq), *pc,
			rq->hw_counter);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		return -1;
	}
	return 0;
}

void
mlx5v_sim_eth_rq_flush(struct mlx5v_sim *sim, struct mlx5v_sim_eth_rq *rq)
{
	uint8_t cqe[MLX5V_IFC_BYTES(cqe_eth)];
	struct mlx5v_sim_eth_dp *dp = sim->dp;
	uint16_t pc;

	if (rq->state != MLX5V_SIM_ETH_Q_ERR || !rq->flush_in_error_en ||
	    mlx5v_sim_rx_posted(sim, rq, &pc) != 0)
		return;
	while ((uint16_t)rq->hw_counter != pc) {
		memset(cqe, 0, sizeof(cqe));
		MLX5V_SET(cqe_err, cqe, syndrome, MLX5V_CQE_SYND_WR_FLUSH);
		MLX5V_SET(cqe_err, cqe, opcode, MLX5V_CQE_OPCODE_RESP_ERR);
		MLX5V_SET(cqe_eth, cqe, user_index, rq->user_index);
		MLX5V_SET(cqe_eth, cqe, wqe_counter, rq->hw_counter);
		rq->hw_counter = (rq->hw_counter + 1) & 0xffff;
		if (dp != NULL) {
			dp->st.rx_err_cqes++;
			dp->st.rx_cq_full += mlx5v_sim_cq_post_rx_locked(sim, rq->cqn, cqe, 0);
		} else {
			mlx5v_sim_cq_post_rx_locked(sim, rq->cqn, cqe, 0);
		}
	}
}

/*
 * Whether an error CQE of syndrome synd moves the RQ to ERR (prm/mlx5_eth §8.4): a local QP
 * operation error and a protection error do, as DPDK's and Linux's receive paths expect; a frame
 * too long for its WQE (and the other syndromes the rx_err_synd knob can make) leaves it RDY.
 */
static int
mlx5v_sim_rx_synd_fatal(uint8_t synd)
{
	return synd == MLX5V_CQE_SYND_LOCAL_QP_OP || synd == MLX5V_CQE_SYND_LOCAL_PROT;
}

/* prm/mlx5_eth §10.1 steps 7-8: the RQ's next WQE and the receive CQE. Lock held. */
static void
mlx5v_sim_rx_rq(struct mlx5v_sim *sim, uint32_t rqn, const struct mlx5v_sim_rx_frame *fr,
		uint32_t flow_tag, uint32_t hash, const struct mlx5v_sim_rx_hash_type *hash_type)
{
	struct mlx5v_sim_eth_rq *rq = mlx5v_sim_eth_rq_get(sim, rqn);
	struct mlx5v_sim_eth_dp *dp = sim->dp;
	struct mlx5v_sim_eth_qcnt *qc;
	uint8_t cqe[MLX5V_IFC_BYTES(cqe_eth)];
	const uint8_t *f = fr->data;
	uint32_t len = fr->len;
	uint16_t tci = 0;
	uint16_t pc = 0;
	uint8_t synd = 0;
	uint8_t vsynd = 0;
	int stripped = 0;
	uint16_t idx;

	if (rq == NULL || rq->state != MLX5V_SIM_ETH_Q_RDY) {
		dp->st.rx_rq_not_ready++;
		/*
		 * WQEs posted to an RQ in ERR since it flushed are flushed as well
		 * (prm/mlx5_eth §8.4).
		 */
		if (rq != NULL)
			mlx5v_sim_eth_rq_flush(sim, rq);
		return;
	}
	if (mlx5v_sim_rx_posted(sim, rq, &pc) != 0 || pc == (uint16_t)rq->hw_counter) {
		/* prm/mlx5_eth §4.11: no WQE, the frame is lost and out_of_buffer counts it. */
		dp->st.rx_out_of_buffer++;
		qc = mlx5v_sim_eth_qcnt_get(sim, rq->counter_set_id);
		if (qc != NULL)
			qc->out_of_buffer++;
		return;
	}
	/* prm/mlx5_eth §8.2: with vsd 0 the outer C-VLAN tag is stripped into the CQE. */
	if (!rq->vsd && len >= RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN &&
	    mlx5v_sim_dp_be16(f + 12) == RTE_ETHER_TYPE_VLAN) {
		tci = mlx5v_sim_dp_be16(f + 14);
		memcpy(dp->rxbuf, f, 2 * RTE_ETHER_ADDR_LEN);
		memcpy(dp->rxbuf + 12, f + 16, len - 16);
		len -= RTE_VLAN_HLEN;
		f = dp->rxbuf;
		stripped = 1;
	}
	/* prm/mlx5_eth §7.1: the FCS is scattered only with scatter_fcs. */
	if (rq->scatter_fcs) {
		uint32_t crc = rte_cpu_to_le_32(rte_net_crc_calc(f, len, RTE_NET_CRC32_ETH));

		if (f != dp->rxbuf)
			memcpy(dp->rxbuf, f, len);
		memcpy(dp->rxbuf + len, &crc, RTE_ETHER_CRC_LEN);
		len += RTE_ETHER_CRC_LEN;
		f = dp->rxbuf;
	}
	idx = rq->hw_counter;
	memset(cqe, 0, sizeof(cqe));
	if (hwsim_knob_take(sim->knobs, MLX5V_SIM_K_RX_ERR_NEXT)) {
		synd = (uint8_t)mlx5v_sim_knob(sim, MLX5V_SIM_K_RX_ERR_SYND);
		vsynd = MLX5V_SIM_VSYND_RX_KNOB;
	} else if (mlx5v_sim_rx_scatter(sim, rq, f, len, &synd, &vsynd) == 0) {
		synd = 0;
	}
	if (synd != 0) {
		MLX5V_SET(cqe_err, cqe, syndrome, synd);
		MLX5V_SET(cqe_err, cqe, vendor_err_synd, vsynd);
		MLX5V_SET(cqe_err, cqe, opcode, MLX5V_CQE_OPCODE_RESP_ERR);
		/*
		 * A key failure is fatal to the RQ (prm/mlx5_eth §8.4: LOCAL_PROT_ERR needs a
		 * reset).
		 */
		if (mlx5v_sim_rx_synd_fatal(synd))
			rq->state = MLX5V_SIM_ETH_Q_ERR;
		dp->st.rx_err_cqes++;
	} else {
		MLX5V_SET(cqe_eth, cqe, rss_hash_result, hash);
		MLX5V_SET(cqe_eth, cqe, rss_ip_type, hash_type->ip);
		MLX5V_SET(cqe_eth, cqe, rss_l4_type, hash_type->l4);
		/* L2 ok: the FCS was good (bad ones never get here). */
		MLX5V_SET(cqe_eth, cqe, l2_ok, 1);
		MLX5V_SET(cqe_eth, cqe, l3_ok, fr->l3_ok);
		MLX5V_SET(cqe_eth, cqe, l4_ok, fr->l4_ok);
		MLX5V_SET(cqe_eth, cqe, ip_frag, fr->ip_frag);
		MLX5V_SET(cqe_eth, cqe, l4_hdr_type, fr->l4_type);
		MLX5V_SET(cqe_eth, cqe, l3_hdr_type, fr->l3_type);
		MLX5V_SET(cqe_eth, cqe, ip_options, fr->ip_options);
		MLX5V_SET(cqe_eth, cqe, cvlan_stripped, stripped);
		MLX5V_SET(cqe_eth, cqe, vlan_info, tci);
		MLX5V_SET(cqe_eth, cqe, qpn, flow_tag);
		MLX5V_SET(cqe_eth, cqe, byte_cnt, len);
		MLX5V_SET(cqe_eth, cqe, opcode, MLX5V_CQE_OPCODE_RESP_SEND);
		/*
		 * A bit drivers must not mistake for an error (knob rx_cqe_se, prm/mlx5_eth §8.1).
		 */
		MLX5V_SET(cqe_eth, cqe, se, mlx5v_sim_knob(sim, MLX5V_SIM_K_RX_CQE_SE) != 0);
		dp->st.rx_frames++;
		dp->st.rx_bytes += len;
	}
	/* user_index and wqe_counter: the same place in both layouts. */
	MLX5V_SET(cqe_eth, cqe, user_index, rq->user_index);
	MLX5V_SET(cqe_eth, cqe, wqe_counter, idx);
	rq->hw_counter = (rq->hw_counter + 1) & 0xffff;
	/*
	 * A full CQ raises CQ_ERROR (mlx5v_sim_cq.c); the frame is lost either way. In a burst, a
	 * CQ with compression holds the CQE for a session (prm/mlx5_eth §8.5).
	 */
	dp->st.rx_cq_full += mlx5v_sim_cq_post_rx_locked(sim, rq->cqn, cqe, dp->rx_batch);
	/* After the error CQE, the WQEs still posted complete flushed (prm/mlx5_eth §8.4). */
	mlx5v_sim_eth_rq_flush(sim, rq);
}

/* prm/mlx5_eth §10.1 step 6: DIRECT to one RQ, INDIRECT through the hash and the RQT. Lock held. */
static void
mlx5v_sim_rx_tir(struct mlx5v_sim *sim, uint32_t tirn, const struct mlx5v_sim_rx_frame *fr,
		 uint32_t flow_tag)
{
	struct mlx5v_sim_eth_tir *tir = mlx5v_sim_eth_tir_get(sim, tirn);
	static const struct mlx5v_sim_rx_hash_type none;
	struct mlx5v_sim_rx_hash_type type;
	struct mlx5v_sim_eth_rqt *rqt;
	uint32_t hash;

	if (tir == NULL)
		return;
	/*
	 * self_lb_block: bit 0 unicast, bit 1 multicast frames this port sent (prm/mlx5_eth §10.4).
	 */
	if (fr->from_self && (tir->self_lb_block & ((fr->data[0] & 1) ? 2 : 1))) {
		sim->dp->st.rx_flow_drop++;
		return;
	}
	if (tir->disp_type == MLX5V_TIRC_DISP_DIRECT) {
		mlx5v_sim_rx_rq(sim, tir->inline_rqn, fr, flow_tag, 0, &none);
		return;
	}
	rqt = mlx5v_sim_eth_rqt_get(sim, tir->rqt);
	if (rqt == NULL || rqt->size == 0)
		return;
	hash = mlx5v_sim_rx_rss(&tir->hash, fr, &type);
	/*
	 * Sizes are powers of two in every driver; the low bits pick the entry
	 * (prm/mlx5_eth §10.1).
	 */
	mlx5v_sim_rx_rq(sim, rqt->rqn[hash % rqt->size], fr, flow_tag, hash, &type);
}

/*
 * @return 1 if entry f of table ft matches the frame under its group's mask (prm/mlx5_eth §10.1
 * step 4).
 */
static int
mlx5v_sim_rx_fte_match(struct mlx5v_sim_eth_ft *ft, const struct mlx5v_sim_eth_fte *f,
		       const struct mlx5v_sim_rx_frame *fr)
{
	const struct mlx5v_sim_eth_fg *fg = mlx5v_sim_eth_fg_get(ft, f->group);
	unsigned int i;

	if (fg == NULL)
		return 0;
	if (fg->criteria_enable == 0)
		return 1;
	for (i = 0; i < MLX5V_SIM_ETH_MATCH_LEN; i++)
		if ((fr->key[i] & fg->mask[i]) != (f->value[i] & fg->mask[i]))
			return 0;
	return 1;
}

/*
 * prm/mlx5_eth §10.1 steps 3-5: the first matching entry in flow index order (groups are ranges of
 * indexes), DROP or every destination of FWD_DEST; a miss continues in the miss table or
 * drops. Lock held.
 */
static void
mlx5v_sim_rx_steer(struct mlx5v_sim *sim, struct mlx5v_sim_eth_ft *ft,
		   const struct mlx5v_sim_rx_frame *fr, unsigned int hops)
{
	const struct mlx5v_sim_eth_fte *f = NULL;
	struct mlx5v_sim_eth_dp *dp = sim->dp;
	uint32_t i;

	if (ft == NULL || hops > MLX5V_SIM_RX_MAX_HOPS) {
		dp->st.rx_steer_miss++;
		return;
	}
	for (i = mlx5v_sim_eth_ft_next(ft, 0); i != UINT32_MAX && f == NULL;
	     i = mlx5v_sim_eth_ft_next(ft, i + 1))
		if (mlx5v_sim_rx_fte_match(ft, ft->fte[i], fr))
			f = ft->fte[i];
	if (f == NULL) {
		if (ft->miss_action == MLX5V_FT_MISS_FWD)
			mlx5v_sim_rx_steer(sim, mlx5v_sim_eth_ft_get(sim, ft->miss_table), fr,
					   hops + 1);
		else
			dp->st.rx_steer_miss++;
		return;
	}
	/* The counter sees every frame the entry matches, dropped or not (prm/mlx5_eth §4.10). */
	if (f->action & MLX5V_FTE_ACTION_COUNT) {
		struct mlx5v_sim_eth_fcnt *cnt = mlx5v_sim_eth_fcnt_get(sim, f->counter);

		if (cnt != NULL) {
			cnt->packets++;
			cnt->octets += fr->len;
		}
	}
	if (f->action & MLX5V_FTE_ACTION_DROP) {
		dp->st.rx_flow_drop++;
		return;
	}
	if (!(f->action & MLX5V_FTE_ACTION_FWD_DEST))
		return;
	/* Several destinations replicate the frame (prm/mlx5_eth §10.1 step 5). */
	for (i = 0; i < f->ndest; i++) {
		if (f->dest[i].type == MLX5V_FLOW_DEST_TIR)
			mlx5v_sim_rx_tir(sim, f->dest[i].id, fr, f->flow_tag);
		else if (f->dest[i].type == MLX5V_FLOW_DEST_FLOW_TABLE)
			mlx5v_sim_rx_steer(sim, mlx5v_sim_eth_ft_get(sim, f->dest[i].id), fr,
					   hops + 1);
	}
}

void
mlx5v_sim_eth_rx(void *arg, const void *frame, uint32_t len, uint32_t flags)
{
	struct mlx5v_sim *sim = arg;
	struct mlx5v_sim_rx_frame fr;
	struct mlx5v_sim_eth_port *p;
	struct mlx5v_sim_eth_dp *dp;
	uint32_t mtu;

	pthread_mutex_lock(&sim->lock);
	dp = sim->dp;
	p = &sim->eth->port;
	/* prm/mlx5_eth §10.1 step 1: the link gate (the engine may not have seen a change yet). */
	if (!mlx5v_sim_eth_link_up(sim)) {
		dp->st.rx_link_down++;
		goto out;
	}
	/* A frame with a bad FCS never reaches the steering. */
	if (flags & HWSIM_WIRE_RX_FCS_BAD) {
		dp->st.rx_fcs_bad++;
		goto out;
	}
	/* prm/mlx5_eth §11.4: the MTU counts the FCS the wire does not carry. */
	mtu = RTE_MIN(p->vport_mtu, p->admin_mtu);
	if (len + RTE_ETHER_CRC_LEN > mtu) {
		dp->st.rx_mtu_drop++;
		goto out;
	}
	if (!mlx5v_sim_rx_vport_accepts(p, frame)) {
		dp->st.rx_vport_drop++;
		goto out;
	}
	fr.data = frame;
	fr.len = len;
	dp->rx_batch = (flags & HWSIM_WIRE_RX_BATCH) != 0;
	fr.from_self = hwsim_wire_port_kind(dp->port) == HWSIM_WIRE_LOOP;
	mlx5v_sim_rx_parse(&fr);
	mlx5v_sim_rx_match_key(&fr);
	mlx5v_sim_rx_steer(sim, mlx5v_sim_eth_root(sim), &fr, 0);
out:
	pthread_mutex_unlock(&sim->lock);
	mlx5v_sim_irq_flush(sim);
}

void
mlx5v_sim_eth_rx_batch_end(void *arg)
{
	struct mlx5v_sim *sim = arg;

	pthread_mutex_lock(&sim->lock);
	/* The sessions the burst formed go out now (prm/mlx5_eth §8.5). */
	sim->dp->st.rx_cq_full += mlx5v_sim_cq_zip_flush_locked(sim);
	pthread_mutex_unlock(&sim->lock);
	mlx5v_sim_irq_flush(sim);
}
