/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The Ethernet port on the simulated wire: devargs (wire=, mac=, speed=), the port's
 * link state (PAOS admin from the driver, operational state from the wire, PORT_CHANGE
 * events) and the link fault knobs (doc/guides/prm/mlx5_eth.rst §11, doc/guides/sim/wire.rst).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_kvargs.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_eth_dp.h"
#include "mlx5v_sim_priv.h"

/* The fastest link mode the model has (prm/mlx5_eth §11.3): the default speed=. */
#define MLX5V_SIM_ETH_DEF_SPEED 100000
/* One Ethernet port per mlx5 function (prm/mlx5_eth §1). */
#define MLX5V_SIM_ETH_PORT_NO 1

/*
 * The wire's link callback: it runs with the wire's registry lock held, possibly in a thread
 * holding sim->lock (a PAOS write reaching the wire), so it only notes the change and wakes
 * the engine, which applies it in mlx5v_sim_eth_dp_poll().
 */
static void
mlx5v_sim_eth_link_cb(void *arg, int up)
{
	struct mlx5v_sim *sim = arg;

	/* A down seen between two passes is reported even if the link is back (a flap). */
	if (!up)
		__atomic_store_n(&sim->dp->link_down_seen, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sim->dp->link_dirty, 1, __ATOMIC_RELEASE);
	if (sim->engine != NULL)
		hwsim_engine_kick(sim->engine);
}

/* Only the keys of the wire: the rest of the string belongs to the knob parser. */
static int
mlx5v_sim_eth_dp_args(struct mlx5v_sim *sim, const char *devargs, struct hwsim_wire_devargs *wa)
{
	struct rte_kvargs *kvl = NULL;
	int ret;

	if (devargs != NULL && devargs[0] != '\0') {
		kvl = rte_kvargs_parse(devargs, NULL);
		if (kvl == NULL) {
			SIM_LOG(ERR, "%s: cannot parse devargs \"%s\"", sim->name, devargs);
			return -EINVAL;
		}
	}
	ret = hwsim_wire_devargs_parse(kvl, sim->name, 1, MLX5V_SIM_ETH_DEF_SPEED, wa);
	rte_kvargs_free(kvl);
	return ret;
}

int
mlx5v_sim_eth_dp_check(struct mlx5v_sim *sim, const char *devargs)
{
	struct hwsim_wire_devargs wa;

	return mlx5v_sim_eth_dp_args(sim, devargs, &wa);
}

int
mlx5v_sim_eth_dp_init(struct mlx5v_sim *sim, const char *devargs)
{
	struct hwsim_wire_port_conf conf;
	struct mlx5v_sim_eth_dp *dp;
	int ret;

	dp = calloc(1, sizeof(*dp));
	if (dp == NULL)
		return -ENOMEM;
	pthread_mutex_init(&dp->tx_lock, NULL);
	sim->dp = dp;
	ret = mlx5v_sim_eth_dp_args(sim, devargs, &dp->wa);
	if (ret != 0)
		goto error;
	ret = -ENOMEM;
	dp->txbuf = malloc(MLX5V_SIM_TX_BUF);
	dp->segbuf = malloc(HWSIM_WIRE_FRAME_MAX + RTE_VLAN_HLEN);
	dp->rxbuf = malloc(HWSIM_WIRE_FRAME_MAX + RTE_ETHER_CRC_LEN);
	if (dp->txbuf == NULL || dp->segbuf == NULL || dp->rxbuf == NULL)
		goto error;
	/* mac= replaces the name-derived permanent MAC of the control side. */
	if (dp->wa.mac_given)
		memcpy(sim->eth->port.perm_mac, dp->wa.mac.addr_bytes, RTE_ETHER_ADDR_LEN);
	memset(&conf, 0, sizeof(conf));
	conf.dev_name = sim->name;
	conf.port_no = MLX5V_SIM_ETH_PORT_NO;
	conf.nports = 1;
	conf.spec = dp->wa.wire[0];
	conf.speed = dp->wa.speed;
	conf.rx_cb = mlx5v_sim_eth_rx;
	conf.batch_cb = mlx5v_sim_eth_rx_batch_end;
	conf.link_cb = mlx5v_sim_eth_link_cb;
	conf.cb_arg = sim;
	dp->port = hwsim_wire_port_create(&conf);
	if (dp->port == NULL) {
		/* hwsim_wire_port_create() logged why. */
		ret = -rte_errno;
		goto error;
	}
	dp->wire_admin = MLX5V_PAOS_UP;
	sim->eth->port.carrier = hwsim_wire_link_up(dp->port);
	return 0;
error:
	mlx5v_sim_eth_dp_fini(sim);
	return ret;
}

