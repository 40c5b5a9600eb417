/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the DEVX EQ / MSI-vector API (rte_pmd_mlx5v.h) on the simulator. */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_epoll.h>
#include <rte_errno.h>
#include <rte_interrupts.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_pause.h>

#include "test.h"

#include "mlx5v_dev.h"
#include "mlx5v_devx.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v.h"
#include "ut_common.h"

#define VDEV_NAME "mlx5v_sim0"
#define VDEV_ARGS "msix=8"
#define NB_MSIX 8

/* The simulator's syndrome for "uar_page not allocated" (mlx5v_sim_priv.h). */
#define SIM_SYND_EQ_UAR 0x51030004u

static struct rte_pmd_mlx5v_dev *g_dev;
static struct mlx5v_sim *g_sim;
static struct rte_pmd_mlx5v_uar *g_uar;

/* ---- helpers ---- */

/* Build a create_eq_in: only what a caller fills (no log_page_size, no PAS). */
static void
eq_in_build(uint8_t *in, size_t len, unsigned int log_size, uint32_t uar_page, uint32_t intr,
	    uint64_t mask0)
{
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;

	memset(in, 0, len);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, log_size);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, uar_page);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, intr);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK, mask0);
}

/* Create an EQ with the public API. @return it or NULL; *eqn set. */
static struct rte_pmd_mlx5v_eq *
eq_create(unsigned int log_size, uint32_t intr, uint64_t mask0, uint32_t *eqn)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_eq *eq;

	eq_in_build(in, sizeof(in), log_size, g_uar->page_id, intr, mask0);
	memset(out, 0, sizeof(out));
	eq = rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out));
	if (eq != NULL)
		*eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	else
		printf("create_eq: %s\n", strerror(errno));
	return eq;
}

/* QUERY_EQ through the general command into out (0x118 bytes). */
static int
eq_query(uint32_t eqn, uint8_t *out, size_t outlen)
{
	uint8_t in[RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE];

	memset(in, 0, sizeof(in));
	memset(out, 0, outlen);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_EQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	return rte_pmd_mlx5v_devx_general_cmd(g_dev, in, sizeof(in), out, outlen);
}

/* GEN_EQE: the device writes an EQE of type/sub_type (data byte 0 = tag) into eqn. */
static int
gen_eqe(uint32_t eqn, uint8_t type, uint8_t sub_type, uint8_t tag)
{
	uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE];
	uint8_t *eqe = in + RTE_PMD_MLX5V_GEN_EQE_IN_EQE;

	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_GEN_EQE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF] = type;
	eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF] = sub_type;
	eqe[RTE_PMD_MLX5V_EQE_DATA_OFF] = tag;
	/* A wrong owner value on purpose: the device sets the owner bit itself. */
	eqe[RTE_PMD_MLX5V_EQE_OWNER_OFF] = 0x5a;
	return rte_pmd_mlx5v_devx_general_cmd(g_dev, in, sizeof(in), out, sizeof(out));
}

/* Wait until the device's consumer counter of eqn reads ci (doorbells are asynchronous). */
static int
wait_eq_ci(uint32_t eqn, uint32_t ci)
{
	uint8_t out[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8];
	unsigned int ms;

	for (ms = 0; ms < UT_WAIT_LIMIT_MS; ms++) {
		if (eq_query(eqn, out, sizeof(out)) != 0)
			return -1;
		if (RTE_PMD_MLX5V_GET(out + RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC,
				      RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER) == (ci & 0xffffff))
			return 0;
		ut_sleep_ms(1);
	}
	return -1;
}

/* Wait until eqn reads state st (ARMED / FIRED). */
static int
wait_eq_st(uint32_t eqn, uint32_t st)
{
	uint8_t out[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8];
	unsigned int ms;

	for (ms = 0; ms < UT_WAIT_LIMIT_MS; ms++) {
		if (eq_query(eqn, out, sizeof(out)) != 0)
			return -1;
		if (RTE_PMD_MLX5V_GET(out + RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC,
				      RTE_PMD_MLX5V_EQC_ST) == st)
			return 0;
		ut_sleep_ms(1);
	}
	return -1;
}

static void
drain_fd(int fd)
{
	uint64_t cnt;

	while (read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		;
}

static unsigned int
live_eqs(void)
{
	return mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_EQ);
}

static unsigned int
live_windows(void)
{
	return mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_DMA_WINDOWS);
}

/* ---- suite setup ---- */

static int
testsuite_setup(void)
{
	if (rte_vdev_init(VDEV_NAME, VDEV_ARGS) != 0) {
		printf("rte_vdev_init(%s): %s\n", VDEV_NAME, rte_strerror(rte_errno));
		return TEST_FAILED;
	}
	g_dev = rte_pmd_mlx5v_dev_get(VDEV_NAME);
	g_sim = mlx5v_sim_get(VDEV_NAME);
	if (g_dev == NULL || g_sim == NULL)
		return TEST_FAILED;
	g_uar = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	if (g_uar == NULL)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
testsuite_teardown(void)
{
	if (g_uar != NULL)
		rte_pmd_mlx5v_devx_free_uar(g_uar);
	g_uar = NULL;
	rte_vdev_uninit(VDEV_NAME);
}

/* ---- device handle ---- */

static int
test_mlx5v_devx_dev_get(void)
{
	errno = 0;
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_dev_get(NULL), "NULL name accepted");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno %d", rte_errno);
	TEST_ASSERT_NULL(rte_pmd_mlx5v_dev_get("mlx5v_sim9"), "unknown device found");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "rte_errno %d", rte_errno);
	TEST_ASSERT(rte_pmd_mlx5v_dev_get(VDEV_NAME) == g_dev, "handle not stable");
	return TEST_SUCCESS;
}

/* ---- MSI vectors ---- */

static int
test_mlx5v_devx_msi_lowest_free(void)
{
	struct rte_pmd_mlx5v_msi_vector *m[3];
	uint64_t cnt;
	int i;

	for (i = 0; i < 3; i++) {
		m[i] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
		TEST_ASSERT_NOT_NULL(m[i], "alloc %d: %s", i, strerror(errno));
		TEST_ASSERT_EQUAL(m[i]->vector, i + 1, "vector %d, expected %d", m[i]->vector,
				  i + 1);
		/* A non-blocking eventfd: reading it empty gives EAGAIN, not a hang. */
		TEST_ASSERT(fcntl(m[i]->fd, F_GETFL) & O_NONBLOCK, "fd %d blocks", m[i]->fd);
		TEST_ASSERT_EQUAL(read(m[i]->fd, &cnt, sizeof(cnt)), -1, "empty fd read");
		TEST_ASSERT_EQUAL(errno, EAGAIN, "errno %d", errno);
	}
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[1]), "free 2");
	m[1] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m[1], "realloc");
	TEST_ASSERT_EQUAL(m[1]->vector, 2, "lowest free vector not reused: %d", m[1]->vector);
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[i]), "free %d", i);
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_msi_enospc(void)
{
	struct rte_pmd_mlx5v_msi_vector *m[NB_MSIX];
	struct rte_pmd_mlx5v_msi_vector *extra;
	int i;

	/* Vector 0 is the driver's: NB_MSIX - 1 vectors exist for users. */
	for (i = 0; i < NB_MSIX - 1; i++) {
		m[i] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
		TEST_ASSERT_NOT_NULL(m[i], "alloc %d: %s", i, strerror(errno));
	}
	errno = 0;
	extra = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NULL(extra, "a vector beyond the MSI-X table");
	TEST_ASSERT_EQUAL(errno, ENOSPC, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENOSPC, "rte_errno %d", rte_errno);
	for (i = 0; i < NB_MSIX - 1; i++)
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[i]), "free %d", i);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_alloc_msi_vector(NULL), "NULL dev");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_msi_free_einval(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_msi_vector saved;

	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(NULL), EINVAL, "NULL");
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	saved = *m;
	/* rdma-core checks the fields the caller sees; the object survives an EINVAL. */
	m->vector = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "vector 0");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	m->vector = NB_MSIX;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "vector = count");
	m->vector = 4000;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "vector 4000");
	m->vector = -1;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "vector -1");
	*m = saved;
	m->fd = saved.fd + 1000;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "fd mismatch");
	m->fd = -1;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "fd -1");
	/* Another allocated vector's fd does not match either. */
	*m = saved;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "valid free after EINVALs");
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_msi_free_ebusy(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EBUSY,
			  "vector freed under a live EQ");
	TEST_ASSERT_EQUAL(errno, EBUSY, "errno");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free after destroy");
	return TEST_SUCCESS;
}

