/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Where the rules of an rte_flow group sit in its table: flow groups and entries,
 * bookkeeping only (no command). Priority p owns the band of entries [p * BAND, (p + 1) * BAND),
 * so that a lower priority comes first in index order, which is the order in which the device
 * tries the entries (prm/mlx5_eth §10.1). Within a band, the rules of one mask share flow groups,
 * whose criteria are that mask (prm/mlx5_eth §4.10: a group is a range of entries with one set of
 * criteria): the first group of a mask has CHUNK_MIN entries, each next one twice the entries of
 * the one before up to CHUNK_MAX, as Linux's auto-grouped flow tables make a further group when
 * one is full. A group is a power of two of entries aligned on its size, so that a freed group
 * leaves room for any group up to its size. doc/guides/nics/mlx5v.rst, "Flow rules (rte_flow)".
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "mlx5v_rte_flow.h"

#define CHUNKS_PER_BAND (MLX5V_RTE_FLOW_BAND / MLX5V_RTE_FLOW_CHUNK_MIN)

static int
bit_get(const uint64_t *map, uint32_t i)
{
	return (map[i / 64] >> (i % 64)) & 1;
}

static void
bit_put(uint64_t *map, uint32_t i, int set)
{
	if (set)
		map[i / 64] |= UINT64_C(1) << (i % 64);
	else
		map[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

/* Chunks [c, c + n) of t taken (set 1) or given back (0). */
static void
chunks_put(struct mlx5v_rte_flow_table *t, uint32_t c, uint32_t n, int set)
{
	uint32_t i;

	for (i = c; i < c + n; i++)
		bit_put(t->chunks, i, set);
}

/* @return 1 if chunks [c, c + n) of t are all free. */
static int
chunks_free(const struct mlx5v_rte_flow_table *t, uint32_t c, uint32_t n)
{
	uint32_t i;

	for (i = c; i < c + n; i++)
		if (bit_get(t->chunks, i))
			return 0;
	return 1;
}

/*
 * The first free range of size entries (a power of two) aligned on its size in the band of
 * prio, taken. @return its first entry, or UINT32_MAX when the band has none.
 */
static uint32_t
range_take(struct mlx5v_rte_flow_table *t, uint32_t prio, uint32_t size)
{
	uint32_t n = size / MLX5V_RTE_FLOW_CHUNK_MIN;
	uint32_t c;

	for (c = prio * CHUNKS_PER_BAND; c + n <= (prio + 1) * CHUNKS_PER_BAND; c += n) {
		if (!chunks_free(t, c, n))
			continue;
		chunks_put(t, c, n, 1);
		return c * MLX5V_RTE_FLOW_CHUNK_MIN;
	}
	return UINT32_MAX;
}

/*
 * A new group for prio and mask after the n groups it has: CHUNK_MIN << n entries up to
 * CHUNK_MAX, or less when the band has no free range that large.
 */
static struct mlx5v_rte_flow_fg *
fg_new(struct mlx5v_rte_flow_table *t, const struct mlx5v_rte_flow_spec *spec, uint32_t n)
{
	uint32_t prio = spec->priority;
	struct mlx5v_rte_flow_fg *fg;
	uint32_t size = MLX5V_RTE_FLOW_CHUNK_MAX;
	uint32_t start = UINT32_MAX;

	if (n < 31 && (MLX5V_RTE_FLOW_CHUNK_MIN << n) < MLX5V_RTE_FLOW_CHUNK_MAX)
		size = MLX5V_RTE_FLOW_CHUNK_MIN << n;
	for (; size >= MLX5V_RTE_FLOW_CHUNK_MIN; size /= 2) {
		start = range_take(t, prio, size);
		if (start != UINT32_MAX)
			break;
	}
	if (start == UINT32_MAX) {
		rte_errno = ENOSPC;
		return NULL;
	}
	fg = rte_zmalloc("mlx5v_rte_flow_fg", sizeof(*fg), 0);
	if (fg == NULL) {
		chunks_put(t, start / MLX5V_RTE_FLOW_CHUNK_MIN, size / MLX5V_RTE_FLOW_CHUNK_MIN, 0);
		rte_errno = ENOMEM;
		return NULL;
	}
	fg->mask = spec->mask;
	fg->prio = prio;
	fg->start = start;
	fg->size = size;
	TAILQ_INSERT_TAIL(&t->fgs, fg, next);
	return fg;
}

int
mlx5v_rte_flow_layout_take(struct mlx5v_rte_flow_table *t,
			   const struct mlx5v_rte_flow_spec *spec,
			   struct mlx5v_rte_flow_fg **fgp, uint32_t *index)
{
	struct mlx5v_rte_flow_fg *fg, *room = NULL;
	uint32_t prio = spec->priority;
	uint32_t n = 0, i;

	RTE_BUILD_BUG_ON(MLX5V_RTE_FLOW_BAND % MLX5V_RTE_FLOW_CHUNK_MAX != 0);
	if (prio >= MLX5V_RTE_FLOW_PRIOS)
		return -EINVAL;
	/* The table's memory is zeroed at probe and at stop: an empty list then. */
	if (t->fgs.tqh_last == NULL)
		TAILQ_INIT(&t->fgs);
	TAILQ_FOREACH(fg, &t->fgs, next) {
		/* The spec's padding is zero (parsed into zeroed memory): memcmp compares. */
		if (fg->prio != prio || memcmp(&fg->mask, &spec->mask, sizeof(fg->mask)) != 0)
			continue;
		n++;
		if (room == NULL && fg->nused < fg->size)
			room = fg;
	}
	if (room == NULL) {
		room = fg_new(t, spec, n);
		if (room == NULL)
			return -rte_errno;
	}
	/* The lowest free entry: the rules of a group match in creation order while it fills. */
	for (i = 0; i < room->size; i++)
		if (!bit_get(room->used, i))
			break;
	bit_put(room->used, i, 1);
	room->nused++;
	*fgp = room;
	*index = room->start + i;
	return 0;
}

uint32_t
mlx5v_rte_flow_layout_put(struct mlx5v_rte_flow_fg *fg, uint32_t index)
{
	uint32_t i = index - fg->start;

	if (index < fg->start || i >= fg->size || !bit_get(fg->used, i))
		return fg->nused;
	bit_put(fg->used, i, 0);
	return --fg->nused;
}

void
mlx5v_rte_flow_layout_fg_free(struct mlx5v_rte_flow_table *t, struct mlx5v_rte_flow_fg *fg)
{
	chunks_put(t, fg->start / MLX5V_RTE_FLOW_CHUNK_MIN, fg->size / MLX5V_RTE_FLOW_CHUNK_MIN, 0);
	TAILQ_REMOVE(&t->fgs, fg, next);
	rte_free(fg);
}

void
mlx5v_rte_flow_layout_clear(struct mlx5v_rte_flow_table *t)
{
	struct mlx5v_rte_flow_fg *fg;

	if (t->fgs.tqh_last == NULL)
		return;
	while ((fg = TAILQ_FIRST(&t->fgs)) != NULL)
		mlx5v_rte_flow_layout_fg_free(t, fg);
}
