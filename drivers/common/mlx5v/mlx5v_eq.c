/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file EQs on driver-allocated EAL memory: create, destroy, poll, arm, event dispatch. */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_io.h>
#include <rte_malloc.h>

#include "mlx5v_dev.h"
#include "mlx5v_eq.h"
#include "mlx5v_log.h"

/* ---- subscriber table ---- */

/*
 * Subscribers are per event type, not per EQ: the async EQ and any DEVX EQ share one table.
 * Registration is lock-free against the poller (EAL interrupt thread) but must not race with
 * another subscribe or unsubscribe; callers do that at init and cleanup, on one thread.
 */
int
mlx5v_eq_subscribe(struct mlx5v_dev *dev, unsigned int type, mlx5v_eq_event_cb cb, void *arg)
{
	struct mlx5v_eq_sub *subs;
	int free_idx = -1;
	unsigned int i;

	if (dev == NULL || cb == NULL || type >= MLX5V_EQ_TYPES)
		return -EINVAL;
	subs = dev->eq_sub[type];
	for (i = 0; i < MLX5V_EQ_SUBS_PER_TYPE; i++) {
		if (subs[i].cb == cb && subs[i].arg == arg)
			return -EEXIST;
		if (subs[i].cb == NULL && free_idx < 0)
			free_idx = i;
	}
	if (free_idx < 0)
		return -ENOSPC;
	/*
	 * arg is stored before cb (release below) so a poller that sees the new cb never calls it
	 * with a stale arg.
	 */
	subs[free_idx].arg = arg;
	/* Publish cb last: the poller reads cb, then arg. */
	__atomic_store_n(&subs[free_idx].cb, cb, __ATOMIC_RELEASE);
	return 0;
}

