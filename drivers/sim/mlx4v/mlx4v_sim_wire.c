/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The ports of the simulated ConnectX-3 on the shared wire: devargs (wire=, wire<N>=,
 * mac=, speed=, and mode= as their shorthand), the send queue of an engine pass, frames from
 * the wire into the receive side, and per-port link state with its port events
 * (doc/guides/sim/mlx4v_sim.rst, doc/guides/sim/wire.rst).
 *
 * Locking: sim->tx_lock serialises the send side of every port (the wire allows one sender per
 * port) and is taken before sim->lock. Frames leave with sim->lock released, because the
 * receiver (this device on a loop or a pair of its own ports, or the peer device) takes its
 * model lock in the rx callback. sim->link_lock serialises the link reports.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_kvargs.h>

#include "mlx4v_class.h"
#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

/* A ConnectX-3 port runs 40GbE: the default speed=. */
#define MLX4V_SIM_DEF_SPEED 40000

/* The wire spec mode= gives a port: loopback loops, pair crosses 1<->2 and 3<->4. */
static void
mlx4v_sim_wire_mode_spec(const struct mlx4v_sim *sim, unsigned int port, char *spec,
			 size_t len)
{
	unsigned int peer = ((port - 1) ^ 1) + 1;

	/* An odd last port has no partner and loops back. */
	if (sim->pair && peer <= sim->nports)
		snprintf(spec, len, "pair:%s.%u", sim->name, peer);
	else
		snprintf(spec, len, "loop");
}

/*
 * mode= is a shorthand for the wires of every port. A wire<N>= next to it must say the same
 * thing for its port, or the devargs contradict each other. @return 0 or -EINVAL (logged).
 */
static int
mlx4v_sim_wire_mode_check(struct mlx4v_sim *sim, const struct rte_kvargs *kv)
{
	char spec[HWSIM_WIRE_SPEC_LEN];
	const struct rte_kvargs_pair *p;
	unsigned int i, port;

	for (i = 0; kv != NULL && i < kv->count; i++) {
		p = &kv->pairs[i];
		if (strncmp(p->key, "wire", 4) != 0 || !hwsim_wire_devargs_key(p->key))
			continue;
		/* hwsim_wire_devargs_parse() accepted the key: "wire" or "wire<1..nports>". */
		port = p->key[4] == '\0' ? 1 : (unsigned int)strtoul(p->key + 4, NULL, 10);
		mlx4v_sim_wire_mode_spec(sim, port, spec, sizeof(spec));
		if (strcmp(spec, sim->wa.wire[port - 1]) == 0)
			continue;
		MLX4V_SIM_LOG(ERR, "%s: %s=%s conflicts with mode=%s (port %u is %s there): "
			      "mode= is a shorthand for the wires, give one or the other",
			      sim->name, p->key, p->value, sim->pair ? "pair" : "loopback", port,
			      spec);
		return -EINVAL;
	}
	return 0;
}

int
mlx4v_sim_wire_args(struct mlx4v_sim *sim, const struct rte_kvargs *kv)
{
	unsigned int i;
	int ret;

	ret = hwsim_wire_devargs_parse(kv, sim->name, sim->nports, MLX4V_SIM_DEF_SPEED,
				       &sim->wa);
	if (ret != 0 || !sim->mode_given)
		return ret;
	ret = mlx4v_sim_wire_mode_check(sim, kv);
	if (ret != 0)
		return ret;
	for (i = 1; i <= sim->nports; i++)
		mlx4v_sim_wire_mode_spec(sim, i, sim->wa.wire[i - 1], sizeof(sim->wa.wire[0]));
	return 0;
}

/*
 * A frame from the wire on port p. It runs in the sender's thread (this device's flush for a
 * loop, the peer's for a pair, the TAP reader), never with this device's model lock held.
 */
