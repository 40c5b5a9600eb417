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
#include "mlxv_pci_owned.h"

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
/* The primary's table of the devices it took (mlxv_pci_owned.h). */
#define MLX4V_PCI_OWNED_MZ "mlx4v_pci_owned"

/*
 * The devargs, layer by layer (doc/guides/platform/layers.rst, "Devargs"): the front-end's
 * mlx4v=<0|1>, then the common driver's and the classes' (class= into *classes, valid while
 * a is); a key no layer took is refused by name. Read only when mlx4v= is there: a device
 * without it is left, its devargs unread, to the drivers after us.
 * @return 1 when the user picked this driver for the device (mlx4v=1), 0 when not, -EINVAL
 * for devargs no layer accepts.
 */
static int
mlx4v_pci_selected(const struct rte_pci_device *pci_dev, struct mlxv_class_args *a,
		   const char **classes)
{
	const char *args = pci_dev->device.devargs != NULL ? pci_dev->device.devargs->args : NULL;
	const char *name = pci_dev->device.name;
	const char *val = NULL;
	int ret;

	memset(a, 0, sizeof(*a));
	if (args == NULL || strstr(args, MLX4V_PCI_ARG_SELECT "=") == NULL)
		return 0;
	ret = mlx4v_class_args_parse(a, name, args);
	if (ret < 0)
		return ret;
	mlxv_class_args_take(a, MLX4V_PCI_ARG_SELECT, &val);
	if (val == NULL || (strcmp(val, "0") != 0 && strcmp(val, "1") != 0)) {
		MLX4V_LOG(ERR, "%s: devarg %s=%s: expected 0 or 1", name, MLX4V_PCI_ARG_SELECT,
			  val != NULL ? val : "");
		return -EINVAL;
	}
	ret = mlx4v_class_args_core(a, name, classes);
	if (ret == 0)
		ret = mlx4v_class_args_check(a, name);
	return ret < 0 ? ret : val[0] == '1';
}

static int
mlx4v_pci_probe(struct rte_pci_driver *drv, struct rte_pci_device *pci_dev)
{
	const char *classes = NULL;
	struct mlxv_class_args a;
	int ret;

	RTE_SET_USED(drv);
	/*
	 * A secondary process opens nothing: the device and its ports live in the primary, the
	 * classes attach to what they made there (doc/guides/nics/mlx4v.rst, secondary
	 * processes). It takes exactly the devices the primary took through this driver,
	 * whatever its own devargs say (Debian's dpdk-dumpcap passes none): class= is read
	 * when mlx4v= is there, the rest of the selection is the primary's.
	 */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		if (!mlxv_pci_owned(MLX4V_PCI_OWNED_MZ, pci_dev->device.name)) {
			MLX4V_LOG(INFO, "%s: not the primary process's, left to other drivers",
				  pci_dev->device.name);
			return 1;
		}
		ret = mlx4v_pci_selected(pci_dev, &a, &classes);
		if (ret >= 0)
			ret = mlx4v_class_dev_attach(&pci_dev->device, classes);
		if (ret < 0)
			MLX4V_LOG(ERR, "%s: cannot attach in this secondary process: %s",
				  pci_dev->device.name, rte_strerror(-ret));
		mlxv_class_args_free(&a);
		return ret;
	}
	/*
	 * Plugins given with -d register before Debian's auto-loaded ones, and the PCI
	 * bus gives a device to the first driver whose probe returns 0: a ConnectX-3
	 * is therefore only taken when the user asks for it (-a <BDF>,mlx4v=1), and
	 * is otherwise left to Debian's net_mlx4.
	 */
	ret = mlx4v_pci_selected(pci_dev, &a, &classes);
	if (ret <= 0) {
		if (ret == 0)
			MLX4V_LOG(DEBUG, "%s: not selected (devarg %s=1), left to other drivers",
				  pci_dev->device.name, MLX4V_PCI_ARG_SELECT);
		mlxv_class_args_free(&a);
		return ret < 0 ? ret : 1;
	}
	ret = mlx4v_verbs_rdma_probe_pci(&pci_dev->addr, pci_dev->device.name,
					 pci_dev->device.numa_node, &pci_dev->device, classes);
	mlxv_class_args_free(&a);
	/*
	 * No ibverbs device at this address (kernel driver missing, or another
	 * provider): decline with a positive value so other drivers, such as
	 * Debian's net_mlx4, may still take the device.
	 */
	if (ret == 1) {
		MLX4V_LOG(INFO, "%s: no ibverbs device, skipped", pci_dev->device.name);
		return 1;
	}
	if (ret < 0) {
		MLX4V_LOG(ERR, "%s: cannot register: %s", pci_dev->device.name,
			  rte_strerror(-ret));
		return ret;
	}
	ret = mlxv_pci_owned_set(MLX4V_PCI_OWNED_MZ, pci_dev->device.name, 1);
	if (ret < 0) {
		MLX4V_LOG(ERR, "%s: cannot record it for secondary processes: %s",
			  pci_dev->device.name, rte_strerror(-ret));
		mlx4v_verbs_rdma_unregister(pci_dev->device.name);
	}
	return ret;
}

static int
mlx4v_pci_remove(struct rte_pci_device *pci_dev)
{
	/* Mirrors the probe: a secondary only detaches its classes. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx4v_class_dev_detach(&pci_dev->device);
	mlxv_pci_owned_set(MLX4V_PCI_OWNED_MZ, pci_dev->device.name, 0);
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
			      MLX4V_CLASS_ARG "=<net|none|name:name> "
			      MLX4V_RECOVERY_ARG "=<reset|dead>");
