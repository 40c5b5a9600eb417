/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Class-driver registry and probe dispatch of the mlx5v core (the class= devarg). */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_errno.h>
#include <rte_string_fns.h>

#include "mlxv_class_parse.h"
#include "mlx5v_prm.h"
#include "mlx5v_class.h"
#include "mlx5v_log.h"

/* The class a device gets without a class= devarg. */
#define MLX5V_CLASS_DEFAULT "net"
#define MLX5V_CLASS_NONE "none"

/*
 * Per device: the class drivers probed on it, in order. Process-local, like every table that
 * holds function pointers (doc/guides/platform/mlx5v.rst, "Multi-process").
 */
struct mlx5v_class_dev {
	TAILQ_ENTRY(mlx5v_class_dev) next;
	struct mlx5v_dev *dev;
	struct mlx5v_class_driver *drv[MLX5V_CLASS_MAX];
	unsigned int n;
	struct mlx5v_dev_hook hook;     /* DEAD and REMOVE from the core */
};

static TAILQ_HEAD(, mlx5v_class_driver) mlx5v_class_drivers =
	TAILQ_HEAD_INITIALIZER(mlx5v_class_drivers);
static TAILQ_HEAD(, mlx5v_class_dev) mlx5v_class_devs =
	TAILQ_HEAD_INITIALIZER(mlx5v_class_devs);
/*
 * Recursive: a class probe may itself look up its device's classes. Held across probe and
 * remove, which run on the control thread; events take it too, so a class never hears an
 * event after its remove returned.
 */
static pthread_mutex_t mlx5v_class_lock;

RTE_INIT(mlx5v_class_lock_init)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&mlx5v_class_lock, &a);
	pthread_mutexattr_destroy(&a);
}

