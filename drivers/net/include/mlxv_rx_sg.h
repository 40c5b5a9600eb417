/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The scattered-Rx frame builder shared by the mlx5v and mlx4v PMDs: a received frame spans
 * the first mbufs of its WQE's scatter list, which are chained into one packet while fresh
 * mbufs take their places in the WQE. Only the data-segment writer differs between the two
 * devices (doc/guides/nics/mlx5v.rst and doc/guides/nics/mlx4v.rst, scattered Rx).
 */

#ifndef _MLXV_RX_SG_H_
#define _MLXV_RX_SG_H_

#include <string.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

/** Most mbufs of one WQE the builder handles. */
#define MLXV_RX_SG_MAX 64

/**
 * Point data segment k of WQE w of queue q at the buffer of m (the device's layout: its
 * address, and the lkey where it depends on the buffer; the byte count stays).
 */
typedef void (mlxv_rx_sg_dseg_fn)(void *q, uint32_t w, uint32_t k, struct rte_mbuf *m);

/** What the builder needs of a queue (the caller's fields, by value or by address). */
struct mlxv_rx_sg_ctx {
	void *q;                      /**< the queue, passed to dseg_set */
	struct rte_mempool *mp;       /**< where the fresh mbufs come from */
	uint64_t rearm;               /**< rearm_data of a received mbuf */
	uint32_t seg_size;            /**< bytes of one mbuf's data room */
	uint32_t max_segs;            /**< mbufs of one WQE (at most MLXV_RX_SG_MAX) */
	uint64_t *errors;             /**< counts a length the WQE cannot hold */
	uint64_t *nombuf;             /**< counts a frame dropped for want of mbufs */
};

/**
 * The frame of len bytes in elts, the mbufs of WQE w, chained into one packet (nb_segs,
 * data_len of each, pkt_len; the other fields the caller's); fresh mbufs from the pool take
 * their places in elts and in the WQE through dseg_set (a constant: the builder is inlined
 * with it). @return the packet, or NULL (the frame is dropped, the WQE keeps its buffers and
 * is posted again as it is): no mbufs (*nombuf counted), or a length beyond the WQE's
 * buffers, which the device never writes (*errors counted).
 */
static __rte_always_inline struct rte_mbuf *
mlxv_rx_sg_frame(const struct mlxv_rx_sg_ctx *c, struct rte_mbuf **elts, uint32_t w,
		 uint32_t len, mlxv_rx_sg_dseg_fn *dseg_set)
{
	struct rte_mbuf *rep[MLXV_RX_SG_MAX];
	uint32_t nseg = RTE_MAX(1u, (len + c->seg_size - 1) / c->seg_size);
	struct rte_mbuf *head = elts[0], *seg;
	uint32_t k, left = len;

	if (unlikely(nseg > c->max_segs || nseg > MLXV_RX_SG_MAX)) {
		(*c->errors)++;
		return NULL;
	}
	if (unlikely(rte_mempool_get_bulk(c->mp, (void **)rep, nseg) != 0)) {
		(*c->nombuf)++;
		return NULL;
	}
	for (k = 0; k < nseg; k++) {
		seg = elts[k];
		/* data_off, refcnt, nb_segs and port in one store. */
		memcpy(&seg->rearm_data, &c->rearm, sizeof(c->rearm));
		seg->data_len = (uint16_t)RTE_MIN(left, c->seg_size);
		seg->next = k + 1 < nseg ? elts[k + 1] : NULL;
		left -= seg->data_len;
		elts[k] = rep[k];
		dseg_set(c->q, w, k, rep[k]);
	}
	head->nb_segs = (uint16_t)nseg;
	head->pkt_len = len;
	return head;
}

#endif /* _MLXV_RX_SG_H_ */
