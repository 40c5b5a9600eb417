/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The simulated wire: named Ethernet ports cabled as loop, pair, TAP or none. */

#ifndef _HWSIM_WIRE_H_
#define _HWSIM_WIRE_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_ether.h>
#include <rte_kvargs.h>

/** Highest port number a device may have (ports are numbered from 1). */
#define HWSIM_WIRE_PORTS_MAX 8
/** Size of a port name "<device>.<port>", NUL included. */
#define HWSIM_WIRE_NAME_LEN 80
/** Size of a wire spec such as "pair:mlx5v_sim1.2", NUL included. */
#define HWSIM_WIRE_SPEC_LEN 96
/** Smallest frame the wire carries: an Ethernet header (the FCS is implied, never carried). */
#define HWSIM_WIRE_FRAME_MIN RTE_ETHER_HDR_LEN
/** Largest frame the wire carries, FCS excluded. */
#define HWSIM_WIRE_FRAME_MAX 16384
/** Highest speed= value, in Mb/s. */
#define HWSIM_WIRE_SPEED_MAX 1600000

/** What the port is cabled to. */
enum hwsim_wire_kind {
	HWSIM_WIRE_LOOP,  /**< frames come back to the same port */
	HWSIM_WIRE_PAIR,  /**< a cable to another port of this process */
	HWSIM_WIRE_TAP,   /**< a Linux TAP interface: the kernel is the peer */
	HWSIM_WIRE_NONE,  /**< cable out: the link is always down */
};

/** A received frame failed its FCS (the corrupt knob hit it); its data is damaged too. */
#define HWSIM_WIRE_RX_FCS_BAD 0x1u
/**
 * The frame belongs to a burst the sender has open (hwsim_wire_batch()): the receiver's
 * batch callback runs once the burst is over, so a device may hold what it writes per frame
 * (for instance completions it merges) until then.
 */
#define HWSIM_WIRE_RX_BATCH 0x2u

/**
 * A frame arrived at the port. It runs in the sender's thread (the peer's engine for a
 * pair, the caller of hwsim_wire_send() for a loop, the TAP reader thread for a TAP), so
 * it must copy what it keeps before returning and must not destroy a wire port.
 * @param arg   the cb_arg of the port
 * @param frame the frame, from the destination MAC, no FCS
 * @param len   its length in bytes
 * @param flags HWSIM_WIRE_RX_* bits
 */
typedef void (*hwsim_wire_rx_cb)(void *arg, const void *frame, uint32_t len, uint32_t flags);

/**
 * The port's operational link state changed (possibly before hwsim_wire_port_create()
 * returns, when a pair completes). It runs in the thread that changed it, with
 * the wire's registry lock held: it may only call hwsim_wire_link_up(), hwsim_wire_speed()
 * and hwsim_wire_stats_get() (e.g. note the change and kick the device engine).
 */
typedef void (*hwsim_wire_link_cb)(void *arg, int up);

/**
 * A burst of frames marked HWSIM_WIRE_RX_BATCH is over. It runs in the sender's thread, as
 * the rx callback does, after the burst's last frame.
 */
typedef void (*hwsim_wire_batch_cb)(void *arg);

/** Port creation parameters. */
struct hwsim_wire_port_conf {
	const char *dev_name;     /**< the device, e.g. "mlx5v_sim0" */
	unsigned int port_no;     /**< 1 .. nports */
	unsigned int nports;      /**< ports of the device, 1 .. HWSIM_WIRE_PORTS_MAX */
	const char *spec;         /**< "loop", "pair:<dev>[.<port>]", "tap:<ifname>", "none" */
	uint32_t speed;           /**< Mb/s this port can run at, 1 .. HWSIM_WIRE_SPEED_MAX */
	hwsim_wire_rx_cb rx_cb;   /**< may be NULL: frames are then counted as dropped */
	hwsim_wire_link_cb link_cb; /**< may be NULL */
	hwsim_wire_batch_cb batch_cb; /**< may be NULL: no HWSIM_WIRE_RX_BATCH is delivered */
	void *cb_arg;
};

