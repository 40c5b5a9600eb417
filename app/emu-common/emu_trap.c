/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The preloads' store trap on mapped device pages (doc/guides/platform/vfio_emulation.rst,
 * "Doorbells"): each store to a doorbell or register page reaches the model before the next
 * one, as posted writes reach silicon one by one.
 *
 * The pages are mapped read-only. A store faults (SIGSEGV); one at a time over the process,
 * the handler carries out a plain MOV itself through a second mapping (emu_trap_store.c),
 * or makes the page writable and sets the trap flag, so the store runs and SIGTRAP follows at
 * once and that handler makes the page read-only again; then the range's callback hands the
 * store to the model (and waits until it took it). Two stores to one doorbell word can then
 * no longer merge into one in shared memory before the model looks. x86-64 only (the trap
 * flag); elsewhere emu_trap_add() fails with -ENOTSUP. A read trap (emu_trap_add_read(), for a
 * live register such as a clock) is the same on an inaccessible page: the callback fills the
 * page before the access, which runs on the page made readable for one instruction.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "emu_trap.h"

/* Under valgrind (a client request, no cost natively) the trap flag is not honoured. */
#if defined(__has_include) && __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define EMU_TRAP_NO_TF() RUNNING_ON_VALGRIND
#else
#define EMU_TRAP_NO_TF() 0
#endif

#define EMU_TRAP_MAX 64
#define EMU_TRAP_PAGE 4096ul
#define EMU_TRAP_TF 0x100ul   /* EFLAGS.TF: trap after the next instruction */

struct emu_trap_range {
	uintptr_t base;
	size_t len;
	emu_trap_cb cb;
	void *arg;
	int read;       /**< a read trap (emu_trap_add_read()): cb before the access */
};

/* Slots are filled under the lock and read lock-free from the handlers (a released store). */
static struct emu_trap_range emu_trap_ranges[EMU_TRAP_MAX];
static pthread_mutex_t emu_trap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction emu_trap_old_segv;
static struct sigaction emu_trap_old_trap;
static int emu_trap_installed;
static __thread uintptr_t emu_trap_page;
/* The address the store being handed to its callback faulted at. */
static __thread uintptr_t emu_trap_addr_cur;
static __thread const struct emu_trap_range *emu_trap_range_cur;
/* The range's argument when the store faulted (NULL: a function in reset, the store dropped). */
static __thread void *emu_trap_arg_cur;
/* Stores between their fault and their callback: a rebind waits until there is none. */
static unsigned int emu_trap_inflight;
/*
 * From a store's fault to the end of its callback: one trapped store at a time, in the
 * order of their faults (a ticket lock: a thread storing in a tight loop would otherwise
 * take the turn again and again, and another thread's store, e.g. an EQ's consumer index
 * written from the interrupt thread while a lcore posts commands, would wait for ever; on
 * silicon each posted write goes).
 */
static unsigned int emu_trap_next;
static unsigned int emu_trap_serving;

static struct emu_trap_range *
emu_trap_find(uintptr_t a)
{
	unsigned int i;

	for (i = 0; i < EMU_TRAP_MAX; i++) {
		struct emu_trap_range *r = &emu_trap_ranges[i];
		uintptr_t base = __atomic_load_n(&r->base, __ATOMIC_ACQUIRE);

		if (base != 0 && a >= base && a < base + r->len)
			return r;
	}
	return NULL;
}

/* Not ours: what the program had, or the default action (the fault repeats and kills). */
static void
emu_trap_chain(const struct sigaction *old, int sig, siginfo_t *si, void *uc)
{
	if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction != NULL) {
		old->sa_sigaction(sig, si, uc);
	} else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
	} else {
		signal(sig, SIG_DFL);
		if (sig == SIGTRAP)
			raise(sig);
	}
}

/* The store is in the page: the device takes it before the program goes on. */
static void
emu_trap_done(void)
{
	if (emu_trap_arg_cur != NULL)
		emu_trap_range_cur->cb(emu_trap_arg_cur, (void *)emu_trap_page);
	emu_trap_page = 0;
	__atomic_fetch_sub(&emu_trap_inflight, 1, __ATOMIC_SEQ_CST);
	/* Release: the next thread's store sees the model has taken this one. */
	__atomic_fetch_add(&emu_trap_serving, 1, __ATOMIC_RELEASE);
}

/* A trapped read ran: the next trapped access may go. */
static void
emu_trap_read_done(void)
{
	emu_trap_page = 0;
	__atomic_fetch_sub(&emu_trap_inflight, 1, __ATOMIC_SEQ_CST);
	/* Release: pairs with the acquire of the next fault's wait for its turn. */
	__atomic_fetch_add(&emu_trap_serving, 1, __ATOMIC_RELEASE);
}

