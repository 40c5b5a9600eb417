/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the DEVX EQ / MSI-vector API: general command, interrupts, end to end. */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_epoll.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "test.h"

#include "ut_mlx5v_devx.h"

/*
 * The first event of a new EQ: the device writes the EQE with owner 0 (first lap) whatever
 * software left there. GEN_EQE also copies type, sub_type and data from the command, and
 * sets the owner bit itself.
 */
static int
first_eqe_run(enum ut_src_kind kind)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct ut_src src;
	const uint8_t *eqe;
	uint32_t eqn, n = 1;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(3, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, eqn), "source");
	TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 8, 0), "EQE before any event");
	TEST_ASSERT_SUCCESS(ut_src_raise(&src, 0x77), "%s", ut_src_name(kind));
	eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 8, 0);
	TEST_ASSERT_NOT_NULL(eqe, "no EQE written");
	TEST_ASSERT(ut_src_eqe_is(&src, eqe, 0x77), "type %u", rte_pmd_mlx5v_eqe_type(eqe));
	/* First lap: the device writes owner 0 (GEN_EQE sent 0x5a). */
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_OWNER_OFF], 0, "owner %#x",
			  eqe[RTE_PMD_MLX5V_EQE_OWNER_OFF]);
	TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 8, 1), "a second EQE");
	if (kind == UT_SRC_GEN_EQE) {
		TEST_ASSERT_SUCCESS(ut_gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, 4, 0x78),
				    "GEN_EQE");
		eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 8, n++);
		TEST_ASSERT_NOT_NULL(eqe, "no EQE written");
		TEST_ASSERT_EQUAL(rte_pmd_mlx5v_eqe_type(eqe), RTE_PMD_MLX5V_EVENT_PORT_CHANGE,
				  "type");
		TEST_ASSERT_EQUAL(rte_pmd_mlx5v_eqe_sub_type(eqe), 4, "sub_type");
		TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_DATA_OFF], 0x78, "data");
	}
	rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, n, 0);
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, n), "CI");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "source close");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_devx_first_eqe, first_eqe_run)

/*
 * Lengths above RTE_PMD_MLX5V_CMD_MAX_LEN are EINVAL and never reach the device, for the
 * general command and for create_eq.
 */
static int
test_mlx5v_devx_general_cmd_too_long(void)
{
	const size_t len = RTE_PMD_MLX5V_CMD_MAX_LEN + 1;
	uint8_t *in = calloc(1, len);
	uint8_t *out = calloc(1, len);
	struct rte_pmd_mlx5v_msi_vector *m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	struct rte_pmd_mlx5v_eq *eq;
	uint64_t cmds;
	int r1, r2, e3;

	TEST_ASSERT(in != NULL && out != NULL && m != NULL, "alloc");
	cmds = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_EQ);
	r1 = rte_pmd_mlx5v_devx_general_cmd(g_dev, in, len, out, 16);
	r2 = rte_pmd_mlx5v_devx_general_cmd(g_dev, in, 16, out, len);
	ut_eq_in_build(in, len, 4, g_uar->page_id, m->vector, 0);
	errno = 0;
	eq = rte_pmd_mlx5v_devx_create_eq(g_dev, in, len, out, 16);
	e3 = eq == NULL ? errno : 0;
	if (eq != NULL)
		rte_pmd_mlx5v_devx_destroy_eq(eq);
	rte_pmd_mlx5v_devx_free_msi_vector(m);
	free(in);
	free(out);
	TEST_ASSERT_EQUAL(r1, EINVAL, "inlen above the maximum: %d", r1);
	TEST_ASSERT_EQUAL(r2, EINVAL, "outlen above the maximum: %d", r2);
	TEST_ASSERT_EQUAL(e3, EINVAL, "create_eq inlen above the maximum: %d", e3);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "an oversized command reached the device");
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_general_cmd(void)
{
	uint8_t in[16];
	uint8_t out[16];

	memset(in, 0, sizeof(in));
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(NULL, in, 16, out, 16), EINVAL, "dev");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(g_dev, NULL, 16, out, 16), EINVAL,
			  "in");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(g_dev, in, 8, out, 16), EINVAL,
			  "inlen");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(g_dev, in, 16, out, 8), EINVAL,
			  "outlen");
	TEST_ASSERT_SUCCESS(test_mlx5v_devx_general_cmd_too_long(), "oversized lengths");
	/* An opcode outside the raw command policy never reaches the device. */
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, 0x7ff);
	memset(out, 0xff, sizeof(out));
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(g_dev, in, 16, out, 16), EPERM,
			  "unknown opcode");
	TEST_ASSERT_EQUAL(errno, EPERM, "errno");
	/* An allowed command the device fails: it ran, out holds status and syndrome. */
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, 0x100);
	in[7] = 0x7f;
	memset(out, 0xff, sizeof(out));
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(g_dev, in, 16, out, 16), EREMOTEIO,
			  "QUERY_HCA_CAP with a bad op_mod");
	TEST_ASSERT_EQUAL(errno, EREMOTEIO, "errno");
	TEST_ASSERT_NOT_EQUAL(RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS), 0, "status");
	return TEST_SUCCESS;
}

#define STRESS_ITERS 100

struct stress_arg {
	enum ut_src_kind kind;
	uint32_t errors;
	int iters;
};

