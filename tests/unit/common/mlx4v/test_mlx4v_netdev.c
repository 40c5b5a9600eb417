/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Unit tests of the kernel-interface part of the rdma-core backend (mlx4v_netdev.c): the
 * lookup of a port's netdev in a sysfs tree made here (as /sys/class/infiniband/<dev> looks
 * with mlx4_en loaded) and the attributes read there, the ioctls on an interface every host
 * has (lo), read only, and the ethtool link speed on a TAP interface made here (skipped
 * without the permission).
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/if_tun.h>
#include <linux/sockios.h>

#include "test.h"

#include "mlx4v_netdev.h"

static char g_root[64];

/* One attribute of a netdev made by fake_netdev(): root/device/net/name/attr holding value. */
static int
fake_attr(const char *name, const char *attr, const char *value)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/device/net/%s/%s", g_root, name, attr);
	f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fprintf(f, "%s\n", value);
	return fclose(f);
}

/* root/device/net/name, with attr holding value (no attribute when attr is NULL). */
static int
fake_netdev(const char *name, const char *attr, const char *value)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/device", g_root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/device/net", g_root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/device/net/%s", g_root, name);
	if (mkdir(path, 0700) != 0)
		return -1;
	return attr == NULL ? 0 : fake_attr(name, attr, value);
}

