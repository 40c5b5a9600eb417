/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file rte_pmd_mlx5v_devx_*: thin wrappers keeping rdma-core's errno contract. */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_string_fns.h>

#include "mlx5v_dev.h"
#include "mlx5v_devx.h"
#include "rte_pmd_mlx5v.h"

/*
 * rdma-core's contract (contributing/style §4): pointer calls return NULL with errno set,
 * int calls return a positive errno. We also set rte_errno, so DPDK-style callers work.
 *
 * Handles are passed down as they are: a public object is the first member of the
 * internal one (same address), and a device handle is the core device. The internal
 * calls look every handle up in the DEVX registry by address before reading it, so a
 * stale handle (double destroy/free, or any call after the device was removed) gives
 * EINVAL (objects) or ENODEV (devices), never a use after free. Object addresses are never
 * reused, so a stale object handle never names a newer object.
 */
static void *
mlx5v_api_null(int err)
{
	errno = err;
	rte_errno = err;
	return NULL;
}

static int
mlx5v_api_ret(int ret)
{
	if (ret < 0) {
		errno = -ret;
		rte_errno = -ret;
		return -ret;
	}
	return 0;
}

struct rte_pmd_mlx5v_dev *
rte_pmd_mlx5v_dev_get(const char *eal_device_name)
{
	struct mlx5v_dev *dev = mlx5v_devx_dev_get(eal_device_name);

	if (dev == NULL)
		return mlx5v_api_null(rte_errno);
	/* The handle is the core device itself, opaque to the application. */
	return (struct rte_pmd_mlx5v_dev *)dev;
}

struct rte_pmd_mlx5v_msi_vector *
rte_pmd_mlx5v_devx_alloc_msi_vector(struct rte_pmd_mlx5v_dev *dev)
{
	struct mlx5v_devx_msi *msi = mlx5v_devx_msi_alloc((struct mlx5v_dev *)dev);

	if (msi == NULL)
		return mlx5v_api_null(rte_errno);
	return &msi->pub;
}

int
rte_pmd_mlx5v_devx_free_msi_vector(struct rte_pmd_mlx5v_msi_vector *msi)
{
	/* Validated by address in the registry before anything reads it. */
	return mlx5v_api_ret(mlx5v_devx_msi_free((struct mlx5v_devx_msi *)msi));
}

struct rte_pmd_mlx5v_eq *
rte_pmd_mlx5v_devx_create_eq(struct rte_pmd_mlx5v_dev *dev, const void *in, size_t inlen,
			     void *out, size_t outlen)
{
	struct mlx5v_devx_eq *eq;

	eq = mlx5v_devx_eq_create((struct mlx5v_dev *)dev, in, inlen, out, outlen);
	if (eq == NULL)
		return mlx5v_api_null(rte_errno);
	return &eq->pub;
}

int
rte_pmd_mlx5v_devx_destroy_eq(struct rte_pmd_mlx5v_eq *eq)
{
	return mlx5v_api_ret(mlx5v_devx_eq_destroy((struct mlx5v_devx_eq *)eq));
}

int
rte_pmd_mlx5v_devx_query_eqn(struct rte_pmd_mlx5v_dev *dev, uint32_t vector, uint32_t *eqn)
{
	return mlx5v_api_ret(mlx5v_devx_query_eqn((struct mlx5v_dev *)dev, vector, eqn));
}

int
rte_pmd_mlx5v_devx_general_cmd(struct rte_pmd_mlx5v_dev *dev, const void *in, size_t inlen,
			       void *out, size_t outlen)
{
	return mlx5v_api_ret(mlx5v_devx_general_cmd((struct mlx5v_dev *)dev, in, inlen, out,
						    outlen));
}

struct rte_pmd_mlx5v_uar *
rte_pmd_mlx5v_devx_alloc_uar(struct rte_pmd_mlx5v_dev *dev)
{
	struct mlx5v_devx_uar *uar = mlx5v_devx_uar_alloc((struct mlx5v_dev *)dev);

	if (uar == NULL)
		return mlx5v_api_null(rte_errno);
	return &uar->pub;
}

int
rte_pmd_mlx5v_devx_free_uar(struct rte_pmd_mlx5v_uar *uar)
{
	return mlx5v_api_ret(mlx5v_devx_uar_free((struct mlx5v_devx_uar *)uar));
}

