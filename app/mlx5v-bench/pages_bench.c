/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Firmware pages at scale on the simulator: time and allocator work per page for
 * the bring-up give (init_pages), a run-time give and the reclaim at unload.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "mlx5v_dev.h"
#include "mlx5v_sim.h"

#define BENCH_DEV "mlx5v_sim0"
/* Longest wait for the run-time give; far above what 10^6 pages take on the simulator. */
#define BENCH_WAIT_NS (600ull * 1000000000ull)

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
report(const char *what, uint64_t pages, uint64_t ns, uint64_t steps)
{
	printf("%-30s %8" PRIu64 " pages %9.1f ms %7.2f us/page", what, pages, ns / 1e6,
	       pages ? ns / 1e3 / pages : 0.0);
	if (steps != UINT64_MAX && pages != 0)
		printf(" %6.2f steps/page", (double)steps / pages);
	printf("\n");
}

int
main(int argc, char **argv)
{
	struct mlx5v_dev *dev;
	struct mlx5v_sim *sim;
	uint64_t t0, t1, s0, base, deadline;
	unsigned long n = 100000;
	char args[128];
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (argc > 1)
		n = strtoul(argv[1], NULL, 0);
	if (n == 0 || n > 500000) {
		printf("pages: 1 .. 500000\n");
		rte_eal_cleanup();
		return 1;
	}
	/* Every timeout generous: the run is about throughput, not about failure paths. */
	snprintf(args, sizeof(args), "msix=4,init_pages=%lu,cmd_to_ms=600000", n);
	t0 = now_ns();
	if (rte_vdev_init(BENCH_DEV, args) != 0) {
		printf("rte_vdev_init(%s): %s\n", args, rte_strerror(rte_errno));
		rte_eal_cleanup();
		return 1;
	}
	t1 = now_ns();
	dev = mlx5v_dev_get(BENCH_DEV);
	sim = mlx5v_sim_get(BENCH_DEV);
	if (dev == NULL || sim == NULL) {
		rte_vdev_uninit(BENCH_DEV);
		rte_eal_cleanup();
		return 1;
	}
	base = mlx5v_pages_given(dev);
	report("bring-up (boot + init pages)", base, t1 - t0, dev->pages.steps);
	/* A PAGE_REQUEST of n more pages, served by the page work on the interrupt thread. */
	s0 = dev->pages.steps;
	t0 = now_ns();
	ret = mlx5v_sim_request_pages(sim, (int32_t)n);
	deadline = t0 + BENCH_WAIT_NS;
	while (ret >= 0 && mlx5v_pages_given(dev) < base + n && now_ns() < deadline)
		usleep(100);
	t1 = now_ns();
	if (ret < 0 || mlx5v_pages_given(dev) < base + n)
		printf("run-time give incomplete: %" PRIu64 " of %lu pages\n",
		       mlx5v_pages_given(dev) - base, n);
	else
		report("PAGE_REQUEST give", n, t1 - t0, dev->pages.steps - s0);
	/* Unload reclaims everything with TAKE (768 pages per command), then frees. */
	base = mlx5v_pages_given(dev);
	s0 = dev->pages.steps;
	t0 = now_ns();
	rte_vdev_uninit(BENCH_DEV);
	t1 = now_ns();
	/* dev is gone: only the page count taken before is reported. */
	report("unload (reclaim all, free)", base, t1 - t0, UINT64_MAX);
	rte_eal_cleanup();
	return 0;
}
