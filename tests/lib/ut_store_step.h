/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Store stepping: the pages of a ring made read-only, so that every store of the
 * calling thread into them faults; the fault handler runs a callback (a device model looking
 * at the ring as it stands before the store), lets the store through and single-steps it
 * (x86-64 trap flag), then the pages are read-only again. A test sees a producer's stores one
 * by one, in program order, as a device racing it could: what the order of the stores decides
 * becomes deterministic. x86-64 Linux only (ut_step_supported()); slow, for a few WQEs.
 * Include after test.h.
 */

#ifndef _UT_STORE_STEP_H_
#define _UT_STORE_STEP_H_

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__linux__)
#define UT_STEP_SUPPORTED 1
/* EFLAGS.TF: a debug trap after the next instruction. */
#define UT_STEP_TF 0x100
#else
#define UT_STEP_SUPPORTED 0
#endif

/** What the handlers share: one watched range per process, set by ut_step_begin(). */
struct ut_step {
	uintptr_t lo, hi;             /**< watched pages [lo, hi) */
	void (*before)(void *arg);    /**< run before each store into them */
	void *arg;
	volatile uint64_t stores;     /**< stores seen */
	struct sigaction old_segv, old_trap;
};

static struct ut_step ut_step_g;

static inline int
ut_step_supported(void)
{
	return UT_STEP_SUPPORTED;
}

#if UT_STEP_SUPPORTED
static void
ut_step_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t a = (uintptr_t)si->si_addr;

	/* Not ours: the default action at the faulting instruction, a real crash. */
	if (a < ut_step_g.lo || a >= ut_step_g.hi) {
		sigaction(sig, &ut_step_g.old_segv, NULL);
		return;
	}
	ut_step_g.before(ut_step_g.arg);
	ut_step_g.stores++;
	mprotect((void *)ut_step_g.lo, ut_step_g.hi - ut_step_g.lo, PROT_READ | PROT_WRITE);
	uc->uc_mcontext.gregs[REG_EFL] |= UT_STEP_TF;
}

static void
ut_step_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	RTE_SET_USED(sig);
	RTE_SET_USED(si);
	uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)UT_STEP_TF;
	mprotect((void *)ut_step_g.lo, ut_step_g.hi - ut_step_g.lo, PROT_READ);
}
#endif

/**
 * Watch the whole pages inside [base, base + len): from now on before(arg) runs before each
 * store into them. @return the bytes watched (0: no whole page inside), or -1.
 */
static inline long
ut_step_begin(void *base, size_t len, void (*before)(void *arg), void *arg)
{
#if UT_STEP_SUPPORTED
	long pg = sysconf(_SC_PAGESIZE);
	struct sigaction sa;

	ut_step_g.lo = RTE_ALIGN_CEIL((uintptr_t)base, (uintptr_t)pg);
	ut_step_g.hi = RTE_ALIGN_FLOOR((uintptr_t)base + len, (uintptr_t)pg);
	if (ut_step_g.hi <= ut_step_g.lo)
		return 0;
	ut_step_g.before = before;
	ut_step_g.arg = arg;
	ut_step_g.stores = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sa.sa_sigaction = ut_step_segv;
	if (sigaction(SIGSEGV, &sa, &ut_step_g.old_segv) != 0)
		return -1;
	sa.sa_sigaction = ut_step_trap;
	if (sigaction(SIGTRAP, &sa, &ut_step_g.old_trap) != 0 ||
	    mprotect((void *)ut_step_g.lo, ut_step_g.hi - ut_step_g.lo, PROT_READ) != 0)
		return -1;
	return (long)(ut_step_g.hi - ut_step_g.lo);
#else
	RTE_SET_USED(base);
	RTE_SET_USED(len);
	RTE_SET_USED(before);
	RTE_SET_USED(arg);
	return -1;
#endif
}

/** Stop watching: the pages writable again, the handlers as they were. @return stores seen. */
static inline uint64_t
ut_step_end(void)
{
#if UT_STEP_SUPPORTED
	mprotect((void *)ut_step_g.lo, ut_step_g.hi - ut_step_g.lo, PROT_READ | PROT_WRITE);
	sigaction(SIGSEGV, &ut_step_g.old_segv, NULL);
	sigaction(SIGTRAP, &ut_step_g.old_trap, NULL);
#endif
	return ut_step_g.stores;
}

#endif /* _UT_STORE_STEP_H_ */
