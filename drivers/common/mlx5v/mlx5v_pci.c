/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * mlx5v_pci: the PCI front-end for ConnectX-4 and later functions bound to vfio-pci: the
 * devargs, probe and remove, and the driver name, id table and kernel-module dependency, in
 * this one file for pmdinfogen. The seam backend it builds on is mlx5v_hw_pci.c.
 */

#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>
#include <rte_string_fns.h>
#include <bus_pci_driver.h>

#include "mlx5v_class.h"
#include "mlx5v_dev.h"
#include "mlx5v_log.h"
#include "mlxv_pci_owned.h"

#define PCI_VENDOR_ID_MELLANOX 0x15b3
#define MLX5V_PCI_ARG_SELECT "mlx5v"
/* The primary's table of the functions it took (mlxv_pci_owned.h). */
#define MLX5V_PCI_OWNED_MZ "mlx5v_pci_owned"

/*
 * Whether this library is the one installed as a plugin of the EAL's own directory
 * (RTE_EAL_PMD_PATH, which every DPDK program of the machine loads without being asked):
 * the very file the plugin name there resolves to, by identity (device and inode), as the
 * dynamic loader tells two loads apart: a hard link of it, or the plugin reached through
 * another mount or a library's run path, is the installed driver too. A build tree's
 * library, linked by a program or given with -d, is not. @return 1 or 0 (0 too when it
 * cannot tell).
 */
static int
mlx5v_pci_installed(void)
{
	struct stat self, plugin;
	Dl_info info;

	if (dladdr((void *)(uintptr_t)mlx5v_pci_installed, &info) == 0 ||
	    info.dli_fname == NULL || stat(info.dli_fname, &self) != 0 ||
	    stat(RTE_EAL_PMD_PATH "/librte_common_mlx5v.so", &plugin) != 0)
		return 0;
	return self.st_dev == plugin.st_dev && self.st_ino == plugin.st_ino;
}

/*
 * The devargs: the front-end's own mlx5v=<0|1> into *selected, then the core's and the
 * classes' (mlx5v_class_args_core()); a key no layer took is refused by name.
 * @return 0 or -EINVAL.
 */
static int
mlx5v_pci_parse(struct rte_pci_device *pdev, struct mlxv_class_args *a,
		struct mlx5v_dev_params *dp, const char **classes, int *selected)
{
	const char *name = pdev->device.name;
	const char *val;
	int ret;

	ret = mlx5v_class_args_parse(a, name, pdev->device.devargs != NULL ?
				     pdev->device.devargs->args : NULL);
	if (ret < 0)
		return ret;
	if (mlxv_class_args_take(a, MLX5V_PCI_ARG_SELECT, &val)) {
		if (val == NULL || (strcmp(val, "0") != 0 && strcmp(val, "1") != 0)) {
			MLX5V_LOG(ERR, "%s: devarg %s=%s: expected 0 or 1", name,
				  MLX5V_PCI_ARG_SELECT, val != NULL ? val : "");
			return -EINVAL;
		}
		*selected = val[0] == '1';
	}
	ret = mlx5v_class_args_core(a, name, dp, classes);
	if (ret == 0)
		ret = mlx5v_class_args_check(a, name);
	return ret;
}

/*
 * Secondary: a seam of this process on the BAR EAL mapped here (pci_vfio_map_resource
 * secondary), through which its bursts ring the UAR pages the primary's queues use, as on
 * silicon every process reaches BAR0 through its own mapping; then the classes.
 */
static int
mlx5v_pci_attach(struct rte_pci_device *pdev, const char *classes)
{
	struct mlx5v_hw *hw;
	int slot, ret;

	hw = mlx5v_hw_pci_create(pdev);
	if (hw == NULL)
		return -ENOMEM;
	slot = mlx5v_hw_slot_alloc(hw);
	if (slot < 0) {
		ret = slot;
		goto err_free;
	}
	ret = mlx5v_class_dev_attach(&pdev->device, classes);
	if (ret < 0)
		goto err_slot;
	return ret;
err_slot:
	mlx5v_hw_slot_free(slot);
err_free:
	rte_free(hw->priv);
	return ret;
}

/* Secondary: undo mlx5v_pci_attach(). */
static int
mlx5v_pci_detach(struct rte_pci_device *pdev)
{
	struct mlx5v_hw *hw;
	int ret;

	ret = mlx5v_class_dev_detach(&pdev->device);
	if (ret < 0)
		return ret;
	hw = mlx5v_hw_lookup(pdev->device.name);
	if (hw != NULL) {
		rte_free(hw->priv);
		mlx5v_hw_slot_free(hw - mlx5v_hw_procs);
	}
	return ret;
}

/* Primary: undo the class probe of mlx5v_pci_probe(). @return 0 or -errno. */
static int
mlx5v_pci_remove_primary(struct rte_pci_device *pdev)
{
	void *p = NULL;
	int ret;

	ret = mlx5v_class_dev_remove(pdev->device.name, &p);
	if (ret < 0)
		return ret;
	/* MSI-X was disabled by mlx5v_msi_cleanup() when the device was unloaded. */
	rte_free(p);
	return 0;
}

