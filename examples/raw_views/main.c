/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * raw_views: send packets from a raw-packet QP on port 1 and receive them in a
 * receive work queue, using only the mlx4dv views of rte_pmd_mlx4v_init_obj() on the
 * data path: receive WQEs and the RQ doorbell record, send WQEs with owner bits and
 * the send doorbell, CQ polling with the owner rule and set_ci_db, and a CQ armed
 * through arm_db and cq_uar whose event is awaited with epoll on its eventfd.
 *
 * The control path (open, PD, MR, CQ, QP, WQ, state changes, event fd) uses the
 * public rte_pmd_mlx4v_* calls only. A WQ receives only through an RSS QP and a steering
 * rule, as on a ConnectX-3: each WQ gets a one-entry indirection table and an RSS QP, and
 * the WQ of port -r (1 by default) a rule for the frames' destination MAC. On port 1 the
 * device loops the frames back by that MAC; with -r 2 they leave port 1 and need a peer
 * (the simulator's paired ports, or a cable). Runs on the simulator or on a ConnectX-3:
 *   dpdk-raw_views <EAL args> --vdev=mlx4v_sim0,ports=2 [-- -d dev -n pkts -s size -b burst
 *                  -r port]
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include <rte_pmd_mlx4v.h>

#include "rte_pmd_mlx4v_rawdp.h"

#define RV_ETH_HDR 14u
#define RV_ETHERTYPE 0x88b5u   /* IEEE local experimental */
#define RV_WAIT_MS 2000        /* every wait on the device is bounded */
#define RV_RX_WQES 256u
#define RV_TX_WQES 64u
#define RV_PKT_MAX RTE_PMD_MLX4V_RAWDP_BUF_SIZE   /* one buffer per WQE */

/* A receive WQ: its view, the data-path state, and what the run counts. */
struct rv_rq {
	struct rte_pmd_mlx4v_ind_table *ind;
	struct rte_pmd_mlx4v_qp *rss;
	struct rte_pmd_mlx4v_flow *flow;
	struct mlx4dv_rwq v;
	struct rte_pmd_mlx4v_rawdp_rq dp;
	uint32_t wqn;
	uint8_t port;
	uint64_t received;
};

struct rv_opts {
	const char *dev;
	uint32_t pkts;
	uint32_t size;
	uint32_t burst;
	uint32_t rx_port;
};

/* The receiver's unicast MAC, the destination of every frame. */
static const uint8_t rv_dst_mac[6] = { 0x02, 0x00, 0x00, 0x4d, 0x34, 0x02 };

/* DPDK mlx4's default Toeplitz key. */
static const uint8_t rv_rss_key[RTE_PMD_MLX4V_RSS_KEY_LEN] = RTE_PMD_MLX4V_RSS_KEY_DEFAULT;

struct rv_stats {
	uint64_t sent;
	uint64_t doorbells;
	uint64_t tx_cqes;
	uint64_t received;
	uint64_t bad;
	uint64_t err_cqes;
	uint64_t events;
};

/* ---- data path: only the views (rte_pmd_mlx4v_rawdp.h), and the frames ---- */

static void
rv_frame_fill(uint8_t *p, uint32_t len, uint32_t seq)
{
	uint32_t i;

	memcpy(p, rv_dst_mac, 6);
	memcpy(p + 6, "\x02\x00\x00\x4d\x34\x01", 6);
	p[12] = RV_ETHERTYPE >> 8;
	p[13] = RV_ETHERTYPE & 0xff;
	memcpy(p + RV_ETH_HDR, &seq, sizeof(seq));
	for (i = RV_ETH_HDR + sizeof(seq); i < len; i++)
		p[i] = (uint8_t)(i ^ seq);
}

/* @return the sequence number of a good frame, or -1. */
static int64_t
rv_frame_check(const uint8_t *p, uint32_t len, uint32_t want_len)
{
	uint32_t i, seq;

	if (len != want_len || p[12] != RV_ETHERTYPE >> 8 || p[13] != (RV_ETHERTYPE & 0xff))
		return -1;
	memcpy(&seq, p + RV_ETH_HDR, sizeof(seq));
	for (i = RV_ETH_HDR + sizeof(seq); i < len; i++)
		if (p[i] != (uint8_t)(i ^ seq))
			return -1;
	return seq;
}

/* Fill n frames with the next sequence numbers, then send them in one burst. */
static void
rv_sq_burst(struct rte_pmd_mlx4v_rawdp_sq *sq, uint32_t n, uint32_t len, uint32_t *seq)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		rv_frame_fill(rte_pmd_mlx4v_rawdp_sq_frame(sq, i), len, (*seq)++);
	rte_pmd_mlx4v_rawdp_sq_send(sq, n, len);
}

