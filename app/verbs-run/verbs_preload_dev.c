/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The uverbs character device of the verbs emulation: /dev/infiniband/uverbs<N> opens
 * as a memfd the preload remembers; write() carries the uverbs commands (the write ABI, as
 * a kernel before the ioctl ABI: every RDMA_VERBS_IOCTL answers ENOTTY, which makes
 * libibverbs fall back to write()), answered as mlx4_ib does with the model's verbs
 * operations; mmap() gives the UAR page, each store to it trapped to the model; fstat()
 * shows the character device (doc/guides/platform/verbs_emulation.rst, "uverbs").
 */

#undef _FILE_OFFSET_BITS

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>
#include <rdma/mlx4-abi.h>

#include <infiniband/verbs.h>

#include "emu_host.h"
#include "emu_path.h"
#include "emu_trap.h"
#include "mlx4v_sim.h"
#include "mlx4v_verbs.h"
#include "verbs_preload_dev.h"
#include "verbs_run.h"

#define VERBS_DEV_MAX_FDS 64
/* The uverbs files are memfds named after the function: "<this><index>". */
#define VERBS_DEV_MEMFD "mlxv-uverbs-"
#define VERBS_DEV_MAX_HANDLES 1024
/** MLX4_USER_DEV_CAP_LARGE_CQE of the mlx4 context response. */
#define VERBS_DEV_CAP_LARGE_CQE 1u
/** The QP number space the context reports (qp_tab_size), as a ConnectX-3's. */
#define VERBS_DEV_QP_TAB_SIZE 131072u
/** IB_LINK_LAYER_ETHERNET in ib_uverbs_query_port_resp. */
#define VERBS_DEV_LINK_LAYER_ETH 2

struct verbs_dev_handle {
	enum verbs_dev_htype type;
	void *obj;              /**< struct mlx4v_pd, _mr, _cq, _qp, _flow, _wq, _srq */
};

/** A CQ: the model's, and what uverbs keeps of it. */
struct verbs_dev_cq {
	struct mlx4v_cq cq;     /**< first: the handle's object is this */
	uint64_t user_handle;   /**< what completion events name */
	int chan_wr;            /**< its completion channel's write end, -1 without */
	uint32_t reported;      /**< completion events delivered */
	uint32_t async_reported; /**< CQ error events delivered (verbs_preload_async.c) */
};

/** An SRQ: the model's, and what uverbs keeps of it. */
struct verbs_dev_srq {
	struct mlx4v_srq srq;   /**< first: the handle's object is this */
	uint64_t user_handle;   /**< what its limit event names */
	uint32_t async_reported; /**< limit events delivered (verbs_preload_async.c) */
};

/** An open uverbs fd: a ucontext after GET_CONTEXT. */
struct verbs_dev_fd {
	int fd;                 /**< -1: free slot */
	unsigned int idx;       /**< function */
	struct mlx4v_sim *sim;
	const struct mlx4v_verbs_ops *ops;
	struct mlx4v_ctx *ctx;  /**< NULL before GET_CONTEXT */
	int async_wr;           /**< write end of the async event fd */
	struct verbs_dev_handle h[VERBS_DEV_MAX_HANDLES];
};

static struct verbs_dev_fd verbs_dev_fds[VERBS_DEV_MAX_FDS];
static pthread_mutex_t verbs_dev_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_once_t verbs_dev_init_once = PTHREAD_ONCE_INIT;

static void
verbs_dev_init(void)
{
	unsigned int i;

	for (i = 0; i < VERBS_DEV_MAX_FDS; i++)
		verbs_dev_fds[i].fd = -1;
}

int
verbs_preload_trace_on(void)
{
	const char *e = getenv(VERBS_RUN_ENV_TRACE);

	return e != NULL && e[0] == '1';
}

/* Lock held. The emulated fd, or NULL. */
static struct verbs_dev_fd *
verbs_dev_find(int fd)
{
	unsigned int i;

	pthread_once(&verbs_dev_init_once, verbs_dev_init);
	if (fd < 0)
		return NULL;
	for (i = 0; i < VERBS_DEV_MAX_FDS; i++)
		if (verbs_dev_fds[i].fd == fd)
			return &verbs_dev_fds[i];
	return NULL;
}

int
verbs_preload_dev_open(unsigned int idx)
{
	struct verbs_dev_fd *f;
	struct mlx4v_sim *sim;
	char name[32];
	unsigned int n;
	int fd;

	verbs_preload_devs(&n);
	if (idx >= n) {
		errno = ENOENT;
		return -1;
	}
	pthread_once(&verbs_dev_init_once, verbs_dev_init);
	pthread_mutex_lock(&verbs_dev_lock);
	/*
	 * A dead function is reset now (mlx4_core's reset): with no file of it open into a new
	 * model, else in place, the open files' contexts disassociated.
	 */
	for (n = 0; n < VERBS_DEV_MAX_FDS; n++)
		if (verbs_dev_fds[n].fd != -1 && verbs_dev_fds[n].idx == idx)
			break;
	sim = n == VERBS_DEV_MAX_FDS ? verbs_preload_sim_revive(idx) : verbs_preload_sim_reset(idx);
	pthread_mutex_unlock(&verbs_dev_lock);
	if (sim == NULL) {
		errno = ENODEV;
		return -1;
	}
	/* Named after the function: a process that receives the fd knows it by the name. */
	snprintf(name, sizeof(name), VERBS_DEV_MEMFD "%u", idx);
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	pthread_mutex_lock(&verbs_dev_lock);
	f = verbs_dev_find(-1);
	for (n = 0; n < VERBS_DEV_MAX_FDS; n++)
		if (verbs_dev_fds[n].fd == -1)
			break;
	if (n == VERBS_DEV_MAX_FDS) {
		pthread_mutex_unlock(&verbs_dev_lock);
		close(fd);
		errno = EMFILE;
		return -1;
	}
	f = &verbs_dev_fds[n];
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->idx = idx;
	f->sim = sim;
	f->ops = mlx4v_sim_host_ops();
	f->async_wr = -1;
	pthread_mutex_unlock(&verbs_dev_lock);
	VERBS_TRACE("open uverbs%u: fd %d", idx, fd);
	return fd;
}

/* A free handle number of f for obj, or -ENOMEM. */
static int
verbs_dev_handle_new(struct verbs_dev_fd *f, enum verbs_dev_htype type, void *obj)
{
	unsigned int i;

	for (i = 0; i < VERBS_DEV_MAX_HANDLES; i++) {
		if (f->h[i].type == VERBS_H_FREE) {
			f->h[i].type = type;
			f->h[i].obj = obj;
			return (int)i;
		}
	}
	return -ENOMEM;
}

/* The object of handle h of that type, or NULL (the kernel's EINVAL). */
void *
verbs_dev_handle_get(struct verbs_dev_fd *f, uint32_t h, enum verbs_dev_htype type)
{
	if (h >= VERBS_DEV_MAX_HANDLES || f->h[h].type != type)
		return NULL;
	return f->h[h].obj;
}

struct mlx4v_ctx *
verbs_dev_ctx(const struct verbs_dev_fd *f)
{
	return f->ctx;
}

const struct mlx4v_verbs_ops *
verbs_dev_ops(const struct verbs_dev_fd *f)
{
	return f->ops;
}

struct mlx4v_sim *
verbs_dev_sim(const struct verbs_dev_fd *f)
{
	return f->sim;
}

/* Copy the response to the user's buffer of out_len bytes (the kernel's copy_to_user). */
int
verbs_dev_resp(uint64_t response, size_t out_len, const void *resp, size_t len)
{
	if (response == 0 || out_len < len)
		return -ENOSPC;
	memcpy((void *)(uintptr_t)response, resp, len);
	return 0;
}

/*
 * Publish obj under a new handle of f and answer the command with resp, whose handle word is
 * at byte hoff (0 but for the flow's). @return 0 or -errno, with no handle left on failure.
 */
int
verbs_dev_publish(struct verbs_dev_fd *f, enum verbs_dev_htype type, void *obj,
		  uint64_t response, size_t out_len, void *resp, size_t len, size_t hoff)
{
	int h, ret;

	h = verbs_dev_handle_new(f, type, obj);
	if (h < 0)
		return h;
	*(uint32_t *)((uint8_t *)resp + hoff) = (uint32_t)h;
	ret = verbs_dev_resp(response, out_len, resp, len);
	if (ret)
		f->h[h].type = VERBS_H_FREE;
	return ret;
}

/*
 * Destroy the object of handle h, as the kernel's uobject destroy: refused with EBUSY while
 * another object uses it; the references it held are dropped. @return 0 or -errno.
 */
