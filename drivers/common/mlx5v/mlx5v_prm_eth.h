/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file PRM layouts of the Ethernet function (prm/mlx5_eth): commands, contexts, port
 * registers and capabilities, as compiler-checked bit-structs (mlx5v_ifc.h).
 *
 * Shared by the device model and the net PMD. Field names follow prm/mlx5_eth; the key
 * offsets are asserted against the (dword, bits) the digest prints.
 */

#ifndef _MLX5V_PRM_ETH_H_
#define _MLX5V_PRM_ETH_H_

#include <stdint.h>

#include "mlx5v_ifc.h"
#include "mlx5v_prm_eq.h"

/** Capability types of QUERY_HCA_CAP (prm/mlx5_eth §3.1). */
#define MLX5V_CAP_TYPE_ETH_OFFLOADS 0x01
#define MLX5V_CAP_TYPE_FLOW_TABLE 0x07

/** Port registers (prm/mlx5_eth §4.12). */
#define MLX5V_REG_PMTU 0x5003
#define MLX5V_REG_PTYS 0x5004
#define MLX5V_REG_PAOS 0x5006
#define MLX5V_PTYS_PROTO_ETH 0x4       /**< proto_mask: Ethernet (prm/mlx5_eth §11.3) */
#define MLX5V_REG_PCAM 0x507f          /**< Ports Capabilities Mask, RO (prm/mlx5_eth §11.3) */
#define MLX5V_PAOS_UP 1                /**< admin_status / oper_status (prm/mlx5_eth §11.1) */
#define MLX5V_PAOS_DOWN 2

/* ---- Common command framing (prm/mlx5_eth §4.1) ---- */

/** The 16-byte header of every input. */
MLX5V_IFC(eth_cmd_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
};

/** Output of ALLOC_PD/TD and every CREATE: status, syndrome, the object number. */
MLX5V_IFC(eth_obj_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t obj_id[0x18];
	uint8_t reserved_at_60[0x20];
};

/** Input of DEALLOC_PD/TD, DESTROY_MKEY/TIS/SQ/RQ/RQT/TIR and QUERY_*: the object number. */
MLX5V_IFC(eth_obj_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t obj_id[0x18];
	uint8_t reserved_at_60[0x20];
};

/** Output of a command that returns only the header. */
MLX5V_IFC(eth_cmd_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
};

/* ---- Q counters (prm/mlx5_eth §4.11) ---- */

MLX5V_IFC(alloc_q_counter_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x18];
	uint8_t counter_set_id[0x8];
	uint8_t reserved_at_60[0x20];
};

MLX5V_IFC(dealloc_q_counter_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x18];
	uint8_t counter_set_id[0x8];
	uint8_t reserved_at_60[0x20];
};

MLX5V_IFC(query_q_counter_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t other_vport[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t vport_number[0x10];
	uint8_t reserved_at_60[0x60];
	uint8_t clear[0x1];
	uint8_t aggregate[0x1];
	uint8_t reserved_at_c2[0x1e];
	uint8_t reserved_at_e0[0x18];
	uint8_t counter_set_id[0x8];
};

MLX5V_IFC(query_q_counter_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	uint8_t reserved_at_80[0x100];
	uint8_t out_of_buffer[0x20];
	uint8_t reserved_at_1a0[0x20];
	uint8_t out_of_sequence[0x20];
	uint8_t reserved_at_1e0[0x620];
};

/* ---- Memory keys (prm/mlx5_eth §4.2) ---- */

MLX5V_IFC(query_special_contexts_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t dump_fill_mkey[0x20];
	uint8_t resd_lkey[0x20];
	uint8_t null_mkey[0x20];
	uint8_t terminate_scatter_list_mkey[0x20];
	uint8_t repeated_mkey[0x20];
	uint8_t reserved_at_e0[0x20];
};

MLX5V_IFC(mkc) {
	uint8_t reserved_at_0[0x1];
	uint8_t free[0x1];
	uint8_t reserved_at_2[0x1];
	uint8_t access_mode_4_2[0x3];
	uint8_t reserved_at_6[0x7];
	uint8_t relaxed_ordering_write[0x1];
	uint8_t reserved_at_e[0x1];
	uint8_t small_fence_on_rdma_read_response[0x1];
	uint8_t umr_en[0x1];
	uint8_t a[0x1];
	uint8_t rw[0x1];
	uint8_t rr[0x1];
	uint8_t lw[0x1];
	uint8_t lr[0x1];
	uint8_t access_mode_1_0[0x2];
	uint8_t reserved_at_18[0x8];
	uint8_t qpn[0x18];
	uint8_t mkey_7_0[0x8];
	uint8_t reserved_at_40[0x20];
	uint8_t length64[0x1];
	uint8_t bsf_en[0x1];
	uint8_t sync_umr[0x1];
	uint8_t reserved_at_63[0x5];
	uint8_t pd[0x18];
	uint8_t start_addr[0x40];
	uint8_t len[0x40];
	uint8_t bsf_octword_size[0x20];
	uint8_t reserved_at_120[0x80];
	uint8_t translations_octword_size[0x20];
	uint8_t reserved_at_1c0[0x19];
	uint8_t relaxed_ordering_read[0x1];
	uint8_t log_page_size[0x6];
	uint8_t reserved_at_1e0[0x20];
};

MLX5V_IFC(create_mkey_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x20];
	uint8_t pg_access[0x1];
	uint8_t mkey_umem_valid[0x1];
	uint8_t reserved_at_62[0x1e];
	MLX5V_IFC(mkc) mkc;
	uint8_t reserved_at_280[0x80];
	uint8_t translations_octword_actual_size[0x20];
	uint8_t reserved_at_320[0x560];
	/* klm_pas_mtt[]: BE64 per page from here (MLX5V_IFC_BYTES(create_mkey_in)). */
};

MLX5V_IFC(query_mkey_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	MLX5V_IFC(mkc) memory_key_mkey_entry;
	uint8_t reserved_at_280[0x600];
};

/** One page-list entry: ``pas[]`` of an SQ/RQ, ``klm_pas_mtt[]`` of an MTT key (BE64). */
MLX5V_IFC(pas_entry) {
	uint8_t addr[0x40];
};

/** MTT entry permission bits (prm/mlx5_eth §4.2). */
#define MLX5V_MTT_READ 0x1
#define MLX5V_MTT_WRITE 0x2
#define MLX5V_MKC_ACCESS_PA 0
#define MLX5V_MKC_ACCESS_MTT 1

/* ---- TIS (prm/mlx5_eth §4.4) ---- */

MLX5V_IFC(tisc) {
	uint8_t strict_lag_tx_port_affinity[0x1];
	uint8_t tls_en[0x1];
	uint8_t reserved_at_2[0x2];
	uint8_t lag_tx_port_affinity[0x4];
	uint8_t reserved_at_8[0x4];
	uint8_t prio[0x4];
	uint8_t reserved_at_10[0x10];
	uint8_t reserved_at_20[0x100];
	uint8_t reserved_at_120[0x8];
	uint8_t transport_domain[0x18];
	uint8_t reserved_at_140[0x20];
	uint8_t reserved_at_160[0x8];
	uint8_t pd[0x18];
	uint8_t reserved_at_180[0x380];
};

MLX5V_IFC(create_tis_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(tisc) ctx;
};

/** MODIFY_TIS; bitmask bit 0 = prio. */
MLX5V_IFC(modify_tis_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t tisn[0x18];
	uint8_t reserved_at_60[0x20];
	uint8_t bitmask_hi[0x20];
	uint8_t bitmask[0x20];
	uint8_t reserved_at_c0[0x40];
	MLX5V_IFC(tisc) ctx;
};

MLX5V_IFC(query_tis_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(tisc) ctx;
};

/* ---- Work queues: wq, sqc, rqc (prm/mlx5_eth §4.5 - §4.7) ---- */

MLX5V_IFC(wq) {
	uint8_t wq_type[0x4];
	uint8_t wq_signature[0x1];
	uint8_t end_padding_mode[0x2];
	uint8_t cd_slave[0x1];
	uint8_t reserved_at_8[0x18];
	uint8_t hds_skip_first_sge[0x1];
	uint8_t log2_hds_buf_size[0x3];
	uint8_t reserved_at_24[0x7];
	uint8_t page_offset[0x5];
	uint8_t lwm[0x10];
	uint8_t reserved_at_40[0x8];
	uint8_t pd[0x18];
	uint8_t reserved_at_60[0x8];
	uint8_t uar_page[0x18];
	uint8_t dbr_addr[0x40];
	uint8_t hw_counter[0x20];
	uint8_t sw_counter[0x20];
	uint8_t reserved_at_100[0xc];
	uint8_t log_wq_stride[0x4];
	uint8_t reserved_at_110[0x3];
	uint8_t log_wq_pg_sz[0x5];
	uint8_t reserved_at_118[0x3];
	uint8_t log_wq_sz[0x5];
	uint8_t dbr_umem_valid[0x1];
	uint8_t wq_umem_valid[0x1];
	uint8_t reserved_at_122[0x12];
	uint8_t log_wqe_num_of_strides[0x4];
	uint8_t two_byte_shift_en[0x1];
	uint8_t reserved_at_139[0x4];
	uint8_t log_wqe_stride_size[0x3];
	uint8_t dbr_umem_id[0x20];
	uint8_t wq_umem_id[0x20];
	uint8_t wq_umem_offset[0x40];
	uint8_t reserved_at_1c0[0x440];
};

MLX5V_IFC(sqc) {
	uint8_t rlky[0x1];
	uint8_t cd_master[0x1];
	uint8_t fre[0x1];
	uint8_t flush_in_error_en[0x1];
	uint8_t allow_multi_pkt_send_wqe[0x1];
	uint8_t min_wqe_inline_mode[0x3];
	uint8_t state[0x4];
	uint8_t reg_umr[0x1];
	uint8_t allow_swp[0x1];
	uint8_t reserved_at_e[0xc];
	uint8_t ts_format[0x2];
	uint8_t reserved_at_1c[0x4];
	uint8_t reserved_at_20[0x8];
	uint8_t user_index[0x18];
	uint8_t reserved_at_40[0x8];
	uint8_t cqn[0x18];
	uint8_t reserved_at_60[0x80];
	uint8_t reserved_at_e0[0x10];
	uint8_t packet_pacing_rate_limit_index[0x10];
	uint8_t tis_lst_sz[0x10];
	uint8_t reserved_at_110[0x10];
	uint8_t reserved_at_120[0x40];
	uint8_t reserved_at_160[0x8];
	uint8_t tis_num_0[0x18];
	MLX5V_IFC(wq) wq;
};

