/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file DEVX event queues and MSI vectors on EAL memory (rdma-core mlx5dv_devx_* semantics). */

#ifndef _RTE_PMD_MLX5V_H_
#define _RTE_PMD_MLX5V_H_

/*
 * Application API of the mlx5v core: the DEVX EQ / MSI-vector / UAR calls with the
 * contract of rdma-core's mlx5dv_devx_alloc_msi_vector(), mlx5dv_devx_create_eq() and
 * friends, on EAL memory and EAL interrupts, plus inline helpers to consume EQEs.
 *
 * Error convention (rdma-core's, on purpose): calls returning a pointer return NULL and
 * set both errno and rte_errno; calls returning int return 0 or a positive errno value
 * (and also set errno and rte_errno to it).
 *
 * Every call may be made from several lcores at once. None may be made from an event
 * handler running on the EAL interrupt thread unless stated.
 *
 * The PRM layouts a caller needs (create_eq_in, eqc, EQE, create_cq_in, cqc, CQE, event
 * types, doorbell offsets) are in rte_pmd_mlx5v_prm.h.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_io.h>

#include "rte_pmd_mlx5v_prm.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque handle of an mlx5v device (a loaded mlx5v core device). */
struct rte_pmd_mlx5v_dev;

/** An MSI-X vector and the non-blocking eventfd the device signals for it. */
struct rte_pmd_mlx5v_msi_vector {
	int vector; /**< MSI-X entry, >= 1 (0 belongs to the driver) */
	int fd;     /**< eventfd, EFD_NONBLOCK | EFD_CLOEXEC; owned by the driver */
};

/** A DEVX event queue. */
struct rte_pmd_mlx5v_eq {
	void *vaddr; /**< the EQ ring (driver-allocated EAL memory), valid until destroy */
};

/** A UAR page: its doorbells, and the index to put in eqc/cqc.uar_page. */
struct rte_pmd_mlx5v_uar {
	void *reg_addr;   /**< base_addr + 0x800 (BlueFlame / SQ doorbell register) */
	void *base_addr;  /**< the page: EQ doorbells at +0x40/+0x48, CQ arm at +0x20 */
	uint32_t page_id; /**< UAR index for eqc.uar_page and cqc.uar_page */
};

/**
 * Find a loaded mlx5v device by its EAL device name (e.g. "mlx5v_sim0" or a PCI address).
 *
 * @return the handle (valid until the device is removed), or NULL with errno and
 *         rte_errno set to EINVAL (NULL name) or ENODEV (no such loaded device).
 */
__rte_experimental
struct rte_pmd_mlx5v_dev *rte_pmd_mlx5v_dev_get(const char *eal_device_name);

/** What a device event callback hears (rte_pmd_mlx5v_dev_event_callback_register()). */
enum rte_pmd_mlx5v_dev_event {
	/**
	 * The device died and its function was reset (devarg recovery=reset): every EQ, MSI
	 * vector, UAR, DMA mapping and object of it is gone, its handles answer ENODEV/EINVAL.
	 */
	RTE_PMD_MLX5V_DEV_EVENT_RESET = 1,
	/** The device is back: rte_pmd_mlx5v_dev_get() opens it again. */
	RTE_PMD_MLX5V_DEV_EVENT_RECOVERED,
};

/**
 * A device event callback: name is the EAL device name. It runs on the EAL interrupt thread
 * while the driver recovers the device; it should note the event and return (it may call
 * rte_pmd_mlx5v_dev_get(), nothing that waits for another thread).
 */
typedef void (*rte_pmd_mlx5v_dev_event_cb)(const char *name, enum rte_pmd_mlx5v_dev_event ev,
					   void *arg);

/**
 * Hear the recovery events of the device named eal_device_name, from now until unregistered
 * (across recoveries; the device need not be loaded yet).
 *
 * @return 0, EINVAL (NULL name or cb), EEXIST (the same cb and arg are registered for that
 *         name), or ENOMEM.
 */
