/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The class= devarg and class drivers of the mlx4v common driver, on the shared registry. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_string_fns.h>

#include "mlxv_class_reg.h"
#include "mlx4v_class.h"
#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

/* The devices probed and their classes. Process-local (function pointers). */
static struct mlxv_class_reg mlx4v_class_reg =
	MLXV_CLASS_REG_INITIALIZER(mlx4v_class_reg, "mlx4v", mlx4v_logtype);

RTE_INIT(mlx4v_class_reg_init)
{
	mlxv_class_reg_init(&mlx4v_class_reg);
}

int
mlx4v_class_driver_register(struct mlxv_class_driver *drv)
{
	return mlxv_class_reg_driver_add(&mlx4v_class_reg, drv);
}

int
mlx4v_class_driver_unregister(struct mlxv_class_driver *drv)
{
	return mlxv_class_reg_driver_del(&mlx4v_class_reg, drv);
}

int
mlx4v_class_parse(const char *value, const char *names[MLX4V_CLASS_MAX])
{
	/* NULL is the caller's error here, not "the default". */
	return mlxv_class_reg_parse(&mlx4v_class_reg, value != NULL ? value : "", names);
}

int
mlx4v_class_dev_probe(struct rte_device *edev, const char *name,
		      const struct mlx4v_verbs_ops *ops, void *priv, int socket,
		      const char *classes)
{
	const char *names[MLX4V_CLASS_MAX];
	enum mlx4v_recovery_mode mode;
	struct mlxv_class_dev *cd;
	int n, ret;

	if (name == NULL || strlen(name) >= RTE_DEV_NAME_MAX_LEN)
		return -EINVAL;
	n = mlxv_class_reg_parse(&mlx4v_class_reg, classes, names);
	if (n < 0)
		return n;
	cd = calloc(1, sizeof(*cd));
	if (cd == NULL)
		return -ENOMEM;
	strlcpy(cd->name, name, sizeof(cd->name));
	ret = mlx4v_recovery_devargs(edev);
	if (ret < 0)
		goto err_cd_free;
	mode = ret;
	ret = mlx4v_dev_register(name, ops, priv, socket);
	if (ret < 0)
		goto err_cd_free;
	mlx4v_recovery_mode_set(name, mode);
	ret = mlxv_class_reg_dev_add(&mlx4v_class_reg, cd, edev, names, n);
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
	struct mlxv_class_dev *cd;

	cd = mlxv_class_reg_dev_get(&mlx4v_class_reg, name);
	if (cd == NULL)
		return -ENODEV;
	mlxv_class_reg_dev_del(&mlx4v_class_reg, cd, &ev);
	/* Mirrors mlx4v_class_dev_probe(): what the classes left behind is force-released. */
	mlx4v_dev_unregister(cd->name);
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
	int recover = 0;

	if (name == NULL || ev == NULL)
		return;
	/*
	 * Before the classes hear DEAD: they then find the recovery under way. A death heard
	 * already (another handle's report of it, or of an older life) is not passed on.
	 */
	if (ev->type == MLX4V_CLASS_EVENT_DEAD)
		recover = mlx4v_recovery_dead(name, ev);
	if (recover < 0)
		return;
	mlxv_class_reg_deliver(&mlx4v_class_reg, name, ev, ev->type);
	/* After: the classes stopped their bursts before the device reset stops the queues. */
	if (recover)
		mlx4v_recovery_schedule(name);
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

int
mlx4v_class_dev_attach(struct rte_device *edev, const char *classes)
{
	return mlxv_class_reg_dev_attach(&mlx4v_class_reg, edev, classes);
}

int
mlx4v_class_dev_detach(struct rte_device *edev)
{
	return mlxv_class_reg_dev_detach(&mlx4v_class_reg, edev);
}

int
mlx4v_class_dev_classes(const char *name, const char **names, unsigned int n)
{
	return mlxv_class_reg_dev_classes(&mlx4v_class_reg, name, names, n);
}

int
mlx4v_class_args_parse(struct mlxv_class_args *a, const char *dev, const char *args)
{
	return mlxv_class_reg_args_parse(&mlx4v_class_reg, a, dev, args);
}

int
mlx4v_class_args_core(struct mlxv_class_args *a, const char *dev, const char **classes)
{
	const char *val = NULL;

	/* The core's key; mlx4v_class_dev_probe() reads its value from the devargs again. */
	if (mlxv_class_args_take(a, MLX4V_RECOVERY_ARG, &val) && mlx4v_recovery_parse(val) < 0) {
		MLX4V_LOG(ERR, "%s: devarg %s=%s: expected reset or dead", dev,
			  MLX4V_RECOVERY_ARG, val != NULL ? val : "");
		return -EINVAL;
	}
	return mlxv_class_reg_args(&mlx4v_class_reg, a, dev, classes);
}

int
mlx4v_class_args_check(const struct mlxv_class_args *a, const char *dev)
{
	return mlxv_class_reg_args_check(&mlx4v_class_reg, a, dev);
}
