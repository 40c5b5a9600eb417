/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Control API of the simulated ConnectX-3 (vdev mlx4v_sim): live-object and misuse
 * counters, fault knobs, packet injection. For tests and testpmd; not for data paths.
 */

#ifndef _MLX4V_SIM_H_
#define _MLX4V_SIM_H_

#include <stdint.h>

#include <rte_compat.h>
#include <rte_ether.h>

/** One simulated HCA (one mlx4v_sim vdev). */
struct mlx4v_sim;

/** Kinds of objects the device model holds. */
enum mlx4v_sim_obj {
	MLX4V_SIM_OBJ_PD,
	MLX4V_SIM_OBJ_MR,
	MLX4V_SIM_OBJ_CQ,
	MLX4V_SIM_OBJ_QP,
	MLX4V_SIM_OBJ_SRQ,
	MLX4V_SIM_OBJ_WQ,
	MLX4V_SIM_OBJ_IND,      /**< RWQ indirection tables */
	MLX4V_SIM_OBJ_FLOW,     /**< steering rules */
	MLX4V_SIM_OBJ_MAX,
};

/** Misuse the model detects; each is counted and logged on pmd.common.mlx4v.sim. */
enum mlx4v_sim_misuse {
	MLX4V_SIM_MISUSE_SQ_OWNER,      /**< WQE written with the owner bit of the wrong pass */
	MLX4V_SIM_MISUSE_SQ_WQE_SIZE,   /**< DS count 0, WQE beyond the ring, bad inline segment */
	MLX4V_SIM_MISUSE_SQ_OPCODE,     /**< opcode a raw-packet QP cannot execute */
	MLX4V_SIM_MISUSE_QP_STATE,      /**< send doorbell on a QP not in RTS (or ERR) */
	MLX4V_SIM_MISUSE_SDB_VALUE,     /**< send doorbell value is not this QP's doorbell_qpn */
	MLX4V_SIM_MISUSE_DB_WRONG_PAGE, /**< a doorbell written at the offset of another kind */
	MLX4V_SIM_MISUSE_RQ_DB_RECORD,  /**< RQ/SRQ doorbell record backwards or beyond the ring */
	MLX4V_SIM_MISUSE_ARM_DB_RECORD, /**< arm doorbell without the matching arm_db record */
	MLX4V_SIM_MISUSE_ARM_PACKING,   /**< arm doorbell packed mlx5-style (ci high, cqn low) */
	MLX4V_SIM_MISUSE_ARM_CQN,       /**< arm doorbell naming another CQ */
	MLX4V_SIM_MISUSE_ARM_SN,        /**< arm with the sn that fired, its event read */
	MLX4V_SIM_MISUSE_CI_STALE,      /**< arm doorbell CI differs from *set_ci_db */
	MLX4V_SIM_MISUSE_CI_BACKWARDS,  /**< *set_ci_db moved backwards */
	MLX4V_SIM_MISUSE_CI_AHEAD,      /**< *set_ci_db beyond the producer */
	MLX4V_SIM_MISUSE_CQ_OVERRUN,    /**< CQ full by *set_ci_db: the consumer index is stale */
	MLX4V_SIM_MISUSE_LKEY,          /**< lkey unknown, of another PD, or range outside its MR */
	MLX4V_SIM_MISUSE_DMA,           /**< queue or data access outside the mapped windows */
	MLX4V_SIM_MISUSE_SQ_DMAC,       /**< raw Ethernet send without the frame's MAC in ctrl */
	MLX4V_SIM_MISUSE_SQ_PREFETCH,   /**< a TXBB changed after its first dword was valid */
	MLX4V_SIM_MISUSE_SQ_CSUM_SPLIT, /**< IP_HDR_CSUM or TCP_UDP_CSUM without the other */
	MLX4V_SIM_MISUSE_BF_WRITE,      /**< BlueFlame write torn, malformed or naming no QP */
	MLX4V_SIM_MISUSE_MAX,
};

/** Traffic counters. */
struct mlx4v_sim_stats {
	uint64_t doorbells;    /**< send doorbells accepted */
	uint64_t bf_writes;    /**< WQEs taken whole from BlueFlame writes */
	uint64_t tx_packets;
	uint64_t tx_bytes;
	uint64_t rx_packets;   /**< packets scattered into a receive WQE */
	uint64_t rx_bytes;
	uint64_t rx_dropped;   /**< no rule matched, no receiver it names had a WQE posted, dead */
	uint64_t rx_no_rule;   /**< of rx_dropped: no steering rule of the port matched */
	uint64_t tx_loopback;  /**< sent frames a local rule took back (by the control MAC) */
	uint64_t cqes;         /**< CQEs written, errors included */
	uint64_t err_cqes;
	uint64_t cqe_dropped;  /**< CQEs lost to overrun (and to the CQ's error state after it) */
	uint64_t cq_errors;    /**< CQs put in error by an overrun (CQ error events raised) */
	uint64_t events;       /**< completion events signalled */
	uint64_t events_lost;  /**< events swallowed by the lose_cq_event knob */
	uint64_t arms;         /**< valid arm doorbells */
	uint64_t arms_stale;   /**< arms with the sn that fired, its event unread: ignored */
};

