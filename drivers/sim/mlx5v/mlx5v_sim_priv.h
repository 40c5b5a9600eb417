/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Internal state of the mlx5 device model, shared by the sim/ files only. */

#ifndef _MLX5V_SIM_PRIV_H_
#define _MLX5V_SIM_PRIV_H_

#include <pthread.h>
#include <stdint.h>
#include <sys/queue.h>

#include "hwsim_dma.h"
#include "hwsim_fault.h"
#include "hwsim_irq.h"
#include "hwsim_mmio.h"
#include "hwsim_thread.h"

#include "mlx5v_prm.h"

/** Bytes of eqe.data, the per-event part of an EQE (prm/mlx5 §6.5). */
#define MLX5V_SIM_EQE_DATA_LEN (MLX5V_IFC_BIT_SZ(eqe, data) / 8)
#include "mlx5v_sim.h"
#include "mlx5v_sim_eth.h"
#include "mlx5v_sim_log.h"

/* ---- Model limits (documented in doc/guides/sim/mlx5v_sim.rst) ---- */
#define MLX5V_SIM_NUM_UARS 32            /**< UAR pages 3 .. 34 */
#define MLX5V_SIM_MIN_HOST_PAGE 4096    /**< host_page= range */
#define MLX5V_SIM_MAX_HOST_PAGE 65536
#define MLX5V_SIM_DEVICE_ID_PF 0x1017    /**< PCI device id of the model: ConnectX-5 */
#define MLX5V_SIM_DEVICE_ID_VF 0x1018    /**< ... and of its virtual function */
#define MLX5V_SIM_MAX_EQN 255            /**< EQNs 1..255: eq_number is 8 bits */
#define MLX5V_SIM_EQN_NONE UINT32_MAX    /**< no EQ (EQN 0 is a valid EQ with first_num=0) */
#define MLX5V_SIM_LOG_MAX_CQ 10
/** Most CQEs in one compressed session (prm/mlx5_eth §8.5; a model choice). */
#define MLX5V_SIM_ZIP_MAX 64
#define MLX5V_SIM_MAX_CQN ((1u << MLX5V_SIM_LOG_MAX_CQ) - 1) /**< CQNs 1..1023 */
#define MLX5V_SIM_LOG_MAX_CQ_SZ 22
#define MLX5V_SIM_LOG_MAX_EQ_SZ 22       /**< owner math needs log size < 24 */
#define MLX5V_SIM_MAX_MSIX 2048
#define MLX5V_SIM_MAX_PAS 4096           /**< PAS entries read per EQ/CQ */
#define MLX5V_SIM_CMD_MAX_BLOCKS 256     /**< mailbox blocks per direction */
#define MLX5V_SIM_CMD_MAX_LEN (MLX5V_CMD_INLINE_LEN + \
			       MLX5V_SIM_CMD_MAX_BLOCKS * MLX5V_MBOX_DATA_LEN)
#define MLX5V_SIM_CMD_MIN_LEN 8          /**< opcode/op_mod in, status/syndrome out */
#define MLX5V_SIM_MAX_PAGES (1u << 20)   /**< firmware pages the device accepts */
#define MLX5V_SIM_EC_EMBEDDED_CPU 0x8000 /**< page request ec_function flags (prm/mlx5 §5.2) */
#define MLX5V_SIM_EC_RELEASE_ALL 0x4000
#define MLX5V_SIM_RING_CHECK_MAX 65536   /**< entries checked for owner init */
#define MLX5V_SIM_CTR_MASK 0xffffffu     /**< producer/consumer counters are 24 bits */
#define MLX5V_SIM_FW_MAJOR 22
#define MLX5V_SIM_FW_MINOR 36
#define MLX5V_SIM_FW_SUBMINOR 1010
#define MLX5V_SIM_HW_ID 0x20d

/*
 * Outbox syndromes of the model. Every validation failure has its own value, so a test
 * (or a log line) names the exact check; the table is repeated in mlx5v_sim.rst.
 * 0x5100xxxx engine, 0x5101xxxx HCA, 0x5102xxxx pages, 0x5103xxxx EQ, 0x5104xxxx CQ.
 */
