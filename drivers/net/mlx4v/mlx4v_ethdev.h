/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Private definitions of the mlx4v Ethernet PMD (net class of the mlx4v core): the port, Rx
 * and Tx queue structures shared by the control path (mlx4v_ethdev.c, mlx4v_rxq.c,
 * mlx4v_txq.c, mlx4v_ethflow.c, mlx4v_stats.c), the burst functions (mlx4v_rx.c,
 * mlx4v_tx.c) and the interrupt and multi-process code (mlx4v_intr.c, mlx4v_mp.c).
 *
 * Every queue object is made through the public rte_pmd_mlx4v_* API; the data path touches
 * only the mlx4dv views that rte_pmd_mlx4v_init_obj() returns (doc/guides/nics/mlx4v.rst).
 */

#ifndef _MLX4V_ETHDEV_H_
#define _MLX4V_ETHDEV_H_

#include <stdint.h>
#include <sys/queue.h>

#include <ethdev_driver.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "mlxv_ethdev_stats.h"
#include "mlxv_mp_bursts.h"
#include "rte_pmd_mlx4v.h"

extern int mlx4v_ethdev_logtype;

/** Log line of the PMD (pmd.net.mlx4v). */
#define MLX4V_ETH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx4v_ethdev_logtype, "net_mlx4v: " fmt "\n", ## __VA_ARGS__)

/** Most Rx or Tx queues of a port. */
#define MLX4V_ETH_MAX_QUEUES 16
/** Most unicast MAC addresses of a port (one steering rule each). */
#define MLX4V_ETH_MAX_MAC 32
/** Addresses of the multicast address list (set_mc_addr_list), one rule each. */
#define MLX4V_ETH_MAX_MC 32
/** Fewest descriptors of a ring. */
#define MLX4V_ETH_RING_MIN 64
/** Mbuf segments per Tx packet: data segments of one send WQE, less control. */
#define MLX4V_ETH_TX_MAX_SEGS 30
/** log2 of the most mbufs a receive WQE scatters over (SGEs per WQE, power of two). */
#define MLX4V_ETH_RX_MAX_SGES_LOG 4
/** Replacement mbufs an Rx burst takes from the mempool API when its cache has too few. */
#define MLX4V_ETH_RX_STOCK 64
/** Toeplitz key bytes of the RSS QP. */
#define MLX4V_ETH_RSS_KEY_LEN RTE_PMD_MLX4V_RSS_KEY_LEN
/** Entries of the redirection table ethdev sees (one 64-entry group). */
#define MLX4V_ETH_RETA_SIZE 64
/** Bytes the MTU does not count: Ethernet header, one VLAN tag, FCS. */
#define MLX4V_ETH_MTU_OVERHEAD (RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN)
/** Largest frame of a ConnectX-3 port (hardware MTU 9600 less the overhead). */
#define MLX4V_ETH_MAX_MTU (9600 - MLX4V_ETH_MTU_OVERHEAD)
/** Mempools of a port with a memory region (Rx pools, then Tx pools as they are seen). */
#define MLX4V_ETH_MAX_MR 32

/**
 * The RSS flow types the RSS QP can hash (IPv4/IPv6 addresses, TCP/UDP ports): RTE_ETH_RSS_IP,
 * _TCP and _UDP, as DPDK's mlx4 advertises them; the _EX types hash as their IPv6 types (the
 * QP knows no extension header).
 */
#define MLX4V_ETH_RSS_HF (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | \
			  RTE_ETH_RSS_NONFRAG_IPV4_OTHER | RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
			  RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_IPV6 | \
			  RTE_ETH_RSS_FRAG_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_OTHER | \
			  RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_NONFRAG_IPV6_UDP | \
			  RTE_ETH_RSS_IPV6_EX | RTE_ETH_RSS_IPV6_TCP_EX | RTE_ETH_RSS_IPV6_UDP_EX)

/** The RSS types hashed when the application names none. */
#define MLX4V_ETH_RSS_HF_DEFAULT ((RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) & \
				  MLX4V_ETH_RSS_HF)

/** What the PMD reads from the device and its port at probe. */
struct mlx4v_ethdev_caps {
	uint32_t max_qp_wr;         /**< send/receive WRs of one queue */
	uint32_t max_sge;           /**< SGEs of one WQE */
	uint32_t max_cqe;           /**< entries of one CQ */
	uint32_t nports;            /**< physical ports of the device */
	uint32_t max_mtu;           /**< L3 MTU limit of the port */
	char fw_ver[64];            /**< firmware version string, "" when unknown */
	uint8_t vf;                 /**< an SR-IOV virtual function */
};

