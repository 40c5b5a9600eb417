/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The device list of the VFIO emulation, parsed alike by the launcher and the preload. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_launch.h"
#include "hwsim_wire.h"
#include "mlx5v_sim.h"
#include "vfio_run.h"

/* Device ids of the model (doc/guides/sim/mlx5v_sim.rst): ConnectX-5 and its VF. */
#define VFIO_RUN_DEVICE_PF 0x1017
#define VFIO_RUN_DEVICE_VF 0x1018

/*
 * wire=pair:<BDF> cables the function to the emulated function at BDF, whose model is
 * "vfio-<BDF>" with its port 1: the wire's own syntax would read the BDF's ".f" as a port.
 * @return the devargs to give the model (args itself, or a new string), NULL: no memory.
 */
static char *
vfio_run_wire_pair(char *args)
{
	static const char key[] = "wire=pair:";
	char *p = args;
	char *out;
	size_t klen = sizeof(key) - 1;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, klen) == 0 &&
		    strlen(p + klen) >= VFIO_RUN_BDF_LEN - 1 &&
		    (p[klen + VFIO_RUN_BDF_LEN - 1] == '\0' ||
		     p[klen + VFIO_RUN_BDF_LEN - 1] == ',')) {
			char bdf[VFIO_RUN_BDF_LEN];

			memcpy(bdf, p + klen, VFIO_RUN_BDF_LEN - 1);
			bdf[VFIO_RUN_BDF_LEN - 1] = '\0';
			if (emu_bdf_check(bdf) != 0)
				return args;
			out = malloc(strlen(args) + sizeof(VFIO_RUN_MODEL_PREFIX) + 2);
			if (out == NULL)
				return NULL;
			sprintf(out, "%.*s%s" VFIO_RUN_MODEL_PREFIX "%s.1%s", (int)(p - args), args,
				key, bdf, p + klen + VFIO_RUN_BDF_LEN - 1);
			return out;
		}
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return args;
}

int
vfio_run_devs_expect(const struct vfio_run_dev *devs, unsigned int nb)
{
	char name[32];
	unsigned int i;
	int ret = 0;

	for (i = 0; i < nb && ret == 0; i++) {
		snprintf(name, sizeof(name), VFIO_RUN_MODEL_PREFIX "%.12s", devs[i].bdf);
		ret = hwsim_wire_dev_expect(name);
	}
	return ret;
}

int
vfio_run_dev_parse(char *s, unsigned int idx, struct vfio_run_dev *d, char *err,
		   size_t errlen)
{
	struct mlx5v_sim_params p;
	char *comma;

	memset(d, 0, sizeof(*d));
	comma = strchr(s, ',');
	if (comma != NULL)
		*comma = '\0';
	if (emu_bdf_check(s) != 0) {
		snprintf(err, errlen, "'%s' is not a PCI address dddd:bb:dd.f "
			 "(lower-case hex, e.g. 0000:00:05.0)", s);
		return -EINVAL;
	}
	memcpy(d->bdf, s, VFIO_RUN_BDF_LEN);
	d->devargs = comma != NULL ? vfio_run_wire_pair(comma + 1) : "";
	if (d->devargs == NULL) {
		snprintf(err, errlen, "%s: out of memory", d->bdf);
		return -ENOMEM;
	}
	mlx5v_sim_params_default(&p);
	if (mlx5v_sim_params_parse(&p, d->devargs) != 0) {
		snprintf(err, errlen, "%s: bad simulator devargs '%s'", d->bdf, d->devargs);
		return -EINVAL;
	}
	d->group = VFIO_RUN_GROUP_BASE + idx;
	d->device_id = p.vf ? VFIO_RUN_DEVICE_VF : VFIO_RUN_DEVICE_PF;
	d->msix = p.msix;
	d->numa_node = p.numa_node;
	return 0;
}
