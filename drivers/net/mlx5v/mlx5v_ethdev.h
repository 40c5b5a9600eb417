/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Private definitions of the mlx5v Ethernet PMD (net class of the mlx5v core). */

#ifndef _MLX5V_ETHDEV_H_
#define _MLX5V_ETHDEV_H_

#include <stdint.h>

#include <ethdev_driver.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "mlx5v_dev.h"
#include "mlxv_ethdev_stats.h"
#include "mlxv_mp_bursts.h"
#include "mlx5v_rte_flow.h"

extern int mlx5v_ethdev_logtype;

/** Log line of the PMD (pmd.net.mlx5v). */
#define MLX5V_ETH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5v_ethdev_logtype, "net_mlx5v: " fmt "\n", ## __VA_ARGS__)

/** Values of the rxq_cqe_comp_en devarg (DPDK mlx5's): off, then the mini-CQE format. */
#define MLX5V_ETH_CQE_COMP_OFF 0
#define MLX5V_ETH_CQE_COMP_HASH 1
#define MLX5V_ETH_CQE_COMP_FTAG 2
#define MLX5V_ETH_CQE_COMP_CSUM 3
#define MLX5V_ETH_CQE_COMP_L34H 4

/** Most Rx or Tx queues of a port. */
#define MLX5V_ETH_MAX_QUEUES 16
/** Most unicast MAC addresses of a port (the vport UC list holds at most this many). */
#define MLX5V_ETH_MAX_MAC 128
/** Addresses of the multicast address list (set_mc_addr_list). */
#define MLX5V_ETH_MAX_MC 64
/** Bytes the vport/port MTU counts beyond the L3 MTU: Ethernet header, one VLAN tag, FCS. */
#define MLX5V_ETH_HW_MTU_OVERHEAD (RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN)

/** Largest ring: what log_max_wq_sz allows, within a 16-bit descriptor count. */
#define MLX5V_ETH_RING_MAX(priv) RTE_MIN(UINT32_C(1) << (priv)->caps.log_max_wq_sz, \
					 UINT32_C(32768))
/** The largest minimum inline header: inner TCP/UDP, vport mode 7 (prm/mlx5_eth §6.4). */
#define MLX5V_ETH_INLINE_MAX 152u
/**
 * log2 of the most mbufs a receive WQE scatters over: 32, a 512-byte WQE (prm/mlx5_eth §7.1;
 * DPDK's limit too), or fewer where the device's max_wqe_sz_rq says so.
 */
#define MLX5V_ETH_RX_MAX_SGES_LOG 5
/** Toeplitz key bytes of the TIR (prm/mlx5_eth §4.9). */
#define MLX5V_ETH_RSS_KEY_LEN 40
/** Entries of the RSS redirection table (the RQT lists an RQ per entry). */
#define MLX5V_ETH_RETA_SIZE 64
/** Root flow table of the port: log2 of its entries (MACs, broadcast, multicast, match-all). */
#define MLX5V_ETH_FT_LOG_SIZE 8
/**
 * Traffic classes of the second table (TTC), one TIR each: TCP and UDP over IPv4 and IPv6,
 * other IPv4, other IPv6, anything else (prm/mlx5_eth §10.2).
 */
enum mlx5v_ethdev_tt {
	MLX5V_ETH_TT_IPV4_TCP,
	MLX5V_ETH_TT_IPV6_TCP,
	MLX5V_ETH_TT_IPV4_UDP,
	MLX5V_ETH_TT_IPV6_UDP,
	MLX5V_ETH_TT_IPV4,
	MLX5V_ETH_TT_IPV6,
	MLX5V_ETH_TT_ANY,
	MLX5V_ETH_TT_N
};

/** What the PMD reads from the capabilities and the port registers at probe. */
struct mlx5v_ethdev_caps {
	uint32_t log_max_wq_sz;     /**< ring size limit (log2 of WQEs) */
	uint8_t rx_max_sges_log;    /**< log2 of the data segments a receive WQE may hold */
	uint32_t log_max_uc_list;   /**< vport unicast list */
	uint32_t log_max_mc_list;   /**< vport multicast list (broadcast is one entry) */
	uint32_t log_max_rqt_size;  /**< RSS indirection table */
	uint16_t max_hw_mtu;        /**< PMTU max_mtu (frame bytes without FCS overhead rules) */
	uint32_t fw_rev;            /**< firmware revision as the init segment reports it */
	uint32_t resd_lkey;         /**< the reserved lkey: data segments carry IOVAs */
	uint8_t csum_cap;           /**< Ethernet offload caps (prm/mlx5_eth §3.3) */
	uint8_t vlan_cap;           /**< receive VLAN stripping */
	uint8_t wqe_vlan_insert;    /**< VLAN insertion from the Ethernet segment */
	uint8_t hw_vlan_insert;     /**< wqe_vlan_insert usable: no inline header required */
	uint8_t max_lso_cap;        /**< log2 of the largest LSO, 0: none (prm/mlx5_eth §3.3) */
	uint8_t wqe_inline_mode;    /**< 0 L2, 1 from the vport context, 2 none */
	uint8_t min_inline_mode;    /**< sqc.min_wqe_inline_mode to create SQs with */
	uint16_t min_inline;        /**< bytes every send WQE inlines (prm/mlx5_eth §6.4) */
	uint8_t max_wqe_ds;         /**< 16-byte segments per send WQE (prm/mlx5_eth §6.1) */
	uint8_t ptys_ext;           /**< PCAM ptys_extended_ethernet: PTYS extended fields */
	uint8_t log_bf_reg_size;    /**< log2 of a BlueFlame register's bytes (prm/mlx5_eth §6.6) */
	uint8_t empw;               /**< enhanced multi-packet send WQEs (prm/mlx5_empw §2.1) */
	uint8_t cqe_comp;           /**< cqe_compression: compressed CQE sessions (prm/mlx5_eth) */
	uint8_t mini_cqe_ftag;      /**< mini_cqe_resp_flow_tag: the flow tag mini-CQE format */
	uint8_t mini_cqe_l34h;      /**< mini_cqe_resp_l3_l4_tag: the L3/L4 header format */
	uint8_t flex_icmp4;         /**< flex_parser_protocols: ICMP type and code (misc 3) */
	uint8_t flex_icmp6;         /**< flex_parser_protocols: ICMPv6 type and code (misc 3) */
	uint8_t ft_vxlan_vni;       /**< NIC RX ft_field_support: the VXLAN VNI (misc) */
	uint8_t ft_inner;           /**< NIC RX ft_field_support: every inner field rte_flow uses */
};

