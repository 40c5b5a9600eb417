/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * mlx4v_pci: the PCI front-end for real ConnectX-3 devices on the kernel mlx4
 * driver (bifurcated: no BAR mapping, everything through ibverbs). The driver
 * name, id table and kernel-module dependency live in this one file for pmdinfogen.
 */

#include <string.h>

#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_kvargs.h>
#include <rte_pci.h>
#include <bus_pci_driver.h>

#include "mlx4v_class.h"
#include "mlx4v_log.h"
#include "mlx4v_verbs.h"
#include "mlx4v_verbs_rdma.h"

#define MLX4V_PCI_VENDOR_MELLANOX 0x15b3
#define MLX4V_PCI_DEVICE_CONNECTX3 0x1003
#define MLX4V_PCI_DEVICE_CONNECTX3PRO 0x1007

static const struct rte_pci_id mlx4v_pci_id_map[] = {
	{ RTE_PCI_DEVICE(MLX4V_PCI_VENDOR_MELLANOX, MLX4V_PCI_DEVICE_CONNECTX3) },
	{ RTE_PCI_DEVICE(MLX4V_PCI_VENDOR_MELLANOX, MLX4V_PCI_DEVICE_CONNECTX3_VF) },
	{ RTE_PCI_DEVICE(MLX4V_PCI_VENDOR_MELLANOX, MLX4V_PCI_DEVICE_CONNECTX3PRO) },
	{ .vendor_id = 0 },
};

/** The devargs key that selects this driver for a device (opt-in). */
#define MLX4V_PCI_ARG_SELECT "mlx4v"
#define MLX4V_PCI_CLASS_LEN 128

static int
mlx4v_pci_arg_bool(const char *key, const char *value, void *opaque)
{
	int *on = opaque;

	if (value == NULL || (strcmp(value, "0") != 0 && strcmp(value, "1") != 0)) {
		MLX4V_LOG(ERR, "devarg %s=%s: expected 0 or 1", key, value);
		return -EINVAL;
	}
	*on = value[0] == '1';
	return 0;
}

/* class=<list>: copied out; the class layer validates it. */
static int
mlx4v_pci_arg_str(const char *key, const char *value, void *opaque)
{
	char *out = opaque;

	if (value == NULL || value[0] == '\0' || strlen(value) >= MLX4V_PCI_CLASS_LEN ||
	    out[0] != '\0') {
		MLX4V_LOG(ERR, "devarg %s: empty, too long or given twice", key);
		return -EINVAL;
	}
	strlcpy(out, value, MLX4V_PCI_CLASS_LEN);
	return 0;
}

/*
 * @return 1 when the user picked this driver for the device with the devarg
 * mlx4v=1, 0 when not, -EINVAL for devargs this driver does not accept.
 */
static int
mlx4v_pci_selected(const struct rte_pci_device *pci_dev, char *classes)
{
	static const char *const keys[] = { MLX4V_PCI_ARG_SELECT, MLX4V_CLASS_ARG, NULL };
	struct rte_kvargs *kv;
	int on = 0;
	int ret;

	if (pci_dev->device.devargs == NULL || pci_dev->device.devargs->args == NULL ||
	    strstr(pci_dev->device.devargs->args, MLX4V_PCI_ARG_SELECT "=") == NULL)
		return 0;
	kv = rte_kvargs_parse(pci_dev->device.devargs->args, keys);
	if (kv == NULL) {
		MLX4V_LOG(ERR, "%s: bad devargs \"%s\" (accepted: %s=<0|1>)",
			  pci_dev->device.name, pci_dev->device.devargs->args,
			  MLX4V_PCI_ARG_SELECT);
		return -EINVAL;
	}
	/* A key given twice would silently take its last value. */
	if (rte_kvargs_count(kv, MLX4V_PCI_ARG_SELECT) > 1 ||
	    rte_kvargs_count(kv, MLX4V_CLASS_ARG) > 1) {
		MLX4V_LOG(ERR, "%s: a devarg is given twice in \"%s\"", pci_dev->device.name,
			  pci_dev->device.devargs->args);
		rte_kvargs_free(kv);
		return -EINVAL;
	}
	ret = rte_kvargs_process(kv, MLX4V_PCI_ARG_SELECT, mlx4v_pci_arg_bool, &on);
	if (ret == 0)
		ret = rte_kvargs_process(kv, MLX4V_CLASS_ARG, mlx4v_pci_arg_str, classes);
	rte_kvargs_free(kv);
	return ret < 0 ? -EINVAL : on;
}