/** Port counters. The tx side counts at the sender, the rx side at the receiver. */
struct hwsim_wire_stats {
	uint64_t tx_frames;     /**< frames that left the port */
	uint64_t tx_bytes;
	uint64_t rx_frames;     /**< frames handed to the rx callback */
	uint64_t rx_bytes;
	uint64_t tx_link_down;  /**< sends dropped because the link was down */
	uint64_t tx_errors;     /**< bad length, or the TAP refused the frame */
	uint64_t rx_dropped;    /**< arrived with no rx callback, or a TAP frame while down */
	uint64_t knob_dropped;  /**< frames lost by the drop_next knob */
	uint64_t knob_corrupted; /**< frames damaged by the corrupt_next knob */
};

struct hwsim_wire_port;
struct hwsim_knobs;

/**
 * Create a port and plug it in: "<dev_name>.<port_no>". A pair port whose peer does not
 * exist yet waits with the link down, and is cabled when the peer is created; the peer
 * device must then be known to EAL (in its device arguments). Cabled ports start with the
 * cable in and admin up. Call from a control thread (probe).
 * @return the port, or NULL with rte_errno: EINVAL (bad spec or parameters), EEXIST (name
 *         taken), ENODEV (pair to an unknown device), EBUSY (the other end is cabled
 *         elsewhere), ENOMEM, or the TAP's errno. One log line says why; nothing is left.
 */
__rte_internal
struct hwsim_wire_port *hwsim_wire_port_create(const struct hwsim_wire_port_conf *conf);

/**
 * Announce a device that a host emulation will create without EAL knowing it (the VFIO
 * emulation's functions): a pair port may then wait for it as for a device in EAL's
 * arguments. @return 0, -EINVAL (name too long), -ENOSPC (32 announced already).
 */
__rte_internal
int hwsim_wire_dev_expect(const char *dev);

/**
 * Unplug and free the port (a TAP it created is removed). The peer of a pair goes down and
 * waits for a new port of the same name. Not from an rx or link callback. NULL is a no-op.
 */
__rte_internal
void hwsim_wire_port_destroy(struct hwsim_wire_port *port);

/** @return the port named "<device>.<port>", or NULL. Valid until it is destroyed. */
__rte_internal
struct hwsim_wire_port *hwsim_wire_port_find(const char *name);

/** @return the port's name, "<device>.<port>". */
__rte_internal
const char *hwsim_wire_port_name(const struct hwsim_wire_port *port);

/** @return what the port is cabled to. */
__rte_internal
enum hwsim_wire_kind hwsim_wire_port_kind(const struct hwsim_wire_port *port);

/**
 * Put a frame on the wire: lock-free, no allocation. Any thread, but calls on one port
 * must not overlap (one transmit engine per port keeps every counter single-writer).
 * @param frame from the destination MAC, no FCS
 * @param len   HWSIM_WIRE_FRAME_MIN .. HWSIM_WIRE_FRAME_MAX
 * @return 0 when it reached the peer (rx callback, or written to the TAP), -ENOLINK (link
 *         down), -EIO (lost by the drop knob or refused by the TAP), -EINVAL (bad length).
 *         A device model may ignore the result: a real port cannot tell either.
 */
__rte_internal
int hwsim_wire_send(struct hwsim_wire_port *port, const void *frame, uint32_t len);

/**
 * Open (open = 1) or close (open = 0) a burst of frames on port: the frames sent while it is
 * open reach a receiver that has a batch callback with HWSIM_WIRE_RX_BATCH, and closing
 * calls that callback (for a loop, the port's own; for a pair, the peer's). The same
 * thread rules as hwsim_wire_send().
 */
__rte_internal
void hwsim_wire_batch(struct hwsim_wire_port *port, int open);

/** @return 1 if the link is operationally up (cable in and every end admin up), else 0. */
__rte_internal
int hwsim_wire_link_up(const struct hwsim_wire_port *port);

/** @return the link speed in Mb/s (the slower end of a pair), or 0 when the link is down. */
__rte_internal
uint32_t hwsim_wire_speed(const struct hwsim_wire_port *port);

/**
 * The device's own port state (the driver's port up/down): a down end takes the link down
 * at both ends. @return 0 or -EINVAL.
 */