enum mlx5v_sim_synd {
	MLX5V_SIM_SYND_BAD_OPCODE = 0x51000001,       /**< BAD_OP: opcode not implemented */
	MLX5V_SIM_SYND_BAD_OP_MOD = 0x51000002,       /**< BAD_PARAM: op_mod not defined */
	MLX5V_SIM_SYND_INLEN = 0x51000003,            /**< BAD_INP_LEN: inlen below minimum */
	MLX5V_SIM_SYND_OUTLEN = 0x51000004,           /**< BAD_OUTP_LEN: outlen below minimum */
	MLX5V_SIM_SYND_HCA_DISABLED = 0x51000005,     /**< BAD_SYS_STATE: before ENABLE_HCA */
	MLX5V_SIM_SYND_HCA_NOT_INIT = 0x51000006,     /**< BAD_SYS_STATE: before INIT_HCA */
	MLX5V_SIM_SYND_HDR_RESERVED = 0x51000007,     /**< BAD_PARAM: reserved input bytes */
	MLX5V_SIM_SYND_ENABLE_FUNC = 0x51010001,      /**< BAD_PARAM: function_id != 0 */
	MLX5V_SIM_SYND_ENABLE_TWICE = 0x51010002,     /**< BAD_SYS_STATE: already enabled */
	MLX5V_SIM_SYND_DISABLE_STATE = 0x51010003,    /**< BAD_SYS_STATE: not enabled */
	MLX5V_SIM_SYND_DISABLE_INIT = 0x51010004,     /**< BAD_SYS_STATE: INIT_HCA not torn down */
	MLX5V_SIM_SYND_BAD_ISSI = 0x51010005,         /**< BAD_PARAM: ISSI not 0 or 1 */
	MLX5V_SIM_SYND_CAP_OTHER_FUNC = 0x51010006,   /**< BAD_PARAM: other_function/function_id */
	MLX5V_SIM_SYND_SET_CAP_STATE = 0x51010007,    /**< BAD_SYS_STATE: SET_HCA_CAP after INIT */
	MLX5V_SIM_SYND_SET_CAP_VALUE = 0x51010008,    /**< BAD_PARAM: settable field above max */
	MLX5V_SIM_SYND_UAR_PAGE_SZ = 0x51010009,      /**< BAD_PARAM: UAR page != host page */
	MLX5V_SIM_SYND_INIT_TWICE = 0x5101000a,       /**< BAD_SYS_STATE: INIT_HCA twice */
	MLX5V_SIM_SYND_INIT_NO_PAGES = 0x5101000b,    /**< BAD_SYS_STATE: boot+init pages missing */
	MLX5V_SIM_SYND_INIT_NO_ISSI = 0x5101000c,     /**< BAD_SYS_STATE: SET_ISSI 1 missing */
	MLX5V_SIM_SYND_TEARDOWN_STATE = 0x5101000d,   /**< BAD_SYS_STATE: not initialised */
	MLX5V_SIM_SYND_TEARDOWN_PROFILE = 0x5101000e, /**< BAD_PARAM: profile not 0 or 2 */
	MLX5V_SIM_SYND_TEARDOWN_NO_FAST = 0x5101000f, /**< BAD_PARAM: profile 2, cap clear */
	MLX5V_SIM_SYND_REG_ID = 0x51010010,           /**< BAD_PARAM: register not 0x7004 */
	MLX5V_SIM_SYND_REG_DATA = 0x51010011,         /**< BAD_PARAM: bad register data */
	MLX5V_SIM_SYND_REG_VF = 0x51010016,           /**< BAD_OP: PF-only register from a VF */
	MLX5V_SIM_SYND_VPORT = 0x51010012,            /**< BAD_PARAM: other vport / non-ETH */
	MLX5V_SIM_SYND_UAR_NONE = 0x51010013,         /**< LIM_ERR: no free UAR page */
	MLX5V_SIM_SYND_UAR_INDEX = 0x51010014,        /**< BAD_PARAM: UAR index not allocated */
	MLX5V_SIM_SYND_UAR_BUSY = 0x51010015,         /**< BAD_RES_STATE: UAR used by EQ/CQ */
	MLX5V_SIM_SYND_PAGES_FUNC = 0x51020001,       /**< BAD_PARAM: function_id/ec != 0 */
	MLX5V_SIM_SYND_PAGES_NENT = 0x51020002,       /**< BAD_INP_LEN: entries beyond inlen */
	MLX5V_SIM_SYND_PAGE_ZERO = 0x51020003,        /**< BAD_PARAM: page address 0 */
	MLX5V_SIM_SYND_PAGE_ALIGN = 0x51020004,       /**< BAD_PARAM: page not 4 KiB aligned */
	MLX5V_SIM_SYND_PAGE_UNMAPPED = 0x51020005,    /**< BAD_PARAM: page not DMA mapped */
	MLX5V_SIM_SYND_PAGE_DUP = 0x51020006,         /**< BAD_PARAM: page already given */
	MLX5V_SIM_SYND_PAGES_LIMIT = 0x51020007,      /**< LIM_ERR: too many pages */
	MLX5V_SIM_SYND_EQC_RESERVED = 0x51030001,     /**< BAD_PARAM: eqc reserved bits */
	MLX5V_SIM_SYND_EQ_IN_RESERVED = 0x51030002,   /**< BAD_PARAM: create_eq_in reserved */
	MLX5V_SIM_SYND_EQ_SIZE = 0x51030003,          /**< BAD_PARAM: log_eq_size > cap */
	MLX5V_SIM_SYND_EQ_UAR = 0x51030004,           /**< BAD_PARAM: uar_page not allocated */
	MLX5V_SIM_SYND_EQ_INTR = 0x51030005,          /**< BAD_PARAM: intr >= MSI-X count */
	MLX5V_SIM_SYND_EQ_PAGE_OFFSET = 0x51030006,   /**< BAD_PARAM: page_offset != 0 */
	MLX5V_SIM_SYND_EQ_PAS_LEN = 0x51030007,       /**< BAD_INP_LEN: PAS beyond inlen */
	MLX5V_SIM_SYND_EQ_PAS_ALIGN = 0x51030008,     /**< BAD_PARAM: PAS not page aligned */
	MLX5V_SIM_SYND_EQ_UNMAPPED = 0x51030009,      /**< BAD_PARAM: ring not DMA mapped */
	MLX5V_SIM_SYND_EQ_NO_EQN = 0x5103000a,        /**< LIM_ERR: no free EQN */
	MLX5V_SIM_SYND_EQ_ST = 0x5103000b,            /**< BAD_PARAM: eqc.st not 0/9/a/b */
	MLX5V_SIM_SYND_EQ_STATUS = 0x5103000c,        /**< BAD_PARAM: eqc.status != 0 */
	MLX5V_SIM_SYND_EQ_EQN = 0x5103000d,           /**< BAD_RES: no such EQ */
	MLX5V_SIM_SYND_EQ_HAS_CQ = 0x5103000e,        /**< BAD_RES_STATE: CQs still bound */
	MLX5V_SIM_SYND_EQ_ERROR = 0x5103000f,         /**< BAD_RES_STATE: EQ in error */
	MLX5V_SIM_SYND_EQ_IN_HI = 0x51030010,         /**< BAD_PARAM: eq_number bits 31:8 */
	MLX5V_SIM_SYND_CQC_RESERVED = 0x51040001,     /**< BAD_PARAM: cqc reserved bits */
	MLX5V_SIM_SYND_CQ_IN_RESERVED = 0x51040002,   /**< BAD_PARAM: create_cq_in reserved */
	MLX5V_SIM_SYND_CQ_SIZE = 0x51040003,          /**< BAD_PARAM: log_cq_size > cap */
	MLX5V_SIM_SYND_CQ_EQN = 0x51040004,           /**< BAD_PARAM: c_eqn names no EQ */
	MLX5V_SIM_SYND_CQ_UAR = 0x51040005,           /**< BAD_PARAM: uar_page not allocated */
	MLX5V_SIM_SYND_CQ_CQE_SZ = 0x51040006,        /**< BAD_PARAM: cqe_sz != 64 B */
	MLX5V_SIM_SYND_CQ_PAGE_OFFSET = 0x51040007,   /**< BAD_PARAM: page_offset != 0 */
	MLX5V_SIM_SYND_CQ_PAS_LEN = 0x51040008,       /**< BAD_INP_LEN: PAS beyond inlen */
	MLX5V_SIM_SYND_CQ_PAS_ALIGN = 0x51040009,     /**< BAD_PARAM: PAS not page aligned */
	MLX5V_SIM_SYND_CQ_UNMAPPED = 0x5104000a,      /**< BAD_PARAM: ring not DMA mapped */
	MLX5V_SIM_SYND_CQ_DBR = 0x5104000b,           /**< BAD_PARAM: dbr_addr unaligned/unmapped */
	MLX5V_SIM_SYND_CQ_NO_CQN = 0x5104000c,        /**< LIM_ERR: no free CQN */
	MLX5V_SIM_SYND_CQ_UMEM = 0x5104000d,          /**< BAD_PARAM: umem not supported */
	MLX5V_SIM_SYND_CQ_CQN = 0x5104000e,           /**< BAD_RES: no such CQ */
	MLX5V_SIM_SYND_CQ_ST = 0x5104000f,            /**< BAD_PARAM: cqc.st/status not 0 */
	MLX5V_SIM_SYND_CQ_COMP = 0x51040011,          /**< BAD_PARAM: cqe_comp_en unsupported */
};

