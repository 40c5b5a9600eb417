/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The Ethernet function of the mlx5 device model: its object store and lookups.
 *
 * The control side (commands, in mlx5v_sim_eth_*.c) creates and destroys the objects of
 * prm/mlx5_eth §1; the data path (send, receive, steering) finds them with the lookup
 * functions below. Every function here is called with sim->lock held.
 *
 * Numbering: every object number is below 2^24 (prm/mlx5_eth §4.1: 24-bit fields) and each
 * kind numbers from its own base, so a number of one kind never names an object of another
 * (an RQN passed as an SQN is "unknown object", as on a device). Q counters are 8 bits.
 */

#ifndef _MLX5V_SIM_ETH_H_
#define _MLX5V_SIM_ETH_H_

#include <stdint.h>

struct mlx5v_sim;

/* ---- Model limits (the log_max_* capabilities report them; mlx5v_sim.rst lists them) ---- */
#define MLX5V_SIM_ETH_LOG_MAX_PD 8
#define MLX5V_SIM_ETH_LOG_MAX_TD 8
#define MLX5V_SIM_ETH_LOG_MAX_MKEY 10
#define MLX5V_SIM_ETH_LOG_MAX_TIS 8
#define MLX5V_SIM_ETH_LOG_MAX_SQ 10
#define MLX5V_SIM_ETH_LOG_MAX_RQ 10
#define MLX5V_SIM_ETH_LOG_MAX_RQT 8
#define MLX5V_SIM_ETH_LOG_MAX_RQT_SIZE 9
#define MLX5V_SIM_ETH_LOG_MAX_TIR 10
#define MLX5V_SIM_ETH_LOG_MAX_WQ_SZ 16
#define MLX5V_SIM_ETH_LOG_MAX_FT 6
#define MLX5V_SIM_ETH_LOG_MAX_FT_SIZE 20
#define MLX5V_SIM_ETH_MAX_FT_LEVEL 8
#define MLX5V_SIM_ETH_LOG_MAX_DEST 5
#define MLX5V_SIM_ETH_LOG_MAX_FG 8        /**< groups per table */
#define MLX5V_SIM_ETH_MAX_QCNT 64         /**< max_qp_cnt; counter_set_id 1..64 */
#define MLX5V_SIM_ETH_LOG_MAX_UC_LIST 7
#define MLX5V_SIM_ETH_LOG_MAX_MC_LIST 7
#define MLX5V_SIM_ETH_MAX_MTU 9978        /**< PMTU max_mtu */
#define MLX5V_SIM_ETH_MIN_MTU 68
#define MLX5V_SIM_ETH_DEF_MTU 1522        /**< 1500 + Ethernet header, VLAN tag and FCS */
#define MLX5V_SIM_ETH_TOEPLITZ_KEY_LEN 40
#define MLX5V_SIM_ETH_MAC_LEN 6

/* Number bases: object n of a kind is base + index (index 0 unused). */
#define MLX5V_SIM_ETH_PD_BASE 0x000000
#define MLX5V_SIM_ETH_TD_BASE 0x000000
#define MLX5V_SIM_ETH_TIS_BASE 0x001000
#define MLX5V_SIM_ETH_SQ_BASE 0x002000
#define MLX5V_SIM_ETH_RQ_BASE 0x004000
#define MLX5V_SIM_ETH_RQT_BASE 0x006000
#define MLX5V_SIM_ETH_TIR_BASE 0x007000
#define MLX5V_SIM_ETH_FT_BASE 0x009000
#define MLX5V_SIM_ETH_FG_BASE 0x00a000
#define MLX5V_SIM_ETH_FCNT_BASE 0x00c000
/** Flow counters: ids BASE + 1 .. BASE + 2^LOG - 1 (log_max_flow_counter). */
#define MLX5V_SIM_ETH_LOG_MAX_FCNT 10

/*
 * Reserved memory keys (QUERY_SPECIAL_CONTEXTS, prm/mlx5_eth §4.2): MKEY indices 1-4 are
 * the device's own; CREATE_MKEY hands out indices from MLX5V_SIM_ETH_MKEY_FIRST.
 */
#define MLX5V_SIM_ETH_RESD_LKEY 0x00000100u       /**< bus addresses, no translation */
/** max_wqe_sz_rq: bytes of the largest receive WQE, 32 data segments (prm/mlx5_eth §7.1). */
#define MLX5V_SIM_ETH_MAX_WQE_SZ_RQ 512
#define MLX5V_SIM_ETH_NULL_MKEY 0x00000200u       /**< any access fails */
#define MLX5V_SIM_ETH_TERM_MKEY 0x00000300u       /**< terminate_scatter_list_mkey */
#define MLX5V_SIM_ETH_DUMP_FILL_MKEY 0x00000400u
#define MLX5V_SIM_ETH_MKEY_FIRST 5

/*
 * Outbox syndromes of the Ethernet function: one per check, repeated in mlx5v_sim.rst.
 * 0x5105xxxx PD/TD/MKEY/Q counter, 0x5106xxxx TIS/SQ/RQ, 0x5107xxxx RQT/TIR/flow tables,
 * 0x5108xxxx vport and port registers. The Q counter limit answers the syndrome a device
 * gives (prm/mlx5_eth §4.11).
 */