__rte_internal
int hwsim_wire_set_admin(struct hwsim_wire_port *port, int up);

/**
 * Plug (up = 1) or pull (up = 0) the cable, for tests. A "none" port has no cable to plug.
 * @return 0, -EINVAL, or -ENOTSUP (plugging a "none" port).
 */
__rte_internal
int hwsim_wire_link_set(struct hwsim_wire_port *port, int up);

/**
 * Link flap: pull the cable and plug it back, so both ends see down then up.
 * @return 0, -EINVAL, or -ENOLINK (the cable is out: nothing to flap).
 */
__rte_internal
int hwsim_wire_flap(struct hwsim_wire_port *port);

/** Knob indexes in the port's knob table (hwsim_wire_knobs()). */
enum hwsim_wire_knob {
	HWSIM_WIRE_KNOB_DROP_NEXT,    /**< "drop_next": lose the next N frames sent */
	HWSIM_WIRE_KNOB_CORRUPT_NEXT, /**< "corrupt_next": damage the next N frames sent */
	HWSIM_WIRE_KNOB_NUM,
};

/** @return the port's knob table, to set knobs by name (devargs, testpmd). */
__rte_internal
struct hwsim_knobs *hwsim_wire_knobs(struct hwsim_wire_port *port);

/** Lose the next n frames this port sends (fault knob). */
__rte_internal
void hwsim_wire_drop_next(struct hwsim_wire_port *port, unsigned int n);

/** Damage the next n frames this port sends: one bit flipped and a bad FCS (fault knob). */
__rte_internal
void hwsim_wire_corrupt_next(struct hwsim_wire_port *port, unsigned int n);

/** Copy the port's counters. @return 0 or -EINVAL. */
__rte_internal
int hwsim_wire_stats_get(const struct hwsim_wire_port *port, struct hwsim_wire_stats *st);

/*
 * Specs and device arguments (hwsim_wire_devargs.c)
 */

/** A spec, parsed and checked (the peer's existence is checked at port creation). */
struct hwsim_wire_spec {
	enum hwsim_wire_kind kind;
	char peer_dev[HWSIM_WIRE_NAME_LEN]; /**< PAIR: the peer device */
	unsigned int peer_port;             /**< PAIR: its port, default 1 */
	char ifname[16];                    /**< TAP: the interface name */
};

/** The wire part of a device's arguments. */
struct hwsim_wire_devargs {
	char wire[HWSIM_WIRE_PORTS_MAX][HWSIM_WIRE_SPEC_LEN]; /**< [0] is port 1; "loop" default */
	struct rte_ether_addr mac;  /**< permanent MAC of port 1; port N is hwsim_wire_mac_port() */
	int mac_given;              /**< 1 if mac= was given, 0 if mac is the default */
	uint32_t speed;             /**< Mb/s */
};

/**
 * Read wire= (port 1), wire<N>= (port N), mac= and speed= from a device's arguments;
 * other keys are left to the caller. kvl may be NULL (all defaults).
 * @param def_speed the device's speed when speed= is absent
 * @return 0, or -EINVAL with one log line naming the key: bare key, empty value, duplicate,
 *         port out of 1..nports, bad spec, bad or multicast MAC, speed out of range.
 */
__rte_internal
int hwsim_wire_devargs_parse(const struct rte_kvargs *kvl, const char *dev_name,
			     unsigned int nports, uint32_t def_speed,
			     struct hwsim_wire_devargs *out);

/** @return 1 if key is one hwsim_wire_devargs_parse() reads (wire, wire<N>, mac, speed). */
__rte_internal
int hwsim_wire_devargs_key(const char *key);

/**
 * The default permanent MAC of a device: a stable, locally administered unicast address
 * derived from its name.
 */
__rte_internal
void hwsim_wire_mac_default(const char *dev_name, struct rte_ether_addr *mac);

/** The MAC of port port_no (1-based): the base MAC plus port_no - 1 in its low 3 bytes. */
__rte_internal
void hwsim_wire_mac_port(const struct rte_ether_addr *base, unsigned int port_no,
			 struct rte_ether_addr *mac);

#endif /* _HWSIM_WIRE_H_ */
