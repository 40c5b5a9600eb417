/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The devices a unit program tests: the mlx5v_sim vdevs it names, or the PCI functions
 * that EAL's arguments allow (-a BDF,mlx5v=1,...), which are emulated functions when the
 * program runs under dpdk-mlxv-vfio-run (doc/guides/platform/vfio_emulation.rst): the same
 * program then drives them through the vfio-pci backend, and the model it reads is the
 * function's, "vfio-<BDF>". The model's knobs of a PCI function are the launcher's
 * (--dev BDF,SIMDEVARGS), not the probe's. Device i is the i-th allowed function (in -a
 * order), else the vdev the program names; the functions without _at are device 0.
 */

#ifndef _UT_DEV_H_
#define _UT_DEV_H_

/** The allowed PCI functions taken at most. */
#define UT_DEV_MAX 4

/** @return how many PCI functions EAL's arguments allow (at most UT_DEV_MAX). */
unsigned int ut_dev_pci_count(void);

/** @return 1 when EAL's arguments allow a PCI function (it replaces the vdev), else 0. */
int ut_dev_pci(void);

/** @return the name of device i: the BDF of PCI function i, else vdev. */
const char *ut_dev_name_at(const char *vdev, unsigned int i);

/** @return the name of device i's model: "vfio-<BDF>", else vdev. */
const char *ut_dev_sim_name_at(const char *vdev, unsigned int i);

/**
 * Probe device i: rte_vdev_init(vdev, args), or PCI function i with EAL's devargs of it and
 * pci_args (NULL: none), the driver's devargs of a test case (recovery=dead). A function
 * probed at start-up, or since, with the same devargs is left as it is; one probed with
 * other devargs is removed first. @return 0 or a negative errno.
 */
int ut_dev_probe_at(const char *vdev, unsigned int i, const char *args, const char *pci_args);

/** Remove device i. @return 0 or a negative errno. */
int ut_dev_remove_at(const char *vdev, unsigned int i);

/** @return the name of the device: the BDF of the PCI function, else vdev. */
const char *ut_dev_name(const char *vdev);

/** @return the name of the device's model (mlx5v_sim_get()): "vfio-<BDF>", else vdev. */
const char *ut_dev_sim_name(const char *vdev);

/** ut_dev_probe_at() of device 0 without devargs of its own. */
int ut_dev_probe(const char *vdev, const char *args);

/** ut_dev_probe_at() of device 0. */
int ut_dev_probe_pci(const char *vdev, const char *args, const char *pci_args);

/** ut_dev_remove_at() of device 0. */
int ut_dev_remove(const char *vdev);

/** In a test case: skip it, with the reason, on a PCI function. */
#define UT_DEV_VDEV_ONLY(why) do { \
	if (ut_dev_pci()) { \
		printf("skipped on a PCI function: %s\n", why); \
		return TEST_SKIPPED; \
	} \
} while (0)

#endif /* _UT_DEV_H_ */
