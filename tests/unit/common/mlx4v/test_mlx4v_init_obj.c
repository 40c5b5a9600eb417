/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Unit tests of rte_pmd_mlx4v_init_obj() on the simulator: every field of every
 * view against the object and libmlx4's geometry, every EINVAL case, comp_mask
 * in/out, validation before writing, and the DV-owned CQ flag's effect.
 */

#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_malloc.h>

#include "test.h"

#include "mlx4v_test_util.h"
#include "mlx4v_verbs.h"

#define SIM_NAME "mlx4v_sim_obj0"

static struct rte_pmd_mlx4v_dev *g_dev;
static struct rte_pmd_mlx4v_pd *g_pd;
static struct mlx4v_sim *g_sim;

static int
obj_setup(void)
{
	if (rte_vdev_init(SIM_NAME, "ports=2") != 0)
		return TEST_FAILED;
	g_sim = mlx4v_sim_get(SIM_NAME);
	g_dev = rte_pmd_mlx4v_dev_open(SIM_NAME);
	if (g_sim == NULL || g_dev == NULL)
		return TEST_FAILED;
	g_pd = rte_pmd_mlx4v_alloc_pd(g_dev);
	return g_pd != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
obj_teardown(void)
{
	rte_pmd_mlx4v_dealloc_pd(g_pd);
	rte_pmd_mlx4v_dev_close(g_dev);
	rte_vdev_uninit(SIM_NAME);
}

/* Every field of a QP view against the object it came from. */
static int
check_qp_view(const struct mlx4dv_qp *v, const struct rte_pmd_mlx4v_qp *h)
{
	const struct mlx4v_qp *qp = (const struct mlx4v_qp *)h;

	TEST_ASSERT(v->buf.buf == qp->buf, "qp buf");
	TEST_ASSERT_EQUAL(v->buf.length, qp->buf_len, "qp buf length");
	TEST_ASSERT(v->rdb == qp->rdb, "qp rdb");
	TEST_ASSERT(v->sdb == qp->sdb, "qp sdb");
	TEST_ASSERT_EQUAL(v->doorbell_qpn, rte_cpu_to_be_32(qp->qpn << 8), "doorbell_qpn");
	TEST_ASSERT_EQUAL(v->sq.wqe_cnt, qp->sq.wqe_cnt, "sq.wqe_cnt");
	TEST_ASSERT_EQUAL(v->sq.wqe_shift, qp->sq.wqe_shift, "sq.wqe_shift");
	TEST_ASSERT_EQUAL(v->sq.offset, qp->sq.offset, "sq.offset");
	TEST_ASSERT_EQUAL(v->rq.wqe_cnt, qp->rq.wqe_cnt, "rq.wqe_cnt");
	TEST_ASSERT_EQUAL(v->rq.wqe_shift, qp->rq.wqe_shift, "rq.wqe_shift");
	TEST_ASSERT_EQUAL(v->rq.offset, qp->rq.offset, "rq.offset");
	/* EAL memory, page-aligned, and the sdb at +0x14 of its own page. */
	TEST_ASSERT(rte_mem_virt2memseg_list(v->buf.buf) != NULL, "QP ring not in EAL memory");
	TEST_ASSERT_EQUAL((uintptr_t)v->buf.buf % 4096, 0, "QP ring not page-aligned");
	TEST_ASSERT_EQUAL((uintptr_t)v->sdb % 4096, 0x14, "sdb not at UAR + 0x14");
	if (v->rdb != NULL)
		TEST_ASSERT(rte_mem_virt2memseg_list(v->rdb) != NULL, "rdb not in EAL memory");
	return TEST_SUCCESS;
}

static int
check_cq_view(const struct mlx4dv_cq *v, const struct rte_pmd_mlx4v_cq *h)
{
	const struct mlx4v_cq *cq = (const struct mlx4v_cq *)h;

	TEST_ASSERT(v->buf.buf == cq->buf, "cq buf");
	TEST_ASSERT_EQUAL(v->buf.length, cq->buf_len, "cq buf length");
	TEST_ASSERT_EQUAL(v->cqe_cnt, cq->cqe_cnt, "cqe_cnt");
	TEST_ASSERT_EQUAL(v->cqn, cq->cqn, "cqn");
	TEST_ASSERT(v->set_ci_db == cq->set_ci_db, "set_ci_db");
	TEST_ASSERT(v->arm_db == cq->arm_db, "arm_db");
	TEST_ASSERT(v->arm_db == v->set_ci_db + 1, "arm_db is dword 1 of the record");
	TEST_ASSERT_EQUAL(v->arm_sn, cq->arm_sn, "arm_sn");
	TEST_ASSERT_EQUAL(v->cqe_size, cq->cqe_size, "cqe_size");
	TEST_ASSERT(rte_mem_virt2memseg_list(v->buf.buf) != NULL, "CQ ring not in EAL memory");
	TEST_ASSERT(rte_mem_virt2memseg_list(v->set_ci_db) != NULL,
		    "CQ doorbell record not in EAL memory");
	TEST_ASSERT_EQUAL((uintptr_t)v->buf.buf % 4096, 0, "CQ ring not page-aligned");
	return TEST_SUCCESS;
}

static struct rte_pmd_mlx4v_qp *
make_qp(struct rte_pmd_mlx4v_cq *cq, struct rte_pmd_mlx4v_srq *srq, uint32_t swr,
	uint32_t ssge, uint32_t rwr, uint32_t rsge, uint32_t inl,
	struct rte_pmd_mlx4v_qp_attr *out)
{
	struct rte_pmd_mlx4v_qp_attr a = {
		.send_cq = cq, .recv_cq = cq, .srq = srq, .max_send_wr = swr,
		.max_recv_wr = rwr, .max_send_sge = ssge, .max_recv_sge = rsge,
		.max_inline_data = inl, .port = 1,
	};
	struct rte_pmd_mlx4v_qp *qp = rte_pmd_mlx4v_create_qp(g_pd, &a);

	if (out != NULL)
		*out = a;
	return qp;
}

struct qp_case {
	uint32_t swr, ssge, rwr, rsge, inl;
	int use_srq;
	/* libmlx4's answers */
	uint32_t sq_cnt;
	int sq_shift, sq_off;
	uint32_t rq_cnt;
	int rq_shift, rq_off;
	size_t len;
	uint32_t max_send_wr, max_send_sge, max_inline;
	uint32_t max_recv_sge;  /* the kernel's: roundup_pow_of_two(max(1, rsge)), 0 with an SRQ */
};

static const struct qp_case qp_cases[] = {
	/* 1 SGE: 48-byte WQE -> 64; 33 spare; RQ 16 B stride goes after the SQ. */
	{ 64, 1, 16, 1, 0, 0, 128, 6, 0, 16, 4, 8192, 12288, 95, 3, 44, 1 },
	/* 4 SGEs: 80 bytes -> 128; 17 spare; RQ 64 B < 128 B: SQ first. */
	{ 64, 4, 8, 4, 0, 0, 128, 7, 0, 8, 6, 16384, 20480, 111, 7, 104, 4 },
	/* 16 receive SGEs: RQ stride 256 > 64: RQ first. */
	{ 1, 1, 32, 16, 0, 0, 64, 6, 8192, 32, 8, 0, 12288, 31, 3, 44, 16 },
	/* Inline 128: 9 "SGEs" -> 160 bytes -> 256 stride; 9 spare. */
	{ 10, 1, 1, 1, 128, 0, 32, 8, 0, 1, 4, 8192, 12288, 23, 15, 224, 1 },
	/* With an SRQ: no RQ, no rdb; RQ shift 4 so SQ first. */
	{ 100, 2, 50, 7, 0, 1, 256, 6, 0, 0, 4, 16384, 16384, 223, 3, 44, 0 },
	/* Zero WRs: libmlx4 still gives one RQ WQE and the spare SQ WQEs. */
	{ 0, 0, 0, 0, 0, 0, 64, 6, 0, 1, 4, 4096, 8192, 31, 3, 44, 1 },
	/* 3 receive SGEs: a 64-byte stride, so 4 are granted (set_rq_size()). */
	{ 4, 1, 4, 3, 0, 0, 64, 6, 0, 4, 6, 4096, 8192, 31, 3, 44, 4 },
};

static int
test_mlx4v_obj_qp_view_fields(void)
{
	struct rte_pmd_mlx4v_srq *srq = rte_pmd_mlx4v_create_srq(g_pd, 64, 1);
	struct rte_pmd_mlx4v_cq *cq = rte_pmd_mlx4v_create_cq(g_dev, 64, 32, 0);
	struct rte_pmd_mlx4v_qp_attr got;
	struct rte_pmd_mlx4v_obj obj;
	struct rte_pmd_mlx4v_qp *qp;
	struct mlx4dv_qp v;
	unsigned int i;

	TEST_ASSERT_NOT_NULL(cq, "create_cq");
	TEST_ASSERT_NOT_NULL(srq, "create_srq");
	for (i = 0; i < RTE_DIM(qp_cases); i++) {
		const struct qp_case *c = &qp_cases[i];

		qp = make_qp(cq, c->use_srq ? srq : NULL, c->swr, c->ssge, c->rwr, c->rsge,
			     c->inl, &got);
		TEST_ASSERT_NOT_NULL(qp, "case %u: create_qp: %s", i, rte_strerror(rte_errno));
		memset(&v, 0xa5, sizeof(v));
		v.comp_mask = MLX4DV_QP_MASK_UAR_MMAP_OFFSET;
		memset(&obj, 0, sizeof(obj));
		obj.qp.in = qp;
		obj.qp.out = &v;
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP), "init_obj");
		TEST_ASSERT_SUCCESS(check_qp_view(&v, qp), "case %u: view vs object", i);
		TEST_ASSERT_EQUAL(v.sq.wqe_cnt, c->sq_cnt, "case %u: sq.wqe_cnt %u", i,
				  v.sq.wqe_cnt);
		TEST_ASSERT_EQUAL(v.sq.wqe_shift, c->sq_shift, "case %u: sq.wqe_shift %d", i,
				  v.sq.wqe_shift);
		TEST_ASSERT_EQUAL(v.sq.offset, c->sq_off, "case %u: sq.offset", i);
		TEST_ASSERT_EQUAL(v.rq.wqe_cnt, c->rq_cnt, "case %u: rq.wqe_cnt %u", i,
				  v.rq.wqe_cnt);
		TEST_ASSERT_EQUAL(v.rq.wqe_shift, c->rq_shift, "case %u: rq.wqe_shift", i);
		TEST_ASSERT_EQUAL(v.rq.offset, c->rq_off, "case %u: rq.offset %d", i,
				  v.rq.offset);
		TEST_ASSERT_EQUAL(v.buf.length, c->len, "case %u: length %zu", i, v.buf.length);
		TEST_ASSERT_EQUAL(got.max_send_wr, c->max_send_wr, "case %u: max_send_wr %u", i,
				  got.max_send_wr);
		TEST_ASSERT_EQUAL(got.max_send_sge, c->max_send_sge, "case %u: max_send_sge", i);
		TEST_ASSERT_EQUAL(got.max_inline_data, c->max_inline, "case %u: inline %u", i,
				  got.max_inline_data);
		TEST_ASSERT_EQUAL(got.max_recv_sge, c->max_recv_sge, "case %u: max_recv_sge %u",
				  i, got.max_recv_sge);
		TEST_ASSERT(c->use_srq ? v.rdb == NULL : v.rdb != NULL, "case %u: rdb", i);
		if (v.rdb != NULL)
			TEST_ASSERT_EQUAL(*v.rdb, 0, "case %u: *rdb starts at 0", i);
		/* comp_mask asked for the UAR offset: filled (always 0) and reported. */
		TEST_ASSERT_EQUAL(v.comp_mask, MLX4DV_QP_MASK_UAR_MMAP_OFFSET, "qp comp_mask");
		TEST_ASSERT_EQUAL(v.uar_mmap_offset, 0, "uar_mmap_offset");
		{
			struct mlx4v_test_sq s = { .v = v };
			uint32_t n;

			/* The ring is zeroed until RESET->INIT initialises SQ ownership. */
			TEST_ASSERT_EQUAL(mlx4v_test_sq_wqe(&s, 0)->owner_opcode, 0,
					  "SQ owner before INIT");
			TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_INIT),
					    "INIT");

			for (n = 0; n < v.sq.wqe_cnt; n++) {
				struct mlx4_wqe_ctrl_seg *ctrl = mlx4v_test_sq_wqe(&s, n);
				uint32_t *w = (uint32_t *)ctrl;

				TEST_ASSERT_EQUAL(ctrl->owner_opcode, rte_cpu_to_be_32(1u << 31),
						  "case %u: WQE %u owner", i, n);
				TEST_ASSERT_EQUAL(ctrl->fence_size, 1 << (v.sq.wqe_shift - 4),
						  "case %u: WQE %u fence_size", i, n);
				if (v.sq.wqe_shift > 6)
					TEST_ASSERT_EQUAL(w[16], 0xffffffff,
							  "case %u: WQE %u stamp", i, n);
			}
		}
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "destroy_qp");
	}
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_srq(srq), "destroy_srq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy_cq");
	return TEST_SUCCESS;
}

