/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Rx burst of the mlx5v PMD: a cyclic RQ whose WQEs each hold 2^sges_log mbufs (one
 * when a frame fits one mbuf, several for scattered Rx), every WQE posted again with fresh
 * mbufs as soon as its CQE is read; checksum, packet type, RSS hash and VLAN from the CQE;
 * an RQ that an error CQE moved to ERR brought back to RDY (doc/guides/prm/mlx5_eth.rst §7,
 * §8).
 */

#include <string.h>

#include <rte_mbuf.h>

#include "mlx5v_devx.h"
#include "mlx5v_ethdev.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "rte_pmd_mlx5v.h"

#define GET(t, p, f) MLX5V_IFC_GET(t, p, f)
#define SET(t, p, f, v) MLX5V_IFC_SET(t, p, f, v)


/* Packet type of the CQE's l3_hdr_type (§8.2). */
static const uint32_t rx_ptype_l3[4] = {
	[MLX5V_CQE_L3_IPV6] = RTE_PTYPE_L3_IPV6_EXT_UNKNOWN,
	[MLX5V_CQE_L3_IPV4] = RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
};

/* Packet type of the CQE's l4_hdr_type (§8.2): every TCP flavour is TCP. */
static const uint32_t rx_ptype_l4[8] = {
	[MLX5V_CQE_L4_TCP] = RTE_PTYPE_L4_TCP,
	[MLX5V_CQE_L4_UDP] = RTE_PTYPE_L4_UDP,
	[MLX5V_CQE_L4_TCP_ACK] = RTE_PTYPE_L4_TCP,
	[MLX5V_CQE_L4_TCP_ACK_DATA] = RTE_PTYPE_L4_TCP,
};

/* The data segment k of WQE w. */
static inline uint8_t *
rx_dseg(const struct mlx5v_rxq *rxq, uint32_t w, uint32_t k)
{
	return rxq->wqes + (((size_t)w << rxq->sges_log) + k) * MLX5V_WQE_DS;
}

/* Point data segment k of WQE w at mbuf m (§7.1: byte_count and lkey stay). */
static inline void
rx_post(struct mlx5v_rxq *rxq, uint32_t w, uint32_t k, struct rte_mbuf *m)
{
	rxq->elts[(w << rxq->sges_log) + k] = m;
	MLX5V_IFC_SET64(wqe_data_seg, rx_dseg(rxq, w, k), addr, rte_mbuf_data_iova_default(m));
}

/* What the CQE says about the frame: type, checksums, hash, VLAN (§8.2). */
static inline void
rx_cqe_to_mbuf(const uint8_t *cqe, struct rte_mbuf *m)
{
	uint32_t l3 = GET(cqe_eth, cqe, l3_hdr_type);
	uint32_t l4 = GET(cqe_eth, cqe, l4_hdr_type);
	uint64_t flags = 0;

	m->packet_type = RTE_PTYPE_L2_ETHER | rx_ptype_l3[l3];
	if (GET(cqe_eth, cqe, ip_frag))
		m->packet_type |= RTE_PTYPE_L4_FRAG;
	else
		m->packet_type |= rx_ptype_l4[l4];
	if (l3 != MLX5V_CQE_L3_NONE)
		flags |= GET(cqe_eth, cqe, l3_ok) ? RTE_MBUF_F_RX_IP_CKSUM_GOOD :
						    RTE_MBUF_F_RX_IP_CKSUM_BAD;
	if (rx_ptype_l4[l4] != 0 && !GET(cqe_eth, cqe, ip_frag))
		flags |= GET(cqe_eth, cqe, l4_ok) ? RTE_MBUF_F_RX_L4_CKSUM_GOOD :
						    RTE_MBUF_F_RX_L4_CKSUM_BAD;
	/* A hash type of 0 means the TIR hashed nothing of this frame. */
	if (GET(cqe_eth, cqe, rss_ip_type) != 0) {
		m->hash.rss = GET(cqe_eth, cqe, rss_hash_result);
		flags |= RTE_MBUF_F_RX_RSS_HASH;
	}
	if (GET(cqe_eth, cqe, cvlan_stripped)) {
		m->vlan_tci = GET(cqe_eth, cqe, vlan_info);
		flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	}
	m->ol_flags = flags;
}

/*
 * The frame of len bytes in the mbufs of WQE w, chained; fresh mbufs take their places in
 * the WQE. @return the packet, or NULL (no mbufs, or a length the WQE cannot hold: the
 * frame is dropped, the WQE keeps its buffers).
 */
static inline struct rte_mbuf *
rx_frame(struct mlx5v_rxq *rxq, uint32_t w, uint32_t len)
{
	struct rte_mbuf *rep[1u << MLX5V_ETH_RX_MAX_SGES_LOG];
	struct rte_mbuf **elts = &rxq->elts[w << rxq->sges_log];
	uint32_t nseg = RTE_MAX(1u, (len + rxq->seg_size - 1) / rxq->seg_size);
	struct rte_mbuf *head = elts[0];
	struct rte_mbuf *seg;
	uint32_t k, left = len;

	/* The device never scatters past the WQE's buffers (LOCAL_LENGTH instead). */
	if (unlikely(nseg > (1u << rxq->sges_log))) {
		rxq->errors++;
		return NULL;
	}
	if (unlikely(rte_pktmbuf_alloc_bulk(rxq->mp, rep, nseg) != 0)) {
		rxq->nombuf++;
		return NULL;
	}
	for (k = 0; k < nseg; k++) {
		seg = elts[k];
		seg->data_len = (uint16_t)RTE_MIN(left, rxq->seg_size);
		seg->next = k + 1 < nseg ? elts[k + 1] : NULL;
		left -= seg->data_len;
		rx_post(rxq, w, k, rep[k]);
	}
	head->nb_segs = (uint16_t)nseg;
	head->pkt_len = len;
	head->port = rxq->port_id;
	return head;
}

