/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * THE verbs-level seam of mlx4v: the backend ops table, the mlx4v_verbs_*() wrappers that
 * common code calls and the registry of devices by backend. The objects the backends fill
 * are in mlx4v_obj.h, the providers in mlx4v_prov.h.
 */

#ifndef _MLX4V_VERBS_H_
#define _MLX4V_VERBS_H_

#include <stdint.h>

#include <rte_compat.h>

#include "mlx4v_obj.h"

struct mlx4v_prov_ops;

/**
 * Operations of a backend. Every op returns 0 or -errno. A backend that lacks an
 * optional op sets it NULL; the wrapper then returns -ENOTSUP.
 */
struct mlx4v_verbs_ops {
	const char *name;
	/** What libmlx4 does in user space around these calls (mlx4v_prov.h); required. */
	const struct mlx4v_prov_ops *prov;
	int (*ctx_open)(struct mlx4v_ctx *ctx, void *dev_priv);
	void (*ctx_close)(struct mlx4v_ctx *ctx);
	int (*pd_create)(struct mlx4v_pd *pd);
	int (*pd_destroy)(struct mlx4v_pd *pd);
	int (*mr_create)(struct mlx4v_mr *mr);
	int (*mr_destroy)(struct mlx4v_mr *mr);
	int (*cq_create)(struct mlx4v_cq *cq);
	int (*cq_destroy)(struct mlx4v_cq *cq);
	/** Take one raised event: 0, or -EAGAIN when none is pending. */
	int (*cq_get_event)(struct mlx4v_cq *cq);
	void (*cq_ack_events)(struct mlx4v_cq *cq, unsigned int n);
	int (*srq_create)(struct mlx4v_srq *srq);
	int (*srq_destroy)(struct mlx4v_srq *srq);
	int (*qp_create)(struct mlx4v_qp *qp);
	int (*qp_modify)(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state);
	int (*qp_destroy)(struct mlx4v_qp *qp);
	int (*wq_create)(struct mlx4v_wq *wq);
	int (*wq_modify)(struct mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state);
	int (*wq_destroy)(struct mlx4v_wq *wq);
	/** Set the WQ number range of the handle (before its first WQ). */
	int (*wqs_range_set)(struct mlx4v_ctx *ctx, uint8_t log_range);
	int (*ind_create)(struct mlx4v_ind *ind);
	int (*ind_destroy)(struct mlx4v_ind *ind);
	/** Create the QP of qp->ind: an RSS QP (hash over the table), no rings. */
	int (*rss_qp_create)(struct mlx4v_qp *qp);
	int (*flow_create)(struct mlx4v_flow *flow);
	int (*flow_destroy)(struct mlx4v_flow *flow);
	/**
	 * Optional: a port's prerequisites, state, speed and MAC (struct rte_pmd_mlx4v_port_attr),
	 * port in 1..caps.nports.
	 */
	int (*port_query)(struct mlx4v_ctx *ctx, uint8_t port,
			  struct rte_pmd_mlx4v_port_attr *attr);
	/**
	 * Optional: open or close a port; called without the verbs lock. On a bifurcated
	 * ConnectX-3 this is the admin state of the port's kernel netdev (IFF_UP).
	 */
	int (*port_admin)(struct mlx4v_ctx *ctx, uint8_t port, int up);
	/**
	 * Optional: set the MTU of the port, which the kernel netdev owns on a bifurcated
	 * ConnectX-3 (mlx4_en programs the port's largest frame from it): frames above it are
	 * dropped by the port. Verbs lock held.
	 */
	int (*port_mtu_set)(struct mlx4v_ctx *ctx, uint8_t port, uint16_t mtu);
	/**
	 * Optional: let a device that lives in this process make progress now (the
	 * simulator runs one engine pass). Hardware needs nothing; NULL.
	 */
	int (*progress)(void *dev_priv);
	/**
	 * Optional: a file descriptor of the page holding the QP's send doorbell (qp->sdb), for
	 * another process of the application to map (MAP_SHARED, 4 KiB at qp->uar_mmap_offset)
	 * and ring the doorbell through: the simulator's page, or the verbs context's command
	 * fd, through which the kernel maps the UAR. The backend keeps it. @return the fd or
	 * -errno.
	 */
	int (*qp_sdb_fd)(struct mlx4v_qp *qp);
	/**
	 * Optional: a file descriptor of the page holding the CQ's arm doorbell (cq->uar), for
	 * another process to map (MAP_SHARED, 4 KiB at *off) and arm the CQ through, as
	 * qp_sdb_fd; *desc set when the CQ's event fd gives one struct ib_uverbs_comp_event_desc
	 * per event (a completion channel), clear when it gives a count (an eventfd).
	 * Verbs lock held. @return the fd (the backend keeps it) or -errno.
	 */
	int (*cq_uar_fd)(struct mlx4v_cq *cq, int64_t *off, int *desc);
	/**
	 * Optional: bring a dead device back (recovery=reset, doc/guides/nics/mlx4v.rst,
	 * "Recovery"): the device reset the kernel's mlx4_core makes after a catastrophic error,
	 * after which a new handle on the device works; the handles of the old life stay stale
	 * (their calls fail, their destroys succeed). Verbs lock held. @return 0 or -errno.
	 */
	int (*dev_reset)(void *dev_priv);
};

