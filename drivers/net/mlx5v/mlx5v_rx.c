/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Rx burst of the mlx5v PMD: a cyclic RQ whose WQEs each hold 2^sges_log mbufs (one
 * when a frame fits one mbuf, several for scattered Rx). One mbuf per WQE: the burst reads
 * each CQE once, hands the WQE's mbuf over rearmed from a template, and the consumed WQEs
 * are posted again in bulk from the mempool. Scattered: every WQE posted again with fresh
 * mbufs as its CQE is read. Checksum, packet type, RSS hash and VLAN from the CQE; an RQ
 * that an error CQE moved to ERR brought back to RDY (doc/guides/prm/mlx5_eth.rst §7, §8;
 * doc/guides/nics/mlx5v.rst "Data path").
 */

#include <string.h>

#include <rte_mbuf.h>
#include <rte_vect.h>

#include "mlx5v_devx.h"
#include "mlx5v_ethdev.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlxv_rx_sg.h"
#include "rte_pmd_mlx5v.h"


/* The SSE loops where the build has them: x86 with SSSE3 (rxq->vec says if they run). */
#if defined(RTE_ARCH_X86) && defined(__SSSE3__)
#define RX_VEC 1
#else
#define RX_VEC 0
#endif

/* Consumed WQEs are posted again once this many (or a quarter of the ring) wait. */
#define RX_REFILL_THRESH 32
/* Bytes of a CQE, and the op_own byte that ends it (prm/mlx5_eth §8.1). */
#define RX_CQE_SIZE MLX5V_IFC_BYTES(cqe_eth)
#define RX_CQE_OP_OWN (RX_CQE_SIZE - 1)

/*
 * The CQE dword that holds what the mbuf takes besides length and hash (prm/mlx5_eth §8.2):
 * checksum results, header types, fragment, VLAN. One read of it serves all of them.
 */
#define RX_DW_HDR MLX5V_IFC_DW(cqe_eth, l3_hdr_type)
#define RX_HDR_SHIFT(fld) (MLX5V_IFC_SHIFT(cqe_eth, fld) - MLX5V_IFC_SHIFT(cqe_eth, l3_hdr_type))
/* The table index: l3_hdr_type (lowest) up to l4_ok (highest), nine contiguous bits. */
#define RX_META_BITS (RX_HDR_SHIFT(l4_ok) + 1)
#define RX_META_SIZE (1u << RX_META_BITS)
#define RX_META_INDEX(hdr) (((hdr) >> MLX5V_IFC_SHIFT(cqe_eth, l3_hdr_type)) & (RX_META_SIZE - 1))
#define RX_CVLAN (UINT32_C(1) << MLX5V_IFC_SHIFT(cqe_eth, cvlan_stripped))

/* The layout facts the one-dword read relies on, checked against the compiler's layout. */
#define RX_SAME_DW(fld) _Static_assert(MLX5V_IFC_DW(cqe_eth, fld) == RX_DW_HDR, \
				       #fld " is not in the CQE dword of the header types")
RX_SAME_DW(l4_ok);
RX_SAME_DW(l3_ok);
RX_SAME_DW(l2_ok);
RX_SAME_DW(ip_frag);
RX_SAME_DW(l4_hdr_type);
RX_SAME_DW(cvlan_stripped);
RX_SAME_DW(vlan_info);
#undef RX_SAME_DW
_Static_assert(RX_HDR_SHIFT(l4_hdr_type) == 2 && RX_HDR_SHIFT(ip_frag) == 5 &&
	       RX_HDR_SHIFT(l2_ok) == 6 && RX_HDR_SHIFT(l3_ok) == 7 && RX_META_BITS == 9,
	       "l3_hdr_type .. l4_ok are not contiguous in the CQE");
_Static_assert(MLX5V_IFC_SHIFT(cqe_eth, vlan_info) == 0, "vlan_info is not the low half");

/* What one value of the CQE's header bits means for the mbuf. */
struct rx_meta {
	uint32_t ptype;
	uint32_t ol_flags;
};

/* Packet type and checksum flags for each value of the nine header bits (built at load). */
static struct rx_meta mlx5v_rx_meta[RX_META_SIZE] __rte_cache_aligned;

/* Packet type of the CQE's l3_hdr_type (prm/mlx5_eth §8.2). */
static const uint32_t mlx5v_rx_ptype_l3[4] = {
	[MLX5V_CQE_L3_IPV6] = RTE_PTYPE_L3_IPV6_EXT_UNKNOWN,
	[MLX5V_CQE_L3_IPV4] = RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
};

/* Packet type of the CQE's l4_hdr_type (prm/mlx5_eth §8.2): every TCP flavour is TCP. */
static const uint32_t mlx5v_rx_ptype_l4[8] = {
	[MLX5V_CQE_L4_TCP] = RTE_PTYPE_L4_TCP,
	[MLX5V_CQE_L4_UDP] = RTE_PTYPE_L4_UDP,
	[MLX5V_CQE_L4_TCP_ACK] = RTE_PTYPE_L4_TCP,
	[MLX5V_CQE_L4_TCP_ACK_DATA] = RTE_PTYPE_L4_TCP,
};

RTE_INIT(mlx5v_rx_meta_init)
{
	uint32_t i, l3, l4, frag, flags, ptype;

	RTE_BUILD_BUG_ON((RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK) >>
			 32 != 0);
	for (i = 0; i < RX_META_SIZE; i++) {
		l3 = i & 3;
		l4 = (i >> RX_HDR_SHIFT(l4_hdr_type)) & 7;
		frag = (i >> RX_HDR_SHIFT(ip_frag)) & 1;
		ptype = RTE_PTYPE_L2_ETHER | mlx5v_rx_ptype_l3[l3] |
			(frag ? RTE_PTYPE_L4_FRAG : mlx5v_rx_ptype_l4[l4]);
		/*
		 * prm/mlx5_eth §8.2: a set ok bit says the device verified the checksum; a clear
		 * one only that it did not say so (a header it does not validate, a UDP checksum of
		 * 0, as well as a wrong sum), hence UNKNOWN (0), never BAD.
		 */
		flags = 0;
		if (l3 != MLX5V_CQE_L3_NONE && ((i >> RX_HDR_SHIFT(l3_ok)) & 1))
			flags |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
		if (mlx5v_rx_ptype_l4[l4] != 0 && !frag && ((i >> RX_HDR_SHIFT(l4_ok)) & 1))
			flags |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
		mlx5v_rx_meta[i].ptype = ptype;
		mlx5v_rx_meta[i].ol_flags = flags;
	}
}

/* Big-endian dword dw of a CQE, in CPU order. */
static __rte_always_inline uint32_t
mlx5v_rx_cqe_dw(const uint8_t *cqe, unsigned int dw)
{
	uint32_t be;

	memcpy(&be, cqe + 4 * dw, sizeof(be));
	return rte_be_to_cpu_32(be);
}

/*
 * The op_own byte of a receive CQE that is ready at consumer index ci: opcode RESP_SEND and
 * the owner bit equal to the lap parity (prm/mlx5_eth §8.1); anything else takes the slow path.
 */
static __rte_always_inline uint8_t
mlx5v_rx_op_own_ok(uint32_t ci, uint8_t cq_log)
{
	return (uint8_t)(MLX5V_CQE_OPCODE_RESP_SEND << 4 | ((ci >> cq_log) & 1));
}

/* The data segment k of WQE w. */
static inline uint8_t *
mlx5v_rx_dseg(const struct mlx5v_rxq *rxq, uint32_t w, uint32_t k)
{
	return rxq->wqes + (((size_t)w << rxq->sges_log) + k) * MLX5V_WQE_DS;
}

_Static_assert(MLX5V_IFC_BYTE_OFF(wqe_data_seg, addr) == 8,
	       "mlx5v_rx_refill() writes the address as the second word of a data segment");

/*
 * Point data segment dseg at the data room of mbuf m (prm/mlx5_eth §7.1: byte_count and lkey stay).
 */
static __rte_always_inline void
mlx5v_rx_dseg_addr(uint8_t *dseg, struct rte_mbuf *m)
{
	MLX5V_IFC_SET64(wqe_data_seg, dseg, addr, rte_mbuf_data_iova_default(m));
}

/* data_off, refcnt, nb_segs and port of a received mbuf in one store. */
static __rte_always_inline void
mlx5v_rx_rearm(struct rte_mbuf *m, uint64_t rearm)
{
	memcpy(&m->rearm_data, &rearm, sizeof(rearm));
}

/* A one-mbuf frame of len bytes: rearm_data, then both lengths. */
static __rte_always_inline void
mlx5v_rx_mbuf_len(struct rte_mbuf *m, uint64_t rearm, uint32_t len)
{
	mlx5v_rx_rearm(m, rearm);
	m->pkt_len = len;
	m->data_len = (uint16_t)len;
}

/* What the per-CQE loops put into the mbuf beyond the header bits: the want argument. */
#define RX_WANT_HASH 1u   /* the RSS hash (RSS_HASH offload) */
#define RX_WANT_MARK 2u   /* the flow tag of a MARK or FLAG rule (rxq->mark) */

/* The Rx queue's want bits. */
static __rte_always_inline unsigned int
mlx5v_rx_want(const struct mlx5v_rxq *rxq)
{
	return (rxq->rss_hash ? RX_WANT_HASH : 0) | (rxq->mark ? RX_WANT_MARK : 0);
}

/* The RSS hash into the mbuf if the TIR hashed this frame (a hash type of 0: nothing). */
static __rte_always_inline uint64_t
mlx5v_rx_cqe_hash(const uint8_t *cqe, struct rte_mbuf *m)
{
	if (MLX5V_GET(cqe_eth, cqe, rss_ip_type) == 0)
		return 0;
	m->hash.rss = MLX5V_GET(cqe_eth, cqe, rss_hash_result);
	return RTE_MBUF_F_RX_RSS_HASH;
}

/*
 * A flow tag (the matching entry's, prm/mlx5_eth §10.1) into the mbuf: 0 is none, FLAG's is FDIR
 * alone, a MARK's is its id + 1 (mlx5v_rte_flow.h).
 */
static __rte_always_inline uint64_t
mlx5v_rx_tag_flags(uint32_t tag, struct rte_mbuf *m)
{
	if (likely(tag == 0))
		return 0;
	if (tag == MLX5V_RTE_FLOW_TAG_FLAG)
		return RTE_MBUF_F_RX_FDIR;
	m->hash.fdir.hi = tag - 1;
	return RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID;
}

/* The hash and the flow tag of a full CQE, as want asks. */
static __rte_always_inline uint64_t
mlx5v_rx_cqe_extra(const uint8_t *cqe, struct rte_mbuf *m, unsigned int want)
{
	uint64_t f = 0;

	if (want & RX_WANT_HASH)
		f |= mlx5v_rx_cqe_hash(cqe, m);
	if (want & RX_WANT_MARK)
		f |= mlx5v_rx_tag_flags(MLX5V_GET(cqe_eth, cqe, qpn), m);
	return f;
}

