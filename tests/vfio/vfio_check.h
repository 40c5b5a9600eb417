/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file What the two drivers' scenarios on an emulated function share (vfio_rdma_core.c,
 * vfio_mlx5v_devx.c): "ok:"/"FAIL:" checks, the model's counters around a step, MSI waits,
 * and the command layouts they send (GEN_EQE, CREATE_EQ, QUERY_EQ), so that both drivers
 * get the very same commands.
 */

#ifndef _VFIO_CHECK_H_
#define _VFIO_CHECK_H_

#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_pmd_mlx5v.h>
#include <rte_pmd_mlx5v_prm.h>

#include "mlx5v_sim.h"

#define LOG_MIN 6
#define LOG_MAX 17
/* GEN_EQE events posted between two drains in the wrap test (below the 128 spare EQEs). */
#define BURST 24
#define MSI_WAIT_MS 5000

static int failures;
static struct mlx5v_sim *sim;

#define CHECK(cond, fmt, ...) do { \
	if (cond) { \
		printf("ok: " fmt "\n", ##__VA_ARGS__); \
	} else { \
		printf("FAIL: " fmt " (%s:%d)\n", ##__VA_ARGS__, __FILE__, __LINE__); \
		failures++; \
	} \
} while (0)

/* The model's counters read before a step, to check the step added none. */
struct model_snap {
	uint64_t db_misuse;
	uint64_t iommu;
	uint64_t cmd_err;
	uint64_t msix_lost;
};

static inline void
snap(struct model_snap *s)
{
	s->db_misuse = mlx5v_sim_counter(sim, MLX5V_SIM_CTR_DB_MISUSE);
	s->iommu = mlx5v_sim_counter(sim, MLX5V_SIM_CTR_IOMMU_FAULTS);
	s->cmd_err = mlx5v_sim_counter(sim, MLX5V_SIM_CTR_CMD_ERRORS);
	s->msix_lost = mlx5v_sim_counter(sim, MLX5V_SIM_CTR_MSIX_NOT_ENABLED);
}

static inline void
check_clean(const struct model_snap *s, const char *step)
{
	CHECK(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_DB_MISUSE) == s->db_misuse,
	      "%s: no misused doorbell", step);
	CHECK(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_IOMMU_FAULTS) == s->iommu,
	      "%s: no IOMMU fault", step);
	CHECK(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_CMD_ERRORS) == s->cmd_err,
	      "%s: no command refused", step);
	CHECK(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_MSIX_NOT_ENABLED) == s->msix_lost,
	      "%s: no interrupt on a vector not enabled", step);
}

/* Wait for the vector's eventfd; @return the interrupts counted, 0 on timeout. */
static inline uint64_t
msi_wait(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t n = 0;

	if (poll(&p, 1, MSI_WAIT_MS) != 1 || read(fd, &n, sizeof(n)) != sizeof(n))
		return 0;
	return n;
}

/* GEN_EQE of a general event carrying tag on EQ eqn. */
static inline void
gen_eqe_in(uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE], uint32_t eqn, uint32_t tag)
{
	uint8_t *e = in + RTE_PMD_MLX5V_GEN_EQE_IN_EQE;
	uint32_t be = rte_cpu_to_be_32(tag);

	memset(in, 0, RTE_PMD_MLX5V_GEN_EQE_IN_SIZE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_GEN_EQE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	e[RTE_PMD_MLX5V_EQE_TYPE_OFF] = RTE_PMD_MLX5V_EVENT_GENERAL_EVENT;
	memcpy(e + RTE_PMD_MLX5V_EQE_DATA_OFF, &be, sizeof(be));
}

/* CREATE_EQ of 2^log entries on a UAR page and an MSI-X vector, general events only. */
static inline void
create_eq_in(uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE], unsigned int log, uint32_t page,
	     int vector)
{
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;
	uint8_t mask[32] = { 0 };

	memset(in, 0, RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, log);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, page);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, vector);
	rte_pmd_mlx5v_event_mask_set(mask, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT);
	memcpy(in + RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK, mask, sizeof(mask));
}

/* QUERY_EQ of eqn; query_eq_out() reads the status and the first page's IOVA. */
static inline void
query_eq_in(uint8_t in[RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE], uint32_t eqn)
{
	memset(in, 0, RTE_PMD_MLX5V_QUERY_EQ_IN_SIZE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_QUERY_EQ);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
}

