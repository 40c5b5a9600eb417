/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * mlx4v raw objects: verbs-shaped calls for ConnectX-3 queues in EAL memory, and
 * rte_pmd_mlx4v_init_obj(), which returns rdma-core's own mlx4dv views of them.
 *
 * Error convention (the rdma-core one): calls returning int give 0 or a
 * **positive** errno value; calls returning a pointer give NULL with errno set.
 * Every failing call also sets rte_errno to the same value.
 *
 * All functions are control-path calls; they may be called from any thread and
 * are serialised internally. Objects belong to the device handle they were
 * created on; passing an object of another handle is EINVAL.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#ifndef _RTE_PMD_MLX4V_H_
#define _RTE_PMD_MLX4V_H_

#include <stddef.h>
#include <stdint.h>

#include <infiniband/mlx4dv.h>

#include <rte_compat.h>
#include <rte_mempool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An open device: one verbs context on a simulated or real ConnectX-3. */
struct rte_pmd_mlx4v_dev;
/** A protection domain. */
struct rte_pmd_mlx4v_pd;
/** A memory region: an address range with an lkey. */
struct rte_pmd_mlx4v_mr;
/** A completion queue. */
struct rte_pmd_mlx4v_cq;
/** A raw-packet queue pair. */
struct rte_pmd_mlx4v_qp;
/** A shared receive queue. */
struct rte_pmd_mlx4v_srq;
/** A receive work queue (RWQ). */
struct rte_pmd_mlx4v_wq;
/** An RWQ indirection table (struct ibv_rwq_ind_table). */
struct rte_pmd_mlx4v_ind_table;
/** A steering rule (struct ibv_flow). */
struct rte_pmd_mlx4v_flow;

/** Length of the Toeplitz key of an RSS QP: the only length a ConnectX-3 takes. */
#define RTE_PMD_MLX4V_RSS_KEY_LEN 40

/** Initializer of DPDK mlx4's default Toeplitz key (RTE_PMD_MLX4V_RSS_KEY_LEN bytes). */
#define RTE_PMD_MLX4V_RSS_KEY_DEFAULT { \
	0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7, 0xfc, 0xa2, \
	0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94, 0x6b, 0x9e, 0x38, 0xd9, \
	0x2c, 0x9c, 0x03, 0xd1, 0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56, \
	0x3d, 0x59, 0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a, \
}

/** Fields an RSS QP hashes, as enum ibv_rx_hash_fields (same values). */
enum rte_pmd_mlx4v_rx_hash {
	RTE_PMD_MLX4V_RX_HASH_SRC_IPV4 = 1 << 0,
	RTE_PMD_MLX4V_RX_HASH_DST_IPV4 = 1 << 1,
	RTE_PMD_MLX4V_RX_HASH_SRC_IPV6 = 1 << 2,
	RTE_PMD_MLX4V_RX_HASH_DST_IPV6 = 1 << 3,
	RTE_PMD_MLX4V_RX_HASH_SRC_PORT_TCP = 1 << 4,
	RTE_PMD_MLX4V_RX_HASH_DST_PORT_TCP = 1 << 5,
	RTE_PMD_MLX4V_RX_HASH_SRC_PORT_UDP = 1 << 6,
	RTE_PMD_MLX4V_RX_HASH_DST_PORT_UDP = 1 << 7,
};

/** RSS QP attributes, as struct ibv_qp_init_attr_ex with rx_hash_conf (Toeplitz). */
struct rte_pmd_mlx4v_rss_qp_attr {
	struct rte_pmd_mlx4v_ind_table *ind_table; /**< required */
	uint64_t hash_fields;  /**< OR of RTE_PMD_MLX4V_RX_HASH_*, in src/dst pairs */
	const uint8_t *key;    /**< RTE_PMD_MLX4V_RSS_KEY_LEN bytes, copied */
	uint8_t port;          /**< physical port, 1-based, given on RESET->INIT */
};

/**
 * What a steering rule matches, as DPDK's mlx4 builds its rules: MAC is an IBV_FLOW_ATTR_NORMAL
 * rule with a full destination MAC mask, ALLMULTI IBV_FLOW_ATTR_MC_DEFAULT and PROMISC
 * IBV_FLOW_ATTR_ALL_DEFAULT, both without a spec (they take what no MAC rule took).
 */
