/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The wire: a process-wide registry of ports, cabling, link state, the frame path. */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_devargs.h>
#include <rte_errno.h>

#include "hwsim_fault.h"
#include "hwsim_log.h"
#include "hwsim_wire.h"
#include "hwsim_wire_priv.h"

struct hwsim_wire_registry {
	pthread_mutex_t lock;
	TAILQ_HEAD(, hwsim_wire_port) ports;
};

static const struct hwsim_knob_def hwsim_wire_knob_defs[HWSIM_WIRE_KNOB_NUM] = {
	[HWSIM_WIRE_KNOB_DROP_NEXT] = {
		.name = "drop_next", .def = 0, .min = 0, .max = INT32_MAX,
		.help = "lose the next N frames sent",
	},
	[HWSIM_WIRE_KNOB_CORRUPT_NEXT] = {
		.name = "corrupt_next", .def = 0, .min = 0, .max = INT32_MAX,
		.help = "flip a bit and mark a bad FCS in the next N frames sent",
	},
};

/*
 * The process-wide registry of ports. librte_hwsim is one library that every simulator links,
 * so a static registry is shared by mlx5v_sim and mlx4v_sim ports alike; it is process-local
 * like the device pointers it holds (a secondary process has its own, empty one).
 */
static struct hwsim_wire_registry hwsim_wire_reg = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.ports = TAILQ_HEAD_INITIALIZER(hwsim_wire_reg.ports),
};

/* @return the registry (never NULL; kept as a call for the callers' error paths). */
static struct hwsim_wire_registry *
hwsim_wire_registry(void)
{
	return &hwsim_wire_reg;
}

/* @return the port named name, or with by_dev any port of the device name; or NULL. */
static struct hwsim_wire_port *
hwsim_wire_lookup(struct hwsim_wire_registry *reg, const char *name, int by_dev)
{
	struct hwsim_wire_port *p;

	TAILQ_FOREACH(p, &reg->ports, next)
		if (strcmp(by_dev ? p->dev_name : p->name, name) == 0)
			return p;
	return NULL;
}

/*
 * Device names a host emulation announced (hwsim_wire_dev_expect()): devices it will
 * create without EAL knowing them. Append-only, under the registry lock.
 */
#define HWSIM_WIRE_MAX_EXPECT 32
static char hwsim_wire_expect[HWSIM_WIRE_MAX_EXPECT][HWSIM_WIRE_NAME_LEN];
static unsigned int hwsim_wire_nb_expect;