static int
verbs_dev_obj_destroy(struct verbs_dev_fd *f, uint32_t h)
{
	struct verbs_dev_handle *hd = &f->h[h];
	struct mlx4v_obj *o = hd->obj;
	struct mlx4v_flow *flow;
	struct mlx4v_qp *qp;
	struct mlx4v_mr *mr;
	int ret = -EINVAL;

	if (o->refcnt != 0)
		return -EBUSY;
	switch (hd->type) {
	case VERBS_H_PD:
		ret = f->ops->pd_destroy(hd->obj);
		break;
	case VERBS_H_MR:
		mr = hd->obj;
		ret = f->ops->mr_destroy(mr);
		if (ret == 0)
			mr->pd->obj.refcnt--;
		break;
	case VERBS_H_CQ:
		/* No event is delivered once the model's eventfd is closed. */
		verbs_event_unwatch(((struct mlx4v_cq *)hd->obj)->event_fd);
		verbs_async_cq_del(f->async_wr, ((struct mlx4v_cq *)hd->obj)->cqn);
		ret = f->ops->cq_destroy(hd->obj);
		break;
	case VERBS_H_QP:
		qp = hd->obj;
		verbs_async_qp_del(f->async_wr, qp->qpn);
		ret = f->ops->qp_destroy(qp);
		if (ret == 0) {
			verbs_rss_qp_unref(qp);
			if (qp->srq != NULL)
				qp->srq->obj.refcnt--;
		}
		break;
	case VERBS_H_IND:
		ret = verbs_rss_ind_destroy(f, hd->obj);
		break;
	case VERBS_H_FLOW:
		flow = hd->obj;
		ret = f->ops->flow_destroy(flow);
		if (ret == 0)
			flow->qp->obj.refcnt--;
		break;
	case VERBS_H_WQ:
		ret = f->ops->wq_destroy(hd->obj);
		if (ret == 0) {
			((struct mlx4v_wq *)hd->obj)->pd->obj.refcnt--;
			((struct mlx4v_wq *)hd->obj)->cq->obj.refcnt--;
		}
		break;
	case VERBS_H_SRQ:
		verbs_async_srq_del(f->async_wr, ((struct mlx4v_srq *)hd->obj)->srqn);
		ret = f->ops->srq_destroy(hd->obj);
		if (ret == 0)
			((struct mlx4v_srq *)hd->obj)->pd->obj.refcnt--;
		break;
	case VERBS_H_FREE:
		break;
	}
	if (ret)
		return ret;
	free(hd->obj);
	hd->type = VERBS_H_FREE;
	return 0;
}

/*
 * A destroy command: the handle at byte hoff of the command, of that type; then the
 * response (zeroes: no event was reported) when the command has one (its first word).
 */
static int
verbs_cmd_destroy(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t need,
		  size_t hoff, enum verbs_dev_htype type, size_t out_len, size_t resp_len)
{
	uint64_t zero[2] = { 0, 0 };
	uint32_t h;
	int ret;

	if (in_len < need)
		return -EINVAL;
	h = *(const uint32_t *)((const uint8_t *)in + hoff);
	if (verbs_dev_handle_get(f, h, type) == NULL)
		return -EINVAL;
	ret = verbs_dev_obj_destroy(f, h);
	if (ret || resp_len == 0)
		return ret;
	return verbs_dev_resp(*(const uint64_t *)in, out_len, zero, resp_len);
}

/* ---- the commands: in is the payload after the header, out_len the response's bytes ---- */

/*
 * The fixed parts of the responses whose driver data follows (a flexible array in the UAPI
 * structs, which may not be followed by another field): the same layout, checked below.
 */
struct verbs_get_context_resp_core {
	uint32_t async_fd;
	uint32_t num_comp_vectors;
};

struct verbs_alloc_pd_resp_core {
	uint32_t pd_handle;
};

_Static_assert(sizeof(struct verbs_get_context_resp_core) ==
	       sizeof(struct ib_uverbs_get_context_resp), "get_context response layout");
struct verbs_create_srq_resp_core {
	uint32_t srq_handle;
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t srqn;
};

_Static_assert(sizeof(struct verbs_create_srq_resp_core) ==
	       sizeof(struct ib_uverbs_create_srq_resp), "create_srq response layout");
_Static_assert(sizeof(struct verbs_alloc_pd_resp_core) ==
	       sizeof(struct ib_uverbs_alloc_pd_resp), "alloc_pd response layout");

static int
verbs_cmd_get_context(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_get_context *cmd = in;
	struct {
		struct verbs_get_context_resp_core core;
		struct mlx4_ib_alloc_ucontext_resp drv;
	} resp;
	struct mlx4v_ctx *ctx;
	int p[2];
	int ret;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	/* One ucontext per open file, as ib_uverbs_get_context(). */
	if (f->ctx != NULL)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (ctx == NULL)
		return -ENOMEM;
	ctx->obj.type = MLX4V_OBJ_CTX;
	ctx->obj.ctx = ctx;
	snprintf(ctx->name, sizeof(ctx->name), "mlx4_%u", f->idx);
	ctx->socket = -1;
	ctx->caps.page_size = (size_t)sysconf(_SC_PAGESIZE);
	ret = f->ops->ctx_open(ctx, f->sim);
	if (ret)
		goto err_free;
	/* The async event file: events are read from it as struct ib_uverbs_async_event_desc. */
	if (pipe2(p, O_CLOEXEC) != 0) {
		ret = -errno;
		goto err_close;
	}
	memset(&resp, 0, sizeof(resp));
	resp.core.async_fd = p[0];
	resp.core.num_comp_vectors = 1;
	resp.drv.dev_caps = ctx->caps.cqe_size == 64 ? VERBS_DEV_CAP_LARGE_CQE : 0;
	resp.drv.qp_tab_size = VERBS_DEV_QP_TAB_SIZE;
	/*
	 * BlueFlame as mlx4_ib reports it: 512-byte registers, libmlx4 writing the halves of the
	 * first of its BF page (mmap at one page) in turn (prm/mlx4 §4.9).
	 */
	resp.drv.bf_reg_size = MLX4V_SIM_BF_REG_SIZE;
	resp.drv.bf_regs_per_page = 1;
	resp.drv.cqe_size = ctx->caps.cqe_size;
	ret = verbs_dev_resp(cmd->response, out_len, &resp, sizeof(resp));
	if (ret)
		goto err_pipe;
	ret = verbs_async_ctx_add(f->idx, f->sim, p[1]);
	if (ret)
		goto err_pipe;
	f->ctx = ctx;
	f->async_wr = p[1];
	return 0;

err_pipe:
	close(p[0]);
	close(p[1]);
err_close:
	f->ops->ctx_close(ctx);
err_free:
	free(ctx);
	return ret;
}

/* The device attributes as mlx4_ib_query_device() reports a ConnectX-3 with the model's caps. */
static void
verbs_dev_attr(const struct verbs_dev_fd *f, struct ib_uverbs_query_device_resp *r)
{
	const struct mlx4v_caps *c = &f->ctx->caps;
	int64_t no_dmfs = 0;

	memset(r, 0, sizeof(*r));
	/* fw_ver: major << 32 | minor << 16 | sub-minor, as libmlx4 decodes it. */
	r->fw_ver = (UINT64_C(2) << 32) | (UINT64_C(42) << 16) | 5000;
	r->node_guid = htobe64(UINT64_C(0x0002c9030000b2c0) | ((uint64_t)f->idx << 16));
	r->sys_image_guid = htobe64(UINT64_C(0x0002c9030000b2c3) | ((uint64_t)f->idx << 16));
	r->max_mr_size = UINT64_MAX;
	r->page_size_cap = 0xfffffe00;
	r->vendor_id = 0x02c9;
	r->vendor_part_id = VERBS_RUN_DEVICE == 0x1007 ? 4103 : 4099;
	r->hw_ver = 0;
	r->max_qp = VERBS_DEV_QP_TAB_SIZE - 8;
	r->max_qp_wr = c->max_qp_wr;
	/*
	 * As mlx4_ib_query_device() for a ConnectX-3 on Ethernet: port events, the system image
	 * GUID, and device-managed flow steering (what ibv_create_flow() needs) unless the
	 * model plays a device in another steering mode (its no_dmfs knob).
	 */
	r->device_cap_flags = IBV_DEVICE_PORT_ACTIVE_EVENT | IBV_DEVICE_SYS_IMAGE_GUID;
	if (mlx4v_sim_knob_get(f->sim, "no_dmfs", &no_dmfs) != 0 || no_dmfs == 0)
		r->device_cap_flags |= IBV_DEVICE_MANAGED_FLOW_STEERING;
	r->max_sge = c->max_sge;
	r->max_cq = 65408;
	r->max_cqe = c->max_cqe;
	r->max_mr = 524032;
	r->max_pd = 32764;
	r->max_srq = 65472;
	r->max_srq_wr = c->max_srq_wr;
	r->max_srq_sge = c->max_srq_sge;
	r->max_pkeys = 128;
	r->local_ca_ack_delay = 15;
	r->phys_port_cnt = (uint8_t)c->nports;
}

