/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Two emulated ConnectX-3 cabled together (wire1=pair:), driven by libibverbs and
 * libmlx4 only (doc/guides/platform/verbs_emulation.rst): mlx4_0 sends frames on port 1 to
 * the MAC of mlx4_1's port 1, which receives them through a MAC rule into the buffers it
 * posted, and its CQ, on a completion channel, raises an event; a frame to another MAC is
 * not received. Run under dpdk-mlxv-verbs-run with the two
 * functions cabled.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <rte_ether.h>

#include "mlx4v_sim.h"
#include "verbs_test.h"

#define NB 16
#define LEN 128
#define RBUF 2048

struct side {
	struct ibv_comp_channel *ch;  /**< NULL: a CQ without events */
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
};

static int
side_open(struct side *s, struct ibv_device *dev, int nrecv, int events)
{
	memset(s, 0, sizeof(*s));
	s->ctx = ibv_open_device(dev);
	if (s->ctx == NULL)
		return -1;
	s->ch = events ? ibv_create_comp_channel(s->ctx) : NULL;
	if (events && s->ch == NULL)
		return -1;
	s->pd = ibv_alloc_pd(s->ctx);
	s->cq = ibv_create_cq(s->ctx, 64, s, s->ch, 0);
	s->buf = calloc(NB, RBUF);
	s->mr = s->pd != NULL ? ibv_reg_mr(s->pd, s->buf, NB * RBUF, IBV_ACCESS_LOCAL_WRITE) :
		NULL;
	if (s->mr == NULL || s->cq == NULL)
		return -1;
	s->qp = verbs_test_raw_qp(s->pd, s->cq, 32, nrecv, NULL);
	return s->qp != NULL ? 0 : -1;
}

static void
side_close(struct side *s)
{
	ibv_destroy_qp(s->qp);
	ibv_dereg_mr(s->mr);
	ibv_destroy_cq(s->cq);
	if (s->ch != NULL)
		ibv_destroy_comp_channel(s->ch);
	ibv_dealloc_pd(s->pd);
	ibv_close_device(s->ctx);
	free(s->buf);
}

