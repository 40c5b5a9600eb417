/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Unit tests of the mlx4v objects on the simulator: lifecycles, bad input, double
 * destroy, objects of another device, failure injection per create step, device
 * removal with objects still open, and EAL heap plus device live-object counters
 * back to their start.
 */

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_mempool.h>

#include "test.h"

#include "mlx4v_api.h"
#include "mlx4v_test_util.h"
#include "mlx4v_verbs.h"

#define SIM_NAME "mlx4v_sim_o0"
#define SIM2_NAME "mlx4v_sim_o1"
#define SIM3_NAME "mlx4v_sim_o2"    /* created and removed by the removal tests */
#define SIM4_NAME "mlx4v_sim_o3"    /* created and removed by the platform-mode tests */
#define RM_BUF 2048

static struct rte_pmd_mlx4v_dev *g_dev;
static struct mlx4v_sim *g_sim;

static int
objects_setup(void)
{
	if (rte_vdev_init(SIM_NAME, "ports=2") != 0 || rte_vdev_init(SIM2_NAME, NULL) != 0)
		return TEST_FAILED;
	g_sim = mlx4v_sim_get(SIM_NAME);
	g_dev = rte_pmd_mlx4v_dev_open(SIM_NAME);
	return g_sim != NULL && g_dev != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
objects_teardown(void)
{
	rte_pmd_mlx4v_dev_close(g_dev);
	rte_vdev_uninit(SIM2_NAME);
	rte_vdev_uninit(SIM_NAME);
}

static int
live_zero(struct mlx4v_sim *sim)
{
	int k;

	for (k = 0; k < MLX4V_SIM_OBJ_MAX; k++)
		TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(sim, k), 0u,
				  "%u objects of kind %d live in the device",
				  mlx4v_sim_live_objects(sim, k), k);
	return TEST_SUCCESS;
}

/* One of everything, then torn down in reverse: counters and heap back to start. */
static int
test_mlx4v_objects_lifecycle_no_leak(void)
{
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 32, .max_recv_wr = 16,
		.max_send_sge = 2, .max_recv_sge = 2, .port = 1 };
	struct rte_pmd_mlx4v_wq_attr wa = { .max_wr = 16, .max_sge = 1, .port = 2 };
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_mr *mr;
	struct rte_pmd_mlx4v_cq *cq, *ecq;
	struct rte_pmd_mlx4v_srq *srq;
	struct rte_pmd_mlx4v_qp *qp, *qp2;
	struct rte_pmd_mlx4v_wq *wq;
	size_t heap0;
	void *mem;
	int round, s;

	for (round = 0; round < 2; round++) {
		heap0 = ut_heap_bytes(NULL);
		mem = rte_zmalloc(NULL, 65536, 4096);
		pd = rte_pmd_mlx4v_alloc_pd(g_dev);
		TEST_ASSERT(mem != NULL && pd != NULL, "pd");
		mr = rte_pmd_mlx4v_reg_mr(pd, mem, 65536);
		cq = rte_pmd_mlx4v_create_cq(g_dev, 64, 32, 0);
		ecq = rte_pmd_mlx4v_create_cq(g_dev, 64, 64, 1);
		srq = rte_pmd_mlx4v_create_srq(pd, 32, 2);
		TEST_ASSERT(mr && cq && ecq && srq, "mr/cq/srq");
		qa.send_cq = cq;
		qa.recv_cq = ecq;
		qa.srq = NULL;
		qp = rte_pmd_mlx4v_create_qp(pd, &qa);
		qa.srq = srq;
		qp2 = rte_pmd_mlx4v_create_qp(pd, &qa);
		wa.cq = ecq;
		wq = rte_pmd_mlx4v_create_wq(pd, &wa);
		TEST_ASSERT(qp && qp2 && wq, "qp/wq");
		TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, MLX4V_SIM_OBJ_QP), 2u, "QPs");
		for (s = RTE_PMD_MLX4V_QPS_INIT; s <= RTE_PMD_MLX4V_QPS_RTS; s++)
			TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, s), "qp state %d", s);
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_ERR), "ERR");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_RESET), "RESET");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_RDY), "RDY");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_RESET), "RESET");
		/* In-use objects refuse to go. */
		TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_cq(ecq), EBUSY, "CQ used by QP/WQ");
		TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_srq(srq), EBUSY, "SRQ used by QP");
		TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dealloc_pd(pd), EBUSY, "PD in use");
		TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dev_close(g_dev), EBUSY, "handle with objects");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(wq), "destroy wq");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp2), "destroy qp2");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "destroy qp");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_srq(srq), "destroy srq");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(ecq), "destroy ecq");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy cq");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dereg_mr(mr), "dereg");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
		rte_free(mem);
		TEST_ASSERT_SUCCESS(live_zero(g_sim), "device objects leaked");
		TEST_ASSERT_EQUAL(ut_heap_bytes(NULL), heap0, "EAL heap leaked %zd bytes",
				  (ssize_t)(ut_heap_bytes(NULL) - heap0));
	}
	return TEST_SUCCESS;
}

/* NULL and out-of-range input to every create call: EINVAL, errno and rte_errno. */
static int
test_mlx4v_objects_bad_input(void)
{
	struct rte_pmd_mlx4v_pd *pd = rte_pmd_mlx4v_alloc_pd(g_dev);
	struct rte_pmd_mlx4v_cq *cq = rte_pmd_mlx4v_create_cq(g_dev, 8, 32, 0);
	struct rte_pmd_mlx4v_qp_attr qa;
	struct rte_pmd_mlx4v_wq_attr wa;
	size_t heap0 = ut_heap_bytes(NULL);
	char junk[64];
	uint32_t u;
	unsigned int i;
	static const int bad_cqe[][2] = { { 0, 32 }, { -1, 32 }, { 0x400000, 32 }, { 8, 48 },
					  { 8, 128 } };

	TEST_ASSERT(pd != NULL && cq != NULL, "objects");
	heap0 = ut_heap_bytes(NULL);
	memset(junk, 0, sizeof(junk));
#define EXPECT_NULL(call, what) do { \
		errno = 0; \
		rte_errno = 0; \
		TEST_ASSERT_NULL(call, "%s", what); \
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "%s: rte_errno %d", what, rte_errno); \
		TEST_ASSERT_EQUAL(errno, EINVAL, "%s: errno", what); \
	} while (0)
