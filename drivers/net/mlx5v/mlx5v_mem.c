/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Mempools the device may DMA to and from: the Rx queues' pools at start, and every
 * pool a transmitted mbuf comes from when first seen. Data segments carry IOVAs under the
 * reserved lkey (doc/guides/prm/mlx5_eth.rst §4.2), so a pool only has to be reachable by
 * the device: a no-op on vfio-pci, where EAL maps all its memory, and a window of the
 * simulator's IOMMU otherwise. Every pool is unmapped at stop.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>

#include "mlx5v_ethdev.h"
#include "rte_pmd_mlx5v.h"

/** Most mempools a started port maps. */
#define MLX5V_MEM_MAX_POOLS 32

/** One mapped chunk of a pool. */
struct mlx5v_mem_chunk {
	void *addr;
	size_t len;
};

/** The pools mapped for one port, process-local like the core device they are mapped in. */
struct mlx5v_mem_port {
	rte_spinlock_t lock;
	unsigned int n;
	struct rte_mempool *mp[MLX5V_MEM_MAX_POOLS];
	struct mlx5v_mem_chunk *chunk[MLX5V_MEM_MAX_POOLS];
	unsigned int nchunk[MLX5V_MEM_MAX_POOLS];
};

static struct mlx5v_mem_port mlx5v_mem_ports[RTE_MAX_ETHPORTS];

/** rte_mempool_mem_iter() state: map each chunk, stop mapping after the first failure. */
struct mlx5v_mem_walk {
	struct mlx5v_dev *dev;
	struct mlx5v_mem_chunk *chunk;
	unsigned int n;
	int ret;
};

static void
mlx5v_mem_chunk_cb(struct rte_mempool *mp, void *opaque, struct rte_mempool_memhdr *memhdr,
		   unsigned int idx)
{
	struct mlx5v_mem_walk *w = opaque;
	uint64_t iova;
	int ret;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	if (w->ret != 0)
		return;
	/* The DEVX API answers a positive errno (the rdma-core contract). */
	ret = rte_pmd_mlx5v_devx_dma_map((struct rte_pmd_mlx5v_dev *)w->dev, memhdr->addr,
					 memhdr->len, &iova);
	if (ret != 0) {
		w->ret = -ret;
		return;
	}
	w->chunk[w->n].addr = memhdr->addr;
	w->chunk[w->n].len = memhdr->len;
	w->n++;
}

static void
mlx5v_mem_chunks_unmap(struct mlx5v_dev *dev, struct mlx5v_mem_chunk *chunk, unsigned int n)
{
	unsigned int i;

	for (i = 0; dev != NULL && i < n; i++)
		rte_pmd_mlx5v_devx_dma_unmap((struct rte_pmd_mlx5v_dev *)dev, chunk[i].addr,
					     chunk[i].len);
	free(chunk);
}

int
mlx5v_mem_pool_map(struct rte_eth_dev *eth_dev, struct rte_mempool *mp)
{
	struct mlx5v_mem_port *p = &mlx5v_mem_ports[eth_dev->data->port_id];
	struct mlx5v_mem_walk w = { .dev = mlx5v_ethdev_core(eth_dev) };
	unsigned int i;

	/* A secondary's pool is mapped by the primary, which owns the device. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY && mp != NULL)
		return mlx5v_mp_pool_map(eth_dev, mp);
	if (w.dev == NULL || mp == NULL)
		return -ENODEV;
	rte_spinlock_lock(&p->lock);
	for (i = 0; i < p->n; i++)
		if (p->mp[i] == mp)
			goto out;
	if (p->n == MLX5V_MEM_MAX_POOLS) {
		w.ret = -ENOSPC;
		goto out;
	}
	w.chunk = calloc(mp->nb_mem_chunks, sizeof(*w.chunk));
	if (w.chunk == NULL) {
		w.ret = -ENOMEM;
		goto out;
	}
	rte_mempool_mem_iter(mp, mlx5v_mem_chunk_cb, &w);
	if (w.ret != 0) {
		mlx5v_mem_chunks_unmap(w.dev, w.chunk, w.n);
		goto out;
	}
	p->mp[p->n] = mp;
	p->chunk[p->n] = w.chunk;
	p->nchunk[p->n] = w.n;
	p->n++;
out:
	rte_spinlock_unlock(&p->lock);
	if (w.ret != 0)
		MLX5V_ETH_LOG(ERR, "port %u: mapping mempool %s for DMA failed: %s",
			      eth_dev->data->port_id, mp->name, strerror(-w.ret));
	return w.ret;
}

void
mlx5v_mem_unmap_all(struct rte_eth_dev *eth_dev)
{
	struct mlx5v_mem_port *p = &mlx5v_mem_ports[eth_dev->data->port_id];
	struct mlx5v_dev *dev = mlx5v_ethdev_core(eth_dev);
	unsigned int i;

	rte_spinlock_lock(&p->lock);
	for (i = 0; i < p->n; i++)
		mlx5v_mem_chunks_unmap(dev, p->chunk[i], p->nchunk[i]);
	p->n = 0;
	rte_spinlock_unlock(&p->lock);
}
