/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Tx burst of the mlx5v PMD: one SEND WQE per packet (control, Ethernet segment with
 * the device's minimum inline header, a data segment per mbuf segment), a completion every
 * few WQEs and on the last of each burst, completions reaped to free the mbufs, and an SQ
 * that an error CQE moved to ERR brought back to RDY (doc/guides/prm/mlx5_eth.rst §5, §6,
 * §8.4).
 */

#include <string.h>

#include <rte_mbuf.h>

#include "mlx5v_ethdev.h"
#include "mlx5v_hw.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "rte_pmd_mlx5v.h"

#define GET(t, p, f) MLX5V_IFC_GET(t, p, f)
#define SET(t, p, f, v) MLX5V_IFC_SET(t, p, f, v)

/* The largest inline header takes 5 DS beyond the Ethernet segment (78 bytes, §6.4). */
#define TX_INLINE_MAX_DS 5
/* Mbuf segments of one packet: the DS left after control, Ethernet and inline (§6.1). */
#define TX_MAX_SEGS (MLX5V_WQE_MAX_DS - 2 - TX_INLINE_MAX_DS)
_Static_assert(TX_MAX_SEGS == MLX5V_ETH_TX_MAX_SEGS, "the limit infos_get reports");

static inline uint8_t *
tx_wqebb(const struct mlx5v_txq *txq, uint16_t idx)
{
	return txq->wqes + (size_t)(idx & txq->wqe_mask) * MLX5V_WQE_BB;
}

/* WQEBBs of the WQE that starts at index idx, from its own control segment. */
static inline uint16_t
tx_wqe_bbs(const struct mlx5v_txq *txq, uint16_t idx)
{
	uint32_t ds = GET(wqe_ctrl_seg, tx_wqebb(txq, idx), ds);

	return (uint16_t)RTE_MAX(1u, (ds + 3) / 4);
}

/*
 * Retire the WQEs from wqe_ci up to (not including) end: free their packets; failed ones
 * are taken back out of the sent counters and counted as errors. @return packets freed.
 */
static unsigned int
tx_retire(struct mlx5v_txq *txq, uint16_t end, int failed)
{
	unsigned int n = 0;
	struct rte_mbuf *m;
	uint16_t slot;

	while ((int16_t)(end - txq->wqe_ci) > 0) {
		slot = txq->wqe_ci & txq->wqe_mask;
		m = txq->elts[slot];
		txq->wqe_ci += tx_wqe_bbs(txq, txq->wqe_ci);
		if (m == NULL)
			continue;
		if (failed) {
			txq->packets--;
			txq->bytes -= m->pkt_len;
			txq->errors++;
		}
		txq->elts[slot] = NULL;
		rte_pktmbuf_free(m);
		n++;
	}
	return n;
}

/*
 * ERR -> RST -> RDY once every WQE has completed (§5.2, §6.7: with flush_in_error_en the
 * device completes each one, so nothing is lost track of); the counters restart at 0.
 */
static void
tx_recover(struct mlx5v_txq *txq)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(txq->eth_dev);
	int ret;

	if (dev == NULL)
		return;
	ret = mlx5v_ethdev_cmd_q_recover(dev, 1, txq->sqn);
	if (ret != 0) {
		/* Tried again on the next burst; the queue sends nothing meanwhile. */
		MLX5V_ETH_LOG(ERR, "port %u Tx queue %u: SQ recovery failed: %s",
			      txq->eth_dev->data->port_id, txq->idx, strerror(-ret));
		return;
	}
	txq->wqe_pi = 0;
	txq->wqe_ci = 0;
	txq->wqe_comp = 0;
	/* RST zeroed the device's counter: the record restarts with it. */
	*txq->dbrec = 0;
	txq->recover = 0;
	MLX5V_ETH_LOG(INFO, "port %u Tx queue %u: SQ back to ready after an error CQE",
		      txq->eth_dev->data->port_id, txq->idx);
}