static int
stress_worker(void *arg)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct stress_arg *sa = arg;
	uint32_t *errors = &sa->errors;
	struct rte_pmd_mlx5v_uar *uar;
	struct ut_src src;
	uint32_t eqn, dummy;
	int i;

	/*
	 * A UAR per lcore for the CQ arm doorbells: the simulator sees a doorbell word, not
	 * each store, so two lcores storing into the same word before its engine looks would
	 * lose one arm (silicon takes both writes; doc/guides/sim/mlx5v_sim.rst).
	 */
	uar = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	if (uar == NULL) {
		(*errors)++;
		return 0;
	}
	for (i = 0; i < sa->iters; i++) {
		m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
		if (m == NULL) {
			(*errors)++;
			continue;
		}
		eq = ut_eq_create(2 + i % 6, m->vector, 0, &eqn);
		if (eq == NULL) {
			(*errors)++;
			rte_pmd_mlx5v_devx_free_msi_vector(m);
			continue;
		}
		if (ut_src_open_uar(&src, sa->kind, eqn, uar) != 0 ||
		    ut_src_raise(&src, (uint8_t)i) != 0 ||
		    rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 1u << (2 + i % 6), 0) == NULL)
			(*errors)++;
		if (ut_src_close(&src) != 0)
			(*errors)++;
		if (rte_pmd_mlx5v_devx_query_eqn(g_dev, 0, &dummy) != 0)
			(*errors)++;
		if (rte_pmd_mlx5v_devx_free_msi_vector(m) != EBUSY)
			(*errors)++;
		if (rte_pmd_mlx5v_devx_destroy_eq(eq) != 0)
			(*errors)++;
		if (rte_pmd_mlx5v_devx_free_msi_vector(m) != 0)
			(*errors)++;
	}
	if (rte_pmd_mlx5v_devx_free_uar(uar) != 0)
		(*errors)++;
	return 0;
}

static int
multi_lcore_run(enum ut_src_kind kind)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct stress_arg sm, sw;
	unsigned int eqs, win, round;
	uint64_t c0 = 0, c1, b0 = 0, b1;

	if (worker >= RTE_MAX_LCORE) {
		printf("needs a second lcore (-l 0-1)\n");
		return TEST_SKIPPED;
	}
	/*
	 * Round 0 warms up: the command layer reserves a mailbox (EAL memory, a DMA window)
	 * per slot the first time a slot is used, and two lcores use a second slot. The
	 * leak checks compare round 1 with the state after round 0.
	 */
	eqs = ut_live_eqs();
	win = 0;
	for (round = 0; round < 2; round++) {
		if (round == 1) {
			win = ut_live_windows();
			b0 = ut_heap_bytes(&c0);
		}
		sm.errors = 0;
		sw.errors = 0;
		sm.kind = kind;
		sw.kind = kind;
		sm.iters = round == 0 ? 10 : STRESS_ITERS;
		sw.iters = sm.iters;
		TEST_ASSERT_SUCCESS(rte_eal_remote_launch(stress_worker, &sw, worker), "launch");
		stress_worker(&sm);
		rte_eal_wait_lcore(worker);
		TEST_ASSERT_EQUAL(sm.errors, 0, "%u errors on the main lcore", sm.errors);
		TEST_ASSERT_EQUAL(sw.errors, 0, "%u errors on lcore %u", sw.errors, worker);
		TEST_ASSERT_EQUAL(ut_live_eqs(), eqs, "EQs leaked in hardware");
	}
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "DMA windows leaked: %u -> %u", win,
			  ut_live_windows());
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap leak");
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_devx_multi_lcore, multi_lcore_run)

struct ev_log {
	uint32_t n[RTE_PMD_MLX5V_EVENT_MAX];
	uint8_t last[RTE_PMD_MLX5V_EVENT_MAX][RTE_PMD_MLX5V_EQE_SIZE];
	uint32_t any;
};

static void
ev_log_cb(struct mlx5v_dev *dev, uint32_t eqn, const uint8_t *eqe, void *arg)
{
	struct ev_log *l = arg;
	uint8_t t = eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF];

	RTE_SET_USED(dev);
	RTE_SET_USED(eqn);
	memcpy(l->last[t], eqe, RTE_PMD_MLX5V_EQE_SIZE);
	__atomic_fetch_add(&l->n[t], 1, __ATOMIC_RELEASE);
}

static void
ev_any_cb(struct mlx5v_dev *dev, uint32_t eqn, const uint8_t *eqe, void *arg)
{
	struct ev_log *l = arg;

	RTE_SET_USED(dev);
	RTE_SET_USED(eqn);
	RTE_SET_USED(eqe);
	__atomic_fetch_add(&l->any, 1, __ATOMIC_RELEASE);
}

/*
 * The EAL interrupt callback of a DEVX EQ: the source's events reach the handler of their
 * type, one at a time and in bursts; a port change (a real event, the port flaps) reaches
 * the default handler.
 */
