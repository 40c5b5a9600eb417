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

#include "mlx5v_dev.h"

extern int mlx5v_ethdev_logtype;

/** Log line of the PMD (pmd.net.mlx5v). */
#define MLX5V_ETH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5v_ethdev_logtype, "net_mlx5v: " fmt "\n", ## __VA_ARGS__)

/** Most Rx or Tx queues of a port. */
#define MLX5V_ETH_MAX_QUEUES 16
/** Most unicast MAC addresses of a port (the vport UC list holds at most this many). */
#define MLX5V_ETH_MAX_MAC 128
/** Bytes the vport/port MTU counts beyond the L3 MTU: Ethernet header, one VLAN tag, FCS. */
#define MLX5V_ETH_HW_MTU_OVERHEAD (RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN)

/** Largest ring: what log_max_wq_sz allows, within a 16-bit descriptor count. */
#define MLX5V_ETH_RING_MAX(priv) RTE_MIN(UINT32_C(1) << (priv)->caps.log_max_wq_sz, \
					 UINT32_C(32768))
/** Toeplitz key bytes of the TIR (prm/mlx5_eth §4.9). */
#define MLX5V_ETH_RSS_KEY_LEN 40
/** Entries of the RSS redirection table (the RQT lists an RQ per entry). */
#define MLX5V_ETH_RETA_SIZE 64
/** Flow table of the port: log2 of its entries; UC MACs, broadcast, then match-all. */
#define MLX5V_ETH_FT_LOG_SIZE 8

/** What the PMD reads from the capabilities and the port registers at probe. */
struct mlx5v_ethdev_caps {
	uint32_t log_max_wq_sz;     /**< ring size limit (log2 of WQEs) */
	uint32_t log_max_uc_list;   /**< vport unicast list */
	uint32_t log_max_rqt_size;  /**< RSS indirection table */
	uint16_t max_hw_mtu;        /**< PMTU max_mtu (frame bytes without FCS overhead rules) */
	uint32_t fw_rev;            /**< firmware revision as the init segment reports it */
};

/** The receive filter state of the vport. */
struct mlx5v_ethdev_vport {
	struct rte_ether_addr perm_mac; /**< permanent_address */
	uint16_t hw_mtu;                /**< vport MTU (frame) */
	int promisc_all;
	int promisc_mc;
	unsigned int uc_n;              /**< entries of the UC list */
};

struct mlx5v_devx_cq;
struct rte_pmd_mlx5v_uar;

/** Page of the queue rings and their page lists (log_wq_pg_sz 0). */
#define MLX5V_ETH_RING_PAGE 4096u

/** A queue's ring on its socket, DMA-mapped: WQEs, then a page holding the doorbell record. */
struct mlx5v_ring {
	uint8_t *buf;
	size_t ring_len;               /**< bytes of WQEs (a multiple of 4 KiB) */
	size_t map_len;                /**< bytes allocated and mapped */
	uint64_t iova;                 /**< the ring is IOVA-contiguous: iova + offset is right */
	const struct rte_memzone *mz;  /**< RTE_MEMZONE_IOVA_CONTIG, holds buf */
};

/** An Rx queue: its ring and the objects made at start. */
struct mlx5v_rxq {
	uint16_t idx;
	uint16_t nb_desc;              /**< a power of two */
	int socket;
	struct rte_mempool *mp;
	struct rte_eth_dev *eth_dev;
	struct mlx5v_ring ring;        /**< nb_desc 16-byte WQEs */
	struct mlx5v_devx_cq *cq;      /**< at start */
	uint32_t rqn;                  /**< at start; 0 = none */
	int ready;                     /**< RDY */
	uint64_t packets, bytes, errors; /**< software counters */
};

/** A Tx queue: its ring and the objects made at start. */
struct mlx5v_txq {
	uint16_t idx;
	uint16_t nb_desc;
	int socket;
	struct rte_eth_dev *eth_dev;
	struct mlx5v_ring ring;        /**< nb_desc 64-byte WQEBBs */
	struct mlx5v_devx_cq *cq;
	uint32_t sqn;
	int ready;
	uint64_t packets, bytes, errors;
};