/* Consume the send CQEs (§6.7, §8.4). @return packets freed. */
static unsigned int
tx_reap(struct mlx5v_txq *txq)
{
	unsigned int freed = 0;
	unsigned int n = 0;
	uint16_t idx, out;
	uint8_t *cqe;

	/*
	 * The owner bit of a CQE flips on each lap of the ring: one whose bit differs from the
	 * lap parity of cq_ci is not written yet (prm/mlx5_eth §8.1); the helper then orders
	 * the reads of the body after that check.
	 */
	while ((cqe = rte_pmd_mlx5v_cq_next_cqe(txq->cqes, txq->cq_nent, txq->cq_ci)) != NULL) {
		idx = GET(cqe_eth, cqe, wqe_counter);
		out = txq->wqe_pi - txq->wqe_ci;
		txq->cq_ci++;
		n++;
		/* A WQE index outside the outstanding ones is not ours: nothing to retire. */
		if ((uint16_t)(idx - txq->wqe_ci) >= out)
			continue;
		/* Everything before the WQE the CQE names has been sent (§6.7). */
		freed += tx_retire(txq, idx, 0);
		if (GET(cqe_eth, cqe, opcode) == MLX5V_CQE_OPCODE_REQ) {
			freed += tx_retire(txq, idx + tx_wqe_bbs(txq, idx), 0);
			continue;
		}
		/* REQ_ERR: this WQE failed or was flushed; the SQ is in ERR (§8.4). */
		if (GET(cqe_err, cqe, syndrome) != MLX5V_CQE_SYND_WR_FLUSH) {
			txq->err_cqes++;
			MLX5V_ETH_LOG(DEBUG, "port %u Tx queue %u: error CQE 0x%x/0x%x on WQE %u",
				      txq->eth_dev->data->port_id, txq->idx,
				      GET(cqe_err, cqe, syndrome),
				      GET(cqe_err, cqe, vendor_err_synd), idx);
		}
		freed += tx_retire(txq, idx + tx_wqe_bbs(txq, idx), 1);
		txq->recover = 1;
	}
	/* The device may reuse the CQEs once the record says so (the helper's barrier). */
	if (n != 0)
		rte_pmd_mlx5v_cq_update_ci(txq->cq_dbrec, txq->cq_ci);
	if (unlikely(txq->recover) && txq->wqe_ci == txq->wqe_pi)
		tx_recover(txq);
	return freed;
}

/* The mempool whose memory holds the data of seg. */
static inline struct rte_mempool *
tx_data_pool(struct rte_mbuf *seg)
{
	return RTE_MBUF_DIRECT(seg) ? seg->pool : rte_mbuf_from_indirect(seg)->pool;
}

/*
 * Build the WQE of m in wqe (control, Ethernet segment and inline header, data segments).
 * @return its DS count, or 0 if the packet cannot be sent (too many segments, external
 * buffer, memory the device cannot reach).
 */
