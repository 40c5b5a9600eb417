/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file MSI-X as eventfds: a vector table whose entries are triggered by writing an eventfd. */

#ifndef _HWSIM_IRQ_H_
#define _HWSIM_IRQ_H_

#include <stdint.h>

#include <rte_compat.h>

struct hwsim_irq;

/** Per-vector counters. */
struct hwsim_irq_stats {
	uint64_t raised;     /**< interrupts signalled to the attached fd */
	uint64_t dropped;    /**< raises swallowed by the drop knob */
	uint64_t duplicated; /**< extra signals sent by the duplicate knob */
	uint64_t unattached; /**< raises with no fd attached (lost, as on hardware) */
};

/** Create a table of nvec vectors, none attached. NULL + rte_errno on failure. */
__rte_internal
struct hwsim_irq *hwsim_irq_create(unsigned int nvec);

/** Destroy the table; attached fds are not closed (they belong to the driver). */
__rte_internal
void hwsim_irq_destroy(struct hwsim_irq *irq);

/** @return the number of vectors. */
__rte_internal
unsigned int hwsim_irq_count(const struct hwsim_irq *irq);

/**
 * Attach fd as the trigger of vector vec, or detach with fd = -1 (like VFIO SET_IRQS).
 * @return 0 or -EINVAL (vector out of range).
 */
__rte_internal
int hwsim_irq_attach(struct hwsim_irq *irq, unsigned int vec, int fd);

/** @return the fd attached to vec, or -1. */
__rte_internal
int hwsim_irq_fd(struct hwsim_irq *irq, unsigned int vec);

/**
 * Raise vector vec: add 1 to its eventfd, honouring the drop/duplicate knobs.
 * @return 0 when signalled, -ENODEV when no fd is attached, -EINVAL for a bad vector,
 *         -EAGAIN when a knob dropped it.
 */
__rte_internal
int hwsim_irq_raise(struct hwsim_irq *irq, unsigned int vec);

/** Drop the next n raises of vec (fault knob: lost MSI-X). */
__rte_internal
void hwsim_irq_drop_next(struct hwsim_irq *irq, unsigned int vec, unsigned int n);

/** Signal the next n raises of vec twice (fault knob: spurious MSI-X). */
__rte_internal
void hwsim_irq_dup_next(struct hwsim_irq *irq, unsigned int vec, unsigned int n);

/** Copy the counters of vec. @return 0 or -EINVAL. */
__rte_internal
int hwsim_irq_stats(struct hwsim_irq *irq, unsigned int vec, struct hwsim_irq_stats *st);

#endif /* _HWSIM_IRQ_H_ */