enum rte_pmd_mlx4v_flow_type {
	RTE_PMD_MLX4V_FLOW_MAC,       /**< frames to dmac */
	RTE_PMD_MLX4V_FLOW_ALLMULTI,  /**< every multicast and broadcast frame */
	RTE_PMD_MLX4V_FLOW_PROMISC,   /**< every frame */
};

/**
 * Lowest priority of a MAC rule (the kernel's largest verbs priority, 0xfff); 0 is the first.
 * DPDK's mlx4 keeps it for the rules of its MAC addresses.
 */
#define RTE_PMD_MLX4V_FLOW_PRIORITY_LAST 0xfff

/** What a MAC rule matches besides the destination MAC (rte_pmd_mlx4v_flow_attr match). */
#define RTE_PMD_MLX4V_FLOW_MATCH_VLAN (1u << 0) /**< the VLAN ID of the outer tag */
#define RTE_PMD_MLX4V_FLOW_MATCH_IPV4 (1u << 1) /**< IPv4, addresses by their masks */
#define RTE_PMD_MLX4V_FLOW_MATCH_TCP (1u << 2)  /**< TCP over IPv4, ports by their masks */
#define RTE_PMD_MLX4V_FLOW_MATCH_UDP (1u << 3)  /**< UDP over IPv4, ports by their masks */

/**
 * Steering rule attributes (struct ibv_flow_attr; a MAC rule is an Ethernet spec, then an IPv4
 * spec and a TCP or UDP spec when match asks for them). Fields after dmac are for MAC rules;
 * zero means the MAC alone at priority 0. Addresses and ports are in network order; a mask is
 * 0 (any) or all ones: the device takes no partial mask (doc/guides/prm/mlx4.rst §5.4).
 */
struct rte_pmd_mlx4v_flow_attr {
	enum rte_pmd_mlx4v_flow_type type;
	uint8_t port;          /**< physical port, 1-based: the QP's port */
	uint8_t dmac[6];       /**< RTE_PMD_MLX4V_FLOW_MAC only */
	uint16_t priority;     /**< 0 (first) to RTE_PMD_MLX4V_FLOW_PRIORITY_LAST */
	uint16_t vid;          /**< MATCH_VLAN: the VLAN ID, 0 to 4095 (host order) */
	uint32_t match;        /**< OR of RTE_PMD_MLX4V_FLOW_MATCH_* */
	uint32_t src_ip;       /**< MATCH_IPV4 */
	uint32_t src_ip_mask;
	uint32_t dst_ip;
	uint32_t dst_ip_mask;
	uint16_t src_port;     /**< MATCH_TCP or MATCH_UDP */
	uint16_t src_port_mask;
	uint16_t dst_port;
	uint16_t dst_port_mask;
};

/** Link layer of a port, as IBV_LINK_LAYER_* (same values). */
enum rte_pmd_mlx4v_link_layer {
	RTE_PMD_MLX4V_LINK_LAYER_UNSPECIFIED = 0,
	RTE_PMD_MLX4V_LINK_LAYER_INFINIBAND = 1,
	RTE_PMD_MLX4V_LINK_LAYER_ETHERNET = 2,
};

/** Port states, as enum ibv_port_state (same values); an Ethernet port is ACTIVE or DOWN. */
enum rte_pmd_mlx4v_port_state {
	RTE_PMD_MLX4V_PORT_NOP = 0,
	RTE_PMD_MLX4V_PORT_DOWN = 1,
	RTE_PMD_MLX4V_PORT_INIT = 2,
	RTE_PMD_MLX4V_PORT_ARMED = 3,
	RTE_PMD_MLX4V_PORT_ACTIVE = 4,
	RTE_PMD_MLX4V_PORT_ACTIVE_DEFER = 5,
};

/** A port as a raw Ethernet application needs it (rte_pmd_mlx4v_query_port()). */
struct rte_pmd_mlx4v_port_attr {
	uint8_t link_layer;    /**< enum rte_pmd_mlx4v_link_layer: must be ETHERNET */
	uint8_t state;         /**< enum rte_pmd_mlx4v_port_state: frames flow when ACTIVE */
	/** 1 with device-managed flow steering (IBV_DEVICE_MANAGED_FLOW_STEERING): required */
	uint8_t flow_steering;
	/** 1 when this process may create raw-packet QPs and rules (CAP_NET_RAW): required */
	uint8_t net_raw;
	uint32_t speed_mbps;   /**< link speed in Mb/s, 0 when down or unknown */
	int has_mac;           /**< 1 when mac is the port's permanent address */
	uint8_t mac[6];        /**< permanent MAC of the port's Ethernet function */
};

