/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file testpmd commands "mlx5v ...": device state, MSI vectors, DEVX EQs. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <rte_common.h>
#include <rte_errno.h>

#include "testpmd.h"

#include "mlxv_testpmd.h"
#include "mlx5v_dev.h"
#include "mlx5v_devx.h"
#include "rte_pmd_mlx5v.h"

/* Set by the simulator's command file when it is built in: more lines for "mlx5v dev show". */
void (*mlx5v_tp_dev_show_ext)(const char *name);

/*
 * What testpmd allocated per device: its UAR (for the EQs it creates) and the MSI
 * vectors, so "mlx5v msi free <dev> <vector>" finds the object by number.
 */
#define TP_MAX_DEVS 8
#define TP_MAX_VEC 64

struct tp_dev {
	struct mlx5v_dev *dev;
	struct mlx5v_devx_uar *uar;
	struct mlx5v_devx_msi *msi[TP_MAX_VEC];
};

static struct tp_dev tp_devs[TP_MAX_DEVS];

/*
 * Forget the objects of a record that died with a previous device at the same address
 * (removal releases them). Checked by address in the DEVX registry: nothing is read.
 */
static void
tp_dev_prune(struct tp_dev *t)
{
	unsigned int v;

	if (t->uar != NULL && mlx5v_devx_to_uar((struct rte_pmd_mlx5v_uar *)t->uar) == NULL)
		t->uar = NULL;
	for (v = 0; v < TP_MAX_VEC; v++)
		if (t->msi[v] != NULL &&
		    mlx5v_devx_to_msi((struct rte_pmd_mlx5v_msi_vector *)t->msi[v]) == NULL)
			t->msi[v] = NULL;
}

/* @return testpmd's record of the loaded device name, or NULL after printing why. */
static struct tp_dev *
tp_dev_get(const char *name)
{
	struct mlx5v_dev *dev = mlx5v_devx_dev_get(name);
	struct tp_dev *free_slot = NULL;
	unsigned int i;

	if (dev == NULL) {
		printf("mlx5v: no loaded mlx5v device named \"%s\"\n", name);
		return NULL;
	}
	for (i = 0; i < TP_MAX_DEVS; i++) {
		if (tp_devs[i].dev == dev) {
			tp_dev_prune(&tp_devs[i]);
			return &tp_devs[i];
		}
		if (tp_devs[i].dev == NULL && free_slot == NULL)
			free_slot = &tp_devs[i];
	}
	if (free_slot == NULL) {
		printf("mlx5v: too many devices\n");
		return NULL;
	}
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->dev = dev;
	return free_slot;
}

static struct mlx5v_devx_uar *
tp_uar(struct tp_dev *t)
{
	if (t->uar == NULL) {
		t->uar = mlx5v_devx_uar_alloc(t->dev);
		if (t->uar == NULL)
			printf("mlx5v: %s: cannot allocate a UAR: %s\n", t->dev->name,
				rte_strerror(rte_errno));
	}
	return t->uar;
}

/* @return the live DEVX EQ eqn, or NULL after printing why. */
static struct mlx5v_devx_eq *
tp_eq_get(struct tp_dev *t, uint32_t eqn)
{
	struct mlx5v_devx_eq *eq = mlx5v_devx_eq_find(t->dev, eqn);

	if (eq == NULL)
		printf("mlx5v: %s: no DEVX EQ %u (see \"mlx5v eq list %s\")\n",
			t->dev->name, eqn, t->dev->name);
	return eq;
}

static const char *
tp_event_name(uint8_t type)
{
	switch (type) {
	case RTE_PMD_MLX5V_EVENT_COMP: return "COMP";
	case RTE_PMD_MLX5V_EVENT_PATH_MIG: return "PATH_MIG";
	case RTE_PMD_MLX5V_EVENT_COMM_EST: return "COMM_EST";
	case RTE_PMD_MLX5V_EVENT_SQ_DRAINED: return "SQ_DRAINED";
	case RTE_PMD_MLX5V_EVENT_CQ_ERROR: return "CQ_ERROR";
	case RTE_PMD_MLX5V_EVENT_WQ_CATAS_ERROR: return "WQ_CATAS_ERROR";
	case RTE_PMD_MLX5V_EVENT_INTERNAL_ERROR: return "INTERNAL_ERROR";
	case RTE_PMD_MLX5V_EVENT_PORT_CHANGE: return "PORT_CHANGE";
	case RTE_PMD_MLX5V_EVENT_CMD: return "CMD";
	case RTE_PMD_MLX5V_EVENT_PAGE_REQUEST: return "PAGE_REQUEST";
	case RTE_PMD_MLX5V_EVENT_NIC_VPORT_CHANGE: return "NIC_VPORT_CHANGE";
	case RTE_PMD_MLX5V_EVENT_GENERAL_EVENT: return "GENERAL_EVENT";
	default: return "OTHER";
	}
}