MLX5V_IFC(rqc) {
	uint8_t rlky[0x1];
	uint8_t delay_drop_en[0x1];
	uint8_t scatter_fcs[0x1];
	uint8_t vsd[0x1];
	uint8_t mem_rq_type[0x4];
	uint8_t state[0x4];
	uint8_t reserved_at_c[0x1];
	uint8_t flush_in_error_en[0x1];
	uint8_t hairpin[0x1];
	uint8_t reserved_at_f[0xb];
	uint8_t ts_format[0x2];
	uint8_t reserved_at_1c[0x4];
	uint8_t reserved_at_20[0x8];
	uint8_t user_index[0x18];
	uint8_t reserved_at_40[0x8];
	uint8_t cqn[0x18];
	uint8_t counter_set_id[0x8];
	uint8_t reserved_at_68[0x18];
	uint8_t reserved_at_80[0x8];
	uint8_t rmpn[0x18];
	uint8_t reserved_at_a0[0xe0];
	MLX5V_IFC(wq) wq;
};

/** CREATE_SQ; pas[] (BE64 each) follow at MLX5V_IFC_BYTES(create_sq_in). */
MLX5V_IFC(create_sq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(sqc) ctx;
};

MLX5V_IFC(create_rq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(rqc) ctx;
};

/** MODIFY_SQ: q_state is the current state, ctx.state the next (prm/mlx5_eth §4.5). */
MLX5V_IFC(modify_sq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t sq_state[0x4];
	uint8_t reserved_at_44[0x4];
	uint8_t sqn[0x18];
	uint8_t reserved_at_60[0x20];
	uint8_t modify_bitmask_hi[0x20];
	uint8_t modify_bitmask[0x20];
	uint8_t reserved_at_c0[0x40];
	MLX5V_IFC(sqc) ctx;
};

/**
 * MODIFY_RQ; modify_bitmask bit 0 lwm, 1 vsd, 2 scatter_fcs, 3 counter_set_id (prm/mlx5_eth §4.6).
 */
MLX5V_IFC(modify_rq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t rq_state[0x4];
	uint8_t reserved_at_44[0x4];
	uint8_t rqn[0x18];
	uint8_t reserved_at_60[0x20];
	uint8_t modify_bitmask_hi[0x20];
	uint8_t modify_bitmask[0x20];
	uint8_t reserved_at_c0[0x40];
	MLX5V_IFC(rqc) ctx;
};

#define MLX5V_MODIFY_RQ_LWM 0x1
#define MLX5V_MODIFY_RQ_VSD 0x2
#define MLX5V_MODIFY_RQ_SCATTER_FCS 0x4
#define MLX5V_MODIFY_RQ_COUNTER_SET_ID 0x8

MLX5V_IFC(query_sq_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(sqc) ctx;
};

MLX5V_IFC(query_rq_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(rqc) ctx;
};

/* ---- RQT (prm/mlx5_eth §4.8) ---- */

MLX5V_IFC(rqtc) {
	uint8_t reserved_at_0[0xa0];
	uint8_t reserved_at_a0[0x5];
	uint8_t list_q_type[0x3];
	uint8_t reserved_at_a8[0x8];
	uint8_t rqt_max_size[0x10];
	uint8_t rq_vhca_id_format[0x1];
	uint8_t reserved_at_c1[0xf];
	uint8_t rqt_actual_size[0x10];
	uint8_t reserved_at_e0[0x6a0];
	/* rq_num[]: 4 bytes each, RQN in bits 23:0, from here. */
};

/** CREATE_RQT; the RQ list follows at MLX5V_IFC_BYTES(create_rqt_in). */
MLX5V_IFC(create_rqt_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(rqtc) ctx;
};

/** MODIFY_RQT; bitmask bit 0 = the RQ list. */
MLX5V_IFC(modify_rqt_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t rqtn[0x18];
	uint8_t reserved_at_60[0x20];
	uint8_t bitmask_hi[0x20];
	uint8_t bitmask[0x20];
	uint8_t reserved_at_c0[0x40];
	MLX5V_IFC(rqtc) ctx;
};

MLX5V_IFC(query_rqt_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(rqtc) ctx;
};

/* ---- TIR (prm/mlx5_eth §4.9) ---- */

MLX5V_IFC(tirc) {
	uint8_t reserved_at_0[0x20];
	uint8_t disp_type[0x4];
	uint8_t tls_en[0x1];
	uint8_t reserved_at_25[0x1b];
	uint8_t reserved_at_40[0x40];
	uint8_t reserved_at_80[0x4];
	uint8_t lro_timeout_period_usecs[0x10];
	uint8_t packet_merge_mask[0x4];
	uint8_t lro_max_ip_payload_size[0x8];
	uint8_t reserved_at_a0[0x40];
	uint8_t reserved_at_e0[0x8];
	uint8_t inline_rqn[0x18];
	uint8_t rx_hash_symmetric[0x1];
	uint8_t reserved_at_101[0x1];
	uint8_t tunneled_offload_en[0x1];
	uint8_t reserved_at_103[0x5];
	uint8_t indirect_table[0x18];
	uint8_t rx_hash_fn[0x4];
	uint8_t reserved_at_124[0x2];
	uint8_t self_lb_block[0x2];
	uint8_t transport_domain[0x18];
	uint8_t rx_hash_toeplitz_key[0x140];
	uint8_t hash_outer_l3_prot_type[0x1];
	uint8_t hash_outer_l4_prot_type[0x1];
	uint8_t hash_outer_selected_fields[0x1e];
	uint8_t hash_inner[0x20];
	uint8_t reserved_at_2c0[0x4c0];
};

#define MLX5V_TIRC_DISP_DIRECT 0
#define MLX5V_TIRC_DISP_INDIRECT 1
#define MLX5V_TIRC_HASH_NONE 0
#define MLX5V_TIRC_HASH_XOR8 1
#define MLX5V_TIRC_HASH_TOEPLITZ 2
/** selected_fields bits (prm/mlx5_eth §4.9). */
#define MLX5V_HASH_FIELD_SRC_IP 0x1
#define MLX5V_HASH_FIELD_DST_IP 0x2
#define MLX5V_HASH_FIELD_L4_SPORT 0x4
#define MLX5V_HASH_FIELD_L4_DPORT 0x8
#define MLX5V_HASH_FIELD_IPSEC_SPI 0x10

MLX5V_IFC(create_tir_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(tirc) ctx;
};

/**
 * MODIFY_TIR; bitmask bit 0 packet merge, 1 indirect table, 2 hash, 4 self_lb (prm/mlx5_eth §4.9).
 */
MLX5V_IFC(modify_tir_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t tirn[0x18];
	uint8_t reserved_at_60[0x20];
	uint8_t bitmask_hi[0x20];
	uint8_t bitmask[0x20];
	uint8_t reserved_at_c0[0x40];
	MLX5V_IFC(tirc) ctx;
};

#define MLX5V_MODIFY_TIR_LRO 0x1
#define MLX5V_MODIFY_TIR_INDIRECT_TABLE 0x2
#define MLX5V_MODIFY_TIR_HASH 0x4
#define MLX5V_MODIFY_TIR_TUNNELED_OFFLOAD 0x8
#define MLX5V_MODIFY_TIR_SELF_LB 0x10

MLX5V_IFC(query_tir_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0xc0];
	MLX5V_IFC(tirc) ctx;
};

/* ---- Flow tables (prm/mlx5_eth §4.10) ---- */

#define MLX5V_FT_TYPE_NIC_RX 0
#define MLX5V_FT_MISS_DEFAULT 0
#define MLX5V_FT_MISS_FWD 1
#define MLX5V_FTE_ACTION_ALLOW 0x1
#define MLX5V_FTE_ACTION_DROP 0x2
#define MLX5V_FTE_ACTION_FWD_DEST 0x4
#define MLX5V_FTE_ACTION_COUNT 0x8
#define MLX5V_FLOW_DEST_FLOW_TABLE 1
#define MLX5V_FLOW_DEST_TIR 2
/* match_criteria_enable: one bit per section of fte_match_param (prm/mlx5_eth §4.10). */
#define MLX5V_MATCH_OUTER_HEADERS 0x1
#define MLX5V_MATCH_MISC_PARAMETERS 0x2
#define MLX5V_MATCH_INNER_HEADERS 0x4
#define MLX5V_MATCH_MISC_PARAMETERS_3 0x10
/* flex_parser_protocols of the general caps: misc3 ICMP fields parsed (prm/mlx5_eth §3.4). */
#define MLX5V_FLEX_PARSER_ICMP_V4 (1u << 8)
#define MLX5V_FLEX_PARSER_ICMP_V6 (1u << 9)
/* The UDP destination port the device parses as VXLAN (prm/mlx5_eth §4.10). */
#define MLX5V_VXLAN_UDP_PORT 4789

MLX5V_IFC(flow_table_context) {
	uint8_t reformat_en[0x1];
	uint8_t decap_en[0x1];
	uint8_t sw_owner[0x1];
	uint8_t termination_table[0x1];
	uint8_t table_miss_action[0x4];
	uint8_t level[0x8];
	uint8_t reserved_at_10[0x8];
	uint8_t log_size[0x8];
	uint8_t reserved_at_20[0x8];
	uint8_t table_miss_id[0x18];
	uint8_t reserved_at_40[0x8];
	uint8_t lag_master_next_table_id[0x18];
	uint8_t reserved_at_60[0xe0];
};

/*
 * The fields a flow-table command's input starts with (prm/mlx5_eth §4.10): the command
 * header, the vport, the table type.
 */
