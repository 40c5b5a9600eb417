/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Firmware pages in the model: QUERY_PAGES, MANAGE_PAGES and page requests. */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5v_sim_priv.h"

/*
 * Held pages form a sorted array, so a duplicate GIVE is found in O(log n) even after a page storm.
 * Every caller holds the lock.
 */
/* @return the index of the first held page >= pa (binary search over the sorted set). */
static uint32_t
mlx5v_sim_pages_lower(const struct mlx5v_sim *sim, uint64_t pa)
{
	uint32_t lo = 0;
	uint32_t hi = sim->nb_pages;
	uint32_t mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (sim->pages[mid] < pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Add pa to the held set. @return 0, -EEXIST, -ENOMEM. */
static int
mlx5v_sim_pages_add(struct mlx5v_sim *sim, uint64_t pa)
{
	uint32_t i = mlx5v_sim_pages_lower(sim, pa);
	uint64_t *grown;
	uint32_t cap;

	if (i < sim->nb_pages && sim->pages[i] == pa)
		return -EEXIST;
	if (sim->nb_pages == sim->pages_cap) {
		cap = sim->pages_cap == 0 ? 64 : sim->pages_cap * 2;
		grown = realloc(sim->pages, (size_t)cap * sizeof(*grown));
		if (grown == NULL)
			return -ENOMEM;
		sim->pages = grown;
		sim->pages_cap = cap;
	}
	memmove(&sim->pages[i + 1], &sim->pages[i],
		(size_t)(sim->nb_pages - i) * sizeof(*sim->pages));
	sim->pages[i] = pa;
	sim->nb_pages++;
	return 0;
}

/* Undo of a partial GIVE only; an absent page is ignored. */
static void
mlx5v_sim_pages_del(struct mlx5v_sim *sim, uint64_t pa)
{
	uint32_t i = mlx5v_sim_pages_lower(sim, pa);

	if (i >= sim->nb_pages || sim->pages[i] != pa)
		return;
	memmove(&sim->pages[i], &sim->pages[i + 1],
		(size_t)(sim->nb_pages - i - 1) * sizeof(*sim->pages));
	sim->nb_pages--;
}

void
mlx5v_sim_pages_free(struct mlx5v_sim *sim)
{
	free(sim->pages);
	sim->pages = NULL;
	sim->nb_pages = 0;
	sim->pages_cap = 0;
}

/*
 * QUERY_PAGES (prm/mlx5 §5): what the device still needs for the stage. The answer counts what
 * is already held, so a driver that queries twice does not give twice:
 * boot = boot_pages - held, init = boot_pages + init_pages - held, post-init = 0.
 */
uint8_t
mlx5v_sim_cmd_query_pages(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	int64_t boot = mlx5v_sim_knob(sim, MLX5V_SIM_K_BOOT_PAGES);
	int64_t init = mlx5v_sim_knob(sim, MLX5V_SIM_K_INIT_PAGES);
	int64_t need = 0;

	/*
	 * Only the host's function 0 exists. DW2[31] is read under its manage_pages_in name
	 * (embedded_cpu_function, prm/mlx5 §5.1): reserved or not, it must be 0.
	 */
	if (MLX5V_IFC_GET(query_pages_in, c->in, function_id) != 0 ||
			MLX5V_IFC_GET(manage_pages_in, c->in, embedded_cpu_function) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_PAGES_FUNC);
	if (c->op_mod == MLX5V_QUERY_PAGES_BOOT)
		need = boot - (int64_t)sim->nb_pages;
	else if (c->op_mod == MLX5V_QUERY_PAGES_INIT)
		need = boot + init - (int64_t)sim->nb_pages;
	/*
	 * Post-init (op_mod 3) answers 0: later needs arrive as PAGE_REQUEST events
	 * (prm/mlx5 §2.1). num_pages is signed but never negative at bring-up (prm/mlx5 §5.2).
	 */
	MLX5V_IFC_SET(query_pages_out, c->out, function_id, 0);
	MLX5V_IFC_SET(query_pages_out, c->out, num_pages, (uint32_t)(need > 0 ? need : 0));
	return MLX5V_CMD_STAT_OK;
}

/* GIVE: every page mapped, 4 KiB aligned, nonzero and new; all or nothing. */
static uint8_t
mlx5v_sim_pages_give(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, uint32_t n)
{
	uint64_t pa = 0;
	uint32_t i;
	uint32_t j;
	uint32_t synd = 0;

	for (i = 0; i < n && synd == 0; i++) {
		pa = MLX5V_IFC_ARRAY_GET64(manage_pages_in, c->in, pas, i);
		/* [K]: "Firmware doesn't support page with physical address 0" (prm/mlx5 §5.2). */
		if (pa == 0)
			synd = MLX5V_SIM_SYND_PAGE_ZERO;
		else if (pa % MLX5V_ADAPTER_PAGE_SIZE != 0)
			synd = MLX5V_SIM_SYND_PAGE_ALIGN;
		else if (!hwsim_dma_check(sim->dma, pa, MLX5V_ADAPTER_PAGE_SIZE))
			synd = MLX5V_SIM_SYND_PAGE_UNMAPPED;
	}
	if (synd != 0) {
		SIM_LOG(WARNING, "%s: MANAGE_PAGES GIVE: bad page #%u 0x%" PRIx64, sim->name,
			i - 1, pa);
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, synd);
	}
	/*
	 * The model's capacity is finite: LIM_ERR (0x08), ENOMEM in both drivers (prm/mlx5 §3.8).
	 */
	if ((uint64_t)sim->nb_pages + n > MLX5V_SIM_MAX_PAGES)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_PAGES_LIMIT);
	for (i = 0; i < n; i++) {
		pa = MLX5V_IFC_ARRAY_GET64(manage_pages_in, c->in, pas, i);
		/*
		 * All or nothing: after a failed GIVE the driver frees every page it offered ([R]
		 * leaks them, prm/mlx5 §12 #14), so the model must hold none of them.
		 */
		if (mlx5v_sim_pages_add(sim, pa) == 0)
			continue;
		/* Duplicate (or no memory): undo this command's pages. */
		for (j = 0; j < i; j++)
			mlx5v_sim_pages_del(sim,
					    MLX5V_IFC_ARRAY_GET64(manage_pages_in, c->in, pas, j));
		SIM_LOG(WARNING, "%s: MANAGE_PAGES GIVE: page 0x%" PRIx64 " given twice",
			sim->name, pa);
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_PAGE_DUP);
	}
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_manage_pages(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint32_t n = MLX5V_IFC_GET(manage_pages_in, c->in, input_num_entries);
	int ec = MLX5V_IFC_GET(manage_pages_in, c->in, embedded_cpu_function);
	uint8_t status;
	uint32_t k;
	uint32_t room;
	uint32_t i;

	/*
	 * The embedded-CPU function exists only while the model asked pages for it
	 * (request_pages_ec): the answer must forward ec_function as embedded_cpu_function.
	 */
	if (MLX5V_IFC_GET(manage_pages_in, c->in, function_id) != 0 ||
			(ec && (sim->ec_pages_wanted == 0 ||
				c->op_mod == MLX5V_MANAGE_PAGES_TAKE)))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_PAGES_FUNC);
	if (ec && c->op_mod == MLX5V_MANAGE_PAGES_CANT_GIVE) {
		sim->ec_pages_wanted = 0;
		return MLX5V_CMD_STAT_OK;
	}
	switch (c->op_mod) {
	case MLX5V_MANAGE_PAGES_GIVE:
		/*
		 * pas[] must fit in the input: a count beyond it is BAD_INP_LEN (0x50,
		 * prm/mlx5 §3.8).
		 */
		if ((uint64_t)MLX5V_IFC_BYTE_OFF(manage_pages_in, pas) + 8ull * n > c->inlen)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
						 MLX5V_SIM_SYND_PAGES_NENT);
		status = mlx5v_sim_pages_give(sim, c, n);
		if (status == MLX5V_CMD_STAT_OK && ec) {
			sim->ec_pages_wanted -= RTE_MIN(n, sim->ec_pages_wanted);
			__atomic_fetch_add(&sim->ctr[MLX5V_SIM_CTR_EC_PAGES], n, __ATOMIC_RELAXED);
		}
		return status;
	case MLX5V_MANAGE_PAGES_TAKE:
		/* [R] rule: output_num_entries <= input_num_entries; also bounded by outlen. */
		room = (c->outlen - MLX5V_IFC_BYTE_OFF(manage_pages_out, pas)) / 8;
		/*
		 * TAKE never fails: fewer pages, even none, is allowed; the driver frees what
		 * output_num_entries lists (prm/mlx5 §5.2).
		 */
		k = RTE_MIN(RTE_MIN(n, sim->nb_pages), room);
		for (i = 0; i < k; i++) {
			/* Hand back the highest pages first; the order is not part of the PRM. */
			MLX5V_IFC_ARRAY_SET64(manage_pages_out, c->out, pas, i,
					      sim->pages[sim->nb_pages - 1]);
			sim->nb_pages--;
		}
		MLX5V_IFC_SET(manage_pages_out, c->out, output_num_entries, k);
		return MLX5V_CMD_STAT_OK;
	default:
		/* CANT_GIVE: the driver could not satisfy a request; nothing to undo. */
		SIM_LOG(NOTICE, "%s: driver answered a page request with CANT_GIVE", sim->name);
		return MLX5V_CMD_STAT_OK;
	}
}

