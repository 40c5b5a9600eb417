/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of the flow group allocator of the mlx5v PMD's rte_flow tables
 * (mlx5v_rte_flow_layout.c, no device): rules of one priority and mask share groups that
 * grow from CHUNK_MIN to CHUNK_MAX entries, a priority's entries all come before those of
 * the next one, a band holds its size in rules of one mask, and every group and chunk is
 * given back with the last rule.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#include "mlx5v_rte_flow.h"

/* A rule of the tests: where the allocator put it. */
struct rule {
	struct mlx5v_rte_flow_fg *fg;
	uint32_t index;
	uint32_t prio;
};

static struct mlx5v_rte_flow_table g_t;
static struct rule g_r[MLX5V_RTE_FLOW_BAND + 1];

/*
 * A rule of priority prio and of mask kind: masks differ in their bytes, whatever fields the
 * mask's type has (kind 0 alone sets byte 0, kind k also byte k).
 */
static void
spec_of(struct mlx5v_rte_flow_spec *s, uint32_t prio, unsigned int kind)
{
	uint8_t *m = (uint8_t *)&s->mask;

	memset(s, 0, sizeof(*s));
	s->priority = prio;
	m[0] = 0xff;
	m[kind % sizeof(s->mask)] = 0xff;
}

static int
groups(void)
{
	struct mlx5v_rte_flow_fg *fg;
	int n = 0;

	if (g_t.fgs.tqh_last == NULL)
		return 0;
	TAILQ_FOREACH(fg, &g_t.fgs, next)
		n++;
	return n;
}

static int
chunks_taken(void)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < RTE_DIM(g_t.chunks); i++)
		n += __builtin_popcountll(g_t.chunks[i]);
	return n;
}

/* Give every rule of g_r[0 .. n) back as the PMD does: the group goes with its last entry. */
static void
release(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (mlx5v_rte_flow_layout_put(g_r[i].fg, g_r[i].index) == 0)
			mlx5v_rte_flow_layout_fg_free(&g_t, g_r[i].fg);
}

static int
setup(void)
{
	memset(&g_t, 0, sizeof(g_t));
	return 0;
}

/* An entry inside its group, the group inside the band of its priority, aligned. */
static int
check_rule(const struct rule *r)
{
	const struct mlx5v_rte_flow_fg *fg = r->fg;

	TEST_ASSERT(fg->size >= MLX5V_RTE_FLOW_CHUNK_MIN && fg->size <= MLX5V_RTE_FLOW_CHUNK_MAX &&
		    (fg->size & (fg->size - 1)) == 0, "group size %u", fg->size);
	TEST_ASSERT(fg->start % fg->size == 0, "group at %u not aligned on %u", fg->start,
		    fg->size);
	TEST_ASSERT(r->index >= fg->start && r->index < fg->start + fg->size,
		    "entry %u outside its group [%u, +%u)", r->index, fg->start, fg->size);
	TEST_ASSERT(fg->start / MLX5V_RTE_FLOW_BAND == r->prio,
		    "group of priority %u at %u, outside its band", r->prio, fg->start);
	return TEST_SUCCESS;
}

/*
 * 1000 rules of one priority and mask: they share groups of 16, 32, ... entries, each full
 * before the next is made, every entry distinct; all given back, nothing is left.
 */
