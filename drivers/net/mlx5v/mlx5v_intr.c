/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Interrupts of the mlx5v PMD: Rx queue interrupts from DEVX EQs on MSI vectors of
 * their own, in the primary and in secondary processes (the event fds the primary passes,
 * the queue's state in shared memory), link state change and removal events from the
 * core's events (doc/guides/nics/mlx5v.rst, "Interrupts" and "Secondary processes").
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ethdev_driver.h>
#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_interrupts.h>

#include "mlx5v_devx.h"
#include "mlx5v_eq.h"
#include "mlx5v_ethdev.h"
#include "mlx5v_ethdev_api.h"
#include "mlxv_ethdev_intr.h"
#include "rte_pmd_mlx5v.h"

/*
 * EQ of an Rx queue: completion EQEs only (one per CQ arm), so the smallest ring, one 4 KiB
 * page, is ample (prm/mlx5 §7.2).
 */
#define INTR_RXQ_EQ_LOG_SIZE 6

/* The Rx interrupt of one queue: its EQ, and the fd the interrupt handle gives for it. */
struct intr_rxq {
	struct mlx5v_rxq *rxq;
	struct rte_pmd_mlx5v_eq *eq;     /* NULL: not created */
	struct mlx5v_devx_eq *deq;       /* the core's view of eq, for poll and arm */
	uint32_t eqn;
	unsigned int vec;                /* index into intr_rx.msi[] */
	int efd;                         /* the vector's eventfd, or a dup of it; -1: none */
	int efd_own;                     /* 1: efd is a dup, closed at destroy */
};

/* Rx interrupt objects of a started port (process-local: fds and handles). */
struct intr_rx {
	unsigned int n_vec;
	struct rte_pmd_mlx5v_msi_vector *msi[MLX5V_ETH_MAX_QUEUES];
	unsigned int users[MLX5V_ETH_MAX_QUEUES];  /* Rx queues per vector */
	unsigned int n_q;                          /* queues whose intr_rxq is set up */
	struct intr_rxq q[MLX5V_ETH_MAX_QUEUES];
};

/* An application's registration of a queue event a secondary keeps across a stop. */
struct intr_kept {
	int epfd;                        /* its epoll instance, -1: none kept */
	void *data;                      /* what rte_eth_dev_rx_intr_ctl_q() was given */
};

/*
 * Interrupt state of a port, process-local. The entries are never freed, so an event that
 * races with close finds valid memory; ev.active says whether the port may still raise events.
 */
struct intr_port {
	struct mlxv_intr_events ev;      /* PORT_CHANGE EQEs and the device's death */
	uint32_t link_taken;             /* a link read outside the alarm took a change */
	struct rte_intr_handle *ih;      /* eth_dev->intr_handle */
	struct intr_rx *rx;              /* while started with intr_conf.rxq */
	/* A secondary's: the queues' fds the primary passed (-1: none), its kept registrations. */
	int sfd[MLX5V_ETH_MAX_QUEUES];
	struct intr_kept kept[MLX5V_ETH_MAX_QUEUES];
};

static struct intr_port intr_ports[RTE_MAX_ETHPORTS];

static struct intr_port *
mlx5v_intr_port_of(const struct rte_eth_dev *eth_dev)
{
	uint16_t port = eth_dev->data->port_id;

	return port < RTE_MAX_ETHPORTS ? &intr_ports[port] : NULL;
}

/* ---------------------------------------------------------------- LSC and RMV */

/*
 * EAL interrupt thread, outside every EQ lock: commands may run here (the command layer
 * polls the async EQ itself on this thread). Reads the link once for all the PORT_CHANGE
 * EQEs that came since the alarm was set.
 */
static void
mlx5v_intr_event_alarm(void *arg)
{
	struct intr_port *p = arg;
	uint16_t port = (uint16_t)(p - intr_ports);
	struct rte_eth_dev *eth_dev = &rte_eth_devices[port];
	struct mlxv_intr_taken t;
	uint16_t old_status;
	uint32_t taken;

	mlxv_intr_events_take(&p->ev, &t);
	/* close waits for this callback (rte_eal_alarm_cancel()), so eth_dev is still ours. */
	if (!t.active)
		return;
	if (t.port_events != 0) {
		old_status = eth_dev->data->dev_link.link_status;
		mlx5v_ethdev_link_update(eth_dev, 0);
		/*
		 * set_link_up/down reads the link too: when it took the change before this
		 * alarm, the status above is already the new one, and the event is still due.
		 */
		taken = __atomic_exchange_n(&p->link_taken, 0, __ATOMIC_ACQ_REL);
		if (mlxv_intr_lsc_due(eth_dev, &t, old_status) ||
		    (taken && eth_dev->data->dev_conf.intr_conf.lsc))
			rte_eth_dev_callback_process(eth_dev, RTE_ETH_EVENT_INTR_LSC, NULL);
	}
	/*
	 * The device died: every secondary's bursts of the port leave the rings, as at a stop,
	 * before RMV and before the recovery frees the rings and reuses the numbers (its alarm
	 * runs a health poll period later on this very thread). Here, not on the thread that
	 * saw the death: that may be the IPC thread (a secondary's request), which must not
	 * wait for the secondaries' answers.
	 */
	if (t.dead)
		mlx5v_mp_dead(eth_dev);
	mlxv_intr_rmv_raise(eth_dev, t.dead);
}

/*
 * Record a PORT_CHANGE (dead 0) or the device's death (dead 1) for the alarm, which takes
 * everything recorded when it runs. Any thread, possibly with an EQ lock held: no command,
 * no application callback here.
 */
static void
mlx5v_intr_event_post(struct rte_eth_dev *eth_dev, int dead, uint8_t sub_type)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);

	/* Without intr_conf.lsc, ethdev asks link_update on every link get: nothing to do. */
	if (p == NULL || (!dead && !eth_dev->data->dev_conf.intr_conf.lsc))
		return;
	if (mlxv_intr_events_post(&p->ev, dead, sub_type == RTE_PMD_MLX5V_PORT_CHANGE_DOWN,
				  mlx5v_intr_event_alarm, p) != 0)
		MLX5V_ETH_LOG(ERR, "port %u: cannot schedule the event alarm",
			      eth_dev->data->port_id);
}

