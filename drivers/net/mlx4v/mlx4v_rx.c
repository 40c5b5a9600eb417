/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Rx burst of the mlx4v PMD, on the mlx4dv views of a receive WQ and its CQ only: a cyclic
 * ring of WQEs of 2^sges_log data segments (one mbuf each; several for scattered Rx), every
 * WQE posted again with fresh mbufs as soon as its CQE is read; packet type, checksum
 * verdicts and RSS hash from the CQE; error CQEs counted and their WQE posted again with the
 * same buffers (doc/guides/prm/mlx4.rst §4.3, §4.5, §4.6, §5.1). On x86 the CQEs of one-mbuf
 * WQEs are read four at a time with SSE, the scalar loop taking what is left.
 */

#include <stdio.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
#include <rte_vect.h>
/* Four CQEs at a time with SSE (mlx4v_rx_burst_vec()); other architectures run the scalar loop. */
#define RX_VEC 1
#else
#define RX_VEC 0
#endif

#include "mlx4v_ethdev.h"
#include "mlx4v_prm_eth.h"
#include "mlxv_rx_sg.h"

/* Data segments are 16 bytes; a WQE of 2^sges_log of them is 2^(4 + sges_log) bytes. */
#define RX_DSEG_SHIFT 4
/* How long the control thread waits before taking a WQ in error through RESET (us). */
#define RX_RECOVER_DELAY_US 100u
/* How long before a failed recovery is tried again (us). */
#define RX_RECOVER_RETRY_US 100000u
/* Frames one burst takes at most (the replacement mbufs come in one bulk get). */
#define RX_BURST_MAX 64
_Static_assert(RX_BURST_MAX <= MLX4V_ETH_RX_STOCK, "the stock holds a burst's mbufs");

/*
 * Packet type and offload flags by the CQE status bits that say something about them
 * (prm/mlx4 §4.6), looked up by mlx4v_rx_status_idx() of the status word as it lies in the CQE
 * (big-endian).
 */
struct rx_kind {
	uint32_t ptype;
	uint32_t zero;       /* 0: mlx4v_rx_burst_vec() ORs pkt_len over it */
	uint64_t flags;
} __rte_aligned(16);

#define RX_KIND_N 512
/*
 * One table per set of Rx offloads asked (bit 0: checksums, bit 1: RSS hash), its flags
 * already reduced to those: mlx4v_rx_kinds_of().
 */
static struct rx_kind mlx4v_rx_kinds[4][RX_KIND_N];

/* The status bits the table depends on, nine of them (prm/mlx4 §4.6). */
#define RX_STATUS_BITS (MLX4V_CQE_STATUS_L4_CSUM_OK | MLX4V_CQE_STATUS_IPV6F | \
			MLX4V_CQE_STATUS_IPV4 | MLX4V_CQE_STATUS_IPV4F | MLX4V_CQE_STATUS_IPV6 | \
			MLX4V_CQE_STATUS_IPV4OPT | MLX4V_CQE_STATUS_TCP | MLX4V_CQE_STATUS_UDP | \
			MLX4V_CQE_STATUS_IP_CSUM_OK)
/*
 * The nine bits gathered into 9 index bits by one multiplication of the unswapped word: the
 * top 9 bits of the 32-bit product take 512 different values over the 512 combinations of
 * the bits (checked when the table is made), so no byte swap and no shifts per CQE.
 */
#define RX_STATUS_MUL 0xd801a621u

#if RTE_BYTE_ORDER != RTE_LITTLE_ENDIAN
#error "the CQE status index takes the big-endian word as a little-endian load reads it"
#endif

/* raw: the status word as loaded from the CQE, not swapped. */
static inline uint32_t
mlx4v_rx_status_idx(uint32_t raw)
{
	return ((raw & RTE_STATIC_BSWAP32((uint32_t)RX_STATUS_BITS)) * RX_STATUS_MUL) >> 23;
}

/* Entry idx of the four tables: flags reduced to the offloads of each. */
static void
mlx4v_rx_kinds_set(uint32_t idx, uint32_t ptype, uint64_t flags)
{
	const uint64_t csum = RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK;
	uint32_t t;

	for (t = 0; t < RTE_DIM(mlx4v_rx_kinds); t++) {
		mlx4v_rx_kinds[t][idx].ptype = ptype;
		mlx4v_rx_kinds[t][idx].flags = flags & (((t & 1) ? csum : 0) |
							((t & 2) ? RTE_MBUF_F_RX_RSS_HASH : 0));
	}
}

/* The table of the offloads an Rx queue asked for. */
static const struct rx_kind *
mlx4v_rx_kinds_of(const struct mlx4v_rxq *rxq)
{
	return mlx4v_rx_kinds[(rxq->csum ? 1 : 0) | (rxq->rss_hash ? 2 : 0)];
}