/* ---- Fault knobs: indices into mlx5v_sim_knob_defs[] (mlx5v_sim_faults.c) ---- */
enum mlx5v_sim_knob {
	MLX5V_SIM_K_FAIL_OPCODE,
	MLX5V_SIM_K_FAIL_STATUS,
	MLX5V_SIM_K_FAIL_SYNDROME,
	MLX5V_SIM_K_FAIL_COUNT,
	MLX5V_SIM_K_DELIV_OPCODE,
	MLX5V_SIM_K_DELIV_STATUS,
	MLX5V_SIM_K_DELAY_OPCODE,
	MLX5V_SIM_K_DELAY_MS,
	MLX5V_SIM_K_DROP_OPCODE,
	MLX5V_SIM_K_DROP_HOLD,
	MLX5V_SIM_K_DUP_OPCODE,
	MLX5V_SIM_K_MSIX_VEC,
	MLX5V_SIM_K_LOSE_MSIX,
	MLX5V_SIM_K_DUP_MSIX,
	MLX5V_SIM_K_HEALTH_FREEZE,
	MLX5V_SIM_K_HEALTH_SYND,
	MLX5V_SIM_K_HEALTH_PERIOD_MS,
	MLX5V_SIM_K_NIC_INTERFACE,
	MLX5V_SIM_K_PCI_OFFLINE,
	MLX5V_SIM_K_BOOT_MS,
	MLX5V_SIM_K_BOOT_PAGES,
	MLX5V_SIM_K_INIT_PAGES,
	MLX5V_SIM_K_CHECKSUMS,
	MLX5V_SIM_K_CHECK_TOKEN,
	MLX5V_SIM_K_FAST_TEARDOWN,
	MLX5V_SIM_K_TEARDOWN_FAIL,
	MLX5V_SIM_K_CMD_EXEC_TO,
	MLX5V_SIM_K_CMD_Q_INIT_TO,
	MLX5V_SIM_K_REQUEST_PAGES,
	MLX5V_SIM_K_PAGE_STORM,
	MLX5V_SIM_K_PAGE_STORM_PAGES,
	MLX5V_SIM_K_EQ_OVERRUN,
	MLX5V_SIM_K_CQ_OVERRUN,
	MLX5V_SIM_K_PORT_DOWN,
	MLX5V_SIM_K_PORT_UP,
	MLX5V_SIM_K_FAIL_DMA_MAP,
	MLX5V_SIM_K_FAIL_OP_MOD,
	MLX5V_SIM_K_UMEM_UID_0,
	MLX5V_SIM_K_ROCE,
	MLX5V_SIM_K_PORT_TYPE,
	MLX5V_SIM_K_BAD_OUT_SIG_OPCODE,
	MLX5V_SIM_K_BAD_OUT_SIG_BLOCK,
	MLX5V_SIM_K_FAIL_CREATE_SQ,
	MLX5V_SIM_K_FAIL_CREATE_RQ,
	MLX5V_SIM_K_FAIL_CREATE_TIR,
	MLX5V_SIM_K_FAIL_CREATE_MKEY,
	MLX5V_SIM_K_WQE_INLINE_MODE,
	MLX5V_SIM_K_VPORT_INLINE_MODE,
	MLX5V_SIM_K_PTYS_EXT,
	MLX5V_SIM_K_LINK_MODE,
	MLX5V_SIM_K_LOG_BF_REG_SIZE,
	MLX5V_SIM_K_MAX_WQE_SZ_SQ,
	MLX5V_SIM_K_EMPW,
	MLX5V_SIM_K_CQE_COMP,
	MLX5V_SIM_K_UAR_4K,
	MLX5V_SIM_K_TX_ERR_NEXT,
	MLX5V_SIM_K_RX_ERR_NEXT,
	MLX5V_SIM_K_RX_ERR_SYND,
	MLX5V_SIM_K_TS_FORMAT_CAP,
	MLX5V_SIM_K_RX_CQE_SE,
	MLX5V_SIM_K_MINI_CQE_TAGS,
	MLX5V_SIM_K_WIRE_DROP_NEXT,
	MLX5V_SIM_K_WIRE_CORRUPT_NEXT,
	MLX5V_SIM_K_LINK,
	MLX5V_SIM_K_LINK_FLAP,
	MLX5V_SIM_K_HOLD_FOR_PAGES,
	MLX5V_SIM_K_HOLD_PAGES,
	MLX5V_SIM_K_REQUEST_PAGES_EC,
	MLX5V_SIM_K_RELEASE_ALL_PAGES,
	MLX5V_SIM_K_TEARDOWN_OFFLINE,
	MLX5V_SIM_K_MSIX_HOST_VECTORS,
	MLX5V_SIM_K_MSIX_NORESIZE,
	MLX5V_SIM_K_MSIX_NO_EVENTFD,
	MLX5V_SIM_K_RESET_FAIL,
	MLX5V_SIM_K_CMD_HANG,
	MLX5V_SIM_K_FLEX_PARSER_ICMP,
	MLX5V_SIM_K_FT_TUNNEL,
	MLX5V_SIM_K_MAX,
};

