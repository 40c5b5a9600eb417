/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Command queue engine of the model: slots, mailboxes, dispatch, completion. */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_priv.h"

/** One opcode the model implements. */
struct mlx5v_sim_cmd_op {
	uint16_t opcode;
	uint8_t need;           /**< minimum enum mlx5v_sim_hca_state */
	uint32_t op_mods;       /**< bit m set: op_mod m is defined */
	uint32_t min_inlen;
	uint32_t min_outlen;
	const char *name;
	mlx5v_sim_cmd_fn fn;
};

/* Offset of a mailbox control field within the 64-byte tail after the data (prm/mlx5 §3.3). */
#define MLX5V_SIM_TAIL(fld) (MLX5V_IFC_BYTE_OFF(cmd_mbox, fld) - MLX5V_MBOX_DATA_LEN)

#define OPM(m) (1u << (m))
#define HCA_ANY MLX5V_SIM_HCA_DISABLED
#define HCA_EN MLX5V_SIM_HCA_ENABLED
#define HCA_INIT MLX5V_SIM_HCA_INITIALIZED
/* A command of MLX5V_CMD_OPCODES(), named there: state, op_mods, lengths, handler. */
#define OP(op, need, mods, inlen, outlen, fn) \
	{ MLX5V_CMD_OP_##op, need, mods, inlen, outlen, #op, mlx5v_sim_cmd_##fn }
/* An Ethernet command: after INIT_HCA, op_mod 0, lengths of its input and output layouts. */
#define ETH_OP(op, in, out, fn) OP(op, HCA_INIT, OPM(0), MLX5V_IFC_BYTES(in), \
				   MLX5V_IFC_BYTES(out), fn)