/** An Rx queue: a receive WQ (RWQ) and its CQ, driven through their mlx4dv views. */
struct mlx4v_rxq {
	/* ---- Data path (mlx4v_rx.c), hot. ---- */
	struct mlx4dv_rwq rwq;         /**< the WQ's view: ring, stride, doorbell record */
	struct mlx4dv_cq cqv;          /**< the CQ's view: ring, set_ci_db, arm_db, cqe_size */
	struct rte_mbuf **elts;        /**< (wqe_n << sges_log) mbufs: each WQE's SGEs in order */
	uint32_t rq_ci;                /**< WQEs posted, running (the doorbell record's low 16) */
	uint32_t rq_tail;              /**< WQEs completed, running */
	uint32_t cq_ci;                /**< CQEs consumed, running */
	uint32_t arm_sn;               /**< CQ arm sequence number (Rx interrupts) */
	uint32_t wqe_n;                /**< WQEs of the ring (a power of two) */
	uint32_t wqe_mask;             /**< wqe_n - 1 */
	uint8_t sges_log;              /**< log2 of SGEs per WQE: 0 unless scattered Rx */
	uint8_t scatter;               /**< frames may span (1 << sges_log) mbufs */
	uint8_t csum;                  /**< RTE_ETH_RX_OFFLOAD_*_CKSUM asked: set ol_flags */
	uint8_t rss_hash;              /**< RTE_ETH_RX_OFFLOAD_RSS_HASH asked */
	uint8_t crc_present;           /**< keep CRC: never (the device strips it) */
	uint32_t seg_size;             /**< bytes of one mbuf buffer (data room - headroom) */
	uint32_t lkey;                 /**< of mp (rte_pmd_mlx4v_reg_mempool()) */
	uint32_t mr_n;                 /**< VA ranges of mp: > 1, an lkey per buffer by mr_ranges */
	const struct rte_pmd_mlx4v_mr_range *mr_ranges; /**< mp's ranges (the port's MR table) */
	uint16_t port_id;
	uint16_t idx;
	struct rte_mempool *mp;
	uint64_t packets, bytes;       /**< software counters */
	uint64_t errors;               /**< error CQEs seen (the queue recovers) */
	uint64_t nombuf;               /**< frames dropped for want of mbufs */
	uint64_t stats_base[MLXV_STATS_N]; /**< the counters at the last reset */
	uint32_t recover;              /**< 0, or the control thread resets the WQ (atomic) */
	uint8_t err_seen;              /**< this burst read a flush CQE: the WQ is in ERR */
	uint64_t recoveries;           /**< WQ taken through RESET after an error CQE */
	/* Data path, set by mlx4v_rxq_fill() from the views. */
	uint8_t *wqes;                 /**< the RQ ring: rwq.buf.buf + rwq.rq.offset */
	uint8_t *cqes;                 /**< the first 32-byte CQE (+32 with 64-byte CQEs) */
	uint32_t cq_mask;              /**< cqv.cqe_cnt - 1 */
	uint8_t cqe_shift;             /**< log2 of the CQE slot size */
	uint8_t cq_log;                /**< log2 of cqv.cqe_cnt: the owner bit's pass parity */
	uint64_t mbuf_init;            /**< rearm_data of a received mbuf */
	uint8_t vec;                   /**< the SSE loop (x86): one mbuf per WQE, one lkey */
	uint32_t buf_off;              /**< an mbuf's data at start: mbuf + buf_off */
	/**
	 * The replacement mbufs of one burst when the mempool's lcore cache cannot give them
	 * (mlx4v_rx.c), given back by the burst.
	 */
	struct rte_mbuf *stock[MLX4V_ETH_RX_STOCK];
	/* ---- Control (mlx4v_rxq.c). ---- */
	uint16_t nb_desc;              /**< ring size asked for: a power of two */
	int socket;
	uint64_t offloads;             /**< Rx offloads of the queue and the port */
	struct rte_eth_dev *eth_dev;
	struct rte_pmd_mlx4v_cq *cq;   /**< at start; NULL when stopped */
	struct rte_pmd_mlx4v_wq *wq;   /**< at start */
	uint32_t wqn;                  /**< at start */
	uint32_t cq_size;              /**< CQEs of the CQ (>= wqe_n) */
	int with_events;               /**< the CQ was made with completion events */
	int ready;                     /**< WQ in RDY, ring filled */
	int intr_enabled;              /**< mlx4v_intr.c: Rx interrupt armed by the user */
	/*
	 * Rx interrupts (mlx4v_intr.c), shared by the processes: the one that uses the queue's
	 * interrupt, the primary or a secondary, keeps arm_sn and intr_armed.
	 */
	uint64_t intr_armed;           /**< CQ armed with sn and not fired since: 1 + sn, or 0 */
	uint32_t intr_foreign;         /**< events a secondary took, for the primary to ack */
	uint8_t intr_desc;             /**< the CQ's event fd gives descriptors (mlx4v_cq_share) */
};

