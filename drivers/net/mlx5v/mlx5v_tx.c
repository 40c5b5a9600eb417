/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Tx burst of the mlx5v PMD. A one-segment packet without offloads goes, when the
 * device takes them and needs no inline header, into an enhanced multi-packet WQE (one
 * data segment per packet, doc/guides/prm/mlx5_empw.rst); otherwise it is one SEND WQE
 * written straight into the ring as whole words of a template made at start (control,
 * Ethernet segment with the device's minimum inline header, data segment). The others are
 * built field by field (multi-segment, checksums, VLAN, TSO). A completion every few packets
 * and on the last of each burst; completions reaped to free the mbufs in bulk (by index
 * alone with MBUF_FAST_FREE); an SQ that an error CQE moved to ERR brought back to RDY
 * (doc/guides/prm/mlx5_eth.rst §5, §6, §8.4; doc/guides/nics/mlx5v.rst "Data path").
 */

#include <string.h>

#include <rte_mbuf.h>

#include "mlx5v_ethdev.h"
#include "mlx5v_hw.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlxv_mbuf_put.h"
#include "rte_pmd_mlx5v.h"


/*
 * The AVX2 loops of the lean burst (txq->avx2, mlx5v_avx2_ok()), where the mbuf has buf_iova.
 * They call nothing, so they are also tuned for a CPU that keeps 32-byte accesses whole (a
 * function tuned apart from the build would not get the build's inline functions inlined).
 */
#if MLX5V_AVX2 && RTE_IOVA_AS_PA
#define TX_AVX2 1
#define TX_AVX2_FN __attribute__((target("avx2,tune=haswell")))
#else
#define TX_AVX2 0
#endif

/* DS that an inline header of n bytes takes beyond the Ethernet segment (prm/mlx5_eth §6.3). */
#define TX_INL_DS(n) ((n) > 2 ? ((n) - 2 + MLX5V_WQE_DS - 1) / MLX5V_WQE_DS : 0)
/* TSO: the L2-L4 headers are inlined (prm/mlx5_eth §6.5), with a VLAN tag put in by software. */
#define TX_TSO_HDR_MAX 192u
#define TX_TSO_INLINE_MAX (TX_TSO_HDR_MAX + RTE_VLAN_HLEN)

/* Where the template's words go (the layouts of mlx5v_prm_eth.h, prm/mlx5_eth §6.2 - §6.5). */
#define TX_ESEG_OFF MLX5V_IFC_BYTES(wqe_ctrl_seg)
#define TX_INL_OFF (TX_ESEG_OFF + MLX5V_IFC_BYTE_OFF(wqe_eth_seg, inline_hdr_start))
#define TX_INL_HEAD (MLX5V_IFC_BIT_SZ(wqe_eth_seg, inline_hdr_start) / 8)
/* The fast path inlines exactly the L2 header (inline mode L2) or nothing (mode none). */
#define TX_FAST_INL MLX5V_WQE_L2_INLINE
#define TX_FAST_DS(inl) ((inl) != 0 ? 4u : 3u)
_Static_assert(TX_INL_OFF % 8 + TX_INL_HEAD == 8 && TX_INL_OFF + TX_INL_HEAD == 2 * MLX5V_WQE_DS &&
	       TX_FAST_INL - TX_INL_HEAD == MLX5V_WQE_DS,
	       "an 18-byte inline header is not the end of the Ethernet segment and one DS");
_Static_assert(MLX5V_IFC_DW(wqe_ctrl_seg, wqe_index) == 0 &&
	       MLX5V_IFC_DW(wqe_data_seg, byte_count) == 0 &&
	       MLX5V_IFC_DW(wqe_data_seg, lkey) == 1 &&
	       MLX5V_IFC_BYTE_OFF(wqe_data_seg, addr) == 8,
	       "the words the fast path patches moved");

/*
 * elts entries, one per packet in the order posted: a packet whose mbuf goes back to its
 * pool in bulk (one segment, direct, refcnt 1, its pool DMA-mapped), or tagged with
 * TX_ELT_ALONE: freed by rte_pktmbuf_free(). wqe_elts[] of a WQE's first WQEBB says where
 * its packets begin.
 */
#define TX_ELT_ALONE ((uintptr_t)1)

static inline struct rte_mbuf *
mlx5v_tx_elt_alone(struct rte_mbuf *m)
{
	return (struct rte_mbuf *)((uintptr_t)m | TX_ELT_ALONE);
}

static inline uint8_t *
mlx5v_tx_wqebb(const struct mlx5v_txq *txq, uint16_t idx)
{
	return txq->wqes + (size_t)(idx & txq->wqe_mask) * MLX5V_WQE_BB;
}

/* WQEBBs of the WQE that starts at index idx, from its own control segment. */
static inline uint16_t
mlx5v_tx_wqe_bbs(const struct mlx5v_txq *txq, uint16_t idx)
{
	uint32_t ds = MLX5V_GET(wqe_ctrl_seg, mlx5v_tx_wqebb(txq, idx), ds);

	return (uint16_t)RTE_MAX(1u, (ds + 3) / 4);
}

/* The 64-bit word, as stored, that holds big-endian dword dw (of its pair) equal to v. */
static __rte_always_inline uint64_t
mlx5v_tx_word_dw(unsigned int dw, uint32_t v)
{
	rte_be32_t d[2] = { 0, 0 };
	uint64_t w;

	d[dw & 1] = rte_cpu_to_be_32(v);
	memcpy(&w, d, sizeof(w));
	return w;
}

/* v, bytes loaded from memory into its low end, placed at byte off of a stored word. */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define TX_WORD_BYTES(v, off, n) ((uint64_t)(v) << (8 * (off)))
#else
#define TX_WORD_BYTES(v, off, n) ((uint64_t)(v) << (8 * (8 - (off) - (n))))
#endif

/* refcnt == 1 and nb_segs == 1 as one 32-bit value (the same in either byte order). */
#define TX_REF1_SEG1 UINT32_C(0x00010001)
_Static_assert(offsetof(struct rte_mbuf, nb_segs) == offsetof(struct rte_mbuf, refcnt) + 2,
	       "refcnt and nb_segs are not adjacent");

static __rte_always_inline uint32_t
mlx5v_tx_ref_segs(const struct rte_mbuf *m)
{
	uint32_t v;

	memcpy(&v, &m->refcnt, sizeof(v));
	return v;
}

/* Give back the elts from elts_tail up to (not including) end, through rte_pktmbuf_free(). */
static void
mlx5v_tx_free_mixed(struct mlx5v_txq *txq, uint32_t end)
{
	const unsigned int lcore = rte_lcore_id();
	const uint32_t mask = txq->elts_mask;
	const int fast_free = txq->fast_free;
	struct rte_mempool *pool;
	uint32_t ci = txq->elts_tail;
	struct rte_mbuf **p, *m;
	uint32_t len, j, k;

	while (ci != end) {
		/* Up to the end of the ring, then from its start. */
		len = RTE_MIN(end - ci, mask + 1 - (ci & mask));
		p = &txq->elts[ci & mask];
		for (k = 0; k < len; k = j) {
			m = p[k];
			j = k + 1;
			if (unlikely((uintptr_t)m & TX_ELT_ALONE)) {
				rte_pktmbuf_free((struct rte_mbuf *)((uintptr_t)m & ~TX_ELT_ALONE));
				txq->alone--;
				continue;
			}
			/* MBUF_FAST_FREE: one pool for all, no need to look. */
			pool = m->pool;
			while (j < len && !((uintptr_t)p[j] & TX_ELT_ALONE) &&
			       (fast_free || p[j]->pool == pool))
				j++;
			rte_mempool_generic_put(pool, (void **)&p[k], j - k,
						rte_mempool_default_cache(pool, lcore));
		}
		ci += len;
	}
}

#if TX_AVX2
/* n mbuf pointers from src to dst (the lcore's cache), sixteen per step with AVX2. */
static TX_AVX2_FN __rte_noinline void
mlx5v_tx_copy_avx2(void **dst, struct rte_mbuf *const *src, uint32_t n)
{
	void **const end = dst + (n & ~15u);
	__m256i a, b, c, d;

	/* Pointers stepping to an end: the loop's bookkeeping is two additions. */
	for (; dst != end; dst += 16, src += 16) {
		a = _mm256_loadu_si256((const __m256i *)(const void *)src);
		b = _mm256_loadu_si256((const __m256i *)(const void *)(src + 4));
		c = _mm256_loadu_si256((const __m256i *)(const void *)(src + 8));
		d = _mm256_loadu_si256((const __m256i *)(const void *)(src + 12));
		_mm256_storeu_si256((__m256i *)(void *)dst, a);
		_mm256_storeu_si256((__m256i *)(void *)(dst + 4), b);
		_mm256_storeu_si256((__m256i *)(void *)(dst + 8), c);
		_mm256_storeu_si256((__m256i *)(void *)(dst + 12), d);
	}
	for (n &= 15; n > 0; n--)
		*dst++ = *src++;
}
#endif

/*
 * Retire the packets from elts_tail up to (not including) end: back to their pools, each
 * run of plain ones of one pool straight from the ring with one mempool call (the lcore's
 * cache looked up once). With MBUF_FAST_FREE and none to free alone, by index only.
 * @return packets freed.
 */
static unsigned int
mlx5v_tx_free(struct mlx5v_txq *txq, uint32_t end)
{
	const uint32_t mask = txq->elts_mask;
	const uint32_t ci = txq->elts_tail;
	const uint32_t n = end - ci;
	struct rte_mempool_cache *cache;
	struct rte_mempool *pool;
	mlxv_mbuf_copy_t copy = NULL;
	uint32_t len;

	if (n == 0)
		return 0;
	if (likely(txq->fast_free && txq->alone == 0)) {
		pool = txq->elts[ci & mask]->pool;
		cache = rte_mempool_default_cache(pool, rte_lcore_id());
		len = RTE_MIN(n, mask + 1 - (ci & mask));
#if TX_AVX2
		copy = txq->avx2 ? mlx5v_tx_copy_avx2 : NULL;
#endif
		mlxv_mbuf_put_copy(pool, cache, &txq->elts[ci & mask], len, copy);
		if (unlikely(len != n))
			mlxv_mbuf_put_copy(pool, cache, txq->elts, n - len, copy);
	} else {
		mlx5v_tx_free_mixed(txq, end);
	}
	txq->elts_tail = end;
	return n;
}

/*
 * The packets from elts_tail up to end failed or were flushed: they are freed, taken back
 * out of the sent counters and counted as errors. @return packets freed.
 */
static unsigned int
mlx5v_tx_free_failed(struct mlx5v_txq *txq, uint32_t end)
{
	unsigned int n = 0;
	struct rte_mbuf *m;

	for (; txq->elts_tail != end; txq->elts_tail++) {
		m = txq->elts[txq->elts_tail & txq->elts_mask];
		if ((uintptr_t)m & TX_ELT_ALONE) {
			m = (struct rte_mbuf *)((uintptr_t)m & ~TX_ELT_ALONE);
			txq->alone--;
		}
		txq->packets--;
		txq->bytes -= m->pkt_len;
		txq->errors++;
		rte_pktmbuf_free(m);
		n++;
	}
	return n;
}

/*
 * ERR -> RST -> RDY once every WQE has completed (prm/mlx5_eth §5.2, §6.7: with flush_in_error_en
 * the device completes each one, so nothing is lost track of); the counters restart at 0.
 */
static void
mlx5v_tx_recover(struct mlx5v_txq *txq)
{
	/* The port of this process: the queue's eth_dev is the primary's address. */
	struct mlx5v_dev *dev = mlx5v_ethdev_core(&rte_eth_devices[txq->port_id]);
	int ret;

	/* A secondary has no command queue: the SQ stays in error, the burst sends nothing. */
	if (dev == NULL)
		return;
	ret = mlx5v_ethdev_cmd_q_recover(dev, 1, txq->sqn);
	if (ret != 0) {
		/* Tried again on the next burst; the queue sends nothing meanwhile. */
		MLX5V_ETH_LOG(ERR, "port %u Tx queue %u: SQ recovery failed: %s",
			      txq->port_id, txq->idx, strerror(-ret));
		return;
	}
	txq->wqe_pi = 0;
	txq->wqe_ci = 0;
	/* RST zeroed the device's counter: the record restarts with it. */
	*txq->dbrec = 0;
	txq->recover = 0;
	MLX5V_ETH_LOG(INFO, "port %u Tx queue %u: SQ back to ready after an error CQE",
		      txq->port_id, txq->idx);
}

/*
 * The WQE at index idx has completed, and every one before it (prm/mlx5_eth §6.7): wqe_ci moves
 * past it. @return where its packets end in elts.
 */
static inline uint32_t
mlx5v_tx_wqe_done(struct mlx5v_txq *txq, uint16_t idx)
{
	const uint16_t next = idx + mlx5v_tx_wqe_bbs(txq, idx);

	txq->wqe_ci = next;
	return next == txq->wqe_pi ? txq->elts_head : txq->wqe_elts[next & txq->wqe_mask];
}

/*
 * Consume the send CQEs (prm/mlx5_eth §6.7, §8.4). WQEs complete in order: of a row of good CQEs
 * only the last one's WQE is looked up (gidx), and their packets go back in one mlx5v_tx_free() at
 * the end (done: where they end). @return packets freed.
 */
static unsigned int
mlx5v_tx_reap(struct mlx5v_txq *txq)
{
	uint32_t done = txq->elts_tail;
	uint16_t lo = txq->wqe_ci;
	unsigned int freed = 0;
	unsigned int n = 0;
	uint16_t idx, gidx = 0;
	int good = 0;
	uint8_t *cqe;

	/*
	 * The owner bit of a CQE flips on each lap of the ring: one whose bit differs from the
	 * lap parity of cq_ci is not written yet (prm/mlx5_eth §8.1); the helper then orders
	 * the reads of the body after that check.
	 */
	while ((cqe = rte_pmd_mlx5v_cq_next_cqe(txq->cqes, txq->cq_nent, txq->cq_ci)) != NULL) {
		idx = MLX5V_GET(cqe_eth, cqe, wqe_counter);
		txq->cq_ci++;
		n++;
		/*
		 * A WQE index outside the outstanding ones (from lo, past those already
		 * completed) is not ours: nothing to retire.
		 */
		if ((uint16_t)(idx - lo) >= (uint16_t)(txq->wqe_pi - lo))
			continue;
		if (likely(MLX5V_GET(cqe_eth, cqe, opcode) == MLX5V_CQE_OPCODE_REQ)) {
			good = 1;
			gidx = idx;
			lo = idx + 1;
			continue;
		}
		/* REQ_ERR: this WQE failed or was flushed; the SQ is in ERR (prm/mlx5_eth §8.4). */
		if (good)
			mlx5v_tx_wqe_done(txq, gidx);
		good = 0;
		freed += mlx5v_tx_free(txq, txq->wqe_elts[idx & txq->wqe_mask]);
		if (MLX5V_GET(cqe_err, cqe, syndrome) != MLX5V_CQE_SYND_WR_FLUSH) {
			txq->err_cqes++;
			MLX5V_ETH_LOG(DEBUG, "port %u Tx queue %u: error CQE 0x%x/0x%x on WQE %u",
				      txq->port_id, txq->idx,
				      MLX5V_GET(cqe_err, cqe, syndrome),
				      MLX5V_GET(cqe_err, cqe, vendor_err_synd), idx);
		}
		done = mlx5v_tx_wqe_done(txq, idx);
		freed += mlx5v_tx_free_failed(txq, done);
		lo = txq->wqe_ci;
		txq->recover = 1;
	}
	if (good)
		done = mlx5v_tx_wqe_done(txq, gidx);
	freed += mlx5v_tx_free(txq, done);
	txq->cq_seen = 0;
	/* The device may reuse the CQEs once the record says so (the helper's barrier). */
	if (n != 0)
		rte_pmd_mlx5v_cq_update_ci(txq->cq_dbrec, txq->cq_ci);
	if (unlikely(txq->recover) && txq->wqe_ci == txq->wqe_pi)
		mlx5v_tx_recover(txq);
	return freed;
}

/*
 * Whether the burst should reap first: with reap_pkts packets or half the ring in flight,
 * with MLX5V_TXQ_REAP_COMPS CQEs waiting, or when a waiting CQE reports an error (the SQ is
 * in ERR and sends nothing until it is reaped and recovered). Otherwise the completions
 * wait, so that one reap and one free serve several of them.
 */
static __rte_always_inline int
mlx5v_tx_reap_due(struct mlx5v_txq *txq)
{
	const uint16_t out = txq->wqe_pi - txq->wqe_ci;
	const uint8_t *cqe;
	unsigned int k;

	if (out == 0)
		return 0;
	if (txq->elts_head - txq->elts_tail >= txq->reap_pkts || out >= txq->nb_desc / 2)
		return 1;
	/*
	 * An error CQE may wait behind good ones: each waiting one is looked at, once (cq_seen
	 * good ones were seen by earlier bursts). The owner-bit check and the read barrier are
	 * the helper's (prm/mlx5_eth §8.1).
	 */
	for (k = txq->cq_seen; k < MLX5V_TXQ_REAP_COMPS; k++) {
		cqe = rte_pmd_mlx5v_cq_next_cqe(txq->cqes, txq->cq_nent, txq->cq_ci + k);
		if (cqe == NULL) {
			txq->cq_seen = k;
			return 0;
		}
		if (MLX5V_GET(cqe_eth, cqe, opcode) != MLX5V_CQE_OPCODE_REQ)
			return 1;
	}
	return 1;
}

/* What mlx5v_tx_lean_reap_due() asks for: the CQEs seen good, or everything waiting. */
#define TX_REAP_SEEN 1
#define TX_REAP_ALL 2

/*
 * mlx5v_tx_reap_due() for the lean burst, which asks for a CQE on each WQE (one per burst of up
 * to mpw_kmax packets): one waiting CQE is looked at per burst, the next one not seen yet,
 * so that an error waits at most as many bursts as CQEs were ahead of it. @return
 * TX_REAP_SEEN once MLX5V_TXQ_REAP_COMPS were seen good (mlx5v_tx_lean_reap() takes them
 * without reading them again), TX_REAP_ALL for an error CQE or with reap_pkts packets or
 * half the ring in flight (mlx5v_tx_reap() takes every waiting CQE), else 0.
 */
static __rte_always_inline int
mlx5v_tx_lean_reap_due(struct mlx5v_txq *txq)
{
	const uint16_t out = txq->wqe_pi - txq->wqe_ci;
	const uint32_t ci = txq->cq_ci + txq->cq_seen;
	const uint8_t own = (ci & txq->cq_nent) != 0;
	uint8_t op_own;

	if (out == 0)
		return 0;
	op_own = txq->cqes[(size_t)(ci & (txq->cq_nent - 1)) * RTE_PMD_MLX5V_CQE_SIZE +
			   RTE_PMD_MLX5V_CQE_OP_OWN_OFF];
	/*
	 * A good send completion of this lap: opcode REQ, owner bit = lap parity
	 * (prm/mlx5_eth §8.1).
	 */
	if (op_own == (MLX5V_CQE_OPCODE_REQ << 4 | own)) {
		if (++txq->cq_seen >= MLX5V_TXQ_REAP_COMPS)
			return TX_REAP_SEEN;
	} else if ((op_own & 1) == own && (op_own >> 4) != RTE_PMD_MLX5V_CQE_OPCODE_INVALID) {
		/* Written (owner bit of this lap, not the never-written opcode), not good. */
		return TX_REAP_ALL;
	}
	if (txq->elts_head - txq->elts_tail >= txq->reap_pkts || out >= txq->nb_desc / 2)
		return TX_REAP_ALL;
	return 0;
}

/*
 * Take the cq_seen CQEs from cq_ci that mlx5v_tx_lean_reap_due() saw good: WQEs complete in order
 * (prm/mlx5_eth §6.7), so the last one's WQE ends the packets of all of them. A WQE index outside
 * the outstanding ones leaves them to mlx5v_tx_reap(). @return 0, or -1 if mlx5v_tx_reap() is
 * needed.
 */
static __rte_always_inline int
mlx5v_tx_lean_reap(struct mlx5v_txq *txq)
{
	const uint32_t ci = txq->cq_ci + txq->cq_seen - 1;
	const uint8_t *cqe = txq->cqes + (size_t)(ci & (txq->cq_nent - 1)) *
					 RTE_PMD_MLX5V_CQE_SIZE;
	uint16_t idx;

	/* Its owner bit was checked by mlx5v_tx_lean_reap_due(): the body is read after it. */
	rte_io_rmb();
	idx = MLX5V_GET(cqe_eth, cqe, wqe_counter);
	if (unlikely((uint16_t)(idx - txq->wqe_ci) >= (uint16_t)(txq->wqe_pi - txq->wqe_ci)))
		return -1;
	txq->cq_ci = ci + 1;
	txq->cq_seen = 0;
	mlx5v_tx_free(txq, mlx5v_tx_wqe_done(txq, idx));
	/* The device may reuse the CQEs once the record says so (the helper's barrier). */
	rte_pmd_mlx5v_cq_update_ci(txq->cq_dbrec, txq->cq_ci);
	return 0;
}

/* The mempool whose memory holds the data of seg. */
static inline struct rte_mempool *
mlx5v_tx_data_pool(struct rte_mbuf *seg)
{
	return RTE_MBUF_DIRECT(seg) ? seg->pool : rte_mbuf_from_indirect(seg)->pool;
}

/* Make the mempool of seg's data reachable by the device. @return 0 or -errno. */
static inline int
mlx5v_tx_pool_map(struct mlx5v_txq *txq, struct rte_mbuf *seg)
{
	struct rte_mempool *mp;

	if (unlikely(RTE_MBUF_HAS_EXTBUF(seg)))
		return -ENOTSUP;
	mp = mlx5v_tx_data_pool(seg);
	if (unlikely(mp != txq->mp_last)) {
		if (mlx5v_mem_pool_map(&rte_eth_devices[txq->port_id], mp) != 0)
			return -EFAULT;
		txq->mp_last = mp;
	}
	return 0;
}

/* The largest header inlined with a tag put in: the minimum header or TSO's, and the tag. */
#define TX_HDR_BUF (RTE_MAX(TX_TSO_HDR_MAX, MLX5V_ETH_INLINE_MAX) + RTE_VLAN_HLEN)

/*
 * Inline the first len bytes of m (at most TX_HDR_BUF less a tag) into the Ethernet segment
 * (prm/mlx5_eth §6.4), with m's VLAN tag put in after the MAC addresses when tag is set: the tag
 * request and the inline header share bytes 12-15 of the segment (prm/mlx5_eth §6.3), so software
 * inserts the tag into an inlined header. @return the inline header size, or 0 if m is too short.
 */
static uint32_t
mlx5v_tx_inline_hdr(struct rte_mbuf *m, uint8_t *eseg, uint32_t len, int tag)
{
	uint8_t *dst = MLX5V_IFC_ADDR_OF(wqe_eth_seg, eseg, inline_hdr_start);
	uint8_t buf[TX_HDR_BUF];
	const uint8_t *src;
	rte_be16_t vlan[2];

	src = rte_pktmbuf_read(m, 0, len, buf);
	if (unlikely(src == NULL || (tag && len < 2 * RTE_ETHER_ADDR_LEN)))
		return 0;
	if (!tag) {
		memcpy(dst, src, len);
	} else {
		vlan[0] = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		vlan[1] = rte_cpu_to_be_16(m->vlan_tci);
		memcpy(dst, src, 2 * RTE_ETHER_ADDR_LEN);
		memcpy(dst + 2 * RTE_ETHER_ADDR_LEN, vlan, sizeof(vlan));
		memcpy(dst + 2 * RTE_ETHER_ADDR_LEN + RTE_VLAN_HLEN,
		       src + 2 * RTE_ETHER_ADDR_LEN, len - 2 * RTE_ETHER_ADDR_LEN);
		len += RTE_VLAN_HLEN;
	}
	MLX5V_SET(wqe_eth_seg, eseg, inline_hdr_sz, len);
	return len;
}

/*
 * TSO (prm/mlx5_eth §6.5): opcode LSO, the MSS, both checksums, and the L2-L4 headers inlined; a
 * VLAN tag to insert goes into the inlined header. @return the header bytes of the mbuf that
 * were inlined, or 0 if the packet cannot be sent so.
 */
static uint32_t
mlx5v_tx_build_tso(struct mlx5v_txq *txq, struct rte_mbuf *m, uint8_t *wqe, uint32_t *inl_out)
{
	uint8_t *eseg = wqe + TX_ESEG_OFF;
	uint32_t hlen = (uint32_t)m->l2_len + m->l3_len + m->l4_len;

	if (txq->max_lso == 0 || m->tso_segsz == 0 || hlen <= 2 * RTE_ETHER_ADDR_LEN ||
	    hlen > TX_TSO_HDR_MAX || hlen >= m->pkt_len || m->pkt_len > txq->max_lso ||
	    m->nb_segs > txq->tso_max_segs)
		return 0;
	*inl_out = mlx5v_tx_inline_hdr(m, eseg, hlen,
				       (m->ol_flags & RTE_MBUF_F_TX_VLAN) && txq->vlan_insert);
	if (*inl_out == 0)
		return 0;
	MLX5V_SET(wqe_ctrl_seg, wqe, opcode, MLX5V_WQE_OPC_LSO);
	MLX5V_SET(wqe_eth_seg, eseg, mss, m->tso_segsz);
	MLX5V_SET(wqe_eth_seg, eseg, l3_csum, 1);
	MLX5V_SET(wqe_eth_seg, eseg, l4_csum, 1);
	return hlen;
}

/*
 * Build the WQE of m in wqe (control, Ethernet segment and inline header, data segments),
 * the general way. @return its DS count, or 0 if the packet cannot be sent (too many
 * segments, external buffer, memory the device cannot reach, bad TSO request).
 */
static uint32_t
mlx5v_tx_build(struct mlx5v_txq *txq, struct rte_mbuf *m, uint8_t *wqe)
{
	uint8_t *eseg = wqe + TX_ESEG_OFF;
	struct rte_mbuf *seg;
	uint32_t inl = 0;
	uint32_t off = 0, d;
	uint8_t *dseg;
	int tag;

	/* The template's control segment; the Ethernet segment from zero. */
	memcpy(wqe, txq->tmpl, MLX5V_WQE_DS);
	memset(eseg, 0, MLX5V_WQE_DS);
	if (m->ol_flags & RTE_MBUF_F_TX_TCP_SEG) {
		off = mlx5v_tx_build_tso(txq, m, wqe, &inl);
		if (off == 0)
			return 0;
	} else {
		if (unlikely(m->nb_segs > txq->max_segs))
			return 0;
		/* prm/mlx5_eth §6.3: the checksums the device computes. */
		if (m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM)
			MLX5V_SET(wqe_eth_seg, eseg, l3_csum, 1);
		if (m->ol_flags & RTE_MBUF_F_TX_L4_MASK)
			MLX5V_SET(wqe_eth_seg, eseg, l4_csum, 1);
		tag = (m->ol_flags & RTE_MBUF_F_TX_VLAN) && txq->vlan_insert;
		if (tag && txq->vlan_hw) {
			/*
			 * prm/mlx5_eth §6.3: no inline header is required, the tag request takes
			 * its place.
			 */
			MLX5V_SET(wqe_eth_seg_vlan, eseg, insert_vlan, 1);
			MLX5V_SET(wqe_eth_seg_vlan, eseg, vlan_tci, m->vlan_tci);
		} else if (txq->min_inline != 0 || tag) {
			/*
			 * prm/mlx5_eth §6.4: the minimum header, or the whole frame when it is
			 * shorter; a tag goes into the L2 header inlined at least.
			 */
			off = tag ? RTE_MAX((uint32_t)txq->min_inline, MLX5V_WQE_L2_INLINE) :
			      txq->min_inline;
			off = RTE_MIN(off, m->pkt_len);
			inl = mlx5v_tx_inline_hdr(m, eseg, off, tag);
			if (unlikely(inl == 0))
				return 0;
		}
	}
	d = 2 + TX_INL_DS(inl);
	/*
	 * prm/mlx5_eth §6.5: the bytes past the inline header, one data segment per mbuf segment.
	 */
	for (seg = m; seg != NULL; seg = seg->next) {
		if (off >= seg->data_len) {
			off -= seg->data_len;
			continue;
		}
		if (mlx5v_tx_pool_map(txq, seg) != 0)
			return 0;
		dseg = wqe + d * MLX5V_WQE_DS;
		MLX5V_SET(wqe_data_seg, dseg, byte_count, seg->data_len - off);
		MLX5V_SET(wqe_data_seg, dseg, lkey, txq->lkey);
		MLX5V_IFC_SET64(wqe_data_seg, dseg, addr, rte_pktmbuf_iova_offset(seg, off));
		off = 0;
		d++;
	}
	MLX5V_SET(wqe_ctrl_seg, wqe, ds, d);
	return d;
}

/* Copy a WQE of ds DS to WQEBB index pi, continuing at slot 0 past the end (prm/mlx5_eth §6.1). */
static inline void
mlx5v_tx_copy(struct mlx5v_txq *txq, uint16_t pi, const uint8_t *wqe, uint32_t ds)
{
	uint8_t *dst = mlx5v_tx_wqebb(txq, pi);
	size_t room = (size_t)txq->nb_desc * MLX5V_WQE_BB - (size_t)(dst - txq->wqes);
	size_t len = (size_t)ds * MLX5V_WQE_DS;

	if (likely(len <= room)) {
		memcpy(dst, wqe, len);
	} else {
		memcpy(dst, wqe, room);
		memcpy(txq->wqes, wqe + room, len - room);
	}
}

/*
 * Post m the general way at WQEBB index pi if it fits in room WQEBBs. @return the WQEBBs
 * it took, 0 if it does not fit (the burst stops), or -1 if it cannot be sent (freed and
 * counted, as a device error would be).
 */
static __rte_noinline int
mlx5v_tx_post_general(struct mlx5v_txq *txq, struct rte_mbuf *m, uint16_t pi, unsigned int room)
{
	uint8_t wqe[MLX5V_WQE_MAX_DS * MLX5V_WQE_DS];
	uint16_t bbs;
	uint32_t ds;

	ds = mlx5v_tx_build(txq, m, wqe);
	if (unlikely(ds == 0)) {
		txq->errors++;
		rte_pktmbuf_free(m);
		return -1;
	}
	bbs = (uint16_t)((ds + 3) / 4);
	if (bbs > room)
		return 0;
	MLX5V_SET(wqe_ctrl_seg, wqe, wqe_index, pi);
	mlx5v_tx_copy(txq, pi, wqe, ds);
	txq->wqe_elts[pi & txq->wqe_mask] = txq->elts_head;
	/* Freed in bulk when plain. */
	if (m->nb_segs == 1 &&
	    (txq->fast_free || (mlx5v_tx_ref_segs(m) == TX_REF1_SEG1 && RTE_MBUF_DIRECT(m)))) {
		txq->elts[txq->elts_head++ & txq->elts_mask] = m;
	} else {
		txq->elts[txq->elts_head++ & txq->elts_mask] = mlx5v_tx_elt_alone(m);
		txq->alone++;
	}
	return bbs;
}

/*
 * Tell the device about the WQEs up to wqe_pi: record, then the UAR doorbell with the first
 * 8 bytes of the last WQE's control segment (prm/mlx5_eth §6.6).
 */
static inline void
mlx5v_tx_ring(struct mlx5v_txq *txq, const uint8_t *ctrl)
{
	const struct mlx5v_ethdev_proc *pp = mlx5v_ethdev_proc(txq->port_id);
	uint64_t db;

	/*
	 * The WQEs must be in memory before the record says they are there (prm/mlx5_eth §6.6 step
	 * 2).
	 */
	rte_io_wmb();
	*txq->dbrec = rte_cpu_to_be_32(txq->wqe_pi);
	memcpy(&db, ctrl, sizeof(db));
	/*
	 * The seam's doorbell orders the record before the MMIO (prm/mlx5_eth §6.6 step 4); this
	 * process's mapping of the queue's doorbell (the record alone is shared memory).
	 */
	mlx5v_hw_db_wr64(pp->hw, pp->db[txq->idx], rte_be_to_cpu_64(db));
}

/*
 * The end of a burst that took i packets (dropped of them freed as unsendable): counters,
 * then, if a WQE was written (ctrl the last one), a CQE asked of it and the doorbell.
 * @return i.
 */
static __rte_always_inline uint16_t
mlx5v_tx_burst_end(struct mlx5v_txq *txq, uint32_t head, unsigned int i, unsigned int dropped,
		   uint64_t bytes, uint16_t pi, uint8_t *ctrl)
{
	txq->elts_head = head;
	txq->packets += i - dropped;
	txq->bytes += bytes;
	if (ctrl == NULL)
		return i;
	MLX5V_SET(wqe_ctrl_seg, ctrl, ce, MLX5V_WQE_CE_ALWAYS);
	txq->wqe_pi = pi;
	mlx5v_tx_ring(txq, ctrl);
	return i;
}

/*
 * The burst, with the fast path (fast) for inline size inl (TX_FAST_INL or 0; constants in
 * each instance): a packet of one direct segment, refcnt 1, longer than inl, from the
 * mapped pool and without offloads is the template plus its index, inline bytes, length
 * and address; any other packet is built the general way.
 */
static __rte_always_inline uint16_t
mlx5v_tx_burst_txq(struct mlx5v_txq *txq, struct rte_mbuf **pkts, uint16_t n, const int fast,
		   const uint16_t inl)
{
	/* The template in registers (the ring's stores do not reach it). */
	const unsigned int dw = TX_FAST_DS(inl) - 1;
	const uint64_t t0 = txq->tmpl[0], t1 = txq->tmpl[1], t2 = txq->tmpl[2];
	const uint64_t t3 = txq->tmpl[3], td = txq->tmpl[2 * dw];
	const uint64_t slow = txq->slow_flags;
	const uint16_t mask = txq->wqe_mask;
	uint8_t *const wqes = txq->wqes;
	struct rte_mbuf **const elts = txq->elts;
	uint32_t *const wqe_elts = txq->wqe_elts;
	const uint32_t emask = txq->elts_mask;
	uint32_t head = txq->elts_head;
	struct rte_mempool *mp = txq->mp_last;
	uint16_t pi = txq->wqe_pi;
	unsigned int room = txq->nb_desc - (uint16_t)(pi - txq->wqe_ci);
	uint64_t h0 = 0, h1 = 0, h2 = 0;
	uint8_t *ctrl = NULL;
	uint64_t bytes = 0;
	unsigned int dropped = 0;
	unsigned int i = 0, end;
	const uint8_t *data;
	uint32_t dlen;
	struct rte_mbuf *m;
	uint64_t iova;
	uint64_t *wqe;
	int bbs;

	while (i < n && room != 0) {
		/*
		 * prm/mlx5_eth §6.2: a CQE at least every comp_thresh packets, and on the burst's
		 * last.
		 */
		end = i + RTE_MIN(RTE_MIN(n - i, (unsigned int)txq->comp_thresh), room);
		for (; i < end; i++) {
			m = pkts[i];
			dlen = m->data_len;
			if (!fast || unlikely((m->ol_flags & slow) != 0 ||
					      mlx5v_tx_ref_segs(m) != TX_REF1_SEG1 ||
					      m->pool != mp || dlen <= inl)) {
				txq->elts_head = head;
				bbs = mlx5v_tx_post_general(txq, m, pi, room);
				head = txq->elts_head;
				mp = txq->mp_last;
				if (bbs == 0)
					goto stop;
				if (bbs < 0) {
					dropped++;
					continue;
				}
				ctrl = mlx5v_tx_wqebb(txq, pi);
				pi += bbs;
				bytes += m->pkt_len;
				room -= bbs;
				end = RTE_MIN(end, i + 1 + room);
				continue;
			}
			/* Everything read from the mbuf before the WQE is written. */
			data = rte_pktmbuf_mtod(m, const uint8_t *);
			iova = rte_pktmbuf_iova(m) + inl;
			if (inl != 0) {
				memcpy(&h0, data, TX_INL_HEAD);
				memcpy(&h1, data + TX_INL_HEAD, sizeof(h1));
				memcpy(&h2, data + TX_INL_HEAD + sizeof(h1), sizeof(h2));
			}
			wqe = (uint64_t *)(wqes + (size_t)(pi & mask) * MLX5V_WQE_BB);
			wqe[0] = t0 | mlx5v_tx_word_dw(0, (uint32_t)pi <<
						       MLX5V_IFC_SHIFT(wqe_ctrl_seg, wqe_index));
			wqe[1] = t1;
			wqe[2] = t2;
			if (inl != 0) {
				wqe[3] = t3 | TX_WORD_BYTES(h0, TX_INL_OFF % 8, TX_INL_HEAD);
				wqe[4] = h1;
				wqe[5] = h2;
			} else {
				wqe[3] = t3;
			}
			wqe[2 * dw] = td | mlx5v_tx_word_dw(0, dlen - inl);
			wqe[2 * dw + 1] = rte_cpu_to_be_64(iova);
			wqe_elts[pi & mask] = head;
			elts[head++ & emask] = m;
			bytes += dlen;
			ctrl = (uint8_t *)wqe;
			pi++;
			room--;
		}
		if (ctrl != NULL)
			MLX5V_SET(wqe_ctrl_seg, ctrl, ce, MLX5V_WQE_CE_ALWAYS);
	}
stop:
	return mlx5v_tx_burst_end(txq, head, i, dropped, bytes, pi, ctrl);
}

/*
 * A packet that can go by pointer in a multi-packet WQE: as the SEND fast path takes. With
 * MBUF_FAST_FREE (ff) every mbuf comes from the one pool already mapped (mp, not NULL).
 */
static __rte_always_inline int
mlx5v_tx_plain(const struct rte_mbuf *m, uint64_t slow, const struct rte_mempool *mp, const int ff)
{
	return (m->ol_flags & slow) == 0 && mlx5v_tx_ref_segs(m) == TX_REF1_SEG1 &&
	       (ff || m->pool == mp);
}

/*
 * The data segment of packet m at d (prm/mlx5_eth §6.5): length, lkey, address. The two
 * dwords stored apart cost less than one word built of them (volatile so that they are not
 * merged into a vector store).
 */
static __rte_always_inline void
mlx5v_tx_empw_dseg(uint64_t *d, const struct rte_mbuf *m, rte_be32_t lkey)
{
	rte_be32_t *dw = (rte_be32_t *)d;

	rte_write32_relaxed(rte_cpu_to_be_32(m->data_len), &dw[0]);
	rte_write32_relaxed(lkey, &dw[1]);
	d[1] = rte_cpu_to_be_64(rte_pktmbuf_iova(m));
}

/*
 * The data segments of a multi-packet WQE (prm/mlx5_empw.rst) from d on, one per plain
 * packet of pkts, up to kmax of them; the list entries into ep. Two packets per step while
 * both are plain (both list entries in one copy), then one. Out of line from the burst so
 * that the loop keeps what it uses in registers. @return the packets taken (the first one
 * that is not plain ends the run).
 */
static __rte_always_inline unsigned int
mlx5v_tx_empw_dsegs(struct rte_mbuf **pkts, struct rte_mbuf **ep, uint64_t *d, unsigned int kmax,
		    rte_be32_t lkey, uint64_t slow, const struct rte_mempool *mp, uint64_t *bytes,
		    const int ff)
{
	struct rte_mbuf **p = pkts, **const end = pkts + kmax, **const end2 = pkts + (kmax & ~1u);
	/*
	 * The bytes as 32 bits (at most 61 packets below 64 KiB), each added from pkt_len: of
	 * a one-segment packet it is the data_len.
	 */
	uint32_t sum = 0;
	struct rte_mbuf *m, *m1;

	/* Pointers stepping to an end: the loop's bookkeeping is three additions. */
	for (; p != end2; p += 2, ep += 2, d += 4) {
		m = p[0];
		m1 = p[1];
		/* Both packets' flags in one test. */
		if (unlikely(((m->ol_flags | m1->ol_flags) & slow) != 0 ||
			     mlx5v_tx_ref_segs(m) != TX_REF1_SEG1 ||
			     mlx5v_tx_ref_segs(m1) != TX_REF1_SEG1 ||
			     (!ff && (m->pool != mp || m1->pool != mp))))
			break;
		memcpy(ep, p, 2 * sizeof(*ep));
		mlx5v_tx_empw_dseg(d, m, lkey);
		mlx5v_tx_empw_dseg(d + 2, m1, lkey);
		sum += m->pkt_len + m1->pkt_len;
	}
	for (; p != end; p++, ep++, d += 2) {
		m = *p;
		if (unlikely(!mlx5v_tx_plain(m, slow, mp, ff)))
			break;
		mlx5v_tx_empw_dseg(d, m, lkey);
		sum += m->pkt_len;
		*ep = m;
	}
	*bytes += sum;
	return (unsigned int)(p - pkts);
}

/* mlx5v_tx_empw_dsegs() with MBUF_FAST_FREE, and without (each mbuf's pool checked). */
static __rte_noinline unsigned int
mlx5v_tx_empw_dsegs_ff(struct rte_mbuf **pkts, struct rte_mbuf **ep, uint64_t *d,
		       unsigned int kmax, rte_be32_t lkey, uint64_t slow,
		       const struct rte_mempool *mp, uint64_t *bytes)
{
	return mlx5v_tx_empw_dsegs(pkts, ep, d, kmax, lkey, slow, mp, bytes, 1);
}

static __rte_noinline unsigned int
mlx5v_tx_empw_dsegs_pool(struct rte_mbuf **pkts, struct rte_mbuf **ep, uint64_t *d,
			 unsigned int kmax, rte_be32_t lkey, uint64_t slow,
			 const struct rte_mempool *mp, uint64_t *bytes)
{
	return mlx5v_tx_empw_dsegs(pkts, ep, d, kmax, lkey, slow, mp, bytes, 0);
}

/*
 * The burst with enhanced multi-packet WQEs (doc/guides/prm/mlx5_empw.rst): a run of plain
 * packets (one direct segment, refcnt 1, the mapped pool, no offloads) shares one WQE
 * (control, Ethernet segment, then one data segment per packet) of up to comp_thresh
 * packets that asks for a completion; any other packet is one WQE built the general way.
 * ff: MBUF_FAST_FREE and the pool mapped (a constant in each instance).
 */
static __rte_always_inline uint16_t
mlx5v_tx_burst_empw(struct mlx5v_txq *txq, struct rte_mbuf **pkts, uint16_t n, const int ff)
{
	const uint64_t c0 = txq->mpw_ctrl[0], c1 = txq->mpw_ctrl[1];
	const rte_be32_t lkey = rte_cpu_to_be_32(txq->lkey);
	const uint64_t slow = txq->slow_flags;
	const unsigned int kmax_wqe = txq->mpw_kmax;
	const uint16_t mask = txq->wqe_mask;
	const uint32_t emask = txq->elts_mask;
	uint8_t *const wqes = txq->wqes;
	struct rte_mbuf **const elts = txq->elts;
	struct rte_mempool *mp = txq->mp_last;
	uint16_t pi = txq->wqe_pi;
	unsigned int room = txq->nb_desc - (uint16_t)(pi - txq->wqe_ci);
	uint32_t head = txq->elts_head;
	unsigned int i = 0, k, kmax, since = 0;
	unsigned int dropped = 0;
	uint8_t *ctrl = NULL;
	uint64_t bytes = 0;
	struct rte_mbuf **ep;
	struct rte_mbuf *m;
	uint64_t *w, *d;
	uint32_t ds;
	int bbs;

	while (i < n && room != 0) {
		/*
		 * As many packets as the WQE, the ring and the completion interval allow, and
		 * no more than reach the end of the ring or of the packet list: the data
		 * segments and the list entries are then contiguous (a WQE near the ring's end
		 * is just shorter).
		 */
		kmax = RTE_MIN(RTE_MIN(n - i, kmax_wqe), room * 4 - 2);
		kmax = RTE_MIN(kmax, (unsigned int)(txq->nb_desc - (pi & mask)) * 4 - 2);
		kmax = RTE_MIN(kmax, emask + 1 - (head & emask));
		w = (uint64_t *)(wqes + (size_t)(pi & mask) * MLX5V_WQE_BB);
		d = w + 4;
		ep = &elts[head & emask];
		if (ff)
			k = mlx5v_tx_empw_dsegs_ff(&pkts[i], ep, d, kmax, lkey, slow, mp, &bytes);
		else
			k = mlx5v_tx_empw_dsegs_pool(&pkts[i], ep, d, kmax, lkey, slow, mp, &bytes);
		if (likely(k != 0)) {
			ds = 2 + k;
			w[0] = c0 | mlx5v_tx_word_dw(0, (uint32_t)pi <<
						     MLX5V_IFC_SHIFT(wqe_ctrl_seg, wqe_index)) |
			       mlx5v_tx_word_dw(1, ds);
			w[1] = c1;
			/* No checksums, no inline header: the Ethernet segment is zero. */
			w[2] = 0;
			w[3] = 0;
			txq->wqe_elts[pi & mask] = head;
			head += k;
			i += k;
			ctrl = (uint8_t *)w;
			since = 0;
			bbs = (int)((ds + 3) / 4);
			pi += bbs;
			room -= bbs;
			continue;
		}
		m = pkts[i];
		txq->elts_head = head;
		bbs = mlx5v_tx_post_general(txq, m, pi, room);
		head = txq->elts_head;
		mp = txq->mp_last;
		if (bbs == 0)
			break;
		i++;
		if (bbs < 0) {
			dropped++;
			continue;
		}
		bytes += m->pkt_len;
		ctrl = mlx5v_tx_wqebb(txq, pi);
		pi += bbs;
		room -= bbs;
		/* prm/mlx5_eth §6.2: a CQE at least every comp_thresh packets. */
		if (++since >= txq->comp_thresh) {
			MLX5V_SET(wqe_ctrl_seg, ctrl, ce, MLX5V_WQE_CE_ALWAYS);
			since = 0;
		}
	}
	return mlx5v_tx_burst_end(txq, head, i, dropped, bytes, pi, ctrl);
}

/*
 * The data segment of a one-segment packet m at d, its bytes added to *sum (mlx5v_tx_empw_dseg()).
 */
static __rte_always_inline void
mlx5v_tx_lean_dseg(uint64_t *d, const struct rte_mbuf *m, rte_be32_t lkey, uint32_t *sum)
{
	*sum += m->data_len;
	mlx5v_tx_empw_dseg(d, m, lkey);
}

/*
 * The data segments of a multi-packet WQE for the lean burst: from d on, one per packet of
 * pkts, up to kmax of them, their list entries into ep, their bytes added to *bytes. The
 * queue's offloads promise what mlx5v_tx_plain() checks (MBUF_FAST_FREE: one pool, refcnt 1,
 * direct; no checksum, VLAN or TSO offload asked for): only the segment count is looked at,
 * four packets per step with one test. The byte count of the data segment is the data_len
 * of the one segment (prm/mlx5_eth §6.5). @return the packets taken (the first one of more
 * than one segment ends the run) and their bytes, as TX_LEAN_RET() packs them (in one
 * register).
 */
#define TX_LEAN_RET(k, bytes) ((uint64_t)(bytes) << 32 | (uint32_t)(k))
#define TX_LEAN_K(r) ((uint32_t)(r))
#define TX_LEAN_BYTES(r) ((uint32_t)((r) >> 32))
static __rte_noinline uint64_t
mlx5v_tx_lean_dsegs(struct rte_mbuf **pkts, struct rte_mbuf **ep, uint64_t *d, unsigned int kmax,
		    rte_be32_t lkey)
{
	struct rte_mbuf **p = pkts, **const end = pkts + kmax, **const end4 = pkts + (kmax & ~3u);
	struct rte_mbuf *m0, *m1, *m2, *m3;
	uint32_t sum = 0;

	/* Pointers stepping to an end: the loop's bookkeeping is three additions. */
	for (; p != end4; p += 4, ep += 4, d += 8) {
		m0 = p[0];
		m1 = p[1];
		m2 = p[2];
		m3 = p[3];
		/* Each nb_segs is at least 1: they or to 1 only when each is 1. */
		if (unlikely((uint16_t)(m0->nb_segs | m1->nb_segs | m2->nb_segs |
					 m3->nb_segs) != 1))
			break;
		memcpy(ep, p, 4 * sizeof(*ep));
		mlx5v_tx_lean_dseg(d, m0, lkey, &sum);
		mlx5v_tx_lean_dseg(d + 2, m1, lkey, &sum);
		mlx5v_tx_lean_dseg(d + 4, m2, lkey, &sum);
		mlx5v_tx_lean_dseg(d + 6, m3, lkey, &sum);
	}
	for (; p != end; p++, ep++, d += 2) {
		m0 = *p;
		if (unlikely(m0->nb_segs != 1))
			break;
		mlx5v_tx_lean_dseg(d, m0, lkey, &sum);
		*ep = m0;
	}
	return TX_LEAN_RET(p - pkts, sum);
}

#if TX_AVX2
/* The mbuf bytes the AVX2 loop loads: 16 from buf_iova, 16 from packet_type. */
_Static_assert(offsetof(struct rte_mbuf, rearm_data) == offsetof(struct rte_mbuf, buf_iova) + 8 &&
	       offsetof(struct rte_mbuf, data_off) == offsetof(struct rte_mbuf, rearm_data) &&
	       offsetof(struct rte_mbuf, nb_segs) == offsetof(struct rte_mbuf, rearm_data) + 4 &&
	       offsetof(struct rte_mbuf, pkt_len) == offsetof(struct rte_mbuf, packet_type) + 4 &&
	       offsetof(struct rte_mbuf, data_len) == offsetof(struct rte_mbuf, packet_type) + 8,
	       "buf_iova, data_off, nb_segs, pkt_len, data_len moved");

/* 16 bytes from lo and 16 from hi in one register. */
static TX_AVX2_FN __rte_always_inline __m256i
mlx5v_tx_avx2_two(const void *lo, const void *hi)
{
	return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(lo)),
				       _mm_loadu_si128(hi), 1);
}

