/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Interrupts of the mlx4v PMD: Rx queue interrupts by CQ arm (the CQ views' arm_db and the
 * completion event fd of each Rx queue's CQ in the port's interrupt handle), link state
 * change and removal events from the mlx4v core's class events
 * (doc/guides/nics/mlx4v.rst, "Interrupts").
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <ethdev_driver.h>
#include <rte_errno.h>
#include <rte_interrupts.h>

#include "mlx4v_api.h"
#include "mlx4v_ethdev.h"
#include "rte_pmd_mlx4v_rawdp.h"
#include "mlxv_ethdev_intr.h"

/*
 * Interrupt state of a port, process-local: the primary's (only it hears the device), or a
 * secondary's handle of the Rx queue events the primary lent it (mlx4v_mp.c).
 */
struct mlx4v_intr {
	struct mlxv_intr_events ev;      /* link and removal events for the alarm */
	int lsc_status;                  /* link status the application last heard of */
	struct rte_intr_handle *ih;      /* eth_dev->intr_handle */
	uint16_t nb_rxq;                 /* Rx queue events in the handle (0: none) */
};

/* Never freed: an event that races with close finds valid memory (ev.active says more). */
static struct mlx4v_intr intr_ports[RTE_MAX_ETHPORTS];

static struct mlx4v_intr *
intr_of(const struct rte_eth_dev *eth_dev)
{
	uint16_t port = eth_dev->data->port_id;

	return port < RTE_MAX_ETHPORTS ? &intr_ports[port] : NULL;
}

/* ---------------------------------------------------------------- LSC and RMV */

/*
 * EAL interrupt thread: the application's callbacks run here, never on the thread that
 * reported the event (the simulator's engine or a caller of its link API, with the class
 * registry locked: a callback that detaches the device there would deadlock). The link
 * itself was stored when the event came.
 */
static void
intr_event_alarm(void *arg)
{
	struct mlx4v_intr *p = arg;
	struct rte_eth_dev *eth_dev = &rte_eth_devices[p - intr_ports];
	struct mlxv_intr_taken t;
	int old;

	mlxv_intr_events_take(&p->ev, &t);
	/* Uninstall waits for this callback (rte_eal_alarm_cancel()): eth_dev is still ours. */
	if (!t.active)
		return;
	old = p->lsc_status;
	p->lsc_status = eth_dev->data->dev_link.link_status;
	if (mlxv_intr_lsc_due(eth_dev, &t, old))
		rte_eth_dev_callback_process(eth_dev, RTE_ETH_EVENT_INTR_LSC, NULL);
	mlxv_intr_rmv_raise(eth_dev, t.dead);
}

/* Record a port event (dead 0) or the device's end (dead 1) for the alarm. Any thread. */
static void
intr_event_post(struct rte_eth_dev *eth_dev, int dead, int up)
{
	struct mlx4v_intr *p = intr_of(eth_dev);

	if (p != NULL && mlxv_intr_events_post(&p->ev, dead, !up, intr_event_alarm, p) != 0)
		MLX4V_ETH_LOG(ERR, "port %u: cannot schedule the event alarm",
			      eth_dev->data->port_id);
}

void
mlx4v_intr_port_event(struct rte_eth_dev *eth_dev, int up)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);

	/*
	 * The event carries the state (port active / port down): the link is right when the
	 * report returns, with or without intr_conf.lsc. rte_eth_linkstatus_set() is one atomic
	 * store, safe on the reporting thread; the speed stays what the port last gave.
	 */
	__atomic_store_n(&priv->link_up, !!up, __ATOMIC_RELEASE);
	mlx4v_ethdev_link_publish(eth_dev, 0);
	intr_event_post(eth_dev, 0, up);
}

void
mlx4v_intr_dead_event(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_ethdev_priv *priv = mlx4v_priv(eth_dev);

	/* Control calls fail fast from here on; the link reads down. */
	__atomic_store_n(&priv->dead, 1, __ATOMIC_RELEASE);
	mlx4v_ethdev_link_publish(eth_dev, 0);
	intr_event_post(eth_dev, 1, 0);
}