/** Where a Tx queue is with errors (mlx4v_txq::recover). */
enum mlx4v_tx_state {
	MLX4V_TX_RUNNING = 0,          /**< sending */
	MLX4V_TX_DRAINING,             /**< an error CQE came: the burst reaps the flushed WQEs */
	MLX4V_TX_RECOVERING,           /**< drained: the control thread takes the QP to RTS */
};

/** A Tx queue: a raw-packet QP and its CQ, driven through their mlx4dv views. */
struct mlx4v_txq {
	/* ---- Data path (mlx4v_tx.c), hot. ---- */
	/*
	 * The QP is made with max_send_sge 1 and no inline data, as DPDK's mlx4 does: its SQ
	 * stride is one 64-byte WQEBB; a WQE of several segments spans several WQEBBs.
	 */
	struct mlx4dv_qp qpv;          /**< the QP's view: SQ ring, stride, send doorbell */
	struct mlx4dv_cq cqv;          /**< the CQ's view */
	struct rte_mbuf **elts;        /**< the packet of each WQE slot (sq_n entries) */
	uint32_t sq_head;              /**< WQEBBs posted, running (owner bit = bit log2(n)) */
	uint32_t sq_tail;              /**< WQEBBs known completed, running */
	uint32_t sq_n;                 /**< WQEBBs of the SQ (qpv.sq.wqe_cnt << stride_log) */
	uint32_t sq_mask;              /**< sq_n - 1 */
	uint32_t max_post;             /**< WQEBBs in flight at most (spare kept for prefetch) */
	uint32_t cq_ci;                /**< CQEs consumed, running */
	uint32_t comp_thresh;          /**< ask for a completion every this many WQEs */
	uint32_t comp_pending;         /**< WQEs since the last completion asked for */
	uint32_t doorbell_qpn;         /**< the value the send doorbell takes (QPN << 8, BE) */
	uint32_t lkey;                 /**< lkey of mp_last (mlx4v_ethdev_mr_lookup()) */
	struct rte_mempool *mp_last;   /**< the last mempool looked up (lkey cache) */
	uint32_t mr_n;                 /**< VA ranges of mp_last: > 1, lkey by address */
	const struct rte_pmd_mlx4v_mr_range *mr_ranges; /**< mp_last's ranges */
	uint8_t csum;                  /**< IPv4/TCP/UDP checksum offloads asked */
	uint8_t dmac_in_ctrl;          /**< the destination MAC goes in the control segment (VF) */
	uint16_t port_id;
	uint16_t idx;
	uint64_t packets, bytes;       /**< software counters */
	uint64_t errors;               /**< packets refused (too many segments, no lkey) */
	uint64_t err_cqes;             /**< error CQEs seen (the queue recovers) */
	uint64_t stats_base[MLXV_STATS_N]; /**< the counters at the last reset */
	/* Data path, set by mlx4v_txq_reset() from the views. */
	uint8_t *sq_buf;               /**< the SQ ring: qpv.buf.buf + qpv.sq.offset */
	uint8_t *cqes;                 /**< the first 32-byte CQE (+32 with 64-byte CQEs) */
	uint32_t cq_mask;              /**< cqv.cqe_cnt - 1 */
	uint8_t cqe_shift;             /**< log2 of the CQE slot size */
	uint8_t cq_log;                /**< log2 of cqv.cqe_cnt: the owner bit's pass parity */
	uint8_t sq_log;                /**< log2 of sq_n: the owner bit's pass parity */
	uint8_t stride_log;            /**< log2 of the SQ stride in WQEBBs (sq.wqe_shift - 6) */
	uint32_t stride_bbs;           /**< WQEBBs of one stride: the fewest a WQE takes */
	uint32_t max_segs;             /**< mbuf segments of one packet at most */
	uint32_t recover;              /**< enum mlx4v_tx_state (atomic with the control thread) */
	uint64_t recoveries;           /**< times the QP was taken back to RTS */
	uint32_t slow_end;             /**< sq_head after the last WQE mlx4v_tx_retire() walks */
	uint8_t fast_free;             /**< RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE asked */
	/* ---- Control (mlx4v_txq.c). ---- */
	uint16_t nb_desc;
	int socket;
	uint64_t offloads;             /**< Tx offloads of the queue and the port */
	struct rte_eth_dev *eth_dev;
	struct rte_pmd_mlx4v_cq *cq;   /**< at start; NULL when stopped */
	struct rte_pmd_mlx4v_qp *qp;   /**< at start */
	uint32_t qpn;                  /**< at start */
	uint32_t max_inline;           /**< inline bytes granted */
	int ready;                     /**< QP in RTS */
};

