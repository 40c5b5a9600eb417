/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/*
 * Acceptance tests of the public contracts (DEVX EQ / MSI vector / UAR API of mlx5v;
 * rte_pmd_mlx4v_init_obj), written from the PRM facts alone (prm/mlx5 §6, §7, §11, §12;
 * prm/mlx4 §1-§3). Every device mailbox is built with raw byte offsets taken from the
 * digest, not with the project's PRM macros. The one simulator
 * call, mlx5v_sim_post_cqe(), stands for a finished work request: it writes a CQE, whose
 * completion event is the second source of the event tests (beside GEN_EQE).
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_atomic.h>
#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_io.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "test.h"

#include "rte_pmd_mlx5v.h"
#include "rte_pmd_mlx4v.h"
#include "mlx5v_sim.h"

#define MLX5_DEV "mlx5v_sim0"
#define MLX5_DEV_SMALL "mlx5v_sim1" /* log_max_eq_sz = 8 */
#define MLX4_DEV "mlx4v_sim0"
#define MSIX 8
#define WAIT_MS 3000

/* ---------------- raw PRM bytes (prm/mlx5) ---------------- */

#define OP_CREATE_EQ 0x301
#define OP_DESTROY_EQ 0x302
#define OP_QUERY_EQ 0x303
#define OP_GEN_EQE 0x304
#define OP_CREATE_CQ 0x400
#define OP_DESTROY_CQ 0x401

#define CREATE_EQ_IN_SZ 0x110
#define CREATE_EQ_OUT_SZ 0x10

static void
w16(uint8_t *p, unsigned int off, uint16_t v)
{
	p[off] = v >> 8;
	p[off + 1] = v;
}

static void
w24(uint8_t *p, unsigned int off, uint32_t v)
{
	p[off] = v >> 16;
	p[off + 1] = v >> 8;
	p[off + 2] = v;
}

static void
w64(uint8_t *p, unsigned int off, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[off + i] = v >> (56 - 8 * i);
}

static uint32_t
r24(const uint8_t *p, unsigned int off)
{
	return ((uint32_t)p[off] << 16) | ((uint32_t)p[off + 1] << 8) | p[off + 2];
}

static uint32_t
r32(const uint8_t *p, unsigned int off)
{
	return ((uint32_t)p[off] << 24) | ((uint32_t)p[off + 1] << 16) |
	       ((uint32_t)p[off + 2] << 8) | p[off + 3];
}

static uint64_t
r64(const uint8_t *p, unsigned int off)
{
	return ((uint64_t)r32(p, off) << 32) | r32(p, off + 4);
}

/* create_eq_in: prm/mlx5 §6.1 */
static void
build_create_eq(uint8_t *in, size_t inlen, unsigned int log_eq_size, uint32_t uar_page,
		uint32_t intr, uint64_t bitmask0)
{
	memset(in, 0, inlen);
	w16(in, 0x00, OP_CREATE_EQ);
	in[0x1c] = log_eq_size & 0x1f;       /* eqc DW3[28:24] */
	w24(in, 0x1d, uar_page);             /* eqc DW3[23:0] */
	w16(in, 0x26, intr & 0xfff);         /* eqc DW5[11:0] */
	w64(in, 0x58, bitmask0);             /* event_bitmask[0] */
}

static int
query_eq(struct rte_pmd_mlx5v_dev *dev, uint32_t eqn, uint8_t *out, size_t outlen)
{
	uint8_t in[16] = {0};

	w16(in, 0, OP_QUERY_EQ);
	in[0x0b] = eqn;
	memset(out, 0, outlen);
	return rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, outlen);
}

static int
gen_eqe(struct rte_pmd_mlx5v_dev *dev, uint32_t eqn, uint8_t type, uint8_t sub_type,
	uint32_t tag)
{
	uint8_t in[0x50] = {0};
	uint8_t out[16] = {0};

	w16(in, 0, OP_GEN_EQE);
	in[0x0b] = eqn;
	in[0x10 + 0x01] = type;
	in[0x10 + 0x03] = sub_type;
	in[0x10 + 0x20] = tag >> 24;
	in[0x10 + 0x21] = tag >> 16;
	in[0x10 + 0x22] = tag >> 8;
	in[0x10 + 0x23] = tag;
	in[0x10 + 0x3f] = 1; /* the device sets the owner bit, whatever we give */
	return rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, sizeof(out));
}

static void
eq_doorbell(const struct rte_pmd_mlx5v_uar *uar, uint32_t eqn, uint32_t ci, int arm)
{
	uint8_t *db = (uint8_t *)uar->base_addr + (arm ? 0x40 : 0x48);

	rte_io_mb();
	rte_write32(rte_cpu_to_be_32((eqn << 24) | (ci & 0xffffff)), db);
}

static int
fd_readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int r;

	do {
		r = poll(&pfd, 1, timeout_ms);
	} while (r < 0 && errno == EINTR);
	return r > 0 && (pfd.revents & POLLIN);
}

static void
fd_drain(int fd)
{
	uint64_t v;

	while (read(fd, &v, sizeof(v)) == sizeof(v))
		;
}

static uint64_t
heap_alloc_bytes(void)
{
	struct rte_malloc_socket_stats st;
	uint64_t sum = 0;
	int s;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++)
		if (rte_malloc_get_socket_stats(s, &st) == 0)
			sum += st.heap_allocsz_bytes;
	return sum;
}

static unsigned int
log2_u64(uint64_t v)
{
	unsigned int l = 0;

	while ((1ull << l) < v)
		l++;
	return l;
}

/* ---------------- mlx5v fixture ---------------- */

static struct rte_pmd_mlx5v_dev *dev5;
static struct rte_pmd_mlx5v_dev *dev5s;
static struct mlx5v_sim *sim5;

struct eq_fix {
	struct rte_pmd_mlx5v_msi_vector *msi;
	struct rte_pmd_mlx5v_uar *uar;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn;
	unsigned int log_size;
};

/* MSI + UAR + EQ; returns 0 or -1 (test failure message printed). */
static int
eq_fix_create(struct rte_pmd_mlx5v_dev *dev, struct eq_fix *f, unsigned int log_size)
{
	uint8_t in[CREATE_EQ_IN_SZ + 8];
	uint8_t out[CREATE_EQ_OUT_SZ];

	memset(f, 0, sizeof(*f));
	f->log_size = log_size;
	f->msi = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	if (f->msi == NULL) {
		printf("alloc_msi_vector: errno %d\n", errno);
		return -1;
	}
	f->uar = rte_pmd_mlx5v_devx_alloc_uar(dev);
	if (f->uar == NULL) {
		printf("alloc_uar: errno %d\n", errno);
		rte_pmd_mlx5v_devx_free_msi_vector(f->msi);
		return -1;
	}
	build_create_eq(in, sizeof(in), log_size, f->uar->page_id, f->msi->vector, 0);
	memset(out, 0, sizeof(out));
	f->eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	if (f->eq == NULL) {
		printf("create_eq: errno %d status 0x%x synd 0x%x\n", errno, out[0], r32(out, 4));
		rte_pmd_mlx5v_devx_free_uar(f->uar);
		rte_pmd_mlx5v_devx_free_msi_vector(f->msi);
		return -1;
	}
	f->eqn = out[0x0b];
	return 0;
}

static int
eq_fix_destroy(struct eq_fix *f)
{
	int rc = 0;

	if (f->eq != NULL && rte_pmd_mlx5v_devx_destroy_eq(f->eq) != 0)
		rc = -1;
	if (f->uar != NULL && rte_pmd_mlx5v_devx_free_uar(f->uar) != 0)
		rc = -1;
	if (f->msi != NULL && rte_pmd_mlx5v_devx_free_msi_vector(f->msi) != 0)
		rc = -1;
	memset(f, 0, sizeof(*f));
	return rc;
}

/* A CQ of 64 CQEs bound to f's EQ: ring + doorbell record in one mapped 8 KiB buffer. */
struct cq_fix {
	uint8_t *mem;
	uint64_t iova;
	uint32_t cqn;
};

#define CQ_LOG_SIZE 6
#define CQ_DBREC 4096                /* the doorbell record follows the ring (64 x 64 B) */

/* CREATE_CQ with raw bytes (prm/mlx5 §7.1); returns 0 or -1 (failure message printed). */
static int
cq_fix_create(struct rte_pmd_mlx5v_dev *dev, const struct eq_fix *f, struct cq_fix *c)
{
	uint8_t in[0x118], out[16];
	unsigned int i;
	int rc;

	memset(c, 0, sizeof(*c));
	c->mem = rte_zmalloc(NULL, 8192, 4096);
	if (c->mem == NULL)
		return -1;
	for (i = 0; i < 1u << CQ_LOG_SIZE; i++)
		c->mem[i * 64 + 63] = 0xf1; /* invalid opcode, hardware owned (prm/mlx5 §7.4) */
	if (rte_pmd_mlx5v_devx_dma_map(dev, c->mem, 8192, &c->iova) != 0) {
		printf("dma_map: errno %d\n", errno);
		rte_free(c->mem);
		c->mem = NULL;
		return -1;
	}
	memset(in, 0, sizeof(in));
	w16(in, 0, OP_CREATE_CQ);
	in[0x1c] = CQ_LOG_SIZE;              /* log_cq_size: 64 x 64 B = 4 KiB */
	w24(in, 0x1d, f->uar->page_id);      /* uar_page */
	in[0x27] = f->eqn;                   /* c_eqn */
	in[0x28] = 0;                        /* log_page_size */
	w64(in, 0x48, c->iova + CQ_DBREC);   /* dbr_addr */
	w64(in, 0x110, c->iova);             /* pas[0] */
	memset(out, 0, sizeof(out));
	rc = rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (rc != 0) {
		printf("CREATE_CQ: %d status 0x%x synd 0x%x\n", rc, out[0], r32(out, 4));
		rte_pmd_mlx5v_devx_dma_unmap(dev, c->mem, 8192);
		rte_free(c->mem);
		c->mem = NULL;
		return -1;
	}
	c->cqn = r24(out, 0x09);
	return 0;
}