static int
intr_callback_run(enum ut_src_kind kind)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct mlx5v_devx_eq *deq;
	struct mlx5v_devx_eq_stats st;
	struct ut_src src;
	struct ev_log *l;
	uint8_t t;
	uint32_t eqn;
	int i;

	l = rte_zmalloc("ut_evlog", sizeof(*l), 0);
	TEST_ASSERT_NOT_NULL(l, "malloc");
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(6, m->vector, RTE_BIT64(RTE_PMD_MLX5V_EVENT_PORT_CHANGE), &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, eqn), "source");
	t = ut_src_type(&src);
	deq = mlx5v_devx_to_eq(eq);
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_handler_set(deq, t, ev_log_cb, l), "handler");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_handler_set(deq, MLX5V_DEVX_EVENT_ANY, ev_any_cb, l),
			    "default handler");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_handler_set(deq, 257, ev_any_cb, l), -EINVAL, "type");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(deq), "intr start");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_intr_start(deq), -EEXIST, "twice");
	TEST_ASSERT_SUCCESS(ut_wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "armed by start");
	/* Raised one at a time and in bursts: every EQE reaches its handler. */
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(ut_src_raise(&src, i), "%s", ut_src_name(kind));
		TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->n[t], i + 1),
				    "event %d not dispatched", i);
	}
	for (i = 3; i < 43; i++)
		TEST_ASSERT_SUCCESS(ut_src_raise(&src, i), "%s", ut_src_name(kind));
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->n[t], 43), "handler got %u", l->n[t]);
	TEST_ASSERT(ut_src_eqe_is(&src, l->last[t], 42), "last EQE");
	TEST_ASSERT(mlx5v_sim_port_event(g_sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_DOWN) >= 1, "down");
	TEST_ASSERT(mlx5v_sim_port_event(g_sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE) >= 1, "up");
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->any, 2), "default handler got %u", l->any);
	mlx5v_devx_eq_stats_get(deq, &st);
	TEST_ASSERT(st.intrs >= 1, "no interrupt callback ran");
	TEST_ASSERT_EQUAL(st.eqes, 45, "eqes %" PRIu64, st.eqes);
	TEST_ASSERT_EQUAL(st.by_type[t], 43, "by type");
	TEST_ASSERT_EQUAL(st.by_type[RTE_PMD_MLX5V_EVENT_PORT_CHANGE], 2, "port changes");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_stop(deq), "stop");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_intr_stop(deq), -ENOENT, "stop twice");
	/* destroy also stops a running callback by itself. */
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(deq), "restart");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "source close");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	rte_free(l);
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_devx_intr_callback, intr_callback_run)

/* A CQ the caller builds: ring + dbrec in EAL memory, DMA-mapped, CREATE_CQ by hand. */
struct user_cq {
	uint8_t *buf;
	volatile uint32_t *dbrec;
	uint64_t iova;
	uint32_t nent;
	uint32_t cqn;
	int own;                /* buf is rte_malloc'ed by user_cq_create_on() */
};

#define UCQ_LOG 6
#define UCQ_RING 4096

/* On buf (UCQ_RING + 4096 bytes, 4 KiB aligned) when not NULL, else on rte_malloc memory. */
static int
user_cq_create_on(struct user_cq *cq, uint32_t eqn, uint8_t *buf)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_CQ_IN_SIZE + 8];
	uint8_t out[RTE_PMD_MLX5V_CREATE_CQ_OUT_SIZE];
	uint8_t *cqc = in + RTE_PMD_MLX5V_CREATE_CQ_IN_CQC;
	uint32_t i;

	cq->nent = 1u << UCQ_LOG;
	cq->own = buf == NULL;
	cq->buf = buf != NULL ? buf : rte_zmalloc("ut_cq", UCQ_RING + 4096, UCQ_RING);
	if (cq->buf == NULL)
		return -1;
	cq->dbrec = (volatile uint32_t *)(cq->buf + UCQ_RING);
	/* CQEs start invalid and hardware-owned (prm/mlx5 §7.4). */
	for (i = 0; i < cq->nent; i++)
		cq->buf[i * 64 + RTE_PMD_MLX5V_CQE_OP_OWN_OFF] = RTE_PMD_MLX5V_CQE_OP_OWN_INIT;
	if (rte_pmd_mlx5v_devx_dma_map(g_dev, cq->buf, UCQ_RING + 4096, &cq->iova) != 0)
		return -1;
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_CQ);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_LOG_CQ_SIZE, UCQ_LOG);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_UAR_PAGE, g_uar->page_id);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_C_EQN, eqn);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_LOG_PAGE_SIZE, 0);
	RTE_PMD_MLX5V_SET64(cqc, RTE_PMD_MLX5V_CQC_DBR_ADDR, cq->iova + UCQ_RING);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_CQ_IN_PAS, cq->iova);
	if (rte_pmd_mlx5v_devx_general_cmd(g_dev, in, sizeof(in), out, sizeof(out)) != 0) {
		printf("CREATE_CQ: %s status %#x syndrome %#x\n", strerror(errno),
		       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
		       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
		return -1;
	}
	cq->cqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_CQ_OUT_CQN);
	return 0;
}

static int
user_cq_create(struct user_cq *cq, uint32_t eqn)
{
	return user_cq_create_on(cq, eqn, NULL);
}

static int
user_cq_destroy(struct user_cq *cq)
{
	uint8_t in[16];
	uint8_t out[16];
	int ret;

	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN, cq->cqn);
	ret = rte_pmd_mlx5v_devx_general_cmd(g_dev, in, sizeof(in), out, sizeof(out));
	ret |= rte_pmd_mlx5v_devx_dma_unmap(g_dev, cq->buf, UCQ_RING + 4096);
	if (cq->own)
		rte_free(cq->buf);
	return ret;
}

struct epoll_waiter {
	int fd;
	volatile int ready;
	int nev;
	void *data;
	uint64_t drained;
};

