/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The simulator backend of the verbs seam: the "kernel plus hardware" part of
 * each object. Its provider is the common layer's mlx4v_sw_prov, which plays libmlx4; here
 * objects get numbers, their own doorbell pages, DMA windows and event vectors.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_byteorder.h>

#include "mlx4v_log.h"
#include "mlx4v_prov.h"
#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

/* The simulated device behind a handle, set at ctx_open from the registry entry. */
static struct mlx4v_sim *
mlx4v_sim_of(const struct mlx4v_ctx *ctx)
{
	return mlx4v_sim_ctx_of(ctx)->sim;
}

/* Queue memory becomes device-visible through IOMMU windows; IOVA is the VA. */
static int
mlx4v_sim_dma_map(struct mlx4v_sim *sim, const void *va, size_t len)
{
	return hwsim_dma_map(sim->dma, (uintptr_t)va, (void *)(uintptr_t)va, len);
}

/*
 * An unmap of a window that was never mapped means the create and destroy ladders disagree; log it
 * instead of failing a destroy that cannot be undone.
 */
static void
mlx4v_sim_dma_unmap(struct mlx4v_sim *sim, const void *va, size_t len)
{
	if (hwsim_dma_unmap(sim->dma, (uintptr_t)va, len) != 0)
		MLX4V_SIM_LOG(ERR, "%s: window %p+%zu was not mapped", sim->name, va, len);
}

/*
 * Make a queue device-visible: its ring, then its doorbell record (db is NULL for a
 * QP without a receive queue). Undone by mlx4v_sim_queue_unmap().
 */
static int
mlx4v_sim_queue_map(struct mlx4v_sim *sim, const void *buf, size_t len, const void *db,
		    size_t db_len)
{
	int ret;

	ret = mlx4v_sim_dma_map(sim, buf, len);
	if (ret || db == NULL)
		return ret;
	ret = mlx4v_sim_dma_map(sim, db, db_len);
	if (ret)
		mlx4v_sim_dma_unmap(sim, buf, len);
	return ret;
}

/* Mirrors mlx4v_sim_queue_map() in reverse. */
static void
mlx4v_sim_queue_unmap(struct mlx4v_sim *sim, const void *buf, size_t len, const void *db,
		      size_t db_len)
{
	if (db != NULL)
		mlx4v_sim_dma_unmap(sim, db, db_len);
	mlx4v_sim_dma_unmap(sim, buf, len);
}

/*
 * A UAR page of the object's own, with both doorbell words watched by cb: db_off is
 * the object's doorbell, stray_off the other kind's, watched to catch software ringing
 * the wrong page. The engine polls the watches in this order.
 * @return 0 with *page set, or -errno.
 */
static int
mlx4v_sim_uar_alloc(struct hwsim_mmio_page **page, uint32_t db_off, uint32_t db_width,
		    uint32_t stray_off, uint32_t stray_width, hwsim_mmio_cb cb, void *arg)
{
	struct hwsim_mmio_page *pg;
	int ret;

	pg = hwsim_mmio_page_alloc();
	if (pg == NULL)
		return -ENOMEM;
	ret = hwsim_mmio_watch(pg, db_off, db_width, cb, arg);
	if (ret == 0)
		ret = hwsim_mmio_watch(pg, stray_off, stray_width, cb, arg);
	if (ret) {
		hwsim_mmio_page_free(pg);
		return ret;
	}
	*page = pg;
	return 0;
}

/* The host page the model plays: host_page=, or this host's. */
static size_t
mlx4v_sim_host_page(struct mlx4v_sim *sim)
{
	int64_t hp = mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_HOST_PAGE);

	return hp > 0 ? (size_t)hp : (size_t)sysconf(_SC_PAGESIZE);
}

/*
 * The kernel describes a ring to the device page by page from the start of its first page
 * (doc/guides/nics/mlx4v.rst, memory): on hardware a ring that does not start a host page is
 * written from the wrong place, silently. The model refuses it instead, as EINVAL.
 */
static int
mlx4v_sim_ring_check(struct mlx4v_sim *sim, const char *what, const void *buf)
{
	size_t page = mlx4v_sim_host_page(sim);

	if (((uintptr_t)buf & (page - 1)) == 0)
		return 0;
	MLX4V_SIM_LOG(ERR, "%s: %s ring %p does not start a %zu-byte host page", sim->name, what,
		      buf, page);
	return -EINVAL;
}

/* The kernel's check before a raw-packet QP or a steering rule (uverbs: CAP_NET_RAW). */
int
mlx4v_sim_net_raw_check(struct mlx4v_sim *sim, const char *what)
{
	if (!mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_NO_NET_RAW))
		return 0;
	MLX4V_SIM_LOG(ERR, "%s: %s refused: the process lacks CAP_NET_RAW (no_net_raw=1)",
		      sim->name, what);
	return -EPERM;
}

/*
 * Verbs lock held. The port as ibv_query_port() and ibv_query_device() give it: the link layer
 * (ib_ports=), the state (the wire's link), device-managed flow steering (no_dmfs=) and
 * whether this process may make raw-packet QPs (no_net_raw=); the speed and MAC of the wire.
 * The link state is read lock-free, as a port event callback may ask.
 */
static int
mlx4v_sim_port_query(struct mlx4v_ctx *ctx, uint8_t port, struct rte_pmd_mlx4v_port_attr *attr)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(ctx);
	struct rte_ether_addr mac;

	if (port == 0 || port > sim->nports)
		return -EINVAL;
	if (mlx4v_sim_dead(sim) || mlx4v_sim_ctx_stale(ctx))
		return -EIO;
	memset(attr, 0, sizeof(*attr));
	attr->link_layer = (mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_IB_PORTS) >> (port - 1)) & 1 ?
		RTE_PMD_MLX4V_LINK_LAYER_INFINIBAND : RTE_PMD_MLX4V_LINK_LAYER_ETHERNET;
	attr->state = mlx4v_sim_link_get(sim, port) == 1 ? RTE_PMD_MLX4V_PORT_ACTIVE :
		RTE_PMD_MLX4V_PORT_DOWN;
	attr->flow_steering = !mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_NO_DMFS);
	attr->net_raw = !mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_NO_NET_RAW);
	if (attr->state == RTE_PMD_MLX4V_PORT_ACTIVE)
		attr->speed_mbps = mlx4v_sim_link_speed(sim, port);
	if (mlx4v_sim_port_mac(sim, port, &mac) == 0) {
		memcpy(attr->mac, mac.addr_bytes, sizeof(attr->mac));
		attr->has_mac = 1;
	}
	return 0;
}