static void
mlx4v_sim_wire_rx(void *arg, const void *frame, uint32_t len, uint32_t flags)
{
	struct mlx4v_sim_port *p = arg;
	struct mlx4v_sim *sim = p->sim;

	pthread_mutex_lock(&sim->lock);
	/* The link gate: the engine may not have reported a change yet. */
	if (!hwsim_wire_link_up(p->wire))
		p->st.rx_link_down++;
	/* A receiving MAC drops a frame with a bad FCS before any steering. */
	else if (flags & HWSIM_WIRE_RX_FCS_BAD)
		p->st.rx_fcs_bad++;
	else if (len > MLX4V_SIM_MAX_PKT)
		p->st.rx_too_long++;
	/* The port's largest frame, from its netdev's MTU: header and one VLAN tag beyond it. */
	else if (len > (uint32_t)__atomic_load_n(&p->mtu, __ATOMIC_RELAXED) + MLX4V_SIM_L2_HLEN)
		p->st.rx_over_mtu++;
	else
		mlx4v_sim_rq_deliver(sim, p->port_no, frame, len);
	pthread_mutex_unlock(&sim->lock);
}

/*
 * The wire's link callback: it runs with the wire's registry lock held, possibly in a thread
 * of another device, so it only notes the change and wakes the engine, which reports it.
 */
static void
mlx4v_sim_wire_link_cb(void *arg, int up)
{
	struct mlx4v_sim_port *p = arg;
	struct hwsim_engine *e;

	/* A down seen between two reports is reported even if the link is back (a flap). */
	if (!up)
		__atomic_store_n(&p->down_seen, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&p->link_dirty, 1, __ATOMIC_RELEASE);
	e = __atomic_load_n(&p->sim->engine, __ATOMIC_ACQUIRE);
	if (e != NULL)
		hwsim_engine_kick(e);
}

int
mlx4v_sim_wire_init(struct mlx4v_sim *sim)
{
	struct hwsim_wire_port_conf conf;
	struct mlx4v_sim_port *p;
	unsigned int i;
	int ret;

	pthread_mutex_init(&sim->tx_lock, NULL);
	pthread_mutex_init(&sim->link_lock, NULL);
	sim->txq_buf = malloc(MLX4V_SIM_TXQ_BYTES);
	if (sim->txq_buf == NULL) {
		ret = -ENOMEM;
		goto error;
	}
	for (i = 0; i < sim->nports; i++) {
		p = &sim->ports[i];
		p->sim = sim;
		p->port_no = i + 1;
		hwsim_wire_mac_port(&sim->wa.mac, p->port_no, &p->mac);
		p->mtu = RTE_ETHER_MTU;
		memset(&conf, 0, sizeof(conf));
		conf.dev_name = sim->name;
		conf.port_no = p->port_no;
		conf.nports = sim->nports;
		conf.spec = sim->wa.wire[i];
		conf.speed = sim->wa.speed;
		conf.rx_cb = mlx4v_sim_wire_rx;
		conf.link_cb = mlx4v_sim_wire_link_cb;
		conf.cb_arg = p;
		p->wire = hwsim_wire_port_create(&conf);
		if (p->wire == NULL) {
			/* hwsim_wire_port_create() logged why. */
			ret = -rte_errno;
			goto error;
		}
	}
	/* The state at creation is the starting point: only later changes are events. */
	for (i = 0; i < sim->nports; i++) {
		p = &sim->ports[i];
		/* A netdev down at probe (netdev_down=): the port closed, as mlx4_en leaves it. */
		if ((mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_NETDEV_DOWN) >> i) & 1)
			hwsim_wire_set_admin(p->wire, 0);
		__atomic_store_n(&p->link_dirty, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&p->down_seen, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&p->oper, hwsim_wire_link_up(p->wire), __ATOMIC_RELEASE);
	}
	return 0;
error:
	mlx4v_sim_wire_fini(sim);
	return ret;
}

