/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the DEVX EQ / MSI-vector API: EQ create/destroy, consuming helpers. */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "test.h"

#include "mlx5v_dma.h"
#include "ut_mlx5v_devx.h"

/* Expect create to fail with EINVAL and leave nothing behind. */
static int
expect_create_einval(struct rte_pmd_mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		     size_t outlen, const char *what)
{
	uint64_t cnt0, cnt1, b0, b1;
	unsigned int eqs = ut_live_eqs();
	unsigned int win = ut_live_windows();

	b0 = ut_heap_bytes(&cnt0);
	errno = 0;
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(dev, in, inlen, out, outlen),
			 "%s accepted", what);
	TEST_ASSERT_EQUAL(errno, EINVAL, "%s: errno %d", what, errno);
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "%s: rte_errno %d", what, rte_errno);
	b1 = ut_heap_bytes(&cnt1);
	TEST_ASSERT(b0 == b1 && cnt0 == cnt1, "%s: EAL heap leak", what);
	TEST_ASSERT_EQUAL(ut_live_eqs(), eqs, "%s: EQ leaked in hardware", what);
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "%s: DMA window leaked", what);
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_create_einval_null(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_msi_vector *m;
	int ret = TEST_FAILED;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
	if (expect_create_einval(NULL, in, sizeof(in), out, sizeof(out), "NULL dev") ||
	    expect_create_einval(g_dev, NULL, sizeof(in), out, sizeof(out), "NULL in") ||
	    expect_create_einval(g_dev, in, sizeof(in), NULL, sizeof(out), "NULL out"))
		goto out;
	ret = TEST_SUCCESS;
out:
	rte_pmd_mlx5v_devx_free_msi_vector(m);
	return ret;
}

static int
test_mlx5v_devx_create_einval_inlen(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_msi_vector *m;
	int ret;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
	ret = expect_create_einval(g_dev, in, sizeof(in) - 1, out, sizeof(out), "inlen 0x10f");
	if (ret == TEST_SUCCESS)
		ret = expect_create_einval(g_dev, in, 16, out, sizeof(out), "inlen 16");
	rte_pmd_mlx5v_devx_free_msi_vector(m);
	return ret;
}

static int
test_mlx5v_devx_create_einval_opcode(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_msi_vector *m;
	int ret;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_CQ);
	ret = expect_create_einval(g_dev, in, sizeof(in), out, sizeof(out), "opcode CREATE_CQ");
	rte_pmd_mlx5v_devx_free_msi_vector(m);
	return ret;
}

static int
test_mlx5v_devx_create_einval_intr(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_msi_vector *m;
	int ret;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	/* The command vector (0) belongs to the driver's async EQ. */
	ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, 0, 0);
	ret = expect_create_einval(g_dev, in, sizeof(in), out, sizeof(out), "intr 0");
	/* In range but not allocated. */
	if (ret == TEST_SUCCESS) {
		ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector + 1, 0);
		ret = expect_create_einval(g_dev, in, sizeof(in), out, sizeof(out),
					   "unallocated intr");
	}
	/* Beyond the MSI-X table. */
	if (ret == TEST_SUCCESS) {
		ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, 100, 0);
		ret = expect_create_einval(g_dev, in, sizeof(in), out, sizeof(out), "intr 100");
	}
	/*
	 * 12-bit intr: rdma-core reads 8 bits, so 0x100 + v would pass as v (prm/mlx5 §6.2); here
	 * it names no allocated vector.
	 */
	if (ret == TEST_SUCCESS) {
		ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, 0x100 + m->vector, 0);
		ret = expect_create_einval(g_dev, in, sizeof(in), out, sizeof(out),
					   "intr 0x100 + v");
	}
	rte_pmd_mlx5v_devx_free_msi_vector(m);
	return ret;
}

static int
test_mlx5v_devx_create_einval_outlen(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_msi_vector *m;
	int ret;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
	/*
	 * rdma-core reads a garbage EQN below 12 bytes (prm/mlx5 §12 #9); we want the whole header.
	 */
	ret = expect_create_einval(g_dev, in, sizeof(in), out, 15, "outlen 15");
	if (ret == TEST_SUCCESS)
		ret = expect_create_einval(g_dev, in, sizeof(in), out, 12, "outlen 12");
	rte_pmd_mlx5v_devx_free_msi_vector(m);
	return ret;
}

