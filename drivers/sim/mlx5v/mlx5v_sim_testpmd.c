/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file testpmd commands "mlx5v sim ...": the simulated ConnectX's fault and event knobs. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "testpmd.h"

#include "mlxv_testpmd.h"
#include "mlx5v_api.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v_prm.h"

TP_NUM_FAMILY("mlx5v");

/* The simulator's counters under "mlx5v dev show <dev>" (nothing for a PCI device). */
static void
tp_sim_dev_show(const char *name)
{
	struct mlx5v_sim *sim = mlx5v_sim_get(name);

	if (sim == NULL)
		return;
	printf("mlx5v: %s: simulator: %" PRIu64 " commands (%" PRIu64 " failed), %" PRIu64
	       " EQEs, %" PRIu64 " CQEs, %" PRIu64 " MSI-X, %" PRIu64 " doorbell misuses, %"
	       PRIu64 " IOMMU faults, live EQ %u CQ %u UAR %u, link %s\n", name,
	       mlx5v_sim_counter(sim, MLX5V_SIM_CTR_CMDS),
	       mlx5v_sim_counter(sim, MLX5V_SIM_CTR_CMD_ERRORS),
	       mlx5v_sim_counter(sim, MLX5V_SIM_CTR_EQES),
	       mlx5v_sim_counter(sim, MLX5V_SIM_CTR_CQES),
	       mlx5v_sim_counter(sim, MLX5V_SIM_CTR_MSIX),
	       mlx5v_sim_counter(sim, MLX5V_SIM_CTR_DB_MISUSE),
	       mlx5v_sim_counter(sim, MLX5V_SIM_CTR_IOMMU_FAULTS),
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ),
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_CQ),
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_UAR),
	       mlx5v_sim_link_get(sim) ? "up" : "down");
	printf("mlx5v: %s: simulator steering: live RQT %u TIR %u FT %u FG %u FTE %u"
	       " flow counters %u\n", name,
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_RQT),
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_TIR),
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_FLOW_TABLE),
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_FLOW_GROUP),
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_FTE),
	       mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_FLOW_COUNTER));
}

static struct mlx5v_sim *
tp_sim_get(const char *name)
{
	struct mlx5v_sim *sim = mlx5v_sim_get(name);

	if (sim == NULL)
		printf("mlx5v: \"%s\" is not a simulated device\n", name);
	return sim;
}

/* ---- mlx5v sim inject <name> <type> <sub_type> ---- */

static void
tp_sim_inject_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	uint32_t type = res->num[0];
	uint32_t sub_type = res->num[1];
	struct mlx5v_sim *sim = tp_sim_get(name);
	int n;

	if (sim == NULL || mlxv_tp_event_check(type, sub_type) < 0)
		return;
	/* A port change carries its port number; inject it on port 1. */
	if (type == RTE_PMD_MLX5V_EVENT_PORT_CHANGE)
		n = mlx5v_sim_port_event(sim, 1, sub_type);
	else
		n = mlx5v_sim_inject_event(sim, type, sub_type, NULL);
	if (n < 0)
		printf("mlx5v: %s: inject failed: %s\n", name, strerror(-n));
	else
		printf("mlx5v: %s: event type 0x%02x sub_type 0x%02x written to %d EQ(s)\n",
		       name, type, sub_type, n);
}

TP_CMD(tp_sim_inject)

TP_NUM_CMD(tp_sim_inject, tp_sim_inject_parsed, "sim", "inject", NULL,
	   "mlx5v sim inject <dev> <type> <sub_type>",
	   (void *)&tp_num_any, (void *)&tp_num_0, (void *)&tp_num_1);

/* ---- mlx5v sim fail <name> <opcode> <status> <syndrome> ---- */

static void
tp_sim_fail_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	uint32_t opcode = res->num[0];
	uint32_t status = res->num[1];
	uint32_t syndrome = res->num[2];
	struct mlx5v_sim *sim = tp_sim_get(name);
	int ret;

	if (sim == NULL)
		return;
	if (opcode > 0xffff || status == 0 || status > 0xff) {
		printf("mlx5v: opcode is 16 bits and status 1..0xff (0 is OK)\n");
		return;
	}
	ret = mlx5v_sim_fail_next_cmd(sim, opcode, status, syndrome);
	if (ret < 0)
		printf("mlx5v: %s: cannot arm the fault: %s\n", name,
			strerror(-ret));
	else
		printf("mlx5v: %s: next %s (0x%x) answers status 0x%x syndrome 0x%x\n",
		       name, mlx5v_cmd_opcode_name(opcode), opcode, status,
		       syndrome);
}

TP_CMD(tp_sim_fail)

