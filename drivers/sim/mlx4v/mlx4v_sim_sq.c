/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The simulated send engine: finds WQEs by their owner bits, gathers raw packets
 * through the MR table, sends them to a port and writes send CQEs.
 */

#include <string.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>

#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

#define MLX4V_SIM_DS 16u
#define MLX4V_SIM_OPCODE_MASK 0x1fu
#define MLX4V_SIM_OWNER_BIT (1u << 31)
/* Largest WQE: the DS count is 6 bits (prm/mlx4 §4.2). */
#define MLX4V_SIM_MAX_WQE (63u * MLX4V_SIM_DS)

/*
 * Engine thread, sim lock held: every gather and scatter goes through it, so DMA outside registered
 * memory is caught (prm/mlx4 §7, checks worth having).
 */
int
mlx4v_sim_mr_check(struct mlx4v_sim *sim, uint32_t pdn, uint32_t lkey, uint64_t addr,
		   uint64_t len, uint64_t *iova)
{
	const struct mlx4v_sim_mr *mr;
	uint32_t idx = (lkey >> 8) - 2;

	/*
	 * The MPT lookup: key, protection domain, then bounds. Misuse check lkey: an unknown or
	 * recycled key (the generation byte differs), a key of another PD, or a range outside the
	 * MR. Hardware would complete with a protection error; so do we, and we also count it.
	 */
	if ((lkey >> 8) < 2 || idx >= MLX4V_SIM_MAX_MR || !sim->mrs[idx].used ||
	    sim->mrs[idx].lkey != lkey) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_LKEY, "unknown lkey 0x%x", lkey);
		return -EACCES;
	}
	mr = &sim->mrs[idx];
	if (mr->pdn != pdn) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_LKEY, "lkey 0x%x belongs to PD %u, not %u",
				 lkey, mr->pdn, pdn);
		return -EACCES;
	}
	/* Written so that no sum can overflow with a hostile addr/len. */
	if (addr < mr->addr || len > mr->len || addr - mr->addr > mr->len - len) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_LKEY,
				 "lkey 0x%x: [0x%" PRIx64 ", +%" PRIu64 ") outside its MR",
				 lkey, addr, len);
		return -EACCES;
	}
	/* The MTT step; the IOMMU step is the caller's DMA access. */
	*iova = mr->iova + (addr - mr->addr);
	return 0;
}

/* QP create and RESET, sim lock held: the device forgets its position, as software does. */
void
mlx4v_sim_sq_reset(struct mlx4v_sim_qp *qp)
{
	uint32_t i;

	qp->pos = 0;
	qp->db_pending = 0;
	/* What libmlx4's SQ ownership initialisation leaves in every control word. */
	for (i = 0; i < qp->txbb_cnt; i++)
		qp->last[i] = rte_cpu_to_be_32(MLX4V_SIM_OWNER_BIT);
	mlx4v_sim_sq_prefetch_reset(qp);
	mlx4v_sim_bf_reset(qp);
}

/* Doorbell handler of a QP's UAR page: the send doorbell at +0x14. */
void
mlx4v_sim_sq_doorbell(void *arg, uint32_t off, uint64_t raw)
{
	struct mlx4v_sim_qp *qp = arg;
	struct mlx4v_sim *sim = qp->sim;

	/* A QP of a life before the device reset: its page leads nowhere (mlx4v_sim_reset.c). */
	if (qp->stale)
		return;
	if (off != MLX4V_SEND_DOORBELL) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DB_WRONG_PAGE,
				 "QP 0x%x: doorbell written at UAR offset 0x%x", qp->qpn, off);
		return;
	}
	/*
	 * The doorbell carries only BE32(qpn << 8), written without a byte swap. Misuse check
	 * sdb_value: a swapped or unshifted QPN (e.g. rte_cpu_to_be_32() applied twice, or qpn
	 * without << 8) rings nothing on hardware; prm/mlx4 §4.2 says write doorbell_qpn as is.
	 */
	if ((uint32_t)raw != qp->doorbell_qpn) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_SDB_VALUE,
				 "QP 0x%x: send doorbell 0x%08x, expected doorbell_qpn 0x%08x",
				 qp->qpn, (uint32_t)raw, qp->doorbell_qpn);
		return;
	}
	sim->stats.doorbells++;
	/* The doorbell carries no producer index (prm/mlx4 §4.2): only note that a scan is due. */
	qp->db_pending++;
}

