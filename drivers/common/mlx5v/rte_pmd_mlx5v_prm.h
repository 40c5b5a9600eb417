/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file PRM layouts a DEVX EQ caller needs: accessors, CREATE_EQ, eqc, EQE, doorbells. */

#ifndef _RTE_PMD_MLX5V_PRM_H_
#define _RTE_PMD_MLX5V_PRM_H_

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Field accessors in the DEVX_SET/DEVX_GET style.
 *
 * Every device structure is big-endian. A field is named by a macro that expands to
 * three numbers: the index of the big-endian dword holding it (counted from the start of
 * the structure), its high bit and its low bit, e.g. eqc.log_eq_size is DW3[28:24]:
 *
 *   RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, 8);
 *
 * Nested structures are reached by adding their byte offset to the pointer
 * (RTE_PMD_MLX5V_CREATE_EQ_IN_EQC is where eqc starts inside create_eq_in).
 */

/** @internal Read bits hi..lo of big-endian dword dw at p. */
static inline uint32_t
rte_pmd_mlx5v_prm_get(const void *p, unsigned int dw, unsigned int hi, unsigned int lo)
{
	uint32_t be;
	uint32_t v;
	unsigned int width = hi - lo + 1;

	memcpy(&be, (const uint8_t *)p + 4 * dw, sizeof(be));
	v = rte_be_to_cpu_32(be) >> lo;
	return width >= 32 ? v : v & ((1u << width) - 1);
}

/** @internal Write v into bits hi..lo of big-endian dword dw at p, keeping other bits. */
static inline void
rte_pmd_mlx5v_prm_set(void *p, unsigned int dw, unsigned int hi, unsigned int lo, uint32_t v)
{
	uint32_t be;
	uint32_t cur;
	unsigned int width = hi - lo + 1;
	uint32_t mask = width >= 32 ? UINT32_MAX : ((1u << width) - 1) << lo;

	memcpy(&be, (uint8_t *)p + 4 * dw, sizeof(be));
	cur = rte_be_to_cpu_32(be);
	cur = (cur & ~mask) | ((v << lo) & mask);
	be = rte_cpu_to_be_32(cur);
	memcpy((uint8_t *)p + 4 * dw, &be, sizeof(be));
}

/** @internal Read a big-endian 64-bit value at byte offset off. */
static inline uint64_t
rte_pmd_mlx5v_prm_get64(const void *p, unsigned int off)
{
	uint64_t be;

	memcpy(&be, (const uint8_t *)p + off, sizeof(be));
	return rte_be_to_cpu_64(be);
}

/** @internal Write a big-endian 64-bit value at byte offset off. */
static inline void
rte_pmd_mlx5v_prm_set64(void *p, unsigned int off, uint64_t v)
{
	uint64_t be = rte_cpu_to_be_64(v);

	memcpy((uint8_t *)p + off, &be, sizeof(be));
}

#define RTE_PMD_MLX5V_GET_(p, dw, hi, lo) rte_pmd_mlx5v_prm_get((p), (dw), (hi), (lo))
#define RTE_PMD_MLX5V_SET_(p, dw, hi, lo, v) rte_pmd_mlx5v_prm_set((p), (dw), (hi), (lo), (v))
/** Read field fld (a DW,HI,LO triple macro) of the structure at p. */
#define RTE_PMD_MLX5V_GET(p, fld) RTE_PMD_MLX5V_GET_(p, fld)
/** Write v into field fld (a DW,HI,LO triple macro) of the structure at p. */
#define RTE_PMD_MLX5V_SET(p, fld, v) RTE_PMD_MLX5V_SET_(p, fld, v)
/** Read/write a big-endian 64-bit field at byte offset off. */
#define RTE_PMD_MLX5V_GET64(p, off) rte_pmd_mlx5v_prm_get64((p), (off))
#define RTE_PMD_MLX5V_SET64(p, off, v) rte_pmd_mlx5v_prm_set64((p), (off), (v))

