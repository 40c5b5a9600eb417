/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the mlx5v PMD's interrupts on the simulated function: Rx queue
 * interrupts from DEVX EQs through rte_eth_dev_rx_intr_ctl_q() and rte_epoll_wait() as
 * l3fwd-power uses them, the vector scheme, link state change and removal events, and the
 * EQs and vectors gone after stop, close or a failed start.
 *
 * A completion is made with the simulator's CQE injection (mlx5v_sim_post_cqe()): the CQE
 * a received frame writes, without the receive WQE the Rx burst would have posted. The test
 * then moves the queue's cq_ci on itself, as the Rx burst does when it consumes the CQE.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_bus_vdev.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_mbuf.h>

#include "test.h"

#include "mlx5v_api.h"
#include "mlx5v_dev.h"
#include "mlx5v_ethdev.h"
#include "mlx5v_ethdev_api.h"
#include "mlx5v_prm.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v.h"
#include "ut_common.h"
#include "ut_dev.h"
#include "ut_ethdev.h"

#define VDEV_NAME "mlx5v_sim0"
/* A received frame's CQE (opcode RESP_SEND), as "mlx5v sim cqe" writes it. */
#define CQE_OPCODE_RESP_SEND 0x2
/* How long a "nothing happens" check waits: a bound, not a measured time. */
#define QUIET_MS 100

static struct rte_mempool *g_mp;
static uint16_t g_port;
static struct mlx5v_sim *g_sim;
static struct mlx5v_dev *g_dev;
static int g_attached;

/* Events the callback saw. */
static struct ut_eth_events g_ev;

/*
 * Probe the device with the vdev's args; on a PCI function (ut_dev.h) the driver's pci_args
 * on its devargs, the model's knobs being the launcher's (wire=loop, meson.build).
 */
static int
attach_pci(const char *args, const char *pci_args)
{
	const char *name = ut_dev_name(VDEV_NAME);

	if (ut_dev_probe_pci(VDEV_NAME, args, pci_args) != 0)
		return -1;
	g_attached = 1;
	g_sim = mlx5v_sim_get(ut_dev_sim_name(VDEV_NAME));
	g_dev = mlx5v_dev_get(name);
	if (g_sim == NULL || g_dev == NULL)
		return -1;
	return rte_eth_dev_get_port_by_name(name, &g_port);
}

static int
attach(const char *args)
{
	return attach_pci(args, NULL);
}

static void
detach(void)
{
	if (g_attached)
		ut_dev_remove(VDEV_NAME);
	g_attached = 0;
}

/* Configure nq Rx queues and one Tx queue with the given intr_conf, set them up, start. */
static int
port_start(uint16_t nq, int rxq, int lsc, int rmv)
{
	return ut_eth_port_start(g_port, nq, 0, rxq, lsc, rmv, g_mp);
}

/* The interrupt scheme of the port (at most 16 queues). @return queues described. */
static int
intr_info(struct mlx5v_intr_port_info *info, struct mlx5v_intr_rxq_info *rxq)
{
	return mlx5v_intr_info_get(g_port, info, rxq, 16);
}

/* The CQE of a frame on Rx queue q. @return 0 or -errno. */
static int
rx_cqe(uint16_t q)
{
	struct mlx5v_intr_port_info info;
	struct mlx5v_intr_rxq_info rxq[16];

	if (intr_info(&info, rxq) <= q)
		return -EINVAL;
	return mlx5v_sim_post_cqe(g_sim, rxq[q].cqn, CQE_OPCODE_RESP_SEND, 64);
}

/* What the Rx burst does with a CQE: consume it (cq_ci). */
static void
rx_consume(uint16_t q, unsigned int n)
{
	struct mlx5v_rxq *rxq = rte_eth_devices[g_port].data->rx_queues[q];

	rxq->cq_ci += n;
}

#define wait_rx ut_eth_wait_rx

/* The cycles' completion: a CQE on queue q. */
static int
rx_cqe_nth(uint16_t q, unsigned int i)
{
	RTE_SET_USED(i);
	return rx_cqe(q);
}

/* Consume the one CQE of queue q. */
static int
rx_take(uint16_t q)
{
	rx_consume(q, 1);
	return 0;
}

static const struct ut_eth_rx_ops rx_ops = { .in = rx_cqe_nth, .take = rx_take };

