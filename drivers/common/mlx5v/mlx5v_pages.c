/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Firmware pages: give and reclaim 4 KiB pages of EAL memory, page-request events. */

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_alarm.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "mlx5v_dev.h"
#include "mlx5v_log.h"

/*
 * Pages come from chunks of 64 pages (one EAL allocation, a 64-bit bitmap), as rdma-core
 * uses bitmap-tracked DMA blocks (prm/mlx5 §5.2). One allocation per page would waste a
 * page of heap on alignment each time.
 *
 * Both directions are O(1) per page, so that 10^5-10^6 pages stay cheap: chunks with a
 * free page sit on the avail list (give takes its first one), and every page's device
 * address is in a hash table (a returned address finds its chunk without a walk).
 */
#define MLX5V_PAGES_PER_CHUNK 64
#define MLX5V_PAGES_CHUNK_SIZE (MLX5V_PAGES_PER_CHUNK * MLX5V_ADAPTER_PAGE_SIZE)
/* Pages per GIVE command: 16 + 8 * 512 bytes of input, a 9-block mailbox chain. */
#define MLX5V_PAGES_GIVE_BATCH 512
/* EQE ec_function flags (prm/mlx5 §5.2): embedded-CPU function, and "release all". */
#define MLX5V_PAGES_EC_EMBEDDED_CPU 0x8000
#define MLX5V_PAGES_EC_RELEASE_ALL 0x4000
/* Initial hash buckets; the table doubles when it holds two pages per bucket. */
#define MLX5V_PAGES_HASH_MIN 1024
/* Page work found another server busy: look again after this long. */
#define MLX5V_PAGES_WORK_RETRY_US 100

/* One page of a chunk, chained in the hash bucket of its device address. */
struct mlx5v_pages_node {
	struct mlx5v_pages_node *hnext;
	uint64_t iova;
	uint8_t bit;          /**< index in the chunk, to find the chunk from the node */
};

struct mlx5v_pages_chunk {
	TAILQ_ENTRY(mlx5v_pages_chunk) next;   /**< every chunk */
	TAILQ_ENTRY(mlx5v_pages_chunk) anext;  /**< chunks with a free page */
	uint8_t *va;
	uint64_t used;        /**< bit i: page i is with the device (or reserved) */
	uint64_t reserved;    /**< bit i: never handed out (IOVA 0) */
	uint64_t run_start;   /**< bit i: page i starts a DMA window (an IOVA-contiguous run) */
	int in_avail;
	struct mlx5v_pages_node node[MLX5V_PAGES_PER_CHUNK];
};

static uint64_t
mlx5v_pages_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct mlx5v_pages_chunk *
mlx5v_pages_node_chunk(struct mlx5v_pages_node *n)
{
	return RTE_PTR_SUB(n - n->bit, offsetof(struct mlx5v_pages_chunk, node));
}

static uint32_t
mlx5v_pages_hash(const struct mlx5v_pages *pg, uint64_t iova)
{
	/* Fibonacci hashing of the page number: pages of a chunk land in different buckets. */
	return (uint32_t)(((iova >> MLX5V_ADAPTER_PAGE_SHIFT) * UINT64_C(0x9e3779b97f4a7c15)) >>
			  32) & pg->hmask;
}

/* Double the bucket array; O(n), once per doubling, so O(1) amortised per page. */
static int
mlx5v_pages_hash_grow(struct mlx5v_pages *pg)
{
	uint32_t nsize = pg->htbl == NULL ? MLX5V_PAGES_HASH_MIN : (pg->hmask + 1) * 2;
	struct mlx5v_pages_node **ntbl = calloc(nsize, sizeof(*ntbl));
	struct mlx5v_pages_node **otbl = pg->htbl;
	uint32_t osize = otbl == NULL ? 0 : pg->hmask + 1;
	uint32_t i;

	if (ntbl == NULL)
		return -ENOMEM;
	pg->htbl = ntbl;
	pg->hmask = nsize - 1;
	for (i = 0; i < osize; i++) {
		struct mlx5v_pages_node *n = otbl[i];

		while (n != NULL) {
			struct mlx5v_pages_node *nx = n->hnext;
			uint32_t h = mlx5v_pages_hash(pg, n->iova);

			n->hnext = ntbl[h];
			ntbl[h] = n;
			n = nx;
		}
	}
	free(otbl);
	return 0;
}