int
hwsim_wire_dev_expect(const char *dev)
{
	struct hwsim_wire_registry *reg = hwsim_wire_registry();
	unsigned int i;
	int ret = 0;

	if (dev == NULL || strlen(dev) >= HWSIM_WIRE_NAME_LEN)
		return -EINVAL;
	pthread_mutex_lock(&reg->lock);
	for (i = 0; i < hwsim_wire_nb_expect; i++)
		if (strcmp(hwsim_wire_expect[i], dev) == 0)
			goto out;
	if (hwsim_wire_nb_expect == HWSIM_WIRE_MAX_EXPECT) {
		ret = -ENOSPC;
		goto out;
	}
	snprintf(hwsim_wire_expect[hwsim_wire_nb_expect++], HWSIM_WIRE_NAME_LEN, "%s", dev);
out:
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

/*
 * Under the registry lock. @return 1 if EAL holds device arguments for dev, or a host
 * emulation announced it (so it is or will be probed).
 */
static int
hwsim_wire_dev_in_eal(const char *dev)
{
	struct rte_devargs *da;
	unsigned int i;

	for (i = 0; i < hwsim_wire_nb_expect; i++)
		if (strcmp(hwsim_wire_expect[i], dev) == 0)
			return 1;
	RTE_EAL_DEVARGS_FOREACH(NULL, da)
		if (strcmp(da->name, dev) == 0)
			return 1;
	return 0;
}

/* Under the registry lock: the operational speed, 0 when the link is down. */
static uint32_t
hwsim_wire_oper_speed(const struct hwsim_wire_port *p)
{
	const struct hwsim_wire_port *q;

	if (!p->cable || !p->admin)
		return 0;
	switch (p->spec.kind) {
	case HWSIM_WIRE_LOOP:
	case HWSIM_WIRE_TAP:
		return p->speed;
	case HWSIM_WIRE_PAIR:
		q = p->peer;
		/* Two ends negotiate the speed both can run: the slower one's. */
		if (q == NULL || !q->cable || !q->admin)
			return 0;
		return RTE_MIN(p->speed, q->speed);
	default:
		return 0;
	}
}

/* Under the registry lock: recompute p's link and tell its device when up/down changed. */
static void
hwsim_wire_update_one(struct hwsim_wire_port *p)
{
	uint32_t old = p->link_speed;
	uint32_t now = hwsim_wire_oper_speed(p);

	if (now == old)
		return;
	__atomic_store_n(&p->link_speed, now, __ATOMIC_RELEASE);
	if ((old != 0) != (now != 0)) {
		HWSIM_LOG(DEBUG, "wire %s: link %s", p->name, now != 0 ? "up" : "down");
		if (p->link_cb != NULL)
			p->link_cb(p->cb_arg, now != 0);
	}
}

/* Under the registry lock: both ends of the cable. */
static void
hwsim_wire_update(struct hwsim_wire_port *p)
{
	struct hwsim_wire_port *q = p->peer;

	hwsim_wire_update_one(p);
	if (q != NULL && q != p)
		hwsim_wire_update_one(q);
}

/*
 * Wait until no send that could still see the old peer pointer is in progress on p:
 * if p's sequence is odd, wait for it to move. A send that starts afterwards reads
 * the cleared pointer (both sides use sequentially consistent accesses), so waiting
 * for one change is enough even when p keeps sending.
 */
static void
hwsim_wire_quiesce(struct hwsim_wire_port *p)
{
	uint64_t s = __atomic_load_n(&p->tx_seq, __ATOMIC_SEQ_CST);

	if ((s & 1) == 0)
		return;
	while (__atomic_load_n(&p->tx_seq, __ATOMIC_ACQUIRE) == s)
		sched_yield();
}

/*
 * Under the registry lock: check a new pair port p against the registry and cable it
 * if its peer is there. @return 0 or -errno with one log line.
 */
static int
hwsim_wire_pair_attach(struct hwsim_wire_registry *reg, struct hwsim_wire_port *p)
{
	struct hwsim_wire_port *q;
	struct hwsim_wire_port *d;

	if (strcmp(p->peer_name, p->name) == 0) {
		HWSIM_LOG(ERR, "wire %s: pair:%s is the port itself (use wire=loop)",
			  p->name, p->peer_name);
		return -EINVAL;
	}
	q = hwsim_wire_lookup(reg, p->peer_name, 0);
	if (q == NULL) {
		d = hwsim_wire_lookup(reg, p->spec.peer_dev, 1);
		if (d != NULL && p->spec.peer_port > d->nports) {
			HWSIM_LOG(ERR, "wire %s: pair:%s: %s has %u port(s)", p->name,
				  p->peer_name, d->dev_name, d->nports);
			return -EINVAL;
		}
		if (d == NULL && strcmp(p->spec.peer_dev, p->dev_name) != 0 &&
		    !hwsim_wire_dev_in_eal(p->spec.peer_dev)) {
			HWSIM_LOG(ERR, "wire %s: pair:%s: unknown device %s", p->name,
				  p->peer_name, p->spec.peer_dev);
			return -ENODEV;
		}
		if (strcmp(p->spec.peer_dev, p->dev_name) == 0 && p->spec.peer_port > p->nports) {
			HWSIM_LOG(ERR, "wire %s: pair:%s: %s has %u port(s)", p->name,
				  p->peer_name, p->dev_name, p->nports);
			return -EINVAL;
		}
		/* A cable has two ends: no second port may wait for the same peer. */
		TAILQ_FOREACH(d, &reg->ports, next) {
			if (d->spec.kind == HWSIM_WIRE_PAIR &&
			    strcmp(d->peer_name, p->peer_name) == 0) {
				HWSIM_LOG(ERR, "wire %s: pair:%s: %s is already wired to it",
					  p->name, p->peer_name, d->name);
				return -EBUSY;
			}
		}
		return 0;	/* the peer is cabled when it is created */
	}
	if (q->spec.kind != HWSIM_WIRE_PAIR || strcmp(q->peer_name, p->name) != 0) {
		HWSIM_LOG(ERR, "wire %s: pair:%s: %s is wired to %s, not to %s", p->name,
			  p->peer_name, q->name,
			  q->spec.kind == HWSIM_WIRE_PAIR ? q->peer_name :
			  q->spec.kind == HWSIM_WIRE_LOOP ? "loop" :
			  q->spec.kind == HWSIM_WIRE_TAP ? "a TAP" : "nothing", p->name);
		return -EBUSY;
	}
	__atomic_store_n(&p->peer, q, __ATOMIC_SEQ_CST);
	__atomic_store_n(&q->peer, p, __ATOMIC_SEQ_CST);
	return 0;
}

/*
 * Under the registry lock: a port that waits for p by name must be p's peer.
 * @return 0, or -EBUSY with one log line.
 */
static int
hwsim_wire_check_waiters(struct hwsim_wire_registry *reg, const struct hwsim_wire_port *p)
{
	struct hwsim_wire_port *r;

	TAILQ_FOREACH(r, &reg->ports, next) {
		if (r->spec.kind != HWSIM_WIRE_PAIR || strcmp(r->peer_name, p->name) != 0)
			continue;
		if (p->spec.kind == HWSIM_WIRE_PAIR && strcmp(p->peer_name, r->name) == 0)
			continue;
		HWSIM_LOG(ERR, "wire %s: %s is wired to it, but its wire is %s%s", p->name,
			  r->name, p->spec.kind == HWSIM_WIRE_PAIR ? "pair:" :
			  p->spec.kind == HWSIM_WIRE_LOOP ? "loop" :
			  p->spec.kind == HWSIM_WIRE_TAP ? "tap:" : "none",
			  p->spec.kind == HWSIM_WIRE_PAIR ? p->peer_name :
			  p->spec.kind == HWSIM_WIRE_TAP ? p->spec.ifname : "");
		return -EBUSY;
	}
	return 0;
}

static int
hwsim_wire_conf_check(const struct hwsim_wire_port_conf *conf)
{
	size_t len;

	if (conf == NULL || conf->dev_name == NULL || conf->spec == NULL) {
		HWSIM_LOG(ERR, "wire: port creation without a device name or spec");
		return -EINVAL;
	}
	len = strlen(conf->dev_name);
	/* Room for ".<port>" after the device name. */
	if (len == 0 || len + 3 > HWSIM_WIRE_NAME_LEN) {
		HWSIM_LOG(ERR, "wire: device name \"%s\" empty or too long", conf->dev_name);
		return -EINVAL;
	}
	if (conf->nports < 1 || conf->nports > HWSIM_WIRE_PORTS_MAX ||
	    conf->port_no < 1 || conf->port_no > conf->nports) {
		HWSIM_LOG(ERR, "wire %s: port %u out of range 1..%u", conf->dev_name,
			  conf->port_no, conf->nports);
		return -EINVAL;
	}
	if (conf->speed < 1 || conf->speed > HWSIM_WIRE_SPEED_MAX) {
		HWSIM_LOG(ERR, "wire %s.%u: speed %u out of range 1..%d", conf->dev_name,
			  conf->port_no, conf->speed, HWSIM_WIRE_SPEED_MAX);
		return -EINVAL;
	}
	return 0;
}

static void
hwsim_wire_port_free(struct hwsim_wire_port *p)
{
	hwsim_knobs_destroy(p->knobs);
	free(p);
}

struct hwsim_wire_port *
hwsim_wire_port_create(const struct hwsim_wire_port_conf *conf)
{
	char who[HWSIM_WIRE_NAME_LEN + 8];
	struct hwsim_wire_registry *reg;
	struct hwsim_wire_port *p;
	int ret;

	ret = hwsim_wire_conf_check(conf);
	if (ret != 0)
		goto error;
	reg = hwsim_wire_registry();
	if (reg == NULL) {
		ret = -ENOMEM;
		goto error;
	}
	/* libc calloc: process-local state, usable from any copy of the library. */
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		ret = -ENOMEM;
		goto error;
	}
	snprintf(p->dev_name, sizeof(p->dev_name), "%s", conf->dev_name);
	snprintf(p->name, sizeof(p->name), "%s.%u", conf->dev_name, conf->port_no);
	snprintf(who, sizeof(who), "wire %s", p->name);
	ret = hwsim_wire_spec_parse(who, conf->spec, &p->spec);
	if (ret != 0)
		goto err_free;
	if (p->spec.kind == HWSIM_WIRE_PAIR)
		snprintf(p->peer_name, sizeof(p->peer_name), "%.*s.%u",
			 HWSIM_WIRE_NAME_LEN - 3, p->spec.peer_dev, p->spec.peer_port);
	p->knobs = hwsim_knobs_create(hwsim_wire_knob_defs, HWSIM_WIRE_KNOB_NUM);
	if (p->knobs == NULL) {
		ret = -rte_errno;
		goto err_free;
	}
	p->port_no = conf->port_no;
	p->nports = conf->nports;
	p->speed = conf->speed;
	p->rx_cb = conf->rx_cb;
	p->link_cb = conf->link_cb;
	p->batch_cb = conf->batch_cb;
	p->cb_arg = conf->cb_arg;
	p->cable = p->spec.kind != HWSIM_WIRE_NONE;
	p->admin = 1;

	pthread_mutex_lock(&reg->lock);
	if (hwsim_wire_lookup(reg, p->name, 0) != NULL) {
		HWSIM_LOG(ERR, "wire %s: the port already exists", p->name);
		ret = -EEXIST;
		goto err_unlock;
	}
	ret = hwsim_wire_check_waiters(reg, p);
	if (ret != 0)
		goto err_unlock;
	if (p->spec.kind == HWSIM_WIRE_PAIR) {
		ret = hwsim_wire_pair_attach(reg, p);
		if (ret != 0)
			goto err_unlock;
	} else if (p->spec.kind == HWSIM_WIRE_TAP) {
		ret = hwsim_wire_tap_open(p);
		if (ret != 0)
			goto err_unlock;
	}
	TAILQ_INSERT_TAIL(&reg->ports, p, next);
	hwsim_wire_update(p);
	pthread_mutex_unlock(&reg->lock);
	HWSIM_LOG(DEBUG, "wire %s: created, wire=%s", p->name, conf->spec);
	return p;

err_unlock:
	pthread_mutex_unlock(&reg->lock);
err_free:
	hwsim_wire_port_free(p);
error:
	rte_errno = -ret;
	return NULL;
}

