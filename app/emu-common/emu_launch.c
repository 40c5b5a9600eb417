/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The launchers' shared part (emu_launch.h). */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_host.h"
#include "emu_launch.h"

int
emu_bdf_check(const char *bdf)
{
	static const char form[] = "xxxx:xx:xx.x";
	unsigned int i;

	if (strlen(bdf) != sizeof(form) - 1)
		return -EINVAL;
	for (i = 0; form[i] != '\0'; i++) {
		if (form[i] == 'x') {
			if (!isxdigit((unsigned char)bdf[i]) || isupper((unsigned char)bdf[i]))
				return -EINVAL;
		} else if (bdf[i] != form[i]) {
			return -EINVAL;
		}
	}
	/* Device 0..0x1f (5 bits), function 0..7 (3 bits). */
	if (bdf[8] > '1' || bdf[11] > '7')
		return -EINVAL;
	return 0;
}

int
emu_launch_preload(const char *prog, const char *subdir, const char *lib, const char *dir,
		   char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			if (snprintf(buf, len, "%s/%s/%s", exe, subdir, lib) < (int)len &&
			    access(buf, R_OK) == 0)
				return 0;
		}
	}
	snprintf(buf, len, "%s/%s", dir, lib);
	if (access(buf, R_OK) == 0)
		return 0;
	fprintf(stderr, "%s: cannot find %s (looked beside the program and in %s)\n", prog, lib,
		dir);
	return -ENOENT;
}

int
emu_launch_exec(const char *prog, const char *preload, char **argv)
{
	const char *old = getenv("LD_PRELOAD");
	char *ld = (char *)(uintptr_t)preload;

	if (old != NULL && old[0] != '\0') {
		ld = malloc(strlen(preload) + strlen(old) + 2);
		if (ld == NULL)
			return 1;
		sprintf(ld, "%s:%s", preload, old);
	}
	if (setenv("LD_PRELOAD", ld, 1) != 0) {
		fprintf(stderr, "%s: setenv: %s\n", prog, strerror(errno));
		return 1;
	}
	execvp(argv[0], argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[0], strerror(errno));
	return 127;
}

int
emu_launch_args(const struct emu_launch_opts *o, int argc, char **argv, char **spec,
		unsigned int *nb)
{
	char bdf[EMU_BDF_LEN];
	char *comma;
	unsigned int j;
	int i, ret;

	*nb = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			o->usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--dev") != 0) {
			ret = o->opt != NULL ? o->opt(argc, argv, &i) : 1;
			if (ret == 0)
				continue;
			if (ret > 1)
				return -ret;
			fprintf(stderr, "%s: unknown option '%s'\n", o->prog, argv[i]);
			o->usage(stderr);
			return -2;
		}
		if (i + 1 == argc) {
			fprintf(stderr, "%s: missing value after '--dev'\n", o->prog);
			o->usage(stderr);
			return -2;
		}
		if (*nb == o->max_devs) {
			fprintf(stderr, "%s: at most %u --dev\n", o->prog, o->max_devs);
			return -2;
		}
		i++;
		/* The devargs may not hold the separator of the environment list. */
		if (strchr(argv[i], EMU_DEV_SEP) != NULL) {
			fprintf(stderr, "%s: '%s': '%c' is not allowed\n", o->prog, argv[i],
				EMU_DEV_SEP);
			return -2;
		}
		snprintf(bdf, sizeof(bdf), "%s", argv[i]);
		comma = strchr(bdf, ',');
		if (comma != NULL)
			*comma = '\0';
		if (emu_bdf_check(bdf) != 0 || (argv[i][EMU_BDF_LEN - 1] != '\0' &&
						argv[i][EMU_BDF_LEN - 1] != ',')) {
			fprintf(stderr, "%s: '%s' is not a PCI address dddd:bb:dd.f (lower-case "
				"hex, e.g. 0000:00:05.0)\n", o->prog, bdf);
			return -2;
		}
		for (j = 0; j < *nb; j++) {
			if (strncmp(spec[j], bdf, EMU_BDF_LEN - 1) == 0) {
				fprintf(stderr, "%s: %s given twice\n", o->prog, bdf);
				return -2;
			}
		}
		spec[(*nb)++] = argv[i];
	}
	if (i >= argc - 1) {
		fprintf(stderr, "%s: no COMMAND after '--'\n", o->prog);
		o->usage(stderr);
		return -2;
	}
	return i + 1;
}

char *
emu_launch_env_devs(char *const *spec, unsigned int nb)
{
	size_t len = 1;
	unsigned int j;
	char *env;

	for (j = 0; j < nb; j++)
		len += strlen(spec[j]) + 1;
	env = calloc(1, len);
	if (env == NULL)
		return NULL;
	for (j = 0; j < nb; j++) {
		if (j != 0)
			env[strlen(env)] = EMU_DEV_SEP;
		strcat(env, spec[j]);
	}
	return env;
}

unsigned int
emu_preload_devs(const char *prog, const char *env, unsigned int max,
		 int (*parse)(char *tok, unsigned int idx, char *err, size_t errlen))
{
	static const char sep[] = { EMU_DEV_SEP, '\0' };
	char *s, *tok, *save = NULL;
	unsigned int n = 0;
	char err[256];

	if (env == NULL || env[0] == '\0')
		return 0;
	/* Kept for the life of the process: the devargs point into it. */
	s = strdup(env);
	if (s == NULL)
		return 0;
	for (tok = strtok_r(s, sep, &save); tok != NULL && n < max;
	     tok = strtok_r(NULL, sep, &save)) {
		if (parse(tok, n, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s (function ignored)\n", prog, err);
			continue;
		}
		n++;
	}
	return n;
}

int
emu_launch_main(const struct emu_launch_opts *o, int argc, char **argv)
{
	char preload[PATH_MAX];
	char tree[64];
	char **spec;
	char *envdevs;
	unsigned int nb;
	int cmd, ret;

	spec = calloc(o->max_devs, sizeof(*spec));
	if (spec == NULL)
		return 1;
	cmd = emu_launch_args(o, argc, argv, spec, &nb);
	if (cmd <= 0)
		return -cmd;
	if (nb == 0) {
		spec[0] = (char *)(uintptr_t)o->default_bdf;
		nb = 1;
	}
	envdevs = emu_launch_env_devs(spec, nb);
	if (envdevs == NULL)
		return 1;
	ret = o->check(spec, nb);
	if (ret != 0)
		return ret;
	if (emu_launch_preload(o->prog, o->preload_subdir, o->preload_lib, o->preload_dir,
			       preload, sizeof(preload)) != 0)
		return 1;
	/*
	 * One name per launcher for its tree: the process that creates a function's model
	 * hosts it for the others under it (emu_host.h). The pid is the command's after exec.
	 */
	snprintf(tree, sizeof(tree), "%s-%ld", o->prog, (long)getpid());
	if (setenv(o->env_devs, envdevs, 1) != 0 || setenv(EMU_HOST_ENV, tree, 1) != 0 ||
	    o->env() != 0) {
		fprintf(stderr, "%s: setenv: %s\n", o->prog, strerror(errno));
		return 1;
	}
	return emu_launch_exec(o->prog, preload, &argv[cmd]);
}