static int
verbs_cmd_query_device(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_query_device *cmd = in;
	struct ib_uverbs_query_device_resp resp;

	if (in_len < sizeof(*cmd) || f->ctx == NULL)
		return -EINVAL;
	verbs_dev_attr(f, &resp);
	return verbs_dev_resp(cmd->response, out_len, &resp, sizeof(resp));
}

/*
 * Extended: the core response, then mlx4's; the clock (frequency, 48-bit mask) and, in the
 * mlx4 part, the offset of the counter in the clock page (verbs_preload_clock.c).
 */
static int
verbs_cmd_query_device_ex(struct verbs_dev_fd *f, uint64_t response, size_t core_out,
			  size_t drv_out)
{
	struct ib_uverbs_ex_query_device_resp core;
	struct mlx4_uverbs_ex_query_device_resp drv;
	size_t n;

	if (f->ctx == NULL)
		return -EINVAL;
	memset(&core, 0, sizeof(core));
	verbs_dev_attr(f, &core.base);
	verbs_rss_caps(&core, &drv);
	core.timestamp_mask = VERBS_CLOCK_MASK;
	core.hca_core_clock = VERBS_CLOCK_KHZ;
	drv.comp_mask |= MLX4_IB_QUERY_DEV_RESP_MASK_CORE_CLOCK_OFFSET;
	drv.hca_core_clock_offset = VERBS_CLOCK_OFFSET;
	/* The kernel writes what fits of its response, and says how much that is. */
	n = RTE_MIN(core_out, sizeof(core));
	if (n < sizeof(core.base))
		return -ENOSPC;
	core.response_length = n;
	memcpy((void *)(uintptr_t)response, &core, n);
	if (drv_out != 0) {
		drv.response_length = RTE_MIN(drv_out, sizeof(drv));
		memcpy((void *)(uintptr_t)(response + core_out), &drv, drv.response_length);
	}
	return 0;
}

static int
verbs_cmd_query_port(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_query_port *cmd = in;
	struct ib_uverbs_query_port_resp resp;
	struct rte_pmd_mlx4v_port_attr attr;
	uint16_t mtu;
	int ret;

	if (in_len < sizeof(*cmd) || f->ctx == NULL)
		return -EINVAL;
	ret = f->ops->port_query(f->ctx, cmd->port_num, &attr);
	if (ret)
		return ret;
	memset(&resp, 0, sizeof(resp));
	resp.state = attr.state == RTE_PMD_MLX4V_PORT_ACTIVE ? 4 : 1;
	resp.phys_state = attr.state == RTE_PMD_MLX4V_PORT_ACTIVE ? 5 : 3;
	resp.max_mtu = 5;               /* IB_MTU_4096 */
	/* RoCE: the largest IB MTU that fits the netdev's (mlx4_ib_query_port()). */
	mtu = mlx4v_sim_port_mtu_get(f->sim, cmd->port_num);
	resp.active_mtu = mtu >= 4096 + 58 ? 5 : mtu >= 2048 + 58 ? 4 : mtu >= 1024 + 58 ? 3 :
		mtu >= 512 + 58 ? 2 : 1;
	resp.gid_tbl_len = 128;
	resp.pkey_tbl_len = 1;
	resp.max_msg_sz = 0x40000000;
	resp.max_vl_num = 2;
	resp.active_width = 2;          /* 4X */
	resp.active_speed = 8;          /* 10 Gb/s per lane (FDR10, 40GbE) */
	resp.port_cap_flags = 0x04010000; /* IP based GIDs, CM */
	resp.link_layer = attr.link_layer == RTE_PMD_MLX4V_LINK_LAYER_INFINIBAND ? 1 :
		VERBS_DEV_LINK_LAYER_ETH;
	return verbs_dev_resp(cmd->response, out_len, &resp, sizeof(resp));
}

static int
verbs_cmd_alloc_pd(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_alloc_pd *cmd = in;
	struct {
		struct verbs_alloc_pd_resp_core core;
		struct mlx4_ib_alloc_pd_resp drv;
	} resp;
	struct mlx4v_pd *pd;
	int ret;

	if (in_len < sizeof(*cmd) || f->ctx == NULL)
		return -EINVAL;
	pd = calloc(1, sizeof(*pd));
	if (pd == NULL)
		return -ENOMEM;
	pd->obj.type = MLX4V_OBJ_PD;
	pd->obj.ctx = f->ctx;
	ret = f->ops->pd_create(pd);
	if (ret)
		goto err_free;
	memset(&resp, 0, sizeof(resp));
	resp.drv.pdn = pd->pdn;
	ret = verbs_dev_publish(f, VERBS_H_PD, pd, cmd->response, out_len, &resp, sizeof(resp),
				0);
	if (ret == 0)
		return 0;
	f->ops->pd_destroy(pd);
err_free:
	free(pd);
	return ret;
}

static int
verbs_cmd_reg_mr(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_reg_mr *cmd = in;
	struct ib_uverbs_reg_mr_resp resp;
	struct mlx4v_mr *mr;
	struct mlx4v_pd *pd;
	int ret;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	pd = verbs_dev_handle_get(f, cmd->pd_handle, VERBS_H_PD);
	if (pd == NULL)
		return -EINVAL;
	/* ib_uverbs_reg_mr(): the start and the HCA address agree in the page offset. */
	if ((cmd->start & 0xfff) != (cmd->hca_va & 0xfff) || cmd->length == 0)
		return -EINVAL;
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL)
		return -ENOMEM;
	mr->obj.type = MLX4V_OBJ_MR;
	mr->obj.ctx = f->ctx;
	mr->pd = pd;
	mr->addr = (void *)(uintptr_t)cmd->start;
	mr->len = cmd->length;
	ret = f->ops->mr_create(mr);
	if (ret)
		goto err_free;
	memset(&resp, 0, sizeof(resp));
	resp.lkey = mr->lkey;
	resp.rkey = mr->lkey;
	ret = verbs_dev_publish(f, VERBS_H_MR, mr, cmd->response, out_len, &resp, sizeof(resp),
				0);
	if (ret == 0) {
		pd->obj.refcnt++;
		return 0;
	}
	f->ops->mr_destroy(mr);
err_free:
	free(mr);
	return ret;
}

static uint32_t
verbs_dev_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p != 0)
		p <<= 1;
	return p;
}

static int
verbs_cmd_create_cq(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_create_cq *cmd = in;
	const struct mlx4_ib_create_cq *drv = (const void *)(cmd + 1);
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct mlx4_ib_create_cq_resp drv;
	} resp;
	struct verbs_dev_cq *vcq;
	struct mlx4v_cq *cq;
	int chan_wr = -1;
	int ret;

	if (in_len < sizeof(*cmd) + sizeof(*drv) || f->ctx == NULL)
		return -EINVAL;
	/* mlx4_ib_create_cq(): 1 .. max_cqe requested, rounded up to a power of two + 1. */
	if (cmd->cqe < 1 || cmd->cqe > f->ctx->caps.max_cqe)
		return -EINVAL;
	if (cmd->comp_channel >= 0) {
		chan_wr = verbs_event_channel_wr(cmd->comp_channel);
		if (chan_wr < 0)
			return -EINVAL;
	}
	vcq = calloc(1, sizeof(*vcq));
	if (vcq == NULL)
		return -ENOMEM;
	vcq->user_handle = cmd->user_handle;
	vcq->chan_wr = chan_wr;
	cq = &vcq->cq;
	cq->with_events = chan_wr >= 0;
	cq->obj.type = MLX4V_OBJ_CQ;
	cq->obj.ctx = f->ctx;
	cq->cqe_req = cmd->cqe;
	cq->cqe_cnt = verbs_dev_pow2(cmd->cqe + 1);
	cq->cqe_size = f->ctx->caps.cqe_size;
	cq->buf = (void *)(uintptr_t)drv->buf_addr;
	cq->buf_len = (size_t)cq->cqe_cnt * cq->cqe_size;
	cq->set_ci_db = (uint32_t *)(uintptr_t)drv->db_addr;
	cq->arm_db = cq->set_ci_db + 1;
	cq->event_fd = -1;
	ret = f->ops->cq_create(cq);
	if (ret)
		goto err_free;
	if (chan_wr >= 0) {
		ret = verbs_event_watch(cq->event_fd, chan_wr, vcq->user_handle, &vcq->reported);
		if (ret)
			goto err_destroy;
	}
	memset(&resp, 0, sizeof(resp));
	resp.core.cqe = cq->cqe_cnt - 1;
	resp.drv.cqn = cq->cqn;
	ret = verbs_async_cq_add(f->async_wr, cq->cqn, vcq->user_handle, &vcq->async_reported);
	if (ret)
		goto err_unwatch;
	ret = verbs_dev_publish(f, VERBS_H_CQ, vcq, cmd->response, out_len, &resp, sizeof(resp),
				0);
	if (ret == 0)
		return 0;
	verbs_async_cq_del(f->async_wr, cq->cqn);