__rte_experimental
int rte_pmd_mlx5v_dev_event_callback_register(const char *eal_device_name,
					      rte_pmd_mlx5v_dev_event_cb cb, void *arg);

/** Stop hearing them. @return 0, EINVAL, or ENOENT. */
__rte_experimental
int rte_pmd_mlx5v_dev_event_callback_unregister(const char *eal_device_name,
						rte_pmd_mlx5v_dev_event_cb cb, void *arg);

/**
 * Allocate the lowest free MSI-X vector >= 1 and a non-blocking eventfd wired to it.
 *
 * @return the vector, or NULL with errno/rte_errno: EINVAL (NULL dev), ENOSPC (no vector
 *         left), ENOMEM, or the errno of eventfd()/the interrupt attach.
 */
__rte_experimental
struct rte_pmd_mlx5v_msi_vector *
rte_pmd_mlx5v_devx_alloc_msi_vector(struct rte_pmd_mlx5v_dev *dev);

/**
 * Detach and close a vector from rte_pmd_mlx5v_devx_alloc_msi_vector().
 *
 * The driver frees the vector and fd it allocated for msi; the public fields are only
 * compared with them.
 *
 * @return 0; EINVAL for NULL, a stale handle, or msi->vector / msi->fd changed since the
 *         allocation (msi is then kept); EBUSY while a live EQ uses the vector (destroy
 *         the EQ first).
 */
__rte_experimental
int rte_pmd_mlx5v_devx_free_msi_vector(struct rte_pmd_mlx5v_msi_vector *msi);

/**
 * Create an EQ from a caller-built create_eq_in. The driver allocates the ring from EAL
 * memory on the device's socket (max(2^log_eq_size * 64, 4096) bytes, aligned to its
 * size), sets every EQE owner byte to 1, maps it for device DMA, and fills a copy of in
 * with eqc.log_page_size and pas[0] before CREATE_EQ. in is never modified.
 *
 * @param in     create_eq_in, inlen >= 0x110; eqc.intr from an allocated vector
 * @param out    create_eq_out, outlen >= 0x10; eq_number at byte 0x0b
 * @return the EQ, or NULL with errno/rte_errno: EINVAL (NULL pointer, short inlen or
 *         outlen, inlen > RTE_PMD_MLX5V_CMD_MAX_LEN, opcode not CREATE_EQ, eqc.intr 0 or
 *         not allocated, event_bitmask with RTE_PMD_MLX5V_EVENT_CMD or
 *         RTE_PMD_MLX5V_EVENT_PAGE_REQUEST: the driver's own events), ENOMEM, or
 *         EREMOTEIO if the device failed the command (out holds status and syndrome);
 *         other errno values for transport errors (ETIMEDOUT, ENOLINK for a dead device).
 */
__rte_experimental
struct rte_pmd_mlx5v_eq *
rte_pmd_mlx5v_devx_create_eq(struct rte_pmd_mlx5v_dev *dev, const void *in, size_t inlen,
			     void *out, size_t outlen);

/**
 * DESTROY_EQ, then free the ring. Stops the EAL interrupt callback of the EQ if any.
 *
 * @return 0, EINVAL for NULL, or the errno translated from the device status (the EQ is
 *         then still alive); never EREMOTEIO.
 */
__rte_experimental
int rte_pmd_mlx5v_devx_destroy_eq(struct rte_pmd_mlx5v_eq *eq);

/**
 * As rdma-core over VFIO: only vector 0 is served, with the driver's async EQ number.
 * CQs bound to that EQ lose their completion events; bind them to a created EQ.
 *
 * @return 0, or EINVAL (NULL argument or vector != 0), ENODEV (no async EQ).
 */
__rte_experimental
int rte_pmd_mlx5v_devx_query_eqn(struct rte_pmd_mlx5v_dev *dev, uint32_t vector,
				 uint32_t *eqn);

