/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The verbs seam: a process-local ops table and the mlx4v_verbs_*() wrappers. */

#include <pthread.h>

#include "mlx4v_verbs.h"

/*
 * Function pointers differ between processes, so the backend of a handle is kept
 * here, indexed by ctx->id, and never in the handle itself (contributing/style §2).
 */
static struct {
	const struct mlx4v_verbs_ops *ops;
} mlx4v_verbs_procs[MLX4V_MAX_CTX];

/*
 * One process-wide lock for the control path: object registry, device table and every backend
 * create/destroy. Never taken on the data path, which works on the raw views only.
 */
static pthread_mutex_t mlx4v_verbs_mutex = PTHREAD_MUTEX_INITIALIZER;

void
mlx4v_verbs_lock(void)
{
	pthread_mutex_lock(&mlx4v_verbs_mutex);
}

void
mlx4v_verbs_unlock(void)
{
	pthread_mutex_unlock(&mlx4v_verbs_mutex);
}

/* Verbs lock held. ENOSPC when MLX4V_MAX_CTX handles are open. */
int
mlx4v_verbs_attach(struct mlx4v_ctx *ctx, const struct mlx4v_verbs_ops *ops)
{
	unsigned int i;

	for (i = 0; i < MLX4V_MAX_CTX; i++) {
		if (mlx4v_verbs_procs[i].ops == NULL) {
			mlx4v_verbs_procs[i].ops = ops;
			ctx->id = i;
			return 0;
		}
	}
	return -ENOSPC;
}

void
mlx4v_verbs_detach(struct mlx4v_ctx *ctx)
{
	if (ctx->id < MLX4V_MAX_CTX)
		mlx4v_verbs_procs[ctx->id].ops = NULL;
}

const struct mlx4v_verbs_ops *
mlx4v_verbs_ops_get(const struct mlx4v_ctx *ctx)
{
	return mlx4v_verbs_procs[ctx->id].ops;
}

#define MLX4V_OPS(ctx) mlx4v_verbs_ops_get(ctx)

/* Call an op that may be missing: a missing op is -ENOTSUP (contributing/style §3). */
#define MLX4V_CALL(ctx, op, ...) \
	(MLX4V_OPS(ctx)->op != NULL ? MLX4V_OPS(ctx)->op(__VA_ARGS__) : -ENOTSUP)

int
mlx4v_verbs_ctx_open(struct mlx4v_ctx *ctx, void *dev_priv)
{
	return MLX4V_CALL(ctx, ctx_open, ctx, dev_priv);
}

void
mlx4v_verbs_ctx_close(struct mlx4v_ctx *ctx)
{
	/* Close cannot fail and has nothing to report: a missing op is simply nothing to do. */
	if (MLX4V_OPS(ctx)->ctx_close != NULL)
		MLX4V_OPS(ctx)->ctx_close(ctx);
}

int
mlx4v_verbs_pd_create(struct mlx4v_pd *pd)
{
	return MLX4V_CALL(pd->obj.ctx, pd_create, pd);
}

int
mlx4v_verbs_pd_destroy(struct mlx4v_pd *pd)
{
	return MLX4V_CALL(pd->obj.ctx, pd_destroy, pd);
}

int
mlx4v_verbs_mr_create(struct mlx4v_mr *mr)
{
	return MLX4V_CALL(mr->obj.ctx, mr_create, mr);
}

int
mlx4v_verbs_mr_destroy(struct mlx4v_mr *mr)
{
	return MLX4V_CALL(mr->obj.ctx, mr_destroy, mr);
}

int
mlx4v_verbs_cq_create(struct mlx4v_cq *cq)
{
	return MLX4V_CALL(cq->obj.ctx, cq_create, cq);
}

int
mlx4v_verbs_cq_destroy(struct mlx4v_cq *cq)
{
	return MLX4V_CALL(cq->obj.ctx, cq_destroy, cq);
}