void
mlx5v_intr_link_taken(struct rte_eth_dev *eth_dev)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);

	/* Release: the alarm that takes it reads the link status stored before. */
	if (p != NULL)
		__atomic_store_n(&p->link_taken, 1, __ATOMIC_RELEASE);
}

void
mlx5v_intr_port_event(struct rte_eth_dev *eth_dev, uint8_t sub_type)
{
	/* The EQ lock is held: the link query (commands) waits for the alarm. */
	mlx5v_intr_event_post(eth_dev, 0, sub_type);
}

void
mlx5v_intr_dead_event(struct rte_eth_dev *eth_dev)
{
	/* The detecting thread may be a command waiter on an application lcore: defer. */
	mlx5v_intr_event_post(eth_dev, 1, 0);
}

int
mlx5v_intr_init(struct rte_eth_dev *eth_dev)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);

	if (p == NULL)
		return -EINVAL;
	/*
	 * EXT: EAL never reads these fds. The Rx queue eventfds belong to the core's MSI vectors;
	 * the PMD drains them in rx_queue_intr_disable (doc/guides/nics/mlx5v.rst, "Interrupts").
	 */
	p->ih = mlxv_intr_handle_alloc();
	if (p->ih == NULL)
		return -rte_errno;
	p->rx = NULL;
	__atomic_store_n(&p->link_taken, 0, __ATOMIC_RELAXED);
	mlxv_intr_events_start(&p->ev);
	eth_dev->intr_handle = p->ih;
	eth_dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC | RTE_ETH_DEV_INTR_RMV;
	return 0;
}

void
mlx5v_intr_cleanup(struct rte_eth_dev *eth_dev)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);

	if (p == NULL || p->ih == NULL)
		return;
	mlx5v_intr_rx_destroy(eth_dev);
	mlxv_intr_events_stop(&p->ev, mlx5v_intr_event_alarm, p);
	eth_dev->intr_handle = NULL;
	rte_intr_instance_free(p->ih);
	p->ih = NULL;
}

/* ---------------------------------------------------------------- Rx queue interrupts */

