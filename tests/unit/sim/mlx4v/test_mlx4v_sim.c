/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Unit tests of the simulated ConnectX-3 through the raw views: loopback from a
 * QP's SQ into an RWQ of another object, completions and events, port pairing,
 * QP RQ and SRQ receive, and the misuse the model must flag.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_mempool.h>
#include <rte_thash.h>

#include "test.h"

#include "mlx4v_test_queues.h"

#define SIM_NAME "mlx4v_sim_t0"
#define BUF_SIZE 2048
#define NBUF 32

static struct rte_pmd_mlx4v_dev *g_dev;
static struct rte_pmd_mlx4v_pd *g_pd;
static struct mlx4v_sim *g_sim;
static uint8_t *g_mem;
static struct rte_pmd_mlx4v_mr *g_mr;
static uint32_t g_lkey;

/* The local MAC every receive queue has a rule for. */
static const uint8_t test_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x4d, 0x01 };

static uint8_t *
buf_at(unsigned int i)
{
	return g_mem + (size_t)i * BUF_SIZE;
}

static int
sim_setup(void)
{
	if (rte_vdev_init(SIM_NAME, "ports=2") != 0)
		return TEST_FAILED;
	g_sim = mlx4v_sim_get(SIM_NAME);
	g_dev = rte_pmd_mlx4v_dev_open(SIM_NAME);
	if (g_sim == NULL || g_dev == NULL)
		return TEST_FAILED;
	g_pd = rte_pmd_mlx4v_alloc_pd(g_dev);
	g_mem = rte_zmalloc(NULL, (size_t)NBUF * BUF_SIZE, 4096);
	if (g_pd == NULL || g_mem == NULL)
		return TEST_FAILED;
	g_mr = rte_pmd_mlx4v_reg_mr(g_pd, g_mem, (size_t)NBUF * BUF_SIZE);
	if (g_mr == NULL || rte_pmd_mlx4v_mr_lkey(g_mr, &g_lkey) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
sim_teardown(void)
{
	rte_pmd_mlx4v_dereg_mr(g_mr);
	rte_free(g_mem);
	rte_pmd_mlx4v_dealloc_pd(g_pd);
	rte_pmd_mlx4v_dev_close(g_dev);
	rte_vdev_uninit(SIM_NAME);
}

static int
ut_setup(void)
{
	mlx4v_sim_misuse_reset(g_sim);
	memset(g_mem, 0, (size_t)NBUF * BUF_SIZE);
	return TEST_SUCCESS;
}

/* Send the len-byte frame at buf to test_mac (written over its first bytes). */
static void
tx_send(struct mlx4v_test_txq *t, void *buf, uint32_t len, int signal)
{
	memcpy(buf, test_mac, sizeof(test_mac));
	mlx4v_test_sq_send(&t->sq, g_lkey, buf, len, signal);
}

/* A receive queue with CQ events and a MAC rule for test_mac, the MAC tx_send() writes. */
static int
rxq_create(struct mlx4v_test_rxq *r, struct rte_pmd_mlx4v_dev *dev, struct rte_pmd_mlx4v_pd *pd,
	   uint8_t port, uint32_t nwqe)
{
	return mlx4v_test_rxq_create(r, dev, pd, port, nwqe, 1, test_mac);
}

/* Take (and ack) one event of a CQ; the caller's sn copy follows, as DPDK's does. */
static int
take_event(struct mlx4v_test_rxq *r)
{
	TEST_ASSERT(mlx4v_test_fd_wait(rte_pmd_mlx4v_cq_event_fd(r->cq), g_sim,
				       MLX4V_TEST_POLLS), "no event on the eventfd");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_get_cq_event(r->cq), "get_cq_event");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_ack_cq_events(r->cq, 1), "ack");
	r->tcq.sn++;
	return TEST_SUCCESS;
}

/* The "done when" scenario: SQ of one object -> RWQ of another, CQEs, armed event. */
static int
test_mlx4v_sim_raw_loopback(void)
{
	static const uint32_t len[4] = { 60, 128, 1000, 1514 };
	struct mlx4v_sim_stats st;
	struct mlx4_cqe *cqe;
	struct mlx4v_test_txq t;
	struct mlx4v_test_rxq r;
	unsigned int i;

	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 64), "txq");
	TEST_ASSERT_SUCCESS(rxq_create(&r, g_dev, g_pd, 1, 16), "rxq");
	TEST_ASSERT_EQUAL(r.tcq.v.arm_sn, 1, "arm_sn of a fresh CQ");
	for (i = 0; i < 8; i++)
		mlx4v_test_rq_post(&r.rq, g_lkey, buf_at(16 + i), BUF_SIZE);
	mlx4v_test_cq_arm(&r.tcq, MLX4_CQ_DB_REQ_NOT);
	for (i = 0; i < 4; i++) {
		memset(buf_at(i), 0x10 + i, len[i]);
		/* Only WQEs 1 and 3 ask for a send completion. */
		tx_send(&t, buf_at(i), len[i], i & 1);
	}
	for (i = 0; i < 4; i++) {
		cqe = mlx4v_test_cq_wait(&r.tcq, g_sim);
		TEST_ASSERT_NOT_NULL(cqe, "receive CQE %u missing", i);
		TEST_ASSERT_EQUAL((cqe->owner_sr_opcode & MLX4_CQE_OPCODE_MASK),
				  MLX4_RECV_OPCODE_SEND, "rx opcode");
		TEST_ASSERT_EQUAL((cqe->owner_sr_opcode & MLX4_CQE_IS_SEND_MASK), 0, "is_send");
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->byte_cnt), len[i], "byte_cnt");
		TEST_ASSERT_EQUAL(rte_be_to_cpu_16(cqe->wqe_index), i, "wqe_index");
		TEST_ASSERT_EQUAL((rte_be_to_cpu_32(cqe->vlan_my_qpn) & 0xffffff), r.wqn, "qpn");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(buf_at(16 + i), buf_at(i), len[i], "payload %u", i);
		mlx4v_test_cq_consume(&r.tcq);
	}
	/* Armed before the first CQE: exactly one event. */
	TEST_ASSERT_SUCCESS(take_event(&r), "event");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_get_cq_event(r.cq), EAGAIN, "second event");
	/* Send CQEs: one per CQ_UPDATE WQE, with its index. */
	for (i = 1; i < 4; i += 2) {
		cqe = mlx4v_test_cq_wait(&t.tcq, g_sim);
		TEST_ASSERT_NOT_NULL(cqe, "send CQE for WQE %u", i);
		TEST_ASSERT_EQUAL((cqe->owner_sr_opcode & MLX4_CQE_OPCODE_MASK),
				  MLX4_OPCODE_SEND, "tx opcode");
		TEST_ASSERT(cqe->owner_sr_opcode & MLX4_CQE_IS_SEND_MASK, "is_send");
		TEST_ASSERT_EQUAL(rte_be_to_cpu_16(cqe->wqe_index), i, "tx wqe_index");
		TEST_ASSERT_EQUAL((rte_be_to_cpu_32(cqe->vlan_my_qpn) & 0xffffff), t.qpn, "qpn");
		mlx4v_test_cq_consume(&t.tcq);
	}
	mlx4v_test_settle(g_sim);
	TEST_ASSERT_NULL(mlx4v_test_cq_peek(&t.tcq), "unrequested send CQE");
	/* Re-arm with the new sn, then one more packet: one more event. */
	mlx4v_test_cq_arm(&r.tcq, MLX4_CQ_DB_REQ_NOT);
	tx_send(&t, buf_at(4), 64, 0);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&r.tcq, g_sim), "fifth packet");
	TEST_ASSERT_SUCCESS(take_event(&r), "second armed event");
	mlx4v_test_cq_consume(&r.tcq);
	/* A packet lands unarmed; arming with it pending signals at once. */
	tx_send(&t, buf_at(5), 64, 0);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&r.tcq, g_sim), "sixth packet");
	mlx4v_test_settle(g_sim);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_get_cq_event(r.cq), EAGAIN, "event while unarmed");
	mlx4v_test_cq_arm(&r.tcq, MLX4_CQ_DB_REQ_NOT);
	TEST_ASSERT_SUCCESS(take_event(&r), "arm with pending CQE");
	mlx4v_test_cq_consume(&r.tcq);
	mlx4v_sim_stats_get(g_sim, &st);
	TEST_ASSERT(st.tx_packets >= 6 && st.rx_packets >= 6, "stats");
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(g_sim), 0, "misuse flagged on clean use");
	mlx4v_test_rxq_destroy(&r);
	mlx4v_test_txq_destroy(&t);
	return TEST_SUCCESS;
}

/* A second device of two ports cabled to each other (mode=pair), over the test buffers. */
struct pair_dev {
	const char *name;
	struct mlx4v_sim *sim;
	struct rte_pmd_mlx4v_dev *dev;
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_mr *mr;
	uint32_t lkey;
};

static int
pair_open(struct pair_dev *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	TEST_ASSERT_SUCCESS(rte_vdev_init(name, "ports=2,mode=pair"), "vdev");
	p->sim = mlx4v_sim_get(name);
	p->dev = rte_pmd_mlx4v_dev_open(name);
	TEST_ASSERT(p->sim != NULL && p->dev != NULL, "open");
	p->pd = rte_pmd_mlx4v_alloc_pd(p->dev);
	p->mr = rte_pmd_mlx4v_reg_mr(p->pd, g_mem, (size_t)NBUF * BUF_SIZE);
	TEST_ASSERT(p->pd != NULL && p->mr != NULL, "pd/mr");
	rte_pmd_mlx4v_mr_lkey(p->mr, &p->lkey);
	return TEST_SUCCESS;
}

