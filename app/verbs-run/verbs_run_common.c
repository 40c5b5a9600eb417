/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The device list of the verbs emulation, parsed alike by the launcher and the preload. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verbs_run.h"

int
verbs_run_dev_parse(char *s, unsigned int idx, struct verbs_run_dev *d, char *err,
		    size_t errlen)
{
	char *comma = strchr(s, ',');

	if (comma != NULL)
		*comma = '\0';
	if (emu_bdf_check(s) != 0) {
		snprintf(err, errlen, "'%s' is not a PCI address dddd:bb:dd.f (lower-case hex)", s);
		return -EINVAL;
	}
	memset(d, 0, sizeof(*d));
	snprintf(d->bdf, sizeof(d->bdf), "%s", s);
	d->devargs = comma != NULL ? comma + 1 : "";
	d->idx = idx;
	return 0;
}
