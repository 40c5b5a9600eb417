/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The preload's file system: the tree of the emulated functions' sysfs and VFIO nodes
 * (doc/guides/platform/vfio_emulation.rst, "Paths"); the redirection is emu_path.c's.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_launch.h"
#include "emu_path.h"
#include "vfio_run.h"

/*
 * Redirected to the tree: all of the PCI bus (so only the emulated functions are seen), the
 * IOMMU groups, the vfio modules, and /dev/vfio. "/sys/devices/pci" hides the host's PCI
 * hierarchy as well.
 */
static const struct emu_path_prefix vfio_preload_prefixes[] = {
	{ "/sys/bus/pci", 0 },
	{ "/sys/devices/pci", 1 },
	{ "/sys/kernel/iommu_groups", 0 },
	{ "/sys/module/vfio", 1 },
	{ "/dev/vfio", 0 },
};

static struct vfio_run_dev vfio_preload_dev_tab[VFIO_RUN_MAX_DEVS];
static unsigned int vfio_preload_nb_devs;

/* emu_preload_devs() callback: function idx of the environment list. */
static int
vfio_preload_parse_one(char *tok, unsigned int idx, char *err, size_t errlen)
{
	return vfio_run_dev_parse(tok, idx, &vfio_preload_dev_tab[idx], err, errlen);
}

static void
vfio_preload_parse(void)
{
	vfio_preload_nb_devs = emu_preload_devs("mlxv-vfio", getenv(VFIO_RUN_ENV_DEVS),
						VFIO_RUN_MAX_DEVS, vfio_preload_parse_one);
}

unsigned int
vfio_preload_dma_limit(void)
{
	const char *env = getenv(VFIO_RUN_ENV_DMA_LIMIT);

	return env != NULL ? (unsigned int)strtoul(env, NULL, 0) : VFIO_RUN_DMA_LIMIT_DEFAULT;
}

struct vfio_run_dev *
vfio_preload_devs(unsigned int *n)
{
	*n = vfio_preload_nb_devs;
	return vfio_preload_dev_tab;
}

/* One function's sysfs directory, as vfio-pci leaves it (relative links, as sysfs's). */
static int
vfio_preload_tree_dev(const struct vfio_run_dev *d)
{
	char dir[PATH_MAX];
	char bus[16];
	int ret = 0;

	/* The bus directory of dddd:bb: "pcidddd:bb". */
	snprintf(bus, sizeof(bus), "pci%.7s", d->bdf);
	snprintf(dir, sizeof(dir), "sys/devices/%s/%s", bus, d->bdf);
	ret |= emu_path_mkdir("%s", dir);
	ret |= emu_path_mkdir("sys/kernel/iommu_groups/%u/devices", d->group);
	ret |= emu_path_link("../../../bus/pci/drivers/vfio-pci", "%s/driver", dir);
	ret |= emu_path_link("../../../bus/pci", "%s/subsystem", dir);
	ret |= emu_path_mkdir("sys/devices/virtual/iommu/dmar0/intel-iommu");
	ret |= emu_path_link("../../virtual/iommu/dmar0", "%s/iommu", dir);
	return ret;
}

