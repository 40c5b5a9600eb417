/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Device lifecycle: init (software) -> load (hardware) -> unload -> cleanup. */

#ifndef _MLX5V_DEV_H_
#define _MLX5V_DEV_H_

#include <pthread.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_compat.h>
#include <rte_dev.h>
#include <rte_spinlock.h>

#include "mlx5v_cmd.h"
#include "mlx5v_dma.h"
#include "mlx5v_eq.h"
#include "mlx5v_hw.h"
#include "mlx5v_tout.h"

/** What the core does once the device died (devarg recovery=, mlx5v_recovery.c). */
enum mlx5v_recovery {
	/** Stay dead until removed: commands complete locally (prm/mlx5 §3.11). */
	MLX5V_RECOVERY_DEAD = 0,
	/** Reset the function, bring it up again and tell the consumers (the default). */
	MLX5V_RECOVERY_RESET,
};

/** The devarg that picks the enum mlx5v_recovery of a device: recovery=reset|dead. */
#define MLX5V_RECOVERY_ARG "recovery"

/** Device creation parameters (devargs of mlx5v_sim / mlx5v_pci). */
struct mlx5v_dev_params {
	uint32_t tout_ms[MLX5V_TO_MAX]; /**< 0 = default (mlx5v_tout.h) */
	unsigned int tout_scale;        /**< divide every default by this; 0 or 1 = as is */
	/**
	 * Command signatures: SET_HCA_CAP sets cmdif_checksum, and every command after it is
	 * signed and its output verified (prm/mlx5 §3.4).
	 */
	int cmd_sig;
	int fast_teardown;              /**< use TEARDOWN_HCA profile 2 if the cap allows */
	/**
	 * A heartbeat stuck for 3 polls is fatal (rdma-core's policy). Default 0: it is only
	 * reported, and death comes from the fatal sensors, as in Linux (prm/mlx5 §4.4).
	 */
	int health_strict;
	/** enum mlx5v_recovery; 0 (dead) unless a front-end's devarg default says reset. */
	int recovery;
};

/** Why a device was declared dead (enum order = PRM prm/mlx5 §4.3 sensor order). */
enum mlx5v_dead_reason {
	MLX5V_DEAD_NONE = 0,
	MLX5V_DEAD_PCI_COMM_ERR,   /**< fw_ver reads 0xffffffff (all ones) */
	MLX5V_DEAD_NIC_DISABLED,   /**< nic_interface == 1 */
	MLX5V_DEAD_NIC_SW_RESET,   /**< nic_interface == 7 */
	MLX5V_DEAD_FW_SYND_RFR,    /**< RFR bit and a syndrome */
	MLX5V_DEAD_HEARTBEAT,      /**< health counter stuck for 3 polls (health_strict only) */
	MLX5V_DEAD_CMD_IF,         /**< the command interface is unusable */
	MLX5V_DEAD_FUNC_RESET,     /**< the command queue address lost: a function level reset */
	MLX5V_DEAD_USER,           /**< mlx5v_dev_set_dead() */
	MLX5V_DEAD_CMD_TIMEOUTS,   /**< MLX5V_CMD_TIMEOUTS_FATAL command timeouts in a row */
};

/** Device events delivered to consumers. */
enum mlx5v_dev_event {
	MLX5V_DEV_EVENT_DEAD,      /**< the device died; only teardown remains possible */
	MLX5V_DEV_EVENT_REMOVE,    /**< the device is about to be unloaded */
	MLX5V_DEV_EVENT_PORT,      /**< a PORT_CHANGE event (class drivers only) */
	/**
	 * recovery=reset: the function was reset and the core's old life torn down; every
	 * object a consumer had is gone (the device is still dead, commands complete locally).
	 */
	MLX5V_DEV_EVENT_RESET,
	/** recovery=reset: the device is loaded again; consumers re-create their objects. */
	MLX5V_DEV_EVENT_RECOVERED,
};

