/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The generic flow API (rte_flow) of the mlx5v PMD on the device's NIC RX steering:
 * what a rule asks for once parsed (mlx5v_rte_flow_parse.c), the device objects it takes
 * (mlx5v_rte_flow_hw.c), where they sit in a table (mlx5v_rte_flow_layout.c) and the rule
 * list (mlx5v_rte_flow.c). doc/guides/nics/mlx5v.rst,
 * "Flow rules (rte_flow)".
 */

#ifndef _MLX5V_RTE_FLOW_H_
#define _MLX5V_RTE_FLOW_H_

#include <stdint.h>
#include <stdio.h>
#include <sys/queue.h>

#include <rte_flow.h>
#include <rte_flow_driver.h>

#include "mlx5v_dev.h"

/** Highest group: group g is a NIC RX table at level g + 2 (0: the root, level 0). */
#define MLX5V_RTE_FLOW_MAX_GROUP 5
#define MLX5V_RTE_FLOW_LEVEL(g) ((g) == 0 ? 0u : (uint32_t)(g) + 2)
/** Priorities 0 (first) .. 7 of a group. */
#define MLX5V_RTE_FLOW_PRIOS 8
/**
 * log2 of a group table's entries: one band of 2^14 entries per priority, in which the
 * rules of one mask share flow groups (mlx5v_rte_flow_layout.c).
 */
#define MLX5V_RTE_FLOW_FT_LOG_SIZE 17
#define MLX5V_RTE_FLOW_FT_SIZE (1u << MLX5V_RTE_FLOW_FT_LOG_SIZE)
#define MLX5V_RTE_FLOW_BAND (MLX5V_RTE_FLOW_FT_SIZE / MLX5V_RTE_FLOW_PRIOS)
/**
 * Entries of a flow group: the first group of a priority and mask has CHUNK_MIN, each
 * further one twice the one before, up to CHUNK_MAX (powers of two, aligned in the band).
 */
#define MLX5V_RTE_FLOW_CHUNK_MIN 16u
#define MLX5V_RTE_FLOW_CHUNK_MAX 1024u
/** Rx queues with a direct TIR for QUEUE rules (the PMD's MLX5V_ETH_MAX_QUEUES). */
#define MLX5V_RTE_FLOW_QUEUES 16
/** Highest MARK id: the flow tag is id + 1; 0 is no tag, 0xffffff is FLAG. */
#define MLX5V_RTE_FLOW_MARK_MAX 0xfffff0u
#define MLX5V_RTE_FLOW_TAG_FLAG 0xffffffu
/** Queues of an RSS action; its RQT repeats them up to a power of two entries. */
#define MLX5V_RTE_FLOW_RSS_MAX 16
#define MLX5V_RTE_FLOW_RSS_KEY_LEN 40

/** The header fields a rule matches, as a mask or a value (host order but addresses). */
struct mlx5v_rte_flow_hdrs {
	uint8_t dmac[6];
	uint8_t smac[6];
	uint16_t ethertype;      /**< after the VLAN tags */
	uint8_t cvlan_tag;       /**< the frame has a first (C-)VLAN tag */
	uint16_t vlan_tci;       /**< its priority, CFI and VID */
	uint8_t ip_version;
	uint8_t frag;            /**< an IP fragment (offset or MF set) */
	uint8_t ip_protocol;
	uint16_t tcp_flags;      /**< 9 bits */
	uint16_t tcp_sport, tcp_dport;
	uint16_t udp_sport, udp_dport;
	uint8_t src_ip[16];      /**< network order; IPv4 in the last 4 bytes */
	uint8_t dst_ip[16];
};

/** The misc parameters a rule matches, as a mask or a value (prm/mlx5_eth §4.10). */
struct mlx5v_rte_flow_misc {
	uint32_t vxlan_vni;      /**< misc: 24 bits */
	uint8_t icmp_type;       /**< misc 3 */
	uint8_t icmp_code;
	uint8_t icmpv6_type;
	uint8_t icmpv6_code;
};

/** What a rule matches, as a mask or a value: one part per match set it may enable. */
struct mlx5v_rte_flow_match {
	struct mlx5v_rte_flow_hdrs outer;  /**< outer headers */
	struct mlx5v_rte_flow_hdrs inner;  /**< inner headers: the items after VXLAN */
	struct mlx5v_rte_flow_misc misc;   /**< VXLAN VNI (misc), ICMP type and code (misc 3) */
};

/** Fate of a rule. */
enum mlx5v_rte_flow_fate {
	MLX5V_RTE_FLOW_FATE_NONE,
	MLX5V_RTE_FLOW_FATE_QUEUE,
	MLX5V_RTE_FLOW_FATE_DROP,
	MLX5V_RTE_FLOW_FATE_JUMP,
	MLX5V_RTE_FLOW_FATE_RSS,
};

/** An RSS action: its queues and what its one indirect TIR hashes. */
struct mlx5v_rte_flow_rss {
	uint16_t queue[MLX5V_RTE_FLOW_RSS_MAX];
	uint16_t n;
	uint8_t key[MLX5V_RTE_FLOW_RSS_KEY_LEN];
	uint8_t ipv6;            /**< the pattern's class: IPv6 (else IPv4) */
	uint8_t udp;             /**< its L4 protocol is UDP (else TCP or none) */
	uint8_t ip;              /**< hash the addresses */
	uint8_t l4;              /**< hash the ports */
};