static int
mlx4v_pci_probe(struct rte_pci_driver *drv, struct rte_pci_device *pci_dev)
{
	char classes[MLX4V_PCI_CLASS_LEN] = "";
	int ret;

	RTE_SET_USED(drv);
	/*
	 * Plugins given with -d register before Debian's auto-loaded ones, and the PCI
	 * bus gives a device to the first driver whose probe returns 0: a ConnectX-3
	 * is therefore only taken when the user asks for it (-a <BDF>,mlx4v=1), and
	 * is otherwise left to Debian's net_mlx4.
	 */
	ret = mlx4v_pci_selected(pci_dev, classes);
	if (ret <= 0) {
		if (ret == 0)
			MLX4V_LOG(DEBUG, "%s: not selected (devarg %s=1), left to other drivers",
				  pci_dev->device.name, MLX4V_PCI_ARG_SELECT);
		return ret < 0 ? ret : 1;
	}
	/*
	 * A secondary process opens nothing: the device and its ports live in the primary, the
	 * classes attach to what they made there (doc/guides/nics/mlx4v.rst, secondary
	 * processes). The selection above holds here too: without mlx4v=1 the device is left to
	 * the driver the primary gave it to.
	 */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		ret = mlx4v_class_dev_attach(&pci_dev->device,
					     classes[0] != '\0' ? classes : NULL);
		if (ret < 0)
			MLX4V_LOG(ERR, "%s: cannot attach in this secondary process: %s",
				  pci_dev->device.name, rte_strerror(-ret));
		return ret;
	}
	ret = mlx4v_verbs_rdma_probe_pci(&pci_dev->addr, pci_dev->device.name,
					 pci_dev->device.numa_node, &pci_dev->device,
					 classes[0] != '\0' ? classes : NULL);
	/*
	 * No ibverbs device at this address (kernel driver missing, or another
	 * provider): decline with a positive value so other drivers, such as
	 * Debian's net_mlx4, may still take the device.
	 */
	if (ret == 1) {
		MLX4V_LOG(INFO, "%s: no ibverbs device, skipped", pci_dev->device.name);
		return 1;
	}
	if (ret < 0)
		MLX4V_LOG(ERR, "%s: cannot register: %s", pci_dev->device.name,
			  rte_strerror(-ret));
	return ret;
}

static int
mlx4v_pci_remove(struct rte_pci_device *pci_dev)
{
	/* Mirrors the probe: a secondary only detaches its classes. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx4v_class_dev_detach(&pci_dev->device);
	return mlx4v_verbs_rdma_unregister(pci_dev->device.name);
}

static struct rte_pci_driver mlx4v_pci_driver = {
	.id_table = mlx4v_pci_id_map,
	.probe = mlx4v_pci_probe,
	.remove = mlx4v_pci_remove,
	.drv_flags = 0,
};

RTE_PMD_REGISTER_PCI(mlx4v_pci, mlx4v_pci_driver);
RTE_PMD_REGISTER_PCI_TABLE(mlx4v_pci, mlx4v_pci_id_map);
RTE_PMD_REGISTER_KMOD_DEP(mlx4v_pci, "* ib_uverbs & mlx4_en & mlx4_core & mlx4_ib");
RTE_PMD_REGISTER_PARAM_STRING(mlx4v_pci, MLX4V_PCI_ARG_SELECT "=<0|1> "
			      MLX4V_CLASS_ARG "=<net|none|name:name>");
