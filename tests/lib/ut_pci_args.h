/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The devargs of a PCI front-end (mlx5v_pci, mlx4v_pci) in a unit test: the test
 * program sees each driver as it registers (its constructor calls rte_pci_register(), which
 * this definition interposes, as tests/fuzz/fuzz_devargs.c does) and hands it a made-up
 * function carrying devargs, with the EAL log captured to check the line that refuses them.
 * Include it in one file of a program only.
 */

#ifndef _UT_PCI_ARGS_H_
#define _UT_PCI_ARGS_H_

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_devargs.h>
#include <rte_log.h>
#include <bus_pci_driver.h>

/* The made-up function's BAR: all ones, what a device reads whose link is gone. */
#define UT_PCI_BAR_LEN (1u << 20)

static struct rte_pci_driver *ut_pci_drv[2]; /* [0] mlx5v_pci, [1] mlx4v_pci */

void rte_pci_register(struct rte_pci_driver *driver);

void
rte_pci_register(struct rte_pci_driver *driver)
{
	void (*real)(struct rte_pci_driver *) =
		(void (*)(struct rte_pci_driver *))dlsym(RTLD_NEXT, "rte_pci_register");

	if (strcmp(driver->driver.name, "mlx5v_pci") == 0)
		ut_pci_drv[0] = driver;
	else if (strcmp(driver->driver.name, "mlx4v_pci") == 0)
		ut_pci_drv[1] = driver;
	if (real != NULL)
		real(driver);
}

/*
 * Probe a made-up function of driver which (0 mlx5v_pci, 1 mlx4v_pci) with args; *log gets
 * what the probe logged (free() it; log NULL: not captured). Its BAR reads all ones, and no
 * ibverbs device is at its address: the probe cannot bring anything up.
 * @return the probe's value, or -ENOSYS when the driver did not register.
 */
static inline int
ut_pci_args_probe(unsigned int which, const char *args, char **log)
{
	static uint8_t bar[UT_PCI_BAR_LEN];
	struct rte_pci_driver *drv = ut_pci_drv[which];
	struct rte_pci_device pdev;
	struct rte_devargs da;
	size_t len = 0;
	FILE *f;
	int ret;

	if (log != NULL)
		*log = NULL;
	if (drv == NULL)
		return -ENOSYS;
	memset(bar, 0xff, sizeof(bar));
	memset(&da, 0, sizeof(da));
	memset(&pdev, 0, sizeof(pdev));
	da.args = (char *)(uintptr_t)args;
	pdev.device.name = "0000:00:1f.7";
	pdev.device.devargs = &da;
	pdev.addr.devid = 0x1f;
	pdev.addr.function = 7;
	pdev.id.vendor_id = 0x15b3;
	pdev.id.device_id = which == 0 ? 0x1017 : 0x1003;
	pdev.kdrv = RTE_PCI_KDRV_VFIO;
	pdev.mem_resource[0].addr = bar;
	pdev.mem_resource[0].len = sizeof(bar);
	f = log != NULL ? open_memstream(log, &len) : NULL;
	if (f != NULL)
		rte_openlog_stream(f);
	ret = drv->probe(drv, &pdev);
	rte_openlog_stream(NULL);
	if (f != NULL)
		fclose(f);
	return ret;
}

/** @return 1 if log holds want; otherwise prints the log and returns 0. */
static inline int
ut_pci_args_logged(const char *log, const char *want)
{
	if (log != NULL && strstr(log, want) != NULL)
		return 1;
	printf("log lacks \"%s\":\n%s", want, log != NULL ? log : "(not captured)");
	return 0;
}

#ifdef TEST_ASSERT
/*
 * One owner per devarg (doc/guides/platform/layers.rst, "Devargs"), the checks both class
 * registries share. Class test_a reads test_a_key and test_b nothing; on the simulated device
 * vdev (nothing_left() checks it is gone) a class's key passes only when class= selects the
 * class, and driver which (0 mlx5v_pci, 1 mlx4v_pci) refuses by name a key no layer takes
 * and the key of a class not selected, before it touches the function.
 */
static inline int
ut_pci_args_owner(unsigned int which, const char *vdev, int (*nothing_left)(void))
{
	static const char *const unselected[] = {
		"class=none,test_a_key=1", "class=test_b,test_a_key=1", "test_a_key=1",
	};
	static const char *const want[] = {
		"unknown devarg no_such_key", "devarg test_a_key is class test_a's",
	};
	const char *sel = which == 0 ? "mlx5v=1" : "mlx4v=1";
	char args[64], *log;
	unsigned int i;
	int ret, seen;

	for (i = 0; i < RTE_DIM(unselected); i++) {
		TEST_ASSERT(rte_vdev_init(vdev, unselected[i]) < 0, "\"%s\" accepted",
			    unselected[i]);
		TEST_ASSERT_SUCCESS(nothing_left(), "\"%s\" left something", unselected[i]);
	}
	TEST_ASSERT_SUCCESS(rte_vdev_init(vdev, "class=test_a,test_a_key=1"), "own key");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(vdev), "remove");
	for (i = 0; i < RTE_DIM(want); i++) {
		snprintf(args, sizeof(args), "%s,%s", sel,
			 i == 0 ? "no_such_key=1" : "class=none,test_a_key=1");
		ret = ut_pci_args_probe(which, args, &log);
		seen = ut_pci_args_logged(log, want[i]);
		free(log);
		TEST_ASSERT(ret == -EINVAL && seen, "\"%s\": %d", args, ret);
	}
	return nothing_left();
}
#endif

#endif /* _UT_PCI_ARGS_H_ */
