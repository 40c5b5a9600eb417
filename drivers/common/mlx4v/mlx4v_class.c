/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Class-driver registry and probe dispatch of the mlx4v common driver. */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_errno.h>
#include <rte_string_fns.h>

#include "mlxv_class_parse.h"
#include "mlx4v_class.h"
#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

#define MLX4V_CLASS_DEFAULT "net"

/* Per device: the classes probed on it, in order. Process-local (function pointers). */
struct mlx4v_class_dev {
	TAILQ_ENTRY(mlx4v_class_dev) next;
	char name[RTE_DEV_NAME_MAX_LEN];
	struct mlx4v_class_driver *drv[MLX4V_CLASS_MAX];
	unsigned int n;
};

static TAILQ_HEAD(, mlx4v_class_driver) mlx4v_class_drivers =
	TAILQ_HEAD_INITIALIZER(mlx4v_class_drivers);
static TAILQ_HEAD(, mlx4v_class_dev) mlx4v_class_devs =
	TAILQ_HEAD_INITIALIZER(mlx4v_class_devs);
/* Recursive: a class probe may look its device's classes up. Held across probe and remove. */
static pthread_mutex_t mlx4v_class_lock;

RTE_INIT(mlx4v_class_lock_init)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&mlx4v_class_lock, &a);
	pthread_mutexattr_destroy(&a);
}

