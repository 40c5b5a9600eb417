/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file A raw user of the simulated ConnectX's Ethernet function: one class=none device with
 * the objects of a receive and a send path (PD to root flow table), built with PRM mailboxes
 * through rte_pmd_mlx5v_devx_general_cmd(), and helpers to post WQEs and take CQEs. Used by
 * the unit tests and by the forwarding benchmark (app/mlx5v-bench).
 */

#ifndef _ETHDP_FX_H_
#define _ETHDP_FX_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>

#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v.h"

/* Memory of one fixture: every ring, record and buffer, one DMA mapping. */
#define MEM_SIZE 0xb0000u
#define OFF_TXCQ 0x00000u        /* 64 CQEs */
#define OFF_RXCQ 0x01000u        /* 256 CQEs, 4 pages */
#define OFF_DBR 0x05000u         /* records, 64 bytes apart */
#define OFF_SQ 0x06000u          /* 64 WQEBBs */
#define OFF_RQ 0x07000u          /* 4 RQs, a page each, 64 WQEs of 16 bytes */
#define OFF_RXBUF 0x10000u       /* 4 x 64 x 2 KiB */
#define OFF_TXBUF 0x90000u       /* 64 x 2 KiB */
#define TXCQ_LOG 6
#define RXCQ_LOG 8
#define SQ_LOG 6
#define RQ_LOG 6
#define NB_RQ 4
#define BUF_SZ 2048u
#define EQ_LOG 7

/* CQE fields (doc/guides/prm/mlx5_eth.rst §8.2, §8.4). */
#define CQE_RSS_HASH 0x0c
#define CQE_RSS_TYPE 0x10
#define CQE_HDS_IP_EXT 0x1c
#define CQE_L4_L3 0x1d
#define CQE_USER_INDEX 0x20
#define CQE_BYTE_CNT 0x2c
#define CQE_VSYND 0x36
#define CQE_SYND 0x37
#define CQE_SOP_QPN 0x38
#define CQE_WQE_CTR 0x3c
#define CQE_OP_OWN 0x3f

/**
 * -1 (default): the receive CQ of the next fx_up() without compression; else it is created
 * with cqe_comp_en and this mini_cqe_res_format (doc/guides/prm/mlx5_eth.rst §8.5).
 */
extern int fx_rxcq_comp;

/** The Toeplitz key of the fixture's RSS TIR. */
extern const uint8_t rss_key[40];

/** One device brought up as a raw user: objects from PD to the root flow table. */
struct fx {
	char name[32];
	struct rte_pmd_mlx5v_dev *dev;
	struct mlx5v_sim *sim;
	struct rte_pmd_mlx5v_uar *uar;
	struct rte_pmd_mlx5v_msi_vector *msi;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn, eq_ci;
	uint8_t *mem;
	const struct rte_memzone *mz; /* holds mem: IOVA-contiguous, one dma_map */
	uint64_t iova;
	uint32_t pd, td, tis, sq, rq[NB_RQ], rqt, tir_rss, tir_direct, ft, fg_mac, fg_all;
	uint32_t qcnt, mkey, lkey, txcqn, rxcqn;
	uint32_t txcq_ci, rxcq_ci;
	uint16_t sq_pc;
	uint16_t rq_posted[NB_RQ];
	uint8_t mac[RTE_ETHER_ADDR_LEN];
	int have_fte_all;
	int leaked;
};

/* Commands: @return 0 or -1 after printing the status and syndrome. */
int cmd(struct fx *f, const char *what, void *in, size_t inlen, void *out, size_t outlen);
int64_t cmd_obj(struct fx *f, const char *what, void *in, size_t inlen);
int cmd_simple(struct fx *f, const char *what, uint16_t opcode, uint32_t obj);
int q_modify(struct fx *f, int is_sq, uint32_t qn, unsigned int cur, unsigned int next);
int sq_state(struct fx *f);
uint32_t qcnt_out_of_buffer(struct fx *f);
int fte_set(struct fx *f, uint32_t index, uint32_t group, const uint8_t *mac, uint32_t tir,
	    uint32_t tag);
int fte_del(struct fx *f, uint32_t index);
void rq_post(struct fx *f, unsigned int i, unsigned int n);
/* Probe the device (rte_vdev_init) and build every object; fx_down() undoes it. */
int fx_up(struct fx *f, const char *name, const char *args);
/* @return 1 if the device still had objects when its fixture was torn down. */
int fx_down(struct fx *f);
struct rte_ipv4_hdr *frame_ipv4(uint8_t *p, uint32_t len, const uint8_t *dst, uint8_t proto,
				uint32_t sip);
uint32_t frame_udp(uint8_t *p, uint32_t len, const uint8_t *dst, uint32_t sip, uint16_t sport,
		   int zero_csum);
/* Data path: a SEND WQE (18 bytes inline, one data segment), the doorbell, CQEs. */
uint64_t iova_of(const struct fx *f, const void *p);
void sq_post(struct fx *f, const uint8_t *frame, uint32_t len, uint8_t cs_flags, uint32_t lkey,
	     uint64_t addr, int ce);
void sq_ring(struct fx *f);
void sq_send(struct fx *f, const uint8_t *frame, uint32_t len, uint8_t cs_flags, uint32_t lkey,
	     uint64_t addr);
uint8_t *cq_poll(struct fx *f, int rx);
uint8_t *cq_wait(struct fx *f, int rx);
int cq_quiet(struct fx *f, int rx);
uint32_t be32(const uint8_t *p);
uint16_t be16(const uint8_t *p);
void put_be16(void *p, uint16_t v);
void put_be32(void *p, uint32_t v);
void put_be64(void *p, uint64_t v);
/* The first 8 bytes of a WQE to the SQ doorbell register (UAR + 0x800). */
void uar_db(struct fx *f, const uint8_t *wqe);
int eq_wait(struct fx *f, uint8_t type);
const uint8_t *rx_buf(struct fx *f, const uint8_t *cqe);
int paos_write(struct fx *f, unsigned int admin);

#endif /* _ETHDP_FX_H_ */
