/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * testpmd commands "mlx4v ...": create and destroy mlx4v objects, print their raw
 * mlx4dv views, and drive a raw data path through those views only (receive WQEs,
 * send WQEs, doorbells, CQ polling, arming and completion events).
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_etheraddr.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_io.h>
#include <rte_malloc.h>

#include "testpmd.h"

#include "mlxv_testpmd.h"
#include "mlx4v_api.h"
#include "rte_pmd_mlx4v_rawdp.h"
#include "rte_pmd_mlx4v.h"

/*
 * testpmd's objects live in small static tables; a command names an object by its
 * index in the table of its kind ("qp 3"). Only the testpmd (main) lcore runs
 * these commands, so the tables need no lock.
 */
#define TP_MAX_DEV 4
#define TP_MAX_PD 16
#define TP_MAX_MR 32
#define TP_MAX_CQ 32
#define TP_MAX_QP 32
#define TP_MAX_SRQ 16
#define TP_MAX_WQ 32
#define TP_MAX_FLOW 32

/*
 * One packet buffer: a send slot, or the single data segment of a receive WQE. The data
 * path is the shared one of rte_pmd_mlx4v_rawdp.h, as in examples/raw_views and app/mlx4v-bench.
 */
#define TP_BUF_SIZE RTE_PMD_MLX4V_RAWDP_BUF_SIZE
#define TP_ETH_HDR 14u
/* Our frames: locally administered MACs, the IEEE local experimental ethertype. */
#define TP_ETHERTYPE 0x88b5u
#define TP_HDR_LEN (TP_ETH_HDR + 2u)   /* Ethernet header + 16-bit sequence number */
/* Bounded waits for the device: polls of TP_WAIT_STEP_US, 100 ms in all. */
#define TP_WAIT_STEPS 1000
#define TP_WAIT_STEP_US 100

/* A buffer in EAL memory with the MR that covers it. */
struct tp_buf {
	uint8_t *va;
	size_t len;
	struct rte_pmd_mlx4v_mr *mr;
	uint32_t lkey;
};

/* A receive ring (a QP's RQ or an RWQ): the data-path state and the buffers it posts. */
struct tp_rq {
	struct rte_pmd_mlx4v_rawdp_rq dp;
	struct tp_buf buf;      /* wqe_cnt buffers of TP_BUF_SIZE */
};

struct tp_dev {
	struct rte_pmd_mlx4v_dev *h;
	char name[RTE_DEV_NAME_MAX_LEN];
};

struct tp_pd {
	struct rte_pmd_mlx4v_pd *h;
	int dev;
};

struct tp_mr {
	struct rte_pmd_mlx4v_mr *h;
	int pd;
	struct tp_buf buf;
};

struct tp_cq {
	struct rte_pmd_mlx4v_cq *h;
	int dev;
	int cqe;
	int events;
	int viewed;             /* the view was taken: we own the consumer index */
	struct rte_pmd_mlx4v_rawdp_cq dp; /* the view, consumer index and our copy of arm_sn */
	unsigned int unacked;
};

struct tp_qp {
	struct rte_pmd_mlx4v_qp *h;
	int pd;
	int scq;
	int rcq;
	int srq;                /* -1: the QP has its own RQ */
	uint8_t port;
	uint32_t qpn;
	enum rte_pmd_mlx4v_qp_state state;
	/* The view; sq.done counts send CQEs (every WQE testpmd posts is signalled). */
	struct rte_pmd_mlx4v_rawdp_sq sq;
	uint16_t seq;
	struct tp_buf tx;       /* sq.wqe_cnt slots of TP_BUF_SIZE */
	struct tp_rq rq;
	/* RSS QP only: its table over WQs first_wq.., no rings of its own. */
	struct rte_pmd_mlx4v_ind_table *ind;
	uint32_t first_wq;
	uint32_t log_size;
};

struct tp_flow {
	struct rte_pmd_mlx4v_flow *h;
	int qp;
};

struct tp_srq {
	struct rte_pmd_mlx4v_srq *h;
	int pd;
	struct rte_pmd_mlx4v_rawdp_srq dp; /* the view and the free list */
	uint32_t max;           /* WQEs in the ring */
	struct tp_buf buf;      /* max buffers of TP_BUF_SIZE, by WQE index */
};

struct tp_wq {
	struct rte_pmd_mlx4v_wq *h;
	int pd;
	int cq;
	uint8_t port;
	uint32_t wqn;
	enum rte_pmd_mlx4v_wq_state state;
	struct tp_rq rq;
};

static struct tp_dev tp_devs[TP_MAX_DEV];
static struct tp_pd tp_pds[TP_MAX_PD];
static struct tp_mr tp_mrs[TP_MAX_MR];
static struct tp_cq tp_cqs[TP_MAX_CQ];
static struct tp_qp tp_qps[TP_MAX_QP];
static struct tp_srq tp_srqs[TP_MAX_SRQ];
static struct tp_wq tp_wqs[TP_MAX_WQ];
static struct tp_flow tp_flows[TP_MAX_FLOW];

static const char *const tp_qp_state_names[] = { "reset", "init", "rtr", "rts", "err" };
static const char *const tp_wq_state_names[] = { "reset", "rdy", "err" };

/* ---- table helpers ---- */

#define TP_FREE_SLOT(tab) tp_free_slot((tab), RTE_DIM(tab), sizeof((tab)[0]))

/* @return the first slot whose handle (first member) is NULL, or -1. */
static int
tp_free_slot(const void *tab, unsigned int n, size_t size)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (*(void *const *)((const uint8_t *)tab + i * size) == NULL)
			return i;
	return -1;
}

/* @return 1 if slot id (of max) holds an object h, else print why and return 0. */
static int
tp_slot_live(const char *what, uint32_t id, uint32_t max, const void *h)
{
	if (id >= max || h == NULL) {
		fprintf(stderr, "mlx4v: no %s %u (see \"mlx4v list\")\n", what, id);
		return 0;
	}
	return 1;
}

/* tp_<kind>_get(id): the live object of slot id of tp_<kind>s, or NULL after printing why. */
#define TP_GETTER(kind, what, max) \
static struct tp_ ## kind * \
tp_ ## kind ## _get(uint32_t id) \
{ \
	return tp_slot_live(what, id, max, id < max ? tp_ ## kind ## s[id].h : NULL) ? \
		&tp_ ## kind ## s[id] : NULL; \
}

TP_GETTER(dev, "open device", TP_MAX_DEV)
TP_GETTER(pd, "PD", TP_MAX_PD)
TP_GETTER(cq, "CQ", TP_MAX_CQ)
TP_GETTER(qp, "QP", TP_MAX_QP)
TP_GETTER(srq, "SRQ", TP_MAX_SRQ)
TP_GETTER(wq, "WQ", TP_MAX_WQ)

static struct tp_dev *
tp_pd_dev(int pd)
{
	return &tp_devs[tp_pds[pd].dev];
}

/* The backend of an open device: "simulator" or "rdma-core" ("removed" once it is gone). */
static const char *
tp_backend(const char *name)
{
	const char *b = mlx4v_dev_backend(name);

	return b != NULL ? b : "removed";
}

/* Let the device make progress: run the simulator's engine once in this thread. */
static void
tp_dev_progress(const struct tp_dev *d)
{
	mlx4v_dev_progress(d->name);
}

/* ---- buffers ---- */

/* Allocate len bytes of EAL memory and register them on pd; @return 0 or positive errno. */
static int
tp_buf_alloc(struct tp_buf *b, int pd, size_t len)
{
	int ret;

	memset(b, 0, sizeof(*b));
	b->va = rte_zmalloc("mlx4v_testpmd", len, RTE_CACHE_LINE_SIZE);
	if (b->va == NULL)
		return ENOMEM;
	b->len = len;
	b->mr = rte_pmd_mlx4v_reg_mr(tp_pds[pd].h, b->va, len);
	if (b->mr == NULL) {
		ret = errno;
		rte_free(b->va);
		b->va = NULL;
		return ret;
	}
	ret = rte_pmd_mlx4v_mr_lkey(b->mr, &b->lkey);
	if (ret) {
		rte_pmd_mlx4v_dereg_mr(b->mr);
		rte_free(b->va);
		b->va = NULL;
	}
	return ret;
}

static void
tp_buf_free(struct tp_buf *b)
{
	if (b->mr != NULL)
		rte_pmd_mlx4v_dereg_mr(b->mr);
	rte_free(b->va);
	memset(b, 0, sizeof(*b));
}

/* ---- frames ---- */

static void
tp_frame_fill(uint8_t *p, uint32_t len, uint16_t seq, uint8_t src_port)
{
	static const uint8_t dst[6] = { 0x02, 0x00, 0x00, 0x4d, 0x34, 0x00 };
	uint32_t i;

	memcpy(p, dst, 6);
	memcpy(p + 6, dst, 6);
	p[11] = src_port;
	p[12] = TP_ETHERTYPE >> 8;
	p[13] = TP_ETHERTYPE & 0xff;
	if (len >= TP_HDR_LEN) {
		p[14] = seq >> 8;
		p[15] = seq & 0xff;
	}
	for (i = TP_HDR_LEN; i < len; i++)
		p[i] = (uint8_t)(i + seq);
}

/* Describe a received frame: ours (sequence, payload check) or foreign. */
static void
tp_frame_print(const uint8_t *p, uint32_t len)
{
	uint16_t seq;
	uint32_t i;

	if (len < TP_HDR_LEN || p[12] != TP_ETHERTYPE >> 8 || p[13] != (TP_ETHERTYPE & 0xff)) {
		printf(" (not a testpmd mlx4v frame)");
		return;
	}
	seq = (uint16_t)(p[14] << 8 | p[15]);
	for (i = TP_HDR_LEN; i < len; i++) {
		if (p[i] != (uint8_t)(i + seq)) {
			printf(" seq %u from port %u payload BAD at byte %u", seq, p[11], i);
			return;
		}
	}
	printf(" seq %u from port %u payload ok", seq, p[11]);
}

/* ---- CQ view ---- */

/* Take the CQ view once: from then on testpmd owns the consumer index (prm/mlx4 §1.4). */
static int
tp_cq_view(struct tp_cq *c)
{
	struct rte_pmd_mlx4v_obj obj = { .cq = { c->h, &c->dp.v } };
	int ret;

	if (c->viewed)
		return 0;
	memset(&c->dp.v, 0, sizeof(c->dp.v));
	c->dp.v.comp_mask = MLX4DV_CQ_MASK_UAR;
	ret = rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ);
	if (ret) {
		fprintf(stderr, "mlx4v: cannot get the CQ view: %s\n", strerror(ret));
		return ret;
	}
	/* Start where the library left the consumer index (its cq_clean may have moved it). */
	c->dp.ci = rte_be_to_cpu_32(*c->dp.v.set_ci_db) & 0xffffff;
	c->dp.sn = c->dp.v.arm_sn;
	c->viewed = 1;
	return 0;
}


