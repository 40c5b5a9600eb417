/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file DEVX-style objects (EQ with the rdma-core create_eq contract, MSI, UAR, DMA, CQ). */

#ifndef _MLX5V_DEVX_H_
#define _MLX5V_DEVX_H_

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_compat.h>
#include <rte_spinlock.h>

#include "mlx5v_dma.h"
#include "mlx5v_api.h"
#include "mlx5v_eq.h"
#include "mlx5v_hw.h"
#include "rte_pmd_mlx5v.h"

struct mlx5v_dev;
struct rte_intr_handle;

/*
 * Internal API (0 or -errno; pointer calls return NULL and set rte_errno), used by the
 * public rte_pmd_mlx5v_devx_* wrappers, our testpmd commands and the net PMD. The objects
 * embed the public structure as their first member, so a public pointer and its object
 * have the same address. Object addresses are never reused (mlx5v_devx.c carves them from
 * mappings it never hands out twice), so a stale handle can never name a newer object.
 *
 * Handles are validated by address, never by reading them: a process-local registry
 * records every live MSI vector, EQ, UAR and CQ, and every device that has DEVX state.
 * Each entry point that takes a handle looks it up first and answers -EINVAL (an object)
 * or -ENODEV (a device) when it is not live: already destroyed/freed, released by the
 * device removal, or never ours. A call in flight holds a reference, so a concurrent
 * destroy or device removal waits for it before freeing anything.
 *
 * The calls that programs outside the library use (testpmd, tools) are declared in
 * mlx5v_api.h, with the snapshot structures they fill.
 */

struct mlx5v_devx_ctx;

/** Registry header embedded in every DEVX object (mlx5v_devx.c owns its fields). */
struct mlx5v_devx_obj {
	struct mlx5v_devx_ctx *ctx;    /**< the device's DEVX state */
	uint32_t refs;                 /**< atomic: calls in flight on the object */
	uint32_t busy;                 /**< atomic: a destroy/free of it is running */
};

/** An allocated MSI vector. */
struct mlx5v_devx_msi {
	struct rte_pmd_mlx5v_msi_vector pub;   /**< first: the handle is the object */
	TAILQ_ENTRY(mlx5v_devx_msi) next;
	struct mlx5v_devx_obj obj;
	struct mlx5v_dev *dev;
	unsigned int vector;     /**< as allocated; pub may be changed by a careless caller */
	int fd;                  /**< as allocated; the driver acts on these two only */
};

/** A DEVX EQ. */
struct mlx5v_devx_eq {
	struct rte_pmd_mlx5v_eq pub;   /**< first; pub.vaddr == ring.buf */
	struct mlx5v_devx_obj obj;
	struct mlx5v_dev *dev;
	TAILQ_ENTRY(mlx5v_devx_eq) next;
	struct mlx5v_eq_ring ring;     /**< EAL memory, one PAS */
	uint32_t log_nent;
	uint32_t eqn;
	uint32_t vector;               /**< eqc.intr */
	uint32_t uar_page;             /**< eqc.uar_page */
	uint8_t *db;                   /**< UAR page + 0x40, or NULL if not mappable */
	uint64_t mask[4];              /**< event_bitmask as created */
	rte_spinlock_t lock;           /**< poll lock: ci, stats, handlers' execution */
	uint32_t ci;                   /**< driver consumer index (mlx5v_devx_eq_poll()) */
	struct {
		mlx5v_devx_event_cb cb;
		void *arg;
	} handler[MLX5V_DEVX_EVENT_ANY + 1];
	struct rte_intr_handle *ih;    /**< EXT handle on the vector fd, or NULL */
	int intr_fd;                   /**< the vector's eventfd while ih is set */
	struct mlx5v_devx_eq_stats stats;
};

/** A UAR page from ALLOC_UAR. */
struct mlx5v_devx_uar {
	struct rte_pmd_mlx5v_uar pub;  /**< first: the handle is the object */
	struct mlx5v_devx_obj obj;
	struct mlx5v_dev *dev;
	uint32_t page_id;              /**< as allocated; pub may be changed by the caller */
	TAILQ_ENTRY(mlx5v_devx_uar) next;
};

/** A CQ on driver-allocated EAL memory (for PMDs and tests; the caller-built path is
 * rte_pmd_mlx5v_devx_dma_map() + CREATE_CQ through the general command).
 */
