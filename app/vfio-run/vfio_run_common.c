/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The device list of the VFIO emulation, parsed alike by the launcher and the preload. */

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "mlx5v_sim.h"
#include "vfio_run.h"

/* Device ids of the model (doc/guides/sim/mlx5v_sim.rst): ConnectX-5 and its VF. */
#define VFIO_RUN_DEVICE_PF 0x1017
#define VFIO_RUN_DEVICE_VF 0x1018

int
vfio_run_bdf_check(const char *bdf)
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
vfio_run_dev_parse(char *s, unsigned int idx, struct vfio_run_dev *d, char *err,
		   size_t errlen)
{
	struct mlx5v_sim_params p;
	char *comma;

	memset(d, 0, sizeof(*d));
	comma = strchr(s, ',');
	if (comma != NULL)
		*comma = '\0';
	if (vfio_run_bdf_check(s) != 0) {
		snprintf(err, errlen, "'%s' is not a PCI address dddd:bb:dd.f "
			 "(lower-case hex, e.g. 0000:00:05.0)", s);
		return -EINVAL;
	}
	memcpy(d->bdf, s, VFIO_RUN_BDF_LEN);
	d->devargs = comma != NULL ? comma + 1 : "";
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
