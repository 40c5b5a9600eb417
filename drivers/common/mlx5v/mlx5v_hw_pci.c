/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The vfio-pci backend of the seam (the mlx5v_pci driver is in mlx5v_pci.c).
 *
 * UNTESTED ON HARDWARE: this backend compiles and shares every line of bring-up logic
 * with the simulator path (mlx5v_dev.c), but has never run against a real ConnectX.
 */

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/vfio.h>

#include <rte_common.h>
#include <rte_eal_paging.h>
#include <rte_errno.h>
#include <rte_io.h>
#include <rte_malloc.h>
#include <rte_string_fns.h>
#include <bus_pci_driver.h>

#include "mlx5v_dma.h"
#include "mlx5v_hw.h"
#include "mlx5v_log.h"
#include "mlx5v_prm.h"

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

/* PCI COMMAND |= memory space | bus master (prm/mlx5 §2.1 step 4). */
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

static const struct mlx5v_hw_ops mlx5v_hw_pci_ops = {
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

/*
 * The VF device ids of mlx5v_pci_ids in mlx5v_pci.c (doc/guides/nics/running_on_hardware.rst):
 * a VF is refused PF-only commands such as ACCESS_REG HOST_ENDIANNESS (prm/mlx5 §2.1).
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

struct mlx5v_hw *
mlx5v_hw_pci_create(struct rte_pci_device *pdev)
{
	struct mlx5v_pci *p;

	p = rte_zmalloc_socket("mlx5v_pci", sizeof(*p), 0, pdev->device.numa_node);
	if (p == NULL)
		return NULL;
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
	return &p->hw;
}
