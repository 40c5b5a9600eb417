/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The mlx5v_sim vdev: a simulated ConnectX brought up by the mlx5v core. */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_kvargs.h>
#include <rte_string_fns.h>
#include <rte_malloc.h>
#include <bus_vdev_driver.h>

#include "hwsim_fault.h"
#include "mlx5v_class.h"
#include "mlx5v_dev.h"
#include "mlx5v_sim.h"
#include "mlx5v_sim_log.h"

/* The front-end's keys, each with its largest value; every key no other layer takes is a knob. */
static const struct {
	const char *key;
	unsigned int max;
	size_t off;                 /* in struct mlx5v_sim_params */
} mlx5v_sim_vdev_keys[] = {
	{ "msix", 2048, offsetof(struct mlx5v_sim_params, msix) },
	{ "ports", 4, offsetof(struct mlx5v_sim_params, ports) },
	{ "boot_ms", 600000, offsetof(struct mlx5v_sim_params, boot_ms) },
	{ "boot_pages", 1u << 20, offsetof(struct mlx5v_sim_params, boot_pages) },
	{ "init_pages", 1u << 20, offsetof(struct mlx5v_sim_params, init_pages) },
	{ "log_max_eq_sz", 24, offsetof(struct mlx5v_sim_params, log_max_eq_sz) },
	{ "max_eqs", 256, offsetof(struct mlx5v_sim_params, max_eqs) },
	/* The range and power of two are checked by mlx5v_sim_create(). */
	{ "host_page", 65536, offsetof(struct mlx5v_sim_params, host_page) },
	/* 1 (default) or 0: the first EQN/CQN handed out. */
	{ "first_num", 1, offsetof(struct mlx5v_sim_params, first_num) },
};

/*
 * The devargs, layer by layer (doc/guides/platform/layers.rst, "Devargs"): the front-end's
 * keys into sp, the core's and the classes' (mlx5v_class_args_core()), tout_scale (the
 * simulator's scale of the core's timeouts) into dp, and every key left to the simulator as
 * its fault knobs (*knobs: "name=value,..."; the simulator refuses an unknown name).
 */
static int
mlx5v_sim_vdev_parse(struct mlxv_class_args *a, const char *name, struct mlx5v_sim_params *sp,
		     struct mlx5v_dev_params *dp, const char **classes, char **knobs)
{
	const char *val;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < RTE_DIM(mlx5v_sim_vdev_keys) && ret == 0; i++)
		ret = mlx5v_class_args_u32(a, name, mlx5v_sim_vdev_keys[i].key,
					   mlx5v_sim_vdev_keys[i].max,
					   RTE_PTR_ADD(sp, mlx5v_sim_vdev_keys[i].off));
	/* pf (default) or vf: which PCI function the model plays. */
	if (ret == 0 && mlxv_class_args_take(a, "function", &val)) {
		if (val != NULL && (strcmp(val, "pf") == 0 || strcmp(val, "vf") == 0)) {
			sp->vf = strcmp(val, "vf") == 0;
		} else {
			SIM_LOG(ERR, "devarg function=%s: expected pf or vf",
				val != NULL ? val : "");
			ret = -EINVAL;
		}
	}
	if (ret == 0)
		ret = mlx5v_class_args_core(a, name, dp, classes);
	if (ret == 0)
		ret = mlx5v_class_args_u32(a, name, "tout_scale", 100000, &dp->tout_scale);
	if (ret == 0)
		ret = mlxv_class_args_rest(a, knobs);
	return ret;
}

static int
mlx5v_sim_vdev_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct mlxv_class_args a;
	struct mlx5v_sim_params sp;
	const char *classes = NULL;
	struct mlx5v_dev_params dp;
	struct mlx5v_sim *sim;
	struct mlx5v_hw hw;
	char *knobs = NULL;
	int ret;

	mlx5v_sim_params_default(&sp);
	ret = mlx5v_class_args_parse(&a, name, rte_vdev_device_args(vdev));
	if (ret < 0)
		return ret;
	ret = mlx5v_sim_vdev_parse(&a, name, &sp, &dp, &classes, &knobs);
	if (ret < 0)
		goto free_args;
	/* The model lives in the primary: a secondary attaches the classes to it. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		ret = mlx5v_class_dev_attach(&vdev->device, classes);
		goto free_args;
	}
	sp.knobs = knobs;
	sp.numa_node = vdev->device.numa_node;
	sim = mlx5v_sim_create(name, &sp);
	if (sim == NULL) {
		ret = -rte_errno;
		/*
		 * A bad value (EINVAL) or a pair to an unknown device (ENODEV) was logged by the
		 * model or the wire with the key that is wrong: one line is enough.
		 */
		if (rte_errno == EINVAL || rte_errno == ENODEV)
			SIM_LOG(DEBUG, "%s: cannot create the simulator: %s", name,
				strerror(rte_errno));
		else
			SIM_LOG(ERR, "%s: cannot create the simulator "
				"(bad devarg or knob in \"%s\"?): %s",
				name, knobs != NULL ? knobs : "", strerror(rte_errno));
		goto free_args;
	}
	/* A template: the core keeps its own process-local copy of the seam. */
	mlx5v_sim_hw_init(sim, &hw);
	ret = mlx5v_class_dev_probe(&vdev->device, &hw, &dp, classes);
	if (ret < 0)
		goto err_sim_destroy;
	free(knobs);
	mlxv_class_args_free(&a);
	SIM_LOG(INFO, "%s: simulated ConnectX up (msix=%u ports=%u%s)", name, sp.msix, sp.ports,
		sp.vf ? " VF" : "");
	return 0;

err_sim_destroy:
	mlx5v_sim_destroy(sim);
free_args:
	free(knobs);
	mlxv_class_args_free(&a);
	return ret;
}

/*
 * Also the process-exit path: rte_eal_cleanup() -> eal_bus_cleanup() -> the vdev bus's
 * vdev_cleanup() calls remove for every probed device (DPDK 22.11, drivers/bus/vdev).
 */
static int
mlx5v_sim_vdev_remove(struct rte_vdev_device *vdev)
{
	struct mlx5v_sim *sim = NULL;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5v_class_dev_detach(&vdev->device);
	ret = mlx5v_class_dev_remove(rte_vdev_device_name(vdev), (void **)&sim);
	if (ret < 0)
		return ret;
	mlx5v_sim_destroy(sim);
	return 0;
}

static struct rte_vdev_driver mlx5v_sim_vdev_drv = {
	.probe = mlx5v_sim_vdev_probe,
	.remove = mlx5v_sim_vdev_remove,
};

RTE_PMD_REGISTER_VDEV(mlx5v_sim, mlx5v_sim_vdev_drv);
RTE_PMD_REGISTER_PARAM_STRING(mlx5v_sim,
	"class=<net|none|name:name> msix=<int> ports=<int> boot_ms=<int> boot_pages=<int> "
	"init_pages=<int> log_max_eq_sz=<int> max_eqs=<int> health_ms=<int> cmd_to_ms=<int> "
	"tout_scale=<int> cmd_sig=<0|1> fast_unload=<0|1> function=<pf|vf> health_strict=<0|1> "
	"recovery=<reset|dead> "
	"host_page=<4096..65536> <knob>=<int>");