/** A consumer of the core (the net PMD, a class driver): called on device events. */
struct mlx5v_dev_hook {
	TAILQ_ENTRY(mlx5v_dev_hook) next;
	void (*event)(struct mlx5v_dev *dev, enum mlx5v_dev_event ev, void *arg);
	void *arg;
};

/** Bring-up progress, for logs and the unwind ladder. */
enum mlx5v_load_stage {
	MLX5V_STAGE_NONE = 0,
	MLX5V_STAGE_CMD,
	MLX5V_STAGE_HCA_ENABLED,
	MLX5V_STAGE_BOOT_PAGES,
	MLX5V_STAGE_HCA_INIT,
	MLX5V_STAGE_UAR,
	MLX5V_STAGE_ASYNC_EQ,
	MLX5V_STAGE_LOADED,
};

/** A queued PAGE_REQUEST event. */
struct mlx5v_pages_req {
	int32_t npages;           /**< > 0 give, < 0 reclaim */
	uint16_t func_id;
	uint16_t ec_function;
};

#define MLX5V_PAGES_REQ_MAX 32

/** Firmware pages given to the device (mlx5v_pages.c). */
struct mlx5v_pages_chunk;
struct mlx5v_pages_node;
struct mlx5v_pages {
	TAILQ_HEAD(, mlx5v_pages_chunk) chunks;
	TAILQ_HEAD(, mlx5v_pages_chunk) avail;   /**< chunks with a free page */
	struct mlx5v_pages_node **htbl;          /**< device address -> page */
	uint32_t hmask;
	uint64_t hcount;
	uint64_t released_all;    /**< "release all" requests served */
	uint64_t steps;           /**< allocator work: chunks and hash entries visited */
	rte_spinlock_t serve_lock; /**< one thread serves the FIFO at a time */
	uint64_t given;           /**< pages the device holds */
	uint64_t give_cmds;
	uint64_t take_cmds;
	uint64_t cant_give;
	uint64_t requests;        /**< PAGE_REQUEST events */
	uint64_t req_dropped;     /**< requests lost to a full FIFO */
	rte_spinlock_t req_lock;
	struct mlx5v_pages_req req[MLX5V_PAGES_REQ_MAX]; /**< FIFO, under req_lock */
	unsigned int req_head;
	unsigned int req_n;
	int work_armed;           /**< alarm set, under req_lock */
	int stopping;
	uint16_t function_id;
};

/** MSI-X vector table (mlx5v_msi.c). Vector 0 is the control vector. */
struct mlx5v_msi {
	unsigned int count;       /**< vectors of the function, at most 2048 */
	unsigned int enabled;     /**< vectors enabled (0 .. enabled - 1); 0: MSI-X off */
	int noresize;             /**< the enabled set cannot grow while MSI-X is on */
	int *fd;                  /**< per vector, -1 when free */
	unsigned int *eq_refs;    /**< EQs created on each vector */
	rte_spinlock_t lock;
	struct rte_intr_handle *ctrl_ih;
};

/** Health poll state (mlx5v_health.c). */
struct mlx5v_health {
	uint32_t prev_counter;
	unsigned int miss;
	uint64_t stalls;          /**< heartbeat stalls reported (3 polls without a change) */
	int running;
	int stop;
	uint64_t polls;
};

