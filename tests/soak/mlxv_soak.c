/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Soak of the DEVX EQ API on the simulated ConnectX (devtools/soak.sh): EQ create,
 * one event generated and consumed, destroy, EQS times; then CMDS raw commands. Memory
 * (RSS and the EAL heap) is sampled along the way and must not grow: the EAL heap must
 * be back to its size after the warm-up, and RSS may grow by at most the bound.
 *
 * usage: mlxv-soak [EAL options] -- EQS CMDS [RSS_BOUND_KB]
 * Prints one sample line per twentieth of each phase and a last line "soak: OK ..." or
 * "soak: FAIL ..." (exit status 1). doc/guides/bench/soak.rst has the figures.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "test.h"

#include "rte_pmd_mlx5v_prm.h"
#include "ut_mlx5v_devx.h"

#define SOAK_LOG_EQ 6
#define SOAK_RSS_BOUND_KB 8192
#define SOAK_SAMPLES 20

static struct rte_pmd_mlx5v_msi_vector *g_msi;

/* @return the resident set size in KiB (/proc/self/statm, field 2, in pages). */
static uint64_t
soak_rss_kb(void)
{
	unsigned long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return (uint64_t)res * (uint64_t)(sysconf(_SC_PAGESIZE) / 1024);
}

struct soak_sample {
	uint64_t rss_kb;
	struct ut_heap heap;
	uint64_t ms;
};

static void
soak_sample(struct soak_sample *s, const char *phase, uint64_t i)
{
	s->rss_kb = soak_rss_kb();
	ut_heap_get(&s->heap);
	s->ms = ut_now_ms();
	printf("%s %" PRIu64 " rss_kb %" PRIu64 " heap_bytes %" PRIu64 " heap_elems %" PRIu64
	       " ms %" PRIu64 "\n", phase, i, s->rss_kb, s->heap.bytes, s->heap.count, s->ms);
	fflush(stdout);
}

/* Consume the vector's interrupts: the eventfd is non-blocking. */
static void
soak_drain(int fd)
{
	uint64_t cnt;

	while (read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		;
}

/*
 * One round: create, one event raised and consumed from the ring, destroy. Odd rounds take
 * a GEN_EQE event, even rounds the completion of a CQ bound to the EQ (an event firmware
 * raises on its own: doc/guides/nics/running_on_hardware.rst, "Events raised with GEN_EQE").
 */
static int
soak_eq_round(uint64_t i)
{
	enum ut_src_kind kind = (i & 1) != 0 ? UT_SRC_GEN_EQE : UT_SRC_CQE;
	struct rte_pmd_mlx5v_eq *eq;
	uint32_t eqn = 0, ci = 0;
	uint8_t tag = (uint8_t)i;
	const uint8_t *eqe;
	struct ut_src src;
	int ret;

	eq = ut_eq_create(SOAK_LOG_EQ, g_msi->vector, 0, &eqn);
	if (eq == NULL) {
		printf("soak: create_eq %" PRIu64 ": %s\n", i, strerror(errno));
		return -1;
	}
	ret = ut_src_open(&src, kind, eqn) == 0 && ut_src_raise(&src, tag) == 0 ? 0 : EIO;
	/* Consumed from the ring without a CI doorbell: the EQ is destroyed next. */
	eqe = ret == 0 ? rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 1u << SOAK_LOG_EQ, ci) : NULL;
	if (ret == 0 && (eqe == NULL || !ut_src_eqe_is(&src, eqe, tag)))
		ret = EIO;
	if (ret != 0)
		printf("soak: event %" PRIu64 " (%s) on EQ %u not delivered: %s\n", i,
		       kind == UT_SRC_CQE ? "CQ completion" : "GEN_EQE", eqn, strerror(ret));
	if (ut_src_close(&src) != 0) {
		printf("soak: destroy_cq %" PRIu64 " failed\n", i);
		ret = EIO;
	}
	if (rte_pmd_mlx5v_devx_destroy_eq(eq) != 0) {
		printf("soak: destroy_eq %" PRIu64 " failed\n", i);
		ret = EIO;
	}
	soak_drain(g_msi->fd);
	return ret == 0 ? 0 : -1;
}