/* The entry of every combination of the bits, once at load time. */
RTE_INIT(mlx4v_rx_kinds_init)
{
	static uint8_t seen[RX_KIND_N];
	uint32_t i, b, j, st, ptype, flags, idx;
	int frag, ip4, ip6;

	for (i = 0; i < RX_KIND_N; i++) {
		/* The i-th combination: bit j of i selects the j-th bit of RX_STATUS_BITS. */
		for (st = 0, b = 0, j = 0; b < 32; b++)
			if ((RX_STATUS_BITS >> b) & 1)
				st |= ((i >> j++) & 1u) << b;
		idx = mlx4v_rx_status_idx(rte_bswap32(st));
		if (seen[idx]++ != 0)
			MLX4V_ETH_LOG(ERR, "Rx status index: %u taken twice", idx);
		ip4 = !!(st & MLX4V_CQE_STATUS_IPV4);
		ip6 = !!(st & MLX4V_CQE_STATUS_IPV6);
		/*
		 * A fragment bit counts with its own IP version's bit only (prm/mlx4 §4.6, as
		 * DPDK).
		 */
		frag = (ip4 && (st & MLX4V_CQE_STATUS_IPV4F)) ||
		       (ip6 && (st & MLX4V_CQE_STATUS_IPV6F));
		ptype = RTE_PTYPE_L2_ETHER;
		flags = 0;
		if (ip4) {
			ptype |= (st & MLX4V_CQE_STATUS_IPV4OPT) ? RTE_PTYPE_L3_IPV4_EXT :
								   RTE_PTYPE_L3_IPV4;
			/*
			 * IPv6 has no header checksum: its verdict says nothing. A clear OK bit
			 * is no verdict either (the port may not have checked): UNKNOWN, never
			 * BAD, as DPDK's mlx4 and libmlx4 read it (prm/mlx4 §4.6).
			 */
			if (st & MLX4V_CQE_STATUS_IP_CSUM_OK)
				flags |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
		} else if (ip6) {
			ptype |= RTE_PTYPE_L3_IPV6_EXT_UNKNOWN;
		}
		if (!ip4 && !ip6) {
			mlx4v_rx_kinds_set(idx, ptype, flags);
			continue;
		}
		/* The hash of an RSS QP covers IP frames only. */
		flags |= RTE_MBUF_F_RX_RSS_HASH;
		if (frag)
			ptype |= RTE_PTYPE_L4_FRAG;
		else if (st & MLX4V_CQE_STATUS_TCP)
			ptype |= RTE_PTYPE_L4_TCP;
		else if (st & MLX4V_CQE_STATUS_UDP)
			ptype |= RTE_PTYPE_L4_UDP;
		else
			ptype |= RTE_PTYPE_L4_NONFRAG;
		/*
		 * A TCP/UDP verdict only where the port says it checked: whole datagram, good IP,
		 * the OK bit; otherwise UNKNOWN, never BAD (prm/mlx4 §4.6).
		 */
		if (!frag && (st & (MLX4V_CQE_STATUS_TCP | MLX4V_CQE_STATUS_UDP)) &&
		    (st & MLX4V_CQE_STATUS_IP_CSUM_OK) && (st & MLX4V_CQE_STATUS_L4_CSUM_OK))
			flags |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
		mlx4v_rx_kinds_set(idx, ptype, flags);
	}
}

/*
 * An error CQE. A receive error may move the WQ to ERR (it does so to a QP under IB
 * semantics; for a ConnectX-3 RWQ no source settles it, prm/mlx4 §4.6): a WQ in ERR completes every
 * posted WQE with WR_FLUSH_ERR, so a flush is what says it, and the queue is reset after the
 * burst (mlx4v_rx_recover_start()). Other errors are counted; their WQE is posted again.
 */
static inline void
mlx4v_rx_error_cqe(struct mlx4v_rxq *rxq, const volatile struct mlx4_cqe *cqe)
{
	if (((const volatile struct mlx4_err_cqe *)cqe)->syndrome ==
	    MLX4_CQE_SYNDROME_WR_FLUSH_ERR)
		rxq->err_seen = 1;
	else
		rxq->errors++;
}

/* data_off, refcnt, nb_segs and port of m: one 64-bit word (rte_mbuf's rearm_data). */
static inline uint64_t *
mlx4v_rx_rearm(struct rte_mbuf *m)
{
	return (uint64_t *)((uintptr_t)m + offsetof(struct rte_mbuf, rearm_data));
}

/* The 32-byte CQE at running index ci (the second half of a 64-byte slot, prm/mlx4 §4.6). */
static inline volatile struct mlx4_cqe *
mlx4v_rx_cqe(const struct mlx4v_rxq *rxq, uint32_t ci)
{
	return (volatile struct mlx4_cqe *)(rxq->cqes +
					    ((size_t)(ci & rxq->cq_mask) << rxq->cqe_shift));
}

/*
 * Owner-bit check: the CQE at ci is software's when its owner bit equals the pass parity of
 * ci, bit log2(cqe_cnt) (prm/mlx4 §4.6); the device writes the owner byte last.
 */
static inline int
mlx4v_rx_cqe_ready(const struct mlx4v_rxq *rxq, const volatile struct mlx4_cqe *cqe, uint32_t ci)
{
	return !(((cqe->owner_sr_opcode >> 7) ^ (ci >> rxq->cq_log)) & 1);
}

/* The data segment k of WQE slot w. */
static inline struct mlx4_wqe_data_seg *
mlx4v_rx_dseg(const struct mlx4v_rxq *rxq, uint32_t w, uint32_t k)
{
	return (struct mlx4_wqe_data_seg *)(rxq->wqes +
		((((size_t)w << rxq->sges_log) + k) << RX_DSEG_SHIFT));
}

/*
 * Point a data segment at m's buffer; byte_count stays as the fill wrote it, and so does the
 * lkey of a pool of one VA range (the fast path). A pool over holes has an lkey per range:
 * the one of the range holding the buffer (a buffer never crosses a range's end).
 */
static inline void
mlx4v_rx_dseg_set(const struct mlx4v_rxq *rxq, struct mlx4_wqe_data_seg *dseg, struct rte_mbuf *m)
{
	uintptr_t addr = (uintptr_t)m->buf_addr + RTE_PKTMBUF_HEADROOM;
	uint32_t lkey = rxq->lkey;

	if (unlikely(rxq->mr_n > 1)) {
		/* Not in the pool's memory (cannot be): the first range's, the device refuses. */
		(void)mlx4v_mr_range_lkey(rxq->mr_ranges, rxq->mr_n, addr, &lkey);
		dseg->lkey = rte_cpu_to_be_32(lkey);
	}
	dseg->addr = rte_cpu_to_be_64(addr);
}

/* What the CQE says about the frame: kind, checksums, hash (prm/mlx4 §4.6). */
static inline void
mlx4v_rx_cqe_to_mbuf(const struct mlx4v_rxq *rxq, const volatile struct mlx4_cqe *cqe,
		     struct rte_mbuf *m)
{
	const struct rx_kind *k = &mlx4v_rx_kinds_of(rxq)[mlx4v_rx_status_idx(cqe->status)];