/*
 * Verbs lock held. A handle needs no UAR: the kernel's ucontext UAR is replaced by per-object
 * pages (prm/mlx4 §7). It keeps its WQ number range, as the kernel's ucontext does.
 */
static int
mlx4v_sim_ctx_open(struct mlx4v_ctx *ctx, void *dev_priv)
{
	struct mlx4v_sim *sim = dev_priv;
	struct mlx4v_sim_ctx *sctx;
	int64_t hp = mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_HOST_PAGE);

	if (mlx4v_sim_dead(sim))
		return -EIO;
	if (hp != 0 && (hp < (int64_t)MLX4V_PAGE_SIZE || !rte_is_power_of_2((uint32_t)hp))) {
		MLX4V_SIM_LOG(ERR, "%s: host_page=%" PRId64 " is not a power of two >= %u",
			      sim->name, hp, MLX4V_PAGE_SIZE);
		return -EINVAL;
	}
	sctx = calloc(1, sizeof(*sctx));
	if (sctx == NULL)
		return -ENOMEM;
	sctx->sim = sim;
	sctx->range_base = -1;
	/* Its objects stop at the next device reset (mlx4v_sim_reset.c). */
	sctx->life = __atomic_load_n(&sim->life, __ATOMIC_ACQUIRE);
	/*
	 * A ConnectX-3's caps as ibv_query_device() reports them, not libmlx4's fallback
	 * 65536 / 64 (prm/mlx4 §3): the driver must check sizes against these.
	 */
	ctx->caps.max_qp_wr = MLX4V_SIM_CAP_QP_WR;
	ctx->caps.max_sge = MLX4V_SIM_CAP_SGE;
	ctx->caps.max_cqe = MLX4V_SIM_CAP_CQE;
	ctx->caps.max_srq_wr = MLX4V_SIM_CAP_SRQ_WR;
	ctx->caps.max_srq_sge = MLX4V_SIM_CAP_SRQ_SGE;
	ctx->caps.cqe_size = 64;
	/* Playing another host: its page is what libmlx4 would align rings to. */
	if (hp != 0)
		ctx->caps.page_size = hp;
	ctx->caps.nports = sim->nports;
	snprintf(ctx->caps.fw_ver, sizeof(ctx->caps.fw_ver), "2.42.5000 (simulated)");
	ctx->caps.vf = !!mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_VF);
	ctx->be = sctx;
	return 0;
}

/* Verbs lock held. The kernel netdev's MTU of the port model (mlx4v_sim_port_mtu_set()). */
static int
mlx4v_sim_port_mtu_set_op(struct mlx4v_ctx *ctx, uint8_t port, uint16_t mtu)
{
	struct mlx4v_sim *sim = mlx4v_sim_ctx_of(ctx)->sim;

	if (mlx4v_sim_dead(sim) || mlx4v_sim_ctx_stale(ctx))
		return -EIO;
	return mlx4v_sim_port_mtu_set(sim, port, mtu);
}

/* No lock held: the wire reports the port events synchronously. */
static int
mlx4v_sim_port_admin(struct mlx4v_ctx *ctx, uint8_t port, int up)
{
	struct mlx4v_sim *sim = mlx4v_sim_ctx_of(ctx)->sim;

	/* Closing a port of a dead device succeeds and changes nothing; opening fails. */
	if (mlx4v_sim_dead(sim) || mlx4v_sim_ctx_stale(ctx))
		return up ? -EIO : 0;
	return mlx4v_sim_port_admin_set(sim, port, up);
}

static void
mlx4v_sim_ctx_close(struct mlx4v_ctx *ctx)
{
	struct mlx4v_sim_ctx *sctx = mlx4v_sim_ctx_of(ctx);
	struct mlx4v_sim *sim = sctx->sim;

	pthread_mutex_lock(&sim->lock);
	mlx4v_sim_range_release(sctx);
	pthread_mutex_unlock(&sim->lock);
	free(sctx);
	ctx->be = NULL;
}

/* Verbs lock held; the sim lock guards the counters against the engine. */
static int
mlx4v_sim_pd_create(struct mlx4v_pd *pd)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(pd->obj.ctx);
	int ret = 0;

	pthread_mutex_lock(&sim->lock);
	ret = mlx4v_sim_cmd_check(sim, pd->obj.ctx, MLX4V_SIM_KNOB_FAIL_ALLOC_PD, -ENOMEM, 0);
	if (ret == 0) {
		/* Never 0, so that an unset pdn never matches an MR. */
		pd->pdn = ++sim->next_pdn;
		sim->live[MLX4V_SIM_OBJ_PD]++;
	}
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

static int
mlx4v_sim_pd_destroy(struct mlx4v_pd *pd)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(pd->obj.ctx);

	pthread_mutex_lock(&sim->lock);
	sim->live[MLX4V_SIM_OBJ_PD]--;
	pthread_mutex_unlock(&sim->lock);
	return 0;
}

/*
 * MR IOVAs start above every user-space address (57-bit VAs at most), so they never collide
 * with the identity-mapped queue windows; each MR gets a range of its own, never reused.
 */
#define MLX4V_SIM_MR_IOVA_BASE (UINT64_C(1) << 60)

struct mlx4v_sim_mr_runs {
	struct mlx4v_sim_mr_win *win;
	unsigned int nb;
	unsigned int cap;
};