enum mlx5v_sim_eth_synd {
	MLX5V_SIM_SYND_PD_NONE = 0x51050001,          /**< LIM_ERR: no free PD */
	MLX5V_SIM_SYND_PD_NUM = 0x51050002,           /**< BAD_RES: no such PD */
	MLX5V_SIM_SYND_PD_BUSY = 0x51050003,          /**< BAD_RES_STATE: MKEY/SQ/RQ use it */
	MLX5V_SIM_SYND_TD_NONE = 0x51050004,          /**< LIM_ERR: no free TD */
	MLX5V_SIM_SYND_TD_NUM = 0x51050005,           /**< BAD_RES: no such TD */
	MLX5V_SIM_SYND_TD_BUSY = 0x51050006,          /**< BAD_RES_STATE: TIS/TIR use it */
	MLX5V_SIM_SYND_MKEY_PD = 0x51050007,          /**< BAD_RES: mkc.pd names no PD */
	MLX5V_SIM_SYND_MKEY_MODE = 0x51050008,        /**< BAD_PARAM: access mode not PA/MTT */
	MLX5V_SIM_SYND_MKEY_UNSUPP = 0x51050009,      /**< BAD_PARAM: free/umr_en/umem/qpn */
	MLX5V_SIM_SYND_MKEY_PAGE_SZ = 0x5105000a,     /**< BAD_PARAM: MTT log_page_size */
	MLX5V_SIM_SYND_MKEY_MTT_LEN = 0x5105000b,     /**< BAD_INP_LEN: MTT beyond inlen */
	MLX5V_SIM_SYND_MKEY_MTT_SIZE = 0x5105000c,    /**< BAD_PARAM: too few MTT entries */
	MLX5V_SIM_SYND_MKEY_MTT_ALIGN = 0x5105000d,   /**< BAD_PARAM: MTT entry unaligned */
	MLX5V_SIM_SYND_MKEY_UNMAPPED = 0x5105000e,    /**< BAD_PARAM: MTT page not mapped */
	MLX5V_SIM_SYND_MKEY_NONE = 0x5105000f,        /**< LIM_ERR: no free MKEY */
	MLX5V_SIM_SYND_MKEY_NUM = 0x51050010,         /**< BAD_RES: no such MKEY */
	MLX5V_SIM_SYND_MKEY_FAULT = 0x51050011,       /**< NO_RES: knob fail_create_mkey */
	MLX5V_SIM_SYND_MKEY_RANGE = 0x51050012,       /**< BAD_PARAM: empty or wrapping range */
	MLX5V_SIM_SYND_QCNT_NUM = 0x51050013,         /**< BAD_RES: no such Q counter */
	MLX5V_SIM_SYND_QCNT_BUSY = 0x51050014,        /**< BAD_RES_STATE: RQs count into it */
	MLX5V_SIM_SYND_QCNT_NONE = 0x00587239,        /**< LIM_ERR: Q counters exhausted */
	MLX5V_SIM_SYND_TIS_TD = 0x51060001,           /**< BAD_RES: transport_domain unknown */
	MLX5V_SIM_SYND_TIS_PD = 0x51060002,           /**< BAD_RES: tisc.pd names no PD */
	MLX5V_SIM_SYND_TIS_NONE = 0x51060003,         /**< LIM_ERR: no free TIS */
	MLX5V_SIM_SYND_TIS_NUM = 0x51060004,          /**< BAD_RES: no such TIS */
	MLX5V_SIM_SYND_TIS_BUSY = 0x51060005,         /**< BAD_RES_STATE: SQs use it */
	MLX5V_SIM_SYND_TIS_LAG = 0x51060006,          /**< BAD_PARAM: LAG / TLS not modelled */
	MLX5V_SIM_SYND_TIS_BITMASK = 0x51060007,      /**< BAD_PARAM: modify bit not prio */
	MLX5V_SIM_SYND_WQ_TYPE = 0x51060010,          /**< BAD_PARAM: wq_type not cyclic */
	MLX5V_SIM_SYND_WQ_SIZE = 0x51060011,          /**< BAD_PARAM: log_wq_sz > cap */
	MLX5V_SIM_SYND_WQ_STRIDE = 0x51060012,        /**< BAD_PARAM: WQE stride */
	MLX5V_SIM_SYND_WQ_PD = 0x51060013,            /**< BAD_RES: wq.pd names no PD */
	MLX5V_SIM_SYND_WQ_CQ = 0x51060014,            /**< BAD_RES: cqn names no CQ */
	MLX5V_SIM_SYND_WQ_DBR = 0x51060015,           /**< BAD_PARAM: dbr_addr unaligned/unmapped */
	MLX5V_SIM_SYND_WQ_UMEM = 0x51060016,          /**< BAD_PARAM: umem not supported */
	MLX5V_SIM_SYND_WQ_PAS_LEN = 0x51060017,       /**< BAD_INP_LEN: PAS beyond inlen */
	MLX5V_SIM_SYND_WQ_PAS_ALIGN = 0x51060018,     /**< BAD_PARAM: PAS not page aligned */
	MLX5V_SIM_SYND_WQ_UNMAPPED = 0x51060019,      /**< BAD_PARAM: buffer not DMA mapped */
	MLX5V_SIM_SYND_WQ_STATE = 0x5106001a,         /**< BAD_PARAM: created in a state != RST */
	MLX5V_SIM_SYND_WQ_TS_FORMAT = 0x5106001b,     /**< BAD_PARAM: ts_format vs cap */
	MLX5V_SIM_SYND_WQ_PAGE_OFFSET = 0x5106001c,   /**< BAD_PARAM: page_offset != 0 */
	MLX5V_SIM_SYND_WQ_NO_MEM = 0x5106001d,        /**< NO_RES: no memory for the PAS */
	MLX5V_SIM_SYND_SQ_TIS = 0x51060020,           /**< BAD_RES: tis_num_0 unknown */
	MLX5V_SIM_SYND_SQ_TIS_LST = 0x51060021,       /**< BAD_PARAM: tis_lst_sz != 1 */
	MLX5V_SIM_SYND_SQ_UAR = 0x51060022,           /**< BAD_PARAM: uar_page not allocated */
	MLX5V_SIM_SYND_SQ_NONE = 0x51060023,          /**< LIM_ERR: no free SQ */
	MLX5V_SIM_SYND_SQ_NUM = 0x51060024,           /**< BAD_RES: no such SQ */
	MLX5V_SIM_SYND_Q_CUR_STATE = 0x51060025,      /**< BAD_RES_STATE: current state wrong */
	MLX5V_SIM_SYND_Q_TRANSITION = 0x51060026,     /**< BAD_PARAM: illegal transition */
	MLX5V_SIM_SYND_SQ_FAULT = 0x51060027,         /**< NO_RES: knob fail_create_sq */
	MLX5V_SIM_SYND_SQ_BITMASK = 0x51060028,       /**< BAD_PARAM: modify bit not modelled */
	MLX5V_SIM_SYND_SQ_MPW = 0x51060029,           /**< BAD_PARAM: MPW allowed, no cap */
	MLX5V_SIM_SYND_RQ_QCNT = 0x51060030,          /**< BAD_RES: counter_set_id unknown */
	MLX5V_SIM_SYND_RQ_MEM_TYPE = 0x51060031,      /**< BAD_PARAM: mem_rq_type != inline */
	MLX5V_SIM_SYND_RQ_NONE = 0x51060032,          /**< LIM_ERR: no free RQ */
	MLX5V_SIM_SYND_RQ_NUM = 0x51060033,           /**< BAD_RES: no such RQ */
	MLX5V_SIM_SYND_RQ_BUSY = 0x51060034,          /**< BAD_RES_STATE: RQT/TIR use it */
	MLX5V_SIM_SYND_RQ_FAULT = 0x51060035,         /**< NO_RES: knob fail_create_rq */
	MLX5V_SIM_SYND_RQ_BITMASK = 0x51060036,       /**< BAD_PARAM: modify bit not modelled */
	MLX5V_SIM_SYND_RQ_RECORD = 0x51060037,        /**< BAD_PARAM: RST->RDY, record not 0 */
	MLX5V_SIM_SYND_CQ_IN_USE = 0x51040010,        /**< BAD_RES_STATE: SQs/RQs use the CQ */
	MLX5V_SIM_SYND_RQT_SIZE = 0x51070001,         /**< BAD_PARAM: max/actual size */
	MLX5V_SIM_SYND_RQT_LEN = 0x51070002,          /**< BAD_INP_LEN: list beyond inlen */
	MLX5V_SIM_SYND_RQT_RQ = 0x51070003,           /**< BAD_RES: list names no RQ */
	MLX5V_SIM_SYND_RQT_NONE = 0x51070004,         /**< LIM_ERR: no free RQT */
	MLX5V_SIM_SYND_RQT_NUM = 0x51070005,          /**< BAD_RES: no such RQT */
	MLX5V_SIM_SYND_RQT_BUSY = 0x51070006,         /**< BAD_RES_STATE: TIRs use it */
	MLX5V_SIM_SYND_RQT_BITMASK = 0x51070007,      /**< BAD_PARAM: modify bit not rqn_list */
	MLX5V_SIM_SYND_RQT_LIST_TYPE = 0x51070008,    /**< BAD_PARAM: list type / vhca format */
	MLX5V_SIM_SYND_TIR_TD = 0x51070010,           /**< BAD_RES: transport_domain unknown */
	MLX5V_SIM_SYND_TIR_DISP = 0x51070011,         /**< BAD_PARAM: disp_type not 0/1 */
	MLX5V_SIM_SYND_TIR_RQ = 0x51070012,           /**< BAD_RES: inline_rqn names no RQ */
	MLX5V_SIM_SYND_TIR_RQT = 0x51070013,          /**< BAD_RES: indirect_table unknown */
	MLX5V_SIM_SYND_TIR_HASH = 0x51070014,         /**< BAD_PARAM: hash fn / fields */
	MLX5V_SIM_SYND_TIR_LRO = 0x51070015,          /**< BAD_PARAM: LRO / tunnel offload */
	MLX5V_SIM_SYND_TIR_NONE = 0x51070016,         /**< LIM_ERR: no free TIR */
	MLX5V_SIM_SYND_TIR_NUM = 0x51070017,          /**< BAD_RES: no such TIR */
	MLX5V_SIM_SYND_TIR_BUSY = 0x51070018,         /**< BAD_RES_STATE: flow entries use it */
	MLX5V_SIM_SYND_TIR_FAULT = 0x51070019,        /**< NO_RES: knob fail_create_tir */
	MLX5V_SIM_SYND_TIR_BITMASK = 0x5107001a,      /**< BAD_PARAM: modify bit not modelled */
	MLX5V_SIM_SYND_FT_TYPE = 0x51070020,          /**< BAD_PARAM: table_type != NIC_RX */
	MLX5V_SIM_SYND_FT_LEVEL = 0x51070021,         /**< BAD_PARAM: level > max_ft_level */
	MLX5V_SIM_SYND_FT_SIZE = 0x51070022,          /**< BAD_PARAM: log_size > cap */
	MLX5V_SIM_SYND_FT_MISS = 0x51070023,          /**< BAD_PARAM: miss action */
	MLX5V_SIM_SYND_FT_MISS_ID = 0x51070024,       /**< BAD_RES: miss table unknown/level */
	MLX5V_SIM_SYND_FT_NONE = 0x51070025,          /**< LIM_ERR: no free table */
	MLX5V_SIM_SYND_FT_NUM = 0x51070026,           /**< BAD_RES: no such table */
	MLX5V_SIM_SYND_FT_BUSY = 0x51070027,          /**< BAD_RES_STATE: root, groups, target */
	MLX5V_SIM_SYND_FG_RANGE = 0x51070030,         /**< BAD_PARAM: start > end or > size */
	MLX5V_SIM_SYND_FG_OVERLAP = 0x51070031,       /**< BAD_PARAM: overlaps a group */
	MLX5V_SIM_SYND_FG_CRITERIA = 0x51070032,      /**< BAD_PARAM: a mask bit not modelled */
	MLX5V_SIM_SYND_FG_NONE = 0x51070033,          /**< LIM_ERR: no free group */
	MLX5V_SIM_SYND_FG_NUM = 0x51070034,           /**< BAD_RES: no such group */
	MLX5V_SIM_SYND_FG_BUSY = 0x51070035,          /**< BAD_RES_STATE: group has entries */
	MLX5V_SIM_SYND_FTE_INDEX = 0x51070040,        /**< BAD_PARAM: index in no group */
	MLX5V_SIM_SYND_FTE_GROUP = 0x51070041,        /**< BAD_PARAM: group_id != its group */
	MLX5V_SIM_SYND_FTE_DUP = 0x51070042,          /**< BAD_PARAM: index already used */
	MLX5V_SIM_SYND_FTE_MATCH = 0x51070043,        /**< BAD_PARAM: value outside the mask */
	MLX5V_SIM_SYND_FTE_ACTION = 0x51070044,       /**< BAD_PARAM: action not modelled */
	MLX5V_SIM_SYND_FTE_DEST_LEN = 0x51070045,     /**< BAD_INP_LEN: list beyond inlen */
	MLX5V_SIM_SYND_FTE_DEST_TYPE = 0x51070046,    /**< BAD_PARAM: type or count */
	MLX5V_SIM_SYND_FTE_DEST_ID = 0x51070047,      /**< BAD_RES: destination unknown */
	MLX5V_SIM_SYND_FTE_DEST_LEVEL = 0x51070048,   /**< BAD_PARAM: table level <= source */
	MLX5V_SIM_SYND_FTE_NUM = 0x51070049,          /**< BAD_RES: no entry at the index */
	MLX5V_SIM_SYND_FTE_COUNTER = 0x5107004a,      /**< BAD_RES: counter not allocated */
	MLX5V_SIM_SYND_FCNT_NONE = 0x51070050,        /**< LIM_ERR: flow counters exhausted */
	MLX5V_SIM_SYND_FCNT_NUM = 0x51070051,         /**< BAD_RES: no such flow counter */
	MLX5V_SIM_SYND_FCNT_BUSY = 0x51070052,        /**< BAD_RES_STATE: an entry counts */
	MLX5V_SIM_SYND_FCNT_PARAM = 0x51070053,       /**< BAD_PARAM: bulk or several */
	MLX5V_SIM_SYND_VPORT_MTU = 0x51080001,        /**< BAD_PARAM: mtu out of range */
	MLX5V_SIM_SYND_VPORT_LIST_TYPE = 0x51080002,  /**< BAD_PARAM: list type not UC/MC */
	MLX5V_SIM_SYND_VPORT_LIST_SIZE = 0x51080003,  /**< BAD_PARAM: list longer than cap */
	MLX5V_SIM_SYND_VPORT_LIST_LEN = 0x51080004,   /**< BAD_INP_LEN: list beyond inlen */
	MLX5V_SIM_SYND_VPORT_FIELD = 0x51080005,      /**< BAD_PARAM: field not modifiable */
	MLX5V_SIM_SYND_REG_PORT = 0x51080010,         /**< BAD_PARAM: local_port != 1 */
	MLX5V_SIM_SYND_REG_INLEN = 0x51080011,        /**< BAD_INP_LEN: register beyond inlen */
	MLX5V_SIM_SYND_REG_OUTLEN = 0x51080012,       /**< BAD_OUTP_LEN: register beyond outlen */
	MLX5V_SIM_SYND_PAOS_ADMIN = 0x51080013,       /**< BAD_PARAM: admin_status not 1/2 */
	MLX5V_SIM_SYND_PTYS_PROTO = 0x51080014,       /**< BAD_PARAM: proto_mask != Ethernet */
	MLX5V_SIM_SYND_PTYS_ADMIN = 0x51080015,       /**< BAD_PARAM: admin modes not in cap */
	MLX5V_SIM_SYND_PMTU_MTU = 0x51080016,         /**< BAD_PARAM: admin_mtu out of range */
};