	m->packet_type = k->ptype;
	m->ol_flags = k->flags;
	/* The Toeplitz hash of the RSS QP, big-endian in immed_rss_invalid (prm/mlx4 §4.6). */
	m->hash.rss = rte_be_to_cpu_32(cqe->immed_rss_invalid);
}

/*
 * An error CQE: the frame is lost, its WQE keeps its buffers and is posted again. Called only
 * on a CQE whose owner bit was already seen as software's, after the read barrier: the device
 * writes the opcode in the owner byte, last, and never again until set_ci_db gives the slot
 * back, so a CQE written late can never be taken for an error here (the bursts check the owner
 * bit once and classify by the opcode read after it, never by a second owner check).
 */
static inline int
mlx4v_rx_cqe_is_error(const volatile struct mlx4_cqe *cqe)
{
	return (cqe->owner_sr_opcode & MLX4_CQE_OPCODE_MASK) == MLX4_CQE_OPCODE_ERROR;
}

/*
 * No replacement mbufs: the k frames waiting are dropped, each WQE keeps its buffer and is
 * posted again as it is. @return 0 (frames received).
 */
static __rte_noinline uint16_t
mlx4v_rx_burst_drop(struct mlx4v_rxq *rxq, uint16_t n)
{
	uint32_t ci = rxq->cq_ci, k;

	for (k = 0; k < n; k++)
		if (!mlx4v_rx_cqe_ready(rxq, mlx4v_rx_cqe(rxq, ci + k), ci + k))
			break;
	rxq->nombuf += k;
	rxq->cq_ci = ci + k;
	rxq->rq_tail += k;
	rxq->rq_ci += k;
	return 0;
}

/*
 * The replacement mbufs of a burst of up to n frames: the top n pointers of the mempool's
 * cache of this lcore when it holds that many (taken there, no copy; mlx4v_rx_mbufs_done() drops
 * the ones used from it), else n from rte_mempool_get_bulk() into the queue's stock. The j-th
 * replacement is (*top)[-1 - j]. @return 0, or -1 without mbufs.
 */
static __rte_always_inline int
mlx4v_rx_mbufs_take(struct mlx4v_rxq *rxq, uint32_t n, struct rte_mempool_cache **cache,
		    struct rte_mbuf ***top)
{
	struct rte_mempool_cache *c = rte_mempool_default_cache(rxq->mp, rte_lcore_id());

	if (likely(c != NULL && c->len >= n)) {
		*cache = c;
		*top = (struct rte_mbuf **)&c->objs[c->len];
		return 0;
	}
	*cache = NULL;
	if (rte_mempool_get_bulk(rxq->mp, (void **)rxq->stock, n) != 0)
		return -1;
	*top = &rxq->stock[n];
	return 0;
}

/* used of the n replacements of mlx4v_rx_mbufs_take() went into the ring; the rest go back. */
static inline void
mlx4v_rx_mbufs_done(struct mlx4v_rxq *rxq, uint32_t n, uint32_t used,
		    struct rte_mempool_cache *cache)
{
	if (likely(cache != NULL))
		cache->len -= used;
	else if (used < n)
		rte_mempool_put_bulk(rxq->mp, (void **)rxq->stock, n - used);
}

#if RX_VEC
/* The mbuf words mlx4v_rx_burst_vec() writes in two 16-byte stores. */
_Static_assert(offsetof(struct rte_mbuf, ol_flags) == offsetof(struct rte_mbuf, rearm_data) + 8,
	       "rearm_data and ol_flags in one store");
_Static_assert(offsetof(struct rte_mbuf, pkt_len) ==
	       offsetof(struct rte_mbuf, rx_descriptor_fields1) + 4 &&
	       offsetof(struct rte_mbuf, packet_type) ==
	       offsetof(struct rte_mbuf, rx_descriptor_fields1) &&
	       offsetof(struct rte_mbuf, data_len) ==
	       offsetof(struct rte_mbuf, rx_descriptor_fields1) + 8 &&
	       offsetof(struct rte_mbuf, hash) ==
	       offsetof(struct rte_mbuf, rx_descriptor_fields1) + 12,
	       "packet_type, pkt_len, data_len, vlan_tci, hash in one store");

/*
 * Frame k of a group of four: rx_descriptor_fields1 of its mbuf (packet type from e, the
 * kind's entry; pkt_len and data_len from lens, the four byte counts; vlan_tci and hash 0)
 * and rearm_data with ol_flags, in two stores.
 */
static __rte_always_inline void
mlx4v_rx_vec_mbuf(struct rte_mbuf *m, const struct rx_kind *kind, __m128i lens, __m128i shuf,
		  __m128i init)
{
	__m128i e = _mm_load_si128((const __m128i *)kind);
	__m128d r = _mm_move_sd(_mm_castsi128_pd(e), _mm_castsi128_pd(init));

	_mm_storeu_si128((__m128i *)(void *)&m->rx_descriptor_fields1,
			 _mm_or_si128(_mm_move_epi64(e), _mm_shuffle_epi8(lens, shuf)));
	/* rearm_data from init, ol_flags from the entry. */
	_mm_storeu_si128((__m128i *)(void *)&m->rearm_data, _mm_castpd_si128(r));
}

/* The entry at byte offset off of a table (an index times the entry size). */
#define RX_VEC_KIND(kinds, off) \
	((const struct rx_kind *)(const void *)((const uint8_t *)(kinds) + (uint32_t)(off)))

/*
 * Two slots and their data segments at two fresh mbufs r (byte count and lkey stay as the fill
 * wrote them): a buffer lies at buf_off from its mbuf less the headroom (mlx4v_rxq_fill()).
 */