/* mlx4v_mem_runs() callback: remember one pinned run of the MR. */
static int
mlx4v_sim_mr_run_cb(uintptr_t va, size_t len, void *arg)
{
	struct mlx4v_sim_mr_runs *r = arg;
	struct mlx4v_sim_mr_win *w;
	unsigned int cap;

	if (r->nb == r->cap) {
		cap = r->cap != 0 ? 2 * r->cap : 4;
		w = realloc(r->win, cap * sizeof(*w));
		if (w == NULL)
			return -ENOMEM;
		r->win = w;
		r->cap = cap;
	}
	r->win[r->nb].va = va;
	r->win[r->nb].len = len;
	r->nb++;
	return 0;
}

/*
 * The kernel's pinning (ib_umem_get()) for a hosted model: every page of the range must be
 * mapped in the process, whatever allocated it; cb gets the runs of mapped pages (mincore()
 * fails with ENOMEM on a page that is not mapped).
 */
static int
mlx4v_sim_host_runs(const void *addr, size_t len, mlx4v_mem_run_cb cb, void *arg)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t va = (uintptr_t)addr;
	uintptr_t end = va + len;
	uintptr_t p = va & ~(uintptr_t)(page - 1);
	uintptr_t run = 0;
	unsigned char vec;
	int ret, mapped;

	for (; p < end; p += page) {
		mapped = mincore((void *)p, page, &vec) == 0;
		if (mapped && run == 0)
			run = RTE_MAX(p, va);
		if (!mapped && run != 0) {
			ret = cb(run, p - run, arg);
			if (ret)
				return ret;
			run = 0;
		}
	}
	return run != 0 ? cb(run, end - run, arg) : 0;
}

/* Mirrors the mapping loop of mlx4v_sim_mr_create(): unmap the first n windows. */
static void
mlx4v_sim_mr_unmap(struct mlx4v_sim *sim, const struct mlx4v_sim_mr_win *win, unsigned int n)
{
	while (n-- > 0)
		if (hwsim_dma_unmap(sim->dma, win[n].iova, win[n].len) != 0)
			MLX4V_SIM_LOG(ERR, "%s: MR window 0x%" PRIx64 "+%zu was not mapped",
				      sim->name, win[n].iova, win[n].len);
}

/*
 * Verbs lock held. The model's MPT: the engine checks every gather/scatter against it, then
 * reaches the memory through the IOMMU. As the kernel pins an MR's pages and maps them for the
 * device, the model maps the parts of the range that are EAL or registered external memory. A
 * range with a hole (address space that is neither) is refused with EFAULT, as the kernel
 * cannot pin a page that is not there (ib_umem_get()); such as one span over the chunks of a
 * mempool with unmapped gaps between them.
 */
static int
mlx4v_sim_mr_create(struct mlx4v_mr *mr)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(mr->obj.ctx);
	struct mlx4v_sim_mr_runs runs = { .win = NULL, .nb = 0, .cap = 0 };
	struct mlx4v_sim_mr *m = NULL;
	uintptr_t addr = (uintptr_t)mr->addr;
	unsigned int i, n = 0;
	size_t pinned = 0;
	int ret;

	/* Before the model lock: the walk takes the EAL memory lock. */
	ret = sim->hosted ? mlx4v_sim_host_runs(mr->addr, mr->len, mlx4v_sim_mr_run_cb, &runs) :
		mlx4v_mem_runs(mr->addr, mr->len, mlx4v_sim_mr_run_cb, &runs);
	if (ret)
		goto out_free;
	for (i = 0; i < runs.nb; i++)
		pinned += runs.win[i].len;
	if (pinned != mr->len) {
		MLX4V_SIM_LOG(ERR, "%s: MR %p + %zu: only %zu bytes are memory, the kernel cannot "
			      "pin the rest", sim->name, mr->addr, mr->len, pinned);
		ret = -EFAULT;
		goto out_free;
	}
	pthread_mutex_lock(&sim->lock);
	for (i = 0; i < MLX4V_SIM_MAX_MR; i++) {
		if (!sim->mrs[i].used) {
			m = &sim->mrs[i];
			break;
		}
	}
	ret = m == NULL ? -ENOMEM :
		mlx4v_sim_cmd_check(sim, mr->obj.ctx, MLX4V_SIM_KNOB_FAIL_REG_MR, -ENOMEM, 0);
	if (ret)
		goto out_unlock;
	if (sim->next_mr_iova == 0)
		sim->next_mr_iova = MLX4V_SIM_MR_IOVA_BASE;
	/* Keep the offset in the page, as the MTT does; a guard page after each range. */
	m->iova = sim->next_mr_iova + (addr & (MLX4V_PAGE_SIZE - 1));
	for (n = 0; n < runs.nb; n++) {
		runs.win[n].iova = m->iova + (runs.win[n].va - addr);
		ret = hwsim_dma_map(sim->dma, runs.win[n].iova, (void *)runs.win[n].va,
				    runs.win[n].len);
		if (ret) {
			mlx4v_sim_mr_unmap(sim, runs.win, n);
			goto out_unlock;
		}
	}
	sim->next_mr_iova = RTE_ALIGN_CEIL(m->iova + mr->len, MLX4V_PAGE_SIZE) + MLX4V_PAGE_SIZE;
	/* Index in bits 8+ (from 2, so never MLX4V_INVALID_LKEY), a generation below. */
	m->lkey = ((i + 2) << 8) | sim->lkey_gen++;
	m->pdn = mr->pd->pdn;
	m->addr = addr;
	m->len = mr->len;
	m->win = runs.win;
	m->nb_win = runs.nb;
	runs.win = NULL;
	m->used = 1;
	mr->lkey = m->lkey;
	sim->live[MLX4V_SIM_OBJ_MR]++;
out_unlock:
	pthread_mutex_unlock(&sim->lock);
out_free:
	free(runs.win);
	return ret;
}

static int
mlx4v_sim_mr_destroy(struct mlx4v_mr *mr)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(mr->obj.ctx);
	uint32_t idx = (mr->lkey >> 8) - 2;
	struct mlx4v_sim_mr *m;

	pthread_mutex_lock(&sim->lock);
	/*
	 * Clearing the entry makes a stale lkey still held by software fail the MPT check (lkey
	 * misuse) instead of reaching freed memory; the windows go with it.
	 */
	if (idx < MLX4V_SIM_MAX_MR && sim->mrs[idx].lkey == mr->lkey) {
		m = &sim->mrs[idx];
		mlx4v_sim_mr_unmap(sim, m->win, m->nb_win);
		free(m->win);
		memset(m, 0, sizeof(*m));
		sim->live[MLX4V_SIM_OBJ_MR]--;
	}
	pthread_mutex_unlock(&sim->lock);
	return 0;
}

