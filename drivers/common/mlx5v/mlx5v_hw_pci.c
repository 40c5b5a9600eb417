/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The vfio-pci backend of the seam and the mlx5v_pci driver.
 *
 * UNTESTED ON HARDWARE: this backend compiles and shares every line of bring-up logic
 * with the simulator path (mlx5v_dev.c), but has never run against a real ConnectX.
 */

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/vfio.h>

#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_eal_paging.h>
#include <rte_errno.h>
#include <rte_interrupts.h>
#include <rte_io.h>
#include <rte_kvargs.h>
#include <rte_string_fns.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <bus_pci_driver.h>

#include "mlx5v_class.h"
#include "mlx5v_dma.h"
#include "mlx5v_dev.h"
#include "mlx5v_log.h"

#define PCI_VENDOR_ID_MELLANOX 0x15b3
#define MLX5V_PCI_CLASS_LEN 128
#define MLX5V_PCI_COMMAND 0x04
#define MLX5V_PCI_COMMAND_MEM_BUS_MASTER 0x0006

/** Per-function backend state (hw->priv). */
struct mlx5v_pci {
	struct mlx5v_hw hw;
	struct rte_pci_device *pdev;
	uint8_t *bar;
	size_t bar_len;
};

/*
 * VFIO backend of the mlx5v_hw seam: BAR0 mapped by the EAL PCI bus, MSI-X through
 * VFIO_DEVICE_SET_IRQS. Every op may run on any lcore or the EAL interrupt thread; none keeps
 * per-call state.
 */
static inline struct mlx5v_pci *
mlx5v_to_pci(struct mlx5v_hw *hw)
{
	return hw->priv;
}

static uint32_t
mlx5v_pci_rd32(struct mlx5v_hw *hw, uint32_t off)
{
	/* The init segment is big-endian; rte_read32 orders the load after earlier ones. */
	return rte_be_to_cpu_32(rte_read32(mlx5v_to_pci(hw)->bar + off));
}

static void
mlx5v_pci_wr32(struct mlx5v_hw *hw, uint32_t off, uint32_t val)
{
	/* rte_write32 issues the write barrier the command doorbell needs (prm/mlx5 §3.5). */
	rte_write32(rte_cpu_to_be_32(val), mlx5v_to_pci(hw)->bar + off);
}

static void *
mlx5v_pci_uar_addr(struct mlx5v_hw *hw, uint64_t off)
{
	struct mlx5v_pci *p = mlx5v_to_pci(hw);

	/*
	 * off is the UAR index scaled by the core: 4096 with uar_4k, else the host page
	 * (prm/mlx5 §8, §12 #16); [R] hard-codes 4096, right only on 4 KiB-page hosts.
	 */
	if (off + MLX5V_UAR_PAGE_SIZE > p->bar_len)
		return NULL;
	return p->bar + off;
}

/*
 * EAL memory is already in the VFIO container (EAL maps every memseg at start-up), so
 * mapping is a translation check: the device address is the EAL IOVA, and the window must be
 * IOVA-contiguous page by page, which rte_malloc memory is not across hugepages with IOVA as
 * PA (doc/guides/nics/running_on_hardware.rst, "IOVA modes"). Callers split such buffers.
 */
static int
mlx5v_pci_dma_map(struct mlx5v_hw *hw, void *va, size_t len, uint64_t *iova)
{
	int ret = mlx5v_dma_contig(va, len, iova);

	if (ret < 0)
		MLX5V_LOG(ERR, "%s: DMA window %p + %zu: %s", hw->name, va, len,
			  ret == -EFAULT ? "memory without an IOVA" : "not IOVA-contiguous");
	return ret;
}

/* Nothing to undo: mlx5v_pci_dma_map() created no mapping. */
static int
mlx5v_pci_dma_unmap(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len)
{
	RTE_SET_USED(hw);
	RTE_SET_USED(va);
	RTE_SET_USED(iova);
	RTE_SET_USED(len);
	return 0;
}