/*
 * Two data segments from a (16 bytes from buf_iova of each mbuf) and b (16 from
 * packet_type): the address plus data_off and the data_len byte-swapped into place with the
 * lkey (the masks of mlx5v_tx_lean_dsegs_avx2()).
 */
static TX_AVX2_FN __rte_always_inline __m256i
mlx5v_tx_avx2_dsegs(__m256i a, __m256i b, __m256i doff, __m256i addr, __m256i blen, __m256i lk)
{
	a = _mm256_add_epi64(a, _mm256_shuffle_epi8(a, doff));
	return _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, addr),
					       _mm256_shuffle_epi8(b, blen)), lk);
}

/*
 * mlx5v_tx_lean_dsegs() with AVX2, two packets per 32-byte register and four per step while all
 * four have one segment: the 16 bytes from buf_iova (address, then data_off and nb_segs)
 * and the 16 from packet_type (data_len at byte 8) of each mbuf; the address plus data_off
 * and data_len byte-swapped into their places of the data segment with the lkey, both
 * segments in one store; the four nb_segs ored, the pkt_len summed in a lane. The rest
 * (fewer than four, or from a packet of more segments on) as the scalar loop does.
 */
static TX_AVX2_FN __rte_noinline uint64_t
mlx5v_tx_lean_dsegs_avx2(struct rte_mbuf **pkts, struct rte_mbuf **ep, uint64_t *d,
			 unsigned int kmax, rte_be32_t lkey)
{
	/* data_off (bytes 8-9 of a lane) moved down to the address's place, the rest 0. */
	const __m256i doff = _mm256_setr_epi8(8, 9, -1, -1, -1, -1, -1, -1,
					      -1, -1, -1, -1, -1, -1, -1, -1,
					      8, 9, -1, -1, -1, -1, -1, -1,
					      -1, -1, -1, -1, -1, -1, -1, -1);
	/* The bits of nb_segs (bytes 12-13 of a lane) but its lowest. */
	const __m256i segs2 = _mm256_setr_epi16(0, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, 0, 0, 0, -2, 0);
	/* Address (bytes 0-7 of a) to bytes 8-15 big-endian, the rest 0. */
	const __m256i addr = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1,
					      7, 6, 5, 4, 3, 2, 1, 0,
					      -1, -1, -1, -1, -1, -1, -1, -1,
					      7, 6, 5, 4, 3, 2, 1, 0);
	/* data_len (bytes 8-9 of b) to bytes 0-3 big-endian, the rest 0. */
	const __m256i blen = _mm256_setr_epi8(-1, -1, 9, 8, -1, -1, -1, -1,
					      -1, -1, -1, -1, -1, -1, -1, -1,
					      -1, -1, 9, 8, -1, -1, -1, -1,
					      -1, -1, -1, -1, -1, -1, -1, -1);
	const __m256i lk = _mm256_setr_epi32(0, (int)lkey, 0, 0, 0, (int)lkey, 0, 0);
	struct rte_mbuf **p = pkts, **const end4 = pkts + (kmax & ~3u);
	__m256i a01, a23, b01, b23, segs, sum = _mm256_setzero_si256();
	__m128i s;
	uint64_t r;
	uint32_t bytes;

	for (; p != end4; p += 4, ep += 4, d += 8) {
		a01 = mlx5v_tx_avx2_two(&p[0]->buf_iova, &p[1]->buf_iova);
		a23 = mlx5v_tx_avx2_two(&p[2]->buf_iova, &p[3]->buf_iova);
		/*
		 * nb_segs (bytes 12-13) is at least 1: the four or to 1, no other bit set, only
		 * when each is 1.
		 */
		segs = _mm256_or_si256(a01, a23);
		if (unlikely(!_mm256_testz_si256(segs, segs2)))
			break;
		b01 = mlx5v_tx_avx2_two(&p[0]->packet_type, &p[1]->packet_type);
		b23 = mlx5v_tx_avx2_two(&p[2]->packet_type, &p[3]->packet_type);
		_mm256_storeu_si256((__m256i *)(void *)ep,
				    _mm256_loadu_si256((const __m256i *)(const void *)p));
		/* 32-byte aligned: a WQE starts its segments at byte 32 of a page-aligned ring. */
		_mm256_store_si256((__m256i *)(void *)d,
				   mlx5v_tx_avx2_dsegs(a01, b01, doff, addr, blen, lk));
		_mm256_store_si256((__m256i *)(void *)(d + 4),
				   mlx5v_tx_avx2_dsegs(a23, b23, doff, addr, blen, lk));
		sum = _mm256_add_epi32(sum, _mm256_add_epi32(b01, b23));
	}
	/* pkt_len (= data_len) sums at dword 1 of each lane: at most 61 packets below 64 KiB. */
	s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
	bytes = (uint32_t)_mm_extract_epi32(s, 1);
	if (p == pkts + kmax)
		return TX_LEAN_RET(kmax, bytes);
	r = mlx5v_tx_lean_dsegs(p, ep, d, (unsigned int)(pkts + kmax - p), lkey);
	return TX_LEAN_RET((p - pkts) + TX_LEAN_K(r), bytes + TX_LEAN_BYTES(r));
}
#endif

