/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * testpmd commands "mlx5v ...": device state, MSI vectors, DEVX EQs, and CQs bound to
 * them (built with CREATE_CQ through the general command). Through exported
 * functions only: the public API (rte_pmd_mlx5v.h) and, where it has no call, the core's
 * internal API for tools (mlx5v_api.h); devtools/check-testpmd-api.sh keeps it so.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_string_fns.h>

#include "testpmd.h"

#include "mlxv_testpmd.h"
#include "mlx5v_api.h"
#include "rte_pmd_mlx5v.h"

/* Set by the simulator's command file when it is built in: more lines for "mlx5v dev show". */
void (*mlx5v_tp_dev_show_ext)(const char *name);

/*
 * What testpmd allocated per device through the public API: its UAR (for the EQs it
 * creates) and the MSI vectors, so "mlx5v msi free <dev> <vector>" finds the object by
 * number. dev is the core device, pdev the public handle of the same device.
 */
#define TP_MAX_DEVS 8
#define TP_MAX_VEC 64
#define TP_MAX_CQ 8
#define TP_CQ_MAX_LOG 6         /* 64 CQEs: the ring is one 4 KiB page, one PAS */
#define TP_CQ_RING 4096u        /* the ring, then the doorbell record on its own page */

TP_NUM_FAMILY("mlx5v");

/*
 * A CQ testpmd created with CREATE_CQ (raw command) on one of its EQs: its completions
 * are the EQ events every device raises (doc/guides/nics/running_on_hardware.rst).
 * events counts the completion EQEs the EQ handler saw: the sequence number of the next
 * arm (prm/mlx5 §7.3). Records are never freed, so the handler may count into one that
 * "mlx5v cq destroy" just released.
 */
struct tp_cq {
	uint8_t *buf;
	uint64_t iova;
	uint32_t cqn;           /* valid while buf != NULL */
	uint32_t nent;
	uint32_t ci;
	uint32_t events;
};

struct tp_dev {
	struct mlx5v_dev *dev;
	struct rte_pmd_mlx5v_dev *pdev;
	char name[RTE_DEV_NAME_MAX_LEN];
	struct rte_pmd_mlx5v_uar *uar;
	struct rte_pmd_mlx5v_msi_vector *msi[TP_MAX_VEC];
	struct tp_cq cq[TP_MAX_CQ];
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

	if (t->uar != NULL && mlx5v_devx_to_uar(t->uar) == NULL) {
		t->uar = NULL;
		/* The CQs (on that UAR) and their DMA windows went with the device. */
		for (v = 0; v < TP_MAX_CQ; v++) {
			rte_free(t->cq[v].buf);
			t->cq[v].buf = NULL;
		}
	}
	for (v = 0; v < TP_MAX_VEC; v++)
		if (t->msi[v] != NULL && mlx5v_devx_to_msi(t->msi[v]) == NULL)
			t->msi[v] = NULL;
}

/* @return testpmd's record of the loaded device name, or NULL after printing why. */
static struct tp_dev *
tp_dev_get(const char *name)
{
	struct mlx5v_dev *dev = mlx5v_devx_dev_get(name);
	struct rte_pmd_mlx5v_dev *pdev = rte_pmd_mlx5v_dev_get(name);
	struct tp_dev *free_slot = NULL;
	unsigned int i;

	if (dev == NULL || pdev == NULL) {
		printf("mlx5v: no loaded mlx5v device named \"%s\"\n", name);
		return NULL;
	}
	for (i = 0; i < TP_MAX_DEVS; i++) {
		if (tp_devs[i].dev == dev) {
			/* The address may be a new device's: refresh what goes by name. */
			tp_devs[i].pdev = pdev;
			strlcpy(tp_devs[i].name, name, sizeof(tp_devs[i].name));
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
	free_slot->pdev = pdev;
	strlcpy(free_slot->name, name, sizeof(free_slot->name));
	return free_slot;
}

static struct rte_pmd_mlx5v_uar *
tp_uar(struct tp_dev *t)
{
	if (t->uar == NULL) {
		t->uar = rte_pmd_mlx5v_devx_alloc_uar(t->pdev);
		if (t->uar == NULL)
			printf("mlx5v: %s: cannot allocate a UAR: %s\n", t->name,
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
			t->name, eqn, t->name);
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

/*
 * One line per EQE, with the fields of the known event types (prm/mlx5 §6.6). The EAL
 * interrupt thread prints it while a command may print on the lcore: one printf() for the
 * whole line, which stdio writes under its lock, so the two never interleave inside a line.
 */
static void
tp_print_eqe(const char *dev, uint32_t eqn, uint32_t ci, const uint8_t *eqe)
{
	uint8_t type = eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF];
	uint8_t sub = eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF];
	char fields[64] = "";

	switch (type) {
	case RTE_PMD_MLX5V_EVENT_COMP:
		snprintf(fields, sizeof(fields), " cqn %u",
			 rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_COMP_CQN_OFF, 0, 23, 0));
		break;
	case RTE_PMD_MLX5V_EVENT_CQ_ERROR:
		snprintf(fields, sizeof(fields), " cqn %u syndrome 0x%x",
			 rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_CQ_ERR_CQN_OFF, 0, 23, 0),
			 eqe[RTE_PMD_MLX5V_EQE_CQ_ERR_SYNDROME_OFF]);
		break;
	case RTE_PMD_MLX5V_EVENT_PORT_CHANGE:
		snprintf(fields, sizeof(fields), " port %u %s",
			 eqe[RTE_PMD_MLX5V_EQE_PORT_OFF] >> 4,
			 sub == RTE_PMD_MLX5V_PORT_CHANGE_DOWN ? "DOWN" :
			 sub == RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE ? "ACTIVE" : "");
		break;
	default:
		break;
	}
	printf("mlx5v: %s EQ %u: EQE %u type 0x%02x %s sub_type 0x%02x%s\n", dev, eqn, ci, type,
	       tp_event_name(type), sub, fields);
}

