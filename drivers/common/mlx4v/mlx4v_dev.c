/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Device registry by EAL device name, and opening/closing handles on it. */

#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>

#include "mlx4v_dev_priv.h"
#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

RTE_LOG_REGISTER_DEFAULT(mlx4v_logtype, NOTICE);

#define MLX4V_MAX_DEV 32

/* Process-local: holds backend function pointers (contributing/style §2). */
static struct mlx4v_dev_entry mlx4v_devs[MLX4V_MAX_DEV];

/* Verbs lock held. A slot is free when ops is NULL. */
struct mlx4v_dev_entry *
mlx4v_dev_lookup(const char *name)
{
	unsigned int i;

	for (i = 0; i < MLX4V_MAX_DEV; i++)
		if (mlx4v_devs[i].ops != NULL && strcmp(mlx4v_devs[i].name, name) == 0)
			return &mlx4v_devs[i];
	return NULL;
}

int
mlx4v_dev_is_registered(const char *name)
{
	return name != NULL && mlx4v_dev_lookup(name) != NULL;
}

/* Called from a backend's probe, never from the data path; takes the verbs lock itself. */
int
mlx4v_dev_register(const char *name, const struct mlx4v_verbs_ops *ops, void *priv,
		   int socket)
{
	struct mlx4v_dev_entry *e = NULL;
	unsigned int i;
	int ret = 0;

	/* A backend names its provider (mlx4v_prov.h): the views come from it. */
	if (name == NULL || ops == NULL || ops->prov == NULL ||
	    strlen(name) >= RTE_DEV_NAME_MAX_LEN)
		return -EINVAL;
	mlx4v_verbs_lock();
	if (mlx4v_dev_lookup(name) != NULL) {
		ret = -EEXIST;
		goto out;
	}
	for (i = 0; i < MLX4V_MAX_DEV; i++) {
		if (mlx4v_devs[i].ops == NULL) {
			e = &mlx4v_devs[i];
			break;
		}
	}
	if (e == NULL) {
		ret = -ENOSPC;
		goto out;
	}
	strlcpy(e->name, name, sizeof(e->name));
	e->ops = ops;
	e->priv = priv;
	/*
	 * Rings follow this socket (prm/mlx4 §5.4); an unknown NUMA node must not become an
	 * invalid socket id in rte_zmalloc_socket().
	 */
	e->socket = socket < 0 ? SOCKET_ID_ANY : socket;
	e->nctx = 0;
	MLX4V_LOG(INFO, "device %s registered with the %s backend", name, ops->name);
out:
	mlx4v_verbs_unlock();
	return ret;
}

/* Forced release goes in dependency order: an object before anything it references. */
static const enum mlx4v_obj_type mlx4v_dev_release_order[] = {
	MLX4V_OBJ_FLOW, MLX4V_OBJ_QP, MLX4V_OBJ_IND, MLX4V_OBJ_WQ, MLX4V_OBJ_SRQ, MLX4V_OBJ_CQ,
	MLX4V_OBJ_MR, MLX4V_OBJ_PD,
};

/* Only for the forced-release log lines. */
static const char *
mlx4v_dev_obj_name(enum mlx4v_obj_type type)
{
	switch (type) {
	case MLX4V_OBJ_CTX:
		return "handle";
	case MLX4V_OBJ_PD:
		return "PD";
	case MLX4V_OBJ_MR:
		return "MR";
	case MLX4V_OBJ_CQ:
		return "CQ";
	case MLX4V_OBJ_QP:
		return "QP";
	case MLX4V_OBJ_SRQ:
		return "SRQ";
	case MLX4V_OBJ_WQ:
		return "WQ";
	case MLX4V_OBJ_IND:
		return "indirection table";
	case MLX4V_OBJ_FLOW:
		return "steering rule";
	}
	return "object";
}