/* mlx5v_tx_lean_dsegs() in the AVX2 loop where the queue runs it (txq->avx2), else scalar. */
static __rte_always_inline uint64_t
mlx5v_tx_lean_dsegs_pick(const struct mlx5v_txq *txq, struct rte_mbuf **pkts, struct rte_mbuf **ep,
			 uint64_t *d, unsigned int kmax, rte_be32_t lkey)
{
#if TX_AVX2
	if (txq->avx2)
		return mlx5v_tx_lean_dsegs_avx2(pkts, ep, d, kmax, lkey);
#else
	RTE_SET_USED(txq);
#endif
	return mlx5v_tx_lean_dsegs(pkts, ep, d, kmax, lkey);
}

/*
 * The multi-packet WQE at pi of the k packets whose data segments are written, their list
 * entries from head on (control segment from the template, Ethernet segment zero: no
 * checksums, no inline header). @return its WQEBBs.
 */
static __rte_always_inline unsigned int
mlx5v_tx_lean_wqe(struct mlx5v_txq *txq, uint64_t *w, uint16_t pi, uint32_t head, unsigned int k)
{
	w[0] = txq->mpw_ctrl[0] |
	       mlx5v_tx_word_dw(0, (uint32_t)pi << MLX5V_IFC_SHIFT(wqe_ctrl_seg, wqe_index)) |
	       mlx5v_tx_word_dw(1, 2 + k);
	w[1] = txq->mpw_ctrl[1];
	w[2] = 0;
	w[3] = 0;
	txq->wqe_elts[pi & txq->wqe_mask] = head;
	return (2 + k + 3) / 4;
}

