/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The preload's store trap on mapped BAR pages (doc/guides/platform/vfio_emulation.rst,
 * "Doorbells"): each store to a doorbell or register page reaches the model before the next
 * one, as posted writes reach silicon one by one.
 *
 * The pages are mapped read-only. A store faults (SIGSEGV); the handler makes the page
 * writable and sets the trap flag, so the store runs and SIGTRAP follows at once; that
 * handler makes the page read-only again and waits until the model's engine has taken the
 * store (mlx5v_sim_bar_sync()). Two stores to one doorbell word can then no longer merge
 * into one in shared memory before the engine looks. x86-64 only (the trap flag); elsewhere
 * the pages stay writable and the engine polls them, so back-to-back stores may merge.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "emu_path.h"
#include "mlx5v_sim.h"
#include "vfio_run.h"

#define VFIO_TRAP_MAX 64
#define VFIO_TRAP_PAGE 4096ul
#define VFIO_TRAP_TF 0x100ul   /* EFLAGS.TF: trap after the next instruction */

struct vfio_trap_range {
	uintptr_t base;
	size_t len;
	struct mlx5v_sim *sim;
};

/* Slots are filled under the lock and read lock-free from the handlers (a released store). */
static struct vfio_trap_range vfio_trap_ranges[VFIO_TRAP_MAX];
static pthread_mutex_t vfio_trap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction vfio_trap_old_segv;
static struct sigaction vfio_trap_old_trap;
static int vfio_trap_installed;
static __thread uintptr_t vfio_trap_page;
static __thread struct mlx5v_sim *vfio_trap_sim;

static struct vfio_trap_range *
vfio_trap_find(uintptr_t a)
{
	unsigned int i;

	for (i = 0; i < VFIO_TRAP_MAX; i++) {
		struct vfio_trap_range *r = &vfio_trap_ranges[i];
		uintptr_t base = __atomic_load_n(&r->base, __ATOMIC_ACQUIRE);

		if (base != 0 && a >= base && a < base + r->len)
			return r;
	}
	return NULL;
}

/* Not ours: what the program had, or the default action (the fault repeats and kills). */
static void
vfio_trap_chain(const struct sigaction *old, int sig, siginfo_t *si, void *uc)
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

static void
vfio_trap_segv(int sig, siginfo_t *si, void *ucv)
{
#ifdef __x86_64__
	ucontext_t *uc = ucv;
	uintptr_t a = (uintptr_t)si->si_addr;
	struct vfio_trap_range *r;

	r = si->si_code == SEGV_ACCERR ? vfio_trap_find(a) : NULL;
	if (r != NULL && vfio_trap_page == 0) {
		vfio_trap_page = a & ~(VFIO_TRAP_PAGE - 1);
		vfio_trap_sim = r->sim;
		mprotect((void *)vfio_trap_page, VFIO_TRAP_PAGE, PROT_READ | PROT_WRITE);
		uc->uc_mcontext.gregs[REG_EFL] |= VFIO_TRAP_TF;
		return;
	}
#endif
	vfio_trap_chain(&vfio_trap_old_segv, sig, si, ucv);
}

static void
vfio_trap_step(int sig, siginfo_t *si, void *ucv)
{
#ifdef __x86_64__
	ucontext_t *uc = ucv;

	if (vfio_trap_page != 0) {
		uc->uc_mcontext.gregs[REG_EFL] &= ~VFIO_TRAP_TF;
		mprotect((void *)vfio_trap_page, VFIO_TRAP_PAGE, PROT_READ);
		/* The store is in the page: the device takes it before the program goes on. */
		mlx5v_sim_bar_sync(vfio_trap_sim);
		vfio_trap_page = 0;
		return;
	}
#endif
	vfio_trap_chain(&vfio_trap_old_trap, sig, si, ucv);
}

int
vfio_preload_trap_add(void *base, size_t len, struct mlx5v_sim *sim)
{
	struct sigaction sa;
	unsigned int i;
	int ret = -ENOSPC;

#ifndef __x86_64__
	RTE_SET_USED(base);
	RTE_SET_USED(len);
	RTE_SET_USED(sim);
	return -ENOTSUP;
#endif
	pthread_mutex_lock(&vfio_trap_lock);
	if (!vfio_trap_installed) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sa.sa_sigaction = vfio_trap_segv;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGSEGV, &sa, &vfio_trap_old_segv);
		sa.sa_sigaction = vfio_trap_step;
		sigaction(SIGTRAP, &sa, &vfio_trap_old_trap);
		vfio_trap_installed = 1;
	}
	for (i = 0; i < VFIO_TRAP_MAX; i++) {
		struct vfio_trap_range *r = &vfio_trap_ranges[i];

		if (r->base != 0)
			continue;
		r->len = len;
		r->sim = sim;
		/* Release: a handler that finds the base finds len and sim. */
		__atomic_store_n(&r->base, (uintptr_t)base, __ATOMIC_RELEASE);
		ret = 0;
		break;
	}
	pthread_mutex_unlock(&vfio_trap_lock);
	return ret;
}

/* Forget the ranges that overlap [a, a + len) or belong to sim (either may be 0/NULL). */
static void
vfio_trap_forget(uintptr_t a, size_t len, const struct mlx5v_sim *sim)
{
	unsigned int i;

	pthread_mutex_lock(&vfio_trap_lock);
	for (i = 0; i < VFIO_TRAP_MAX; i++) {
		struct vfio_trap_range *r = &vfio_trap_ranges[i];

		if (r->base == 0)
			continue;
		if ((sim != NULL && r->sim == sim) ||
		    (len != 0 && a < r->base + r->len && r->base < a + len))
			__atomic_store_n(&r->base, 0, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&vfio_trap_lock);
}

void
vfio_preload_trap_del(void *base)
{
	vfio_trap_forget((uintptr_t)base, 1, NULL);
}

void
vfio_preload_trap_del_sim(const struct mlx5v_sim *sim)
{
	vfio_trap_forget(0, 0, sim);
}

/* An unmapped BAR range is no longer trapped: the address may be reused for anything. */
int
munmap(void *addr, size_t len)
{
	static int (*real_munmap)(void *, size_t);

	if (real_munmap == NULL)
		real_munmap = (int (*)(void *, size_t))emu_path_next("munmap");
	vfio_trap_forget((uintptr_t)addr, len, NULL);
	vfio_preload_dev_unmapped(addr, len);
	return real_munmap(addr, len);
}