/* One line per EQE, with the fields of the known event types (prm/mlx5 §6.6). */
static void
tp_print_eqe(const char *dev, uint32_t eqn, uint32_t ci, const uint8_t *eqe)
{
	uint8_t type = eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF];
	uint8_t sub = eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF];

	printf("mlx5v: %s EQ %u: EQE %u type 0x%02x %s sub_type 0x%02x", dev, eqn, ci, type,
	       tp_event_name(type), sub);
	switch (type) {
	case RTE_PMD_MLX5V_EVENT_COMP:
		printf(" cqn %u", rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_COMP_CQN_OFF,
							 0, 23, 0));
		break;
	case RTE_PMD_MLX5V_EVENT_CQ_ERROR:
		printf(" cqn %u syndrome 0x%x",
		       rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_CQ_ERR_CQN_OFF, 0, 23, 0),
		       eqe[RTE_PMD_MLX5V_EQE_CQ_ERR_SYNDROME_OFF]);
		break;
	case RTE_PMD_MLX5V_EVENT_PORT_CHANGE:
		printf(" port %u %s", eqe[RTE_PMD_MLX5V_EQE_PORT_OFF] >> 4,
		       sub == RTE_PMD_MLX5V_PORT_CHANGE_DOWN ? "DOWN" :
		       sub == RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE ? "ACTIVE" : "");
		break;
	default:
		break;
	}
	printf("\n");
}

/*
 * Handler of testpmd's EQs: prints from the lcore polling or the EAL interrupt thread.
 * The latter runs outside any command: flush so the EQE shows when it arrives.
 */
static void
tp_eq_event(struct mlx5v_dev *dev, uint32_t eqn, const uint8_t *eqe, void *arg)
{
	struct mlx5v_devx_eq *eq = arg;

	tp_print_eqe(dev->name, eqn, eq->ci, eqe);
	fflush(stdout);
}

/* ---- mlx5v dev show <name> ---- */

struct tp_dev_show_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t dev;
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t name;
};

static void
tp_dev_show_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_dev_show_result *res = parsed_result;
	struct mlx5v_cmd_stats st;
	struct mlx5v_cmd_info ci;
	struct mlx5v_eq *async;
	struct tp_dev *t = tp_dev_get(res->name);
	struct mlx5v_dev *dev;
	unsigned int v, op;

	if (t == NULL)
		return;
	dev = t->dev;
	async = mlx5v_eq_async(dev);
	printf("mlx5v: %s: stage %d%s, firmware %u.%u, function %u, UAR %u, socket %d\n",
	       dev->name, dev->stage, mlx5v_dev_is_dead(dev) ? " DEAD" : "",
	       dev->fw_rev & 0xffff, dev->fw_rev >> 16, dev->function_id, dev->uar,
	       dev->socket);
	printf("mlx5v: %s: async EQ %d on vector 0, firmware pages %" PRIu64 "\n", dev->name,
	       async != NULL ? (int)mlx5v_eq_eqn(async) : -1, mlx5v_pages_given(dev));
	printf("mlx5v: %s: MSI-X vectors %u, allocated:", dev->name, mlx5v_msi_count(dev));
	for (v = 1; v < mlx5v_msi_count(dev); v++)
		if (dev->msi.fd[v] >= 0)
			printf(" %u(fd %d, %u EQ)", v, dev->msi.fd[v], dev->msi.eq_refs[v]);
	printf("\n");
	if (mlx5v_cmd_info_get(dev, &ci) == 0)
		printf("mlx5v: %s: command queue %u slots (page slot %u), %s mode, busy 0x%08x, "
		       "timed out 0x%08x, late %" PRIu64 ", recoveries %" PRIu64 "\n", dev->name,
		       ci.nslots, ci.page_slot, ci.events ? "event" : "polling", ci.busy_mask,
		       ci.timedout_mask, ci.late_completions, ci.eq_recoveries);
	if (mlx5v_tp_dev_show_ext != NULL)
		mlx5v_tp_dev_show_ext(dev->name);
	printf("mlx5v: %s: %-26s %10s %8s %8s %12s\n", dev->name, "opcode", "count", "errors",
	       "timeouts", "avg ns");
	for (op = 0; op < MLX5V_CMD_STATS_OPCODES; op++) {
		if (mlx5v_cmd_stats_get(dev, op, &st) != 0 || st.n == 0)
			continue;
		printf("mlx5v: %s: %-20s 0x%03x %10" PRIu64 " %8" PRIu64 " %8" PRIu64 " %12"
		       PRIu64 "\n", dev->name, mlx5v_cmd_opcode_name(op), op, st.n, st.errors,
		       st.timeouts, st.ns_total / st.n);
	}
}

