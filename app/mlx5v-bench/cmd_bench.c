/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Command round trip of the mlx5v core on the simulator: commands/s, and the time
 * per command split between the driver and the device (doorbell to completion seen).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "mlx5v_dev.h"

#define BENCH_DEV "mlx5v_sim0"

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct bench_cmd {
	const char *what;
	uint16_t opcode;
	uint16_t op_mod;
	uint32_t dw2;
	size_t outlen;
};

static int
bench_one(struct mlx5v_dev *dev, const struct bench_cmd *b, unsigned int iters)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	struct mlx5v_cmd_stats s0, s1;
	uint64_t t0, t1, n;
	double per_cmd, dev_ns, ev_ns, drv_ns;
	uint8_t *out;
	unsigned int i;
	int ret;

	out = calloc(1, b->outlen);
	if (out == NULL)
		return -ENOMEM;
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, b->opcode);
	MLX5V_IFC_SET(cmd_in_hdr, in, op_mod, b->op_mod);
	MLX5V_IFC_SET(cmd_in_hdr, in, command_dw2, b->dw2);
	/* Warm-up: grows the slot's mailbox chain once. */
	for (i = 0; i < 100; i++) {
		ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, b->outlen);
		if (ret != 0) {
			printf("%s: %s\n", b->what, strerror(-ret));
			free(out);
			return ret;
		}
	}
	mlx5v_cmd_stats_get(dev, b->opcode, &s0);
	t0 = now_ns();
	for (i = 0; i < iters; i++)
		if (mlx5v_cmd_exec(dev, in, sizeof(in), out, b->outlen) != 0)
			break;
	t1 = now_ns();
	mlx5v_cmd_stats_get(dev, b->opcode, &s1);
	free(out);
	n = s1.n - s0.n;
	if (n == 0 || i != iters) {
		printf("%s: failed after %u commands\n", b->what, i);
		return -EIO;
	}
	per_cmd = (double)(t1 - t0) / n;
	dev_ns = (double)(s1.ns_device - s0.ns_device) / n;
	ev_ns = (double)(s1.ns_event - s0.ns_event) / n;
	drv_ns = (double)(s1.ns_total - s0.ns_total) / n - dev_ns - ev_ns;
	printf("%-27s %6zu %8.0f %8.2f %9.2f %9.2f %9.2f\n", b->what, b->outlen,
	       1e9 / per_cmd, per_cmd / 1000.0, drv_ns / 1000.0, dev_ns / 1000.0,
	       ev_ns / 1000.0);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct bench_cmd cmds[] = {
		{ "QUERY_ISSI (0x70 out)", MLX5V_CMD_OP_QUERY_ISSI, 0, 0,
		  MLX5V_IFC_BYTES(query_issi_out) },
		{ "QUERY_PAGES init (inline)", MLX5V_CMD_OP_QUERY_PAGES, MLX5V_QUERY_PAGES_INIT, 0,
		  MLX5V_CMD_HDR_SIZE },
		{ "QUERY_HCA_CAP cur (4 KiB)", MLX5V_CMD_OP_QUERY_HCA_CAP, MLX5V_CAP_MODE_CUR, 0,
		  MLX5V_IFC_BYTES(query_hca_cap_out) },
	};
	struct mlx5v_dev *dev;
	unsigned int iters = 20000, i;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (argc > 1)
		iters = (unsigned int)strtoul(argv[1], NULL, 0);
	dev = mlx5v_dev_get(BENCH_DEV);
	if (dev == NULL) {
		printf("no %s: pass --vdev=%s\n", BENCH_DEV, BENCH_DEV);
		rte_eal_cleanup();
		return 1;
	}
	printf("%u commands each, event mode (completion EQE, MSI-X on vector 0, EAL "
	       "interrupt thread)\n", iters);
	printf("%-27s %6s %8s %8s %9s %9s %9s\n", "command", "outlen", "cmds/s", "us/cmd",
	       "driver", "device", "event");
	for (i = 0; i < RTE_DIM(cmds) && ret >= 0; i++)
		ret = bench_one(dev, &cmds[i], iters);
	rte_eal_cleanup();
	return ret < 0 ? 1 : 0;
}