static int
test_net_mlx5v_flow_layout_share(void)
{
	struct mlx5v_rte_flow_spec m;
	uint32_t want_groups = 0, cap = 0, size = MLX5V_RTE_FLOW_CHUNK_MIN;
	const unsigned int n = 1000;
	uint8_t *seen = calloc(MLX5V_RTE_FLOW_FT_SIZE, 1);
	unsigned int i;

	TEST_ASSERT_NOT_NULL(seen, "memory");
	spec_of(&m, 3, 0);
	for (i = 0; i < n; i++) {
		g_r[i].prio = 3;
		TEST_ASSERT_SUCCESS(mlx5v_rte_flow_layout_take(&g_t, &m, &g_r[i].fg,
							       &g_r[i].index), "rule %u", i);
		TEST_ASSERT_SUCCESS(check_rule(&g_r[i]), "rule %u", i);
		TEST_ASSERT(!seen[g_r[i].index], "entry %u given twice", g_r[i].index);
		seen[g_r[i].index] = 1;
		/* A rule opens a group only when those before are full. */
		if (i == cap) {
			want_groups++;
			cap += size;
			size = RTE_MIN(size * 2, MLX5V_RTE_FLOW_CHUNK_MAX);
		}
		TEST_ASSERT_EQUAL(groups(), (int)want_groups, "rule %u: %d groups, want %u", i,
				  groups(), want_groups);
	}
	free(seen);
	release(n);
	TEST_ASSERT_EQUAL(groups(), 0, "groups left");
	TEST_ASSERT_EQUAL(chunks_taken(), 0, "chunks left");
	return TEST_SUCCESS;
}

/*
 * Rules of every priority and three masks, interleaved: a mask and priority never shares a
 * group with another; each entry of priority p comes before every entry of priority p + 1,
 * whatever the order of creation.
 */
static int
test_net_mlx5v_flow_layout_order(void)
{
	struct mlx5v_rte_flow_spec m;
	const unsigned int n = 3000;
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		/* Priorities from 7 down, so a later rule often has the higher priority. */
		g_r[i].prio = 7 - (i * 5 + i / 8) % MLX5V_RTE_FLOW_PRIOS;
		spec_of(&m, g_r[i].prio, i % 3);
		TEST_ASSERT_SUCCESS(mlx5v_rte_flow_layout_take(&g_t, &m, &g_r[i].fg,
							       &g_r[i].index), "rule %u", i);
		TEST_ASSERT_SUCCESS(check_rule(&g_r[i]), "rule %u", i);
		TEST_ASSERT(memcmp(&g_r[i].fg->mask, &m.mask, sizeof(m.mask)) == 0 &&
			    g_r[i].fg->prio == g_r[i].prio, "rule %u in a group of another mask "
			    "or priority", i);
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (g_r[i].prio < g_r[j].prio)
				TEST_ASSERT(g_r[i].index < g_r[j].index,
					    "priority %u at entry %u after priority %u at %u",
					    g_r[i].prio, g_r[i].index, g_r[j].prio, g_r[j].index);
	release(n);
	TEST_ASSERT_EQUAL(groups(), 0, "groups left");
	TEST_ASSERT_EQUAL(chunks_taken(), 0, "chunks left");
	return TEST_SUCCESS;
}

/*
 * A band holds MLX5V_RTE_FLOW_BAND rules of one mask (the last groups smaller where larger
 * ones no longer fit); the next is refused with ENOSPC and changes nothing, another
 * priority still has room; a group freed in the middle is taken again.
 */