/* ONE handler per opcode (prm/mlx5 §10); lengths from prm/mlx5 §2.1, §5.1, §6, §7, §9. */
static const struct mlx5v_sim_cmd_op mlx5v_sim_cmd_ops[] = {
	OP(QUERY_HCA_CAP, HCA_EN,
	   OPM(0) | OPM(1) | OPM(MLX5V_CAP_TYPE_ROCE << 1) | OPM((MLX5V_CAP_TYPE_ROCE << 1) | 1) |
	   OPM(MLX5V_CAP_TYPE_ETH_OFFLOADS << 1) | OPM((MLX5V_CAP_TYPE_ETH_OFFLOADS << 1) | 1) |
	   OPM(MLX5V_CAP_TYPE_FLOW_TABLE << 1) | OPM((MLX5V_CAP_TYPE_FLOW_TABLE << 1) | 1),
	   0x10, MLX5V_IFC_BYTES(query_hca_cap_out), query_hca_cap),
	OP(INIT_HCA, HCA_EN, OPM(0), 0x10, 0x10, init_hca),
	OP(TEARDOWN_HCA, HCA_EN, OPM(0), 0x10, 0x10, teardown_hca),
	OP(ENABLE_HCA, HCA_ANY, OPM(0), 0x10, MLX5V_IFC_BYTES(enable_hca_out), enable_hca),
	OP(DISABLE_HCA, HCA_ANY, OPM(0), 0x10, MLX5V_IFC_BYTES(disable_hca_out), disable_hca),
	OP(QUERY_PAGES, HCA_EN,
	   OPM(MLX5V_QUERY_PAGES_BOOT) | OPM(MLX5V_QUERY_PAGES_INIT) |
	   OPM(MLX5V_QUERY_PAGES_POST_INIT),
	   0x10, 0x10, query_pages),
	OP(MANAGE_PAGES, HCA_EN,
	   OPM(MLX5V_MANAGE_PAGES_CANT_GIVE) | OPM(MLX5V_MANAGE_PAGES_GIVE) |
	   OPM(MLX5V_MANAGE_PAGES_TAKE),
	   0x10, 0x10, manage_pages),
	OP(SET_HCA_CAP, HCA_EN, OPM(0) | OPM(MLX5V_CAP_TYPE_ROCE << 1),
	   MLX5V_IFC_BYTES(set_hca_cap_in), 0x10, set_hca_cap),
	OP(QUERY_ISSI, HCA_EN, OPM(0), 0x10, MLX5V_IFC_BYTES(query_issi_out), query_issi),
	OP(SET_ISSI, HCA_EN, OPM(0), 0x10, 0x10, set_issi),
	OP(CREATE_EQ, HCA_INIT, OPM(0), MLX5V_IFC_BYTES(create_eq_in),
	   MLX5V_IFC_BYTES(create_eq_out), create_eq),
	OP(DESTROY_EQ, HCA_INIT, OPM(0), MLX5V_IFC_BYTES(destroy_eq_in),
	   MLX5V_IFC_BYTES(destroy_eq_out), destroy_eq),
	OP(QUERY_EQ, HCA_INIT, OPM(0), MLX5V_IFC_BYTES(query_eq_in), MLX5V_IFC_BYTES(query_eq_out),
	   query_eq),
	OP(GEN_EQE, HCA_INIT, OPM(0), MLX5V_IFC_BYTES(gen_eqe_in), MLX5V_IFC_BYTES(gen_eqe_out),
	   gen_eqe),
	OP(CREATE_CQ, HCA_INIT, OPM(0), MLX5V_IFC_BYTES(create_cq_in), 0x10, create_cq),
	OP(DESTROY_CQ, HCA_INIT, OPM(0), 0x10, 0x10, destroy_cq),
	OP(QUERY_CQ, HCA_INIT, OPM(0), 0x10, MLX5V_IFC_BYTES(query_cq_out), query_cq),
	OP(MODIFY_NIC_VPORT_CONTEXT, HCA_INIT, OPM(0), MLX5V_IFC_BYTES(modify_nic_vport_context_in),
	   0x10, eth_modify_nic_vport),
	OP(ALLOC_UAR, HCA_INIT, OPM(0), 0x10, 0x10, alloc_uar),
	OP(DEALLOC_UAR, HCA_INIT, OPM(0), 0x10, 0x10, dealloc_uar),
	OP(ACCESS_REG, HCA_EN, OPM(MLX5V_ACCESS_REG_WRITE) | OPM(MLX5V_ACCESS_REG_READ), 0x10, 0x10,
	   eth_access_reg),
	/* The Ethernet function: lengths are those of its layouts (mlx5v_prm_eth.h). */
	ETH_OP(ALLOC_PD, eth_cmd_in, eth_obj_out, alloc_pd),
	ETH_OP(DEALLOC_PD, eth_obj_in, eth_cmd_out, dealloc_pd),
	ETH_OP(ALLOC_TRANSPORT_DOMAIN, eth_cmd_in, eth_obj_out, alloc_td),
	ETH_OP(DEALLOC_TRANSPORT_DOMAIN, eth_obj_in, eth_cmd_out, dealloc_td),
	ETH_OP(QUERY_SPECIAL_CONTEXTS, eth_cmd_in, query_special_contexts_out,
	       query_special_contexts),
	ETH_OP(CREATE_MKEY, create_mkey_in, eth_obj_out, create_mkey),
	ETH_OP(DESTROY_MKEY, eth_obj_in, eth_cmd_out, destroy_mkey),
	ETH_OP(QUERY_MKEY, eth_obj_in, query_mkey_out, query_mkey),
	ETH_OP(ALLOC_Q_COUNTER, eth_cmd_in, alloc_q_counter_out, alloc_q_counter),
	ETH_OP(DEALLOC_Q_COUNTER, dealloc_q_counter_in, eth_cmd_out, dealloc_q_counter),
	ETH_OP(QUERY_Q_COUNTER, query_q_counter_in, query_q_counter_out, query_q_counter),
	ETH_OP(CREATE_TIS, create_tis_in, eth_obj_out, create_tis),
	ETH_OP(MODIFY_TIS, modify_tis_in, eth_cmd_out, modify_tis),
	ETH_OP(DESTROY_TIS, eth_obj_in, eth_cmd_out, destroy_tis),
	ETH_OP(QUERY_TIS, eth_obj_in, query_tis_out, query_tis),
	ETH_OP(CREATE_SQ, create_sq_in, eth_obj_out, create_sq),
	ETH_OP(MODIFY_SQ, modify_sq_in, eth_cmd_out, modify_sq),
	ETH_OP(DESTROY_SQ, eth_obj_in, eth_cmd_out, destroy_sq),
	ETH_OP(QUERY_SQ, eth_obj_in, query_sq_out, query_sq),
	ETH_OP(CREATE_RQ, create_rq_in, eth_obj_out, create_rq),
	ETH_OP(MODIFY_RQ, modify_rq_in, eth_cmd_out, modify_rq),
	ETH_OP(DESTROY_RQ, eth_obj_in, eth_cmd_out, destroy_rq),
	ETH_OP(QUERY_RQ, eth_obj_in, query_rq_out, query_rq),
	ETH_OP(CREATE_RQT, create_rqt_in, eth_obj_out, create_rqt),
	ETH_OP(MODIFY_RQT, modify_rqt_in, eth_cmd_out, modify_rqt),
	ETH_OP(DESTROY_RQT, eth_obj_in, eth_cmd_out, destroy_rqt),
	ETH_OP(QUERY_RQT, eth_obj_in, query_rqt_out, query_rqt),
	ETH_OP(CREATE_TIR, create_tir_in, eth_obj_out, create_tir),
	ETH_OP(MODIFY_TIR, modify_tir_in, eth_cmd_out, modify_tir),
	ETH_OP(DESTROY_TIR, eth_obj_in, eth_cmd_out, destroy_tir),
	ETH_OP(QUERY_TIR, eth_obj_in, query_tir_out, query_tir),
	ETH_OP(CREATE_FLOW_TABLE, create_flow_table_in, eth_obj_out, create_flow_table),
	ETH_OP(DESTROY_FLOW_TABLE, flow_table_obj_in, eth_cmd_out, destroy_flow_table),
	OP(SET_FLOW_TABLE_ROOT, HCA_INIT, OPM(0) | OPM(1), MLX5V_IFC_BYTES(flow_table_obj_in),
	   MLX5V_IFC_BYTES(eth_cmd_out), set_flow_table_root),
	ETH_OP(CREATE_FLOW_GROUP, create_flow_group_in, eth_obj_out, create_flow_group),
	ETH_OP(DESTROY_FLOW_GROUP, flow_table_obj_in, eth_cmd_out, destroy_flow_group),
	ETH_OP(SET_FLOW_TABLE_ENTRY, set_fte_in, eth_cmd_out, set_fte),
	ETH_OP(DELETE_FLOW_TABLE_ENTRY, flow_table_obj_in, eth_cmd_out, delete_fte),
	ETH_OP(ALLOC_FLOW_COUNTER, alloc_flow_counter_in, alloc_flow_counter_out,
	       alloc_flow_counter),
	ETH_OP(DEALLOC_FLOW_COUNTER, dealloc_flow_counter_in, eth_cmd_out, dealloc_flow_counter),
	ETH_OP(QUERY_FLOW_COUNTER, query_flow_counter_in, query_flow_counter_out,
	       query_flow_counter),
	ETH_OP(QUERY_VPORT_STATE, query_vport_state_in, query_vport_state_out,
	       query_vport_state),
	ETH_OP(QUERY_NIC_VPORT_CONTEXT, query_nic_vport_context_in, query_nic_vport_context_out,
	       query_nic_vport),
};

static const struct mlx5v_sim_cmd_op *
mlx5v_sim_cmd_op_find(uint16_t opcode)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_sim_cmd_ops); i++)
		if (mlx5v_sim_cmd_ops[i].opcode == opcode)
			return &mlx5v_sim_cmd_ops[i];
	return NULL;
}

uint8_t
mlx5v_sim_cmd_err(struct mlx5v_sim_cmd *c, uint8_t status, uint32_t syndrome)
{
	c->syndrome = syndrome;
	return status;
}

/*
 * Reserved-field check for the handlers: reserved bytes that are not clear answer BAD_PARAM (0x03),
 * as prm/mlx5 §13 allows for reserved field misuse.
 */
