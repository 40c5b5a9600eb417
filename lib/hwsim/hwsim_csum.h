/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The Tx checksum offload of a simulated device: fill the IPv4 header checksum and the TCP/UDP
 * checksum of a frame whose headers the device model's own parser located. Device models keep
 * their parser (what the device understands is part of the model) and share the fill.
 */

#ifndef _HWSIM_CSUM_H_
#define _HWSIM_CSUM_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

/** Fill the IPv4 header checksum. */
#define HWSIM_CSUM_L3 0x1
/** Fill the TCP or UDP checksum. */
#define HWSIM_CSUM_L4 0x2

/** Where the headers of a frame are, as the device model's parser found them. */
struct hwsim_csum_hdrs {
	uint32_t l3;          /**< offset of the IP header */
	uint32_t l4;          /**< offset of the TCP/UDP header */
	uint8_t ip_version;   /**< 4 or 6; anything else is not IP: nothing is filled */
	uint8_t l4_proto;     /**< IPPROTO_TCP or IPPROTO_UDP; anything else: no L4 checksum */
};

/**
 * Fill the checksums what (HWSIM_CSUM_*) asks for in frame f, in place. IPv6 has no header
 * checksum; the L4 checksum covers the pseudo-header and the datagram with the field zeroed,
 * as DPDK's helpers compute it ready to store. The parser guarantees the headers lie within
 * the frame.
 */
static inline void
hwsim_csum_fill(uint8_t *f, const struct hwsim_csum_hdrs *h, unsigned int what)
{
	struct rte_ipv4_hdr *ip4 = (struct rte_ipv4_hdr *)(f + h->l3);
	uint8_t *l4 = f + h->l4;
	size_t ck_off;
	uint16_t ck;

	if (h->ip_version == 4 && (what & HWSIM_CSUM_L3)) {
		ip4->hdr_checksum = 0;
		ip4->hdr_checksum = rte_ipv4_cksum(ip4);
	}
	if (!(what & HWSIM_CSUM_L4) || (h->ip_version != 4 && h->ip_version != 6) ||
	    (h->l4_proto != IPPROTO_TCP && h->l4_proto != IPPROTO_UDP))
		return;
	ck_off = h->l4_proto == IPPROTO_TCP ? offsetof(struct rte_tcp_hdr, cksum) :
		offsetof(struct rte_udp_hdr, dgram_cksum);
	/* The field may be unaligned: memcpy, not a store through a uint16_t pointer. */
	ck = 0;
	memcpy(l4 + ck_off, &ck, sizeof(ck));
	if (h->ip_version == 4)
		ck = rte_ipv4_udptcp_cksum(ip4, l4);
	else
		ck = rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)(f + h->l3), l4);
	memcpy(l4 + ck_off, &ck, sizeof(ck));
}

#endif /* _HWSIM_CSUM_H_ */