/* Class lock held. */
static struct mlx5v_class_driver *
mlx5v_class_driver_find(const char *name)
{
	struct mlx5v_class_driver *d;

	TAILQ_FOREACH(d, &mlx5v_class_drivers, next)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

/* Class lock held. */
static struct mlx5v_class_dev *
mlx5v_class_dev_find(const char *name)
{
	struct mlx5v_class_dev *cd;

	TAILQ_FOREACH(cd, &mlx5v_class_devs, next)
		if (strcmp(cd->dev->name, name) == 0)
			return cd;
	return NULL;
}

int
mlx5v_class_driver_register(struct mlx5v_class_driver *drv)
{
	int ret = 0;

	if (drv == NULL || drv->name == NULL || drv->name[0] == '\0' || drv->probe == NULL ||
	    drv->remove == NULL || strcmp(drv->name, MLX5V_CLASS_NONE) == 0 ||
	    strchr(drv->name, ':') != NULL)
		return -EINVAL;
	pthread_mutex_lock(&mlx5v_class_lock);
	if (mlx5v_class_driver_find(drv->name) != NULL)
		ret = -EEXIST;
	else
		TAILQ_INSERT_TAIL(&mlx5v_class_drivers, drv, next);
	pthread_mutex_unlock(&mlx5v_class_lock);
	return ret;
}

int
mlx5v_class_driver_unregister(struct mlx5v_class_driver *drv)
{
	struct mlx5v_class_dev *cd;
	unsigned int i;
	int ret = 0;

	pthread_mutex_lock(&mlx5v_class_lock);
	if (drv == NULL || mlx5v_class_driver_find(drv->name) != drv) {
		ret = -ENOENT;
		goto out;
	}
	TAILQ_FOREACH(cd, &mlx5v_class_devs, next)
		for (i = 0; i < cd->n; i++)
			if (cd->drv[i] == drv)
				ret = -EBUSY;
	if (ret == 0)
		TAILQ_REMOVE(&mlx5v_class_drivers, drv, next);
out:
	pthread_mutex_unlock(&mlx5v_class_lock);
	return ret;
}

/* A known class name: "net" (always, loaded or not) or a registered driver's. Lock held. */
static const char *
mlx5v_class_known(const char *name, size_t len, void *arg)
{
	struct mlx5v_class_driver *d;

	RTE_SET_USED(arg);
	if (len == 3 && (strncmp(name, "net", 3) == 0 || strncmp(name, "eth", 3) == 0))
		return MLX5V_CLASS_DEFAULT;
	TAILQ_FOREACH(d, &mlx5v_class_drivers, next)
		if (strlen(d->name) == len && strncmp(d->name, name, len) == 0)
			return d->name;
	return NULL;
}

int
mlx5v_class_parse(const char *value, const char *names[MLX5V_CLASS_MAX])
{
	char err[160];
	int ret;

	pthread_mutex_lock(&mlx5v_class_lock);
	ret = mlxv_class_parse_list(value, mlx5v_class_known, NULL, names, MLX5V_CLASS_MAX,
				    err, sizeof(err));
	pthread_mutex_unlock(&mlx5v_class_lock);
	if (ret < 0)
		MLX5V_LOG(ERR, "devarg %s=%s", MLX5V_CLASS_ARG, err);
	return ret;
}

/*
 * Deliver ev to every class of dev, in probe order. Events come from the EAL interrupt thread
 * or a command waiter, possibly while that thread's EQ poll holds the EQ lock; a remover holds
 * the class lock while its classes issue commands that need that poll. A trylock therefore
 * keeps the two apart: while a probe or removal runs on another thread, the event is dropped
 * (the classes query link and health state when they start).
 */
static void
mlx5v_class_deliver(struct mlx5v_dev *dev, const struct mlx5v_class_event *ev)
{
	struct mlx5v_class_dev *cd;
	unsigned int i;

	if (pthread_mutex_trylock(&mlx5v_class_lock) != 0) {
		MLX5V_LOG(DEBUG, "%s: event %d during probe/remove, dropped", dev->name, ev->type);
		return;
	}
	TAILQ_FOREACH(cd, &mlx5v_class_devs, next)
		if (cd->dev == dev)
			break;
	for (i = 0; cd != NULL && i < cd->n; i++)
		if (cd->drv[i]->event != NULL)
			cd->drv[i]->event(dev, ev);
	pthread_mutex_unlock(&mlx5v_class_lock);
}

/* Core hook: DEAD (and REMOVE, which the class layer announces itself before unload). */
static void
mlx5v_class_dev_hook(struct mlx5v_dev *dev, enum mlx5v_dev_event type, void *arg)
{
	struct mlx5v_class_event ev = { .type = type };

	RTE_SET_USED(arg);
	if (type == MLX5V_DEV_EVENT_DEAD)
		mlx5v_class_deliver(dev, &ev);
}

/*
 * PORT_CHANGE EQE (prm/mlx5 §6.6): the port number sits in bits 7:4 of
 * data byte 4. Runs on the thread that polls the EQ, with the EQ lock held.
 */
static int
mlx5v_class_port_event(struct mlx5v_dev *dev, uint8_t type, const uint8_t *eqe, void *arg)
{
	struct mlx5v_class_event ev = {
		.type = MLX5V_DEV_EVENT_PORT,
		.port = MLX5V_IFC_GET(eqe_port_change, MLX5V_IFC_ADDR_OF(eqe, eqe, data), port),
		.sub_type = MLX5V_IFC_GET(eqe, eqe, sub_type),
	};

	RTE_SET_USED(type);
	RTE_SET_USED(arg);
	mlx5v_class_deliver(dev, &ev);
	return 0;
}

/* Class lock held. Removes the probed classes in reverse order. */
static void
mlx5v_class_remove_all(struct mlx5v_class_dev *cd)
{
	while (cd->n > 0) {
		struct mlx5v_class_driver *d = cd->drv[--cd->n];
		int ret = d->remove(cd->dev);

		if (ret < 0)
			MLX5V_LOG(WARNING, "%s: class %s: remove failed: %s", cd->dev->name,
				  d->name, strerror(-ret));
	}
}

/* Class lock held. Probes names[] in order; on failure the ones done are removed again. */
static int
mlx5v_class_probe_all(struct mlx5v_class_dev *cd, struct rte_device *edev,
		      const char *const *names, int n)
{
	const struct rte_devargs *da = edev != NULL ? rte_dev_devargs(edev) : NULL;
	const char *devargs = da != NULL ? da->args : NULL;
	int i, ret;

	for (i = 0; i < n; i++) {
		struct mlx5v_class_driver *d = mlx5v_class_driver_find(names[i]);

		if (d == NULL) {
			MLX5V_LOG(NOTICE, "%s: class %s selected but its driver is not loaded; "
				  "the device serves the raw API only", cd->dev->name, names[i]);
			continue;
		}
		ret = d->probe(cd->dev, edev, devargs);
		if (ret < 0) {
			MLX5V_LOG(ERR, "%s: class %s: probe failed: %s", cd->dev->name, d->name,
				  strerror(-ret));
			mlx5v_class_remove_all(cd);
			return ret;
		}
		cd->drv[cd->n++] = d;
	}
	return 0;
}

int
mlx5v_class_dev_probe(struct rte_device *edev, const struct mlx5v_hw *hw,
		      const struct mlx5v_dev_params *params, const char *classes)
{
	const char *names[MLX5V_CLASS_MAX];
	struct mlx5v_class_dev *cd;
	struct mlx5v_dev *dev;
	int n, ret;

	if (hw == NULL)
		return -EINVAL;
	n = classes != NULL ? mlx5v_class_parse(classes, names) : 1;
	if (n < 0)
		return n;
	if (classes == NULL)
		names[0] = MLX5V_CLASS_DEFAULT;
	cd = calloc(1, sizeof(*cd));
	if (cd == NULL)
		return -ENOMEM;
	dev = mlx5v_dev_init(hw->name, hw, params);
	if (dev == NULL) {
		ret = -rte_errno;
		goto err_cd_free;
	}
	dev->owner = hw->priv;
	cd->dev = dev;
	ret = mlx5v_dev_load(dev);
	if (ret < 0)
		goto err_dev_cleanup;
	pthread_mutex_lock(&mlx5v_class_lock);
	TAILQ_INSERT_TAIL(&mlx5v_class_devs, cd, next);
	ret = mlx5v_class_probe_all(cd, edev, names, n);
	if (ret < 0)
		TAILQ_REMOVE(&mlx5v_class_devs, cd, next);
	pthread_mutex_unlock(&mlx5v_class_lock);
	if (ret < 0)
		goto err_dev_unload;
	cd->hook.event = mlx5v_class_dev_hook;
	ret = mlx5v_dev_hook_register(dev, &cd->hook);
	if (ret < 0)
		goto err_classes_remove;
	ret = mlx5v_eq_subscribe(dev, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, mlx5v_class_port_event,
				 NULL);
	if (ret < 0)
		goto err_hook_unregister;
	return 0;

err_hook_unregister:
	mlx5v_dev_hook_unregister(dev, &cd->hook);
err_classes_remove:
	pthread_mutex_lock(&mlx5v_class_lock);
	mlx5v_class_remove_all(cd);
	TAILQ_REMOVE(&mlx5v_class_devs, cd, next);
	pthread_mutex_unlock(&mlx5v_class_lock);
err_dev_unload:
	mlx5v_dev_unload(dev);
err_dev_cleanup:
	mlx5v_dev_cleanup(dev);
err_cd_free:
	free(cd);
	return ret;
}

/*
 * Also the process-exit path: the vdev and PCI buses call remove for every probed device from
 * rte_eal_cleanup(). The teardown mirrors mlx5v_class_dev_probe() line for line.
 */
int
mlx5v_class_dev_remove(const char *name, void **owner)
{
	struct mlx5v_class_event ev = { .type = MLX5V_DEV_EVENT_REMOVE };
	struct mlx5v_class_dev *cd;
	struct mlx5v_dev *dev;
	unsigned int i;

	if (name == NULL)
		return -ENODEV;
	pthread_mutex_lock(&mlx5v_class_lock);
	cd = mlx5v_class_dev_find(name);
	if (cd == NULL) {
		pthread_mutex_unlock(&mlx5v_class_lock);
		return -ENODEV;
	}
	dev = cd->dev;
	pthread_mutex_unlock(&mlx5v_class_lock);
	/* Events stop first; hook_unregister waits for a DEAD notification in flight. */
	mlx5v_eq_unsubscribe(dev, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, mlx5v_class_port_event, NULL);
	mlx5v_dev_hook_unregister(dev, &cd->hook);
	pthread_mutex_lock(&mlx5v_class_lock);
	/* The classes hear REMOVE first (an ethdev raises RMV), then are removed in reverse. */
	for (i = 0; i < cd->n; i++)
		if (cd->drv[i]->event != NULL)
			cd->drv[i]->event(dev, &ev);
	mlx5v_class_remove_all(cd);
	TAILQ_REMOVE(&mlx5v_class_devs, cd, next);
	pthread_mutex_unlock(&mlx5v_class_lock);
	if (owner != NULL)
		*owner = mlx5v_dev_hw(dev)->priv;
	mlx5v_dev_unload(dev);
	mlx5v_dev_cleanup(dev);
	free(cd);
	return 0;
}

/* Class lock held. Detaches the first n classes of names[] in reverse order. */
static int
mlx5v_class_detach_n(struct rte_device *edev, const char *const *names, int n)
{
	int first = 0;

	while (n-- > 0) {
		struct mlx5v_class_driver *d = mlx5v_class_driver_find(names[n]);
		int ret;

		if (d == NULL || d->detach == NULL)
			continue;
		ret = d->detach(edev);
		if (ret < 0 && first == 0)
			first = ret;
	}
	return first;
}

int
mlx5v_class_dev_attach(struct rte_device *edev, const char *classes)
{
	const char *names[MLX5V_CLASS_MAX];
	int i, n, ret = 0;

	if (edev == NULL)
		return -EINVAL;
	n = classes != NULL ? mlx5v_class_parse(classes, names) : 1;
	if (n < 0)
		return n;
	if (classes == NULL)
		names[0] = MLX5V_CLASS_DEFAULT;
	pthread_mutex_lock(&mlx5v_class_lock);
	for (i = 0; i < n; i++) {
		struct mlx5v_class_driver *d = mlx5v_class_driver_find(names[i]);

		if (d == NULL || d->attach == NULL)
			continue;
		ret = d->attach(edev);
		if (ret < 0) {
			MLX5V_LOG(ERR, "%s: class %s: attach failed: %s", rte_dev_name(edev),
				  d->name, strerror(-ret));
			mlx5v_class_detach_n(edev, names, i);
			break;
		}
	}
	pthread_mutex_unlock(&mlx5v_class_lock);
	return ret;
}

int
mlx5v_class_dev_detach(struct rte_device *edev)
{
	const char *names[MLX5V_CLASS_MAX];
	struct mlx5v_class_driver *d;
	int n = 0, ret;

	if (edev == NULL)
		return -EINVAL;
	/* Which classes attached is the drivers' business: ask every one that can detach. */
	pthread_mutex_lock(&mlx5v_class_lock);
	TAILQ_FOREACH(d, &mlx5v_class_drivers, next)
		if (d->detach != NULL && n < MLX5V_CLASS_MAX)
			names[n++] = d->name;
	ret = mlx5v_class_detach_n(edev, names, n);
	pthread_mutex_unlock(&mlx5v_class_lock);
	return ret;
}

int
mlx5v_class_dev_classes(const char *name, const char **names, unsigned int n)
{
	struct mlx5v_class_dev *cd;
	unsigned int i;
	int ret;

	pthread_mutex_lock(&mlx5v_class_lock);
	cd = name != NULL ? mlx5v_class_dev_find(name) : NULL;
	if (cd == NULL) {
		ret = -ENODEV;
	} else {
		for (i = 0; i < cd->n && i < n; i++)
			names[i] = cd->drv[i]->name;
		ret = (int)i;
	}
	pthread_mutex_unlock(&mlx5v_class_lock);
	return ret;
}
