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

/* Not used by the driver itself; the PRM opcode, refused like the other function commands. */
#define MLX5V_DEVX_OP_SET_DRIVER_VERSION 0x10d
/* The bytes of an inbox the policy reads at most (create_sq_in up to its ctx.cqn). */
#define MLX5V_DEVX_POLICY_IN_BYTES 0x100u

/** How the policy treats an opcode. */
enum mlx5v_devx_rule {
	MLX5V_DEVX_DENY = 0,  /**< function management, or an opcode not in the table */
	MLX5V_DEVX_ANY,       /**< a query of the function: always allowed */
	MLX5V_DEVX_PORT,      /**< changes the port or vport: only while no net class owns it */
	MLX5V_DEVX_CREATE,    /**< creates an object of fam; its id is tracked on success */
	MLX5V_DEVX_USE,       /**< names an object of fam, which must be the caller's */
	MLX5V_DEVX_DESTROY,   /**< destroys an object of fam, which must be the caller's */
};

struct mlx5v_devx_op {
	uint16_t opcode;
	uint8_t rule;
	uint8_t fam;
};

#define OP(op, r, f) { MLX5V_CMD_OP_##op, MLX5V_DEVX_##r, MLX5V_DEVX_FAM_##f }

/* The table documented in doc/guides/nics/mlx5v_devx.rst; anything else is DENY. */
static const struct mlx5v_devx_op mlx5v_devx_ops[] = {
	/* Function management belongs to the driver: refused even on class=none. */
	OP(INIT_HCA, DENY, NONE), OP(TEARDOWN_HCA, DENY, NONE),
	OP(ENABLE_HCA, DENY, NONE), OP(DISABLE_HCA, DENY, NONE),
	OP(QUERY_PAGES, DENY, NONE), OP(MANAGE_PAGES, DENY, NONE),
	OP(SET_HCA_CAP, DENY, NONE), OP(SET_ISSI, DENY, NONE),
	{ MLX5V_DEVX_OP_SET_DRIVER_VERSION, MLX5V_DEVX_DENY, MLX5V_DEVX_FAM_NONE },
	/* UARs come from rte_pmd_mlx5v_devx_alloc_uar(), which maps and tracks them. */
	OP(ALLOC_UAR, DENY, NONE), OP(DEALLOC_UAR, DENY, NONE),
	/* Queries of the function. */
	OP(QUERY_HCA_CAP, ANY, NONE), OP(QUERY_ISSI, ANY, NONE),
	OP(QUERY_SPECIAL_CONTEXTS, ANY, NONE), OP(QUERY_VPORT_STATE, ANY, NONE),
	OP(QUERY_NIC_VPORT_CONTEXT, ANY, NONE),
	/* Port and vport: ACCESS_REG reads are ANY (see mlx5v_devx_policy_check()). */
	OP(ACCESS_REG, PORT, NONE), OP(MODIFY_NIC_VPORT_CONTEXT, PORT, NONE),
	OP(SET_FLOW_TABLE_ROOT, PORT, FT),
	/* Objects. */
	OP(CREATE_EQ, CREATE, EQ), OP(DESTROY_EQ, DESTROY, EQ),
	OP(QUERY_EQ, USE, EQ), OP(GEN_EQE, USE, EQ),
	OP(CREATE_CQ, CREATE, CQ), OP(DESTROY_CQ, DESTROY, CQ), OP(QUERY_CQ, USE, CQ),
	OP(ALLOC_PD, CREATE, PD), OP(DEALLOC_PD, DESTROY, PD),
	OP(ALLOC_TRANSPORT_DOMAIN, CREATE, TD), OP(DEALLOC_TRANSPORT_DOMAIN, DESTROY, TD),
	OP(CREATE_MKEY, CREATE, MKEY), OP(DESTROY_MKEY, DESTROY, MKEY),
	OP(QUERY_MKEY, USE, MKEY),
	OP(ALLOC_Q_COUNTER, CREATE, QCNT), OP(DEALLOC_Q_COUNTER, DESTROY, QCNT),
	OP(QUERY_Q_COUNTER, USE, QCNT),
	OP(CREATE_TIS, CREATE, TIS), OP(DESTROY_TIS, DESTROY, TIS),
	OP(MODIFY_TIS, USE, TIS), OP(QUERY_TIS, USE, TIS),
	OP(CREATE_SQ, CREATE, SQ), OP(DESTROY_SQ, DESTROY, SQ),
	OP(MODIFY_SQ, USE, SQ), OP(QUERY_SQ, USE, SQ),
	OP(CREATE_RQ, CREATE, RQ), OP(DESTROY_RQ, DESTROY, RQ),
	OP(MODIFY_RQ, USE, RQ), OP(QUERY_RQ, USE, RQ),
	OP(CREATE_RQT, CREATE, RQT), OP(DESTROY_RQT, DESTROY, RQT),
	OP(MODIFY_RQT, USE, RQT), OP(QUERY_RQT, USE, RQT),
	OP(CREATE_TIR, CREATE, TIR), OP(DESTROY_TIR, DESTROY, TIR),
	OP(MODIFY_TIR, USE, TIR), OP(QUERY_TIR, USE, TIR),
	OP(CREATE_FLOW_TABLE, CREATE, FT), OP(DESTROY_FLOW_TABLE, DESTROY, FT),
	OP(CREATE_FLOW_GROUP, CREATE, FG), OP(DESTROY_FLOW_GROUP, DESTROY, FG),
	OP(SET_FLOW_TABLE_ENTRY, USE, FT), OP(DELETE_FLOW_TABLE_ENTRY, USE, FT),
};

#undef OP

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