struct mlx4v_verbs_ops;

/**
 * Create a model outside any vdev, for a host that plays the kernel (the verbs emulation,
 * doc/guides/platform/verbs_emulation.rst). Needs no EAL: the model lives in libc memory and
 * its own threads. The host opens handles on it through mlx4v_sim_host_ops(), with dev_priv
 * the model.
 *
 * @param name
 *   Name of the model (mlx4v_sim_get(), and the wire's name of its ports).
 * @param args
 *   The mlx4v_sim devargs (ports=, mode=, wire<N>=, mac=, knobs), or NULL.
 * @return
 *   The model, or NULL with rte_errno set (EINVAL: devargs refused, with a log naming them).
 */
__rte_internal
struct mlx4v_sim *mlx4v_sim_host_create(const char *name, const char *args);

/** Destroy a model of mlx4v_sim_host_create(), with any object still in it. NULL: no-op. */
__rte_internal
void mlx4v_sim_host_destroy(struct mlx4v_sim *sim);

/** @return the model's verbs operations (the seam of drivers/common/mlx4v/mlx4v_verbs.h). */
__rte_internal
const struct mlx4v_verbs_ops *mlx4v_sim_host_ops(void);

struct mlx4v_class_event;

/**
 * How a host hears the device's asynchronous events (port active or down, a CQ in error, the
 * catastrophic error), as the kernel hears the ConnectX-3's event queue: called with no model
 * lock held, from the thread that saw the event (the engine, the wire, a link_set caller).
 */
typedef void (*mlx4v_sim_host_event_cb)(struct mlx4v_sim *sim,
					const struct mlx4v_class_event *ev, void *arg);

/**
 * Set (cb non-NULL) or clear the host's event callback of a model of mlx4v_sim_host_create().
 * The events also go to the device's class drivers, as before. @return 0 or -EINVAL.
 */
__rte_internal
int mlx4v_sim_host_event_set(struct mlx4v_sim *sim, mlx4v_sim_host_event_cb cb, void *arg);

/**
 * Find a simulated device by its vdev name.
 * @return the device, or NULL with rte_errno ENODEV.
 */
__rte_internal
struct mlx4v_sim *mlx4v_sim_get(const char *name);

/** @return the number of ports (1-based port numbers go up to it). */
__rte_internal
unsigned int mlx4v_sim_ports(struct mlx4v_sim *sim);

/** @return live objects of a kind in the device model; 0 for a bad kind. */
__rte_internal
unsigned int mlx4v_sim_live_objects(struct mlx4v_sim *sim, enum mlx4v_sim_obj kind);

/**
 * A store to the UAR page a host gives software for a whole context, as libmlx4 rings it
 * (doc/guides/prm/mlx4.rst §7): the device finds the object in the value, as silicon does,
 * and takes the store as a doorbell on that object's own page. The CQ arm doorbell at 0x20
 * (raw: the 8 bytes as stored, cqn in the first big-endian dword), the send doorbell at 0x14
 * (raw: the 4 bytes as stored, BE32(qpn << 8)). A doorbell naming no live object is counted
 * as the misuse arm_cqn or sdb_value and dropped.
 * @return 0, -EINVAL for another offset, -EIO for a dead device.
 */
__rte_internal
int mlx4v_sim_uar_store(struct mlx4v_sim *sim, uint32_t off, uint64_t raw);

/** Size of the BlueFlame register of a BF page (two halves written in turn). */
#define MLX4V_SIM_BF_REG_SIZE 512u

/**
 * One 8-byte store at offset off of the UAR's BlueFlame page (raw: the bytes as stored, in
 * memory order); the store completing a WQE posts it. @return 0, -EINVAL (offset), -EIO.
 */
int mlx4v_sim_bf_store(struct mlx4v_sim *sim, uint32_t off, uint64_t raw);

/** A CQ as the model holds it (mlx4v_sim_cq_info()). */
struct mlx4v_sim_cq_info {
	const void *buf;               /**< the ring the model writes CQEs into */
	uint32_t cqe_cnt;              /**< entries */
	int cqe_size;                  /**< bytes per CQE */
	const uint32_t *set_ci_db;     /**< the doorbell record it reads the consumer index from */
};