static int
cq_fix_destroy(struct rte_pmd_mlx5v_dev *dev, struct cq_fix *c)
{
	uint8_t in[16], out[16];
	int rc = 0;

	if (c->mem == NULL)
		return 0;
	memset(in, 0, sizeof(in));
	w16(in, 0, OP_DESTROY_CQ);
	w24(in, 0x09, c->cqn);
	if (rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, sizeof(out)) != 0)
		rc = -1;
	if (rte_pmd_mlx5v_devx_dma_unmap(dev, c->mem, 8192) != 0)
		rc = -1;
	rte_free(c->mem);
	memset(c, 0, sizeof(*c));
	return rc;
}

/*
 * Where a test's events come from. GEN_EQE (prm/mlx5 §6.3) writes any EQE, but whether firmware
 * accepts it from this function is unverified (doc/guides/nics/running_on_hardware.rst);
 * each test that raises events runs a second time (name_cqe) on completion events of a CQ
 * bound to the EQ (prm/mlx5 §7.2), which every device raises. Only the CQE itself comes from the
 * simulator (mlx5v_sim_post_cqe(), as a finished work request would write it).
 */
enum src_kind {
	SRC_GEN_EQE,
	SRC_CQE,
};

struct ev_src {
	enum src_kind kind;
	struct rte_pmd_mlx5v_dev *dev;
	const struct eq_fix *f;
	struct cq_fix cq;
	uint32_t ci;            /* CQEs consumed = completion events handled (the arm sn) */
};

static int
src_open(struct ev_src *s, enum src_kind kind, struct rte_pmd_mlx5v_dev *dev,
	 const struct eq_fix *f)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->dev = dev;
	s->f = f;
	return kind == SRC_GEN_EQE ? 0 : cq_fix_create(dev, f, &s->cq);
}

static int
src_close(struct ev_src *s)
{
	return s->kind == SRC_GEN_EQE ? 0 : cq_fix_destroy(s->dev, &s->cq);
}

/*
 * One event, in the EQ when this returns. SRC_GEN_EQE: a PORT_CHANGE EQE of sub_type with
 * tag in its first data dword. SRC_CQE: one CQE (byte count tag) on the unarmed CQ, then
 * the arm (prm/mlx5 §7.3: record dword 1, then the 64-bit UAR + 0x20 doorbell) at the consumer
 * index before it, which fires at once; wait until QUERY_EQ counts the EQE, then consume
 * the CQE (record dword 0). @return 0 or -1.
 */
static int
src_raise(struct ev_src *s, uint8_t sub_type, uint32_t tag)
{
	uint32_t word, pi, ms;
	uint8_t *dbrec = s->cq.mem + CQ_DBREC;
	uint8_t qout[0x118];

	if (s->kind == SRC_GEN_EQE)
		return gen_eqe(s->dev, s->f->eqn, 0x09, sub_type, tag) == 0 ? 0 : -1;
	if (query_eq(s->dev, s->f->eqn, qout, sizeof(qout)) != 0)
		return -1;
	pi = r24(qout, 0x3d);
	if (mlx5v_sim_post_cqe(sim5, s->cq.cqn, 0x2, tag) != 0)
		return -1;
	word = ((s->ci & 3) << 28) | (s->ci & 0xffffff); /* sn, cmd 0 (any), ci */
	*(volatile uint32_t *)(dbrec + 4) = rte_cpu_to_be_32(word);
	rte_io_wmb();
	rte_write64_relaxed(rte_cpu_to_be_64(((uint64_t)word << 32) | s->cq.cqn),
			    (uint8_t *)s->f->uar->base_addr + 0x20);
	for (ms = 0; ms < WAIT_MS; ms++) {
		if (query_eq(s->dev, s->f->eqn, qout, sizeof(qout)) != 0)
			return -1;
		if (r24(qout, 0x3d) != pi)
			break;
		rte_delay_us_sleep(1000);
	}
	if (ms == WAIT_MS) {
		printf("CQ %u: no completion EQE within %d ms\n", s->cq.cqn, WAIT_MS);
		return -1;
	}
	s->ci++;
	*(volatile uint32_t *)dbrec = rte_cpu_to_be_32(s->ci & 0xffffff);
	return 0;
}

/* @return 1 if eqe is what src_raise(s, sub_type, tag) writes: prm/mlx5 §6.6 layouts. */
static int
src_eqe_is(const struct ev_src *s, const uint8_t *eqe, uint8_t sub_type, uint32_t tag)
{
	if (s->kind == SRC_GEN_EQE)
		return eqe[0x01] == 0x09 && eqe[0x03] == sub_type && r32(eqe, 0x20) == tag;
	return eqe[0x01] == 0x00 && r24(eqe, 0x39) == s->cq.cqn; /* completion: cqn at 0x38 */
}

#define SRC_CASES(name, run) \
	static int name(void) { return run(SRC_GEN_EQE); } \
	static int name ## _cqe(void) { return run(SRC_CQE); }

#define CHECK_PTR_ERR(p, e, what) do { \
	TEST_ASSERT_NULL((p), "%s: expected NULL", what); \
	TEST_ASSERT_EQUAL(errno, (e), "%s: errno %d, expected %d", what, errno, (e)); \
	TEST_ASSERT_EQUAL(rte_errno, (e), "%s: rte_errno %d, expected %d", what, \
			  rte_errno, (e)); \
} while (0)

#define CHECK_INT_ERR(expr, e, what) do { \
	errno = 0; rte_errno = 0; \
	int r_ = (expr); \
	TEST_ASSERT_EQUAL(r_, (e), "%s: returned %d, expected %d", what, r_, (e)); \
	TEST_ASSERT_EQUAL(errno, (e), "%s: errno %d, expected %d", what, errno, (e)); \
	TEST_ASSERT_EQUAL(rte_errno, (e), "%s: rte_errno %d, expected %d", what, \
			  rte_errno, (e)); \
} while (0)

/* ================= mlx5v DEVX EQ / MSI / UAR API ================= */

static int
test_acceptance_dev_get(void)
{
	struct rte_pmd_mlx5v_dev *d;

	d = rte_pmd_mlx5v_dev_get(MLX5_DEV);
	TEST_ASSERT_NOT_NULL(d, "dev_get(%s) failed: %d", MLX5_DEV, errno);
	errno = 0; rte_errno = 0;
	d = rte_pmd_mlx5v_dev_get(NULL);
	CHECK_PTR_ERR(d, EINVAL, "dev_get(NULL)");
	errno = 0; rte_errno = 0;
	d = rte_pmd_mlx5v_dev_get("mlx5v_sim_nosuch");
	CHECK_PTR_ERR(d, ENODEV, "dev_get(unknown)");
	return TEST_SUCCESS;
}

static int
test_acceptance_msi_lowest_and_fd(void)
{
	struct rte_pmd_mlx5v_msi_vector *a, *b, *c;
	char path[64], link[128];
	ssize_t n;
	uint64_t v;
	int fl;

	errno = 0; rte_errno = 0;
	a = rte_pmd_mlx5v_devx_alloc_msi_vector(NULL);
	CHECK_PTR_ERR(a, EINVAL, "alloc_msi(NULL)");

	a = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	TEST_ASSERT_NOT_NULL(a, "alloc a: %d", errno);
	b = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	TEST_ASSERT_NOT_NULL(b, "alloc b: %d", errno);
	TEST_ASSERT_EQUAL(a->vector, 1, "first vector %d, expected 1", a->vector);
	TEST_ASSERT_EQUAL(b->vector, 2, "second vector %d, expected 2", b->vector);
	TEST_ASSERT(a->fd >= 0 && b->fd >= 0 && a->fd != b->fd, "bad fds %d %d", a->fd, b->fd);

	/* non-blocking eventfd */
	fl = fcntl(a->fd, F_GETFL);
	TEST_ASSERT(fl >= 0 && (fl & O_NONBLOCK), "fd not O_NONBLOCK");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", a->fd);
	n = readlink(path, link, sizeof(link) - 1);
	TEST_ASSERT(n > 0, "readlink");
	link[n] = '\0';
	TEST_ASSERT(strstr(link, "eventfd") != NULL, "fd is %s, not an eventfd", link);
	errno = 0;
	TEST_ASSERT(read(a->fd, &v, sizeof(v)) < 0 && errno == EAGAIN,
		    "read of idle vector fd did not give EAGAIN (errno %d)", errno);

	/* lowest free: free 1, next alloc gives 1 again */
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(a), 0, "free a");
	c = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	TEST_ASSERT_NOT_NULL(c, "alloc c");
	TEST_ASSERT_EQUAL(c->vector, 1, "after freeing 1, got %d", c->vector);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(b), 0, "free b");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(c), 0, "free c");
	return TEST_SUCCESS;
}

static int
test_acceptance_msi_enospc(void)
{
	struct rte_pmd_mlx5v_msi_vector *v[MSIX];
	struct rte_pmd_mlx5v_msi_vector *x;
	int i, n = 0;

	for (i = 0; i < MSIX - 1; i++) {
		v[i] = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
		TEST_ASSERT_NOT_NULL(v[i], "alloc %d failed: %d", i, errno);
		TEST_ASSERT_EQUAL(v[i]->vector, i + 1, "vector %d, expected %d",
				  v[i]->vector, i + 1);
		n++;
	}
	errno = 0; rte_errno = 0;
	x = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	CHECK_PTR_ERR(x, ENOSPC, "alloc beyond msix count");
	for (i = 0; i < n; i++)
		TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(v[i]), 0, "free %d", i);
	x = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	TEST_ASSERT_NOT_NULL(x, "alloc after freeing all");
	TEST_ASSERT_EQUAL(x->vector, 1, "vector %d", x->vector);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(x), 0, "free");
	return TEST_SUCCESS;
}