/* The end of a lean burst of i packets whose last WQE is at w: counters, doorbell. */
static __rte_always_inline void
mlx5v_tx_lean_end(struct mlx5v_txq *txq, uint32_t head, uint16_t pi, unsigned int i, uint32_t bytes,
		  const uint64_t *w)
{
	txq->elts_head = head;
	txq->wqe_pi = pi;
	txq->packets += i;
	txq->bytes += bytes;
	mlx5v_tx_ring(txq, (const uint8_t *)w);
}

/*
 * The lean burst when it does not fit one WQE (more packets than a WQE takes, the ring or
 * the list ending), or after a packet of several segments (r: what mlx5v_tx_lean_dsegs_pick()
 * returned for the first WQE, written already; 0 when nothing was written): WQEs
 * cut where the ring or the list ends; a packet of more segments and what follows it go the
 * general way (mlx5v_tx_burst_empw()), after a doorbell for what is written.
 */
static __rte_noinline uint16_t
mlx5v_tx_burst_lean_cut(struct mlx5v_txq *txq, struct rte_mbuf **pkts, uint16_t n, uint64_t r)
{
	const rte_be32_t lkey = rte_cpu_to_be_32(txq->lkey);
	const uint32_t emask = txq->elts_mask;
	const uint16_t mask = txq->wqe_mask;
	uint16_t pi = txq->wqe_pi;
	unsigned int room = txq->nb_desc - (uint16_t)(pi - txq->wqe_ci);
	uint32_t head = txq->elts_head;
	unsigned int i = 0, k = 0, kmax = 0, bbs;
	uint64_t *w, *last = NULL;
	uint32_t bytes = 0;

	for (;;) {
		if (r != 0) {
			/* The first WQE is written already. */
			w = (uint64_t *)(txq->wqes + (size_t)(pi & mask) * MLX5V_WQE_BB);
			kmax = n;
		} else {
			if (i == n)
				break;
			kmax = RTE_MIN(room, (unsigned int)txq->nb_desc - (pi & mask)) * 4;
			if (kmax <= 2)
				break;
			kmax = RTE_MIN(RTE_MIN(n - i, (unsigned int)txq->mpw_kmax), kmax - 2);
			kmax = RTE_MIN(kmax, emask + 1 - (head & emask));
			w = (uint64_t *)(txq->wqes + (size_t)(pi & mask) * MLX5V_WQE_BB);
			r = mlx5v_tx_lean_dsegs_pick(txq, &pkts[i], &txq->elts[head & emask], w + 4,
						     kmax, lkey);
		}
		k = TX_LEAN_K(r);
		bytes += TX_LEAN_BYTES(r);
		r = 0;
		if (k == 0)
			break;
		bbs = mlx5v_tx_lean_wqe(txq, w, pi, head, k);
		last = w;
		head += k;
		i += k;
		pi += bbs;
		room -= bbs;
		if (k < kmax)
			break;
	}
	if (last != NULL)
		mlx5v_tx_lean_end(txq, head, pi, i, bytes, last);
	/* A packet of several segments (or no room, which the general way finds too). */
	if (i < n && room != 0)
		return (uint16_t)(i + mlx5v_tx_burst_empw(txq, pkts + i, n - i, 1));
	return (uint16_t)i;
}