int
mlx4v_intr_install(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_intr *p = intr_of(eth_dev);

	if (p == NULL)
		return -EINVAL;
	/*
	 * EXT: EAL never reads the fds. They are the Rx queue CQs' completion event fds; the
	 * PMD takes their events with rte_pmd_mlx4v_get_cq_event().
	 */
	p->ih = mlxv_intr_handle_alloc();
	if (p->ih == NULL)
		return -rte_errno;
	p->nb_rxq = 0;
	p->lsc_status = mlx4v_priv(eth_dev)->link_up ? RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	mlxv_intr_events_start(&p->ev);
	mlx4v_priv(eth_dev)->intr = p;
	eth_dev->intr_handle = p->ih;
	eth_dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC | RTE_ETH_DEV_INTR_RMV;
	return 0;
}

void
mlx4v_intr_uninstall(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_intr *p = intr_of(eth_dev);

	if (p == NULL || p->ih == NULL || eth_dev->intr_handle != p->ih)
		return;
	mlx4v_intr_rx_destroy(eth_dev);
	mlxv_intr_events_stop(&p->ev, intr_event_alarm, p);
	mlx4v_priv(eth_dev)->intr = NULL;
	eth_dev->intr_handle = NULL;
	rte_intr_instance_free(p->ih);
	p->ih = NULL;
}

/* ---------------------------------------------------------------- Rx queue interrupts */

/*
 * Take every completion event the queue's CQ has raised and acknowledge them: each one moves
 * the arm sequence number on, which the next arm must carry (prm/mlx4 §4.8; the simulator
 * ignores an arm with the number that already fired). A secondary reads its copy of the
 * CQ's event fd; the primary acknowledges what it took before the CQ goes. The lcore of the
 * queue's interrupt, or stop. @return events taken, or -errno.
 */
static int
intr_rxq_take_events(struct rte_eth_dev *eth_dev, struct mlx4v_rxq *rxq, uint16_t q)
{
	struct mlx4v_intr *p = intr_of(eth_dev);
	int n = 0, ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		n = mlx4v_cq_events_read(rte_intr_efds_index_get(p->ih, q), rxq->intr_desc);
		if (n <= 0)
			return n;
		rxq->arm_sn += n;
		/* Counted after the read: the primary acks no more than were read. */
		__atomic_fetch_add(&rxq->intr_foreign, n, __ATOMIC_RELEASE);
		return n;
	}
	while ((ret = rte_pmd_mlx4v_get_cq_event(rxq->cq)) == 0)
		n++;
	if (n > 0) {
		rxq->arm_sn += n;
		if (rte_pmd_mlx4v_ack_cq_events(rxq->cq, n) != 0)
			return -rte_errno;
	}
	return ret == EAGAIN ? n : -ret;
}

void
mlx4v_intr_rx_destroy(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_intr *p = intr_of(eth_dev);
	struct mlx4v_ethdev_proc *pp = eth_dev->process_private;
	uint32_t foreign;
	uint16_t q;

	if (p == NULL || p->ih == NULL || p->nb_rxq == 0)
		return;
	/* The applications' epoll registrations name the CQs' fds, which go with the CQs. */
	mlxv_intr_rxq_vec_clear(p->ih);
	for (q = 0; q < p->nb_rxq; q++) {
		struct mlx4v_rxq *rxq = q < eth_dev->data->nb_rx_queues ?
					eth_dev->data->rx_queues[q] : NULL;

		rte_intr_efds_index_set(p->ih, q, -1);
		if (pp != NULL)
			pp->cq_uar[q] = NULL;
		if (rxq == NULL || rxq->cq == NULL)
			continue;
		/*
		 * What the secondaries read (none reads any more: they answered STOP_RXTX), then
		 * what is left: an event left unacknowledged would make the CQ's destroy refuse
		 * (EBUSY), or on rdma-core wait for ever.
		 */
		foreign = __atomic_exchange_n(&rxq->intr_foreign, 0, __ATOMIC_ACQUIRE);
		if (mlx4v_cq_events_foreign(rxq->cq, foreign) != 0 ||
		    intr_rxq_take_events(eth_dev, rxq, q) < 0)
			MLX4V_ETH_LOG(ERR, "port %u Rx queue %u: completion events not taken: %s",
				      eth_dev->data->port_id, q, rte_strerror(rte_errno));
		rxq->intr_enabled = 0;
	}
	p->nb_rxq = 0;
}