/*
 * Run a phase of n steps; the sample after the first twentieth is the reference the
 * last one is compared with (caches such as command mailboxes are filled by then).
 * @return 0, or -1 on a failed step or growth.
 */
static int
soak_phase(const char *phase, uint64_t n, uint64_t rss_bound_kb, int (*step)(uint64_t))
{
	uint64_t every = n / SOAK_SAMPLES > 0 ? n / SOAK_SAMPLES : 1;
	struct soak_sample ref, s, first;
	uint64_t i;

	/* A phase of 0 steps is skipped: the two phases can run as two processes. */
	if (n == 0)
		return 0;
	soak_sample(&first, phase, 0);
	ref = first;
	s = first;
	for (i = 1; i <= n; i++) {
		if (step(i) != 0)
			return -1;
		if (i % every == 0 || i == n) {
			soak_sample(&s, phase, i);
			if (i == every)
				ref = s;
		}
	}
	printf("soak: %s: %" PRIu64 " in %" PRIu64 " ms; rss %" PRIu64 " -> %" PRIu64
	       " KiB, EAL heap %" PRIu64 " -> %" PRIu64 " bytes\n", phase, n, s.ms - first.ms,
	       first.rss_kb, s.rss_kb, ref.heap.bytes, s.heap.bytes);
	if (!ut_heap_same(&ref.heap, &s.heap)) {
		printf("soak: FAIL: %s: the EAL heap grew after the warm-up\n", phase);
		return -1;
	}
	if (s.rss_kb > ref.rss_kb + rss_bound_kb) {
		printf("soak: FAIL: %s: RSS grew by %" PRIu64 " KiB (bound %" PRIu64 ")\n", phase,
		       s.rss_kb - ref.rss_kb, rss_bound_kb);
		return -1;
	}
	return 0;
}

static uint32_t g_query_eqn;

/* One raw command: QUERY_EQ of the soak's long-lived EQ. */
static int
soak_cmd_step(uint64_t i)
{
	uint8_t out[RTE_PMD_MLX5V_QUERY_EQ_OUT_SIZE + 8]; /* with pas[0] */
	int ret = ut_eq_query(g_query_eqn, out, sizeof(out));

	if (ret != 0)
		printf("soak: command %" PRIu64 ": %s\n", i, strerror(ret));
	return ret == 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	uint64_t eqs, cmds, bound = SOAK_RSS_BOUND_KB;
	struct rte_pmd_mlx5v_eq *qeq = NULL;
	int ret = 1;
	int n;

	n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "soak: rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= n;
	argv += n;
	if (argc < 3) {
		fprintf(stderr, "usage: mlxv-soak [EAL options] -- EQS CMDS [RSS_BOUND_KB]\n");
		goto out_eal;
	}
	eqs = strtoull(argv[1], NULL, 0);
	cmds = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		bound = strtoull(argv[3], NULL, 0);
	/* The DEVX unit programs' device: mlx5v_sim0 and its UAR (ut_mlx5v_devx.c). */
	if (ut_devx_setup() != TEST_SUCCESS)
		goto out_free;
	g_msi = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	if (g_msi == NULL) {
		fprintf(stderr, "soak: cannot allocate a vector: %s\n", strerror(errno));
		goto out_free;
	}
	printf("soak: %" PRIu64 " EQ rounds, %" PRIu64 " commands, RSS bound %" PRIu64
	       " KiB\n", eqs, cmds, bound);
	if (soak_phase("eq", eqs, bound, soak_eq_round) != 0)
		goto out_free;
	qeq = ut_eq_create(SOAK_LOG_EQ, g_msi->vector, 0, &g_query_eqn);
	if (qeq == NULL || soak_phase("cmd", cmds, bound, soak_cmd_step) != 0)
		goto out_free;
	ret = 0;
	printf("soak: OK\n");
out_free:
	if (qeq != NULL)
		rte_pmd_mlx5v_devx_destroy_eq(qeq);
	if (g_msi != NULL)
		rte_pmd_mlx5v_devx_free_msi_vector(g_msi);
	ut_devx_teardown();
out_eal:
	rte_eal_cleanup();
	if (ret != 0)
		printf("soak: FAIL\n");
	return ret;
}