/** QP states, as IBV_QPS_*. */
enum rte_pmd_mlx4v_qp_state {
	RTE_PMD_MLX4V_QPS_RESET = 0,
	RTE_PMD_MLX4V_QPS_INIT,
	RTE_PMD_MLX4V_QPS_RTR,
	RTE_PMD_MLX4V_QPS_RTS,
	RTE_PMD_MLX4V_QPS_ERR,
};

/** WQ states, as IBV_WQS_*. */
enum rte_pmd_mlx4v_wq_state {
	RTE_PMD_MLX4V_WQS_RESET = 0,
	RTE_PMD_MLX4V_WQS_RDY,
	RTE_PMD_MLX4V_WQS_ERR,
};

/** Raw-packet QP attributes, as struct ibv_qp_init_attr plus the port. */
struct rte_pmd_mlx4v_qp_attr {
	struct rte_pmd_mlx4v_cq *send_cq;  /**< required */
	struct rte_pmd_mlx4v_cq *recv_cq;  /**< required */
	struct rte_pmd_mlx4v_srq *srq;     /**< optional; the QP then has no RQ */
	uint32_t max_send_wr;   /**< in: requested; out: usable (wqe_cnt - spare) */
	uint32_t max_recv_wr;   /**< in: requested; out: RQ entries (0 with an SRQ) */
	uint32_t max_send_sge;  /**< in: requested; out: what one WQE holds */
	uint32_t max_recv_sge;  /**< in: requested; out: granted (0 with an SRQ) */
	uint32_t max_inline_data; /**< in: requested; out: granted */
	uint8_t port;           /**< physical port, 1-based */
};

/** Receive work queue attributes, as struct ibv_wq_init_attr (type RQ) plus the port. */
struct rte_pmd_mlx4v_wq_attr {
	struct rte_pmd_mlx4v_cq *cq; /**< required */
	uint32_t max_wr;   /**< in: requested; out: RQ entries */
	uint32_t max_sge;  /**< in: requested; out: granted */
	uint8_t port;      /**< physical port, 1-based (a WQ takes its RSS QP's port on hardware) */
};

/** Device attributes, as the struct ibv_device_attr fields a PMD sizes its queues with. */
struct rte_pmd_mlx4v_dev_attr {
	uint32_t max_qp_wr;     /**< WRs of one send or receive queue */
	uint32_t max_sge;       /**< SGEs of one WQE */
	uint32_t max_cqe;       /**< entries of one CQ */
	uint32_t phys_port_cnt; /**< physical ports, numbered from 1 */
	char fw_ver[64];        /**< firmware version string, "" when unknown */
	/**
	 * 1 on an SR-IOV virtual function: its sends pass the embedded switch, which steers by
	 * the control segment's MAC (prm/mlx4 §4.2).
	 */
	uint8_t vf;
};

/** Input/output of rte_pmd_mlx4v_init_obj(): rdma-core's mlx4dv structs as outputs. */
struct rte_pmd_mlx4v_obj {
	struct {
		struct rte_pmd_mlx4v_qp *in;
		struct mlx4dv_qp *out;
	} qp;
	struct {
		struct rte_pmd_mlx4v_cq *in;
		struct mlx4dv_cq *out;
	} cq;
	struct {
		struct rte_pmd_mlx4v_srq *in;
		struct mlx4dv_srq *out;
	} srq;
	struct {
		struct rte_pmd_mlx4v_wq *in;
		struct mlx4dv_rwq *out;
	} rwq;
};

/**
 * Open a device by its EAL device name ("mlx4v_sim0", or a PCI address probed by
 * mlx4v_pci), like ibv_open_device(). Each call returns a new handle.
 *
 * Removing the device (rte_vdev_uninit(), rte_dev_remove(), or rte_eal_cleanup()
 * at exit) force-releases its handles and every object created on them, with a
 * WARNING log. Any call given one of them afterwards fails with EINVAL; the
 * application must not touch their rings or doorbells any more.
 *
 * @param name EAL device name.
 * @return the handle, or NULL with errno/rte_errno: EINVAL (NULL name), ENODEV (no
 *   such mlx4v device), ENOSPC (too many open handles), ENOMEM, or the backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_dev *rte_pmd_mlx4v_dev_open(const char *name);

/**
 * Close a handle, like ibv_close_device().
 *
 * @param dev Handle.
 * @return 0, EINVAL (not an open handle), EBUSY (objects still exist on it).
 */
