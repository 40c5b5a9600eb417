/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Command queue: post/wait, mailboxes, status->errno, opcode names, dead-device policy. */

#ifndef _MLX5V_CMD_H_
#define _MLX5V_CMD_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_spinlock.h>

#include "mlx5v_dma.h"
#include "mlx5v_api.h"
#include "mlx5v_prm.h"

struct mlx5v_dev;

/**
 * Completion of an asynchronous command (mlx5v_cmd_post_async()): ret as mlx5v_cmd_exec()
 * returns it, out the outbox of the length posted (status, syndrome, then the command's
 * output). Runs on the thread that reaps, with no lock held; it must not issue commands.
 */
typedef void (*mlx5v_cmd_done_cb)(struct mlx5v_dev *dev, void *arg, uint64_t ticket, int ret,
				  const uint8_t *out);

/* ---- internal: command-queue state embedded in struct mlx5v_dev ---- */

/**
 * Blocks of a chain a slot keeps between commands: enough for every command the core
 * sends itself (8 KiB messages); a longer chain is freed once its command completed.
 */
#define MLX5V_CMD_MBOX_KEEP_BLOCKS 16

/**
 * A mailbox chain: nblocks blocks at a stride of MLX5V_MBOX_ALIGN in one buffer, mapped as
 * IOVA-contiguous chunks (a block never straddles a 4 KiB page); each block's `next` is
 * the IOVA of the following block, looked up per chunk, never iova + offset.
 */
struct mlx5v_cmd_mbox {
	uint8_t *va;
	uint64_t iova;           /**< the first block */
	size_t size;
	unsigned int nblocks;
	struct mlx5v_dma_buf dma;
};

enum mlx5v_cmd_slot_state {
	MLX5V_CMD_SLOT_FREE = 0,
	MLX5V_CMD_SLOT_BUSY,      /**< a waiter owns it */
	MLX5V_CMD_SLOT_TIMEDOUT,  /**< the waiter gave up; reserved until the device answers */
	MLX5V_CMD_SLOT_ASYNC,     /**< posted by mlx5v_cmd_post_async(), nobody waits on it */
	MLX5V_CMD_SLOT_REAPING,   /**< an asynchronous command a reaper is taking back */
};

struct mlx5v_cmd_slot {
	uint8_t *ent;                 /**< the 64-byte entry inside the queue page */
	struct mlx5v_cmd_mbox in;
	struct mlx5v_cmd_mbox out;
	uint32_t state;               /**< enum mlx5v_cmd_slot_state, under cmd.lock */
	uint32_t done;                /**< atomic: set by the CMD event handler */
	/**
	 * atomic: set once this command's entry is hardware-owned, cleared when the slot is
	 * taken or given back; a CMD event counts only for a posted command.
	 */
	uint32_t posted;
	/** The waiter takes the command back by its owner bit, in event mode too. */
	uint8_t polled;
	/**
	 * Under cmd.lock: CMD events still to come for commands of this slot completed by their
	 * owner bit before their event was handled; the next events of the slot are theirs.
	 */
	uint8_t eqe_owed;
	uint16_t opcode;
	uint8_t token;
	/* Asynchronous commands (mlx5v_cmd_post_async()), set while the slot is BUSY. */
	uint64_t ticket;
	uint64_t t_post;              /**< when it was posted; its timeout runs from there */
	uint16_t async_outlen;
	mlx5v_cmd_done_cb done_cb;
	void *done_arg;
};

/**
 * An object a create command made after its waiter gave up (the command timed out and
 * completed late): the driver knows nothing of it, so the command layer destroys it
 * (doc/guides/sim/fault_matrix.rst, "Late completions").
 */
struct mlx5v_cmd_orphan {
	uint16_t destroy_op;          /**< the destroy command of the object's family */
	uint16_t uid;                 /**< the creating command's uid, carried to the destroy */
	uint16_t op_mod;              /**< obj_type for general objects, else 0 */
	uint32_t id;                  /**< the id the device returned at out 0x08 */
};

struct mlx5v_cmd {
	uint8_t *queue;               /**< one 4 KiB page, 4 KiB aligned */
	uint64_t queue_iova;
	/** The queue address as read back at init (high word, low word masked): a function
	 * level reset clears it, which the health poll checks. */
	uint32_t iseg_addr_h;
	uint32_t iseg_addr_l;
	unsigned int log_sz;
	unsigned int log_stride;
	unsigned int nslots;
	unsigned int page_slot;
	int events;                   /**< atomic: completion mode */
	int checksum;                 /**< write signatures, verify the device's */
	uint8_t token;                /**< under lock */
	rte_spinlock_t lock;          /**< slot states and the token */
	struct mlx5v_cmd_slot slot[MLX5V_CMD_MAX_SLOTS];
	uint64_t late_completions;
	uint64_t eq_recoveries;
	uint64_t spurious;
	uint64_t polled;              /**< commands completed by their owner bit in event mode */
	uint64_t polled_eqes;         /**< the CMD events of those, handled afterwards */
	uint64_t bad_out_sigs;        /**< output signatures found bad (checksum on) */
	uint64_t next_ticket;         /**< under lock: the last ticket given */
	unsigned int nb_async;        /**< under lock: slots ASYNC or REAPING; read relaxed */
	/** Under lock, read relaxed: CMD events owed by commands taken back by owner bit. */
	unsigned int eqes_owed;
	uint64_t async_posted;        /**< asynchronous commands posted */
	uint64_t async_failed;        /**< of those, completed with an error */
	unsigned int timeouts_in_row; /**< atomic: commands timed out since the last answer */
	/** Objects of late create completions still to destroy, under lock. */
	struct mlx5v_cmd_orphan orphan[MLX5V_CMD_MAX_SLOTS];
	unsigned int nb_orphans;      /**< under lock; read relaxed as a hint */
	int reclaiming;               /**< under lock: one thread destroys orphans at a time */
	uint64_t orphans_destroyed;
	uint64_t orphans_left;        /**< not destroyable here: left to the function teardown */
	struct mlx5v_cmd_stats *stats; /**< MLX5V_CMD_STATS_OPCODES + 1 buckets */
};

