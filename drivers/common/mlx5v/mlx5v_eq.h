/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file EQs: create/destroy, poll (owner bit), CI budget, arm, dispatch by subscriber table. */

#ifndef _MLX5V_EQ_H_
#define _MLX5V_EQ_H_

#include <stdint.h>

#include <rte_compat.h>
#include <rte_spinlock.h>

#include "mlx5v_dma.h"
#include "mlx5v_prm.h"

struct mlx5v_dev;

/** Subscribers per event type. */
#define MLX5V_EQ_SUBS_PER_TYPE 4
#define MLX5V_EQ_TYPES 256

/**
 * Event callback. Runs in the thread that polls the EQ (normally the EAL interrupt
 * thread) with the EQ lock held: it must not issue commands or poll EQs; defer such
 * work (e.g. with rte_eal_alarm_set()).
 *
 * @param eqe  the 64-byte EQE, already confirmed software-owned
 * @return 0, or a negative errno (counted and logged; processing continues)
 */
typedef int (*mlx5v_eq_event_cb)(struct mlx5v_dev *dev, uint8_t type, const uint8_t *eqe,
				 void *arg);

/** EQ creation attributes. */
struct mlx5v_eq_attr {
	unsigned int log_size;  /**< nent = 1 << log_size, <= cap log_max_eq_sz */
	unsigned int vector;    /**< MSI-X vector (eqc.intr) */
	uint64_t mask[4];       /**< event types: bit t % 64 of word t / 64 */
};

/** Counters of one EQ. */
struct mlx5v_eq_stats {
	uint64_t eqes;        /**< EQEs consumed */
	uint64_t polls;       /**< mlx5v_eq_poll() passes */
	uint64_t ci_updates;  /**< no-arm CI doorbells (one per 128 EQEs) */
	uint64_t arms;        /**< arm doorbells */
	uint64_t unhandled;   /**< EQEs of a type nobody subscribed to */
	uint64_t cb_errors;   /**< callbacks that returned an error */
};

/** An EQ ring: driver-allocated EAL memory mapped for the device, described by one PAS. */
struct mlx5v_eq_ring {
	uint8_t *buf;            /**< nent EQEs, aligned to size */
	size_t size;             /**< max(nent * EQE size, 4 KiB): a power of two */
	uint64_t iova;           /**< device address of the first EQE */
	uint32_t nent;
	struct mlx5v_dma_buf dma; /**< IOVA-contiguous chunks, one PAS entry each */
};

/** An EQ. */
struct mlx5v_eq {
	struct mlx5v_dev *dev;
	struct mlx5v_eq_ring ring;
	uint32_t log_nent;
	uint32_t eqn;
	uint32_t ci;             /**< consumer index, under lock */
	unsigned int vector;
	uint8_t *db;             /**< UAR + 0x40; + 8 is the no-arm doorbell */
	rte_spinlock_t lock;
	struct mlx5v_eq_stats stats;
};

/** Subscriber table entry (in struct mlx5v_dev). */
struct mlx5v_eq_sub {
	mlx5v_eq_event_cb cb;
	void *arg;
};

/**
 * Create an EQ: allocate the buffer from EAL memory aligned to its size, set every owner
 * byte to 1 before CREATE_EQ, map it through the seam, CREATE_EQ with one PAS, arm.
 * Control thread; not from an event callback.
 *
 * @return the EQ, or NULL with rte_errno set (EINVAL bad attr, ENOMEM, or the errno of
 *         the failed command).
 */
__rte_internal
struct mlx5v_eq *mlx5v_eq_create(struct mlx5v_dev *dev, const struct mlx5v_eq_attr *attr);

/**
 * DESTROY_EQ, unmap and free the buffer. On a dead device the command succeeds locally.
 * @return 0, or the errno of the failed command (the EQ is then still alive).
 */
__rte_internal
int mlx5v_eq_destroy(struct mlx5v_eq *eq);

/**
 * Consume every software-owned EQE, dispatch it, write the CI without arming after each
 * 128, and arm at the end. If another thread is polling, return at once.
 *
 * @return the number of EQEs consumed (>= 0).
 */
__rte_internal
int mlx5v_eq_poll(struct mlx5v_eq *eq);

/** Write the arm doorbell with the current CI. */
__rte_internal
void mlx5v_eq_arm(struct mlx5v_eq *eq);

/** @return the EQ number. */
__rte_internal
uint32_t mlx5v_eq_eqn(const struct mlx5v_eq *eq);

/** Copy the EQ counters. */
__rte_internal
void mlx5v_eq_stats_get(struct mlx5v_eq *eq, struct mlx5v_eq_stats *st);

/**
 * Subscribe cb to event type (0..255) on every EQ of dev.
 * @return 0, -EINVAL, -EEXIST (same cb/arg), -ENOSPC (table full).
 */
__rte_internal
int mlx5v_eq_subscribe(struct mlx5v_dev *dev, unsigned int type, mlx5v_eq_event_cb cb,
		       void *arg);

/** Remove a subscription. @return 0 or -ENOENT. */
__rte_internal
int mlx5v_eq_unsubscribe(struct mlx5v_dev *dev, unsigned int type, mlx5v_eq_event_cb cb,
			 void *arg);

/** The device's async EQ (vector 0), or NULL before bring-up reaches it. */
__rte_internal
struct mlx5v_eq *mlx5v_eq_async(struct mlx5v_dev *dev);

/* Internal. */
int mlx5v_eq_async_create(struct mlx5v_dev *dev);
void mlx5v_eq_async_destroy(struct mlx5v_dev *dev);

/*
 * EQ rings, shared by the core EQs and the DEVX EQs (same library, not exported).
 * Control thread.
 */

/**
 * Allocate a ring of 2^log_nent EQEs on the device socket, aligned to its size, set
 * every owner byte to 1 and map it through the seam as IOVA-contiguous chunks (one, unless
 * IOVA is PA and the ring spans hugepages that are not physically adjacent).
 *
 * @param name  rte_malloc type of the buffer, also named in the log
 * @param r     filled on success
 * @return 0, -ENOMEM, or the error of the DMA mapping; on failure nothing stays allocated
 *         or mapped.
 */
int mlx5v_eq_ring_alloc(struct mlx5v_dev *dev, uint32_t log_nent, const char *name,
			struct mlx5v_eq_ring *r);

/** Unmap and free a ring of mlx5v_eq_ring_alloc(); the device must no longer use it. */
void mlx5v_eq_ring_free(struct mlx5v_dev *dev, struct mlx5v_eq_ring *r);
/**
 * Hand the ring of an EQ whose DESTROY_EQ failed to the device's quarantine
 * (mlx5v_dev_quarantine()); a later mlx5v_eq_ring_free() of it does nothing.
 */
void mlx5v_eq_ring_quarantine(struct mlx5v_dev *dev, struct mlx5v_eq_ring *r);

/** @return the PAS entries r needs: one per IOVA-contiguous chunk (1 with IOVA as VA). */
static inline unsigned int
mlx5v_eq_ring_npas(const struct mlx5v_eq_ring *r)
{
	return r->dma.n;
}

/**
 * Describe r in a create_eq_in mailbox: eqc.log_page_size and PAS[0..npas - 1]. The mailbox
 * must hold RTE_PMD_MLX5V_CREATE_EQ_IN_PAS + 8 * mlx5v_eq_ring_npas(r) bytes.
 */
void mlx5v_eq_ring_pas_set(const struct mlx5v_eq_ring *r, uint8_t *create_eq_in);

#endif /* _MLX5V_EQ_H_ */