/* The eventfd is wired to MSI-X entry v: an EQE on an armed EQ with intr v signals it. */
static int
test_mlx5v_devx_msi_fd_wired(void)
{
	struct rte_pmd_mlx5v_msi_vector *m[2];
	struct rte_pmd_mlx5v_eq *eq;
	uint64_t cnt = 0;
	uint32_t eqn;

	m[0] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	m[1] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL, "alloc");
	eq = eq_create(4, m[1]->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, 0);
	TEST_ASSERT_SUCCESS(wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "arm not seen");
	TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, 1), "GEN_EQE");
	TEST_ASSERT(ut_fd_wait(m[1]->fd), "vector %d fd not signalled", m[1]->vector);
	TEST_ASSERT_EQUAL(read(m[1]->fd, &cnt, sizeof(cnt)), (ssize_t)sizeof(cnt), "read");
	TEST_ASSERT(cnt >= 1, "count %" PRIu64, cnt);
	/* The other vector's fd saw nothing. */
	TEST_ASSERT_EQUAL(read(m[0]->fd, &cnt, sizeof(cnt)), -1, "wrong vector signalled");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, 1);
	TEST_ASSERT_SUCCESS(wait_eq_ci(eqn, 1), "CI");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[1]), "free");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[0]), "free");
	return TEST_SUCCESS;
}

/* ---- create: EINVAL cases ---- */

/* Expect create to fail with EINVAL and leave nothing behind. */
static int
expect_create_einval(struct rte_pmd_mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		     size_t outlen, const char *what)
{
	uint64_t cnt0, cnt1, b0, b1;
	unsigned int eqs = live_eqs();
	unsigned int win = live_windows();

	b0 = ut_heap_bytes(&cnt0);
	errno = 0;
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(dev, in, inlen, out, outlen),
			 "%s accepted", what);
	TEST_ASSERT_EQUAL(errno, EINVAL, "%s: errno %d", what, errno);
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "%s: rte_errno %d", what, rte_errno);
	b1 = ut_heap_bytes(&cnt1);
	TEST_ASSERT(b0 == b1 && cnt0 == cnt1, "%s: EAL heap leak", what);
	TEST_ASSERT_EQUAL(live_eqs(), eqs, "%s: EQ leaked in hardware", what);
	TEST_ASSERT_EQUAL(live_windows(), win, "%s: DMA window leaked", what);
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
	eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
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
	eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
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
	eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
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
	eq_in_build(in, sizeof(in), 4, g_uar->page_id, 0, 0);
	ret = expect_create_einval(g_dev, in, sizeof(in), out, sizeof(out), "intr 0");
	/* In range but not allocated. */
	if (ret == TEST_SUCCESS) {
		eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector + 1, 0);
		ret = expect_create_einval(g_dev, in, sizeof(in), out, sizeof(out),
					   "unallocated intr");
	}
	/* Beyond the MSI-X table. */
	if (ret == TEST_SUCCESS) {
		eq_in_build(in, sizeof(in), 4, g_uar->page_id, 100, 0);
		ret = expect_create_einval(g_dev, in, sizeof(in), out, sizeof(out), "intr 100");
	}
	/*
	 * 12-bit intr: rdma-core reads 8 bits, so 0x100 + v would pass as v (prm/mlx5 §6.2); here
	 * it names no allocated vector.
	 */
	if (ret == TEST_SUCCESS) {
		eq_in_build(in, sizeof(in), 4, g_uar->page_id, 0x100 + m->vector, 0);
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
	eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
	/* rdma-core reads a garbage EQN below 12 bytes (§12 #9); we want the whole header. */
	ret = expect_create_einval(g_dev, in, sizeof(in), out, 15, "outlen 15");
	if (ret == TEST_SUCCESS)
		ret = expect_create_einval(g_dev, in, sizeof(in), out, 12, "outlen 12");
	rte_pmd_mlx5v_devx_free_msi_vector(m);
	return ret;
}

/* ---- create: buffers and the device's view ---- */

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
	eq_in_build(in, sizeof(in), 5, g_uar->page_id, m->vector, 0);
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
	TEST_ASSERT_SUCCESS(eq_query(eqn, q, sizeof(q)), "QUERY_EQ");
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
		eq = eq_create(logs[k], m->vector, mask, &eqn);
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
		TEST_ASSERT_SUCCESS(eq_query(eqn, q, sizeof(q)), "QUERY_EQ");
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
	unsigned int eqs = live_eqs();
	unsigned int win = live_windows();

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	b0 = ut_heap_bytes(&c0);
	/* A forced firmware answer (LIM_ERR). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ, 0x08,
						    0x12345678), "knob");
	eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
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
	eq_in_build(in, sizeof(in), 4, g_uar->page_id + 20, m->vector, 0);
	memset(out, 0, sizeof(out));
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out)),
			 "bad uar_page accepted");
	TEST_ASSERT_EQUAL(errno, EREMOTEIO, "errno %d", errno);
	TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS), 0x03, "BAD_PARAM");
	TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME), SIM_SYND_EQ_UAR,
			  "syndrome");
	/* Unwound: no EQ in hardware, no DMA window, no EAL memory, vector not busy. */
	TEST_ASSERT_EQUAL(live_eqs(), eqs, "EQ leaked in hardware");
	TEST_ASSERT_EQUAL(live_windows(), win, "DMA window leaked");
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
	unsigned int win = live_windows();

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	b0 = ut_heap_bytes(&c0);
	/* 2^22 EQEs of 64 bytes = 256 MiB, all of -m 256. */
	eq_in_build(in, sizeof(in), 22, g_uar->page_id, m->vector, 0);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out)),
			 "a 256 MiB ring in 256 MiB of EAL memory");
	TEST_ASSERT_EQUAL(errno, ENOMEM, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "a command was sent");
	TEST_ASSERT_EQUAL(live_windows(), win, "DMA window leaked");
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

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq_in_build(in, sizeof(in), 4, g_uar->page_id, m->vector, 0);
	cmds = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS);
	win = live_windows();
	b0 = ut_heap_bytes(&c0);
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_dma_map", 1), "knob");
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out)),
			 "create with a refused DMA mapping");
	TEST_ASSERT_EQUAL(errno, ENOMEM, "errno %d (not EREMOTEIO: no command ran)", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "a command was sent");
	TEST_ASSERT_EQUAL(live_windows(), win, "DMA window leaked");
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap leak");
	/* The knob is spent: the same create now works, then everything is released. */
	eq = rte_pmd_mlx5v_devx_create_eq(g_dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create after the fault");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "vector left busy");
	return TEST_SUCCESS;
}