/**
 * The model's view of CQ cqn, to compare with what software holds.
 * @return 0, or -ENOENT when no such CQ is live.
 */
__rte_internal
int mlx4v_sim_cq_info(struct mlx4v_sim *sim, uint32_t cqn, struct mlx4v_sim_cq_info *info);

/**
 * Arm the limit of SRQ srqn (0 disarms): once fewer than limit WQEs stay posted after the device
 * takes one, the model reports MLX4V_CLASS_EVENT_SRQ_LIMIT and disarms (mlx4_ib's modify_srq).
 * @return 0, -ENOENT (no such SRQ) or -EINVAL (limit not below the ring's WQEs).
 */
__rte_internal
int mlx4v_sim_srq_arm(struct mlx4v_sim *sim, uint32_t srqn, uint32_t limit);

/** The armed limit of SRQ srqn, 0 once it fired or if never armed. @return 0 or -ENOENT. */
__rte_internal
int mlx4v_sim_srq_query(struct mlx4v_sim *sim, uint32_t srqn, uint32_t *limit);

/** A QP as the model holds it (mlx4v_sim_qp_info()). */
struct mlx4v_sim_qp_info {
	const void *sq;                /**< the first send WQE */
	uint32_t sq_wqe_cnt;
	int sq_shift;
	const void *rq;                /**< the first receive WQE */
	uint32_t rq_wqe_cnt;           /**< 0 without a receive queue */
	int rq_shift;
	const uint32_t *rdb;           /**< the receive doorbell record */
	uint32_t doorbell_qpn;         /**< the send doorbell value it takes, BE32(qpn << 8) */
};

/**
 * The model's view of QP qpn, to compare with what software holds.
 * @return 0, or -ENOENT when no such QP is live.
 */
__rte_internal
int mlx4v_sim_qp_info(struct mlx4v_sim *sim, uint32_t qpn, struct mlx4v_sim_qp_info *info);

/** @return how often a misuse was detected; 0 for a bad kind. */
__rte_internal
uint64_t mlx4v_sim_misuse_count(struct mlx4v_sim *sim, enum mlx4v_sim_misuse kind);

/** @return the sum of all misuse counters. */
__rte_internal
uint64_t mlx4v_sim_misuse_total(struct mlx4v_sim *sim);

/** @return the name of a misuse kind ("sq_owner", ...), or "unknown". */
__rte_internal
const char *mlx4v_sim_misuse_name(enum mlx4v_sim_misuse kind);

/** Zero the misuse counters. */
__rte_internal
void mlx4v_sim_misuse_reset(struct mlx4v_sim *sim);

/**
 * Copy the traffic counters.
 * @return 0 or -EINVAL.
 */
__rte_internal
int mlx4v_sim_stats_get(struct mlx4v_sim *sim, struct mlx4v_sim_stats *st);

/**
 * Set a fault knob by name: strict_cqe_owner, fail_alloc_pd, fail_reg_mr,
 * fail_create_cq, fail_create_qp, fail_create_srq, fail_create_wq, fail_modify_qp,
 * fail_modify_wq, lose_cq_event, fail_send, and the platform modes host_page, ib_ports,
 * no_dmfs, no_net_raw, and fatal (the catastrophic error: the device dies and stays dead)
 * (doc/guides/sim/mlx4v_sim.rst). The same names are devargs.
 * @return 0, -ENOENT (unknown knob) or -ERANGE.
 */
__rte_internal
int mlx4v_sim_knob_set(struct mlx4v_sim *sim, const char *name, int64_t value);

/**
 * Read a fault knob.
 * @return 0 or -ENOENT.
 */
__rte_internal
int mlx4v_sim_knob_get(struct mlx4v_sim *sim, const char *name, int64_t *value);

/**
 * Receive a packet from the wire on a port, as if a peer had sent it (whatever the link
 * state); it is steered by its destination MAC through the port's rules (see the guide).
 * @return 0 when scattered into a receive WQE, -ENOBUFS when dropped, -EIO when the device
 *   is dead (dropped too), -EINVAL.
 */
__rte_internal
int mlx4v_sim_inject(struct mlx4v_sim *sim, unsigned int port, const void *pkt,
		     uint32_t len);

/**
 * Run one pass of the device engine in the caller's thread (the engine thread keeps
 * running too). Tests use it to make progress without waiting for the thread.
 * @return the work done (doorbells and WQEs handled).
 */
__rte_internal
int mlx4v_sim_poll(struct mlx4v_sim *sim);