/*
 * The burst of a queue whose offloads promise plain packets (txq->lean: enhanced
 * multi-packet WQEs, MBUF_FAST_FREE with the pool mapped, no checksum, VLAN or TSO
 * offload): one-segment packets in multi-packet WQEs of up to mpw_kmax packets, each
 * asking for a CQE (doc/guides/prm/mlx5_empw.rst). A burst that fits one WQE, with its
 * WQEBBs free up to the ring's end and its list entries up to theirs, is that one WQE;
 * the others are cut by mlx5v_tx_burst_lean_cut().
 */
static __rte_always_inline uint16_t
mlx5v_tx_burst_lean_txq(struct mlx5v_txq *txq, struct rte_mbuf **pkts, uint16_t n)
{
	const uint16_t pi = txq->wqe_pi;
	const uint32_t head = txq->elts_head;
	const unsigned int bbs = (n + 2 + 3) / 4;
	const uint16_t idx = pi & txq->wqe_mask;
	uint64_t *w;
	uint64_t r;

	if (unlikely(n == 0 || n > txq->mpw_kmax ||
		     bbs > (unsigned int)(uint16_t)(txq->nb_desc - (uint16_t)(pi - txq->wqe_ci)) ||
		     bbs > (unsigned int)(txq->nb_desc - idx) ||
		     n > txq->elts_mask + 1 - (head & txq->elts_mask)))
		return n == 0 ? 0 : mlx5v_tx_burst_lean_cut(txq, pkts, n, 0);
	w = (uint64_t *)(txq->wqes + (size_t)idx * MLX5V_WQE_BB);
	r = mlx5v_tx_lean_dsegs_pick(txq, pkts, &txq->elts[head & txq->elts_mask], w + 4, n,
				     rte_cpu_to_be_32(txq->lkey));
	if (unlikely(TX_LEAN_K(r) != n))
		return mlx5v_tx_burst_lean_cut(txq, pkts, n, r);
	mlx5v_tx_lean_wqe(txq, w, pi, head, n);
	mlx5v_tx_lean_end(txq, head + n, pi + bbs, n, TX_LEAN_BYTES(r), w);
	return n;
}