/* Class lock held. */
static struct mlx4v_class_driver *
mlx4v_class_driver_find(const char *name)
{
	struct mlx4v_class_driver *d;

	TAILQ_FOREACH(d, &mlx4v_class_drivers, next)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

/* Class lock held. */
static struct mlx4v_class_dev *
mlx4v_class_dev_find(const char *name)
{
	struct mlx4v_class_dev *cd;

	TAILQ_FOREACH(cd, &mlx4v_class_devs, next)
		if (strcmp(cd->name, name) == 0)
			return cd;
	return NULL;
}

int
mlx4v_class_driver_register(struct mlx4v_class_driver *drv)
{
	int ret = 0;

	if (drv == NULL || drv->name == NULL || drv->name[0] == '\0' || drv->probe == NULL ||
	    drv->remove == NULL || strcmp(drv->name, "none") == 0 ||
	    strchr(drv->name, ':') != NULL)
		return -EINVAL;
	pthread_mutex_lock(&mlx4v_class_lock);
	if (mlx4v_class_driver_find(drv->name) != NULL)
		ret = -EEXIST;
	else
		TAILQ_INSERT_TAIL(&mlx4v_class_drivers, drv, next);
	pthread_mutex_unlock(&mlx4v_class_lock);
	return ret;
}

int
mlx4v_class_driver_unregister(struct mlx4v_class_driver *drv)
{
	struct mlx4v_class_dev *cd;
	unsigned int i;
	int ret = 0;

	pthread_mutex_lock(&mlx4v_class_lock);
	if (drv == NULL || mlx4v_class_driver_find(drv->name) != drv) {
		ret = -ENOENT;
		goto out;
	}
	TAILQ_FOREACH(cd, &mlx4v_class_devs, next)
		for (i = 0; i < cd->n; i++)
			if (cd->drv[i] == drv)
				ret = -EBUSY;
	if (ret == 0)
		TAILQ_REMOVE(&mlx4v_class_drivers, drv, next);
out:
	pthread_mutex_unlock(&mlx4v_class_lock);
	return ret;
}

/* "net" is always known (loaded or not); other names only once registered. Lock held. */
static const char *
mlx4v_class_known(const char *name, size_t len, void *arg)
{
	struct mlx4v_class_driver *d;

	RTE_SET_USED(arg);
	if (len == 3 && (strncmp(name, "net", 3) == 0 || strncmp(name, "eth", 3) == 0))
		return MLX4V_CLASS_DEFAULT;
	TAILQ_FOREACH(d, &mlx4v_class_drivers, next)
		if (strlen(d->name) == len && strncmp(d->name, name, len) == 0)
			return d->name;
	return NULL;
}

int
mlx4v_class_parse(const char *value, const char *names[MLX4V_CLASS_MAX])
{
	char err[160];
	int ret;

	pthread_mutex_lock(&mlx4v_class_lock);
	ret = mlxv_class_parse_list(value, mlx4v_class_known, NULL, names, MLX4V_CLASS_MAX,
				    err, sizeof(err));
	pthread_mutex_unlock(&mlx4v_class_lock);
	if (ret < 0)
		MLX4V_LOG(ERR, "devarg %s=%s", MLX4V_CLASS_ARG, err);
	return ret;
}

/* Class lock held. The probed classes go in reverse order. */
static void
mlx4v_class_remove_all(struct mlx4v_class_dev *cd)
{
	while (cd->n > 0) {
		struct mlx4v_class_driver *d = cd->drv[--cd->n];
		int ret = d->remove(cd->name);

		if (ret < 0)
			MLX4V_LOG(WARNING, "%s: class %s: remove failed: %s", cd->name, d->name,
				  strerror(-ret));
	}
}

int
mlx4v_class_dev_probe(struct rte_device *edev, const char *name,
		      const struct mlx4v_verbs_ops *ops, void *priv, int socket,
		      const char *classes)
{
	const struct rte_devargs *da = edev != NULL ? rte_dev_devargs(edev) : NULL;
	const char *devargs = da != NULL ? da->args : NULL;
	const char *names[MLX4V_CLASS_MAX];
	struct mlx4v_class_dev *cd;
	int i, n, ret;

	if (name == NULL || strlen(name) >= RTE_DEV_NAME_MAX_LEN)
		return -EINVAL;
	n = classes != NULL ? mlx4v_class_parse(classes, names) : 1;
	if (n < 0)
		return n;
	if (classes == NULL)
		names[0] = MLX4V_CLASS_DEFAULT;
	cd = calloc(1, sizeof(*cd));
	if (cd == NULL)
		return -ENOMEM;
	strlcpy(cd->name, name, sizeof(cd->name));
	ret = mlx4v_dev_register(name, ops, priv, socket);
	if (ret < 0)
		goto err_cd_free;
	pthread_mutex_lock(&mlx4v_class_lock);
	TAILQ_INSERT_TAIL(&mlx4v_class_devs, cd, next);
	for (i = 0; i < n; i++) {
		struct mlx4v_class_driver *d = mlx4v_class_driver_find(names[i]);

		if (d == NULL) {
			MLX4V_LOG(NOTICE, "%s: class %s selected but its driver is not loaded; "
				  "the device serves the raw API only", name, names[i]);
			continue;
		}
		ret = d->probe(edev, name, devargs);
		if (ret < 0) {
			MLX4V_LOG(ERR, "%s: class %s: probe failed: %s", name, d->name,
				  strerror(-ret));
			break;
		}
		cd->drv[cd->n++] = d;
	}
	if (ret < 0) {
		mlx4v_class_remove_all(cd);
		TAILQ_REMOVE(&mlx4v_class_devs, cd, next);
	}
	pthread_mutex_unlock(&mlx4v_class_lock);
	if (ret < 0)
		goto err_dev_unregister;
	return 0;

err_dev_unregister:
	mlx4v_dev_unregister(name);
err_cd_free:
	free(cd);
	return ret;
}

int
mlx4v_class_dev_remove(const char *name)
{
	struct mlx4v_class_event ev = { .type = MLX4V_CLASS_EVENT_REMOVE };
	struct mlx4v_class_dev *cd;
	unsigned int i;

	if (name == NULL)
		return -ENODEV;
	pthread_mutex_lock(&mlx4v_class_lock);
	cd = mlx4v_class_dev_find(name);
	if (cd == NULL) {
		pthread_mutex_unlock(&mlx4v_class_lock);
		return -ENODEV;
	}
	for (i = 0; i < cd->n; i++)
		if (cd->drv[i]->event != NULL)
			cd->drv[i]->event(name, &ev);
	mlx4v_class_remove_all(cd);
	TAILQ_REMOVE(&mlx4v_class_devs, cd, next);
	pthread_mutex_unlock(&mlx4v_class_lock);
	/* Mirrors mlx4v_class_dev_probe(): what the classes left behind is force-released. */
	mlx4v_dev_unregister(name);
	free(cd);
	return 0;
}

/*
 * A trylock: a backend reports from its own thread (the simulator's engine, the rdma-core
 * async-event reader), which a remover may be waiting for while it holds the class lock.
 * Events during a probe or removal on another thread are dropped; classes query port state
 * when they start.
 */
void
mlx4v_class_dev_event(const char *name, const struct mlx4v_class_event *ev)
{
	struct mlx4v_class_dev *cd;
	unsigned int i;

	if (name == NULL || ev == NULL)
		return;
	if (pthread_mutex_trylock(&mlx4v_class_lock) != 0) {
		MLX4V_LOG(DEBUG, "%s: event %d during probe/remove, dropped", name, ev->type);
		return;
	}
	cd = mlx4v_class_dev_find(name);
	for (i = 0; cd != NULL && i < cd->n; i++)
		if (cd->drv[i]->event != NULL)
			cd->drv[i]->event(name, ev);
	pthread_mutex_unlock(&mlx4v_class_lock);
}

/* The verbs lock first (the CQ marks), then the class lock (the event): never both at once. */
void
mlx4v_class_dev_cq_error(const char *name, uint32_t cqn)
{
	struct mlx4v_class_event ev = { .type = MLX4V_CLASS_EVENT_CQ_ERR, .cqn = cqn };
	unsigned int n;

	if (name == NULL)
		return;
	mlx4v_verbs_lock();
	n = mlx4v_cq_mark_error(name, cqn);
	mlx4v_verbs_unlock();
	/*
	 * As the kernel logs a CQ error event: the CQ writes no completion any more; software
	 * destroys and recreates it with its queues (doc/guides/nics/mlx4v.rst, CQ overrun).
	 */
	MLX4V_LOG(ERR, "%s: CQ 0x%x overrun: the device put it in error (%u handle(s) told)",
		  name, cqn, n);
	mlx4v_class_dev_event(name, &ev);
}

/* Class lock held: detach the classes names[0..n-1] that can, in reverse order. */
static int
mlx4v_class_detach_n(struct rte_device *edev, const char *const *names, int n)
{
	int first = 0, ret;

	while (n-- > 0) {
		struct mlx4v_class_driver *d = mlx4v_class_driver_find(names[n]);

		if (d == NULL || d->detach == NULL)
			continue;
		ret = d->detach(edev, rte_dev_name(edev));
		if (ret < 0 && first == 0)
			first = ret;
	}
	return first;
}

int
mlx4v_class_dev_attach(struct rte_device *edev, const char *classes)
{
	const char *names[MLX4V_CLASS_MAX];
	int i, n, ret = 0;

	if (edev == NULL)
		return -EINVAL;
	n = classes != NULL ? mlx4v_class_parse(classes, names) : 1;
	if (n < 0)
		return n;
	if (classes == NULL)
		names[0] = MLX4V_CLASS_DEFAULT;
	pthread_mutex_lock(&mlx4v_class_lock);
	for (i = 0; i < n && ret == 0; i++) {
		struct mlx4v_class_driver *d = mlx4v_class_driver_find(names[i]);

		if (d == NULL || d->attach == NULL)
			continue;
		ret = d->attach(edev, rte_dev_name(edev));
		if (ret < 0) {
			MLX4V_LOG(ERR, "%s: class %s: attach failed: %s", rte_dev_name(edev),
				  d->name, strerror(-ret));
			mlx4v_class_detach_n(edev, names, i);
		}
	}
	pthread_mutex_unlock(&mlx4v_class_lock);
	return ret;
}

int
mlx4v_class_dev_detach(struct rte_device *edev)
{
	const char *names[MLX4V_CLASS_MAX];
	struct mlx4v_class_driver *d;
	int n = 0, ret;

	if (edev == NULL)
		return -EINVAL;
	/* Which classes attached is the drivers' business: ask every one that can detach. */
	pthread_mutex_lock(&mlx4v_class_lock);
	TAILQ_FOREACH(d, &mlx4v_class_drivers, next)
		if (d->detach != NULL && n < MLX4V_CLASS_MAX)
			names[n++] = d->name;
	ret = mlx4v_class_detach_n(edev, names, n);
	pthread_mutex_unlock(&mlx4v_class_lock);
	return ret;
}

int
mlx4v_class_dev_classes(const char *name, const char **names, unsigned int n)
{
	struct mlx4v_class_dev *cd;
	unsigned int i;
	int ret;

	pthread_mutex_lock(&mlx4v_class_lock);
	cd = name != NULL ? mlx4v_class_dev_find(name) : NULL;
	if (cd == NULL) {
		ret = -ENODEV;
	} else {
		for (i = 0; i < cd->n && i < n; i++)
			names[i] = cd->drv[i]->name;
		ret = (int)i;
	}
	pthread_mutex_unlock(&mlx4v_class_lock);
	return ret;
}
