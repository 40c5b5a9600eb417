/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file testpmd commands "mlx5v sim ...": the simulated ConnectX's fault and event knobs. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <rte_common.h>

#include "testpmd.h"

#include "mlxv_testpmd.h"
#include "mlx5v_api.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v_prm.h"

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

struct tp_sim_inject_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t sim;
	cmdline_fixed_string_t inject;
	cmdline_fixed_string_t name;
	uint32_t type;
	uint32_t sub_type;
};

static void
tp_sim_inject_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_sim_inject_result *res = parsed_result;
	struct mlx5v_sim *sim = tp_sim_get(res->name);
	int n;

	if (sim == NULL || mlxv_tp_event_check(res->type, res->sub_type) < 0)
		return;
	/* A port change carries its port number; inject it on port 1. */
	if (res->type == RTE_PMD_MLX5V_EVENT_PORT_CHANGE)
		n = mlx5v_sim_port_event(sim, 1, res->sub_type);
	else
		n = mlx5v_sim_inject_event(sim, res->type, res->sub_type, NULL);
	if (n < 0)
		printf("mlx5v: %s: inject failed: %s\n", res->name, strerror(-n));
	else
		printf("mlx5v: %s: event type 0x%02x sub_type 0x%02x written to %d EQ(s)\n",
		       res->name, res->type, res->sub_type, n);
}

TP_CMD(tp_sim_inject)

static cmdline_parse_token_string_t tp_sim_inject_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_sim_inject_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_sim_inject_sim =
	TOKEN_STRING_INITIALIZER(struct tp_sim_inject_result, sim, "sim");
static cmdline_parse_token_string_t tp_sim_inject_inject =
	TOKEN_STRING_INITIALIZER(struct tp_sim_inject_result, inject, "inject");
static cmdline_parse_token_string_t tp_sim_inject_name =
	TOKEN_STRING_INITIALIZER(struct tp_sim_inject_result, name, NULL);
static cmdline_parse_token_num_t tp_sim_inject_type =
	TOKEN_NUM_INITIALIZER(struct tp_sim_inject_result, type, RTE_UINT32);
static cmdline_parse_token_num_t tp_sim_inject_sub =
	TOKEN_NUM_INITIALIZER(struct tp_sim_inject_result, sub_type, RTE_UINT32);

static cmdline_parse_inst_t tp_sim_inject = {
	.f = tp_sim_inject_parsed,
	.data = NULL,
	.help_str = "mlx5v sim inject <dev> <type> <sub_type>",
	.tokens = {
		(void *)&tp_sim_inject_mlx5v,
		(void *)&tp_sim_inject_sim,
		(void *)&tp_sim_inject_inject,
		(void *)&tp_sim_inject_name,
		(void *)&tp_sim_inject_type,
		(void *)&tp_sim_inject_sub,
		NULL,
	},
};

/* ---- mlx5v sim fail <name> <opcode> <status> <syndrome> ---- */

struct tp_sim_fail_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t sim;
	cmdline_fixed_string_t fail;
	cmdline_fixed_string_t name;
	uint32_t opcode;
	uint32_t status;
	uint32_t syndrome;
};

static void
tp_sim_fail_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_sim_fail_result *res = parsed_result;
	struct mlx5v_sim *sim = tp_sim_get(res->name);
	int ret;

	if (sim == NULL)
		return;
	if (res->opcode > 0xffff || res->status == 0 || res->status > 0xff) {
		printf("mlx5v: opcode is 16 bits and status 1..0xff (0 is OK)\n");
		return;
	}
	ret = mlx5v_sim_fail_next_cmd(sim, res->opcode, res->status, res->syndrome);
	if (ret < 0)
		printf("mlx5v: %s: cannot arm the fault: %s\n", res->name,
			strerror(-ret));
	else
		printf("mlx5v: %s: next %s (0x%x) answers status 0x%x syndrome 0x%x\n",
		       res->name, mlx5v_cmd_opcode_name(res->opcode), res->opcode, res->status,
		       res->syndrome);
}

TP_CMD(tp_sim_fail)

static cmdline_parse_token_string_t tp_sim_fail_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_sim_fail_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_sim_fail_sim =
	TOKEN_STRING_INITIALIZER(struct tp_sim_fail_result, sim, "sim");
static cmdline_parse_token_string_t tp_sim_fail_fail =
	TOKEN_STRING_INITIALIZER(struct tp_sim_fail_result, fail, "fail");
static cmdline_parse_token_string_t tp_sim_fail_name =
	TOKEN_STRING_INITIALIZER(struct tp_sim_fail_result, name, NULL);
static cmdline_parse_token_num_t tp_sim_fail_opcode =
	TOKEN_NUM_INITIALIZER(struct tp_sim_fail_result, opcode, RTE_UINT32);
static cmdline_parse_token_num_t tp_sim_fail_status =
	TOKEN_NUM_INITIALIZER(struct tp_sim_fail_result, status, RTE_UINT32);
static cmdline_parse_token_num_t tp_sim_fail_synd =
	TOKEN_NUM_INITIALIZER(struct tp_sim_fail_result, syndrome, RTE_UINT32);