/* ---- the run ---- */

struct rv_ctx {
	struct rte_pmd_mlx4v_dev *dev;
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_mr *mr;
	struct rte_pmd_mlx4v_cq *tx_cq_h;
	struct rte_pmd_mlx4v_cq *rx_cq_h;
	struct rte_pmd_mlx4v_qp *qp;
	struct rte_pmd_mlx4v_wq *wq[2];
	uint8_t *mem;
	int epfd;
	struct rte_pmd_mlx4v_rawdp_sq sq;
	struct rv_rq rq[2];
	unsigned int nrq;
	struct rte_pmd_mlx4v_rawdp_cq tx_cq;
	struct rte_pmd_mlx4v_rawdp_cq rx_cq;
};

static int
rv_fail(const char *what, int err)
{
	fprintf(stderr, "raw_views: %s: %s\n", what, strerror(err));
	return -err;
}

/*
 * Steering of one WQ: a one-entry table, an RSS QP on its port (INIT, RTR), and on the receive
 * port the rule for rv_dst_mac (DPDK's mlx4_rss_attach() and mlx4_flow).
 */
static int
rv_steer(struct rv_ctx *c, struct rv_rq *rq, struct rte_pmd_mlx4v_wq *wq, uint32_t rx_port)
{
	struct rte_pmd_mlx4v_rss_qp_attr ra;
	struct rte_pmd_mlx4v_flow_attr fa;
	int ret;

	rq->ind = rte_pmd_mlx4v_create_rwq_ind_table(c->dev, 0, &wq);
	if (rq->ind == NULL)
		return rv_fail("create_rwq_ind_table", errno);
	memset(&ra, 0, sizeof(ra));
	ra.ind_table = rq->ind;
	ra.hash_fields = RTE_PMD_MLX4V_RX_HASH_SRC_IPV4 | RTE_PMD_MLX4V_RX_HASH_DST_IPV4;
	ra.key = rv_rss_key;
	ra.port = rq->port;
	rq->rss = rte_pmd_mlx4v_create_rss_qp(c->pd, &ra);
	if (rq->rss == NULL)
		return rv_fail("create_rss_qp", errno);
	ret = rte_pmd_mlx4v_modify_qp(rq->rss, RTE_PMD_MLX4V_QPS_INIT);
	if (ret == 0)
		ret = rte_pmd_mlx4v_modify_qp(rq->rss, RTE_PMD_MLX4V_QPS_RTR);
	if (ret)
		return rv_fail("modify_qp (RSS)", ret);
	if (rq->port != rx_port)
		return 0;
	memset(&fa, 0, sizeof(fa));
	fa.type = RTE_PMD_MLX4V_FLOW_MAC;
	fa.port = rq->port;
	memcpy(fa.dmac, rv_dst_mac, sizeof(fa.dmac));
	rq->flow = rte_pmd_mlx4v_create_flow(rq->rss, &fa);
	if (rq->flow == NULL)
		return rv_fail("create_flow", errno);
	return 0;
}