/*
 * The CQE's view of the frame: type, checksums, VLAN, the hash and tag as want asks
 * (prm/mlx5_eth §8.2).
 */
static __rte_always_inline void
mlx5v_rx_cqe_meta(const uint8_t *cqe, struct rte_mbuf *m, unsigned int want)
{
	uint32_t hdr = mlx5v_rx_cqe_dw(cqe, RX_DW_HDR);
	const struct rx_meta *meta = &mlx5v_rx_meta[RX_META_INDEX(hdr)];
	uint64_t flags = meta->ol_flags;

	m->packet_type = meta->ptype;
	if (unlikely(hdr & RX_CVLAN)) {
		m->vlan_tci = (uint16_t)hdr;
		flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	}
	if (want != 0)
		flags |= mlx5v_rx_cqe_extra(cqe, m, want);
	m->ol_flags = flags;
}

#if RX_VEC
/*
 * Fresh mbufs src[0] and src[1] into the ring's slots ep[0] and ep[1] (one 16-byte copy) and
 * their data rooms' addresses into the data segments' address words at dseg and dseg + 2
 * (prm/mlx5_eth §7.1): both added to and byte-swapped in one register.
 */
static __rte_always_inline void
mlx5v_rx_rearm2(struct rte_mbuf **ep, uint64_t *dseg, void *const *src)
{
	const __m128i headroom = _mm_set1_epi64x(RTE_PKTMBUF_HEADROOM);
	const __m128i swap = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
	__m128i a;

	_mm_storeu_si128((__m128i *)(void *)ep, _mm_loadu_si128((const __m128i *)src));
	a = _mm_set_epi64x((long long)rte_mbuf_iova_get((const struct rte_mbuf *)src[1]),
			   (long long)rte_mbuf_iova_get((const struct rte_mbuf *)src[0]));
	a = _mm_shuffle_epi8(_mm_add_epi64(a, headroom), swap);
	_mm_storel_epi64((__m128i *)(void *)dseg, a);
	_mm_storeh_pd((double *)(void *)(dseg + 2), _mm_castsi128_pd(a));
}
#endif

/* Fresh mbuf m into the ring's slot *ep, its data room's address into the word dseg. */
static __rte_always_inline void
mlx5v_rx_rearm1(struct rte_mbuf **ep, uint64_t *dseg, struct rte_mbuf *m)
{
	*ep = m;
	*dseg = rte_cpu_to_be_64(rte_mbuf_data_iova_default(m));
}

/*
 * k mbufs from top into the ring's slots elts and their data rooms' addresses into the data
 * segments from dseg on (the address is the second word of each, prm/mlx5_eth §7.1). With the SSE
 * loop (vec), four at a time.
 */
static __rte_always_inline void
mlx5v_rx_refill_slots(void **top, struct rte_mbuf **elts, uint64_t *dseg, uint32_t k, int vec)
{
	size_t j = 0;

#if RX_VEC
	for (; vec && j + 4 <= k; j += 4, dseg += 8) {
		mlx5v_rx_rearm2(&elts[j], dseg, &top[j]);
		mlx5v_rx_rearm2(&elts[j + 2], dseg + 4, &top[j + 2]);
	}
#else
	RTE_SET_USED(vec);
#endif
	for (; j < k; j++, dseg += 2)
		mlx5v_rx_rearm1(&elts[j], dseg, top[j]);
}

/* The address word of the data segment of one-mbuf WQE idx. */
static __rte_always_inline uint64_t *
mlx5v_rx_refill_dseg(const struct mlx5v_rxq *rxq, uint32_t idx)
{
	return (uint64_t *)(void *)(rxq->wqes + (size_t)idx * MLX5V_WQE_DS) + 1;
}

/* The WQEs up to pi posted, if they were not: the record (prm/mlx5_eth §7.2). */
static __rte_always_inline void
mlx5v_rx_post(struct mlx5v_rxq *rxq, uint32_t pi)
{
	if (pi == rxq->rq_pi)
		return;
	rxq->rq_pi = pi;
	/* The buffer addresses must be in memory before the record says "posted". */
	rte_io_wmb();
	*rxq->dbrec = rte_cpu_to_be_32(pi);
}

/* The CQEs up to ci consumed: cq_ci and the CQ record, written before the RQ's grows. */
static __rte_always_inline void
mlx5v_rx_cq_record(struct mlx5v_rxq *rxq, uint32_t ci)
{
	rxq->cq_ci = ci;
	/*
	 * The CQ record goes first: the CQ always has room for every posted WQE
	 * (prm/mlx5_eth §8.1).
	 */
	rte_io_wmb();
	*rxq->cq_dbrec = rte_cpu_to_be_32(ci & MLX5V_CQ_DB_CI_MASK);
}

/*
 * Post the WQEs whose slots hold fresh mbufs, up to those of a session taken in part: they
 * wait for its end, until which the CQ holds all of its CQEs, and the CQ has one entry per
 * WQE (prm/mlx5_eth §8.5).
 */
static __rte_always_inline void
mlx5v_rx_refill_post(struct mlx5v_rxq *rxq)
{
	uint32_t pi = rxq->rq_ci - rxq->zip_ai + rxq->nb_desc;

	if (pi - rxq->rq_ci > rxq->rq_fi - rxq->rq_ci)
		pi = rxq->rq_fi;
	mlx5v_rx_post(rxq, pi);
}

/*
 * mlx5v_rx_refill() from its start: at most two contiguous runs of slots (up to the ring's end,
 * then from its start), each from the lcore's cache when it holds enough, otherwise through
 * rte_mempool_generic_get(), which fills the cache from the pool.
 */
static __rte_noinline int
mlx5v_rx_refill_runs(struct mlx5v_rxq *rxq, struct rte_mempool_cache *cache)
{
	const uint32_t end = rxq->rq_ci + rxq->nb_desc;
	uint32_t fi = rxq->rq_fi;
	struct rte_mbuf **elts;
	uint32_t idx, j, k;
	uint64_t *dseg;
	int ret = 0;

	while (fi != end) {
		idx = fi & rxq->wqe_mask;
		k = RTE_MIN(end - fi, (uint32_t)rxq->nb_desc - idx);
		elts = &rxq->elts[idx];
		dseg = mlx5v_rx_refill_dseg(rxq, idx);
		if (cache != NULL && cache->len >= k) {
			if (rxq->vec)
				mlx5v_rx_refill_slots(&cache->objs[cache->len - k], elts, dseg, k,
						      1);
			else
				mlx5v_rx_refill_slots(&cache->objs[cache->len - k], elts, dseg, k,
						      0);
			cache->len -= k;
		} else if (rte_mempool_generic_get(rxq->mp, (void **)elts, k, cache) == 0) {
			for (j = 0; j < k; j++)
				dseg[2 * j] = rte_cpu_to_be_64(rte_mbuf_data_iova_default(elts[j]));
		} else {
			rxq->nombuf += k;
			ret = -ENOMEM;
			break;
		}
		fi += k;
	}
	rxq->rq_fi = fi;
	mlx5v_rx_refill_post(rxq);
	return ret;
}

/*
 * Give every one-mbuf WQE consumed since the last round a fresh mbuf, straight from the
 * mempool into the ring's slots, its address into the data segment, and post them
 * (mlx5v_rx_refill_post()). When the lcore's cache of the mempool holds enough, its top entries
 * are taken in the same pass that writes the slots and the addresses (as the mempool API's
 * get does, without its separate copy). The usual case, the SSE loop over one run of slots
 * that does not cross the ring's end, is taken here; the rest in mlx5v_rx_refill_runs().
 * @return 0 or -ENOMEM (what could be filled is, and posted).
 */
static int
mlx5v_rx_refill(struct mlx5v_rxq *rxq)
{
	struct rte_mempool_cache *cache = rte_mempool_default_cache(rxq->mp, rte_lcore_id());
	const uint32_t fi = rxq->rq_fi;
	const uint32_t idx = fi & rxq->wqe_mask;
	const uint32_t k = rxq->rq_ci + rxq->nb_desc - fi;
	uint32_t len;

	if (likely(rxq->vec && cache != NULL && k <= cache->len &&
		   k <= (uint32_t)rxq->nb_desc - idx)) {
		len = cache->len - k;
		mlx5v_rx_refill_slots(&cache->objs[len], &rxq->elts[idx],
				      mlx5v_rx_refill_dseg(rxq, idx), k, 1);
		cache->len = len;
		rxq->rq_fi = fi + k;
		mlx5v_rx_refill_post(rxq);
		return 0;
	}
	return mlx5v_rx_refill_runs(rxq, cache);
}

/* The op_own byte of a ready title CQE at ci: RESP_SEND, format compressed (prm/mlx5_eth §8.5). */
static __rte_always_inline uint8_t
mlx5v_rx_op_own_title(uint32_t ci, uint8_t cq_log)
{
	return (uint8_t)(mlx5v_rx_op_own_ok(ci, cq_log) |
			 MLX5V_CQE_FORMAT_COMPRESSED << MLX5V_IFC_SHIFT(cqe_eth, cqe_format));
}

/*
 * The op_own byte that marks a consumed CQE slot: opcode INVALID, hardware-owned
 * (prm/mlx5_eth §8.5).
 */
#define RX_OP_OWN_INVALID (RTE_PMD_MLX5V_CQE_OPCODE_INVALID << 4)

/*
 * On a CQ that compresses, the k full CQEs from ci on were consumed: each slot is marked
 * consumed. The device skips the slots of a session but its title and arrays; with every
 * slot it wrote marked once consumed, a skipped one never shows a CQE of an earlier lap
 * whose owner bit looks current (prm/mlx5_eth §8.5).
 */
static __rte_always_inline void
mlx5v_rx_consumed(uint8_t *cqes, uint32_t cq_mask, uint32_t ci, uint32_t k)
{
	for (; k > 0; k--, ci++)
		cqes[(size_t)(ci & cq_mask) * RX_CQE_SIZE + RX_CQE_OP_OWN] = RX_OP_OWN_INVALID;
}

/*
 * The RQ is in RST and the device writes nothing more for it: every CQE it wrote since the
 * burst stopped (the WR_FLUSH_ERR completions of the WQEs that were posted, prm/mlx5_eth §8.4) is
 * consumed unread up to the first hardware-owned slot, as DPDK and Linux drain before they
 * restart an RQ; a session counts its slots; on a compressing CQ every slot is marked
 * consumed. Then the CQ record.
 */
