/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Health of the model: heartbeat, fatal syndromes, NIC interface and PCI link. */

#include "mlx5v_sim_priv.h"

void
mlx5v_sim_health_init(struct mlx5v_sim *sim)
{
	/* Start at 1: [R] counts a counter stuck at its initial 0 as a miss (prm/mlx5 §4.4). */
	__atomic_store_n(&sim->health_counter, 1, __ATOMIC_RELAXED);
	sim->health_next_ns = hwsim_now_ns();
	sim->health_rfr = 0;
	sim->health_synd = 0;
	sim->health_ext_synd = 0;
}

/*
 * Engine thread, every pass. The default period (100 ms) is far below the 1 s [R] and 2 s [K] poll
 * intervals (prm/mlx5 §4.4), so no poll sees the same count twice.
 */
int
mlx5v_sim_health_tick(struct mlx5v_sim *sim, uint64_t now)
{
	uint64_t period;

	/* Only the engine thread touches health_next_ns. */
	if (now < sim->health_next_ns)
		return 0;
	period = (uint64_t)mlx5v_sim_knob(sim, MLX5V_SIM_K_HEALTH_PERIOD_MS) * 1000000ull;
	sim->health_next_ns = now + period;
	/*
	 * health_freeze fault: after 3 polls without progress both drivers declare the device dead
	 * (prm/mlx5 §4.4 miss limit).
	 */
	if (mlx5v_sim_knob(sim, MLX5V_SIM_K_HEALTH_FREEZE) != 0)
		return 0;
	/* Bits 31:24 stay 0: the increment wraps within 24 bits (prm/mlx5 §4.4). */
	__atomic_store_n(&sim->health_counter,
			 (__atomic_load_n(&sim->health_counter, __ATOMIC_RELAXED) + 1) &
			 MLX5V_SIM_CTR_MASK, __ATOMIC_RELAXED);
	return 1;
}

void
mlx5v_sim_health_fatal_locked(struct mlx5v_sim *sim, uint8_t synd)
{
	/* Fatal sensor 5 is RFR set and synd != 0 (prm/mlx5 §4.3); synd 0 clears both. */
	sim->health_rfr = synd != 0;
	sim->health_synd = synd;
	if (synd != 0)
		SIM_LOG(WARNING, "%s: health: fatal syndrome 0x%02x, recovery flow required",
			sim->name, synd);
}

void
mlx5v_sim_health_freeze(struct mlx5v_sim *sim, int freeze)
{
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_HEALTH_FREEZE, freeze != 0);
}

void
mlx5v_sim_health_fatal(struct mlx5v_sim *sim, uint8_t synd)
{
	pthread_mutex_lock(&sim->lock);
	/*
	 * Knob and buffer change together under the lock, so a knob read-back always matches the
	 * health buffer.
	 */
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_HEALTH_SYND, synd);
	mlx5v_sim_health_fatal_locked(sim, synd);
	pthread_mutex_unlock(&sim->lock);
}

void
mlx5v_sim_nic_interface_set(struct mlx5v_sim *sim, unsigned int state)
{
	pthread_mutex_lock(&sim->lock);
	/*
	 * Test hook for fatal sensors 3 and 4 (nic_interface 1 or 7, prm/mlx5 §4.3); 3 bits, as
	 * drivers read them (prm/mlx5 §1.2).
	 */
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_NIC_INTERFACE, state & MLX5V_NIC_IF_MASK);
	sim->nic_if = state & MLX5V_NIC_IF_MASK;
	pthread_mutex_unlock(&sim->lock);
}

void
mlx5v_sim_pci_offline(struct mlx5v_sim *sim, int offline)
{
	pthread_mutex_lock(&sim->lock);
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_PCI_OFFLINE, offline != 0);
	__atomic_store_n(&sim->pci_offline, offline != 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&sim->lock);
	/* Back online: let the engine look at anything queued meanwhile. */
	hwsim_engine_kick(sim->engine);
}
