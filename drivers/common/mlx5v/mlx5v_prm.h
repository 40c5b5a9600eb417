/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file mlx5 PRM layouts only: offsets, field triples, opcodes, status codes. */

#ifndef _MLX5V_PRM_H_
#define _MLX5V_PRM_H_

#include <stdint.h>

#include "rte_pmd_mlx5v_prm.h"

/*
 * Field triples (DW, HI, LO) as in rte_pmd_mlx5v_prm.h; every offset below comes from
 * prm/mlx5 (doc/guides/prm/mlx5.rst), section named in each block.
 */
/*
 * Forward to the inner macros: a field argument expands to its triple before the
 * forwarded call is scanned, so it must land on the DW, HI, LO parameters.
 */
#define MLX5V_GET(p, fld) RTE_PMD_MLX5V_GET_(p, fld)
#define MLX5V_SET(p, fld, v) RTE_PMD_MLX5V_SET_(p, fld, v)
#define MLX5V_GET64(p, off) RTE_PMD_MLX5V_GET64(p, off)
#define MLX5V_SET64(p, off, v) RTE_PMD_MLX5V_SET64(p, off, v)

/* ---- Init segment, BAR0 offset 0 (§1) ---- */
#define MLX5V_ISEG_FW_REV 0x000
#define MLX5V_ISEG_CMDIF_REV_FW_SUB 0x004   /**< [31:16] cmdif rev, must be 5 */
#define MLX5V_ISEG_CMDQ_ADDR_H 0x010
/** [31:12] address, [10:8] nic_interface, [7:4] log_cmdq_size, [3:0] log_cmdq_stride */
#define MLX5V_ISEG_CMDQ_ADDR_L_SZ 0x014
#define MLX5V_ISEG_CMD_DBELL 0x018
#define MLX5V_ISEG_INITIALIZING 0x1fc       /**< [31] firmware initialising */
#define MLX5V_ISEG_HEALTH 0x200             /**< 64-byte health buffer */
#define MLX5V_ISEG_CMD_EXEC_TO 0xff8
#define MLX5V_ISEG_CMD_Q_INIT_TO 0xffc
#define MLX5V_ISEG_HEALTH_COUNTER 0x1010    /**< [23:0] heartbeat */
#define MLX5V_ISEG_SIZE 0x2010

#define MLX5V_CMDIF_REV 5
#define MLX5V_ISEG_INITIALIZING_BIT (1u << 31)
#define MLX5V_CMDQ_ADDR_MASK 0xfffff000u
#define MLX5V_NIC_IF_SHIFT 8
#define MLX5V_NIC_IF_MASK 0x7u

/** NIC interface states, cmdq_addr_l_sz [10:8] (§1.2). */
enum mlx5v_nic_if_state {
	MLX5V_NIC_IF_FULL = 0,
	MLX5V_NIC_IF_DISABLED = 1,
	MLX5V_NIC_IF_NO_DRAM_NIC = 2,
	MLX5V_NIC_IF_INVALID = 3,
	MLX5V_NIC_IF_SW_RESET = 7,
};

/* Health buffer, absolute BAR0 offsets (§4.1). */
#define MLX5V_HEALTH_ASSERT_VAR0 0x200       /**< 5 x BE32 */
#define MLX5V_HEALTH_ASSERT_EXIT_PTR 0x220
#define MLX5V_HEALTH_ASSERT_CALLRA 0x224
#define MLX5V_HEALTH_FW_VER 0x230            /**< 0xffffffff: PCI is gone */
#define MLX5V_HEALTH_HW_ID 0x234
#define MLX5V_HEALTH_RFR 0x238               /**< [31] recovery flow required */
#define MLX5V_HEALTH_IRISC_INDEX 0x23c       /**< u8 */
#define MLX5V_HEALTH_SYND 0x23d              /**< u8 */
#define MLX5V_HEALTH_EXT_SYND 0x23e          /**< BE16 */
#define MLX5V_HEALTH_RFR_BIT (1u << 31)

/** Health syndromes (§4.2). */
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

/* ---- Command queue (§3) ---- */
#define MLX5V_CMDQ_LOG_SIZE 5                /**< what a device reports: 32 slots */
#define MLX5V_CMDQ_LOG_STRIDE 6              /**< of 64 bytes */
#define MLX5V_CMD_MAX_SLOTS 32