/** One ConnectX function owned through its init segment and command queue. */
struct mlx5v_dev {
	TAILQ_ENTRY(mlx5v_dev) next;
	char name[RTE_DEV_NAME_MAX_LEN];
	int hw_slot;                  /**< index into the process-local mlx5v_hw_procs[] */
	int socket;
	uint32_t tout_ms[MLX5V_TO_MAX];
	int fast_teardown;
	int health_strict;            /**< a stuck heartbeat is fatal (mlx5v_dev_params) */
	int cmd_sig;                  /**< set cmdif_checksum at SET_HCA_CAP (mlx5v_dev_params) */
	enum mlx5v_load_stage stage;
	int dead;                     /**< atomic: enum mlx5v_dead_reason, 0 = alive */
	uint16_t function_id;
	uint32_t fw_rev;
	uint32_t uar;                 /**< the device UAR index */
	uint8_t *uar_addr;
	uint8_t *hca_cap_max;         /**< MLX5V_HCA_CAP_SIZE bytes each */
	uint8_t *hca_cap_cur;
	struct mlx5v_cmd cmd;
	struct mlx5v_eq *async_eq;
	struct mlx5v_msi msi;
	struct mlx5v_pages pages;
	struct mlx5v_health health;
	struct mlx5v_eq_sub eq_sub[MLX5V_EQ_TYPES][MLX5V_EQ_SUBS_PER_TYPE];
	/*
	 * Recursive mutex, not a spinlock: hooks run with it held and issue commands
	 * (which sleep), and a hook may unregister itself from its callback.
	 */
	pthread_mutex_t hook_lock;
	TAILQ_HEAD(, mlx5v_dev_hook) hooks;
	/** Rings whose destroy failed, kept until DISABLE_HCA (mlx5v_dev_quarantine()). */
	TAILQ_HEAD(, mlx5v_quarantine) quarantine;
	rte_spinlock_t quarantine_lock;
	unsigned int nb_quarantined;  /**< entries on the quarantine list */
	int removing;                 /**< REMOVE announced (under hook_lock); load clears it */
	void *owner;                  /**< the front-end (vdev/PCI) private data */
	/* Recovery (mlx5v_recovery.c). */
	int recovery;                 /**< enum mlx5v_recovery */
	/**
	 * Atomic: the life of the device, bumped when a death starts a recovery. A consumer
	 * whose objects were made in an older life must not send their numbers to the device.
	 */
	uint32_t epoch;
	int recovering;               /**< atomic: a recovery is scheduled or running */
	unsigned int recover_tries;   /**< attempts of the recovery in progress */
	uint64_t recoveries;          /**< recoveries completed */
	uint64_t recovery_failures;   /**< recoveries given up: the device stayed dead */
};

/** @return this process's seam of dev (contributing/style §2: never in shared memory). */
static inline struct mlx5v_hw *
mlx5v_dev_hw(const struct mlx5v_dev *dev)
{
	return &mlx5v_hw_procs[dev->hw_slot];
}

/** @return the timeout t of dev in ms. */
static inline uint32_t
mlx5v_tout_ms(const struct mlx5v_dev *dev, enum mlx5v_tout t)
{
	return dev->tout_ms[t];
}

/**
 * Allocate a device and initialise its software state (no hardware access) and register
 * it under name. hw is a template: the device uses its own copy in this process's seam
 * table, so the caller's structure may go away. Control thread.
 * @return the device, or NULL with rte_errno set (EINVAL, EEXIST, ENOMEM).
 */
__rte_internal
struct mlx5v_dev *mlx5v_dev_init(const char *name, const struct mlx5v_hw *hw,
				 const struct mlx5v_dev_params *p);

/** Unregister and free a device that is not loaded. */
__rte_internal
void mlx5v_dev_cleanup(struct mlx5v_dev *dev);

/**
 * Bring the device up in PRM order (prm/mlx5 §2.1). On failure every completed step
 * is undone, in the order of mlx5v_dev_unload().
 * @return 0 or a negative errno.
 */
__rte_internal
int mlx5v_dev_load(struct mlx5v_dev *dev);

/** Tear the device down (TEARDOWN_HCA, page reclaim, DISABLE_HCA, unmap). Never fails. */
__rte_internal
void mlx5v_dev_unload(struct mlx5v_dev *dev);

/** @return the registered device named name (EAL device name), or NULL. */
__rte_internal
struct mlx5v_dev *mlx5v_dev_get(const char *name);

/**
 * Copy the names of the registered devices, in registration order, into names[0..n-1]
 * (names may be NULL when n is 0). Any thread.
 * @return how many devices are registered (may be > n).
 */