/* rte_epoll leaves the eventfd to us: read it in the event callback. */
static void
epoll_drain_cb(int fd, void *arg)
{
	struct epoll_waiter *w = arg;
	uint64_t cnt;

	while (read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		w->drained += cnt;
}

/* lcore 1: its own (per-thread) epoll set, one wait for the vector's fd. */
static int
epoll_waiter_main(void *arg)
{
	struct epoll_waiter *w = arg;
	struct rte_epoll_event ev;
	struct rte_epoll_event out[1];

	memset(&ev, 0, sizeof(ev));
	ev.epdata.event = EPOLLIN | EPOLLET;
	ev.epdata.data = w;
	ev.epdata.cb_fun = epoll_drain_cb;
	ev.epdata.cb_arg = w;
	if (rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_ADD, w->fd, &ev) != 0) {
		w->nev = -1;
		w->ready = 1;
		return 0;
	}
	w->ready = 1;
	w->nev = rte_epoll_wait(RTE_EPOLL_PER_THREAD, out, 1, UT_WAIT_LIMIT_MS);
	if (w->nev == 1)
		w->data = out[0].epdata.data;
	rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_DEL, w->fd, &ev);
	return 0;
}

/*
 * A CQ on EAL memory bound to a user EQ (c_eqn); CQ arm and EQ arm; the simulator posts
 * a CQE; the completion EQE names the CQ and the MSI wakes rte_epoll_wait on lcore 1.
 */
static int
test_mlx5v_devx_e2e_cq_msi_epoll(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct epoll_waiter w;
	struct user_cq cq;
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	unsigned int cqs = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ);
	const uint8_t *eqe;
	const uint8_t *cqe;
	uint32_t eqn, ci = 0;
	unsigned int ms;

	if (worker >= RTE_MAX_LCORE)
		return TEST_SKIPPED;
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	/* A completion EQ: completion events ignore the mask (prm/mlx5 §6.4). */
	eq = ut_eq_create(6, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(user_cq_create(&cq, eqn), "CQ");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ), cqs + 1, "live CQ");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, ci);
	rte_pmd_mlx5v_cq_arm(g_uar, cq.dbrec, cq.cqn, 0, 0, 0);
	TEST_ASSERT_SUCCESS(ut_wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "EQ arm");
	TEST_ASSERT_SUCCESS(ut_wait_cq_st(cq.cqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "CQ arm");
	memset(&w, 0, sizeof(w));
	w.fd = m->fd;
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(epoll_waiter_main, &w, worker), "launch");
	for (ms = 0; ms < UT_WAIT_LIMIT_MS && !w.ready; ms++)
		ut_sleep_ms(1);
	TEST_ASSERT(w.ready && w.nev != -1, "waiter not ready");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.cqn, 0x2, 64), "post CQE");
	rte_eal_wait_lcore(worker);
	TEST_ASSERT_EQUAL(w.nev, 1, "rte_epoll_wait returned %d", w.nev);
	TEST_ASSERT(w.data == &w, "epoll data");
	TEST_ASSERT(w.drained >= 1, "eventfd not drained");
	eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 64, ci);
	TEST_ASSERT_NOT_NULL(eqe, "no completion EQE");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_eqe_type(eqe), RTE_PMD_MLX5V_EVENT_COMP, "type");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_COMP_CQN_OFF, 0, 23, 0),
			  cq.cqn, "cqn");
	ci++;
	cqe = rte_pmd_mlx5v_cq_next_cqe(cq.buf, cq.nent, 0);
	TEST_ASSERT_NOT_NULL(cqe, "no CQE");
	TEST_ASSERT_EQUAL((cqe[RTE_PMD_MLX5V_CQE_OP_OWN_OFF] >> 4), 0x2, "CQE opcode");
	rte_pmd_mlx5v_cq_update_ci(cq.dbrec, 1);
	TEST_ASSERT_NULL(rte_pmd_mlx5v_cq_next_cqe(cq.buf, cq.nent, 1), "a second CQE");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, ci);
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, ci), "EQ CI");
	/* The EQ cannot go while a CQ reports to it; the device says so. */
	TEST_ASSERT(rte_pmd_mlx5v_devx_destroy_eq(eq) != 0, "EQ destroyed under its CQ");
	TEST_ASSERT_SUCCESS(user_cq_destroy(&cq), "CQ destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ), cqs, "CQ leaked");
	return TEST_SUCCESS;
}

/*
 * An async-style user EQ (PORT_CHANGE | CQ_ERROR) on the EAL interrupt path: a port
 * change and a CQ overrun (CQ_ERROR, syndrome 1) arrive with their fields. The CQ uses
 * the driver-side helper (mlx5v_devx_cq_create) and a separate completion EQ.
 */
