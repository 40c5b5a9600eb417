/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Telemetry of the mlx5v core: /mlx5v/dev/list, /mlx5v/dev/info,<dev> and
 * /mlx5v/eq/list,<dev> (doc/guides/platform/mlx5v.rst, "Telemetry").
 *
 * The callbacks run on the telemetry thread. A device is read only inside
 * mlx5v_devx_dev_call(), which holds its removal off; a command on an unknown or unloaded
 * device returns an error, which telemetry answers as null.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>
#include <rte_telemetry.h>

#include "mlx5v_cmd.h"
#include "mlx5v_dev.h"
#include "mlx5v_devx.h"

/* Device names in a list reply: one telemetry array at most. */
#define MLX5V_TEL_MAX_DEV RTE_TEL_MAX_ARRAY_ENTRIES

static int
mlx5v_tel_dev_list(const char *cmd __rte_unused, const char *params __rte_unused,
		   struct rte_tel_data *d)
{
	char (*names)[RTE_DEV_NAME_MAX_LEN];
	unsigned int i, n;

	n = RTE_MIN(mlx5v_dev_names(NULL, 0), (unsigned int)MLX5V_TEL_MAX_DEV);
	names = calloc(RTE_MAX(n, 1u), sizeof(*names));
	if (names == NULL)
		return -ENOMEM;
	/* A device registered meanwhile is left out; one removed leaves an empty slot. */
	n = RTE_MIN(mlx5v_dev_names(names, n), n);
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	for (i = 0; i < n; i++)
		if (names[i][0] != '\0')
			rte_tel_data_add_array_string(d, names[i]);
	free(names);
	return 0;
}

/* A telemetry dict with its scalar members added by the caller; NULL if out of memory. */
static struct rte_tel_data *
mlx5v_tel_dict(void)
{
	struct rte_tel_data *c = rte_tel_data_alloc();

	if (c != NULL)
		rte_tel_data_start_dict(c);
	return c;
}

/* Add child c (from mlx5v_tel_dict()) to d as name; c is freed if it cannot be added. */
static void
mlx5v_tel_attach(struct rte_tel_data *d, const char *name, struct rte_tel_data *c)
{
	if (c != NULL && rte_tel_data_add_dict_container(d, name, c, 0) != 0)
		rte_tel_data_free(c);
}

/* Per-opcode command counters: {"CREATE_EQ": n, ...}, and the failed ones apart. */
static void
mlx5v_tel_cmd_counters(struct mlx5v_dev *dev, struct rte_tel_data *d)
{
	struct rte_tel_data *cnt = mlx5v_tel_dict();
	struct rte_tel_data *err = mlx5v_tel_dict();
	struct mlx5v_cmd_stats st;
	char key[RTE_TEL_MAX_STRING_LEN];
	unsigned int op;

	if (cnt == NULL || err == NULL) {
		rte_tel_data_free(cnt);
		rte_tel_data_free(err);
		return;
	}
	for (op = 0; op < MLX5V_CMD_STATS_OPCODES; op++) {
		if (mlx5v_cmd_stats_get(dev, op, &st) != 0 || st.n == 0)
			continue;
		/* Unknown opcodes share a name: key them by number. */
		if (strcmp(mlx5v_cmd_opcode_name(op), "UNKNOWN") == 0)
			snprintf(key, sizeof(key), "op_0x%03x", op);
		else
			strlcpy(key, mlx5v_cmd_opcode_name(op), sizeof(key));
		rte_tel_data_add_dict_u64(cnt, key, st.n);
		if (st.errors != 0)
			rte_tel_data_add_dict_u64(err, key, st.errors);
	}
	mlx5v_tel_attach(d, "commands", cnt);
	mlx5v_tel_attach(d, "command_errors", err);
}