/** A rule once parsed: everything create needs, no device object yet. */
struct mlx5v_rte_flow_spec {
	uint32_t group;
	uint32_t priority;
	struct mlx5v_rte_flow_match mask;
	struct mlx5v_rte_flow_match value;
	uint8_t inner;           /**< parsing: past the VXLAN item */
	enum mlx5v_rte_flow_fate fate;
	uint16_t queue;          /**< FATE_QUEUE */
	uint32_t jump_group;     /**< FATE_JUMP */
	struct mlx5v_rte_flow_rss rss; /**< FATE_RSS */
	uint32_t flow_tag;       /**< MARK id + 1, TAG_FLAG, or 0 */
	uint8_t count;           /**< a COUNT action */
};

/** A rule on the device. */
struct rte_flow {
	TAILQ_ENTRY(rte_flow) next;
	struct mlx5v_rte_flow_spec spec;
	uint32_t index;          /**< its entry in the group's table */
	struct mlx5v_rte_flow_fg *grp; /**< the flow group of the entry, shared */
	uint32_t fg;             /**< that group's number on the device */
	uint32_t tir;            /**< FATE_RSS: an indirect TIR over rqt */
	uint32_t rqt;            /**< FATE_RSS: the RQT over its queues */
	uint32_t counter;        /**< COUNT: its flow counter */
	uint8_t fte;             /**< the entry is set (or posted, flow_async=1) */
	/** flow_async=1: the posted SET_FLOW_TABLE_ENTRY not taken back yet, else 0. */
	uint64_t ticket;
	/** flow_async=1: that command failed (a negative errno): the rule is not on the device. */
	int broken;
	struct mlx5v_rte_flow_port *port; /**< its port's rules */
	uint8_t jumped;          /**< FATE_JUMP: holds a reference on the target group */
	uint8_t qtir;            /**< FATE_QUEUE: holds a reference on the queue's TIR */
	uint64_t hits_base, bytes_base; /**< counter values at the last query reset */
};

TAILQ_HEAD(mlx5v_rte_flow_list, rte_flow);

/**
 * A flow group of a table: a range of entries in the band of one priority, whose criteria
 * are the mask that every rule with an entry in it has.
 */
struct mlx5v_rte_flow_fg {
	TAILQ_ENTRY(mlx5v_rte_flow_fg) next;
	/** The criteria: a rule's mask, of the type mlx5v_rte_flow_spec has for it. */
	__typeof__(((struct mlx5v_rte_flow_spec *)NULL)->mask) mask;
	uint32_t prio;
	uint32_t start;          /**< its first entry */
	uint32_t size;           /**< entries: a power of two, CHUNK_MIN to CHUNK_MAX */
	uint32_t nused;          /**< entries taken */
	uint32_t id;             /**< its number on the device, 0 until created */
	uint64_t used[MLX5V_RTE_FLOW_CHUNK_MAX / 64]; /**< entries taken, from start */
};

TAILQ_HEAD(mlx5v_rte_flow_fg_list, mlx5v_rte_flow_fg);

/** The table of one group. */
struct mlx5v_rte_flow_table {
	uint32_t ft;                  /**< 0 = not made */
	uint32_t refs;                /**< rules in it, and rules jumping to it */
	struct mlx5v_rte_flow_fg_list fgs; /**< its flow groups (initialised at first use) */
	/** Chunks of CHUNK_MIN entries held by a flow group. */
	uint64_t chunks[MLX5V_RTE_FLOW_FT_SIZE / MLX5V_RTE_FLOW_CHUNK_MIN / 64];
};

/** Per port (in dev_private, used by the primary process only). */
struct mlx5v_rte_flow_port {
	struct mlx5v_rte_flow_list rules;
	struct mlx5v_rte_flow_table table[MLX5V_RTE_FLOW_MAX_GROUP + 1];
	/** A direct TIR on each Rx queue's RQ, shared by the QUEUE rules to it (0 = none). */
	uint32_t qtir[MLX5V_RTE_FLOW_QUEUES];
	uint32_t qtir_refs[MLX5V_RTE_FLOW_QUEUES];
	uint8_t isolated;        /**< rte_flow_isolate(): no default entries at start */
	uint8_t root;            /**< group 0's table is the NIC RX root */
	uint8_t async;           /**< flow_async devarg: entries posted without waiting */
	uint64_t async_failed;   /**< rules whose posted entry failed */
};

/* ---- mlx5v_rte_flow_parse.c ---- */

/**
 * Attributes, pattern and actions into *spec, checked against what the device matches and
 * the port's queues. @return 0 or -rte_errno with error set, naming the field refused.
 */
int mlx5v_rte_flow_parse(struct rte_eth_dev *eth_dev, const struct rte_flow_attr *attr,
			 const struct rte_flow_item items[],
			 const struct rte_flow_action actions[],
			 struct mlx5v_rte_flow_spec *spec, struct rte_flow_error *error);

