/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Fixture of the mlx5 device model programs (ut_mlx5v_sim.h). */

#include <errno.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>

#include "test.h"

#include "ut_mlx5v_sim.h"

struct mlx5v_sim *g_sim;
struct mlx5v_hw g_hw;
uint8_t *g_cmdq;
uint64_t g_cmdq_iova;
struct ut_mbox g_mb[2];                 /* [0]: slots 0..30, [1]: slot 31 */
uint8_t *g_pages;
uint64_t g_pages_iova;
uint8_t g_token;
uint32_t g_uar;                         /* UAR allocated by ut_bringup() */

void *
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

void
ut_free(void *p, size_t len, uint64_t iova)
{
	if (p == NULL)
		return;
	g_hw.ops->dma_unmap(&g_hw, p, iova, len);
	rte_free(p);
}

uint32_t
ut_be32(const uint8_t *p, uint32_t off)
{
	return rte_pmd_mlx5v_prm_get(p + off, 0, 31, 0);
}

uint32_t
ut_nblocks(uint32_t len)
{
	return len <= 16 ? 0 : (len - 16 + 511) / 512;
}

/* Build the entry and both chains for slot s, then ring 0x018 (prm/mlx5 §3.5). */
void
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
	MLX5V_IFC_SET(cmd_layout, ent, type, MLX5V_CMD_TYPE_PCI);
	MLX5V_IFC_SET(cmd_layout, ent, inlen, inlen);
	MLX5V_IFC_SET(cmd_layout, ent, outlen, outlen);
	MLX5V_IFC_SET64(cmd_layout, ent, iptr, mb->in_iova);
	MLX5V_IFC_SET64(cmd_layout, ent, optr, mb->out_iova);
	memcpy(MLX5V_IFC_ADDR_OF(cmd_layout, ent, in), in, RTE_MIN(inlen, 16u));
	MLX5V_IFC_SET(cmd_layout, ent, token, g_token);
	for (n = 0; n < UT_NBLK; n++) {
		blk = mb->in + n * UT_MBOX_STRIDE;
		memset(blk, 0, MLX5V_MBOX_SIZE);
		if (n < nin) {
			len = RTE_MIN(inlen - 16 - n * 512, 512u);
			memcpy(blk, (const uint8_t *)in + 16 + n * 512, len);
		}
		MLX5V_IFC_SET64(cmd_mbox, blk, next, n + 1 < nin ?
			    mb->in_iova + (n + 1) * UT_MBOX_STRIDE : 0);
		MLX5V_IFC_SET(cmd_mbox, blk, block_num, n);
		MLX5V_IFC_SET(cmd_mbox, blk, token, g_token);
		blk = mb->out + n * UT_MBOX_STRIDE;
		memset(blk, 0, MLX5V_MBOX_SIZE);
		MLX5V_IFC_SET64(cmd_mbox, blk, next, n + 1 < nout ?
			    mb->out_iova + (n + 1) * UT_MBOX_STRIDE : 0);
		MLX5V_IFC_SET(cmd_mbox, blk, block_num, n);
		MLX5V_IFC_SET(cmd_mbox, blk, token, g_token);
	}
	MLX5V_IFC_SET(cmd_layout, ent, status_own, MLX5V_CMD_OWNER_HW);
}

void
ut_ring(unsigned int slot)
{
	rte_wmb();
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMD_DBELL, 1u << slot);
}

/* @return the delivery status once the device hands slot back, or -1 on timeout. */
int
ut_wait(unsigned int slot)
{
	volatile uint8_t *so = g_cmdq + slot * MLX5V_CMD_ENT_SIZE +
			    MLX5V_IFC_BYTE_OFF(cmd_layout, status_own);
	unsigned int i;

	for (i = 0; i < UT_WAIT_LIMIT_MS * 10; i++) {
		if (!(*so & MLX5V_CMD_OWNER_HW)) {
			rte_rmb();
			return *so >> 1;
		}
		rte_delay_us_sleep(100);
	}
	return -1;
}

void
ut_read_out(unsigned int slot, void *out, uint32_t outlen)
{
	struct ut_mbox *mb = &g_mb[slot == UT_PAGE_SLOT];
	uint8_t *o = out;
	uint32_t n;

	memcpy(o, MLX5V_IFC_ADDR_OF(cmd_layout, g_cmdq + slot * MLX5V_CMD_ENT_SIZE, out),
	       RTE_MIN(outlen, 16u));
	for (n = 0; n < ut_nblocks(outlen); n++)
		memcpy(o + 16 + n * 512, mb->out + n * UT_MBOX_STRIDE,
		       RTE_MIN(outlen - 16 - n * 512, 512u));
}