int
mlx5v_sim_zero(const uint8_t *in, uint32_t off, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if (in[off + i] != 0)
			return 0;
	return 1;
}

/*
 * [K] signature arithmetic (prm/mlx5 §3.4): a signature byte is ~xor8 of the rest, so a correctly
 * signed region XORs to 0xff.
 */
static uint8_t
mlx5v_sim_xor8(const uint8_t *p, size_t len)
{
	uint8_t x = 0;
	size_t i;

	for (i = 0; i < len; i++)
		x ^= p[i];
	return x;
}

/*
 * prm/mlx5 §3.4: off unless the driver set cmdif_checksum in SET_HCA_CAP, or the knob forces it.
 * Taken when a command arrives and kept for its answer: SET_HCA_CAP itself goes unsigned both ways,
 * DISABLE_HCA (which clears it) signed both ways.
 */
static int
mlx5v_sim_checksums(struct mlx5v_sim *sim)
{
	return sim->checksum_cap || mlx5v_sim_knob(sim, MLX5V_SIM_K_CHECKSUMS) != 0;
}

/*
 * Mailbox blocks beyond the 16 inline bytes: ceil((len - 16) / 512), 0 when the message fits inline
 * (prm/mlx5 §3.3).
 */
static uint32_t
mlx5v_sim_cmd_nblocks(uint32_t len)
{
	if (len <= MLX5V_CMD_INLINE_LEN)
		return 0;
	return (len - MLX5V_CMD_INLINE_LEN + MLX5V_MBOX_DATA_LEN - 1) / MLX5V_MBOX_DATA_LEN;
}

/*
 * Read the input message: 16 inline bytes, then the block chain (prm/mlx5 §3.3).
 * @return the delivery status (0 = OK).
 */
static uint8_t
mlx5v_sim_cmd_read_in(struct mlx5v_sim *sim, const uint8_t *ent, uint8_t *in, uint32_t inlen)
{
	uint8_t blk[MLX5V_MBOX_SIZE];
	uint32_t nblk = mlx5v_sim_cmd_nblocks(inlen);
	uint64_t ptr = MLX5V_IFC_GET64(cmd_layout, ent, iptr);
	uint32_t done = MLX5V_CMD_INLINE_LEN;
	uint32_t n;
	uint32_t len;

	memcpy(in, MLX5V_IFC_ADDR_OF(cmd_layout, ent, in),
	       RTE_MIN(inlen, (uint32_t)MLX5V_CMD_INLINE_LEN));
	for (n = 0; n < nblk; n++) {
		/*
		 * prm/mlx5 §3.3: the true alignment rule is not in the sources; the model accepts 1
		 * KiB or more ([K] pool alignment, [R] page alignment) and answers IN_PTR_ALIGN_ERR
		 * (0x5) below that (inference).
		 */
		if (ptr % MLX5V_MBOX_ALIGN != 0) {
			SIM_LOG(WARNING, "%s: input block %u at 0x%" PRIx64 " not 1 KiB aligned",
				sim->name, n, ptr);
			return MLX5V_CMD_DELIV_IN_PTR_ALIGN_ERR;
		}
		/* An unmapped block is an IOMMU fault, reported as a bad input pointer. */
		if (hwsim_dma_read(sim->dma, ptr, blk, sizeof(blk)) != 0) {
			SIM_LOG(WARNING, "%s: input block %u at 0x%" PRIx64 ": IOMMU fault",
				sim->name, n, ptr);
			return MLX5V_CMD_DELIV_IN_PTR_ALIGN_ERR;
		}
		/*
		 * prm/mlx5 §3.3: block_num counts 0, 1, 2, ... along the chain, even when [K]
		 * builds it backwards; a gap or a loop is BAD_BLK_NUM_ERR (0x3).
		 */
		if (MLX5V_IFC_GET(cmd_mbox, blk, block_num) != n)
			return MLX5V_CMD_DELIV_BAD_BLK_NUM_ERR;
		/*
		 * prm/mlx5 §3.4: optional and off by default, because [R] always writes token 0
		 * while [K] writes a per-command token; a mismatch is TOK_ERR (0x2).
		 */
		if (mlx5v_sim_knob(sim, MLX5V_SIM_K_CHECK_TOKEN) != 0 &&
				MLX5V_IFC_GET(cmd_mbox, blk, token) !=
				MLX5V_IFC_GET(cmd_layout, ent, token))
			return MLX5V_CMD_DELIV_TOK_ERR;
		/* [K] signatures: ctrl_sig over 0x200..0x23e, sig over the whole block. */
		if (sim->cmd_sig_on &&
				(mlx5v_sim_xor8(blk + MLX5V_MBOX_DATA_LEN,
						MLX5V_SIM_TAIL(sig)) != 0xff ||
				 mlx5v_sim_xor8(blk, sizeof(blk)) != 0xff))
			return MLX5V_CMD_DELIV_SIGNAT_ERR;
		len = RTE_MIN(inlen - done, (uint32_t)MLX5V_MBOX_DATA_LEN);
		memcpy(in + done, blk, len);
		done += len;
		/*
		 * The chain length comes from inlen, not from a zero next: the next of the last
		 * block is never followed, so a stale value there is harmless (inference).
		 */
		ptr = MLX5V_IFC_GET64(cmd_mbox, blk, next);
	}
	return MLX5V_CMD_DELIV_OK;
}

/*
 * Walk the output chain before the command runs, so a bad chain fails delivery
 * without executing anything. oblk[] gets each block's address, tails[] its last
 * 64 bytes (next, block_num, token, signatures).
 */
