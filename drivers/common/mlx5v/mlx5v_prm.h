/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file mlx5 PRM layouts only: bit-struct layouts (mlx5v_prm_cmd.h, mlx5v_prm_eq.h), opcodes,
 * status and syndrome codes, and the static checks that tie the public header's offsets to them.
 */

#ifndef _MLX5V_PRM_H_
#define _MLX5V_PRM_H_

#include <stdint.h>

#include "rte_pmd_mlx5v_prm.h"
#include "mlx5v_prm_cmd.h"
#include "mlx5v_prm_eq.h"
#include "mlx5v_prm_eth.h"

/*
 * Field offsets and widths live only in the bit-struct layouts of mlx5v_prm_cmd.h and
 * mlx5v_prm_eq.h, read and written with MLX5V_IFC_GET/SET (mlx5v_ifc.h). This header adds the
 * values those fields take, and names for the few offsets and sizes that code passes around
 * as numbers, each computed from a layout. Sections cited below are those of prm/mlx5
 * (doc/guides/prm/mlx5.rst).
 */

/* ---- Init segment, BAR0 offset 0 (prm/mlx5 §1): register offsets for the hw seam ---- */
#define MLX5V_ISEG_FW_REV MLX5V_IFC_BYTE_OFF(init_seg, fw_rev)
/** [31:16] cmdif rev, must be 5 */
#define MLX5V_ISEG_CMDIF_REV_FW_SUB MLX5V_IFC_BYTE_OFF(init_seg, cmdif_rev_fw_sub)
#define MLX5V_ISEG_CMDQ_ADDR_H MLX5V_IFC_BYTE_OFF(init_seg, cmdq_addr_h)
/** [31:12] address, [10:8] nic_interface, [7:4] log_cmdq_size, [3:0] log_cmdq_stride */
#define MLX5V_ISEG_CMDQ_ADDR_L_SZ MLX5V_IFC_BYTE_OFF(init_seg, cmdq_addr_l_sz)
#define MLX5V_ISEG_CMD_DBELL MLX5V_IFC_BYTE_OFF(init_seg, cmd_dbell)
/** [31] firmware initialising */
#define MLX5V_ISEG_INITIALIZING MLX5V_IFC_BYTE_OFF(init_seg, initializing)
/** The 64-byte health buffer */
#define MLX5V_ISEG_HEALTH MLX5V_IFC_BYTE_OFF(init_seg, health)
#define MLX5V_ISEG_CMD_EXEC_TO MLX5V_IFC_BYTE_OFF(init_seg, cmd_exec_to)
#define MLX5V_ISEG_CMD_Q_INIT_TO MLX5V_IFC_BYTE_OFF(init_seg, cmd_q_init_to)
/** [23:0] heartbeat */
#define MLX5V_ISEG_HEALTH_COUNTER MLX5V_IFC_BYTE_OFF(init_seg, health_counter)

#define MLX5V_CMDIF_REV 5
#define MLX5V_ISEG_INITIALIZING_BIT (1u << 31)
#define MLX5V_CMDQ_ADDR_MASK 0xfffff000u
#define MLX5V_NIC_IF_SHIFT 8
#define MLX5V_NIC_IF_MASK 0x7u

/** NIC interface states, cmdq_addr_l_sz [10:8] (prm/mlx5 §1.2). */
enum mlx5v_nic_if_state {
	MLX5V_NIC_IF_FULL = 0,
	MLX5V_NIC_IF_DISABLED = 1,
	MLX5V_NIC_IF_NO_DRAM_NIC = 2,
	MLX5V_NIC_IF_INVALID = 3,
	MLX5V_NIC_IF_SW_RESET = 7,
};