/* Run one command on slot. @return outbox status, UT_DELIV | delivery, or -1. */
int
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

int
ut_cmd(const void *in, uint32_t inlen, void *out, uint32_t outlen)
{
	return ut_cmd_slot(0, in, inlen, out, outlen);
}

uint32_t
ut_synd(const uint8_t *out)
{
	return MLX5V_IFC_GET(cmd_out_hdr, out, syndrome);
}

/* A 16-byte command with opcode, op_mod and DW2 = a. @return status as ut_cmd(). */
int
ut_cmd16(uint16_t opcode, uint16_t op_mod, uint32_t dw2, uint8_t *out, uint32_t outlen)
{
	uint8_t in[16];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, opcode);
	MLX5V_IFC_SET(cmd_in_hdr, in, op_mod, op_mod);
	MLX5V_IFC_SET(cmd_in_hdr, in, command_dw2, dw2);
	memset(out, 0, outlen);
	return ut_cmd(in, sizeof(in), out, outlen);
}

/* QUERY_PAGES on the page slot (31), as rdma-core does. */
int
ut_query_pages(uint16_t op_mod, int32_t *num)
{
	uint8_t out[16];
	uint8_t in[16];
	int st;

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(query_pages_in, in, opcode, MLX5V_CMD_OP_QUERY_PAGES);
	MLX5V_IFC_SET(query_pages_in, in, op_mod, op_mod);
	memset(out, 0, sizeof(out));
	st = ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, sizeof(out));

	*num = (int32_t)MLX5V_IFC_GET(query_pages_out, out, num_pages);
	return st;
}

/* MANAGE_PAGES GIVE of the n pages starting at page index first. */
int
ut_give(uint32_t first, uint32_t n, uint8_t *out)
{
	uint8_t in[16 + 8 * UT_NPAGES];
	uint32_t i;

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(manage_pages_in, in, opcode, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_IFC_SET(manage_pages_in, in, op_mod, MLX5V_MANAGE_PAGES_GIVE);
	MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, n);
	for (i = 0; i < n; i++)
		MLX5V_IFC_ARRAY_SET64(manage_pages_in, in, pas, i,
				      g_pages_iova + (uint64_t)(first + i) * 4096);
	return ut_cmd_slot(UT_PAGE_SLOT, in, 16 + 8 * n, out, 16);
}

int
ut_take(uint32_t n, uint8_t *out, uint32_t outlen)
{
	uint8_t in[16];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(manage_pages_in, in, opcode, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_IFC_SET(manage_pages_in, in, op_mod, MLX5V_MANAGE_PAGES_TAKE);
	MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, n);
	memset(out, 0, outlen);
	return ut_cmd_slot(UT_PAGE_SLOT, in, sizeof(in), out, outlen);
}

/* A 0x1010-byte QUERY_HCA_CAP. */
int
ut_query_cap(uint16_t op_mod, uint8_t *out)
{
	return ut_cmd16(MLX5V_CMD_OP_QUERY_HCA_CAP, op_mod, 0, out,
			MLX5V_IFC_BYTES(query_hca_cap_out));
}

uint8_t g_big_in[MLX5V_IFC_BYTES(query_hca_cap_out)];
uint8_t g_big_out[MLX5V_IFC_BYTES(query_hca_cap_out)];

/*
 * The rdma-core bring-up order (prm/mlx5 §2.1) up to ALLOC_UAR.
 * @return 0, or the step number that failed.
 */
int
ut_bringup(void)
{
	uint8_t out[0x70];
	int32_t n;

	if (ut_cmd16(MLX5V_CMD_OP_ENABLE_HCA, 0, 0, out, MLX5V_IFC_BYTES(enable_hca_out)) != 0)
		return 6;
	if (ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)) != 0 ||
			!(MLX5V_IFC_GET(query_issi_out, out, supported_issi_dw0) & 2))
		return 7;
	if (ut_cmd16(MLX5V_CMD_OP_SET_ISSI, 0, 1, out, 16) != 0)
		return 8;
	if (ut_query_pages(MLX5V_QUERY_PAGES_BOOT, &n) != 0 || n < 0 || n > UT_NPAGES / 2)
		return 9;
	if (n > 0 && ut_give(0, n, out) != 0)
		return 10;
	memset(g_big_in, 0, 32);
	MLX5V_IFC_SET(access_register_in, g_big_in, opcode, MLX5V_CMD_OP_ACCESS_REG);
	MLX5V_IFC_SET(access_register_in, g_big_in, register_id, MLX5V_REG_HOST_ENDIANNESS);
	g_big_in[MLX5V_IFC_BYTE_OFF(access_register_in, register_data)] =
		rte_cpu_to_be_16(1) == 1 ? 0x80 : 0;
	if (ut_cmd(g_big_in, 32, out, 16) != 0)
		return 11;
	if (ut_query_cap(0, g_big_out) != 0 || ut_query_cap(1, g_big_out) != 0)
		return 12;
	memcpy(g_big_in, g_big_out, sizeof(g_big_in));
	memset(g_big_in, 0, 16);
	MLX5V_IFC_SET(set_hca_cap_in, g_big_in, opcode, MLX5V_CMD_OP_SET_HCA_CAP);
	MLX5V_IFC_SET(cmd_hca_cap, MLX5V_IFC_ADDR_OF(set_hca_cap_in, g_big_in, capability),
		      cmdif_checksum, 0);
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
	g_uar = MLX5V_IFC_GET(alloc_uar_out, out, uar);
	return 0;
}

