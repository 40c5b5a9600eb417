/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The data path of the Ethernet function: send (mlx5v_sim_eth_tx.c), receive
 * (mlx5v_sim_eth_rx.c) and the wire and link (mlx5v_sim_eth_link.c).
 *
 * Locking: sim->lock protects the model as everywhere; dp->tx_lock serialises the send
 * engine of the port (the wire allows one sender per port) and is always taken before
 * sim->lock, never while holding it. Frames go on the wire with sim->lock released, because
 * the receiver (this same device on a loop) takes its own sim->lock in the rx callback.
 */

#ifndef _MLX5V_SIM_ETH_DP_H_
#define _MLX5V_SIM_ETH_DP_H_

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>

#include "hwsim_wire.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlx5v_sim.h"

struct mlx5v_sim;
struct mlx5v_sim_eth_rq;

/* Send WQEs and Ethernet CQEs are the layouts of mlx5v_prm_eth.h (prm/mlx5_eth §6, §8). */
#define MLX5V_SIM_TX_BUF (1u << 18)          /**< largest LSO WQE gathered (256 KiB) */

/* The model's vendor syndromes (byte 0x36 of an error CQE, mlx5v_sim.rst). */
enum mlx5v_sim_vsynd {
	MLX5V_SIM_VSYND_NONE = 0x00,
	MLX5V_SIM_VSYND_LKEY = 0x01,         /**< unknown lkey or lkey of another PD */
	MLX5V_SIM_VSYND_RANGE = 0x02,        /**< address outside the key */
	MLX5V_SIM_VSYND_ACCESS = 0x03,       /**< key without the access */
	MLX5V_SIM_VSYND_UNMAPPED = 0x04,     /**< bytes not DMA mapped (IOMMU fault) */
	MLX5V_SIM_VSYND_RLKY = 0x05,         /**< reserved lkey on a queue without rlky */
	MLX5V_SIM_VSYND_WQE_INDEX = 0x10,    /**< control WQE index != the device's counter */
	MLX5V_SIM_VSYND_WQE_SQN = 0x11,      /**< control SQN != the ringing SQ */
	MLX5V_SIM_VSYND_WQE_DS = 0x12,       /**< DS count 0, or segments beyond it */
	MLX5V_SIM_VSYND_WQE_OPCODE = 0x13,   /**< opcode not NOP/SEND/LSO */
	MLX5V_SIM_VSYND_INLINE = 0x14,       /**< fewer inline bytes than the minimum */
	MLX5V_SIM_VSYND_LENGTH = 0x15,       /**< frame too short or too long */
	MLX5V_SIM_VSYND_KNOB = 0x16,         /**< tx_err_next knob */
	MLX5V_SIM_VSYND_LSO = 0x17,          /**< LSO without mss or L4 header */
	MLX5V_SIM_VSYND_MPW = 0x18,          /**< multi-packet WQE with inline header, VLAN, mss */
	MLX5V_SIM_VSYND_WQE_SIZE = 0x19,     /**< WQE larger than max_wqe_sz_sq */
	MLX5V_SIM_VSYND_RX_LENGTH = 0x20,    /**< frame longer than the WQE's buffers */
	MLX5V_SIM_VSYND_RX_KNOB = 0x21,      /**< rx_err_next knob (syndrome rx_err_synd) */
};

/* Big-endian fields at any byte address (frames and WQEs are not aligned for us). */
static inline uint16_t
mlx5v_sim_dp_be16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return rte_be_to_cpu_16(v);
}

static inline uint32_t
mlx5v_sim_dp_be32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return rte_be_to_cpu_32(v);
}

/**
 * The vendor syndrome of a failed key translation (mlx5v_sim_eth_mkey_ptr()'s rte_errno);
 * the syndrome itself is always LOCAL_PROT_ERR (prm/mlx5_eth §8.4).
 */
static inline uint8_t
mlx5v_sim_eth_key_vsynd(int err)
{
	return err == EINVAL ? MLX5V_SIM_VSYND_LKEY : err == ERANGE ? MLX5V_SIM_VSYND_RANGE :
	       err == EACCES ? MLX5V_SIM_VSYND_ACCESS : err == EPERM ? MLX5V_SIM_VSYND_RLKY :
	       MLX5V_SIM_VSYND_UNMAPPED;
}

/** Per-port data path state (sim->dp). */
struct mlx5v_sim_eth_dp {
	struct hwsim_wire_port *port;
	struct hwsim_wire_devargs wa;
	pthread_mutex_t tx_lock;
	uint32_t link_dirty;        /**< atomic: the wire link changed, the engine syncs */
	uint32_t link_down_seen;    /**< atomic: it went down meanwhile (a flap) */
	uint8_t wire_admin;         /**< PAOS admin state last given to the wire */
	uint8_t *txbuf;             /**< MLX5V_SIM_TX_BUF: one gathered WQE */
	uint8_t *segbuf;            /**< one frame being sent (LSO segment, VLAN insert) */
	uint8_t *rxbuf;             /**< one received frame being rewritten (VLAN strip, FCS) */
	int rx_batch;               /**< the frame being received came in a burst (sim->lock) */
	struct mlx5v_sim_eth_stats st;
};

/* ---- mlx5v_sim_eth_link.c ---- */
/**
 * Read wire=, mac=, speed= from the devargs string (may be NULL) and plug the port in.
 * @return 0 or -errno with one log line; nothing is left on failure.
 */
int mlx5v_sim_eth_dp_init(struct mlx5v_sim *sim, const char *devargs);
/** Unplug the port and free the data path (engine stopped). NULL-safe. */
void mlx5v_sim_eth_dp_fini(struct mlx5v_sim *sim);
/** Engine pass: follow PAOS admin to the wire, the wire link to the port. @return work. */
int mlx5v_sim_eth_dp_poll(struct mlx5v_sim *sim);
/**
 * Check the wire devargs alone, before the knob parser sees the string: a wire<N>= beyond
 * the function's one port is then "port out of range", not an unknown knob.
 * @return 0 or -EINVAL with one log line.
 */
int mlx5v_sim_eth_dp_check(struct mlx5v_sim *sim, const char *devargs);
/** Operational speed in Mb/s (0 while down), for PTYS (lock held). */
uint32_t mlx5v_sim_eth_dp_speed(struct mlx5v_sim *sim);
/** Knob actions (lock not held). */
void mlx5v_sim_eth_dp_knob(struct mlx5v_sim *sim, unsigned int knob, int64_t v);

/* ---- mlx5v_sim_eth_tx.c ---- */
/** SQ doorbell at UAR uar (8 bytes at +0x800 + k * 0x100; engine or driver thread). */
void mlx5v_sim_eth_sq_doorbell(struct mlx5v_sim *sim, uint32_t uar, uint64_t raw);

/* ---- mlx5v_sim_eth_rx.c ---- */
/** Wire rx callback: arg is the sim. */
void mlx5v_sim_eth_rx(void *arg, const void *frame, uint32_t len, uint32_t flags);
/** Wire batch callback: the sender's burst ended; held CQE sessions are written. */
void mlx5v_sim_eth_rx_batch_end(void *arg);
/**
 * An RQ in ERR with flush_in_error_en completes every WQE posted and not yet completed
 * with a WR_FLUSH_ERR CQE (prm/mlx5_eth §8.4); nothing otherwise. Lock held.
 */
void mlx5v_sim_eth_rq_flush(struct mlx5v_sim *sim, struct mlx5v_sim_eth_rq *rq);

#endif /* _MLX5V_SIM_ETH_DP_H_ */
