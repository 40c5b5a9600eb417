/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The simulated receive side: a frame arriving on a port goes through the steering
 * rules (mlx4v_sim_flow.c) and is scattered into RQ, SRQ or RWQ WQEs with lkey checks.
 */

#include <string.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>

#include "mlx4v_prm_eth.h"
#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

/*
 * WQEs software has posted and the device has not consumed. Engine thread, sim lock held. Receive
 * WQEs have no owner bit: the doorbell record counter is the only thing that says a WQE is posted
 * (prm/mlx4 §4.3).
 */
static uint32_t
mlx4v_sim_rq_avail(struct mlx4v_sim *sim, struct mlx4v_sim_rq *rq)
{
	uint32_t raw = 0, avail;

	if (rq->srq != NULL) {
		struct mlx4v_sim_srq *srq = rq->srq;

		if (hwsim_dma_read(sim->dma, (uintptr_t)srq->db, &raw, sizeof(raw)) != 0)
			return 0;
		/* *db is the running count of posted WQEs (prm/mlx4 §4.4). */
		srq->posted = rte_be_to_cpu_32(raw);
		avail = srq->posted - srq->consumed;
		/*
		 * Misuse check rq_db_record (SRQ): more WQEs claimed than the ring holds, i.e. the
		 * counter was not kept as a running total, or was written before the WQEs were
		 * linked.
		 */
		if (avail > srq->max) {
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_RQ_DB_RECORD,
					 "SRQ 0x%x: doorbell record %u, %u consumed, %u WQEs",
					 srq->srqn, rte_be_to_cpu_32(raw), srq->consumed, srq->max);
			return 0;
		}
		return avail;
	}
	if (rq->wqe_cnt == 0)
		return 0;
	if (hwsim_dma_read(sim->dma, (uintptr_t)rq->rdb, &raw, sizeof(raw)) != 0)
		return 0;
	/* *rdb is a 16-bit running producer count, not an index (prm/mlx4 §4.3). */
	avail = (rte_be_to_cpu_32(raw) - rq->consumer) & 0xffff;
	/*
	 * Misuse check rq_db_record (RQ): e.g. an index written instead of a running count, or a
	 * count that was not reset with the QP; the device would read stale WQEs.
	 */
	if (avail > rq->wqe_cnt) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_RQ_DB_RECORD,
				 "RQ 0x%x: doorbell record %u, %u consumed, %u WQEs", rq->num,
				 rte_be_to_cpu_32(raw) & 0xffff, rq->consumer, rq->wqe_cnt);
		return 0;
	}
	return avail;
}

/* Scatter pkt into the data segments of one receive WQE; @return 0 or a syndrome. */
static uint8_t
mlx4v_sim_rq_scatter(struct mlx4v_sim *sim, uint32_t pdn, const uint8_t *segs,
		     uint32_t nsegs, const uint8_t *pkt, uint32_t len)
{
	const struct mlx4_wqe_data_seg *seg;
	uint32_t i, bc, lkey, chunk, done = 0;
	uint64_t addr, iova;

	/*
	 * Segments are filled in order; the packet may end in the middle of one (DPDK multi-segment
	 * Rx uses one mbuf per segment).
	 */
	for (i = 0; i < nsegs && done < len; i++) {
		seg = (const struct mlx4_wqe_data_seg *)(segs + i * sizeof(*seg));
		lkey = rte_be_to_cpu_32(seg->lkey);
		/* A terminator ends a scatter list shorter than the WQE. */
		if (lkey == MLX4V_INVALID_LKEY)
			break;
		bc = rte_be_to_cpu_32(seg->byte_count);
		addr = rte_be_to_cpu_64(seg->addr);
		if (bc == 0)
			continue;
		/*
		 * DMA outside registered memory would corrupt the application: refuse the whole
		 * WQE.
		 */
		if (mlx4v_sim_mr_check(sim, pdn, lkey, addr, bc, &iova) != 0)
			return MLX4_CQE_SYNDROME_LOCAL_PROT_ERR;
		chunk = RTE_MIN(bc, len - done);
		/* Through the IOMMU, as the gather side (mlx4v_sim_sq.c). */
		if (hwsim_dma_write(sim->dma, iova, pkt + done, chunk) != 0) {
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DMA,
					 "scatter of %u bytes at 0x%" PRIx64 " faulted", chunk,
					 addr);
			return MLX4_CQE_SYNDROME_LOCAL_PROT_ERR;
		}
		done += chunk;
	}
	/* A packet larger than the posted buffers is a local length error, as on hardware. */
	return done < len ? MLX4_CQE_SYNDROME_LOCAL_LENGTH_ERR : 0;
}

