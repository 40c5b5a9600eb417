/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The class= devarg and class drivers of the mlx5v core, on the shared registry. */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_string_fns.h>

#include "mlxv_class_reg.h"
#include "mlx5v_prm.h"
#include "mlx5v_class.h"
#include "mlx5v_devx.h"
#include "mlx5v_log.h"

/*
 * Per device: the registry's entry (the classes probed on it) and the core hook that brings
 * DEAD. Process-local, like every table that holds function pointers
 * (doc/guides/platform/mlx5v.rst, "Multi-process").
 */
struct mlx5v_class_dev {
	struct mlxv_class_dev cd;       /* cd.ctx: the struct mlx5v_dev */
	struct mlx5v_dev_hook hook;     /* DEAD and REMOVE from the core */
};

static struct mlxv_class_reg mlx5v_class_reg =
	MLXV_CLASS_REG_INITIALIZER(mlx5v_class_reg, "mlx5v", mlx5v_logtype);

RTE_INIT(mlx5v_class_reg_init)
{
	mlxv_class_reg_init(&mlx5v_class_reg);
}

int
mlx5v_class_driver_register(struct mlxv_class_driver *drv)
{
	return mlxv_class_reg_driver_add(&mlx5v_class_reg, drv);
}

int
mlx5v_class_driver_unregister(struct mlxv_class_driver *drv)
{
	return mlxv_class_reg_driver_del(&mlx5v_class_reg, drv);
}

int
mlx5v_class_parse(const char *value, const char *names[MLX5V_CLASS_MAX])
{
	/* NULL is the caller's error here, not "the default". */
	return mlxv_class_reg_parse(&mlx5v_class_reg, value != NULL ? value : "", names);
}

/* Deliver ev to every class of dev, in probe order (see mlxv_class_reg_deliver()). */
static void
mlx5v_class_deliver(struct mlx5v_dev *dev, const struct mlx5v_class_event *ev)
{
	mlxv_class_reg_deliver(&mlx5v_class_reg, dev->name, ev, ev->type);
}

/*
 * Core hook: DEAD and RECOVERED (REMOVE the class layer announces itself before unload).
 */
static void
mlx5v_class_dev_hook(struct mlx5v_dev *dev, enum mlx5v_dev_event type, void *arg)
{
	struct mlx5v_class_event ev = { .type = type };

	RTE_SET_USED(arg);
	/* RECOVERED: the classes re-create what they had (an ethdev raises RESET). */
	if (type == MLX5V_DEV_EVENT_DEAD || type == MLX5V_DEV_EVENT_RECOVERED)
		mlx5v_class_deliver(dev, &ev);
	/* The application's DEVX users hear the reset and the way back. */
	mlx5v_devx_user_event(dev, type);
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
	n = mlxv_class_reg_parse(&mlx5v_class_reg, classes, names);
	if (n < 0)
		return n;
	cd = calloc(1, sizeof(*cd));
	if (cd == NULL)
		return -ENOMEM;
	dev = mlx5v_dev_init(hw->name, hw, params);
	if (dev == NULL) {
		ret = -rte_errno;
		goto err_cd_free;
	}
	dev->owner = hw->priv;
	cd->cd.ctx = dev;
	strlcpy(cd->cd.name, dev->name, sizeof(cd->cd.name));
	ret = mlx5v_dev_load(dev);
	if (ret < 0)
		goto err_dev_cleanup;
	ret = mlxv_class_reg_dev_add(&mlx5v_class_reg, &cd->cd, edev, names, n);
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
	mlxv_class_reg_dev_del(&mlx5v_class_reg, &cd->cd, NULL);
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
	struct mlxv_class_dev *entry;
	struct mlx5v_class_dev *cd;
	struct mlx5v_dev *dev;

	entry = mlxv_class_reg_dev_get(&mlx5v_class_reg, name);
	if (entry == NULL)
		return -ENODEV;
	cd = container_of(entry, struct mlx5v_class_dev, cd);
	dev = entry->ctx;
	/* Events stop first; hook_unregister waits for a DEAD notification in flight. */
	mlx5v_eq_unsubscribe(dev, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, mlx5v_class_port_event, NULL);
	mlx5v_dev_hook_unregister(dev, &cd->hook);
	/* The classes hear REMOVE first (an ethdev raises RMV), then are removed in reverse. */
	mlxv_class_reg_dev_del(&mlx5v_class_reg, entry, &ev);
	if (owner != NULL)
		*owner = mlx5v_dev_hw(dev)->priv;
	mlx5v_dev_unload(dev);
	mlx5v_dev_cleanup(dev);
	free(cd);
	return 0;
}