unsigned int mlx5v_dev_names(char (*names)[RTE_DEV_NAME_MAX_LEN], unsigned int n);

/**
 * Liveness by address: dev is never dereferenced unless it is registered. Any thread.
 * @return 1 if dev is a registered, loaded device whose removal has not begun, else 0.
 */
__rte_internal
int mlx5v_dev_is_live(const struct mlx5v_dev *dev);

/** @return enum mlx5v_dead_reason: 0 while the device is alive. */
__rte_internal
int mlx5v_dev_is_dead(const struct mlx5v_dev *dev);

/**
 * Declare the device dead (fatal health event): pending commands complete with the
 * dead-device policy, consumers get MLX5V_DEV_EVENT_DEAD. Never aborts. Idempotent.
 */
__rte_internal
void mlx5v_dev_set_dead(struct mlx5v_dev *dev, enum mlx5v_dead_reason why);

/** Set one timeout (ms, > 0). @return 0 or -EINVAL. */
__rte_internal
int mlx5v_dev_tout_set(struct mlx5v_dev *dev, enum mlx5v_tout t, uint32_t ms);

/** @return a copy of the current general capability (cur) or NULL before bring-up. */
__rte_internal
const uint8_t *mlx5v_dev_hca_cap(struct mlx5v_dev *dev);

/**
 * Add a consumer hook (hook memory owned by the caller).
 * @return 0, -EINVAL, or -ENODEV once the removal of dev has begun (the hook would never
 *         hear MLX5V_DEV_EVENT_REMOVE).
 */
__rte_internal
int mlx5v_dev_hook_register(struct mlx5v_dev *dev, struct mlx5v_dev_hook *hook);

/** Remove a consumer hook. @return 0 or -ENOENT. */
__rte_internal
int mlx5v_dev_hook_unregister(struct mlx5v_dev *dev, struct mlx5v_dev_hook *hook);

/** Most DMA mappings one quarantined allocation has (a CQ: its ring and doorbell page). */
#define MLX5V_QUARANTINE_DMA_MAX 2

/** A ring the device may still write into (mlx5v_dev_quarantine()). */
struct mlx5v_quarantine {
	TAILQ_ENTRY(mlx5v_quarantine) next;
	void *va;                 /**< rte_malloc memory */
	size_t size;
	unsigned int ndma;
	struct mlx5v_dma_buf dma[MLX5V_QUARANTINE_DMA_MAX]; /**< its DMA windows */
};

/**
 * Keep the ring of an EQ or CQ whose DESTROY failed: the object is still alive in the device,
 * which may write into it, so the memory (va, size bytes) and its ndma mappings (taken over
 * from the caller) stay until the function is disabled (DISABLE_HCA at unload, or the device
 * is dead). Any thread.
 */
void mlx5v_dev_quarantine(struct mlx5v_dev *dev, void *va, size_t size,
			  const struct mlx5v_dma_buf *dma, unsigned int ndma);

/** Deliver ev to the hooks of dev (hook_lock held, recursive). Any thread. */
void mlx5v_dev_notify(struct mlx5v_dev *dev, enum mlx5v_dev_event ev);

/** The hardware part of mlx5v_dev_unload(): no REMOVE announcement. Control thread. */
void mlx5v_dev_teardown(struct mlx5v_dev *dev);

/* ---- recovery (mlx5v_recovery.c) ---- */

/**
 * Parse a recovery= value ("reset" or "dead").
 * @return the enum mlx5v_recovery, or -EINVAL with one log line.
 */
int mlx5v_recovery_parse(const char *value);

/** @return the life of dev (bumped at each death that starts a recovery). Any thread. */
__rte_internal
uint32_t mlx5v_dev_epoch(const struct mlx5v_dev *dev);

/**
 * @return 1 while a recovery of dev is scheduled or running (the device is dead and will be
 *         brought up again), else 0. Any thread.
 */
__rte_internal
int mlx5v_dev_recovering(const struct mlx5v_dev *dev);