/*
 * Handler of testpmd's EQs: prints from the lcore polling or the EAL interrupt thread.
 * The latter runs outside any command: flush so the EQE shows when it arrives.
 */
static void
tp_eq_event(struct mlx5v_dev *dev, uint32_t eqn, const uint8_t *eqe, void *arg)
{
	struct mlx5v_devx_eq_info ei;
	struct mlx5v_dev_info di;
	unsigned int i, c;
	uint32_t cqn;

	/* Both only fail while the EQ or its device is being destroyed: nothing to say. */
	if (mlx5v_dev_info_get(dev, &di) < 0 || mlx5v_devx_eq_info_get(arg, &ei) < 0)
		return;
	/*
	 * A completion event of one of testpmd's CQs: the next arm carries sn + 1. Counted
	 * before the EQE is printed: a command issued after the line shows sees the count.
	 */
	if (eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF] == RTE_PMD_MLX5V_EVENT_COMP) {
		cqn = rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_COMP_CQN_OFF, 0, 23, 0);
		for (i = 0; i < TP_MAX_DEVS; i++)
			for (c = 0; tp_devs[i].dev == dev && c < TP_MAX_CQ; c++)
				if (__atomic_load_n(&tp_devs[i].cq[c].buf,
						    __ATOMIC_ACQUIRE) != NULL &&
				    tp_devs[i].cq[c].cqn == cqn)
					__atomic_fetch_add(&tp_devs[i].cq[c].events, 1,
							   __ATOMIC_RELEASE);
	}
	tp_print_eqe(di.name, eqn, ei.ci, eqe);
	fflush(stdout);
}

/* ---- mlx5v dev show <name> ---- */

static void
tp_dev_show_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	struct mlx5v_cmd_stats st;
	struct mlx5v_cmd_info ci;
	struct mlx5v_dev_info di;
	struct mlx5v_msi_info mi;
	struct tp_dev *t = tp_dev_get(name);
	struct mlx5v_dev *dev;
	unsigned int v, op;

	if (t == NULL)
		return;
	dev = t->dev;
	if (mlx5v_dev_info_get(dev, &di) < 0)
		return;
	printf("mlx5v: %s: stage %d%s, firmware %u.%u, function %u, UAR %u, socket %d\n",
	       di.name, di.stage, di.dead ? " DEAD" : "", di.fw_major, di.fw_minor,
	       di.function_id, di.uar, di.socket);
	printf("mlx5v: %s: async EQ %d on vector 0, firmware pages %" PRIu64 "\n", di.name,
	       di.async_eqn, di.pages_given);
	printf("mlx5v: %s: MSI-X vectors %u, allocated:", di.name, di.msi_count);
	for (v = 1; v < di.msi_count; v++)
		if (mlx5v_msi_info_get(dev, v, &mi) == 0 && mi.fd >= 0)
			printf(" %u(fd %d, %u EQ)", v, mi.fd, mi.eq_refs);
	printf("\n");
	if (mlx5v_cmd_info_get(dev, &ci) == 0)
		printf("mlx5v: %s: command queue %u slots (page slot %u), %s mode, busy 0x%08x, "
		       "timed out 0x%08x, late %" PRIu64 ", recoveries %" PRIu64 ", polled %"
		       PRIu64 " (events absorbed %" PRIu64 ")\n", di.name,
		       ci.nslots, ci.page_slot, ci.events ? "event" : "polling", ci.busy_mask,
		       ci.timedout_mask, ci.late_completions, ci.eq_recoveries, ci.polled,
		       ci.polled_eqes);
	if (ci.async_posted != 0)
		printf("mlx5v: %s: asynchronous commands %" PRIu64 ", failed %" PRIu64
		       ", pending %u\n", di.name, ci.async_posted, ci.async_failed,
		       ci.async_pending);
	if (mlx5v_tp_dev_show_ext != NULL)
		mlx5v_tp_dev_show_ext(di.name);
	printf("mlx5v: %s: %-26s %10s %8s %8s %12s\n", di.name, "opcode", "count", "errors",
	       "timeouts", "avg ns");
	for (op = 0; op < MLX5V_CMD_STATS_OPCODES; op++) {
		if (mlx5v_cmd_stats_get(dev, op, &st) != 0 || st.n == 0)
			continue;
		printf("mlx5v: %s: %-20s 0x%03x %10" PRIu64 " %8" PRIu64 " %8" PRIu64 " %12"
		       PRIu64 "\n", di.name, mlx5v_cmd_opcode_name(op), op, st.n, st.errors,
		       st.timeouts, st.ns_total / st.n);
	}
}

