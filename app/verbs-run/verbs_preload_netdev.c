/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The mlx4_en netdevs of the verbs emulation: the socket ioctls a program makes on the
 * interface names of the emulated ports (SIOCGIFHWADDR, SIOCGIFMTU/SIOCSIFMTU,
 * SIOCGIFFLAGS/SIOCSIFFLAGS, SIOCGIFINDEX, SIOCETHTOOL), and if_nametoindex() /
 * if_indextoname(), answered from the port models as mlx4_en answers them
 * (doc/guides/platform/verbs_emulation.rst, "Netdevs"). Requests on other names go to the
 * kernel untouched.
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <net/if.h>
#include <net/if_arp.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include <rte_ether.h>

#include "emu_path.h"
#include "mlx4v_sim.h"
#include "verbs_run.h"

/** Interface indexes of the emulated netdevs: far above what a host numbers its own. */
#define VERBS_NETDEV_INDEX_BASE 0x7f00
#define VERBS_NETDEV_MAX_PORTS 2
/** The ifreq requests (SIOCGIFNAME .. the bridge and bonding ones, SIOCDEVPRIVATE range). */
#define VERBS_NETDEV_SIOC_FIRST 0x8910
#define VERBS_NETDEV_SIOC_LAST 0x89ff
/** The flags SIOCSIFFLAGS may change (the kernel's dev_change_flags()); UP acts on the port. */
#define VERBS_NETDEV_FLAGS_SETTABLE (IFF_UP | IFF_DEBUG | IFF_NOTRAILERS | IFF_NOARP | \
	IFF_PROMISC | IFF_ALLMULTI | IFF_MULTICAST | IFF_DYNAMIC | IFF_AUTOMEDIA)

/** What the emulated netdev keeps beside the model: its settable flags and pause setting. */
struct verbs_netdev {
	unsigned int flags;     /**< VERBS_NETDEV_FLAGS_SETTABLE bits */
	uint32_t pause_autoneg;
	uint32_t rx_pause;
	uint32_t tx_pause;
	int init;
};

static struct verbs_netdev verbs_netdevs[VERBS_RUN_MAX_DEVS][VERBS_NETDEV_MAX_PORTS];
static pthread_mutex_t verbs_netdev_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The netdev as the model is made: up (the model's ports are open, their links up when
 * cabled), multicast; mlx4_en's global pause default (rx and tx pause on).
 */
static struct verbs_netdev *
verbs_netdev_state(unsigned int idx, unsigned int port)
{
	struct verbs_netdev *nd = &verbs_netdevs[idx][port - 1];

	if (!nd->init) {
		nd->flags = IFF_UP | IFF_MULTICAST;
		nd->rx_pause = 1;
		nd->tx_pause = 1;
		nd->init = 1;
	}
	return nd;
}

/* The function and port of interface name, or -ENODEV when no emulated port has it. */
static int
verbs_netdev_by_name(const char *name, unsigned int *idx, unsigned int *port)
{
	char ifname[IF_NAMESIZE];
	struct mlx4v_sim *sim;
	unsigned int i, p, n;

	verbs_preload_devs(&n);
	for (i = 0; i < n; i++) {
		for (p = 1; p <= VERBS_NETDEV_MAX_PORTS; p++) {
			verbs_preload_ifname(i, p, ifname, sizeof(ifname));
			if (strncmp(name, ifname, IF_NAMESIZE) != 0)
				continue;
			/* The model is made for a name of its function only. */
			sim = verbs_preload_sim(i);
			if (sim == NULL || p > mlx4v_sim_ports(sim))
				return -ENODEV;
			*idx = i;
			*port = p;
			return 0;
		}
	}
	return -ENODEV;
}

static unsigned int
verbs_netdev_index(unsigned int idx, unsigned int port)
{
	return VERBS_NETDEV_INDEX_BASE + idx * VERBS_NETDEV_MAX_PORTS + port - 1;
}