#define MLX5V_IFC_FT_IN_FIELDS \
	MLX5V_IFC_IN_HDR_FIELDS; \
	uint8_t other_vport[0x1]; \
	uint8_t reserved_at_41[0xf]; \
	uint8_t vport_number[0x10]; \
	uint8_t reserved_at_60[0x20]; \
	uint8_t table_type[0x8]; \
	uint8_t reserved_at_88[0x18]

MLX5V_IFC(create_flow_table_in) {
	MLX5V_IFC_FT_IN_FIELDS;
	uint8_t reserved_at_a0[0x20];
	MLX5V_IFC(flow_table_context) ctx;
};

/** The 0x40-byte input of DESTROY_FLOW_TABLE, SET_FLOW_TABLE_ROOT, DESTROY_FLOW_GROUP and
 * DELETE_FLOW_TABLE_ENTRY: table, then group_id (DW6) or flow_index (DW8). */
MLX5V_IFC(flow_table_obj_in) {
	MLX5V_IFC_FT_IN_FIELDS;
	uint8_t reserved_at_a0[0x8];
	uint8_t table_id[0x18];
	uint8_t group_id[0x20];        /**< DESTROY_FLOW_GROUP; SET_ROOT: underlay_qpn */
	uint8_t reserved_at_e0[0x20];
	uint8_t flow_index[0x20];      /**< DELETE_FLOW_TABLE_ENTRY */
	uint8_t reserved_at_120[0xe0];
};

MLX5V_IFC(fte_match_set_lyr_2_4) {
	uint8_t smac_47_16[0x20];
	uint8_t smac_15_0[0x10];
	uint8_t ethertype[0x10];
	uint8_t dmac_47_16[0x20];
	uint8_t dmac_15_0[0x10];
	uint8_t first_prio[0x3];
	uint8_t first_cfi[0x1];
	uint8_t first_vid[0xc];
	uint8_t ip_protocol[0x8];
	uint8_t ip_dscp[0x6];
	uint8_t ip_ecn[0x2];
	uint8_t cvlan_tag[0x1];
	uint8_t svlan_tag[0x1];
	uint8_t frag[0x1];
	uint8_t ip_version[0x4];
	uint8_t tcp_flags[0x9];
	uint8_t tcp_sport[0x10];
	uint8_t tcp_dport[0x10];
	uint8_t l4_type[0x2];
	uint8_t reserved_at_c2[0xe];
	uint8_t ipv4_ihl[0x4];
	uint8_t reserved_at_d4[0x4];
	uint8_t ttl_hoplimit[0x8];
	uint8_t udp_sport[0x10];
	uint8_t udp_dport[0x10];
	uint8_t src_ipv4_src_ipv6[0x80];
	uint8_t dst_ipv4_dst_ipv6[0x80];
};

/** The misc parameters (prm/mlx5_eth §4.10): of them only the VXLAN VNI is used. */
MLX5V_IFC(fte_match_set_misc) {
	uint8_t reserved_at_0[0xa0];
	uint8_t vxlan_vni[0x18];
	uint8_t reserved_at_b8[0x8];
	uint8_t reserved_at_c0[0x140];
};

/** The misc parameters 3 (prm/mlx5_eth §4.10): of them only the ICMP and ICMPv6 type and code. */
MLX5V_IFC(fte_match_set_misc3) {
	uint8_t reserved_at_0[0xc0];
	uint8_t icmp_header_data[0x20];
	uint8_t icmpv6_header_data[0x20];
	uint8_t icmp_type[0x8];
	uint8_t icmp_code[0x8];
	uint8_t icmpv6_type[0x8];
	uint8_t icmpv6_code[0x8];
	uint8_t reserved_at_120[0xe0];
};

MLX5V_IFC(fte_match_param) {
	MLX5V_IFC(fte_match_set_lyr_2_4) outer_headers;
	MLX5V_IFC(fte_match_set_misc) misc_parameters;
	MLX5V_IFC(fte_match_set_lyr_2_4) inner_headers;
	uint8_t misc_parameters_2[0x200];
	MLX5V_IFC(fte_match_set_misc3) misc_parameters_3;
	uint8_t misc_parameters_4[0x200];
	uint8_t misc_parameters_5[0x200];
	uint8_t reserved_at_e00[0x200];
};

MLX5V_IFC(create_flow_group_in) {
	MLX5V_IFC_FT_IN_FIELDS;
	uint8_t reserved_at_a0[0x8];
	uint8_t table_id[0x18];
	uint8_t reserved_at_c0[0x20];
	uint8_t start_flow_index[0x20];
	uint8_t reserved_at_100[0x20];
	uint8_t end_flow_index[0x20];
	uint8_t reserved_at_140[0xa0];
	uint8_t reserved_at_1e0[0x18];
	uint8_t match_criteria_enable[0x8];
	MLX5V_IFC(fte_match_param) match_criteria;
	uint8_t reserved_at_1200[0xe00];
};

MLX5V_IFC(flow_context) {
	uint8_t reserved_at_0[0x20];
	uint8_t group_id[0x20];
	uint8_t reserved_at_40[0x8];
	uint8_t flow_tag[0x18];
	uint8_t reserved_at_60[0x10];
	uint8_t action[0x10];
	uint8_t extended_destination[0x1];
	uint8_t reserved_at_81[0x7];
	uint8_t destination_list_size[0x18];
	uint8_t reserved_at_a0[0x8];
	uint8_t flow_counter_list_size[0x18];
	uint8_t reserved_at_c0[0x140];
	MLX5V_IFC(fte_match_param) match_value;
	uint8_t reserved_at_1200[0x600];
	/* destination[]: MLX5V_IFC(dest_format) each, from here. */
};

MLX5V_IFC(dest_format) {
	uint8_t destination_type[0x8];
	uint8_t destination_id[0x18];
	uint8_t reserved_at_20[0x20];
};

/* ---- Flow counters (prm/mlx5_eth §4.10) ---- */

MLX5V_IFC(alloc_flow_counter_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t flow_counter_id[0x20];
	uint8_t reserved_at_60[0x18];
	uint8_t flow_counter_bulk[0x8];
};

MLX5V_IFC(alloc_flow_counter_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t flow_counter_id[0x20];
	uint8_t reserved_at_60[0x20];
};

MLX5V_IFC(dealloc_flow_counter_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t flow_counter_id[0x20];
	uint8_t reserved_at_60[0x20];
};

MLX5V_IFC(query_flow_counter_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x80];
	uint8_t clear[0x1];
	uint8_t dump_to_memory[0x1];
	uint8_t num_of_counters[0x1e];
	uint8_t flow_counter_id[0x20];
};

/** One traffic_counter follows the header per counter queried. */
MLX5V_IFC(query_flow_counter_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	uint8_t packets[0x40];
	uint8_t octets[0x40];
};

/** An entry of the flow counter list, after the destinations of SET_FLOW_TABLE_ENTRY. */
MLX5V_IFC(flow_counter_list) {
	uint8_t flow_counter_id[0x20];
	uint8_t reserved_at_20[0x20];
};

/** SET_FLOW_TABLE_ENTRY; destinations follow at MLX5V_IFC_BYTES(set_fte_in). */
MLX5V_IFC(set_fte_in) {
	MLX5V_IFC_FT_IN_FIELDS;
	uint8_t reserved_at_a0[0x8];
	uint8_t table_id[0x18];
	uint8_t ignore_flow_level[0x1];
	uint8_t reserved_at_c1[0x17];
	uint8_t modify_enable_mask[0x8];
	uint8_t reserved_at_e0[0x20];
	uint8_t flow_index[0x20];
	uint8_t reserved_at_120[0xe0];
	MLX5V_IFC(flow_context) ctx;
};

/* ---- Vport (prm/mlx5_eth §4.3) ---- */

/** One entry of the vport address lists: 2 reserved bytes, then the MAC. */
MLX5V_IFC(mac_address_layout) {
	uint8_t reserved_at_0[0x10];
	uint8_t mac_addr_47_32[0x10];
	uint8_t mac_addr_31_0[0x20];
};

MLX5V_IFC(nic_vport_context) {
	uint8_t reserved_at_0[0x5];
	uint8_t min_wqe_inline_mode[0x3];
	uint8_t reserved_at_8[0x15];
	uint8_t disable_mc_local_lb[0x1];
	uint8_t disable_uc_local_lb[0x1];
	uint8_t roce_en[0x1];
	uint8_t arm_change_event[0x1];
	uint8_t reserved_at_21[0x1a];
	uint8_t event_on_mtu[0x1];
	uint8_t event_on_promisc_change[0x1];
	uint8_t event_on_vlan_change[0x1];
	uint8_t event_on_mc_address_change[0x1];
	uint8_t event_on_uc_address_change[0x1];
	uint8_t reserved_at_40[0xe0];
	uint8_t reserved_at_120[0x10];
	uint8_t mtu[0x10];
	uint8_t system_image_guid[0x40];
	uint8_t port_guid[0x40];
	uint8_t node_guid[0x40];
	uint8_t reserved_at_200[0x580];
	uint8_t promisc_uc[0x1];
	uint8_t promisc_mc[0x1];
	uint8_t promisc_all[0x1];
	uint8_t reserved_at_783[0x2];
	uint8_t allowed_list_type[0x3];
	uint8_t reserved_at_788[0xc];
	uint8_t allowed_list_size[0xc];
	MLX5V_IFC(mac_address_layout) permanent_address;
	uint8_t reserved_at_7e0[0x20];
	/* current_uc_mac_address[]: MLX5V_IFC(mac_address_layout) each, from here. */
};

#define MLX5V_VPORT_LIST_UC 0
#define MLX5V_VPORT_LIST_MC 1
#define MLX5V_VPORT_LIST_VLAN 2