TP_CMD(tp_dev_show)

TP_NUM_CMD(tp_dev_show, tp_dev_show_parsed, "dev", "show", NULL,
	   "mlx5v dev show <dev>", (void *)&tp_num_any);

/* ---- mlx5v msi alloc|list <name> ---- */

static void
tp_msi_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *op = res->kw[2];
	const char *name = res->type;
	struct tp_dev *t = tp_dev_get(name);
	struct rte_pmd_mlx5v_msi_vector *m;
	struct mlx5v_msi_info mi;
	unsigned int v, n = 0;

	if (t == NULL)
		return;
	if (strcmp(op, "alloc") == 0) {
		m = rte_pmd_mlx5v_devx_alloc_msi_vector(t->pdev);
		if (m == NULL) {
			printf("mlx5v: %s: MSI vector allocation failed: %s\n",
				t->name, rte_strerror(rte_errno));
			return;
		}
		if (m->vector >= TP_MAX_VEC) {
			printf("mlx5v: vector %u beyond what testpmd tracks\n",
			       (unsigned int)m->vector);
			rte_pmd_mlx5v_devx_free_msi_vector(m);
			return;
		}
		t->msi[m->vector] = m;
		printf("mlx5v: %s: MSI vector %d allocated, fd %d\n", t->name, m->vector, m->fd);
		return;
	}
	printf("mlx5v: %s: MSI vectors (testpmd's):", t->name);
	for (v = 0; v < TP_MAX_VEC; v++) {
		if (t->msi[v] == NULL)
			continue;
		if (mlx5v_msi_info_get(t->dev, v, &mi) < 0)
			mi.eq_refs = 0;
		printf(" %u(fd %d, %u EQ)", v, t->msi[v]->fd, mi.eq_refs);
		n++;
	}
	printf("%s\n", n == 0 ? " none" : "");
}

TP_CMD(tp_msi)

TP_NUM_CMD(tp_msi, tp_msi_parsed, "msi", "alloc#list", NULL,
	   "mlx5v msi alloc|list <dev>", (void *)&tp_num_any);

/* ---- mlx5v msi free <name> <vector> ---- */

static void
tp_msi_free_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	uint32_t vector = res->num[0];
	struct tp_dev *t = tp_dev_get(name);
	int ret;

	if (t == NULL)
		return;
	if (vector >= TP_MAX_VEC || t->msi[vector] == NULL) {
		printf("mlx5v: %s: MSI vector %u was not allocated by testpmd "
			"(see \"mlx5v msi list %s\")\n", t->name, vector, t->name);
		return;
	}
	ret = rte_pmd_mlx5v_devx_free_msi_vector(t->msi[vector]);
	if (ret != 0) {
		printf("mlx5v: %s: cannot free MSI vector %u: %s%s\n", t->name,
			vector, strerror(ret),
			ret == EBUSY ? " (an EQ uses it; destroy the EQ first)" : "");
		return;
	}
	t->msi[vector] = NULL;
	printf("mlx5v: %s: MSI vector %u freed\n", t->name, vector);
}

TP_CMD(tp_msi_free)

TP_NUM_CMD(tp_msi_free, tp_msi_free_parsed, "msi", "free", NULL,
	   "mlx5v msi free <dev> <vector>", (void *)&tp_num_any, (void *)&tp_num_0);

/* ---- mlx5v eq create <name> <log_size> <event_mask_hex> <vector> ---- */

