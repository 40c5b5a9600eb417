/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file testpmd command "mlx5v port eq show <port>": the EQ and MSI vector of each Rx queue
 * of an mlx5v port, and the core's async EQ. Through the PMD's API for tools only
 * (mlx5v_ethdev_api.h; devtools/check-testpmd-api.sh).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "testpmd.h"

#include "mlxv_testpmd.h"
#include "mlx5v_ethdev_api.h"

/* The most Rx queues a port has (MLX5V_ETH_MAX_QUEUES of the PMD). */
#define TP_INTR_MAX_RXQ 16

TP_NUM_FAMILY("mlx5v");

static void
tp_port_eq_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	struct mlx5v_intr_rxq_info rxq[TP_INTR_MAX_RXQ];
	uint32_t port_id = res->num[0];
	struct mlx5v_intr_port_info info;
	int n, q;

	n = port_id > UINT16_MAX ? -ENODEV :
	    mlx5v_intr_info_get(port_id, &info, rxq, RTE_DIM(rxq));
	if (n < 0) {
		printf("mlx5v: port %u: %s\n", port_id,
		       n == -ENODEV ? "not an mlx5v port" : strerror(-n));
		return;
	}
	printf("Port %u: async EQ %u on vector 0 (commands, pages, port changes); "
	       "LSC event %s, RMV event %s\n", port_id, info.async_eqn,
	       info.lsc ? "on" : "off", info.rmv ? "on" : "off");
	if (info.nb_rxq == 0) {
		printf("Port %u: no Rx queue CQ (port stopped)\n", port_id);
		return;
	}
	if (info.rxq_intr)
		printf("Port %u: Rx interrupts on %u MSI vector(s) for %u queue(s)\n",
		       port_id, info.nb_vec, info.nb_rxq);
	else
		printf("Port %u: Rx interrupts off (intr_conf.rxq)\n", port_id);
	for (q = 0; q < n; q++) {
		if (rxq[q].vector == 0) {
			printf("Port %u: Rx queue %d: CQ %u -> EQ %u (async), no interrupt\n",
			       port_id, q, rxq[q].cqn, rxq[q].eqn);
			continue;
		}
		if (rxq[q].sharing > 1)
			printf("Port %u: Rx queue %d: CQ %u -> EQ %u, MSI vector %u (shared by %u "
			       "queues), fd %d\n", port_id, q, rxq[q].cqn, rxq[q].eqn,
			       rxq[q].vector, rxq[q].sharing, rxq[q].fd);
		else
			printf("Port %u: Rx queue %d: CQ %u -> EQ %u, MSI vector %u (own), fd %d\n",
			       port_id, q, rxq[q].cqn, rxq[q].eqn, rxq[q].vector,
			       rxq[q].fd);
	}
}

TP_CMD(tp_port_eq)

/* num[0]: the port id. */
TP_NUM_CMD3(tp_port_eq, tp_port_eq_parsed, "port", "eq", "show", NULL,
	    "mlx5v port eq show <port_id>", (void *)&tp_num_0);

static struct testpmd_driver_commands mlx5v_intr_cmds = {
	.commands = {
		{ &tp_port_eq, "mlx5v port eq show (port_id)\n"
		  "    Show the EQ and MSI vector of each Rx queue of an mlx5v port, and the\n"
		  "    core's async EQ.\n" },
		{ NULL, NULL },
	},
};
TESTPMD_ADD_DRIVER_COMMANDS(mlx5v_intr_cmds)
