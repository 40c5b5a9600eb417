/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file libmlx4's direct-verbs scenarios on the verbs emulation
 * (doc/guides/platform/verbs_emulation.rst; the table of doc/guides/nics/mlx4v.rst, "rdma-core
 * and the simulator side by side"): an SRQ made with ibv_create_srq() and its
 * mlx4dv_init_obj() view (ring geometry, free list, doorbell record), the limits refused; the
 * ring allocator hook of mlx4dv_set_context_attr() (the CQ and SRQ rings are the hook's, and
 * the model holds the CQ ring the hook gave) and its WQ number range (the WQs of a context
 * with a range of 4 are numbered from a multiple of 4 on, in order). Run under
 * dpdk-mlxv-verbs-run (the model is in this process, "verbs-0000:00:06.0").
 */

#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx4dv.h>
#include <infiniband/verbs.h>

#include <rte_ether.h>

#include "mlx4v_sim.h"
#include "verbs_test.h"

#define NALLOC 64
#define NRX 8           /* frames of one round through the SRQ */
#define RXBUF 2048
#define FRAME 128

/** What the allocator hook handed out. */
struct hook {
	void *ptr[NALLOC];
	size_t len[NALLOC];
	unsigned int n;         /**< allocations */
	unsigned int freed;     /**< frees (libmlx4 frees only what is destroyed) */
};

static void *
hook_alloc(size_t size, void *priv)
{
	struct hook *h = priv;
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	if (h->n == NALLOC || posix_memalign(&p, page, size) != 0)
		return NULL;
	memset(p, 0, size);
	h->ptr[h->n] = p;
	h->len[h->n++] = size;
	return p;
}

static void
hook_free(void *ptr, void *priv)
{
	struct hook *h = priv;

	h->freed++;
	free(ptr);
}

/* @return 1 when [p, p + len) lies in one block the hook handed out. */
static int
hook_owns(const struct hook *h, const void *p, size_t len)
{
	unsigned int i;

	for (i = 0; i < h->n; i++)
		if ((const char *)p >= (char *)h->ptr[i] &&
		    (const char *)p + len <= (char *)h->ptr[i] + h->len[i])
			return 1;
	return 0;
}

/*
 * An SRQ of max_wr WQEs of max_sge entries: its view as mlx4_ib sizes the ring and libmlx4
 * links the free list. @return the SRQ, or NULL.
 */
static struct ibv_srq *
srq_check(struct ibv_pd *pd, uint32_t max_wr, uint32_t max_sge, struct mlx4dv_srq *dv)
{
	struct ibv_srq_init_attr sa;
	struct mlx4dv_obj obj;
	struct ibv_srq *srq;
	uint32_t max = 1, i, ok;
	int shift = 5;

	while (max < max_wr + 1)
		max <<= 1;
	while ((1u << shift) < 16 + 16 * max_sge)
		shift++;
	memset(&sa, 0, sizeof(sa));
	sa.attr.max_wr = max_wr;
	sa.attr.max_sge = max_sge;
	srq = ibv_create_srq(pd, &sa);
	CHECK(srq != NULL, "ibv_create_srq(%u, %u): %s", max_wr, max_sge,
	      srq != NULL ? "done" : strerror(errno));
	if (srq == NULL)
		return NULL;
	CHECK(sa.attr.max_wr == max - 1 && sa.attr.max_sge == max_sge,
	      "granted max_wr %u (the power of two above %u, less one), max_sge %u",
	      sa.attr.max_wr, max_wr, sa.attr.max_sge);
	memset(&obj, 0, sizeof(obj));
	memset(dv, 0, sizeof(*dv));
	obj.srq.in = srq;
	obj.srq.out = dv;
	CHECK(mlx4dv_init_obj(&obj, MLX4DV_OBJ_SRQ) == 0, "mlx4dv_init_obj(SRQ)");
	CHECK(dv->wqe_shift == shift, "wqe_shift %d (%d expected)", dv->wqe_shift, shift);
	CHECK(dv->buf.length == (size_t)max << shift, "ring of %zu bytes: %u WQEs",
	      dv->buf.length, max);
	CHECK(dv->head == 0 && dv->tail == (int)max - 1, "head %d, tail %d", dv->head, dv->tail);
	CHECK(dv->db != NULL && *dv->db == 0, "doorbell record, 0 posted");
	CHECK(dv->comp_mask == 0, "comp_mask 0");
	/* Each WQE's next_wqe_index (bytes 2-3 of its next segment) names the next one. */
	for (i = 0, ok = 1; i < max; i++)
		ok &= be16toh(*(uint16_t *)((char *)dv->buf.buf + ((size_t)i << shift) + 2)) ==
			((i + 1) & (max - 1));
	CHECK(ok, "the WQEs linked in a free list");
	return srq;
}

/*
 * QUERY_SRQ and MODIFY_SRQ on an SRQ of 16 WQEs (15 granted): the sizes as granted and no limit
 * armed; a limit of the ring's size and a resize refused, as mlx4_ib.
 */
static void
srq_limit_refused(struct ibv_srq *srq)
{
	struct ibv_srq_attr at;

	memset(&at, 0xff, sizeof(at));
	CHECK(ibv_query_srq(srq, &at) == 0 && at.max_wr == 15 && at.max_sge == 1 &&
	      at.srq_limit == 0, "SRQ queried: max_wr %u, max_sge %u, limit %u", at.max_wr,
	      at.max_sge, at.srq_limit);
	at.srq_limit = 16;
	CHECK(ibv_modify_srq(srq, &at, IBV_SRQ_LIMIT) == EINVAL,
	      "SRQ limit 16 of 16 WQEs refused");
	at.max_wr = 31;
	CHECK(ibv_modify_srq(srq, &at, IBV_SRQ_MAX_WR) == EINVAL, "SRQ resize refused");
}

/*
 * One asynchronous event of type on ctx, naming elem (an SRQ or a QP), and no second one.
 * poll() first: a missing event fails the check instead of hanging the test.
 */
static void
one_event(struct ibv_context *ctx, enum ibv_event_type type, const void *elem, const char *what)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;
	int got;

	got = poll(&pfd, 1, 2000) == 1 && ibv_get_async_event(ctx, &ev) == 0;
	CHECK(got && ev.event_type == type &&
	      (type == IBV_EVENT_SRQ_LIMIT_REACHED ? (const void *)ev.element.srq :
	       (const void *)ev.element.qp) == elem,
	      "%s for the %s (%s)", ibv_event_type_str(type), what,
	      got ? ibv_event_type_str(ev.event_type) : "none");
	if (got)
		ibv_ack_async_event(&ev);
	CHECK(poll(&pfd, 1, 100) == 0, "no second event");
}