/** The receive filter state of the vport. */
struct mlx5v_ethdev_vport {
	struct rte_ether_addr perm_mac; /**< permanent_address */
	uint16_t hw_mtu;                /**< vport MTU (frame) */
	int promisc_all;
	int promisc_mc;
	unsigned int uc_n;              /**< entries of the UC list */
	uint8_t min_inline_mode;        /**< min_wqe_inline_mode */
};

struct mlx5v_devx_cq;
struct rte_pmd_mlx5v_uar;

/** Page of the queue rings and their page lists (log_wq_pg_sz 0). */
#define MLX5V_ETH_RING_PAGE 4096u

/** A queue's ring on its socket, DMA-mapped: WQEs, then a page holding the doorbell record. */
struct mlx5v_ring {
	uint8_t *buf;
	size_t ring_len;               /**< bytes of WQEs (a power of two, at least 4 KiB) */
	size_t map_len;                /**< bytes allocated: the WQEs and the doorbell page */
	struct mlx5v_dma_buf dma;      /**< the WQEs as IOVA-contiguous chunks (PAS per page) */
	struct mlx5v_dma_buf dbr_dma;  /**< the doorbell record page, a window of its own */
	const struct rte_memzone *mz;  /**< holds buf */
};

/**
 * The Rx interrupt of a queue as every process sees it (mlx5v_intr.c): in the queue, so in
 * shared memory, as the EQ ring and the CQ's doorbell record are. Whichever process enables
 * or disables the queue's interrupt consumes its EQ and arms its CQ with these, never with
 * the primary's process-local EQ and CQ objects (doc/guides/nics/mlx5v.rst, "Interrupts").
 */
struct mlx5v_rxq_intr {
	rte_spinlock_t lock;           /**< the EQ's consumption and the CQ's arm, any process */
	uint8_t *eqes;                 /**< the EQ's ring (EAL memory); NULL: no interrupt */
	uint32_t eq_nent;
	uint32_t eqn;
	uint32_t eq_ci;                /**< the EQ's consumer index */
	uint32_t cqn;
	uint32_t arm_sn;               /**< the CQ's arm sequence number (prm/mlx5 §7.3) */
	uint8_t vec_shared;            /**< the MSI vector serves other queues too */
};

/** An Rx queue: its ring and the objects made at start. */
struct mlx5v_rxq {
	/* Data path, hot: what a burst reads (mlx5v_rx.c). */
	uint8_t *cqes;                 /**< the CQ ring (cq->buf) */
	struct rte_mbuf **elts;        /**< the mbuf of each data segment of each WQE */
	uint8_t *wqes;                 /**< ring.buf: nb_desc WQEs of 2^sges_log data segments */
	volatile uint32_t *dbrec;      /**< the RQ doorbell record (dword 0, prm/mlx5_eth §7.2) */
	volatile uint32_t *cq_dbrec;   /**< the CQ doorbell record */
	struct rte_mempool *mp;
	uint64_t mbuf_rearm;           /**< rearm_data of a received mbuf */
	uint32_t cq_ci;                /**< CQ consumer index (Rx interrupts arm from it) */
	uint32_t cq_nent;
	uint32_t rq_ci;                /**< WQEs completed */
	uint32_t rq_pi;                /**< WQEs posted; rq_pi - rq_ci <= nb_desc */
	uint32_t rq_fi;                /**< WQEs with fresh mbufs: rq_pi .. rq_ci + nb_desc */
	uint16_t wqe_mask;
	uint16_t nb_desc;              /**< a power of two */
	uint16_t refill_thresh;        /**< consumed WQEs are posted again in bulks of this many */
	uint8_t cq_log;                /**< log2 of cq_nent: the lap parity bit of cq_ci */
	uint8_t sges_log;              /**< log2 of the data segments of a WQE */
	uint8_t ready;                 /**< RDY */
	uint8_t recover;               /**< an error CQE moved the RQ to ERR */
	uint8_t rss_hash;              /**< the RSS hash goes into the mbuf (RSS_HASH offload) */
	uint8_t mark;                  /**< a flow rule marks: the flow tag into the mbuf */
	uint8_t vec;                   /**< the SSE loop reads the CQEs (mlx5v_rx.c) */
	uint8_t avx2;                  /**< the vec loops in their AVX2 build (mlx5v_rx.c) */
	uint8_t cqe_comp;              /**< the CQ writes compressed sessions (prm/mlx5_eth §8.5) */
	uint8_t mini_fmt;              /**< their mini-CQE format (MLX5V_MINI_CQE_FMT_*) */
	uint16_t zip_ai;               /**< mini-CQEs of the session at cq_ci already taken */
	uint16_t port_id;
	uint32_t seg_size;             /**< bytes of one mbuf buffer (data room - headroom) */
	uint32_t lkey;
	uint64_t packets, bytes, errors; /**< software counters */
	uint64_t nombuf;               /**< mbuf allocations that failed */
	uint64_t stats_base[MLXV_STATS_N]; /**< the counters at the last reset */
	/* Control. */
	uint64_t offloads;             /**< Rx offloads of the queue and the port */
	uint16_t idx;
	int socket;
	struct rte_eth_dev *eth_dev;
	struct mlx5v_ring ring;        /**< the WQEs, sized at start for the scatter */
	struct mlx5v_devx_cq *cq;      /**< at start */
	uint32_t rqn;                  /**< at start; 0 = none */
	uint8_t deferred;              /**< rx_deferred_start: RST until rx_queue_start */
	struct mlx5v_rxq_intr intr;    /**< its Rx interrupt, for every process */
};

