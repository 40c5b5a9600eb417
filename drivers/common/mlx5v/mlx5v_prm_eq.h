/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file mlx5 PRM layouts of event queues, completion queues and the UAR page: EQ context and
 * commands, EQE and its per-event data, CQ context and commands, CQE, CQ doorbell record.
 *
 * Bit-structs as in mlx5v_prm_cmd.h, written from prm/mlx5 §6, §7 and §8; the static assertions
 * at the end check every named field against the digest.
 */

#ifndef _MLX5V_PRM_EQ_H_
#define _MLX5V_PRM_EQ_H_

#include "mlx5v_prm_cmd.h"

/** EQ context, 64 bytes (prm/mlx5 §6.2). */
MLX5V_IFC(eqc) {
	uint8_t status[0x4];
	uint8_t reserved_at_4[0x9];
	uint8_t ec[0x1];
	uint8_t oi[0x1];
	uint8_t reserved_at_f[0x5];
	uint8_t st[0x4];
	uint8_t reserved_at_18[0x3c];
	uint8_t page_offset[0x6];
	uint8_t reserved_at_5a[0x9];
	uint8_t log_eq_size[0x5];
	uint8_t uar_page[0x18];
	uint8_t reserved_at_80[0x34];
	uint8_t intr[0xc];
	uint8_t reserved_at_c0[0x3];
	uint8_t log_page_size[0x5];
	uint8_t reserved_at_c8[0x80];
	uint8_t consumer_counter[0x18];
	uint8_t reserved_at_160[0x8];
	uint8_t producer_counter[0x18];
	uint8_t reserved_at_180[0x80];
};

/** CREATE_EQ input, 0x110 bytes plus pas[] (prm/mlx5 §6.1). */
MLX5V_IFC(create_eq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	MLX5V_IFC(eqc) eqc;
	uint8_t reserved_at_280[0x40];
	uint8_t event_bitmask[4][0x40];
	uint8_t reserved_at_3c0[0x4c0];
	uint8_t pas[][0x40];
};

/** CREATE_EQ output (prm/mlx5 §6.3). */
MLX5V_IFC(create_eq_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x18];
	uint8_t eq_number[0x8];
	uint8_t reserved_at_60[0x20];
};

/** DESTROY_EQ input (prm/mlx5 §6.3). */
MLX5V_IFC(destroy_eq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x18];
	uint8_t eq_number[0x8];
	uint8_t reserved_at_60[0x20];
};

/** DESTROY_EQ output (prm/mlx5 §6.3). */
MLX5V_IFC(destroy_eq_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
};

/** QUERY_EQ input (prm/mlx5 §6.3). */
MLX5V_IFC(query_eq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x18];
	uint8_t eq_number[0x8];
	uint8_t reserved_at_60[0x20];
};

/** QUERY_EQ output: a single event_bitmask word (prm/mlx5 §6.3). */
MLX5V_IFC(query_eq_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	MLX5V_IFC(eqc) eqc;
	uint8_t reserved_at_280[0x40];
	uint8_t event_bitmask[0x40];
	uint8_t reserved_at_300[0x580];
	uint8_t pas[][0x40];
};

/** EQE, 64 bytes; data is the per-event union below (prm/mlx5 §6.5). */
MLX5V_IFC(eqe) {
	uint8_t reserved_at_0[0x8];
	uint8_t type[0x8];
	uint8_t reserved_at_10[0x8];
	uint8_t sub_type[0x8];
	uint8_t reserved_at_20[0xe0];
	uint8_t data[0xe0];
	uint8_t reserved_at_1e0[0x10];
	uint8_t signature[0x8];
	uint8_t reserved_at_1f8[0x7];
	uint8_t owner[0x1];
};

/** GEN_EQE input: the EQE to write, the device sets the owner (prm/mlx5 §6.3). */
MLX5V_IFC(gen_eqe_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x18];
	uint8_t eq_number[0x8];
	uint8_t reserved_at_60[0x20];
	MLX5V_IFC(eqe) eqe;
};