/* The function and port of interface index ifindex, or -ENODEV. */
static int
verbs_netdev_by_index(unsigned int ifindex, unsigned int *idx, unsigned int *port)
{
	struct mlx4v_sim *sim;
	unsigned int n, i, p;

	if (ifindex < VERBS_NETDEV_INDEX_BASE)
		return -ENODEV;
	verbs_preload_devs(&n);
	i = (ifindex - VERBS_NETDEV_INDEX_BASE) / VERBS_NETDEV_MAX_PORTS;
	p = (ifindex - VERBS_NETDEV_INDEX_BASE) % VERBS_NETDEV_MAX_PORTS + 1;
	if (i >= n)
		return -ENODEV;
	sim = verbs_preload_sim(i);
	if (sim == NULL || p > mlx4v_sim_ports(sim))
		return -ENODEV;
	*idx = i;
	*port = p;
	return 0;
}

/* The flags as SIOCGIFFLAGS shows them: RUNNING with the carrier (the port's link). */
static unsigned int
verbs_netdev_flags(struct mlx4v_sim *sim, unsigned int port, const struct verbs_netdev *nd)
{
	unsigned int flags = nd->flags | IFF_BROADCAST;

	if ((nd->flags & IFF_UP) && mlx4v_sim_link_get(sim, port) == 1)
		flags |= IFF_RUNNING;
	return flags;
}

/*
 * SIOCSIFFLAGS: IFF_UP opens the port (mlx4_en_open(): INIT_PORT), its absence closes it
 * (CLOSE_PORT), which takes the link down at both ends of the cable.
 */
static int
verbs_netdev_set_flags(struct mlx4v_sim *sim, unsigned int port, struct verbs_netdev *nd,
		       unsigned int flags)
{
	int up = (flags & IFF_UP) != 0;
	int ret;

	if (up != ((nd->flags & IFF_UP) != 0)) {
		ret = mlx4v_sim_port_admin_set(sim, port, up);
		if (ret)
			return ret;
	}
	nd->flags = flags & VERBS_NETDEV_FLAGS_SETTABLE;
	return 0;
}

/*
 * ETHTOOL_GLINKSETTINGS, as the kernel answers it: a request with another number of mask words
 * than the kernel's gets the header with minus that number (the handshake), the right one the
 * settings (those of ETHTOOL_GSET) and the supported and advertised modes.
 */
static int
verbs_netdev_link_settings(struct mlx4v_sim *sim, unsigned int port, int up, void *data)
{
	const int nwords = (__ETHTOOL_LINK_MODE_MASK_NBITS + 31) / 32;
	struct ethtool_link_settings *ls = data;
	unsigned int i;

	if (ls->link_mode_masks_nwords != nwords) {
		memset(ls, 0, sizeof(*ls));
		ls->cmd = ETHTOOL_GLINKSETTINGS;
		ls->link_mode_masks_nwords = (int8_t)-nwords;
		return 0;
	}
	memset(ls, 0, sizeof(*ls) + 3 * nwords * sizeof(uint32_t));
	ls->cmd = ETHTOOL_GLINKSETTINGS;
	ls->link_mode_masks_nwords = (int8_t)nwords;
	ls->speed = up ? mlx4v_sim_link_speed(sim, port) : (uint32_t)SPEED_UNKNOWN;
	ls->duplex = up ? DUPLEX_FULL : DUPLEX_UNKNOWN;
	ls->port = PORT_FIBRE;
	ls->transceiver = XCVR_EXTERNAL;
	ls->autoneg = AUTONEG_ENABLE;
	/* Supported, then advertised: 40GBASE-KR4 and 10GBASE-T, autonegotiation, pause. */
	for (i = 0; i < 2; i++) {
		uint32_t *m = &ls->link_mode_masks[i * nwords];

		m[ETHTOOL_LINK_MODE_40000baseKR4_Full_BIT / 32] |=
			1u << (ETHTOOL_LINK_MODE_40000baseKR4_Full_BIT % 32);
		m[ETHTOOL_LINK_MODE_10000baseT_Full_BIT / 32] |=
			1u << (ETHTOOL_LINK_MODE_10000baseT_Full_BIT % 32);
		m[ETHTOOL_LINK_MODE_Autoneg_BIT / 32] |= 1u << (ETHTOOL_LINK_MODE_Autoneg_BIT % 32);
		m[ETHTOOL_LINK_MODE_Pause_BIT / 32] |= 1u << (ETHTOOL_LINK_MODE_Pause_BIT % 32);
	}
	return 0;
}

