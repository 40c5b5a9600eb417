/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The core's internal API for programs outside the library (our testpmd commands and
 * tools): opaque handles, snapshots copied out by getters, and the DEVX calls that
 * rte_pmd_mlx5v.h does not offer (driver-consumed EQs). Every function here is exported
 * through version.map (INTERNAL); no structure of the library's internals is visible.
 * Conventions as in the rest of the core: 0 or -errno, NULL + rte_errno for pointers.
 */

#ifndef _MLX5V_API_H_
#define _MLX5V_API_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_dev.h>

#include "rte_pmd_mlx5v.h"

/** A core device (opaque). */
struct mlx5v_dev;
/** A DEVX EQ (opaque; its public part is struct rte_pmd_mlx5v_eq). */
struct mlx5v_devx_eq;
/** An MSI vector of the DEVX API (opaque; public part struct rte_pmd_mlx5v_msi_vector). */
struct mlx5v_devx_msi;
/** A UAR of the DEVX API (opaque; public part struct rte_pmd_mlx5v_uar). */
struct mlx5v_devx_uar;

/* ---- devices ---- */

/** Snapshot of a device (mlx5v_dev_info_get()). */
struct mlx5v_dev_info {
	char name[RTE_DEV_NAME_MAX_LEN]; /**< EAL device name */
	int stage;                /**< bring-up progress, 0 (none) to 7 (loaded) */
	int dead;                 /**< why the device died, 0 while it is alive */
	uint16_t fw_major;        /**< firmware revision, as fw_rev_major.fw_rev_minor */
	uint16_t fw_minor;
	uint16_t function_id;
	uint32_t uar;             /**< the device UAR index */
	int socket;               /**< NUMA socket of the device memory */
	unsigned int msi_count;   /**< MSI-X vectors, vector 0 included */
	int async_eqn;            /**< the async EQ on vector 0, or -1 */
	uint64_t pages_given;     /**< firmware pages the device holds */
	uint32_t log_max_eq_sz;   /**< HCA cap log_max_eq_sz, 0 before INIT_HCA */
};

/**
 * Copy what a device is: safe from any thread, also from a DEVX EQ event handler.
 * @param dev a registered device (e.g. from mlx5v_devx_dev_get())
 * @return 0 or -EINVAL (NULL argument).
 */
__rte_internal
int mlx5v_dev_info_get(struct mlx5v_dev *dev, struct mlx5v_dev_info *info);

/** One MSI-X vector (mlx5v_msi_info_get()). */
struct mlx5v_msi_info {
	int fd;                   /**< its eventfd, -1 while the vector is free */
	unsigned int eq_refs;     /**< EQs created on it */
};

/**
 * Copy the state of MSI-X vector (0 to msi_count - 1 of mlx5v_dev_info): iterate over
 * the vectors of a device with it.
 * @return 0, or -EINVAL (NULL argument, vector out of range).
 */
__rte_internal
int mlx5v_msi_info_get(struct mlx5v_dev *dev, unsigned int vector, struct mlx5v_msi_info *info);

/* ---- command interface ---- */

/** Opcodes below this get their own counters; the rest share the last bucket. */
#define MLX5V_CMD_STATS_OPCODES 0x1000

/** Per-opcode counters (mlx5v_cmd_stats_get()). */
struct mlx5v_cmd_stats {
	uint64_t n;          /**< commands completed (any result) */
	uint64_t errors;     /**< status != OK, delivery errors, timeouts */
	uint64_t timeouts;   /**< of which -ETIMEDOUT */
	uint64_t local;      /**< answered locally because the device is dead */
	uint64_t ns_total;   /**< driver call to return, summed */
	uint64_t ns_device;  /**< doorbell to entry returned by the device, summed */
	uint64_t ns_event;   /**< entry returned to completion event handled (event mode) */
	uint64_t ns_max;     /**< worst driver call to return */
};