/** A mempool registered for the device (rte_pmd_mlx4v_reg_mempool()). */
struct mlx4v_ethdev_mr {
	struct rte_mempool *mp;
	struct rte_pmd_mlx4v_mr *mr;
	uint32_t lkey;                 /**< of the first range (the only one, usually) */
	unsigned int n_ranges;         /**< VA ranges of the pool, one lkey each */
	struct rte_pmd_mlx4v_mr_range *ranges; /**< in address order (rte_malloc) */
};

/**
 * The lkey of the range of a pool's MR holding addr (ranges in address order, n > 1: a pool
 * over a hole, rte_pmd_mlx4v_reg_mempool()). @return 0, or -1 when no range holds it.
 */
static inline int
mlx4v_mr_range_lkey(const struct rte_pmd_mlx4v_mr_range *r, uint32_t n, uintptr_t addr,
		    uint32_t *lkey)
{
	uint32_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (addr < r[mid].addr)
			hi = mid;
		else if (addr - r[mid].addr >= r[mid].len)
			lo = mid + 1;
		else {
			*lkey = r[mid].lkey;
			return 0;
		}
	}
	return -1;
}

struct mlx4v_intr;
struct rte_flow;

/**
 * Port private data (dev_private). The rte_pmd_mlx4v_* object pointers are the primary
 * process's: a secondary process never follows them.
 */
struct mlx4v_ethdev_priv {
	char name[RTE_DEV_NAME_MAX_LEN]; /**< the mlx4v device's EAL name */
	uint8_t port;                    /**< physical port, 1-based */
	uint16_t port_id;
	struct mlx4v_ethdev_caps caps;
	struct rte_pmd_mlx4v_dev *dev;   /**< the port's handle, open from probe to close */
	struct rte_pmd_mlx4v_pd *pd;     /**< probe to close */
	/* Receive steering, made at start (mlx4v_ethflow.c). */
	struct rte_pmd_mlx4v_ind_table *ind; /**< over the Rx queues' WQs */
	struct rte_pmd_mlx4v_qp *rss_qp;     /**< in RTR, the target of every rule */
	uint32_t ind_log;                    /**< log2 of the table's WQs */
	uint16_t ind_base;                   /**< first Rx queue of the table */
	struct rte_pmd_mlx4v_flow *flow_mac[MLX4V_ETH_MAX_MAC]; /**< per mac_addrs[] entry */
	struct rte_pmd_mlx4v_flow *flow_bcast;
	struct rte_pmd_mlx4v_flow *flow_mc[MLX4V_ETH_MAX_MC]; /**< per mc[] entry */
	struct rte_ether_addr mc[MLX4V_ETH_MAX_MC]; /**< multicast address list */
	uint32_t nb_mc;
	struct rte_pmd_mlx4v_flow *flow_promisc;
	struct rte_pmd_mlx4v_flow *flow_allmulti;
	/* The application's rules (mlx4v_rte_flow.c). */
	TAILQ_HEAD(mlx4v_flow_list, rte_flow) flows; /**< kept while stopped, applied at start */
	int isolated;                    /**< rte_flow_isolate(): none of the rules above */
	struct rte_pmd_mlx4v_cq *drop_cq; /**< while started, with a DROP rule */
	struct rte_pmd_mlx4v_qp *drop_qp; /**< its RQ is never posted to: what reaches it drops */
	int promisc;                     /**< asked state; rules follow while started */
	int allmulti;
	int started;
	int dead;                        /**< the device failed: control calls fail fast */
	uint32_t life;                   /**< the device's life of dev and pd (recovery) */
	int wqs_range_set;               /**< set_wqs_range done on dev */
	uint8_t rss_key[MLX4V_ETH_RSS_KEY_LEN];
	uint64_t rss_hf;
	uint16_t reta[MLX4V_ETH_RETA_SIZE]; /**< Rx queue of each redirection entry */
	int reta_set;                    /**< the application gave a RETA (else the default) */
	/* Memory regions of the mempools the queues use. */
	rte_spinlock_t mr_lock;
	unsigned int n_mr;
	struct mlx4v_ethdev_mr mrs[MLX4V_ETH_MAX_MR];
	/* Counters kept across queue release (stats reset zeroes them too). */
	uint64_t rx_nombuf_acc;
	/* Interrupts and link events (mlx4v_intr.c owns what this points to). */
	struct mlx4v_intr *intr;
	int link_up;                     /**< last state the device reported */
	uint32_t link_speed;             /**< Mb/s, RTE_ETH_SPEED_NUM_NONE when unknown */
};

