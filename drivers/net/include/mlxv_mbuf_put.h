/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Giving sent mbufs back without emptying the lcore's mempool cache, shared by the Tx
 * completions of the mlx5v and mlx4v PMDs (doc/guides/bench/mlx5v_fwd.rst and
 * doc/guides/bench/mlx4v_fwd.rst: the cache keeps what it holds for the Rx refill to take).
 */

#ifndef _MLXV_MBUF_PUT_H_
#define _MLXV_MBUF_PUT_H_

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>
#include <rte_mempool.h>

/** How mlxv_mbuf_put_copy() copies n pointers to the cache: dst[i] = src[i]. */
typedef void (*mlxv_mbuf_copy_t)(void **dst, struct rte_mbuf *const *src, uint32_t n);

/**
 * mlxv_mbuf_put() with the copy into the cache made by copy (a loop built for the CPU it
 * runs on, which the caller picks), or by rte_memcpy() when copy is NULL.
 */
static __rte_always_inline void
mlxv_mbuf_put_copy(struct rte_mempool *mp, struct rte_mempool_cache *cache,
		   struct rte_mbuf **objs, uint32_t n, mlxv_mbuf_copy_t copy)
{
	if (unlikely(cache == NULL || cache->len + n > cache->flushthresh)) {
		rte_mempool_ops_enqueue_bulk(mp, (void * const *)objs, n);
		return;
	}
	if (copy != NULL)
		copy(&cache->objs[cache->len], objs, n);
	else
		rte_memcpy(&cache->objs[cache->len], objs, n * sizeof(*objs));
	cache->len += n;
}

/**
 * Give n mbufs of mp (direct, one segment, last reference) back: on top of cache (mp's
 * cache of this lcore, or NULL) while it stays under its flush threshold, else straight to
 * the pool behind it. rte_mempool_generic_put() would first empty the whole cache into the
 * pool, and the Rx refill would then fill it again from there.
 */
static __rte_always_inline void
mlxv_mbuf_put(struct rte_mempool *mp, struct rte_mempool_cache *cache, struct rte_mbuf **objs,
	      uint32_t n)
{
	mlxv_mbuf_put_copy(mp, cache, objs, n, NULL);
}

#endif /* _MLXV_MBUF_PUT_H_ */