/* Command entry, 64 bytes (§3.2): byte offsets. */
#define MLX5V_CMD_ENT_SIZE 64
#define MLX5V_CMD_ENT_TYPE 0x00              /**< u8, must be MLX5V_CMD_TYPE_PCI */
#define MLX5V_CMD_ENT_INLEN 0x04             /**< BE32 */
#define MLX5V_CMD_ENT_IPTR 0x08              /**< BE64 */
#define MLX5V_CMD_ENT_IN 0x10                /**< 16 inline input bytes */
#define MLX5V_CMD_ENT_OUT 0x20               /**< 16 inline output bytes */
#define MLX5V_CMD_ENT_OPTR 0x30              /**< BE64 */
#define MLX5V_CMD_ENT_OUTLEN 0x38            /**< BE32 */
#define MLX5V_CMD_ENT_TOKEN 0x3c
#define MLX5V_CMD_ENT_SIG 0x3d
#define MLX5V_CMD_ENT_STATUS_OWN 0x3f        /**< [0] owner (1 = HW), [7:1] delivery status */
#define MLX5V_CMD_TYPE_PCI 7
#define MLX5V_CMD_OWNER_HW 0x1
#define MLX5V_CMD_INLINE_LEN 16

/* Mailbox block, 0x240 bytes (§3.3). */
#define MLX5V_MBOX_DATA_LEN 512
#define MLX5V_MBOX_NEXT 0x230                /**< BE64 */
#define MLX5V_MBOX_BLOCK_NUM 0x238           /**< BE32 */
#define MLX5V_MBOX_TOKEN 0x23d
#define MLX5V_MBOX_CTRL_SIG 0x23e
#define MLX5V_MBOX_SIG 0x23f
#define MLX5V_MBOX_SIZE 0x240
#define MLX5V_MBOX_ALIGN 1024                /**< the model accepts >= 1 KiB alignment */
#define MLX5V_MBOX_MAX_BLOCKS 256            /**< blocks per message the device walks (§3.3) */
/** Longest inlen/outlen the device takes; above it, delivery status 0x7/0x8 (§3.3, §3.7). */
#define MLX5V_CMD_MAX_MSG_LEN (MLX5V_CMD_INLINE_LEN + MLX5V_MBOX_MAX_BLOCKS * MLX5V_MBOX_DATA_LEN)

/** Delivery status, status_own >> 1 (§3.7). */
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

/** Outbox status (§3.8), plus the driver-synthesised ABORTED (§3.11). */
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

/** Opcodes (§10). */
enum mlx5v_cmd_opcode {
	MLX5V_CMD_OP_QUERY_HCA_CAP = 0x100,
	MLX5V_CMD_OP_INIT_HCA = 0x102,
	MLX5V_CMD_OP_TEARDOWN_HCA = 0x103,
	MLX5V_CMD_OP_ENABLE_HCA = 0x104,
	MLX5V_CMD_OP_DISABLE_HCA = 0x105,
	MLX5V_CMD_OP_QUERY_PAGES = 0x107,
	MLX5V_CMD_OP_MANAGE_PAGES = 0x108,
	MLX5V_CMD_OP_SET_HCA_CAP = 0x109,
	MLX5V_CMD_OP_QUERY_ISSI = 0x10a,
	MLX5V_CMD_OP_SET_ISSI = 0x10b,
	MLX5V_CMD_OP_CREATE_MKEY = 0x200,
	MLX5V_CMD_OP_DESTROY_MKEY = 0x202,
	MLX5V_CMD_OP_CREATE_EQ = 0x301,
	MLX5V_CMD_OP_DESTROY_EQ = 0x302,
	MLX5V_CMD_OP_QUERY_EQ = 0x303,
	MLX5V_CMD_OP_GEN_EQE = 0x304,
	MLX5V_CMD_OP_CREATE_CQ = 0x400,
	MLX5V_CMD_OP_DESTROY_CQ = 0x401,
	MLX5V_CMD_OP_QUERY_CQ = 0x402,
	MLX5V_CMD_OP_CREATE_QP = 0x500,
	MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT = 0x755,
	MLX5V_CMD_OP_ALLOC_PD = 0x800,
	MLX5V_CMD_OP_DEALLOC_PD = 0x801,
	MLX5V_CMD_OP_ALLOC_UAR = 0x802,
	MLX5V_CMD_OP_DEALLOC_UAR = 0x803,
	MLX5V_CMD_OP_ACCESS_REG = 0x805,
	MLX5V_CMD_OP_CREATE_RQ = 0x908,
	MLX5V_CMD_OP_CREATE_UMEM = 0xa08,
	MLX5V_CMD_OP_DESTROY_UMEM = 0xa0a,
};