static int
test_mlx5v_devx_e2e_async_port_cq_error(void)
{
	struct rte_pmd_mlx5v_msi_vector *m[2];
	struct rte_pmd_mlx5v_eq *aeq, *ceq;
	struct mlx5v_devx_eq *deq;
	struct mlx5v_devx_cq *cq;
	struct ev_log *l;
	const uint8_t *e;
	uint64_t mask = (UINT64_C(1) << RTE_PMD_MLX5V_EVENT_PORT_CHANGE) |
			(UINT64_C(1) << RTE_PMD_MLX5V_EVENT_CQ_ERROR);
	uint32_t aeqn, ceqn, i;
	int ret = 0;

	l = rte_zmalloc("ut_evlog", sizeof(*l), 0);
	TEST_ASSERT_NOT_NULL(l, "malloc");
	m[0] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	m[1] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL, "alloc");
	aeq = ut_eq_create(5, m[0]->vector, mask, &aeqn);
	ceq = ut_eq_create(6, m[1]->vector, 0, &ceqn);
	TEST_ASSERT(aeq != NULL && ceq != NULL, "create");
	deq = mlx5v_devx_to_eq(aeq);
	mlx5v_devx_eq_handler_set(deq, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, ev_log_cb, l);
	mlx5v_devx_eq_handler_set(deq, RTE_PMD_MLX5V_EVENT_CQ_ERROR, ev_log_cb, l);
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(deq), "intr");
	cq = mlx5v_devx_cq_create((struct mlx5v_dev *)g_dev, 3, ceqn, g_uar);
	TEST_ASSERT_NOT_NULL(cq, "CQ: %s", rte_strerror(rte_errno));
	/* Port 1 goes down. */
	TEST_ASSERT(mlx5v_sim_port_event(g_sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_DOWN) >= 1,
		    "port event reached no EQ");
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->n[RTE_PMD_MLX5V_EVENT_PORT_CHANGE], 1), "port");
	e = l->last[RTE_PMD_MLX5V_EVENT_PORT_CHANGE];
	TEST_ASSERT_EQUAL(e[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF], RTE_PMD_MLX5V_PORT_CHANGE_DOWN,
			  "sub_type");
	TEST_ASSERT_EQUAL((e[RTE_PMD_MLX5V_EQE_PORT_OFF] >> 4), 1, "port number");
	/* Never consume the CQ: the device overruns it and reports CQ_ERROR. */
	for (i = 0; i <= cq->nent + 1 && ret != -ENOSPC; i++)
		ret = mlx5v_sim_post_cqe(g_sim, cq->cqn, 0x2, 64);
	TEST_ASSERT_EQUAL(ret, -ENOSPC, "no overrun after %u CQEs", i);
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->n[RTE_PMD_MLX5V_EVENT_CQ_ERROR], 1), "CQ error");
	e = l->last[RTE_PMD_MLX5V_EVENT_CQ_ERROR];
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_prm_get(e + RTE_PMD_MLX5V_EQE_CQ_ERR_CQN_OFF, 0, 23, 0),
			  cq->cqn, "cqn");
	TEST_ASSERT_EQUAL(e[RTE_PMD_MLX5V_EQE_CQ_ERR_SYNDROME_OFF],
			  RTE_PMD_MLX5V_CQ_ERR_SYND_OVERRUN, "syndrome");
	/* Port 1 comes back. */
	mlx5v_sim_port_event(g_sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE);
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->n[RTE_PMD_MLX5V_EVENT_PORT_CHANGE], 2),
			    "port up");
	TEST_ASSERT_SUCCESS(mlx5v_devx_cq_destroy(cq), "CQ destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(aeq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(ceq), "destroy");
	ut_drain_fd(m[1]->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[0]), "free");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[1]), "free");
	rte_free(l);
	return TEST_SUCCESS;
}

/* The driver-side CQ helper: owner-initialised ring, arm, poll. */
static int
test_mlx5v_devx_cq_helper(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct mlx5v_devx_cq *cq;
	uint64_t sw_owned = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_RING_SW_OWNED);
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	cq = mlx5v_devx_cq_create((struct mlx5v_dev *)g_dev, 4, eqn, g_uar);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_RING_SW_OWNED), sw_owned,
			  "CQ ring reached the device software-owned");
	mlx5v_devx_cq_arm(cq, 0);
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, 0);
	TEST_ASSERT_SUCCESS(ut_wait_cq_st(cq->cqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "CQ arm");
	TEST_ASSERT_SUCCESS(ut_wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "EQ arm");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq->cqn, 0x0, 128), "post");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq->cqn, 0x0, 128), "post");
	TEST_ASSERT(ut_fd_wait(m->fd), "no MSI");
	TEST_ASSERT_EQUAL(mlx5v_devx_cq_poll(cq), 2, "CQEs");
	TEST_ASSERT_EQUAL(cq->dbrec[0], rte_cpu_to_be_32(2), "dbrec ci");
	/* One completion EQE: the CQ fired once and must be re-armed. */
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, 0), "EQE");
	TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, 1), "two EQEs for one arm");
	TEST_ASSERT_SUCCESS(mlx5v_devx_cq_destroy(cq), "CQ destroy");
	rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, 1, 0);
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, 1), "CI");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	ut_drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/*
 * Wait until the device took the CQ arm doorbell (the model clears the word it consumed),
 * then a command round trip: the engine thread has finished that doorbell pass.
 */
static int
wait_cq_db_taken(uint32_t cqn)
{
	volatile uint32_t *db = (volatile uint32_t *)((uint8_t *)g_uar->base_addr +
						      RTE_PMD_MLX5V_UAR_CQ_DB_OFF);
	unsigned int i;

	for (i = 0; i < UT_WAIT_LIMIT_MS * 10 && (db[0] != 0 || db[1] != 0); i++)
		rte_delay_us_sleep(100);
	return ut_wait_cq_st(cqn, RTE_PMD_MLX5V_EQC_ST_ARMED);
}

/*
 * The arm sequence number follows the completion events handled, not the arms: two arms
 * without an event between carry the same sn, the arm after an event the next one. The
 * model counts every arm that breaks the rule (prm/mlx5 §7.3).
 */
