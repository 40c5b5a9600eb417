/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file THE hardware seam: registers, doorbells, DMA mapping and MSI-X, two backends. */

#ifndef _MLX5V_HW_H_
#define _MLX5V_HW_H_

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_bitops.h>
#include <rte_byteorder.h>
#include <rte_compat.h>
#include <rte_io.h>

struct mlx5v_hw;

/** The vectors signal through eventfds (VFIO_IRQ_INFO_EVENTFD). */
#define MLX5V_HW_IRQ_EVENTFD RTE_BIT32(0)
/** Enabled vectors cannot be added to while MSI-X is on (VFIO_IRQ_INFO_NORESIZE). */
#define MLX5V_HW_IRQ_NORESIZE RTE_BIT32(1)

/** What VFIO_DEVICE_GET_IRQ_INFO says of the MSI-X index. */
struct mlx5v_hw_irq_info {
	unsigned int count; /**< vectors of the function */
	uint32_t flags;     /**< MLX5V_HW_IRQ_* */
};

/**
 * What a backend provides. Only this seam (mlx5v_hw*.c and sim/) touches registers, UAR
 * pages or DMA; everything else calls the mlx5v_hw_*() wrappers below.
 * A backend that lacks an optional operation leaves it NULL; the wrapper returns -ENOTSUP.
 */
struct mlx5v_hw_ops {
	/** Read the big-endian 32-bit init-segment register at off; returns host order. */
	uint32_t (*reg_rd32)(struct mlx5v_hw *hw, uint32_t off);
	/** Write host-order val to the big-endian init-segment register at off. */
	void (*reg_wr32)(struct mlx5v_hw *hw, uint32_t off, uint32_t val);
	/**
	 * Address in this process of the UAR page at BAR0 offset off, or NULL if off is out of
	 * range (or, on the simulator, not where a UAR page starts). mlx5v_hw_uar_addr() turns a
	 * UAR index into the offset.
	 */
	void *(*uar_addr)(struct mlx5v_hw *hw, uint64_t off);
	/**
	 * Make [va, va + len) reachable by device DMA; *iova gets the device address. The range
	 * must be in the container and IOVA-contiguous (doc/guides/nics/running_on_hardware.rst,
	 * "IOVA modes"): the caller splits a buffer that is not (mlx5v_dma.h).
	 */
	int (*dma_map)(struct mlx5v_hw *hw, void *va, size_t len, uint64_t *iova);
	/** Undo dma_map. */
	int (*dma_unmap)(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len);
	/**
	 * Optional: put external memory (rte_extmem_register()'ed) [va, va + len) into the
	 * IOMMU container at iova, as rte_dev_dma_map() does. EAL memory is there already.
	 */
	int (*container_map)(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len);
	/** Optional: undo container_map. */
	int (*container_unmap)(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len);
	/** MSI-X vectors of the function and how they signal (VFIO_DEVICE_GET_IRQ_INFO). */
	int (*irq_info)(struct mlx5v_hw *hw, struct mlx5v_hw_irq_info *info);
	/**
	 * VFIO_DEVICE_SET_IRQS on MSI-X: fds[i] (-1: none) becomes the trigger of vector
	 * start + i. While MSI-X is off, this enables vectors 0 .. start + count - 1; with
	 * MSI-X on, a vector beyond the enabled ones is added only without NORESIZE.
	 * count = 0 disables MSI-X. The policy over it is mlx5v_msi.c's.
	 */
	int (*irq_set)(struct mlx5v_hw *hw, unsigned int start, unsigned int count,
		       const int *fds);
	/** Enable memory space and bus mastering (PCI COMMAND = 0x6). Optional. */
	int (*bus_enable)(struct mlx5v_hw *hw);
	/** Optional: called after a doorbell store so a polling model notices it at once. */
	void (*db_notify)(struct mlx5v_hw *hw);
	/**
	 * Optional: reset the function (VFIO_DEVICE_RESET, a function level reset). What the
	 * host keeps across it stays: the DMA windows, the MSI-X triggers, the BAR mappings;
	 * the device forgets every object and its command queue address.
	 */
	int (*func_reset)(struct mlx5v_hw *hw);
	/**
	 * Optional: a file descriptor of the UAR page at BAR0 offset off, for another process
	 * of the application to map (MAP_SHARED, offset 0, 4 KiB) and ring its doorbells
	 * through. The backend keeps it; the caller does not close it. @return the fd or
	 * -errno (-EINVAL: not where a UAR page starts). Without it (vfio-pci: EAL maps BAR0
	 * in every process), a secondary rings the page through its own backend's uar_addr.
	 */
	int (*uar_fd)(struct mlx5v_hw *hw, uint64_t off);
};

/**
 * One device's seam. A backend fills one as a template; the core keeps its own copy in the
 * process-local table below and refers to it by index from the (shareable) device state.
 */
struct mlx5v_hw {
	const struct mlx5v_hw_ops *ops;
	void *priv;             /**< backend state (PCI device or simulator) */
	int numa_node;          /**< device socket, for EAL allocations */
	char name[64];          /**< EAL device name */
	uint16_t device_id;     /**< PCI device id of the function (the simulator's model id) */
	/**
	 * An SR-IOV virtual function: the PCI backend knows it from the device id, the
	 * simulator from its function= devarg. A VF is refused PF-only commands (prm/mlx5 §2.1).
	 */
	uint8_t is_vf;
	/** Host page size the backend maps BAR0 with, set by the backend (0: 4096). */
	uint32_t page_size;
	/**
	 * Bytes between two UAR indices in BAR0, set by the core at SET_HCA_CAP: 4096 with
	 * uar_4k, else the UAR page size log_uar_page_sz gives, the host page (prm/mlx5 §2.1
	 * step 13). 0 (before SET_HCA_CAP): 4096.
	 */
	uint32_t uar_stride;
};