/** A Tx burst reaps with this many completions waiting, or their packets in flight. */
#define MLX5V_TXQ_REAP_COMPS 4

/*
 * Data path functions built for AVX2 where the compiler can (x86-64, GCC or clang: functions of
 * their own for that target, whatever the build's -march); they run where mlx5v_avx2_ok()
 * says so.
 */
#if defined(RTE_ARCH_X86_64) && (defined(__GNUC__) || defined(__clang__))
#define MLX5V_AVX2 1
#define MLX5V_AVX2_FN __attribute__((target("avx2")))
#else
#define MLX5V_AVX2 0
#endif

/** The CPU has AVX2 and EAL allows 256-bit vectors (--force-max-simd-bitwidth). */
int mlx5v_avx2_ok(void);

/** Quadwords of a send WQE basic block. */
#define MLX5V_TXQ_TMPL_WORDS 8

/** A Tx queue: its ring and the objects made at start. */
struct mlx5v_txq {
	/* Data path, hot: what a burst reads (mlx5v_tx.c). */
	uint8_t *wqes;                 /**< ring.buf: nb_desc 64-byte WQEBBs */
	/** The packets of the WQEs in flight, in order (4 per WQEBB at most). */
	struct rte_mbuf **elts;
	uint32_t *wqe_elts;            /**< per WQEBB: elts_head when the WQE there began */
	uint8_t *cqes;
	volatile uint32_t *dbrec;      /**< the SQ doorbell record (dword 1, prm/mlx5_eth §6.6) */
	volatile uint32_t *cq_dbrec;
	struct rte_mempool *mp_last;   /**< the last mempool known to be DMA-mapped */
	/**
	 * The WQEBB of a one-segment SEND as it is stored (control, Ethernet segment with the
	 * inline header size, data segment with the lkey), wqe_index and byte_count 0: made
	 * with the layout setters at start (mlx5v_txq_tmpl_init()).
	 */
	uint64_t tmpl[MLX5V_TXQ_TMPL_WORDS];
	uint64_t mpw_ctrl[2];          /**< control segment of a multi-packet WQE, as stored */
	uint64_t slow_flags;           /**< mbuf flags whose packets take the general path */
	uint32_t cq_nent;
	uint32_t cq_ci;
	uint32_t cq_seen;              /**< CQEs from cq_ci seen good, not reaped yet */
	uint16_t wqe_pi;               /**< WQEBBs posted (the WQE index, 16 bits) */
	uint16_t wqe_ci;               /**< WQEBBs completed */
	uint16_t wqe_mask;
	uint16_t nb_desc;
	uint32_t elts_head;            /**< packets posted (free running) */
	uint32_t elts_tail;            /**< packets given back */
	uint32_t elts_mask;            /**< 4 nb_desc - 1 */
	uint32_t alone;                /**< elts in flight freed one by one (not bulk) */
	uint16_t comp_thresh;          /**< ask for a completion at least every this many packets */
	uint16_t reap_pkts;            /**< a burst reaps first with this many packets in flight */
	uint16_t min_inline;           /**< header bytes inlined in every WQE */
	uint8_t ready;
	uint8_t recover;               /**< an error CQE moved the SQ to ERR */
	uint8_t vlan_insert;           /**< VLAN_INSERT offered: tags go in, by device or not */
	uint8_t vlan_hw;               /**< the Ethernet segment asks the device for the tag */
	uint8_t fast_free;             /**< MBUF_FAST_FREE: one pool, refcnt 1, direct */
	uint8_t empw;                  /**< plain packets go in enhanced multi-packet WQEs */
	/** empw with MBUF_FAST_FREE and no checksum, VLAN or TSO offload: the lean burst */
	uint8_t lean;
	uint16_t mpw_kmax;             /**< packets per multi-packet WQE */
	uint8_t avx2;                  /**< the lean burst's AVX2 data segment loop runs */
	uint32_t max_lso;              /**< largest TSO packet, 0 without TSO */
	uint16_t max_segs;             /**< mbuf segments of a packet (mlx5v_tx_max_segs()) */
	uint16_t tso_max_segs;         /**< the same for TSO */
	uint32_t sqn;
	uint32_t lkey;
	uint16_t port_id;              /**< its doorbell is in the port's mlx5v_ethdev_proc */
	uint16_t db_off;               /**< bytes from the UAR page to this SQ's doorbell */
	uint64_t packets, bytes, errors;
	uint64_t err_cqes;             /**< error CQEs seen (queue resets) */
	uint64_t stats_base[MLXV_STATS_N]; /**< the counters at the last reset */
	/* Control. */
	uint16_t idx;
	int socket;
	struct rte_eth_dev *eth_dev;
	struct mlx5v_ring ring;        /**< nb_desc 64-byte WQEBBs */
	struct mlx5v_devx_cq *cq;
	uint8_t deferred;              /**< tx_deferred_start: RST until tx_queue_start */
};

/** The port-wide objects made at start (0 = none), reverse-destroyed at stop. */
struct mlx5v_ethdev_objs {
	uint32_t pd, td, tis, qcnt, rqt, ft, fg_mac, fg_mc, fg_all;
	uint32_t tir[MLX5V_ETH_TT_N];  /**< one per traffic class */
	uint32_t ttc, fg_tt_l4, fg_tt_l3, fg_tt_any; /**< the traffic class table, its groups */
	uint32_t n_tt;                 /**< entries 0..n_tt-1 of the TTC are set */
	uint32_t n_fte;                /**< entries 0..n_fte-1 of the table are set */
	int fte_mc;                    /**< the any-multicast entry (all-multicast) is set */
	int fte_all;                   /**< the match-all entry (promiscuous) is set */
};

/**
 * Port private data (dev_private, shared memory): no process addresses besides those the
 * primary process alone uses; the core device is found per process (mlx5v_ethdev_core()).
 */
