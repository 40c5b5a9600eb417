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
 * kernel maps the UAR through; with Rx interrupts also each Rx queue's CQ event fd and arm
 * doorbell page) and stops, and registers a secondary's mempool on request, as DPDK mlx4 does
 * (doc/guides/nics/mlx4v.rst, "Secondary processes").
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

/*
 * The fds a started port lends a secondary, numbered in this order: each Tx queue's doorbell
 * page; with Rx interrupts (intr_conf.rxq), each Rx queue's CQ event fd, then each Rx
 * queue's CQ arm doorbell page (mlx4v_mp_nb_fds()).
 */
enum mlx4v_mp_op {
	MLX4V_MP_DB_GET = 1,     /**< to the primary: the port's fds first.. */
	MLX4V_MP_MR_REG,         /**< to the primary: register a mempool for the port */
	MLX4V_MP_START_RXTX,     /**< to the secondaries: the port's fds first.. */
	MLX4V_MP_STOP_RXTX,      /**< to the secondaries: the port stops */
};

struct mlx4v_mp_req {
	uint32_t op;
	uint32_t first;                    /**< the number of the first fd */
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

/*
 * A secondary's gates of the ports' Rx interrupt enable/disable, as the bursts' (the rx
 * side only, and no burst behind it): an application thread inside reads the primary's Rx
 * queue and its CQ's doorbells, which STOP_RXTX must find unused before it answers.
 */
static struct mlxv_mp_gate mlx4v_mp_intr_gates[RTE_MAX_ETHPORTS];

/* The number of fds a port lends a secondary (the order above enum mlx4v_mp_op). */
static uint32_t
mlx4v_mp_nb_fds(const struct rte_eth_dev *eth_dev)
{
	uint32_t n = eth_dev->data->nb_tx_queues;

	if (eth_dev->data->dev_conf.intr_conf.rxq)
		n += 2u * eth_dev->data->nb_rx_queues;
	return n;
}

/* Primary: fd number i of the port and where it maps (the backend's fd). @return it/-errno. */
static int
mlx4v_mp_fd(struct rte_eth_dev *eth_dev, uint32_t i, int64_t *off)
{
	uint16_t ntx = eth_dev->data->nb_tx_queues, nrx = eth_dev->data->nb_rx_queues;
	const struct mlx4v_txq *txq;
	const struct mlx4v_rxq *rxq;
	struct mlx4v_cq_share sh;
	int ret;

	if (i < ntx) {
		txq = eth_dev->data->tx_queues[i];
		if (txq == NULL || txq->qp == NULL)
			return -EAGAIN;
		return mlx4v_qp_sdb_fd(txq->qp, off);
	}
	i -= ntx;
	rxq = eth_dev->data->rx_queues[i % nrx];
	if (rxq == NULL || rxq->cq == NULL)
		return -EAGAIN;
	ret = mlx4v_cq_share(rxq->cq, &sh);
	if (ret != 0)
		return ret;
	*off = i < nrx ? 0 : sh.uar_off;
	return i < nrx ? sh.event_fd : sh.uar_fd;
}

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
 * Primary: the port's fds first.. (at most RTE_MP_MAX_FD_NUM) into msg and their mmap
 * offsets into off; *last set when they reach the last one. @return 0 or -errno.
 */
static int
mlx4v_mp_db_fds(struct rte_eth_dev *eth_dev, uint32_t first, struct rte_mp_msg *msg,
		int64_t *off, uint32_t *last)
{
	uint32_t i, n = mlx4v_mp_nb_fds(eth_dev);
	int fd;

	msg->num_fds = 0;
	for (i = first; i < n && msg->num_fds < RTE_MP_MAX_FD_NUM; i++) {
		fd = mlx4v_mp_fd(eth_dev, i, &off[msg->num_fds]);
		if (fd < 0)
			return fd;
		msg->fds[msg->num_fds++] = fd;
	}
	*last = i >= n;
	return 0;
}

/* Secondary: the Rx interrupts' gate of the port on (1) or off (0), as the bursts'. */
static void
mlx4v_mp_intr_gate_set(struct rte_eth_dev *eth_dev, int on)
{
	struct mlxv_mp_gate *g = &mlx4v_mp_intr_gates[eth_dev->data->port_id];
	unsigned int i;

	if (on) {
		/* The handle's fds and the arm pages are in before a thread may enter. */
		__atomic_store_n(&g->on, 1, __ATOMIC_RELEASE);
		return;
	}
	__atomic_store_n(&g->on, 0, __ATOMIC_RELAXED);
	/* The closed gate is visible before the sequences are read (mlxv_mp_gate_enter()). */
	rte_smp_mb();
	for (i = 0; i < MLXV_MP_GATE_QUEUES; i++)
		mlxv_mp_gate_wait(&g->rx_seq[i]);
}

/* Secondary, at attach: the gate's queues, which never change (closed until a start). */
static void
mlx4v_mp_intr_gate_init(struct rte_eth_dev *eth_dev)
{
	struct mlxv_mp_gate *g = &mlx4v_mp_intr_gates[eth_dev->data->port_id];
	unsigned int i;

	for (i = 0; i < MLXV_MP_GATE_QUEUES; i++)
		g->rxq[i] = (struct mlxv_mp_gate_q){ g, eth_dev->data->port_id, i };
}

/*
 * Secondary ethdev rx_queue_intr_enable (on 1) / disable (on 0): inside the gate, on the
 * primary's queue and this process's fd and arm page. -EAGAIN: the port is stopped (or not
 * started yet in this process).
 */
static int
mlx4v_mp_rx_intr_set(struct rte_eth_dev *eth_dev, uint16_t idx, int on)
{
	struct mlxv_mp_gate *g = &mlx4v_mp_intr_gates[eth_dev->data->port_id];
	struct mlx4v_rxq *rxq;
	uint32_t s;
	int ret;

	if (idx >= MLXV_MP_GATE_QUEUES)
		return -EINVAL;
	rxq = mlxv_mp_gate_enter(&g->rxq[idx], 0, &s);
	ret = rxq != NULL ? mlx4v_intr_rxq_set(eth_dev, idx, rxq, on) : -EAGAIN;
	mlxv_mp_gate_leave(&g->rxq[idx], 0, s);
	return ret;
}

int
mlx4v_mp_rx_intr_enable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx4v_mp_rx_intr_set(eth_dev, idx, 1);
}