MLX5V_IFC(query_nic_vport_context_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t other_vport[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t vport_number[0x10];
	uint8_t reserved_at_60[0x5];
	uint8_t allowed_list_type[0x3];
	uint8_t reserved_at_68[0x18];
};

/** QUERY_NIC_VPORT_CONTEXT output; the address list follows the context. */
MLX5V_IFC(query_nic_vport_context_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	MLX5V_IFC(nic_vport_context) ctx;
};

/** MODIFY_NIC_VPORT_CONTEXT; field_select_* say which context fields change. */
MLX5V_IFC(modify_nic_vport_context_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t other_vport[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t vport_number[0x10];
	uint8_t reserved_at_60[0x12];
	uint8_t field_select_affiliation[0x1];
	uint8_t reserved_at_73[0x1];
	uint8_t field_select_disable_uc_local_lb[0x1];
	uint8_t field_select_disable_mc_local_lb[0x1];
	uint8_t field_select_node_guid[0x1];
	uint8_t field_select_port_guid[0x1];
	uint8_t field_select_min_inline[0x1];
	uint8_t field_select_mtu[0x1];
	uint8_t field_select_change_event[0x1];
	uint8_t field_select_promisc[0x1];
	uint8_t field_select_permanent_address[0x1];
	uint8_t field_select_addresses_list[0x1];
	uint8_t field_select_roce_en[0x1];
	uint8_t reserved_at_7f[0x1];
	uint8_t reserved_at_80[0x780];
	MLX5V_IFC(nic_vport_context) ctx;
};

MLX5V_IFC(query_vport_state_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t other_vport[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t vport_number[0x10];
	uint8_t reserved_at_60[0x20];
};

MLX5V_IFC(query_vport_state_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x20];
	uint8_t reserved_at_60[0x18];
	uint8_t admin_state[0x4];
	uint8_t state[0x4];
};

#define MLX5V_VPORT_STATE_DOWN 0
#define MLX5V_VPORT_STATE_UP 1
#define MLX5V_VPORT_ADMIN_AUTO 2

/* ---- ACCESS_REGISTER and the port registers (prm/mlx5_eth §4.12, §11) ---- */

MLX5V_IFC(access_reg_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x10];
	uint8_t register_id[0x10];
	uint8_t argument[0x20];
	/* register data from here (byte 0x10), in and out. */
};

MLX5V_IFC(paos_reg) {
	uint8_t swid[0x8];
	uint8_t local_port[0x8];
	uint8_t reserved_at_10[0x4];
	uint8_t admin_status[0x4];
	uint8_t reserved_at_18[0x4];
	uint8_t oper_status[0x4];
	uint8_t ase[0x1];
	uint8_t ee[0x1];
	uint8_t reserved_at_22[0x1c];
	uint8_t e[0x2];
	uint8_t reserved_at_40[0x40];
};

MLX5V_IFC(pmtu_reg) {
	uint8_t reserved_at_0[0x8];
	uint8_t local_port[0x8];
	uint8_t reserved_at_10[0x10];
	uint8_t max_mtu[0x10];
	uint8_t reserved_at_30[0x10];
	uint8_t admin_mtu[0x10];
	uint8_t reserved_at_50[0x10];
	uint8_t oper_mtu[0x10];
	uint8_t reserved_at_70[0x10];
};

MLX5V_IFC(ptys_reg) {
	uint8_t reserved_at_0[0x1];
	uint8_t an_disable_admin[0x1];
	uint8_t an_disable_cap[0x1];
	uint8_t reserved_at_3[0x5];
	uint8_t local_port[0x8];
	uint8_t reserved_at_10[0x8];
	uint8_t plane_ind[0x4];
	uint8_t reserved_at_1c[0x1];
	uint8_t proto_mask[0x3];
	uint8_t an_status[0x4];
	uint8_t reserved_at_24[0xc];
	uint8_t data_rate_oper[0x10];
	uint8_t ext_eth_proto_capability[0x20];
	uint8_t eth_proto_capability[0x20];
	uint8_t ib_link_width_capability[0x10];
	uint8_t ib_proto_capability[0x10];
	uint8_t ext_eth_proto_admin[0x20];
	uint8_t eth_proto_admin[0x20];
	uint8_t ib_link_width_admin[0x10];
	uint8_t ib_proto_admin[0x10];
	uint8_t ext_eth_proto_oper[0x20];
	uint8_t eth_proto_oper[0x20];
	uint8_t ib_link_width_oper[0x10];
	uint8_t ib_proto_oper[0x10];
	uint8_t reserved_at_160[0x1c];
	uint8_t connector_type[0x4];
	uint8_t eth_proto_lp_advertise[0x20];
	uint8_t reserved_at_1a0[0x60];
};

/** PCAM (prm/mlx5_eth §11.3): the feature bit that says PTYS speaks in its extended fields. */
MLX5V_IFC(pcam_reg) {
	uint8_t reserved_at_0[0x8];
	uint8_t feature_group[0x8];
	uint8_t reserved_at_10[0x8];
	uint8_t access_reg_group[0x8];
	uint8_t reserved_at_20[0x192];
	uint8_t ptys_extended_ethernet[0x1];
	uint8_t reserved_at_1b3[0xcd];
};

/* ---- Capabilities (prm/mlx5_eth §3) ---- */

/** The Ethernet fields of the general capability (cmd_hca_cap, prm/mlx5_eth §3.2), 4 KiB. */
MLX5V_IFC(cmd_hca_cap_eth) {
	uint8_t reserved_at_0[0xe0];
	uint8_t reserved_at_e0[0xa];
	uint8_t log_max_mkey[0x6];
	uint8_t reserved_at_f0[0x6];
	uint8_t terminate_scatter_list_mkey[0x1];
	uint8_t reserved_at_f7[0x9];
	uint8_t reserved_at_100[0x60];
	uint8_t end_pad[0x1];
	uint8_t reserved_at_161[0x2];
	uint8_t start_pad[0x1];
	uint8_t cache_line_128byte[0x1];
	uint8_t reserved_at_165[0x1b];
	uint8_t reserved_at_180[0x1];
	uint8_t vport_counters[0x1];
	uint8_t reserved_at_182[0x4];
	uint8_t max_qp_cnt[0xa];
	uint8_t reserved_at_190[0x10];
	uint8_t vport_group_manager[0x1];
	uint8_t reserved_at_1a1[0x2];
	uint8_t eth_virt[0x1];
	uint8_t reserved_at_1a4[0x2];
	uint8_t nic_flow_table[0x1];
	uint8_t reserved_at_1a7[0x3];
	uint8_t pcam_reg[0x1];
	uint8_t reserved_at_1ab[0x9];
	uint8_t disable_link_up_by_init_hca[0x1];
	uint8_t reserved_at_1b5[0x1];
	uint8_t port_type[0x2];
	uint8_t num_ports[0x8];
	uint8_t reserved_at_1c0[0x20];
	uint8_t reserved_at_1e0[0x1c];
	uint8_t cqe_version[0x4];
	uint8_t reserved_at_200[0x1];
	uint8_t striding_rq[0x1];
	uint8_t reserved_at_202[0x1a];
	uint8_t eth_net_offloads[0x1];
	uint8_t reserved_at_21d[0x3];
	uint8_t reserved_at_220[0x2];
	uint8_t cq_moderation[0x1];
	uint8_t reserved_at_223[0x8];
	uint8_t cq_period_start_from_cqe[0x1];
	uint8_t reserved_at_22c[0x14];
	uint8_t uar_4k[0x1];
	uint8_t reserved_at_241[0x1f];
	uint8_t bf[0x1];
	uint8_t reserved_at_261[0xa];
	uint8_t log_bf_reg_size[0x5];
	uint8_t reserved_at_270[0x10];
	uint8_t reserved_at_280[0x10];
	uint8_t max_wqe_sz_sq[0x10];
	uint8_t reserved_at_2a0[0x10];
	uint8_t max_wqe_sz_rq[0x10];
	uint8_t reserved_at_2c0[0x60];
	uint8_t reserved_at_320[0x3];
	uint8_t log_max_transport_domain[0x5];
	uint8_t reserved_at_328[0x3];
	uint8_t log_max_pd[0x5];
	uint8_t reserved_at_330[0x10];
	uint8_t reserved_at_340[0x20];
	uint8_t reserved_at_360[0x3];
	uint8_t log_max_rq[0x5];
	uint8_t reserved_at_368[0x3];
	uint8_t log_max_sq[0x5];
	uint8_t reserved_at_370[0x3];
	uint8_t log_max_tir[0x5];
	uint8_t reserved_at_378[0x3];
	uint8_t log_max_tis[0x5];
	uint8_t basic_cyclic_rcv_wqe[0x1];
	uint8_t reserved_at_381[0xa];
	uint8_t log_max_rqt[0x5];
	uint8_t reserved_at_390[0x3];
	uint8_t log_max_rqt_size[0x5];
	uint8_t reserved_at_398[0x3];
	uint8_t log_max_tis_per_sq[0x5];
	uint8_t reserved_at_3a0[0x3];
	uint8_t log_max_stride_sz_rq[0x5];
	uint8_t reserved_at_3a8[0x3];
	uint8_t log_min_stride_sz_rq[0x5];
	uint8_t reserved_at_3b0[0x10];
	uint8_t reserved_at_3c0[0x1b];
	uint8_t log_max_wq_sz[0x5];
	uint8_t reserved_at_3e0[0x13];
	uint8_t log_max_current_mc_list[0x5];
	uint8_t reserved_at_3f8[0x3];
	uint8_t log_max_current_uc_list[0x5];
	uint8_t reserved_at_400[0x40];
	uint8_t sq_ts_format[0x2];
	uint8_t rq_ts_format[0x2];
	uint8_t reserved_at_444[0x1c];
	uint8_t reserved_at_460[0x20];
	uint8_t reserved_at_480[0x3];
	uint8_t log_max_l2_table[0x5];
	uint8_t reserved_at_488[0x18];
	uint8_t reserved_at_4a0[0x80];
	uint8_t num_of_uars_per_page[0x20];
	uint8_t flex_parser_protocols[0x20]; /**< MLX5V_FLEX_PARSER_* (prm/mlx5_eth §3.4) */
	uint8_t reserved_at_560[0x40];
	uint8_t reserved_at_5a0[0x19];
	uint8_t mini_cqe_resp_l3_l4_tag[0x1];
	uint8_t mini_cqe_resp_flow_tag[0x1];
	uint8_t enhanced_cqe_compression[0x1];
	uint8_t mini_cqe_resp_stride_index[0x1];
	uint8_t cqe_128_always[0x1];
	uint8_t cqe_compression_128[0x1];
	uint8_t cqe_compression[0x1];
	uint8_t reserved_at_5c0[0x7a40];
};

/** Capability type 1: per_protocol_networking_offload_caps (prm/mlx5_eth §3.3), 4 KiB. */
MLX5V_IFC(eth_offload_cap) {
	uint8_t csum_cap[0x1];
	uint8_t vlan_cap[0x1];
	uint8_t lro_cap[0x1];
	uint8_t lro_psh_flag[0x1];
	uint8_t lro_time_stamp[0x1];
	uint8_t reserved_at_5[0x2];
	uint8_t wqe_vlan_insert[0x1];
	uint8_t self_lb_en_modifiable[0x1];
	uint8_t reserved_at_9[0x2];
	uint8_t max_lso_cap[0x5];
	uint8_t multi_pkt_send_wqe[0x2];
	uint8_t wqe_inline_mode[0x2];
	uint8_t rss_ind_tbl_cap[0x4];
	uint8_t reg_umr_sq[0x1];
	uint8_t scatter_fcs[0x1];
	uint8_t enhanced_multi_pkt_send_wqe[0x1];
	uint8_t tunnel_lso_const_out_ip_id[0x1];
	uint8_t tunnel_lro_gre[0x1];
	uint8_t tunnel_lro_vxlan[0x1];
	uint8_t tunnel_stateless_gre[0x1];
	uint8_t tunnel_stateless_vxlan[0x1];
	uint8_t swp[0x1];
	uint8_t swp_csum[0x1];
	uint8_t swp_lso[0x1];
	uint8_t cqe_checksum_full[0x1];
	uint8_t reserved_at_24[0xc];
	uint8_t max_vxlan_udp_ports[0x8];
	uint8_t reserved_at_38[0x8];
	uint8_t reserved_at_40[0x10];
	uint8_t lro_min_mss_size[0x10];
	uint8_t reserved_at_60[0x7fa0];
};

/** ft_field_support (prm/mlx5_eth §3.4): the match fields a table type supports, one bit each. */
MLX5V_IFC(ft_fields_supported) {
	uint8_t outer_dmac[0x1];
	uint8_t reserved_at_1[0x18];
	uint8_t outer_vxlan_vni[0x1];
	uint8_t reserved_at_1a[0x6];
	uint8_t inner_dmac[0x1];
	uint8_t inner_smac[0x1];
	uint8_t inner_ether_type[0x1];
	uint8_t inner_ip_version[0x1];
	uint8_t inner_first_prio[0x1];
	uint8_t inner_first_cfi[0x1];
	uint8_t inner_first_vid[0x1];
	uint8_t reserved_at_27[0x5];
	uint8_t inner_sip[0x1];
	uint8_t inner_dip[0x1];
	uint8_t inner_frag[0x1];
	uint8_t inner_ip_protocol[0x1];
	uint8_t inner_ip_ecn[0x1];
	uint8_t inner_ip_dscp[0x1];
	uint8_t inner_udp_sport[0x1];
	uint8_t inner_udp_dport[0x1];
	uint8_t inner_tcp_sport[0x1];
	uint8_t inner_tcp_dport[0x1];
	uint8_t inner_tcp_flags[0x1];
	uint8_t reserved_at_37[0x49];
};

/** flow_table_prop_layout (prm/mlx5_eth §3.4), 64 bytes. */
MLX5V_IFC(flow_table_prop_layout) {
	uint8_t ft_support[0x1];
	uint8_t reserved_at_1[0x1];
	uint8_t flow_counter[0x1];
	uint8_t flow_modify_en[0x1];
	uint8_t modify_root[0x1];
	uint8_t reserved_at_5[0x1];
	uint8_t flow_table_modify[0x1];
	uint8_t reserved_at_7[0xe];
	uint8_t ignore_flow_level[0x1];
	uint8_t reserved_at_16[0xa];
	uint8_t reserved_at_20[0x2];
	uint8_t log_max_ft_size[0x6];
	uint8_t reserved_at_28[0x10];
	uint8_t max_ft_level[0x8];
	uint8_t reserved_at_40[0x20];
	uint8_t reserved_at_60[0x18];
	uint8_t log_max_ft_num[0x8];
	uint8_t reserved_at_80[0x10];
	uint8_t log_max_flow_counter[0x8];
	uint8_t log_max_destination[0x8];
	uint8_t reserved_at_a0[0x18];
	uint8_t log_max_flow[0x8];
	uint8_t reserved_at_c0[0x40];
	MLX5V_IFC(ft_fields_supported) ft_field_support;
	uint8_t ft_field_bitmask_support[0x80];
};

/** Capability type 7: flow_table_nic_cap (prm/mlx5_eth §3.4), 4 KiB. */
MLX5V_IFC(flow_table_nic_cap) {
	uint8_t reserved_at_0[0x200];
	MLX5V_IFC(flow_table_prop_layout) flow_table_properties_nic_receive;
	uint8_t reserved_at_400[0x400];
	MLX5V_IFC(flow_table_prop_layout) flow_table_properties_nic_transmit;
	uint8_t reserved_at_a00[0x7600];
};

/* ---- Send WQE (prm/mlx5_eth §6.1 - §6.5) ---- */

/** WQE basic block and data segment (DS) sizes, in bytes (prm/mlx5_eth §6.1). */
#define MLX5V_WQE_BB 64u
#define MLX5V_WQE_DS 16u
/** A WQE has at most 63 DS: the DS count is 6 bits (prm/mlx5_eth §6.1). */
#define MLX5V_WQE_MAX_DS 63u

/** Control segment opcodes (prm/mlx5_eth §6.2). */
#define MLX5V_WQE_OPC_NOP 0x00
#define MLX5V_WQE_OPC_SEND 0x0a
#define MLX5V_WQE_OPC_LSO 0x0e
/** Enhanced multi-packet send (prm/mlx5_empw §2.1): opmod 0, one DS per packet. */
#define MLX5V_WQE_OPC_EMPW 0x29
/** Completion modes of ``ce`` (prm/mlx5_eth §6.2): CQE on error only, on the first, always. */
#define MLX5V_WQE_CE_ERROR 0
#define MLX5V_WQE_CE_FIRST_ERROR 1
#define MLX5V_WQE_CE_ALWAYS 2
#define MLX5V_WQE_CE_AND_EQE 3
/**
 * The inline header that L2 inline mode requires: Ethernet header + one VLAN tag
 * (prm/mlx5_eth §6.4).
 */
#define MLX5V_WQE_L2_INLINE 18u

/** Control segment, 16 bytes at WQE offset 0 (prm/mlx5_eth §6.2). */
MLX5V_IFC(wqe_ctrl_seg) {
	uint8_t opmod[0x8];
	uint8_t wqe_index[0x10];
	uint8_t opcode[0x8];
	uint8_t sqn[0x18];
	uint8_t reserved_at_38[0x2];
	uint8_t ds[0x6];
	uint8_t signature[0x8];
	uint8_t reserved_at_48[0x10];
	uint8_t fence_mode[0x3];
	uint8_t reserved_at_5b[0x1];
	uint8_t ce[0x2];
	uint8_t se[0x1];
	uint8_t reserved_at_5f[0x1];
	uint8_t imm[0x20];
};

/**
 * Ethernet segment, 16 bytes at WQE offset 0x10 (prm/mlx5_eth §6.3); the inline header starts in
 * its last two bytes and continues in the next DS, padded to whole DS.
 */
MLX5V_IFC(wqe_eth_seg) {
	uint8_t swp_offs[0x20];
	uint8_t l4_csum[0x1];
	uint8_t l3_csum[0x1];
	uint8_t inner_l4_csum[0x1];
	uint8_t inner_l3_csum[0x1];
	uint8_t reserved_at_24[0x4];
	uint8_t swp_flags[0x8];
	uint8_t mss[0x10];
	uint8_t flow_metadata[0x20];
	uint8_t inline_hdr_sz[0x10];
	uint8_t inline_hdr_start[0x10];
};

/**
 * The Ethernet segment when it asks for VLAN insertion instead of an inline header
 * (prm/mlx5_eth §6.3).
 */
MLX5V_IFC(wqe_eth_seg_vlan) {
	uint8_t reserved_at_0[0x60];
	uint8_t insert_vlan[0x1];
	uint8_t reserved_at_61[0xe];
	uint8_t svlan[0x1];
	uint8_t vlan_tci[0x10];
};

/**
 * Data segment, 16 bytes (prm/mlx5_eth §6.5); the receive WQE is a list of them
 * (prm/mlx5_eth §7.1).
 */
MLX5V_IFC(wqe_data_seg) {
	uint8_t byte_count[0x20];
	uint8_t lkey[0x20];
	uint8_t addr[0x40];
};

/** Inline data segment (prm/mlx5_eth §6.5): the bytes follow byte_count, padded to whole DS. */
MLX5V_IFC(wqe_inline_seg) {
	uint8_t is_inline[0x1];
	uint8_t byte_count[0x1f];
	uint8_t data[][0x8];
};

/** byte_count bit 31 of a data segment: an inline data segment (prm/mlx5_eth §6.5). */
#define MLX5V_WQE_DSEG_INLINE 0x80000000u

/* ---- Ethernet CQE (prm/mlx5_eth §8.2 - §8.4) ---- */

/** CQE l3_hdr_type, l4_hdr_type (prm/mlx5_eth §8.2). */
#define MLX5V_CQE_L3_NONE 0
#define MLX5V_CQE_L3_IPV6 1
#define MLX5V_CQE_L3_IPV4 2
#define MLX5V_CQE_L4_NONE 0
#define MLX5V_CQE_L4_TCP 1
#define MLX5V_CQE_L4_UDP 2
#define MLX5V_CQE_L4_TCP_ACK 3
#define MLX5V_CQE_L4_TCP_ACK_DATA 4
/** CQE rss_ip_type and rss_l4_type (prm/mlx5_eth §8.2). */
#define MLX5V_CQE_RSS_IPV4 1
#define MLX5V_CQE_RSS_IPV6 2
#define MLX5V_CQE_RSS_TCP 1
#define MLX5V_CQE_RSS_UDP 2
#define MLX5V_CQE_RSS_SPI 3
/** Error CQE syndromes of an Ethernet queue (prm/mlx5_eth §8.4). */
#define MLX5V_CQE_SYND_LOCAL_LENGTH 0x01
#define MLX5V_CQE_SYND_LOCAL_QP_OP 0x02
#define MLX5V_CQE_SYND_LOCAL_PROT 0x04
#define MLX5V_CQE_SYND_WR_FLUSH 0x05

/**
 * The 64-byte CQE of an Ethernet send or receive completion (prm/mlx5_eth §8.2). Its common fields
 * sit where the generic layout (mlx5v_prm_eq.h, prm/mlx5 §7.4) puts them.
 */
MLX5V_IFC(cqe_eth) {
	uint8_t reserved_at_0[0x7];
	uint8_t tunneled[0x1];
	uint8_t reserved_at_8[0x8];
	uint8_t wqe_id[0x10];
	uint8_t reserved_at_20[0x40];
	uint8_t rss_hash_result[0x20];
	uint8_t rss_l4_type[0x2];
	uint8_t reserved_at_82[0x2];
	uint8_t rss_ip_type[0x2];
	uint8_t reserved_at_86[0x2];
	uint8_t reserved_at_88[0x18];
	uint8_t check_sum[0x10];
	uint8_t reserved_at_b0[0x30];
	uint8_t reserved_at_e0[0x5];
	uint8_t l4_ok[0x1];
	uint8_t l3_ok[0x1];
	uint8_t l2_ok[0x1];
	uint8_t ip_frag[0x1];
	uint8_t l4_hdr_type[0x3];
	uint8_t l3_hdr_type[0x2];
	uint8_t ip_options[0x1];
	uint8_t cvlan_stripped[0x1];
	uint8_t vlan_info[0x10];
	uint8_t lro_num_seg[0x8];
	uint8_t user_index[0x18];
	uint8_t flow_metadata[0x20];
	uint8_t reserved_at_140[0x20];
	uint8_t byte_cnt[0x20];
	uint8_t timestamp[0x40];
	uint8_t sop[0x8];               /* send: the WQE opcode */
	uint8_t qpn[0x18];              /* send: the SQN; receive: the flow tag */
	uint8_t wqe_counter[0x10];
	uint8_t signature[0x8];
	uint8_t opcode[0x4];
	uint8_t cqe_format[0x2];
	uint8_t se[0x1];
	uint8_t owner[0x1];
};

/** An error CQE (prm/mlx5_eth §8.4): the syndromes take the place of the timestamp's last bytes. */
MLX5V_IFC(cqe_err) {
	uint8_t reserved_at_0[0x108];
	uint8_t user_index[0x18];
	uint8_t reserved_at_120[0x90];
	uint8_t vendor_err_synd[0x8];
	uint8_t syndrome[0x8];
	uint8_t s_wqe_opcode[0x8];
	uint8_t qpn[0x18];
	uint8_t wqe_counter[0x10];
	uint8_t signature[0x8];
	uint8_t opcode[0x4];
	uint8_t reserved_at_1fc[0x3];
	uint8_t owner[0x1];
};

/*
 * CQE compression (prm/mlx5_eth §8.5): cqe_format 3 marks the title CQE of a session; its byte_cnt
 * is the number of mini-CQEs, eight to a 64-byte slot, which carry each frame's byte count and the
 * cqc.mini_cqe_res_format field; the title's other fields hold for the whole session.
 */
#define MLX5V_CQE_FORMAT_COMPRESSED 3
#define MLX5V_MINI_CQE_FMT_HASH 0   /**< rx_hash_result + byte_cnt */
#define MLX5V_MINI_CQE_FMT_CSUM 1   /**< check_sum + stride_idx + byte_cnt */
#define MLX5V_MINI_CQE_FMT_FTAG 2   /**< flow tag + stride_idx + 24-bit byte_cnt */
#define MLX5V_MINI_CQE_FMT_CSUM_STRIDX 3 /**< as CSUM */
/**
 * L3/L4 header types + stride_idx + byte_cnt: mini_cqe_res_format 0 with
 * mini_cqe_res_format_ext 1 (caps mini_cqe_resp_l3_l4_tag); the value here is
 * format | ext << 2.
 */
#define MLX5V_MINI_CQE_FMT_L34H 4
#define MLX5V_MINI_CQE_PER_SLOT 8

/** A mini-CQE of the HASH format (prm/mlx5_eth §8.5). */
MLX5V_IFC(mini_cqe_hash) {
	uint8_t rx_hash_result[0x20];
	uint8_t byte_cnt[0x20];
};

/**
 * A mini-CQE of the FTAG format (prm/mlx5_eth §8.5): the flow tag's bits 15:0, then its bits 23:16
 * above a 24-bit byte count.
 */
MLX5V_IFC(mini_cqe_ftag) {
	uint8_t flow_tag_15_0[0x10];
	uint8_t stride_idx[0x10];
	uint8_t flow_tag_23_16[0x8];
	uint8_t byte_cnt[0x18];
};

/**
 * A mini-CQE of the L3/L4 header format (prm/mlx5_eth §8.5): hdr_type is the CQE's byte 0x1d
 * (ip_frag, l4_hdr_type, l3_hdr_type, ip_options, cvlan_stripped) of the frame.
 */
MLX5V_IFC(mini_cqe_l34h) {
	uint8_t reserved_at_0[0x8];
	uint8_t hdr_type[0x8];
	uint8_t stride_idx[0x10];
	uint8_t byte_cnt[0x20];
};

/** A mini-CQE of the CSUM format (prm/mlx5_eth §8.5). */
MLX5V_IFC(mini_cqe_csum) {
	uint8_t check_sum[0x10];
	uint8_t stride_idx[0x10];
	uint8_t byte_cnt[0x20];
};

/* ---- Offsets checked against prm/mlx5_eth (dwords of the command or context) ---- */
MLX5V_IFC_ASSERT(eth_obj_out, obj_id, 2, 23, 0);
MLX5V_IFC_ASSERT(alloc_q_counter_out, counter_set_id, 2, 7, 0);
MLX5V_IFC_ASSERT(query_q_counter_in, clear, 6, 31, 31);
MLX5V_IFC_ASSERT(query_q_counter_in, counter_set_id, 7, 7, 0);
MLX5V_IFC_ASSERT(query_q_counter_out, out_of_buffer, 12, 31, 0);
MLX5V_IFC_ASSERT_BYTES(query_q_counter_in, 0x20);
MLX5V_IFC_ASSERT_BYTES(query_q_counter_out, 0x100);
MLX5V_IFC_ASSERT(query_special_contexts_out, resd_lkey, 3, 31, 0);
MLX5V_IFC_ASSERT(query_special_contexts_out, terminate_scatter_list_mkey, 5, 31, 0);
MLX5V_IFC_ASSERT_BYTES(query_special_contexts_out, 0x20);
MLX5V_IFC_ASSERT(create_mkey_in, pg_access, 3, 31, 31);
MLX5V_IFC_ASSERT(create_mkey_in, mkc.free, 4, 30, 30);
MLX5V_IFC_ASSERT(create_mkey_in, mkc.umr_en, 4, 15, 15);
MLX5V_IFC_ASSERT(create_mkey_in, mkc.lw, 4, 11, 11);
MLX5V_IFC_ASSERT(create_mkey_in, mkc.access_mode_1_0, 4, 9, 8);
MLX5V_IFC_ASSERT(create_mkey_in, mkc.mkey_7_0, 5, 7, 0);
MLX5V_IFC_ASSERT(create_mkey_in, mkc.length64, 7, 31, 31);
MLX5V_IFC_ASSERT(create_mkey_in, mkc.pd, 7, 23, 0);
MLX5V_IFC_ASSERT(create_mkey_in, mkc.translations_octword_size, 17, 31, 0);
MLX5V_IFC_ASSERT(create_mkey_in, mkc.log_page_size, 18, 5, 0);
MLX5V_IFC_ASSERT(create_mkey_in, translations_octword_actual_size, 24, 31, 0);
MLX5V_IFC_ASSERT_BYTES(create_mkey_in, 0x110);
MLX5V_IFC_ASSERT(create_tis_in, ctx.prio, 8, 19, 16);
MLX5V_IFC_ASSERT(create_tis_in, ctx.transport_domain, 17, 23, 0);
MLX5V_IFC_ASSERT_BYTES(create_tis_in, 0xc0);
MLX5V_IFC_ASSERT(create_sq_in, ctx.flush_in_error_en, 8, 28, 28);
MLX5V_IFC_ASSERT(create_sq_in, ctx.min_wqe_inline_mode, 8, 26, 24);
MLX5V_IFC_ASSERT(create_sq_in, ctx.state, 8, 23, 20);
MLX5V_IFC_ASSERT(create_sq_in, ctx.ts_format, 8, 5, 4);
MLX5V_IFC_ASSERT(create_sq_in, ctx.cqn, 10, 23, 0);
MLX5V_IFC_ASSERT(create_sq_in, ctx.packet_pacing_rate_limit_index, 15, 15, 0);
MLX5V_IFC_ASSERT(create_sq_in, ctx.tis_lst_sz, 16, 31, 16);
MLX5V_IFC_ASSERT(create_sq_in, ctx.tis_num_0, 19, 23, 0);
MLX5V_IFC_ASSERT(create_sq_in, ctx.wq.wq_type, 20, 31, 28);
MLX5V_IFC_ASSERT(create_sq_in, ctx.wq.pd, 22, 23, 0);
MLX5V_IFC_ASSERT(create_sq_in, ctx.wq.uar_page, 23, 23, 0);
MLX5V_IFC_ASSERT(create_sq_in, ctx.wq.log_wq_stride, 28, 19, 16);
MLX5V_IFC_ASSERT(create_sq_in, ctx.wq.log_wq_pg_sz, 28, 12, 8);
MLX5V_IFC_ASSERT(create_sq_in, ctx.wq.log_wq_sz, 28, 4, 0);
MLX5V_IFC_ASSERT(create_sq_in, ctx.wq.dbr_umem_valid, 29, 31, 31);
MLX5V_IFC_ASSERT_BYTES(create_sq_in, 0x110);
MLX5V_IFC_ASSERT(create_rq_in, ctx.vsd, 8, 28, 28);
MLX5V_IFC_ASSERT(create_rq_in, ctx.flush_in_error_en, 8, 18, 18);
MLX5V_IFC_ASSERT(create_rq_in, ctx.counter_set_id, 11, 31, 24);
MLX5V_IFC_ASSERT(create_rq_in, ctx.rmpn, 12, 23, 0);
MLX5V_IFC_ASSERT(create_rq_in, ctx.wq.end_padding_mode, 20, 26, 25);
MLX5V_IFC_ASSERT_BYTES(create_rq_in, 0x110);
MLX5V_IFC_ASSERT(modify_sq_in, sq_state, 2, 31, 28);
MLX5V_IFC_ASSERT(modify_rq_in, rqn, 2, 23, 0);
MLX5V_IFC_ASSERT(modify_rq_in, ctx.state, 8, 23, 20);
MLX5V_IFC_ASSERT(create_rqt_in, ctx.list_q_type, 13, 26, 24);
MLX5V_IFC_ASSERT(create_rqt_in, ctx.rqt_max_size, 13, 15, 0);
MLX5V_IFC_ASSERT(create_rqt_in, ctx.rqt_actual_size, 14, 15, 0);
MLX5V_IFC_ASSERT_BYTES(create_rqt_in, 0x110);
MLX5V_IFC_ASSERT(create_tir_in, ctx.disp_type, 9, 31, 28);
MLX5V_IFC_ASSERT(create_tir_in, ctx.packet_merge_mask, 12, 11, 8);
MLX5V_IFC_ASSERT(create_tir_in, ctx.inline_rqn, 15, 23, 0);
MLX5V_IFC_ASSERT(create_tir_in, ctx.indirect_table, 16, 23, 0);
MLX5V_IFC_ASSERT(create_tir_in, ctx.rx_hash_fn, 17, 31, 28);
MLX5V_IFC_ASSERT(create_tir_in, ctx.self_lb_block, 17, 25, 24);
MLX5V_IFC_ASSERT(create_tir_in, ctx.transport_domain, 17, 23, 0);
MLX5V_IFC_ASSERT(create_tir_in, ctx.hash_outer_selected_fields, 28, 29, 0);
MLX5V_IFC_ASSERT_BYTES(create_tir_in, 0x110);
MLX5V_IFC_ASSERT(create_flow_table_in, table_type, 4, 31, 24);
MLX5V_IFC_ASSERT(create_flow_table_in, ctx.table_miss_action, 6, 27, 24);
MLX5V_IFC_ASSERT(create_flow_table_in, ctx.level, 6, 23, 16);
MLX5V_IFC_ASSERT(create_flow_table_in, ctx.log_size, 6, 7, 0);
MLX5V_IFC_ASSERT(create_flow_table_in, ctx.table_miss_id, 7, 23, 0);
MLX5V_IFC_ASSERT_BYTES(create_flow_table_in, 0x40);
MLX5V_IFC_ASSERT(flow_table_obj_in, table_id, 5, 23, 0);
MLX5V_IFC_ASSERT(flow_table_obj_in, group_id, 6, 31, 0);
MLX5V_IFC_ASSERT(flow_table_obj_in, flow_index, 8, 31, 0);
MLX5V_IFC_ASSERT_BYTES(flow_table_obj_in, 0x40);
MLX5V_IFC_ASSERT(create_flow_group_in, start_flow_index, 7, 31, 0);
MLX5V_IFC_ASSERT(create_flow_group_in, end_flow_index, 9, 31, 0);
MLX5V_IFC_ASSERT(create_flow_group_in, match_criteria_enable, 15, 7, 0);
MLX5V_IFC_ASSERT(create_flow_group_in, match_criteria.outer_headers.dmac_47_16, 18, 31, 0);
MLX5V_IFC_ASSERT_BYTES(create_flow_group_in, 0x400);
MLX5V_IFC_ASSERT(set_fte_in, ignore_flow_level, 6, 31, 31);
MLX5V_IFC_ASSERT(set_fte_in, flow_index, 8, 31, 0);
MLX5V_IFC_ASSERT(set_fte_in, ctx.group_id, 17, 31, 0);
MLX5V_IFC_ASSERT(set_fte_in, ctx.flow_tag, 18, 23, 0);
MLX5V_IFC_ASSERT(alloc_flow_counter_out, flow_counter_id, 2, 31, 0);
MLX5V_IFC_ASSERT(dealloc_flow_counter_in, flow_counter_id, 2, 31, 0);
MLX5V_IFC_ASSERT(query_flow_counter_in, clear, 6, 31, 31);
MLX5V_IFC_ASSERT(query_flow_counter_in, flow_counter_id, 7, 31, 0);
MLX5V_IFC_ASSERT_BYTES(query_flow_counter_in, 0x20);
MLX5V_IFC_ASSERT_BYTES(query_flow_counter_out, 0x20);
MLX5V_IFC_ASSERT_BYTES(flow_counter_list, 0x8);
MLX5V_IFC_ASSERT(set_fte_in, ctx.action, 19, 15, 0);
MLX5V_IFC_ASSERT(set_fte_in, ctx.destination_list_size, 20, 23, 0);
MLX5V_IFC_ASSERT(set_fte_in, ctx.match_value.outer_headers.dmac_47_16, 34, 31, 0);
MLX5V_IFC_ASSERT_BYTES(set_fte_in, 0x340);
MLX5V_IFC_ASSERT(fte_match_set_lyr_2_4, ip_version, 4, 12, 9);
MLX5V_IFC_ASSERT(fte_match_set_lyr_2_4, ttl_hoplimit, 6, 7, 0);
MLX5V_IFC_ASSERT_BYTES(fte_match_param, 0x200);
MLX5V_IFC_ASSERT(fte_match_param, misc_parameters.vxlan_vni, 21, 31, 8);
MLX5V_IFC_ASSERT(fte_match_param, inner_headers.dmac_47_16, 34, 31, 0);
MLX5V_IFC_ASSERT(fte_match_param, misc_parameters_3.icmp_type, 72, 31, 24);
MLX5V_IFC_ASSERT(fte_match_param, misc_parameters_3.icmpv6_code, 72, 7, 0);
MLX5V_IFC_ASSERT_BYTES(ft_fields_supported, 0x10);
MLX5V_IFC_ASSERT(query_nic_vport_context_in, allowed_list_type, 3, 26, 24);
MLX5V_IFC_ASSERT(query_nic_vport_context_out, ctx.mtu, 13, 15, 0);
MLX5V_IFC_ASSERT(query_nic_vport_context_out, ctx.promisc_uc, 64, 31, 31);
MLX5V_IFC_ASSERT(query_nic_vport_context_out, ctx.allowed_list_size, 64, 11, 0);
MLX5V_IFC_ASSERT(query_nic_vport_context_out, ctx.permanent_address.mac_addr_47_32,
		 65, 15, 0);
MLX5V_IFC_ASSERT_BYTES(query_nic_vport_context_out, 0x110);
MLX5V_IFC_ASSERT(modify_nic_vport_context_in, field_select_mtu, 3, 6, 6);
MLX5V_IFC_ASSERT(modify_nic_vport_context_in, field_select_promisc, 3, 4, 4);
MLX5V_IFC_ASSERT(modify_nic_vport_context_in, field_select_addresses_list, 3, 2, 2);
MLX5V_IFC_ASSERT(modify_nic_vport_context_in, field_select_roce_en, 3, 1, 1);
MLX5V_IFC_ASSERT(modify_nic_vport_context_in, ctx.roce_en, 64, 0, 0);
MLX5V_IFC_ASSERT(modify_nic_vport_context_in, ctx.promisc_all, 124, 29, 29);
MLX5V_IFC_ASSERT_BYTES(modify_nic_vport_context_in, 0x200);
MLX5V_IFC_ASSERT(query_vport_state_out, state, 3, 3, 0);
MLX5V_IFC_ASSERT(paos_reg, admin_status, 0, 11, 8);
MLX5V_IFC_ASSERT(paos_reg, ase, 1, 31, 31);
MLX5V_IFC_ASSERT(pmtu_reg, admin_mtu, 2, 31, 16);
MLX5V_IFC_ASSERT(ptys_reg, proto_mask, 0, 2, 0);
MLX5V_IFC_ASSERT(ptys_reg, eth_proto_admin, 6, 31, 0);
MLX5V_IFC_ASSERT(ptys_reg, eth_proto_oper, 9, 31, 0);
MLX5V_IFC_ASSERT(ptys_reg, connector_type, 11, 3, 0);
MLX5V_IFC_ASSERT_BYTES(paos_reg, 0x10);
MLX5V_IFC_ASSERT_BYTES(pmtu_reg, 0x10);
MLX5V_IFC_ASSERT_BYTES(ptys_reg, 0x40);
MLX5V_IFC_ASSERT_BYTES(pcam_reg, 0x50);
MLX5V_IFC_ASSERT(pcam_reg, ptys_extended_ethernet, 13, 13, 13);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, log_max_mkey, 7, 21, 16);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, terminate_scatter_list_mkey, 7, 9, 9);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, max_qp_cnt, 12, 25, 16);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, nic_flow_table, 13, 25, 25);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, pcam_reg, 13, 21, 21);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, disable_link_up_by_init_hca, 13, 11, 11);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, port_type, 13, 9, 8);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, eth_net_offloads, 16, 3, 3);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, log_bf_reg_size, 19, 20, 16);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, max_wqe_sz_rq, 21, 15, 0);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, log_max_pd, 25, 20, 16);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, log_max_tis, 27, 4, 0);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, log_max_rqt_size, 28, 12, 8);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, log_max_wq_sz, 30, 4, 0);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, log_max_current_uc_list, 31, 4, 0);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, sq_ts_format, 34, 31, 30);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, mini_cqe_resp_l3_l4_tag, 45, 6, 6);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, mini_cqe_resp_flow_tag, 45, 5, 5);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, enhanced_cqe_compression, 45, 4, 4);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, mini_cqe_resp_stride_index, 45, 3, 3);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, cqe_128_always, 45, 2, 2);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, cqe_compression_128, 45, 1, 1);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, cqe_compression, 45, 0, 0);
MLX5V_IFC_ASSERT_BYTES(cmd_hca_cap_eth, 0x1000);
MLX5V_IFC_ASSERT(eth_offload_cap, wqe_inline_mode, 0, 13, 12);
MLX5V_IFC_ASSERT(eth_offload_cap, scatter_fcs, 0, 6, 6);
MLX5V_IFC_ASSERT(eth_offload_cap, max_vxlan_udp_ports, 1, 15, 8);
MLX5V_IFC_ASSERT_BYTES(eth_offload_cap, 0x1000);
MLX5V_IFC_ASSERT(flow_table_nic_cap, flow_table_properties_nic_receive.ft_support,
		 16, 31, 31);