#define EXPECT_EINVAL(call, what) do { \
		rte_errno = 0; \
		TEST_ASSERT_EQUAL(call, EINVAL, "%s", what); \
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "%s: rte_errno", what); \
	} while (0)
	EXPECT_NULL(rte_pmd_mlx4v_dev_open(NULL), "open NULL");
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_dev_open("mlx4v_nonexistent"), "open unknown");
	TEST_ASSERT_EQUAL(errno, ENODEV, "open unknown: ENODEV");
	EXPECT_EINVAL(rte_pmd_mlx4v_dev_close(NULL), "close NULL");
	EXPECT_EINVAL(rte_pmd_mlx4v_dev_close((void *)junk), "close junk");
	EXPECT_NULL(rte_pmd_mlx4v_alloc_pd(NULL), "pd NULL dev");
	EXPECT_NULL(rte_pmd_mlx4v_alloc_pd((void *)pd), "pd on a PD");
	EXPECT_EINVAL(rte_pmd_mlx4v_dealloc_pd(NULL), "dealloc NULL");
	EXPECT_NULL(rte_pmd_mlx4v_reg_mr(NULL, junk, 64), "mr NULL pd");
	EXPECT_NULL(rte_pmd_mlx4v_reg_mr(pd, NULL, 64), "mr NULL addr");
	EXPECT_NULL(rte_pmd_mlx4v_reg_mr(pd, junk, 0), "mr len 0");
	EXPECT_NULL(rte_pmd_mlx4v_reg_mr(pd, (void *)(uintptr_t)-64, 4096), "mr wraps");
	EXPECT_NULL(rte_pmd_mlx4v_reg_mempool(pd, NULL), "mempool NULL");
	EXPECT_EINVAL(rte_pmd_mlx4v_dereg_mr(NULL), "dereg NULL");
	EXPECT_EINVAL(rte_pmd_mlx4v_mr_lkey(NULL, &u), "lkey NULL");
	for (i = 0; i < RTE_DIM(bad_cqe); i++)
		EXPECT_NULL(rte_pmd_mlx4v_create_cq(g_dev, bad_cqe[i][0], bad_cqe[i][1], 0),
			    "bad cq");
	EXPECT_NULL(rte_pmd_mlx4v_create_cq(NULL, 8, 32, 0), "cq NULL dev");
	EXPECT_EINVAL(rte_pmd_mlx4v_destroy_cq(NULL), "destroy cq NULL");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_cq_event_fd(cq), -1, "event fd without events");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "event fd errno");
	EXPECT_EINVAL(rte_pmd_mlx4v_get_cq_event(cq), "get event without events");
	EXPECT_EINVAL(rte_pmd_mlx4v_ack_cq_events(cq, 1), "ack more than taken");
	EXPECT_NULL(rte_pmd_mlx4v_create_srq(pd, 65537, 1), "srq max_wr");
	EXPECT_NULL(rte_pmd_mlx4v_create_srq(pd, 8, 65), "srq max_sge");
	EXPECT_NULL(rte_pmd_mlx4v_create_srq(pd, 16384, 1), "srq max_wr over the caps");
	EXPECT_NULL(rte_pmd_mlx4v_create_srq(pd, 8, 32), "srq max_sge over the caps");
	EXPECT_NULL(rte_pmd_mlx4v_create_srq(NULL, 8, 1), "srq NULL pd");
	EXPECT_EINVAL(rte_pmd_mlx4v_destroy_srq(NULL), "destroy srq NULL");
	EXPECT_NULL(rte_pmd_mlx4v_create_qp(pd, NULL), "qp NULL attr");
	{
		static const struct { const char *what; int f; uint32_t v; } b[] = {
			{ "send_cq NULL", 0, 0 }, { "recv_cq NULL", 1, 0 }, { "port 0", 2, 0 },
			{ "port 3 of 2", 2, 3 }, { "send_wr", 3, 65537 }, { "recv_wr", 4, 65537 },
			{ "send_sge", 5, 65 }, { "recv_sge", 6, 65 }, { "inline", 7, 1025 },
			/* A ConnectX-3's caps, not libmlx4's fallback 65536 / 64. */
			{ "send_wr > caps", 3, 16352 }, { "recv_wr > caps", 4, 16352 },
			{ "send_sge > caps", 5, 33 }, { "recv_sge > caps", 6, 33 },
			{ "srq junk", 8, 0 },
		};

		for (i = 0; i < RTE_DIM(b); i++) {
			qa = (struct rte_pmd_mlx4v_qp_attr){ .send_cq = cq, .recv_cq = cq,
				.max_send_wr = 4, .max_recv_wr = 4, .port = 1 };
			switch (b[i].f) {
			case 0: qa.send_cq = NULL; break;
			case 1: qa.recv_cq = NULL; break;
			case 2: qa.port = b[i].v; break;
			case 3: qa.max_send_wr = b[i].v; break;
			case 4: qa.max_recv_wr = b[i].v; break;
			case 5: qa.max_send_sge = b[i].v; break;
			case 6: qa.max_recv_sge = b[i].v; break;
			case 7: qa.max_inline_data = b[i].v; break;
			default: qa.srq = (void *)junk; break;
			}
			EXPECT_NULL(rte_pmd_mlx4v_create_qp(pd, &qa), b[i].what);
		}
	}
	EXPECT_EINVAL(rte_pmd_mlx4v_destroy_qp(NULL), "destroy qp NULL");
	EXPECT_EINVAL(rte_pmd_mlx4v_modify_qp(NULL, RTE_PMD_MLX4V_QPS_INIT), "modify NULL");
	EXPECT_EINVAL(rte_pmd_mlx4v_qp_num(NULL, &u), "qp_num NULL");
	wa = (struct rte_pmd_mlx4v_wq_attr){ .cq = NULL, .max_wr = 4, .max_sge = 1, .port = 1 };
	EXPECT_NULL(rte_pmd_mlx4v_create_wq(pd, &wa), "wq NULL cq");
	wa.cq = cq;
	wa.max_wr = 65537;
	EXPECT_NULL(rte_pmd_mlx4v_create_wq(pd, &wa), "wq max_wr");
	wa.max_wr = 4;
	wa.max_sge = 65;
	EXPECT_NULL(rte_pmd_mlx4v_create_wq(pd, &wa), "wq max_sge");
	wa.max_sge = 33;
	EXPECT_NULL(rte_pmd_mlx4v_create_wq(pd, &wa), "wq max_sge over the caps");
	wa.max_sge = 1;
	wa.max_wr = 16352;
	EXPECT_NULL(rte_pmd_mlx4v_create_wq(pd, &wa), "wq max_wr over the caps");
	wa.max_wr = 4;
	wa.max_sge = 1;
	wa.port = 0;
	EXPECT_NULL(rte_pmd_mlx4v_create_wq(pd, &wa), "wq port 0");
	wa.port = 3;
	EXPECT_NULL(rte_pmd_mlx4v_create_wq(pd, &wa), "wq port 3 of 2");
	EXPECT_NULL(rte_pmd_mlx4v_create_wq(pd, NULL), "wq NULL attr");
	EXPECT_EINVAL(rte_pmd_mlx4v_destroy_wq(NULL), "destroy wq NULL");
	EXPECT_EINVAL(rte_pmd_mlx4v_modify_wq(NULL, RTE_PMD_MLX4V_WQS_RDY), "modify wq NULL");
	EXPECT_EINVAL(rte_pmd_mlx4v_wq_num(NULL, &u), "wq_num NULL");
	TEST_ASSERT_EQUAL(ut_heap_bytes(NULL), heap0, "failed creates leaked memory");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	return live_zero(g_sim);
}