/*
 * A dead device (fatal health event): create answers ENOLINK without touching the
 * hardware; destroy-class commands complete locally, so destroy still frees everything.
 */
static int
test_mlx5v_devx_dead_device(void)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	struct rte_pmd_mlx5v_dev *dev;
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	uint64_t c0, c1, b0, b1;

	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim2", "msix=4"), "vdev");
	dev = rte_pmd_mlx5v_dev_get("mlx5v_sim2");
	TEST_ASSERT_NOT_NULL(dev, "dev");
	u = rte_pmd_mlx5v_devx_alloc_uar(dev);
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	TEST_ASSERT(u != NULL && m != NULL, "alloc");
	eq_in_build(in, sizeof(in), 4, u->page_id, m->vector, 0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create");
	b0 = ut_heap_bytes(&c0);
	mlx5v_dev_set_dead((struct mlx5v_dev *)dev, MLX5V_DEAD_USER);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out)),
			 "create on a dead device");
	TEST_ASSERT_EQUAL(errno, ENOLINK, "errno %d", errno);
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "failed create leaked EAL memory");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy on a dead device");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	rte_pmd_mlx5v_devx_free_uar(u);
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim2"), "uninit");
	return TEST_SUCCESS;
}

/* ---- destroy ---- */

static int
test_mlx5v_devx_destroy_frees_buffer(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	uint64_t c0, c1, c2, b0, b1, b2;
	unsigned int win = live_windows();
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	b0 = ut_heap_bytes(&c0);
	eq = eq_create(10, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b1 >= b0 + 64 * 1024, "a 64 KiB ring is not EAL memory");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	b2 = ut_heap_bytes(&c2);
	/* rdma-core leaks vaddr here (§12 #1). */
	TEST_ASSERT(b2 == b0 && c2 == c0, "EAL heap %" PRIu64 " -> %" PRIu64 " after destroy",
		    b0, b2);
	TEST_ASSERT_EQUAL(live_windows(), win, "DMA window left mapped");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(NULL), EINVAL, "NULL");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/* destroy returns the translated errno, never EREMOTEIO, and keeps the EQ. */
static int
test_mlx5v_devx_destroy_device_error(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	unsigned int eqs = live_eqs();
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ,
						    0x03, 0x42), "knob");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), EINVAL, "BAD_PARAM -> EINVAL");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno");
	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ,
						    0x06, 0x43), "knob");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), EBUSY, "RES_BUSY -> EBUSY");
	/* Still alive in the device and usable. */
	TEST_ASSERT_EQUAL(live_eqs(), eqs + 1, "EQ gone after a failed destroy");
	TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, 7), "GEN_EQE");
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, 0), "EQ not usable");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EBUSY, "vector released");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_EQUAL(live_eqs(), eqs, "EQ leaked");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/* ---- query_eqn, general command, UAR, DMA ---- */

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
	eq = eq_create(4, m->vector, 0, &user_eqn);
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

/* GEN_EQE through the general command: the device writes the EQE and sets the owner bit. */
static int
test_mlx5v_devx_gen_eqe(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	const uint8_t *eqe;
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = eq_create(3, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 8, 0), "EQE before any event");
	TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, 4, 0x77), "GEN_EQE");
	eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 8, 0);
	TEST_ASSERT_NOT_NULL(eqe, "no EQE written");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_eqe_type(eqe), RTE_PMD_MLX5V_EVENT_PORT_CHANGE, "type");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_eqe_sub_type(eqe), 4, "sub_type");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_DATA_OFF], 0x77, "data");
	/* First lap: the device writes owner 0 (we sent 0x5a). */
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_OWNER_OFF], 0, "owner %#x",
			  eqe[RTE_PMD_MLX5V_EQE_OWNER_OFF]);
	TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 8, 1), "a second EQE");
	rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, 1, 0);
	TEST_ASSERT_SUCCESS(wait_eq_ci(eqn, 1), "CI");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_general_cmd(void)
{
	uint8_t in[16];
	uint8_t out[16];

	memset(in, 0, sizeof(in));
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(NULL, in, 16, out, 16), EINVAL, "dev");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(g_dev, NULL, 16, out, 16), EINVAL,
			  "in");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(g_dev, in, 8, out, 16), EINVAL,
			  "inlen");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(g_dev, in, 16, out, 8), EINVAL,
			  "outlen");
	/* An opcode the device does not know: it ran and said BAD_OP. */
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, 0x7ff);
	memset(out, 0xff, sizeof(out));
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(g_dev, in, 16, out, 16), EREMOTEIO,
			  "unknown opcode");
	TEST_ASSERT_EQUAL(errno, EREMOTEIO, "errno");
	TEST_ASSERT_EQUAL(RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS), 0x02, "BAD_OP");
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_uar(void)
{
	struct rte_pmd_mlx5v_uar *u;
	unsigned int uars = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_UAR);

	u = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	TEST_ASSERT_NOT_NULL(u, "alloc: %s", strerror(errno));
	TEST_ASSERT(u->page_id >= 3, "UAR index %u inside the init segment", u->page_id);
	TEST_ASSERT(u->page_id != g_uar->page_id, "UAR shared");
	TEST_ASSERT_NOT_NULL(u->base_addr, "base_addr");
	TEST_ASSERT((uint8_t *)u->reg_addr == (uint8_t *)u->base_addr + 0x800, "reg_addr");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_UAR), uars + 1, "live");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_uar(u), "free");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_UAR), uars, "leak");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(NULL), EINVAL, "NULL");
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_alloc_uar(NULL), "NULL dev");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno");
	return TEST_SUCCESS;
}

static int
test_mlx5v_devx_dma_map(void)
{
	unsigned int win = live_windows();
	uint64_t iova = 0;
	uint8_t *buf;

	buf = rte_zmalloc("ut_dma", 8192, 4096);
	TEST_ASSERT_NOT_NULL(buf, "malloc");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_map(g_dev, buf, 8192, &iova), "map");
	TEST_ASSERT_EQUAL(iova, (uint64_t)rte_malloc_virt2iova(buf), "iova");
	TEST_ASSERT_EQUAL(live_windows(), win + 1, "window");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_map(g_dev, buf + 4096, 4096, &iova), EINVAL,
			  "overlap");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_map(g_dev, buf, 0, &iova), EINVAL, "size 0");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_unmap(g_dev, buf, 4096), EINVAL, "size");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_unmap(g_dev, buf, 8192), "unmap");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_unmap(g_dev, buf, 8192), EINVAL, "twice");
	TEST_ASSERT_EQUAL(live_windows(), win, "window left");
	rte_free(buf);
	return TEST_SUCCESS;
}

/* ---- several lcores ---- */

#define STRESS_ITERS 100

struct stress_arg {
	uint32_t errors;
	int iters;
};

static int
stress_worker(void *arg)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct stress_arg *sa = arg;
	uint32_t *errors = &sa->errors;
	uint32_t eqn, dummy;
	int i;

	for (i = 0; i < sa->iters; i++) {
		m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
		if (m == NULL) {
			(*errors)++;
			continue;
		}
		eq = eq_create(2 + i % 6, m->vector, 0, &eqn);
		if (eq == NULL) {
			(*errors)++;
			rte_pmd_mlx5v_devx_free_msi_vector(m);
			continue;
		}
		if (gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, (uint8_t)i) != 0 ||
		    rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 1u << (2 + i % 6), 0) == NULL)
			(*errors)++;
		if (rte_pmd_mlx5v_devx_query_eqn(g_dev, 0, &dummy) != 0)
			(*errors)++;
		if (rte_pmd_mlx5v_devx_free_msi_vector(m) != EBUSY)
			(*errors)++;
		if (rte_pmd_mlx5v_devx_destroy_eq(eq) != 0)
			(*errors)++;
		if (rte_pmd_mlx5v_devx_free_msi_vector(m) != 0)
			(*errors)++;
	}
	return 0;
}