/* Receive WQs on port 2 (when the device has it) and port 1; the -r one gets a rule. */
static int
rv_setup(struct rv_ctx *c, const struct rv_opts *o)
{
	struct rte_pmd_mlx4v_qp_attr qa;
	struct rte_pmd_mlx4v_wq_attr wa;
	struct rte_pmd_mlx4v_obj obj;
	struct epoll_event ev;
	size_t mem_len;
	uint32_t qpn;
	unsigned int i;
	int ret;

	c->dev = rte_pmd_mlx4v_dev_open(o->dev);
	if (c->dev == NULL)
		return rv_fail(o->dev, errno);
	c->pd = rte_pmd_mlx4v_alloc_pd(c->dev);
	if (c->pd == NULL)
		return rv_fail("alloc_pd", errno);
	c->tx_cq_h = rte_pmd_mlx4v_create_cq(c->dev, RV_TX_WQES, 0, 0);
	if (c->tx_cq_h == NULL)
		return rv_fail("create_cq (tx)", errno);
	c->rx_cq_h = rte_pmd_mlx4v_create_cq(c->dev, 2 * RV_RX_WQES, 0, 1);
	if (c->rx_cq_h == NULL)
		return rv_fail("create_cq (rx)", errno);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = c->tx_cq_h;
	qa.recv_cq = c->tx_cq_h;
	qa.max_send_wr = RV_TX_WQES;
	qa.max_recv_wr = 1;
	qa.max_send_sge = 1;
	qa.max_recv_sge = 1;
	qa.port = 1;
	c->qp = rte_pmd_mlx4v_create_qp(c->pd, &qa);
	if (c->qp == NULL)
		return rv_fail("create_qp", errno);
	for (i = 0; i < 2; i++) {
		memset(&wa, 0, sizeof(wa));
		wa.cq = c->rx_cq_h;
		wa.max_wr = RV_RX_WQES;
		wa.max_sge = 1;
		wa.port = i == 0 ? 2 : 1;
		c->wq[c->nrq] = rte_pmd_mlx4v_create_wq(c->pd, &wa);
		if (c->wq[c->nrq] == NULL) {
			/* A one-port device has no port 2: loopback on port 1 only. */
			if (i == 0 && errno == EINVAL)
				continue;
			return rv_fail("create_wq", errno);
		}
		c->rq[c->nrq].port = wa.port;
		c->nrq++;
	}

	/* The views: from here on the data path never calls the library. */
	memset(&obj, 0, sizeof(obj));
	obj.qp.in = c->qp;
	obj.qp.out = &c->sq.v;
	obj.cq.in = c->tx_cq_h;
	obj.cq.out = &c->tx_cq.v;
	c->sq.v.comp_mask = 0;
	c->tx_cq.v.comp_mask = 0;
	ret = rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ);
	if (ret)
		return rv_fail("init_obj(QP | CQ)", ret);
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = c->rx_cq_h;
	obj.cq.out = &c->rx_cq.v;
	/* cq_uar is only filled on request; arming needs it. */
	c->rx_cq.v.comp_mask = MLX4DV_CQ_MASK_UAR;
	ret = rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ);
	if (ret)
		return rv_fail("init_obj(CQ)", ret);
	if (!(c->rx_cq.v.comp_mask & MLX4DV_CQ_MASK_UAR))
		return rv_fail("init_obj(CQ): no cq_uar", ENOTSUP);
	c->rx_cq.sn = c->rx_cq.v.arm_sn;
	c->tx_cq.sn = c->tx_cq.v.arm_sn;
	for (i = 0; i < c->nrq; i++) {
		memset(&obj, 0, sizeof(obj));
		obj.rwq.in = c->wq[i];
		obj.rwq.out = &c->rq[i].v;
		ret = rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_RWQ);
		if (ret)
			return rv_fail("init_obj(RWQ)", ret);
		ret = rte_pmd_mlx4v_wq_num(c->wq[i], &c->rq[i].wqn);
		if (ret)
			return rv_fail("wq_num", ret);
		rte_pmd_mlx4v_rawdp_rq_init_rwq(&c->rq[i].dp, &c->rq[i].v);
	}

	/* One registered region: the send slots, then each RWQ's buffers. */
	mem_len = (size_t)c->sq.v.sq.wqe_cnt * RV_PKT_MAX;
	for (i = 0; i < c->nrq; i++)
		mem_len += (size_t)c->rq[i].v.rq.wqe_cnt * RV_PKT_MAX;
	c->mem = rte_zmalloc("raw_views", mem_len, RTE_CACHE_LINE_SIZE);
	if (c->mem == NULL)
		return rv_fail("rte_zmalloc", ENOMEM);
	c->mr = rte_pmd_mlx4v_reg_mr(c->pd, c->mem, mem_len);
	if (c->mr == NULL)
		return rv_fail("reg_mr", errno);
	ret = rte_pmd_mlx4v_mr_lkey(c->mr, &c->sq.lkey);
	if (ret)
		return rv_fail("mr_lkey", ret);
	c->sq.bufs = c->mem;
	c->sq.max_post = qa.max_send_wr;
	mem_len = (size_t)c->sq.v.sq.wqe_cnt * RV_PKT_MAX;
	for (i = 0; i < c->nrq; i++) {
		c->rq[i].dp.bufs = c->mem + mem_len;
		c->rq[i].dp.lkey = c->sq.lkey;
		mem_len += (size_t)c->rq[i].v.rq.wqe_cnt * RV_PKT_MAX;
	}

	/* RESET -> INIT -> RTR -> RTS for the QP, RDY for the WQs; receive WQEs first. */
	for (i = 0; i < c->nrq; i++) {
		rte_pmd_mlx4v_rawdp_rq_post(&c->rq[i].dp, UINT32_MAX);
		ret = rte_pmd_mlx4v_modify_wq(c->wq[i], RTE_PMD_MLX4V_WQS_RDY);
		if (ret)
			return rv_fail("modify_wq(RDY)", ret);
		ret = rv_steer(c, &c->rq[i], c->wq[i], o->rx_port);
		if (ret)
			return ret;
	}
	ret = rte_pmd_mlx4v_modify_qp(c->qp, RTE_PMD_MLX4V_QPS_INIT);
	if (ret == 0)
		ret = rte_pmd_mlx4v_modify_qp(c->qp, RTE_PMD_MLX4V_QPS_RTR);
	if (ret == 0)
		ret = rte_pmd_mlx4v_modify_qp(c->qp, RTE_PMD_MLX4V_QPS_RTS);
	if (ret)
		return rv_fail("modify_qp", ret);

	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (c->epfd < 0)
		return rv_fail("epoll_create1", errno);
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ret = rte_pmd_mlx4v_cq_event_fd(c->rx_cq_h);
	if (ret < 0)
		return rv_fail("cq_event_fd", errno);
	ev.data.fd = ret;
	if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, ret, &ev) != 0)
		return rv_fail("epoll_ctl", errno);
	rte_pmd_mlx4v_qp_num(c->qp, &qpn);
	printf("raw_views: %s: QP 0x%x on port 1 (SQ %u x %u B), ", o->dev, qpn,
	       c->sq.v.sq.wqe_cnt, 1u << c->sq.v.sq.wqe_shift);
	for (i = 0; i < c->nrq; i++)
		printf("RWQ 0x%x on port %u (%u WQEs), ", c->rq[i].wqn, c->rq[i].port,
		       c->rq[i].v.rq.wqe_cnt);
	printf("CQs 0x%x/0x%x (%u/%u CQEs)\n", c->tx_cq.v.cqn, c->rx_cq.v.cqn,
	       c->tx_cq.v.cqe_cnt, c->rx_cq.v.cqe_cnt);
	return 0;
}