int
mlx5v_eq_unsubscribe(struct mlx5v_dev *dev, unsigned int type, mlx5v_eq_event_cb cb, void *arg)
{
	struct mlx5v_eq_sub *subs;
	unsigned int i;

	if (dev == NULL || type >= MLX5V_EQ_TYPES)
		return -EINVAL;
	subs = dev->eq_sub[type];
	for (i = 0; i < MLX5V_EQ_SUBS_PER_TYPE; i++) {
		if (subs[i].cb == cb && subs[i].arg == arg) {
			/*
			 * Clearing cb first keeps a concurrent poller from calling it with the NULL
			 * arg stored after it; the caller must still not free arg while an EQ poll
			 * may be running.
			 */
			__atomic_store_n(&subs[i].cb, NULL, __ATOMIC_RELEASE);
			subs[i].arg = NULL;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * Runs with eq->lock held, on whichever thread polls: the EAL interrupt thread, or a command waiter
 * in mlx5v_cmd_wait(). Callbacks must therefore not poll this EQ themselves.
 */
static void
mlx5v_eq_dispatch(struct mlx5v_eq *eq, const uint8_t *eqe)
{
	struct mlx5v_dev *dev = eq->dev;
	uint8_t type = MLX5V_IFC_GET(eqe, eqe, type);
	/*
	 * type is a u8 and dev->eq_sub[] holds MLX5V_EQ_TYPES (256) rows, so any device value
	 * indexes a valid row.
	 */
	struct mlx5v_eq_sub *subs = dev->eq_sub[type];
	unsigned int i, handled = 0;

	for (i = 0; i < MLX5V_EQ_SUBS_PER_TYPE; i++) {
		mlx5v_eq_event_cb cb = __atomic_load_n(&subs[i].cb, __ATOMIC_ACQUIRE);
		int ret;

		if (cb == NULL)
			continue;
		handled++;
		ret = cb(dev, type, eqe, subs[i].arg);
		/*
		 * A failing handler does not stop the pass. [R] stops after the failing EQE
		 * (prm/mlx5 §6.13); stopping would leave later CMD EQEs unseen until the next
		 * interrupt, so we log and go on.
		 */
		if (ret < 0) {
			eq->stats.cb_errors++;
			MLX5V_EQ_LOG(WARNING, "%s: EQ %u: handler of event 0x%02x failed: %s",
				     dev->name, eq->eqn, type, strerror(-ret));
		}
	}
	if (handled == 0) {
		eq->stats.unhandled++;
		MLX5V_EQ_LOG(DEBUG, "%s: EQ %u: event 0x%02x sub_type 0x%02x ignored",
			     dev->name, eq->eqn, type, MLX5V_IFC_GET(eqe, eqe, sub_type));
	}
}

/* ---- doorbells ---- */

/*
 * EQ doorbell (prm/mlx5 §6.10): BE32 (eqn << 24) | ci at UAR + 0x40 updates the CI
 * and arms; at UAR + 0x48 it only updates the CI. The seam issues the write barrier.
 */
static void
mlx5v_eq_update_ci(struct mlx5v_eq *eq, int arm)
{
	/*
	 * +0x48 is the CI-only doorbell; rdma-core's pyverbs test swaps the two offsets
	 * (prm/mlx5 §12 #4), we follow the C drivers.
	 */
	uint8_t *db = eq->db + (arm ? 0 : MLX5V_IFC_BYTE_OFF(uar_page, eq_db_noarm) -
					   MLX5V_IFC_BYTE_OFF(uar_page, eq_db_arm));

	/*
	 * Called with eq->lock held; the CI written is the full software counter, masked to 24 bits
	 * by rte_pmd_mlx5v_eq_db_val().
	 */
	mlx5v_hw_db_wr32(mlx5v_dev_hw(eq->dev), db, rte_pmd_mlx5v_eq_db_val(eq->eqn, eq->ci));
	if (arm)
		eq->stats.arms++;
	else
		eq->stats.ci_updates++;
}

/*
 * Public arm: takes eq->lock so that it never interleaves a CI older than one a concurrent poller
 * has already written (a CI moving backwards is flagged by the model, prm/mlx5 §13).
 */
void
mlx5v_eq_arm(struct mlx5v_eq *eq)
{
	rte_spinlock_lock(&eq->lock);
	mlx5v_eq_update_ci(eq, 1);
	rte_spinlock_unlock(&eq->lock);
}

/* ---- poll ---- */

int
mlx5v_eq_poll(struct mlx5v_eq *eq)
{
	unsigned int cc = 0;
	int n = 0;

	/* Another thread is draining this EQ: it will see whatever we would have. */
	if (!rte_spinlock_trylock(&eq->lock))
		return 0;
	eq->stats.polls++;
	for (;;) {
		size_t idx = eq->ci & (eq->ring.nent - 1);
		uint8_t *eqe = eq->ring.buf + idx * MLX5V_IFC_BYTES(eqe);
		/*
		 * A relaxed load is enough for the check; the rte_io_rmb() below orders the body
		 * reads after it (prm/mlx5 §6.8).
		 */
		uint8_t owner = __atomic_load_n(&eqe[MLX5V_IFC_BYTE_OF(eqe, owner)],
						__ATOMIC_RELAXED);

		/*
		 * Owner rule (prm/mlx5 §6.8): the device writes owner = (pi >> log_nent) & 1, so
		 * the entry is ours only when the owner bit equals the wrap parity of ci. Every
		 * owner byte started at 1, which the device never writes on the first pass.
		 */
		if ((owner & 1) ^ !!(eq->ci & eq->ring.nent))
			break;
		/* The device writes the body before the owner byte: read it only now. */
		rte_io_rmb();
		mlx5v_eq_dispatch(eq, eqe);
		eq->ci++;
		eq->stats.eqes++;
		n++;
		/*
		 * prm/mlx5 §6.9: the HCA declares an overrun unless the CI is written at least
		 * every MLX5V_NUM_SPARE_EQE entries; update it without arming on each 128.
		 */
		if (++cc >= MLX5V_EQ_POLLING_BUDGET) {
			mlx5v_eq_update_ci(eq, 0);
			cc = 0;
		}
	}
	/*
	 * If EQEs were left or arrived meanwhile, the arm makes the device raise the vector again
	 * at once (prm/mlx5 §6.11), so the early exit of a concurrent trylock loses nothing.
	 */
	/* Both drivers arm after every pass, even an empty one (prm/mlx5 §6.10). */
	mlx5v_eq_update_ci(eq, 1);
	rte_spinlock_unlock(&eq->lock);
	return n;
}

/* ---- rings ---- */

/* The smallest ring: one IOMMU page, as rdma-core's iova_min_page_size. */
#define MLX5V_EQ_RING_MIN 4096u

int
mlx5v_eq_ring_alloc(struct mlx5v_dev *dev, uint32_t log_nent, const char *name,
		    struct mlx5v_eq_ring *r)
{
	uint32_t i;
	int ret;

	r->nent = 1u << log_nent;
	/*
	 * One PAS covers the whole ring (prm/mlx5 §11.4 step 8): a power of two of at
	 * least one 4 KiB page, aligned to its size so that the IOVA is too (IOVA as VA,
	 * prm/mlx5 §11.9).
	 */
	r->size = RTE_MAX((size_t)r->nent * MLX5V_IFC_BYTES(eqe), (size_t)MLX5V_EQ_RING_MIN);
	r->buf = rte_zmalloc_socket(name, r->size, r->size, dev->socket);
	/*
	 * EAL's dynamic memory cannot align beyond its page size (a 4 MiB ring aligned to 4 MiB
	 * fails on 2 MiB hugepages unless memory was preallocated): fall back to the hugepage,
	 * then to 4 KiB; the mapping below then takes more, smaller PAS entries.
	 */
	if (r->buf == NULL && r->size > RTE_PGSIZE_2M)
		r->buf = rte_zmalloc_socket(name, r->size, RTE_PGSIZE_2M, dev->socket);
	if (r->buf == NULL && r->size > MLX5V_EQ_RING_MIN)
		r->buf = rte_zmalloc_socket(name, r->size, MLX5V_EQ_RING_MIN, dev->socket);
	if (r->buf == NULL)
		return -ENOMEM;
	/*
	 * Every owner byte starts at 1 (hardware-owned), set BEFORE CREATE_EQ so that an
	 * event written right after creation is never overwritten (prm/mlx5 §11.7). rdma-core
	 * leaves this to the DEVX caller after create, when an event may already have been written
	 * (prm/mlx5 §11.7 risk); initialising again is harmless for callers that do.
	 */
	for (i = 0; i < r->nent; i++)
		MLX5V_IFC_SET(eqe, r->buf + (size_t)i * MLX5V_IFC_BYTES(eqe), owner,
			      RTE_PMD_MLX5V_EQE_OWNER_INIT_VAL);
	/*
	 * Chunks as large as the ring when its IOVA allows (one PAS, the only case with IOVA as
	 * VA), else one per IOVA-contiguous piece: never the first IOVA plus an offset, which
	 * is wrong across hugepages with IOVA as PA (prm/mlx5 §11.9).
	 */
	ret = mlx5v_dma_buf_map(mlx5v_dev_hw(dev), r->buf, r->size, rte_log2_u64(r->size),
				&r->dma);
	if (ret < 0) {
		MLX5V_EQ_LOG(ERR, "%s: %s: cannot map the %zu-byte ring: %s", dev->name, name,
			     r->size, strerror(-ret));
		goto err_buf_free;
	}
	r->iova = r->dma.iova[0];
	return 0;

err_buf_free:
	rte_free(r->buf);
	r->buf = NULL;
	return ret;
}

/*
 * Only after DESTROY_EQ succeeded, or when the device is gone: the device must not write into the
 * ring after it is unmapped.
 */
void
mlx5v_eq_ring_free(struct mlx5v_dev *dev, struct mlx5v_eq_ring *r)
{
	/* Quarantined (mlx5v_eq_ring_quarantine()): the device still owns it. */
	if (r->buf == NULL)
		return;
	mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &r->dma);
	rte_free(r->buf);
	r->buf = NULL;
}

void
mlx5v_eq_ring_quarantine(struct mlx5v_dev *dev, struct mlx5v_eq_ring *r)
{
	mlx5v_dev_quarantine(dev, r->buf, r->size, &r->dma, 1);
	r->buf = NULL;
}

void
mlx5v_eq_ring_pas_set(const struct mlx5v_eq_ring *r, uint8_t *create_eq_in)
{
	/* One PAS per chunk; with one chunk its page is the whole ring (prm/mlx5 §11.4 step 8). */
	MLX5V_IFC_SET(eqc, MLX5V_IFC_ADDR_OF(create_eq_in, create_eq_in, eqc), log_page_size,
		      r->dma.shift - MLX5V_ADAPTER_PAGE_SHIFT);
	mlx5v_dma_buf_pas_fill(&r->dma, create_eq_in + MLX5V_IFC_BYTE_OFF(create_eq_in, pas));
}

/* ---- create / destroy ---- */

struct mlx5v_eq *
mlx5v_eq_create(struct mlx5v_dev *dev, const struct mlx5v_eq_attr *attr)
{
	uint8_t out[MLX5V_IFC_BYTES(create_eq_out)];
	struct mlx5v_eq *eq;
	size_t inlen;
	uint8_t *in;
	uint8_t *eqc;
	unsigned int i, max_log = 0;
	int ret;

	/* The vector must be one we own; [R] does not range-check intr (prm/mlx5 §12 #9). */
	if (dev == NULL || attr == NULL || attr->log_size < 1 || attr->log_size > 22 ||
	    attr->vector >= mlx5v_msi_count(dev) || dev->uar_addr == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* Without queried caps (early bring-up), firmware's own check is the only one. */
	if (dev->hca_cap_cur != NULL)
		max_log = MLX5V_IFC_GET(cmd_hca_cap, dev->hca_cap_cur, log_max_eq_sz);
	if (max_log != 0 && attr->log_size > max_log) {
		MLX5V_EQ_LOG(ERR, "%s: EQ log size %u above cap log_max_eq_sz %u",
			     dev->name, attr->log_size, max_log);
		rte_errno = EINVAL;
		return NULL;
	}
	eq = rte_zmalloc_socket("mlx5v_eq", sizeof(*eq), 0, dev->socket);
	if (eq == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	eq->dev = dev;
	eq->log_nent = attr->log_size;
	eq->vector = attr->vector;
	rte_spinlock_init(&eq->lock);
	/* Owner bytes are 1 before CREATE_EQ; one PAS per IOVA-contiguous chunk of the ring. */
	ret = mlx5v_eq_ring_alloc(dev, eq->log_nent, "mlx5v_eq_buf", &eq->ring);
	if (ret < 0)
		goto err_eq_free;
	/*
	 * Counted per vector so that freeing an MSI vector still used by an EQ fails with EBUSY
	 * (prm/mlx5 §12 #10).
	 */
	ret = mlx5v_msi_eq_ref(dev, eq->vector, 1);
	if (ret < 0)
		goto err_ring_free;
	/* One PAS entry per IOVA-contiguous chunk of the ring. */
	inlen = MLX5V_IFC_BYTES(create_eq_in) + 8 * (size_t)mlx5v_eq_ring_npas(&eq->ring);
	in = calloc(1, inlen);
	if (in == NULL) {
		ret = -ENOMEM;
		goto err_msi_unref;
	}
	memset(out, 0, sizeof(out));
	MLX5V_IFC_SET(create_eq_in, in, opcode, MLX5V_CMD_OP_CREATE_EQ);
	eqc = MLX5V_IFC_ADDR_OF(create_eq_in, in, eqc);
	MLX5V_IFC_SET(eqc, eqc, log_eq_size, eq->log_nent);
	MLX5V_IFC_SET(eqc, eqc, uar_page, dev->uar);
	MLX5V_IFC_SET(eqc, eqc, intr, eq->vector);
	/*
	 * event_bitmask[t / 64] bit t % 64 enables type t (prm/mlx5 §6.4); completion EQEs
	 * ignore the mask and follow the CQ's c_eqn.
	 */
	for (i = 0; i < 4; i++)
		MLX5V_IFC_ARRAY_SET64(create_eq_in, in, event_bitmask, i, attr->mask[i]);
	mlx5v_eq_ring_pas_set(&eq->ring, in);
	/*
	 * cmd_exec, not cmd_do: internal callers want a translated errno; the DEVX path that must
	 * return EREMOTEIO with the outbox builds its own command (prm/mlx5 §3.9).
	 */
	ret = mlx5v_cmd_exec(dev, in, inlen, out, sizeof(out));
	free(in);
	/* A late EQ may write into the ring: it waits for DISABLE_HCA (as in mlx5v_devx.c). */
	if (ret == -ETIMEDOUT)
		mlx5v_eq_ring_quarantine(dev, &eq->ring);
	if (ret < 0)
		goto err_msi_unref;
	/* eq_number is 8 bits at out 0x0b (prm/mlx5 §6.3). */
	eq->eqn = MLX5V_IFC_GET(create_eq_out, out, eq_number);
	eq->db = dev->uar_addr + MLX5V_IFC_BYTE_OFF(uar_page, eq_db_arm);
	/* Both drivers arm right after creation (prm/mlx5 §6.11: a new EQ is not armed). */
	mlx5v_eq_arm(eq);
	MLX5V_EQ_LOG(DEBUG, "%s: EQ %u: %u entries, vector %u, IOVA 0x%" PRIx64,
		     dev->name, eq->eqn, eq->ring.nent, eq->vector, eq->ring.iova);
	return eq;

err_msi_unref:
	mlx5v_msi_eq_ref(dev, eq->vector, -1);
err_ring_free:
	mlx5v_eq_ring_free(dev, &eq->ring);
err_eq_free:
	rte_free(eq);
	rte_errno = -ret;
	return NULL;
}

/* Free the software side; the device no longer references the buffer. */
static void
mlx5v_eq_free(struct mlx5v_eq *eq)
{
	struct mlx5v_dev *dev = eq->dev;

	/* Wait out a poller that fetched this EQ before it was unpublished. */
	/*
	 * Empty critical section used as a barrier: a poller that took the lock before the EQ was
	 * unpublished is done once we get it.
	 */
	rte_spinlock_lock(&eq->lock);
	rte_spinlock_unlock(&eq->lock);
	mlx5v_msi_eq_ref(dev, eq->vector, -1);
	mlx5v_eq_ring_free(dev, &eq->ring);
	rte_free(eq);
}

/*
 * DESTROY_EQ through cmd_exec: on a firmware failure the EQ stays alive and its memory must be
 * kept; [R] returns the translated errno here too (prm/mlx5 §11.5).
 */
static int
mlx5v_eq_destroy_cmd(struct mlx5v_eq *eq)
{
	uint8_t in[MLX5V_IFC_BYTES(destroy_eq_in)];
	uint8_t out[MLX5V_IFC_BYTES(destroy_eq_out)];

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	MLX5V_IFC_SET(destroy_eq_in, in, opcode, MLX5V_CMD_OP_DESTROY_EQ);
	MLX5V_IFC_SET(destroy_eq_in, in, eq_number, eq->eqn);
	return mlx5v_cmd_exec(eq->dev, in, sizeof(in), out, sizeof(out));
}

int
mlx5v_eq_destroy(struct mlx5v_eq *eq)
{
	int ret;

	if (eq == NULL)
		return -EINVAL;
	/*
	 * Keep the ring on failure: firmware may still write EQEs into it. On a dead device
	 * DESTROY_EQ is emulated as success (prm/mlx5 §3.11), so unload still frees it.
	 */
	ret = mlx5v_eq_destroy_cmd(eq);
	if (ret < 0)
		return ret;
	mlx5v_eq_free(eq);
	return 0;
}

uint32_t
mlx5v_eq_eqn(const struct mlx5v_eq *eq)
{
	return eq->eqn;
}

void
mlx5v_eq_stats_get(struct mlx5v_eq *eq, struct mlx5v_eq_stats *st)
{
	/*
	 * Under eq->lock for a consistent snapshot: the poller updates several counters per pass.
	 */
	rte_spinlock_lock(&eq->lock);
	*st = eq->stats;
	rte_spinlock_unlock(&eq->lock);
}

struct mlx5v_eq *
mlx5v_eq_async(struct mlx5v_dev *dev)
{
	/*
	 * Acquire pairs with the release in mlx5v_eq_async_create(): a reader that sees the pointer
	 * sees an initialised EQ.
	 */
	return __atomic_load_n(&dev->async_eq, __ATOMIC_ACQUIRE);
}

/* ---- the async EQ on vector 0 ---- */

/*
 * EAL interrupt thread, vector 0. The handle is EXT-type: EAL does not read the fd, and
 * its epoll is level-triggered, so drain the eventfd before draining the EQ
 * (prm/mlx5 §11.9).
 */
static void
mlx5v_eq_async_intr(void *arg)
{
	struct mlx5v_dev *dev = arg;
	struct mlx5v_eq *eq;
	uint64_t cnt;
	int fd = mlx5v_msi_ctrl_fd(dev);

	/*
	 * Non-blocking eventfd: EAGAIN ends the loop. Draining first means an MSI-X raised while we
	 * poll re-triggers the callback instead of being absorbed.
	 */
	while (fd >= 0 && read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		;
	eq = mlx5v_eq_async(dev);
	if (eq != NULL)
		mlx5v_eq_poll(eq);
}

int
mlx5v_eq_async_create(struct mlx5v_dev *dev)
{
	struct mlx5v_eq_attr attr;
	struct mlx5v_eq *eq;
	int ret;

	/*
	 * Register the vector 0 handler before CREATE_EQ: the arm at create may raise the vector at
	 * once if the device already queued events (prm/mlx5 §6.11).
	 */
	ret = mlx5v_msi_ctrl_start(dev, mlx5v_eq_async_intr, dev);
	if (ret < 0)
		return ret;
	memset(&attr, 0, sizeof(attr));
	attr.log_size = MLX5V_ASYNC_EQ_LOG_SIZE;
	attr.vector = MLX5V_ASYNC_EQ_VECTOR;
	/*
	 * CMD | PAGE_REQUEST | PORT_CHANGE: event_bitmask[0] = 0xe00 (prm/mlx5 §6.4). Port
	 * changes reach the class drivers through the subscriber table (mlx5v_class.c), which
	 * the net class turns into link state change events.
	 */
	attr.mask[0] = (UINT64_C(1) << RTE_PMD_MLX5V_EVENT_CMD) |
		       (UINT64_C(1) << RTE_PMD_MLX5V_EVENT_PAGE_REQUEST) |
		       (UINT64_C(1) << RTE_PMD_MLX5V_EVENT_PORT_CHANGE);
	/* Polling mode: the CREATE_EQ that makes the command EQ completes by ownership. */
	eq = mlx5v_eq_create(dev, &attr);
	if (eq == NULL) {
		ret = -rte_errno;
		mlx5v_msi_ctrl_stop(dev, mlx5v_eq_async_intr, dev);
		return ret;
	}
	/*
	 * Publish before the switch to events: a waiter that sees events = 1 must also find the EQ
	 * for its polled recovery (mlx5v_cmd_wait()).
	 */
	__atomic_store_n(&dev->async_eq, eq, __ATOMIC_RELEASE);
	mlx5v_cmd_use_events(dev);
	/* Something may have arrived between CREATE_EQ and publishing the EQ. */
	mlx5v_eq_poll(eq);
	return 0;
}

void
mlx5v_eq_async_destroy(struct mlx5v_dev *dev)
{
	struct mlx5v_eq *eq = mlx5v_eq_async(dev);
	int ret;

	if (eq == NULL)
		return;
	/* rdma-core order (prm/mlx5 §2.3): every later command is polled, then DESTROY_EQ. */
	mlx5v_cmd_use_polling(dev);
	__atomic_store_n(&dev->async_eq, NULL, __ATOMIC_RELEASE);
	/*
	 * Unregister the interrupt callback (waiting for a running one) before DESTROY_EQ: a
	 * callback may have loaded the pointer just before it was cleared, and its poll ends
	 * with an arm doorbell, which must reach an EQ the device still has.
	 */
	mlx5v_msi_ctrl_stop(dev, mlx5v_eq_async_intr, dev);
	/*
	 * Polled command (events are off now). On a dead device it succeeds locally (prm/mlx5
	 * §3.11).
	 */
	ret = mlx5v_eq_destroy_cmd(eq);
	if (ret < 0) {
		MLX5V_EQ_LOG(WARNING,
			     "%s: async EQ %u: DESTROY_EQ failed (%s); ring kept until DISABLE_HCA",
			     dev->name, eq->eqn, strerror(-ret));
		/*
		 * The EQ is still alive in the device and may write EQEs into its ring until
		 * the function is disabled; rdma-core leaks the buffer (prm/mlx5 §12 #1).
		 */
		mlx5v_eq_ring_quarantine(dev, &eq->ring);
	}
	/* The software side only, when the ring went to quarantine above. */
	mlx5v_eq_free(eq);
}