/*
 * The limit armed before the last round fired when fewer than 4 WQEs stayed posted:
 * IBV_EVENT_SRQ_LIMIT_REACHED naming the SRQ, once, and the limit disarmed (queried 0).
 */
static void
srq_limit_event(struct ibv_context *ctx, struct ibv_srq *srq)
{
	struct ibv_srq_attr at;

	one_event(ctx, IBV_EVENT_SRQ_LIMIT_REACHED, srq, "SRQ");
	CHECK(ibv_query_srq(srq, &at) == 0 && at.srq_limit == 0, "SRQ limit disarmed (%u)",
	      at.srq_limit);
}

/*
 * A QP on an SRQ taken to the error state takes no more WQEs from it: one
 * IBV_EVENT_QP_LAST_WQE_REACHED naming the QP; ibv_destroy_qp() then waits for its ack.
 */
static void
qp_last_wqe(struct ibv_context *ctx, struct ibv_qp *qp)
{
	struct ibv_qp_attr qa = { .qp_state = IBV_QPS_ERR };

	CHECK(ibv_modify_qp(qp, &qa, IBV_QP_STATE) == 0, "the QP on the SRQ to ERR");
	one_event(ctx, IBV_EVENT_QP_LAST_WQE_REACHED, qp, "QP");
}