static int
test_mlx5v_devx_cq_arm_sn(void)
{
	uint64_t bad = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CQ_ARM_SN);
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct mlx5v_devx_cq *cq;
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	cq = mlx5v_devx_cq_create((struct mlx5v_dev *)g_dev, 4, eqn, g_uar);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	mlx5v_devx_cq_arm(cq, 0);
	TEST_ASSERT_SUCCESS(wait_cq_db_taken(cq->cqn), "first arm");
	mlx5v_devx_cq_arm(cq, 0);
	TEST_ASSERT_SUCCESS(wait_cq_db_taken(cq->cqn), "second arm");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CQ_ARM_SN), bad,
			  "sn moved on without a completion event");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, 0);
	TEST_ASSERT_SUCCESS(ut_wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "EQ arm");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq->cqn, 0x0, 64), "post");
	TEST_ASSERT(ut_fd_wait(m->fd), "no MSI");
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, 0), "EQE");
	TEST_ASSERT_EQUAL(mlx5v_devx_cq_poll(cq), 1, "CQEs");
	mlx5v_devx_cq_event(cq);
	rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, 1, 0);
	mlx5v_devx_cq_arm(cq, 0);
	TEST_ASSERT_SUCCESS(wait_cq_db_taken(cq->cqn), "arm after the event");
	TEST_ASSERT_EQUAL(cq->arm_sn, 1u, "sn after one event");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CQ_ARM_SN), bad,
			  "sn did not follow the completion event");
	TEST_ASSERT_SUCCESS(mlx5v_devx_cq_destroy(cq), "CQ destroy");
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, 1), "CI");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	ut_drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/* ---- the snapshot getters of mlx5v_api.h (what the testpmd commands print) ---- */

struct snap_ctx {
	struct mlx5v_devx_eq *eq;
	uint32_t ci[4];
	unsigned int n;
	int bad;
};

/* EQ handler: asks for the EQ's info with the poll lock held, as testpmd's handler does. */
static void
snap_cb(struct mlx5v_dev *dev, uint32_t eqn, const uint8_t *eqe, void *arg)
{
	struct snap_ctx *c = arg;
	struct mlx5v_devx_eq_info ei;
	struct mlx5v_dev_info di;

	RTE_SET_USED(eqe);
	if (mlx5v_dev_info_get(dev, &di) != 0 || strcmp(di.name, VDEV_NAME) != 0 ||
	    mlx5v_devx_eq_info_get(c->eq, &ei) != 0 || ei.eqn != eqn || c->n >= RTE_DIM(c->ci)) {
		c->bad++;
		return;
	}
	c->ci[c->n++] = ei.ci;
}

static int
api_snapshots_run(enum ut_src_kind kind)
{
	struct mlx5v_dev *dev = mlx5v_devx_dev_get(VDEV_NAME);
	struct rte_pmd_mlx5v_msi_vector *m;
	struct mlx5v_devx_eq_info ei;
	struct rte_pmd_mlx5v_eq *eq;
	struct mlx5v_dev_info di;
	struct mlx5v_msi_info mi;
	struct mlx5v_devx_eq *deq;
	struct snap_ctx c;
	struct ut_src src;
	uint32_t eqn, v;

	TEST_ASSERT_NOT_NULL(dev, "device");
	TEST_ASSERT_EQUAL(mlx5v_dev_info_get(NULL, &di), -EINVAL, "NULL device");
	TEST_ASSERT_EQUAL(mlx5v_dev_info_get(dev, NULL), -EINVAL, "NULL info");
	TEST_ASSERT_SUCCESS(mlx5v_dev_info_get(dev, &di), "dev info");
	TEST_ASSERT(strcmp(di.name, VDEV_NAME) == 0, "name %s", di.name);
	TEST_ASSERT_EQUAL(di.stage, MLX5V_STAGE_LOADED, "stage %d", di.stage);
	TEST_ASSERT_EQUAL(di.dead, 0, "dead %d", di.dead);
	TEST_ASSERT_EQUAL(di.msi_count, NB_MSIX, "vectors %u", di.msi_count);
	TEST_ASSERT(di.async_eqn >= 0, "no async EQ");
	TEST_ASSERT_EQUAL(di.pages_given, mlx5v_pages_given(dev), "pages");
	TEST_ASSERT_EQUAL(di.log_max_eq_sz, 22, "log_max_eq_sz %u", di.log_max_eq_sz);

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	TEST_ASSERT_EQUAL(mlx5v_msi_info_get(dev, NB_MSIX, &mi), -EINVAL, "out of range");
	TEST_ASSERT_EQUAL(mlx5v_msi_info_get(dev, m->vector, NULL), -EINVAL, "NULL info");
	TEST_ASSERT_SUCCESS(mlx5v_msi_info_get(dev, m->vector, &mi), "msi info");
	TEST_ASSERT_EQUAL(mi.fd, m->fd, "fd %d", mi.fd);
	TEST_ASSERT_EQUAL(mi.eq_refs, 0, "refs %u", mi.eq_refs);
	eq = ut_eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(mlx5v_msi_info_get(dev, m->vector, &mi), "msi info");
	TEST_ASSERT_EQUAL(mi.eq_refs, 1, "refs %u", mi.eq_refs);

	deq = mlx5v_devx_to_eq(eq);
	TEST_ASSERT_NOT_NULL(deq, "internal handle");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_info_get(deq, NULL), -EINVAL, "NULL info");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_info_get(deq, &ei), "eq info");
	TEST_ASSERT_EQUAL(ei.eqn, eqn, "eqn %u", ei.eqn);
	TEST_ASSERT_EQUAL(ei.nent, 16, "nent %u", ei.nent);
	TEST_ASSERT_EQUAL(ei.vector, (uint32_t)m->vector, "vector %u", ei.vector);
	TEST_ASSERT_EQUAL(ei.uar_page, g_uar->page_id, "UAR %u", ei.uar_page);
	TEST_ASSERT(ei.vaddr == eq->vaddr, "ring %p", ei.vaddr);
	TEST_ASSERT(ei.size >= 16 * RTE_PMD_MLX5V_EQE_SIZE, "size %zu", ei.size);
	TEST_ASSERT(ei.iova != 0, "no IOVA");
	TEST_ASSERT_EQUAL(ei.intr, 0, "interrupt callback on");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(deq), "intr start");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_info_get(deq, &ei), "eq info");
	TEST_ASSERT_EQUAL(ei.intr, 1, "interrupt callback off");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_stop(deq), "intr stop");

	/* From the handler, ci is the index of the EQE being handled. */
	memset(&c, 0, sizeof(c));
	c.eq = deq;
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_handler_set(deq, MLX5V_DEVX_EVENT_ANY, snap_cb, &c),
			    "handler");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, eqn), "source");
	TEST_ASSERT_SUCCESS(ut_src_raise(&src, 1), "%s", ut_src_name(kind));
	TEST_ASSERT_SUCCESS(ut_src_raise(&src, 2), "%s", ut_src_name(kind));
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_poll(deq), 2, "poll");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "source close");
	TEST_ASSERT_EQUAL(c.bad, 0, "getter failed in the handler");
	TEST_ASSERT_EQUAL(c.n, 2, "handled %u", c.n);
	TEST_ASSERT(c.ci[0] == 0 && c.ci[1] == 1, "ci %u %u", c.ci[0], c.ci[1]);
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_info_get(deq, &ei), "eq info");
	TEST_ASSERT_EQUAL(ei.ci, 2, "ci %u", ei.ci);

	ut_drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_info_get(deq, &ei), -EINVAL, "destroyed EQ");
	TEST_ASSERT_SUCCESS(mlx5v_msi_info_get(dev, m->vector, &mi), "msi info");
	TEST_ASSERT_EQUAL(mi.eq_refs, 0, "refs %u", mi.eq_refs);
	v = m->vector;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	TEST_ASSERT_SUCCESS(mlx5v_msi_info_get(dev, v, &mi), "msi info");
	TEST_ASSERT_EQUAL(mi.fd, -1, "freed vector has fd %d", mi.fd);
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_devx_api_snapshots, api_snapshots_run)