__rte_experimental
int rte_pmd_mlx4v_dev_close(struct rte_pmd_mlx4v_dev *dev);

/**
 * Query the prerequisites of a port for raw Ethernet queues: Ethernet link layer, port state,
 * device-managed flow steering, CAP_NET_RAW (ibv_query_port(), ibv_query_device(), the
 * process's capabilities). Creating a QP, WQ, RSS QP or steering rule on a port that lacks one
 * fails with a log naming it: EPROTONOSUPPORT (not Ethernet), ENOTSUP (no device-managed flow
 * steering: RSS QPs and rules), EPERM (no CAP_NET_RAW: QPs, RSS QPs and rules). A port that
 * is not ACTIVE is no error: frames flow once the link comes up. Also gives the link speed and
 * the permanent MAC of the port's Ethernet function when the backend knows it.
 *
 * @param dev Handle.
 * @param port Physical port, 1-based.
 * @param attr Output.
 * @return 0, EINVAL (not an open handle, attr NULL, no such port), or the backend's error.
 */
__rte_experimental
int rte_pmd_mlx4v_query_port(struct rte_pmd_mlx4v_dev *dev, uint8_t port,
			     struct rte_pmd_mlx4v_port_attr *attr);

/**
 * Allocate a protection domain, like ibv_alloc_pd().
 *
 * @param dev Handle.
 * @return the PD, or NULL with errno/rte_errno: EINVAL, ENOMEM, or the backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_pd *rte_pmd_mlx4v_alloc_pd(struct rte_pmd_mlx4v_dev *dev);

/**
 * Free a protection domain, like ibv_dealloc_pd().
 *
 * @param pd PD.
 * @return 0, EINVAL (not a live PD), EBUSY (MRs, QPs, SRQs or WQs still use it).
 */
__rte_experimental
int rte_pmd_mlx4v_dealloc_pd(struct rte_pmd_mlx4v_pd *pd);

/**
 * Register [addr, addr + len) for local access, like ibv_reg_mr(LOCAL_WRITE).
 *
 * @param pd PD.
 * @param addr Start of the range.
 * @param len Length in bytes, > 0.
 * @return the MR, or NULL with errno/rte_errno: EINVAL, EFAULT (some byte of the range is
 *   neither EAL memory nor external memory registered with rte_extmem_register()), ENOMEM,
 *   or the backend's error. The memory must stay so until the MR is deregistered.
 */
__rte_experimental
struct rte_pmd_mlx4v_mr *rte_pmd_mlx4v_reg_mr(struct rte_pmd_mlx4v_pd *pd, void *addr,
					      size_t len);

/** Most VA ranges (memory chunks) of a mempool rte_pmd_mlx4v_reg_mempool() takes. */
#define RTE_PMD_MLX4V_MR_MAX_RANGES 256

/** One registered VA range of an MR and its lkey (rte_pmd_mlx4v_mr_ranges()). */
struct rte_pmd_mlx4v_mr_range {
	uintptr_t addr;        /**< first byte */
	size_t len;            /**< bytes */
	uint32_t lkey;         /**< for data segments in [addr, addr + len) */
};

/**
 * Register the memory of a whole mempool. Its memory chunks are taken in address order;
 * neighbours are merged into one VA range when the gap between them is EAL or registered
 * external memory too, and each remaining range is registered separately, as on hardware a
 * span over a hole (address space that is not mapped memory) cannot be pinned: ibv_reg_mr()
 * fails with EFAULT. A pool of one range (the usual case) gets one lkey
 * (rte_pmd_mlx4v_mr_lkey()); a pool of several gets one per range
 * (rte_pmd_mlx4v_mr_ranges()).
 *
 * @param pd PD.
 * @param mp Populated mempool.
 * @return the MR, or NULL with errno/rte_errno: EINVAL (NULL or empty pool), EFAULT (a
 *   chunk is neither EAL nor registered external memory), E2BIG (more than
 *   RTE_PMD_MLX4V_MR_MAX_RANGES chunks), ENOMEM, or the backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_mr *rte_pmd_mlx4v_reg_mempool(struct rte_pmd_mlx4v_pd *pd,
						   struct rte_mempool *mp);

/**
 * Deregister an MR, like ibv_dereg_mr().
 *
 * @param mr MR.
 * @return 0 or EINVAL (not a live MR).
 */