/* ---- Bring-up commands (§2.1, §9): sizes and fields ---- */
#define MLX5V_CMD_HDR_SIZE 0x10              /**< every in/out starts with 16 bytes */
#define MLX5V_ENABLE_HCA_IN_FUNCTION_ID 2, 15, 0
#define MLX5V_ENABLE_HCA_OUT_SIZE 0x0c       /**< 12 bytes */
#define MLX5V_DISABLE_HCA_IN_FUNCTION_ID 2, 15, 0
#define MLX5V_QUERY_ISSI_OUT_SIZE 0x70
#define MLX5V_QUERY_ISSI_OUT_CURRENT_ISSI 2, 15, 0
#define MLX5V_QUERY_ISSI_OUT_SUPPORTED_ISSI_DW0 27, 31, 0 /**< byte 0x6c; bit 1 = ISSI 1 */
#define MLX5V_SET_ISSI_IN_CURRENT_ISSI 2, 15, 0
#define MLX5V_TEARDOWN_HCA_IN_PROFILE 2, 15, 0
#define MLX5V_TEARDOWN_HCA_OUT_STATE 3, 0, 0
#define MLX5V_TEARDOWN_PROFILE_GRACEFUL_CLOSE 0
#define MLX5V_TEARDOWN_PROFILE_PREPARE_FAST_TEARDOWN 2
#define MLX5V_TEARDOWN_STATE_FORCE_FAIL 1

/* Pages (§5.1). */
#define MLX5V_ADAPTER_PAGE_SIZE 4096
#define MLX5V_ADAPTER_PAGE_SHIFT 12
#define MLX5V_QUERY_PAGES_BOOT 1
#define MLX5V_QUERY_PAGES_INIT 2
#define MLX5V_QUERY_PAGES_POST_INIT 3
#define MLX5V_QUERY_PAGES_IN_FUNCTION_ID 2, 15, 0
#define MLX5V_QUERY_PAGES_OUT_EC_FUNCTION 2, 31, 31
#define MLX5V_QUERY_PAGES_OUT_FUNCTION_ID 2, 15, 0
#define MLX5V_QUERY_PAGES_OUT_NUM_PAGES 3, 31, 0   /**< signed */
#define MLX5V_MANAGE_PAGES_CANT_GIVE 0
#define MLX5V_MANAGE_PAGES_GIVE 1
#define MLX5V_MANAGE_PAGES_TAKE 2
#define MLX5V_MANAGE_PAGES_IN_EC_FUNCTION 2, 31, 31
#define MLX5V_MANAGE_PAGES_IN_FUNCTION_ID 2, 15, 0
#define MLX5V_MANAGE_PAGES_IN_NUM_ENTRIES 3, 31, 0
#define MLX5V_MANAGE_PAGES_IN_PAS 0x10             /**< BE64 each */
#define MLX5V_MANAGE_PAGES_OUT_NUM_ENTRIES 2, 31, 0
#define MLX5V_MANAGE_PAGES_OUT_PAS 0x10
#define MLX5V_PAGES_RECLAIM_MAX 50000              /**< per request */
#define MLX5V_PAGES_PER_TAKE 768

/* ACCESS_REG (§2.1 step 11). */
#define MLX5V_ACCESS_REG_WRITE 0
#define MLX5V_ACCESS_REG_READ 1
#define MLX5V_ACCESS_REG_IN_REGISTER_ID 2, 15, 0
#define MLX5V_ACCESS_REG_IN_ARGUMENT 3, 31, 0
#define MLX5V_ACCESS_REG_IN_DATA 0x10
#define MLX5V_REG_HOST_ENDIANNESS 0x7004