/* Create the EQ of Rx queue q on vector v. @return 0 or -errno. */
static int
mlx5v_intr_rxq_eq_create(struct rte_eth_dev *eth_dev, struct intr_rx *rx, unsigned int q)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_dev *pdev = (struct rte_pmd_mlx5v_dev *)mlx5v_ethdev_core(eth_dev);
	struct rte_pmd_mlx5v_uar *uar = mlx5v_ethdev_uar(eth_dev);
	struct intr_rxq *iq = &rx->q[q];
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;
	int ret;

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, INTR_RXQ_EQ_LOG_SIZE);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, uar->page_id);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, (uint32_t)rx->msi[iq->vec]->vector);
	/*
	 * event_bitmask stays 0: completion EQEs ignore it and follow the CQ's c_eqn
	 * (prm/mlx5 §6.4, §7.2); the async events stay on the core's EQ.
	 */
	iq->eq = rte_pmd_mlx5v_devx_create_eq(pdev, in, sizeof(in), out, sizeof(out));
	if (iq->eq == NULL) {
		ret = -rte_errno;
		if (ret == -EREMOTEIO)
			MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: CREATE_EQ: status 0x%x syndrome "
				      "0x%08x", eth_dev->data->port_id, q,
				      RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
				      RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
		return ret;
	}
	iq->eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	iq->deq = mlx5v_devx_to_eq(iq->eq);
	ret = iq->deq != NULL ? 0 : -EINVAL;
	/*
	 * A new EQ is not armed (prm/mlx5 §6.11): arm it so the first completion interrupts.
	 * Its consumer index is 0, as the shared one below; from here on only the shared state
	 * consumes it (mlx5v_intr_rxq_eq_take()), the core's EQ object never polls it.
	 */
	if (ret == 0)
		ret = mlx5v_devx_eq_arm(iq->deq);
	if (ret != 0) {
		rte_pmd_mlx5v_devx_destroy_eq(iq->eq);
		iq->eq = NULL;
		iq->deq = NULL;
		return ret;
	}
	rte_spinlock_lock(&iq->rxq->intr.lock);
	iq->rxq->intr.eq_nent = 1u << INTR_RXQ_EQ_LOG_SIZE;
	iq->rxq->intr.eqn = iq->eqn;
	iq->rxq->intr.eq_ci = 0;
	iq->rxq->intr.eqes = iq->eq->vaddr;
	rte_spinlock_unlock(&iq->rxq->intr.lock);
	return 0;
}

void
mlx5v_intr_rx_destroy(struct rte_eth_dev *eth_dev)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);
	struct intr_rx *rx = p != NULL ? p->rx : NULL;
	unsigned int i;
	int ret, stale;

	if (rx == NULL)
		return;
	stale = mlx5v_recovery_port_stale(eth_dev);
	/* The applications' epoll registrations name fds closed below. */
	mlxv_intr_rxq_vec_clear(p->ih);
	for (i = rx->n_q; i > 0; i--) {
		struct intr_rxq *iq = &rx->q[i - 1];

		/* No process arms or consumes it any more (a secondary's gate is closed). */
		if (iq->rxq != NULL) {
			rte_spinlock_lock(&iq->rxq->intr.lock);
			iq->rxq->intr.eqes = NULL;
			rte_spinlock_unlock(&iq->rxq->intr.lock);
		}
		if (iq->eq != NULL) {
			/*
			 * On a dead device DESTROY_EQ succeeds locally; a refusal keeps the EQ.
			 * After a recovery the EQ is gone already (EINVAL, mlx5v.rst "Recovery").
			 */
			ret = rte_pmd_mlx5v_devx_destroy_eq(iq->eq);
			if (ret != 0 && !stale)
				MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: EQ %u destroy: %s",
					      eth_dev->data->port_id, i - 1, iq->eqn,
					      strerror(ret));
		}
		if (iq->efd_own && iq->efd >= 0)
			close(iq->efd);
	}
	for (i = rx->n_vec; i > 0; i--) {
		ret = rte_pmd_mlx5v_devx_free_msi_vector(rx->msi[i - 1]);
		if (ret != 0 && !stale)
			MLX5V_ETH_LOG(ERR, "port %u: MSI vector %d free: %s",
				      eth_dev->data->port_id, rx->msi[i - 1]->vector,
				      strerror(ret));
	}
	free(rx);
	p->rx = NULL;
}

/*
 * Vectors: one per Rx queue while the device has them; when it runs short, queue q shares
 * vector q % n_vec, each queue keeping its own EQ. @return 0 or -errno.
 */