/**
 * Longest command input or output the device takes: 16 inline bytes and 256 mailbox blocks
 * of 512 bytes (prm/mlx5 §3.3). Longer lengths are refused with EINVAL before posting.
 */
#define RTE_PMD_MLX5V_CMD_MAX_LEN (16 + 256 * 512)

/* Command header, common to every command (prm/mlx5 §3.8). */
#define RTE_PMD_MLX5V_IN_OPCODE 0, 31, 16
#define RTE_PMD_MLX5V_IN_UID 0, 15, 0
#define RTE_PMD_MLX5V_IN_OP_MOD 1, 15, 0
#define RTE_PMD_MLX5V_OUT_STATUS 0, 31, 24
#define RTE_PMD_MLX5V_OUT_SYNDROME 1, 31, 0

/* EQ opcodes (prm/mlx5 §10). */
#define RTE_PMD_MLX5V_CMD_OP_CREATE_EQ 0x301
#define RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ 0x302
#define RTE_PMD_MLX5V_CMD_OP_QUERY_EQ 0x303
#define RTE_PMD_MLX5V_CMD_OP_GEN_EQE 0x304

/* create_eq_in: 0x110 bytes, then pas[] (prm/mlx5 §6.1). */
#define RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE 0x110
#define RTE_PMD_MLX5V_CREATE_EQ_IN_EQC 0x10          /**< byte offset of eqc */
#define RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK 0x58 /**< 4 x BE64, types 0..255 */
#define RTE_PMD_MLX5V_CREATE_EQ_IN_PAS 0x110         /**< BE64 page addresses */
#define RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE 0x10
#define RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER 2, 7, 0 /**< byte 0x0b */

/* destroy_eq_in / query_eq_in / gen_eqe_in (prm/mlx5 §6.3). */
#define RTE_PMD_MLX5V_DESTROY_EQ_IN_SIZE 0x10
#define RTE_PMD_MLX5V_DESTROY_EQ_OUT_SIZE 0x10
#define RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER 2, 7, 0         /**< byte 0x0b of destroy/query/gen_eqe */
#define RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE 0x10
#define RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE 0x110         /**< plus pas[] */
#define RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC 0x10
#define RTE_PMD_MLX5V_QUERY_EQ_OUT_EVENT_BITMASK 0x58 /**< a single BE64 */
#define RTE_PMD_MLX5V_QUERY_EQ_OUT_PAS 0x110
#define RTE_PMD_MLX5V_GEN_EQE_IN_SIZE 0x50
#define RTE_PMD_MLX5V_GEN_EQE_IN_EQE 0x10             /**< the 64-byte EQE to write */
#define RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE 0x10

/* eqc, the 64-byte EQ context, fields relative to eqc (prm/mlx5 §6.2). */
#define RTE_PMD_MLX5V_EQC_SIZE 0x40
#define RTE_PMD_MLX5V_EQC_STATUS 0, 31, 28
#define RTE_PMD_MLX5V_EQC_EC 0, 18, 18
#define RTE_PMD_MLX5V_EQC_OI 0, 17, 17
#define RTE_PMD_MLX5V_EQC_ST 0, 11, 8
#define RTE_PMD_MLX5V_EQC_PAGE_OFFSET 2, 11, 6
#define RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE 3, 28, 24
#define RTE_PMD_MLX5V_EQC_UAR_PAGE 3, 23, 0
#define RTE_PMD_MLX5V_EQC_INTR 5, 11, 0              /**< 12 bits since the PRM enlarged it */
#define RTE_PMD_MLX5V_EQC_LOG_PAGE_SIZE 6, 28, 24    /**< log2(page bytes) - 12 */
#define RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER 10, 23, 0
#define RTE_PMD_MLX5V_EQC_PRODUCER_COUNTER 11, 23, 0