/*
 * Complete every WQE software has posted with WR_FLUSH_ERR, as a queue in ERR does. Sim lock
 * held. @return the WQEs flushed.
 */
int
mlx4v_sim_rq_flush(struct mlx4v_sim *sim, struct mlx4v_sim_rq *rq)
{
	uint32_t n = mlx4v_sim_rq_avail(sim, rq), i;
	struct mlx4_cqe cqe;
	uint16_t index;

	for (i = 0; i < n; i++) {
		index = (uint16_t)(rq->consumer & (rq->wqe_cnt - 1));
		rq->consumer = (rq->consumer + 1) & 0xffff;
		mlx4v_sim_cqe_error(&cqe, rq->num, index, MLX4_CQE_SYNDROME_WR_FLUSH_ERR, 0);
		mlx4v_sim_cq_push(rq->cq, &cqe, 1);
	}
	return (int)n;
}

/*
 * A receive WQE completed in error (knob rq_err_to_err): the WQ goes to ERR, as a QP does
 * under IB semantics; it takes no more frames and flushes what is posted until software
 * takes it through RESET (doc/guides/sim/silicon.rst, "mlx4: data path"). Sim lock held.
 */
void
mlx4v_sim_rq_to_err(struct mlx4v_sim *sim, struct mlx4v_sim_rq *rq)
{
	struct mlx4v_sim_qp *qp;

	if (rq->srq != NULL || mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_RQ_ERR_TO_ERR) == 0)
		return;
	qp = container_of(rq, struct mlx4v_sim_qp, rq);
	if (!qp->is_wq)
		return;
	qp->wq_state = RTE_PMD_MLX4V_WQS_ERR;
	rq->ready = 0;
	mlx4v_sim_rq_flush(sim, rq);
}