static int
mlx5v_intr_vectors_alloc(struct rte_eth_dev *eth_dev, struct intr_rx *rx, unsigned int n)
{
	struct rte_pmd_mlx5v_dev *pdev = (struct rte_pmd_mlx5v_dev *)mlx5v_ethdev_core(eth_dev);

	while (rx->n_vec < n) {
		struct rte_pmd_mlx5v_msi_vector *msi = rte_pmd_mlx5v_devx_alloc_msi_vector(pdev);

		if (msi == NULL) {
			if (rte_errno == ENOSPC && rx->n_vec > 0)
				break;
			MLX5V_ETH_LOG(ERR, "port %u: no MSI vector for Rx interrupts: %s",
				      eth_dev->data->port_id, rte_strerror(rte_errno));
			return -rte_errno;
		}
		rx->msi[rx->n_vec++] = msi;
	}
	if (rx->n_vec < n)
		MLX5V_ETH_LOG(NOTICE, "port %u: %u Rx queues share %u MSI vectors",
			      eth_dev->data->port_id, n, rx->n_vec);
	return 0;
}

/* The fd of queue q in the handle: its vector's eventfd, a dup for a vector's later users. */
static int
mlx5v_intr_rxq_efd(struct intr_rx *rx, struct intr_rxq *iq)
{
	int fd = rx->msi[iq->vec]->fd;

	/*
	 * EAL keeps one epoll entry per handle index (rte_intr_rx_ctl()), so two queues on one
	 * vector need two fds; a dup names the same eventfd, and one MSI wakes both.
	 */
	if (rx->users[iq->vec]++ == 0)
		return fd;
	iq->efd_own = 1;
	return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

int
mlx5v_intr_rx_create(struct rte_eth_dev *eth_dev)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);
	uint16_t n = eth_dev->data->nb_rx_queues;
	struct intr_rx *rx;
	unsigned int q;
	int ret;

	if (!eth_dev->data->dev_conf.intr_conf.rxq)
		return 0;
	if (p == NULL || p->ih == NULL)
		return -ENODEV;
	rx = calloc(1, sizeof(*rx));
	if (rx == NULL)
		return -ENOMEM;
	p->rx = rx;
	ret = mlx5v_intr_vectors_alloc(eth_dev, rx, n);
	for (q = 0; ret == 0 && q < n; q++) {
		struct intr_rxq *iq = &rx->q[q];

		iq->rxq = eth_dev->data->rx_queues[q];
		rte_spinlock_init(&iq->rxq->intr.lock);
		iq->vec = q % rx->n_vec;
		iq->efd = -1;
		rx->n_q = q + 1;
		ret = mlx5v_intr_rxq_eq_create(eth_dev, rx, q);
		if (ret != 0)
			break;
		iq->efd = mlx5v_intr_rxq_efd(rx, iq);
		if (iq->efd < 0) {
			ret = -errno;
			break;
		}
		if (rte_intr_efds_index_set(p->ih, q, iq->efd) != 0)
			ret = -rte_errno;
	}
	/* Whatever process disables a queue's interrupt drains its fd unless others share it. */
	for (q = 0; ret == 0 && q < n; q++)
		rx->q[q].rxq->intr.vec_shared = rx->users[rx->q[q].vec] > 1;
	/* Vector 0, beyond the queue events, carries the port's other events. */
	if (ret == 0)
		ret = mlxv_intr_rxq_vec_set(p->ih, n);
	if (ret != 0) {
		MLX5V_ETH_LOG(ERR, "port %u: Rx interrupts: %s", eth_dev->data->port_id,
			      strerror(-ret));
		mlx5v_intr_rx_destroy(eth_dev);
		return ret;
	}
	return 0;
}

uint32_t
mlx5v_intr_rxq_eqn(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);

	if (p != NULL && p->rx != NULL && idx < p->rx->n_q && p->rx->q[idx].eq != NULL)
		return p->rx->q[idx].eqn;
	/* No Rx interrupt: the CQ is never armed, the async EQ sees nothing from it. */
	return mlx5v_eq_eqn(mlx5v_eq_async(dev));
}

