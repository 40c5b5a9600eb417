/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The mlx5v_sim vdev: a simulated ConnectX brought up by the mlx5v core. */

#include <errno.h>
#include <inttypes.h>
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

/* Devargs the front-end itself consumes; any other key is a simulator fault knob. */
#define MLX5V_SIM_ARG_MSIX "msix"
#define MLX5V_SIM_ARG_PORTS "ports"
#define MLX5V_SIM_ARG_BOOT_MS "boot_ms"
#define MLX5V_SIM_ARG_BOOT_PAGES "boot_pages"
#define MLX5V_SIM_ARG_INIT_PAGES "init_pages"
#define MLX5V_SIM_ARG_LOG_MAX_EQ_SZ "log_max_eq_sz"
#define MLX5V_SIM_ARG_MAX_EQS "max_eqs"
#define MLX5V_SIM_ARG_HEALTH_MS "health_ms"
#define MLX5V_SIM_ARG_CMD_TO_MS "cmd_to_ms"
#define MLX5V_SIM_ARG_TOUT_SCALE "tout_scale"
#define MLX5V_SIM_ARG_CMD_SIG "cmd_sig"
#define MLX5V_SIM_ARG_FAST_UNLOAD "fast_unload"
#define MLX5V_SIM_ARG_FUNCTION "function"
#define MLX5V_SIM_ARG_HEALTH_STRICT "health_strict"
#define MLX5V_SIM_ARG_HOST_PAGE "host_page"
#define MLX5V_SIM_ARG_FIRST_NUM "first_num"

#define MLX5V_SIM_CLASS_LEN 128

static int
mlx5v_sim_vdev_uint(const char *key, const char *val, unsigned int max, unsigned int *out)
{
	char *end = NULL;
	unsigned long v;

	errno = 0;
	v = strtoul(val, &end, 0);
	if (errno != 0 || end == val || *end != '\0' || v > max) {
		SIM_LOG(ERR, "devarg %s=%s: expected an integer <= %u", key, val, max);
		return -EINVAL;
	}
	*out = (unsigned int)v;
	return 0;
}

/*
 * Split devargs between the simulator parameters, the core parameters and the
 * simulator's fault knobs (passed on as "name=value,..."; the simulator rejects
 * unknown names with EINVAL).
 */
static int
mlx5v_sim_vdev_parse(const char *args, struct mlx5v_sim_params *sp,
		     struct mlx5v_dev_params *dp, char **knobs, char *classes)
{
	struct rte_kvargs *kv;
	size_t klen = 0;
	unsigned int i, v;
	const char *dup;
	int ret = 0;