/* The ordinary destroy path of each kind, so that backends see a normal destroy. */
static int
mlx4v_dev_obj_destroy(struct mlx4v_obj *obj)
{
	switch (obj->type) {
	case MLX4V_OBJ_FLOW:
		return mlx4v_flow_destroy((struct mlx4v_flow *)obj);
	case MLX4V_OBJ_IND:
		return mlx4v_ind_destroy((struct mlx4v_ind *)obj);
	case MLX4V_OBJ_QP:
		return mlx4v_qp_destroy((struct mlx4v_qp *)obj);
	case MLX4V_OBJ_WQ:
		return mlx4v_wq_destroy((struct mlx4v_wq *)obj);
	case MLX4V_OBJ_SRQ:
		return mlx4v_srq_destroy((struct mlx4v_srq *)obj);
	case MLX4V_OBJ_CQ:
		/* Not mlx4v_cq_destroy(): the application that would ack pending events is gone. */
		return mlx4v_cq_release((struct mlx4v_cq *)obj);
	case MLX4V_OBJ_MR:
		return mlx4v_mr_destroy((struct mlx4v_mr *)obj);
	case MLX4V_OBJ_PD:
		return mlx4v_pd_destroy((struct mlx4v_pd *)obj);
	case MLX4V_OBJ_CTX:
		break;
	}
	return -EINVAL;
}

/*
 * Destroy every object and close every handle still open on a device, with the
 * lock held. Each step removes one entry from the registry, so the loops end.
 * A destroy the backend refuses (rdma-core only; the simulator never refuses) must
 * not stop the removal: the object is then only hidden from lookups, and its memory
 * left to the device, which may still write into it - a leak rather than a
 * use-after-free. Its dependents then fail with EBUSY and go the same way.
 */
static void
mlx4v_dev_release(const char *name, unsigned int *nobj, unsigned int *nctx)
{
	struct mlx4v_ctx *ctx;
	struct mlx4v_obj *obj;
	unsigned int i;
	int ret;

	while ((ctx = mlx4v_obj_first_ctx(name)) != NULL) {
		for (i = 0; i < RTE_DIM(mlx4v_dev_release_order); i++) {
			while ((obj = mlx4v_obj_first(ctx, mlx4v_dev_release_order[i])) != NULL) {
				ret = mlx4v_dev_obj_destroy(obj);
				if (ret) {
					MLX4V_LOG(ERR, "device %s: %s %p not destroyed (%s), "
						  "its memory is left to the device", name,
						  mlx4v_dev_obj_name(obj->type), (void *)obj,
						  rte_strerror(-ret));
					mlx4v_obj_forget(obj);
				}
				(*nobj)++;
			}
		}
		/* Cannot fail: the handle has no object left. */
		ret = mlx4v_dev_close(ctx);
		if (ret) {
			MLX4V_LOG(ERR, "device %s: handle %p not closed (%s)", name, (void *)ctx,
				  rte_strerror(-ret));
			mlx4v_obj_forget(&ctx->obj);
		}
		(*nctx)++;
	}
}

int
mlx4v_dev_unregister(const char *name)
{
	struct mlx4v_dev_entry *e;
	unsigned int nobj = 0, nctx = 0;
	int ret = 0;

	if (name == NULL)
		return -EINVAL;
	/* Before the lock, which a running recovery attempt waits for. */
	mlx4v_recovery_cancel(name);
	mlx4v_verbs_lock();
	e = mlx4v_dev_lookup(name);
	if (e == NULL) {
		ret = -ENOENT;
		goto out;
	}
	/* Removal cannot be refused (EAL ignores it at exit): nothing may outlive it. */
	mlx4v_dev_release(name, &nobj, &nctx);
	if (nobj != 0 || nctx != 0)
		MLX4V_LOG(WARNING, "device %s removed while in use: force-released %u object(s) "
			  "and %u handle(s)", name, nobj, nctx);
	memset(e, 0, sizeof(*e));
out:
	mlx4v_verbs_unlock();
	return ret;
}

int
mlx4v_dev_progress(const char *name)
{
	const struct mlx4v_verbs_ops *ops = NULL;
	struct mlx4v_dev_entry *e;
	void *priv = NULL;

	if (name == NULL)
		return -ENODEV;
	mlx4v_verbs_lock();
	e = mlx4v_dev_lookup(name);
	if (e != NULL) {
		ops = e->ops;
		priv = e->priv;
	}
	mlx4v_verbs_unlock();
	if (ops == NULL)
		return -ENODEV;
	/* Outside the verbs lock: a simulator pass takes its own model lock. */
	return ops->progress != NULL ? ops->progress(priv) : 0;
}

const char *
mlx4v_dev_backend(const char *name)
{
	struct mlx4v_dev_entry *e;
	const char *b = NULL;

	if (name == NULL)
		return NULL;
	mlx4v_verbs_lock();
	e = mlx4v_dev_lookup(name);
	if (e != NULL)
		b = e->ops->name;
	mlx4v_verbs_unlock();
	return b;
}