/** GEN_EQE output (prm/mlx5 §6.3). */
MLX5V_IFC(gen_eqe_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
};

/** Completion event data, offsets within eqe.data (prm/mlx5 §6.6). */
MLX5V_IFC(eqe_comp) {
	uint8_t reserved_at_0[0xc8];
	uint8_t cqn[0x18];
};

/** CQ error event data; syndrome 1 overrun, 2 access violation (prm/mlx5 §6.6). */
MLX5V_IFC(eqe_cq_err) {
	uint8_t reserved_at_0[0x8];
	uint8_t cqn[0x18];
	uint8_t reserved_at_20[0x38];
	uint8_t syndrome[0x8];
	uint8_t reserved_at_60[0x80];
};

/** QP/SRQ event data (prm/mlx5 §6.6). */
MLX5V_IFC(eqe_qp_srq) {
	uint8_t reserved_at_0[0xa0];
	uint8_t type[0x8];
	uint8_t reserved_at_a8[0x18];
	uint8_t qp_srq_n[0x20];
};

/** Port change event data: port number in the high nibble (prm/mlx5 §6.6). */
MLX5V_IFC(eqe_port_change) {
	uint8_t reserved_at_0[0x40];
	uint8_t port[0x4];
	uint8_t reserved_at_44[0x9c];
};

/** Command completion event data: bit s of vector = slot s done (prm/mlx5 §6.6). */
MLX5V_IFC(eqe_cmd) {
	uint8_t vector[0x20];
	uint8_t reserved_at_20[0xc0];
};

/** Page request event data; num_pages is signed (prm/mlx5 §6.6). */
MLX5V_IFC(eqe_page_req) {
	uint8_t ec_function[0x10];
	uint8_t func_id[0x10];
	uint8_t num_pages[0x20];
	uint8_t reserved_at_40[0xa0];
};

/** NIC vport change event data (prm/mlx5 §6.6). */
MLX5V_IFC(eqe_vport_change) {
	uint8_t reserved_at_0[0x10];
	uint8_t vport_num[0x10];
	uint8_t reserved_at_20[0xc0];
};

/**
 * CQ context, 64 bytes; the EQN sits in the low bits of c_eqn_or_apu_element (prm/mlx5 §7.1).
 */
MLX5V_IFC(cqc) {
	uint8_t status[0x4];
	uint8_t reserved_at_4[0x2];
	uint8_t dbr_umem_valid[0x1];
	uint8_t reserved_at_7[0x1];
	uint8_t cqe_sz[0x3];
	uint8_t cc[0x1];
	uint8_t reserved_at_c[0x2];
	uint8_t oi[0x1];
	uint8_t reserved_at_f[0x2];
	uint8_t cqe_comp_en[0x1];
	uint8_t mini_cqe_res_format[0x2];
	uint8_t st[0x4];
	uint8_t reserved_at_18[0x8];
	uint8_t dbr_umem_id[0x20];
	uint8_t reserved_at_40[0x14];
	uint8_t page_offset[0x6];
	uint8_t reserved_at_5a[0x2];
	uint8_t mini_cqe_res_format_ext[0x2];
	uint8_t cq_timestamp_format[0x2];
	uint8_t reserved_at_60[0x3];
	uint8_t log_cq_size[0x5];
	uint8_t uar_page[0x18];
	uint8_t reserved_at_80[0x4];
	uint8_t cq_period[0xc];
	uint8_t cq_max_count[0x10];
	uint8_t c_eqn_or_apu_element[0x20];
	uint8_t reserved_at_c0[0x3];
	uint8_t log_page_size[0x5];
	uint8_t reserved_at_c8[0x40];
	uint8_t last_notified_index[0x18];
	uint8_t reserved_at_120[0x8];
	uint8_t last_solicit_index[0x18];
	uint8_t reserved_at_140[0x8];
	uint8_t consumer_counter[0x18];
	uint8_t reserved_at_160[0x8];
	uint8_t producer_counter[0x18];
	uint8_t reserved_at_180[0x40];
	uint8_t dbr_addr[0x40];
};