uint16_t
mlx5v_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5v_txq *txq = q;

	if (unlikely(!txq->ready))
		return 0;
	/* Completions first, when due: they make room and give the mbufs back. */
	if (unlikely(txq->recover) || mlx5v_tx_reap_due(txq))
		mlx5v_tx_reap(txq);
	/* An SQ in ERR sends nothing until it is back to RDY. */
	if (unlikely(txq->recover))
		return 0;
	if (txq->empw && txq->fast_free && txq->mp_last != NULL)
		return mlx5v_tx_burst_empw(txq, pkts, n, 1);
	if (txq->empw)
		return mlx5v_tx_burst_empw(txq, pkts, n, 0);
	if (txq->min_inline == TX_FAST_INL)
		return mlx5v_tx_burst_txq(txq, pkts, n, 1, TX_FAST_INL);
	if (txq->min_inline == 0)
		return mlx5v_tx_burst_txq(txq, pkts, n, 1, 0);
	return mlx5v_tx_burst_txq(txq, pkts, n, 0, 0);
}

/*
 * The burst of a port whose Tx queues are all lean (mlx5v_tx_burst_pick()): what the
 * general entry does, with only the lean burst behind it once the queue's pool is mapped
 * (its first packet goes the general way, which maps it).
 */
static uint16_t
mlx5v_tx_burst_lean(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5v_txq *txq = q;
	int due;

	if (unlikely(!txq->ready || txq->recover || txq->mp_last == NULL))
		return mlx5v_tx_burst(q, pkts, n);
	/* Completions first, when due: they make room and give the mbufs back. */
	due = mlx5v_tx_lean_reap_due(txq);
	if (unlikely(due != 0) && (due != TX_REAP_SEEN || mlx5v_tx_lean_reap(txq) != 0)) {
		mlx5v_tx_reap(txq);
		/* An SQ in ERR sends nothing until it is back to RDY. */
		if (unlikely(txq->recover))
			return 0;
	}
	return mlx5v_tx_burst_lean_txq(txq, pkts, n);
}