/** SQ / RQ states (prm/mlx5_eth §5.1). */
enum mlx5v_sim_eth_qstate {
	MLX5V_SIM_ETH_Q_RST = 0,
	MLX5V_SIM_ETH_Q_RDY = 1,
	MLX5V_SIM_ETH_Q_ERR = 3,
};

/** Memory key access modes (mkc.access_mode_1_0, prm/mlx5_eth §4.2). */
enum mlx5v_sim_eth_mkey_mode {
	MLX5V_SIM_ETH_MKEY_PA = 0,
	MLX5V_SIM_ETH_MKEY_MTT = 1,
};

/** Access a translation asks for (mlx5v_sim_eth_mkey_xlate()). */
#define MLX5V_SIM_ETH_ACC_READ 0x1         /**< the device reads (send gather) */
#define MLX5V_SIM_ETH_ACC_WRITE 0x2        /**< the device writes (receive scatter) */
/** The queue was created with rlky: the reserved lkey is allowed (prm/mlx5_eth §4.2). */
#define MLX5V_SIM_ETH_ACC_RLKY 0x4

/**
 * A protection domain (referenced by MKEYs, TISes, SQs, RQs) or a transport domain
 * (referenced by TISes and TIRs): only its references matter to the model.
 */
struct mlx5v_sim_eth_dom {
	int valid;
	unsigned int refs;
};

