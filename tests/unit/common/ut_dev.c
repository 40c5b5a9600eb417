/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The device a unit program tests: a vdev or an allowed PCI function (ut_dev.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_errno.h>

#include "ut_dev.h"

/* The PCI function's devargs as EAL got them ("BDF,key=value,..."), read once. */
static char ut_pci_spec[RTE_DEV_NAME_MAX_LEN + 256];
static char ut_pci_name[RTE_DEV_NAME_MAX_LEN];
static char ut_pci_sim[RTE_DEV_NAME_MAX_LEN + 8];
static int ut_pci_state = -1;
/* The function was last probed with devargs of a test case's own. */
static int ut_pci_extra;

int
ut_dev_pci(void)
{
	struct rte_devargs *da;

	if (ut_pci_state >= 0)
		return ut_pci_state;
	ut_pci_state = 0;
	RTE_EAL_DEVARGS_FOREACH("pci", da) {
		if (da->policy != RTE_DEV_ALLOWED)
			continue;
		snprintf(ut_pci_name, sizeof(ut_pci_name), "%s", da->name);
		snprintf(ut_pci_sim, sizeof(ut_pci_sim), "vfio-%s", da->name);
		snprintf(ut_pci_spec, sizeof(ut_pci_spec), "%s%s%s", da->name,
			 da->args != NULL && da->args[0] != '\0' ? "," : "",
			 da->args != NULL ? da->args : "");
		ut_pci_state = 1;
		printf("device under test: PCI function %s (model %s)\n", ut_pci_spec,
		       ut_pci_sim);
		break;
	}
	return ut_pci_state;
}

const char *
ut_dev_name(const char *vdev)
{
	return ut_dev_pci() ? ut_pci_name : vdev;
}

const char *
ut_dev_sim_name(const char *vdev)
{
	return ut_dev_pci() ? ut_pci_sim : vdev;
}

/* @return the PCI function's device if a driver holds it, else NULL. */
static struct rte_device *
ut_pci_dev_probed(void)
{
	struct rte_dev_iterator it;
	struct rte_device *dev;

	RTE_DEV_FOREACH(dev, "bus=pci", &it) {
		if (strcmp(rte_dev_name(dev), ut_pci_name) == 0)
			return rte_dev_is_probed(dev) ? dev : NULL;
	}
	return NULL;
}

int
ut_dev_probe_pci(const char *vdev, const char *args, const char *pci_args)
{
	char spec[sizeof(ut_pci_spec) + 128];
	struct rte_device *dev;
	int ret;

	if (!ut_dev_pci())
		return rte_vdev_init(vdev, args);
	snprintf(spec, sizeof(spec), "%s%s%s", ut_pci_spec, pci_args != NULL ? "," : "",
		 pci_args != NULL ? pci_args : "");
	dev = ut_pci_dev_probed();
	if (dev != NULL && pci_args == NULL && !ut_pci_extra)
		return 0;
	if (dev != NULL) {
		ret = rte_dev_remove(dev);
		if (ret != 0)
			return ret;
	}
	ret = rte_dev_probe(spec);
	if (ret != 0)
		printf("rte_dev_probe(%s): %s\n", spec, rte_strerror(-ret));
	ut_pci_extra = pci_args != NULL;
	return ret;
}

int
ut_dev_probe(const char *vdev, const char *args)
{
	return ut_dev_probe_pci(vdev, args, NULL);
}

int
ut_dev_remove(const char *vdev)
{
	struct rte_device *dev;

	if (!ut_dev_pci())
		return rte_vdev_uninit(vdev);
	dev = ut_pci_dev_probed();
	return dev != NULL ? rte_dev_remove(dev) : -ENODEV;
}