#define ZERO_VDEV "mlx5v_sim3"

/* Three completion events on a CQ of the device in g_dev, which numbers CQs from 0. */
static int
cq_number_zero_run(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct ut_src src;
	const uint8_t *eqe;
	uint32_t eqn, ci;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, UT_SRC_CQE, eqn), "CQ");
	TEST_ASSERT_EQUAL(src.cq->cqn, 0u, "the first CQ is not CQN 0");
	for (ci = 0; ci < 3; ci++) {
		rte_pmd_mlx5v_eq_arm(g_uar, eqn, ci);
		TEST_ASSERT_SUCCESS(ut_wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "EQ arm");
		/* The first arm doorbell (sn 0, ci 0, CQN 0) is the word 0. */
		TEST_ASSERT_SUCCESS(ut_src_raise(&src, ci), "completion %u on CQN 0", ci);
		TEST_ASSERT(ut_fd_wait(m->fd), "no MSI for completion %u", ci);
		ut_drain_fd(m->fd);
		eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, ci);
		TEST_ASSERT_NOT_NULL(eqe, "no EQE for completion %u", ci);
		TEST_ASSERT(ut_src_eqe_is(&src, eqe, ci), "EQE %u does not name CQN 0", ci);
		TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, ci + 1),
				 "two EQEs for one arm");
	}
	TEST_ASSERT_EQUAL(src.cq->arm_sn, 3u, "arm sn %u", src.cq->arm_sn);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CQ_ARM_SN), 0u, "arm sn refused");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_DB_MISUSE), 0u,
			  "doorbell misuse");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "CQ destroy");
	rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, ci, 0);
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, ci), "CI");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/*
 * CQN 0 (first_num=0, doc/guides/nics/running_on_hardware.rst): a DEVX CQ gets CQN 0, so its
 * arm doorbell can be the word 0, which the device must see; the CQ arms, its completions
 * raise EQEs naming CQN 0, and it re-arms with the next sequence number. A second device
 * stands in for the fixture's during the run.
 */
static int
test_mlx5v_devx_cq_number_zero(void)
{
	struct rte_pmd_mlx5v_dev *dev = g_dev;
	struct rte_pmd_mlx5v_uar *uar = g_uar;
	struct mlx5v_sim *sim = g_sim;
	int ret = TEST_FAILED;

	TEST_ASSERT_SUCCESS(rte_vdev_init(ZERO_VDEV, "msix=4,first_num=0"), "probe: %s",
			    rte_strerror(rte_errno));
	g_dev = rte_pmd_mlx5v_dev_get(ZERO_VDEV);
	g_sim = mlx5v_sim_get(ZERO_VDEV);
	g_uar = g_dev != NULL ? rte_pmd_mlx5v_devx_alloc_uar(g_dev) : NULL;
	if (g_sim != NULL && g_uar != NULL)
		ret = cq_number_zero_run();
	if (g_uar != NULL && rte_pmd_mlx5v_devx_free_uar(g_uar) != 0)
		ret = TEST_FAILED;
	g_dev = dev;
	g_uar = uar;
	g_sim = sim;
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(ZERO_VDEV), "uninit");
	return ret;
}