/* Health buffer words (prm/mlx5 §4.1), absolute BAR0 offsets for register reads. */
#define MLX5V_HEALTH_OFF(fld) (MLX5V_ISEG_HEALTH + MLX5V_IFC_BYTE_OFF(health_buffer, fld))
#define MLX5V_HEALTH_ASSERT_VAR0 MLX5V_HEALTH_OFF(assert_var)      /**< 5 x BE32 */
#define MLX5V_HEALTH_ASSERT_EXIT_PTR MLX5V_HEALTH_OFF(assert_exit_ptr)
#define MLX5V_HEALTH_ASSERT_CALLRA MLX5V_HEALTH_OFF(assert_callra)
#define MLX5V_HEALTH_FW_VER MLX5V_HEALTH_OFF(fw_ver)              /**< 0xffffffff: PCI is gone */
#define MLX5V_HEALTH_HW_ID MLX5V_HEALTH_OFF(hw_id)
#define MLX5V_HEALTH_RFR (MLX5V_ISEG_HEALTH + 4 * MLX5V_IFC_DW(health_buffer, rfr)) /**< BE32 */
/** The BE32 holding irisc_index [31:24], synd [23:16] and ext_synd [15:0]. */
#define MLX5V_HEALTH_IRISC_INDEX MLX5V_HEALTH_OFF(irisc_index)
#define MLX5V_HEALTH_RFR_BIT (1u << MLX5V_IFC_SHIFT(health_buffer, rfr))

/** Health syndromes (prm/mlx5 §4.2). */
enum mlx5v_health_synd {
	MLX5V_HEALTH_SYND_FW_ERR = 0x01,
	MLX5V_HEALTH_SYND_IRISC_ERR = 0x07,
	MLX5V_HEALTH_SYND_HW_UNRECOVERABLE_ERR = 0x08,
	MLX5V_HEALTH_SYND_CRC_ERR = 0x09,
	MLX5V_HEALTH_SYND_FETCH_PCI_ERR = 0x0a,
	MLX5V_HEALTH_SYND_HW_FTL_ERR = 0x0b,
	MLX5V_HEALTH_SYND_ASYNC_EQ_OVERRUN_ERR = 0x0c,
	MLX5V_HEALTH_SYND_EQ_ERR = 0x0d,
	MLX5V_HEALTH_SYND_EQ_INV = 0x0e,
	MLX5V_HEALTH_SYND_FFSER_ERR = 0x0f,
	MLX5V_HEALTH_SYND_HIGH_TEMP = 0x10,
};

/* ---- Command queue (prm/mlx5 §3) ---- */
#define MLX5V_CMDQ_LOG_SIZE 5                /**< what a device reports: 32 slots */
#define MLX5V_CMDQ_LOG_STRIDE 6              /**< of 64 bytes */
#define MLX5V_CMD_MAX_SLOTS 32

/* Command entry (prm/mlx5 §3.2) and mailbox block (prm/mlx5 §3.3) sizes, from their layouts. */
#define MLX5V_CMD_ENT_SIZE MLX5V_IFC_BYTES(cmd_layout)
#define MLX5V_CMD_INLINE_LEN (MLX5V_IFC_BIT_SZ(cmd_layout, in) / 8)
#define MLX5V_CMD_TYPE_PCI 7
#define MLX5V_CMD_OWNER_HW 0x1
#define MLX5V_MBOX_DATA_LEN (MLX5V_IFC_BIT_SZ(cmd_mbox, data) / 8)
#define MLX5V_MBOX_SIZE MLX5V_IFC_BYTES(cmd_mbox)
#define MLX5V_MBOX_ALIGN 1024                /**< the model accepts >= 1 KiB alignment */
#define MLX5V_MBOX_MAX_BLOCKS 256            /**< mailbox blocks per message (prm/mlx5 §3.3) */
/**
 * Longest inlen/outlen the device takes; above it, delivery status 0x7/0x8 (prm/mlx5 §3.3, §3.7).
 */
#define MLX5V_CMD_MAX_MSG_LEN (MLX5V_CMD_INLINE_LEN + MLX5V_MBOX_MAX_BLOCKS * MLX5V_MBOX_DATA_LEN)

/** Delivery status, status_own >> 1 (prm/mlx5 §3.7). */
enum mlx5v_cmd_delivery {
	MLX5V_CMD_DELIV_OK = 0x00,
	MLX5V_CMD_DELIV_SIGNAT_ERR = 0x01,
	MLX5V_CMD_DELIV_TOK_ERR = 0x02,
	MLX5V_CMD_DELIV_BAD_BLK_NUM_ERR = 0x03,
	MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR = 0x04,
	MLX5V_CMD_DELIV_IN_PTR_ALIGN_ERR = 0x05,
	MLX5V_CMD_DELIV_FW_ERR = 0x06,
	MLX5V_CMD_DELIV_IN_LENGTH_ERR = 0x07,
	MLX5V_CMD_DELIV_OUT_LENGTH_ERR = 0x08,
	MLX5V_CMD_DELIV_RES_FLD_NOT_CLR_ERR = 0x09,
	MLX5V_CMD_DELIV_CMD_DESCR_ERR = 0x10,
};

