/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the mlx5 device model, driven through mlx5v_sim_hw_ops only. */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "test.h"

#include "mlx5v_hw.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlx5v_sim.h"
#include "mlx5v_sim_priv.h"

/* Every wait on the engine is bounded by this; no test asserts how fast anything is. */
#define WAIT_LIMIT_MS 10000
#define UT_NBLK 16                   /* mailbox blocks per direction and per slot */
#define UT_MBOX_STRIDE 1024          /* blocks 1 KiB apart: the model's alignment rule */
#define UT_NPAGES 64                 /* firmware pages the tests can give */
#define UT_DELIV 0x100               /* ut_cmd(): delivery status d returns UT_DELIV | d */
#define UT_PAGE_SLOT 31

struct ut_mbox {
	uint8_t *in;
	uint8_t *out;
	uint64_t in_iova;
	uint64_t out_iova;
};

static struct mlx5v_sim *g_sim;
static struct mlx5v_hw g_hw;
static uint8_t *g_cmdq;
static uint64_t g_cmdq_iova;
static struct ut_mbox g_mb[2];       /* [0]: slots 0..30, [1]: slot 31 */
static uint8_t *g_pages;
static uint64_t g_pages_iova;
static uint8_t g_token;
static uint32_t g_uar;               /* UAR allocated by ut_bringup() */

/* ---------------------------------------------------------------- helpers */

static void
ut_sleep_ms(unsigned int ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	nanosleep(&ts, NULL);
}

static void *
ut_alloc(size_t len, size_t align, uint64_t *iova)
{
	void *p = rte_zmalloc("ut_mlx5v_sim", len, align);

	if (p == NULL)
		return NULL;
	if (g_hw.ops->dma_map(&g_hw, p, len, iova) != 0) {
		rte_free(p);
		return NULL;
	}
	return p;
}

static void
ut_free(void *p, size_t len, uint64_t iova)
{
	if (p == NULL)
		return;
	g_hw.ops->dma_unmap(&g_hw, p, iova, len);
	rte_free(p);
}

static uint32_t
ut_be32(const uint8_t *p, uint32_t off)
{
	return rte_pmd_mlx5v_prm_get(p + off, 0, 31, 0);
}

static uint32_t
ut_nblocks(uint32_t len)
{
	return len <= 16 ? 0 : (len - 16 + 511) / 512;
}

/* Build the entry and both chains for slot s, then ring 0x018 (prm/mlx5 §3.5). */
static void
ut_post(unsigned int slot, const void *in, uint32_t inlen, uint32_t outlen)
{
	struct ut_mbox *mb = &g_mb[slot == UT_PAGE_SLOT];
	uint8_t *ent = g_cmdq + slot * MLX5V_CMD_ENT_SIZE;
	uint32_t nin = ut_nblocks(inlen);
	uint32_t nout = ut_nblocks(outlen);
	uint32_t n;
	uint32_t len;
	uint8_t *blk;

	g_token = g_token == 0xff ? 1 : g_token + 1;
	memset(ent, 0, MLX5V_CMD_ENT_SIZE);
	ent[MLX5V_CMD_ENT_TYPE] = MLX5V_CMD_TYPE_PCI;
	rte_pmd_mlx5v_prm_set(ent + MLX5V_CMD_ENT_INLEN, 0, 31, 0, inlen);
	rte_pmd_mlx5v_prm_set(ent + MLX5V_CMD_ENT_OUTLEN, 0, 31, 0, outlen);
	MLX5V_SET64(ent, MLX5V_CMD_ENT_IPTR, mb->in_iova);
	MLX5V_SET64(ent, MLX5V_CMD_ENT_OPTR, mb->out_iova);
	memcpy(ent + MLX5V_CMD_ENT_IN, in, RTE_MIN(inlen, 16u));
	ent[MLX5V_CMD_ENT_TOKEN] = g_token;
	for (n = 0; n < UT_NBLK; n++) {
		blk = mb->in + n * UT_MBOX_STRIDE;
		memset(blk, 0, MLX5V_MBOX_SIZE);
		if (n < nin) {
			len = RTE_MIN(inlen - 16 - n * 512, 512u);
			memcpy(blk, (const uint8_t *)in + 16 + n * 512, len);
		}
		MLX5V_SET64(blk, MLX5V_MBOX_NEXT, n + 1 < nin ?
			    mb->in_iova + (n + 1) * UT_MBOX_STRIDE : 0);
		rte_pmd_mlx5v_prm_set(blk + MLX5V_MBOX_BLOCK_NUM, 0, 31, 0, n);
		blk[MLX5V_MBOX_TOKEN] = g_token;
		blk = mb->out + n * UT_MBOX_STRIDE;
		memset(blk, 0, MLX5V_MBOX_SIZE);
		MLX5V_SET64(blk, MLX5V_MBOX_NEXT, n + 1 < nout ?
			    mb->out_iova + (n + 1) * UT_MBOX_STRIDE : 0);
		rte_pmd_mlx5v_prm_set(blk + MLX5V_MBOX_BLOCK_NUM, 0, 31, 0, n);
		blk[MLX5V_MBOX_TOKEN] = g_token;
	}
	ent[MLX5V_CMD_ENT_STATUS_OWN] = MLX5V_CMD_OWNER_HW;
}

static void
ut_ring(unsigned int slot)
{
	rte_wmb();
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMD_DBELL, 1u << slot);
}

/* @return the delivery status once the device hands slot back, or -1 on timeout. */
static int
ut_wait(unsigned int slot)
{
	volatile uint8_t *so = g_cmdq + slot * MLX5V_CMD_ENT_SIZE + MLX5V_CMD_ENT_STATUS_OWN;
	unsigned int i;

	for (i = 0; i < WAIT_LIMIT_MS * 10; i++) {
		if (!(*so & MLX5V_CMD_OWNER_HW)) {
			rte_rmb();
			return *so >> 1;
		}
		rte_delay_us_sleep(100);
	}
	return -1;
}

static void
ut_read_out(unsigned int slot, void *out, uint32_t outlen)
{
	struct ut_mbox *mb = &g_mb[slot == UT_PAGE_SLOT];
	uint8_t *o = out;
	uint32_t n;

	memcpy(o, g_cmdq + slot * MLX5V_CMD_ENT_SIZE + MLX5V_CMD_ENT_OUT, RTE_MIN(outlen, 16u));
	for (n = 0; n < ut_nblocks(outlen); n++)
		memcpy(o + 16 + n * 512, mb->out + n * UT_MBOX_STRIDE,
		       RTE_MIN(outlen - 16 - n * 512, 512u));
}

/* Run one command on slot. @return outbox status, UT_DELIV | delivery, or -1. */
static int
ut_cmd_slot(unsigned int slot, const void *in, uint32_t inlen, void *out, uint32_t outlen)
{
	int d;

	ut_post(slot, in, inlen, outlen);
	ut_ring(slot);
	d = ut_wait(slot);
	if (d < 0)
		return -1;
	if (d != 0)
		return UT_DELIV | d;
	ut_read_out(slot, out, outlen);
	return ((uint8_t *)out)[0];
}

static int
ut_cmd(const void *in, uint32_t inlen, void *out, uint32_t outlen)
{
	return ut_cmd_slot(0, in, inlen, out, outlen);
}

static uint32_t
ut_synd(const uint8_t *out)
{
	return MLX5V_GET(out, RTE_PMD_MLX5V_OUT_SYNDROME);
}

/* A 16-byte command with opcode, op_mod and DW2 = a. @return status as ut_cmd(). */
static int
ut_cmd16(uint16_t opcode, uint16_t op_mod, uint32_t dw2, uint8_t *out, uint32_t outlen)
{
	uint8_t in[16];

	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, opcode);
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OP_MOD, op_mod);
	rte_pmd_mlx5v_prm_set(in, 2, 31, 0, dw2);
	memset(out, 0, outlen);
	return ut_cmd(in, sizeof(in), out, outlen);
}

/* QUERY_PAGES on the page slot (31), as rdma-core does. */
static int
ut_query_pages(uint16_t op_mod, int32_t *num)
{
	uint8_t out[16];
	uint8_t in[16];
	int st;

	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_QUERY_PAGES);
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OP_MOD, op_mod);
	memset(out, 0, sizeof(out));
	st = ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, sizeof(out));

	*num = (int32_t)MLX5V_GET(out, MLX5V_QUERY_PAGES_OUT_NUM_PAGES);
	return st;
}

/* MANAGE_PAGES GIVE of the n pages starting at page index first. */
static int
ut_give(uint32_t first, uint32_t n, uint8_t *out)
{
	uint8_t in[16 + 8 * UT_NPAGES];
	uint32_t i;

	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OP_MOD, MLX5V_MANAGE_PAGES_GIVE);
	MLX5V_SET(in, MLX5V_MANAGE_PAGES_IN_NUM_ENTRIES, n);
	for (i = 0; i < n; i++)
		MLX5V_SET64(in, MLX5V_MANAGE_PAGES_IN_PAS + 8 * i,
			    g_pages_iova + (uint64_t)(first + i) * 4096);
	return ut_cmd_slot(UT_PAGE_SLOT, in, 16 + 8 * n, out, 16);
}

static int
ut_take(uint32_t n, uint8_t *out, uint32_t outlen)
{
	uint8_t in[16];

	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OP_MOD, MLX5V_MANAGE_PAGES_TAKE);
	MLX5V_SET(in, MLX5V_MANAGE_PAGES_IN_NUM_ENTRIES, n);
	memset(out, 0, outlen);
	return ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, outlen);
}

/* A 0x1010-byte QUERY_HCA_CAP. */
static int
ut_query_cap(uint16_t op_mod, uint8_t *out)
{
	return ut_cmd16(MLX5V_CMD_OP_QUERY_HCA_CAP, op_mod, 0, out, MLX5V_HCA_CAP_CMD_SIZE);
}

static uint8_t g_big_in[MLX5V_HCA_CAP_CMD_SIZE];
static uint8_t g_big_out[MLX5V_HCA_CAP_CMD_SIZE];

/*
 * The rdma-core bring-up order (prm/mlx5 §2.1) up to ALLOC_UAR.
 * @return 0, or the step number that failed.
 */
static int
ut_bringup(void)
{
	uint8_t out[0x70];
	int32_t n;

	if (ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, MLX5V_ENABLE_HCA_OUT_SIZE) != 0)
		return 6;
	if (ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)) != 0 ||
			!(MLX5V_GET(out, MLX5V_QUERY_ISSI_OUT_SUPPORTED_ISSI_DW0) & 2))
		return 7;
	if (ut_cmd16(MLX5V_CMD_OP_SET_ISSI, 0, 1, out, 16) != 0)
		return 8;
	if (ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n) != 0 || n < 0 || n > UT_NPAGES / 2)
		return 9;
	if (n > 0 && ut_give(0, n, out) != 0)
		return 10;
	memset(g_big_in, 0, 32);
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_ACCESS_REG);
	MLX5V_SET(g_big_in, MLX5V_ACCESS_REG_IN_REGISTER_ID, MLX5V_REG_HOST_ENDIANNESS);
	g_big_in[MLX5V_ACCESS_REG_IN_DATA] = rte_cpu_to_be_16(1) == 1 ? 0x80 : 0;
	if (ut_cmd(g_big_in, 32, out, 16) != 0)
		return 11;
	if (ut_query_cap(0, g_big_out) != 0 || ut_query_cap(1, g_big_out) != 0)
		return 12;
	memcpy(g_big_in, g_big_out, sizeof(g_big_in));
	memset(g_big_in, 0, 16);
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_SET_HCA_CAP);
	MLX5V_SET(g_big_in + MLX5V_HCA_CAP_OFF, MLX5V_CAP_CMDIF_CHECKSUM, 0);
	if (ut_cmd(g_big_in, sizeof(g_big_in), out, 16) != 0)
		return 13;
	if (ut_query_pages(MLX5V_QUERY_PAGES_INIT, &n) != 0 || n < 0 || n > UT_NPAGES / 2)
		return 16;
	if (n > 0 && ut_give(UT_NPAGES / 2, n, out) != 0)
		return 16;
	if (ut_cmd16(MLX5V_CMD_OP_INIT_HCA, 0, 0, out, 16) != 0)
		return 17;
	if (ut_cmd16(MLX5V_CMD_OP_ALLOC_UAR, 0, 0, out, 16) != 0)
		return 19;
	g_uar = MLX5V_GET(out, MLX5V_UAR_OUT_UAR);
	return 0;
}