struct mlx5v_ethdev_priv {
	char name[RTE_DEV_NAME_MAX_LEN]; /**< the core device name = the EAL device name */
	uint16_t port_id;
	struct mlx5v_ethdev_caps caps;
	int promisc;                     /**< state written to the vport */
	int allmulti;
	struct rte_ether_addr mc[MLX5V_ETH_MAX_MC]; /**< multicast address list */
	uint32_t nb_mc;
	uint8_t cqe_comp_en;             /**< rxq_cqe_comp_en devarg: MLX5V_ETH_CQE_COMP_* */
	int dead;                        /**< the core device died: control calls fail fast */
	uint32_t epoch;                  /**< the core's life its objects belong to */
	struct mlx5v_ethdev_objs obj;
	struct mlx5v_rte_flow_port rflow; /**< rte_flow rules (mlx5v_rte_flow.c) */
	uint8_t rss_key[MLX5V_ETH_RSS_KEY_LEN];
	uint64_t rss_hf;
	uint16_t reta[MLX5V_ETH_RETA_SIZE]; /**< Rx queue of each RQT entry */
	uint64_t oob_base;               /**< out_of_buffer at the last stats reset */
	uint64_t oob_acc;                /**< out_of_buffer of earlier starts */
};

/**
 * What the data path of a port reaches differently in each process (eth_dev->process_private,
 * DPDK mlx5's per-process UAR table): the seam and the Tx doorbells. The primary rings the
 * UAR page the core device mapped; a secondary maps the same page from a file descriptor the
 * primary sends (mlx5v_mp.c, doc/guides/nics/mlx5v.rst "Secondary processes").
 */
struct mlx5v_ethdev_proc {
	struct mlx5v_hw *hw;                /**< the seam a doorbell goes through */
	void *db[MLX5V_ETH_MAX_QUEUES];     /**< each Tx queue's doorbell, NULL while stopped */
	void *uar_map;                      /**< a secondary's mapping of the UAR page, or NULL */
	void *uar;                          /**< a secondary's view of the UAR page, or NULL */
};

/** @return the port's per-process data path state (never NULL once probed or attached). */
static inline struct mlx5v_ethdev_proc *
mlx5v_ethdev_proc(uint16_t port_id)
{
	return rte_eth_devices[port_id].process_private;
}

/** @return the core device of a port in this process, or NULL. */
struct mlx5v_dev *mlx5v_ethdev_core(const struct rte_eth_dev *eth_dev);

/** UAR of the port in this process (NULL before start). */
struct rte_pmd_mlx5v_uar *mlx5v_ethdev_uar(const struct rte_eth_dev *eth_dev);

/**
 * Check nb_desc (a power of two within the limit, else an error naming queue `what` idx),
 * then allocate and DMA-map a ring of nb_desc << log_stride bytes on socket.
 * @return 0 or -errno, nothing left behind.
 */
int mlx5v_ethdev_ring_alloc(struct rte_eth_dev *eth_dev, struct mlx5v_ring *r,
			    const char *what, uint16_t idx, uint16_t nb_desc,
			    unsigned int log_stride, int socket);
/** Unmap and free a ring of mlx5v_ethdev_ring_alloc() (idempotent). */
void mlx5v_ethdev_ring_free(struct rte_eth_dev *eth_dev, struct mlx5v_ring *r);

/* ---- mlx5v_mem.c: mempools mapped for device DMA ---- */

/**
 * Make the memory of mp reachable by the port's device (idempotent; any lcore, the mapping
 * is serialised per port). @return 0 or -errno.
 */
int mlx5v_mem_pool_map(struct rte_eth_dev *eth_dev, struct rte_mempool *mp);
/** Unmap every mempool of the port (stopped: no queue uses them). */
void mlx5v_mem_unmap_all(struct rte_eth_dev *eth_dev);

/* ---- mlx5v_rxq.c / mlx5v_txq.c: queue setup, and their objects at start ---- */

int mlx5v_rxq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		    unsigned int socket, const struct rte_eth_rxconf *conf,
		    struct rte_mempool *mp);
void mlx5v_rxq_release(struct rte_eth_dev *eth_dev, uint16_t idx);
/** CQ, RQ, RST->RDY unless deferred. @return 0 or -errno with nothing left. */
int mlx5v_rxq_create(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq);
void mlx5v_rxq_destroy(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq);
/** ethdev rx_queue_start (port started, queue in RST): fill, RST->RDY. @return 0/-errno. */
int mlx5v_rxq_start(struct rte_eth_dev *eth_dev, uint16_t idx);
/** ethdev rx_queue_stop: RDY (or ERR) -> RST, the CQ and the ring emptied. @return 0/-errno. */
int mlx5v_rxq_stop(struct rte_eth_dev *eth_dev, uint16_t idx);
void mlx5v_rxq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_rxq_info *qinfo);
/**
 * VLAN stripping of an Rx queue on or off: its RQ modified at once when started (MODIFY_RQ
 * of vsd), the queue's offloads for the next start. @return 0 or -errno.
 */
int mlx5v_rxq_vlan_strip_set(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq, int on);
int mlx5v_txq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		    unsigned int socket, const struct rte_eth_txconf *conf);
void mlx5v_txq_release(struct rte_eth_dev *eth_dev, uint16_t idx);
/** CQ, SQ, RST->RDY unless deferred. @return 0 or -errno with nothing left. */
int mlx5v_txq_create(struct rte_eth_dev *eth_dev, struct mlx5v_txq *txq);
void mlx5v_txq_destroy(struct rte_eth_dev *eth_dev, struct mlx5v_txq *txq);
/** ethdev tx_queue_start (port started, queue in RST): RST->RDY. @return 0 or -errno. */
int mlx5v_txq_start(struct rte_eth_dev *eth_dev, uint16_t idx);
/** ethdev tx_queue_stop: RDY (or ERR) -> RST, packets freed. @return 0 or -errno. */
int mlx5v_txq_stop(struct rte_eth_dev *eth_dev, uint16_t idx);
void mlx5v_txq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_txq_info *qinfo);