/** Outbox status (prm/mlx5 §3.8), plus the driver-synthesised ABORTED (prm/mlx5 §3.11). */
enum mlx5v_cmd_status {
	MLX5V_CMD_STAT_OK = 0x00,
	MLX5V_CMD_STAT_INT_ERR = 0x01,
	MLX5V_CMD_STAT_BAD_OP_ERR = 0x02,
	MLX5V_CMD_STAT_BAD_PARAM_ERR = 0x03,
	MLX5V_CMD_STAT_BAD_SYS_STATE_ERR = 0x04,
	MLX5V_CMD_STAT_BAD_RES_ERR = 0x05,
	MLX5V_CMD_STAT_RES_BUSY = 0x06,
	MLX5V_CMD_STAT_NOT_READY = 0x07,
	MLX5V_CMD_STAT_LIM_ERR = 0x08,
	MLX5V_CMD_STAT_BAD_RES_STATE_ERR = 0x09,
	MLX5V_CMD_STAT_IX_ERR = 0x0a,
	MLX5V_CMD_STAT_NO_RES_ERR = 0x0f,
	MLX5V_CMD_STAT_BAD_QP_STATE_ERR = 0x10,
	MLX5V_CMD_STAT_BAD_PKT_ERR = 0x30,
	MLX5V_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR = 0x40,
	MLX5V_CMD_STAT_BAD_INP_LEN_ERR = 0x50,
	MLX5V_CMD_STAT_BAD_OUTP_LEN_ERR = 0x51,
	MLX5V_CMD_STAT_DRIVER_ABORTED = 0xfe,
};
#define MLX5V_DRIVER_SYND 0xbadd00de

/* ---- Bring-up commands (prm/mlx5 §2.1, §9): values ---- */
#define MLX5V_CMD_HDR_SIZE MLX5V_IFC_BYTES(cmd_in_hdr) /**< every in/out starts with 16 bytes */
#define MLX5V_TEARDOWN_PROFILE_GRACEFUL_CLOSE 0
#define MLX5V_TEARDOWN_PROFILE_PREPARE_FAST_TEARDOWN 2
#define MLX5V_TEARDOWN_STATE_FORCE_FAIL 1

/* Pages (prm/mlx5 §5.1). */
#define MLX5V_ADAPTER_PAGE_SIZE 4096
#define MLX5V_ADAPTER_PAGE_SHIFT 12
#define MLX5V_QUERY_PAGES_BOOT 1
#define MLX5V_QUERY_PAGES_INIT 2
#define MLX5V_QUERY_PAGES_POST_INIT 3
#define MLX5V_MANAGE_PAGES_CANT_GIVE 0
#define MLX5V_MANAGE_PAGES_GIVE 1
#define MLX5V_MANAGE_PAGES_TAKE 2
#define MLX5V_PAGES_RECLAIM_MAX 50000              /**< per request */
#define MLX5V_PAGES_PER_TAKE 768

/* ACCESS_REG (prm/mlx5 §2.1 step 11). */
#define MLX5V_ACCESS_REG_WRITE 0
#define MLX5V_ACCESS_REG_READ 1
#define MLX5V_REG_HOST_ENDIANNESS 0x7004
#define MLX5V_REG_HOST_ENDIANNESS_SIZE 16

/* QUERY_HCA_CAP / SET_HCA_CAP (prm/mlx5 §2.2). op_mod = (cap_type << 1) | mode. */
#define MLX5V_CAP_GENERAL 0
#define MLX5V_CAP_TYPE_ROCE 4
#define MLX5V_CAP_MODE_MAX 0
#define MLX5V_CAP_MODE_CUR 1
#define MLX5V_HCA_CAP_SIZE MLX5V_IFC_BYTES(cmd_hca_cap)
#define MLX5V_CAP_PORT_TYPE_IB 0
#define MLX5V_CAP_PORT_TYPE_ETH 1
/* SET_HCA_CAP op_mod per capability type (prm/mlx5 §2.2): GENERAL = 0, ROCE = 0x8. */
#define MLX5V_SET_HCA_CAP_OP_MOD_GENERAL 0x0
#define MLX5V_SET_HCA_CAP_OP_MOD_ROCE 0x8

