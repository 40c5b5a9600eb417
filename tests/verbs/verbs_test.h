/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file What the verbs emulation's test programs share: one line per check. */

#ifndef _VERBS_TEST_H_
#define _VERBS_TEST_H_

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>

#include "mlx4v_sim.h"

/** Failed checks so far; the program exits nonzero if any. */
static int verbs_test_fails;

/** "ok: ..." or "FAIL: ..." on one line of stdout. */
#define CHECK(cond, ...) do { \
	if (cond) { \
		printf("ok: " __VA_ARGS__); \
	} else { \
		printf("FAIL: " __VA_ARGS__); \
		verbs_test_fails++; \
	} \
	printf("\n"); \
} while (0)

/*
 * Poll cq until n completions or about max_ms milliseconds (the model's engine runs in its
 * own thread). @return the completions in wc, or a negative ibv_poll_cq() error.
 */
static inline int
verbs_test_poll(struct ibv_cq *cq, struct ibv_wc *wc, int n, int max_ms)
{
	struct timespec ts = { 0, 1000000 };
	int got = 0, r, i;

	for (i = 0; i < max_ms && got < n; i++) {
		r = ibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			return r;
		got += r;
		if (got < n)
			nanosleep(&ts, NULL);
	}
	return got;
}

/**
 * Open the one device the launcher made (mlx4_0) and find its model, named model
 * ("verbs-<BDF>"), in this process: one check line. *list is the device list to free, *sim
 * the model. @return the context, or NULL (the check failed).
 */
static inline struct ibv_context *
verbs_test_open_model(const char *model, struct ibv_device ***list, struct mlx4v_sim **sim)
{
	struct ibv_context *ctx = NULL;
	int n = 0;

	*list = ibv_get_device_list(&n);
	*sim = mlx4v_sim_get(model);
	if (*list != NULL && n == 1 && strcmp(ibv_get_device_name((*list)[0]), "mlx4_0") == 0)
		ctx = ibv_open_device((*list)[0]);
	CHECK(ctx != NULL && *sim != NULL, "one device (%d), mlx4_0, opened (%s), model %s here",
	      n, ctx != NULL ? "done" : strerror(errno), model);
	if (ctx != NULL && *sim == NULL) {
		ibv_close_device(ctx);
		ctx = NULL;
	}
	return ctx;
}

/** A NORMAL steering rule: one Ethernet spec, the destination MAC with a full mask. */
struct verbs_test_rule {
	struct ibv_flow_attr attr;
	struct ibv_flow_spec_eth eth;
};

/** @return the rule for frames to mac on port of qp, or NULL with errno. */
static inline struct ibv_flow *
verbs_test_mac_rule(struct ibv_qp *qp, uint8_t port, const uint8_t *mac)
{
	struct verbs_test_rule rule;

	memset(&rule, 0, sizeof(rule));
	rule.attr.type = IBV_FLOW_ATTR_NORMAL;
	rule.attr.size = sizeof(rule);
	rule.attr.num_of_specs = 1;
	rule.attr.port = port;
	rule.eth.type = IBV_FLOW_SPEC_ETH;
	rule.eth.size = sizeof(rule.eth);
	memcpy(rule.eth.val.dst_mac, mac, 6);
	memset(rule.eth.mask.dst_mac, 0xff, 6);
	return ibv_create_flow(qp, &rule.attr);
}

/** QP taken from RESET through INIT (port 1) and RTR to RTS. @return 0, or -1. */
static inline int
verbs_test_qp_rts(struct ibv_qp *qp)
{
	static const enum ibv_qp_state steps[] = { IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS };
	struct ibv_qp_attr a;
	unsigned int i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		memset(&a, 0, sizeof(a));
		a.qp_state = steps[i];
		a.port_num = 1;
		/* The port goes with RESET->INIT only. */
		if (ibv_modify_qp(qp, &a, IBV_QP_STATE | (i == 0 ? IBV_QP_PORT : 0)) != 0)
			return -1;
	}
	return 0;
}

/**
 * A raw-packet QP on port 1 of pd, both queues on cq, receiving into nrecv WQEs of its own or
 * from srq (non-NULL), taken through INIT and RTR to RTS. @return the QP, or NULL.
 */
static inline struct ibv_qp *
verbs_test_raw_qp(struct ibv_pd *pd, struct ibv_cq *cq, uint32_t nsend, uint32_t nrecv,
		  struct ibv_srq *srq)
{
	struct ibv_qp_init_attr qa;
	struct ibv_qp *qp;

	memset(&qa, 0, sizeof(qa));
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = IBV_QPT_RAW_PACKET;
	qa.cap.max_send_wr = nsend;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_wr = nrecv;
	qa.cap.max_recv_sge = 1;
	qa.srq = srq;
	qp = ibv_create_qp(pd, &qa);
	if (qp != NULL && verbs_test_qp_rts(qp) != 0) {
		ibv_destroy_qp(qp);
		qp = NULL;
	}
	return qp;
}

#endif /* _VERBS_TEST_H_ */
