/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Unit tests of the rdma-core backend on a real ConnectX-3 (kernel mlx4 driver):
 * objects through libibverbs with rings in EAL memory, views from rdma-core's own
 * mlx4dv_init_obj(). Skipped when no mlx4 ibverbs device exists.
 */

#include <string.h>

#include <infiniband/verbs.h>

#include <rte_malloc.h>

#include "test.h"

#include "mlx4v_test_util.h"
#include "mlx4v_verbs_rdma.h"

#define RDMA_NAME "mlx4v_rdma_ut0"

static char g_ibdev[IBV_SYSFS_NAME_MAX];

static int
rdma_setup(void)
{
	struct ibv_device **list;
	int i, n = 0;

	list = ibv_get_device_list(&n);
	for (i = 0; list != NULL && i < n; i++) {
		if (strncmp(ibv_get_device_name(list[i]), "mlx4", 4) == 0) {
			strlcpy(g_ibdev, ibv_get_device_name(list[i]), sizeof(g_ibdev));
			break;
		}
	}
	if (list != NULL)
		ibv_free_device_list(list);
	if (g_ibdev[0] == '\0') {
		printf("mlx4v rdma backend: no mlx4 ibverbs device (ConnectX-3 on the kernel "
		       "mlx4 driver) found by ibv_get_device_list(): skipped\n");
		return TEST_SKIPPED;
	}
	return mlx4v_verbs_rdma_register(g_ibdev, RDMA_NAME, SOCKET_ID_ANY) == 0 ?
		TEST_SUCCESS : TEST_FAILED;
}

static void
rdma_teardown(void)
{
	if (g_ibdev[0] != '\0')
		mlx4v_verbs_rdma_unregister(RDMA_NAME);
}

/* Objects on hardware, rings in EAL memory, views from rdma-core. */
static int
test_mlx4v_rdma_objects_and_views(void)
{
	struct rte_pmd_mlx4v_dev *dev = rte_pmd_mlx4v_dev_open(RDMA_NAME);
	struct rte_pmd_mlx4v_qp_attr qa = { .max_send_wr = 64, .max_send_sge = 1,
		.max_recv_wr = 16, .max_recv_sge = 1, .port = 1 };
	struct rte_pmd_mlx4v_wq_attr wa = { .max_wr = 16, .max_sge = 1, .port = 1 };
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_qp *qp;
	struct rte_pmd_mlx4v_wq *wq;
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_qp vqp;
	struct mlx4dv_cq vcq;
	struct mlx4dv_rwq vwq;
	struct mlx4v_test_cq t;

	TEST_ASSERT_NOT_NULL(dev, "open %s: %s", g_ibdev, rte_strerror(rte_errno));
	pd = rte_pmd_mlx4v_alloc_pd(dev);
	cq = rte_pmd_mlx4v_create_cq(dev, 64, 0, 1);
	TEST_ASSERT(pd != NULL && cq != NULL, "pd/cq");
	qa.send_cq = qa.recv_cq = cq;
	wa.cq = cq;
	qp = rte_pmd_mlx4v_create_qp(pd, &qa);
	wq = rte_pmd_mlx4v_create_wq(pd, &wa);
	TEST_ASSERT(qp != NULL && wq != NULL, "qp/wq: %s", rte_strerror(rte_errno));
	vqp.comp_mask = MLX4DV_QP_MASK_UAR_MMAP_OFFSET;
	vcq.comp_mask = MLX4DV_CQ_MASK_UAR;
	obj = (struct rte_pmd_mlx4v_obj){ .qp = { qp, &vqp }, .cq = { cq, &vcq },
		.rwq = { wq, &vwq } };
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ |
						   MLX4DV_OBJ_RWQ), "init_obj");
	TEST_ASSERT(rte_mem_virt2memseg_list(vqp.buf.buf) != NULL, "QP ring not in EAL memory");
	TEST_ASSERT(rte_mem_virt2memseg_list(vcq.buf.buf) != NULL, "CQ ring not in EAL memory");
	TEST_ASSERT(rte_mem_virt2memseg_list(vwq.buf.buf) != NULL, "WQ ring not in EAL memory");
	TEST_ASSERT_EQUAL(vcq.cqe_cnt, 128u, "cqe_cnt");
	TEST_ASSERT_EQUAL(vcq.arm_sn, 1, "arm_sn");
	TEST_ASSERT_EQUAL(vqp.sq.wqe_cnt, 128u, "sq.wqe_cnt");
	TEST_ASSERT_EQUAL(vwq.rq.wqe_cnt, 16u, "rq.wqe_cnt");
	mlx4v_test_cq_init(&t, &vcq);
	TEST_ASSERT_NULL(mlx4v_test_cq_peek(&t), "fresh CQ polls a completion");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_wq(wq), "destroy wq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_qp(qp), "destroy qp");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_cq(cq), "destroy cq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(dev), "close");
	return TEST_SUCCESS;
}

