/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file dpdk-mlxv-vfio-bench: bring-up time of one emulated function, rdma-core's mlx5 VFIO
 * provider against mlx5v's vfio-pci backend, in one run (doc/guides/bench/vfio_bringup.rst).
 * Run under the launcher:
 *
 *     dpdk-mlxv-vfio-run -- dpdk-mlxv-vfio-bench [ROUNDS] -- EAL-ARGS
 *
 * rdma-core: ibv_open_device() + ibv_close_device() per round. mlx5v: EAL starts with the
 * function blocked (-b), then rte_eal_hotplug_add() + rte_eal_hotplug_remove() per round
 * (class=none: the core's bring-up and teardown, no port). Prints min and median of each,
 * in ms.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>

#define BENCH_BDF "0000:00:05.0"
#define BENCH_MAX_ROUNDS 1000

static double
bench_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
bench_print(const char *who, double *t, int n)
{
	qsort(t, n, sizeof(*t), bench_cmp);
	printf("%-28s rounds %4d  min %8.3f ms  median %8.3f ms\n", who, n, t[0], t[n / 2]);
}

/* One rdma-core open and close. @return the open's ms, or < 0. */
static double
bench_rdma_core(double *close_ms)
{
	struct mlx5dv_vfio_context_attr attr = { .pci_name = BENCH_BDF };
	struct ibv_device **list;
	struct ibv_context *ctx;
	double t0, t1;

	t0 = bench_ms();
	list = mlx5dv_get_vfio_device_list(&attr);
	if (list == NULL)
		return -1;
	ctx = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	if (ctx == NULL)
		return -1;
	t1 = bench_ms();
	ibv_close_device(ctx);
	*close_ms = bench_ms() - t1;
	return t1 - t0;
}

/* One mlx5v probe and remove. @return the probe's ms, or < 0. */
static double
bench_mlx5v(double *close_ms)
{
	double t0, t1;

	t0 = bench_ms();
	if (rte_eal_hotplug_add("pci", BENCH_BDF, "mlx5v=1,class=none") != 0)
		return -1;
	t1 = bench_ms();
	if (rte_eal_hotplug_remove("pci", BENCH_BDF) != 0)
		return -1;
	*close_ms = bench_ms() - t1;
	return t1 - t0;
}

int
main(int argc, char **argv)
{
	static double open_t[BENCH_MAX_ROUNDS], close_t[BENCH_MAX_ROUNDS];
	int rounds = 20;
	int i, sep;

	for (sep = 1; sep < argc && strcmp(argv[sep], "--") != 0; sep++)
		;
	if (sep > 1)
		rounds = atoi(argv[1]);
	if (rounds < 1 || rounds > BENCH_MAX_ROUNDS || sep >= argc) {
		fprintf(stderr, "usage: %s [ROUNDS] -- EAL-ARGS (run under dpdk-mlxv-vfio-run)\n",
			argv[0]);
		return 2;
	}
	for (i = 0; i < rounds; i++) {
		open_t[i] = bench_rdma_core(&close_t[i]);
		if (open_t[i] < 0) {
			fprintf(stderr, "rdma-core round %d failed\n", i);
			return 1;
		}
	}
	bench_print("rdma-core ibv_open_device", open_t, rounds);
	bench_print("rdma-core ibv_close_device", close_t, rounds);
	argv[sep] = argv[0];
	if (rte_eal_init(argc - sep, argv + sep) < 0) {
		fprintf(stderr, "EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	for (i = 0; i < rounds; i++) {
		open_t[i] = bench_mlx5v(&close_t[i]);
		if (open_t[i] < 0) {
			fprintf(stderr, "mlx5v round %d failed: %s\n", i, rte_strerror(rte_errno));
			rte_eal_cleanup();
			return 1;
		}
	}
	bench_print("mlx5v rte_dev_probe", open_t, rounds);
	bench_print("mlx5v rte_dev_remove", close_t, rounds);
	rte_eal_cleanup();
	return 0;
}