static int
test_acceptance_msi_free_einval(void)
{
	struct rte_pmd_mlx5v_msi_vector *a, *b;
	int vec, fd;
	static const int bad_vecs[] = { 0, MSIX, 4096, -1 };
	unsigned int i;

	CHECK_INT_ERR(rte_pmd_mlx5v_devx_free_msi_vector(NULL), EINVAL, "free(NULL)");
	a = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	b = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	TEST_ASSERT(a != NULL && b != NULL, "alloc");
	vec = a->vector;
	fd = a->fd;
	for (i = 0; i < RTE_DIM(bad_vecs); i++) {
		a->vector = bad_vecs[i];
		CHECK_INT_ERR(rte_pmd_mlx5v_devx_free_msi_vector(a), EINVAL, "free(bad vector)");
		a->vector = vec;
	}
	a->fd = b->fd; /* an fd that is not the one recorded for the vector */
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_free_msi_vector(a), EINVAL, "free(wrong fd)");
	a->fd = fd + 1000;
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_free_msi_vector(a), EINVAL, "free(bogus fd)");
	a->fd = fd;
	/* msi was kept: the fd still is an open eventfd and the real free works */
	TEST_ASSERT(fcntl(fd, F_GETFD) >= 0, "fd closed by a failed free");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(a), 0, "free a");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(b), 0, "free b");
	return TEST_SUCCESS;
}

static int
test_acceptance_msi_free_ebusy(void)
{
	struct eq_fix f;
	struct rte_pmd_mlx5v_msi_vector *m;

	TEST_ASSERT_EQUAL(eq_fix_create(dev5, &f, 4), 0, "eq fixture");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_free_msi_vector(f.msi), EBUSY, "free with live EQ");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(f.eq), 0, "destroy");
	f.eq = NULL;
	m = f.msi;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), 0, "free after destroy");
	f.msi = NULL;
	TEST_ASSERT_EQUAL(eq_fix_destroy(&f), 0, "cleanup");
	return TEST_SUCCESS;
}

static int
test_acceptance_create_eq_einval(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	uint8_t in[CREATE_EQ_IN_SZ + 8], keep[sizeof(in)], out[CREATE_EQ_OUT_SZ];
	uint64_t before;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	u = rte_pmd_mlx5v_devx_alloc_uar(dev5);
	TEST_ASSERT(m != NULL && u != NULL, "fixture");
	before = heap_alloc_bytes();

#define TRY_EINVAL(dev_, in_, inlen_, out_, outlen_, what) do { \
	memcpy(keep, in, sizeof(in)); \
	errno = 0; rte_errno = 0; \
	eq = rte_pmd_mlx5v_devx_create_eq((dev_), (in_), (inlen_), (out_), (outlen_)); \
	CHECK_PTR_ERR(eq, EINVAL, what); \
	TEST_ASSERT(memcmp(keep, in, sizeof(in)) == 0, "%s: caller's in modified", what); \
} while (0)

	build_create_eq(in, sizeof(in), 4, u->page_id, m->vector, 0);
	TRY_EINVAL(NULL, in, sizeof(in), out, sizeof(out), "NULL dev");
	TRY_EINVAL(dev5, NULL, sizeof(in), out, sizeof(out), "NULL in");
	TRY_EINVAL(dev5, in, sizeof(in), NULL, sizeof(out), "NULL out");
	TRY_EINVAL(dev5, in, CREATE_EQ_IN_SZ - 1, out, sizeof(out), "inlen 0x10f");
	TRY_EINVAL(dev5, in, 0, out, sizeof(out), "inlen 0");
	TRY_EINVAL(dev5, in, sizeof(in), out, CREATE_EQ_OUT_SZ - 1, "outlen 0xf");
	TRY_EINVAL(dev5, in, sizeof(in), out, 0, "outlen 0");

	w16(in, 0, OP_DESTROY_EQ);
	TRY_EINVAL(dev5, in, sizeof(in), out, sizeof(out), "opcode 0x302");
	w16(in, 0, 0);
	TRY_EINVAL(dev5, in, sizeof(in), out, sizeof(out), "opcode 0");

	build_create_eq(in, sizeof(in), 4, u->page_id, 0, 0);
	TRY_EINVAL(dev5, in, sizeof(in), out, sizeof(out), "intr 0 (command vector)");
	build_create_eq(in, sizeof(in), 4, u->page_id, m->vector + 1, 0);
	TRY_EINVAL(dev5, in, sizeof(in), out, sizeof(out), "intr not allocated");
	build_create_eq(in, sizeof(in), 4, u->page_id, MSIX + 1, 0);
	TRY_EINVAL(dev5, in, sizeof(in), out, sizeof(out), "intr beyond msix");
	/* intr is 12 bits: 0x100 | vector is not the allocated vector */
	build_create_eq(in, sizeof(in), 4, u->page_id, 0x100 | m->vector, 0);
	TRY_EINVAL(dev5, in, sizeof(in), out, sizeof(out), "intr 0x100|vector");
#undef TRY_EINVAL

	TEST_ASSERT_EQUAL(heap_alloc_bytes(), before, "EAL heap changed by failed creates");
	/* no EQ holds the vector */
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), 0, "free msi");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(u), 0, "free uar");
	return TEST_SUCCESS;
}

/* Create an EQ of 2^log entries and check buffer, out, QUERY_EQ context. */
static int
check_create_and_query(unsigned int log, uint64_t bitmask)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	uint8_t in[CREATE_EQ_IN_SZ + 8], keep[sizeof(in)], out[CREATE_EQ_OUT_SZ];
	uint8_t qout[0x118];
	uint64_t size = RTE_MAX((1ull << log) * 64, 4096ull);
	rte_iova_t iova;
	uint32_t eqn, i;
	const uint8_t *ring;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	u = rte_pmd_mlx5v_devx_alloc_uar(dev5);
	TEST_ASSERT(m != NULL && u != NULL, "fixture");
	build_create_eq(in, sizeof(in), log, u->page_id, m->vector, bitmask);
	/* garbage where the driver must fill in: log_page_size and pas[0] */
	in[0x28] = 0x1f;
	w64(in, 0x110, 0xdeadbeefcafe0000ull);
	memcpy(keep, in, sizeof(in));
	memset(out, 0xee, sizeof(out));
	eq = rte_pmd_mlx5v_devx_create_eq(dev5, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create log %u: errno %d status 0x%x synd 0x%x", log, errno,
			     out[0], r32(out, 4));
	TEST_ASSERT(memcmp(keep, in, sizeof(in)) == 0, "caller's in modified");
	TEST_ASSERT_EQUAL(out[0], 0, "out status 0x%x", out[0]);
	eqn = out[0x0b];
	TEST_ASSERT_NOT_NULL(eq->vaddr, "vaddr NULL");
	TEST_ASSERT_EQUAL((uintptr_t)eq->vaddr & (size - 1), 0,
			  "vaddr %p not aligned to %" PRIu64, eq->vaddr, size);
	TEST_ASSERT_NOT_NULL(rte_mem_virt2memseg_list(eq->vaddr), "vaddr not EAL memory");
	iova = rte_mem_virt2iova(eq->vaddr);
	TEST_ASSERT(iova != RTE_BAD_IOVA, "no IOVA");
	TEST_ASSERT_EQUAL(rte_mem_virt2iova((uint8_t *)eq->vaddr + size - 1), iova + size - 1,
			  "buffer not IOVA-contiguous");
	/* owner bytes start at 1 (header promise; prm/mlx5 §6.8) */
	ring = eq->vaddr;
	for (i = 0; i < (1u << log); i++)
		TEST_ASSERT_EQUAL(ring[i * 64 + 0x3f] & 1, 1, "EQE %u owner not 1", i);

	TEST_ASSERT_EQUAL(query_eq(dev5, eqn, qout, sizeof(qout)), 0, "QUERY_EQ failed: %d",
			  errno);
	TEST_ASSERT_EQUAL(qout[0], 0, "QUERY_EQ status");
	TEST_ASSERT_EQUAL(qout[0x28] & 0x1f, log2_u64(size) - 12,
			  "log_page_size %u, expected %u", qout[0x28] & 0x1f, log2_u64(size) - 12);
	TEST_ASSERT_EQUAL(r64(qout, 0x110), (uint64_t)iova, "pas[0] 0x%" PRIx64 " vs iova 0x%"
			  PRIx64, r64(qout, 0x110), (uint64_t)iova);
	TEST_ASSERT_EQUAL(r24(qout, 0x1d), u->page_id, "uar_page %u vs %u",
			  r24(qout, 0x1d), u->page_id);
	TEST_ASSERT_EQUAL(((qout[0x26] << 8) | qout[0x27]) & 0xfff, (uint32_t)m->vector,
			  "intr");
	TEST_ASSERT_EQUAL(qout[0x1c] & 0x1f, log, "log_eq_size");
	TEST_ASSERT_EQUAL(r64(qout, 0x58), bitmask, "event_bitmask");

	/* destroy: 0; twice: an error, not a crash */
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), 0, "destroy");
	TEST_ASSERT_NOT_EQUAL(query_eq(dev5, eqn, qout, sizeof(qout)), 0,
			      "QUERY_EQ of a destroyed EQ succeeded");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), 0, "free msi");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(u), 0, "free uar");
	return TEST_SUCCESS;
}

static int
test_acceptance_create_query_small(void)
{
	return check_create_and_query(2, 0); /* 4 EQEs -> 4 KiB, log_page_size 0 */
}

static int
test_acceptance_create_query_large(void)
{
	/* 256 EQEs -> 16 KiB, log_page_size 2; PORT_CHANGE | CQ_ERROR */
	return check_create_and_query(8, (1ull << 0x09) | (1ull << 0x04));
}

static int
test_acceptance_create_eq_min_lengths(void)
{
	/* inlen exactly sizeof(create_eq_in) (no room for pas[0] in the caller's buffer) and
	 * outlen exactly sizeof(create_eq_out), in exact-size heap buffers */
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	uint8_t *in = malloc(CREATE_EQ_IN_SZ), *keep = malloc(CREATE_EQ_IN_SZ);
	uint8_t *out = malloc(CREATE_EQ_OUT_SZ);
	uint8_t qout[0x118];
	int ok;

	TEST_ASSERT(in != NULL && keep != NULL && out != NULL, "malloc");
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	u = rte_pmd_mlx5v_devx_alloc_uar(dev5);
	TEST_ASSERT(m != NULL && u != NULL, "fixture");
	build_create_eq(in, CREATE_EQ_IN_SZ, 5, u->page_id, m->vector, 0);
	memcpy(keep, in, CREATE_EQ_IN_SZ);
	eq = rte_pmd_mlx5v_devx_create_eq(dev5, in, CREATE_EQ_IN_SZ, out, CREATE_EQ_OUT_SZ);
	TEST_ASSERT_NOT_NULL(eq, "create with inlen 0x110/outlen 0x10: errno %d", errno);
	ok = memcmp(keep, in, CREATE_EQ_IN_SZ) == 0;
	TEST_ASSERT(ok, "caller's in modified");
	TEST_ASSERT_EQUAL(query_eq(dev5, out[0x0b], qout, sizeof(qout)), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(r64(qout, 0x110), (uint64_t)rte_mem_virt2iova(eq->vaddr), "pas[0]");
	TEST_ASSERT_EQUAL(qout[0x28] & 0x1f, 0, "log_page_size (32 x 64 B -> 4 KiB)");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), 0, "destroy");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), 0, "free msi");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(u), 0, "free uar");
	free(in);
	free(keep);
	free(out);
	return TEST_SUCCESS;
}