static void
mlx5v_rx_drain_cq(struct mlx5v_rxq *rxq)
{
	const uint32_t cq_mask = rxq->cq_nent - 1;
	uint32_t ci = rxq->cq_ci;
	uint32_t k, n;
	uint8_t *cqe;

	for (k = 0; k < rxq->cq_nent; k += n) {
		/*
		 * Owner bit and opcode (prm/mlx5_eth §8.1): a slot the device has not written ends
		 * it.
		 */
		cqe = rte_pmd_mlx5v_cq_next_cqe(rxq->cqes, rxq->cq_nent, ci);
		if (cqe == NULL)
			break;
		n = 1;
		if (MLX5V_GET(cqe_eth, cqe, cqe_format) == MLX5V_CQE_FORMAT_COMPRESSED)
			n = RTE_MAX(1u,
				    RTE_MIN(mlx5v_rx_cqe_dw(cqe, MLX5V_IFC_DW(cqe_eth, byte_cnt)),
					    rxq->cq_nent - k));
		if (rxq->cqe_comp)
			mlx5v_rx_consumed(rxq->cqes, cq_mask, ci, n);
		ci += n;
	}
	if (ci != rxq->cq_ci)
		mlx5v_rx_cq_record(rxq, ci);
}

/*
 * Bring an RQ that needs a reset back (prm/mlx5_eth §5.2, §8.4), in the order DPDK and Linux
 * follow: to RST from the state it is really in (QUERY_RQ: ERR after a fatal error CQE), so that
 * the device writes nothing more; the flushed CQEs drained; every WQE's slot holding a buffer;
 * the record 0, as RST->RDY requires (the device starts again at WQE 0 and counts what the
 * record says from there); RST->RDY; then every WQE posted. Each step can be taken again:
 * a failure leaves recover set and the next burst retries from the start.
 */
static void
mlx5v_rx_recover(struct mlx5v_rxq *rxq)
{
	/* The port of this process: the queue's eth_dev is the primary's address. */
	struct mlx5v_dev *dev = mlx5v_ethdev_core(&rte_eth_devices[rxq->port_id]);
	int ret;

	/* A secondary has no command queue: the RQ stays in error, the burst returns 0. */
	if (dev == NULL)
		return;
	ret = mlx5v_ethdev_cmd_rq_reset(dev, rxq->rqn);
	if (ret != 0)
		goto error;
	mlx5v_rx_drain_cq(rxq);
	rxq->zip_ai = 0;
	/* A one-mbuf WQE's slot is refilled if its mbuf was delivered or freed. */
	if (rxq->sges_log == 0 && mlx5v_rx_refill(rxq) != 0)
		return;
	rxq->rq_ci = 0;
	rxq->rq_pi = 0;
	rxq->rq_fi = rxq->nb_desc;
	/*
	 * The buffer addresses are in memory before the record goes back to 0 (prm/mlx5_eth §7.2).
	 */
	rte_io_wmb();
	*rxq->dbrec = 0;
	ret = mlx5v_ethdev_cmd_q_modify(dev, 0, rxq->rqn, MLX5V_ETHDEV_Q_RST,
					MLX5V_ETHDEV_Q_RDY);
	if (ret != 0)
		goto error;
	mlx5v_rx_post(rxq, rxq->nb_desc);
	rxq->recover = 0;
	MLX5V_ETH_LOG(INFO, "port %u Rx queue %u: RQ back to ready after an error CQE",
		      rxq->port_id, rxq->idx);
	return;
error:
	/* Tried again on the next burst; the queue receives nothing meanwhile. */
	MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: RQ recovery failed: %s", rxq->port_id,
		      rxq->idx, strerror(-ret));
}

/*
 * Whether an error CQE's syndrome leaves the RQ needing a reset (prm/mlx5_eth §8.4): a local QP
 * operation or protection error moves it to ERR, and a flushed WQE means it is there. DPDK
 * resets for these three only; any other syndrome (an oversize frame, LOCAL_LENGTH) loses
 * the frame and the RQ goes on.
 */
static int
mlx5v_rx_synd_needs_reset(uint8_t synd)
{
	return synd == MLX5V_CQE_SYND_LOCAL_QP_OP || synd == MLX5V_CQE_SYND_LOCAL_PROT ||
	       synd == MLX5V_CQE_SYND_WR_FLUSH;
}

/* mlx5v_rx_cqe_slow(): a good CQE whose op_own byte was made the fast path's; look again. */
#define RX_CQE_AGAIN 2

/*
 * A CQE at ci that was not a ready receive completion when the burst looked. @return 0 if it
 * is not written yet or is a good one written since (the burst ends), 1 if it was an error
 * CQE, consumed with its WQE (prm/mlx5_eth §8.4), RX_CQE_AGAIN for a good one the burst takes as
 * such now. With keep, a one-mbuf WQE keeps its buffer (its slot counts as refilled).
 */
static int
mlx5v_rx_cqe_slow(struct mlx5v_rxq *rxq, uint32_t ci, int keep)
{
	uint8_t *cqe = rte_pmd_mlx5v_cq_next_cqe(rxq->cqes, rxq->cq_nent, ci);
	uint8_t opcode, fmt;

	if (cqe == NULL)
		return 0;
	/*
	 * The device wrote it between the caller's owner check and this one: a good completion,
	 * not an error. The burst ends; the next one takes it.
	 */
	if (cqe[RX_CQE_OP_OWN] == mlx5v_rx_op_own_ok(ci, rxq->cq_log))
		return 0;
	/*
	 * The opcode alone tells a receive completion from an error (prm/mlx5_eth §8.1; Linux tests
	 * nothing else): one with the solicited-event bit or an inline format is a good frame (an
	 * Ethernet RQ does not scatter into the CQE; the data is in the buffers). The slot is
	 * ours until the CQ record moves: its op_own byte is rewritten to the one the loops
	 * compare with (a session's title stays a title on a compressing CQ) and they take it.
	 */
	opcode = MLX5V_GET(cqe_eth, cqe, opcode);
	fmt = MLX5V_GET(cqe_eth, cqe, cqe_format);
	if (opcode == MLX5V_CQE_OPCODE_RESP_SEND &&
	    (fmt != MLX5V_CQE_FORMAT_COMPRESSED || rxq->cqe_comp)) {
		cqe[RX_CQE_OP_OWN] = fmt == MLX5V_CQE_FORMAT_COMPRESSED ?
				     mlx5v_rx_op_own_title(ci, rxq->cq_log) :
				     mlx5v_rx_op_own_ok(ci, rxq->cq_log);
		return RX_CQE_AGAIN;
	}
	/*
	 * The frame is lost. A one-mbuf WQE's buffer goes back to the pool (the slot is
	 * refilled) unless kept; a scattered WQE keeps its buffers and is posted again as it is.
	 */
	rxq->errors++;
	if (rxq->sges_log == 0 && !keep)
		rte_mbuf_raw_free(rxq->elts[rxq->rq_ci & rxq->wqe_mask]);
	if ((opcode == MLX5V_CQE_OPCODE_RESP_ERR || opcode == MLX5V_CQE_OPCODE_REQ_ERR) &&
	    mlx5v_rx_synd_needs_reset(MLX5V_GET(cqe_err, cqe, syndrome)))
		rxq->recover = 1;
	return 1;
}

_Static_assert((1u << MLX5V_ETH_RX_MAX_SGES_LOG) <= MLXV_RX_SG_MAX, "SGEs of one WQE");

/* mlxv_rx_sg_frame()'s data-segment writer: SGE k of WQE w at m's data room (prm/mlx5_eth §7.1). */
static __rte_always_inline void
mlx5v_rx_sg_dseg_set(void *q, uint32_t w, uint32_t k, struct rte_mbuf *m)
{
	mlx5v_rx_dseg_addr(mlx5v_rx_dseg(q, w, k), m);
}

/* Scattered Rx: several mbufs per WQE, each WQE posted again at once. */
static uint16_t
mlx5v_rx_burst_sg(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	const struct mlxv_rx_sg_ctx sg = {
		.q = rxq, .mp = rxq->mp, .rearm = rxq->mbuf_rearm, .seg_size = rxq->seg_size,
		.max_segs = 1u << rxq->sges_log, .errors = &rxq->errors, .nombuf = &rxq->nombuf,
	};
	uint32_t cq_ci = rxq->cq_ci;
	struct rte_mbuf *m;
	uint16_t nrx = 0;
	uint32_t len, w;
	uint8_t *cqe;
	int ret;

	while (nrx < n) {
		cqe = rxq->cqes + (size_t)(cq_ci & (rxq->cq_nent - 1)) * RX_CQE_SIZE;
		if (unlikely(cqe[RX_CQE_OP_OWN] != mlx5v_rx_op_own_ok(cq_ci, rxq->cq_log))) {
			ret = mlx5v_rx_cqe_slow(rxq, cq_ci, 0);
			if (ret == 0)
				break;
			if (ret == RX_CQE_AGAIN)
				continue;
			cq_ci++;
			rxq->rq_ci++;
			if (rxq->recover)
				break;
			continue;
		}
		/* The body is read only after the owner check (prm/mlx5_eth §8.1). */
		rte_io_rmb();
		cq_ci++;
		/* Completions come in WQE order (prm/mlx5_eth §7.1). */
		w = rxq->rq_ci & rxq->wqe_mask;
		rxq->rq_ci++;
		len = mlx5v_rx_cqe_dw(cqe, MLX5V_IFC_DW(cqe_eth, byte_cnt));
		/* The frame chained, fresh mbufs in its WQE (the builder sets pkt_len too). */
		m = mlxv_rx_sg_frame(&sg, &rxq->elts[w << rxq->sges_log], w, len,
				     mlx5v_rx_sg_dseg_set);
		if (unlikely(m == NULL))
			continue;
		mlx5v_rx_cqe_meta(cqe, m, mlx5v_rx_want(rxq));
		m->pkt_len = len;
		pkts[nrx++] = m;
		rxq->packets++;
		rxq->bytes += len;
	}
	if (cq_ci != rxq->cq_ci) {
		mlx5v_rx_cq_record(rxq, cq_ci);
		/* Every consumed WQE holds its buffers again: all posted (prm/mlx5_eth §7.2). */
		rxq->rq_fi = rxq->rq_ci + rxq->nb_desc;
		mlx5v_rx_post(rxq, rxq->rq_fi);
	}
	return nrx;
}

/*
 * The header dword of a CQE as it sits in memory (big-endian), and the one value it never
 * takes in mlx5v_rx_run()'s cache: a stripped VLAN makes every frame's flags its own.
 */
#define RX_HDR_RAW_NONE RTE_BE32(RX_CVLAN)

