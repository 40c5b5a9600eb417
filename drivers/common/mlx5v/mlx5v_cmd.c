/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Command queue: post/wait, mailbox chains, tokens, signatures, status tables. */

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_interrupts.h>
#include <rte_io.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "mlx5v_cmd.h"
#include "mlx5v_dev.h"
#include "mlx5v_devx_policy.h"
#include "mlx5v_log.h"

/* ---- The one outbox-status table (prm/mlx5 §3.8) ---- */

struct mlx5v_cmd_status_ent {
	uint8_t status;
	int err;
	const char *name;
};

/*
 * Kernel values throughout. Deviation from rdma-core, on purpose: NOT_READY (0x07) is
 * -EAGAIN (the kernel's choice; rdma-core has no case and returns EIO), so a caller can
 * retry a command the firmware is not ready for. DRIVER_ABORTED (0xfe) is never sent by a
 * device: the dead-device policy synthesises it (prm/mlx5 §3.11) and it maps to -ENOLINK.
 */
static const struct mlx5v_cmd_status_ent mlx5v_cmd_status_tbl[] = {
	{ MLX5V_CMD_STAT_OK, 0, "OK" },
	{ MLX5V_CMD_STAT_INT_ERR, -EIO, "INT_ERR" },
	{ MLX5V_CMD_STAT_BAD_OP_ERR, -EINVAL, "BAD_OP_ERR" },
	{ MLX5V_CMD_STAT_BAD_PARAM_ERR, -EINVAL, "BAD_PARAM_ERR" },
	{ MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, -EIO, "BAD_SYS_STATE_ERR" },
	{ MLX5V_CMD_STAT_BAD_RES_ERR, -EINVAL, "BAD_RES_ERR" },
	{ MLX5V_CMD_STAT_RES_BUSY, -EBUSY, "RES_BUSY" },
	{ MLX5V_CMD_STAT_NOT_READY, -EAGAIN, "NOT_READY" },
	{ MLX5V_CMD_STAT_LIM_ERR, -ENOMEM, "LIM_ERR" },
	{ MLX5V_CMD_STAT_BAD_RES_STATE_ERR, -EINVAL, "BAD_RES_STATE_ERR" },
	{ MLX5V_CMD_STAT_IX_ERR, -EINVAL, "IX_ERR" },
	{ MLX5V_CMD_STAT_NO_RES_ERR, -EAGAIN, "NO_RES_ERR" },
	{ MLX5V_CMD_STAT_BAD_QP_STATE_ERR, -EINVAL, "BAD_QP_STATE_ERR" },
	{ MLX5V_CMD_STAT_BAD_PKT_ERR, -EINVAL, "BAD_PKT_ERR" },
	{ MLX5V_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR, -EINVAL, "BAD_SIZE_OUTS_CQES_ERR" },
	{ MLX5V_CMD_STAT_BAD_INP_LEN_ERR, -EIO, "BAD_INP_LEN_ERR" },
	{ MLX5V_CMD_STAT_BAD_OUTP_LEN_ERR, -EIO, "BAD_OUTP_LEN_ERR" },
	{ MLX5V_CMD_STAT_DRIVER_ABORTED, -ENOLINK, "DRIVER_ABORTED" },
};

/*
 * Translate a firmware outbox status (byte 0 of mbox_out) for the cmd_exec path (prm/mlx5 §3.9).
 * Unknown codes fall to -EIO, the default of both [K] and [R].
 */
int
mlx5v_cmd_status_to_errno(uint8_t status)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_cmd_status_tbl); i++)
		if (mlx5v_cmd_status_tbl[i].status == status)
			return mlx5v_cmd_status_tbl[i].err;
	return -EIO;
}

const char *
mlx5v_cmd_status_name(uint8_t status)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_cmd_status_tbl); i++)
		if (mlx5v_cmd_status_tbl[i].status == status)
			return mlx5v_cmd_status_tbl[i].name;
	return "UNKNOWN_STATUS";
}

/* ---- Delivery status (prm/mlx5 §3.7, the kernel's deliv_status_to_err) ---- */

/*
 * Delivery status is a transport verdict: the command never ran. [R] ignores it; we follow [K] so
 * that a malformed entry or chain is not mistaken for a firmware answer (prm/mlx5 §3.7).
 */
static const struct mlx5v_cmd_status_ent mlx5v_cmd_deliv_tbl[] = {
	{ MLX5V_CMD_DELIV_OK, 0, "OK" },
	{ MLX5V_CMD_DELIV_SIGNAT_ERR, -EBADR, "SIGNAT_ERR" },
	{ MLX5V_CMD_DELIV_TOK_ERR, -EBADR, "TOK_ERR" },
	{ MLX5V_CMD_DELIV_BAD_BLK_NUM_ERR, -EFAULT, "BAD_BLK_NUM_ERR" },
	{ MLX5V_CMD_DELIV_OUT_PTR_ALIGN_ERR, -EFAULT, "OUT_PTR_ALIGN_ERR" },
	{ MLX5V_CMD_DELIV_IN_PTR_ALIGN_ERR, -EFAULT, "IN_PTR_ALIGN_ERR" },
	{ MLX5V_CMD_DELIV_FW_ERR, -EIO, "FW_ERR" },
	{ MLX5V_CMD_DELIV_IN_LENGTH_ERR, -ENOMSG, "IN_LENGTH_ERR" },
	{ MLX5V_CMD_DELIV_OUT_LENGTH_ERR, -ENOMSG, "OUT_LENGTH_ERR" },
	{ MLX5V_CMD_DELIV_RES_FLD_NOT_CLR_ERR, -ENOMSG, "RES_FLD_NOT_CLR_ERR" },
	{ MLX5V_CMD_DELIV_CMD_DESCR_ERR, -ENOMSG, "CMD_DESCR_ERR" },
};

/* Unknown delivery codes map to -EINVAL, as in [K] deliv_status_to_err (prm/mlx5 §3.7). */
int
mlx5v_cmd_delivery_to_errno(uint8_t deliv)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_cmd_deliv_tbl); i++)
		if (mlx5v_cmd_deliv_tbl[i].status == deliv)
			return mlx5v_cmd_deliv_tbl[i].err;
	return -EINVAL;
}

static const char *
mlx5v_cmd_deliv_name(uint8_t deliv)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_cmd_deliv_tbl); i++)
		if (mlx5v_cmd_deliv_tbl[i].status == deliv)
			return mlx5v_cmd_deliv_tbl[i].name;
	return "UNKNOWN_DELIVERY";
}

/* ---- Opcode names and the dead-device class (prm/mlx5 §3.11, §10) ---- */

enum mlx5v_cmd_class {
	MLX5V_CMD_CLASS_UNKNOWN = 0,
	MLX5V_CMD_CLASS_OTHER,     /**< create/query/modify/alloc: fails when dead */
	MLX5V_CMD_CLASS_DESTROY,   /**< destroy/dealloc/teardown: succeeds when dead */
};

struct mlx5v_cmd_opcode_ent {
	uint16_t opcode;
	uint8_t cls;
	uint8_t devx_rule;         /**< enum mlx5v_devx_rule: the DEVX general_cmd policy */
	uint8_t devx_fam;          /**< enum mlx5v_devx_fam: the object family it acts on */
	uint16_t destroy_op;       /**< the destroy of a late create's object, or OP_NONE */
	uint32_t id_mask;          /**< the width of that object's id */
	const char *name;
};

/* MLX5V_CMD_OPCODES() as a table, for the command layer and the DEVX policy. */
#define OPC(n, v, c, r, f, d, m) { v, MLX5V_CMD_CLASS_ ## c, MLX5V_DEVX_ ## r, \
				   MLX5V_DEVX_FAM_ ## f, MLX5V_CMD_OP_ ## d, m, #n },
static const struct mlx5v_cmd_opcode_ent mlx5v_cmd_opcode_tbl[] = {
	MLX5V_CMD_OPCODES(OPC)
};
#undef OPC

static const struct mlx5v_cmd_opcode_ent *
mlx5v_cmd_opcode_find(uint16_t opcode)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_cmd_opcode_tbl); i++)
		if (mlx5v_cmd_opcode_tbl[i].opcode == opcode)
			return &mlx5v_cmd_opcode_tbl[i];
	return NULL;
}

const char *
mlx5v_cmd_opcode_name(uint16_t opcode)
{
	const struct mlx5v_cmd_opcode_ent *e = mlx5v_cmd_opcode_find(opcode);

	return e != NULL ? e->name : "UNKNOWN";
}

void
mlx5v_cmd_opcode_devx(uint16_t opcode, uint8_t *rule, uint8_t *fam)
{
	const struct mlx5v_cmd_opcode_ent *e = mlx5v_cmd_opcode_find(opcode);

	*rule = e != NULL ? e->devx_rule : MLX5V_DEVX_UNLISTED;
	*fam = e != NULL ? e->devx_fam : MLX5V_DEVX_FAM_NONE;
}

/* ---- helpers ---- */

/* Monotonic: command deadlines must not move when the wall clock is stepped. */
static uint64_t
mlx5v_cmd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* XOR fold used by the [K] signature rule: a signed area XORs to 0xff (prm/mlx5 §3.4). */
static uint8_t
mlx5v_xor8(const uint8_t *p, size_t len)
{
	uint8_t x = 0;

	while (len-- > 0)
		x ^= *p++;
	return x;
}

/*
 * Number of 512-byte mailbox blocks after the 16 inline bytes: ceil((len - 16) / 512), 0 for len <=
 * 16 (prm/mlx5 §3.3).
 */
static unsigned int
mlx5v_cmd_nblocks(size_t len)
{
	if (len <= MLX5V_CMD_INLINE_LEN)
		return 0;
	return (len - MLX5V_CMD_INLINE_LEN + MLX5V_MBOX_DATA_LEN - 1) / MLX5V_MBOX_DATA_LEN;
}

/* Opcodes above the table size share the last bucket, so an unexpected opcode is still counted. */
static struct mlx5v_cmd_stats *
mlx5v_cmd_stats_of(struct mlx5v_cmd *cmd, uint16_t opcode)
{
	return &cmd->stats[RTE_MIN((unsigned int)opcode, (unsigned int)MLX5V_CMD_STATS_OPCODES)];
}

/* ---- mailbox chains ---- */

