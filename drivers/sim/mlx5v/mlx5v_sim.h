/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The simulated ConnectX (mlx5) HCA: creation and the control API for tests. */

#ifndef _MLX5V_SIM_H_
#define _MLX5V_SIM_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

struct mlx5v_sim;

/** Creation parameters (devargs of the mlx5v_sim vdev). */
struct mlx5v_sim_params {
	unsigned int msix;        /**< MSI-X vectors, >= 2 (vector 0 is the control vector) */
	unsigned int ports;       /**< Ethernet ports, 1..4 */
	unsigned int boot_ms;     /**< how long "initializing" stays set after creation */
	unsigned int boot_pages;  /**< QUERY_PAGES boot answer */
	unsigned int init_pages;  /**< QUERY_PAGES init answer */
	unsigned int log_max_eq_sz;
	unsigned int max_eqs;
	/**
	 * function=vf: the model is an SR-IOV virtual function (VF device id, PF-only commands
	 * refused); 0 is the physical function.
	 */
	unsigned int vf;
	/**
	 * host_page=: the host page size the model checks UAR addressing for (4096..65536, a power
	 * of two; default 4096): SET_HCA_CAP must set log_uar_page_sz to it, and a UAR is
	 * reached at BAR0 + index * (uar_4k ? 4096 : host_page).
	 */
	unsigned int host_page;
	/**
	 * first_num=: the first EQN and CQN handed out, 1 (default) or 0. With 0 a doorbell word
	 * can be 0, so the model's doorbell words idle at all ones instead (EQNs then stop at
	 * 254, as no EQ doorbell can read all ones).
	 */
	unsigned int first_num;
	/**
	 * cmd_hot_us=: after running commands the engine stays awake this long (yielding,
	 * not sleeping), so that the next command of a burst needs no wake-up; 0 = off.
	 */
	unsigned int cmd_hot_us;
	int numa_node;
	const char *knobs;        /**< "name=value,..." fault knobs, may be NULL */
};

/** Live-object kinds, for leak checks. */
enum mlx5v_sim_obj {
	MLX5V_SIM_OBJ_EQ,
	MLX5V_SIM_OBJ_CQ,
	MLX5V_SIM_OBJ_UAR,
	MLX5V_SIM_OBJ_PAGES,      /**< firmware pages held by the device */
	MLX5V_SIM_OBJ_DMA_WINDOWS,/**< DMA windows the driver left mapped */
	/* The Ethernet function's objects (prm/mlx5_eth §1). */
	MLX5V_SIM_OBJ_PD,
	MLX5V_SIM_OBJ_TD,
	MLX5V_SIM_OBJ_MKEY,       /**< created keys; the reserved ones are not counted */
	MLX5V_SIM_OBJ_TIS,
	MLX5V_SIM_OBJ_SQ,
	MLX5V_SIM_OBJ_RQ,
	MLX5V_SIM_OBJ_RQT,
	MLX5V_SIM_OBJ_TIR,
	MLX5V_SIM_OBJ_FLOW_TABLE,
	MLX5V_SIM_OBJ_FLOW_GROUP,
	MLX5V_SIM_OBJ_FTE,
	MLX5V_SIM_OBJ_Q_COUNTER,
	MLX5V_SIM_OBJ_FLOW_COUNTER,
	MLX5V_SIM_OBJ_MAX,
};

