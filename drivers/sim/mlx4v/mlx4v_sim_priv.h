/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Internals of the simulated ConnectX-3 shared by the sim/ files. */

#ifndef _MLX4V_SIM_PRIV_H_
#define _MLX4V_SIM_PRIV_H_

#include <pthread.h>
#include <stdint.h>
#include <sys/queue.h>

#include <infiniband/mlx4dv.h>

#include <hwsim_dma.h>
#include <hwsim_fault.h>
#include <hwsim_irq.h>
#include <hwsim_mmio.h>
#include <hwsim_thread.h>
#include <hwsim_wire.h>

#include "mlx4v_class.h"
#include "mlx4v_sim.h"
#include "mlx4v_verbs.h"

/** The simulator backend of the mlx4v verbs seam (mlx4v_sim_verbs.c). */
extern const struct mlx4v_verbs_ops mlx4v_sim_verbs_ops;

#define MLX4V_SIM_MAX_PORTS 4
#define MLX4V_SIM_MAX_CQ 256
#define MLX4V_SIM_MAX_QP 512       /* QPs and WQs share the QP number space */
#define MLX4V_SIM_MAX_SRQ 256
#define MLX4V_SIM_MAX_MR 1024
/* Object numbers never 0: a zero doorbell word is invisible to hwsim_mmio_poll(). */
#define MLX4V_SIM_QPN_BASE 0x40u
#define MLX4V_SIM_MAX_PKT 16384u
/** A port frame's bytes beyond its MTU (FCS aside): Ethernet header and one VLAN tag. */
#define MLX4V_SIM_L2_HLEN 18u
/** The largest MTU of a ConnectX-3 netdev: a 9600-byte frame less header, VLAN tag and FCS. */
#define MLX4V_SIM_MAX_MTU 9578u
#define MLX4V_SIM_TXBB 64u
/* The BlueFlame register of a UAR's BF page, two halves written in turn (prm/mlx4 §4.9). */
#define MLX4V_SIM_BF_REG MLX4V_SIM_BF_REG_SIZE
#define MLX4V_SIM_BF_HALF (MLX4V_SIM_BF_REG / 2)
/* The frames one engine pass sends, queued until the model lock is released. */
#define MLX4V_SIM_TXQ_FRAMES 256u
#define MLX4V_SIM_TXQ_BYTES (256u * 1024)
/* Largest indirection table (log2): the RSS table size the model reports. */
#define MLX4V_SIM_IND_LOG_MAX 8u
#define MLX4V_SIM_RSS_KEY_LEN 40u
/* The caps a ConnectX-3 reports (ibv_query_device()). */
#define MLX4V_SIM_CAP_QP_WR 16351u
#define MLX4V_SIM_CAP_SGE 32u
#define MLX4V_SIM_CAP_CQE 4194303u
#define MLX4V_SIM_CAP_SRQ_WR 16383u
#define MLX4V_SIM_CAP_SRQ_SGE 31u

/** Indexes of the fault knobs (mlx4v_sim_faults.c holds the definitions). */
enum mlx4v_sim_knob {
	MLX4V_SIM_KNOB_STRICT_CQE_OWNER,
	MLX4V_SIM_KNOB_FAIL_ALLOC_PD,
	MLX4V_SIM_KNOB_FAIL_REG_MR,
	MLX4V_SIM_KNOB_FAIL_CREATE_CQ,
	MLX4V_SIM_KNOB_FAIL_CREATE_QP,
	MLX4V_SIM_KNOB_FAIL_CREATE_SRQ,
	MLX4V_SIM_KNOB_FAIL_CREATE_WQ,
	MLX4V_SIM_KNOB_FAIL_MODIFY_QP,
	MLX4V_SIM_KNOB_FAIL_MODIFY_WQ,
	MLX4V_SIM_KNOB_LOSE_CQ_EVENT,
	MLX4V_SIM_KNOB_FAIL_SEND,
	MLX4V_SIM_KNOB_HOST_PAGE,
	MLX4V_SIM_KNOB_IB_PORTS,
	MLX4V_SIM_KNOB_NO_DMFS,
	MLX4V_SIM_KNOB_NO_NET_RAW,
	MLX4V_SIM_KNOB_NETDEV_DOWN,
	MLX4V_SIM_KNOB_VF,
	MLX4V_SIM_KNOB_FATAL,
	MLX4V_SIM_KNOB_SQ_PREFETCH,
	MLX4V_SIM_KNOB_RX_CSUM_UNVERIFIED,
	MLX4V_SIM_KNOB_RQ_ERR_TO_ERR,
	MLX4V_SIM_KNOB_TX_CSUM_PAIR,
	MLX4V_SIM_KNOB_RX_IPV6F_OTHER,
	MLX4V_SIM_KNOB_FAIL_RESET,
	MLX4V_SIM_KNOB_MAX,
};