static void
emu_trap_segv(int sig, siginfo_t *si, void *ucv)
{
#ifdef __x86_64__
	ucontext_t *uc = ucv;
	uintptr_t a = (uintptr_t)si->si_addr;
	struct emu_trap_range *r;
	unsigned int ticket;

	r = si->si_code == SEGV_ACCERR ? emu_trap_find(a) : NULL;
	if (r != NULL && emu_trap_page == 0) {
		/*
		 * Another thread's store may sit in a page still waiting for the model: making the
		 * page writable now would let this store replace that one before the model reads
		 * it (two command doorbells of two slots merged into one), and that thread's
		 * read-only again would fault this store a second time. Wait for its callback.
		 */
		ticket = __atomic_fetch_add(&emu_trap_next, 1, __ATOMIC_RELAXED);
		while (__atomic_load_n(&emu_trap_serving, __ATOMIC_ACQUIRE) != ticket)
			sched_yield();
		/* Counted before the argument is read: emu_trap_rebind() waits for it. */
		__atomic_fetch_add(&emu_trap_inflight, 1, __ATOMIC_SEQ_CST);
		emu_trap_page = a & ~(EMU_TRAP_PAGE - 1);
		emu_trap_addr_cur = a;
		emu_trap_range_cur = r;
		emu_trap_arg_cur = __atomic_load_n(&r->arg, __ATOMIC_SEQ_CST);
		if (r->read) {
			/* The device fills the page, the read runs, the page closes again. */
			if (emu_trap_arg_cur != NULL)
				r->cb(emu_trap_arg_cur, (void *)emu_trap_page);
			mprotect((void *)emu_trap_page, EMU_TRAP_PAGE, PROT_READ);
			if (EMU_TRAP_NO_TF()) {
				/* No step to close it: the page stays as this read found it. */
				emu_trap_read_done();
				return;
			}
			uc->uc_mcontext.gregs[REG_EFL] |= EMU_TRAP_TF;
			return;
		}
		/*
		 * A plain MOV: done here, the page never writable (emu_trap_store.c); under
		 * valgrind (no single step) in the page itself.
		 */
		if (emu_trap_store(uc, a, emu_trap_page, EMU_TRAP_PAGE, EMU_TRAP_NO_TF())) {
			emu_trap_done();
			return;
		}
		mprotect((void *)emu_trap_page, EMU_TRAP_PAGE, PROT_READ | PROT_WRITE);
		uc->uc_mcontext.gregs[REG_EFL] |= EMU_TRAP_TF;
		return;
	}
#endif
	emu_trap_chain(&emu_trap_old_segv, sig, si, ucv);
}

static void
emu_trap_step(int sig, siginfo_t *si, void *ucv)
{
#ifdef __x86_64__
	ucontext_t *uc = ucv;

	if (emu_trap_page != 0) {
		uc->uc_mcontext.gregs[REG_EFL] &= ~EMU_TRAP_TF;
		if (emu_trap_range_cur->read) {
			mprotect((void *)emu_trap_page, EMU_TRAP_PAGE, PROT_NONE);
			emu_trap_read_done();
			return;
		}
		mprotect((void *)emu_trap_page, EMU_TRAP_PAGE, PROT_READ);
		emu_trap_done();
		return;
	}
#endif
	emu_trap_chain(&emu_trap_old_trap, sig, si, ucv);
}

uintptr_t
emu_trap_addr(void)
{
	return emu_trap_addr_cur;
}

static int emu_trap_add_kind(void *base, size_t len, emu_trap_cb cb, void *arg, int read);

int
emu_trap_add(void *base, size_t len, emu_trap_cb cb, void *arg)
{
	return emu_trap_add_kind(base, len, cb, arg, 0);
}

int
emu_trap_add_read(void *base, size_t len, emu_trap_cb cb, void *arg)
{
	return emu_trap_add_kind(base, len, cb, arg, 1);
}

static int
emu_trap_add_kind(void *base, size_t len, emu_trap_cb cb, void *arg, int read)
{
	struct sigaction sa;
	unsigned int i;
	int ret = -ENOSPC;

#ifndef __x86_64__
	(void)base;
	(void)len;
	(void)cb;
	(void)arg;
	return -ENOTSUP;
#endif
	pthread_mutex_lock(&emu_trap_lock);
	if (!emu_trap_installed) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sa.sa_sigaction = emu_trap_segv;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGSEGV, &sa, &emu_trap_old_segv);
		sa.sa_sigaction = emu_trap_step;
		sigaction(SIGTRAP, &sa, &emu_trap_old_trap);
		emu_trap_installed = 1;
	}
	for (i = 0; i < EMU_TRAP_MAX; i++) {
		struct emu_trap_range *r = &emu_trap_ranges[i];

		if (r->base != 0)
			continue;
		r->len = len;
		r->cb = cb;
		r->arg = arg;
		r->read = read;
		/* Release: a handler that finds the base finds len and the callback. */
		__atomic_store_n(&r->base, (uintptr_t)base, __ATOMIC_RELEASE);
		ret = 0;
		break;
	}
	pthread_mutex_unlock(&emu_trap_lock);
	return ret;
}

void
emu_trap_forget(uintptr_t a, size_t len, const void *arg)
{
	unsigned int i;

	pthread_mutex_lock(&emu_trap_lock);
	for (i = 0; i < EMU_TRAP_MAX; i++) {
		struct emu_trap_range *r = &emu_trap_ranges[i];

		if (r->base == 0)
			continue;
		if ((arg != NULL && r->arg == arg) ||
		    (len != 0 && a < r->base + r->len && r->base < a + len))
			__atomic_store_n(&r->base, 0, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&emu_trap_lock);
}

int
emu_trap_rebind(void *base, const void *from, void *to)
{
	unsigned int i;
	int n = 0;

	pthread_mutex_lock(&emu_trap_lock);
	for (i = 0; i < EMU_TRAP_MAX; i++) {
		struct emu_trap_range *r = &emu_trap_ranges[i];

		if (r->base == 0 || (base != NULL && r->base != (uintptr_t)base) ||
		    (base == NULL && r->arg != from))
			continue;
		__atomic_store_n(&r->arg, to, __ATOMIC_SEQ_CST);
		n++;
	}
	pthread_mutex_unlock(&emu_trap_lock);
	/*
	 * A store that faulted before the swap may still call back with the old argument: it is
	 * done with it when no store is in flight (each is one instruction, never blocked).
	 */
	if (n > 0)
		while (__atomic_load_n(&emu_trap_inflight, __ATOMIC_SEQ_CST) != 0)
			sched_yield();
	return n;
}