/** CREATE_CQ input, 0x110 bytes plus pas[] (prm/mlx5 §7.1). */
MLX5V_IFC(create_cq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	MLX5V_IFC(cqc) cqc;
	uint8_t cq_umem_offset[0x40];
	uint8_t cq_umem_id[0x20];
	uint8_t cq_umem_valid[0x1];
	uint8_t reserved_at_2e1[0x59f];
	uint8_t pas[][0x40];
};

/** CREATE_CQ output (prm/mlx5 §7.1). */
MLX5V_IFC(create_cq_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t cqn[0x18];
	uint8_t reserved_at_60[0x20];
};

/** DESTROY_CQ input (prm/mlx5 §7.1). */
MLX5V_IFC(destroy_cq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t cqn[0x18];
	uint8_t reserved_at_60[0x20];
};

/** QUERY_CQ input (prm/mlx5 §7.1). */
MLX5V_IFC(query_cq_in) {
	MLX5V_IFC_IN_HDR_FIELDS;
	uint8_t reserved_at_40[0x8];
	uint8_t cqn[0x18];
	uint8_t reserved_at_60[0x20];
};

/** QUERY_CQ output, 0x110 bytes plus pas[] (prm/mlx5 §7.1). */
MLX5V_IFC(query_cq_out) {
	MLX5V_IFC_OUT_HDR_FIELDS;
	uint8_t reserved_at_40[0x40];
	MLX5V_IFC(cqc) cqc;
	uint8_t reserved_at_280[0x600];
	uint8_t pas[][0x40];
};

/** CQE, 64 bytes; opcode and owner share the last byte, op_own (prm/mlx5 §7.4). */
MLX5V_IFC(cqe) {
	uint8_t reserved_at_0[0x160];
	uint8_t byte_cnt[0x20];
	uint8_t reserved_at_180[0x60];
	uint8_t wqe_counter[0x10];
	uint8_t signature[0x8];
	uint8_t opcode[0x4];
	uint8_t reserved_at_1fc[0x3];
	uint8_t owner[0x1];
};

/** CQ doorbell record: consumer index, then the arm word (prm/mlx5 §7.3). */
MLX5V_IFC(cq_dbrec) {
	uint8_t reserved_at_0[0x8];
	uint8_t set_ci[0x18];
	uint8_t reserved_at_20[0x2];
	uint8_t arm_sn[0x2];
	uint8_t arm_cmd[0x4];
	uint8_t arm_ci[0x18];
};

/** UAR page, 4096 bytes: the doorbells at their offsets (prm/mlx5 §8). */
MLX5V_IFC(uar_page) {
	uint8_t reserved_at_0[0x100];
	uint8_t cq_db[0x40];
	uint8_t reserved_at_140[0xc0];
	uint8_t eq_db_arm[0x20];
	uint8_t reserved_at_220[0x20];
	uint8_t eq_db_noarm[0x20];
	uint8_t reserved_at_260[0x3da0];
	uint8_t bf[0x4000];
};

/* ---- Static checks against prm/mlx5 ---- */