static int
pair_close(struct pair_dev *p)
{
	rte_pmd_mlx4v_dereg_mr(p->mr);
	rte_pmd_mlx4v_dealloc_pd(p->pd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(p->dev), "close");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(p->name), "uninit");
	return TEST_SUCCESS;
}

/* ports=2,mode=pair: port 1 sends to port 2, never to itself. */
static int
test_mlx4v_sim_port_pair(void)
{
	struct mlx4_cqe *cqe;
	struct mlx4v_test_rxq r1, r2;
	struct mlx4v_test_txq t;
	struct pair_dev p;

	TEST_ASSERT_SUCCESS(pair_open(&p, "mlx4v_sim_t1"), "pair");
	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, p.dev, p.pd, 1, 16), "txq");
	TEST_ASSERT_SUCCESS(rxq_create(&r1, p.dev, p.pd, 1, 4), "rxq port 1");
	TEST_ASSERT_SUCCESS(rxq_create(&r2, p.dev, p.pd, 2, 4), "rxq port 2");
	mlx4v_test_rq_post(&r1.rq, p.lkey, buf_at(8), BUF_SIZE);
	mlx4v_test_rq_post(&r2.rq, p.lkey, buf_at(9), BUF_SIZE);
	memset(buf_at(0), 0x77, 100);
	mlx4v_test_sq_send(&t.sq, p.lkey, buf_at(0), 100, 1);
	cqe = mlx4v_test_cq_wait(&r2.tcq, p.sim);
	TEST_ASSERT_NOT_NULL(cqe, "packet not on port 2");
	TEST_ASSERT_EQUAL((rte_be_to_cpu_32(cqe->vlan_my_qpn) & 0xffffff), r2.wqn, "qpn");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(buf_at(9), buf_at(0), 100, "payload");
	mlx4v_test_cq_consume(&r2.tcq);
	mlx4v_test_settle(p.sim);
	TEST_ASSERT_NULL(mlx4v_test_cq_peek(&r1.tcq), "packet looped back to port 1");
	/* Injected on port 1 from the wire: lands on port 1. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_inject(p.sim, 1, buf_at(0), 80), "inject");
	cqe = mlx4v_test_cq_wait(&r1.tcq, p.sim);
	TEST_ASSERT_NOT_NULL(cqe, "injected packet");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->byte_cnt), 80u, "byte_cnt");
	mlx4v_test_cq_consume(&r1.tcq);
	/* No buffer left on port 1: dropped. */
	TEST_ASSERT_EQUAL(mlx4v_sim_inject(p.sim, 1, buf_at(0), 80), -ENOBUFS, "drop");
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(p.sim), 0, "misuse");
	mlx4v_test_rxq_destroy(&r2);
	mlx4v_test_rxq_destroy(&r1);
	mlx4v_test_txq_destroy(&t);
	return pair_close(&p);
}

/*
 * A group frame through the embedded switch (doc/guides/sim/silicon.rst): with the control MAC
 * (as libmlx4 and a VF send) a broadcast is handed to the MAC rule for it on the port that sent
 * it and leaves by the wire as well: with a pair, port 1 and port 2 receive it once each. With a
 * zero control MAC (a PF under DPDK's mlx4) only port 2 receives it.
 */
static int
test_mlx4v_sim_group_to_sender(void)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct mlx4v_sim_stats st0, st;
	struct mlx4v_test_rxq r1, r2;
	struct mlx4v_test_txq t;
	struct pair_dev p;
	int no_dmac;

	TEST_ASSERT_SUCCESS(pair_open(&p, "mlx4v_sim_t2"), "pair");
	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, p.dev, p.pd, 1, 16), "txq");
	TEST_ASSERT_SUCCESS(mlx4v_test_rxq_create(&r1, p.dev, p.pd, 1, 4, 0, bcast), "rxq 1");
	TEST_ASSERT_SUCCESS(mlx4v_test_rxq_create(&r2, p.dev, p.pd, 2, 4, 0, bcast), "rxq 2");
	memset(buf_at(0), 0x66, 60);
	memcpy(buf_at(0), bcast, sizeof(bcast));
	for (no_dmac = 0; no_dmac < 2; no_dmac++) {
		mlx4v_test_rq_post(&r1.rq, p.lkey, buf_at(8), BUF_SIZE);
		mlx4v_test_rq_post(&r2.rq, p.lkey, buf_at(9), BUF_SIZE);
		mlx4v_sim_stats_get(p.sim, &st0);
		t.sq.no_dmac = no_dmac;
		mlx4v_test_sq_send(&t.sq, p.lkey, buf_at(0), 60, 1);
		TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&r2.tcq, p.sim), "not on port 2");
		mlx4v_test_cq_consume(&r2.tcq);
		if (!no_dmac) {
			TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&r1.tcq, p.sim),
					     "not handed back to port 1");
			mlx4v_test_cq_consume(&r1.tcq);
		}
		mlx4v_test_settle(p.sim);
		TEST_ASSERT_NULL(mlx4v_test_cq_peek(&r1.tcq), "on port 1 (no_dmac %d)", no_dmac);
		TEST_ASSERT_NULL(mlx4v_test_cq_peek(&r2.tcq), "twice on port 2");
		mlx4v_sim_stats_get(p.sim, &st);
		TEST_ASSERT_EQUAL(st.tx_loopback - st0.tx_loopback, (uint64_t)!no_dmac,
				  "tx_loopback (no_dmac %d)", no_dmac);
		/* Drain the send CQE: the next round starts from a clean CQ. */
		TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&t.tcq, p.sim), "send CQE");
		mlx4v_test_cq_consume(&t.tcq);
	}
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(p.sim), 0, "misuse");
	mlx4v_test_rxq_destroy(&r2);
	mlx4v_test_rxq_destroy(&r1);
	mlx4v_test_txq_destroy(&t);
	return pair_close(&p);
}

/* Receive into a QP's own RQ, and into an SRQ through its free list. */
static int
test_mlx4v_sim_qp_rq_and_srq(void)
{
	struct rte_pmd_mlx4v_srq *srq = rte_pmd_mlx4v_create_srq(g_pd, 8, 2);
	struct rte_pmd_mlx4v_cq *rcq = rte_pmd_mlx4v_create_cq(g_dev, 16, 32, 0);
	struct rte_pmd_mlx4v_qp_attr a = { .max_send_wr = 4, .max_recv_wr = 4,
		.max_recv_sge = 1, .port = 2 };
	struct rte_pmd_mlx4v_qp *qrq, *qsrq;
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4v_test_steer st_rq = { 0 }, st_srq = { 0 };
	struct mlx4v_test_rq rq;
	struct mlx4v_test_cq tcq;
	struct mlx4dv_qp vqp;
	struct mlx4dv_srq vsrq;
	uint8_t mac[6];
	struct mlx4dv_cq vcq;
	struct mlx4_cqe *cqe;
	uint32_t qpn_rq, qpn_srq;
	int s;

	TEST_ASSERT(srq != NULL && rcq != NULL, "srq/cq");
	a.send_cq = a.recv_cq = rcq;
	qrq = rte_pmd_mlx4v_create_qp(g_pd, &a);
	a.srq = srq;
	qsrq = rte_pmd_mlx4v_create_qp(g_pd, &a);
	TEST_ASSERT(qrq != NULL && qsrq != NULL, "qps");
	/* One MAC rule each: frames to 21:..:21 reach the RQ, to 42:..:42 the SRQ. */
	memset(mac, 0x21, sizeof(mac));
	TEST_ASSERT_SUCCESS(mlx4v_test_steer_qp(&st_rq, qrq, 2, RTE_PMD_MLX4V_FLOW_MAC, mac),
			    "rule");
	memset(mac, 0x42, sizeof(mac));
	TEST_ASSERT_SUCCESS(mlx4v_test_steer_qp(&st_srq, qsrq, 2, RTE_PMD_MLX4V_FLOW_MAC, mac),
			    "rule");
	for (s = RTE_PMD_MLX4V_QPS_INIT; s <= RTE_PMD_MLX4V_QPS_RTR; s++) {
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qrq, s), "state");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qsrq, s), "state");
	}
	rte_pmd_mlx4v_qp_num(qrq, &qpn_rq);
	rte_pmd_mlx4v_qp_num(qsrq, &qpn_srq);
	vqp.comp_mask = 0;
	vcq.comp_mask = 0;
	obj = (struct rte_pmd_mlx4v_obj){ .qp = { qrq, &vqp }, .cq = { rcq, &vcq },
		.srq = { srq, &vsrq } };
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ |
						   MLX4DV_OBJ_SRQ), "views");
	mlx4v_test_rq_from_qp(&rq, &vqp);
	mlx4v_test_cq_init(&tcq, &vcq);
	/* The frame's destination MAC picks the rule, hence the QP. */
	mlx4v_test_rq_post(&rq, g_lkey, buf_at(10), BUF_SIZE);
	memset(buf_at(0), 0x21, 90);
	TEST_ASSERT_SUCCESS(mlx4v_sim_inject(g_sim, 2, buf_at(0), 90), "inject 1");
	cqe = mlx4v_test_cq_wait(&tcq, g_sim);
	TEST_ASSERT_NOT_NULL(cqe, "RQ CQE");
	TEST_ASSERT_EQUAL((rte_be_to_cpu_32(cqe->vlan_my_qpn) & 0xffffff), qpn_rq, "RQ qpn");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(buf_at(10), buf_at(0), 90, "RQ payload");
	mlx4v_test_cq_consume(&tcq);
	/* Post on the SRQ: take the head of the free list, as libmlx4 does. */
	{
		uint8_t *w = (uint8_t *)vsrq.buf.buf + ((size_t)vsrq.head << vsrq.wqe_shift);
		struct mlx4_wqe_srq_next_seg *next = (struct mlx4_wqe_srq_next_seg *)w;
		struct mlx4_wqe_data_seg *d = (struct mlx4_wqe_data_seg *)(next + 1);
		int idx = vsrq.head;

		mlx4dv_set_data_seg(d, BUF_SIZE, g_lkey, (uintptr_t)buf_at(11));
		mlx4dv_set_data_seg(d + 1, 0, 0x100, 0);
		rte_io_wmb();
		*vsrq.db = rte_cpu_to_be_32(1);
		memset(buf_at(0), 0x42, 200);
		TEST_ASSERT_SUCCESS(mlx4v_sim_inject(g_sim, 2, buf_at(0), 200), "inject 2");
		cqe = mlx4v_test_cq_wait(&tcq, g_sim);
		TEST_ASSERT_NOT_NULL(cqe, "SRQ CQE");
		TEST_ASSERT_EQUAL((rte_be_to_cpu_32(cqe->vlan_my_qpn) & 0xffffff), qpn_srq,
				  "SRQ qpn");
		TEST_ASSERT_EQUAL(rte_be_to_cpu_16(cqe->wqe_index), idx, "SRQ wqe_index");
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->byte_cnt), 200u, "byte_cnt");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(buf_at(11), buf_at(0), 200, "SRQ payload");
		mlx4v_test_cq_consume(&tcq);
	}
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(g_sim), 0, "misuse");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_qp(qsrq), EBUSY, "QP with a rule destroyed");
	mlx4v_test_steer_destroy(&st_srq);
	mlx4v_test_steer_destroy(&st_rq);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qsrq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qrq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_srq(srq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(rcq), "destroy");
	return TEST_SUCCESS;
}