/* ---- CQE dispatch to the queue that produced it ---- */

static struct tp_qp *
tp_qp_by_qpn(const struct tp_cq *c, uint32_t qpn)
{
	unsigned int i;

	for (i = 0; i < TP_MAX_QP; i++)
		if (tp_qps[i].h != NULL && tp_qps[i].qpn == qpn &&
		    tp_pd_dev(tp_qps[i].pd) == &tp_devs[c->dev])
			return &tp_qps[i];
	return NULL;
}

static struct tp_wq *
tp_wq_by_wqn(const struct tp_cq *c, uint32_t wqn)
{
	unsigned int i;

	for (i = 0; i < TP_MAX_WQ; i++)
		if (tp_wqs[i].h != NULL && tp_wqs[i].wqn == wqn &&
		    tp_pd_dev(tp_wqs[i].pd) == &tp_devs[c->dev])
			return &tp_wqs[i];
	return NULL;
}

static const char *
tp_syndrome_name(uint8_t s)
{
	switch (s) {
	case MLX4_CQE_SYNDROME_LOCAL_LENGTH_ERR: return "LOCAL_LENGTH";
	case MLX4_CQE_SYNDROME_LOCAL_QP_OP_ERR: return "LOCAL_QP_OP";
	case MLX4_CQE_SYNDROME_LOCAL_PROT_ERR: return "LOCAL_PROT";
	case MLX4_CQE_SYNDROME_WR_FLUSH_ERR: return "WR_FLUSH";
	case MLX4_CQE_SYNDROME_MW_BIND_ERR: return "MW_BIND";
	case MLX4_CQE_SYNDROME_BAD_RESP_ERR: return "BAD_RESP";
	case MLX4_CQE_SYNDROME_LOCAL_ACCESS_ERR: return "LOCAL_ACCESS";
	case MLX4_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR: return "REMOTE_INVAL_REQ";
	case MLX4_CQE_SYNDROME_REMOTE_ACCESS_ERR: return "REMOTE_ACCESS";
	case MLX4_CQE_SYNDROME_REMOTE_OP_ERR: return "REMOTE_OP";
	case MLX4_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR: return "TRANSPORT_RETRY_EXC";
	case MLX4_CQE_SYNDROME_RNR_RETRY_EXC_ERR: return "RNR_RETRY_EXC";
	case MLX4_CQE_SYNDROME_REMOTE_ABORTED_ERR: return "REMOTE_ABORTED";
	default: return "UNKNOWN";
	}
}

/* Print one CQE and retire the WQE it names. */
static void
tp_cqe_handle(int cq_id, struct tp_cq *c, struct mlx4_cqe *cqe)
{
	uint32_t qpn = rte_be_to_cpu_32(cqe->vlan_my_qpn) & MLX4_CQE_QPN_MASK;
	uint8_t op = cqe->owner_sr_opcode & MLX4_CQE_OPCODE_MASK;
	int is_send = !!(cqe->owner_sr_opcode & MLX4_CQE_IS_SEND_MASK);
	uint16_t wqe_index = rte_be_to_cpu_16(cqe->wqe_index);
	uint32_t len = rte_be_to_cpu_32(cqe->byte_cnt);
	const uint8_t *data = NULL;
	struct tp_qp *qp;
	struct tp_wq *wq;

	printf("mlx4v: CQ %d: CQE %u qpn 0x%x %s", cq_id, c->dp.ci, qpn,
	       is_send ? "send" : "recv");
	if (op == MLX4_CQE_OPCODE_ERROR) {
		const struct mlx4_err_cqe *e = (const struct mlx4_err_cqe *)cqe;

		printf(" ERROR syndrome 0x%02x %s vendor_err 0x%02x wqe_index %u",
		       e->syndrome, tp_syndrome_name(e->syndrome), e->vendor_err,
		       rte_be_to_cpu_16(e->wqe_index));
	} else {
		printf(" opcode 0x%02x byte_cnt %u wqe_index %u status 0x%08x", op,
		       is_send ? 0 : len, wqe_index, rte_be_to_cpu_32(cqe->status));
	}
	qp = tp_qp_by_qpn(c, qpn);
	wq = qp == NULL ? tp_wq_by_wqn(c, qpn) : NULL;
	if (is_send && qp != NULL) {
		qp->sq.done++;
		printf(" (qp %td)", qp - tp_qps);
	} else if (!is_send && qp != NULL && qp->srq >= 0) {
		struct tp_srq *s = &tp_srqs[qp->srq];

		if (op != MLX4_CQE_OPCODE_ERROR && wqe_index < s->max)
			data = rte_pmd_mlx4v_rawdp_srq_buf(&s->dp, wqe_index);
		if (wqe_index < s->max)
			rte_pmd_mlx4v_rawdp_srq_free(&s->dp, wqe_index);
		printf(" (qp %td via srq %d)", qp - tp_qps, qp->srq);
	} else if (!is_send && (qp != NULL || wq != NULL)) {
		struct tp_rq *rq = qp != NULL ? &qp->rq : &wq->rq;

		if (op != MLX4_CQE_OPCODE_ERROR)
			data = rte_pmd_mlx4v_rawdp_rq_buf(&rq->dp, wqe_index);
		rq->dp.tail++;
		if (qp != NULL)
			printf(" (qp %td)", qp - tp_qps);
		else
			printf(" (rwq %td)", wq - tp_wqs);
	} else {
		printf(" (no testpmd queue)");
	}
	if (data != NULL)
		tp_frame_print(data, RTE_MIN(len, TP_BUF_SIZE));
	printf("\n");
}

TP_NUM_FAMILY("mlx4v");

/* ---- mlx4v open <dev> ---- */

static void
tp_open_do(void *parsed_result, __rte_unused struct cmdline *cl,
	       __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	int id = TP_FREE_SLOT(tp_devs);
	struct tp_dev *d;

	if (id < 0) {
		fprintf(stderr, "mlx4v: too many open devices (%d)\n", TP_MAX_DEV);
		return;
	}
	d = &tp_devs[id];
	d->h = rte_pmd_mlx4v_dev_open(name);
	if (d->h == NULL) {
		fprintf(stderr, "mlx4v: cannot open \"%s\": %s\n", name,
			errno == ENODEV ? "no such mlx4v device" : strerror(errno));
		return;
	}
	strlcpy(d->name, name, sizeof(d->name));
	printf("mlx4v: dev %d: %s opened (%s)\n", id, d->name, tp_backend(d->name));
}

TP_CMD(tp_open)
TP_NUM_CMD1(tp_open, tp_open_parsed, "open", NULL, "mlx4v open <dev>", (void *)&tp_num_any);

/* ---- mlx4v close <dev_id> ---- */

static void
tp_close_do(void *parsed_result, __rte_unused struct cmdline *cl,
		__rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	struct tp_dev *d = tp_dev_get(res->num[0]);
	int ret;

	if (d == NULL)
		return;
	ret = rte_pmd_mlx4v_dev_close(d->h);
	if (ret) {
		fprintf(stderr, "mlx4v: cannot close dev %u: %s%s\n", res->num[0], strerror(ret),
			ret == EBUSY ? " (destroy its objects first)" : "");
		return;
	}
	printf("mlx4v: dev %u: %s closed\n", res->num[0], d->name);
	memset(d, 0, sizeof(*d));
}

TP_CMD(tp_close)
TP_NUM_CMD1(tp_close, tp_close_parsed, "close", NULL, "mlx4v close <dev_id>",
	    (void *)&tp_num_0);

/* ---- mlx4v pd create <dev_id> ---- */

