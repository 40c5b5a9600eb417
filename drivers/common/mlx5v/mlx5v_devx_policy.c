/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * What rte_pmd_mlx5v_devx_general_cmd() may do: one table of opcodes, and the objects the
 * caller created through it. The rules are those of doc/guides/nics/mlx5v_devx.rst, "Raw
 * command policy", in the spirit of the kernel's DEVX object ownership.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include "mlx5v_api.h"
#include "mlx5v_devx_policy.h"
#include "mlx5v_ifc.h"
#include "mlx5v_log.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_cmd.h"
#include "mlx5v_prm_eq.h"
#include "mlx5v_prm_eth.h"

/* The bytes of an inbox the policy reads at most (create_sq_in up to its ctx.cqn). */
#define MLX5V_DEVX_POLICY_IN_BYTES 0x100u

/* One object created through the raw path. */
struct mlx5v_devx_raw_obj {
	uint8_t fam;
	uint32_t id;
};

struct mlx5v_devx_raw {
	rte_spinlock_t lock;   /**< never held across a command */
	struct mlx5v_devx_raw_obj *obj;
	unsigned int nb;
	unsigned int cap;
};

struct mlx5v_devx_raw *
mlx5v_devx_raw_create(void)
{
	struct mlx5v_devx_raw *raw = calloc(1, sizeof(*raw));

	if (raw != NULL)
		rte_spinlock_init(&raw->lock);
	return raw;
}

void
mlx5v_devx_raw_destroy(struct mlx5v_devx_raw *raw)
{
	if (raw == NULL)
		return;
	free(raw->obj);
	free(raw);
}

/* Lock held. @return the index of (fam, id), or -1. */
static int
mlx5v_devx_raw_find(const struct mlx5v_devx_raw *raw, unsigned int fam, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < raw->nb; i++)
		if (raw->obj[i].fam == fam && raw->obj[i].id == id)
			return (int)i;
	return -1;
}

static int
mlx5v_devx_raw_owns(struct mlx5v_devx_raw *raw, unsigned int fam, uint32_t id)
{
	int found;

	rte_spinlock_lock(&raw->lock);
	found = mlx5v_devx_raw_find(raw, fam, id) >= 0;
	rte_spinlock_unlock(&raw->lock);
	return found;
}

static int
mlx5v_devx_raw_add(struct mlx5v_devx_raw *raw, unsigned int fam, uint32_t id)
{
	struct mlx5v_devx_raw_obj *o;
	unsigned int cap;
	int ret = 0;

	rte_spinlock_lock(&raw->lock);
	if (raw->nb == raw->cap) {
		cap = raw->cap != 0 ? 2 * raw->cap : 16;
		o = realloc(raw->obj, cap * sizeof(*o));
		if (o == NULL) {
			ret = -ENOMEM;
			goto out;
		}
		raw->obj = o;
		raw->cap = cap;
	}
	raw->obj[raw->nb].fam = fam;
	raw->obj[raw->nb].id = id;
	raw->nb++;
out:
	rte_spinlock_unlock(&raw->lock);
	return ret;
}

/* @return 1 if (fam, id) was tracked and is now removed, else 0. */
static int
mlx5v_devx_raw_take(struct mlx5v_devx_raw *raw, unsigned int fam, uint32_t id)
{
	int i;

	rte_spinlock_lock(&raw->lock);
	i = mlx5v_devx_raw_find(raw, fam, id);
	if (i >= 0)
		raw->obj[i] = raw->obj[--raw->nb];
	rte_spinlock_unlock(&raw->lock);
	return i >= 0;
}

unsigned int
mlx5v_devx_raw_count(struct mlx5v_devx_raw *raw)
{
	unsigned int n;

	rte_spinlock_lock(&raw->lock);
	n = raw->nb;
	rte_spinlock_unlock(&raw->lock);
	return n;
}

/*
 * The object a message names: a USE/DESTROY inbox (in = 1) or the output of a successful
 * create. Every layout keeps the id in DW2 (eq_number and counter_set_id 8 bits, cqn and
 * obj_id 24; prm/mlx5 §7.1, prm/mlx5_eth §4), but for the inboxes below. The flow group key
 * is the group id; its table is checked separately.
 */
MLX5V_IFC_ASSERT(create_eq_out, eq_number, 2, 7, 0);
MLX5V_IFC_ASSERT(query_eq_in, eq_number, 2, 7, 0);
MLX5V_IFC_ASSERT(create_cq_out, cqn, 2, 23, 0);
MLX5V_IFC_ASSERT(query_cq_in, cqn, 2, 23, 0);
MLX5V_IFC_ASSERT(dealloc_q_counter_in, counter_set_id, 2, 7, 0);
MLX5V_IFC_ASSERT(eth_obj_in, obj_id, 2, 23, 0);
MLX5V_IFC_ASSERT(eth_obj_out, obj_id, 2, 23, 0);