static_assert(MLX5V_CMD_MAX_MSG_LEN == RTE_PMD_MLX5V_CMD_MAX_LEN, "command length bound");
/* The public opcodes (rte_pmd_mlx5v_prm.h) are those of MLX5V_CMD_OPCODES(). */
static_assert(RTE_PMD_MLX5V_CMD_OP_CREATE_EQ == MLX5V_CMD_OP_CREATE_EQ &&
	      RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ == MLX5V_CMD_OP_DESTROY_EQ &&
	      RTE_PMD_MLX5V_CMD_OP_QUERY_EQ == MLX5V_CMD_OP_QUERY_EQ &&
	      RTE_PMD_MLX5V_CMD_OP_GEN_EQE == MLX5V_CMD_OP_GEN_EQE &&
	      RTE_PMD_MLX5V_CMD_OP_CREATE_CQ == MLX5V_CMD_OP_CREATE_CQ &&
	      RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ == MLX5V_CMD_OP_DESTROY_CQ &&
	      RTE_PMD_MLX5V_CMD_OP_QUERY_CQ == MLX5V_CMD_OP_QUERY_CQ &&
	      RTE_PMD_MLX5V_CMD_OP_ALLOC_UAR == MLX5V_CMD_OP_ALLOC_UAR &&
	      RTE_PMD_MLX5V_CMD_OP_DEALLOC_UAR == MLX5V_CMD_OP_DEALLOC_UAR, "public opcodes");

static void
mlx5v_cmd_mbox_free(struct mlx5v_dev *dev, struct mlx5v_cmd_mbox *mb)
{
	if (mb->va == NULL)
		return;
	mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &mb->dma);
	rte_free(mb->va);
	memset(mb, 0, sizeof(*mb));
}

/*
 * After a command the device has answered: drop a chain longer than a slot keeps, so one
 * long command does not pin EAL memory for the life of the device. The next long command
 * allocates its chain again.
 */
static void
mlx5v_cmd_mbox_trim(struct mlx5v_dev *dev, struct mlx5v_cmd_slot *s)
{
	if (s->in.nblocks > MLX5V_CMD_MBOX_KEEP_BLOCKS)
		mlx5v_cmd_mbox_free(dev, &s->in);
	if (s->out.nblocks > MLX5V_CMD_MBOX_KEEP_BLOCKS)
		mlx5v_cmd_mbox_free(dev, &s->out);
}

/*
 * Make the chain hold at least nblocks blocks. Blocks sit at a 1 KiB stride (the
 * kernel's DMA-pool alignment, prm/mlx5 §3.3) inside one EAL buffer and one DMA window.
 * A chain of up to MLX5V_CMD_MBOX_KEEP_BLOCKS is kept for the slot's next commands, like
 * [R]'s pre-sized 4 KiB messages (prm/mlx5 §3.3); a longer one lives for one command.
 */
static int
mlx5v_cmd_mbox_reserve(struct mlx5v_dev *dev, struct mlx5v_cmd_mbox *mb, unsigned int nblocks)
{
	struct mlx5v_cmd_mbox nmb;
	int ret;

	/* A long chain still here (its command timed out, then completed) is not reused. */
	if (mb->nblocks > MLX5V_CMD_MBOX_KEEP_BLOCKS)
		mlx5v_cmd_mbox_free(dev, mb);
	if (nblocks <= mb->nblocks)
		return 0;
	memset(&nmb, 0, sizeof(nmb));
	/*
	 * Round to 4 KiB so the window is one whole IOMMU page; every block then stays 1 KiB
	 * aligned, the lowest alignment a model must accept (prm/mlx5 §3.3).
	 */
	nmb.size = RTE_ALIGN_CEIL((size_t)nblocks * MLX5V_MBOX_ALIGN, 4096);
	nmb.nblocks = nmb.size / MLX5V_MBOX_ALIGN;
	nmb.va = rte_zmalloc_socket("mlx5v_cmd_mbox", nmb.size, 4096, dev->socket);
	if (nmb.va == NULL)
		return -ENOMEM;
	/* Chunks up to the whole chain: one window unless the chain spans hugepages (PA). */
	ret = mlx5v_dma_buf_map(mlx5v_dev_hw(dev), nmb.va, nmb.size,
				rte_log2_u64(rte_align64pow2(nmb.size)), &nmb.dma);
	if (ret < 0) {
		rte_free(nmb.va);
		return ret;
	}
	nmb.iova = nmb.dma.iova[0];
	/*
	 * Only drop the old chain once the new one is mapped: a failed grow leaves the slot usable.
	 */
	mlx5v_cmd_mbox_free(dev, mb);
	*mb = nmb;
	return 0;
}

/* Chain nblocks blocks: payload (or zeros), next pointer, block number, token. */
static void
mlx5v_cmd_mbox_fill(struct mlx5v_cmd_mbox *mb, unsigned int nblocks, const uint8_t *data,
		    size_t len, uint8_t token, int checksum)
{
	unsigned int i;

	for (i = 0; i < nblocks; i++) {
		uint8_t *blk = mb->va + (size_t)i * MLX5V_MBOX_ALIGN;
		size_t off = (size_t)i * MLX5V_MBOX_DATA_LEN;
		size_t chunk = 0;
		uint64_t next = 0;

		if (i + 1 < nblocks)
			next = mlx5v_dma_buf_iova(&mb->dma, (size_t)(i + 1) * MLX5V_MBOX_ALIGN);

		/*
		 * Output chains pass data == NULL: their data is zeroed before every command, as
		 * [R] does (prm/mlx5 §3.3), so stale output from an earlier command can never be
		 * read as an answer.
		 */
		if (data != NULL && off < len)
			chunk = RTE_MIN((size_t)MLX5V_MBOX_DATA_LEN, len - off);
		if (chunk > 0)
			memcpy(blk, data + off, chunk);
		memset(blk + chunk, 0, MLX5V_MBOX_SIZE - chunk);
		/*
		 * The last block has next = 0; block_num counts 0..n-1 along the chain or the
		 * device fails delivery with BAD_BLK_NUM_ERR 0x3 (prm/mlx5 §3.3, §3.7).
		 */
		MLX5V_IFC_SET64(cmd_mbox, blk, next, next);
		MLX5V_IFC_SET(cmd_mbox, blk, block_num, i);
		/* The kernel's token rule: every block carries the entry token (prm/mlx5 §3.4). */
		MLX5V_IFC_SET(cmd_mbox, blk, token, token);
		if (checksum) {
			/* prm/mlx5 §3.4: ctrl_sig covers 0x200..0x23d, sig covers 0..0x23e. */
			MLX5V_IFC_SET(cmd_mbox, blk, ctrl_sig,
				      ~mlx5v_xor8(blk + MLX5V_MBOX_DATA_LEN,
						  MLX5V_IFC_BYTE_OFF(cmd_mbox, ctrl_sig) -
						  MLX5V_MBOX_DATA_LEN));
			MLX5V_IFC_SET(cmd_mbox, blk, sig,
				      ~mlx5v_xor8(blk, MLX5V_IFC_BYTE_OFF(cmd_mbox, sig)));
		}
	}
}

/* Gather the output bytes past the 16 inline ones. */
static void
mlx5v_cmd_mbox_read(const struct mlx5v_cmd_mbox *mb, unsigned int nblocks, uint8_t *data,
		    size_t len)
{
	unsigned int i;

	/* The caller passes len >= 16 + 512 * (nblocks - 1) + 1, so len - off never underflows. */
	for (i = 0; i < nblocks; i++) {
		size_t off = (size_t)i * MLX5V_MBOX_DATA_LEN;

		memcpy(data + off, mb->va + (size_t)i * MLX5V_MBOX_ALIGN,
		       RTE_MIN((size_t)MLX5V_MBOX_DATA_LEN, len - off));
	}
}

/*
 * Check the device's signatures on a completed command (prm/mlx5 §3.4, the kernel's
 * verify_signature()): the XOR over the whole entry, and over each output block's control
 * part (0x200..0x23e) and the whole block, must be 0xff. Only meaningful when signatures
 * are on (cmd->checksum): a device that does not sign leaves them arbitrary.
 * @return 0, or -1 with *what naming the bad signature.
 */
static int
mlx5v_cmd_verify_sig(const struct mlx5v_cmd_slot *s, unsigned int nout, int entry_only,
		     const char **what)
{
	unsigned int i;

	if (mlx5v_xor8(s->ent, MLX5V_CMD_ENT_SIZE) != 0xff) {
		*what = "entry";
		return -1;
	}
	for (i = 0; !entry_only && i < nout; i++) {
		const uint8_t *blk = s->out.va + (size_t)i * MLX5V_MBOX_ALIGN;

		if (mlx5v_xor8(blk + MLX5V_MBOX_DATA_LEN,
			       MLX5V_IFC_BYTE_OFF(cmd_mbox, sig) - MLX5V_MBOX_DATA_LEN) != 0xff ||
		    mlx5v_xor8(blk, MLX5V_MBOX_SIZE) != 0xff) {
			*what = "output block";
			return -1;
		}
	}
	return 0;
}

/* How long a polled command's waiter yields before it sleeps between owner-bit reads. */
#define MLX5V_CMD_POLL_YIELD_NS 1000000ull

/* ---- slots ---- */

/*
 * Acquire: the entry and output blocks written by the device before it cleared the owner bit must
 * be visible once the bit reads 0 (prm/mlx5 §3.6, the [R] read barrier after the owner poll).
 */
static uint8_t
mlx5v_cmd_owner(const struct mlx5v_cmd_slot *s)
{
	return __atomic_load_n(&s->ent[MLX5V_IFC_BYTE_OFF(cmd_layout, status_own)],
			       __ATOMIC_ACQUIRE);
}

/* ---- late completions of create commands ---- */

/*
 * The device answered slot s after its waiter gave up. If the command created an object,
 * nobody knows of it: queue its destroy, run by mlx5v_cmd_orphans_reclaim() outside the
 * lock (prm/mlx5 §3.10). Called with cmd->lock held, the owner bit read 0.
 */