int
mlx4v_mp_rx_intr_disable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx4v_mp_rx_intr_set(eth_dev, idx, 0);
}

/*
 * Secondary: the port's bursts take the primary's queues (the doorbells are mapped), and its
 * Rx interrupts (the fds are in). @return 0 or -errno (nothing on).
 */
static int
mlx4v_mp_rxtx_on(struct rte_eth_dev *eth_dev)
{
	int ret = mlx4v_intr_secondary_rx_on(eth_dev);

	if (ret != 0)
		return ret;
	mlx4v_mp_intr_gate_set(eth_dev, 1);
	mlxv_mp_bursts_on(eth_dev, &mlx4v_mp_gates[eth_dev->data->port_id], mlx4v_rx_burst,
			  mlx4v_tx_burst, mlx4v_rx_queue_count);
	MLX4V_ETH_LOG(DEBUG, "port %u: data path on in this secondary process",
		      eth_dev->data->port_id);
	return 0;
}

/*
 * Secondary: the bursts return 0, Rx interrupt enable/disable -EAGAIN, none running when
 * this returns; then the Rx interrupts' fds and arm pages go (the Tx doorbell mappings stay
 * until the next start).
 */
static void
mlx4v_mp_rxtx_off(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_proc *pp = eth_dev->process_private;
	unsigned int i;

	mlxv_mp_bursts_off(eth_dev, &mlx4v_mp_gates[eth_dev->data->port_id]);
	mlx4v_mp_intr_gate_set(eth_dev, 0);
	mlx4v_intr_secondary_rx_off(eth_dev);
	for (i = 0; pp != NULL && i < RTE_DIM(pp->cq_map); i++) {
		if (pp->cq_map[i] != NULL)
			munmap(pp->cq_map[i], MLX4V_MP_DB_MAP_LEN);
		pp->cq_map[i] = NULL;
		pp->cq_uar[i] = NULL;
	}
	MLX4V_ETH_LOG(DEBUG, "port %u: data path off in this secondary process",
		      eth_dev->data->port_id);
}

/*
 * Secondary: map the page of fd at off (fd closed here) in place of *map, for the doorbell
 * at addr in the primary's page. A queue's old mapping goes: none uses it since the STOP
 * before this start. @return the doorbell in this process, or NULL with -errno in *ret.
 */