static uint32_t
mlx5v_devx_msg_id(uint16_t opcode, unsigned int fam, const uint8_t *msg, int in)
{
	switch (in ? opcode : 0) {
	case MLX5V_CMD_OP_QUERY_Q_COUNTER:
		return MLX5V_IFC_GET(query_q_counter_in, msg, counter_set_id);
	case MLX5V_CMD_OP_DESTROY_FLOW_GROUP:
		return MLX5V_IFC_GET(flow_table_obj_in, msg, group_id);
	case MLX5V_CMD_OP_DESTROY_FLOW_TABLE:
	case MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT:
	case MLX5V_CMD_OP_DELETE_FLOW_TABLE_ENTRY:
		return MLX5V_IFC_GET(flow_table_obj_in, msg, table_id);
	case MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY:
		return MLX5V_IFC_GET(set_fte_in, msg, table_id);
	default:
		break;
	}
	switch (fam) {
	case MLX5V_DEVX_FAM_EQ:
		return MLX5V_IFC_GET(query_eq_in, msg, eq_number);
	case MLX5V_DEVX_FAM_CQ:
		return MLX5V_IFC_GET(query_cq_in, msg, cqn);
	case MLX5V_DEVX_FAM_QCNT:
		return MLX5V_IFC_GET(dealloc_q_counter_in, msg, counter_set_id);
	default:
		return MLX5V_IFC_GET(eth_obj_in, msg, obj_id);
	}
}

/* An EQ the caller may name: its own (raw or rte_pmd_mlx5v_devx_create_eq()). */
static int
mlx5v_devx_eq_mine(struct mlx5v_devx_raw *raw, const struct mlx5v_devx_policy_env *env,
		   uint32_t eqn)
{
	return mlx5v_devx_raw_owns(raw, MLX5V_DEVX_FAM_EQ, eqn) || env->eq_owned(env->arg, eqn);
}

/*
 * The objects a create names that must be the caller's: the EQ and UAR of an EQ or CQ, the CQ
 * of an SQ or RQ. A CQ may also use the async EQ, as rte_pmd_mlx5v_devx_query_eqn() gives it
 * out for that purpose (rdma-core's contract).
 */
static const char *
mlx5v_devx_create_refs(struct mlx5v_devx_raw *raw, const struct mlx5v_devx_policy_env *env,
		       uint16_t opcode, const uint8_t *in)
{
	uint32_t eqn;

	switch (opcode) {
	case MLX5V_CMD_OP_CREATE_EQ:
		if (!env->uar_owned(env->arg, MLX5V_IFC_GET(create_eq_in, in, eqc.uar_page)))
			return "UAR page of another owner";
		return NULL;
	case MLX5V_CMD_OP_CREATE_CQ:
		eqn = MLX5V_IFC_GET(create_cq_in, in, cqc.c_eqn_or_apu_element);
		if (eqn != env->async_eqn && !mlx5v_devx_eq_mine(raw, env, eqn))
			return "EQ of another owner";
		if (!env->uar_owned(env->arg, MLX5V_IFC_GET(create_cq_in, in, cqc.uar_page)))
			return "UAR page of another owner";
		return NULL;
	case MLX5V_CMD_OP_CREATE_SQ:
		if (!mlx5v_devx_raw_owns(raw, MLX5V_DEVX_FAM_CQ,
					 MLX5V_IFC_GET(create_sq_in, in, ctx.cqn)))
			return "CQ of another owner";
		return NULL;
	case MLX5V_CMD_OP_CREATE_RQ:
		if (!mlx5v_devx_raw_owns(raw, MLX5V_DEVX_FAM_CQ,
					 MLX5V_IFC_GET(create_rq_in, in, ctx.cqn)))
			return "CQ of another owner";
		return NULL;
	case MLX5V_CMD_OP_CREATE_FLOW_GROUP:
		if (!mlx5v_devx_raw_owns(raw, MLX5V_DEVX_FAM_FT,
					 MLX5V_IFC_GET(create_flow_group_in, in, table_id)))
			return "flow table of another owner";
		return NULL;
	default:
		return NULL;
	}
}