int
mlx5v_class_dev_attach(struct rte_device *edev, const char *classes)
{
	return mlxv_class_reg_dev_attach(&mlx5v_class_reg, edev, classes);
}

int
mlx5v_class_dev_detach(struct rte_device *edev)
{
	return mlxv_class_reg_dev_detach(&mlx5v_class_reg, edev);
}

int
mlx5v_class_dev_classes(const char *name, const char **names, unsigned int n)
{
	return mlxv_class_reg_dev_classes(&mlx5v_class_reg, name, names, n);
}

unsigned int
mlx5v_class_dev_flags(const char *name)
{
	return mlxv_class_reg_dev_flags(&mlx5v_class_reg, name);
}

/* ---------------------------------------------------------------- devargs */

int
mlx5v_class_args_parse(struct mlxv_class_args *a, const char *dev, const char *args)
{
	return mlxv_class_reg_args_parse(&mlx5v_class_reg, a, dev, args);
}

int
mlx5v_class_args_u32(struct mlxv_class_args *a, const char *dev, const char *key,
		     unsigned long max, uint32_t *out)
{
	const char *val;
	char *end = NULL;
	unsigned long v;

	if (!mlxv_class_args_take(a, key, &val))
		return 0;
	errno = 0;
	v = val != NULL ? strtoul(val, &end, 0) : ULONG_MAX;
	if (val == NULL || errno != 0 || end == val || *end != '\0' || v > max) {
		MLX5V_LOG(ERR, "%s: devarg %s=%s: expected an integer <= %lu", dev, key,
			  val != NULL ? val : "", max);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

/* recovery=reset|dead (mlx5v_recovery_parse()), if there. @return 0 or -EINVAL. */
static int
mlx5v_class_args_recovery(struct mlxv_class_args *a, int *out)
{
	const char *val;
	int ret;

	if (!mlxv_class_args_take(a, MLX5V_RECOVERY_ARG, &val))
		return 0;
	ret = mlx5v_recovery_parse(val);
	if (ret < 0)
		return ret;
	*out = ret;
	return 0;
}

/* One parser for the core's keys, whichever front-end (vfio-pci, a simulator) has them. */
int
mlx5v_class_args_core(struct mlxv_class_args *a, const char *dev, struct mlx5v_dev_params *dp,
		      const char **classes)
{
	uint32_t sig = 0, fast = 0, strict = 0;
	int ret;

	memset(dp, 0, sizeof(*dp));
	/* A dead device is reset and brought up again unless recovery=dead says otherwise. */
	dp->recovery = MLX5V_RECOVERY_RESET;
	ret = mlx5v_class_args_u32(a, dev, "cmd_to_ms", 3600000, &dp->tout_ms[MLX5V_TO_CMD]);
	ret |= mlx5v_class_args_u32(a, dev, "health_ms", 3600000,
				    &dp->tout_ms[MLX5V_TO_HEALTH_POLL]);
	ret |= mlx5v_class_args_u32(a, dev, "cmd_sig", 1, &sig);
	ret |= mlx5v_class_args_u32(a, dev, "fast_unload", 1, &fast);
	ret |= mlx5v_class_args_u32(a, dev, "health_strict", 1, &strict);
	ret |= mlx5v_class_args_recovery(a, &dp->recovery);
	dp->cmd_sig = sig;
	dp->fast_teardown = fast;
	dp->health_strict = strict;
	if (ret != 0)
		return -EINVAL;
	return mlxv_class_reg_args(&mlx5v_class_reg, a, dev, classes);
}

int
mlx5v_class_args_check(const struct mlxv_class_args *a, const char *dev)
{
	return mlxv_class_reg_args_check(&mlx5v_class_reg, a, dev);
}