/** Snapshot of the command interface (mlx5v_cmd_info_get()). */
struct mlx5v_cmd_info {
	unsigned int nslots;        /**< 1 << log_cmdq_size */
	unsigned int page_slot;     /**< the last slot, reserved for MANAGE_PAGES */
	unsigned int log_stride;
	int events;                 /**< 1 once completions come from the async EQ */
	int checksum;               /**< 1 if signatures are written and verified */
	uint32_t busy_mask;         /**< slots with a command in flight */
	uint32_t timedout_mask;     /**< slots kept reserved after a timeout */
	uint8_t last_token;         /**< token of the latest command (never 0) */
	uint64_t late_completions;  /**< completions that arrived after a timeout */
	uint64_t eq_recoveries;     /**< EQ polls done by a waiter that saw no event */
	uint64_t spurious;          /**< CMD events for slots not owned by a waiter */
	uint64_t polled;            /**< commands taken back by their owner bit in event mode */
	uint64_t polled_eqes;       /**< the CMD events of those, absorbed afterwards */
	uint64_t bad_out_sigs;      /**< completions whose output signature was bad (-EBADR) */
	uint64_t orphans_destroyed; /**< objects of late create completions destroyed */
	uint64_t orphans_left;      /**< such objects left to the function teardown */
	uint64_t async_posted;      /**< commands posted by mlx5v_cmd_post_async() */
	uint64_t async_failed;      /**< of those, completed with an error (or timed out) */
	unsigned int async_pending; /**< of those, not taken back yet */
};

/** @return a printable opcode name ("UNKNOWN" if not in the table). */
__rte_internal
const char *mlx5v_cmd_opcode_name(uint16_t opcode);
/** The DEVX policy's rule (enum mlx5v_devx_rule) and object family of opcode. */
void mlx5v_cmd_opcode_devx(uint16_t opcode, uint8_t *rule, uint8_t *fam);

/**
 * Copy the counters of one opcode.
 * @return 0, or -EINVAL for a NULL argument.
 */
__rte_internal
int mlx5v_cmd_stats_get(struct mlx5v_dev *dev, uint16_t opcode, struct mlx5v_cmd_stats *st);

/** Snapshot the command-interface state. @return 0 or -EINVAL. */
__rte_internal
int mlx5v_cmd_info_get(struct mlx5v_dev *dev, struct mlx5v_cmd_info *info);

/* ---- DEVX: devices and handles ---- */

/**
 * @return the loaded device named name (its DEVX state created), or NULL with rte_errno
 *         EINVAL (NULL name), ENODEV (no such loaded device, or its removal has begun).
 *         The pointer is a handle: after the removal every call with it fails (ENODEV).
 */
__rte_internal
struct mlx5v_dev *mlx5v_devx_dev_get(const char *name);

/** @return the object of a public vector, or NULL if it is not a live one (no deref). */
__rte_internal
struct mlx5v_devx_msi *mlx5v_devx_to_msi(struct rte_pmd_mlx5v_msi_vector *pub);

/**
 * @return the object of a public EQ, or NULL if it is not a live one (no deref). The
 *         result is not referenced: pass it only to calls that validate it again.
 */
__rte_internal
struct mlx5v_devx_eq *mlx5v_devx_to_eq(struct rte_pmd_mlx5v_eq *pub);

/** @return the object of a public UAR, or NULL if it is not a live one (no deref). */
__rte_internal
struct mlx5v_devx_uar *mlx5v_devx_to_uar(struct rte_pmd_mlx5v_uar *pub);

/* ---- DEVX EQs consumed by the driver ---- */

/** Handler table index for "any type without its own handler". */
#define MLX5V_DEVX_EVENT_ANY RTE_PMD_MLX5V_EVENT_MAX

/**
 * Event handler of a DEVX EQ. Runs in the thread that polls the EQ (an lcore calling
 * mlx5v_devx_eq_poll() or the EAL interrupt thread) with the EQ poll lock held: it must
 * not poll or destroy this EQ.
 */
typedef void (*mlx5v_devx_event_cb)(struct mlx5v_dev *dev, uint32_t eqn, const uint8_t *eqe,
				    void *arg);

/** Counters of a DEVX EQ consumed by the driver (mlx5v_devx_eq_poll()). */
struct mlx5v_devx_eq_stats {
	uint64_t eqes;           /**< EQEs consumed */
	uint64_t polls;          /**< poll passes */
	uint64_t ci_updates;     /**< no-arm CI doorbells */
	uint64_t arms;           /**< arm doorbells */
	uint64_t intrs;          /**< EAL interrupt callbacks run */
	uint64_t unhandled;      /**< EQEs without a handler */
	uint64_t by_type[RTE_PMD_MLX5V_EVENT_MAX]; /**< EQEs per event type */
};