static __rte_always_inline void
mlx4v_rx_vec_refill(struct rte_mbuf **elts, struct mlx4_wqe_data_seg *dsegs, __m128i r,
		    __m128i buf_off, __m128i bswap64)
{
	__m128i a = _mm_shuffle_epi8(_mm_add_epi64(r, buf_off), bswap64);

	_mm_storeu_si128((__m128i *)(void *)elts, r);
	_mm_storel_epi64((__m128i *)(void *)&dsegs[0].addr, a);
	_mm_storeh_pd((double *)(void *)&dsegs[1].addr, _mm_castsi128_pd(a));
}

/* Byte b of the 32-bit lane k of a vector: a shuffle index. */
#define RX_VEC_B(k, b) ((char)(4 * (k) + (b)))
/* A shuffle of lane k's byte count (CPU order) to pkt_len and data_len, zero elsewhere. */
#define RX_VEC_LEN(k) _mm_setr_epi8(-1, -1, -1, -1, RX_VEC_B(k, 0), RX_VEC_B(k, 1), \
				    RX_VEC_B(k, 2), RX_VEC_B(k, 3), RX_VEC_B(k, 0), \
				    RX_VEC_B(k, 1), -1, -1, -1, -1, -1, -1)

/*
 * The frames of whole groups of four CQEs, none of them an error, from the CQE at c on (its
 * slots from elts and dsegs on, which do not wrap before n; own: the owner bit of this pass):
 * owner bits, byte counts and status words of the four read together, the status table index
 * of the four by one multiplication, each mbuf in two 16-byte stores, its slot refilled from
 * top (the j-th replacement is top[-1 - j]). Stops before the first group with a CQE the
 * device still owns or an error CQE (the scalar loop goes on from there). @return the frames
 * taken (a multiple of four, as many CQEs); *bytes added to.
 */
static __rte_always_inline uint32_t
mlx4v_rx_burst_vec(const struct mlx4v_rxq *rxq, const uint8_t *c, const uint32_t stride, uint32_t n,
		   struct rte_mbuf **elts, struct mlx4_wqe_data_seg *dsegs, struct rte_mbuf **pkts,
		   struct rte_mbuf **top, int own, uint64_t *bytes, const int rss)
{
	const __m128i bswap32 = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8,
					      15, 14, 13, 12);
	const __m128i st_bits = _mm_set1_epi32((int)RTE_STATIC_BSWAP32((uint32_t)RX_STATUS_BITS));
	const __m128i st_mul = _mm_set1_epi32((int)RX_STATUS_MUL);
	const __m128i op_mask = _mm_set1_epi32((int)((uint32_t)MLX4_CQE_OPCODE_MASK << 24));
	const __m128i op_err = _mm_set1_epi32((int)((uint32_t)MLX4_CQE_OPCODE_ERROR << 24));
	const __m128i bswap64 = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
	const __m128i init = _mm_set_epi64x(0, (int64_t)rxq->mbuf_init);
	const __m128i buf_off = _mm_set1_epi64x(rxq->buf_off);
	/* This process's table: its address is not the primary's. */
	const struct rx_kind *kinds = mlx4v_rx_kinds_of(rxq);
	const int own_m = own ? 0xf : 0;
	__m128i h0, h1, h2, h3, b0, b1, b2, b3, ow, st, lens, idx, acc = _mm_setzero_si128();
	struct rte_mbuf *m0, *m1, *m2, *m3;
	uint32_t i;

	for (i = 0; i + 4 <= n; i += 4, c += 4 * stride, elts += 4, dsegs += 4, pkts += 4,
	     top -= 4) {
		/* The owner words (bytes 24-31) of the four first... */
		h0 = _mm_loadl_epi64((const __m128i *)(const void *)(c + 24));
		h1 = _mm_loadl_epi64((const __m128i *)(const void *)(c + stride + 24));
		h2 = _mm_loadl_epi64((const __m128i *)(const void *)(c + 2 * stride + 24));
		h3 = _mm_loadl_epi64((const __m128i *)(const void *)(c + 3 * stride + 24));
		ow = _mm_unpackhi_epi64(_mm_unpacklo_epi32(h0, h1), _mm_unpacklo_epi32(h2, h3));
		/*
		 * ...all four software's: the owner bit is each word's top bit (prm/mlx4 §4.6)...
		 */
		if (_mm_movemask_ps(_mm_castsi128_ps(ow)) != own_m)
			break;
		/* ...then the bodies (prm/mlx4 §4.6; x86 keeps loads in order: rte_io_rmb()). */
		rte_io_rmb();
		if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(ow, op_mask), op_err)) != 0)
			break;
		/* status and byte_cnt (bytes 16-23) of the four, big-endian. */
		b0 = _mm_loadl_epi64((const __m128i *)(const void *)(c + 16));
		b1 = _mm_loadl_epi64((const __m128i *)(const void *)(c + stride + 16));
		b2 = _mm_loadl_epi64((const __m128i *)(const void *)(c + 2 * stride + 16));
		b3 = _mm_loadl_epi64((const __m128i *)(const void *)(c + 3 * stride + 16));
		b0 = _mm_unpacklo_epi32(b0, b1);
		b2 = _mm_unpacklo_epi32(b2, b3);
		st = _mm_unpacklo_epi64(b0, b2);
		lens = _mm_shuffle_epi8(_mm_unpackhi_epi64(b0, b2), bswap32);
		acc = _mm_add_epi32(acc, lens);
		/* mlx4v_rx_status_idx() of the four, times the entry size. */
		idx = _mm_srli_epi32(_mm_mullo_epi32(_mm_and_si128(st, st_bits), st_mul), 23);
		idx = _mm_slli_epi32(idx, 4);
		m0 = elts[0];
		m1 = elts[1];
		m2 = elts[2];
		m3 = elts[3];
		_mm_storeu_si128((__m128i *)(void *)pkts,
				 _mm_loadu_si128((const __m128i *)(const void *)elts));
		_mm_storeu_si128((__m128i *)(void *)(pkts + 2),
				 _mm_loadu_si128((const __m128i *)(const void *)(elts + 2)));
		mlx4v_rx_vec_mbuf(m0, RX_VEC_KIND(kinds, _mm_cvtsi128_si32(idx)), lens,
				  RX_VEC_LEN(0), init);
		mlx4v_rx_vec_mbuf(m1, RX_VEC_KIND(kinds, _mm_extract_epi32(idx, 1)), lens,
				  RX_VEC_LEN(1), init);
		mlx4v_rx_vec_mbuf(m2, RX_VEC_KIND(kinds, _mm_extract_epi32(idx, 2)), lens,
				  RX_VEC_LEN(2), init);
		mlx4v_rx_vec_mbuf(m3, RX_VEC_KIND(kinds, _mm_extract_epi32(idx, 3)), lens,
				  RX_VEC_LEN(3), init);
		if (rss) {
			/* The Toeplitz hash, big-endian in immed_rss_invalid (prm/mlx4 §4.6). */
			m0->hash.rss = rte_be_to_cpu_32(*(const uint32_t *)(c + 4));
			m1->hash.rss = rte_be_to_cpu_32(*(const uint32_t *)(c + stride + 4));
			m2->hash.rss = rte_be_to_cpu_32(*(const uint32_t *)(c + 2 * stride + 4));
			m3->hash.rss = rte_be_to_cpu_32(*(const uint32_t *)(c + 3 * stride + 4));
		}
		/* The four slots refilled from the top of the replacements, in any order. */
		mlx4v_rx_vec_refill(elts, dsegs,
				    _mm_loadu_si128((const __m128i *)(const void *)(top - 4)),
				    buf_off, bswap64);
		mlx4v_rx_vec_refill(elts + 2, dsegs + 2,
				    _mm_loadu_si128((const __m128i *)(const void *)(top - 2)),
				    buf_off, bswap64);
	}
	/* The byte counts of the four lanes. */
	acc = _mm_add_epi32(acc, _mm_srli_si128(acc, 8));
	acc = _mm_add_epi32(acc, _mm_srli_si128(acc, 4));
	*bytes += (uint32_t)_mm_cvtsi128_si32(acc);
	return i;
}