static int
test_mlx5v_devx_multi_lcore(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct stress_arg sm, sw;
	unsigned int eqs, win, round;
	uint64_t c0 = 0, c1, b0 = 0, b1;

	if (worker >= RTE_MAX_LCORE) {
		printf("needs a second lcore (-l 0-1)\n");
		return TEST_SKIPPED;
	}
	/*
	 * Round 0 warms up: the command layer reserves a mailbox (EAL memory, a DMA window)
	 * per slot the first time a slot is used, and two lcores use a second slot. The
	 * leak checks compare round 1 with the state after round 0.
	 */
	eqs = live_eqs();
	win = 0;
	for (round = 0; round < 2; round++) {
		if (round == 1) {
			win = live_windows();
			b0 = ut_heap_bytes(&c0);
		}
		sm.errors = 0;
		sw.errors = 0;
		sm.iters = round == 0 ? 10 : STRESS_ITERS;
		sw.iters = sm.iters;
		TEST_ASSERT_SUCCESS(rte_eal_remote_launch(stress_worker, &sw, worker), "launch");
		stress_worker(&sm);
		rte_eal_wait_lcore(worker);
		TEST_ASSERT_EQUAL(sm.errors, 0, "%u errors on the main lcore", sm.errors);
		TEST_ASSERT_EQUAL(sw.errors, 0, "%u errors on lcore %u", sw.errors, worker);
		TEST_ASSERT_EQUAL(live_eqs(), eqs, "EQs leaked in hardware");
	}
	TEST_ASSERT_EQUAL(live_windows(), win, "DMA windows leaked: %u -> %u", win,
			  live_windows());
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap leak");
	return TEST_SUCCESS;
}

/* ---- item 3: consuming helpers ---- */

/* Three laps of a 4-entry EQ: the owner parity flips each lap. */
static int
test_mlx5v_devx_helpers_owner_wrap(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	const uint8_t *eqe;
	uint32_t eqn, ci = 0, lap, k;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = eq_create(2, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	for (lap = 0; lap < 3; lap++) {
		TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 4, ci),
				 "lap %u: stale EQE taken as new", lap);
		for (k = 0; k < 4; k++)
			TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0,
						    lap * 4 + k), "GEN_EQE");
		for (k = 0; k < 4; k++, ci++) {
			eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 4, ci);
			TEST_ASSERT_NOT_NULL(eqe, "lap %u: EQE %u missing", lap, k);
			TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_DATA_OFF], lap * 4 + k, "order");
			TEST_ASSERT_EQUAL((eqe[RTE_PMD_MLX5V_EQE_OWNER_OFF] & 1), (lap & 1),
					  "lap %u: owner", lap);
		}
		/* The device must learn the CI before the next lap or it overruns (§6.9). */
		rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, ci, 0);
		TEST_ASSERT_SUCCESS(wait_eq_ci(eqn, ci), "CI %u not seen", ci);
	}
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

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
test_mlx5v_devx_helpers_ci_budget_128(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct rte_pmd_mlx5v_uar spy;
	struct mlx5v_devx_eq *deq;
	struct mlx5v_devx_eq_stats st;
	struct budget_ctx b;
	uint8_t *page;
	uint32_t eqn, ci = 0, n, i;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = eq_create(9, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	for (i = 0; i < 300; i++)
		TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, 0), "gen");
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
	TEST_ASSERT_SUCCESS(wait_eq_ci(eqn, ci), "CI");
	deq = mlx5v_devx_to_eq(eq);
	TEST_ASSERT_NOT_NULL(deq, "internal view");
	deq->ci = ci;
	for (i = 0; i < 300; i++)
		TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, 0), "gen");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_poll(deq), 300, "driver poll");
	mlx5v_devx_eq_stats_get(deq, &st);
	TEST_ASSERT_EQUAL(st.ci_updates, 2, "no-arm updates %" PRIu64, st.ci_updates);
	TEST_ASSERT_EQUAL(st.arms, 1, "arms %" PRIu64, st.arms);
	TEST_ASSERT_SUCCESS(wait_eq_ci(eqn, 600), "device CI");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_EQ_OVERRUNS), 0, "overrun");
	drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/* §6.11 / §12 #7: an arm with pending EQEs fires at once; an armed EQ fires on the EQE. */
static int
test_mlx5v_devx_helpers_arm_both_orders(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn, ci = 0;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	/* Order 1: the EQE first (a new EQ is not armed), then the arm. */
	TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, 1), "gen");
	TEST_ASSERT_SUCCESS(wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_FIRED), "unarmed EQ state");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, ci);
	TEST_ASSERT(ut_fd_wait(m->fd), "arm with a pending EQE did not interrupt");
	drain_fd(m->fd);
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, ci), "EQE");
	ci++;
	/* Order 2: arm (nothing pending), then the EQE. */
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, ci);
	TEST_ASSERT_SUCCESS(wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "not armed");
	TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, 2), "gen");
	TEST_ASSERT(ut_fd_wait(m->fd), "EQE on an armed EQ did not interrupt");
	drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_FIRED), "not FIRED");
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, ci), "EQE");
	ci++;
	rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, ci, 0);
	TEST_ASSERT_SUCCESS(wait_eq_ci(eqn, ci), "CI");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/* ---- EAL interrupt callback path ---- */

struct ev_log {
	uint32_t n[RTE_PMD_MLX5V_EVENT_MAX];
	uint8_t last[RTE_PMD_MLX5V_EVENT_MAX][RTE_PMD_MLX5V_EQE_SIZE];
	uint32_t any;
};

static void
ev_log_cb(struct mlx5v_dev *dev, uint32_t eqn, const uint8_t *eqe, void *arg)
{
	struct ev_log *l = arg;
	uint8_t t = eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF];

	RTE_SET_USED(dev);
	RTE_SET_USED(eqn);
	memcpy(l->last[t], eqe, RTE_PMD_MLX5V_EQE_SIZE);
	__atomic_fetch_add(&l->n[t], 1, __ATOMIC_RELEASE);
}

static void
ev_any_cb(struct mlx5v_dev *dev, uint32_t eqn, const uint8_t *eqe, void *arg)
{
	struct ev_log *l = arg;

	RTE_SET_USED(dev);
	RTE_SET_USED(eqn);
	RTE_SET_USED(eqe);
	__atomic_fetch_add(&l->any, 1, __ATOMIC_RELEASE);
}

