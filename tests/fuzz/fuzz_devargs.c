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
#include "ut_pci_args.h"

#define FUZZ_ARGS_MAX 512

/*
 * The PCI front-ends keep their rte_pci_driver static: ut_pci_args.h sees each one as it
 * registers and hands it a made-up function whose BAR reads all ones, so bring-up stops at
 * once.
 */
void
fuzz_setup(void)
{
	if (ut_pci_drv[0] == NULL || ut_pci_drv[1] == NULL)
		fuzz_fail("the mlx5v_pci and mlx4v_pci drivers did not register");
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
	const char *name = which == 0 ? "mlx5v_pci" : "mlx4v_pci";
	struct ut_heap h0, h1;
	int ret;

	ut_heap_get(&h0);
	ret = ut_pci_args_probe(which, args, NULL);
	/* No device answers behind the all-ones BAR or at this address in ibverbs. */
	if (ret == 0)
		fuzz_fail("%s probed a device that is not there (devargs \"%s\")", name, args);
	ut_heap_get(&h1);
	if (!ut_heap_same(&h0, &h1))
		fuzz_fail("%s \"%s\" (probe %d): EAL memory not returned", name, args, ret);
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
