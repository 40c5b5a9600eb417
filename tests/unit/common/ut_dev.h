/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The device a unit program tests: the mlx5v_sim vdev it names, or the PCI function
 * that EAL's arguments allow (-a BDF,mlx5v=1,...), which is an emulated function when the
 * program runs under dpdk-mlxv-vfio-run (doc/guides/platform/vfio_emulation.rst): the same
 * program then drives the device through the vfio-pci backend, and the model it reads is
 * the function's, "vfio-<BDF>". The model's knobs of a PCI function are the launcher's
 * (--dev BDF,SIMDEVARGS), not the probe's.
 */

#ifndef _UT_DEV_H_
#define _UT_DEV_H_

/** @return 1 when EAL's arguments allow a PCI function (it replaces the vdev), else 0. */
int ut_dev_pci(void);

/** @return the name of the device: the BDF of the PCI function, else vdev. */
const char *ut_dev_name(const char *vdev);

/** @return the name of the device's model (mlx5v_sim_get()): "vfio-<BDF>", else vdev. */
const char *ut_dev_sim_name(const char *vdev);

/**
 * Probe the device: rte_vdev_init(vdev, args), or the PCI function with EAL's devargs of it
 * (a no-op when EAL probed it at start-up and it was not removed since).
 * @return 0 or a negative errno.
 */
int ut_dev_probe(const char *vdev, const char *args);

/**
 * ut_dev_probe() with pci_args (NULL: none) appended to the PCI function's devargs: the
 * driver's devargs of a test case (recovery=dead). A function probed with other devargs is
 * removed first. @return 0 or a negative errno.
 */
int ut_dev_probe_pci(const char *vdev, const char *args, const char *pci_args);

/** Remove the device probed by ut_dev_probe(). @return 0 or a negative errno. */
int ut_dev_remove(const char *vdev);

/** In a test case: skip it, with the reason, on a PCI function. */
#define UT_DEV_VDEV_ONLY(why) do { \
	if (ut_dev_pci()) { \
		printf("skipped on a PCI function: %s\n", why); \
		return TEST_SKIPPED; \
	} \
} while (0)

#endif /* _UT_DEV_H_ */
