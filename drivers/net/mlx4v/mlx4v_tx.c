/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Tx burst of the mlx4v PMD, on the mlx4dv views of a raw-packet QP and its CQ only: one
 * SEND WQE per packet built in the ring (control segment with the destination MAC, a data
 * segment per mbuf segment, as many 64-byte basic blocks as it takes), owner bit last, one
 * send doorbell per burst; a completion every few WQEs and on the burst's last, completions
 * reaped to free the mbufs and stamp the freed blocks; after an error CQE the queue drains
 * and the control thread takes the QP through RESET back to RTS
 * (doc/guides/prm/mlx4.rst §4.2, §4.6, §4.7, §5.2).
 */

#include <string.h>

#include <rte_alarm.h>
#include <rte_io.h>
#include <rte_mbuf.h>

#include "mlx4v_ethdev.h"
#include "mlx4v_prm_eth.h"
#include "mlxv_mbuf_put.h"

/* Data segments that fit a WQE: 63 DS less the control segment (prm/mlx4 §4.2, fence_size[5:0]). */
#define TX_MAX_DS 63u
/* Mbufs freed in one rte_pktmbuf_free_bulk() call while reaping. */
#define TX_FREE_BULK 64u
/* A completion asked for every this many WQEs unless the queue's setup says otherwise. */
#define TX_COMP_THRESH 32u
/* 64-byte blocks of the largest WQE: control and MLX4V_ETH_TX_MAX_SEGS data segments. */
#define TX_WQE_MAX_BBS ((uint32_t)((1 + MLX4V_ETH_TX_MAX_SEGS) * 16 + MLX4V_TXBB_SIZE - 1) / \
			MLX4V_TXBB_SIZE)
/* How long the control thread waits before taking a drained queue through RESET (us). */
#define TX_RECOVER_DELAY_US 100u
/* How long before a failed recovery is tried again (us). */
#define TX_RECOVER_RETRY_US 100000u

_Static_assert(MLX4V_ETH_TX_MAX_SEGS <= TX_MAX_DS - 1, "segments of one WQE");

/* The TXBB at running position pos. */
static inline uint8_t *
mlx4v_tx_txbb(const struct mlx4v_txq *txq, uint32_t pos)
{
	return txq->sq_buf + ((size_t)(pos & txq->sq_mask) << MLX4V_TXBB_SHIFT);
}

/* The 32-byte CQE at running index ci (the second half of a 64-byte slot, prm/mlx4 §4.6). */
static inline volatile struct mlx4_cqe *
mlx4v_tx_cqe(const struct mlx4v_txq *txq, uint32_t ci)
{
	return (volatile struct mlx4_cqe *)(txq->cqes +
					    ((size_t)(ci & txq->cq_mask) << txq->cqe_shift));
}

/* Give n mbufs back to their pools: one bulk put per run of one pool, else one by one. */
static inline void
mlx4v_tx_free(struct rte_mbuf **done, uint32_t n)
{
	struct rte_mempool *mp = NULL;
	uint32_t i, run = 0;
	struct rte_mbuf *m;

	for (i = 0; i < n; i++) {
		/* Direct, single-segment, last reference: straight back to its pool. */
		m = done[i];
		if (likely(m->nb_segs == 1 && m->next == NULL && RTE_MBUF_DIRECT(m) &&
			   rte_mbuf_refcnt_read(m) == 1)) {
			if (m->pool != mp) {
				if (run != 0)
					rte_mempool_put_bulk(mp, (void **)&done[i - run], run);
				mp = m->pool;
				run = 0;
			}
			run++;
			continue;
		}
		if (run != 0)
			rte_mempool_put_bulk(mp, (void **)&done[i - run], run);
		run = 0;
		mp = NULL;
		rte_pktmbuf_free(m);
	}
	if (run != 0)
		rte_mempool_put_bulk(mp, (void **)&done[n - run], run);
}

/*
 * Give back the TXBBs from sq_tail up to end: free the packets whose WQE starts there, and
 * stamp the other blocks of their WQEs. failed: they were not sent.
 */