/* Called with mlx4v_verbs_lock() held. */
struct mlx4v_ctx *
mlx4v_dev_open(const char *name)
{
	struct mlx4v_dev_entry *e;
	struct mlx4v_ctx *ctx;
	int ret;

	if (name == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	e = mlx4v_dev_lookup(name);
	if (e == NULL) {
		MLX4V_LOG(ERR, "no mlx4v device named %s", name);
		rte_errno = ENODEV;
		return NULL;
	}
	ctx = mlx4v_obj_alloc(NULL, MLX4V_OBJ_CTX, sizeof(*ctx));
	if (ctx == NULL)
		return NULL;
	/* A handle is its own context, so the generic registry code needs no special case. */
	ctx->obj.ctx = ctx;
	ctx->socket = e->socket;
	ctx->life = __atomic_load_n(&e->life, __ATOMIC_ACQUIRE);
	ctx->caps.page_size = mlx4v_host_page_size();
	strlcpy(ctx->name, e->name, sizeof(ctx->name));
	/*
	 * The ops pointer is process-local; the handle only keeps an index to it (mlx4v_verbs.c).
	 */
	ret = mlx4v_verbs_attach(ctx, e->ops);
	if (ret)
		goto err_free;
	ret = mlx4v_verbs_ctx_open(ctx, e->priv);
	if (ret)
		goto err_detach;
	e->nctx++;
	mlx4v_obj_publish(&ctx->obj);
	return ctx;

err_detach:
	mlx4v_verbs_detach(ctx);
err_free:
	mlx4v_obj_free(&ctx->obj);
	rte_errno = -ret;
	return NULL;
}

/* Called with mlx4v_verbs_lock() held. */
int
mlx4v_dev_close(struct mlx4v_ctx *ctx)
{
	struct mlx4v_dev_entry *e;

	if (mlx4v_obj_find(ctx, MLX4V_OBJ_CTX) == NULL)
		return -EINVAL;
	/*
	 * ibv_close_device() with live objects leaks them in the kernel; refuse, the caller must
	 * destroy them first (forced release does that in dependency order).
	 */
	if (ctx->nobj != 0) {
		MLX4V_LOG(ERR, "handle on %s still has %u object(s)", ctx->name, ctx->nobj);
		return -EBUSY;
	}
	/* Mirrors mlx4v_dev_open() in reverse. */
	e = mlx4v_dev_lookup(ctx->name);
	if (e != NULL)
		e->nctx--;
	mlx4v_verbs_ctx_close(ctx);
	mlx4v_verbs_detach(ctx);
	mlx4v_obj_free(&ctx->obj);
	return 0;
}

struct rte_pmd_mlx4v_dev *
rte_pmd_mlx4v_dev_open(const char *name)
{
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_dev_open(name));
}

int
rte_pmd_mlx4v_dev_close(struct rte_pmd_mlx4v_dev *dev)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_dev_close((struct mlx4v_ctx *)dev));
}

static const char *
mlx4v_port_state_name(uint8_t state)
{
	static const char *const names[] = {
		"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
	};

	return state < RTE_DIM(names) ? names[state] : "unknown";
}

/*
 * The prerequisites of doc/guides/nics/running_on_hardware.rst, checked up front so that the
 * application reads what is missing instead of a bare errno from deep in the kernel (or, for a
 * port in InfiniBand mode, no error at all until nothing is ever received).
 */