static void
tp_pd_create_do(void *parsed_result, __rte_unused struct cmdline *cl,
		    __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	struct tp_dev *d = tp_dev_get(res->num[0]);
	int id = TP_FREE_SLOT(tp_pds);

	if (d == NULL)
		return;
	if (id < 0) {
		fprintf(stderr, "mlx4v: too many PDs (%d)\n", TP_MAX_PD);
		return;
	}
	tp_pds[id].h = rte_pmd_mlx4v_alloc_pd(d->h);
	if (tp_pds[id].h == NULL) {
		fprintf(stderr, "mlx4v: cannot allocate a PD on dev %u: %s\n", res->num[0],
			strerror(errno));
		return;
	}
	tp_pds[id].dev = res->num[0];
	printf("mlx4v: pd %d created on dev %u\n", id, res->num[0]);
}

TP_CMD(tp_pd_create)
TP_NUM_CMD(tp_pd_create, tp_pd_create_parsed, "pd", "create", NULL,
	   "mlx4v pd create <dev_id>", (void *)&tp_num_0);

/* ---- mlx4v mr create <pd_id> <len> ---- */

static void
tp_mr_create_do(void *parsed_result, __rte_unused struct cmdline *cl,
		    __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	int id = TP_FREE_SLOT(tp_mrs);
	int ret;

	if (tp_pd_get(res->num[0]) == NULL)
		return;
	if (id < 0) {
		fprintf(stderr, "mlx4v: too many MRs (%d)\n", TP_MAX_MR);
		return;
	}
	if (res->num[1] == 0 || res->num[1] > (64u << 20)) {
		fprintf(stderr, "mlx4v: MR length %u: expected 1 to %u bytes\n", res->num[1],
			64u << 20);
		return;
	}
	ret = tp_buf_alloc(&tp_mrs[id].buf, res->num[0], res->num[1]);
	if (ret) {
		fprintf(stderr, "mlx4v: cannot register %u bytes on pd %u: %s\n", res->num[1],
			res->num[0], strerror(ret));
		return;
	}
	tp_mrs[id].h = tp_mrs[id].buf.mr;
	tp_mrs[id].pd = res->num[0];
	printf("mlx4v: mr %d created on pd %u: addr %p len %u lkey 0x%x\n", id, res->num[0],
	       (void *)tp_mrs[id].buf.va, res->num[1], tp_mrs[id].buf.lkey);
}

TP_CMD(tp_mr_create)
TP_NUM_CMD(tp_mr_create, tp_mr_create_parsed, "mr", "create", NULL,
	   "mlx4v mr create <pd_id> <len>", (void *)&tp_num_0, (void *)&tp_num_1);

/* ---- mlx4v cq create <dev_id> <cqe> <cqe_size> <events> ---- */

static void
tp_cq_create_do(void *parsed_result, __rte_unused struct cmdline *cl,
		    __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	struct tp_dev *d = tp_dev_get(res->num[0]);
	int id = TP_FREE_SLOT(tp_cqs);
	struct tp_cq *c;

	if (d == NULL)
		return;
	if (id < 0) {
		fprintf(stderr, "mlx4v: too many CQs (%d)\n", TP_MAX_CQ);
		return;
	}
	if (res->num[3] > 1 || res->num[1] > INT_MAX || res->num[2] > INT_MAX) {
		fprintf(stderr, "mlx4v: cq create: events must be 0 or 1, cqe and cqe_size "
			"at most %d\n", INT_MAX);
		return;
	}
	c = &tp_cqs[id];
	memset(c, 0, sizeof(*c));
	c->h = rte_pmd_mlx4v_create_cq(d->h, (int)res->num[1], (int)res->num[2],
				       (int)res->num[3]);
	if (c->h == NULL) {
		fprintf(stderr, "mlx4v: cannot create a CQ of %u entries, cqe_size %u on dev "
			"%u: %s\n", res->num[1], res->num[2], res->num[0], strerror(errno));
		return;
	}
	c->dev = res->num[0];
	c->cqe = res->num[1];
	c->events = res->num[3];
	printf("mlx4v: cq %d created on dev %u%s\n", id, res->num[0],
	       c->events ? " with events" : "");
}

TP_CMD(tp_cq_create)
TP_NUM_CMD(tp_cq_create, tp_cq_create_parsed, "cq", "create", NULL,
	   "mlx4v cq create <dev_id> <cqe> <cqe_size> <events>",
	   (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2, (void *)&tp_num_3);

/* ---- mlx4v srq create <pd_id> <max_wr> <max_sge> ---- */

static void
tp_srq_create_do(void *parsed_result, __rte_unused struct cmdline *cl,
		     __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	struct rte_pmd_mlx4v_obj obj;
	int id = TP_FREE_SLOT(tp_srqs);
	struct tp_srq *s;
	int ret;

	if (tp_pd_get(res->num[0]) == NULL)
		return;
	if (id < 0) {
		fprintf(stderr, "mlx4v: too many SRQs (%d)\n", TP_MAX_SRQ);
		return;
	}
	s = &tp_srqs[id];
	memset(s, 0, sizeof(*s));
	s->h = rte_pmd_mlx4v_create_srq(tp_pds[res->num[0]].h, res->num[1], res->num[2]);
	if (s->h == NULL) {
		fprintf(stderr, "mlx4v: cannot create an SRQ of %u WRs, %u SGEs on pd %u: %s\n",
			res->num[1], res->num[2], res->num[0], strerror(errno));
		return;
	}
	memset(&obj, 0, sizeof(obj));
	obj.srq.in = s->h;
	obj.srq.out = &s->dp.v;
	ret = rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_SRQ);
	/* libmlx4 rings hold roundup_pow_of_two(max_wr + 1) WQEs (prm/mlx4 §3). */
	s->max = rte_align32pow2(res->num[1] + 1);
	if (ret == 0 && ((size_t)s->max << s->dp.v.wqe_shift) > s->dp.v.buf.length)
		ret = EPROTO;
	if (ret == 0)
		ret = tp_buf_alloc(&s->buf, res->num[0], (size_t)s->max * TP_BUF_SIZE);
	if (ret) {
		fprintf(stderr, "mlx4v: SRQ view or buffers: %s\n", strerror(ret));
		rte_pmd_mlx4v_destroy_srq(s->h);
		memset(s, 0, sizeof(*s));
		return;
	}
	/* After init_obj the DV consumer owns the free list, starting from the snapshot. */
	rte_pmd_mlx4v_rawdp_srq_init(&s->dp);
	s->dp.bufs = s->buf.va;
	s->dp.lkey = s->buf.lkey;
	s->pd = res->num[0];
	printf("mlx4v: srq %d created on pd %u: %u WQEs of %u bytes\n", id, res->num[0], s->max,
	       1u << s->dp.v.wqe_shift);
}

TP_CMD(tp_srq_create)
TP_NUM_CMD(tp_srq_create, tp_srq_create_parsed, "srq", "create", NULL,
	   "mlx4v srq create <pd_id> <max_wr> <max_sge>",
	   (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2);

/* ---- mlx4v qp create <pd_id> <send_cq> <recv_cq> <port> <max_send_wr> <max_recv_wr> ---- */

static void
tp_qp_create_do(void *parsed_result, __rte_unused struct cmdline *cl, void *data)
{
	struct tp_num_result *res = parsed_result;
	struct rte_pmd_mlx4v_qp_attr attr;
	struct rte_pmd_mlx4v_obj obj;
	int with_srq = data != NULL;
	int id = TP_FREE_SLOT(tp_qps);
	struct tp_qp *q;
	int ret;

	if (tp_pd_get(res->num[0]) == NULL || tp_cq_get(res->num[1]) == NULL ||
	    tp_cq_get(res->num[2]) == NULL || (with_srq && tp_srq_get(res->num[6]) == NULL))
		return;
	if (id < 0) {
		fprintf(stderr, "mlx4v: too many QPs (%d)\n", TP_MAX_QP);
		return;
	}
	if (res->num[3] == 0 || res->num[3] > UINT8_MAX) {
		fprintf(stderr, "mlx4v: port %u: ports are 1-based\n", res->num[3]);
		return;
	}
	memset(&attr, 0, sizeof(attr));
	attr.send_cq = tp_cqs[res->num[1]].h;
	attr.recv_cq = tp_cqs[res->num[2]].h;
	attr.srq = with_srq ? tp_srqs[res->num[6]].h : NULL;
	attr.max_send_wr = res->num[4];
	attr.max_recv_wr = with_srq ? 0 : res->num[5];
	attr.max_send_sge = 1;
	attr.max_recv_sge = with_srq ? 0 : 1;
	attr.port = (uint8_t)res->num[3];
	q = &tp_qps[id];
	memset(q, 0, sizeof(*q));
	q->h = rte_pmd_mlx4v_create_qp(tp_pds[res->num[0]].h, &attr);
	if (q->h == NULL) {
		fprintf(stderr, "mlx4v: cannot create a QP on pd %u: %s\n", res->num[0],
			strerror(errno));
		return;
	}
	/* The QP view has no side effect; take it now (prm/mlx4 §1.3 for comp_mask). */
	memset(&obj, 0, sizeof(obj));
	obj.qp.in = q->h;
	obj.qp.out = &q->sq.v;
	q->sq.v.comp_mask = MLX4DV_QP_MASK_UAR_MMAP_OFFSET;
	ret = rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP);
	if (ret == 0)
		ret = rte_pmd_mlx4v_qp_num(q->h, &q->qpn);
	if (ret == 0)
		ret = tp_buf_alloc(&q->tx, res->num[0], (size_t)q->sq.v.sq.wqe_cnt * TP_BUF_SIZE);
	if (ret == 0 && !with_srq && q->sq.v.rq.wqe_cnt != 0)
		ret = tp_buf_alloc(&q->rq.buf, res->num[0],
				   (size_t)q->sq.v.rq.wqe_cnt * TP_BUF_SIZE);
	if (ret) {
		fprintf(stderr, "mlx4v: QP view or buffers: %s\n", strerror(ret));
		tp_buf_free(&q->rq.buf);
		tp_buf_free(&q->tx);
		rte_pmd_mlx4v_destroy_qp(q->h);
		memset(q, 0, sizeof(*q));
		return;
	}
	if (!with_srq) {
		rte_pmd_mlx4v_rawdp_rq_init_qp(&q->rq.dp, &q->sq.v);
		q->rq.dp.bufs = q->rq.buf.va;
		q->rq.dp.lkey = q->rq.buf.lkey;
	}
	q->sq.bufs = q->tx.va;
	q->sq.lkey = q->tx.lkey;
	q->sq.max_post = attr.max_send_wr;
	q->pd = res->num[0];
	q->scq = res->num[1];
	q->rcq = res->num[2];
	q->srq = with_srq ? (int)res->num[6] : -1;
	q->port = attr.port;
	q->state = RTE_PMD_MLX4V_QPS_RESET;
	printf("mlx4v: qp %d created on pd %u: qpn 0x%x port %u, max_send_wr %u, "
	       "max_recv_wr %u%s\n", id, res->num[0], q->qpn, q->port, attr.max_send_wr,
	       attr.max_recv_wr, with_srq ? ", SRQ" : "");
}