/*
 * mlx4v_rx_burst_vec() for each RSS setting and CQE size (32 or 64 bytes), each a function of its
 * own: constant offsets, the loop's values in registers.
 */
#define RX_VEC_FN(name, rss, stride) \
static __rte_noinline uint32_t \
name(const struct mlx4v_rxq *rxq, const uint8_t *c, uint32_t n, struct rte_mbuf **elts, \
     struct mlx4_wqe_data_seg *dsegs, struct rte_mbuf **pkts, struct rte_mbuf **top, int own, \
     uint64_t *bytes) \
{ \
	return mlx4v_rx_burst_vec(rxq, c, stride, n, elts, dsegs, pkts, top, own, bytes, rss); \
}
RX_VEC_FN(mlx4v_rx_burst_vec32, 0, 32)
RX_VEC_FN(mlx4v_rx_burst_vec64, 0, 64)
RX_VEC_FN(mlx4v_rx_burst_vec32_rss, 1, 32)
RX_VEC_FN(mlx4v_rx_burst_vec64_rss, 1, 64)
#endif

/*
 * One frame per WQE of one mbuf (no scatter), in one pass over the CQEs: each frame's mbuf is
 * replaced by one of the mempool's cache (mlx4v_rx_mbufs_take()). The burst stops at the CQ ring's
 * end (the owner parity is the same for all its CQEs; the next burst goes on). Constants in
 * each instance: multi_mr, the pool has an lkey per VA range; rss, the RSS hash was asked for
 * (else hash.rss is left alone, its flag being masked off anyway). @return frames received.
 */