static void
mlx4v_tx_retire(struct mlx4v_txq *txq, uint32_t end, int failed)
{
	struct rte_mbuf *done[TX_FREE_BULK];
	uint32_t pos = txq->sq_tail, slot, stamp, nb = 0;
	struct rte_mbuf *m;

	for (; pos != end; pos++) {
		slot = pos & txq->sq_mask;
		m = txq->elts[slot];
		if (m == NULL) {
			/*
			 * Stamp: the first dword of a block inside a WQE is segment data that
			 * could read as a valid owner on the next pass; 0x7fffffff with the owner
			 * bit of the pass just completed reads as not valid then (prm/mlx4 §4.2,
			 * Stamping). A WQE's first block needs none: its owner word is of the old
			 * pass already.
			 */
			stamp = MLX4V_TXBB_STAMP | ((pos >> txq->sq_log) & 1 ? MLX4V_WQE_OWNER : 0);
			*(volatile uint32_t *)mlx4v_tx_txbb(txq, pos) = rte_cpu_to_be_32(stamp);
			continue;
		}
		txq->elts[slot] = NULL;
		if (unlikely(failed)) {
			txq->packets--;
			txq->bytes -= m->pkt_len;
			txq->errors++;
		}
		done[nb++] = m;
		if (nb == TX_FREE_BULK) {
			mlx4v_tx_free(done, nb);
			nb = 0;
		}
	}
	if (nb != 0)
		mlx4v_tx_free(done, nb);
	txq->sq_tail = end;
}

/*
 * Give back the TXBBs from sq_tail up to end, all of them one-block WQEs of simple mbufs of
 * mp_last (direct, one segment, last reference: mlx4v_tx_burst() saw to it): the slots go
 * to the pool as they are, in at most two bulk puts; no stamps (no block inside a WQE).
 */
static inline void
mlx4v_tx_retire_fast(struct mlx4v_txq *txq, uint32_t end)
{
	uint32_t first = txq->sq_tail & txq->sq_mask, n = end - txq->sq_tail;
	uint32_t n1 = RTE_MIN(n, txq->sq_n - first);
	struct rte_mempool_cache *cache = rte_mempool_default_cache(txq->mp_last, rte_lcore_id());

	mlxv_mbuf_put(txq->mp_last, cache, &txq->elts[first], n1);
	if (n1 < n)
		mlxv_mbuf_put(txq->mp_last, cache, txq->elts, n - n1);
	txq->sq_tail = end;
}

/* The end of the WQE that starts at pos (in [sq_tail, sq_head)): its other blocks are empty. */
static inline uint32_t
mlx4v_tx_wqe_end(const struct mlx4v_txq *txq, uint32_t pos)
{
	for (pos++; pos != txq->sq_head && txq->elts[pos & txq->sq_mask] == NULL; pos++)
		;
	return pos;
}

/* Consume the send CQEs (prm/mlx4 §4.6, §4.7). */
static void
mlx4v_tx_reap(struct mlx4v_txq *txq)
{
	const volatile struct mlx4_cqe *cqe;
	uint32_t ci = txq->cq_ci, pos, out;
	uint8_t op, syndrome;

	for (;;) {
		cqe = mlx4v_tx_cqe(txq, ci);
		/*
		 * Owner-bit check: software's when it equals the pass parity of ci (prm/mlx4 §4.6).
		 */
		if (((cqe->owner_sr_opcode >> 7) ^ (ci >> txq->cq_log)) & 1)
			break;
		/*
		 * The body only after the owner bit, which the device writes last (prm/mlx4 §4.6).
		 */
		rte_rmb();
		ci++;
		/* wqe_index counts strides; every WQE starts at a stride (mlx4v_txq_reset()). */
		pos = (uint32_t)rte_be_to_cpu_16(cqe->wqe_index) << txq->stride_log;
		pos = txq->sq_tail + ((pos - txq->sq_tail) & txq->sq_mask);
		out = txq->sq_head - txq->sq_tail;
		op = cqe->owner_sr_opcode & MLX4_CQE_OPCODE_MASK;
		/* A WQE index outside the outstanding ones is not ours: nothing to retire. */
		if (unlikely(pos - txq->sq_tail >= out))
			continue;
		if (likely(op != MLX4_CQE_OPCODE_ERROR) &&
		    likely((int32_t)(txq->slow_end - txq->sq_tail) <= 0)) {
			/* Only one-block WQEs of simple mbufs out: retire by count. */
			mlx4v_tx_retire_fast(txq, pos + 1);
			continue;
		}
		/* The WQEs before the one the CQE names went out (prm/mlx4 §4.7). */
		mlx4v_tx_retire(txq, pos, 0);
		if (likely(op != MLX4_CQE_OPCODE_ERROR)) {
			mlx4v_tx_retire(txq, mlx4v_tx_wqe_end(txq, pos), 0);
			continue;
		}
		/* This WQE failed, or was flushed after one that did: the QP is in ERR. */
		syndrome = ((const volatile struct mlx4_err_cqe *)cqe)->syndrome;
		if (syndrome != MLX4_CQE_SYNDROME_WR_FLUSH_ERR) {
			txq->err_cqes++;
			MLX4V_ETH_LOG(DEBUG, "port %u Tx queue %u: error CQE, syndrome 0x%x",
				      txq->port_id, txq->idx, syndrome);
		}
		mlx4v_tx_retire(txq, mlx4v_tx_wqe_end(txq, pos), 1);
		if (txq->recover == MLX4V_TX_RUNNING)
			txq->recover = MLX4V_TX_DRAINING;
	}
	if (ci == txq->cq_ci)
		return;
	txq->cq_ci = ci;
	/* The CQEs were read before their slots go back to the device (prm/mlx4 §4.6). */
	rte_io_wmb();
	*txq->cqv.set_ci_db = rte_cpu_to_be_32(ci & 0xffffff);
}

