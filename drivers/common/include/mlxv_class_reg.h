/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The class-driver registry shared by the mlx5v and mlx4v common drivers: registered class
 * drivers, the devices probed through them and the classes each one carries, the class=
 * selection, event delivery, and attach/detach in secondary processes
 * (doc/guides/platform/mlx5v.rst, "Layout"; doc/guides/nics/mlx4v.rst, "Ethernet PMD").
 *
 * Each common driver keeps one struct mlxv_class_reg and wraps these static inline helpers
 * in its own mlx5v_class_* / mlx4v_class_* functions; the class drivers of both families are
 * struct mlxv_class_driver, called directly. Nothing here is exported.
 */

#ifndef _MLXV_CLASS_REG_H_
#define _MLXV_CLASS_REG_H_

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_log.h>

#include "mlxv_class_args.h"
#include "mlxv_class_parse.h"

/** Most class drivers one device can carry. */
#define MLXV_CLASS_MAX 8
/** The class a device gets without a class= devarg. */
#define MLXV_CLASS_DEFAULT "net"
/** The devarg that selects the class drivers of a device: class=net (default), class=none. */
#define MLXV_CLASS_ARG "class"
/** The class= value that selects no class. */
#define MLXV_CLASS_NONE "none"

/** Set by a class driver that owns its devices' ports: the raw path may not change them. */
#define MLXV_CLASS_F_OWNS_PORT 0x1

struct mlxv_class_dev;

/**
 * A class driver of either family (the net PMDs, a test class): probed on each device whose
 * class= devarg names it, after the common driver brought the device up, and removed before
 * it goes down. mlx5v_class.h and mlx4v_class.h say what cd->ctx and the events are.
 */
struct mlxv_class_driver {
	TAILQ_ENTRY(mlxv_class_driver) next; /**< the registry's (set by register) */
	const char *name;           /**< its class= name, e.g. "net" */
	unsigned int flags;         /**< MLXV_CLASS_F_OWNS_PORT if it owns the ports */
	/** The devargs keys it reads at probe (NULL-terminated; NULL: none): taken for it when
	 * class= selects it, refused when not (mlxv_class_reg_args()). */
	const char *const *keys;
	/**
	 * Attach to the device cd (edev: the EAL device; devargs: its whole devargs string or
	 * NULL). Control thread. @return 0 or a negative errno (the probe of cd then fails).
	 */
	int (*probe)(struct mlxv_class_dev *cd, struct rte_device *edev, const char *devargs);
	/** Detach from cd; called in the reverse order of the probes. @return 0 or -errno. */
	int (*remove)(struct mlxv_class_dev *cd);
	/** Optional: a device event, on the thread that reports it. */
	void (*event)(struct mlxv_class_dev *cd, const void *ev);
	/**
	 * Optional. In a secondary process, attach to what the class made for edev in the
	 * primary (its ethdevs, say); no device exists in a secondary. @return 0 or -errno.
	 */
	int (*attach)(struct rte_device *edev);
	/** Optional. Undo attach in a secondary process. @return 0 or -errno. */
	int (*detach)(struct rte_device *edev);
};

/** A device probed through the registry: the classes probed on it, in order. */
struct mlxv_class_dev {
	TAILQ_ENTRY(mlxv_class_dev) next;
	char name[RTE_DEV_NAME_MAX_LEN];
	struct mlxv_class_driver *drv[MLXV_CLASS_MAX];
	unsigned int n;
	void *ctx;                  /**< the common driver's device, for the class drivers */
};

/**
 * One common driver's registry. Process-local, like every table that holds function pointers
 * (doc/guides/platform/mlx5v.rst, "Multi-process").
 */
struct mlxv_class_reg {
	/*
	 * Recursive: a class probe may itself look up its device's classes. Held across probe
	 * and remove, which run on the control thread; events take it too (with a trylock),
	 * so a class never hears an event after its remove returned.
	 */
	pthread_mutex_t lock;
	TAILQ_HEAD(, mlxv_class_driver) drivers;
	TAILQ_HEAD(, mlxv_class_dev) devs;
	const char *prefix;         /**< log prefix: "mlx5v", "mlx4v" */
	int *logtype;               /**< the common driver's log type */
};