void
mlx4v_sim_wire_fini(struct mlx4v_sim *sim)
{
	unsigned int i;

	/* Each destroy waits for a callback in flight: nothing reaches the model afterwards. */
	for (i = 0; i < MLX4V_SIM_MAX_PORTS; i++) {
		hwsim_wire_port_destroy(sim->ports[i].wire);
		sim->ports[i].wire = NULL;
	}
	free(sim->txq_buf);
	sim->txq_buf = NULL;
	pthread_mutex_destroy(&sim->link_lock);
	pthread_mutex_destroy(&sim->tx_lock);
}

int
mlx4v_sim_wire_room(const struct mlx4v_sim *sim)
{
	return sim->txq_n < MLX4V_SIM_TXQ_FRAMES &&
	       sim->txq_bytes + MLX4V_SIM_MAX_PKT <= MLX4V_SIM_TXQ_BYTES;
}

void
mlx4v_sim_wire_queue(struct mlx4v_sim *sim, unsigned int port, const uint8_t *pkt,
		     uint32_t len)
{
	/* The SQ walk checks mlx4v_sim_wire_room() before each WQE: this cannot overflow. */
	if (!mlx4v_sim_wire_room(sim) || len > MLX4V_SIM_MAX_PKT || port < 1 ||
	    port > sim->nports)
		return;
	memcpy(sim->txq_buf + sim->txq_bytes, pkt, len);
	sim->txq[sim->txq_n].port = port;
	sim->txq[sim->txq_n].off = sim->txq_bytes;
	sim->txq[sim->txq_n].len = len;
	sim->txq_n++;
	sim->txq_bytes += len;
}

int
mlx4v_sim_wire_flush(struct mlx4v_sim *sim)
{
	struct mlx4v_sim_port *p;
	unsigned int i, n = sim->txq_n;

	for (i = 0; i < n; i++) {
		p = &sim->ports[sim->txq[i].port - 1];
		/* A real port cannot tell what became of a frame; only a dead link is counted. */
		if (hwsim_wire_send(p->wire, sim->txq_buf + sim->txq[i].off,
				    sim->txq[i].len) == -ENOLINK)
			__atomic_fetch_add(&p->tx_link_down, 1, __ATOMIC_RELAXED);
	}
	sim->txq_n = 0;
	sim->txq_bytes = 0;
	return (int)n;
}

/* One port event to the class drivers, as the verbs async event PORT_ACTIVE / PORT_ERR. */
static void
mlx4v_sim_wire_event(struct mlx4v_sim_port *p, int up)
{
	if (up)
		__atomic_fetch_add(&p->link_up_events, 1, __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(&p->link_down_events, 1, __ATOMIC_RELAXED);
	mlx4v_sim_port_event(p->sim, p->port_no, up);
}

/*
 * Report what the wire changed: an event per operational change, and down then up for a flap
 * that happened between two reports. Engine thread or a caller of the link API, no model lock
 * held (the class drivers' event callbacks may call back into the simulator).
 */
int
mlx4v_sim_wire_link_poll(struct mlx4v_sim *sim)
{
	struct mlx4v_sim_port *p;
	unsigned int i;
	int was, up, work = 0;

	pthread_mutex_lock(&sim->link_lock);
	for (i = 0; i < sim->nports; i++) {
		p = &sim->ports[i];
		if (__atomic_exchange_n(&p->link_dirty, 0, __ATOMIC_ACQUIRE) == 0)
			continue;
		work++;
		was = __atomic_load_n(&p->oper, __ATOMIC_RELAXED);
		up = hwsim_wire_link_up(p->wire);
		__atomic_store_n(&p->oper, up, __ATOMIC_RELEASE);
		if (__atomic_exchange_n(&p->down_seen, 0, __ATOMIC_RELAXED) && was && up) {
			MLX4V_SIM_LOG(INFO, "%s: port %u: link flap", sim->name, p->port_no);
			mlx4v_sim_wire_event(p, 0);
			mlx4v_sim_wire_event(p, 1);
		} else if (up != was) {
			MLX4V_SIM_LOG(INFO, "%s: port %u: link %s", sim->name, p->port_no,
				      up ? "up" : "down");
			mlx4v_sim_wire_event(p, up);
		}
	}
	pthread_mutex_unlock(&sim->link_lock);
	return work;
}

/* @return the port, or NULL for a device or port number that does not exist. */
static struct mlx4v_sim_port *
mlx4v_sim_wire_port_get(struct mlx4v_sim *sim, unsigned int port)
{
	if (sim == NULL || port < 1 || port > sim->nports)
		return NULL;
	return &sim->ports[port - 1];
}

/* On return the port state and its events already agree with the cable. */
static int
mlx4v_sim_wire_sync(struct mlx4v_sim *sim, int ret)
{
	mlx4v_sim_wire_link_poll(sim);
	return ret;
}

int
mlx4v_sim_link_set(struct mlx4v_sim *sim, unsigned int port, int up)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	if (p == NULL)
		return -EINVAL;
	return mlx4v_sim_wire_sync(sim, hwsim_wire_link_set(p->wire, up != 0));
}