/** The rdma-core backend (mlx4v_verbs_rdma.c). */
extern const struct mlx4v_verbs_ops mlx4v_rdma_verbs_ops;

/* --- mlx4v_verbs.c: the process-local ops table and the wrappers --------------- */

/** Serialises every public call (taken by the rte_pmd_mlx4v_*() entry points). */
void mlx4v_verbs_lock(void);
void mlx4v_verbs_unlock(void);

/**
 * The body of a public entry point over an internal call that returns 0 or -errno: the call
 * under the verbs lock, its result in the public contract (mlx4v_obj_ret()).
 */
#define MLX4V_VERBS_LOCKED_RET(call) __extension__ ({ \
	int ret_; \
	mlx4v_verbs_lock(); \
	ret_ = (call); \
	mlx4v_verbs_unlock(); \
	mlx4v_obj_ret(ret_); \
})
/** The same over an internal call that returns an object, or NULL with rte_errno set. */
#define MLX4V_VERBS_LOCKED_PTR(call) __extension__ ({ \
	void *p_; \
	mlx4v_verbs_lock(); \
	p_ = (call); \
	mlx4v_verbs_unlock(); \
	mlx4v_obj_ptr(p_); \
})

/**
 * Bind a handle to a backend in the process-local table.
 * @return 0 or -ENOSPC (MLX4V_MAX_CTX handles open).
 */
int mlx4v_verbs_attach(struct mlx4v_ctx *ctx, const struct mlx4v_verbs_ops *ops);
void mlx4v_verbs_detach(struct mlx4v_ctx *ctx);
/** @return the backend of a handle (never NULL for an attached handle). */
const struct mlx4v_verbs_ops *mlx4v_verbs_ops_get(const struct mlx4v_ctx *ctx);

int mlx4v_verbs_ctx_open(struct mlx4v_ctx *ctx, void *dev_priv);
void mlx4v_verbs_ctx_close(struct mlx4v_ctx *ctx);
int mlx4v_verbs_pd_create(struct mlx4v_pd *pd);
int mlx4v_verbs_pd_destroy(struct mlx4v_pd *pd);
int mlx4v_verbs_mr_create(struct mlx4v_mr *mr);
int mlx4v_verbs_mr_destroy(struct mlx4v_mr *mr);
int mlx4v_verbs_cq_create(struct mlx4v_cq *cq);
int mlx4v_verbs_cq_destroy(struct mlx4v_cq *cq);
int mlx4v_verbs_cq_get_event(struct mlx4v_cq *cq);
void mlx4v_verbs_cq_ack_events(struct mlx4v_cq *cq, unsigned int n);
int mlx4v_verbs_srq_create(struct mlx4v_srq *srq);
int mlx4v_verbs_srq_destroy(struct mlx4v_srq *srq);
int mlx4v_verbs_qp_create(struct mlx4v_qp *qp);
int mlx4v_verbs_qp_modify(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state);
int mlx4v_verbs_qp_destroy(struct mlx4v_qp *qp);
int mlx4v_verbs_wq_create(struct mlx4v_wq *wq);
int mlx4v_verbs_wq_modify(struct mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state);
int mlx4v_verbs_wq_destroy(struct mlx4v_wq *wq);
int mlx4v_verbs_wqs_range_set(struct mlx4v_ctx *ctx, uint8_t log_range);
int mlx4v_verbs_ind_create(struct mlx4v_ind *ind);
int mlx4v_verbs_ind_destroy(struct mlx4v_ind *ind);
int mlx4v_verbs_rss_qp_create(struct mlx4v_qp *qp);
int mlx4v_verbs_flow_create(struct mlx4v_flow *flow);
int mlx4v_verbs_flow_destroy(struct mlx4v_flow *flow);
int mlx4v_verbs_port_query(struct mlx4v_ctx *ctx, uint8_t port,
			   struct rte_pmd_mlx4v_port_attr *attr);
int mlx4v_verbs_port_mtu_set(struct mlx4v_ctx *ctx, uint8_t port, uint16_t mtu);
int mlx4v_verbs_qp_sdb_fd(struct mlx4v_qp *qp);
int mlx4v_verbs_cq_uar_fd(struct mlx4v_cq *cq, int64_t *off, int *desc);