err_unwatch:
	verbs_event_unwatch(cq->event_fd);
err_destroy:
	f->ops->cq_destroy(cq);
err_free:
	free(vcq);
	return ret;
}

/* log2 of v, a power of two. */
static int
verbs_dev_log2(uint32_t v)
{
	int l = 0;

	while ((1u << l) < v)
		l++;
	return l;
}

/*
 * A raw-packet QP over the rings libmlx4 laid out: the SQ as the user gave it
 * (log_sq_bb_count, log_sq_stride: set_user_sq_size()), the RQ as mlx4_ib computes it
 * (set_rq_size(): power-of-two entries and scatter entries of 16 bytes), the larger stride
 * first in the buffer. uverbs names the port at RESET->INIT, where the model takes it: the QP
 * is made on port 1 until then.
 */
static int
verbs_cmd_create_qp(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_create_qp *cmd = in;
	const struct mlx4_ib_create_qp *drv = (const void *)(cmd + 1);
	struct ib_uverbs_create_qp_resp resp;
	struct mlx4v_cq *scq, *rcq;
	struct mlx4v_srq *srq = NULL;
	struct mlx4v_pd *pd;
	struct mlx4v_qp *qp;
	uint32_t rq_gs;
	int ret;

	if (in_len < sizeof(*cmd) + sizeof(*drv) || f->ctx == NULL)
		return -EINVAL;
	if (cmd->qp_type != IBV_QPT_RAW_PACKET) {
		VERBS_RUN_LOG("CREATE_QP of type %u: not emulated (EOPNOTSUPP)", cmd->qp_type);
		return -EOPNOTSUPP;
	}
	pd = verbs_dev_handle_get(f, cmd->pd_handle, VERBS_H_PD);
	scq = verbs_dev_handle_get(f, cmd->send_cq_handle, VERBS_H_CQ);
	rcq = verbs_dev_handle_get(f, cmd->recv_cq_handle, VERBS_H_CQ);
	/* On an SRQ the QP has no receive queue of its own (mlx4_ib's set_rq_size()). */
	if (cmd->is_srq)
		srq = verbs_dev_handle_get(f, cmd->srq_handle, VERBS_H_SRQ);
	if (pd == NULL || scq == NULL || rcq == NULL || (cmd->is_srq && srq == NULL))
		return -EINVAL;
	/* mlx4_ib checks the user's SQ geometry (set_user_sq_size()). */
	if (drv->log_sq_bb_count > 16 || drv->log_sq_stride < 6 || drv->log_sq_stride > 11 ||
	    cmd->max_recv_wr > f->ctx->caps.max_qp_wr || cmd->max_recv_sge > f->ctx->caps.max_sge)
		return -EINVAL;
	qp = calloc(1, sizeof(*qp));
	if (qp == NULL)
		return -ENOMEM;
	qp->obj.type = MLX4V_OBJ_QP;
	qp->obj.ctx = f->ctx;
	qp->pd = pd;
	qp->send_cq = scq;
	qp->recv_cq = rcq;
	qp->srq = srq;
	qp->attr.port = 1;
	qp->sq.wqe_cnt = 1u << drv->log_sq_bb_count;
	qp->sq.wqe_shift = drv->log_sq_stride;
	if (cmd->max_recv_wr != 0 && srq == NULL) {
		qp->rq.wqe_cnt = verbs_dev_pow2(cmd->max_recv_wr);
		rq_gs = verbs_dev_pow2(cmd->max_recv_sge != 0 ? cmd->max_recv_sge : 1);
		qp->rq.wqe_shift = verbs_dev_log2(rq_gs * 16);
	}
	qp->buf_len = mlx4v_wq_geom_place(&qp->rq, &qp->sq);
	qp->buf = (void *)(uintptr_t)drv->buf_addr;
	qp->rdb = qp->rq.wqe_cnt != 0 ? (uint32_t *)(uintptr_t)drv->db_addr : NULL;
	ret = f->ops->qp_create(qp);
	if (ret)
		goto err_free;
	memset(&resp, 0, sizeof(resp));
	resp.qpn = qp->qpn;
	resp.max_send_wr = cmd->max_send_wr;
	resp.max_recv_wr = qp->rq.wqe_cnt;
	resp.max_send_sge = cmd->max_send_sge;
	resp.max_recv_sge = qp->rq.wqe_cnt != 0 ? (1u << qp->rq.wqe_shift) / 16 : 0;
	resp.max_inline_data = cmd->max_inline_data;
	/* On an SRQ its last-WQE event names the user_handle (verbs_preload_async.c). */
	ret = srq != NULL ? verbs_async_qp_add(f->async_wr, qp->qpn, cmd->user_handle) : 0;
	if (ret == 0)
		ret = verbs_dev_publish(f, VERBS_H_QP, qp, cmd->response, out_len, &resp,
					sizeof(resp), 0);
	if (ret == 0) {
		pd->obj.refcnt++;
		scq->obj.refcnt++;
		rcq->obj.refcnt++;
		if (srq != NULL)
			srq->obj.refcnt++;
		return 0;
	}
	verbs_async_qp_del(f->async_wr, qp->qpn);
	f->ops->qp_destroy(qp);
err_free:
	free(qp);
	return ret;
}

static int
verbs_cmd_modify_qp(struct verbs_dev_fd *f, const void *in, size_t in_len)
{
	const struct ib_uverbs_modify_qp *cmd = in;
	enum rte_pmd_mlx4v_qp_state state;
	struct mlx4v_qp *qp;
	uint8_t port;
	int ret;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	qp = verbs_dev_handle_get(f, cmd->qp_handle, VERBS_H_QP);
	if (qp == NULL)
		return -EINVAL;
	if (!(cmd->attr_mask & IBV_QP_STATE))
		return 0;
	/* The port is part of the context RESET->INIT gives (the model checks it there). */
	port = qp->attr.port;
	if (cmd->attr_mask & IBV_QP_PORT)
		qp->attr.port = cmd->port_num;
	switch (cmd->qp_state) {
	case IBV_QPS_RESET:
		state = RTE_PMD_MLX4V_QPS_RESET;
		break;
	case IBV_QPS_INIT:
		state = RTE_PMD_MLX4V_QPS_INIT;
		break;
	case IBV_QPS_RTR:
		state = RTE_PMD_MLX4V_QPS_RTR;
		break;
	case IBV_QPS_RTS:
		state = RTE_PMD_MLX4V_QPS_RTS;
		break;
	case IBV_QPS_ERR:
		state = RTE_PMD_MLX4V_QPS_ERR;
		break;
	default:
		VERBS_RUN_LOG("MODIFY_QP to state %u: not emulated (EOPNOTSUPP)", cmd->qp_state);
		qp->attr.port = port;
		return -EOPNOTSUPP;
	}
	ret = f->ops->qp_modify(qp, state);
	if (ret)
		qp->attr.port = port;
	return ret;
}

/*
 * A steering rule (extended command): the default rules without a spec, or a NORMAL rule of
 * one Ethernet spec, as mlx4_ib takes them; the model checks the rule (full destination MAC
 * mask, port, steering mode). Other specs: EOPNOTSUPP, named.
 */
static int
verbs_cmd_create_flow(struct verbs_dev_fd *f, const void *in, size_t in_len, uint64_t response,
		      size_t out_len)
{
	const struct ib_uverbs_create_flow *cmd = in;
	const struct ib_uverbs_flow_spec_eth *eth;
	struct ib_uverbs_create_flow_resp resp;
	struct mlx4v_flow *flow;
	struct mlx4v_qp *qp;
	int ret;

	if (in_len < sizeof(*cmd) || cmd->comp_mask != 0)
		return -EINVAL;
	qp = verbs_dev_handle_get(f, cmd->qp_handle, VERBS_H_QP);
	if (qp == NULL)
		return -EINVAL;
	eth = (const void *)cmd->flow_attr.flow_specs;
	if (cmd->flow_attr.num_of_specs > 1 || (cmd->flow_attr.num_of_specs == 1 &&
	    (in_len < sizeof(*cmd) + sizeof(*eth) || eth->type != IBV_FLOW_SPEC_ETH))) {
		VERBS_RUN_LOG("EX_CREATE_FLOW with %u specs, the first of type 0x%x: not emulated "
			      "(EOPNOTSUPP)", cmd->flow_attr.num_of_specs,
			      cmd->flow_attr.num_of_specs != 0 ? eth->type : 0);
		return -EOPNOTSUPP;
	}
	flow = calloc(1, sizeof(*flow));
	if (flow == NULL)
		return -ENOMEM;
	flow->obj.type = MLX4V_OBJ_FLOW;
	flow->obj.ctx = f->ctx;
	flow->qp = qp;
	flow->attr.port = cmd->flow_attr.port;
	flow->rule.type = (uint8_t)cmd->flow_attr.type;
	flow->rule.num_specs = cmd->flow_attr.num_of_specs;
	if (flow->rule.num_specs == 1) {
		memcpy(flow->rule.dmac, eth->val.dst_mac, sizeof(flow->rule.dmac));
		memcpy(flow->rule.dmac_mask, eth->mask.dst_mac, sizeof(flow->rule.dmac_mask));
	}
	ret = f->ops->flow_create(flow);
	if (ret)
		goto err_free;
	memset(&resp, 0, sizeof(resp));
	ret = verbs_dev_publish(f, VERBS_H_FLOW, flow, response, out_len, &resp, sizeof(resp),
				offsetof(struct ib_uverbs_create_flow_resp, flow_handle));
	if (ret == 0) {
		qp->obj.refcnt++;
		return 0;
	}
	f->ops->flow_destroy(flow);
err_free:
	free(flow);
	return ret;
}