/** @return the private data of a port. */
static inline struct mlx4v_ethdev_priv *
mlx4v_priv(const struct rte_eth_dev *eth_dev)
{
	return eth_dev->data->dev_private;
}

/**
 * What the data path of a port reaches differently in each process (eth_dev->process_private,
 * as DPDK mlx4's per-process UAR table): each Tx queue's send doorbell and, with Rx
 * interrupts, each Rx CQ's arm doorbell page. The primary rings the addresses of the views; a
 * secondary its own mappings of the same pages, from file descriptors the primary sends
 * (mlx4v_mp.c, doc/guides/nics/mlx4v.rst "Secondary processes").
 */
struct mlx4v_ethdev_proc {
	uint32_t *sdb[MLX4V_ETH_MAX_QUEUES];  /**< the send doorbells, NULL while stopped */
	void *map[MLX4V_ETH_MAX_QUEUES];      /**< a secondary's mappings of their pages */
	uint8_t *cq_uar[MLX4V_ETH_MAX_QUEUES]; /**< Rx interrupts: each Rx CQ's arm page */
	void *cq_map[MLX4V_ETH_MAX_QUEUES];   /**< a secondary's mappings of those pages */
};

/** @return the port's per-process data path state (set from probe or attach). */
static inline struct mlx4v_ethdev_proc *
mlx4v_ethdev_proc(uint16_t port_id)
{
	return rte_eth_devices[port_id].process_private;
}

/* ---- mlx4v_ethdev.c ---- */

/**
 * The lkey of a mempool, registering it on first use (any lcore; serialised per port). A pool
 * over holes has an lkey per VA range: then *lkey is the first range's, and ranges/n_ranges
 * (when not NULL) give them all, for the lifetime of the port's MRs.
 * @return 0 or -errno (-ENOSPC: MLX4V_ETH_MAX_MR pools already, -ENOTUNIQ: several ranges and
 *   ranges NULL, or the registration error).
 */
int mlx4v_ethdev_mr_lookup(struct rte_eth_dev *eth_dev, struct rte_mempool *mp,
			   uint32_t *lkey, const struct rte_pmd_mlx4v_mr_range **ranges,
			   uint32_t *n_ranges);
/** Deregister every mempool of the port (closed: no queue uses them). */
void mlx4v_ethdev_mr_release_all(struct rte_eth_dev *eth_dev);
/** ethdev dev_stop. @return 0. */
int mlx4v_ethdev_stop(struct rte_eth_dev *eth_dev);
/** Release every queue of the port (close, reset). */
void mlx4v_ethdev_queues_release(struct rte_eth_dev *eth_dev);
/** Memory regions, PD and handle of the port, in reverse order of probe (idempotent). */
void mlx4v_ethdev_free(struct rte_eth_dev *eth_dev);
/**
 * Set dev_link from the state the device last reported (link_up, link_speed): no device
 * call, so an event callback may use it. @return 0 if it changed, -1 if not.
 */
int mlx4v_ethdev_link_publish(struct rte_eth_dev *eth_dev, int wait_to_complete);
/**
 * The ethdev name of port (1-based) of the mlx4v device name, as DPDK's mlx4 names its
 * ports: "<device> port <n>". @return snprintf()'s result.
 */
int mlx4v_ethdev_name(char *buf, size_t len, const char *name, unsigned int port);
/** Highest physical port number a device may have (the simulator's limit). */
#define MLX4V_ETH_MAX_PORTS 4

/* ---- mlx4v_rxq.c / mlx4v_txq.c: queue setup, and their objects at start ---- */

/**
 * Check a ring size (a power of two within the device's limit), else an error naming
 * queue `what` idx. @return 0 or -EINVAL.
 */
int mlx4v_ethdev_ring_check(struct rte_eth_dev *eth_dev, const char *what, uint16_t idx,
			    uint16_t nb_desc);
int mlx4v_rxq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		    unsigned int socket, const struct rte_eth_rxconf *conf,
		    struct rte_mempool *mp);