static int
mlx5v_tel_dev_info_one(struct mlx5v_dev *dev, void *arg)
{
	struct rte_tel_data *d = arg;
	struct rte_tel_data *c;
	struct mlx5v_cmd_info ci;
	struct mlx5v_eq *async = mlx5v_eq_async(dev);
	char fw[32];
	unsigned int v, nvec = 0;
	int dead = mlx5v_dev_is_dead(dev);

	rte_spinlock_lock(&dev->msi.lock);
	for (v = 1; v < dev->msi.count; v++)
		if (dev->msi.fd[v] >= 0)
			nvec++;
	rte_spinlock_unlock(&dev->msi.lock);
	snprintf(fw, sizeof(fw), "%u.%u", dev->fw_rev & 0xffff, dev->fw_rev >> 16);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", dev->name);
	rte_tel_data_add_dict_string(d, "state", dead ? "dead" : "loaded");
	rte_tel_data_add_dict_string(d, "dead_reason", mlx5v_health_reason_str(dead));
	rte_tel_data_add_dict_int(d, "stage", dev->stage);
	rte_tel_data_add_dict_string(d, "firmware", fw);
	rte_tel_data_add_dict_int(d, "function_id", dev->function_id);
	rte_tel_data_add_dict_int(d, "uar", (int)dev->uar);
	rte_tel_data_add_dict_int(d, "socket", dev->socket);
	rte_tel_data_add_dict_int(d, "async_eqn", async != NULL ? (int)mlx5v_eq_eqn(async) : -1);
	rte_tel_data_add_dict_int(d, "msix_vectors", (int)mlx5v_msi_count(dev));
	rte_tel_data_add_dict_int(d, "msix_allocated", (int)nvec);
	rte_tel_data_add_dict_u64(d, "health_polls",
				  __atomic_load_n(&dev->health.polls, __ATOMIC_RELAXED));
	c = mlx5v_tel_dict();
	if (c != NULL) {
		rte_tel_data_add_dict_u64(c, "given", mlx5v_pages_given(dev));
		rte_tel_data_add_dict_u64(c, "give_cmds",
					  __atomic_load_n(&dev->pages.give_cmds, __ATOMIC_RELAXED));
		rte_tel_data_add_dict_u64(c, "take_cmds",
					  __atomic_load_n(&dev->pages.take_cmds, __ATOMIC_RELAXED));
		rte_tel_data_add_dict_u64(c, "requests",
					  __atomic_load_n(&dev->pages.requests, __ATOMIC_RELAXED));
		rte_tel_data_add_dict_u64(c, "cant_give",
					  __atomic_load_n(&dev->pages.cant_give, __ATOMIC_RELAXED));
		mlx5v_tel_attach(d, "pages", c);
	}
	c = mlx5v_tel_dict();
	if (c != NULL && mlx5v_cmd_info_get(dev, &ci) == 0) {
		rte_tel_data_add_dict_int(c, "slots", (int)ci.nslots);
		rte_tel_data_add_dict_string(c, "mode", ci.events ? "event" : "polling");
		rte_tel_data_add_dict_int(c, "signatures", ci.checksum);
		rte_tel_data_add_dict_u64(c, "busy_mask", ci.busy_mask);
		rte_tel_data_add_dict_u64(c, "timedout_mask", ci.timedout_mask);
		rte_tel_data_add_dict_u64(c, "late_completions", ci.late_completions);
		rte_tel_data_add_dict_u64(c, "eq_recoveries", ci.eq_recoveries);
		rte_tel_data_add_dict_u64(c, "spurious", ci.spurious);
		rte_tel_data_add_dict_u64(c, "polled", ci.polled);
		rte_tel_data_add_dict_u64(c, "polled_eqes", ci.polled_eqes);
		rte_tel_data_add_dict_u64(c, "bad_out_sigs", ci.bad_out_sigs);
		rte_tel_data_add_dict_u64(c, "orphans_destroyed", ci.orphans_destroyed);
		rte_tel_data_add_dict_u64(c, "orphans_left", ci.orphans_left);
		rte_tel_data_add_dict_u64(c, "async_posted", ci.async_posted);
		rte_tel_data_add_dict_u64(c, "async_failed", ci.async_failed);
		mlx5v_tel_attach(d, "cmd_queue", c);
	} else {
		rte_tel_data_free(c);
	}
	mlx5v_tel_cmd_counters(dev, d);
	return 0;
}

/* The commands that take a device name: fn fills d for the pinned device. */
static int
mlx5v_tel_dev_cmd(const char *params, int (*fn)(struct mlx5v_dev *dev, void *arg),
		  struct rte_tel_data *d)
{
	if (params == NULL || params[0] == '\0')
		return -EINVAL;
	return mlx5v_devx_dev_call(params, fn, d);
}

