/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The send path of the Ethernet function: SQ doorbells, WQE parsing (control,
 * Ethernet, data and inline segments), enhanced multi-packet WQEs, MKEY checks on every
 * gather, checksums, LSO, send CQEs and the SQ error state (doc/guides/prm/mlx5_empw.rst;
 * doc/guides/prm/mlx5_eth.rst §6, §8.4).
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_net.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "hwsim_csum.h"
#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_eth_dp.h"
#include "mlx5v_sim_priv.h"

/* Data path counters: some are bumped outside sim->lock (after the wire send). */
#define DP_ADD(sim, f, n) __atomic_fetch_add(&(sim)->dp->st.f, (n), __ATOMIC_RELAXED)

/* Gathers stop at 4 KiB edges: an MTT key translates one page at a time (prm/mlx5_eth §4.2). */
#define MLX5V_SIM_GATHER_CHUNK 4096u

/* Checksums a job computes: the Ethernet segment's l3_csum and l4_csum (prm/mlx5_eth §6.3). */
#define MLX5V_SIM_CS_L3 0x1
#define MLX5V_SIM_CS_L4 0x2


/* Packets of one multi-packet WQE: one DS each after control and Ethernet segment. */
#define MLX5V_SIM_MPW_MAX_PKTS (MLX5V_WQE_MAX_DS - 2)

/** What one WQE asks the wire for, decided under the lock and acted on after it. */
struct mlx5v_sim_tx_job {
	uint32_t len;           /**< bytes gathered into dp->txbuf, 0 for none */
	uint32_t nfr;           /**< multi-packet WQE: frames in dp->txbuf, back to back */
	uint32_t fr_len[MLX5V_SIM_MPW_MAX_PKTS];
	uint8_t opcode;
	uint8_t cs_flags;       /**< MLX5V_SIM_CS_* */
	uint16_t mss;
	uint32_t hdr_len;       /**< LSO: L2-L4 header bytes */
	int vlan;               /**< insert vlan_tci */
	uint16_t vlan_tci;
};

/** A WQE that failed: syndrome and the model's vendor syndrome (mlx5v_sim.rst). */
struct mlx5v_sim_tx_err {
	uint8_t synd;
	uint8_t vsynd;
};

/*
 * The fewest header bytes a send WQE must inline (prm/mlx5_eth §6.4). Vport modes: none, L2, IP,
 * TCP/UDP, reserved (taken as TCP/UDP), then the inner L2, IP and TCP/UDP headers of a
 * tunnel after 74 outer bytes (tagged L2, IPv6, UDP, VXLAN): 92, 132, 152.
 */
static uint32_t
mlx5v_sim_tx_min_inline(struct mlx5v_sim *sim, const struct mlx5v_sim_eth_sq *sq)
{
	static const uint32_t vport_mode[8] = { 0, 18, 58, 78, 78, 92, 132, 152 };

	switch (mlx5v_sim_knob(sim, MLX5V_SIM_K_WQE_INLINE_MODE)) {
	case 0:
		return MLX5V_WQE_L2_INLINE;
	case 1:
		return vport_mode[sq->min_wqe_inline_mode & 7];
	default:
		return 0;
	}
}

/* Read DS first .. first + n - 1 of the WQE at WQEBB index wqe_idx, wrapping the ring. */
static int
mlx5v_sim_tx_read_ds(struct mlx5v_sim *sim, const struct mlx5v_sim_eth_sq *sq,
		     uint32_t wqe_idx, uint32_t first, uint32_t n, uint8_t *out)
{
	uint64_t ring = (uint64_t)MLX5V_WQE_BB << sq->wq.log_sz;
	uint64_t off = ((uint64_t)(wqe_idx & ((1u << sq->wq.log_sz) - 1)) * MLX5V_WQE_BB +
			(uint64_t)first * MLX5V_WQE_DS) % ring;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (hwsim_dma_read(sim->dma, mlx5v_sim_eth_wq_iova(&sq->wq, off),
				   out + i * MLX5V_WQE_DS, MLX5V_WQE_DS) != 0)
			return -EFAULT;
		off = (off + MLX5V_WQE_DS) % ring;
	}
	return 0;
}

