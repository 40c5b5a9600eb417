/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The mlx4_en netdevs of the verbs emulation (doc/guides/platform/verbs_emulation.rst,
 * "Netdevs"): the socket ioctls on an emulated port's name against its model (MAC, MTU set
 * and refused, IFF_UP taking the link down at both ends of the cable, the ethtool link
 * settings with their handshake, pause), an unknown request refused, and a request on another
 * name left to the kernel. Run under dpdk-mlxv-verbs-run with 0000:00:06.0 port 1 cabled to
 * 0000:00:07.0 port 1.
 */

#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include <rte_ether.h>

#include "mlx4v_sim.h"
#include "verbs_test.h"

static int sock = -1;

/* One request on ifname. @return 0 or -errno. */
static int
req(const char *ifname, unsigned long r, struct ifreq *ifr)
{
	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "%s", ifname);
	return ioctl(sock, r, ifr) == 0 ? 0 : -errno;
}

/* SIOCETHTOOL with data on ifname. @return 0 or -errno. */
static int
ethtool(const char *ifname, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_data = data;
	return req(ifname, SIOCETHTOOL, &ifr);
}

/* The link speed by ETHTOOL_GLINKSETTINGS (handshake, then the request). @return Mb/s or 0. */
static uint32_t
link_settings_speed(const char *ifname)
{
	uint32_t buf[sizeof(struct ethtool_link_settings) / sizeof(uint32_t) + 3 * SCHAR_MAX];
	struct ethtool_link_settings *ls = (struct ethtool_link_settings *)buf;
	int8_t nwords;

	memset(buf, 0, sizeof(buf));
	ls->cmd = ETHTOOL_GLINKSETTINGS;
	if (ethtool(ifname, ls) != 0 || ls->link_mode_masks_nwords >= 0)
		return 0;
	nwords = (int8_t)-ls->link_mode_masks_nwords;
	memset(buf, 0, sizeof(buf));
	ls->cmd = ETHTOOL_GLINKSETTINGS;
	ls->link_mode_masks_nwords = nwords;
	if (ethtool(ifname, ls) != 0 || ls->link_mode_masks_nwords != nwords)
		return 0;
	return ls->speed;
}

/*
 * Wait up to about 2 s for port 1's link to be up (1) or down (0): the far end of a cable
 * learns of a change from its own model's thread. @return 1 when it is.
 */
static int
link_wait(struct mlx4v_sim *sim, int up)
{
	struct timespec ts = { 0, 1000000 };
	int i;

	for (i = 0; i < 2000 && mlx4v_sim_link_get(sim, 1) != up; i++)
		nanosleep(&ts, NULL);
	return mlx4v_sim_link_get(sim, 1) == up;
}