/* ---- mlx5v_rte_flow_layout.c: flow groups and entries of a table, no command ---- */

/**
 * An entry for rule spec (its priority and mask) in table t: in a flow group of that
 * priority and mask with room, else in a new one placed in the priority's band (its id 0:
 * the caller creates it on the device). @return 0 with *fg and *index set, -ENOSPC when
 * the band has no room, -ENOMEM.
 */
int mlx5v_rte_flow_layout_take(struct mlx5v_rte_flow_table *t,
			       const struct mlx5v_rte_flow_spec *spec,
			       struct mlx5v_rte_flow_fg **fg, uint32_t *index);
/** Give entry index of fg back. @return the entries fg still holds (0: destroy it, free it). */
uint32_t mlx5v_rte_flow_layout_put(struct mlx5v_rte_flow_fg *fg, uint32_t index);
/** Free fg (no entry left, destroyed on the device) and its entries in t. */
void mlx5v_rte_flow_layout_fg_free(struct mlx5v_rte_flow_table *t, struct mlx5v_rte_flow_fg *fg);
/** Free every flow group of t, the device gone or its objects destroyed. */
void mlx5v_rte_flow_layout_clear(struct mlx5v_rte_flow_table *t);

/* ---- mlx5v_rte_flow_hw.c: the device commands of a rule ---- */

/** A NIC RX table at level; a miss goes to table miss_ft (0: the default, drop). */
int mlx5v_rte_flow_hw_table(struct mlx5v_dev *dev, uint32_t level, uint32_t miss_ft,
			    uint32_t *ft);
/**
 * The match_criteria_enable bits of mask (prm/mlx5_eth §4.10): the sections it uses, outer
 * headers, misc, inner headers, misc 3; 0 for a match-all group.
 */
uint32_t mlx5v_rte_flow_hw_criteria(const struct mlx5v_rte_flow_match *mask);
/** A flow group of entries start to end of table ft masking spec->mask. */
int mlx5v_rte_flow_hw_group(struct mlx5v_dev *dev, uint32_t ft, uint32_t start, uint32_t end,
			    const struct mlx5v_rte_flow_spec *spec, uint32_t *fg);
/** A direct TIR on RQ rqn in transport domain td. */
int mlx5v_rte_flow_hw_tir(struct mlx5v_dev *dev, uint32_t td, uint32_t rqn, uint32_t *tirn);
/**
 * The entry index of group fg in table ft: match spec->value; drop, forward to TIR dest or
 * to table dest (FATE_JUMP); the flow tag; count into counter when non-zero.
 */
int mlx5v_rte_flow_hw_entry(struct mlx5v_dev *dev, uint32_t ft, uint32_t index, uint32_t fg,
			    const struct mlx5v_rte_flow_spec *spec, uint32_t dest,
			    uint32_t counter);
/**
 * The same entry posted without waiting (mlx5v_cmd_post_async()): cb gets its result.
 * @return 0 and *ticket when posted, else a negative errno.
 */
int mlx5v_rte_flow_hw_entry_post(struct mlx5v_dev *dev, uint32_t ft, uint32_t index, uint32_t fg,
				 const struct mlx5v_rte_flow_spec *spec, uint32_t dest,
				 uint32_t counter, mlx5v_cmd_done_cb cb, void *arg,
				 uint64_t *ticket);
/** ALLOC_FLOW_COUNTER. */
int mlx5v_rte_flow_hw_counter_alloc(struct mlx5v_dev *dev, uint32_t *id);
/** DEALLOC_FLOW_COUNTER. */
void mlx5v_rte_flow_hw_counter_free(struct mlx5v_dev *dev, uint32_t id);
/** QUERY_FLOW_COUNTER: packets and octets since allocation. */
int mlx5v_rte_flow_hw_counter_query(struct mlx5v_dev *dev, uint32_t id, uint64_t *packets,
				    uint64_t *bytes);

/* ---- mlx5v_rte_flow_dump.c ---- */

/**
 * rte_flow_dev_dump(): rule flow, or every rule when NULL, as text into file: what each holds
 * in the device. @return 0 or -rte_errno with error set.
 */
int mlx5v_rte_flow_dump(struct rte_eth_dev *eth_dev, struct rte_flow *flow, FILE *file,
			struct rte_flow_error *error);

/* ---- mlx5v_rte_flow.c ---- */

/** The ops of eth_dev_ops.flow_ops_get. */
int mlx5v_rte_flow_ops_get(struct rte_eth_dev *eth_dev, const struct rte_flow_ops **ops);
/**
 * At start, once the default tables exist (miss_ft: the PMD's destination MAC table, 0 when
 * isolated): group 0's table, missing into miss_ft, made the root. @return 0 or -errno.
 */
int mlx5v_rte_flow_start(struct rte_eth_dev *eth_dev, uint32_t miss_ft);
/** At stop, before the default tables go: the root disconnected, every rule destroyed. */
void mlx5v_rte_flow_stop(struct rte_eth_dev *eth_dev);

#endif /* _MLX5V_RTE_FLOW_H_ */
