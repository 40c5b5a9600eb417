/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The vfio-pci backend of the seam and the mlx5v_pci driver.
 *
 * UNTESTED ON HARDWARE: this backend compiles and shares every line of bring-up logic
 * with the simulator path (mlx5v_dev.c), but has never run against a real ConnectX.
 */

#include <errno.h>
#include <inttypes.h>
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
/* The eqc.intr field holds 12 bits (prm/mlx5 §6.2). */
#define MLX5V_PCI_MAX_VEC 2048

/** Per-function backend state (hw->priv). */
struct mlx5v_pci {
	struct mlx5v_hw hw;
	struct rte_pci_device *pdev;
	uint8_t *bar;
	size_t bar_len;
	unsigned int nvec;         /**< MSI-X vectors of the function (at most 2048) */
	unsigned int nvec_enabled; /**< vectors enabled in VFIO: 0 .. nvec_enabled - 1 */
	int msix_enabled;
	int msix_dynamic;          /**< VFIO can add vectors while MSI-X is on (no NORESIZE) */
	int fds[MLX5V_PCI_MAX_VEC]; /**< trigger of each vector, -1 for none */
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

static unsigned int
mlx5v_pci_irq_count(struct mlx5v_hw *hw)
{
	struct mlx5v_pci *p = mlx5v_to_pci(hw);
	struct vfio_irq_info info;

	/* Cached: the MSI-X count of a device does not change while it is bound to vfio-pci. */
	if (p->nvec != 0)
		return p->nvec;
	memset(&info, 0, sizeof(info));
	info.argsz = sizeof(info);
	info.index = VFIO_PCI_MSIX_IRQ_INDEX;
	if (ioctl(mlx5v_pci_vfio_fd(p), VFIO_DEVICE_GET_IRQ_INFO, &info) != 0) {
		MLX5V_LOG(ERR, "%s: VFIO_DEVICE_GET_IRQ_INFO: %s", hw->name, strerror(errno));
		return 0;
	}
	/* Every vector is signalled through an eventfd: without that, there are no vectors. */
	if (!(info.flags & VFIO_IRQ_INFO_EVENTFD)) {
		MLX5V_LOG(ERR, "%s: VFIO MSI-X cannot signal eventfds (flags 0x%x)", hw->name,
			  info.flags);
		return 0;
	}
	p->msix_dynamic = !(info.flags & VFIO_IRQ_INFO_NORESIZE);
	p->nvec = RTE_MIN(info.count, (uint32_t)MLX5V_PCI_MAX_VEC);
	return p->nvec;
}

static int
mlx5v_pci_set_irqs(struct mlx5v_pci *p, unsigned int start, unsigned int count,
		   const int *fds, uint32_t data_flag)
{
	size_t len = sizeof(struct vfio_irq_set) + sizeof(int) * count;
	struct vfio_irq_set *set;
	int ret = 0;

	set = calloc(1, len);
	if (set == NULL)
		return -ENOMEM;
	set->argsz = len;
	set->flags = data_flag | VFIO_IRQ_SET_ACTION_TRIGGER;
	set->index = VFIO_PCI_MSIX_IRQ_INDEX;
	set->start = start;
	set->count = count;
	if (count > 0 && fds != NULL)
		memcpy(set->data, fds, sizeof(int) * count);
	if (ioctl(mlx5v_pci_vfio_fd(p), VFIO_DEVICE_SET_IRQS, set) != 0)
		ret = -errno;
	free(set);
	return ret;
}

/*
 * Enable vectors 0 .. count - 1 with the recorded triggers. MSI-X is switched off first when
 * it is on: VFIO without dynamic MSI-X sizes the vector table at the first SET_IRQS only.
 * Interrupts raised in that gap are lost, so every trigger is signalled once afterwards:
 * a spurious wake-up only makes its handler poll an EQ (prm/mlx5 §6.12).
 */
static int
mlx5v_pci_irq_resize(struct mlx5v_pci *p, unsigned int count)
{
	uint64_t one = 1;
	unsigned int i;
	int ret;

	if (p->msix_enabled) {
		mlx5v_pci_set_irqs(p, 0, 0, NULL, VFIO_IRQ_SET_DATA_NONE);
		p->msix_enabled = 0;
	}
	ret = mlx5v_pci_set_irqs(p, 0, count, p->fds, VFIO_IRQ_SET_DATA_EVENTFD);
	if (ret < 0)
		return ret;
	p->msix_enabled = 1;
	p->nvec_enabled = count;
	for (i = 0; i < count; i++)
		if (p->fds[i] >= 0 && write(p->fds[i], &one, sizeof(one)) < 0)
			MLX5V_LOG(DEBUG, "%s: MSI-X vector %u: eventfd: %s", p->hw.name, i,
				  strerror(errno));
	return 0;
}

/*
 * Attach an eventfd as the trigger of one MSI-X vector (fd -1 detaches). Only the vectors
 * in use are enabled: vector 0 (the driver's control vector) and the user vectors up to the
 * highest attached one, rather than all 2048, which would reserve host interrupt vectors
 * for nothing. A vector beyond the enabled ones is added with one SET_IRQS when VFIO
 * supports dynamic MSI-X, else by enabling again with the larger count
 * (doc/guides/nics/running_on_hardware.rst, MSI-X).
 */
static int
mlx5v_pci_irq_attach(struct mlx5v_hw *hw, unsigned int vec, int fd)
{
	struct mlx5v_pci *p = mlx5v_to_pci(hw);
	unsigned int n = mlx5v_pci_irq_count(hw);
	int old;
	int ret;

	if (vec >= n)
		return -EINVAL;
	if (!p->msix_enabled && p->nvec_enabled == 0) {
		unsigned int i;

		for (i = 0; i < RTE_DIM(p->fds); i++)
			p->fds[i] = -1;
	}
	/* Enabled already, or a detach of a vector never enabled: no resize. */
	if ((p->msix_enabled && vec < p->nvec_enabled) ||
	    (p->msix_enabled && p->msix_dynamic) || (fd < 0 && vec >= p->nvec_enabled)) {
		ret = fd < 0 && vec >= p->nvec_enabled ? 0 :
		      mlx5v_pci_set_irqs(p, vec, 1, &fd, VFIO_IRQ_SET_DATA_EVENTFD);
		if (ret == 0) {
			p->fds[vec] = fd;
			if (vec >= p->nvec_enabled && fd >= 0)
				p->nvec_enabled = vec + 1;
		}
		return ret;
	}
	old = p->fds[vec];
	p->fds[vec] = fd;
	ret = mlx5v_pci_irq_resize(p, RTE_MAX(vec + 1, p->nvec_enabled));
	if (ret < 0) {
		MLX5V_LOG(ERR, "%s: cannot enable %u MSI-X vectors: %s", hw->name,
			  RTE_MAX(vec + 1, p->nvec_enabled), strerror(-ret));
		p->fds[vec] = old;
		/* Back to the vectors that worked before, if there were any. */
		if (p->nvec_enabled > 0 && mlx5v_pci_irq_resize(p, p->nvec_enabled) < 0)
			p->nvec_enabled = 0;
	}
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

const struct mlx5v_hw_ops mlx5v_hw_pci_ops = {
	.reg_rd32 = mlx5v_pci_rd32,
	.reg_wr32 = mlx5v_pci_wr32,
	.uar_addr = mlx5v_pci_uar_addr,
	.dma_map = mlx5v_pci_dma_map,
	.dma_unmap = mlx5v_pci_dma_unmap,
	.container_map = mlx5v_pci_container_map,
	.container_unmap = mlx5v_pci_container_unmap,
	.irq_count = mlx5v_pci_irq_count,
	.irq_attach = mlx5v_pci_irq_attach,
	.bus_enable = mlx5v_pci_bus_enable,
	.db_notify = NULL,
};

/* ---- the mlx5v_pci driver ---- */

#define MLX5V_PCI_ARG_CMD_TO_MS "cmd_to_ms"
#define MLX5V_PCI_ARG_HEALTH_MS "health_ms"
#define MLX5V_PCI_ARG_CMD_SIG "cmd_sig"
#define MLX5V_PCI_ARG_FAST_UNLOAD "fast_unload"
#define MLX5V_PCI_ARG_HEALTH_STRICT "health_strict"

static const char *const mlx5v_pci_valid_args[] = {
	MLX5V_PCI_ARG_CMD_TO_MS,
	MLX5V_PCI_ARG_HEALTH_MS,
	MLX5V_PCI_ARG_CMD_SIG,
	MLX5V_PCI_ARG_FAST_UNLOAD,
	MLX5V_PCI_ARG_HEALTH_STRICT,
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

static int
mlx5v_pci_parse(struct rte_pci_device *pdev, struct mlx5v_dev_params *dp, char *classes)
{
	struct rte_kvargs *kv;
	uint32_t sig = 0, fast = 0, strict = 0;
	unsigned int i;
	int ret = 0;

	if (pdev->device.devargs == NULL || pdev->device.devargs->args == NULL ||
	    pdev->device.devargs->args[0] == '\0')
		return 0;
	kv = rte_kvargs_parse(pdev->device.devargs->args, mlx5v_pci_valid_args);
	if (kv == NULL) {
		MLX5V_LOG(ERR, "%s: bad or unknown devargs \"%s\"", pdev->device.name,
			  pdev->device.devargs->args);
		return -EINVAL;
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
	    rte_kvargs_process(kv, MLX5V_CLASS_ARG, mlx5v_pci_arg_str, classes) < 0)
		ret = -EINVAL;
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
	struct mlx5v_pci *p;
	int ret;

	RTE_SET_USED(drv);
	/* Leave functions bound to mlx5_core (Debian's mlx5 PMD) or UIO to other drivers. */
	if (pdev->kdrv != RTE_PCI_KDRV_VFIO) {
		MLX5V_LOG(INFO, "%s: not bound to vfio-pci, skipped", pdev->device.name);
		return 1;
	}
	if (pdev->mem_resource[0].addr == NULL) {
		MLX5V_LOG(ERR, "%s: BAR0 is not mapped", pdev->device.name);
		return -ENODEV;
	}
	memset(&dp, 0, sizeof(dp));
	ret = mlx5v_pci_parse(pdev, &dp, classes);
	if (ret < 0)
		return ret;
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
	if (p->msix_enabled)
		mlx5v_pci_set_irqs(p, 0, 0, NULL, VFIO_IRQ_SET_DATA_NONE);
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
	/* DATA_NONE with count 0 disables MSI-X on the function. */
	if (p->msix_enabled)
		mlx5v_pci_set_irqs(p, 0, 0, NULL, VFIO_IRQ_SET_DATA_NONE);
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
	"class=<net|none|name:name> cmd_to_ms=<int> health_ms=<int> cmd_sig=<0|1> "
	"fast_unload=<0|1> health_strict=<0|1>");