/*
 * EAL alarm (control thread): the queue drained after an error CQE; RESET (the device forgets
 * its SQ position), INIT (ownership initialised again, prm/mlx4 §3), RTR, RTS, then the burst may
 * use the queue again. The burst does not touch the queue meanwhile.
 */
static void
mlx4v_tx_recover_alarm(void *arg)
{
	static const enum rte_pmd_mlx4v_qp_state steps[] = {
		RTE_PMD_MLX4V_QPS_RESET, RTE_PMD_MLX4V_QPS_INIT,
		RTE_PMD_MLX4V_QPS_RTR, RTE_PMD_MLX4V_QPS_RTS,
	};
	struct mlx4v_txq *txq = arg;
	unsigned int i;
	int ret = 0;

	if (__atomic_load_n(&txq->recover, __ATOMIC_ACQUIRE) != MLX4V_TX_RECOVERING)
		return;
	for (i = 0; i < RTE_DIM(steps) && ret == 0; i++)
		ret = rte_pmd_mlx4v_modify_qp(txq->qp, steps[i]);
	if (ret != 0) {
		MLX4V_ETH_LOG(ERR, "port %u Tx queue %u: QP recovery failed: %s; trying again",
			      txq->port_id, txq->idx, strerror(ret));
		rte_eal_alarm_set(TX_RECOVER_RETRY_US, mlx4v_tx_recover_alarm, txq);
		return;
	}
	mlx4v_txq_reset(txq);
	txq->recoveries++;
	MLX4V_ETH_LOG(INFO, "port %u Tx queue %u: QP back to RTS after an error CQE",
		      txq->port_id, txq->idx);
	/* The indexes above before the burst sees the queue running again. */
	__atomic_store_n(&txq->recover, MLX4V_TX_RUNNING, __ATOMIC_RELEASE);
}

/*
 * The queue after an error CQE: reap the flushed WQEs; once none is outstanding, hand the
 * queue to the control thread (the burst makes no verbs call).
 */
static void
mlx4v_tx_drain_error(struct mlx4v_txq *txq)
{
	/* RECOVERING: the control thread owns the queue; do not touch it. */
	if (__atomic_load_n(&txq->recover, __ATOMIC_ACQUIRE) == MLX4V_TX_RECOVERING)
		return;
	mlx4v_tx_reap(txq);
	if (txq->sq_tail != txq->sq_head)
		return;
	/* Verbs are the primary's: a secondary's queue stays drained, sending nothing. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return;
	__atomic_store_n(&txq->recover, MLX4V_TX_RECOVERING, __ATOMIC_RELEASE);
	/* Failing that, tried again from the next burst. */
	if (rte_eal_alarm_set(TX_RECOVER_DELAY_US, mlx4v_tx_recover_alarm, txq) != 0)
		__atomic_store_n(&txq->recover, MLX4V_TX_DRAINING, __ATOMIC_RELEASE);
}

/*
 * The lkey of the memory holding seg's data: the pool's, or with a pool over holes the one of
 * its VA range holding the data. @return 0, or -1 when it has none.
 */
static inline int
mlx4v_tx_lkey(struct mlx4v_txq *txq, struct rte_mbuf *seg, uint32_t *lkey)
{
	struct rte_mempool *mp;

	mp = RTE_MBUF_DIRECT(seg) ? seg->pool : rte_mbuf_from_indirect(seg)->pool;
	if (likely(mp == txq->mp_last && txq->mr_n <= 1)) {
		*lkey = txq->lkey;
		return 0;
	}
	if (mp != txq->mp_last) {
		/* External buffers are in no mempool the device knows. */
		if (unlikely(RTE_MBUF_HAS_EXTBUF(seg)) ||
		    mlx4v_ethdev_mr_lookup(&rte_eth_devices[txq->port_id], mp, &txq->lkey,
					   &txq->mr_ranges,
					   &txq->mr_n) != 0) {
			txq->mp_last = NULL;
			return -1;
		}
		txq->mp_last = mp;
		if (txq->mr_n <= 1) {
			*lkey = txq->lkey;
			return 0;
		}
	}
	return mlx4v_mr_range_lkey(txq->mr_ranges, txq->mr_n, rte_pktmbuf_mtod(seg, uintptr_t),
				   lkey);
}