static struct mlx5v_pages_node *
mlx5v_pages_hash_find(struct mlx5v_pages *pg, uint64_t iova)
{
	struct mlx5v_pages_node *n;

	if (pg->htbl == NULL)
		return NULL;
	for (n = pg->htbl[mlx5v_pages_hash(pg, iova)]; n != NULL; n = n->hnext) {
		pg->steps++;
		if (n->iova == iova)
			return n;
	}
	return NULL;
}

static void
mlx5v_pages_hash_del(struct mlx5v_pages *pg, struct mlx5v_pages_node *n)
{
	struct mlx5v_pages_node **pp = &pg->htbl[mlx5v_pages_hash(pg, n->iova)];

	while (*pp != NULL && *pp != n)
		pp = &(*pp)->hnext;
	if (*pp != NULL)
		*pp = n->hnext;
	pg->hcount--;
}

/* Length in pages of the DMA window that starts at page i (run_start marks window starts). */
static unsigned int
mlx5v_pages_run_len(const struct mlx5v_pages_chunk *c, unsigned int i, unsigned int npages)
{
	unsigned int j = i + 1;

	while (j < npages && !(c->run_start & (UINT64_C(1) << j)))
		j++;
	return j - i;
}

/* Undo the DMA windows of the first npages pages of a chunk. */
static void
mlx5v_pages_chunk_unmap(struct mlx5v_dev *dev, struct mlx5v_pages_chunk *c, unsigned int npages)
{
	unsigned int i, len;

	for (i = 0; i < npages; i += len) {
		len = mlx5v_pages_run_len(c, i, npages);
		mlx5v_hw_dma_unmap(mlx5v_dev_hw(dev), c->va + (size_t)i * MLX5V_ADAPTER_PAGE_SIZE,
				   c->node[i].iova, (size_t)len * MLX5V_ADAPTER_PAGE_SIZE);
	}
}

static void
mlx5v_pages_chunk_free(struct mlx5v_dev *dev, struct mlx5v_pages_chunk *c)
{
	struct mlx5v_pages *pg = &dev->pages;
	unsigned int i;

	TAILQ_REMOVE(&pg->chunks, c, next);
	if (c->in_avail)
		TAILQ_REMOVE(&pg->avail, c, anext);
	for (i = 0; i < MLX5V_PAGES_PER_CHUNK; i++)
		mlx5v_pages_hash_del(pg, &c->node[i]);
	mlx5v_pages_chunk_unmap(dev, c, MLX5V_PAGES_PER_CHUNK);
	rte_free(c->va);
	free(c);
}

/*
 * Map a new chunk, one DMA window per IOVA-contiguous run of its pages as EAL reports
 * them (rte_mem_virt2iova() page by page): with IOVA as PA a chunk may straddle two
 * hugepages that are not adjacent, and a device address computed from the chunk's start
 * would then point into someone else's memory (doc/guides/nics/running_on_hardware.rst).
 * With IOVA as VA the chunk is one run.
 */
static int
mlx5v_pages_chunk_map(struct mlx5v_dev *dev, struct mlx5v_pages_chunk *c)
{
	rte_iova_t prev = RTE_BAD_IOVA;
	unsigned int i, j, len;
	int ret;

	for (i = 0; i < MLX5V_PAGES_PER_CHUNK; i++) {
		rte_iova_t io = rte_mem_virt2iova(c->va + (size_t)i * MLX5V_ADAPTER_PAGE_SIZE);

		if (i == 0 || io == RTE_BAD_IOVA || prev == RTE_BAD_IOVA ||
		    io != prev + MLX5V_ADAPTER_PAGE_SIZE)
			c->run_start |= UINT64_C(1) << i;
		prev = io;
	}
	for (i = 0; i < MLX5V_PAGES_PER_CHUNK; i += len) {
		len = mlx5v_pages_run_len(c, i, MLX5V_PAGES_PER_CHUNK);
		ret = mlx5v_hw_dma_map(mlx5v_dev_hw(dev),
				       c->va + (size_t)i * MLX5V_ADAPTER_PAGE_SIZE,
				       (size_t)len * MLX5V_ADAPTER_PAGE_SIZE, &c->node[i].iova);
		if (ret < 0) {
			mlx5v_pages_chunk_unmap(dev, c, i);
			return ret;
		}
		for (j = 1; j < len; j++)
			c->node[i + j].iova = c->node[i].iova +
					      (uint64_t)j * MLX5V_ADAPTER_PAGE_SIZE;
	}
	return 0;
}

