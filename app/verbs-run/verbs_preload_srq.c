/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The verbs emulation's SRQ limit (doc/guides/platform/verbs_emulation.rst, "uverbs"):
 * MODIFY_SRQ arms it and QUERY_SRQ reads it back, as mlx4_ib's modify_srq and query_srq (an
 * SRQ is never resized; the limit must be below the ring's WQEs); the model raises the limit
 * event, which verbs_preload_async.c sends as IBV_EVENT_SRQ_LIMIT_REACHED.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include <infiniband/verbs.h>

#include "mlx4v_sim.h"
#include "mlx4v_verbs.h"
#include "verbs_preload_dev.h"

int
verbs_srq_cmd_modify(struct verbs_dev_fd *f, const void *in, size_t in_len)
{
	const struct ib_uverbs_modify_srq *cmd = in;
	struct mlx4v_srq *srq;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	srq = verbs_dev_handle_get(f, cmd->srq_handle, VERBS_H_SRQ);
	if (srq == NULL)
		return -EINVAL;
	/* mlx4_ib: no resizing. */
	if (cmd->attr_mask & IBV_SRQ_MAX_WR)
		return -EINVAL;
	if (!(cmd->attr_mask & IBV_SRQ_LIMIT))
		return 0;
	return mlx4v_sim_srq_arm(verbs_dev_sim(f), srq->srqn, cmd->srq_limit);
}

int
verbs_srq_cmd_query(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_query_srq *cmd = in;
	struct ib_uverbs_query_srq_resp resp;
	struct mlx4v_srq *srq;
	uint32_t limit = 0;
	int ret;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	srq = verbs_dev_handle_get(f, cmd->srq_handle, VERBS_H_SRQ);
	if (srq == NULL)
		return -EINVAL;
	ret = mlx4v_sim_srq_query(verbs_dev_sim(f), srq->srqn, &limit);
	if (ret)
		return ret;
	memset(&resp, 0, sizeof(resp));
	resp.max_wr = srq->max - 1;
	resp.max_sge = srq->max_gs;
	resp.srq_limit = limit;
	return verbs_dev_resp(cmd->response, out_len, &resp, sizeof(resp));
}