/*
 * Copy [addr, addr + len) of key lkey into dst: every chunk checked against the key, the
 * reserved lkey only on an SQ created with rlky (prm/mlx5_eth §4.2).
 */
static int
mlx5v_sim_tx_gather(struct mlx5v_sim *sim, const struct mlx5v_sim_eth_sq *sq, uint32_t lkey,
		    uint64_t addr, uint32_t len, uint8_t *dst, struct mlx5v_sim_tx_err *err)
{
	const unsigned int access = MLX5V_SIM_ETH_ACC_READ |
				    (sq->rlky ? MLX5V_SIM_ETH_ACC_RLKY : 0);
	uint32_t chunk;
	void *src;

	while (len > 0) {
		chunk = RTE_MIN(len, MLX5V_SIM_GATHER_CHUNK -
				(uint32_t)(addr & (MLX5V_SIM_GATHER_CHUNK - 1)));
		src = mlx5v_sim_eth_mkey_ptr(sim, sq->wq.pd, lkey, addr, chunk, access);
		if (src == NULL) {
			/*
			 * prm/mlx5_eth §8.4: every key failure is LOCAL_PROT_ERR; the vendor byte
			 * says which.
			 */
			err->synd = MLX5V_CQE_SYND_LOCAL_PROT;
			err->vsynd = mlx5v_sim_eth_key_vsynd(rte_errno);
			return -1;
		}
		memcpy(dst, src, chunk);
		dst += chunk;
		addr += chunk;
		len -= chunk;
	}
	return 0;
}

/* DS of the inline data segment at DS d (prm/mlx5_eth §6.5), its length in *len; 0 if past ds. */
static uint32_t
mlx5v_sim_tx_inline_ds(const uint8_t *seg, uint32_t d, uint32_t ds, uint32_t *len)
{
	uint32_t nds;

	*len = MLX5V_GET(wqe_inline_seg, seg, byte_count);
	nds = (MLX5V_IFC_BYTES(wqe_inline_seg) + *len + MLX5V_WQE_DS - 1) / MLX5V_WQE_DS;
	return d + nds > ds ? 0 : nds;
}

/* Parse the frame's headers with DPDK's parser, through an mbuf that borrows the bytes. */
static uint32_t
mlx5v_sim_tx_ptype(uint8_t *f, uint32_t len, struct rte_net_hdr_lens *hl)
{
	struct rte_mbuf m;

	memset(&m, 0, sizeof(m));
	m.buf_addr = f;
	m.buf_len = RTE_MIN(len, (uint32_t)UINT16_MAX);
	m.data_len = m.buf_len;
	m.pkt_len = m.buf_len;
	m.nb_segs = 1;
	return rte_net_get_ptype(&m, hl, RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK |
				 RTE_PTYPE_L4_MASK);
}

/*
 * The gather of one SEND or LSO WQE (prm/mlx5_eth §6.3-§6.5): Ethernet segment and inline header,
 * then data and inline data segments up to the DS count. @return 0, or -1 with err set.
 */
static int
mlx5v_sim_tx_build(struct mlx5v_sim *sim, const struct mlx5v_sim_eth_sq *sq,
		   const uint8_t *wqe, uint32_t ds, struct mlx5v_sim_tx_job *job,
		   struct mlx5v_sim_tx_err *err)
{
	uint32_t max = job->opcode == MLX5V_WQE_OPC_LSO ? MLX5V_SIM_TX_BUF :
		       HWSIM_WIRE_FRAME_MAX;
	const uint8_t *eseg = wqe + MLX5V_IFC_BYTES(wqe_ctrl_seg);
	uint8_t *buf = sim->dp->txbuf;
	uint32_t n_inl = 0;
	uint32_t d, len, nds;
	struct rte_net_hdr_lens hl;
	uint64_t addr;
	uint32_t lkey;
	uint32_t ptype;