/* eqc.status and eqc.st values. */
#define RTE_PMD_MLX5V_EQC_STATUS_OK 0x0
#define RTE_PMD_MLX5V_EQC_STATUS_EQ_WRITE_FAILURE 0xa
#define RTE_PMD_MLX5V_EQC_ST_ARMED 0x9
#define RTE_PMD_MLX5V_EQC_ST_FIRED 0xa
#define RTE_PMD_MLX5V_EQC_ST_ALWAYS_ARMED 0xb

/* EQE, 64 bytes (prm/mlx5 §6.5, §6.6). */
#define RTE_PMD_MLX5V_EQE_SIZE 64
#define RTE_PMD_MLX5V_EQE_TYPE_OFF 0x01
#define RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF 0x03
#define RTE_PMD_MLX5V_EQE_DATA_OFF 0x20
#define RTE_PMD_MLX5V_EQE_SIGNATURE_OFF 0x3e
#define RTE_PMD_MLX5V_EQE_OWNER_OFF 0x3f
#define RTE_PMD_MLX5V_EQE_OWNER_INIT_VAL 1
#define RTE_PMD_MLX5V_EQE_COMP_CQN_OFF 0x38          /**< BE32, low 24 bits */
#define RTE_PMD_MLX5V_EQE_CQ_ERR_CQN_OFF 0x20        /**< BE32, low 24 bits */
#define RTE_PMD_MLX5V_EQE_CQ_ERR_SYNDROME_OFF 0x2b
#define RTE_PMD_MLX5V_EQE_QP_TYPE_OFF 0x34
#define RTE_PMD_MLX5V_EQE_QP_SRQ_N_OFF 0x38
#define RTE_PMD_MLX5V_EQE_PORT_OFF 0x28              /**< port number = value >> 4 */
#define RTE_PMD_MLX5V_EQE_CMD_VECTOR_OFF 0x20        /**< BE32, bit s = slot s */
#define RTE_PMD_MLX5V_EQE_PAGE_EC_FUNCTION_OFF 0x20  /**< BE16 */
#define RTE_PMD_MLX5V_EQE_PAGE_FUNC_ID_OFF 0x22      /**< BE16 */
#define RTE_PMD_MLX5V_EQE_PAGE_NUM_PAGES_OFF 0x24    /**< BE32, signed */
#define RTE_PMD_MLX5V_EQE_VPORT_NUM_OFF 0x22         /**< BE16 */

/* CQ error syndromes. */
#define RTE_PMD_MLX5V_CQ_ERR_SYND_OVERRUN 0x1
#define RTE_PMD_MLX5V_CQ_ERR_SYND_ACCESS_VIOLATION 0x2

/* Port change sub-types. */
#define RTE_PMD_MLX5V_PORT_CHANGE_DOWN 1
#define RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE 4
#define RTE_PMD_MLX5V_PORT_CHANGE_INITIALIZED 5
#define RTE_PMD_MLX5V_PORT_CHANGE_LID 6
#define RTE_PMD_MLX5V_PORT_CHANGE_PKEY 7
#define RTE_PMD_MLX5V_PORT_CHANGE_GUID 8
#define RTE_PMD_MLX5V_PORT_CHANGE_CLIENT_REREG 9