static void
mlx5v_cmd_orphan_note_locked(struct mlx5v_dev *dev, const struct mlx5v_cmd_slot *s,
			     unsigned int idx)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	const uint8_t *in = MLX5V_IFC_ADDR_OF(cmd_layout, s->ent, in);
	const uint8_t *out = MLX5V_IFC_ADDR_OF(cmd_layout, s->ent, out);
	const struct mlx5v_cmd_opcode_ent *u = mlx5v_cmd_opcode_find(s->opcode);
	struct mlx5v_cmd_orphan *o;

	/* Nothing was created unless both the delivery and the outbox status are OK. */
	if ((MLX5V_IFC_GET(cmd_layout, s->ent, status_own) >> 1) != MLX5V_CMD_DELIV_OK ||
	    MLX5V_IFC_GET(cmd_out_hdr, out, status) != MLX5V_CMD_STAT_OK)
		return;
	/* Late creates are undone by the destroy of MLX5V_CMD_OPCODES(), flows excepted. */
	if (u == NULL || u->destroy_op == MLX5V_CMD_OP_NONE) {
		if (s->opcode == MLX5V_CMD_OP_CREATE_FLOW_TABLE ||
		    s->opcode == MLX5V_CMD_OP_CREATE_FLOW_GROUP) {
			cmd->orphans_left++;
			MLX5V_CMD_LOG(ERR, "%s: %s slot %u completed after its timeout; the object "
				      "stays until the function teardown", dev->name,
				      mlx5v_cmd_opcode_name(s->opcode), idx);
		}
		return;
	}
	if (cmd->nb_orphans == RTE_DIM(cmd->orphan)) {
		cmd->orphans_left++;
		MLX5V_CMD_LOG(ERR, "%s: %s slot %u: too many objects of late completions; this "
			      "one stays until the function teardown", dev->name,
			      mlx5v_cmd_opcode_name(s->opcode), idx);
		return;
	}
	o = &cmd->orphan[cmd->nb_orphans];
	o->destroy_op = u->destroy_op;
	o->uid = MLX5V_IFC_GET(cmd_in_hdr, in, uid);
	o->op_mod = s->opcode == MLX5V_CMD_OP_CREATE_GENERAL_OBJECT ?
		    MLX5V_IFC_GET(cmd_in_hdr, in, op_mod) : 0;
	o->id = MLX5V_IFC_GET(cmd_out_hdr, out, command_dw2) & u->id_mask;
	__atomic_store_n(&cmd->nb_orphans, cmd->nb_orphans + 1, __ATOMIC_RELAXED);
}

/*
 * Destroy the objects of late create completions. Runs before and after every ordinary
 * command (never on the page slot, never under a lock), so an object found while reaping
 * is gone by the end of the next command; one thread at a time, and the destroys it sends
 * do not recurse into here.
 */
static void
mlx5v_cmd_orphans_reclaim(struct mlx5v_dev *dev)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	uint8_t in[MLX5V_CMD_HDR_SIZE], out[MLX5V_CMD_HDR_SIZE];
	struct mlx5v_cmd_orphan o;
	int ret;

	if (__atomic_load_n(&cmd->nb_orphans, __ATOMIC_RELAXED) == 0)
		return;
	rte_spinlock_lock(&cmd->lock);
	if (cmd->reclaiming) {
		rte_spinlock_unlock(&cmd->lock);
		return;
	}
	cmd->reclaiming = 1;
	while (cmd->nb_orphans > 0) {
		o = cmd->orphan[cmd->nb_orphans - 1];
		__atomic_store_n(&cmd->nb_orphans, cmd->nb_orphans - 1, __ATOMIC_RELAXED);
		rte_spinlock_unlock(&cmd->lock);
		memset(in, 0, sizeof(in));
		MLX5V_IFC_SET(cmd_in_hdr, in, opcode, o.destroy_op);
		MLX5V_IFC_SET(cmd_in_hdr, in, uid, o.uid);
		MLX5V_IFC_SET(cmd_in_hdr, in, op_mod, o.op_mod);
		MLX5V_IFC_SET(cmd_in_hdr, in, command_dw2, o.id);
		ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
		if (ret == 0)
			MLX5V_CMD_LOG(WARNING, "%s: %s 0x%x: the object of a command that "
				      "completed after its timeout is destroyed", dev->name,
				      mlx5v_cmd_opcode_name(o.destroy_op), o.id);
		else
			MLX5V_CMD_LOG(ERR, "%s: %s 0x%x for a late completion failed (%s); the "
				      "object stays until the function teardown", dev->name,
				      mlx5v_cmd_opcode_name(o.destroy_op), o.id, strerror(-ret));
		rte_spinlock_lock(&cmd->lock);
		if (ret == 0)
			cmd->orphans_destroyed++;
		else
			cmd->orphans_left++;
	}
	cmd->reclaiming = 0;
	rte_spinlock_unlock(&cmd->lock);
}

/*
 * A timed-out slot stays reserved until the device gives the entry back (the kernel's
 * "avoid using pending command interface slots": firmware behaviour is undefined for a
 * new command on a busy slot, prm/mlx5 §3.10). What a late create made is queued for
 * destruction. Called with cmd->lock held.
 */
static void
mlx5v_cmd_reap_locked(struct mlx5v_dev *dev)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	unsigned int i;

	for (i = 0; i < cmd->nslots; i++) {
		struct mlx5v_cmd_slot *s = &cmd->slot[i];

		if (s->state != MLX5V_CMD_SLOT_TIMEDOUT)
			continue;
		/* Owner bit 0: the device has finally answered the timed-out command. */
		if (mlx5v_cmd_owner(s) & MLX5V_CMD_OWNER_HW)
			continue;
		MLX5V_CMD_LOG(WARNING, "%s: %s (0x%x) slot %u: completion arrived after timeout",
			      dev->name, mlx5v_cmd_opcode_name(s->opcode), s->opcode, i);
		cmd->late_completions++;
		/* Read the answer only after ownership came back (prm/mlx5 §3.6: read barrier). */
		rte_io_rmb();
		mlx5v_cmd_orphan_note_locked(dev, s, i);
		s->state = MLX5V_CMD_SLOT_FREE;
	}
}

/*
 * Reserve a slot for one command. Ordinary commands use slots 0 .. page_slot - 1 and MANAGE_PAGES
 * only page_slot, so page work on the interrupt thread can never be blocked behind ordinary
 * commands waiting for a page (prm/mlx5 §3.1, [K] max_reg_cmds). Called from any lcore or the
 * EAL interrupt thread; takes cmd->lock.
 */
static int
mlx5v_cmd_slot_get(struct mlx5v_dev *dev, unsigned int flags, unsigned int *idx)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	uint64_t deadline = mlx5v_cmd_now_ns() +
			    (uint64_t)mlx5v_tout_ms(dev, MLX5V_TO_CMD_SLOT) * 1000000ull;
	unsigned int spins = 0;

	for (;;) {
		unsigned int first = 0;
		unsigned int last = cmd->page_slot;    /* exclusive */
		unsigned int stalled = 0;
		unsigned int i;

		if (flags & MLX5V_CMD_F_PAGE) {
			first = cmd->page_slot;
			last = cmd->page_slot + 1;
		}
		rte_spinlock_lock(&cmd->lock);
		mlx5v_cmd_reap_locked(dev);
		for (i = first; i < last; i++) {
			struct mlx5v_cmd_slot *s = &cmd->slot[i];

			if (s->state == MLX5V_CMD_SLOT_TIMEDOUT)
				stalled++;
			if (s->state != MLX5V_CMD_SLOT_FREE)
				continue;
			s->state = MLX5V_CMD_SLOT_BUSY;
			__atomic_store_n(&s->posted, 0, __ATOMIC_RELAXED);
			/* 8-bit token, incremented per command and never 0 (prm/mlx5 §3.4). */
			if (++cmd->token == 0)
				cmd->token = 1;
			s->token = cmd->token;
			rte_spinlock_unlock(&cmd->lock);
			*idx = i;
			return 0;
		}
		rte_spinlock_unlock(&cmd->lock);
		/* Slots held by asynchronous commands the device may have answered by now. */
		if (!(flags & MLX5V_CMD_F_PAGE) &&
		    __atomic_load_n(&cmd->nb_async, __ATOMIC_RELAXED) > 0 &&
		    mlx5v_cmd_async_reap(dev) > 0)
			continue;
		/*
		 * [K]'s rule when every slot is stalled: fail at once with -EAGAIN instead of
		 * waiting for the slot timeout (prm/mlx5 §3.10).
		 */
		if (stalled == last - first)
			return -EAGAIN;   /* every usable slot is held by a timed-out command */
		if (mlx5v_dev_is_dead(dev))
			return -ENOLINK;
		if (mlx5v_cmd_now_ns() > deadline)
			return -EBUSY;
		if (++spins > 64)
			sched_yield();
		else
			rte_pause();
	}
}

/*
 * Return a slot whose entry the device has given back; never called for a TIMEDOUT slot. A
 * command taken back by its owner bit in event mode before its CMD event was handled owes
 * that event: decided under the lock, which the event handler takes too.
 */
static void
mlx5v_cmd_slot_put(struct mlx5v_cmd *cmd, unsigned int idx)
{
	struct mlx5v_cmd_slot *s = &cmd->slot[idx];

	rte_spinlock_lock(&cmd->lock);
	if (s->polled && !__atomic_load_n(&s->done, __ATOMIC_RELAXED) && s->eqe_owed < UINT8_MAX) {
		s->eqe_owed++;
		__atomic_store_n(&cmd->eqes_owed, cmd->eqes_owed + 1, __ATOMIC_RELAXED);
	}
	s->polled = 0;
	if (s->state == MLX5V_CMD_SLOT_REAPING)
		__atomic_store_n(&cmd->nb_async, cmd->nb_async - 1, __ATOMIC_RELAXED);
	s->state = MLX5V_CMD_SLOT_FREE;
	__atomic_store_n(&s->posted, 0, __ATOMIC_RELAXED);
	rte_spinlock_unlock(&cmd->lock);
}

/* ---- dead-device policy ---- */

/*
 * The thread's stale mode (mlx5v_cmd_stale_begin()): commands on this device complete
 * locally. Thread-local, so that the device's other users keep talking to it.
 */
static __thread struct mlx5v_dev *mlx5v_cmd_stale_dev;

void
mlx5v_cmd_stale_begin(struct mlx5v_dev *dev)
{
	mlx5v_cmd_stale_dev = dev;
}

void
mlx5v_cmd_stale_end(void)
{
	mlx5v_cmd_stale_dev = NULL;
}

/* The thread's polled mode (mlx5v_cmd_poll_begin()), thread-local as the stale mode. */
static __thread struct mlx5v_dev *mlx5v_cmd_poll_dev;

void
mlx5v_cmd_poll_begin(struct mlx5v_dev *dev)
{
	mlx5v_cmd_poll_dev = dev;
}