void
mlx5v_sim_eth_dp_fini(struct mlx5v_sim *sim)
{
	struct mlx5v_sim_eth_dp *dp = sim->dp;

	if (dp == NULL)
		return;
	/* Waits for a callback in flight, so nothing reaches the model afterwards. */
	hwsim_wire_port_destroy(dp->port);
	free(dp->txbuf);
	free(dp->segbuf);
	free(dp->rxbuf);
	pthread_mutex_destroy(&dp->tx_lock);
	free(dp);
	sim->dp = NULL;
}

/* PORT_CHANGE with port 1 at EQE 0x28 (prm/mlx5_eth §9, §11.2). Lock held. */
static void
mlx5v_sim_eth_dp_link_event(struct mlx5v_sim *sim, int up)
{
	uint8_t data[RTE_PMD_MLX5V_EQE_OWNER_OFF - RTE_PMD_MLX5V_EQE_DATA_OFF];

	memset(data, 0, sizeof(data));
	data[RTE_PMD_MLX5V_EQE_PORT_OFF - RTE_PMD_MLX5V_EQE_DATA_OFF] = MLX5V_SIM_ETH_PORT_NO << 4;
	mlx5v_sim_event_post(sim, RTE_PMD_MLX5V_EVENT_PORT_CHANGE,
			     up ? RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE : RTE_PMD_MLX5V_PORT_CHANGE_DOWN,
			     data, 0);
}

/*
 * Two directions, one pass. The driver's PAOS admin state goes to the wire (a down end takes
 * the link down at both ends of a pair); the wire's operational state comes back as the
 * port's carrier. The control side already reported a PAOS write that changed the state
 * (prm/mlx5_eth §11.2), so an event goes out only when the carrier changes what the driver
 * sees.
 */
int
mlx5v_sim_eth_dp_poll(struct mlx5v_sim *sim)
{
	struct mlx5v_sim_eth_dp *dp = sim->dp;
	struct mlx5v_sim_eth_port *p;
	uint32_t down_seen;
	int work = 0;
	int was_up;
	uint8_t admin;
	int up;

	if (dp == NULL)
		return 0;
	p = &sim->eth->port;
	/* The engine's every pass: nothing to do costs two loads, no lock. */
	admin = __atomic_load_n(&p->admin_status, __ATOMIC_RELAXED);
	if (admin == __atomic_load_n(&dp->wire_admin, __ATOMIC_RELAXED) &&
	    __atomic_load_n(&dp->link_dirty, __ATOMIC_ACQUIRE) == 0)
		return 0;
	pthread_mutex_lock(&sim->lock);
	admin = p->admin_status;
	if (admin != dp->wire_admin) {
		__atomic_store_n(&dp->wire_admin, admin, __ATOMIC_RELAXED);
		/* The wire calls mlx5v_sim_eth_link_cb(), which only sets link_dirty. */
		hwsim_wire_set_admin(dp->port, admin == MLX5V_PAOS_UP);
		work++;
	}
	if (__atomic_exchange_n(&dp->link_dirty, 0, __ATOMIC_ACQUIRE) != 0) {
		down_seen = __atomic_exchange_n(&dp->link_down_seen, 0, __ATOMIC_RELAXED);
		was_up = mlx5v_sim_eth_link_up(sim);
		p->carrier = hwsim_wire_link_up(dp->port);
		up = mlx5v_sim_eth_link_up(sim);
		if (was_up && up && down_seen) {
			SIM_LOG(INFO, "%s: link flap", sim->name);
			mlx5v_sim_eth_dp_link_event(sim, 0);
			mlx5v_sim_eth_dp_link_event(sim, 1);
		} else if (up != was_up) {
			SIM_LOG(INFO, "%s: link %s", sim->name, up ? "up" : "down");
			mlx5v_sim_eth_dp_link_event(sim, up);
		}
		work++;
	}
	pthread_mutex_unlock(&sim->lock);
	return work;
}