struct mlx5v_devx_cq {
	struct mlx5v_devx_obj obj;
	struct mlx5v_dev *dev;
	TAILQ_ENTRY(mlx5v_devx_cq) next;
	uint8_t *buf;                  /**< nent 64-byte CQEs, then the 8-byte dbrec */
	volatile uint32_t *dbrec;
	uint64_t iova;
	size_t size;                   /**< whole allocation (ring + dbrec page) */
	struct mlx5v_dma_buf ring_dma; /**< the CQEs, one PAS per IOVA-contiguous chunk */
	struct mlx5v_dma_buf dbr_dma;  /**< the dbrec page, a window of its own */
	uint32_t nent;
	uint32_t cqn;
	uint32_t eqn;
	uint32_t ci;
	uint32_t arm_sn;
	struct rte_pmd_mlx5v_uar uar;  /**< a copy of the UAR the CQ rings */
};

/* ---- devices ---- */

/**
 * Run fn(dev, arg) on the loaded device named name while its removal waits (fn holds the
 * reference every DEVX call holds): for readers in other threads, such as telemetry. fn
 * must not destroy DEVX objects of dev.
 * @return fn's result, or -EINVAL (NULL argument) / -ENODEV (no such loaded device).
 */
int mlx5v_devx_dev_call(const char *name, int (*fn)(struct mlx5v_dev *dev, void *arg),
			void *arg);

/* ---- MSI vectors ---- */

/**
 * Lowest free vector >= 1 with its eventfd.
 * @return it, or NULL with rte_errno (EINVAL NULL dev, ENODEV dev not live, ENOSPC, ...).
 */
struct mlx5v_devx_msi *mlx5v_devx_msi_alloc(struct mlx5v_dev *dev);

/**
 * @return 0, -EINVAL (not a live vector, e.g. already freed; vector 0, out of range or
 *         fd mismatch, msi then kept), -EBUSY (an EQ uses it).
 */
int mlx5v_devx_msi_free(struct mlx5v_devx_msi *msi);

/* ---- EQs ---- */

/**
 * rdma-core create_eq contract (see rte_pmd_mlx5v_devx_create_eq()). NULL + rte_errno;
 * ENODEV if dev is not a live device handle.
 */
struct mlx5v_devx_eq *mlx5v_devx_eq_create(struct mlx5v_dev *dev, const void *in,
					   size_t inlen, void *out, size_t outlen);

/* ---- misc ---- */

/** Only vector 0 (the async EQ), as rdma-core. @return 0, -EINVAL, -ENODEV (also: dev not live). */
__rte_internal
int mlx5v_devx_query_eqn(struct mlx5v_dev *dev, uint32_t vector, uint32_t *eqn);

/** Any command, EREMOTEIO semantics. @return 0 or -errno (-ENODEV: dev not live). */
int mlx5v_devx_general_cmd(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
			   size_t outlen);

/** @return the objects created through mlx5v_devx_general_cmd() still tracked on dev. */
__rte_internal
unsigned int mlx5v_devx_raw_objects(struct mlx5v_dev *dev);

/** ALLOC_UAR. @return the UAR, or NULL with rte_errno (ENODEV: dev not live). */
struct mlx5v_devx_uar *mlx5v_devx_uar_alloc(struct mlx5v_dev *dev);

/** DEALLOC_UAR. @return 0, -EINVAL (not a live UAR), or -errno from the device (UAR kept). */
__rte_internal
int mlx5v_devx_uar_free(struct mlx5v_devx_uar *uar);

/** Map [addr, addr + size) for device DMA. @return 0 or -errno (-ENODEV: dev not live). */
__rte_internal
int mlx5v_devx_dma_map(struct mlx5v_dev *dev, void *addr, size_t size, uint64_t *iova);

/** @return 0, -EINVAL (not registered) or -ENODEV (dev not live). */
__rte_internal
int mlx5v_devx_dma_unmap(struct mlx5v_dev *dev, void *addr, size_t size);

/* ---- CQs (driver-allocated) ---- */

/**
 * CREATE_CQ on EAL memory: nent = 2^log_size CQEs initialised hardware-owned
 * (op_own 0xf1), an 8-byte doorbell record, both DMA-mapped; bound to EQ eqn, doorbells
 * through uar. @return the CQ, or NULL with rte_errno (EREMOTEIO if the device failed).
 */
__rte_internal
struct mlx5v_devx_cq *mlx5v_devx_cq_create(struct mlx5v_dev *dev, unsigned int log_size,
					   uint32_t eqn, const struct rte_pmd_mlx5v_uar *uar);