static int
test_mlx5v_devx_intr_callback(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct mlx5v_devx_eq *deq;
	struct mlx5v_devx_eq_stats st;
	struct ev_log *l;
	uint32_t eqn;
	int i;

	l = rte_zmalloc("ut_evlog", sizeof(*l), 0);
	TEST_ASSERT_NOT_NULL(l, "malloc");
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = eq_create(5, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	deq = mlx5v_devx_to_eq(eq);
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_handler_set(deq, RTE_PMD_MLX5V_EVENT_PORT_CHANGE,
						      ev_log_cb, l), "handler");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_handler_set(deq, MLX5V_DEVX_EVENT_ANY, ev_any_cb, l),
			    "default handler");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_handler_set(deq, 257, ev_any_cb, l), -EINVAL, "type");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(deq), "intr start");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_intr_start(deq), -EEXIST, "twice");
	TEST_ASSERT_SUCCESS(wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "armed by start");
	/* Raised one at a time and in bursts: every EQE reaches its handler. */
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, 4, i), "gen");
		TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->n[RTE_PMD_MLX5V_EVENT_PORT_CHANGE],
						      i + 1), "port event %d not dispatched", i);
	}
	for (i = 0; i < 40; i++)
		TEST_ASSERT_SUCCESS(gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, i), "gen");
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->any, 40), "default handler got %u", l->any);
	TEST_ASSERT_EQUAL(l->last[RTE_PMD_MLX5V_EVENT_PORT_CHANGE][RTE_PMD_MLX5V_EQE_DATA_OFF],
			  2, "last port EQE");
	mlx5v_devx_eq_stats_get(deq, &st);
	TEST_ASSERT(st.intrs >= 1, "no interrupt callback ran");
	TEST_ASSERT_EQUAL(st.eqes, 43, "eqes %" PRIu64, st.eqes);
	TEST_ASSERT_EQUAL(st.by_type[RTE_PMD_MLX5V_EVENT_GENERAL_EVENT], 40, "by type");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_stop(deq), "stop");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_intr_stop(deq), -ENOENT, "stop twice");
	/* destroy also stops a running callback by itself. */
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(deq), "restart");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	rte_free(l);
	return TEST_SUCCESS;
}

/* ---- item 4: end to end ---- */

/* A CQ the caller builds: ring + dbrec in EAL memory, DMA-mapped, CREATE_CQ by hand. */
struct user_cq {
	uint8_t *buf;
	volatile uint32_t *dbrec;
	uint64_t iova;
	uint32_t nent;
	uint32_t cqn;
};

#define UCQ_LOG 6
#define UCQ_RING 4096

static int
user_cq_create(struct user_cq *cq, uint32_t eqn)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_CQ_IN_SIZE + 8];
	uint8_t out[RTE_PMD_MLX5V_CREATE_CQ_OUT_SIZE];
	uint8_t *cqc = in + RTE_PMD_MLX5V_CREATE_CQ_IN_CQC;
	uint32_t i;

	cq->nent = 1u << UCQ_LOG;
	cq->buf = rte_zmalloc("ut_cq", UCQ_RING + 4096, UCQ_RING);
	if (cq->buf == NULL)
		return -1;
	cq->dbrec = (volatile uint32_t *)(cq->buf + UCQ_RING);
	/* CQEs start invalid and hardware-owned (§7.4). */
	for (i = 0; i < cq->nent; i++)
		cq->buf[i * 64 + RTE_PMD_MLX5V_CQE_OP_OWN_OFF] = RTE_PMD_MLX5V_CQE_OP_OWN_INIT;
	if (rte_pmd_mlx5v_devx_dma_map(g_dev, cq->buf, UCQ_RING + 4096, &cq->iova) != 0)
		return -1;
	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_CQ);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_LOG_CQ_SIZE, UCQ_LOG);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_UAR_PAGE, g_uar->page_id);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_C_EQN, eqn);
	RTE_PMD_MLX5V_SET(cqc, RTE_PMD_MLX5V_CQC_LOG_PAGE_SIZE, 0);
	RTE_PMD_MLX5V_SET64(cqc, RTE_PMD_MLX5V_CQC_DBR_ADDR, cq->iova + UCQ_RING);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_CQ_IN_PAS, cq->iova);
	if (rte_pmd_mlx5v_devx_general_cmd(g_dev, in, sizeof(in), out, sizeof(out)) != 0) {
		printf("CREATE_CQ: %s status %#x syndrome %#x\n", strerror(errno),
		       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS),
		       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME));
		return -1;
	}
	cq->cqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_CQ_OUT_CQN);
	return 0;
}

static int
user_cq_destroy(struct user_cq *cq)
{
	uint8_t in[16];
	uint8_t out[16];
	int ret;

	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN, cq->cqn);
	ret = rte_pmd_mlx5v_devx_general_cmd(g_dev, in, sizeof(in), out, sizeof(out));
	ret |= rte_pmd_mlx5v_devx_dma_unmap(g_dev, cq->buf, UCQ_RING + 4096);
	rte_free(cq->buf);
	return ret;
}

/* Wait until the device reads CQ cqn as state st. */
static int
wait_cq_st(uint32_t cqn, uint32_t st)
{
	uint8_t in[16];
	uint8_t out[RTE_PMD_MLX5V_QUERY_CQ_OUT_SIZE + 8];
	unsigned int ms;

	memset(in, 0, sizeof(in));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_CQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN, cqn);
	for (ms = 0; ms < UT_WAIT_LIMIT_MS; ms++) {
		if (rte_pmd_mlx5v_devx_general_cmd(g_dev, in, sizeof(in), out, sizeof(out)) != 0)
			return -1;
		if (RTE_PMD_MLX5V_GET(out + RTE_PMD_MLX5V_QUERY_CQ_OUT_CQC,
				      RTE_PMD_MLX5V_CQC_ST) == st)
			return 0;
		ut_sleep_ms(1);
	}
	return -1;
}

struct epoll_waiter {
	int fd;
	volatile int ready;
	int nev;
	void *data;
	uint64_t drained;
};

/* rte_epoll leaves the eventfd to us: read it in the event callback. */
static void
epoll_drain_cb(int fd, void *arg)
{
	struct epoll_waiter *w = arg;
	uint64_t cnt;

	while (read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		w->drained += cnt;
}

/* lcore 1: its own (per-thread) epoll set, one wait for the vector's fd. */
static int
epoll_waiter_main(void *arg)
{
	struct epoll_waiter *w = arg;
	struct rte_epoll_event ev;
	struct rte_epoll_event out[1];

	memset(&ev, 0, sizeof(ev));
	ev.epdata.event = EPOLLIN | EPOLLET;
	ev.epdata.data = w;
	ev.epdata.cb_fun = epoll_drain_cb;
	ev.epdata.cb_arg = w;
	if (rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_ADD, w->fd, &ev) != 0) {
		w->nev = -1;
		w->ready = 1;
		return 0;
	}
	w->ready = 1;
	w->nev = rte_epoll_wait(RTE_EPOLL_PER_THREAD, out, 1, UT_WAIT_LIMIT_MS);
	if (w->nev == 1)
		w->data = out[0].epdata.data;
	rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_DEL, w->fd, &ev);
	return 0;
}

/*
 * A CQ on EAL memory bound to a user EQ (c_eqn); CQ arm and EQ arm; the simulator posts
 * a CQE; the completion EQE names the CQ and the MSI wakes rte_epoll_wait on lcore 1.
 */
