/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file DEVX EQs with the rdma-core create_eq contract: create, poll, arm, interrupts. */

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_interrupts.h>
#include <rte_io.h>

#include "mlx5v_devx_priv.h"
#include "mlx5v_log.h"
#include "mlxv_intr_unreg.h"

static_assert(offsetof(struct mlx5v_devx_eq, pub) == 0, "eq pub not first");

/* ---- EQs ---- */

struct mlx5v_devx_eq *
mlx5v_devx_eq_create(struct mlx5v_dev *dev, const void *in, size_t inlen, void *out,
		     size_t outlen)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_eq *eq;
	const uint8_t *eqc;
	uint8_t *cin;
	uint8_t *db;
	size_t cinlen;
	unsigned int i;
	int ret;

	/*
	 * rdma-core's checks, in its order (prm/mlx5 §11.4 step 1), plus what it misses
	 * (prm/mlx5 §12 #9): intr is read as 12 bits and must name a vector the caller allocated,
	 * and outlen must hold eq_number (byte 0x0b).
	 */
	if (dev == NULL || in == NULL || out == NULL)
		goto einval;
	/* Nor more than the device takes: EINVAL before the ring is allocated (prm/mlx5 §3.3). */
	if (inlen < MLX5V_IFC_BYTES(create_eq_in) || inlen > RTE_PMD_MLX5V_CMD_MAX_LEN)
		goto einval;
	if (MLX5V_IFC_GET(cmd_in_hdr, in, opcode) != RTE_PMD_MLX5V_CMD_OP_CREATE_EQ)
		goto einval;
	eqc = MLX5V_IFC_ADDR_OF(create_eq_in, in, eqc);
	/*
	 * Vector 0 belongs to the driver's async EQ ([R] rejects intr == 0 too, prm/mlx5 §11.4
	 * step 1, prm/mlx5 §11.8).
	 */
	if (MLX5V_IFC_GET(eqc, eqc, intr) == MLX5V_ASYNC_EQ_VECTOR)
		goto einval;
	if (outlen < MLX5V_IFC_BYTES(create_eq_out))
		goto einval;
	/*
	 * Command completions and page requests go to the first EQ that asks for them; the
	 * driver's async EQ owns them, and an application EQ asking too could take them from it
	 * (a documented strengthening over rdma-core, doc/guides/nics/mlx5v_devx.rst).
	 */
	if (MLX5V_IFC_ARRAY_GET64(create_eq_in, in, event_bitmask, 0) &
	    (RTE_BIT64(RTE_PMD_MLX5V_EVENT_CMD) | RTE_BIT64(RTE_PMD_MLX5V_EVENT_PAGE_REQUEST)))
		goto einval;
	/* The arguments are sound; now the device handle, by address only. */
	eq = mlx5v_devx_obj_begin(dev, MLX5V_DEVX_KIND_EQ, sizeof(*eq), &ctx);
	if (eq == NULL)
		return NULL;
	eq->dev = dev;
	rte_spinlock_init(&eq->lock);
	/*
	 * log_eq_size is not checked against log_max_eq_sz here: like [R], firmware gets the value
	 * as given and answers BAD_PARAM through the outbox (prm/mlx5 §11.4 step 1).
	 */
	eq->log_nent = MLX5V_IFC_GET(eqc, eqc, log_eq_size);
	eq->vector = MLX5V_IFC_GET(eqc, eqc, intr);
	eq->uar_page = MLX5V_IFC_GET(eqc, eqc, uar_page);
	for (i = 0; i < 4; i++)
		eq->mask[i] = MLX5V_IFC_ARRAY_GET64(create_eq_in, in, event_bitmask, i);
	/*
	 * Reference the vector first: it fails (EINVAL) unless the vector is allocated, and
	 * from here on the vector cannot be freed under the EQ (EBUSY).
	 */
	ret = mlx5v_msi_eq_ref(dev, eq->vector, 1);
	if (ret < 0)
		goto err_abort;
	/*
	 * Owner bytes are 1 BEFORE CREATE_EQ, which rdma-core leaves to the caller (prm/mlx5 §11.7
	 * risk), and one PAS covers the ring (prm/mlx5 §11.4 step 8). A failed DMA mapping is a
	 * local error: its errno, never EREMOTEIO, and the ring is already freed.
	 */
	ret = mlx5v_eq_ring_alloc(dev, eq->log_nent, "mlx5v_devx_eq_buf", &eq->ring);
	if (ret < 0)
		goto err_msi_unref;
	/* A private copy: the caller's mailbox is never modified (const in). */
	/*
	 * Room for one PAS per IOVA-contiguous chunk of the ring (one with IOVA as VA) even when
	 * the caller passed exactly 0x110; bytes past the last PAS in a longer input are kept, as
	 * [R] does (prm/mlx5 §11.4 step 8).
	 */
	cinlen = RTE_MAX(inlen, (size_t)MLX5V_IFC_BYTE_OFF(create_eq_in, pas) +
			 8 * (size_t)mlx5v_eq_ring_npas(&eq->ring));
	cin = calloc(1, cinlen);
	if (cin == NULL) {
		ret = -ENOMEM;
		goto err_ring_free;
	}
	memcpy(cin, in, inlen);
	mlx5v_eq_ring_pas_set(&eq->ring, cin);
	/*
	 * cmd_do: a device failure is -EREMOTEIO with status and syndrome in out (prm/mlx5 §3.9).
	 */
	ret = mlx5v_cmd_do(dev, cin, cinlen, out, outlen);
	free(cin);
	/*
	 * Timed out: the device may still create the EQ on this ring; the command layer
	 * destroys it when the completion arrives, the ring waits for DISABLE_HCA
	 * (doc/guides/sim/fault_matrix.rst, "Late completions").
	 */
	if (ret == -ETIMEDOUT)
		mlx5v_eq_ring_quarantine(dev, &eq->ring);
	if (ret < 0)
		goto err_ring_free;
	/*
	 * eq_number is 8 bits at out 0x0b; outlen >= 16 was checked above, so it is the device's
	 * value and not stale caller memory (prm/mlx5 §12 #9).
	 */
	eq->eqn = MLX5V_IFC_GET(create_eq_out, out, eq_number);
	db = mlx5v_hw_uar_addr(mlx5v_dev_hw(dev), eq->uar_page);
	/*
	 * No doorbell when the UAR page is not mapped by the backend: poll and arm then fail with
	 * -ENOTSUP instead of writing to a wild address.
	 */
	eq->db = db != NULL ? db + MLX5V_IFC_BYTE_OFF(uar_page, eq_db_arm) : NULL;
	eq->pub.vaddr = eq->ring.buf;
	/* Last: the handle becomes valid only once the EQ is complete. */
	MLX5V_DEVX_PUBLISH(MLX5V_DEVX_KIND_EQ, eqs, eq, ctx);
	MLX5V_EQ_LOG(DEBUG, "%s: DEVX EQ %u: %u entries, vector %u, UAR %u, IOVA 0x%" PRIx64,
		     dev->name, eq->eqn, eq->ring.nent, eq->vector, eq->uar_page, eq->ring.iova);
	mlx5v_devx_ctx_put(ctx);
	return eq;