static int
mlx5v_tel_dev_info(const char *cmd __rte_unused, const char *params, struct rte_tel_data *d)
{
	return mlx5v_tel_dev_cmd(params, mlx5v_tel_dev_info_one, d);
}

/* Add one EQ as {"kind", "eqn", ...} under its number. */
static void
mlx5v_tel_eq_add(struct rte_tel_data *d, const char *kind, uint32_t eqn, uint32_t nent,
		 uint32_t vector, const uint64_t *c, unsigned int nc)
{
	static const char *const names[] = {
		"eqes", "polls", "ci_updates", "arms", "unhandled", "intrs",
	};
	struct rte_tel_data *e = mlx5v_tel_dict();
	char key[16];
	unsigned int i;

	if (e == NULL)
		return;
	rte_tel_data_add_dict_string(e, "kind", kind);
	rte_tel_data_add_dict_u64(e, "eqn", eqn);
	rte_tel_data_add_dict_u64(e, "entries", nent);
	rte_tel_data_add_dict_u64(e, "vector", vector);
	for (i = 0; i < RTE_MIN(nc, RTE_DIM(names)); i++)
		rte_tel_data_add_dict_u64(e, names[i], c[i]);
	snprintf(key, sizeof(key), "%u", eqn);
	mlx5v_tel_attach(d, key, e);
}

static int
mlx5v_tel_eq_list_one(struct mlx5v_dev *dev, void *arg)
{
	struct rte_tel_data *d = arg;
	struct mlx5v_eq *async = mlx5v_eq_async(dev);
	struct mlx5v_devx_eq_stats dst;
	struct mlx5v_devx_eq_info info;
	struct mlx5v_devx_eq **eqs;
	struct mlx5v_eq_stats st;
	int i, n;

	rte_tel_data_start_dict(d);
	if (async != NULL) {
		mlx5v_eq_stats_get(async, &st);
		mlx5v_tel_eq_add(d, "async", mlx5v_eq_eqn(async), async->ring.nent, async->vector,
				 (const uint64_t[]){ st.eqes, st.polls, st.ci_updates, st.arms,
						     st.unhandled }, 5);
	}
	n = mlx5v_devx_eq_list(dev, NULL, 0);
	if (n <= 0)
		return n;
	n = RTE_MIN(n, RTE_TEL_MAX_DICT_ENTRIES - 1);
	eqs = calloc(n, sizeof(*eqs));
	if (eqs == NULL)
		return -ENOMEM;
	n = RTE_MIN(mlx5v_devx_eq_list(dev, eqs, n), n);
	/* An EQ destroyed since the list fails its lookups and is left out. */
	for (i = 0; i < n; i++) {
		if (mlx5v_devx_eq_info_get(eqs[i], &info) != 0 ||
		    mlx5v_devx_eq_stats_get(eqs[i], &dst) != 0)
			continue;
		mlx5v_tel_eq_add(d, "devx", info.eqn, info.nent, info.vector,
				 (const uint64_t[]){ dst.eqes, dst.polls, dst.ci_updates, dst.arms,
						     dst.unhandled, dst.intrs }, 6);
	}
	free(eqs);
	return 0;
}

static int
mlx5v_tel_eq_list(const char *cmd __rte_unused, const char *params, struct rte_tel_data *d)
{
	return mlx5v_tel_dev_cmd(params, mlx5v_tel_eq_list_one, d);
}

RTE_INIT(mlx5v_telemetry_init)
{
	rte_telemetry_register_cmd("/mlx5v/dev/list", mlx5v_tel_dev_list,
				   "Names of the mlx5v devices. No parameters");
	rte_telemetry_register_cmd("/mlx5v/dev/info", mlx5v_tel_dev_info,
				   "State, firmware, pages and command counters of a loaded "
				   "mlx5v device. Parameters: device name");
	rte_telemetry_register_cmd("/mlx5v/eq/list", mlx5v_tel_eq_list,
				   "The async EQ and the DEVX EQs of a loaded mlx5v device, with "
				   "their counters. Parameters: device name");
}
