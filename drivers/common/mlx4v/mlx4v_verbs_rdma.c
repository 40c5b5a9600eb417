/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The rdma-core backend: objects through libibverbs on a real ConnectX-3 (kernel
 * mlx4 driver), rings in EAL memory through libmlx4's buffer-allocator hook, and
 * views from rdma-core's own mlx4dv_init_obj().
 */

#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include <infiniband/verbs.h>

#include <rte_interrupts.h>
#include <rte_malloc.h>
#include <rte_pci.h>
#include <rte_string_fns.h>

#include "mlx4v_class.h"
#include "mlx4v_log.h"
#include "mlx4v_netdev.h"
#include "mlx4v_prov.h"
#include "mlx4v_verbs.h"
#include "mlx4v_verbs_rdma.h"
#include "mlxv_intr_unreg.h"

/* A registered real device: the ibverbs device behind an EAL device name. */
struct mlx4v_rdma_dev {
	char eal_name[RTE_DEV_NAME_MAX_LEN];
	char ibdev[IBV_SYSFS_NAME_MAX];
};

struct mlx4v_rdma_ctx {
	struct ibv_context *ib;
	int socket;          /**< where libmlx4's rings go, through the allocator hook */
	int cqe_size;        /**< fixed per context by the kernel */
	int dmfs;            /**< device-managed flow steering (IBV_DEVICE_MANAGED_FLOW_STEERING) */
	char name[RTE_DEV_NAME_MAX_LEN]; /**< the device, for asynchronous-event reports */
	uint32_t life;       /**< the device's life at open (each context reports the death) */
	struct rte_intr_handle *async; /**< the context's async_fd in the EAL interrupt thread */
};

struct mlx4v_rdma_cq {
	struct ibv_cq *cq;
	struct ibv_comp_channel *chan;
	uint32_t cqn;        /**< from the view (atomic: the async-event reader reads it) */
};

#define MLX4V_RDMA_MAX_DEV 16

/* Process-local: ibverbs handles are per process. */
static struct mlx4v_rdma_dev *mlx4v_rdma_devs[MLX4V_RDMA_MAX_DEV];

static struct mlx4v_rdma_ctx *
mlx4v_rdma_of(const struct mlx4v_ctx *ctx)
{
	return ctx->be;
}

/* libmlx4 buffer-allocator hook: every ring and doorbell page in EAL memory. */
static void *
mlx4v_rdma_buf_alloc(size_t size, void *priv)
{
	struct mlx4v_rdma_ctx *rc = priv;

	/*
	 * Aligned to the host page and zeroed as libmlx4's own allocator; libmlx4 zeroes again
	 * anyway (prm/mlx4 §5.4), but on the queue's socket, in hugepage EAL memory as net/mlx4
	 * arranges. The host page, not 4 KiB: the kernel maps a ring page by page from the start
	 * of its first page (doc/guides/nics/mlx4v.rst, memory).
	 */
	return rte_zmalloc_socket("mlx4v_rdma", size, mlx4v_host_page_size(), rc->socket);
}

static void
mlx4v_rdma_buf_free(void *ptr, void *priv)
{
	RTE_SET_USED(priv);
	rte_free(ptr);
}

/*
 * CAP_NET_RAW in the effective set, as uverbs checks it before a raw-packet QP or a rule. A
 * capget() failure answers yes: the kernel then decides, with its own EPERM.
 */
static int
mlx4v_rdma_net_raw(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, data) != 0)
		return 1;
	return !!(data[CAP_NET_RAW / 32].effective & (1u << (CAP_NET_RAW % 32)));
}

/*
 * The kernel netdev of a port (mlx4_en): it owns the port's MAC, MTU and admin state on a
 * bifurcated ConnectX-3. @return 0 or -ENODEV (logged).
 */
static int
mlx4v_rdma_ifname(struct mlx4v_ctx *ctx, uint8_t port, char *ifname, size_t size)
{
	struct ibv_device *dev = mlx4v_rdma_of(ctx)->ib->device;
	int ret;

	ret = mlx4v_netdev_ifname(dev->ibdev_path, port, ifname, size);
	if (ret != 0) {
		MLX4V_LOG(ERR, "%s port %u: no kernel netdev under %s/device/net (mlx4_en "
			  "loaded?): %s", ctx->name, port, dev->ibdev_path, strerror(-ret));
		return -ENODEV;
	}
	return 0;
}

/* One setting of the port's netdev: its MTU (mtu_set), else IFF_UP as val says. */
static int
mlx4v_rdma_netdev_set(struct mlx4v_ctx *ctx, uint8_t port, int mtu_set, int val)
{
	const char *path = mlx4v_rdma_of(ctx)->ib->device->ibdev_path;
	char ifname[IF_NAMESIZE];
	int ret;

	ret = mlx4v_rdma_ifname(ctx, port, ifname, sizeof(ifname));
	if (ret != 0)
		return ret;
	return mtu_set ? mlx4v_netdev_mtu_set(path, ifname, (uint16_t)val) :
		mlx4v_netdev_up_set(path, ifname, val);
}

/* Without the verbs lock (as port_admin is called): IFF_UP of the port's netdev. */
static int
mlx4v_rdma_port_admin(struct mlx4v_ctx *ctx, uint8_t port, int up)
{
	return mlx4v_rdma_netdev_set(ctx, port, 0, up);
}

static int
mlx4v_rdma_port_mtu_set(struct mlx4v_ctx *ctx, uint8_t port, uint16_t mtu)
{
	return mlx4v_rdma_netdev_set(ctx, port, 1, mtu);
}