static int
test_acceptance_destroy_twice_and_leak(void)
{
	struct eq_fix f;
	struct rte_pmd_mlx5v_eq *eq;
	uint64_t before;

	CHECK_INT_ERR(rte_pmd_mlx5v_devx_destroy_eq(NULL), EINVAL, "destroy(NULL)");
	/* warm-up, then the EAL heap must come back to its level after create+destroy */
	TEST_ASSERT_EQUAL(eq_fix_create(dev5, &f, 9), 0, "warm-up");
	TEST_ASSERT_EQUAL(eq_fix_destroy(&f), 0, "warm-up destroy");
	before = heap_alloc_bytes();
	TEST_ASSERT_EQUAL(eq_fix_create(dev5, &f, 9), 0, "create");
	TEST_ASSERT(heap_alloc_bytes() >= before + (512u * 64), "EQ ring not on the EAL heap");
	eq = f.eq;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), 0, "destroy");
	f.eq = NULL;
	TEST_ASSERT_NOT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), 0, "second destroy gave 0");
	TEST_ASSERT_EQUAL(eq_fix_destroy(&f), 0, "cleanup");
	TEST_ASSERT_EQUAL(heap_alloc_bytes(), before, "EAL heap: %" PRIu64 " -> %" PRIu64
			  " after create+destroy (ring leaked?)", before, heap_alloc_bytes());
	return TEST_SUCCESS;
}

static int
test_acceptance_eremoteio_bad_uar(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	uint8_t in[CREATE_EQ_IN_SZ + 8], keep[sizeof(in)], out[CREATE_EQ_OUT_SZ];
	uint32_t page;
	uint64_t before;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5);
	u = rte_pmd_mlx5v_devx_alloc_uar(dev5);
	TEST_ASSERT(m != NULL && u != NULL, "fixture");
	page = u->page_id;
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(u), 0, "free uar");
	build_create_eq(in, sizeof(in), 4, page, m->vector, 0);
	memcpy(keep, in, sizeof(in));
	before = heap_alloc_bytes();
	memset(out, 0, sizeof(out));
	errno = 0; rte_errno = 0;
	eq = rte_pmd_mlx5v_devx_create_eq(dev5, in, sizeof(in), out, sizeof(out));
	CHECK_PTR_ERR(eq, EREMOTEIO, "create with unallocated uar_page");
	TEST_ASSERT_NOT_EQUAL(out[0], 0, "out status 0");
	TEST_ASSERT_EQUAL(out[0], 0x03, "out status 0x%x, expected BAD_PARAM", out[0]);
	TEST_ASSERT_NOT_EQUAL(r32(out, 4), 0, "syndrome 0");
	TEST_ASSERT(memcmp(keep, in, sizeof(in)) == 0, "caller's in modified");
	TEST_ASSERT_EQUAL(heap_alloc_bytes(), before, "ring not freed after device failure");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), 0,
			  "vector still referenced after failed create");
	return TEST_SUCCESS;
}

static int
test_acceptance_eremoteio_log_eq_size(void)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	struct rte_pmd_mlx5v_eq *eq;
	uint8_t in[CREATE_EQ_IN_SZ + 8], keep[sizeof(in)], out[CREATE_EQ_OUT_SZ];
	uint64_t before;

	m = rte_pmd_mlx5v_devx_alloc_msi_vector(dev5s);
	u = rte_pmd_mlx5v_devx_alloc_uar(dev5s);
	TEST_ASSERT(m != NULL && u != NULL, "fixture");
	build_create_eq(in, sizeof(in), 9, u->page_id, m->vector, 0); /* limit is 8 */
	memcpy(keep, in, sizeof(in));
	before = heap_alloc_bytes();
	memset(out, 0, sizeof(out));
	errno = 0; rte_errno = 0;
	eq = rte_pmd_mlx5v_devx_create_eq(dev5s, in, sizeof(in), out, sizeof(out));
	CHECK_PTR_ERR(eq, EREMOTEIO, "create with log_eq_size > log_max_eq_sz");
	TEST_ASSERT_EQUAL(out[0], 0x03, "out status 0x%x, expected BAD_PARAM", out[0]);
	TEST_ASSERT_NOT_EQUAL(r32(out, 4), 0, "syndrome 0");
	TEST_ASSERT(memcmp(keep, in, sizeof(in)) == 0, "caller's in modified");
	TEST_ASSERT_EQUAL(heap_alloc_bytes(), before, "ring not freed after device failure");
	/* the limit itself works */
	build_create_eq(in, sizeof(in), 8, u->page_id, m->vector, 0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev5s, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(eq, "create at the limit: %d", errno);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_destroy_eq(eq), 0, "destroy");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(m), 0, "free msi");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(u), 0, "free uar");
	return TEST_SUCCESS;
}

static int
test_acceptance_destroy_device_error(void)
{
	/* DESTROY_EQ while a CQ is bound (prm/mlx5 §6/§7): the device refuses; destroy must return
	 * the decoded errno (BAD_RES_STATE -> EINVAL per prm/mlx5 §3.8), never EREMOTEIO, and the
	 * EQ must stay alive. */
	struct eq_fix f;
	struct cq_fix c;
	uint8_t qout[0x118];
	int rc;

	TEST_ASSERT_EQUAL(eq_fix_create(dev5, &f, 4), 0, "eq fixture");
	TEST_ASSERT_EQUAL(cq_fix_create(dev5, &f, &c), 0, "CQ on the EQ");

	errno = 0; rte_errno = 0;
	rc = rte_pmd_mlx5v_devx_destroy_eq(f.eq);
	TEST_ASSERT_NOT_EQUAL(rc, 0, "destroy of an EQ with a bound CQ succeeded");
	TEST_ASSERT_NOT_EQUAL(rc, EREMOTEIO, "destroy returned EREMOTEIO");
	TEST_ASSERT_EQUAL(rc, EINVAL, "destroy returned %d, expected EINVAL (BAD_RES_STATE)",
			  rc);
	TEST_ASSERT_EQUAL(query_eq(dev5, f.eqn, qout, sizeof(qout)), 0,
			  "EQ not alive after failed destroy");

	TEST_ASSERT_EQUAL(cq_fix_destroy(dev5, &c), 0, "DESTROY_CQ, dma_unmap");
	TEST_ASSERT_EQUAL(eq_fix_destroy(&f), 0, "cleanup");
	return TEST_SUCCESS;
}

static int
test_acceptance_query_eqn(void)
{
	uint32_t eqn = 0xffffffff;
	uint8_t qout[0x118];

	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_query_eqn(dev5, 0, &eqn), 0, "query_eqn(0)");
	TEST_ASSERT(eqn < 256, "eqn %u", eqn);
	TEST_ASSERT_EQUAL(query_eq(dev5, eqn, qout, sizeof(qout)), 0, "async EQ not queryable");
	TEST_ASSERT_EQUAL(((qout[0x26] << 8) | qout[0x27]) & 0xfff, 0, "async EQ intr != 0");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_query_eqn(dev5, 1, &eqn), EINVAL, "vector 1");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_query_eqn(dev5, MSIX - 1, &eqn), EINVAL, "vector 7");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_query_eqn(dev5, 1000, &eqn), EINVAL, "vector 1000");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_query_eqn(dev5, 0, NULL), EINVAL, "NULL eqn");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_query_eqn(NULL, 0, &eqn), EINVAL, "NULL dev");
	return TEST_SUCCESS;
}

static int
test_acceptance_general_cmd(void)
{
	uint8_t in[16] = {0}, out[16], qout[0x118];
	int rc;

	CHECK_INT_ERR(rte_pmd_mlx5v_devx_general_cmd(NULL, in, 16, out, 16), EINVAL, "NULL dev");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_general_cmd(dev5, NULL, 16, out, 16), EINVAL, "NULL in");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_general_cmd(dev5, in, 16, NULL, 16), EINVAL,
		      "NULL out");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_general_cmd(dev5, in, 15, out, 16), EINVAL, "inlen 15");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_general_cmd(dev5, in, 16, out, 15), EINVAL,
		      "outlen 15");
	/* device failure: QUERY_EQ of an EQN that does not exist -> BAD_RES (0x05) */
	w16(in, 0, OP_QUERY_EQ);
	in[0x0b] = 250;
	memset(qout, 0, sizeof(qout));
	errno = 0; rte_errno = 0;
	rc = rte_pmd_mlx5v_devx_general_cmd(dev5, in, 16, qout, sizeof(qout));
	TEST_ASSERT_EQUAL(rc, EREMOTEIO, "QUERY_EQ(250) returned %d", rc);
	TEST_ASSERT_EQUAL(errno, EREMOTEIO, "errno");
	TEST_ASSERT_EQUAL(rte_errno, EREMOTEIO, "rte_errno");
	TEST_ASSERT_EQUAL(qout[0], 0x05, "status 0x%x, expected BAD_RES", qout[0]);
	TEST_ASSERT_NOT_EQUAL(r32(qout, 4), 0, "syndrome 0 on failure");
	return TEST_SUCCESS;
}