int
mlx4v_sim_link_flap(struct mlx4v_sim *sim, unsigned int port)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	if (p == NULL)
		return -EINVAL;
	return mlx4v_sim_wire_sync(sim, hwsim_wire_flap(p->wire));
}

int
mlx4v_sim_port_admin_set(struct mlx4v_sim *sim, unsigned int port, int up)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	if (p == NULL)
		return -EINVAL;
	return mlx4v_sim_wire_sync(sim, hwsim_wire_set_admin(p->wire, up != 0));
}

int
mlx4v_sim_port_mtu_set(struct mlx4v_sim *sim, unsigned int port, uint16_t mtu)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	if (p == NULL || mtu < RTE_ETHER_MIN_MTU || mtu > MLX4V_SIM_MAX_MTU)
		return -EINVAL;
	__atomic_store_n(&p->mtu, mtu, __ATOMIC_RELAXED);
	return 0;
}

uint16_t
mlx4v_sim_port_mtu_get(struct mlx4v_sim *sim, unsigned int port)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	return p != NULL ? __atomic_load_n(&p->mtu, __ATOMIC_RELAXED) : 0;
}

int
mlx4v_sim_link_get(struct mlx4v_sim *sim, unsigned int port)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	if (p == NULL)
		return -EINVAL;
	/* Lock-free: a class driver may ask from inside its port event callback. */
	return __atomic_load_n(&p->oper, __ATOMIC_ACQUIRE);
}

uint32_t
mlx4v_sim_link_speed(struct mlx4v_sim *sim, unsigned int port)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	return p != NULL ? hwsim_wire_speed(p->wire) : 0;
}

int
mlx4v_sim_port_mac(struct mlx4v_sim *sim, unsigned int port, struct rte_ether_addr *mac)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	if (p == NULL || mac == NULL)
		return -EINVAL;
	*mac = p->mac;
	return 0;
}

const char *
mlx4v_sim_port_wire(struct mlx4v_sim *sim, unsigned int port)
{
	/* Set at probe and never changed: no lock. */
	return mlx4v_sim_wire_port_get(sim, port) != NULL ? sim->wa.wire[port - 1] : NULL;
}

struct hwsim_wire_port *
mlx4v_sim_wire_port(struct mlx4v_sim *sim, unsigned int port)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	return p != NULL ? p->wire : NULL;
}

int
mlx4v_sim_port_stats_get(struct mlx4v_sim *sim, unsigned int port,
			 struct mlx4v_sim_port_stats *st)
{
	struct mlx4v_sim_port *p = mlx4v_sim_wire_port_get(sim, port);

	if (p == NULL || st == NULL)
		return -EINVAL;
	pthread_mutex_lock(&sim->lock);
	*st = p->st;
	pthread_mutex_unlock(&sim->lock);
	st->tx_link_down = __atomic_load_n(&p->tx_link_down, __ATOMIC_RELAXED);
	st->link_up_events = __atomic_load_n(&p->link_up_events, __ATOMIC_RELAXED);
	st->link_down_events = __atomic_load_n(&p->link_down_events, __ATOMIC_RELAXED);
	return 0;
}
