/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Multi-process side of the mlx4v PMD. A secondary process attaches to the ports the primary
 * made (shared ethdev data, queues in EAL memory) and runs the bursts on the queues the
 * primary configured; the device handle and its objects stay with the primary. Over EAL IPC
 * the primary tells the secondaries when a port starts (with each Tx queue's doorbell page as
 * a file descriptor and an offset: the simulator's page, or rdma-core's verbs context fd the
 * kernel maps the UAR through) and stops, and registers a secondary's mempool on request,
 * as DPDK mlx4 does (doc/guides/nics/mlx4v.rst, "Secondary processes").
 */

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <ethdev_driver.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mempool.h>
#include <rte_string_fns.h>

#include "mlx4v_api.h"
#include "mlx4v_ethdev.h"
#include "mlxv_mp_bursts.h"

/** The IPC action of the PMD (one per process, shared by its ports). */
#define MLX4V_MP_ACTION "net_mlx4v_mp"
/** How long either side waits for the other's answer. */
#define MLX4V_MP_TIMEOUT_S 5
/** Bytes of a doorbell page a secondary maps. */
#define MLX4V_MP_DB_MAP_LEN 4096

enum mlx4v_mp_op {
	MLX4V_MP_DB_GET = 1,     /**< to the primary: doorbell pages of queues first.. (fds) */
	MLX4V_MP_MR_REG,         /**< to the primary: register a mempool for the port */
	MLX4V_MP_START_RXTX,     /**< to the secondaries: doorbell pages of queues first.. */
	MLX4V_MP_STOP_RXTX,      /**< to the secondaries: the port stops */
};

struct mlx4v_mp_req {
	uint32_t op;
	uint32_t first;                    /**< the first Tx queue of the fds */
	uint32_t last;                     /**< START_RXTX: the last batch of fds, bursts on */
	char name[RTE_ETH_NAME_MAX_LEN];   /**< the port's ethdev name */
	char pool[RTE_MEMPOOL_NAMESIZE];   /**< MR_REG: the mempool's name */
	int64_t off[RTE_MP_MAX_FD_NUM];    /**< START_RXTX: where each fd's page is mapped */
};

struct mlx4v_mp_reply {
	int32_t result;                    /**< 0 or -errno */
	int64_t off[RTE_MP_MAX_FD_NUM];    /**< DB_GET: where each fd's page is mapped */
};

static_assert(sizeof(struct mlx4v_mp_req) <= RTE_MP_MAX_PARAM_LEN, "IPC request too long");
static_assert(sizeof(struct mlx4v_mp_reply) <= RTE_MP_MAX_PARAM_LEN, "IPC reply too long");

static int mlx4v_mp_handle(const struct rte_mp_msg *msg, const void *peer);

/* The action, used by the ports of this process (a primary's, or a secondary's). */
static struct mlxv_mp_action mlx4v_mp_action = {
	.name = MLX4V_MP_ACTION,
	.handler = mlx4v_mp_handle,
};

/*
 * A secondary's gates of the ports' bursts, by port id: never freed, as an lcore of the
 * process may hold a queue of one at any time (mlxv_mp_bursts.h).
 */
static struct mlxv_mp_gate mlx4v_mp_gates[RTE_MAX_ETHPORTS];

/* A request op about a port (the pool's name or NULL). */
static void
mlx4v_mp_msg_init(struct rte_mp_msg *msg, uint32_t op, const struct rte_eth_dev *eth_dev,
		  const char *pool)
{
	struct mlx4v_mp_req *req = (void *)msg->param;

	memset(msg, 0, sizeof(*msg));
	strlcpy(msg->name, MLX4V_MP_ACTION, sizeof(msg->name));
	msg->len_param = sizeof(*req);
	req->op = op;
	strlcpy(req->name, eth_dev->data->name, sizeof(req->name));
	if (pool != NULL)
		strlcpy(req->pool, pool, sizeof(req->pool));
}

/*
 * Primary: the fds of the doorbell pages of Tx queues first.. (at most RTE_MP_MAX_FD_NUM)
 * into msg and their mmap offsets into off; *last set when they reach the last queue.
 * @return 0 or -errno.
 */
static int
mlx4v_mp_db_fds(struct rte_eth_dev *eth_dev, uint32_t first, struct rte_mp_msg *msg,
		int64_t *off, uint32_t *last)
{
	const struct mlx4v_txq *txq;
	uint32_t i;
	int fd;

	msg->num_fds = 0;
	for (i = first; i < eth_dev->data->nb_tx_queues && msg->num_fds < RTE_MP_MAX_FD_NUM;
	     i++) {
		txq = eth_dev->data->tx_queues[i];
		if (txq == NULL || txq->qp == NULL)
			return -EAGAIN;
		fd = mlx4v_qp_sdb_fd(txq->qp, &off[msg->num_fds]);
		if (fd < 0)
			return fd;
		msg->fds[msg->num_fds++] = fd;
	}
	*last = i >= eth_dev->data->nb_tx_queues;
	return 0;
}

