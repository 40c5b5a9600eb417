/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Helpers shared by the mlx5v core unit tests: devices on the simulator, leak checks. */

#ifndef _UT_MLX5V_H_
#define _UT_MLX5V_H_

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "hwsim_wire.h"
#include "mlx5v_dev.h"
#include "mlx5v_sim.h"
#include "ut_common.h"
#include "ut_dev.h"

/** Probe name with args on the EAL vdev bus, as an application does. @return 0 or -1. */
static inline int
ut_vdev_up(const char *name, const char *args, struct mlx5v_dev **dev, struct mlx5v_sim **sim)
{
	if (rte_vdev_init(name, args) != 0) {
		printf("rte_vdev_init(%s, %s) failed\n", name, args);
		return -1;
	}
	*dev = mlx5v_dev_get(name);
	*sim = mlx5v_sim_get(name);
	return *dev != NULL && *sim != NULL ? 0 : -1;
}

/**
 * The program's own device: ut_vdev_up(), or the PCI function EAL's arguments allow, with
 * its model's knobs on dpdk-mlxv-vfio-run's --dev (ut_dev.h). @return 0 or -1.
 */
static inline int
ut_main_up(const char *vdev, const char *args, struct mlx5v_dev **dev, struct mlx5v_sim **sim)
{
	if (!ut_dev_pci())
		return ut_vdev_up(vdev, args, dev, sim);
	if (ut_dev_probe(vdev, args) != 0)
		return -1;
	*dev = mlx5v_dev_get(ut_dev_name(vdev));
	*sim = mlx5v_sim_get(ut_dev_sim_name(vdev));
	return *dev != NULL && *sim != NULL ? 0 : -1;
}

/** A device built directly on a simulator (no vdev), so the model outlives a failed load. */
struct ut_dev {
	struct mlx5v_sim *sim;
	struct mlx5v_hw hw;
	struct mlx5v_dev *dev;
};

/** Fast timeouts for the simulator; no test depends on their exact value. */
static inline void
ut_dev_params(struct mlx5v_dev_params *dp)
{
	memset(dp, 0, sizeof(*dp));
	dp->tout_ms[MLX5V_TO_FW_PRE_INIT] = 2000;
	dp->tout_ms[MLX5V_TO_CMD] = 2000;
	dp->tout_ms[MLX5V_TO_CMD_RECOVER] = 1000;
	dp->tout_ms[MLX5V_TO_CMD_SLOT] = 2000;
	dp->tout_ms[MLX5V_TO_PAGES_RECLAIM] = 500;
	dp->tout_ms[MLX5V_TO_HEALTH_POLL] = 3600000;   /* the health tests start their own */
}

static inline int
ut_dev_create(struct ut_dev *u, const char *name, unsigned int msix, unsigned int boot_ms,
	      const struct mlx5v_dev_params *dp)
{
	struct mlx5v_sim_params sp;
	struct mlx5v_dev_params def;

	memset(u, 0, sizeof(*u));
	mlx5v_sim_params_default(&sp);
	sp.msix = msix;
	sp.boot_ms = boot_ms;
	u->sim = mlx5v_sim_create(name, &sp);
	if (u->sim == NULL) {
		printf("mlx5v_sim_create(%s): %s\n", name, rte_strerror(rte_errno));
		return -1;
	}
	u->hw.ops = &mlx5v_sim_hw_ops;
	u->hw.priv = u->sim;
	u->hw.numa_node = SOCKET_ID_ANY;
	snprintf(u->hw.name, sizeof(u->hw.name), "%s", name);
	if (dp == NULL) {
		ut_dev_params(&def);
		dp = &def;
	}
	u->dev = mlx5v_dev_init(name, &u->hw, dp);
	if (u->dev == NULL) {
		printf("mlx5v_dev_init(%s): %s\n", name, rte_strerror(rte_errno));
		mlx5v_sim_destroy(u->sim);
		u->sim = NULL;
		return -1;
	}
	return 0;
}

static inline void
ut_dev_destroy(struct ut_dev *u)
{
	if (u->dev != NULL)
		mlx5v_dev_cleanup(u->dev);
	if (u->sim != NULL)
		mlx5v_sim_destroy(u->sim);
	memset(u, 0, sizeof(*u));
}

/** @return 0 if the model holds no object of any kind, else prints what leaked. */
static inline int
ut_sim_clean(struct mlx5v_sim *sim)
{
	static const char *const names[MLX5V_SIM_OBJ_MAX] = {
		"EQ", "CQ", "UAR", "PAGES", "DMA_WINDOWS",
	};
	unsigned int k, n;
	int ret = 0;

	for (k = 0; k < MLX5V_SIM_OBJ_MAX; k++) {
		n = mlx5v_sim_live_objects(sim, (enum mlx5v_sim_obj)k);
		if (n != 0) {
			printf("simulator still holds %u %s\n", n, names[k]);
			ret = -1;
		}
	}
	return ret;
}

#endif /* _UT_MLX5V_H_ */