/* Create the simulator and the test's DMA memory; params may be NULL. */
int
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
	/* prm/mlx5 §2.1 step 3: program the queue, then wait for "initializing" to clear. */
	q = g_cmdq_iova;
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_H, (uint32_t)(q >> 32));
	mlx5v_hw_wr32(&g_hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ, (uint32_t)q);
	if (UT_WAIT_FOR(!(mlx5v_hw_rd32(&g_hw, MLX5V_ISEG_INITIALIZING) &
			  MLX5V_ISEG_INITIALIZING_BIT)) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

int
ut_setup(void)
{
	return ut_setup_params(NULL);
}

int
ut_setup_up(void)
{
	if (ut_setup() != TEST_SUCCESS)
		return TEST_FAILED;
	return ut_bringup() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

void
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

void
ut_ring_free(struct ut_ring *r)
{
	ut_free(r->buf, r->size, r->iova);
	r->buf = NULL;
	if (r->dbr != NULL)
		ut_free(r->dbr, 64, r->dbr_iova);
	r->dbr = NULL;
	if (r->fd >= 0) {
		g_hw.ops->irq_set(&g_hw, r->vec, 1, (const int []){ -1 });
		close(r->fd);
	}
	r->fd = -1;
}

/* Allocate a ring of 2^log entries of 64 bytes, owner bytes set to 1 (prm/mlx5 §11.7). */
int
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

uint32_t
ut_log_page(size_t size)
{
	uint32_t l = 0;

	while ((size_t)4096 << l < size)
		l++;
	return l;
}

/* Fill a create_eq_in; tests then corrupt single fields. */
void
ut_eq_in(uint8_t *in, const struct ut_ring *r, unsigned int log, uint64_t mask0,
	 unsigned int vec)
{
	uint8_t *eqc = MLX5V_IFC_ADDR_OF(create_eq_in, in, eqc);

	memset(in, 0, 0x118);
	MLX5V_IFC_SET(create_eq_in, in, opcode, MLX5V_CMD_OP_CREATE_EQ);
	MLX5V_IFC_SET(eqc, eqc, log_eq_size, log);
	MLX5V_IFC_SET(eqc, eqc, uar_page, g_uar);
	MLX5V_IFC_SET(eqc, eqc, intr, vec);
	MLX5V_IFC_SET(eqc, eqc, log_page_size, ut_log_page(r->size));
	MLX5V_IFC_ARRAY_SET64(create_eq_in, in, event_bitmask, 0, mask0);
	MLX5V_IFC_ARRAY_SET64(create_eq_in, in, pas, 0, r->iova);
}

/* Create an EQ on vector vec with an eventfd attached. @return 0 or -1. */
int
ut_eq_create(struct ut_ring *r, unsigned int log, uint64_t mask0, unsigned int vec)
{
	uint8_t in[0x118];
	uint8_t out[16];

	if (ut_ring_alloc(r, log, 1) != 0)
		return -1;
	r->vec = vec;
	r->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (r->fd < 0 || g_hw.ops->irq_set(&g_hw, vec, 1, &r->fd) != 0)
		return -1;
	ut_eq_in(in, r, log, mask0, vec);
	if (ut_cmd(in, sizeof(in), out, sizeof(out)) != 0)
		return -1;
	r->num = MLX5V_IFC_GET(create_eq_out, out, eq_number);
	return 0;
}

int
ut_eq_destroy(struct ut_ring *r)
{
	uint8_t out[16];

	return ut_cmd16(MLX5V_CMD_OP_DESTROY_EQ, 0, r->num, out, sizeof(out));
}

void
ut_db32(uint32_t uar, uint32_t off, uint32_t val)
{
	mlx5v_hw_db_wr32(&g_hw, (uint8_t *)mlx5v_hw_uar_addr(&g_hw, uar) + off, val);
}

/*
 * Wait until the engine consumed every doorbell word of uar, then let two commands
 * through: the second starts only after the engine pass that handled the doorbell
 * (and flushed its interrupts) ended.
 */
int
ut_sync(uint32_t uar)
{
	volatile uint32_t *p = mlx5v_hw_uar_addr(&g_hw, uar);
	uint8_t out[0x70];
	unsigned int i;

	for (i = 0; i < UT_WAIT_LIMIT_MS * 10; i++) {
		if (p[0x20 / 4] == 0 && p[0x24 / 4] == 0 && p[0x40 / 4] == 0 &&
				p[0x48 / 4] == 0)
			break;
		rte_delay_us_sleep(100);
	}
	if (ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out)) != 0)
		return -1;
	return ut_cmd16(MLX5V_CMD_OP_QUERY_ISSI, 0, 0, out, sizeof(out));
}

