/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Asynchronous events through libibverbs (doc/guides/platform/verbs_emulation.rst,
 * "Async events"): two emulated ConnectX-3 cabled port 1 to port 1; the cable pulled at one
 * end, each context reads IBV_EVENT_PORT_ERR for port 1 with ibv_get_async_event() and the
 * port queries down; plugged back, IBV_EVENT_PORT_ACTIVE and the port active; a CQ of two
 * entries that four sends overrun reads IBV_EVENT_CQ_ERR naming that CQ on its own context
 * only, and ibv_destroy_cq() returns once it is acknowledged (the count in DESTROY_CQ's
 * response); the catastrophic error (the model's fatal knob) reads
 * IBV_EVENT_DEVICE_FATAL on the dead function's context only; that context is then stale
 * (EIO) while the function, reset as mlx4_core does, opens again with a working context. Run
 * under dpdk-mlxv-verbs-run with the two functions cabled.
 */

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "mlx4v_sim.h"
#include "verbs_test.h"

/* The next event of ctx within about 10 s. @return 0, or -1 (none, or the read failed). */
static int
next_event(struct ibv_context *ctx, struct ibv_async_event *ev)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };

	if (poll(&p, 1, 10000) != 1)
		return -1;
	return ibv_get_async_event(ctx, ev);
}

/*
 * Both contexts read one event of type on port 1, acked; the port is then in state (-1: not
 * checked, the flap has gone on).
 */
static void
expect_port_event(struct ibv_context **ctx, enum ibv_event_type type, int state,
		  const char *what)
{
	struct ibv_async_event ev;
	struct ibv_port_attr pa;
	int i, ok;

	for (i = 0; i < 2; i++) {
		memset(&ev, 0, sizeof(ev));
		ok = next_event(ctx[i], &ev) == 0;
		CHECK(ok && ev.event_type == type && ev.element.port_num == 1,
		      "mlx4_%d: %s: %s on port %d (read %s)", i, what, ibv_event_type_str(type),
		      ok ? ev.element.port_num : -1,
		      ok ? ibv_event_type_str(ev.event_type) : "nothing");
		if (ok)
			ibv_ack_async_event(&ev);
		if (state < 0)
			continue;
		CHECK(ibv_query_port(ctx[i], 1, &pa) == 0 && (int)pa.state == state,
		      "mlx4_%d: port 1 %s", i,
		      ibv_port_state_str((enum ibv_port_state)state));
	}
}

/*
 * Four signalled sends on a QP whose CQ has two entries, never polled: the device puts the CQ
 * in error, and its context alone hears IBV_EVENT_CQ_ERR naming it.
 */
static void
cq_overrun(struct ibv_context **ctx)
{
	static uint8_t frame[64] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 };
	struct ibv_async_event ev;
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	struct pollfd p;
	int i, ok;

	pd = ibv_alloc_pd(ctx[0]);
	cq = ibv_create_cq(ctx[0], 1, NULL, NULL, 0);
	mr = pd != NULL ? ibv_reg_mr(pd, frame, sizeof(frame), 0) : NULL;
	qp = mr != NULL && cq != NULL ? verbs_test_raw_qp(pd, cq, 8, 0, NULL) : NULL;
	CHECK(qp != NULL && cq->cqe == 1, "mlx4_0: a QP in RTS on a CQ of 2 entries");
	if (qp == NULL)
		return;
	sge.addr = (uintptr_t)frame;
	sge.length = sizeof(frame);
	sge.lkey = mr->lkey;
	for (i = 0, ok = 1; i < 4; i++) {
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		ok &= ibv_post_send(qp, &wr, &bad) == 0;
	}
	CHECK(ok, "mlx4_0: four sends posted");
	memset(&ev, 0, sizeof(ev));
	ok = next_event(ctx[0], &ev) == 0;
	CHECK(ok && ev.event_type == IBV_EVENT_CQ_ERR && ev.element.cq == cq,
	      "mlx4_0: %s on the overrun CQ", ok ? ibv_event_type_str(ev.event_type) : "nothing");
	if (ok)
		ibv_ack_async_event(&ev);
	p.fd = ctx[1]->async_fd;
	p.events = POLLIN;
	CHECK(poll(&p, 1, 0) == 0, "mlx4_1: no event for the other function's CQ");
	CHECK(ibv_destroy_qp(qp) == 0, "QP destroyed");
	/* Waits for as many acknowledgements as the command reports events: one. */
	CHECK(ibv_destroy_cq(cq) == 0, "CQ in error destroyed, its event acknowledged");
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
}