static const char *
verbs_cmd_name(uint32_t cmd)
{
	static const char *const names[] = {
		"GET_CONTEXT", "QUERY_DEVICE", "QUERY_PORT", "ALLOC_PD", "DEALLOC_PD",
		"CREATE_AH", "MODIFY_AH", "QUERY_AH", "DESTROY_AH", "REG_MR", "REG_SMR",
		"REREG_MR", "QUERY_MR", "DEREG_MR", "ALLOC_MW", "BIND_MW", "DEALLOC_MW",
		"CREATE_COMP_CHANNEL", "CREATE_CQ", "RESIZE_CQ", "DESTROY_CQ", "POLL_CQ",
		"PEEK_CQ", "REQ_NOTIFY_CQ", "CREATE_QP", "QUERY_QP", "MODIFY_QP", "DESTROY_QP",
		"POST_SEND", "POST_RECV", "ATTACH_MCAST", "DETACH_MCAST", "CREATE_SRQ",
		"MODIFY_SRQ", "QUERY_SRQ", "DESTROY_SRQ", "POST_SRQ_RECV", "OPEN_XRCD",
		"CLOSE_XRCD", "CREATE_XSRQ", "OPEN_QP",
	};
	static const char *const ex_names[] = {
		[IB_USER_VERBS_EX_CMD_QUERY_DEVICE] = "EX_QUERY_DEVICE",
		[IB_USER_VERBS_EX_CMD_CREATE_CQ] = "EX_CREATE_CQ",
		[IB_USER_VERBS_EX_CMD_CREATE_QP] = "EX_CREATE_QP",
		[IB_USER_VERBS_EX_CMD_MODIFY_QP] = "EX_MODIFY_QP",
		[IB_USER_VERBS_EX_CMD_CREATE_FLOW] = "EX_CREATE_FLOW",
		[IB_USER_VERBS_EX_CMD_DESTROY_FLOW] = "EX_DESTROY_FLOW",
		[IB_USER_VERBS_EX_CMD_CREATE_WQ] = "EX_CREATE_WQ",
		[IB_USER_VERBS_EX_CMD_MODIFY_WQ] = "EX_MODIFY_WQ",
		[IB_USER_VERBS_EX_CMD_DESTROY_WQ] = "EX_DESTROY_WQ",
		[IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL] = "EX_CREATE_RWQ_IND_TBL",
		[IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL] = "EX_DESTROY_RWQ_IND_TBL",
		[IB_USER_VERBS_EX_CMD_MODIFY_CQ] = "EX_MODIFY_CQ",
	};
	uint32_t n = cmd & IB_USER_VERBS_CMD_COMMAND_MASK;

	if (cmd & IB_USER_VERBS_CMD_FLAG_EXTENDED)
		return n < RTE_DIM(ex_names) && ex_names[n] != NULL ? ex_names[n] : "EX_?";
	return n < RTE_DIM(names) ? names[n] : "?";
}

/*
 * The buffer of a WQ whose RQ geometry is set, as mlx4_ib lays it out: a one-entry SQ of 64
 * bytes beside the RQ, the larger stride first (the RQ at 64 unless its stride is larger).
 */
static void
verbs_dev_wq_layout(struct mlx4v_wq *wq)
{
	/* mlx4_ib's create_rq(): sq.wqe_cnt 1, sq.wqe_shift MLX4_IB_MIN_SQ_STRIDE. */
	wq->sq.wqe_cnt = 1;
	wq->sq.wqe_shift = 6;
	wq->buf_len = mlx4v_wq_geom_place(&wq->rq, &wq->sq);
}

/*
 * A receive WQ (extended command) over libmlx4's ring, sized as mlx4_ib's set_rq_size(); the
 * first WQ of a context sets its WQ number range (log_range_size), as mlx4_ib. uverbs never
 * names a WQ's port: it is the port of the RSS QP that brings it up (at that QP's INIT).
 */
static int
verbs_cmd_create_wq(struct verbs_dev_fd *f, const void *in, size_t in_len, uint64_t response,
		    size_t out_len)
{
	const struct ib_uverbs_ex_create_wq *cmd = in;
	const struct mlx4_ib_create_wq *drv = (const void *)(cmd + 1);
	struct ib_uverbs_ex_create_wq_resp resp;
	struct mlx4v_cq *cq;
	struct mlx4v_pd *pd;
	struct mlx4v_wq *wq;
	unsigned int i, nwq = 0;
	int ret;

	if (in_len < sizeof(*cmd) + sizeof(*drv) || f->ctx == NULL)
		return -EINVAL;
	if (cmd->wq_type != IBV_WQT_RQ || cmd->max_wr == 0 ||
	    cmd->max_wr > f->ctx->caps.max_qp_wr || cmd->max_sge > f->ctx->caps.max_sge)
		return -EINVAL;
	pd = verbs_dev_handle_get(f, cmd->pd_handle, VERBS_H_PD);
	cq = verbs_dev_handle_get(f, cmd->cq_handle, VERBS_H_CQ);
	if (pd == NULL || cq == NULL)
		return -EINVAL;
	for (i = 0; i < VERBS_DEV_MAX_HANDLES; i++)
		nwq += f->h[i].type == VERBS_H_WQ;
	if (nwq == 0) {
		ret = f->ops->wqs_range_set(f->ctx, drv->log_range_size);
		if (ret)
			return ret;
	}
	wq = calloc(1, sizeof(*wq));
	if (wq == NULL)
		return -ENOMEM;
	wq->obj.type = MLX4V_OBJ_WQ;
	wq->obj.ctx = f->ctx;
	wq->pd = pd;
	wq->cq = cq;
	wq->attr.port = 1;
	wq->rq.wqe_cnt = verbs_dev_pow2(cmd->max_wr);
	wq->rq.wqe_shift = verbs_dev_log2(verbs_dev_pow2(cmd->max_sge != 0 ? cmd->max_sge : 1) *
					  16);
	verbs_dev_wq_layout(wq);
	wq->buf = (void *)(uintptr_t)drv->buf_addr;
	wq->rdb = (uint32_t *)(uintptr_t)drv->db_addr;
	ret = f->ops->wq_create(wq);
	if (ret)
		goto err_free;
	memset(&resp, 0, sizeof(resp));
	resp.response_length = sizeof(resp);
	resp.max_wr = wq->rq.wqe_cnt;
	resp.max_sge = (1u << wq->rq.wqe_shift) / 16;
	resp.wqn = wq->wqn;
	ret = verbs_dev_publish(f, VERBS_H_WQ, wq, response, out_len, &resp, sizeof(resp),
				offsetof(struct ib_uverbs_ex_create_wq_resp, wq_handle));
	if (ret == 0) {
		pd->obj.refcnt++;
		cq->obj.refcnt++;
		return 0;
	}
	f->ops->wq_destroy(wq);
err_free:
	free(wq);
	return ret;
}

static int
verbs_cmd_modify_wq(struct verbs_dev_fd *f, const void *in, size_t in_len)
{
	const struct ib_uverbs_ex_modify_wq *cmd = in;
	struct mlx4v_wq *wq;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	wq = verbs_dev_handle_get(f, cmd->wq_handle, VERBS_H_WQ);
	if (wq == NULL)
		return -EINVAL;
	if (!(cmd->attr_mask & IBV_WQ_ATTR_STATE))
		return 0;
	/* IBV_WQS_RESET, RDY, ERR are the model's states in the same order. */
	if (cmd->wq_state > IBV_WQS_ERR) {
		VERBS_RUN_LOG("EX_MODIFY_WQ to state %u: not emulated (EOPNOTSUPP)",
			      cmd->wq_state);
		return -EOPNOTSUPP;
	}
	return f->ops->wq_modify(wq, (enum rte_pmd_mlx4v_wq_state)cmd->wq_state);
}