int
mlx5v_sim_pages_request_locked(struct mlx5v_sim *sim, int32_t num_pages)
{
	return mlx5v_sim_pages_request_ec_locked(sim, num_pages, 0);
}

int
mlx5v_sim_pages_request_ec_locked(struct mlx5v_sim *sim, int32_t num_pages,
				  uint16_t ec_function)
{
	uint8_t data[28];
	struct mlx5v_sim_eq *eq;
	uint32_t eqn;

	/* Routed by event_bitmask (prm/mlx5 §6.4); with no subscriber there is nobody to ask. */
	eqn = mlx5v_sim_eq_subscriber(sim, RTE_PMD_MLX5V_EVENT_PAGE_REQUEST);
	eq = mlx5v_sim_eq_get(sim, eqn);
	if (eq == NULL)
		return -ENOENT;
	/* EQE 0x20 ec_function, 0x22 func_id, 0x24 signed num_pages (prm/mlx5 §5.2). */
	memset(data, 0, sizeof(data));
	/*
	 * func_id stays 0 (the host). Negative num_pages asks the driver to reclaim
	 * (prm/mlx5 §5.2). "Release all" means the device has already let go of every page: the
	 * driver frees them locally, with no MANAGE_PAGES.
	 */
	if (ec_function & MLX5V_SIM_EC_RELEASE_ALL)
		sim->nb_pages = 0;
	if (ec_function & MLX5V_SIM_EC_EMBEDDED_CPU)
		sim->ec_pages_wanted += num_pages > 0 ? (uint32_t)num_pages : 0;
	MLX5V_IFC_SET(eqe_page_req, data, ec_function, ec_function);
	MLX5V_IFC_SET(eqe_page_req, data, num_pages, (uint32_t)num_pages);
	return mlx5v_sim_eq_post(sim, eq, RTE_PMD_MLX5V_EVENT_PAGE_REQUEST, 0, data);
}

int
mlx5v_sim_request_pages(struct mlx5v_sim *sim, int32_t num_pages)
{
	int ret;

	pthread_mutex_lock(&sim->lock);
	ret = mlx5v_sim_pages_request_locked(sim, num_pages);
	pthread_mutex_unlock(&sim->lock);
	mlx5v_sim_irq_flush(sim);
	return ret;
}
