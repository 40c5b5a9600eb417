/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file BlueFlame with rdma-core's libmlx4, unmodified, on the verbs emulation
 * (doc/guides/platform/verbs_emulation.rst, BlueFlame): the context reports BlueFlame
 * registers, so libmlx4 maps the BF page and writes each single small inline send there whole
 * instead of ringing the doorbell. A raw-packet QP sends inline frames to the port's MAC; after
 * each ibv_post_send() the frame bytes in the ring slot are overwritten; the frames arrive on
 * the port's loop wire as posted (the model sent the BlueFlame copy, as silicon does), and the
 * model counts one BlueFlame write per frame and no misuse. Then torn and malformed BlueFlame
 * writes are refused and counted. Run under dpdk-mlxv-verbs-run.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mlx4dv.h>
#include <infiniband/verbs.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <rte_ether.h>

#include "mlx4v_sim.h"
#include "verbs_test.h"

#define NB_FRAMES 48
#define NB_RECV 64
#define FRAME_LEN 64
#define BUF_LEN 2048

/* A raw-packet QP on port 1 that takes inline frames, taken to RTS. */
static struct ibv_qp *
bf_qp(struct ibv_pd *pd, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr qa;
	struct ibv_qp *qp;

	memset(&qa, 0, sizeof(qa));
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = IBV_QPT_RAW_PACKET;
	qa.cap.max_send_wr = 16;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_wr = NB_RECV;
	qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = FRAME_LEN;
	qp = ibv_create_qp(pd, &qa);
	if (qp != NULL && verbs_test_qp_rts(qp) != 0) {
		ibv_destroy_qp(qp);
		qp = NULL;
	}
	return qp;
}

/*
 * The WQE at counter ctr of qpn written whole to BlueFlame with frame f, then the ring slot
 * given a valid WQE of another frame: what the model sends is the BlueFlame copy, whatever
 * the ring holds (it is not read for that WQE).
 */
static void
bf_write_then_ring(struct mlx4v_sim *sim, uint32_t qpn, uint16_t ctr, uint8_t *slot,
		   const uint8_t *f, const uint8_t *other)
{
	uint8_t wqe[128];
	uint32_t w;
	unsigned int o;

	memset(wqe, 0, sizeof(wqe));
	/* owner_opcode: SEND, the counter in bits 23:8; bf_qpn: qpn << 8 | 6 DS. */
	w = rte_cpu_to_be_32(0x0a | (uint32_t)ctr << 8);
	memcpy(wqe, &w, 4);
	w = rte_cpu_to_be_32(qpn << 8 | 6);
	memcpy(wqe + 4, &w, 4);
	w = rte_cpu_to_be_32(3u << 2); /* CQ_UPDATE */
	memcpy(wqe + 8, &w, 4);
	/* Inline: 44 bytes up to the 64-byte boundary, the other 20 after it. */
	w = rte_cpu_to_be_32(0x80000000u | 44);
	memcpy(wqe + 16, &w, 4);
	memcpy(wqe + 20, f, 44);
	w = rte_cpu_to_be_32(0x80000000u | (FRAME_LEN - 44));
	memcpy(wqe + 64, &w, 4);
	memcpy(wqe + 68, f + 44, FRAME_LEN - 44);
	for (o = 0; o < sizeof(wqe); o += 8) {
		uint64_t raw;

		memcpy(&raw, wqe + o, sizeof(raw));
		mlx4v_sim_bf_store(sim, o, raw);
	}
	/* The ring slot: the same WQE with the other frame, its owner bit valid. */
	memcpy(wqe + 20, other, 44);
	memcpy(wqe + 68, other + 44, FRAME_LEN - 44);
	memcpy(slot + 4, wqe + 4, sizeof(wqe) - 4);
	rte_wmb();
	memcpy(slot, wqe, 4);
}