/** HCA life cycle as the firmware sees it. */
enum mlx5v_sim_hca_state {
	MLX5V_SIM_HCA_DISABLED,     /**< after reset or DISABLE_HCA */
	MLX5V_SIM_HCA_ENABLED,      /**< ENABLE_HCA done, or torn down */
	MLX5V_SIM_HCA_INITIALIZED,  /**< INIT_HCA done */
};

/** Command slot state; a slot is busy (owned by the device) unless IDLE. */
enum mlx5v_sim_slot_state {
	MLX5V_SIM_SLOT_IDLE,
	MLX5V_SIM_SLOT_QUEUED,      /**< doorbell seen, engine has not run it yet */
	MLX5V_SIM_SLOT_DELAYED,     /**< executed; completion held until deadline */
	MLX5V_SIM_SLOT_HELD,        /**< executed; completion held until release_held */
	MLX5V_SIM_SLOT_WAIT_PAGES,  /**< executed; held until the driver gave pages_target */
};

struct mlx5v_sim_slot {
	uint8_t state;              /**< enum mlx5v_sim_slot_state */
	uint8_t deliv;              /**< delivery status to complete with */
	uint8_t drop_eqe;           /**< complete without the CMD EQE */
	uint8_t dup_eqe;            /**< post the CMD EQE twice */
	uint8_t sig;                /**< entry signature byte when checksums are on */
	uint8_t sig_on;             /**< signatures applied to this command (at its arrival) */
	uint32_t cmd_eqn;           /**< EQ subscribed to CMD when the doorbell rang, or NONE */
	uint32_t cmd_eq_gen;        /**< ... and its generation, so a re-created EQN differs */
	uint64_t deadline_ns;       /**< DELAYED: when to complete */
	uint64_t ent_iova;          /**< the entry, fixed when the command ran */
	uint32_t pages_target;      /**< WAIT_PAGES: complete once nb_pages reaches this */
};

/** One EQ. Indexed by EQN; eqn 0 is never used so doorbell words stay nonzero. */
struct mlx5v_sim_eq {
	int valid;
	uint32_t gen;               /**< creation generation */
	uint8_t log_size;
	uint8_t log_page_size;      /**< page = 2^(log_page_size + 12) bytes */
	uint8_t armed;              /**< prm/mlx5 §6.11: 1 ARMED, 0 FIRED (or never armed) */
	uint8_t always_armed;       /**< eqc.st 0xb */
	uint8_t status;             /**< eqc.status: 0 or EQ_WRITE_FAILURE */
	uint8_t oi;
	uint8_t ec;
	uint32_t uar;
	uint32_t intr;
	uint32_t pi;                /**< producer counter, 24 bits */
	uint32_t ci;                /**< last consumer index written by a doorbell */
	uint64_t noarm_pass;        /**< doorbell pass that last took a CI-only update */
	unsigned int ncq;           /**< CQs bound to this EQ */
	uint64_t mask[4];           /**< event_bitmask, host order */
	uint32_t npas;
	uint64_t *pas;
	void *ring_host;            /**< host address of pas[0] at creation */
	uint8_t destroy_failed;     /**< DESTROY_EQ failed: alive until DISABLE_HCA */
	uint8_t freed_reported;
};