static __rte_always_inline uint16_t
mlx4v_rx_burst_single(struct mlx4v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n, const int multi_mr,
		      const int rss, const int vec)
{
	struct mlx4_wqe_data_seg *dsegs = (struct mlx4_wqe_data_seg *)rxq->wqes;
	uint32_t ci = rxq->cq_ci, tail = rxq->rq_tail, wmask = rxq->wqe_mask;
	struct rte_mbuf **elts = rxq->elts, **top;
	uint64_t bytes = 0, mbuf_init = rxq->mbuf_init;
	const volatile struct mlx4_cqe *cqe;
	uint32_t i, w, len, nrx = 0, left, stride = 1u << rxq->cqe_shift;
	/* This process's table: its address is not the primary's. */
	const struct rx_kind *kinds = mlx4v_rx_kinds_of(rxq);
	struct rte_mempool_cache *cache;
	const struct rx_kind *kind;
	struct rte_mbuf *m, *r;
	uint8_t op, own;

	n = RTE_MIN(n, (uint16_t)RX_BURST_MAX);
	/* The burst stops at the end of the CQ ring and of the WQ ring. */
	left = RTE_MIN(rxq->cq_mask + 1 - (ci & rxq->cq_mask), wmask + 1 - (tail & wmask));
	n = (uint16_t)RTE_MIN((uint32_t)n, left);
	if (unlikely(mlx4v_rx_mbufs_take(rxq, n, &cache, &top) != 0))
		return mlx4v_rx_burst_drop(rxq, n);
	/* The owner bit software's CQEs of this pass carry (prm/mlx4 §4.6). */
	own = (uint8_t)(((ci >> rxq->cq_log) & 1) << 7);
	cqe = mlx4v_rx_cqe(rxq, ci);
	i = 0;
#if RX_VEC
	if (vec) {
		w = tail & wmask;
		i = (stride == 32 ? (rss ? mlx4v_rx_burst_vec32_rss : mlx4v_rx_burst_vec32) :
				    (rss ? mlx4v_rx_burst_vec64_rss : mlx4v_rx_burst_vec64))
			(rxq, (const uint8_t *)(uintptr_t)cqe, n, &elts[w], &dsegs[w], pkts, top,
			 own, &bytes);
		nrx = i;
		cqe = (const volatile struct mlx4_cqe *)((uintptr_t)cqe + (size_t)i * stride);
	}
#else
	RTE_SET_USED(vec);
#endif
	for (; i < n; i++, cqe = (const volatile struct mlx4_cqe *)((uintptr_t)cqe + stride)) {
		op = cqe->owner_sr_opcode;
		if ((op ^ own) & 0x80)
			break;
		/*
		 * The CQE body only after its owner bit (prm/mlx4 §4.6; coherent memory:
		 * rte_io_rmb()).
		 */
		rte_io_rmb();
		w = (tail + i) & wmask;
		if (unlikely((op & MLX4_CQE_OPCODE_MASK) == MLX4_CQE_OPCODE_ERROR)) {
			/* Lost frame: the WQE keeps its buffer and is posted again. */
			mlx4v_rx_error_cqe(rxq, cqe);
			continue;
		}
		m = elts[w];
		len = rte_be_to_cpu_32(cqe->byte_cnt);
		kind = &kinds[mlx4v_rx_status_idx(cqe->status)];
		/* data_off, refcnt, nb_segs and port in one store (the fill's template). */
		*mlx4v_rx_rearm(m) = mbuf_init;
		m->ol_flags = kind->flags;
		m->packet_type = kind->ptype;
		m->pkt_len = len;
		m->data_len = (uint16_t)len;
		/*
		 * The Toeplitz hash of the RSS QP, big-endian in immed_rss_invalid (prm/mlx4 §4.6).
		 */
		if (rss)
			m->hash.rss = rte_be_to_cpu_32(cqe->immed_rss_invalid);
		r = top[-1 - (int32_t)nrx];
		pkts[nrx++] = m;
		bytes += len;
		elts[w] = r;
		if (likely(!multi_mr))
			dsegs[w].addr = rte_cpu_to_be_64((uintptr_t)r->buf_addr +
							 RTE_PKTMBUF_HEADROOM);
		else
			mlx4v_rx_dseg_set(rxq, &dsegs[w], r);
	}
	mlx4v_rx_mbufs_done(rxq, n, nrx, cache);
	rxq->packets += nrx;
	rxq->bytes += bytes;
	rxq->cq_ci = ci + i;
	rxq->rq_tail = tail + i;
	rxq->rq_ci += i;
	return (uint16_t)nrx;
}

_Static_assert((1u << MLX4V_ETH_RX_MAX_SGES_LOG) <= MLXV_RX_SG_MAX, "SGEs of one WQE");

/* mlxv_rx_sg_frame()'s data-segment writer: SGE k of WQE w at m's buffer. */
static __rte_always_inline void
mlx4v_rx_sg_dseg_set(void *q, uint32_t w, uint32_t k, struct rte_mbuf *m)
{
	const struct mlx4v_rxq *rxq = q;

	mlx4v_rx_dseg_set(rxq, mlx4v_rx_dseg(rxq, w, k), m);
}

/* Scattered Rx: a frame spans as many of its WQE's mbufs as it needs. */
static inline uint16_t
mlx4v_rx_burst_scattered(struct mlx4v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	const struct mlxv_rx_sg_ctx sg = {
		.q = rxq, .mp = rxq->mp, .rearm = rxq->mbuf_init, .seg_size = rxq->seg_size,
		.max_segs = 1u << rxq->sges_log, .errors = &rxq->errors, .nombuf = &rxq->nombuf,
	};
	const volatile struct mlx4_cqe *cqe;
	uint32_t ci = rxq->cq_ci, len, w;
	struct rte_mbuf *m;
	uint16_t nrx = 0;

	while (nrx < n) {
		cqe = mlx4v_rx_cqe(rxq, ci);
		if (!mlx4v_rx_cqe_ready(rxq, cqe, ci))
			break;
		/* The body only after the owner bit (prm/mlx4 §4.6). */
		rte_rmb();
		ci++;
		/* An RWQ completes its WQEs in order (prm/mlx4 §4.5). */
		w = rxq->rq_tail & rxq->wqe_mask;
		rxq->rq_tail++;
		rxq->rq_ci++;
		if (unlikely(mlx4v_rx_cqe_is_error(cqe))) {
			mlx4v_rx_error_cqe(rxq, cqe);
			continue;
		}
		len = rte_be_to_cpu_32(cqe->byte_cnt);
		m = mlxv_rx_sg_frame(&sg, &rxq->elts[w << rxq->sges_log], w, len,
				     mlx4v_rx_sg_dseg_set);
		if (unlikely(m == NULL))
			continue;
		mlx4v_rx_cqe_to_mbuf(rxq, cqe, m);
		pkts[nrx++] = m;
		rxq->packets++;
		rxq->bytes += len;
	}
	rxq->cq_ci = ci;
	return nrx;
}

/*
 * EAL alarm (control thread): the WQ may be in ERR after an error CQE. RESET (the device
 * writes no more and forgets its position), the CQEs it wrote meanwhile (flushes) discarded,
 * every WQE posted again as it stands (each holds an mbuf: the burst never leaves a slot
 * empty), RDY; then the burst may use the queue again (prm/mlx4 §4.3, §4.5).
 */