static int
test_mlx5v_devx_e2e_cq_msi_epoll(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct epoll_waiter w;
	struct user_cq cq;
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	unsigned int cqs = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ);
	const uint8_t *eqe;
	const uint8_t *cqe;
	uint32_t eqn, ci = 0;
	unsigned int ms;

	if (worker >= RTE_MAX_LCORE)
		return TEST_SKIPPED;
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	/* A completion EQ: completion events ignore the mask (§6.4). */
	eq = eq_create(6, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(user_cq_create(&cq, eqn), "CQ");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ), cqs + 1, "live CQ");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, ci);
	rte_pmd_mlx5v_cq_arm(g_uar, cq.dbrec, cq.cqn, 0, 0, 0);
	TEST_ASSERT_SUCCESS(wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "EQ arm");
	TEST_ASSERT_SUCCESS(wait_cq_st(cq.cqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "CQ arm");
	memset(&w, 0, sizeof(w));
	w.fd = m->fd;
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(epoll_waiter_main, &w, worker), "launch");
	for (ms = 0; ms < UT_WAIT_LIMIT_MS && !w.ready; ms++)
		ut_sleep_ms(1);
	TEST_ASSERT(w.ready && w.nev != -1, "waiter not ready");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.cqn, 0x2, 64), "post CQE");
	rte_eal_wait_lcore(worker);
	TEST_ASSERT_EQUAL(w.nev, 1, "rte_epoll_wait returned %d", w.nev);
	TEST_ASSERT(w.data == &w, "epoll data");
	TEST_ASSERT(w.drained >= 1, "eventfd not drained");
	eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 64, ci);
	TEST_ASSERT_NOT_NULL(eqe, "no completion EQE");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_eqe_type(eqe), RTE_PMD_MLX5V_EVENT_COMP, "type");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_prm_get(eqe + RTE_PMD_MLX5V_EQE_COMP_CQN_OFF, 0, 23, 0),
			  cq.cqn, "cqn");
	ci++;
	cqe = rte_pmd_mlx5v_cq_next_cqe(cq.buf, cq.nent, 0);
	TEST_ASSERT_NOT_NULL(cqe, "no CQE");
	TEST_ASSERT_EQUAL((cqe[RTE_PMD_MLX5V_CQE_OP_OWN_OFF] >> 4), 0x2, "CQE opcode");
	rte_pmd_mlx5v_cq_update_ci(cq.dbrec, 1);
	TEST_ASSERT_NULL(rte_pmd_mlx5v_cq_next_cqe(cq.buf, cq.nent, 1), "a second CQE");
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, ci);
	TEST_ASSERT_SUCCESS(wait_eq_ci(eqn, ci), "EQ CI");
	/* The EQ cannot go while a CQ reports to it; the device says so. */
	TEST_ASSERT(rte_pmd_mlx5v_devx_destroy_eq(eq) != 0, "EQ destroyed under its CQ");
	TEST_ASSERT_SUCCESS(user_cq_destroy(&cq), "CQ destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ), cqs, "CQ leaked");
	return TEST_SUCCESS;
}

/*
 * An async-style user EQ (PORT_CHANGE | CQ_ERROR) on the EAL interrupt path: a port
 * change and a CQ overrun (CQ_ERROR, syndrome 1) arrive with their fields. The CQ uses
 * the driver-side helper (mlx5v_devx_cq_create) and a separate completion EQ.
 */
static int
test_mlx5v_devx_e2e_async_port_cq_error(void)
{
	struct rte_pmd_mlx5v_msi_vector *m[2];
	struct rte_pmd_mlx5v_eq *aeq, *ceq;
	struct mlx5v_devx_eq *deq;
	struct mlx5v_devx_cq *cq;
	struct ev_log *l;
	const uint8_t *e;
	uint64_t mask = (UINT64_C(1) << RTE_PMD_MLX5V_EVENT_PORT_CHANGE) |
			(UINT64_C(1) << RTE_PMD_MLX5V_EVENT_CQ_ERROR);
	uint32_t aeqn, ceqn, i;
	int ret = 0;

	l = rte_zmalloc("ut_evlog", sizeof(*l), 0);
	TEST_ASSERT_NOT_NULL(l, "malloc");
	m[0] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	m[1] = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL, "alloc");
	aeq = eq_create(5, m[0]->vector, mask, &aeqn);
	ceq = eq_create(6, m[1]->vector, 0, &ceqn);
	TEST_ASSERT(aeq != NULL && ceq != NULL, "create");
	deq = mlx5v_devx_to_eq(aeq);
	mlx5v_devx_eq_handler_set(deq, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, ev_log_cb, l);
	mlx5v_devx_eq_handler_set(deq, RTE_PMD_MLX5V_EVENT_CQ_ERROR, ev_log_cb, l);
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(deq), "intr");
	cq = mlx5v_devx_cq_create((struct mlx5v_dev *)g_dev, 3, ceqn, g_uar);
	TEST_ASSERT_NOT_NULL(cq, "CQ: %s", rte_strerror(rte_errno));
	/* Port 1 goes down. */
	TEST_ASSERT(mlx5v_sim_port_event(g_sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_DOWN) >= 1,
		    "port event reached no EQ");
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->n[RTE_PMD_MLX5V_EVENT_PORT_CHANGE], 1), "port");
	e = l->last[RTE_PMD_MLX5V_EVENT_PORT_CHANGE];
	TEST_ASSERT_EQUAL(e[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF], RTE_PMD_MLX5V_PORT_CHANGE_DOWN,
			  "sub_type");
	TEST_ASSERT_EQUAL((e[RTE_PMD_MLX5V_EQE_PORT_OFF] >> 4), 1, "port number");
	/* Never consume the CQ: the device overruns it and reports CQ_ERROR. */
	for (i = 0; i <= cq->nent + 1 && ret != -ENOSPC; i++)
		ret = mlx5v_sim_post_cqe(g_sim, cq->cqn, 0x2, 64);
	TEST_ASSERT_EQUAL(ret, -ENOSPC, "no overrun after %u CQEs", i);
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->n[RTE_PMD_MLX5V_EVENT_CQ_ERROR], 1), "CQ error");
	e = l->last[RTE_PMD_MLX5V_EVENT_CQ_ERROR];
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_prm_get(e + RTE_PMD_MLX5V_EQE_CQ_ERR_CQN_OFF, 0, 23, 0),
			  cq->cqn, "cqn");
	TEST_ASSERT_EQUAL(e[RTE_PMD_MLX5V_EQE_CQ_ERR_SYNDROME_OFF],
			  RTE_PMD_MLX5V_CQ_ERR_SYND_OVERRUN, "syndrome");
	/* Port 1 comes back. */
	mlx5v_sim_port_event(g_sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE);
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&l->n[RTE_PMD_MLX5V_EVENT_PORT_CHANGE], 2),
			    "port up");
	TEST_ASSERT_SUCCESS(mlx5v_devx_cq_destroy(cq), "CQ destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(aeq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(ceq), "destroy");
	drain_fd(m[1]->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[0]), "free");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m[1]), "free");
	rte_free(l);
	return TEST_SUCCESS;
}

/* The driver-side CQ helper: owner-initialised ring, arm, poll. */
static int
test_mlx5v_devx_cq_helper(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	struct mlx5v_devx_cq *cq;
	uint64_t sw_owned = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_RING_SW_OWNED);
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	cq = mlx5v_devx_cq_create((struct mlx5v_dev *)g_dev, 4, eqn, g_uar);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_RING_SW_OWNED), sw_owned,
			  "CQ ring reached the device software-owned");
	mlx5v_devx_cq_arm(cq, 0);
	rte_pmd_mlx5v_eq_arm(g_uar, eqn, 0);
	TEST_ASSERT_SUCCESS(wait_cq_st(cq->cqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "CQ arm");
	TEST_ASSERT_SUCCESS(wait_eq_st(eqn, RTE_PMD_MLX5V_EQC_ST_ARMED), "EQ arm");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq->cqn, 0x0, 128), "post");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq->cqn, 0x0, 128), "post");
	TEST_ASSERT(ut_fd_wait(m->fd), "no MSI");
	TEST_ASSERT_EQUAL(mlx5v_devx_cq_poll(cq), 2, "CQEs");
	TEST_ASSERT_EQUAL(cq->dbrec[0], rte_cpu_to_be_32(2), "dbrec ci");
	/* One completion EQE: the CQ fired once and must be re-armed. */
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, 0), "EQE");
	TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 16, 1), "two EQEs for one arm");
	TEST_ASSERT_SUCCESS(mlx5v_devx_cq_destroy(cq), "CQ destroy");
	rte_pmd_mlx5v_eq_update_ci(g_uar, eqn, 1, 0);
	TEST_ASSERT_SUCCESS(wait_eq_ci(eqn, 1), "CI");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/* Objects left at device removal are destroyed by the driver: nothing leaks. */