/* Engine thread (or mlx4v_sim_inject()), sim lock held. */
int
mlx4v_sim_rq_consume(struct mlx4v_sim *sim, struct mlx4v_sim_rq *rq, const uint8_t *pkt,
		     uint32_t len, uint32_t hash)
{
	uint8_t wqe[16 + 64 * sizeof(struct mlx4_wqe_data_seg)];
	struct mlx4v_sim_srq *srq = rq->srq;
	struct mlx4_cqe cqe;
	const uint8_t *segs;
	uint32_t size, nsegs, status;
	uint16_t index, next;
	uint8_t syndrome;
	uint8_t *src;

	if (mlx4v_sim_rq_avail(sim, rq) == 0)
		return -ENOBUFS;
	/*
	 * The doorbell record said the WQE is posted: read it only now. Pairs with the write
	 * barrier software issues before the *rdb / *db store (prm/mlx4 §4.3, §4.4).
	 */
	rte_rmb();
	if (srq != NULL) {
		index = (uint16_t)srq->hw_head;
		size = 1u << srq->wqe_shift;
		src = srq->buf + ((size_t)index << srq->wqe_shift);
	} else {
		index = (uint16_t)(rq->consumer & (rq->wqe_cnt - 1));
		size = 1u << rq->wqe_shift;
		src = rq->base + ((size_t)index << rq->wqe_shift);
	}
	size = RTE_MIN(size, (uint32_t)sizeof(wqe));
	if (hwsim_dma_read(sim->dma, (uintptr_t)src, wqe, size) != 0) {
		mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_DMA, "RQ 0x%x: WQE %u unreadable",
				 rq->num, index);
		return -ENOBUFS;
	}
	if (srq != NULL) {
		/*
		 * The device follows the free list as software linked it. next_wqe_index is the
		 * BE16 at byte 2 of the next segment (prm/mlx4 §4.4).
		 */
		memcpy(&next, wqe + 2, sizeof(next));
		srq->hw_head = rte_be_to_cpu_16(next) & (srq->max - 1);
		srq->consumed++;
		mlx4v_sim_srq_taken(srq);
		segs = wqe + sizeof(struct mlx4_wqe_srq_next_seg);
		nsegs = (size - sizeof(struct mlx4_wqe_srq_next_seg)) /
			sizeof(struct mlx4_wqe_data_seg);
	} else {
		/* 16-bit, like the producer count in *rdb (prm/mlx4 §4.3). */
		rq->consumer = (rq->consumer + 1) & 0xffff;
		segs = wqe;
		nsegs = size / sizeof(struct mlx4_wqe_data_seg);
	}
	syndrome = mlx4v_sim_rq_scatter(sim, rq->pdn, segs, nsegs, pkt, len);
	if (syndrome) {
		mlx4v_sim_cqe_error(&cqe, rq->num, index, syndrome, 0);
		mlx4v_sim_cq_push(rq->cq, &cqe, 1);
		mlx4v_sim_rq_to_err(sim, rq);
		return 0;
	}
	sim->stats.rx_packets++;
	sim->stats.rx_bytes += len;
	memset(&cqe, 0, sizeof(cqe));
	cqe.vlan_my_qpn = rte_cpu_to_be_32(rq->num);
	/* The Toeplitz hash of an RSS QP, big-endian as mlx4_en reads it (prm/mlx4 §4.6). */
	cqe.immed_rss_invalid = rte_cpu_to_be_32(hash);
	/* Packet kind and checksum verdicts, as the port's parser finds them (prm/mlx4 §4.6). */
	status = mlx4v_sim_csum_rx_status(pkt, len,
				mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_RX_CSUM_UNVERIFIED) != 0);
	/* Bit 12 means IPv6 fragment with the IPv6 bit only (prm/mlx4 §4.6): not zero else. */
	if (!(status & MLX4V_CQE_STATUS_IPV6) &&
	    mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_RX_IPV6F_OTHER) != 0)
		status |= MLX4V_CQE_STATUS_IPV6F;
	cqe.status = rte_cpu_to_be_32(status);
	cqe.byte_cnt = rte_cpu_to_be_32(len);
	cqe.wqe_index = rte_cpu_to_be_16(index);
	/* is_send 0 and opcode SEND; the owner bit is added by mlx4v_sim_cq_push(). */
	cqe.owner_sr_opcode = MLX4_RECV_OPCODE_SEND;
	mlx4v_sim_cq_push(rq->cq, &cqe, 0);
	return 0;
}

/*
 * Engine thread or mlx4v_sim_inject(), sim lock held. Nothing is received without a steering rule
 * (prm/mlx4 §5.4): a frame no rule matches is dropped like one nobody had a WQE for.
 */
int
mlx4v_sim_rq_deliver(struct mlx4v_sim *sim, unsigned int port, const uint8_t *pkt,
		     uint32_t len)
{
	int ret;

	/* A dead device receives nothing: the frame is lost on the wire. */
	if (mlx4v_sim_dead(sim)) {
		sim->stats.rx_dropped++;
		return -EIO;
	}
	ret = mlx4v_sim_flow_steer(sim, port, pkt, pkt, len);
	if (ret == 0)
		return 0;
	if (ret == -ENOENT)
		sim->stats.rx_no_rule++;
	sim->stats.rx_dropped++;
	return -ENOBUFS;
}

/* Test hook: a packet arriving on port from the wire. Takes the model lock itself. */
int
mlx4v_sim_inject(struct mlx4v_sim *sim, unsigned int port, const void *pkt, uint32_t len)
{
	int ret;

	if (sim == NULL || pkt == NULL || len > MLX4V_SIM_MAX_PKT || port == 0 ||
	    port > sim->nports)
		return -EINVAL;
	pthread_mutex_lock(&sim->lock);
	/* The packet buffer is the engine's; the lock makes it ours for now. */
	memcpy(sim->pkt, pkt, len);
	ret = mlx4v_sim_rq_deliver(sim, port, sim->pkt, len);
	pthread_mutex_unlock(&sim->lock);
	return ret;
}