/** A static initializer of a registry (then mlxv_class_reg_init() from a constructor). */
#define MLXV_CLASS_REG_INITIALIZER(reg, pfx, logtype_var) { \
	.drivers = TAILQ_HEAD_INITIALIZER((reg).drivers), \
	.devs = TAILQ_HEAD_INITIALIZER((reg).devs), \
	.prefix = (pfx), \
	.logtype = &(logtype_var), \
}

/**
 * Define class driver var (initialized with the designated initializers that follow) and
 * register it with register_fn when the library loads; a failure is logged with the class
 * library's LOG macro.
 */
#define MLXV_CLASS_DRIVER_REGISTER(var, register_fn, LOG, ...) \
	static struct mlxv_class_driver var = { __VA_ARGS__ }; \
	RTE_INIT(var ## _register) \
	{ \
		if (register_fn(&var) != 0) \
			LOG(ERR, "registering class %s failed", var.name); \
	}

/* A log line of the registry, with its common driver's log type and prefix. */
#define MLXV_CLASS_LOG(reg, level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, *(reg)->logtype, "%s: " fmt "\n", (reg)->prefix, \
		##__VA_ARGS__)

/** Make the registry's lock (recursive). From an RTE_INIT constructor of the library. */
static inline void
mlxv_class_reg_init(struct mlxv_class_reg *reg)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&reg->lock, &a);
	pthread_mutexattr_destroy(&a);
}