/* Create the simulator and the test's DMA memory; params may be NULL. */
static int
ut_setup_params(const struct mlx5v_sim_params *p)
{
	uint64_t q;
	unsigned int i;

	g_sim = mlx5v_sim_create("ut_mlx5v_sim0", p);
	if (g_sim == NULL)
		return TEST_FAILED;
	mlx5v_sim_hw_init(g_sim, &g_hw);
	g_cmdq = ut_alloc(4096, 4096, &g_cmdq_iova);
	g_pages = ut_alloc(UT_NPAGES * 4096, 4096, &g_pages_iova);
	if (g_cmdq == NULL || g_pages == NULL)
		return TEST_FAILED;
	for (i = 0; i < RTE_DIM(g_mb); i++) {
		g_mb[i].in = ut_alloc(UT_NBLK * UT_MBOX_STRIDE, 4096, &g_mb[i].in_iova);
		g_mb[i].out = ut_alloc(UT_NBLK * UT_MBOX_STRIDE, 4096, &g_mb[i].out_iova);
		if (g_mb[i].in == NULL || g_mb[i].out == NULL)
			return TEST_FAILED;
	}
	/* §2.1 step 3: program the queue, then wait for "initializing" to clear. */
	q = g_cmdq_iova;
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_H, (uint32_t)(q >> 32));
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ, (uint32_t)q);
	for (i = 0; i < WAIT_LIMIT_MS; i++) {
		if (!(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING) & MLX5V_ISEG_INITIALIZING_BIT))
			return TEST_SUCCESS;
		ut_sleep_ms(1);
	}
	return TEST_FAILED;
}

static int
ut_setup(void)
{
	return ut_setup_params(NULL);
}

static int
ut_setup_up(void)
{
	if (ut_setup() != TEST_SUCCESS)
		return TEST_FAILED;
	return ut_bringup() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static void
ut_teardown(void)
{
	unsigned int i;

	if (g_sim == NULL)
		return;
	for (i = 0; i < RTE_DIM(g_mb); i++) {
		ut_free(g_mb[i].in, UT_NBLK * UT_MBOX_STRIDE, g_mb[i].in_iova);
		ut_free(g_mb[i].out, UT_NBLK * UT_MBOX_STRIDE, g_mb[i].out_iova);
		g_mb[i].in = NULL;
		g_mb[i].out = NULL;
	}
	ut_free(g_pages, UT_NPAGES * 4096, g_pages_iova);
	ut_free(g_cmdq, 4096, g_cmdq_iova);
	g_pages = NULL;
	g_cmdq = NULL;
	mlx5v_sim_destroy(g_sim);
	g_sim = NULL;
}

/* ---- EQ / CQ helpers ---- */

struct ut_ring {
	uint8_t *buf;
	uint64_t iova;
	size_t size;
	uint32_t nent;
	uint32_t num;           /* EQN or CQN */
	uint8_t *dbr;           /* CQ doorbell record */
	uint64_t dbr_iova;
	int fd;                 /* eventfd attached to the EQ's vector, or -1 */
	unsigned int vec;
};

static void
ut_ring_free(struct ut_ring *r)
{
	ut_free(r->buf, r->size, r->iova);
	r->buf = NULL;
	if (r->dbr != NULL)
		ut_free(r->dbr, 64, r->dbr_iova);
	r->dbr = NULL;
	if (r->fd >= 0) {
		g_hw.ops->irq_attach(&g_hw, r->vec, -1);
		close(r->fd);
	}
	r->fd = -1;
}

/* Allocate a ring of 2^log entries of 64 bytes, owner bytes set to 1 (§11.7). */
static int
ut_ring_alloc(struct ut_ring *r, unsigned int log, int owner_init)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->nent = 1u << log;
	r->size = RTE_MAX((size_t)r->nent * 64, (size_t)4096);
	r->buf = ut_alloc(r->size, r->size, &r->iova);
	if (r->buf == NULL)
		return -1;
	for (i = 0; i < r->nent && owner_init; i++)
		r->buf[i * 64 + 63] = 1;
	return 0;
}

static uint32_t
ut_log_page(size_t size)
{
	uint32_t l = 0;

	while ((size_t)4096 << l < size)
		l++;
	return l;
}

/* Fill a create_eq_in; tests then corrupt single fields. */
static void
ut_eq_in(uint8_t *in, const struct ut_ring *r, unsigned int log, uint64_t mask0,
	 unsigned int vec)
{
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;

	memset(in, 0, 0x118);
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_CREATE_EQ);
	MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, log);
	MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, g_uar);
	MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, vec);
	MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_PAGE_SIZE, ut_log_page(r->size));
	MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK, mask0);
	MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_PAS, r->iova);
}

/* Create an EQ on vector vec with an eventfd attached. @return 0 or -1. */
static int
ut_eq_create(struct ut_ring *r, unsigned int log, uint64_t mask0, unsigned int vec)
{
	uint8_t in[0x118];
	uint8_t out[16];

	if (ut_ring_alloc(r, log, 1) != 0)
		return -1;
	r->vec = vec;
	r->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (r->fd < 0 || g_hw.ops->irq_attach(&g_hw, vec, r->fd) != 0)
		return -1;
	ut_eq_in(in, r, log, mask0, vec);
	if (ut_cmd(in, sizeof(in), out, sizeof(out)) != 0)
		return -1;
	r->num = MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	return 0;
}

static int
ut_eq_destroy(struct ut_ring *r)
{
	uint8_t out[16];

	return ut_cmd16(MLX5V_CMD_OP_DESTROY_EQ, 0, r->num, out, sizeof(out));
}

static void
ut_db32(uint32_t uar, uint32_t off, uint32_t val)
{
	mlx5v_hw_db_wr32(&g_hw, (uint8_t *)mlx5v_hw_uar_addr(&g_hw, uar) + off, val);
}

/*
 * Wait until the engine consumed every doorbell word of uar, then let two commands
 * through: the second starts only after the engine pass that handled the doorbell
 * (and flushed its interrupts) ended.
 */
static int
ut_sync(uint32_t uar)
{
	volatile uint32_t *p = mlx5v_hw_uar_addr(&g_hw, uar);
	uint8_t out[0x70];
	unsigned int i;

	for (i = 0; i < WAIT_LIMIT_MS * 10; i++) {
		if (p[0x20 / 4] == 0 && p[0x24 / 4] == 0 && p[0x40 / 4] == 0 &&
				p[0x48 / 4] == 0)
			break;
		rte_delay_us_sleep(100);
	}
	if (ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)) != 0)
		return -1;
	return ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out));
}

static void
ut_eq_db(const struct ut_ring *r, uint32_t ci, int arm)
{
	ut_db32(g_uar, arm ? RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF : RTE_PMD_MLX5V_UAR_EQ_DB_NOARM_OFF,
		rte_pmd_mlx5v_eq_db_val(r->num, ci));
}

/* @return 1 if EQE ci is software-owned (§6.8). */
static int
ut_eqe_ready(const struct ut_ring *r, uint32_t ci)
{
	volatile const uint8_t *own = r->buf + (ci & (r->nent - 1)) * 64 + 63;

	return ((*own & 1) ^ !!(ci & r->nent)) == 0;
}

/* Wait for EQE ci to become software-owned. @return the EQE or NULL. */
static const uint8_t *
ut_eqe_wait(const struct ut_ring *r, uint32_t ci)
{
	unsigned int i;

	for (i = 0; i < WAIT_LIMIT_MS * 10; i++) {
		if (ut_eqe_ready(r, ci)) {
			rte_rmb();
			return r->buf + (ci & (r->nent - 1)) * 64;
		}
		rte_delay_us_sleep(100);
	}
	return NULL;
}

/* Read (and reset) the eventfd counter; 0 if nothing is pending. */
static uint64_t
ut_msi_read(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* Wait for an MSI on fd. @return the counter, or 0 on timeout. */
static uint64_t
ut_msi_wait(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, WAIT_LIMIT_MS) != 1)
		return 0;
	return ut_msi_read(fd);
}

static int
ut_gen_eqe(const struct ut_ring *r, uint8_t type, uint32_t tag)
{
	uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE];
	uint8_t out[16];

	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_GEN_EQE);
	MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, r->num);
	in[RTE_PMD_MLX5V_GEN_EQE_IN_EQE + RTE_PMD_MLX5V_EQE_TYPE_OFF] = type;
	rte_pmd_mlx5v_prm_set(in + RTE_PMD_MLX5V_GEN_EQE_IN_EQE + 0x20, 0, 31, 0, tag);
	/* The caller's owner byte is ignored: the device sets it. */
	in[RTE_PMD_MLX5V_GEN_EQE_IN_EQE + 63] = 0xfe;
	return ut_cmd(in, sizeof(in), out, sizeof(out));
}

static int
ut_query_eq(const struct ut_ring *r, uint8_t *out)
{
	memset(out, 0, 0x118);
	return ut_cmd16(MLX5V_CMD_OP_QUERY_EQ, 0, r->num, out, 0x118);
}

/* Create a CQ of 2^log CQEs bound to eqn; owner_init 0 leaves the CQEs software-owned. */
static int
ut_cq_create(struct ut_ring *r, unsigned int log, uint32_t eqn, int owner_init, uint8_t *out)
{
	uint8_t in[0x118];
	uint8_t *cqc = in + MLX5V_CREATE_CQ_IN_CQC;
	uint32_t i;

	if (ut_ring_alloc(r, log, 0) != 0)
		return -1;
	for (i = 0; i < r->nent && owner_init; i++)
		r->buf[i * 64 + 63] = (MLX5V_CQE_INVALID << 4) | 1;
	r->dbr = ut_alloc(64, 64, &r->dbr_iova);
	if (r->dbr == NULL)
		return -1;
	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_CREATE_CQ);
	MLX5V_SET(cqc, MLX5V_CQC_LOG_CQ_SIZE, log);
	MLX5V_SET(cqc, MLX5V_CQC_UAR_PAGE, g_uar);
	MLX5V_SET(cqc, MLX5V_CQC_C_EQN, eqn);
	MLX5V_SET(cqc, MLX5V_CQC_LOG_PAGE_SIZE, ut_log_page(r->size));
	MLX5V_SET64(cqc, MLX5V_CQC_DBR_ADDR, r->dbr_iova);
	MLX5V_SET64(in, MLX5V_CREATE_CQ_IN_PAS, r->iova);
	memset(out, 0, 16);
	i = ut_cmd(in, sizeof(in), out, 16);
	r->num = MLX5V_GET(out, MLX5V_CREATE_CQ_OUT_CQN);
	return (int)i;
}

/* Arm CQ r at consumer index ci: record first, then the UAR + 0x20 doorbell (§7.3). */
static void
ut_cq_arm(struct ut_ring *r, uint32_t ci, uint32_t sn)
{
	uint32_t word = (sn << 28) | (ci & 0xffffff);

	rte_pmd_mlx5v_prm_set(r->dbr, MLX5V_CQ_SET_CI, 31, 0, ci & 0xffffff);
	rte_pmd_mlx5v_prm_set(r->dbr, MLX5V_CQ_ARM_DB, 31, 0, word);
	mlx5v_hw_db_wr64(&g_hw, (uint8_t *)mlx5v_hw_uar_addr(&g_hw, g_uar) +
			 RTE_PMD_MLX5V_UAR_CQ_DB_OFF, ((uint64_t)word << 32) | r->num);
}

static int
ut_cq_destroy(struct ut_ring *r)
{
	uint8_t out[16];

	return ut_cmd16(MLX5V_CMD_OP_DESTROY_CQ, 0, r->num, out, sizeof(out));
}

#define UT_CTR(c) mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_ ## c)
#define UT_LIVE(k) mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_ ## k)
#define UT_EQ_ST(out) MLX5V_GET((out) + RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC, RTE_PMD_MLX5V_EQC_ST)

/* ---------------------------------------------------------------- init segment */