/**
 * Run one pass of the send queues' prefetcher (knob sq_prefetch) in the caller's thread, as
 * the engine does before each pass: a test that steps a producer store by store calls it
 * between two stores. @return 0, or -EINVAL without a device.
 */
__rte_internal
int mlx4v_sim_prefetch_poll(struct mlx4v_sim *sim);

/**
 * Run, on every send queue in RTS, the owner check a walk makes when a doorbell found no
 * valid WQE: a test writes a WQE (with the right owner) after the walk and before the check,
 * as a producer racing the engine does. @return 0, or -EINVAL without a device.
 */
__rte_internal
int mlx4v_sim_sq_owner_check(struct mlx4v_sim *sim);

/** Wire counters of one port. */
struct mlx4v_sim_port_stats {
	uint64_t rx_link_down;     /**< frames from the wire while the link was down */
	uint64_t rx_fcs_bad;       /**< frames with a bad FCS (the wire's corrupt_next knob) */
	uint64_t rx_too_long;      /**< frames above the model's packet size */
	uint64_t rx_over_mtu;      /**< frames above the port's MTU (its kernel netdev's) */
	uint64_t tx_link_down;     /**< sends lost because the link was down */
	uint64_t link_up_events;   /**< port active events reported */
	uint64_t link_down_events; /**< port down events reported */
};

struct hwsim_wire_port;

/**
 * Plug (up = 1) or pull (up = 0) the cable of a port, as a test or an operator would. The
 * change and its port event are reported before the call returns.
 * @return 0, -EINVAL (no such port) or -ENOTSUP (plugging a wire=none port).
 */
__rte_internal
int mlx4v_sim_link_set(struct mlx4v_sim *sim, unsigned int port, int up);

/**
 * Pull a port's cable and plug it back: port down, then port active.
 * @return 0, -EINVAL or -ENOLINK (the cable is out).
 */
__rte_internal
int mlx4v_sim_link_flap(struct mlx4v_sim *sim, unsigned int port);

/**
 * The device's own port state (the driver opening or closing the port, INIT_PORT /
 * CLOSE_PORT): a closed port takes the link down at both ends of its cable.
 * @return 0 or -EINVAL.
 */
__rte_internal
int mlx4v_sim_port_admin_set(struct mlx4v_sim *sim, unsigned int port, int up);

/**
 * The MTU of a port, as its kernel netdev sets it on a ConnectX-3 (mlx4_en programs the port's
 * largest frame from it): a frame from the wire longer than mtu plus an Ethernet header and one
 * VLAN tag is dropped (rx_over_mtu). 1500 at probe, as a fresh netdev.
 * @return 0 or -EINVAL (no such port, mtu outside 68..9578 as the kernel's dev_set_mtu()).
 */
__rte_internal
int mlx4v_sim_port_mtu_set(struct mlx4v_sim *sim, unsigned int port, uint16_t mtu);

/** @return the MTU of a port (mlx4v_sim_port_mtu_set()), or 0 for no such port. */
__rte_internal
uint16_t mlx4v_sim_port_mtu_get(struct mlx4v_sim *sim, unsigned int port);

/** @return 1 if the port's link is up, 0 if down, -EINVAL for no such port. */
__rte_internal
int mlx4v_sim_link_get(struct mlx4v_sim *sim, unsigned int port);

/** @return the port's link speed in Mb/s, 0 when down or for no such port. */
__rte_internal
uint32_t mlx4v_sim_link_speed(struct mlx4v_sim *sim, unsigned int port);

/** The port's permanent MAC (mac= gives port 1's). @return 0 or -EINVAL. */
__rte_internal
int mlx4v_sim_port_mac(struct mlx4v_sim *sim, unsigned int port, struct rte_ether_addr *mac);

/** @return the port's wire as given ("loop", "pair:<dev>.<port>", ...), or NULL. */
__rte_internal
const char *mlx4v_sim_port_wire(struct mlx4v_sim *sim, unsigned int port);

/** @return the port's end of the wire (hwsim_wire.h), or NULL for no such port. */
__rte_internal
struct hwsim_wire_port *mlx4v_sim_wire_port(struct mlx4v_sim *sim, unsigned int port);

/** Copy a port's wire counters. @return 0 or -EINVAL. */
__rte_internal
int mlx4v_sim_port_stats_get(struct mlx4v_sim *sim, unsigned int port,
			     struct mlx4v_sim_port_stats *st);

/**
 * Report a port state change to the device's class drivers, as the asynchronous port
 * active / port down events of a ConnectX-3 would.
 * @return 0, or -EINVAL for a port out of range.
 */
__rte_internal
int mlx4v_sim_port_event(struct mlx4v_sim *sim, unsigned int port, int up);

#endif /* _MLX4V_SIM_H_ */