/**
 * With recovery=reset, this many commands timing out in a row declare the device dead
 * (MLX5V_DEAD_CMD_TIMEOUTS): a firmware that stopped answering while the health buffer still
 * looks fine (doc/guides/nics/mlx5v.rst, "Recovery").
 */
#define MLX5V_CMD_TIMEOUTS_FATAL 3

/** The longest output an asynchronous command may ask for. */
#define MLX5V_CMD_ASYNC_OUT_MAX 256

/** Flags of mlx5v_cmd_invoke(). */
#define MLX5V_CMD_F_PAGE 0x1   /**< use the page slot (MANAGE_PAGES) */

/* Internal (used by the other core modules). */
int mlx5v_cmd_init(struct mlx5v_dev *dev);
void mlx5v_cmd_cleanup(struct mlx5v_dev *dev);
void mlx5v_cmd_use_events(struct mlx5v_dev *dev);
void mlx5v_cmd_use_polling(struct mlx5v_dev *dev);
int mlx5v_cmd_invoke(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		     size_t outlen, unsigned int flags);
int mlx5v_cmd_exec_flags(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
			 size_t outlen, unsigned int flags);
void mlx5v_cmd_flush(struct mlx5v_dev *dev);

/**
 * Translate an outbox status (prm/mlx5 §3.8) to a negative errno. This is the only
 * status table of the project. NOT_READY (0x07) maps to -EAGAIN, as in the kernel
 * (rdma-core returns EIO); DRIVER_ABORTED (0xfe) maps to -ENOLINK; unknown values -EIO.
 *
 * @return 0 for OK, a negative errno otherwise.
 */
__rte_internal
int mlx5v_cmd_status_to_errno(uint8_t status);

/**
 * Translate a delivery status (status_own >> 1, prm/mlx5 §3.7) to a negative errno.
 * @return 0 for OK, a negative errno otherwise (unknown values -EINVAL).
 */
__rte_internal
int mlx5v_cmd_delivery_to_errno(uint8_t deliv);

/** @return a printable outbox status name. */
__rte_internal
const char *mlx5v_cmd_status_name(uint8_t status);

/**
 * General command entry point, EREMOTEIO semantics (the kernel's mlx5_cmd_do()).
 * Any thread except while holding an EQ lock; may sleep up to the command timeout.
 *
 * @param dev   a loaded device
 * @param in    input mailbox, inlen >= 16 bytes (opcode at DW0[31:16])
 * @param out   output mailbox, outlen >= 8 bytes; zeroed, then filled by the device
 * @return 0 on success; -EREMOTEIO if the device ran the command and answered a status
 *         other than OK: out keeps status (byte 0) and syndrome (bytes 4-7);
 *         -ENOLINK if the device is dead (out holds status 0xfe, syndrome 0xbadd00de) unless
 *         the opcode is destroy-class, which succeeds locally; -ETIMEDOUT if the device did
 *         not answer within the command timeout (the slot stays reserved until it does);
 *         -EAGAIN if every ordinary slot is stalled; -EBADR/-EFAULT/-EIO/-ENOMSG/-EINVAL
 *         for delivery errors; -EBADR also when signatures are on and the device's entry
 *         or output-block signature is bad (reported as delivery status SIGNAT_ERR;
 *         the kernel says -EHWPOISON); -EINVAL/-ENOMEM for bad arguments.
 */
__rte_internal
int mlx5v_cmd_do(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		 size_t outlen);

/**
 * Run a command and translate a failed status with mlx5v_cmd_status_to_errno(). A
 * failure is logged once with opcode name, op_mod, status and syndrome.
 *
 * @return 0 on success or a negative errno (see mlx5v_cmd_do() for transport errors).
 */
__rte_internal
int mlx5v_cmd_exec(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		   size_t outlen);

/**
 * Write signatures on every command from now on, and verify the signatures of the
 * device's output (entry and output blocks); a bad one fails the command with -EBADR
 * (prm/mlx5 §3.4, §3.7). The device must sign too (its cmdif_checksum on).
 */
__rte_internal
void mlx5v_cmd_checksum_enable(struct mlx5v_dev *dev, int on);

#endif /* _MLX5V_CMD_H_ */