/* Double destroy and use after destroy: EINVAL, never a crash. */
static int
test_mlx4v_objects_double_destroy(void)
{
	struct rte_pmd_mlx4v_pd *pd = rte_pmd_mlx4v_alloc_pd(g_dev);
	uint8_t *mem = rte_zmalloc(NULL, 8, 0);	/* only EAL memory can be registered */
	struct rte_pmd_mlx4v_mr *mr = rte_pmd_mlx4v_reg_mr(pd, mem, 8);
	struct rte_pmd_mlx4v_cq *cq = rte_pmd_mlx4v_create_cq(g_dev, 8, 32, 0);
	struct rte_pmd_mlx4v_srq *srq = rte_pmd_mlx4v_create_srq(pd, 8, 1);
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 4, .port = 1 };
	struct rte_pmd_mlx4v_wq_attr wa = { .max_wr = 4, .max_sge = 1, .port = 1 };
	struct rte_pmd_mlx4v_dev *dev2 = rte_pmd_mlx4v_dev_open(SIM_NAME);
	struct rte_pmd_mlx4v_qp *qp;
	struct rte_pmd_mlx4v_wq *wq;
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_qp vqp;
	struct mlx4dv_cq vcq;
	struct mlx4dv_srq vsrq;
	struct mlx4dv_rwq vrwq;
	uint32_t u;

	TEST_ASSERT(pd && mr && cq && srq && dev2, "objects");
	qa.send_cq = qa.recv_cq = cq;
	wa.cq = cq;
	qp = rte_pmd_mlx4v_create_qp(pd, &qa);
	wq = rte_pmd_mlx4v_create_wq(pd, &wa);
	TEST_ASSERT(qp && wq, "qp/wq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(wq), "wq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "qp");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_srq(srq), "srq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "cq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dereg_mr(mr), "mr");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "pd");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(dev2), "dev2");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_wq(wq), EINVAL, "wq twice");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_qp(qp), EINVAL, "qp twice");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_srq(srq), EINVAL, "srq twice");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_cq(cq), EINVAL, "cq twice");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dereg_mr(mr), EINVAL, "mr twice");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dealloc_pd(pd), EINVAL, "pd twice");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dev_close(dev2), EINVAL, "dev twice");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_INIT), EINVAL,
			  "modify destroyed qp");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_RDY), EINVAL,
			  "modify destroyed wq");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_mr_lkey(mr, &u), EINVAL, "lkey of destroyed mr");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_get_cq_event(cq), EINVAL, "event of destroyed cq");
	TEST_ASSERT_NULL(rte_pmd_mlx4v_alloc_pd(dev2), "pd on a closed handle");
	/* Views of destroyed objects, one type at a time. */
	vqp.comp_mask = vcq.comp_mask = 0;
	obj = (struct rte_pmd_mlx4v_obj){ .qp = { qp, &vqp }, .cq = { cq, &vcq },
		.srq = { srq, &vsrq }, .rwq = { wq, &vrwq } };
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP), EINVAL, "qp view");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ), EINVAL, "cq view");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_SRQ), EINVAL, "srq view");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_RWQ), EINVAL, "rwq view");
	rte_free(mem);
	return live_zero(g_sim);
}

/* Objects of another handle (same device or another device) are refused. */
static int
test_mlx4v_objects_foreign_device(void)
{
	struct rte_pmd_mlx4v_dev *same = rte_pmd_mlx4v_dev_open(SIM_NAME);
	struct rte_pmd_mlx4v_dev *other = rte_pmd_mlx4v_dev_open(SIM2_NAME);
	struct rte_pmd_mlx4v_pd *pd = rte_pmd_mlx4v_alloc_pd(g_dev);
	struct rte_pmd_mlx4v_pd *opd;
	struct rte_pmd_mlx4v_cq *cq, *cq_same, *cq_other;
	struct rte_pmd_mlx4v_srq *osrq;
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 4, .port = 1 };
	struct rte_pmd_mlx4v_wq_attr wa = { .max_wr = 4, .max_sge = 1, .port = 1 };

	TEST_ASSERT(same && other && pd, "handles");
	opd = rte_pmd_mlx4v_alloc_pd(other);
	cq = rte_pmd_mlx4v_create_cq(g_dev, 8, 32, 0);
	cq_same = rte_pmd_mlx4v_create_cq(same, 8, 32, 0);
	cq_other = rte_pmd_mlx4v_create_cq(other, 8, 32, 0);
	osrq = rte_pmd_mlx4v_create_srq(opd, 8, 1);
	TEST_ASSERT(opd && cq && cq_same && cq_other && osrq, "objects");
	qa.send_cq = cq;
	qa.recv_cq = cq_other;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_qp(pd, &qa), "recv CQ of another device");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	qa.recv_cq = cq_same;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_qp(pd, &qa), "recv CQ of another handle");
	qa.recv_cq = cq;
	qa.srq = osrq;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_qp(pd, &qa), "SRQ of another device");
	wa.cq = cq_other;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_wq(pd, &wa), "WQ CQ of another device");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_srq(osrq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq_other), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq_same), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(opd), "dealloc");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(other), "close");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(same), "close");
	TEST_ASSERT_SUCCESS(live_zero(mlx4v_sim_get(SIM2_NAME)), "other device");
	return live_zero(g_sim);
}