/* Mirrors rv_setup() in reverse; each step runs only if its object exists. */
static void
rv_teardown(struct rv_ctx *c)
{
	unsigned int i;

	if (c->epfd >= 0)
		close(c->epfd);
	if (c->mr != NULL)
		rte_pmd_mlx4v_dereg_mr(c->mr);
	rte_free(c->mem);
	if (c->qp != NULL)
		rte_pmd_mlx4v_destroy_qp(c->qp);
	for (i = 0; i < RTE_DIM(c->rq); i++) {
		if (c->rq[i].flow != NULL)
			rte_pmd_mlx4v_destroy_flow(c->rq[i].flow);
		if (c->rq[i].rss != NULL)
			rte_pmd_mlx4v_destroy_qp(c->rq[i].rss);
		if (c->rq[i].ind != NULL)
			rte_pmd_mlx4v_destroy_rwq_ind_table(c->rq[i].ind);
	}
	for (i = 0; i < RTE_DIM(c->wq); i++)
		if (c->wq[i] != NULL)
			rte_pmd_mlx4v_destroy_wq(c->wq[i]);
	if (c->rx_cq_h != NULL)
		rte_pmd_mlx4v_destroy_cq(c->rx_cq_h);
	if (c->tx_cq_h != NULL)
		rte_pmd_mlx4v_destroy_cq(c->tx_cq_h);
	if (c->pd != NULL)
		rte_pmd_mlx4v_dealloc_pd(c->pd);
	if (c->dev != NULL)
		rte_pmd_mlx4v_dev_close(c->dev);
}