err_ring_free:
	mlx5v_eq_ring_free(dev, &eq->ring);
err_msi_unref:
	mlx5v_msi_eq_ref(dev, eq->vector, -1);
err_abort:
	mlx5v_devx_obj_abort(MLX5V_DEVX_KIND_EQ, eq, sizeof(*eq), ctx, ret);
	return NULL;
einval:
	rte_errno = EINVAL;
	return NULL;
}

struct mlx5v_devx_eq *
mlx5v_devx_to_eq(struct rte_pmd_mlx5v_eq *pub)
{
	return mlx5v_devx_obj_live(MLX5V_DEVX_KIND_EQ, pub);
}

static int mlx5v_devx_eq_intr_stop_one(struct mlx5v_devx_eq *eq);

/* Free the software side of an EQ the device no longer references and nobody uses. */
void
mlx5v_devx_eq_free(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_dev *dev = eq->dev;

	/* The interrupt callback holds no reference: stop it (and wait for it) first. */
	mlx5v_devx_eq_intr_stop_one(eq);
	/* rdma-core leaks the ring here (prm/mlx5 §12 #1); we free it. */
	mlx5v_eq_ring_free(dev, &eq->ring);
	mlx5v_msi_eq_ref(dev, eq->vector, -1);
	mlx5v_devx_hmem_free(eq, sizeof(*eq));
}

int
mlx5v_devx_eq_destroy(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get_excl(MLX5V_DEVX_KIND_EQ, eq);
	struct mlx5v_devx_ctx *ctx;
	int ret;

	/* Not live: destroyed already (also by the device removal), or never an EQ of ours. */
	if (obj == NULL)
		return -EINVAL;
	ctx = obj->ctx;
	ret = mlx5v_devx_destroy_cmd(eq->dev, RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ, eq->eqn);
	if (ret < 0) {
		mlx5v_devx_obj_put_excl(obj);
		return ret;   /* the device still owns the EQ: keep everything */
	}
	/* From here the handle is EINVAL for everybody; wait out calls still using it. */
	MLX5V_DEVX_RETIRE(MLX5V_DEVX_KIND_EQ, eqs, eq, obj, ctx);
	MLX5V_EQ_LOG(DEBUG, "%s: DEVX EQ %u destroyed", eq->dev->name, eq->eqn);
	mlx5v_devx_eq_free(eq);
	mlx5v_devx_ctx_put(ctx);
	return 0;
}

