/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file RSS on the verbs emulation through rdma-core's libibverbs and libmlx4, unmodified
 * (doc/guides/platform/verbs_emulation.rst, "uverbs"): the RSS capabilities of the extended
 * device query, a WQ range set with mlx4dv_set_context_attr(), four WQs, an indirection table
 * over them and an RSS QP over the table, against the model's live objects; what mlx4_ib
 * refuses (an RSS QP with a send queue, hash fields not by pairs, a table over WQs out of
 * order); the references (a table in use, a WQ in a table: EBUSY). Run under
 * dpdk-mlxv-verbs-run.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mlx4dv.h>
#include <infiniband/verbs.h>

#include "mlx4v_sim.h"
#include "verbs_test.h"

#define NB_WQ 4

/* DPDK mlx4's default key length; the bytes do not matter here. */
static uint8_t rss_key[40];

/*
 * An RSS QP over ind hashing fields; with send_cq, a send queue of 16 entries on it too
 * (libibverbs needs the CQ for one).
 */
static struct ibv_qp *
rss_qp(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_rwq_ind_table *ind,
       uint64_t fields, struct ibv_cq *send_cq)
{
	struct ibv_qp_init_attr_ex qa;

	memset(&qa, 0, sizeof(qa));
	qa.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_RX_HASH |
		IBV_QP_INIT_ATTR_IND_TABLE;
	qa.qp_type = IBV_QPT_RAW_PACKET;
	qa.pd = pd;
	qa.rwq_ind_tbl = ind;
	qa.send_cq = send_cq;
	qa.cap.max_send_wr = send_cq != NULL ? 16 : 0;
	qa.rx_hash_conf.rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ;
	qa.rx_hash_conf.rx_hash_key_len = sizeof(rss_key);
	qa.rx_hash_conf.rx_hash_key = rss_key;
	qa.rx_hash_conf.rx_hash_fields_mask = fields;
	return ibv_create_qp_ex(ctx, &qa);
}

/* A table over wqs[0..n-1] in that order. */
static struct ibv_rwq_ind_table *
ind_table(struct ibv_context *ctx, struct ibv_wq **wqs, uint32_t log_n)
{
	struct ibv_rwq_ind_table_init_attr ia;

	memset(&ia, 0, sizeof(ia));
	ia.log_ind_tbl_size = log_n;
	ia.ind_tbl = wqs;
	return ibv_create_rwq_ind_table(ctx, &ia);
}

int
main(int argc, char **argv)
{
	const char *model = argc > 1 ? argv[1] : "verbs-0000:00:06.0";
	const uint64_t ip_tcp = IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4 |
		IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP;
	struct ibv_wq *wqs[NB_WQ], *swapped[2];
	struct ibv_rwq_ind_table *ind, *bad_ind;
	struct ibv_device_attr_ex attr;
	struct ibv_wq_init_attr wa;
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_qp *qp, *bad;
	struct mlx4v_sim *sim;
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	size_t log_range = 2;
	int i, ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ctx = verbs_test_open_model(model, &list, &sim);
	if (ctx == NULL)
		return 1;
	memset(&attr, 0, sizeof(attr));
	CHECK(ibv_query_device_ex(ctx, NULL, &attr) == 0 &&
	      attr.rss_caps.max_rwq_indirection_table_size == 256 &&
	      (attr.rss_caps.supported_qpts & (1u << IBV_QPT_RAW_PACKET)) &&
	      (attr.rss_caps.rx_hash_fields_mask & ip_tcp) == ip_tcp &&
	      attr.rss_caps.rx_hash_function == IBV_RX_HASH_FUNC_TOEPLITZ,
	      "RSS capabilities: tables of %u, fields 0x%llx, function %u",
	      attr.rss_caps.max_rwq_indirection_table_size,
	      (unsigned long long)attr.rss_caps.rx_hash_fields_mask,
	      attr.rss_caps.rx_hash_function);
	/* The WQ range before the first WQ: a table's WQNs must be aligned to its size. */
	CHECK(mlx4dv_set_context_attr(ctx, MLX4DV_SET_CTX_ATTR_LOG_WQS_RANGE_SZ, &log_range) == 0,
	      "mlx4dv_set_context_attr(LOG_WQS_RANGE_SZ, 2)");
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	memset(&wa, 0, sizeof(wa));
	wa.wq_type = IBV_WQT_RQ;
	wa.max_wr = 16;
	wa.max_sge = 1;
	wa.pd = pd;
	wa.cq = cq;
	for (i = 0, ok = pd != NULL && cq != NULL; i < NB_WQ; i++) {
		wqs[i] = ok ? ibv_create_wq(ctx, &wa) : NULL;
		ok &= wqs[i] != NULL;
	}
	CHECK(ok, "%d WQs", NB_WQ);
	if (!ok)
		return 1;
	ind = ind_table(ctx, wqs, 2);
	CHECK(ind != NULL && mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_IND) == 1,
	      "a table of 4 WQs: %s", ind != NULL ? "the model holds it" : strerror(errno));
	swapped[0] = wqs[1];
	swapped[1] = wqs[0];
	bad_ind = ind_table(ctx, swapped, 1);
	CHECK(bad_ind == NULL, "a table over WQs out of order refused");
	qp = rss_qp(ctx, pd, ind, ip_tcp, NULL);
	CHECK(qp != NULL && mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_QP) == 1,
	      "an RSS QP over it: %s", qp != NULL ? "the model holds it" : strerror(errno));
	bad = rss_qp(ctx, pd, ind, ip_tcp, cq);
	CHECK(bad == NULL && errno == EOPNOTSUPP, "an RSS QP with a send queue refused");
	bad = rss_qp(ctx, pd, ind, IBV_RX_HASH_SRC_IPV4, NULL);
	CHECK(bad == NULL && errno == EINVAL, "hash fields not by pairs refused");
	/* The QP takes its port at INIT; the table's WQs come up with it. */
	if (qp != NULL) {
		struct ibv_qp_attr a;

		memset(&a, 0, sizeof(a));
		a.qp_state = IBV_QPS_INIT;
		a.port_num = 2;
		CHECK(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PORT) == 0,
		      "the RSS QP to INIT on port 2");
		a.qp_state = IBV_QPS_RTR;
		CHECK(ibv_modify_qp(qp, &a, IBV_QP_STATE) == 0, "and to RTR");
	}
	CHECK(ibv_destroy_rwq_ind_table(ind) == EBUSY, "the table in use by the QP: EBUSY");
	CHECK(ibv_destroy_wq(wqs[0]) == EBUSY, "a WQ in the table: EBUSY");
	CHECK(qp != NULL && ibv_destroy_qp(qp) == 0, "the RSS QP destroyed");
	CHECK(ibv_destroy_rwq_ind_table(ind) == 0 &&
	      mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_IND) == 0, "the table destroyed");
	for (i = 0, ok = 1; i < NB_WQ; i++)
		ok &= ibv_destroy_wq(wqs[i]) == 0;
	CHECK(ok && mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_WQ) == 0, "the WQs destroyed");
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	CHECK(ibv_close_device(ctx) == 0 && mlx4v_sim_misuse_total(sim) == 0,
	      "closed, no misuse");
	ibv_free_device_list(list);
	return verbs_test_fails != 0;
}
