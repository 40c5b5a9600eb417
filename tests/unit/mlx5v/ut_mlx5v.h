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
#include <time.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "hwsim_wire.h"
#include "mlx5v_dev.h"
#include "mlx5v_sim.h"

/* Every wait on the simulator is bounded by this; no test asserts how fast anything is. */
#define UT_WAIT_LIMIT_MS 10000

static inline uint64_t
ut_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static inline void
ut_sleep_ms(unsigned int ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/** EAL heap in use, all sockets: allocated bytes and element count. */
struct ut_heap {
	uint64_t bytes;
	uint64_t count;
};

static inline void
ut_heap_get(struct ut_heap *h)
{
	struct rte_malloc_socket_stats st;
	int s;

	/*
	 * Every simulated device plugs a port into the wire, whose registry is a memzone made
	 * once per process by the first port: looking a name up makes it now, so the first
	 * device probed between two snapshots does not show it as a leak.
	 */
	hwsim_wire_port_find("");
	memset(h, 0, sizeof(*h));
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		if (rte_malloc_get_socket_stats(s, &st) != 0)
			continue;
		h->bytes += st.heap_allocsz_bytes;
		h->count += st.alloc_count;
	}
}

static inline int
ut_heap_same(const struct ut_heap *a, const struct ut_heap *b)
{
	if (a->bytes == b->bytes && a->count == b->count)
		return 1;
	printf("EAL heap: %" PRIu64 " bytes in %" PRIu64 " elements before, %" PRIu64
	       " bytes in %" PRIu64 " after\n", a->bytes, a->count, b->bytes, b->count);
	return 0;
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