struct mlx5v_sim_eth_mkey {
	int valid;
	uint8_t mode;               /**< enum mlx5v_sim_eth_mkey_mode */
	uint8_t variant;            /**< mkey_7_0: lkey = index << 8 | variant */
	uint8_t lw;                 /**< local write allowed */
	uint8_t lr;                 /**< local read allowed */
	uint8_t length64;           /**< covers the whole 64-bit space */
	uint8_t log_page_size;      /**< MTT: absolute log2 of the page size */
	uint32_t pd;
	uint64_t start;             /**< first address of the key */
	uint64_t len;
	uint32_t nmtt;
	uint64_t *mtt;              /**< MTT: page bus addresses, permission bits cleared */
	uint8_t *mtt_perm;          /**< MTT: bit 0 read, bit 1 write, per page */
};

struct mlx5v_sim_eth_tis {
	int valid;
	unsigned int refs;          /**< SQs */
	uint32_t td;
	uint32_t pd;                /**< tisc.pd, 0 for none */
	uint8_t prio;
};

/** Work queue geometry and buffer, shared by SQ and RQ (prm/mlx5_eth §4.7). */
struct mlx5v_sim_eth_wq {
	uint8_t type;               /**< wq_type: 1 cyclic */
	uint8_t log_stride;         /**< log2 of the WQE stride in bytes */
	uint8_t log_pg_sz;          /**< pas[] pages are 2^(log_pg_sz + 12) bytes */
	uint8_t log_sz;             /**< log2 of the number of WQEs (WQEBBs for an SQ) */
	uint8_t end_padding;
	uint16_t lwm;
	uint32_t pd;
	uint32_t uar;               /**< SQ: the UAR whose doorbell rings it */
	uint64_t dbr_addr;          /**< 8-byte doorbell record */
	uint32_t npas;
	uint64_t *pas;
};