void
hwsim_wire_port_destroy(struct hwsim_wire_port *p)
{
	struct hwsim_wire_registry *reg;
	struct hwsim_wire_port *q;

	if (p == NULL)
		return;
	reg = hwsim_wire_registry();
	if (reg == NULL)
		return;
	if (p->tap != NULL)
		hwsim_wire_tap_close(p);	/* joins the reader: no more TAP deliveries */
	pthread_mutex_lock(&reg->lock);
	TAILQ_REMOVE(&reg->ports, p, next);
	q = p->peer;
	p->cable = 0;
	hwsim_wire_update(p);
	if (q != NULL) {
		/* The peer waits for a new port of this name, as at its creation. */
		__atomic_store_n(&q->peer, NULL, __ATOMIC_SEQ_CST);
		__atomic_store_n(&p->peer, NULL, __ATOMIC_SEQ_CST);
		/* A send by q that read the old pointer may still be in p's rx callback. */
		hwsim_wire_quiesce(q);
	}
	hwsim_wire_quiesce(p);
	pthread_mutex_unlock(&reg->lock);
	HWSIM_LOG(DEBUG, "wire %s: destroyed", p->name);
	hwsim_wire_port_free(p);
}

struct hwsim_wire_port *
hwsim_wire_port_find(const char *name)
{
	struct hwsim_wire_registry *reg;
	struct hwsim_wire_port *p;

	if (name == NULL)
		return NULL;
	reg = hwsim_wire_registry();
	if (reg == NULL)
		return NULL;
	pthread_mutex_lock(&reg->lock);
	p = hwsim_wire_lookup(reg, name, 0);
	pthread_mutex_unlock(&reg->lock);
	return p;
}