/*
 * Verbs lock held; the common layer already laid out the ring and doorbell record
 * (mlx4v_cq_layout()). Here the device part: CQN, UAR page, DMA windows, event vector.
 */
static int
mlx4v_sim_cq_create(struct mlx4v_cq *cq)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(cq->obj.ctx);
	struct mlx4v_sim_cq *scq;
	size_t ring = (size_t)cq->cqe_cnt * cq->cqe_size;
	unsigned int idx;
	int ret;

	ret = mlx4v_sim_ring_check(sim, "CQ", cq->buf);
	if (ret)
		return ret;
	pthread_mutex_lock(&sim->lock);
	for (idx = 0; idx < MLX4V_SIM_MAX_CQ; idx++)
		if (sim->cqs[idx] == NULL)
			break;
	if (idx == MLX4V_SIM_MAX_CQ) {
		ret = -ENOMEM;
		goto err_unlock;
	}
	scq = calloc(1, sizeof(*scq));
	if (scq == NULL) {
		ret = -ENOMEM;
		goto err_unlock;
	}
	scq->sim = sim;
	scq->idx = idx;
	/* CQN 0 is never used: a zero word is invisible to the doorbell watch. */
	scq->cqn = idx + 1;
	scq->buf = cq->buf;
	scq->cqe_cnt = cq->cqe_cnt;
	scq->cqe_size = cq->cqe_size;
	scq->set_ci_db = cq->set_ci_db;
	scq->arm_db = cq->arm_db;
	/* No arm has fired yet, so any sn (libmlx4 starts at 1) is accepted. */
	scq->fired_sn = -1;
	scq->fd = -1;
	/* The arm doorbell, and the send-doorbell offset to catch swapped pages. */
	ret = mlx4v_sim_uar_alloc(&scq->page, MLX4V_CQ_DOORBELL, 8, MLX4V_SEND_DOORBELL, 4,
				  mlx4v_sim_cq_doorbell, scq);
	if (ret)
		goto err_free;
	/* The doorbell record holds set_ci and arm_db. */
	ret = mlx4v_sim_queue_map(sim, scq->buf, ring, scq->set_ci_db, 2 * sizeof(uint32_t));
	if (ret)
		goto err_page_free;
	if (cq->with_events) {
		scq->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (scq->fd < 0) {
			ret = -errno;
			goto err_queue_unmap;
		}
		ret = hwsim_irq_attach(sim->irq, idx, scq->fd);
		if (ret)
			goto err_close_fd;
	}
	/* Last step, so that the fault knob exercises the whole unwind ladder. */
	ret = mlx4v_sim_cmd_check(sim, cq->obj.ctx, MLX4V_SIM_KNOB_FAIL_CREATE_CQ, -ENOMEM, 0);
	if (ret)
		goto err_irq_detach;
	/*
	 * Handing the CQ to the device: mark every CQE hardware-owned unless strict mode wants to
	 * show why this is needed (prm/mlx4 §6 decision). Done before the CQ is published to the
	 * engine.
	 */
	if (!mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_STRICT_CQE_OWNER))
		mlx4v_sim_cq_init_owner(scq);
	cq->cqn = scq->cqn;
	cq->uar = hwsim_mmio_page_addr(scq->page);
	cq->event_fd = scq->fd;
	cq->be = scq;
	/* Published last: from here the engine polls this CQ's page. */
	sim->cqs[idx] = scq;
	sim->live[MLX4V_SIM_OBJ_CQ]++;
	pthread_mutex_unlock(&sim->lock);
	return 0;

err_irq_detach:
	if (scq->fd >= 0)
		hwsim_irq_attach(sim->irq, idx, -1);
err_close_fd:
	if (scq->fd >= 0)
		close(scq->fd);
err_queue_unmap:
	mlx4v_sim_queue_unmap(sim, scq->buf, ring, scq->set_ci_db, 2 * sizeof(uint32_t));
err_page_free:
	hwsim_mmio_page_free(scq->page);
err_free:
	free(scq);
err_unlock:
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

static int
mlx4v_sim_cq_destroy(struct mlx4v_cq *cq)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(cq->obj.ctx);
	struct mlx4v_sim_cq *scq = cq->be;

	/* Mirrors mlx4v_sim_cq_create() in reverse. */
	pthread_mutex_lock(&sim->lock);
	/*
	 * Unpublish first, under the lock, so no engine pass sees the CQ while its page and windows
	 * go away.
	 */
	sim->cqs[scq->idx] = NULL;
	sim->live[MLX4V_SIM_OBJ_CQ]--;
	if (scq->fd >= 0) {
		hwsim_irq_attach(sim->irq, scq->idx, -1);
		close(scq->fd);
	}
	mlx4v_sim_queue_unmap(sim, scq->buf, (size_t)scq->cqe_cnt * scq->cqe_size,
			      scq->set_ci_db, 2 * sizeof(uint32_t));
	hwsim_mmio_page_free(scq->page);
	free(scq);
	pthread_mutex_unlock(&sim->lock);
	cq->be = NULL;
	cq->event_fd = -1;
	return 0;
}

/*
 * Verbs lock held. Non-blocking like the rdma-core backend's O_NONBLOCK channel; the sim has no ack
 * op, events are accounted here.
 */
