/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The simulated Ethernet offloads of a ConnectX-3 port: the receive CQE status (packet kind,
 * IP header and TCP/UDP checksum verdicts, prm/mlx4 §4.6) and the checksums a send WQE asks
 * the device to compute (MLX4_WQE_CTRL_IP_HDR_CSUM, MLX4_WQE_CTRL_TCP_UDP_CSUM, prm/mlx4 §4.2).
 */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "hwsim_csum.h"
#include "mlx4v_prm_eth.h"
#include "mlx4v_sim_priv.h"

#define ETH_HLEN 14u
#define VLAN_HLEN 4u
#define IPV6_HLEN 40u
/* IPv6 extension headers the parser walks past (hop-by-hop, routing, destination). */
#define IPV6_EXT_HOP 0
#define IPV6_EXT_ROUTING 43
#define IPV6_EXT_FRAG 44
#define IPV6_EXT_DEST 60

/** Where the headers of a frame are, as far as the device's parser understands it. */
struct csum_frame {
	uint32_t l3;          /**< offset of the IP header, 0 when not IP */
	uint32_t l4;          /**< offset of the TCP/UDP header, 0 when none */
	uint32_t l3_end;      /**< end of the IP datagram (total length), within the frame */
	uint32_t status;      /**< MLX4V_CQE_STATUS_ kind bits */
	uint8_t proto;        /**< TCP or UDP, 0 for anything else */
};

/* Walk the IPv6 extension headers from off (next header nh). @return 0 or -1 (truncated). */
static int
csum_parse_ipv6_ext(const uint8_t *f, uint32_t end, uint32_t off, uint8_t nh,
		    struct csum_frame *fr)
{
	unsigned int hops;

	/* A bounded walk: a frame cannot make the device loop. */
	for (hops = 0; hops < 8; hops++) {
		/*
		 * The L4 checksum helpers take the payload length as the L4 length: only a
		 * TCP/UDP header right after the fixed header counts as one for the offloads.
		 */
		if ((nh == IPPROTO_TCP || nh == IPPROTO_UDP) && hops == 0) {
			fr->proto = nh;
			fr->l4 = off;
			return 0;
		}
		if (nh == IPV6_EXT_FRAG) {
			fr->status |= MLX4V_CQE_STATUS_IPV6F;
			return 0;
		}
		if (nh != IPV6_EXT_HOP && nh != IPV6_EXT_ROUTING && nh != IPV6_EXT_DEST)
			return 0;
		if (off + 8 > end)
			return -1;
		nh = f[off];
		off += 8u + f[off + 1] * 8u;
	}
	return 0;
}