/** Counters. */
enum mlx5v_sim_ctr {
	MLX5V_SIM_CTR_CMDS,           /**< commands executed */
	MLX5V_SIM_CTR_CMD_ERRORS,     /**< commands answered with status != OK or delivery error */
	MLX5V_SIM_CTR_IOMMU_FAULTS,   /**< DMA outside the mapped windows */
	MLX5V_SIM_CTR_DB_MISUSE,      /**< bad doorbells: bad EQN, CI backwards, owner 0, ... */
	MLX5V_SIM_CTR_EQES,           /**< EQEs written */
	MLX5V_SIM_CTR_CQES,           /**< CQEs written */
	MLX5V_SIM_CTR_MSIX,           /**< MSI-X raised */
	MLX5V_SIM_CTR_EQ_OVERRUNS,
	MLX5V_SIM_CTR_CQ_OVERRUNS,    /**< CQ_ERROR (overrun) events raised; added by the model */
	/** EQ/CQ rings created with software-owned entries (prm/mlx5 §7.4, §11.7); model-only */
	MLX5V_SIM_CTR_RING_SW_OWNED,
	/**
	 * CQ arms whose sn is not the count of completion events the CQ raised (mod 4): sn
	 * advances per event consumed, not per arm (prm/mlx5 §7.3)
	 */
	MLX5V_SIM_CTR_CQ_ARM_SN,
	/** pages given for the embedded-CPU function (MANAGE_PAGES embedded_cpu_function) */
	MLX5V_SIM_CTR_EC_PAGES,
	/**
	 * writes of an EQ/CQ whose destroy failed into its ring, after the driver freed that
	 * memory (the object is alive until DISABLE_HCA)
	 */
	MLX5V_SIM_CTR_FREED_RING_WRITES,
	/**
	 * SET_IRQS refused: vectors beyond the function's, beyond msix_host_vectors, added
	 * under msix_noresize, or eventfds under msix_no_eventfd
	 */
	MLX5V_SIM_CTR_MSIX_BAD_ENABLE,
	/** interrupts raised on a vector MSI-X has not enabled (lost, as on a host) */
	MLX5V_SIM_CTR_MSIX_NOT_ENABLED,
	/** compressed CQE sessions written (prm/mlx5_eth §8.5); their CQEs count in CQES */
	MLX5V_SIM_CTR_CQE_SESSIONS,
	MLX5V_SIM_CTR_MAX,
};

/** Fill p with the defaults (msix 8, ports 1, boot_ms 0, 16 boot / 32 init pages). */
__rte_internal
void mlx5v_sim_params_default(struct mlx5v_sim_params *p);

/**
 * Create a simulated HCA and start its engine thread. The init segment reads as after a
 * PCI reset; "initializing" clears after boot_ms.
 * @return the device, or NULL with rte_errno set (EINVAL for bad params or knobs).
 */
__rte_internal
struct mlx5v_sim *mlx5v_sim_create(const char *name, const struct mlx5v_sim_params *p);

/**
 * Fill p from a devargs string "key=value,...": msix, ports, boot_ms, pages
 * (boot[:init]), boot_pages, init_pages, log_max_eq_sz, max_eqs. Any other key is left
 * for the knob parser: p->knobs is set to devargs, so the caller keeps the string alive
 * until mlx5v_sim_create(), which rejects unknown knob names.
 * @return 0, or -EINVAL for a malformed value of a device key.
 */
__rte_internal
int mlx5v_sim_params_parse(struct mlx5v_sim_params *p, const char *devargs);

struct mlx5v_hw;
struct mlx5v_hw_ops;

/** The simulator's backend of the mlx5v hardware seam (mlx5v_sim_hw.c). */
extern const struct mlx5v_hw_ops mlx5v_sim_hw_ops;

/** Point hw at the simulator backend: ops = &mlx5v_sim_hw_ops, priv = sim, name. */
__rte_internal
void mlx5v_sim_hw_init(struct mlx5v_sim *sim, struct mlx5v_hw *hw);

/** Stop the engine and free the model. Leaks "in hardware" are logged. */
__rte_internal
void mlx5v_sim_destroy(struct mlx5v_sim *sim);

/** Find a live simulator by its EAL device name (e.g. "mlx5v_sim0"), or NULL. */
__rte_internal
struct mlx5v_sim *mlx5v_sim_get(const char *name);

/** @return live objects of a kind (see enum mlx5v_sim_obj). */
__rte_internal
unsigned int mlx5v_sim_live_objects(struct mlx5v_sim *sim, enum mlx5v_sim_obj kind);

/** @return a counter (see enum mlx5v_sim_ctr). */
__rte_internal
uint64_t mlx5v_sim_counter(struct mlx5v_sim *sim, enum mlx5v_sim_ctr ctr);