/* The port's cable. */
static int
link_set(int up)
{
	return mlx5v_sim_link_set(g_sim, up);
}

/* MSI vectors >= 1 that have an eventfd: the ones allocated. */
static unsigned int
msi_allocated(void)
{
	struct mlx5v_msi_info mi;
	unsigned int v, n = 0;

	for (v = 1; v < mlx5v_msi_count(g_dev); v++)
		if (mlx5v_msi_info_get(g_dev, v, &mi) == 0 && mi.fd >= 0)
			n++;
	return n;
}

/* Nothing of the Rx interrupts left: no DEVX EQ, no vector, only the async EQ, no CQ. */
static int
nothing_left(void)
{
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_list(g_dev, NULL, 0), 0, "DEVX EQs left");
	TEST_ASSERT_EQUAL(msi_allocated(), 0u, "MSI vectors left");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_EQ), 1u,
			  "EQs besides the async EQ in the device");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ), 0u, "CQs left");
	return TEST_SUCCESS;
}

/* The arms carried the right sequence numbers and every doorbell was well formed. */
static int
doorbells_clean(void)
{
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CQ_ARM_SN), 0u,
			  "a CQ was armed with a stale sequence number");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_DB_MISUSE), 0u,
			  "a doorbell was malformed");
	return TEST_SUCCESS;
}

static int
setup_loop(void)
{
	return attach("wire=loop") == 0 ? TEST_SUCCESS : TEST_FAILED;
}

/* Dead mode: the device stays dead (recovery=reset is tests/unit/net/mlx5v/recovery). */
static int
setup_loop_dead(void)
{
	return attach_pci("wire=loop,recovery=dead", "recovery=dead") == 0 ? TEST_SUCCESS :
									     TEST_FAILED;
}

static void
teardown(void)
{
	detach();
}

/*
 * One queue: no wake-up while nothing arrives, a CQE wakes rte_epoll_wait with the data the
 * application registered, disable drains the eventfd.
 */
static int
test_net_mlx5v_intr_rxq_wakes(void)
{
	struct mlx5v_intr_port_info info;
	struct mlx5v_intr_rxq_info rxq[16];
	uintptr_t data = 0;
	uint64_t cnt;
	int fd;

	TEST_ASSERT_SUCCESS(port_start(1, 1, 0, 0), "start");
	TEST_ASSERT_EQUAL(intr_info(&info, rxq), 1, "one queue");
	TEST_ASSERT(info.rxq_intr && info.nb_vec == 1, "one vector");
	TEST_ASSERT(rxq[0].vector >= 1 && rxq[0].eqn != info.async_eqn, "own EQ and vector");
	fd = rte_eth_dev_rx_intr_ctl_q_get_fd(g_port, 0);
	TEST_ASSERT(fd >= 0 && fd == rxq[0].fd, "the queue's fd is the vector's");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, 0, RTE_EPOLL_PER_THREAD,
						      RTE_INTR_EVENT_ADD, (void *)0x51),
			    "epoll add");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 0), "enable");
	TEST_ASSERT_EQUAL(wait_rx(QUIET_MS, NULL), 0, "woken without traffic");
	TEST_ASSERT_SUCCESS(rx_cqe(0), "CQE");
	TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, &data), 1, "the CQE did not wake the lcore");
	TEST_ASSERT_EQUAL(data, 0x51u, "the application's data");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, 0), "disable");
	TEST_ASSERT(read(fd, &cnt, sizeof(cnt)) < 0 && errno == EAGAIN, "eventfd not drained");
	rx_consume(0, 1);
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, 0, RTE_EPOLL_PER_THREAD,
						      RTE_INTR_EVENT_DEL, NULL), "epoll del");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return doorbells_clean();
}

/*
 * Enable/disable cycles, each with its event: every arm carries the next sequence number;
 * a CQE that came while disabled (not consumed yet) fires at the next enable, none is lost.
 */