/** One IOMMU window of an MR: a run of pinned pages at its place in the MR's IOVA range. */
struct mlx4v_sim_mr_win {
	uint64_t iova;
	uintptr_t va;
	size_t len;
};

/**
 * The model's memory protection table entry (MPT): one MR. Its range translates to IOVAs
 * from iova on (the MTT); only the pinned parts of it are mapped in the IOMMU (win[]).
 */
struct mlx4v_sim_mr {
	int used;
	uint32_t lkey;
	uint32_t pdn;
	uintptr_t addr;
	size_t len;
	uint64_t iova;
	struct mlx4v_sim_mr_win *win;
	unsigned int nb_win;
};

struct mlx4v_sim;

/** Report an asynchronous event to the device's classes and to its host (no model lock). */
void mlx4v_sim_report(struct mlx4v_sim *sim, const struct mlx4v_class_event *ev);
/** Create a model (devargs args) and start its engine (mlx4v_sim.c); NULL with rte_errno. */
struct mlx4v_sim *mlx4v_sim_create(const char *name, const char *args, int socket);
/** Stop and free a model of mlx4v_sim_create(), with any object still in it. */
void mlx4v_sim_destroy(struct mlx4v_sim *sim);

/** A CQ as the device sees it. */
struct mlx4v_sim_cq {
	struct mlx4v_sim *sim;
	uint32_t idx;
	uint32_t cqn;
	uint8_t *buf;
	uint32_t cqe_cnt;
	int cqe_size;
	uint32_t *set_ci_db;
	uint32_t *arm_db;
	struct hwsim_mmio_page *page;   /**< this CQ's own UAR page */
	uint32_t pi;                    /**< CQEs produced, running */
	uint32_t last_ci;               /**< last *set_ci_db seen */
	uint32_t armed;                 /**< 0, or the armed command (1 << 24 / 2 << 24) */
	int armed_sn;
	int fired_sn;                   /**< sn of the arm that last fired, -1 before */
	int fd;                         /**< eventfd, -1 without events */
	int error;                      /**< overran: in error, writes no CQE any more */
	int stale;                      /**< of a life before the last device reset */
	int error_pending;              /**< the CQ error event is not reported yet */
};

/** An SRQ as the device sees it. */
struct mlx4v_sim_srq {
	uint32_t idx;
	uint32_t srqn;
	uint32_t pdn;
	uint8_t *buf;
	int wqe_shift;
	uint32_t max;
	uint32_t *db;
	uint32_t hw_head;               /**< next WQE the device takes */
	uint32_t consumed;              /**< WQEs taken, running */
	uint32_t posted;                /**< the doorbell record's count when last read */
	uint32_t limit;                 /**< armed SRQ limit, 0: disarmed (mlx4v_sim_srq.c) */
	int limit_pending;              /**< the limit event is not reported yet */
};