int
mlx4v_intr_rx_create(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_intr *p = intr_of(eth_dev);
	struct mlx4v_ethdev_proc *pp = eth_dev->process_private;
	uint16_t n = eth_dev->data->nb_rx_queues, q;
	struct mlx4v_cq_share sh;
	int fd, ret = 0;

	if (!eth_dev->data->dev_conf.intr_conf.rxq)
		return 0;
	if (p == NULL || p->ih == NULL || pp == NULL)
		return -ENODEV;
	if (n > MLX4V_ETH_MAX_QUEUES)
		return -ERANGE;
	for (q = 0; q < n; q++) {
		struct mlx4v_rxq *rxq = eth_dev->data->rx_queues[q];

		if (rxq == NULL || rxq->cq == NULL || !rxq->with_events ||
		    rxq->cqv.cq_uar == NULL) {
			MLX4V_ETH_LOG(ERR, "port %u Rx queue %u: its CQ has no completion events "
				      "or arm doorbell", eth_dev->data->port_id, q);
			ret = -EINVAL;
			break;
		}
		fd = rte_pmd_mlx4v_cq_event_fd(rxq->cq);
		if (fd < 0) {
			ret = -rte_errno;
			break;
		}
		/* The view's number is the CQ's: libmlx4 and the device start it at 1. */
		rxq->arm_sn = (uint32_t)rxq->cqv.arm_sn;
		rxq->intr_enabled = 0;
		rxq->intr_armed = 0;
		rxq->intr_foreign = 0;
		/* The format a secondary reads the fd in; no backend to lend it: no matter. */
		rxq->intr_desc = mlx4v_cq_share(rxq->cq, &sh) == 0 && sh.desc;
		pp->cq_uar[q] = rxq->cqv.cq_uar;
		p->nb_rxq = q + 1;
		if (rte_intr_efds_index_set(p->ih, q, fd) != 0) {
			ret = -rte_errno;
			break;
		}
	}
	if (ret == 0)
		ret = mlxv_intr_rxq_vec_set(p->ih, n);
	if (ret != 0) {
		MLX4V_ETH_LOG(ERR, "port %u: Rx interrupts: %s", eth_dev->data->port_id,
			      strerror(-ret));
		mlx4v_intr_rx_destroy(eth_dev);
		return ret;
	}
	return 0;
}

/*
 * Arm the CQ of Rx queue idx (rxq) from this process's page of its doorbell, unless still
 * armed. An event not taken yet (enable twice, no disable between) fired with our number:
 * taken first.
 */
static int
intr_rxq_enable(struct rte_eth_dev *eth_dev, uint16_t idx, struct mlx4v_rxq *rxq)
{
	struct mlx4v_ethdev_proc *pp = eth_dev->process_private;
	struct rte_pmd_mlx4v_rawdp_cq cq;
	int ret;

	ret = intr_rxq_take_events(eth_dev, rxq, idx);
	if (ret < 0)
		return ret;
	rxq->intr_enabled = 1;
	/*
	 * Armed before and no event taken since: the CQ is still armed (no CQE came, or its
	 * event is on its way to the fd). The same arm again could reach the device after that
	 * event and name a number that already fired.
	 */
	if (rxq->intr_armed == 1 + (uint64_t)rxq->arm_sn)
		return 0;
	if (pp == NULL || pp->cq_uar[idx] == NULL)
		return -ENODEV;
	/*
	 * Arm at the consumer index the Rx burst reached (published again first, as the arm
	 * must match it): a CQE already beyond it fires the event at once, so nothing that
	 * came since the last burst is lost (prm/mlx4 §4.8). The record and the ring are shared
	 * memory; the doorbell page is this process's.
	 */
	cq.v = rxq->cqv;
	cq.v.cq_uar = pp->cq_uar[idx];
	cq.ci = rxq->cq_ci;
	cq.sn = rxq->arm_sn;
	rte_pmd_mlx4v_rawdp_cq_update_ci(&cq);
	rte_pmd_mlx4v_rawdp_cq_arm(&cq);
	rxq->intr_armed = 1 + (uint64_t)rxq->arm_sn;
	return 0;
}

int
mlx4v_intr_rxq_set(struct rte_eth_dev *eth_dev, uint16_t idx, struct mlx4v_rxq *rxq, int on)
{
	struct mlx4v_intr *p = intr_of(eth_dev);
	int ret;

	if (!eth_dev->data->dev_conf.intr_conf.rxq)
		return -ENOTSUP;
	if (p == NULL || idx >= p->nb_rxq || idx >= MLX4V_ETH_MAX_QUEUES || rxq == NULL)
		return -EINVAL;
	if (on)
		return intr_rxq_enable(eth_dev, idx, rxq);
	/*
	 * Take the event if it came, which drains the fd for the next edge of the application's
	 * epoll. None is no error: applications disable every queue of an lcore after a wake-up,
	 * whichever fired.
	 */
	ret = intr_rxq_take_events(eth_dev, rxq, idx);
	rxq->intr_enabled = 0;
	return ret < 0 ? ret : 0;
}