static struct mlx5v_pages_chunk *
mlx5v_pages_chunk_new(struct mlx5v_dev *dev)
{
	struct mlx5v_pages *pg = &dev->pages;
	struct mlx5v_pages_chunk *c;
	unsigned int i;
	int ret;

	if (pg->hcount + MLX5V_PAGES_PER_CHUNK > 2 * ((uint64_t)pg->hmask + 1) ||
	    pg->htbl == NULL) {
		ret = mlx5v_pages_hash_grow(pg);
		if (ret < 0)
			goto err;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		ret = -ENOMEM;
		goto err;
	}
	c->va = rte_zmalloc_socket("mlx5v_fw_pages", MLX5V_PAGES_CHUNK_SIZE,
				   MLX5V_ADAPTER_PAGE_SIZE, dev->socket);
	if (c->va == NULL) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = mlx5v_pages_chunk_map(dev, c);
	if (ret < 0)
		goto err_va_free;
	for (i = 0; i < MLX5V_PAGES_PER_CHUNK; i++) {
		struct mlx5v_pages_node *n = &c->node[i];
		uint32_t h = mlx5v_pages_hash(pg, n->iova);

		/* Firmware does not support a page at DMA address 0 (prm/mlx5 §5.2). */
		if (n->iova == 0)
			c->reserved |= UINT64_C(1) << i;
		n->bit = i;
		n->hnext = pg->htbl[h];
		pg->htbl[h] = n;
	}
	pg->hcount += MLX5V_PAGES_PER_CHUNK;
	c->used = c->reserved;
	TAILQ_INSERT_TAIL(&pg->chunks, c, next);
	TAILQ_INSERT_HEAD(&pg->avail, c, anext);
	c->in_avail = 1;
	return c;

err_va_free:
	rte_free(c->va);
err_free:
	free(c);
err:
	rte_errno = -ret;
	return NULL;
}

static int
mlx5v_pages_alloc_one(struct mlx5v_dev *dev, uint64_t *iova)
{
	struct mlx5v_pages *pg = &dev->pages;
	struct mlx5v_pages_chunk *c = TAILQ_FIRST(&pg->avail);
	unsigned int bit;

	pg->steps++;
	if (c == NULL) {
		c = mlx5v_pages_chunk_new(dev);
		if (c == NULL)
			return -rte_errno;
	}
	bit = rte_bsf64(~c->used);
	c->used |= UINT64_C(1) << bit;
	if (c->used == UINT64_MAX) {
		TAILQ_REMOVE(&pg->avail, c, anext);
		c->in_avail = 0;
	}
	*iova = c->node[bit].iova;
	return 0;
}

static int
mlx5v_pages_free_one(struct mlx5v_dev *dev, uint64_t iova)
{
	struct mlx5v_pages *pg = &dev->pages;
	struct mlx5v_pages_node *n = mlx5v_pages_hash_find(pg, iova);
	struct mlx5v_pages_chunk *c;
	uint64_t m;

	if (n == NULL)
		goto bad;
	c = mlx5v_pages_node_chunk(n);
	m = UINT64_C(1) << n->bit;
	if (!(c->used & m) || (c->reserved & m))
		goto bad;
	c->used &= ~m;
	if (c->used == c->reserved) {
		mlx5v_pages_chunk_free(dev, c);
	} else if (!c->in_avail) {
		TAILQ_INSERT_TAIL(&pg->avail, c, anext);
		c->in_avail = 1;
	}
	return 0;
bad:
	MLX5V_LOG(ERR, "%s: the device returned page 0x%" PRIx64 " it was never given",
		  dev->name, iova);
	return -EINVAL;
}

static void
mlx5v_pages_given_add(struct mlx5v_dev *dev, int64_t n)
{
	__atomic_fetch_add(&dev->pages.given, (uint64_t)n, __ATOMIC_RELAXED);
}

uint64_t
mlx5v_pages_given(struct mlx5v_dev *dev)
{
	return __atomic_load_n(&dev->pages.given, __ATOMIC_RELAXED);
}

/*
 * The MANAGE_PAGES header: function_id, and embedded_cpu_function forwarded from the
 * request's ec_function (prm/mlx5 §5.2) so that an embedded-CPU function's pages go to it.
 */