/** The receive side of a QP, or an RWQ. */
struct mlx4v_sim_rq {
	uint32_t num;                   /**< QPN or WQN reported in CQEs */
	unsigned int port;
	int ready;                      /**< QP in RTR/RTS, WQ in RDY */
	uint32_t pdn;
	uint8_t *base;                  /**< first RQ WQE */
	uint32_t wqe_cnt;
	int wqe_shift;
	uint32_t *rdb;
	uint32_t consumer;              /**< WQEs consumed, 16-bit running */
	struct mlx4v_sim_cq *cq;
	struct mlx4v_sim_srq *srq;
};

/** A QP (or, with is_wq, an RWQ) as the device sees it. */
struct mlx4v_sim_qp {
	struct mlx4v_sim *sim;
	uint32_t idx;
	uint32_t qpn;
	uint32_t doorbell_qpn;          /**< BE32(qpn << 8), as software writes it */
	int is_wq;
	int has_rq;
	enum rte_pmd_mlx4v_qp_state state;
	enum rte_pmd_mlx4v_wq_state wq_state; /**< of a WQ */
	uint32_t pdn;
	struct hwsim_mmio_page *page;   /**< this QP's own UAR page (sdb at +0x14) */
	uint8_t *buf;                   /**< whole QP buffer, for the DMA window */
	size_t buf_len;
	/* Send side, walked in 64-byte basic blocks (TXBBs). */
	uint8_t *sq;
	int sq_shift;
	uint32_t sq_wqe_cnt;
	uint32_t txbb_cnt;
	uint32_t pos;                   /**< next TXBB to execute, running */
	uint32_t *last;                 /**< per TXBB: owner_opcode last seen executed */
	/* The prefetcher (mlx4v_sim_sq_prefetch.c), per TXBB. */
	uint32_t *pf_seen;              /**< first dword at its last look (raw) */
	uint8_t *pf_have;               /**< a snapshot is held */
	uint8_t *pf_snap;               /**< the snapshots, 64 bytes each */
	/* BlueFlame copies (mlx4v_sim_bf.c), per WQE stride. */
	uint8_t *bf_wqe;                /**< the WQEs as written to the BF register */
	uint8_t *bf_have;               /**< a copy is held */
	uint16_t *bf_ctr;               /**< its WQE counter */
	unsigned int db_pending;
	int last_wqe_pending;           /**< on an SRQ, gone to ERR: the event not reported yet */
	int stale;                      /**< of a life before the last device reset */
	struct mlx4v_sim_cq *send_cq;
	struct mlx4v_sim_rq rq;
	/* RSS QP: no rings; hashes over its indirection table. */
	int is_rss;
	struct mlx4v_sim_ind *ind;
	uint64_t hash_fields;
	uint8_t key[MLX4V_SIM_RSS_KEY_LEN];
};

/** One physical port on the wire (mlx4v_sim_wire.c). */
struct mlx4v_sim_port {
	struct mlx4v_sim *sim;
	unsigned int port_no;           /**< 1-based */
	struct hwsim_wire_port *wire;
	struct rte_ether_addr mac;      /**< permanent MAC */
	uint16_t mtu;                   /**< the kernel netdev's MTU (atomic) */
	uint32_t link_dirty;            /**< the wire's link changed, not reported yet (atomic) */
	uint32_t down_seen;             /**< went down since the last report (atomic) */
	int oper;                       /**< operational state last reported (atomic) */
	struct mlx4v_sim_port_stats st; /**< rx_* under sim->lock; the rest is unused here */
	uint64_t tx_link_down;          /**< atomic, like the two below */
	uint64_t link_up_events;
	uint64_t link_down_events;
};

/** A frame of the current engine pass waiting for the wire. */
struct mlx4v_sim_txq_ent {
	unsigned int port;
	uint32_t off;                   /**< in txq_buf */
	uint32_t len;
};

/** An RWQ indirection table: consecutive WQs of one range. */
struct mlx4v_sim_ind {
	uint32_t log_size;
	struct mlx4v_sim_qp *wqs[];
};

