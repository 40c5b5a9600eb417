/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file One model per function per command tree (doc/guides/platform/vfio_emulation.rst,
 * "Several processes"): the process that opens a function first creates its model and hosts
 * it (emu_host.c); the others map the model's BAR pages it serves, and know the container and
 * group fds they receive from it (EAL's secondary processes) by their memfd names.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "emu_host.h"
#include "mlx5v_sim.h"
#include "vfio_preload.h"

/* The containers this process received: another process's, all alike from here. */
static struct vfio_dev_container vfio_dev_remote_c = {
	.remote = 1,
	.iommu_set = 1,
};

/* Host side, in the server thread: the model's BAR pages of the moment, and its MSI-X. */
static int
vfio_dev_host_fill(void *arg, const char *key, struct emu_host_msg *m)
{
	struct mlx5v_sim_bar_page pages[MLX5V_SIM_BAR_PAGES];
	struct vfio_dev_host_info *info = (void *)m->info;
	struct vfio_dev_fn *fn = arg;
	int n, i, ret = 0;

	RTE_BUILD_BUG_ON(sizeof(*info) > EMU_HOST_INFO_LEN);
	RTE_BUILD_BUG_ON(MLX5V_SIM_BAR_PAGES > EMU_HOST_MAX_FDS);
	pthread_mutex_lock(&vfio_dev_lock);
	n = fn->sim != NULL ? mlx5v_sim_bar_export(fn->sim, pages, RTE_DIM(pages)) : -ENODEV;
	if (n < 0) {
		VFIO_RUN_LOG("%s: cannot serve the model: %s", key, strerror(-n));
		ret = n;
		goto out;
	}
	for (i = 0; i < n; i++) {
		m->off[i] = pages[i].bar_off;
		m->fd[i] = pages[i].fd;
	}
	m->nb_fds = n;
	mlx5v_sim_hw_ops.irq_info(&fn->hw, &info->msix);
out:
	pthread_mutex_unlock(&vfio_dev_lock);
	return ret;
}

/*
 * Host side, in a channel's thread: another process stored to the model's pages; answer once
 * the engine took the store (two passes, as after a store trapped here).
 */
static int
vfio_dev_host_sync(void *arg, uint32_t off, uint64_t val)
{
	struct vfio_dev_fn *fn = arg;
	int ret;

	RTE_SET_USED(off);
	RTE_SET_USED(val);
	pthread_mutex_lock(&vfio_dev_lock);
	ret = fn->sim != NULL ? mlx5v_sim_bar_sync(fn->sim) : -ENODEV;
	pthread_mutex_unlock(&vfio_dev_lock);
	return ret;
}

int
vfio_dev_host_serve(struct vfio_dev_fn *fn)
{
	int ret;

	if (fn->served)
		return 0;
	ret = emu_host_serve(fn->d->bdf, vfio_dev_host_fill, vfio_dev_host_sync, fn);
	if (ret == 0)
		fn->served = 1;
	else if (ret != -EADDRINUSE)
		VFIO_RUN_LOG("%s: the model is not reachable by other processes: %s", fn->d->bdf,
			     strerror(-ret));
	/* Without the socket, the model is still this process's own. */
	return ret == -EADDRINUSE ? ret : 0;
}

int
vfio_dev_host_join(struct vfio_dev_fn *fn)
{
	struct emu_host_msg *m;
	int ret;

	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return -ENOMEM;
	ret = emu_host_fetch(fn->d->bdf, m);
	if (ret != 0) {
		free(m);
		if (ret != -ENOENT)
			VFIO_RUN_LOG("%s: the process hosting the model does not answer: %s",
				     fn->d->bdf, strerror(-ret));
		return ret;
	}
	fn->remote = m;
	/* Without the channel the stores are not trapped: plain shared memory (named). */
	fn->conn = emu_host_connect(fn->d->bdf);
	if (fn->conn < 0)
		VFIO_RUN_LOG("%s: no store channel to the process hosting the model: %s",
			     fn->d->bdf, strerror(-fn->conn));
	VFIO_DEV_TRACE("%s: the model of another process (%u pages)", fn->d->bdf, m->nb_fds);
	return 0;
}

void
vfio_dev_host_leave(struct vfio_dev_fn *fn)
{
	unsigned int i;

	if (fn->remote == NULL)
		return;
	for (i = 0; i < fn->remote->nb_fds; i++)
		close(fn->remote->fd[i]);
	if (fn->conn >= 0)
		close(fn->conn);
	free(fn->remote);
	fn->remote = NULL;
}

struct vfio_dev_fd *
vfio_dev_adopt(int fd)
{
	struct vfio_run_dev *devs;
	struct vfio_dev_fd *f;
	unsigned int group, i, n;
	char memfd[64];

	if (emu_host_memfd_name(fd, memfd, sizeof(memfd)) != 0)
		return NULL;
	if (strcmp(memfd, VFIO_DEV_CONTAINER_MEMFD) == 0) {
		f = vfio_dev_add_fd(fd, VFIO_DEV_CONTAINER);
		if (f != NULL)
			f->c = &vfio_dev_remote_c;
		VFIO_DEV_TRACE("fd %d: the container of another process", fd);
		return f;
	}
	if (strncmp(memfd, VFIO_DEV_GROUP_MEMFD, strlen(VFIO_DEV_GROUP_MEMFD)) != 0 ||
	    sscanf(memfd + strlen(VFIO_DEV_GROUP_MEMFD), "%u", &group) != 1)
		return NULL;
	devs = vfio_preload_devs(&n);
	for (i = 0; i < n; i++)
		if (devs[i].group == group)
			break;
	if (i == n)
		return NULL;
	f = vfio_dev_add_fd(fd, VFIO_DEV_GROUP);
	if (f == NULL)
		return NULL;
	/* In the other process's container, whose IOMMU is set. */
	f->fn = &vfio_dev_fns[i];
	f->fn->d = &devs[i];
	if (f->fn->c == NULL) {
		f->fn->c = &vfio_dev_remote_c;
		vfio_dev_remote_c.nb_groups++;
	}
	VFIO_DEV_TRACE("fd %d: group %u of another process", fd, group);
	return f;
}
