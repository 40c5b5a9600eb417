/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Fixture of the mlx5 device model programs: a simulator driven through
 * mlx5v_sim_hw_ops only, with the test's own command queue, mailboxes, pages and rings.
 */

#ifndef _UT_MLX5V_SIM_H_
#define _UT_MLX5V_SIM_H_

#include <stddef.h>
#include <stdint.h>

#include "mlx5v_hw.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlx5v_sim.h"
#include "mlx5v_sim_priv.h"
#include "ut_common.h"

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

extern struct mlx5v_sim *g_sim;
extern struct mlx5v_hw g_hw;
extern uint8_t *g_cmdq;
extern uint64_t g_cmdq_iova;
extern struct ut_mbox g_mb[2];          /* [0]: slots 0..30, [1]: slot 31 */
extern uint8_t *g_pages;
extern uint64_t g_pages_iova;
extern uint8_t g_token;
extern uint32_t g_uar;                  /* UAR allocated by ut_bringup() */
extern uint8_t g_big_in[MLX5V_IFC_BYTES(query_hca_cap_out)];
extern uint8_t g_big_out[MLX5V_IFC_BYTES(query_hca_cap_out)];

void *ut_alloc(size_t len, size_t align, uint64_t *iova);
void ut_free(void *p, size_t len, uint64_t iova);
uint32_t ut_be32(const uint8_t *p, uint32_t off);
uint32_t ut_nblocks(uint32_t len);
void ut_post(unsigned int slot, const void *in, uint32_t inlen, uint32_t outlen);
void ut_ring(unsigned int slot);
int ut_wait(unsigned int slot);
void ut_read_out(unsigned int slot, void *out, uint32_t outlen);
int ut_cmd_slot(unsigned int slot, const void *in, uint32_t inlen, void *out, uint32_t outlen);
int ut_cmd(const void *in, uint32_t inlen, void *out, uint32_t outlen);
uint32_t ut_synd(const uint8_t *out);
int ut_cmd16(uint16_t opcode, uint16_t op_mod, uint32_t dw2, uint8_t *out, uint32_t outlen);
int ut_query_pages(uint16_t op_mod, int32_t *num);
int ut_give(uint32_t first, uint32_t n, uint8_t *out);
int ut_take(uint32_t n, uint8_t *out, uint32_t outlen);
int ut_query_cap(uint16_t op_mod, uint8_t *out);
int ut_bringup(void);
int ut_setup_params(const struct mlx5v_sim_params *p);
int ut_setup(void);
int ut_setup_up(void);
void ut_teardown(void);
void ut_ring_free(struct ut_ring *r);
int ut_ring_alloc(struct ut_ring *r, unsigned int log, int owner_init);
uint32_t ut_log_page(size_t size);
void ut_eq_in(uint8_t *in, const struct ut_ring *r, unsigned int log, uint64_t mask0,
	      unsigned int vec);
int ut_eq_create(struct ut_ring *r, unsigned int log, uint64_t mask0, unsigned int vec);
int ut_eq_destroy(struct ut_ring *r);
void ut_db32(uint32_t uar, uint32_t off, uint32_t val);
int ut_sync(uint32_t uar);
void ut_eq_db(const struct ut_ring *r, uint32_t ci, int arm);
int ut_eqe_ready(const struct ut_ring *r, uint32_t ci);
const uint8_t *ut_eqe_wait(const struct ut_ring *r, uint32_t ci);
uint64_t ut_msi_read(int fd);
uint64_t ut_msi_wait(int fd);
int ut_gen_eqe(const struct ut_ring *r, uint8_t type, uint32_t tag);
int ut_query_eq(const struct ut_ring *r, uint8_t *out);
int ut_cq_create(struct ut_ring *r, unsigned int log, uint32_t eqn, int owner_init, uint8_t *out);
void ut_cq_arm(struct ut_ring *r, uint32_t ci, uint32_t sn);
int ut_cq_destroy(struct ut_ring *r);

/**
 * Where a test's events come from. GEN_EQE writes any EQE, but no firmware is known to
 * accept it from this function; a completion is what every device raises
 * (doc/guides/nics/running_on_hardware.rst, "Events raised with GEN_EQE").
 */
enum ut_src_kind {
	UT_SRC_GEN_EQE, /**< GENERAL_EVENT EQEs through the GEN_EQE command, tag at EQE 0x20 */
	UT_SRC_CQE,     /**< completion EQEs of a CQ bound to the EQ, one CQE per event */
};

/** An event source bound to one EQ. */
struct ut_src {
	enum ut_src_kind kind;
	const struct ut_ring *eq;
	struct ut_ring cq;      /**< UT_SRC_CQE: the CQ whose completions raise events */
	uint32_t ci;            /**< UT_SRC_CQE: CQEs consumed */
	uint32_t events;        /**< UT_SRC_CQE: completion events raised (the arm sn) */
};

/** Test cases name (GEN_EQE) and name_cqe (CQ completion) of one run(enum ut_src_kind). */
#define UT_SRC_CASES(name, run) \
	static int name(void) { return run(UT_SRC_GEN_EQE); } \
	static int name ## _cqe(void) { return run(UT_SRC_CQE); }

int ut_src_open(struct ut_src *s, enum ut_src_kind kind, const struct ut_ring *eq);
int ut_src_raise(struct ut_src *s, uint32_t tag);
int ut_src_eqe_is(const struct ut_src *s, const uint8_t *eqe, uint32_t tag);
int ut_src_close(struct ut_src *s);

#define UT_CTR(c) mlx5v_sim_counter(g_sim, MLX5V_SIM_CTR_ ## c)
#define UT_LIVE(k) mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_ ## k)
#define UT_EQ_ST(out) MLX5V_IFC_GET(eqc, (out) + RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC, st)

#endif /* _UT_MLX5V_SIM_H_ */