/** A steering rule on a port, pointing at a QP or an RSS QP. */
struct mlx4v_sim_flow {
	TAILQ_ENTRY(mlx4v_sim_flow) next; /**< creation order */
	int type;                       /**< enum rte_pmd_mlx4v_flow_type */
	unsigned int port;
	uint8_t dmac[6];
	struct mlx4v_flow_rule rule;    /**< the specs, as the device took them */
	struct mlx4v_sim_qp *qp;
};

/** A handle as the device sees it: its WQ number range (the kernel's per-context ranges). */
struct mlx4v_sim_ctx {
	struct mlx4v_sim *sim;
	uint8_t log_range;
	int range_base;                 /**< first slot of the current range, -1 for none */
	uint32_t range_used;            /**< slots of it given out */
	uint32_t life;                  /**< the device's life it was opened in (sim->life) */
};

/** The device state of a handle (ctx->be). */
static inline struct mlx4v_sim_ctx *
mlx4v_sim_ctx_of(const struct mlx4v_ctx *ctx)
{
	return ctx->be;
}

struct mlx4v_sim {
	TAILQ_ENTRY(mlx4v_sim) next;
	char name[RTE_DEV_NAME_MAX_LEN];
	unsigned int nports;
	int pair;                       /**< mode=pair: ports cabled 1<->2, 3<->4 */
	int mode_given;                 /**< mode= was in the devargs */
	struct hwsim_wire_devargs wa;   /**< the wires, MAC and speed from the devargs */
	struct mlx4v_sim_port ports[MLX4V_SIM_MAX_PORTS];
	pthread_mutex_t tx_lock;        /**< the send side of the wire; taken before lock */
	pthread_mutex_t link_lock;      /**< serialises link reports */
	/* The BlueFlame register's halves as written so far (mlx4v_sim_bf.c), under lock. */
	uint8_t bf_buf[2][MLX4V_SIM_BF_HALF];
	uint32_t bf_fill[2];
	uint8_t *txq_buf;               /**< frames sent by this pass (tx_lock and lock held) */
	uint32_t txq_bytes;
	uint32_t txq_n;
	struct mlx4v_sim_txq_ent txq[MLX4V_SIM_TXQ_FRAMES];
	int socket;
	/**
	 * Created by a host that plays the kernel (mlx4v_sim_host_create()): an MR pins any
	 * mapped user memory, as the kernel's ib_umem_get(), not only EAL memory.
	 */
	int hosted;
	mlx4v_sim_host_event_cb host_event; /**< the host's event callback, or NULL */
	void *host_event_arg;
	pthread_mutex_t lock;           /**< the model's state; held by every engine pass */
	struct hwsim_knobs *knobs;
	int dead;                       /**< catastrophic error seen (atomic; latched) */
	int dead_reported;              /**< the DEAD event went to the classes (engine only) */
	uint32_t life;                  /**< device resets so far (atomic; mlx4v_sim_reset.c) */
	struct hwsim_dma *dma;
	struct hwsim_irq *irq;
	struct hwsim_engine *engine;
	struct mlx4v_sim_cq *cqs[MLX4V_SIM_MAX_CQ];
	struct mlx4v_sim_qp *qps[MLX4V_SIM_MAX_QP];
	struct mlx4v_sim_srq *srqs[MLX4V_SIM_MAX_SRQ];
	struct mlx4v_sim_mr mrs[MLX4V_SIM_MAX_MR];
	uint8_t qp_resv[MLX4V_SIM_MAX_QP]; /**< slot held by a WQ range */
	TAILQ_HEAD(, mlx4v_sim_flow) flows;
	uint32_t next_pdn;
	uint8_t lkey_gen;
	uint64_t next_mr_iova;          /**< where the next MR's IOVA range starts */
	unsigned int live[MLX4V_SIM_OBJ_MAX];
	uint64_t misuse[MLX4V_SIM_MISUSE_MAX];
	struct mlx4v_sim_stats stats;
	uint8_t pkt[MLX4V_SIM_MAX_PKT]; /**< the engine's packet buffer */
};

