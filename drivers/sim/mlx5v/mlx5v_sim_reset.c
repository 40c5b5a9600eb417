/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Function level reset of the model in place (the vdev's VFIO_DEVICE_RESET): the
 * device forgets its life, the host keeps its mappings (doc/guides/sim/mlx5v_sim.rst,
 * "Function reset").
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_ether.h>

#include "mlx5v_sim_eth.h"
#include "mlx5v_sim_priv.h"

/* The reset_fail knob: 1 (and one counted down) if this reset must fail, else 0. */
static int
mlx5v_sim_reset_refused(struct mlx5v_sim *sim)
{
	int64_t n = mlx5v_sim_knob(sim, MLX5V_SIM_K_RESET_FAIL);

	if (n <= 0)
		return 0;
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_RESET_FAIL, n - 1);
	SIM_LOG(WARNING, "%s: function reset refused (reset_fail, %" PRId64 " left)", sim->name,
		n - 1);
	return 1;
}

/* Every EQ and CQ forgotten, zombies included: the reset ends them without a destroy. */
static void
mlx5v_sim_reset_queues(struct mlx5v_sim *sim)
{
	unsigned int i;

	mlx5v_sim_cq_free_all(sim);
	for (i = 0; i <= MLX5V_SIM_MAX_CQN; i++)
		memset(&sim->cq[i], 0, sizeof(sim->cq[i]));
	mlx5v_sim_eq_free_all(sim);
	memset(sim->eq, 0, sizeof(sim->eq));
	sim->nb_cqs = 0;
	sim->nb_eqs = 0;
	sim->nb_zombies = 0;
	sim->zip_head = 0;
}

/*
 * The Ethernet function starts over: objects, steering and the vport context go. The
 * permanent MAC and the carrier are the port's and the wire's, not the function's.
 */
static int
mlx5v_sim_reset_eth(struct mlx5v_sim *sim)
{
	uint8_t mac[RTE_ETHER_ADDR_LEN];
	int carrier;

	memcpy(mac, sim->eth->port.perm_mac, sizeof(mac));
	carrier = sim->eth->port.carrier;
	mlx5v_sim_eth_fini(sim);
	if (mlx5v_sim_eth_init(sim) != 0)
		return -ENOMEM;
	memcpy(sim->eth->port.perm_mac, mac, sizeof(mac));
	sim->eth->port.carrier = carrier;
	return 0;
}

int
mlx5v_sim_func_reset(struct mlx5v_sim *sim)
{
	unsigned int i;
	int ret;

	if (mlx5v_sim_reset_refused(sim))
		return -EIO;
	pthread_mutex_lock(&sim->lock);
	/* A reset brings the function back onto the bus and ends the faults of a dead device. */
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_HEALTH_FREEZE, 0);
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_HEALTH_SYND, 0);
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_NIC_INTERFACE, -1);
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_PCI_OFFLINE, 0);
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_CMD_HANG, 0);
	__atomic_store_n(&sim->pci_offline, 0, __ATOMIC_RELAXED);
	/* Commands in flight are lost: their slots never complete. */
	sim->db_pending = 0;
	memset(sim->slot, 0, sizeof(sim->slot));
	mlx5v_sim_reset_queues(sim);
	mlx5v_sim_pages_free(sim);
	sim->ec_pages_wanted = 0;
	/* UAR pages stay mapped (BAR pages); their allocations end, so doorbells are caught. */
	for (i = 0; i < MLX5V_SIM_NUM_UARS; i++)
		mlx5v_sim_uar_end(&sim->uar[i]);
	sim->nb_uars = 0;
	__atomic_store_n(&sim->uar_size, MLX5V_UAR_PAGE_SIZE, __ATOMIC_RELAXED);
	sim->issi = 0;
	sim->fast_teardown_prepared = 0;
	sim->roce_en = 0;
	sim->checksum_cap = 0;
	sim->cmd_sig_on = 0;
	memset(sim->host_endianness, 0, sizeof(sim->host_endianness));
	ret = mlx5v_sim_reset_eth(sim);
	/* As at creation: the queue address cleared, HCA disabled, booting for boot_ms. */
	mlx5v_sim_iseg_init(sim);
	mlx5v_sim_health_init(sim);
	mlx5v_sim_caps_init(sim);
	pthread_mutex_unlock(&sim->lock);
	/*
	 * A mapped init segment (mlx5v_sim_bar_export()) shows each register as the engine last
	 * published it, and a store of the published value is invisible: the reset completes
	 * once the engine published the reset values (two passes), or the driver's first store
	 * after it of the command queue address it had before would be lost.
	 */
	if (__atomic_load_n(&sim->iseg_mapped, __ATOMIC_ACQUIRE) != 0 &&
	    mlx5v_sim_bar_sync(sim) != 0)
		SIM_LOG(WARNING, "%s: function reset: mapped registers not published (engine held)",
			sim->name);
	else
		hwsim_engine_kick(sim->engine);
	SIM_LOG(INFO, "%s: function reset%s", sim->name, ret != 0 ? " (no memory)" : "");
	return ret;
}