/* Torn and malformed BlueFlame writes, stored as a program would: each refused, counted. */
static void
bf_refused(struct mlx4v_sim *sim, uint32_t qpn)
{
	uint8_t ctrl[16];
	uint64_t w[2], m0;

	memset(ctrl, 0, sizeof(ctrl));
	/* owner_opcode SEND, counter far from the engine; bf_qpn: qpn << 8 | 4 DS. */
	ctrl[3] = 0x0a;
	ctrl[1] = 0x40;
	ctrl[4] = (uint8_t)(qpn >> 16);
	ctrl[5] = (uint8_t)(qpn >> 8);
	ctrl[6] = (uint8_t)qpn;
	ctrl[7] = 4;
	memcpy(w, ctrl, sizeof(w));
	m0 = mlx4v_sim_misuse_count(sim, MLX4V_SIM_MISUSE_BF_WRITE);
	/* Torn: the second word skips one. */
	mlx4v_sim_bf_store(sim, 0, w[0]);
	mlx4v_sim_bf_store(sim, 16, w[1]);
	CHECK(mlx4v_sim_misuse_count(sim, MLX4V_SIM_MISUSE_BF_WRITE) == m0 + 1,
	      "a torn BlueFlame write refused (bf_write)");
	/* Malformed: a DS count the 256-byte half cannot hold. */
	ctrl[7] = 0x3f;
	memcpy(w, ctrl, sizeof(w));
	mlx4v_sim_bf_store(sim, 256, w[0]);
	CHECK(mlx4v_sim_misuse_count(sim, MLX4V_SIM_MISUSE_BF_WRITE) == m0 + 2,
	      "a BlueFlame WQE bigger than its half refused");
	/* Complete, but the counter is not the QP's next WQE. */
	ctrl[7] = 1;
	memcpy(w, ctrl, sizeof(w));
	for (unsigned int o = 0; o < 64; o += 8)
		mlx4v_sim_bf_store(sim, o, o < 16 ? w[o / 8] : 0);
	CHECK(mlx4v_sim_misuse_count(sim, MLX4V_SIM_MISUSE_BF_WRITE) == m0 + 3,
	      "a BlueFlame WQE with a stale counter refused");
}