TP_CMD(tp_dev_show)

static cmdline_parse_token_string_t tp_dev_show_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_dev_show_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_dev_show_dev =
	TOKEN_STRING_INITIALIZER(struct tp_dev_show_result, dev, "dev");
static cmdline_parse_token_string_t tp_dev_show_show =
	TOKEN_STRING_INITIALIZER(struct tp_dev_show_result, show, "show");
static cmdline_parse_token_string_t tp_dev_show_name =
	TOKEN_STRING_INITIALIZER(struct tp_dev_show_result, name, NULL);

static cmdline_parse_inst_t tp_dev_show = {
	.f = tp_dev_show_parsed,
	.data = NULL,
	.help_str = "mlx5v dev show <dev>",
	.tokens = {
		(void *)&tp_dev_show_mlx5v,
		(void *)&tp_dev_show_dev,
		(void *)&tp_dev_show_show,
		(void *)&tp_dev_show_name,
		NULL,
	},
};

/* ---- mlx5v msi alloc|list <name> ---- */

struct tp_msi_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t msi;
	cmdline_fixed_string_t op;
	cmdline_fixed_string_t name;
};

static void
tp_msi_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_msi_result *res = parsed_result;
	struct tp_dev *t = tp_dev_get(res->name);
	struct mlx5v_devx_msi *m;
	unsigned int v, n = 0;

	if (t == NULL)
		return;
	if (strcmp(res->op, "alloc") == 0) {
		m = mlx5v_devx_msi_alloc(t->dev);
		if (m == NULL) {
			printf("mlx5v: %s: MSI vector allocation failed: %s\n",
				t->dev->name, rte_strerror(rte_errno));
			return;
		}
		if (m->vector >= TP_MAX_VEC) {
			printf("mlx5v: vector %u beyond what testpmd tracks\n", m->vector);
			mlx5v_devx_msi_free(m);
			return;
		}
		t->msi[m->vector] = m;
		printf("mlx5v: %s: MSI vector %u allocated, fd %d\n", t->dev->name,
		       m->vector, m->fd);
		return;
	}
	printf("mlx5v: %s: MSI vectors (testpmd's):", t->dev->name);
	for (v = 0; v < TP_MAX_VEC; v++) {
		if (t->msi[v] == NULL)
			continue;
		printf(" %u(fd %d, %u EQ)", v, t->msi[v]->fd, t->dev->msi.eq_refs[v]);
		n++;
	}
	printf("%s\n", n == 0 ? " none" : "");
}

TP_CMD(tp_msi)

static cmdline_parse_token_string_t tp_msi_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_msi_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_msi_msi =
	TOKEN_STRING_INITIALIZER(struct tp_msi_result, msi, "msi");
static cmdline_parse_token_string_t tp_msi_op =
	TOKEN_STRING_INITIALIZER(struct tp_msi_result, op, "alloc#list");
static cmdline_parse_token_string_t tp_msi_name =
	TOKEN_STRING_INITIALIZER(struct tp_msi_result, name, NULL);

static cmdline_parse_inst_t tp_msi = {
	.f = tp_msi_parsed,
	.data = NULL,
	.help_str = "mlx5v msi alloc|list <dev>",
	.tokens = {
		(void *)&tp_msi_mlx5v,
		(void *)&tp_msi_msi,
		(void *)&tp_msi_op,
		(void *)&tp_msi_name,
		NULL,
	},
};

/* ---- mlx5v msi free <name> <vector> ---- */

struct tp_msi_free_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t msi;
	cmdline_fixed_string_t free;
	cmdline_fixed_string_t name;
	uint32_t vector;
};

static void
tp_msi_free_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_msi_free_result *res = parsed_result;
	struct tp_dev *t = tp_dev_get(res->name);
	int ret;

	if (t == NULL)
		return;
	if (res->vector >= TP_MAX_VEC || t->msi[res->vector] == NULL) {
		printf("mlx5v: %s: MSI vector %u was not allocated by testpmd "
			"(see \"mlx5v msi list %s\")\n", t->dev->name, res->vector, t->dev->name);
		return;
	}
	ret = mlx5v_devx_msi_free(t->msi[res->vector]);
	if (ret < 0) {
		printf("mlx5v: %s: cannot free MSI vector %u: %s%s\n", t->dev->name,
			res->vector, strerror(-ret),
			ret == -EBUSY ? " (an EQ uses it; destroy the EQ first)" : "");
		return;
	}
	t->msi[res->vector] = NULL;
	printf("mlx5v: %s: MSI vector %u freed\n", t->dev->name, res->vector);
}

