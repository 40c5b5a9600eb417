/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file EQs and CQs whose destroy failed: still alive, still writing into their rings. */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5v_sim_priv.h"

/*
 * A failed DESTROY_EQ/CQ leaves the object alive in firmware (prm/mlx5 §6.3, §7.1): it may
 * still write entries into its ring, until the function is disabled. The model touches the
 * first byte of every such ring at each later command (a read and a write back of the same
 * value, so nothing changes), through the IOMMU. A ring the driver unmapped, or whose IOVA
 * now translates to other memory, is a write into freed memory: counted, logged, skipped.
 */

/* Touch one ring; ring_host is where its first page was when the object was created. */
static void
mlx5v_sim_zombie_touch(struct mlx5v_sim *sim, const char *what, uint32_t num, uint64_t iova,
		       void *ring_host, uint8_t *reported)
{
	uint8_t b;

	if (hwsim_dma_translate(sim->dma, iova, 1, 1) == ring_host &&
	    hwsim_dma_read(sim->dma, iova, &b, 1) == 0 &&
	    hwsim_dma_write(sim->dma, iova, &b, 1) == 0)
		return;
	mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_FREED_RING_WRITES);
	if (!*reported)
		SIM_LOG(ERR, "%s: %s %u (destroy failed, still alive) writes its ring at 0x%"
			PRIx64 ", which the driver freed", sim->name, what, num, iova);
	*reported = 1;
}

void
mlx5v_sim_zombies_touch(struct mlx5v_sim *sim)
{
	unsigned int i;

	if (sim->nb_zombies == 0)
		return;
	for (i = 0; i <= MLX5V_SIM_MAX_EQN; i++) {
		struct mlx5v_sim_eq *eq = &sim->eq[i];

		if (eq->valid && eq->destroy_failed)
			mlx5v_sim_zombie_touch(sim, "EQ", i, eq->pas[0], eq->ring_host,
					       &eq->freed_reported);
	}
	for (i = 0; i <= MLX5V_SIM_MAX_CQN; i++) {
		struct mlx5v_sim_cq *cq = &sim->cq[i];

		if (cq->valid && cq->destroy_failed)
			mlx5v_sim_zombie_touch(sim, "CQ", i, cq->pas[0], cq->ring_host,
					       &cq->freed_reported);
	}
}

void
mlx5v_sim_destroy_failed(struct mlx5v_sim *sim, const struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eq *eq;
	struct mlx5v_sim_cq *cq;
	uint32_t num;

	/* A destroy too short to name its object failed on its length: nothing is kept. */
	if (c->opcode == MLX5V_CMD_OP_DESTROY_EQ &&
	    c->inlen >= MLX5V_IFC_BYTES(destroy_eq_in)) {
		num = MLX5V_IFC_GET(destroy_eq_in, c->in, eq_number);
		eq = mlx5v_sim_eq_get(sim, num);
		if (eq != NULL && !eq->destroy_failed) {
			eq->destroy_failed = 1;
			sim->nb_zombies++;
		}
	} else if (c->opcode == MLX5V_CMD_OP_DESTROY_CQ &&
		   c->inlen >= MLX5V_IFC_BYTES(destroy_cq_in)) {
		num = MLX5V_IFC_GET(destroy_cq_in, c->in, cqn);
		cq = num <= MLX5V_SIM_MAX_CQN ? &sim->cq[num] : NULL;
		if (cq != NULL && cq->valid && !cq->destroy_failed) {
			cq->destroy_failed = 1;
			sim->nb_zombies++;
		}
	}
}

void
mlx5v_sim_zombies_release(struct mlx5v_sim *sim)
{
	unsigned int i;

	if (sim->nb_zombies == 0)
		return;
	/* CQs first: each holds a reference on its EQ. */
	for (i = 0; i <= MLX5V_SIM_MAX_CQN; i++) {
		struct mlx5v_sim_cq *cq = &sim->cq[i];
		struct mlx5v_sim_eq *eq;

		if (!cq->valid || !cq->destroy_failed)
			continue;
		eq = mlx5v_sim_eq_get(sim, cq->eqn);
		if (eq != NULL && eq->ncq > 0)
			eq->ncq--;
		free(cq->pas);
		memset(cq, 0, sizeof(*cq));
		sim->nb_cqs--;
	}
	for (i = 0; i <= MLX5V_SIM_MAX_EQN; i++) {
		struct mlx5v_sim_eq *eq = &sim->eq[i];

		if (!eq->valid || !eq->destroy_failed)
			continue;
		free(eq->pas);
		memset(eq, 0, sizeof(*eq));
		sim->nb_eqs--;
	}
	sim->nb_zombies = 0;
}