/* SIOCETHTOOL: the link settings and state, the pause parameters; the rest named, refused. */
static int
verbs_netdev_ethtool(struct mlx4v_sim *sim, unsigned int port, struct verbs_netdev *nd,
		     const char *name, void *data)
{
	uint32_t cmd;
	uint32_t speed;
	int up;

	if (data == NULL)
		return -EFAULT;
	memcpy(&cmd, data, sizeof(cmd));
	up = (nd->flags & IFF_UP) && mlx4v_sim_link_get(sim, port) == 1;
	switch (cmd) {
	case ETHTOOL_GSET: {
		struct ethtool_cmd *e = data;

		/* mlx4_en: unknown speed and duplex while the link is down. */
		speed = up ? mlx4v_sim_link_speed(sim, port) : (uint32_t)SPEED_UNKNOWN;
		memset(e, 0, sizeof(*e));
		e->cmd = cmd;
		e->supported = SUPPORTED_40000baseKR4_Full | SUPPORTED_10000baseT_Full |
			SUPPORTED_Autoneg | SUPPORTED_FIBRE | SUPPORTED_Pause;
		e->advertising = e->supported;
		ethtool_cmd_speed_set(e, speed);
		e->duplex = up ? DUPLEX_FULL : DUPLEX_UNKNOWN;
		e->port = PORT_FIBRE;
		e->transceiver = XCVR_EXTERNAL;
		e->autoneg = AUTONEG_ENABLE;
		return 0;
	}
	case ETHTOOL_GLINKSETTINGS:
		return verbs_netdev_link_settings(sim, port, up, data);
	case ETHTOOL_GLINK: {
		struct ethtool_value *v = data;

		v->data = (uint32_t)up;
		return 0;
	}
	case ETHTOOL_GPAUSEPARAM: {
		struct ethtool_pauseparam *pp = data;

		pp->autoneg = nd->pause_autoneg;
		pp->rx_pause = nd->rx_pause;
		pp->tx_pause = nd->tx_pause;
		return 0;
	}
	case ETHTOOL_SPAUSEPARAM: {
		const struct ethtool_pauseparam *pp = data;

		/* mlx4_en takes no pause autonegotiation (mlx4_en_set_pauseparam()). */
		if (pp->autoneg)
			return -EINVAL;
		nd->pause_autoneg = 0;
		nd->rx_pause = pp->rx_pause != 0;
		nd->tx_pause = pp->tx_pause != 0;
		return 0;
	}
	default:
		VERBS_RUN_LOG("ioctl(SIOCETHTOOL) command 0x%x on %s: not emulated (EOPNOTSUPP)",
			      cmd, name);
		return -EOPNOTSUPP;
	}
}