static int
test_net_mlx5v_intr_rxq_cycles(void)
{
	TEST_ASSERT_SUCCESS(port_start(1, 1, 0, 0), "start");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, 0, RTE_EPOLL_PER_THREAD,
						      RTE_INTR_EVENT_ADD, NULL), "epoll add");
	TEST_ASSERT_SUCCESS(ut_eth_rx_intr_cycles(g_port, 0, 8, QUIET_MS, &rx_ops), "cycles");
	/* A CQE while disabled: nothing wakes until enable arms the CQ behind it. */
	TEST_ASSERT_SUCCESS(ut_eth_rx_intr_pending(g_port, 0, 1000, QUIET_MS, &rx_ops), "pending");
	/* Two enables in a row (no disable between) arm twice with the same number. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 0), "enable");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 0), "enable again");
	TEST_ASSERT_SUCCESS(rx_cqe(0), "CQE");
	TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, NULL), 1, "no wake-up after two enables");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, 0), "disable");
	rx_consume(0, 1);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return doorbells_clean();
}

/* Four queues, a vector and an EQ each; a CQE on queue 2 wakes queue 2 only. */
static int
test_net_mlx5v_intr_four_vectors(void)
{
	struct mlx5v_intr_port_info info;
	struct mlx5v_intr_rxq_info rxq[16];
	uintptr_t data = 0;
	unsigned int q, r;

	TEST_ASSERT_SUCCESS(port_start(4, 1, 0, 0), "start");
	TEST_ASSERT_EQUAL(intr_info(&info, rxq), 4, "four queues");
	TEST_ASSERT_EQUAL(info.nb_vec, 4u, "four vectors");
	TEST_ASSERT_EQUAL(msi_allocated(), 4u, "four vectors allocated in the core");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_list(g_dev, NULL, 0), 4, "four DEVX EQs");
	for (q = 0; q < 4; q++) {
		TEST_ASSERT(rxq[q].vector >= 1 && rxq[q].sharing == 1, "queue %u: own vector", q);
		TEST_ASSERT_EQUAL(rte_eth_dev_rx_intr_ctl_q_get_fd(g_port, q), rxq[q].fd,
				  "queue %u: fd", q);
		for (r = 0; r < q; r++)
			TEST_ASSERT(rxq[q].vector != rxq[r].vector && rxq[q].eqn != rxq[r].eqn &&
				    rxq[q].fd != rxq[r].fd, "queues %u and %u share", r, q);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, q, RTE_EPOLL_PER_THREAD,
							      RTE_INTR_EVENT_ADD,
							      (void *)(uintptr_t)(0x100 + q)),
				    "epoll add %u", q);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, q), "enable %u", q);
	}
	TEST_ASSERT_SUCCESS(rx_cqe(2), "CQE on queue 2");
	TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, &data), 1, "one queue woke");
	TEST_ASSERT_EQUAL(data, 0x102u, "queue 2 woke");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, 2), "disable 2");
	rx_consume(2, 1);
	TEST_ASSERT_EQUAL(wait_rx(QUIET_MS, NULL), 0, "another queue woke");
	/* Each queue in turn. */
	for (q = 0; q < 4; q++) {
		if (q == 2)
			TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, q), "re-enable");
		TEST_ASSERT_SUCCESS(rx_cqe(q), "CQE on queue %u", q);
		TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, &data), 1, "queue %u: no wake-up", q);
		TEST_ASSERT_EQUAL(data, 0x100u + q, "queue %u woke", q);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, q), "disable %u", q);
		rx_consume(q, 1);
	}
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(nothing_left(), "after stop");
	/* After a restart the queues register again: stop dropped the stale epoll entries. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "restart");
	for (q = 0; q < 4; q++)
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, q, RTE_EPOLL_PER_THREAD,
							      RTE_INTR_EVENT_ADD, NULL),
				    "epoll add %u after restart", q);
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 3), "enable 3");
	TEST_ASSERT_SUCCESS(rx_cqe(3), "CQE on queue 3");
	TEST_ASSERT_EQUAL(wait_rx(UT_WAIT_LIMIT_MS, NULL), 1, "no wake-up after restart");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, 3), "disable 3");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(g_port), "close");
	TEST_ASSERT_SUCCESS(nothing_left(), "after close");
	return doorbells_clean();
}

static int
setup_two_vectors(void)
{
	/* msix=3: vector 0 is the core's, two are left for four queues. */
	UT_DEV_VDEV_ONLY("msix=3 is a knob of the model, the launcher's for every case");
	return attach("wire=loop,msix=3") == 0 ? TEST_SUCCESS : TEST_FAILED;
}