/* Verbs lock held. ibv_query_port() refuses a port beyond the device's with EINVAL. */
static int
mlx4v_rdma_port_query(struct mlx4v_ctx *ctx, uint8_t port, struct rte_pmd_mlx4v_port_attr *attr)
{
	struct mlx4v_rdma_ctx *rc = mlx4v_rdma_of(ctx);
	char ifname[IF_NAMESIZE];
	struct ibv_port_attr pa;
	uint32_t lane = 0, lanes = 0, speed;
	int ret;

	memset(&pa, 0, sizeof(pa));
	ret = ibv_query_port(rc->ib, port, &pa);
	if (ret)
		return -ret;
	memset(attr, 0, sizeof(*attr));
	attr->link_layer = pa.link_layer;
	attr->state = pa.state;
	attr->flow_steering = rc->dmfs;
	attr->net_raw = mlx4v_rdma_net_raw();
	/* Speed from the IB speed and width codes. */
	switch (pa.active_speed) {
	case 1: lane = 2500; break;
	case 2: lane = 5000; break;
	case 4: case 8: lane = 10000; break;
	case 16: lane = 14000; break;
	case 32: lane = 25000; break;
	default: break;
	}
	switch (pa.active_width) {
	case 1: lanes = 1; break;
	case 2: lanes = 4; break;
	case 4: lanes = 8; break;
	case 8: lanes = 12; break;
	default: break;
	}
	attr->speed_mbps = pa.state == IBV_PORT_ACTIVE ? lane * lanes : 0;
	/*
	 * The MAC is the kernel netdev's (its sysfs address, else SIOCGIFHWADDR): a VF may steer
	 * to no other. Quietly without one: queried often, and the PMD then makes a MAC up
	 * (mlx4v.rst).
	 */
	if (attr->link_layer != IBV_LINK_LAYER_ETHERNET ||
	    mlx4v_netdev_ifname(rc->ib->device->ibdev_path, port, ifname, sizeof(ifname)) != 0)
		return 0;
	if (mlx4v_netdev_mac_get(rc->ib->device->ibdev_path, ifname, attr->mac) == 0)
		attr->has_mac = 1;
	/*
	 * mlx4_ib reports 1X QDR (10 Gb/s) for every Ethernet speed but 40 and 56 GbE: the
	 * netdev's ethtool speed, as DPDK's mlx4 reads it, where it has one.
	 */
	if (attr->speed_mbps != 0 && mlx4v_netdev_speed_get(ifname, &speed) == 0 && speed != 0)
		attr->speed_mbps = speed;
	return 0;
}

/* Match by ibverbs device name, as given to mlx4v_verbs_rdma_register(). */
static struct ibv_device *
mlx4v_rdma_find(struct ibv_device **list, int n, const char *ibdev)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(ibv_get_device_name(list[i]), ibdev) == 0)
			return list[i];
	return NULL;
}

/* The CQE size is decided by the kernel per context: read it off a scratch CQ. */
static int
mlx4v_rdma_probe_cqe_size(struct mlx4v_rdma_ctx *rc)
{
	struct mlx4dv_obj obj;
	struct mlx4dv_cq dv;
	struct ibv_cq *cq;
	int ret;

	cq = ibv_create_cq(rc->ib, 1, NULL, NULL, 0);
	if (cq == NULL)
		return -errno;
	memset(&obj, 0, sizeof(obj));
	memset(&dv, 0, sizeof(dv));
	obj.cq.in = cq;
	obj.cq.out = &dv;
	/*
	 * Marks this scratch CQ DV-owned (prm/mlx4 §1.4); harmless, it has no QP and dies below.
	 */
	ret = mlx4dv_init_obj(&obj, MLX4DV_OBJ_CQ);
	if (ret == 0)
		rc->cqe_size = dv.cqe_size;
	ibv_destroy_cq(cq);
	return -ret;
}

/*
 * EAL interrupt thread: drain the context's asynchronous events (ibv_get_async_event(), the fd
 * is non-blocking). Each is reported through the class layer once acked: ibv_destroy_cq() waits
 * for that ack, so the CQ is valid until then, and a report takes locks that a destroy may hold
 * (doc/guides/nics/mlx4v.rst, CQ overrun and Interrupts). A CQ error (overrun) marks the CQ; a
 * port that became active or went down is a PORT event; a catastrophic device error (the kernel
 * reports it once, and every later verbs call fails) is the device's end, DEAD.
 */
static void
mlx4v_rdma_async_cb(void *arg)
{
	struct mlx4v_rdma_ctx *rc = arg;
	struct mlx4v_class_event cev;
	struct mlx4v_rdma_cq *c;
	struct ibv_async_event ev;
	uint32_t cqn;
	int report;

	while (ibv_get_async_event(rc->ib, &ev) == 0) {
		memset(&cev, 0, sizeof(cev));
		cqn = 0;
		report = 1;
		switch (ev.event_type) {
		case IBV_EVENT_CQ_ERR:
			c = ev.element.cq->cq_context;
			cqn = c != NULL ? __atomic_load_n(&c->cqn, __ATOMIC_ACQUIRE) : 0;
			cev.type = MLX4V_CLASS_EVENT_CQ_ERR;
			break;
		case IBV_EVENT_PORT_ACTIVE:
		case IBV_EVENT_PORT_ERR:
			cev.type = MLX4V_CLASS_EVENT_PORT;
			cev.port = ev.element.port_num;
			cev.up = ev.event_type == IBV_EVENT_PORT_ACTIVE;
			break;
		case IBV_EVENT_DEVICE_FATAL:
			/* Every context of the device hears it: the core takes the first. */
			cev.type = MLX4V_CLASS_EVENT_DEAD;
			cev.life = rc->life;
			cev.has_life = 1;
			MLX4V_LOG(ERR, "%s: catastrophic device error: the device is dead",
				  rc->name);
			break;
		default:
			report = 0;
			MLX4V_LOG(DEBUG, "%s: async event %s", rc->name,
				  ibv_event_type_str(ev.event_type));
			break;
		}
		ibv_ack_async_event(&ev);
		if (!report)
			continue;
		if (cev.type == MLX4V_CLASS_EVENT_CQ_ERR)
			mlx4v_class_dev_cq_error(rc->name, cqn);
		else
			mlx4v_class_dev_event(rc->name, &cev);
	}
}