void
mlx5v_cmd_poll_end(void)
{
	mlx5v_cmd_poll_dev = NULL;
}

/*
 * A command timed out. With recovery=reset, MLX5V_CMD_TIMEOUTS_FATAL of them in a row mean the
 * firmware stopped answering: the device is declared dead so that it is reset. Under
 * recovery=dead a timeout stays the caller's error, as before.
 */
static void
mlx5v_cmd_timeout_count(struct mlx5v_dev *dev)
{
	unsigned int n = __atomic_add_fetch(&dev->cmd.timeouts_in_row, 1, __ATOMIC_RELAXED);

	if (dev->recovery != MLX5V_RECOVERY_RESET || n < MLX5V_CMD_TIMEOUTS_FATAL)
		return;
	MLX5V_CMD_LOG(ERR, "%s: %u commands timed out in a row", dev->name, n);
	mlx5v_dev_set_dead(dev, MLX5V_DEAD_CMD_TIMEOUTS);
}

/*
 * The kernel's mlx5_internal_err_ret_value() (prm/mlx5 §3.11): on a dead device,
 * nothing reaches the hardware; destroy-class commands succeed so that unload always
 * completes, the rest fail with status ABORTED / syndrome 0xbadd00de and -ENOLINK.
 */
static int
mlx5v_cmd_dead_result(struct mlx5v_dev *dev, uint16_t opcode, void *out, size_t outlen)
{
	const struct mlx5v_cmd_opcode_ent *e = mlx5v_cmd_opcode_find(opcode);
	uint8_t *o = out;

	if (dev->cmd.stats != NULL)
		__atomic_fetch_add(&mlx5v_cmd_stats_of(&dev->cmd, opcode)->local, 1,
				   __ATOMIC_RELAXED);
	memset(out, 0, outlen);
	if (e == NULL) {
		MLX5V_CMD_LOG(ERR, "%s: unknown FW command 0x%x on a dead device",
			      dev->name, opcode);
		return -EINVAL;
	}
	if (e->cls == MLX5V_CMD_CLASS_DESTROY) {
		MLX5V_CMD_LOG(DEBUG, "%s: %s completed locally (device dead)", dev->name, e->name);
		return 0;
	}
	MLX5V_IFC_SET(cmd_out_hdr, o, status, MLX5V_CMD_STAT_DRIVER_ABORTED);
	MLX5V_IFC_SET(cmd_out_hdr, o, syndrome, MLX5V_DRIVER_SYND);
	MLX5V_CMD_LOG(DEBUG, "%s: %s aborted (device dead)", dev->name, e->name);
	return -ENOLINK;
}

/* ---- completion from the async EQ ---- */

/*
 * CMD event (type 0x0a): bit s of the BE32 at EQE 0x20 says slot s completed. Runs in
 * the EQ poller with the EQ lock held; only flips flags.
 */
/* Called for every CMD EQE, also from the polled recovery in mlx5v_cmd_wait(). */
static int
mlx5v_cmd_event(struct mlx5v_dev *dev, uint8_t type, const uint8_t *eqe, void *arg)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	uint32_t vec = MLX5V_IFC_GET(eqe_cmd, MLX5V_IFC_ADDR_OF(eqe, eqe, data), vector);
	unsigned int i;

	RTE_SET_USED(type);
	RTE_SET_USED(arg);
	/*
	 * Only bits below nslots can be real slots; [R] asserts on others, we count them as
	 * spurious (prm/mlx5 §3.6).
	 */
	for (i = 0; vec != 0 && i < MLX5V_CMD_MAX_SLOTS; i++, vec >>= 1) {
		struct mlx5v_cmd_slot *s;

		if (!(vec & 1))
			continue;
		if (i >= cmd->nslots) {
			cmd->spurious++;
			continue;
		}
		s = &cmd->slot[i];
		rte_spinlock_lock(&cmd->lock);
		if (s->state == MLX5V_CMD_SLOT_TIMEDOUT) {
			/* The late answer of a command whose waiter gave up (checks the owner). */
			mlx5v_cmd_reap_locked(dev);
		} else if (s->eqe_owed > 0) {
			/*
			 * The event of a command its waiter took back by the owner bit: the
			 * device writes a slot's events in the order of its commands, so the
			 * owed ones come before the event of any later command of the slot.
			 */
			s->eqe_owed--;
			__atomic_store_n(&cmd->eqes_owed, cmd->eqes_owed - 1, __ATOMIC_RELAXED);
			cmd->polled_eqes++;
		} else if ((s->state == MLX5V_CMD_SLOT_BUSY ||
			    s->state == MLX5V_CMD_SLOT_ASYNC ||
			    s->state == MLX5V_CMD_SLOT_REAPING) &&
			   __atomic_load_n(&s->posted, __ATOMIC_ACQUIRE) &&
			   !(mlx5v_cmd_owner(s) & MLX5V_CMD_OWNER_HW) &&
			   !__atomic_load_n(&s->done, __ATOMIC_RELAXED)) {
			/*
			 * Ownership re-checked as rdma-core does (prm/mlx5 §3.6), under the lock
			 * and only once the command is posted: posted is stored after the owner bit
			 * was set, so an owner bit read 0 here is the device's answer to this very
			 * command. An event of an earlier command on this slot (a late or
			 * duplicate one) that is handled while the slot is already taken again
			 * would otherwise find the owner bit of the old answer, or of the entry
			 * being filled, and complete the new command before the device ran it.
			 * Release: the waiter reads the output after it sees done.
			 */
			__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
		} else {
			MLX5V_CMD_LOG(DEBUG, "%s: CMD event for slot %u ignored: not posted, still "
				      "device-owned or already complete", dev->name, i);
			cmd->spurious++;
		}
		rte_spinlock_unlock(&cmd->lock);
	}
	return 0;
}

/* ---- post and wait ---- */

/*
 * Fill and post slot idx. The caller owns the slot (state BUSY), so no lock is needed for the entry
 * itself; the device may touch it only after the doorbell.
 */
static void
mlx5v_cmd_post(struct mlx5v_dev *dev, unsigned int idx, const void *in, size_t inlen,
	       size_t outlen, unsigned int nin, unsigned int nout)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	struct mlx5v_cmd_slot *s = &cmd->slot[idx];
	uint8_t *ent = s->ent;

	/* Zeroing also clears out[] and status, as prm/mlx5 §3.5 step 1 requires before posting. */
	memset(ent, 0, MLX5V_CMD_ENT_SIZE);
	MLX5V_IFC_SET(cmd_layout, ent, type, MLX5V_CMD_TYPE_PCI);
	MLX5V_IFC_SET(cmd_layout, ent, inlen, inlen);
	/* A zero iptr/optr means "no chain"; [R] fills them even then (prm/mlx5 §3.2). */
	MLX5V_IFC_SET64(cmd_layout, ent, iptr, nin ? s->in.iova : 0);
	memcpy(MLX5V_IFC_ADDR_OF(cmd_layout, ent, in), in,
	       RTE_MIN(inlen, (size_t)MLX5V_CMD_INLINE_LEN));
	MLX5V_IFC_SET64(cmd_layout, ent, optr, nout ? s->out.iova : 0);
	MLX5V_IFC_SET(cmd_layout, ent, outlen, outlen);
	MLX5V_IFC_SET(cmd_layout, ent, token, s->token);
	s->opcode = MLX5V_IFC_GET(cmd_in_hdr, in, opcode);
	__atomic_store_n(&s->done, 0, __ATOMIC_RELAXED);
	/* Hand the entry to the device: owner bit 1 (prm/mlx5 §3.5 step 2). */
	MLX5V_IFC_SET(cmd_layout, ent, status_own, MLX5V_CMD_OWNER_HW);
	/*
	 * [K] computes the entry signature last, after the owner byte, because sig covers all 64
	 * bytes including status_own (prm/mlx5 §3.4, §3.5 step 3).
	 */
	if (cmd->checksum)
		MLX5V_IFC_SET(cmd_layout, ent, sig, ~mlx5v_xor8(ent, MLX5V_CMD_ENT_SIZE));
	/*
	 * prm/mlx5 §3.5 step 4: the entry, every mailbox block and the owner bit must be visible in
	 * memory before the device can see the doorbell.
	 */
	rte_wmb();
	/*
	 * Release, after the owner bit: from now on a CMD event for this slot with the owner
	 * bit 0 can only be the device's answer to this command (mlx5v_cmd_event()).
	 */
	__atomic_store_n(&s->posted, 1, __ATOMIC_RELEASE);
	/* Doorbell: BE32 bitmask, bit idx posts slot idx (prm/mlx5 §1.1 cmd_dbell). */
	mlx5v_hw_wr32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMD_DBELL, 1u << idx);
}

/*
 * Wait for the device to finish slot idx. Polling mode watches the owner bit. Event mode
 * waits for the CMD event; when it does not come within the command timeout, poll the
 * async EQ by hand in case the MSI-X was lost (the kernel's mlx5_cmd_eq_recover()), then
 * wait MLX5V_TO_CMD_RECOVER more. Every wait is bounded (prm/mlx5 §3.10).
 *
 * @return 0 (completed), -ETIMEDOUT, -ENOLINK (device died meanwhile).
 */