/*
 * Command completions (0x0a) and page requests (0x0b) belong to the driver's async EQ: a mask
 * asking for either is EINVAL, alone or among other types; a mask without them is accepted.
 */
static int
test_mlx5v_devx_create_einval_driver_events(void)
{
	static const uint64_t refused[] = {
		RTE_BIT64(RTE_PMD_MLX5V_EVENT_CMD),
		RTE_BIT64(RTE_PMD_MLX5V_EVENT_PAGE_REQUEST),
		RTE_BIT64(RTE_PMD_MLX5V_EVENT_PORT_CHANGE) | RTE_BIT64(RTE_PMD_MLX5V_EVENT_CMD),
	};
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	int ret = TEST_SUCCESS;
	unsigned int i;
	uint32_t eqn;
	char what[48];

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	for (i = 0; i < RTE_DIM(refused) && ret == TEST_SUCCESS; i++) {
		ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, refused[i]);
		snprintf(what, sizeof(what), "mask 0x%" PRIx64, refused[i]);
		ret = expect_create_einval(g_dev, in, sizeof(in), out, sizeof(out), what);
	}
	if (ret == TEST_SUCCESS) {
		eq = ut_eq_create(4, m->vector, RTE_BIT64(RTE_PMD_MLX5V_EVENT_PORT_CHANGE), &eqn);
		if (eq == NULL)
			ret = TEST_FAILED;
		else if (rte_pmd_mlx5v_devx_destroy_eq(eq) != 0)
			ret = TEST_FAILED;
	}
	rte_pmd_mlx5v_devx_free_msi_vector(m);
	return ret;
}

static int
test_mlx5v_devx_create_in_unmodified(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE + 16];
	uint8_t copy[sizeof(in)];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	uint8_t q[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8];
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	ut_eq_in_build(in, sizeof(in), 5, g_uar->page_id, m->vector, 0);
	/* Junk where the driver writes: log_page_size and pas[0]; junk after pas[0] too. */
	RTE_PMD_MLX5V_SET(in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC, RTE_PMD_MLX5V_EQC_LOG_PAGE_SIZE,
			  0x1f);
	memset(in + RTE_PMD_MLX5V_CREATE_EQ_IN_PAS, 0xa5, 16);
	memcpy(copy, in, sizeof(in));
	memset(out, 0, sizeof(out));
	/* inlen 0x118: the caller's pas[0] bytes are replaced in the driver's copy only. */
	eq = rte_pmd_mlx5v_devx_create_eq(g_dev, in, RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE + 8, out,
					  sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create: %s", strerror(errno));
	TEST_ASSERT_BUFFERS_ARE_EQUAL(in, copy, sizeof(in), "the caller's mailbox changed");
	eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	TEST_ASSERT_SUCCESS(ut_eq_query(eqn, q, sizeof(q)), "QUERY_EQ");
	TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET64(q, RTE_PMD_MLX5V_QUERY_EQ_OUT_PAS),
			  (uint64_t)rte_malloc_virt2iova(eq->vaddr), "device PAS");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/*
 * For several sizes: the ring is max(2^log * 64, 4 KiB), aligned to that size, IOVA
 * contiguous, owner bytes 1 before CREATE_EQ; the device holds one PAS = the ring's IOVA,
 * log_page_size = log2(size) - 12, and the context as the caller built it.
 */