	err->synd = MLX5V_CQE_SYND_LOCAL_QP_OP;
	err->vsynd = MLX5V_SIM_VSYND_WQE_DS;
	if (ds < 2)
		return -1;
	job->cs_flags = (MLX5V_GET(wqe_eth_seg, eseg, l3_csum) ? MLX5V_SIM_CS_L3 : 0) |
			(MLX5V_GET(wqe_eth_seg, eseg, l4_csum) ? MLX5V_SIM_CS_L4 : 0);
	job->mss = MLX5V_GET(wqe_eth_seg, eseg, mss);
	job->len = 0;
	job->vlan = MLX5V_GET(wqe_eth_seg_vlan, eseg, insert_vlan);
	job->vlan_tci = MLX5V_GET(wqe_eth_seg_vlan, eseg, vlan_tci);
	d = 2;
	if (!job->vlan) {
		/* inline_hdr_sz, then its bytes from inline_hdr_start on, padded to whole DS. */
		n_inl = MLX5V_GET(wqe_eth_seg, eseg, inline_hdr_sz);
		nds = n_inl > 2 ? (n_inl - 2 + MLX5V_WQE_DS - 1) / MLX5V_WQE_DS : 0;
		if (d + nds > ds)
			return -1;
		memcpy(buf, MLX5V_IFC_ADDR_OF(wqe_eth_seg, eseg, inline_hdr_start), n_inl);
		job->len = n_inl;
		d += nds;
	}
	while (d < ds) {
		const uint8_t *seg = wqe + d * MLX5V_WQE_DS;

		if (MLX5V_GET(wqe_inline_seg, seg, is_inline)) {
			nds = mlx5v_sim_tx_inline_ds(seg, d, ds, &len);
			if (nds == 0)
				return -1;
			if (job->len + len > max)
				goto too_long;
			memcpy(buf + job->len, MLX5V_IFC_ADDR_OF(wqe_inline_seg, seg, data), len);
			d += nds;
		} else {
			len = MLX5V_GET(wqe_data_seg, seg, byte_count);
			d++;
			if (len == 0)
				continue;
			if (job->len + len > max)
				goto too_long;
			lkey = MLX5V_GET(wqe_data_seg, seg, lkey);
			addr = MLX5V_IFC_GET64(wqe_data_seg, seg, addr);
			if (mlx5v_sim_tx_gather(sim, sq, lkey, addr, len, buf + job->len,
						err) != 0)
				return -1;
		}
		job->len += len;
	}
	if (job->len < HWSIM_WIRE_FRAME_MIN) {
		err->vsynd = MLX5V_SIM_VSYND_LENGTH;
		return -1;
	}
	/*
	 * prm/mlx5_eth §6.4: the minimum inline header, or the whole frame when it is shorter. A
	 * VLAN insertion request takes the inline header's bytes (prm/mlx5_eth §6.3), so it is no
	 * exemption: with an inline mode that requires bytes, silicon refuses it as too little
	 * inline data.
	 */
	if (n_inl < RTE_MIN(mlx5v_sim_tx_min_inline(sim, sq), job->len)) {
		err->vsynd = MLX5V_SIM_VSYND_INLINE;
		return -1;
	}
	if (job->opcode == MLX5V_WQE_OPC_LSO) {
		/*
		 * prm/mlx5_eth §6.5 LSO: TCP only, the whole L2-L4 header inlined, segments of mss
		 * bytes.
		 */
		ptype = mlx5v_sim_tx_ptype(buf, job->len, &hl);
		job->hdr_len = (uint32_t)hl.l2_len + hl.l3_len + hl.l4_len;
		if ((ptype & RTE_PTYPE_L4_MASK) != RTE_PTYPE_L4_TCP || job->mss == 0 ||
		    n_inl < job->hdr_len ||
		    job->hdr_len + job->mss > HWSIM_WIRE_FRAME_MAX) {
			err->vsynd = MLX5V_SIM_VSYND_LSO;
			return -1;
		}
	} else if (job->len + (job->vlan ? RTE_VLAN_HLEN : 0) > HWSIM_WIRE_FRAME_MAX) {
		goto too_long;
	}
	return 0;
too_long:
	err->synd = MLX5V_CQE_SYND_LOCAL_LENGTH;
	err->vsynd = MLX5V_SIM_VSYND_LENGTH;
	return -1;
}

/*
 * The packets of an enhanced multi-packet WQE (prm/mlx5_empw §3): the Ethernet segment's
 * checksum flags apply to each; every DS after it is one packet, a data segment (only when
 * the device requires no inline header, prm/mlx5_eth §6.4) or an inline data segment.
 * Gathered into dp->txbuf from DS sq->mpw_d on while they fit. @return 1 when the WQE is
 * done, 0 when packets remain for the next call, -1 with err set.
 */
