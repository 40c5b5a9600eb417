/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Fuzz target: the devargs parsers of every driver, each through its real entry.
 *
 * Input: a selector byte, then the devargs string (up to the first NUL). Selector mod 6:
 * 0 the mlx5v_sim vdev (its own keys, the core's, the fault knobs, the hwsim wire keys
 * wire=/mac=/speed= and class=), 1 the mlx4v_sim vdev, 2 the mlx5v PCI front-end, 3 the
 * mlx4v PCI front-end, 4 mlx5v_class_parse(), 5 mlx4v_class_parse().
 * Findings: sanitizer reports; a probe that fails but leaves EAL memory or the device
 * behind; a class list parsed into more names than allowed (doc/guides/testing/fuzzing.rst).
 */

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_errno.h>

#include <bus_pci_driver.h>

#include "fuzz_common.h"
#include "mlx4v_class.h"
#include "mlx5v_class.h"
#include "ut_common.h"

#define FUZZ_ARGS_MAX 512
#define FUZZ_PCI_BAR_LEN (1u << 20)

/*
 * The PCI front-ends keep their rte_pci_driver static: this program sees each one as it
 * registers (the drivers' constructors call rte_pci_register(), which this definition
 * interposes) and hands it a made-up device carrying the devargs.
 */
static struct rte_pci_driver *fuzz_pci_drv[2]; /* [0] mlx5v_pci, [1] mlx4v_pci */

void rte_pci_register(struct rte_pci_driver *driver);

void
rte_pci_register(struct rte_pci_driver *driver)
{
	void (*real)(struct rte_pci_driver *) =
		(void (*)(struct rte_pci_driver *))dlsym(RTLD_NEXT, "rte_pci_register");

	if (strcmp(driver->driver.name, "mlx5v_pci") == 0)
		fuzz_pci_drv[0] = driver;
	else if (strcmp(driver->driver.name, "mlx4v_pci") == 0)
		fuzz_pci_drv[1] = driver;
	if (real != NULL)
		real(driver);
}

static uint8_t *fuzz_bar;

void
fuzz_setup(void)
{
	if (fuzz_pci_drv[0] == NULL || fuzz_pci_drv[1] == NULL)
		fuzz_fail("the mlx5v_pci and mlx4v_pci drivers did not register");
	/* All ones: what a device reads whose link is gone; bring-up stops at once. */
	fuzz_bar = malloc(FUZZ_PCI_BAR_LEN);
	if (fuzz_bar == NULL)
		fuzz_fail("out of memory");
	memset(fuzz_bar, 0xff, FUZZ_PCI_BAR_LEN);
	/*
	 * One probe of each device first: ethdev allocates its shared port data on the first
	 * port ever created and keeps it, which is not a leak of ours.
	 */
	if (rte_vdev_init("mlx5v_sim_fz0", "") != 0 || rte_vdev_uninit("mlx5v_sim_fz0") != 0 ||
	    rte_vdev_init("mlx4v_sim_fz0", "") != 0 || rte_vdev_uninit("mlx4v_sim_fz0") != 0)
		fuzz_fail("the simulated devices do not probe with default devargs");
}

void
fuzz_teardown(void)
{
	free(fuzz_bar);
}

/* A vdev probe with args: it may succeed (then the device must go away cleanly) or fail. */
static void
fuzz_vdev(const char *name, const char *args)
{
	struct ut_heap h0, h1;
	int ret;

	/*
	 * boot_ms makes the model stay "initializing" for up to 10 minutes, which the driver
	 * rightly waits out: a slow input, not a finding.
	 */
	if (strstr(args, "boot_ms") != NULL)
		return;
	ut_heap_get(&h0);
	ret = rte_vdev_init(name, args);
	if (ret == 0 && rte_vdev_uninit(name) != 0)
		fuzz_fail("%s: probed with \"%s\" but cannot be removed", name, args);
	if (ret == -EEXIST)
		fuzz_fail("%s: a previous probe left the device behind", name);
	ut_heap_get(&h1);
	if (!ut_heap_same(&h0, &h1))
		fuzz_fail("%s \"%s\" (probe %d): EAL memory not returned", name, args, ret);
}

static void
fuzz_pci(unsigned int which, const char *args)
{
	struct rte_pci_driver *drv = fuzz_pci_drv[which];
	struct rte_devargs da;
	struct rte_pci_device pdev;
	struct ut_heap h0, h1;
	int ret;

	memset(&da, 0, sizeof(da));
	memset(&pdev, 0, sizeof(pdev));
	da.args = (char *)(uintptr_t)args;
	pdev.device.name = "0000:00:1f.7";
	pdev.device.devargs = &da;
	pdev.device.numa_node = 0;
	pdev.addr.bus = 0;
	pdev.addr.devid = 0x1f;
	pdev.addr.function = 7;
	pdev.id.vendor_id = 0x15b3;
	pdev.id.device_id = which == 0 ? 0x1017 : 0x1003;
	pdev.kdrv = RTE_PCI_KDRV_VFIO;
	pdev.mem_resource[0].addr = fuzz_bar;
	pdev.mem_resource[0].len = FUZZ_PCI_BAR_LEN;
	ut_heap_get(&h0);
	ret = drv->probe(drv, &pdev);
	/* No device answers behind the all-ones BAR or at this address in ibverbs. */
	if (ret == 0)
		fuzz_fail("%s probed a device that is not there (devargs \"%s\")",
			  drv->driver.name, args);
	ut_heap_get(&h1);
	if (!ut_heap_same(&h0, &h1))
		fuzz_fail("%s \"%s\" (probe %d): EAL memory not returned", drv->driver.name,
			  args, ret);
}

/* A class list: on success, 1..max names, each non-empty and NUL-terminated. */
static void
fuzz_class(int (*parse)(const char *, const char **), unsigned int max, const char *args)
{
	const char *names[8];
	unsigned int i;
	int ret;

	RTE_BUILD_BUG_ON(MLX5V_CLASS_MAX != RTE_DIM(names) || MLX4V_CLASS_MAX != RTE_DIM(names));
	memset(names, 0, sizeof(names));
	ret = parse(args, names);
	if (ret < 0)
		return;
	if (ret > (int)max)
		fuzz_fail("class list \"%s\": %d names for %u slots", args, ret, max);
	for (i = 0; i < (unsigned int)ret; i++)
		if (names[i] == NULL || strlen(names[i]) == 0)
			fuzz_fail("class list \"%s\": name %u empty", args, i);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char args[FUZZ_ARGS_MAX + 1];
	size_t len;

	if (size == 0)
		return 0;
	len = RTE_MIN(size - 1, (size_t)FUZZ_ARGS_MAX);
	memcpy(args, data + 1, len);
	args[len] = '\0';
	switch (data[0] % 6) {
	case 0:
		fuzz_vdev("mlx5v_sim_fz0", args);
		break;
	case 1:
		fuzz_vdev("mlx4v_sim_fz0", args);
		break;
	case 2:
		fuzz_pci(0, args);
		break;
	case 3:
		fuzz_pci(1, args);
		break;
	case 4:
		fuzz_class(mlx5v_class_parse, MLX5V_CLASS_MAX, args);
		break;
	default:
		fuzz_class(mlx4v_class_parse, MLX4V_CLASS_MAX, args);
		break;
	}
	return 0;
}
