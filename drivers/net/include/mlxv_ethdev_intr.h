/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Interrupt plumbing shared by the mlx5v and mlx4v PMDs: the port's EXT interrupt handle,
 * its Rx queue events (queue q is event q), and link/removal events recorded on the thread
 * that reports them and raised to the application from an EAL alarm
 * (doc/guides/nics/mlx5v.rst and doc/guides/nics/mlx4v.rst, "Interrupts").
 */

#ifndef _MLXV_ETHDEV_INTR_H_
#define _MLXV_ETHDEV_INTR_H_

#include <errno.h>

#include <ethdev_driver.h>
#include <rte_alarm.h>
#include <rte_errno.h>
#include <rte_interrupts.h>
#include <rte_spinlock.h>

/**
 * Link and removal events of a port since its alarm last ran. Process-local; the PMDs keep
 * one per port id and never free it, so an event racing with close finds valid memory.
 */
struct mlxv_intr_events {
	rte_spinlock_t lock;
	int active;                /**< the port may raise events (install .. uninstall) */
	int alarm;                 /**< the alarm is set */
	unsigned int port_events;  /**< link events recorded */
	int down_seen;             /**< one of them was a link down */
	int dead;                  /**< the device died or goes away: RMV to raise */
};

/** What an alarm takes from struct mlxv_intr_events. */
struct mlxv_intr_taken {
	unsigned int port_events;
	int down_seen;
	int dead;
	int active;
};

/**
 * A handle for a port: private, RTE_INTR_HANDLE_EXT (EAL never reads its fds; the PMD takes
 * the events itself). @return the handle, or NULL with rte_errno set.
 */
static inline struct rte_intr_handle *
mlxv_intr_handle_alloc(void)
{
	struct rte_intr_handle *ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);

	if (ih == NULL)
		return NULL;
	if (rte_intr_type_set(ih, RTE_INTR_HANDLE_EXT) != 0) {
		rte_intr_instance_free(ih);
		rte_errno = EINVAL;
		return NULL;
	}
	return ih;
}

/**
 * Record a link event (dead 0; down 1 for a link down) or the device's end (dead 1) and set
 * the alarm cb(arg) unless set. Any thread, any lock held: no command, no callback here.
 * @return 0, or -errno when the alarm cannot be set (the event waits for the next one).
 */
static inline int
mlxv_intr_events_post(struct mlxv_intr_events *e, int dead, int down,
		      rte_eal_alarm_callback cb, void *arg)
{
	int ret = 0;

	rte_spinlock_lock(&e->lock);
	if (!e->active)
		goto out;
	if (dead) {
		e->dead = 1;
	} else {
		e->port_events++;
		if (down)
			e->down_seen = 1;
	}
	if (!e->alarm) {
		ret = rte_eal_alarm_set(1, cb, arg);
		if (ret == 0)
			e->alarm = 1;
	}
out:
	rte_spinlock_unlock(&e->lock);
	return ret;
}

/** In the alarm: take everything recorded since it was set. */
static inline void
mlxv_intr_events_take(struct mlxv_intr_events *e, struct mlxv_intr_taken *t)
{
	rte_spinlock_lock(&e->lock);
	t->port_events = e->port_events;
	t->down_seen = e->down_seen;
	t->dead = e->dead;
	t->active = e->active;
	e->port_events = 0;
	e->down_seen = 0;
	e->dead = 0;
	e->alarm = 0;
	rte_spinlock_unlock(&e->lock);
}

/** Start recording: nothing pending (what an earlier port left is dropped), the port active. */
static inline void
mlxv_intr_events_start(struct mlxv_intr_events *e)
{
	struct mlxv_intr_taken stale;

	mlxv_intr_events_take(e, &stale);
	rte_spinlock_lock(&e->lock);
	e->active = 1;
	rte_spinlock_unlock(&e->lock);
}

/**
 * Stop recording and cancel the alarm; what it had not raised yet is dropped (the port is
 * going away). No alarm is set after `active` fell, and cancel waits for one running on the
 * interrupt thread (from that thread itself, none can be running).
 */
static inline void
mlxv_intr_events_stop(struct mlxv_intr_events *e, rte_eal_alarm_callback cb, void *arg)
{
	rte_spinlock_lock(&e->lock);
	e->active = 0;
	rte_spinlock_unlock(&e->lock);
	rte_eal_alarm_cancel(cb, arg);
	e->alarm = 0;
}

/**
 * Whether the link events t took make an LSC event: the status differs from old_status, or a
 * flap whose down and up both came before the alarm left it as it was (still an event, or
 * the application never learns the link went down). Only with intr_conf.lsc.
 */
static inline int
mlxv_intr_lsc_due(const struct rte_eth_dev *eth_dev, const struct mlxv_intr_taken *t,
		  int old_status)
{
	int status = eth_dev->data->dev_link.link_status;

	return t->port_events != 0 && eth_dev->data->dev_conf.intr_conf.lsc &&
	       (status != old_status || (t->down_seen && status == RTE_ETH_LINK_UP));
}

/** Raise RMV for a removal t took (intr_conf.rmv). EAL interrupt thread, no lock held. */
static inline void
mlxv_intr_rmv_raise(struct rte_eth_dev *eth_dev, int dead)
{
	if (dead && eth_dev->data->dev_conf.intr_conf.rmv)
		rte_eth_dev_callback_process(eth_dev, RTE_ETH_EVENT_INTR_RMV, NULL);
}

/**
 * Describe n Rx queue events whose fds are in the handle already: queue q is event q
 * (RTE_INTR_VEC_RXTX_OFFSET + q in its vector list), nb_efd n, max_intr n + 1 (vector 0
 * stands for the port's other events), so rte_eth_dev_rx_intr_ctl_q() works.
 * @return 0 or -errno.
 */
static inline int
mlxv_intr_rxq_vec_set(struct rte_intr_handle *ih, uint16_t n)
{
	uint16_t q;

	if (rte_intr_vec_list_alloc(ih, NULL, n) != 0)
		return -rte_errno;
	for (q = 0; q < n; q++)
		if (rte_intr_vec_list_index_set(ih, q, RTE_INTR_VEC_RXTX_OFFSET + q) != 0)
			return -rte_errno;
	if (rte_intr_nb_efd_set(ih, n) != 0 || rte_intr_max_intr_set(ih, n + 1) != 0)
		return -rte_errno;
	return 0;
}

/**
 * Undo mlxv_intr_rxq_vec_set(), before the fds close: the applications' epoll registrations
 * go first (a stale entry would refuse the next rte_eth_dev_rx_intr_ctl_q() ADD after a
 * restart), then the vector list and counts. nb_efd must still cover the registered events.
 */
static inline void
mlxv_intr_rxq_vec_clear(struct rte_intr_handle *ih)
{
	rte_intr_free_epoll_fd(ih);
	rte_intr_vec_list_free(ih);
	rte_intr_nb_efd_set(ih, 0);
	rte_intr_max_intr_set(ih, 0);
}

#endif /* _MLXV_ETHDEV_INTR_H_ */