static int
mlx5v_sim_tx_mpw(struct mlx5v_sim *sim, struct mlx5v_sim_eth_sq *sq, const uint8_t *wqe,
		 uint32_t ds, struct mlx5v_sim_tx_job *job, struct mlx5v_sim_tx_err *err)
{
	const uint8_t *eseg = wqe + MLX5V_IFC_BYTES(wqe_ctrl_seg);
	uint32_t min_inl = mlx5v_sim_tx_min_inline(sim, sq);
	uint8_t *buf = sim->dp->txbuf;
	uint32_t d = sq->mpw_d != 0 ? sq->mpw_d : 2;
	uint32_t len, nds;
	const uint8_t *seg;

	err->synd = MLX5V_CQE_SYND_LOCAL_QP_OP;
	err->vsynd = MLX5V_SIM_VSYND_WQE_DS;
	sq->mpw_d = 0;
	if (ds < 3)
		return -1;
	if (MLX5V_GET(wqe_eth_seg_vlan, eseg, insert_vlan) ||
	    MLX5V_GET(wqe_eth_seg, eseg, mss) != 0 ||
	    MLX5V_GET(wqe_eth_seg, eseg, inline_hdr_sz) != 0) {
		err->vsynd = MLX5V_SIM_VSYND_MPW;
		return -1;
	}
	job->cs_flags = (MLX5V_GET(wqe_eth_seg, eseg, l3_csum) ? MLX5V_SIM_CS_L3 : 0) |
			(MLX5V_GET(wqe_eth_seg, eseg, l4_csum) ? MLX5V_SIM_CS_L4 : 0);
	job->mss = 0;
	job->vlan = 0;
	job->len = 0;
	job->nfr = 0;
	while (d < ds) {
		seg = wqe + d * MLX5V_WQE_DS;
		if (MLX5V_GET(wqe_inline_seg, seg, is_inline)) {
			nds = mlx5v_sim_tx_inline_ds(seg, d, ds, &len);
			if (nds == 0)
				return -1;
		} else {
			len = MLX5V_GET(wqe_data_seg, seg, byte_count);
			nds = 1;
			/* prm/mlx5_eth §6.4: a packet by pointer carries no inline header. */
			if (min_inl != 0) {
				err->vsynd = MLX5V_SIM_VSYND_INLINE;
				return -1;
			}
		}
		if (len < HWSIM_WIRE_FRAME_MIN || len > HWSIM_WIRE_FRAME_MAX) {
			err->synd = MLX5V_CQE_SYND_LOCAL_LENGTH;
			err->vsynd = MLX5V_SIM_VSYND_LENGTH;
			return -1;
		}
		/* The rest goes out on the next call; the CQE waits for the last packet. */
		if (job->len + len > MLX5V_SIM_TX_BUF)
			break;
		if (MLX5V_GET(wqe_inline_seg, seg, is_inline))
			memcpy(buf + job->len, MLX5V_IFC_ADDR_OF(wqe_inline_seg, seg, data), len);
		else if (mlx5v_sim_tx_gather(sim, sq, MLX5V_GET(wqe_data_seg, seg, lkey),
					     MLX5V_IFC_GET64(wqe_data_seg, seg, addr), len,
					     buf + job->len, err) != 0)
			return -1;
		job->fr_len[job->nfr++] = len;
		job->len += len;
		d += nds;
	}
	err->vsynd = MLX5V_SIM_VSYND_NONE;
	if (d < ds) {
		sq->mpw_d = d;
		return 0;
	}
	return 1;
}