struct mlx5v_sim_cq {
	int valid;
	uint8_t log_size;
	uint8_t log_page_size;
	uint8_t armed;              /**< armed for the next CQE (prm/mlx5 §7.2) */
	uint8_t status;             /**< cqc.status: 0, CQ_OVERFLOW or CQ_WRITE_FAIL */
	uint8_t oi;
	uint8_t arm_sn;
	uint32_t events;            /**< completion EQEs raised: the next arm's sn (mod 4) */
	uint32_t uar;
	uint32_t eqn;               /**< c_eqn */
	uint32_t pi;                /**< producer counter, 24 bits */
	uint32_t arm_ci;            /**< consumer index of the last arm doorbell */
	uint16_t cq_period;         /**< cqc.cq_period, echoed by QUERY_CQ */
	uint16_t cq_max_count;      /**< cqc.cq_max_count, echoed by QUERY_CQ */
	uint64_t dbr_addr;
	uint32_t npas;
	uint64_t *pas;
	void *ring_host;            /**< host address of pas[0] at creation */
	uint8_t destroy_failed;     /**< DESTROY_CQ failed: alive until DISABLE_HCA */
	uint8_t freed_reported;
	/* CQE compression (prm/mlx5_eth §8.5, mlx5v_sim.rst "CQE compression"). */
	uint8_t comp_en;            /**< cqc.cqe_comp_en */
	uint8_t mini_fmt;           /**< cqc.mini_cqe_res_format | _ext << 2 */
	uint8_t zip_queued;         /**< on sim->zip_head's list */
	uint16_t zip_n;             /**< CQEs held for the session being formed */
	uint32_t zip_next;          /**< next CQN on the list (0: end) */
	uint8_t *zip;               /**< the first held CQE, then one mini-CQE per held CQE */
};

/** A UAR page lent to another process (mlx5v_sim_hw.c, "Doorbells of several processes"). */
struct mlx5v_sim_uar_alias {
	struct mlx5v_sim_uar_alias *next;
	struct hwsim_mmio_page *pg; /**< the UAR's watches, its own memfd */
	uint64_t lent_ns;           /**< when its fd was handed out */
	uint32_t life;              /**< the UAR's life it was lent in */
};

struct mlx5v_sim_uar {
	int allocated;
	struct hwsim_mmio_page *pg;
	struct mlx5v_sim *sim;      /**< watch callback argument */
	uint32_t index;
	/*
	 * The pages lent to other processes: alias_lock guards the list and serialises the
	 * passes over it with their retirement, which remaps them; nb_alias (atomic) lets a
	 * pass skip the lock while there is none.
	 */
	pthread_mutex_t alias_lock;
	struct mlx5v_sim_uar_alias *alias;
	unsigned int nb_alias;
	uint32_t life;              /**< allocations ended so far (atomic), mlx5v_sim_uar_end() */
};

/** One command being executed (engine thread, sim->lock held). */
struct mlx5v_sim_cmd {
	const uint8_t *in;
	uint8_t *out;               /**< zeroed, outlen bytes (at least 16) */
	uint32_t inlen;
	uint32_t outlen;
	uint16_t opcode;
	uint16_t op_mod;
	unsigned int slot;
	uint32_t syndrome;
};

/** One init segment page published for a host that maps BAR0 (mlx5v_sim_bar.c). */
struct mlx5v_sim_iseg_page {
	struct hwsim_mmio_page *pg;
	struct mlx5v_sim *sim;      /**< register callback argument */
	uint32_t base;              /**< BAR0 offset of the page */
};