/**
 * From mlx5v_dev_set_dead(), before DEAD goes out: decide a recovery if dev asks for one (the
 * device is recovering and its epoch moves on). Any thread.
 * @return 1 if decided: mlx5v_recovery_start() once DEAD went out; else 0.
 */
int mlx5v_recovery_schedule(struct mlx5v_dev *dev);

/** From mlx5v_dev_set_dead(), after DEAD: arm the recovery decided, a grace period later. */
void mlx5v_recovery_start(struct mlx5v_dev *dev);

/** From mlx5v_dev_unload(): cancel a scheduled recovery, wait for a running one. */
void mlx5v_recovery_cancel(struct mlx5v_dev *dev);

/**
 * Stale mode of the calling thread: until mlx5v_cmd_stale_end(), every command it issues
 * on dev completes locally with the dead-device result (destroys succeed, others fail with
 * -ENOLINK), whatever the device's state. For a consumer that tears down objects of an
 * older life (mlx5v_dev_epoch()), whose numbers may name objects of the new one.
 */
__rte_internal
void mlx5v_cmd_stale_begin(struct mlx5v_dev *dev);

/** End the stale mode of the calling thread. */
__rte_internal
void mlx5v_cmd_stale_end(void);

/**
 * Polled mode of the calling thread: until mlx5v_cmd_poll_end(), each command it issues on
 * dev is taken back by its owner bit as soon as the device clears it, in event mode too,
 * instead of waiting for the CMD event through the EAL interrupt thread (as Linux's
 * mlx5_cmd_exec_polling() does for one command, doc/guides/prm/mlx5.rst §3.6). For short
 * commands issued back to back (rte_flow rules). The command's event, which the device
 * still writes, is absorbed when it comes. Not for MANAGE_PAGES work.
 */
__rte_internal
void mlx5v_cmd_poll_begin(struct mlx5v_dev *dev);

/** End the polled mode of the calling thread. */
__rte_internal
void mlx5v_cmd_poll_end(void);

/**
 * Post a command in a free ordinary slot and return without waiting (several commands in
 * flight, doc/guides/prm/mlx5.rst §3.1, §3.5). Its completion is taken back by the owner bit
 * later: when no slot is free, before any synchronous command (which thus runs after every
 * command posted before it), in mlx5v_cmd_async_reap() and mlx5v_cmd_async_wait(); then
 * cb (may be NULL) gets the result with the ticket, a failure being logged once with the
 * opcode, op_mod, status and syndrome. outlen: the command's output length, at most
 * MLX5V_CMD_ASYNC_OUT_MAX.
 * A posted command that the device does not answer within the command timeout completes
 * with -ETIMEDOUT (its slot stays reserved); on a dead device the pending ones complete with
 * the dead-device result.
 *
 * @return 0 and *ticket (never 0) when posted; on a dead device nothing is posted and the
 *         dead-device result is returned at once (0 for a destroy); -EINVAL, -ENOMEM, -EBUSY.
 */
__rte_internal
int mlx5v_cmd_post_async(struct mlx5v_dev *dev, const void *in, size_t inlen, size_t outlen,
			 mlx5v_cmd_done_cb cb, void *arg, uint64_t *ticket);

/** Take back the asynchronous commands the device has answered, without waiting.
 * @return how many completed. */
__rte_internal
unsigned int mlx5v_cmd_async_reap(struct mlx5v_dev *dev);

/**
 * Wait until the asynchronous command of ticket (0: every one) has completed and its
 * callback ran. Bounded by the command timeout of each.
 * @return 0, or -EINVAL.
 */
__rte_internal
int mlx5v_cmd_async_wait(struct mlx5v_dev *dev, uint64_t ticket);

/* ---- firmware pages (mlx5v_pages.c) ---- */

/** @return the number of firmware pages the device currently holds. */
__rte_internal
uint64_t mlx5v_pages_given(struct mlx5v_dev *dev);