/* Consume rx CQEs: check each packet, refill the rings. @return CQEs consumed. */
static uint32_t
rv_rx_drain(struct rv_ctx *c, const struct rv_opts *o, struct rv_stats *st,
	    uint32_t *next_seq)
{
	struct mlx4_cqe *cqe;
	uint32_t n = 0, qpn, len;
	unsigned int i;
	int64_t seq;

	while ((cqe = rte_pmd_mlx4v_rawdp_cq_next(&c->rx_cq)) != NULL) {
		qpn = rte_be_to_cpu_32(cqe->vlan_my_qpn) & MLX4_CQE_QPN_MASK;
		for (i = 0; i < c->nrq && c->rq[i].wqn != qpn; i++)
			;
		if ((cqe->owner_sr_opcode & MLX4_CQE_OPCODE_MASK) == MLX4_CQE_OPCODE_ERROR ||
		    i == c->nrq) {
			st->err_cqes++;
		} else {
			len = rte_be_to_cpu_32(cqe->byte_cnt);
			seq = rv_frame_check(rte_pmd_mlx4v_rawdp_rq_buf(
							     &c->rq[i].dp,
							     rte_be_to_cpu_16(cqe->wqe_index)),
					     len, o->size);
			/* One sender, one path: packets arrive in order. */
			if (seq != (int64_t)*next_seq)
				st->bad++;
			*next_seq = seq < 0 ? *next_seq + 1 : (uint32_t)seq + 1;
			c->rq[i].received++;
			st->received++;
		}
		if (i < c->nrq)
			c->rq[i].dp.tail++;
		c->rx_cq.ci++;
		n++;
	}
	if (n == 0)
		return 0;
	rte_pmd_mlx4v_rawdp_cq_update_ci(&c->rx_cq);
	for (i = 0; i < c->nrq; i++)
		rte_pmd_mlx4v_rawdp_rq_post(&c->rq[i].dp, UINT32_MAX);
	return n;
}

/* Take the tx CQE of a burst: it completes every WQE up to its wqe_index. */
static int
rv_tx_complete(struct rv_ctx *c, struct rv_stats *st)
{
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * RV_WAIT_MS / 1000;
	struct mlx4_cqe *cqe;

	while ((cqe = rte_pmd_mlx4v_rawdp_cq_next(&c->tx_cq)) == NULL) {
		if (rte_get_timer_cycles() > deadline)
			return -ETIMEDOUT;
		rte_pause();
	}
	if ((cqe->owner_sr_opcode & MLX4_CQE_OPCODE_MASK) == MLX4_CQE_OPCODE_ERROR) {
		const struct mlx4_err_cqe *e = (const struct mlx4_err_cqe *)cqe;

		fprintf(stderr, "raw_views: send error CQE, syndrome 0x%02x\n", e->syndrome);
		st->err_cqes++;
	}
	/* wqe_index is the slot of the signalled WQE, the last of the burst. */
	c->sq.done = c->sq.head;
	c->tx_cq.ci++;
	st->tx_cqes++;
	rte_pmd_mlx4v_rawdp_cq_update_ci(&c->tx_cq);
	return 0;
}