TP_CMD(tp_msi_free)

static cmdline_parse_token_string_t tp_msi_free_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_msi_free_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_msi_free_msi =
	TOKEN_STRING_INITIALIZER(struct tp_msi_free_result, msi, "msi");
static cmdline_parse_token_string_t tp_msi_free_free =
	TOKEN_STRING_INITIALIZER(struct tp_msi_free_result, free, "free");
static cmdline_parse_token_string_t tp_msi_free_name =
	TOKEN_STRING_INITIALIZER(struct tp_msi_free_result, name, NULL);
static cmdline_parse_token_num_t tp_msi_free_vector =
	TOKEN_NUM_INITIALIZER(struct tp_msi_free_result, vector, RTE_UINT32);

static cmdline_parse_inst_t tp_msi_free = {
	.f = tp_msi_free_parsed,
	.data = NULL,
	.help_str = "mlx5v msi free <dev> <vector>",
	.tokens = {
		(void *)&tp_msi_free_mlx5v,
		(void *)&tp_msi_free_msi,
		(void *)&tp_msi_free_free,
		(void *)&tp_msi_free_name,
		(void *)&tp_msi_free_vector,
		NULL,
	},
};

/* ---- mlx5v eq create <name> <log_size> <event_mask_hex> <vector> ---- */

struct tp_eq_create_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t eq;
	cmdline_fixed_string_t create;
	cmdline_fixed_string_t name;
	uint32_t log_size;
	cmdline_fixed_string_t mask;
	uint32_t vector;
};

static void
tp_eq_create_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_eq_create_result *res = parsed_result;
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct tp_dev *t = tp_dev_get(res->name);
	struct mlx5v_devx_uar *uar;
	struct mlx5v_devx_eq *eq;
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;
	uint32_t max_log = 0;
	const uint8_t *cap;
	uint64_t mask;
	char *end;

	if (t == NULL)
		return;
	errno = 0;
	mask = strtoull(res->mask, &end, 16);
	if (errno != 0 || end == res->mask || *end != '\0') {
		printf("mlx5v: event mask \"%s\" is not a hexadecimal number "
			"(bit t = event type t, e.g. 0x210 for CQ_ERROR | PORT_CHANGE)\n",
			res->mask);
		return;
	}
	cap = mlx5v_dev_hca_cap(t->dev);
	if (cap != NULL)
		max_log = RTE_PMD_MLX5V_GET(cap, MLX5V_CAP_LOG_MAX_EQ_SZ);
	if (res->log_size < 1 || res->log_size > 31 || (max_log != 0 && res->log_size > max_log)) {
		printf("mlx5v: log_size %u out of range 1..%u\n", res->log_size,
			max_log != 0 ? max_log : 31);
		return;
	}
	if (res->vector == 0 || res->vector >= TP_MAX_VEC || t->msi[res->vector] == NULL) {
		printf("mlx5v: vector %u is not an allocated MSI vector "
			"(vector 0 is the driver's; use \"mlx5v msi alloc %s\")\n", res->vector,
			t->dev->name);
		return;
	}
	uar = tp_uar(t);
	if (uar == NULL)
		return;
	/* A caller-built create_eq_in: the driver fills log_page_size and the PAS. */
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, res->log_size);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, uar->page_id);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, res->vector);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK, mask);
	memset(out, 0, sizeof(out));
	eq = mlx5v_devx_eq_create(t->dev, in, sizeof(in), out, sizeof(out));
	if (eq == NULL) {
		if (rte_errno == EREMOTEIO)
			printf("mlx5v: %s: CREATE_EQ failed in the device: status 0x%x "
				"syndrome 0x%08x\n", t->dev->name,
				RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
				RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
		else
			printf("mlx5v: %s: EQ creation failed: %s\n", t->dev->name,
				rte_strerror(rte_errno));
		return;
	}
	mlx5v_devx_eq_handler_set(eq, MLX5V_DEVX_EVENT_ANY, tp_eq_event, eq);
	/* A new EQ is not armed (§6.11); arm it so the first EQE interrupts. */
	mlx5v_devx_eq_arm(eq);
	printf("mlx5v: %s: EQ %u created: %u entries, vector %u, mask 0x%" PRIx64
	       ", UAR %u, ring %p (%zu bytes, IOVA 0x%" PRIx64 ")\n", t->dev->name, eq->eqn,
	       eq->ring.nent, eq->vector, mask, eq->uar_page, eq->pub.vaddr, eq->ring.size,
	       eq->ring.iova);
}