void mlx4v_rxq_release(struct rte_eth_dev *eth_dev, uint16_t idx);
/** CQ, WQ, views, ring filled. @return 0 or -errno with nothing left. */
int mlx4v_rxq_create(struct rte_eth_dev *eth_dev, struct mlx4v_rxq *rxq);
/** WQ to RESET, drain, destroy WQ and CQ (idempotent). */
void mlx4v_rxq_destroy(struct rte_eth_dev *eth_dev, struct mlx4v_rxq *rxq);
void mlx4v_rxq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_rxq_info *qinfo);
int mlx4v_txq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		    unsigned int socket, const struct rte_eth_txconf *conf);
void mlx4v_txq_release(struct rte_eth_dev *eth_dev, uint16_t idx);
/** CQ, raw-packet QP to RTS, views. @return 0 or -errno with nothing left. */
int mlx4v_txq_create(struct rte_eth_dev *eth_dev, struct mlx4v_txq *txq);
void mlx4v_txq_destroy(struct rte_eth_dev *eth_dev, struct mlx4v_txq *txq);
/**
 * ethdev tx_burst_mode_get: "Scalar", or "Scalar multi-segment" with the MULTI_SEGS offload.
 * @return 0, or -EINVAL for a queue not set up.
 */
int mlx4v_tx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			    struct rte_eth_burst_mode *mode);
void mlx4v_txq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_txq_info *qinfo);

/* ---- mlx4v_ethflow.c: indirection table, RSS QP, steering rules ---- */

/** Table, RSS QP to RTR, rules. @return 0 or -errno with nothing left. */
int mlx4v_ethflow_create(struct rte_eth_dev *eth_dev);
/** Rules, RSS QP, table (idempotent). */
void mlx4v_ethflow_destroy(struct rte_eth_dev *eth_dev);
/**
 * Make the rules follow mac_addrs[], promisc and allmulti, or isolated (none of them); no-op
 * while stopped.
 */
int mlx4v_ethflow_sync(struct rte_eth_dev *eth_dev);
int mlx4v_ethflow_rss_hash_update(struct rte_eth_dev *eth_dev,
				  struct rte_eth_rss_conf *conf);
int mlx4v_ethflow_rss_hash_conf_get(struct rte_eth_dev *eth_dev,
				    struct rte_eth_rss_conf *conf);
int mlx4v_ethflow_reta_update(struct rte_eth_dev *eth_dev,
			      struct rte_eth_rss_reta_entry64 *conf, uint16_t size);
int mlx4v_ethflow_reta_query(struct rte_eth_dev *eth_dev,
			     struct rte_eth_rss_reta_entry64 *conf, uint16_t size);
/**
 * Point the steering rule of mac_addrs[index] at mac (NULL: remove it). The new rule is made
 * before the old one goes, so the port never misses frames to either. No-op while stopped or
 * isolated.
 * @return 0 or -errno (the old rule stays).
 */
int mlx4v_ethflow_mac_set(struct rte_eth_dev *eth_dev, uint32_t index,
			  const struct rte_ether_addr *mac);
/**
 * The multicast address list: n multicast addresses, one full-mask MAC rule each while
 * started. @return 0 or -errno (the old list stays).
 */
int mlx4v_ethflow_mc_set(struct rte_eth_dev *eth_dev, const struct rte_ether_addr *list,
			 uint32_t n);
/**
 * An RSS context: an indirection table over the WQs of Rx queues base to base + (1 << log) - 1
 * (started) and an RSS QP in RTR hashing hash_fields over it with key.
 * @return 0 or -errno (logged) with nothing left.
 */
int mlx4v_ethflow_rss_ctx(struct rte_eth_dev *eth_dev, uint16_t base, uint32_t log,
			  uint64_t hash_fields, const uint8_t *key,
			  struct rte_pmd_mlx4v_ind_table **ind, struct rte_pmd_mlx4v_qp **qp);
/** Destroy an RSS context's QP, then its table; both NULL after (idempotent). */
void mlx4v_ethflow_rss_ctx_destroy(struct rte_eth_dev *eth_dev,
				   struct rte_pmd_mlx4v_ind_table **ind,
				   struct rte_pmd_mlx4v_qp **qp);
/** The RSS QP hash fields of an rss_hf (RTE_PMD_MLX4V_RX_HASH_*). */
uint64_t mlx4v_ethflow_hash_fields(uint64_t rss_hf);

/* ---- mlx4v_rte_flow.c: the generic flow API (rte_flow) ---- */

/** ethdev flow_ops_get. */
int mlx4v_flow_ops_get(struct rte_eth_dev *eth_dev, const struct rte_flow_ops **ops);
/** The application's rules on the device (start, after the queues). @return 0 or -errno. */
int mlx4v_flow_start(struct rte_eth_dev *eth_dev);
/** The application's rules off the device, kept for the next start (idempotent). */
void mlx4v_flow_stop(struct rte_eth_dev *eth_dev);
/** Destroy the drop QP and its CQ (idempotent). */
void mlx4v_flow_drop_qp_destroy(struct rte_eth_dev *eth_dev);
/** Free every rule of the application (close, reset). */
void mlx4v_flow_release(struct rte_eth_dev *eth_dev);