static void
tp_eq_create_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	uint32_t log_size = res->num[0];
	const char *mask_hex = res->type2;
	uint32_t vector = res->num[1];
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct tp_dev *t = tp_dev_get(name);
	struct rte_pmd_mlx5v_uar *uar;
	struct rte_pmd_mlx5v_eq *peq;
	struct mlx5v_devx_eq_info ei;
	struct mlx5v_dev_info di;
	struct mlx5v_devx_eq *eq;
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;
	uint32_t max_log = 0;
	uint64_t mask;
	char *end;

	if (t == NULL)
		return;
	errno = 0;
	mask = strtoull(mask_hex, &end, 16);
	if (errno != 0 || end == mask_hex || *end != '\0') {
		printf("mlx5v: event mask \"%s\" is not a hexadecimal number "
			"(bit t = event type t, e.g. 0x210 for CQ_ERROR | PORT_CHANGE)\n",
			mask_hex);
		return;
	}
	if (mlx5v_dev_info_get(t->dev, &di) == 0)
		max_log = di.log_max_eq_sz;
	if (log_size < 1 || log_size > 31 || (max_log != 0 && log_size > max_log)) {
		printf("mlx5v: log_size %u out of range 1..%u\n", log_size,
			max_log != 0 ? max_log : 31);
		return;
	}
	if (vector == 0 || vector >= TP_MAX_VEC || t->msi[vector] == NULL) {
		printf("mlx5v: vector %u is not an allocated MSI vector "
			"(vector 0 is the driver's; use \"mlx5v msi alloc %s\")\n", vector,
			t->name);
		return;
	}
	uar = tp_uar(t);
	if (uar == NULL)
		return;
	/* A caller-built create_eq_in: the driver fills log_page_size and the PAS. */
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, log_size);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, uar->page_id);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, vector);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK, mask);
	memset(out, 0, sizeof(out));
	peq = rte_pmd_mlx5v_devx_create_eq(t->pdev, in, sizeof(in), out, sizeof(out));
	if (peq == NULL) {
		if (rte_errno == EREMOTEIO)
			printf("mlx5v: %s: CREATE_EQ failed in the device: status 0x%x "
				"syndrome 0x%08x\n", t->name,
				RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
				RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
		else
			printf("mlx5v: %s: EQ creation failed: %s\n", t->name,
				rte_strerror(rte_errno));
		return;
	}
	eq = mlx5v_devx_to_eq(peq);
	mlx5v_devx_eq_handler_set(eq, MLX5V_DEVX_EVENT_ANY, tp_eq_event, eq);
	/* A new EQ is not armed (prm/mlx5 §6.11); arm it so the first EQE interrupts. */
	mlx5v_devx_eq_arm(eq);
	if (mlx5v_devx_eq_info_get(eq, &ei) < 0) {
		printf("mlx5v: %s: the new EQ is gone\n", t->name);
		return;
	}
	printf("mlx5v: %s: EQ %u created: %u entries, vector %u, mask 0x%" PRIx64
	       ", UAR %u, ring %p (%zu bytes, IOVA 0x%" PRIx64 ")\n", t->name, ei.eqn,
	       ei.nent, ei.vector, mask, ei.uar_page, ei.vaddr, ei.size, ei.iova);
}

TP_CMD(tp_eq_create)

TP_NUM_CMD(tp_eq_create, tp_eq_create_parsed, "eq", "create", NULL,
	   "mlx5v eq create <dev> <log_size> <event_mask_hex> <vector>",
	   (void *)&tp_num_any, (void *)&tp_num_0, (void *)&tp_num_any2, (void *)&tp_num_1);

