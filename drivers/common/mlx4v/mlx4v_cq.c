/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Completion queues: create, destroy, completion events and CQ errors. */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include <rte_byteorder.h>
#include <rte_io.h>

#include "mlx4v_api.h"
#include "mlx4v_log.h"
#include "mlx4v_prov.h"
#include "mlx4v_verbs.h"

/** libmlx4 refuses larger CQs before asking the kernel (verbs.c create_cq()). */
#define MLX4V_CQ_MAX_CQE 0x3fffff

struct mlx4v_cq *
mlx4v_cq_create(struct mlx4v_ctx *ctx, int cqe, int cqe_size, int with_events)
{
	struct mlx4v_cq *cq;
	int ret;

	if (mlx4v_obj_find(ctx, MLX4V_OBJ_CTX) == NULL)
		return NULL;
	/*
	 * Stricter than libmlx4, which passes a bad cqe_size through to the kernel: we refuse early
	 * so both backends fail the same way (prm/mlx4 §1.2 spirit).
	 */
	if (cqe < 1 || cqe > MLX4V_CQ_MAX_CQE || (uint32_t)cqe > ctx->caps.max_cqe ||
	    (cqe_size != 0 && cqe_size != 32 && cqe_size != 64)) {
		MLX4V_LOG(ERR, "bad CQ request: cqe %d, cqe_size %d", cqe, cqe_size);
		rte_errno = EINVAL;
		return NULL;
	}
	cq = mlx4v_obj_alloc(ctx, MLX4V_OBJ_CQ, sizeof(*cq));
	if (cq == NULL)
		return NULL;
	cq->cqe_req = cqe;
	cq->cqe_size = cqe_size;
	cq->with_events = !!with_events;
	cq->event_fd = -1;
	ret = MLX4V_PROV_CALL(ctx, cq_layout, cq);
	if (ret)
		goto err_free;
	ret = mlx4v_verbs_cq_create(cq);
	if (ret)
		goto err_layout_free;
	mlx4v_obj_publish(&cq->obj);
	return cq;

err_layout_free:
	MLX4V_PROV_RUN(ctx, cq_layout_free, cq);
err_free:
	mlx4v_obj_free(&cq->obj);
	rte_errno = -ret;
	return NULL;
}

int
mlx4v_cq_destroy(struct mlx4v_cq *cq)
{
	int ret;

	if (mlx4v_obj_find(cq, MLX4V_OBJ_CQ) == NULL)
		return -EINVAL;
	if (cq->obj.refcnt != 0) {
		MLX4V_LOG(ERR, "CQ %u still used by %u QP/WQ(s)", cq->cqn, cq->obj.refcnt);
		return -EBUSY;
	}
	/* ibv_destroy_cq() would wait forever for the acks; we refuse instead. */
	if (cq->events_unacked != 0) {
		MLX4V_LOG(ERR, "CQ %u has %u unacknowledged event(s)", cq->cqn,
			  cq->events_unacked);
		return -EBUSY;
	}
	ret = mlx4v_verbs_cq_destroy(cq);
	if (ret)
		return ret;
	MLX4V_PROV_RUN(cq->obj.ctx, cq_destroyed, cq);
	mlx4v_obj_free(&cq->obj);
	return 0;
}

/* Forced-release path of mlx4v_dev_unregister(), verbs lock held. */
int
mlx4v_cq_release(struct mlx4v_cq *cq)
{
	/*
	 * The owner of the handle is gone and will never ack: ack for it, as
	 * ibv_destroy_cq() requires (libibverbs waits for every event to be acked).
	 */
	if (cq->events_unacked != 0) {
		mlx4v_verbs_cq_ack_events(cq, cq->events_unacked);
		cq->events_unacked = 0;
	}
	return mlx4v_cq_destroy(cq);
}

struct mlx4v_cq_err {
	uint32_t cqn;
	unsigned int n;
};

/* mlx4v_obj_foreach() callback: mark the CQs of the number in error. */
static int
mlx4v_cq_mark_cb(struct mlx4v_obj *obj, void *arg)
{
	struct mlx4v_cq_err *e = arg;
	struct mlx4v_cq *cq = (struct mlx4v_cq *)obj;

	if (obj->type == MLX4V_OBJ_CQ && cq->cqn == e->cqn) {
		cq->in_error = 1;
		e->n++;
	}
	return 0;
}

unsigned int
mlx4v_cq_mark_error(const char *name, uint32_t cqn)
{
	struct mlx4v_cq_err e = { .cqn = cqn, .n = 0 };

	mlx4v_obj_foreach(name, mlx4v_cq_mark_cb, &e);
	return e.n;
}

/*
 * Verbs lock held. Non-blocking: the backend returns -EAGAIN when no event is queued, as DPDK's
 * rx_queue_intr_disable expects (prm/mlx4 §5.3).
 */
static int
mlx4v_cq_get_event(struct mlx4v_cq *cq)
{
	int ret;

	if (mlx4v_obj_find(cq, MLX4V_OBJ_CQ) == NULL || !cq->with_events)
		return -EINVAL;
	ret = mlx4v_verbs_cq_get_event(cq);
	if (ret)
		return ret;
	/* libmlx4 mlx4_cq_event(): the next arm must carry a new sequence number. */
	cq->arm_sn++;
	cq->events_unacked++;
	return 0;
}

/*
 * Acking more than was received would let ibv_destroy_cq() return while events are in flight;
 * refuse it here rather than trust the caller.
 */