int
mlx5v_devx_policy_check(struct mlx5v_devx_raw *raw, const struct mlx5v_devx_policy_env *env,
			const void *inbox, size_t inlen, struct mlx5v_devx_policy_req *req)
{
	uint8_t in[MLX5V_DEVX_POLICY_IN_BYTES];
	uint8_t rule, fam; /* the opcode's policy, from the opcode table */
	const char *why = NULL;
	uint16_t opcode;
	uint32_t id;

	/* Fields beyond a short inbox read as zero; the device rejects the length itself. */
	memset(in, 0, sizeof(in));
	memcpy(in, inbox, RTE_MIN(inlen, sizeof(in)));
	opcode = MLX5V_IFC_GET(cmd_in_hdr, in, opcode);
	memset(req, 0, sizeof(*req));
	req->opcode = opcode;
	mlx5v_cmd_opcode_devx(opcode, &rule, &fam);
	if (rule == MLX5V_DEVX_UNLISTED || rule == MLX5V_DEVX_DENY) {
		why = rule == MLX5V_DEVX_UNLISTED ? "opcode not allowed on the raw path" :
		      "reserved to the driver";
		goto deny;
	}
	if (rule == MLX5V_DEVX_PORT) {
		/* Register reads change nothing. */
		if (opcode == MLX5V_CMD_OP_ACCESS_REG &&
		    MLX5V_IFC_GET(cmd_in_hdr, in, op_mod) == MLX5V_ACCESS_REG_READ)
			return 0;
		if (env->port_owned) {
			why = "the port belongs to the net class";
			goto deny;
		}
		/* Disconnecting the root names no table. */
		if (fam == MLX5V_DEVX_FAM_NONE || MLX5V_IFC_GET(cmd_in_hdr, in, op_mod) != 0)
			return 0;
	}
	switch (rule) {
	case MLX5V_DEVX_CREATE:
		why = mlx5v_devx_create_refs(raw, env, opcode, in);
		if (why != NULL)
			goto deny;
		req->track = 1;
		req->fam = fam;
		return 0;
	case MLX5V_DEVX_PORT:
	case MLX5V_DEVX_USE:
	case MLX5V_DEVX_DESTROY:
		id = mlx5v_devx_msg_id(opcode, fam, in, 1);
		if (fam == MLX5V_DEVX_FAM_FG &&
		    !mlx5v_devx_raw_owns(raw, MLX5V_DEVX_FAM_FT,
					 MLX5V_IFC_GET(flow_table_obj_in, in, table_id))) {
			why = "flow table of another owner";
			goto deny;
		}
		/*
		 * EQ numbers are shared by design (query_eqn() hands out the async EQ for CQs to
		 * use): reading any EQ's context is allowed, an unknown number is the device's
		 * to answer (BAD_RES). Changing or destroying one is not.
		 */
		if (opcode == MLX5V_CMD_OP_QUERY_EQ)
			return 0;
		if (rule == MLX5V_DEVX_DESTROY) {
			/*
			 * Untracked before the command runs: a concurrent command naming the id
			 * is refused from now on, so it can never reach a newer object that
			 * reuses the number. mlx5v_devx_policy_done() restores it on failure.
			 */
			if (!mlx5v_devx_raw_take(raw, fam, id)) {
				why = "object not created through the raw path";
				goto deny;
			}
			req->untracked = 1;
			req->fam = fam;
			req->id = id;
			return 0;
		}
		if (fam == MLX5V_DEVX_FAM_EQ ? !mlx5v_devx_eq_mine(raw, env, id) :
		    !mlx5v_devx_raw_owns(raw, fam, id)) {
			why = "object not created through the raw path";
			goto deny;
		}
		return 0;
	default:
		return 0;
	}
deny:
	MLX5V_LOG(ERR, "raw command 0x%x (%s) refused: %s", opcode, mlx5v_cmd_opcode_name(opcode),
		  why);
	return -EPERM;
}

void
mlx5v_devx_policy_done(struct mlx5v_devx_raw *raw, const struct mlx5v_devx_policy_req *req,
		       int ret, const void *out)
{
	uint32_t id;

	if (req->untracked && ret != 0) {
		/* The destroy failed: the object is still the caller's. */
		if (mlx5v_devx_raw_add(raw, req->fam, req->id) != 0)
			MLX5V_LOG(ERR, "raw object %u of opcode 0x%x no longer tracked",
				  req->id, req->opcode);
		return;
	}
	if (!req->track || ret != 0)
		return;
	id = mlx5v_devx_msg_id(req->opcode, req->fam, out, 0);
	/* Out of memory: the object exists but cannot be named; say so rather than fail. */
	if (mlx5v_devx_raw_add(raw, req->fam, id) != 0)
		MLX5V_LOG(ERR, "raw object %u of opcode 0x%x created but not tracked (no memory)",
			  id, req->opcode);
}