/* A fresh CQ polls empty everywhere; with strict_cqe_owner it yields bogus CQEs. */
static int
test_mlx4v_sim_fresh_cq_empty_and_strict(void)
{
	struct rte_pmd_mlx4v_obj obj;
	struct rte_pmd_mlx4v_cq *cq;
	struct mlx4v_test_cq t;
	struct mlx4dv_cq v;
	uint32_t i;
	int size;

	for (size = 32; size <= 64; size += 32) {
		cq = rte_pmd_mlx4v_create_cq(g_dev, 63, size, 0);
		TEST_ASSERT_NOT_NULL(cq, "cq");
		v.comp_mask = 0;
		obj = (struct rte_pmd_mlx4v_obj){ .cq = { cq, &v } };
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ), "view");
		mlx4v_test_cq_init(&t, &v);
		for (i = 0; i < v.cqe_cnt; i++) {
			t.ci = i;
			TEST_ASSERT_NULL(mlx4v_test_cq_peek(&t), "fresh %d-byte CQ entry %u valid",
					 size, i);
		}
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy");
	}
	/* Why the default exists: libmlx4's zeroed ring reads as valid on pass 0. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, "strict_cqe_owner", 1), "knob");
	cq = rte_pmd_mlx4v_create_cq(g_dev, 63, 32, 0);
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, "strict_cqe_owner", 0), "knob");
	TEST_ASSERT_NOT_NULL(cq, "cq");
	v.comp_mask = 0;
	obj = (struct rte_pmd_mlx4v_obj){ .cq = { cq, &v } };
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ), "view");
	mlx4v_test_cq_init(&t, &v);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_peek(&t), "strict mode: zeroed CQE should look valid");
	TEST_ASSERT_EQUAL(mlx4v_test_cq_peek(&t)->owner_sr_opcode, 0, "bogus all-zero CQE");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy");
	return TEST_SUCCESS;
}

static int
wait_misuse(enum mlx4v_sim_misuse kind)
{
	int i;

	for (i = 0; i < MLX4V_TEST_POLLS / 10; i++) {
		if (mlx4v_sim_misuse_count(g_sim, kind) > 0)
			return 1;
		mlx4v_sim_poll(g_sim);
		rte_delay_us_sleep(MLX4V_TEST_POLL_US);
	}
	return 0;
}

/* A WQE with the owner bit of the wrong pass is flagged and not executed. */
static int
test_mlx4v_sim_misuse_wrong_owner(void)
{
	struct mlx4v_sim_stats st0, st;
	struct mlx4v_test_txq t;

	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 16), "txq");
	mlx4v_sim_stats_get(g_sim, &st0);
	mlx4v_test_sq_write(&t.sq, g_lkey, buf_at(0), 64, 1, 1); /* owner 1 on pass 0 */
	mlx4v_test_sq_ring(&t.sq);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_SQ_OWNER), "wrong owner not flagged");
	mlx4v_sim_stats_get(g_sim, &st);
	TEST_ASSERT_EQUAL(st.tx_packets, st0.tx_packets, "WQE with wrong owner executed");
	TEST_ASSERT_NULL(mlx4v_test_cq_peek(&t.tcq), "CQE for a WQE with wrong owner");
	mlx4v_test_txq_destroy(&t);
	return TEST_SUCCESS;
}

/* Bad lkeys: an error CQE with LOCAL_PROT on send and receive, and a misuse count. */
static int
test_mlx4v_sim_misuse_bad_lkey(void)
{
	struct mlx4_err_cqe *e;
	struct mlx4_cqe *cqe;
	struct mlx4v_test_txq t, t2;
	struct mlx4v_test_rxq r;

	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 16), "txq");
	mlx4v_test_sq_send(&t.sq, g_lkey ^ 0x5500, buf_at(0), 64, 0);
	cqe = mlx4v_test_cq_wait(&t.tcq, g_sim);
	TEST_ASSERT_NOT_NULL(cqe, "error CQE even without CQ_UPDATE");
	e = (struct mlx4_err_cqe *)cqe;
	TEST_ASSERT_EQUAL((e->owner_sr_opcode & MLX4_CQE_OPCODE_MASK), MLX4_CQE_OPCODE_ERROR,
			  "opcode");
	TEST_ASSERT_EQUAL(e->syndrome, MLX4_CQE_SYNDROME_LOCAL_PROT_ERR, "syndrome");
	TEST_ASSERT(e->owner_sr_opcode & MLX4_CQE_IS_SEND_MASK, "is_send");
	TEST_ASSERT(mlx4v_sim_misuse_count(g_sim, MLX4V_SIM_MISUSE_LKEY) >= 1, "lkey misuse");
	mlx4v_test_cq_consume(&t.tcq);
	mlx4v_test_txq_destroy(&t);
	/* Right lkey, address past the end of the MR. */
	mlx4v_sim_misuse_reset(g_sim);
	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t2, g_dev, g_pd, 1, 16), "txq");
	mlx4v_test_sq_send(&t2.sq, g_lkey, buf_at(NBUF - 1) + BUF_SIZE - 10, 64, 0);
	cqe = mlx4v_test_cq_wait(&t2.tcq, g_sim);
	TEST_ASSERT_NOT_NULL(cqe, "error CQE");
	TEST_ASSERT_EQUAL(((struct mlx4_err_cqe *)cqe)->syndrome,
			  MLX4_CQE_SYNDROME_LOCAL_PROT_ERR, "syndrome");
	TEST_ASSERT(mlx4v_sim_misuse_count(g_sim, MLX4V_SIM_MISUSE_LKEY) >= 1, "range misuse");
	mlx4v_test_cq_consume(&t2.tcq);
	/* Receive side: a posted buffer with a bad lkey. */
	TEST_ASSERT_SUCCESS(rxq_create(&r, g_dev, g_pd, 2, 4), "rxq");
	mlx4v_test_rq_post(&r.rq, 0x7777700, buf_at(3), BUF_SIZE);
	TEST_ASSERT_SUCCESS(mlx4v_sim_inject(g_sim, 2, buf_at(0), 64), "inject");
	cqe = mlx4v_test_cq_wait(&r.tcq, g_sim);
	TEST_ASSERT_NOT_NULL(cqe, "rx error CQE");
	e = (struct mlx4_err_cqe *)cqe;
	TEST_ASSERT_EQUAL((e->owner_sr_opcode & MLX4_CQE_OPCODE_MASK), MLX4_CQE_OPCODE_ERROR,
			  "rx opcode");
	TEST_ASSERT_EQUAL(e->syndrome, MLX4_CQE_SYNDROME_LOCAL_PROT_ERR, "rx syndrome");
	TEST_ASSERT_EQUAL((e->owner_sr_opcode & MLX4_CQE_IS_SEND_MASK), 0, "rx is_send");
	mlx4v_test_cq_consume(&r.tcq);
	mlx4v_test_rxq_destroy(&r);
	mlx4v_test_txq_destroy(&t2);
	return TEST_SUCCESS;
}

/*
 * Registration refuses what the device could not reach: an unmapped address, plain malloc()
 * memory (which can be freed behind the MR), a range running out of EAL memory. Nothing is
 * left in the model's MPT.
 */