/*
 * An SRQ through the backend (ibv_create_srq(), libmlx4's ring through the allocator hook):
 * the view rte_pmd_mlx4v_init_obj() gives is libmlx4's, with the geometry the simulator
 * backend gives the same request (doc/guides/nics/mlx4v.rst, "rdma-core and the simulator
 * side by side"); a PD with an SRQ is busy; the device's limits refused.
 */
static int
test_mlx4v_rdma_srq(void)
{
	struct rte_pmd_mlx4v_dev *dev = rte_pmd_mlx4v_dev_open(RDMA_NAME);
	struct rte_pmd_mlx4v_srq *srq;
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_obj obj;
	struct mlx4dv_srq v;
	uint32_t i;
	int ok;

	TEST_ASSERT_NOT_NULL(dev, "open %s: %s", g_ibdev, rte_strerror(rte_errno));
	pd = rte_pmd_mlx4v_alloc_pd(dev);
	TEST_ASSERT_NOT_NULL(pd, "pd");
	srq = rte_pmd_mlx4v_create_srq(pd, 100, 2);
	TEST_ASSERT_NOT_NULL(srq, "srq: %s", rte_strerror(rte_errno));
	memset(&v, 0, sizeof(v));
	obj = (struct rte_pmd_mlx4v_obj){ .srq = { srq, &v } };
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_SRQ), "init_obj");
	TEST_ASSERT(rte_mem_virt2memseg_list(v.buf.buf) != NULL, "SRQ ring not in EAL memory");
	TEST_ASSERT_EQUAL(v.wqe_shift, 6, "wqe_shift: 16 + 2 * 16 bytes in 64");
	TEST_ASSERT_EQUAL(v.buf.length, (size_t)128 << 6, "ring of 128 WQEs");
	TEST_ASSERT(v.head == 0 && v.tail == 127, "head %d tail %d", v.head, v.tail);
	TEST_ASSERT(v.db != NULL && *v.db == 0, "doorbell record: 0 posted");
	TEST_ASSERT_EQUAL(v.comp_mask, 0u, "comp_mask");
	for (i = 0, ok = 1; i < 128; i++)
		ok &= rte_be_to_cpu_16(*(uint16_t *)((uint8_t *)v.buf.buf + (i << 6) + 2)) ==
			((i + 1) & 127);
	TEST_ASSERT(ok, "the WQEs are not linked in a free list");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_dealloc_pd(pd), EBUSY, "a PD with an SRQ is busy");
	/* A ConnectX-3 takes 16383 SRQ WRs of 31 SGEs (mlx4_ib_query_device()). */
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_srq(pd, 16, 32), "max_sge beyond the device's");
	TEST_ASSERT_NULL(rte_pmd_mlx4v_create_srq(pd, 16384, 1), "max_wr beyond the device's");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_destroy_srq(srq), "destroy srq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(dev), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx4v_rdma_suite = {
	.suite_name = "mlx4v rdma-core backend",
	.setup = rdma_setup,
	.teardown = rdma_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx4v_rdma_objects_and_views),
		TEST_CASE(test_mlx4v_rdma_srq),
		TEST_CASES_END()
	}
};

static int
test_mlx4v_rdma(void)
{
	return unit_test_suite_runner(&mlx4v_rdma_suite);
}

REGISTER_TEST_COMMAND(mlx4v_rdma_autotest, test_mlx4v_rdma);