static int
rv_run(struct rv_ctx *c, const struct rv_opts *o, struct rv_stats *st)
{
	uint32_t seq = 0, next_seq = 0, n, want;
	struct epoll_event ev;
	uint64_t deadline;
	int ret;

	while (st->sent < o->pkts) {
		n = RTE_MIN(o->burst, (uint32_t)(o->pkts - st->sent));
		n = RTE_MIN(n, c->sq.max_post - (c->sq.head - c->sq.done));
		want = st->received + n;
		/* Arm before sending, so the first CQE of the burst raises the event. */
		rte_pmd_mlx4v_rawdp_cq_arm(&c->rx_cq);
		rv_sq_burst(&c->sq, n, o->size, &seq);
		st->sent += n;
		st->doorbells++;
		ret = epoll_wait(c->epfd, &ev, 1, RV_WAIT_MS);
		if (ret != 1) {
			fprintf(stderr, "raw_views: no completion event within %d ms\n",
				RV_WAIT_MS);
			return -ETIMEDOUT;
		}
		/* Take the event: it advances arm_sn, so our next arm uses the next sn. */
		ret = rte_pmd_mlx4v_get_cq_event(c->rx_cq_h);
		if (ret == 0) {
			c->rx_cq.sn++;
			rte_pmd_mlx4v_ack_cq_events(c->rx_cq_h, 1);
			st->events++;
		}
		/* The event came with the first packet; the others follow. */
		deadline = rte_get_timer_cycles() + rte_get_timer_hz() * RV_WAIT_MS / 1000;
		while (st->received + st->err_cqes < want) {
			if (rv_rx_drain(c, o, st, &next_seq) == 0) {
				if (rte_get_timer_cycles() > deadline)
					break;
				rte_pause();
			}
		}
		ret = rv_tx_complete(c, st);
		if (ret) {
			fprintf(stderr, "raw_views: no send completion within %d ms\n",
				RV_WAIT_MS);
			return ret;
		}
	}
	return 0;
}

static int
rv_parse(int argc, char **argv, struct rv_opts *o)
{
	unsigned long v;
	char *end;
	int opt;

	o->dev = "mlx4v_sim0";
	o->pkts = 64;
	o->size = 128;
	o->burst = 16;
	o->rx_port = 1;
	while ((opt = getopt(argc, argv, "d:n:s:b:r:")) != -1) {
		if (opt == 'd') {
			o->dev = optarg;
			continue;
		}
		if (opt == '?')
			return -EINVAL;
		errno = 0;
		v = strtoul(optarg, &end, 0);
		if (errno != 0 || *end != '\0' || v == 0 || v > UINT32_MAX)
			return -EINVAL;
		if (opt == 'n')
			o->pkts = v;
		else if (opt == 's')
			o->size = v;
		else if (opt == 'r')
			o->rx_port = v;
		else
			o->burst = v;
	}
	if (o->size < RV_ETH_HDR + 4 || o->size > RV_PKT_MAX || o->burst > RV_TX_WQES ||
	    o->rx_port > 2)
		return -EINVAL;
	return 0;
}

int
main(int argc, char **argv)
{
	struct rv_stats st;
	struct rv_opts o;
	struct rv_ctx c;
	unsigned int i;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "raw_views: cannot init EAL\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (rv_parse(argc, argv, &o) != 0) {
		fprintf(stderr, "usage: dpdk-raw_views <EAL args> -- [-d dev] [-n packets] "
			"[-s size 18-%u] [-b burst 1-%u] [-r receive port 1-2]\n", RV_PKT_MAX,
			RV_TX_WQES);
		rte_eal_cleanup();
		return 2;
	}
	memset(&c, 0, sizeof(c));
	memset(&st, 0, sizeof(st));
	c.epfd = -1;
	ret = rv_setup(&c, &o);
	if (ret == 0)
		ret = rv_run(&c, &o, &st);
	printf("raw_views: sent %" PRIu64 " packets of %u bytes in %" PRIu64 " doorbells, "
	       "%" PRIu64 " send CQEs\n", st.sent, o.size, st.doorbells, st.tx_cqes);
	for (i = 0; i < c.nrq; i++)
		printf("raw_views: RWQ 0x%x on port %u received %" PRIu64 " packets\n",
		       c.rq[i].wqn, c.rq[i].port, c.rq[i].received);
	printf("raw_views: received %" PRIu64 ", bad %" PRIu64 ", error CQEs %" PRIu64
	       ", completion events %" PRIu64 "\n", st.received, st.bad, st.err_cqes,
	       st.events);
	if (ret == 0 && (st.received != o.pkts || st.bad != 0 || st.err_cqes != 0))
		ret = -EIO;
	printf("raw_views: %s\n", ret == 0 ? "PASS" : "FAIL");
	rv_teardown(&c);
	rte_eal_cleanup();
	return ret == 0 ? 0 : 1;
}