const char *
hwsim_wire_port_name(const struct hwsim_wire_port *port)
{
	return port->name;
}

enum hwsim_wire_kind
hwsim_wire_port_kind(const struct hwsim_wire_port *port)
{
	return port->spec.kind;
}

void
hwsim_wire_deliver(struct hwsim_wire_port *port, const void *frame, uint32_t len,
		   uint32_t flags)
{
	if (port->rx_cb == NULL) {
		hwsim_wire_count(&port->stats.rx_dropped, 1);
		return;
	}
	/* Only a receiver that will hear of the burst's end is told it is in one. */
	if (port->batch_cb == NULL)
		flags &= ~HWSIM_WIRE_RX_BATCH;
	hwsim_wire_count(&port->stats.rx_frames, 1);
	hwsim_wire_count(&port->stats.rx_bytes, len);
	port->rx_cb(port->cb_arg, frame, len, flags);
}

/*
 * The port that receives what port sends: itself on a loop, the peer on a pair (NULL when
 * unplugged); NULL for the other kinds.
 */
static inline struct hwsim_wire_port *
hwsim_wire_dst(struct hwsim_wire_port *port)
{
	if (port->spec.kind == HWSIM_WIRE_LOOP)
		return port;
	if (port->spec.kind == HWSIM_WIRE_PAIR)
		return __atomic_load_n(&port->peer, __ATOMIC_SEQ_CST);
	return NULL;
}