/*
 * Frames through an SRQ: a raw-packet QP on it, a rule for the port's MAC, and three rounds of
 * NRX frames sent to that MAC over the port's loop wire, each round into NRX buffers posted
 * with ibv_post_srq_recv() to an SRQ of 16 WQEs (libmlx4 recycles the WQEs the completions
 * free): every frame received in order, into the buffer posted for it, with its length.
 */
static void
srq_traffic(struct ibv_context *ctx, struct ibv_pd *pd, struct mlx4v_sim *sim)
{
	static uint8_t buf[(NRX + 1) * RXBUF];
	struct ibv_wc wc[2 * NRX];
	struct ibv_send_wr wr, *bad;
	struct ibv_recv_wr rwr, *rbad;
	struct rte_ether_addr mac;
	struct ibv_srq_init_attr sa;
	struct ibv_sge sge;
	struct ibv_flow *flow;
	struct ibv_srq *srq;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	int r, i, n, ok;

	memset(&sa, 0, sizeof(sa));
	sa.attr.max_wr = 15;
	sa.attr.max_sge = 1;
	srq = ibv_create_srq(pd, &sa);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	qp = srq != NULL && cq != NULL && mr != NULL ? verbs_test_raw_qp(pd, cq, 32, 0, srq) : NULL;
	CHECK(qp != NULL, "a raw-packet QP on an SRQ of 16 WQEs, in RTS");
	if (qp == NULL)
		return;
	srq_limit_refused(srq);
	mlx4v_sim_port_mac(sim, 1, &mac);
	flow = verbs_test_mac_rule(qp, 1, mac.addr_bytes);
	CHECK(flow != NULL, "a rule for the port's MAC");
	/* The frame: to the port's own MAC, in the last buffer. */
	memset(buf + NRX * RXBUF, 0x5a, FRAME);
	memcpy(buf + NRX * RXBUF, mac.addr_bytes, 6);
	for (r = 0; r < 3; r++) {
		for (i = 0, ok = 1; i < NRX; i++) {
			memset(buf + i * RXBUF, 0, RXBUF);
			sge.addr = (uintptr_t)(buf + i * RXBUF);
			sge.length = RXBUF;
			sge.lkey = mr->lkey;
			memset(&rwr, 0, sizeof(rwr));
			rwr.wr_id = 1000 * (r + 1) + i;
			rwr.sg_list = &sge;
			rwr.num_sge = 1;
			ok &= ibv_post_srq_recv(srq, &rwr, &rbad) == 0;
		}
		CHECK(ok, "round %d: %d buffers posted to the SRQ", r, NRX);
		/* Last round: the limit armed at 4 of the 8 posted WQEs. */
		if (r == 2) {
			struct ibv_srq_attr at = { .srq_limit = 4 };

			CHECK(ibv_modify_srq(srq, &at, IBV_SRQ_LIMIT) == 0 &&
			      ibv_query_srq(srq, &at) == 0 && at.srq_limit == 4,
			      "SRQ limit armed at 4, queried back (%u)", at.srq_limit);
		}
		for (i = 0, ok = 1; i < NRX; i++) {
			sge.addr = (uintptr_t)(buf + NRX * RXBUF);
			sge.length = FRAME;
			memset(&wr, 0, sizeof(wr));
			wr.wr_id = i;
			wr.sg_list = &sge;
			wr.num_sge = 1;
			wr.opcode = IBV_WR_SEND;
			wr.send_flags = IBV_SEND_SIGNALED;
			ok &= ibv_post_send(qp, &wr, &bad) == 0;
		}
		CHECK(ok, "round %d: %d frames sent to the port's MAC", r, NRX);
		n = verbs_test_poll(cq, wc, 2 * NRX, 5000);
		for (i = 0, ok = n == 2 * NRX; ok && i < n; i++) {
			if (wc[i].opcode != IBV_WC_RECV)
				continue;
			ok = wc[i].status == IBV_WC_SUCCESS && wc[i].byte_len == FRAME &&
				wc[i].wr_id / 1000 == (uint64_t)r + 1 &&
				memcmp(buf + (wc[i].wr_id % 1000) * RXBUF, buf + NRX * RXBUF,
				       FRAME) == 0;
		}
		CHECK(ok, "round %d: %d completions, every frame in its buffer with its length",
		      r, n);
	}
	srq_limit_event(ctx, srq);
	qp_last_wqe(ctx, qp);
	CHECK(ibv_destroy_flow(flow) == 0 && ibv_destroy_qp(qp) == 0, "rule and QP destroyed");
	CHECK(ibv_destroy_srq(srq) == 0, "SRQ destroyed");
	ibv_destroy_cq(cq);
	ibv_dereg_mr(mr);
}