/* Each fail_* knob fails its create (or modify) with the device state unchanged. */
static int
test_mlx4v_objects_failure_injection(void)
{
	static const char *const knobs[] = { "fail_alloc_pd", "fail_reg_mr", "fail_create_cq",
		"fail_create_srq", "fail_create_qp", "fail_create_wq" };
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 4, .max_recv_wr = 4,
		.max_recv_sge = 1, .port = 1 };
	struct rte_pmd_mlx4v_wq_attr wa = { .max_wr = 4, .max_sge = 1, .port = 1 };
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_qp *qp;
	struct rte_pmd_mlx4v_wq *wq;
	size_t heap0;
	unsigned int i;
	void *p = NULL;
	uint8_t *mem;

	pd = rte_pmd_mlx4v_alloc_pd(g_dev);
	cq = rte_pmd_mlx4v_create_cq(g_dev, 8, 32, 1);
	/* Only EAL memory can be registered. */
	mem = rte_zmalloc(NULL, 64, 0);
	TEST_ASSERT(pd != NULL && cq != NULL && mem != NULL, "objects");
	qa.send_cq = qa.recv_cq = cq;
	wa.cq = cq;
	for (i = 0; i < RTE_DIM(knobs); i++) {
		unsigned int live[MLX4V_SIM_OBJ_MAX];
		int k;

		for (k = 0; k < MLX4V_SIM_OBJ_MAX; k++)
			live[k] = mlx4v_sim_live_objects(g_sim, k);
		heap0 = ut_heap_bytes(NULL);
		TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(g_sim, knobs[i], 1), "%s", knobs[i]);
		errno = 0;
		switch (i) {
		case 0: p = rte_pmd_mlx4v_alloc_pd(g_dev); break;
		case 1: p = rte_pmd_mlx4v_reg_mr(pd, mem, 64); break;
		case 2: p = rte_pmd_mlx4v_create_cq(g_dev, 8, 64, 1); break;
		case 3: p = rte_pmd_mlx4v_create_srq(pd, 8, 1); break;
		case 4: p = rte_pmd_mlx4v_create_qp(pd, &qa); break;
		default: p = rte_pmd_mlx4v_create_wq(pd, &wa); break;
		}
		TEST_ASSERT_NULL(p, "%s: create succeeded", knobs[i]);
		TEST_ASSERT_EQUAL(errno, ENOMEM, "%s: errno %d", knobs[i], errno);
		for (k = 0; k < MLX4V_SIM_OBJ_MAX; k++)
			TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(g_sim, k), live[k],
					  "%s: device object kind %d leaked", knobs[i], k);
		TEST_ASSERT_EQUAL(ut_heap_bytes(NULL), heap0, "%s: EAL heap leaked",
				  knobs[i]);
	}
	/* State changes the device refuses leave the object in its old state. */
	qp = rte_pmd_mlx4v_create_qp(pd, &qa);
	wq = rte_pmd_mlx4v_create_wq(pd, &wa);
	TEST_ASSERT(qp != NULL && wq != NULL, "qp/wq");
	mlx4v_sim_knob_set(g_sim, "fail_modify_qp", 1);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_INIT), EIO, "modify qp");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_RTR), EINVAL,
			  "still in RESET");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_INIT), "retry");
	mlx4v_sim_knob_set(g_sim, "fail_modify_wq", 1);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_RDY), EIO, "modify wq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(wq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	rte_free(mem);
	return live_zero(g_sim);
}

/* QP state machine: only the allowed transitions. */
static int
test_mlx4v_objects_qp_transitions(void)
{
	struct rte_pmd_mlx4v_pd *pd = rte_pmd_mlx4v_alloc_pd(g_dev);
	struct rte_pmd_mlx4v_cq *cq = rte_pmd_mlx4v_create_cq(g_dev, 8, 32, 0);
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 4, .port = 1 };
	struct rte_pmd_mlx4v_qp *qp;

	qa.send_cq = qa.recv_cq = cq;
	qp = rte_pmd_mlx4v_create_qp(pd, &qa);
	TEST_ASSERT_NOT_NULL(qp, "qp");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_RTR), EINVAL, "RESET->RTR");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_RTS), EINVAL, "RESET->RTS");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, 42), EINVAL, "state 42");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_INIT), "INIT");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_INIT), "INIT->INIT");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_RTS), EINVAL, "INIT->RTS");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_RTR), "RTR");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_INIT), EINVAL, "RTR->INIT");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_RTS), "RTS");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_RTS), "RTS->RTS");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_wq(NULL, 7), EINVAL, "bad wq state");
	/* The kernel's rules (ib_modify_qp_is_ok()): ERR from anywhere but RESET. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_ERR), "RTS->ERR");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_RESET), "ERR->RESET");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_ERR), EINVAL,
			  "RESET->ERR");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	return live_zero(g_sim);
}

/* WQ state machine as mlx4_ib_modify_wq() takes it: no RESET->ERR, no ERR->RDY. */
static int
test_mlx4v_objects_wq_transitions(void)
{
	struct rte_pmd_mlx4v_pd *pd = rte_pmd_mlx4v_alloc_pd(g_dev);
	struct rte_pmd_mlx4v_cq *cq = rte_pmd_mlx4v_create_cq(g_dev, 8, 32, 0);
	struct rte_pmd_mlx4v_wq_attr wa = { .max_wr = 4, .max_sge = 1, .port = 1 };
	struct rte_pmd_mlx4v_wq *wq;

	wa.cq = cq;
	wq = rte_pmd_mlx4v_create_wq(pd, &wa);
	TEST_ASSERT_NOT_NULL(wq, "wq");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_ERR), EINVAL,
			  "RESET->ERR");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_RDY), "RESET->RDY");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_ERR), "RDY->ERR");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_RDY), EINVAL,
			  "ERR->RDY");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_RESET), "ERR->RESET");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_wq(wq, RTE_PMD_MLX4V_WQS_RDY), "RESET->RDY");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_wq(wq, 7), EINVAL, "state 7");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(wq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	return live_zero(g_sim);
}

/* A whole mempool under one lkey; the span covers every object. */
static int
test_mlx4v_objects_reg_mempool(void)
{
	struct rte_pmd_mlx4v_pd *pd = rte_pmd_mlx4v_alloc_pd(g_dev);
	struct rte_mempool *mp, *empty;
	struct rte_pmd_mlx4v_mr *mr;
	uint32_t lkey = 0;

	mp = rte_mempool_create("mlx4v_ut_mp", 255, 2048, 0, 0, NULL, NULL, NULL, NULL,
				SOCKET_ID_ANY, 0);
	empty = rte_mempool_create_empty("mlx4v_ut_empty", 16, 64, 0, 0, SOCKET_ID_ANY, 0);
	TEST_ASSERT(pd != NULL && mp != NULL && empty != NULL, "pool");
	mr = rte_pmd_mlx4v_reg_mempool(pd, mp);
	TEST_ASSERT_NOT_NULL(mr, "reg_mempool");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_mr_lkey(mr, &lkey), "lkey");
	TEST_ASSERT(lkey != 0 && lkey != 0x100, "lkey 0x%x", lkey);
	TEST_ASSERT_NULL(rte_pmd_mlx4v_reg_mempool(pd, empty), "empty pool");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dereg_mr(mr), "dereg");
	rte_mempool_free(empty);
	rte_mempool_free(mp);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	return live_zero(g_sim);
}

/* Everything a device can hold: two handles, one of each object, views and traffic. */
struct rm_objs {
	struct rte_pmd_mlx4v_dev *dev, *dev2;
	struct rte_pmd_mlx4v_pd *pd, *pd2;
	struct rte_pmd_mlx4v_mr *mr;
	struct rte_pmd_mlx4v_cq *cq, *ecq;
	struct rte_pmd_mlx4v_srq *srq;
	struct rte_pmd_mlx4v_qp *qp, *qp2;
	struct rte_pmd_mlx4v_wq *wq;
	struct mlx4v_test_steer st_wq;  /* table, RSS QP and rule for wq */
	struct mlx4v_test_steer st_qp;  /* the rule that loops qp's frames into its RQ */
	struct mlx4v_test_sq sq;
	struct mlx4v_test_rq rq;
	struct mlx4v_test_cq tcq;    /* view of ecq, the receive CQ of qp */
	uint32_t lkey;
};