TP_CMD(tp_eq_create)

static cmdline_parse_token_string_t tp_eq_create_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_eq_create_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_eq_create_eq =
	TOKEN_STRING_INITIALIZER(struct tp_eq_create_result, eq, "eq");
static cmdline_parse_token_string_t tp_eq_create_create =
	TOKEN_STRING_INITIALIZER(struct tp_eq_create_result, create, "create");
static cmdline_parse_token_string_t tp_eq_create_name =
	TOKEN_STRING_INITIALIZER(struct tp_eq_create_result, name, NULL);
static cmdline_parse_token_num_t tp_eq_create_log =
	TOKEN_NUM_INITIALIZER(struct tp_eq_create_result, log_size, RTE_UINT32);
static cmdline_parse_token_string_t tp_eq_create_mask =
	TOKEN_STRING_INITIALIZER(struct tp_eq_create_result, mask, NULL);
static cmdline_parse_token_num_t tp_eq_create_vector =
	TOKEN_NUM_INITIALIZER(struct tp_eq_create_result, vector, RTE_UINT32);

static cmdline_parse_inst_t tp_eq_create = {
	.f = tp_eq_create_parsed,
	.data = NULL,
	.help_str = "mlx5v eq create <dev> <log_size> <event_mask_hex> <vector>",
	.tokens = {
		(void *)&tp_eq_create_mlx5v,
		(void *)&tp_eq_create_eq,
		(void *)&tp_eq_create_create,
		(void *)&tp_eq_create_name,
		(void *)&tp_eq_create_log,
		(void *)&tp_eq_create_mask,
		(void *)&tp_eq_create_vector,
		NULL,
	},
};

/* ---- mlx5v eq destroy|show|poll|arm <name> <eqn> ---- */

struct tp_eq_op_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t eq;
	cmdline_fixed_string_t op;
	cmdline_fixed_string_t name;
	uint32_t eqn;
};

static const char *
tp_eq_st_name(uint32_t st)
{
	switch (st) {
	case RTE_PMD_MLX5V_EQC_ST_ARMED: return "ARMED";
	case RTE_PMD_MLX5V_EQC_ST_FIRED: return "FIRED";
	case RTE_PMD_MLX5V_EQC_ST_ALWAYS_ARMED: return "ALWAYS_ARMED";
	default: return "?";
	}
}

static void
tp_eq_show(struct tp_dev *t, struct mlx5v_devx_eq *eq)
{
	uint8_t in[RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8];
	const uint8_t *eqc = out + RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC;
	struct mlx5v_devx_eq_stats st;
	int ret;

	/* Validates eq (it may have been destroyed since it was looked up). */
	if (mlx5v_devx_eq_stats_get(eq, &st) < 0) {
		printf("mlx5v: %s: the EQ is gone\n", t->dev->name);
		return;
	}
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_EQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eq->eqn);
	ret = mlx5v_devx_general_cmd(t->dev, in, sizeof(in), out, sizeof(out));
	if (ret < 0) {
		printf("mlx5v: %s: QUERY_EQ %u failed: %s\n", t->dev->name, eq->eqn,
			strerror(-ret));
		return;
	}
	printf("mlx5v: %s: EQ %u: state %s, status 0x%x, %u entries, vector %u, UAR %u, "
	       "interrupt callback %s\n", t->dev->name, eq->eqn,
	       tp_eq_st_name(RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_ST)),
	       RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_STATUS), eq->ring.nent, eq->vector,
	       eq->uar_page, eq->ih != NULL ? "on" : "off");
	printf("mlx5v: %s: EQ %u: consumer index %u (device %u), producer %u, pending EQEs %u\n",
	       t->dev->name, eq->eqn, eq->ci,
	       RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER),
	       RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_PRODUCER_COUNTER),
	       mlx5v_devx_eq_pending(eq));
	printf("mlx5v: %s: EQ %u: event mask 0x%" PRIx64 ", log_page_size %u, PAS 0x%" PRIx64
	       ", ring %p\n", t->dev->name, eq->eqn,
	       RTE_PMD_MLX5V_GET64(out, RTE_PMD_MLX5V_QUERY_EQ_OUT_EVENT_BITMASK),
	       RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_LOG_PAGE_SIZE),
	       RTE_PMD_MLX5V_GET64(out, RTE_PMD_MLX5V_QUERY_EQ_OUT_PAS), eq->pub.vaddr);
	printf("mlx5v: %s: EQ %u: consumed %" PRIu64 ", polls %" PRIu64 ", CI updates %" PRIu64
	       ", arms %" PRIu64 ", interrupts %" PRIu64 "\n", t->dev->name, eq->eqn, st.eqes,
	       st.polls, st.ci_updates, st.arms, st.intrs);
}