int
main(void)
{
	struct ethtool_pauseparam pp;
	struct ethtool_value link;
	struct ethtool_cmd gset;
	struct mlx4v_sim *sim, *peer;
	struct rte_ether_addr mac;
	struct ifreq ifr;
	char name[IF_NAMESIZE];
	unsigned int idx;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sock = socket(AF_INET, SOCK_DGRAM, 0);
	/* The index makes the models (the preload makes them when the process first looks). */
	idx = if_nametoindex("enp0s6");
	if_nametoindex("enp0s7");
	sim = mlx4v_sim_get("verbs-0000:00:06.0");
	peer = mlx4v_sim_get("verbs-0000:00:07.0");
	CHECK(sock >= 0 && idx != 0 && sim != NULL && peer != NULL, "socket, enp0s6 index %u, "
	      "the models", idx);
	if (sock < 0 || sim == NULL || peer == NULL)
		return 1;
	CHECK(link_wait(sim, 1) && link_wait(peer, 1), "the cable's link up");
	CHECK(if_indextoname(idx, name) != NULL && strcmp(name, "enp0s6") == 0,
	      "if_indextoname(%u): enp0s6", idx);
	memset(&ifr, 0, sizeof(ifr));
	CHECK(req("enp0s6d1", SIOCGIFINDEX, &ifr) == 0 && ifr.ifr_ifindex == (int)idx + 1,
	      "SIOCGIFINDEX enp0s6d1: %d", ifr.ifr_ifindex);

	/* The MAC of each port is the model's. */
	mlx4v_sim_port_mac(sim, 2, &mac);
	memset(&ifr, 0, sizeof(ifr));
	CHECK(req("enp0s6d1", SIOCGIFHWADDR, &ifr) == 0 &&
	      memcmp(ifr.ifr_hwaddr.sa_data, mac.addr_bytes, 6) == 0,
	      "SIOCGIFHWADDR enp0s6d1: the model's port 2 MAC " RTE_ETHER_ADDR_PRT_FMT,
	      RTE_ETHER_ADDR_BYTES(&mac));

	/* The MTU is the port model's: set, read back, refused beyond what mlx4_en takes. */
	memset(&ifr, 0, sizeof(ifr));
	CHECK(req("enp0s6", SIOCGIFMTU, &ifr) == 0 && ifr.ifr_mtu == 1500, "MTU 1500 at first");
	ifr.ifr_mtu = 9000;
	CHECK(req("enp0s6", SIOCSIFMTU, &ifr) == 0 && mlx4v_sim_port_mtu_get(sim, 1) == 9000,
	      "SIOCSIFMTU 9000: the model's port MTU %u", mlx4v_sim_port_mtu_get(sim, 1));
	ifr.ifr_mtu = 9600;
	CHECK(req("enp0s6", SIOCSIFMTU, &ifr) == -EINVAL && mlx4v_sim_port_mtu_get(sim, 1) == 9000,
	      "SIOCSIFMTU 9600 refused (EINVAL), the model's MTU unchanged");
	memset(&ifr, 0, sizeof(ifr));
	CHECK(req("enp0s6", SIOCGIFMTU, &ifr) == 0 && ifr.ifr_mtu == 9000, "SIOCGIFMTU: 9000");

	/* IFF_UP closes and opens the port: the link goes down and up at both ends. */
	memset(&ifr, 0, sizeof(ifr));
	CHECK(req("enp0s6", SIOCGIFFLAGS, &ifr) == 0 &&
	      (ifr.ifr_flags & (IFF_UP | IFF_RUNNING)) == (IFF_UP | IFF_RUNNING),
	      "up and running at first (flags 0x%x)", (unsigned int)ifr.ifr_flags);
	ifr.ifr_flags &= ~IFF_UP;
	CHECK(req("enp0s6", SIOCSIFFLAGS, &ifr) == 0 && mlx4v_sim_link_get(sim, 1) == 0,
	      "IFF_UP off: the port's link down");
	CHECK(link_wait(peer, 0), "and the peer's");
	memset(&ifr, 0, sizeof(ifr));
	CHECK(req("enp0s7", SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_RUNNING) &&
	      (ifr.ifr_flags & IFF_UP), "the peer's netdev up, not running");
	memset(&link, 0, sizeof(link));
	link.cmd = ETHTOOL_GLINK;
	CHECK(ethtool("enp0s7", &link) == 0 && link.data == 0, "ETHTOOL_GLINK of the peer: 0");
	memset(&gset, 0, sizeof(gset));
	gset.cmd = ETHTOOL_GSET;
	CHECK(ethtool("enp0s6", &gset) == 0 &&
	      ethtool_cmd_speed(&gset) == (uint32_t)SPEED_UNKNOWN && gset.duplex == DUPLEX_UNKNOWN,
	      "ETHTOOL_GSET while down: unknown speed and duplex");
	memset(&ifr, 0, sizeof(ifr));
	req("enp0s6", SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	CHECK(req("enp0s6", SIOCSIFFLAGS, &ifr) == 0 && link_wait(sim, 1) && link_wait(peer, 1),
	      "IFF_UP on: the link up at both ends");

	/* The link settings: the legacy request and the current one, the port's speed. */
	memset(&gset, 0, sizeof(gset));
	gset.cmd = ETHTOOL_GSET;
	CHECK(ethtool("enp0s6", &gset) == 0 &&
	      ethtool_cmd_speed(&gset) == mlx4v_sim_link_speed(sim, 1) &&
	      gset.duplex == DUPLEX_FULL, "ETHTOOL_GSET: %u Mb/s, full duplex",
	      ethtool_cmd_speed(&gset));
	CHECK(link_settings_speed("enp0s6") == mlx4v_sim_link_speed(sim, 1),
	      "ETHTOOL_GLINKSETTINGS (handshake): %u Mb/s", mlx4v_sim_link_speed(sim, 1));
	memset(&pp, 0, sizeof(pp));
	pp.cmd = ETHTOOL_GPAUSEPARAM;
	CHECK(ethtool("enp0s6", &pp) == 0 && pp.rx_pause == 1 && pp.tx_pause == 1,
	      "ETHTOOL_GPAUSEPARAM: rx and tx pause");
	pp.cmd = ETHTOOL_SPAUSEPARAM;
	pp.tx_pause = 0;
	CHECK(ethtool("enp0s6", &pp) == 0, "ETHTOOL_SPAUSEPARAM: no tx pause");
	pp.cmd = ETHTOOL_GPAUSEPARAM;
	CHECK(ethtool("enp0s6", &pp) == 0 && pp.rx_pause == 1 && pp.tx_pause == 0,
	      "ETHTOOL_GPAUSEPARAM: rx pause only");

	/* What mlx4_en's netdev is not asked here: refused, named on stderr. */
	memset(&ifr, 0, sizeof(ifr));
	CHECK(req("enp0s6", SIOCGIFADDR, &ifr) == -EOPNOTSUPP, "SIOCGIFADDR refused (EOPNOTSUPP)");
	memset(&link, 0, sizeof(link));
	link.cmd = ETHTOOL_GDRVINFO;
	CHECK(ethtool("enp0s6", &link) == -EOPNOTSUPP, "ETHTOOL_GDRVINFO refused (EOPNOTSUPP)");

	/* Another name is the kernel's: lo has its own MTU and index. */
	memset(&ifr, 0, sizeof(ifr));
	CHECK(req("lo", SIOCGIFMTU, &ifr) == 0 && ifr.ifr_mtu != 9000, "lo: the kernel's MTU %d",
	      ifr.ifr_mtu);
	CHECK(if_nametoindex("lo") != 0 && if_nametoindex("lo") < 0x7f00, "lo: the kernel's index");
	close(sock);
	return verbs_test_fails != 0;
}
