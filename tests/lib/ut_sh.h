/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Run a shell command line from a unit test (ip(8) for TAPs and namespaces), check that
 * TAPs are usable, and the ARP frames the kernel answers over them.
 */

#ifndef _UT_SH_H_
#define _UT_SH_H_

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>

static inline int
ut_sh(const char *fmt, ...) __rte_format_printf(1, 2);

/** @return system()'s result for the formatted command line. */
static inline int
ut_sh(const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return system(line);
}

/** @return 0 if TAPs can be created here (/dev/net/tun and ip(8)), else print why and -1. */
static inline int
ut_tap_usable(void)
{
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		printf("skipped: /dev/net/tun: %s\n", strerror(errno));
		return -1;
	}
	close(fd);
	if (ut_sh("command -v ip >/dev/null 2>&1") != 0) {
		printf("skipped: no ip(8)\n");
		return -1;
	}
	return 0;
}

/**
 * End of a TAP test: delete the namespace ns (when ns_made) and check that the TAP ifname
 * went with its port. @return 0, or -1 if the TAP was left behind (it is removed now).
 */
static inline int
ut_tap_done(const char *ns, int ns_made, const char *ifname)
{
	if (ns_made)
		ut_sh("ip netns del %s >/dev/null 2>&1", ns);
	if (if_nametoindex(ifname) == 0)
		return 0;
	printf("TAP %s left behind\n", ifname);
	ut_sh("ip link del %s >/dev/null 2>&1", ifname);
	return -1;
}

/** Build a broadcast ARP request at p from mac: who has tip, tell sip. @return 60, its length. */
static inline uint32_t
ut_arp_request(uint8_t *p, const uint8_t *mac, uint32_t sip, uint32_t tip)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(eth + 1);

	memset(p, 0, 60);
	memset(eth->dst_addr.addr_bytes, 0xff, RTE_ETHER_ADDR_LEN);
	memcpy(eth->src_addr.addr_bytes, mac, RTE_ETHER_ADDR_LEN);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	arp->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = RTE_ETHER_ADDR_LEN;
	arp->arp_plen = 4;
	arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REQUEST);
	memcpy(arp->arp_data.arp_sha.addr_bytes, mac, RTE_ETHER_ADDR_LEN);
	arp->arp_data.arp_sip = rte_cpu_to_be_32(sip);
	arp->arp_data.arp_tip = rte_cpu_to_be_32(tip);
	return 60;
}

/** @return 1 if the len-byte frame p is an ARP reply from sip to mac, else 0. */
static inline int
ut_arp_is_reply(const uint8_t *p, uint32_t len, const uint8_t *mac, uint32_t sip)
{
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)p;
	const struct rte_arp_hdr *arp = (const struct rte_arp_hdr *)(eth + 1);

	return len >= sizeof(*eth) + sizeof(*arp) &&
	       eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP) &&
	       rte_be_to_cpu_16(arp->arp_opcode) == RTE_ARP_OP_REPLY &&
	       memcmp(eth->dst_addr.addr_bytes, mac, RTE_ETHER_ADDR_LEN) == 0 &&
	       arp->arp_data.arp_sip == rte_cpu_to_be_32(sip) &&
	       memcmp(arp->arp_data.arp_tha.addr_bytes, mac, RTE_ETHER_ADDR_LEN) == 0;
}

#endif /* _UT_SH_H_ */