static uint8_t
mlx5v_sim_cmd_walk_out(struct mlx5v_sim *sim, const uint8_t *ent, uint32_t outlen,
		       uint64_t *oblk, uint8_t *tails)
{
	uint32_t nblk = mlx5v_sim_cmd_nblocks(outlen);
	uint64_t ptr = MLX5V_IFC_GET64(cmd_layout, ent, optr);
	uint8_t *tail;
	uint32_t n;

	for (n = 0; n < nblk; n++) {
		tail = tails + n * 64;
		if (ptr % MLX5V_MBOX_ALIGN != 0) {
			SIM_LOG(WARNING, "%s: output block %u at 0x%" PRIx64 " not 1 KiB aligned",
				sim->name, n, ptr);
			return MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR;
		}
		/*
		 * The whole block must be mapped, not only the tail read here, or the output write
		 * would fault after the command ran. An IOMMU fault has no delivery code of its
		 * own, so it reads as OUT_PTR_ALIGN_ERR (0x4) (inference).
		 */
		if (hwsim_dma_read(sim->dma, ptr + MLX5V_MBOX_DATA_LEN, tail, 64) != 0 ||
				!hwsim_dma_check(sim->dma, ptr, MLX5V_MBOX_SIZE)) {
			SIM_LOG(WARNING, "%s: output block %u at 0x%" PRIx64 ": IOMMU fault",
				sim->name, n, ptr);
			return MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR;
		}
		if (mlx5v_sim_be32(tail, MLX5V_SIM_TAIL(block_num)) != n)
			return MLX5V_CMD_DELIV_BAD_BLK_NUM_ERR;
		if (mlx5v_sim_knob(sim, MLX5V_SIM_K_CHECK_TOKEN) != 0 &&
				tail[MLX5V_SIM_TAIL(token)] !=
				MLX5V_IFC_GET(cmd_layout, ent, token))
			return MLX5V_CMD_DELIV_TOK_ERR;
		oblk[n] = ptr;
		ptr = ((uint64_t)mlx5v_sim_be32(tail, MLX5V_SIM_TAIL(next)) << 32) |
		      mlx5v_sim_be32(tail, MLX5V_SIM_TAIL(next) + 4);
	}
	return MLX5V_CMD_DELIV_OK;
}

/*
 * Write the output blocks (the entry's out[] is written by the caller). bad_sig (the
 * bad_out_sig_* knobs) makes block 0's signature wrong, as a corrupted transfer would.
 */
static uint8_t
mlx5v_sim_cmd_write_out(struct mlx5v_sim *sim, const uint8_t *ent, const uint8_t *out,
			uint32_t outlen, const uint64_t *oblk, const uint8_t *tails, int bad_sig)
{
	uint8_t blk[MLX5V_MBOX_SIZE];
	uint32_t nblk = mlx5v_sim_cmd_nblocks(outlen);
	uint32_t done = MLX5V_CMD_INLINE_LEN;
	uint32_t len;
	uint32_t n;
	int ret;

	for (n = 0; n < nblk; n++) {
		len = RTE_MIN(outlen - done, (uint32_t)MLX5V_MBOX_DATA_LEN);
		if (sim->cmd_sig_on) {
			/* Whole block: data, the driver's tail, our token and signatures. */
			memset(blk, 0, MLX5V_MBOX_DATA_LEN);
			memcpy(blk, out + done, len);
			memcpy(blk + MLX5V_MBOX_DATA_LEN, tails + n * 64, 64);
			MLX5V_IFC_SET(cmd_mbox, blk, token, MLX5V_IFC_GET(cmd_layout, ent, token));
			MLX5V_IFC_SET(cmd_mbox, blk, ctrl_sig, 0);
			MLX5V_IFC_SET(cmd_mbox, blk, sig, 0);
			MLX5V_IFC_SET(cmd_mbox, blk, ctrl_sig,
				      ~mlx5v_sim_xor8(blk + MLX5V_MBOX_DATA_LEN,
						      MLX5V_SIM_TAIL(sig)));
			MLX5V_IFC_SET(cmd_mbox, blk, sig, ~mlx5v_sim_xor8(blk, sizeof(blk) - 1));
			if (n == 0 && bad_sig == MLX5V_SIM_BAD_SIG_BLOCK)
				blk[MLX5V_IFC_BYTE_OFF(cmd_mbox, sig)] ^= 0x5a;
			ret = hwsim_dma_write(sim->dma, oblk[n], blk, sizeof(blk));
		} else {
			ret = hwsim_dma_write(sim->dma, oblk[n], out + done, len);
		}
		/*
		 * The chain was checked before execution, so this fails only if the driver unmapped
		 * it meanwhile; the command has run, but its output is lost (delivery 0x4).
		 */
		if (ret != 0)
			return MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR;
		done += len;
	}
	return MLX5V_CMD_DELIV_OK;
}

/* Validate and execute the command; fills out[] (status, syndrome, body). Lock held. */
static uint8_t
mlx5v_sim_cmd_dispatch(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const struct mlx5v_sim_cmd_op *op = mlx5v_sim_cmd_op_find(c->opcode);

	/*
	 * prm/mlx5 §13: an opcode the model does not implement is BAD_OP (0x02), never a delivery
	 * error.
	 */
	if (op == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_OP_ERR, MLX5V_SIM_SYND_BAD_OPCODE);
	/*
	 * Commands before ENABLE_HCA or INIT_HCA answer BAD_SYS_STATE (0x04) instead of running on
	 * a half-initialised device; the state each opcode needs follows the prm/mlx5 §2.1 order
	 * (inference: no source lists it per opcode).
	 */
	if (sim->hca_state < op->need)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR,
					 sim->hca_state == MLX5V_SIM_HCA_DISABLED ?
					 MLX5V_SIM_SYND_HCA_DISABLED :
					 MLX5V_SIM_SYND_HCA_NOT_INIT);
	/*
	 * An op_mod the opcode does not define is a malformed field: BAD_PARAM (0x03),
	 * prm/mlx5 §13.
	 */
	if (c->op_mod >= 32 || !(op->op_mods & OPM(c->op_mod)))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_BAD_OP_MOD);
	/*
	 * The entry was well formed but is too short for this opcode's layout: outbox status
	 * BAD_INP_LEN (0x50) / BAD_OUTP_LEN (0x51) of prm/mlx5 §3.8, not delivery 0x7/0x8, which
	 * the model keeps for lengths no command could have (inference).
	 */
	if (c->inlen < op->min_inlen)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_INP_LEN_ERR, MLX5V_SIM_SYND_INLEN);
	if (c->outlen < op->min_outlen)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_OUTP_LEN_ERR,
					 MLX5V_SIM_SYND_OUTLEN);
	return op->fn(sim, c);
}

