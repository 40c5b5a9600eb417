/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file MSI-X vectors as eventfds: vector 0 = control (EAL interrupt thread), 1..n-1 = users.
 * Only the vectors in use are enabled (doc/guides/nics/running_on_hardware.rst, "MSI-X").
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_interrupts.h>

#include "mlx5v_dev.h"
#include "mlx5v_log.h"
#include "mlxv_intr_unreg.h"

/* The eqc.intr field holds 12 bits (prm/mlx5 §6.2). */
#define MLX5V_MSI_MAX_VEC 2048

int
mlx5v_msi_init(struct mlx5v_dev *dev)
{
	struct mlx5v_msi *msi = &dev->msi;
	struct mlx5v_hw_irq_info info;
	unsigned int v;
	int ret;

	rte_spinlock_init(&msi->lock);
	msi->enabled = 0;
	ret = mlx5v_hw_irq_info(mlx5v_dev_hw(dev), &info);
	if (ret < 0) {
		MLX5V_LOG(ERR, "%s: cannot read the MSI-X information: %s", dev->name,
			  strerror(-ret));
		return ret;
	}
	/* Every vector is signalled through an eventfd: without that, there are no vectors. */
	if (!(info.flags & MLX5V_HW_IRQ_EVENTFD)) {
		MLX5V_LOG(ERR, "%s: MSI-X cannot signal eventfds (no VFIO_IRQ_INFO_EVENTFD)",
			  dev->name);
		return -ENOTSUP;
	}
	msi->count = RTE_MIN(info.count, (unsigned int)MLX5V_MSI_MAX_VEC);
	msi->noresize = !!(info.flags & MLX5V_HW_IRQ_NORESIZE);
	if (msi->count < 1) {
		MLX5V_LOG(ERR, "%s: the device has no MSI-X vector", dev->name);
		return -ENOTSUP;
	}
	msi->fd = calloc(msi->count, sizeof(*msi->fd));
	msi->eq_refs = calloc(msi->count, sizeof(*msi->eq_refs));
	if (msi->fd == NULL || msi->eq_refs == NULL) {
		free(msi->fd);
		free(msi->eq_refs);
		msi->fd = NULL;
		msi->eq_refs = NULL;
		return -ENOMEM;
	}
	for (v = 0; v < msi->count; v++)
		msi->fd[v] = -1;
	return 0;
}

/* Enable vectors 0 .. n - 1 with the recorded triggers (MSI-X off before). */
static int
mlx5v_msi_enable(struct mlx5v_dev *dev, unsigned int n)
{
	int ret = mlx5v_hw_irq_set(mlx5v_dev_hw(dev), 0, n, dev->msi.fd);

	if (ret == 0)
		dev->msi.enabled = n;
	return ret;
}

/*
 * Make fd (-1: none) the trigger of vector v; msi->lock held, or the control path alone.
 * Only the vectors in use are enabled, vector 0 (the driver's) and the user vectors up to the
 * highest attached one, rather than all 2048, which would take host interrupt vectors for
 * nothing. A vector beyond the enabled ones is added by one SET_IRQS when VFIO resizes
 * (dynamic MSI-X); otherwise MSI-X is switched off and enabled again with the larger count,
 * and as interrupts raised in that gap are lost, every trigger is signalled once: a spurious
 * wake-up only makes its handler poll an EQ (prm/mlx5 §6.12). MSI-X goes off with the last
 * trigger (doc/guides/nics/running_on_hardware.rst, "MSI-X").
 */