/* Carry one frame to the other end of port's cable. @return 0, -ENOLINK or -EIO. */
static inline int
hwsim_wire_transmit(struct hwsim_wire_port *port, const void *frame, uint32_t len,
		    uint32_t flags)
{
	struct hwsim_wire_port *dst;

	switch (port->spec.kind) {
	case HWSIM_WIRE_LOOP:
	case HWSIM_WIRE_PAIR:
		dst = hwsim_wire_dst(port);
		if (dst == NULL) {
			/* Unplugged between the link check and here. */
			hwsim_wire_count(&port->stats.tx_link_down, 1);
			return -ENOLINK;
		}
		hwsim_wire_deliver(dst, frame, len, flags);
		return 0;
	case HWSIM_WIRE_TAP:
		return hwsim_wire_tap_write(port, frame, len);
	default:
		return -ENOLINK;
	}
}

/*
 * The corrupt knob's path: the caller's frame is const, so a copy on the stack is
 * damaged (one bit of the last byte) and marked with a bad FCS. Kept out of line so
 * the common path does not reserve the large buffer.
 */
static __rte_noinline int
hwsim_wire_send_corrupt(struct hwsim_wire_port *port, const void *frame, uint32_t len)
{
	uint8_t copy[HWSIM_WIRE_FRAME_MAX];

	memcpy(copy, frame, len);
	copy[len - 1] ^= 0x01;
	return hwsim_wire_transmit(port, copy, len, HWSIM_WIRE_RX_FCS_BAD);
}

/*
 * The frame path. It allocates nothing and takes no lock: the sequence store makes
 * destroy wait for it (hwsim_wire_quiesce()), and the knobs are single atomic loads
 * while they are off.
 */
int
hwsim_wire_send(struct hwsim_wire_port *port, const void *frame, uint32_t len)
{
	uint64_t seq;
	int ret = 0;

	if (frame == NULL || len < HWSIM_WIRE_FRAME_MIN || len > HWSIM_WIRE_FRAME_MAX) {
		hwsim_wire_count(&port->stats.tx_errors, 1);
		return -EINVAL;
	}
	seq = __atomic_load_n(&port->tx_seq, __ATOMIC_RELAXED);
	/* Sequentially consistent: ordered before the peer load below (see quiesce). */
	__atomic_store_n(&port->tx_seq, seq + 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&port->link_speed, __ATOMIC_ACQUIRE) == 0) {
		hwsim_wire_count(&port->stats.tx_link_down, 1);
		ret = -ENOLINK;
		goto out;
	}
	hwsim_wire_count(&port->stats.tx_frames, 1);
	hwsim_wire_count(&port->stats.tx_bytes, len);
	if (hwsim_knob_take(port->knobs, HWSIM_WIRE_KNOB_DROP_NEXT)) {
		hwsim_wire_count(&port->stats.knob_dropped, 1);
		ret = -EIO;
		goto out;
	}
	if (hwsim_knob_take(port->knobs, HWSIM_WIRE_KNOB_CORRUPT_NEXT)) {
		hwsim_wire_count(&port->stats.knob_corrupted, 1);
		ret = hwsim_wire_send_corrupt(port, frame, len);
	} else {
		ret = hwsim_wire_transmit(port, frame, len,
					  port->batch ? HWSIM_WIRE_RX_BATCH : 0);
	}