/*
 * A run of at most run CQEs from cqe on whose owner parity is own, and the WQEs' mbufs from
 * ep on, into out; the byte count added to *bytes. Frames of one flow have the same header
 * dword: its packet type and checksum flags are looked up only when it differs from the
 * previous frame's (prm/mlx5_eth §8.2), as it is read, without its byte swap. Out of line from the
 * burst so that the loop keeps what it uses in registers. @return the CQEs taken: the first that
 * is not a ready receive completion ends the run.
 */
static __rte_always_inline uint32_t
mlx5v_rx_run(const uint8_t *cqe, struct rte_mbuf **ep, struct rte_mbuf **out, uint32_t run,
	     uint8_t own, uint64_t rearm, uint64_t *bytes, const unsigned int want)
{
	uint32_t raw, last_raw = RX_HDR_RAW_NONE;
	uint64_t sum = *bytes;
	uint32_t ptype = 0;
	uint64_t flags = 0;
	struct rte_mbuf *m;
	size_t k;
	uint32_t len;

	for (k = 0; k < run; k++, cqe += RX_CQE_SIZE) {
		/*
		 * A CQE is ours when its owner bit matches the lap parity of ci
		 * (prm/mlx5_eth §8.1); one compare also tells a good receive completion from
		 * anything else.
		 */
		if (unlikely(cqe[RX_CQE_OP_OWN] != own))
			break;
		/* The body is read only after the owner check. */
		rte_io_rmb();
		/*
		 * Completions come in WQE order (prm/mlx5_eth §7.1): the WQE's mbuf is the frame.
		 */
		m = ep[k];
		len = mlx5v_rx_cqe_dw(cqe, MLX5V_IFC_DW(cqe_eth, byte_cnt));
		mlx5v_rx_mbuf_len(m, rearm, len);
		out[k] = m;
		sum += len;
		memcpy(&raw, cqe + 4 * RX_DW_HDR, sizeof(raw));
		if (unlikely(raw != last_raw)) {
			if (unlikely(raw & RX_HDR_RAW_NONE)) {
				/* Stripped VLAN: this frame's own flags, nothing cached. */
				mlx5v_rx_cqe_meta(cqe, m, want);
				continue;
			}
			last_raw = raw;
			ptype = mlx5v_rx_meta[RX_META_INDEX(rte_be_to_cpu_32(raw))].ptype;
			flags = mlx5v_rx_meta[RX_META_INDEX(rte_be_to_cpu_32(raw))].ol_flags;
		}
		m->packet_type = ptype;
		m->ol_flags = want != 0 ? flags | mlx5v_rx_cqe_extra(cqe, m, want) : flags;
	}
	*bytes = sum;
	return (uint32_t)k;
}

/* mlx5v_rx_run() for a queue that wants the hash, the flow tag or both (want, non-zero). */
static __rte_noinline uint32_t
mlx5v_rx_run_rss(const uint8_t *cqe, struct rte_mbuf **ep, struct rte_mbuf **out, uint32_t run,
		 uint8_t own, uint64_t rearm, uint64_t *bytes, unsigned int want)
{
	return mlx5v_rx_run(cqe, ep, out, run, own, rearm, bytes, want);
}

static __rte_noinline uint32_t
mlx5v_rx_run_plain(const uint8_t *cqe, struct rte_mbuf **ep, struct rte_mbuf **out, uint32_t run,
		   uint8_t own, uint64_t rearm, uint64_t *bytes)
{
	return mlx5v_rx_run(cqe, ep, out, run, own, rearm, bytes, 0);
}

#if RX_VEC
/* The mbuf fields the SSE loop writes as two 16-byte stores. */
_Static_assert(offsetof(struct rte_mbuf, ol_flags) ==
	       offsetof(struct rte_mbuf, rearm_data) + 8, "ol_flags after rearm_data");
_Static_assert(offsetof(struct rte_mbuf, pkt_len) == offsetof(struct rte_mbuf, packet_type) + 4 &&
	       offsetof(struct rte_mbuf, data_len) == offsetof(struct rte_mbuf, packet_type) + 8 &&
	       offsetof(struct rte_mbuf, vlan_tci) == offsetof(struct rte_mbuf, packet_type) + 10 &&
	       offsetof(struct rte_mbuf, hash) == offsetof(struct rte_mbuf, packet_type) + 12,
	       "packet_type, pkt_len, data_len, vlan_tci, hash are not one 16-byte block");
/* The 16 CQE bytes the loop loads, from 0x20: byte_cnt is its last dword (prm/mlx5_eth §8.2). */
#define RX_VEC_OFF 0x20
_Static_assert(MLX5V_IFC_BYTE_OFF(cqe_eth, byte_cnt) == RX_VEC_OFF + 12,
	       "byte_cnt is not the last dword of the 16 bytes at 0x20");

/*
 * The bytes summed by the SSE loops: the pkt_len lane (dword 1) of the 16-byte blocks they
 * add up (a burst is at most 65535 frames of at most 65535 bytes: 32 bits hold the sum).
 */
static __rte_always_inline uint32_t
mlx5v_rx_vsum_bytes(__m128i vsum)
{
	return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(vsum, 4));
}

/* mlx5v_rx_run_sse()'s cached flags (with rearm_data) and packet type for the header dword raw. */
static __rte_always_inline void
mlx5v_rx_run_sse_meta(uint32_t raw, uint64_t rearm, __m128i *rf, __m128i *ptype)
{
	const struct rx_meta *meta = &mlx5v_rx_meta[RX_META_INDEX(rte_be_to_cpu_32(raw))];

	*ptype = _mm_cvtsi32_si128((int)meta->ptype);
	*rf = _mm_set_epi64x((long long)meta->ol_flags, (long long)rearm);
}

/*
 * mlx5v_rx_run_sse()'s step over the two ready CQEs at cqe with the cached header dword: the
 * mbufs of slots ep[0] and ep[1] into out (one copy), the slots rearmed from src (see
 * mlx5v_rx_rearm2()), each mbuf's two 16-byte blocks, the byte counts added to *sum.
 */
static __rte_always_inline void
mlx5v_rx_run_sse_pair(const uint8_t *cqe, struct rte_mbuf **ep, struct rte_mbuf **out,
		      uint64_t *dseg, void *const *src, __m128i rf, __m128i ptype, __m128i shuf,
		      __m128i *sum)
{
	struct rte_mbuf *m = ep[0], *m1 = ep[1];
	__m128i lens, lens1;

	_mm_storeu_si128((__m128i *)(void *)out, _mm_loadu_si128((const __m128i *)(void *)ep));
	mlx5v_rx_rearm2(ep, dseg, src);
	lens = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(cqe + RX_VEC_OFF)), shuf);
	lens1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)
						 (cqe + RX_CQE_SIZE + RX_VEC_OFF)), shuf);
	*sum = _mm_add_epi32(*sum, _mm_add_epi32(lens, lens1));
	_mm_storeu_si128((__m128i *)(void *)&m->rearm_data, rf);
	_mm_storeu_si128((__m128i *)(void *)&m->packet_type, _mm_or_si128(lens, ptype));
	_mm_storeu_si128((__m128i *)(void *)&m1->rearm_data, rf);
	_mm_storeu_si128((__m128i *)(void *)&m1->packet_type, _mm_or_si128(lens1, ptype));
}

/* The header dword of the CQE at cqe, as it is stored. */
static __rte_always_inline uint32_t
mlx5v_rx_cqe_hdr_raw(const uint8_t *cqe)
{
	uint32_t raw;

	memcpy(&raw, cqe + 4 * RX_DW_HDR, sizeof(raw));
	return raw;
}

/*
 * mlx5v_rx_run() without the RSS hash, with SSE: the big-endian byte count shuffled into pkt_len
 * and data_len of a 16-byte block that also holds the packet type (vlan_tci and the hash
 * left 0), and rearm_data with ol_flags as the other 16 bytes, four then two CQEs per step
 * while they are ready and repeat the cached header dword (the first CQE's, cached ahead),
 * one otherwise; the byte counts summed in one lane (a run is at most 65535 frames of at
 * most 65535 bytes, one mbuf each: 32 bits hold the sum). Each slot taken gets a fresh mbuf
 * at once, from below *ptp on the lcore's cache, its address into the data segment whose
 * address word is at dseg (as mlx5v_rx_refill() does).
 */
static __rte_always_inline uint32_t
mlx5v_rx_run_sse(const uint8_t *cqe, struct rte_mbuf **ep, struct rte_mbuf **out, uint32_t run,
		 uint8_t own, uint64_t rearm, uint64_t *bytes, uint64_t *dseg, void ***ptp)
{
	void **tp = *ptp;
	const __m128i shuf = _mm_setr_epi8(-1, -1, -1, -1, 15, 14, 13, 12, 15, 14,
					   -1, -1, -1, -1, -1, -1);
	__m128i rf = _mm_set_epi64x(0, (long long)rearm);
	__m128i ptype = _mm_setzero_si128();
	__m128i sum = _mm_setzero_si128();
	uint32_t raw, last_raw = RX_HDR_RAW_NONE;
	struct rte_mbuf *m;
	__m128i lens;
	uint32_t len;
	size_t k = 0;

	/*
	 * The first CQE's header dword cached when it is ready (prm/mlx5_eth §8.1: body after
	 * owner).
	 */
	if (likely(run > 0 && cqe[RX_CQE_OP_OWN] == own)) {
		rte_io_rmb();
		raw = mlx5v_rx_cqe_hdr_raw(cqe);
		if (likely(!(raw & RX_HDR_RAW_NONE))) {
			last_raw = raw;
			mlx5v_rx_run_sse_meta(raw, rearm, &rf, &ptype);
		}
	}
	while (k < run) {
		/*
		 * Four, then two CQEs at a time while all are ready (the owner check of
		 * mlx5v_rx_run(), prm/mlx5_eth §8.1) and have the cached header dword.
		 */
		for (; k + 4 <= run; k += 4, cqe += 4 * RX_CQE_SIZE) {
			if (unlikely(cqe[RX_CQE_OP_OWN] != own ||
				     cqe[RX_CQE_SIZE + RX_CQE_OP_OWN] != own ||
				     cqe[2 * RX_CQE_SIZE + RX_CQE_OP_OWN] != own ||
				     cqe[3 * RX_CQE_SIZE + RX_CQE_OP_OWN] != own))
				break;
			rte_io_rmb();
			if (unlikely(mlx5v_rx_cqe_hdr_raw(cqe) != last_raw ||
				     mlx5v_rx_cqe_hdr_raw(cqe + RX_CQE_SIZE) != last_raw ||
				     mlx5v_rx_cqe_hdr_raw(cqe + 2 * RX_CQE_SIZE) != last_raw ||
				     mlx5v_rx_cqe_hdr_raw(cqe + 3 * RX_CQE_SIZE) != last_raw))
				break;
			tp -= 4;
			mlx5v_rx_run_sse_pair(cqe, &ep[k], &out[k], dseg + 2 * k, tp + 2, rf, ptype,
					      shuf, &sum);
			mlx5v_rx_run_sse_pair(cqe + 2 * RX_CQE_SIZE, &ep[k + 2], &out[k + 2],
					      dseg + 2 * k + 4, tp, rf, ptype, shuf, &sum);
		}
		for (; k + 2 <= run; k += 2, cqe += 2 * RX_CQE_SIZE) {
			if (unlikely(cqe[RX_CQE_OP_OWN] != own ||
				     cqe[RX_CQE_SIZE + RX_CQE_OP_OWN] != own))
				break;
			rte_io_rmb();
			if (unlikely(mlx5v_rx_cqe_hdr_raw(cqe) != last_raw ||
				     mlx5v_rx_cqe_hdr_raw(cqe + RX_CQE_SIZE) != last_raw))
				break;
			tp -= 2;
			mlx5v_rx_run_sse_pair(cqe, &ep[k], &out[k], dseg + 2 * k, tp, rf, ptype,
					      shuf, &sum);
		}
		/* One alone: the last of an odd run, a new header dword, or not written yet. */
		if (k == run || unlikely(cqe[RX_CQE_OP_OWN] != own))
			break;
		rte_io_rmb();
		m = ep[k];
		mlx5v_rx_rearm1(&ep[k], dseg + 2 * k, *--tp);
		lens = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(cqe + RX_VEC_OFF)),
					shuf);
		out[k] = m;
		sum = _mm_add_epi32(sum, lens);
		raw = mlx5v_rx_cqe_hdr_raw(cqe);
		k++;
		cqe += RX_CQE_SIZE;
		if (unlikely(raw != last_raw)) {
			if (unlikely(raw & RX_HDR_RAW_NONE)) {
				/* Stripped VLAN: this frame's own flags, nothing cached. */
				len = mlx5v_rx_cqe_dw(cqe - RX_CQE_SIZE,
						      MLX5V_IFC_DW(cqe_eth, byte_cnt));
				mlx5v_rx_mbuf_len(m, rearm, len);
				mlx5v_rx_cqe_meta(cqe - RX_CQE_SIZE, m, 0);
				continue;
			}
			last_raw = raw;
			mlx5v_rx_run_sse_meta(raw, rearm, &rf, &ptype);
		}
		_mm_storeu_si128((__m128i *)(void *)&m->rearm_data, rf);
		_mm_storeu_si128((__m128i *)(void *)&m->packet_type, _mm_or_si128(lens, ptype));
	}
	*ptp = tp;
	*bytes += mlx5v_rx_vsum_bytes(sum);
	return (uint32_t)k;
}
#endif