/* A send CQE (prm/mlx5_eth §6.7, §8.2) or a send error CQE (prm/mlx5_eth §8.4). Lock held. */
static void
mlx5v_sim_tx_cqe(struct mlx5v_sim *sim, uint32_t sqn, const struct mlx5v_sim_eth_sq *sq,
		 uint16_t wqe_idx, uint8_t opcode, const struct mlx5v_sim_tx_err *err)
{
	uint8_t cqe[MLX5V_IFC_BYTES(cqe_eth)];

	memset(cqe, 0, sizeof(cqe));
	if (err != NULL) {
		MLX5V_SET(cqe_err, cqe, user_index, sq->user_index);
		MLX5V_SET(cqe_err, cqe, s_wqe_opcode, opcode);
		MLX5V_SET(cqe_err, cqe, qpn, sqn);
		MLX5V_SET(cqe_err, cqe, wqe_counter, wqe_idx);
		MLX5V_SET(cqe_err, cqe, syndrome, err->synd);
		MLX5V_SET(cqe_err, cqe, vendor_err_synd, err->vsynd);
		MLX5V_SET(cqe_err, cqe, opcode, MLX5V_CQE_OPCODE_REQ_ERR);
		DP_ADD(sim, tx_err_cqes, 1);
	} else {
		MLX5V_SET(cqe_eth, cqe, user_index, sq->user_index);
		MLX5V_SET(cqe_eth, cqe, sop, opcode);
		MLX5V_SET(cqe_eth, cqe, qpn, sqn);
		MLX5V_SET(cqe_eth, cqe, wqe_counter, wqe_idx);
		MLX5V_SET(cqe_eth, cqe, opcode, MLX5V_CQE_OPCODE_REQ);
		DP_ADD(sim, tx_cqes, 1);
	}
	mlx5v_sim_cq_post_raw_locked(sim, sq->cqn, cqe);
}

/*
 * An SQ in ERR with flush_in_error_en completes every posted WQE with WR_FLUSH_ERR
 * (prm/mlx5_eth §8.4, §14), so a driver can wait for cc == pc before recovering. Lock held.
 */
static void
mlx5v_sim_tx_flush(struct mlx5v_sim *sim, uint32_t sqn, struct mlx5v_sim_eth_sq *sq,
		   uint16_t pc)
{
	static const struct mlx5v_sim_tx_err flush = { MLX5V_CQE_SYND_WR_FLUSH, 0 };
	uint8_t ctrl[MLX5V_IFC_BYTES(wqe_ctrl_seg)];
	uint32_t ds;

	while ((uint16_t)sq->hw_counter != pc) {
		if (mlx5v_sim_tx_read_ds(sim, sq, sq->hw_counter, 0, 1, ctrl) != 0)
			return;
		ds = MLX5V_GET(wqe_ctrl_seg, ctrl, ds);
		mlx5v_sim_tx_cqe(sim, sqn, sq, sq->hw_counter,
				 MLX5V_GET(wqe_ctrl_seg, ctrl, opcode), &flush);
		sq->hw_counter = (sq->hw_counter + RTE_MAX(1u, (ds + 3) / 4)) & 0xffff;
	}
}

/*
 * Take the next WQE of the SQ, under the lock. @return 1 if one was taken (job->len > 0 if
 * a frame waits in dp->txbuf), 0 when the SQ has nothing more to send.
 */
static int
mlx5v_sim_tx_next(struct mlx5v_sim *sim, uint32_t sqn, uint32_t uar,
		  struct mlx5v_sim_tx_job *job)
{
	uint8_t wqe[MLX5V_WQE_MAX_DS * MLX5V_WQE_DS];
	struct mlx5v_sim_eth_sq *sq = mlx5v_sim_eth_sq_get(sim, sqn);
	struct mlx5v_sim_tx_err err;
	uint32_t dbr = 0;
	uint32_t ds;
	uint16_t pc, idx;
	int done;

