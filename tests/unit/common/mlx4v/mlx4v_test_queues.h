/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Transmit and receive queues over the raw views, shared by the unit test programs that
 * run against the simulator (test_mlx4v_sim, test_mlx4v_sim_wire).
 */

#ifndef _MLX4V_TEST_QUEUES_H_
#define _MLX4V_TEST_QUEUES_H_

#include "test.h"

#include "mlx4v_test_util.h"

/** A transmit queue: CQ + raw QP in RTS, with views. */
struct mlx4v_test_txq {
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_qp *qp;
	struct mlx4v_test_sq sq;
	struct mlx4v_test_cq tcq;
	uint32_t qpn;
};

/** A receive queue: CQ + RWQ in RDY, with views, and the steering that feeds it. */
struct mlx4v_test_rxq {
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_wq *wq;
	struct mlx4v_test_rq rq;
	struct mlx4v_test_cq tcq;
	struct mlx4v_test_steer st;     /* RSS QP over the WQ, promiscuous rule */
	struct mlx4v_test_steer st_mac; /* a MAC rule on the same RSS QP, or nothing */
	uint32_t wqn;
	unsigned int first;             /* the caller's buffer index of WQE 0, if it uses one */
};

/** A transmit queue on port whose CQ has cqe entries. @return TEST_SUCCESS or TEST_FAILED. */
static inline int
mlx4v_test_txq_create(struct mlx4v_test_txq *t, struct rte_pmd_mlx4v_dev *dev,
		      struct rte_pmd_mlx4v_pd *pd, uint8_t port, int cqe)
{
	struct rte_pmd_mlx4v_qp_attr a = { .max_send_wr = 64, .max_send_sge = 1,
		.max_recv_wr = 1, .max_recv_sge = 1, .port = port };
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_qp vqp;
	struct mlx4dv_cq vcq;
	int s;

	memset(t, 0, sizeof(*t));
	t->cq = rte_pmd_mlx4v_create_cq(dev, cqe, 32, 0);
	TEST_ASSERT_NOT_NULL(t->cq, "tx cq");
	a.send_cq = a.recv_cq = t->cq;
	t->qp = rte_pmd_mlx4v_create_qp(pd, &a);
	TEST_ASSERT_NOT_NULL(t->qp, "tx qp");
	for (s = RTE_PMD_MLX4V_QPS_INIT; s <= RTE_PMD_MLX4V_QPS_RTS; s++)
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(t->qp, s), "state %d", s);
	vqp.comp_mask = MLX4DV_QP_MASK_UAR_MMAP_OFFSET;
	vcq.comp_mask = MLX4DV_CQ_MASK_UAR;
	obj = (struct rte_pmd_mlx4v_obj){ .qp = { t->qp, &vqp }, .cq = { t->cq, &vcq } };
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ),
			    "tx views");
	mlx4v_test_sq_init(&t->sq, &vqp);
	mlx4v_test_cq_init(&t->tcq, &vcq);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_qp_num(t->qp, &t->qpn), "tx qpn");
	return TEST_SUCCESS;
}

static inline void
mlx4v_test_txq_destroy(struct mlx4v_test_txq *t)
{
	rte_pmd_mlx4v_destroy_qp(t->qp);
	rte_pmd_mlx4v_destroy_cq(t->cq);
}

/**
 * A receive queue on port of nwqe WQEs (none posted), its CQ with events when events is set.
 * Nothing reaches a WQ but through an RSS QP and a rule (prm/mlx4 §4.5): it gets both, with a
 * promiscuous rule for frames from the wire and, when mac is not NULL, a MAC rule that sent
 * frames to mac loop back to. @return TEST_SUCCESS or TEST_FAILED.
 */
static inline int
mlx4v_test_rxq_create(struct mlx4v_test_rxq *r, struct rte_pmd_mlx4v_dev *dev,
		      struct rte_pmd_mlx4v_pd *pd, uint8_t port, uint32_t nwqe, int events,
		      const uint8_t *mac)
{
	struct rte_pmd_mlx4v_wq_attr a = { .max_wr = nwqe, .max_sge = 1, .port = port };
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_rwq vwq;
	struct mlx4dv_cq vcq;

	memset(r, 0, sizeof(*r));
	r->cq = rte_pmd_mlx4v_create_cq(dev, nwqe, 64, events);
	TEST_ASSERT_NOT_NULL(r->cq, "rx cq");
	a.cq = r->cq;
	r->wq = rte_pmd_mlx4v_create_wq(pd, &a);
	TEST_ASSERT_NOT_NULL(r->wq, "rwq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_wq(r->wq, RTE_PMD_MLX4V_WQS_RDY), "RDY");
	vcq.comp_mask = MLX4DV_CQ_MASK_UAR;
	obj = (struct rte_pmd_mlx4v_obj){ .cq = { r->cq, &vcq }, .rwq = { r->wq, &vwq } };
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_RWQ | MLX4DV_OBJ_CQ),
			    "rx views");
	mlx4v_test_rq_from_rwq(&r->rq, &vwq);
	mlx4v_test_cq_init(&r->tcq, &vcq);
	TEST_ASSERT_SUCCESS(mlx4v_test_steer_wqs(&r->st, dev, pd, &r->wq, 0, port), "steering");
	if (mac != NULL)
		TEST_ASSERT_SUCCESS(mlx4v_test_steer_qp(&r->st_mac, r->st.rss, port,
						       RTE_PMD_MLX4V_FLOW_MAC, mac), "MAC rule");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_wq_num(r->wq, &r->wqn), "wqn");
	return TEST_SUCCESS;
}

static inline void
mlx4v_test_rxq_destroy(struct mlx4v_test_rxq *r)
{
	mlx4v_test_steer_destroy(&r->st_mac);
	mlx4v_test_steer_destroy(&r->st);
	rte_pmd_mlx4v_destroy_wq(r->wq);
	rte_pmd_mlx4v_destroy_cq(r->cq);
}

#endif /* _MLX4V_TEST_QUEUES_H_ */
