/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file dpdk-mlxv-vfio-run: run a command with simulated ConnectX functions bound to vfio-pci
 * (doc/guides/platform/vfio_emulation.rst).
 *
 *     dpdk-mlxv-vfio-run [--dev BDF[,SIMDEVARGS]]... -- COMMAND [ARGS...]
 *
 * Checks the functions (each model is created once and destroyed, so a bad knob is refused
 * here with the model's own message), then executes COMMAND with the preload library in
 * LD_PRELOAD and the functions in MLXV_VFIO_DEVS. Exit status 2: bad arguments.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_errno.h>

#include "emu_launch.h"
#include "mlx5v_sim.h"
#include "vfio_run.h"

#define VFIO_RUN_DEFAULT_BDF "0000:00:05.0"
#define VFIO_RUN_PROG "dpdk-mlxv-vfio-run"
#define VFIO_RUN_PRELOAD_NAME "libmlxv_vfio_preload.so"
#define VFIO_RUN_EXIT_USAGE 2

static void
vfio_run_usage(FILE *f)
{
	fprintf(f, "usage: dpdk-mlxv-vfio-run [--trace] [--no-iova-range] "
		"[--dma-entry-limit N] [--dev BDF[,SIMDEVARGS]]... -- "
		"COMMAND [ARGS...]\n"
		"  Runs COMMAND with each BDF (default " VFIO_RUN_DEFAULT_BDF ") emulated as a\n"
		"  ConnectX function bound to vfio-pci, backed by the mlx5v_sim model with\n"
		"  SIMDEVARGS (msix=, function=vf, knobs; doc/guides/sim/mlx5v_sim.rst).\n"
		"  --trace  log every emulated VFIO call to stderr\n"
		"  --no-iova-range  VFIO_IOMMU_GET_INFO without the IOVA range capability\n"
		"                   (kernels before 5.4); default: x86's ranges, from IOVA 0\n"
		"  --dma-entry-limit N  IOMMU_MAP_DMA fails with ENOSPC beyond N mappings\n"
		"                   (vfio_iommu_type1's dma_entry_limit; default 65535)\n");
}

/*
 * Create the models once with the functions' devargs, in order, all alive at the end (so a
 * wire=pair to an earlier function finds it): unknown knobs and cables are refused here.
 * @return 0 or -EINVAL.
 */
static int
vfio_run_devs_check(const struct vfio_run_dev *devs, unsigned int nb)
{
	struct mlx5v_sim *sim[VFIO_RUN_MAX_DEVS];
	struct mlx5v_sim_params p;
	unsigned int i, n;
	char name[32];
	int ret;

	ret = vfio_run_devs_expect(devs, nb);
	for (n = 0; n < nb && ret == 0; n++) {
		mlx5v_sim_params_default(&p);
		if (mlx5v_sim_params_parse(&p, devs[n].devargs) != 0) {
			ret = -EINVAL;
			break;
		}
		snprintf(name, sizeof(name), VFIO_RUN_MODEL_PREFIX "%.12s", devs[n].bdf);
		sim[n] = mlx5v_sim_create(name, &p);
		if (sim[n] == NULL) {
			fprintf(stderr, "dpdk-mlxv-vfio-run: %s: the model refuses '%s': %s\n",
				devs[n].bdf, devs[n].devargs, rte_strerror(rte_errno));
			ret = -EINVAL;
			break;
		}
	}
	/* The cabled ones first: a wire port goes before its peer. */
	for (i = n; i > 0; i--)
		mlx5v_sim_destroy(sim[i - 1]);
	return ret;
}

int
main(int argc, char **argv)
{
	struct vfio_run_dev devs[VFIO_RUN_MAX_DEVS];
	char preload[PATH_MAX];
	char err[256];
	char *envdevs = NULL;
	size_t envlen = 0;
	unsigned int nb = 0;
	const char *dma_limit = NULL;
	int no_iova_range = 0;
	int trace = 0;
	int i, j;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			vfio_run_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--trace") == 0) {
			trace = 1;
			continue;
		}
		if (strcmp(argv[i], "--no-iova-range") == 0) {
			no_iova_range = 1;
			continue;
		}
		if (strcmp(argv[i], "--dma-entry-limit") == 0 && i + 1 < argc) {
			char *end;

			i++;
			errno = 0;
			(void)strtoul(argv[i], &end, 10);
			if (errno != 0 || end == argv[i] || *end != '\0' || argv[i][0] == '-') {
				fprintf(stderr, "dpdk-mlxv-vfio-run: --dma-entry-limit '%s': "
					"expected a count\n", argv[i]);
				return VFIO_RUN_EXIT_USAGE;
			}
			dma_limit = argv[i];
			continue;
		}
		if (strcmp(argv[i], "--dev") != 0 || i + 1 == argc) {
			fprintf(stderr, "dpdk-mlxv-vfio-run: %s '%s'\n",
				strcmp(argv[i], "--dev") == 0 ? "missing value after" :
				"unknown option", argv[i]);
			vfio_run_usage(stderr);
			return VFIO_RUN_EXIT_USAGE;
		}
		if (nb == VFIO_RUN_MAX_DEVS) {
			fprintf(stderr, "dpdk-mlxv-vfio-run: at most %d --dev\n",
				VFIO_RUN_MAX_DEVS);
			return VFIO_RUN_EXIT_USAGE;
		}
		i++;
		/* The devargs may not hold the separator of the environment list. */
		if (strchr(argv[i], VFIO_RUN_DEV_SEP) != NULL) {
			fprintf(stderr, "dpdk-mlxv-vfio-run: '%s': '%c' is not allowed\n", argv[i],
				VFIO_RUN_DEV_SEP);
			return VFIO_RUN_EXIT_USAGE;
		}
		if (vfio_run_dev_parse(strdup(argv[i]), nb, &devs[nb], err, sizeof(err)) != 0) {
			fprintf(stderr, "dpdk-mlxv-vfio-run: %s\n", err);
			return VFIO_RUN_EXIT_USAGE;
		}
		for (j = 0; j < (int)nb; j++) {
			if (strcmp(devs[j].bdf, devs[nb].bdf) == 0) {
				fprintf(stderr, "dpdk-mlxv-vfio-run: %s given twice\n",
					devs[nb].bdf);
				return VFIO_RUN_EXIT_USAGE;
			}
		}
		nb++;
	}
	if (i >= argc - 1) {
		fprintf(stderr, "dpdk-mlxv-vfio-run: no COMMAND after '--'\n");
		vfio_run_usage(stderr);
		return VFIO_RUN_EXIT_USAGE;
	}
	if (nb == 0) {
		char *def = strdup(VFIO_RUN_DEFAULT_BDF);

		if (def == NULL || vfio_run_dev_parse(def, 0, &devs[0], err, sizeof(err)) != 0)
			return VFIO_RUN_EXIT_USAGE;
		nb = 1;
	}
	/* "BDF,devargs;" each, with the devargs as rewritten for the model. */
	for (j = 0; j < (int)nb; j++)
		envlen += VFIO_RUN_BDF_LEN + strlen(devs[j].devargs) + 1;
	envdevs = calloc(1, envlen + 1);
	if (envdevs == NULL)
		return 1;
	if (vfio_run_devs_check(devs, nb) != 0)
		return VFIO_RUN_EXIT_USAGE;
	for (j = 0; j < (int)nb; j++) {
		snprintf(envdevs + strlen(envdevs), envlen + 1 - strlen(envdevs), "%s%s%s%s",
			 j ? ";" : "", devs[j].bdf, devs[j].devargs[0] ? "," : "",
			 devs[j].devargs);
	}
	if (emu_launch_preload(VFIO_RUN_PROG, "vfio-run", VFIO_RUN_PRELOAD_NAME,
			       VFIO_RUN_PRELOAD_DIR, preload, sizeof(preload)) != 0)
		return 1;
	if (setenv(VFIO_RUN_ENV_DEVS, envdevs, 1) != 0 ||
	    (trace && setenv(VFIO_RUN_ENV_TRACE, "1", 1) != 0) ||
	    (no_iova_range && setenv(VFIO_RUN_ENV_NO_IOVA_RANGE, "1", 1) != 0) ||
	    (dma_limit != NULL && setenv(VFIO_RUN_ENV_DMA_LIMIT, dma_limit, 1) != 0)) {
		perror("dpdk-mlxv-vfio-run: setenv");
		return 1;
	}
	return emu_launch_exec(VFIO_RUN_PROG, preload, &argv[i + 1]);
}