/** The port-wide objects made at start (0 = none), reverse-destroyed at stop. */
struct mlx5v_ethdev_objs {
	uint32_t pd, td, tis, qcnt, rqt, tir, ft, fg_mac, fg_all;
	uint32_t n_fte;                /**< entries 0..n_fte-1 of the table are set */
	int fte_all;                   /**< the match-all entry (promiscuous) is set */
	int root;                      /**< the table is the NIC RX root */
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
	int dead;                        /**< the core device died: control calls fail fast */
	struct mlx5v_ethdev_objs obj;
	uint8_t rss_key[MLX5V_ETH_RSS_KEY_LEN];
	uint64_t rss_hf;
	uint16_t reta[MLX5V_ETH_RETA_SIZE]; /**< Rx queue of each RQT entry */
	uint64_t oob_base;               /**< out_of_buffer at the last stats reset */
	uint64_t oob_acc;                /**< out_of_buffer of earlier starts */
};

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

/* ---- mlx5v_rxq.c / mlx5v_txq.c: queue setup, and their objects at start ---- */

int mlx5v_rxq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		    unsigned int socket, const struct rte_eth_rxconf *conf,
		    struct rte_mempool *mp);
void mlx5v_rxq_release(struct rte_eth_dev *eth_dev, uint16_t idx);
/** CQ, RQ, RST->RDY. @return 0 or -errno with nothing left. */
int mlx5v_rxq_create(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq);
void mlx5v_rxq_destroy(struct rte_eth_dev *eth_dev, struct mlx5v_rxq *rxq);
void mlx5v_rxq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_rxq_info *qinfo);
int mlx5v_txq_setup(struct rte_eth_dev *eth_dev, uint16_t idx, uint16_t nb_desc,
		    unsigned int socket, const struct rte_eth_txconf *conf);
void mlx5v_txq_release(struct rte_eth_dev *eth_dev, uint16_t idx);
int mlx5v_txq_create(struct rte_eth_dev *eth_dev, struct mlx5v_txq *txq);
void mlx5v_txq_destroy(struct rte_eth_dev *eth_dev, struct mlx5v_txq *txq);
void mlx5v_txq_info_get(struct rte_eth_dev *eth_dev, uint16_t idx,
			struct rte_eth_txq_info *qinfo);

/* ---- mlx5v_flow.c: RQT, TIR and the NIC RX flow table ---- */

/** RQT, TIR, table, groups, entries, root. @return 0 or -errno with nothing left. */
int mlx5v_flow_create(struct rte_eth_dev *eth_dev);
void mlx5v_flow_destroy(struct rte_eth_dev *eth_dev);
/** Rewrite the entries after a MAC or promiscuity change (no-op while stopped). */
int mlx5v_flow_sync(struct rte_eth_dev *eth_dev);
int mlx5v_flow_rss_hash_update(struct rte_eth_dev *eth_dev, struct rte_eth_rss_conf *conf);
int mlx5v_flow_rss_hash_conf_get(struct rte_eth_dev *eth_dev, struct rte_eth_rss_conf *conf);
int mlx5v_flow_reta_update(struct rte_eth_dev *eth_dev, struct rte_eth_rss_reta_entry64 *conf,
			   uint16_t size);
int mlx5v_flow_reta_query(struct rte_eth_dev *eth_dev, struct rte_eth_rss_reta_entry64 *conf,
			  uint16_t size);
/** The RSS flow types the TIR can hash. */
#define MLX5V_ETH_RSS_HF (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
			  RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_IPV6 | \
			  RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_NONFRAG_IPV6_UDP)

/* ---- mlx5v_stats.c ---- */

int mlx5v_stats_get(struct rte_eth_dev *eth_dev, struct rte_eth_stats *stats);
int mlx5v_stats_reset(struct rte_eth_dev *eth_dev);
int mlx5v_xstats_get(struct rte_eth_dev *eth_dev, struct rte_eth_xstat *xstats,
		     unsigned int n);