static int
test_mlx4v_obj_cq_view_fields(void)
{
	static const struct { int cqe, size; uint32_t cnt; size_t len; } c[] = {
		{ 1, 32, 2, 4096 }, { 127, 32, 128, 4096 }, { 128, 32, 256, 8192 },
		{ 100, 64, 128, 8192 }, { 1000, 0, 1024, 65536 },
	};
	struct rte_pmd_mlx4v_obj obj;
	struct rte_pmd_mlx4v_cq *cq;
	struct mlx4dv_cq v;
	unsigned int i;

	for (i = 0; i < RTE_DIM(c); i++) {
		cq = rte_pmd_mlx4v_create_cq(g_dev, c[i].cqe, c[i].size, 0);
		TEST_ASSERT_NOT_NULL(cq, "create_cq %d", c[i].cqe);
		memset(&v, 0xa5, sizeof(v));
		v.comp_mask = MLX4DV_CQ_MASK_UAR | 0xf0;   /* unknown bits are dropped */
		memset(&obj, 0, sizeof(obj));
		obj.cq.in = cq;
		obj.cq.out = &v;
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ), "init_obj");
		TEST_ASSERT_SUCCESS(check_cq_view(&v, cq), "case %u", i);
		TEST_ASSERT_EQUAL(v.cqe_cnt, c[i].cnt, "case %u: cqe_cnt %u", i, v.cqe_cnt);
		TEST_ASSERT_EQUAL(v.cqe_size, (c[i].size ? c[i].size : 64), "case %u: cqe_size", i);
		TEST_ASSERT_EQUAL(v.buf.length, c[i].len, "case %u: length %zu", i,
				  v.buf.length);
		TEST_ASSERT_EQUAL(v.arm_sn, 1, "arm_sn starts at 1");
		TEST_ASSERT_EQUAL(*v.set_ci_db, 0, "*set_ci_db");
		TEST_ASSERT_EQUAL(*v.arm_db, 0, "*arm_db");
		TEST_ASSERT_EQUAL(v.comp_mask, MLX4DV_CQ_MASK_UAR, "cq comp_mask out");
		TEST_ASSERT(v.cq_uar == ((struct mlx4v_cq *)cq)->uar, "cq_uar");
		TEST_ASSERT_EQUAL((uintptr_t)v.cq_uar % 4096, 0, "cq_uar is a page");
		TEST_ASSERT(v.cq_uar != NULL, "cq_uar");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy_cq");
	}
	/* Without the UAR bit: cq_uar untouched and the output mask 0. */
	cq = rte_pmd_mlx4v_create_cq(g_dev, 8, 32, 0);
	TEST_ASSERT_NOT_NULL(cq, "create_cq");
	memset(&v, 0xa5, sizeof(v));
	v.comp_mask = 0;
	obj.cq.in = cq;
	obj.cq.out = &v;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ), "init_obj");
	TEST_ASSERT_EQUAL(v.comp_mask, 0, "mask out");
	TEST_ASSERT_EQUAL((uintptr_t)v.cq_uar, (uintptr_t)0xa5a5a5a5a5a5a5a5ull,
			  "cq_uar written without being asked for");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy_cq");
	return TEST_SUCCESS;
}