out:
	__atomic_store_n(&port->tx_seq, seq + 2, __ATOMIC_RELEASE);
	return ret;
}

void
hwsim_wire_batch(struct hwsim_wire_port *port, int open)
{
	struct hwsim_wire_port *dst;
	uint64_t seq;

	if (open || !port->batch) {
		port->batch = open;
		return;
	}
	port->batch = 0;
	/* The send sequence brackets the callback as it does a frame (see quiesce). */
	seq = __atomic_load_n(&port->tx_seq, __ATOMIC_RELAXED);
	__atomic_store_n(&port->tx_seq, seq + 1, __ATOMIC_SEQ_CST);
	dst = hwsim_wire_dst(port);
	if (dst != NULL && dst->batch_cb != NULL)
		dst->batch_cb(dst->cb_arg);
	__atomic_store_n(&port->tx_seq, seq + 2, __ATOMIC_RELEASE);
}

int
hwsim_wire_link_up(const struct hwsim_wire_port *port)
{
	if (port == NULL)
		return 0;
	return __atomic_load_n(&port->link_speed, __ATOMIC_ACQUIRE) != 0;
}

uint32_t
hwsim_wire_speed(const struct hwsim_wire_port *port)
{
	if (port == NULL)
		return 0;
	return __atomic_load_n(&port->link_speed, __ATOMIC_ACQUIRE);
}

/* @return the registry, locked, or NULL (no port, or no registry). */
static struct hwsim_wire_registry *
hwsim_wire_lock(const struct hwsim_wire_port *port)
{
	struct hwsim_wire_registry *reg;

	if (port == NULL)
		return NULL;
	reg = hwsim_wire_registry();
	if (reg != NULL)
		pthread_mutex_lock(&reg->lock);
	return reg;
}

/* Set the admin or cable state under the registry lock and propagate it. */
static int
hwsim_wire_set_state(struct hwsim_wire_port *port, int *field, int up)
{
	struct hwsim_wire_registry *reg = hwsim_wire_lock(port);

	if (reg == NULL)
		return -EINVAL;
	*field = up != 0;
	hwsim_wire_update(port);
	pthread_mutex_unlock(&reg->lock);
	return 0;
}

int
hwsim_wire_set_admin(struct hwsim_wire_port *port, int up)
{
	if (port == NULL)
		return -EINVAL;
	return hwsim_wire_set_state(port, &port->admin, up);
}

int
hwsim_wire_link_set(struct hwsim_wire_port *port, int up)
{
	if (port == NULL)
		return -EINVAL;
	if (up && port->spec.kind == HWSIM_WIRE_NONE)
		return -ENOTSUP;
	return hwsim_wire_set_state(port, &port->cable, up);
}

int
hwsim_wire_flap(struct hwsim_wire_port *port)
{
	struct hwsim_wire_registry *reg = hwsim_wire_lock(port);
	int ret = 0;

	if (reg == NULL)
		return -EINVAL;
	if (!port->cable) {
		ret = -ENOLINK;
	} else {
		/* Both steps under one lock hold: no one sees the cable stay out. */
		port->cable = 0;
		hwsim_wire_update(port);
		port->cable = 1;
		hwsim_wire_update(port);
	}
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

struct hwsim_knobs *
hwsim_wire_knobs(struct hwsim_wire_port *port)
{
	return port != NULL ? port->knobs : NULL;
}

void
hwsim_wire_drop_next(struct hwsim_wire_port *port, unsigned int n)
{
	hwsim_knob_set(port->knobs, HWSIM_WIRE_KNOB_DROP_NEXT, n);
}

void
hwsim_wire_corrupt_next(struct hwsim_wire_port *port, unsigned int n)
{
	hwsim_knob_set(port->knobs, HWSIM_WIRE_KNOB_CORRUPT_NEXT, n);
}

int
hwsim_wire_stats_get(const struct hwsim_wire_port *port, struct hwsim_wire_stats *st)
{
	const uint64_t *src;
	uint64_t *dst;
	size_t i;

	if (port == NULL || st == NULL)
		return -EINVAL;
	/* The struct is all uint64_t counters: copy each with an atomic load. */
	src = (const uint64_t *)&port->stats;
	dst = (uint64_t *)st;
	for (i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
	return 0;
}