static int
test_mlx5v_devx_query_eq_context(void)
{
	static const unsigned int logs[] = { 1, 4, 6, 7, 10, 12 };
	uint8_t q[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8];
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	const uint8_t *eqc = q + RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC;
	const uint8_t *ring;
	uint64_t sw_owned = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_RING_SW_OWNED);
	uint64_t mask = (UINT64_C(1) << RTE_PMD_MLX5V_EVENT_PORT_CHANGE) |
			(UINT64_C(1) << RTE_PMD_MLX5V_EVENT_CQ_ERROR);
	uint32_t eqn, nent, i;
	size_t size;
	unsigned int k;
	rte_iova_t iova;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	for (k = 0; k < RTE_DIM(logs); k++) {
		nent = 1u << logs[k];
		size = RTE_MAX((size_t)nent * 64, (size_t)4096);
		eq = ut_eq_create(logs[k], m->vector, mask, &eqn);
		TEST_ASSERT_NOT_NULL(eq, "create log %u", logs[k]);
		ring = eq->vaddr;
		TEST_ASSERT_EQUAL((uintptr_t)ring % size, 0, "log %u: ring not aligned to %zu",
				  logs[k], size);
		iova = rte_malloc_virt2iova(ring);
		TEST_ASSERT(iova != RTE_BAD_IOVA, "no IOVA");
		TEST_ASSERT_EQUAL(rte_mem_virt2iova(ring + size - 1), iova + size - 1,
				  "ring not IOVA contiguous");
		for (i = 0; i < nent; i++)
			TEST_ASSERT_EQUAL(ring[i * 64 + RTE_PMD_MLX5V_EQE_OWNER_OFF], 1,
					  "log %u: EQE %u owner not initialised", logs[k], i);
		TEST_ASSERT_SUCCESS(ut_eq_query(eqn, q, sizeof(q)), "QUERY_EQ");
		TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_LOG_PAGE_SIZE),
				  rte_log2_u64(size) - 12, "log %u: log_page_size", logs[k]);
		TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET64(q, RTE_PMD_MLX5V_QUERY_EQ_OUT_PAS),
				  (uint64_t)iova, "log %u: PAS", logs[k]);
		TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE), logs[k],
				  "log_eq_size");
		TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_INTR),
				  (uint32_t)m->vector, "intr");
		TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE),
				  g_uar->page_id, "uar_page");
		TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_STATUS), 0, "status");
		TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_PRODUCER_COUNTER), 0,
				  "producer");
		TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET64(q, RTE_PMD_MLX5V_QUERY_EQ_OUT_EVENT_BITMASK),
				  mask, "event mask");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	}
	/* The model checks owner bytes at CREATE_EQ time: none was software-owned. */
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_RING_SW_OWNED), sw_owned,
			  "an EQ reached the device with software-owned EQEs");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/* A device failure: NULL, EREMOTEIO, status/syndrome in out, everything unwound. */
static int
test_mlx5v_devx_create_eremoteio(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_msi_vector *m;
	uint64_t c0, c1, b0, b1;
	unsigned int eqs = ut_live_eqs();
	unsigned int win = ut_live_windows();

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	b0 = ut_heap_bytes(&c0);
	/* A forced firmware answer (LIM_ERR). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ, 0x08,
						    0x12345678), "knob");
	ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
	memset(out, 0, sizeof(out));
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out)),
			 "forced failure succeeded");
	TEST_ASSERT_EQUAL(errno, EREMOTEIO, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, EREMOTEIO, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS), 0x08, "status");
	TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME), 0x12345678,
			  "syndrome");
	/* A real device-side validation failure: uar_page not allocated. */
	ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id + 20, m->vector, 0);
	memset(out, 0, sizeof(out));
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out)),
			 "bad uar_page accepted");
	TEST_ASSERT_EQUAL(errno, EREMOTEIO, "errno %d", errno);
	TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS), 0x03, "BAD_PARAM");
	TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME), SIM_SYND_EQ_UAR,
			  "syndrome");
	/* Unwound: no EQ in hardware, no DMA window, no EAL memory, vector not busy. */
	TEST_ASSERT_EQUAL(ut_live_eqs(), eqs, "EQ leaked in hardware");
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "DMA window leaked");
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap leak: %" PRIu64 " -> %" PRIu64, b0, b1);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "vector left busy");
	return TEST_SUCCESS;
}