struct mlx5v_devx_eq *
mlx5v_devx_eq_find(struct mlx5v_dev *dev, uint32_t eqn)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_eq *eq;

	if (mlx5v_devx_ctx_acquire(dev, &ctx) < 0)
		return NULL;
	rte_spinlock_lock(&ctx->lock);
	TAILQ_FOREACH(eq, &ctx->eqs, next)
		if (eq->eqn == eqn)
			break;
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_ctx_put(ctx);
	return eq;
}

int
mlx5v_devx_eq_list(struct mlx5v_dev *dev, struct mlx5v_devx_eq **eqs, unsigned int n)
{
	struct mlx5v_devx_ctx *ctx;
	struct mlx5v_devx_eq *eq;
	unsigned int i = 0;
	int ret;

	ret = mlx5v_devx_ctx_acquire(dev, &ctx);
	if (ret < 0)
		return ret;
	rte_spinlock_lock(&ctx->lock);
	TAILQ_FOREACH(eq, &ctx->eqs, next) {
		if (i < n && eqs != NULL)
			eqs[i] = eq;
		i++;
	}
	rte_spinlock_unlock(&ctx->lock);
	mlx5v_devx_ctx_put(ctx);
	return (int)i;
}

int
mlx5v_devx_eq_handler_set(struct mlx5v_devx_eq *eq, unsigned int type, mlx5v_devx_event_cb cb,
			  void *arg)
{
	struct mlx5v_devx_obj *obj;

	if (type > MLX5V_DEVX_EVENT_ANY)
		return -EINVAL;
	obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	if (obj == NULL)
		return -EINVAL;
	/* Under the poll lock: a handler never runs with a half-written entry. */
	rte_spinlock_lock(&eq->lock);
	eq->handler[type].cb = cb;
	eq->handler[type].arg = arg;
	rte_spinlock_unlock(&eq->lock);
	mlx5v_devx_obj_put(obj);
	return 0;
}

/* Run fn on eq under a reference. @return what fn returns, or -EINVAL if eq is not live. */
static int
mlx5v_devx_eq_call(struct mlx5v_devx_eq *eq, int (*fn)(struct mlx5v_devx_eq *eq))
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	int ret;

	if (obj == NULL)
		return -EINVAL;
	ret = fn(eq);
	mlx5v_devx_obj_put(obj);
	return ret;
}

/* Doorbell with the driver CI. Poll lock held. */
static void
mlx5v_devx_eq_db(struct mlx5v_devx_eq *eq, int arm)
{
	uint8_t *db = eq->db + (arm ? 0 : MLX5V_IFC_BYTE_OFF(uar_page, eq_db_noarm) -
					   MLX5V_IFC_BYTE_OFF(uar_page, eq_db_arm));

	/*
	 * EQE reads complete before the device learns the CI (loads before a store), so
	 * a full barrier, not a write barrier; then the 32-bit MMIO doorbell
	 * (prm/mlx5 §6.10).
	 */
	rte_io_mb();
	mlx5v_hw_db_wr32(mlx5v_dev_hw(eq->dev), db, rte_pmd_mlx5v_eq_db_val(eq->eqn, eq->ci));
	if (arm)
		eq->stats.arms++;
	else
		eq->stats.ci_updates++;
}