/* Too few vectors: queues share them round-robin, each keeps its EQ and its handle fd. */
static int
test_net_mlx5v_intr_shared_vectors(void)
{
	struct mlx5v_intr_port_info info;
	struct mlx5v_intr_rxq_info rxq[16];
	uintptr_t data = 0;
	unsigned int q;

	TEST_ASSERT_SUCCESS(port_start(4, 1, 0, 0), "start");
	TEST_ASSERT_EQUAL(intr_info(&info, rxq), 4, "four queues");
	TEST_ASSERT_EQUAL(info.nb_vec, 2u, "two vectors");
	for (q = 0; q < 4; q++) {
		TEST_ASSERT_EQUAL(rxq[q].vector, rxq[q % 2].vector, "queue %u: vector", q);
		TEST_ASSERT_EQUAL(rxq[q].sharing, 2u, "queue %u: two per vector", q);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(g_port, q, RTE_EPOLL_PER_THREAD,
							      RTE_INTR_EVENT_ADD,
							      (void *)(uintptr_t)(0x200 + q)),
				    "epoll add %u", q);
	}
	TEST_ASSERT(rxq[0].vector != rxq[1].vector && rxq[0].eqn != rxq[2].eqn,
		    "vectors or EQs mixed up");
	/* Only queue 3 armed: its vector (shared with queue 1) wakes the lcore. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, 3), "enable 3");
	TEST_ASSERT_SUCCESS(rx_cqe(1), "CQE on the unarmed queue 1");
	TEST_ASSERT_EQUAL(wait_rx(QUIET_MS, NULL), 0, "an unarmed queue woke the lcore");
	TEST_ASSERT_SUCCESS(rx_cqe(3), "CQE on queue 3");
	TEST_ASSERT(wait_rx(UT_WAIT_LIMIT_MS, &data) >= 1, "queue 3: no wake-up");
	TEST_ASSERT(data == 0x201u || data == 0x203u, "woke for another vector (%#lx)",
		    (unsigned long)data);
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, 3), "disable 3");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(g_port), "close");
	TEST_ASSERT_SUCCESS(nothing_left(), "after close");
	return doorbells_clean();
}

/* Bad use: a clear error, nothing created. */
static int
test_net_mlx5v_intr_rxq_errors(void)
{
	struct rte_pmd_mlx5v_msi_vector *msi[8];
	struct rte_pmd_mlx5v_dev *pdev = rte_pmd_mlx5v_dev_get(ut_dev_name(VDEV_NAME));
	unsigned int n = 0;

	/* Without intr_conf.rxq: no queue event in the handle, enable is not supported. */
	TEST_ASSERT_SUCCESS(port_start(2, 0, 0, 0), "start without Rx interrupts");
	TEST_ASSERT(rte_eth_dev_rx_intr_ctl_q(g_port, 0, RTE_EPOLL_PER_THREAD,
					      RTE_INTR_EVENT_ADD, NULL) < 0, "epoll add");
	TEST_ASSERT_EQUAL(rte_eth_dev_rx_intr_enable(g_port, 0), -ENOTSUP, "enable");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_list(g_dev, NULL, 0), 0, "an EQ without intr_conf.rxq");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	/* Every vector taken by the application: start fails, nothing left. */
	while (n < RTE_DIM(msi) && (msi[n] = rte_pmd_mlx5v_devx_alloc_msi_vector(pdev)) != NULL)
		n++;
	TEST_ASSERT(n > 0 && n < RTE_DIM(msi), "%u vectors taken", n);
	TEST_ASSERT_EQUAL(port_start(2, 1, 0, 0), -ENOSPC, "start without a vector");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_list(g_dev, NULL, 0), 0, "EQs left");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ), 0u, "CQs left");
	while (n > 0)
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(msi[--n]), "free");
	/* Enable of a stopped port. */
	TEST_ASSERT(rte_eth_dev_rx_intr_enable(g_port, 0) < 0, "enable while stopped");
	return nothing_left();
}

/* A failing CREATE_EQ (the first, and the third for lack of EQs) and CREATE_CQ unwind. */
static int
test_net_mlx5v_intr_start_fails_cleanly(void)
{
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ,
						    MLX5V_CMD_STAT_BAD_PARAM_ERR, 0x5e),
			    "fail knob");
	TEST_ASSERT(port_start(4, 1, 0, 0) < 0, "start with CREATE_EQ failing");
	TEST_ASSERT_SUCCESS(nothing_left(), "after CREATE_EQ failed");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, RTE_PMD_MLX5V_CMD_OP_CREATE_CQ,
						    MLX5V_CMD_STAT_BAD_PARAM_ERR, 0x5e),
			    "fail knob");
	TEST_ASSERT(rte_eth_dev_start(g_port) < 0, "start with CREATE_CQ failing");
	TEST_ASSERT_SUCCESS(nothing_left(), "after CREATE_CQ failed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(g_port), "start");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_list(g_dev, NULL, 0), 4, "four EQs");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return nothing_left();
}