int
mlx4v_port_check(struct mlx4v_ctx *ctx, uint8_t port, unsigned int need)
{
	struct rte_pmd_mlx4v_port_attr pa;
	int ret;

	memset(&pa, 0, sizeof(pa));
	ret = mlx4v_verbs_port_query(ctx, port, &pa);
	if (ret == -ENOTSUP)
		return 0;
	if (ret) {
		MLX4V_LOG(ERR, "%s: port %u: cannot query it (%s)", ctx->name, port,
			  rte_strerror(-ret));
		return ret;
	}
	if ((need & MLX4V_PORT_NEED_ETH) && pa.link_layer != RTE_PMD_MLX4V_LINK_LAYER_ETHERNET) {
		MLX4V_LOG(ERR, "%s: port %u is not in Ethernet mode (link layer %u): set it to eth "
			  "(mlx4_core port_type_array, or the port's sysfs mlx4_port)", ctx->name,
			  port, pa.link_layer);
		return -EPROTONOSUPPORT;
	}
	if ((need & MLX4V_PORT_NEED_NET_RAW) && !pa.net_raw) {
		MLX4V_LOG(ERR, "%s: port %u: raw-packet QPs and steering rules need CAP_NET_RAW, "
			  "which this process lacks", ctx->name, port);
		return -EPERM;
	}
	if ((need & MLX4V_PORT_NEED_STEERING) && !pa.flow_steering) {
		MLX4V_LOG(ERR, "%s: port %u: no device-managed flow steering, so nothing can be "
			  "steered to a queue: load mlx4_core with log_num_mgm_entry_size=-1",
			  ctx->name, port);
		return -ENOTSUP;
	}
	/* Not an error: the link may come up later, and frames flow from then on. */
	if (pa.state != RTE_PMD_MLX4V_PORT_ACTIVE)
		MLX4V_LOG(INFO, "%s: port %u is %s: frames flow once its link is up", ctx->name,
			  port, mlx4v_port_state_name(pa.state));
	return 0;
}

int
rte_pmd_mlx4v_query_device(struct rte_pmd_mlx4v_dev *dev, struct rte_pmd_mlx4v_dev_attr *attr)
{
	const struct mlx4v_ctx *ctx;
	int ret = 0;

	mlx4v_verbs_lock();
	ctx = (const struct mlx4v_ctx *)mlx4v_obj_find(dev, MLX4V_OBJ_CTX);
	if (ctx == NULL || attr == NULL) {
		ret = -EINVAL;
	} else {
		memset(attr, 0, sizeof(*attr));
		attr->max_qp_wr = ctx->caps.max_qp_wr;
		attr->max_sge = ctx->caps.max_sge;
		attr->max_cqe = ctx->caps.max_cqe;
		attr->phys_port_cnt = ctx->caps.nports;
		snprintf(attr->fw_ver, sizeof(attr->fw_ver), "%s", ctx->caps.fw_ver);
		attr->vf = ctx->caps.vf;
	}
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}

int
rte_pmd_mlx4v_query_port(struct rte_pmd_mlx4v_dev *dev, uint8_t port,
			 struct rte_pmd_mlx4v_port_attr *attr)
{
	struct mlx4v_ctx *ctx;
	int ret;

	mlx4v_verbs_lock();
	ctx = (struct mlx4v_ctx *)mlx4v_obj_find(dev, MLX4V_OBJ_CTX);
	if (ctx == NULL || attr == NULL || port < 1 || port > ctx->caps.nports) {
		ret = -EINVAL;
	} else {
		memset(attr, 0, sizeof(*attr));
		ret = mlx4v_verbs_port_query(ctx, port, attr);
	}
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}

int
rte_pmd_mlx4v_port_mtu_set(struct rte_pmd_mlx4v_dev *dev, uint8_t port, uint16_t mtu)
{
	struct mlx4v_ctx *ctx;
	int ret;

	mlx4v_verbs_lock();
	ctx = (struct mlx4v_ctx *)mlx4v_obj_find(dev, MLX4V_OBJ_CTX);
	if (ctx == NULL || port < 1 || port > ctx->caps.nports)
		ret = -EINVAL;
	else
		ret = mlx4v_verbs_port_mtu_set(ctx, port, mtu);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}

int
rte_pmd_mlx4v_port_admin_set(struct rte_pmd_mlx4v_dev *dev, uint8_t port, int up)
{
	const struct mlx4v_verbs_ops *ops = NULL;
	struct mlx4v_ctx *ctx;
	int ret = 0;

	mlx4v_verbs_lock();
	ctx = (struct mlx4v_ctx *)mlx4v_obj_find(dev, MLX4V_OBJ_CTX);
	if (ctx == NULL || port < 1 || port > ctx->caps.nports)
		ret = -EINVAL;
	else
		ops = mlx4v_verbs_ops_get(ctx);
	mlx4v_verbs_unlock();
	if (ret == 0)
		/* Unlocked: the port events reach class drivers that may call back in. */
		ret = ops->port_admin != NULL ? ops->port_admin(ctx, port, up != 0) : -ENOTSUP;
	return mlx4v_obj_ret(ret);
}