static inline void
query_eq_out(const uint8_t *out, uint32_t *status, uint64_t *pas0)
{
	*status = RTE_PMD_MLX5V_GET(out + RTE_PMD_MLX5V_QUERY_EQ_OUT_EQC,
				    RTE_PMD_MLX5V_EQC_STATUS);
	*pas0 = RTE_PMD_MLX5V_GET64(out, RTE_PMD_MLX5V_QUERY_EQ_OUT_PAS);
}

/*
 * Take every software-owned EQE from *ci: its owner bit must equal the wrap parity of ci,
 * its tag the next expected. @return the EQEs taken, or -1 on a wrong one.
 */
static inline int
eq_drain(uint8_t *ring, unsigned int log, uint32_t *ci, uint32_t *tag)
{
	uint32_t nent = 1u << log;
	int n = 0;

	for (;;) {
		uint8_t *e = ring + (size_t)(*ci & (nent - 1)) * RTE_PMD_MLX5V_EQE_SIZE;
		uint32_t be;

		if ((e[RTE_PMD_MLX5V_EQE_OWNER_OFF] & 1) != ((*ci >> log) & 1))
			return n;
		/* Read the EQE only after its owner bit says it is ours. */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		memcpy(&be, e + RTE_PMD_MLX5V_EQE_DATA_OFF, sizeof(be));
		if (e[RTE_PMD_MLX5V_EQE_TYPE_OFF] != RTE_PMD_MLX5V_EVENT_GENERAL_EVENT ||
		    rte_be_to_cpu_32(be) != *tag) {
			printf("EQE %u: type 0x%x tag %u, expected 0x22 tag %u\n", *ci,
			       e[RTE_PMD_MLX5V_EQE_TYPE_OFF], rte_be_to_cpu_32(be), *tag);
			return -1;
		}
		(*tag)++;
		(*ci)++;
		n++;
	}
}

/* How a driver raises an event (GEN_EQE) and arms its EQ, for eq_events(). */
struct eq_driver {
	int (*gen_eqe)(void *ctx, uint32_t eqn, uint32_t tag);
	void (*arm)(void *uar, uint32_t eqn, uint32_t ci);
	void *ctx;
	void *uar;
};

/*
 * The events of an armed EQ of 2^log entries: one event (an EQE with the first pass's owner
 * bit and one MSI); on 2^LOG_MIN entries also 3 wraps and a bit in bursts below the spare
 * EQEs, the EQ armed again before each (one MSI per arm). @return the CI reached.
 */
static inline uint32_t
eq_events(const struct eq_driver *d, void *ring, unsigned int log, uint32_t eqn, int msi_fd)
{
	uint32_t nent = 1u << log;
	uint32_t ci = 0, tag = 0;
	unsigned int i, total;
	int n, ok = 1;

	d->arm(d->uar, eqn, ci);
	CHECK(d->gen_eqe(d->ctx, eqn, tag) == 0, "2^%u: GEN_EQE", log);
	CHECK(msi_wait(msi_fd) == 1, "2^%u: one MSI", log);
	n = eq_drain(ring, log, &ci, &tag);
	CHECK(n == 1, "2^%u: one EQE, owner bit 0 (took %d)", log, n);
	total = log == LOG_MIN ? 3 * nent + 5 : 0;
	for (i = 0; i < total && ok; i += BURST) {
		unsigned int b = total - i < BURST ? total - i : BURST;
		unsigned int k;

		d->arm(d->uar, eqn, ci);
		for (k = 0; k < b && ok; k++)
			ok = d->gen_eqe(d->ctx, eqn, tag + k) == 0;
		ok = ok && msi_wait(msi_fd) >= 1;
		n = eq_drain(ring, log, &ci, &tag);
		ok = ok && n == (int)b;
		if (!ok)
			printf("burst at %u: %d EQEs of %u\n", i, n, b);
	}
	if (total != 0)
		CHECK(ok && ci == total + 1, "2^%u: %u EQEs across %u wraps, owner bits flip",
		      log, total + 1, (total + 1) / nent);
	return ci;
}

#endif /* _VFIO_CHECK_H_ */