/** Event types (prm/mlx5 §6.7). */
enum rte_pmd_mlx5v_event_type {
	RTE_PMD_MLX5V_EVENT_COMP = 0x00,
	RTE_PMD_MLX5V_EVENT_PATH_MIG = 0x01,
	RTE_PMD_MLX5V_EVENT_COMM_EST = 0x02,
	RTE_PMD_MLX5V_EVENT_SQ_DRAINED = 0x03,
	RTE_PMD_MLX5V_EVENT_CQ_ERROR = 0x04,
	RTE_PMD_MLX5V_EVENT_WQ_CATAS_ERROR = 0x05,
	RTE_PMD_MLX5V_EVENT_PATH_MIG_FAILED = 0x07,
	RTE_PMD_MLX5V_EVENT_INTERNAL_ERROR = 0x08,
	RTE_PMD_MLX5V_EVENT_PORT_CHANGE = 0x09,
	RTE_PMD_MLX5V_EVENT_CMD = 0x0a,
	RTE_PMD_MLX5V_EVENT_PAGE_REQUEST = 0x0b,
	RTE_PMD_MLX5V_EVENT_PAGE_FAULT = 0x0c,
	RTE_PMD_MLX5V_EVENT_NIC_VPORT_CHANGE = 0x0d,
	RTE_PMD_MLX5V_EVENT_WQ_INVAL_REQ_ERROR = 0x10,
	RTE_PMD_MLX5V_EVENT_WQ_ACCESS_ERROR = 0x11,
	RTE_PMD_MLX5V_EVENT_SRQ_CATAS_ERROR = 0x12,
	RTE_PMD_MLX5V_EVENT_SRQ_LAST_WQE = 0x13,
	RTE_PMD_MLX5V_EVENT_SRQ_RQ_LIMIT = 0x14,
	RTE_PMD_MLX5V_EVENT_GENERAL_EVENT = 0x22,
	RTE_PMD_MLX5V_EVENT_MAX = 0x100,
};

/** Set event type t in the 4 x BE64 event_bitmask at p (bit t % 64 of word t / 64). */
static inline void
rte_pmd_mlx5v_event_mask_set(void *bitmask, unsigned int t)
{
	unsigned int off = (t / 64) * 8;

	rte_pmd_mlx5v_prm_set64(bitmask, off,
				rte_pmd_mlx5v_prm_get64(bitmask, off) | (UINT64_C(1) << (t % 64)));
}

/** @return 1 if event type t is set in the event_bitmask at p. */
static inline int
rte_pmd_mlx5v_event_mask_test(const void *bitmask, unsigned int t)
{
	return (rte_pmd_mlx5v_prm_get64(bitmask, (t / 64) * 8) >> (t % 64)) & 1;
}

/* UAR page doorbells (prm/mlx5 §6.10, §7.3, §8). */
#define RTE_PMD_MLX5V_UAR_CQ_DB_OFF 0x20         /**< 64-bit BE CQ arm doorbell */
#define RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF 0x40     /**< BE32 (eqn << 24) | ci: update CI and arm */
#define RTE_PMD_MLX5V_UAR_EQ_DB_NOARM_OFF 0x48   /**< BE32 (eqn << 24) | ci: update CI only */
#define RTE_PMD_MLX5V_UAR_BF_OFF 0x800

/** EQ consumers must write the CI at least every this many EQEs (prm/mlx5 §6.9). */
#define RTE_PMD_MLX5V_NUM_SPARE_EQE 128

/** @return the EQ doorbell word for eqn and consumer index ci. */
static inline uint32_t
rte_pmd_mlx5v_eq_db_val(uint32_t eqn, uint32_t ci)
{
	return (eqn << 24) | (ci & 0xffffff);
}


/* ==== BEGIN DEVX API additions: CQ and UAR layouts for rte_pmd_mlx5v.h ==== */

/* CQ and UAR opcodes (prm/mlx5 §10). */
#define RTE_PMD_MLX5V_CMD_OP_CREATE_CQ 0x400
#define RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ 0x401
#define RTE_PMD_MLX5V_CMD_OP_QUERY_CQ 0x402
#define RTE_PMD_MLX5V_CMD_OP_ALLOC_UAR 0x802
#define RTE_PMD_MLX5V_CMD_OP_DEALLOC_UAR 0x803

/* alloc_uar_out / dealloc_uar_in (prm/mlx5 §9). */
#define RTE_PMD_MLX5V_UAR_CMD_UAR 2, 23, 0             /**< byte 0x09 */