	*knobs = NULL;
	if (args == NULL || args[0] == '\0')
		return 0;
	kv = rte_kvargs_parse(args, NULL);
	if (kv == NULL) {
		SIM_LOG(ERR, "cannot parse devargs \"%s\"", args);
		return -EINVAL;
	}
	dup = hwsim_kvargs_dup_key(kv);
	if (dup != NULL) {
		SIM_LOG(ERR, "devarg %s given twice in \"%s\"", dup, args);
		rte_kvargs_free(kv);
		return -EINVAL;
	}
	for (i = 0; i < kv->count && ret == 0; i++) {
		const char *k = kv->pairs[i].key;
		const char *val = kv->pairs[i].value != NULL ? kv->pairs[i].value : "";

		if (strcmp(k, MLX5V_CLASS_ARG) == 0) {
			/* Validated by the class layer (mlx5v_class_parse()). */
			if (val[0] == '\0' || strlen(val) >= MLX5V_SIM_CLASS_LEN ||
			    classes[0] != '\0') {
				SIM_LOG(ERR, "devarg %s: empty, too long or given twice", k);
				ret = -EINVAL;
			} else {
				strlcpy(classes, val, MLX5V_SIM_CLASS_LEN);
			}
		} else if (strcmp(k, MLX5V_SIM_ARG_MSIX) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 2048, &sp->msix);
		} else if (strcmp(k, MLX5V_SIM_ARG_PORTS) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 4, &sp->ports);
		} else if (strcmp(k, MLX5V_SIM_ARG_BOOT_MS) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 600000, &sp->boot_ms);
		} else if (strcmp(k, MLX5V_SIM_ARG_BOOT_PAGES) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 1u << 20, &sp->boot_pages);
		} else if (strcmp(k, MLX5V_SIM_ARG_INIT_PAGES) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 1u << 20, &sp->init_pages);
		} else if (strcmp(k, MLX5V_SIM_ARG_LOG_MAX_EQ_SZ) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 24, &sp->log_max_eq_sz);
		} else if (strcmp(k, MLX5V_SIM_ARG_MAX_EQS) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 256, &sp->max_eqs);
		} else if (strcmp(k, MLX5V_SIM_ARG_HEALTH_MS) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 3600000, &v);
			dp->tout_ms[MLX5V_TO_HEALTH_POLL] = v;
		} else if (strcmp(k, MLX5V_SIM_ARG_CMD_TO_MS) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 3600000, &v);
			dp->tout_ms[MLX5V_TO_CMD] = v;
		} else if (strcmp(k, MLX5V_SIM_ARG_TOUT_SCALE) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 100000, &dp->tout_scale);
		} else if (strcmp(k, MLX5V_SIM_ARG_CMD_SIG) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 1, &v);
			dp->cmd_sig = v;
		} else if (mlx5v_class_key_known(k)) {
			/* A class driver reads it at probe. */
			continue;
		} else if (strcmp(k, MLX5V_SIM_ARG_FUNCTION) == 0) {
			/* pf (default) or vf: which PCI function the model plays. */
			if (strcmp(val, "pf") == 0 || strcmp(val, "vf") == 0) {
				sp->vf = strcmp(val, "vf") == 0;
			} else {
				SIM_LOG(ERR, "devarg %s=%s: expected pf or vf", k, val);
				ret = -EINVAL;
			}
		} else if (strcmp(k, MLX5V_SIM_ARG_HOST_PAGE) == 0) {
			/* The range and power of two are checked by mlx5v_sim_create(). */
			ret = mlx5v_sim_vdev_uint(k, val, 65536, &sp->host_page);
		} else if (strcmp(k, MLX5V_SIM_ARG_FIRST_NUM) == 0) {
			/* 1 (default) or 0: the first EQN/CQN handed out. */
			ret = mlx5v_sim_vdev_uint(k, val, 1, &sp->first_num);
		} else if (strcmp(k, MLX5V_SIM_ARG_HEALTH_STRICT) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 1, &v);
			dp->health_strict = v;
		} else if (strcmp(k, MLX5V_RECOVERY_ARG) == 0) {
			ret = mlx5v_recovery_parse(val);
			if (ret >= 0) {
				dp->recovery = ret;
				ret = 0;
			}
		} else if (strcmp(k, MLX5V_SIM_ARG_FAST_UNLOAD) == 0) {
			ret = mlx5v_sim_vdev_uint(k, val, 1, &v);
			dp->fast_teardown = v;
		} else {
			size_t add = strlen(k) + strlen(val) + 2;
			char *n = realloc(*knobs, klen + add + 1);

			if (n == NULL) {
				ret = -ENOMEM;
				break;
			}
			*knobs = n;
			klen += snprintf(*knobs + klen, add + 1, "%s%s=%s",
					 klen ? "," : "", k, val);
		}
	}
	rte_kvargs_free(kv);
	if (ret < 0) {
		free(*knobs);
		*knobs = NULL;
	}
	return ret;
}

static int
mlx5v_sim_vdev_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	char classes[MLX5V_SIM_CLASS_LEN] = "";
	struct mlx5v_sim_params sp;
	struct mlx5v_dev_params dp;
	struct mlx5v_sim *sim;
	struct mlx5v_hw hw;
	char *knobs = NULL;
	int ret;

	mlx5v_sim_params_default(&sp);
	memset(&dp, 0, sizeof(dp));
	/* As on the PCI bus: a dead device is reset and brought up again (recovery=reset). */
	dp.recovery = MLX5V_RECOVERY_RESET;
	ret = mlx5v_sim_vdev_parse(rte_vdev_device_args(vdev), &sp, &dp, &knobs, classes);
	if (ret < 0)
		return ret;
	/* The model lives in the primary: a secondary attaches the classes to it. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		free(knobs);
		return mlx5v_class_dev_attach(&vdev->device, classes[0] != '\0' ? classes : NULL);
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
		goto err_knobs_free;
	}
	/* A template: the core keeps its own process-local copy of the seam. */
	mlx5v_sim_hw_init(sim, &hw);
	ret = mlx5v_class_dev_probe(&vdev->device, &hw, &dp, classes[0] != '\0' ? classes : NULL);
	if (ret < 0)
		goto err_sim_destroy;
	free(knobs);
	SIM_LOG(INFO, "%s: simulated ConnectX up (msix=%u ports=%u%s)", name, sp.msix, sp.ports,
		sp.vf ? " VF" : "");
	return 0;

err_sim_destroy:
	mlx5v_sim_destroy(sim);
err_knobs_free:
	free(knobs);
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