static int
test_mlx4v_obj_srq_view_fields(void)
{
	struct rte_pmd_mlx4v_obj obj;
	struct rte_pmd_mlx4v_srq *srq;
	struct mlx4dv_srq v;
	uint32_t i, j;

	srq = rte_pmd_mlx4v_create_srq(g_pd, 100, 3);
	TEST_ASSERT_NOT_NULL(srq, "create_srq");
	memset(&v, 0xa5, sizeof(v));
	memset(&obj, 0, sizeof(obj));
	obj.srq.in = srq;
	obj.srq.out = &v;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_SRQ), "init_obj");
	{
		const struct mlx4v_srq *s = (const struct mlx4v_srq *)srq;

		TEST_ASSERT(v.buf.buf == s->buf, "buf");
		TEST_ASSERT_EQUAL(v.buf.length, s->buf_len, "length");
		TEST_ASSERT_EQUAL(v.wqe_shift, s->wqe_shift, "wqe_shift");
		TEST_ASSERT_EQUAL(v.head, s->head, "head");
		TEST_ASSERT_EQUAL(v.tail, s->tail, "tail");
		TEST_ASSERT(v.db == s->db, "db");
	}
	/* max = roundup(100 + 1) = 128; 16 + 3 * 16 = 64 bytes -> shift 6. */
	TEST_ASSERT_EQUAL(v.wqe_shift, 6, "wqe_shift %d", v.wqe_shift);
	TEST_ASSERT_EQUAL(v.head, 0, "head");
	TEST_ASSERT_EQUAL(v.tail, 127, "tail");
	TEST_ASSERT_EQUAL(v.buf.length, 8192, "length");
	TEST_ASSERT_EQUAL(*v.db, 0, "*db");
	TEST_ASSERT_EQUAL(v.comp_mask, 0, "srq comp_mask is always 0");
	TEST_ASSERT(rte_mem_virt2memseg_list(v.db) != NULL, "SRQ db not in EAL memory");
	for (i = 0; i < 128; i++) {
		uint8_t *w = (uint8_t *)v.buf.buf + (i << v.wqe_shift);
		struct mlx4_wqe_srq_next_seg *next = (struct mlx4_wqe_srq_next_seg *)w;
		struct mlx4_wqe_data_seg *d = (struct mlx4_wqe_data_seg *)(next + 1);

		TEST_ASSERT_EQUAL(rte_be_to_cpu_16(next->next_wqe_index), ((i + 1) & 127u),
				  "free list link of WQE %u: %u", i,
				  rte_be_to_cpu_16(next->next_wqe_index));
		for (j = 0; j < 3; j++)
			TEST_ASSERT_EQUAL(d[j].lkey, rte_cpu_to_be_32(0x100),
					  "WQE %u scatter %u lkey", i, j);
	}
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_srq(srq), "destroy_srq");
	return TEST_SUCCESS;
}

