/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file dpdk-mlxv-verbs-run: run a command with simulated ConnectX-3 functions under
 * mlx4_core, mlx4_ib and mlx4_en (doc/guides/platform/verbs_emulation.rst).
 *
 *     dpdk-mlxv-verbs-run [--trace] [--dev BDF[,SIMDEVARGS]]... -- COMMAND [ARGS...]
 *
 * Checks the functions (each model is created once and destroyed, so a bad knob is refused
 * here with the model's own message), then executes COMMAND with the preload library in
 * LD_PRELOAD and the functions in MLXV_VERBS_DEVS. Exit status 2: bad arguments.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "emu_launch.h"
#include "hwsim_wire.h"
#include "mlx4v_sim.h"
#include "verbs_run.h"

#define VERBS_RUN_PROG "dpdk-mlxv-verbs-run"
#define VERBS_RUN_DEFAULT_BDF "0000:00:06.0"
#define VERBS_RUN_PRELOAD_NAME "libmlxv_verbs_preload.so"
#define VERBS_RUN_EXIT_USAGE 2

static void
verbs_run_usage(FILE *f)
{
	fprintf(f, "usage: " VERBS_RUN_PROG " [--trace] [--dev BDF[,SIMDEVARGS]]... -- "
		"COMMAND [ARGS...]\n"
		"  Runs COMMAND with each BDF (default " VERBS_RUN_DEFAULT_BDF ") emulated as a\n"
		"  ConnectX-3 (15b3:1007) under mlx4_core, mlx4_ib and mlx4_en, backed by the\n"
		"  mlx4v_sim model with SIMDEVARGS (ports=, mac=, wire<N>=, knobs;\n"
		"  doc/guides/sim/mlx4v_sim.rst).\n"
		"  --trace  log every emulated uverbs command to stderr\n");
}

/* Create the models once, in order, all alive at the end. @return 0 or -EINVAL. */
static int
verbs_run_devs_check(const struct verbs_run_dev *devs, unsigned int nb)
{
	struct mlx4v_sim *sim[VERBS_RUN_MAX_DEVS];
	unsigned int i, n;
	char name[32];
	int ret = 0;

	/* A function may be cabled (wire<N>=pair:) to one whose model is made later. */
	for (n = 0; n < nb && ret == 0; n++) {
		snprintf(name, sizeof(name), VERBS_RUN_MODEL_PREFIX "%.12s", devs[n].bdf);
		ret = hwsim_wire_dev_expect(name);
	}
	for (n = 0; n < nb && ret == 0; n++) {
		snprintf(name, sizeof(name), VERBS_RUN_MODEL_PREFIX "%.12s", devs[n].bdf);
		sim[n] = mlx4v_sim_host_create(name, devs[n].devargs);
		if (sim[n] == NULL) {
			fprintf(stderr, VERBS_RUN_PROG ": %s: the model refuses '%s': %s\n",
				devs[n].bdf, devs[n].devargs, rte_strerror(rte_errno));
			ret = -EINVAL;
			break;
		}
	}
	for (i = n; i > 0; i--)
		mlx4v_sim_host_destroy(sim[i - 1]);
	return ret;
}

static int verbs_run_trace;

/* The options besides --dev (emu_launch_args()). */
static int
verbs_run_opt(int argc, char **argv, int *i)
{
	(void)argc;
	if (strcmp(argv[*i], "--trace") != 0)
		return 1;
	verbs_run_trace = 1;
	return 0;
}

/* Parse the functions, then have the models check their devargs. */
static int
verbs_run_check(char **spec, unsigned int nb)
{
	static struct verbs_run_dev devs[VERBS_RUN_MAX_DEVS];
	char err[256];
	unsigned int j;

	for (j = 0; j < nb; j++) {
		char *s = strdup(spec[j]);

		if (s == NULL || verbs_run_dev_parse(s, j, &devs[j], err, sizeof(err)) != 0) {
			fprintf(stderr, VERBS_RUN_PROG ": %s\n", s == NULL ? "out of memory" : err);
			return VERBS_RUN_EXIT_USAGE;
		}
	}
	return verbs_run_devs_check(devs, nb) != 0 ? VERBS_RUN_EXIT_USAGE : 0;
}

static int
verbs_run_env(void)
{
	if (verbs_run_trace && setenv(VERBS_RUN_ENV_TRACE, "1", 1) != 0)
		return -errno;
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct emu_launch_opts opts = {
		.prog = VERBS_RUN_PROG,
		.max_devs = VERBS_RUN_MAX_DEVS,
		.usage = verbs_run_usage,
		.opt = verbs_run_opt,
		.default_bdf = VERBS_RUN_DEFAULT_BDF,
		.env_devs = VERBS_RUN_ENV_DEVS,
		.preload_subdir = "verbs-run",
		.preload_lib = VERBS_RUN_PRELOAD_NAME,
		.preload_dir = VERBS_RUN_PRELOAD_DIR,
		.check = verbs_run_check,
		.env = verbs_run_env,
	};

	return emu_launch_main(&opts, argc, argv);
}
