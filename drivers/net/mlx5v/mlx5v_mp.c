/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Multi-process side of the mlx5v PMD. A secondary process attaches to the ports the
 * primary made (shared ethdev data, queues in EAL memory) and may read them; only the
 * primary owns the device's command queue, so what needs a command (the live Q counter)
 * is asked of the primary over EAL IPC (doc/guides/nics/mlx5v.rst, "Secondary processes").
 */

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_string_fns.h>

#include "mlx5v_ethdev.h"

/** The IPC action of the PMD (one per process, shared by its ports). */
#define MLX5V_MP_ACTION "net_mlx5v_mp"
/** How long a secondary waits for the primary's answer. */
#define MLX5V_MP_TIMEOUT_S 5

enum mlx5v_mp_op {
	MLX5V_MP_OOB_LIVE = 1,   /**< the live out_of_buffer of the port's Q counter */
};

struct mlx5v_mp_req {
	uint32_t op;
	char name[RTE_DEV_NAME_MAX_LEN];   /**< the port's device name */
};

struct mlx5v_mp_reply {
	int32_t result;                    /**< 0 or -errno */
	uint64_t value;
};

static_assert(sizeof(struct mlx5v_mp_req) <= RTE_MP_MAX_PARAM_LEN, "IPC request too long");
static_assert(sizeof(struct mlx5v_mp_reply) <= RTE_MP_MAX_PARAM_LEN, "IPC reply too long");

/* Ports of this (primary) process that use the action. */
static unsigned int mlx5v_mp_users;
static int mlx5v_mp_registered;

/* Primary, EAL IPC thread: answer one request. */
static int
mlx5v_mp_handle(const struct rte_mp_msg *msg, const void *peer)
{
	const struct mlx5v_mp_req *req = (const void *)msg->param;
	struct mlx5v_mp_reply *rep;
	struct rte_eth_dev *eth_dev;
	char name[RTE_DEV_NAME_MAX_LEN];
	struct rte_mp_msg out;

	memset(&out, 0, sizeof(out));
	strlcpy(out.name, msg->name, sizeof(out.name));
	out.len_param = sizeof(*rep);
	rep = (void *)out.param;
	if (msg->len_param != sizeof(*req) || req->op != MLX5V_MP_OOB_LIVE) {
		rep->result = -EINVAL;
	} else {
		/* The peer's string is not trusted to be terminated. */
		strlcpy(name, req->name, sizeof(name));
		eth_dev = rte_eth_dev_allocated(name);
		if (eth_dev == NULL || eth_dev->data->dev_private == NULL)
			rep->result = -ENODEV;
		else
			rep->result = mlx5v_stats_oob_live(eth_dev, &rep->value);
	}
	return rte_mp_reply(&out, peer);
}

int
mlx5v_mp_primary_get(void)
{
	if (mlx5v_mp_users++ > 0 || mlx5v_mp_registered)
		return 0;
	if (rte_mp_action_register(MLX5V_MP_ACTION, mlx5v_mp_handle) == 0) {
		mlx5v_mp_registered = 1;
		return 0;
	}
	/* No shared configuration (--no-shconf, --in-memory): no secondary can come either. */
	if (rte_errno == ENOTSUP)
		return 0;
	mlx5v_mp_users--;
	MLX5V_ETH_LOG(ERR, "cannot register the IPC action %s: %s", MLX5V_MP_ACTION,
		      rte_strerror(rte_errno));
	return -rte_errno;
}

void
mlx5v_mp_primary_put(void)
{
	if (mlx5v_mp_users == 0 || --mlx5v_mp_users > 0)
		return;
	if (mlx5v_mp_registered) {
		rte_mp_action_unregister(MLX5V_MP_ACTION);
		mlx5v_mp_registered = 0;
	}
}

int
mlx5v_mp_oob_live(struct rte_eth_dev *eth_dev, uint64_t *value)
{
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct timespec ts = { .tv_sec = MLX5V_MP_TIMEOUT_S };
	const struct mlx5v_mp_reply *rep;
	struct mlx5v_mp_req *req;
	struct rte_mp_reply reply;
	struct rte_mp_msg msg;
	int ret;

	memset(&msg, 0, sizeof(msg));
	strlcpy(msg.name, MLX5V_MP_ACTION, sizeof(msg.name));
	msg.len_param = sizeof(*req);
	req = (void *)msg.param;
	req->op = MLX5V_MP_OOB_LIVE;
	strlcpy(req->name, priv->name, sizeof(req->name));
	if (rte_mp_request_sync(&msg, &reply, &ts) != 0) {
		MLX5V_ETH_LOG(ERR, "port %u: no answer from the primary process: %s",
			      eth_dev->data->port_id, rte_strerror(rte_errno));
		return -rte_errno;
	}
	if (reply.nb_received != 1 || reply.msgs[0].len_param != sizeof(*rep)) {
		ret = -EPROTO;
	} else {
		rep = (const void *)reply.msgs[0].param;
		ret = rep->result;
		if (ret == 0)
			*value = rep->value;
	}
	free(reply.msgs);
	return ret;
}