/* eqc: prm/mlx5 §6.2 */
MLX5V_IFC_ASSERT_BYTES(eqc, 0x40);
MLX5V_IFC_ASSERT(eqc, status, 0, 31, 28);
MLX5V_IFC_ASSERT(eqc, ec, 0, 18, 18);
MLX5V_IFC_ASSERT(eqc, oi, 0, 17, 17);
MLX5V_IFC_ASSERT(eqc, st, 0, 11, 8);
MLX5V_IFC_ASSERT(eqc, page_offset, 2, 11, 6);
MLX5V_IFC_ASSERT(eqc, log_eq_size, 3, 28, 24);
MLX5V_IFC_ASSERT(eqc, uar_page, 3, 23, 0);
MLX5V_IFC_ASSERT(eqc, intr, 5, 11, 0);
MLX5V_IFC_ASSERT(eqc, log_page_size, 6, 28, 24);
MLX5V_IFC_ASSERT(eqc, consumer_counter, 10, 23, 0);
MLX5V_IFC_ASSERT(eqc, producer_counter, 11, 23, 0);
/* create_eq_in: prm/mlx5 §6.1 */
MLX5V_IFC_ASSERT_BYTES(create_eq_in, 0x110);
MLX5V_IFC_ASSERT_IN_HDR(create_eq_in);
MLX5V_IFC_ASSERT_SPAN(create_eq_in, eqc, 0x10, 64);
MLX5V_IFC_ASSERT_SPAN(create_eq_in, event_bitmask, 0x58, 32);
MLX5V_IFC_ASSERT_OFF(create_eq_in, pas, 0x110);
/* create_eq_out: prm/mlx5 §6.3 */
MLX5V_IFC_ASSERT_BYTES(create_eq_out, 0x10);
MLX5V_IFC_ASSERT_OUT_HDR(create_eq_out);
MLX5V_IFC_ASSERT(create_eq_out, eq_number, 2, 7, 0);
/* destroy_eq_in: prm/mlx5 §6.3 */
MLX5V_IFC_ASSERT_BYTES(destroy_eq_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(destroy_eq_in);
MLX5V_IFC_ASSERT(destroy_eq_in, eq_number, 2, 7, 0);
/* destroy_eq_out: prm/mlx5 §6.3 */
MLX5V_IFC_ASSERT_BYTES(destroy_eq_out, 0x10);
MLX5V_IFC_ASSERT_OUT_HDR(destroy_eq_out);
/* query_eq_in: prm/mlx5 §6.3 */
MLX5V_IFC_ASSERT_BYTES(query_eq_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(query_eq_in);
MLX5V_IFC_ASSERT(query_eq_in, eq_number, 2, 7, 0);
/* query_eq_out: prm/mlx5 §6.3 */
MLX5V_IFC_ASSERT_BYTES(query_eq_out, 0x110);
MLX5V_IFC_ASSERT_OUT_HDR(query_eq_out);
MLX5V_IFC_ASSERT_SPAN(query_eq_out, eqc, 0x10, 64);
MLX5V_IFC_ASSERT_SPAN(query_eq_out, event_bitmask, 0x58, 8);
MLX5V_IFC_ASSERT_OFF(query_eq_out, pas, 0x110);
/* eqe: prm/mlx5 §6.5 */
MLX5V_IFC_ASSERT_BYTES(eqe, 0x40);
MLX5V_IFC_ASSERT_SPAN(eqe, type, 0x1, 1);
MLX5V_IFC_ASSERT_SPAN(eqe, sub_type, 0x3, 1);
MLX5V_IFC_ASSERT_SPAN(eqe, data, 0x20, 28);
MLX5V_IFC_ASSERT_SPAN(eqe, signature, 0x3e, 1);
MLX5V_IFC_ASSERT(eqe, owner, 15, 0, 0);
/* gen_eqe_in: prm/mlx5 §6.3 */
MLX5V_IFC_ASSERT_BYTES(gen_eqe_in, 0x50);
MLX5V_IFC_ASSERT_IN_HDR(gen_eqe_in);
MLX5V_IFC_ASSERT(gen_eqe_in, eq_number, 2, 7, 0);
MLX5V_IFC_ASSERT_SPAN(gen_eqe_in, eqe, 0x10, 64);
/* gen_eqe_out: prm/mlx5 §6.3 */
MLX5V_IFC_ASSERT_BYTES(gen_eqe_out, 0x10);
MLX5V_IFC_ASSERT_OUT_HDR(gen_eqe_out);
/* eqe_comp: prm/mlx5 §6.6 */
MLX5V_IFC_ASSERT_BYTES(eqe_comp, 0x1c);
MLX5V_IFC_ASSERT(eqe_comp, cqn, 6, 23, 0);
/* eqe_cq_err: prm/mlx5 §6.6 */
MLX5V_IFC_ASSERT_BYTES(eqe_cq_err, 0x1c);
MLX5V_IFC_ASSERT(eqe_cq_err, cqn, 0, 23, 0);
MLX5V_IFC_ASSERT_SPAN(eqe_cq_err, syndrome, 0xb, 1);
/* eqe_qp_srq: prm/mlx5 §6.6 */
MLX5V_IFC_ASSERT_BYTES(eqe_qp_srq, 0x1c);
MLX5V_IFC_ASSERT_SPAN(eqe_qp_srq, type, 0x14, 1);
MLX5V_IFC_ASSERT_SPAN(eqe_qp_srq, qp_srq_n, 0x18, 4);
/* eqe_port_change: prm/mlx5 §6.6 */
MLX5V_IFC_ASSERT_BYTES(eqe_port_change, 0x1c);
MLX5V_IFC_ASSERT(eqe_port_change, port, 2, 31, 28);
/* eqe_cmd: prm/mlx5 §6.6 */
MLX5V_IFC_ASSERT_BYTES(eqe_cmd, 0x1c);
MLX5V_IFC_ASSERT_SPAN(eqe_cmd, vector, 0x0, 4);
/* eqe_page_req: prm/mlx5 §6.6 */
MLX5V_IFC_ASSERT_BYTES(eqe_page_req, 0x1c);
MLX5V_IFC_ASSERT_SPAN(eqe_page_req, ec_function, 0x0, 2);
MLX5V_IFC_ASSERT_SPAN(eqe_page_req, func_id, 0x2, 2);
MLX5V_IFC_ASSERT_SPAN(eqe_page_req, num_pages, 0x4, 4);
/* eqe_vport_change: prm/mlx5 §6.6 */
MLX5V_IFC_ASSERT_BYTES(eqe_vport_change, 0x1c);
MLX5V_IFC_ASSERT_SPAN(eqe_vport_change, vport_num, 0x2, 2);
/* cqc: prm/mlx5 §7.1 */
MLX5V_IFC_ASSERT_BYTES(cqc, 0x40);
MLX5V_IFC_ASSERT(cqc, status, 0, 31, 28);
MLX5V_IFC_ASSERT(cqc, dbr_umem_valid, 0, 25, 25);
MLX5V_IFC_ASSERT(cqc, cqe_sz, 0, 23, 21);
MLX5V_IFC_ASSERT(cqc, cc, 0, 20, 20);
MLX5V_IFC_ASSERT(cqc, oi, 0, 17, 17);
MLX5V_IFC_ASSERT(cqc, cqe_comp_en, 0, 14, 14);
MLX5V_IFC_ASSERT(cqc, mini_cqe_res_format, 0, 13, 12);
MLX5V_IFC_ASSERT(cqc, st, 0, 11, 8);
MLX5V_IFC_ASSERT(cqc, dbr_umem_id, 1, 31, 0);
MLX5V_IFC_ASSERT(cqc, page_offset, 2, 11, 6);
MLX5V_IFC_ASSERT(cqc, mini_cqe_res_format_ext, 2, 3, 2);
MLX5V_IFC_ASSERT(cqc, log_cq_size, 3, 28, 24);
MLX5V_IFC_ASSERT(cqc, uar_page, 3, 23, 0);
MLX5V_IFC_ASSERT(cqc, cq_period, 4, 27, 16);
MLX5V_IFC_ASSERT(cqc, cq_max_count, 4, 15, 0);
MLX5V_IFC_ASSERT(cqc, c_eqn_or_apu_element, 5, 31, 0);
MLX5V_IFC_ASSERT(cqc, log_page_size, 6, 28, 24);
MLX5V_IFC_ASSERT(cqc, last_notified_index, 8, 23, 0);
MLX5V_IFC_ASSERT(cqc, last_solicit_index, 9, 23, 0);
MLX5V_IFC_ASSERT(cqc, consumer_counter, 10, 23, 0);
MLX5V_IFC_ASSERT(cqc, producer_counter, 11, 23, 0);
MLX5V_IFC_ASSERT_SPAN(cqc, dbr_addr, 0x38, 8);
/* create_cq_in: prm/mlx5 §7.1 */
MLX5V_IFC_ASSERT_BYTES(create_cq_in, 0x110);
MLX5V_IFC_ASSERT_IN_HDR(create_cq_in);
MLX5V_IFC_ASSERT_SPAN(create_cq_in, cqc, 0x10, 64);
MLX5V_IFC_ASSERT_SPAN(create_cq_in, cq_umem_offset, 0x50, 8);
MLX5V_IFC_ASSERT(create_cq_in, cq_umem_id, 22, 31, 0);
MLX5V_IFC_ASSERT(create_cq_in, cq_umem_valid, 23, 31, 31);
MLX5V_IFC_ASSERT_OFF(create_cq_in, pas, 0x110);
/* create_cq_out: prm/mlx5 §7.1 */
MLX5V_IFC_ASSERT_BYTES(create_cq_out, 0x10);
MLX5V_IFC_ASSERT_OUT_HDR(create_cq_out);
MLX5V_IFC_ASSERT(create_cq_out, cqn, 2, 23, 0);
/* destroy_cq_in: prm/mlx5 §7.1 */
MLX5V_IFC_ASSERT_BYTES(destroy_cq_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(destroy_cq_in);
MLX5V_IFC_ASSERT(destroy_cq_in, cqn, 2, 23, 0);
/* query_cq_in: prm/mlx5 §7.1 */
MLX5V_IFC_ASSERT_BYTES(query_cq_in, 0x10);
MLX5V_IFC_ASSERT_IN_HDR(query_cq_in);
MLX5V_IFC_ASSERT(query_cq_in, cqn, 2, 23, 0);
/* query_cq_out: prm/mlx5 §7.1 */
MLX5V_IFC_ASSERT_BYTES(query_cq_out, 0x110);
MLX5V_IFC_ASSERT_OUT_HDR(query_cq_out);
MLX5V_IFC_ASSERT_SPAN(query_cq_out, cqc, 0x10, 64);
MLX5V_IFC_ASSERT_OFF(query_cq_out, pas, 0x110);
/* cqe: prm/mlx5 §7.4 */
MLX5V_IFC_ASSERT_BYTES(cqe, 0x40);
MLX5V_IFC_ASSERT_SPAN(cqe, byte_cnt, 0x2c, 4);
MLX5V_IFC_ASSERT_SPAN(cqe, wqe_counter, 0x3c, 2);
MLX5V_IFC_ASSERT_SPAN(cqe, signature, 0x3e, 1);
MLX5V_IFC_ASSERT(cqe, opcode, 15, 7, 4);
MLX5V_IFC_ASSERT(cqe, owner, 15, 0, 0);
/* cq_dbrec: prm/mlx5 §7.3 */
MLX5V_IFC_ASSERT_BYTES(cq_dbrec, 0x8);
MLX5V_IFC_ASSERT(cq_dbrec, set_ci, 0, 23, 0);
MLX5V_IFC_ASSERT(cq_dbrec, arm_sn, 1, 29, 28);
MLX5V_IFC_ASSERT(cq_dbrec, arm_cmd, 1, 27, 24);
MLX5V_IFC_ASSERT(cq_dbrec, arm_ci, 1, 23, 0);
/* uar_page: prm/mlx5 §8 */
MLX5V_IFC_ASSERT_BYTES(uar_page, 0x1000);
MLX5V_IFC_ASSERT_SPAN(uar_page, cq_db, 0x20, 8);
MLX5V_IFC_ASSERT_SPAN(uar_page, eq_db_arm, 0x40, 4);
MLX5V_IFC_ASSERT_SPAN(uar_page, eq_db_noarm, 0x48, 4);
MLX5V_IFC_ASSERT_SPAN(uar_page, bf, 0x800, 2048);

#endif /* _MLX5V_PRM_EQ_H_ */