int
mlx4v_verbs_cq_get_event(struct mlx4v_cq *cq)
{
	return MLX4V_CALL(cq->obj.ctx, cq_get_event, cq);
}

void
mlx4v_verbs_cq_ack_events(struct mlx4v_cq *cq, unsigned int n)
{
	/* The simulator has no ack op: its eventfd counts are consumed by get_event itself. */
	if (MLX4V_OPS(cq->obj.ctx)->cq_ack_events != NULL)
		MLX4V_OPS(cq->obj.ctx)->cq_ack_events(cq, n);
}

int
mlx4v_verbs_srq_create(struct mlx4v_srq *srq)
{
	return MLX4V_CALL(srq->obj.ctx, srq_create, srq);
}

int
mlx4v_verbs_srq_destroy(struct mlx4v_srq *srq)
{
	return MLX4V_CALL(srq->obj.ctx, srq_destroy, srq);
}

int
mlx4v_verbs_qp_create(struct mlx4v_qp *qp)
{
	return MLX4V_CALL(qp->obj.ctx, qp_create, qp);
}

int
mlx4v_verbs_qp_modify(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state)
{
	return MLX4V_CALL(qp->obj.ctx, qp_modify, qp, state);
}

int
mlx4v_verbs_qp_destroy(struct mlx4v_qp *qp)
{
	return MLX4V_CALL(qp->obj.ctx, qp_destroy, qp);
}

int
mlx4v_verbs_wq_create(struct mlx4v_wq *wq)
{
	return MLX4V_CALL(wq->obj.ctx, wq_create, wq);
}

int
mlx4v_verbs_wq_modify(struct mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state)
{
	return MLX4V_CALL(wq->obj.ctx, wq_modify, wq, state);
}

int
mlx4v_verbs_wq_destroy(struct mlx4v_wq *wq)
{
	return MLX4V_CALL(wq->obj.ctx, wq_destroy, wq);
}

int
mlx4v_verbs_wqs_range_set(struct mlx4v_ctx *ctx, uint8_t log_range)
{
	return MLX4V_CALL(ctx, wqs_range_set, ctx, log_range);
}

int
mlx4v_verbs_ind_create(struct mlx4v_ind *ind)
{
	return MLX4V_CALL(ind->obj.ctx, ind_create, ind);
}

int
mlx4v_verbs_ind_destroy(struct mlx4v_ind *ind)
{
	return MLX4V_CALL(ind->obj.ctx, ind_destroy, ind);
}

int
mlx4v_verbs_rss_qp_create(struct mlx4v_qp *qp)
{
	return MLX4V_CALL(qp->obj.ctx, rss_qp_create, qp);
}

int
mlx4v_verbs_flow_create(struct mlx4v_flow *flow)
{
	return MLX4V_CALL(flow->obj.ctx, flow_create, flow);
}

int
mlx4v_verbs_flow_destroy(struct mlx4v_flow *flow)
{
	return MLX4V_CALL(flow->obj.ctx, flow_destroy, flow);
}

int
mlx4v_verbs_port_query(struct mlx4v_ctx *ctx, uint8_t port, struct rte_pmd_mlx4v_port_attr *attr)
{
	return MLX4V_CALL(ctx, port_query, ctx, port, attr);
}

int
mlx4v_verbs_port_mtu_set(struct mlx4v_ctx *ctx, uint8_t port, uint16_t mtu)
{
	return MLX4V_CALL(ctx, port_mtu_set, ctx, port, mtu);
}

int
mlx4v_verbs_qp_sdb_fd(struct mlx4v_qp *qp)
{
	return MLX4V_CALL(qp->obj.ctx, qp_sdb_fd, qp);
}

int
mlx4v_verbs_cq_uar_fd(struct mlx4v_cq *cq, int64_t *off, int *desc)
{
	return MLX4V_CALL(cq->obj.ctx, cq_uar_fd, cq, off, desc);
}