int mlx5v_pages_init(struct mlx5v_dev *dev);
void mlx5v_pages_cleanup(struct mlx5v_dev *dev);
int mlx5v_pages_satisfy(struct mlx5v_dev *dev, uint16_t op_mod);
/** mlx5v_pages_give() / _reclaim() flags. */
#define MLX5V_PAGES_F_EVENT 0x1   /**< answering a PAGE_REQUEST: CANT_GIVE on failure */
#define MLX5V_PAGES_F_EC 0x2      /**< for the embedded-CPU function (ec_function 0x8000) */
int mlx5v_pages_give(struct mlx5v_dev *dev, uint16_t func_id, uint32_t npages,
		     unsigned int flags);
int mlx5v_pages_reclaim(struct mlx5v_dev *dev, uint16_t func_id, uint32_t npages,
			unsigned int flags);
void mlx5v_pages_reclaim_all(struct mlx5v_dev *dev);
int mlx5v_pages_events_start(struct mlx5v_dev *dev);
void mlx5v_pages_events_quiesce(struct mlx5v_dev *dev);
void mlx5v_pages_events_stop(struct mlx5v_dev *dev);
/**
 * Serve queued PAGE_REQUEST events now, on the calling thread; a no-op when none is queued
 * or another thread is serving. Called by a command waiter on the EAL interrupt thread.
 */
void mlx5v_pages_serve(struct mlx5v_dev *dev);

/* ---- health (mlx5v_health.c) ---- */

/**
 * Run one health check now (the EAL alarm runs it every MLX5V_TO_HEALTH_POLL ms).
 * @return 0 if healthy, -ENOLINK if the device is (or became) dead.
 */
__rte_internal
int mlx5v_health_check(struct mlx5v_dev *dev);

/** @return why a device is dead, printable ("none" for MLX5V_DEAD_NONE). */
const char *mlx5v_health_reason_str(enum mlx5v_dead_reason why);

/** @return a printable health syndrome (prm/mlx5 §4.2). */
__rte_internal
const char *mlx5v_health_synd_str(uint8_t synd);

/** Start the health poll (EAL alarm every MLX5V_TO_HEALTH_POLL ms). Control thread. */
__rte_internal
void mlx5v_health_start(struct mlx5v_dev *dev);

/** Stop the health poll; waits for a running poll to return. Not from the alarm itself. */
__rte_internal
void mlx5v_health_stop(struct mlx5v_dev *dev);
void mlx5v_health_report(struct mlx5v_dev *dev, enum mlx5v_dead_reason why);

/* ---- MSI-X vectors (mlx5v_msi.c) ---- */

/**
 * Allocate the lowest free vector >= 1: a non-blocking eventfd attached through the seam.
 * @return the vector (>= 1) with *fd set, or -ENOSPC / -errno.
 */
__rte_internal
int mlx5v_msi_alloc(struct mlx5v_dev *dev, int *fd);

/**
 * Detach and close a vector from mlx5v_msi_alloc().
 * @return 0, -EINVAL (vector 0, out of range, or fd mismatch), -EBUSY (an EQ uses it).
 */
__rte_internal
int mlx5v_msi_free(struct mlx5v_dev *dev, unsigned int vector, int fd);

/** @return the number of MSI-X vectors. */
__rte_internal
unsigned int mlx5v_msi_count(struct mlx5v_dev *dev);

int mlx5v_msi_init(struct mlx5v_dev *dev);
void mlx5v_msi_cleanup(struct mlx5v_dev *dev);
int mlx5v_msi_ctrl_start(struct mlx5v_dev *dev, void (*cb)(void *arg), void *arg);
void mlx5v_msi_ctrl_stop(struct mlx5v_dev *dev, void (*cb)(void *arg), void *arg);
int mlx5v_msi_ctrl_fd(struct mlx5v_dev *dev);
int mlx5v_msi_eq_ref(struct mlx5v_dev *dev, unsigned int vector, int delta);

#endif /* _MLX5V_DEV_H_ */