/*
 * After the catastrophic error mlx4_core resets the function and registers it again: the dead
 * context is disassociated (a PD on it fails, what it made is destroyed), a new one works.
 */
static void
fatal_reset(struct ibv_device *dev, struct ibv_context *dead)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd, *old_pd;

	old_pd = ibv_alloc_pd(dead);
	CHECK(old_pd == NULL && errno == EIO, "mlx4_0: a PD on the dead context: %s",
	      old_pd == NULL ? strerror(errno) : "made");
	ctx = ibv_open_device(dev);
	CHECK(ctx != NULL, "mlx4_0 opened again after the reset");
	if (ctx == NULL)
		return;
	pd = ibv_alloc_pd(ctx);
	CHECK(pd != NULL, "a PD on the new context");
	/* The reset did not revive the old context: it stays disassociated. */
	old_pd = ibv_alloc_pd(dead);
	CHECK(old_pd == NULL && errno == EIO, "the dead context stays stale after the reset");
	if (pd != NULL)
		CHECK(ibv_dealloc_pd(pd) == 0, "the new context's PD freed");
	CHECK(ibv_close_device(ctx) == 0, "the new context closed");
}

int
main(void)
{
	struct ibv_context *ctx[2] = { NULL, NULL };
	struct ibv_async_event ev;
	struct ibv_device **list;
	struct mlx4v_sim *sim0;
	struct pollfd p;
	int i, n, ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	CHECK(list != NULL && n == 2, "two devices (%d)", n);
	sim0 = mlx4v_sim_get("verbs-0000:00:06.0");
	if (list == NULL || n != 2 || sim0 == NULL)
		return 1;
	for (i = 0; i < 2; i++) {
		ctx[i] = ibv_open_device(list[i]);
		CHECK(ctx[i] != NULL, "mlx4_%d opened", i);
		if (ctx[i] == NULL)
			return 1;
	}
	/* The cable between the two: both ends go down, and come back. */
	CHECK(mlx4v_sim_link_set(sim0, 1, 0) == 0, "cable of mlx4_0 port 1 pulled");
	expect_port_event(ctx, IBV_EVENT_PORT_ERR, IBV_PORT_DOWN, "cable pulled");
	CHECK(mlx4v_sim_link_set(sim0, 1, 1) == 0, "cable plugged back");
	expect_port_event(ctx, IBV_EVENT_PORT_ACTIVE, IBV_PORT_ACTIVE, "cable plugged");
	/* A flap is a down and an up, in that order. */
	CHECK(mlx4v_sim_link_flap(sim0, 1) == 0, "cable flapped");
	expect_port_event(ctx, IBV_EVENT_PORT_ERR, -1, "flap");
	for (i = 0; i < 2; i++) {
		ok = next_event(ctx[i], &ev) == 0;
		CHECK(ok && ev.event_type == IBV_EVENT_PORT_ACTIVE, "mlx4_%d: flap: then %s", i,
		      ok ? ibv_event_type_str(ev.event_type) : "nothing");
		if (ok)
			ibv_ack_async_event(&ev);
	}
	cq_overrun(ctx);
	/* The catastrophic error: the dead function's context hears it, the other nothing. */
	CHECK(mlx4v_sim_knob_set(sim0, "fatal", 1) == 0, "mlx4_0: fatal error");
	ok = next_event(ctx[0], &ev) == 0;
	CHECK(ok && ev.event_type == IBV_EVENT_DEVICE_FATAL, "mlx4_0: %s",
	      ok ? ibv_event_type_str(ev.event_type) : "no event");
	if (ok)
		ibv_ack_async_event(&ev);
	p.fd = ctx[1]->async_fd;
	p.events = POLLIN;
	CHECK(poll(&p, 1, 0) == 0, "mlx4_1: no event pending");
	fatal_reset(list[0], ctx[0]);
	for (i = 0; i < 2; i++)
		CHECK(ibv_close_device(ctx[i]) == 0, "mlx4_%d closed", i);
	ibv_free_device_list(list);
	printf("%s\n", verbs_test_fails ? "FAILED" : "PASS");
	return verbs_test_fails != 0;
}