/*
 * Frames of the compressed session whose title CQE is at *pci, from mini-CQE rxq->zip_ai on,
 * at most max of them, into out with the WQEs' mbufs from *prq_ci on (prm/mlx5_eth §8.5): the title
 * gives what every frame shares (packet type, checksum flags, VLAN, hash type), each mini-CQE the
 * byte count and, with rss, the hash. Mini-CQE j sits in the array at slot title + 1 for
 * j < 8, at slot title + (j & ~7) after. When the session is done the slots the device wrote
 * (the title and the arrays) are marked consumed, as mlx5v_rx_consumed() does for full CQEs.
 * @return the frames taken; *pci moves past the session once it is done.
 */
/* The CQE byte of the header types (0x1d) within RX_DW_HDR: an L3/L4 mini-CQE's hdr_type. */
#define RX_HDR_TYPE_SHIFT MLX5V_IFC_SHIFT(cqe_eth, cvlan_stripped)
_Static_assert(RX_HDR_TYPE_SHIFT % 8 == 0 &&
	       MLX5V_IFC_SHIFT(cqe_eth, ip_frag) == RX_HDR_TYPE_SHIFT + 7,
	       "the header types are not one byte of the CQE");

/*
 * The frame of an L3/L4 header mini-CQE (prm/mlx5_eth §8.5): the title's header dword (checksum
 * results, VLAN tag) with the mini-CQE's byte of header types (fragment, L4 and L3 type, stripped
 * VLAN) put in; extra goes into ol_flags as well.
 */
static __rte_noinline void
mlx5v_rx_zip_l34h(struct rte_mbuf *m, uint32_t title_hdr, const uint8_t *mini, uint64_t extra)
{
	const uint32_t hdr = (title_hdr & ~(UINT32_C(0xff) << RX_HDR_TYPE_SHIFT)) |
			     MLX5V_GET(mini_cqe_l34h, mini, hdr_type) << RX_HDR_TYPE_SHIFT;
	const struct rx_meta *meta = &mlx5v_rx_meta[RX_META_INDEX(hdr)];
	uint64_t flags = meta->ol_flags | extra;

	m->packet_type = meta->ptype;
	m->vlan_tci = 0;
	if (hdr & RX_CVLAN) {
		m->vlan_tci = (uint16_t)hdr;
		flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	}
	m->ol_flags = flags;
}

static __rte_always_inline uint32_t
mlx5v_rx_zip(struct mlx5v_rxq *rxq, uint32_t *pci, uint32_t *prq_ci, struct rte_mbuf **out,
	     uint32_t max, uint64_t *bytes, const int rss)
{
	uint8_t *const cqes = rxq->cqes;
	struct rte_mbuf **const elts = rxq->elts;
	const uint32_t cq_mask = rxq->cq_nent - 1;
	const uint32_t wqe_mask = rxq->wqe_mask;
	const uint64_t rearm = rxq->mbuf_rearm;
	const uint32_t ci = *pci;
	const uint8_t *title = cqes + (size_t)(ci & cq_mask) * RX_CQE_SIZE;
	const uint32_t cnt = mlx5v_rx_cqe_dw(title, MLX5V_IFC_DW(cqe_eth, byte_cnt));
	const uint32_t start = rxq->zip_ai;
	/*
	 * The mini-CQE format: the hash per frame (HASH) or the title's; a 24-bit byte count
	 * under the flow tag's top byte (FTAG); the header types per frame (L3/L4).
	 */
	const uint8_t fmt = rxq->mini_fmt;
	const uint32_t len_mask = fmt == MLX5V_MINI_CQE_FMT_FTAG ? UINT32_C(0xffffff) :
				  UINT32_MAX;
	uint32_t rq_ci = *prq_ci;
	uint32_t a = start;
	uint32_t end, k, r, len, title_hash, title_hdr, title_tag;
	struct rte_mbuf tmpl, *m, **ep = NULL;
	const uint8_t *mini;
	uint64_t sum = 0;
	uint64_t flags;
	uint8_t *title_own;
	int hash, mark;

	/* The title's owner was checked by the caller; its body and the arrays follow it. */
	rte_io_rmb();
	end = a + RTE_MIN(cnt - a, max);
	/* The shared fields as mlx5v_rx_cqe_meta() puts them into an mbuf. */
	tmpl.vlan_tci = 0;
	mlx5v_rx_cqe_meta(title, &tmpl, 0);
	hash = rss && (mlx5v_rx_want(rxq) & RX_WANT_HASH) &&
	       MLX5V_GET(cqe_eth, title, rss_ip_type) != 0;
	/*
	 * The flow tag: each mini-CQE's in the FTAG format, else the session's one
	 * (prm/mlx5_eth §8.5).
	 */
	mark = rss && (mlx5v_rx_want(rxq) & RX_WANT_MARK);
	title_tag = MLX5V_GET(cqe_eth, title, qpn);
	flags = tmpl.ol_flags | (hash ? RTE_MBUF_F_RX_RSS_HASH : 0);
	title_hash = mlx5v_rx_cqe_dw(title, MLX5V_IFC_DW(cqe_eth, rss_hash_result));
	title_hdr = mlx5v_rx_cqe_dw(title, RX_DW_HDR);
	/* Runs of mbufs up to the RQ ring's end, each in arrays of mini-CQEs. */
	for (r = 0; a < end; ) {
		if (r == 0) {
			r = RTE_MIN(end - a, (uint32_t)rxq->nb_desc - (rq_ci & wqe_mask));
			ep = &elts[rq_ci & wqe_mask];
			rq_ci += r;
		}
		mini = cqes + (size_t)((ci + (a < MLX5V_MINI_CQE_PER_SLOT ? 1 :
				a & ~(MLX5V_MINI_CQE_PER_SLOT - 1))) & cq_mask) * RX_CQE_SIZE +
		       (size_t)(a & (MLX5V_MINI_CQE_PER_SLOT - 1)) * MLX5V_IFC_BYTES(mini_cqe_hash);
		/* The mini-CQEs of this array. */
		k = RTE_MIN(r, MLX5V_MINI_CQE_PER_SLOT - (a & (MLX5V_MINI_CQE_PER_SLOT - 1)));
		a += k;
		r -= k;
		for (; k > 0; k--, ep++, out++, mini += MLX5V_IFC_BYTES(mini_cqe_hash)) {
			m = *ep;
			*out = m;
			len = mlx5v_rx_cqe_dw(mini, MLX5V_IFC_DW(mini_cqe_hash, byte_cnt)) &
			      len_mask;
			mlx5v_rx_mbuf_len(m, rearm, len);
			if (unlikely(fmt == MLX5V_MINI_CQE_FMT_L34H)) {
				mlx5v_rx_zip_l34h(m, title_hdr, mini,
						  flags & RTE_MBUF_F_RX_RSS_HASH);
			} else {
				m->ol_flags = flags;
				m->packet_type = tmpl.packet_type;
				m->vlan_tci = tmpl.vlan_tci;
			}
			if (hash)
				m->hash.rss = fmt != MLX5V_MINI_CQE_FMT_HASH ? title_hash :
					      mlx5v_rx_cqe_dw(mini, MLX5V_IFC_DW(mini_cqe_hash,
										 rx_hash_result));
			if (mark)
				m->ol_flags |= mlx5v_rx_tag_flags(fmt != MLX5V_MINI_CQE_FMT_FTAG ?
					title_tag : MLX5V_GET(mini_cqe_ftag, mini, flow_tag_15_0) |
					MLX5V_GET(mini_cqe_ftag, mini, flow_tag_23_16) << 16, m);
			sum += len;
		}
	}
	*bytes += sum;
	*prq_ci = rq_ci;
	if (a < cnt) {
		rxq->zip_ai = (uint16_t)a;
		return end - start;
	}
	/*
	 * The title and the arrays consumed: the slots the device wrote (see mlx5v_rx_consumed()).
	 */
	title_own = cqes + (size_t)(ci & cq_mask) * RX_CQE_SIZE + RX_CQE_OP_OWN;
	*title_own = RX_OP_OWN_INVALID;
	for (a = 1; a < cnt; a = (a + MLX5V_MINI_CQE_PER_SLOT) & ~(MLX5V_MINI_CQE_PER_SLOT - 1))
		cqes[(size_t)((ci + a) & cq_mask) * RX_CQE_SIZE + RX_CQE_OP_OWN] =
			RX_OP_OWN_INVALID;
	*pci = ci + cnt;
	rxq->zip_ai = 0;
	return end - start;
}