static const char *
mlx5v_sim_cmd_name(uint16_t opcode)
{
	const struct mlx5v_sim_cmd_op *op = mlx5v_sim_cmd_op_find(opcode);

	return op != NULL ? op->name : "UNKNOWN";
}

/*
 * Hand the slot back: status_own = delivery status << 1 with the owner bit clear,
 * written last; then, in event mode, the CMD EQE (prm/mlx5 §3.6). Lock held.
 */
static void
mlx5v_sim_cmd_complete(struct mlx5v_sim *sim, unsigned int s)
{
	struct mlx5v_sim_slot *sl = &sim->slot[s];
	struct mlx5v_sim_eq *eq;
	uint8_t data[MLX5V_SIM_EQE_DATA_LEN];
	uint8_t so = sl->deliv << 1;
	int i;

	/*
	 * The entry signature goes out before status_own: a [K] driver checks it as soon as it sees
	 * the owner bit clear (prm/mlx5 §3.4).
	 */
	if (sl->sig_on) {
		hwsim_dma_write(sim->dma, sl->ent_iova + MLX5V_IFC_BYTE_OFF(cmd_layout, sig),
				&sl->sig, 1);
	} else {
		/* Unsigned, the byte is arbitrary on silicon: never a valid signature here. */
		so = sl->sig ^ 0xa5;
		hwsim_dma_write(sim->dma, sl->ent_iova + MLX5V_IFC_BYTE_OFF(cmd_layout, sig),
				&so, 1);
		so = sl->deliv << 1;
	}
	/* Output first, then a release fence, then the owner byte (prm/mlx5 §3.6 polling mode). */
	if (hwsim_dma_write_release(sim->dma,
				    sl->ent_iova + MLX5V_IFC_BYTE_OFF(cmd_layout, status_own),
				    &so, 1) != 0)
		SIM_LOG(ERR, "%s: slot %u: cannot write status_own: IOMMU fault", sim->name, s);
	/*
	 * Freed even if status_own could not be written: the model has no other way to return the
	 * slot, and the driver's timeout covers the lost completion (prm/mlx5 §3.10).
	 */
	sl->state = MLX5V_SIM_SLOT_IDLE;
	/*
	 * drop_opcode fault: ownership still changes, only the EQE is lost, which an event-mode
	 * driver must survive by polling (prm/mlx5 §3.10 project rule).
	 */
	if (sl->drop_eqe || sl->cmd_eqn == MLX5V_SIM_EQN_NONE)
		return;
	/*
	 * prm/mlx5 §3.6 model rule: a CMD EQE only if the CMD-subscribed EQ existed when the
	 * doorbell rang and still exists, so CREATE_EQ/DESTROY_EQ of the command EQ
	 * complete by ownership alone.
	 */
	eq = mlx5v_sim_eq_get(sim, sl->cmd_eqn);
	if (eq == NULL || eq->gen != sl->cmd_eq_gen)
		return;
	memset(data, 0, sizeof(data));
	/*
	 * prm/mlx5 §3.6: vector (BE32 at EQE 0x20, data dword 0) has bit s set. One EQE per slot,
	 * so an rdma-core-style driver only ever sees bits 0 and 31.
	 */
	MLX5V_IFC_SET(eqe_cmd, data, vector, 1u << s);
	/*
	 * dup_opcode fault: a second CMD EQE for a completed slot, which [R] must absorb by
	 * re-checking status_own (prm/mlx5 §3.6).
	 */
	for (i = 0; i < (sl->dup_eqe ? 2 : 1); i++)
		mlx5v_sim_eq_post(sim, eq, RTE_PMD_MLX5V_EVENT_CMD, 0, data);
}

/* The faults injected into one command (mlx5v_sim_faults.c); 0 is none. */
struct mlx5v_sim_cmd_faults {
	uint32_t delay_ms;          /**< the answer stays hardware-owned this long */
	uint32_t synd;              /**< the syndrome that goes with status */
	uint32_t hold;              /**< pages to ask for before completing */
	uint8_t status;             /**< answered instead of running the command */
	uint8_t deliv;              /**< a delivery error instead of running the command */
	int bad_sig;                /**< MLX5V_SIM_BAD_SIG_*: the signature to get wrong */
	int drop;                   /**< 1: no EQE; 2: the slot is held */
	int dup;                    /**< a second EQE */
};

/* One command on its way through the engine: the entry's image, its buffers, its faults. */
struct mlx5v_sim_cmd_job {
	uint8_t ent[MLX5V_CMD_ENT_SIZE];
	struct mlx5v_sim_cmd c;
	uint8_t *in;
	uint64_t *oblk;
	uint8_t *tails;
	struct mlx5v_sim_cmd_faults f;
};

/* Read the entry of slot s. @return 0, or -1 when there is nothing to answer (slot idle). */
static int
mlx5v_sim_cmd_fetch(struct mlx5v_sim *sim, unsigned int s, struct mlx5v_sim_cmd_job *j)
{
	struct mlx5v_sim_slot *sl = &sim->slot[s];
	uint64_t q = ((uint64_t)sim->cmdq_addr_h << 32) | sim->cmdq_addr_l;

	sim->cmd_sig_on = mlx5v_sim_checksums(sim);
	sl->sig_on = sim->cmd_sig_on;
	sl->ent_iova = q + ((uint64_t)s << MLX5V_CMDQ_LOG_STRIDE);
	if (hwsim_dma_read(sim->dma, sl->ent_iova, j->ent, sizeof(j->ent)) != 0) {
		/* No entry to answer in: the command is lost, as on an IOMMU-blocked device. */
		SIM_LOG(ERR, "%s: slot %u: entry 0x%" PRIx64 " not DMA mapped; command lost",
			sim->name, s, sl->ent_iova);
		sl->state = MLX5V_SIM_SLOT_IDLE;
		return -1;
	}
	/* prm/mlx5 §3.5: a doorbell for a software-owned slot is a driver bug; never touch it. */
	if (!(MLX5V_IFC_GET(cmd_layout, j->ent, status_own) & MLX5V_CMD_OWNER_HW)) {
		SIM_LOG(WARNING, "%s: doorbell on software-owned slot %u ignored (driver bug)",
			sim->name, s);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		sl->state = MLX5V_SIM_SLOT_IDLE;
		return -1;
	}
	mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_CMDS);
	/* Objects whose destroy failed keep writing their rings while commands run. */
	mlx5v_sim_zombies_touch(sim);
	j->c.slot = s;
	j->c.inlen = MLX5V_IFC_GET(cmd_layout, j->ent, inlen);
	j->c.outlen = MLX5V_IFC_GET(cmd_layout, j->ent, outlen);
	return 0;
}