static int
netdev_setup(void)
{
	snprintf(g_root, sizeof(g_root), "/tmp/mlx4v_netdev_ut.XXXXXX");
	if (mkdtemp(g_root) == NULL)
		return TEST_FAILED;
	/* Port 1 and 2 by dev_port; port 3 by dev_id only (kernels before dev_port); a
	 * netdev of no port (no attribute) is skipped.
	 */
	if (fake_netdev("enp1s0", "dev_port", "0") != 0 ||
	    fake_attr("enp1s0", "address", "00:02:c9:0a:0b:0c") != 0 ||
	    fake_attr("enp1s0", "mtu", "1500") != 0 ||
	    fake_attr("enp1s0", "flags", "0x1003") != 0 ||
	    fake_netdev("enp1s0d1", "dev_port", "1") != 0 ||
	    fake_attr("enp1s0d1", "flags", "0x1002") != 0 ||
	    fake_netdev("eth7", "dev_id", "0x2") != 0 ||
	    fake_netdev("bond0", NULL, NULL) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

/* Remove what netdev_setup() made, deepest first. */
static void
netdev_teardown(void)
{
	static const char *const files[] = {
		"enp1s0/dev_port", "enp1s0/address", "enp1s0/mtu", "enp1s0/flags",
		"enp1s0d1/dev_port", "enp1s0d1/flags", "eth7/dev_id",
		"enp1s0", "enp1s0d1", "eth7", "bond0", "",
	};
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < RTE_DIM(files); i++) {
		snprintf(path, sizeof(path), "%s/device/net/%s", g_root, files[i]);
		remove(path);
	}
	snprintf(path, sizeof(path), "%s/device", g_root);
	remove(path);
	remove(g_root);
}

/* Each port finds its netdev by dev_port, else by dev_id; a port without one is -ENODEV. */
static int
test_mlx4v_netdev_ifname_lookup(void)
{
	char ifname[16];

	TEST_ASSERT_SUCCESS(mlx4v_netdev_ifname(g_root, 1, ifname, sizeof(ifname)), "port 1");
	TEST_ASSERT(strcmp(ifname, "enp1s0") == 0, "port 1 is %s", ifname);
	TEST_ASSERT_SUCCESS(mlx4v_netdev_ifname(g_root, 2, ifname, sizeof(ifname)), "port 2");
	TEST_ASSERT(strcmp(ifname, "enp1s0d1") == 0, "port 2 is %s", ifname);
	TEST_ASSERT_SUCCESS(mlx4v_netdev_ifname(g_root, 3, ifname, sizeof(ifname)), "port 3");
	TEST_ASSERT(strcmp(ifname, "eth7") == 0, "port 3 (dev_id) is %s", ifname);
	TEST_ASSERT_EQUAL(mlx4v_netdev_ifname(g_root, 4, ifname, sizeof(ifname)), -ENODEV,
			  "no netdev for port 4");
	TEST_ASSERT_EQUAL(mlx4v_netdev_ifname(g_root, 0, ifname, sizeof(ifname)), -EINVAL,
			  "port 0");
	TEST_ASSERT_EQUAL(mlx4v_netdev_ifname(g_root, 1, ifname, 4), -ENAMETOOLONG,
			  "name does not fit");
	TEST_ASSERT_EQUAL(mlx4v_netdev_ifname("/nonexistent/mlx4_9", 1, ifname, sizeof(ifname)),
			  -ENOENT, "no such device");
	return TEST_SUCCESS;
}

/* The ioctls, on the loopback interface (read only) and on a name no host has. */
static int
test_mlx4v_netdev_ioctls(void)
{
	static const uint8_t zero[6];
	uint8_t mac[6];

	memset(mac, 0xee, sizeof(mac));
	TEST_ASSERT_SUCCESS(mlx4v_netdev_mac_get(NULL, "lo", mac), "MAC of lo");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(mac, zero, sizeof(mac), "lo has no MAC");
	TEST_ASSERT_EQUAL(mlx4v_netdev_mac_get(NULL, "mlx4vnone0", mac), -ENODEV,
			  "no such netdev");
	TEST_ASSERT_EQUAL(mlx4v_netdev_up_set(NULL, "mlx4vnone0", 1), -ENODEV,
			  "up: no such netdev");
	/* lo is up on every host: setting it up again changes nothing and needs no privilege. */
	TEST_ASSERT_SUCCESS(mlx4v_netdev_up_set(NULL, "lo", 1), "lo already up");
	TEST_ASSERT_EQUAL(mlx4v_netdev_mtu_set(NULL, "mlx4vnone0", 1500), -ENODEV,
			  "MTU: no netdev");
	TEST_ASSERT_EQUAL(mlx4v_netdev_mac_get(NULL, "a-name-longer-than-ifnamsiz", mac),
			  -ENAMETOOLONG, "name too long");
	return TEST_SUCCESS;
}

/*
 * What sysfs says needs no socket: the netdevs of the tree exist on no host (the ioctls answer
 * ENODEV), so every answer here comes from their attributes. The MAC is read there first; a
 * setting already so is read there when the ioctl knows no such interface; a setting to change
 * goes to the ioctl; no "address": the ioctl.
 */
static int
test_mlx4v_netdev_sysfs(void)
{
	static const uint8_t want[6] = { 0x00, 0x02, 0xc9, 0x0a, 0x0b, 0x0c };
	uint8_t mac[6];

	memset(mac, 0xee, sizeof(mac));
	TEST_ASSERT_SUCCESS(mlx4v_netdev_mac_get(g_root, "enp1s0", mac), "MAC from sysfs");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(mac, want, sizeof(mac), "the MAC of the address file");
	TEST_ASSERT_EQUAL(mlx4v_netdev_mac_get(g_root, "enp1s0d1", mac), -ENODEV,
			  "no address file: the ioctl, no such interface");
	TEST_ASSERT_SUCCESS(mlx4v_netdev_mtu_set(g_root, "enp1s0", 1500), "MTU already 1500");
	TEST_ASSERT_EQUAL(mlx4v_netdev_mtu_set(g_root, "enp1s0", 9000), -ENODEV,
			  "MTU to change: the ioctl");
	TEST_ASSERT_SUCCESS(mlx4v_netdev_up_set(g_root, "enp1s0", 1), "flags say up");
	TEST_ASSERT_EQUAL(mlx4v_netdev_up_set(g_root, "enp1s0", 0), -ENODEV,
			  "down: the ioctl");
	TEST_ASSERT_SUCCESS(mlx4v_netdev_up_set(g_root, "enp1s0d1", 0), "flags say down");
	TEST_ASSERT_EQUAL(mlx4v_netdev_up_set(g_root, "enp1s0d1", 1), -ENODEV, "up: the ioctl");
	return TEST_SUCCESS;
}

/*
 * Set a TAP's speed as ethtool -s does (ETHTOOL_GLINKSETTINGS handshake, then
 * ETHTOOL_SLINKSETTINGS with the settings read). @return 0 or -errno.
 */
static int
tap_speed_set(const char *ifname, uint32_t mbps)
{
	uint32_t buf[sizeof(struct ethtool_link_settings) / sizeof(uint32_t) + 3 * SCHAR_MAX];
	struct ethtool_link_settings *ls = (struct ethtool_link_settings *)buf;
	struct ifreq ifr;
	int s, ret = 0, pass;

	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	memset(buf, 0, sizeof(buf));
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)ls;
	/* Pass 0 learns the word count, pass 1 reads with it. */
	for (pass = 0; pass < 2 && ret == 0; pass++) {
		ls->cmd = ETHTOOL_GLINKSETTINGS;
		ls->link_mode_masks_nwords = pass ? -ls->link_mode_masks_nwords : 0;
		if (ioctl(s, SIOCETHTOOL, &ifr) != 0)
			ret = -errno;
	}
	if (ret == 0) {
		ls->cmd = ETHTOOL_SLINKSETTINGS;
		ls->speed = mbps;
		if (ioctl(s, SIOCETHTOOL, &ifr) != 0)
			ret = -errno;
	}
	close(s);
	return ret;
}