static int
mlx4v_sim_cq_get_event(struct mlx4v_cq *cq)
{
	struct mlx4v_sim_cq *scq = cq->be;
	uint64_t cnt;

	/* Like a completion channel read: the eventfd may hold several events. */
	if (read(scq->fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		cq->events_pending += cnt;
	if (cq->events_pending == 0)
		return -EAGAIN;
	cq->events_pending--;
	return 0;
}

/*
 * Verbs lock held; ring, free list and doorbell record come from mlx4v_srq_layout(). The device
 * only needs the windows and its own head, which starts at the list head 0.
 */
static int
mlx4v_sim_srq_create(struct mlx4v_srq *srq)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(srq->obj.ctx);
	size_t ring = (size_t)srq->max << srq->wqe_shift;
	struct mlx4v_sim_srq *ssrq;
	unsigned int idx;
	int ret;

	ret = mlx4v_sim_ring_check(sim, "SRQ", srq->buf);
	if (ret)
		return ret;
	pthread_mutex_lock(&sim->lock);
	for (idx = 0; idx < MLX4V_SIM_MAX_SRQ; idx++)
		if (sim->srqs[idx] == NULL)
			break;
	if (idx == MLX4V_SIM_MAX_SRQ) {
		ret = -ENOMEM;
		goto err_unlock;
	}
	ssrq = calloc(1, sizeof(*ssrq));
	if (ssrq == NULL) {
		ret = -ENOMEM;
		goto err_unlock;
	}
	ssrq->idx = idx;
	ssrq->srqn = idx + 1;
	ssrq->pdn = srq->pd->pdn;
	ssrq->buf = srq->buf;
	ssrq->wqe_shift = srq->wqe_shift;
	ssrq->max = srq->max;
	/* The device reads *db for the posted count (prm/mlx4 §4.4), through its DMA window. */
	ssrq->db = srq->db;
	ret = mlx4v_sim_queue_map(sim, ssrq->buf, ring, ssrq->db, sizeof(uint32_t));
	if (ret)
		goto err_free;
	ret = mlx4v_sim_cmd_check(sim, srq->obj.ctx, MLX4V_SIM_KNOB_FAIL_CREATE_SRQ, -ENOMEM, 0);
	if (ret)
		goto err_queue_unmap;
	srq->srqn = ssrq->srqn;
	srq->be = ssrq;
	sim->srqs[idx] = ssrq;
	sim->live[MLX4V_SIM_OBJ_SRQ]++;
	pthread_mutex_unlock(&sim->lock);
	return 0;

err_queue_unmap:
	mlx4v_sim_queue_unmap(sim, ssrq->buf, ring, ssrq->db, sizeof(uint32_t));
err_free:
	free(ssrq);
err_unlock:
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

static int
mlx4v_sim_srq_destroy(struct mlx4v_srq *srq)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(srq->obj.ctx);
	struct mlx4v_sim_srq *ssrq = srq->be;

	pthread_mutex_lock(&sim->lock);
	sim->srqs[ssrq->idx] = NULL;
	sim->live[MLX4V_SIM_OBJ_SRQ]--;
	mlx4v_sim_queue_unmap(sim, ssrq->buf, (size_t)ssrq->max << ssrq->wqe_shift, ssrq->db,
			      sizeof(uint32_t));
	free(ssrq);
	pthread_mutex_unlock(&sim->lock);
	srq->be = NULL;
	return 0;
}

/* Free QP-number slot; QPs and WQs share the space. Called with the lock held. */
static int
mlx4v_sim_qpn_slot(struct mlx4v_sim *sim)
{
	int idx;

	/* Slots held by a handle's WQ range are that handle's WQs' only. */
	for (idx = 0; idx < MLX4V_SIM_MAX_QP; idx++)
		if (sim->qps[idx] == NULL && !sim->qp_resv[idx])
			return idx;
	return -1;
}

/*
 * Common part of a QP or WQ, called with the sim lock held: the port check, a free
 * number, and the buffer and RQ doorbell record it will own.
 * @return the object (sqp->idx its slot), or NULL with -errno in *err.
 */
static struct mlx4v_sim_qp *
mlx4v_sim_qp_alloc(struct mlx4v_sim *sim, struct mlx4v_sim_ctx *wq_ctx, uint8_t port,
		   uint8_t *buf, size_t buf_len, uint32_t *rdb, uint32_t pdn, int *err)
{
	struct mlx4v_sim_qp *sqp;
	int idx;

	if (port > sim->nports) {
		MLX4V_SIM_LOG(ERR, "%s: port %u of %u", sim->name, port, sim->nports);
		*err = -EINVAL;
		return NULL;
	}
	/* A QP or WQ with rings (an RSS QP has none); a raw-packet QP (not a WQ) needs the cap. */
	*err = buf != NULL ? mlx4v_sim_ring_check(sim, wq_ctx != NULL ? "WQ" : "QP", buf) : 0;
	if (*err == 0 && wq_ctx == NULL)
		*err = mlx4v_sim_net_raw_check(sim, "raw-packet QP");
	if (*err)
		return NULL;
	/* A WQ takes its number from its handle's range (prm/mlx4 §5.4). */
	idx = wq_ctx != NULL ? mlx4v_sim_wq_slot(wq_ctx) : mlx4v_sim_qpn_slot(sim);
	if (idx < 0) {
		*err = -ENOMEM;
		return NULL;
	}
	sqp = calloc(1, sizeof(*sqp));
	if (sqp == NULL) {
		sim->qp_resv[idx] = 0;
		*err = -ENOMEM;
		return NULL;
	}
	sqp->sim = sim;
	sqp->idx = idx;
	sqp->qpn = MLX4V_SIM_QPN_BASE + idx;
	/*
	 * Exactly the value software must write to sdb (prm/mlx4 §2.1); kept for the sdb_value
	 * check.
	 */
	sqp->doorbell_qpn = rte_cpu_to_be_32(sqp->qpn << 8);
	sqp->pdn = pdn;
	sqp->buf = buf;
	sqp->buf_len = buf_len;
	sqp->rq.num = sqp->qpn;
	sqp->rq.pdn = pdn;
	sqp->rq.rdb = rdb;
	return sqp;
}

/* The last step of creating a QP or WQ, with the lock held: the engine may see it now. */
static void
mlx4v_sim_qp_register(struct mlx4v_sim *sim, struct mlx4v_sim_qp *sqp,
		      enum mlx4v_sim_obj kind)
{
	sim->qps[sqp->idx] = sqp;
	sim->live[kind]++;
}

/* The first step of destroying a QP or WQ, with the lock held. */
static void
mlx4v_sim_qp_unregister(struct mlx4v_sim *sim, struct mlx4v_sim_qp *sqp,
			enum mlx4v_sim_obj kind)
{
	sim->qps[sqp->idx] = NULL;
	/* A WQ's slot leaves its range with it; the range is not reused (the kernel's "dirty"). */
	sim->qp_resv[sqp->idx] = 0;
	sim->live[kind]--;
}

/*
 * Verbs lock held; the buffer was laid out by mlx4v_qp_layout(). The engine walks the SQ in 64-byte
 * TXBBs because DPDK counts owner parity per TXBB, not per stride (prm/mlx4 §4.2).
 */
static int
mlx4v_sim_qp_create(struct mlx4v_qp *qp)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(qp->obj.ctx);
	struct mlx4v_sim_qp *sqp;
	int ret;

	pthread_mutex_lock(&sim->lock);
	sqp = mlx4v_sim_qp_alloc(sim, NULL, qp->attr.port, qp->buf, qp->buf_len, qp->rdb,
				 qp->pd->pdn, &ret);
	if (sqp == NULL)
		goto err_unlock;
	sqp->state = RTE_PMD_MLX4V_QPS_RESET;
	sqp->sq = (uint8_t *)qp->buf + qp->sq.offset;
	sqp->sq_shift = qp->sq.wqe_shift;
	sqp->sq_wqe_cnt = qp->sq.wqe_cnt;
	/* wqe_shift >= 6 (prm/mlx4 §3), so this is a whole number of TXBBs. */
	sqp->txbb_cnt = qp->sq.wqe_cnt << (qp->sq.wqe_shift - 6);
	sqp->send_cq = qp->send_cq->be;
	sqp->rq.port = qp->attr.port;
	sqp->rq.base = (uint8_t *)qp->buf + qp->rq.offset;
	sqp->rq.wqe_cnt = qp->rq.wqe_cnt;
	sqp->rq.wqe_shift = qp->rq.wqe_shift;
	sqp->rq.cq = qp->recv_cq->be;
	sqp->rq.srq = qp->srq != NULL ? qp->srq->be : NULL;
	/* An SRQ QP receives too; only a send-only QP is kept off the steering list. */
	sqp->has_rq = qp->rq.wqe_cnt != 0 || qp->srq != NULL;
	sqp->last = calloc(1, sqp->txbb_cnt * sizeof(uint32_t));
	if (sqp->last == NULL || mlx4v_sim_sq_prefetch_alloc(sqp) != 0 ||
	    mlx4v_sim_bf_alloc(sqp) != 0) {
		ret = -ENOMEM;
		goto err_free_last;
	}
	/*
	 * Matches what mlx4v_sq_init_ownership() will write on RESET->INIT, so the first scan sees
	 * no owner misuse.
	 */
	mlx4v_sim_sq_reset(sqp);
	/* The send doorbell, and the arm offset to catch swapped pages. */
	ret = mlx4v_sim_uar_alloc(&sqp->page, MLX4V_SEND_DOORBELL, 4, MLX4V_CQ_DOORBELL, 8,
				  mlx4v_sim_sq_doorbell, sqp);
	if (ret)
		goto err_free_last;
	ret = mlx4v_sim_queue_map(sim, sqp->buf, sqp->buf_len, sqp->rq.rdb, sizeof(uint32_t));
	if (ret)
		goto err_page_free;
	ret = mlx4v_sim_cmd_check(sim, qp->obj.ctx, MLX4V_SIM_KNOB_FAIL_CREATE_QP, -ENOMEM, 0);
	if (ret)
		goto err_queue_unmap;
	qp->qpn = sqp->qpn;
	/*
	 * A per-QP doorbell page instead of libmlx4's shared context UAR: every ring is seen once
	 * (prm/mlx4 §7). uar_mmap_offset keeps libmlx4's value 0 (prm/mlx4 §2.1).
	 */
	qp->sdb = (uint32_t *)((uint8_t *)hwsim_mmio_page_addr(sqp->page) +
			       MLX4V_SEND_DOORBELL);
	qp->uar_mmap_offset = 0;
	qp->be = sqp;
	mlx4v_sim_qp_register(sim, sqp, MLX4V_SIM_OBJ_QP);
	pthread_mutex_unlock(&sim->lock);
	return 0;

err_queue_unmap:
	mlx4v_sim_queue_unmap(sim, sqp->buf, sqp->buf_len, sqp->rq.rdb, sizeof(uint32_t));
err_page_free:
	hwsim_mmio_page_free(sqp->page);
err_free_last:
	mlx4v_sim_bf_free(sqp);
	mlx4v_sim_sq_prefetch_free(sqp);
	free(sqp->last);
	free(sqp);
err_unlock:
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

/*
 * Verbs lock held. An RSS QP (prm/mlx4 §5.4): a QP number and the hash parameters, no rings. The
 * kernel wants the table's first WQ number aligned to the table size, which only a WQ range set
 * before the WQs gives.
 */
static int
mlx4v_sim_rss_qp_create(struct mlx4v_qp *qp)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(qp->obj.ctx);
	struct mlx4v_sim_ind *sind = qp->ind->be;
	struct mlx4v_sim_qp *sqp;
	uint32_t base = sind->wqs[0]->qpn;
	int ret;

	if (base & ((1u << sind->log_size) - 1)) {
		MLX4V_SIM_LOG(ERR, "%s: WQN 0x%x is not aligned to the table size %u "
			      "(set the WQ range before the first WQ)", sim->name, base,
			      1u << sind->log_size);
		return -EINVAL;
	}
	pthread_mutex_lock(&sim->lock);
	sqp = mlx4v_sim_qp_alloc(sim, NULL, qp->attr.port, NULL, 0, NULL, qp->pd->pdn, &ret);
	if (sqp == NULL)
		goto out;
	ret = mlx4v_sim_cmd_check(sim, qp->obj.ctx, MLX4V_SIM_KNOB_FAIL_CREATE_QP, -ENOMEM, 0);
	if (ret) {
		free(sqp);
		goto out;
	}
	sqp->is_rss = 1;
	sqp->state = RTE_PMD_MLX4V_QPS_RESET;
	sqp->ind = sind;
	sqp->hash_fields = qp->rss.hash_fields;
	memcpy(sqp->key, qp->rss_key, sizeof(sqp->key));
	sqp->rq.port = qp->attr.port;
	qp->qpn = sqp->qpn;
	qp->be = sqp;
	mlx4v_sim_qp_register(sim, sqp, MLX4V_SIM_OBJ_QP);
	ret = 0;
out:
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

/* Sim lock held. The port of a QP at RESET->INIT, and of the WQs of an RSS QP's table. */
static int
mlx4v_sim_qp_port_set(struct mlx4v_sim *sim, struct mlx4v_sim_qp *sqp, uint8_t port)
{
	uint32_t i;

	if (port < 1 || port > sim->nports) {
		MLX4V_SIM_LOG(ERR, "%s: QP 0x%x to INIT on port %u of %u", sim->name, sqp->qpn,
			      port, sim->nports);
		return -EINVAL;
	}
	sqp->rq.port = port;
	if (sqp->is_rss)
		for (i = 0; i < (1u << sqp->ind->log_size); i++)
			sqp->ind->wqs[i]->rq.port = port;
	return 0;
}

/*
 * Verbs lock held. The common layer already checked the transition and initialised SQ ownership;
 * only the device state changes here.
 */
static int
mlx4v_sim_qp_modify(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(qp->obj.ctx);
	struct mlx4v_sim_qp *sqp = qp->be;
	int ret = 0, kick = 0;

	pthread_mutex_lock(&sim->lock);
	/* The device (the kernel's check) refuses what ib_modify_qp_is_ok() refuses. */
	if (!mlx4v_qp_transition_ok(sqp->state, state)) {
		MLX4V_SIM_LOG(ERR, "%s: QP 0x%x: no transition %d -> %d", sim->name, sqp->qpn,
			      sqp->state, state);
		ret = -EINVAL;
		goto out;
	}
	/* A dead device still takes a QP to RESET or ERR, as the kernel completes those. */
	ret = mlx4v_sim_cmd_check(sim, qp->obj.ctx, MLX4V_SIM_KNOB_FAIL_MODIFY_QP, -EIO,
				  state == RTE_PMD_MLX4V_QPS_RESET ||
				  state == RTE_PMD_MLX4V_QPS_ERR);
	if (ret)
		goto out;
	/*
	 * The port is part of the context RESET->INIT writes (the QPC's sched_queue): a QP goes
	 * out of, and an RSS QP brings its WQs up on, the port named there (prm/mlx4 §4.5).
	 */
	if (sqp->state == RTE_PMD_MLX4V_QPS_RESET && state == RTE_PMD_MLX4V_QPS_INIT) {
		ret = mlx4v_sim_qp_port_set(sim, sqp, qp->attr.port);
		if (ret)
			goto out;
	}
	/* On an SRQ: in error it takes no more WQEs, which the engine reports (mlx4v_sim_srq.c). */
	if (state == RTE_PMD_MLX4V_QPS_ERR && sqp->state != RTE_PMD_MLX4V_QPS_ERR &&
	    sqp->rq.srq != NULL) {
		sqp->last_wqe_pending = 1;
		kick = 1;
	}
	sqp->state = state;
	sqp->rq.ready = state == RTE_PMD_MLX4V_QPS_RTR || state == RTE_PMD_MLX4V_QPS_RTS;
	/* RESET forgets the queue positions; software restarts from 0 as well. */
	if (state == RTE_PMD_MLX4V_QPS_RESET) {
		mlx4v_sim_sq_reset(sqp);
		sqp->rq.consumer = 0;
	}
out:
	pthread_mutex_unlock(&sim->lock);
	if (kick)
		hwsim_engine_kick(sim->engine);
	return ret;
}

static int
mlx4v_sim_qp_destroy(struct mlx4v_qp *qp)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(qp->obj.ctx);
	struct mlx4v_sim_qp *sqp = qp->be;

	/* Mirrors mlx4v_sim_qp_create() in reverse. */
	pthread_mutex_lock(&sim->lock);
	mlx4v_sim_qp_unregister(sim, sqp, MLX4V_SIM_OBJ_QP);
	/* An RSS QP has no rings, page or windows (mlx4v_sim_rss_qp_create()). */
	if (sqp->is_rss) {
		free(sqp);
		pthread_mutex_unlock(&sim->lock);
		qp->be = NULL;
		return 0;
	}
	mlx4v_sim_queue_unmap(sim, sqp->buf, sqp->buf_len, sqp->rq.rdb, sizeof(uint32_t));
	hwsim_mmio_page_free(sqp->page);
	mlx4v_sim_bf_free(sqp);
	mlx4v_sim_sq_prefetch_free(sqp);
	free(sqp->last);
	free(sqp);
	pthread_mutex_unlock(&sim->lock);
	qp->be = NULL;
	return 0;
}

