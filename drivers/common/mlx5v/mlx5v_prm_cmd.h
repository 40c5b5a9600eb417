/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file mlx5 PRM layouts of the command interface: command entry, mailbox block, command headers,
 * the bring-up commands, HCA capabilities, firmware pages, the init segment and health buffer.
 *
 * Each layout is a bit-struct (see mlx5v_ifc.h) written from prm/mlx5 (doc/guides/prm/mlx5.rst),
 * fields in PRM order, gaps named reserved_at_<bit offset>; the static assertions at the end
 * check every named field against the digest's (dword, bit) or byte tables.
 */

#ifndef _MLX5V_PRM_CMD_H_
#define _MLX5V_PRM_CMD_H_

#include "mlx5v_ifc.h"

/*
 * The fields every command input starts with, and every output (prm/mlx5 §3.8): macros of
 * fields, so that each layout keeps the names and its static assertions check them
 * (MLX5V_IFC_ASSERT_IN_HDR(), MLX5V_IFC_ASSERT_OUT_HDR()).
 */
#define MLX5V_IFC_IN_HDR_FIELDS \
	uint8_t opcode[0x10]; \
	uint8_t uid[0x10]; \
	uint8_t reserved_at_20[0x10]; \
	uint8_t op_mod[0x10]
#define MLX5V_IFC_OUT_HDR_FIELDS \
	uint8_t status[0x8]; \
	uint8_t reserved_at_8[0x18]; \
	uint8_t syndrome[0x20]

/** Command input header: opcode, uid, op_mod; dwords 2-3 are the command's (prm/mlx5 §3.8). */
MLX5V_IFC(cmd_in_hdr) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t command_dw2[0x20];
	uint8_t command_dw3[0x20];
};

/** Command output header: status, syndrome; dwords 2-3 are the command's (prm/mlx5 §3.8). */
MLX5V_IFC(cmd_out_hdr) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t command_dw2[0x20];
	uint8_t command_dw3[0x20];
};

/** Command queue entry, 64 bytes; bytes 0-15 of the message inline (prm/mlx5 §3.2). */
MLX5V_IFC(cmd_layout) {
	uint8_t type[0x8];
	uint8_t reserved_at_8[0x18];
	uint8_t inlen[0x20];
	uint8_t iptr[0x40];
	uint8_t in[0x80];
	uint8_t out[0x80];
	uint8_t optr[0x40];
	uint8_t outlen[0x20];
	uint8_t token[0x8];
	uint8_t sig[0x8];
	uint8_t reserved_at_1f0[0x8];
	uint8_t status_own[0x8];
};

/** Mailbox block, 0x240 bytes: 512 data bytes, then the chain control (prm/mlx5 §3.3). */
MLX5V_IFC(cmd_mbox) {
	uint8_t data[0x1000];
	uint8_t reserved_at_1000[0x180];
	uint8_t next[0x40];
	uint8_t block_num[0x20];
	uint8_t reserved_at_11e0[0x8];
	uint8_t token[0x8];
	uint8_t ctrl_sig[0x8];
	uint8_t sig[0x8];
};

/** ENABLE_HCA input (prm/mlx5 §9). */
MLX5V_IFC(enable_hca_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t embedded_cpu_function[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t function_id[0x10];
	uint8_t reserved_at_60[0x20];
};

/** ENABLE_HCA output: 12 bytes only (prm/mlx5 §9). */
MLX5V_IFC(enable_hca_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x20];
};

/** DISABLE_HCA input (prm/mlx5 §9). */
MLX5V_IFC(disable_hca_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t embedded_cpu_function[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t function_id[0x10];
	uint8_t reserved_at_60[0x20];
};

/** DISABLE_HCA output: 12 bytes, like ENABLE_HCA's (prm/mlx5 §9). */
MLX5V_IFC(disable_hca_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x20];
};

/** QUERY_ISSI output; bit 1 of supported_issi_dw0 is ISSI 1 (prm/mlx5 §9). */
MLX5V_IFC(query_issi_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x10];
	uint8_t current_issi[0x10];
	uint8_t reserved_at_60[0x300];
	uint8_t supported_issi_dw0[0x20];
};

/** SET_ISSI input (prm/mlx5 §9). */
MLX5V_IFC(set_issi_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x10];
	uint8_t current_issi[0x10];
	uint8_t reserved_at_60[0x20];
};

/** TEARDOWN_HCA input (prm/mlx5 §9). */
MLX5V_IFC(teardown_hca_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x10];
	uint8_t profile[0x10];
	uint8_t reserved_at_60[0x20];
};