/*
 * An SRQ over libmlx4's ring and doorbell record, sized as mlx4_ib_create_srq(): the power of
 * two above max_wr WQEs of max(32, the power of two above 16 + 16 * max_sge) bytes; max_wr
 * and max_sge within the device's (EINVAL). The response gives max_wr and max_sge as granted
 * and the SRQ number, in the core part and in the mlx4 part.
 */
static int
verbs_cmd_create_srq(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_create_srq *cmd = in;
	const struct mlx4_ib_create_srq *drv = (const void *)(cmd + 1);
	struct {
		struct verbs_create_srq_resp_core core;
		struct mlx4_ib_create_srq_resp drv;
	} resp;
	struct verbs_dev_srq *vsrq;
	struct mlx4v_srq *srq;
	struct mlx4v_pd *pd;
	int ret;

	if (in_len < sizeof(*cmd) + sizeof(*drv) || f->ctx == NULL)
		return -EINVAL;
	if (cmd->max_wr == 0 || cmd->max_wr > f->ctx->caps.max_srq_wr ||
	    cmd->max_sge > f->ctx->caps.max_srq_sge)
		return -EINVAL;
	pd = verbs_dev_handle_get(f, cmd->pd_handle, VERBS_H_PD);
	if (pd == NULL)
		return -EINVAL;
	vsrq = calloc(1, sizeof(*vsrq));
	if (vsrq == NULL)
		return -ENOMEM;
	vsrq->user_handle = cmd->user_handle;
	srq = &vsrq->srq;
	srq->obj.type = MLX4V_OBJ_SRQ;
	srq->obj.ctx = f->ctx;
	srq->pd = pd;
	srq->max_wr_req = cmd->max_wr;
	srq->max_gs = cmd->max_sge;
	srq->max = verbs_dev_pow2(cmd->max_wr + 1);
	srq->wqe_shift = verbs_dev_log2(RTE_MAX(32u, verbs_dev_pow2(16 + 16 * cmd->max_sge)));
	srq->buf = (void *)(uintptr_t)drv->buf_addr;
	srq->buf_len = (size_t)srq->max << srq->wqe_shift;
	srq->db = (uint32_t *)(uintptr_t)drv->db_addr;
	ret = f->ops->srq_create(srq);
	if (ret)
		goto err_free;
	memset(&resp, 0, sizeof(resp));
	resp.core.max_wr = srq->max - 1;
	resp.core.max_sge = srq->max_gs;
	resp.core.srqn = srq->srqn;
	resp.drv.srqn = srq->srqn;
	/* Its limit event (MODIFY_SRQ, verbs_preload_srq.c) names the user_handle. */
	ret = verbs_async_srq_add(f->async_wr, srq->srqn, vsrq->user_handle,
				  &vsrq->async_reported);
	if (ret)
		goto err_destroy;
	ret = verbs_dev_publish(f, VERBS_H_SRQ, srq, cmd->response, out_len, &resp, sizeof(resp),
				0);
	if (ret == 0) {
		pd->obj.refcnt++;
		return 0;
	}
	verbs_async_srq_del(f->async_wr, srq->srqn);
err_destroy:
	f->ops->srq_destroy(srq);
err_free:
	free(vsrq);
	return ret;
}

/*
 * The response says how many events (a last WQE on an SRQ) were delivered: libibverbs waits
 * until the program acknowledged as many (ibv_ack_async_event()).
 */
static int
verbs_cmd_destroy_qp(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_destroy_qp *cmd = in;
	struct ib_uverbs_destroy_qp_resp resp;
	struct mlx4v_qp *qp;
	int ret;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	qp = verbs_dev_handle_get(f, cmd->qp_handle, VERBS_H_QP);
	if (qp == NULL)
		return -EINVAL;
	if (qp->obj.refcnt != 0)
		return -EBUSY;
	memset(&resp, 0, sizeof(resp));
	resp.events_reported = verbs_async_qp_del(f->async_wr, qp->qpn);
	ret = verbs_dev_obj_destroy(f, cmd->qp_handle);
	if (ret)
		return ret;
	return verbs_dev_resp(cmd->response, out_len, &resp, sizeof(resp));
}

/*
 * The response says how many limit events were delivered: libibverbs waits until the command
 * acknowledged as many (ibv_ack_async_event()).
 */
static int
verbs_cmd_destroy_srq(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_destroy_srq *cmd = in;
	struct ib_uverbs_destroy_srq_resp resp;
	struct verbs_dev_srq *vsrq;
	int ret;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	vsrq = verbs_dev_handle_get(f, cmd->srq_handle, VERBS_H_SRQ);
	if (vsrq == NULL)
		return -EINVAL;
	memset(&resp, 0, sizeof(resp));
	resp.events_reported = vsrq->async_reported;
	ret = verbs_dev_obj_destroy(f, cmd->srq_handle);
	if (ret)
		return ret;
	return verbs_dev_resp(cmd->response, out_len, &resp, sizeof(resp));
}

static int
verbs_cmd_destroy_wq(struct verbs_dev_fd *f, const void *in, size_t in_len, uint64_t response,
		     size_t out_len)
{
	const struct ib_uverbs_ex_destroy_wq *cmd = in;
	struct ib_uverbs_ex_destroy_wq_resp resp;
	int ret;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	if (verbs_dev_handle_get(f, cmd->wq_handle, VERBS_H_WQ) == NULL)
		return -EINVAL;
	ret = verbs_dev_obj_destroy(f, cmd->wq_handle);
	if (ret)
		return ret;
	memset(&resp, 0, sizeof(resp));
	resp.response_length = sizeof(resp);
	return verbs_dev_resp(response, out_len, &resp, RTE_MIN(out_len, sizeof(resp)));
}

/*
 * The response says how many completion events were delivered: libibverbs waits until the
 * command acknowledged as many (ibv_ack_cq_events()).
 */
static int
verbs_cmd_destroy_cq(struct verbs_dev_fd *f, const void *in, size_t in_len, size_t out_len)
{
	const struct ib_uverbs_destroy_cq *cmd = in;
	struct ib_uverbs_destroy_cq_resp resp;
	struct verbs_dev_cq *vcq;
	int ret;

	if (in_len < sizeof(*cmd))
		return -EINVAL;
	vcq = verbs_dev_handle_get(f, cmd->cq_handle, VERBS_H_CQ);
	if (vcq == NULL)
		return -EINVAL;
	verbs_event_unwatch(vcq->cq.event_fd);
	verbs_async_cq_del(f->async_wr, vcq->cq.cqn);
	memset(&resp, 0, sizeof(resp));
	resp.comp_events_reported = vcq->reported;
	resp.async_events_reported = vcq->async_reported;
	ret = verbs_dev_obj_destroy(f, cmd->cq_handle);
	if (ret)
		return ret;
	return verbs_dev_resp(cmd->response, out_len, &resp, sizeof(resp));
}

static int
verbs_cmd_create_comp_channel(struct verbs_dev_fd *f, const void *in, size_t in_len,
			      size_t out_len)
{
	const struct ib_uverbs_create_comp_channel *cmd = in;
	struct ib_uverbs_create_comp_channel_resp resp;
	int fd, ret;

	(void)f;
	if (in_len < sizeof(*cmd))
		return -EINVAL;
	fd = verbs_event_channel_new();
	if (fd < 0)
		return fd;
	memset(&resp, 0, sizeof(resp));
	resp.fd = fd;
	ret = verbs_dev_resp(cmd->response, out_len, &resp, sizeof(resp));
	if (ret) {
		verbs_event_channel_closed(fd);
		close(fd);
	}
	return ret;
}

/* A destroy command of struct st whose handle is field, with a response of rsz bytes or 0. */
#define VERBS_DESTROY(st, field, type, rsz) \
	verbs_cmd_destroy(f, in, in_len, sizeof(struct st), offsetof(struct st, field), type, \
			  out_len, rsz)