__rte_experimental
int rte_pmd_mlx4v_dereg_mr(struct rte_pmd_mlx4v_mr *mr);

/**
 * Read an MR's lkey (struct ibv_mr::lkey), for data segments.
 *
 * @param mr MR.
 * @param lkey Output.
 * @return 0, EINVAL (not a live MR, or lkey NULL), ENOTUNIQ (a mempool MR of several VA
 *   ranges, one lkey each: see rte_pmd_mlx4v_mr_ranges()).
 */
__rte_experimental
int rte_pmd_mlx4v_mr_lkey(const struct rte_pmd_mlx4v_mr *mr, uint32_t *lkey);

/**
 * The VA ranges of an MR with their lkeys, in address order: one for rte_pmd_mlx4v_reg_mr(),
 * one per range for rte_pmd_mlx4v_reg_mempool(). A data segment takes the lkey of the range
 * that holds it, and must not cross a range's end.
 *
 * @param mr MR.
 * @param ranges Output array of n entries (may be NULL when n is 0).
 * @param n Entries of ranges; the first n ranges are written.
 * @param count Output: how many ranges the MR has (may exceed n).
 * @return 0 or EINVAL (not a live MR, count NULL, ranges NULL with n > 0).
 */
__rte_experimental
int rte_pmd_mlx4v_mr_ranges(const struct rte_pmd_mlx4v_mr *mr,
			    struct rte_pmd_mlx4v_mr_range *ranges, unsigned int n,
			    unsigned int *count);

/**
 * Create a CQ, like ibv_create_cq(). The ring holds roundup_pow_of_two(cqe + 1)
 * entries; ring and doorbell record are in EAL memory on the device's socket.
 *
 * @param dev Handle.
 * @param cqe Minimum number of entries, 1 to 0x3fffff.
 * @param cqe_size 32 or 64 bytes, or 0 for the device default (64 on the simulator, as a
 *   ConnectX-3 with the kernel's default 64-byte CQEs).
 * @param with_events Nonzero to get completion events on an eventfd
 *   (rte_pmd_mlx4v_cq_event_fd()).
 * @return the CQ, or NULL with errno/rte_errno: EINVAL (bad argument), ENOTSUP
 *   (cqe_size the device cannot give), ENOMEM, or the backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_cq *rte_pmd_mlx4v_create_cq(struct rte_pmd_mlx4v_dev *dev, int cqe,
						 int cqe_size, int with_events);

/**
 * Destroy a CQ, like ibv_destroy_cq().
 *
 * @param cq CQ.
 * @return 0, EINVAL (not a live CQ), EBUSY (a QP or WQ uses it, or events are not acked).
 */
__rte_experimental
int rte_pmd_mlx4v_destroy_cq(struct rte_pmd_mlx4v_cq *cq);

/**
 * The non-blocking fd that becomes readable when the CQ has an event
 * (struct ibv_comp_channel::fd). It belongs to the CQ: do not close or read it.
 *
 * @param cq CQ created with events.
 * @return the fd, or -1 with errno/rte_errno EINVAL (not a live CQ, or no events).
 */
__rte_experimental
int rte_pmd_mlx4v_cq_event_fd(const struct rte_pmd_mlx4v_cq *cq);

/**
 * Take one completion event, like ibv_get_cq_event(): it also advances the CQ's
 * arm_sn, so the next arm doorbell must use the arm_sn of a fresh CQ view (or the
 * caller's own copy incremented by one). Never blocks.
 *
 * @param cq CQ created with events.
 * @return 0 (one event taken; ack it later), EAGAIN (none pending), EINVAL.
 */
__rte_experimental
int rte_pmd_mlx4v_get_cq_event(struct rte_pmd_mlx4v_cq *cq);

/**
 * Acknowledge events, like ibv_ack_cq_events(). A CQ cannot be destroyed while
 * events are unacknowledged.
 *
 * @param cq CQ.
 * @param nevents Number of events, at most the number taken and not yet acked.
 * @return 0 or EINVAL.
 */
__rte_experimental
int rte_pmd_mlx4v_ack_cq_events(struct rte_pmd_mlx4v_cq *cq, unsigned int nevents);