static int
test_mlx4v_sim_mr_not_memory(void)
{
	unsigned int live = mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_MR);
	uint8_t stack[64];
	void *heap;

	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_reg_mr(g_pd, (void *)(uintptr_t)0x1000, 4096), "0x1000");
	TEST_ASSERT_EQUAL(errno, EFAULT, "0x1000: errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, EFAULT, "0x1000: rte_errno %d", rte_errno);
	heap = malloc(4096);
	TEST_ASSERT_NOT_NULL(heap, "malloc");
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_reg_mr(g_pd, heap, 4096), "malloc() memory");
	TEST_ASSERT_EQUAL(errno, EFAULT, "malloc: errno %d", errno);
	free(heap);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_reg_mr(g_pd, stack, sizeof(stack)), "stack memory");
	TEST_ASSERT_EQUAL(errno, EFAULT, "stack: errno %d", errno);
	/* Starts in EAL memory, runs far beyond it. */
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_reg_mr(g_pd, g_mem, (size_t)1 << 40), "overlong");
	TEST_ASSERT_EQUAL(errno, EFAULT, "overlong: errno %d", errno);
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_MR), live, "MR leaked");
	/* Bad arguments keep their EINVAL. */
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_reg_mr(g_pd, g_mem, 0), "len 0");
	TEST_ASSERT_EQUAL(errno, EINVAL, "len 0: errno %d", errno);
	return TEST_SUCCESS;
}

/* The next CQE of cq must be a LOCAL_PROT error completion; consume it. */
static int
expect_prot_err(struct mlx4v_test_cq *cq, const char *what)
{
	struct mlx4_cqe *cqe = mlx4v_test_cq_wait(cq, g_sim);
	struct mlx4_err_cqe *e = (struct mlx4_err_cqe *)cqe;

	TEST_ASSERT_NOT_NULL(cqe, "%s: no CQE", what);
	TEST_ASSERT_EQUAL((e->owner_sr_opcode & MLX4_CQE_OPCODE_MASK), MLX4_CQE_OPCODE_ERROR,
			  "%s: completed without error", what);
	TEST_ASSERT_EQUAL(e->syndrome, MLX4_CQE_SYNDROME_LOCAL_PROT_ERR, "%s: syndrome", what);
	mlx4v_test_cq_consume(cq);
	return TEST_SUCCESS;
}

#define GAP_ELT 1024
#define GAP_NB 6

/*
 * A mempool of two external pages with an inaccessible page between them. One MR over the span
 * cannot exist (the kernel cannot pin the hole: EFAULT), so the pool is registered as two
 * ranges with an lkey each. Each range is reachable with its own lkey; a gather from the hole,
 * or a scatter into it, is outside every MR: an error CQE and an lkey misuse, never a read or
 * write of the page.
 */
static int
test_mlx4v_sim_mr_mempool_hole(void)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct rte_pmd_mlx4v_mr_range rg[3];
	struct rte_pmd_mlx4v_mr *mr = NULL;
	struct rte_mempool *mp = NULL;
	struct mlx4_cqe *cqe;
	uint8_t *area, *hole;
	struct mlx4v_test_txq t;
	struct mlx4v_test_rxq r;
	unsigned int n = 0;
	uint32_t lkey;
	int ret, i;

	area = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(area != MAP_FAILED, "mmap");
	hole = area + pg;
	TEST_ASSERT_SUCCESS(mprotect(hole, pg, PROT_NONE), "mprotect");
	TEST_ASSERT_SUCCESS(rte_extmem_register(area, pg, NULL, 0, pg), "extmem 1");
	TEST_ASSERT_SUCCESS(rte_extmem_register(area + 2 * pg, pg, NULL, 0, pg), "extmem 2");
	mp = rte_mempool_create_empty("mlx4v_gap", GAP_NB, GAP_ELT, 0, 0, SOCKET_ID_ANY,
				      RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	TEST_ASSERT_NOT_NULL(mp, "mempool");
	TEST_ASSERT_SUCCESS(rte_mempool_set_ops_byname(mp, "ring_mp_mc", NULL), "ops");
	/* The higher chunk first: ranges come out in address order whatever the pool's order. */
	for (i = 1; i >= 0 && mp->populated_size < mp->size; i--) {
		ret = rte_mempool_populate_iova(mp, (char *)area + 2 * i * pg, RTE_BAD_IOVA, pg,
						NULL, NULL);
		TEST_ASSERT(ret > 0, "populate chunk %d: %d", i, ret);
	}
	TEST_ASSERT_EQUAL(mp->nb_mem_chunks, 2, "chunks");
	/* The device refuses one MR over the hole, as the kernel does. */
	TEST_ASSERT_NULL(rte_pmd_mlx4v_reg_mr(g_pd, area, 3 * pg), "MR over the hole");
	TEST_ASSERT_EQUAL(errno, EFAULT, "errno %d", errno);
	mr = rte_pmd_mlx4v_reg_mempool(g_pd, mp);
	TEST_ASSERT_NOT_NULL(mr, "reg_mempool over a hole: %d", errno);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_mr_lkey(mr, &lkey), ENOTUNIQ, "one lkey for two ranges");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_mr_ranges(mr, NULL, 0, &n), "count");
	TEST_ASSERT_EQUAL(n, 2u, "ranges");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_mr_ranges(mr, rg, RTE_DIM(rg), &n), "ranges");
	TEST_ASSERT(rg[0].addr == (uintptr_t)area && rg[0].len == pg &&
		    rg[1].addr == (uintptr_t)area + 2 * pg && rg[1].len == pg, "range bounds");
	TEST_ASSERT(rg[0].lkey != rg[1].lkey, "one lkey per range");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_mr_ranges(mr, NULL, 1, &n), EINVAL, "NULL ranges");

	/* Each range with its own lkey. */
	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 16), "txq");
	for (i = 0; i < 2; i++) {
		mlx4v_test_sq_send(&t.sq, rg[i].lkey, (uint8_t *)rg[i].addr + 64, 64, 1);
		cqe = mlx4v_test_cq_wait(&t.tcq, g_sim);
		TEST_ASSERT_NOT_NULL(cqe, "send CQE %d", i);
		TEST_ASSERT_EQUAL((cqe->owner_sr_opcode & MLX4_CQE_OPCODE_MASK), MLX4_OPCODE_SEND,
				  "send from range %d failed", i);
		mlx4v_test_cq_consume(&t.tcq);
	}
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(g_sim), 0, "clean sends");
	/*
	 * Gather from the hole: in no MR. (The frame's MAC cannot be read from the hole for the
	 * control segment: the send goes without it.)
	 */
	t.sq.no_dmac = 1;
	mlx4v_test_sq_send(&t.sq, rg[0].lkey, hole + 128, 256, 1);
	TEST_ASSERT_SUCCESS(expect_prot_err(&t.tcq, "gather from the hole"), "gather");
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_count(g_sim, MLX4V_SIM_MISUSE_LKEY), 1, "MPT check");
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_count(g_sim, MLX4V_SIM_MISUSE_DMA), 0, "no DMA");
	mlx4v_test_txq_destroy(&t);
	/* Scatter into the hole. */
	TEST_ASSERT_SUCCESS(rxq_create(&r, g_dev, g_pd, 2, 4), "rxq");
	mlx4v_test_rq_post(&r.rq, rg[0].lkey, hole, 512);
	TEST_ASSERT_SUCCESS(mlx4v_sim_inject(g_sim, 2, buf_at(0), 64), "inject");
	TEST_ASSERT_SUCCESS(expect_prot_err(&r.tcq, "scatter into the hole"), "scatter");
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_count(g_sim, MLX4V_SIM_MISUSE_LKEY), 2, "rx MPT");
	mlx4v_test_rxq_destroy(&r);

	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dereg_mr(mr), "dereg");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_MR), 1u, "parts left");
	rte_mempool_free(mp);
	TEST_ASSERT_SUCCESS(rte_extmem_unregister(area + 2 * pg, pg), "unregister 2");
	TEST_ASSERT_SUCCESS(rte_extmem_unregister(area, pg), "unregister 1");
	munmap(area, 3 * pg);
	mlx4v_sim_misuse_reset(g_sim);
	return TEST_SUCCESS;
}

/* Wait until the CQ error of cq reaches the application. @return 1 when it did. */
static int
wait_cq_in_error(struct rte_pmd_mlx4v_cq *cq)
{
	int in_error = 0, i;

	for (i = 0; i < MLX4V_TEST_POLLS / 10; i++) {
		if (rte_pmd_mlx4v_cq_in_error(cq, &in_error) != 0)
			return 0;
		if (in_error)
			return 1;
		mlx4v_sim_poll(g_sim);
		rte_delay_us_sleep(MLX4V_TEST_POLL_US);
	}
	return 0;
}

/*
 * A CQ overrun puts the CQ in error and raises the CQ error event, as a ConnectX-3 does: the
 * application sees it, and the CQ writes nothing more even once software has caught up.
 */