static const struct mlx5v_devx_op *
mlx5v_devx_op_find(uint16_t opcode)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_devx_ops); i++)
		if (mlx5v_devx_ops[i].opcode == opcode)
			return &mlx5v_devx_ops[i];
	return NULL;
}

/*
 * The object an inbox names, for USE and DESTROY opcodes: the id field of each layout
 * (prm/mlx5 §7.1 EQ and CQ commands, prm/mlx5_eth §4 objects). The flow group key is the
 * group id; its table is checked separately.
 */
static uint32_t
mlx5v_devx_in_id(uint16_t opcode, const uint8_t *in)
{
	switch (opcode) {
	case MLX5V_CMD_OP_DESTROY_EQ:
	case MLX5V_CMD_OP_QUERY_EQ:
	case MLX5V_CMD_OP_GEN_EQE:
		return MLX5V_IFC_GET(query_eq_in, in, eq_number);
	case MLX5V_CMD_OP_DESTROY_CQ:
	case MLX5V_CMD_OP_QUERY_CQ:
		return MLX5V_IFC_GET(query_cq_in, in, cqn);
	case MLX5V_CMD_OP_DEALLOC_Q_COUNTER:
		return MLX5V_IFC_GET(dealloc_q_counter_in, in, counter_set_id);
	case MLX5V_CMD_OP_QUERY_Q_COUNTER:
		return MLX5V_IFC_GET(query_q_counter_in, in, counter_set_id);
	case MLX5V_CMD_OP_DESTROY_FLOW_GROUP:
		return MLX5V_IFC_GET(flow_table_obj_in, in, group_id);
	case MLX5V_CMD_OP_DESTROY_FLOW_TABLE:
	case MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT:
	case MLX5V_CMD_OP_DELETE_FLOW_TABLE_ENTRY:
		return MLX5V_IFC_GET(flow_table_obj_in, in, table_id);
	case MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY:
		return MLX5V_IFC_GET(set_fte_in, in, table_id);
	default:
		/* Every other object command: obj_id in the low 24 bits at 0x08. */
		return MLX5V_IFC_GET(eth_obj_in, in, obj_id);
	}
}

/* The id a successful create returned (prm/mlx5 §7.1, prm/mlx5_eth §4). */
static uint32_t
mlx5v_devx_out_id(uint16_t opcode, const uint8_t *out)
{
	switch (opcode) {
	case MLX5V_CMD_OP_CREATE_EQ:
		return MLX5V_IFC_GET(create_eq_out, out, eq_number);
	case MLX5V_CMD_OP_CREATE_CQ:
		return MLX5V_IFC_GET(create_cq_out, out, cqn);
	case MLX5V_CMD_OP_ALLOC_Q_COUNTER:
		return MLX5V_IFC_GET(alloc_q_counter_out, out, counter_set_id);
	default:
		return MLX5V_IFC_GET(eth_obj_out, out, obj_id);
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
	const struct mlx5v_devx_op *op;
	const char *why = NULL;
	uint16_t opcode;
	uint32_t id;

	/* Fields beyond a short inbox read as zero; the device rejects the length itself. */
	memset(in, 0, sizeof(in));
	memcpy(in, inbox, RTE_MIN(inlen, sizeof(in)));
	opcode = MLX5V_IFC_GET(cmd_in_hdr, in, opcode);
	memset(req, 0, sizeof(*req));
	req->opcode = opcode;
	op = mlx5v_devx_op_find(opcode);
	if (op == NULL || op->rule == MLX5V_DEVX_DENY) {
		why = op == NULL ? "opcode not allowed on the raw path" : "reserved to the driver";
		goto deny;
	}
	if (op->rule == MLX5V_DEVX_PORT) {
		/* Register reads change nothing. */
		if (opcode == MLX5V_CMD_OP_ACCESS_REG &&
		    MLX5V_IFC_GET(cmd_in_hdr, in, op_mod) == MLX5V_ACCESS_REG_READ)
			return 0;
		if (env->net_owned) {
			why = "the port belongs to the net class";
			goto deny;
		}
		/* Disconnecting the root names no table. */
		if (op->fam == MLX5V_DEVX_FAM_NONE || MLX5V_IFC_GET(cmd_in_hdr, in, op_mod) != 0)
			return 0;
	}
	switch (op->rule) {
	case MLX5V_DEVX_CREATE:
		why = mlx5v_devx_create_refs(raw, env, opcode, in);
		if (why != NULL)
			goto deny;
		req->track = 1;
		req->fam = op->fam;
		return 0;
	case MLX5V_DEVX_PORT:
	case MLX5V_DEVX_USE:
	case MLX5V_DEVX_DESTROY:
		id = mlx5v_devx_in_id(opcode, in);
		if (op->fam == MLX5V_DEVX_FAM_FG &&
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
		if (op->rule == MLX5V_DEVX_DESTROY) {
			/*
			 * Untracked before the command runs: a concurrent command naming the id
			 * is refused from now on, so it can never reach a newer object that
			 * reuses the number. mlx5v_devx_policy_done() restores it on failure.
			 */
			if (!mlx5v_devx_raw_take(raw, op->fam, id)) {
				why = "object not created through the raw path";
				goto deny;
			}
			req->untracked = 1;
			req->fam = op->fam;
			req->id = id;
			return 0;
		}
		if (op->fam == MLX5V_DEVX_FAM_EQ ? !mlx5v_devx_eq_mine(raw, env, id) :
		    !mlx5v_devx_raw_owns(raw, op->fam, id)) {
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
	id = mlx5v_devx_out_id(req->opcode, out);
	/* Out of memory: the object exists but cannot be named; say so rather than fail. */
	if (mlx5v_devx_raw_add(raw, req->fam, id) != 0)
		MLX5V_LOG(ERR, "raw object %u of opcode 0x%x created but not tracked (no memory)",
			  id, req->opcode);
}