/* The queue's interrupt state, or NULL with *ret = -errno. */
static struct intr_rxq *
mlx5v_intr_rxq_get(struct rte_eth_dev *eth_dev, uint16_t idx, int *ret)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);

	if (!eth_dev->data->dev_conf.intr_conf.rxq) {
		*ret = -ENOTSUP;
		return NULL;
	}
	if (p == NULL || p->rx == NULL || idx >= p->rx->n_q || p->rx->q[idx].rxq == NULL ||
	    p->rx->q[idx].rxq->cq == NULL) {
		*ret = -EINVAL;
		return NULL;
	}
	*ret = 0;
	return &p->rx->q[idx];
}

/* Write the EQ's consumer index, arming it (arm 1) or not, at this process's UAR page. */
static void
mlx5v_intr_rxq_eq_db(const struct mlx5v_rxq_intr *s, struct mlx5v_hw *hw, uint8_t *uar, int arm)
{
	/*
	 * The EQE reads are complete before the device learns the CI (loads before a store): a
	 * full barrier, not only a write barrier (prm/mlx5 §6.10); then the doorbell.
	 */
	rte_io_mb();
	mlx5v_hw_db_wr32(hw, uar + (arm ? RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF :
				    RTE_PMD_MLX5V_UAR_EQ_DB_NOARM_OFF),
			 rte_pmd_mlx5v_eq_db_val(s->eqn, s->eq_ci));
}

/*
 * Take the completion EQEs of the queue's EQ with the shared consumer index, each moving the
 * CQ's arm sequence number on (prm/mlx5 §7.3), then arm the EQ, which stays quiet after an
 * interrupt until then (prm/mlx5 §6.11). s->lock held.
 */
static void
mlx5v_intr_rxq_eq_take(struct mlx5v_rxq_intr *s, struct mlx5v_hw *hw, uint8_t *uar)
{
	unsigned int cc = 0;
	const uint8_t *eqe;
	uint32_t cqn;

	/* rte_pmd_mlx5v_eq_next_eqe() checks the owner bit, then orders the body's reads. */
	while ((eqe = rte_pmd_mlx5v_eq_next_eqe(s->eqes, s->eq_nent, s->eq_ci)) != NULL) {
		cqn = rte_be_to_cpu_32(*(const uint32_t *)(eqe + RTE_PMD_MLX5V_EQE_COMP_CQN_OFF)) &
		      0xffffff;
		if (rte_pmd_mlx5v_eqe_type(eqe) == RTE_PMD_MLX5V_EVENT_COMP && cqn == s->cqn)
			s->arm_sn++;
		s->eq_ci++;
		/* The CI reaches the device at least every 128 EQEs, unarmed (prm/mlx5 §6.9). */
		if (++cc == RTE_PMD_MLX5V_NUM_SPARE_EQE) {
			mlx5v_intr_rxq_eq_db(s, hw, uar, 0);
			cc = 0;
		}
	}
	mlx5v_intr_rxq_eq_db(s, hw, uar, 1);
}

int
mlx5v_intr_rxq_arm(struct mlx5v_rxq *rxq, struct mlx5v_hw *hw, void *uar)
{
	struct mlx5v_rxq_intr *s = &rxq->intr;

	rte_spinlock_lock(&s->lock);
	if (s->eqes == NULL || uar == NULL) {
		rte_spinlock_unlock(&s->lock);
		return -EINVAL;
	}
	/*
	 * The completion EQEs still in the EQ first: the arm below must carry the sequence
	 * number they move on (prm/mlx5 §7.3). Then the CQ armed at the consumer index the Rx
	 * burst reached: a CQE already beyond it fires the event at once, so no completion
	 * between the last burst and this arm is lost.
	 */
	mlx5v_intr_rxq_eq_take(s, hw, uar);
	mlx5v_devx_cq_arm_at(hw, uar, rxq->cq_dbrec, s->cqn, s->arm_sn, rxq->cq_ci, 0);
	rte_spinlock_unlock(&s->lock);
	return 0;
}