/*
 * ERR -> RST -> RDY (§5.2, §8.4): the device restarts at WQE 0 and every WQE still holds
 * its buffers, so all of them are posted again.
 */
static void
rx_recover(struct mlx5v_rxq *rxq)
{
	struct mlx5v_dev *dev = mlx5v_ethdev_core(rxq->eth_dev);
	int ret;

	if (dev == NULL)
		return;
	/* An RQ in ERR or RST does not read the record: it says "all posted" from RDY on. */
	rxq->rq_ci = 0;
	*rxq->dbrec = rte_cpu_to_be_32(rxq->nb_desc);
	ret = mlx5v_ethdev_cmd_q_recover(dev, 0, rxq->rqn);
	if (ret != 0) {
		/* Tried again on the next burst; the queue receives nothing meanwhile. */
		MLX5V_ETH_LOG(ERR, "port %u Rx queue %u: RQ recovery failed: %s", rxq->port_id,
			      rxq->idx, strerror(-ret));
		return;
	}
	rxq->recover = 0;
	MLX5V_ETH_LOG(INFO, "port %u Rx queue %u: RQ back to ready after an error CQE",
		      rxq->port_id, rxq->idx);
}

uint16_t
mlx5v_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5v_rxq *rxq = q;
	struct rte_mbuf *m;
	uint16_t nrx = 0;
	uint32_t cq_ci = rxq->cq_ci;
	uint32_t len, w;
	uint8_t *cqe;

	if (unlikely(!rxq->ready))
		return 0;
	if (unlikely(rxq->recover))
		rx_recover(rxq);
	while (nrx < n) {
		/*
		 * The owner bit of a CQE flips on each lap: one whose bit differs from the lap
		 * parity of cq_ci is not written yet (prm/mlx5_eth §8.1); the helper then
		 * orders the reads of the body after that check.
		 */
		cqe = rte_pmd_mlx5v_cq_next_cqe(rxq->cqes, rxq->cq_nent, cq_ci);
		if (cqe == NULL)
			break;
		cq_ci++;
		/* Completions come in WQE order (§7.1). */
		w = rxq->rq_ci & rxq->wqe_mask;
		rxq->rq_ci++;
		if (unlikely(GET(cqe_eth, cqe, opcode) != MLX5V_CQE_OPCODE_RESP_SEND)) {
			/* The frame is lost; its WQE keeps its buffers (§8.4). */
			rxq->errors++;
			if (GET(cqe_err, cqe, syndrome) != MLX5V_CQE_SYND_LOCAL_LENGTH) {
				/* Anything but an oversize frame leaves the RQ in ERR. */
				rxq->recover = 1;
				break;
			}
			continue;
		}
		len = GET(cqe_eth, cqe, byte_cnt);
		m = rx_frame(rxq, w, len);
		if (unlikely(m == NULL))
			continue;
		rx_cqe_to_mbuf(cqe, m);
		pkts[nrx++] = m;
		rxq->packets++;
		rxq->bytes += len;
	}
	if (cq_ci != rxq->cq_ci) {
		rxq->cq_ci = cq_ci;
		/*
		 * The new buffer addresses must be in memory before the device learns the WQEs
		 * are posted again; the CQ record goes first, so the CQ always has room for every
		 * posted WQE (§7.2, §8.1).
		 */
		rte_io_wmb();
		*rxq->cq_dbrec = rte_cpu_to_be_32(cq_ci & MLX5V_CQ_DB_CI_MASK);
		rte_io_wmb();
		*rxq->dbrec = rte_cpu_to_be_32(rxq->rq_ci + rxq->nb_desc);
	}
	if (unlikely(rxq->recover))
		rx_recover(rxq);
	return nrx;
}

int
mlx5v_rxq_fill(struct mlx5v_rxq *rxq)
{
	uint32_t nsges = 1u << rxq->sges_log;
	uint32_t i, w, k;
	uint8_t *dseg;

	if (rte_pktmbuf_alloc_bulk(rxq->mp, rxq->elts, (unsigned int)rxq->nb_desc * nsges) != 0)
		return -ENOMEM;
	for (w = 0; w < rxq->nb_desc; w++) {
		for (k = 0; k < nsges; k++) {
			dseg = rx_dseg(rxq, w, k);
			SET(wqe_data_seg, dseg, byte_count, rxq->seg_size);
			SET(wqe_data_seg, dseg, lkey, rxq->lkey);
			rx_post(rxq, w, k, rxq->elts[(w << rxq->sges_log) + k]);
		}
	}
	for (i = 0; i < rxq->nb_desc * nsges; i++)
		rxq->elts[i]->port = rxq->port_id;
	rxq->rq_ci = 0;
	rxq->cq_ci = 0;
	rxq->recover = 0;
	/* §7.2: every WQE posted; the record is read once the RQ is RDY. */
	rte_io_wmb();
	*rxq->dbrec = rte_cpu_to_be_32(rxq->nb_desc);
	return 0;
}

void
mlx5v_rxq_drain(struct mlx5v_rxq *rxq)
{
	uint32_t i, n = (uint32_t)rxq->nb_desc << rxq->sges_log;

	if (rxq->elts == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (rxq->elts[i] != NULL)
			rte_pktmbuf_free(rxq->elts[i]);
		rxq->elts[i] = NULL;
	}
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
		snprintf(mode->info, sizeof(mode->info), "Scalar");
	return 0;
}

const uint32_t *
mlx5v_rx_ptypes_get(struct rte_eth_dev *eth_dev)
{
	/* What rx_cqe_to_mbuf() reports from the CQE (prm/mlx5_eth §8.2). */
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