/* Copy len bytes of the SQ ring at TXBB position pos + byte off, wrapping at the end. */
int
mlx4v_sim_sq_dma_read(struct mlx4v_sim_qp *qp, uint32_t pos, uint32_t off, void *dst,
		      uint32_t len)
{
	uint32_t ring = qp->txbb_cnt * MLX4V_SIM_TXBB;
	/*
	 * DPDK builds WQEs straight into the ring and lets a multi-TXBB WQE wrap at eob (prm/mlx4
	 * §5.2), so the read may be split in two.
	 */
	uint32_t start = ((pos & (qp->txbb_cnt - 1)) * MLX4V_SIM_TXBB + off) % ring;
	uint32_t first = RTE_MIN(len, ring - start);

	if (hwsim_dma_read(qp->sim->dma, (uintptr_t)(qp->sq + start), dst, first) != 0)
		return -EFAULT;
	if (first < len &&
	    hwsim_dma_read(qp->sim->dma, (uintptr_t)qp->sq, (uint8_t *)dst + first,
			   len - first) != 0)
		return -EFAULT;
	return 0;
}

/*
 * Gather the packet of one SEND WQE (ds 16-byte units, control segment included).
 * @return 0 with *len set, or a CQE syndrome.
 */
static uint8_t
mlx4v_sim_sq_gather(struct mlx4v_sim_qp *qp, const uint8_t *wqe, uint32_t ds,
		    uint32_t *len)
{
	struct mlx4v_sim *sim = qp->sim;
	uint32_t end = ds * MLX4V_SIM_DS, off = MLX4V_SIM_DS, n = 0, bc, il, lkey;
	const struct mlx4_wqe_data_seg *dseg;
	uint64_t addr, iova;
	int inl = 0;

	while (off + 4 <= end) {
		/*
		 * Inline and data segments share their first dword: bit 31 of byte_count tells them
		 * apart (MLX4_INLINE_SEG, prm/mlx4 §4.2).
		 */
		memcpy(&bc, wqe + off, sizeof(bc));
		bc = rte_be_to_cpu_32(bc);
		if (bc & MLX4_INLINE_SEG) {
			/* Inline data: a 4-byte header, never crossing a 64-byte boundary. */
			il = bc & ~MLX4_INLINE_SEG;
			/*
			 * Misuse check sq_wqe_size: inline data crossing a 64-byte chunk, or
			 * running past the DS count; hardware would read the next chunk's stamp as
			 * data.
			 */
			if ((off % MLX4_INLINE_ALIGN) + 4 + il > MLX4_INLINE_ALIGN ||
			    off + 4 + il > end || n + il > MLX4V_SIM_MAX_PKT) {
				mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_SQ_WQE_SIZE,
						 "QP 0x%x: bad inline segment of %u bytes at %u",
						 qp->qpn, il, off);
				return MLX4_CQE_SYNDROME_LOCAL_LENGTH_ERR;
			}
			memcpy(sim->pkt + n, wqe + off + 4, il);
			n += il;
			off += 4 + il;
			inl = 1;
			/* A continuation header only follows at the next 64-byte boundary. */
			if (off % MLX4_INLINE_ALIGN != 0)
				break;
			continue;
		}
		/* After inline data only padding remains. */
		if (inl || off % MLX4V_SIM_DS != 0)
			break;
		dseg = (const struct mlx4_wqe_data_seg *)(wqe + off);
		off += MLX4V_SIM_DS;
		if (bc == 0)
			continue;
		lkey = rte_be_to_cpu_32(dseg->lkey);
		addr = rte_be_to_cpu_64(dseg->addr);
		if (n + bc > MLX4V_SIM_MAX_PKT)
			return MLX4_CQE_SYNDROME_LOCAL_LENGTH_ERR;
		if (mlx4v_sim_mr_check(sim, qp->pdn, lkey, addr, bc, &iova) != 0)
			return MLX4_CQE_SYNDROME_LOCAL_PROT_ERR;
		/*
		 * Through the IOMMU, as on hardware: a registered range whose pages are not (or
		 * no longer) pinned faults here instead of being read.
		 */
		if (hwsim_dma_read(sim->dma, iova, sim->pkt + n, bc) != 0) {
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DMA,
					 "QP 0x%x: gather of %u bytes at 0x%" PRIx64 " faulted",
					 qp->qpn, bc, addr);
			return MLX4_CQE_SYNDROME_LOCAL_PROT_ERR;
		}
		n += bc;
	}
	*len = n;
	return 0;
}