/*
 * Check the entry, read the input, walk the output chain and look up the faults.
 * @return MLX5V_CMD_DELIV_OK if the command is to run, else the delivery status to answer.
 */
static uint8_t
mlx5v_sim_cmd_validate(struct mlx5v_sim *sim, struct mlx5v_sim_cmd_job *j)
{
	struct mlx5v_sim_cmd *c = &j->c;
	struct mlx5v_sim_cmd_faults *f = &j->f;
	uint8_t deliv;

	/*
	 * Entry-level delivery checks (prm/mlx5 §3.7, §13): type must be 7 (else CMD_DESCR_ERR
	 * 0x10); the entry signature must XOR to 0xff when checksums apply (0x1); each length must
	 * hold the 8-byte header and stay within what the model walks (0x7 / 0x8).
	 */
	if (MLX5V_IFC_GET(cmd_layout, j->ent, type) != MLX5V_CMD_TYPE_PCI)
		return MLX5V_CMD_DELIV_CMD_DESCR_ERR;
	if (sim->cmd_sig_on && mlx5v_sim_xor8(j->ent, sizeof(j->ent)) != 0xff)
		return MLX5V_CMD_DELIV_SIGNAT_ERR;
	if (c->inlen < MLX5V_SIM_CMD_MIN_LEN || c->inlen > MLX5V_SIM_CMD_MAX_LEN)
		return MLX5V_CMD_DELIV_IN_LENGTH_ERR;
	if (c->outlen < MLX5V_SIM_CMD_MIN_LEN || c->outlen > MLX5V_SIM_CMD_MAX_LEN)
		return MLX5V_CMD_DELIV_OUT_LENGTH_ERR;
	/*
	 * A failed allocation is the model's fault, not the driver's: FW_ERR (0x6). The + 1 below
	 * keeps calloc() from returning NULL for an inline-only output.
	 */
	j->in = calloc(1, c->inlen);
	c->out = calloc(1, RTE_MAX(c->outlen, (uint32_t)MLX5V_CMD_INLINE_LEN));
	j->oblk = calloc(mlx5v_sim_cmd_nblocks(c->outlen) + 1, sizeof(*j->oblk));
	j->tails = calloc(mlx5v_sim_cmd_nblocks(c->outlen) + 1, 64);
	if (j->in == NULL || c->out == NULL || j->oblk == NULL || j->tails == NULL)
		return MLX5V_CMD_DELIV_FW_ERR;
	c->in = j->in;
	/*
	 * Both chains are checked before anything executes, so a delivery error never leaves a
	 * half-run command behind (prm/mlx5 §3.9: the command did not run).
	 */
	deliv = mlx5v_sim_cmd_read_in(sim, j->ent, j->in, c->inlen);
	if (deliv == MLX5V_CMD_DELIV_OK)
		deliv = mlx5v_sim_cmd_walk_out(sim, j->ent, c->outlen, j->oblk, j->tails);
	if (deliv != MLX5V_CMD_DELIV_OK)
		return deliv;
	c->opcode = MLX5V_IFC_GET(cmd_in_hdr, j->in, opcode);
	c->op_mod = MLX5V_IFC_GET(cmd_in_hdr, j->in, op_mod);
	mlx5v_sim_faults_cmd(sim, c->opcode, c->op_mod, &f->status, &f->synd, &f->deliv,
			     &f->delay_ms, &f->drop, &f->dup);
	f->hold = mlx5v_sim_faults_hold_pages(sim, c->opcode);
	/*
	 * Only a signed answer can carry a wrong signature. Block 0 needs output blocks that
	 * get written, so without them (or with a delivery error) the entry's goes wrong.
	 */
	if (sim->cmd_sig_on) {
		f->bad_sig = mlx5v_sim_faults_out_sig(sim, c->opcode);
		if (f->bad_sig == MLX5V_SIM_BAD_SIG_BLOCK &&
				(mlx5v_sim_cmd_nblocks(c->outlen) == 0 || f->deliv != 0))
			f->bad_sig = MLX5V_SIM_BAD_SIG_ENTRY;
	}
	/*
	 * An injected delivery error skips execution, as a real transport error does
	 * (prm/mlx5 §3.9).
	 */
	return f->deliv != 0 ? f->deliv : MLX5V_CMD_DELIV_OK;
}