/* Create the objects, move the QPs to RTS and the WQ to RDY, take the views. */
static int
rm_objs_create(struct rm_objs *o, const char *name, void *mem, size_t len)
{
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 32, .max_recv_wr = 16,
		.max_send_sge = 1, .max_recv_sge = 1, .port = 1 };
	struct rte_pmd_mlx4v_wq_attr wa = { .max_wr = 16, .max_sge = 1, .port = 2 };
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_qp vqp = { .comp_mask = 0 };
	struct mlx4dv_cq vcq = { .comp_mask = MLX4DV_CQ_MASK_UAR };
	struct mlx4dv_srq vsrq;
	struct mlx4dv_rwq vwq;
	uint8_t mac[6];
	int s;

	memset(o, 0, sizeof(*o));
	o->dev = rte_pmd_mlx4v_dev_open(name);
	o->dev2 = rte_pmd_mlx4v_dev_open(name);
	TEST_ASSERT(o->dev != NULL && o->dev2 != NULL, "handles");
	o->pd = rte_pmd_mlx4v_alloc_pd(o->dev);
	o->pd2 = rte_pmd_mlx4v_alloc_pd(o->dev2);
	TEST_ASSERT(o->pd != NULL && o->pd2 != NULL, "PDs");
	o->mr = rte_pmd_mlx4v_reg_mr(o->pd, mem, len);
	o->cq = rte_pmd_mlx4v_create_cq(o->dev, 64, 32, 0);
	o->ecq = rte_pmd_mlx4v_create_cq(o->dev, 64, 64, 1);
	o->srq = rte_pmd_mlx4v_create_srq(o->pd, 32, 1);
	TEST_ASSERT(o->mr && o->cq && o->ecq && o->srq, "mr/cq/srq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_mr_lkey(o->mr, &o->lkey), "lkey");
	qa.send_cq = o->cq;
	qa.recv_cq = o->ecq;
	o->qp = rte_pmd_mlx4v_create_qp(o->pd, &qa);
	qa.recv_cq = o->cq;
	qa.srq = o->srq;
	o->qp2 = rte_pmd_mlx4v_create_qp(o->pd, &qa);
	wa.cq = o->ecq;
	o->wq = rte_pmd_mlx4v_create_wq(o->pd, &wa);
	TEST_ASSERT(o->qp && o->qp2 && o->wq, "qp/wq");
	for (s = RTE_PMD_MLX4V_QPS_INIT; s <= RTE_PMD_MLX4V_QPS_RTS; s++) {
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(o->qp, s), "qp state %d", s);
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_qp(o->qp2, s), "qp2 state %d", s);
	}
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_modify_wq(o->wq, RTE_PMD_MLX4V_WQS_RDY), "RDY");
	obj = (struct rte_pmd_mlx4v_obj){ .qp = { o->qp, &vqp }, .cq = { o->ecq, &vcq },
		.srq = { o->srq, &vsrq }, .rwq = { o->wq, &vwq } };
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ |
						   MLX4DV_OBJ_SRQ | MLX4DV_OBJ_RWQ), "views");
	mlx4v_test_sq_init(&o->sq, &vqp);
	mlx4v_test_rq_from_qp(&o->rq, &vqp);
	mlx4v_test_cq_init(&o->tcq, &vcq);
	TEST_ASSERT_SUCCESS(mlx4v_test_steer_wqs(&o->st_wq, o->dev, o->pd, &o->wq, 0, 2),
			    "WQ steering");
	memset(mac, 0x5a, sizeof(mac));
	TEST_ASSERT_SUCCESS(mlx4v_test_steer_qp(&o->st_qp, o->qp, 1, RTE_PMD_MLX4V_FLOW_MAC, mac),
			    "QP rule");
	return TEST_SUCCESS;
}

/*
 * Loop one packet from qp back into its own RQ with the receive CQ armed, and take
 * the event without acking it; then ring more sends without waiting, so the engine
 * may still be walking the SQ when the device goes.
 */
static int
rm_objs_traffic(struct rm_objs *o, struct mlx4v_sim *sim, uint8_t *mem)
{
	int i;

	mlx4v_test_rq_post(&o->rq, o->lkey, mem + RM_BUF, RM_BUF);
	mlx4v_test_cq_arm(&o->tcq, MLX4_CQ_DB_REQ_NOT);
	memset(mem, 0x5a, 128);
	mlx4v_test_sq_send(&o->sq, o->lkey, mem, 128, 1);
	TEST_ASSERT(mlx4v_test_fd_wait(rte_pmd_mlx4v_cq_event_fd(o->ecq), sim,
				       MLX4V_TEST_POLLS), "no completion event");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_get_cq_event(o->ecq), "get_cq_event");
	for (i = 0; i < 4; i++)
		mlx4v_test_sq_send(&o->sq, o->lkey, mem, 128, 1);
	return TEST_SUCCESS;
}

/* The application's own teardown, in reverse order of creation. */
static int
rm_objs_destroy(struct rm_objs *o)
{
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_ack_cq_events(o->ecq, 1), "ack");
	mlx4v_test_steer_destroy(&o->st_qp);
	mlx4v_test_steer_destroy(&o->st_wq);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(o->wq), "destroy wq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(o->qp2), "destroy qp2");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(o->qp), "destroy qp");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_srq(o->srq), "destroy srq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(o->ecq), "destroy ecq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(o->cq), "destroy cq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dereg_mr(o->mr), "dereg");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(o->pd2), "dealloc pd2");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(o->pd), "dealloc pd");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(o->dev2), "close dev2");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(o->dev), "close dev");
	return TEST_SUCCESS;
}

/* After removal, every public call refuses every old handle with EINVAL. */
static int
rm_objs_rejected(struct rm_objs *o)
{
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 4, .port = 1 };
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_qp vqp;
	struct mlx4dv_cq vcq;
	struct mlx4dv_srq vsrq;
	struct mlx4dv_rwq vwq;
	uint32_t num;

	obj = (struct rte_pmd_mlx4v_obj){ .qp = { o->qp, &vqp }, .cq = { o->ecq, &vcq },
		.srq = { o->srq, &vsrq }, .rwq = { o->wq, &vwq } };
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP), EINVAL, "QP view");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ), EINVAL, "CQ view");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_SRQ), EINVAL, "SRQ view");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_RWQ), EINVAL, "RWQ view");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(o->qp, RTE_PMD_MLX4V_QPS_ERR), EINVAL, "modify");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_wq(o->wq, RTE_PMD_MLX4V_WQS_ERR), EINVAL, "modify");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_qp_num(o->qp, &num), EINVAL, "qp_num");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_get_cq_event(o->ecq), EINVAL, "get_cq_event");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_ack_cq_events(o->ecq, 1), EINVAL, "ack");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_cq_event_fd(o->ecq), -1, "event fd");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_wq(o->wq), EINVAL, "destroy wq");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_qp(o->qp2), EINVAL, "destroy qp2");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_qp(o->qp), EINVAL, "destroy qp");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_srq(o->srq), EINVAL, "destroy srq");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_cq(o->ecq), EINVAL, "destroy ecq");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_cq(o->cq), EINVAL, "destroy cq");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_mr_lkey(o->mr, &num), EINVAL, "lkey");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dereg_mr(o->mr), EINVAL, "dereg");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dealloc_pd(o->pd2), EINVAL, "dealloc pd2");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dealloc_pd(o->pd), EINVAL, "dealloc pd");
	qa.send_cq = qa.recv_cq = o->cq;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_qp(o->pd, &qa), "QP on an old PD");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	TEST_ASSERT_NULL(rte_pmd_mlx4v_alloc_pd(o->dev), "PD on an old handle");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_cq(o->dev2, 8, 32, 0), "CQ on an old handle");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dev_close(o->dev2), EINVAL, "close dev2");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dev_close(o->dev), EINVAL, "close dev");
	return TEST_SUCCESS;
}