static void
tp_eq_op_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_eq_op_result *res = parsed_result;
	struct tp_dev *t = tp_dev_get(res->name);
	struct mlx5v_devx_eq *eq;
	int ret;

	if (t == NULL)
		return;
	eq = tp_eq_get(t, res->eqn);
	if (eq == NULL)
		return;
	if (strcmp(res->op, "show") == 0) {
		tp_eq_show(t, eq);
	} else if (strcmp(res->op, "poll") == 0) {
		if (eq->ih != NULL) {
			printf("mlx5v: %s: EQ %u is consumed by its interrupt callback "
				"(\"mlx5v eq intr %s %u off\" first)\n", t->dev->name, eq->eqn,
				t->dev->name, eq->eqn);
			return;
		}
		ret = mlx5v_devx_eq_poll(eq);
		if (ret < 0)
			printf("mlx5v: %s: EQ %u: poll failed: %s\n", t->dev->name,
				eq->eqn, strerror(-ret));
		else
			printf("mlx5v: %s: EQ %u: %d EQE(s) consumed, consumer index %u, armed\n",
			       t->dev->name, eq->eqn, ret, eq->ci);
	} else if (strcmp(res->op, "arm") == 0) {
		ret = mlx5v_devx_eq_arm(eq);
		if (ret < 0)
			printf("mlx5v: %s: EQ %u: arm failed: %s\n", t->dev->name, eq->eqn,
				strerror(-ret));
		else
			printf("mlx5v: %s: EQ %u armed at consumer index %u\n", t->dev->name,
			       eq->eqn, eq->ci);
	} else {
		ret = mlx5v_devx_eq_destroy(eq);
		if (ret < 0)
			printf("mlx5v: %s: EQ %u: destroy failed: %s\n", t->dev->name,
				res->eqn, strerror(-ret));
		else
			printf("mlx5v: %s: EQ %u destroyed\n", t->dev->name, res->eqn);
	}
}

TP_CMD(tp_eq_op)

static cmdline_parse_token_string_t tp_eq_op_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_eq_op_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_eq_op_eq =
	TOKEN_STRING_INITIALIZER(struct tp_eq_op_result, eq, "eq");
static cmdline_parse_token_string_t tp_eq_op_op =
	TOKEN_STRING_INITIALIZER(struct tp_eq_op_result, op, "destroy#show#poll#arm");
static cmdline_parse_token_string_t tp_eq_op_name =
	TOKEN_STRING_INITIALIZER(struct tp_eq_op_result, name, NULL);
static cmdline_parse_token_num_t tp_eq_op_eqn =
	TOKEN_NUM_INITIALIZER(struct tp_eq_op_result, eqn, RTE_UINT32);

static cmdline_parse_inst_t tp_eq_op = {
	.f = tp_eq_op_parsed,
	.data = NULL,
	.help_str = "mlx5v eq destroy|show|poll|arm <dev> <eqn>",
	.tokens = {
		(void *)&tp_eq_op_mlx5v,
		(void *)&tp_eq_op_eq,
		(void *)&tp_eq_op_op,
		(void *)&tp_eq_op_name,
		(void *)&tp_eq_op_eqn,
		NULL,
	},
};

/* ---- mlx5v eq list <name> ---- */

struct tp_eq_list_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t eq;
	cmdline_fixed_string_t list;
	cmdline_fixed_string_t name;
};

static void
tp_eq_list_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_eq_list_result *res = parsed_result;
	struct mlx5v_devx_eq *eqs[64];
	struct tp_dev *t = tp_dev_get(res->name);
	int n, i;

	if (t == NULL)
		return;
	n = mlx5v_devx_eq_list(t->dev, eqs, RTE_DIM(eqs));
	printf("mlx5v: %s: %d DEVX EQ(s)\n", t->dev->name, n);
	for (i = 0; i < RTE_MIN(n, (int)RTE_DIM(eqs)); i++)
		printf("mlx5v: %s: EQ %u: %u entries, vector %u, mask 0x%" PRIx64
		       ", consumer index %u, pending %u\n", t->dev->name, eqs[i]->eqn,
		       eqs[i]->ring.nent, eqs[i]->vector, eqs[i]->mask[0], eqs[i]->ci,
		       mlx5v_devx_eq_pending(eqs[i]));
}

