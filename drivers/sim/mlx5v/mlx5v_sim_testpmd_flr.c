/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file testpmd command "mlx5v sim flr <port>": a host-side function level reset of the port's
 * PCI function while the application runs it (doc/guides/platform/vfio_emulation.rst,
 * "Faults of the host side"). It asks vfio-pci for the reset (VFIO_DEVICE_RESET) on the
 * device fd that EAL opened, as another thread of the program or an administrator's
 * "echo 1 > /sys/bus/pci/devices/<BDF>/reset" would: on the VFIO emulation and on a card
 * alike. The driver is not told.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/vfio.h>

#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <rte_bus.h>
#include <rte_common.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <bus_pci_driver.h>

#include "testpmd.h"

struct tp_sim_flr_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t sim;
	cmdline_fixed_string_t flr;
	uint16_t port;
};

/* The VFIO device fd of a port on a vfio-pci bound PCI function, or -1 (said why). */
static int
tp_sim_flr_fd(uint16_t port)
{
	struct rte_eth_dev_info info;
	struct rte_pci_device *pdev;

	if (rte_eth_dev_info_get(port, &info) != 0 || info.device == NULL) {
		printf("mlx5v: port %u: no such port\n", port);
		return -1;
	}
	if (strcmp(rte_bus_name(rte_dev_bus(info.device)), "pci") != 0) {
		printf("mlx5v: port %u: not on a PCI function\n", port);
		return -1;
	}
	pdev = RTE_DEV_TO_PCI(info.device);
	if (pdev->kdrv != RTE_PCI_KDRV_VFIO) {
		printf("mlx5v: port %u: %s is not bound to vfio-pci\n", port, pdev->device.name);
		return -1;
	}
	return rte_intr_dev_fd_get(pdev->intr_handle);
}

static void
tp_sim_flr_parsed(void *parsed_result, __rte_unused struct cmdline *cl,
		  __rte_unused void *data)
{
	struct tp_sim_flr_result *res = parsed_result;
	int fd = tp_sim_flr_fd(res->port);

	if (fd < 0)
		return;
	if (ioctl(fd, VFIO_DEVICE_RESET) != 0) {
		printf("mlx5v: port %u: VFIO_DEVICE_RESET: %s\n", res->port, strerror(errno));
		return;
	}
	printf("mlx5v: port %u: function level reset done\n", res->port);
}

static cmdline_parse_token_string_t tp_sim_flr_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_sim_flr_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_sim_flr_sim =
	TOKEN_STRING_INITIALIZER(struct tp_sim_flr_result, sim, "sim");
static cmdline_parse_token_string_t tp_sim_flr_flr =
	TOKEN_STRING_INITIALIZER(struct tp_sim_flr_result, flr, "flr");
static cmdline_parse_token_num_t tp_sim_flr_port =
	TOKEN_NUM_INITIALIZER(struct tp_sim_flr_result, port, RTE_UINT16);

static cmdline_parse_inst_t tp_sim_flr = {
	.f = tp_sim_flr_parsed,
	.data = NULL,
	.help_str = "mlx5v sim flr <port>",
	.tokens = {
		(void *)&tp_sim_flr_mlx5v,
		(void *)&tp_sim_flr_sim,
		(void *)&tp_sim_flr_flr,
		(void *)&tp_sim_flr_port,
		NULL,
	},
};

static struct testpmd_driver_commands mlx5v_sim_flr_cmds = {
	.commands = {
		{ &tp_sim_flr, "mlx5v sim flr (port_id)\n"
		  "    Host side: a function level reset of the port's vfio-pci function\n"
		  "    (VFIO_DEVICE_RESET), the driver not told.\n" },
		{ NULL, NULL },
	},
};
TESTPMD_ADD_DRIVER_COMMANDS(mlx5v_sim_flr_cmds)