static int
test_acceptance_uar(void)
{
	struct rte_pmd_mlx5v_uar *a, *b;
	struct eq_fix f;

	errno = 0; rte_errno = 0;
	a = rte_pmd_mlx5v_devx_alloc_uar(NULL);
	CHECK_PTR_ERR(a, EINVAL, "alloc_uar(NULL)");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_free_uar(NULL), EINVAL, "free_uar(NULL)");
	a = rte_pmd_mlx5v_devx_alloc_uar(dev5);
	b = rte_pmd_mlx5v_devx_alloc_uar(dev5);
	TEST_ASSERT(a != NULL && b != NULL, "alloc");
	TEST_ASSERT(a->page_id >= 3 && b->page_id >= 3, "UAR index in the init segment");
	TEST_ASSERT_NOT_EQUAL(a->page_id, b->page_id, "same page_id twice");
	TEST_ASSERT_EQUAL((uint8_t *)a->reg_addr, (uint8_t *)a->base_addr + 0x800, "reg_addr");
	TEST_ASSERT_EQUAL((uintptr_t)a->base_addr & 0xfff, 0, "base_addr not a page");
	TEST_ASSERT(a->base_addr != b->base_addr, "same page twice");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(a), 0, "free a");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_uar(b), 0, "free b");

	/* a UAR used by an EQ cannot be freed (header: EINVAL, UAR kept) */
	TEST_ASSERT_EQUAL(eq_fix_create(dev5, &f, 4), 0, "eq fixture");
	CHECK_INT_ERR(rte_pmd_mlx5v_devx_free_uar(f.uar), EINVAL, "free_uar in use");
	TEST_ASSERT_EQUAL(eq_fix_destroy(&f), 0, "cleanup");
	return TEST_SUCCESS;
}

static int
eqe_owner(enum src_kind kind)
{
	struct eq_fix f;
	struct ev_src src;
	const uint8_t *ring;
	uint32_t i;
	uint8_t qout[0x118];

	TEST_ASSERT_EQUAL(eq_fix_create(dev5, &f, 2), 0, "eq fixture"); /* 4 entries */
	TEST_ASSERT_EQUAL(src_open(&src, kind, dev5, &f), 0, "event source");
	ring = f.eq->vaddr;
	for (i = 0; i < 4; i++) {
		TEST_ASSERT_EQUAL(src_raise(&src, 0x04, 0xa0b0c000 | i), 0, "event %u", i);
		rte_io_rmb();
		TEST_ASSERT_EQUAL(ring[i * 64 + 0x3f] & 1, 0,
				  "EQE %u owner %u, expected (pi >> log) & 1 = 0", i,
				  ring[i * 64 + 0x3f]);
		TEST_ASSERT(src_eqe_is(&src, ring + i * 64, 0x04, 0xa0b0c000 | i),
			    "EQE %u: type 0x%x sub_type 0x%x data 0x%x", i, ring[i * 64 + 1],
			    ring[i * 64 + 3], r32(ring, i * 64 + 0x20));
	}
	/* entry 4 not written yet */
	for (i = 0; i < 4; i++)
		TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(f.eq->vaddr, 4, i), "next_eqe");
	TEST_ASSERT_NULL(rte_pmd_mlx5v_eq_next_eqe(f.eq->vaddr, 4, 4), "next_eqe(4) not NULL");
	/* consume all four (CI update only), then the second pass writes owner 1 */
	eq_doorbell(f.uar, f.eqn, 4, 0);
	TEST_ASSERT_EQUAL(src_raise(&src, 0x01, 0x5), 0, "event pass 2");
	rte_io_rmb();
	TEST_ASSERT_EQUAL(ring[0x3f] & 1, 1, "second-pass owner %u, expected 1", ring[0x3f]);
	TEST_ASSERT(src_eqe_is(&src, ring, 0x01, 0x5), "second-pass EQE");
	TEST_ASSERT_EQUAL(query_eq(dev5, f.eqn, qout, sizeof(qout)), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(qout[0x10] >> 4, 0, "eqc.status 0x%x after 5 EQEs", qout[0x10] >> 4);
	TEST_ASSERT_EQUAL(r24(qout, 0x3d), 5, "producer_counter %u", r24(qout, 0x3d));
	TEST_ASSERT_EQUAL(src_close(&src), 0, "close the source");
	TEST_ASSERT_EQUAL(eq_fix_destroy(&f), 0, "cleanup");
	return TEST_SUCCESS;
}

/* Owner bits over two passes of a 4-entry EQ; test_acceptance_eqe_owner(_cqe). */
SRC_CASES(test_acceptance_eqe_owner, eqe_owner)

static int
arm_msi_readable(enum src_kind kind)
{
	struct eq_fix f;
	struct ev_src src;
	uint64_t v;

	TEST_ASSERT_EQUAL(eq_fix_create(dev5, &f, 4), 0, "eq fixture");
	TEST_ASSERT_EQUAL(src_open(&src, kind, dev5, &f), 0, "event source");
	fd_drain(f.msi->fd);
	/* not armed after create: an EQE raises nothing */
	TEST_ASSERT_EQUAL(src_raise(&src, 0x04, 1), 0, "event 0");
	TEST_ASSERT(!fd_readable(f.msi->fd, 200), "unarmed EQ signalled its vector");
	/* update-only doorbell does not arm */
	eq_doorbell(f.uar, f.eqn, 1, 0);
	TEST_ASSERT_EQUAL(src_raise(&src, 0x04, 2), 0, "event 1");
	TEST_ASSERT(!fd_readable(f.msi->fd, 200), "+0x48 doorbell armed the EQ");
	/* arm with an EQE pending (ci 1, pi 2): fires at once (prm/mlx5 §6.11) */
	eq_doorbell(f.uar, f.eqn, 1, 1);
	TEST_ASSERT(fd_readable(f.msi->fd, WAIT_MS), "arm with pending EQE: fd not readable");
	TEST_ASSERT_EQUAL(read(f.msi->fd, &v, sizeof(v)), (ssize_t)sizeof(v), "read fd");
	/* arm empty (ci 2 == pi), then an event arrives */
	eq_doorbell(f.uar, f.eqn, 2, 1);
	TEST_ASSERT(!fd_readable(f.msi->fd, 100), "arm on an empty EQ signalled");
	TEST_ASSERT_EQUAL(src_raise(&src, 0x04, 3), 0, "event 2");
	TEST_ASSERT(fd_readable(f.msi->fd, WAIT_MS), "armed EQ + EQE: fd not readable");
	TEST_ASSERT_EQUAL(read(f.msi->fd, &v, sizeof(v)), (ssize_t)sizeof(v), "read fd");
	TEST_ASSERT_NOT_NULL(rte_pmd_mlx5v_eq_next_eqe(f.eq->vaddr, 16, 2), "EQE 2 not ours");
	TEST_ASSERT(src_eqe_is(&src, (const uint8_t *)f.eq->vaddr + 2 * 64, 0x04, 3),
		    "EQE 2 is not the event raised");
	/* FIRED: another EQE without re-arm raises nothing */
	TEST_ASSERT_EQUAL(src_raise(&src, 0x04, 4), 0, "event 3");
	TEST_ASSERT(!fd_readable(f.msi->fd, 200), "FIRED EQ signalled again");
	eq_doorbell(f.uar, f.eqn, 4, 1);
	TEST_ASSERT_EQUAL(src_close(&src), 0, "close the source");
	TEST_ASSERT_EQUAL(eq_fix_destroy(&f), 0, "cleanup");
	return TEST_SUCCESS;
}

/* prm/mlx5 §6.11 arming rules seen on the vector's fd; test_acceptance_arm_msi_readable(_cqe). */
SRC_CASES(test_acceptance_arm_msi_readable, arm_msi_readable)

/* ---------------- several lcores ---------------- */

#define MT_ITERS 40
static volatile int mt_owner[MSIX];
static volatile int mt_err;
static enum src_kind mt_kind;

