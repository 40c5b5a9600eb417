/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The verbs emulation's receive side scaling commands: RWQ indirection tables
 * (EX_CREATE_RWQ_IND_TBL, EX_DESTROY_RWQ_IND_TBL) and RSS QPs (EX_CREATE_QP with a table), as
 * mlx4_ib answers them, over the model's tables and RSS QPs (doc/guides/prm/mlx4.rst §5.4,
 * doc/guides/platform/verbs_emulation.rst, "uverbs").
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/ib_user_verbs.h>
#include <rdma/mlx4-abi.h>

#include <infiniband/verbs.h>

#include "mlx4v_verbs.h"
#include "verbs_preload_dev.h"
#include "verbs_run.h"

/** The fields mlx4_ib hashes on (enum mlx4_ib_rx_hash_fields, by pairs). */
#define VERBS_RSS_IPV4 (IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4)
#define VERBS_RSS_IPV6 (IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6)
#define VERBS_RSS_TCP (IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP)
#define VERBS_RSS_UDP (IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP)
/** The largest table (the model's, 2^8 entries). */
#define VERBS_RSS_IND_LOG_MAX 8u

/*
 * As mlx4_ib reports an Ethernet ConnectX-3 Pro: RSS on raw-packet QPs, the model's largest
 * table, Toeplitz over addresses and TCP and UDP ports (MLX4_DEV_CAP_FLAG2_UDP_RSS), no inner
 * (tunnel) hashing.
 */
void
verbs_rss_caps(struct ib_uverbs_ex_query_device_resp *core,
	       struct mlx4_uverbs_ex_query_device_resp *drv)
{
	core->rss_caps.supported_qpts = 1u << IBV_QPT_RAW_PACKET;
	core->rss_caps.max_rwq_indirection_tables = core->base.max_qp;
	core->rss_caps.max_rwq_indirection_table_size = 1u << VERBS_RSS_IND_LOG_MAX;
	core->max_wq_type_rq = core->base.max_qp;
	memset(drv, 0, sizeof(*drv));
	drv->rss_caps.rx_hash_fields_mask = VERBS_RSS_IPV4 | VERBS_RSS_IPV6 | VERBS_RSS_TCP |
		VERBS_RSS_UDP;
	drv->rss_caps.rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ;
}

/*
 * A table over the WQs the handles name, in order (the model checks that their numbers are
 * consecutive and the first aligned to the size, as mlx4_ib).
 */
int
verbs_rss_cmd_create_ind(struct verbs_dev_fd *f, const void *in, size_t in_len,
			 uint64_t response, size_t out_len)
{
	const struct ib_uverbs_ex_create_rwq_ind_table *cmd = in;
	struct ib_uverbs_ex_create_rwq_ind_table_resp resp;
	struct mlx4v_ctx *ctx = verbs_dev_ctx(f);
	struct mlx4v_ind *ind;
	uint32_t i, n;
	int ret;

	if (in_len < sizeof(*cmd) || ctx == NULL || cmd->comp_mask != 0 ||
	    cmd->log_ind_tbl_size > VERBS_RSS_IND_LOG_MAX)
		return -EINVAL;
	n = 1u << cmd->log_ind_tbl_size;
	if (in_len < sizeof(*cmd) + n * sizeof(cmd->wq_handles[0]))
		return -EINVAL;
	ind = calloc(1, sizeof(*ind) + n * sizeof(ind->wqs[0]));
	if (ind == NULL)
		return -ENOMEM;
	ind->obj.type = MLX4V_OBJ_IND;
	ind->obj.ctx = ctx;
	ind->log_size = cmd->log_ind_tbl_size;
	for (i = 0; i < n; i++) {
		ind->wqs[i] = verbs_dev_handle_get(f, cmd->wq_handles[i], VERBS_H_WQ);
		if (ind->wqs[i] == NULL) {
			ret = -EINVAL;
			goto err_free;
		}
	}
	ret = verbs_dev_ops(f)->ind_create(ind);
	if (ret)
		goto err_free;
	memset(&resp, 0, sizeof(resp));
	resp.response_length = sizeof(resp);
	resp.ind_tbl_num = 0;
	ret = verbs_dev_publish(f, VERBS_H_IND, ind, response, out_len, &resp, sizeof(resp),
				offsetof(struct ib_uverbs_ex_create_rwq_ind_table_resp,
					 ind_tbl_handle));
	if (ret)
		goto err_destroy;
	for (i = 0; i < n; i++)
		ind->wqs[i]->obj.refcnt++;
	return 0;

err_destroy:
	verbs_dev_ops(f)->ind_destroy(ind);
err_free:
	free(ind);
	return ret;
}

int
verbs_rss_ind_destroy(struct verbs_dev_fd *f, struct mlx4v_ind *ind)
{
	uint32_t i;
	int ret;

	ret = verbs_dev_ops(f)->ind_destroy(ind);
	if (ret)
		return ret;
	for (i = 0; i < (1u << ind->log_size); i++)
		ind->wqs[i]->obj.refcnt--;
	return 0;
}

void
verbs_rss_qp_unref(struct mlx4v_qp *qp)
{
	qp->pd->obj.refcnt--;
	if (qp->ind != NULL) {
		qp->ind->obj.refcnt--;
		return;
	}
	qp->send_cq->obj.refcnt--;
	qp->recv_cq->obj.refcnt--;
}

