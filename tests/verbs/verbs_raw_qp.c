/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file rdma-core's libmlx4 data path, unmodified, on the verbs emulation
 * (doc/guides/platform/verbs_emulation.rst, step 3, first part): a raw-packet QP on port 1
 * taken RESET -> INIT -> RTR -> RTS, rounds of frames sent with ibv_post_send() (libmlx4
 * builds the WQEs, stamps and rings the UAR page) until the send queue wrapped several times,
 * completions polled with ibv_poll_cq() (libmlx4 reads the model's CQEs); the model counts
 * the frames and no misuse; a QP with a receive queue and a MAC rule (ibv_create_flow())
 * gets the frames sent to that MAC back over the port's loop wire into the buffers
 * ibv_post_recv() posted; a promiscuous rule as DPDK's mlx4 makes it is taken; a QP takes
 * port 2 at INIT, and a port beyond the device's is
 * refused. Run under dpdk-mlxv-verbs-run.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mlx4dv.h>
#include <infiniband/verbs.h>

#include <rte_ether.h>

#include "mlx4v_sim.h"
#include "verbs_test.h"

/* Rounds of frames: 6 x 50 wraps the 64-entry send queue more than four times. */
#define NB_ROUNDS 6
#define NB_FRAMES 50
#define FRAME_LEN 64

static int
qp_to(struct ibv_qp *qp, enum ibv_qp_state state, int port)
{
	struct ibv_qp_attr a;
	int mask = IBV_QP_STATE;

	memset(&a, 0, sizeof(a));
	a.qp_state = state;
	if (port != 0) {
		a.port_num = port;
		mask |= IBV_QP_PORT;
	}
	return ibv_modify_qp(qp, &a, mask);
}

/* The QP's mlx4dv view against the model's QP. */
static void
qp_view_check(struct ibv_qp *qp, struct mlx4v_sim *sim)
{
	struct mlx4v_sim_qp_info info;
	struct mlx4dv_obj obj;
	struct mlx4dv_qp dv;
	uint8_t *buf;

	memset(&obj, 0, sizeof(obj));
	memset(&dv, 0, sizeof(dv));
	obj.qp.in = qp;
	obj.qp.out = &dv;
	CHECK(mlx4dv_init_obj(&obj, MLX4DV_OBJ_QP) == 0, "mlx4dv_init_obj(QP 0x%x)", qp->qp_num);
	CHECK(mlx4v_sim_qp_info(sim, qp->qp_num, &info) == 0, "the model holds QP 0x%x",
	      qp->qp_num);
	buf = dv.buf.buf;
	CHECK(info.sq == buf + dv.sq.offset && info.sq_wqe_cnt == dv.sq.wqe_cnt &&
	      info.sq_shift == dv.sq.wqe_shift, "SQ: view %p %u x %d, model %p %u x %d",
	      (void *)(buf + dv.sq.offset), dv.sq.wqe_cnt, 1 << dv.sq.wqe_shift, info.sq,
	      info.sq_wqe_cnt, 1 << info.sq_shift);
	CHECK(info.rq_wqe_cnt == dv.rq.wqe_cnt && (dv.rq.wqe_cnt == 0 ||
	      (info.rq == buf + dv.rq.offset && info.rq_shift == dv.rq.wqe_shift &&
	       info.rdb == dv.rdb)), "RQ: view %u x %d, model %u x %d", dv.rq.wqe_cnt,
	      dv.rq.wqe_cnt != 0 ? 1 << dv.rq.wqe_shift : 0, info.rq_wqe_cnt,
	      info.rq_wqe_cnt != 0 ? 1 << info.rq_shift : 0);
	CHECK(info.doorbell_qpn == dv.doorbell_qpn, "doorbell_qpn: view 0x%08x, model 0x%08x",
	      dv.doorbell_qpn, info.doorbell_qpn);
	CHECK(((uintptr_t)dv.sdb & 0xfff) == 0x14, "the send doorbell at UAR + 0x14");
}

/*
 * DPDK's mlx4 makes its promiscuous rule ALL_DEFAULT with one Ethernet spec of empty DMAC
 * mask (mlx4_flow_merge_eth()), which mlx4_ib hands to firmware: taken. A spec that would
 * narrow a default rule is refused.
 */
static void
promisc_rules(struct ibv_qp *qp, struct mlx4v_sim *sim)
{
	struct verbs_test_rule rule;
	struct ibv_flow *flow;

	memset(&rule, 0, sizeof(rule));
	rule.attr.type = IBV_FLOW_ATTR_ALL_DEFAULT;
	rule.attr.size = sizeof(rule);
	rule.attr.num_of_specs = 1;
	rule.attr.port = 1;
	rule.eth.type = IBV_FLOW_SPEC_ETH;
	rule.eth.size = sizeof(rule.eth);
	rule.eth.val.dst_mac[0] = 0xff;
	flow = ibv_create_flow(qp, &rule.attr);
	CHECK(flow != NULL, "ALL_DEFAULT rule with an empty-mask Ethernet spec: %s",
	      flow != NULL ? "taken" : strerror(errno));
	CHECK(flow == NULL || ibv_destroy_flow(flow) == 0, "its ibv_destroy_flow");
	memset(rule.eth.mask.dst_mac, 0xff, 3);
	flow = ibv_create_flow(qp, &rule.attr);
	CHECK(flow == NULL, "ALL_DEFAULT rule with a partial DMAC mask refused");
	if (flow != NULL)
		ibv_destroy_flow(flow);
	CHECK(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_FLOW) == 0, "no rule left");
}