/* The ring does not fit in EAL memory: ENOMEM before any command, nothing left behind. */
static int
test_mlx5v_devx_create_enomem(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_msi_vector *m;
	uint64_t c0, c1, b0, b1;
	uint64_t cmds = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS);
	unsigned int win = ut_live_windows();

	/* With hugepages EAL memory grows beyond -m as long as the pool has pages. */
	if (rte_eal_has_hugepages()) {
		printf("SKIP: EAL memory is not bounded by -m with hugepages\n");
		return TEST_SKIPPED;
	}
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	b0 = ut_heap_bytes(&c0);
	/* 2^22 EQEs of 64 bytes = 256 MiB, all of -m 256. */
	ut_eq_in_build(in, sizeof(in), 22, g_uar->page_id, m->vector, 0);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out)),
			 "a 256 MiB ring in 256 MiB of EAL memory");
	TEST_ASSERT_EQUAL(errno, ENOMEM, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "a command was sent");
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "DMA window leaked");
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap leak");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "vector left busy");
	return TEST_SUCCESS;
}

/*
 * The ring's DMA mapping fails (the simulator's IOMMU has no room): a local failure, so
 * NULL with the mapping's errno, not EREMOTEIO; no command is sent and nothing is left
 * behind (no window, no EAL memory, the vector not marked busy).
 */
static int
test_mlx5v_devx_create_dma_map_fails(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	uint64_t c0, c1, b0, b1;
	uint64_t cmds;
	unsigned int win;

	UT_DEV_VDEV_ONLY("EAL memory is in the VFIO container from start-up: the driver maps "
			 "no window the fail_dma_map knob could refuse");
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	ut_eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
	cmds = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS);
	win = ut_live_windows();
	b0 = ut_heap_bytes(&c0);
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_dma_map", 1), "knob");
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out)),
			 "create with a refused DMA mapping");
	TEST_ASSERT_EQUAL(errno, ENOMEM, "errno %d (not EREMOTEIO: no command ran)", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "a command was sent");
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "DMA window leaked");
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap leak");
	/* The knob is spent: the same create now works, then everything is released. */
	eq = rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create after the fault");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "vector left busy");
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_destroy_frees_buffer(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	uint64_t c0, c1, c2, b0, b1, b2;
	unsigned int win = ut_live_windows();
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	b0 = ut_heap_bytes(&c0);
	eq = ut_eq_create(10, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b1 >= b0 + 64 * 1024, "a 64 KiB ring is not EAL memory");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	b2 = ut_heap_bytes(&c2);
	/* rdma-core leaks vaddr here (prm/mlx5 §12 #1). */
	TEST_ASSERT(b2 == b0 && c2 == c0, "EAL heap %" PRIu64 " -> %" PRIu64 " after destroy",
		    b0, b2);
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "DMA window left mapped");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(NULL), EINVAL, "NULL");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/* destroy returns the translated errno, never EREMOTEIO, and keeps the EQ. */
static int
destroy_device_error_run(enum ut_src_kind kind)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct ut_src src;
	unsigned int eqs = ut_live_eqs();
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ,
						    0x03, 0x42), "knob");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), EINVAL, "BAD_PARAM -> EINVAL");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ,
						    0x06, 0x43), "knob");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), EBUSY, "RES_BUSY -> EBUSY");
	/* Still alive in the device and usable. */
	TEST_ASSERT_EQUAL(ut_live_eqs(), eqs + 1, "EQ gone after a failed destroy");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, eqn), "source");
	TEST_ASSERT_SUCCESS(ut_src_raise(&src, 7), "%s", ut_src_name(kind));
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, 0), "EQ not usable");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "source close");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EBUSY, "vector released");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_EQUAL(ut_live_eqs(), eqs, "EQ leaked");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_devx_destroy_device_error, destroy_device_error_run)

static int
test_mlx5v_devx_query_eqn(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn = 0, user_eqn;

	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_query_eqn(g_dev, 0, &eqn), "vector 0");
	TEST_ASSERT_EQUAL(eqn, mlx5v_eq_eqn(mlx5v_eq_async((struct mlx5v_dev *)g_dev)),
			  "not the async EQ");
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(4, m->vector, 0, &user_eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	/* As rdma-core: vectors used by created EQs are not served. */
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_query_eqn(g_dev, m->vector, &eqn), EINVAL,
			  "a created EQ's vector served");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_query_eqn(g_dev, NB_MSIX + 3, &eqn), EINVAL,
			  "vector out of range");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_query_eqn(g_dev, 0, NULL), EINVAL, "NULL eqn");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_query_eqn(NULL, 0, &eqn), EINVAL, "NULL dev");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/* Three laps of a 4-entry EQ: the owner parity flips each lap. */