/*
 * Execute one valid WQE; @return 0 or a CQE syndrome. Engine thread, sim lock held. The model is an
 * Ethernet port: only SEND (and NOP) make sense on a raw-packet QP.
 */
static uint8_t
mlx4v_sim_sq_execute(struct mlx4v_sim_qp *qp, const uint8_t *wqe, uint32_t ds,
		     uint32_t opcode, uint32_t *len)
{
	const struct mlx4_wqe_ctrl_seg *ctrl;
	struct mlx4v_sim *sim = qp->sim;
	uint32_t flags, csum;
	uint8_t syndrome;

	*len = 0;
	if (opcode == MLX4_OPCODE_NOP)
		return 0;
	/*
	 * Misuse check sq_opcode: LSO, RDMA and atomics are not modelled; fail the WQE loudly
	 * rather than send something wrong.
	 */
	if (opcode != MLX4_OPCODE_SEND) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_SQ_OPCODE,
				 "QP 0x%x: opcode 0x%x not supported on a raw-packet QP",
				 qp->qpn, opcode);
		return MLX4_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	}
	if (mlx4v_sim_knob_take(sim, MLX4V_SIM_KNOB_FAIL_SEND))
		return MLX4_CQE_SYNDROME_LOCAL_PROT_ERR;
	syndrome = mlx4v_sim_sq_gather(qp, wqe, ds, len);
	if (syndrome)
		return syndrome;
	/* The checksum offloads of the control segment (prm/mlx4 §4.2, srcrb_flags). */
	ctrl = (const struct mlx4_wqe_ctrl_seg *)wqe;
	flags = rte_be_to_cpu_32(ctrl->srcrb_flags);
	csum = flags & (MLX4_WQE_CTRL_IP_HDR_CSUM | MLX4_WQE_CTRL_TCP_UDP_CSUM);
	/*
	 * Misuse check sq_csum_split (knob tx_csum_pair): libmlx4, DPDK and mlx4_en always set
	 * both flags; what the device does with one alone is not established, so it computes
	 * neither.
	 */
	if (csum != 0 && csum != (MLX4_WQE_CTRL_IP_HDR_CSUM | MLX4_WQE_CTRL_TCP_UDP_CSUM) &&
	    mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_TX_CSUM_PAIR) != 0) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_SQ_CSUM_SPLIT,
				 "QP 0x%x: srcrb_flags 0x%x ask for one checksum of two", qp->qpn,
				 flags);
		flags &= ~csum;
	}
	mlx4v_sim_csum_tx_fill(sim->pkt, *len, flags);
	sim->stats.tx_packets++;
	sim->stats.tx_bytes += *len;
	/*
	 * Looped back by a local rule now, or out on the port's wire once the pass releases the
	 * model lock; the receiver may drop it: like a real port, the send side completes either
	 * way.
	 */
	mlx4v_sim_flow_send(qp, wqe, sim->pkt, *len);
	return 0;
}

/* A doorbell found nothing: tell a wrong-pass owner bit apart from a raced scan. */
static void
mlx4v_sim_sq_check_owner(struct mlx4v_sim_qp *qp)
{
	uint32_t slot = qp->pos & (qp->txbb_cnt - 1);
	uint32_t w = 0;

	/*
	 * Misuse check sq_owner below: the doorbell rang but the next WQE is not valid for this
	 * pass. Either software flipped the owner bit wrongly (a WQE marked valid for the wrong
	 * pass, prm/mlx4 §7), or an earlier pass already consumed it; the checks below exclude the
	 * latter.
	 */
	if (mlx4v_sim_sq_dma_read(qp, qp->pos, 0, &w, sizeof(w)) != 0)
		return;
	/* Stamps (libmlx4 0xffffffff, DPDK 0x7fffffff | owner) are not WQEs. */
	if ((rte_be_to_cpu_32(w) & ~MLX4V_SIM_OWNER_BIT) == 0x7fffffff)
		return;
	/* Unchanged since we last executed (or initialised) it: an earlier pass ate it. */
	if (w == qp->last[slot])
		return;
	/*
	 * Valid for this pass now: the producer finished the WQE after the walk read the word
	 * (the walk and this read are two reads of memory software writes meanwhile). No misuse:
	 * the next pass walks it.
	 */
	if ((rte_be_to_cpu_32(w) >> 31) == !!(qp->pos & qp->txbb_cnt)) {
		qp->db_pending++;
		return;
	}
	mlx4v_sim_misuse(qp->sim, MLX4V_SIM_MISUSE_SQ_OWNER,
			 "QP 0x%x: WQE at %u written with owner %u, pass %u expects %u",
			 qp->qpn, qp->pos, rte_be_to_cpu_32(w) >> 31,
			 qp->pos / qp->txbb_cnt, !!(qp->pos & qp->txbb_cnt));
}