/**
 * Run a device command (e.g. QUERY_EQ, GEN_EQE, CREATE_CQ) within the raw command policy
 * (doc/guides/nics/mlx5v_devx.rst, "Raw command policy"): function management (INIT/
 * TEARDOWN/ENABLE/DISABLE_HCA, SET_HCA_CAP, SET_ISSI, QUERY/MANAGE_PAGES, ALLOC/DEALLOC_UAR)
 * and opcodes outside the table are refused; port and vport commands (ACCESS_REG writes,
 * MODIFY_NIC_VPORT_CONTEXT, SET_FLOW_TABLE_ROOT) only on a device without a net class;
 * object commands only on objects created through this call (GEN_EQE also on EQs of
 * rte_pmd_mlx5v_devx_create_eq(); QUERY_EQ on any EQ). Created objects are recorded per
 * device from the create's output; a destroy forgets them.
 *
 * @return 0, EINVAL (NULL pointer, inlen or outlen < 16 or > RTE_PMD_MLX5V_CMD_MAX_LEN),
 *         EPERM (refused by the policy; nothing sent, out not written), EREMOTEIO (the
 *         device failed it: out holds status and syndrome), or a transport errno.
 */
__rte_experimental
int rte_pmd_mlx5v_devx_general_cmd(struct rte_pmd_mlx5v_dev *dev, const void *in,
				   size_t inlen, void *out, size_t outlen);

/**
 * ALLOC_UAR: a UAR page of this caller (rdma-core shares one; see the man page).
 *
 * @return the UAR, or NULL with errno/rte_errno: EINVAL, ENOMEM, ENXIO (page not
 *         mappable), or the errno translated from the device status.
 */
__rte_experimental
struct rte_pmd_mlx5v_uar *rte_pmd_mlx5v_devx_alloc_uar(struct rte_pmd_mlx5v_dev *dev);

/**
 * DEALLOC_UAR of the page allocated for uar (uar->page_id is not read). @return 0, EINVAL,
 * or the translated device errno (EINVAL while an EQ or CQ still uses the page; the UAR is
 * then kept).
 */
__rte_experimental
int rte_pmd_mlx5v_devx_free_uar(struct rte_pmd_mlx5v_uar *uar);

/**
 * Make [addr, addr + size) reachable by device DMA, for rings and doorbell records the
 * caller places in CREATE_CQ (or other commands) through rte_pmd_mlx5v_devx_general_cmd().
 * No device object is created: *iova is what goes into PAS and dbr_addr fields.
 *
 * The range must be memory the IOMMU can reach, and IOVA-contiguous (one *iova describes
 * it): EAL memory (rte_malloc, memzones; with IOVA as PA a buffer across hugepages is
 * contiguous only from an RTE_MEMZONE_IOVA_CONTIG memzone), or external memory registered
 * with rte_extmem_register() and an IOVA table, which this call maps into the device's
 * IOMMU container (rte_dev_dma_map()) and rte_pmd_mlx5v_devx_dma_unmap() unmaps.
 * Anything else (malloc(), the stack, external memory without IOVAs) is refused.
 * See doc/guides/nics/running_on_hardware.rst, "IOVA modes".
 *
 * @return 0, EINVAL (NULL, size 0, overlapping a registered range, not EAL or registered
 *         external memory, or not IOVA-contiguous), ENOMEM, or the errno of the IOMMU
 *         mapping.
 */
__rte_experimental
int rte_pmd_mlx5v_devx_dma_map(struct rte_pmd_mlx5v_dev *dev, void *addr, size_t size,
			       uint64_t *iova);

/** Undo rte_pmd_mlx5v_devx_dma_map(). @return 0 or EINVAL (not a registered range). */
__rte_experimental
int rte_pmd_mlx5v_devx_dma_unmap(struct rte_pmd_mlx5v_dev *dev, void *addr, size_t size);

/*
 * ---- Consuming events (inline, lcore or interrupt context, no locks) ----
 *
 * A consumer keeps its own consumer index ci (starting at 0) and:
 *   1. when the vector's fd is readable, reads 8 bytes from it (EAGAIN is fine);
 *   2. takes EQEs with rte_pmd_mlx5v_eq_next_eqe() and handles them, ci++ each;
 *   3. writes the CI without arming at least every RTE_PMD_MLX5V_NUM_SPARE_EQE EQEs;
 *   4. arms with the final ci (rte_pmd_mlx5v_eq_update_ci(..., 1)).
 * rte_pmd_mlx5v_eq_poll() does 2-4.
 */