MLX5V_IFC_ASSERT(flow_table_nic_cap, flow_table_properties_nic_receive.ignore_flow_level,
		 16, 10, 10);
MLX5V_IFC_ASSERT(flow_table_nic_cap, flow_table_properties_nic_receive.max_ft_level,
		 17, 7, 0);
MLX5V_IFC_ASSERT(flow_table_nic_cap, flow_table_properties_nic_receive.log_max_destination,
		 20, 7, 0);
MLX5V_IFC_ASSERT(flow_table_nic_cap,
		 flow_table_properties_nic_receive.ft_field_support.outer_vxlan_vni, 24, 6, 6);
MLX5V_IFC_ASSERT(flow_table_nic_cap,
		 flow_table_properties_nic_receive.ft_field_support.inner_tcp_flags, 25, 9, 9);
MLX5V_IFC_ASSERT(cmd_hca_cap_eth, flex_parser_protocols, 42, 31, 0);
MLX5V_IFC_ASSERT(flow_table_nic_cap, flow_table_properties_nic_transmit.ft_support,
		 64, 31, 31);
MLX5V_IFC_ASSERT_BYTES(flow_table_nic_cap, 0x1000);

/* Send WQE segments and Ethernet CQEs: prm/mlx5_eth §6.2 - §6.5, §8.2, §8.4 */
MLX5V_IFC_ASSERT_BYTES(wqe_ctrl_seg, MLX5V_WQE_DS);
MLX5V_IFC_ASSERT(wqe_ctrl_seg, wqe_index, 0, 23, 8);
MLX5V_IFC_ASSERT(wqe_ctrl_seg, opcode, 0, 7, 0);
MLX5V_IFC_ASSERT(wqe_ctrl_seg, sqn, 1, 31, 8);
MLX5V_IFC_ASSERT(wqe_ctrl_seg, ds, 1, 5, 0);
MLX5V_IFC_ASSERT(wqe_ctrl_seg, fence_mode, 2, 7, 5);
MLX5V_IFC_ASSERT(wqe_ctrl_seg, ce, 2, 3, 2);
MLX5V_IFC_ASSERT_SPAN(wqe_ctrl_seg, imm, 0x0c, 4);
MLX5V_IFC_ASSERT_BYTES(wqe_eth_seg, MLX5V_WQE_DS);
MLX5V_IFC_ASSERT(wqe_eth_seg, l4_csum, 1, 31, 31);
MLX5V_IFC_ASSERT(wqe_eth_seg, l3_csum, 1, 30, 30);
MLX5V_IFC_ASSERT_SPAN(wqe_eth_seg, mss, 0x06, 2);
MLX5V_IFC_ASSERT_SPAN(wqe_eth_seg, inline_hdr_sz, 0x0c, 2);
MLX5V_IFC_ASSERT_SPAN(wqe_eth_seg, inline_hdr_start, 0x0e, 2);
MLX5V_IFC_ASSERT_BYTES(wqe_eth_seg_vlan, MLX5V_WQE_DS);
MLX5V_IFC_ASSERT(wqe_eth_seg_vlan, insert_vlan, 3, 31, 31);
MLX5V_IFC_ASSERT(wqe_eth_seg_vlan, svlan, 3, 16, 16);
MLX5V_IFC_ASSERT(wqe_eth_seg_vlan, vlan_tci, 3, 15, 0);
MLX5V_IFC_ASSERT_BYTES(wqe_data_seg, MLX5V_WQE_DS);
MLX5V_IFC_ASSERT_SPAN(wqe_data_seg, byte_count, 0x00, 4);
MLX5V_IFC_ASSERT_SPAN(wqe_data_seg, lkey, 0x04, 4);
MLX5V_IFC_ASSERT_SPAN(wqe_data_seg, addr, 0x08, 8);
MLX5V_IFC_ASSERT(wqe_inline_seg, is_inline, 0, 31, 31);
MLX5V_IFC_ASSERT_OFF(wqe_inline_seg, data, 0x04);
MLX5V_IFC_ASSERT_BYTES(cqe_eth, 0x40);
MLX5V_IFC_ASSERT(cqe_eth, tunneled, 0, 24, 24);
MLX5V_IFC_ASSERT_SPAN(cqe_eth, wqe_id, 0x02, 2);
MLX5V_IFC_ASSERT_SPAN(cqe_eth, rss_hash_result, 0x0c, 4);
MLX5V_IFC_ASSERT(cqe_eth, rss_l4_type, 4, 31, 30);
MLX5V_IFC_ASSERT(cqe_eth, rss_ip_type, 4, 27, 26);
MLX5V_IFC_ASSERT_SPAN(cqe_eth, check_sum, 0x14, 2);
MLX5V_IFC_ASSERT(cqe_eth, l2_ok, 7, 24, 24);
MLX5V_IFC_ASSERT(cqe_eth, l3_ok, 7, 25, 25);
MLX5V_IFC_ASSERT(cqe_eth, l4_ok, 7, 26, 26);
MLX5V_IFC_ASSERT(cqe_eth, cvlan_stripped, 7, 16, 16);
MLX5V_IFC_ASSERT(cqe_eth, ip_options, 7, 17, 17);
MLX5V_IFC_ASSERT(cqe_eth, l3_hdr_type, 7, 19, 18);
MLX5V_IFC_ASSERT(cqe_eth, l4_hdr_type, 7, 22, 20);
MLX5V_IFC_ASSERT(cqe_eth, ip_frag, 7, 23, 23);
MLX5V_IFC_ASSERT_SPAN(cqe_eth, vlan_info, 0x1e, 2);
MLX5V_IFC_ASSERT(cqe_eth, user_index, 8, 23, 0);
MLX5V_IFC_ASSERT_SPAN(cqe_eth, flow_metadata, 0x24, 4);
MLX5V_IFC_ASSERT_SPAN(cqe_eth, timestamp, 0x30, 8);
MLX5V_IFC_ASSERT(cqe_eth, sop, 14, 31, 24);
MLX5V_IFC_ASSERT(cqe_eth, qpn, 14, 23, 0);
MLX5V_IFC_ASSERT(cqe_eth, cqe_format, 15, 3, 2);
MLX5V_IFC_ASSERT_SPAN(cqe_eth, check_sum, 0x14, 2);
MLX5V_IFC_ASSERT_BYTES(mini_cqe_hash, 8);
MLX5V_IFC_ASSERT_BYTES(mini_cqe_csum, 8);
MLX5V_IFC_ASSERT(mini_cqe_hash, byte_cnt, 1, 31, 0);
MLX5V_IFC_ASSERT(mini_cqe_csum, check_sum, 0, 31, 16);
MLX5V_IFC_ASSERT(mini_cqe_csum, byte_cnt, 1, 31, 0);
MLX5V_IFC_ASSERT_BYTES(mini_cqe_ftag, 8);
MLX5V_IFC_ASSERT(mini_cqe_ftag, flow_tag_23_16, 1, 31, 24);
MLX5V_IFC_ASSERT(mini_cqe_ftag, byte_cnt, 1, 23, 0);
MLX5V_IFC_ASSERT_BYTES(mini_cqe_l34h, 8);
MLX5V_IFC_ASSERT(mini_cqe_l34h, hdr_type, 0, 23, 16);
MLX5V_IFC_ASSERT(mini_cqe_l34h, byte_cnt, 1, 31, 0);
/* The L3/L4 mini-CQE's hdr_type is the byte of the CQE whose types it replaces. */
_Static_assert(MLX5V_IFC_BIT_OFF(cqe_eth, ip_frag) % 8 == 0 &&
	       MLX5V_IFC_BIT_OFF(cqe_eth, cvlan_stripped) ==
	       MLX5V_IFC_BIT_OFF(cqe_eth, ip_frag) + 7, "CQE byte 0x1d");