/* mlx4_ib's check of the hash fields: by pairs, ports only with addresses, nothing else. */
static int
verbs_rss_fields_ok(uint64_t f)
{
	if (f & ~(uint64_t)(VERBS_RSS_IPV4 | VERBS_RSS_IPV6 | VERBS_RSS_TCP | VERBS_RSS_UDP))
		return 0;
	if (((f & VERBS_RSS_IPV4) && (f & VERBS_RSS_IPV4) != VERBS_RSS_IPV4) ||
	    ((f & VERBS_RSS_IPV6) && (f & VERBS_RSS_IPV6) != VERBS_RSS_IPV6) ||
	    ((f & VERBS_RSS_TCP) && (f & VERBS_RSS_TCP) != VERBS_RSS_TCP) ||
	    ((f & VERBS_RSS_UDP) && (f & VERBS_RSS_UDP) != VERBS_RSS_UDP))
		return 0;
	return !((f & (VERBS_RSS_TCP | VERBS_RSS_UDP)) &&
		 !(f & (VERBS_RSS_IPV4 | VERBS_RSS_IPV6)));
}

/*
 * An RSS QP: no rings, the table and the Toeplitz key and fields of mlx4's command. Like every
 * QP, it takes its port at RESET->INIT (MODIFY_QP); it is made on port 1 until then.
 */
int
verbs_rss_cmd_create_qp(struct verbs_dev_fd *f, const void *in, size_t core_len,
			size_t in_len, uint64_t response, size_t out_len)
{
	const struct ib_uverbs_ex_create_qp *cmd = in;
	const struct mlx4_ib_create_qp_rss *drv = (const void *)((const uint8_t *)in + core_len);
	struct ib_uverbs_ex_create_qp_resp resp;
	struct mlx4v_ctx *ctx = verbs_dev_ctx(f);
	struct mlx4v_ind *ind;
	struct mlx4v_pd *pd;
	struct mlx4v_qp *qp;
	int ret;

	if (core_len < sizeof(*cmd) || in_len < core_len + sizeof(*drv) || ctx == NULL)
		return -EINVAL;
	if (!(cmd->comp_mask & IB_UVERBS_CREATE_QP_MASK_IND_TABLE)) {
		VERBS_RUN_LOG("EX_CREATE_QP without an indirection table: not emulated "
			      "(EOPNOTSUPP)");
		return -EOPNOTSUPP;
	}
	/* uverbs: a QP over a table has no receive queue of its own. */
	if (cmd->max_recv_wr != 0 || cmd->max_recv_sge != 0 || cmd->is_srq)
		return -EINVAL;
	/* mlx4_ib's create_qp_rss(): no send queue either. */
	if (cmd->max_send_wr != 0 || cmd->max_send_sge != 0 || cmd->max_inline_data != 0) {
		VERBS_RUN_LOG("EX_CREATE_QP: RSS QP with a send queue: not supported by mlx4_ib "
			      "(EOPNOTSUPP)");
		return -EOPNOTSUPP;
	}
	/* mlx4_ib's create_qp_rss(): a raw-packet QP, Toeplitz, no flags, no mlx4 comp_mask. */
	if (cmd->qp_type != IBV_QPT_RAW_PACKET || cmd->create_flags != 0 ||
	    drv->comp_mask != 0 || drv->rx_hash_function != IBV_RX_HASH_FUNC_TOEPLITZ ||
	    !verbs_rss_fields_ok(drv->rx_hash_fields_mask)) {
		VERBS_RUN_LOG("EX_CREATE_QP: RSS QP of type %u, flags 0x%x, function %u, fields "
			      "0x%llx refused (EINVAL)", cmd->qp_type, cmd->create_flags,
			      drv->rx_hash_function,
			      (unsigned long long)drv->rx_hash_fields_mask);
		return -EINVAL;
	}
	pd = verbs_dev_handle_get(f, cmd->pd_handle, VERBS_H_PD);
	ind = verbs_dev_handle_get(f, cmd->rwq_ind_tbl_handle, VERBS_H_IND);
	if (pd == NULL || ind == NULL)
		return -EINVAL;
	qp = calloc(1, sizeof(*qp));
	if (qp == NULL)
		return -ENOMEM;
	qp->obj.type = MLX4V_OBJ_QP;
	qp->obj.ctx = ctx;
	qp->pd = pd;
	qp->ind = ind;
	qp->attr.port = 1;
	qp->rss.port = 1;
	qp->rss.hash_fields = drv->rx_hash_fields_mask;
	memcpy(qp->rss_key, drv->rx_hash_key, sizeof(qp->rss_key));
	qp->rss.key = qp->rss_key;
	ret = verbs_dev_ops(f)->rss_qp_create(qp);
	if (ret)
		goto err_free;
	memset(&resp, 0, sizeof(resp));
	resp.base.qpn = qp->qpn;
	resp.response_length = sizeof(resp);
	ret = verbs_dev_publish(f, VERBS_H_QP, qp, response, out_len, &resp, sizeof(resp),
				offsetof(struct ib_uverbs_ex_create_qp_resp, base.qp_handle));
	if (ret)
		goto err_destroy;
	pd->obj.refcnt++;
	ind->obj.refcnt++;
	return 0;

err_destroy:
	verbs_dev_ops(f)->qp_destroy(qp);
err_free:
	free(qp);
	return ret;
}