/* mlx5v_devx_eq_poll() on an EQ known to be alive (a reference, or its own callback). */
static int
mlx5v_devx_eq_poll_one(struct mlx5v_devx_eq *eq)
{
	unsigned int cc = 0;
	int n = 0;
	uint8_t *eqe;
	uint8_t type;

	/* UAR not mapped (see mlx5v_devx_eq_create()). */
	if (eq->db == NULL)
		return -ENOTSUP;
	/* Another thread is draining this EQ: it will see whatever we would have. */
	if (!rte_spinlock_trylock(&eq->lock))
		return 0;
	eq->stats.polls++;
	/*
	 * rte_pmd_mlx5v_eq_next_eqe() applies the owner rule and the read barrier before the body
	 * is read (prm/mlx5 §6.8); handlers see a complete EQE.
	 */
	while ((eqe = rte_pmd_mlx5v_eq_next_eqe(eq->ring.buf, eq->ring.nent, eq->ci)) != NULL) {
		type = MLX5V_IFC_GET(eqe, eqe, type);
		eq->stats.by_type[type]++;
		/*
		 * Handlers run with eq->lock held on the polling thread (an lcore, or the EAL
		 * interrupt thread via mlx5v_devx_eq_intr_cb()); they must not poll or arm this EQ.
		 */
		if (eq->handler[type].cb != NULL)
			eq->handler[type].cb(eq->dev, eq->eqn, eqe, eq->handler[type].arg);
		else if (eq->handler[MLX5V_DEVX_EVENT_ANY].cb != NULL)
			eq->handler[MLX5V_DEVX_EVENT_ANY].cb(eq->dev, eq->eqn, eqe,
				eq->handler[MLX5V_DEVX_EVENT_ANY].arg);
		else
			eq->stats.unhandled++;
		eq->ci++;
		eq->stats.eqes++;
		n++;
		/*
		 * prm/mlx5 §6.9: the CI reaches the device at least every 128 EQEs, without arming.
		 */
		if (++cc == RTE_PMD_MLX5V_NUM_SPARE_EQE) {
			mlx5v_devx_eq_db(eq, 0);
			cc = 0;
		}
	}
	/* Arm after every pass, even an empty one, as both reference drivers (prm/mlx5 §6.10). */
	/*
	 * An arm with EQEs still pending makes the device raise the vector again at once
	 * (prm/mlx5 §6.11), so a trylock loser above loses no wake-up.
	 */
	mlx5v_devx_eq_db(eq, 1);
	rte_spinlock_unlock(&eq->lock);
	return n;
}

int
mlx5v_devx_eq_poll(struct mlx5v_devx_eq *eq)
{
	return mlx5v_devx_eq_call(eq, mlx5v_devx_eq_poll_one);
}

/*
 * Arm without consuming: for callers that poll by hand and want the next EQE to interrupt. Under
 * eq->lock so the CI written never moves backwards.
 */
static int
mlx5v_devx_eq_arm_one(struct mlx5v_devx_eq *eq)
{
	if (eq->db == NULL)
		return -ENOTSUP;
	rte_spinlock_lock(&eq->lock);
	mlx5v_devx_eq_db(eq, 1);
	rte_spinlock_unlock(&eq->lock);
	return 0;
}

int
mlx5v_devx_eq_arm(struct mlx5v_devx_eq *eq)
{
	return mlx5v_devx_eq_call(eq, mlx5v_devx_eq_arm_one);
}

unsigned int
mlx5v_devx_eq_pending(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	unsigned int n = 0;

	if (obj == NULL)
		return 0;
	rte_spinlock_lock(&eq->lock);
	/* Counts without consuming; bounded by nent since a full ring is all software-owned. */
	while (n < eq->ring.nent &&
	       rte_pmd_mlx5v_eq_next_eqe(eq->ring.buf, eq->ring.nent, eq->ci + n) != NULL)
		n++;
	rte_spinlock_unlock(&eq->lock);
	mlx5v_devx_obj_put(obj);
	return n;
}

int
mlx5v_devx_eq_stats_get(struct mlx5v_devx_eq *eq, struct mlx5v_devx_eq_stats *st)
{
	struct mlx5v_devx_obj *obj;

	if (st == NULL)
		return -EINVAL;
	obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	if (obj == NULL)
		return -EINVAL;
	rte_spinlock_lock(&eq->lock);
	*st = eq->stats;
	rte_spinlock_unlock(&eq->lock);
	st->intrs = __atomic_load_n(&eq->stats.intrs, __ATOMIC_RELAXED);
	mlx5v_devx_obj_put(obj);
	return 0;
}

int
mlx5v_devx_eq_info_get(struct mlx5v_devx_eq *eq, struct mlx5v_devx_eq_info *info)
{
	struct mlx5v_devx_obj *obj;

	if (info == NULL)
		return -EINVAL;
	obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	if (obj == NULL)
		return -EINVAL;
	info->eqn = eq->eqn;
	info->nent = 1u << eq->log_nent;
	info->vector = eq->vector;
	info->uar_page = eq->uar_page;
	memcpy(info->mask, eq->mask, sizeof(info->mask));
	info->vaddr = eq->pub.vaddr;
	info->size = eq->ring.size;
	info->iova = eq->ring.iova;
	info->intr = eq->ih != NULL;
	/*
	 * Not under eq->lock: the EQ's own handler runs with it held and asks for the index
	 * of the EQE it handles. One 32-bit word, written only by the lock holder.
	 */
	info->ci = __atomic_load_n(&eq->ci, __ATOMIC_RELAXED);
	mlx5v_devx_obj_put(obj);
	return 0;
}