static int
mlx5v_msi_trigger(struct mlx5v_dev *dev, unsigned int v, int fd)
{
	struct mlx5v_msi *msi = &dev->msi;
	struct mlx5v_hw *hw = mlx5v_dev_hw(dev);
	unsigned int before = msi->enabled;
	uint64_t one = 1;
	unsigned int i;
	int old = msi->fd[v];
	int ret;

	if (v < msi->enabled || (msi->enabled > 0 && !msi->noresize && fd >= 0)) {
		ret = mlx5v_hw_irq_set(hw, v, 1, &fd);
		if (ret < 0) {
			MLX5V_LOG(ERR, "%s: cannot set the trigger of MSI-X vector %u: %s",
				  dev->name, v, strerror(-ret));
			return ret;
		}
		msi->fd[v] = fd;
		msi->enabled = RTE_MAX(msi->enabled, v + 1);
	} else if (fd >= 0) {
		msi->fd[v] = fd;
		if (before > 0) {
			mlx5v_hw_irq_set(hw, 0, 0, NULL);
			msi->enabled = 0;
		}
		ret = mlx5v_msi_enable(dev, v + 1);
		if (ret < 0) {
			MLX5V_LOG(ERR, "%s: cannot enable %u MSI-X vectors: %s", dev->name, v + 1,
				  strerror(-ret));
			msi->fd[v] = old;
			if (before > 0 && mlx5v_msi_enable(dev, before) < 0)
				MLX5V_LOG(ERR, "%s: MSI-X vectors lost", dev->name);
			return ret;
		}
		for (i = 0; before > 0 && i < v; i++)
			if (msi->fd[i] >= 0 && write(msi->fd[i], &one, sizeof(one)) < 0)
				MLX5V_LOG(DEBUG, "%s: MSI-X vector %u: eventfd: %s", dev->name, i,
					  strerror(errno));
	} else {
		/* A vector never enabled has no trigger to detach. */
		msi->fd[v] = -1;
	}
	if (fd < 0 && msi->enabled > 0) {
		for (i = 0; i < msi->enabled && msi->fd[i] < 0; i++)
			;
		if (i == msi->enabled && mlx5v_hw_irq_set(hw, 0, 0, NULL) == 0)
			msi->enabled = 0;
	}
	return 0;
}

void
mlx5v_msi_cleanup(struct mlx5v_dev *dev)
{
	struct mlx5v_msi *msi = &dev->msi;
	unsigned int v;

	if (msi->fd == NULL)
		return;
	/* MSI-X off first, then close the user vectors the consumer forgot. */
	if (msi->enabled > 0)
		mlx5v_hw_irq_set(mlx5v_dev_hw(dev), 0, 0, NULL);
	msi->enabled = 0;
	for (v = 1; v < msi->count; v++) {
		if (msi->fd[v] < 0)
			continue;
		MLX5V_LOG(WARNING, "%s: MSI-X vector %u still allocated at cleanup", dev->name, v);
		close(msi->fd[v]);
		msi->fd[v] = -1;
	}
	free(msi->fd);
	free(msi->eq_refs);
	msi->fd = NULL;
	msi->eq_refs = NULL;
	msi->count = 0;
}

unsigned int
mlx5v_msi_count(struct mlx5v_dev *dev)
{
	return dev->msi.count;
}

int
mlx5v_msi_info_get(struct mlx5v_dev *dev, unsigned int vector, struct mlx5v_msi_info *info)
{
	struct mlx5v_msi *msi;

	if (dev == NULL || info == NULL)
		return -EINVAL;
	msi = &dev->msi;
	rte_spinlock_lock(&msi->lock);
	if (msi->fd == NULL || vector >= msi->count) {
		rte_spinlock_unlock(&msi->lock);
		return -EINVAL;
	}
	info->fd = msi->fd[vector];
	info->eq_refs = msi->eq_refs[vector];
	rte_spinlock_unlock(&msi->lock);
	return 0;
}

int
mlx5v_msi_ctrl_fd(struct mlx5v_dev *dev)
{
	return dev->msi.fd != NULL ? dev->msi.fd[0] : -1;
}

/*
 * Vector 0 is the driver's: the async EQ interrupts here and EAL's interrupt thread runs
 * cb. The handle is EXT-type on our own eventfd; cb must drain the fd (prm/mlx5 §11.9).
 */
int
mlx5v_msi_ctrl_start(struct mlx5v_dev *dev, void (*cb)(void *arg), void *arg)
{
	struct mlx5v_msi *msi = &dev->msi;
	struct rte_intr_handle *ih;
	int efd, ret;

	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0)
		return -errno;
	rte_spinlock_lock(&msi->lock);
	ret = mlx5v_msi_trigger(dev, 0, efd);
	rte_spinlock_unlock(&msi->lock);
	if (ret < 0) {
		MLX5V_LOG(ERR, "%s: cannot attach MSI-X vector 0: %s", dev->name, strerror(-ret));
		goto err_close;
	}
	ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (ih == NULL) {
		ret = -ENOMEM;
		goto err_detach;
	}
	if (rte_intr_type_set(ih, RTE_INTR_HANDLE_EXT) != 0 || rte_intr_fd_set(ih, efd) != 0) {
		ret = -EINVAL;
		goto err_ih_free;
	}
	ret = rte_intr_callback_register(ih, cb, arg);
	if (ret < 0) {
		MLX5V_LOG(ERR, "%s: cannot register the control interrupt: %s",
			  dev->name, strerror(-ret));
		goto err_ih_free;
	}
	msi->ctrl_ih = ih;
	return 0;