/* External memory for the test: 4 pages, two IOVA-contiguous pairs far apart. */
#define EXT_PAGES 4
#define EXT_IOVA0 UINT64_C(0x7e0000000000)
#define EXT_IOVA1 UINT64_C(0x7f0000000000)

/*
 * What rte_pmd_mlx5v_devx_dma_map() accepts (doc/guides/nics/running_on_hardware.rst, "IOVA
 * modes"): libc memory is EINVAL (nothing maps it into the IOMMU container); external memory
 * registered with rte_extmem_register() and an IOVA table is mapped into the container at the
 * registered IOVAs, and the device writes a CQE into it; a range across two IOVA runs and
 * external memory without IOVAs are EINVAL.
 */
static int
test_mlx5v_devx_dma_map_memory_kinds(void)
{
	rte_iova_t iovas[EXT_PAGES] = { EXT_IOVA0, EXT_IOVA0 + 4096, EXT_IOVA1, EXT_IOVA1 + 4096 };
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct user_cq cq;
	unsigned int win = ut_live_windows();
	const uint8_t *cqe;
	uint8_t *ext, *plain;
	uint64_t iova = 0;
	uint32_t eqn;

	plain = aligned_alloc(4096, 8192);
	TEST_ASSERT_NOT_NULL(plain, "aligned_alloc");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_map(g_dev, plain, 8192, &iova), EINVAL,
			  "libc memory accepted");
	free(plain);
	ext = mmap(NULL, EXT_PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	TEST_ASSERT(ext != MAP_FAILED, "mmap");
	memset(ext, 0, EXT_PAGES * 4096);
	/* Registered without IOVAs: EAL knows it, but the device has no address for it. */
	TEST_ASSERT_SUCCESS(rte_extmem_register(ext, EXT_PAGES * 4096, NULL, 0, 4096), "register");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_map(g_dev, ext, 8192, &iova), EINVAL,
			  "external memory without IOVAs accepted");
	TEST_ASSERT_SUCCESS(rte_extmem_unregister(ext, EXT_PAGES * 4096), "unregister");
	TEST_ASSERT_SUCCESS(rte_extmem_register(ext, EXT_PAGES * 4096, iovas, EXT_PAGES, 4096),
			    "register with IOVAs");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_map(g_dev, ext + 4096, 8192, &iova), EINVAL,
			  "a range across two IOVA runs accepted");
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "a refused map left a window");
	/* A CQ on the first pair: ring page then dbrec page, written by the device. */
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(6, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(user_cq_create_on(&cq, eqn, ext), "CQ on external memory");
	TEST_ASSERT_EQUAL(cq.iova, EXT_IOVA0, "IOVA 0x%" PRIx64 ", registered 0x%" PRIx64,
			  cq.iova, EXT_IOVA0);
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.cqn, 0x2, 64), "post CQE");
	cqe = rte_pmd_mlx5v_cq_next_cqe(cq.buf, cq.nent, 0);
	TEST_ASSERT_NOT_NULL(cqe, "the device did not write the CQE into external memory");
	TEST_ASSERT_EQUAL((cqe[RTE_PMD_MLX5V_CQE_OP_OWN_OFF] >> 4), 0x2, "CQE opcode");
	TEST_ASSERT_SUCCESS(user_cq_destroy(&cq), "CQ destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "DMA window leaked");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_IOMMU_FAULTS), 0u, "IOMMU fault");
	TEST_ASSERT_SUCCESS(rte_extmem_unregister(ext, EXT_PAGES * 4096), "unregister");
	munmap(ext, EXT_PAGES * 4096);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_devx_events_suite = {
	.suite_name = "mlx5v DEVX API: events",
	.setup = ut_devx_setup,
	.teardown = ut_devx_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_devx_first_eqe),
		TEST_CASE(test_mlx5v_devx_first_eqe_cqe),
		TEST_CASE(test_mlx5v_devx_general_cmd),
		TEST_CASE(test_mlx5v_devx_multi_lcore),
		TEST_CASE(test_mlx5v_devx_multi_lcore_cqe),
		TEST_CASE(test_mlx5v_devx_intr_callback),
		TEST_CASE(test_mlx5v_devx_intr_callback_cqe),
		TEST_CASE(test_mlx5v_devx_api_snapshots),
		TEST_CASE(test_mlx5v_devx_api_snapshots_cqe),
		TEST_CASE(test_mlx5v_devx_e2e_cq_msi_epoll),
		TEST_CASE(test_mlx5v_devx_e2e_async_port_cq_error),
		TEST_CASE(test_mlx5v_devx_cq_helper),
		TEST_CASE(test_mlx5v_devx_cq_arm_sn),
		TEST_CASE(test_mlx5v_devx_cq_number_zero),
		TEST_CASE(test_mlx5v_devx_dma_map_memory_kinds),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_devx_events(void)
{
	return unit_test_suite_runner(&mlx5v_devx_events_suite);
}

REGISTER_TEST_COMMAND(mlx5v_devx_events_autotest, test_mlx5v_devx_events);