static cmdline_parse_inst_t tp_sim_fail = {
	.f = tp_sim_fail_parsed,
	.data = NULL,
	.help_str = "mlx5v sim fail <dev> <opcode> <status> <syndrome>",
	.tokens = {
		(void *)&tp_sim_fail_mlx5v,
		(void *)&tp_sim_fail_sim,
		(void *)&tp_sim_fail_fail,
		(void *)&tp_sim_fail_name,
		(void *)&tp_sim_fail_opcode,
		(void *)&tp_sim_fail_status,
		(void *)&tp_sim_fail_synd,
		NULL,
	},
};

/* ---- mlx5v sim cqe <name> <cqn> ---- */

struct tp_sim_cqe_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t sim;
	cmdline_fixed_string_t cqe;
	cmdline_fixed_string_t name;
	uint32_t cqn;
};

static void
tp_sim_cqe_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_sim_cqe_result *res = parsed_result;
	struct mlx5v_sim *sim = tp_sim_get(res->name);
	int ret;

	if (sim == NULL)
		return;
	ret = mlx5v_sim_post_cqe(sim, res->cqn, 0x2, 64);
	if (ret < 0)
		printf("mlx5v: %s: cannot post a CQE on CQ %u: %s\n", res->name,
			res->cqn, ret == -ENOENT ? "no such CQ" :
			ret == -ENOSPC ? "CQ overrun (CQ_ERROR raised)" : strerror(-ret));
	else
		printf("mlx5v: %s: CQE posted on CQ %u\n", res->name, res->cqn);
}

TP_CMD(tp_sim_cqe)

static cmdline_parse_token_string_t tp_sim_cqe_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_sim_cqe_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_sim_cqe_sim =
	TOKEN_STRING_INITIALIZER(struct tp_sim_cqe_result, sim, "sim");
static cmdline_parse_token_string_t tp_sim_cqe_cqe =
	TOKEN_STRING_INITIALIZER(struct tp_sim_cqe_result, cqe, "cqe");
static cmdline_parse_token_string_t tp_sim_cqe_name =
	TOKEN_STRING_INITIALIZER(struct tp_sim_cqe_result, name, NULL);
static cmdline_parse_token_num_t tp_sim_cqe_cqn =
	TOKEN_NUM_INITIALIZER(struct tp_sim_cqe_result, cqn, RTE_UINT32);

static cmdline_parse_inst_t tp_sim_cqe = {
	.f = tp_sim_cqe_parsed,
	.data = NULL,
	.help_str = "mlx5v sim cqe <dev> <cqn>",
	.tokens = {
		(void *)&tp_sim_cqe_mlx5v,
		(void *)&tp_sim_cqe_sim,
		(void *)&tp_sim_cqe_cqe,
		(void *)&tp_sim_cqe_name,
		(void *)&tp_sim_cqe_cqn,
		NULL,
	},
};

/* ---- mlx5v sim link <name> up|down|flap ---- */

struct tp_sim_link_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t sim;
	cmdline_fixed_string_t link;
	cmdline_fixed_string_t name;
	cmdline_fixed_string_t what;
};

static void
tp_sim_link_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_sim_link_result *res = parsed_result;
	struct mlx5v_sim *sim = tp_sim_get(res->name);
	int ret;

	if (sim == NULL)
		return;
	/* The cable of the device's Ethernet port (doc/guides/sim/mlx5v_sim.rst). */
	if (strcmp(res->what, "flap") == 0)
		ret = mlx5v_sim_link_flap(sim);
	else
		ret = mlx5v_sim_link_set(sim, strcmp(res->what, "up") == 0);
	if (ret < 0)
		printf("mlx5v: %s: link %s: %s\n", res->name, res->what,
		       ret == -ENOTSUP ? "wire=none has no cable" :
		       ret == -ENOLINK ? "the cable is out" : strerror(-ret));
	else
		printf("mlx5v: %s: link %s\n", res->name, res->what);
}

TP_CMD(tp_sim_link)

static cmdline_parse_token_string_t tp_sim_link_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_sim_link_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_sim_link_sim =
	TOKEN_STRING_INITIALIZER(struct tp_sim_link_result, sim, "sim");
static cmdline_parse_token_string_t tp_sim_link_link =
	TOKEN_STRING_INITIALIZER(struct tp_sim_link_result, link, "link");
static cmdline_parse_token_string_t tp_sim_link_name =
	TOKEN_STRING_INITIALIZER(struct tp_sim_link_result, name, NULL);
static cmdline_parse_token_string_t tp_sim_link_what =
	TOKEN_STRING_INITIALIZER(struct tp_sim_link_result, what, "up#down#flap");

static cmdline_parse_inst_t tp_sim_link = {
	.f = tp_sim_link_parsed,
	.data = NULL,
	.help_str = "mlx5v sim link <dev> up|down|flap",
	.tokens = {
		(void *)&tp_sim_link_mlx5v,
		(void *)&tp_sim_link_sim,
		(void *)&tp_sim_link_link,
		(void *)&tp_sim_link_name,
		(void *)&tp_sim_link_what,
		NULL,
	},
};

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
		{ NULL, NULL },
	},
};
TESTPMD_ADD_DRIVER_COMMANDS(mlx5v_sim_cmds)

RTE_INIT(tp_sim_show_init)
{
	mlx5v_tp_dev_show_ext = tp_sim_dev_show;
}