static int
setup_three_eqs(void)
{
	/* max_eqs=3: the async EQ and two more; the third queue's CREATE_EQ is refused. */
	UT_DEV_VDEV_ONLY("max_eqs=3 is a knob of the model, the launcher's for every case");
	return attach("wire=loop,max_eqs=3") == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
test_net_mlx5v_intr_eqs_run_out(void)
{
	TEST_ASSERT(port_start(4, 1, 0, 0) < 0, "four queues with room for two EQs");
	TEST_ASSERT_SUCCESS(nothing_left(), "after the third CREATE_EQ failed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(port_start(2, 1, 0, 0), "two queues fit");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	return nothing_left();
}

/* The cable out and back: an LSC event each time, with the new status. */
static int
test_net_mlx5v_intr_lsc(void)
{
	TEST_ASSERT_SUCCESS(ut_eth_intr_advertised(g_port), "interrupts");
	__atomic_store_n(&g_ev.lsc, 0, __ATOMIC_RELAXED);
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_register(g_port, RTE_ETH_EVENT_INTR_LSC,
							  ut_eth_event_cb, &g_ev), "callback");
	TEST_ASSERT_SUCCESS(port_start(1, 0, 1, 0), "start with intr_conf.lsc");
	TEST_ASSERT_SUCCESS(ut_eth_lsc_cable(g_port, &g_ev, link_set), "cable out and in");
	/* set_link_down writes PAOS: the device reports it like a cable change. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_down(g_port), "link down");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_ev.lsc, 3), "no LSC event for admin down");
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_ev.lsc_status, __ATOMIC_RELAXED), RTE_ETH_LINK_DOWN,
			  "the event's link status");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_up(g_port), "link up");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_ev.lsc, 4), "no LSC event for admin up");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_unregister(g_port, RTE_ETH_EVENT_INTR_LSC,
							    ut_eth_event_cb, &g_ev), "unregister");
	return TEST_SUCCESS;
}

/* Short command timeouts: with the interrupt thread held, commands end by EQ recovery. */
static int
setup_loop_fast_cmd(void)
{
	return attach_pci("wire=loop,cmd_to_ms=200", "cmd_to_ms=200") == 0 ? TEST_SUCCESS :
										   TEST_FAILED;
}

/* 1 while the test holds the EAL interrupt thread in intr_thread_hold(). */
static int g_hold;
static int g_held;

/* An EAL alarm: the interrupt thread waits here until the test lets it go (bounded). */
static void
intr_thread_hold(void *arg)
{
	RTE_SET_USED(arg);
	__atomic_store_n(&g_held, 1, __ATOMIC_RELEASE);
	UT_WAIT_FOR(__atomic_load_n(&g_hold, __ATOMIC_ACQUIRE) == 0);
	__atomic_store_n(&g_held, 0, __ATOMIC_RELEASE);
}

/*
 * set_link_down reads the link itself after PAOS. When that read comes before the alarm of
 * the PORT_CHANGE EQE (on silicon the event may be handled any time later), the alarm finds
 * the link as it left it: the LSC must come all the same. The EAL interrupt thread is held
 * while set_link_down runs, so its commands end by the command layer's EQ recovery on this
 * thread (cmd_to_ms=200), which also takes the PORT_CHANGE EQE; the alarm runs once the
 * thread is let go.
 */
static int
test_net_mlx5v_intr_lsc_admin_first(void)
{
	struct rte_eth_link link;
	int ret;

	__atomic_store_n(&g_ev.lsc, 0, __ATOMIC_RELAXED);
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_register(g_port, RTE_ETH_EVENT_INTR_LSC,
							  ut_eth_event_cb, &g_ev), "callback");
	TEST_ASSERT_SUCCESS(port_start(1, 0, 1, 0), "start with intr_conf.lsc");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(g_port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "up at start");
	__atomic_store_n(&g_hold, 1, __ATOMIC_RELEASE);
	TEST_ASSERT_SUCCESS(rte_eal_alarm_set(1, intr_thread_hold, NULL), "alarm");
	if (UT_WAIT_FOR(__atomic_load_n(&g_held, __ATOMIC_ACQUIRE)) != 0) {
		__atomic_store_n(&g_hold, 0, __ATOMIC_RELEASE);
		TEST_ASSERT(0, "the interrupt thread did not come");
	}
	ret = rte_eth_dev_set_link_down(g_port);
	rte_eth_link_get_nowait(g_port, &link);
	__atomic_store_n(&g_hold, 0, __ATOMIC_RELEASE);
	TEST_ASSERT_SUCCESS(ret, "link down");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_DOWN, "set_link_down read the link");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_ev.lsc, 1), "no LSC event for admin down");
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_ev.lsc_status, __ATOMIC_RELAXED), RTE_ETH_LINK_DOWN,
			  "the event's link status");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_unregister(g_port, RTE_ETH_EVENT_INTR_LSC,
							    ut_eth_event_cb, &g_ev), "unregister");
	return TEST_SUCCESS;
}