static __rte_noinline uint32_t
mlx5v_rx_zip_rss(struct mlx5v_rxq *rxq, uint32_t *pci, uint32_t *prq_ci, struct rte_mbuf **out,
		 uint32_t max, uint64_t *bytes)
{
	return mlx5v_rx_zip(rxq, pci, prq_ci, out, max, bytes, 1);
}

static __rte_noinline uint32_t
mlx5v_rx_zip_plain(struct mlx5v_rxq *rxq, uint32_t *pci, uint32_t *prq_ci, struct rte_mbuf **out,
		   uint32_t max, uint64_t *bytes)
{
	return mlx5v_rx_zip(rxq, pci, prq_ci, out, max, bytes, 0);
}

#if RX_VEC
/*
 * One mbuf m of a session: rearm_data with ol_flags (rf), and the 16 bytes from packet_type:
 * the byte count of a mini-CQE shuffled into pkt_len and data_len (lens, everything else 0)
 * over the title's packet type and VLAN (blk, pkt_len 0); that block added to *vsum, whose
 * pkt_len lane thus sums the byte counts.
 */
static __rte_always_inline void
mlx5v_rx_zip_mbuf(struct rte_mbuf *m, __m128i rf, __m128i lens, __m128i blk, __m128i *vsum)
{
	lens = _mm_or_si128(lens, blk);
	*vsum = _mm_add_epi32(*vsum, lens);
	_mm_storeu_si128((__m128i *)(void *)&m->rearm_data, rf);
	_mm_storeu_si128((__m128i *)(void *)&m->packet_type, lens);
}

/*
 * What every frame of the session whose title is at title shares, as mlx5v_rx_zip_sse() stores
 * it: rearm_data with ol_flags (rf: the title's checksum flags, from the mlx5v_rx_meta table as in
 * mlx5v_rx_run(), and a stripped VLAN's), and the block from packet_type (blk: the packet type, the
 * VLAN tag, pkt_len and data_len 0).
 */
static __rte_always_inline void
mlx5v_rx_zip_title(const uint8_t *title, uint64_t rearm, __m128i *rf, __m128i *blk)
{
	const uint32_t hdr = mlx5v_rx_cqe_dw(title, RX_DW_HDR);
	const struct rx_meta *meta = &mlx5v_rx_meta[RX_META_INDEX(hdr)];
	uint64_t flags = meta->ol_flags;

	*blk = _mm_cvtsi32_si128((int)meta->ptype);
	if (unlikely(hdr & RX_CVLAN)) {
		flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
		*blk = _mm_insert_epi16(*blk, (uint16_t)hdr, 5);
	}
	*rf = _mm_set_epi64x((long long)flags, (long long)rearm);
}

/*
 * The 8 mini-CQEs of a whole array at arr whose mbufs ep[0..7] are contiguous in the ring,
 * into out[0..7] (mlx5v_rx_zip_mbuf() each, over rf and blk, byte counts into *vsum), two per
 * 16-byte load, unrolled; the slots rearmed with fresh mbufs from top[0..7] two at a time
 * (mlx5v_rx_rearm2()); then the array's slot is marked consumed (see mlx5v_rx_consumed(): the mark
 * overwrites the last mini-CQE's low byte, read by then).
 */
static __rte_always_inline void
mlx5v_rx_zip8(uint8_t *arr, struct rte_mbuf **ep, struct rte_mbuf **out, uint64_t *dseg,
	      void *const *top, __m128i rf, __m128i blk, __m128i *vsum)
{
	/* byte_cnt (big-endian) of the first or the second mini-CQE of 16 bytes. */
	const __m128i shuf = _mm_setr_epi8(-1, -1, -1, -1, 7, 6, 5, 4, 7, 6, -1, -1,
					   -1, -1, -1, -1);
	const __m128i shuf1 = _mm_setr_epi8(-1, -1, -1, -1, 15, 14, 13, 12, 15, 14, -1, -1,
					    -1, -1, -1, -1);
	struct rte_mbuf *m0, *m1;
	unsigned int j;
	__m128i mc;

#pragma GCC unroll 4
	for (j = 0; j < MLX5V_MINI_CQE_PER_SLOT; j += 2) {
		mc = _mm_loadu_si128((const __m128i *)(const void *)(arr + 8 * j));
		m0 = ep[j];
		m1 = ep[j + 1];
		_mm_storeu_si128((__m128i *)(void *)&out[j],
				 _mm_loadu_si128((const __m128i *)(const void *)&ep[j]));
		mlx5v_rx_rearm2(&ep[j], dseg + 2 * j, &top[MLX5V_MINI_CQE_PER_SLOT - 2 - j]);
		mlx5v_rx_zip_mbuf(m0, rf, _mm_shuffle_epi8(mc, shuf), blk, vsum);
		mlx5v_rx_zip_mbuf(m1, rf, _mm_shuffle_epi8(mc, shuf1), blk, vsum);
	}
	arr[RX_CQE_OP_OWN] = RX_OP_OWN_INVALID;
}

/*
 * mlx5v_rx_zip() without the hash, with SSE. The title's packet type and flags come from the
 * mlx5v_rx_meta table as in mlx5v_rx_run(); the session is walked an array of 8 mini-CQEs at a
 * time. A whole array whose 8 mbufs are contiguous in the ring takes 4 16-byte loads of mini-CQEs
 * and of mbuf pointers, unrolled; the rest (the ends of a session taken in parts, an array across
 * the ring's end) one mini-CQE at a time. Each array's slot is marked consumed once its last
 * mini-CQE is read (the mark overwrites that mini-CQE's low byte), the title when the session is
 * done. The byte counts are summed in one lane, and the slots rearmed at once, as in
 * mlx5v_rx_run_sse().
 */
static __rte_always_inline uint32_t
mlx5v_rx_zip_sse(struct mlx5v_rxq *rxq, uint32_t *pci, uint32_t *prq_ci, struct rte_mbuf **out,
		 uint32_t max, uint64_t *bytes, void ***ptp)
{
	void **tp = *ptp;
	/* byte_cnt (big-endian) of the first mini-CQE of 16 bytes. */
	const __m128i shuf = _mm_setr_epi8(-1, -1, -1, -1, 7, 6, 5, 4, 7, 6, -1, -1,
					   -1, -1, -1, -1);
	uint8_t *const cqes = rxq->cqes;
	struct rte_mbuf **const elts = rxq->elts;
	const uint32_t cq_mask = rxq->cq_nent - 1;
	const uint32_t ci = *pci;
	uint8_t *const title = cqes + (size_t)(ci & cq_mask) * RX_CQE_SIZE;
	const uint32_t start = rxq->zip_ai;
	uint32_t rq_ci = *prq_ci;
	uint32_t a = start, cnt, end, idx, k, o;
	__m128i rf, blk, mc, vsum = _mm_setzero_si128();
	struct rte_mbuf **ep, *m1;
	const uint8_t *mini;
	uint64_t *dseg;
	uint8_t *arr;

	/* The title's owner was checked by the caller; its body and the arrays follow it. */
	rte_io_rmb();
	cnt = mlx5v_rx_cqe_dw(title, MLX5V_IFC_DW(cqe_eth, byte_cnt));
	end = a + RTE_MIN(cnt - a, max);
	mlx5v_rx_zip_title(title, rxq->mbuf_rearm, &rf, &blk);
	/* The array of mini-CQE a: slot title + 1 for the first, title + 8k for the k-th. */
	o = a < MLX5V_MINI_CQE_PER_SLOT ? 1 : a & ~(MLX5V_MINI_CQE_PER_SLOT - 1);
	while (a < end) {
		idx = rq_ci & rxq->wqe_mask;
		/* Whole arrays from here whose mbufs do not cross the RQ ring's end. */
		k = (a & (MLX5V_MINI_CQE_PER_SLOT - 1)) == 0 ?
		    RTE_MIN(end - a, (uint32_t)rxq->nb_desc - idx) / MLX5V_MINI_CQE_PER_SLOT : 0;
		if (likely(k > 0)) {
			ep = &elts[idx];
			dseg = mlx5v_rx_refill_dseg(rxq, idx);
			a += k * MLX5V_MINI_CQE_PER_SLOT;
			rq_ci += k * MLX5V_MINI_CQE_PER_SLOT;
			do {
				arr = cqes + (size_t)((ci + o) & cq_mask) * RX_CQE_SIZE;
				tp -= MLX5V_MINI_CQE_PER_SLOT;
				mlx5v_rx_zip8(arr, ep, out, dseg, tp, rf, blk, &vsum);
				ep += MLX5V_MINI_CQE_PER_SLOT;
				dseg += 2 * MLX5V_MINI_CQE_PER_SLOT;
				out += MLX5V_MINI_CQE_PER_SLOT;
				o = (o | (MLX5V_MINI_CQE_PER_SLOT - 1)) + 1;
			} while (--k > 0);
			continue;
		}
		arr = cqes + (size_t)((ci + o) & cq_mask) * RX_CQE_SIZE;
		k = RTE_MIN(end - a, MLX5V_MINI_CQE_PER_SLOT - (a & (MLX5V_MINI_CQE_PER_SLOT - 1)));
		/* One at a time, each mbuf's slot taken modulo the ring. */
		mini = arr + (size_t)(a & (MLX5V_MINI_CQE_PER_SLOT - 1)) *
			     MLX5V_IFC_BYTES(mini_cqe_hash);
		a += k;
		for (; k > 0; k--, rq_ci++, out++, mini += MLX5V_IFC_BYTES(mini_cqe_hash)) {
			mc = _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)
								 (const void *)mini), shuf);
			idx = rq_ci & rxq->wqe_mask;
			m1 = elts[idx];
			mlx5v_rx_rearm1(&elts[idx], mlx5v_rx_refill_dseg(rxq, idx), *--tp);
			*out = m1;
			mlx5v_rx_zip_mbuf(m1, rf, mc, blk, &vsum);
		}
		/*
		 * The array's last mini-CQE read: its slot is consumed (see mlx5v_rx_consumed()).
		 */
		if ((a & (MLX5V_MINI_CQE_PER_SLOT - 1)) == 0 || a == cnt) {
			arr[RX_CQE_OP_OWN] = RX_OP_OWN_INVALID;
			o = (o | (MLX5V_MINI_CQE_PER_SLOT - 1)) + 1;
		}
	}
	*ptp = tp;
	*bytes += mlx5v_rx_vsum_bytes(vsum);
	*prq_ci = rq_ci;
	if (a < cnt) {
		rxq->zip_ai = (uint16_t)a;
		return end - start;
	}
	title[RX_CQE_OP_OWN] = RX_OP_OWN_INVALID;
	*pci = ci + cnt;
	rxq->zip_ai = 0;
	return end - start;
}
#endif