int
main(int argc, char **argv)
{
	const char *model = argc > 1 ? argv[1] : "verbs-0000:00:06.0";
	struct mlx4v_sim_stats st0, st1;
	struct ibv_recv_wr rwr, *rbad;
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge, rsge;
	struct rte_ether_addr mac;
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_wc wc[16];
	struct ibv_flow *flow;
	struct mlx4dv_obj obj;
	struct mlx4dv_qp dv;
	struct ibv_mr *rmr;
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	struct mlx4v_sim *sim;
	uint8_t frame[FRAME_LEN], *rbuf, *sq, *slot;
	unsigned int i, k, sent = 0, got = 0;
	int n, ok = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ctx = verbs_test_open_model(model, &list, &sim);
	if (ctx == NULL)
		return 1;
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 2 * NB_RECV, NULL, NULL, 0);
	rbuf = calloc(NB_RECV, BUF_LEN);
	rmr = pd != NULL ? ibv_reg_mr(pd, rbuf, NB_RECV * BUF_LEN, IBV_ACCESS_LOCAL_WRITE) : NULL;
	qp = pd != NULL && cq != NULL ? bf_qp(pd, cq) : NULL;
	CHECK(rmr != NULL && qp != NULL, "PD, CQ, MR, an inline raw-packet QP in RTS: %s",
	      qp != NULL ? "done" : strerror(errno));
	if (rmr == NULL || qp == NULL)
		return 1;
	memset(&obj, 0, sizeof(obj));
	obj.qp.in = qp;
	obj.qp.out = &dv;
	CHECK(mlx4dv_init_obj(&obj, MLX4DV_OBJ_QP) == 0, "mlx4dv_init_obj(QP)");
	sq = (uint8_t *)dv.buf.buf + dv.sq.offset;
	for (i = 0; i < NB_RECV; i++) {
		rsge.addr = (uintptr_t)(rbuf + i * BUF_LEN);
		rsge.length = BUF_LEN;
		rsge.lkey = rmr->lkey;
		memset(&rwr, 0, sizeof(rwr));
		rwr.wr_id = i;
		rwr.sg_list = &rsge;
		rwr.num_sge = 1;
		ok &= ibv_post_recv(qp, &rwr, &rbad) == 0;
	}
	mlx4v_sim_port_mac(sim, 1, &mac);
	flow = verbs_test_mac_rule(qp, 1, mac.addr_bytes);
	CHECK(ok && flow != NULL, "receive buffers posted, a rule for the port's MAC");
	mlx4v_sim_stats_get(sim, &st0);
	for (k = 0; k < NB_FRAMES && ok; k++) {
		memcpy(frame, mac.addr_bytes, 6);
		memcpy(frame + 6, "\x02\x00\x00\x00\x00\x02", 6);
		frame[12] = 0x88;
		frame[13] = 0xb5;
		memset(frame + 14, (uint8_t)(0x80 + k), FRAME_LEN - 14);
		sge.addr = (uintptr_t)frame;
		sge.length = FRAME_LEN;
		sge.lkey = 0;
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = k;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
		if (ibv_post_send(qp, &wr, &bad) == 0)
			sent++;
		/*
		 * The ring slot after the post: everything past the control segment flipped. The
		 * frame sent must be the BlueFlame copy, not this.
		 */
		slot = sq + ((size_t)(k & (dv.sq.wqe_cnt - 1)) << dv.sq.wqe_shift);
		for (i = 16; i < 1u << dv.sq.wqe_shift; i++)
			slot[i] ^= 0xff;
		/* One at a time: a single WR per post is what libmlx4 writes to BlueFlame. */
		n = verbs_test_poll(cq, wc, 2, 2000);
		for (i = 0; i < (unsigned int)n; i++) {
			if (wc[i].opcode != IBV_WC_RECV) {
				ok &= wc[i].status == IBV_WC_SUCCESS && wc[i].wr_id == k;
				continue;
			}
			ok &= wc[i].status == IBV_WC_SUCCESS && wc[i].byte_len == FRAME_LEN &&
				wc[i].wr_id == got &&
				memcmp(rbuf + got * BUF_LEN, frame, FRAME_LEN) == 0;
			got++;
		}
		ok &= n == 2;
	}
	mlx4v_sim_stats_get(sim, &st1);
	CHECK(sent == NB_FRAMES, "ibv_post_send(INLINE): %u frames", sent);
	CHECK(st1.bf_writes - st0.bf_writes == NB_FRAMES,
	      "libmlx4 wrote each to BlueFlame (%" PRIu64 " BlueFlame WQEs)",
	      st1.bf_writes - st0.bf_writes);
	CHECK(st1.doorbells == st0.doorbells, "no doorbell rung (%" PRIu64 ")",
	      st1.doorbells - st0.doorbells);
	CHECK(got == NB_FRAMES && ok,
	      "%u frames back on the loop wire as posted, the ring slots overwritten", got);
	CHECK(mlx4v_sim_misuse_total(sim) == 0, "no misuse");
	for (i = 0; i < MLX4V_SIM_MISUSE_MAX; i++)
		if (mlx4v_sim_misuse_count(sim, i) != 0)
			printf("misuse %s: %" PRIu64 "\n", mlx4v_sim_misuse_name(i),
			       mlx4v_sim_misuse_count(sim, i));
	/* The BlueFlame copy is sent, not the ring slot (written valid after it). */
	{
		uint8_t other[FRAME_LEN];

		memcpy(other, frame, FRAME_LEN);
		memset(other + 14, 0x11, FRAME_LEN - 14);
		memset(frame + 14, 0x22, FRAME_LEN - 14);
		slot = sq + ((size_t)(NB_FRAMES & (dv.sq.wqe_cnt - 1)) << dv.sq.wqe_shift);
		bf_write_then_ring(sim, qp->qp_num, NB_FRAMES, slot, frame, other);
		n = verbs_test_poll(cq, wc, 2, 2000);
		for (i = 0, ok = 0; i < (unsigned int)n; i++)
			if (wc[i].opcode == IBV_WC_RECV)
				ok = wc[i].status == IBV_WC_SUCCESS && wc[i].wr_id == got &&
					memcmp(rbuf + got * BUF_LEN, frame, FRAME_LEN) == 0;
		CHECK(ok, "the frame written to BlueFlame received, not the ring slot's");
	}
	bf_refused(sim, qp->qp_num);
	CHECK(flow != NULL && ibv_destroy_flow(flow) == 0, "ibv_destroy_flow");
	CHECK(ibv_destroy_qp(qp) == 0, "ibv_destroy_qp");
	ibv_dereg_mr(rmr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	free(rbuf);
	return verbs_test_fails != 0;
}