/** Read PAOS and PTYS into the link status. Not from an EQ event callback (commands). */
int mlx5v_ethdev_link_update(struct rte_eth_dev *eth_dev, int wait_to_complete);

/* ---- mlx5v_intr.c: Rx queue interrupts from DEVX EQs, link state and removal events ---- */

/**
 * At probe: the port's interrupt handle (eth_dev->intr_handle) and its LSC/RMV state;
 * sets RTE_ETH_DEV_INTR_LSC and RTE_ETH_DEV_INTR_RMV. @return 0 or -ENOMEM.
 */
int mlx5v_intr_init(struct rte_eth_dev *eth_dev);
/** At close: no event is raised any more; the handle is freed. */
void mlx5v_intr_cleanup(struct rte_eth_dev *eth_dev);
/**
 * At start, after the UAR and before the Rx queues' CQs: with intr_conf.rxq, one MSI vector
 * and one EQ per Rx queue (vectors shared when the device has too few), the vectors' event
 * fds in the interrupt handle. @return 0 or -errno with nothing left.
 */
int mlx5v_intr_rx_create(struct rte_eth_dev *eth_dev);
/** At stop, after the Rx queues' CQs and before the UAR: undo mlx5v_intr_rx_create(). */
void mlx5v_intr_rx_destroy(struct rte_eth_dev *eth_dev);
/** EQ number the CQ of Rx queue idx reports to: its own EQ, else the core's async EQ. */
uint32_t mlx5v_intr_rxq_eqn(struct rte_eth_dev *eth_dev, uint16_t idx);
int mlx5v_intr_rx_enable(struct rte_eth_dev *eth_dev, uint16_t idx);
int mlx5v_intr_rx_disable(struct rte_eth_dev *eth_dev, uint16_t idx);
/**
 * Either process: arm the Rx interrupt of rxq through the seam hw at this process's view of
 * the UAR page uar (a secondary's lcore inside the queue's gate). @return 0 or -errno.
 */
int mlx5v_intr_rxq_arm(struct mlx5v_rxq *rxq, struct mlx5v_hw *hw, void *uar);
/**
 * Either process: the Rx interrupt of rxq fired or is no longer wanted: drain this process's
 * fd of the queue (unless its vector is shared), consume the queue's EQ. @return 0/-errno.
 */
int mlx5v_intr_rxq_ack(struct mlx5v_rxq *rxq, struct mlx5v_hw *hw, void *uar, int fd);
/** Primary: this process's fd of Rx queue idx's interrupt, -1 without. *n: the queues with one. */
int mlx5v_intr_rxq_fd(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t *n);
/** Secondary, at attach: the port's own interrupt handle. @return 0 or -errno. */
int mlx5v_intr_secondary_init(struct rte_eth_dev *eth_dev);
/** Secondary, at detach. */
void mlx5v_intr_secondary_cleanup(struct rte_eth_dev *eth_dev);
/**
 * Secondary: the fds of Rx queues first.. (n of them, closed here on failure) of n_q queues
 * in all, from the primary; the last batch completes the handle and restores the
 * applications' registrations the last stop kept. @return 0 or -errno.
 */
int mlx5v_intr_secondary_efds(struct rte_eth_dev *eth_dev, uint16_t first, const int *fds,
			      int n, uint16_t n_q);
/**
 * Secondary, at the primary's stop (the gate closed): the applications' registrations are
 * kept aside and taken out of their epoll, the fds closed.
 */
void mlx5v_intr_secondary_clear(struct rte_eth_dev *eth_dev);
/** Secondary: this process's fd of Rx queue idx, -1 without. */
int mlx5v_intr_secondary_fd(struct rte_eth_dev *eth_dev, uint16_t idx);
/**
 * A PORT_CHANGE of the core (thread polling the async EQ, EQ lock held): the link is read
 * and RTE_ETH_EVENT_INTR_LSC raised later, from an EAL alarm.
 */
void mlx5v_intr_port_event(struct rte_eth_dev *eth_dev, uint8_t sub_type);
/**
 * A link read outside the event alarm (set_link_up/down) changed the port's link status:
 * the alarm of the PORT_CHANGE that reports it raises RTE_ETH_EVENT_INTR_LSC all the same.
 */
void mlx5v_intr_link_taken(struct rte_eth_dev *eth_dev);
/** The core device died: RTE_ETH_EVENT_INTR_RMV (intr_conf.rmv), from an EAL alarm. */
void mlx5v_intr_dead_event(struct rte_eth_dev *eth_dev);

/* ---- mlx5v_recovery.c: the port across a recovery of the core (recovery=reset) ---- */

/**
 * The core device died and a recovery is on its way: the bursts return 0, RMV is raised.
 * @return 1 if so, 0 when no recovery comes (the caller raises what dead mode raises).
 */
int mlx5v_recovery_dead(struct rte_eth_dev *eth_dev);
/** The device is back: RTE_ETH_EVENT_INTR_RESET, from an EAL alarm (after RMV). */
void mlx5v_recovery_recovered(struct rte_eth_dev *eth_dev);
/** @return 1 if the port's objects belong to an older life of its device, else 0. */
int mlx5v_recovery_port_stale(const struct rte_eth_dev *eth_dev);
/** At close: no RESET event any more. */
void mlx5v_recovery_close(struct rte_eth_dev *eth_dev);
/**
 * Before destroying the port's objects: if they belong to an older life of the device, the
 * commands of the calling thread complete locally until mlx5v_recovery_stale_end().
 * @return the argument for mlx5v_recovery_stale_end().
 */
int mlx5v_recovery_stale_begin(struct rte_eth_dev *eth_dev);
void mlx5v_recovery_stale_end(int stale);
/**
 * dev_reset after a recovery (port stopped): a new DEVX context, the capabilities read
 * again, the port on the device's new life. @return 0 (also when there was no recovery),
 * -EAGAIN while the recovery runs, -ENOLINK when it gave up, or -errno.
 */