/*
 * The usual burst of an SSE queue on a compressing CQ (doc/guides/prm/mlx5_eth.rst §8.5):
 * the CQE at cq_ci is the title of a session not taken in part, of at most n frames in whole
 * arrays of 8, whose CQ slots and RQ slots do not cross their rings' ends; the lcore's cache
 * (the caller checked) holds a fresh mbuf for each. Then the session is taken array by array
 * (mlx5v_rx_zip8()), the title marked consumed, the CQ record and the RQ's written once. @return
 * the frames taken, or -1 when the burst is not such a one (nothing done).
 */
static __rte_always_inline int
mlx5v_rx_zip_whole(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n,
		   struct rte_mempool_cache *cache)
{
	const uint32_t ci = rxq->cq_ci;
	const uint32_t slot = ci & (rxq->cq_nent - 1);
	uint8_t *const title = rxq->cqes + (size_t)slot * RX_CQE_SIZE;
	const uint32_t rq_ci = rxq->rq_ci;
	const uint32_t idx = rq_ci & rxq->wqe_mask;
	__m128i rf, blk, vsum = _mm_setzero_si128();
	struct rte_mbuf **ep, **out = pkts;
	uint64_t *dseg;
	void **tp;
	uint32_t cnt, k;
	uint8_t *arr;

	/*
	 * A title whose owner bit is the lap parity of ci (prm/mlx5_eth §8.1), nothing of it taken.
	 */
	if (title[RX_CQE_OP_OWN] != mlx5v_rx_op_own_title(ci, rxq->cq_log) || rxq->zip_ai != 0)
		return -1;
	/* The body and the arrays are read only after the owner check. */
	rte_io_rmb();
	cnt = mlx5v_rx_cqe_dw(title, MLX5V_IFC_DW(cqe_eth, byte_cnt));
	if (unlikely(cnt > n || cnt % MLX5V_MINI_CQE_PER_SLOT != 0 || cnt == 0 ||
		     slot + cnt > rxq->cq_nent || idx + cnt > rxq->nb_desc))
		return -1;
	mlx5v_rx_zip_title(title, rxq->mbuf_rearm, &rf, &blk);
	ep = &rxq->elts[idx];
	dseg = mlx5v_rx_refill_dseg(rxq, idx);
	tp = &cache->objs[cache->len];
	/* Mini-CQE j sits in the array at slot title + 1 for j < 8, title + (j & ~7) after. */
	arr = title + RX_CQE_SIZE;
	for (k = 0; k < cnt; k += MLX5V_MINI_CQE_PER_SLOT) {
		tp -= MLX5V_MINI_CQE_PER_SLOT;
		mlx5v_rx_zip8(arr, ep + k, out + k, dseg + 2 * k, tp, rf, blk, &vsum);
		arr = title + (size_t)(k + MLX5V_MINI_CQE_PER_SLOT) * RX_CQE_SIZE;
	}
	title[RX_CQE_OP_OWN] = RX_OP_OWN_INVALID;
	cache->len -= cnt;
	rxq->rq_ci = rq_ci + cnt;
	rxq->rq_fi = rq_ci + cnt + rxq->nb_desc;
	rxq->packets += cnt;
	rxq->bytes += mlx5v_rx_vsum_bytes(vsum);
	mlx5v_rx_cq_record(rxq, ci + cnt);
	mlx5v_rx_post(rxq, rq_ci + cnt + rxq->nb_desc);
	return (int)cnt;
}

/*
 * One-mbuf WQEs, with or without the RSS hash (rss), with or without SSE (vec; constants in
 * each instance). The CQEs are taken in runs that end with the burst, the CQ ring or the RQ
 * ring: within a run the owner parity is constant and the CQE and mbuf pointers just step.
 * With vec, every slot taken gets a fresh mbuf from the lcore's cache (which holds n) in the
 * same loop, and the WQEs are posted at the end; otherwise mlx5v_rx_refill() runs once enough wait.
 */
static __rte_always_inline uint16_t
mlx5v_rx_burst_rxq(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n, const int rss,
		   const int want_vec, struct rte_mempool_cache *cache)
{
	const int vec = RX_VEC && want_vec;
	void **tp = vec ? &cache->objs[cache->len] : NULL;
	const uint32_t cq_mask = rxq->cq_nent - 1;
	const uint32_t ci0 = rxq->cq_ci;
	uint32_t ci = ci0;
	uint32_t rq_ci = rxq->rq_ci;
	const uint8_t *cqe;
	struct rte_mbuf **ep;
	uint64_t bytes = 0;
	uint32_t run, k;
	uint32_t i = 0;
	uint8_t own;

	while (i < n) {
		cqe = rxq->cqes + (size_t)(ci & cq_mask) * RX_CQE_SIZE;
		/* A compressed session, when the CQ makes them (prm/mlx5_eth §8.5). */
		if (rxq->cqe_comp && cqe[RX_CQE_OP_OWN] == mlx5v_rx_op_own_title(ci, rxq->cq_log)) {
			if (rss)
				k = mlx5v_rx_zip_rss(rxq, &ci, &rq_ci, &pkts[i], n - i, &bytes);
#if RX_VEC
			else if (vec)
				k = mlx5v_rx_zip_sse(rxq, &ci, &rq_ci, &pkts[i], n - i, &bytes,
						     &tp);
#endif
			else
				k = mlx5v_rx_zip_plain(rxq, &ci, &rq_ci, &pkts[i], n - i, &bytes);
			i += k;
			continue;
		}
		run = RTE_MIN((uint32_t)(n - i), rxq->cq_nent - (ci & cq_mask));
		run = RTE_MIN(run, (uint32_t)rxq->nb_desc - (rq_ci & rxq->wqe_mask));
		ep = &rxq->elts[rq_ci & rxq->wqe_mask];
		own = mlx5v_rx_op_own_ok(ci, rxq->cq_log);
		if (rss)
			k = mlx5v_rx_run_rss(cqe, ep, &pkts[i], run, own, rxq->mbuf_rearm, &bytes,
					     mlx5v_rx_want(rxq));
#if RX_VEC
		else if (vec)
			k = mlx5v_rx_run_sse(cqe, ep, &pkts[i], run, own, rxq->mbuf_rearm, &bytes,
					     mlx5v_rx_refill_dseg(rxq, rq_ci & rxq->wqe_mask), &tp);
#endif
		else
			k = mlx5v_rx_run_plain(cqe, ep, &pkts[i], run, own, rxq->mbuf_rearm,
					       &bytes);
		if (rxq->cqe_comp)
			mlx5v_rx_consumed(rxq->cqes, cq_mask, ci, k);
		i += k;
		ci += k;
		rq_ci += k;
		if (k == run)
			continue;
		/* A session right after full CQEs: the loop's first check takes it. */
		cqe = rxq->cqes + (size_t)(ci & cq_mask) * RX_CQE_SIZE;
		if (rxq->cqe_comp && cqe[RX_CQE_OP_OWN] == mlx5v_rx_op_own_title(ci, rxq->cq_log))
			continue;
		/* An error CQE is consumed with its WQE; the burst goes on unless the RQ failed. */
		rxq->rq_ci = rq_ci;
		k = (uint32_t)mlx5v_rx_cqe_slow(rxq, ci, vec);
		if (k == 0)
			break;
		if (k == RX_CQE_AGAIN)
			continue;
		if (rxq->cqe_comp)
			mlx5v_rx_consumed(rxq->cqes, cq_mask, ci, 1);
		ci++;
		rq_ci++;
		if (rxq->recover)
			break;
	}
	rxq->rq_ci = rq_ci;
	rxq->packets += i;
	rxq->bytes += bytes;
	if (vec) {
		cache->len = (uint32_t)(tp - cache->objs);
		rxq->rq_fi = rq_ci + rxq->nb_desc;
	}
	if (ci != ci0)
		mlx5v_rx_cq_record(rxq, ci);
	/*
	 * The CQ record is out before the RQ's grows: the CQ has room for every WQE posted.
	 * With vec every slot holds a fresh mbuf (see mlx5v_rx_refill_post()).
	 */
	if (vec)
		mlx5v_rx_post(rxq, rq_ci - rxq->zip_ai + rxq->nb_desc);
	else if (rq_ci - rxq->zip_ai + rxq->nb_desc - rxq->rq_pi >= rxq->refill_thresh)
		mlx5v_rx_refill(rxq);
	return (uint16_t)i;
}

static __rte_noinline uint16_t
mlx5v_rx_burst_rss(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	return mlx5v_rx_burst_rxq(rxq, pkts, n, 1, 0, NULL);
}

static __rte_noinline uint16_t
mlx5v_rx_burst_plain(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	return mlx5v_rx_burst_rxq(rxq, pkts, n, 0, 0, NULL);
}

/*
 * The SSE queue's burst when the lcore's cache holds a fresh mbuf for each frame: a whole
 * compressed session in one pass when it is one (mlx5v_rx_zip_whole()), else the general loop.
 */
static __rte_always_inline uint16_t
mlx5v_rx_burst_vec(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n,
		   struct rte_mempool_cache *cache)
{
	int ret = rxq->cqe_comp ? mlx5v_rx_zip_whole(rxq, pkts, n, cache) : -1;

	return ret >= 0 ? (uint16_t)ret : mlx5v_rx_burst_rxq(rxq, pkts, n, 0, 1, cache);
}

/* mlx5v_rx_burst_vec() out of line, so that the burst function keeps few registers. */
static __rte_noinline uint16_t
mlx5v_rx_burst_vec_sse(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n,
		       struct rte_mempool_cache *cache)
{
	return mlx5v_rx_burst_vec(rxq, pkts, n, cache);
}

#if MLX5V_AVX2
/*
 * mlx5v_rx_burst_vec() built for AVX2 (rxq->avx2), everything it calls inlined: the same SSE loops
 * in the VEX encoding, whose three-operand forms spare the register copies.
 */
static MLX5V_AVX2_FN __attribute__((flatten)) __rte_noinline uint16_t
mlx5v_rx_burst_vec_avx2(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n,
			struct rte_mempool_cache *cache)
{
	return mlx5v_rx_burst_vec(rxq, pkts, n, cache);
}
#endif

/*
 * An SSE queue's burst when some consumed slots hold no fresh mbuf yet, or the lcore's cache
 * holds fewer than n: the slots filled first; the burst rearms from the cache if it holds at
 * least min(n, 32) mbufs (taking at most as many frames), else takes the scalar loops.
 */