void
ut_eq_db(const struct ut_ring *r, uint32_t ci, int arm)
{
	ut_db32(g_uar, arm ? RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF : RTE_PMD_MLX5V_UAR_EQ_DB_NOARM_OFF,
		rte_pmd_mlx5v_eq_db_val(r->num, ci));
}

/* @return 1 if EQE ci is software-owned (prm/mlx5 §6.8). */
int
ut_eqe_ready(const struct ut_ring *r, uint32_t ci)
{
	volatile const uint8_t *own = r->buf + (ci & (r->nent - 1)) * 64 + 63;

	return ((*own & 1) ^ !!(ci & r->nent)) == 0;
}

/* Wait for EQE ci to become software-owned. @return the EQE or NULL. */
const uint8_t *
ut_eqe_wait(const struct ut_ring *r, uint32_t ci)
{
	unsigned int i;

	for (i = 0; i < UT_WAIT_LIMIT_MS * 10; i++) {
		if (ut_eqe_ready(r, ci)) {
			rte_rmb();
			return r->buf + (ci & (r->nent - 1)) * 64;
		}
		rte_delay_us_sleep(100);
	}
	return NULL;
}

/* Read (and reset) the eventfd counter; 0 if nothing is pending. */
uint64_t
ut_msi_read(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* Wait for an MSI on fd. @return the counter, or 0 on timeout. */
uint64_t
ut_msi_wait(int fd)
{
	if (!ut_fd_wait(fd))
		return 0;
	return ut_msi_read(fd);
}

int
ut_gen_eqe(const struct ut_ring *r, uint8_t type, uint32_t tag)
{
	uint8_t in[MLX5V_IFC_BYTES(gen_eqe_in)];
	uint8_t *eqe = MLX5V_IFC_ADDR_OF(gen_eqe_in, in, eqe);
	uint8_t out[16];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(gen_eqe_in, in, opcode, MLX5V_CMD_OP_GEN_EQE);
	MLX5V_IFC_SET(gen_eqe_in, in, eq_number, r->num);
	MLX5V_IFC_SET(eqe, eqe, type, type);
	/* The tag fills the first data dword, the BE32 at EQE 0x20. */
	MLX5V_IFC_SET(eqe_cmd, MLX5V_IFC_ADDR_OF(eqe, eqe, data), vector, tag);
	/* The caller's owner byte is ignored: the device sets it. */
	eqe[MLX5V_IFC_BYTE_OF(eqe, owner)] = 0xfe;
	return ut_cmd(in, sizeof(in), out, sizeof(out));
}

int
ut_query_eq(const struct ut_ring *r, uint8_t *out)
{
	memset(out, 0, 0x118);
	return ut_cmd16(MLX5V_CMD_OP_QUERY_EQ, 0, r->num, out, 0x118);
}

/* Create a CQ of 2^log CQEs bound to eqn; owner_init 0 leaves the CQEs software-owned. */
int
ut_cq_create(struct ut_ring *r, unsigned int log, uint32_t eqn, int owner_init, uint8_t *out)
{
	uint8_t in[0x118];
	uint8_t *cqc = MLX5V_IFC_ADDR_OF(create_cq_in, in, cqc);
	uint32_t i;

	if (ut_ring_alloc(r, log, 0) != 0)
		return -1;
	for (i = 0; i < r->nent && owner_init; i++)
		r->buf[i * 64 + 63] = (MLX5V_CQE_INVALID << 4) | 1;
	r->dbr = ut_alloc(64, 64, &r->dbr_iova);
	if (r->dbr == NULL)
		return -1;
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(create_cq_in, in, opcode, MLX5V_CMD_OP_CREATE_CQ);
	MLX5V_IFC_SET(cqc, cqc, log_cq_size, log);
	MLX5V_IFC_SET(cqc, cqc, uar_page, g_uar);
	MLX5V_IFC_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	MLX5V_IFC_SET(cqc, cqc, log_page_size, ut_log_page(r->size));
	MLX5V_IFC_SET64(cqc, cqc, dbr_addr, r->dbr_iova);
	MLX5V_IFC_ARRAY_SET64(create_cq_in, in, pas, 0, r->iova);
	memset(out, 0, 16);
	i = ut_cmd(in, sizeof(in), out, 16);
	r->num = MLX5V_IFC_GET(create_cq_out, out, cqn);
	return (int)i;
}

/* Arm CQ r at consumer index ci: record first, then the UAR + 0x20 doorbell (prm/mlx5 §7.3). */
void
ut_cq_arm(struct ut_ring *r, uint32_t ci, uint32_t sn)
{
	uint32_t word = (sn << 28) | (ci & 0xffffff);

	MLX5V_IFC_SET(cq_dbrec, r->dbr, set_ci, ci & 0xffffff);
	rte_pmd_mlx5v_prm_set(r->dbr, RTE_PMD_MLX5V_CQ_DBREC_ARM, 31, 0, word);
	mlx5v_hw_db_wr64(&g_hw, (uint8_t *)mlx5v_hw_uar_addr(&g_hw, g_uar) +
			 RTE_PMD_MLX5V_UAR_CQ_DB_OFF, ((uint64_t)word << 32) | r->num);
}

int
ut_cq_destroy(struct ut_ring *r)
{
	uint8_t out[16];

	return ut_cmd16(MLX5V_CMD_OP_DESTROY_CQ, 0, r->num, out, sizeof(out));
}

/* ---- event sources ---- */

/* Bind an event source to EQ eq: for UT_SRC_CQE a 16-entry CQ reporting to it. */
int
ut_src_open(struct ut_src *s, enum ut_src_kind kind, const struct ut_ring *eq)
{
	uint8_t out[16];

	memset(s, 0, sizeof(*s));
	s->cq.fd = -1;
	s->kind = kind;
	s->eq = eq;
	if (kind == UT_SRC_GEN_EQE)
		return 0;
	return ut_cq_create(&s->cq, 4, eq->num, 1, out) == 0 ? 0 : -1;
}

/*
 * One event on the EQ, written before this returns; @return 0 or the command status
 * (GEN_EQE), -1 (CQ). UT_SRC_CQE: arm the CQ at its consumer index with the next sequence
 * number and let the device take the doorbell, complete one CQE (the armed CQ fires into the
 * EQ, prm/mlx5 §7.2), then consume it, so the CQ never overruns. The tag is not in a
 * completion EQE (it names the CQ); it goes into the CQE's byte count.
 */
int
ut_src_raise(struct ut_src *s, uint32_t tag)
{
	if (s->kind == UT_SRC_GEN_EQE)
		return ut_gen_eqe(s->eq, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, tag);
	ut_cq_arm(&s->cq, s->ci, s->events & 3);
	if (ut_sync(g_uar) != 0 || mlx5v_sim_post_cqe(g_sim, s->cq.num, 0x2, tag) != 0)
		return -1;
	s->ci++;
	s->events++;
	MLX5V_IFC_SET(cq_dbrec, s->cq.dbr, set_ci, s->ci & 0xffffff);
	return 0;
}

/* @return 1 if eqe is what ut_src_raise(s, tag) writes, else 0. */
int
ut_src_eqe_is(const struct ut_src *s, const uint8_t *eqe, uint32_t tag)
{
	if (s->kind == UT_SRC_GEN_EQE)
		return MLX5V_IFC_GET(eqe, eqe, type) == RTE_PMD_MLX5V_EVENT_GENERAL_EVENT &&
		       ut_be32(eqe, 0x20) == tag;
	return MLX5V_IFC_GET(eqe, eqe, type) == RTE_PMD_MLX5V_EVENT_COMP &&
	       (ut_be32(eqe, RTE_PMD_MLX5V_EQE_COMP_CQN_OFF) & 0xffffff) == s->cq.num;
}

/* Unbind: the CQ goes first, an EQ cannot be destroyed under it. @return 0 or -1. */
int
ut_src_close(struct ut_src *s)
{
	int ret = 0;

	if (s->kind == UT_SRC_CQE && s->cq.buf != NULL) {
		if (ut_cq_destroy(&s->cq) != 0)
			ret = -1;
		ut_ring_free(&s->cq);
	}
	return ret;
}