/*
 * The data segments of multi-segment packet m, in the WQE at head, wrapping at the ring's end
 * like any WQE. Every lkey is found before anything is written, so a refused packet leaves
 * the free blocks (and their stamps) as they were. @return the WQE's DS count (control
 * segment included), or 0 if it cannot be sent.
 */
static uint32_t
mlx4v_tx_build_segs(struct mlx4v_txq *txq, struct rte_mbuf *m, uint32_t head)
{
	struct rte_mbuf *segs[MLX4V_ETH_TX_MAX_SEGS];
	uint32_t lkeys[MLX4V_ETH_TX_MAX_SEGS];
	uint32_t ring = (txq->sq_n << MLX4V_TXBB_SHIFT) - 1;
	struct mlx4_wqe_data_seg *dseg;
	struct rte_mbuf *seg;
	uint32_t n, k, off, ds;

	/*
	 * The segments that carry data (zero-length ones take no DS), with their lkeys; a chain
	 * longer than nb_segs (which the room was counted by) is refused.
	 */
	for (seg = m, n = 0, k = 0; seg != NULL; seg = seg->next, k++) {
		if (k == m->nb_segs)
			return 0;
		if (seg->data_len == 0)
			continue;
		if (mlx4v_tx_lkey(txq, seg, &lkeys[n]) != 0)
			return 0;
		segs[n++] = seg;
	}
	if (n == 0)
		return 0;
	ds = n + 1;
	/*
	 * Last to first, as libmlx4 and the kernel write them: the first dword of a block is what
	 * the device's prefetcher takes for its stamp (prm/mlx4 §4.2, Stamping), and it may read a
	 * block as soon as that dword is no stamp. Backwards, a block's other segments are complete
	 * before the segment that starts it, whose byte_count goes last, after a barrier: no block
	 * whose stamp is gone holds a stale address, lkey or length.
	 */
	while (n-- > 0) {
		off = ((head << MLX4V_TXBB_SHIFT) + (n + 1) * 16) & ring;
		dseg = (struct mlx4_wqe_data_seg *)(txq->sq_buf + off);
		dseg->lkey = rte_cpu_to_be_32(lkeys[n]);
		dseg->addr = rte_cpu_to_be_64(rte_pktmbuf_mtod(segs[n], uintptr_t));
		/* The rest of this block (written before) and this segment before its stamp. */
		if ((off & (MLX4V_TXBB_SIZE - 1)) == 0)
			rte_io_wmb();
		dseg->byte_count = rte_cpu_to_be_32(segs[n]->data_len);
	}
	return ds;
}

/*
 * The control flags of a packet's checksum offloads (prm/mlx4 §4.2: SCTP is not among them): both
 * together whenever one is asked, as libmlx4, DPDK's mlx4 and mlx4_en set them; one alone has
 * never run on silicon.
 */
static inline uint32_t
mlx4v_tx_csum_flags(const struct rte_mbuf *m)
{
	if ((m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM) ||
	    (m->ol_flags & RTE_MBUF_F_TX_L4_MASK) == RTE_MBUF_F_TX_TCP_CKSUM ||
	    (m->ol_flags & RTE_MBUF_F_TX_L4_MASK) == RTE_MBUF_F_TX_UDP_CKSUM)
		return MLX4_WQE_CTRL_IP_HDR_CSUM | MLX4_WQE_CTRL_TCP_UDP_CSUM;
	return 0;
}

/*
 * The control segment's second half (prm/mlx4 §4.2): with mac (VFs only, txq->dmac_in_ctrl) the
 * frame's destination MAC, bytes 0-1 over the upper half of srcrb_flags, 2-5 in imm (the embedded
 * switch loops a frame back by it), else zero (no loopback); the flags in between; one 64-bit
 * store.
 */
static inline void
mlx4v_tx_ctrl_mac_flags(struct mlx4_wqe_ctrl_seg *ctrl, const uint8_t *data, uint32_t flags,
			int mac)
{
	uint16_t d01 = 0;
	uint32_t d25 = 0;

	if (mac) {
		memcpy(&d01, data, 2);
		memcpy(&d25, data + 2, 4);
	}
	*(uint64_t *)((uintptr_t)ctrl + offsetof(struct mlx4_wqe_ctrl_seg, srcrb_flags)) =
		(uint64_t)d01 |
		(uint64_t)rte_cpu_to_be_16((uint16_t)flags) << 16 | (uint64_t)d25 << 32;
}

/*
 * The control segment's first half, last: owner bit (valid for the device when it equals the
 * pass parity of the WQE's first block), opcode and DS count in one 64-bit store, after a
 * barrier: the device may run the WQE as soon as it sees the owner, so the whole WQE must be
 * visible first (prm/mlx4 §4.2).
 */