TP_CMD(tp_eq_list)

static cmdline_parse_token_string_t tp_eq_list_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_eq_list_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_eq_list_eq =
	TOKEN_STRING_INITIALIZER(struct tp_eq_list_result, eq, "eq");
static cmdline_parse_token_string_t tp_eq_list_list =
	TOKEN_STRING_INITIALIZER(struct tp_eq_list_result, list, "list");
static cmdline_parse_token_string_t tp_eq_list_name =
	TOKEN_STRING_INITIALIZER(struct tp_eq_list_result, name, NULL);

static cmdline_parse_inst_t tp_eq_list = {
	.f = tp_eq_list_parsed,
	.data = NULL,
	.help_str = "mlx5v eq list <dev>",
	.tokens = {
		(void *)&tp_eq_list_mlx5v,
		(void *)&tp_eq_list_eq,
		(void *)&tp_eq_list_list,
		(void *)&tp_eq_list_name,
		NULL,
	},
};

/* ---- mlx5v eq intr <name> <eqn> on|off ---- */

struct tp_eq_intr_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t eq;
	cmdline_fixed_string_t intr;
	cmdline_fixed_string_t name;
	uint32_t eqn;
	cmdline_fixed_string_t onoff;
};

static void
tp_eq_intr_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_eq_intr_result *res = parsed_result;
	struct tp_dev *t = tp_dev_get(res->name);
	struct mlx5v_devx_eq *eq;
	int on, ret;

	if (t == NULL)
		return;
	eq = tp_eq_get(t, res->eqn);
	if (eq == NULL)
		return;
	on = strcmp(res->onoff, "on") == 0;
	ret = on ? mlx5v_devx_eq_intr_start(eq) : mlx5v_devx_eq_intr_stop(eq);
	if (ret < 0)
		printf("mlx5v: %s: EQ %u: interrupt callback %s failed: %s\n",
			t->dev->name, eq->eqn, on ? "start" : "stop",
			ret == -EEXIST ? "already on" : ret == -ENOENT ? "already off" :
			strerror(-ret));
	else
		printf("mlx5v: %s: EQ %u: EAL interrupt callback on vector %u %s\n",
		       t->dev->name, eq->eqn, eq->vector, on ? "on" : "off");
}

TP_CMD(tp_eq_intr)

static cmdline_parse_token_string_t tp_eq_intr_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_eq_intr_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_eq_intr_eq =
	TOKEN_STRING_INITIALIZER(struct tp_eq_intr_result, eq, "eq");
static cmdline_parse_token_string_t tp_eq_intr_intr =
	TOKEN_STRING_INITIALIZER(struct tp_eq_intr_result, intr, "intr");
static cmdline_parse_token_string_t tp_eq_intr_name =
	TOKEN_STRING_INITIALIZER(struct tp_eq_intr_result, name, NULL);
static cmdline_parse_token_num_t tp_eq_intr_eqn =
	TOKEN_NUM_INITIALIZER(struct tp_eq_intr_result, eqn, RTE_UINT32);
static cmdline_parse_token_string_t tp_eq_intr_onoff =
	TOKEN_STRING_INITIALIZER(struct tp_eq_intr_result, onoff, "on#off");

static cmdline_parse_inst_t tp_eq_intr = {
	.f = tp_eq_intr_parsed,
	.data = NULL,
	.help_str = "mlx5v eq intr <dev> <eqn> on|off",
	.tokens = {
		(void *)&tp_eq_intr_mlx5v,
		(void *)&tp_eq_intr_eq,
		(void *)&tp_eq_intr_intr,
		(void *)&tp_eq_intr_name,
		(void *)&tp_eq_intr_eqn,
		(void *)&tp_eq_intr_onoff,
		NULL,
	},
};

/* ---- mlx5v eq gen <name> <eqn> <type> <sub_type> (GEN_EQE, general command) ---- */

struct tp_eq_gen_result {
	cmdline_fixed_string_t mlx5v;
	cmdline_fixed_string_t eq;
	cmdline_fixed_string_t gen;
	cmdline_fixed_string_t name;
	uint32_t eqn;
	uint32_t type;
	uint32_t sub_type;
};