int
main(int argc, char **argv)
{
	const char *model = argc > 1 ? argv[1] : "verbs-0000:00:06.0";
	struct ibv_wc wc[NB_FRAMES];
	struct mlx4v_sim_stats st0, st1;
	struct ibv_qp_init_attr qa;
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct mlx4v_sim *sim;
	uint8_t *frames;
	unsigned int posted, polled;
	int i, n, r, ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ctx = verbs_test_open_model(model, &list, &sim);
	if (ctx == NULL)
		return 1;
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	frames = calloc(NB_FRAMES, FRAME_LEN);
	mr = pd != NULL ? ibv_reg_mr(pd, frames, NB_FRAMES * FRAME_LEN, 0) : NULL;
	CHECK(pd != NULL && cq != NULL && mr != NULL, "PD, CQ, MR");
	if (pd == NULL || cq == NULL || mr == NULL)
		return 1;
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = IBV_QPT_RAW_PACKET;
	qa.cap.max_send_wr = 64;
	qa.cap.max_send_sge = 1;
	qp = ibv_create_qp(pd, &qa);
	CHECK(qp != NULL, "ibv_create_qp(RAW_PACKET, send only): %s",
	      qp != NULL ? "done" : strerror(errno));
	if (qp == NULL)
		return 1;
	CHECK(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_QP) == 1, "the model holds the QP");
	qp_view_check(qp, sim);
	CHECK(qp_to(qp, IBV_QPS_INIT, 1) == 0, "RESET -> INIT (port 1)");
	CHECK(qp_to(qp, IBV_QPS_RTR, 0) == 0, "INIT -> RTR");
	CHECK(qp_to(qp, IBV_QPS_RTS, 0) == 0, "RTR -> RTS");

	mlx4v_sim_stats_get(sim, &st0);
	for (r = 0, posted = 0, ok = 1, polled = 0; r < NB_ROUNDS; r++) {
		for (i = 0; i < NB_FRAMES; i++) {
			uint8_t *f = frames + i * FRAME_LEN;

			/* Broadcast, a locally administered source, a private EtherType. */
			memset(f, 0xff, 6);
			memcpy(f + 6, "\x02\x00\x00\x00\x00\x01", 6);
			f[12] = 0x88;
			f[13] = 0xb5;
			f[14] = (uint8_t)i;
			memset(&sge, 0, sizeof(sge));
			sge.addr = (uintptr_t)f;
			sge.length = FRAME_LEN;
			sge.lkey = mr->lkey;
			memset(&wr, 0, sizeof(wr));
			wr.wr_id = posted;
			wr.sg_list = &sge;
			wr.num_sge = 1;
			wr.opcode = IBV_WR_SEND;
			wr.send_flags = IBV_SEND_SIGNALED;
			if (ibv_post_send(qp, &wr, &bad) == 0)
				posted++;
		}
		n = verbs_test_poll(cq, wc, NB_FRAMES, 2000);
		for (i = 0; i < n; i++, polled++)
			ok &= wc[i].status == IBV_WC_SUCCESS && wc[i].wr_id == polled &&
				wc[i].opcode == IBV_WC_SEND && wc[i].qp_num == qp->qp_num;
	}
	CHECK(posted == NB_ROUNDS * NB_FRAMES, "ibv_post_send: %u frames", posted);
	CHECK(polled == posted, "%u completions polled by libmlx4 (of %u)", polled, posted);
	CHECK(polled > 0 && ok, "each a successful send of its WR, in order, on QP 0x%x",
	      qp->qp_num);
	mlx4v_sim_stats_get(sim, &st1);
	CHECK(st1.tx_packets - st0.tx_packets == posted, "the model sent %" PRIu64 " frames",
	      st1.tx_packets - st0.tx_packets);
	CHECK(st1.tx_bytes - st0.tx_bytes == (uint64_t)posted * FRAME_LEN,
	      "of %" PRIu64 " bytes", st1.tx_bytes - st0.tx_bytes);
	CHECK(mlx4v_sim_misuse_total(sim) == 0, "no misuse");
	for (i = 0; i < MLX4V_SIM_MISUSE_MAX; i++)
		if (mlx4v_sim_misuse_count(sim, i) != 0)
			printf("misuse %s: %" PRIu64 "\n", mlx4v_sim_misuse_name(i),
			       mlx4v_sim_misuse_count(sim, i));
	/*
	 * Receive: a QP with a receive queue and a rule for the port's MAC; frames sent to that
	 * MAC loop back on the port's wire (wire1=loop) into the receive buffers libmlx4 posted.
	 */
	{
		struct ibv_qp_init_attr rqa = qa;
		struct rte_ether_addr mac;
		struct ibv_recv_wr rwr, *rbad;
		struct ibv_sge rsge;
		struct ibv_flow *flow;
		struct ibv_mr *rmr;
		struct ibv_qp *rqp;
		uint8_t *rbuf;
		unsigned int got;

		mlx4v_sim_port_mac(sim, 1, &mac);
		rqa.cap.max_send_wr = 64;
		rqa.cap.max_recv_wr = 32;
		rqa.cap.max_recv_sge = 1;
		rqp = ibv_create_qp(pd, &rqa);
		CHECK(rqp != NULL, "ibv_create_qp(RAW_PACKET, with RQ): %s",
		      rqp != NULL ? "done" : strerror(errno));
		if (rqp == NULL)
			return 1;
		qp_view_check(rqp, sim);
		CHECK(qp_to(rqp, IBV_QPS_INIT, 1) == 0 && qp_to(rqp, IBV_QPS_RTR, 0) == 0 &&
		      qp_to(rqp, IBV_QPS_RTS, 0) == 0, "receiving QP to RTS");
		rbuf = calloc(32, 2048);
		rmr = ibv_reg_mr(pd, rbuf, 32 * 2048, IBV_ACCESS_LOCAL_WRITE);
		for (i = 0, ok = 1; i < 32 && rmr != NULL; i++) {
			rsge.addr = (uintptr_t)(rbuf + i * 2048);
			rsge.length = 2048;
			rsge.lkey = rmr->lkey;
			memset(&rwr, 0, sizeof(rwr));
			rwr.wr_id = 1000 + i;
			rwr.sg_list = &rsge;
			rwr.num_sge = 1;
			ok &= ibv_post_recv(rqp, &rwr, &rbad) == 0;
		}
		CHECK(rmr != NULL && ok, "ibv_post_recv x 32");
		flow = verbs_test_mac_rule(rqp, 1, mac.addr_bytes);
		CHECK(flow != NULL, "ibv_create_flow(dmac " RTE_ETHER_ADDR_PRT_FMT "): %s",
		      RTE_ETHER_ADDR_BYTES(&mac), flow != NULL ? "done" : strerror(errno));
		mlx4v_sim_stats_get(sim, &st0);
		for (i = 0; i < 8; i++) {
			uint8_t *fr = frames + i * FRAME_LEN;

			memcpy(fr, mac.addr_bytes, 6);
			fr[14] = (uint8_t)(0x40 + i);
			sge.addr = (uintptr_t)fr;
			sge.length = FRAME_LEN;
			sge.lkey = mr->lkey;
			memset(&wr, 0, sizeof(wr));
			wr.wr_id = i;
			wr.sg_list = &sge;
			wr.num_sge = 1;
			wr.opcode = IBV_WR_SEND;
			wr.send_flags = IBV_SEND_SIGNALED;
			ibv_post_send(rqp, &wr, &bad);
		}
		/* 8 send and 8 receive completions on the one CQ. */
		n = verbs_test_poll(cq, wc, 16, 2000);
		for (i = 0, got = 0, ok = 1; i < n; i++) {
			if (wc[i].opcode != IBV_WC_RECV)
				continue;
			ok &= wc[i].status == IBV_WC_SUCCESS && wc[i].byte_len == FRAME_LEN &&
				wc[i].wr_id == 1000 + got &&
				rbuf[got * 2048 + 14] == (uint8_t)(0x40 + got) &&
				memcmp(rbuf + got * 2048, mac.addr_bytes, 6) == 0;
			got++;
		}
		CHECK(n == 16, "16 completions (%d)", n);
		CHECK(got == 8 && ok, "8 frames received in order into the posted buffers (%u)",
		      got);
		mlx4v_sim_stats_get(sim, &st1);
		CHECK(st1.rx_packets - st0.rx_packets == 8, "the model received 8 (%" PRIu64 ")",
		      st1.rx_packets - st0.rx_packets);
		CHECK(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_FLOW) == 1,
		      "the model holds the rule");
		CHECK(flow != NULL && ibv_destroy_flow(flow) == 0, "ibv_destroy_flow");
		CHECK(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_FLOW) == 0, "no rule left");
		promisc_rules(rqp, sim);
		CHECK(ibv_destroy_qp(rqp) == 0, "receiving QP destroyed");
		ibv_dereg_mr(rmr);
		free(rbuf);
		CHECK(mlx4v_sim_misuse_total(sim) == 0, "no misuse on the receive path");
	}
	CHECK(ibv_destroy_qp(qp) == 0, "ibv_destroy_qp");
	/* The port is the one RESET->INIT names, as on silicon; a port beyond two is refused. */
	qp = ibv_create_qp(pd, &qa);
	CHECK(qp != NULL && qp_to(qp, IBV_QPS_INIT, 2) == 0, "a QP taken to port 2 at INIT");
	if (qp != NULL)
		ibv_destroy_qp(qp);
	qp = ibv_create_qp(pd, &qa);
	CHECK(qp != NULL && qp_to(qp, IBV_QPS_INIT, 3) != 0, "a QP taken to port 3 is refused");
	if (qp != NULL)
		ibv_destroy_qp(qp);
	CHECK(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_QP) == 0, "the model holds no QP");
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	free(frames);
	return verbs_test_fails != 0;
}