/* Read the context's asynchronous events from the EAL interrupt thread. @return 0 or -errno. */
static int
mlx4v_rdma_async_start(struct mlx4v_rdma_ctx *rc)
{
	int flags, ret;

	flags = fcntl(rc->ib->async_fd, F_GETFL);
	if (flags < 0 || fcntl(rc->ib->async_fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -errno;
	rc->async = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (rc->async == NULL)
		return -ENOMEM;
	if (rte_intr_fd_set(rc->async, rc->ib->async_fd) != 0 ||
	    rte_intr_type_set(rc->async, RTE_INTR_HANDLE_EXT) != 0) {
		ret = -rte_errno;
		goto err_free;
	}
	ret = rte_intr_callback_register(rc->async, mlx4v_rdma_async_cb, rc);
	if (ret)
		goto err_free;
	return 0;

err_free:
	rte_intr_instance_free(rc->async);
	rc->async = NULL;
	return ret;
}

/* Mirrors mlx4v_rdma_async_start(); waits for a running callback to return. */
static void
mlx4v_rdma_async_stop(struct mlx4v_rdma_ctx *rc)
{
	if (rc->async == NULL)
		return;
	mlxv_intr_callback_unregister_wait(rc->async, mlx4v_rdma_async_cb, rc);
	rte_intr_instance_free(rc->async);
	rc->async = NULL;
}

/*
 * Verbs lock held (recovery=reset, the EAL interrupt thread). After IBV_EVENT_DEVICE_FATAL the
 * kernel's mlx4_core resets the device on its own and registers it again: the device is back
 * once it opens by name and answers a query. The contexts of the old life stay disassociated
 * (their calls fail, their destroys succeed); the classes close them.
 * @return 0, or -errno while the device is not back.
 */
static int
mlx4v_rdma_dev_reset(void *dev_priv)
{
	struct mlx4v_rdma_dev *d = dev_priv;
	struct ibv_context *ib = NULL;
	struct ibv_device_attr da;
	struct ibv_device **list, *dev;
	int n = 0, ret;

	list = ibv_get_device_list(&n);
	if (list == NULL)
		return -ENODEV;
	dev = mlx4v_rdma_find(list, n, d->ibdev);
	if (dev != NULL)
		ib = ibv_open_device(dev);
	ibv_free_device_list(list);
	if (ib == NULL)
		return -ENODEV;
	ret = -ibv_query_device(ib, &da);
	ibv_close_device(ib);
	return ret;
}

/* Verbs lock held (called through mlx4v_dev_open()). */
static int
mlx4v_rdma_ctx_open(struct mlx4v_ctx *ctx, void *dev_priv)
{
	struct mlx4v_rdma_dev *d = dev_priv;
	struct mlx4dv_ctx_allocators alloc;
	struct ibv_device_attr da;
	struct ibv_device **list, *dev;
	struct mlx4v_rdma_ctx *rc;
	int n = 0, ret;

	rc = calloc(1, sizeof(*rc));
	if (rc == NULL)
		return -ENOMEM;
	rc->socket = ctx->socket;
	list = ibv_get_device_list(&n);
	if (list == NULL) {
		ret = -ENODEV;
		goto err_free;
	}
	dev = mlx4v_rdma_find(list, n, d->ibdev);
	if (dev != NULL)
		rc->ib = ibv_open_device(dev);
	ret = rc->ib == NULL ? -ENODEV : 0;
	ibv_free_device_list(list);
	if (ret) {
		MLX4V_LOG(ERR, "cannot open ibverbs device %s", d->ibdev);
		goto err_free;
	}
	/* Before any object exists, so that every ring comes from EAL memory. */
	alloc.alloc = mlx4v_rdma_buf_alloc;
	alloc.free = mlx4v_rdma_buf_free;
	alloc.data = rc;
	/* mlx4dv_* return positive errno (prm/mlx4 §1.2); the seam uses -errno. */
	ret = -mlx4dv_set_context_attr(rc->ib, MLX4DV_SET_CTX_ATTR_BUF_ALLOCATORS, &alloc);
	if (ret)
		goto err_close;
	ret = mlx4v_rdma_probe_cqe_size(rc);
	if (ret)
		goto err_close;
	/* The caps libmlx4 checks sizes against (it queries them at context init too). */
	ret = -ibv_query_device(rc->ib, &da);
	if (ret)
		goto err_close;
	ctx->caps.max_qp_wr = da.max_qp_wr;
	ctx->caps.max_sge = da.max_sge;
	ctx->caps.max_cqe = da.max_cqe;
	ctx->caps.max_srq_wr = da.max_srq_wr;
	ctx->caps.max_srq_sge = da.max_srq_sge;
	ctx->caps.cqe_size = rc->cqe_size;
	ctx->caps.nports = da.phys_port_cnt;
	snprintf(ctx->caps.fw_ver, sizeof(ctx->caps.fw_ver), "%s", da.fw_ver);
	/* mlx4_ib reports the PCI device id as vendor_part_id; DPDK's mlx4 tests the same id. */
	ctx->caps.vf = da.vendor_part_id == MLX4V_PCI_DEVICE_CONNECTX3_VF;
	/* mlx4_ib sets it, and offers ibv_create_flow, only in device-managed steering mode. */
	rc->dmfs = !!(da.device_cap_flags & IBV_DEVICE_MANAGED_FLOW_STEERING);
	strlcpy(rc->name, ctx->name, sizeof(rc->name));
	rc->life = ctx->life;
	ret = mlx4v_rdma_async_start(rc);
	if (ret)
		goto err_close;
	ctx->be = rc;
	return 0;

err_close:
	ibv_close_device(rc->ib);
err_free:
	free(rc);
	return ret;
}

static void
mlx4v_rdma_ctx_close(struct mlx4v_ctx *ctx)
{
	struct mlx4v_rdma_ctx *rc = mlx4v_rdma_of(ctx);

	mlx4v_rdma_async_stop(rc);
	ibv_close_device(rc->ib);
	free(rc);
	ctx->be = NULL;
}

static int
mlx4v_rdma_pd_create(struct mlx4v_pd *pd)
{
	struct ibv_pd *ipd;

	errno = 0;
	ipd = ibv_alloc_pd(mlx4v_rdma_of(pd->obj.ctx)->ib);
	if (ipd == NULL)
		/* libibverbs does not always set errno on failure; never report success as 0. */
		return errno ? -errno : -ENOMEM;
	pd->be = ipd;
	return 0;
}

static int
mlx4v_rdma_pd_destroy(struct mlx4v_pd *pd)
{
	return -ibv_dealloc_pd(pd->be);
}

static int
mlx4v_rdma_mr_create(struct mlx4v_mr *mr)
{
	struct ibv_mr *imr;

	errno = 0;
	imr = ibv_reg_mr(mr->pd->be, mr->addr, mr->len, IBV_ACCESS_LOCAL_WRITE);
	if (imr == NULL)
		return errno ? -errno : -ENOMEM;
	mr->lkey = imr->lkey;
	mr->be = imr;
	return 0;
}

static int
mlx4v_rdma_mr_destroy(struct mlx4v_mr *mr)
{
	return -ibv_dereg_mr(mr->be);
}

static int
mlx4v_rdma_cq_create(struct mlx4v_cq *cq)
{
	struct mlx4v_rdma_ctx *rc = mlx4v_rdma_of(cq->obj.ctx);
	struct mlx4v_rdma_cq *c;
	int ret, flags;

	/*
	 * The kernel fixes the CQE size per context (MLX4_USER_DEV_CAP_LARGE_CQE, prm/mlx4 §2.2);
	 * a request for the other size cannot be honoured, so say so instead of returning a
	 * surprise.
	 */
	if (cq->cqe_size != 0 && cq->cqe_size != rc->cqe_size) {
		MLX4V_LOG(ERR, "this device gives %d-byte CQEs, not %d", rc->cqe_size,
			  cq->cqe_size);
		return -ENOTSUP;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	if (cq->with_events) {
		c->chan = ibv_create_comp_channel(rc->ib);
		if (c->chan == NULL) {
			ret = errno ? -errno : -ENOMEM;
			goto err_free;
		}
		/*
		 * rte_pmd_mlx4v_get_cq_event() never blocks. DPDK polls the fd from the EAL
		 * interrupt thread and expects EAGAIN, not a sleep (prm/mlx4 §5.3).
		 */
		flags = fcntl(c->chan->fd, F_GETFL);
		if (flags < 0 || fcntl(c->chan->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
			ret = -errno;
			goto err_destroy_chan;
		}
	}
	errno = 0;
	/* The context identifies the CQ in asynchronous events (mlx4v_rdma_async_cb()). */
	c->cq = ibv_create_cq(rc->ib, cq->cqe_req, c, c->chan, 0);
	if (c->cq == NULL) {
		ret = errno ? -errno : -ENOMEM;
		goto err_destroy_chan;
	}
	/* What is known without a view; the rest comes with mlx4dv_init_obj(). */
	cq->cqe_cnt = c->cq->cqe + 1;
	cq->cqe_size = rc->cqe_size;
	/* libmlx4's starting value (prm/mlx4 §2.2); the view refreshes it. */
	cq->arm_sn = 1;
	cq->event_fd = c->chan != NULL ? c->chan->fd : -1;
	cq->be = c;
	return 0;

err_destroy_chan:
	if (c->chan != NULL)
		ibv_destroy_comp_channel(c->chan);
err_free:
	free(c);
	return ret;
}

static int
mlx4v_rdma_cq_destroy(struct mlx4v_cq *cq)
{
	struct mlx4v_rdma_cq *c = cq->be;
	int ret;

	ret = ibv_destroy_cq(c->cq);
	if (ret)
		return -ret;
	if (c->chan != NULL)
		ibv_destroy_comp_channel(c->chan);
	free(c);
	cq->be = NULL;
	return 0;
}

static int
mlx4v_rdma_cq_get_event(struct mlx4v_cq *cq)
{
	struct mlx4v_rdma_cq *c = cq->be;
	struct ibv_cq *ev_cq;
	void *ev_ctx;

	/*
	 * libmlx4 bumps its own arm_sn inside (mlx4_cq_event()). The channel is per CQ, so ev_cq
	 * can only be this CQ; nothing to check.
	 */
	if (ibv_get_cq_event(c->chan, &ev_cq, &ev_ctx) != 0)
		return errno == EAGAIN ? -EAGAIN : -errno;
	return 0;
}

static void
mlx4v_rdma_cq_ack_events(struct mlx4v_cq *cq, unsigned int n)
{
	struct mlx4v_rdma_cq *c = cq->be;

	ibv_ack_cq_events(c->cq, n);
}

static int
mlx4v_rdma_srq_create(struct mlx4v_srq *srq)
{
	struct ibv_srq_init_attr attr;
	struct mlx4dv_obj obj;
	struct mlx4dv_srq dv;
	struct ibv_srq *isrq;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.attr.max_wr = srq->max_wr_req;
	attr.attr.max_sge = srq->max_gs;
	errno = 0;
	isrq = ibv_create_srq(srq->pd->be, &attr);
	if (isrq == NULL)
		return errno ? -errno : -EINVAL;
	/* The SRQ getter has no side effect: cache the geometry now. */
	memset(&obj, 0, sizeof(obj));
	memset(&dv, 0, sizeof(dv));
	obj.srq.in = isrq;
	obj.srq.out = &dv;
	ret = mlx4dv_init_obj(&obj, MLX4DV_OBJ_SRQ);
	if (ret) {
		ibv_destroy_srq(isrq);
		return -ret;
	}
	srq->buf = dv.buf.buf;
	srq->buf_len = dv.buf.length;
	srq->wqe_shift = dv.wqe_shift;
	srq->head = dv.head;
	srq->tail = dv.tail;
	srq->db = dv.db;
	/* libmlx4 starts with tail = max - 1 (prm/mlx4 §3, SRQ), and no WQE was posted yet. */
	srq->max = dv.tail + 1;
	srq->be = isrq;
	return 0;
}

static int
mlx4v_rdma_srq_destroy(struct mlx4v_srq *srq)
{
	return -ibv_destroy_srq(srq->be);
}

static int
mlx4v_rdma_qp_create(struct mlx4v_qp *qp)
{
	struct ibv_qp_init_attr attr;
	struct mlx4dv_obj obj;
	struct mlx4dv_qp dv;
	struct ibv_qp *iqp;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.send_cq = ((struct mlx4v_rdma_cq *)qp->send_cq->be)->cq;
	attr.recv_cq = ((struct mlx4v_rdma_cq *)qp->recv_cq->be)->cq;
	attr.srq = qp->srq != NULL ? qp->srq->be : NULL;
	attr.cap.max_send_wr = qp->attr.max_send_wr;
	attr.cap.max_recv_wr = qp->attr.max_recv_wr;
	attr.cap.max_send_sge = qp->attr.max_send_sge;
	attr.cap.max_recv_sge = qp->attr.max_recv_sge;
	attr.cap.max_inline_data = qp->attr.max_inline_data;
	attr.qp_type = IBV_QPT_RAW_PACKET;
	errno = 0;
	iqp = ibv_create_qp(qp->pd->be, &attr);
	if (iqp == NULL)
		return errno ? -errno : -EINVAL;
	/* The QP getter has no side effect: cache the geometry now. */
	memset(&obj, 0, sizeof(obj));
	memset(&dv, 0, sizeof(dv));
	/*
	 * comp_mask is an input: without this bit uar_mmap_offset stays unwritten (prm/mlx4 §1.3).
	 */
	dv.comp_mask = MLX4DV_QP_MASK_UAR_MMAP_OFFSET;
	obj.qp.in = iqp;
	obj.qp.out = &dv;
	ret = mlx4dv_init_obj(&obj, MLX4DV_OBJ_QP);
	if (ret) {
		ibv_destroy_qp(iqp);
		return -ret;
	}
	qp->qpn = iqp->qp_num;
	qp->rdb = dv.rdb;
	qp->sdb = dv.sdb;
	qp->doorbell_qpn = dv.doorbell_qpn;
	qp->sq.wqe_cnt = dv.sq.wqe_cnt;
	qp->sq.wqe_shift = dv.sq.wqe_shift;
	qp->sq.offset = dv.sq.offset;
	qp->rq.wqe_cnt = dv.rq.wqe_cnt;
	qp->rq.wqe_shift = dv.rq.wqe_shift;
	qp->rq.offset = dv.rq.offset;
	qp->buf = dv.buf.buf;
	qp->buf_len = dv.buf.length;
	qp->uar_mmap_offset = (dv.comp_mask & MLX4DV_QP_MASK_UAR_MMAP_OFFSET) ?
		/*
		 * -1 as DPDK does when the bit is missing: a secondary's mmap then fails loudly
		 * (prm/mlx4 §5.2).
		 */
		dv.uar_mmap_offset : -1;
	qp->attr.max_send_wr = attr.cap.max_send_wr;
	qp->attr.max_recv_wr = attr.cap.max_recv_wr;
	qp->attr.max_send_sge = attr.cap.max_send_sge;
	qp->attr.max_recv_sge = attr.cap.max_recv_sge;
	qp->attr.max_inline_data = attr.cap.max_inline_data;
	qp->be = iqp;
	return 0;
}

static int
mlx4v_rdma_qp_modify(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state)
{
	static const enum ibv_qp_state ib_state[] = {
		[RTE_PMD_MLX4V_QPS_RESET] = IBV_QPS_RESET,
		[RTE_PMD_MLX4V_QPS_INIT] = IBV_QPS_INIT,
		[RTE_PMD_MLX4V_QPS_RTR] = IBV_QPS_RTR,
		[RTE_PMD_MLX4V_QPS_RTS] = IBV_QPS_RTS,
		[RTE_PMD_MLX4V_QPS_ERR] = IBV_QPS_ERR,
	};
	struct ibv_qp_attr attr;
	int mask = IBV_QP_STATE;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = ib_state[state];
	/*
	 * The kernel takes the port on RESET->INIT only (ib_modify_qp_is_ok()); qp->state is
	 * still the current state here.
	 */
	if (qp->state == RTE_PMD_MLX4V_QPS_RESET && state == RTE_PMD_MLX4V_QPS_INIT) {
		attr.port_num = qp->attr.port;
		mask |= IBV_QP_PORT;
	}
	return -ibv_modify_qp(qp->be, &attr, mask);
}

static int
mlx4v_rdma_qp_destroy(struct mlx4v_qp *qp)
{
	return -ibv_destroy_qp(qp->be);
}

static int
mlx4v_rdma_wq_create(struct mlx4v_wq *wq)
{
	struct ibv_wq_init_attr attr;
	struct mlx4dv_obj obj;
	struct mlx4dv_rwq dv;
	struct ibv_wq *iwq;
	int ret;

	memset(&attr, 0, sizeof(attr));
	/* The only WQ type libmlx4 supports; others are ENOTSUP (prm/mlx4 §3). */
	attr.wq_type = IBV_WQT_RQ;
	attr.max_wr = wq->attr.max_wr;
	attr.max_sge = wq->attr.max_sge;
	attr.pd = wq->pd->be;
	attr.cq = ((struct mlx4v_rdma_cq *)wq->cq->be)->cq;
	errno = 0;
	iwq = ibv_create_wq(mlx4v_rdma_of(wq->obj.ctx)->ib, &attr);
	if (iwq == NULL)
		return errno ? -errno : -EINVAL;
	/* The RWQ getter has no side effect: cache the geometry now. */
	memset(&obj, 0, sizeof(obj));
	memset(&dv, 0, sizeof(dv));
	obj.rwq.in = iwq;
	obj.rwq.out = &dv;
	ret = mlx4dv_init_obj(&obj, MLX4DV_OBJ_RWQ);
	if (ret) {
		ibv_destroy_wq(iwq);
		return -ret;
	}
	wq->wqn = iwq->wq_num;
	wq->rdb = dv.rdb;
	wq->rq.wqe_cnt = dv.rq.wqe_cnt;
	wq->rq.wqe_shift = dv.rq.wqe_shift;
	wq->rq.offset = dv.rq.offset;
	wq->buf = dv.buf.buf;
	wq->buf_len = dv.buf.length;
	wq->attr.max_wr = attr.max_wr;
	wq->attr.max_sge = attr.max_sge;
	wq->be = iwq;
	return 0;
}

static int
mlx4v_rdma_wq_modify(struct mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state)
{
	struct ibv_wq_attr attr;

	static const enum ibv_wq_state ib_state[] = {
		[RTE_PMD_MLX4V_WQS_RESET] = IBV_WQS_RESET,
		[RTE_PMD_MLX4V_WQS_RDY] = IBV_WQS_RDY,
		[RTE_PMD_MLX4V_WQS_ERR] = IBV_WQS_ERR,
	};

	memset(&attr, 0, sizeof(attr));
	/*
	 * The current state too, as DPDK's mlx4 passes it: mlx4_ib_modify_wq() otherwise takes
	 * its own record, which an ERR reported by the device may have left behind.
	 */
	attr.attr_mask = IBV_WQ_ATTR_STATE | IBV_WQ_ATTR_CURR_STATE;
	attr.curr_wq_state = ib_state[wq->state];
	attr.wq_state = ib_state[state];
	return -ibv_modify_wq(wq->be, &attr);
}

static int
mlx4v_rdma_wq_destroy(struct mlx4v_wq *wq)
{
	return -ibv_destroy_wq(wq->be);
}

static int
mlx4v_rdma_wqs_range_set(struct mlx4v_ctx *ctx, uint8_t log_range)
{
	/* Read by libmlx4 at every WQ create; DPDK sets it before the first (prm/mlx4 §5.4). */
	return -mlx4dv_set_context_attr(mlx4v_rdma_of(ctx)->ib,
					MLX4DV_SET_CTX_ATTR_LOG_WQS_RANGE_SZ, &log_range);
}

static int
mlx4v_rdma_ind_create(struct mlx4v_ind *ind)
{
	struct ibv_rwq_ind_table_init_attr attr;
	struct ibv_wq *wqs[1u << 8];
	struct ibv_rwq_ind_table *t;
	uint32_t i;

	if (ind->log_size > 8)
		return -EINVAL;
	for (i = 0; i < (1u << ind->log_size); i++)
		wqs[i] = ind->wqs[i]->be;
	memset(&attr, 0, sizeof(attr));
	attr.log_ind_tbl_size = ind->log_size;
	attr.ind_tbl = wqs;
	errno = 0;
	t = ibv_create_rwq_ind_table(mlx4v_rdma_of(ind->obj.ctx)->ib, &attr);
	if (t == NULL)
		return errno ? -errno : -EINVAL;
	ind->be = t;
	return 0;
}

static int
mlx4v_rdma_ind_destroy(struct mlx4v_ind *ind)
{
	return -ibv_destroy_rwq_ind_table(ind->be);
}

/* The RSS QP of DPDK's mlx4_rss_attach(): RX_HASH with Toeplitz over the table. */
static int
mlx4v_rdma_rss_qp_create(struct mlx4v_qp *qp)
{
	struct ibv_qp_init_attr_ex attr;
	struct ibv_qp *iqp;

	memset(&attr, 0, sizeof(attr));
	attr.qp_type = IBV_QPT_RAW_PACKET;
	attr.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_RX_HASH |
		IBV_QP_INIT_ATTR_IND_TABLE;
	attr.pd = qp->pd->be;
	attr.rwq_ind_tbl = qp->ind->be;
	attr.rx_hash_conf.rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ;
	attr.rx_hash_conf.rx_hash_key_len = RTE_PMD_MLX4V_RSS_KEY_LEN;
	attr.rx_hash_conf.rx_hash_key = qp->rss_key;
	/* RTE_PMD_MLX4V_RX_HASH_* have the values of enum ibv_rx_hash_fields. */
	attr.rx_hash_conf.rx_hash_fields_mask = qp->rss.hash_fields;
	errno = 0;
	iqp = ibv_create_qp_ex(mlx4v_rdma_of(qp->obj.ctx)->ib, &attr);
	if (iqp == NULL)
		return errno ? -errno : -EINVAL;
	qp->qpn = iqp->qp_num;
	qp->be = iqp;
	return 0;
}

/*
 * The rule as mlx4v_flow_create() encoded it: NORMAL with a full-mask Ethernet spec, then an
 * IPv4 spec and a TCP or UDP spec when it has them, or a default rule (ALL_DEFAULT, MC_DEFAULT)
 * without a spec, as DPDK's mlx4_flow builds them. The specs follow the attribute back to back.
 */
static int
mlx4v_rdma_flow_create(struct mlx4v_flow *flow)
{
	struct {
		struct ibv_flow_attr attr;
		struct ibv_flow_spec_eth eth;
		struct ibv_flow_spec_ipv4 ipv4;
		struct ibv_flow_spec_tcp_udp l4;
	} rule;
	static const enum ibv_flow_attr_type ib_type[] = {
		[MLX4V_FLOW_RULE_NORMAL] = IBV_FLOW_ATTR_NORMAL,
		[MLX4V_FLOW_RULE_ALL_DEFAULT] = IBV_FLOW_ATTR_ALL_DEFAULT,
		[MLX4V_FLOW_RULE_MC_DEFAULT] = IBV_FLOW_ATTR_MC_DEFAULT,
	};
	const struct mlx4v_flow_rule *r = &flow->rule;
	struct ibv_flow *f;

	/* The specs must follow the attribute and each other directly, as the kernel reads them. */
	RTE_BUILD_BUG_ON(offsetof(__typeof__(rule), eth) != sizeof(struct ibv_flow_attr));
	RTE_BUILD_BUG_ON(offsetof(__typeof__(rule), ipv4) !=
			 offsetof(__typeof__(rule), eth) + sizeof(struct ibv_flow_spec_eth));
	RTE_BUILD_BUG_ON(offsetof(__typeof__(rule), l4) !=
			 offsetof(__typeof__(rule), ipv4) + sizeof(struct ibv_flow_spec_ipv4));

	if (r->type >= RTE_DIM(ib_type) || r->num_specs > 3)
		return -EINVAL;
	memset(&rule, 0, sizeof(rule));
	rule.attr.type = ib_type[r->type];
	rule.attr.num_of_specs = r->num_specs;
	rule.attr.size = sizeof(rule.attr);
	rule.attr.priority = r->priority;
	rule.attr.port = flow->attr.port;
	if (r->num_specs >= 1) {
		rule.eth.type = IBV_FLOW_SPEC_ETH;
		rule.eth.size = sizeof(rule.eth);
		memcpy(rule.eth.val.dst_mac, r->dmac, sizeof(rule.eth.val.dst_mac));
		memcpy(rule.eth.mask.dst_mac, r->dmac_mask, sizeof(rule.eth.mask.dst_mac));
		rule.eth.val.vlan_tag = r->vlan_tag;
		rule.eth.mask.vlan_tag = r->vlan_tag_mask;
		rule.attr.size += sizeof(rule.eth);
	}
	if (r->num_specs >= 2) {
		rule.ipv4 = (struct ibv_flow_spec_ipv4){
			.type = IBV_FLOW_SPEC_IPV4, .size = sizeof(rule.ipv4),
			.val = { .src_ip = r->src_ip, .dst_ip = r->dst_ip },
			.mask = { .src_ip = r->src_ip_mask, .dst_ip = r->dst_ip_mask },
		};
		rule.attr.size += sizeof(rule.ipv4);
	}
	if (r->num_specs == 3) {
		rule.l4.type = r->l4 == MLX4V_FLOW_L4_TCP ? IBV_FLOW_SPEC_TCP : IBV_FLOW_SPEC_UDP;
		rule.l4.size = sizeof(rule.l4);
		rule.l4.val.src_port = r->src_port;
		rule.l4.mask.src_port = r->src_port_mask;
		rule.l4.val.dst_port = r->dst_port;
		rule.l4.mask.dst_port = r->dst_port_mask;
		rule.attr.size += sizeof(rule.l4);
	}
	errno = 0;
	f = ibv_create_flow(flow->qp->be, &rule.attr);
	if (f == NULL) {
		/*
		 * Flows need device-managed steering (mlx4_core log_num_mgm_entry_size -1) and
		 * CAP_NET_RAW (doc/guides/nics/running_on_hardware.rst).
		 */
		MLX4V_LOG(ERR, "ibv_create_flow on port %u: %s (needs device-managed flow "
			  "steering and CAP_NET_RAW)", flow->attr.port, strerror(errno));
		return errno ? -errno : -EINVAL;
	}
	flow->be = f;
	return 0;
}

static int
mlx4v_rdma_flow_destroy(struct mlx4v_flow *flow)
{
	return -ibv_destroy_flow(flow->be);
}

/*
 * The views are rdma-core's own: mlx4dv_init_obj() one type at a time, so that the common
 * layer keeps its validate-then-fill order and error semantics (prm/mlx4 §1.1, §1.2).
 */
static int
mlx4v_rdma_qp_view(struct mlx4v_qp *qp, struct mlx4dv_qp *out)
{
	struct mlx4dv_obj obj;

	memset(&obj, 0, sizeof(obj));
	obj.qp.in = qp->be;
	obj.qp.out = out;
	return -mlx4dv_init_obj(&obj, MLX4DV_OBJ_QP);
}

static int
mlx4v_rdma_cq_view(struct mlx4v_cq *cq, struct mlx4dv_cq *out)
{
	struct mlx4dv_obj obj;
	int ret;

	memset(&obj, 0, sizeof(obj));
	obj.cq.in = ((struct mlx4v_rdma_cq *)cq->be)->cq;
	obj.cq.out = out;
	/* This also sets libmlx4's DV-owned flag, as the contract requires. */
	ret = mlx4dv_init_obj(&obj, MLX4DV_OBJ_CQ);
	if (ret)
		return -ret;
	cq->buf = out->buf.buf;
	cq->buf_len = out->buf.length;
	cq->cqn = out->cqn;
	__atomic_store_n(&((struct mlx4v_rdma_cq *)cq->be)->cqn, out->cqn, __ATOMIC_RELEASE);
	/*
	 * Kept so that forced release and diagnostics see the same record the DV consumer writes.
	 */
	cq->set_ci_db = out->set_ci_db;
	cq->arm_db = out->arm_db;
	cq->arm_sn = out->arm_sn;
	/* cq_uar is valid only when the output bit says so (prm/mlx4 §1.3). */
	if (out->comp_mask & MLX4DV_CQ_MASK_UAR)
		cq->uar = out->cq_uar;
	return 0;
}

static int
mlx4v_rdma_srq_view(struct mlx4v_srq *srq, struct mlx4dv_srq *out)
{
	struct mlx4dv_obj obj;

	memset(&obj, 0, sizeof(obj));
	obj.srq.in = srq->be;
	obj.srq.out = out;
	return -mlx4dv_init_obj(&obj, MLX4DV_OBJ_SRQ);
}

static int
mlx4v_rdma_rwq_view(struct mlx4v_wq *wq, struct mlx4dv_rwq *out)
{
	struct mlx4dv_obj obj;

	memset(&obj, 0, sizeof(obj));
	obj.rwq.in = wq->be;
	obj.rwq.out = out;
	return -mlx4dv_init_obj(&obj, MLX4DV_OBJ_RWQ);
}

/*
 * The UAR of a QP as another process maps it: the context's command fd, mmap()ed at the QP's
 * uar_mmap_offset, as DPDK's mlx4 secondaries do (prm/mlx4 §5.2). The context keeps the fd.
 */
static int
mlx4v_rdma_qp_sdb_fd(struct mlx4v_qp *qp)
{
	struct mlx4v_rdma_ctx *rc = mlx4v_rdma_of(qp->obj.ctx);

	if (rc == NULL || rc->ib == NULL || qp->uar_mmap_offset < 0)
		return -ENOTSUP;
	return rc->ib->cmd_fd;
}

/*
 * The CQ's arm doorbell as another process rings it: libmlx4's cq_uar is the context's UAR
 * page, which the kernel maps at offset 0 of the command fd (prm/mlx4 §2.1, §2.2). Its events
 * come on the completion channel, one struct ib_uverbs_comp_event_desc each.
 */
static int
mlx4v_rdma_cq_uar_fd(struct mlx4v_cq *cq, int64_t *off, int *desc)
{
	struct mlx4v_rdma_ctx *rc = mlx4v_rdma_of(cq->obj.ctx);

	if (rc == NULL || rc->ib == NULL || cq->uar == NULL)
		return -ENOTSUP;
	*off = 0;
	*desc = 1;
	return rc->ib->cmd_fd;
}

/* libmlx4 does every other step of a provider inside the verbs calls. */
const struct mlx4v_prov_ops mlx4v_rdma_prov = {
	.name = "libmlx4",
	.qp_view = mlx4v_rdma_qp_view,
	.cq_view = mlx4v_rdma_cq_view,
	.srq_view = mlx4v_rdma_srq_view,
	.rwq_view = mlx4v_rdma_rwq_view,
};

const struct mlx4v_verbs_ops mlx4v_rdma_verbs_ops = {
	.name = "rdma-core",
	.prov = &mlx4v_rdma_prov,
	.qp_sdb_fd = mlx4v_rdma_qp_sdb_fd,
	.cq_uar_fd = mlx4v_rdma_cq_uar_fd,
	.ctx_open = mlx4v_rdma_ctx_open,
	.ctx_close = mlx4v_rdma_ctx_close,
	.pd_create = mlx4v_rdma_pd_create,
	.pd_destroy = mlx4v_rdma_pd_destroy,
	.mr_create = mlx4v_rdma_mr_create,
	.mr_destroy = mlx4v_rdma_mr_destroy,
	.cq_create = mlx4v_rdma_cq_create,
	.cq_destroy = mlx4v_rdma_cq_destroy,
	.cq_get_event = mlx4v_rdma_cq_get_event,
	.cq_ack_events = mlx4v_rdma_cq_ack_events,
	.srq_create = mlx4v_rdma_srq_create,
	.srq_destroy = mlx4v_rdma_srq_destroy,
	.qp_create = mlx4v_rdma_qp_create,
	.qp_modify = mlx4v_rdma_qp_modify,
	.qp_destroy = mlx4v_rdma_qp_destroy,
	.wq_create = mlx4v_rdma_wq_create,
	.wq_modify = mlx4v_rdma_wq_modify,
	.wq_destroy = mlx4v_rdma_wq_destroy,
	.wqs_range_set = mlx4v_rdma_wqs_range_set,
	.ind_create = mlx4v_rdma_ind_create,
	.ind_destroy = mlx4v_rdma_ind_destroy,
	.rss_qp_create = mlx4v_rdma_rss_qp_create,
	.flow_create = mlx4v_rdma_flow_create,
	.flow_destroy = mlx4v_rdma_flow_destroy,
	.port_query = mlx4v_rdma_port_query,
	.port_admin = mlx4v_rdma_port_admin,
	.port_mtu_set = mlx4v_rdma_port_mtu_set,
	.dev_reset = mlx4v_rdma_dev_reset,
};

/*
 * EAL probe context. The device record is process-local, like the ibverbs handles behind it.
 * The class layer registers the device and probes its class drivers.
 */
static int
mlx4v_rdma_attach(const char *ibdev, const char *eal_name, int socket, struct rte_device *edev,
		  const char *classes)
{
	struct mlx4v_rdma_dev *d;
	unsigned int i;
	int ret;

	if (ibdev == NULL || eal_name == NULL || strlen(ibdev) >= IBV_SYSFS_NAME_MAX ||
	    strlen(eal_name) >= RTE_DEV_NAME_MAX_LEN)
		return -EINVAL;
	for (i = 0; i < MLX4V_RDMA_MAX_DEV; i++)
		if (mlx4v_rdma_devs[i] == NULL)
			break;
	if (i == MLX4V_RDMA_MAX_DEV)
		return -ENOSPC;
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return -ENOMEM;
	strlcpy(d->ibdev, ibdev, sizeof(d->ibdev));
	strlcpy(d->eal_name, eal_name, sizeof(d->eal_name));
	/* Published first: a class probe may already open the device. */
	mlx4v_rdma_devs[i] = d;
	ret = mlx4v_class_dev_probe(edev, eal_name, &mlx4v_rdma_verbs_ops, d, socket, classes);
	if (ret) {
		mlx4v_rdma_devs[i] = NULL;
		free(d);
		return ret;
	}
	return 0;
}

int
mlx4v_verbs_rdma_register(const char *ibdev, const char *eal_name, int socket)
{
	return mlx4v_rdma_attach(ibdev, eal_name, socket, NULL, NULL);
}

int
mlx4v_verbs_rdma_unregister(const char *eal_name)
{
	unsigned int i;
	int ret;

	if (eal_name == NULL)
		return -EINVAL;
	for (i = 0; i < MLX4V_RDMA_MAX_DEV; i++) {
		if (mlx4v_rdma_devs[i] == NULL ||
		    strcmp(mlx4v_rdma_devs[i]->eal_name, eal_name) != 0)
			continue;
		/*
		 * Force-releases what is still open on the device, through the
		 * ibverbs destroy calls, before the device record goes.
		 */
		ret = mlx4v_class_dev_remove(eal_name);
		free(mlx4v_rdma_devs[i]);
		mlx4v_rdma_devs[i] = NULL;
		return ret;
	}
	return -ENOENT;
}

/* The PCI address of an ibverbs device: the basename of <ibdev_path>/device. */
static int
mlx4v_rdma_pci_addr(struct ibv_device *dev, struct rte_pci_addr *addr)
{
	char path[PATH_MAX], real[PATH_MAX];
	const char *base;

	if (snprintf(path, sizeof(path), "%s/device", dev->ibdev_path) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (realpath(path, real) == NULL)
		return -errno;
	base = strrchr(real, '/');
	base = base != NULL ? base + 1 : real;
	return rte_pci_addr_parse(base, addr) == 0 ? 0 : -EINVAL;
}

/*
 * @return 1 when no ibverbs device sits at addr, so the PCI probe can pass the device on (EAL's
 * "not mine" convention); 0 or -errno otherwise.
 */
int
mlx4v_verbs_rdma_probe_pci(const struct rte_pci_addr *addr, const char *eal_name,
			   int socket, struct rte_device *edev, const char *classes)
{
	struct ibv_device **list;
	struct rte_pci_addr a;
	char ibdev[IBV_SYSFS_NAME_MAX] = "";
	int i, n = 0;

	list = ibv_get_device_list(&n);
	if (list == NULL)
		return 1;
	for (i = 0; i < n; i++) {
		if (mlx4v_rdma_pci_addr(list[i], &a) == 0 && rte_pci_addr_cmp(&a, addr) == 0) {
			strlcpy(ibdev, ibv_get_device_name(list[i]), sizeof(ibdev));
			break;
		}
	}
	ibv_free_device_list(list);
	if (ibdev[0] == '\0')
		return 1;
	return mlx4v_rdma_attach(ibdev, eal_name, socket, edev, classes);
}