static int
test_mlx4v_sim_cq_overrun_error(void)
{
	struct mlx4v_sim_stats st0, st;
	struct mlx4v_test_txq t;
	int in_error = -1, i;

	mlx4v_sim_stats_get(g_sim, &st0);
	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 1), "txq"); /* 2-entry CQ */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_cq_in_error(t.cq, &in_error), "query");
	TEST_ASSERT_EQUAL(in_error, 0, "a new CQ is in error");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_cq_in_error(t.cq, NULL), EINVAL, "NULL output");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_cq_in_error(NULL, &in_error), EINVAL, "NULL CQ");
	for (i = 0; i < 3; i++)
		tx_send(&t, buf_at(0), 64, 1);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_CQ_OVERRUN), "overrun not flagged");
	TEST_ASSERT(wait_cq_in_error(t.cq), "the CQ error did not reach the application");
	/* Software catches up: the CQ stays in error and the next completion is lost too. */
	mlx4v_test_cq_consume(&t.tcq);
	mlx4v_test_cq_consume(&t.tcq);
	tx_send(&t, buf_at(0), 64, 1);
	for (i = 0; i < MLX4V_TEST_POLLS / 10; i++) {
		mlx4v_sim_stats_get(g_sim, &st);
		if (st.tx_packets - st0.tx_packets == 4)
			break;
		mlx4v_sim_poll(g_sim);
		rte_delay_us_sleep(MLX4V_TEST_POLL_US);
	}
	TEST_ASSERT_EQUAL(st.tx_packets - st0.tx_packets, 4u, "sends not executed");
	TEST_ASSERT_NULL(mlx4v_test_cq_peek(&t.tcq), "CQE written by a CQ in error");
	TEST_ASSERT_EQUAL(st.cq_errors - st0.cq_errors, 1u, "one CQ error");
	TEST_ASSERT_EQUAL(st.cqe_dropped - st0.cqe_dropped, 2u, "overrun CQE and the next lost");
	mlx4v_test_txq_destroy(&t);
	return TEST_SUCCESS;
}

/* Stale consumer indexes: CI backwards, arm CI not matching set_ci_db. */
static int
test_mlx4v_sim_misuse_stale_ci(void)
{
	struct mlx4v_test_txq t;

	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 1), "txq"); /* 2-entry CQ */
	/* Consume two and let the device see CI 2, then move the CI back by one. */
	tx_send(&t, buf_at(0), 64, 1);
	tx_send(&t, buf_at(0), 64, 1);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&t.tcq, g_sim), "first CQE");
	mlx4v_test_cq_consume(&t.tcq);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&t.tcq, g_sim), "second CQE");
	mlx4v_test_cq_consume(&t.tcq);
	tx_send(&t, buf_at(0), 64, 1);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&t.tcq, g_sim), "CQE after consuming");
	*t.tcq.v.set_ci_db = rte_cpu_to_be_32(1);
	tx_send(&t, buf_at(0), 64, 1);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_CI_BACKWARDS), "CI backwards not flagged");
	/* Arm with a CI that the record does not hold. */
	*t.tcq.v.set_ci_db = rte_cpu_to_be_32(2);
	t.tcq.ci = 5;
	mlx4v_test_cq_arm(&t.tcq, MLX4_CQ_DB_REQ_NOT);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_CI_STALE), "stale arm CI not flagged");
	mlx4v_test_txq_destroy(&t);
	return TEST_SUCCESS;
}

/* Doorbells and doorbell records in the wrong place or form. */
static int
test_mlx4v_sim_misuse_doorbells(void)
{
	struct mlx4v_test_txq t;
	struct mlx4v_test_rxq r;
	uint64_t db;

	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 16), "txq");
	TEST_ASSERT_SUCCESS(rxq_create(&r, g_dev, g_pd, 2, 4), "rxq");
	/* Arm MMIO without writing the arm_db record first. */
	db = ((uint64_t)(1u << 28 | MLX4_CQ_DB_REQ_NOT | r.tcq.v.cqn) << 32) | 0;
	rte_write64(rte_cpu_to_be_64(db), (uint8_t *)r.tcq.v.cq_uar + MLX4_CQ_DOORBELL);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_ARM_DB_RECORD), "missing arm_db record");
	/* mlx5 packing: ci high, cqn low, command 0. */
	db = ((uint64_t)(1u << 28 | 0) << 32) | r.tcq.v.cqn;
	rte_write64(rte_cpu_to_be_64(db), (uint8_t *)r.tcq.v.cq_uar + MLX4_CQ_DOORBELL);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_ARM_PACKING), "mlx5 packing");
	/* Send doorbell byte-swapped (qpn << 8 in CPU order). */
	rte_write32(rte_be_to_cpu_32(t.sq.v.doorbell_qpn), t.sq.v.sdb);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_SDB_VALUE), "swapped sdb");
	/* The send doorbell written on a CQ's page. */
	rte_write32(t.sq.v.doorbell_qpn, (uint8_t *)r.tcq.v.cq_uar + MLX4_SEND_DOORBELL);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_DB_WRONG_PAGE), "doorbell on the wrong page");
	/* RQ doorbell record beyond the ring. */
	*r.rq.rdb = rte_cpu_to_be_32(r.rq.wqe_cnt + 5);
	TEST_ASSERT_EQUAL(mlx4v_sim_inject(g_sim, 2, buf_at(0), 64), -ENOBUFS, "inject");
	TEST_ASSERT(mlx4v_sim_misuse_count(g_sim, MLX4V_SIM_MISUSE_RQ_DB_RECORD) >= 1,
		    "RQ record beyond the ring");
	*r.rq.rdb = 0;
	mlx4v_test_rxq_destroy(&r);
	mlx4v_test_txq_destroy(&t);
	return TEST_SUCCESS;
}

/* After an event, an arm that reuses the fired sn arms nothing. */
static int
test_mlx4v_sim_misuse_arm_sn(void)
{
	struct mlx4v_sim_stats st0, st1;
	struct mlx4v_test_txq t;
	struct mlx4v_test_rxq r;
	int fd;

	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 16), "txq");
	TEST_ASSERT_SUCCESS(rxq_create(&r, g_dev, g_pd, 1, 4), "rxq");
	fd = rte_pmd_mlx4v_cq_event_fd(r.cq);
	mlx4v_test_rq_post(&r.rq, g_lkey, buf_at(8), BUF_SIZE);
	mlx4v_test_rq_post(&r.rq, g_lkey, buf_at(9), BUF_SIZE);
	mlx4v_test_cq_arm(&r.tcq, MLX4_CQ_DB_REQ_NOT);
	tx_send(&t, buf_at(0), 64, 0);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&r.tcq, g_sim), "packet");
	mlx4v_test_cq_consume(&r.tcq);
	TEST_ASSERT(mlx4v_test_fd_wait(fd, g_sim, MLX4V_TEST_POLLS), "event");
	/*
	 * Armed again with the fired sn before the event is read (what DPDK's mlx4 does when its
	 * interrupt disable found nothing yet): ignored and counted, not a misuse.
	 */
	mlx4v_sim_stats_get(g_sim, &st0);
	mlx4v_test_cq_arm(&r.tcq, MLX4_CQ_DB_REQ_NOT);
	mlx4v_test_settle(g_sim);
	mlx4v_sim_stats_get(g_sim, &st1);
	TEST_ASSERT_EQUAL(st1.arms_stale, st0.arms_stale + 1, "arm before the read not counted");
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_count(g_sim, MLX4V_SIM_MISUSE_ARM_SN), 0,
			  "arm before the read flagged");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_get_cq_event(r.cq), "get");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_ack_cq_events(r.cq, 1), "ack");
	/* Forget to bump the sn after the read: the arm is stale. */
	mlx4v_test_cq_arm(&r.tcq, MLX4_CQ_DB_REQ_NOT);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_ARM_SN), "stale sn not flagged");
	tx_send(&t, buf_at(1), 64, 0);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&r.tcq, g_sim), "packet 2");
	mlx4v_test_settle(g_sim);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_get_cq_event(r.cq), EAGAIN, "event from a stale arm");
	mlx4v_test_rxq_destroy(&r);
	mlx4v_test_txq_destroy(&t);
	return TEST_SUCCESS;
}

/* The lose_cq_event knob swallows an event: an armed CQ then stays silent. */
static int
test_mlx4v_sim_lost_event(void)
{
	struct mlx4v_sim_stats st;
	struct mlx4v_test_txq t;
	struct mlx4v_test_rxq r;

	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 16), "txq");
	TEST_ASSERT_SUCCESS(rxq_create(&r, g_dev, g_pd, 1, 4), "rxq");
	mlx4v_test_rq_post(&r.rq, g_lkey, buf_at(8), BUF_SIZE);
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, "lose_cq_event", 1), "knob");
	mlx4v_test_cq_arm(&r.tcq, MLX4_CQ_DB_REQ_NOT);
	tx_send(&t, buf_at(0), 64, 0);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&r.tcq, g_sim), "packet");
	mlx4v_test_settle(g_sim);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_get_cq_event(r.cq), EAGAIN, "lost event delivered");
	mlx4v_sim_stats_get(g_sim, &st);
	TEST_ASSERT(st.events_lost >= 1, "events_lost");
	mlx4v_test_rxq_destroy(&r);
	mlx4v_test_txq_destroy(&t);
	return TEST_SUCCESS;
}