static int
mlx5v_cmd_wait(struct mlx5v_dev *dev, unsigned int idx, unsigned int flags, uint64_t *t_owner)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	struct mlx5v_cmd_slot *s = &cmd->slot[idx];
	uint64_t deadline = mlx5v_cmd_now_ns() +
			    (uint64_t)mlx5v_tout_ms(dev, MLX5V_TO_CMD) * 1000000ull;
	/* Sampled once; a switch to polling during the wait is picked up below. */
	int events = __atomic_load_n(&cmd->events, __ATOMIC_ACQUIRE);
	/*
	 * rte_thread_is_intr(): the waiter is the thread that would otherwise dispatch the CMD EQE,
	 * so waiting for the event alone would deadlock.
	 */
	int self_poll = rte_thread_is_intr();
	int recovered = 0;
	unsigned int spins = 0;
	/*
	 * A polled command yields rather than sleeps for its first millisecond: a sleep lasts
	 * the timer slack (50 us by default), longer than the command itself.
	 */
	uint64_t t_yield = mlx5v_cmd_now_ns() + MLX5V_CMD_POLL_YIELD_NS;

	for (;;) {
		struct mlx5v_eq *aeq;
		uint64_t now;

		/*
		 * Teardown switches to polling before it destroys the async EQ; a waiter
		 * that started in event mode (page work on the interrupt thread) must then
		 * fall back to the owner bit, or it would wait for an event that never comes.
		 */
		if (events && !__atomic_load_n(&cmd->events, __ATOMIC_ACQUIRE))
			events = 0;
		if (events) {
			if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
				break;
			/*
			 * Polled mode: the owner bit the device clears after writing the output
			 * (prm/mlx5 §3.6) ends the wait, without the event's trip through the
			 * interrupt thread; the acquire load orders the output reads after it.
			 */
			if (s->polled && !(mlx5v_cmd_owner(s) & MLX5V_CMD_OWNER_HW)) {
				__atomic_fetch_add(&cmd->polled, 1, __ATOMIC_RELAXED);
				break;
			}
			/* Only for the counters: when the device gave the entry back. */
			if (*t_owner == 0 && !(mlx5v_cmd_owner(s) & MLX5V_CMD_OWNER_HW))
				*t_owner = mlx5v_cmd_now_ns();
		} else if (!(mlx5v_cmd_owner(s) & MLX5V_CMD_OWNER_HW)) {
			break;
		}
		if (mlx5v_dev_is_dead(dev))
			return -ENOLINK;
		/*
		 * On the EAL interrupt thread (alarms, page work) nobody else drains the
		 * async EQ: do it here. Nor can the page work alarm run, so serve page
		 * requests here too: firmware may hold this very command until it has the
		 * pages it asked for (prm/mlx5 §5.2; Linux and rdma-core serve them while
		 * waiting). MANAGE_PAGES itself runs on the reserved page slot and never
		 * recurses into this.
		 */
		if (self_poll && events) {
			aeq = mlx5v_eq_async(dev);
			if (aeq != NULL)
				mlx5v_eq_poll(aeq);
			if (!(flags & MLX5V_CMD_F_PAGE))
				mlx5v_pages_serve(dev);
		}
		now = mlx5v_cmd_now_ns();
		if (now >= deadline) {
			/*
			 * Polling mode has no recovery step: the owner bit is the only signal ([K]
			 * waits cmd_to + 1000 ms then -ETIMEDOUT, prm/mlx5 §3.10).
			 */
			if (!events || recovered)
				return -ETIMEDOUT;
			recovered = 1;
			cmd->eq_recoveries++;
			MLX5V_CMD_LOG(WARNING,
				      "%s: %s slot %u: no completion event after %u ms, "
				      "polling the EQ",
				      dev->name, mlx5v_cmd_opcode_name(s->opcode), idx,
				      mlx5v_tout_ms(dev, MLX5V_TO_CMD));
			aeq = mlx5v_eq_async(dev);
			if (aeq != NULL)
				/*
				 * [K] mlx5_cmd_eq_recover(): a lost MSI-X leaves the EQE in the
				 * ring; draining the EQ by hand delivers it (prm/mlx5 §6.12).
				 */
				mlx5v_eq_poll(aeq);
			if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
				break;
			/* The EQE itself was lost but the device gave the entry back. */
			if (!(mlx5v_cmd_owner(s) & MLX5V_CMD_OWNER_HW)) {
				MLX5V_CMD_LOG(WARNING,
					      "%s: slot %u: completion event lost, entry returned",
					      dev->name, idx);
				break;
			}
			deadline = now + (uint64_t)mlx5v_tout_ms(dev, MLX5V_TO_CMD_RECOVER) *
					 1000000ull;
			continue;
		}
		/*
		 * Spin briefly, then yield, then sleep: a long wait must not starve the
		 * threads that complete it (the EAL interrupt thread, a simulator engine).
		 */
		if (++spins <= 256)
			rte_pause();
		else if (spins <= 1024 || (s->polled && now < t_yield))
			sched_yield();
		else
			rte_delay_us_sleep(10);
	}
	/* Read the output only after ownership came back (prm/mlx5 §3.6: read barrier). */
	rte_io_rmb();
	return 0;
}

/* Mark a slot whose waiter gives up: reserved until the device answers (prm/mlx5 §3.10). */
/*
 * Called on the waiter's thread after mlx5v_cmd_wait() gave up. The owner check is repeated under
 * cmd->lock so that a completion racing with the timeout is not lost.
 */
static int
mlx5v_cmd_timeout(struct mlx5v_dev *dev, unsigned int idx)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	struct mlx5v_cmd_slot *s = &cmd->slot[idx];

	rte_spinlock_lock(&cmd->lock);
	if (!(mlx5v_cmd_owner(s) & MLX5V_CMD_OWNER_HW)) {
		/* Answered in the meantime: not a timeout after all. */
		rte_spinlock_unlock(&cmd->lock);
		/*
		 * Same read barrier as in mlx5v_cmd_wait(): the output is read after ownership
		 * returned (prm/mlx5 §3.6).
		 */
		rte_io_rmb();
		return 0;
	}
	s->state = MLX5V_CMD_SLOT_TIMEDOUT;
	rte_spinlock_unlock(&cmd->lock);
	MLX5V_CMD_LOG(ERR, "%s: %s (0x%x) slot %u timed out after %u ms; "
		      "slot kept until the device answers",
		      dev->name, mlx5v_cmd_opcode_name(s->opcode), s->opcode, idx,
		      mlx5v_tout_ms(dev, MLX5V_TO_CMD));
	return -ETIMEDOUT;
}

/*
 * Per-opcode counters. Relaxed atomics: commands on different slots account concurrently and a
 * reader only needs eventually consistent totals.
 */
static void
mlx5v_cmd_account(struct mlx5v_dev *dev, uint16_t opcode, int ret, uint64_t t0,
		  uint64_t t_db, uint64_t t_owner, uint64_t t_done)
{
	struct mlx5v_cmd_stats *st;
	uint64_t total = mlx5v_cmd_now_ns() - t0;

	if (dev->cmd.stats == NULL)
		return;
	st = mlx5v_cmd_stats_of(&dev->cmd, opcode);

	__atomic_fetch_add(&st->n, 1, __ATOMIC_RELAXED);
	if (ret != 0)
		__atomic_fetch_add(&st->errors, 1, __ATOMIC_RELAXED);
	if (ret == -ETIMEDOUT)
		__atomic_fetch_add(&st->timeouts, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&st->ns_total, total, __ATOMIC_RELAXED);
	if (t_db != 0 && t_owner >= t_db && t_done >= t_owner) {
		__atomic_fetch_add(&st->ns_device, t_owner - t_db, __ATOMIC_RELAXED);
		__atomic_fetch_add(&st->ns_event, t_done - t_owner, __ATOMIC_RELAXED);
	}
	/* ns_max is updated without a CAS loop; a lost race only under-reports a maximum. */
	if (total > __atomic_load_n(&st->ns_max, __ATOMIC_RELAXED))
		__atomic_store_n(&st->ns_max, total, __ATOMIC_RELAXED);
}

/*
 * Commands taken back by their owner bit still get their CMD events, which the EAL interrupt
 * thread absorbs. Many commands a second (several in flight) fill the async EQ faster than
 * a starved interrupt thread drains it, and an EQ overrun is fatal to the device
 * (prm/mlx5 §6.12): past a quarter of the EQ owed, the reaper polls the EQ itself (under
 * the EQ's trylock, so never beside the interrupt thread).
 */
#define MLX5V_CMD_EQES_OWED_MAX ((1u << MLX5V_ASYNC_EQ_LOG_SIZE) / 4)

static void
mlx5v_cmd_eqes_drain(struct mlx5v_dev *dev)
{
	struct mlx5v_eq *aeq;

	if (__atomic_load_n(&dev->cmd.eqes_owed, __ATOMIC_RELAXED) < MLX5V_CMD_EQES_OWED_MAX ||
	    !__atomic_load_n(&dev->cmd.events, __ATOMIC_ACQUIRE))
		return;
	aeq = mlx5v_eq_async(dev);
	if (aeq != NULL)
		mlx5v_eq_poll(aeq);
}

/*
 * Take a slot for one command and fill its mailboxes: the input's tail, the output's empty
 * blocks (prm/mlx5 §3.5 step 1). The entry itself is written by mlx5v_cmd_post().
 * @return 0 with *idx BUSY, -ENOLINK on a dead device, or a negative errno (logged).
 */
static int
mlx5v_cmd_slot_prepare(struct mlx5v_dev *dev, unsigned int flags, const void *in, size_t inlen,
		       size_t outlen, unsigned int *idx)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	unsigned int nin = mlx5v_cmd_nblocks(inlen);
	unsigned int nout = mlx5v_cmd_nblocks(outlen);
	struct mlx5v_cmd_slot *s;
	int ret;

	ret = mlx5v_cmd_slot_get(dev, flags, idx);
	if (ret == -ENOLINK)
		return ret;
	if (ret < 0) {
		MLX5V_CMD_LOG(ERR, "%s: %s: no command slot: %s", dev->name,
			      mlx5v_cmd_opcode_name(MLX5V_IFC_GET(cmd_in_hdr, in, opcode)),
			      strerror(-ret));
		return ret;
	}
	s = &cmd->slot[*idx];
	ret = mlx5v_cmd_mbox_reserve(dev, &s->in, nin);
	if (ret == 0)
		ret = mlx5v_cmd_mbox_reserve(dev, &s->out, nout);
	if (ret < 0) {
		mlx5v_cmd_slot_put(cmd, *idx);
		return ret;
	}
	mlx5v_cmd_mbox_fill(&s->in, nin, (const uint8_t *)in + MLX5V_CMD_INLINE_LEN,
			    inlen > MLX5V_CMD_INLINE_LEN ? inlen - MLX5V_CMD_INLINE_LEN : 0,
			    s->token, cmd->checksum);
	/* Output blocks: zeroed data, chained, tokened (prm/mlx5 §3.5 step 1). */
	mlx5v_cmd_mbox_fill(&s->out, nout, NULL, 0, s->token, cmd->checksum);
	return 0;
}

/*
 * Take back the answer of slot idx, whose owner bit read 0 after the read barrier: check the
 * delivery status and the signatures, copy the output. The caller gives the slot back.
 * @return 0, -EREMOTEIO (out holds the status) or the delivery error's errno.
 */