static int
vfio_preload_tree_dev_files(const struct vfio_run_dev *d)
{
	char dir[PATH_MAX];
	char tgt[PATH_MAX];
	char f[PATH_MAX + 32];
	char bus[16];
	int ret = 0;

	snprintf(bus, sizeof(bus), "pci%.7s", d->bdf);
	snprintf(dir, sizeof(dir), "sys/devices/%s/%s", bus, d->bdf);
#define DEVFILE(name, ...) \
	(snprintf(f, sizeof(f), "%s/" name, dir), emu_path_file(f, __VA_ARGS__))
	ret |= DEVFILE("vendor", "0x%04x\n", VFIO_RUN_VENDOR);
	ret |= DEVFILE("device", "0x%04x\n", d->device_id);
	ret |= DEVFILE("subsystem_vendor", "0x%04x\n", VFIO_RUN_VENDOR);
	ret |= DEVFILE("subsystem_device", "0x%04x\n", 0x0007);
	ret |= DEVFILE("class", "0x%06x\n", VFIO_RUN_CLASS);
	ret |= DEVFILE("revision", "0x00\n");
	ret |= DEVFILE("numa_node", "%d\n", d->numa_node);
	ret |= DEVFILE("irq", "0\n");
	ret |= DEVFILE("enable", "1\n");
	ret |= DEVFILE("modalias", "pci:v%08Xd%08Xsv%08Xsd%08Xbc02sc00i00\n",
		       VFIO_RUN_VENDOR, d->device_id, VFIO_RUN_VENDOR, 0x0007);
	/* BAR0, 64-bit prefetchable memory, at an address no host uses for RAM. */
	ret |= DEVFILE("resource", "0x%016x 0x%016x 0x%016x\n%s", 0xe0000000u,
		       0xe0000000u + (32u << 20) - 1, 0x14220c,
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
	ret |= DEVFILE("uevent", "DRIVER=vfio-pci\nPCI_CLASS=20000\nPCI_ID=%04X:%04X\n"
		       "PCI_SLOT_NAME=%s\n", VFIO_RUN_VENDOR, d->device_id, d->bdf);
	/*
	 * An Intel IOMMU with 48-bit guest addresses (MGAW, cap bits 21:16, is 47): EAL
	 * reads it to decide whether IOVA as VA fits.
	 */
	ret |= DEVFILE("iommu/intel-iommu/cap", "d2008c406f0462\n");
	if (d->device_id == 0x1017) {
		/* A PF: SR-IOV capable, no VFs enabled. */
		ret |= DEVFILE("sriov_totalvfs", "%u\n", 8u);
		ret |= DEVFILE("sriov_numvfs", "0\n");
	}
#undef DEVFILE
	snprintf(tgt, sizeof(tgt), "../../../kernel/iommu_groups/%u", d->group);
	ret |= emu_path_link(tgt, "%s/iommu_group", dir);
	snprintf(tgt, sizeof(tgt), "../../../devices/%s/%s", bus, d->bdf);
	ret |= emu_path_link(tgt, "sys/bus/pci/devices/%s", d->bdf);
	snprintf(tgt, sizeof(tgt), "../../../../devices/%s/%s", bus, d->bdf);
	ret |= emu_path_link(tgt, "sys/bus/pci/drivers/vfio-pci/%s", d->bdf);
	ret |= emu_path_link(tgt, "sys/kernel/iommu_groups/%u/devices/%s", d->group,
				 d->bdf);
	snprintf(f, sizeof(f), "dev/vfio/%u", d->group);
	ret |= emu_path_file(f, "%s", "");
	return ret;
}

static unsigned int
vfio_preload_prepare(void)
{
	vfio_preload_parse();
	return vfio_preload_nb_devs;
}

static int
vfio_preload_tree_build(void)
{
	unsigned int i;
	int ret = 0;

	ret |= emu_path_mkdir("sys/bus/pci/devices");
	ret |= emu_path_mkdir("sys/bus/pci/drivers/vfio-pci");
	ret |= emu_path_mkdir("sys/module/vfio/parameters");
	ret |= emu_path_mkdir("sys/module/vfio_pci/parameters");
	ret |= emu_path_mkdir("sys/module/vfio_iommu_type1/parameters");
	ret |= emu_path_file("sys/module/vfio_iommu_type1/parameters/dma_entry_limit",
			     "%u\n", vfio_preload_dma_limit());
	ret |= emu_path_file("sys/module/vfio/parameters/enable_unsafe_noiommu_mode", "N\n");
	ret |= emu_path_mkdir("dev/vfio");
	ret |= emu_path_file("dev/vfio/vfio", "%s", "");
	for (i = 0; i < vfio_preload_nb_devs; i++) {
		ret |= vfio_preload_tree_dev(&vfio_preload_dev_tab[i]);
		ret |= vfio_preload_tree_dev_files(&vfio_preload_dev_tab[i]);
	}
	return ret;
}

/* /dev/vfio/vfio -> -1, /dev/vfio/<n> -> n, anything else -> -2. */
static int
vfio_preload_vfio_node(const char *path)
{
	char *end;
	long g;

	if (strncmp(path, "/dev/vfio/", 10) != 0)
		return -2;
	if (strcmp(path + 10, "vfio") == 0)
		return -1;
	errno = 0;
	g = strtol(path + 10, &end, 10);
	if (errno != 0 || end == path + 10 || *end != '\0' || g < 0 || g > INT32_MAX)
		return -2;
	return (int)g;
}

/* The open of an emulated VFIO node, or -2 if path is not one. */
static int
vfio_preload_open_node(const char *path)
{
	int node = vfio_preload_vfio_node(path);

	if (node == -2)
		return -2;
	return vfio_preload_dev_open(node);
}

const struct emu_path_conf emu_path_conf = {
	.name = "mlxv-vfio",
	.prefixes = vfio_preload_prefixes,
	.nb_prefixes = sizeof(vfio_preload_prefixes) / sizeof(vfio_preload_prefixes[0]),
	.prepare = vfio_preload_prepare,
	.build = vfio_preload_tree_build,
	.open_node = vfio_preload_open_node,
};