TP_NUM_CMD(tp_sim_fail, tp_sim_fail_parsed, "sim", "fail", NULL,
	   "mlx5v sim fail <dev> <opcode> <status> <syndrome>",
	   (void *)&tp_num_any, (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2);

/* ---- mlx5v sim cqe <name> <cqn> ---- */

static void
tp_sim_cqe_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	uint32_t cqn = res->num[0];
	struct mlx5v_sim *sim = tp_sim_get(name);
	int ret;

	if (sim == NULL)
		return;
	ret = mlx5v_sim_post_cqe(sim, cqn, 0x2, 64);
	if (ret < 0)
		printf("mlx5v: %s: cannot post a CQE on CQ %u: %s\n", name,
			cqn, ret == -ENOENT ? "no such CQ" :
			ret == -ENOSPC ? "CQ overrun (CQ_ERROR raised)" : strerror(-ret));
	else
		printf("mlx5v: %s: CQE posted on CQ %u\n", name, cqn);
}

TP_CMD(tp_sim_cqe)

TP_NUM_CMD(tp_sim_cqe, tp_sim_cqe_parsed, "sim", "cqe", NULL,
	   "mlx5v sim cqe <dev> <cqn>", (void *)&tp_num_any, (void *)&tp_num_0);

/* ---- mlx5v sim link <name> up|down|flap ---- */

static void
tp_sim_link_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	const char *what = res->kw[3];
	struct mlx5v_sim *sim = tp_sim_get(name);
	int ret;

	if (sim == NULL)
		return;
	/* The cable of the device's Ethernet port (doc/guides/sim/mlx5v_sim.rst). */
	if (strcmp(what, "flap") == 0)
		ret = mlx5v_sim_link_flap(sim);
	else
		ret = mlx5v_sim_link_set(sim, strcmp(what, "up") == 0);
	if (ret < 0)
		printf("mlx5v: %s: link %s: %s\n", name, what,
		       ret == -ENOTSUP ? "wire=none has no cable" :
		       ret == -ENOLINK ? "the cable is out" : strerror(-ret));
	else
		printf("mlx5v: %s: link %s\n", name, what);
}

TP_CMD(tp_sim_link)

static cmdline_parse_token_string_t tp_sim_link_what =
	TOKEN_STRING_INITIALIZER(struct tp_num_result, kw[3], "up#down#flap");
TP_NUM_CMD(tp_sim_link, tp_sim_link_parsed, "sim", "link", NULL,
	   "mlx5v sim link <dev> up|down|flap", (void *)&tp_num_any, (void *)&tp_sim_link_what);

/* ---- mlx5v sim knob <name> <knob> <value> ---- */

static void
tp_sim_knob_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	const char *knob = res->type2;
	struct mlx5v_sim *sim = tp_sim_get(name);
	int ret;

	if (sim == NULL)
		return;
	/* Any knob of the table (doc/guides/sim/mlx5v_sim.rst, "Fault knobs"); actions act now. */
	ret = mlx5v_sim_knob_set(sim, knob, res->num[0]);
	if (ret < 0)
		printf("mlx5v: %s: knob %s: %s\n", name, knob,
		       ret == -ENOENT ? "no such knob" : strerror(-ret));
	else
		printf("mlx5v: %s: knob %s = %u\n", name, knob, res->num[0]);
}

TP_CMD(tp_sim_knob)

TP_NUM_CMD(tp_sim_knob, tp_sim_knob_parsed, "sim", "knob", NULL,
	   "mlx5v sim knob <dev> <knob> <value>", (void *)&tp_num_any, (void *)&tp_num_any2,
	   (void *)&tp_num_0);

static struct testpmd_driver_commands mlx5v_sim_cmds = {
	.commands = {
		{ &tp_sim_inject, "mlx5v sim inject (dev) (type) (sub_type)\n"
		  "    Simulator: raise an event on every EQ subscribed to its type.\n" },
		{ &tp_sim_fail, "mlx5v sim fail (dev) (opcode) (status) (syndrome)\n"
		  "    Simulator: answer the next command of opcode with status/syndrome.\n" },
		{ &tp_sim_cqe, "mlx5v sim cqe (dev) (cqn)\n"
		  "    Simulator: post a CQE on a CQ.\n" },
		{ &tp_sim_link, "mlx5v sim link (dev) (up|down|flap)\n"
		  "    Simulator: plug, pull or flap the cable of the Ethernet port.\n" },
		{ &tp_sim_knob, "mlx5v sim knob (dev) (knob) (value)\n"
		  "    Simulator: set a fault knob (actions act at once).\n" },
		{ NULL, NULL },
	},
};
TESTPMD_ADD_DRIVER_COMMANDS(mlx5v_sim_cmds)

RTE_INIT(tp_sim_show_init)
{
	mlx5v_tp_dev_show_ext = tp_sim_dev_show;
}