/** The registered driver named name, or NULL. Lock held. */
static inline struct mlxv_class_driver *
mlxv_class_reg_driver_find(struct mlxv_class_reg *reg, const char *name)
{
	struct mlxv_class_driver *d;

	TAILQ_FOREACH(d, &reg->drivers, next)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

/** The device named name, or NULL. Lock held. */
static inline struct mlxv_class_dev *
mlxv_class_reg_dev_find(struct mlxv_class_reg *reg, const char *name)
{
	struct mlxv_class_dev *cd;

	TAILQ_FOREACH(cd, &reg->devs, next)
		if (strcmp(cd->name, name) == 0)
			return cd;
	return NULL;
}

/**
 * Register drv. @return 0, -EINVAL (NULL, no name, "none", a ':' in it, no probe or remove)
 * or -EEXIST.
 */
static inline int
mlxv_class_reg_driver_add(struct mlxv_class_reg *reg, struct mlxv_class_driver *drv)
{
	int ret = 0;

	if (drv == NULL || drv->name == NULL || drv->name[0] == '\0' || drv->probe == NULL ||
	    drv->remove == NULL || strcmp(drv->name, MLXV_CLASS_NONE) == 0 ||
	    strchr(drv->name, ':') != NULL)
		return -EINVAL;
	pthread_mutex_lock(&reg->lock);
	if (mlxv_class_reg_driver_find(reg, drv->name) != NULL)
		ret = -EEXIST;
	else
		TAILQ_INSERT_TAIL(&reg->drivers, drv, next);
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

/** Unregister drv (NULL: none). @return 0, -ENOENT, or -EBUSY while a device has it. */
static inline int
mlxv_class_reg_driver_del(struct mlxv_class_reg *reg, struct mlxv_class_driver *drv)
{
	struct mlxv_class_driver *d;
	struct mlxv_class_dev *cd;
	unsigned int i;
	int ret = 0;

	pthread_mutex_lock(&reg->lock);
	/* By address: an unregistered driver may share a registered one's name. */
	TAILQ_FOREACH(d, &reg->drivers, next)
		if (d == drv)
			break;
	if (drv == NULL || d == NULL) {
		ret = -ENOENT;
		goto out;
	}
	TAILQ_FOREACH(cd, &reg->devs, next)
		for (i = 0; i < cd->n; i++)
			if (cd->drv[i] == drv)
				ret = -EBUSY;
	if (ret == 0)
		TAILQ_REMOVE(&reg->drivers, drv, next);
out:
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

/* A known class name: "net" (always, loaded or not) or a registered driver's. Lock held. */
static inline const char *
mlxv_class_reg_known(const char *name, size_t len, void *arg)
{
	struct mlxv_class_reg *reg = arg;
	struct mlxv_class_driver *d;

	if (len == 3 && (strncmp(name, "net", 3) == 0 || strncmp(name, "eth", 3) == 0))
		return MLXV_CLASS_DEFAULT;
	TAILQ_FOREACH(d, &reg->drivers, next)
		if (strlen(d->name) == len && strncmp(d->name, name, len) == 0)
			return d->name;
	return NULL;
}

/**
 * Parse a class= value into names (see mlxv_class_parse_list()); NULL selects the default
 * class. @return the number of classes (0 for "none"), or -EINVAL with one log line.
 */
static inline int
mlxv_class_reg_parse(struct mlxv_class_reg *reg, const char *value,
		     const char *names[MLXV_CLASS_MAX])
{
	char err[160];
	int ret;

	if (value == NULL) {
		names[0] = MLXV_CLASS_DEFAULT;
		return 1;
	}
	pthread_mutex_lock(&reg->lock);
	ret = mlxv_class_parse_list(value, mlxv_class_reg_known, reg, names, MLXV_CLASS_MAX,
				    err, sizeof(err));
	pthread_mutex_unlock(&reg->lock);
	if (ret < 0)
		MLXV_CLASS_LOG(reg, ERR, "devarg class=%s", err);
	return ret;
}

/** mlxv_class_args_parse() of the devargs of dev, with the reason logged. @return 0 or -EINVAL. */
static inline int
mlxv_class_reg_args_parse(struct mlxv_class_reg *reg, struct mlxv_class_args *a,
			  const char *dev, const char *args)
{
	char err[160];
	int ret;

	ret = mlxv_class_args_parse(a, args, err, sizeof(err));
	if (ret < 0)
		MLXV_CLASS_LOG(reg, ERR, "%s: %s", dev, err);
	return ret;
}

/*
 * The keys of the registered classes: a selected class's are taken for it, a key of a class
 * that is not selected is refused by name. Lock held. @return 0 or -EINVAL.
 */
static inline int
mlxv_class_reg_args_classes(struct mlxv_class_reg *reg, struct mlxv_class_args *a,
			    const char *dev, const char *const *names, int n)
{
	const struct mlxv_class_driver *d;
	const char *const *k;
	const char *val;
	int i, sel, ret = 0;

	TAILQ_FOREACH(d, &reg->drivers, next) {
		for (sel = 0, i = 0; i < n; i++)
			sel |= strcmp(names[i], d->name) == 0;
		for (k = d->keys; k != NULL && *k != NULL; k++) {
			if (mlxv_class_args_take(a, *k, &val) && !sel) {
				MLXV_CLASS_LOG(reg, ERR, "%s: devarg %s is class %s's, which "
					       "class= does not select", dev, *k, d->name);
				ret = -EINVAL;
			}
		}
	}
	return ret;
}

/**
 * The registry's keys in a (see mlxv_class_args.h): take class= (*classes: its value, or NULL
 * for the default class; valid while a is) and the keys of the classes it selects; refuse
 * the keys of a class it does not select. @return 0 or -EINVAL with one log line per fault.
 */
static inline int
mlxv_class_reg_args(struct mlxv_class_reg *reg, struct mlxv_class_args *a, const char *dev,
		    const char **classes)
{
	const char *names[MLXV_CLASS_MAX];
	int n, ret;

	*classes = NULL;
	if (mlxv_class_args_take(a, MLXV_CLASS_ARG, classes) && *classes == NULL) {
		MLXV_CLASS_LOG(reg, ERR, "%s: devarg class: no value", dev);
		return -EINVAL;
	}
	n = mlxv_class_reg_parse(reg, *classes, names);
	if (n < 0)
		return n;
	pthread_mutex_lock(&reg->lock);
	ret = mlxv_class_reg_args_classes(reg, a, dev, names, n);
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

/**
 * After every layer took its keys: refuse what is left, naming each key.
 * @return 0 or -EINVAL.
 */
static inline int
mlxv_class_reg_args_check(struct mlxv_class_reg *reg, const struct mlxv_class_args *a,
			  const char *dev)
{
	unsigned int i = 0;
	const char *k;
	int ret = 0;

	while ((k = mlxv_class_args_left(a, &i)) != NULL) {
		MLXV_CLASS_LOG(reg, ERR, "%s: unknown devarg %s", dev, k);
		ret = -EINVAL;
	}
	return ret;
}

/* Tell every class of cd (NULL: none) about ev, in probe order. Lock held. */
static inline void
mlxv_class_reg_tell(struct mlxv_class_dev *cd, const void *ev)
{
	unsigned int i;

	for (i = 0; cd != NULL && i < cd->n; i++)
		if (cd->drv[i]->event != NULL)
			cd->drv[i]->event(cd, ev);
}

/**
 * Deliver ev (of type type) to every class of the device named name, in probe order. Events
 * come from threads (the EAL interrupt thread, a command waiter, a backend's own thread) that
 * a remover holding the lock may be waiting for. A trylock therefore keeps the two apart:
 * while a probe or removal runs on another thread, the event is dropped (the classes query
 * link and health state when they start).
 */
static inline void
mlxv_class_reg_deliver(struct mlxv_class_reg *reg, const char *name, const void *ev, int type)
{
	if (pthread_mutex_trylock(&reg->lock) != 0) {
		MLXV_CLASS_LOG(reg, DEBUG, "%s: event %d during probe/remove, dropped", name, type);
		return;
	}
	mlxv_class_reg_tell(mlxv_class_reg_dev_find(reg, name), ev);
	pthread_mutex_unlock(&reg->lock);
}

/* Remove the classes probed on cd, in reverse order. Lock held. */
static inline void
mlxv_class_reg_remove_all(struct mlxv_class_reg *reg, struct mlxv_class_dev *cd)
{
	while (cd->n > 0) {
		struct mlxv_class_driver *d = cd->drv[--cd->n];
		int ret = d->remove(cd);

		if (ret < 0)
			MLXV_CLASS_LOG(reg, WARNING, "%s: class %s: remove failed: %s", cd->name,
				       d->name, strerror(-ret));
	}
}

/**
 * Add cd (named, with its ctx set) and probe names[0..n-1] on it in order. A class whose
 * driver is not loaded is skipped with a notice; on a failing probe the classes done are
 * removed and cd is taken out again. Control thread. @return 0 or the probe's -errno.
 */
static inline int
mlxv_class_reg_dev_add(struct mlxv_class_reg *reg, struct mlxv_class_dev *cd,
		       struct rte_device *edev, const char *const *names, int n)
{
	const struct rte_devargs *da = edev != NULL ? rte_dev_devargs(edev) : NULL;
	const char *devargs = da != NULL ? da->args : NULL;
	int i, ret = 0;

	pthread_mutex_lock(&reg->lock);
	TAILQ_INSERT_TAIL(&reg->devs, cd, next);
	for (i = 0; i < n; i++) {
		struct mlxv_class_driver *d = mlxv_class_reg_driver_find(reg, names[i]);

		if (d == NULL) {
			MLXV_CLASS_LOG(reg, NOTICE, "%s: class %s selected but its driver is not "
				       "loaded; the device serves the raw API only", cd->name,
				       names[i]);
			continue;
		}
		ret = d->probe(cd, edev, devargs);
		if (ret < 0) {
			MLXV_CLASS_LOG(reg, ERR, "%s: class %s: probe failed: %s", cd->name,
				       d->name, strerror(-ret));
			break;
		}
		cd->drv[cd->n++] = d;
	}
	if (ret < 0) {
		mlxv_class_reg_remove_all(reg, cd);
		TAILQ_REMOVE(&reg->devs, cd, next);
	}
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

/** The device named name (NULL: none) or NULL, looked up under the lock. */
static inline struct mlxv_class_dev *
mlxv_class_reg_dev_get(struct mlxv_class_reg *reg, const char *name)
{
	struct mlxv_class_dev *cd;

	if (name == NULL)
		return NULL;
	pthread_mutex_lock(&reg->lock);
	cd = mlxv_class_reg_dev_find(reg, name);
	pthread_mutex_unlock(&reg->lock);
	return cd;
}

/**
 * Take cd out: its classes hear remove_ev first (NULL: no event; an ethdev raises RMV), then
 * are removed in reverse probe order. The caller frees cd. Control thread.
 */
static inline void
mlxv_class_reg_dev_del(struct mlxv_class_reg *reg, struct mlxv_class_dev *cd,
		       const void *remove_ev)
{
	pthread_mutex_lock(&reg->lock);
	if (remove_ev != NULL)
		mlxv_class_reg_tell(cd, remove_ev);
	mlxv_class_reg_remove_all(reg, cd);
	TAILQ_REMOVE(&reg->devs, cd, next);
	pthread_mutex_unlock(&reg->lock);
}

/* Detach classes d[0..n-1] from edev, last first. Lock held. @return 0 or the first -errno. */
static inline int
mlxv_class_reg_detach_n(struct rte_device *edev, struct mlxv_class_driver *const *d, int n)
{
	int first = 0, ret;

	while (n-- > 0) {
		ret = d[n]->detach(edev);
		if (ret < 0 && first == 0)
			first = ret;
	}
	return first;
}

/**
 * Secondary process: each class that classes (NULL: the default) selects and that can
 * attach does so; one that cannot is skipped.
 * @return 0, or a negative errno with the attached classes detached again.
 */
static inline int
mlxv_class_reg_dev_attach(struct mlxv_class_reg *reg, struct rte_device *edev,
			  const char *classes)
{
	struct mlxv_class_driver *done[MLXV_CLASS_MAX];
	const char *names[MLXV_CLASS_MAX];
	int i, n, nd = 0, ret = 0;

	if (edev == NULL)
		return -EINVAL;
	n = mlxv_class_reg_parse(reg, classes, names);
	if (n < 0)
		return n;
	pthread_mutex_lock(&reg->lock);
	for (i = 0; i < n; i++) {
		struct mlxv_class_driver *d = mlxv_class_reg_driver_find(reg, names[i]);

		if (d == NULL)
			continue;
		ret = d->attach != NULL ? d->attach(edev) : 0;
		if (ret < 0) {
			MLXV_CLASS_LOG(reg, ERR, "%s: class %s: attach failed: %s",
				       rte_dev_name(edev), d->name, strerror(-ret));
			break;
		}
		/* The unwind asks every class selected before, as detach does. */
		if (d->detach != NULL)
			done[nd++] = d;
	}
	if (ret < 0)
		mlxv_class_reg_detach_n(edev, done, nd);
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

/** Detach every class from edev in a secondary process. @return 0 or the first -errno. */
static inline int
mlxv_class_reg_dev_detach(struct mlxv_class_reg *reg, struct rte_device *edev)
{
	struct mlxv_class_driver *d, *all[MLXV_CLASS_MAX];
	int n = 0, ret;

	if (edev == NULL)
		return -EINVAL;
	/* Which classes attached is the drivers' business: ask every one that can detach. */
	pthread_mutex_lock(&reg->lock);
	TAILQ_FOREACH(d, &reg->drivers, next)
		if (d->detach != NULL && n < MLXV_CLASS_MAX)
			all[n++] = d;
	ret = mlxv_class_reg_detach_n(edev, all, n);
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

/** The classes probed on a device, in order. @return how many (at most n), or -ENODEV. */
static inline int
mlxv_class_reg_dev_classes(struct mlxv_class_reg *reg, const char *name, const char **names,
			   unsigned int n)
{
	struct mlxv_class_dev *cd;
	unsigned int i;
	int ret;

	pthread_mutex_lock(&reg->lock);
	cd = name != NULL ? mlxv_class_reg_dev_find(reg, name) : NULL;
	if (cd == NULL) {
		ret = -ENODEV;
	} else {
		for (i = 0; i < cd->n && i < n; i++)
			names[i] = cd->drv[i]->name;
		ret = (int)i;
	}
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

/** The MLXV_CLASS_F_* of the classes probed on a device, or-ed (0: none, or no device). */
static inline unsigned int
mlxv_class_reg_dev_flags(struct mlxv_class_reg *reg, const char *name)
{
	struct mlxv_class_dev *cd;
	unsigned int i, flags = 0;

	pthread_mutex_lock(&reg->lock);
	cd = name != NULL ? mlxv_class_reg_dev_find(reg, name) : NULL;
	for (i = 0; cd != NULL && i < cd->n; i++)
		flags |= cd->drv[i]->flags;
	pthread_mutex_unlock(&reg->lock);
	return flags;
}

#endif /* _MLXV_CLASS_REG_H_ */