int
mlx5v_intr_rxq_ack(struct mlx5v_rxq *rxq, struct mlx5v_hw *hw, void *uar, int fd)
{
	struct mlx5v_rxq_intr *s = &rxq->intr;
	uint64_t cnt;

	/*
	 * Drain before consuming: an MSI that the arm below raises for a later EQE must stay
	 * readable. A vector shared with other queues is left alone: a read here could take the
	 * wake-up of another queue's lcore, and EAL's edge-triggered epoll wakes on every MSI
	 * whatever the counter holds.
	 */
	if (!s->vec_shared && fd >= 0)
		while (read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
			;
	rte_spinlock_lock(&s->lock);
	if (s->eqes == NULL || uar == NULL) {
		rte_spinlock_unlock(&s->lock);
		return -EINVAL;
	}
	mlx5v_intr_rxq_eq_take(s, hw, uar);
	rte_spinlock_unlock(&s->lock);
	return 0;
}

int
mlx5v_intr_rx_enable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct rte_pmd_mlx5v_uar *uar = mlx5v_ethdev_uar(eth_dev);
	struct intr_rxq *iq;
	int ret;

	iq = mlx5v_intr_rxq_get(eth_dev, idx, &ret);
	if (iq == NULL)
		return ret;
	return mlx5v_intr_rxq_arm(iq->rxq, mlx5v_ethdev_proc(eth_dev->data->port_id)->hw,
				  uar != NULL ? uar->base_addr : NULL);
}

int
mlx5v_intr_rx_disable(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct rte_pmd_mlx5v_uar *uar = mlx5v_ethdev_uar(eth_dev);
	struct intr_rxq *iq;
	int ret;

	iq = mlx5v_intr_rxq_get(eth_dev, idx, &ret);
	if (iq == NULL)
		return ret;
	return mlx5v_intr_rxq_ack(iq->rxq, mlx5v_ethdev_proc(eth_dev->data->port_id)->hw,
				  uar != NULL ? uar->base_addr : NULL, iq->efd);
}

int
mlx5v_intr_rxq_fd(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t *n)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);

	*n = p != NULL && p->rx != NULL ? (uint16_t)p->rx->n_q : 0;
	return idx < *n ? p->rx->q[idx].efd : -1;
}

/* ---------------------------------------------------------------- secondary processes */

int
mlx5v_intr_secondary_init(struct rte_eth_dev *eth_dev)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);
	unsigned int q;

	if (p == NULL)
		return -EINVAL;
	/* EXT as the primary's: the PMD drains the queues' fds itself (mlx5v.rst, "Interrupts"). */
	p->ih = mlxv_intr_handle_alloc();
	if (p->ih == NULL)
		return -rte_errno;
	for (q = 0; q < MLX5V_ETH_MAX_QUEUES; q++) {
		p->sfd[q] = -1;
		p->kept[q].epfd = -1;
	}
	eth_dev->intr_handle = p->ih;
	return 0;
}

void
mlx5v_intr_secondary_cleanup(struct rte_eth_dev *eth_dev)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);

	if (p == NULL || p->ih == NULL)
		return;
	mlx5v_intr_secondary_clear(eth_dev);
	eth_dev->intr_handle = NULL;
	rte_intr_instance_free(p->ih);
	p->ih = NULL;
}

int
mlx5v_intr_secondary_efds(struct rte_eth_dev *eth_dev, uint16_t first, const int *fds, int n,
			  uint16_t n_q)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);
	struct intr_kept *k;
	int i, ret = 0;

	if (p == NULL || p->ih == NULL || n_q > MLX5V_ETH_MAX_QUEUES || first + n > n_q)
		ret = -EINVAL;
	for (i = 0; i < n; i++) {
		if (ret == 0 && p->sfd[first + i] >= 0)
			close(p->sfd[first + i]);
		if (ret == 0 && rte_intr_efds_index_set(p->ih, first + i, fds[i]) != 0)
			ret = -rte_errno;
		if (ret == 0)
			p->sfd[first + i] = fds[i];
		else
			close(fds[i]);
	}
	if (ret != 0 || first + n < n_q)
		return ret;
	ret = mlxv_intr_rxq_vec_set(p->ih, n_q);
	if (ret != 0)
		return ret;
	/*
	 * The registrations the primary's stop took out go back on the new fds, into the same
	 * epoll instances with the same data: an lcore asleep across the primary's restart
	 * wakes on the new queue's events, never on a closed fd's.
	 */
	for (i = 0; i < n_q; i++) {
		k = &p->kept[i];
		if (k->epfd >= 0 &&
		    rte_intr_rx_ctl(p->ih, k->epfd, RTE_INTR_EVENT_ADD,
				    RTE_INTR_VEC_RXTX_OFFSET + i, k->data) != 0)
			MLX5V_ETH_LOG(WARNING, "port %u Rx queue %d: event not registered again",
				      eth_dev->data->port_id, i);
		k->epfd = -1;
	}
	return 0;
}