static int
test_mlx4v_obj_rwq_view_fields(void)
{
	static const struct { uint32_t wr, sge, cnt; int shift, off; size_t len; uint32_t gsge; }
	c[] = {
		{ 100, 1, 128, 4, 64, 4096, 1 },    /* RQ stride 16 <= 64: after the dummy SQ */
		{ 16, 8, 16, 7, 0, 4096, 8 },       /* stride 128 > 64: RQ first */
		{ 0, 0, 1, 4, 64, 4096, 1 },        /* at least one WR and one SGE */
		{ 1000, 4, 1024, 6, 64, 69632, 4 },      /* equal strides: dummy SQ first */
		{ 16, 3, 16, 6, 64, 4096, 4 },      /* 3 SGEs granted as 4, a whole stride */
	};
	struct rte_pmd_mlx4v_cq *cq = rte_pmd_mlx4v_create_cq(g_dev, 16, 32, 0);
	struct rte_pmd_mlx4v_wq_attr a;
	struct rte_pmd_mlx4v_obj obj;
	struct rte_pmd_mlx4v_wq *wq;
	struct mlx4_wqe_ctrl_seg *dummy;
	struct mlx4dv_rwq v;
	unsigned int i;

	TEST_ASSERT_NOT_NULL(cq, "create_cq");
	for (i = 0; i < RTE_DIM(c); i++) {
		a = (struct rte_pmd_mlx4v_wq_attr){ .cq = cq, .max_wr = c[i].wr,
			.max_sge = c[i].sge, .port = 1 };
		wq = rte_pmd_mlx4v_create_wq(g_pd, &a);
		TEST_ASSERT_NOT_NULL(wq, "case %u: create_wq", i);
		memset(&v, 0xa5, sizeof(v));
		memset(&obj, 0, sizeof(obj));
		obj.rwq.in = wq;
		obj.rwq.out = &v;
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_RWQ), "init_obj");
		{
			const struct mlx4v_wq *w = (const struct mlx4v_wq *)wq;

			TEST_ASSERT(v.buf.buf == w->buf, "buf");
			TEST_ASSERT_EQUAL(v.buf.length, w->buf_len, "length");
			TEST_ASSERT(v.rdb == w->rdb, "rdb");
			TEST_ASSERT_EQUAL(v.rq.wqe_cnt, w->rq.wqe_cnt, "wqe_cnt");
			TEST_ASSERT_EQUAL(v.rq.wqe_shift, w->rq.wqe_shift, "wqe_shift");
			TEST_ASSERT_EQUAL(v.rq.offset, w->rq.offset, "offset");
			dummy = (struct mlx4_wqe_ctrl_seg *)((uint8_t *)w->buf + w->sq.offset);
		}
		TEST_ASSERT_EQUAL(v.rq.wqe_cnt, c[i].cnt, "case %u: wqe_cnt %u", i, v.rq.wqe_cnt);
		TEST_ASSERT_EQUAL(a.max_wr, c[i].cnt, "case %u: granted max_wr", i);
		TEST_ASSERT_EQUAL(a.max_sge, c[i].gsge, "case %u: granted max_sge %u", i,
				  a.max_sge);
		TEST_ASSERT_EQUAL(v.rq.wqe_shift, c[i].shift, "case %u: shift", i);
		TEST_ASSERT_EQUAL(v.rq.offset, c[i].off, "case %u: offset %d", i, v.rq.offset);
		TEST_ASSERT_EQUAL(v.buf.length, c[i].len, "case %u: length %zu", i, v.buf.length);
		TEST_ASSERT_EQUAL(v.comp_mask, 0, "rwq comp_mask is always 0");
		TEST_ASSERT_EQUAL(*v.rdb, 0, "*rdb");
		/* libmlx4 initialises the dummy SQ's ownership at create. */
		TEST_ASSERT_EQUAL(dummy->owner_opcode, rte_cpu_to_be_32(1u << 31), "dummy owner");
		TEST_ASSERT_EQUAL(dummy->fence_size, 4, "dummy fence_size");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(wq), "destroy_wq");
	}
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy_cq");
	return TEST_SUCCESS;
}