static int
test_net_mlx5v_flow_layout_full(void)
{
	struct mlx5v_rte_flow_spec m, m2, p1;
	struct mlx5v_rte_flow_fg *fg;
	uint32_t index, start, size;
	int ng, nc;
	unsigned int i;

	spec_of(&m, 0, 0);
	spec_of(&m2, 0, 1);
	spec_of(&p1, 1, 0);
	for (i = 0; i < MLX5V_RTE_FLOW_BAND; i++) {
		g_r[i].prio = 0;
		TEST_ASSERT_SUCCESS(mlx5v_rte_flow_layout_take(&g_t, &m, &g_r[i].fg,
							       &g_r[i].index), "rule %u", i);
	}
	ng = groups();
	nc = chunks_taken();
	TEST_ASSERT_EQUAL(nc, (int)(MLX5V_RTE_FLOW_BAND / MLX5V_RTE_FLOW_CHUNK_MIN),
			  "band not full: %d chunks", nc);
	TEST_ASSERT_EQUAL(mlx5v_rte_flow_layout_take(&g_t, &m, &fg, &index), -ENOSPC,
			  "a rule beyond the band");
	TEST_ASSERT_EQUAL(mlx5v_rte_flow_layout_take(&g_t, &m2, &fg, &index), -ENOSPC,
			  "a rule of another mask beyond the band");
	TEST_ASSERT(groups() == ng && chunks_taken() == nc, "a refused rule left state");
	TEST_ASSERT_SUCCESS(mlx5v_rte_flow_layout_take(&g_t, &p1, &g_r[i].fg, &g_r[i].index),
			    "priority 1 full too");
	g_r[i].prio = 1;
	TEST_ASSERT_SUCCESS(check_rule(&g_r[i]), "priority 1's rule");
	/* Free the whole group of rule 5000: its range serves the next rule of another mask. */
	fg = g_r[5000].fg;
	start = fg->start;
	size = fg->size;
	for (i = 0; i < MLX5V_RTE_FLOW_BAND; i++) {
		if (g_r[i].fg != fg)
			continue;
		if (mlx5v_rte_flow_layout_put(fg, g_r[i].index) == 0)
			mlx5v_rte_flow_layout_fg_free(&g_t, fg);
		g_r[i].fg = NULL;
	}
	TEST_ASSERT_SUCCESS(mlx5v_rte_flow_layout_take(&g_t, &m2, &fg, &index),
			    "the freed range not reused");
	TEST_ASSERT(fg->start >= start && fg->start + fg->size <= start + size,
		    "new group [%u, +%u) outside the freed [%u, +%u)", fg->start, fg->size,
		    start, size);
	if (mlx5v_rte_flow_layout_put(fg, index) == 0)
		mlx5v_rte_flow_layout_fg_free(&g_t, fg);
	for (i = 0; i <= MLX5V_RTE_FLOW_BAND; i++)
		if (g_r[i].fg != NULL && mlx5v_rte_flow_layout_put(g_r[i].fg, g_r[i].index) == 0)
			mlx5v_rte_flow_layout_fg_free(&g_t, g_r[i].fg);
	TEST_ASSERT_EQUAL(groups(), 0, "groups left");
	TEST_ASSERT_EQUAL(chunks_taken(), 0, "chunks left");
	return TEST_SUCCESS;
}

/* clear() frees every group whatever its entries (the device gone at stop). */
static int
test_net_mlx5v_flow_layout_clear(void)
{
	struct mlx5v_rte_flow_spec m;
	unsigned int i;

	for (i = 0; i < 100; i++) {
		spec_of(&m, i % 8, i % 4);
		TEST_ASSERT_SUCCESS(mlx5v_rte_flow_layout_take(&g_t, &m, &g_r[i].fg,
							       &g_r[i].index), "rule %u", i);
	}
	TEST_ASSERT(groups() > 0, "no group");
	mlx5v_rte_flow_layout_clear(&g_t);
	TEST_ASSERT_EQUAL(groups(), 0, "groups left");
	TEST_ASSERT_EQUAL(chunks_taken(), 0, "chunks left");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_mlx5v_flow_layout_suite = {
	.suite_name = "net_mlx5v rte_flow table layout",
	.unit_test_cases = {
		TEST_CASE_ST(setup, NULL, test_net_mlx5v_flow_layout_share),
		TEST_CASE_ST(setup, NULL, test_net_mlx5v_flow_layout_order),
		TEST_CASE_ST(setup, NULL, test_net_mlx5v_flow_layout_full),
		TEST_CASE_ST(setup, NULL, test_net_mlx5v_flow_layout_clear),
		TEST_CASES_END()
	}
};

static int
test_net_mlx5v_flow_layout(void)
{
	return unit_test_suite_runner(&net_mlx5v_flow_layout_suite);
}

REGISTER_TEST_COMMAND(net_mlx5v_flow_layout_autotest, test_net_mlx5v_flow_layout);
