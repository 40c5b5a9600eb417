/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Completion queues: geometry, completion events and libmlx4's cq_clean. */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_io.h>

#include "mlx4v_log.h"
#include "mlx4v_verbs.h"

/** libmlx4 refuses larger CQs before asking the kernel (verbs.c create_cq()). */
#define MLX4V_CQ_MAX_CQE 0x3fffff

/*
 * Simulator only: reproduces libmlx4 mlx4_create_cq() geometry (prm/mlx4 §3, CQ row) so that a DV
 * consumer sees the same view as on hardware. Called with the verbs lock held; the rdma-core
 * backend gets all of this from libmlx4 instead.
 */
int
mlx4v_cq_layout(struct mlx4v_cq *cq)
{
	struct mlx4v_ctx *ctx = cq->obj.ctx;

	/* libmlx4: nent = align_queue_size(cqe + 1); ibv_cq.cqe = nent - 1. */
	cq->cqe_cnt = mlx4v_align_queue_size(cq->cqe_req + 1);
	cq->buf_len = mlx4v_ring_len(cq->obj.ctx, (size_t)cq->cqe_cnt * cq->cqe_size);
	/*
	 * The ring stays zeroed as libmlx4 leaves it; the simulator's CQ create then marks every
	 * CQE hardware-owned (prm/mlx4 §6 decision), not this generic layer.
	 */
	cq->buf = mlx4v_ring_alloc(ctx, cq->buf_len);
	if (cq->buf == NULL)
		return -ENOMEM;
	cq->set_ci_db = mlx4v_db_alloc(ctx);
	if (cq->set_ci_db == NULL)
		goto err_ring_free;
	/* The 8-byte record: consumer index, then the arm word (prm/mlx4 §4.8). */
	cq->arm_db = cq->set_ci_db + 1;
	/*
	 * Doorbell record starts at zero, as in libmlx4: CI 0 and no arm request pending, so the
	 * device (or simulator) sees no stale arm command before the consumer arms (prm/mlx4
	 * §4.8).
	 */
	*cq->arm_db = 0;
	*cq->set_ci_db = 0;
	/*
	 * arm_sn starts at 1, not 0, exactly as libmlx4; consumers copy it into the arm doorbell's
	 * sn field (prm/mlx4 §2.2), so a different start would change the first arm word.
	 */
	cq->arm_sn = 1;
	cq->cons_index = 0;
	return 0;

err_ring_free:
	mlx4v_ring_free(cq->buf);
	cq->buf = NULL;
	return -ENOMEM;
}

/* Simulator only, verbs lock held; undoes mlx4v_cq_layout() after the backend destroyed the CQ. */
void
mlx4v_cq_layout_free(struct mlx4v_cq *cq)
{
	mlx4v_db_free(cq->set_ci_db);
	mlx4v_ring_free(cq->buf);
	cq->set_ci_db = NULL;
	cq->arm_db = NULL;
	cq->buf = NULL;
}

/* The 32-byte CQE of entry n; with 64-byte CQEs it is the second half. */
static struct mlx4_cqe *
mlx4v_cq_entry(struct mlx4v_cq *cq, uint32_t n)
{
	/* cqe_cnt is a power of two, so masking wraps the running index (prm/mlx4 §4.6). */
	uint8_t *slot = (uint8_t *)cq->buf + (size_t)(n & (cq->cqe_cnt - 1)) * cq->cqe_size;

	return (struct mlx4_cqe *)(slot + (cq->cqe_size == 64 ? 32 : 0));
}

/* libmlx4 get_sw_cqe(): software owns entry n when its owner bit is the pass parity. */
static int
mlx4v_cq_sw_owned(struct mlx4v_cq *cq, uint32_t n)
{
	const struct mlx4_cqe *cqe = mlx4v_cq_entry(cq, n);

	/* Owner bit check (prm/mlx4 §4.6): owner == !!(n & cqe_cnt) means software's. */
	return !!(cqe->owner_sr_opcode & MLX4_CQE_OWNER_MASK) == !!(n & cq->cqe_cnt);
}

/*
 * libmlx4 __mlx4_cq_clean(): drop the CQEs of a QP/WQ that is reset or destroyed, give its SRQ WQEs
 * back and advance the CI. Simulator backend only (libmlx4 does it itself on rdma-core); called
 * with the verbs lock held but not the simulator lock, so the engine thread may be writing CQEs of
 * other QPs meanwhile, as hardware does under libmlx4: hence the owner walk and the read barrier.
 */