/** Slots of the process-local seam table: one per probed device. */
#define MLX5V_HW_MAX 64

/**
 * The process-local seam table. Function pointers and backend addresses differ between
 * primary and secondary processes, so they never live in memory another process can see
 * (the pattern of DPDK virtio's per-process ops table; doc/guides/platform/mlx5v.rst,
 * "Multi-process"). A slot is free while its ops is NULL.
 */
extern struct mlx5v_hw mlx5v_hw_procs[MLX5V_HW_MAX];

struct rte_pci_device;
/* The vfio-pci backend of a function whose BAR0 is mapped (mlx5v_hw_pci.c); NULL: no memory. */
struct mlx5v_hw *mlx5v_hw_pci_create(struct rte_pci_device *pdev);

/**
 * Copy a backend's seam into a free slot of this process's table. Control thread.
 * @return the slot index (>= 0), -EINVAL (no ops) or -ENOSPC (table full).
 */
__rte_internal
int mlx5v_hw_slot_alloc(const struct mlx5v_hw *tmpl);

/** Release a slot from mlx5v_hw_slot_alloc(). */
__rte_internal
void mlx5v_hw_slot_free(int slot);

/**
 * The seam of the device named name in this process's table: in a secondary process, the one
 * its bus front-end made on the BAR EAL mapped there (vfio-pci). Control thread.
 * @return it, or NULL (none: a simulator's secondary has no backend of its own).
 */
__rte_internal
struct mlx5v_hw *mlx5v_hw_lookup(const char *name);

static inline uint32_t
mlx5v_hw_rd32(struct mlx5v_hw *hw, uint32_t off)
{
	return hw->ops->reg_rd32(hw, off);
}

static inline void
mlx5v_hw_wr32(struct mlx5v_hw *hw, uint32_t off, uint32_t val)
{
	hw->ops->reg_wr32(hw, off, val);
}

/** BAR0 offset of UAR index idx: idx * uar_stride. */
static inline uint64_t
mlx5v_hw_uar_off(const struct mlx5v_hw *hw, uint32_t idx)
{
	uint64_t stride = hw->uar_stride != 0 ? hw->uar_stride : 4096;

	return (uint64_t)idx * stride;
}

/** Address of UAR index idx: BAR0 + idx * uar_stride. NULL if out of range. */
static inline void *
mlx5v_hw_uar_addr(struct mlx5v_hw *hw, uint32_t idx)
{
	return hw->ops->uar_addr(hw, mlx5v_hw_uar_off(hw, idx));
}

/**
 * Address in this process of the UAR page at BAR0 offset off (mlx5v_hw_uar_off() of another
 * process's seam, whose uar_stride this one may not know). NULL if out of range.
 */
static inline void *
mlx5v_hw_uar_at(struct mlx5v_hw *hw, uint64_t off)
{
	return hw->ops->uar_addr(hw, off);
}

/**
 * A file descriptor of UAR index idx for another process to map (the uar_fd operation).
 * @return the fd (the backend's: do not close it) or -errno, -ENOTSUP without the operation.
 */
static inline int
mlx5v_hw_uar_fd(struct mlx5v_hw *hw, uint32_t idx)
{
	if (hw->ops->uar_fd == NULL)
		return -ENOTSUP;
	return hw->ops->uar_fd(hw, mlx5v_hw_uar_off(hw, idx));
}

/**
 * Ring a 32-bit big-endian doorbell at addr (a UAR page address from mlx5v_hw_uar_addr()).
 * The same store works on hardware (a BAR mapping) and on the simulator (a watched page).
 */
static inline void
mlx5v_hw_db_wr32(struct mlx5v_hw *hw, void *addr, uint32_t val)
{
	/* Everything written to host memory before the doorbell must be visible to the
	 * device before it sees the doorbell (PRM: barrier before MMIO).
	 */
	rte_io_wmb();
	rte_write32_relaxed(rte_cpu_to_be_32(val), addr);
	if (hw->ops->db_notify != NULL)
		hw->ops->db_notify(hw);
}

/** Ring a 64-bit big-endian doorbell (CQ arm) at addr. */
static inline void
mlx5v_hw_db_wr64(struct mlx5v_hw *hw, void *addr, uint64_t val)
{
	/* The doorbell record in host memory must be visible before the MMIO (prm/mlx5 §7.3). */
	rte_io_wmb();
	rte_write64_relaxed(rte_cpu_to_be_64(val), addr);
	if (hw->ops->db_notify != NULL)
		hw->ops->db_notify(hw);
}

int mlx5v_hw_dma_map(struct mlx5v_hw *hw, void *va, size_t len, uint64_t *iova);
int mlx5v_hw_dma_unmap(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len);
int mlx5v_hw_container_map(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len);
int mlx5v_hw_container_unmap(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len);
int mlx5v_hw_irq_info(struct mlx5v_hw *hw, struct mlx5v_hw_irq_info *info);
int mlx5v_hw_irq_set(struct mlx5v_hw *hw, unsigned int start, unsigned int count,
		     const int *fds);
int mlx5v_hw_bus_enable(struct mlx5v_hw *hw);
int mlx5v_hw_func_reset(struct mlx5v_hw *hw);

#endif /* _MLX5V_HW_H_ */