struct mlx5v_sim_eth_sq {
	int valid;
	uint8_t state;              /**< enum mlx5v_sim_eth_qstate */
	uint8_t rlky;
	uint8_t fre;
	uint8_t flush_in_error_en;
	uint8_t min_wqe_inline_mode;
	uint8_t ts_format;
	uint8_t allow_mpw;          /**< allow_multi_pkt_send_wqe */
	uint32_t user_index;
	uint32_t cqn;
	uint32_t tis;
	struct mlx5v_sim_eth_wq wq;
	/*
	 * Data path state, reset on every move to RST (prm/mlx5_eth §5.2): the WQEBB counter
	 * the device has consumed up to (16 bits significant, like the record).
	 */
	uint32_t hw_counter;
	/** The next DS (packet) of the multi-packet WQE at hw_counter; 0 outside one. */
	uint32_t mpw_d;
};

struct mlx5v_sim_eth_rq {
	int valid;
	unsigned int refs;          /**< RQT entries and direct TIRs naming this RQ */
	uint8_t state;
	uint8_t rlky;
	uint8_t vsd;                /**< VLAN strip disable */
	uint8_t scatter_fcs;
	uint8_t delay_drop_en;
	uint8_t flush_in_error_en;
	uint8_t ts_format;
	uint8_t counter_set_id;     /**< Q counter, 0 for none */
	uint32_t user_index;
	uint32_t cqn;
	struct mlx5v_sim_eth_wq wq;
	uint32_t hw_counter;        /**< WQEs consumed, reset on RST (prm/mlx5_eth §5.2) */
};

struct mlx5v_sim_eth_rqt {
	int valid;
	unsigned int refs;          /**< indirect TIRs */
	uint32_t max_size;
	uint32_t size;              /**< rqt_actual_size */
	uint32_t *rqn;              /**< max_size entries, size valid */
};

/** Toeplitz and the fields hashed (prm/mlx5_eth §4.9, §10.2). */
struct mlx5v_sim_eth_hash {
	uint8_t fn;                 /**< rx_hash_fn: 0 none, 1 INVERTED_XOR8, 2 TOEPLITZ */
	uint8_t symmetric;
	uint8_t l3_ipv6;            /**< l3_prot_type: 0 IPv4, 1 IPv6 */
	uint8_t l4_udp;             /**< l4_prot_type: 0 TCP, 1 UDP */
	uint32_t fields;            /**< selected_fields: bit 0 SRC_IP ... 4 IPSEC_SPI */
	uint8_t key[MLX5V_SIM_ETH_TOEPLITZ_KEY_LEN];
};