/* Secondary: the port's bursts take the primary's queues (the doorbells are mapped). */
static void
mlx4v_mp_rxtx_on(struct rte_eth_dev *eth_dev)
{
	mlxv_mp_bursts_on(eth_dev, &mlx4v_mp_gates[eth_dev->data->port_id], mlx4v_rx_burst,
			  mlx4v_tx_burst, mlx4v_rx_queue_count);
	MLX4V_ETH_LOG(DEBUG, "port %u: data path on in this secondary process",
		      eth_dev->data->port_id);
}

/* Secondary: the bursts return 0; the mappings stay for a burst still running. */
static void
mlx4v_mp_rxtx_off(struct rte_eth_dev *eth_dev)
{
	mlxv_mp_bursts_off(eth_dev, &mlx4v_mp_gates[eth_dev->data->port_id]);
	MLX4V_ETH_LOG(DEBUG, "port %u: data path off in this secondary process",
		      eth_dev->data->port_id);
}

/*
 * Secondary: map the doorbell pages of Tx queues first.. from fds at off (the fds closed
 * here). A queue's old mapping goes: no burst uses it since the STOP before this start.
 * @return 0/-errno.
 */
static int
mlx4v_mp_db_map(struct rte_eth_dev *eth_dev, uint32_t first, const int *fds,
		const int64_t *off, int n)
{
	struct mlx4v_ethdev_proc *pp = eth_dev->process_private;
	const struct mlx4v_txq *txq;
	int i, ret = 0;
	void *map;

	for (i = 0; i < n; i++) {
		txq = first + i < eth_dev->data->nb_tx_queues ?
		      eth_dev->data->tx_queues[first + i] : NULL;
		map = ret == 0 && txq != NULL && first + i < MLX4V_ETH_MAX_QUEUES ?
		      mmap(NULL, MLX4V_MP_DB_MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
			   fds[i], (off_t)off[i]) : MAP_FAILED;
		close(fds[i]);
		if (map == MAP_FAILED) {
			ret = ret != 0 ? ret : (txq == NULL ? -EINVAL : -errno);
			continue;
		}
		if (pp->map[first + i] != NULL)
			munmap(pp->map[first + i], MLX4V_MP_DB_MAP_LEN);
		pp->map[first + i] = map;
		/* The doorbell sits where it sits in the primary's page. */
		pp->sdb[first + i] = (uint32_t *)((uint8_t *)map +
			((uintptr_t)txq->qpv.sdb & (MLX4V_MP_DB_MAP_LEN - 1)));
	}
	return ret;
}

/* Primary: register the mempool named in req for the port. */
static int
mlx4v_mp_mr_reg_local(struct rte_eth_dev *eth_dev, const struct mlx4v_mp_req *req)
{
	char pool[RTE_MEMPOOL_NAMESIZE];
	const struct rte_pmd_mlx4v_mr_range *ranges;
	struct rte_mempool *mp;
	uint32_t lkey, n;

	strlcpy(pool, req->pool, sizeof(pool));
	mp = rte_mempool_lookup(pool);
	if (mp == NULL)
		return -ENOENT;
	return mlx4v_ethdev_mr_lookup(eth_dev, mp, &lkey, &ranges, &n);
}

/* EAL IPC thread of either process: answer one request. */
static int
mlx4v_mp_handle(const struct rte_mp_msg *msg, const void *peer)
{
	const struct mlx4v_mp_req *req = (const void *)msg->param;
	int primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	struct mlx4v_mp_reply *rep;
	struct rte_eth_dev *eth_dev;
	struct rte_mp_msg out;
	uint32_t last = 0;
	int i;

	memset(&out, 0, sizeof(out));
	strlcpy(out.name, msg->name, sizeof(out.name));
	out.len_param = sizeof(*rep);
	rep = (void *)out.param;
	eth_dev = msg->len_param == sizeof(*req) ? mlxv_mp_port(req->name) : NULL;
	if (eth_dev == NULL) {
		rep->result = -ENODEV;
		/* A received descriptor is this process's to close. */
		for (i = 0; i < msg->num_fds; i++)
			close(msg->fds[i]);
		return rte_mp_reply(&out, peer);
	}
	switch (primary ? (int)req->op : -(int)req->op) {
	case MLX4V_MP_DB_GET:
		rep->result = eth_dev->data->dev_started ?
			      mlx4v_mp_db_fds(eth_dev, req->first, &out, rep->off, &last) :
			      -EAGAIN;
		if (rep->result != 0)
			out.num_fds = 0;
		break;
	case MLX4V_MP_MR_REG:
		rep->result = mlx4v_mp_mr_reg_local(eth_dev, req);
		break;
	case -MLX4V_MP_START_RXTX:
		rep->result = mlx4v_mp_db_map(eth_dev, req->first, msg->fds, req->off,
					      msg->num_fds);
		if (rep->result == 0 && req->last)
			mlx4v_mp_rxtx_on(eth_dev);
		break;
	case -MLX4V_MP_STOP_RXTX:
		mlx4v_mp_rxtx_off(eth_dev);
		rep->result = 0;
		break;
	default:
		rep->result = -EINVAL;
		for (i = 0; i < msg->num_fds; i++)
			close(msg->fds[i]);
		break;
	}
	return rte_mp_reply(&out, peer);
}