	job->len = 0;
	job->nfr = 0;
	if (sq == NULL || sq->wq.uar != uar) {
		SIM_LOG(WARNING, "%s: SQ doorbell for SQ 0x%x on UAR %u: %s (driver bug)",
			sim->name, sqn, uar, sq == NULL ? "no such SQ" : "not the SQ's uar_page");
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		return 0;
	}
	/* prm/mlx5_eth §6.6: the producer counter is dword 1 of the record, 16 bits significant. */
	if (hwsim_dma_read(sim->dma, sq->wq.dbr_addr + 4, &dbr, sizeof(dbr)) != 0)
		return 0;
	pc = rte_be_to_cpu_32(dbr) & 0xffff;
	if (sq->state == MLX5V_SIM_ETH_Q_ERR && sq->flush_in_error_en)
		mlx5v_sim_tx_flush(sim, sqn, sq, pc);
	/* A queue in RST or ERR sends nothing (prm/mlx5_eth §5.2). */
	if (sq->state != MLX5V_SIM_ETH_Q_RDY || (uint16_t)sq->hw_counter == pc)
		return 0;
	if ((uint16_t)(pc - sq->hw_counter) > (1u << sq->wq.log_sz)) {
		SIM_LOG(WARNING, "%s: SQ 0x%x record %u is more than a ring ahead of %u "
			"(driver bug)", sim->name, sqn, pc, sq->hw_counter);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		return 0;
	}
	idx = sq->hw_counter;
	if (mlx5v_sim_tx_read_ds(sim, sq, idx, 0, 1, wqe) != 0)
		return 0;
	/* prm/mlx5_eth §6.2: the control segment. */
	ds = MLX5V_GET(wqe_ctrl_seg, wqe, ds);
	job->opcode = MLX5V_GET(wqe_ctrl_seg, wqe, opcode);
	err.synd = MLX5V_CQE_SYND_LOCAL_QP_OP;
	if (MLX5V_GET(wqe_ctrl_seg, wqe, wqe_index) != idx)
		err.vsynd = MLX5V_SIM_VSYND_WQE_INDEX;
	else if (MLX5V_GET(wqe_ctrl_seg, wqe, sqn) != sqn)
		err.vsynd = MLX5V_SIM_VSYND_WQE_SQN;
	else if (ds == 0)
		err.vsynd = MLX5V_SIM_VSYND_WQE_DS;
	/* prm/mlx5_eth §6.1: no send WQE larger than the cap max_wqe_sz_sq. */
	else if (ds * MLX5V_WQE_DS > mlx5v_sim_knob(sim, MLX5V_SIM_K_MAX_WQE_SZ_SQ))
		err.vsynd = MLX5V_SIM_VSYND_WQE_SIZE;
	else if (job->opcode != MLX5V_WQE_OPC_NOP && job->opcode != MLX5V_WQE_OPC_SEND &&
		 job->opcode != MLX5V_WQE_OPC_LSO && job->opcode != MLX5V_WQE_OPC_EMPW)
		err.vsynd = MLX5V_SIM_VSYND_WQE_OPCODE;
	/* prm/mlx5_empw §3.1: opmod 0, on an SQ created to allow it. */
	else if (job->opcode == MLX5V_WQE_OPC_EMPW &&
		 (!sq->allow_mpw || MLX5V_GET(wqe_ctrl_seg, wqe, opmod) != 0))
		err.vsynd = MLX5V_SIM_VSYND_WQE_OPCODE;
	else
		err.vsynd = MLX5V_SIM_VSYND_NONE;
	done = 1;
	if (err.vsynd == MLX5V_SIM_VSYND_NONE && job->opcode != MLX5V_WQE_OPC_NOP) {
		if (sq->mpw_d == 0 && hwsim_knob_take(sim->knobs, MLX5V_SIM_K_TX_ERR_NEXT))
			err.vsynd = MLX5V_SIM_VSYND_KNOB;
		else if (mlx5v_sim_tx_read_ds(sim, sq, idx, 1, ds - 1,
					      wqe + MLX5V_WQE_DS) != 0)
			job->len = 0;
		else if (job->opcode == MLX5V_WQE_OPC_EMPW)
			done = mlx5v_sim_tx_mpw(sim, sq, wqe, ds, job, &err);
		else if (mlx5v_sim_tx_build(sim, sq, wqe, ds, job, &err) != 0)
			job->len = 0;
		else
			err.vsynd = MLX5V_SIM_VSYND_NONE;
		if (err.vsynd == MLX5V_SIM_VSYND_NONE && job->len == 0)
			err.vsynd = MLX5V_SIM_VSYND_LENGTH;
	}
	/* A multi-packet WQE with packets left stays the current one. */
	if (err.vsynd == MLX5V_SIM_VSYND_NONE && done == 0)
		return 1;
	sq->mpw_d = 0;
	sq->hw_counter = (idx + RTE_MAX(1u, (ds + 3) / 4)) & 0xffff;
	if (err.vsynd != MLX5V_SIM_VSYND_NONE) {
		/* prm/mlx5_eth §6.7: an error CQE whatever the WQE asked; the SQ to ERR. */
		SIM_LOG(DEBUG, "%s: SQ 0x%x WQE %u: error CQE 0x%x/0x%x", sim->name, sqn, idx,
			err.synd, err.vsynd);
		job->len = 0;
		job->nfr = 0;
		sq->state = MLX5V_SIM_ETH_Q_ERR;
		mlx5v_sim_tx_cqe(sim, sqn, sq, idx, job->opcode, &err);
		return 1;
	}
	/* prm/mlx5_eth §6.2: a CQE per the WQE's completion mode; 2 and 3 both ask for one. */
	if (MLX5V_GET(wqe_ctrl_seg, wqe, ce) >= MLX5V_WQE_CE_ALWAYS)
		mlx5v_sim_tx_cqe(sim, sqn, sq, idx, job->opcode, NULL);
	return 1;
}

