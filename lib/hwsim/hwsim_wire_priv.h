/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The wire port object and the calls internal to librte_hwsim, shared by the wire core,
 * its devargs parser and its TAP backend; none of them is exported.
 */

#ifndef _HWSIM_WIRE_PRIV_H_
#define _HWSIM_WIRE_PRIV_H_

#include <pthread.h>
#include <stdint.h>
#include <sys/queue.h>

#include "hwsim_wire.h"

struct hwsim_wire_tap;

/*
 * One port. Every copy of lib/hwsim in the process (each simulator links it whole)
 * reaches the same port objects through the registry, so this layout is checked
 * against HWSIM_WIRE_LAYOUT when a copy first attaches to the registry.
 */
struct hwsim_wire_port {
	TAILQ_ENTRY(hwsim_wire_port) next;  /* registry list, under its lock */
	char name[HWSIM_WIRE_NAME_LEN];     /* "<device>.<port>" */
	char dev_name[HWSIM_WIRE_NAME_LEN];
	char peer_name[HWSIM_WIRE_NAME_LEN]; /* PAIR: the port it wants at the other end */
	unsigned int port_no;
	unsigned int nports;
	struct hwsim_wire_spec spec;
	uint32_t speed;
	hwsim_wire_rx_cb rx_cb;
	hwsim_wire_link_cb link_cb;
	hwsim_wire_batch_cb batch_cb;
	void *cb_arg;
	int batch;                          /* the sender's burst is open (sender only) */
	/* Under the registry lock. */
	int cable;                          /* cable in */
	int admin;                          /* the device's port is up */
	/* Written under the registry lock, read lock-free by the data path. */
	struct hwsim_wire_port *peer;       /* PAIR: the cabled peer, or NULL */
	uint32_t link_speed;                /* operational speed in Mb/s, 0 = link down */
	/*
	 * Send sequence: odd while a send is in progress. Destroy waits on it instead
	 * of a lock, so the per-frame path takes none (see hwsim_wire_quiesce()).
	 */
	uint64_t tx_seq;
	struct hwsim_knobs *knobs;
	/* Each counter has a single writer (sender, peer's sender or TAP reader). */
	struct hwsim_wire_stats stats;
	struct hwsim_wire_tap *tap;         /* TAP: the backend state */
};

/** Bump a single-writer counter; readers see it whole (relaxed atomics, no lock). */
static inline void
hwsim_wire_count(uint64_t *c, uint64_t v)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + v, __ATOMIC_RELAXED);
}

/**
 * Parse a spec: "loop", "none", "tap:<ifname>" or "pair:<device>[.<port>]" (the devargs
 * parser and port creation).
 * @return 0, or -EINVAL with one log line (who names the device or key in that line).
 */
int hwsim_wire_spec_parse(const char *who, const char *spec, struct hwsim_wire_spec *out);

/** Hand a frame to port's rx callback, counting it (wire core; the TAP reader calls it). */
void hwsim_wire_deliver(struct hwsim_wire_port *port, const void *frame, uint32_t len,
			uint32_t flags);

/**
 * Open or create the TAP named in port->spec and start its reader thread.
 * @return 0 or -errno, with one log line.
 */
int hwsim_wire_tap_open(struct hwsim_wire_port *port);

/** Stop the reader and close the TAP (which removes it if this port created it). */
void hwsim_wire_tap_close(struct hwsim_wire_port *port);

/** Write one frame to the kernel. @return 0 or -EIO. */
int hwsim_wire_tap_write(struct hwsim_wire_port *port, const void *frame, uint32_t len);

#endif /* _HWSIM_WIRE_PRIV_H_ */
