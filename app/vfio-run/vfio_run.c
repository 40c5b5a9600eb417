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

static const char *vfio_run_dma_limit;
static int vfio_run_no_iova_range;
static int vfio_run_trace;

/* The options besides --dev (emu_launch_args()). */
static int
vfio_run_opt(int argc, char **argv, int *i)
{
	char *end;

	if (strcmp(argv[*i], "--trace") == 0) {
		vfio_run_trace = 1;
		return 0;
	}
	if (strcmp(argv[*i], "--no-iova-range") == 0) {
		vfio_run_no_iova_range = 1;
		return 0;
	}
	if (strcmp(argv[*i], "--dma-entry-limit") != 0 || *i + 1 >= argc)
		return 1;
	(*i)++;
	errno = 0;
	(void)strtoul(argv[*i], &end, 10);
	if (errno != 0 || end == argv[*i] || *end != '\0' || argv[*i][0] == '-') {
		fprintf(stderr, VFIO_RUN_PROG ": --dma-entry-limit '%s': expected a count\n",
			argv[*i]);
		return VFIO_RUN_EXIT_USAGE;
	}
	vfio_run_dma_limit = argv[*i];
	return 0;
}

/* Parse the functions, then have the models check their devargs. */
static int
vfio_run_check(char **spec, unsigned int nb)
{
	static struct vfio_run_dev devs[VFIO_RUN_MAX_DEVS];
	char err[256];
	unsigned int j;

	for (j = 0; j < nb; j++) {
		char *s = strdup(spec[j]);

		if (s == NULL || vfio_run_dev_parse(s, j, &devs[j], err, sizeof(err)) != 0) {
			fprintf(stderr, VFIO_RUN_PROG ": %s\n", s == NULL ? "out of memory" : err);
			return VFIO_RUN_EXIT_USAGE;
		}
	}
	return vfio_run_devs_check(devs, nb) != 0 ? VFIO_RUN_EXIT_USAGE : 0;
}

static int
vfio_run_env(void)
{
	if ((vfio_run_trace && setenv(VFIO_RUN_ENV_TRACE, "1", 1) != 0) ||
	    (vfio_run_no_iova_range && setenv(VFIO_RUN_ENV_NO_IOVA_RANGE, "1", 1) != 0) ||
	    (vfio_run_dma_limit != NULL &&
	     setenv(VFIO_RUN_ENV_DMA_LIMIT, vfio_run_dma_limit, 1) != 0))
		return -errno;
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct emu_launch_opts opts = {
		.prog = VFIO_RUN_PROG,
		.max_devs = VFIO_RUN_MAX_DEVS,
		.usage = vfio_run_usage,
		.opt = vfio_run_opt,
		.default_bdf = VFIO_RUN_DEFAULT_BDF,
		.env_devs = VFIO_RUN_ENV_DEVS,
		.preload_subdir = "vfio-run",
		.preload_lib = VFIO_RUN_PRELOAD_NAME,
		.preload_dir = VFIO_RUN_PRELOAD_DIR,
		.check = vfio_run_check,
		.env = vfio_run_env,
	};

	return emu_launch_main(&opts, argc, argv);
}