static void *
mlx4v_mp_page_map(int fd, int64_t off, void **map, const void *addr, int *ret)
{
	void *m = addr != NULL ? mmap(NULL, MLX4V_MP_DB_MAP_LEN, PROT_READ | PROT_WRITE,
				      MAP_SHARED, fd, (off_t)off) : MAP_FAILED;

	*ret = addr == NULL ? -EINVAL : -errno;
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	if (*map != NULL)
		munmap(*map, MLX4V_MP_DB_MAP_LEN);
	*map = m;
	/* The doorbell sits where it sits in the primary's page. */
	return (uint8_t *)m + ((uintptr_t)addr & (MLX4V_MP_DB_MAP_LEN - 1));
}

/* Close fds this process received and will not use. */
static void
mlx4v_mp_fds_close(const int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++)
		close(fds[i]);
}

/*
 * Secondary: take the port's fds first.. at off (order above enum mlx4v_mp_op): map the
 * doorbell pages (their fds closed), keep the CQ event fds in the interrupt handle.
 * @return 0/-errno (every fd taken or closed).
 */
static int
mlx4v_mp_db_map(struct rte_eth_dev *eth_dev, uint32_t first, const int *fds,
		const int64_t *off, int n)
{
	struct mlx4v_ethdev_proc *pp = eth_dev->process_private;
	uint32_t ntx = eth_dev->data->nb_tx_queues, nrx = eth_dev->data->nb_rx_queues, q;
	const struct mlx4v_txq *txq;
	const struct mlx4v_rxq *rxq;
	int i, ret = 0;

	for (i = 0; i < n; i++) {
		q = first + i;
		if (ret != 0 || q >= mlx4v_mp_nb_fds(eth_dev) || ntx > MLX4V_ETH_MAX_QUEUES ||
		    nrx > MLX4V_ETH_MAX_QUEUES) {
			ret = ret != 0 ? ret : -EINVAL;
			close(fds[i]);
		} else if (q < ntx) {
			txq = eth_dev->data->tx_queues[q];
			pp->sdb[q] = mlx4v_mp_page_map(fds[i], off[i], &pp->map[q],
						       txq != NULL ? txq->qpv.sdb : NULL, &ret);
			ret = pp->sdb[q] != NULL ? 0 : ret;
		} else if (q - ntx < nrx) {
			ret = mlx4v_intr_secondary_efd(eth_dev, q - ntx, fds[i]);
		} else {
			q -= ntx + nrx;
			rxq = eth_dev->data->rx_queues[q];
			pp->cq_uar[q] = mlx4v_mp_page_map(fds[i], off[i], &pp->cq_map[q],
							  rxq != NULL ? rxq->cqv.cq_uar : NULL,
							  &ret);
			ret = pp->cq_uar[q] != NULL ? 0 : ret;
		}
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
			rep->result = mlx4v_mp_rxtx_on(eth_dev);
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

	while (first < mlx4v_mp_nb_fds(eth_dev)) {
		mlx4v_mp_msg_init(&msg, MLX4V_MP_DB_GET, eth_dev, NULL);
		req = (void *)msg.param;
		req->first = first;
		memset(&answer, 0, sizeof(answer));
		ret = mlx4v_mp_send(eth_dev, &msg, &answer);
		if (ret < 0)
			return ret;
		rep = (const void *)answer.param;
		if (ret != 1 || rep->result != 0 || answer.num_fds == 0) {
			mlx4v_mp_fds_close(answer.fds, answer.num_fds);
			return ret != 1 ? -EPROTO : (rep->result != 0 ? rep->result : -EPROTO);
		}
		ret = mlx4v_mp_db_map(eth_dev, first, answer.fds, rep->off, answer.num_fds);
		if (ret != 0)
			return ret;
		first += answer.num_fds;
	}
	return mlx4v_mp_rxtx_on(eth_dev);
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
	ret = eth_dev->process_private == NULL ? -ENOMEM : mlx4v_intr_secondary_install(eth_dev);
	if (ret == 0) {
		mlx4v_mp_intr_gate_init(eth_dev);
		ret = mlx4v_mp_primary_get();
		if (ret != 0)
			mlx4v_intr_secondary_uninstall(eth_dev);
	}
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
	mlx4v_intr_secondary_uninstall(eth_dev);
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