int mlx5v_recovery_port_reset(struct rte_eth_dev *eth_dev);

/* ---- mlx5v_ethflow.c: RQT, TIR and the NIC RX flow table ---- */

/** RQT, TIR, table, groups, entries, root. @return 0 or -errno with nothing left. */
int mlx5v_ethflow_create(struct rte_eth_dev *eth_dev);
void mlx5v_ethflow_destroy(struct rte_eth_dev *eth_dev);
/** Rewrite the entries after a MAC or promiscuity change (no-op while stopped). */
int mlx5v_ethflow_sync(struct rte_eth_dev *eth_dev);
int mlx5v_ethflow_rss_hash_update(struct rte_eth_dev *eth_dev, struct rte_eth_rss_conf *conf);
int mlx5v_ethflow_rss_hash_conf_get(struct rte_eth_dev *eth_dev, struct rte_eth_rss_conf *conf);
int mlx5v_ethflow_reta_update(struct rte_eth_dev *eth_dev, struct rte_eth_rss_reta_entry64 *conf,
			      uint16_t size);
int mlx5v_ethflow_reta_query(struct rte_eth_dev *eth_dev, struct rte_eth_rss_reta_entry64 *conf,
			     uint16_t size);
/**
 * The RSS flow types the TIR can hash: RTE_ETH_RSS_IP, _TCP and _UDP, as DPDK's mlx5 advertises
 * them. The TIR knows no fragment or extension header: the fragment, "other" and _EX types
 * hash what their class's plain type hashes (the addresses, and the ports of the _EX L4 types).
 */
#define MLX5V_ETH_RSS_HF (RTE_ETH_RSS_IP | RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
			  RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_NONFRAG_IPV6_TCP | \
			  RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_IPV6_TCP_EX | \
			  RTE_ETH_RSS_IPV6_UDP_EX)

/* ---- mlx5v_stats.c ---- */

int mlx5v_stats_get(struct rte_eth_dev *eth_dev, struct rte_eth_stats *stats);
int mlx5v_stats_reset(struct rte_eth_dev *eth_dev);
int mlx5v_xstats_get(struct rte_eth_dev *eth_dev, struct rte_eth_xstat *xstats,
		     unsigned int n);
int mlx5v_xstats_get_names(struct rte_eth_dev *eth_dev, struct rte_eth_xstat_name *names,
			   unsigned int size);
/** Fold the Q counter into oob_acc before it goes away (stop). */
void mlx5v_stats_save(struct rte_eth_dev *eth_dev);
/** Primary: out_of_buffer of the live Q counter (0 without one). @return 0 or -errno. */
int mlx5v_stats_oob_live(struct rte_eth_dev *eth_dev, uint64_t *cur);

/* ---- mlx5v_mp.c: secondary processes ---- */

/** A port starts using the IPC action (registered by the first). @return 0 or -errno. */
int mlx5v_mp_action_get(void);
/** A port stops using it (unregistered after the last). */
void mlx5v_mp_action_put(void);
/** Secondary: mlx5v_stats_oob_live() asked of the primary. @return 0 or -errno. */
int mlx5v_mp_oob_live(struct rte_eth_dev *eth_dev, uint64_t *value);
/** Secondary: mlx5v_mem_pool_map() asked of the primary. @return 0 or -errno. */
int mlx5v_mp_pool_map(struct rte_eth_dev *eth_dev, struct rte_mempool *mp);
/**
 * Primary, port started: every secondary maps the port's UAR page and takes the bursts
 * (DPDK mlx5's START_RXTX). A secondary that does not answer keeps its stopped bursts.
 */
void mlx5v_mp_start_rxtx(struct rte_eth_dev *eth_dev);
/**
 * Primary, before the queues go: every secondary's bursts of the port become the stopped
 * ones (STOP_RXTX); none is running any more when a secondary answers.
 */
void mlx5v_mp_stop_rxtx(struct rte_eth_dev *eth_dev);
/**
 * Primary, at the device's death (the port's event alarm, EAL interrupt thread, before the
 * recovery frees the rings): mlx5v_mp_stop_rxtx(), and a log line if a secondary answered.
 */
void mlx5v_mp_dead(struct rte_eth_dev *eth_dev);
/**
 * Secondary: attach the port the primary made: per-process state, the IPC action, the
 * bursts if the port is started. @return 0 or -errno, nothing left behind.
 */
int mlx5v_mp_secondary_attach(struct rte_eth_dev *eth_dev);
/**
 * Secondary: rx_queue_intr_enable/disable on the primary's queue idx, behind the queue's gate,
 * through this process's UAR mapping and event fd. @return 0 or -errno.
 */
int mlx5v_mp_rx_intr_enable(struct rte_eth_dev *eth_dev, uint16_t idx);
int mlx5v_mp_rx_intr_disable(struct rte_eth_dev *eth_dev, uint16_t idx);
/** Secondary: undo mlx5v_mp_secondary_attach() (the port is released by the caller). */
void mlx5v_mp_secondary_detach(struct rte_eth_dev *eth_dev);

/* ---- mlx5v_rx.c / mlx5v_tx.c: burst functions ---- */

uint16_t mlx5v_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n);
uint16_t mlx5v_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t n);
/** The Tx burst for the port's queues: the lean one when each of them is lean. */
eth_tx_burst_t mlx5v_tx_burst_pick(const struct rte_eth_dev *eth_dev);
/**
 * Fill the RQ's WQEs with mbufs (start), the record left 0. @return 0 or -ENOMEM
 * (mlx5v_rxq_drain() frees what was taken).
 */