static int
mlx5v_cmd_complete(struct mlx5v_dev *dev, unsigned int idx, unsigned int nout, void *out,
		   size_t outlen)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	struct mlx5v_cmd_slot *s = &cmd->slot[idx];
	uint16_t opcode = s->opcode;
	const char *sig_what = NULL;
	uint8_t status_own, deliv;
	int ret;

	/*
	 * The owner bit is 0 here (mlx5v_cmd_wait() returned 0 after the barrier); bits 7:1 are the
	 * delivery status (prm/mlx5 §3.2, §3.7).
	 */
	status_own = MLX5V_IFC_GET(cmd_layout, s->ent, status_own);
	deliv = status_own >> 1;
	/*
	 * prm/mlx5 §3.4: with signatures on, the device signs its output too. The entry signature
	 * covers status_own, so it is checked first; the output blocks only matter when the
	 * command was delivered. A bad one is reported as delivery status SIGNAT_ERR
	 * (-EBADR, prm/mlx5 §3.7); the kernel returns -EHWPOISON here, which no caller of ours
	 * distinguishes from a signature error the device reports on our input.
	 */
	if (cmd->checksum &&
	    mlx5v_cmd_verify_sig(s, nout, deliv != MLX5V_CMD_DELIV_OK, &sig_what) != 0) {
		__atomic_fetch_add(&cmd->bad_out_sigs, 1, __ATOMIC_RELAXED);
		MLX5V_CMD_LOG(ERR, "%s: %s (0x%x) slot %u: bad %s signature in the device's "
			      "output (delivery status 0x%x)",
			      dev->name, mlx5v_cmd_opcode_name(opcode), opcode, idx, sig_what,
			      deliv);
		deliv = MLX5V_CMD_DELIV_SIGNAT_ERR;
	}
	if (deliv != MLX5V_CMD_DELIV_OK) {
		ret = mlx5v_cmd_delivery_to_errno(deliv);
		MLX5V_CMD_LOG(ERR, "%s: %s (0x%x) slot %u: delivery error %s (0x%x): %s",
			      dev->name, mlx5v_cmd_opcode_name(opcode), opcode, idx,
			      mlx5v_cmd_deliv_name(deliv), deliv, strerror(-ret));
		return ret;
	}
	/*
	 * An outbox status != OK is returned as -EREMOTEIO with the outbox intact: the [R] cmd_do
	 * contract that devx_create_eq callers rely on (prm/mlx5 §3.9).
	 */
	memcpy(out, MLX5V_IFC_ADDR_OF(cmd_layout, s->ent, out),
	       RTE_MIN(outlen, (size_t)MLX5V_CMD_INLINE_LEN));
	if (nout > 0)
		mlx5v_cmd_mbox_read(&s->out, nout, (uint8_t *)out + MLX5V_CMD_INLINE_LEN,
				    outlen - MLX5V_CMD_INLINE_LEN);
	return MLX5V_IFC_GET(cmd_out_hdr, out, status) != MLX5V_CMD_STAT_OK ? -EREMOTEIO : 0;
}

int
mlx5v_cmd_invoke(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		 size_t outlen, unsigned int flags)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	struct mlx5v_cmd_slot *s;
	uint16_t opcode;
	unsigned int nin, nout, idx;
	uint64_t t0 = mlx5v_cmd_now_ns();
	uint64_t t_db = 0, t_done = 0, t_owner = 0;
	int ret;

	if (in == NULL || out == NULL || inlen < 8 || outlen < 8)
		return -EINVAL;
	opcode = MLX5V_IFC_GET(cmd_in_hdr, in, opcode);
	/*
	 * The device walks at most 256 blocks each way and answers longer lengths with delivery
	 * status 0x7/0x8 (prm/mlx5 §3.3): refuse them before anything is allocated or posted.
	 */
	if (inlen > MLX5V_CMD_MAX_MSG_LEN || outlen > MLX5V_CMD_MAX_MSG_LEN) {
		MLX5V_CMD_LOG(ERR, "%s: %s (0x%x): inlen %zu / outlen %zu above the device's "
			      "maximum of %u bytes", dev->name, mlx5v_cmd_opcode_name(opcode),
			      opcode, inlen, outlen, (unsigned int)MLX5V_CMD_MAX_MSG_LEN);
		return -EINVAL;
	}
	/*
	 * Dead device or no queue yet (or already cleaned up): nothing is posted, the result is
	 * synthesised (prm/mlx5 §3.11).
	 */
	if (mlx5v_dev_is_dead(dev) || cmd->queue == NULL || mlx5v_cmd_stale_dev == dev) {
		ret = mlx5v_cmd_dead_result(dev, opcode, out, outlen);
		mlx5v_cmd_account(dev, opcode, ret, t0, 0, 0, 0);
		return ret;
	}
	/*
	 * Page work runs on the interrupt thread and never waits behind these destroys, nor
	 * behind asynchronous commands (firmware may hold those until it has its pages). Any
	 * other command runs after every asynchronous one posted before it: the device may run
	 * the commands of different slots in any order (prm/mlx5 §3.1).
	 */
	if (!(flags & MLX5V_CMD_F_PAGE)) {
		if (__atomic_load_n(&cmd->nb_async, __ATOMIC_RELAXED) > 0)
			mlx5v_cmd_async_wait(dev, 0);
		mlx5v_cmd_orphans_reclaim(dev);
	}
	nin = mlx5v_cmd_nblocks(inlen);
	nout = mlx5v_cmd_nblocks(outlen);
	ret = mlx5v_cmd_slot_prepare(dev, flags, in, inlen, outlen, &idx);
	if (ret == -ENOLINK)
		return mlx5v_cmd_dead_result(dev, opcode, out, outlen);
	if (ret < 0) {
		mlx5v_cmd_account(dev, opcode, ret, t0, 0, 0, 0);
		return ret;
	}
	s = &cmd->slot[idx];
	/* Page work keeps the event path: it runs on the interrupt thread, which polls the EQ. */
	s->polled = mlx5v_cmd_poll_dev == dev && !(flags & MLX5V_CMD_F_PAGE);
	t_db = mlx5v_cmd_now_ns();
	mlx5v_cmd_post(dev, idx, in, inlen, outlen, nin, nout);
	ret = mlx5v_cmd_wait(dev, idx, flags, &t_owner);
	t_done = mlx5v_cmd_now_ns();
	if (t_owner == 0)
		t_owner = t_done;
	if (ret == -ETIMEDOUT)
		ret = mlx5v_cmd_timeout(dev, idx);
	if (ret == -ETIMEDOUT) {
		mlx5v_cmd_account(dev, opcode, ret, t0, t_db, 0, 0);
		mlx5v_cmd_timeout_count(dev);
		return ret;
	}
	__atomic_store_n(&cmd->timeouts_in_row, 0, __ATOMIC_RELAXED);
	if (ret == -ENOLINK) {
		/* Died while we waited: flush this command with the dead-device result. */
		mlx5v_cmd_slot_put(cmd, idx);
		ret = mlx5v_cmd_dead_result(dev, opcode, out, outlen);
		mlx5v_cmd_account(dev, opcode, ret, t0, t_db, 0, 0);
		return ret;
	}
	ret = mlx5v_cmd_complete(dev, idx, nout, out, outlen);
	mlx5v_cmd_mbox_trim(dev, s);
	mlx5v_cmd_slot_put(cmd, idx);
	if (!(flags & MLX5V_CMD_F_PAGE))
		mlx5v_cmd_eqes_drain(dev);
	mlx5v_cmd_account(dev, opcode, ret, t0, t_db, t_owner, t_done);
	/* A late completion reaped while this command took its slot. */
	if (!(flags & MLX5V_CMD_F_PAGE))
		mlx5v_cmd_orphans_reclaim(dev);
	return ret;
}

int
mlx5v_cmd_do(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out, size_t outlen)
{
	if (dev == NULL)
		return -EINVAL;
	return mlx5v_cmd_invoke(dev, in, inlen, out, outlen, 0);
}

/* Translate the failed status of out, logging it with the command of in. */
static int
mlx5v_cmd_status_fail(struct mlx5v_dev *dev, const void *in, const void *out)
{
	uint8_t status = MLX5V_IFC_GET(cmd_out_hdr, out, status);

	/* The one log line of a failed command (contributing/style §4: exactly once). */
	MLX5V_CMD_LOG(ERR, "%s: %s(0x%x) op_mod 0x%x failed, status %s(0x%x), syndrome 0x%x",
		      dev->name, mlx5v_cmd_opcode_name(MLX5V_IFC_GET(cmd_in_hdr, in, opcode)),
		      MLX5V_IFC_GET(cmd_in_hdr, in, opcode),
		      MLX5V_IFC_GET(cmd_in_hdr, in, op_mod),
		      mlx5v_cmd_status_name(status), status,
		      MLX5V_IFC_GET(cmd_out_hdr, out, syndrome));
	return mlx5v_cmd_status_to_errno(status);
}

int
mlx5v_cmd_exec_flags(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		     size_t outlen, unsigned int flags)
{
	int ret;

	/*
	 * Only a firmware status is translated here; transport errors (-ETIMEDOUT, delivery status,
	 * -ENOLINK) pass through unchanged, as in [R] mlx5_vfio_cmd_exec (prm/mlx5 §3.9).
	 */
	ret = mlx5v_cmd_invoke(dev, in, inlen, out, outlen, flags);
	if (ret != -EREMOTEIO)
		return ret;
	return mlx5v_cmd_status_fail(dev, in, out);
}

int
mlx5v_cmd_exec(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out, size_t outlen)
{
	if (dev == NULL)
		return -EINVAL;
	return mlx5v_cmd_exec_flags(dev, in, inlen, out, outlen, 0);
}

/* ---- asynchronous commands ---- */

