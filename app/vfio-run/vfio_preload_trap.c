/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The VFIO preload's store trap on mapped BAR pages (doc/guides/platform/vfio_emulation.rst,
 * "Doorbells"): emu_trap.c traps each store, and the model's engine takes it
 * (mlx5v_sim_bar_sync()) before the program goes on.
 */

#include <stdint.h>
#include <sys/mman.h>

#include "emu_host.h"
#include "emu_path.h"
#include "emu_trap.h"
#include "mlx5v_sim.h"
#include "vfio_run.h"

static void
vfio_trap_sync(void *arg, void *page)
{
	(void)page;
	mlx5v_sim_bar_sync(arg);
}

int
vfio_preload_trap_add(void *base, size_t len, struct mlx5v_sim *sim)
{
	/* A range still trapped at base (the BAR mapped again in place) takes sim. */
	if (emu_trap_rebind(base, NULL, sim) > 0)
		return 0;
	return emu_trap_add(base, len, vfio_trap_sync, sim);
}

/* A store to the pages of a model another process hosts: that host's engine takes it first. */
static void
vfio_trap_remote_sync(void *arg, void *page)
{
	(void)page;
	emu_host_store((int)(intptr_t)arg, 0, 0);
}

int
vfio_preload_trap_add_remote(void *base, size_t len, int conn)
{
	return emu_trap_add(base, len, vfio_trap_remote_sync, (void *)(intptr_t)conn);
}

void
vfio_preload_trap_del(void *base)
{
	emu_trap_forget((uintptr_t)base, 1, NULL);
}

void
vfio_preload_trap_del_sim(const struct mlx5v_sim *sim)
{
	emu_trap_forget(0, 0, sim);
}

/* An unmapped BAR range is no longer trapped: the address may be reused for anything. */
int
munmap(void *addr, size_t len)
{
	static int (*real_munmap)(void *, size_t);

	if (real_munmap == NULL)
		real_munmap = (int (*)(void *, size_t))emu_path_next("munmap");
	emu_trap_forget((uintptr_t)addr, len, NULL);
	vfio_preload_dev_unmapped(addr, len);
	return real_munmap(addr, len);
}