static int
mlx5v_pci_probe(struct rte_pci_driver *drv, struct rte_pci_device *pdev)
{
	struct mlxv_class_args a;
	struct mlx5v_dev_params dp;
	const char *classes;
	struct mlx5v_hw *hw;
	int selected = 1;
	int ret;

	RTE_SET_USED(drv);
	/* Leave functions bound to mlx5_core (Debian's mlx5 PMD) or UIO to other drivers. */
	if (pdev->kdrv != RTE_PCI_KDRV_VFIO) {
		MLX5V_LOG(INFO, "%s: not bound to vfio-pci, skipped", pdev->device.name);
		return 1;
	}
	/*
	 * A secondary takes exactly the functions its primary took through this driver, whatever
	 * its own devargs or -a say (Debian's dpdk-dumpcap passes none): the primary owns them.
	 */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY &&
	    !mlxv_pci_owned(MLX5V_PCI_OWNED_MZ, pdev->device.name)) {
		MLX5V_LOG(INFO, "%s: not the primary process's, left to other drivers",
			  pdev->device.name);
		return 1;
	}
	/*
	 * Installed as a plugin, this driver is in every DPDK program of the machine, and the PCI
	 * bus gives a device to the first driver whose probe returns 0: installed there, a
	 * function is only taken when the user names it for us (-a <BDF>,mlx5v=1), as mlx4v_pci
	 * does with mlx4v=1, and is otherwise left, untouched and with its devargs unread, to
	 * the drivers after us. A build tree's driver, linked by the program or loaded with -d,
	 * was asked for: binding the function to vfio-pci is the opt-in, and mlx5v=0 still
	 * leaves it (doc/guides/howto/device_selection.rst).
	 */
	if (rte_eal_process_type() == RTE_PROC_PRIMARY &&
	    (pdev->device.devargs == NULL || pdev->device.devargs->args == NULL ||
	     strstr(pdev->device.devargs->args, MLX5V_PCI_ARG_SELECT "=") == NULL) &&
	    mlx5v_pci_installed()) {
		MLX5V_LOG(INFO, "%s: not selected (devarg %s=1), left to other drivers",
			  pdev->device.name, MLX5V_PCI_ARG_SELECT);
		return 1;
	}
	if (pdev->mem_resource[0].addr == NULL) {
		MLX5V_LOG(ERR, "%s: BAR0 is not mapped", pdev->device.name);
		return -ENODEV;
	}
	ret = mlx5v_pci_parse(pdev, &a, &dp, &classes, &selected);
	if (ret < 0)
		goto out;
	if (selected == 0 && rte_eal_process_type() == RTE_PROC_PRIMARY) {
		MLX5V_LOG(INFO, "%s: %s=0, left to other drivers", pdev->device.name,
			  MLX5V_PCI_ARG_SELECT);
		ret = 1;
		goto out;
	}
	/* The primary owns the function: a secondary attaches the classes to it. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		ret = mlx5v_pci_attach(pdev, classes);
		goto out;
	}
	hw = mlx5v_hw_pci_create(pdev);
	if (hw == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	ret = mlx5v_class_dev_probe(&pdev->device, hw, &dp, classes);
	if (ret < 0) {
		rte_free(hw->priv);
		goto out;
	}
	ret = mlxv_pci_owned_set(MLX5V_PCI_OWNED_MZ, pdev->device.name, 1);
	if (ret < 0) {
		MLX5V_LOG(ERR, "%s: cannot record it for secondary processes: %s",
			  pdev->device.name, rte_strerror(-ret));
		mlx5v_pci_remove_primary(pdev);
	}
out:
	mlxv_class_args_free(&a);
	return ret;
}

static int
mlx5v_pci_remove(struct rte_pci_device *pdev)
{
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5v_pci_detach(pdev);
	mlxv_pci_owned_set(MLX5V_PCI_OWNED_MZ, pdev->device.name, 0);
	return mlx5v_pci_remove_primary(pdev);
}

static const struct rte_pci_id mlx5v_pci_ids[] = {
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x1013) }, /* ConnectX-4 */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x1014) }, /* ConnectX-4 VF */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x1015) }, /* ConnectX-4 Lx */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x1016) }, /* ConnectX-4 Lx VF */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x1017) }, /* ConnectX-5 */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x1018) }, /* ConnectX-5 VF */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x1019) }, /* ConnectX-5 Ex */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x101a) }, /* ConnectX-5 Ex VF */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x101b) }, /* ConnectX-6 */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x101c) }, /* ConnectX-6 VF */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x101d) }, /* ConnectX-6 Dx */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x101e) }, /* ConnectX-6 Dx/6 Lx/7 VF */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x101f) }, /* ConnectX-6 Lx */
	{ RTE_PCI_DEVICE(PCI_VENDOR_ID_MELLANOX, 0x1021) }, /* ConnectX-7 */
	{ .vendor_id = 0 },
};

static struct rte_pci_driver mlx5v_pci_drv = {
	.id_table = mlx5v_pci_ids,
	.drv_flags = RTE_PCI_DRV_NEED_MAPPING,
	.probe = mlx5v_pci_probe,
	.remove = mlx5v_pci_remove,
};

RTE_PMD_REGISTER_PCI(mlx5v_pci, mlx5v_pci_drv);
RTE_PMD_REGISTER_PCI_TABLE(mlx5v_pci, mlx5v_pci_ids);
RTE_PMD_REGISTER_KMOD_DEP(mlx5v_pci, "vfio-pci");
RTE_PMD_REGISTER_PARAM_STRING(mlx5v_pci,
	"mlx5v=<0|1> class=<net|none|name:name> cmd_to_ms=<int> health_ms=<int> cmd_sig=<0|1> "
	"fast_unload=<0|1> health_strict=<0|1> recovery=<reset|dead>");
