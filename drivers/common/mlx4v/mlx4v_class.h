/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Class drivers on the mlx4v common driver: backends probe once, then the classes. */

#ifndef _MLX4V_CLASS_H_
#define _MLX4V_CLASS_H_

#include <stdint.h>
#include <sys/queue.h>

#include <rte_compat.h>
#include <rte_dev.h>

#include "mlxv_class_reg.h"

struct mlx4v_verbs_ops;

/** The devarg that selects the class drivers of a device: class=net (default), class=none. */
#define MLX4V_CLASS_ARG MLXV_CLASS_ARG
/** Most class drivers one device can carry. */
#define MLX4V_CLASS_MAX MLXV_CLASS_MAX

/** Device events a class driver hears besides probe and remove. */
enum mlx4v_class_event_type {
	MLX4V_CLASS_EVENT_DEAD,     /**< the device failed; only teardown remains */
	MLX4V_CLASS_EVENT_PORT,     /**< a port became active or went down */
	MLX4V_CLASS_EVENT_REMOVE,   /**< the device is about to be removed */
	MLX4V_CLASS_EVENT_CQ_ERR,   /**< a CQ overran: it is in error (IBV_EVENT_CQ_ERR) */
	MLX4V_CLASS_EVENT_SRQ_LIMIT, /**< an SRQ fell below its limit (SRQ_LIMIT_REACHED) */
	MLX4V_CLASS_EVENT_QP_LAST_WQE, /**< a QP on an SRQ in error takes no more WQEs */
	/**
	 * recovery=reset: the dead device was reset and can be opened again; the handles of
	 * its old life stay stale (doc/guides/nics/mlx4v.rst, "Recovery").
	 */
	MLX4V_CLASS_EVENT_RECOVERED,
};

/** One device event. */
struct mlx4v_class_event {
	enum mlx4v_class_event_type type;
	unsigned int port;          /**< PORT: 1-based port number */
	int up;                     /**< PORT: 1 active, 0 down */
	uint32_t cqn;               /**< CQ_ERR: the CQ's number (rte_pmd_mlx4v_init_obj()) */
	uint32_t srqn;              /**< SRQ_LIMIT: the SRQ's number */
	uint32_t qpn;               /**< QP_LAST_WQE: the QP's number */
	/**
	 * DEAD: the device's life of the handle that saw it (has_life), when the backend reports
	 * per handle: a death seen by a handle of an older life was recovered from already.
	 */
	uint32_t life;
	int has_life;
};

/*
 * Class drivers are struct mlxv_class_driver (mlxv_class_reg.h): on mlx4v, cd->name names
 * the device (rte_pmd_mlx4v_dev_open() works on it), cd->ctx is NULL and an event is a
 * struct mlx4v_class_event.
 */

/** Register a class driver. @return 0, -EINVAL or -EEXIST. */
__rte_internal
int mlx4v_class_driver_register(struct mlxv_class_driver *drv);

/** Unregister a class driver no device uses. @return 0, -ENOENT or -EBUSY. */
__rte_internal
int mlx4v_class_driver_unregister(struct mlxv_class_driver *drv);

/**
 * Parse a class= value (names joined by ':'; "none"; "eth" = "net").
 * @return the number of classes (0 for none), or -EINVAL with one log line.
 */
__rte_internal
int mlx4v_class_parse(const char *value, const char *names[MLX4V_CLASS_MAX]);

/**
 * The front-ends' devargs, step 1 of 3 (doc/guides/platform/layers.rst, "Devargs"): parse
 * the devargs args of device dev into a, refusing a string that does not parse and a key
 * given twice. Then the front-end takes its own keys (mlxv_class_args_take()).
 * @return 0 or -EINVAL with one log line; free a with mlxv_class_args_free().
 */
__rte_internal
int mlx4v_class_args_parse(struct mlxv_class_args *a, const char *dev, const char *args);

/**
 * Step 2: the common driver's keys: class= into *classes (NULL: the default class; valid
 * while a is) and the keys of the classes it selects, taken for them; the key of a class it
 * does not select is refused. @return 0 or -EINVAL with one log line per fault.
 */
__rte_internal
int mlx4v_class_args_core(struct mlxv_class_args *a, const char *dev, const char **classes);

/** Step 3 (mlx4v_pci): refuse, naming each, the keys no layer took. @return 0 or -EINVAL. */
int mlx4v_class_args_check(const struct mlxv_class_args *a, const char *dev);

/**
 * The backends' entry (rdma-core on PCI, the simulator): register the device with its verbs
 * backend, then probe the selected class drivers. A class whose driver is not loaded is
 * skipped with a notice; a failing class probe unwinds everything. Control thread.
 * @return 0 or a negative errno with nothing left behind.
 */
__rte_internal
int mlx4v_class_dev_probe(struct rte_device *edev, const char *name,
			  const struct mlx4v_verbs_ops *ops, void *priv, int socket,
			  const char *classes);

/**
 * REMOVE events, class removes in reverse probe order, then unregister (which force-releases
 * what is left). @return 0 or -ENODEV.
 */
__rte_internal
int mlx4v_class_dev_remove(const char *name);

/** A backend reports a device event (port up/down, fatal error) to the device's classes. */
__rte_internal
void mlx4v_class_dev_event(const char *name, const struct mlx4v_class_event *ev);

/**
 * A backend reports an asynchronous CQ error (a CQ overran, IBV_EVENT_CQ_ERR): every CQ of
 * that number on the device's handles is marked in error (rte_pmd_mlx4v_cq_in_error()),
 * the error is logged, then a CQ_ERR event goes to the device's classes. Backend thread
 * (the simulator's engine, the rdma-core async-event reader), no mlx4v lock held.
 */
__rte_internal
void mlx4v_class_dev_cq_error(const char *name, uint32_t cqn);

/**
 * The backends' entry in a secondary process: the device lives in the primary, so nothing
 * is opened or registered; each selected class that can attach does so, a class that cannot
 * is skipped. @return 0, or a negative errno with the attached classes detached again.
 */
__rte_internal
int mlx4v_class_dev_attach(struct rte_device *edev, const char *classes);

/** Detach every class from edev in a secondary process. @return 0 or the first -errno. */
__rte_internal
int mlx4v_class_dev_detach(struct rte_device *edev);

/** The classes probed on a device, in order. @return how many (at most n), or -ENODEV. */
__rte_internal
int mlx4v_class_dev_classes(const char *name, const char **names, unsigned int n);

#endif /* _MLX4V_CLASS_H_ */
