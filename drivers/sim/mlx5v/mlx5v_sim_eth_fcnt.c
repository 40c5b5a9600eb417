/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Flow counters of the model (prm/mlx5_eth §4.10): ALLOC, DEALLOC and QUERY of single
 * counters; the receive path adds the frames and bytes a counting entry matched.
 */

#include <string.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_priv.h"


/* One counter per command: bulks (flow_counter_bulk) are not modelled. */
uint8_t
mlx5v_sim_cmd_alloc_flow_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth *e = sim->eth;
	uint32_t i;

	if (MLX5V_GET(alloc_flow_counter_in, c->in, flow_counter_bulk) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_FCNT_PARAM);
	for (i = 1; i < RTE_DIM(e->fcnt); i++)
		if (!e->fcnt[i].valid)
			break;
	if (i >= RTE_DIM(e->fcnt))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_FCNT_NONE);
	memset(&e->fcnt[i], 0, sizeof(e->fcnt[i]));
	e->fcnt[i].valid = 1;
	e->live[MLX5V_SIM_ETH_K_FCNT]++;
	MLX5V_SET(alloc_flow_counter_out, c->out, flow_counter_id, MLX5V_SIM_ETH_FCNT_BASE + i);
	return MLX5V_CMD_STAT_OK;
}

/* A counter an entry still counts into stays (prm/mlx5_eth §12: the entries go first). */
uint8_t
mlx5v_sim_cmd_dealloc_flow_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_fcnt *f = mlx5v_sim_eth_fcnt_get(
			sim, MLX5V_GET(dealloc_flow_counter_in, c->in, flow_counter_id));

	if (f == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FCNT_NUM);
	if (f->refs != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_FCNT_BUSY);
	f->valid = 0;
	sim->eth->live[MLX5V_SIM_ETH_K_FCNT]--;
	return MLX5V_CMD_STAT_OK;
}

/*
 * num_of_counters 0 or 1: one traffic_counter into the outbox (dump_to_memory is not
 * modelled); clear zeroes it after the read.
 */
uint8_t
mlx5v_sim_cmd_query_flow_counter(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_fcnt *f = mlx5v_sim_eth_fcnt_get(
			sim, MLX5V_GET(query_flow_counter_in, c->in, flow_counter_id));

	if (MLX5V_GET(query_flow_counter_in, c->in, num_of_counters) > 1 ||
			MLX5V_GET(query_flow_counter_in, c->in, dump_to_memory) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_FCNT_PARAM);
	if (f == NULL)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_ERR, MLX5V_SIM_SYND_FCNT_NUM);
	MLX5V_IFC_SET64(query_flow_counter_out, c->out, packets, f->packets);
	MLX5V_IFC_SET64(query_flow_counter_out, c->out, octets, f->octets);
	if (MLX5V_GET(query_flow_counter_in, c->in, clear)) {
		f->packets = 0;
		f->octets = 0;
	}
	return MLX5V_CMD_STAT_OK;
}