static inline void
mlx4v_tx_ctrl_owner(uint32_t sq_n, struct mlx4_wqe_ctrl_seg *ctrl, uint32_t head, uint32_t ds)
{
	uint64_t w = (uint64_t)ds << 56 | rte_cpu_to_be_32(MLX4_OPCODE_SEND);

	if (head & sq_n)
		w |= rte_cpu_to_be_32(MLX4V_WQE_OWNER);
	rte_io_wmb();
	*(volatile uint64_t *)ctrl = w;
}

/*
 * Post any packet at head (several segments, a pool other than the last one, strides of
 * several blocks): @return the blocks it took, 0 if refused (counted, freed), UINT32_MAX if
 * the ring has no room.
 */
static __rte_noinline uint32_t
mlx4v_tx_post_slow(struct mlx4v_txq *txq, struct rte_mbuf *m, uint32_t head, uint32_t room,
		   uint32_t flags)
{
	struct mlx4_wqe_ctrl_seg *ctrl = (struct mlx4_wqe_ctrl_seg *)mlx4v_tx_txbb(txq, head);
	struct mlx4_wqe_data_seg *dseg;
	uint32_t nbb, ds, lkey, k;

	if (likely(m->nb_segs == 1)) {
		/* Control and one data segment: 32 bytes, within the first block. */
		nbb = txq->stride_bbs;
		if (unlikely(nbb > room))
			return UINT32_MAX;
		if (unlikely(mlx4v_tx_lkey(txq, m, &lkey) != 0))
			goto refuse;
		dseg = (struct mlx4_wqe_data_seg *)(ctrl + 1);
		dseg->byte_count = rte_cpu_to_be_32(m->data_len);
		dseg->lkey = rte_cpu_to_be_32(lkey);
		dseg->addr = rte_cpu_to_be_64(rte_pktmbuf_mtod(m, uintptr_t));
		ds = 2;
	} else {
		if (unlikely(m->nb_segs > txq->max_segs))
			goto refuse;
		/* As many blocks as the DS take, at least a stride (prm/mlx4 §4.2). */
		nbb = RTE_MAX(txq->stride_bbs, ((1u + m->nb_segs) * 16 + MLX4V_TXBB_SIZE - 1) >>
					       MLX4V_TXBB_SHIFT);
		if (unlikely(nbb > room))
			return UINT32_MAX;
		ds = mlx4v_tx_build_segs(txq, m, head);
		if (unlikely(ds == 0))
			goto refuse;
		nbb = RTE_MAX(txq->stride_bbs, (ds * 16 + MLX4V_TXBB_SIZE - 1) >> MLX4V_TXBB_SHIFT);
	}
	mlx4v_tx_ctrl_mac_flags(ctrl, rte_pktmbuf_mtod(m, const uint8_t *), flags,
				txq->dmac_in_ctrl);
	txq->elts[head & txq->sq_mask] = m;
	/* The other blocks of the WQE: none starts a packet (mlx4v_tx_retire() stamps them). */
	for (k = 1; k < nbb; k++)
		txq->elts[(head + k) & txq->sq_mask] = NULL;
	mlx4v_tx_ctrl_owner(txq->sq_n, ctrl, head, ds);
	return nbb;
refuse:
	/* Unsendable (too many segments, memory the device cannot reach): dropped. */
	txq->errors++;
	rte_pktmbuf_free(m);
	return 0;
}

/*
 * A run of one-block WQEs of one-segment mbufs of mp (the pool of lkey_be), of up to n packets
 * (at most to the ring's end: the owner word is the same for the whole run, the slots a step;
 * before the completion request, which the caller posts), stopping before any packet that
 * needs more (another pool, several segments, a checksum flag, or without fast_free a packet
 * that may not go back to its pool as it is). The byte swaps are the compiler's, which knows
 * their results. @return the packets posted, from head on.
 */
