/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Removing an interrupt callback that may be running on the EAL interrupt thread, shared by
 * the mlx5v and mlx4v common drivers (doc/guides/platform/mlx5v.rst, "Interrupts").
 */

#ifndef _MLXV_INTR_UNREG_H_
#define _MLXV_INTR_UNREG_H_

#include <errno.h>

#include <rte_cycles.h>
#include <rte_interrupts.h>
#include <rte_lcore.h>

/* How long to sleep between two tries while the callback still runs. */
#define MLXV_INTR_UNREG_RETRY_US 100

/**
 * Unregister cb(arg) from ih and wait until a running call of it has returned.
 *
 * rte_intr_callback_unregister_sync() retries in a tight loop that takes the EAL's interrupt
 * lock at every try; the interrupt thread needs that lock to mark the callback finished. On a
 * loaded machine the loop takes the CPU the interrupt thread needs, and under a tool that
 * runs one thread at a time (valgrind) it was seen to never end, always holding the lock when
 * switched out. Sleeping between tries gives the interrupt thread the CPU and the lock.
 * On the interrupt thread itself the callback cannot be running: one plain try.
 *
 * @return the number of callbacks removed, or a negative errno (not -EAGAIN, except on the
 *   interrupt thread).
 */
static inline int
mlxv_intr_callback_unregister_wait(const struct rte_intr_handle *ih, rte_intr_callback_fn cb,
				   void *arg)
{
	int ret;

	if (rte_thread_is_intr())
		return rte_intr_callback_unregister(ih, cb, arg);
	while ((ret = rte_intr_callback_unregister(ih, cb, arg)) == -EAGAIN)
		rte_delay_us_sleep(MLXV_INTR_UNREG_RETRY_US);
	return ret;
}

#endif /* _MLXV_INTR_UNREG_H_ */