/**
 * @return the MSI-X vectors enabled now (as VFIO_DEVICE_SET_IRQS left them; 0: MSI-X off);
 * *max (may be NULL) gets the most ever enabled at once.
 */
__rte_internal
unsigned int mlx5v_sim_msix_enabled(struct mlx5v_sim *sim, unsigned int *max);

/* ---- Fault knobs ---- */

/** Answer the next command of opcode with outbox status/syndrome. @return 0 or -EINVAL. */
__rte_internal
int mlx5v_sim_fail_next_cmd(struct mlx5v_sim *sim, uint16_t opcode, uint8_t status,
			    uint32_t syndrome);

/** Complete the next command of opcode with delivery status deliv (non-zero). */
__rte_internal
int mlx5v_sim_fail_next_delivery(struct mlx5v_sim *sim, uint16_t opcode, uint8_t deliv);

/** Hold the completion of the next command of opcode for delay_ms. */
__rte_internal
int mlx5v_sim_delay_next_cmd(struct mlx5v_sim *sim, uint16_t opcode, uint32_t delay_ms);

/**
 * Execute the next command of opcode but drop its completion event (the ownership bit is
 * still cleared, as when an MSI-X or EQE is lost). With hold = 1, keep the slot owned by
 * the device until mlx5v_sim_release_held() (a firmware that never answers).
 */
__rte_internal
int mlx5v_sim_drop_next_completion(struct mlx5v_sim *sim, uint16_t opcode, int hold);

/** Complete held slots now (a late completion after a driver timeout). */
__rte_internal
void mlx5v_sim_release_held(struct mlx5v_sim *sim);

/**
 * Test hook: stop the engine thread (hold = 1) or start it again (0), so that a test can
 * order the device's steps itself with mlx5v_sim_cmd_pass(). @return 0 or -errno.
 */
__rte_internal
int mlx5v_sim_engine_hold(struct mlx5v_sim *sim, int hold);

/**
 * Test hook: the aliases of UAR index idx that exist, one per fd lent to another process
 * (the seam's uar_fd) and not yet found unmapped (doc/guides/sim/mlx5v_sim.rst, "Doorbells
 * of several processes"). 0 for an index out of range.
 */
__rte_internal
unsigned int mlx5v_sim_uar_aliases(struct mlx5v_sim *sim, uint32_t idx);

/**
 * Test hook, with the engine held: run the command step of an engine pass (the posted
 * command slots, then their interrupts) on the calling thread. @return the work done.
 */
__rte_internal
int mlx5v_sim_cmd_pass(struct mlx5v_sim *sim);

/** Post the completion EQE of the next command of opcode twice. */
__rte_internal
int mlx5v_sim_dup_next_completion(struct mlx5v_sim *sim, uint16_t opcode);

/** Drop (lost MSI) or duplicate (spurious MSI) the next n interrupts of vector vec. */
__rte_internal
void mlx5v_sim_drop_msix(struct mlx5v_sim *sim, unsigned int vec, unsigned int n);
__rte_internal
void mlx5v_sim_dup_msix(struct mlx5v_sim *sim, unsigned int vec, unsigned int n);

/** Freeze (1) or resume (0) the health counter. */
__rte_internal
void mlx5v_sim_health_freeze(struct mlx5v_sim *sim, int freeze);

/** Raise a fatal syndrome: RFR bit + synd in the health buffer. */
__rte_internal
void mlx5v_sim_health_fatal(struct mlx5v_sim *sim, uint8_t synd);

/** Force the NIC interface state read back from 0x014 [10:8]. */
__rte_internal
void mlx5v_sim_nic_interface_set(struct mlx5v_sim *sim, unsigned int state);

/**
 * Function level reset (VFIO_DEVICE_RESET) in place: every object, firmware page and UAR
 * allocation is forgotten, the command queue address and the health buffer are cleared, the
 * fault state of a dead device (health_freeze, health_synd, nic_interface, pci_offline,
 * cmd_hang) ends, "initializing" reads 1 for boot_ms. What the host keeps stays: DMA
 * windows, MSI-X triggers, the BAR pages and the wire.
 * @return 0, or -EIO while the reset_fail knob counts down.
 */