struct mlx5v_sim_eth_tir {
	int valid;
	unsigned int refs;          /**< flow table entries forwarding to it */
	uint8_t disp_type;          /**< 0 DIRECT, 1 INDIRECT */
	uint8_t self_lb_block;
	uint32_t td;
	uint32_t inline_rqn;        /**< DIRECT */
	uint32_t rqt;               /**< INDIRECT */
	struct mlx5v_sim_eth_hash hash;
};

/** Flow table entry destination (prm/mlx5_eth §4.10). */
struct mlx5v_sim_eth_dest {
	uint8_t type;               /**< 1 FLOW_TABLE, 2 TIR */
	uint32_t id;
};

/**
 * Bytes of the match sets the model keeps: fte_match_param up to the misc parameters 3 (outer
 * headers, misc, inner headers, misc 2, misc 3; prm/mlx5_eth §4.10), in its layout.
 */
#define MLX5V_SIM_ETH_MATCH_LEN 320

/**
 * Of the match sets, the fields mlx5v_sim_eth_match_modelled() lists: in the outer and the
 * inner headers SMAC, DMAC, the first VLAN tag, ethertype, ip_version, frag, ip_protocol, IP
 * addresses, TCP flags, TCP and UDP ports; the VXLAN VNI (misc); the ICMP and ICMPv6 type and
 * code (misc 3).
 */
struct mlx5v_sim_eth_fte {
	uint32_t group;
	uint32_t flow_tag;
	uint16_t action;            /**< bitmask: 0x2 DROP, 0x4 FWD_DEST, 0x8 COUNT */
	uint32_t counter;           /**< COUNT: the flow counter id */
	uint8_t value[MLX5V_SIM_ETH_MATCH_LEN]; /**< match value */
	uint32_t ndest;
	struct mlx5v_sim_eth_dest *dest;
};

struct mlx5v_sim_eth_fg {
	int valid;
	unsigned int refs;          /**< entries */
	uint32_t start;             /**< first flow index */
	uint32_t end;               /**< last flow index, inclusive */
	uint8_t criteria_enable;    /**< MLX5V_MATCH_* sections; 0 = match all */
	uint8_t mask[MLX5V_SIM_ETH_MATCH_LEN]; /**< match criteria, 0 in sections not enabled */
};

struct mlx5v_sim_eth_ft {
	int valid;
	unsigned int refs;          /**< root, and entries of other tables forwarding here */
	uint8_t type;               /**< table_type: 0 NIC_RX */
	uint8_t level;
	uint8_t log_size;
	uint8_t miss_action;        /**< 0 default (drop), 1 forward to miss_table */
	uint32_t miss_table;
	unsigned int nfg;
	struct mlx5v_sim_eth_fg fg[1u << MLX5V_SIM_ETH_LOG_MAX_FG];  /**< group n = BASE + i */
	struct mlx5v_sim_eth_fte **fte;    /**< 2^log_size slots by flow index, NULL = empty */
	/**
	 * Set entries: bit i of busy is fte[i] != NULL, bit w of busy_sum is busy[w] != 0, so
	 * that a lookup in a large, sparsely filled table skips the empty ranges.
	 */
	uint64_t *busy;
	uint64_t *busy_sum;
	unsigned int nfte;
};

/** Q counter (prm/mlx5_eth §4.11): drops because the RQ had no WQE. */
struct mlx5v_sim_eth_qcnt {
	int valid;
	unsigned int refs;          /**< RQs */
	uint32_t out_of_buffer;
};

/** Flow counter (prm/mlx5_eth §4.10): what the entries counting into it matched. */
struct mlx5v_sim_eth_fcnt {
	int valid;
	unsigned int refs;          /**< entries counting into it */
	uint64_t packets;
	uint64_t octets;
};

/** The port and the function's own NIC vport (prm/mlx5_eth §4.3, §4.12, §11). */
struct mlx5v_sim_eth_port {
	uint8_t perm_mac[MLX5V_SIM_ETH_MAC_LEN];
	uint16_t vport_mtu;         /**< nic_vport_context.mtu */
	uint8_t promisc_uc;
	uint8_t promisc_mc;
	uint8_t promisc_all;
	uint8_t disable_uc_local_lb;
	uint8_t disable_mc_local_lb;
	uint8_t min_wqe_inline_mode;
	uint32_t nuc;
	uint32_t nmc;
	uint8_t uc[1u << MLX5V_SIM_ETH_LOG_MAX_UC_LIST][MLX5V_SIM_ETH_MAC_LEN];
	uint8_t mc[1u << MLX5V_SIM_ETH_LOG_MAX_MC_LIST][MLX5V_SIM_ETH_MAC_LEN];
	/* PAOS (prm/mlx5_eth §11.1): admin_status 1 up, 2 down. */
	uint8_t admin_status;
	/** The cable: 1 connected. The wire sets it; oper = admin up && carrier. */
	uint8_t carrier;
	/* PTYS (prm/mlx5_eth §11.3). */
	uint8_t an_disable_admin;
	uint32_t eth_proto_admin;
	uint32_t ext_eth_proto_admin;
	/* PMTU (prm/mlx5_eth §11.4). */
	uint16_t admin_mtu;
};