int
rte_pmd_mlx5v_devx_dma_map(struct rte_pmd_mlx5v_dev *dev, void *addr, size_t size,
			   uint64_t *iova)
{
	return mlx5v_api_ret(mlx5v_devx_dma_map((struct mlx5v_dev *)dev, addr, size, iova));
}

int
rte_pmd_mlx5v_devx_dma_unmap(struct rte_pmd_mlx5v_dev *dev, void *addr, size_t size)
{
	return mlx5v_api_ret(mlx5v_devx_dma_unmap((struct mlx5v_dev *)dev, addr, size));
}

/* ---- device events (recovery) ---- */

struct mlx5v_api_event_cb {
	TAILQ_ENTRY(mlx5v_api_event_cb) next;
	char name[RTE_DEV_NAME_MAX_LEN];
	rte_pmd_mlx5v_dev_event_cb cb;
	void *arg;
};

/* Process-local, by device name: a registration outlives recoveries and removals. */
static TAILQ_HEAD(, mlx5v_api_event_cb) mlx5v_api_event_cbs =
	TAILQ_HEAD_INITIALIZER(mlx5v_api_event_cbs);
/* Recursive: a callback may register or unregister. */
static pthread_mutex_t mlx5v_api_event_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static struct mlx5v_api_event_cb *
mlx5v_api_event_find(const char *name, rte_pmd_mlx5v_dev_event_cb cb, void *arg)
{
	struct mlx5v_api_event_cb *e;

	TAILQ_FOREACH(e, &mlx5v_api_event_cbs, next)
		if (e->cb == cb && e->arg == arg && strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

int
rte_pmd_mlx5v_dev_event_callback_register(const char *eal_device_name,
					  rte_pmd_mlx5v_dev_event_cb cb, void *arg)
{
	struct mlx5v_api_event_cb *e;
	int ret = 0;

	if (eal_device_name == NULL || cb == NULL ||
	    strlen(eal_device_name) >= RTE_DEV_NAME_MAX_LEN)
		return mlx5v_api_ret(-EINVAL);
	pthread_mutex_lock(&mlx5v_api_event_lock);
	if (mlx5v_api_event_find(eal_device_name, cb, arg) != NULL) {
		ret = -EEXIST;
	} else {
		e = calloc(1, sizeof(*e));
		if (e == NULL) {
			ret = -ENOMEM;
		} else {
			strlcpy(e->name, eal_device_name, sizeof(e->name));
			e->cb = cb;
			e->arg = arg;
			TAILQ_INSERT_TAIL(&mlx5v_api_event_cbs, e, next);
		}
	}
	pthread_mutex_unlock(&mlx5v_api_event_lock);
	return mlx5v_api_ret(ret);
}

int
rte_pmd_mlx5v_dev_event_callback_unregister(const char *eal_device_name,
					    rte_pmd_mlx5v_dev_event_cb cb, void *arg)
{
	struct mlx5v_api_event_cb *e;

	if (eal_device_name == NULL || cb == NULL)
		return mlx5v_api_ret(-EINVAL);
	pthread_mutex_lock(&mlx5v_api_event_lock);
	e = mlx5v_api_event_find(eal_device_name, cb, arg);
	if (e != NULL)
		TAILQ_REMOVE(&mlx5v_api_event_cbs, e, next);
	pthread_mutex_unlock(&mlx5v_api_event_lock);
	free(e);
	return mlx5v_api_ret(e != NULL ? 0 : -ENOENT);
}

void
mlx5v_devx_user_event(struct mlx5v_dev *dev, int ev)
{
	enum rte_pmd_mlx5v_dev_event uev;
	struct mlx5v_api_event_cb *e, *next;

	if (ev == MLX5V_DEV_EVENT_RESET)
		uev = RTE_PMD_MLX5V_DEV_EVENT_RESET;
	else if (ev == MLX5V_DEV_EVENT_RECOVERED)
		uev = RTE_PMD_MLX5V_DEV_EVENT_RECOVERED;
	else
		return;
	pthread_mutex_lock(&mlx5v_api_event_lock);
	/* next is read before the call: a callback may unregister itself. */
	for (e = TAILQ_FIRST(&mlx5v_api_event_cbs); e != NULL; e = next) {
		next = TAILQ_NEXT(e, next);
		if (strcmp(e->name, dev->name) == 0)
			e->cb(dev->name, uev, e->arg);
	}
	pthread_mutex_unlock(&mlx5v_api_event_lock);
}