/*
 * What another process gets of a CQ (mlx4v_cq_share()): the simulator's own arm doorbell
 * page, which armed through a mapping of its fd makes the model raise the event, and the
 * eventfd, whose events mlx4v_cq_events_read() takes as a count. A completion channel's
 * descriptors are counted one each; a partial one is refused, a closed writer said.
 */
static int
test_mlx4v_objects_cq_share(void)
{
	uint64_t desc[3] = { 1, 2, 3 };
	struct mlx4v_cq_share sh;
	uint8_t *mem, *page;
	struct rm_objs o;
	void *view_uar;
	int p[2];

	mem = rte_zmalloc(NULL, 4 * RM_BUF, 4096);
	TEST_ASSERT(mem != NULL, "mem");
	TEST_ASSERT_SUCCESS(rm_objs_create(&o, SIM_NAME, mem, 4 * RM_BUF), "objects");
	TEST_ASSERT_EQUAL(mlx4v_cq_share(o.cq, &sh), -EINVAL, "a CQ without events");
	TEST_ASSERT_SUCCESS(mlx4v_cq_share(o.ecq, &sh), "share");
	TEST_ASSERT_EQUAL(sh.event_fd, rte_pmd_mlx4v_cq_event_fd(o.ecq), "event fd");
	TEST_ASSERT_EQUAL(sh.desc, 0, "the simulator's events come as counts");
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, sh.uar_fd,
		    (off_t)sh.uar_off);
	TEST_ASSERT(page != MAP_FAILED, "arm page: %s", strerror(errno));
	TEST_ASSERT_EQUAL(mlx4v_cq_events_read(sh.event_fd, 0), 0, "an event before the arm");

	/* Armed through the other mapping of the page, as a secondary process does. */
	view_uar = o.tcq.v.cq_uar;
	o.tcq.v.cq_uar = page + ((uintptr_t)view_uar & 4095);
	mlx4v_test_rq_post(&o.rq, o.lkey, mem + RM_BUF, RM_BUF);
	mlx4v_test_cq_arm(&o.tcq, MLX4_CQ_DB_REQ_NOT);
	memset(mem, 0x5a, 128);
	mlx4v_test_sq_send(&o.sq, o.lkey, mem, 128, 1);
	TEST_ASSERT(mlx4v_test_fd_wait(sh.event_fd, g_sim, MLX4V_TEST_POLLS),
		    "no completion event after an arm through the lent page");
	TEST_ASSERT_EQUAL(mlx4v_cq_events_read(sh.event_fd, 0), 1, "one event");
	TEST_ASSERT_EQUAL(mlx4v_cq_events_read(sh.event_fd, 0), 0, "the event again");
	TEST_ASSERT_SUCCESS(mlx4v_cq_events_foreign(o.ecq, 1), "acknowledged for the taker");
	TEST_ASSERT_EQUAL(mlx4v_cq_events_foreign(o.cq, 1), -EINVAL, "a CQ without events");
	munmap(page, 4096);

	/* The next arm carries the next number; then the objects' own path and teardown. */
	o.tcq.v.cq_uar = view_uar;
	o.tcq.sn++;
	TEST_ASSERT_SUCCESS(rm_objs_traffic(&o, g_sim, mem), "traffic after the lent arm");
	TEST_ASSERT_SUCCESS(rm_objs_destroy(&o), "teardown");
	rte_free(mem);

	TEST_ASSERT_SUCCESS(pipe(p), "pipe");
	TEST_ASSERT_SUCCESS(fcntl(p[0], F_SETFL, O_NONBLOCK), "O_NONBLOCK");
	TEST_ASSERT_EQUAL(write(p[1], desc, sizeof(desc)), (ssize_t)sizeof(desc), "write");
	TEST_ASSERT_EQUAL(mlx4v_cq_events_read(p[0], 1), 3, "three descriptors");
	TEST_ASSERT_EQUAL(mlx4v_cq_events_read(p[0], 1), 0, "none left");
	TEST_ASSERT_EQUAL(write(p[1], desc, 5), 5, "write");
	TEST_ASSERT_EQUAL(mlx4v_cq_events_read(p[0], 1), -EPROTO, "a partial descriptor");
	close(p[1]);
	TEST_ASSERT_EQUAL(mlx4v_cq_events_read(p[0], 1), -EPIPE, "a closed channel");
	close(p[0]);
	return TEST_SUCCESS;
}

/*
 * Device removal with everything still open (process exit does the same through
 * rte_eal_cleanup()): it succeeds, releases every object, stops the engine, and
 * leaves the EAL heap exactly as before the device existed. A device created again
 * under the same name works from scratch.
 */
