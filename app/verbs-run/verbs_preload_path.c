/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The verbs preload's file system and discovery: the tree of the emulated functions as
 * mlx4_core, mlx4_ib and mlx4_en show them in sysfs, the uverbs nodes, the models behind
 * them, and RDMA netlink refused (doc/guides/platform/verbs_emulation.rst, "What the command
 * sees"). The redirection itself is emu_path.c's.
 */

#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>

#include <rte_ether.h>

#include "emu_launch.h"
#include "emu_path.h"
#include "hwsim_wire.h"
#include "mlx4v_sim.h"
#include "mlx4v_verbs.h"
#include "verbs_run.h"

/*
 * Redirected to the tree: the PCI bus and hierarchy (only the emulated functions are seen),
 * the RDMA classes (infiniband, infiniband_verbs, infiniband_mad: one name prefix) and
 * /dev/infiniband.
 */
static const struct emu_path_prefix verbs_preload_prefixes[] = {
	{ "/sys/bus/pci", 0 },
	{ "/sys/devices/pci", 1 },
	{ "/sys/class/infiniband", 1 },
	{ "/dev/infiniband", 0 },
};

/* The tree's paths are short: sys/devices/pci<dddd:bb>/<BDF>/... */
#define VERBS_PATH_LEN 256

static struct verbs_run_dev verbs_preload_dev_tab[VERBS_RUN_MAX_DEVS];
static struct mlx4v_sim *verbs_preload_sims[VERBS_RUN_MAX_DEVS];
/* This process hosts the model (created here and served, verbs_host_serve()). */
static int verbs_preload_served[VERBS_RUN_MAX_DEVS];
static unsigned int verbs_preload_nb_devs;
static pthread_once_t verbs_preload_parse_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t verbs_preload_sim_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/* emu_preload_devs() callback: function idx of the environment list. */
static int
verbs_preload_parse_one(char *tok, unsigned int idx, char *err, size_t errlen)
{
	return verbs_run_dev_parse(tok, idx, &verbs_preload_dev_tab[idx], err, errlen);
}

static void
verbs_preload_parse(void)
{
	char name[32];
	unsigned int i;

	verbs_preload_nb_devs = emu_preload_devs("mlxv-verbs", getenv(VERBS_RUN_ENV_DEVS),
						 VERBS_RUN_MAX_DEVS, verbs_preload_parse_one);
	/* A function may be cabled (wire<N>=pair:) to one whose model is made later. */
	for (i = 0; i < verbs_preload_nb_devs; i++) {
		snprintf(name, sizeof(name), VERBS_RUN_MODEL_PREFIX "%.12s",
			 verbs_preload_dev_tab[i].bdf);
		if (hwsim_wire_dev_expect(name) != 0)
			VERBS_RUN_LOG("%s: cannot announce its model to the wire", name);
	}
}

struct verbs_run_dev *
verbs_preload_devs(unsigned int *n)
{
	pthread_once(&verbs_preload_parse_once, verbs_preload_parse);
	*n = verbs_preload_nb_devs;
	return verbs_preload_dev_tab;
}

/*
 * The model lives as long as the process: the HCA outlives its contexts, as under
 * mlx4_core (closing the last context resets nothing).
 */
struct mlx4v_sim *
verbs_preload_sim(unsigned int idx)
{
	struct verbs_run_dev *d;
	struct mlx4v_sim *sim;
	char name[32];
	unsigned int n;
	int ret;

	d = verbs_preload_devs(&n);
	if (idx >= n)
		return NULL;
	pthread_mutex_lock(&verbs_preload_sim_lock);
	sim = verbs_preload_sims[idx];
	/* A model another process of the tree hosts is the function: no second one here. */
	if (sim == NULL && !verbs_preload_served[idx] && verbs_host_join(idx) == 0)
		goto out;
	if (sim == NULL) {
		snprintf(name, sizeof(name), VERBS_RUN_MODEL_PREFIX "%.12s", d[idx].bdf);
		sim = mlx4v_sim_host_create(name, d[idx].devargs);
		if (sim == NULL)
			VERBS_RUN_LOG("%s: the model refuses '%s'", d[idx].bdf, d[idx].devargs);
		verbs_preload_sims[idx] = sim;
		if (sim != NULL && !verbs_preload_served[idx]) {
			ret = verbs_host_serve(idx);
			if (ret != 0)
				VERBS_RUN_LOG("%s: no other process reaches the model: %s",
					      name, strerror(-ret));
			verbs_preload_served[idx] = 1;
		}
	}
out:
	pthread_mutex_unlock(&verbs_preload_sim_lock);
	return sim;
}

/*
 * After a catastrophic error mlx4_core resets the function and registers it again (its
 * internal error reset): once no file of the function is open, the next open finds a new
 * model, made from the same devargs. A live model, or one with files open, stays.
 */
struct mlx4v_sim *
verbs_preload_sim_revive(unsigned int idx)
{
	struct verbs_run_dev *d;
	struct mlx4v_sim *sim;
	int64_t dead = 0;
	unsigned int n;

	d = verbs_preload_devs(&n);
	if (idx >= n)
		return NULL;
	pthread_mutex_lock(&verbs_preload_sim_lock);
	sim = verbs_preload_sims[idx];
	if (sim != NULL && mlx4v_sim_knob_get(sim, "fatal", &dead) == 0 && dead != 0) {
		VERBS_TRACE("%s: reset after the catastrophic error", d[idx].bdf);
		mlx4v_sim_host_destroy(sim);
		verbs_preload_sims[idx] = NULL;
	}
	pthread_mutex_unlock(&verbs_preload_sim_lock);
	return verbs_preload_sim(idx);
}

struct mlx4v_sim *
verbs_preload_sim_reset(unsigned int idx)
{
	struct mlx4v_sim *sim = verbs_preload_sim(idx);
	int64_t dead = 0;
	int ret;

	if (sim == NULL || mlx4v_sim_knob_get(sim, "fatal", &dead) != 0 || dead == 0)
		return sim;
	/* The model refuses while its error is not reported yet, or with its fail_reset knob. */
	ret = mlx4v_sim_host_ops()->dev_reset(sim);
	VERBS_TRACE("mlx4_%u: reset after the catastrophic error: %s", idx, strerror(-ret));
	return sim;
}

/* mlx4_en's names on a PCI slot: enp<bus>s<slot>, the second port with d1 (dev_port 1). */
void
verbs_preload_ifname(unsigned int idx, unsigned int port, char *buf, size_t len)
{
	const struct verbs_run_dev *d = &verbs_preload_dev_tab[idx];
	unsigned long bus = strtoul(d->bdf + 5, NULL, 16);
	unsigned long slot = strtoul(d->bdf + 8, NULL, 16);

	if (port <= 1)
		snprintf(buf, len, "enp%lus%lu", bus, slot);
	else
		snprintf(buf, len, "enp%lus%lud%u", bus, slot, port - 1);
}

/* The PCI function as mlx4_core leaves it. dir: its sysfs directory. */
static int
verbs_preload_tree_pci(const struct verbs_run_dev *d, const char *dir)
{
	char f[VERBS_PATH_LEN];
	char tgt[VERBS_PATH_LEN];
	int ret = 0;

#define DEVFILE(name, ...) \
	(snprintf(f, sizeof(f), "%s/" name, dir), emu_path_file(f, __VA_ARGS__))
	ret |= emu_path_mkdir("%s", dir);
	ret |= DEVFILE("vendor", "0x%04x\n", VERBS_RUN_VENDOR);
	ret |= DEVFILE("device", "0x%04x\n", VERBS_RUN_DEVICE);
	ret |= DEVFILE("subsystem_vendor", "0x%04x\n", VERBS_RUN_VENDOR);
	ret |= DEVFILE("subsystem_device", "0x%04x\n", 0x0006);
	ret |= DEVFILE("class", "0x%06x\n", VERBS_RUN_CLASS);
	ret |= DEVFILE("revision", "0x00\n");
	ret |= DEVFILE("numa_node", "-1\n");
	ret |= DEVFILE("irq", "0\n");
	ret |= DEVFILE("enable", "1\n");
	ret |= DEVFILE("modalias", "pci:v%08Xd%08Xsv%08Xsd%08Xbc02sc00i00\n", VERBS_RUN_VENDOR,
		       VERBS_RUN_DEVICE, VERBS_RUN_VENDOR, 0x0006);
	ret |= DEVFILE("uevent", "DRIVER=mlx4_core\nPCI_CLASS=20000\nPCI_ID=%04X:%04X\n"
		       "PCI_SLOT_NAME=%s\n", VERBS_RUN_VENDOR, VERBS_RUN_DEVICE, d->bdf);
	/* BAR0 (1 MiB, the HCR and the doorbells) and BAR2 (UAR pages, 8 MiB). */
	ret |= DEVFILE("resource", "0x%016x 0x%016x 0x%016x\n%s0x%016x 0x%016x 0x%016x\n%s",
		       0xe0000000u, 0xe0000000u + (1u << 20) - 1, 0x14220c,
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n",
		       0xe0800000u, 0xe0800000u + (8u << 20) - 1, 0x14220c,
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
#undef DEVFILE
	ret |= emu_path_link("../../../bus/pci/drivers/mlx4_core", "%s/driver", dir);
	ret |= emu_path_link("../../../bus/pci", "%s/subsystem", dir);
	snprintf(tgt, sizeof(tgt), "../../../%s", dir + strlen("sys/"));
	ret |= emu_path_link(tgt, "sys/bus/pci/devices/%s", d->bdf);
	snprintf(tgt, sizeof(tgt), "../../../../%s", dir + strlen("sys/"));
	ret |= emu_path_link(tgt, "sys/bus/pci/drivers/mlx4_core/%s", d->bdf);
	return ret;
}

/* The RDMA device mlx4_<idx> (mlx4_ib) with its ports, and uverbs<idx>. */
static int
verbs_preload_tree_ib(const struct verbs_run_dev *d, const char *dir,
		      const struct verbs_host_ports *hp)
{
	char ib[VERBS_PATH_LEN / 2];
	char f[VERBS_PATH_LEN];
	unsigned int p, nports = hp->nports;
	int up, ret = 0;

	snprintf(ib, sizeof(ib), "%s/infiniband/mlx4_%u", dir, d->idx);
#define IBFILE(name, ...) \
	(snprintf(f, sizeof(f), "%s/" name, ib), emu_path_file(f, __VA_ARGS__))
	ret |= emu_path_mkdir("%s", ib);
	ret |= IBFILE("node_type", "1: CA\n");
	ret |= IBFILE("node_guid", "0002:c903:00%02x:b2c0\n", d->idx);
	ret |= IBFILE("sys_image_guid", "0002:c903:00%02x:b2c3\n", d->idx);
	ret |= IBFILE("fw_ver", "2.42.5000\n");
	ret |= IBFILE("hca_type", "MT4103\n");
	ret |= IBFILE("hw_rev", "0\n");
	ret |= IBFILE("board_id", "MT_1090111023\n");
	ret |= IBFILE("node_desc", "mlxv-verbs mlx4_%u\n", d->idx);
	snprintf(f, sizeof(f), "../../../%.12s", d->bdf);
	ret |= emu_path_link(f, "%s/device", ib);
	for (p = 1; p <= nports; p++) {
		up = hp->port[p - 1].up;
		snprintf(f, sizeof(f), "%s/ports/%u/gids", ib, p);
		ret |= emu_path_mkdir("%s", f);
		snprintf(f, sizeof(f), "%s/ports/%u/state", ib, p);
		ret |= emu_path_file(f, "%s\n", up ? "4: ACTIVE" : "1: DOWN");
		snprintf(f, sizeof(f), "%s/ports/%u/phys_state", ib, p);
		ret |= emu_path_file(f, "%s\n", up ? "5: LinkUp" : "3: Disabled");
		snprintf(f, sizeof(f), "%s/ports/%u/link_layer", ib, p);
		ret |= emu_path_file(f, "Ethernet\n");
	}
#undef IBFILE
	snprintf(ib, sizeof(ib), "%s/infiniband_verbs/uverbs%u", dir, d->idx);
	ret |= emu_path_mkdir("%s", ib);
	snprintf(f, sizeof(f), "%s/ibdev", ib);
	ret |= emu_path_file(f, "mlx4_%u\n", d->idx);
	/* The mlx4 uverbs ABI (MLX4_IB_UVERBS_ABI_VERSION: dev_caps and cqe_size in the context) */
	snprintf(f, sizeof(f), "%s/abi_version", ib);
	ret |= emu_path_file(f, "4\n");
	snprintf(f, sizeof(f), "%s/dev", ib);
	ret |= emu_path_file(f, "%u:%u\n", VERBS_RUN_CDEV_MAJOR, VERBS_RUN_CDEV_MINOR + d->idx);
	snprintf(f, sizeof(f), "../../../%.12s", d->bdf);
	ret |= emu_path_link(f, "%s/device", ib);
	snprintf(f, sizeof(f), "../../devices/%s/infiniband/mlx4_%u", dir + strlen("sys/devices/"),
		 d->idx);
	ret |= emu_path_link(f, "sys/class/infiniband/mlx4_%u", d->idx);
	snprintf(f, sizeof(f), "../../devices/%s/infiniband_verbs/uverbs%u",
		 dir + strlen("sys/devices/"), d->idx);
	ret |= emu_path_link(f, "sys/class/infiniband_verbs/uverbs%u", d->idx);
	snprintf(f, sizeof(f), "dev/infiniband/uverbs%u", d->idx);
	ret |= emu_path_file(f, "%s", "");
	return ret;
}

/* Per port the mlx4_en netdev under the function: its name, MAC, MTU, flags and port. */
static int
verbs_preload_tree_net(const struct verbs_run_dev *d, const char *dir,
		       const struct verbs_host_ports *hp)
{
	struct rte_ether_addr mac;
	char ifname[32];
	char f[VERBS_PATH_LEN];
	unsigned int p, nports = hp->nports;
	int up, ret = 0;

	for (p = 1; p <= nports; p++) {
		verbs_preload_ifname(d->idx, p, ifname, sizeof(ifname));
		up = hp->port[p - 1].up;
		memcpy(&mac, hp->port[p - 1].mac, sizeof(mac));
#define NETFILE(name, ...) \
	(snprintf(f, sizeof(f), "%s/net/%s/" name, dir, ifname), emu_path_file(f, __VA_ARGS__))
		snprintf(f, sizeof(f), "%s/net/%s", dir, ifname);
		ret |= emu_path_mkdir("%s", f);
		ret |= NETFILE("address", RTE_ETHER_ADDR_PRT_FMT "\n", RTE_ETHER_ADDR_BYTES(&mac));
		ret |= NETFILE("mtu", "%u\n", hp->port[p - 1].mtu);
		ret |= NETFILE("dev_id", "0x%x\n", p - 1);
		ret |= NETFILE("dev_port", "%u\n", p - 1);
		ret |= NETFILE("operstate", "%s\n", up ? "up" : "down");
		ret |= NETFILE("carrier", "%d\n", up);
		/* Administratively up, as the host's network configuration leaves mlx4_en. */
		ret |= NETFILE("flags", "0x%x\n", IFF_UP | IFF_BROADCAST | IFF_MULTICAST);
		ret |= NETFILE("type", "1\n");
#undef NETFILE
	}
	return ret;
}

static unsigned int
verbs_preload_prepare(void)
{
	unsigned int n;

	verbs_preload_devs(&n);
	return n;
}

static int
verbs_preload_tree_build(void)
{
	char dir[48];
	struct verbs_host_ports hp;
	struct mlx4v_sim *sim;
	unsigned int i;
	int ret = 0;

	ret |= emu_path_mkdir("sys/bus/pci/devices");
	ret |= emu_path_mkdir("sys/bus/pci/drivers/mlx4_core");
	ret |= emu_path_mkdir("sys/class/infiniband");
	ret |= emu_path_mkdir("sys/class/infiniband_verbs");
	/* The uverbs ABI of the core (IB_USER_VERBS_ABI_VERSION). */
	ret |= emu_path_file("sys/class/infiniband_verbs/abi_version", "6\n");
	ret |= emu_path_mkdir("dev/infiniband");
	for (i = 0; i < verbs_preload_nb_devs; i++) {
		const struct verbs_run_dev *d = &verbs_preload_dev_tab[i];

		/* The bus directory of dddd:bb is "pcidddd:bb". */
		snprintf(dir, sizeof(dir), "sys/devices/pci%.7s/%.12s", d->bdf, d->bdf);
		/* The model here, or the ports as the process hosting it describes them. */
		sim = verbs_preload_sim(i);
		if (verbs_host_ports(i, &hp) != 0)
			ret = -EINVAL;
		ret |= verbs_preload_tree_pci(d, dir);
		ret |= verbs_preload_tree_ib(d, dir, &hp);
		ret |= verbs_preload_tree_net(d, dir, &hp);
		if (sim == NULL && !verbs_host_is_remote(i))
			ret = -EINVAL;
	}
	return ret;
}

/* /dev/infiniband/uverbs<n> -> n, anything else -> -2. */
static int
verbs_preload_open_node(const char *path)
{
	static const char pfx[] = "/dev/infiniband/uverbs";
	unsigned int n;
	char *end;

	if (strncmp(path, pfx, sizeof(pfx) - 1) != 0)
		return -2;
	n = strtoul(path + sizeof(pfx) - 1, &end, 10);
	if (end == path + sizeof(pfx) - 1 || *end != '\0')
		return -2;
	return verbs_preload_dev_open(n);
}

const struct emu_path_conf emu_path_conf = {
	.name = "mlxv-verbs",
	.prefixes = verbs_preload_prefixes,
	.nb_prefixes = sizeof(verbs_preload_prefixes) / sizeof(verbs_preload_prefixes[0]),
	.prepare = verbs_preload_prepare,
	.build = verbs_preload_tree_build,
	.open_node = verbs_preload_open_node,
};

/*
 * RDMA netlink (NETLINK_RDMA) refused, as a kernel without it: libibverbs then discovers the
 * devices through sysfs, which the tree answers. Other sockets pass through.
 */
int
socket(int domain, int type, int protocol)
{
	EMU_PATH_REAL(int, socket, int, int, int);
	if (domain == AF_NETLINK && protocol == NETLINK_RDMA && verbs_preload_prepare() != 0) {
		VERBS_TRACE("socket(AF_NETLINK, NETLINK_RDMA): EPROTONOSUPPORT");
		errno = EPROTONOSUPPORT;
		return -1;
	}
	return real_socket(domain, type, protocol);
}