static void
mlx5v_pages_cmd_hdr(uint8_t *in, uint16_t op_mod, uint16_t func_id, unsigned int flags)
{
	MLX5V_IFC_SET(manage_pages_in, in, opcode, MLX5V_CMD_OP_MANAGE_PAGES);
	MLX5V_IFC_SET(manage_pages_in, in, op_mod, op_mod);
	MLX5V_IFC_SET(manage_pages_in, in, function_id, func_id);
	MLX5V_IFC_SET(manage_pages_in, in, embedded_cpu_function, !!(flags & MLX5V_PAGES_F_EC));
}

/* MANAGE_PAGES CANT_GIVE: tell the device a request cannot be met (prm/mlx5 §12 #14). */
static void
mlx5v_pages_cant_give(struct mlx5v_dev *dev, uint16_t func_id, unsigned int flags)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE];

	memset(in, 0, sizeof(in));
	mlx5v_pages_cmd_hdr(in, MLX5V_MANAGE_PAGES_CANT_GIVE, func_id, flags);
	dev->pages.cant_give++;
	mlx5v_cmd_exec_flags(dev, in, sizeof(in), out, sizeof(out), MLX5V_CMD_F_PAGE);
}

/*
 * Give npages pages, at most MLX5V_PAGES_GIVE_BATCH per command. A failed command's
 * pages go back to the allocator (rdma-core leaks them, prm/mlx5 §5.2). With MLX5V_PAGES_F_EVENT
 * (an event request), a failure is answered with CANT_GIVE.
 */
int
mlx5v_pages_give(struct mlx5v_dev *dev, uint16_t func_id, uint32_t npages, unsigned int flags)
{
	uint8_t out[MLX5V_CMD_HDR_SIZE];
	uint8_t *in;
	size_t inlen;
	int ret = 0;

	if (npages == 0)
		return 0;
	inlen = MLX5V_IFC_BYTE_OFF(manage_pages_in, pas) +
		8 * RTE_MIN(npages, (uint32_t)MLX5V_PAGES_GIVE_BATCH);
	in = calloc(1, inlen);
	if (in == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	while (npages > 0) {
		uint32_t n = RTE_MIN(npages, (uint32_t)MLX5V_PAGES_GIVE_BATCH);
		uint32_t i;

		if (mlx5v_dev_is_dead(dev)) {
			ret = -ENOLINK;
			break;
		}
		memset(in, 0, inlen);
		mlx5v_pages_cmd_hdr(in, MLX5V_MANAGE_PAGES_GIVE, func_id, flags);
		MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, n);
		for (i = 0; i < n; i++) {
			uint64_t iova;

			ret = mlx5v_pages_alloc_one(dev, &iova);
			if (ret < 0)
				break;
			MLX5V_IFC_ARRAY_SET64(manage_pages_in, in, pas, i, iova);
		}
		if (ret == 0)
			ret = mlx5v_cmd_exec_flags(dev, in,
						   MLX5V_IFC_BYTE_OFF(manage_pages_in, pas) +
						   8 * (size_t)n, out, sizeof(out),
						   MLX5V_CMD_F_PAGE);
		if (ret < 0) {
			uint32_t j;

			for (j = 0; j < i; j++)
				mlx5v_pages_free_one(dev, MLX5V_IFC_ARRAY_GET64(manage_pages_in,
										in, pas, j));
			break;
		}
		dev->pages.give_cmds++;
		mlx5v_pages_given_add(dev, n);
		npages -= n;
	}
	free(in);
	if (ret == 0)
		return 0;
fail:
	MLX5V_LOG(ERR, "%s: cannot give %u firmware pages: %s", dev->name, npages, strerror(-ret));
	if ((flags & MLX5V_PAGES_F_EVENT) && ret != -ENOLINK)
		mlx5v_pages_cant_give(dev, func_id, flags);
	return ret;
}