/* UARs (prm/mlx5 §8, §9). */
#define MLX5V_UAR_PAGE_SIZE MLX5V_IFC_BYTES(uar_page)
#define MLX5V_UAR_FIRST_INDEX 3                    /**< pages 0-2 are the init segment */

/* ---- EQ (prm/mlx5 §6): sizing constants ---- */
#define MLX5V_NUM_CMD_EQE 32
#define MLX5V_NUM_SPARE_EQE RTE_PMD_MLX5V_NUM_SPARE_EQE
#define MLX5V_EQ_POLLING_BUDGET 128
#define MLX5V_ASYNC_EQ_LOG_SIZE 8                  /**< roundup_pow2(32 + 128) = 256 */
#define MLX5V_ASYNC_EQ_VECTOR 0
#define MLX5V_EQN_MAX 255                          /**< eq_number is 8 bits */

/* ---- CQ (prm/mlx5 §7) ---- */
#define MLX5V_CQC_STATUS_OK 0x0
#define MLX5V_CQC_STATUS_CQ_OVERFLOW 0x9
#define MLX5V_CQC_STATUS_CQ_WRITE_FAIL 0xa
#define MLX5V_CQE_OWNER_MASK 0x1
#define MLX5V_CQE_OPCODE_REQ 0x0
#define MLX5V_CQE_OPCODE_RESP_SEND 0x2
#define MLX5V_CQE_OPCODE_REQ_ERR 0xd
#define MLX5V_CQE_OPCODE_RESP_ERR 0xe
#define MLX5V_CQE_INVALID 0xf
/* prm/mlx5 §7.3: the 64-bit arm doorbell's high word is (sn << 28) | cmd | ci. */
#define MLX5V_CQ_DB_SN_SHIFT 28
#define MLX5V_CQ_DB_CMD_MASK (0xfu << 24)
#define MLX5V_CQ_DB_CI_MASK 0xffffffu

/*
 * The public header rte_pmd_mlx5v_prm.h keeps its (DW, HI, LO) triples and byte offsets for
 * applications; each must equal what the compiler computes from the layouts above, so the two
 * cannot drift.
 */
