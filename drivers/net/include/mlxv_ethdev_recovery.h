/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The ethdev side of a device recovery that both PMDs share (doc/guides/nics/mlx5v.rst
 * and mlx4v.rst, "Recovery"): a started port's bursts stopped at the death, and
 * RTE_ETH_EVENT_INTR_RESET raised from an alarm once the device is back.
 */

#ifndef _MLXV_ETHDEV_RECOVERY_H_
#define _MLXV_ETHDEV_RECOVERY_H_

#include <stdint.h>

#include <ethdev_driver.h>
#include <rte_alarm.h>

/**
 * The rings the bursts read go with the device's reset: from now on a burst of a started port
 * returns 0 (the next start installs the real ones again). A burst already running finishes
 * on memory that is only freed later (the recovery, or rte_eth_dev_reset()).
 */
static inline void
mlxv_recovery_bursts_stop(const struct rte_eth_dev *eth_dev)
{
	uint16_t port = eth_dev->data->port_id;

	if (eth_dev->data->dev_started) {
		rte_eth_fp_ops[port].rx_pkt_burst = rte_eth_pkt_burst_dummy;
		rte_eth_fp_ops[port].tx_pkt_burst = rte_eth_pkt_burst_dummy;
	}
}

/*
 * EAL interrupt thread. Set once the device recovered, after the RMV alarm of the death: RMV
 * reaches the application first. close cancels it, so the port is still the PMD's.
 */
static inline void
mlxv_recovery_reset_alarm(void *arg)
{
	uint16_t port = (uint16_t)(uintptr_t)arg;

	rte_eth_dev_callback_process(&rte_eth_devices[port], RTE_ETH_EVENT_INTR_RESET, NULL);
}

/** The device is back: RTE_ETH_EVENT_INTR_RESET from an alarm. @return 0 or -errno. */
static inline int
mlxv_recovery_reset_post(const struct rte_eth_dev *eth_dev)
{
	return rte_eal_alarm_set(1, mlxv_recovery_reset_alarm,
				 (void *)(uintptr_t)eth_dev->data->port_id);
}

/** close: no RESET event any more (waits for one being raised on another thread). */
static inline void
mlxv_recovery_reset_cancel(const struct rte_eth_dev *eth_dev)
{
	rte_eal_alarm_cancel(mlxv_recovery_reset_alarm,
			     (void *)(uintptr_t)eth_dev->data->port_id);
}

#endif /* _MLXV_ETHDEV_RECOVERY_H_ */