/* The primary's Rx queue idx with its CQ, or NULL. */
static struct mlx4v_rxq *
intr_rxq_of(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct mlx4v_rxq *rxq = idx < eth_dev->data->nb_rx_queues ?
				eth_dev->data->rx_queues[idx] : NULL;

	return rxq != NULL && rxq->cq != NULL ? rxq : NULL;
}

int
mlx4v_intr_rx_enable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx4v_intr_rxq_set(eth_dev, idx, intr_rxq_of(eth_dev, idx), 1);
}

int
mlx4v_intr_rx_disable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	return mlx4v_intr_rxq_set(eth_dev, idx, intr_rxq_of(eth_dev, idx), 0);
}

/* ---------------------------------------------------------------- a secondary's handle */

int
mlx4v_intr_secondary_install(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_intr *p = intr_of(eth_dev);
	uint16_t q;

	if (p == NULL)
		return -EINVAL;
	/* EXT as the primary's: the fds are the primary's CQ event fds, lent at each start. */
	p->ih = mlxv_intr_handle_alloc();
	if (p->ih == NULL)
		return -rte_errno;
	/* A new handle's fds read 0: this process owns none yet. */
	for (q = 0; q < MLX4V_ETH_MAX_QUEUES; q++)
		rte_intr_efds_index_set(p->ih, q, -1);
	p->nb_rxq = 0;
	eth_dev->intr_handle = p->ih;
	return 0;
}

void
mlx4v_intr_secondary_rx_off(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_intr *p = intr_of(eth_dev);
	uint16_t q;
	int fd;

	if (p == NULL || p->ih == NULL)
		return;
	/*
	 * The application's epoll entries first (after a restart it registers again, as in the
	 * primary), then this process's copies of the fds: a stale one would wake nobody, or for
	 * ever once the primary's end of it is closed.
	 */
	if (p->nb_rxq != 0)
		mlxv_intr_rxq_vec_clear(p->ih);
	p->nb_rxq = 0;
	for (q = 0; q < MLX4V_ETH_MAX_QUEUES; q++) {
		fd = rte_intr_efds_index_get(p->ih, q);
		if (fd >= 0)
			close(fd);
		rte_intr_efds_index_set(p->ih, q, -1);
	}
}

int
mlx4v_intr_secondary_efd(struct rte_eth_dev *eth_dev, uint16_t q, int fd)
{
	struct mlx4v_intr *p = intr_of(eth_dev);
	int old;

	if (p == NULL || p->ih == NULL || q >= MLX4V_ETH_MAX_QUEUES) {
		close(fd);
		return -EINVAL;
	}
	old = rte_intr_efds_index_get(p->ih, q);
	if (rte_intr_efds_index_set(p->ih, q, fd) != 0) {
		close(fd);
		return -rte_errno;
	}
	if (old >= 0)
		close(old);
	return 0;
}

int
mlx4v_intr_secondary_rx_on(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_intr *p = intr_of(eth_dev);
	uint16_t n = eth_dev->data->nb_rx_queues;
	int ret;

	if (!eth_dev->data->dev_conf.intr_conf.rxq)
		return 0;
	if (p == NULL || p->ih == NULL || n > MLX4V_ETH_MAX_QUEUES)
		return -EINVAL;
	ret = mlxv_intr_rxq_vec_set(p->ih, n);
	if (ret != 0) {
		mlx4v_intr_secondary_rx_off(eth_dev);
		return ret;
	}
	p->nb_rxq = n;
	return 0;
}

void
mlx4v_intr_secondary_uninstall(struct rte_eth_dev *eth_dev)
{
	struct mlx4v_intr *p = intr_of(eth_dev);

	if (p == NULL || p->ih == NULL || eth_dev->intr_handle != p->ih)
		return;
	mlx4v_intr_secondary_rx_off(eth_dev);
	eth_dev->intr_handle = NULL;
	rte_intr_instance_free(p->ih);
	p->ih = NULL;
}