static uint32_t
tx_build(struct mlx5v_txq *txq, struct rte_mbuf *m, uint8_t *wqe)
{
	uint8_t *eseg = wqe + MLX5V_IFC_BYTES(wqe_ctrl_seg);
	uint8_t hdr[MLX5V_WQE_DS * (TX_INLINE_MAX_DS + 1)];
	struct rte_mempool *mp;
	struct rte_mbuf *seg;
	const void *src;
	uint32_t inl = 0;
	uint32_t off, d;
	uint8_t *dseg;

	if (unlikely(m->nb_segs > TX_MAX_SEGS))
		return 0;
	memset(wqe, 0, 2 * MLX5V_WQE_DS);
	/* §6.3: the checksums the device computes. */
	if (m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM)
		SET(wqe_eth_seg, eseg, l3_csum, 1);
	if (m->ol_flags & RTE_MBUF_F_TX_L4_MASK)
		SET(wqe_eth_seg, eseg, l4_csum, 1);
	d = 2;
	if ((m->ol_flags & RTE_MBUF_F_TX_VLAN) && txq->vlan_insert) {
		/* §6.3: the tag request takes the place of the inline header. */
		SET(wqe_eth_seg_vlan, eseg, insert_vlan, 1);
		SET(wqe_eth_seg_vlan, eseg, vlan_tci, m->vlan_tci);
	} else if (txq->min_inline != 0) {
		/* §6.4: the minimum header, or the whole frame when it is shorter. */
		inl = RTE_MIN((uint32_t)txq->min_inline, m->pkt_len);
		src = rte_pktmbuf_read(m, 0, inl, hdr);
		if (unlikely(src == NULL))
			return 0;
		SET(wqe_eth_seg, eseg, inline_hdr_sz, inl);
		memcpy(MLX5V_IFC_ADDR_OF(wqe_eth_seg, eseg, inline_hdr_start), src, inl);
		d += inl > 2 ? (inl - 2 + MLX5V_WQE_DS - 1) / MLX5V_WQE_DS : 0;
	}
	/* §6.5: the bytes past the inline header, one data segment per mbuf segment. */
	off = inl;
	for (seg = m; seg != NULL; seg = seg->next) {
		if (off >= seg->data_len) {
			off -= seg->data_len;
			continue;
		}
		if (unlikely(RTE_MBUF_HAS_EXTBUF(seg)))
			return 0;
		mp = tx_data_pool(seg);
		if (unlikely(mp != txq->mp_last)) {
			if (mlx5v_mem_pool_map(txq->eth_dev, mp) != 0)
				return 0;
			txq->mp_last = mp;
		}
		dseg = wqe + d * MLX5V_WQE_DS;
		SET(wqe_data_seg, dseg, byte_count, seg->data_len - off);
		SET(wqe_data_seg, dseg, lkey, txq->lkey);
		MLX5V_IFC_SET64(wqe_data_seg, dseg, addr, rte_pktmbuf_iova_offset(seg, off));
		off = 0;
		d++;
	}
	return d;
}

/* Copy a WQE of ds DS to WQEBB index wqe_pi, continuing at slot 0 past the end (§6.1). */
static inline uint8_t *
tx_copy(struct mlx5v_txq *txq, const uint8_t *wqe, uint32_t ds)
{
	uint8_t *dst = tx_wqebb(txq, txq->wqe_pi);
	size_t room = (size_t)txq->nb_desc * MLX5V_WQE_BB - (size_t)(dst - txq->wqes);
	size_t len = (size_t)ds * MLX5V_WQE_DS;

	if (likely(len <= room)) {
		memcpy(dst, wqe, len);
	} else {
		memcpy(dst, wqe, room);
		memcpy(txq->wqes, wqe + room, len - room);
	}
	return dst;
}

/*
 * Tell the device about the WQEs up to wqe_pi: record, then the UAR doorbell with the first
 * 8 bytes of the last WQE's control segment (§6.6).
 */
static inline void
tx_ring(struct mlx5v_txq *txq, const uint8_t *ctrl)
{
	uint64_t db;

	/* The WQEs must be in memory before the record says they are there (§6.6 step 2). */
	rte_io_wmb();
	*txq->dbrec = rte_cpu_to_be_32(txq->wqe_pi);
	memcpy(&db, ctrl, sizeof(db));
	/* The seam's doorbell orders the record before the MMIO (§6.6 step 4). */
	mlx5v_hw_db_wr64(txq->hw, txq->db, rte_be_to_cpu_64(db));
}

