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