void
mlx5v_intr_secondary_clear(struct rte_eth_dev *eth_dev)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);
	struct rte_epoll_event *ev;
	int q, n;

	if (p == NULL || p->ih == NULL)
		return;
	n = rte_intr_nb_efd_get(p->ih);
	for (q = 0; q < n && q < MLX5V_ETH_MAX_QUEUES; q++) {
		ev = rte_intr_elist_index_get(p->ih, q);
		if (ev != NULL && __atomic_load_n(&ev->status, __ATOMIC_ACQUIRE) !=
		    RTE_EPOLL_INVALID) {
			p->kept[q].epfd = ev->epfd;
			p->kept[q].data = ev->epdata.data;
		}
	}
	/* Out of the applications' epoll before the fds close (mlxv_intr_rxq_vec_clear()). */
	if (n > 0)
		mlxv_intr_rxq_vec_clear(p->ih);
	for (q = 0; q < MLX5V_ETH_MAX_QUEUES; q++) {
		if (p->sfd[q] < 0)
			continue;
		close(p->sfd[q]);
		p->sfd[q] = -1;
		rte_intr_efds_index_set(p->ih, q, -1);
	}
}

int
mlx5v_intr_secondary_fd(struct rte_eth_dev *eth_dev, uint16_t idx)
{
	struct intr_port *p = mlx5v_intr_port_of(eth_dev);

	return p != NULL && idx < MLX5V_ETH_MAX_QUEUES ? p->sfd[idx] : -1;
}

/* ---------------------------------------------------------------- tools */

int
mlx5v_intr_info_get(uint16_t port_id, struct mlx5v_intr_port_info *info,
		    struct mlx5v_intr_rxq_info *rxq, unsigned int n)
{
	struct rte_eth_dev *eth_dev;
	struct intr_port *p;
	struct mlx5v_dev *dev;
	unsigned int q;

	if (info == NULL || (rxq == NULL && n > 0))
		return -EINVAL;
	if (port_id >= RTE_MAX_ETHPORTS)
		return -ENODEV;
	p = &intr_ports[port_id];
	eth_dev = &rte_eth_devices[port_id];
	/* The port's data is read only once the port is known to be an mlx5v one. */
	if (!p->ev.active || p->ih == NULL || eth_dev->intr_handle != p->ih ||
	    eth_dev->data == NULL)
		return -ENODEV;
	dev = mlx5v_ethdev_core(eth_dev);
	if (dev == NULL)
		return -ENODEV;
	memset(info, 0, sizeof(*info));
	info->rxq_intr = p->rx != NULL;
	info->nb_vec = p->rx != NULL ? p->rx->n_vec : 0;
	info->async_eqn = mlx5v_eq_eqn(mlx5v_eq_async(dev));
	info->lsc = eth_dev->data->dev_conf.intr_conf.lsc;
	info->rmv = eth_dev->data->dev_conf.intr_conf.rmv;
	for (q = 0; q < eth_dev->data->nb_rx_queues; q++) {
		const struct mlx5v_rxq *r = eth_dev->data->rx_queues[q];

		if (r == NULL || r->cq == NULL)
			break;
		info->nb_rxq = q + 1;
	}
	n = RTE_MIN(n, (unsigned int)info->nb_rxq);
	for (q = 0; q < n; q++) {
		const struct mlx5v_rxq *r = eth_dev->data->rx_queues[q];
		struct mlx5v_intr_rxq_info *ri = &rxq[q];

		memset(ri, 0, sizeof(*ri));
		ri->cqn = r->cq->cqn;
		ri->eqn = r->cq->eqn;
		ri->fd = -1;
		if (p->rx != NULL && q < p->rx->n_q) {
			const struct intr_rxq *iq = &p->rx->q[q];

			ri->vector = (unsigned int)p->rx->msi[iq->vec]->vector;
			ri->sharing = p->rx->users[iq->vec];
			ri->fd = iq->efd;
		} else {
			ri->sharing = 0;
		}
	}
	return (int)n;
}