/**
 * Whether the device put a CQ in error. A CQ overruns when the device completes more work than
 * it has free entries by the consumer index software last wrote; the device then puts the CQ
 * in error and raises the asynchronous CQ error event (IBV_EVENT_CQ_ERR), as a ConnectX-3
 * does. The CQ writes no completion any more: destroy it and recreate it with the queues that
 * use it. The event is also logged and reported to the device's class drivers.
 *
 * @param cq CQ.
 * @param in_error Output: 1 when the CQ is in error, else 0.
 * @return 0 or EINVAL (not a live CQ, or in_error NULL).
 */
__rte_experimental
int rte_pmd_mlx4v_cq_in_error(const struct rte_pmd_mlx4v_cq *cq, int *in_error);

/**
 * Create an SRQ, like ibv_create_srq(): roundup_pow_of_two(max_wr + 1) WQEs, linked
 * into libmlx4's free list.
 *
 * @param pd PD.
 * @param max_wr At most 65536 (libmlx4) and the device's SRQ WRs (16383 on a ConnectX-3).
 * @param max_sge At most 64 (libmlx4) and the device's SRQ SGEs (31 on a ConnectX-3).
 * @return the SRQ, or NULL with errno/rte_errno: EINVAL, ENOMEM, or the backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_srq *rte_pmd_mlx4v_create_srq(struct rte_pmd_mlx4v_pd *pd,
						   uint32_t max_wr, uint32_t max_sge);

/**
 * Destroy an SRQ.
 *
 * @param srq SRQ.
 * @return 0, EINVAL (not a live SRQ), EBUSY (a QP uses it).
 */
__rte_experimental
int rte_pmd_mlx4v_destroy_srq(struct rte_pmd_mlx4v_srq *srq);

/**
 * Create a raw-packet QP (IBV_QPT_RAW_PACKET) in RESET, sized exactly as libmlx4
 * sizes it. attr capacities are updated with the granted values.
 *
 * @param pd PD.
 * @param attr Attributes (CQs/SRQ of the same handle).
 * @return the QP, or NULL with errno/rte_errno: EINVAL (bad attribute, foreign
 *   object, beyond the device's WRs and SGEs (16351 / 32 on a ConnectX-3) or 1024 inline
 *   bytes), ENOMEM, or the backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_qp *rte_pmd_mlx4v_create_qp(struct rte_pmd_mlx4v_pd *pd,
						 struct rte_pmd_mlx4v_qp_attr *attr);

/**
 * Move a QP to another state, as the kernel allows it: any state to RESET, any state but
 * RESET to ERR, RESET->INIT (which gives the port), INIT->INIT, INIT->RTR, RTR->RTS,
 * RTS->RTS; an RSS QP stops at RTR. RESET->INIT initialises SQ ownership
 * (every WQE owner bit 1). ->RESET removes the QP's CQEs from CQs that were never
 * handed out as views (see rte_pmd_mlx4v_init_obj()).
 *
 * @param qp QP.
 * @param state Target state.
 * @return 0, EINVAL (not a live QP, bad transition), or the backend's error.
 */
__rte_experimental
int rte_pmd_mlx4v_modify_qp(struct rte_pmd_mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state);

/**
 * Destroy a QP. Its CQEs are removed from CQs that are not DV-owned.
 *
 * @param qp QP.
 * @return 0 or EINVAL (not a live QP).
 */
__rte_experimental
int rte_pmd_mlx4v_destroy_qp(struct rte_pmd_mlx4v_qp *qp);

/**
 * The QP number (struct ibv_qp::qp_num), as found in CQEs.
 *
 * @param qp QP.
 * @param qpn Output.
 * @return 0 or EINVAL.
 */
__rte_experimental
int rte_pmd_mlx4v_qp_num(const struct rte_pmd_mlx4v_qp *qp, uint32_t *qpn);

/**
 * Create a receive WQ (IBV_WQT_RQ) in RESET, with libmlx4's dummy 64-byte SQ.
 *
 * @param pd PD.
 * @param attr Attributes; max_wr/max_sge are updated with the granted values.
 * @return the WQ, or NULL with errno/rte_errno: EINVAL (bad attribute, beyond the device's
 *   WRs and SGEs), ENOMEM, or the backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_wq *rte_pmd_mlx4v_create_wq(struct rte_pmd_mlx4v_pd *pd,
						 struct rte_pmd_mlx4v_wq_attr *attr);

/**
 * Move a WQ to RDY, RESET or ERR, as mlx4_ib_modify_wq() allows it: not RESET->ERR, not
 * ERR->RDY (the current state is passed along). ->RESET removes its CQEs from a CQ that
 * is not DV-owned and zeroes its doorbell record. On a ConnectX-3 a WQ in RDY receives
 * only once an RSS QP uses it (rte_pmd_mlx4v_create_rss_qp()).
 *
 * @param wq WQ.
 * @param state Target state.
 * @return 0, EINVAL, or the backend's error.
 */