/* A receive WQ of 16 WRs of one SGE on pd and cq, or NULL. */
static struct ibv_wq *
wq_new(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq *cq)
{
	struct ibv_wq_init_attr wa;

	if (ctx == NULL || pd == NULL || cq == NULL)
		return NULL;
	memset(&wa, 0, sizeof(wa));
	wa.wq_type = IBV_WQT_RQ;
	wa.max_wr = 16;
	wa.max_sge = 1;
	wa.pd = pd;
	wa.cq = cq;
	return ibv_create_wq(ctx, &wa);
}

/* The WQs of a context whose range is 4: four numbers from a multiple of 4, in order. */
static void
wq_range_check(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq *cq)
{
	struct ibv_wq *wq[4];
	uint8_t log = 2;
	int i, ok;

	CHECK(mlx4dv_set_context_attr(ctx, MLX4DV_SET_CTX_ATTR_LOG_WQS_RANGE_SZ, &log) == 0,
	      "WQ number range of 4 set");
	for (i = 0, ok = 1; i < 4; i++) {
		wq[i] = wq_new(ctx, pd, cq);
		ok &= wq[i] != NULL;
	}
	CHECK(ok, "four WQs");
	if (!ok)
		return;
	CHECK((wq[0]->wq_num & 3) == 0 && wq[1]->wq_num == wq[0]->wq_num + 1 &&
	      wq[2]->wq_num == wq[0]->wq_num + 2 && wq[3]->wq_num == wq[0]->wq_num + 3,
	      "WQ numbers 0x%x 0x%x 0x%x 0x%x: from a multiple of 4, in order", wq[0]->wq_num,
	      wq[1]->wq_num, wq[2]->wq_num, wq[3]->wq_num);
	for (i = 0; i < 4; i++)
		ibv_destroy_wq(wq[i]);
}