/* mlx4v_sim_faults.c */
struct hwsim_knobs *mlx4v_sim_knobs_create(void);
/** Record a misuse: count it and log it once per occurrence. */
void mlx4v_sim_misuse(struct mlx4v_sim *sim, enum mlx4v_sim_misuse kind,
		      const char *fmt, ...) __rte_format_printf(3, 4);
/** "Fail the next N" knob: returns 1 when this call must fail. */
int mlx4v_sim_knob_take(struct mlx4v_sim *sim, enum mlx4v_sim_knob knob);
int64_t mlx4v_sim_knob(struct mlx4v_sim *sim, enum mlx4v_sim_knob knob);
/**
 * The catastrophic error (the fatal knob): latched the first time it is seen, logged once.
 * Any thread, any lock. @return nonzero once the device is dead.
 */
int mlx4v_sim_dead(struct mlx4v_sim *sim);
/**
 * A handle opened before the last device reset: the kernel disassociated it, its calls fail
 * as on a dead device (doc/guides/sim/mlx4v_sim.rst, "Fatal error"). @return nonzero if so.
 */
int mlx4v_sim_ctx_stale(const struct mlx4v_ctx *ctx);
/**
 * The device's answer to a verbs call on handle ctx: -EIO from a dead device or a stale
 * handle (0 for a call that only releases or resets, which the kernel completes on a dead
 * device), else err when knob (one of the "fail the next N" knobs, or MLX4V_SIM_KNOB_MAX for
 * none) fires, else 0.
 */
int mlx4v_sim_cmd_check(struct mlx4v_sim *sim, const struct mlx4v_ctx *ctx,
			enum mlx4v_sim_knob knob, int err, int releases);
/**
 * The device reset mlx4_core does after a catastrophic error (mlx4v_sim_reset.c): every
 * object of the old life stops, the handles open on it become stale, the device is alive
 * again. Verbs lock held. @return 0 or -EIO (the fail_reset knob).
 */
int mlx4v_sim_reset(void *dev_priv);
/** Devargs keys the knob parser must skip. */
extern const char *const mlx4v_sim_dev_keys[];

/* mlx4v_sim_cq.c */
void mlx4v_sim_cq_init_owner(struct mlx4v_sim_cq *cq);
/**
 * Write one CQE (owner bit last) and raise the event of an armed CQ.
 * @return 0, or -ENOSPC when the CQ overran (the CQE is dropped).
 */
int mlx4v_sim_cq_push(struct mlx4v_sim_cq *cq, struct mlx4_cqe *cqe, int is_err);
void mlx4v_sim_cq_doorbell(void *arg, uint32_t off, uint64_t raw);
/** Fill an error CQE (struct mlx4_err_cqe layout) for a QP. */
void mlx4v_sim_cqe_error(struct mlx4_cqe *cqe, uint32_t qpn, uint16_t wqe_index,
			 uint8_t syndrome, int is_send);
/* mlx4v_sim_rq.c: a WQ in ERR flushes what is posted (knob rq_err_to_err). */
int mlx4v_sim_rq_flush(struct mlx4v_sim *sim, struct mlx4v_sim_rq *rq);
void mlx4v_sim_rq_to_err(struct mlx4v_sim *sim, struct mlx4v_sim_rq *rq);

/* mlx4v_sim_sq.c */
void mlx4v_sim_sq_doorbell(void *arg, uint32_t off, uint64_t raw);
int mlx4v_sim_sq_process(struct mlx4v_sim_qp *qp);
void mlx4v_sim_sq_reset(struct mlx4v_sim_qp *qp);
/* len bytes of the SQ at TXBB pos + off, through the DMA window, wrapping. 0 or -EFAULT. */
int mlx4v_sim_sq_dma_read(struct mlx4v_sim_qp *qp, uint32_t pos, uint32_t off, void *dst,
			  uint32_t len);