static int
test_mlx5v_sim_iseg_readback(void)
{
	uint32_t v;
	uint32_t c0;
	unsigned int i;

	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDIF_REV_FW_SUB);
	TEST_ASSERT_EQUAL(v >> 16, (uint32_t)MLX5V_CMDIF_REV, "cmdif rev %u", v >> 16);
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_FW_REV);
	TEST_ASSERT(v != 0 && v != UINT32_MAX, "fw_rev 0x%x", v);
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	TEST_ASSERT_EQUAL(v & 0xff, 0x56u, "log_cmdq_size 5 / stride 6, got 0x%x", v & 0xff);
	TEST_ASSERT_EQUAL(v & MLX5V_CMDQ_ADDR_MASK, (uint32_t)g_cmdq_iova, "address read-back");
	TEST_ASSERT_EQUAL((v >> 8) & 7, (uint32_t)MLX5V_NIC_IF_FULL, "nic_interface");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_H),
			  (uint32_t)(g_cmdq_iova >> 32), "address high");
	/* The log fields are read-only. */
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ, (uint32_t)g_cmdq_iova | 0xff);
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	TEST_ASSERT_EQUAL(v & 0xff, 0x56u, "log fields changed by a write: 0x%x", v);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMD_EXEC_TO), 0u, "0xff8");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMD_Q_INIT_TO), 0u, "0xffc");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING) &
			  MLX5V_ISEG_INITIALIZING_BIT, 0u, "initializing with boot_ms 0");
	v = mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_FW_VER);
	TEST_ASSERT(v != UINT32_MAX && v != 0, "health fw_ver 0x%x", v);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), 0u, "RFR");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_IRISC_INDEX), 0u, "synd");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, 0x1001), 0u, "unaligned read");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, 0x3000), 0u, "read past the init segment");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "cmd_exec_to", 0x20000010), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMD_EXEC_TO), 0x20000010u, "0xff8");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "cmd_q_init_to", 7), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMD_Q_INIT_TO), 7u, "0xffc");
	/* Heartbeat: bits 31:24 stay 0, bits 23:0 advance. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_period_ms", 1), "knob");
	c0 = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER);
	TEST_ASSERT_EQUAL(c0 >> 24, 0u, "health counter bits 31:24");
	for (i = 0; i < WAIT_LIMIT_MS; i++) {
		if (mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER) != c0)
			break;
		ut_sleep_ms(1);
	}
	TEST_ASSERT(i < WAIT_LIMIT_MS, "health counter never advanced");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_iseg_boot_delay(void)
{
	struct mlx5v_sim_params p;
	struct mlx5v_sim *sim;
	struct mlx5v_hw hw;
	uint64_t misuse = UT_CTR(DB_MISUSE);
	uint8_t out[0x70];
	unsigned int i;

	/* A long boot delay via the knob: "initializing" is set, the address write changes
	 * nothing (§1.3 model rule), and a doorbell now is a driver bug.
	 */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "boot_ms", 600000), "knob");
	TEST_ASSERT(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING) & MLX5V_ISEG_INITIALIZING_BIT,
		    "initializing not set");
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ, (uint32_t)g_cmdq_iova);
	TEST_ASSERT(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING) & MLX5V_ISEG_INITIALIZING_BIT,
		    "the address write cleared initializing");
	memset(g_big_in, 0, 16);
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(0, g_big_in, 16, 12);
	ut_ring(0);
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "doorbell while booting not counted");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "boot_ms", 0), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING), 0u, "still booting");
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "command after boot");
	ut_read_out(0, out, 12);
	TEST_ASSERT_EQUAL(out[0], 0, "ENABLE_HCA status 0x%x", out[0]);

	/* boot_ms as a creation parameter. */
	mlx5v_sim_params_default(&p);
	p.boot_ms = 60000;
	sim = mlx5v_sim_create("ut_mlx5v_sim_boot", &p);
	TEST_ASSERT_NOT_NULL(sim, "create");
	mlx5v_sim_hw_init(sim, &hw);
	TEST_ASSERT(mlx5v_hw_rd32(&hw, MLX5V_ISEG_INITIALIZING) & MLX5V_ISEG_INITIALIZING_BIT,
		    "boot_ms 60000: initializing not set");
	mlx5v_sim_destroy(sim);
	p.boot_ms = 20;
	sim = mlx5v_sim_create("ut_mlx5v_sim_boot", &p);
	TEST_ASSERT_NOT_NULL(sim, "create");
	mlx5v_sim_hw_init(sim, &hw);
	for (i = 0; i < WAIT_LIMIT_MS; i++) {
		if (!(mlx5v_hw_rd32(&hw, MLX5V_ISEG_INITIALIZING) & MLX5V_ISEG_INITIALIZING_BIT))
			break;
		ut_sleep_ms(1);
	}
	mlx5v_sim_destroy(sim);
	TEST_ASSERT(i < WAIT_LIMIT_MS, "initializing never cleared");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- bring-up */

static int
test_mlx5v_sim_bringup(void)
{
	uint8_t *cap = g_big_out + MLX5V_HCA_CAP_OFF;
	uint8_t out[16 + 8 * UT_NPAGES];
	uint32_t held;
	uint32_t uar2;
	int32_t n;

	TEST_ASSERT_EQUAL(ut_bringup(), 0, "bring-up step failed");
	TEST_ASSERT(g_uar >= MLX5V_UAR_FIRST_INDEX, "UAR index %u < 3", g_uar);
	TEST_ASSERT_NOT_NULL(mlx5v_hw_uar_addr(&g_hw, g_uar), "no UAR page");
	TEST_ASSERT_NULL(mlx5v_hw_uar_addr(&g_hw, 2), "UAR 2 is the init segment");
	TEST_ASSERT_EQUAL(UT_LIVE(UAR), 1u, "live UARs");
	held = UT_LIVE(PAGES);
	TEST_ASSERT_EQUAL(held, 48u, "pages held %u (16 boot + 32 init)", held);
	/* Capabilities (§2.2). */
	TEST_ASSERT_EQUAL(ut_query_cap(1, g_big_out), 0, "QUERY_HCA_CAP cur");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_UMEM_UID_0), 1u, "umem_uid_0");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_PORT_TYPE), 1u, "port_type ETH");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_LOG_MAX_EQ_SZ), 22u, "log_max_eq_sz");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_MAX_NUM_EQS), 64u, "max_num_eqs");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_LOG_MAX_EQ), 6u, "log_max_eq");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_LOG_MAX_CQ), 10u, "log_max_cq");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_LOG_MAX_CQ_SZ), 22u, "log_max_cq_sz");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_FAST_TEARDOWN), 1u, "fast_teardown");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_ROCE_EN), 1u, "roce");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_CMDIF_CHECKSUM), 0u, "cmdif_checksum");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_LOG_UAR_PAGE_SZ), 0u, "log_uar_page_sz");
	TEST_ASSERT_EQUAL(ut_query_cap(0, g_big_out), 0, "QUERY_HCA_CAP max");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_CAP_MKEY_BY_NAME), 1u, "max mkey_by_name");
	/* RoCE caps (§2.1 step 14): cur 0, max 1, then set. */
	TEST_ASSERT_EQUAL(ut_query_cap(0x9, g_big_out), 0, "RoCE cur");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_ROCE_CAP_SW_R_ROCE_SRC_UDP_PORT), 0u, "cur");
	TEST_ASSERT_EQUAL(ut_query_cap(0x8, g_big_out), 0, "RoCE max");
	TEST_ASSERT_EQUAL(MLX5V_GET(cap, MLX5V_ROCE_CAP_SW_R_ROCE_SRC_UDP_PORT), 1u, "max");
	/* SET_HCA_CAP after INIT_HCA is refused. */
	memset(g_big_in, 0, sizeof(g_big_in));
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_SET_HCA_CAP);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, sizeof(g_big_in), out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "SET_HCA_CAP after INIT_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_SET_CAP_STATE, "syndrome");
	/* ACCESS_REG read back of 0x7004. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ACCESS_REG, MLX5V_ACCESS_REG_READ,
				   MLX5V_REG_HOST_ENDIANNESS, out, 32), 0, "ACCESS_REG read");
	/* MODIFY_NIC_VPORT_CONTEXT roce_en (§2.1 step 18). */
	memset(g_big_in, 0, MLX5V_MODIFY_NIC_VPORT_IN_SIZE);
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT);
	MLX5V_SET(g_big_in, MLX5V_MODIFY_NIC_VPORT_IN_FIELD_SELECT_ROCE_EN, 1);
	MLX5V_SET(g_big_in, MLX5V_MODIFY_NIC_VPORT_IN_ROCE_EN, 1);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, MLX5V_MODIFY_NIC_VPORT_IN_SIZE, out, 16), 0,
			  "MODIFY_NIC_VPORT_CONTEXT");
	MLX5V_SET(g_big_in, MLX5V_MODIFY_NIC_VPORT_IN_VPORT_NUMBER, 1);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, MLX5V_MODIFY_NIC_VPORT_IN_SIZE, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "other vport");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_VPORT, "syndrome");
	/* A second UAR, then both freed. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ALLOC_UAR, 0, 0, out, 16), 0, "ALLOC_UAR");
	uar2 = MLX5V_GET(out, MLX5V_UAR_OUT_UAR);
	TEST_ASSERT(uar2 >= MLX5V_UAR_FIRST_INDEX && uar2 != g_uar, "second UAR %u", uar2);
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DEALLOC_UAR, 0, uar2, out, 16), 0, "DEALLOC");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DEALLOC_UAR, 0, g_uar, out, 16), 0, "DEALLOC");
	TEST_ASSERT_EQUAL(UT_LIVE(UAR), 0u, "live UARs");
	/* [K] teardown: TEARDOWN_HCA graceful, reclaim, DISABLE_HCA. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 0, out, 16), 0, "TEARDOWN");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_TEARDOWN_HCA_OUT_STATE), 0u, "state");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DISABLE_HCA, 0, 0, out, 12),
			  MLX5V_CMD_STAT_OK, "DISABLE_HCA with pages held is allowed");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "re-enable");
	TEST_ASSERT_EQUAL(ut_take(20, out, 16 + 8 * 20), 0, "TAKE");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_MANAGE_PAGES_OUT_NUM_ENTRIES), 20u, "taken");
	TEST_ASSERT_EQUAL(ut_take(UT_NPAGES, out, sizeof(out)), 0, "TAKE");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_MANAGE_PAGES_OUT_NUM_ENTRIES), 28u, "taken");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 0u, "pages left");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 16, "boot pages wanted again");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DISABLE_HCA, 0, 0, out, 12), 0, "DISABLE_HCA");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_teardown_fast(void)
{
	uint8_t out[16];
	uint32_t v;

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 5, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "profile 5");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_TEARDOWN_PROFILE, "synd");
	/* teardown_fail: the driver must fall back to profile 0 (§2.3 step 2). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "teardown_fail", 1), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 2, out, 16), 0, "profile 2");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_TEARDOWN_HCA_OUT_STATE), 1u, "FORCE_STATE_FAIL");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "teardown_fail", 0), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fast_teardown", 0), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 2, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "profile 2 without the cap");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_TEARDOWN_NO_FAST, "synd");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fast_teardown", 1), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 2, out, 16), 0, "profile 2");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_TEARDOWN_HCA_OUT_STATE), 0u, "state");
	/* §2.3 step 3: request DISABLED; the model reflects it. */
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ, (v & 0xfffff000) | (1u << 8));
	v = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	TEST_ASSERT_EQUAL((v >> 8) & 7, (uint32_t)MLX5V_NIC_IF_DISABLED, "nic_interface %u",
			  (v >> 8) & 7);
	TEST_ASSERT_EQUAL(v & 0xff, 0x56u, "log fields after the request");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_TEARDOWN_HCA, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "teardown twice");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_TEARDOWN_STATE, "synd");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_hca_state_errors(void)
{
	uint8_t out[0x70];
	int32_t n;

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "before ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_HCA_DISABLED, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 1, out, 12),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "function_id 1");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_ENABLE_FUNC, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DISABLE_HCA, 0, 0, out, 12),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "DISABLE before ENABLE");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_DISABLE_STATE, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "ENABLE twice");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_ENABLE_TWICE, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_CREATE_EQ, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "CREATE_EQ before INIT_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_HCA_NOT_INIT, "synd");
	/* The Ethernet function exists only after INIT_HCA too. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ALLOC_PD, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "ALLOC_PD before INIT_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_HCA_NOT_INIT, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_SQ, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "DESTROY_SQ before INIT_HCA");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_HCA_NOT_INIT, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_INIT_HCA, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "INIT_HCA before SET_ISSI");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_INIT_NO_ISSI, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_SET_ISSI, 0, 2, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "ISSI 2");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_BAD_ISSI, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_SET_ISSI, 0, 1, out, 16), 0, "SET_ISSI 1");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "ISSI");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_QUERY_ISSI_OUT_CURRENT_ISSI), 1u, "current");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_INIT_HCA, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "INIT_HCA without pages");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_INIT_NO_PAGES, "synd");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_INIT, &n), 0, "QUERY_PAGES init");
	TEST_ASSERT_EQUAL(n, 48, "init answer counts boot pages not given yet");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_POST_INIT, &n), 0, "post-init");
	TEST_ASSERT_EQUAL(n, 0, "post-init answer");
	TEST_ASSERT_EQUAL(ut_give(0, 48, out), 0, "GIVE");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_INIT_HCA, 0, 0, out, 16), 0, "INIT_HCA");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_INIT_HCA, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "INIT_HCA twice");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_INIT_TWICE, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DISABLE_HCA, 0, 0, out, 12),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "DISABLE before TEARDOWN");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_DISABLE_INIT, "synd");
	TEST_ASSERT_EQUAL(ut_query_cap(2 << 1, g_big_out), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "ODP caps are not modelled");
	TEST_ASSERT_EQUAL(ut_synd(g_big_out), (uint32_t)MLX5V_SIM_SYND_BAD_OP_MOD, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_HCA_CAP, 1, 1, g_big_out,
				   MLX5V_HCA_CAP_CMD_SIZE), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "other function");
	TEST_ASSERT_EQUAL(ut_synd(g_big_out), (uint32_t)MLX5V_SIM_SYND_CAP_OTHER_FUNC, "synd");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- command engine */