/*
 * External memory is not in the container until someone maps it: the bus does it for the
 * device (pci_dma_map() -> rte_vfio_container_dma_map() on the default container).
 */
static int
mlx5v_pci_container_map(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len)
{
	struct mlx5v_pci *p = hw->priv;

	if (rte_dev_dma_map(&p->pdev->device, va, iova, len) != 0)
		return -rte_errno;
	return 0;
}

static int
mlx5v_pci_container_unmap(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len)
{
	struct mlx5v_pci *p = hw->priv;

	if (rte_dev_dma_unmap(&p->pdev->device, va, iova, len) != 0)
		return -rte_errno;
	return 0;
}

static int
mlx5v_pci_vfio_fd(struct mlx5v_pci *p)
{
	return rte_intr_dev_fd_get(p->pdev->intr_handle);
}

/* The MSI-X index as VFIO describes it; the vector policy is the core's (mlx5v_msi.c). */
static int
mlx5v_pci_irq_info(struct mlx5v_hw *hw, struct mlx5v_hw_irq_info *out)
{
	struct mlx5v_pci *p = mlx5v_to_pci(hw);
	struct vfio_irq_info info;

	memset(&info, 0, sizeof(info));
	info.argsz = sizeof(info);
	info.index = VFIO_PCI_MSIX_IRQ_INDEX;
	if (ioctl(mlx5v_pci_vfio_fd(p), VFIO_DEVICE_GET_IRQ_INFO, &info) != 0) {
		MLX5V_LOG(ERR, "%s: VFIO_DEVICE_GET_IRQ_INFO: %s", hw->name, strerror(errno));
		return -errno;
	}
	out->count = info.count;
	out->flags = ((info.flags & VFIO_IRQ_INFO_EVENTFD) ? MLX5V_HW_IRQ_EVENTFD : 0) |
		     ((info.flags & VFIO_IRQ_INFO_NORESIZE) ? MLX5V_HW_IRQ_NORESIZE : 0);
	return 0;
}

/* VFIO_DEVICE_SET_IRQS on the MSI-X index; count 0 (DATA_NONE) disables MSI-X. */
static int
mlx5v_pci_irq_set(struct mlx5v_hw *hw, unsigned int start, unsigned int count, const int *fds)
{
	struct mlx5v_pci *p = mlx5v_to_pci(hw);
	size_t len = sizeof(struct vfio_irq_set) + sizeof(int) * count;
	struct vfio_irq_set *set;
	int ret = 0;

	set = calloc(1, len);
	if (set == NULL)
		return -ENOMEM;
	set->argsz = len;
	set->flags = (count > 0 ? VFIO_IRQ_SET_DATA_EVENTFD : VFIO_IRQ_SET_DATA_NONE) |
		     VFIO_IRQ_SET_ACTION_TRIGGER;
	set->index = VFIO_PCI_MSIX_IRQ_INDEX;
	set->start = count > 0 ? start : 0;
	set->count = count;
	if (count > 0)
		memcpy(set->data, fds, sizeof(int) * count);
	if (ioctl(mlx5v_pci_vfio_fd(p), VFIO_DEVICE_SET_IRQS, set) != 0)
		ret = -errno;
	free(set);
	return ret;
}

/* PCI COMMAND |= memory space | bus master (§2.1 step 4). */
static int
mlx5v_pci_bus_enable(struct mlx5v_hw *hw)
{
	struct mlx5v_pci *p = mlx5v_to_pci(hw);
	uint16_t cmd;

	if (rte_pci_read_config(p->pdev, &cmd, sizeof(cmd), MLX5V_PCI_COMMAND) != sizeof(cmd))
		return -EIO;
	cmd |= MLX5V_PCI_COMMAND_MEM_BUS_MASTER;
	if (rte_pci_write_config(p->pdev, &cmd, sizeof(cmd), MLX5V_PCI_COMMAND) != sizeof(cmd))
		return -EIO;
	return 0;
}