#define MLX5V_PUB_AT(type, fld, off) MLX5V_IFC_ASSERT_OFF(type, fld, off)
#define MLX5V_PUB_BYTES(type, n) MLX5V_IFC_ASSERT_BYTES(type, n)
/** A public "_OFF" of a field inside eqe.data: the offset from the EQE start. */
#define MLX5V_PUB_EQE_DATA_AT(type, fld, off) \
	_Static_assert(MLX5V_IFC_BYTE_OFF(eqe, data) + MLX5V_IFC_BYTE_OFF(type, fld) == (off), \
		       #type "." #fld " is not at EQE byte " #off)
/** A public "BE32 at off, low bits" field: the dword holding fld starts at EQE byte off. */
#define MLX5V_PUB_EQE_DATA_DW(type, fld, off) \
	_Static_assert(MLX5V_IFC_BYTE_OFF(eqe, data) + 4 * MLX5V_IFC_DW(type, fld) == (off) && \
		       MLX5V_IFC_SHIFT(type, fld) == 0, #type "." #fld " is not in BE32 " #off)
/** A public triple naming the low bits of a wider layout field. */
#define MLX5V_PUB_LOW_BITS(type, fld, triple) MLX5V_PUB_LOW_BITS_(type, fld, triple)
#define MLX5V_PUB_LOW_BITS_(type, fld, dw, hi, lo) \
	_Static_assert(MLX5V_IFC_DW(type, fld) == (dw) && MLX5V_IFC_SHIFT(type, fld) == (lo) && \
		       (hi) - (lo) + 1 <= MLX5V_IFC_BIT_SZ(type, fld), \
		       #type "." #fld " does not hold the public bits")

MLX5V_IFC_ASSERT_TRIPLE(cmd_in_hdr, opcode, RTE_PMD_MLX5V_IN_OPCODE);
MLX5V_IFC_ASSERT_TRIPLE(cmd_in_hdr, uid, RTE_PMD_MLX5V_IN_UID);
MLX5V_IFC_ASSERT_TRIPLE(cmd_in_hdr, op_mod, RTE_PMD_MLX5V_IN_OP_MOD);
MLX5V_IFC_ASSERT_TRIPLE(cmd_out_hdr, status, RTE_PMD_MLX5V_OUT_STATUS);
MLX5V_IFC_ASSERT_TRIPLE(cmd_out_hdr, syndrome, RTE_PMD_MLX5V_OUT_SYNDROME);

MLX5V_PUB_BYTES(create_eq_in, RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE);
MLX5V_PUB_AT(create_eq_in, eqc, RTE_PMD_MLX5V_CREATE_EQ_IN_EQC);
MLX5V_PUB_AT(create_eq_in, event_bitmask, RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK);
MLX5V_PUB_AT(create_eq_in, pas, RTE_PMD_MLX5V_CREATE_EQ_IN_PAS);
MLX5V_PUB_BYTES(create_eq_out, RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE);
MLX5V_IFC_ASSERT_TRIPLE(create_eq_out, eq_number, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
MLX5V_PUB_BYTES(destroy_eq_in, RTE_PMD_MLX5V_DESTROY_EQ_IN_SIZE);
MLX5V_PUB_BYTES(destroy_eq_out, RTE_PMD_MLX5V_DESTROY_EQ_OUT_SIZE);
MLX5V_IFC_ASSERT_TRIPLE(destroy_eq_in, eq_number, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER);
MLX5V_IFC_ASSERT_TRIPLE(query_eq_in, eq_number, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER);
MLX5V_IFC_ASSERT_TRIPLE(gen_eqe_in, eq_number, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER);
MLX5V_PUB_BYTES(query_eq_in, RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE);
MLX5V_PUB_BYTES(query_eq_out, RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE);
MLX5V_PUB_AT(query_eq_out, eqc, RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC);
MLX5V_PUB_AT(query_eq_out, event_bitmask, RTE_PMD_MLX5V_QUERY_EQ_OUT_EVENT_BITMASK);
MLX5V_PUB_AT(query_eq_out, pas, RTE_PMD_MLX5V_QUERY_EQ_OUT_PAS);
MLX5V_PUB_BYTES(gen_eqe_in, RTE_PMD_MLX5V_GEN_EQE_IN_SIZE);
MLX5V_PUB_AT(gen_eqe_in, eqe, RTE_PMD_MLX5V_GEN_EQE_IN_EQE);
MLX5V_PUB_BYTES(gen_eqe_out, RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE);

MLX5V_PUB_BYTES(eqc, RTE_PMD_MLX5V_EQC_SIZE);
MLX5V_IFC_ASSERT_TRIPLE(eqc, status, RTE_PMD_MLX5V_EQC_STATUS);
MLX5V_IFC_ASSERT_TRIPLE(eqc, ec, RTE_PMD_MLX5V_EQC_EC);
MLX5V_IFC_ASSERT_TRIPLE(eqc, oi, RTE_PMD_MLX5V_EQC_OI);
MLX5V_IFC_ASSERT_TRIPLE(eqc, st, RTE_PMD_MLX5V_EQC_ST);
MLX5V_IFC_ASSERT_TRIPLE(eqc, page_offset, RTE_PMD_MLX5V_EQC_PAGE_OFFSET);
MLX5V_IFC_ASSERT_TRIPLE(eqc, log_eq_size, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE);
MLX5V_IFC_ASSERT_TRIPLE(eqc, uar_page, RTE_PMD_MLX5V_EQC_UAR_PAGE);
MLX5V_IFC_ASSERT_TRIPLE(eqc, intr, RTE_PMD_MLX5V_EQC_INTR);
MLX5V_IFC_ASSERT_TRIPLE(eqc, log_page_size, RTE_PMD_MLX5V_EQC_LOG_PAGE_SIZE);
MLX5V_IFC_ASSERT_TRIPLE(eqc, consumer_counter, RTE_PMD_MLX5V_EQC_CONSUMER_COUNTER);
MLX5V_IFC_ASSERT_TRIPLE(eqc, producer_counter, RTE_PMD_MLX5V_EQC_PRODUCER_COUNTER);

MLX5V_PUB_BYTES(eqe, RTE_PMD_MLX5V_EQE_SIZE);
MLX5V_PUB_AT(eqe, type, RTE_PMD_MLX5V_EQE_TYPE_OFF);
MLX5V_PUB_AT(eqe, sub_type, RTE_PMD_MLX5V_EQE_SUB_TYPE_OFF);
MLX5V_PUB_AT(eqe, data, RTE_PMD_MLX5V_EQE_DATA_OFF);
MLX5V_PUB_AT(eqe, signature, RTE_PMD_MLX5V_EQE_SIGNATURE_OFF);
_Static_assert(MLX5V_IFC_BYTE_OF(eqe, owner) == RTE_PMD_MLX5V_EQE_OWNER_OFF &&
	       MLX5V_IFC_SHIFT(eqe, owner) == 0, "eqe.owner is not bit 0 of the owner byte");
MLX5V_PUB_EQE_DATA_DW(eqe_comp, cqn, RTE_PMD_MLX5V_EQE_COMP_CQN_OFF);
MLX5V_PUB_EQE_DATA_DW(eqe_cq_err, cqn, RTE_PMD_MLX5V_EQE_CQ_ERR_CQN_OFF);
MLX5V_PUB_EQE_DATA_AT(eqe_cq_err, syndrome, RTE_PMD_MLX5V_EQE_CQ_ERR_SYNDROME_OFF);
MLX5V_PUB_EQE_DATA_AT(eqe_qp_srq, type, RTE_PMD_MLX5V_EQE_QP_TYPE_OFF);
MLX5V_PUB_EQE_DATA_AT(eqe_qp_srq, qp_srq_n, RTE_PMD_MLX5V_EQE_QP_SRQ_N_OFF);
MLX5V_PUB_EQE_DATA_AT(eqe_port_change, port, RTE_PMD_MLX5V_EQE_PORT_OFF);
_Static_assert(MLX5V_IFC_SHIFT(eqe_port_change, port) == 28,
	       "eqe_port_change.port is not the high nibble of its byte");
MLX5V_PUB_EQE_DATA_AT(eqe_cmd, vector, RTE_PMD_MLX5V_EQE_CMD_VECTOR_OFF);
MLX5V_PUB_EQE_DATA_AT(eqe_page_req, ec_function, RTE_PMD_MLX5V_EQE_PAGE_EC_FUNCTION_OFF);
MLX5V_PUB_EQE_DATA_AT(eqe_page_req, func_id, RTE_PMD_MLX5V_EQE_PAGE_FUNC_ID_OFF);
MLX5V_PUB_EQE_DATA_AT(eqe_page_req, num_pages, RTE_PMD_MLX5V_EQE_PAGE_NUM_PAGES_OFF);
MLX5V_PUB_EQE_DATA_AT(eqe_vport_change, vport_num, RTE_PMD_MLX5V_EQE_VPORT_NUM_OFF);

MLX5V_PUB_AT(uar_page, cq_db, RTE_PMD_MLX5V_UAR_CQ_DB_OFF);
MLX5V_PUB_AT(uar_page, eq_db_arm, RTE_PMD_MLX5V_UAR_EQ_DB_ARM_OFF);
MLX5V_PUB_AT(uar_page, eq_db_noarm, RTE_PMD_MLX5V_UAR_EQ_DB_NOARM_OFF);
MLX5V_PUB_AT(uar_page, bf, RTE_PMD_MLX5V_UAR_BF_OFF);

MLX5V_IFC_ASSERT_TRIPLE(alloc_uar_out, uar, RTE_PMD_MLX5V_UAR_CMD_UAR);
MLX5V_IFC_ASSERT_TRIPLE(dealloc_uar_in, uar, RTE_PMD_MLX5V_UAR_CMD_UAR);
MLX5V_PUB_BYTES(create_cq_in, RTE_PMD_MLX5V_CREATE_CQ_IN_SIZE);
MLX5V_PUB_AT(create_cq_in, cqc, RTE_PMD_MLX5V_CREATE_CQ_IN_CQC);
MLX5V_PUB_AT(create_cq_in, pas, RTE_PMD_MLX5V_CREATE_CQ_IN_PAS);
MLX5V_PUB_BYTES(create_cq_out, RTE_PMD_MLX5V_CREATE_CQ_OUT_SIZE);
MLX5V_IFC_ASSERT_TRIPLE(create_cq_out, cqn, RTE_PMD_MLX5V_CREATE_CQ_OUT_CQN);
MLX5V_IFC_ASSERT_TRIPLE(destroy_cq_in, cqn, RTE_PMD_MLX5V_DESTROY_CQ_IN_CQN);
MLX5V_PUB_BYTES(query_cq_out, RTE_PMD_MLX5V_QUERY_CQ_OUT_SIZE);
MLX5V_PUB_AT(query_cq_out, cqc, RTE_PMD_MLX5V_QUERY_CQ_OUT_CQC);

MLX5V_IFC_ASSERT_TRIPLE(cqc, status, RTE_PMD_MLX5V_CQC_STATUS);
MLX5V_IFC_ASSERT_TRIPLE(cqc, cqe_sz, RTE_PMD_MLX5V_CQC_CQE_SZ);
MLX5V_IFC_ASSERT_TRIPLE(cqc, oi, RTE_PMD_MLX5V_CQC_OI);
MLX5V_IFC_ASSERT_TRIPLE(cqc, st, RTE_PMD_MLX5V_CQC_ST);
MLX5V_IFC_ASSERT_TRIPLE(cqc, page_offset, RTE_PMD_MLX5V_CQC_PAGE_OFFSET);
MLX5V_IFC_ASSERT_TRIPLE(cqc, log_cq_size, RTE_PMD_MLX5V_CQC_LOG_CQ_SIZE);
MLX5V_IFC_ASSERT_TRIPLE(cqc, uar_page, RTE_PMD_MLX5V_CQC_UAR_PAGE);
/*
 * The public c_eqn is the 8-bit spelling (DW5[7:0], prm/mlx5 §7.1): the low byte of the
 * layout's 32-bit c_eqn_or_apu_element.
 */
MLX5V_PUB_LOW_BITS(cqc, c_eqn_or_apu_element, RTE_PMD_MLX5V_CQC_C_EQN);
MLX5V_IFC_ASSERT_TRIPLE(cqc, log_page_size, RTE_PMD_MLX5V_CQC_LOG_PAGE_SIZE);
MLX5V_IFC_ASSERT_TRIPLE(cqc, consumer_counter, RTE_PMD_MLX5V_CQC_CONSUMER_COUNTER);
MLX5V_IFC_ASSERT_TRIPLE(cqc, producer_counter, RTE_PMD_MLX5V_CQC_PRODUCER_COUNTER);
MLX5V_PUB_AT(cqc, dbr_addr, RTE_PMD_MLX5V_CQC_DBR_ADDR);

MLX5V_PUB_BYTES(cqe, RTE_PMD_MLX5V_CQE_SIZE);
MLX5V_PUB_AT(cqe, byte_cnt, RTE_PMD_MLX5V_CQE_BYTE_CNT_OFF);
MLX5V_PUB_AT(cqe, wqe_counter, RTE_PMD_MLX5V_CQE_WQE_COUNTER_OFF);
_Static_assert(MLX5V_IFC_BYTE_OF(cqe, opcode) == RTE_PMD_MLX5V_CQE_OP_OWN_OFF &&
	       MLX5V_IFC_BYTE_OF(cqe, owner) == RTE_PMD_MLX5V_CQE_OP_OWN_OFF &&
	       MLX5V_IFC_SHIFT(cqe, opcode) == 4 && MLX5V_IFC_SHIFT(cqe, owner) == 0,
	       "cqe.op_own is not [7:4] opcode, [0] owner of the last byte");
MLX5V_PUB_BYTES(cq_dbrec, RTE_PMD_MLX5V_CQ_DBREC_SIZE);
_Static_assert(MLX5V_IFC_DW(cq_dbrec, set_ci) == RTE_PMD_MLX5V_CQ_DBREC_SET_CI &&
	       MLX5V_IFC_DW(cq_dbrec, arm_ci) == RTE_PMD_MLX5V_CQ_DBREC_ARM,
	       "cq_dbrec dwords differ from the public header");


#endif /* _MLX5V_PRM_H_ */