/* Take back up to npages pages, at most 768 per TAKE (prm/mlx5 §5.2). @return pages reclaimed. */
int
mlx5v_pages_reclaim(struct mlx5v_dev *dev, uint16_t func_id, uint32_t npages, unsigned int flags)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	size_t outlen = MLX5V_IFC_BYTE_OFF(manage_pages_out, pas) +
			8 * (size_t)MLX5V_PAGES_PER_TAKE;
	uint8_t *out;
	int total = 0;
	int ret = 0;

	out = calloc(1, outlen);
	if (out == NULL)
		return -ENOMEM;
	while (npages > 0 && !mlx5v_dev_is_dead(dev)) {
		uint32_t n = RTE_MIN(npages, (uint32_t)MLX5V_PAGES_PER_TAKE);
		uint32_t got, i;

		memset(in, 0, sizeof(in));
		mlx5v_pages_cmd_hdr(in, MLX5V_MANAGE_PAGES_TAKE, func_id, flags);
		MLX5V_IFC_SET(manage_pages_in, in, input_num_entries, n);
		ret = mlx5v_cmd_exec_flags(dev, in, sizeof(in), out,
					   MLX5V_IFC_BYTE_OFF(manage_pages_out, pas) +
					   8 * (size_t)n, MLX5V_CMD_F_PAGE);
		if (ret < 0)
			break;
		dev->pages.take_cmds++;
		got = MLX5V_IFC_GET(manage_pages_out, out, output_num_entries);
		/* rdma-core's TAKE rule: output_num_entries <= input_num_entries. */
		if (got > n) {
			MLX5V_LOG(ERR, "%s: TAKE of %u pages returned %u entries",
				  dev->name, n, got);
			got = n;
		}
		for (i = 0; i < got; i++) {
			uint64_t pa = MLX5V_IFC_ARRAY_GET64(manage_pages_out, out, pas, i);

			if (mlx5v_pages_free_one(dev, pa) == 0)
				mlx5v_pages_given_add(dev, -1);
		}
		total += got;
		if (got == 0)
			break;
		npages -= got;
	}
	free(out);
	return ret < 0 && total == 0 ? ret : total;
}

void
mlx5v_pages_reclaim_all(struct mlx5v_dev *dev)
{
	uint64_t deadline = mlx5v_pages_now_ms() + mlx5v_tout_ms(dev, MLX5V_TO_PAGES_RECLAIM);

	while (mlx5v_pages_given(dev) > 0 && !mlx5v_dev_is_dead(dev)) {
		uint64_t left = mlx5v_pages_given(dev);
		int n = mlx5v_pages_reclaim(dev, dev->pages.function_id,
					    (uint32_t)RTE_MIN(left, (uint64_t)UINT32_MAX), 0);

		if (n > 0) {
			/* Progress restarts the clock, as in the kernel. */
			deadline = mlx5v_pages_now_ms() +
				   mlx5v_tout_ms(dev, MLX5V_TO_PAGES_RECLAIM);
			continue;
		}
		if (mlx5v_pages_now_ms() > deadline) {
			MLX5V_LOG(ERR, "%s: %" PRIu64 " firmware pages not reclaimed after %u ms",
				  dev->name, left, mlx5v_tout_ms(dev, MLX5V_TO_PAGES_RECLAIM));
			break;
		}
		sched_yield();
	}
}

/* QUERY_PAGES (boot or init) and give what the device asks for (prm/mlx5 §2.1 steps 9-10, 16). */
int
mlx5v_pages_satisfy(struct mlx5v_dev *dev, uint16_t op_mod)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE];
	int32_t npages;
	int ret;

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(query_pages_in, in, opcode, MLX5V_CMD_OP_QUERY_PAGES);
	MLX5V_IFC_SET(query_pages_in, in, op_mod, op_mod);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret < 0)
		return ret;
	dev->pages.function_id = MLX5V_IFC_GET(query_pages_out, out, function_id);
	npages = (int32_t)MLX5V_IFC_GET(query_pages_out, out, num_pages);
	MLX5V_LOG(DEBUG, "%s: QUERY_PAGES %s: %d pages for function %u", dev->name,
		  op_mod == MLX5V_QUERY_PAGES_BOOT ? "boot" : "init", npages,
		  dev->pages.function_id);
	if (npages < 0) {
		MLX5V_LOG(WARNING, "%s: QUERY_PAGES answered %d pages at bring-up",
			  dev->name, npages);
		ret = mlx5v_pages_reclaim(dev, dev->pages.function_id, (uint32_t)-npages, 0);
		return ret < 0 ? ret : 0;
	}
	return mlx5v_pages_give(dev, dev->pages.function_id, (uint32_t)npages, 0);
}

/* ---- PAGE_REQUEST events ---- */

/*
 * "Release all" (ec_function 0x4000): the device has already dropped every page of the
 * function, so they are freed here without MANAGE_PAGES (prm/mlx5 §5.2); a TAKE would
 * find nothing and leave the pages counted as given forever.
 */
