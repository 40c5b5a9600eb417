/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The VFIO emulation (doc/guides/platform/vfio_emulation.rst): what the launcher
 * dpdk-mlxv-vfio-run and the preload library share, and the preload's internal interfaces.
 */

#ifndef _VFIO_RUN_H_
#define _VFIO_RUN_H_

#include <stdint.h>
#include <stdio.h>

/** The functions to emulate: "BDF[,SIMDEVARGS];BDF[,SIMDEVARGS]...", set by the launcher. */
#define VFIO_RUN_ENV_DEVS "MLXV_VFIO_DEVS"
/** Set to 1 by the launcher: log every emulated ioctl to stderr. */
#define VFIO_RUN_ENV_TRACE "MLXV_VFIO_TRACE"
/** Set to 1 by the launcher (--no-iova-range): IOMMU_GET_INFO without the IOVA ranges. */
#define VFIO_RUN_ENV_NO_IOVA_RANGE "MLXV_VFIO_NO_IOVA_RANGE"
/** Set by the launcher (--dma-entry-limit N): the type1 IOMMU's limit of mappings. */
#define VFIO_RUN_ENV_DMA_LIMIT "MLXV_VFIO_DMA_ENTRY_LIMIT"
/** vfio_iommu_type1's default dma_entry_limit. */
#define VFIO_RUN_DMA_LIMIT_DEFAULT 65535u
/** Most emulated functions. */
#define VFIO_RUN_MAX_DEVS 16
/** "dddd:bb:dd.f" and its NUL. */
#define VFIO_RUN_BDF_LEN 13
/** ConnectX vendor id and the PCI class of an Ethernet controller. */
#define VFIO_RUN_VENDOR 0x15b3
#define VFIO_RUN_CLASS 0x020000
/** The model of function BDF is "vfio-<BDF>" (mlx5v_sim_get()). */
#define VFIO_RUN_MODEL_PREFIX "vfio-"
/** The IOMMU group of function i is VFIO_RUN_GROUP_BASE + i. */
#define VFIO_RUN_GROUP_BASE 40

/** Log one line to stderr, prefixed with the emulation's name. */
#define VFIO_RUN_LOG(fmt, ...) \
	fprintf(stderr, "mlxv-vfio: " fmt "\n", ##__VA_ARGS__)

struct mlx5v_sim;

/** One emulated function as the preload knows it. */
struct vfio_run_dev {
	char bdf[VFIO_RUN_BDF_LEN];
	/** SIMDEVARGS, "" for none; wire=pair:<BDF> given as wire=pair:vfio-<BDF>.1 */
	const char *devargs;
	unsigned int group;         /**< IOMMU group number */
	uint16_t device_id;         /**< 0x1017, or 0x1018 with function=vf */
	unsigned int msix;          /**< MSI-X vectors (msix=, default 8) */
	int numa_node;
};

/**
 * Parse one "BDF[,SIMDEVARGS]" into d (devargs points into s, which the caller keeps).
 * @return 0, or -EINVAL with a message in err.
 */
int vfio_run_dev_parse(char *s, unsigned int idx, struct vfio_run_dev *d, char *err,
		       size_t errlen);

/**
 * Announce the functions' models to the wire, so that wire=pair:<BDF> may name a function
 * whose model is created later. @return 0 or -errno.
 */
int vfio_run_devs_expect(const struct vfio_run_dev *devs, unsigned int nb);

/* ---- preload: the emulated functions (vfio_preload_path.c) ---- */

/** @return the emulated functions (parsed from the environment once), *n their count. */
struct vfio_run_dev *vfio_preload_devs(unsigned int *n);

/** @return the container's limit of DMA mappings (--dma-entry-limit, default 65535). */
unsigned int vfio_preload_dma_limit(void);

/* ---- preload: the VFIO character devices (vfio_preload_dev.c) ---- */

/**
 * Open of /dev/vfio/vfio (group < 0) or /dev/vfio/<group>. @return an fd, or -1 with
 * errno set (ENOENT: no such group).
 */
int vfio_preload_dev_open(int group);

/** [addr, addr + len) is being unmapped: forget the BAR mappings in it. */
void vfio_preload_dev_unmapped(void *addr, size_t len);

/** @return 1 if fd is an emulated VFIO fd. */
int vfio_preload_dev_is(int fd);

/* ---- preload: the store trap on BAR pages (vfio_preload_trap.c) ---- */

/**
 * Trap stores to the read-only pages in [base, base + len) of a BAR mapping of sim's
 * function. @return 0, -ENOSPC, or -ENOTSUP (no trap on this architecture: map writable).
 */
int vfio_preload_trap_add(void *base, size_t len, struct mlx5v_sim *sim);

/**
 * Trap stores to the read-only pages in [base, base + len) of a BAR mapping of a model that
 * another process hosts: each waits until that host's engine took it, asked over the store
 * channel conn. @return 0, -ENOSPC, or -ENOTSUP (map writable).
 */
int vfio_preload_trap_add_remote(void *base, size_t len, int conn);

/** Forget the mapping at base. */
void vfio_preload_trap_del(void *base);

/** Forget every mapping of sim's function (the model is about to be destroyed). */
void vfio_preload_trap_del_sim(const struct mlx5v_sim *sim);

#endif /* _VFIO_RUN_H_ */
