/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Telemetry of mlx4v: /mlx4v/obj/list,<dev>, the live objects open on a device
 * (doc/guides/nics/mlx4v.rst, "Telemetry").
 *
 * The callback runs on the telemetry thread under the verbs lock, which every public call
 * takes, so no object changes or goes away while it is read. An unknown device is an
 * error, which telemetry answers as null.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "mlx4v_verbs.h"

static const char *
mlx4v_tel_qp_state(enum rte_pmd_mlx4v_qp_state s)
{
	static const char *const names[] = { "RESET", "INIT", "RTR", "RTS", "ERR" };

	return (unsigned int)s < RTE_DIM(names) ? names[s] : "?";
}

static const char *
mlx4v_tel_wq_state(enum rte_pmd_mlx4v_wq_state s)
{
	static const char *const names[] = { "RESET", "RDY", "ERR" };

	return (unsigned int)s < RTE_DIM(names) ? names[s] : "?";
}

struct mlx4v_tel_walk {
	struct rte_tel_data *d;
	unsigned int handles;    /**< handles seen so far: their key is their rank */
	unsigned int flows;      /**< likewise for steering rules, which have no number */
};

/* One object as {"type": ..., its number and state} under "<type>_<number>". */
static int
mlx4v_tel_obj_add(struct mlx4v_obj *obj, void *arg)
{
	struct mlx4v_tel_walk *w = arg;
	struct rte_tel_data *e = rte_tel_data_alloc();
	const struct mlx4v_cq *cq = (const void *)obj;
	const struct mlx4v_qp *qp = (const void *)obj;
	const struct mlx4v_wq *wq = (const void *)obj;
	const struct mlx4v_srq *srq = (const void *)obj;
	const struct mlx4v_mr *mr = (const void *)obj;
	const struct mlx4v_pd *pd = (const void *)obj;
	char key[RTE_TEL_MAX_STRING_LEN];
	const char *type = "object";
	uint32_t num = obj->type;

	if (e == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(e);
	rte_tel_data_add_dict_u64(e, "refcnt", obj->refcnt);
	switch (obj->type) {
	case MLX4V_OBJ_CTX:
		type = "handle";
		num = w->handles++;
		rte_tel_data_add_dict_u64(e, "objects", obj->ctx->nobj);
		break;
	case MLX4V_OBJ_PD:
		type = "pd";
		num = pd->pdn;
		break;
	case MLX4V_OBJ_MR:
		type = "mr";
		num = mr->lkey;
		rte_tel_data_add_dict_u64(e, "length", mr->len);
		break;
	case MLX4V_OBJ_CQ:
		type = "cq";
		num = cq->cqn;
		rte_tel_data_add_dict_u64(e, "entries", cq->cqe_cnt);
		rte_tel_data_add_dict_u64(e, "events_pending", cq->events_pending);
		rte_tel_data_add_dict_u64(e, "events_unacked", cq->events_unacked);
		break;
	case MLX4V_OBJ_QP:
		type = "qp";
		num = qp->qpn;
		rte_tel_data_add_dict_string(e, "state", mlx4v_tel_qp_state(qp->state));
		rte_tel_data_add_dict_u64(e, "port", qp->attr.port);
		if (qp->ind != NULL) {
			rte_tel_data_add_dict_u64(e, "rss_table_log_size", qp->ind->log_size);
			break;
		}
		rte_tel_data_add_dict_u64(e, "send_cqn", qp->send_cq->cqn);
		rte_tel_data_add_dict_u64(e, "recv_cqn", qp->recv_cq->cqn);
		rte_tel_data_add_dict_u64(e, "sq_wqes", qp->sq.wqe_cnt);
		rte_tel_data_add_dict_u64(e, "rq_wqes", qp->rq.wqe_cnt);
		break;
	case MLX4V_OBJ_IND:
		type = "ind_table";
		num = ((const struct mlx4v_ind *)obj)->wqs[0]->wqn;
		rte_tel_data_add_dict_u64(e, "log_size", ((const struct mlx4v_ind *)obj)->log_size);
		break;
	case MLX4V_OBJ_FLOW:
		type = "flow";
		num = w->flows++;
		rte_tel_data_add_dict_u64(e, "qpn", ((const struct mlx4v_flow *)obj)->qp->qpn);
		rte_tel_data_add_dict_u64(e, "port", ((const struct mlx4v_flow *)obj)->attr.port);
		break;
	case MLX4V_OBJ_SRQ:
		type = "srq";
		num = srq->srqn;
		rte_tel_data_add_dict_u64(e, "wqes", srq->max);
		break;
	case MLX4V_OBJ_WQ:
		type = "wq";
		num = wq->wqn;
		rte_tel_data_add_dict_string(e, "state", mlx4v_tel_wq_state(wq->state));
		rte_tel_data_add_dict_u64(e, "port", wq->attr.port);
		rte_tel_data_add_dict_u64(e, "cqn", wq->cq->cqn);
		rte_tel_data_add_dict_u64(e, "wqes", wq->rq.wqe_cnt);
		break;
	}
	rte_tel_data_add_dict_string(e, "type", type);
	rte_tel_data_add_dict_u64(e, "number", num);
	snprintf(key, sizeof(key), "%s_%u", type, num);
	/* A full reply (RTE_TEL_MAX_DICT_ENTRIES) ends the walk. */
	if (rte_tel_data_add_dict_container(w->d, key, e, 0) != 0) {
		rte_tel_data_free(e);
		return 1;
	}
	return 0;
}

static int
mlx4v_tel_obj_list(const char *cmd __rte_unused, const char *params, struct rte_tel_data *d)
{
	struct mlx4v_tel_walk w = { .d = d, .handles = 0 };
	int ret = 0;

	if (params == NULL || params[0] == '\0')
		return -EINVAL;
	mlx4v_verbs_lock();
	if (!mlx4v_dev_is_registered(params)) {
		ret = -ENODEV;
		goto out;
	}
	rte_tel_data_start_dict(d);
	mlx4v_obj_foreach(params, mlx4v_tel_obj_add, &w);
out:
	mlx4v_verbs_unlock();
	return ret;
}

RTE_INIT(mlx4v_telemetry_init)
{
	rte_telemetry_register_cmd("/mlx4v/obj/list", mlx4v_tel_obj_list,
				   "Live objects (handles, PDs, MRs, CQs, QPs, SRQs, WQs) of an "
				   "mlx4v device. Parameters: device name");
}