/* A fatal health syndrome: the device is dead, the application hears RMV. */
static int
test_net_mlx5v_intr_rmv(void)
{
	__atomic_store_n(&g_ev.rmv, 0, __ATOMIC_RELAXED);
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_register(g_port, RTE_ETH_EVENT_INTR_RMV,
							  ut_eth_event_cb, &g_ev), "callback");
	TEST_ASSERT_SUCCESS(port_start(2, 1, 0, 1), "start with intr_conf.rmv");
	mlx5v_sim_health_fatal(g_sim, MLX5V_HEALTH_SYND_HW_FTL_ERR);
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_ev.rmv, 1), "no RMV event");
	TEST_ASSERT(mlx5v_dev_is_dead(g_dev), "device not dead");
	/* Teardown of a dead device still frees the EQs and the vectors. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_list(g_dev, NULL, 0), 0, "DEVX EQs left");
	TEST_ASSERT_EQUAL(msi_allocated(), 0u, "MSI vectors left");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(g_port), "close");
	return TEST_SUCCESS;
}

/*
 * The application detaches the device itself: no RMV, which would ask it to remove a port
 * it is removing already (testpmd's "port detach" then detached twice).
 */
static int
test_net_mlx5v_intr_detach_no_rmv(void)
{
	__atomic_store_n(&g_ev.rmv, 0, __ATOMIC_RELAXED);
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RMV,
							  ut_eth_event_cb, &g_ev), "callback");
	TEST_ASSERT_SUCCESS(port_start(2, 1, 0, 1), "start with intr_conf.rmv");
	detach();
	ut_sleep_ms(QUIET_MS);
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_unregister(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RMV,
							    ut_eth_event_cb, &g_ev), "unregister");
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_ev.rmv, __ATOMIC_ACQUIRE), 0,
			  "RMV raised for the application's own detach");
	return TEST_SUCCESS;
}

static int
testsuite_setup(void)
{
	g_mp = rte_pktmbuf_pool_create("ut_net_mlx5v_intr", 2048, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	return g_mp != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
testsuite_teardown(void)
{
	rte_mempool_free(g_mp);
}

static struct unit_test_suite net_mlx5v_intr_suite = {
	.suite_name = "mlx5v PMD interrupts on the simulated function",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx5v_intr_rxq_wakes),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx5v_intr_rxq_cycles),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx5v_intr_four_vectors),
		TEST_CASE_ST(setup_two_vectors, teardown, test_net_mlx5v_intr_shared_vectors),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx5v_intr_rxq_errors),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx5v_intr_start_fails_cleanly),
		TEST_CASE_ST(setup_three_eqs, teardown, test_net_mlx5v_intr_eqs_run_out),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx5v_intr_lsc),
		TEST_CASE_ST(setup_loop_fast_cmd, teardown, test_net_mlx5v_intr_lsc_admin_first),
		TEST_CASE_ST(setup_loop_dead, teardown, test_net_mlx5v_intr_rmv),
		TEST_CASE_ST(setup_loop, teardown, test_net_mlx5v_intr_detach_no_rmv),
		TEST_CASES_END()
	}
};

static int
test_net_mlx5v_intr(void)
{
	return unit_test_suite_runner(&net_mlx5v_intr_suite);
}

REGISTER_TEST_COMMAND(net_mlx5v_intr_autotest, test_net_mlx5v_intr);