eth_tx_burst_t
mlx5v_tx_burst_pick(const struct rte_eth_dev *eth_dev)
{
	const struct mlx5v_txq *txq;
	uint16_t i;

	for (i = 0; i < eth_dev->data->nb_tx_queues; i++) {
		txq = eth_dev->data->tx_queues[i];
		if (txq == NULL || !txq->lean)
			return mlx5v_tx_burst;
	}
	return mlx5v_tx_burst_lean;
}

void
mlx5v_txq_tmpl_init(struct mlx5v_txq *txq)
{
	const uint16_t inl = txq->min_inline == TX_FAST_INL ? TX_FAST_INL : 0;
	uint8_t w[MLX5V_WQE_BB];
	uint8_t *eseg = w + TX_ESEG_OFF;

	memset(w, 0, sizeof(w));
	MLX5V_SET(wqe_ctrl_seg, w, opcode, MLX5V_WQE_OPC_SEND);
	MLX5V_SET(wqe_ctrl_seg, w, sqn, txq->sqn);
	MLX5V_SET(wqe_ctrl_seg, w, ds, TX_FAST_DS(inl));
	MLX5V_SET(wqe_eth_seg, eseg, inline_hdr_sz, inl);
	MLX5V_SET(wqe_data_seg, w + (TX_FAST_DS(inl) - 1) * MLX5V_WQE_DS, lkey, txq->lkey);
	memcpy(txq->tmpl, w, sizeof(txq->tmpl));
	/* The control segment of a multi-packet WQE: wqe_index and ds 0, a CQE asked for. */
	memset(w, 0, sizeof(w));
	MLX5V_SET(wqe_ctrl_seg, w, opcode, MLX5V_WQE_OPC_EMPW);
	MLX5V_SET(wqe_ctrl_seg, w, sqn, txq->sqn);
	MLX5V_SET(wqe_ctrl_seg, w, ce, MLX5V_WQE_CE_ALWAYS);
	memcpy(txq->mpw_ctrl, w, sizeof(txq->mpw_ctrl));
	/* The AVX2 loops where they are built, the CPU has AVX2 and EAL allows it. */
	txq->avx2 = TX_AVX2 && mlx5v_avx2_ok();
	/* Packets with these take the general path (and a pool to map, at first). */
	txq->slow_flags = RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK |
			  RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL;
	if (txq->vlan_insert)
		txq->slow_flags |= RTE_MBUF_F_TX_VLAN;
}

