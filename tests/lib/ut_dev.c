/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The devices a unit program tests: vdevs or allowed PCI functions (ut_dev.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_errno.h>

#include "ut_dev.h"

/** One allowed PCI function, its devargs as EAL got them ("BDF,key=value,..."). */
struct ut_pci_fn {
	char spec[RTE_DEV_NAME_MAX_LEN + 256];
	char name[RTE_DEV_NAME_MAX_LEN];
	char sim[RTE_DEV_NAME_MAX_LEN + 8];
	int extra; /* last probed with devargs of a test case's own */
};

static struct ut_pci_fn ut_pci_fns[UT_DEV_MAX];
static int ut_pci_count = -1;

unsigned int
ut_dev_pci_count(void)
{
	struct rte_devargs *da;
	struct ut_pci_fn *f;

	if (ut_pci_count >= 0)
		return ut_pci_count;
	ut_pci_count = 0;
	RTE_EAL_DEVARGS_FOREACH("pci", da) {
		if (da->policy != RTE_DEV_ALLOWED || ut_pci_count == UT_DEV_MAX)
			continue;
		f = &ut_pci_fns[ut_pci_count++];
		snprintf(f->name, sizeof(f->name), "%s", da->name);
		snprintf(f->sim, sizeof(f->sim), "vfio-%s", da->name);
		snprintf(f->spec, sizeof(f->spec), "%s%s%s", da->name,
			 da->args != NULL && da->args[0] != '\0' ? "," : "",
			 da->args != NULL ? da->args : "");
		printf("device under test: PCI function %s (model %s)\n", f->spec, f->sim);
	}
	return ut_pci_count;
}

int
ut_dev_pci(void)
{
	return ut_dev_pci_count() > 0;
}

/* @return function i, or NULL when EAL allows fewer (the vdev is meant). */
static struct ut_pci_fn *
ut_pci_fn(unsigned int i)
{
	return i < ut_dev_pci_count() ? &ut_pci_fns[i] : NULL;
}

const char *
ut_dev_name_at(const char *vdev, unsigned int i)
{
	struct ut_pci_fn *f = ut_pci_fn(i);

	return f != NULL ? f->name : vdev;
}

const char *
ut_dev_sim_name_at(const char *vdev, unsigned int i)
{
	struct ut_pci_fn *f = ut_pci_fn(i);

	return f != NULL ? f->sim : vdev;
}

const char *
ut_dev_name(const char *vdev)
{
	return ut_dev_name_at(vdev, 0);
}

const char *
ut_dev_sim_name(const char *vdev)
{
	return ut_dev_sim_name_at(vdev, 0);
}

/* @return function f's device if a driver holds it, else NULL. */
static struct rte_device *
ut_pci_dev_probed(const struct ut_pci_fn *f)
{
	struct rte_dev_iterator it;
	struct rte_device *dev;

	RTE_DEV_FOREACH(dev, "bus=pci", &it) {
		if (strcmp(rte_dev_name(dev), f->name) == 0)
			return rte_dev_is_probed(dev) ? dev : NULL;
	}
	return NULL;
}

int
ut_dev_probe_at(const char *vdev, unsigned int i, const char *args, const char *pci_args)
{
	struct ut_pci_fn *f = ut_pci_fn(i);
	char spec[sizeof(f->spec) + 128];
	struct rte_device *dev;
	int ret;

	if (f == NULL)
		return rte_vdev_init(vdev, args);
	snprintf(spec, sizeof(spec), "%s%s%s", f->spec, pci_args != NULL ? "," : "",
		 pci_args != NULL ? pci_args : "");
	dev = ut_pci_dev_probed(f);
	if (dev != NULL && pci_args == NULL && !f->extra)
		return 0;
	if (dev != NULL) {
		ret = rte_dev_remove(dev);
		if (ret != 0)
			return ret;
	}
	ret = rte_dev_probe(spec);
	if (ret != 0)
		printf("rte_dev_probe(%s): %s\n", spec, rte_strerror(-ret));
	f->extra = pci_args != NULL;
	return ret;
}

int
ut_dev_probe_pci(const char *vdev, const char *args, const char *pci_args)
{
	return ut_dev_probe_at(vdev, 0, args, pci_args);
}

int
ut_dev_probe(const char *vdev, const char *args)
{
	return ut_dev_probe_at(vdev, 0, args, NULL);
}

int
ut_dev_remove_at(const char *vdev, unsigned int i)
{
	struct ut_pci_fn *f = ut_pci_fn(i);
	struct rte_device *dev;

	if (f == NULL)
		return rte_vdev_uninit(vdev);
	dev = ut_pci_dev_probed(f);
	return dev != NULL ? rte_dev_remove(dev) : -ENODEV;
}

int
ut_dev_remove(const char *vdev)
{
	return ut_dev_remove_at(vdev, 0);
}