/*
 * Verbs lock held. A WQ is a receive-only QP in the shared number space; its dummy SQ is never
 * walked, so it gets no UAR page.
 */
static int
mlx4v_sim_wq_create(struct mlx4v_wq *wq)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(wq->obj.ctx);
	struct mlx4v_sim_qp *sqp;
	int ret;

	pthread_mutex_lock(&sim->lock);
	sqp = mlx4v_sim_qp_alloc(sim, mlx4v_sim_ctx_of(wq->obj.ctx), wq->attr.port, wq->buf,
				 wq->buf_len, wq->rdb, wq->pd->pdn, &ret);
	if (sqp == NULL)
		goto err_unlock;
	sqp->is_wq = 1;
	sqp->has_rq = 1;
	sqp->rq.port = wq->attr.port;
	sqp->rq.base = (uint8_t *)wq->buf + wq->rq.offset;
	sqp->rq.wqe_cnt = wq->rq.wqe_cnt;
	sqp->rq.wqe_shift = wq->rq.wqe_shift;
	sqp->rq.cq = wq->cq->be;
	ret = mlx4v_sim_queue_map(sim, sqp->buf, sqp->buf_len, sqp->rq.rdb, sizeof(uint32_t));
	if (ret)
		goto err_free;
	ret = mlx4v_sim_cmd_check(sim, wq->obj.ctx, MLX4V_SIM_KNOB_FAIL_CREATE_WQ, -ENOMEM, 0);
	if (ret)
		goto err_queue_unmap;
	wq->wqn = sqp->qpn;
	wq->be = sqp;
	mlx4v_sim_qp_register(sim, sqp, MLX4V_SIM_OBJ_WQ);
	pthread_mutex_unlock(&sim->lock);
	return 0;

