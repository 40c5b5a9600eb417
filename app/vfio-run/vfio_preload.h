/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The preload's state of the emulated functions, shared by its VFIO fds
 * (vfio_preload_dev.c) and its regions, BAR0 and config space (vfio_preload_region.c).
 */

#ifndef _VFIO_PRELOAD_H_
#define _VFIO_PRELOAD_H_

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "emu_host.h"
#include "mlx5v_hw.h"
#include "vfio_run.h"

/* Region offsets as vfio-pci gives them: the index in bits 63:40. */
#define VFIO_DEV_REGION_SHIFT 40
#define VFIO_DEV_REGION_OFF(idx) ((uint64_t)(idx) << VFIO_DEV_REGION_SHIFT)
#define VFIO_DEV_CFG_SIZE 4096u
#define VFIO_DEV_MAX_FDS 256
#define VFIO_DEV_MAX_WIN 4096
#define VFIO_DEV_PAGE 4096ull
#define VFIO_DEV_MAX_BAR_MAPS 8

/* The config space capabilities (PCIe base spec): PCI Express at 0x40, MSI-X at 0x9c. */
#define VFIO_DEV_CAP_PCIE 0x40
#define VFIO_DEV_CAP_MSIX 0x9c
#define VFIO_DEV_MSIX_TABLE 0x2000   /* BAR0 offset of the MSI-X table, BIR 0 */
#define VFIO_DEV_MSIX_PBA 0x3000

/* The memfds standing for the nodes: a process receiving one knows it by its name. */
#define VFIO_DEV_CONTAINER_MEMFD "mlxv-vfio-container"
#define VFIO_DEV_GROUP_MEMFD "mlxv-vfio-group-"

enum vfio_dev_kind {
	VFIO_DEV_CONTAINER = 1,
	VFIO_DEV_GROUP,
	VFIO_DEV_DEVICE,
};

struct vfio_dev_container;

/** A live mmap of BAR0: the model's pages, the same across a reset (the model resets in place). */
struct vfio_dev_bar {
	uint8_t *base;               /**< NULL: free slot */
	size_t len;
	uint64_t off;                /**< BAR0 offset of base */
	int prot;                    /**< the pages' protection (read-only when trapped) */
};

/** What the host of a function's model tells the other processes besides the pages. */
struct vfio_dev_host_info {
	struct mlx5v_hw_irq_info msix;  /**< the MSI-X index (VFIO_DEVICE_GET_IRQ_INFO) */
};

/** One emulated function and its model. */
struct vfio_dev_fn {
	struct vfio_run_dev *d;
	/**
	 * Created at the first GROUP_GET_DEVICE_FD of the tree; NULL in the other processes,
	 * which reach it through the pages of the process hosting it (remote).
	 */
	struct mlx5v_sim *sim;
	struct emu_host_msg *remote; /**< the host's BAR pages and info, or NULL */
	int conn;                    /**< with remote: the store channel to the host, or -1 */
	int served;                  /**< this process hosts the model for the tree */
	struct mlx5v_hw hw;          /**< the simulator seam, for MSI-X */
	struct vfio_dev_container *c;/**< container of its group, or NULL */
	unsigned int dev_open;       /**< device fds open */
	uint8_t cfg[VFIO_DEV_CFG_SIZE];
	int *irq_fd;                 /**< MSI-X triggers as SET_IRQS left them (-1: none) */
	unsigned int irq_on;         /**< vectors SET_IRQS enabled: 0 .. irq_on - 1 */
	struct vfio_dev_bar bar[VFIO_DEV_MAX_BAR_MAPS];
};

/** An IOMMU window of a container (VFIO_IOMMU_MAP_DMA). */
struct vfio_dev_win {
	uint64_t iova;
	uint64_t size;
	void *va;
};

struct vfio_dev_container {
	/**
	 * Another process's container (received): its windows are in the models that process
	 * hosts, out of reach from here.
	 */
	int remote;
	int iommu_set;               /**< VFIO_SET_IOMMU done */
	unsigned int nb_groups;
	struct vfio_dev_win *win;
	unsigned int nb_win;
};

struct vfio_dev_fd {
	int fd;                      /**< -1: free slot */
	enum vfio_dev_kind kind;
	struct vfio_dev_container *c;/**< CONTAINER */
	struct vfio_dev_fn *fn;      /**< GROUP, DEVICE */
};

/** The functions, indexed as the device list; under vfio_dev_lock. */
extern struct vfio_dev_fn vfio_dev_fns[VFIO_RUN_MAX_DEVS];
/** Serialises every emulated call (recursive). */
extern pthread_mutex_t vfio_dev_lock;

/** @return the emulated fd fd (lock held), or NULL. */
struct vfio_dev_fd *vfio_dev_find(int fd);

/** @return 1 with --trace. */
int vfio_dev_trace_on(void);

#define VFIO_DEV_TRACE(fmt, ...) do { \
	if (vfio_dev_trace_on()) \
		VFIO_RUN_LOG(fmt, ##__VA_ARGS__); \
} while (0)

/* ---- vfio_preload_region.c ---- */

/** The config space after reset: type 0 header, PCI Express and MSI-X capabilities. */
void vfio_dev_cfg_init(struct vfio_dev_fn *fn);

/** Show MSI-X enabled (on = 1) or not in the MSI-X capability's control word. */
void vfio_dev_cfg_msix(struct vfio_dev_fn *fn, int on);

/** Map the model's pages over the BAR mapping b (its reserved range exists). @return 0/-errno. */
int vfio_dev_map_pages(struct vfio_dev_fn *fn, struct vfio_dev_bar *b);

/* ---- vfio_preload_host.c ---- */

/**
 * The function's model for this process at its first device open: the one another process of
 * the tree hosts (fn->remote set), else none (-ENOENT: the caller creates it and hosts it).
 * @return 0, -ENOENT or -errno.
 */
int vfio_dev_host_join(struct vfio_dev_fn *fn);

/** Host fn's model for the other processes of the tree (once). @return 0 or -errno. */
int vfio_dev_host_serve(struct vfio_dev_fn *fn);

/** Forget the host's pages (the function is opened anew). */
void vfio_dev_host_leave(struct vfio_dev_fn *fn);

/**
 * A VFIO fd this process received from another (SCM_RIGHTS, as EAL's secondary gets the
 * primary's container and group), recognised by its memfd name. Lock held.
 * @return its entry, or NULL (not one of the emulation's).
 */
struct vfio_dev_fd *vfio_dev_adopt(int fd);

/** A new emulated fd of kind (a memfd named name). Lock held. @return it or NULL (errno). */
struct vfio_dev_fd *vfio_dev_new_fd(enum vfio_dev_kind kind, const char *name);

/** Record fd (open already) as an emulated fd of kind. Lock held. @return it or NULL (errno). */
struct vfio_dev_fd *vfio_dev_add_fd(int fd, enum vfio_dev_kind kind);

#endif /* _VFIO_PRELOAD_H_ */