static void
mlx4v_rx_recover_alarm(void *arg)
{
	struct mlx4v_rxq *rxq = arg;
	uint32_t drained = 0;
	int ret;

	if (__atomic_load_n(&rxq->recover, __ATOMIC_ACQUIRE) == 0)
		return;
	ret = rte_pmd_mlx4v_modify_wq(rxq->wq, RTE_PMD_MLX4V_WQS_RESET);
	if (ret != 0)
		goto retry;
	/* Owner-bit check of each CQE left: software's ones are discarded (prm/mlx4 §4.6). */
	while (mlx4v_rx_cqe_ready(rxq, mlx4v_rx_cqe(rxq, rxq->cq_ci), rxq->cq_ci)) {
		rxq->cq_ci++;
		drained++;
	}
	rxq->rq_tail = 0;
	rxq->rq_ci = rxq->wqe_n;
	/* The CQ slots back to the device before the WQEs, as the burst does (prm/mlx4 §4.6). */
	rte_io_wmb();
	*rxq->cqv.set_ci_db = rte_cpu_to_be_32(rxq->cq_ci & 0xffffff);
	/*
	 * Doorbell record: the device counts from 0 after RESET; every WQE is posted
	 * (prm/mlx4 §4.3).
	 */
	rte_io_wmb();
	*rxq->rwq.rdb = rte_cpu_to_be_32(rxq->rq_ci & 0xffff);
	ret = rte_pmd_mlx4v_modify_wq(rxq->wq, RTE_PMD_MLX4V_WQS_RDY);
	if (ret != 0)
		goto retry;
	rxq->recoveries++;
	MLX4V_ETH_LOG(INFO, "port %u Rx queue %u: WQ reset after an error CQE (%u CQEs dropped)",
		      rxq->port_id, rxq->idx, drained);
	/* The indexes above before the burst sees the queue running again. */
	__atomic_store_n(&rxq->recover, 0, __ATOMIC_RELEASE);
	return;
retry:
	MLX4V_ETH_LOG(ERR, "port %u Rx queue %u: WQ recovery failed: %s; trying again",
		      rxq->port_id, rxq->idx, strerror(-ret));
	rte_eal_alarm_set(RX_RECOVER_RETRY_US, mlx4v_rx_recover_alarm, rxq);
}

/* After a burst that read an error CQE: hand the queue to the control thread. */
static void
mlx4v_rx_recover_start(struct mlx4v_rxq *rxq)
{
	rxq->err_seen = 0;
	/* Verbs are the primary's: a secondary leaves the queue as it is. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return;
	__atomic_store_n(&rxq->recover, 1, __ATOMIC_RELEASE);
	/* Failing that, the next error CQE tries again (the queue keeps running meanwhile). */
	if (rte_eal_alarm_set(RX_RECOVER_DELAY_US, mlx4v_rx_recover_alarm, rxq) != 0)
		__atomic_store_n(&rxq->recover, 0, __ATOMIC_RELEASE);
}

void
mlx4v_rxq_recover_cancel(struct mlx4v_rxq *rxq)
{
	/* Waits for a running recovery; none starts after this (the queue is stopping). */
	rte_eal_alarm_cancel(mlx4v_rx_recover_alarm, rxq);
	rxq->recover = 0;
	rxq->err_seen = 0;
}

/* Frames are waiting: take them, then give the CQ slots and the WQEs back. */
static __rte_noinline uint16_t
mlx4v_rx_burst_rxq(struct mlx4v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t nrx;

	if (likely(rxq->vec))
		nrx = rxq->rss_hash ? mlx4v_rx_burst_single(rxq, pkts, n, 0, 1, 1) :
				      mlx4v_rx_burst_single(rxq, pkts, n, 0, 0, 1);
	else if (!rxq->scatter && rxq->mr_n <= 1)
		nrx = rxq->rss_hash ? mlx4v_rx_burst_single(rxq, pkts, n, 0, 1, 0) :
				      mlx4v_rx_burst_single(rxq, pkts, n, 0, 0, 0);
	else if (!rxq->scatter)
		nrx = mlx4v_rx_burst_single(rxq, pkts, n, 1, 1, 0);
	else
		nrx = mlx4v_rx_burst_scattered(rxq, pkts, n);
	/*
	 * The CQEs were read and the new buffer addresses stored: the CQ slots go back to the
	 * device first, so the CQ always has room for every WQE posted (prm/mlx4 §4.6)...
	 */
	rte_io_wmb();
	*rxq->cqv.set_ci_db = rte_cpu_to_be_32(rxq->cq_ci & 0xffffff);
	/*
	 * ...then the WQEs: the device reads a WQE once the doorbell record's 16-bit running count
	 * covers it, so the addresses must be visible before the record (prm/mlx4 §4.3).
	 */
	rte_io_wmb();
	*rxq->rwq.rdb = rte_cpu_to_be_32(rxq->rq_ci & 0xffff);
	if (unlikely(rxq->err_seen))
		mlx4v_rx_recover_start(rxq);
	return nrx;
}

uint16_t
mlx4v_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx4v_rxq *rxq = q;

	/*
	 * An empty poll costs one owner-bit check and nothing else; RECOVERING: the control
	 * thread owns the queue.
	 */
	if (!mlx4v_rx_cqe_ready(rxq, mlx4v_rx_cqe(rxq, rxq->cq_ci), rxq->cq_ci) ||
	    unlikely(n == 0) || unlikely(__atomic_load_n(&rxq->recover, __ATOMIC_ACQUIRE) != 0))
		return 0;
	return mlx4v_rx_burst_rxq(rxq, pkts, n);
}

uint32_t
mlx4v_rx_queue_count(void *q)
{
	const struct mlx4v_rxq *rxq = q;
	uint32_t ci, n = 0;

	/*
	 * ethdev 22.11 hands over a queue id that is not configured as NULL; it casts the
	 * answer to int, so -EINVAL reaches the application as such.
	 */
	if (rxq == NULL)
		return (uint32_t)-EINVAL;
	ci = rxq->cq_ci;
	/* The CQEs software owns from the consumer index on: frames waiting (prm/mlx4 §4.6). */
	while (n < rxq->wqe_n && mlx4v_rx_cqe_ready(rxq, mlx4v_rx_cqe(rxq, ci + n), ci + n))
		n++;
	return n;
}

