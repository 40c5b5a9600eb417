/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The device engine: one thread that polls a device model until stopped. */

#ifndef _HWSIM_THREAD_H_
#define _HWSIM_THREAD_H_

#include <stdint.h>

#include <rte_compat.h>

struct hwsim_engine;

/**
 * One pass of the device model, called again and again on the engine thread.
 * @return the amount of work done; 0 lets the engine back off and sleep.
 */
typedef int (*hwsim_poll_fn)(void *arg);

/**
 * Create an engine (not started). While idle it sleeps between passes, doubling the
 * sleep from idle_min_us up to idle_max_us; a kick or any work resets it.
 * @return the engine, or NULL with rte_errno set.
 */
__rte_internal
struct hwsim_engine *hwsim_engine_create(const char *name, hwsim_poll_fn fn, void *arg);

/**
 * Keep the engine hot for us microseconds from now: its idle passes yield the CPU instead of
 * sleeping, so that work that comes soon (the next command of a burst) finds it awake
 * rather than waiting for its wake-up. Any thread, typically the model's own poll function.
 */
__rte_internal
void hwsim_engine_hot(struct hwsim_engine *e, uint32_t us);

/** Change the idle back-off (defaults 1 us and 200 us). */
__rte_internal
void hwsim_engine_set_idle(struct hwsim_engine *e, uint32_t idle_min_us, uint32_t idle_max_us);

/** Start the thread. @return 0 or -errno. */
__rte_internal
int hwsim_engine_start(struct hwsim_engine *e);

/** Stop and join the thread; safe to call when not running. */
__rte_internal
void hwsim_engine_stop(struct hwsim_engine *e);

/** Wake the engine now (e.g. after a register write that rings a doorbell). */
__rte_internal
void hwsim_engine_kick(struct hwsim_engine *e);

/**
 * @return the passes of the poll function completed so far. Async-signal-safe (one atomic
 * load): a store made before a call is seen by the device once the count has grown by 2
 * (the pass running at the call may have read the store's location already).
 */
__rte_internal
uint64_t hwsim_engine_passes(const struct hwsim_engine *e);

/** @return 1 if called from this engine's own thread. */
__rte_internal
int hwsim_engine_is_self(const struct hwsim_engine *e);

/** Destroy (stops first). */
__rte_internal
void hwsim_engine_destroy(struct hwsim_engine *e);

/** @return a monotonic time in nanoseconds. */
__rte_internal
uint64_t hwsim_now_ns(void);

#endif /* _HWSIM_THREAD_H_ */