/** Counts of live objects per kind, for leak checks and the teardown log. */
enum mlx5v_sim_eth_kind {
	MLX5V_SIM_ETH_K_PD,
	MLX5V_SIM_ETH_K_TD,
	MLX5V_SIM_ETH_K_MKEY,
	MLX5V_SIM_ETH_K_TIS,
	MLX5V_SIM_ETH_K_SQ,
	MLX5V_SIM_ETH_K_RQ,
	MLX5V_SIM_ETH_K_RQT,
	MLX5V_SIM_ETH_K_TIR,
	MLX5V_SIM_ETH_K_FT,
	MLX5V_SIM_ETH_K_FG,
	MLX5V_SIM_ETH_K_FTE,
	MLX5V_SIM_ETH_K_QCNT,
	MLX5V_SIM_ETH_K_FCNT,
	MLX5V_SIM_ETH_K_MAX,
};

/** The Ethernet function: one port (ConnectX-4 and later), its vport and its objects. */
struct mlx5v_sim_eth {
	struct mlx5v_sim_eth_dom pd[1u << MLX5V_SIM_ETH_LOG_MAX_PD];
	struct mlx5v_sim_eth_dom td[1u << MLX5V_SIM_ETH_LOG_MAX_TD];
	struct mlx5v_sim_eth_mkey mkey[1u << MLX5V_SIM_ETH_LOG_MAX_MKEY];
	struct mlx5v_sim_eth_tis tis[1u << MLX5V_SIM_ETH_LOG_MAX_TIS];
	struct mlx5v_sim_eth_sq sq[1u << MLX5V_SIM_ETH_LOG_MAX_SQ];
	struct mlx5v_sim_eth_rq rq[1u << MLX5V_SIM_ETH_LOG_MAX_RQ];
	struct mlx5v_sim_eth_rqt rqt[1u << MLX5V_SIM_ETH_LOG_MAX_RQT];
	struct mlx5v_sim_eth_tir tir[1u << MLX5V_SIM_ETH_LOG_MAX_TIR];
	struct mlx5v_sim_eth_ft ft[1u << MLX5V_SIM_ETH_LOG_MAX_FT];
	struct mlx5v_sim_eth_qcnt qcnt[MLX5V_SIM_ETH_MAX_QCNT + 1];
	struct mlx5v_sim_eth_fcnt fcnt[1u << MLX5V_SIM_ETH_LOG_MAX_FCNT];
	uint32_t root_ft;           /**< NIC RX root table, 0 for none */
	struct mlx5v_sim_eth_port port;
	unsigned int live[MLX5V_SIM_ETH_K_MAX];
};

/* ---- Life cycle (mlx5v_sim_eth_obj.c) ---- */
/** Allocate the store and set the port defaults. @return 0 or -ENOMEM. */
int mlx5v_sim_eth_init(struct mlx5v_sim *sim);
/** Free every object (logging leftovers) and the store; engine stopped. */
void mlx5v_sim_eth_fini(struct mlx5v_sim *sim);
/** @return the live objects of a kind. */
unsigned int mlx5v_sim_eth_live(struct mlx5v_sim *sim, enum mlx5v_sim_eth_kind k);
/**
 * One-shot create fault: if knob (a fail_create_* count, enum mlx5v_sim_knob) is positive,
 * count it down. @return 1 if this create must fail.
 */
int mlx5v_sim_eth_fault(struct mlx5v_sim *sim, unsigned int knob);
/** INIT_HCA: the link comes up unless disable_link_up_by_init_hca is set (prm/mlx5_eth §11.1). */
void mlx5v_sim_eth_hca_init(struct mlx5v_sim *sim);

/* ---- Lookups for the data path: NULL when the number names no live object ---- */
struct mlx5v_sim_eth_dom *mlx5v_sim_eth_pd_get(struct mlx5v_sim *sim, uint32_t pdn);
struct mlx5v_sim_eth_dom *mlx5v_sim_eth_td_get(struct mlx5v_sim *sim, uint32_t tdn);
struct mlx5v_sim_eth_sq *mlx5v_sim_eth_sq_get(struct mlx5v_sim *sim, uint32_t sqn);
struct mlx5v_sim_eth_rq *mlx5v_sim_eth_rq_get(struct mlx5v_sim *sim, uint32_t rqn);
struct mlx5v_sim_eth_tis *mlx5v_sim_eth_tis_get(struct mlx5v_sim *sim, uint32_t tisn);
struct mlx5v_sim_eth_tir *mlx5v_sim_eth_tir_get(struct mlx5v_sim *sim, uint32_t tirn);
struct mlx5v_sim_eth_rqt *mlx5v_sim_eth_rqt_get(struct mlx5v_sim *sim, uint32_t rqtn);
struct mlx5v_sim_eth_ft *mlx5v_sim_eth_ft_get(struct mlx5v_sim *sim, uint32_t table_id);
/** The first set entry of ft at index from or above, in index order; UINT32_MAX if none. */
uint32_t mlx5v_sim_eth_ft_next(const struct mlx5v_sim_eth_ft *ft, uint32_t from);
/** @return the group group_id of ft, or NULL. */
struct mlx5v_sim_eth_fg *mlx5v_sim_eth_fg_get(struct mlx5v_sim_eth_ft *ft, uint32_t group_id);
/** The fields the model matches, all ones in a match set (m, MLX5V_SIM_ETH_MATCH_LEN bytes). */
void mlx5v_sim_eth_match_modelled(uint8_t *m);
struct mlx5v_sim_eth_qcnt *mlx5v_sim_eth_qcnt_get(struct mlx5v_sim *sim, uint32_t id);
struct mlx5v_sim_eth_fcnt *mlx5v_sim_eth_fcnt_get(struct mlx5v_sim *sim, uint32_t id);
/** @return the NIC RX root flow table (SET_FLOW_TABLE_ROOT), or NULL. */
struct mlx5v_sim_eth_ft *mlx5v_sim_eth_root(struct mlx5v_sim *sim);
/** @return the port and vport state. */
struct mlx5v_sim_eth_port *mlx5v_sim_eth_port(struct mlx5v_sim *sim);
/** @return 1 if the link is up: PAOS admin up and the cable connected (prm/mlx5_eth §11.2). */
int mlx5v_sim_eth_link_up(struct mlx5v_sim *sim);