static int
mlx4v_cq_ack_events(struct mlx4v_cq *cq, unsigned int nevents)
{
	if (mlx4v_obj_find(cq, MLX4V_OBJ_CQ) == NULL || nevents > cq->events_unacked)
		return -EINVAL;
	mlx4v_verbs_cq_ack_events(cq, nevents);
	cq->events_unacked -= nevents;
	return 0;
}

struct rte_pmd_mlx4v_cq *
rte_pmd_mlx4v_create_cq(struct rte_pmd_mlx4v_dev *dev, int cqe, int cqe_size,
			int with_events)
{
	return MLX4V_VERBS_LOCKED_PTR(mlx4v_cq_create((struct mlx4v_ctx *)dev, cqe, cqe_size,
						      with_events));
}

int
rte_pmd_mlx4v_destroy_cq(struct rte_pmd_mlx4v_cq *cq)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_cq_destroy((struct mlx4v_cq *)cq));
}

int
rte_pmd_mlx4v_cq_event_fd(const struct rte_pmd_mlx4v_cq *cq)
{
	const struct mlx4v_cq *c;
	int fd = -1;

	mlx4v_verbs_lock();
	c = (const struct mlx4v_cq *)mlx4v_obj_find(cq, MLX4V_OBJ_CQ);
	if (c != NULL && c->with_events)
		/*
		 * The fd is read under the lock so a concurrent destroy cannot hand back a closed
		 * descriptor; after unlock it is only a number the caller polls.
		 */
		fd = c->event_fd;
	mlx4v_verbs_unlock();
	if (fd < 0) {
		mlx4v_obj_ret(-EINVAL);
		return -1;
	}
	return fd;
}

int
rte_pmd_mlx4v_get_cq_event(struct rte_pmd_mlx4v_cq *cq)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_cq_get_event((struct mlx4v_cq *)cq));
}

int
rte_pmd_mlx4v_ack_cq_events(struct rte_pmd_mlx4v_cq *cq, unsigned int nevents)
{
	return MLX4V_VERBS_LOCKED_RET(mlx4v_cq_ack_events((struct mlx4v_cq *)cq, nevents));
}

int
rte_pmd_mlx4v_cq_in_error(const struct rte_pmd_mlx4v_cq *cq, int *in_error)
{
	const struct mlx4v_cq *c;
	int ret = 0;

	mlx4v_verbs_lock();
	c = (const struct mlx4v_cq *)mlx4v_obj_find(cq, MLX4V_OBJ_CQ);
	if (c == NULL || in_error == NULL)
		ret = -EINVAL;
	else
		*in_error = c->in_error;
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}

int
mlx4v_cq_share(struct rte_pmd_mlx4v_cq *cq, struct mlx4v_cq_share *sh)
{
	struct mlx4v_cq *c;
	int ret;

	if (sh == NULL)
		return -EINVAL;
	mlx4v_verbs_lock();
	c = (struct mlx4v_cq *)mlx4v_obj_find(cq, MLX4V_OBJ_CQ);
	if (c == NULL || !c->with_events || c->event_fd < 0) {
		ret = -EINVAL;
		goto out;
	}
	sh->event_fd = c->event_fd;
	sh->desc = 0;
	ret = mlx4v_verbs_cq_uar_fd(c, &sh->uar_off, &sh->desc);
	sh->uar_fd = ret;
	ret = ret < 0 ? ret : 0;
out:
	mlx4v_verbs_unlock();
	return ret;
}

/* A completion channel's event: the CQ's user handle (the primary's, of no use here). */
#define MLX4V_CQ_EVENT_DESC_LEN sizeof(struct ib_uverbs_comp_event_desc)
/* Descriptors taken by one read. */
#define MLX4V_CQ_EVENT_DESC_BATCH 16

int
mlx4v_cq_events_read(int fd, int desc)
{
	uint8_t buf[MLX4V_CQ_EVENT_DESC_LEN * MLX4V_CQ_EVENT_DESC_BATCH];
	uint64_t cnt;
	ssize_t len;
	int n = 0;

	for (;;) {
		/*
		 * A channel's descriptors are written whole (less than a pipe's atomic size) and
		 * read here in whole multiples; an eventfd gives the count since its last read.
		 */
		if (desc)
			len = read(fd, buf, sizeof(buf));
		else
			len = read(fd, &cnt, sizeof(cnt));
		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0)
			return errno == EAGAIN ? n : -errno;
		if (len == 0)
			return n != 0 ? n : -EPIPE;
		if (!desc) {
			if (len != (ssize_t)sizeof(cnt))
				return -EPROTO;
			return n + (int)cnt;
		}
		if ((size_t)len % MLX4V_CQ_EVENT_DESC_LEN != 0)
			return -EPROTO;
		n += (size_t)len / MLX4V_CQ_EVENT_DESC_LEN;
		if (len < (ssize_t)sizeof(buf))
			return n;
	}
}

int
mlx4v_cq_events_foreign(struct rte_pmd_mlx4v_cq *cq, unsigned int n)
{
	struct mlx4v_cq *c;
	int ret = 0;

	mlx4v_verbs_lock();
	c = (struct mlx4v_cq *)mlx4v_obj_find(cq, MLX4V_OBJ_CQ);
	if (c == NULL || !c->with_events)
		ret = -EINVAL;
	else if (n != 0)
		/* Not this process's events_unacked: it never took them. */
		mlx4v_verbs_cq_ack_events(c, n);
	mlx4v_verbs_unlock();
	return ret;
}