int
main(void)
{
	struct ibv_wc wc[2 * NB];
	struct ibv_device **list;
	struct ibv_send_wr wr, *bad;
	struct ibv_recv_wr rwr, *rbad;
	struct ibv_sge sge;
	struct rte_ether_addr mac1;
	struct mlx4v_sim *sim0, *sim1;
	struct ibv_flow *flow;
	struct side tx, rx;
	int i, n, ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	CHECK(list != NULL && n == 2, "two devices (%d)", n);
	sim0 = mlx4v_sim_get("verbs-0000:00:06.0");
	sim1 = mlx4v_sim_get("verbs-0000:00:07.0");
	if (list == NULL || n != 2 || sim0 == NULL || sim1 == NULL)
		return 1;
	CHECK(side_open(&tx, list[0], 0, 0) == 0, "mlx4_0: a raw-packet QP in RTS");
	CHECK(side_open(&rx, list[1], NB, 1) == 0,
	      "mlx4_1: a raw-packet QP with %d receives, its CQ on a completion channel", NB);
	/* Armed before the frames: their first completion raises one event on the channel. */
	CHECK(ibv_req_notify_cq(rx.cq, 0) == 0, "mlx4_1: CQ armed");
	mlx4v_sim_port_mac(sim1, 1, &mac1);
	for (i = 0, ok = 1; i < NB; i++) {
		sge.addr = (uintptr_t)(rx.buf + i * RBUF);
		sge.length = RBUF;
		sge.lkey = rx.mr->lkey;
		memset(&rwr, 0, sizeof(rwr));
		rwr.wr_id = i;
		rwr.sg_list = &sge;
		rwr.num_sge = 1;
		ok &= ibv_post_recv(rx.qp, &rwr, &rbad) == 0;
	}
	CHECK(ok, "mlx4_1: %d receive buffers posted", NB);
	flow = verbs_test_mac_rule(rx.qp, 1, mac1.addr_bytes);
	CHECK(flow != NULL, "mlx4_1: rule for " RTE_ETHER_ADDR_PRT_FMT,
	      RTE_ETHER_ADDR_BYTES(&mac1));
	/* NB frames to mlx4_1's MAC, then one to another MAC, which no rule takes. */
	for (i = 0; i <= NB; i++) {
		uint8_t *f = tx.buf + i * LEN;

		memcpy(f, mac1.addr_bytes, 6);
		if (i == NB)
			f[5] ^= 0x80;
		memcpy(f + 6, "\x02\x00\x00\x00\x00\x06", 6);
		f[12] = 0x88;
		f[13] = 0xb5;
		f[14] = (uint8_t)i;
		sge.addr = (uintptr_t)f;
		sge.length = LEN;
		sge.lkey = tx.mr->lkey;
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		ibv_post_send(tx.qp, &wr, &bad);
	}
	n = verbs_test_poll(tx.cq, wc, NB + 1, 2000);
	CHECK(n == NB + 1, "mlx4_0: %d send completions", n);
	{
		struct pollfd pfd = { .fd = rx.ch->fd, .events = POLLIN };
		struct mlx4v_sim_stats st0, st1, st2;
		struct ibv_cq *ecq = NULL;
		void *ectx = NULL;
		int ev;

		/* poll() first: a missing event fails the check instead of hanging the test. */
		ev = poll(&pfd, 1, 2000) == 1;
		/*
		 * Armed again before the event is read, with the sn that fired (libmlx4 bumps it
		 * when the event is read): what DPDK's mlx4 does when its interrupt disable found
		 * the channel still empty. Legal on silicon, which ignores the arm; not a misuse.
		 */
		mlx4v_sim_stats_get(sim1, &st0);
		CHECK(ibv_req_notify_cq(rx.cq, 0) == 0 && mlx4v_sim_misuse_total(sim1) == 0,
		      "mlx4_1: armed with the fired sn before the event is read, no misuse");
		mlx4v_sim_stats_get(sim1, &st1);
		CHECK(st1.arms_stale == st0.arms_stale + 1 && st1.arms == st0.arms,
		      "mlx4_1: that arm ignored (%" PRIu64 " stale, %" PRIu64 " taken)",
		      st1.arms_stale - st0.arms_stale, st1.arms - st0.arms);
		CHECK(ev && ibv_get_cq_event(rx.ch, &ecq, &ectx) == 0 &&
		      ecq == rx.cq && ectx == &rx, "mlx4_1: a completion event for its CQ");
		if (ecq != NULL)
			ibv_ack_cq_events(ecq, 1);
		n = verbs_test_poll(rx.cq, wc, NB + 1, 200);
		/* The event read and the CQ drained (no event at once), the next sn arms it. */
		CHECK(ibv_req_notify_cq(rx.cq, 0) == 0, "mlx4_1: armed again after the event");
		mlx4v_sim_stats_get(sim1, &st2);
		CHECK(st2.arms == st1.arms + 1, "mlx4_1: that arm taken");
	}
	for (i = 0, ok = 1; i < n && i < NB; i++)
		ok &= wc[i].status == IBV_WC_SUCCESS && wc[i].opcode == IBV_WC_RECV &&
			wc[i].byte_len == LEN && wc[i].wr_id == (uint64_t)i &&
			rx.buf[i * RBUF + 14] == (uint8_t)i;
	CHECK(n == NB && ok, "mlx4_1: the %d frames to its MAC received in order, not the "
	      "other (%d)", NB, n);
	CHECK(mlx4v_sim_misuse_total(sim0) == 0 && mlx4v_sim_misuse_total(sim1) == 0,
	      "no misuse on either model");
	CHECK(flow != NULL && ibv_destroy_flow(flow) == 0, "rule destroyed");
	/* Destroying the CQ returns: the events reported are the events acknowledged. */
	side_close(&rx);
	CHECK(mlx4v_sim_live_objects(sim1, MLX4V_SIM_OBJ_CQ) == 0 &&
	      mlx4v_sim_live_objects(sim1, MLX4V_SIM_OBJ_QP) == 0,
	      "mlx4_1 closed, its model empty");
	side_close(&tx);
	ibv_free_device_list(list);
	return verbs_test_fails != 0;
}