/**
 * Translate a data segment (prm/mlx5_eth §4.2): the key lkey must be the reserved lkey (with
 * MLX5V_SIM_ETH_ACC_RLKY: the queue has rlky) or a live MKEY of protection domain pd that
 * covers [addr, addr + len) with the access asked (MLX5V_SIM_ETH_ACC_*), and every byte must
 * be DMA mapped (one window).
 * @return 0 with *iova set (the bus address), -EINVAL (unknown key or key of another PD),
 *         -ERANGE (outside the key), -EACCES (access not granted), -EPERM (reserved lkey
 *         without rlky), -EFAULT (not mapped).
 */
int mlx5v_sim_eth_mkey_xlate(struct mlx5v_sim *sim, uint32_t pd, uint32_t lkey, uint64_t addr,
			     uint32_t len, unsigned int access, uint64_t *iova);
/**
 * As mlx5v_sim_eth_mkey_xlate(), then the host address of the bytes through the IOMMU.
 * The pointer stays valid while the driver keeps the window mapped.
 * @return the host pointer, or NULL with rte_errno set to the error above.
 */
void *mlx5v_sim_eth_mkey_ptr(struct mlx5v_sim *sim, uint32_t pd, uint32_t lkey, uint64_t addr,
			     uint32_t len, unsigned int access);

/** Device address of byte off of a work queue buffer. */
uint64_t mlx5v_sim_eth_wq_iova(const struct mlx5v_sim_eth_wq *wq, uint64_t off);

struct mlx5v_sim_cmd;

/* ---- Command handlers (registered in mlx5v_sim_cmd.c; return the outbox status) ---- */
/* mlx5v_sim_eth_obj.c */
uint8_t mlx5v_sim_cmd_alloc_pd(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_dealloc_pd(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_alloc_td(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_dealloc_td(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_special_contexts(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_create_mkey(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_mkey(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_mkey(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_alloc_q_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_dealloc_q_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_q_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/* mlx5v_sim_eth_queue.c */
uint8_t mlx5v_sim_cmd_create_tis(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_modify_tis(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_tis(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_tis(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_create_sq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_modify_sq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_sq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_sq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_create_rq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_modify_rq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_rq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_rq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/** @return 1 if an SQ or RQ completes into CQ cqn (DESTROY_CQ refuses it). */
int mlx5v_sim_eth_cq_busy(struct mlx5v_sim *sim, uint32_t cqn);
/** @return 1 if an SQ rings through UAR page uar (DEALLOC_UAR refuses it). */
int mlx5v_sim_eth_uar_busy(struct mlx5v_sim *sim, uint32_t uar);
/* mlx5v_sim_eth_steer.c */
uint8_t mlx5v_sim_cmd_create_rqt(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_modify_rqt(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_rqt(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_rqt(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_create_tir(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_modify_tir(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_tir(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_tir(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_create_flow_table(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_flow_table(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_set_flow_table_root(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_create_flow_group(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_flow_group(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_set_fte(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_delete_fte(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/* mlx5v_sim_eth_fcnt.c */
uint8_t mlx5v_sim_cmd_alloc_flow_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_dealloc_flow_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_flow_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/** Free the flow tables, TIRs and RQTs (teardown). */
void mlx5v_sim_eth_steer_free(struct mlx5v_sim *sim);
/* mlx5v_sim_eth_port.c */
uint8_t mlx5v_sim_cmd_query_vport_state(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_nic_vport(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_eth_modify_nic_vport(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/** ACCESS_REG: PAOS, PTYS, PMTU, PCAM here, the rest to mlx5v_sim_cmd_access_reg(). */
uint8_t mlx5v_sim_cmd_eth_access_reg(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/** The Ethernet fields of the general capability (max and cur alike). */
void mlx5v_sim_eth_caps_general(struct mlx5v_sim *sim, uint8_t *cap);
/** Capability type 1 or 7 (prm/mlx5_eth §3.1) into cap. @return 0, or -EINVAL. */
int mlx5v_sim_eth_caps_query(struct mlx5v_sim *sim, unsigned int type, uint8_t *cap);
/**
 * @return 1 if the flex parser parses ICMP (ver 4) or ICMPv6 (ver 6) for misc 3 (prm/mlx5_eth
 * §3.4).
 */
int mlx5v_sim_eth_flex_icmp(struct mlx5v_sim *sim, unsigned int ver);
/** @return 1 if NIC RX tables match the VXLAN VNI and the inner headers (ft_field_support). */
int mlx5v_sim_eth_ft_tunnel(struct mlx5v_sim *sim);
/** Port defaults: permanent MAC from the device name, MTU, link up. */
void mlx5v_sim_eth_port_init(struct mlx5v_sim *sim);

#endif /* _MLX5V_SIM_ETH_H_ */