/* BlueFlame (mlx4v_sim_bf.c); sim lock held but for alloc/free. */
int mlx4v_sim_bf_alloc(struct mlx4v_sim_qp *qp);
void mlx4v_sim_bf_free(struct mlx4v_sim_qp *qp);
void mlx4v_sim_bf_reset(struct mlx4v_sim_qp *qp);
/* The BF copy of the WQE with counter index (MLX4V_SIM_BF_HALF bytes), or NULL. */
const uint8_t *mlx4v_sim_bf_find(const struct mlx4v_sim_qp *qp, uint16_t index);
/* That copy executed: forget it. */
void mlx4v_sim_bf_done(struct mlx4v_sim_qp *qp, uint16_t index);
/* The prefetcher (mlx4v_sim_sq_prefetch.c); sim lock held but for alloc/free. */
int mlx4v_sim_sq_prefetch_alloc(struct mlx4v_sim_qp *qp);
void mlx4v_sim_sq_prefetch_free(struct mlx4v_sim_qp *qp);
void mlx4v_sim_sq_prefetch_reset(struct mlx4v_sim_qp *qp);
void mlx4v_sim_sq_prefetch_poll_locked(struct mlx4v_sim *sim);
/* Forget the snapshots of the nbb blocks at qp->pos (a WQE posted from elsewhere). */
void mlx4v_sim_sq_prefetch_drop(struct mlx4v_sim_qp *qp, uint32_t nbb);
/* The nbb blocks of the WQE at qp->pos (len bytes in wqe) as prefetched; consumes them. */
void mlx4v_sim_sq_prefetch_apply(struct mlx4v_sim_qp *qp, uint8_t *wqe, uint32_t len,
				 uint32_t nbb);
/**
 * Check [addr, addr + len) against the MR of lkey in PD pdn and translate it.
 * @return 0 with *iova set, or -EACCES after recording an lkey misuse.
 */
int mlx4v_sim_mr_check(struct mlx4v_sim *sim, uint32_t pdn, uint32_t lkey, uint64_t addr,
		       uint64_t len, uint64_t *iova);

/* mlx4v_sim_rq.c */
/**
 * Consume one posted WQE of rq for pkt and complete it, the CQE carrying hash.
 * @return 0, or -ENOBUFS when no WQE is posted.
 */
int mlx4v_sim_rq_consume(struct mlx4v_sim *sim, struct mlx4v_sim_rq *rq, const uint8_t *pkt,
			 uint32_t len, uint32_t hash);
/** A frame arriving on port: steered by its destination MAC (mlx4v_sim_flow_steer()). */
int mlx4v_sim_rq_deliver(struct mlx4v_sim *sim, unsigned int port, const uint8_t *pkt,
			 uint32_t len);

/* mlx4v_sim_csum.c */
/**
 * The receive CQE status of a frame (MLX4V_CQE_STATUS_*, CPU order): packet kind, IP header
 * and TCP/UDP checksum verdicts. unverified (knob rx_csum_unverified): no OK bit for the frame
 * kinds no public source says the port verifies (IPv4 options, UDP over IPv4 without a
 * checksum).
 */
uint32_t mlx4v_sim_csum_rx_status(const uint8_t *f, uint32_t len, int unverified);
/**
 * Compute the checksums a send WQE asks for in its srcrb_flags (CPU order): the IPv4 header
 * (MLX4_WQE_CTRL_IP_HDR_CSUM), TCP or UDP (MLX4_WQE_CTRL_TCP_UDP_CSUM); other frames as is.
 */
void mlx4v_sim_csum_tx_fill(uint8_t *f, uint32_t len, uint32_t srcrb_flags);

/* mlx4v_sim_wire.c */
/**
 * Read the wire devargs (ports= and mode= already parsed), mode= mapped to wires.
 * @return 0 or -EINVAL with one log line.
 */