static void
tp_eq_gen_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_eq_gen_result *res = parsed_result;
	uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE];
	struct tp_dev *t = tp_dev_get(res->name);
	uint8_t *eqe = in + RTE_PMD_MLX5V_GEN_EQE_IN_EQE;
	int ret;

	if (t == NULL || mlxv_tp_event_check(res->type, res->sub_type) < 0)
		return;
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_GEN_EQE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, res->eqn);
	eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF] = res->type;
	eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF] = res->sub_type;
	if (res->type == RTE_PMD_MLX5V_EVENT_PORT_CHANGE)
		eqe[RTE_PMD_MLX5V_EQE_PORT_OFF] = 1 << 4;
	ret = mlx5v_devx_general_cmd(t->dev, in, sizeof(in), out, sizeof(out));
	if (ret == -EREMOTEIO)
		printf("mlx5v: %s: GEN_EQE on EQ %u failed in the device: status 0x%x "
			"syndrome 0x%08x\n", t->dev->name, res->eqn,
			RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
			RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
	else if (ret < 0)
		printf("mlx5v: %s: GEN_EQE failed: %s\n", t->dev->name, strerror(-ret));
	else
		printf("mlx5v: %s: EQ %u: device wrote an EQE of type 0x%02x sub_type 0x%02x\n",
		       t->dev->name, res->eqn, res->type, res->sub_type);
}

TP_CMD(tp_eq_gen)

static cmdline_parse_token_string_t tp_eq_gen_mlx5v =
	TOKEN_STRING_INITIALIZER(struct tp_eq_gen_result, mlx5v, "mlx5v");
static cmdline_parse_token_string_t tp_eq_gen_eq =
	TOKEN_STRING_INITIALIZER(struct tp_eq_gen_result, eq, "eq");
static cmdline_parse_token_string_t tp_eq_gen_gen =
	TOKEN_STRING_INITIALIZER(struct tp_eq_gen_result, gen, "gen");
static cmdline_parse_token_string_t tp_eq_gen_name =
	TOKEN_STRING_INITIALIZER(struct tp_eq_gen_result, name, NULL);
static cmdline_parse_token_num_t tp_eq_gen_eqn =
	TOKEN_NUM_INITIALIZER(struct tp_eq_gen_result, eqn, RTE_UINT32);
static cmdline_parse_token_num_t tp_eq_gen_type =
	TOKEN_NUM_INITIALIZER(struct tp_eq_gen_result, type, RTE_UINT32);
static cmdline_parse_token_num_t tp_eq_gen_sub =
	TOKEN_NUM_INITIALIZER(struct tp_eq_gen_result, sub_type, RTE_UINT32);

static cmdline_parse_inst_t tp_eq_gen = {
	.f = tp_eq_gen_parsed,
	.data = NULL,
	.help_str = "mlx5v eq gen <dev> <eqn> <type> <sub_type>",
	.tokens = {
		(void *)&tp_eq_gen_mlx5v,
		(void *)&tp_eq_gen_eq,
		(void *)&tp_eq_gen_gen,
		(void *)&tp_eq_gen_name,
		(void *)&tp_eq_gen_eqn,
		(void *)&tp_eq_gen_type,
		(void *)&tp_eq_gen_sub,
		NULL,
	},
};

static struct testpmd_driver_commands mlx5v_devx_cmds = {
	.commands = {
		{ &tp_dev_show, "mlx5v dev show (dev)\n"
		  "    Show the mlx5v core state of an EAL device and its per-opcode counters.\n" },
		{ &tp_msi, "mlx5v msi alloc|list (dev)\n"
		  "    Allocate the lowest free MSI vector (>= 1), or list testpmd's vectors.\n" },
		{ &tp_msi_free, "mlx5v msi free (dev) (vector)\n"
		  "    Free an MSI vector (EBUSY while an EQ uses it).\n" },
		{ &tp_eq_create, "mlx5v eq create (dev) (log_size) (event_mask_hex) (vector)\n"
		  "    Create a DEVX EQ of 2^log_size entries on an allocated vector; arm it.\n" },
		{ &tp_eq_op, "mlx5v eq destroy|show|poll|arm (dev) (eqn)\n"
		  "    Destroy an EQ; show its state, consumer index and pending EQEs; consume\n"
		  "    and print its EQEs, then arm; or arm it.\n" },
		{ &tp_eq_list, "mlx5v eq list (dev)\n"
		  "    List the DEVX EQs of a device.\n" },
		{ &tp_eq_intr, "mlx5v eq intr (dev) (eqn) on|off\n"
		  "    Consume an EQ from an EAL interrupt callback on its vector.\n" },
		{ &tp_eq_gen, "mlx5v eq gen (dev) (eqn) (type) (sub_type)\n"
		  "    GEN_EQE through the general command: the device writes an EQE.\n" },
		{ NULL, NULL },
	},
};
TESTPMD_ADD_DRIVER_COMMANDS(mlx5v_devx_cmds)