/* QUERY_HCA_CAP / SET_HCA_CAP (§2.2). op_mod = (cap_type << 1) | mode. */
#define MLX5V_CAP_GENERAL 0
#define MLX5V_CAP_MODE_MAX 0
#define MLX5V_CAP_MODE_CUR 1
#define MLX5V_HCA_CAP_IN_OTHER_FUNCTION 2, 31, 31
#define MLX5V_HCA_CAP_IN_FUNCTION_ID 2, 15, 0
#define MLX5V_HCA_CAP_OFF 0x10                     /**< capability within in/out */
#define MLX5V_HCA_CAP_SIZE 0x1000
#define MLX5V_HCA_CAP_CMD_SIZE 0x1010              /**< query out, set in */
/* cmd_hca_cap general fields, relative to the capability. */
#define MLX5V_CAP_LOG_MAX_QP 4, 4, 0
#define MLX5V_CAP_LOG_MAX_CQ_SZ 6, 23, 16
#define MLX5V_CAP_LOG_MAX_CQ 6, 4, 0
#define MLX5V_CAP_LOG_MAX_EQ_SZ 7, 31, 24
#define MLX5V_CAP_LOG_MAX_EQ 7, 3, 0
#define MLX5V_CAP_FAST_TEARDOWN 8, 14, 14
#define MLX5V_CAP_DISABLE_LINK_UP_BY_INIT_HCA 13, 11, 11
#define MLX5V_CAP_PORT_TYPE 13, 9, 8               /**< 0 IB, 1 ETH */
#define MLX5V_CAP_CMDIF_CHECKSUM 16, 15, 14
#define MLX5V_CAP_UAR_SZ 18, 21, 16
#define MLX5V_CAP_UMEM_UID_0 18, 13, 13
#define MLX5V_CAP_MKEY_BY_NAME 19, 25, 25
#define MLX5V_CAP_MAX_NUM_EQS 35, 15, 0
#define MLX5V_CAP_LOG_UAR_PAGE_SZ 36, 15, 0
#define MLX5V_CAP_PORT_TYPE_IB 0
#define MLX5V_CAP_PORT_TYPE_ETH 1
/* SET_HCA_CAP op_mod per capability type (§2.2): GENERAL = 0, ROCE = 0x8. */
#define MLX5V_SET_HCA_CAP_OP_MOD_GENERAL 0x0
#define MLX5V_SET_HCA_CAP_OP_MOD_ROCE 0x8

/* MODIFY_NIC_VPORT_CONTEXT (§2.1 step 18), absolute byte offsets. */
#define MLX5V_MODIFY_NIC_VPORT_IN_SIZE 0x200
#define MLX5V_MODIFY_NIC_VPORT_IN_FIELD_SELECT_ROCE_EN 3, 1, 1    /**< byte 0x0f bit 1 */
#define MLX5V_MODIFY_NIC_VPORT_IN_ROCE_EN 64, 0, 0                /**< byte 0x103 bit 0 */

/* ALLOC_UAR / DEALLOC_UAR (§9). */
#define MLX5V_UAR_OUT_UAR 2, 23, 0
#define MLX5V_DEALLOC_UAR_IN_UAR 2, 23, 0
#define MLX5V_UAR_PAGE_SIZE 4096
#define MLX5V_UAR_FIRST_INDEX 3                    /**< pages 0-2 are the init segment */

/* ---- EQ (§6): see rte_pmd_mlx5v_prm.h; sizing constants ---- */
#define MLX5V_NUM_CMD_EQE 32
#define MLX5V_NUM_SPARE_EQE RTE_PMD_MLX5V_NUM_SPARE_EQE
#define MLX5V_EQ_POLLING_BUDGET 128
#define MLX5V_ASYNC_EQ_LOG_SIZE 8                  /**< roundup_pow2(32 + 128) = 256 */
#define MLX5V_ASYNC_EQ_VECTOR 0
#define MLX5V_EQN_MAX 255                          /**< eq_number is 8 bits */