int
mlx4v_rxq_fill(struct mlx4v_rxq *rxq)
{
	uint32_t nsges = 1u << rxq->sges_log, n = rxq->wqe_n << rxq->sges_log;
	struct mlx4_wqe_data_seg *dseg;
	struct rte_mbuf mb_def;
	uint32_t i, cqe_64;

	/*
	 * The ring is a flat array of data segments: the stride must be exactly the SGEs
	 * (prm/mlx4 §3).
	 */
	if (rxq->rwq.rq.wqe_shift != RX_DSEG_SHIFT + rxq->sges_log ||
	    rxq->rwq.rq.wqe_cnt < rxq->wqe_n || !rte_is_power_of_2(rxq->cqv.cqe_cnt) ||
	    rxq->cqv.cqe_cnt < rxq->wqe_n) {
		MLX4V_ETH_LOG(ERR, "port %u Rx queue %u: WQ stride %d / %u WQEs, CQ %u entries "
			      "do not fit %u WQEs of %u SGEs", rxq->port_id, rxq->idx,
			      rxq->rwq.rq.wqe_shift, rxq->rwq.rq.wqe_cnt, rxq->cqv.cqe_cnt,
			      rxq->wqe_n, nsges);
		return -EINVAL;
	}
	rxq->wqes = (uint8_t *)rxq->rwq.buf.buf + rxq->rwq.rq.offset;
	cqe_64 = (rxq->cqv.cqe_size & 64) ? 1 : 0;
	rxq->cqes = (uint8_t *)rxq->cqv.buf.buf + (cqe_64 << 5);
	rxq->cqe_shift = (uint8_t)(5 + cqe_64);
	rxq->cq_mask = rxq->cqv.cqe_cnt - 1;
	rxq->cq_log = (uint8_t)rte_log2_u32(rxq->cqv.cqe_cnt);
	rxq->wqe_mask = rxq->wqe_n - 1;
	/*
	 * SSE takes one-mbuf WQEs of a pool of one lkey whose buffers follow their mbufs (as
	 * rte_pktmbuf_init() and rte_pktmbuf_detach() place them: not so with pinned external
	 * buffers); the tests may turn it off after.
	 */
	rxq->buf_off = (uint32_t)(sizeof(struct rte_mbuf) + rte_pktmbuf_priv_size(rxq->mp) +
				  RTE_PKTMBUF_HEADROOM);
	rxq->vec = RX_VEC && !rxq->scatter && rxq->mr_n <= 1 &&
		   !(rte_pktmbuf_priv_flags(rxq->mp) & RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF);
	/* What every received mbuf starts as: one segment, default headroom, this port. */
	memset(&mb_def, 0, sizeof(mb_def));
	mb_def.nb_segs = 1;
	mb_def.data_off = RTE_PKTMBUF_HEADROOM;
	mb_def.port = rxq->port_id;
	rte_mbuf_refcnt_set(&mb_def, 1);
	rxq->mbuf_init = *mlx4v_rx_rearm(&mb_def);
	if (rte_mempool_get_bulk(rxq->mp, (void **)rxq->elts, n) != 0)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		dseg = mlx4v_rx_dseg(rxq, i >> rxq->sges_log, i & (nsges - 1));
		dseg->byte_count = rte_cpu_to_be_32(rxq->seg_size);
		dseg->lkey = rte_cpu_to_be_32(rxq->lkey);
		mlx4v_rx_dseg_set(rxq, dseg, rxq->elts[i]);
		/* Raw mbufs: the fields a burst does not write are set once here. */
		rxq->elts[i]->port = rxq->port_id;
		rxq->elts[i]->next = NULL;
		if ((uintptr_t)rxq->elts[i]->buf_addr + RTE_PKTMBUF_HEADROOM !=
		    (uintptr_t)rxq->elts[i] + rxq->buf_off)
			rxq->vec = 0;
	}
	rxq->rq_tail = 0;
	rxq->cq_ci = 0;
	rxq->rq_ci = rxq->wqe_n;
	/*
	 * Every WQE posted: the segments must be visible before the doorbell record counts them
	 * (prm/mlx4 §4.3); the WQ reads it once it is ready.
	 */
	rte_io_wmb();
	*rxq->rwq.rdb = rte_cpu_to_be_32(rxq->rq_ci & 0xffff);
	return 0;
}

void
mlx4v_rxq_drain(struct mlx4v_rxq *rxq)
{
	uint32_t i, n = rxq->wqe_n << rxq->sges_log;

	if (rxq->elts == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (rxq->elts[i] != NULL)
			rte_pktmbuf_free_seg(rxq->elts[i]);
		rxq->elts[i] = NULL;
	}
}

int
mlx4v_rx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx, struct rte_eth_burst_mode *mode)
{
	const struct mlx4v_rxq *rxq = eth_dev->data->rx_queues[idx];

	/* The loop the queue runs, or before start the one it will (mlx4v_rxq_fill()). */
	snprintf(mode->info, sizeof(mode->info), "%s",
		 rxq->scatter ? "Scalar scattered" :
		 (rxq->ready ? rxq->vec : RX_VEC) ? "Vector SSE" : "Scalar");
	return 0;
}

uint64_t
mlx4v_rx_offload_capa(void)
{
	return RTE_ETH_RX_OFFLOAD_SCATTER | RTE_ETH_RX_OFFLOAD_RSS_HASH |
	       RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
	       RTE_ETH_RX_OFFLOAD_TCP_CKSUM;
}

const uint32_t *
mlx4v_rx_ptypes_get(struct rte_eth_dev *eth_dev)
{
	/* What mlx4v_rx_kinds[] holds (prm/mlx4 §4.6). */
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER,
		RTE_PTYPE_L3_IPV4,
		RTE_PTYPE_L3_IPV4_EXT,
		RTE_PTYPE_L3_IPV6_EXT_UNKNOWN,
		RTE_PTYPE_L4_TCP,
		RTE_PTYPE_L4_UDP,
		RTE_PTYPE_L4_FRAG,
		RTE_PTYPE_L4_NONFRAG,
		RTE_PTYPE_UNKNOWN,
	};

	RTE_SET_USED(eth_dev);
	return ptypes;
}