__rte_experimental
int rte_pmd_mlx4v_modify_wq(struct rte_pmd_mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state);

/**
 * Destroy a WQ.
 *
 * @param wq WQ.
 * @return 0 or EINVAL (not a live WQ).
 */
__rte_experimental
int rte_pmd_mlx4v_destroy_wq(struct rte_pmd_mlx4v_wq *wq);

/**
 * The WQ number (struct ibv_wq::wq_num), as found in its CQEs.
 *
 * @param wq WQ.
 * @param wqn Output.
 * @return 0 or EINVAL.
 */
__rte_experimental
int rte_pmd_mlx4v_wq_num(const struct rte_pmd_mlx4v_wq *wq, uint32_t *wqn);

/**
 * mlx4dv_init_obj() for mlx4v objects: fill rdma-core's mlx4dv_qp, mlx4dv_cq,
 * mlx4dv_srq and mlx4dv_rwq exactly as rdma-core fills them, in the order QP, CQ,
 * SRQ, RWQ; the first error stops the sequence.
 *
 * comp_mask of the QP and CQ outputs is read as input (MLX4DV_QP_MASK_UAR_MMAP_OFFSET,
 * MLX4DV_CQ_MASK_UAR) and overwritten with the bits filled. Asking for a CQ marks it
 * DV-owned for good: QP/WQ reset and destroy no longer clean its entries.
 *
 * Stricter than upstream: every requested pair is validated before anything is
 * written, so a call that fails with EINVAL leaves all outputs untouched.
 *
 * @param obj In/out pairs; only the requested ones are read.
 * @param obj_type OR of MLX4DV_OBJ_QP, MLX4DV_OBJ_CQ, MLX4DV_OBJ_SRQ, MLX4DV_OBJ_RWQ.
 * @return 0, or EINVAL: obj NULL; a bit outside the four types; for a requested type
 *   an in or out pointer NULL, or in not a live mlx4v object of that type. A backend
 *   error (rdma-core) is returned as is.
 */
__rte_experimental
int rte_pmd_mlx4v_init_obj(struct rte_pmd_mlx4v_obj *obj, uint64_t obj_type);

/**
 * Query the device, like ibv_query_device().
 *
 * @param dev Handle.
 * @param attr Output.
 * @return 0 or EINVAL (not a handle, attr NULL).
 */
__rte_experimental
int rte_pmd_mlx4v_query_device(struct rte_pmd_mlx4v_dev *dev,
			       struct rte_pmd_mlx4v_dev_attr *attr);

/**
 * Open (up 1) or close (up 0) a physical port, as the driver's INIT_PORT / CLOSE_PORT do: a
 * closed port takes its link down at both ends of the cable. The port events this causes are
 * reported to the class drivers before the call returns, without the library's lock held.
 * Not to be called concurrently with closing dev.
 *
 * @param dev Handle.
 * @param port Physical port, 1-based.
 * @param up 1 open, 0 close.
 * On the rdma-core backend this is the kernel netdev's IFF_UP (mlx4_en opens and closes the
 * port with it); it needs CAP_NET_ADMIN.
 *
 * @return 0, EINVAL (not a handle, no such port), ENOTSUP (the backend cannot), EPERM (no
 *   CAP_NET_ADMIN), ENODEV (no netdev for the port), or the backend's error.
 */
__rte_experimental
int rte_pmd_mlx4v_port_admin_set(struct rte_pmd_mlx4v_dev *dev, uint8_t port, int up);

/**
 * Set the MTU of a physical port: on a ConnectX-3 the kernel's netdev owns it (SIOCSIFMTU;
 * mlx4_en programs the port's largest frame, MTU plus Ethernet header and one VLAN tag, from
 * it) and the port drops longer frames it receives.
 *
 * @param dev Handle.
 * @param port Physical port, 1-based.
 * @param mtu L3 MTU.
 * @return 0, EINVAL (not a handle, no such port), ENOTSUP (the backend cannot), EPERM (no
 *   CAP_NET_ADMIN), or the backend's error.
 */