/* Devargs: bad values refuse the device, knobs are settable from devargs. */
static int
test_mlx4v_sim_devargs(void)
{
	struct rte_pmd_mlx4v_dev *dev;
	struct mlx4v_sim *sim;
	int64_t v;

	TEST_ASSERT_FAIL(rte_vdev_init("mlx4v_sim_t2", "ports=9"), "ports=9");
	TEST_ASSERT_FAIL(rte_vdev_init("mlx4v_sim_t2", "ports=0"), "ports=0");
	TEST_ASSERT_FAIL(rte_vdev_init("mlx4v_sim_t2", "mode=ring"), "mode=ring");
	TEST_ASSERT_FAIL(rte_vdev_init("mlx4v_sim_t2", "bogus=1"), "unknown key");
	TEST_ASSERT_FAIL(rte_vdev_init("mlx4v_sim_t2", "strict_cqe_owner=2"), "range");
	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx4v_sim_t2", "ports=4,fail_create_cq=1"), "ok");
	sim = mlx4v_sim_get("mlx4v_sim_t2");
	TEST_ASSERT_NOT_NULL(sim, "sim");
	TEST_ASSERT_EQUAL(mlx4v_sim_ports(sim), 4u, "ports");
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_get(sim, "fail_create_cq", &v), "knob");
	TEST_ASSERT_EQUAL(v, 1, "knob from devargs");
	dev = rte_pmd_mlx4v_dev_open("mlx4v_sim_t2");
	TEST_ASSERT_NOT_NULL(dev, "open");
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_cq(dev, 4, 32, 0), "first CQ must fail");
	TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "errno");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_CQ), 0u, "CQ leaked");
	/* Removal is never refused: the open handle is force-released with the device. */
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx4v_sim_t2"), "uninit with an open handle");
	TEST_ASSERT_NULL(mlx4v_sim_get("mlx4v_sim_t2"), "sim still registered");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dev_close(dev), EINVAL, "handle outlived its device");
	return TEST_SUCCESS;
}

/* An IPv4/TCP frame to test_mac with source port sport, 64 bytes. */
static void
tcp_frame(uint8_t *p, uint16_t sport)
{
	static const uint8_t hdr[] = {
		0x08, 0x00,                                     /* IPv4 */
		0x45, 0x00, 0x00, 0x32, 0x00, 0x00, 0x00, 0x00, 0x40, 0x06, 0x00, 0x00,
		10, 0, 0, 1, 10, 0, 0, 2,                       /* src, dst */
	};

	memset(p, 0, 64);
	memcpy(p, test_mac, sizeof(test_mac));
	memcpy(p + 12, hdr, sizeof(hdr));
	p[34] = sport >> 8;
	p[35] = sport & 0xff;
	p[36] = 0x00;
	p[37] = 0x50;                                           /* dport 80 */
}

/* What the device must hash for tcp_frame(): Toeplitz over src, dst, ports. */
static uint32_t
tcp_frame_hash(uint16_t sport)
{
	static const uint8_t key[RTE_PMD_MLX4V_RSS_KEY_LEN] = RTE_PMD_MLX4V_RSS_KEY_DEFAULT;
	uint32_t tuple[3] = { 0x0a000001, 0x0a000002, (uint32_t)sport << 16 | 80 };

	return rte_softrss(tuple, 3, key);
}

/*
 * Receive steering (prm/mlx4 §5.4): WQ numbers of a table must be consecutive from one aligned
 * to its size, which a WQ range set before the first WQ gives; nothing arrives without a rule;
 * with one, the Toeplitz hash of DPDK's fields and key picks the WQ and is in the CQE, behind a
 * VLAN tag too, without ports for an IPv4 fragment.
 */
static int
test_mlx4v_sim_rss_steering(void)
{
	struct rte_pmd_mlx4v_rss_qp_attr ra = {
		.hash_fields = RTE_PMD_MLX4V_RX_HASH_SRC_IPV4 | RTE_PMD_MLX4V_RX_HASH_DST_IPV4 |
			RTE_PMD_MLX4V_RX_HASH_SRC_PORT_TCP | RTE_PMD_MLX4V_RX_HASH_DST_PORT_TCP,
		.key = mlx4v_test_rss_key, .port = 1 };
	struct rte_pmd_mlx4v_wq_attr wa = { .max_wr = 16, .max_sge = 1, .port = 1 };
	struct rte_pmd_mlx4v_flow_attr fa = { .type = RTE_PMD_MLX4V_FLOW_PROMISC, .port = 1 };
	struct rte_pmd_mlx4v_wq *wq[4];
	struct rte_pmd_mlx4v_ind_table *ind;
	struct rte_pmd_mlx4v_qp *rss;
	struct rte_pmd_mlx4v_flow *flow;
	struct rte_pmd_mlx4v_mr *mr;
	struct rte_pmd_mlx4v_dev *dev;
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4v_sim_stats st;
	struct mlx4v_test_rq rq[4];
	struct mlx4v_test_cq tcq;
	struct mlx4dv_rwq vwq;
	struct mlx4dv_cq vcq;
	struct mlx4_cqe *cqe;
	struct mlx4v_test_txq t;
	uint32_t wqn[4], hits[4] = { 0 }, hash, i, k, qpn, lkey;
	uint8_t frame[64];

	/* A fresh handle: no WQ on it yet. The QP takes a number first. */
	dev = rte_pmd_mlx4v_dev_open(SIM_NAME);
	pd = rte_pmd_mlx4v_alloc_pd(dev);
	cq = rte_pmd_mlx4v_create_cq(dev, 255, 0, 0);
	mr = rte_pmd_mlx4v_reg_mr(pd, g_mem, (size_t)NBUF * BUF_SIZE);
	TEST_ASSERT(dev != NULL && pd != NULL && cq != NULL && mr != NULL, "handle");
	rte_pmd_mlx4v_mr_lkey(mr, &lkey);
	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, dev, pd, 2, 16), "txq");
	wa.cq = cq;
	for (i = 0; i < 4; i++) {
		wq[i] = rte_pmd_mlx4v_create_wq(pd, &wa);
		TEST_ASSERT_NOT_NULL(wq[i], "wq %u", i);
	}
	/* The kernel's rule: the first WQN aligned to the table's size. */
	rte_pmd_mlx4v_wq_num(wq[0], &wqn[0]);
	k = wqn[0] & 1;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_rwq_ind_table(dev, 1, &wq[!k]),
			 "table of 2 at an odd WQN");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "unaligned table: EINVAL");
	ind = rte_pmd_mlx4v_create_rwq_ind_table(dev, 1, &wq[k]);
	TEST_ASSERT_NOT_NULL(ind, "consecutive WQs from an even WQN make a table");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_set_wqs_range(dev, 2), EBUSY, "range after a WQ");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_wq(wq[k]), EBUSY, "WQ in a table destroyed");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_rwq_ind_table(ind), "destroy table");
	for (i = 0; i < 4; i++)
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(wq[i]), "destroy wq");
	/* As DPDK's mlx4: the range before the first WQ. */
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_set_wqs_range(dev, 9), EINVAL, "range beyond the table");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_set_wqs_range(dev, 2), "range");
	for (i = 0; i < 4; i++) {
		wq[i] = rte_pmd_mlx4v_create_wq(pd, &wa);
		TEST_ASSERT_NOT_NULL(wq[i], "wq %u", i);
		rte_pmd_mlx4v_wq_num(wq[i], &wqn[i]);
		TEST_ASSERT_EQUAL(wqn[i], wqn[0] + i, "WQNs of a range are consecutive");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_wq(wq[i], RTE_PMD_MLX4V_WQS_RDY), "RDY");
		obj = (struct rte_pmd_mlx4v_obj){ .rwq = { wq[i], &vwq } };
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_RWQ), "view");
		mlx4v_test_rq_from_rwq(&rq[i], &vwq);
		for (k = 0; k < 16; k++)
			mlx4v_test_rq_post(&rq[i], lkey, buf_at(i * 8 + k / 2), BUF_SIZE);
	}
	TEST_ASSERT_EQUAL(wqn[0] % 4, 0u, "range aligned to its size");
	ind = rte_pmd_mlx4v_create_rwq_ind_table(dev, 2, wq);
	ra.ind_table = ind;
	rss = rte_pmd_mlx4v_create_rss_qp(pd, &ra);
	TEST_ASSERT(ind != NULL && rss != NULL, "table and RSS QP");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(rss, RTE_PMD_MLX4V_QPS_RTS), EINVAL, "RTS");
	vcq.comp_mask = 0;
	obj = (struct rte_pmd_mlx4v_obj){ .qp = { rss, NULL } };
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP), EINVAL, "RSS QP view");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(rss, RTE_PMD_MLX4V_QPS_INIT), "INIT");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(rss, RTE_PMD_MLX4V_QPS_RTR), "RTR");
	obj = (struct rte_pmd_mlx4v_obj){ .cq = { cq, &vcq } };
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ), "cq view");
	mlx4v_test_cq_init(&tcq, &vcq);
	/* No rule: nothing arrives, whatever is posted. */
	mlx4v_sim_stats_get(g_sim, &st);
	tcp_frame(frame, 1000);
	TEST_ASSERT_EQUAL(mlx4v_sim_inject(g_sim, 1, frame, sizeof(frame)), -ENOBUFS,
			  "received without a rule");
	k = st.rx_no_rule;
	mlx4v_sim_stats_get(g_sim, &st);
	TEST_ASSERT_EQUAL(st.rx_no_rule, k + 1, "rx_no_rule");
	fa.port = 2;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_flow(rss, &fa), "rule on another port");
	fa.port = 1;
	flow = rte_pmd_mlx4v_create_flow(rss, &fa);
	TEST_ASSERT_NOT_NULL(flow, "rule");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_qp(rss), EBUSY, "RSS QP with a rule");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_rwq_ind_table(ind), EBUSY, "table in use");
	for (i = 0; i < 32; i++) {
		tcp_frame(frame, 1000 + i);
		TEST_ASSERT_SUCCESS(mlx4v_sim_inject(g_sim, 1, frame, sizeof(frame)), "frame %u",
				    i);
		cqe = mlx4v_test_cq_wait(&tcq, g_sim);
		TEST_ASSERT_NOT_NULL(cqe, "CQE %u", i);
		hash = tcp_frame_hash(1000 + i);
		qpn = rte_be_to_cpu_32(cqe->vlan_my_qpn) & MLX4_CQE_QPN_MASK;
		TEST_ASSERT_EQUAL(qpn, wqn[hash & 3], "frame %u in the WQ of its hash", i);
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->immed_rss_invalid), hash, "hash in CQE");
		hits[hash & 3]++;
		mlx4v_test_cq_consume(&tcq);
	}
	TEST_ASSERT(hits[0] && hits[1] && hits[2] && hits[3], "32 flows spread over 4 WQs");
	/* Behind a VLAN tag, the same fields; an IPv4 fragment without its ports. */
	for (i = 0; i < 2; i++) {
		uint32_t two[2] = { 0x0a000001, 0x0a000002 };
		uint8_t tagged[68];

		tcp_frame(frame, 2000);
		if (i == 0) {
			memcpy(tagged, frame, 12);
			tagged[12] = 0x81;
			tagged[13] = 0x00;
			tagged[14] = 0x00;
			tagged[15] = 0x05;
			memcpy(tagged + 16, frame + 12, 52);
		} else {
			frame[20] = 0x20;                       /* more fragments */
		}
		TEST_ASSERT_SUCCESS(mlx4v_sim_inject(g_sim, 1, i == 0 ? tagged : frame,
						     i == 0 ? sizeof(tagged) : sizeof(frame)),
				    "frame %u", i);
		cqe = mlx4v_test_cq_wait(&tcq, g_sim);
		TEST_ASSERT_NOT_NULL(cqe, "CQE");
		hash = i == 0 ? tcp_frame_hash(2000) : rte_softrss(two, 2, mlx4v_test_rss_key);
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->immed_rss_invalid), hash,
				  "%s: hash %#x, Toeplitz says %#x", i == 0 ? "VLAN" : "fragment",
				  rte_be_to_cpu_32(cqe->immed_rss_invalid), hash);
		mlx4v_test_cq_consume(&tcq);
	}
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(g_sim), 0, "misuse");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_flow(flow), "destroy rule");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(rss), "destroy RSS QP");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_rwq_ind_table(ind), "destroy table");
	for (i = 0; i < 4; i++)
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(wq[i]), "destroy wq");
	mlx4v_test_txq_destroy(&t);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy cq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dereg_mr(mr), "mr");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "pd");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(dev), "close");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_FLOW), 0u, "rules left");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_IND), 0u, "tables left");
	return TEST_SUCCESS;
}