static void
mlx5v_pages_release_all(struct mlx5v_dev *dev)
{
	struct mlx5v_pages_chunk *c;

	MLX5V_LOG(INFO, "%s: the device released all %" PRIu64 " firmware pages", dev->name,
		  mlx5v_pages_given(dev));
	while ((c = TAILQ_FIRST(&dev->pages.chunks)) != NULL)
		mlx5v_pages_chunk_free(dev, c);
	__atomic_store_n(&dev->pages.given, 0, __ATOMIC_RELAXED);
	dev->pages.released_all++;
}

static void
mlx5v_pages_serve_one(struct mlx5v_dev *dev, const struct mlx5v_pages_req *r)
{
	unsigned int flags = MLX5V_PAGES_F_EVENT;

	if (r->ec_function & MLX5V_PAGES_EC_RELEASE_ALL) {
		mlx5v_pages_release_all(dev);
		return;
	}
	if (r->ec_function & MLX5V_PAGES_EC_EMBEDDED_CPU)
		flags |= MLX5V_PAGES_F_EC;
	if (r->npages > 0)
		mlx5v_pages_give(dev, r->func_id, (uint32_t)r->npages, flags);
	else if (r->npages < 0)
		/* The kernel clamps one reclaim at 50 000 pages (prm/mlx5 §5.2). */
		mlx5v_pages_reclaim(dev, r->func_id,
				    RTE_MIN((uint32_t)-(int64_t)r->npages,
					    (uint32_t)MLX5V_PAGES_RECLAIM_MAX), flags);
}

/*
 * Serve the queued requests on the calling thread. One server at a time (serve_lock): the
 * page work alarm, or a command waiter on the EAL interrupt thread, where the alarm cannot
 * run until the waiter returns (mlx5v_cmd_wait()). @return 0, or -EBUSY if another thread
 * is serving.
 */
static int
mlx5v_pages_serve_queue(struct mlx5v_dev *dev, int from_alarm)
{
	struct mlx5v_pages *pg = &dev->pages;

	if (!rte_spinlock_trylock(&pg->serve_lock))
		return -EBUSY;
	for (;;) {
		struct mlx5v_pages_req r;

		rte_spinlock_lock(&pg->req_lock);
		if (pg->req_n == 0 || __atomic_load_n(&pg->stopping, __ATOMIC_ACQUIRE)) {
			if (from_alarm)
				pg->work_armed = 0;
			rte_spinlock_unlock(&pg->req_lock);
			break;
		}
		r = pg->req[pg->req_head];
		pg->req_head = (pg->req_head + 1) % MLX5V_PAGES_REQ_MAX;
		pg->req_n--;
		rte_spinlock_unlock(&pg->req_lock);
		mlx5v_pages_serve_one(dev, &r);
	}
	rte_spinlock_unlock(&pg->serve_lock);
	return 0;
}

/*
 * Alarm callback on the EAL interrupt thread: serve queued requests. Commands cannot be
 * issued from the EQ handler (it runs under the EQ lock), hence the deferral.
 */
static void
mlx5v_pages_work(void *arg)
{
	struct mlx5v_dev *dev = arg;

	/* Another thread is serving: look again shortly rather than lose the wake-up. */
	if (mlx5v_pages_serve_queue(dev, 1) == -EBUSY &&
	    rte_eal_alarm_set(MLX5V_PAGES_WORK_RETRY_US, mlx5v_pages_work, dev) != 0) {
		rte_spinlock_lock(&dev->pages.req_lock);
		dev->pages.work_armed = 0;
		rte_spinlock_unlock(&dev->pages.req_lock);
	}
}

void
mlx5v_pages_serve(struct mlx5v_dev *dev)
{
	/* Cheap check first: this runs on every pass of a command wait. */
	if (__atomic_load_n(&dev->pages.req_n, __ATOMIC_RELAXED) == 0)
		return;
	mlx5v_pages_serve_queue(dev, 0);
}