static __rte_noinline uint16_t
mlx5v_rx_burst_vec_slow(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n,
			struct rte_mempool_cache *cache)
{
	if (rxq->rq_fi != rxq->rq_ci + rxq->nb_desc)
		mlx5v_rx_refill(rxq);
	if (cache != NULL && rxq->rq_fi == rxq->rq_ci + rxq->nb_desc &&
	    cache->len >= RTE_MIN((uint32_t)n, (uint32_t)RX_REFILL_THRESH))
		return mlx5v_rx_burst_rxq(rxq, pkts, (uint16_t)RTE_MIN((uint32_t)n, cache->len),
					  0, 1, cache);
	return mlx5v_rx_burst_plain(rxq, pkts, n);
}

/* The loop that fits the queue and the lcore's cache. @return the frames taken. */
static __rte_always_inline uint16_t
mlx5v_rx_burst_pick(struct mlx5v_rxq *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mempool_cache *cache;
	uint16_t nrx;

	/*
	 * The SSE queue, the usual one, inline here when the lcore's cache holds the mbufs that
	 * rearm the slots (all of the consumed ones hold fresh mbufs first); otherwise, and for
	 * the other queues, out of line. Once a flow rule marks, the scalar loop that reads each
	 * CQE's flow tag (the SSE loops do not).
	 */
	if (RX_VEC && likely(rxq->vec && !rxq->mark)) {
		cache = rte_mempool_default_cache(rxq->mp, rte_lcore_id());
		if (likely(cache != NULL && cache->len >= n &&
			   rxq->rq_fi == rxq->rq_ci + rxq->nb_desc)) {
#if MLX5V_AVX2
			if (rxq->avx2)
				nrx = mlx5v_rx_burst_vec_avx2(rxq, pkts, n, cache);
			else
#endif
				nrx = mlx5v_rx_burst_vec_sse(rxq, pkts, n, cache);
		} else
			nrx = mlx5v_rx_burst_vec_slow(rxq, pkts, n, cache);
	} else if (rxq->sges_log != 0)
		nrx = mlx5v_rx_burst_sg(rxq, pkts, n);
	else if (rxq->rss_hash || rxq->mark)
		nrx = mlx5v_rx_burst_rss(rxq, pkts, n);
	else
		nrx = mlx5v_rx_burst_plain(rxq, pkts, n);
	return nrx;
}

uint16_t
mlx5v_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5v_rxq *rxq = q;
	uint16_t nrx;

	if (unlikely(!rxq->ready || rxq->recover)) {
		if (!rxq->ready)
			return 0;
		mlx5v_rx_recover(rxq);
		if (rxq->recover)
			return 0;
	}
	nrx = mlx5v_rx_burst_pick(rxq, pkts, n);
	if (unlikely(rxq->recover))
		mlx5v_rx_recover(rxq);
	return nrx;
}

void
mlx5v_rxq_flush(struct mlx5v_rxq *rxq)
{
	/*
	 * The RQ is in RST: what the device wrote since the last burst is dropped unread, as
	 * recovery drops its flushed CQEs (mlx5v_rx_drain_cq()); the mbufs stay in their slots for
	 * mlx5v_rxq_drain(). An error CQE among them needs no recovery: the queue's start moves
	 * RST to RDY.
	 */
	mlx5v_rx_drain_cq(rxq);
	rxq->zip_ai = 0;
	rxq->recover = 0;
}

/*
 * Whether the SSE loops read sessions of mini-CQE format fmt: those whose byte count is the
 * second dword and which leave the packet type and flags to the title (HASH, checksum).
 */
static int
mlx5v_rx_zip_sse_fmt(uint8_t fmt)
{
	return fmt == MLX5V_MINI_CQE_FMT_HASH || fmt == MLX5V_MINI_CQE_FMT_CSUM ||
	       fmt == MLX5V_MINI_CQE_FMT_CSUM_STRIDX;
}

int
mlx5v_rxq_fill(struct mlx5v_rxq *rxq)
{
	uint32_t nsges = 1u << rxq->sges_log;
	uint32_t w, k;
	uint8_t *dseg;
	struct rte_mbuf mb;
	int ret = 0;

	/* The fields of a received mbuf that every frame repeats (rearm_data). */
	memset(&mb, 0, sizeof(mb));
	mb.data_off = RTE_PKTMBUF_HEADROOM;
	mb.nb_segs = 1;
	mb.port = rxq->port_id;
	rte_mbuf_refcnt_set(&mb, 1);
	memcpy(&rxq->mbuf_rearm, &mb.rearm_data, sizeof(rxq->mbuf_rearm));
	rxq->refill_thresh = RTE_MAX(1, RTE_MIN(RX_REFILL_THRESH, rxq->nb_desc / 4));
	rxq->rss_hash = !!(rxq->offloads & RTE_ETH_RX_OFFLOAD_RSS_HASH);
	/*
	 * The SSE loop where it is built and EAL allows 128-bit vectors, for one-mbuf WQEs
	 * without the hash, and on a compressing CQ for the mini-CQE formats it reads.
	 */
	rxq->vec = RX_VEC && !rxq->rss_hash && rxq->sges_log == 0 &&
		   rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_128 &&
		   (!rxq->cqe_comp || mlx5v_rx_zip_sse_fmt(rxq->mini_fmt));
	/* Those loops built for AVX2 where the CPU and EAL allow 256-bit vectors. */
	rxq->avx2 = MLX5V_AVX2 && rxq->vec && mlx5v_avx2_ok();
	for (w = 0; w < rxq->nb_desc; w++) {
		for (k = 0; k < nsges; k++) {
			dseg = mlx5v_rx_dseg(rxq, w, k);
			MLX5V_IFC_SET(wqe_data_seg, dseg, byte_count, rxq->seg_size);
			MLX5V_IFC_SET(wqe_data_seg, dseg, lkey, rxq->lkey);
		}
	}
	/* The CQ goes on from cq_ci: a queue started again keeps its CQ (mlx5v_rxq_start()). */
	rxq->rq_ci = 0;
	rxq->rq_pi = 0;
	rxq->rq_fi = 0;
	rxq->zip_ai = 0;
	rxq->recover = 0;
	if (rxq->sges_log == 0) {
		ret = mlx5v_rx_refill(rxq);
	} else if (rte_mempool_get_bulk(rxq->mp, (void **)rxq->elts,
					rxq->nb_desc * nsges) != 0) {
		ret = -ENOMEM;
	} else {
		for (w = 0; w < rxq->nb_desc; w++)
			for (k = 0; k < nsges; k++)
				mlx5v_rx_dseg_addr(mlx5v_rx_dseg(rxq, w, k),
						   rxq->elts[(w << rxq->sges_log) + k]);
		rxq->rq_fi = rxq->nb_desc;
	}
	/*
	 * Nothing is posted yet: RST->RDY wants the record 0 (prm/mlx5_eth §7.2, see
	 * mlx5v_rx_recover()), and mlx5v_rxq_post() posts the filled WQEs once the RQ is RDY.
	 */
	rxq->rq_pi = 0;
	*rxq->dbrec = 0;
	return ret;
}

void
mlx5v_rxq_post(struct mlx5v_rxq *rxq)
{
	mlx5v_rx_post(rxq, rxq->rq_fi);
}

void
mlx5v_rxq_drain(struct mlx5v_rxq *rxq)
{
	uint32_t nsges = 1u << rxq->sges_log;
	uint32_t i, k, slot;

	if (rxq->elts == NULL)
		return;
	/*
	 * The posted WQEs and those refilled but not posted yet hold the queue's mbufs; the
	 * other consumed slots name delivered ones.
	 */
	for (i = rxq->rq_ci; i != rxq->rq_fi; i++) {
		for (k = 0; k < nsges; k++) {
			slot = ((i & rxq->wqe_mask) << rxq->sges_log) + k;
			rte_mbuf_raw_free(rxq->elts[slot]);
			rxq->elts[slot] = NULL;
		}
	}
	rxq->rq_pi = rxq->rq_ci;
	rxq->rq_fi = rxq->rq_ci;
}

uint64_t
mlx5v_rx_offload_capa(const struct mlx5v_ethdev_caps *caps)
{
	uint64_t capa = RTE_ETH_RX_OFFLOAD_SCATTER | RTE_ETH_RX_OFFLOAD_RSS_HASH;

	if (caps->csum_cap)
		capa |= RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
			RTE_ETH_RX_OFFLOAD_TCP_CKSUM;
	if (caps->vlan_cap)
		capa |= RTE_ETH_RX_OFFLOAD_VLAN_STRIP;
	return capa;
}

/* The mini-CQE formats as the Rx burst mode names them. */
static const char *const mlx5v_rx_mini_fmt_name[8] = {
	[MLX5V_MINI_CQE_FMT_HASH] = "hash",
	[MLX5V_MINI_CQE_FMT_CSUM] = "checksum",
	[MLX5V_MINI_CQE_FMT_FTAG] = "flow tag",
	[MLX5V_MINI_CQE_FMT_CSUM_STRIDX] = "checksum",
	[MLX5V_MINI_CQE_FMT_L34H] = "L3/L4 header",
	[5] = "?", [6] = "?", [7] = "?",
};

int
mlx5v_rx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_burst_mode *mode)
{
	const struct mlx5v_rxq *rxq = eth_dev->data->rx_queues[idx];

	if (rxq == NULL)
		return -EINVAL;
	mode->flags = 0;
	if (rxq->sges_log != 0)
		snprintf(mode->info, sizeof(mode->info),
			 "Scalar, scattered (%u mbufs of %u B per WQE)", 1u << rxq->sges_log,
			 rxq->seg_size);
	else
		snprintf(mode->info, sizeof(mode->info),
			 "%s%s, bulk refill (every %u WQEs)%s%s%s",
			 rxq->vec ? "Vector SSE" : "Scalar", rxq->avx2 ? " (AVX2 build)" : "",
			 rxq->refill_thresh,
			 rxq->cqe_comp ? ", compressed CQEs (" : "",
			 rxq->cqe_comp ? mlx5v_rx_mini_fmt_name[rxq->mini_fmt & 7] : "",
			 rxq->cqe_comp ? " mini-CQEs)" : "");
	if (rxq->vec)
		mode->flags = RTE_ETH_BURST_FLAG_PER_QUEUE;
	return 0;
}

const uint32_t *
mlx5v_rx_ptypes_get(struct rte_eth_dev *eth_dev)
{
	/* What mlx5v_rx_cqe_meta() reports from the CQE (prm/mlx5_eth §8.2). */
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER,
		RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
		RTE_PTYPE_L3_IPV6_EXT_UNKNOWN,
		RTE_PTYPE_L4_TCP,
		RTE_PTYPE_L4_UDP,
		RTE_PTYPE_L4_FRAG,
		RTE_PTYPE_UNKNOWN,
	};

	RTE_SET_USED(eth_dev);
	return ptypes;
}