/* ---- mlx5v eq destroy|show|poll|arm <name> <eqn> ---- */

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
	struct mlx5v_devx_eq_info ei;
	int ret;

	/* Validates eq (it may have been destroyed since it was looked up). */
	if (mlx5v_devx_eq_stats_get(eq, &st) < 0 || mlx5v_devx_eq_info_get(eq, &ei) < 0) {
		printf("mlx5v: %s: the EQ is gone\n", t->name);
		return;
	}
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_EQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, ei.eqn);
	ret = rte_pmd_mlx5v_devx_general_cmd(t->pdev, in, sizeof(in), out, sizeof(out));
	if (ret != 0) {
		printf("mlx5v: %s: QUERY_EQ %u failed: %s\n", t->name, ei.eqn, strerror(ret));
		return;
	}
	printf("mlx5v: %s: EQ %u: state %s, status 0x%x, %u entries, vector %u, UAR %u, "
	       "interrupt callback %s\n", t->name, ei.eqn,
	       tp_eq_st_name(RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_ST)),
	       RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_STATUS), ei.nent, ei.vector,
	       ei.uar_page, ei.intr ? "on" : "off");
	printf("mlx5v: %s: EQ %u: consumer index %u (device %u), producer %u, pending EQEs %u\n",
	       t->name, ei.eqn, ei.ci,
	       RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER),
	       RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_PRODUCER_COUNTER),
	       mlx5v_devx_eq_pending(eq));
	printf("mlx5v: %s: EQ %u: event mask 0x%" PRIx64 ", log_page_size %u, PAS 0x%" PRIx64
	       ", ring %p\n", t->name, ei.eqn,
	       RTE_PMD_MLX5V_GET64(out, RTE_PMD_MLX5V_QUERY_EQ_OUT_EVENT_BITMASK),
	       RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_LOG_PAGE_SIZE),
	       RTE_PMD_MLX5V_GET64(out, RTE_PMD_MLX5V_QUERY_EQ_OUT_PAS), ei.vaddr);
	printf("mlx5v: %s: EQ %u: consumed %" PRIu64 ", polls %" PRIu64 ", CI updates %" PRIu64
	       ", arms %" PRIu64 ", interrupts %" PRIu64 "\n", t->name, ei.eqn, st.eqes,
	       st.polls, st.ci_updates, st.arms, st.intrs);
}

static void
tp_eq_op_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *op = res->kw[2];
	const char *name = res->type;
	uint32_t eqn = res->num[0];
	struct tp_dev *t = tp_dev_get(name);
	struct mlx5v_devx_eq_info ei;
	struct mlx5v_devx_eq *eq;
	int ret;

	if (t == NULL)
		return;
	eq = tp_eq_get(t, eqn);
	if (eq == NULL)
		return;
	memset(&ei, 0, sizeof(ei));
	if (strcmp(op, "show") == 0) {
		tp_eq_show(t, eq);
	} else if (strcmp(op, "poll") == 0) {
		if (mlx5v_devx_eq_info_get(eq, &ei) == 0 && ei.intr) {
			printf("mlx5v: %s: EQ %u is consumed by its interrupt callback "
				"(\"mlx5v eq intr %s %u off\" first)\n", t->name, eqn,
				t->name, eqn);
			return;
		}
		ret = mlx5v_devx_eq_poll(eq);
		if (ret < 0)
			printf("mlx5v: %s: EQ %u: poll failed: %s\n", t->name,
				eqn, strerror(-ret));
		else if (mlx5v_devx_eq_info_get(eq, &ei) == 0)
			printf("mlx5v: %s: EQ %u: %d EQE(s) consumed, consumer index %u, armed\n",
			       t->name, eqn, ret, ei.ci);
	} else if (strcmp(op, "arm") == 0) {
		ret = mlx5v_devx_eq_arm(eq);
		if (ret < 0)
			printf("mlx5v: %s: EQ %u: arm failed: %s\n", t->name, eqn,
				strerror(-ret));
		else if (mlx5v_devx_eq_info_get(eq, &ei) == 0)
			printf("mlx5v: %s: EQ %u armed at consumer index %u\n", t->name,
			       eqn, ei.ci);
	} else {
		ret = mlx5v_devx_eq_destroy(eq);
		if (ret < 0)
			printf("mlx5v: %s: EQ %u: destroy failed: %s\n", t->name,
				eqn, strerror(-ret));
		else
			printf("mlx5v: %s: EQ %u destroyed\n", t->name, eqn);
	}
}

TP_CMD(tp_eq_op)

TP_NUM_CMD(tp_eq_op, tp_eq_op_parsed, "eq", "destroy#show#poll#arm", NULL,
	   "mlx5v eq destroy|show|poll|arm <dev> <eqn>", (void *)&tp_num_any, (void *)&tp_num_0);

/* ---- mlx5v eq list <name> ---- */

static void
tp_eq_list_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	struct mlx5v_devx_eq *eqs[64];
	struct tp_dev *t = tp_dev_get(name);
	struct mlx5v_devx_eq_info ei;
	int n, i;

	if (t == NULL)
		return;
	n = mlx5v_devx_eq_list(t->dev, eqs, RTE_DIM(eqs));
	printf("mlx5v: %s: %d DEVX EQ(s)\n", t->name, n);
	for (i = 0; i < RTE_MIN(n, (int)RTE_DIM(eqs)); i++) {
		/* An EQ destroyed since the listing is skipped. */
		if (mlx5v_devx_eq_info_get(eqs[i], &ei) < 0)
			continue;
		printf("mlx5v: %s: EQ %u: %u entries, vector %u, mask 0x%" PRIx64
		       ", consumer index %u, pending %u\n", t->name, ei.eqn, ei.nent,
		       ei.vector, ei.mask[0], ei.ci, mlx5v_devx_eq_pending(eqs[i]));
	}
}