static int
test_mlx5v_sim_cmd_bad_opcode(void)
{
	uint64_t errs = UT_CTR(CMD_ERRORS);
	uint64_t cmds = UT_CTR(CMDS);
	uint8_t out[16];

	TEST_ASSERT_EQUAL(ut_cmd16(0x7ff, 0, 0, out, 16), MLX5V_CMD_STAT_BAD_OP_ERR, "BAD_OP");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_BAD_OPCODE, "syndrome");
	TEST_ASSERT_EQUAL(UT_CTR(CMD_ERRORS), errs + 1, "CMD_ERRORS");
	TEST_ASSERT_EQUAL(UT_CTR(CMDS), cmds + 1, "CMDS");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_bad_op_mod(void)
{
	uint8_t out[16];

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 1, 0, out, 12),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "ENABLE_HCA op_mod 1");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_BAD_OP_MOD, "syndrome");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 0, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "QUERY_PAGES op_mod 0");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_BAD_OP_MOD, "syndrome");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_MANAGE_PAGES, 3, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "MANAGE_PAGES op_mod 3");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ACCESS_REG, 2, MLX5V_REG_HOST_ENDIANNESS, out,
				   16), MLX5V_CMD_STAT_BAD_PARAM_ERR, "ACCESS_REG op_mod 2");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_bad_lengths(void)
{
	uint8_t out[16];

	memset(g_big_in, 0, 16);
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_QUERY_ISSI);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 4, out, 16), UT_DELIV | MLX5V_CMD_DELIV_IN_LENGTH_ERR,
			  "inlen 4");
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 16, out, 4),
			  UT_DELIV | MLX5V_CMD_DELIV_OUT_LENGTH_ERR, "outlen 4");
	ut_post(0, g_big_in, 16, 16);
	rte_pmd_mlx5v_prm_set(g_cmdq + MLX5V_CMD_ENT_INLEN, 0, 31, 0, MLX5V_SIM_CMD_MAX_LEN + 1);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_IN_LENGTH_ERR, "inlen too large");
	ut_post(0, g_big_in, 16, 16);
	rte_pmd_mlx5v_prm_set(g_cmdq + MLX5V_CMD_ENT_OUTLEN, 0, 31, 0,
			      MLX5V_SIM_CMD_MAX_LEN + 1);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_OUT_LENGTH_ERR, "outlen too large");
	/* Per-opcode minimums answer in the outbox. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_HCA_CAP, 1, 0, out, 16),
			  MLX5V_CMD_STAT_BAD_OUTP_LEN_ERR, "QUERY_HCA_CAP outlen 16");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_OUTLEN, "syndrome");
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_SET_HCA_CAP);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 16, out, 16), MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
			  "SET_HCA_CAP inlen 16");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_INLEN, "syndrome");
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_CREATE_EQ);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 0x100, out, 16), MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
			  "CREATE_EQ inlen 0x100");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_unmapped_mailbox(void)
{
	uint64_t faults = UT_CTR(IOMMU_FAULTS);
	uint8_t *ent = g_cmdq;
	uint8_t out[16];

	memset(g_big_in, 0, sizeof(g_big_in));
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_SET_HCA_CAP);
	ut_post(0, g_big_in, sizeof(g_big_in), 16);
	MLX5V_SET64(ent, MLX5V_CMD_ENT_IPTR, 0x40000000000ull);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_IN_PTR_ALIGN_ERR, "unmapped input");
	TEST_ASSERT(UT_CTR(IOMMU_FAULTS) > faults, "IOMMU fault not counted");
	faults = UT_CTR(IOMMU_FAULTS);
	ut_post(0, g_big_in, 16, MLX5V_HCA_CAP_CMD_SIZE);
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_QUERY_HCA_CAP);
	memcpy(ent + MLX5V_CMD_ENT_IN, g_big_in, 16);
	MLX5V_SET64(ent, MLX5V_CMD_ENT_OPTR, 0x40000000000ull);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR, "unmapped output");
	TEST_ASSERT(UT_CTR(IOMMU_FAULTS) > faults, "IOMMU fault not counted");
	/* The device still works. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_bad_block_num(void)
{
	memset(g_big_in, 0, sizeof(g_big_in));
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_SET_HCA_CAP);
	ut_post(0, g_big_in, sizeof(g_big_in), 16);
	rte_pmd_mlx5v_prm_set(g_mb[0].in + UT_MBOX_STRIDE + MLX5V_MBOX_BLOCK_NUM, 0, 31, 0, 5);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_BAD_BLK_NUM_ERR, "input block_num");
	ut_post(0, g_big_in, 16, MLX5V_HCA_CAP_CMD_SIZE);
	rte_pmd_mlx5v_prm_set(g_mb[0].out + 2 * UT_MBOX_STRIDE + MLX5V_MBOX_BLOCK_NUM,
			      0, 31, 0, 0);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_BAD_BLK_NUM_ERR, "output block_num");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_misaligned_mailbox(void)
{
	memset(g_big_in, 0, sizeof(g_big_in));
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_SET_HCA_CAP);
	ut_post(0, g_big_in, sizeof(g_big_in), 16);
	MLX5V_SET64(g_cmdq, MLX5V_CMD_ENT_IPTR, g_mb[0].in_iova + 512);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_IN_PTR_ALIGN_ERR, "input at +512");
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_QUERY_HCA_CAP);
	ut_post(0, g_big_in, 16, MLX5V_HCA_CAP_CMD_SIZE);
	MLX5V_SET64(g_cmdq, MLX5V_CMD_ENT_OPTR, g_mb[0].out_iova + 512);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR, "output at +512");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_bad_type(void)
{
	uint8_t in[16];

	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(0, in, 16, 12);
	g_cmdq[MLX5V_CMD_ENT_TYPE] = 6;
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_CMD_DESCR_ERR, "type 6");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cmd_owner_zero(void)
{
	uint64_t misuse = UT_CTR(DB_MISUSE);
	uint8_t *ent = g_cmdq + 3 * MLX5V_CMD_ENT_SIZE;
	uint8_t out[0x70];
	uint8_t in[16];

	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(3, in, 16, 12);
	ent[MLX5V_CMD_ENT_STATUS_OWN] = 0;
	ent[MLX5V_CMD_ENT_OUT] = 0xaa;
	ut_ring(3);
	/* Two commands on slot 0: the engine pass that saw slot 3 has ended. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "sync 1");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, "sync 2");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "owner-0 doorbell not counted");
	TEST_ASSERT_EQUAL(ent[MLX5V_CMD_ENT_OUT], 0xaa, "software-owned slot was touched");
	TEST_ASSERT_EQUAL(ent[MLX5V_CMD_ENT_STATUS_OWN], 0, "status_own changed");
	return TEST_SUCCESS;
}

/* Slot 0 stays device-owned (held) while slot 31 completes; a doorbell on busy slot 0 is
 * a driver bug.
 */
static int
test_mlx5v_sim_cmd_slots_concurrent(void)
{
	uint64_t misuse;
	uint8_t out[16];
	uint8_t in[16];
	int32_t n;
	unsigned int s;

	TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(g_sim, MLX5V_CMD_OP_ENABLE_HCA, 1),
			    "hold knob");
	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(0, in, 16, 12);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "slot 31 runs");
	TEST_ASSERT_EQUAL(n, 16, "boot pages");
	TEST_ASSERT(g_cmdq[MLX5V_CMD_ENT_STATUS_OWN] & 1, "held slot 0 was completed");
	misuse = UT_CTR(DB_MISUSE);
	ut_ring(0);
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "doorbell on a busy slot");
	mlx5v_sim_release_held(g_sim);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "released slot 0");
	ut_read_out(0, out, 12);
	TEST_ASSERT_EQUAL(out[0], 0, "ENABLE_HCA status");
	/* Several slots in one doorbell write (§3.5). */
	for (s = 1; s <= 3; s++) {
		memset(in, 0, sizeof(in));
		MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_QUERY_PAGES);
		MLX5V_SET(in, RTE_PMD_MLX5V_IN_OP_MOD, s);
		ut_post(s, in, 16, 16);
	}
	rte_wmb();
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMD_DBELL, 0xe);
	for (s = 1; s <= 3; s++) {
		TEST_ASSERT_EQUAL(ut_wait(s), 0, "slot %u", s);
		TEST_ASSERT_EQUAL(g_cmdq[s * MLX5V_CMD_ENT_SIZE + MLX5V_CMD_ENT_OUT], 0,
				  "slot %u status", s);
	}
	return TEST_SUCCESS;
}

static uint8_t
ut_xor8(const uint8_t *p, size_t len)
{
	uint8_t x = 0;

	while (len-- > 0)
		x ^= *p++;
	return x;
}

/* Sign slot s and its input blocks as [K] does (§3.4). */
static void
ut_sign(unsigned int slot, uint32_t inlen)
{
	uint8_t *ent = g_cmdq + slot * MLX5V_CMD_ENT_SIZE;
	uint8_t *blk;
	uint32_t n;

	for (n = 0; n < ut_nblocks(inlen); n++) {
		blk = g_mb[slot == UT_PAGE_SLOT].in + n * UT_MBOX_STRIDE;
		blk[MLX5V_MBOX_CTRL_SIG] = 0;
		blk[MLX5V_MBOX_SIG] = 0;
		blk[MLX5V_MBOX_CTRL_SIG] = ~ut_xor8(blk + 0x200, 0x3f);
		blk[MLX5V_MBOX_SIG] = ~ut_xor8(blk, MLX5V_MBOX_SIZE - 1);
	}
	ent[MLX5V_CMD_ENT_SIG] = 0;
	ent[MLX5V_CMD_ENT_SIG] = ~ut_xor8(ent, MLX5V_CMD_ENT_SIZE);
}

static int
test_mlx5v_sim_cmd_token_checksums(void)
{
	uint8_t *blk = g_mb[0].in;
	uint8_t out[0x70];

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	/* Token check: block token differs from the entry token -> delivery 0x2. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "check_token", 1), "knob");
	memset(g_big_in, 0, 32);
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_ACCESS_REG);
	MLX5V_SET(g_big_in, MLX5V_ACCESS_REG_IN_REGISTER_ID, MLX5V_REG_HOST_ENDIANNESS);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 32, out, 16), 0, "matching tokens");
	ut_post(0, g_big_in, 32, 16);
	blk[MLX5V_MBOX_TOKEN] ^= 0x55;
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_TOK_ERR, "token mismatch");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "check_token", 0), "knob");
	/* Signatures: unsigned -> 0x1; signed -> OK and the output is signed. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "checksums", 1), "knob");
	ut_post(0, g_big_in, 32, 16);
	ut_sign(0, 32);
	g_cmdq[MLX5V_CMD_ENT_SIG] ^= 1;    /* a wrong entry signature */
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_SIGNAT_ERR, "bad entry signature");
	ut_post(0, g_big_in, 32, 16);
	ut_sign(0, 32);
	blk[0x10] ^= 1;            /* corrupt a signed block */
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), MLX5V_CMD_DELIV_SIGNAT_ERR, "corrupt block");
	memset(g_big_in, 0, 16);
	MLX5V_SET(g_big_in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_QUERY_ISSI);
	ut_post(0, g_big_in, 16, 0x70);
	ut_sign(0, 16);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "signed command");
	TEST_ASSERT_EQUAL(g_cmdq[MLX5V_CMD_ENT_OUT], 0, "status");
	TEST_ASSERT_EQUAL(ut_xor8(g_cmdq, MLX5V_CMD_ENT_SIZE), 0xff, "entry signature");
	TEST_ASSERT_EQUAL(ut_xor8(g_mb[0].out + 0x200, 0x3f), 0xff, "block ctrl_sig");
	TEST_ASSERT_EQUAL(ut_xor8(g_mb[0].out, MLX5V_MBOX_SIZE), 0xff, "block sig");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_prm_get(g_mb[0].out + 0x6c - 16, 0, 31, 0), 3u,
			  "supported_issi in the signed block");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- pages */

/* One-page GIVE of address pa. */
static int
ut_give_pa(uint64_t pa, uint8_t *out)
{
	uint8_t in[24];

	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OP_MOD, MLX5V_MANAGE_PAGES_GIVE);
	MLX5V_SET(in, MLX5V_MANAGE_PAGES_IN_NUM_ENTRIES, 1);
	MLX5V_SET64(in, MLX5V_MANAGE_PAGES_IN_PAS, pa);
	return ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, 16);
}