int
mlx4v_sim_sq_owner_check(struct mlx4v_sim *sim)
{
	struct mlx4v_sim_qp *qp;
	unsigned int i;

	if (sim == NULL)
		return -EINVAL;
	pthread_mutex_lock(&sim->lock);
	for (i = 0; i < MLX4V_SIM_MAX_QP; i++) {
		qp = sim->qps[i];
		if (qp != NULL && !qp->is_wq && qp->page != NULL &&
		    qp->state == RTE_PMD_MLX4V_QPS_RTS)
			mlx4v_sim_sq_check_owner(qp);
	}
	pthread_mutex_unlock(&sim->lock);
	return 0;
}

/*
 * Engine thread, sim lock held. Walks the SQ from the device position by owner bits, treating the
 * doorbell only as a hint (prm/mlx4 §7). Returns the number of WQEs executed.
 */
int
mlx4v_sim_sq_process(struct mlx4v_sim_qp *qp)
{
	struct mlx4v_sim *sim = qp->sim;
	uint8_t wqe[MLX4V_SIM_MAX_WQE];
	struct mlx4_wqe_ctrl_seg ctrl;
	uint32_t done = 0, budget, ds, nbb, opcode, owner, len, slot;
	struct mlx4_cqe cqe;
	uint8_t syndrome;
	const uint8_t *bf;
	uint16_t index;

	/*
	 * Misuse check qp_state: ringing before RTS is a setup-order bug (DPDK moves Tx QPs to RTS
	 * first, prm/mlx4 §5.2). In ERR the WQEs are still walked, to flush them.
	 */
	if (qp->state != RTE_PMD_MLX4V_QPS_RTS && qp->state != RTE_PMD_MLX4V_QPS_ERR) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_QP_STATE,
				 "QP 0x%x: send doorbell in state %d", qp->qpn, qp->state);
		return 0;
	}
	/* Budget of one ring lap: a consumer that keeps every TXBB valid cannot hang the engine. */
	for (budget = qp->txbb_cnt; budget > 0; budget -= RTE_MIN(budget, nbb)) {
		/*
		 * wqe_index of the CQE counts strides, not TXBBs, as libmlx4 expects (prm/mlx4
		 * §4.6), and runs on modulo 2^16 rather than wrapping with the ring: libmlx4 and
		 * mlx4_ib advance their tail by (u16)(wqe_index - (u16)tail), which a ring index
		 * would throw back after the first wrap (prm/mlx4 §4.7). DPDK Tx masks it.
		 */
		index = (uint16_t)(qp->pos >> (qp->sq_shift - 6));
		/* A WQE written to BlueFlame is posted from that copy: no ring read for it. */
		bf = mlx4v_sim_bf_find(qp, index);
		if (bf != NULL) {
			memcpy(&ctrl, bf, sizeof(ctrl));
		} else if (mlx4v_sim_sq_dma_read(qp, qp->pos, 0, &ctrl, sizeof(ctrl)) != 0) {
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DMA, "QP 0x%x: SQ unreadable",
					 qp->qpn);
			break;
		} else {
			/*
			 * Owner bit check: valid for the device when it equals the pass parity,
			 * counted in TXBBs as DPDK does (prm/mlx4 §4.2); the first mismatch ends
			 * the walk (prm/mlx4 §7).
			 */
			owner = rte_be_to_cpu_32(ctrl.owner_opcode) >> 31;
			if (owner != !!(qp->pos & qp->txbb_cnt))
				break;
		}
		/*
		 * The frames of a pass wait for the wire in a bounded queue
		 * (mlx4v_sim_wire.c): when it is full, the next pass goes on from this WQE.
		 */
		if (!mlx4v_sim_wire_room(sim)) {
			qp->db_pending++;
			return done;
		}
		/*
		 * Read the WQE body only after its ownership was seen: pairs with the producer's
		 * write barrier before its owner_opcode store (prm/mlx4 §4.2, §5.2).
		 */
		rte_rmb();
		/*
		 * The WQE size is fence_size[5:0] in 16-byte units (prm/mlx4 §4.2); bit 6 is the
		 * fence, meaningless without RDMA reads to order against.
		 */
		ds = ctrl.fence_size & 0x3f;
		/* One stride, or as many TXBBs as the WQE covers (DPDK posts multi-TXBB WQEs). */
		nbb = RTE_MAX(1u << (qp->sq_shift - 6),
			      (ds * MLX4V_SIM_DS + MLX4V_SIM_TXBB - 1) / MLX4V_SIM_TXBB);
		slot = qp->pos & (qp->txbb_cnt - 1);
		opcode = rte_be_to_cpu_32(ctrl.owner_opcode) & MLX4V_SIM_OPCODE_MASK;
		len = 0;
		/*
		 * Misuse check sq_wqe_size: a zero DS count or a WQE bigger than the ring
		 * (prm/mlx4 §7, reject a fence_size DS count of 0 or beyond the stride budget).
		 */
		if (ds == 0 || nbb > qp->txbb_cnt) {
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_SQ_WQE_SIZE,
					 "QP 0x%x: WQE at %u has DS count %u", qp->qpn, qp->pos,
					 ds);
			syndrome = MLX4_CQE_SYNDROME_LOCAL_LENGTH_ERR;
			nbb = 1;
		} else if (qp->state == RTE_PMD_MLX4V_QPS_ERR) {
			/*
			 * In ERR every valid WQE completes in error with WR_FLUSH, as on hardware.
			 */
			syndrome = MLX4_CQE_SYNDROME_WR_FLUSH_ERR;
		} else if (bf != NULL) {
			/* The ring blocks the prefetcher may hold are not what the device sends. */
			mlx4v_sim_sq_prefetch_drop(qp, nbb);
			memcpy(wqe, bf, MLX4V_SIM_BF_HALF);
			syndrome = mlx4v_sim_sq_execute(qp, wqe, ds, opcode, &len);
		} else if (mlx4v_sim_sq_dma_read(qp, qp->pos, 0, wqe, ds * MLX4V_SIM_DS) != 0) {
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DMA, "QP 0x%x: SQ unreadable",
					 qp->qpn);
			break;
		} else {
			/* The blocks the prefetcher read ahead are what is sent. */
			mlx4v_sim_sq_prefetch_apply(qp, wqe, ds * MLX4V_SIM_DS, nbb);
			syndrome = mlx4v_sim_sq_execute(qp, wqe, ds, opcode, &len);
		}
		/*
		 * Remember what was executed here, so that mlx4v_sim_sq_check_owner() can tell an
		 * already consumed WQE from a wrongly owned one.
		 */
		qp->last[slot] = ctrl.owner_opcode;
		if (bf != NULL)
			mlx4v_sim_bf_done(qp, index);
		qp->pos += nbb;
		done++;
		if (syndrome) {
			/* Errors always complete, and move the QP to the error state. */
			mlx4v_sim_cqe_error(&cqe, qp->qpn, index, syndrome, 1);
			mlx4v_sim_cq_push(qp->send_cq, &cqe, 1);
			qp->state = RTE_PMD_MLX4V_QPS_ERR;
			continue;
		}
		/* One CQE per WQE that asks for it with CQ_UPDATE (prm/mlx4 §4.7). */
		if ((rte_be_to_cpu_32(ctrl.srcrb_flags) & MLX4_WQE_CTRL_CQ_UPDATE) ==
		    MLX4_WQE_CTRL_CQ_UPDATE) {
			memset(&cqe, 0, sizeof(cqe));
			cqe.vlan_my_qpn = rte_cpu_to_be_32(qp->qpn);
			cqe.byte_cnt = rte_cpu_to_be_32(len);
			cqe.wqe_index = rte_cpu_to_be_16(index);
			cqe.owner_sr_opcode = MLX4_CQE_IS_SEND_MASK | opcode;
			mlx4v_sim_cq_push(qp->send_cq, &cqe, 0);
		}
	}
	if (done == 0)
		mlx4v_sim_sq_check_owner(qp);
	return done;
}