TP_CMD(tp_qp_create)
static cmdline_parse_token_string_t tp_qp_create_srq_kw =
	TOKEN_STRING_INITIALIZER(struct tp_num_result, type, "srq");

TP_NUM_CMD(tp_qp_create, tp_qp_create_parsed, "qp", "create", NULL,
	   "mlx4v qp create <pd_id> <send_cq> <recv_cq> <port> <max_send_wr> <max_recv_wr>",
	   (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2, (void *)&tp_num_3,
	   (void *)&tp_num_4, (void *)&tp_num_5);
TP_NUM_CMD(tp_qp_create_with_srq, tp_qp_create_parsed, "qp", "create", (void *)1,
	   "mlx4v qp create <pd_id> <send_cq> <recv_cq> <port> <max_send_wr> srq <srq_id>",
	   (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2, (void *)&tp_num_3,
	   (void *)&tp_num_4, (void *)&tp_qp_create_srq_kw, (void *)&tp_num_6);

/* ---- mlx4v wq create <pd_id> <cq_id> <port> <max_wr> <max_sge> ---- */

static void
tp_wq_create_do(void *parsed_result, __rte_unused struct cmdline *cl,
		    __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	struct rte_pmd_mlx4v_wq_attr attr;
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_rwq v;
	int id = TP_FREE_SLOT(tp_wqs);
	struct tp_wq *w;
	int ret;

	if (tp_pd_get(res->num[0]) == NULL || tp_cq_get(res->num[1]) == NULL)
		return;
	if (id < 0) {
		fprintf(stderr, "mlx4v: too many WQs (%d)\n", TP_MAX_WQ);
		return;
	}
	if (res->num[2] == 0 || res->num[2] > UINT8_MAX) {
		fprintf(stderr, "mlx4v: port %u: ports are 1-based\n", res->num[2]);
		return;
	}
	memset(&attr, 0, sizeof(attr));
	attr.cq = tp_cqs[res->num[1]].h;
	attr.max_wr = res->num[3];
	attr.max_sge = res->num[4];
	attr.port = (uint8_t)res->num[2];
	w = &tp_wqs[id];
	memset(w, 0, sizeof(*w));
	w->h = rte_pmd_mlx4v_create_wq(tp_pds[res->num[0]].h, &attr);
	if (w->h == NULL) {
		fprintf(stderr, "mlx4v: cannot create a WQ of %u WRs, %u SGEs on pd %u: %s\n",
			res->num[3], res->num[4], res->num[0], strerror(errno));
		return;
	}
	memset(&obj, 0, sizeof(obj));
	obj.rwq.in = w->h;
	obj.rwq.out = &v;
	ret = rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_RWQ);
	if (ret == 0)
		ret = rte_pmd_mlx4v_wq_num(w->h, &w->wqn);
	if (ret == 0)
		ret = tp_buf_alloc(&w->rq.buf, res->num[0], (size_t)v.rq.wqe_cnt * TP_BUF_SIZE);
	if (ret) {
		fprintf(stderr, "mlx4v: RWQ view or buffers: %s\n", strerror(ret));
		rte_pmd_mlx4v_destroy_wq(w->h);
		memset(w, 0, sizeof(*w));
		return;
	}
	rte_pmd_mlx4v_rawdp_rq_init_rwq(&w->rq.dp, &v);
	w->rq.dp.bufs = w->rq.buf.va;
	w->rq.dp.lkey = w->rq.buf.lkey;
	w->pd = res->num[0];
	w->cq = res->num[1];
	w->port = attr.port;
	w->state = RTE_PMD_MLX4V_WQS_RESET;
	printf("mlx4v: wq %d created on pd %u: wqn 0x%x port %u, max_wr %u, max_sge %u\n", id,
	       res->num[0], w->wqn, w->port, attr.max_wr, attr.max_sge);
}

TP_CMD(tp_wq_create)
TP_NUM_CMD(tp_wq_create, tp_wq_create_parsed, "wq", "create", NULL,
	   "mlx4v wq create <pd_id> <cq_id> <port> <max_wr> <max_sge>",
	   (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2, (void *)&tp_num_3,
	   (void *)&tp_num_4);

/* ---- mlx4v pd|mr|cq|qp|srq|wq destroy <id> ---- */

/* A QP or WQ going to RESET: the library and device restart the rings at 0. */
static void
tp_rq_reset(struct tp_rq *rq)
{
	rq->dp.head = 0;
	rq->dp.tail = 0;
}

static int
tp_destroy(const char *kind, uint32_t id)
{
	int ret;

	if (strcmp(kind, "pd") == 0) {
		if (tp_pd_get(id) == NULL)
			return 0;
		ret = rte_pmd_mlx4v_dealloc_pd(tp_pds[id].h);
		if (ret == 0)
			memset(&tp_pds[id], 0, sizeof(tp_pds[id]));
	} else if (strcmp(kind, "mr") == 0) {
		if (id >= TP_MAX_MR || tp_mrs[id].h == NULL) {
			fprintf(stderr, "mlx4v: no MR %u (see \"mlx4v list\")\n", id);
			return 0;
		}
		ret = rte_pmd_mlx4v_dereg_mr(tp_mrs[id].h);
		if (ret == 0) {
			rte_free(tp_mrs[id].buf.va);
			memset(&tp_mrs[id], 0, sizeof(tp_mrs[id]));
		}
	} else if (strcmp(kind, "cq") == 0) {
		struct tp_cq *c = tp_cq_get(id);

		if (c == NULL)
			return 0;
		/* Unacknowledged events keep a CQ alive (ibv_destroy_cq rule). */
		if (c->unacked != 0 && rte_pmd_mlx4v_ack_cq_events(c->h, c->unacked) == 0)
			c->unacked = 0;
		ret = rte_pmd_mlx4v_destroy_cq(c->h);
		if (ret == 0)
			memset(c, 0, sizeof(*c));
	} else if (strcmp(kind, "qp") == 0) {
		struct tp_qp *q = tp_qp_get(id);

		if (q == NULL)
			return 0;
		ret = rte_pmd_mlx4v_destroy_qp(q->h);
		/* An RSS QP takes its table with it. */
		if (ret == 0 && q->ind != NULL)
			ret = rte_pmd_mlx4v_destroy_rwq_ind_table(q->ind);
		if (ret == 0) {
			tp_buf_free(&q->rq.buf);
			tp_buf_free(&q->tx);
			memset(q, 0, sizeof(*q));
		}
	} else if (strcmp(kind, "flow") == 0) {
		if (id >= TP_MAX_FLOW || tp_flows[id].h == NULL) {
			fprintf(stderr, "mlx4v: no flow %u (see \"mlx4v list\")\n", id);
			return 0;
		}
		ret = rte_pmd_mlx4v_destroy_flow(tp_flows[id].h);
		if (ret == 0)
			memset(&tp_flows[id], 0, sizeof(tp_flows[id]));
	} else if (strcmp(kind, "srq") == 0) {
		struct tp_srq *s = tp_srq_get(id);

		if (s == NULL)
			return 0;
		ret = rte_pmd_mlx4v_destroy_srq(s->h);
		if (ret == 0) {
			tp_buf_free(&s->buf);
			memset(s, 0, sizeof(*s));
		}
	} else {
		struct tp_wq *w = tp_wq_get(id);

		if (w == NULL)
			return 0;
		ret = rte_pmd_mlx4v_destroy_wq(w->h);
		if (ret == 0) {
			tp_buf_free(&w->rq.buf);
			memset(w, 0, sizeof(*w));
		}
	}
	if (ret)
		fprintf(stderr, "mlx4v: cannot destroy %s %u: %s%s\n", kind, id, strerror(ret),
			ret == EBUSY ? " (still in use)" : "");
	else
		printf("mlx4v: %s %u destroyed\n", kind, id);
	return ret;
}

static void
tp_destroy_do(void *parsed_result, __rte_unused struct cmdline *cl,
		  __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;

	tp_destroy(res->kw[1], res->num[0]);
}

TP_CMD(tp_destroy)
TP_NUM_CMD(tp_destroy_cmd, tp_destroy_parsed, "pd#mr#cq#qp#srq#wq#flow", "destroy", NULL,
	   "mlx4v pd|mr|cq|qp|srq|wq|flow destroy <id>", (void *)&tp_num_0);

/* ---- mlx4v wq range <dev_id> <log_size> ---- */

static void
tp_wq_range_do(void *parsed_result, __rte_unused struct cmdline *cl,
	       __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	uint32_t dev = res->num[0], log_size = res->num[1];
	struct tp_dev *d = tp_dev_get(dev);
	int ret;

	if (d == NULL)
		return;
	ret = rte_pmd_mlx4v_set_wqs_range(d->h, log_size > UINT8_MAX ? UINT8_MAX :
					  (uint8_t)log_size);
	if (ret)
		fprintf(stderr, "mlx4v: WQ range 2^%u on dev %u: %s\n", log_size, dev,
			strerror(ret));
	else
		printf("mlx4v: dev %u: WQ ranges of %u\n", dev, 1u << log_size);
}

TP_CMD(tp_wq_range)
TP_NUM_CMD(tp_wq_range, tp_wq_range_parsed, "wq", "range", NULL,
	   "mlx4v wq range <dev_id> <log_size>",
	   (void *)&tp_num_0, (void *)&tp_num_1);

/* ---- mlx4v rss create <pd_id> <first_wq> <log_size> <port> ---- */

static void
tp_rss_create_do(void *parsed_result, __rte_unused struct cmdline *cl,
		 __rte_unused void *data)
{
	static const uint8_t key[RTE_PMD_MLX4V_RSS_KEY_LEN] = RTE_PMD_MLX4V_RSS_KEY_DEFAULT;
	struct tp_num_result *res = parsed_result;
	uint32_t pd = res->num[0], wq = res->num[1], log_size = res->num[2];
	uint32_t port = res->num[3];
	struct rte_pmd_mlx4v_wq *wqs[TP_MAX_WQ];
	struct rte_pmd_mlx4v_rss_qp_attr ra;
	int id = TP_FREE_SLOT(tp_qps);
	struct tp_qp *q;
	uint32_t i, n;

	if (tp_pd_get(pd) == NULL)
		return;
	if (id < 0 || log_size > 5 || wq + (1u << log_size) > TP_MAX_WQ || port == 0 ||
	    port > UINT8_MAX) {
		fprintf(stderr, "mlx4v: rss create: a free qp slot, 2^log_size WQs from "
			"first_wq and a port >= 1 are needed\n");
		return;
	}
	n = 1u << log_size;
	for (i = 0; i < n; i++) {
		if (tp_wq_get(wq + i) == NULL)
			return;
		wqs[i] = tp_wqs[wq + i].h;
	}
	q = &tp_qps[id];
	memset(q, 0, sizeof(*q));
	q->ind = rte_pmd_mlx4v_create_rwq_ind_table(tp_pd_dev(pd)->h, log_size, wqs);
	if (q->ind == NULL) {
		fprintf(stderr, "mlx4v: cannot create an indirection table over wq %u-%u: %s\n",
			wq, wq + n - 1, strerror(errno));
		return;
	}
	/* The fields and key of DPDK's mlx4 RSS (IPv4, IPv6, TCP and UDP ports). */
	memset(&ra, 0, sizeof(ra));
	ra.ind_table = q->ind;
	ra.hash_fields = RTE_PMD_MLX4V_RX_HASH_SRC_IPV4 | RTE_PMD_MLX4V_RX_HASH_DST_IPV4 |
		RTE_PMD_MLX4V_RX_HASH_SRC_IPV6 | RTE_PMD_MLX4V_RX_HASH_DST_IPV6 |
		RTE_PMD_MLX4V_RX_HASH_SRC_PORT_TCP | RTE_PMD_MLX4V_RX_HASH_DST_PORT_TCP |
		RTE_PMD_MLX4V_RX_HASH_SRC_PORT_UDP | RTE_PMD_MLX4V_RX_HASH_DST_PORT_UDP;
	ra.key = key;
	ra.port = (uint8_t)port;
	q->h = rte_pmd_mlx4v_create_rss_qp(tp_pds[pd].h, &ra);
	if (q->h == NULL) {
		fprintf(stderr, "mlx4v: cannot create an RSS QP over wq %u-%u: %s\n", wq,
			wq + n - 1, strerror(errno));
		rte_pmd_mlx4v_destroy_rwq_ind_table(q->ind);
		memset(q, 0, sizeof(*q));
		return;
	}
	rte_pmd_mlx4v_qp_num(q->h, &q->qpn);
	q->pd = pd;
	q->scq = -1;
	q->rcq = -1;
	q->srq = -1;
	q->port = ra.port;
	q->first_wq = wq;
	q->log_size = log_size;
	q->state = RTE_PMD_MLX4V_QPS_RESET;
	printf("mlx4v: qp %d created on pd %u: RSS QP qpn 0x%x port %u over wq %u-%u\n", id,
	       pd, q->qpn, q->port, wq, wq + n - 1);
}

TP_CMD(tp_rss_create)
TP_NUM_CMD(tp_rss_create, tp_rss_create_parsed, "rss", "create", NULL,
	   "mlx4v rss create <pd_id> <first_wq> <log_size> <port>",
	   (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2, (void *)&tp_num_3);

/* ---- mlx4v flow create <qp_id> <port> promisc|allmulti|mac <mac> ---- */

static void
tp_flow_create_do(void *parsed_result, __rte_unused struct cmdline *cl, void *data)
{
	struct tp_num_result *res = parsed_result;
	uint32_t qp = res->num[0], port = res->num[1];
	struct rte_pmd_mlx4v_flow_attr fa;
	int id = TP_FREE_SLOT(tp_flows);

	if (tp_qp_get(qp) == NULL)
		return;
	if (id < 0 || port > UINT8_MAX) {
		fprintf(stderr, "mlx4v: too many flows (%d), or port %u\n", TP_MAX_FLOW, port);
		return;
	}
	memset(&fa, 0, sizeof(fa));
	fa.port = (uint8_t)port;
	if (data != NULL) {
		fa.type = RTE_PMD_MLX4V_FLOW_MAC;
		memcpy(fa.dmac, res->mac.addr_bytes, sizeof(fa.dmac));
	} else {
		fa.type = strcmp(res->type, "promisc") == 0 ? RTE_PMD_MLX4V_FLOW_PROMISC :
			RTE_PMD_MLX4V_FLOW_ALLMULTI;
	}
	tp_flows[id].h = rte_pmd_mlx4v_create_flow(tp_qps[qp].h, &fa);
	if (tp_flows[id].h == NULL) {
		fprintf(stderr, "mlx4v: cannot create a %s flow to qp %u on port %u: %s\n",
			res->type, qp, port, strerror(errno));
		return;
	}
	tp_flows[id].qp = qp;
	printf("mlx4v: flow %d created: %s on port %u to qp %u\n", id, res->type, port, qp);
}

TP_CMD(tp_flow_create)

static cmdline_parse_token_string_t tp_flow_create_type =
	TOKEN_STRING_INITIALIZER(struct tp_num_result, type, "promisc#allmulti");
static cmdline_parse_token_string_t tp_flow_create_type_mac =
	TOKEN_STRING_INITIALIZER(struct tp_num_result, type, "mac");
static cmdline_parse_token_etheraddr_t tp_flow_create_mac_addr =
	TOKEN_ETHERADDR_INITIALIZER(struct tp_num_result, mac);

TP_NUM_CMD(tp_flow_create, tp_flow_create_parsed, "flow", "create", NULL,
	   "mlx4v flow create <qp_id> <port> promisc|allmulti",
	   (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_flow_create_type);

/* The same handler: data marks the MAC form. */
TP_NUM_CMD(tp_flow_create_mac, tp_flow_create_parsed, "flow", "create", (void *)1,
	   "mlx4v flow create <qp_id> <port> mac <mac>",
	   (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_flow_create_type_mac,
	   (void *)&tp_flow_create_mac_addr);

/* ---- mlx4v qp|wq modify <id> <state> ---- */

static int
tp_state_index(const char *const *names, unsigned int n, const char *state)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], state) == 0)
			return i;
	return -1;
}

static void
tp_modify_do(void *parsed_result, __rte_unused struct cmdline *cl,
		 __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	int st, ret;

	if (strcmp(res->kw[1], "qp") == 0) {
		struct tp_qp *q = tp_qp_get(res->num[0]);

		st = tp_state_index(tp_qp_state_names, RTE_DIM(tp_qp_state_names), res->type);
		if (q == NULL)
			return;
		if (st < 0) {
			fprintf(stderr, "mlx4v: QP state \"%s\": expected reset, init, rtr, rts "
				"or err\n", res->type);
			return;
		}
		ret = rte_pmd_mlx4v_modify_qp(q->h, st);
		if (ret == 0) {
			q->state = st;
			if (st == RTE_PMD_MLX4V_QPS_RESET) {
				q->sq.head = 0;
				q->sq.done = 0;
				tp_rq_reset(&q->rq);
			}
		}
	} else {
		struct tp_wq *w = tp_wq_get(res->num[0]);

		st = tp_state_index(tp_wq_state_names, RTE_DIM(tp_wq_state_names), res->type);
		if (w == NULL)
			return;
		if (st < 0) {
			fprintf(stderr, "mlx4v: WQ state \"%s\": expected reset, rdy or err\n",
				res->type);
			return;
		}
		ret = rte_pmd_mlx4v_modify_wq(w->h, st);
		if (ret == 0) {
			w->state = st;
			if (st == RTE_PMD_MLX4V_WQS_RESET)
				tp_rq_reset(&w->rq);
		}
	}
	if (ret)
		fprintf(stderr, "mlx4v: cannot move %s %u to %s: %s\n", res->kw[1], res->num[0],
			res->type, strerror(ret));
	else
		printf("mlx4v: %s %u is now %s\n", res->kw[1], res->num[0], res->type);
}

TP_CMD(tp_modify)
TP_NUM_CMD(tp_modify, tp_modify_parsed, "qp#wq", "modify", NULL,
	   "mlx4v qp|wq modify <id> reset|init|rtr|rts|rdy|err",
	   (void *)&tp_num_0, (void *)&tp_num_any);

/* ---- mlx4v view qp|cq|srq|rwq <id> ---- */

/* A doorbell record: its address and its value, which is big-endian. */
static void
tp_print_dbrec(const char *field, const __be32 *p)
{
	if (p == NULL)
		printf("  %-16s (nil)\n", field);
	else
		printf("  %-16s %p (*%s = 0x%08x)\n", field, (const void *)p, field,
		       rte_be_to_cpu_32(*p));
}

static void
tp_view_qp(uint32_t id, const struct mlx4dv_qp *v)
{
	printf("mlx4v: qp %u view (struct mlx4dv_qp):\n", id);
	tp_print_dbrec("rdb", v->rdb);
	printf("  %-16s %p\n", "sdb", (void *)v->sdb);
	printf("  %-16s 0x%08x (BE32(qpn << 8) = qpn 0x%x)\n", "doorbell_qpn",
	       v->doorbell_qpn, rte_be_to_cpu_32(v->doorbell_qpn) >> 8);
	printf("  %-16s %u\n", "sq.wqe_cnt", v->sq.wqe_cnt);
	printf("  %-16s %d\n", "sq.wqe_shift", v->sq.wqe_shift);
	printf("  %-16s %d\n", "sq.offset", v->sq.offset);
	printf("  %-16s %u\n", "rq.wqe_cnt", v->rq.wqe_cnt);
	printf("  %-16s %d\n", "rq.wqe_shift", v->rq.wqe_shift);
	printf("  %-16s %d\n", "rq.offset", v->rq.offset);
	printf("  %-16s %p\n", "buf.buf", v->buf.buf);
	printf("  %-16s %zu\n", "buf.length", v->buf.length);
	printf("  %-16s 0x%" PRIx64 "\n", "comp_mask", v->comp_mask);
	if (v->comp_mask & MLX4DV_QP_MASK_UAR_MMAP_OFFSET)
		printf("  %-16s %jd\n", "uar_mmap_offset", (intmax_t)v->uar_mmap_offset);
	else
		printf("  %-16s (not filled)\n", "uar_mmap_offset");
}

static void
tp_view_cq(uint32_t id, const struct mlx4dv_cq *v)
{
	printf("mlx4v: cq %u view (struct mlx4dv_cq):\n", id);
	printf("  %-16s %p\n", "buf.buf", v->buf.buf);
	printf("  %-16s %zu\n", "buf.length", v->buf.length);
	printf("  %-16s %u\n", "cqe_cnt", v->cqe_cnt);
	printf("  %-16s 0x%x\n", "cqn", v->cqn);
	tp_print_dbrec("set_ci_db", v->set_ci_db);
	tp_print_dbrec("arm_db", v->arm_db);
	printf("  %-16s %d\n", "arm_sn", v->arm_sn);
	printf("  %-16s %d\n", "cqe_size", v->cqe_size);
	printf("  %-16s 0x%" PRIx64 "\n", "comp_mask", v->comp_mask);
	if (v->comp_mask & MLX4DV_CQ_MASK_UAR)
		printf("  %-16s %p\n", "cq_uar", v->cq_uar);
	else
		printf("  %-16s (not filled)\n", "cq_uar");
}

static void
tp_view_srq(uint32_t id, const struct mlx4dv_srq *v)
{
	printf("mlx4v: srq %u view (struct mlx4dv_srq):\n", id);
	printf("  %-16s %p\n", "buf.buf", v->buf.buf);
	printf("  %-16s %zu\n", "buf.length", v->buf.length);
	printf("  %-16s %d\n", "wqe_shift", v->wqe_shift);
	printf("  %-16s %d\n", "head", v->head);
	printf("  %-16s %d\n", "tail", v->tail);
	tp_print_dbrec("db", v->db);
	printf("  %-16s 0x%" PRIx64 "\n", "comp_mask", v->comp_mask);
}

static void
tp_view_rwq(uint32_t id, const struct mlx4dv_rwq *v)
{
	printf("mlx4v: rwq %u view (struct mlx4dv_rwq):\n", id);
	tp_print_dbrec("rdb", v->rdb);
	printf("  %-16s %u\n", "rq.wqe_cnt", v->rq.wqe_cnt);
	printf("  %-16s %d\n", "rq.wqe_shift", v->rq.wqe_shift);
	printf("  %-16s %d\n", "rq.offset", v->rq.offset);
	printf("  %-16s %p\n", "buf.buf", v->buf.buf);
	printf("  %-16s %zu\n", "buf.length", v->buf.length);
	printf("  %-16s 0x%" PRIx64 "\n", "comp_mask", v->comp_mask);
}

static void
tp_view_do(void *parsed_result, __rte_unused struct cmdline *cl,
	       __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_qp qp;
	struct mlx4dv_cq cq;
	struct mlx4dv_srq srq;
	struct mlx4dv_rwq rwq;
	uint64_t type;
	int ret;

	memset(&obj, 0, sizeof(obj));
	if (strcmp(res->kw[2], "qp") == 0) {
		if (tp_qp_get(res->num[0]) == NULL)
			return;
		memset(&qp, 0, sizeof(qp));
		qp.comp_mask = MLX4DV_QP_MASK_UAR_MMAP_OFFSET;
		obj.qp.in = tp_qps[res->num[0]].h;
		obj.qp.out = &qp;
		type = MLX4DV_OBJ_QP;
	} else if (strcmp(res->kw[2], "cq") == 0) {
		if (tp_cq_get(res->num[0]) == NULL)
			return;
		memset(&cq, 0, sizeof(cq));
		cq.comp_mask = MLX4DV_CQ_MASK_UAR;
		obj.cq.in = tp_cqs[res->num[0]].h;
		obj.cq.out = &cq;
		type = MLX4DV_OBJ_CQ;
	} else if (strcmp(res->kw[2], "srq") == 0) {
		if (tp_srq_get(res->num[0]) == NULL)
			return;
		memset(&srq, 0, sizeof(srq));
		obj.srq.in = tp_srqs[res->num[0]].h;
		obj.srq.out = &srq;
		type = MLX4DV_OBJ_SRQ;
	} else {
		if (tp_wq_get(res->num[0]) == NULL)
			return;
		memset(&rwq, 0, sizeof(rwq));
		obj.rwq.in = tp_wqs[res->num[0]].h;
		obj.rwq.out = &rwq;
		type = MLX4DV_OBJ_RWQ;
	}
	/* A CQ view marks the CQ DV-owned: take testpmd's own view first, so its CI is set. */
	if (type == MLX4DV_OBJ_CQ && tp_cq_view(&tp_cqs[res->num[0]]) != 0)
		return;
	ret = rte_pmd_mlx4v_init_obj(&obj, type);
	if (ret) {
		fprintf(stderr, "mlx4v: init_obj(%s %u): %s\n", res->kw[2], res->num[0],
			strerror(ret));
		return;
	}
	switch (type) {
	case MLX4DV_OBJ_QP:
		tp_view_qp(res->num[0], &qp);
		break;
	case MLX4DV_OBJ_CQ:
		tp_view_cq(res->num[0], &cq);
		break;
	case MLX4DV_OBJ_SRQ:
		tp_view_srq(res->num[0], &srq);
		break;
	default:
		tp_view_rwq(res->num[0], &rwq);
		break;
	}
}

TP_CMD(tp_view)
TP_NUM_CMD(tp_view, tp_view_parsed, "view", "qp#cq#srq#rwq", NULL,
	   "mlx4v view qp|cq|srq|rwq <id>", (void *)&tp_num_0);

/* ---- mlx4v post qp|rwq|srq <id> <n> ---- */

static void
tp_post_do(void *parsed_result, __rte_unused struct cmdline *cl,
	       __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	uint32_t posted;

	if (strcmp(res->kw[2], "qp") == 0) {
		struct tp_qp *q = tp_qp_get(res->num[0]);

		if (q == NULL)
			return;
		if (q->srq >= 0 || q->rq.dp.wqe_cnt == 0) {
			fprintf(stderr, "mlx4v: qp %u has no RQ of its own (post to its SRQ)\n",
				res->num[0]);
			return;
		}
		posted = rte_pmd_mlx4v_rawdp_rq_post(&q->rq.dp, res->num[1]);
		printf("mlx4v: qp %u: %u receive WQE(s) posted, rdb count %u\n", res->num[0],
		       posted, q->rq.dp.head & 0xffff);
	} else if (strcmp(res->kw[2], "rwq") == 0) {
		struct tp_wq *w = tp_wq_get(res->num[0]);

		if (w == NULL)
			return;
		posted = rte_pmd_mlx4v_rawdp_rq_post(&w->rq.dp, res->num[1]);
		printf("mlx4v: rwq %u: %u receive WQE(s) posted, rdb count %u\n", res->num[0],
		       posted, w->rq.dp.head & 0xffff);
	} else {
		struct tp_srq *s = tp_srq_get(res->num[0]);

		if (s == NULL)
			return;
		posted = rte_pmd_mlx4v_rawdp_srq_post(&s->dp, res->num[1]);
		printf("mlx4v: srq %u: %u WQE(s) posted, db count %u, head %d tail %d\n",
		       res->num[0], posted, s->dp.counter, s->dp.head, s->dp.tail);
	}
	if (posted < res->num[1])
		fprintf(stderr, "mlx4v: %s %u: ring full, %u of %u posted (poll its CQ)\n",
			res->kw[2], res->num[0], posted, res->num[1]);
}

TP_CMD(tp_post)
TP_NUM_CMD(tp_post, tp_post_parsed, "post", "qp#rwq#srq", NULL,
	   "mlx4v post qp|rwq|srq <id> <n>", (void *)&tp_num_0, (void *)&tp_num_1);

/* ---- mlx4v send <qp_id> <len> [<count> [lkey <lkey>]] ---- */

/* Fill the next frame and write one signalled SEND WQE (ctrl + one data segment) for it. */
static void
tp_sq_write(struct tp_qp *q, uint32_t len, uint32_t lkey)
{
	tp_frame_fill(rte_pmd_mlx4v_rawdp_sq_frame(&q->sq, 0), len, q->seq++, q->port);
	/*
	 * CQ_UPDATE: one CQE for this WQE; SOLICIT: on raw Ethernet QPs it means "no
	 * ICRC" (prm/mlx4 §4.2).
	 */
	rte_pmd_mlx4v_rawdp_sq_write(&q->sq, len, lkey,
				     MLX4_WQE_CTRL_CQ_UPDATE | MLX4_WQE_CTRL_SOLICIT);
}

/* data: 0 for "send qp len", 1 with a count, 2 with a count and an lkey. */
static void
tp_send_do(void *parsed_result, __rte_unused struct cmdline *cl, void *data)
{
	struct tp_num_result *res = parsed_result;
	uintptr_t variant = (uintptr_t)data;
	uint32_t qp = res->num[0], len = res->num[1];
	uint32_t count = variant >= 1 ? res->num[2] : 1;
	struct tp_qp *q = tp_qp_get(qp);
	uint32_t i, lkey;

	if (q == NULL)
		return;
	if (q->ind != NULL) {
		fprintf(stderr, "mlx4v: qp %u is an RSS QP: it has no send queue\n", qp);
		return;
	}
	if (len < TP_ETH_HDR || len > TP_BUF_SIZE) {
		fprintf(stderr, "mlx4v: send length %u: expected %u to %u bytes\n", len,
			TP_ETH_HDR, TP_BUF_SIZE);
		return;
	}
	if (count == 0 || count > q->sq.max_post - (q->sq.head - q->sq.done)) {
		fprintf(stderr, "mlx4v: qp %u: %u WQE(s) do not fit: %u in flight, %u at most "
			"(poll the send CQ)\n", qp, count, q->sq.head - q->sq.done,
			q->sq.max_post);
		return;
	}
	if (q->state != RTE_PMD_MLX4V_QPS_RTS)
		printf("mlx4v: warning: qp %u is in state %s, not rts: the device will not "
		       "execute the WQE\n", qp, tp_qp_state_names[q->state]);
	lkey = variant == 2 ? res->num[3] : q->tx.lkey;
	for (i = 0; i < count; i++)
		tp_sq_write(q, len, lkey);
	rte_pmd_mlx4v_rawdp_sq_doorbell(&q->sq);
	printf("mlx4v: qp %u: %u SEND WQE(s) of %u bytes posted, lkey 0x%x, sq head %u, "
	       "doorbell rung\n", qp, count, len, lkey, q->sq.head);
}

TP_CMD(tp_send)

static cmdline_parse_token_string_t tp_send_lkey_kw =
	TOKEN_STRING_INITIALIZER(struct tp_num_result, type, "lkey");

TP_NUM_CMD1(tp_send, tp_send_parsed, "send", (void *)0, "mlx4v send <qp_id> <len>",
	    (void *)&tp_num_0, (void *)&tp_num_1);
TP_NUM_CMD1(tp_send_n, tp_send_parsed, "send", (void *)1, "mlx4v send <qp_id> <len> <count>",
	    (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2);
TP_NUM_CMD1(tp_send_lkey_cmd, tp_send_parsed, "send", (void *)2,
	    "mlx4v send <qp_id> <len> <count> lkey <lkey>",
	    (void *)&tp_num_0, (void *)&tp_num_1, (void *)&tp_num_2, (void *)&tp_send_lkey_kw,
	    (void *)&tp_num_3);

/* ---- mlx4v poll|arm|event <cq_id> ---- */

static void
tp_cq_poll(uint32_t id, struct tp_cq *c)
{
	struct tp_dev *d = &tp_devs[c->dev];
	struct mlx4_cqe *cqe = NULL;
	uint32_t n = 0;
	int i;

	/* Bounded wait for the first CQE; the simulator's engine also runs here. */
	for (i = 0; i < TP_WAIT_STEPS; i++) {
		tp_dev_progress(d);
		cqe = rte_pmd_mlx4v_rawdp_cq_next(&c->dp);
		if (cqe != NULL)
			break;
		rte_delay_us_sleep(TP_WAIT_STEP_US);
	}
	/* At most one ring's worth, so a CQ that keeps filling cannot hold the prompt. */
	while (cqe != NULL && n < c->dp.v.cqe_cnt) {
		tp_cqe_handle(id, c, cqe);
		c->dp.ci++;
		n++;
		cqe = rte_pmd_mlx4v_rawdp_cq_next(&c->dp);
	}
	if (n != 0)
		rte_pmd_mlx4v_rawdp_cq_update_ci(&c->dp);
	printf("mlx4v: cq %u: %u CQE(s) polled, consumer index %u\n", id, n, c->dp.ci);
}

/* Arm for the next completion (prm/mlx4 §4.8: record, barrier, 64-bit doorbell). */
static void
tp_cq_arm(uint32_t id, struct tp_cq *c)
{
	if (!c->events) {
		fprintf(stderr, "mlx4v: cq %u was created without events (events 0)\n", id);
		return;
	}
	if (!(c->dp.v.comp_mask & MLX4DV_CQ_MASK_UAR)) {
		fprintf(stderr, "mlx4v: cq %u: the view has no cq_uar\n", id);
		return;
	}
	rte_pmd_mlx4v_rawdp_cq_arm(&c->dp);
	printf("mlx4v: cq %u armed (sn %u, ci %u)\n", id, c->dp.sn & 3, c->dp.ci & 0xffffff);
}

static void
tp_cq_event(uint32_t id, struct tp_cq *c)
{
	struct tp_dev *d = &tp_devs[c->dev];
	struct pollfd p;
	int i, ret;

	if (!c->events) {
		fprintf(stderr, "mlx4v: cq %u was created without events (events 0)\n", id);
		return;
	}
	p.fd = rte_pmd_mlx4v_cq_event_fd(c->h);
	p.events = POLLIN;
	if (p.fd < 0) {
		fprintf(stderr, "mlx4v: cq %u: no event fd: %s\n", id, strerror(errno));
		return;
	}
	for (i = 0; i < TP_WAIT_STEPS; i++) {
		tp_dev_progress(d);
		if (poll(&p, 1, 0) == 1)
			break;
		rte_delay_us_sleep(TP_WAIT_STEP_US);
	}
	ret = rte_pmd_mlx4v_get_cq_event(c->h);
	if (ret == EAGAIN) {
		printf("mlx4v: cq %u: no completion event\n", id);
		return;
	}
	if (ret) {
		fprintf(stderr, "mlx4v: cq %u: cannot take the event: %s\n", id, strerror(ret));
		return;
	}
	/* Like ibv_get_cq_event(): the next arm uses the next sequence number. */
	c->dp.sn++;
	c->unacked++;
	ret = rte_pmd_mlx4v_ack_cq_events(c->h, c->unacked);
	if (ret == 0)
		c->unacked = 0;
	printf("mlx4v: cq %u: completion event (arm_sn now %u)%s\n", id, c->dp.sn,
	       ret ? ", not acknowledged" : "");
}

static void
tp_cq_op_do(void *parsed_result, __rte_unused struct cmdline *cl,
		__rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *op = res->kw[1];
	uint32_t id = res->num[0];
	struct tp_cq *c = tp_cq_get(id);

	if (c == NULL)
		return;
	if (strcmp(op, "event") == 0) {
		tp_cq_event(id, c);
		return;
	}
	if (tp_cq_view(c) != 0)
		return;
	if (strcmp(op, "poll") == 0)
		tp_cq_poll(id, c);
	else
		tp_cq_arm(id, c);
}

TP_CMD(tp_cq_op)

TP_NUM_CMD1(tp_cq_op, tp_cq_op_parsed, "poll#arm#event", NULL, "mlx4v poll|arm|event <cq_id>",
	    (void *)&tp_num_0);

/* ---- mlx4v list ---- */

static void
tp_list_do(__rte_unused void *parsed_result, __rte_unused struct cmdline *cl,
	       __rte_unused void *data)
{
	unsigned int i;

	for (i = 0; i < TP_MAX_DEV; i++)
		if (tp_devs[i].h != NULL)
			printf("mlx4v: dev %u: %s (%s)\n", i, tp_devs[i].name,
			       tp_backend(tp_devs[i].name));
	for (i = 0; i < TP_MAX_PD; i++)
		if (tp_pds[i].h != NULL)
			printf("mlx4v: pd %u: dev %d\n", i, tp_pds[i].dev);
	for (i = 0; i < TP_MAX_MR; i++)
		if (tp_mrs[i].h != NULL)
			printf("mlx4v: mr %u: pd %d, addr %p, len %zu, lkey 0x%x\n", i,
			       tp_mrs[i].pd, (void *)tp_mrs[i].buf.va, tp_mrs[i].buf.len,
			       tp_mrs[i].buf.lkey);
	for (i = 0; i < TP_MAX_CQ; i++) {
		const struct tp_cq *c = &tp_cqs[i];

		if (c->h == NULL)
			continue;
		printf("mlx4v: cq %u: dev %d, cqe %d, events %s", i, c->dev, c->cqe,
		       c->events ? "yes" : "no");
		if (c->viewed)
			printf(", cqn 0x%x, %u entries, consumer index %u, arm_sn %u\n",
			       c->dp.v.cqn, c->dp.v.cqe_cnt, c->dp.ci, c->dp.sn);
		else
			printf(", no view yet\n");
	}
	for (i = 0; i < TP_MAX_SRQ; i++) {
		const struct tp_srq *s = &tp_srqs[i];

		if (s->h != NULL)
			printf("mlx4v: srq %u: pd %d, %u WQEs, posted %u, completed %u, "
			       "head %d, tail %d\n", i, s->pd, s->max, s->dp.counter, s->dp.done,
			       s->dp.head, s->dp.tail);
	}
	for (i = 0; i < TP_MAX_QP; i++) {
		const struct tp_qp *q = &tp_qps[i];

		if (q->h == NULL)
			continue;
		if (q->ind != NULL) {
			printf("mlx4v: qp %u: pd %d, qpn 0x%x, port %u, state %s, RSS over wq "
			       "%u-%u\n", i, q->pd, q->qpn, q->port, tp_qp_state_names[q->state],
			       q->first_wq, q->first_wq + (1u << q->log_size) - 1);
			continue;
		}
		printf("mlx4v: qp %u: pd %d, qpn 0x%x, port %u, state %s, send_cq %d, "
		       "recv_cq %d, ", i, q->pd, q->qpn, q->port, tp_qp_state_names[q->state],
		       q->scq, q->rcq);
		if (q->srq >= 0)
			printf("srq %d, ", q->srq);
		else
			printf("rq posted %u completed %u, ", q->rq.dp.head, q->rq.dp.tail);
		printf("sq posted %u completed %u\n", q->sq.head, q->sq.done);
	}
	for (i = 0; i < TP_MAX_FLOW; i++)
		if (tp_flows[i].h != NULL)
			printf("mlx4v: flow %u: qp %d\n", i, tp_flows[i].qp);
	for (i = 0; i < TP_MAX_WQ; i++) {
		const struct tp_wq *w = &tp_wqs[i];

		if (w->h != NULL)
			printf("mlx4v: wq %u: pd %d, wqn 0x%x, port %u, state %s, cq %d, "
			       "rq posted %u completed %u\n", i, w->pd, w->wqn, w->port,
			       tp_wq_state_names[w->state], w->cq, w->rq.dp.head,
			       w->rq.dp.tail);
	}
}

TP_CMD(tp_list)

TP_NUM_CMD1(tp_list, tp_list_parsed, "list", NULL, "mlx4v list");

static struct testpmd_driver_commands mlx4v_cmds = {
	.commands = {
		{ &tp_open, "mlx4v open (dev)\n"
		  "    Open an mlx4v device (mlx4v_sim0, or a PCI address): prints its dev id.\n" },
		{ &tp_close, "mlx4v close (dev_id)\n"
		  "    Close a device handle (EBUSY while objects exist on it).\n" },
		{ &tp_pd_create, "mlx4v pd create (dev_id)\n"
		  "    Allocate a protection domain.\n" },
		{ &tp_mr_create, "mlx4v mr create (pd_id) (len)\n"
		  "    Register len bytes of EAL memory; prints the lkey.\n" },
		{ &tp_cq_create, "mlx4v cq create (dev_id) (cqe) (cqe_size) (events)\n"
		  "    Create a CQ of at least cqe entries; cqe_size 32, 64 or 0 (default);\n"
		  "    events 1 for a completion event fd.\n" },
		{ &tp_srq_create, "mlx4v srq create (pd_id) (max_wr) (max_sge)\n"
		  "    Create a shared receive queue.\n" },
		{ &tp_qp_create, "mlx4v qp create (pd_id) (send_cq) (recv_cq) (port) (max_send_wr)"
		  " (max_recv_wr)\n"
		  "    Create a raw-packet QP (in RESET) with its own RQ.\n" },
		{ &tp_qp_create_with_srq, "mlx4v qp create (pd_id) (send_cq) (recv_cq) (port)"
		  " (max_send_wr) srq (srq_id)\n"
		  "    Create a raw-packet QP (in RESET) that receives through an SRQ.\n" },
		{ &tp_wq_create, "mlx4v wq create (pd_id) (cq_id) (port) (max_wr) (max_sge)\n"
		  "    Create a receive work queue (in RESET).\n" },
		{ &tp_modify, "mlx4v qp|wq modify (id) (state)\n"
		  "    QP: reset|init|rtr|rts|err; WQ: reset|rdy|err.\n" },
		{ &tp_wq_range, "mlx4v wq range (dev_id) (log_size)\n"
		  "    Size of the WQ number ranges (before the first WQ of the device).\n" },
		{ &tp_rss_create, "mlx4v rss create (pd_id) (first_wq) (log_size) (port)\n"
		  "    An indirection table over 2^log_size WQs from first_wq and an RSS QP\n"
		  "    (Toeplitz, IPv4/IPv6 + TCP/UDP, DPDK's key) using it; a new qp id.\n" },
		{ &tp_flow_create, "mlx4v flow create (qp_id) (port) promisc|allmulti\n"
		  "    A steering rule to a QP or an RSS QP: nothing is received without one.\n" },
		{ &tp_flow_create_mac, "mlx4v flow create (qp_id) (port) mac (mac)\n"
		  "    A rule for one destination MAC (also what sent frames loop back by).\n" },
		{ &tp_destroy_cmd, "mlx4v pd|mr|cq|qp|srq|wq|flow destroy (id)\n"
		  "    Destroy an object (EBUSY while another object uses it).\n" },
		{ &tp_view, "mlx4v view qp|cq|srq|rwq (id)\n"
		  "    rte_pmd_mlx4v_init_obj() on the object: print every field of its\n"
		  "    mlx4dv view. A CQ view makes testpmd the owner of its consumer index.\n" },
		{ &tp_post, "mlx4v post qp|rwq|srq (id) (n)\n"
		  "    Post n receive WQEs of one 2048-byte buffer through the view, then\n"
		  "    write the doorbell record.\n" },
		{ &tp_send, "mlx4v send (qp_id) (len)\n"
		  "    Write one signalled SEND WQE through the QP view and ring the doorbell.\n" },
		{ &tp_send_n, "mlx4v send (qp_id) (len) (count)\n"
		  "    Write count SEND WQEs, then ring the doorbell once.\n" },
		{ &tp_send_lkey_cmd, "mlx4v send (qp_id) (len) (count) lkey (lkey)\n"
		  "    As above with another lkey in the data segments (error tests).\n" },
		{ &tp_cq_op, "mlx4v poll|arm|event (cq_id)\n"
		  "    poll: print and consume the CQEs through the view, update set_ci_db;\n"
		  "    arm: request an event for the next completion; event: wait up to\n"
		  "    100 ms for the CQ's event fd and take the event.\n" },
		{ &tp_list, "mlx4v list\n"
		  "    List testpmd's mlx4v devices and objects with their ids.\n" },
		{ NULL, NULL },
	},
};
TESTPMD_ADD_DRIVER_COMMANDS(mlx4v_cmds)