/*
 * A function level reset through vfio-pci, which saves and restores the config space around
 * it (COMMAND, MSI-X) and keeps the container and the BAR mappings.
 */
static int
mlx5v_pci_func_reset(struct mlx5v_hw *hw)
{
	struct mlx5v_pci *p = mlx5v_to_pci(hw);

	if (ioctl(mlx5v_pci_vfio_fd(p), VFIO_DEVICE_RESET) != 0) {
		MLX5V_LOG(ERR, "%s: VFIO_DEVICE_RESET: %s", hw->name, strerror(errno));
		return -errno;
	}
	return 0;
}

const struct mlx5v_hw_ops mlx5v_hw_pci_ops = {
	.reg_rd32 = mlx5v_pci_rd32,
	.reg_wr32 = mlx5v_pci_wr32,
	.uar_addr = mlx5v_pci_uar_addr,
	.dma_map = mlx5v_pci_dma_map,
	.dma_unmap = mlx5v_pci_dma_unmap,
	.container_map = mlx5v_pci_container_map,
	.container_unmap = mlx5v_pci_container_unmap,
	.irq_info = mlx5v_pci_irq_info,
	.irq_set = mlx5v_pci_irq_set,
	.bus_enable = mlx5v_pci_bus_enable,
	.db_notify = NULL,
	.func_reset = mlx5v_pci_func_reset,
};

/* ---- the mlx5v_pci driver ---- */

#define MLX5V_PCI_ARG_CMD_TO_MS "cmd_to_ms"
#define MLX5V_PCI_ARG_HEALTH_MS "health_ms"
#define MLX5V_PCI_ARG_CMD_SIG "cmd_sig"
#define MLX5V_PCI_ARG_FAST_UNLOAD "fast_unload"
#define MLX5V_PCI_ARG_HEALTH_STRICT "health_strict"
#define MLX5V_PCI_ARG_SELECT "mlx5v"

static const char *const mlx5v_pci_valid_args[] = {
	MLX5V_PCI_ARG_CMD_TO_MS,
	MLX5V_PCI_ARG_HEALTH_MS,
	MLX5V_PCI_ARG_CMD_SIG,
	MLX5V_PCI_ARG_FAST_UNLOAD,
	MLX5V_PCI_ARG_HEALTH_STRICT,
	MLX5V_RECOVERY_ARG,
	MLX5V_PCI_ARG_SELECT,
	MLX5V_CLASS_ARG,
	NULL,
};