int
mlx4v_mp_primary_get(void)
{
	int ret = mlxv_mp_action_get(&mlx4v_mp_action);

	if (ret != 0)
		MLX4V_ETH_LOG(ERR, "cannot register the IPC action %s: %s", MLX4V_MP_ACTION,
			      rte_strerror(-ret));
	return ret;
}

void
mlx4v_mp_primary_put(void)
{
	mlxv_mp_action_put(&mlx4v_mp_action);
}

/*
 * Send msg to the other side: the primary (secondary) or every secondary (primary). @return
 * the number of answers whose result is 0, or -errno when the first one's is not.
 */
static int
mlx4v_mp_send(struct rte_eth_dev *eth_dev, struct rte_mp_msg *msg, struct rte_mp_msg *answer)
{
	struct timespec ts = { .tv_sec = MLX4V_MP_TIMEOUT_S };
	const struct mlx4v_mp_reply *rep;
	struct rte_mp_reply reply;
	int i, j, ok = 0, err = 0;

	if (rte_mp_request_sync(msg, &reply, &ts) != 0) {
		MLX4V_ETH_LOG(WARNING, "port %u: no answer over IPC: %s", eth_dev->data->port_id,
			      rte_strerror(rte_errno));
		return -rte_errno;
	}
	for (i = 0; i < reply.nb_received; i++) {
		rep = (const void *)reply.msgs[i].param;
		if (reply.msgs[i].len_param != sizeof(*rep))
			err = err != 0 ? err : -EPROTO;
		else if (rep->result == 0)
			ok++;
		else if (rep->result != -ENODEV)
			err = err != 0 ? err : rep->result;
		if (answer != NULL && i == 0)
			*answer = reply.msgs[0];
		else
			for (j = 0; j < reply.msgs[i].num_fds; j++)
				close(reply.msgs[i].fds[j]);
	}
	free(reply.msgs);
	return rte_eal_process_type() != RTE_PROC_PRIMARY && err != 0 ? err : ok;
}

int
mlx4v_mp_mr_reg(struct rte_eth_dev *eth_dev, struct rte_mempool *mp)
{
	struct rte_mp_msg msg;
	int ret;

	mlx4v_mp_msg_init(&msg, MLX4V_MP_MR_REG, eth_dev, mp->name);
	ret = mlx4v_mp_send(eth_dev, &msg, NULL);
	return ret < 0 ? ret : (ret == 1 ? 0 : -EPROTO);
}

void
mlx4v_mp_start_rxtx(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_mp_req *req;
	struct rte_mp_msg msg;
	uint32_t first = 0, last = 0;
	int ret;

	if (!mlx4v_mp_action.registered)
		return;
	/* The doorbell pages go RTE_MP_MAX_FD_NUM at a time; the last batch turns bursts on. */
	while (!last) {
		mlx4v_mp_msg_init(&msg, MLX4V_MP_START_RXTX, eth_dev, NULL);
		req = (void *)msg.param;
		ret = mlx4v_mp_db_fds(eth_dev, first, &msg, req->off, &last);
		if (ret != 0) {
			/* A backend that cannot share the page: secondaries stay off. */
			MLX4V_ETH_LOG(DEBUG, "port %u: no data path for secondary processes: %s",
				      eth_dev->data->port_id, strerror(-ret));
			return;
		}
		req->first = first;
		req->last = last;
		if (mlx4v_mp_send(eth_dev, &msg, NULL) < 0)
			return;
		first += msg.num_fds;
	}
}

void
mlx4v_mp_stop_rxtx(struct rte_eth_dev *eth_dev)
{
	struct rte_mp_msg msg;

	if (!mlx4v_mp_action.registered)
		return;
	mlx4v_mp_msg_init(&msg, MLX4V_MP_STOP_RXTX, eth_dev, NULL);
	mlx4v_mp_send(eth_dev, &msg, NULL);
}