/*
 * The destination MAC in the control segment (prm/mlx4 §4.2): without it (zero, as DPDK's mlx4
 * sends on a PF) the device does not loop the frame back, even to a local rule for the frame's
 * MAC, and flags nothing; the frame leaves by the port's wire instead (lost here: the cable is
 * out). With it, the unicast frame stays in the device: received once, not a second time through
 * the loop wire. A MAC that is not the frame's is flagged (sq_dmac).
 */
static int
test_mlx4v_sim_send_dmac(void)
{
	static const uint8_t other_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x4d, 0x02 };
	struct mlx4v_sim_port_stats ps0, ps;
	struct mlx4v_sim_stats st0, st;
	const struct mlx4_cqe *leaked;
	struct mlx4v_test_txq t;
	struct mlx4v_test_rxq r;
	uint64_t misuse;

	TEST_ASSERT_SUCCESS(mlx4v_test_txq_create(&t, g_dev, g_pd, 1, 16), "txq");
	TEST_ASSERT_SUCCESS(rxq_create(&r, g_dev, g_pd, 1, 4), "rxq");
	mlx4v_test_rq_post(&r.rq, g_lkey, buf_at(8), BUF_SIZE);
	mlx4v_test_rq_post(&r.rq, g_lkey, buf_at(9), BUF_SIZE);
	TEST_ASSERT_SUCCESS(mlx4v_sim_link_set(g_sim, 1, 0), "cable out");
	mlx4v_sim_stats_get(g_sim, &st0);
	TEST_ASSERT_SUCCESS(mlx4v_sim_port_stats_get(g_sim, 1, &ps0), "port stats");
	t.sq.no_dmac = 1;
	memset(buf_at(0), 0x33, 64);
	tx_send(&t, buf_at(0), 64, 1);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&t.tcq, g_sim), "send CQE");
	mlx4v_test_cq_consume(&t.tcq);
	mlx4v_test_settle(g_sim);
	leaked = mlx4v_test_cq_peek(&r.tcq);
	mlx4v_sim_stats_get(g_sim, &st);
	mlx4v_sim_port_stats_get(g_sim, 1, &ps);
	misuse = mlx4v_sim_misuse_total(g_sim);
	/* Restore the cable before any assertion, for the cases after this one. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_link_set(g_sim, 1, 1), "cable in");
	TEST_ASSERT_EQUAL(misuse, 0, "send without the MAC flagged");
	TEST_ASSERT_NULL(leaked, "looped back without the control MAC");
	TEST_ASSERT_EQUAL(st.tx_loopback, st0.tx_loopback, "counted as looped back");
	TEST_ASSERT_EQUAL(ps.tx_link_down, ps0.tx_link_down + 1, "did not leave by the port");
	t.sq.no_dmac = 0;
	tx_send(&t, buf_at(0), 64, 1);
	TEST_ASSERT_NOT_NULL(mlx4v_test_cq_wait(&r.tcq, g_sim), "looped back by the MAC");
	mlx4v_test_cq_consume(&r.tcq);
	mlx4v_test_settle(g_sim);
	TEST_ASSERT_NULL(mlx4v_test_cq_peek(&r.tcq), "also came back through the loop wire");
	mlx4v_sim_stats_get(g_sim, &st);
	TEST_ASSERT_EQUAL(st.tx_loopback, st0.tx_loopback + 1, "tx_loopback");
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(g_sim), 0, "misuse");
	/* A control MAC that is not the frame's destination. */
	t.sq.dmac = other_mac;
	tx_send(&t, buf_at(0), 64, 1);
	TEST_ASSERT(wait_misuse(MLX4V_SIM_MISUSE_SQ_DMAC), "a MAC not the frame's not flagged");
	t.sq.dmac = NULL;
	mlx4v_sim_misuse_reset(g_sim);
	mlx4v_test_rxq_destroy(&r);
	mlx4v_test_txq_destroy(&t);
	return TEST_SUCCESS;
}

/* @return 1 (and the CQE consumed) if r received a frame, else 0. */
static int
rule_got(struct mlx4v_test_rxq *r)
{
	if (mlx4v_test_cq_peek(&r->tcq) == NULL)
		return 0;
	mlx4v_test_cq_consume(&r->tcq);
	return 1;
}

/*
 * The rule kinds as the device ranks them (doc/guides/prm/mlx4.rst §5.4): a NORMAL rule for the
 * destination MAC takes the frame alone; else the MC_DEFAULT rule (all-multicast) takes a group
 * frame; else every ALL_DEFAULT rule (promiscuous). Promiscuous and all-multicast are default rules
 * without a spec: a NORMAL rule with an empty or partial DMAC mask, the former encoding, is refused
 * and this test fails at the first rule.
 */
static int
test_mlx4v_sim_flow_default_rules(void)
{
	static const uint8_t mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x21 };
	static const uint8_t dst[3][6] = {
		{ 0x02, 0x00, 0x00, 0x00, 0x00, 0x21 },   /* the MAC rule's */
		{ 0x02, 0x00, 0x00, 0x00, 0x00, 0x77 },   /* another unicast */
		{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },   /* a group */
	};
	/* Which queue takes each frame: promiscuous, MAC + promiscuous, all-multicast. */
	static const int want[3][3] = { { 0, 1, 0 }, { 1, 1, 0 }, { 0, 0, 1 } };
	struct mlx4v_test_rxq r[3];
	unsigned int i, k;

	TEST_ASSERT_SUCCESS(mlx4v_test_rxq_create(&r[0], g_dev, g_pd, 2, 4, 0, NULL), "rxq P");
	TEST_ASSERT_SUCCESS(mlx4v_test_rxq_create(&r[1], g_dev, g_pd, 2, 4, 0, mac), "rxq M");
	TEST_ASSERT_SUCCESS(mlx4v_test_rxq_create(&r[2], g_dev, g_pd, 2, 4, 0, NULL), "rxq G");
	/* The third queue: all-multicast instead of promiscuous. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_flow(r[2].st.flow), "promisc off");
	TEST_ASSERT_SUCCESS(mlx4v_test_steer_qp(&r[2].st, r[2].st.rss, 2,
						RTE_PMD_MLX4V_FLOW_ALLMULTI, NULL),
			    "all-multicast rule: %s", rte_strerror(rte_errno));
	for (i = 0; i < RTE_DIM(r); i++)
		mlx4v_test_rq_post(&r[i].rq, g_lkey, buf_at(8 + i), BUF_SIZE);
	for (k = 0; k < RTE_DIM(dst); k++) {
		memset(buf_at(0), 0x5a, 64);
		memcpy(buf_at(0), dst[k], sizeof(dst[k]));
		TEST_ASSERT_SUCCESS(mlx4v_sim_inject(g_sim, 2, buf_at(0), 64), "inject %u", k);
		mlx4v_test_settle(g_sim);
		for (i = 0; i < RTE_DIM(r); i++) {
			TEST_ASSERT_EQUAL(rule_got(&r[i]), want[k][i],
					  "frame %u: queue %u received %d, expected %d", k, i,
					  !want[k][i], want[k][i]);
			/* One buffer posted on each queue for the next frame. */
			if (want[k][i])
				mlx4v_test_rq_post(&r[i].rq, g_lkey, buf_at(8 + i), BUF_SIZE);
		}
	}
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(g_sim), 0, "misuse");
	for (i = 0; i < RTE_DIM(r); i++)
		mlx4v_test_rxq_destroy(&r[i]);
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_FLOW), 0u, "rules left");
	return TEST_SUCCESS;
}

