/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file init_obj: the raw QP/CQ/SRQ/RWQ views, and the registry of live objects. */

#include <string.h>
#include <unistd.h>

#include <rte_malloc.h>

#include "mlx4v_log.h"
#include "mlx4v_prov.h"
#include "mlx4v_verbs.h"

/*
 * Every handle the API gives out is recorded here, so that a stale, foreign or
 * garbage pointer is recognised by address alone and never dereferenced. The list
 * is process-local and protected by mlx4v_verbs_lock().
 */
static TAILQ_HEAD(, mlx4v_obj) mlx4v_obj_live = TAILQ_HEAD_INITIALIZER(mlx4v_obj_live);

#define MLX4V_OBJ_TYPES_ALL \
	(MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ | MLX4DV_OBJ_SRQ | MLX4DV_OBJ_RWQ)

/*
 * Zeroed, on the device's socket; not yet visible to lookups until mlx4v_obj_publish(), so a
 * half-built object can never pass mlx4v_obj_find().
 */
void *
mlx4v_obj_alloc(struct mlx4v_ctx *ctx, enum mlx4v_obj_type type, size_t size)
{
	struct mlx4v_obj *obj;

	obj = rte_zmalloc_socket("mlx4v_obj", size, 0, ctx != NULL ? ctx->socket :
				 SOCKET_ID_ANY);
	if (obj == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	obj->type = type;
	obj->ctx = ctx;
	return obj;
}

/* Verbs lock held. Called last in every create, after the backend succeeded. */
void
mlx4v_obj_publish(struct mlx4v_obj *obj)
{
	TAILQ_INSERT_TAIL(&mlx4v_obj_live, obj, next);
	if (obj->type != MLX4V_OBJ_CTX)
		obj->ctx->nobj++;
}

/*
 * Verbs lock held. Also used on create error paths, where the object was never published; hence the
 * search instead of an unconditional TAILQ_REMOVE.
 */
void
mlx4v_obj_free(struct mlx4v_obj *obj)
{
	struct mlx4v_obj *it;

	TAILQ_FOREACH(it, &mlx4v_obj_live, next) {
		if (it == obj) {
			TAILQ_REMOVE(&mlx4v_obj_live, obj, next);
			if (obj->type != MLX4V_OBJ_CTX)
				obj->ctx->nobj--;
			break;
		}
	}
	rte_free(obj);
}

/*
 * Unlink without freeing: for objects whose backend destroy failed during forced release, whose
 * memory the device may still write (see mlx4v_dev_release()).
 */
void
mlx4v_obj_forget(struct mlx4v_obj *obj)
{
	TAILQ_REMOVE(&mlx4v_obj_live, obj, next);
	if (obj->type != MLX4V_OBJ_CTX)
		obj->ctx->nobj--;
}

struct mlx4v_obj *
mlx4v_obj_first(const struct mlx4v_ctx *ctx, enum mlx4v_obj_type type)
{
	struct mlx4v_obj *it;

	TAILQ_FOREACH(it, &mlx4v_obj_live, next)
		if (it->type == type && it->ctx == ctx)
			return it;
	return NULL;
}

struct mlx4v_ctx *
mlx4v_obj_first_ctx(const char *name)
{
	struct mlx4v_obj *it;

	/* Device names are unique among registered devices, so the name is the key. */
	TAILQ_FOREACH(it, &mlx4v_obj_live, next)
		if (it->type == MLX4V_OBJ_CTX && strcmp(it->ctx->name, name) == 0)
			return it->ctx;
	return NULL;
}

int
mlx4v_obj_foreach(const char *name, int (*fn)(struct mlx4v_obj *obj, void *arg), void *arg)
{
	struct mlx4v_obj *it;
	int ret;

	TAILQ_FOREACH(it, &mlx4v_obj_live, next) {
		if (strcmp(it->ctx->name, name) != 0)
			continue;
		ret = fn(it, arg);
		if (ret != 0)
			return ret;
	}
	return 0;
}

struct mlx4v_obj *
mlx4v_obj_find(const void *p, enum mlx4v_obj_type type)
{
	struct mlx4v_obj *it;

	if (p == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	TAILQ_FOREACH(it, &mlx4v_obj_live, next) {
		/*
		 * Compare addresses only; the pointer is dereferenced after it matched a live
		 * entry, so garbage from a caller never reaches memory (prm/mlx4 §1.2: upstream
		 * would crash).
		 */
		if ((const void *)it == p) {
			if (it->type == type)
				return it;
			break;
		}
	}
	rte_errno = EINVAL;
	return NULL;
}

/*
 * Converts the internal -errno to the public contract: positive errno return, with rte_errno and
 * errno set to the same value (prm/mlx4 §1.2).
 */
int
mlx4v_obj_ret(int ret)
{
	if (ret == 0)
		return 0;
	rte_errno = -ret;
	errno = -ret;
	return -ret;
}

/*
 * Pointer-returning APIs report through rte_errno internally; mirror it into errno as libibverbs
 * callers expect.
 */
void *
mlx4v_obj_ptr(void *p)
{
	if (p == NULL)
		errno = rte_errno;
	return p;
}

size_t
mlx4v_host_page_size(void)
{
	static size_t page;
	long v;

	if (page == 0) {
		v = sysconf(_SC_PAGESIZE);
		/* Never fails on Linux; 4 KiB is the smallest page a ConnectX-3 host has. */
		page = v >= (long)MLX4V_PAGE_SIZE ? (size_t)v : MLX4V_PAGE_SIZE;
	}
	return page;
}

/* Validate one requested pair before anything is written (prm/mlx4 §1.2). */
static int
mlx4v_obj_check_pair(const void *in, const void *out, enum mlx4v_obj_type type,
		     const char *what)
{
	if (in == NULL || out == NULL) {
		MLX4V_LOG(ERR, "init_obj: %s requested with a NULL %s pointer", what,
			  in == NULL ? "in" : "out");
		return -EINVAL;
	}
	/*
	 * Stricter than upstream (prm/mlx4 §1.2): a foreign or stale handle would be misread
	 * through container_of there; here it is EINVAL and nothing is written.
	 */
	if (mlx4v_obj_find(in, type) == NULL) {
		MLX4V_LOG(ERR, "init_obj: %s %p is not a live mlx4v object", what, in);
		return -EINVAL;
	}
	/* An RSS QP has no rings to view (ibv_create_qp_ex() with RX_HASH). */
	if (type == MLX4V_OBJ_QP && ((const struct mlx4v_qp *)in)->ind != NULL) {
		MLX4V_LOG(ERR, "init_obj: QP %p is an RSS QP, it has no rings", in);
		return -EINVAL;
	}
	return 0;
}

/*
 * Verbs lock held. Two phases: validate every requested pair, then fill. A failed validation
 * therefore leaves all outputs untouched (prm/mlx4 §1.2 project contract).
 */
static int
mlx4v_obj_init(struct rte_pmd_mlx4v_obj *obj, uint64_t obj_type)
{
	struct mlx4v_qp *qp = NULL;
	struct mlx4v_cq *cq = NULL;
	struct mlx4v_srq *srq = NULL;
	struct mlx4v_wq *wq = NULL;
	int ret;

	if (obj == NULL) {
		MLX4V_LOG(ERR, "init_obj: obj is NULL");
		return -EINVAL;
	}
	/* Upstream ignores unknown bits; we refuse them (documented deviation). */
	if (obj_type & ~(uint64_t)MLX4V_OBJ_TYPES_ALL) {
		MLX4V_LOG(ERR, "init_obj: unknown type bits 0x%" PRIx64,
			  obj_type & ~(uint64_t)MLX4V_OBJ_TYPES_ALL);
		return -EINVAL;
	}
	/* obj_type == 0 falls through to success with nothing touched, matching upstream. */
	if (obj_type & MLX4DV_OBJ_QP) {
		ret = mlx4v_obj_check_pair(obj->qp.in, obj->qp.out, MLX4V_OBJ_QP, "QP");
		if (ret)
			return ret;
		qp = (struct mlx4v_qp *)obj->qp.in;
	}
	if (obj_type & MLX4DV_OBJ_CQ) {
		ret = mlx4v_obj_check_pair(obj->cq.in, obj->cq.out, MLX4V_OBJ_CQ, "CQ");
		if (ret)
			return ret;
		cq = (struct mlx4v_cq *)obj->cq.in;
	}
	if (obj_type & MLX4DV_OBJ_SRQ) {
		ret = mlx4v_obj_check_pair(obj->srq.in, obj->srq.out, MLX4V_OBJ_SRQ, "SRQ");
		if (ret)
			return ret;
		srq = (struct mlx4v_srq *)obj->srq.in;
	}
	if (obj_type & MLX4DV_OBJ_RWQ) {
		ret = mlx4v_obj_check_pair(obj->rwq.in, obj->rwq.out, MLX4V_OBJ_WQ, "RWQ");
		if (ret)
			return ret;
		wq = (struct mlx4v_wq *)obj->rwq.in;
	}
	/* Upstream order QP, CQ, SRQ, RWQ; the first error stops, nothing is rolled back. */
	if (qp != NULL) {
		ret = MLX4V_PROV(qp->obj.ctx)->qp_view(qp, obj->qp.out);
		if (ret)
			return ret;
	}
	if (cq != NULL) {
		ret = MLX4V_PROV(cq->obj.ctx)->cq_view(cq, obj->cq.out);
		if (ret)
			return ret;
		/*
		 * The caller now owns the consumer index: our copy is stale, and a
		 * cq_clean based on it would corrupt the ring (prm/mlx4 §1.4).
		 */
		cq->flags |= MLX4V_CQ_F_DV_OWNED;
	}
	if (srq != NULL) {
		ret = MLX4V_PROV(srq->obj.ctx)->srq_view(srq, obj->srq.out);
		if (ret)
			return ret;
	}
	if (wq != NULL) {
		ret = MLX4V_PROV(wq->obj.ctx)->rwq_view(wq, obj->rwq.out);
		if (ret)
			return ret;
	}
	return 0;
}

int
rte_pmd_mlx4v_init_obj(struct rte_pmd_mlx4v_obj *obj, uint64_t obj_type)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_obj_init(obj, obj_type));
}