int
mlx5v_cmd_post_async(struct mlx5v_dev *dev, const void *in, size_t inlen, size_t outlen,
		     mlx5v_cmd_done_cb cb, void *arg, uint64_t *ticket)
{
	struct mlx5v_cmd *cmd;
	struct mlx5v_cmd_slot *s;
	uint8_t out[MLX5V_CMD_ASYNC_OUT_MAX];
	unsigned int idx;
	uint16_t opcode;
	int ret;

	if (dev == NULL || in == NULL || ticket == NULL || inlen < 8 ||
	    inlen > MLX5V_CMD_MAX_MSG_LEN || outlen < 8 || outlen > sizeof(out))
		return -EINVAL;
	cmd = &dev->cmd;
	opcode = MLX5V_IFC_GET(cmd_in_hdr, in, opcode);
	*ticket = 0;
	/* Nothing reaches a dead device: its result is known now (prm/mlx5 §3.11). */
	if (mlx5v_dev_is_dead(dev) || cmd->queue == NULL || mlx5v_cmd_stale_dev == dev) {
		ret = mlx5v_cmd_dead_result(dev, opcode, out, outlen);
		mlx5v_cmd_account(dev, opcode, ret, mlx5v_cmd_now_ns(), 0, 0, 0);
		return ret;
	}
	/* When every slot is taken, this reaps the asynchronous commands answered meanwhile. */
	ret = mlx5v_cmd_slot_prepare(dev, 0, in, inlen, outlen, &idx);
	if (ret == -ENOLINK)
		return mlx5v_cmd_dead_result(dev, opcode, out, outlen);
	if (ret < 0)
		return ret;
	s = &cmd->slot[idx];
	s->async_outlen = outlen;
	s->done_cb = cb;
	s->done_arg = arg;
	/* In event mode the device still writes the CMD event; it is absorbed when it comes. */
	s->polled = __atomic_load_n(&cmd->events, __ATOMIC_ACQUIRE) != 0;
	rte_spinlock_lock(&cmd->lock);
	if (++cmd->next_ticket == 0)
		cmd->next_ticket = 1;
	s->ticket = cmd->next_ticket;
	s->state = MLX5V_CMD_SLOT_ASYNC;
	__atomic_store_n(&cmd->nb_async, cmd->nb_async + 1, __ATOMIC_RELAXED);
	rte_spinlock_unlock(&cmd->lock);
	*ticket = s->ticket;
	s->t_post = mlx5v_cmd_now_ns();
	__atomic_fetch_add(&cmd->async_posted, 1, __ATOMIC_RELAXED);
	mlx5v_cmd_post(dev, idx, in, inlen, outlen, mlx5v_cmd_nblocks(inlen),
		       mlx5v_cmd_nblocks(outlen));
	return 0;
}

/* Report the result of one asynchronous command to its poster. */
static void
mlx5v_cmd_async_done(struct mlx5v_dev *dev, mlx5v_cmd_done_cb cb, void *arg, uint64_t ticket,
		     int ret, const uint8_t *out)
{
	if (ret != 0)
		__atomic_fetch_add(&dev->cmd.async_failed, 1, __ATOMIC_RELAXED);
	if (cb != NULL)
		cb(dev, arg, ticket, ret, out);
}

/*
 * Take back slot idx, claimed by this thread (REAPING): the device answered it, or is dead.
 * Each slot's outbox is checked as a synchronous command's is.
 */
static void
mlx5v_cmd_async_finish(struct mlx5v_dev *dev, unsigned int idx, int dead)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	struct mlx5v_cmd_slot *s = &cmd->slot[idx];
	uint8_t in[MLX5V_CMD_INLINE_LEN], out[MLX5V_CMD_ASYNC_OUT_MAX];
	size_t outlen = s->async_outlen;
	mlx5v_cmd_done_cb cb = s->done_cb;
	void *arg = s->done_arg;
	uint64_t ticket = s->ticket, t_post = s->t_post;
	uint16_t opcode = s->opcode;
	int ret;

	memcpy(in, MLX5V_IFC_ADDR_OF(cmd_layout, s->ent, in), sizeof(in));
	if (dead) {
		ret = mlx5v_cmd_dead_result(dev, opcode, out, outlen);
	} else {
		__atomic_store_n(&cmd->timeouts_in_row, 0, __ATOMIC_RELAXED);
		/* Read the answer only after ownership came back (prm/mlx5 §3.6). */
		rte_io_rmb();
		ret = mlx5v_cmd_complete(dev, idx, mlx5v_cmd_nblocks(outlen), out, outlen);
		mlx5v_cmd_account(dev, opcode, ret, t_post, t_post, mlx5v_cmd_now_ns(),
				  mlx5v_cmd_now_ns());
		if (ret == -EREMOTEIO)
			ret = mlx5v_cmd_status_fail(dev, in, out);
	}
	/*
	 * The slot stays REAPING, its ticket pending, until the callback has run: a waiter on
	 * the ticket then sees its result.
	 */
	mlx5v_cmd_async_done(dev, cb, arg, ticket, ret, out);
	mlx5v_cmd_mbox_trim(dev, s);
	mlx5v_cmd_slot_put(cmd, idx);
}

unsigned int
mlx5v_cmd_async_reap(struct mlx5v_dev *dev)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	uint64_t now = mlx5v_cmd_now_ns();
	uint64_t tout = (uint64_t)mlx5v_tout_ms(dev, MLX5V_TO_CMD) * 1000000ull;
	uint32_t claimed = 0, timed = 0;
	unsigned int i, n = 0;
	int dead;

	if (__atomic_load_n(&cmd->nb_async, __ATOMIC_RELAXED) == 0)
		return 0;
	dead = mlx5v_dev_is_dead(dev) != 0;
	rte_spinlock_lock(&cmd->lock);
	for (i = 0; i < cmd->nslots; i++) {
		struct mlx5v_cmd_slot *s = &cmd->slot[i];

		if (s->state != MLX5V_CMD_SLOT_ASYNC)
			continue;
		/*
		 * Owner bit 0: answered; acquire orders the output reads after it (prm/mlx5 §3.6).
		 */
		if (dead || !(mlx5v_cmd_owner(s) & MLX5V_CMD_OWNER_HW)) {
			s->state = MLX5V_CMD_SLOT_REAPING;
			claimed |= 1u << i;
		} else if (now - s->t_post > tout) {
			s->state = MLX5V_CMD_SLOT_REAPING;
			timed |= 1u << i;
		}
	}
	rte_spinlock_unlock(&cmd->lock);
	for (i = 0; i < cmd->nslots; i++) {
		struct mlx5v_cmd_slot *s = &cmd->slot[i];
		uint8_t out[MLX5V_CMD_ASYNC_OUT_MAX];

		if (claimed & (1u << i)) {
			mlx5v_cmd_async_finish(dev, i, dead);
			n++;
		}
		if (!(timed & (1u << i)))
			continue;
		MLX5V_CMD_LOG(ERR, "%s: %s (0x%x) slot %u, ticket %" PRIu64 ": timed out after "
			      "%u ms; slot kept until the device answers", dev->name,
			      mlx5v_cmd_opcode_name(s->opcode), s->opcode, i, s->ticket,
			      mlx5v_tout_ms(dev, MLX5V_TO_CMD));
		mlx5v_cmd_account(dev, s->opcode, -ETIMEDOUT, s->t_post, 0, 0, 0);
		mlx5v_cmd_timeout_count(dev);
		memset(out, 0, sizeof(out));
		mlx5v_cmd_async_done(dev, s->done_cb, s->done_arg, s->ticket, -ETIMEDOUT, out);
		/* Reserved until the device answers, as a synchronous one (prm/mlx5 §3.10). */
		rte_spinlock_lock(&cmd->lock);
		s->state = MLX5V_CMD_SLOT_TIMEDOUT;
		__atomic_store_n(&cmd->nb_async, cmd->nb_async - 1, __ATOMIC_RELAXED);
		rte_spinlock_unlock(&cmd->lock);
		n++;
	}
	if (n > 0)
		mlx5v_cmd_eqes_drain(dev);
	return n;
}

/* @return whether the command of ticket (0: any) is still outstanding. */
static int
mlx5v_cmd_async_pending(struct mlx5v_cmd *cmd, uint64_t ticket)
{
	unsigned int i;
	int found = 0;

	if (ticket == 0)
		return __atomic_load_n(&cmd->nb_async, __ATOMIC_RELAXED) > 0;
	rte_spinlock_lock(&cmd->lock);
	for (i = 0; i < cmd->nslots && !found; i++)
		found = (cmd->slot[i].state == MLX5V_CMD_SLOT_ASYNC ||
			 cmd->slot[i].state == MLX5V_CMD_SLOT_REAPING) &&
			cmd->slot[i].ticket == ticket;
	rte_spinlock_unlock(&cmd->lock);
	return found;
}

int
mlx5v_cmd_async_wait(struct mlx5v_dev *dev, uint64_t ticket)
{
	unsigned int spins = 0;

	if (dev == NULL)
		return -EINVAL;
	/*
	 * Bounded: the reap times out every command after the command timeout and completes
	 * them all once the device is dead; a slot another thread claimed is given back at once.
	 * Spin, then yield, then sleep, as a synchronous waiter does.
	 */
	for (;;) {
		mlx5v_cmd_async_reap(dev);
		if (!mlx5v_cmd_async_pending(&dev->cmd, ticket))
			return 0;
		if (++spins <= 256)
			rte_pause();
		else if (spins <= 4096)
			sched_yield();
		else
			rte_delay_us_sleep(10);
	}
}

/* ---- mode switches, init, cleanup ---- */

void
mlx5v_cmd_use_events(struct mlx5v_dev *dev)
{
	/*
	 * Release pairs with the acquire in mlx5v_cmd_wait(): a waiter that sees events = 1 also
	 * sees the async EQ that will deliver them (prm/mlx5 §3.6).
	 */
	__atomic_store_n(&dev->cmd.events, 1, __ATOMIC_RELEASE);
	MLX5V_CMD_LOG(DEBUG, "%s: command completions now come from the async EQ", dev->name);
}

void
mlx5v_cmd_use_polling(struct mlx5v_dev *dev)
{
	/*
	 * Set before DESTROY_EQ of the async EQ at teardown, as [R] clears have_eq first
	 * (prm/mlx5 §2.3), so no waiter relies on an EQ that is going away.
	 */
	__atomic_store_n(&dev->cmd.events, 0, __ATOMIC_RELEASE);
}

/*
 * [K] mlx5_cmd_flush() (prm/mlx5 §3.11). Called from the health path once the device is marked
 * dead, possibly on the EAL interrupt thread.
 */
void
mlx5v_cmd_flush(struct mlx5v_dev *dev)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	unsigned int i, busy = 0;

	/*
	 * Waiters check the dead flag on every pass and complete with the dead-device
	 * result; timed-out slots will never be answered, so release them.
	 */
	rte_spinlock_lock(&cmd->lock);
	for (i = 0; i < cmd->nslots; i++) {
		if (cmd->slot[i].state == MLX5V_CMD_SLOT_BUSY)
			busy++;
		if (cmd->slot[i].state == MLX5V_CMD_SLOT_TIMEDOUT)
			cmd->slot[i].state = MLX5V_CMD_SLOT_FREE;
	}
	/* A dead device keeps nothing: no destroy to send for late completions. */
	cmd->nb_orphans = 0;
	rte_spinlock_unlock(&cmd->lock);
	if (busy > 0)
		MLX5V_CMD_LOG(WARNING, "%s: flushing %u pending command(s)", dev->name, busy);
}