uint32_t
mlx5v_sim_eth_dp_speed(struct mlx5v_sim *sim)
{
	if (sim->dp == NULL)
		return MLX5V_SIM_ETH_DEF_SPEED;
	/* The wire's speed: a pair runs at its slower end. */
	return mlx5v_sim_eth_link_up(sim) ? hwsim_wire_speed(sim->dp->port) : 0;
}

/*
 * Apply a wire change now, in the caller's thread, instead of at the engine's next pass: on
 * return the port state, PAOS and the PORT_CHANGE events already agree with the cable.
 */
static int
mlx5v_sim_eth_dp_sync(struct mlx5v_sim *sim, int ret)
{
	mlx5v_sim_eth_dp_poll(sim);
	mlx5v_sim_irq_flush(sim);
	return ret;
}

void
mlx5v_sim_eth_dp_knob(struct mlx5v_sim *sim, unsigned int knob, int64_t v)
{
	struct hwsim_wire_port *port = sim->dp != NULL ? sim->dp->port : NULL;
	int64_t i;

	if (port == NULL)
		return;
	switch (knob) {
	case MLX5V_SIM_K_WIRE_DROP_NEXT:
		hwsim_wire_drop_next(port, v);
		break;
	case MLX5V_SIM_K_WIRE_CORRUPT_NEXT:
		hwsim_wire_corrupt_next(port, v);
		break;
	case MLX5V_SIM_K_LINK:
		hwsim_wire_link_set(port, v != 0);
		break;
	case MLX5V_SIM_K_LINK_FLAP:
		for (i = 0; i < v; i++) {
			hwsim_wire_flap(port);
			mlx5v_sim_eth_dp_sync(sim, 0);
		}
		break;
	default:
		return;
	}
	mlx5v_sim_eth_dp_sync(sim, 0);
}

int
mlx5v_sim_link_set(struct mlx5v_sim *sim, int up)
{
	if (sim == NULL || sim->dp == NULL)
		return -EINVAL;
	return mlx5v_sim_eth_dp_sync(sim, hwsim_wire_link_set(sim->dp->port, up != 0));
}

int
mlx5v_sim_link_flap(struct mlx5v_sim *sim)
{
	if (sim == NULL || sim->dp == NULL)
		return -EINVAL;
	return mlx5v_sim_eth_dp_sync(sim, hwsim_wire_flap(sim->dp->port));
}

int
mlx5v_sim_link_get(struct mlx5v_sim *sim)
{
	int up;

	if (sim == NULL)
		return 0;
	pthread_mutex_lock(&sim->lock);
	up = mlx5v_sim_eth_link_up(sim);
	pthread_mutex_unlock(&sim->lock);
	return up;
}

struct hwsim_wire_port *
mlx5v_sim_wire_port(struct mlx5v_sim *sim)
{
	return sim != NULL && sim->dp != NULL ? sim->dp->port : NULL;
}

int
mlx5v_sim_eth_stats_get(struct mlx5v_sim *sim, struct mlx5v_sim_eth_stats *st)
{
	if (sim == NULL || st == NULL || sim->dp == NULL)
		return -EINVAL;
	pthread_mutex_lock(&sim->lock);
	*st = sim->dp->st;
	pthread_mutex_unlock(&sim->lock);
	return 0;
}