static int
test_mlx4v_remove_with_live_objects(void)
{
	struct mlx4v_sim *sim;
	struct rm_objs o;
	size_t heap0;
	uint8_t *mem;

	heap0 = ut_heap_bytes(NULL);
	TEST_ASSERT_SUCCESS(rte_vdev_init(SIM3_NAME, "ports=2"), "vdev");
	sim = mlx4v_sim_get(SIM3_NAME);
	mem = rte_zmalloc(NULL, 4 * RM_BUF, 4096);
	TEST_ASSERT(sim != NULL && mem != NULL, "sim/mem");
	TEST_ASSERT_SUCCESS(rm_objs_create(&o, SIM3_NAME, mem, 4 * RM_BUF), "objects");
	TEST_ASSERT_SUCCESS(rm_objs_traffic(&o, sim, mem), "traffic");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_QP), 3u, "QPs and RSS QP");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_FLOW), 2u, "rules");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_IND), 1u, "table");
	TEST_ASSERT_EQUAL(mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_CQ), 2u, "CQs");

	TEST_ASSERT_SUCCESS(rte_vdev_uninit(SIM3_NAME), "removal with live objects");
	TEST_ASSERT_NULL(mlx4v_sim_get(SIM3_NAME), "device model still there");
	TEST_ASSERT_SUCCESS(rm_objs_rejected(&o), "old handles");
	TEST_ASSERT_NULL(rte_pmd_mlx4v_dev_open(SIM3_NAME), "open of a removed device");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "rte_errno");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno");
	rte_free(mem);
	TEST_ASSERT_EQUAL(ut_heap_bytes(NULL), heap0, "EAL heap leaked %zd bytes",
			  (ssize_t)(ut_heap_bytes(NULL) - heap0));

	/* The same name again: a full cycle, torn down by the application this time. */
	TEST_ASSERT_SUCCESS(rte_vdev_init(SIM3_NAME, "ports=2"), "vdev again");
	sim = mlx4v_sim_get(SIM3_NAME);
	mem = rte_zmalloc(NULL, 4 * RM_BUF, 4096);
	TEST_ASSERT(sim != NULL && mem != NULL, "sim/mem");
	TEST_ASSERT_SUCCESS(rm_objs_create(&o, SIM3_NAME, mem, 4 * RM_BUF), "objects again");
	TEST_ASSERT_SUCCESS(rm_objs_traffic(&o, sim, mem), "traffic again");
	TEST_ASSERT_SUCCESS(rm_objs_destroy(&o), "teardown");
	TEST_ASSERT_SUCCESS(live_zero(sim), "device objects leaked");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(SIM3_NAME), "removal");
	rte_free(mem);
	TEST_ASSERT_EQUAL(ut_heap_bytes(NULL), heap0, "EAL heap leaked %zd bytes",
			  (ssize_t)(ut_heap_bytes(NULL) - heap0));
	return TEST_SUCCESS;
}

/*
 * The forced release itself, observed on a device model that stays: unregistering
 * the device destroys every object through the backend (the model's live counters
 * drop to zero); the bus remove that follows still succeeds and stops the engine.
 */
static int
test_mlx4v_remove_live_counters(void)
{
	struct mlx4v_sim *sim;
	struct rm_objs o;
	size_t heap0;
	uint8_t *mem;

	heap0 = ut_heap_bytes(NULL);
	TEST_ASSERT_SUCCESS(rte_vdev_init(SIM3_NAME, NULL), "vdev");
	sim = mlx4v_sim_get(SIM3_NAME);
	mem = rte_zmalloc(NULL, 4 * RM_BUF, 4096);
	TEST_ASSERT(sim != NULL && mem != NULL, "sim/mem");
	TEST_ASSERT_SUCCESS(rm_objs_create(&o, SIM3_NAME, mem, 4 * RM_BUF), "objects");
	TEST_ASSERT_SUCCESS(rm_objs_traffic(&o, sim, mem), "traffic");
	TEST_ASSERT_SUCCESS(mlx4v_dev_unregister(SIM3_NAME), "forced release");
	TEST_ASSERT_SUCCESS(live_zero(sim), "device objects left after the release");
	TEST_ASSERT_SUCCESS(rm_objs_rejected(&o), "old handles");
	TEST_ASSERT_EQUAL(mlx4v_dev_unregister(SIM3_NAME), -ENOENT, "second unregister");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(SIM3_NAME), "removal of an unregistered device");
	TEST_ASSERT_NULL(mlx4v_sim_get(SIM3_NAME), "device model still there");
	rte_free(mem);
	TEST_ASSERT_EQUAL(ut_heap_bytes(NULL), heap0, "EAL heap leaked %zd bytes",
			  (ssize_t)(ut_heap_bytes(NULL) - heap0));
	return TEST_SUCCESS;
}

/*
 * host_page=65536 plays a 64 KiB-page host: every ring must start a host page, as libmlx4
 * aligns them to the page it runs on (a driver aligning to 4 KiB fails here 15 times in 16 per
 * ring).
 */
static int
test_mlx4v_objects_host_page(void)
{
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 16, .max_recv_wr = 16,
		.max_send_sge = 1, .max_recv_sge = 1, .port = 1 };
	struct rte_pmd_mlx4v_cq *cq[4];
	struct rte_pmd_mlx4v_dev *dev;
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_qp *qp;
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_qp vqp;
	struct mlx4dv_cq vcq;
	unsigned int i;

	TEST_ASSERT_SUCCESS(rte_vdev_init(SIM4_NAME, "host_page=65536,class=none"), "probe");
	dev = rte_pmd_mlx4v_dev_open(SIM4_NAME);
	TEST_ASSERT_NOT_NULL(dev, "open");
	pd = rte_pmd_mlx4v_alloc_pd(dev);
	TEST_ASSERT_NOT_NULL(pd, "pd");
	for (i = 0; i < RTE_DIM(cq); i++) {
		cq[i] = rte_pmd_mlx4v_create_cq(dev, 63, 32, 0);
		TEST_ASSERT_NOT_NULL(cq[i], "CQ %u refused on a 64 KiB-page host: %d", i, errno);
	}
	qa.send_cq = qa.recv_cq = cq[0];
	qp = rte_pmd_mlx4v_create_qp(pd, &qa);
	TEST_ASSERT_NOT_NULL(qp, "QP refused on a 64 KiB-page host: %d", errno);
	memset(&obj, 0, sizeof(obj));
	obj.qp.in = qp;
	obj.qp.out = &vqp;
	obj.cq.in = cq[1];
	obj.cq.out = &vcq;
	vqp.comp_mask = 0;
	vcq.comp_mask = 0;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ), "views");
	TEST_ASSERT_EQUAL((uintptr_t)vqp.buf.buf % 65536, 0u, "QP ring not page-aligned");
	TEST_ASSERT_EQUAL(vqp.buf.length % 65536, 0u, "QP ring not whole pages");
	TEST_ASSERT_EQUAL((uintptr_t)vcq.buf.buf % 65536, 0u, "CQ ring not page-aligned");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "destroy qp");
	for (i = 0; i < RTE_DIM(cq); i++)
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq[i]), "destroy cq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(dev), "close");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(SIM4_NAME), "remove");
	/* A host page that no host has: the handle cannot be opened. */
	TEST_ASSERT_SUCCESS(rte_vdev_init(SIM4_NAME, "host_page=12288,class=none"), "probe 2");
	TEST_ASSERT_NULL(rte_pmd_mlx4v_dev_open(SIM4_NAME), "host_page=12288 accepted");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(SIM4_NAME), "remove 2");
	return TEST_SUCCESS;
}

/* The receive side on a port: WQ, then steering to it (a table, an RSS QP, a rule). */
struct prereq_rx {
	struct rte_pmd_mlx4v_wq *wq;
	struct mlx4v_test_steer st;
};

/* Build what it can of a prereq_rx; @return the errno of the first refusal, or 0. */
static int
prereq_rx_create(struct prereq_rx *rx, struct rte_pmd_mlx4v_dev *dev,
		 struct rte_pmd_mlx4v_pd *pd, struct rte_pmd_mlx4v_cq *cq, uint8_t port)
{
	struct rte_pmd_mlx4v_wq_attr wa = { .cq = cq, .max_wr = 16, .max_sge = 1, .port = port };