err_ih_free:
	rte_intr_instance_free(ih);
err_detach:
	rte_spinlock_lock(&msi->lock);
	mlx5v_msi_trigger(dev, 0, -1);
	rte_spinlock_unlock(&msi->lock);
err_close:
	close(efd);
	return ret;
}

void
mlx5v_msi_ctrl_stop(struct mlx5v_dev *dev, void (*cb)(void *arg), void *arg)
{
	struct mlx5v_msi *msi = &dev->msi;
	int efd;

	if (msi->ctrl_ih == NULL)
		return;
	/* From another thread, wait until a running callback returns. */
	mlxv_intr_callback_unregister_wait(msi->ctrl_ih, cb, arg);
	rte_intr_instance_free(msi->ctrl_ih);
	msi->ctrl_ih = NULL;
	efd = msi->fd[0];
	rte_spinlock_lock(&msi->lock);
	mlx5v_msi_trigger(dev, 0, -1);
	rte_spinlock_unlock(&msi->lock);
	close(efd);
}

int
mlx5v_msi_alloc(struct mlx5v_dev *dev, int *fd)
{
	struct mlx5v_msi *msi;
	unsigned int v;
	int efd, ret;

	if (dev == NULL || fd == NULL)
		return -EINVAL;
	msi = &dev->msi;
	rte_spinlock_lock(&msi->lock);
	/* The lowest free vector; 0 is the control vector, so the first answer is 1. */
	for (v = 1; v < msi->count; v++)
		if (msi->fd[v] < 0)
			break;
	if (v >= msi->count) {
		rte_spinlock_unlock(&msi->lock);
		return -ENOSPC;
	}
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0) {
		ret = -errno;
		rte_spinlock_unlock(&msi->lock);
		return ret;
	}
	ret = mlx5v_msi_trigger(dev, v, efd);
	if (ret < 0) {
		rte_spinlock_unlock(&msi->lock);
		close(efd);
		return ret;
	}
	rte_spinlock_unlock(&msi->lock);
	*fd = efd;
	return (int)v;
}

int
mlx5v_msi_free(struct mlx5v_dev *dev, unsigned int vector, int fd)
{
	struct mlx5v_msi *msi;
	int ret;

	if (dev == NULL)
		return -EINVAL;
	msi = &dev->msi;
	rte_spinlock_lock(&msi->lock);
	if (vector == 0 || vector >= msi->count || msi->fd[vector] != fd || fd < 0) {
		rte_spinlock_unlock(&msi->lock);
		return -EINVAL;
	}
	/* rdma-core frees a vector under a live EQ (prm/mlx5 §12 #10); refuse instead. */
	if (msi->eq_refs[vector] > 0) {
		rte_spinlock_unlock(&msi->lock);
		return -EBUSY;
	}
	ret = mlx5v_msi_trigger(dev, vector, -1);
	if (ret < 0) {
		rte_spinlock_unlock(&msi->lock);
		return ret;
	}
	rte_spinlock_unlock(&msi->lock);
	close(fd);
	return 0;
}

/* Count EQs per vector; an EQ may only use vector 0 or an allocated vector. */
int
mlx5v_msi_eq_ref(struct mlx5v_dev *dev, unsigned int vector, int delta)
{
	struct mlx5v_msi *msi = &dev->msi;
	int ret = 0;

	rte_spinlock_lock(&msi->lock);
	if (vector >= msi->count || (delta > 0 && msi->fd[vector] < 0))
		ret = -EINVAL;
	else if (delta < 0 && msi->eq_refs[vector] > 0)
		msi->eq_refs[vector]--;
	else if (delta > 0)
		msi->eq_refs[vector]++;
	rte_spinlock_unlock(&msi->lock);
	return ret;
}