static int
test_mlx5v_sim_pages_give_take(void)
{
	uint8_t out[16 + 8 * UT_NPAGES];
	uint8_t in[16 + 8 * 2];
	uint64_t pa;
	uint32_t i;
	int32_t n;

	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_give_pa(0, out), MLX5V_CMD_STAT_BAD_PARAM_ERR, "page 0");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGE_ZERO, "synd");
	TEST_ASSERT_EQUAL(ut_give_pa(g_pages_iova + 8, out), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "misaligned page");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGE_ALIGN, "synd");
	TEST_ASSERT_EQUAL(ut_give_pa(0x40000000000ull, out), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "unmapped page");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGE_UNMAPPED, "synd");
	/* The same page twice in one GIVE: nothing is kept. */
	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OP_MOD, MLX5V_MANAGE_PAGES_GIVE);
	MLX5V_SET(in, MLX5V_MANAGE_PAGES_IN_NUM_ENTRIES, 2);
	MLX5V_SET64(in, MLX5V_MANAGE_PAGES_IN_PAS, g_pages_iova);
	MLX5V_SET64(in, MLX5V_MANAGE_PAGES_IN_PAS + 8, g_pages_iova);
	TEST_ASSERT_EQUAL(ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "duplicate page");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGE_DUP, "synd");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 0u, "a failed GIVE kept pages");
	/* More entries than inlen carries. */
	MLX5V_SET(in, MLX5V_MANAGE_PAGES_IN_NUM_ENTRIES, 3);
	TEST_ASSERT_EQUAL(ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, 16),
			  MLX5V_CMD_STAT_BAD_INP_LEN_ERR, "entries beyond inlen");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGES_NENT, "synd");
	MLX5V_SET(in, MLX5V_MANAGE_PAGES_IN_NUM_ENTRIES, 1);
	MLX5V_SET(in, MLX5V_MANAGE_PAGES_IN_FUNCTION_ID, 1);
	TEST_ASSERT_EQUAL(ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "function_id 1");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_PAGES_FUNC, "synd");
	/* Accounting. */
	TEST_ASSERT_EQUAL(ut_give(0, 10, out), 0, "GIVE 10");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 10u, "pages held");
	TEST_ASSERT_EQUAL(ut_give(9, 1, out), MLX5V_CMD_STAT_BAD_PARAM_ERR, "given twice");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 10u, "pages held");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 6, "boot pages still needed");
	TEST_ASSERT_EQUAL(ut_take(4, out, 16 + 8 * 4), 0, "TAKE 4");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_MANAGE_PAGES_OUT_NUM_ENTRIES), 4u, "taken");
	for (i = 0; i < 4; i++) {
		pa = MLX5V_GET64(out, MLX5V_MANAGE_PAGES_OUT_PAS + 8 * i);
		TEST_ASSERT(pa >= g_pages_iova && pa < g_pages_iova + 10 * 4096 &&
			    pa % 4096 == 0, "returned page 0x%" PRIx64 " was never given", pa);
	}
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 6u, "pages held");
	/* TAKE returns at most input_num_entries, and at most what is held. */
	TEST_ASSERT_EQUAL(ut_take(2, out, sizeof(out)), 0, "TAKE 2");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_MANAGE_PAGES_OUT_NUM_ENTRIES), 2u, "taken");
	TEST_ASSERT_EQUAL(ut_take(UT_NPAGES, out, sizeof(out)), 0, "TAKE all");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_MANAGE_PAGES_OUT_NUM_ENTRIES), 4u, "taken");
	TEST_ASSERT_EQUAL(UT_LIVE(PAGES), 0u, "pages held");
	TEST_ASSERT_EQUAL(ut_take(1, out, sizeof(out)), 0, "TAKE from nothing");
	TEST_ASSERT_EQUAL(MLX5V_GET(out, MLX5V_MANAGE_PAGES_OUT_NUM_ENTRIES), 0u, "taken");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_MANAGE_PAGES, MLX5V_MANAGE_PAGES_CANT_GIVE, 0,
				   out, 16), 0, "CANT_GIVE");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_pages_request_event(void)
{
	struct ut_ring eq;
	const uint8_t *eqe;

	TEST_ASSERT_EQUAL(mlx5v_sim_request_pages(g_sim, 4), -ENOENT, "no subscriber");
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 1ull << RTE_PMD_MLX5V_EVENT_PAGE_REQUEST, 0),
			    "create EQ");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_SUCCESS(mlx5v_sim_request_pages(g_sim, -5), "request");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "no PAGE_REQUEST EQE");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF], RTE_PMD_MLX5V_EVENT_PAGE_REQUEST,
			  "type");
	TEST_ASSERT_EQUAL((int32_t)ut_be32(eqe, RTE_PMD_MLX5V_EQE_PAGE_NUM_PAGES_OFF), -5,
			  "signed num_pages");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_PAGE_EC_FUNCTION_OFF), 0u, "func");
	TEST_ASSERT(ut_msi_wait(eq.fd) >= 1, "no MSI on vector 0");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- EQs */

static int
test_mlx5v_sim_eq_create_query_destroy(void)
{
	uint8_t out[0x118];
	uint8_t *eqc = out + RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC;
	uint64_t sw_owned = UT_CTR(RING_SW_OWNED);
	struct ut_ring eq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0xa00, 1), "create");
	TEST_ASSERT_EQUAL(eq.num, 1u, "first EQN must be 1 (doorbells never zero)");
	TEST_ASSERT_EQUAL(UT_LIVE(EQ), 1u, "live EQs");
	TEST_ASSERT_EQUAL(UT_CTR(RING_SW_OWNED), sw_owned, "owner-initialised ring flagged");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE), 4u, "log_eq_size");
	TEST_ASSERT_EQUAL(MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE), g_uar, "uar_page");
	TEST_ASSERT_EQUAL(MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_INTR), 1u, "intr");
	TEST_ASSERT_EQUAL(MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_LOG_PAGE_SIZE), 0u, "log_page_size");
	TEST_ASSERT_EQUAL(MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_STATUS), 0u, "status");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED, "not armed");
	TEST_ASSERT_EQUAL(MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_PRODUCER_COUNTER), 0u, "pi");
	TEST_ASSERT_EQUAL(MLX5V_GET(eqc, RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER), 0u, "ci");
	TEST_ASSERT_EQUAL(MLX5V_GET64(out, RTE_PMD_MLX5V_QUERY_EQ_OUT_EVENT_BITMASK), 0xa00ull,
			  "event_bitmask");
	TEST_ASSERT_EQUAL(MLX5V_GET64(out, RTE_PMD_MLX5V_QUERY_EQ_OUT_PAS), eq.iova, "pas[0]");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED, "armed");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DEALLOC_UAR, 0, g_uar, out, 16),
			  MLX5V_CMD_STAT_BAD_RES_STATE_ERR, "DEALLOC_UAR of a used UAR");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_UAR_BUSY, "synd");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	TEST_ASSERT_EQUAL(UT_LIVE(EQ), 0u, "live EQs");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), MLX5V_CMD_STAT_BAD_RES_ERR, "destroy twice");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), MLX5V_CMD_STAT_BAD_RES_ERR, "query destroyed");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_EQ_EQN, "synd");
	ut_ring_free(&eq);
	/* A ring left software-owned is flagged (§11.7) but accepted. */
	TEST_ASSERT_SUCCESS(ut_ring_alloc(&eq, 2, 0), "alloc");
	ut_eq_in(g_big_in, &eq, 2, 0, 1);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 0x118, out, 16), 0, "create");
	eq.num = MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	TEST_ASSERT_EQUAL(UT_CTR(RING_SW_OWNED), sw_owned + 1, "software-owned ring");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* Create with one field broken. @return the status; the syndrome is in out. */
static int
ut_eq_create_bad(struct ut_ring *r, uint8_t *in, uint32_t inlen, uint8_t *out)
{
	int st = ut_cmd(in, inlen, out, 16);

	if (st == 0) {
		r->num = MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
		ut_eq_destroy(r);
	}
	return st;
}

#define UT_EQ_BAD(setup, status, synd, what) do { \
	ut_eq_in(in, &r, 4, 0, 1); \
	setup; \
	TEST_ASSERT_EQUAL(ut_eq_create_bad(&r, in, inlen, out), status, what); \
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)(synd), what ": syndrome 0x%x", \
			  ut_synd(out)); \
	inlen = 0x118; \
} while (0)

static int
test_mlx5v_sim_eq_create_errors(void)
{
	uint8_t *in = g_big_in;
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;
	uint8_t out[16];
	uint32_t inlen = 0x118;
	struct ut_ring r;

	TEST_ASSERT_SUCCESS(ut_ring_alloc(&r, 4, 1), "alloc");
	UT_EQ_BAD(rte_pmd_mlx5v_prm_set(eqc, 1, 0, 0, 1), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQC_RESERVED, "eqc DW1 reserved");
	UT_EQ_BAD(rte_pmd_mlx5v_prm_set(eqc, 5, 12, 12, 1), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQC_RESERVED, "intr bit 12");
	UT_EQ_BAD(MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER, 3),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQC_RESERVED, "consumer counter");
	UT_EQ_BAD(in[0x80] = 1, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_IN_RESERVED,
		  "create_eq_in reserved");
	UT_EQ_BAD(in[0x0c] = 1, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_IN_RESERVED,
		  "header reserved");
	UT_EQ_BAD(MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_STATUS, 1), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQ_STATUS, "status");
	UT_EQ_BAD(MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_ST, 3), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQ_ST, "st 3");
	UT_EQ_BAD(MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_PAGE_OFFSET, 1),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_PAGE_OFFSET, "page_offset");
	UT_EQ_BAD(MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, 23),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_SIZE, "log_eq_size 23");
	UT_EQ_BAD(MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, 2), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQ_UAR, "uar_page 2");
	UT_EQ_BAD(MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, g_uar + 1),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_UAR, "uar not allocated");
	UT_EQ_BAD(MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, 8), MLX5V_CMD_STAT_BAD_PARAM_ERR,
		  MLX5V_SIM_SYND_EQ_INTR, "intr = MSI-X count");
	UT_EQ_BAD(inlen = 0x110, MLX5V_CMD_STAT_BAD_INP_LEN_ERR, MLX5V_SIM_SYND_EQ_PAS_LEN,
		  "no PAS");
	UT_EQ_BAD(MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_PAS, r.iova + 64),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_PAS_ALIGN, "PAS misaligned");
	UT_EQ_BAD(MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_PAS, 0x40000000000ull),
		  MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_UNMAPPED, "PAS unmapped");
	/* 4 KiB pages but a ring of 128 x 64 B = 8 KiB: two PAS needed. */
	UT_EQ_BAD(MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, 7),
		  MLX5V_CMD_STAT_BAD_INP_LEN_ERR, MLX5V_SIM_SYND_EQ_PAS_LEN, "one PAS of two");
	UT_EQ_BAD((MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, 7),
		   MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_PAS + 8, 0x40000000000ull),
		   inlen = 0x120), MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_EQ_UNMAPPED,
		  "second page unmapped");
	UT_EQ_BAD((void)0, MLX5V_CMD_STAT_OK, 0, "the unbroken input");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_EQ, 0, 0x100 | 1, out, 16),
			  MLX5V_CMD_STAT_BAD_PARAM_ERR, "eq_number bits 31:8");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_EQ_IN_HI, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_EQ, 0, 200, out, 16),
			  MLX5V_CMD_STAT_BAD_RES_ERR, "no such EQ");
	TEST_ASSERT_EQUAL(UT_LIVE(EQ), 0u, "live EQs");
	ut_ring_free(&r);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_eq_no_free_eqn(void)
{
	struct mlx5v_sim_params p;
	struct ut_ring eq[3];
	uint8_t out[16];
	unsigned int i;

	ut_teardown();
	mlx5v_sim_params_default(&p);
	p.max_eqs = 2;
	TEST_ASSERT_SUCCESS(ut_setup_params(&p), "setup");
	TEST_ASSERT_EQUAL(ut_bringup(), 0, "bring-up");
	for (i = 0; i < 2; i++)
		TEST_ASSERT_SUCCESS(ut_eq_create(&eq[i], 2, 0, 1 + i), "EQ %u", i);
	TEST_ASSERT_SUCCESS(ut_ring_alloc(&eq[2], 2, 1), "alloc");
	ut_eq_in(g_big_in, &eq[2], 2, 0, 1);
	TEST_ASSERT_EQUAL(ut_cmd(g_big_in, 0x118, out, 16), MLX5V_CMD_STAT_LIM_ERR, "3rd EQ");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_EQ_NO_EQN, "synd");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_EQUAL(ut_eq_destroy(&eq[i]), 0, "destroy");
		ut_ring_free(&eq[i]);
	}
	ut_ring_free(&eq[2]);
	return TEST_SUCCESS;
}

/* Owner bits across three passes of a 4-entry EQ (§6.8): 0, then 1, then 0. */
static int
test_mlx5v_sim_eq_gen_eqe_wrap(void)
{
	uint8_t out[0x118];
	const uint8_t *eqe;
	struct ut_ring eq;
	uint32_t ci;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 2, 0, 1), "create");
	for (ci = 0; ci < 12; ci++) {
		TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, ci), 0,
				  "GEN_EQE %u", ci);
		eqe = ut_eqe_wait(&eq, ci);
		TEST_ASSERT_NOT_NULL(eqe, "EQE %u not software-owned", ci);
		TEST_ASSERT_EQUAL(eqe[63] & 1, (ci >> 2) & 1, "owner of EQE %u", ci);
		TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF],
				  RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, "type");
		TEST_ASSERT_EQUAL(ut_be32(eqe, 0x20), ci, "EQE data");
		if ((ci & 3) == 3) {
			/* Consume the pass: CI-only doorbell, then let the engine see it. */
			ut_eq_db(&eq, ci + 1, 0);
			TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
		}
	}
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(out + 0x10, RTE_PMD_MLX5V_EQC_PRODUCER_COUNTER), 12u, "pi");
	TEST_ASSERT_EQUAL(MLX5V_GET(out + 0x10, RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER), 12u, "ci");
	TEST_ASSERT_EQUAL(MLX5V_GET(out + 0x10, RTE_PMD_MLX5V_EQC_STATUS), 0u, "no overrun");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* §6.11, order 1: arm, then EQEs: one MSI, then FIRED and silent. */