/** The simulated HCA. */
struct mlx5v_sim {
	TAILQ_ENTRY(mlx5v_sim) next;
	char name[64];
	struct mlx5v_sim_params p;  /**< knobs pointer cleared after create */
	/*
	 * lock protects all model state below. It is never held while an eventfd is
	 * written: MSI-X raises are queued in irq_pending and flushed after unlock.
	 */
	pthread_mutex_t lock;
	struct hwsim_dma *dma;
	struct hwsim_irq *irq;
	struct hwsim_engine *engine;
	struct hwsim_knobs *knobs;
	uint32_t *irq_pending;      /**< raises queued per vector */
	uint32_t irq_queued;        /**< hint: irq_pending may be nonzero (atomic) */
	unsigned int msix_on;       /**< vectors VFIO enabled: 0 .. msix_on - 1; 0: MSI-X off */
	unsigned int msix_on_max;   /**< the most vectors ever enabled at once */
	/* Init segment. */
	uint32_t cmdq_addr_h;
	uint32_t cmdq_addr_l;       /**< bits 31:12 */
	uint8_t nic_if;             /**< 0x014 [10:8] read-back */
	int pci_offline;
	int bus_enabled;
	uint64_t boot_deadline_ns;  /**< "initializing" reads 1 until then */
	uint32_t health_counter;    /**< atomic */
	uint64_t health_next_ns;
	uint8_t health_rfr;
	uint8_t health_synd;
	uint16_t health_ext_synd;
	/* Command interface. */
	uint32_t db_pending;        /**< slots queued by 0x018, taken by the engine */
	unsigned int cmd_first;     /**< engine only: the slot a pass runs first (rotates) */
	struct mlx5v_sim_slot slot[MLX5V_CMD_MAX_SLOTS];
	/* HCA. */
	int hca_state;              /**< enum mlx5v_sim_hca_state */
	int issi;
	int fast_teardown_prepared;
	int roce_en;
	int checksum_cap;           /**< cur cmdif_checksum != 0 */
	int cmd_sig_on;             /**< signatures apply to the command being run */
	uint32_t uar_size;          /**< BAR0 bytes per UAR index (atomic): 4096 or host_page */
	uint8_t host_endianness[16];
	uint8_t cap_max[MLX5V_HCA_CAP_SIZE];
	uint8_t cap_cur[MLX5V_HCA_CAP_SIZE];
	uint8_t roce_max[MLX5V_HCA_CAP_SIZE];
	uint8_t roce_cur[MLX5V_HCA_CAP_SIZE];
	struct mlx5v_sim_uar uar[MLX5V_SIM_NUM_UARS];
	unsigned int nb_uars;
	/* The init segment as memory, once a host maps BAR0 (mlx5v_sim_bar_export()). */
	struct mlx5v_sim_iseg_page iseg_pg[3];
	int iseg_mapped;            /**< iseg_pg complete (release/acquire) */
	/* Event and completion queues. */
	struct mlx5v_sim_eq eq[MLX5V_SIM_MAX_EQN + 1];
	unsigned int nb_eqs;
	uint32_t eq_gen;
	struct mlx5v_sim_cq *cq;    /**< MLX5V_SIM_MAX_CQN + 1 entries, cqn 0 unused */
	unsigned int nb_cqs;
	uint32_t zip_head;          /**< CQNs holding a session being formed (0: none) */
	unsigned int nb_zombies;    /**< EQs and CQs whose destroy failed */
	/* Firmware pages, sorted for binary search. */
	uint64_t *pages;
	uint32_t nb_pages;
	uint32_t pages_cap;
	uint32_t ec_pages_wanted;   /**< pages asked for the embedded-CPU function */
	/* The Ethernet function (mlx5v_sim_eth.h). */
	struct mlx5v_sim_eth *eth;
	/* Its data path and wire port (mlx5v_sim_eth_dp.h). */
	struct mlx5v_sim_eth_dp *dp;
	/* Counters (enum mlx5v_sim_ctr), updated with atomics. */
	uint64_t ctr[MLX5V_SIM_CTR_MAX];
};

/* ---- mlx5v_sim.c ---- */
void mlx5v_sim_ctr_inc(struct mlx5v_sim *sim, enum mlx5v_sim_ctr ctr);
/** Add n to counter ctr (mlx5v_sim_ctr_inc() adds 1). */
void mlx5v_sim_ctr_add(struct mlx5v_sim *sim, enum mlx5v_sim_ctr ctr, uint64_t n);
/** Queue an MSI-X raise of vector vec (lock held); mlx5v_sim_irq_flush() signals it. */
void mlx5v_sim_irq_queue(struct mlx5v_sim *sim, uint32_t vec);
/** Signal queued MSI-X raises; call without the lock. @return raises signalled. */
int mlx5v_sim_irq_flush(struct mlx5v_sim *sim);
/** Knob value by index. */
int64_t mlx5v_sim_knob(struct mlx5v_sim *sim, enum mlx5v_sim_knob k);

/* ---- mlx5v_sim_bar.c ---- */
/** Engine: publish the mapped init segment and take its stores. @return stores taken. */
int mlx5v_sim_bar_poll(struct mlx5v_sim *sim);
/** Free the published init segment pages. */
void mlx5v_sim_bar_fini(struct mlx5v_sim *sim);

/* ---- mlx5v_sim_iseg.c ---- */
/* Registers the model implements besides the named ones (prm/mlx5 §1.1). */
#define MLX5V_SIM_ISEG_INTERNAL_TIMER_H 0x1000
#define MLX5V_SIM_ISEG_INTERNAL_TIMER_L 0x1004
#define MLX5V_SIM_ISEG_REAL_TIME_H 0x1040
#define MLX5V_SIM_ISEG_REAL_TIME_L 0x1044
void mlx5v_sim_iseg_init(struct mlx5v_sim *sim);
uint32_t mlx5v_sim_iseg_read(struct mlx5v_sim *sim, uint32_t off);
void mlx5v_sim_iseg_write(struct mlx5v_sim *sim, uint32_t off, uint32_t val);
/** @return 1 while the "initializing" bit reads set. */
int mlx5v_sim_iseg_booting(struct mlx5v_sim *sim);

/* ---- mlx5v_sim_cmd.c ---- */
/** 0x018 doorbell from a driver thread: queue the slots in mask (lock not held). */
void mlx5v_sim_cmd_doorbell(struct mlx5v_sim *sim, uint32_t mask);
/** Engine: run queued slots and due delayed completions (lock not held). @return work. */
int mlx5v_sim_cmd_poll(struct mlx5v_sim *sim);
/** Complete every HELD slot (lock not held). */
void mlx5v_sim_cmd_release_held(struct mlx5v_sim *sim);
/** Record a failure in c; @return status, for "return mlx5v_sim_cmd_err(...)". */
uint8_t mlx5v_sim_cmd_err(struct mlx5v_sim_cmd *c, uint8_t status, uint32_t syndrome);
/** @return 1 if the len bytes at in + off are all zero. */
int mlx5v_sim_zero(const uint8_t *in, uint32_t off, uint32_t len);

/* Opcode handlers: called with sim->lock held; return the outbox status. */
typedef uint8_t (*mlx5v_sim_cmd_fn)(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);