/* Run the command and write its output. @return the delivery status of the write. */
static uint8_t
mlx5v_sim_cmd_execute(struct mlx5v_sim *sim, unsigned int s, struct mlx5v_sim_cmd_job *j)
{
	struct mlx5v_sim_cmd *c = &j->c;
	uint8_t deliv;
	uint8_t status;

	if (j->f.status != 0)
		status = mlx5v_sim_cmd_err(c, j->f.status, j->f.synd);
	else
		status = mlx5v_sim_cmd_dispatch(sim, c);
	if (status != MLX5V_CMD_STAT_OK) {
		mlx5v_sim_destroy_failed(sim, c);
		/* A failed command returns only its header. */
		memset(c->out, 0, RTE_MAX(c->outlen, (uint32_t)MLX5V_CMD_INLINE_LEN));
		SIM_LOG(INFO, "%s: slot %u: %s (0x%x) op_mod %u -> status 0x%x syndrome 0x%x",
			sim->name, s, mlx5v_sim_cmd_name(c->opcode), c->opcode, c->op_mod,
			status, c->syndrome);
	} else {
		SIM_LOG(DEBUG, "%s: slot %u: %s (0x%x) op_mod %u inlen %u outlen %u -> OK",
			sim->name, s, mlx5v_sim_cmd_name(c->opcode), c->opcode, c->op_mod,
			c->inlen, c->outlen);
	}
	/*
	 * prm/mlx5 §3.8: status at out byte 0, syndrome at bytes 4-7; the syndrome is cleared on
	 * success, where it would only be noise.
	 */
	MLX5V_IFC_SET(cmd_out_hdr, c->out, status, status);
	MLX5V_IFC_SET(cmd_out_hdr, c->out, syndrome, status != 0 ? c->syndrome : 0);
	if (status != MLX5V_CMD_STAT_OK)
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_CMD_ERRORS);
	/*
	 * Blocks first, then the inline out[]: every output byte must be written before complete()
	 * hands the slot back (prm/mlx5 §13).
	 */
	deliv = mlx5v_sim_cmd_write_out(sim, j->ent, c->out, c->outlen, j->oblk, j->tails,
					j->f.bad_sig);
	if (deliv != MLX5V_CMD_DELIV_OK)
		return deliv;
	/*
	 * The local image stays in step with the device copy, because the entry signature below
	 * covers out[] as well (prm/mlx5 §3.4).
	 */
	memcpy(MLX5V_IFC_ADDR_OF(cmd_layout, j->ent, out), c->out, MLX5V_CMD_INLINE_LEN);
	if (hwsim_dma_write(sim->dma, sim->slot[s].ent_iova + MLX5V_IFC_BYTE_OFF(cmd_layout, out),
			    c->out, RTE_MIN(c->outlen, (uint32_t)MLX5V_CMD_INLINE_LEN)) != 0)
		return MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR;
	return MLX5V_CMD_DELIV_OK;
}

/* Sign the answer with delivery status deliv, free the job, complete or defer the slot. */
static void
mlx5v_sim_cmd_finish(struct mlx5v_sim *sim, unsigned int s, struct mlx5v_sim_cmd_job *j,
		     uint8_t deliv)
{
	struct mlx5v_sim_slot *sl = &sim->slot[s];
	const struct mlx5v_sim_cmd_faults *f = &j->f;

	if (deliv != MLX5V_CMD_DELIV_OK) {
		SIM_LOG(INFO, "%s: slot %u: opcode 0x%x delivery status 0x%x", sim->name, s,
			j->c.opcode, deliv);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_CMD_ERRORS);
	}
	sl->deliv = deliv;
	/* A held slot completes late, with its EQE; a dropped one never gets an EQE. */
	sl->drop_eqe = f->drop == 1;
	sl->dup_eqe = f->dup != 0;
	/* The signature covers the final entry, status_own included (prm/mlx5 §3.4). */
	MLX5V_IFC_SET(cmd_layout, j->ent, status_own, deliv << 1);
	MLX5V_IFC_SET(cmd_layout, j->ent, sig, 0);
	sl->sig = ~mlx5v_sim_xor8(j->ent, sizeof(j->ent));
	if (f->bad_sig == MLX5V_SIM_BAD_SIG_ENTRY)
		sl->sig ^= 0x5a;
	free(j->in);
	free(j->c.out);
	free(j->oblk);
	free(j->tails);
	/*
	 * delay_opcode fault: the answer is written but status_own stays hardware-owned until the
	 * deadline, checked every engine pass by mlx5v_sim_cmd_poll(); a HELD slot waits for
	 * mlx5v_sim_cmd_release_held().
	 */
	if (f->delay_ms != 0) {
		sl->state = MLX5V_SIM_SLOT_DELAYED;
		sl->deadline_ns = hwsim_now_ns() + (uint64_t)f->delay_ms * 1000000ull;
	} else if (f->drop == 2) {
		sl->state = MLX5V_SIM_SLOT_HELD;
	} else if (f->hold != 0 && mlx5v_sim_pages_request_locked(sim, (int32_t)f->hold) == 0) {
		/*
		 * hold_for_pages: firmware that needs pages to finish a command asks for them
		 * and keeps the command until they arrive (prm/mlx5 §5.2); the driver must
		 * serve the request while it waits. mlx5v_sim_cmd_poll() completes it.
		 */
		sl->state = MLX5V_SIM_SLOT_WAIT_PAGES;
		sl->pages_target = sim->nb_pages + f->hold;
	} else {
		mlx5v_sim_cmd_complete(sim, s);
	}
}

/* Run the command in slot s: fetch, validate, execute, write back and schedule. Lock held. */
static void
mlx5v_sim_cmd_run(struct mlx5v_sim *sim, unsigned int s)
{
	struct mlx5v_sim_cmd_job j;
	uint8_t deliv;

	memset(&j, 0, sizeof(j));
	if (mlx5v_sim_cmd_fetch(sim, s, &j) < 0)
		return;
	deliv = mlx5v_sim_cmd_validate(sim, &j);
	if (deliv == MLX5V_CMD_DELIV_OK)
		deliv = mlx5v_sim_cmd_execute(sim, s, &j);
	mlx5v_sim_cmd_finish(sim, s, &j, deliv);
}

/*
 * Driver thread (reg_wr32 through the seam): only records the posted slots. The engine reads the
 * entries in mlx5v_sim_cmd_poll(), so a command never completes inside the driver's doorbell write,
 * as it never does on hardware.
 */