/* Lock held. One command of len bytes. @return 0 or -errno. */
static int
verbs_dev_cmd(struct verbs_dev_fd *f, const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *hdr = buf;
	const struct ib_uverbs_ex_cmd_hdr *ex;
	const void *in;
	size_t in_len, out_len;
	uint32_t n;

	if (len < sizeof(*hdr))
		return -EINVAL;
	n = hdr->command & IB_USER_VERBS_CMD_COMMAND_MASK;
	if (hdr->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		/* Extended: sizes in 8-byte words, without the two headers. */
		if (len < sizeof(*hdr) + sizeof(*ex))
			return -EINVAL;
		ex = (const void *)(hdr + 1);
		if (len != sizeof(*hdr) + sizeof(*ex) +
		    (hdr->in_words + ex->provider_in_words) * 8u)
			return -EINVAL;
		in = ex + 1;
		in_len = (hdr->in_words + ex->provider_in_words) * 8u;
		out_len = hdr->out_words * 8u;
		switch (n) {
		case IB_USER_VERBS_EX_CMD_QUERY_DEVICE:
			return verbs_cmd_query_device_ex(f, ex->response, hdr->out_words * 8u,
							 ex->provider_out_words * 8u);
		case IB_USER_VERBS_EX_CMD_CREATE_FLOW:
			return verbs_cmd_create_flow(f, in, in_len, ex->response, out_len);
		case IB_USER_VERBS_EX_CMD_CREATE_WQ:
			return verbs_cmd_create_wq(f, in, in_len, ex->response, out_len);
		case IB_USER_VERBS_EX_CMD_MODIFY_WQ:
			return verbs_cmd_modify_wq(f, in, in_len);
		case IB_USER_VERBS_EX_CMD_DESTROY_WQ:
			return verbs_cmd_destroy_wq(f, in, in_len, ex->response, out_len);
		case IB_USER_VERBS_EX_CMD_DESTROY_FLOW:
			return VERBS_DESTROY(ib_uverbs_destroy_flow, flow_handle, VERBS_H_FLOW, 0);
		case IB_USER_VERBS_EX_CMD_CREATE_QP:
			return verbs_rss_cmd_create_qp(f, in, hdr->in_words * 8u, in_len,
						       ex->response, out_len);
		case IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL:
			return verbs_rss_cmd_create_ind(f, in, in_len, ex->response, out_len);
		case IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL:
			return VERBS_DESTROY(ib_uverbs_ex_destroy_rwq_ind_table, ind_tbl_handle,
					     VERBS_H_IND, 0);
		default:
			break;
		}
		VERBS_RUN_LOG("uverbs command %s (0x%x): not emulated (EOPNOTSUPP)",
			      verbs_cmd_name(hdr->command), hdr->command);
		return -EOPNOTSUPP;
	}
	/* Legacy: sizes in 4-byte words, the header included in in_words. */
	if (hdr->in_words * 4u != len)
		return -EINVAL;
	in = hdr + 1;
	in_len = len - sizeof(*hdr);
	out_len = hdr->out_words * 4u;
	switch (n) {
	case IB_USER_VERBS_CMD_GET_CONTEXT:
		return verbs_cmd_get_context(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_QUERY_DEVICE:
		return verbs_cmd_query_device(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_QUERY_PORT:
		return verbs_cmd_query_port(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_ALLOC_PD:
		return verbs_cmd_alloc_pd(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_DEALLOC_PD:
		return VERBS_DESTROY(ib_uverbs_dealloc_pd, pd_handle, VERBS_H_PD, 0);
	case IB_USER_VERBS_CMD_REG_MR:
		return verbs_cmd_reg_mr(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_DEREG_MR:
		return VERBS_DESTROY(ib_uverbs_dereg_mr, mr_handle, VERBS_H_MR, 0);
	case IB_USER_VERBS_CMD_CREATE_CQ:
		return verbs_cmd_create_cq(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_DESTROY_CQ:
		return verbs_cmd_destroy_cq(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL:
		return verbs_cmd_create_comp_channel(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_CREATE_QP:
		return verbs_cmd_create_qp(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_MODIFY_QP:
		return verbs_cmd_modify_qp(f, in, in_len);
	case IB_USER_VERBS_CMD_CREATE_SRQ:
		return verbs_cmd_create_srq(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_MODIFY_SRQ:
		return verbs_srq_cmd_modify(f, in, in_len);
	case IB_USER_VERBS_CMD_QUERY_SRQ:
		return verbs_srq_cmd_query(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_DESTROY_SRQ:
		return verbs_cmd_destroy_srq(f, in, in_len, out_len);
	case IB_USER_VERBS_CMD_DESTROY_QP:
		return verbs_cmd_destroy_qp(f, in, in_len, out_len);
	default:
		VERBS_RUN_LOG("uverbs command %s (%u): not emulated (EOPNOTSUPP)",
			      verbs_cmd_name(hdr->command), n);
		return -EOPNOTSUPP;
	}
}

/* Lock held. Destroy what the file still holds, users first, as the kernel does at release. */
static void
verbs_dev_release(struct verbs_dev_fd *f)
{
	static const enum verbs_dev_htype order[] = {
		VERBS_H_FLOW, VERBS_H_QP, VERBS_H_IND, VERBS_H_WQ, VERBS_H_SRQ, VERBS_H_CQ,
		VERBS_H_MR,
		VERBS_H_PD
	};
	unsigned int i, k;

	for (k = 0; k < RTE_DIM(order); k++)
		for (i = 0; i < VERBS_DEV_MAX_HANDLES; i++)
			if (f->h[i].type == order[k] && verbs_dev_obj_destroy(f, i) != 0)
				VERBS_RUN_LOG("uverbs%u: handle %u not destroyed at close", f->idx,
					      i);
	if (f->ctx != NULL) {
		f->ops->ctx_close(f->ctx);
		free(f->ctx);
		f->ctx = NULL;
	}
	if (f->async_wr >= 0) {
		verbs_async_ctx_del(f->async_wr);
		close(f->async_wr);
	}
	f->fd = -1;
}

/* ---- The interposed calls ---- */

ssize_t
write(int fd, const void *buf, size_t len)
{
	struct verbs_dev_fd *f;
	int ret;

	EMU_PATH_REAL(ssize_t, write, int, const void *, size_t);
	pthread_mutex_lock(&verbs_dev_lock);
	f = verbs_dev_find(fd);
	if (f == NULL) {
		pthread_mutex_unlock(&verbs_dev_lock);
		return real_write(fd, buf, len);
	}
	ret = verbs_dev_cmd(f, buf, len);
	VERBS_TRACE("uverbs%u %s: %s", f->idx,
		    len >= 4 ? verbs_cmd_name(*(const uint32_t *)buf) : "?", strerror(-ret));
	pthread_mutex_unlock(&verbs_dev_lock);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return (ssize_t)len;
}

/*
 * No ioctl ABI: libibverbs takes ENOTTY as "use write()", as on kernels before 4.17. The
 * interface requests on the emulated netdevs are verbs_preload_netdev.c's.
 */
int
ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int found, ret;

	EMU_PATH_REAL(int, ioctl, int, unsigned long, ...);
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	pthread_mutex_lock(&verbs_dev_lock);
	found = verbs_dev_find(fd) != NULL;
	pthread_mutex_unlock(&verbs_dev_lock);
	if (!found) {
		ret = verbs_netdev_ioctl(fd, req, arg);
		return ret != VERBS_NETDEV_NOT_OURS ? ret : real_ioctl(fd, req, arg);
	}
	VERBS_TRACE("ioctl 0x%lx on uverbs: ENOTTY (write ABI only)", req);
	errno = ENOTTY;
	return -1;
}

/*
 * A UAR page: the view software stores to (read-only, every store trapped) and the
 * preload's writable alias of the same memfd page, where the stores are read and cleared.
 */
struct verbs_dev_uar {
	uint8_t *user;          /**< NULL: free slot */
	uint8_t *alias;
	size_t len;
	int bf;                 /**< the BlueFlame page: stores go to mlx4v_sim_bf_store() */
	struct mlx4v_sim *sim;  /**< the model, or NULL: another process hosts it */
	int conn;               /**< without sim: the store channel to its host */
};

static struct verbs_dev_uar verbs_dev_uars[VERBS_DEV_MAX_FDS];

/*
 * One doorbell word to the model: here, or over the store channel to the process hosting it,
 * which takes it before the store returns, as here.
 */
static void
verbs_dev_uar_take(struct verbs_dev_uar *u, uint32_t off, uint64_t raw)
{
	if (u->sim != NULL)
		mlx4v_sim_uar_store(u->sim, off, raw);
	else
		emu_host_store(u->conn, off, raw);
}

/*
 * A store reached the UAR page (emu_trap.c, in the storing thread): take the doorbell words
 * that are not idle (0: no CQN or QPN is 0) to the model, as the device decodes them, and
 * clear them for the next store.
 */
static void
verbs_dev_uar_stored(void *arg, void *page)
{
	struct verbs_dev_uar *u = arg;
	uint64_t arm;
	uint32_t sdb;

	(void)page;
	arm = __atomic_exchange_n((uint64_t *)(u->alias + MLX4V_CQ_DOORBELL), 0,
				  __ATOMIC_ACQ_REL);
	if (arm != 0)
		verbs_dev_uar_take(u, MLX4V_CQ_DOORBELL, arm);
	sdb = __atomic_exchange_n((uint32_t *)(u->alias + MLX4V_SEND_DOORBELL), 0,
				  __ATOMIC_ACQ_REL);
	if (sdb != 0)
		verbs_dev_uar_take(u, MLX4V_SEND_DOORBELL, sdb);
}

/*
 * A store reached the BlueFlame page: the 8 bytes it wrote, at its offset, to the model, which
 * takes them in store order (mlx4v_sim_bf_store()) before the program goes on.
 */
static void
verbs_dev_bf_stored(void *arg, void *page)
{
	struct verbs_dev_uar *u = arg;
	uint32_t off = (uint32_t)(emu_trap_addr() - (uintptr_t)page);
	uint64_t raw;

	memcpy(&raw, u->alias + (off & ~7u), sizeof(raw));
	mlx4v_sim_bf_store(u->sim, off, raw);
}

/*
 * A UAR page of function idx, its stores trapped to sim, or (sim NULL) over the store channel
 * conn to the process hosting the model (the channel is the page's: closed with it).
 */
static void *
verbs_dev_uar_map(unsigned int idx, struct mlx4v_sim *sim, int conn, size_t len, off_t off)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct verbs_dev_uar *u = NULL;
	unsigned int i;
	int ret;

	/* The BlueFlame page at one page: the context's own, of the model here only. */
	if ((off != 0 && (off != (off_t)page || sim == NULL)) || len != page) {
		VERBS_RUN_LOG("mmap of uverbs%u at 0x%llx + %zu: not emulated (EINVAL)", idx,
			      (unsigned long long)off, len);
		errno = EINVAL;
		return MAP_FAILED;
	}
	for (i = 0; i < VERBS_DEV_MAX_FDS && u == NULL; i++)
		if (verbs_dev_uars[i].user == NULL)
			u = &verbs_dev_uars[i];
	if (u == NULL) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	u->user = verbs_page_pair(len, PROT_READ, &u->alias);
	if (u->user == MAP_FAILED) {
		u->user = NULL;
		return MAP_FAILED;
	}
	u->len = len;
	u->bf = off != 0;
	u->sim = sim;
	u->conn = conn;
	ret = emu_trap_add(u->user, len, u->bf ? verbs_dev_bf_stored : verbs_dev_uar_stored, u);
	if (ret) {
		VERBS_RUN_LOG("%s of uverbs%u: no store trap (%s)",
			      u->bf ? "BlueFlame page" : "UAR", idx, strerror(-ret));
		munmap(u->user, len);
		munmap(u->alias, len);
		u->user = NULL;
		errno = -ret;
		return MAP_FAILED;
	}
	return u->user;
}

void *
verbs_page_pair(size_t len, int prot, uint8_t **alias)
{
	void *user = MAP_FAILED;
	int mfd;

	mfd = memfd_create("verbs-page", MFD_CLOEXEC);
	if (mfd < 0)
		return MAP_FAILED;
	if (ftruncate(mfd, (off_t)len) != 0)
		goto out;
	*alias = mmap64(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (*alias == MAP_FAILED)
		goto out;
	user = mmap64(NULL, len, prot, MAP_SHARED, mfd, 0);
	if (user == MAP_FAILED)
		munmap(*alias, len);
out:
	close(mfd);
	return user;
}

/*
 * The context's UAR page at offset 0: every store is trapped and handed to the model
 * (mlx4v_sim_uar_store()), which finds the CQ or QP in the doorbell value as silicon does.
 * The BlueFlame page at one page: every 8-byte store to mlx4v_sim_bf_store(), in order.
 * The clock page at 3 pages (verbs_preload_clock.c). Other offsets: EINVAL, named.
 */
static void *
verbs_dev_mmap(struct verbs_dev_fd *f, size_t len, off_t off)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (f->ctx == NULL) {
		VERBS_RUN_LOG("mmap of uverbs%u before its context: not emulated (EINVAL)",
			      f->idx);
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (off == (off_t)(VERBS_CLOCK_PGOFF * page) && len == page)
		return verbs_clock_mmap(len);
	return verbs_dev_uar_map(f->idx, f->sim, -1, len, off);
}

/*
 * The UAR mmap() of a context fd received from the process hosting the model (EAL IPC gives a
 * DPDK secondary the primary's verbs fd, as DPDK's mlx4 does), known by its memfd name: a
 * page whose stores go to that model. @return it, MAP_FAILED, or NULL (not such an fd).
 */
static void *
verbs_dev_mmap_received(int fd, size_t len, off_t off)
{
	char memfd[64], key[32];
	unsigned int idx, n;
	void *p;
	int conn;

	if (emu_host_memfd_name(fd, memfd, sizeof(memfd)) != 0 ||
	    strncmp(memfd, VERBS_DEV_MEMFD, strlen(VERBS_DEV_MEMFD)) != 0 ||
	    sscanf(memfd + strlen(VERBS_DEV_MEMFD), "%u", &idx) != 1)
		return NULL;
	verbs_preload_devs(&n);
	if (idx >= n)
		return NULL;
	verbs_host_key(idx, key, sizeof(key));
	conn = emu_host_connect(key);
	if (conn < 0) {
		VERBS_RUN_LOG("%s: UAR of a received context: no process hosts the model (%s)",
			      key, strerror(-conn));
		errno = ENODEV;
		return MAP_FAILED;
	}
	pthread_mutex_lock(&verbs_dev_lock);
	p = verbs_dev_uar_map(idx, NULL, conn, len, off);
	pthread_mutex_unlock(&verbs_dev_lock);
	if (p == MAP_FAILED)
		close(conn);
	VERBS_TRACE("mmap of a received uverbs%u context: %p", idx, p);
	return p;
}

void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct verbs_dev_fd *f;
	void *p;

	EMU_PATH_REAL(void *, mmap, void *, size_t, int, int, int, off_t);
	pthread_mutex_lock(&verbs_dev_lock);
	f = verbs_dev_find(fd);
	if (f == NULL) {
		pthread_mutex_unlock(&verbs_dev_lock);
		/* A verbs context fd another process of the tree opened and passed here. */
		if (fd >= 0 && !(flags & MAP_ANONYMOUS))
			p = verbs_dev_mmap_received(fd, len, off);
		else
			p = NULL;
		return p != NULL ? p : real_mmap(addr, len, prot, flags, fd, off);
	}
	p = verbs_dev_mmap(f, len, off);
	pthread_mutex_unlock(&verbs_dev_lock);
	return p;
}

void *
mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

/* The node is a character device (open_cdev() checks it against sysfs's dev). */
static void
verbs_dev_stat(const struct verbs_dev_fd *f, struct stat *st)
{
	st->st_mode = S_IFCHR | 0666;
	st->st_rdev = makedev(VERBS_RUN_CDEV_MAJOR, VERBS_RUN_CDEV_MINOR + f->idx);
}

int
fstat(int fd, struct stat *st)
{
	struct verbs_dev_fd *f;
	int ret;

	EMU_PATH_REAL(int, fstat, int, struct stat *);
	ret = real_fstat(fd, st);
	pthread_mutex_lock(&verbs_dev_lock);
	f = verbs_dev_find(fd);
	if (f != NULL && ret == 0)
		verbs_dev_stat(f, st);
	pthread_mutex_unlock(&verbs_dev_lock);
	return ret;
}

int
fstat64(int fd, struct stat64 *st)
{
	return fstat(fd, (struct stat *)st);
}

/*
 * An unmapped UAR or clock page is no longer trapped: the address may be reused for anything.
 */
int
munmap(void *addr, size_t len)
{
	struct verbs_dev_uar *u;
	unsigned int i;

	EMU_PATH_REAL(int, munmap, void *, size_t);
	emu_trap_forget((uintptr_t)addr, len, NULL);
	pthread_mutex_lock(&verbs_dev_lock);
	for (i = 0; i < VERBS_DEV_MAX_FDS; i++) {
		u = &verbs_dev_uars[i];
		if (u->user == NULL || (uint8_t *)addr >= u->user + u->len ||
		    u->user >= (uint8_t *)addr + len)
			continue;
		real_munmap(u->alias, u->len);
		if (u->sim == NULL)
			close(u->conn);
		u->user = NULL;
	}
	verbs_clock_munmap(addr, len, real_munmap);
	pthread_mutex_unlock(&verbs_dev_lock);
	return real_munmap(addr, len);
}

int
close(int fd)
{
	struct verbs_dev_fd *f;

	EMU_PATH_REAL(int, close, int);
	pthread_mutex_lock(&verbs_dev_lock);
	f = verbs_dev_find(fd);
	if (f != NULL) {
		VERBS_TRACE("close uverbs%u: fd %d", f->idx, fd);
		verbs_dev_release(f);
	}
	pthread_mutex_unlock(&verbs_dev_lock);
	verbs_event_channel_closed(fd);
	return real_close(fd);
}