int
main(void)
{
	struct mlx4dv_ctx_allocators alloc;
	struct ibv_context *ctx, *ctx2;
	struct ibv_srq_init_attr sa;
	struct mlx4v_sim_cq_info info;
	struct ibv_device_attr da;
	struct ibv_device **list;
	struct mlx4dv_srq dv;
	struct mlx4dv_cq dcq;
	struct mlx4dv_obj obj;
	struct ibv_srq *srq;
	struct ibv_pd *pd, *pd2;
	struct ibv_cq *cq, *cq2;
	struct ibv_wq *wq1;
	struct mlx4v_sim *sim;
	struct hook h;
	int ret, bad = 7;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&h, 0, sizeof(h));
	ctx = verbs_test_open_model("verbs-0000:00:06.0", &list, &sim);
	if (ctx == NULL)
		return 1;
	/* The ring allocator hook, before any object: every ring of the context is the hook's. */
	alloc.alloc = hook_alloc;
	alloc.free = hook_free;
	alloc.data = &h;
	CHECK(mlx4dv_set_context_attr(ctx, MLX4DV_SET_CTX_ATTR_BUF_ALLOCATORS, &alloc) == 0,
	      "allocator hook set");
	ret = mlx4dv_set_context_attr(ctx, (enum mlx4dv_set_ctx_attr_type)bad, &bad);
	CHECK(ret != 0, "an unknown context attribute refused (%d: %s)", ret, strerror(ret));
	CHECK(ibv_query_device(ctx, &da) == 0, "device queried: max_srq_wr %d, max_srq_sge %d",
	      da.max_srq_wr, da.max_srq_sge);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 32, NULL, NULL, 0);
	CHECK(pd != NULL && cq != NULL, "PD and CQ");
	if (pd == NULL || cq == NULL)
		return 1;
	memset(&obj, 0, sizeof(obj));
	memset(&dcq, 0, sizeof(dcq));
	obj.cq.in = cq;
	obj.cq.out = &dcq;
	CHECK(mlx4dv_init_obj(&obj, MLX4DV_OBJ_CQ) == 0, "mlx4dv_init_obj(CQ)");
	CHECK(hook_owns(&h, dcq.buf.buf, dcq.buf.length), "the CQ ring is the hook's");
	CHECK(mlx4v_sim_cq_info(sim, dcq.cqn, &info) == 0 && info.buf == dcq.buf.buf,
	      "the model writes CQEs into the hook's ring");

	/* SRQs: their views, then the device's limits. */
	srq = srq_check(pd, 100, 2, &dv);
	CHECK(srq != NULL && hook_owns(&h, dv.buf.buf, dv.buf.length),
	      "the SRQ ring is the hook's");
	CHECK(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_SRQ) == 1, "the model holds one SRQ");
	CHECK(ibv_dealloc_pd(pd) == EBUSY, "a PD with an SRQ is busy");
	if (srq != NULL)
		CHECK(ibv_destroy_srq(srq) == 0, "SRQ destroyed");
	srq = srq_check(pd, 1, 0, &dv);
	if (srq != NULL)
		CHECK(ibv_destroy_srq(srq) == 0, "SRQ destroyed");
	memset(&sa, 0, sizeof(sa));
	sa.attr.max_wr = da.max_srq_wr + 1;
	sa.attr.max_sge = 1;
	errno = 0;
	CHECK(ibv_create_srq(pd, &sa) == NULL && errno == EINVAL,
	      "max_wr beyond the device's refused (%s)", strerror(errno));
	sa.attr.max_wr = 16;
	sa.attr.max_sge = da.max_srq_sge + 1;
	errno = 0;
	CHECK(ibv_create_srq(pd, &sa) == NULL && errno == EINVAL,
	      "max_sge beyond the device's refused (%s)", strerror(errno));
	CHECK(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_SRQ) == 0, "the model holds no SRQ");
	srq_traffic(ctx, pd, sim);
	/* Left for the close: the kernel destroys it at release. */
	srq = srq_check(pd, 64, 1, &dv);

	/*
	 * The WQ number range: a WQ of another context takes a number first, so that a range
	 * ignored would start the next WQs where that one left off.
	 */
	ctx2 = ibv_open_device(list[0]);
	pd2 = ctx2 != NULL ? ibv_alloc_pd(ctx2) : NULL;
	cq2 = ctx2 != NULL ? ibv_create_cq(ctx2, 32, NULL, NULL, 0) : NULL;
	wq1 = wq_new(ctx2, pd2, cq2);
	CHECK(wq1 != NULL, "a WQ on a second context: 0x%x", wq1 != NULL ? wq1->wq_num : 0);
	wq_range_check(ctx, pd, cq);
	if (wq1 != NULL)
		ibv_destroy_wq(wq1);
	CHECK(ctx2 != NULL && ibv_close_device(ctx2) == 0, "second context closed");

	CHECK(ibv_close_device(ctx) == 0, "closed with an SRQ, a CQ and a PD left");
	CHECK(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_SRQ) == 0 &&
	      mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_CQ) == 0 &&
	      mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_PD) == 0, "the model is empty");
	CHECK(mlx4v_sim_misuse_total(sim) == 0, "no misuse");
	ibv_free_device_list(list);
	printf("%s\n", verbs_test_fails ? "FAILED" : "PASS");
	return verbs_test_fails != 0;
}