void
mlx4v_cq_clean(struct mlx4v_cq *cq, uint32_t qpn, struct mlx4v_srq *srq)
{
	struct mlx4_cqe *cqe, *dest;
	uint32_t prod_index;
	uint8_t owner_bit;
	int nfreed = 0;

	/* A DV consumer owns the consumer index: leave the ring alone (prm/mlx4 §1.4). */
	if (cq == NULL || (cq->flags & MLX4V_CQ_F_DV_OWNED))
		return;
	/*
	 * Find the producer end by walking software-owned entries from cons_index. A full ring of
	 * software-owned entries must not be walked past: libmlx4 stops one short of a whole lap so
	 * the backward sweep never reads an entry twice.
	 */
	for (prod_index = cq->cons_index; mlx4v_cq_sw_owned(cq, prod_index); ++prod_index)
		if (prod_index == cq->cons_index + cq->cqe_cnt - 1)
			break;
	rte_io_rmb(); /* read CQE bodies only after their ownership was seen */
	/* Sweep backwards, copying older entries over the removed ones. */
	while ((int)--prod_index - (int)cq->cons_index >= 0) {
		cqe = mlx4v_cq_entry(cq, prod_index);
		if ((rte_be_to_cpu_32(cqe->vlan_my_qpn) & MLX4_CQE_QPN_MASK) == qpn) {
			/*
			 * Receive CQEs of an SRQ QP name the SRQ WQE they consumed; libmlx4 puts it
			 * back on the free list (prm/mlx4 §4.4) or the SRQ would leak entries.
			 */
			if (srq != NULL && !(cqe->owner_sr_opcode & MLX4_CQE_IS_SEND_MASK))
				mlx4v_srq_free_wqe(srq, rte_be_to_cpu_16(cqe->wqe_index));
			++nfreed;
		} else if (nfreed) {
			dest = mlx4v_cq_entry(cq, prod_index + nfreed);
			/* The destination keeps its own owner bit: it is in its own pass. */
			owner_bit = dest->owner_sr_opcode & MLX4_CQE_OWNER_MASK;
			memcpy(dest, cqe, sizeof(*cqe));
			/*
			 * Owner bit write: keep the destination's parity. Copying the source's bit
			 * would make the slot read as the wrong pass and either hide or resurrect a
			 * completion (prm/mlx4 §4.6).
			 */
			dest->owner_sr_opcode = owner_bit |
				(dest->owner_sr_opcode & ~MLX4_CQE_OWNER_MASK);
		}
	}
	if (nfreed) {
		cq->cons_index += nfreed;
		/* The moved entries must be visible before the device sees the new CI. */
		rte_io_wmb();
		/*
		 * CQ doorbell record: only 24 bits of CI are meaningful (prm/mlx4 §4.6, §4.8); the
		 * store tells the producer these slots are free again.
		 */
		*cq->set_ci_db = rte_cpu_to_be_32(cq->cons_index & 0xffffff);
	}
}

struct mlx4v_cq *
mlx4v_cq_create(struct mlx4v_ctx *ctx, int cqe, int cqe_size, int with_events)
{
	int sw = 0;
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
	sw = mlx4v_verbs_sw_provider(ctx);
	if (sw) {
		/*
		 * 0 means the device's native size: the simulated ConnectX-3 reports
		 * MLX4_USER_DEV_CAP_LARGE_CQE, as the kernel's default (64-byte CQEs) gives
		 * (prm/mlx4 §2.2).
		 */
		if (cq->cqe_size == 0)
			cq->cqe_size = ctx->caps.cqe_size;
		ret = mlx4v_cq_layout(cq);
		if (ret)
			goto err_free;
	}
	ret = mlx4v_verbs_cq_create(cq);
	if (ret)
		goto err_layout_free;
	mlx4v_obj_publish(&cq->obj);
	return cq;

err_layout_free:
	if (sw)
		mlx4v_cq_layout_free(cq);
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
	if (mlx4v_verbs_sw_provider(cq->obj.ctx))
		mlx4v_cq_layout_free(cq);
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
	struct mlx4v_cq *cq;

	mlx4v_verbs_lock();
	cq = mlx4v_cq_create((struct mlx4v_ctx *)dev, cqe, cqe_size, with_events);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ptr(cq);
}

int
rte_pmd_mlx4v_destroy_cq(struct rte_pmd_mlx4v_cq *cq)
{
	int ret;

	mlx4v_verbs_lock();
	ret = mlx4v_cq_destroy((struct mlx4v_cq *)cq);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
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
	int ret;

	mlx4v_verbs_lock();
	ret = mlx4v_cq_get_event((struct mlx4v_cq *)cq);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
}

int
rte_pmd_mlx4v_ack_cq_events(struct rte_pmd_mlx4v_cq *cq, unsigned int nevents)
{
	int ret;

	mlx4v_verbs_lock();
	ret = mlx4v_cq_ack_events((struct mlx4v_cq *)cq, nevents);
	mlx4v_verbs_unlock();
	return mlx4v_obj_ret(ret);
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