uint16_t
mlx5v_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	uint8_t wqe[MLX5V_WQE_MAX_DS * MLX5V_WQE_DS];
	struct mlx5v_txq *txq = q;
	uint8_t *ctrl = NULL;
	struct rte_mbuf *m;
	uint16_t i, bbs;
	uint32_t ds;

	if (unlikely(!txq->ready))
		return 0;
	tx_reap(txq);
	/* An SQ in ERR sends nothing until it is back to RDY. */
	if (unlikely(txq->recover))
		return 0;
	for (i = 0; i < n; i++) {
		m = pkts[i];
		ds = tx_build(txq, m, wqe);
		if (unlikely(ds == 0)) {
			/* Unsendable: dropped and counted, as a device error would be. */
			txq->errors++;
			rte_pktmbuf_free(m);
			continue;
		}
		bbs = (uint16_t)((ds + 3) / 4);
		if ((uint16_t)(txq->nb_desc - (uint16_t)(txq->wqe_pi - txq->wqe_ci)) < bbs)
			break;
		SET(wqe_ctrl_seg, wqe, wqe_index, txq->wqe_pi);
		SET(wqe_ctrl_seg, wqe, opcode, MLX5V_WQE_OPC_SEND);
		SET(wqe_ctrl_seg, wqe, sqn, txq->sqn);
		SET(wqe_ctrl_seg, wqe, ds, ds);
		/* §6.2: a CQE every comp_thresh WQEBBs keeps the ring from filling up unseen. */
		if ((uint16_t)(txq->wqe_pi + bbs - txq->wqe_comp) >= txq->comp_thresh) {
			SET(wqe_ctrl_seg, wqe, ce, MLX5V_WQE_CE_ALWAYS);
			txq->wqe_comp = txq->wqe_pi + bbs;
		}
		txq->elts[txq->wqe_pi & txq->wqe_mask] = m;
		ctrl = tx_copy(txq, wqe, ds);
		txq->wqe_pi += bbs;
		txq->packets++;
		txq->bytes += m->pkt_len;
	}
	if (ctrl == NULL)
		return i;
	/* And one on the burst's last WQE, so its mbufs come back without more traffic. */
	if (txq->wqe_comp != txq->wqe_pi) {
		SET(wqe_ctrl_seg, ctrl, ce, MLX5V_WQE_CE_ALWAYS);
		txq->wqe_comp = txq->wqe_pi;
	}
	tx_ring(txq, ctrl);
	return i;
}

int
mlx5v_tx_done_cleanup(void *q, uint32_t free_cnt)
{
	struct mlx5v_txq *txq = q;

	RTE_SET_USED(free_cnt);
	if (!txq->ready)
		return 0;
	return (int)tx_reap(txq);
}

void
mlx5v_txq_reset(struct mlx5v_txq *txq)
{
	txq->wqe_pi = 0;
	txq->wqe_ci = 0;
	txq->wqe_comp = 0;
	txq->cq_ci = 0;
	txq->recover = 0;
	txq->mp_last = NULL;
	*txq->dbrec = 0;
}

void
mlx5v_txq_drain(struct mlx5v_txq *txq)
{
	unsigned int i;

	if (txq->elts == NULL)
		return;
	for (i = 0; i < txq->nb_desc; i++) {
		if (txq->elts[i] != NULL)
			rte_pktmbuf_free(txq->elts[i]);
		txq->elts[i] = NULL;
	}
}

uint64_t
mlx5v_tx_offload_capa(const struct mlx5v_ethdev_caps *caps)
{
	uint64_t capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;

	if (caps->csum_cap)
		capa |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
			RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	if (caps->wqe_vlan_insert)
		capa |= RTE_ETH_TX_OFFLOAD_VLAN_INSERT;
	return capa;
}

int
mlx5v_tx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_burst_mode *mode)
{
	const struct mlx5v_txq *txq = eth_dev->data->tx_queues[idx];

	if (txq == NULL)
		return -EINVAL;
	mode->flags = 0;
	snprintf(mode->info, sizeof(mode->info),
		 "Scalar SEND, %u B inline header, CQE every %u WQEBBs and per burst",
		 txq->min_inline, txq->comp_thresh);
	return 0;
}