/*
 * The link speed through ethtool, as net_mlx4v reads a ConnectX-3 port's on the rdma-core
 * backend (mlx4_ib's port query says 10 Gb/s for 1 GbE): a TAP set to 1000 Mb/s reads 1000,
 * set to 25000 reads 25000; lo has no link settings.
 */
static int
test_mlx4v_netdev_speed(void)
{
	static const uint32_t speeds[2] = { 1000, 25000 };
	struct ifreq ifr;
	uint32_t mbps = 1, want = 0;
	unsigned int i;
	int fd, ret;

	TEST_ASSERT_EQUAL(mlx4v_netdev_speed_get("lo", &mbps), -EOPNOTSUPP, "lo: no settings");
	TEST_ASSERT_EQUAL(mlx4v_netdev_speed_get("mlx4vnone0", &mbps), -ENODEV, "no netdev");
	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("skipped: no /dev/net/tun (%s)\n", strerror(errno));
		return TEST_SKIPPED;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "mlx4vspd%%d");
	if (ioctl(fd, TUNSETIFF, &ifr) != 0) {
		printf("skipped: cannot make a TAP (%s)\n", strerror(errno));
		close(fd);
		return TEST_SKIPPED;
	}
	for (i = 0; i < RTE_DIM(speeds); i++) {
		want = speeds[i];
		ret = tap_speed_set(ifr.ifr_name, want);
		if (ret != 0) {
			printf("skipped: the TAP takes no speed (%s)\n", strerror(-ret));
			close(fd);
			return TEST_SKIPPED;
		}
		mbps = 0;
		ret = mlx4v_netdev_speed_get(ifr.ifr_name, &mbps);
		if (ret != 0 || mbps != want)
			break;
	}
	/* The TAP goes with its fd. */
	close(fd);
	TEST_ASSERT_SUCCESS(ret, "speed of the TAP");
	TEST_ASSERT_EQUAL(mbps, want, "speed read back");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx4v_netdev_suite = {
	.suite_name = "mlx4v kernel interface of a port",
	.setup = netdev_setup,
	.teardown = netdev_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx4v_netdev_ifname_lookup),
		TEST_CASE(test_mlx4v_netdev_ioctls),
		TEST_CASE(test_mlx4v_netdev_sysfs),
		TEST_CASE(test_mlx4v_netdev_speed),
		TEST_CASES_END()
	}
};

static int
test_mlx4v_netdev(void)
{
	return unit_test_suite_runner(&mlx4v_netdev_suite);
}

REGISTER_TEST_COMMAND(mlx4v_netdev_autotest, test_mlx4v_netdev);