int
mlx5v_cmd_init(struct mlx5v_dev *dev)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	uint32_t v, rd_h, rd_l;
	unsigned int i;
	int ret;

	memset(cmd->slot, 0, sizeof(cmd->slot));
	rte_spinlock_init(&cmd->lock);
	cmd->token = 0;
	cmd->events = 0;
	cmd->nb_orphans = 0;
	cmd->reclaiming = 0;
	/* prm/mlx5 §2.1 step 2: geometry is read-only in cmdq_addr_l_sz[7:0]. */
	v = mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	cmd->log_sz = (v >> 4) & 0xf;
	cmd->log_stride = v & 0xf;
	cmd->nslots = 1u << cmd->log_sz;
	/*
	 * nslots < 2 would leave no ordinary slot besides the page slot; a stride below 64 bytes
	 * cannot hold an entry (prm/mlx5 §3.1).
	 */
	if (cmd->nslots > MLX5V_CMD_MAX_SLOTS || cmd->nslots < 2 ||
	    cmd->log_sz + cmd->log_stride > 12 || (1u << cmd->log_stride) < MLX5V_CMD_ENT_SIZE) {
		MLX5V_CMD_LOG(ERR, "%s: bad command queue geometry: log_size %u, log_stride %u",
			      dev->name, cmd->log_sz, cmd->log_stride);
		return -EINVAL;
	}
	/* The last slot belongs to MANAGE_PAGES (the kernel's rule; rdma-core's fixed
	 * slot 31 breaks when log_cmdq_size < 5, prm/mlx5 §12 #13).
	 */
	cmd->page_slot = cmd->nslots - 1;
	cmd->stats = rte_zmalloc_socket("mlx5v_cmd_stats",
					sizeof(*cmd->stats) * (MLX5V_CMD_STATS_OPCODES + 1), 0,
					dev->socket);
	if (cmd->stats == NULL)
		return -ENOMEM;
	/*
	 * One zeroed, 4 KiB-aligned page holds the whole queue (log_sz + log_stride <= 12,
	 * prm/mlx5 §3.1); the device rejects an address with bits 11:0 set (prm/mlx5 §1.1).
	 */
	cmd->queue = rte_zmalloc_socket("mlx5v_cmdq", 4096, 4096, dev->socket);
	if (cmd->queue == NULL) {
		ret = -ENOMEM;
		goto err_stats_free;
	}
	ret = mlx5v_hw_dma_map(mlx5v_dev_hw(dev), cmd->queue, 4096, &cmd->queue_iova);
	if (ret < 0)
		goto err_queue_free;
	if (cmd->queue_iova & 0xfff) {
		MLX5V_CMD_LOG(ERR, "%s: command queue IOVA 0x%" PRIx64 " not 4 KiB aligned",
			      dev->name, cmd->queue_iova);
		ret = -EINVAL;
		goto err_queue_unmap;
	}
	for (i = 0; i < cmd->nslots; i++)
		cmd->slot[i].ent = cmd->queue + (i << cmd->log_stride);
	/* The zeroed page must be in memory before the device learns its address. */
	rte_wmb();
	mlx5v_hw_wr32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDQ_ADDR_H, (uint32_t)(cmd->queue_iova >> 32));
	/* Bits 10:8 = 0 request nic_interface FULL; bits 7:0 are read-only. */
	mlx5v_hw_wr32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDQ_ADDR_L_SZ, (uint32_t)cmd->queue_iova);
	/*
	 * Read-back is a diagnostic only: a device that ignores the write shows up as timeouts
	 * later, and a real one may mask bits; do not fail bring-up on it.
	 */
	rd_h = mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDQ_ADDR_H);
	rd_l = mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	cmd->iseg_addr_h = rd_h;
	cmd->iseg_addr_l = rd_l & MLX5V_CMDQ_ADDR_MASK;
	if (rd_h != (uint32_t)(cmd->queue_iova >> 32) ||
	    (rd_l & MLX5V_CMDQ_ADDR_MASK) != ((uint32_t)cmd->queue_iova & MLX5V_CMDQ_ADDR_MASK))
		MLX5V_CMD_LOG(WARNING,
			      "%s: command queue address reads back 0x%08x%08x, wrote 0x%" PRIx64,
			      dev->name, rd_h, rd_l & MLX5V_CMDQ_ADDR_MASK, cmd->queue_iova);
	MLX5V_CMD_LOG(DEBUG,
		      "%s: command queue at 0x%" PRIx64 ": %u slots of %u bytes, page slot %u",
		      dev->name, cmd->queue_iova, cmd->nslots, 1u << cmd->log_stride,
		      cmd->page_slot);
	/*
	 * Subscribed even before the async EQ exists: completions are polled until
	 * mlx5v_cmd_use_events() and the subscription then needs no extra step.
	 */
	ret = mlx5v_eq_subscribe(dev, RTE_PMD_MLX5V_EVENT_CMD, mlx5v_cmd_event, NULL);
	if (ret < 0)
		goto err_queue_unmap;
	return 0;

err_queue_unmap:
	mlx5v_hw_dma_unmap(mlx5v_dev_hw(dev), cmd->queue, cmd->queue_iova, 4096);
err_queue_free:
	rte_free(cmd->queue);
	cmd->queue = NULL;
err_stats_free:
	rte_free(cmd->stats);
	cmd->stats = NULL;
	return ret;
}

/*
 * Runs after the last command of unload or of the load unwind, so no slot is posted any
 * more; a slot still held by a timed-out command is the one exception, logged below.
 */
void
mlx5v_cmd_cleanup(struct mlx5v_dev *dev)
{
	struct mlx5v_cmd *cmd = &dev->cmd;
	unsigned int i;

	if (cmd->queue == NULL)
		return;
	/* Asynchronous commands still in flight complete (or time out) before the queue goes. */
	mlx5v_cmd_async_wait(dev, 0);
	mlx5v_eq_unsubscribe(dev, RTE_PMD_MLX5V_EVENT_CMD, mlx5v_cmd_event, NULL);
	/*
	 * Objects of late completions not destroyed yet, and of commands that never completed,
	 * went with TEARDOWN_HCA / DISABLE_HCA: the function teardown reclaims them
	 * (prm/mlx5 §2.3).
	 */
	if (cmd->nb_orphans > 0)
		MLX5V_CMD_LOG(WARNING, "%s: %u object(s) of late completions reclaimed by the "
			      "function teardown", dev->name, cmd->nb_orphans);
	cmd->nb_orphans = 0;
	for (i = 0; i < cmd->nslots; i++) {
		if (cmd->slot[i].state == MLX5V_CMD_SLOT_TIMEDOUT)
			MLX5V_CMD_LOG(WARNING, "%s: slot %u still held by a timed-out %s; the "
				      "function teardown reclaimed what it made", dev->name, i,
				      mlx5v_cmd_opcode_name(cmd->slot[i].opcode));
		mlx5v_cmd_mbox_free(dev, &cmd->slot[i].in);
		mlx5v_cmd_mbox_free(dev, &cmd->slot[i].out);
	}
	mlx5v_hw_dma_unmap(mlx5v_dev_hw(dev), cmd->queue, cmd->queue_iova, 4096);
	rte_free(cmd->queue);
	cmd->queue = NULL;
	rte_free(cmd->stats);
	cmd->stats = NULL;
}

int
mlx5v_cmd_stats_get(struct mlx5v_dev *dev, uint16_t opcode, struct mlx5v_cmd_stats *st)
{
	if (dev == NULL || st == NULL || dev->cmd.stats == NULL)
		return -EINVAL;
	*st = *mlx5v_cmd_stats_of(&dev->cmd, opcode);
	return 0;
}

int
mlx5v_cmd_info_get(struct mlx5v_dev *dev, struct mlx5v_cmd_info *info)
{
	struct mlx5v_cmd *cmd;
	unsigned int i;

	if (dev == NULL || info == NULL)
		return -EINVAL;
	cmd = &dev->cmd;
	memset(info, 0, sizeof(*info));
	rte_spinlock_lock(&cmd->lock);
	/* A late answer without a CMD event is noticed here or at the next slot search. */
	if (cmd->queue != NULL)
		mlx5v_cmd_reap_locked(dev);
	info->nslots = cmd->nslots;
	info->page_slot = cmd->page_slot;
	info->log_stride = cmd->log_stride;
	info->events = cmd->events;
	info->checksum = cmd->checksum;
	for (i = 0; i < cmd->nslots; i++) {
		if (cmd->slot[i].state == MLX5V_CMD_SLOT_BUSY ||
		    cmd->slot[i].state == MLX5V_CMD_SLOT_ASYNC ||
		    cmd->slot[i].state == MLX5V_CMD_SLOT_REAPING)
			info->busy_mask |= 1u << i;
		else if (cmd->slot[i].state == MLX5V_CMD_SLOT_TIMEDOUT)
			info->timedout_mask |= 1u << i;
	}
	info->last_token = cmd->token;
	info->late_completions = cmd->late_completions;
	info->polled = __atomic_load_n(&cmd->polled, __ATOMIC_RELAXED);
	info->polled_eqes = cmd->polled_eqes;
	info->eq_recoveries = cmd->eq_recoveries;
	info->spurious = cmd->spurious;
	info->bad_out_sigs = __atomic_load_n(&cmd->bad_out_sigs, __ATOMIC_RELAXED);
	info->orphans_destroyed = cmd->orphans_destroyed;
	info->orphans_left = cmd->orphans_left;
	info->async_posted = __atomic_load_n(&cmd->async_posted, __ATOMIC_RELAXED);
	info->async_failed = __atomic_load_n(&cmd->async_failed, __ATOMIC_RELAXED);
	info->async_pending = cmd->nb_async;
	rte_spinlock_unlock(&cmd->lock);
	return 0;
}

/*
 * Signatures are off by default, as in [K] and [R] (prm/mlx5 §3.4); turning them on
 * only makes sense when SET_HCA_CAP leaves cmdif_checksum != 0.
 */
void
mlx5v_cmd_checksum_enable(struct mlx5v_dev *dev, int on)
{
	dev->cmd.checksum = !!on;
}