static int
test_mlx5v_devx_removal_cleanup(void)
{
	struct rte_pmd_mlx5v_dev *dev;
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	uint64_t c0, c1, b0, b1;

	b0 = ut_heap_bytes(&c0);
	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim1", "msix=4"), "vdev");
	dev = rte_pmd_mlx5v_dev_get("mlx5v_sim1");
	TEST_ASSERT_NOT_NULL(dev, "dev");
	u = rte_pmd_mlx5v_devx_alloc_uar(dev);
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	TEST_ASSERT(u != NULL && m != NULL, "alloc");
	eq_in_build(in, sizeof(in), 4, u->page_id, m->vector, 0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(mlx5v_devx_to_eq(eq)), "intr");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim1"), "uninit");
	/* The context is freed by an alarm after the core's hook walk. */
	ut_sleep_ms(20);
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap %" PRIu64 " -> %" PRIu64, b0, b1);
	TEST_ASSERT_NULL(rte_pmd_mlx5v_dev_get("mlx5v_sim1"), "device still found");
	return TEST_SUCCESS;
}

/* ---- stale handles: validated by address, never read ---- */

/* A second destroy/free of any handle is EINVAL (errno too), and touches nothing. */
static int
test_mlx5v_devx_double_destroy(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	unsigned int eqs = live_eqs();
	uint64_t cmds;
	uint32_t eqn;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	eq = eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	cmds = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS);
	errno = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), EINVAL, "second destroy_eq");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "the second destroy reached the device");
	TEST_ASSERT_EQUAL(live_eqs(), eqs, "EQ count changed");
	/* The internal API refuses the dead EQ as well. */
	TEST_ASSERT_NULL(mlx5v_devx_to_eq(eq), "to_eq on a destroyed EQ");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_destroy((struct mlx5v_devx_eq *)eq), -EINVAL, "internal");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_poll((struct mlx5v_devx_eq *)eq), -EINVAL, "poll");

	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	errno = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "second free_msi");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_NULL(mlx5v_devx_to_msi(m), "to_msi on a freed vector");

	u = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	TEST_ASSERT_NOT_NULL(u, "alloc_uar");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_uar(u), "free_uar");
	cmds = mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS);
	errno = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(u), EINVAL, "second free_uar");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_CMDS), cmds,
			  "the second free reached the device");
	TEST_ASSERT_NULL(mlx5v_devx_to_uar(u), "to_uar on a freed UAR");
	/* One kind is not another: a live UAR is not an EQ or a vector. */
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq((struct rte_pmd_mlx5v_eq *)g_uar), EINVAL,
			  "a UAR destroyed as an EQ");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(
				(struct rte_pmd_mlx5v_msi_vector *)g_uar), EINVAL,
			  "a UAR freed as a vector");
	TEST_ASSERT_NOT_NULL(mlx5v_devx_to_uar(g_uar), "the suite UAR was harmed");
	return TEST_SUCCESS;
}

#define RACE_ITERS 200

struct race_arg {
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t go;            /* atomic: the main lcore set eq */
	int destroy_ret;
	uint32_t bad;           /* poll results other than >= 0 or -EINVAL */
	int mode;               /* 0: destroy the same EQ; 1: poll/arm until EINVAL */
};

static int
race_worker(void *arg)
{
	struct race_arg *ra = arg;
	struct mlx5v_devx_eq *deq;
	int ret;

	while (!__atomic_load_n(&ra->go, __ATOMIC_ACQUIRE))
		rte_pause();
	if (ra->mode == 0) {
		ra->destroy_ret = rte_pmd_mlx5v_devx_destroy_eq(ra->eq);
		return 0;
	}
	deq = (struct mlx5v_devx_eq *)ra->eq;
	for (;;) {
		ret = mlx5v_devx_eq_poll(deq);
		if (ret == -EINVAL)
			break;
		if (ret < 0)
			ra->bad++;
		ret = mlx5v_devx_eq_arm(deq);
		if (ret == -EINVAL)
			break;
		if (ret < 0)
			ra->bad++;
	}
	return 0;
}

/*
 * Two lcores destroy one EQ at once: exactly one wins, the other gets EINVAL. Then one
 * lcore polls and arms an EQ while the other destroys it: every call either works or
 * answers EINVAL; under ASan any read of the freed EQ would abort the test.
 */
static int
test_mlx5v_devx_concurrent_destroy(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct rte_pmd_mlx5v_msi_vector *m;
	unsigned int eqs = live_eqs();
	struct race_arg ra;
	uint32_t eqn;
	int i, mine, mode;

	if (worker >= RTE_MAX_LCORE) {
		printf("needs a second lcore (-l 0-1)\n");
		return TEST_SKIPPED;
	}
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	for (mode = 0; mode < 2; mode++) {
		for (i = 0; i < RACE_ITERS; i++) {
			memset(&ra, 0, sizeof(ra));
			ra.mode = mode;
			ra.destroy_ret = -1;
			ra.eq = eq_create(2, m->vector, 0, &eqn);
			TEST_ASSERT_NOT_NULL(ra.eq, "create %d", i);
			TEST_ASSERT_SUCCESS(rte_eal_remote_launch(race_worker, &ra, worker),
					    "launch");
			__atomic_store_n(&ra.go, 1, __ATOMIC_RELEASE);
			mine = rte_pmd_mlx5v_devx_destroy_eq(ra.eq);
			rte_eal_wait_lcore(worker);
			if (mode == 0)
				TEST_ASSERT((mine == 0 && ra.destroy_ret == EINVAL) ||
					    (mine == EINVAL && ra.destroy_ret == 0),
					    "iteration %d: destroys returned %d and %d", i, mine,
					    ra.destroy_ret);
			else
				TEST_ASSERT(mine == 0 && ra.bad == 0,
					    "iteration %d: destroy %d, %u bad poll/arm results", i,
					    mine, ra.bad);
		}
	}
	TEST_ASSERT_EQUAL(live_eqs(), eqs, "EQs leaked in hardware");
	drain_fd(m->fd);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free");
	return TEST_SUCCESS;
}

/*
 * The device is removed with objects still allocated: the removal releases them, and
 * every later call with the old handles fails cleanly (objects EINVAL, the device
 * handle ENODEV) without reading freed memory. A new device then works end to end.
 */