/** TEARDOWN_HCA output (prm/mlx5 §9). */
MLX5V_IFC(teardown_hca_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x3f];
	uint8_t state[0x1];
};

/** ACCESS_REG input, register data follows (prm/mlx5 §9). */
MLX5V_IFC(access_register_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x10];
	uint8_t register_id[0x10];
	uint8_t argument[0x20];
	uint8_t register_data[][0x20];
};

/** ACCESS_REG output, register data follows (prm/mlx5 §9). */
MLX5V_IFC(access_register_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	uint8_t register_data[][0x20];
};

/** ALLOC_UAR output (prm/mlx5 §9). */
MLX5V_IFC(alloc_uar_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t uar[0x18];
	uint8_t reserved_at_60[0x20];
};

/** DEALLOC_UAR input (prm/mlx5 §9). */
MLX5V_IFC(dealloc_uar_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t uar[0x18];
	uint8_t reserved_at_60[0x20];
};

/** QUERY_HCA_CAP input; op_mod = (capability type << 1) | mode (prm/mlx5 §9). */
MLX5V_IFC(query_hca_cap_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t other_function[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t function_id[0x10];
	uint8_t reserved_at_60[0x20];
};

/** QUERY_HCA_CAP output: the 4096-byte capability at 0x10 (prm/mlx5 §9). */
MLX5V_IFC(query_hca_cap_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	uint8_t capability[0x8000];
};

/** SET_HCA_CAP input: the 4096-byte capability at 0x10 (prm/mlx5 §9). */
MLX5V_IFC(set_hca_cap_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t other_function[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t function_id[0x10];
	uint8_t reserved_at_60[0x20];
	uint8_t capability[0x8000];
};
/** General device capability, the fields prm/mlx5 §2.2 lists. */
MLX5V_IFC(cmd_hca_cap) {
	uint8_t reserved_at_0[0x9b];
	uint8_t log_max_qp[0x5];
	uint8_t reserved_at_a0[0x28];
	uint8_t log_max_cq_sz[0x8];
	uint8_t reserved_at_d0[0xb];
	uint8_t log_max_cq[0x5];
	uint8_t log_max_eq_sz[0x8];
	uint8_t reserved_at_e8[0x14];
	uint8_t log_max_eq[0x4];
	uint8_t reserved_at_100[0x11];
	uint8_t fast_teardown[0x1];
	uint8_t reserved_at_112[0xa2];
	uint8_t disable_link_up_by_init_hca[0x1];
	uint8_t reserved_at_1b5[0x1];
	uint8_t port_type[0x2];
	uint8_t reserved_at_1b8[0x58];
	uint8_t cmdif_checksum[0x2];
	uint8_t reserved_at_212[0xb];
	uint8_t roce[0x1];
	uint8_t reserved_at_21e[0x22];
	uint8_t uar_4k[0x1];
	uint8_t reserved_at_241[0x9];
	uint8_t uar_sz[0x6];
	uint8_t reserved_at_250[0x2];
	uint8_t umem_uid_0[0x1];
	uint8_t reserved_at_253[0x13];
	uint8_t mkey_by_name[0x1];
	uint8_t reserved_at_267[0x209];
	uint8_t max_num_eqs[0x10];
	uint8_t reserved_at_480[0x10];
	uint8_t log_uar_page_sz[0x10];
	uint8_t reserved_at_4a0[0x7b60];
};

/** RoCE capability (capability type 4), sized as the capability union (prm/mlx5 §2.2). */
MLX5V_IFC(roce_cap) {
	uint8_t reserved_at_0[0x4];
	uint8_t sw_r_roce_src_udp_port[0x1];
	uint8_t reserved_at_5[0x7ffb];
};

/** One pas[] entry: a big-endian 64-bit page address (prm/mlx5 §5.1, §6.1). */
MLX5V_IFC(cmd_pas) {
	uint8_t pa[0x40];
};

/** QUERY_PAGES input; op_mod 1 boot, 2 init, 3 post-init (prm/mlx5 §5.1). */
MLX5V_IFC(query_pages_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x10];
	uint8_t function_id[0x10];
	uint8_t reserved_at_60[0x20];
};

/** QUERY_PAGES output; num_pages is signed (prm/mlx5 §5.1). */
MLX5V_IFC(query_pages_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t embedded_cpu_function[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t function_id[0x10];
	uint8_t num_pages[0x20];
};

/** MANAGE_PAGES input, then pas[] (prm/mlx5 §5.1). */
MLX5V_IFC(manage_pages_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t embedded_cpu_function[0x1];
	uint8_t reserved_at_41[0xf];
	uint8_t function_id[0x10];
	uint8_t input_num_entries[0x20];
	uint8_t pas[][0x40];
};

/** MANAGE_PAGES output, then the pas[] a TAKE returns (prm/mlx5 §5.1). */
MLX5V_IFC(manage_pages_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t output_num_entries[0x20];
	uint8_t reserved_at_60[0x20];
	uint8_t pas[][0x40];
};

/** Health buffer, init segment 0x200-0x23f (prm/mlx5 §4.1). */
MLX5V_IFC(health_buffer) {
	uint8_t assert_var[5][0x20];
	uint8_t reserved_at_a0[0x60];
	uint8_t assert_exit_ptr[0x20];
	uint8_t assert_callra[0x20];
	uint8_t reserved_at_140[0x40];
	uint8_t fw_ver[0x20];
	uint8_t hw_id[0x20];
	uint8_t rfr[0x1];
	uint8_t reserved_at_1c1[0x1f];
	uint8_t irisc_index[0x8];
	uint8_t synd[0x8];
	uint8_t ext_synd[0x10];
};

/** Init segment, BAR0 offset 0; registers are big-endian dwords (prm/mlx5 §1.1). */
MLX5V_IFC(init_seg) {
	uint8_t fw_rev[0x20];
	uint8_t cmdif_rev_fw_sub[0x20];
	uint8_t reserved_at_40[0x40];
	uint8_t cmdq_addr_h[0x20];
	uint8_t cmdq_addr_l_sz[0x20];
	uint8_t cmd_dbell[0x20];
	uint8_t reserved_at_e0[0xf00];
	uint8_t initializing[0x20];
	MLX5V_IFC(health_buffer) health;
	uint8_t reserved_at_1200[0x6dc0];
	uint8_t cmd_exec_to[0x20];
	uint8_t cmd_q_init_to[0x20];
	uint8_t reserved_at_8000[0x80];
	uint8_t health_counter[0x20];
	uint8_t reserved_at_80a0[0x7fe0];
};

/* ---- Static checks against prm/mlx5 ---- */

/** A command layout's header fields sit where cmd_in_hdr has them (prm/mlx5 §3.8). */
#define MLX5V_IFC_ASSERT_IN_HDR(type) \
	_Static_assert(MLX5V_IFC_BIT_OFF(type, opcode) == \
		       MLX5V_IFC_BIT_OFF(cmd_in_hdr, opcode) && \
		       MLX5V_IFC_BIT_SZ(type, opcode) == 16 && \
		       MLX5V_IFC_BIT_OFF(type, uid) == MLX5V_IFC_BIT_OFF(cmd_in_hdr, uid) && \
		       MLX5V_IFC_BIT_OFF(type, op_mod) == \
		       MLX5V_IFC_BIT_OFF(cmd_in_hdr, op_mod) && \
		       MLX5V_IFC_BIT_SZ(type, op_mod) == 16, #type " header is not cmd_in_hdr")
/** A command layout's status and syndrome sit where cmd_out_hdr has them (prm/mlx5 §3.8). */
#define MLX5V_IFC_ASSERT_OUT_HDR(type) \
	_Static_assert(MLX5V_IFC_BIT_OFF(type, status) == \
		       MLX5V_IFC_BIT_OFF(cmd_out_hdr, status) && \
		       MLX5V_IFC_BIT_SZ(type, status) == 8 && \
		       MLX5V_IFC_BIT_OFF(type, syndrome) == \
		       MLX5V_IFC_BIT_OFF(cmd_out_hdr, syndrome) && \
		       MLX5V_IFC_BIT_SZ(type, syndrome) == 32, #type " header is not cmd_out_hdr")

/* cmd_in_hdr: prm/mlx5 §3.8 */
MLX5V_IFC_ASSERT_BYTES(cmd_in_hdr, 0x10);
MLX5V_IFC_ASSERT(cmd_in_hdr, opcode, 0, 31, 16);
MLX5V_IFC_ASSERT(cmd_in_hdr, uid, 0, 15, 0);
MLX5V_IFC_ASSERT(cmd_in_hdr, op_mod, 1, 15, 0);
MLX5V_IFC_ASSERT(cmd_in_hdr, command_dw2, 2, 31, 0);
MLX5V_IFC_ASSERT(cmd_in_hdr, command_dw3, 3, 31, 0);
/* cmd_out_hdr: prm/mlx5 §3.8 */
MLX5V_IFC_ASSERT_BYTES(cmd_out_hdr, 0x10);
MLX5V_IFC_ASSERT(cmd_out_hdr, status, 0, 31, 24);
MLX5V_IFC_ASSERT(cmd_out_hdr, syndrome, 1, 31, 0);
MLX5V_IFC_ASSERT(cmd_out_hdr, command_dw2, 2, 31, 0);
MLX5V_IFC_ASSERT(cmd_out_hdr, command_dw3, 3, 31, 0);
/* cmd_layout: prm/mlx5 §3.2 */
MLX5V_IFC_ASSERT_BYTES(cmd_layout, 0x40);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, type, 0x0, 1);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, inlen, 0x4, 4);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, iptr, 0x8, 8);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, in, 0x10, 16);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, out, 0x20, 16);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, optr, 0x30, 8);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, outlen, 0x38, 4);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, token, 0x3c, 1);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, sig, 0x3d, 1);
MLX5V_IFC_ASSERT_SPAN(cmd_layout, status_own, 0x3f, 1);
/* cmd_mbox: prm/mlx5 §3.3 */
MLX5V_IFC_ASSERT_BYTES(cmd_mbox, 0x240);
MLX5V_IFC_ASSERT_SPAN(cmd_mbox, data, 0x0, 512);
MLX5V_IFC_ASSERT_SPAN(cmd_mbox, next, 0x230, 8);
MLX5V_IFC_ASSERT_SPAN(cmd_mbox, block_num, 0x238, 4);
MLX5V_IFC_ASSERT_SPAN(cmd_mbox, token, 0x23d, 1);
MLX5V_IFC_ASSERT_SPAN(cmd_mbox, ctrl_sig, 0x23e, 1);
MLX5V_IFC_ASSERT_SPAN(cmd_mbox, sig, 0x23f, 1);
/* enable_hca_in: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(enable_hca_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(enable_hca_in);
MLX5V_IFC_ASSERT(enable_hca_in, embedded_cpu_function, 2, 31, 31);
MLX5V_IFC_ASSERT(enable_hca_in, function_id, 2, 15, 0);
/* enable_hca_out: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(enable_hca_out, 0xc);
MLX5V_IFC_ASSERT_OUT_HDR(enable_hca_out);
/* disable_hca_in: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(disable_hca_in, 0x10);
/* disable_hca_out: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(disable_hca_out, 0xc);
MLX5V_IFC_ASSERT_OUT_HDR(disable_hca_out);
MLX5V_IFC_ASSERT_IN_HDR(disable_hca_in);
MLX5V_IFC_ASSERT(disable_hca_in, embedded_cpu_function, 2, 31, 31);
MLX5V_IFC_ASSERT(disable_hca_in, function_id, 2, 15, 0);
/* query_issi_out: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(query_issi_out, 0x70);
MLX5V_IFC_ASSERT_OUT_HDR(query_issi_out);
MLX5V_IFC_ASSERT(query_issi_out, current_issi, 2, 15, 0);
MLX5V_IFC_ASSERT(query_issi_out, supported_issi_dw0, 27, 31, 0);
/* set_issi_in: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(set_issi_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(set_issi_in);
MLX5V_IFC_ASSERT(set_issi_in, current_issi, 2, 15, 0);
/* teardown_hca_in: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(teardown_hca_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(teardown_hca_in);
MLX5V_IFC_ASSERT(teardown_hca_in, profile, 2, 15, 0);
/* teardown_hca_out: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(teardown_hca_out, 0x10);
MLX5V_IFC_ASSERT_OUT_HDR(teardown_hca_out);
MLX5V_IFC_ASSERT(teardown_hca_out, state, 3, 0, 0);
/* access_register_in: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(access_register_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(access_register_in);
MLX5V_IFC_ASSERT(access_register_in, register_id, 2, 15, 0);
MLX5V_IFC_ASSERT(access_register_in, argument, 3, 31, 0);
MLX5V_IFC_ASSERT_OFF(access_register_in, register_data, 0x10);
/* access_register_out: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(access_register_out, 0x10);
MLX5V_IFC_ASSERT_OUT_HDR(access_register_out);
MLX5V_IFC_ASSERT_OFF(access_register_out, register_data, 0x10);
/* alloc_uar_out: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(alloc_uar_out, 0x10);
MLX5V_IFC_ASSERT_OUT_HDR(alloc_uar_out);
MLX5V_IFC_ASSERT(alloc_uar_out, uar, 2, 23, 0);
/* dealloc_uar_in: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(dealloc_uar_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(dealloc_uar_in);
MLX5V_IFC_ASSERT(dealloc_uar_in, uar, 2, 23, 0);
/* query_hca_cap_in: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(query_hca_cap_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(query_hca_cap_in);
MLX5V_IFC_ASSERT(query_hca_cap_in, other_function, 2, 31, 31);
MLX5V_IFC_ASSERT(query_hca_cap_in, function_id, 2, 15, 0);
/* query_hca_cap_out: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(query_hca_cap_out, 0x1010);
MLX5V_IFC_ASSERT_OUT_HDR(query_hca_cap_out);
MLX5V_IFC_ASSERT_SPAN(query_hca_cap_out, capability, 0x10, 4096);
/* set_hca_cap_in: prm/mlx5 §9 */
MLX5V_IFC_ASSERT_BYTES(set_hca_cap_in, 0x1010);
MLX5V_IFC_ASSERT_IN_HDR(set_hca_cap_in);
MLX5V_IFC_ASSERT(set_hca_cap_in, other_function, 2, 31, 31);
MLX5V_IFC_ASSERT(set_hca_cap_in, function_id, 2, 15, 0);
MLX5V_IFC_ASSERT_SPAN(set_hca_cap_in, capability, 0x10, 4096);
/* cmd_hca_cap: prm/mlx5 §2.2 */
MLX5V_IFC_ASSERT_BYTES(cmd_hca_cap, 0x1000);
MLX5V_IFC_ASSERT(cmd_hca_cap, log_max_qp, 4, 4, 0);
MLX5V_IFC_ASSERT(cmd_hca_cap, log_max_cq_sz, 6, 23, 16);
MLX5V_IFC_ASSERT(cmd_hca_cap, log_max_cq, 6, 4, 0);
MLX5V_IFC_ASSERT(cmd_hca_cap, log_max_eq_sz, 7, 31, 24);
MLX5V_IFC_ASSERT(cmd_hca_cap, log_max_eq, 7, 3, 0);
MLX5V_IFC_ASSERT(cmd_hca_cap, fast_teardown, 8, 14, 14);
MLX5V_IFC_ASSERT(cmd_hca_cap, disable_link_up_by_init_hca, 13, 11, 11);
MLX5V_IFC_ASSERT(cmd_hca_cap, port_type, 13, 9, 8);
MLX5V_IFC_ASSERT(cmd_hca_cap, cmdif_checksum, 16, 15, 14);
MLX5V_IFC_ASSERT(cmd_hca_cap, roce, 16, 2, 2);
MLX5V_IFC_ASSERT(cmd_hca_cap, uar_4k, 18, 31, 31);
MLX5V_IFC_ASSERT(cmd_hca_cap, uar_sz, 18, 21, 16);
MLX5V_IFC_ASSERT(cmd_hca_cap, umem_uid_0, 18, 13, 13);
MLX5V_IFC_ASSERT(cmd_hca_cap, mkey_by_name, 19, 25, 25);
MLX5V_IFC_ASSERT(cmd_hca_cap, max_num_eqs, 35, 15, 0);
MLX5V_IFC_ASSERT(cmd_hca_cap, log_uar_page_sz, 36, 15, 0);
/* roce_cap: prm/mlx5 §2.2 */
MLX5V_IFC_ASSERT_BYTES(roce_cap, 0x1000);
MLX5V_IFC_ASSERT(roce_cap, sw_r_roce_src_udp_port, 0, 27, 27);
/* cmd_pas: prm/mlx5 §5.1, §6.1 */
MLX5V_IFC_ASSERT_BYTES(cmd_pas, 0x8);
MLX5V_IFC_ASSERT_SPAN(cmd_pas, pa, 0x0, 8);
/* query_pages_in: prm/mlx5 §5.1 */
MLX5V_IFC_ASSERT_BYTES(query_pages_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(query_pages_in);
MLX5V_IFC_ASSERT(query_pages_in, function_id, 2, 15, 0);
/* query_pages_out: prm/mlx5 §5.1 */
MLX5V_IFC_ASSERT_BYTES(query_pages_out, 0x10);
MLX5V_IFC_ASSERT_OUT_HDR(query_pages_out);
MLX5V_IFC_ASSERT(query_pages_out, embedded_cpu_function, 2, 31, 31);
MLX5V_IFC_ASSERT(query_pages_out, function_id, 2, 15, 0);
MLX5V_IFC_ASSERT(query_pages_out, num_pages, 3, 31, 0);
/* manage_pages_in: prm/mlx5 §5.1 */
MLX5V_IFC_ASSERT_BYTES(manage_pages_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(manage_pages_in);
MLX5V_IFC_ASSERT(manage_pages_in, embedded_cpu_function, 2, 31, 31);
MLX5V_IFC_ASSERT(manage_pages_in, function_id, 2, 15, 0);
MLX5V_IFC_ASSERT(manage_pages_in, input_num_entries, 3, 31, 0);
MLX5V_IFC_ASSERT_OFF(manage_pages_in, pas, 0x10);
/* manage_pages_out: prm/mlx5 §5.1 */
MLX5V_IFC_ASSERT_BYTES(manage_pages_out, 0x10);
MLX5V_IFC_ASSERT_OUT_HDR(manage_pages_out);
MLX5V_IFC_ASSERT(manage_pages_out, output_num_entries, 2, 31, 0);
MLX5V_IFC_ASSERT_OFF(manage_pages_out, pas, 0x10);
/* health_buffer: prm/mlx5 §4.1 */
MLX5V_IFC_ASSERT_BYTES(health_buffer, 0x40);
MLX5V_IFC_ASSERT_SPAN(health_buffer, assert_var, 0x0, 20);
MLX5V_IFC_ASSERT_SPAN(health_buffer, assert_exit_ptr, 0x20, 4);
MLX5V_IFC_ASSERT_SPAN(health_buffer, assert_callra, 0x24, 4);
MLX5V_IFC_ASSERT_SPAN(health_buffer, fw_ver, 0x30, 4);
MLX5V_IFC_ASSERT_SPAN(health_buffer, hw_id, 0x34, 4);
MLX5V_IFC_ASSERT(health_buffer, rfr, 14, 31, 31);
MLX5V_IFC_ASSERT_SPAN(health_buffer, irisc_index, 0x3c, 1);
MLX5V_IFC_ASSERT_SPAN(health_buffer, synd, 0x3d, 1);
MLX5V_IFC_ASSERT_SPAN(health_buffer, ext_synd, 0x3e, 2);
/* init_seg: prm/mlx5 §1.1 */
MLX5V_IFC_ASSERT_BYTES(init_seg, 0x2010);
MLX5V_IFC_ASSERT_SPAN(init_seg, fw_rev, 0x0, 4);
MLX5V_IFC_ASSERT_SPAN(init_seg, cmdif_rev_fw_sub, 0x4, 4);
MLX5V_IFC_ASSERT_SPAN(init_seg, cmdq_addr_h, 0x10, 4);
MLX5V_IFC_ASSERT_SPAN(init_seg, cmdq_addr_l_sz, 0x14, 4);
MLX5V_IFC_ASSERT_SPAN(init_seg, cmd_dbell, 0x18, 4);
MLX5V_IFC_ASSERT_SPAN(init_seg, initializing, 0x1fc, 4);
MLX5V_IFC_ASSERT_SPAN(init_seg, health, 0x200, 64);
MLX5V_IFC_ASSERT_SPAN(init_seg, cmd_exec_to, 0xff8, 4);
MLX5V_IFC_ASSERT_SPAN(init_seg, cmd_q_init_to, 0xffc, 4);
MLX5V_IFC_ASSERT_SPAN(init_seg, health_counter, 0x1010, 4);

/**
 * Every command opcode the project knows (prm/mlx5 §10, prm/mlx5_eth §15), each once:
 * X(name, value, dead-device class, DEVX rule, DEVX family, destroy, id mask). The class is
 * what the command does on a dead device (prm/mlx5 §3.11): OTHER fails, DESTROY succeeds,
 * UNKNOWN fails with -EINVAL, as an opcode missing here does. The DEVX rule and family are
 * the raw command policy (doc/guides/nics/mlx5v_devx.rst; anything missing is refused).
 * Destroy names the command that undoes a create whose object is the 32-bit word at out 0x08
 * (masked to the id's width, the destroy takes it at in 0x08), NONE where a late create is
 * not undone (doc/guides/sim/fault_matrix.rst, "Late completions"). MANAGE_PAGES is
 * destroy-class so that page reclaim at teardown completes on a dead device.
 */
#define MLX5V_CMD_OPCODES(X) \
	X(QUERY_HCA_CAP, 0x100, OTHER, ANY, NONE, NONE, 0) \
	X(QUERY_ADAPTER, 0x101, OTHER, UNLISTED, NONE, NONE, 0) \
	X(INIT_HCA, 0x102, OTHER, DENY, NONE, NONE, 0) \
	X(TEARDOWN_HCA, 0x103, DESTROY, DENY, NONE, NONE, 0) \
	X(ENABLE_HCA, 0x104, OTHER, DENY, NONE, NONE, 0) \
	X(DISABLE_HCA, 0x105, DESTROY, DENY, NONE, NONE, 0) \
	X(QUERY_PAGES, 0x107, OTHER, DENY, NONE, NONE, 0) \
	X(MANAGE_PAGES, 0x108, DESTROY, DENY, NONE, NONE, 0) \
	X(SET_HCA_CAP, 0x109, OTHER, DENY, NONE, NONE, 0) \
	X(QUERY_ISSI, 0x10a, OTHER, ANY, NONE, NONE, 0) \
	X(SET_ISSI, 0x10b, OTHER, DENY, NONE, NONE, 0) \
	/* Not used by the driver; refused like the other function commands. */ \
	X(SET_DRIVER_VERSION, 0x10d, UNKNOWN, DENY, NONE, NONE, 0) \
	X(CREATE_MKEY, 0x200, OTHER, CREATE, MKEY, DESTROY_MKEY, 0xffffff) \
	X(QUERY_MKEY, 0x201, OTHER, USE, MKEY, NONE, 0) \
	X(DESTROY_MKEY, 0x202, DESTROY, DESTROY, MKEY, NONE, 0) \
	X(QUERY_SPECIAL_CONTEXTS, 0x203, OTHER, ANY, NONE, NONE, 0) \
	X(CREATE_EQ, 0x301, OTHER, CREATE, EQ, DESTROY_EQ, 0xff) \
	X(DESTROY_EQ, 0x302, DESTROY, DESTROY, EQ, NONE, 0) \
	X(QUERY_EQ, 0x303, OTHER, USE, EQ, NONE, 0) \
	X(GEN_EQE, 0x304, OTHER, USE, EQ, NONE, 0) \
	X(CREATE_CQ, 0x400, OTHER, CREATE, CQ, DESTROY_CQ, 0xffffff) \
	X(DESTROY_CQ, 0x401, DESTROY, DESTROY, CQ, NONE, 0) \
	X(QUERY_CQ, 0x402, OTHER, USE, CQ, NONE, 0) \
	X(MODIFY_CQ, 0x403, OTHER, UNLISTED, NONE, NONE, 0) \
	X(CREATE_QP, 0x500, OTHER, UNLISTED, NONE, DESTROY_QP, 0xffffff) \
	X(DESTROY_QP, 0x501, DESTROY, UNLISTED, NONE, NONE, 0) \
	X(QUERY_VPORT_STATE, 0x750, OTHER, ANY, NONE, NONE, 0) \
	X(MODIFY_VPORT_STATE, 0x751, OTHER, UNLISTED, NONE, NONE, 0) \
	X(QUERY_NIC_VPORT_CONTEXT, 0x754, OTHER, ANY, NONE, NONE, 0) \
	X(MODIFY_NIC_VPORT_CONTEXT, 0x755, OTHER, PORT, NONE, NONE, 0) \
	X(ALLOC_Q_COUNTER, 0x771, OTHER, CREATE, QCNT, DEALLOC_Q_COUNTER, 0xff) \
	X(DEALLOC_Q_COUNTER, 0x772, DESTROY, DESTROY, QCNT, NONE, 0) \
	X(QUERY_Q_COUNTER, 0x773, OTHER, USE, QCNT, NONE, 0) \
	X(ALLOC_PD, 0x800, OTHER, CREATE, PD, DEALLOC_PD, 0xffffff) \
	X(DEALLOC_PD, 0x801, DESTROY, DESTROY, PD, NONE, 0) \
	X(ALLOC_UAR, 0x802, OTHER, DENY, NONE, DEALLOC_UAR, 0xffffff) \
	X(DEALLOC_UAR, 0x803, DESTROY, DENY, NONE, NONE, 0) \
	X(ACCESS_REG, 0x805, OTHER, PORT, NONE, NONE, 0) \
	X(ALLOC_TRANSPORT_DOMAIN, 0x816, OTHER, CREATE, TD, DEALLOC_TRANSPORT_DOMAIN, 0xffffff) \
	X(DEALLOC_TRANSPORT_DOMAIN, 0x817, DESTROY, DESTROY, TD, NONE, 0) \
	X(CREATE_TIR, 0x900, OTHER, CREATE, TIR, DESTROY_TIR, 0xffffff) \
	X(MODIFY_TIR, 0x901, OTHER, USE, TIR, NONE, 0) \
	X(DESTROY_TIR, 0x902, DESTROY, DESTROY, TIR, NONE, 0) \
	X(QUERY_TIR, 0x903, OTHER, USE, TIR, NONE, 0) \
	X(CREATE_SQ, 0x904, OTHER, CREATE, SQ, DESTROY_SQ, 0xffffff) \
	X(MODIFY_SQ, 0x905, OTHER, USE, SQ, NONE, 0) \
	X(DESTROY_SQ, 0x906, DESTROY, DESTROY, SQ, NONE, 0) \
	X(QUERY_SQ, 0x907, OTHER, USE, SQ, NONE, 0) \
	X(CREATE_RQ, 0x908, OTHER, CREATE, RQ, DESTROY_RQ, 0xffffff) \
	X(MODIFY_RQ, 0x909, OTHER, USE, RQ, NONE, 0) \
	X(DESTROY_RQ, 0x90a, DESTROY, DESTROY, RQ, NONE, 0) \
	X(QUERY_RQ, 0x90b, OTHER, USE, RQ, NONE, 0) \
	X(CREATE_TIS, 0x912, OTHER, CREATE, TIS, DESTROY_TIS, 0xffffff) \
	X(MODIFY_TIS, 0x913, OTHER, USE, TIS, NONE, 0) \
	X(DESTROY_TIS, 0x914, DESTROY, DESTROY, TIS, NONE, 0) \
	X(QUERY_TIS, 0x915, OTHER, USE, TIS, NONE, 0) \
	X(CREATE_RQT, 0x916, OTHER, CREATE, RQT, DESTROY_RQT, 0xffffff) \
	X(MODIFY_RQT, 0x917, OTHER, USE, RQT, NONE, 0) \
	X(DESTROY_RQT, 0x918, DESTROY, DESTROY, RQT, NONE, 0) \
	X(QUERY_RQT, 0x919, OTHER, USE, RQT, NONE, 0) \
	X(SET_FLOW_TABLE_ROOT, 0x92f, OTHER, PORT, FT, NONE, 0) \
	X(CREATE_FLOW_TABLE, 0x930, OTHER, CREATE, FT, NONE, 0) \
	X(DESTROY_FLOW_TABLE, 0x931, DESTROY, DESTROY, FT, NONE, 0) \
	X(CREATE_FLOW_GROUP, 0x933, OTHER, CREATE, FG, NONE, 0) \
	X(DESTROY_FLOW_GROUP, 0x934, DESTROY, DESTROY, FG, NONE, 0) \
	X(SET_FLOW_TABLE_ENTRY, 0x936, OTHER, USE, FT, NONE, 0) \
	X(DELETE_FLOW_TABLE_ENTRY, 0x938, DESTROY, USE, FT, NONE, 0) \
	X(ALLOC_FLOW_COUNTER, 0x939, OTHER, UNLISTED, NONE, DEALLOC_FLOW_COUNTER, 0xffffffff) \
	X(DEALLOC_FLOW_COUNTER, 0x93a, DESTROY, UNLISTED, NONE, NONE, 0) \
	X(QUERY_FLOW_COUNTER, 0x93b, OTHER, UNLISTED, NONE, NONE, 0) \
	X(CREATE_GENERAL_OBJECT, 0xa00, OTHER, UNLISTED, NONE, DESTROY_GENERAL_OBJECT, 0xffffffff) \
	X(MODIFY_GENERAL_OBJECT, 0xa01, OTHER, UNLISTED, NONE, NONE, 0) \
	X(QUERY_GENERAL_OBJECT, 0xa02, OTHER, UNLISTED, NONE, NONE, 0) \
	X(DESTROY_GENERAL_OBJECT, 0xa03, DESTROY, UNLISTED, NONE, NONE, 0) \
	X(CREATE_UMEM, 0xa08, OTHER, UNLISTED, NONE, DESTROY_UMEM, 0xffffffff) \
	X(DESTROY_UMEM, 0xa0a, DESTROY, UNLISTED, NONE, NONE, 0)

/** The opcodes of MLX5V_CMD_OPCODES(). */
enum mlx5v_cmd_opcode {
	MLX5V_CMD_OP_NONE = 0,      /**< no command (the destroy of what is not undone) */
#define MLX5V_CMD_OP_ENUM(n, v, ...) MLX5V_CMD_OP_ ## n = v,
	MLX5V_CMD_OPCODES(MLX5V_CMD_OP_ENUM)
#undef MLX5V_CMD_OP_ENUM
};

#endif /* _MLX5V_PRM_CMD_H_ */