static __rte_always_inline uint32_t
mlx4v_tx_run(struct mlx4v_txq *txq, struct rte_mbuf **pkts, uint32_t n, uint32_t head,
	     const struct rte_mempool *mp, uint32_t lkey_be, uint64_t *bytes, const int fast_free)
{
	uint8_t *wqe = txq->sq_buf + ((size_t)(head & txq->sq_mask) << MLX4V_TXBB_SHIFT);
	struct rte_mbuf **slot = &txq->elts[head & txq->sq_mask];
	/*
	 * The control segment's first half, as mlx4v_tx_ctrl_owner() makes it: SEND, two DS
	 * (control and data), the owner bit of the pass the run's blocks are in (prm/mlx4 §4.2).
	 */
	uint64_t own = (uint64_t)2 << 56 | rte_cpu_to_be_32(MLX4_OPCODE_SEND) |
		       ((head & txq->sq_n) ? rte_cpu_to_be_32(MLX4V_WQE_OWNER) : 0);
	uint64_t lkey = (uint64_t)lkey_be << 32, sum = 0;
	struct rte_mbuf **p = pkts, **end = pkts + n;
	struct mlx4_wqe_ctrl_seg *ctrl;
	struct mlx4_wqe_data_seg *dseg;
	struct rte_mbuf *m;
	int mac = txq->dmac_in_ctrl;

	for (; p != end; p++, wqe += MLX4V_TXBB_SIZE, slot++) {
		m = *p;
		if (unlikely(m->nb_segs != 1 || m->pool != mp ||
			     (m->ol_flags & (RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK))))
			break;
		if (!fast_free && unlikely(rte_mbuf_refcnt_read(m) != 1 || !RTE_MBUF_DIRECT(m) ||
					   m->next != NULL))
			break;
		ctrl = (struct mlx4_wqe_ctrl_seg *)wqe;
		dseg = (struct mlx4_wqe_data_seg *)(ctrl + 1);
		/* byte_count and lkey in one store, then the address (prm/mlx4 §4.2). */
		*(uint64_t *)(uintptr_t)dseg = __builtin_bswap32(m->data_len) | lkey;
		dseg->addr = __builtin_bswap64(rte_pktmbuf_mtod(m, uintptr_t));
		mlx4v_tx_ctrl_mac_flags(ctrl, rte_pktmbuf_mtod(m, const uint8_t *),
					MLX4_WQE_CTRL_SOLICIT, mac);
		*slot = m;
		sum += m->data_len;
		/* The owner word last, after the rest of the WQE (prm/mlx4 §4.2). */
		rte_io_wmb();
		*(volatile uint64_t *)ctrl = own;
	}
	*bytes += sum;
	return (uint32_t)(p - pkts);
}

/*
 * mlx4v_tx_run() under MBUF_FAST_FREE, in a function of its own: its loop keeps all in registers.
 */
static __rte_noinline uint32_t
mlx4v_tx_run_fast_free(struct mlx4v_txq *txq, struct rte_mbuf **pkts, uint32_t n, uint32_t head,
		       const struct rte_mempool *mp, uint32_t lkey_be, uint64_t *bytes)
{
	return mlx4v_tx_run(txq, pkts, n, head, mp, lkey_be, bytes, 1);
}

/* mlx4v_tx_run() without MBUF_FAST_FREE. */
static __rte_noinline uint32_t
mlx4v_tx_run_checked(struct mlx4v_txq *txq, struct rte_mbuf **pkts, uint32_t n, uint32_t head,
		     const struct rte_mempool *mp, uint32_t lkey_be, uint64_t *bytes)
{
	return mlx4v_tx_run(txq, pkts, n, head, mp, lkey_be, bytes, 0);
}