/*
 * L3/L4 checksums the Ethernet segment asked for (prm/mlx5_eth §6.3), on the headers DPDK's parser
 * finds.
 */
static void
mlx5v_sim_tx_csum(uint8_t *f, uint32_t len, uint8_t cs_flags)
{
	struct hwsim_csum_hdrs h = { 0 };
	struct rte_net_hdr_lens hl;
	uint32_t ptype;

	if ((cs_flags & (MLX5V_SIM_CS_L3 | MLX5V_SIM_CS_L4)) == 0)
		return;
	ptype = mlx5v_sim_tx_ptype(f, len, &hl);
	h.l3 = hl.l2_len;
	h.l4 = hl.l2_len + hl.l3_len;
	h.ip_version = RTE_ETH_IS_IPV4_HDR(ptype) ? 4 : RTE_ETH_IS_IPV6_HDR(ptype) ? 6 : 0;
	if ((ptype & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_TCP)
		h.l4_proto = IPPROTO_TCP;
	else if ((ptype & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_UDP)
		h.l4_proto = IPPROTO_UDP;
	hwsim_csum_fill(f, &h, ((cs_flags & MLX5V_SIM_CS_L3) ? HWSIM_CSUM_L3 : 0) |
			((cs_flags & MLX5V_SIM_CS_L4) ? HWSIM_CSUM_L4 : 0));
}

/* One frame out: VLAN insertion, checksums, then the wire. tx_lock held, sim->lock not. */
static void
mlx5v_sim_tx_wire(struct mlx5v_sim *sim, uint8_t *f, uint32_t len,
		  const struct mlx5v_sim_tx_job *job)
{
	struct mlx5v_sim_eth_dp *dp = sim->dp;
	uint8_t *out = f;
	uint16_t tag[2];
	int ret;

	if (job->vlan) {
		/* prm/mlx5_eth §6.3: the C-VLAN tag goes after the MAC addresses. */
		out = f == dp->segbuf ? f : dp->segbuf;
		memmove(out + 2 * RTE_ETHER_ADDR_LEN + RTE_VLAN_HLEN, f + 2 * RTE_ETHER_ADDR_LEN,
			len - 2 * RTE_ETHER_ADDR_LEN);
		if (out != f)
			memcpy(out, f, 2 * RTE_ETHER_ADDR_LEN);
		tag[0] = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		tag[1] = rte_cpu_to_be_16(job->vlan_tci);
		memcpy(out + 2 * RTE_ETHER_ADDR_LEN, tag, sizeof(tag));
		len += RTE_VLAN_HLEN;
	}
	mlx5v_sim_tx_csum(out, len, job->cs_flags);
	ret = hwsim_wire_send(dp->port, out, len);
	if (ret == -ENOLINK) {
		DP_ADD(sim, tx_link_down, 1);
		return;
	}
	DP_ADD(sim, tx_frames, 1);
	DP_ADD(sim, tx_bytes, len);
}

/*
 * LSO (prm/mlx5_eth §6.5): the payload after hdr_len bytes goes out in mss-byte segments, each with
 * the headers, IPv4 length and ID, IPv6 payload length and TCP sequence number adjusted, FIN and
 * PSH kept for the last segment only, and both checksums computed.
 */
static void
mlx5v_sim_tx_lso(struct mlx5v_sim *sim, const struct mlx5v_sim_tx_job *job)
{
	struct mlx5v_sim_tx_job seg_job = *job;
	uint8_t *src = sim->dp->txbuf;
	uint8_t *seg = sim->dp->segbuf;
	uint32_t payload = job->len - job->hdr_len;
	struct rte_net_hdr_lens hl;
	struct rte_ipv4_hdr *ip4;
	struct rte_ipv6_hdr *ip6;
	struct rte_tcp_hdr *tcp;
	uint32_t off, n, ptype, seq;
	uint16_t id;
	uint8_t flags;

	ptype = mlx5v_sim_tx_ptype(src, job->len, &hl);
	tcp = (struct rte_tcp_hdr *)(src + hl.l2_len + hl.l3_len);
	seq = rte_be_to_cpu_32(tcp->sent_seq);
	flags = tcp->tcp_flags;
	ip4 = (struct rte_ipv4_hdr *)(src + hl.l2_len);
	id = RTE_ETH_IS_IPV4_HDR(ptype) ? rte_be_to_cpu_16(ip4->packet_id) : 0;
	seg_job.cs_flags = MLX5V_SIM_CS_L3 | MLX5V_SIM_CS_L4;
	for (off = 0; off < payload || off == 0; off += n) {
		n = RTE_MIN((uint32_t)job->mss, payload - off);
		memcpy(seg, src, job->hdr_len);
		memcpy(seg + job->hdr_len, src + job->hdr_len + off, n);
		if (RTE_ETH_IS_IPV4_HDR(ptype)) {
			ip4 = (struct rte_ipv4_hdr *)(seg + hl.l2_len);
			ip4->total_length = rte_cpu_to_be_16(hl.l3_len + hl.l4_len + n);
			ip4->packet_id = rte_cpu_to_be_16(id++);
		} else {
			ip6 = (struct rte_ipv6_hdr *)(seg + hl.l2_len);
			ip6->payload_len = rte_cpu_to_be_16(hl.l3_len - sizeof(*ip6) +
							    hl.l4_len + n);
		}
		tcp = (struct rte_tcp_hdr *)(seg + hl.l2_len + hl.l3_len);
		tcp->sent_seq = rte_cpu_to_be_32(seq + off);
		tcp->tcp_flags = off + n < payload ?
				 flags & ~(RTE_TCP_FIN_FLAG | RTE_TCP_PSH_FLAG) : flags;
		mlx5v_sim_tx_wire(sim, seg, job->hdr_len + n, &seg_job);
		if (n == 0)
			break;
	}
}

void
mlx5v_sim_eth_sq_doorbell(struct mlx5v_sim *sim, uint32_t uar, uint64_t raw)
{
	/* prm/mlx5_eth §6.6: the first 8 bytes of the last WQE's control segment, as in memory. */
	uint32_t sqn = (uint32_t)rte_be_to_cpu_64(raw) >> 8;
	struct mlx5v_sim_eth_dp *dp = sim->dp;
	struct mlx5v_sim_tx_job job;
	uint32_t i, off;
	int more;

	if (dp == NULL)
		return;
	pthread_mutex_lock(&dp->tx_lock);
	/*
	 * One doorbell's frames reach the receiver as one burst: a receiving CQ with
	 * compression writes their completions as a session when it ends (prm/mlx5_eth §8.5).
	 */
	hwsim_wire_batch(dp->port, 1);
	do {
		pthread_mutex_lock(&sim->lock);
		more = mlx5v_sim_tx_next(sim, sqn, uar, &job);
		pthread_mutex_unlock(&sim->lock);
		/* The wire runs the receiver's callback: never with our model lock held. */
		if (job.len == 0)
			continue;
		if (job.opcode == MLX5V_WQE_OPC_LSO)
			mlx5v_sim_tx_lso(sim, &job);
		else if (job.nfr != 0)
			for (i = 0, off = 0; i < job.nfr; off += job.fr_len[i++])
				mlx5v_sim_tx_wire(sim, dp->txbuf + off, job.fr_len[i], &job);
		else
			mlx5v_sim_tx_wire(sim, dp->txbuf, job.len, &job);
	} while (more);
	hwsim_wire_batch(dp->port, 0);
	pthread_mutex_unlock(&dp->tx_lock);
	mlx5v_sim_irq_flush(sim);
}