static int
owner_wrap_run(enum ut_src_kind kind)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct ut_src src;
	const uint8_t *eqe;
	uint32_t eqn, ci = 0, lap, k;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(2, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, eqn), "source");
	for (lap = 0; lap < 3; lap++) {
		TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 4, ci),
				 "lap %u: stale EQE taken as new", lap);
		for (k = 0; k < 4; k++)
			TEST_ASSERT_SUCCESS(ut_src_raise(&src, lap * 4 + k), "%s",
					    ut_src_name(kind));
		for (k = 0; k < 4; k++, ci++) {
			eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 4, ci);
			TEST_ASSERT_NOT_NULL(eqe, "lap %u: EQE %u missing", lap, k);
			TEST_ASSERT(ut_src_eqe_is(&src, eqe, lap * 4 + k), "order");
			TEST_ASSERT_EQUAL((eqe[RTE_PMD_MLX5V_EQE_OWNER_OFF] & 1), (lap & 1),
					  "lap %u: owner", lap);
		}
		/*
		 * The device must learn the CI before the next lap or it overruns (prm/mlx5 §6.9).
		 */
		rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, ci, 0);
		TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, ci), "CI %u not seen", ci);
	}
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "source close");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_devx_helpers_owner_wrap, owner_wrap_run)

struct budget_ctx {
	uint32_t n;
	uint32_t eqn;
	const volatile uint32_t *noarm;   /* the spy page's +0x48 word */
	const volatile uint32_t *arm;     /* ... and +0x40 */
	uint32_t bad;
};

/* Before EQE k (k = 129, 257) the CI word for 128 * (k / 128) must already be written. */
static void
budget_cb(const void *eqe, void *arg)
{
	struct budget_ctx *b = arg;
	uint32_t want;

	RTE_SET_USED(eqe);
	if (b->n > 0 && b->n % 128 == 0) {
		want = rte_cpu_to_be_32(rte_pmd_mlx5v_eq_db_val(b->eqn, b->n));
		if (*b->noarm != want || *b->arm != 0)
			b->bad++;
	}
	b->n++;
}

static int
ci_budget_128_run(enum ut_src_kind kind)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct ut_src src;
	struct rte_pmd_mlx5v_uar spy;
	struct mlx5v_devx_eq *deq;
	struct mlx5v_devx_eq_stats st;
	struct budget_ctx b;
	uint8_t *page;
	uint32_t eqn, ci = 0, n, i;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(9, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, eqn), "source");
	for (i = 0; i < 300; i++)
		TEST_ASSERT_SUCCESS(ut_src_raise(&src, 0), "%s", ut_src_name(kind));
	/* The inline poll against a spy UAR page, to see each doorbell word it writes. */
	page = rte_zmalloc("ut_spy", 4096, 4096);
	TEST_ASSERT_NOT_NULL(page, "spy");
	spy.base_addr = page;
	spy.reg_addr = page + 0x800;
	spy.page_id = g_uar->page_id;
	memset(&b, 0, sizeof(b));
	b.eqn = eqn;
	b.noarm = (volatile uint32_t *)(page + RTE_PMD_MLX5V_UAR_EQ_DB_NOARM_OFF);
	b.arm = (volatile uint32_t *)(page + RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF);
	n = rte_pmd_mlx5v_eq_poll(eq->vaddr, 512, &ci, &spy, eqn, budget_cb, &b);
	TEST_ASSERT_EQUAL(n, 300, "consumed %u", n);
	TEST_ASSERT_EQUAL(ci, 300, "ci %u", ci);
	TEST_ASSERT_EQUAL(b.bad, 0, "CI not written every 128 EQEs before going on");
	TEST_ASSERT_EQUAL(*b.noarm, rte_cpu_to_be_32(rte_pmd_mlx5v_eq_db_val(eqn, 256)),
			  "last no-arm CI");
	TEST_ASSERT_EQUAL(*b.arm, rte_cpu_to_be_32(rte_pmd_mlx5v_eq_db_val(eqn, 300)),
			  "final arm");
	rte_free(page);
	/* Tell the real device, then the driver's own poll on a second batch. */
	rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, ci, 0);
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, ci), "CI");
	deq = mlx5v_devx_to_eq(eq);
	TEST_ASSERT_NOT_NULL(deq, "internal view");
	deq->ci = ci;
	for (i = 0; i < 300; i++)
		TEST_ASSERT_SUCCESS(ut_src_raise(&src, 0), "%s", ut_src_name(kind));
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_poll(deq), 300, "driver poll");
	mlx5v_devx_eq_stats_get(deq, &st);
	TEST_ASSERT_EQUAL(st.ci_updates, 2, "no-arm updates %" PRIu64, st.ci_updates);
	TEST_ASSERT_EQUAL(st.arms, 1, "arms %" PRIu64, st.arms);
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, 600), "device CI");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_EQ_OVERRUNS), 0, "overrun");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "source close");
	ut_drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_devx_helpers_ci_budget_128, ci_budget_128_run)