int mlx5v_rxq_fill(struct mlx5v_rxq *rxq);
/** Post the filled WQEs: the record (start, once the RQ is RDY). */
void mlx5v_rxq_post(struct mlx5v_rxq *rxq);
/** Free the mbufs of the RQ (stop). */
void mlx5v_rxq_drain(struct mlx5v_rxq *rxq);
/** The RQ in RST: drop the CQEs written before, unread; mbufs stay for drain (stop). */
void mlx5v_rxq_flush(struct mlx5v_rxq *rxq);
/** The send WQE template of the SQ (sqn known) and the fast path's flags (start). */
void mlx5v_txq_tmpl_init(struct mlx5v_txq *txq);
/** Reset the Tx indexes for a new SQ (start). */
void mlx5v_txq_reset(struct mlx5v_txq *txq);
/** Free the mbufs still on the SQ (stop). */
void mlx5v_txq_drain(struct mlx5v_txq *txq);
/** The SQ in RST: skip the CQEs written, free the packets, indexes to 0 (queue stop). */
void mlx5v_txq_sync(struct mlx5v_txq *txq);
/** ethdev tx_done_cleanup: reap completions. @return mbufs freed, or -errno. */
int mlx5v_tx_done_cleanup(void *txq, uint32_t free_cnt);
/** Tx offloads the device can do. */
uint64_t mlx5v_tx_offload_capa(const struct mlx5v_ethdev_caps *caps);
/**
 * Mbuf segments one Tx packet (tso: a TSO packet) may have on the device of caps: the
 * segments its largest send WQE has room for after the headers inlined.
 * @return the count, 0 if not even the headers fit.
 */
unsigned int mlx5v_tx_max_segs(const struct mlx5v_ethdev_caps *caps, int tso);
/** Rx offloads the device can do. */
uint64_t mlx5v_rx_offload_capa(const struct mlx5v_ethdev_caps *caps);
int mlx5v_rx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			    struct rte_eth_burst_mode *mode);
int mlx5v_tx_burst_mode_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			    struct rte_eth_burst_mode *mode);
const uint32_t *mlx5v_rx_ptypes_get(struct rte_eth_dev *eth_dev);

/* ---- mlx5v_ethdev_cmds.c: the command mailboxes, built with the PRM layouts ---- */

/** Read the limits of dev. @return 0 or -errno. */
int mlx5v_ethdev_cmd_caps(struct mlx5v_dev *dev, struct mlx5v_ethdev_caps *caps);
/** QUERY_NIC_VPORT_CONTEXT (UC list). @return 0 or -errno. */
int mlx5v_ethdev_cmd_vport_query(struct mlx5v_dev *dev, struct mlx5v_ethdev_vport *v);
/** MODIFY_NIC_VPORT_CONTEXT: promisc_all and promisc_mc. @return 0 or -errno. */
int mlx5v_ethdev_cmd_vport_promisc(struct mlx5v_dev *dev, int all, int mc);
/** MODIFY_NIC_VPORT_CONTEXT: MTU (frame bytes). @return 0 or -errno. */
int mlx5v_ethdev_cmd_vport_mtu(struct mlx5v_dev *dev, uint16_t hw_mtu);
/**
 * MODIFY_NIC_VPORT_CONTEXT: the unicast (mc 0) or multicast (mc 1) address list, n addresses
 * (at most MLX5V_ETH_MAX_MAC). @return 0 or -errno.
 */
int mlx5v_ethdev_cmd_vport_list(struct mlx5v_dev *dev, int mc, const struct rte_ether_addr *mac,
				unsigned int n);
/** PAOS read: *admin_up, *oper_up set to 0/1. @return 0 or -errno. */
int mlx5v_ethdev_cmd_paos_get(struct mlx5v_dev *dev, int *admin_up, int *oper_up);
/** PAOS write of the admin status. @return 0 or -errno. */
int mlx5v_ethdev_cmd_paos_set(struct mlx5v_dev *dev, int up);
/**
 * PTYS read: *mbps the operational speed (0 if none or unknown), from the extended fields
 * if ext (caps.ptys_ext). @return 0 or -errno.
 */
int mlx5v_ethdev_cmd_ptys_speed(struct mlx5v_dev *dev, int ext, uint32_t *mbps);
/** PMTU read. @return 0 or -errno. */
int mlx5v_ethdev_cmd_pmtu_get(struct mlx5v_dev *dev, uint16_t *max_mtu, uint16_t *oper_mtu);
/** PMTU write of admin_mtu (frame bytes). @return 0 or -errno. */
int mlx5v_ethdev_cmd_pmtu_set(struct mlx5v_dev *dev, uint16_t hw_mtu);

/** Objects with a plain number. */
enum mlx5v_ethdev_obj {
	MLX5V_ETHDEV_OBJ_PD,
	MLX5V_ETHDEV_OBJ_TD,
	MLX5V_ETHDEV_OBJ_QCNT,
	MLX5V_ETHDEV_OBJ_TIS,
	MLX5V_ETHDEV_OBJ_SQ,
	MLX5V_ETHDEV_OBJ_RQ,
	MLX5V_ETHDEV_OBJ_RQT,
	MLX5V_ETHDEV_OBJ_TIR,
	MLX5V_ETHDEV_OBJ_MAX,
};

/** A send or receive work queue to create. */
struct mlx5v_ethdev_wq_attr {
	uint32_t pd;
	uint32_t cqn;
	uint32_t uar_page;       /**< SQ only */
	uint32_t tis_or_qcnt;    /**< SQ: its TIS; RQ: its Q counter */
	uint32_t min_inline_mode; /**< SQ: sqc.min_wqe_inline_mode */
	int allow_mpw;           /**< SQ: sqc.allow_multi_pkt_send_wqe */
	int vsd;                 /**< RQ: VLAN stripping disabled */
	uint32_t log_wq_sz;
	uint32_t log_stride;
	uint64_t dbr_iova;
	const struct mlx5v_dma_buf *ring; /**< the WQEs: one PAS entry per 4 KiB page */
	uint32_t npages;
};