/* create_cq_in: 0x110 bytes, then pas[] (prm/mlx5 §7.1). */
#define RTE_PMD_MLX5V_CREATE_CQ_IN_SIZE 0x110
#define RTE_PMD_MLX5V_CREATE_CQ_IN_CQC 0x10           /**< byte offset of cqc */
#define RTE_PMD_MLX5V_CREATE_CQ_IN_PAS 0x110          /**< BE64 page addresses */
#define RTE_PMD_MLX5V_CREATE_CQ_OUT_SIZE 0x10
#define RTE_PMD_MLX5V_CREATE_CQ_OUT_CQN 2, 23, 0      /**< byte 0x09 */
#define RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN 2, 23, 0
#define RTE_PMD_MLX5V_QUERY_CQ_OUT_SIZE 0x110
#define RTE_PMD_MLX5V_QUERY_CQ_OUT_CQC 0x10

/* cqc, the 64-byte CQ context, fields relative to cqc (prm/mlx5 §7.1). */
#define RTE_PMD_MLX5V_CQC_STATUS 0, 31, 28
#define RTE_PMD_MLX5V_CQC_CQE_SZ 0, 23, 21            /**< 0 = 64-byte CQEs */
#define RTE_PMD_MLX5V_CQC_OI 0, 17, 17
#define RTE_PMD_MLX5V_CQC_ST 0, 11, 8                 /**< 0x9 ARMED, 0xa FIRED */
#define RTE_PMD_MLX5V_CQC_PAGE_OFFSET 2, 11, 6
#define RTE_PMD_MLX5V_CQC_LOG_CQ_SIZE 3, 28, 24
#define RTE_PMD_MLX5V_CQC_UAR_PAGE 3, 23, 0
#define RTE_PMD_MLX5V_CQC_C_EQN 5, 7, 0               /**< byte 0x17; newer PRMs: DW5[31:0] */
#define RTE_PMD_MLX5V_CQC_LOG_PAGE_SIZE 6, 28, 24     /**< log2(page bytes) - 12 */
#define RTE_PMD_MLX5V_CQC_CONSUMER_COUNTER 10, 23, 0
#define RTE_PMD_MLX5V_CQC_PRODUCER_COUNTER 11, 23, 0
#define RTE_PMD_MLX5V_CQC_DBR_ADDR 0x38               /**< BE64, relative to cqc */

/* CQE (64 bytes) and the CQ doorbell record / arm doorbell (prm/mlx5 §7.3, §7.4). */
#define RTE_PMD_MLX5V_CQE_SIZE 64
#define RTE_PMD_MLX5V_CQE_BYTE_CNT_OFF 0x2c           /**< BE32 */
#define RTE_PMD_MLX5V_CQE_WQE_COUNTER_OFF 0x3c        /**< BE16 */
#define RTE_PMD_MLX5V_CQE_OP_OWN_OFF 0x3f             /**< [7:4] opcode, [0] owner */
#define RTE_PMD_MLX5V_CQE_OPCODE_INVALID 0xf
/** op_own of every CQE at creation: opcode invalid, hardware-owned (prm/mlx5 §7.4). */
#define RTE_PMD_MLX5V_CQE_OP_OWN_INIT ((RTE_PMD_MLX5V_CQE_OPCODE_INVALID << 4) | 1)
#define RTE_PMD_MLX5V_CQ_DBREC_SET_CI 0               /**< dbrec dword 0: BE32 ci */
#define RTE_PMD_MLX5V_CQ_DBREC_ARM 1                  /**< dbrec dword 1: BE32 arm word */
#define RTE_PMD_MLX5V_CQ_DBREC_SIZE 8
#define RTE_PMD_MLX5V_CQ_DB_REQ_NOT_SOL (1u << 24)    /**< solicited completions only */
#define RTE_PMD_MLX5V_CQ_DB_REQ_NOT 0u                /**< any completion */

/* ==== END DEVX API additions ==== */

#ifdef __cplusplus
}
#endif

#endif /* _RTE_PMD_MLX5V_PRM_H_ */