static int
mt_worker(void *arg)
{
	int id = (int)(uintptr_t)arg;
	struct ev_src src;
	struct eq_fix f;
	int i, zero;
	const uint8_t *ring;

	for (i = 0; i < MT_ITERS && !mt_err; i++) {
		if (eq_fix_create(dev5, &f, 3) != 0) {
			printf("worker %d iter %d: create failed\n", id, i);
			mt_err = 1;
			break;
		}
		zero = 0;
		if (f.msi->vector <= 0 || f.msi->vector >= MSIX ||
		    !__atomic_compare_exchange_n(&mt_owner[f.msi->vector], &zero, id, 0,
						 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
			printf("worker %d: vector %d handed out twice\n", id, f.msi->vector);
			mt_err = 1;
		}
		if (src_open(&src, mt_kind, dev5, &f) != 0 ||
		    src_raise(&src, 0x04, (uint32_t)id) != 0) {
			printf("worker %d: raising an event failed\n", id);
			mt_err = 1;
		}
		ring = f.eq->vaddr;
		rte_io_rmb();
		if ((ring[0x3f] & 1) != 0 || !src_eqe_is(&src, ring, 0x04, (uint32_t)id)) {
			printf("worker %d: EQE not in my ring\n", id);
			mt_err = 1;
		}
		__atomic_store_n(&mt_owner[f.msi->vector], 0, __ATOMIC_SEQ_CST);
		if (src_close(&src) != 0 || eq_fix_destroy(&f) != 0) {
			printf("worker %d: destroy failed\n", id);
			mt_err = 1;
		}
	}
	return 0;
}

static int
multi_lcore(enum src_kind kind)
{
	unsigned int lc;
	int launched = 0;

	mt_kind = kind;
	mt_err = 0;
	memset((void *)(uintptr_t)mt_owner, 0, sizeof(mt_owner));
	RTE_LCORE_FOREACH_WORKER(lc) {
		rte_eal_remote_launch(mt_worker, (void *)(uintptr_t)(lc + 1), lc);
		launched++;
	}
	if (launched == 0)
		return TEST_SKIPPED;
	mt_worker((void *)(uintptr_t)100);
	rte_eal_mp_wait_lcore();
	TEST_ASSERT_EQUAL(mt_err, 0, "concurrent use failed");
	return TEST_SUCCESS;
}

/* Every lcore its own vector, EQ and events; test_acceptance_multi_lcore(_cqe). */
SRC_CASES(test_acceptance_multi_lcore, multi_lcore)

/* ================= mlx4v init_obj ================= */

static struct rte_pmd_mlx4v_dev *dev4;
static struct rte_pmd_mlx4v_pd *pd4;

static uint32_t
rup2(uint32_t v)
{
	uint32_t r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

static int
ilog2c(uint32_t v) /* ceil(log2(v)) */
{
	int l = 0;

	while ((1u << l) < v)
		l++;
	return l;
}

#define PAGE 4096u
#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

/* libmlx4 mlx4_calc_sq_wqe_size for a raw-packet QP */
static int
exp_sq_shift(uint32_t sge, uint32_t inl)
{
	uint32_t n = ALIGN_UP(inl + 4, 16) / 16;
	uint32_t size;
	int s;

	if (n < sge)
		n = sge;
	size = n * 16;
	if (size < 32) /* bind segment */
		size = 32;
	size += 16; /* ctrl */
	for (s = 6; (1u << s) < size; s++)
		;
	return s;
}

static int
all_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static int
check_cq_view(struct rte_pmd_mlx4v_cq *cq, int req, int cqe_size_req)
{
	struct rte_pmd_mlx4v_obj o;
	struct mlx4dv_cq v;
	uint32_t n, i;
	int sz;
	const uint8_t *b;

	memset(&o, 0, sizeof(o));
	memset(&v, 0xa5, sizeof(v));
	v.comp_mask = 0;
	o.cq.in = cq;
	o.cq.out = &v;
	/* the other pairs are garbage: only requested pairs are read */
	o.qp.in = (void *)(uintptr_t)0x8;
	o.srq.out = (void *)(uintptr_t)0x10;
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&o, MLX4DV_OBJ_CQ), 0, "init_obj(CQ)");
	n = rup2(req + 1);
	/* The default is the device's: 64 on the simulated ConnectX-3, as on hardware. */
	sz = cqe_size_req ? cqe_size_req : 64;
	TEST_ASSERT_EQUAL(v.cqe_cnt, n, "cqe_cnt %u, expected %u", v.cqe_cnt, n);
	TEST_ASSERT_EQUAL(v.cqe_size, sz, "cqe_size %d", v.cqe_size);
	TEST_ASSERT_NOT_NULL(v.buf.buf, "buf");
	TEST_ASSERT_EQUAL((uintptr_t)v.buf.buf % PAGE, 0, "buf not page-aligned");
	TEST_ASSERT_EQUAL(v.buf.length, ALIGN_UP((size_t)n * sz, PAGE), "buf.length %zu",
			  v.buf.length);
	TEST_ASSERT_NOT_NULL(v.set_ci_db, "set_ci_db");
	TEST_ASSERT_EQUAL(v.arm_db, v.set_ci_db + 1, "arm_db != set_ci_db + 1");
	TEST_ASSERT_EQUAL(*v.set_ci_db, 0, "*set_ci_db");
	TEST_ASSERT_EQUAL(*v.arm_db, 0, "*arm_db");
	TEST_ASSERT_EQUAL(v.arm_sn, 1, "arm_sn %d", v.arm_sn);
	TEST_ASSERT_EQUAL(v.comp_mask, 0, "comp_mask out %" PRIx64, v.comp_mask);
	{
		void *sentinel;

		memset(&sentinel, 0xa5, sizeof(sentinel));
		TEST_ASSERT(v.cq_uar == sentinel, "cq_uar written without MLX4DV_CQ_MASK_UAR");
	}
	/* fresh ring: zeroed, owner bit (0x80 of byte 31 of the CQE) set by the simulator */
	b = v.buf.buf;
	for (i = 0; i < n; i++) {
		const uint8_t *c = b + (size_t)i * sz + (sz - 32);

		TEST_ASSERT(c[31] & 0x80, "CQE %u software-owned at creation", i);
		TEST_ASSERT(all_zero(b + (size_t)i * sz, sz - 1) && (c[31] & 0x7f) == 0,
			    "CQE %u not zeroed", i);
	}

	/* comp_mask in: UAR asked (plus an unknown bit) */
	v.comp_mask = MLX4DV_CQ_MASK_UAR | (1ull << 7);
	v.cq_uar = NULL;
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&o, MLX4DV_OBJ_CQ), 0, "init_obj(CQ, UAR)");
	TEST_ASSERT_EQUAL(v.comp_mask, MLX4DV_CQ_MASK_UAR, "comp_mask out %" PRIx64,
			  v.comp_mask);
	TEST_ASSERT_NOT_NULL(v.cq_uar, "cq_uar not filled");
	TEST_ASSERT_EQUAL((uintptr_t)v.cq_uar % PAGE, 0, "cq_uar not a page");
	return TEST_SUCCESS;
}

static int
test_acceptance_mlx4_cq_view(void)
{
	struct rte_pmd_mlx4v_cq *cq;
	int rc;

	cq = rte_pmd_mlx4v_create_cq(dev4, 100, 0, 0);
	TEST_ASSERT_NOT_NULL(cq, "create_cq: %d", errno);
	rc = check_cq_view(cq, 100, 0);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_cq(cq), 0, "destroy_cq");
	if (rc != TEST_SUCCESS)
		return rc;
	cq = rte_pmd_mlx4v_create_cq(dev4, 10, 64, 0);
	if (cq == NULL && errno == ENOTSUP) {
		printf("64-byte CQEs not offered by the device (ENOTSUP)\n");
		return TEST_SUCCESS; /* allowed by the header */
	}
	TEST_ASSERT_NOT_NULL(cq, "create_cq(64): %d", errno);
	rc = check_cq_view(cq, 10, 64);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_cq(cq), 0, "destroy_cq");
	return rc;
}

static int
check_qp_view(uint32_t swr, uint32_t rwr, uint32_t ssge, uint32_t rsge, uint32_t inl,
	      int with_srq)
{
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_srq *srq = NULL;
	struct rte_pmd_mlx4v_qp *qp;
	struct rte_pmd_mlx4v_qp_attr a;
	struct rte_pmd_mlx4v_obj o;
	struct mlx4dv_qp v;
	uint32_t qpn, sq_cnt, rq_cnt, spare, i, sq_bytes, rq_bytes;
	int sqs, rqs, sq_off, rq_off;
	const uint8_t *b;
	off_t sentinel;

	cq = rte_pmd_mlx4v_create_cq(dev4, 64, 0, 0);
	TEST_ASSERT_NOT_NULL(cq, "cq");
	if (with_srq) {
		srq = rte_pmd_mlx4v_create_srq(pd4, 64, 1);
		TEST_ASSERT_NOT_NULL(srq, "srq");
	}
	memset(&a, 0, sizeof(a));
	a.send_cq = cq;
	a.recv_cq = cq;
	a.srq = srq;
	a.max_send_wr = swr;
	a.max_recv_wr = rwr;
	a.max_send_sge = ssge;
	a.max_recv_sge = rsge;
	a.max_inline_data = inl;
	a.port = 1;
	qp = rte_pmd_mlx4v_create_qp(pd4, &a);
	TEST_ASSERT_NOT_NULL(qp, "create_qp: %d", errno);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_qp_num(qp, &qpn), 0, "qp_num");

	sqs = exp_sq_shift(ssge, inl);
	spare = (2048u >> sqs) + 1;
	sq_cnt = rup2(swr + spare);
	if (with_srq) {
		rq_cnt = 0;
		rqs = 4;
	} else {
		uint32_t g = rsge ? rsge : 1;

		rq_cnt = rup2(rwr ? rwr : 1);
		rqs = RTE_MAX(4, ilog2c(g * 16));
	}
	sq_bytes = sq_cnt << sqs;
	rq_bytes = rq_cnt << rqs;
	if (rqs > sqs) {
		rq_off = 0;
		sq_off = rq_bytes;
	} else {
		sq_off = 0;
		rq_off = sq_bytes;
	}

	memset(&o, 0, sizeof(o));
	memset(&v, 0xa5, sizeof(v));
	memset(&sentinel, 0xa5, sizeof(sentinel));
	v.comp_mask = 0;
	o.qp.in = qp;
	o.qp.out = &v;
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&o, MLX4DV_OBJ_QP), 0, "init_obj(QP)");
	TEST_ASSERT_EQUAL(v.sq.wqe_shift, sqs, "sq.wqe_shift %d, expected %d", v.sq.wqe_shift,
			  sqs);
	TEST_ASSERT_EQUAL(v.sq.wqe_cnt, sq_cnt, "sq.wqe_cnt %u, expected %u", v.sq.wqe_cnt,
			  sq_cnt);
	TEST_ASSERT_EQUAL(v.rq.wqe_cnt, rq_cnt, "rq.wqe_cnt %u, expected %u", v.rq.wqe_cnt,
			  rq_cnt);
	if (!with_srq)
		TEST_ASSERT_EQUAL(v.rq.wqe_shift, rqs, "rq.wqe_shift %d, expected %d",
				  v.rq.wqe_shift, rqs);
	TEST_ASSERT_EQUAL(v.sq.offset, sq_off, "sq.offset %d, expected %d", v.sq.offset, sq_off);
	if (!with_srq)
		TEST_ASSERT_EQUAL(v.rq.offset, rq_off, "rq.offset %d, expected %d", v.rq.offset,
				  rq_off);
	TEST_ASSERT_EQUAL(v.buf.length, ALIGN_UP((size_t)sq_bytes + rq_bytes, PAGE),
			  "buf.length %zu, expected %zu", v.buf.length,
			  (size_t)ALIGN_UP((size_t)sq_bytes + rq_bytes, PAGE));
	TEST_ASSERT_EQUAL((uintptr_t)v.buf.buf % PAGE, 0, "buf not page-aligned");
	TEST_ASSERT(all_zero(v.buf.buf, v.buf.length), "QP buffer not zeroed in RESET");
	TEST_ASSERT_EQUAL(v.doorbell_qpn, rte_cpu_to_be_32(qpn << 8), "doorbell_qpn");
	TEST_ASSERT_NOT_NULL(v.sdb, "sdb");
	TEST_ASSERT_EQUAL((uintptr_t)v.sdb & 0xfff, 0x14, "sdb not UAR + 0x14");
	if (with_srq)
		TEST_ASSERT_NULL(v.rdb, "rdb not NULL for an SRQ QP");
	else
		TEST_ASSERT_NOT_NULL(v.rdb, "rdb NULL");
	TEST_ASSERT_EQUAL(v.comp_mask, 0, "comp_mask out");
	TEST_ASSERT(v.uar_mmap_offset == sentinel, "uar_mmap_offset written unasked");
	/* granted capacities (header: wqe_cnt - spare) */
	TEST_ASSERT_EQUAL(a.max_send_wr, sq_cnt - spare, "attr.max_send_wr %u, expected %u",
			  a.max_send_wr, sq_cnt - spare);
	if (with_srq)
		TEST_ASSERT_EQUAL(a.max_recv_wr, 0, "attr.max_recv_wr with SRQ");

	/* comp_mask: UAR_MMAP_OFFSET asked, plus an unknown bit */
	v.comp_mask = MLX4DV_QP_MASK_UAR_MMAP_OFFSET | (1ull << 5);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&o, MLX4DV_OBJ_QP), 0, "init_obj(QP, mmap)");
	TEST_ASSERT_EQUAL(v.comp_mask, MLX4DV_QP_MASK_UAR_MMAP_OFFSET, "comp_mask out %" PRIx64,
			  v.comp_mask);
	TEST_ASSERT_EQUAL(v.uar_mmap_offset, 0, "uar_mmap_offset");

	/* RESET -> INIT: SQ ownership, fence_size, stamping (prm/mlx4 §3, §4.2) */
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_modify_qp(qp, RTE_PMD_MLX4V_QPS_INIT), 0, "to INIT");
	b = (const uint8_t *)v.buf.buf + v.sq.offset;
	for (i = 0; i < sq_cnt; i++) {
		const uint8_t *w = b + ((size_t)i << sqs);
		uint32_t k;

		TEST_ASSERT_EQUAL(r32(w, 0), 0x80000000u, "SQ WQE %u owner_opcode 0x%x", i,
				  r32(w, 0));
		TEST_ASSERT_EQUAL(w[7] & 0x3f, 1u << (sqs - 4), "SQ WQE %u fence_size 0x%x", i,
				  w[7]);
		for (k = 64; k < (1u << sqs); k += 64)
			TEST_ASSERT_EQUAL(r32(w, k), 0xffffffffu, "SQ WQE %u chunk %u not stamped",
					  i, k / 64);
	}
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_qp(qp), 0, "destroy qp");
	if (srq)
		TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_srq(srq), 0, "destroy srq");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_cq(cq), 0, "destroy cq");
	return TEST_SUCCESS;
}