/* Every EINVAL case leaves all outputs untouched and sets errno/rte_errno. */
static int
test_mlx4v_obj_einval(void)
{
	struct rte_pmd_mlx4v_cq *cq = rte_pmd_mlx4v_create_cq(g_dev, 8, 32, 0);
	struct rte_pmd_mlx4v_cq *dead = rte_pmd_mlx4v_create_cq(g_dev, 8, 32, 0);
	struct rte_pmd_mlx4v_qp *qp = make_qp(cq, NULL, 4, 1, 4, 1, 0, NULL);
	struct mlx4dv_qp vqp, rqp;
	struct mlx4dv_cq vcq, rcq;
	struct mlx4dv_srq vsrq;
	struct mlx4dv_rwq vrwq;
	struct rte_pmd_mlx4v_obj obj;
	int stack_garbage[16];
	unsigned int i;
	struct {
		const char *what;
		uint64_t type;
		int field;      /* 0 qp.in, 1 qp.out, 2 cq.in, 3 cq.out, 4 srq.in, ... */
		void *val;
	} c[] = {
		{ "unknown bit 4", MLX4DV_OBJ_QP | (1u << 4), -1, NULL },
		{ "unknown bit 63", MLX4DV_OBJ_CQ | (1ull << 63), -1, NULL },
		{ "qp.in NULL", MLX4DV_OBJ_QP, 0, NULL },
		{ "qp.out NULL", MLX4DV_OBJ_QP, 1, NULL },
		{ "cq.in NULL", MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ, 2, NULL },
		{ "cq.out NULL", MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ, 3, NULL },
		{ "srq.in NULL", MLX4DV_OBJ_QP | MLX4DV_OBJ_SRQ, 4, NULL },
		{ "srq.out NULL", MLX4DV_OBJ_CQ | MLX4DV_OBJ_SRQ, 5, NULL },
		{ "rwq.in NULL", MLX4DV_OBJ_QP | MLX4DV_OBJ_RWQ, 6, NULL },
		{ "rwq.out NULL", MLX4DV_OBJ_CQ | MLX4DV_OBJ_RWQ, 7, NULL },
		{ "CQ given as QP", MLX4DV_OBJ_QP, 0, cq },
		{ "QP given as CQ", MLX4DV_OBJ_CQ, 2, qp },
		{ "QP given as SRQ", MLX4DV_OBJ_SRQ, 4, qp },
		{ "CQ given as RWQ", MLX4DV_OBJ_RWQ, 6, cq },
		{ "garbage as QP", MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ, 0, stack_garbage },
		{ "destroyed CQ", MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ, 2, dead },
	};

	TEST_ASSERT(cq != NULL && dead != NULL && qp != NULL, "objects");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(dead), "destroy");
	memset(stack_garbage, 0x5a, sizeof(stack_garbage));
	errno = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(NULL, MLX4DV_OBJ_QP), EINVAL, "obj NULL");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno");
	for (i = 0; i < RTE_DIM(c); i++) {
		memset(&vqp, 0x11, sizeof(vqp));
		memset(&vcq, 0x22, sizeof(vcq));
		memset(&vsrq, 0x33, sizeof(vsrq));
		memset(&vrwq, 0x44, sizeof(vrwq));
		rqp = vqp;
		rcq = vcq;
		obj.qp.in = qp;
		obj.qp.out = &vqp;
		obj.cq.in = cq;
		obj.cq.out = &vcq;
		obj.srq.in = NULL;
		obj.srq.out = &vsrq;
		obj.rwq.in = NULL;
		obj.rwq.out = &vrwq;
		switch (c[i].field) {
		case 0: obj.qp.in = c[i].val; break;
		case 1: obj.qp.out = c[i].val; break;
		case 2: obj.cq.in = c[i].val; break;
		case 3: obj.cq.out = c[i].val; break;
		case 4: obj.srq.in = c[i].val; break;
		case 5: obj.srq.out = c[i].val; break;
		case 6: obj.rwq.in = c[i].val; break;
		case 7: obj.rwq.out = c[i].val; break;
		default: break;
		}
		rte_errno = 0;
		TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, c[i].type), EINVAL, "%s", c[i].what);
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "%s: rte_errno", c[i].what);
		/* Validation happens before anything is written. */
		TEST_ASSERT_BUFFERS_ARE_EQUAL(&vqp, &rqp, sizeof(vqp), "%s: QP out written",
					      c[i].what);
		TEST_ASSERT_BUFFERS_ARE_EQUAL(&vcq, &rcq, sizeof(vcq), "%s: CQ out written",
					      c[i].what);
	}
	/* The failed calls above requested the CQ: it must not have become DV-owned. */
	TEST_ASSERT_EQUAL((((struct mlx4v_cq *)cq)->flags & MLX4V_CQ_F_DV_OWNED), 0u,
			  "failed init_obj marked the CQ DV-owned");
	/* obj_type 0 does nothing, as upstream. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, 0), "type 0");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "destroy_qp");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy_cq");
	return TEST_SUCCESS;
}

/* All four types in one call; only requested pairs are read; comp_mask in/out. */
static int
test_mlx4v_obj_all_types_and_masks(void)
{
	struct rte_pmd_mlx4v_cq *cq = rte_pmd_mlx4v_create_cq(g_dev, 8, 64, 0);
	struct rte_pmd_mlx4v_srq *srq = rte_pmd_mlx4v_create_srq(g_pd, 8, 1);
	struct rte_pmd_mlx4v_qp *qp = make_qp(cq, srq, 4, 1, 0, 0, 0, NULL);
	struct rte_pmd_mlx4v_wq_attr wa = { .cq = cq, .max_wr = 8, .max_sge = 1, .port = 2 };
	struct rte_pmd_mlx4v_wq *wq = rte_pmd_mlx4v_create_wq(g_pd, &wa);
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_qp vqp;
	struct mlx4dv_cq vcq;
	struct mlx4dv_srq vsrq;
	struct mlx4dv_rwq vrwq;

	TEST_ASSERT(cq && srq && qp && wq, "objects");
	memset(&vqp, 0xa5, sizeof(vqp));
	memset(&vcq, 0xa5, sizeof(vcq));
	memset(&vsrq, 0xa5, sizeof(vsrq));
	memset(&vrwq, 0xa5, sizeof(vrwq));
	vqp.comp_mask = 0xfe;   /* only unknown bits: nothing filled, mask out 0 */
	vcq.comp_mask = MLX4DV_CQ_MASK_UAR;
	vsrq.comp_mask = ~0ull; /* ignored */
	vrwq.comp_mask = ~0ull; /* ignored */
	obj = (struct rte_pmd_mlx4v_obj){ .qp = { qp, &vqp }, .cq = { cq, &vcq },
		.srq = { srq, &vsrq }, .rwq = { wq, &vrwq } };
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_RWQ | MLX4DV_OBJ_QP |
						   MLX4DV_OBJ_SRQ | MLX4DV_OBJ_CQ), "all four");
	TEST_ASSERT_SUCCESS(check_qp_view(&vqp, qp), "qp");
	TEST_ASSERT_SUCCESS(check_cq_view(&vcq, cq), "cq");
	TEST_ASSERT_EQUAL(vqp.comp_mask, 0, "qp mask out");
	TEST_ASSERT_EQUAL((uint64_t)vqp.uar_mmap_offset, 0xa5a5a5a5a5a5a5a5ull,
			  "uar_mmap_offset written without being asked for");
	TEST_ASSERT_EQUAL(vcq.comp_mask, MLX4DV_CQ_MASK_UAR, "cq mask out");
	TEST_ASSERT_EQUAL(vcq.cqe_size, 64, "cqe_size");
	TEST_ASSERT_EQUAL(vsrq.comp_mask, 0, "srq mask out");
	TEST_ASSERT_EQUAL(vrwq.comp_mask, 0, "rwq mask out");
	TEST_ASSERT(vqp.rdb == NULL && vqp.rq.wqe_cnt == 0, "QP on an SRQ has no RQ");
	TEST_ASSERT(((struct mlx4v_cq *)cq)->flags & MLX4V_CQ_F_DV_OWNED, "CQ DV-owned");
	/* Only requested pairs are read: garbage in the others is fine. */
	obj.srq.in = (void *)(uintptr_t)1;
	obj.rwq.out = NULL;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP), "QP only");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(wq), "destroy_wq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "destroy_qp");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_srq(srq), "destroy_srq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy_cq");
	return TEST_SUCCESS;
}

