/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The objects of mlx4v: the structs every backend and provider fill (handle, PD, MR, CQ,
 * SRQ, QP, WQ, indirection table, steering rule), the registry of live objects and the
 * internal object calls behind the public API (doc/guides/platform/layers.rst, "mlx4v
 * providers"). The verbs seam is mlx4v_verbs.h, the providers mlx4v_prov.h.
 */

#ifndef _MLX4V_OBJ_H_
#define _MLX4V_OBJ_H_

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_compat.h>
#include <rte_dev.h>
#include <rte_errno.h>

#include "mlx4v_api.h"
#include "rte_pmd_mlx4v.h"

/** Most handles open at once in one process (size of the process-local ops table). */
#define MLX4V_MAX_CTX 64
/** The smallest host page; rings follow the host's own (struct mlx4v_caps page_size). */
#define MLX4V_PAGE_SIZE 4096u
/** PCI device id of a ConnectX-3 virtual function (SR-IOV). */
#define MLX4V_PCI_DEVICE_CONNECTX3_VF 0x1004
/** Send doorbell offset in the UAR page (mlx4dv.h MLX4_SEND_DOORBELL). */
#define MLX4V_SEND_DOORBELL 0x14u
/** CQ arm doorbell offset in the UAR page (mlx4dv.h MLX4_CQ_DOORBELL). */
#define MLX4V_CQ_DOORBELL 0x20u
/** Scatter terminator and free-list lkey (mlx4dv.h MLX4_INVALID_LKEY). */
#define MLX4V_INVALID_LKEY 0x100u
/** CQ flag: the CQ was handed out as a view; libmlx4 MLX4_CQ_FLAGS_DV_OWNED. */
#define MLX4V_CQ_F_DV_OWNED (1u << 3)

/** Kinds of live objects in the process-local registry. */
enum mlx4v_obj_type {
	MLX4V_OBJ_CTX = 1,
	MLX4V_OBJ_PD,
	MLX4V_OBJ_MR,
	MLX4V_OBJ_CQ,
	MLX4V_OBJ_QP,
	MLX4V_OBJ_SRQ,
	MLX4V_OBJ_WQ,
	MLX4V_OBJ_IND,     /**< RWQ indirection table */
	MLX4V_OBJ_FLOW,    /**< steering rule */
};

struct mlx4v_ctx;

/** Header of every object. Objects are looked up by address before any use. */
struct mlx4v_obj {
	TAILQ_ENTRY(mlx4v_obj) next;   /**< process-local registry of live objects */
	enum mlx4v_obj_type type;
	uint32_t refcnt;               /**< objects that reference this one */
	struct mlx4v_ctx *ctx;         /**< owning handle (itself for a handle) */
};

/** A queue's geometry, as the mlx4dv views report it. */
struct mlx4v_wq_geom {
	uint32_t wqe_cnt;
	int wqe_shift;
	int offset;
};

/**
 * Place a receive and a send queue in one buffer as libmlx4 and mlx4_ib do: the queue with
 * the larger stride first, the SQ first on equal strides. DPDK Tx computes sq.size =
 * rq.offset - sq.offset (prm/mlx4 §5.2), so the order must match libmlx4 bit for bit; a WQ's
 * RQ sits at 0, or at 64 after its one-entry dummy SQ (prm/mlx4 §2.4).
 * @return the bytes both queues take.
 */
static inline size_t
mlx4v_wq_geom_place(struct mlx4v_wq_geom *rq, struct mlx4v_wq_geom *sq)
{
	size_t rq_len = (size_t)rq->wqe_cnt << rq->wqe_shift;
	size_t sq_len = (size_t)sq->wqe_cnt << sq->wqe_shift;

	if (rq->wqe_shift > sq->wqe_shift) {
		rq->offset = 0;
		sq->offset = (int)rq_len;
	} else {
		rq->offset = (int)sq_len;
		sq->offset = 0;
	}
	return rq_len + sq_len;
}

/**
 * What the device reports (ibv_query_device(), and the CQE size of the context): libmlx4
 * checks queue sizes against these, the kernel the SRQ ones.
 */
struct mlx4v_caps {
	uint32_t max_qp_wr;
	uint32_t max_sge;
	uint32_t max_cqe;
	uint32_t max_srq_wr;
	uint32_t max_srq_sge;
	int cqe_size;        /**< 32, or 64 with MLX4_USER_DEV_CAP_LARGE_CQE */
	/**
	 * Host page size rings are aligned to and rounded up to, as libmlx4 does: set to
	 * sysconf(_SC_PAGESIZE) before ctx_open; a simulator that plays another host sets its own.
	 */
	size_t page_size;
	uint32_t nports;     /**< physical ports */
	char fw_ver[64];     /**< firmware version, "" when unknown */
	uint8_t vf;          /**< an SR-IOV virtual function (ConnectX-3 VF, 0x1004) */
};

/** An open handle (libibverbs: struct ibv_context). */
struct mlx4v_ctx {
	struct mlx4v_obj obj;
	char name[RTE_DEV_NAME_MAX_LEN];
	int socket;          /**< NUMA socket of the device, or SOCKET_ID_ANY */
	unsigned int id;     /**< index in the process-local ops table */
	unsigned int nobj;   /**< live objects created on this handle */
	uint8_t log_wqs_range; /**< log2 of the WQ number range (set before the first WQ) */
	uint32_t life;       /**< the device's life at open (recovery, mlx4v_recovery.c) */
	struct mlx4v_caps caps; /**< filled by the backend's ctx_open */
	void *be;            /**< backend state */
};

struct mlx4v_pd {
	struct mlx4v_obj obj;
	uint32_t pdn;
	void *be;
};

struct mlx4v_mr {
	struct mlx4v_obj obj;
	struct mlx4v_pd *pd;
	void *addr;
	size_t len;
	uint32_t lkey;               /**< MLX4V_INVALID_LKEY for a mempool MR of several parts */
	/**
	 * A mempool whose memory is several VA ranges (holes between them): one MR per range,
	 * never published, destroyed with this one; no backend MR of its own. 0 and NULL else.
	 */
	unsigned int nb_parts;
	struct mlx4v_mr **parts;
	void *be;
};

struct mlx4v_cq {
	struct mlx4v_obj obj;
	/* Request. */
	uint32_t cqe_req;
	int with_events;
	/* What the views report (libmlx4 struct mlx4_cq). */
	void *buf;
	size_t buf_len;
	uint32_t cqe_cnt;            /**< entries, a power of two */
	uint32_t cqn;
	uint32_t *set_ci_db;         /**< big-endian; dword 0 of the doorbell record */
	uint32_t *arm_db;            /**< big-endian; dword 1 of the doorbell record */
	int arm_sn;
	int cqe_size;
	void *uar;                   /**< page holding the arm doorbell at +0x20 */
	/* Software state. */
	uint32_t cons_index;         /**< libmlx4's consumer index, used by cq_clean */
	uint32_t flags;              /**< MLX4V_CQ_F_* */
	int event_fd;                /**< -1 without events */
	unsigned int events_pending; /**< raised by the device, not yet taken */
	unsigned int events_unacked; /**< taken, not yet acked */
	int in_error;                /**< the device reported a CQ error (overrun) */
	void *be;
};

struct mlx4v_srq {
	struct mlx4v_obj obj;
	struct mlx4v_pd *pd;
	uint32_t max_wr_req;
	uint32_t max_gs;
	/* What the view reports (libmlx4 struct mlx4_srq). */
	void *buf;
	size_t buf_len;
	int wqe_shift;
	int head;
	int tail;
	uint32_t *db;                /**< big-endian running count of posted WQEs */
	uint32_t max;                /**< WQEs in the ring */
	uint32_t counter;
	uint32_t srqn;
	void *be;
};

struct mlx4v_qp {
	struct mlx4v_obj obj;
	struct mlx4v_pd *pd;
	struct mlx4v_cq *send_cq;
	struct mlx4v_cq *recv_cq;
	struct mlx4v_srq *srq;
	struct rte_pmd_mlx4v_qp_attr attr;  /**< as granted */
	enum rte_pmd_mlx4v_qp_state state;
	uint32_t qpn;
	/* What the view reports (libmlx4 struct mlx4_qp). */
	uint32_t *rdb;               /**< big-endian RQ doorbell record, NULL without RQ */
	uint32_t *sdb;               /**< send doorbell: UAR + 0x14 */
	uint32_t doorbell_qpn;       /**< BE32(qpn << 8) */
	struct mlx4v_wq_geom sq;
	struct mlx4v_wq_geom rq;
	void *buf;
	size_t buf_len;
	int64_t uar_mmap_offset;
	/* libmlx4 software state. */
	uint32_t sq_spare_wqes;
	uint32_t sq_max_post;
	uint32_t sq_max_gs;
	uint32_t max_inline_data;
	uint32_t rq_max_gs;
	/* RSS QP only (no rings of its own): the table it hashes over. */
	struct mlx4v_ind *ind;
	struct rte_pmd_mlx4v_rss_qp_attr rss;  /**< as given; rss.key points at rss_key */
	uint8_t rss_key[RTE_PMD_MLX4V_RSS_KEY_LEN];
	void *be;
};

/** An RWQ indirection table (libibverbs: struct ibv_rwq_ind_table). */
struct mlx4v_ind {
	struct mlx4v_obj obj;
	uint32_t log_size;
	void *be;
	struct mlx4v_wq *wqs[];      /**< 1 << log_size entries */
};

/**
 * Kinds of steering rule as the verbs layer knows them (the values of enum ibv_flow_attr_type):
 * a NORMAL rule matches its specs; the two default rules match no spec and take only what no
 * NORMAL rule of the port took (mlx4_ib maps them to MLX4_FS_ALL_DEFAULT / MLX4_FS_MC_DEFAULT,
 * doc/guides/prm/mlx4.rst §5.4).
 */
enum mlx4v_flow_rule_type {
	MLX4V_FLOW_RULE_NORMAL = 0,      /**< IBV_FLOW_ATTR_NORMAL: one ETH spec, full DMAC mask */
	MLX4V_FLOW_RULE_ALL_DEFAULT = 1, /**< IBV_FLOW_ATTR_ALL_DEFAULT: promiscuous, no spec */
	MLX4V_FLOW_RULE_MC_DEFAULT = 2,  /**< IBV_FLOW_ATTR_MC_DEFAULT: all-multicast, no spec */
};

/**
 * The verbs encoding of a steering rule (struct ibv_flow_attr and its specs), made once by
 * mlx4v_flow_create() from the public attributes: what every backend is handed.
 */
struct mlx4v_flow_rule {
	uint8_t type;          /**< enum mlx4v_flow_rule_type */
	uint8_t num_specs;     /**< ETH, then IPV4, then TCP or UDP for NORMAL; 0 for default */
	uint16_t priority;     /**< ibv_flow_attr priority */
	uint8_t dmac[6];       /**< ETH spec: destination MAC value */
	uint8_t dmac_mask[6];  /**< ETH spec: destination MAC mask */
	uint16_t vlan_tag;     /**< ETH spec: TCI value (network order) */
	uint16_t vlan_tag_mask;
	uint8_t l4;            /**< 0, MLX4V_FLOW_L4_TCP or MLX4V_FLOW_L4_UDP (after IPV4) */
	uint32_t src_ip;       /**< IPV4 spec (num_specs >= 2), network order */
	uint32_t src_ip_mask;
	uint32_t dst_ip;
	uint32_t dst_ip_mask;
	uint16_t src_port;     /**< TCP or UDP spec (num_specs 3), network order */
	uint16_t src_port_mask;
	uint16_t dst_port;
	uint16_t dst_port_mask;
};

/** The L4 spec of a rule (mlx4v_flow_rule l4): IBV_FLOW_SPEC_TCP or IBV_FLOW_SPEC_UDP. */
#define MLX4V_FLOW_L4_TCP 1
#define MLX4V_FLOW_L4_UDP 2

/** A steering rule (libibverbs: struct ibv_flow) attached to a QP or an RSS QP. */
struct mlx4v_flow {
	struct mlx4v_obj obj;
	struct mlx4v_qp *qp;
	struct rte_pmd_mlx4v_flow_attr attr;
	struct mlx4v_flow_rule rule;  /**< attr as the backends receive it */
	void *be;
};

struct mlx4v_wq {
	struct mlx4v_obj obj;
	struct mlx4v_pd *pd;
	struct mlx4v_cq *cq;
	struct rte_pmd_mlx4v_wq_attr attr;  /**< as granted */
	enum rte_pmd_mlx4v_wq_state state;
	uint32_t wqn;
	/* What the view reports. */
	uint32_t *rdb;
	struct mlx4v_wq_geom rq;
	struct mlx4v_wq_geom sq;     /**< the one-entry dummy SQ */
	void *buf;
	size_t buf_len;
	void *be;
};

/* --- mlx4v_obj.c: registry of live objects, init_obj -------------------------- */

/** Allocate a zeroed object in EAL memory on ctx's socket. NULL + rte_errno ENOMEM. */
void *mlx4v_obj_alloc(struct mlx4v_ctx *ctx, enum mlx4v_obj_type type, size_t size);
/** Make an object visible to lookups. */
void mlx4v_obj_publish(struct mlx4v_obj *obj);
/** Hide an object from lookups and free it. */
void mlx4v_obj_free(struct mlx4v_obj *obj);
/**
 * Hide a published object from lookups without freeing it: the last resort of a
 * forced release whose backend destroy failed (the device may still own its memory).
 */
void mlx4v_obj_forget(struct mlx4v_obj *obj);
/**
 * @return the first live object of a kind created on a handle, or NULL.
 * Called with mlx4v_verbs_lock() held.
 */
struct mlx4v_obj *mlx4v_obj_first(const struct mlx4v_ctx *ctx, enum mlx4v_obj_type type);
/**
 * @return the first live handle open on the device named name, or NULL.
 * Called with mlx4v_verbs_lock() held.
 */
struct mlx4v_ctx *mlx4v_obj_first_ctx(const char *name);
/**
 * Call fn on every live object (handles included) open on the device named name, in
 * creation order, until fn returns non-zero. fn must not create or destroy objects.
 * Called with mlx4v_verbs_lock() held.
 * @return fn's non-zero result, or 0.
 */
int mlx4v_obj_foreach(const char *name, int (*fn)(struct mlx4v_obj *obj, void *arg),
		      void *arg);
/**
 * Find a live object by address without dereferencing it first.
 * @return the object, or NULL with rte_errno EINVAL (unknown address or other type).
 */
struct mlx4v_obj *mlx4v_obj_find(const void *p, enum mlx4v_obj_type type);
/** @return -errno of a public wrapper's internal result, stored in errno/rte_errno. */
int mlx4v_obj_ret(int ret);
/** @return p; when NULL, errno gets rte_errno. */
void *mlx4v_obj_ptr(void *p);

/** @return sysconf(_SC_PAGESIZE) (at least MLX4V_PAGE_SIZE). */
size_t mlx4v_host_page_size(void);

/* Internal object calls behind the public API (0/-errno, NULL + rte_errno). */
struct mlx4v_pd *mlx4v_pd_create(struct mlx4v_ctx *ctx);
int mlx4v_pd_destroy(struct mlx4v_pd *pd);
/** Register a range that must be DMA-capable memory throughout (-EFAULT otherwise). */
struct mlx4v_mr *mlx4v_mr_create(struct mlx4v_pd *pd, void *addr, size_t len);

/**
 * Callback of mlx4v_mem_runs(): [va, va + len) is one run of DMA-capable memory.
 * @return 0 to go on, nonzero to stop the walk (returned by mlx4v_mem_runs()).
 */
typedef int (*mlx4v_mem_run_cb)(uintptr_t va, size_t len, void *arg);

/**
 * Walk the parts of [addr, addr + len) that are DMA-capable memory: EAL memory or external
 * memory registered with rte_extmem_register() (both are memseg lists). Calls cb once per
 * VA-contiguous run of allocated segments, clipped to the range, in no particular order; runs
 * never overlap. Takes the EAL memory read lock: not from a memory event callback.
 *
 * @return 0, or the first nonzero value of cb.
 */
__rte_internal
int mlx4v_mem_runs(const void *addr, size_t len, mlx4v_mem_run_cb cb, void *arg);
int mlx4v_mr_destroy(struct mlx4v_mr *mr);
struct mlx4v_cq *mlx4v_cq_create(struct mlx4v_ctx *ctx, int cqe, int cqe_size,
				 int with_events);
int mlx4v_cq_destroy(struct mlx4v_cq *cq);
/**
 * Mark every live CQ numbered cqn on the device named name in error. Verbs lock held.
 * @return how many were marked.
 */
unsigned int mlx4v_cq_mark_error(const char *name, uint32_t cqn);
/** mlx4v_cq_destroy() for a forced release: events taken but never acked are acked. */
int mlx4v_cq_release(struct mlx4v_cq *cq);
struct mlx4v_srq *mlx4v_srq_create(struct mlx4v_pd *pd, uint32_t max_wr, uint32_t max_sge);
int mlx4v_srq_destroy(struct mlx4v_srq *srq);
struct mlx4v_qp *mlx4v_qp_create(struct mlx4v_pd *pd, struct rte_pmd_mlx4v_qp_attr *attr);
/**
 * Checks the attributes of one kind of QP (pd is live) and gives its port.
 * @return 0 or -errno (logged).
 */
typedef int (*mlx4v_qp_check_t)(struct mlx4v_pd *pd, const void *attr, uint8_t *port);
/**
 * The prologue every QP kind shares: the PD is live, check() accepts attr, the port has what
 * need asks (mlx4v_port_check()); then a zeroed QP of pd in RESET with attr.port set, not
 * published. Verbs lock held. @return the QP, or NULL with rte_errno.
 */
struct mlx4v_qp *mlx4v_qp_alloc(struct mlx4v_pd *pd, mlx4v_qp_check_t check, const void *attr,
			       unsigned int need);
int mlx4v_qp_modify(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state);
int mlx4v_qp_destroy(struct mlx4v_qp *qp);
struct mlx4v_wq *mlx4v_wq_create(struct mlx4v_pd *pd, struct rte_pmd_mlx4v_wq_attr *attr);
int mlx4v_wq_modify(struct mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state);
int mlx4v_wq_destroy(struct mlx4v_wq *wq);
/* mlx4v_flow.c: indirection tables, RSS QPs, steering rules. */
int mlx4v_ind_destroy(struct mlx4v_ind *ind);
int mlx4v_flow_destroy(struct mlx4v_flow *flow);
/** Destroy an RSS QP (called by mlx4v_qp_destroy()). */
int mlx4v_rss_qp_destroy(struct mlx4v_qp *qp);

/*
 * The QP state changes the kernel takes for a raw-packet QP (ib_modify_qp_is_ok()): any
 * state to RESET; ERR from any state but RESET; RESET->INIT, INIT->INIT, INIT->RTR,
 * RTR->RTS, RTS->RTS. Both the common layer and the simulator apply it.
 */
static inline int
mlx4v_qp_transition_ok(enum rte_pmd_mlx4v_qp_state cur, enum rte_pmd_mlx4v_qp_state next)
{
	switch (next) {
	case RTE_PMD_MLX4V_QPS_RESET:
		return 1;
	case RTE_PMD_MLX4V_QPS_ERR:
		return cur != RTE_PMD_MLX4V_QPS_RESET;
	case RTE_PMD_MLX4V_QPS_INIT:
		return cur == RTE_PMD_MLX4V_QPS_RESET || cur == RTE_PMD_MLX4V_QPS_INIT;
	case RTE_PMD_MLX4V_QPS_RTR:
		return cur == RTE_PMD_MLX4V_QPS_INIT;
	case RTE_PMD_MLX4V_QPS_RTS:
		return cur == RTE_PMD_MLX4V_QPS_RTR || cur == RTE_PMD_MLX4V_QPS_RTS;
	}
	return 0;
}

/* The WQ state changes mlx4_ib_modify_wq() takes: all but ERR->RDY and RESET->ERR. */
static inline int
mlx4v_wq_transition_ok(enum rte_pmd_mlx4v_wq_state cur, enum rte_pmd_mlx4v_wq_state next)
{
	if ((unsigned int)next > RTE_PMD_MLX4V_WQS_ERR)
		return 0;
	return !(cur == RTE_PMD_MLX4V_WQS_ERR && next == RTE_PMD_MLX4V_WQS_RDY) &&
	       !(cur == RTE_PMD_MLX4V_WQS_RESET && next == RTE_PMD_MLX4V_WQS_ERR);
}

/* Counting references keeps a referenced object from being destroyed (EBUSY). */
static inline void
mlx4v_obj_get(struct mlx4v_obj *obj)
{
	obj->refcnt++;
}

static inline void
mlx4v_obj_put(struct mlx4v_obj *obj)
{
	obj->refcnt--;
}

#endif /* _MLX4V_OBJ_H_ */