int mlx4v_sim_wire_args(struct mlx4v_sim *sim, const struct rte_kvargs *kv);
/** Create a wire port per port. @return 0 or -errno (logged), nothing left behind. */
int mlx4v_sim_wire_init(struct mlx4v_sim *sim);
/** Unplug and free the ports; no callback runs into the model afterwards. */
void mlx4v_sim_wire_fini(struct mlx4v_sim *sim);
/** @return nonzero if the pass's send queue can take one more frame (lock held). */
int mlx4v_sim_wire_room(const struct mlx4v_sim *sim);
/** Queue a frame sent on port for the wire (tx_lock and lock held). */
void mlx4v_sim_wire_queue(struct mlx4v_sim *sim, unsigned int port, const uint8_t *pkt,
			  uint32_t len);
/** Put the queued frames on the wire (tx_lock held, lock not). @return frames sent. */
int mlx4v_sim_wire_flush(struct mlx4v_sim *sim);
/** Report link changes as port events (no lock held). @return ports that changed. */
int mlx4v_sim_wire_link_poll(struct mlx4v_sim *sim);

/* mlx4v_sim_verbs.c */
/** @return 0, or -EPERM (logged, naming what) when no_net_raw plays a process without it. */
int mlx4v_sim_net_raw_check(struct mlx4v_sim *sim, const char *what);

/* mlx4v_sim_flow.c */
/**
 * Steer a frame arriving on port through the rules that match dmac (the frame's own, or
 * the send control segment's for loopback) to QPs and, through RSS QPs, to WQs.
 * @return 0 when at least one copy was received, -ENOENT when no rule matched, -ENOBUFS
 *   when the matching receivers had nothing posted.
 */
int mlx4v_sim_flow_steer(struct mlx4v_sim *sim, unsigned int port, const uint8_t *dmac,
			 const uint8_t *pkt, uint32_t len);
/**
 * A frame a QP sent: checks the control segment's MAC, loops it back by a local rule or
 * queues it for the wire (tx_lock and lock held).
 */
void mlx4v_sim_flow_send(struct mlx4v_sim_qp *qp, const uint8_t *wqe, const uint8_t *pkt,
			 uint32_t len);
/**
 * A QP-number slot for a new WQ of a handle, from its current range (a new aligned range
 * when it is used up). Sim lock held. @return the slot, or -1 when none is free.
 */
int mlx4v_sim_wq_slot(struct mlx4v_sim_ctx *sctx);
/** Give the untaken slots of a handle's current range back. Sim lock held. */
void mlx4v_sim_range_release(struct mlx4v_sim_ctx *sctx);
/* Backend ops of the steering objects, called with the verbs lock held. */
int mlx4v_sim_wqs_range_set(struct mlx4v_ctx *ctx, uint8_t log_range);
int mlx4v_sim_ind_create(struct mlx4v_ind *ind);
int mlx4v_sim_ind_destroy(struct mlx4v_ind *ind);
int mlx4v_sim_flow_create(struct mlx4v_flow *flow);
int mlx4v_sim_flow_destroy(struct mlx4v_flow *flow);

/**
 * Take the CQNs of CQs that went in error since the last call (sim lock held).
 * @return how many were written to cqns (at most MLX4V_SIM_MAX_CQ).
 */
unsigned int mlx4v_sim_cq_errors_take(struct mlx4v_sim *sim, uint32_t *cqns);
/** Sim lock held: the device took a WQE of srq; raise the limit event when due. */
void mlx4v_sim_srq_taken(struct mlx4v_sim_srq *srq);
/** Sim lock held: the SRQ limit events to report once the lock is released. @return count. */
unsigned int mlx4v_sim_srq_limits_take(struct mlx4v_sim *sim, uint32_t *srqns);
/** Sim lock held: the last-WQE events of QPs on SRQs to report likewise. @return count. */
unsigned int mlx4v_sim_srq_last_wqe_take(struct mlx4v_sim *sim, uint32_t *qpns);

/* mlx4v_sim.c */
/** One engine pass, with sim->lock held. */
int mlx4v_sim_poll_locked(struct mlx4v_sim *sim);

#endif /* _MLX4V_SIM_PRIV_H_ */