err_queue_unmap:
	mlx4v_sim_queue_unmap(sim, sqp->buf, sqp->buf_len, sqp->rq.rdb, sizeof(uint32_t));
err_free:
	sim->qp_resv[sqp->idx] = 0;
	free(sqp);
err_unlock:
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

static int
mlx4v_sim_wq_modify(struct mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(wq->obj.ctx);
	struct mlx4v_sim_qp *sqp = wq->be;
	int ret = 0;

	pthread_mutex_lock(&sim->lock);
	/* mlx4_ib_modify_wq(): no ERR->RDY, no RESET->ERR. */
	if (!mlx4v_wq_transition_ok(sqp->wq_state, state)) {
		MLX4V_SIM_LOG(ERR, "%s: WQ 0x%x: no transition %d -> %d", sim->name, sqp->qpn,
			      sqp->wq_state, state);
		ret = -EINVAL;
		goto out;
	}
	/* A dead device still takes a WQ to RESET or ERR, as it does a QP. */
	ret = mlx4v_sim_cmd_check(sim, wq->obj.ctx, MLX4V_SIM_KNOB_FAIL_MODIFY_WQ, -EIO,
				  state != RTE_PMD_MLX4V_WQS_RDY);
	if (ret)
		goto out;
	sqp->wq_state = state;
	/* Only RDY receives; ERR and RESET drop, as a hardware WQ stops consuming. */
	sqp->rq.ready = state == RTE_PMD_MLX4V_WQS_RDY;
	if (state == RTE_PMD_MLX4V_WQS_RESET)
		sqp->rq.consumer = 0;
out:
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

static int
mlx4v_sim_wq_destroy(struct mlx4v_wq *wq)
{
	struct mlx4v_sim *sim = mlx4v_sim_of(wq->obj.ctx);
	struct mlx4v_sim_qp *sqp = wq->be;

	/* Mirrors mlx4v_sim_wq_create() in reverse. */
	pthread_mutex_lock(&sim->lock);
	mlx4v_sim_qp_unregister(sim, sqp, MLX4V_SIM_OBJ_WQ);
	mlx4v_sim_queue_unmap(sim, sqp->buf, sqp->buf_len, sqp->rq.rdb, sizeof(uint32_t));
	free(sqp);
	pthread_mutex_unlock(&sim->lock);
	wq->be = NULL;
	return 0;
}

/* The progress hook: one engine pass in the caller's thread. */
static int
mlx4v_sim_progress(void *dev_priv)
{
	return mlx4v_sim_poll(dev_priv);
}

/*
 * The per-QP doorbell page as another process maps it: the memfd behind the watched page,
 * so that a secondary's doorbell lands in the word the engine polls (verbs lock held).
 */
static int
mlx4v_sim_qp_sdb_fd(struct mlx4v_qp *qp)
{
	struct mlx4v_sim_qp *sqp = qp->be;

	if (sqp == NULL || sqp->page == NULL)
		return -EINVAL;
	return hwsim_mmio_page_fd(sqp->page);
}

/*
 * The CQ's own arm doorbell page as another process maps it, like the QP's above; its events
 * come on an eventfd, a count per read (verbs lock held).
 */
static int
mlx4v_sim_cq_uar_fd(struct mlx4v_cq *cq, int64_t *off, int *desc)
{
	struct mlx4v_sim_cq *scq = cq->be;

	if (scq == NULL || scq->page == NULL)
		return -EINVAL;
	*off = 0;
	*desc = 0;
	return hwsim_mmio_page_fd(scq->page);
}

const struct mlx4v_verbs_ops mlx4v_sim_verbs_ops = {
	.qp_sdb_fd = mlx4v_sim_qp_sdb_fd,
	.cq_uar_fd = mlx4v_sim_cq_uar_fd,
	.progress = mlx4v_sim_progress,
	.name = "simulator",
	.prov = &mlx4v_sw_prov,
	.ctx_open = mlx4v_sim_ctx_open,
	.ctx_close = mlx4v_sim_ctx_close,
	.pd_create = mlx4v_sim_pd_create,
	.pd_destroy = mlx4v_sim_pd_destroy,
	.mr_create = mlx4v_sim_mr_create,
	.mr_destroy = mlx4v_sim_mr_destroy,
	.cq_create = mlx4v_sim_cq_create,
	.cq_destroy = mlx4v_sim_cq_destroy,
	.cq_get_event = mlx4v_sim_cq_get_event,
	/* Acks are not needed: mlx4v_sim_cq_get_event() consumes events. */
	.cq_ack_events = NULL,
	.srq_create = mlx4v_sim_srq_create,
	.srq_destroy = mlx4v_sim_srq_destroy,
	.qp_create = mlx4v_sim_qp_create,
	.qp_modify = mlx4v_sim_qp_modify,
	.qp_destroy = mlx4v_sim_qp_destroy,
	.wq_create = mlx4v_sim_wq_create,
	.wq_modify = mlx4v_sim_wq_modify,
	.wq_destroy = mlx4v_sim_wq_destroy,
	.wqs_range_set = mlx4v_sim_wqs_range_set,
	.ind_create = mlx4v_sim_ind_create,
	.ind_destroy = mlx4v_sim_ind_destroy,
	.rss_qp_create = mlx4v_sim_rss_qp_create,
	.flow_create = mlx4v_sim_flow_create,
	.flow_destroy = mlx4v_sim_flow_destroy,
	.port_query = mlx4v_sim_port_query,
	.port_admin = mlx4v_sim_port_admin,
	.port_mtu_set = mlx4v_sim_port_mtu_set_op,
	.dev_reset = mlx4v_sim_reset,
};