static int
test_acceptance_mlx4_qp_view_basic(void)
{
	return check_qp_view(64, 32, 1, 1, 0, 0); /* sq shift 6, rq shift 4: SQ first */
}

static int
test_acceptance_mlx4_qp_view_inline(void)
{
	return check_qp_view(64, 32, 4, 3, 100, 0); /* sq shift 7, rq shift 6 */
}

static int
test_acceptance_mlx4_qp_view_rq_first(void)
{
	return check_qp_view(16, 10, 1, 8, 0, 0); /* sq shift 6, rq shift 7: RQ first */
}

static int
test_acceptance_mlx4_qp_view_srq(void)
{
	return check_qp_view(64, 0, 1, 0, 0, 1);
}

static int
test_acceptance_mlx4_srq_view(void)
{
	struct rte_pmd_mlx4v_srq *srq;
	struct rte_pmd_mlx4v_obj o;
	struct mlx4dv_srq v;
	uint32_t max = rup2(100 + 1), i, k;
	int shift = RTE_MAX(5, ilog2c(16 + 2 * 16));
	const uint8_t *b;

	srq = rte_pmd_mlx4v_create_srq(pd4, 100, 2);
	TEST_ASSERT_NOT_NULL(srq, "create_srq");
	memset(&o, 0, sizeof(o));
	memset(&v, 0xa5, sizeof(v));
	o.srq.in = srq;
	o.srq.out = &v;
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&o, MLX4DV_OBJ_SRQ), 0, "init_obj(SRQ)");
	TEST_ASSERT_EQUAL(v.wqe_shift, shift, "wqe_shift %d, expected %d", v.wqe_shift, shift);
	TEST_ASSERT_EQUAL(v.head, 0, "head %d", v.head);
	TEST_ASSERT_EQUAL(v.tail, (int)max - 1, "tail %d, expected %u", v.tail, max - 1);
	TEST_ASSERT_NOT_NULL(v.db, "db");
	TEST_ASSERT_EQUAL(*v.db, 0, "*db");
	TEST_ASSERT_EQUAL(v.comp_mask, 0, "comp_mask");
	TEST_ASSERT_EQUAL((uintptr_t)v.buf.buf % PAGE, 0, "buf not page-aligned");
	TEST_ASSERT_EQUAL(v.buf.length, ALIGN_UP((size_t)max << shift, PAGE), "buf.length %zu",
			  v.buf.length);
	b = v.buf.buf;
	for (i = 0; i < max; i++) {
		const uint8_t *w = b + ((size_t)i << shift);

		TEST_ASSERT_EQUAL(((w[2] << 8) | w[3]), (i + 1) & (max - 1),
				  "WQE %u next_wqe_index %u", i, (w[2] << 8) | w[3]);
		for (k = 16; k < (1u << shift); k += 16)
			TEST_ASSERT_EQUAL(r32(w, k + 4), 0x100, "WQE %u scatter lkey", i);
	}
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_srq(srq), 0, "destroy");
	return TEST_SUCCESS;
}

static int
check_rwq(uint32_t max_wr, uint32_t max_sge)
{
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_wq *wq;
	struct rte_pmd_mlx4v_wq_attr a = {0};
	struct rte_pmd_mlx4v_obj o;
	struct mlx4dv_rwq v;
	uint32_t cnt = rup2(max_wr);
	int shift = RTE_MAX(4, ilog2c(max_sge * 16));
	int off = shift > 6 ? 0 : 64;
	int sq_off = shift > 6 ? (int)(cnt << shift) : 0;
	const uint8_t *b;

	cq = rte_pmd_mlx4v_create_cq(dev4, 64, 0, 0);
	TEST_ASSERT_NOT_NULL(cq, "cq");
	a.cq = cq;
	a.max_wr = max_wr;
	a.max_sge = max_sge;
	a.port = 1;
	wq = rte_pmd_mlx4v_create_wq(pd4, &a);
	TEST_ASSERT_NOT_NULL(wq, "create_wq: %d", errno);
	memset(&o, 0, sizeof(o));
	memset(&v, 0xa5, sizeof(v));
	o.rwq.in = wq;
	o.rwq.out = &v;
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&o, MLX4DV_OBJ_RWQ), 0, "init_obj(RWQ)");
	TEST_ASSERT_EQUAL(v.rq.wqe_cnt, cnt, "rq.wqe_cnt %u, expected %u", v.rq.wqe_cnt, cnt);
	TEST_ASSERT_EQUAL(v.rq.wqe_shift, shift, "rq.wqe_shift %d, expected %d",
			  v.rq.wqe_shift, shift);
	TEST_ASSERT_EQUAL(v.rq.offset, off, "rq.offset %d, expected %d", v.rq.offset, off);
	TEST_ASSERT_EQUAL(v.buf.length, ALIGN_UP(((size_t)cnt << shift) + 64, PAGE),
			  "buf.length %zu", v.buf.length);
	TEST_ASSERT_EQUAL((uintptr_t)v.buf.buf % PAGE, 0, "buf not page-aligned");
	TEST_ASSERT_NOT_NULL(v.rdb, "rdb");
	TEST_ASSERT_EQUAL(*v.rdb, 0, "*rdb");
	TEST_ASSERT_EQUAL(v.comp_mask, 0, "comp_mask");
	TEST_ASSERT_EQUAL(a.max_wr, cnt, "attr.max_wr %u", a.max_wr);
	/* dummy SQ: one 64-byte WQE, ownership initialised */
	b = (const uint8_t *)v.buf.buf + sq_off;
	TEST_ASSERT_EQUAL(r32(b, 0), 0x80000000u, "dummy SQ owner_opcode 0x%x", r32(b, 0));
	TEST_ASSERT_EQUAL(b[7] & 0x3f, 4, "dummy SQ fence_size");
	TEST_ASSERT(all_zero((const uint8_t *)v.buf.buf + off, (size_t)cnt << shift),
		    "RQ not zeroed");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_wq(wq), 0, "destroy wq");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_cq(cq), 0, "destroy cq");
	return TEST_SUCCESS;
}

static int
test_acceptance_mlx4_rwq_view(void)
{
	int rc = check_rwq(50, 4); /* shift 6: RQ after the dummy SQ */

	if (rc != TEST_SUCCESS)
		return rc;
	return check_rwq(8, 8); /* shift 7: RQ first */
}

struct all4 {
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_srq *srq;
	struct rte_pmd_mlx4v_qp *qp;
	struct rte_pmd_mlx4v_wq *wq;
	struct mlx4dv_qp vqp;
	struct mlx4dv_cq vcq;
	struct mlx4dv_srq vsrq;
	struct mlx4dv_rwq vrwq;
	struct rte_pmd_mlx4v_obj o;
};

static int
all4_make(struct all4 *s)
{
	struct rte_pmd_mlx4v_qp_attr qa = {0};
	struct rte_pmd_mlx4v_wq_attr wa = {0};

	memset(s, 0, sizeof(*s));
	s->cq = rte_pmd_mlx4v_create_cq(dev4, 64, 0, 0);
	s->srq = rte_pmd_mlx4v_create_srq(pd4, 32, 1);
	if (s->cq == NULL || s->srq == NULL)
		return -1;
	qa.send_cq = s->cq;
	qa.recv_cq = s->cq;
	qa.max_send_wr = 32;
	qa.max_recv_wr = 16;
	qa.max_send_sge = 1;
	qa.max_recv_sge = 1;
	qa.port = 1;
	s->qp = rte_pmd_mlx4v_create_qp(pd4, &qa);
	wa.cq = s->cq;
	wa.max_wr = 16;
	wa.max_sge = 1;
	wa.port = 2;
	s->wq = rte_pmd_mlx4v_create_wq(pd4, &wa);
	if (s->qp == NULL || s->wq == NULL)
		return -1;
	s->o.qp.in = s->qp;
	s->o.qp.out = &s->vqp;
	s->o.cq.in = s->cq;
	s->o.cq.out = &s->vcq;
	s->o.srq.in = s->srq;
	s->o.srq.out = &s->vsrq;
	s->o.rwq.in = s->wq;
	s->o.rwq.out = &s->vrwq;
	return 0;
}