/** @return the type of an EQE (enum rte_pmd_mlx5v_event_type). */
static inline uint8_t
rte_pmd_mlx5v_eqe_type(const void *eqe)
{
	return ((const volatile uint8_t *)eqe)[RTE_PMD_MLX5V_EQE_TYPE_OFF];
}

/** @return the sub-type of an EQE. */
static inline uint8_t
rte_pmd_mlx5v_eqe_sub_type(const void *eqe)
{
	return ((const volatile uint8_t *)eqe)[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF];
}

/**
 * The EQE at consumer index ci if software owns it.
 *
 * @param vaddr  rte_pmd_mlx5v_eq.vaddr
 * @param nent   2^eqc.log_eq_size
 * @param ci     the consumer index (free running; only the low 24 bits reach the device)
 * @return the EQE (its body safe to read), or NULL if the device has not written it yet.
 */
static inline void *
rte_pmd_mlx5v_eq_next_eqe(void *vaddr, uint32_t nent, uint32_t ci)
{
	volatile uint8_t *eqe = (volatile uint8_t *)vaddr +
				(size_t)(ci & (nent - 1)) * RTE_PMD_MLX5V_EQE_SIZE;
	uint8_t owner = eqe[RTE_PMD_MLX5V_EQE_OWNER_OFF];

	/*
	 * Owner rule (prm/mlx5 §6.8): the device writes owner = (pi / nent) & 1, and every
	 * owner byte starts at 1, so the entry is ours iff the owner bit equals the wrap
	 * parity of ci. A mismatch means the device has not written this lap's EQE yet.
	 */
	if ((owner & 1) ^ !!(ci & nent))
		return NULL;
	/* The device writes the body first and the owner byte last: read the body only now. */
	rte_io_rmb();
	return (void *)(uintptr_t)eqe;
}

/**
 * Write the EQ consumer index: BE32 (eqn << 24) | ci at base_addr + 0x40 (update and arm:
 * interrupt on the next EQE, or at once if EQEs are pending) or + 0x48 (update only).
 */
static inline void
rte_pmd_mlx5v_eq_update_ci(const struct rte_pmd_mlx5v_uar *uar, uint32_t eqn, uint32_t ci,
			   int arm)
{
	uint8_t *db = (uint8_t *)uar->base_addr + (arm ? RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF :
					       RTE_PMD_MLX5V_UAR_EQ_DB_NOARM_OFF);

	/*
	 * Every EQE read before this point must be complete before the device learns the
	 * CI, or it could overwrite an entry still being read: a full barrier (loads before
	 * a store), not only a write barrier (prm/mlx5 §6.10).
	 */
	rte_io_mb();
	rte_write32_relaxed(rte_cpu_to_be_32(rte_pmd_mlx5v_eq_db_val(eqn, ci)), db);
}

/** Arm the EQ with consumer index ci (the +0x40 doorbell). */
static inline void
rte_pmd_mlx5v_eq_arm(const struct rte_pmd_mlx5v_uar *uar, uint32_t eqn, uint32_t ci)
{
	rte_pmd_mlx5v_eq_update_ci(uar, eqn, ci, 1);
}

/** Per-EQE callback of rte_pmd_mlx5v_eq_poll(). */
typedef void (*rte_pmd_mlx5v_eqe_cb_t)(const void *eqe, void *arg);

/**
 * Consume every software-owned EQE: call cb on each, write the CI without arming after
 * each RTE_PMD_MLX5V_NUM_SPARE_EQE, and arm once at the end (even if none was found,
 * as both reference drivers do).
 *
 * @param ci  in: the consumer index; out: advanced past the consumed EQEs
 * @return the number of EQEs consumed.
 */