/* ---- mlx5v_sim_cmd_hca.c ---- */
void mlx5v_sim_caps_init(struct mlx5v_sim *sim);
uint8_t mlx5v_sim_cmd_enable_hca(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_disable_hca(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_issi(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_set_issi(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_hca_cap(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_set_hca_cap(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_init_hca(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_teardown_hca(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_access_reg(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_alloc_uar(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_dealloc_uar(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/** End the allocation of a UAR: what was lent in its life is lent no more (lock held). */
void mlx5v_sim_uar_end(struct mlx5v_sim_uar *u);
/** @return 1 if UAR index idx is allocated (lock held). */
int mlx5v_sim_uar_allocated(struct mlx5v_sim *sim, uint32_t idx);

/* ---- mlx5v_sim_pages.c ---- */
uint8_t mlx5v_sim_cmd_query_pages(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_manage_pages(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/** Post a PAGE_REQUEST EQE (lock held). @return 0, -ENOENT (no subscriber), -EIO. */
int mlx5v_sim_pages_request_locked(struct mlx5v_sim *sim, int32_t num_pages);
/**
 * Post a PAGE_REQUEST with ec_function flags (lock held): 0x8000 asks num_pages for the
 * embedded-CPU function, 0x4000 "release all" drops every page first. @return as above.
 */
int mlx5v_sim_pages_request_ec_locked(struct mlx5v_sim *sim, int32_t num_pages,
				      uint16_t ec_function);
void mlx5v_sim_pages_free(struct mlx5v_sim *sim);

/* ---- mlx5v_sim_eq.c ---- */
uint8_t mlx5v_sim_cmd_create_eq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_eq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_eq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_gen_eqe(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/** @return the live EQ eqn, or NULL (lock held). */
struct mlx5v_sim_eq *mlx5v_sim_eq_get(struct mlx5v_sim *sim, uint32_t eqn);
/** @return the lowest live EQN subscribed to event type, or 0 (lock held). */
uint32_t mlx5v_sim_eq_subscriber(struct mlx5v_sim *sim, uint8_t type);
/**
 * Write one EQE (type, sub_type, 28 data bytes or NULL) to eq, owner last, and queue
 * the MSI-X if the EQ is armed (lock held). @return 0, -EIO (EQ in error or overrun).
 */
int mlx5v_sim_eq_post(struct mlx5v_sim *sim, struct mlx5v_sim_eq *eq, uint8_t type,
		      uint8_t sub_type, const void *data);
/** Post an event to subscribed EQs (all, or the first only). @return EQs written. */
int mlx5v_sim_event_post(struct mlx5v_sim *sim, uint8_t type, uint8_t sub_type,
			 const void *data, int first_only);
/** Mark eq overrun (prm/mlx5 §6.9) (lock held). */
void mlx5v_sim_eq_overrun(struct mlx5v_sim *sim, struct mlx5v_sim_eq *eq);
/** UAR +0x40 / +0x48 doorbell (engine, lock not held). */
void mlx5v_sim_eq_doorbell(struct mlx5v_sim *sim, uint32_t uar, int arm, uint32_t val);
void mlx5v_sim_eq_free_all(struct mlx5v_sim *sim);
/** Device address of byte off of a ring described by pas[] (EQs and CQs). */
uint64_t mlx5v_sim_ring_iova(const uint64_t *pas, uint8_t log_page_size, uint64_t off);
/** The syndromes of one create command's ring checks: each command has its own. */
struct mlx5v_sim_ring_synd {
	uint32_t no_mem;         /**< NO_RES: no memory for the PAS list */
	uint32_t pas_len;        /**< BAD_INP_LEN: PAS beyond inlen */
	uint32_t pas_align;      /**< BAD_PARAM: PAS not aligned to the page size */
	uint32_t unmapped;       /**< BAD_PARAM: ring not DMA mapped */
};
/**
 * Read and check the PAS list of a create command (at c->in + pas_off): c->inlen holds
 * them, each is aligned to the page size, and every byte of the ring is mapped (lock held).
 * @return MLX5V_CMD_STAT_OK with *pas (MLX5V_SIM_MAX_PAS entries, the caller frees it)
 *         and *npas set, or the status of the failure, recorded in c with its syndrome.
 */
uint8_t mlx5v_sim_ring_pas_read(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c,
				uint32_t pas_off, uint64_t ring_bytes, uint8_t log_page_size,
				const struct mlx5v_sim_ring_synd *synd, uint64_t **pas,
				uint32_t *npas);
/**
 * Count entries whose owner bit (last byte of each stride) says "software" before the
 * device wrote anything: the first pass expects 1 everywhere (prm/mlx5 §6.8, §7.4).
 */
uint32_t mlx5v_sim_ring_sw_owned(struct mlx5v_sim *sim, const uint64_t *pas,
				 uint8_t log_page_size, uint32_t nent, uint32_t stride);

/* ---- mlx5v_sim_cq.c ---- */
uint8_t mlx5v_sim_cmd_create_cq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_destroy_cq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
uint8_t mlx5v_sim_cmd_query_cq(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c);
/** UAR +0x20 doorbell (engine, lock not held). */
void mlx5v_sim_cq_doorbell(struct mlx5v_sim *sim, uint32_t uar, uint64_t val);
/** Post a CQE (lock held). @return as mlx5v_sim_post_cqe(). */
int mlx5v_sim_cq_post_locked(struct mlx5v_sim *sim, uint32_t cqn, uint8_t opcode,
			     uint32_t byte_cnt);
/**
 * Post a CQE the caller built (64 bytes, opcode in op_own[7:4]); the owner bit is set here
 * (lock held). @return as mlx5v_sim_post_cqe(), or -EFAULT when the ring is not writable.
 */
int mlx5v_sim_cq_post_raw_locked(struct mlx5v_sim *sim, uint32_t cqn, const uint8_t *cqe);
/**
 * A receive CQE (cqe as for mlx5v_sim_cq_post_raw_locked()). On a CQ with cqe_comp_en and
 * with batch set (the frame came in a burst), it is held to form a compressed session with
 * the next ones, written by mlx5v_sim_cq_zip_flush_locked(); otherwise written at once,
 * after any held session. @return the CQEs lost to a full or failed CQ (0 normally).
 */
unsigned int mlx5v_sim_cq_post_rx_locked(struct mlx5v_sim *sim, uint32_t cqn, const uint8_t *cqe,
					 int batch);
/** Write every held session (the burst ended). @return the CQEs lost. Lock held. */
unsigned int mlx5v_sim_cq_zip_flush_locked(struct mlx5v_sim *sim);
/** Force a CQ overrun: CQ_ERROR event, syndrome 0x1 (lock held). @return 0 or -ENOENT. */
int mlx5v_sim_cq_overrun_locked(struct mlx5v_sim *sim, uint32_t cqn);
void mlx5v_sim_cq_free_all(struct mlx5v_sim *sim);

/* ---- mlx5v_sim_zombie.c ---- */
/** Record a failed DESTROY_EQ/CQ of command c: the object stays alive (lock held). */
void mlx5v_sim_destroy_failed(struct mlx5v_sim *sim, const struct mlx5v_sim_cmd *c);
/** Write into the ring of every object whose destroy failed (lock held). */
void mlx5v_sim_zombies_touch(struct mlx5v_sim *sim);
/** DISABLE_HCA: release the objects whose destroy failed (lock held). */
void mlx5v_sim_zombies_release(struct mlx5v_sim *sim);

/* ---- mlx5v_sim_health.c ---- */
void mlx5v_sim_health_init(struct mlx5v_sim *sim);
/** Engine: advance the heartbeat when due. @return 1 if it advanced. */
int mlx5v_sim_health_tick(struct mlx5v_sim *sim, uint64_t now);
/** Set RFR + synd (synd 0 clears them) (lock held). */
void mlx5v_sim_health_fatal_locked(struct mlx5v_sim *sim, uint8_t synd);

/* ---- mlx5v_sim_faults.c ---- */
/** Create the knob table and apply the "name=value,..." string. @return 0 or -errno. */
int mlx5v_sim_faults_init(struct mlx5v_sim *sim, const char *knobs);
/** Run the actions of knobs set at creation (after the model is complete). */
void mlx5v_sim_faults_apply(struct mlx5v_sim *sim);
/** Knob table definitions, for the devargs ignore list and the doc. */
extern const struct hwsim_knob_def mlx5v_sim_knob_defs[MLX5V_SIM_K_MAX];
/**
 * Decide the faults for a command of opcode (lock held): fills status and syndrome for a
 * forced answer, *deliv, *delay_ms, *drop (1 drop EQE, 2 hold), *dup.
 */
void mlx5v_sim_faults_cmd(struct mlx5v_sim *sim, uint16_t opcode, uint16_t op_mod,
			  uint8_t *status, uint32_t *syndrome, uint8_t *deliv,
			  uint32_t *delay_ms, int *drop, int *dup);
/**
 * Which output signature of this command to corrupt (lock held; call only while the
 * model signs): 0 none, MLX5V_SIM_BAD_SIG_ENTRY or MLX5V_SIM_BAD_SIG_BLOCK. One-shot.
 */
int mlx5v_sim_faults_out_sig(struct mlx5v_sim *sim, uint16_t opcode);
/**
 * hold_for_pages: @return the pages to request before this command may complete, or 0
 * (lock held; one-shot, armed until a PAGE_REQUEST subscriber exists).
 */
uint32_t mlx5v_sim_faults_hold_pages(struct mlx5v_sim *sim, uint16_t opcode);
#define MLX5V_SIM_BAD_SIG_ENTRY 1
#define MLX5V_SIM_BAD_SIG_BLOCK 2

/* ---- mlx5v_sim_hw.c ---- */
/** Allocate the UAR pages and their doorbell watches. @return 0 or -errno. */
int mlx5v_sim_uars_init(struct mlx5v_sim *sim);
void mlx5v_sim_uars_fini(struct mlx5v_sim *sim);
/** Engine: consume UAR doorbells. @return doorbells seen. */
int mlx5v_sim_uars_poll(struct mlx5v_sim *sim);
/** The doorbell pass the calling thread is running (see mlx5v_sim_uars_poll()). */
uint64_t mlx5v_sim_db_pass(void);

/* ---- small helpers ---- */
/** @return the big-endian dword at byte offset off (need not be aligned). */
static inline uint32_t
mlx5v_sim_be32(const uint8_t *p, uint32_t off)
{
	return rte_pmd_mlx5v_prm_get(p + off, 0, 31, 0);
}

/** @return (a - b) mod 2^24: how far counter a is ahead of b. */
static inline uint32_t
mlx5v_sim_ctr_dist(uint32_t a, uint32_t b)
{
	return (a - b) & MLX5V_SIM_CTR_MASK;
}

#endif /* _MLX5V_SIM_PRIV_H_ */