int mlx5v_sim_func_reset(struct mlx5v_sim *sim);

/** Make every BAR read return all ones (PCI link gone). */
__rte_internal
void mlx5v_sim_pci_offline(struct mlx5v_sim *sim, int offline);

/**
 * Write an event as the device would: to every EQ whose event_bitmask has type set
 * (the first such EQ for CMD/PAGE_REQUEST), owner bit last, then MSI-X if armed.
 * data is the 28-byte EQE data union (may be NULL for zeros).
 * @return the number of EQs written, or -errno.
 */
__rte_internal
int mlx5v_sim_inject_event(struct mlx5v_sim *sim, uint8_t type, uint8_t sub_type,
			   const void *data);

/** Port change event for port (1-based) with sub_type (1 down, 4 active). */
__rte_internal
int mlx5v_sim_port_event(struct mlx5v_sim *sim, unsigned int port, uint8_t sub_type);

/** Ask the driver for pages: a PAGE_REQUEST EQE with signed num_pages. */
__rte_internal
int mlx5v_sim_request_pages(struct mlx5v_sim *sim, int32_t num_pages);

/**
 * Post a CQE on CQ cqn (opcode and byte count as given); a completion EQE follows if the
 * CQ is armed. @return 0, -ENOENT (no such CQ), -ENOSPC (CQ overrun: a CQ_ERROR event).
 */
__rte_internal
int mlx5v_sim_post_cqe(struct mlx5v_sim *sim, uint32_t cqn, uint8_t opcode, uint32_t byte_cnt);

/**
 * Translate a data segment as the device does (prm/mlx5_eth §4.2): lkey is the reserved
 * lkey or a live MKEY of protection domain pd covering [addr, addr + len) with access
 * (bit 0 read, bit 1 write, bit 2 the queue's rlky: MLX5V_SIM_ETH_ACC_* of mlx5v_sim_eth.h),
 * all of it DMA mapped.
 * @return 0 with *iova set, -EINVAL (unknown key, other PD), -ERANGE (outside the key),
 *         -EACCES (access not granted), -EPERM (the reserved lkey without rlky),
 *         -EFAULT (not mapped).
 */
__rte_internal
int mlx5v_sim_mkey_translate(struct mlx5v_sim *sim, uint32_t pd, uint32_t lkey, uint64_t addr,
			     uint32_t len, unsigned int access, uint64_t *iova);

/** Set a named knob (see the table in mlx5v_sim_faults.c). @return 0, -ENOENT, -ERANGE. */
__rte_internal
int mlx5v_sim_knob_set(struct mlx5v_sim *sim, const char *name, int64_t value);

/** Read a named knob. @return 0 or -ENOENT. */
__rte_internal
int mlx5v_sim_knob_get(struct mlx5v_sim *sim, const char *name, int64_t *value);

/* ---- The Ethernet port: wire, link and data path counters ---- */

/** Data path counters of the Ethernet port (mlx5v_sim_eth_stats_get()). */
struct mlx5v_sim_eth_stats {
	uint64_t tx_frames;         /**< frames put on the wire */
	uint64_t tx_bytes;
	uint64_t tx_cqes;           /**< send CQEs (REQ) */
	uint64_t tx_err_cqes;       /**< send error CQEs (REQ_ERR), flushes included */
	uint64_t tx_link_down;      /**< frames sent while the link was down (lost) */
	uint64_t rx_frames;         /**< frames scattered into an RQ */
	uint64_t rx_bytes;
	uint64_t rx_link_down;      /**< arrived while the link was down */
	uint64_t rx_fcs_bad;        /**< arrived with a bad FCS */
	uint64_t rx_mtu_drop;       /**< longer than the port MTU */
	uint64_t rx_vport_drop;     /**< refused by the vport MAC filter */
	uint64_t rx_steer_miss;     /**< no root table, or a table miss without a next table */
	uint64_t rx_flow_drop;      /**< a DROP entry, or self loopback blocked */
	uint64_t rx_rq_not_ready;   /**< the RQ chosen is not in RDY */
	uint64_t rx_out_of_buffer;  /**< the RQ had no posted WQE */
	uint64_t rx_err_cqes;       /**< receive error CQEs (RESP_ERR) */
	uint64_t rx_cq_full;        /**< the CQE could not be written (CQ overrun or error) */
};