void
mlx5v_sim_cmd_doorbell(struct mlx5v_sim *sim, uint32_t mask)
{
	struct mlx5v_sim_slot *sl;
	struct mlx5v_sim_eq *eq;
	uint32_t cmd_eqn;
	unsigned int s;

	pthread_mutex_lock(&sim->lock);
	/* Posted writes to a device without a link are lost (prm/mlx5 §4.3 sensor 1). */
	if (sim->pci_offline)
		goto out;
	/*
	 * prm/mlx5 §1.3: no command may be posted while initializing is set, and before the address
	 * write there is no queue to read; both are driver bugs, logged and dropped.
	 */
	if (mlx5v_sim_iseg_booting(sim) ||
			(sim->cmdq_addr_h == 0 && sim->cmdq_addr_l == 0)) {
		SIM_LOG(WARNING, "%s: command doorbell 0x%08x before %s (driver bug)", sim->name,
			mask, mlx5v_sim_iseg_booting(sim) ? "firmware init completed" :
			"the queue address was written");
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		goto out;
	}
	/* Which EQ would get the CMD EQE, decided now (prm/mlx5 §3.6 model rule). */
	cmd_eqn = mlx5v_sim_eq_subscriber(sim, RTE_PMD_MLX5V_EVENT_CMD);
	eq = cmd_eqn != MLX5V_SIM_EQN_NONE ? mlx5v_sim_eq_get(sim, cmd_eqn) : NULL;
	/*
	 * prm/mlx5 §13: each set bit posts one slot; several bits in one write post several slots.
	 */
	for (s = 0; s < MLX5V_CMD_MAX_SLOTS; s++) {
		if (!(mask & (1u << s)))
			continue;
		sl = &sim->slot[s];
		if (sl->state != MLX5V_SIM_SLOT_IDLE) {
			/* [K]: firmware behaviour is undefined for a doorbell on a busy slot. */
			SIM_LOG(WARNING, "%s: doorbell on busy slot %u ignored (driver bug)",
				sim->name, s);
			mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
			continue;
		}
		sl->state = MLX5V_SIM_SLOT_QUEUED;
		sl->cmd_eqn = eq != NULL ? cmd_eqn : MLX5V_SIM_EQN_NONE;
		sl->cmd_eq_gen = eq != NULL ? eq->gen : 0;
		sim->db_pending |= 1u << s;
	}
out:
	pthread_mutex_unlock(&sim->lock);
	hwsim_engine_kick(sim->engine);
}

/*
 * Engine thread, once per pass: run the slots posted since the last pass, then complete the delayed
 * ones whose deadline has passed.
 */
int
mlx5v_sim_cmd_poll(struct mlx5v_sim *sim)
{
	struct mlx5v_sim_slot *sl;
	uint32_t pending;
	uint64_t now;
	unsigned int s, i;
	int work = 0;

	pthread_mutex_lock(&sim->lock);
	if (sim->pci_offline) {
		/* A device without a link answers nothing; slots stay owned. */
		pthread_mutex_unlock(&sim->lock);
		return 0;
	}
	/*
	 * Taken and cleared under the lock: a doorbell that arrives during this pass stays pending
	 * for the next one.
	 */
	pending = sim->db_pending;
	sim->db_pending = 0;
	if (pending != 0) {
		/*
		 * Posted writes reach the device in the order the driver made them (PCIe
		 * ordering): a UAR doorbell written before these command doorbells is taken
		 * before their commands run, e.g. an EQ arm before DESTROY_EQ. The engine's
		 * own UAR pass may have run before that doorbell was written, so take the UAR
		 * pages again now (their callbacks take the lock). A doorbell written after
		 * the command doorbell may be taken too: the device has not run the command
		 * yet, which hardware may equally do (doc/guides/sim/mlx5v_sim.rst, "Threading").
		 */
		pthread_mutex_unlock(&sim->lock);
		work += mlx5v_sim_uars_poll(sim);
		pthread_mutex_lock(&sim->lock);
		if (sim->pci_offline) {
			/* The link went down meanwhile: the commands stay posted, unanswered. */
			sim->db_pending |= pending;
			pthread_mutex_unlock(&sim->lock);
			return work;
		}
	}
	/*
	 * The device may run the commands of different slots in any order (prm/mlx5 §3.1):
	 * each pass starts at another slot, so that a driver relying on slot order, or on the
	 * order of its doorbells, fails here as it may on a card.
	 */
	for (i = 0; i < MLX5V_CMD_MAX_SLOTS; i++) {
		s = (sim->cmd_first + i) % MLX5V_CMD_MAX_SLOTS;
		if (pending & (1u << s)) {
			mlx5v_sim_cmd_run(sim, s);
			work++;
		}
	}
	if (pending != 0)
		sim->cmd_first = (sim->cmd_first + 1) % MLX5V_CMD_MAX_SLOTS;
	/*
	 * Commands come in bursts (one rule after another): the engine stays awake for the
	 * next doorbell, which a sleeping engine would see only after its wake-up.
	 */
	if (pending != 0 && sim->p.cmd_hot_us != 0)
		hwsim_engine_hot(sim->engine, sim->p.cmd_hot_us);
	now = hwsim_now_ns();
	for (s = 0; s < MLX5V_CMD_MAX_SLOTS; s++) {
		sl = &sim->slot[s];
		if ((sl->state == MLX5V_SIM_SLOT_DELAYED && now >= sl->deadline_ns) ||
		    (sl->state == MLX5V_SIM_SLOT_WAIT_PAGES && sim->nb_pages >= sl->pages_target)) {
			mlx5v_sim_cmd_complete(sim, s);
			work++;
		}
	}
	pthread_mutex_unlock(&sim->lock);
	return work;
}

/*
 * Test hook for the drop_hold fault: complete the held slots now, as firmware that answers after
 * the driver gave up would ([K] "Command completion arrived after timeout", prm/mlx5 §3.10). MSI-X
 * is flushed after the unlock.
 */
void
mlx5v_sim_cmd_release_held(struct mlx5v_sim *sim)
{
	unsigned int s;

	pthread_mutex_lock(&sim->lock);
	for (s = 0; s < MLX5V_CMD_MAX_SLOTS; s++)
		if (sim->slot[s].state == MLX5V_SIM_SLOT_HELD)
			mlx5v_sim_cmd_complete(sim, s);
	pthread_mutex_unlock(&sim->lock);
	mlx5v_sim_irq_flush(sim);
}