/* prm/mlx5 §6.11 / §12 #7: an arm with pending EQEs fires at once; an armed EQ fires on the EQE. */
static int
arm_both_orders_run(enum ut_src_kind kind)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct ut_src src;
	uint32_t eqn, ci = 0;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(ut_src_open(&src, kind, eqn), "source");
	/* Order 1: the EQE first (a new EQ is not armed), then the arm. */
	TEST_ASSERT_SUCCESS(ut_src_raise(&src, 1), "%s", ut_src_name(kind));
	TEST_ASSERT_SUCCESS(ut_wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_FIRED), "unarmed EQ state");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, ci);
	TEST_ASSERT(ut_fd_wait(m->fd), "arm with a pending EQE did not interrupt");
	ut_drain_fd(m->fd);
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, ci), "EQE");
	ci++;
	/* Order 2: arm (nothing pending), then the EQE. */
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, ci);
	TEST_ASSERT_SUCCESS(ut_wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "not armed");
	TEST_ASSERT_SUCCESS(ut_src_raise(&src, 2), "%s", ut_src_name(kind));
	TEST_ASSERT(ut_fd_wait(m->fd), "EQE on an armed EQ did not interrupt");
	ut_drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(ut_wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_FIRED), "not FIRED");
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, ci), "EQE");
	ci++;
	rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, ci, 0);
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, ci), "CI");
	TEST_ASSERT_SUCCESS(ut_src_close(&src), "source close");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

UT_SRC_CASES(test_mlx5v_devx_helpers_arm_both_orders, arm_both_orders_run)

/* An event type neither the driver's async EQ nor any other test EQ subscribes to. */
#define BIG_EQ_EVENT RTE_PMD_MLX5V_EVENT_SRQ_LAST_WQE

/*
 * One DEVX EQ of 2^log_size EQEs, with one event in every EQE of the ring: the device writes
 * each EQE through the PAS list the driver built, so an EQE in a chunk whose IOVA is not the
 * first chunk's plus an offset lands where the driver reads it only if the PAS list is right.
 */
