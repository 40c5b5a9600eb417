/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Multi-process side of the mlx5v PMD. A secondary process attaches to the ports the
 * primary made (shared ethdev data, queues in EAL memory) and runs the bursts on the queues
 * the primary configured. Only the primary owns the device's command queue: what needs a
 * command (the live Q counter, a mempool's DMA mapping) is asked of it over EAL IPC, and it
 * tells the secondaries when a port starts (with the UAR page to ring: a file descriptor on
 * the simulator, its BAR0 offset on vfio-pci, where each process maps BAR0, and with Rx
 * interrupts each Rx queue's event fd, RTE_MP_MAX_FD_NUM at a time) and stops, as DPDK mlx5
 * does (doc/guides/nics/mlx5v.rst, "Secondary processes").
 */

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mempool.h>
#include <rte_string_fns.h>

#include "mlx5v_ethdev.h"
#include "mlxv_mp_bursts.h"
#include "rte_pmd_mlx5v.h"

/** The IPC action of the PMD (one per process, shared by its ports). */
#define MLX5V_MP_ACTION "net_mlx5v_mp"
/** How long a secondary waits for the primary's answer. */
#define MLX5V_MP_TIMEOUT_S 5
/* A request the primary answered this late (ms) is logged: its IPC thread was held up. */
#define MLX5V_MP_SLOW_MS 1000

/** Bytes of the UAR page a secondary maps (the doorbells are in its first 4 KiB). */
#define MLX5V_MP_UAR_MAP_LEN 4096

enum mlx5v_mp_op {
	MLX5V_MP_OOB_LIVE = 1,   /**< to the primary: the live out_of_buffer of the Q counter */
	MLX5V_MP_UAR_GET,        /**< to the primary: the started port's UAR page (an fd) */
	MLX5V_MP_POOL_MAP,       /**< to the primary: map a mempool for the port's DMA */
	MLX5V_MP_START_RXTX,     /**< to the secondaries: the port started, its UAR page */
	MLX5V_MP_STOP_RXTX,      /**< to the secondaries: the port stops */
	MLX5V_MP_RXQ_EFDS_GET,   /**< to the primary: the event fds of Rx queues first.. */
	MLX5V_MP_RXQ_EFDS,       /**< to the secondaries: the event fds of Rx queues first.. */
};

struct mlx5v_mp_req {
	uint32_t op;
	char name[RTE_DEV_NAME_MAX_LEN];   /**< the port's device name */
	char pool[RTE_MEMPOOL_NAMESIZE];   /**< MLX5V_MP_POOL_MAP: the mempool's name */
	uint64_t uar_off;                  /**< MLX5V_MP_START_RXTX: the UAR page in BAR0 */
	uint16_t first;                    /**< MLX5V_MP_RXQ_EFDS*: the first queue's fd */
	uint16_t n_q;                      /**< MLX5V_MP_RXQ_EFDS: the queues with one */
};

struct mlx5v_mp_reply {
	int32_t result;                    /**< 0 or -errno */
	uint64_t value;                    /**< UAR_GET: the UAR page in BAR0; EFDS_GET: n_q */
};

static_assert(sizeof(struct mlx5v_mp_req) <= RTE_MP_MAX_PARAM_LEN, "IPC request too long");
static_assert(sizeof(struct mlx5v_mp_reply) <= RTE_MP_MAX_PARAM_LEN, "IPC reply too long");

static int mlx5v_mp_handle(const struct rte_mp_msg *msg, const void *peer);

/* The action, used by the ports of this process (a primary's, or a secondary's). */
static struct mlxv_mp_action mlx5v_mp_action = {
	.name = MLX5V_MP_ACTION,
	.handler = mlx5v_mp_handle,
};

/*
 * The seam of a secondary on a page the primary passed as a file descriptor: no backend
 * operation (the model and the device's registers stay with the primary), so a doorbell is
 * the store into the mapped UAR page alone.
 */
static const struct mlx5v_hw_ops mlx5v_mp_hw_ops;
static struct mlx5v_hw mlx5v_mp_hw = { .ops = &mlx5v_mp_hw_ops };

/*
 * A secondary's gates of the ports' bursts, by port id: never freed, as an lcore of the
 * process may hold a queue of one at any time (mlxv_mp_bursts.h).
 */
static struct mlxv_mp_gate mlx5v_mp_gates[RTE_MAX_ETHPORTS];

/*
 * Primary: one tell to the secondaries at a time. EAL refuses a second synchronous request
 * of the same action to the same peer while one waits (EEXIST), and a port's death stops
 * the secondaries from the interrupt thread while an application thread may stop or start
 * another port: the second must wait, not be dropped.
 */
static pthread_mutex_t mlx5v_mp_tell_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Primary: the port's UAR page, which exists from the start's objects (before ethdev marks
 * the port started) to the stop: *off gets its BAR0 offset. @return its fd (the backend's),
 * -ENOTSUP where each process maps BAR0 itself (vfio-pci), or another -errno.
 */
static int
mlx5v_mp_uar_fd(struct rte_eth_dev *eth_dev, uint64_t *off)
{
	struct rte_pmd_mlx5v_uar *uar = mlx5v_ethdev_uar(eth_dev);
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	if (dev == NULL || uar == NULL)
		return -EAGAIN;
	*off = mlx5v_hw_uar_off(mlx5v_dev_hw(dev), uar->page_id);
	return mlx5v_hw_uar_fd(mlx5v_dev_hw(dev), uar->page_id);
}

/* Primary: the port heard its device's death (mlx5v_ethdev.c), and no reset since. */
static int
mlx5v_mp_port_dead(const struct rte_eth_dev *eth_dev)
{
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;

	return __atomic_load_n(&priv->dead, __ATOMIC_ACQUIRE);
}

/* Primary: a mempool of the shared memory, by name, mapped for the port's DMA. */
static int
mlx5v_mp_pool_map_local(struct rte_eth_dev *eth_dev, const struct mlx5v_mp_req *req)
{
	char pool[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *mp;

	strlcpy(pool, req->pool, sizeof(pool));
	mp = rte_mempool_lookup(pool);
	if (mp == NULL)
		return -ENOENT;
	return mlx5v_mem_pool_map(eth_dev, mp);
}

/*
 * Secondary: the port's bursts from the primary's queues, ringing the UAR page of fd (mapped
 * here; the fd is closed), or without one (fd < 0) the page at BAR0 offset off through this
 * process's own seam of the device (vfio-pci: the BAR EAL mapped here). The old mapping, if
 * any, goes: no burst uses it since the STOP that came before this start. @return 0 or -errno.
 */
static int
mlx5v_mp_rxtx_install(struct rte_eth_dev *eth_dev, int fd, uint64_t off)
{
	struct mlx5v_ethdev_proc *pp = eth_dev->process_private;
	struct mlx5v_hw *hw = &mlx5v_mp_hw;
	const struct mlx5v_txq *txq;
	void *map = NULL, *page;
	uint16_t i;

	if (fd >= 0) {
		map = mmap(NULL, MLX5V_MP_UAR_MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
		if (map == MAP_FAILED)
			return -errno;
		page = map;
	} else {
		hw = mlx5v_hw_lookup(rte_dev_name(eth_dev->device));
		page = hw != NULL ? mlx5v_hw_uar_at(hw, off) : NULL;
		if (page == NULL)
			return hw != NULL ? -EINVAL : -ENOTSUP;
	}
	if (pp->uar_map != NULL)
		munmap(pp->uar_map, MLX5V_MP_UAR_MAP_LEN);
	pp->uar_map = map;
	pp->uar = page;
	pp->hw = hw;
	for (i = 0; i < RTE_DIM(pp->db); i++) {
		txq = i < eth_dev->data->nb_tx_queues ? eth_dev->data->tx_queues[i] : NULL;
		pp->db[i] = txq != NULL ? (uint8_t *)page + txq->db_off : NULL;
	}
	mlxv_mp_bursts_on(eth_dev, &mlx5v_mp_gates[eth_dev->data->port_id], mlx5v_rx_burst,
			  mlx5v_tx_burst_pick(eth_dev), NULL);
	MLX5V_ETH_LOG(DEBUG, "port %u: data path on in this secondary process",
		      eth_dev->data->port_id);
	return 0;
}

/*
 * Secondary: the port's bursts return 0; the mapping stays for a burst still running. The
 * gate also closes the Rx interrupt calls, then the queues' event fds go (mlx5v_intr.c).
 */
static void
mlx5v_mp_rxtx_stop(struct rte_eth_dev *eth_dev)
{
	mlxv_mp_bursts_off(eth_dev, &mlx5v_mp_gates[eth_dev->data->port_id]);
	mlx5v_intr_secondary_clear(eth_dev);
	MLX5V_ETH_LOG(DEBUG, "port %u: data path off in this secondary process",
		      eth_dev->data->port_id);
}

/*
 * Primary: the event fds of the started port's Rx queues first.. (at most RTE_MP_MAX_FD_NUM)
 * into msg; *n_q: the queues with one (0: no Rx interrupts). @return 0 or -errno.
 */
static int
mlx5v_mp_efds(struct rte_eth_dev *eth_dev, uint16_t first, struct rte_mp_msg *msg,
	      uint16_t *n_q)
{
	uint16_t q;
	int fd;

	msg->num_fds = 0;
	mlx5v_intr_rxq_fd(eth_dev, 0, n_q);
	if (first > *n_q)
		return -EINVAL;
	for (q = first; q < *n_q && msg->num_fds < RTE_MP_MAX_FD_NUM; q++) {
		fd = mlx5v_intr_rxq_fd(eth_dev, q, n_q);
		if (fd < 0)
			return -EAGAIN;
		msg->fds[msg->num_fds++] = fd;
	}
	return 0;
}

/*
 * Secondary: an Rx interrupt call (enable 1: arm, 0: ack) on queue idx, inside the queue's
 * gate (mlxv_mp_bursts.h): the primary frees none of what it reaches before every lcore of
 * this process has left. @return 0 or -errno (-EAGAIN: the port is not started).
 */
static int
mlx5v_mp_rx_intr(struct rte_eth_dev *eth_dev, uint16_t idx, int enable)
{
	struct mlxv_mp_gate *g = &mlx5v_mp_gates[eth_dev->data->port_id];
	struct mlx5v_ethdev_proc *pp = eth_dev->process_private;
	struct mlx5v_rxq *rxq;
	uint32_t s;
	int ret;

	if (!eth_dev->data->dev_conf.intr_conf.rxq)
		return -ENOTSUP;
	/* The gate's queues exist from the first start this process saw. */
	if (idx >= MLXV_MP_GATE_QUEUES || g->rxd[idx] == NULL)
		return -EAGAIN;
	rxq = mlxv_mp_gate_enter(&g->rxq[idx], 0, &s);
	if (rxq == NULL)
		ret = -EAGAIN;
	else if (enable)
		ret = mlx5v_intr_rxq_arm(rxq, pp->hw, pp->uar);
	else
		ret = mlx5v_intr_rxq_ack(rxq, pp->hw, pp->uar,
					 mlx5v_intr_secondary_fd(eth_dev, idx));
	mlxv_mp_gate_leave(&g->rxq[idx], 0, s);
	return ret;
}

int
mlx5v_mp_rx_intr_enable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx5v_mp_rx_intr(eth_dev, idx, 1);
}

int
mlx5v_mp_rx_intr_disable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx5v_mp_rx_intr(eth_dev, idx, 0);
}

/* EAL IPC thread of either process: answer one request. */
static int
mlx5v_mp_handle(const struct rte_mp_msg *msg, const void *peer)
{
	const struct mlx5v_mp_req *req = (const void *)msg->param;
	int primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	struct mlx5v_mp_reply *rep;
	struct rte_eth_dev *eth_dev;
	uint64_t t0 = rte_get_timer_cycles();
	struct rte_mp_msg out;
	uint16_t n_q = 0;
	uint64_t ms;
	int fd;

	memset(&out, 0, sizeof(out));
	strlcpy(out.name, msg->name, sizeof(out.name));
	out.len_param = sizeof(*rep);
	rep = (void *)out.param;
	if (msg->len_param != sizeof(*req)) {
		rep->result = -EINVAL;
		goto reply;
	}
	eth_dev = mlxv_mp_port(req->name);
	if (eth_dev == NULL) {
		rep->result = -ENODEV;
		/* A received descriptor is this process's to close. */
		for (fd = 0; fd < msg->num_fds; fd++)
			close(msg->fds[fd]);
		goto reply;
	}
	switch (primary ? req->op : -req->op) {
	case MLX5V_MP_OOB_LIVE:
		/*
		 * EAL's IPC thread answers every process's requests, EAL's own too: take the
		 * command back by its owner bit instead of waiting for its event through the
		 * interrupt thread, whose alarms must not hold every other request behind this.
		 */
		mlx5v_cmd_poll_begin(mlx5v_ethdev_core(eth_dev));
		rep->result = mlx5v_stats_oob_live(eth_dev, &rep->value);
		mlx5v_cmd_poll_end();
		break;
	case MLX5V_MP_UAR_GET:
		/*
		 * A port being started tells the secondaries itself once its queues exist; a
		 * dead one's rings go with the recovery: its next start tells them.
		 */
		fd = eth_dev->data->dev_started && !mlx5v_mp_port_dead(eth_dev) ?
		     mlx5v_mp_uar_fd(eth_dev, &rep->value) : -EAGAIN;
		rep->result = fd < 0 && fd != -ENOTSUP ? fd : 0;
		if (fd >= 0) {
			out.num_fds = 1;
			out.fds[0] = fd;
		}
		break;
	case MLX5V_MP_POOL_MAP:
		rep->result = mlx5v_mp_pool_map_local(eth_dev, req);
		break;
	case MLX5V_MP_RXQ_EFDS_GET:
		/* The primary's own fds: the secondary receives duplicates (SCM_RIGHTS). */
		rep->result = eth_dev->data->dev_started ?
			      mlx5v_mp_efds(eth_dev, req->first, &out, &n_q) : -EAGAIN;
		rep->value = n_q;
		if (rep->result != 0)
			out.num_fds = 0;
		break;
	case -MLX5V_MP_RXQ_EFDS:
		rep->result = mlx5v_intr_secondary_efds(eth_dev, req->first, msg->fds,
							msg->num_fds, req->n_q);
		break;
	case -MLX5V_MP_START_RXTX:
		rep->result = msg->num_fds <= 1 ?
			      mlx5v_mp_rxtx_install(eth_dev, msg->num_fds == 1 ? msg->fds[0] : -1,
						    req->uar_off) : -EINVAL;
		break;
	case -MLX5V_MP_STOP_RXTX:
		mlx5v_mp_rxtx_stop(eth_dev);
		rep->result = 0;
		break;
	default:
		rep->result = -EINVAL;
		for (fd = 0; fd < msg->num_fds; fd++)
			close(msg->fds[fd]);
		break;
	}
reply:
	/* The other processes' requests waited meanwhile: say so when that was long. */
	ms = (rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz();
	if (ms >= MLX5V_MP_SLOW_MS && msg->len_param == sizeof(*req))
		MLX5V_ETH_LOG(WARNING, "IPC request %u about %.*s took %" PRIu64 " ms",
			      req->op, (int)sizeof(req->name), req->name, ms);
	return rte_mp_reply(&out, peer);
}

int
mlx5v_mp_action_get(void)
{
	int ret = mlxv_mp_action_get(&mlx5v_mp_action);

	if (ret != 0)
		MLX5V_ETH_LOG(ERR, "cannot register the IPC action %s: %s", MLX5V_MP_ACTION,
			      rte_strerror(-ret));
	return ret;
}

void
mlx5v_mp_action_put(void)
{
	mlxv_mp_action_put(&mlx5v_mp_action);
}

/* A request op about the port named name (the pool's name or NULL). */
static void
mlx5v_mp_msg_init(struct rte_mp_msg *msg, uint32_t op, const char *name, const char *pool)
{
	struct mlx5v_mp_req *req = (void *)msg->param;

	memset(msg, 0, sizeof(*msg));
	strlcpy(msg->name, MLX5V_MP_ACTION, sizeof(msg->name));
	msg->len_param = sizeof(*req);
	req->op = op;
	strlcpy(req->name, name, sizeof(req->name));
	if (pool != NULL)
		strlcpy(req->pool, pool, sizeof(req->pool));
}

/*
 * Ask the other side op about the port (first: the request's first queue); the reply's value
 * and fds (at most *nfd, -1 each without; *nfd set to those received) if asked. From the
 * secondary to the primary. @return the answer's result, or -errno.
 */
static int
mlx5v_mp_ask(struct rte_eth_dev *eth_dev, uint32_t op, const char *pool, uint16_t first,
	     uint64_t *value, int *fd, int *nfd)
{
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct timespec ts = { .tv_sec = MLX5V_MP_TIMEOUT_S };
	const struct mlx5v_mp_reply *rep;
	struct rte_mp_reply reply;
	struct rte_mp_msg msg;
	int i, n, ret;

	for (i = 0; fd != NULL && i < *nfd; i++)
		fd[i] = -1;
	mlx5v_mp_msg_init(&msg, op, priv->name, pool);
	((struct mlx5v_mp_req *)msg.param)->first = first;
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
		if (ret == 0 && value != NULL)
			*value = rep->value;
	}
	/* Every descriptor received is this process's: those asked for are kept. */
	n = 0;
	for (i = 0; reply.nb_received == 1 && i < reply.msgs[0].num_fds; i++) {
		if (ret == 0 && fd != NULL && i < *nfd)
			fd[n++] = reply.msgs[0].fds[i];
		else
			close(reply.msgs[0].fds[i]);
	}
	if (nfd != NULL)
		*nfd = n;
	free(reply.msgs);
	return ret;
}

int
mlx5v_mp_oob_live(struct rte_eth_dev *eth_dev, uint64_t *value)
{
	return mlx5v_mp_ask(eth_dev, MLX5V_MP_OOB_LIVE, NULL, 0, value, NULL, NULL);
}

int
mlx5v_mp_pool_map(struct rte_eth_dev *eth_dev, struct rte_mempool *mp)
{
	return mlx5v_mp_ask(eth_dev, MLX5V_MP_POOL_MAP, mp->name, 0, NULL, NULL, NULL);
}

/*
 * Primary: tell every secondary op about the port, with fd (or -1) and the UAR page's BAR0
 * offset off, or with the fds msg already holds (a batch of MLX5V_MP_RXQ_EFDS, NULL: none).
 * @return the number of secondaries that answered (0 without IPC).
 */
static unsigned int
mlx5v_mp_tell(struct rte_eth_dev *eth_dev, uint32_t op, int fd, uint64_t off,
	      struct rte_mp_msg *batch)
{
	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct timespec ts = { .tv_sec = MLX5V_MP_TIMEOUT_S };
	const struct mlx5v_mp_reply *rep;
	struct rte_mp_reply reply;
	struct rte_mp_msg msg;
	int i, ret;

	if (!mlx5v_mp_action.registered)
		return 0;
	if (batch != NULL)
		msg = *batch;
	else
		mlx5v_mp_msg_init(&msg, op, priv->name, NULL);
	((struct mlx5v_mp_req *)msg.param)->uar_off = off;
	if (fd >= 0) {
		msg.num_fds = 1;
		msg.fds[0] = fd;
	}
	pthread_mutex_lock(&mlx5v_mp_tell_lock);
	/*
	 * A start that raced with the device's death: the death's STOP_RXTX went out first or
	 * comes after this, and the secondaries must not run on rings the recovery frees.
	 */
	if (op == MLX5V_MP_START_RXTX && mlx5v_mp_port_dead(eth_dev)) {
		pthread_mutex_unlock(&mlx5v_mp_tell_lock);
		return 0;
	}
	ret = rte_mp_request_sync(&msg, &reply, &ts);
	pthread_mutex_unlock(&mlx5v_mp_tell_lock);
	if (ret != 0) {
		MLX5V_ETH_LOG(WARNING, "port %u: cannot reach the secondary processes: %s",
			      eth_dev->data->port_id, rte_strerror(rte_errno));
		return 0;
	}
	for (i = 0; i < reply.nb_received; i++) {
		rep = (const void *)reply.msgs[i].param;
		if (reply.msgs[i].len_param == sizeof(*rep) && rep->result != 0 &&
		    rep->result != -ENODEV)
			MLX5V_ETH_LOG(WARNING, "port %u: a secondary process failed %s: %s",
				      eth_dev->data->port_id,
				      op == MLX5V_MP_STOP_RXTX ? "to stop" : "to start",
				      strerror(-rep->result));
	}
	if (reply.nb_sent != reply.nb_received)
		MLX5V_ETH_LOG(WARNING, "port %u: %d of %d secondary processes did not answer",
			      eth_dev->data->port_id, reply.nb_sent - reply.nb_received,
			      reply.nb_sent);
	free(reply.msgs);
	return reply.nb_received;
}

void
mlx5v_mp_start_rxtx(struct rte_eth_dev *eth_dev)
{
	uint64_t off = 0;
	int fd = mlx5v_mp_uar_fd(eth_dev, &off);

	const struct mlx5v_ethdev_priv *priv = eth_dev->data->dev_private;
	struct rte_mp_msg batch;
	struct mlx5v_mp_req *req;
	uint16_t first = 0, n_q = 0;

	/* Without the page, secondaries stay off; without its fd, they map their BAR0. */
	if (fd < 0 && fd != -ENOTSUP) {
		MLX5V_ETH_LOG(DEBUG, "port %u: no data path for secondary processes: %s",
			      eth_dev->data->port_id, strerror(-fd));
		return;
	}
	/* The Rx queues' event fds first, RTE_MP_MAX_FD_NUM at a time; the bursts after. */
	do {
		mlx5v_mp_msg_init(&batch, MLX5V_MP_RXQ_EFDS, priv->name, NULL);
		req = (void *)batch.param;
		if (mlx5v_mp_efds(eth_dev, first, &batch, &n_q) != 0 || n_q == 0)
			break;
		req->first = first;
		req->n_q = n_q;
		mlx5v_mp_tell(eth_dev, MLX5V_MP_RXQ_EFDS, -1, 0, &batch);
		first += batch.num_fds;
	} while (first < n_q);
	mlx5v_mp_tell(eth_dev, MLX5V_MP_START_RXTX, fd, off, NULL);
}

void
mlx5v_mp_stop_rxtx(struct rte_eth_dev *eth_dev)
{
	/*
	 * A secondary answers once no lcore of its is in the port's bursts (its gate,
	 * mlxv_mp_bursts.h): no grace period, which a descheduled lcore could outlast.
	 */
	mlx5v_mp_tell(eth_dev, MLX5V_MP_STOP_RXTX, -1, 0, NULL);
}

void
mlx5v_mp_dead(struct rte_eth_dev *eth_dev)
{
	unsigned int n = mlx5v_mp_tell(eth_dev, MLX5V_MP_STOP_RXTX, -1, 0, NULL);

	if (n > 0)
		MLX5V_ETH_LOG(NOTICE, "port %u: the device died: the bursts of %u secondary "
			      "process(es) stopped", eth_dev->data->port_id, n);
}

/* Secondary, port started at attach: the event fds of its Rx queues, batch by batch. */
static int
mlx5v_mp_secondary_efds(struct rte_eth_dev *eth_dev)
{
	int fds[RTE_MP_MAX_FD_NUM];
	uint16_t first = 0;
	uint64_t n_q = 0;
	int n, ret;

	do {
		n = RTE_MP_MAX_FD_NUM;
		ret = mlx5v_mp_ask(eth_dev, MLX5V_MP_RXQ_EFDS_GET, NULL, first, &n_q, fds, &n);
		if (ret == 0 && n_q == 0)
			return 0;
		if (ret == 0 && n == 0)
			ret = -EPROTO;
		if (ret == 0)
			ret = mlx5v_intr_secondary_efds(eth_dev, first, fds, n, (uint16_t)n_q);
		first += n;
	} while (ret == 0 && first < n_q);
	return ret;
}

int
mlx5v_mp_secondary_attach(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_ethdev_proc *pp;
	uint64_t off = 0;
	int fd, n, ret;

	pp = calloc(1, sizeof(*pp));
	if (pp == NULL)
		return -ENOMEM;
	pp->hw = &mlx5v_mp_hw;
	eth_dev->process_private = pp;
	eth_dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	/* Its own handle, which the Rx queues' event fds from the primary go into. */
	ret = mlx5v_intr_secondary_init(eth_dev);
	if (ret != 0)
		goto err_free;
	/* The primary's START and STOP of the port come through the action. */
	ret = mlx5v_mp_action_get();
	if (ret != 0)
		goto err_intr;
	if (!eth_dev->data->dev_started)
		return 0;
	/* Started already: this process takes the event fds and maps the UAR page now. */
	ret = mlx5v_mp_secondary_efds(eth_dev);
	if (ret != 0)
		MLX5V_ETH_LOG(WARNING, "port %u: no Rx interrupts in this secondary process: %s",
			      eth_dev->data->port_id, strerror(-ret));
	n = 1;
	ret = mlx5v_mp_ask(eth_dev, MLX5V_MP_UAR_GET, NULL, 0, &off, &fd, &n);
	if (ret == 0)
		ret = mlx5v_mp_rxtx_install(eth_dev, n == 1 ? fd : -1, off);
	if (ret == 0)
		return 0;
	/* The port is still usable for reading; its bursts return 0 until the next start. */
	MLX5V_ETH_LOG(WARNING, "port %u: no data path in this secondary process: %s",
		      eth_dev->data->port_id, strerror(-ret));
	return 0;
err_intr:
	mlx5v_intr_secondary_cleanup(eth_dev);
err_free:
	eth_dev->process_private = NULL;
	free(pp);
	return ret;
}

void
mlx5v_mp_secondary_detach(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_ethdev_proc *pp = eth_dev->process_private;

	if (pp == NULL)
		return;
	mlx5v_mp_rxtx_stop(eth_dev);
	mlx5v_mp_action_put();
	mlx5v_intr_secondary_cleanup(eth_dev);
	if (pp->uar_map != NULL)
		munmap(pp->uar_map, MLX5V_MP_UAR_MAP_LEN);
	eth_dev->process_private = NULL;
	free(pp);
}