int
mlx5v_tx_done_cleanup(void *q, uint32_t free_cnt)
{
	struct mlx5v_txq *txq = q;

	RTE_SET_USED(free_cnt);
	/* ethdev 22.11 hands over a queue id that was configured but never set up as NULL. */
	if (txq == NULL)
		return -EINVAL;
	if (!txq->ready)
		return 0;
	return (int)mlx5v_tx_reap(txq);
}

void
mlx5v_txq_reset(struct mlx5v_txq *txq)
{
	txq->wqe_pi = 0;
	txq->wqe_ci = 0;
	txq->elts_head = 0;
	txq->elts_tail = 0;
	txq->alone = 0;
	txq->cq_ci = 0;
	txq->cq_seen = 0;
	txq->recover = 0;
	txq->mp_last = NULL;
	*txq->dbrec = 0;
}

void
mlx5v_txq_sync(struct mlx5v_txq *txq)
{
	uint32_t cq_ci = txq->cq_ci;

	/*
	 * The SQ is in RST: the device writes no CQE after those already written (their owner
	 * bit gives them, prm/mlx5_eth §8.1). They are skipped, the record says so, and every
	 * packet still posted goes back; the SQ starts again at WQE 0 (prm/mlx5_eth §5.2), the CQ
	 * goes on.
	 */
	while (rte_pmd_mlx5v_cq_next_cqe(txq->cqes, txq->cq_nent, cq_ci) != NULL)
		cq_ci++;
	if (cq_ci != txq->cq_ci)
		rte_pmd_mlx5v_cq_update_ci(txq->cq_dbrec, cq_ci);
	mlx5v_txq_drain(txq);
	mlx5v_txq_reset(txq);
	txq->cq_ci = cq_ci;
}

void
mlx5v_txq_drain(struct mlx5v_txq *txq)
{
	struct rte_mbuf *m;

	if (txq->elts == NULL)
		return;
	/* The packets in flight are the queue's; the other slots are stale. */
	for (; txq->elts_tail != txq->elts_head; txq->elts_tail++) {
		m = txq->elts[txq->elts_tail & txq->elts_mask];
		rte_pktmbuf_free((struct rte_mbuf *)((uintptr_t)m & ~TX_ELT_ALONE));
	}
	txq->alone = 0;
	txq->wqe_ci = txq->wqe_pi;
}

uint64_t
mlx5v_tx_offload_capa(const struct mlx5v_ethdev_caps *caps)
{
	uint64_t capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;

	if (caps->csum_cap)
		capa |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
			RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	if (caps->wqe_vlan_insert)
		capa |= RTE_ETH_TX_OFFLOAD_VLAN_INSERT;
	/*
	 * LSO needs the checksums of every segment (prm/mlx5_eth §3.3, §6.5), and a send WQE
	 * with room for the inlined headers and a data segment.
	 */
	if (caps->max_lso_cap != 0 && caps->csum_cap && mlx5v_tx_max_segs(caps, 1) != 0)
		capa |= RTE_ETH_TX_OFFLOAD_TCP_TSO;
	return capa;
}

unsigned int
mlx5v_tx_max_segs(const struct mlx5v_ethdev_caps *caps, int tso)
{
	uint32_t inl = caps->min_inline;
	uint32_t ds;

	if (tso)
		inl = TX_TSO_INLINE_MAX;
	else if (caps->wqe_vlan_insert && !caps->hw_vlan_insert)
		/* A tag goes into the inlined header, the L2 one at least (prm/mlx5_eth §6.3). */
		inl = RTE_MAX(inl, MLX5V_WQE_L2_INLINE) + RTE_VLAN_HLEN;
	/* The DS left after control, Ethernet segment and inline header (prm/mlx5_eth §6.1). */
	ds = 2 + TX_INL_DS(inl);
	return caps->max_wqe_ds > ds ? caps->max_wqe_ds - ds : 0;
}

int
mlx5v_tx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_burst_mode *mode)
{
	const struct mlx5v_txq *txq = eth_dev->data->tx_queues[idx];

	if (txq == NULL)
		return -EINVAL;
	mode->flags = 0;
	if (txq->lean)
		snprintf(mode->info, sizeof(mode->info),
			 "%s enhanced MPW, lean (MBUF_FAST_FREE, no offloads: only the "
			 "segment count checked), up to %u packets per WQE",
			 txq->avx2 ? "AVX2" : "Scalar", txq->mpw_kmax);
	else if (txq->empw)
		snprintf(mode->info, sizeof(mode->info),
			 "Scalar enhanced MPW (up to %u packets per WQE, one CQE each), SEND "
			 "for offloads", txq->comp_thresh);
	else
		snprintf(mode->info, sizeof(mode->info),
			 "Scalar SEND from a template, %u B inline header, CQE every %u packets "
			 "and per burst", txq->min_inline, txq->comp_thresh);
	return 0;
}