/** What a DEVX EQ was created with, and its consumer index. */
struct mlx5v_devx_eq_info {
	uint32_t eqn;
	uint32_t nent;
	uint32_t vector;
	uint32_t uar_page;
	uint32_t ci;                   /**< driver consumer index (mlx5v_devx_eq_poll()) */
	uint64_t mask[4];
	void *vaddr;                   /**< the ring (rte_pmd_mlx5v_eq.vaddr) */
	size_t size;                   /**< bytes of the ring */
	uint64_t iova;                 /**< its device address */
	int intr;                      /**< 1 while the EAL interrupt callback is on */
};

/**
 * Copy the attributes of a live EQ. Also from the EQ's own event handler, where ci is
 * the index of the EQE being handled. @return 0 or -EINVAL (NULL, or not a live EQ).
 */
__rte_internal
int mlx5v_devx_eq_info_get(struct mlx5v_devx_eq *eq, struct mlx5v_devx_eq_info *info);

/**
 * DESTROY_EQ (translated errno), then free once no other call uses the EQ.
 * @return 0, -EINVAL (not a live EQ: destroyed, released by the removal, or being
 *         destroyed by another thread), or -errno from the device (EQ kept).
 */
__rte_internal
int mlx5v_devx_eq_destroy(struct mlx5v_devx_eq *eq);

/** @return the live DEVX EQ eqn of dev (not referenced), or NULL (also if dev is not live). */
__rte_internal
struct mlx5v_devx_eq *mlx5v_devx_eq_find(struct mlx5v_dev *dev, uint32_t eqn);

/**
 * Fill eqs[] with up to n live DEVX EQs of dev (not referenced).
 * @return how many exist (may be > n), -EINVAL or -ENODEV.
 */
__rte_internal
int mlx5v_devx_eq_list(struct mlx5v_dev *dev, struct mlx5v_devx_eq **eqs, unsigned int n);

/**
 * Set the handler of event type (0..255, or MLX5V_DEVX_EVENT_ANY as the default); cb NULL
 * removes it. @return 0 or -EINVAL (bad type, or not a live EQ).
 */
__rte_internal
int mlx5v_devx_eq_handler_set(struct mlx5v_devx_eq *eq, unsigned int type,
			      mlx5v_devx_event_cb cb, void *arg);

/**
 * Consume every software-owned EQE with the driver CI, dispatch by type, write the CI
 * without arming after each 128, arm at the end. If another thread is polling this EQ,
 * return 0 at once. @return EQEs consumed, -EINVAL (not a live EQ), or -ENOTSUP if the UAR
 * is not mappable.
 */
__rte_internal
int mlx5v_devx_eq_poll(struct mlx5v_devx_eq *eq);

/** Arm with the driver CI. @return 0, -EINVAL (not a live EQ) or -ENOTSUP. */
__rte_internal
int mlx5v_devx_eq_arm(struct mlx5v_devx_eq *eq);

/**
 * @return the number of software-owned EQEs from the driver CI on (none consumed); 0 if
 *         eq is not a live EQ.
 */
__rte_internal
unsigned int mlx5v_devx_eq_pending(struct mlx5v_devx_eq *eq);

/**
 * Register an EAL interrupt callback on the EQ's vector (EXT handle on its eventfd): it
 * drains the fd, then runs mlx5v_devx_eq_poll(). @return 0, -EINVAL (not a live EQ),
 * -EEXIST, -errno.
 */
__rte_internal
int mlx5v_devx_eq_intr_start(struct mlx5v_devx_eq *eq);

/** Unregister it (waits for a running callback). @return 0, -EINVAL or -ENOENT. */
__rte_internal
int mlx5v_devx_eq_intr_stop(struct mlx5v_devx_eq *eq);

/** Copy the counters. @return 0 or -EINVAL (not a live EQ; st untouched). */
__rte_internal
int mlx5v_devx_eq_stats_get(struct mlx5v_devx_eq *eq, struct mlx5v_devx_eq_stats *st);

#endif /* _MLX5V_API_H_ */