static int
mlx5v_pci_arg_u32(const char *key, const char *val, void *opaque)
{
	uint32_t *out = opaque;
	char *end = NULL;
	unsigned long v;

	if (val == NULL || val[0] == '\0') {
		MLX5V_LOG(ERR, "devarg %s: no value", key);
		return -EINVAL;
	}
	errno = 0;
	v = strtoul(val, &end, 0);
	if (errno != 0 || end == val || *end != '\0' || v > UINT32_MAX) {
		MLX5V_LOG(ERR, "devarg %s=%s: expected an integer", key, val);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

/* recovery=reset|dead (mlx5v_recovery_parse()). */
static int
mlx5v_pci_arg_recovery(const char *key, const char *val, void *opaque)
{
	int *out = opaque;
	int ret;

	RTE_SET_USED(key);
	ret = mlx5v_recovery_parse(val);
	if (ret < 0)
		return ret;
	*out = ret;
	return 0;
}

/* class=<list>: copied out, the class layer validates it (mlx5v_class_parse()). */
static int
mlx5v_pci_arg_str(const char *key, const char *val, void *opaque)
{
	char *out = opaque;

	if (val == NULL || val[0] == '\0' || strlen(val) >= MLX5V_PCI_CLASS_LEN || out[0] != '\0') {
		MLX5V_LOG(ERR, "devarg %s: empty, too long or given twice", key);
		return -EINVAL;
	}
	strlcpy(out, val, MLX5V_PCI_CLASS_LEN);
	return 0;
}

/*
 * Whether this library is the one installed as a plugin of the EAL's own directory
 * (RTE_EAL_PMD_PATH, which every DPDK program of the machine loads without being asked):
 * the file the plugin name there resolves to. A build tree's library, linked by a program
 * or given with -d, is not. @return 1 or 0 (0 too when it cannot tell).
 */
static int
mlx5v_pci_installed(void)
{
	char self[PATH_MAX], plugin[PATH_MAX];
	Dl_info info;

	if (dladdr((void *)(uintptr_t)mlx5v_pci_installed, &info) == 0 ||
	    info.dli_fname == NULL || realpath(info.dli_fname, self) == NULL ||
	    realpath(RTE_EAL_PMD_PATH "/librte_common_mlx5v.so", plugin) == NULL)
		return 0;
	return strcmp(self, plugin) == 0;
}

static int
mlx5v_pci_parse(struct rte_pci_device *pdev, struct mlx5v_dev_params *dp, char *classes,
		uint32_t *selected)
{
	struct rte_kvargs *kv;
	uint32_t sig = 0, fast = 0, strict = 0;
	unsigned int i;
	int ret = 0;

	if (pdev->device.devargs == NULL || pdev->device.devargs->args == NULL ||
	    pdev->device.devargs->args[0] == '\0')
		return 0;
	kv = rte_kvargs_parse(pdev->device.devargs->args, NULL);
	if (kv == NULL) {
		MLX5V_LOG(ERR, "%s: bad devargs \"%s\"", pdev->device.name,
			  pdev->device.devargs->args);
		return -EINVAL;
	}
	/* Each key has one owner: the core's are above, a class driver's it reads at probe. */
	for (i = 0; i < kv->count; i++) {
		const char *const *k = mlx5v_pci_valid_args;

		while (*k != NULL && strcmp(*k, kv->pairs[i].key) != 0)
			k++;
		if (*k == NULL && !mlx5v_class_key_known(kv->pairs[i].key)) {
			MLX5V_LOG(ERR, "%s: unknown devarg %s", pdev->device.name,
				  kv->pairs[i].key);
			rte_kvargs_free(kv);
			return -EINVAL;
		}
	}
	/* A key given twice would silently take its last value. */
	for (i = 0; mlx5v_pci_valid_args[i] != NULL; i++) {
		if (rte_kvargs_count(kv, mlx5v_pci_valid_args[i]) > 1) {
			MLX5V_LOG(ERR, "%s: devarg %s given twice", pdev->device.name,
				  mlx5v_pci_valid_args[i]);
			rte_kvargs_free(kv);
			return -EINVAL;
		}
	}
	if (rte_kvargs_process(kv, MLX5V_PCI_ARG_CMD_TO_MS, mlx5v_pci_arg_u32,
			       &dp->tout_ms[MLX5V_TO_CMD]) < 0 ||
	    rte_kvargs_process(kv, MLX5V_PCI_ARG_HEALTH_MS, mlx5v_pci_arg_u32,
			       &dp->tout_ms[MLX5V_TO_HEALTH_POLL]) < 0 ||
	    rte_kvargs_process(kv, MLX5V_PCI_ARG_CMD_SIG, mlx5v_pci_arg_u32, &sig) < 0 ||
	    rte_kvargs_process(kv, MLX5V_PCI_ARG_FAST_UNLOAD, mlx5v_pci_arg_u32, &fast) < 0 ||
	    rte_kvargs_process(kv, MLX5V_PCI_ARG_HEALTH_STRICT, mlx5v_pci_arg_u32, &strict) < 0 ||
	    rte_kvargs_process(kv, MLX5V_RECOVERY_ARG, mlx5v_pci_arg_recovery,
			       &dp->recovery) < 0 ||
	    rte_kvargs_process(kv, MLX5V_PCI_ARG_SELECT, mlx5v_pci_arg_u32, selected) < 0 ||
	    rte_kvargs_process(kv, MLX5V_CLASS_ARG, mlx5v_pci_arg_str, classes) < 0)
		ret = -EINVAL;
	else if (*selected > 1) {
		MLX5V_LOG(ERR, "%s: devarg %s=%u: expected 0 or 1", pdev->device.name,
			  MLX5V_PCI_ARG_SELECT, *selected);
		ret = -EINVAL;
	}
	dp->cmd_sig = !!sig;
	dp->fast_teardown = !!fast;
	dp->health_strict = !!strict;
	rte_kvargs_free(kv);
	return ret;
}

/*
 * The VF device ids of mlx5v_pci_ids (doc/guides/nics/running_on_hardware.rst): a VF is
 * refused PF-only commands such as ACCESS_REG HOST_ENDIANNESS (prm/mlx5 §2.1).
 */
static int
mlx5v_pci_is_vf(uint16_t device_id)
{
	static const uint16_t vf_ids[] = { 0x1014, 0x1016, 0x1018, 0x101a, 0x101c, 0x101e };
	unsigned int i;

	for (i = 0; i < RTE_DIM(vf_ids); i++)
		if (vf_ids[i] == device_id)
			return 1;
	return 0;
}

static int
mlx5v_pci_probe(struct rte_pci_driver *drv, struct rte_pci_device *pdev)
{
	char classes[MLX5V_PCI_CLASS_LEN] = "";
	struct mlx5v_dev_params dp;
	uint32_t selected = 1;
	struct mlx5v_pci *p;
	int ret;

	RTE_SET_USED(drv);
	/* Leave functions bound to mlx5_core (Debian's mlx5 PMD) or UIO to other drivers. */
	if (pdev->kdrv != RTE_PCI_KDRV_VFIO) {
		MLX5V_LOG(INFO, "%s: not bound to vfio-pci, skipped", pdev->device.name);
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
	if ((pdev->device.devargs == NULL || pdev->device.devargs->args == NULL ||
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
	memset(&dp, 0, sizeof(dp));
	/* A dead device is reset and brought up again unless recovery=dead says otherwise. */
	dp.recovery = MLX5V_RECOVERY_RESET;
	ret = mlx5v_pci_parse(pdev, &dp, classes, &selected);
	if (ret < 0)
		return ret;
	if (selected == 0) {
		MLX5V_LOG(INFO, "%s: %s=0, left to other drivers", pdev->device.name,
			  MLX5V_PCI_ARG_SELECT);
		return 1;
	}
	/* The primary owns the function: a secondary attaches the classes to it. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5v_class_dev_attach(&pdev->device, classes[0] != '\0' ? classes : NULL);
	p = rte_zmalloc_socket("mlx5v_pci", sizeof(*p), 0, pdev->device.numa_node);
	if (p == NULL)
		return -ENOMEM;
	p->pdev = pdev;
	p->bar = pdev->mem_resource[0].addr;
	p->bar_len = pdev->mem_resource[0].len;
	p->hw.ops = &mlx5v_hw_pci_ops;
	p->hw.priv = p;
	p->hw.numa_node = pdev->device.numa_node;
	p->hw.device_id = pdev->id.device_id;
	p->hw.is_vf = mlx5v_pci_is_vf(pdev->id.device_id);
	p->hw.page_size = rte_mem_page_size();
	strlcpy(p->hw.name, pdev->device.name, sizeof(p->hw.name));
	ret = mlx5v_class_dev_probe(&pdev->device, &p->hw, &dp,
				    classes[0] != '\0' ? classes : NULL);
	if (ret < 0)
		goto err_p_free;
	return 0;

err_p_free:
	rte_free(p);
	return ret;
}

static int
mlx5v_pci_remove(struct rte_pci_device *pdev)
{
	struct mlx5v_pci *p = NULL;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5v_class_dev_detach(&pdev->device);
	ret = mlx5v_class_dev_remove(pdev->device.name, (void **)&p);
	if (ret < 0)
		return ret;
	/* MSI-X was disabled by mlx5v_msi_cleanup() when the device was unloaded. */
	rte_free(p);
	return 0;
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