static int
big_eq_events(unsigned int log_size)
{
	const uint32_t nent = 1u << log_size;
	uint8_t data[28] = { 0 };
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	unsigned int win = ut_live_windows();
	const uint8_t *eqe;
	uint64_t iova;
	uint32_t eqn, i;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = ut_eq_create(log_size, m->vector, RTE_BIT64(BIG_EQ_EVENT), &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create a %u MiB EQ", (nent * 64u) >> 20);
	/* Says whether this run had a physically split ring at all (IOVA as PA, fragmented). */
	printf("%u MiB EQ: %s\n", (nent * 64u) >> 20,
	       mlx5v_dma_contig(eq->vaddr, (size_t)nent * 64, &iova) == 0 ?
	       "IOVA-contiguous" : "not IOVA-contiguous (one PAS per chunk)");
	for (i = 0; i < nent; i++) {
		data[0] = (uint8_t)i;
		data[1] = (uint8_t)(i >> 8);
		data[2] = (uint8_t)(i >> 16);
		TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, BIG_EQ_EVENT, 0, data), 1,
				  "event %u not written to exactly one EQ", i);
		eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, nent, i);
		TEST_ASSERT_NOT_NULL(eqe, "EQE %u of %u not where the driver reads it", i, nent);
		TEST_ASSERT_EQUAL(rte_pmd_mlx5v_eqe_type(eqe), BIG_EQ_EVENT, "EQE %u type", i);
		TEST_ASSERT(eqe[RTE_PMD_MLX5V_EQE_DATA_OFF] == data[0] &&
			    eqe[RTE_PMD_MLX5V_EQE_DATA_OFF + 1] == data[1] &&
			    eqe[RTE_PMD_MLX5V_EQE_DATA_OFF + 2] == data[2], "EQE %u data", i);
		/* CI at least every 128 EQEs (prm/mlx5 §6.9). */
		if ((i & 127) == 127)
			rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, i + 1, 0);
	}
	TEST_ASSERT_SUCCESS(ut_wait_eq_ci(eqn, nent), "CI");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_IOMMU_FAULTS), 0u, "IOMMU fault");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	TEST_ASSERT_EQUAL(ut_live_windows(), win, "DMA window leaked");
	return TEST_SUCCESS;
}

/*
 * DEVX EQs larger than a 2 MiB hugepage (4 MiB and 8 MiB rings) take events in every EQE.
 * Under devtools/hugepage-pa.sh (IOVA as PA on a fragmented pool) their hugepages are not
 * physically adjacent: the ring must reach the device as one PAS entry per chunk, and each
 * chunk must be its own IOMMU window (doc/guides/nics/running_on_hardware.rst, "IOVA modes").
 */
static int
test_mlx5v_devx_eq_larger_than_hugepage(void)
{
	if (getenv("MLXV_IOVA_PA") != NULL && rte_eal_iova_mode() != RTE_IOVA_PA) {
		printf("SKIP: MLXV_IOVA_PA is set but EAL runs with IOVA as VA\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(big_eq_events(16), "4 MiB EQ");
	TEST_ASSERT_SUCCESS(big_eq_events(17), "8 MiB EQ");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_devx_eq_suite = {
	.suite_name = "mlx5v DEVX API: eq",
	.setup = ut_devx_setup,
	.teardown = ut_devx_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_devx_create_einval_null),
		TEST_CASE(test_mlx5v_devx_create_einval_inlen),
		TEST_CASE(test_mlx5v_devx_create_einval_opcode),
		TEST_CASE(test_mlx5v_devx_create_einval_intr),
		TEST_CASE(test_mlx5v_devx_create_einval_outlen),
		TEST_CASE(test_mlx5v_devx_create_einval_driver_events),
		TEST_CASE(test_mlx5v_devx_create_in_unmodified),
		TEST_CASE(test_mlx5v_devx_query_eq_context),
		TEST_CASE(test_mlx5v_devx_create_eremoteio),
		TEST_CASE(test_mlx5v_devx_create_enomem),
		TEST_CASE(test_mlx5v_devx_create_dma_map_fails),
		TEST_CASE(test_mlx5v_devx_destroy_frees_buffer),
		TEST_CASE(test_mlx5v_devx_destroy_device_error),
		TEST_CASE(test_mlx5v_devx_destroy_device_error_cqe),
		TEST_CASE(test_mlx5v_devx_query_eqn),
		TEST_CASE(test_mlx5v_devx_helpers_owner_wrap),
		TEST_CASE(test_mlx5v_devx_helpers_owner_wrap_cqe),
		TEST_CASE(test_mlx5v_devx_helpers_ci_budget_128),
		TEST_CASE(test_mlx5v_devx_helpers_ci_budget_128_cqe),
		TEST_CASE(test_mlx5v_devx_helpers_arm_both_orders),
		TEST_CASE(test_mlx5v_devx_helpers_arm_both_orders_cqe),
		TEST_CASE(test_mlx5v_devx_eq_larger_than_hugepage),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_devx_eq(void)
{
	return unit_test_suite_runner(&mlx5v_devx_eq_suite);
}

REGISTER_TEST_COMMAND(mlx5v_devx_eq_autotest, test_mlx5v_devx_eq);