int mlx5v_xstats_get_names(struct rte_eth_dev *eth_dev, struct rte_eth_xstat_name *names,
			   unsigned int size);
/** Fold the Q counter into oob_acc before it goes away (stop). */
void mlx5v_stats_save(struct rte_eth_dev *eth_dev);

/* ---- mlx5v_rx.c / mlx5v_tx.c: burst functions ---- */

uint16_t mlx5v_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n);
uint16_t mlx5v_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t n);
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
/** MODIFY_NIC_VPORT_CONTEXT: the unicast list, n addresses. @return 0 or -errno. */
int mlx5v_ethdev_cmd_vport_uc_list(struct mlx5v_dev *dev, const struct rte_ether_addr *mac,
				   unsigned int n);
/** UC list entry i of the vport (i < uc_n of the last query). @return 0 or -errno. */
int mlx5v_ethdev_cmd_vport_uc_get(struct mlx5v_dev *dev, unsigned int i,
				  struct rte_ether_addr *mac);
/** PAOS read: *admin_up, *oper_up set to 0/1. @return 0 or -errno. */
int mlx5v_ethdev_cmd_paos_get(struct mlx5v_dev *dev, int *admin_up, int *oper_up);
/** PAOS write of the admin status. @return 0 or -errno. */
int mlx5v_ethdev_cmd_paos_set(struct mlx5v_dev *dev, int up);
/** PTYS read: *mbps the operational speed (0 if none or unknown). @return 0 or -errno. */
int mlx5v_ethdev_cmd_ptys_speed(struct mlx5v_dev *dev, uint32_t *mbps);
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
	uint32_t log_wq_sz;
	uint32_t log_stride;
	uint64_t dbr_iova;
	uint64_t ring_iova;      /**< 4 KiB pages from here */
	uint32_t npages;
};

/** An indirect TIR to create. */
struct mlx5v_ethdev_tir_attr {
	uint32_t td;
	uint32_t rqtn;
	int ipv6;                /**< hash IPv6 (else IPv4) addresses */
	int l4;                  /**< and the L4 ports */
	int udp;                 /**< of UDP (else TCP) */
	const uint8_t *key;      /**< MLX5V_ETH_RSS_KEY_LEN bytes */
};

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
int mlx5v_ethdev_cmd_rqt_create(struct mlx5v_dev *dev, const uint32_t *rqn, uint32_t n,
				uint32_t *rqtn);
int mlx5v_ethdev_cmd_rqt_modify(struct mlx5v_dev *dev, uint32_t rqtn, const uint32_t *rqn,
				uint32_t n);
int mlx5v_ethdev_cmd_tir_create(struct mlx5v_dev *dev, const struct mlx5v_ethdev_tir_attr *a,
				uint32_t *tirn);
int mlx5v_ethdev_cmd_ft_create(struct mlx5v_dev *dev, uint32_t log_size, uint32_t *ft);
void mlx5v_ethdev_cmd_ft_destroy(struct mlx5v_dev *dev, uint32_t ft);
/** SET_FLOW_TABLE_ROOT: ft the root (set) or none. @return 0 or -errno. */
int mlx5v_ethdev_cmd_ft_root(struct mlx5v_dev *dev, uint32_t ft, int set);
/** A group of entries [start, end] matching the full destination MAC (dmac) or anything. */
int mlx5v_ethdev_cmd_fg_create(struct mlx5v_dev *dev, uint32_t ft, uint32_t start,
			       uint32_t end, int dmac, uint32_t *fg);
void mlx5v_ethdev_cmd_fg_destroy(struct mlx5v_dev *dev, uint32_t ft, uint32_t fg);
/** Entry index of group fg forwarding to tirn; dmac NULL for the match-all group. */
int mlx5v_ethdev_cmd_fte_set(struct mlx5v_dev *dev, uint32_t ft, uint32_t index, uint32_t fg,
			     uint32_t tirn, const struct rte_ether_addr *dmac);
void mlx5v_ethdev_cmd_fte_delete(struct mlx5v_dev *dev, uint32_t ft, uint32_t index);

#endif /* _MLX5V_ETHDEV_H_ */