/* Lock held. One request on an emulated netdev. @return 0 or -errno. */
static int
verbs_netdev_req(unsigned int idx, unsigned int port, unsigned long req, struct ifreq *ifr)
{
	struct mlx4v_sim *sim = verbs_preload_sim(idx);
	struct verbs_netdev *nd = verbs_netdev_state(idx, port);
	struct rte_ether_addr mac;
	int ret;

	switch (req) {
	case SIOCGIFHWADDR:
		ret = mlx4v_sim_port_mac(sim, port, &mac);
		if (ret)
			return ret;
		memset(&ifr->ifr_hwaddr, 0, sizeof(ifr->ifr_hwaddr));
		ifr->ifr_hwaddr.sa_family = ARPHRD_ETHER;
		memcpy(ifr->ifr_hwaddr.sa_data, mac.addr_bytes, RTE_ETHER_ADDR_LEN);
		return 0;
	case SIOCGIFMTU:
		ifr->ifr_mtu = mlx4v_sim_port_mtu_get(sim, port);
		return 0;
	case SIOCSIFMTU:
		/* The model refuses what dev_set_mtu() refuses on mlx4_en (68 .. its max). */
		if (ifr->ifr_mtu < 0 || ifr->ifr_mtu > UINT16_MAX)
			return -EINVAL;
		return mlx4v_sim_port_mtu_set(sim, port, (uint16_t)ifr->ifr_mtu);
	case SIOCGIFFLAGS:
		ifr->ifr_flags = (short)verbs_netdev_flags(sim, port, nd);
		return 0;
	case SIOCSIFFLAGS:
		return verbs_netdev_set_flags(sim, port, nd, (unsigned short)ifr->ifr_flags);
	case SIOCGIFINDEX:
		ifr->ifr_ifindex = (int)verbs_netdev_index(idx, port);
		return 0;
	case SIOCETHTOOL:
		return verbs_netdev_ethtool(sim, port, nd, ifr->ifr_name, ifr->ifr_data);
	default:
		VERBS_RUN_LOG("ioctl 0x%lx on %.*s: not emulated (EOPNOTSUPP)", req, IF_NAMESIZE,
			      ifr->ifr_name);
		return -EOPNOTSUPP;
	}
}

int
verbs_netdev_ioctl(int fd, unsigned long req, void *arg)
{
	struct ifreq *ifr = arg;
	unsigned int idx, port;
	struct stat st;
	int ret;

	if (req < VERBS_NETDEV_SIOC_FIRST || req > VERBS_NETDEV_SIOC_LAST || req == SIOCGIFCONF ||
	    arg == NULL)
		return VERBS_NETDEV_NOT_OURS;
	/* SIOCGIFNAME names the interface by its index. */
	if (req == SIOCGIFNAME)
		ret = verbs_netdev_by_index((unsigned int)ifr->ifr_ifindex, &idx, &port);
	else
		ret = verbs_netdev_by_name(ifr->ifr_name, &idx, &port);
	if (ret != 0 || fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
		return VERBS_NETDEV_NOT_OURS;
	if (req == SIOCGIFNAME) {
		verbs_preload_ifname(idx, port, ifr->ifr_name, sizeof(ifr->ifr_name));
		return 0;
	}
	pthread_mutex_lock(&verbs_netdev_lock);
	ret = verbs_netdev_req(idx, port, req, ifr);
	pthread_mutex_unlock(&verbs_netdev_lock);
	VERBS_TRACE("ioctl 0x%lx on %.*s: %s", req, IF_NAMESIZE, ifr->ifr_name, strerror(-ret));
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

/* glibc asks the kernel with its internal ioctl, which the preload does not see. */
unsigned int
if_nametoindex(const char *name)
{
	unsigned int idx, port;

	EMU_PATH_REAL(unsigned int, if_nametoindex, const char *);
	if (name != NULL && verbs_netdev_by_name(name, &idx, &port) == 0)
		return verbs_netdev_index(idx, port);
	return real_if_nametoindex(name);
}

char *
if_indextoname(unsigned int ifindex, char name[IF_NAMESIZE])
{
	unsigned int idx, port;

	EMU_PATH_REAL(char *, if_indextoname, unsigned int, char *);
	if (verbs_netdev_by_index(ifindex, &idx, &port) == 0) {
		verbs_preload_ifname(idx, port, name, IF_NAMESIZE);
		return name;
	}
	return real_if_indextoname(ifindex, name);
}