/** An indirect TIR to create. */
struct mlx5v_ethdev_tir_attr {
	uint32_t td;
	uint32_t rqtn;
	int ipv6;                /**< the class is IPv6 (else IPv4): l3_prot_type */
	int udp;                 /**< its L4 protocol is UDP (else TCP): l4_prot_type */
	int ip;                  /**< hash the source and destination addresses */
	int l4;                  /**< hash the source and destination ports */
	const uint8_t *key;      /**< MLX5V_ETH_RSS_KEY_LEN bytes */
};

/** What a flow group masks, or a flow entry matches, in the outer headers (prm/mlx5_eth §4.10). */
struct mlx5v_ethdev_match {
	const struct rte_ether_addr *dmac; /**< NULL: not matched */
	uint16_t ethertype;                /**< 0: not matched */
	uint8_t ip_protocol;               /**< 0: not matched */
};

/** A create command in (inlen bytes) whose output is eth_obj_out: *id its object. */
int mlx5v_ethdev_cmd_create_obj(struct mlx5v_dev *dev, const uint8_t *in, size_t inlen,
				uint32_t *id);
/** ALLOC_PD / ALLOC_TRANSPORT_DOMAIN / ALLOC_Q_COUNTER. @return 0 or -errno. */
int mlx5v_ethdev_cmd_alloc(struct mlx5v_dev *dev, enum mlx5v_ethdev_obj kind, uint32_t *id);
/** The matching DEALLOC/DESTROY; a failure is logged by the command layer. */
void mlx5v_ethdev_cmd_destroy(struct mlx5v_dev *dev, enum mlx5v_ethdev_obj kind, uint32_t id);
/** QUERY_Q_COUNTER: *oob out_of_buffer. @return 0 or -errno. */
int mlx5v_ethdev_cmd_qcnt_query(struct mlx5v_dev *dev, uint32_t id, int clear, uint64_t *oob);
int mlx5v_ethdev_cmd_tis_create(struct mlx5v_dev *dev, uint32_t td, uint32_t *tisn);
int mlx5v_ethdev_cmd_sq_create(struct mlx5v_dev *dev, const struct mlx5v_ethdev_wq_attr *a,
			       uint32_t *sqn);
int mlx5v_ethdev_cmd_rq_create(struct mlx5v_dev *dev, const struct mlx5v_ethdev_wq_attr *a,
			       uint32_t *rqn);
/** MODIFY_SQ/RQ: RST->RDY (ready) or RDY->RST. @return 0 or -errno. */
int mlx5v_ethdev_cmd_q_ready(struct mlx5v_dev *dev, int sq, uint32_t qn, int ready);
/** MODIFY_RQ RDY->RDY of vsd: VLAN stripping on (strip) or off. @return 0 or -errno. */
int mlx5v_ethdev_cmd_rq_vsd(struct mlx5v_dev *dev, uint32_t rqn, int strip);
/** MODIFY_SQ/RQ from state cur to state next (MLX5V_ETHDEV_Q_*). @return 0 or -errno. */
int mlx5v_ethdev_cmd_q_modify(struct mlx5v_dev *dev, int sq, uint32_t qn, uint32_t cur,
			      uint32_t next);
/**
 * ERR -> RST -> RDY: a queue an error CQE stopped takes work again from index 0 (prm/mlx5_eth
 * §5.2). @return 0 or -errno.
 */
int mlx5v_ethdev_cmd_q_recover(struct mlx5v_dev *dev, int sq, uint32_t qn);
/**
 * MODIFY_RQ to RST from the state QUERY_RQ reports (RDY or ERR; nothing if already RST): the
 * device then writes nothing more for the RQ. @return 0 or -errno.
 */
int mlx5v_ethdev_cmd_rq_reset(struct mlx5v_dev *dev, uint32_t rqn);
/** Queue states of MODIFY_SQ/RQ (prm/mlx5_eth §5.1). */
#define MLX5V_ETHDEV_Q_RST 0
#define MLX5V_ETHDEV_Q_RDY 1
#define MLX5V_ETHDEV_Q_ERR 3
int mlx5v_ethdev_cmd_rqt_create(struct mlx5v_dev *dev, const uint32_t *rqn, uint32_t n,
				uint32_t *rqtn);
int mlx5v_ethdev_cmd_rqt_modify(struct mlx5v_dev *dev, uint32_t rqtn, const uint32_t *rqn,
				uint32_t n);
int mlx5v_ethdev_cmd_tir_create(struct mlx5v_dev *dev, const struct mlx5v_ethdev_tir_attr *a,
				uint32_t *tirn);
/** A NIC RX table at level (a forwarding entry goes to a higher one). @return 0 or -errno. */
int mlx5v_ethdev_cmd_ft_create(struct mlx5v_dev *dev, uint32_t level, uint32_t log_size,
			       uint32_t *ft);
void mlx5v_ethdev_cmd_ft_destroy(struct mlx5v_dev *dev, uint32_t ft);
/** SET_FLOW_TABLE_ROOT: ft the root (set) or none. @return 0 or -errno. */
int mlx5v_ethdev_cmd_ft_root(struct mlx5v_dev *dev, uint32_t ft, int set);
/** A group of entries [start, end] matching under mask (NULL: anything). */
int mlx5v_ethdev_cmd_fg_create(struct mlx5v_dev *dev, uint32_t ft, uint32_t start,
			       uint32_t end, const struct mlx5v_ethdev_match *mask, uint32_t *fg);
void mlx5v_ethdev_cmd_fg_destroy(struct mlx5v_dev *dev, uint32_t ft, uint32_t fg);
/**
 * Entry index of group fg matching value (NULL for a match-all group), forwarding to the
 * TIR dest, or to the flow table dest when to_table. @return 0 or -errno.
 */
int mlx5v_ethdev_cmd_fte_set(struct mlx5v_dev *dev, uint32_t ft, uint32_t index, uint32_t fg,
			     int to_table, uint32_t dest, const struct mlx5v_ethdev_match *value);
void mlx5v_ethdev_cmd_fte_delete(struct mlx5v_dev *dev, uint32_t ft, uint32_t index);

#endif /* _MLX5V_ETHDEV_H_ */