/* ---- mlx4v_stats.c: software counters of the queues ---- */

int mlx4v_stats_get(struct rte_eth_dev *eth_dev, struct rte_eth_stats *stats);
int mlx4v_stats_reset(struct rte_eth_dev *eth_dev);
int mlx4v_xstats_get(struct rte_eth_dev *eth_dev, struct rte_eth_xstat *xstats,
		     unsigned int n);
int mlx4v_xstats_get_names(struct rte_eth_dev *eth_dev, struct rte_eth_xstat_name *names,
			   unsigned int size);

/* ---- mlx4v_rx.c / mlx4v_tx.c: burst functions and ring state (data path) ---- */

uint16_t mlx4v_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n);
uint16_t mlx4v_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t n);
/** Frames waiting in an Rx queue (rte_eth_rx_queue_count()): CQEs software owns; -EINVAL: none. */
uint32_t mlx4v_rx_queue_count(void *rxq);
/**
 * Post mbufs on every WQE of a new RWQ (start; views filled, WQ in RDY after).
 * @return 0 or -ENOMEM with nothing left.
 */
int mlx4v_rxq_fill(struct mlx4v_rxq *rxq);
/** Stop a pending Rx recovery (mlx4v_rx.c) before the queue goes away; waits for a running one. */
void mlx4v_rxq_recover_cancel(struct mlx4v_rxq *rxq);
/** Free the mbufs of the ring (stop, after the WQ went to RESET). */
void mlx4v_rxq_drain(struct mlx4v_rxq *rxq);
/** Reset the Tx indexes for a new QP (start; views filled). */
void mlx4v_txq_reset(struct mlx4v_txq *txq);
/**
 * Whether the views of a new QP and CQ suit the burst (start, views filled, before
 * mlx4v_txq_reset()): SQ large enough, CQ with one entry per WQE.
 * @return 0 or -EINVAL (logged).
 */
int mlx4v_txq_check(const struct mlx4v_txq *txq);
/** ethdev tx_done_cleanup: reap the completions. @return packets freed. */
int mlx4v_tx_done_cleanup(void *txq, uint32_t free_cnt);
/** Free the mbufs still on the SQ (stop). */
void mlx4v_txq_drain(struct mlx4v_txq *txq);
/**
 * ethdev rx_burst_mode_get: "Vector SSE" (x86, one mbuf per WQE, a pool of one lkey),
 * "Scalar" or "Scalar scattered". @return 0.
 */
int mlx4v_rx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			    struct rte_eth_burst_mode *mode);
/** Rx offloads the data path can do. */
uint64_t mlx4v_rx_offload_capa(void);
/** Tx offloads the data path can do. */
uint64_t mlx4v_tx_offload_capa(void);
/** Packet types the Rx burst sets. */
const uint32_t *mlx4v_rx_ptypes_get(struct rte_eth_dev *eth_dev);

/* ---- mlx4v_intr.c: Rx interrupts by CQ arm, link state, removal ---- */

/**
 * At probe: the port's interrupt handle (eth_dev->intr_handle) and LSC/RMV state; may set
 * RTE_ETH_DEV_INTR_LSC / RTE_ETH_DEV_INTR_RMV. @return 0 or -errno.
 */
int mlx4v_intr_install(struct rte_eth_dev *eth_dev);
/** At close: no event is raised any more; what install made is freed (idempotent). */
void mlx4v_intr_uninstall(struct rte_eth_dev *eth_dev);
/**
 * At start, after the Rx queues' CQs (made with events when intr_conf.rxq): their event fds
 * in the interrupt handle. @return 0 or -errno with nothing left.
 */
int mlx4v_intr_rx_create(struct rte_eth_dev *eth_dev);
/** At stop, before the Rx queues' CQs go: undo mlx4v_intr_rx_create() (idempotent). */
void mlx4v_intr_rx_destroy(struct rte_eth_dev *eth_dev);
/** ethdev rx_queue_intr_enable: arm the queue's CQ. @return 0 or -errno. */
int mlx4v_intr_rx_enable(struct rte_eth_dev *eth_dev, uint16_t idx);
/** ethdev rx_queue_intr_disable: take and ack the CQ's event. @return 0 or -errno. */
int mlx4v_intr_rx_disable(struct rte_eth_dev *eth_dev, uint16_t idx);
/**
 * Either process: enable (on 1) or disable (on 0) the interrupt of Rx queue idx, rxq, which
 * a secondary found through its gate (mlx4v_mp.c). @return 0 or -errno.
 */