_Static_assert(MLX5V_MINI_CQE_PER_SLOT * MLX5V_IFC_BYTES(mini_cqe_hash) == MLX5V_IFC_BYTES(cqe_eth),
	       "eight mini-CQEs fill one CQE slot");
MLX5V_IFC_ASSERT_BYTES(cqe_err, 0x40);
MLX5V_IFC_ASSERT_SPAN(cqe_err, vendor_err_synd, 0x36, 1);
MLX5V_IFC_ASSERT_SPAN(cqe_err, syndrome, 0x37, 1);
MLX5V_IFC_ASSERT(cqe_err, user_index, 8, 23, 0);
MLX5V_IFC_ASSERT(cqe_err, s_wqe_opcode, 14, 31, 24);
MLX5V_IFC_ASSERT(cqe_err, qpn, 14, 23, 0);
/* The fields every CQE shares sit where the generic layout has them (prm/mlx5 §7.4). */
#define MLX5V_CQE_SAME(type, fld) \
	_Static_assert(MLX5V_IFC_BIT_OFF(type, fld) == MLX5V_IFC_BIT_OFF(cqe, fld) && \
		       MLX5V_IFC_BIT_SZ(type, fld) == MLX5V_IFC_BIT_SZ(cqe, fld), \
		       #type "." #fld " is not where the generic CQE has it")
MLX5V_CQE_SAME(cqe_eth, byte_cnt);
MLX5V_CQE_SAME(cqe_eth, wqe_counter);
MLX5V_CQE_SAME(cqe_eth, opcode);
MLX5V_CQE_SAME(cqe_eth, owner);
MLX5V_CQE_SAME(cqe_err, wqe_counter);
MLX5V_CQE_SAME(cqe_err, opcode);
MLX5V_CQE_SAME(cqe_err, owner);
#undef MLX5V_CQE_SAME

#endif /* _MLX5V_PRM_ETH_H_ */