/* A frame to mac: VLAN vid if vid >= 0, IPv4 10.0.0.1 -> 10.0.0.2, proto to dport. @return len. */
static uint32_t
spec_frame(uint8_t *f, const uint8_t *mac, int vid, uint8_t proto, uint16_t dport)
{
	uint32_t l3 = 14;

	memset(f, 0, 128);
	memcpy(f, mac, 6);
	f[6] = 0x02;
	if (vid >= 0) {
		f[12] = 0x81;
		f[14] = (uint8_t)(vid >> 8);
		f[15] = (uint8_t)vid;
		l3 = 18;
	}
	f[l3 - 2] = 0x08;
	f[l3] = 0x45;
	f[l3 + 9] = proto;
	f[l3 + 15] = 1;
	f[l3 + 19] = 2;
	f[l3 + 12] = f[l3 + 16] = 10;
	f[l3 + 22] = (uint8_t)(dport >> 8);
	f[l3 + 23] = (uint8_t)dport;
	return l3 + 20 + 8 + 32;
}

/*
 * NORMAL rules with specs past the MAC (doc/guides/prm/mlx4.rst §5.4): the rule of the first
 * priority that matches takes the frame alone (UDP to 4789 at priority 0 over the MAC rule at
 * the last priority, TCP to 4789 on VLAN 5 at priority 1 over it too, for its VID only); and
 * the rules silicon refuses (partial masks, priority beyond 0xfff, UDP destination port at a
 * nonzero priority) are refused with nothing left in the device.
 */
static int
test_mlx4v_sim_flow_specs(void)
{
	static const uint8_t mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x31 };
	struct rte_pmd_mlx4v_flow_attr fa = { .type = RTE_PMD_MLX4V_FLOW_MAC, .port = 2 };
	struct {
		int vid;
		uint8_t proto;
		uint16_t dport;
		int want;       /* queue that takes it */
	} frames[] = {
		{ -1, 17, 4789, 1 }, { -1, 17, 53, 0 }, { -1, 6, 4789, 0 }, { 5, 6, 4789, 2 },
		{ 6, 6, 4789, 0 }, { 5, 17, 4789, 1 },
	};
	struct rte_pmd_mlx4v_flow_attr bad[4];
	struct mlx4v_test_rxq r[3];
	unsigned int i, k, live;
	uint8_t *f = buf_at(0);

	memcpy(fa.dmac, mac, sizeof(mac));
	for (i = 0; i < RTE_DIM(r); i++) {
		TEST_ASSERT_SUCCESS(mlx4v_test_rxq_create(&r[i], g_dev, g_pd, 2, 4, 0, NULL),
				    "rxq %u", i);
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_flow(r[i].st.flow), "promisc off");
		r[i].st.flow = NULL;
	}
	/* 0: the MAC at the last priority; 1: UDP to 4789 at 0; 2: VLAN 5 TCP to 4789 at 1. */
	fa.priority = RTE_PMD_MLX4V_FLOW_PRIORITY_LAST;
	r[0].st.flow = rte_pmd_mlx4v_create_flow(r[0].st.rss, &fa);
	fa.priority = 0;
	fa.match = RTE_PMD_MLX4V_FLOW_MATCH_IPV4 | RTE_PMD_MLX4V_FLOW_MATCH_UDP;
	fa.dst_port = rte_cpu_to_be_16(4789);
	fa.dst_port_mask = UINT16_MAX;
	r[1].st.flow = rte_pmd_mlx4v_create_flow(r[1].st.rss, &fa);
	fa.match = RTE_PMD_MLX4V_FLOW_MATCH_VLAN | RTE_PMD_MLX4V_FLOW_MATCH_IPV4 |
		RTE_PMD_MLX4V_FLOW_MATCH_TCP;
	fa.vid = 5;
	fa.priority = 1;
	r[2].st.flow = rte_pmd_mlx4v_create_flow(r[2].st.rss, &fa);
	for (i = 0; i < RTE_DIM(r); i++) {
		TEST_ASSERT_NOT_NULL(r[i].st.flow, "rule %u: %s", i, rte_strerror(rte_errno));
		mlx4v_test_rq_post(&r[i].rq, g_lkey, buf_at(8 + i), BUF_SIZE);
	}
	for (k = 0; k < RTE_DIM(frames); k++) {
		uint32_t len = spec_frame(f, mac, frames[k].vid, frames[k].proto, frames[k].dport);

		TEST_ASSERT_SUCCESS(mlx4v_sim_inject(g_sim, 2, f, len), "inject %u", k);
		mlx4v_test_settle(g_sim);
		for (i = 0; i < RTE_DIM(r); i++) {
			TEST_ASSERT_EQUAL(rule_got(&r[i]), (int)i == frames[k].want,
					  "frame %u: queue %u took it or not, queue %d should", k,
					  i, frames[k].want);
			if ((int)i == frames[k].want)
				mlx4v_test_rq_post(&r[i].rq, g_lkey, buf_at(8 + i), BUF_SIZE);
		}
	}
	/* What silicon refuses, each one change from a good rule. */
	fa.match = RTE_PMD_MLX4V_FLOW_MATCH_IPV4 | RTE_PMD_MLX4V_FLOW_MATCH_UDP;
	fa.priority = 0;
	for (i = 0; i < RTE_DIM(bad); i++)
		bad[i] = fa;
	bad[0].dst_ip_mask = rte_cpu_to_be_32(0xffffff00);
	bad[1].priority = RTE_PMD_MLX4V_FLOW_PRIORITY_LAST + 1;
	bad[1].dst_port_mask = 0;
	bad[2].priority = 1;
	bad[3].src_port_mask = rte_cpu_to_be_16(0xff00);
	live = mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_FLOW);
	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT_NULL(rte_pmd_mlx4v_create_flow(r[0].st.rss, &bad[i]),
				 "refused rule %u taken", i);
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rule %u: %s", i, rte_strerror(rte_errno));
	}
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_FLOW), live,
			  "a refused rule left something");
	TEST_ASSERT_EQUAL(mlx4v_sim_misuse_total(g_sim), 0, "misuse");
	for (i = 0; i < RTE_DIM(r); i++)
		mlx4v_test_rxq_destroy(&r[i]);
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_FLOW), 0u, "rules left");
	return TEST_SUCCESS;
}

/*
 * What no verbs rule can say is refused by the seam before any backend: specs on a default
 * rule, TCP and UDP together, an L4 spec without IPv4, a VLAN ID beyond 4095.
 */
static int
test_mlx4v_sim_flow_attr_misuse(void)
{
	static const uint8_t mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x41 };
	const uint32_t ip = RTE_PMD_MLX4V_FLOW_MATCH_IPV4;
	struct rte_pmd_mlx4v_flow_attr fa[4];
	struct mlx4v_test_rxq r;
	unsigned int i, live;

	TEST_ASSERT_SUCCESS(mlx4v_test_rxq_create(&r, g_dev, g_pd, 2, 4, 0, NULL), "rxq");
	memset(fa, 0, sizeof(fa));
	for (i = 0; i < RTE_DIM(fa); i++) {
		fa[i].type = RTE_PMD_MLX4V_FLOW_MAC;
		fa[i].port = 2;
		memcpy(fa[i].dmac, mac, sizeof(mac));
	}
	fa[0].type = RTE_PMD_MLX4V_FLOW_PROMISC;
	fa[0].match = ip;
	fa[1].match = ip | RTE_PMD_MLX4V_FLOW_MATCH_TCP | RTE_PMD_MLX4V_FLOW_MATCH_UDP;
	fa[2].match = RTE_PMD_MLX4V_FLOW_MATCH_UDP;
	fa[3].match = RTE_PMD_MLX4V_FLOW_MATCH_VLAN;
	fa[3].vid = 4096;
	live = mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_FLOW);
	for (i = 0; i < RTE_DIM(fa); i++) {
		TEST_ASSERT_NULL(rte_pmd_mlx4v_create_flow(r.st.rss, &fa[i]), "rule %u taken", i);
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rule %u: %s", i, rte_strerror(rte_errno));
	}
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_FLOW), live, "rules left");
	mlx4v_test_rxq_destroy(&r);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx4v_sim_suite = {
	.suite_name = "mlx4v simulator",
	.setup = sim_setup,
	.teardown = sim_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_raw_loopback),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_port_pair),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_group_to_sender),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_qp_rq_and_srq),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_fresh_cq_empty_and_strict),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_misuse_wrong_owner),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_misuse_bad_lkey),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_cq_overrun_error),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_misuse_stale_ci),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_misuse_doorbells),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_misuse_arm_sn),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_lost_event),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_devargs),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_mr_not_memory),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_mr_mempool_hole),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_rss_steering),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_send_dmac),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_flow_default_rules),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_flow_specs),
		TEST_CASE_ST(ut_setup, NULL, test_mlx4v_sim_flow_attr_misuse),
		TEST_CASES_END()
	}
};

static int
test_mlx4v_sim(void)
{
	return unit_test_suite_runner(&mlx4v_sim_suite);
}

REGISTER_TEST_COMMAND(mlx4v_sim_autotest, test_mlx4v_sim);