/* ---- CQ (§7) ---- */
#define MLX5V_CREATE_CQ_IN_SIZE 0x110
#define MLX5V_CREATE_CQ_IN_CQC 0x10
#define MLX5V_CREATE_CQ_IN_PAS 0x110
#define MLX5V_CREATE_CQ_OUT_CQN 2, 23, 0
#define MLX5V_DESTROY_CQ_IN_CQN 2, 23, 0
#define MLX5V_QUERY_CQ_IN_CQN 2, 23, 0
#define MLX5V_QUERY_CQ_OUT_CQC 0x10
#define MLX5V_CQC_STATUS 0, 31, 28
#define MLX5V_CQC_CQE_SZ 0, 23, 21                 /**< 0 = 64 B, 1 = 128 B */
#define MLX5V_CQC_CC 0, 20, 20
#define MLX5V_CQC_OI 0, 17, 17
#define MLX5V_CQC_ST 0, 11, 8
#define MLX5V_CQC_PAGE_OFFSET 2, 11, 6
#define MLX5V_CQC_LOG_CQ_SIZE 3, 28, 24
#define MLX5V_CQC_UAR_PAGE 3, 23, 0
#define MLX5V_CQC_C_EQN 5, 31, 0                   /**< accept 8 or 32 bits */
#define MLX5V_CQC_LOG_PAGE_SIZE 6, 28, 24
#define MLX5V_CQC_CONSUMER_COUNTER 10, 23, 0
#define MLX5V_CQC_PRODUCER_COUNTER 11, 23, 0
#define MLX5V_CQC_DBR_ADDR 0x38                    /**< BE64, relative to cqc */
#define MLX5V_CQE_SIZE 64
#define MLX5V_CQE_OP_OWN 63                        /**< [7:4] opcode, [0] owner */
#define MLX5V_CQE_OWNER_MASK 0x1
#define MLX5V_CQE_OPCODE_REQ 0x0
#define MLX5V_CQE_OPCODE_RESP_SEND 0x2
#define MLX5V_CQE_OPCODE_REQ_ERR 0xd
#define MLX5V_CQE_OPCODE_RESP_ERR 0xe
#define MLX5V_CQE_INVALID 0xf
#define MLX5V_CQ_DB_REQ_NOT_SOL (1u << 24)
#define MLX5V_CQ_DB_REQ_NOT 0u
#define MLX5V_CQ_SET_CI 0                          /**< dbrec dword 0 */
#define MLX5V_CQ_ARM_DB 1                          /**< dbrec dword 1 */

/* ---- Further layouts (device model and core); prm/mlx5 section in each line ---- */
#define MLX5V_ENABLE_HCA_IN_EC_FUNCTION 2, 31, 31          /**< §9 embedded_cpu_function */
#define MLX5V_CAP_TYPE_ROCE 4               /**< §2.2 capability type RoCE */
#define MLX5V_CAP_ROCE_EN 16, 2, 2                         /**< §2.2 general cap "roce" bit */
#define MLX5V_ROCE_CAP_SW_R_ROCE_SRC_UDP_PORT 0, 27, 27    /**< §2.2, in the RoCE cap */
#define MLX5V_MODIFY_NIC_VPORT_IN_OTHER_VPORT 2, 31, 31
#define MLX5V_MODIFY_NIC_VPORT_IN_VPORT_NUMBER 2, 15, 0
#define MLX5V_ACCESS_REG_OUT_DATA 0x10                     /**< §9 register_data (read) */
#define MLX5V_REG_HOST_ENDIANNESS_SIZE 16                  /**< §2.1 step 11 */
#define MLX5V_CQC_DBR_UMEM_VALID 0, 25, 25                 /**< §7.1 */
#define MLX5V_CQC_DBR_UMEM_ID 1, 31, 0
#define MLX5V_CQC_CQ_PERIOD 4, 27, 16
#define MLX5V_CQC_CQ_MAX_COUNT 4, 15, 0
#define MLX5V_CQC_LAST_NOTIFIED_INDEX 8, 23, 0
#define MLX5V_CQC_LAST_SOLICIT_INDEX 9, 23, 0
#define MLX5V_CQC_STATUS_OK 0x0
#define MLX5V_CQC_STATUS_CQ_OVERFLOW 0x9
#define MLX5V_CQC_STATUS_CQ_WRITE_FAIL 0xa
#define MLX5V_CREATE_CQ_IN_CQ_UMEM_OFFSET 0x50             /**< BE64 */
#define MLX5V_CREATE_CQ_IN_CQ_UMEM_ID 22, 31, 0            /**< byte 0x58 */
#define MLX5V_CREATE_CQ_IN_CQ_UMEM_VALID 23, 31, 31        /**< byte 0x5c bit 31 */
#define MLX5V_QUERY_CQ_OUT_SIZE 0x110
#define MLX5V_QUERY_CQ_OUT_PAS 0x110
#define MLX5V_CQE_BYTE_CNT 0x2c                            /**< BE32 */
#define MLX5V_CQE_WQE_COUNTER 0x3c                         /**< BE16 */
#define MLX5V_CQ_DB_SN_SHIFT 28                            /**< §7.3 arm word: sn << 28 */
#define MLX5V_CQ_DB_CMD_MASK (0xfu << 24)
#define MLX5V_CQ_DB_CI_MASK 0xffffffu

#endif /* _MLX5V_PRM_H_ */