TP_CMD(tp_eq_list)

TP_NUM_CMD(tp_eq_list, tp_eq_list_parsed, "eq", "list", NULL,
	   "mlx5v eq list <dev>", (void *)&tp_num_any);

/* ---- mlx5v eq intr <name> <eqn> on|off ---- */

static void
tp_eq_intr_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	uint32_t eqn = res->num[0];
	const char *onoff = res->kw[3];
	struct tp_dev *t = tp_dev_get(name);
	struct mlx5v_devx_eq_info ei;
	struct mlx5v_devx_eq *eq;
	int on, ret;

	if (t == NULL)
		return;
	eq = tp_eq_get(t, eqn);
	if (eq == NULL)
		return;
	on = strcmp(onoff, "on") == 0;
	ret = on ? mlx5v_devx_eq_intr_start(eq) : mlx5v_devx_eq_intr_stop(eq);
	if (ret < 0)
		printf("mlx5v: %s: EQ %u: interrupt callback %s failed: %s\n",
			t->name, eqn, on ? "start" : "stop",
			ret == -EEXIST ? "already on" : ret == -ENOENT ? "already off" :
			strerror(-ret));
	else if (mlx5v_devx_eq_info_get(eq, &ei) == 0)
		printf("mlx5v: %s: EQ %u: EAL interrupt callback on vector %u %s\n",
		       t->name, ei.eqn, ei.vector, on ? "on" : "off");
}

TP_CMD(tp_eq_intr)

static cmdline_parse_token_string_t tp_eq_intr_onoff =
	TOKEN_STRING_INITIALIZER(struct tp_num_result, kw[3], "on#off");
TP_NUM_CMD(tp_eq_intr, tp_eq_intr_parsed, "eq", "intr", NULL,
	   "mlx5v eq intr <dev> <eqn> on|off",
	   (void *)&tp_num_any, (void *)&tp_num_0, (void *)&tp_eq_intr_onoff);

/* ---- mlx5v eq gen <name> <eqn> <type> <sub_type> (GEN_EQE, general command) ---- */

static void
tp_eq_gen_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	uint32_t eqn = res->num[0];
	uint32_t type = res->num[1];
	uint32_t sub_type = res->num[2];
	uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE];
	struct tp_dev *t = tp_dev_get(name);
	uint8_t *eqe = in + RTE_PMD_MLX5V_GEN_EQE_IN_EQE;
	int ret;

	if (t == NULL || mlxv_tp_event_check(type, sub_type) < 0)
		return;
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_GEN_EQE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF] = type;
	eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF] = sub_type;
	if (type == RTE_PMD_MLX5V_EVENT_PORT_CHANGE)
		eqe[RTE_PMD_MLX5V_EQE_PORT_OFF] = 1 << 4;
	ret = rte_pmd_mlx5v_devx_general_cmd(t->pdev, in, sizeof(in), out, sizeof(out));
	if (ret == EREMOTEIO)
		printf("mlx5v: %s: GEN_EQE on EQ %u failed in the device: status 0x%x "
			"syndrome 0x%08x\n", t->name, eqn,
			RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
			RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
	else if (ret != 0)
		printf("mlx5v: %s: GEN_EQE failed: %s\n", t->name, strerror(ret));
	else
		printf("mlx5v: %s: EQ %u: device wrote an EQE of type 0x%02x sub_type 0x%02x\n",
		       t->name, eqn, type, sub_type);
}

TP_CMD(tp_eq_gen)

