/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The kernel network interface of a port: its lookup in sysfs, its attributes read there, and
 * the ioctls on it where sysfs cannot answer or a setting must change.
 */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_string_fns.h>

#include "mlx4v_log.h"
#include "mlx4v_netdev.h"

/* @return the number in the sysfs attribute dir/name/attr (base 0: "0x1" too), or -1. */
static long
mlx4v_netdev_attr(const char *dir, const char *name, const char *attr)
{
	char path[PATH_MAX], buf[32];
	long v = -1;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s/%s", dir, name, attr) >= (int)sizeof(path))
		return -1;
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	if (fgets(buf, sizeof(buf), f) != NULL)
		v = strtol(buf, NULL, 0);
	fclose(f);
	return v;
}

int
mlx4v_netdev_ifname(const char *ibdev_path, uint8_t port, char *ifname, size_t size)
{
	char dir[PATH_MAX];
	struct dirent *de;
	long idx;
	DIR *d;
	int ret = -ENODEV;

	if (ibdev_path == NULL || port == 0 || ifname == NULL || size == 0)
		return -EINVAL;
	if (snprintf(dir, sizeof(dir), "%s/device/net", ibdev_path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		/* dev_port numbers the ports of a device from 0; older kernels have dev_id only. */
		idx = mlx4v_netdev_attr(dir, de->d_name, "dev_port");
		if (idx < 0)
			idx = mlx4v_netdev_attr(dir, de->d_name, "dev_id");
		if (idx != (long)port - 1)
			continue;
		if (strlcpy(ifname, de->d_name, size) < size)
			ret = 0;
		else
			ret = -ENAMETOOLONG;
		break;
	}
	closedir(d);
	return ret;
}

/* One ioctl on a datagram socket, the interface's name set. @return 0 or -errno. */
static int
mlx4v_netdev_ioctl(const char *ifname, unsigned long req, struct ifreq *ifr)
{
	int s, ret = 0;

	if (strlcpy(ifr->ifr_name, ifname, sizeof(ifr->ifr_name)) >= sizeof(ifr->ifr_name))
		return -ENAMETOOLONG;
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	if (ioctl(s, req, ifr) != 0)
		ret = -errno;
	close(s);
	return ret;
}

/*
 * Read ibdev_path/device/net/ifname/attr into buf (its first line, without the newline).
 * @return 0, or -errno (-ENOENT without ibdev_path).
 */
static int
mlx4v_netdev_sysfs(const char *ibdev_path, const char *ifname, const char *attr, char *buf,
		   size_t size)
{
	char path[PATH_MAX];
	FILE *f;
	int ret = 0;

	if (ibdev_path == NULL)
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/device/net/%s/%s", ibdev_path, ifname, attr) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	if (fgets(buf, size, f) == NULL)
		ret = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

int
mlx4v_netdev_mac_get(const char *ibdev_path, const char *ifname, uint8_t mac[6])
{
	unsigned int b[6], i;
	struct ifreq ifr;
	char buf[32];
	int ret;

	/* sysfs first: it needs no socket, and mlx4_en shows the MAC there as the ioctl does. */
	if (mlx4v_netdev_sysfs(ibdev_path, ifname, "address", buf, sizeof(buf)) == 0 &&
	    sscanf(buf, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) == 6) {
		for (i = 0; i < 6; i++)
			mac[i] = (uint8_t)b[i];
		return 0;
	}
	memset(&ifr, 0, sizeof(ifr));
	ret = mlx4v_netdev_ioctl(ifname, SIOCGIFHWADDR, &ifr);
	if (ret == 0)
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return ret;
}

/*
 * ETHTOOL_GLINKSETTINGS in two steps: the first asks with no link mode words and the kernel
 * answers with minus the count it needs; the second asks with that count. Room for the most
 * the kernel may give (three masks of at most SCHAR_MAX words). @return 0 or -errno.
 */
static int
mlx4v_netdev_link_settings(const char *ifname, uint32_t *speed)
{
	uint32_t buf[sizeof(struct ethtool_link_settings) / sizeof(uint32_t) + 3 * SCHAR_MAX];
	struct ethtool_link_settings *ls = (struct ethtool_link_settings *)buf;
	struct ifreq ifr;
	int8_t nwords;
	int ret;

	memset(buf, 0, sizeof(buf));
	memset(&ifr, 0, sizeof(ifr));
	ls->cmd = ETHTOOL_GLINKSETTINGS;
	ifr.ifr_data = (void *)ls;
	ret = mlx4v_netdev_ioctl(ifname, SIOCETHTOOL, &ifr);
	if (ret != 0)
		return ret;
	nwords = ls->link_mode_masks_nwords;
	if (nwords >= 0)
		return -EPROTO;
	memset(buf, 0, sizeof(buf));
	ls->cmd = ETHTOOL_GLINKSETTINGS;
	ls->link_mode_masks_nwords = -nwords;
	ret = mlx4v_netdev_ioctl(ifname, SIOCETHTOOL, &ifr);
	if (ret != 0)
		return ret;
	if (ls->link_mode_masks_nwords <= 0)
		return -EPROTO;
	*speed = ls->speed;
	return 0;
}

int
mlx4v_netdev_speed_get(const char *ifname, uint32_t *mbps)
{
	struct ethtool_cmd cmd;
	struct ifreq ifr;
	uint32_t speed;
	int ret;

	ret = mlx4v_netdev_link_settings(ifname, &speed);
	if (ret != 0) {
		/* Kernels before 4.6, and drivers without it: the legacy request. */
		memset(&cmd, 0, sizeof(cmd));
		memset(&ifr, 0, sizeof(ifr));
		cmd.cmd = ETHTOOL_GSET;
		ifr.ifr_data = (void *)&cmd;
		ret = mlx4v_netdev_ioctl(ifname, SIOCETHTOOL, &ifr);
		if (ret != 0)
			return ret;
		speed = (uint32_t)cmd.speed_hi << 16 | cmd.speed;
	}
	/* SPEED_UNKNOWN (-1) while the link is down, or from a driver that cannot tell. */
	*mbps = speed == (uint32_t)SPEED_UNKNOWN ? 0 : speed;
	return 0;
}

/*
 * The interface's IFF_UP (is_mtu 0) or MTU as its sysfs "flags" or "mtu" say, for an interface
 * this process's sockets do not know. @return 0 or -errno.
 */
static int
mlx4v_netdev_sysfs_cur(const char *ibdev_path, const char *ifname, int is_mtu, int *cur)
{
	char buf[32];
	long v;
	int ret;

	ret = mlx4v_netdev_sysfs(ibdev_path, ifname, is_mtu ? "mtu" : "flags", buf, sizeof(buf));
	if (ret != 0)
		return ret;
	v = strtol(buf, NULL, 0);
	*cur = is_mtu ? (int)v : !!(v & IFF_UP);
	return 0;
}

/*
 * Read the interface's flags (SIOCGIFFLAGS) or MTU (SIOCGIFMTU), else (no such interface to
 * this process's sockets) its sysfs attribute, and write them with the set request only when
 * want differs: an interface already as wanted needs neither privilege nor a socket on it.
 * @return 0 or -errno.
 */
static int
mlx4v_netdev_update(const char *ibdev_path, const char *ifname, int is_mtu, int want)
{
	struct ifreq ifr;
	int ret, cur;

	memset(&ifr, 0, sizeof(ifr));
	ret = mlx4v_netdev_ioctl(ifname, is_mtu ? SIOCGIFMTU : SIOCGIFFLAGS, &ifr);
	if (ret == 0)
		cur = is_mtu ? ifr.ifr_mtu : !!(ifr.ifr_flags & IFF_UP);
	else if (mlx4v_netdev_sysfs_cur(ibdev_path, ifname, is_mtu, &cur) != 0)
		return ret;
	if (cur == want)
		return 0;
	/* Known through sysfs only: no socket of this process can change it. */
	if (ret != 0)
		goto err;
	if (is_mtu)
		ifr.ifr_mtu = want;
	else
		ifr.ifr_flags = want ? (ifr.ifr_flags | IFF_UP) : (ifr.ifr_flags & ~IFF_UP);
	ret = mlx4v_netdev_ioctl(ifname, is_mtu ? SIOCSIFMTU : SIOCSIFFLAGS, &ifr);
	if (ret == 0)
		return 0;
err:
	MLX4V_LOG(ERR, "%s: %s %d: %s (needs CAP_NET_ADMIN)", ifname, is_mtu ? "MTU" : "up",
		  want, strerror(-ret));
	return ret;
}

int
mlx4v_netdev_mtu_set(const char *ibdev_path, const char *ifname, uint16_t mtu)
{
	return mlx4v_netdev_update(ibdev_path, ifname, 1, mtu);
}

int
mlx4v_netdev_up_set(const char *ibdev_path, const char *ifname, int up)
{
	return mlx4v_netdev_update(ibdev_path, ifname, 0, !!up);
}
