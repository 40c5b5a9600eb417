/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Watched MMIO pages: doorbell pages that software writes with plain stores, and
 * registers the device publishes into them.
 */

#ifndef _HWSIM_MMIO_H_
#define _HWSIM_MMIO_H_

#include <stdint.h>

#include <rte_compat.h>

#define HWSIM_MMIO_PAGE_SIZE 4096u

/** One 4 KiB page of simulated BAR space that the device engine watches. */
struct hwsim_mmio_page;

/**
 * Called from the engine thread for each doorbell word found nonzero.
 * @param raw the word exactly as software stored it (device byte order).
 */
typedef void (*hwsim_mmio_cb)(void *arg, uint32_t off, uint64_t raw);

/**
 * Called from the engine thread for a published register (hwsim_mmio_reg()).
 * @return the word to publish, in device byte order.
 */
typedef uint32_t (*hwsim_mmio_rd_cb)(void *arg, uint32_t off);

/** Allocate a zeroed, page-aligned page (not DMA memory). NULL + rte_errno on failure. */
__rte_internal
struct hwsim_mmio_page *hwsim_mmio_page_alloc(void);

/** Free a page and its watches. */
__rte_internal
void hwsim_mmio_page_free(struct hwsim_mmio_page *pg);

/** @return the page's address, which software writes doorbells into. */
__rte_internal
void *hwsim_mmio_page_addr(struct hwsim_mmio_page *pg);

/**
 * @return the memfd behind the page (offset 0, HWSIM_MMIO_PAGE_SIZE bytes): mapping it
 * MAP_SHARED gives another view of the same page. The page keeps it; do not close it.
 */
__rte_internal
int hwsim_mmio_page_fd(struct hwsim_mmio_page *pg);

/**
 * A page of its own for another process to store into, with pg's watches (offsets, idle
 * values, callbacks and their arguments) as they are now, and its own memfd
 * (hwsim_mmio_page_fd()). Stores of two processes to the same word of pg and of an alias
 * never meet in one word, so the engine takes both, as a device takes every posted write of
 * every process; the model polls the alias as it polls pg. Free it with
 * hwsim_mmio_page_free(), once hwsim_mmio_page_retire() says no process maps it any more.
 * @return the alias, or NULL + rte_errno.
 */
__rte_internal
struct hwsim_mmio_page *hwsim_mmio_page_alias(struct hwsim_mmio_page *pg);

/**
 * Whether an alias can go: no process but the model's maps it any more. The page's own
 * mapping is dropped for the look and made again if another remains, so its address
 * changes and no other thread may poll it meanwhile; poll it just before, as stores still
 * in it are lost once it is retired. An alias never mapped by another since it was made
 * may be on its way to its process (its fd in flight): it stays, unless fresh_ok.
 * @return 0: retired, only hwsim_mmio_page_free() remains; -EBUSY: another process maps
 * it; -EAGAIN: never mapped by another (!fresh_ok); -EINVAL: not an alias; other -errno:
 * the page has no mapping of its own left (its polls do nothing), free it.
 */
__rte_internal
int hwsim_mmio_page_retire(struct hwsim_mmio_page *pg, int fresh_ok);

/**
 * Watch the naturally aligned 4- or 8-byte word at off.
 * @return 0, -EINVAL (bad width or alignment), -ENOSPC (too many watches), -EEXIST.
 */
__rte_internal
int hwsim_mmio_watch(struct hwsim_mmio_page *pg, uint32_t off, uint32_t width,
		     hwsim_mmio_cb cb, void *arg);

/**
 * Watch a word as hwsim_mmio_watch() does, but with idle (truncated to the width) as the
 * value between two stores instead of 0: the word is set to it now, and a store of it is
 * invisible. A model whose doorbells can be 0 picks a value no doorbell can take.
 * @return as hwsim_mmio_watch().
 */
__rte_internal
int hwsim_mmio_watch_idle(struct hwsim_mmio_page *pg, uint32_t off, uint32_t width,
			  uint64_t idle, hwsim_mmio_cb cb, void *arg);

/**
 * Publish the aligned 32-bit register at off: every poll writes rd() into the word, and a
 * word found different from the value last published is a software store, passed to wr
 * (may be NULL: a read-only register) before rd() is asked again. For a register that
 * software reads with plain loads, as a host reads a mapped BAR; its value is as fresh as
 * the last poll. Only one thread may poll a page that has registers.
 * @return as hwsim_mmio_watch().
 */
__rte_internal
int hwsim_mmio_reg(struct hwsim_mmio_page *pg, uint32_t off, hwsim_mmio_rd_cb rd,
		   hwsim_mmio_cb wr, void *arg);

/**
 * Consume every watched word: an atomic exchange with its idle value (0 unless
 * hwsim_mmio_watch_idle() set another), so each store is seen once; the callback runs for
 * each word that differed. A store of the idle value is therefore invisible: device models
 * pick an idle value, or hand out object numbers, that no doorbell can take.
 * @return the number of callbacks run.
 */
__rte_internal
int hwsim_mmio_poll(struct hwsim_mmio_page *pg);

#endif /* _HWSIM_MMIO_H_ */