/* Parse Ethernet (up to two VLAN tags), IPv4 or IPv6, TCP or UDP. */
static void
csum_parse(const uint8_t *f, uint32_t len, struct csum_frame *fr)
{
	const struct rte_ipv4_hdr *ip4;
	uint32_t off = ETH_HLEN, ihl, tot;
	uint16_t et, frag;
	unsigned int tags;

	memset(fr, 0, sizeof(*fr));
	if (len < ETH_HLEN)
		return;
	et = (uint16_t)(f[12] << 8 | f[13]);
	for (tags = 0; tags < 2 && (et == RTE_ETHER_TYPE_VLAN || et == RTE_ETHER_TYPE_QINQ);
	     tags++) {
		if (off + VLAN_HLEN > len)
			return;
		et = (uint16_t)(f[off + 2] << 8 | f[off + 3]);
		off += VLAN_HLEN;
	}
	if (et == RTE_ETHER_TYPE_IPV4 && off + sizeof(*ip4) <= len) {
		ip4 = (const struct rte_ipv4_hdr *)(f + off);
		ihl = (ip4->version_ihl & 0xf) * 4u;
		tot = rte_be_to_cpu_16(ip4->total_length);
		/* A header the parser cannot trust is not IP for the offloads. */
		if ((ip4->version_ihl >> 4) != 4 || ihl < sizeof(*ip4) || tot < ihl ||
		    off + tot > len)
			return;
		fr->l3 = off;
		fr->l3_end = off + tot;
		fr->status = MLX4V_CQE_STATUS_IPV4;
		if (ihl > sizeof(*ip4))
			fr->status |= MLX4V_CQE_STATUS_IPV4OPT;
		frag = rte_be_to_cpu_16(ip4->fragment_offset);
		if (frag & (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) {
			fr->status |= MLX4V_CQE_STATUS_IPV4F;
			return;
		}
		if (ip4->next_proto_id == IPPROTO_TCP || ip4->next_proto_id == IPPROTO_UDP) {
			fr->proto = ip4->next_proto_id;
			fr->l4 = off + ihl;
		}
	} else if (et == RTE_ETHER_TYPE_IPV6 && off + IPV6_HLEN <= len) {
		tot = IPV6_HLEN + (uint32_t)(f[off + 4] << 8 | f[off + 5]);
		if ((f[off] >> 4) != 6 || off + tot > len)
			return;
		fr->l3 = off;
		fr->l3_end = off + tot;
		fr->status = MLX4V_CQE_STATUS_IPV6;
		if (csum_parse_ipv6_ext(f, fr->l3_end, off + IPV6_HLEN, f[off + 6], fr) != 0)
			return;
	}
	/* The L4 header must be whole inside the datagram to count as TCP/UDP. */
	if (fr->l4 != 0 &&
	    fr->l4 + (fr->proto == IPPROTO_TCP ? sizeof(struct rte_tcp_hdr) :
		      sizeof(struct rte_udp_hdr)) > fr->l3_end) {
		fr->l4 = 0;
		fr->proto = 0;
	}
	if (fr->proto == IPPROTO_TCP)
		fr->status |= MLX4V_CQE_STATUS_TCP;
	else if (fr->proto == IPPROTO_UDP)
		fr->status |= MLX4V_CQE_STATUS_UDP;
}

/* @return 1 if the TCP/UDP checksum in place is right. */
static int
csum_l4_ok(const uint8_t *f, const struct csum_frame *fr)
{
	if (fr->status & MLX4V_CQE_STATUS_IPV4)
		return rte_ipv4_udptcp_cksum_verify((const struct rte_ipv4_hdr *)(f + fr->l3),
						    f + fr->l4) == 0;
	return rte_ipv6_udptcp_cksum_verify((const struct rte_ipv6_hdr *)(f + fr->l3),
					    f + fr->l4) == 0;
}

uint32_t
mlx4v_sim_csum_rx_status(const uint8_t *f, uint32_t len, int unverified)
{
	const struct rte_ipv4_hdr *ip4;
	struct csum_frame fr;
	uint16_t ck;
	int l3_ok = 0;

	csum_parse(f, len, &fr);
	/*
	 * Whether a ConnectX-3 verifies an IPv4 header with options (and what follows it) is not
	 * established: the conservative side, no verdict, a clear OK bit on a good frame.
	 */
	if (unverified && (fr.status & MLX4V_CQE_STATUS_IPV4OPT))
		return fr.status;
	if (fr.status & MLX4V_CQE_STATUS_IPV4) {
		ip4 = (const struct rte_ipv4_hdr *)(f + fr.l3);
		/* A correct header sums to 0xffff, whose complement is 0. */
		l3_ok = rte_ipv4_cksum(ip4) == 0;
	} else if (fr.status & MLX4V_CQE_STATUS_IPV6) {
		/* No header checksum in IPv6: a header that parsed is a good one. */
		l3_ok = 1;
	}
	if (l3_ok)
		fr.status |= MLX4V_CQE_STATUS_IP_CSUM_OK;
	if (!l3_ok || fr.l4 == 0)
		return fr.status;
	if (fr.proto == IPPROTO_UDP) {
		memcpy(&ck, f + fr.l4 + offsetof(struct rte_udp_hdr, dgram_cksum), sizeof(ck));
		/*
		 * UDP over IPv4 may leave the checksum out (0): nothing to be wrong, but whether
		 * the port says L4 OK then is not established; unverified: it does not.
		 */
		if (ck == 0 && (fr.status & MLX4V_CQE_STATUS_IPV4)) {
			if (!unverified)
				fr.status |= MLX4V_CQE_STATUS_L4_CSUM_OK;
			return fr.status;
		}
	}
	if (csum_l4_ok(f, &fr))
		fr.status |= MLX4V_CQE_STATUS_L4_CSUM_OK;
	return fr.status;
}

void
mlx4v_sim_csum_tx_fill(uint8_t *f, uint32_t len, uint32_t srcrb_flags)
{
	struct hwsim_csum_hdrs h = { 0 };
	struct csum_frame fr;

	csum_parse(f, len, &fr);
	h.l3 = fr.l3;
	h.l4 = fr.l4;
	h.ip_version = (fr.status & MLX4V_CQE_STATUS_IPV4) ? 4 :
		(fr.status & MLX4V_CQE_STATUS_IPV6) ? 6 : 0;
	/* Only a TCP/UDP header the parser accepted (l4 != 0) gets its checksum. */
	h.l4_proto = fr.l4 != 0 ? fr.proto : 0;
	hwsim_csum_fill(f, &h, ((srcrb_flags & MLX4_WQE_CTRL_IP_HDR_CSUM) ? HWSIM_CSUM_L3 : 0) |
			((srcrb_flags & MLX4_WQE_CTRL_TCP_UDP_CSUM) ? HWSIM_CSUM_L4 : 0));
}