	memset(rx, 0, sizeof(*rx));
	rx->wq = rte_pmd_mlx4v_create_wq(pd, &wa);
	if (rx->wq == NULL)
		return errno;
	return mlx4v_test_steer_wqs(&rx->st, dev, pd, &rx->wq, 0, port) == 0 ? 0 : errno;
}

static void
prereq_rx_destroy(struct prereq_rx *rx)
{
	mlx4v_test_steer_destroy(&rx->st);
	if (rx->wq != NULL)
		rte_pmd_mlx4v_destroy_wq(rx->wq);
}

/*
 * Port prerequisites (doc/guides/nics/running_on_hardware.rst): an InfiniBand port, a device
 * without device-managed flow steering and a process without CAP_NET_RAW are each refused up
 * front, where the queue or rule that needs it is created, and reported by query_port. Without
 * the checks, a raw QP on an InfiniBand port and an RSS QP without steering would be created,
 * and nothing would ever arrive.
 */
static int
test_mlx4v_objects_port_prerequisites(void)
{
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 16, .max_recv_wr = 16,
		.max_send_sge = 1, .max_recv_sge = 1 };
	struct rte_pmd_mlx4v_port_attr pa;
	struct rte_pmd_mlx4v_dev *dev;
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_qp *qp;
	struct mlx4v_sim *sim;
	struct prereq_rx rx;

	TEST_ASSERT_SUCCESS(rte_vdev_init(SIM4_NAME, "ports=2,ib_ports=2,wire2=none,class=none"),
			    "probe");
	sim = mlx4v_sim_get(SIM4_NAME);
	dev = rte_pmd_mlx4v_dev_open(SIM4_NAME);
	TEST_ASSERT(sim != NULL && dev != NULL, "open");
	pd = rte_pmd_mlx4v_alloc_pd(dev);
	cq = rte_pmd_mlx4v_create_cq(dev, 63, 0, 0);
	TEST_ASSERT(pd != NULL && cq != NULL, "pd/cq");
	qa.send_cq = qa.recv_cq = cq;
	/* What query_port reports. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_query_port(dev, 1, &pa), "query 1");
	TEST_ASSERT_EQUAL(pa.link_layer, RTE_PMD_MLX4V_LINK_LAYER_ETHERNET, "port 1 link layer");
	TEST_ASSERT(pa.flow_steering && pa.net_raw, "port 1 prerequisites");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_query_port(dev, 2, &pa), "query 2");
	TEST_ASSERT_EQUAL(pa.link_layer, RTE_PMD_MLX4V_LINK_LAYER_INFINIBAND, "port 2 link layer");
	TEST_ASSERT_EQUAL(pa.state, RTE_PMD_MLX4V_PORT_DOWN, "port 2 without a wire is down");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_query_port(dev, 3, &pa), EINVAL, "port 3 of 2");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_query_port(dev, 0, &pa), EINVAL, "port 0");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_query_port(dev, 1, NULL), EINVAL, "attr NULL");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_query_port(NULL, 1, &pa), EINVAL, "dev NULL");
	/* InfiniBand port 2: no raw QP, no WQ; Ethernet port 1 works. */
	qa.port = 2;
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_qp(pd, &qa), "raw QP on an InfiniBand port");
	TEST_ASSERT_EQUAL(errno, EPROTONOSUPPORT, "QP on IB port: errno %d", errno);
	TEST_ASSERT_EQUAL(prereq_rx_create(&rx, dev, pd, cq, 2), EPROTONOSUPPORT, "WQ on IB");
	prereq_rx_destroy(&rx);
	TEST_ASSERT_SUCCESS(prereq_rx_create(&rx, dev, pd, cq, 1), "receive side on port 1");
	prereq_rx_destroy(&rx);
	/* No device-managed flow steering: no RSS QP (nothing could reach it), no rule. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(sim, "no_dmfs", 1), "no_dmfs");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_query_port(dev, 1, &pa), "query no_dmfs");
	TEST_ASSERT_EQUAL(pa.flow_steering, 0, "steering reported");
	TEST_ASSERT_EQUAL(prereq_rx_create(&rx, dev, pd, cq, 1), ENOTSUP, "RSS QP w/o steering");
	TEST_ASSERT_NULL(rx.st.rss, "RSS QP created without steering");
	prereq_rx_destroy(&rx);
	qa.port = 1;
	qp = rte_pmd_mlx4v_create_qp(pd, &qa);
	TEST_ASSERT_NOT_NULL(qp, "a raw QP sends without steering");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "destroy qp");
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(sim, "no_dmfs", 0), "dmfs back");
	/* No CAP_NET_RAW: no raw QP, no RSS QP, no rule; a WQ is no raw QP. */
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(sim, "no_net_raw", 1), "no_net_raw");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_query_port(dev, 1, &pa), "query no_net_raw");
	TEST_ASSERT_EQUAL(pa.net_raw, 0, "CAP_NET_RAW reported");
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_qp(pd, &qa), "raw QP without CAP_NET_RAW");
	TEST_ASSERT_EQUAL(errno, EPERM, "QP without CAP_NET_RAW: errno %d", errno);
	TEST_ASSERT_EQUAL(prereq_rx_create(&rx, dev, pd, cq, 1), EPERM, "RSS QP w/o CAP_NET_RAW");
	TEST_ASSERT_NOT_NULL(rx.wq, "WQ refused without CAP_NET_RAW");
	prereq_rx_destroy(&rx);
	TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(sim, "no_net_raw", 0), "net_raw back");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy cq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	TEST_ASSERT_SUCCESS(live_zero(sim), "device objects left");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(dev), "close");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(SIM4_NAME), "remove");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx4v_objects_suite = {
	.suite_name = "mlx4v objects",
	.setup = objects_setup,
	.teardown = objects_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx4v_objects_lifecycle_no_leak),
		TEST_CASE(test_mlx4v_objects_bad_input),
		TEST_CASE(test_mlx4v_objects_double_destroy),
		TEST_CASE(test_mlx4v_objects_foreign_device),
		TEST_CASE(test_mlx4v_objects_failure_injection),
		TEST_CASE(test_mlx4v_objects_qp_transitions),
		TEST_CASE(test_mlx4v_objects_wq_transitions),
		TEST_CASE(test_mlx4v_objects_reg_mempool),
		TEST_CASE(test_mlx4v_objects_host_page),
		TEST_CASE(test_mlx4v_objects_port_prerequisites),
		TEST_CASE(test_mlx4v_objects_cq_share),
		TEST_CASE(test_mlx4v_remove_with_live_objects),
		TEST_CASE(test_mlx4v_remove_live_counters),
		TEST_CASES_END()
	}
};

static int
test_mlx4v_objects(void)
{
	return unit_test_suite_runner(&mlx4v_objects_suite);
}

REGISTER_TEST_COMMAND(mlx4v_objects_autotest, test_mlx4v_objects);