/** Copy the port's data path counters. @return 0 or -EINVAL. */
__rte_internal
int mlx5v_sim_eth_stats_get(struct mlx5v_sim *sim, struct mlx5v_sim_eth_stats *st);

/**
 * Plug (up = 1) or pull (up = 0) the cable of the device's Ethernet port. The operational
 * state follows (PAOS, QUERY_VPORT_STATE, a PORT_CHANGE event) once the engine has seen it.
 * @return 0, -EINVAL, or -ENOTSUP (plugging a wire=none port).
 */
__rte_internal
int mlx5v_sim_link_set(struct mlx5v_sim *sim, int up);

/** Pull the cable and plug it back (both ends see down, then up). @return 0 or -errno. */
__rte_internal
int mlx5v_sim_link_flap(struct mlx5v_sim *sim);

/** @return 1 if the port is operationally up (PAOS admin up and the wire up), else 0. */
__rte_internal
int mlx5v_sim_link_get(struct mlx5v_sim *sim);

/* ---- The model as a PCI function of a host emulation (vfio_emulation.rst) ---- */

/** One 4 KiB page of BAR0 as a host maps it. */
struct mlx5v_sim_bar_page {
	uint64_t bar_off;         /**< offset in BAR0 */
	int fd;                   /**< memfd with the page at offset 0; the model owns it */
};

/** BAR0 of the model, as ConnectX-5's: 32 MiB; pages not exported read as a hole. */
#define MLX5V_SIM_BAR0_SIZE (32u << 20)
/** Pages mlx5v_sim_bar_export() fills at most. */
#define MLX5V_SIM_BAR_PAGES 64

/**
 * Export BAR0 as memory: the init segment (pages 0-2, published by the engine: a load reads
 * the register as the last engine pass left it, a store to the queue address or the
 * command doorbell is taken by the next pass) and the UAR pages. Needs host_page=4096.
 * @return the pages filled (<= n), -EINVAL or -ENOTSUP.
 */
__rte_internal
int mlx5v_sim_bar_export(struct mlx5v_sim *sim, struct mlx5v_sim_bar_page *pages,
			 unsigned int n);

/**
 * Wait until the engine has taken every store made to the exported BAR pages before the
 * call: a trapped store is then one doorbell or register write, never merged with the next
 * store to the same word. Async-signal-safe (atomic loads, an eventfd write, sched_yield).
 * @return 0, or -ETIMEDOUT (the engine is held).
 */
__rte_internal
int mlx5v_sim_bar_sync(struct mlx5v_sim *sim);

/**
 * VFIO_IOMMU_MAP_DMA into the model's IOMMU: device DMA at [iova, iova + len) reaches va.
 * @return 0, -ENOSPC (fail_dma_map knob: the IOMMU is full), -EEXIST, -EINVAL, -ENOMEM.
 */
__rte_internal
int mlx5v_sim_iommu_map(struct mlx5v_sim *sim, uint64_t iova, void *va, size_t len);

/** VFIO_IOMMU_UNMAP_DMA. @return 0 or -ENOENT/-EINVAL as hwsim_dma_unmap(). */
__rte_internal
int mlx5v_sim_iommu_unmap(struct mlx5v_sim *sim, uint64_t iova, size_t len);

/** The IOMMU window that holds iova (hwsim_dma_window()). @return 0 or -ENOENT. */
__rte_internal
int mlx5v_sim_iommu_window(struct mlx5v_sim *sim, uint64_t iova, uint64_t *first, size_t *len,
			   void **va);

struct hwsim_wire_port;

/** @return the wire port of the device ("<device>.1"), e.g. for its counters and knobs. */
__rte_internal
struct hwsim_wire_port *mlx5v_sim_wire_port(struct mlx5v_sim *sim);

#endif /* _MLX5V_SIM_H_ */