/* --- mlx4v_dev.c: registry of devices by EAL name ----------------------------- */

/**
 * Register a device that handles can be opened on.
 * @param name EAL device name.
 * @param ops Its backend.
 * @param priv Backend device state, passed to ops->ctx_open.
 * @param socket NUMA socket, or SOCKET_ID_ANY.
 * @return 0, -EINVAL, -EEXIST or -ENOSPC.
 */
__rte_internal
int mlx4v_dev_register(const char *name, const struct mlx4v_verbs_ops *ops, void *priv,
		       int socket);

/**
 * Unregister a device (its bus remove, or process exit). Whatever is still open on
 * it is force-released first, in dependency order (QPs/WQs, SRQs, CQs, MRs, PDs,
 * then handles) through the ordinary destroy paths, with one WARNING giving the
 * count. Their addresses are then unknown to every public call (EINVAL), and
 * rte_pmd_mlx4v_dev_open() of the name fails with ENODEV.
 * The caller stops anything that polls the objects (the simulator's engine) first.
 * @return 0, -EINVAL (NULL name) or -ENOENT (no such device).
 */
__rte_internal
int mlx4v_dev_unregister(const char *name);

/** @return 1 if a device named name is registered, else 0. Verbs lock held. */
int mlx4v_dev_is_registered(const char *name);

/** What a queue on a port needs (mlx4v_port_check()). */
#define MLX4V_PORT_NEED_ETH (1u << 0)      /**< Ethernet link layer */
#define MLX4V_PORT_NEED_STEERING (1u << 1) /**< device-managed flow steering */
#define MLX4V_PORT_NEED_NET_RAW (1u << 2)  /**< CAP_NET_RAW */

/**
 * Check a port's prerequisites before creating a queue or rule on it, with one log line naming
 * what is missing (doc/guides/nics/running_on_hardware.rst). Verbs lock held.
 * @return 0, -EINVAL (no such port), -EPROTONOSUPPORT (not Ethernet), -ENOTSUP (no
 *   device-managed flow steering), -EPERM (no CAP_NET_RAW).
 */
int mlx4v_port_check(struct mlx4v_ctx *ctx, uint8_t port, unsigned int need);

/* --- mlx4v_recovery.c: recovery from a fatal error (recovery=reset|dead) ----- */

/** The devarg that chooses what follows a fatal error. */
#define MLX4V_RECOVERY_ARG "recovery"

/** Values of recovery=. */
enum mlx4v_recovery_mode {
	MLX4V_RECOVERY_RESET,       /**< reset the device and open it again (the default) */
	MLX4V_RECOVERY_DEAD,        /**< the device stays dead until it is removed */
};

/** Where a device is in its lives (mlx4v_dev_state()). */
enum mlx4v_dev_state {
	MLX4V_DEV_LIVE,             /**< usable; handles of older lives are stale */
	MLX4V_DEV_RECOVERING,       /**< dead, a reset is under way */
	MLX4V_DEV_DEAD,             /**< dead until removed (recovery=dead, or it gave up) */
};

/** @return an enum mlx4v_recovery_mode, or -EINVAL (logged). */
int mlx4v_recovery_parse(const char *value);
/** The recovery= devarg of a device's EAL devargs: the mode, or -EINVAL (logged). */
int mlx4v_recovery_devargs(const struct rte_device *edev);
/** At probe, after mlx4v_dev_register(). */
void mlx4v_recovery_mode_set(const char *name, enum mlx4v_recovery_mode mode);
struct mlx4v_class_event;

/**
 * A backend reported DEAD (mlx4v_class_dev_event(), before the classes hear it): the device
 * is dead, and with recovery=reset recovering. No lock held.
 * @return 1 when mlx4v_recovery_schedule() must follow (after the classes heard DEAD), 0,
 *   or -1 for a death heard already (the device was not live, or ev names an older life):
 *   the classes must not hear it.
 */
int mlx4v_recovery_dead(const char *name, const struct mlx4v_class_event *ev);
/** Schedule the recovery mlx4v_recovery_dead() started. No lock held. */
void mlx4v_recovery_schedule(const char *name);

/**
 * The state of a device and its current life (incremented by each recovery), for a class
 * that rebuilds its objects on the new life. @return an enum mlx4v_dev_state, -ENODEV.
 */
__rte_internal
int mlx4v_dev_state(const char *name, uint32_t *life);

/** Internal open/close (0/-errno conventions). */
struct mlx4v_ctx *mlx4v_dev_open(const char *name);
int mlx4v_dev_close(struct mlx4v_ctx *ctx);

#endif /* _MLX4V_VERBS_H_ */