/* Secondary, port started at attach: map its doorbell pages and take the bursts. */
static int
mlx4v_mp_secondary_start(struct rte_eth_dev *eth_dev)
{
	const struct mlx4v_mp_reply *rep;
	struct mlx4v_mp_req *req;
	struct rte_mp_msg msg, answer;
	uint32_t first = 0;
	int ret;

	while (first < eth_dev->data->nb_tx_queues) {
		mlx4v_mp_msg_init(&msg, MLX4V_MP_DB_GET, eth_dev, NULL);
		req = (void *)msg.param;
		req->first = first;
		memset(&answer, 0, sizeof(answer));
		ret = mlx4v_mp_send(eth_dev, &msg, &answer);
		if (ret < 0)
			return ret;
		rep = (const void *)answer.param;
		if (ret != 1 || rep->result != 0 || answer.num_fds == 0) {
			mlx4v_mp_db_map(eth_dev, 0, answer.fds, rep->off, answer.num_fds);
			return ret != 1 ? -EPROTO : (rep->result != 0 ? rep->result : -EPROTO);
		}
		ret = mlx4v_mp_db_map(eth_dev, first, answer.fds, rep->off, answer.num_fds);
		if (ret != 0)
			return ret;
		first += answer.num_fds;
	}
	mlx4v_mp_rxtx_on(eth_dev);
	return 0;
}

/* Attach the port named ethname of the primary. @return 0 or -errno. */
static int
mlx4v_mp_port_attach(struct rte_device *edev, const char *ethname)
{
	struct rte_eth_dev *eth_dev = rte_eth_dev_attach_secondary(ethname);
	int ret;

	if (eth_dev == NULL)
		return -ENODEV;
	eth_dev->device = edev;
	eth_dev->dev_ops = &mlx4v_ethdev_secondary_ops;
	eth_dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->process_private = calloc(1, sizeof(struct mlx4v_ethdev_proc));
	ret = eth_dev->process_private == NULL ? -ENOMEM : mlx4v_mp_primary_get();
	if (ret != 0) {
		free(eth_dev->process_private);
		eth_dev->process_private = NULL;
		rte_eth_dev_release_port(eth_dev);
		return ret;
	}
	rte_eth_dev_probing_finish(eth_dev);
	/* Started already: the bursts now; else at the primary's START_RXTX. */
	ret = eth_dev->data->dev_started ? mlx4v_mp_secondary_start(eth_dev) : 0;
	if (ret != 0)
		MLX4V_ETH_LOG(WARNING, "%s: no data path in this secondary process: %s", ethname,
			      strerror(-ret));
	MLX4V_ETH_LOG(INFO, "%s: port %u attached (secondary process)", ethname,
		      eth_dev->data->port_id);
	return 0;
}

int
mlx4v_mp_secondary_attach(struct rte_device *edev)
{
	const char *name = rte_dev_name(edev);
	char ethname[RTE_ETH_NAME_MAX_LEN];
	unsigned int port, n = 0;

	if (rte_eal_process_type() == RTE_PROC_PRIMARY)
		return -EINVAL;
	/*
	 * The device's port count lives in the primary: take the ports it made, by their
	 * names. A port the application closed there is simply not found.
	 */
	for (port = 1; port <= MLX4V_ETH_MAX_PORTS; port++) {
		mlx4v_ethdev_name(ethname, sizeof(ethname), name, port);
		if (mlx4v_mp_port_attach(edev, ethname) == 0)
			n++;
	}
	if (n == 0) {
		MLX4V_ETH_LOG(ERR, "%s: the primary process has no port of this device", name);
		return -ENODEV;
	}
	return 0;
}

/* Secondary: the port's bursts off, its mappings and per-process state gone. */
static void
mlx4v_mp_proc_free(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_proc *pp = eth_dev->process_private;
	unsigned int i;

	if (pp == NULL)
		return;
	mlx4v_mp_rxtx_off(eth_dev);
	mlx4v_mp_primary_put();
	for (i = 0; i < RTE_DIM(pp->map); i++)
		if (pp->map[i] != NULL)
			munmap(pp->map[i], MLX4V_MP_DB_MAP_LEN);
	eth_dev->process_private = NULL;
	free(pp);
}

int
mlx4v_mp_secondary_detach(struct rte_device *edev)
{
	uint16_t port;
	int ret, first = 0;

	/* A secondary's release leaves the shared data to the primary. */
	RTE_ETH_FOREACH_DEV_OF(port, edev) {
		mlx4v_mp_proc_free(&rte_eth_devices[port]);
		ret = rte_eth_dev_release_port(&rte_eth_devices[port]);
		if (ret != 0 && first == 0)
			first = ret;
	}
	return first;
}