uint16_t
mlx4v_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx4v_txq *txq = q;
	uint32_t head, room, nbb, flags, comp_at, comp_last = UINT32_MAX, sent = 0;
	uint32_t mask, lkey_be, slow_end, k, sq_n = txq->sq_n, thresh = txq->comp_thresh;
	struct mlx4_wqe_data_seg *dseg;
	struct mlx4_wqe_ctrl_seg *ctrl;
	struct rte_mempool *mp;
	struct rte_mbuf **elts;
	uint64_t bytes = 0;
	struct rte_mbuf *m;
	uint8_t *sq_buf;
	int fast_free, mac = txq->dmac_in_ctrl;
	uint16_t i;

	if (unlikely(txq->recover != MLX4V_TX_RUNNING)) {
		mlx4v_tx_drain_error(txq);
		return 0;
	}
	mlx4v_tx_reap(txq);
	if (unlikely(txq->recover != MLX4V_TX_RUNNING) || unlikely(n == 0))
		return 0;
	head = txq->sq_head;
	room = txq->max_post - (head - txq->sq_tail);
	/*
	 * prm/mlx4 §4.7: a CQE every comp_thresh WQEs keeps the ring from filling up unseen, and
	 * one on the burst's last WQE brings its mbufs back without more traffic.
	 */
	comp_at = RTE_MIN((uint32_t)n - 1, txq->comp_thresh - txq->comp_pending - 1);
	/* The fast path: one-block WQEs of one-segment mbufs of the pool of one lkey. */
	mp = txq->stride_log == 0 && txq->mr_n <= 1 ? txq->mp_last : NULL;
	lkey_be = rte_cpu_to_be_32(txq->lkey);
	fast_free = txq->fast_free;
	slow_end = txq->slow_end;
	elts = txq->elts;
	sq_buf = txq->sq_buf;
	mask = txq->sq_mask;
	for (i = 0; i < n; i++) {
		/* Simple packets in runs that end at the ring's end, the others one by one. */
		if (mp != NULL && i != comp_at && room != 0) {
			/* Up to the completion request (comp_at < n), the room, the ring's end. */
			k = RTE_MIN(RTE_MIN(comp_at - i, room), sq_n - (head & mask));
			k = fast_free ?
			    mlx4v_tx_run_fast_free(txq, pkts + i, k, head, mp, lkey_be, &bytes) :
			    mlx4v_tx_run_checked(txq, pkts + i, k, head, mp, lkey_be, &bytes);
			i += k;
			head += k;
			room -= k;
			sent += k;
		}
		m = pkts[i];
		flags = MLX4_WQE_CTRL_SOLICIT;
		if (unlikely(m->ol_flags & (RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK)))
			flags |= mlx4v_tx_csum_flags(m);
		if (i == comp_at) {
			flags |= MLX4_WQE_CTRL_CQ_UPDATE;
			comp_last = i;
			comp_at = RTE_MIN((uint32_t)n - 1, i + thresh);
		}
		/* mp NULL: no mbuf's pool is (the slow path for all). */
		if (unlikely(m->nb_segs != 1 || m->pool != mp)) {
			nbb = mlx4v_tx_post_slow(txq, m, head, room, flags);
			/*
			 * It may have looked another pool up (mp_last), even for a packet it
			 * refused: this WQE and every one out before it go by the slot walk
			 * (mlx4v_tx_retire()), and the fast path takes the new pool.
			 */
			slow_end = head + (nbb == UINT32_MAX ? 0 : nbb);
			mp = txq->stride_log == 0 && txq->mr_n <= 1 ? txq->mp_last : NULL;
			lkey_be = rte_cpu_to_be_32(txq->lkey);
			if (unlikely(nbb == UINT32_MAX))
				break;
			if (unlikely(nbb == 0))
				continue;
			goto posted;
		}
		if (unlikely(room == 0))
			break;
		/*
		 * Given back as they are by mlx4v_tx_retire_fast() only if the pool may take them.
		 */
		if (!fast_free && unlikely(rte_mbuf_refcnt_read(m) != 1 || !RTE_MBUF_DIRECT(m) ||
					   m->next != NULL))
			slow_end = head + 1;
		/* Control and one data segment: 32 bytes, within the first block. */
		ctrl = (struct mlx4_wqe_ctrl_seg *)(sq_buf + ((size_t)(head & mask) <<
							      MLX4V_TXBB_SHIFT));
		dseg = (struct mlx4_wqe_data_seg *)(ctrl + 1);
		/* byte_count and lkey in one store, then the address (prm/mlx4 §4.2). */
		*(uint64_t *)(uintptr_t)dseg = rte_cpu_to_be_32(m->data_len) |
					       (uint64_t)lkey_be << 32;
		dseg->addr = rte_cpu_to_be_64(rte_pktmbuf_mtod(m, uintptr_t));
		mlx4v_tx_ctrl_mac_flags(ctrl, rte_pktmbuf_mtod(m, const uint8_t *), flags, mac);
		elts[head & mask] = m;
		mlx4v_tx_ctrl_owner(sq_n, ctrl, head, 2);
		nbb = 1;
posted:
		head += nbb;
		room -= nbb;
		bytes += m->pkt_len;
		sent++;
	}
	txq->slow_end = slow_end;
	if (sent == 0)
		return i;
	/* WQEs since the last completion asked for (refused packets included: no matter). */
	txq->comp_pending = comp_last == UINT32_MAX ? txq->comp_pending + i : i - 1 - comp_last;
	txq->packets += sent;
	txq->bytes += bytes;
	txq->sq_head = head;
	/*
	 * Send doorbell: every owner word must be visible before it; it carries no index, only
	 * the QP's doorbell_qpn, already big-endian (prm/mlx4 §4.2).
	 */
	rte_wmb();
	/* This process's mapping of the doorbell (the rings alone are shared memory). */
	rte_write32_relaxed(txq->doorbell_qpn, mlx4v_ethdev_proc(txq->port_id)->sdb[txq->idx]);
	return i;
}

int
mlx4v_tx_done_cleanup(void *q, uint32_t free_cnt)
{
	struct mlx4v_txq *txq = q;
	uint32_t tail;

	RTE_SET_USED(free_cnt);
	/* ethdev 22.11 hands over a queue id that was configured but never set up as NULL. */
	if (txq == NULL)
		return -EINVAL;
	/* Set up but not started (no QP, no ring yet), or under recovery: nothing to reap. */
	if (!txq->ready || txq->recover != MLX4V_TX_RUNNING)
		return 0;
	tail = txq->sq_tail;
	mlx4v_tx_reap(txq);
	return (int)(txq->sq_tail - tail);
}