static void
all4_fill(struct all4 *s)
{
	memset(&s->vqp, 0xa5, sizeof(s->vqp));
	memset(&s->vcq, 0xa5, sizeof(s->vcq));
	memset(&s->vsrq, 0xa5, sizeof(s->vsrq));
	memset(&s->vrwq, 0xa5, sizeof(s->vrwq));
	s->vqp.comp_mask = 0;
	s->vcq.comp_mask = 0;
}

static int
all4_untouched(const struct all4 *s)
{
	struct all4 ref;

	all4_fill(&ref);
	return memcmp(&ref.vqp, &s->vqp, sizeof(s->vqp)) == 0 &&
	       memcmp(&ref.vcq, &s->vcq, sizeof(s->vcq)) == 0 &&
	       memcmp(&ref.vsrq, &s->vsrq, sizeof(s->vsrq)) == 0 &&
	       memcmp(&ref.vrwq, &s->vrwq, sizeof(s->vrwq)) == 0;
}

static void
all4_free(struct all4 *s)
{
	if (s->qp)
		rte_pmd_mlx4v_destroy_qp(s->qp);
	if (s->wq)
		rte_pmd_mlx4v_destroy_wq(s->wq);
	if (s->srq)
		rte_pmd_mlx4v_destroy_srq(s->srq);
	if (s->cq)
		rte_pmd_mlx4v_destroy_cq(s->cq);
}

static int
test_acceptance_mlx4_all_types(void)
{
	struct all4 s;
	uint64_t all = MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ | MLX4DV_OBJ_SRQ | MLX4DV_OBJ_RWQ;
	uint32_t qpn;

	TEST_ASSERT_EQUAL(all4_make(&s), 0, "objects");
	all4_fill(&s);
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&s.o, 0), 0, "obj_type 0");
	TEST_ASSERT(all4_untouched(&s), "obj_type 0 wrote outputs");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_init_obj(&s.o, all), 0, "init_obj(all)");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_qp_num(s.qp, &qpn), 0, "qp_num");
	TEST_ASSERT_EQUAL(s.vqp.doorbell_qpn, rte_cpu_to_be_32(qpn << 8), "qp view");
	TEST_ASSERT_EQUAL(s.vcq.cqe_cnt, 128, "cq view");
	TEST_ASSERT_EQUAL(s.vsrq.tail, 63, "srq view");
	TEST_ASSERT_EQUAL(s.vrwq.rq.wqe_cnt, 16, "rwq view");
	TEST_ASSERT_EQUAL(s.vsrq.comp_mask, 0, "srq comp_mask");
	TEST_ASSERT_EQUAL(s.vrwq.comp_mask, 0, "rwq comp_mask");
	all4_free(&s);
	return TEST_SUCCESS;
}

static int
test_acceptance_mlx4_einval(void)
{
	struct all4 s;
	struct rte_pmd_mlx4v_obj o;
	struct rte_pmd_mlx4v_cq *dead;
	uint64_t all = MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ | MLX4DV_OBJ_SRQ | MLX4DV_OBJ_RWQ;
	static const uint64_t types[] = { MLX4DV_OBJ_QP, MLX4DV_OBJ_CQ, MLX4DV_OBJ_SRQ,
					  MLX4DV_OBJ_RWQ };
	unsigned int t;
	void **pair;

	TEST_ASSERT_EQUAL(all4_make(&s), 0, "objects");
	CHECK_INT_ERR(rte_pmd_mlx4v_init_obj(NULL, MLX4DV_OBJ_QP), EINVAL, "obj NULL");

#define EXPECT_EINVAL_UNTOUCHED(obj_, type_, what) do { \
	all4_fill(&s); \
	CHECK_INT_ERR(rte_pmd_mlx4v_init_obj((obj_), (type_)), EINVAL, what); \
	TEST_ASSERT(all4_untouched(&s), "%s: outputs written", what); \
} while (0)

	EXPECT_EINVAL_UNTOUCHED(&s.o, all | (1ull << 4), "unknown bit 4");
	EXPECT_EINVAL_UNTOUCHED(&s.o, MLX4DV_OBJ_QP | (1ull << 63), "unknown bit 63");
	EXPECT_EINVAL_UNTOUCHED(&s.o, 1ull << 10, "only an unknown bit");

	/* for each type: in NULL, out NULL (with all the others valid and requested) */
	for (t = 0; t < RTE_DIM(types); t++) {
		o = s.o;
		pair = (void **)((uint8_t *)&o + 16 * t);
		pair[0] = NULL;
		EXPECT_EINVAL_UNTOUCHED(&o, all, "in NULL");
		EXPECT_EINVAL_UNTOUCHED(&o, types[t], "in NULL (alone)");
		o = s.o;
		pair = (void **)((uint8_t *)&o + 16 * t);
		pair[1] = NULL;
		EXPECT_EINVAL_UNTOUCHED(&o, all, "out NULL");
		EXPECT_EINVAL_UNTOUCHED(&o, types[t], "out NULL (alone)");
	}
	/* an object of another type */
	o = s.o;
	o.cq.in = (struct rte_pmd_mlx4v_cq *)(void *)s.qp;
	EXPECT_EINVAL_UNTOUCHED(&o, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ, "QP as CQ");
	o = s.o;
	o.rwq.in = (struct rte_pmd_mlx4v_wq *)(void *)s.srq;
	EXPECT_EINVAL_UNTOUCHED(&o, MLX4DV_OBJ_RWQ, "SRQ as WQ");
	/* a destroyed object */
	dead = rte_pmd_mlx4v_create_cq(dev4, 8, 0, 0);
	TEST_ASSERT_NOT_NULL(dead, "cq");
	TEST_ASSERT_EQUAL(rte_pmd_mlx4v_destroy_cq(dead), 0, "destroy");
	o = s.o;
	o.cq.in = dead;
	EXPECT_EINVAL_UNTOUCHED(&o, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ, "destroyed CQ");
#undef EXPECT_EINVAL_UNTOUCHED
	all4_free(&s);
	return TEST_SUCCESS;
}

/* ---------------- suite ---------------- */

static int
suite_setup(void)
{
	int rc;

	rc = rte_vdev_init(MLX5_DEV, "msix=8");
	if (rc != 0) {
		printf("rte_vdev_init(%s): %d\n", MLX5_DEV, rc);
		return -1;
	}
	rc = rte_vdev_init(MLX5_DEV_SMALL, "msix=4,log_max_eq_sz=8");
	if (rc != 0) {
		printf("rte_vdev_init(%s): %d\n", MLX5_DEV_SMALL, rc);
		return -1;
	}
	rc = rte_vdev_init(MLX4_DEV, "ports=2");
	if (rc != 0) {
		printf("rte_vdev_init(%s): %d\n", MLX4_DEV, rc);
		return -1;
	}
	dev5 = rte_pmd_mlx5v_dev_get(MLX5_DEV);
	sim5 = mlx5v_sim_get(MLX5_DEV);
	dev5s = rte_pmd_mlx5v_dev_get(MLX5_DEV_SMALL);
	dev4 = rte_pmd_mlx4v_dev_open(MLX4_DEV);
	if (dev5 == NULL || sim5 == NULL || dev5s == NULL || dev4 == NULL)
		return -1;
	pd4 = rte_pmd_mlx4v_alloc_pd(dev4);
	return pd4 == NULL ? -1 : 0;
}

static void
suite_teardown(void)
{
	if (pd4)
		rte_pmd_mlx4v_dealloc_pd(pd4);
	if (dev4)
		rte_pmd_mlx4v_dev_close(dev4);
	rte_vdev_uninit(MLX4_DEV);
	rte_vdev_uninit(MLX5_DEV_SMALL);
	rte_vdev_uninit(MLX5_DEV);
}

static struct unit_test_suite acceptance_suite = {
	.suite_name = "acceptance (DEVX EQ API, init_obj)",
	.setup = suite_setup,
	.teardown = suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_acceptance_dev_get),
		TEST_CASE(test_acceptance_msi_lowest_and_fd),
		TEST_CASE(test_acceptance_msi_enospc),
		TEST_CASE(test_acceptance_msi_free_einval),
		TEST_CASE(test_acceptance_msi_free_ebusy),
		TEST_CASE(test_acceptance_create_eq_einval),
		TEST_CASE(test_acceptance_create_query_small),
		TEST_CASE(test_acceptance_create_query_large),
		TEST_CASE(test_acceptance_create_eq_min_lengths),
		TEST_CASE(test_acceptance_destroy_twice_and_leak),
		TEST_CASE(test_acceptance_eremoteio_bad_uar),
		TEST_CASE(test_acceptance_eremoteio_log_eq_size),
		TEST_CASE(test_acceptance_destroy_device_error),
		TEST_CASE(test_acceptance_query_eqn),
		TEST_CASE(test_acceptance_general_cmd),
		TEST_CASE(test_acceptance_uar),
		TEST_CASE(test_acceptance_eqe_owner),
		TEST_CASE(test_acceptance_eqe_owner_cqe),
		TEST_CASE(test_acceptance_arm_msi_readable),
		TEST_CASE(test_acceptance_arm_msi_readable_cqe),
		TEST_CASE(test_acceptance_multi_lcore),
		TEST_CASE(test_acceptance_multi_lcore_cqe),
		TEST_CASE(test_acceptance_mlx4_cq_view),
		TEST_CASE(test_acceptance_mlx4_qp_view_basic),
		TEST_CASE(test_acceptance_mlx4_qp_view_inline),
		TEST_CASE(test_acceptance_mlx4_qp_view_rq_first),
		TEST_CASE(test_acceptance_mlx4_qp_view_srq),
		TEST_CASE(test_acceptance_mlx4_srq_view),
		TEST_CASE(test_acceptance_mlx4_rwq_view),
		TEST_CASE(test_acceptance_mlx4_all_types),
		TEST_CASE(test_acceptance_mlx4_einval),
		TEST_CASES_END()
	}
};

static int
test_acceptance(void)
{
	return unit_test_suite_runner(&acceptance_suite);
}

REGISTER_TEST_COMMAND(acceptance_autotest, test_acceptance);