TP_NUM_CMD(tp_eq_gen, tp_eq_gen_parsed, "eq", "gen", NULL,
	   "mlx5v eq gen <dev> <eqn> <type> <sub_type>",
	   (void *)&tp_num_any, (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2);

/* ---- mlx5v cq create <name> <eqn> <log_size> ---- */

/* @return testpmd's CQ cqn of t, or NULL after printing why. */
static struct tp_cq *
tp_cq_get(struct tp_dev *t, uint32_t cqn)
{
	unsigned int c;

	for (c = 0; c < TP_MAX_CQ; c++)
		if (t->cq[c].buf != NULL && t->cq[c].cqn == cqn)
			return &t->cq[c];
	printf("mlx5v: %s: no CQ %u of testpmd's (\"mlx5v cq create\" makes one)\n", t->name,
	       cqn);
	return NULL;
}

/*
 * Request the next completion event: doorbell record, then the UAR doorbell (prm/mlx5 §7.3). The
 * device takes the doorbell asynchronously: with no CQE pending, wait (bounded) until
 * QUERY_CQ reads ARMED, so that a CQE completed after this command raises its event.
 * @return 0, or -1 after printing why.
 */
static int
tp_cq_arm(struct tp_dev *t, struct tp_cq *cq)
{
	uint8_t in[16];
	uint8_t out[RTE_PMD_MLX5V_QUERY_CQ_OUT_SIZE + 8];
	uint32_t sn = __atomic_load_n(&cq->events, __ATOMIC_ACQUIRE);
	unsigned int ms;

	rte_pmd_mlx5v_cq_arm(t->uar, (volatile uint32_t *)(cq->buf + TP_CQ_RING), cq->cqn, sn,
			     cq->ci, 0);
	if (rte_pmd_mlx5v_cq_next_cqe(cq->buf, cq->nent, cq->ci) != NULL) {
		printf("mlx5v: %s: CQ %u armed at consumer index %u, sn %u: CQEs pending, "
		       "the event fires at once\n", t->name, cq->cqn, cq->ci, sn & 3);
		return 0;
	}
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_CQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN, cq->cqn);
	for (ms = 0; ms < 1000; ms++) {
		if (rte_pmd_mlx5v_devx_general_cmd(t->pdev, in, sizeof(in), out,
						   sizeof(out)) != 0) {
			printf("mlx5v: %s: QUERY_CQ %u failed: %s\n", t->name, cq->cqn,
			       rte_strerror(rte_errno));
			return -1;
		}
		if (RTE_PMD_MLX5V_GET(out + RTE_PMD_MLX5V_QUERY_CQ_OUT_CQC,
				      RTE_PMD_MLX5V_CQC_ST) == RTE_PMD_MLX5V_EQC_ST_ARMED) {
			printf("mlx5v: %s: CQ %u armed at consumer index %u, sn %u\n", t->name,
			       cq->cqn, cq->ci, sn & 3);
			return 0;
		}
		rte_delay_us_sleep(1000);
	}
	printf("mlx5v: %s: CQ %u: the device did not take the arm doorbell\n", t->name,
	       cq->cqn);
	return -1;
}

static void
tp_cq_free(struct tp_dev *t, struct tp_cq *cq)
{
	uint8_t *buf = cq->buf;

	__atomic_store_n(&cq->buf, NULL, __ATOMIC_RELEASE);
	rte_pmd_mlx5v_devx_dma_unmap(t->pdev, buf, TP_CQ_RING * 2);
	rte_free(buf);
}

static void
tp_cq_create_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	uint32_t eqn = res->num[0];
	uint32_t log_size = res->num[1];
	uint8_t in[RTE_PMD_MLX5V_CREATE_CQ_IN_SIZE + 8];
	uint8_t out[RTE_PMD_MLX5V_CREATE_CQ_OUT_SIZE];
	uint8_t *cqc = in + RTE_PMD_MLX5V_CREATE_CQ_IN_CQC;
	struct tp_dev *t = tp_dev_get(name);
	struct tp_cq *cq = NULL;
	unsigned int i;
	uint8_t *buf;
	int ret;

	if (t == NULL)
		return;
	if (log_size < 1 || log_size > TP_CQ_MAX_LOG) {
		printf("mlx5v: CQ log_size %u out of range 1..%u\n", log_size,
		       TP_CQ_MAX_LOG);
		return;
	}
	for (i = 0; i < TP_MAX_CQ && cq == NULL; i++)
		if (t->cq[i].buf == NULL)
			cq = &t->cq[i];
	if (cq == NULL) {
		printf("mlx5v: %s: testpmd holds %u CQs already\n", t->name, TP_MAX_CQ);
		return;
	}
	if (tp_uar(t) == NULL)
		return;
	/* Every CQE starts invalid and hardware-owned; the doorbell record follows the ring. */
	buf = rte_zmalloc("mlx5v_tp_cq", TP_CQ_RING * 2, TP_CQ_RING);
	if (buf == NULL) {
		printf("mlx5v: %s: no memory for a CQ\n", t->name);
		return;
	}
	for (i = 0; i < 1u << log_size; i++)
		buf[i * RTE_PMD_MLX5V_CQE_SIZE + RTE_PMD_MLX5V_CQE_OP_OWN_OFF] =
			RTE_PMD_MLX5V_CQE_OP_OWN_INIT;
	ret = rte_pmd_mlx5v_devx_dma_map(t->pdev, buf, TP_CQ_RING * 2, &cq->iova);
	if (ret != 0) {
		printf("mlx5v: %s: cannot map the CQ: %s\n", t->name, strerror(ret));
		rte_free(buf);
		return;
	}
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_CQ);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_LOG_CQ_SIZE, log_size);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_UAR_PAGE, t->uar->page_id);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_C_EQN, eqn);
	RTE_PMD_MLX5V_SET64(cqc, RTE_PMD_MLX5V_CQC_DBR_ADDR, cq->iova + TP_CQ_RING);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_CQ_IN_PAS, cq->iova);
	memset(out, 0, sizeof(out));
	ret = rte_pmd_mlx5v_devx_general_cmd(t->pdev, in, sizeof(in), out, sizeof(out));
	if (ret != 0) {
		if (ret == EREMOTEIO)
			printf("mlx5v: %s: CREATE_CQ on EQ %u failed in the device: status 0x%x "
			       "syndrome 0x%08x\n", t->name, eqn,
			       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
			       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
		else
			printf("mlx5v: %s: CREATE_CQ on EQ %u failed: %s\n", t->name, eqn,
			       strerror(ret));
		rte_pmd_mlx5v_devx_dma_unmap(t->pdev, buf, TP_CQ_RING * 2);
		rte_free(buf);
		return;
	}
	cq->cqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_CQ_OUT_CQN);
	cq->nent = 1u << log_size;
	cq->ci = 0;
	__atomic_store_n(&cq->events, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&cq->buf, buf, __ATOMIC_RELEASE);
	printf("mlx5v: %s: CQ %u created: %u CQEs, EQ %u, UAR %u\n", t->name, cq->cqn,
	       cq->nent, eqn, t->uar->page_id);
	tp_cq_arm(t, cq);
}