static int
test_mlx5v_sim_eq_arm_then_eqe(void)
{
	uint8_t out[0x118];
	struct ut_ring eq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "create");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "MSI from arming an empty EQ");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 0), 0, "GEN_EQE");
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "armed EQ + EQE: exactly one MSI");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED, "FIRED");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 1), 0, "GEN_EQE");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 1), "second EQE");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "FIRED EQ raised again");
	/* Consume both and re-arm: empty, so ARMED and silent. */
	ut_eq_db(&eq, 2, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "MSI from an empty arm");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED, "ARMED");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* §6.11, order 2: EQE first (silent), then the arm raises at once (no lost wake-up). */
static int
test_mlx5v_sim_eq_eqe_then_arm(void)
{
	uint8_t out[0x118];
	struct ut_ring eq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "create");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 0), 0, "GEN_EQE");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 0), "EQE");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "MSI from an EQ never armed");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "arm with a pending EQE must raise");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED, "FIRED");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_eq_ci_only_doorbell(void)
{
	uint8_t out[0x118];
	struct ut_ring eq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "create");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 0), 0, "GEN_EQE");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 1), 0, "GEN_EQE");
	ut_eq_db(&eq, 2, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(out + 0x10, RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER), 2u, "ci");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED, "still unarmed");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 2), 0, "GEN_EQE");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "CI-only doorbell armed the EQ");
	ut_eq_db(&eq, 3, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(UT_EQ_ST(out), (uint32_t)RTE_PMD_MLX5V_EQC_ST_ARMED, "ARMED");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_eq_bad_doorbells(void)
{
	uint64_t misuse = UT_CTR(DB_MISUSE);
	uint8_t out[0x118];
	struct ut_ring eq;
	uint32_t uar2;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "create");
	ut_db32(g_uar, RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF, rte_pmd_mlx5v_eq_db_val(99, 0));
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "unknown EQN");
	ut_eq_db(&eq, 5, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 2, "CI beyond the producer");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 0), 0, "GEN_EQE");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 1), 0, "GEN_EQE");
	ut_eq_db(&eq, 2, 0);
	ut_eq_db(&eq, 1, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	/* The two stores may land in one engine pass: the second overwrote the first. */
	TEST_ASSERT(UT_CTR(DB_MISUSE) >= misuse + 2, "counter went down");
	ut_eq_db(&eq, 2, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	misuse = UT_CTR(DB_MISUSE);
	ut_eq_db(&eq, 1, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "CI moved backwards");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(out + 0x10, RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER), 2u,
			  "a rejected doorbell changed the CI");
	/* The right EQN through another (allocated) UAR, and through a free UAR. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ALLOC_UAR, 0, 0, out, 16), 0, "ALLOC_UAR");
	uar2 = MLX5V_GET(out, MLX5V_UAR_OUT_UAR);
	ut_db32(uar2, RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF, rte_pmd_mlx5v_eq_db_val(eq.num, 2));
	TEST_ASSERT_SUCCESS(ut_sync(uar2), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 2, "doorbell on another UAR");
	ut_db32(uar2 + 1, RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF, rte_pmd_mlx5v_eq_db_val(eq.num, 2));
	TEST_ASSERT_SUCCESS(ut_sync(uar2 + 1), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 3, "doorbell on a free UAR");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DEALLOC_UAR, 0, uar2, out, 16), 0, "DEALLOC");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_eq_overrun(void)
{
	uint64_t overruns = UT_CTR(EQ_OVERRUNS);
	uint8_t out[0x118];
	struct ut_ring eq;
	unsigned int i;

	/* An ordinary EQ of 2 entries, never consumed: the third EQE overruns (§6.9). */
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 1, 0, 1), "create");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, i), 0, "GEN_EQE %u", i);
	TEST_ASSERT_EQUAL(UT_CTR(EQ_OVERRUNS), overruns + 1, "overrun not counted");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(out + 0x10, RTE_PMD_MLX5V_EQC_STATUS),
			  (uint32_t)RTE_PMD_MLX5V_EQC_STATUS_EQ_WRITE_FAILURE, "eqc.status");
	TEST_ASSERT_EQUAL(MLX5V_GET(out + 0x10, RTE_PMD_MLX5V_EQC_PRODUCER_COUNTER), 2u,
			  "the overrunning EQE was written");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 9), MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
			  "GEN_EQE on a failed EQ");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), 0u, "ordinary EQ is not fatal");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	/* The async (CMD) EQ: its overrun is health syndrome 0xc. */
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 1, 1ull << RTE_PMD_MLX5V_EVENT_CMD, 0), "create");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, 0x70), 0, "cmd");
	TEST_ASSERT_EQUAL(UT_CTR(EQ_OVERRUNS), overruns + 2, "async overrun not counted");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), MLX5V_HEALTH_RFR_BIT, "RFR");
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_IRISC_INDEX) >> 16) & 0xff,
			  (uint32_t)MLX5V_HEALTH_SYND_ASYNC_EQ_OVERRUN_ERR, "health synd");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* Event mode (§3.6): CMD EQEs name the slot, the creating and destroying commands of the
 * command EQ complete by ownership alone.
 */
static int
test_mlx5v_sim_eq_cmd_event_mode(void)
{
	const uint8_t *eqe;
	uint8_t out[0x70];
	struct ut_ring eq;
	uint64_t eqes;
	int32_t n;

	eqes = UT_CTR(EQES);
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 1ull << RTE_PMD_MLX5V_EVENT_CMD, 0), "create");
	TEST_ASSERT_EQUAL(UT_CTR(EQES), eqes, "CREATE_EQ of the command EQ posted an EQE");
	ut_eq_db(&eq, 0, 1);
	/* ut_sync runs two commands: EQEs 0 and 1. */
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "CMD EQE");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF], RTE_PMD_MLX5V_EVENT_CMD, "type");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_CMD_VECTOR_OFF), 1u, "slot 0 bit");
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "one MSI");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 1), "second CMD EQE");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_POST_INIT, &n), 0, "slot 31 command");
	eqe = ut_eqe_wait(&eq, 2);
	TEST_ASSERT_NOT_NULL(eqe, "slot 31 CMD EQE");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_CMD_VECTOR_OFF), 1u << 31, "bit 31");
	eqes = UT_CTR(EQES);
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	TEST_ASSERT_EQUAL(UT_CTR(EQES), eqes, "DESTROY_EQ of the command EQ posted an EQE");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "poll");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_eq_event_routing(void)
{
	struct ut_ring a;
	struct ut_ring b;
	const uint8_t *eqe;
	uint64_t mask = (1ull << RTE_PMD_MLX5V_EVENT_PORT_CHANGE) |
		(1ull << RTE_PMD_MLX5V_EVENT_PAGE_REQUEST);

	TEST_ASSERT_SUCCESS(ut_eq_create(&a, 4, mask, 1), "create");
	TEST_ASSERT_SUCCESS(ut_eq_create(&b, 4, mask, 2), "create");
	TEST_ASSERT_EQUAL(mlx5v_sim_port_event(g_sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_DOWN), 2,
			  "a port event reaches every subscriber");
	eqe = ut_eqe_wait(&b, 0);
	TEST_ASSERT_NOT_NULL(eqe, "port EQE");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF], RTE_PMD_MLX5V_PORT_CHANGE_DOWN,
			  "sub_type");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_PORT_OFF] >> 4, 1, "port");
	TEST_ASSERT_EQUAL(mlx5v_sim_port_event(g_sim, 2, 4), -EINVAL, "port 2 of 1");
	TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, RTE_PMD_MLX5V_EVENT_PAGE_REQUEST, 0,
						 NULL), 1, "PAGE_REQUEST: first EQ only");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&a, 1), "EQ a got it");
	TEST_ASSERT(!ut_eqe_ready(&b, 1), "EQ b got it too");
	TEST_ASSERT_EQUAL(mlx5v_sim_inject_event(g_sim, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0,
						 NULL), 0, "no subscriber");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&a), 0, "destroy");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&b), 0, "destroy");
	ut_ring_free(&a);
	ut_ring_free(&b);
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- CQs */

static int
test_mlx5v_sim_cq_completion_msi(void)
{
	uint8_t out[0x118];
	uint8_t *cqc = out + MLX5V_QUERY_CQ_OUT_CQC;
	const uint8_t *eqe;
	struct ut_ring eq;
	struct ut_ring cq;
	uint8_t *cqe;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, eq.num, 1, out), 0, "CREATE_CQ");
	TEST_ASSERT_EQUAL(cq.num, 1u, "first CQN must be 1");
	TEST_ASSERT_EQUAL(UT_LIVE(CQ), 1u, "live CQs");
	ut_eq_db(&eq, 0, 1);
	ut_cq_arm(&cq, 0, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, MLX5V_CQE_OPCODE_RESP_SEND, 100),
			    "post_cqe");
	cqe = cq.buf;
	TEST_ASSERT_EQUAL(cqe[MLX5V_CQE_OP_OWN] & 1, 0, "CQE owner on the first pass");
	TEST_ASSERT_EQUAL(cqe[MLX5V_CQE_OP_OWN] >> 4, MLX5V_CQE_OPCODE_RESP_SEND, "opcode");
	TEST_ASSERT_EQUAL(ut_be32(cqe, MLX5V_CQE_BYTE_CNT), 100u, "byte_cnt");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "completion EQE");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF], RTE_PMD_MLX5V_EVENT_COMP, "type");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_COMP_CQN_OFF) & 0xffffff, cq.num, "cqn");
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "MSI on vector 1");
	/* FIRED: the next CQE posts no EQE until the CQ is armed again. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), "post_cqe");
	TEST_ASSERT(!ut_eqe_ready(&eq, 1), "EQE from a fired CQ");
	memset(out, 0, sizeof(out));
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_CQ, 0, cq.num, out, sizeof(out)), 0,
			  "QUERY_CQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(cqc, MLX5V_CQC_C_EQN), eq.num, "c_eqn");
	TEST_ASSERT_EQUAL(MLX5V_GET(cqc, MLX5V_CQC_LOG_CQ_SIZE), 4u, "log_cq_size");
	TEST_ASSERT_EQUAL(MLX5V_GET(cqc, MLX5V_CQC_PRODUCER_COUNTER), 2u, "pi");
	TEST_ASSERT_EQUAL(MLX5V_GET(cqc, MLX5V_CQC_ST), (uint32_t)RTE_PMD_MLX5V_EQC_ST_FIRED,
			  "st");
	TEST_ASSERT_EQUAL(MLX5V_GET64(cqc, MLX5V_CQC_DBR_ADDR), cq.dbr_iova, "dbr_addr");
	TEST_ASSERT_EQUAL(MLX5V_GET64(out, MLX5V_QUERY_CQ_OUT_PAS), cq.iova, "pas[0]");
	/* The EQ still has a CQ: DESTROY_EQ is refused. */
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_EQ, 0, eq.num, out, 16),
			  MLX5V_CMD_STAT_BAD_RES_STATE_ERR, "EQ with a CQ");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_EQ_HAS_CQ, "synd");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), MLX5V_CMD_STAT_BAD_RES_ERR, "twice");
	TEST_ASSERT_EQUAL(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), -ENOENT, "destroyed CQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	TEST_ASSERT_EQUAL(UT_LIVE(CQ), 0u, "live CQs");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cq_arm_pending(void)
{
	uint8_t out[16];
	struct ut_ring eq;
	struct ut_ring cq;
	uint64_t eqes;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, eq.num, 1, out), 0, "CREATE_CQ");
	eqes = UT_CTR(EQES);
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 64), "post_cqe");
	TEST_ASSERT_EQUAL(UT_CTR(EQES), eqes, "EQE from an unarmed CQ");
	/* DPDK d76a17f7b820: arming with a CQE pending must notify at once. */
	ut_cq_arm(&cq, 0, 1);
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 0), "arm with a pending CQE did not fire");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cq_overrun(void)
{
	uint64_t overruns = UT_CTR(CQ_OVERRUNS);
	uint8_t out[0x118];
	const uint8_t *eqe;
	struct ut_ring eq;
	struct ut_ring err;
	struct ut_ring cq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "completion EQ");
	TEST_ASSERT_SUCCESS(ut_eq_create(&err, 4, 1ull << RTE_PMD_MLX5V_EVENT_CQ_ERROR, 2),
			    "async EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 1, eq.num, 1, out), 0, "CREATE_CQ");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), "CQE 0");
	TEST_ASSERT_SUCCESS(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), "CQE 1");
	TEST_ASSERT_EQUAL(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), -ENOSPC, "CQE 2 overruns");
	TEST_ASSERT_EQUAL(UT_CTR(CQ_OVERRUNS), overruns + 1, "CQ overrun counter");
	eqe = ut_eqe_wait(&err, 0);
	TEST_ASSERT_NOT_NULL(eqe, "CQ_ERROR EQE");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF], RTE_PMD_MLX5V_EVENT_CQ_ERROR, "type");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_CQ_ERR_CQN_OFF) & 0xffffff, cq.num,
			  "cqn");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_CQ_ERR_SYNDROME_OFF],
			  RTE_PMD_MLX5V_CQ_ERR_SYND_OVERRUN, "syndrome");
	TEST_ASSERT_EQUAL(mlx5v_sim_post_cqe(g_sim, cq.num, 0, 1), -ENOSPC, "CQ in error");
	TEST_ASSERT(!ut_eqe_ready(&err, 1), "a second CQ_ERROR");
	memset(out, 0, sizeof(out));
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_CQ, 0, cq.num, out, sizeof(out)), 0,
			  "QUERY_CQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(out + MLX5V_QUERY_CQ_OUT_CQC, MLX5V_CQC_STATUS),
			  (uint32_t)MLX5V_CQC_STATUS_CQ_OVERFLOW, "cqc.status");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&err), 0, "DESTROY_EQ");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	ut_ring_free(&err);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_cq_errors(void)
{
	uint64_t sw_owned = UT_CTR(RING_SW_OWNED);
	uint64_t misuse;
	uint8_t in[0x118];
	uint8_t *cqc = in + MLX5V_CREATE_CQ_IN_CQC;
	uint8_t out[16];
	struct ut_ring eq;
	struct ut_ring cq;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, 77, 1, out), MLX5V_CMD_STAT_BAD_PARAM_ERR,
			  "c_eqn 77");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_CQ_EQN, "synd");
	ut_ring_free(&cq);
	/* Software-owned CQEs at creation are logged and counted (§7.4). */
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, eq.num, 0, out), 0, "CREATE_CQ");
	TEST_ASSERT_EQUAL(UT_CTR(RING_SW_OWNED), sw_owned + 1, "software-owned CQ");
	/* Bad doorbells: unknown CQN, and an arm word that dbrec[1] does not hold. */
	misuse = UT_CTR(DB_MISUSE);
	mlx5v_hw_db_wr64(&g_hw, (uint8_t *)mlx5v_hw_uar_addr(&g_hw, g_uar) +
			 RTE_PMD_MLX5V_UAR_CQ_DB_OFF, 999);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 1, "unknown CQN");
	rte_pmd_mlx5v_prm_set(cq.dbr, MLX5V_CQ_ARM_DB, 31, 0, 0x12345);
	mlx5v_hw_db_wr64(&g_hw, (uint8_t *)mlx5v_hw_uar_addr(&g_hw, g_uar) +
			 RTE_PMD_MLX5V_UAR_CQ_DB_OFF, cq.num);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 2, "dbrec[1] mismatch");
	ut_cq_arm(&cq, 3, 0);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(UT_CTR(DB_MISUSE), misuse + 3, "arm CI beyond the producer");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	ut_ring_free(&cq);
	/* Field checks. */
	TEST_ASSERT_SUCCESS(ut_ring_alloc(&cq, 4, 1), "alloc");
	cq.dbr = ut_alloc(64, 64, &cq.dbr_iova);
	TEST_ASSERT_NOT_NULL(cq.dbr, "dbr");