static int
mlx5v_pages_event(struct mlx5v_dev *dev, uint8_t type, const uint8_t *eqe, void *arg)
{
	struct mlx5v_pages *pg = &dev->pages;
	const void *data = MLX5V_IFC_ADDR_OF(eqe, eqe, data);
	struct mlx5v_pages_req r;
	int ret = 0;

	RTE_SET_USED(type);
	RTE_SET_USED(arg);
	r.ec_function = MLX5V_IFC_GET(eqe_page_req, data, ec_function);
	r.func_id = MLX5V_IFC_GET(eqe_page_req, data, func_id);
	r.npages = (int32_t)MLX5V_IFC_GET(eqe_page_req, data, num_pages);
	MLX5V_LOG(DEBUG, "%s: page request: %d pages for function %u (ec 0x%x)",
		  dev->name, r.npages, r.func_id, r.ec_function);
	rte_spinlock_lock(&pg->req_lock);
	pg->requests++;
	if (pg->stopping) {
		rte_spinlock_unlock(&pg->req_lock);
		return 0;
	}
	if (pg->req_n == MLX5V_PAGES_REQ_MAX) {
		pg->req_dropped++;
		ret = -ENOSPC;
	} else {
		pg->req[(pg->req_head + pg->req_n) % MLX5V_PAGES_REQ_MAX] = r;
		pg->req_n++;
	}
	if (!pg->work_armed && pg->req_n > 0) {
		if (rte_eal_alarm_set(1, mlx5v_pages_work, dev) == 0)
			pg->work_armed = 1;
		else
			ret = -EAGAIN;
	}
	rte_spinlock_unlock(&pg->req_lock);
	return ret;
}

int
mlx5v_pages_init(struct mlx5v_dev *dev)
{
	memset(&dev->pages, 0, sizeof(dev->pages));
	TAILQ_INIT(&dev->pages.chunks);
	TAILQ_INIT(&dev->pages.avail);
	rte_spinlock_init(&dev->pages.req_lock);
	rte_spinlock_init(&dev->pages.serve_lock);
	return 0;
}

/* Free every chunk; pages still "given" belong to a device that is disabled or dead. */
void
mlx5v_pages_cleanup(struct mlx5v_dev *dev)
{
	struct mlx5v_pages_chunk *c;

	/* Expected after a fast teardown or on a dead device; a bug otherwise. */
	if (mlx5v_pages_given(dev) > 0)
		rte_log(mlx5v_dev_is_dead(dev) ? RTE_LOG_INFO : RTE_LOG_WARNING, mlx5v_logtype,
			"mlx5v: %s: freeing %" PRIu64 " firmware pages never reclaimed\n",
			dev->name, mlx5v_pages_given(dev));
	while ((c = TAILQ_FIRST(&dev->pages.chunks)) != NULL)
		mlx5v_pages_chunk_free(dev, c);
	__atomic_store_n(&dev->pages.given, 0, __ATOMIC_RELAXED);
	free(dev->pages.htbl);
	dev->pages.htbl = NULL;
	dev->pages.hmask = 0;
	dev->pages.hcount = 0;
}

int
mlx5v_pages_events_start(struct mlx5v_dev *dev)
{
	__atomic_store_n(&dev->pages.stopping, 0, __ATOMIC_RELEASE);
	return mlx5v_eq_subscribe(dev, RTE_PMD_MLX5V_EVENT_PAGE_REQUEST, mlx5v_pages_event, NULL);
}

/*
 * Stop serving page requests without unsubscribing: called before the async EQ is
 * destroyed, so that no page work on the interrupt thread still uses the EQ. Waits for
 * a running work callback (which falls back to polling once teardown switched modes).
 */
void
mlx5v_pages_events_quiesce(struct mlx5v_dev *dev)
{
	struct mlx5v_pages *pg = &dev->pages;

	rte_spinlock_lock(&pg->req_lock);
	__atomic_store_n(&pg->stopping, 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&pg->req_lock);
	rte_eal_alarm_cancel(mlx5v_pages_work, dev);
}

void
mlx5v_pages_events_stop(struct mlx5v_dev *dev)
{
	struct mlx5v_pages *pg = &dev->pages;

	rte_spinlock_lock(&pg->req_lock);
	__atomic_store_n(&pg->stopping, 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&pg->req_lock);
	mlx5v_eq_unsubscribe(dev, RTE_PMD_MLX5V_EVENT_PAGE_REQUEST, mlx5v_pages_event, NULL);
	/* Waits for a running callback when called from another thread. */
	rte_eal_alarm_cancel(mlx5v_pages_work, dev);
	rte_spinlock_lock(&pg->req_lock);
	pg->req_n = 0;
	pg->work_armed = 0;
	rte_spinlock_unlock(&pg->req_lock);
}