/*
 * EAL interrupt thread, on the EQ's vector. The handle is EXT: EAL neither reads the
 * eventfd nor stops its level-triggered epoll, so drain the fd first (a raise after the
 * drain wakes us again), then consume and re-arm (prm/mlx5 §11.9, §11.7 step 8).
 * No registry lookup: the EQ is freed only after mlx5v_devx_eq_intr_stop_one() has
 * waited for this callback to return.
 */
/*
 * EAL interrupt thread. The handle is EXT-type, so EAL does not read the eventfd and its
 * level-triggered epoll would spin until we drain it (prm/mlx5 §11.9).
 */
static void
mlx5v_devx_eq_intr_cb(void *arg)
{
	struct mlx5v_devx_eq *eq = arg;
	uint64_t cnt;

	while (read(eq->intr_fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		;
	__atomic_fetch_add(&eq->stats.intrs, 1, __ATOMIC_RELAXED);
	mlx5v_devx_eq_poll_one(eq);
}

int
mlx5v_devx_eq_intr_start(struct mlx5v_devx_eq *eq)
{
	struct mlx5v_devx_obj *obj = mlx5v_devx_obj_get(MLX5V_DEVX_KIND_EQ, eq);
	struct rte_intr_handle *ih = NULL;
	int fd, ret;

	if (obj == NULL)
		return -EINVAL;
	/* Under the poll lock: two racing starts of one EQ cannot both register. */
	rte_spinlock_lock(&eq->lock);
	if (eq->ih != NULL) {
		ret = -EEXIST;
		goto out;
	}
	rte_spinlock_lock(&eq->dev->msi.lock);
	/*
	 * Vector v >= 1 maps to the eventfd the MSI layer set up for it (efds[v - 1] on vfio-pci,
	 * one eventfd per vector in the simulator, prm/mlx5 §11.9).
	 */
	fd = eq->vector < eq->dev->msi.count ? eq->dev->msi.fd[eq->vector] : -1;
	rte_spinlock_unlock(&eq->dev->msi.lock);
	if (fd < 0) {
		ret = -EINVAL;
		goto out;
	}
	ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (ih == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	if (rte_intr_type_set(ih, RTE_INTR_HANDLE_EXT) != 0 || rte_intr_fd_set(ih, fd) != 0) {
		ret = -EINVAL;
		goto err_ih_free;
	}
	/*
	 * Publish the fd before registering: the callback may run at once on the interrupt
	 * thread (the fd may already be readable), and an undrained fd spins the
	 * level-triggered epoll. Several EQs may share the vector: EAL then runs every
	 * callback of that fd. The callback only trylocks the poll lock held here.
	 */
	eq->intr_fd = fd;
	eq->ih = ih;
	ret = rte_intr_callback_register(ih, mlx5v_devx_eq_intr_cb, eq);
	if (ret < 0) {
		eq->ih = NULL;
		goto err_ih_free;
	}
	/* Arm so the first EQE raises the vector (a new EQ is not armed, prm/mlx5 §6.11). */
	if (eq->db != NULL)
		mlx5v_devx_eq_db(eq, 1);
	ret = 0;
	goto out;

err_ih_free:
	rte_intr_instance_free(ih);
out:
	rte_spinlock_unlock(&eq->lock);
	mlx5v_devx_obj_put(obj);
	return ret;
}

/* Stop the callback of an EQ known to be alive. */
static int
mlx5v_devx_eq_intr_stop_one(struct mlx5v_devx_eq *eq)
{
	struct rte_intr_handle *ih;

	rte_spinlock_lock(&eq->lock);
	ih = eq->ih;
	eq->ih = NULL;
	rte_spinlock_unlock(&eq->lock);
	if (ih == NULL)
		return -ENOENT;
	/*
	 * From another thread, wait until a running callback returns (plain unregister
	 * answers -EAGAIN then); on the interrupt thread this callback is not running.
	 * Not under the poll lock: the running callback may be waiting for it.
	 */
	/*
	 * rte_intr_callback_unregister() returns -EAGAIN while the callback runs; wait for it
	 * (prm/mlx5 §11.9).
	 */
	mlxv_intr_callback_unregister_wait(ih, mlx5v_devx_eq_intr_cb, eq);
	rte_intr_instance_free(ih);
	return 0;
}

int
mlx5v_devx_eq_intr_stop(struct mlx5v_devx_eq *eq)
{
	return mlx5v_devx_eq_call(eq, mlx5v_devx_eq_intr_stop_one);
}