/*
 * Two QPs share one CQ; QP A completes 3 sends, QP B one in the middle. Destroying A
 * must remove A's CQEs and advance the CI when the CQ is ours (libmlx4 cq_clean),
 * and leave ring and *set_ci_db byte-identical once the CQ was handed out as a view.
 */
static int
dv_owned_case(int dv)
{
	struct rte_pmd_mlx4v_cq *cq = rte_pmd_mlx4v_create_cq(g_dev, 15, 32, 0);
	struct rte_pmd_mlx4v_qp *qa = make_qp(cq, NULL, 8, 1, 1, 1, 0, NULL);
	struct rte_pmd_mlx4v_qp *qb = make_qp(cq, NULL, 8, 1, 1, 1, 0, NULL);
	uint8_t *data = rte_zmalloc(NULL, 4096, 64);
	struct rte_pmd_mlx4v_mr *mr = rte_pmd_mlx4v_reg_mr(g_pd, data, 4096);
	struct mlx4v_test_sq sa, sb;
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4v_sim_stats st;
	struct mlx4dv_qp va, vb;
	struct mlx4dv_cq vcq;
	uint8_t *ring_copy = NULL;
	uint32_t lkey, qpn_a, qpn_b, ci_before = 0;
	int i, ret = TEST_FAILED;
	uint64_t cqes0;

	TEST_ASSERT(cq && qa && qb && data && mr, "objects");
	rte_pmd_mlx4v_mr_lkey(mr, &lkey);
	rte_pmd_mlx4v_qp_num(qa, &qpn_a);
	rte_pmd_mlx4v_qp_num(qb, &qpn_b);
	memset(&obj, 0, sizeof(obj));
	va.comp_mask = vb.comp_mask = 0;
	obj.qp.in = qa;
	obj.qp.out = &va;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP), "view A");
	obj.qp.in = qb;
	obj.qp.out = &vb;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP), "view B");
	mlx4v_test_sq_init(&sa, &va);
	mlx4v_test_sq_init(&sb, &vb);
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qa, i + 1), "A state %d", i + 1);
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qb, i + 1), "B state %d", i + 1);
	}
	if (dv) {
		vcq.comp_mask = 0;
		obj.cq.in = cq;
		obj.cq.out = &vcq;
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ), "view CQ");
	}
	mlx4v_sim_stats_get(g_sim, &st);
	cqes0 = st.cqes;
	/* A, A, B, A: one at a time so the CQE order is known. */
	for (i = 0; i < 4; i++) {
		int j;

		mlx4v_test_sq_send(i == 2 ? &sb : &sa, lkey, data, 64, 1);
		for (j = 0; j < MLX4V_TEST_POLLS; j++) {
			mlx4v_sim_poll(g_sim);
			mlx4v_sim_stats_get(g_sim, &st);
			if (st.cqes == cqes0 + i + 1)
				break;
			rte_delay_us_sleep(MLX4V_TEST_POLL_US);
		}
		TEST_ASSERT_EQUAL(st.cqes, cqes0 + i + 1, "CQE %d not written", i);
	}
	{
		struct mlx4v_cq *c = (struct mlx4v_cq *)cq;

		ring_copy = rte_malloc(NULL, c->buf_len, 0);
		TEST_ASSERT_NOT_NULL(ring_copy, "copy");
		memcpy(ring_copy, c->buf, c->buf_len);
		ci_before = *c->set_ci_db;
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qa), "destroy A");
		qa = NULL;
		if (dv) {
			TEST_ASSERT_BUFFERS_ARE_EQUAL(c->buf, ring_copy, c->buf_len,
						      "DV-owned ring changed by destroy");
			TEST_ASSERT_EQUAL(*c->set_ci_db, ci_before, "DV-owned CI changed");
			TEST_ASSERT_EQUAL(c->cons_index, 0, "DV-owned cons_index changed");
		} else {
			struct mlx4v_test_cq t;
			struct mlx4_cqe *e;

			/* Three of A's CQEs removed; B's copied to the slot before the end. */
			TEST_ASSERT_EQUAL(*c->set_ci_db, rte_cpu_to_be_32(3), "CI not advanced");
			TEST_ASSERT_EQUAL(c->cons_index, 3, "cons_index");
			t.v.buf.buf = c->buf;
			t.v.cqe_cnt = c->cqe_cnt;
			t.v.cqe_size = c->cqe_size;
			t.ci = 3;
			e = mlx4v_test_cq_peek(&t);
			TEST_ASSERT_NOT_NULL(e, "B's CQE not software-owned at CI 3");
			TEST_ASSERT_EQUAL((rte_be_to_cpu_32(e->vlan_my_qpn) & 0xffffff), qpn_b,
					  "CQE at CI is not B's: qpn 0x%x A 0x%x B 0x%x",
					  rte_be_to_cpu_32(e->vlan_my_qpn), qpn_a, qpn_b);
			t.ci = 4;
			TEST_ASSERT_NULL(mlx4v_test_cq_peek(&t), "extra CQE after B's");
		}
	}
	ret = TEST_SUCCESS;
	rte_free(ring_copy);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qb), "destroy B");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dereg_mr(mr), "dereg");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy cq");
	rte_free(data);
	return ret;
}

static int
test_mlx4v_obj_cq_clean_when_not_dv(void)
{
	return dv_owned_case(0);
}

static int
test_mlx4v_obj_dv_owned_cq_untouched(void)
{
	return dv_owned_case(1);
}

static struct unit_test_suite mlx4v_obj_suite = {
	.suite_name = "mlx4v init_obj",
	.setup = obj_setup,
	.teardown = obj_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx4v_obj_qp_view_fields),
		TEST_CASE(test_mlx4v_obj_cq_view_fields),
		TEST_CASE(test_mlx4v_obj_srq_view_fields),
		TEST_CASE(test_mlx4v_obj_rwq_view_fields),
		TEST_CASE(test_mlx4v_obj_einval),
		TEST_CASE(test_mlx4v_obj_all_types_and_masks),
		TEST_CASE(test_mlx4v_obj_cq_clean_when_not_dv),
		TEST_CASE(test_mlx4v_obj_dv_owned_cq_untouched),
		TEST_CASES_END()
	}
};

static int
test_mlx4v_obj(void)
{
	return unit_test_suite_runner(&mlx4v_obj_suite);
}

REGISTER_TEST_COMMAND(mlx4v_obj_autotest, test_mlx4v_obj);