static int
test_mlx5v_devx_handles_after_removal(void)
{
	struct rte_pmd_mlx5v_dev *dev;
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	struct mlx5v_devx_eq *deq;
	struct mlx5v_devx_eq_stats st;
	struct mlx5v_devx_eq *list[4];
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE];
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE];
	uint8_t qin[RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE];
	uint8_t qout[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8];
	uint64_t c0, c1, b0, b1, iova;
	uint32_t eqn, qeqn;
	uint8_t *buf;

	buf = rte_zmalloc("devx_removal", 4096, 4096);
	TEST_ASSERT_NOT_NULL(buf, "buffer");
	b0 = ut_heap_bytes(&c0);
	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim3", "msix=4"), "vdev");
	dev = rte_pmd_mlx5v_dev_get("mlx5v_sim3");
	TEST_ASSERT_NOT_NULL(dev, "dev");
	u = rte_pmd_mlx5v_devx_alloc_uar(dev);
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	TEST_ASSERT(u != NULL && m != NULL, "alloc");
	eq_in_build(in, sizeof(in), 4, u->page_id, m->vector, 0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create");
	eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	deq = mlx5v_devx_to_eq(eq);
	TEST_ASSERT_NOT_NULL(deq, "to_eq");
	TEST_ASSERT_SUCCESS(mlx5v_devx_eq_intr_start(deq), "intr");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_map(dev, buf, 4096, &iova), "dma_map");

	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim3"), "uninit");

	/* Object handles: EINVAL, errno too. */
	errno = 0;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), EINVAL, "destroy_eq");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), EINVAL, "free_msi_vector");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(u), EINVAL, "free_uar");
	TEST_ASSERT_NULL(mlx5v_devx_to_eq(eq), "to_eq");
	TEST_ASSERT_NULL(mlx5v_devx_to_msi(m), "to_msi");
	TEST_ASSERT_NULL(mlx5v_devx_to_uar(u), "to_uar");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_poll(deq), -EINVAL, "eq_poll");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_arm(deq), -EINVAL, "eq_arm");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_pending(deq), 0, "eq_pending");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_stats_get(deq, &st), -EINVAL, "eq_stats_get");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_handler_set(deq, 0, NULL, NULL), -EINVAL, "handler");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_intr_start(deq), -EINVAL, "intr_start");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_intr_stop(deq), -EINVAL, "intr_stop");

	/* The device handle: ENODEV, errno too; nothing reaches the freed device. */
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_alloc_msi_vector(dev), "alloc_msi_vector");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "rte_errno %d", rte_errno);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_alloc_uar(dev), "alloc_uar");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out)),
			 "create_eq");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_query_eqn(dev, 0, &qeqn), ENODEV, "query_eqn");
	memset(qin, 0, sizeof(qin));
	RTE_PMD_MLX5V_SET(qin, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_EQ);
	RTE_PMD_MLX5V_SET(qin, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_general_cmd(dev, qin, sizeof(qin), qout,
							 sizeof(qout)), ENODEV, "general_cmd");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_map(dev, buf, 4096, &iova), ENODEV, "dma_map");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_dma_unmap(dev, buf, 4096), ENODEV, "dma_unmap");
	TEST_ASSERT_NULL(mlx5v_devx_eq_find((struct mlx5v_dev *)dev, eqn), "eq_find");
	TEST_ASSERT_EQUAL(mlx5v_devx_eq_list((struct mlx5v_dev *)dev, list, RTE_DIM(list)),
			  -ENODEV, "eq_list");
	TEST_ASSERT_NULL(mlx5v_devx_cq_create((struct mlx5v_dev *)dev, 4, eqn, g_uar),
			 "cq_create");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "rte_errno %d", rte_errno);
	errno = 0;
	TEST_ASSERT_NULL(rte_pmd_mlx5v_dev_get("mlx5v_sim3"), "device still found");
	TEST_ASSERT_EQUAL(errno, ENODEV, "errno %d", errno);
	/* Everything the application left was released, in the device and in EAL memory. */
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap %" PRIu64 " -> %" PRIu64, b0, b1);

	/* A new device under the same name: a full cycle with new handles. */
	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx5v_sim3", "msix=4"), "vdev again");
	dev = rte_pmd_mlx5v_dev_get("mlx5v_sim3");
	TEST_ASSERT_NOT_NULL(dev, "dev again");
	u = rte_pmd_mlx5v_devx_alloc_uar(dev);
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	TEST_ASSERT(u != NULL && m != NULL, "alloc again");
	TEST_ASSERT_EQUAL(m->vector, 1, "vector %d: the old one was not released", m->vector);
	eq_in_build(in, sizeof(in), 4, u->page_id, m->vector, 0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create again");
	eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	RTE_PMD_MLX5V_SET(qin, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_general_cmd(dev, qin, sizeof(qin), qout,
							   sizeof(qout)), "QUERY_EQ");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_query_eqn(dev, 0, &qeqn), "query_eqn");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_map(dev, buf, 4096, &iova), "dma_map");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_dma_unmap(dev, buf, 4096), "dma_unmap");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free_msi");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_uar(u), "free_uar");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx5v_sim3"), "uninit again");
	b1 = ut_heap_bytes(&c1);
	TEST_ASSERT(b0 == b1 && c0 == c1, "EAL heap %" PRIu64 " -> %" PRIu64, b0, b1);
	rte_free(buf);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_devx_suite = {
	.suite_name = "mlx5v DEVX EQ / MSI API",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_devx_dev_get),
		TEST_CASE(test_mlx5v_devx_msi_lowest_free),
		TEST_CASE(test_mlx5v_devx_msi_enospc),
		TEST_CASE(test_mlx5v_devx_msi_free_einval),
		TEST_CASE(test_mlx5v_devx_msi_free_ebusy),
		TEST_CASE(test_mlx5v_devx_msi_fd_wired),
		TEST_CASE(test_mlx5v_devx_create_einval_null),
		TEST_CASE(test_mlx5v_devx_create_einval_inlen),
		TEST_CASE(test_mlx5v_devx_create_einval_opcode),
		TEST_CASE(test_mlx5v_devx_create_einval_intr),
		TEST_CASE(test_mlx5v_devx_create_einval_outlen),
		TEST_CASE(test_mlx5v_devx_create_in_unmodified),
		TEST_CASE(test_mlx5v_devx_query_eq_context),
		TEST_CASE(test_mlx5v_devx_create_eremoteio),
		TEST_CASE(test_mlx5v_devx_create_enomem),
		TEST_CASE(test_mlx5v_devx_create_dma_map_fails),
		TEST_CASE(test_mlx5v_devx_destroy_frees_buffer),
		TEST_CASE(test_mlx5v_devx_destroy_device_error),
		TEST_CASE(test_mlx5v_devx_query_eqn),
		TEST_CASE(test_mlx5v_devx_gen_eqe),
		TEST_CASE(test_mlx5v_devx_general_cmd),
		TEST_CASE(test_mlx5v_devx_uar),
		TEST_CASE(test_mlx5v_devx_dma_map),
		TEST_CASE(test_mlx5v_devx_multi_lcore),
		TEST_CASE(test_mlx5v_devx_helpers_owner_wrap),
		TEST_CASE(test_mlx5v_devx_helpers_ci_budget_128),
		TEST_CASE(test_mlx5v_devx_helpers_arm_both_orders),
		TEST_CASE(test_mlx5v_devx_intr_callback),
		TEST_CASE(test_mlx5v_devx_e2e_cq_msi_epoll),
		TEST_CASE(test_mlx5v_devx_e2e_async_port_cq_error),
		TEST_CASE(test_mlx5v_devx_cq_helper),
		TEST_CASE(test_mlx5v_devx_removal_cleanup),
		TEST_CASE(test_mlx5v_devx_dead_device),
		TEST_CASE(test_mlx5v_devx_double_destroy),
		TEST_CASE(test_mlx5v_devx_concurrent_destroy),
		TEST_CASE(test_mlx5v_devx_handles_after_removal),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_devx(void)
{
	return unit_test_suite_runner(&mlx5v_devx_suite);
}

REGISTER_TEST_COMMAND(mlx5v_devx_autotest, test_mlx5v_devx);