void
mlx4v_txq_reset(struct mlx4v_txq *txq)
{
	uint32_t cqe_64 = (txq->cqv.cqe_size & 64) ? 1 : 0;

	txq->stride_log = (uint8_t)(txq->qpv.sq.wqe_shift - MLX4V_TXBB_SHIFT);
	txq->stride_bbs = 1u << txq->stride_log;
	txq->sq_buf = (uint8_t *)txq->qpv.buf.buf + txq->qpv.sq.offset;
	txq->sq_n = txq->qpv.sq.wqe_cnt << txq->stride_log;
	txq->sq_mask = txq->sq_n - 1;
	txq->sq_log = (uint8_t)rte_log2_u32(txq->sq_n);
	/*
	 * With a one-block stride a WQE takes as many blocks as it needs (prm/mlx4 §4.2); with a
	 * larger one every WQE is one stride, so that CQEs name it (wqe_index counts strides).
	 */
	txq->max_segs = txq->stride_log == 0 ? MLX4V_ETH_TX_MAX_SEGS :
		RTE_MIN((uint32_t)MLX4V_ETH_TX_MAX_SEGS,
			(txq->stride_bbs << MLX4V_TXBB_SHIFT) / 16 - 1);
	txq->cqes = (uint8_t *)txq->cqv.buf.buf + (cqe_64 << 5);
	txq->cqe_shift = (uint8_t)(5 + cqe_64);
	txq->cq_mask = txq->cqv.cqe_cnt - 1;
	txq->cq_log = (uint8_t)rte_log2_u32(txq->cqv.cqe_cnt);
	txq->doorbell_qpn = txq->qpv.doorbell_qpn;
	/*
	 * The device prefetches: 2 KiB and one WQE stay free ahead of the producer (prm/mlx4 §4.2).
	 */
	txq->max_post = txq->sq_n - (MLX4V_TX_HEADROOM >> MLX4V_TXBB_SHIFT) -
			RTE_MAX(txq->stride_bbs, TX_WQE_MAX_BBS);
	/*
	 * A ring full of WQEs none of which asks for a CQE would never free up: at most half the
	 * ring's worth of the largest WQEs between two requests (prm/mlx4 §4.7).
	 */
	txq->comp_thresh = RTE_MAX(1u, RTE_MIN(txq->comp_thresh ? txq->comp_thresh : TX_COMP_THRESH,
					       txq->max_post / (2 * TX_WQE_MAX_BBS)));
	txq->sq_head = 0;
	txq->sq_tail = 0;
	txq->slow_end = 0;
	txq->comp_pending = 0;
	txq->fast_free = (txq->offloads & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE) != 0;
	/* The lkey cache stays: the port's memory regions outlive its QPs. */
}

int
mlx4v_txq_check(const struct mlx4v_txq *txq)
{
	uint32_t bbs = txq->qpv.sq.wqe_cnt << (txq->qpv.sq.wqe_shift - MLX4V_TXBB_SHIFT);

	/*
	 * The ring must hold the prefetch headroom, the largest WQE and some WQEs more
	 * (prm/mlx4 §4.2); the CQ one CQE per WQE, which a flush after an error gives
	 * (prm/mlx4 §4.6).
	 */
	if (txq->qpv.sq.wqe_shift < MLX4V_TXBB_SHIFT || !rte_is_power_of_2(txq->qpv.sq.wqe_cnt) ||
	    bbs < 2 * (MLX4V_TX_HEADROOM >> MLX4V_TXBB_SHIFT) + 16 ||
	    !rte_is_power_of_2(txq->cqv.cqe_cnt) || txq->cqv.cqe_cnt < txq->qpv.sq.wqe_cnt) {
		MLX4V_ETH_LOG(ERR, "port %u Tx queue %u: SQ of %u strides of 2^%d bytes, CQ of %u "
			      "entries: not usable", txq->port_id, txq->idx, txq->qpv.sq.wqe_cnt,
			      txq->qpv.sq.wqe_shift, txq->cqv.cqe_cnt);
		return -EINVAL;
	}
	return 0;
}

void
mlx4v_txq_drain(struct mlx4v_txq *txq)
{
	uint32_t i;

	/* Waits for a running recovery; none starts after this (the queue is stopping). */
	rte_eal_alarm_cancel(mlx4v_tx_recover_alarm, txq);
	txq->recover = MLX4V_TX_RUNNING;
	if (txq->elts == NULL)
		return;
	/* Only the outstanding blocks hold packets (retired slots keep stale pointers). */
	for (i = txq->sq_tail; i != txq->sq_head; i++) {
		if (txq->elts[i & txq->sq_mask] != NULL)
			rte_pktmbuf_free(txq->elts[i & txq->sq_mask]);
		txq->elts[i & txq->sq_mask] = NULL;
	}
	txq->sq_tail = txq->sq_head;
}

uint64_t
mlx4v_tx_offload_capa(void)
{
	return RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
	       RTE_ETH_TX_OFFLOAD_TCP_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
	       RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
}
