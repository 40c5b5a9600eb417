/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The preloads' store trap on mapped device pages (emu_trap.c). */

#ifndef _EMU_TRAP_H_
#define _EMU_TRAP_H_

#include <stddef.h>
#include <stdint.h>

/**
 * A store reached the trapped page at page (read-only again): hand it to the model. Runs in
 * the signal handler of the storing thread.
 */
typedef void (*emu_trap_cb)(void *arg, void *page);

/**
 * Trap stores to the read-only pages in [base, base + len): cb(arg, page) after each.
 * @return 0, -ENOSPC, or -ENOTSUP (no trap on this architecture).
 */
int emu_trap_add(void *base, size_t len, emu_trap_cb cb, void *arg);

/** In a store callback: the address the store faulted at (where it starts). */
uintptr_t emu_trap_addr(void);

/**
 * Trap reads of the inaccessible (PROT_NONE) pages in [base, base + len): cb(arg, page) before
 * each access, to fill the page as a live register reads (the page is readable for that one
 * instruction). @return 0, -ENOSPC, or -ENOTSUP.
 */
int emu_trap_add_read(void *base, size_t len, emu_trap_cb cb, void *arg);

/** Forget the ranges that overlap [a, a + len), or whose callback argument is arg (non-NULL). */
void emu_trap_forget(uintptr_t a, size_t len, const void *arg);

/**
 * Give the ranges at base (NULL: those whose argument is from) the argument to (NULL: stores are
 * let through to the pages and no callback runs, as for a function in reset), once no store is
 * between its fault and its callback. @return how many ranges.
 */
int emu_trap_rebind(void *base, const void *from, void *to);

/**
 * Carry out the store that faulted at addr (in the page at page) in the signal context ucv:
 * a plain MOV written through a writable second mapping of the page, the context's
 * instruction pointer moved past it (emu_trap_store.c).
 * @return 1 if done, 0 if the instruction is not one it decodes (single-step it instead).
 */
int emu_trap_store(void *ucv, uintptr_t addr, uintptr_t page, size_t page_size, int in_place);

#endif /* _EMU_TRAP_H_ */