/** What a mini-CQE carries besides the byte count (prm/mlx5_eth §8.5). */
enum mlx5v_devx_mini_cqe {
	MLX5V_DEVX_MINI_CQE_HASH = 0,  /**< the RSS hash result */
	MLX5V_DEVX_MINI_CQE_CSUM = 1,  /**< the checksum and the stride index */
	MLX5V_DEVX_MINI_CQE_FTAG = 2,  /**< the flow tag and the stride index (cap) */
	MLX5V_DEVX_MINI_CQE_CSUM_STRIDX = 3, /**< as CSUM */
	/** the L3/L4 header types and the stride index (cap; mini_cqe_res_format_ext 1) */
	MLX5V_DEVX_MINI_CQE_L34H = 4,
};

/** CQ context options of mlx5v_devx_cq_create_opts() (prm/mlx5_eth §8.5). */
struct mlx5v_devx_cq_opts {
	uint8_t cqe_comp_en;         /**< compressed CQE sessions (cap cqe_compression) */
	uint8_t mini_cqe_res_format; /**< enum mlx5v_devx_mini_cqe */
};

/** mlx5v_devx_cq_create() with the cqc options opts (NULL: none). */
__rte_internal
struct mlx5v_devx_cq *mlx5v_devx_cq_create_opts(struct mlx5v_dev *dev, unsigned int log_size,
						uint32_t eqn, const struct rte_pmd_mlx5v_uar *uar,
						const struct mlx5v_devx_cq_opts *opts);

/** DESTROY_CQ, then free. @return 0, -EINVAL (not a live CQ) or -errno (CQ kept). */
__rte_internal
int mlx5v_devx_cq_destroy(struct mlx5v_devx_cq *cq);

/**
 * Arm for the next completion with the CQ's ci and arm_sn. arm_sn does not change here: it
 * moves with mlx5v_devx_cq_event(). Data path: cq not validated.
 */
__rte_internal
void mlx5v_devx_cq_arm(struct mlx5v_devx_cq *cq, int solicited);

/**
 * Arm CQ cqn for the next completion (any, or solicited only) with sequence number sn and
 * consumer index ci: the arm word into dbrec[1], then the doorbell at the UAR page uar as
 * this process maps it, through the seam hw (prm/mlx5 §7.3). For the CQs whose arm state
 * lives elsewhere than in their struct mlx5v_devx_cq (a PMD's, shared by its processes).
 */
static inline void
mlx5v_devx_cq_arm_at(struct mlx5v_hw *hw, void *uar, volatile uint32_t *dbrec, uint32_t cqn,
		     uint32_t sn, uint32_t ci, int solicited)
{
	uint32_t cmd = solicited ? RTE_PMD_MLX5V_CQ_DB_REQ_NOT_SOL : RTE_PMD_MLX5V_CQ_DB_REQ_NOT;
	uint32_t word = ((sn & 3) << 28) | cmd | (ci & 0xffffff);

	/*
	 * The arm word goes to dbrec[1] first: the device reads the record when it takes the
	 * MMIO doorbell and compares the two (prm/mlx5 §7.3).
	 */
	dbrec[RTE_PMD_MLX5V_CQ_DBREC_ARM] = rte_cpu_to_be_32(word);
	/*
	 * Then the 64-bit BE MMIO at UAR + 0x20 through the seam, whose write barrier makes the
	 * record visible before the doorbell (prm/mlx5 §7.3) and which tells a polling model at
	 * once.
	 */
	mlx5v_hw_db_wr64(hw, (uint8_t *)uar + RTE_PMD_MLX5V_UAR_CQ_DB_OFF,
			 ((uint64_t)word << 32) | (cqn & 0xffffff));
}

/**
 * Arm for the next completion with consumer index ci, kept by the caller (a PMD's Rx burst
 * consumes the CQ itself), and the CQ's arm_sn: dbrec[1], then the doorbell through the
 * seam (prm/mlx5 §7.3). Data path: cq not validated.
 */
__rte_internal
void mlx5v_devx_cq_arm_ci(struct mlx5v_devx_cq *cq, uint32_t ci, int solicited);

/**
 * Account one completion event (an EQE naming this CQ) as handled: the next arm carries
 * the next sequence number (prm/mlx5 §7.3). Data path: cq not validated.
 */
__rte_internal
void mlx5v_devx_cq_event(struct mlx5v_devx_cq *cq);

/**
 * Consume software-owned CQEs (ci += n, dbrec updated). Data path: cq not validated.
 * @return CQEs consumed.
 */
__rte_internal
unsigned int mlx5v_devx_cq_poll(struct mlx5v_devx_cq *cq);

/**
 * Tell the application's device event callbacks (rte_pmd_mlx5v_dev_event_callback_register())
 * of a RESET or RECOVERED (enum mlx5v_dev_event ev) of dev; other events are not theirs.
 * The recovery's thread.
 */
void mlx5v_devx_user_event(struct mlx5v_dev *dev, int ev);

#endif /* _MLX5V_DEVX_H_ */