static inline uint32_t
rte_pmd_mlx5v_eq_poll(void *vaddr, uint32_t nent, uint32_t *ci,
		      const struct rte_pmd_mlx5v_uar *uar, uint32_t eqn,
		      rte_pmd_mlx5v_eqe_cb_t cb, void *arg)
{
	uint32_t n = 0;
	uint32_t cc = 0;
	void *eqe;

	while ((eqe = rte_pmd_mlx5v_eq_next_eqe(vaddr, nent, *ci)) != NULL) {
		if (cb != NULL)
			cb(eqe, arg);
		(*ci)++;
		n++;
		/* The HCA declares an overrun unless told the CI every 128 EQEs (prm/mlx5 §6.9). */
		if (++cc == RTE_PMD_MLX5V_NUM_SPARE_EQE) {
			rte_pmd_mlx5v_eq_update_ci(uar, eqn, *ci, 0);
			cc = 0;
		}
	}
	rte_pmd_mlx5v_eq_arm(uar, eqn, *ci);
	return n;
}

/**
 * Request a completion event for the next CQE (or the next solicited one) on a CQ bound
 * to an EQ (cqc.c_eqn). dbrec is the CQ's 8-byte doorbell record (cqc.dbr_addr).
 *
 * @param sn   arm sequence number; increment it on each CQ event handled
 * @param ci   the CQ consumer index
 * @param solicited  1: solicited completions only (REQ_NOT_SOL), 0: any (REQ_NOT)
 */
static inline void
rte_pmd_mlx5v_cq_arm(const struct rte_pmd_mlx5v_uar *uar, volatile uint32_t *dbrec,
		     uint32_t cqn, uint32_t sn, uint32_t ci, int solicited)
{
	uint32_t cmd = solicited ? RTE_PMD_MLX5V_CQ_DB_REQ_NOT_SOL : RTE_PMD_MLX5V_CQ_DB_REQ_NOT;
	uint32_t word = ((sn & 3) << 28) | cmd | (ci & 0xffffff);
	uint64_t db = ((uint64_t)word << 32) | (cqn & 0xffffff);

	/* PRM prm/mlx5 §7.3: record first (dbrec[1] is the arm word), visible before the MMIO. */
	dbrec[RTE_PMD_MLX5V_CQ_DBREC_ARM] = rte_cpu_to_be_32(word);
	rte_io_wmb();
	rte_write64_relaxed(rte_cpu_to_be_64(db),
			    (uint8_t *)uar->base_addr + RTE_PMD_MLX5V_UAR_CQ_DB_OFF);
}

/**
 * The CQE at consumer index ci if software owns it (64-byte CQEs), else NULL. CQEs start
 * hardware-owned (op_own = 0xf1) and the owner bit flips each lap, as for EQEs.
 */
static inline void *
rte_pmd_mlx5v_cq_next_cqe(void *buf, uint32_t nent, uint32_t ci)
{
	volatile uint8_t *cqe = (volatile uint8_t *)buf +
				(size_t)(ci & (nent - 1)) * RTE_PMD_MLX5V_CQE_SIZE;
	uint8_t op_own = cqe[RTE_PMD_MLX5V_CQE_OP_OWN_OFF];

	/* Owner parity as for EQEs; opcode 0xf (invalid) marks a never-written entry. */
	if (((op_own & 1) ^ !!(ci & nent)) || (op_own >> 4) == RTE_PMD_MLX5V_CQE_OPCODE_INVALID)
		return NULL;
	rte_io_rmb();
	return (void *)(uintptr_t)cqe;
}

/** Record the CQ consumer index in the doorbell record (dbrec[0]). */
static inline void
rte_pmd_mlx5v_cq_update_ci(volatile uint32_t *dbrec, uint32_t ci)
{
	/* CQE reads complete before the device may reuse the entries. */
	rte_io_mb();
	dbrec[RTE_PMD_MLX5V_CQ_DBREC_SET_CI] = rte_cpu_to_be_32(ci & 0xffffff);
}

#ifdef __cplusplus
}
#endif

#endif /* _RTE_PMD_MLX5V_H_ */