#define UT_CQ_BAD(setup, synd, what) do { \
	memset(in, 0, sizeof(in)); \
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_CREATE_CQ); \
	MLX5V_SET(cqc, MLX5V_CQC_LOG_CQ_SIZE, 4); \
	MLX5V_SET(cqc, MLX5V_CQC_UAR_PAGE, g_uar); \
	MLX5V_SET(cqc, MLX5V_CQC_C_EQN, eq.num); \
	MLX5V_SET64(cqc, MLX5V_CQC_DBR_ADDR, cq.dbr_iova); \
	MLX5V_SET64(in, MLX5V_CREATE_CQ_IN_PAS, cq.iova); \
	setup; \
	TEST_ASSERT_EQUAL(ut_cmd(in, sizeof(in), out, 16), MLX5V_CMD_STAT_BAD_PARAM_ERR, what); \
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)(synd), what); \
} while (0)
	UT_CQ_BAD(MLX5V_SET(cqc, MLX5V_CQC_CQE_SZ, 1), MLX5V_SIM_SYND_CQ_CQE_SZ, "cqe_sz 1");
	UT_CQ_BAD(MLX5V_SET(cqc, MLX5V_CQC_DBR_UMEM_VALID, 1), MLX5V_SIM_SYND_CQ_UMEM, "umem");
	UT_CQ_BAD(rte_pmd_mlx5v_prm_set(cqc, 7, 0, 0, 1), MLX5V_SIM_SYND_CQC_RESERVED, "DW7");
	UT_CQ_BAD(in[0x70] = 1, MLX5V_SIM_SYND_CQ_IN_RESERVED, "create_cq_in reserved");
	UT_CQ_BAD(MLX5V_SET(cqc, MLX5V_CQC_LOG_CQ_SIZE, 23), MLX5V_SIM_SYND_CQ_SIZE, "size");
	UT_CQ_BAD(MLX5V_SET(cqc, MLX5V_CQC_PAGE_OFFSET, 2), MLX5V_SIM_SYND_CQ_PAGE_OFFSET,
		  "page_offset");
	UT_CQ_BAD(MLX5V_SET(cqc, MLX5V_CQC_UAR_PAGE, 1), MLX5V_SIM_SYND_CQ_UAR, "uar 1");
	UT_CQ_BAD(MLX5V_SET64(cqc, MLX5V_CQC_DBR_ADDR, cq.dbr_iova + 4), MLX5V_SIM_SYND_CQ_DBR,
		  "dbr misaligned");
	UT_CQ_BAD(MLX5V_SET64(cqc, MLX5V_CQC_DBR_ADDR, 0x40000000000ull),
		  MLX5V_SIM_SYND_CQ_DBR, "dbr unmapped");
	UT_CQ_BAD(MLX5V_SET64(in, MLX5V_CREATE_CQ_IN_PAS, cq.iova + 128),
		  MLX5V_SIM_SYND_CQ_PAS_ALIGN, "PAS misaligned");
	UT_CQ_BAD(MLX5V_SET64(in, MLX5V_CREATE_CQ_IN_PAS, 0x40000000000ull),
		  MLX5V_SIM_SYND_CQ_UNMAPPED, "PAS unmapped");
	UT_CQ_BAD(MLX5V_SET(cqc, MLX5V_CQC_ST, 5), MLX5V_SIM_SYND_CQ_ST, "st 5");
#undef UT_CQ_BAD
	MLX5V_SET(cqc, MLX5V_CQC_ST, 0);
	TEST_ASSERT_EQUAL(ut_cmd(in, 0x110, out, 16), MLX5V_CMD_STAT_BAD_INP_LEN_ERR, "no PAS");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_CQ_PAS_LEN, "synd");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_DESTROY_CQ, 0, 77, out, 16),
			  MLX5V_CMD_STAT_BAD_RES_ERR, "no such CQ");
	TEST_ASSERT_EQUAL(ut_synd(out), (uint32_t)MLX5V_SIM_SYND_CQ_CQN, "synd");
	TEST_ASSERT_EQUAL(UT_LIVE(CQ), 0u, "live CQs");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- health */

static int
test_mlx5v_sim_health(void)
{
	uint32_t v1;
	uint32_t v2;
	unsigned int i;
	uint8_t in[16];
	uint8_t out[16];

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_period_ms", 1), "knob");
	mlx5v_sim_health_freeze(g_sim, 1);
	v1 = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER);
	ut_sleep_ms(30);
	v2 = mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER);
	TEST_ASSERT_EQUAL(v1, v2, "frozen counter moved");
	mlx5v_sim_health_freeze(g_sim, 0);
	for (i = 0; i < WAIT_LIMIT_MS; i++) {
		if (mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER) != v1)
			break;
		ut_sleep_ms(1);
	}
	TEST_ASSERT(i < WAIT_LIMIT_MS, "counter did not resume");
	/* Fatal syndrome (§4.3 sensor 5) and its clearing. */
	mlx5v_sim_health_fatal(g_sim, MLX5V_HEALTH_SYND_HW_UNRECOVERABLE_ERR);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), MLX5V_HEALTH_RFR_BIT, "RFR");
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_IRISC_INDEX) >> 16) & 0xff,
			  (uint32_t)MLX5V_HEALTH_SYND_HW_UNRECOVERABLE_ERR, "synd");
	mlx5v_sim_health_fatal(g_sim, 0);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), 0u, "RFR cleared");
	/* nic_interface forced to SW_RESET (sensor 4). */
	mlx5v_sim_nic_interface_set(g_sim, MLX5V_NIC_IF_SW_RESET);
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ) >> 8) & 7,
			  (uint32_t)MLX5V_NIC_IF_SW_RESET, "nic_interface");
	mlx5v_sim_nic_interface_set(g_sim, MLX5V_NIC_IF_FULL);
	/* PCI offline: all ones, the doorbell is lost; back online the device answers. */
	mlx5v_sim_pci_offline(g_sim, 1);
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_FW_REV), UINT32_MAX, "fw_rev");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_FW_VER), UINT32_MAX, "fw_ver");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_HEALTH_COUNTER), UINT32_MAX, "counter");
	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_ENABLE_HCA);
	ut_post(0, in, 16, 12);
	ut_ring(0);
	ut_sleep_ms(20);
	TEST_ASSERT(g_cmdq[MLX5V_CMD_ENT_STATUS_OWN] & 1, "an offline device answered");
	mlx5v_sim_pci_offline(g_sim, 0);
	TEST_ASSERT(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_FW_REV) != UINT32_MAX, "still offline");
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "command after recovery");
	ut_read_out(0, out, 12);
	TEST_ASSERT_EQUAL(out[0], 0, "status");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- fault knobs */