TP_CMD(tp_cq_create)

TP_NUM_CMD(tp_cq_create, tp_cq_create_parsed, "cq", "create", NULL,
	   "mlx5v cq create <dev> <eqn> <log_size>",
	   (void *)&tp_num_any, (void *)&tp_num_0, (void *)&tp_num_1);

/* ---- mlx5v cq destroy|poll|arm <name> <cqn> ---- */

static void
tp_cq_op_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *op = res->kw[2];
	const char *name = res->type;
	uint32_t cqn = res->num[0];
	uint8_t in[16];
	uint8_t out[16];
	struct tp_dev *t = tp_dev_get(name);
	unsigned int n = 0;
	struct tp_cq *cq;
	int ret;

	if (t == NULL)
		return;
	cq = tp_cq_get(t, cqn);
	if (cq == NULL)
		return;
	if (strcmp(op, "arm") == 0) {
		tp_cq_arm(t, cq);
	} else if (strcmp(op, "poll") == 0) {
		/* Consume every CQE the device wrote, then tell it (doorbell record dword 0). */
		while (rte_pmd_mlx5v_cq_next_cqe(cq->buf, cq->nent, cq->ci) != NULL) {
			cq->ci++;
			n++;
		}
		((volatile uint32_t *)(cq->buf + TP_CQ_RING))[RTE_PMD_MLX5V_CQ_DBREC_SET_CI] =
			rte_cpu_to_be_32(cq->ci & 0xffffff);
		printf("mlx5v: %s: CQ %u: %u CQE(s) consumed, consumer index %u, %u event(s)\n",
		       t->name, cq->cqn, n, cq->ci,
		       __atomic_load_n(&cq->events, __ATOMIC_ACQUIRE));
	} else {
		memset(in, 0, sizeof(in));
		RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ);
		RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN, cq->cqn);
		ret = rte_pmd_mlx5v_devx_general_cmd(t->pdev, in, sizeof(in), out, sizeof(out));
		if (ret != 0) {
			/* Still alive in the device: keep its memory. */
			printf("mlx5v: %s: CQ %u: destroy failed: %s\n", t->name, cq->cqn,
			       strerror(ret));
			return;
		}
		tp_cq_free(t, cq);
		printf("mlx5v: %s: CQ %u destroyed\n", t->name, cqn);
	}
}

TP_CMD(tp_cq_op)

TP_NUM_CMD(tp_cq_op, tp_cq_op_parsed, "cq", "destroy#poll#arm", NULL,
	   "mlx5v cq destroy|poll|arm <dev> <cqn>", (void *)&tp_num_any, (void *)&tp_num_0);

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
		{ &tp_cq_create, "mlx5v cq create (dev) (eqn) (log_size)\n"
		  "    Create a CQ of 2^log_size CQEs (1..6) bound to an EQ; arm it.\n" },
		{ &tp_cq_op, "mlx5v cq destroy|poll|arm (dev) (cqn)\n"
		  "    Destroy a CQ of testpmd's; consume its CQEs; or request its next\n"
		  "    completion event.\n" },
		{ NULL, NULL },
	},
};
TESTPMD_ADD_DRIVER_COMMANDS(mlx5v_devx_cmds)