__rte_experimental
int rte_pmd_mlx4v_port_mtu_set(struct rte_pmd_mlx4v_dev *dev, uint8_t port, uint16_t mtu);

/**
 * Set the size of the WQ number ranges of a handle, like mlx4dv_set_context_attr(
 * MLX4DV_SET_CTX_ATTR_LOG_WQS_RANGE_SZ). An indirection table needs consecutive WQ numbers
 * aligned to its size, which only WQs of one range have: set it to the log2 of the largest
 * table before the first WQ, as DPDK's mlx4 does.
 *
 * @param dev Handle.
 * @param log_range log2 of the range, at most log2 of the device's largest table.
 * @return 0, EINVAL (not a handle, log_range too big), EBUSY (a WQ exists on the handle).
 */
__rte_experimental
int rte_pmd_mlx4v_set_wqs_range(struct rte_pmd_mlx4v_dev *dev, uint8_t log_range);

/**
 * Create an RWQ indirection table, like ibv_create_rwq_ind_table(). The WQs must be
 * consecutive WQ numbers of one range (rte_pmd_mlx4v_set_wqs_range()).
 *
 * @param dev Handle.
 * @param log_size log2 of the number of entries.
 * @param wqs 1 << log_size WQs of this handle, in WQ number order.
 * @return the table, or NULL with errno/rte_errno: EINVAL (bad argument, WQ numbers not
 *   consecutive), ENOMEM, or the backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_ind_table *
rte_pmd_mlx4v_create_rwq_ind_table(struct rte_pmd_mlx4v_dev *dev, uint32_t log_size,
				   struct rte_pmd_mlx4v_wq *const *wqs);

/**
 * Destroy an indirection table.
 *
 * @param ind Table.
 * @return 0, EINVAL (not a live table), EBUSY (an RSS QP uses it).
 */
__rte_experimental
int rte_pmd_mlx4v_destroy_rwq_ind_table(struct rte_pmd_mlx4v_ind_table *ind);

/**
 * Create an RSS QP in RESET (ibv_create_qp_ex() with IBV_QP_INIT_ATTR_RX_HASH and the
 * table): a raw-packet QP without rings that spreads what its steering rules match over
 * the table's WQs by the Toeplitz hash of attr->hash_fields. Move it to INIT (its port)
 * then RTR with rte_pmd_mlx4v_modify_qp(); destroy it with rte_pmd_mlx4v_destroy_qp().
 * The WQs receive only once it is in RTR and they are in RDY. rte_pmd_mlx4v_init_obj() refuses it.
 *
 * @param pd PD.
 * @param attr Attributes.
 * @return the QP, or NULL with errno/rte_errno: EINVAL (bad attribute, WQ numbers not
 *   aligned to the table size, unpaired hash fields), ENOMEM, or the backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_qp *rte_pmd_mlx4v_create_rss_qp(struct rte_pmd_mlx4v_pd *pd,
						     const struct rte_pmd_mlx4v_rss_qp_attr *attr);

/**
 * Attach a steering rule to a QP (its RQ or SRQ receives) or an RSS QP (its WQs receive),
 * like ibv_create_flow(). Nothing is received without a rule. Frames that match several
 * rules go to the most specific kind (MAC, then ALLMULTI, then PROMISC), among MAC rules to
 * those of the first priority, one copy per QP.
 *
 * @param qp QP or RSS QP; frames reach it once it is in RTR (or RTS).
 * @param attr Rule.
 * @return the rule, or NULL with errno/rte_errno: EINVAL (bad argument, port not the
 *   QP's, match on a rule other than MAC, TCP or UDP without IPv4; or what the device
 *   refuses: a partial mask, a priority beyond RTE_PMD_MLX4V_FLOW_PRIORITY_LAST, a UDP
 *   destination port at a priority other than 0), ENOMEM, EPERM (no CAP_NET_RAW), or the
 *   backend's error.
 */
__rte_experimental
struct rte_pmd_mlx4v_flow *rte_pmd_mlx4v_create_flow(struct rte_pmd_mlx4v_qp *qp,
						     const struct rte_pmd_mlx4v_flow_attr *attr);

/**
 * Detach and free a steering rule, like ibv_destroy_flow().
 *
 * @param flow Rule.
 * @return 0 or EINVAL (not a live rule).
 */
__rte_experimental
int rte_pmd_mlx4v_destroy_flow(struct rte_pmd_mlx4v_flow *flow);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_PMD_MLX4V_H_ */
