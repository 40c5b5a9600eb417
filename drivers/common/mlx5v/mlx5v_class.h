/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Class drivers on the mlx5v core: bus front-ends probe once, then the classes. */

#ifndef _MLX5V_CLASS_H_
#define _MLX5V_CLASS_H_

#include <stdint.h>
#include <sys/queue.h>

#include <rte_compat.h>
#include <rte_dev.h>

#include "mlxv_class_reg.h"

#include "mlx5v_dev.h"

/** Most class drivers one device can carry. */
#define MLX5V_CLASS_MAX MLXV_CLASS_MAX

/** What a class driver hears about its device besides probe and remove. */
struct mlx5v_class_event {
	enum mlx5v_dev_event type;  /**< DEAD, PORT or REMOVE */
	unsigned int port;          /**< PORT: the port number (1-based) */
	uint8_t sub_type;           /**< PORT: the PORT_CHANGE sub-type (down, active, ...) */
};

/*
 * Class drivers are struct mlxv_class_driver (mlxv_class_reg.h): on mlx5v, cd->ctx is the
 * struct mlx5v_dev and an event is a struct mlx5v_class_event. DEAD and REMOVE run on the
 * thread that detected them (EAL interrupt thread, a command waiter, or the remover), PORT
 * on the thread polling the EQ.
 */

/**
 * Register a class driver (an RTE_INIT constructor of the class library, or a test).
 * Devices probed afterwards may select it. The name must be unique and not "none".
 * @return 0, -EINVAL or -EEXIST.
 */
__rte_internal
int mlx5v_class_driver_register(struct mlxv_class_driver *drv);

/**
 * Unregister a class driver that no device uses.
 * @return 0, -ENOENT, or -EBUSY while a device has it probed.
 */
__rte_internal
int mlx5v_class_driver_unregister(struct mlxv_class_driver *drv);

/**
 * Parse a class= value: names separated by ':' ("net", "net:test", "none"); "eth" is an
 * alias of "net". On success names[] holds pointers to static or registered names.
 * @return the number of classes (0 for "none"), or -EINVAL with one log line.
 */
__rte_internal
int mlx5v_class_parse(const char *value, const char *names[MLX5V_CLASS_MAX]);

/**
 * The bus front-ends' entry (vfio-pci and the simulators): create and bring up the device
 * named after edev on the seam hw, then probe the class drivers its class= selects. A class
 * whose driver is not loaded is skipped with a notice; a failing class probe removes the
 * classes already probed and takes the device down again. Control thread.
 * @return 0, or a negative errno with nothing left behind.
 */
__rte_internal
int mlx5v_class_dev_probe(struct rte_device *edev, const struct mlx5v_hw *hw,
			  const struct mlx5v_dev_params *params, const char *classes);

/**
 * Remove a device probed by mlx5v_class_dev_probe(): REMOVE events, class removes in reverse
 * probe order, unload, cleanup. *owner gets the front-end pointer stored in dev->owner.
 * @return 0 or -ENODEV.
 */
__rte_internal
int mlx5v_class_dev_remove(const char *name, void **owner);

/**
 * The bus front-ends' entry in a secondary process: the device lives in the primary, so
 * nothing is brought up; each class that classes (NULL: the default) selects and that can
 * attach does so. A class that cannot attach is skipped.
 * @return 0, or a negative errno with the attached classes detached again.
 */
__rte_internal
int mlx5v_class_dev_attach(struct rte_device *edev, const char *classes);

/** Detach every class from edev in a secondary process. @return 0 or the first -errno. */
__rte_internal
int mlx5v_class_dev_detach(struct rte_device *edev);

/**
 * The class drivers probed on a device, in probe order.
 * @return how many were written to names (at most n), or -ENODEV.
 */
__rte_internal
int mlx5v_class_dev_classes(const char *name, const char **names, unsigned int n);

/**
 * The bus front-ends' devargs, step 1 of 3 (doc/guides/platform/layers.rst, "Devargs"): parse
 * the devargs args of device dev into a, refusing a string that does not parse and a key
 * given twice. Then the front-end takes its own keys (mlxv_class_args_take()).
 * @return 0 or -EINVAL with one log line; free a with mlxv_class_args_free().
 */
__rte_internal
int mlx5v_class_args_parse(struct mlxv_class_args *a, const char *dev, const char *args);

/**
 * Step 2: the core's keys (cmd_to_ms, health_ms, cmd_sig, fast_unload, health_strict,
 * recovery) into dp, first reset to the defaults; class= into *classes (NULL: the default
 * class; valid while a is); the keys of the classes it selects, taken for them; the key of
 * a class it does not select refused. @return 0 or -EINVAL with one log line per fault.
 */
__rte_internal
int mlx5v_class_args_core(struct mlxv_class_args *a, const char *dev,
			  struct mlx5v_dev_params *dp, const char **classes);

/**
 * For any layer: take key from a, if there, into *out: an integer up to max (else one log
 * line naming it). @return 0 or -EINVAL.
 */
__rte_internal
int mlx5v_class_args_u32(struct mlxv_class_args *a, const char *dev, const char *key,
			 unsigned long max, uint32_t *out);

/** Step 3 (mlx5v_pci): refuse, naming each, the keys no layer took. @return 0 or -EINVAL. */
int mlx5v_class_args_check(const struct mlxv_class_args *a, const char *dev);

/** The MLXV_CLASS_F_* of the classes probed on a device, or-ed (0: none, or no device). */
unsigned int mlx5v_class_dev_flags(const char *name);

#endif /* _MLX5V_CLASS_H_ */