static int
test_mlx5v_sim_knob_fail(void)
{
	uint8_t out[0x70];
	int64_t v;
	int i;

	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
						    MLX5V_CMD_STAT_LIM_ERR, 0x1234), "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  MLX5V_CMD_STAT_LIM_ERR, "forced status");
	TEST_ASSERT_EQUAL(ut_synd(out), 0x1234u, "forced syndrome");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0,
			  "one-shot");
	TEST_ASSERT_EQUAL(mlx5v_sim_fail_next_cmd(g_sim, 1, 0, 0), -EINVAL, "status 0");
	/* Named knobs: any opcode, twice. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_status", 4), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_syndrome", 7), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_count", 2), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_opcode", 0xffff), "knob");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16), 4, "fail");
		TEST_ASSERT_EQUAL(ut_synd(out), 7u, "syndrome");
	}
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16), 0, "third");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_get(g_sim, "fail_opcode", &v), "get");
	TEST_ASSERT_EQUAL(v, 0, "fail_opcode disarmed");
	/* fail_count -1: until cleared. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_count", -1), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_opcode", MLX5V_CMD_OP_QUERY_ISSI),
			    "knob");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 4,
				  "always");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16), 0, "other op");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "fail_opcode", 0), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "off");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_knob_delivery_delay(void)
{
	uint8_t out[0x70];

	TEST_ASSERT_SUCCESS(mlx5v_sim_fail_next_delivery(g_sim, MLX5V_CMD_OP_QUERY_ISSI,
							 MLX5V_CMD_DELIV_FW_ERR), "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)),
			  UT_DELIV | MLX5V_CMD_DELIV_FW_ERR, "forced delivery status");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0,
			  "one-shot");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "deliv_status", 9), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "deliv_opcode", 0xffff), "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16),
			  UT_DELIV | 9, "knob delivery status");
	TEST_ASSERT_EQUAL(mlx5v_sim_fail_next_delivery(g_sim, 1, 0), -EINVAL, "deliv 0");
	TEST_ASSERT_SUCCESS(mlx5v_sim_delay_next_cmd(g_sim, MLX5V_CMD_OP_QUERY_ISSI, 20), "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0,
			  "delayed command completes");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "delay_ms", 5), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "delay_opcode", MLX5V_CMD_OP_QUERY_PAGES),
			    "knob");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_PAGES, 1, 0, out, 16), 0, "delayed");
	TEST_ASSERT_EQUAL(mlx5v_sim_delay_next_cmd(g_sim, 1, 0), -EINVAL, "delay 0");
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_knob_drop_dup_hold(void)
{
	const uint8_t *eqe;
	uint8_t out[0x70];
	uint8_t in[16];
	struct ut_ring eq;
	int32_t n;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 1ull << RTE_PMD_MLX5V_EVENT_CMD, 0), "EQ");
	/* drop: the slot is handed back, but no CMD EQE; the next command's EQE is #0. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_drop_next_completion(g_sim, MLX5V_CMD_OP_QUERY_ISSI, 0),
			    "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "drop");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_POST_INIT, &n), 0, "slot 31");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "EQE");
	TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_CMD_VECTOR_OFF), 1u << 31,
			  "EQE #0 belongs to the dropped command");
	/* dup: two EQEs for one command (#1 and #2). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_dup_next_completion(g_sim, MLX5V_CMD_OP_QUERY_ISSI), "arm");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 0, "dup");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 2), "duplicate EQE");
	TEST_ASSERT_EQUAL(ut_be32(eq.buf + 64, 0x20), 1u, "EQE #1 vector");
	TEST_ASSERT_EQUAL(ut_be32(eq.buf + 128, 0x20), 1u, "EQE #2 vector");
	/* hold: owned until released, then a late completion with its EQE (#3). */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "drop_hold", 1), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "drop_opcode", MLX5V_CMD_OP_QUERY_ISSI),
			    "knob");
	memset(in, 0, sizeof(in));
	MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, MLX5V_CMD_OP_QUERY_ISSI);
	ut_post(0, in, 16, 0x70);
	ut_ring(0);
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_POST_INIT, &n), 0, "slot 31");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 3), "slot 31 EQE");
	TEST_ASSERT(g_cmdq[MLX5V_CMD_ENT_STATUS_OWN] & 1, "held slot completed");
	mlx5v_sim_release_held(g_sim);
	TEST_ASSERT_EQUAL(ut_wait(0), 0, "released");
	eqe = ut_eqe_wait(&eq, 4);
	TEST_ASSERT_NOT_NULL(eqe, "late completion EQE");
	TEST_ASSERT_EQUAL(ut_be32(eqe, 0x20), 1u, "late EQE vector");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_knob_msix(void)
{
	struct ut_ring eq;
	uint64_t n;

	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, 0, 1), "EQ");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	/* A lost MSI-X: the EQE is there, the interrupt is not; re-arming recovers. */
	mlx5v_sim_drop_msix(g_sim, 1, 1);
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 0), 0, "GEN_EQE");
	TEST_ASSERT_NOT_NULL(ut_eqe_wait(&eq, 0), "EQE");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "dropped MSI arrived");
	ut_eq_db(&eq, 0, 1);
	TEST_ASSERT_EQUAL(ut_msi_wait(eq.fd), 1u, "re-arm with a pending EQE");
	/* The same through the named knobs. */
	ut_eq_db(&eq, 1, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "msix_vec", 1), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "lose_msix", 1), "knob");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 1), 0, "GEN_EQE");
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_msi_read(eq.fd), 0u, "lose_msix");
	/* A spurious (duplicated) MSI-X. */
	mlx5v_sim_dup_msix(g_sim, 1, 1);
	ut_eq_db(&eq, 2, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 2), 0, "GEN_EQE");
	n = ut_msi_wait(eq.fd);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	n += ut_msi_read(eq.fd);
	TEST_ASSERT_EQUAL(n, 2u, "dup_msix: two signals");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "dup_msix", 1), "knob");
	ut_eq_db(&eq, 3, 1);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	TEST_ASSERT_EQUAL(ut_gen_eqe(&eq, 0x22, 3), 0, "GEN_EQE");
	n = ut_msi_wait(eq.fd);
	TEST_ASSERT_SUCCESS(ut_sync(g_uar), "sync");
	n += ut_msi_read(eq.fd);
	TEST_ASSERT_EQUAL(n, 2u, "dup_msix knob: two signals");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "destroy");
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_knob_actions(void)
{
	uint64_t mask = (1ull << RTE_PMD_MLX5V_EVENT_PAGE_REQUEST) |
		(1ull << RTE_PMD_MLX5V_EVENT_PORT_CHANGE) |
		(1ull << RTE_PMD_MLX5V_EVENT_CQ_ERROR);
	uint64_t cq_overruns = UT_CTR(CQ_OVERRUNS);
	uint8_t out[0x118];
	const uint8_t *eqe;
	struct ut_ring eq;
	struct ut_ring cq;
	int32_t n;
	int64_t v;
	uint32_t i;

	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "boot_pages", 100), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "init_pages", 10), "knob");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 100 - 48, "boot_pages");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_INIT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 110 - 48, "init_pages");
	TEST_ASSERT_SUCCESS(ut_eq_create(&eq, 4, mask, 1), "EQ");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "request_pages", -3), "knob");
	eqe = ut_eqe_wait(&eq, 0);
	TEST_ASSERT_NOT_NULL(eqe, "request_pages EQE");
	TEST_ASSERT_EQUAL((int32_t)ut_be32(eqe, RTE_PMD_MLX5V_EQE_PAGE_NUM_PAGES_OFF), -3, "n");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "page_storm_pages", 2), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "page_storm", 3), "knob");
	for (i = 1; i <= 3; i++) {
		eqe = ut_eqe_wait(&eq, i);
		TEST_ASSERT_NOT_NULL(eqe, "storm EQE %u", i);
		TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF],
				  RTE_PMD_MLX5V_EVENT_PAGE_REQUEST, "type");
		TEST_ASSERT_EQUAL(ut_be32(eqe, RTE_PMD_MLX5V_EQE_PAGE_NUM_PAGES_OFF), 2u, "n");
	}
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "port_down", 1), "knob");
	eqe = ut_eqe_wait(&eq, 4);
	TEST_ASSERT_NOT_NULL(eqe, "port_down EQE");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF], RTE_PMD_MLX5V_PORT_CHANGE_DOWN,
			  "sub_type");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "port_up", 1), "knob");
	eqe = ut_eqe_wait(&eq, 5);
	TEST_ASSERT_NOT_NULL(eqe, "port_up EQE");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF], RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE,
			  "sub_type");
	TEST_ASSERT_EQUAL(ut_cq_create(&cq, 4, eq.num, 1, out), 0, "CQ");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "cq_overrun", cq.num), "knob");
	eqe = ut_eqe_wait(&eq, 6);
	TEST_ASSERT_NOT_NULL(eqe, "cq_overrun EQE");
	TEST_ASSERT_EQUAL(eqe[RTE_PMD_MLX5V_EQE_TYPE_OFF], RTE_PMD_MLX5V_EVENT_CQ_ERROR, "type");
	TEST_ASSERT_EQUAL(UT_CTR(CQ_OVERRUNS), cq_overruns + 1, "counter");
	TEST_ASSERT_EQUAL(ut_cq_destroy(&cq), 0, "DESTROY_CQ");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "eq_overrun", eq.num), "knob");
	TEST_ASSERT_EQUAL(ut_query_eq(&eq, out), 0, "QUERY_EQ");
	TEST_ASSERT_EQUAL(MLX5V_GET(out + 0x10, RTE_PMD_MLX5V_EQC_STATUS),
			  (uint32_t)RTE_PMD_MLX5V_EQC_STATUS_EQ_WRITE_FAILURE, "eq_overrun");
	TEST_ASSERT_EQUAL(ut_eq_destroy(&eq), 0, "DESTROY_EQ");
	/* Health, NIC interface and PCI knobs. */
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_synd", 0x10), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), MLX5V_HEALTH_RFR_BIT, "RFR");
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_IRISC_INDEX) >> 16) & 0xff, 0x10u,
			  "synd");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_synd", 0), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_HEALTH_RFR), 0u, "RFR cleared");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "nic_interface", 7), "knob");
	TEST_ASSERT_EQUAL((mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ) >> 8) & 7, 7u, "nic");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "nic_interface", 0), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "pci_offline", 1), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDIF_REV_FW_SUB), UINT32_MAX, "off");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "pci_offline", 0), "knob");
	TEST_ASSERT_EQUAL(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_CMDIF_REV_FW_SUB) >> 16, 5u, "on");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "health_freeze", 1), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_get(g_sim, "health_freeze", &v), "get");
	TEST_ASSERT_EQUAL(v, 1, "health_freeze");
	/* Names and ranges. */
	TEST_ASSERT_EQUAL(mlx5v_sim_knob_set(g_sim, "no_such_knob", 1), -ENOENT, "unknown");
	TEST_ASSERT_EQUAL(mlx5v_sim_knob_set(g_sim, "fail_status", 0x100), -ERANGE, "range");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_get(g_sim, "delay_ms", &v), "get");
	TEST_ASSERT_EQUAL(v, 100, "delay_ms default");
	TEST_ASSERT_EQUAL(mlx5v_sim_knob_get(g_sim, "nope", &v), -ENOENT, "get unknown");
	ut_ring_free(&cq);
	ut_ring_free(&eq);
	return TEST_SUCCESS;
}

static int
test_mlx5v_sim_params_devargs(void)
{
	static const char args[] =
		"msix=4,ports=2,pages=8:4,fail_opcode=0x10a,fail_status=5,fail_count=-1";
	struct mlx5v_sim_params p;
	struct mlx5v_sim *sim;
	uint8_t out[0x70];
	int32_t n;

	mlx5v_sim_params_default(&p);
	TEST_ASSERT_SUCCESS(mlx5v_sim_params_parse(&p, args), "parse");
	TEST_ASSERT_EQUAL(p.msix, 4u, "msix");
	TEST_ASSERT_EQUAL(p.ports, 2u, "ports");
	TEST_ASSERT_EQUAL(p.boot_pages, 8u, "boot pages");
	TEST_ASSERT_EQUAL(p.init_pages, 4u, "init pages");
	TEST_ASSERT(p.knobs == args, "knobs string");
	ut_teardown();
	TEST_ASSERT_SUCCESS(ut_setup_params(&p), "setup with devargs");
	TEST_ASSERT(mlx5v_sim_get("ut_mlx5v_sim0") == g_sim, "registry");
	TEST_ASSERT_NULL(mlx5v_sim_get("ut_no_such_sim"), "registry miss");
	TEST_ASSERT_EQUAL(g_hw.ops->irq_count(&g_hw), 4u, "MSI-X count");
	TEST_ASSERT_EQUAL(UT_LIVE(DMA_WINDOWS), 6u, "DMA windows of the test");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, 12), 0, "ENABLE_HCA");
	TEST_ASSERT_EQUAL(ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)), 5,
			  "fail knobs from devargs");
	TEST_ASSERT_EQUAL(ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n), 0, "QUERY_PAGES");
	TEST_ASSERT_EQUAL(n, 8, "boot pages from devargs");
	TEST_ASSERT_EQUAL(mlx5v_sim_port_event(g_sim, 2, 1), 0, "port 2 of 2");
	/* Rejections. */
	mlx5v_sim_params_default(&p);
	TEST_ASSERT_EQUAL(mlx5v_sim_params_parse(&p, "msix=abc"), -EINVAL, "bad msix");
	TEST_ASSERT_EQUAL(mlx5v_sim_params_parse(&p, "pages=1:x"), -EINVAL, "bad pages");
	mlx5v_sim_params_default(&p);
	p.knobs = "fail_opcode=1,bogus=1";
	sim = mlx5v_sim_create("ut_mlx5v_sim_bad", &p);
	TEST_ASSERT(sim == NULL && rte_errno == EINVAL, "unknown knob accepted");
	p.knobs = NULL;
	p.msix = 1;
	sim = mlx5v_sim_create("ut_mlx5v_sim_bad", &p);
	TEST_ASSERT(sim == NULL && rte_errno == EINVAL, "msix 1 accepted");
	p.msix = 8;
	sim = mlx5v_sim_create("ut_mlx5v_sim0", &p);
	TEST_ASSERT(sim == NULL && rte_errno == EEXIST, "duplicate name accepted");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------- suite */

static struct unit_test_suite mlx5v_sim_suite = {
	.suite_name = "mlx5v_sim: the mlx5 device model",
	.unit_test_cases = {
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_iseg_readback),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_iseg_boot_delay),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_bringup),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_teardown_fast),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_hca_state_errors),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_bad_opcode),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_bad_op_mod),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cmd_bad_lengths),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_unmapped_mailbox),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_bad_block_num),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_misaligned_mailbox),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_bad_type),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_owner_zero),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_slots_concurrent),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_cmd_token_checksums),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_pages_give_take),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_pages_request_event),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_create_query_destroy),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_create_errors),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_eq_no_free_eqn),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_gen_eqe_wrap),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_arm_then_eqe),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_eqe_then_arm),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_ci_only_doorbell),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_bad_doorbells),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_overrun),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_cmd_event_mode),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_eq_event_routing),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cq_completion_msi),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cq_arm_pending),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cq_overrun),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_cq_errors),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_health),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_fail),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_delivery_delay),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_drop_dup_hold),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_msix),
		TEST_CASE_ST(ut_setup_up, ut_teardown, test_mlx5v_sim_knob_actions),
		TEST_CASE_ST(ut_setup, ut_teardown, test_mlx5v_sim_params_devargs),
		TEST_CASES_END()
	},
};

static int
test_mlx5v_sim(void)
{
	return unit_test_suite_runner(&mlx5v_sim_suite);
}

REGISTER_TEST_COMMAND(mlx5v_sim_autotest, test_mlx5v_sim);