int mlx4v_intr_rxq_set(struct rte_eth_dev *eth_dev, uint16_t idx, struct mlx4v_rxq *rxq, int on);
/** Secondary, at attach: the port's own interrupt handle. @return 0 or -errno. */
int mlx4v_intr_secondary_install(struct rte_eth_dev *eth_dev);
/** Secondary, at detach: undo mlx4v_intr_secondary_install() (idempotent). */
void mlx4v_intr_secondary_uninstall(struct rte_eth_dev *eth_dev);
/**
 * Secondary: Rx queue q's CQ event fd (taken; the old one closed) and arm page received from
 * the primary. @return 0 or -errno (fd closed).
 */
int mlx4v_intr_secondary_efd(struct rte_eth_dev *eth_dev, uint16_t q, int fd);
/** Secondary: every Rx queue's fd is in: the handle describes them. @return 0 or -errno. */
int mlx4v_intr_secondary_rx_on(struct rte_eth_dev *eth_dev);
/**
 * Secondary, the port stopping (no enable/disable running any more): the application's epoll
 * entries, the fds and the arm pages go.
 */
void mlx4v_intr_secondary_rx_off(struct rte_eth_dev *eth_dev);
/**
 * The device reported the port active (up 1) or down (0); thread of the report. The link
 * is updated and RTE_ETH_EVENT_INTR_LSC raised when intr_conf.lsc.
 */
void mlx4v_intr_port_event(struct rte_eth_dev *eth_dev, int up);
/** The device died or is being removed: RTE_ETH_EVENT_INTR_RMV when intr_conf.rmv. */
void mlx4v_intr_dead_event(struct rte_eth_dev *eth_dev);

/* ---- mlx4v_recovery.c: recovery from a fatal error (recovery=reset) ---- */

/** DEAD heard (class event): with a recovery under way a started port's bursts return 0. */
void mlx4v_recovery_port_dead(struct rte_eth_dev *eth_dev);
/** RECOVERED heard (class event): RTE_ETH_EVENT_INTR_RESET from an alarm, after the RMV. */
void mlx4v_recovery_port_recovered(struct rte_eth_dev *eth_dev);
/** close: no RESET event any more. */
void mlx4v_recovery_port_close(struct rte_eth_dev *eth_dev);
/**
 * dev_reset: a port whose handle is of an older life of the device (dead, or the device
 * recovered) gets its old objects destroyed, a new handle and PD; else nothing.
 * @return 0, -EAGAIN (the recovery runs), -EIO (dead until removed) or the open's -errno.
 */
int mlx4v_recovery_port_reset(struct rte_eth_dev *eth_dev);

/* ---- mlx4v_mp.c: secondary processes ---- */

/** A port starts using the IPC action (registered by the first). @return 0/-errno. */
int mlx4v_mp_primary_get(void);
/** A port stops using it (unregistered after the last). */
void mlx4v_mp_primary_put(void);
/**
 * Secondary: attach the ports of the mlx4v device edev (EAL name), which the primary
 * probed (ports are named as mlx4v_ethdev_name() gives). @return 0 or -errno
 * (-ENOTSUP when secondary processes are not supported).
 */
int mlx4v_mp_secondary_attach(struct rte_device *edev);
/** Secondary: release the ports of edev attached here. @return 0 or the first -errno. */
int mlx4v_mp_secondary_detach(struct rte_device *edev);
/** Secondary: mlx4v_ethdev_mr_lookup()'s registration asked of the primary. @return 0/-errno. */
int mlx4v_mp_mr_reg(struct rte_eth_dev *eth_dev, struct rte_mempool *mp);
/**
 * Primary, port started: every secondary maps the queues' doorbell pages and takes the
 * bursts (DPDK mlx5's START_RXTX). A secondary that does not answer keeps stopped bursts.
 */
void mlx4v_mp_start_rxtx(struct rte_eth_dev *eth_dev);
/** Primary, before the queues go: every secondary's bursts become the stopped ones. */
void mlx4v_mp_stop_rxtx(struct rte_eth_dev *eth_dev);
/** What a secondary process may do (mlx4v_ethdev.c, beside the primary's ops). */
extern const struct eth_dev_ops mlx4v_ethdev_secondary_ops;
/**
 * A secondary's ethdev rx_queue_intr_enable / disable: on the fds the primary lent, behind
 * the process's gate of the port. @return 0 or -errno (-EAGAIN: the port is stopped).
 */
int mlx4v_mp_rx_intr_enable(struct rte_eth_dev *eth_dev, uint16_t idx);
int mlx4v_mp_rx_intr_disable(struct rte_eth_dev *eth_dev, uint16_t idx);

#endif /* _MLX4V_ETHDEV_H_ */
