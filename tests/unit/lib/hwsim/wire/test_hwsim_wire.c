/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of the simulated wire: loop, pair, none, TAP, link state, knobs, devargs. */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_kvargs.h>
#include <rte_memzone.h>

#include "test.h"

#include "hwsim_fault.h"
#include "hwsim_wire.h"

#include "ut_common.h"
#include "ut_sh.h"

/* IEEE 802 local experimental EtherType: nothing else in a test namespace sends it. */
#define TEST_ETHERTYPE 0x88b5
#define TEST_MARK "hwsim-wire-test"
#define TEST_FRAME_LEN 60

/* What one port's callbacks saw. Written by the delivering thread, read by the test. */
struct test_port {
	pthread_mutex_t lock;
	uint64_t frames;        /* frames with TEST_ETHERTYPE */
	uint64_t other;         /* anything else (e.g. IPv6 noise from a TAP) */
	uint32_t len;
	uint32_t flags;
	uint8_t last[HWSIM_WIRE_FRAME_MAX];
	uint64_t ups;
	uint64_t downs;
	uint64_t batches;       /* batch callbacks */
	uint64_t batch_frames;  /* frames seen when the last one came */
};

static void
test_port_init(struct test_port *tp)
{
	memset(tp, 0, sizeof(*tp));
	pthread_mutex_init(&tp->lock, NULL);
}

static void
test_rx(void *arg, const void *frame, uint32_t len, uint32_t flags)
{
	struct test_port *tp = arg;
	const struct rte_ether_hdr *eh = frame;

	pthread_mutex_lock(&tp->lock);
	if (eh->ether_type == rte_cpu_to_be_16(TEST_ETHERTYPE)) {
		memcpy(tp->last, frame, len);
		tp->len = len;
		tp->flags = flags;
		__atomic_add_fetch(&tp->frames, 1, __ATOMIC_RELEASE);
	} else {
		__atomic_add_fetch(&tp->other, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&tp->lock);
}

/* The sender's burst ended: what had arrived by then. */
static void
test_batch(void *arg)
{
	struct test_port *tp = arg;

	tp->batch_frames = __atomic_load_n(&tp->frames, __ATOMIC_ACQUIRE);
	__atomic_add_fetch(&tp->batches, 1, __ATOMIC_RELEASE);
}

/* Called with the wire's lock held: only counts. */
static void
test_link(void *arg, int up)
{
	struct test_port *tp = arg;

	__atomic_add_fetch(up ? &tp->ups : &tp->downs, 1, __ATOMIC_RELEASE);
}

static uint64_t
ld(const uint64_t *v)
{
	return __atomic_load_n(v, __ATOMIC_ACQUIRE);
}

/* A test frame: broadcast, EtherType TEST_ETHERTYPE, the mark and a sequence byte. */
static void
test_frame(uint8_t *f, uint8_t seq)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)f;

	memset(f, 0, TEST_FRAME_LEN);
	memset(&eh->dst_addr, 0xff, RTE_ETHER_ADDR_LEN);
	hwsim_wire_mac_default("ut_wire_sender", &eh->src_addr);
	eh->ether_type = rte_cpu_to_be_16(TEST_ETHERTYPE);
	memcpy(f + RTE_ETHER_HDR_LEN, TEST_MARK, sizeof(TEST_MARK));
	f[TEST_FRAME_LEN - 1] = seq;
}

static struct hwsim_wire_port *
port_create(const char *dev, unsigned int port_no, unsigned int nports, const char *spec,
	    uint32_t speed, struct test_port *tp)
{
	struct hwsim_wire_port_conf conf = {
		.dev_name = dev,
		.port_no = port_no,
		.nports = nports,
		.spec = spec,
		.speed = speed,
		.rx_cb = test_rx,
		.link_cb = test_link,
		.cb_arg = tp,
	};

	return hwsim_wire_port_create(&conf);
}

/* Make dev known to EAL, as --vdev=<dev> does before any probe. */
static struct rte_devargs *
eal_devargs_add(const char *dev)
{
	struct rte_devargs *da = calloc(1, sizeof(*da));

	if (da == NULL)
		return NULL;
	da->bus = rte_bus_find_by_name("vdev");
	da->data = strdup("");
	snprintf(da->name, sizeof(da->name), "%s", dev);
	if (da->bus == NULL || da->data == NULL || rte_devargs_insert(&da) != 0) {
		free(da->data);
		free(da);
		return NULL;
	}
	return da;
}

/*
 * Loop
 */

static int
test_hwsim_wire_loop(void)
{
	struct hwsim_wire_stats st;
	struct hwsim_wire_port *p;
	struct test_port tp;
	uint8_t f[TEST_FRAME_LEN];

	test_port_init(&tp);
	p = port_create("ut_loop", 1, 1, "loop", 25000, &tp);
	TEST_ASSERT_NOT_NULL(p, "create failed");
	TEST_ASSERT_EQUAL(hwsim_wire_port_kind(p), HWSIM_WIRE_LOOP, "kind");
	TEST_ASSERT(strcmp(hwsim_wire_port_name(p), "ut_loop.1") == 0, "name");
	TEST_ASSERT(hwsim_wire_port_find("ut_loop.1") == p, "find");
	TEST_ASSERT(hwsim_wire_link_up(p), "a loop starts up");
	TEST_ASSERT_EQUAL(hwsim_wire_speed(p), 25000u, "speed");
	TEST_ASSERT_EQUAL(ld(&tp.ups), 1u, "one up event at creation");

	test_frame(f, 7);
	TEST_ASSERT_SUCCESS(hwsim_wire_send(p, f, sizeof(f)), "send");
	TEST_ASSERT_EQUAL(ld(&tp.frames), 1u, "frame not looped back");
	TEST_ASSERT_EQUAL(tp.len, (uint32_t)sizeof(f), "length");
	TEST_ASSERT(memcmp(tp.last, f, sizeof(f)) == 0, "content");
	TEST_ASSERT_EQUAL(tp.flags, 0u, "flags");

	TEST_ASSERT_EQUAL(hwsim_wire_send(p, f, HWSIM_WIRE_FRAME_MIN - 1), -EINVAL, "runt");
	TEST_ASSERT_EQUAL(hwsim_wire_send(p, f, HWSIM_WIRE_FRAME_MAX + 1), -EINVAL, "giant");
	TEST_ASSERT_SUCCESS(hwsim_wire_stats_get(p, &st), "stats");
	TEST_ASSERT_EQUAL(st.tx_frames, 1u, "tx_frames");
	TEST_ASSERT_EQUAL(st.tx_bytes, (uint64_t)sizeof(f), "tx_bytes");
	TEST_ASSERT_EQUAL(st.rx_frames, 1u, "rx_frames");
	TEST_ASSERT_EQUAL(st.rx_bytes, (uint64_t)sizeof(f), "rx_bytes");
	TEST_ASSERT_EQUAL(st.tx_errors, 2u, "tx_errors");
	hwsim_wire_port_destroy(p);
	TEST_ASSERT_NULL(hwsim_wire_port_find("ut_loop.1"), "destroyed port still found");
	return TEST_SUCCESS;
}

/*
 * A burst on a loop: its frames carry HWSIM_WIRE_RX_BATCH and the batch callback runs once,
 * after the last one; outside a burst, and to a receiver without the callback, no flag.
 */
static int
test_hwsim_wire_batch(void)
{
	struct hwsim_wire_port_conf conf = {
		.dev_name = "ut_batch", .port_no = 1, .nports = 1, .spec = "loop",
		.speed = 25000, .rx_cb = test_rx, .batch_cb = test_batch,
	};
	struct hwsim_wire_port *p;
	struct test_port tp;
	uint8_t f[TEST_FRAME_LEN];
	unsigned int i;

	test_port_init(&tp);
	conf.cb_arg = &tp;
	p = hwsim_wire_port_create(&conf);
	TEST_ASSERT_NOT_NULL(p, "create failed");
	test_frame(f, 1);
	hwsim_wire_batch(p, 1);
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(hwsim_wire_send(p, f, sizeof(f)), "send");
		TEST_ASSERT_EQUAL(tp.flags, HWSIM_WIRE_RX_BATCH, "frame %u: flags %#x", i,
				  tp.flags);
	}
	TEST_ASSERT_EQUAL(ld(&tp.batches), 0u, "batch callback before the end");
	hwsim_wire_batch(p, 0);
	TEST_ASSERT_EQUAL(ld(&tp.batches), 1u, "one batch callback at the end");
	TEST_ASSERT_EQUAL(tp.batch_frames, 3u, "callback after the burst's frames");
	/* Closing again, or outside a burst: nothing. */
	hwsim_wire_batch(p, 0);
	TEST_ASSERT_SUCCESS(hwsim_wire_send(p, f, sizeof(f)), "send");
	TEST_ASSERT_EQUAL(tp.flags, 0u, "flags outside a burst");
	TEST_ASSERT_EQUAL(ld(&tp.batches), 1u, "no callback without a burst");
	hwsim_wire_port_destroy(p);
	/* A receiver without a batch callback never sees the flag. */
	test_port_init(&tp);
	p = port_create("ut_batch", 1, 1, "loop", 25000, &tp);
	TEST_ASSERT_NOT_NULL(p, "create failed");
	hwsim_wire_batch(p, 1);
	TEST_ASSERT_SUCCESS(hwsim_wire_send(p, f, sizeof(f)), "send");
	hwsim_wire_batch(p, 0);
	TEST_ASSERT_EQUAL(tp.flags, 0u, "flag without a batch callback");
	hwsim_wire_port_destroy(p);
	return TEST_SUCCESS;
}

/*
 * Pair
 */

/* Cable a.1 and b.1, creating b first when b_first; check both directions. */
static int
pair_case(int b_first)
{
	struct rte_devargs *da_a, *da_b;
	struct hwsim_wire_port *a = NULL, *b = NULL, *first;
	struct test_port ta, tb;
	uint8_t f[TEST_FRAME_LEN];
	int ret = TEST_FAILED;

	test_port_init(&ta);
	test_port_init(&tb);
	da_a = eal_devargs_add("ut_pair_a");
	da_b = eal_devargs_add("ut_pair_b");
	TEST_ASSERT(da_a != NULL && da_b != NULL, "cannot add EAL devargs");
	if (b_first) {
		b = port_create("ut_pair_b", 1, 1, "pair:ut_pair_a", 100000, &tb);
		first = b;
	} else {
		a = port_create("ut_pair_a", 1, 1, "pair:ut_pair_b.1", 25000, &ta);
		first = a;
	}
	if (first == NULL) {
		printf("first end not created: %s\n", rte_strerror(rte_errno));
		goto out_devargs;
	}
	/* Alone, the first end waits with the link down. */
	test_frame(f, 1);
	if (hwsim_wire_link_up(first) || hwsim_wire_send(first, f, sizeof(f)) != -ENOLINK) {
		printf("a lone pair end is up\n");
		goto out_first;
	}
	if (b_first)
		a = port_create("ut_pair_a", 1, 1, "pair:ut_pair_b.1", 25000, &ta);
	else
		b = port_create("ut_pair_b", 1, 1, "pair:ut_pair_a", 100000, &tb);
	if ((b_first ? a : b) == NULL) {
		printf("second end not created: %s\n", rte_strerror(rte_errno));
		goto out_first;
	}
	if (!hwsim_wire_link_up(a) || !hwsim_wire_link_up(b) || ld(&ta.ups) != 1 ||
	    ld(&tb.ups) != 1) {
		printf("pair not up at both ends\n");
		goto out_both;
	}
	/* The slower end sets the speed. */
	if (hwsim_wire_speed(a) != 25000 || hwsim_wire_speed(b) != 25000) {
		printf("speed %u/%u, expected 25000\n", hwsim_wire_speed(a),
		       hwsim_wire_speed(b));
		goto out_both;
	}
	test_frame(f, 2);
	if (hwsim_wire_send(a, f, sizeof(f)) != 0 || ld(&tb.frames) != 1 ||
	    ld(&ta.frames) != 0 || memcmp(tb.last, f, sizeof(f)) != 0) {
		printf("a -> b failed\n");
		goto out_both;
	}
	test_frame(f, 3);
	if (hwsim_wire_send(b, f, sizeof(f)) != 0 || ld(&ta.frames) != 1 ||
	    memcmp(ta.last, f, sizeof(f)) != 0) {
		printf("b -> a failed\n");
		goto out_both;
	}
	/* Unplugging one device leaves the other down, waiting for it to come back. */
	hwsim_wire_port_destroy(b);
	b = NULL;
	if (hwsim_wire_link_up(a) || ld(&ta.downs) != 1 ||
	    hwsim_wire_send(a, f, sizeof(f)) != -ENOLINK) {
		printf("a still up after b left\n");
		goto out_both;
	}
	b = port_create("ut_pair_b", 1, 1, "pair:ut_pair_a", 100000, &tb);
	if (b == NULL || !hwsim_wire_link_up(a) || ld(&ta.ups) != 2) {
		printf("a not up again after b came back\n");
		goto out_both;
	}
	ret = TEST_SUCCESS;
out_both:
	hwsim_wire_port_destroy(b_first ? a : b);
out_first:
	hwsim_wire_port_destroy(b_first ? b : a);
out_devargs:
	rte_devargs_remove(da_a);
	rte_devargs_remove(da_b);
	return ret;
}

static int
test_hwsim_wire_pair_a_first(void)
{
	return pair_case(0);
}

static int
test_hwsim_wire_pair_b_first(void)
{
	return pair_case(1);
}

/* Port 1 and port 2 of one device cabled together (no EAL devargs needed). */
static int
test_hwsim_wire_pair_same_device(void)
{
	struct hwsim_wire_port *p1, *p2;
	struct test_port t1, t2;
	uint8_t f[TEST_FRAME_LEN];

	test_port_init(&t1);
	test_port_init(&t2);
	p1 = port_create("ut_self", 1, 2, "pair:ut_self.2", 10000, &t1);
	TEST_ASSERT_NOT_NULL(p1, "port 1");
	TEST_ASSERT(!hwsim_wire_link_up(p1), "up before port 2 exists");
	p2 = port_create("ut_self", 2, 2, "pair:ut_self.1", 10000, &t2);
	TEST_ASSERT_NOT_NULL(p2, "port 2");
	TEST_ASSERT(hwsim_wire_link_up(p1) && hwsim_wire_link_up(p2), "not up");
	test_frame(f, 9);
	TEST_ASSERT_SUCCESS(hwsim_wire_send(p2, f, sizeof(f)), "send");
	TEST_ASSERT_EQUAL(ld(&t1.frames), 1u, "port 1 did not receive");
	TEST_ASSERT_EQUAL(ld(&t2.frames), 0u, "port 2 received its own frame");
	hwsim_wire_port_destroy(p1);
	hwsim_wire_port_destroy(p2);
	return TEST_SUCCESS;
}

/* Every failed creation names the reason, returns NULL and registers nothing. */
static int
test_hwsim_wire_pair_errors(void)
{
	struct rte_devargs *da;
	struct hwsim_wire_port *a, *b;
	struct test_port ta, tb;

	test_port_init(&ta);
	test_port_init(&tb);
	TEST_ASSERT_NULL(port_create("ut_perr_a", 1, 1, "pair:ut_no_such_dev", 1000, &ta),
			 "pair to an unknown device accepted");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "unknown device: errno %d", rte_errno);
	TEST_ASSERT_NULL(hwsim_wire_port_find("ut_perr_a.1"), "a failed port was registered");
	/* A device a host emulation announced may be waited for, as one in EAL's arguments. */
	TEST_ASSERT_EQUAL(hwsim_wire_dev_expect(NULL), -EINVAL, "NULL announced");
	TEST_ASSERT_SUCCESS(hwsim_wire_dev_expect("ut_perr_expected"), "announce");
	TEST_ASSERT_SUCCESS(hwsim_wire_dev_expect("ut_perr_expected"), "announce twice");
	a = port_create("ut_perr_a", 1, 1, "pair:ut_perr_expected", 1000, &ta);
	TEST_ASSERT_NOT_NULL(a, "pair to an announced device refused");
	TEST_ASSERT(!hwsim_wire_link_up(a), "up without its peer");
	hwsim_wire_port_destroy(a);
	TEST_ASSERT_NULL(port_create("ut_perr_a", 1, 1, "pair:ut_perr_a", 1000, &ta),
			 "pair to itself accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "self pair: errno %d", rte_errno);
	TEST_ASSERT_NULL(port_create("ut_perr_a", 1, 1, "pair:ut_perr_a.2", 1000, &ta),
			 "pair to a port the device does not have accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "own port out of range: errno %d", rte_errno);
	TEST_ASSERT_NULL(port_create("ut_perr_a", 3, 2, "loop", 1000, &ta), "port 3 of 2");
	TEST_ASSERT_NULL(port_create("ut_perr_a", 1, 1, "loop", 0, &ta), "speed 0");
	TEST_ASSERT_NULL(port_create("ut_perr_a", 1, 1, "bogus", 1000, &ta), "bad spec");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "bad spec: errno %d", rte_errno);

	/* b is known to EAL; a waits for it, so b must come with the other end of the cable. */
	da = eal_devargs_add("ut_perr_b");
	TEST_ASSERT_NOT_NULL(da, "cannot add EAL devargs");
	a = port_create("ut_perr_a", 1, 1, "pair:ut_perr_b", 1000, &ta);
	TEST_ASSERT_NOT_NULL(a, "a not created");
	TEST_ASSERT_NULL(port_create("ut_perr_a", 1, 1, "loop", 1000, &ta), "duplicate name");
	TEST_ASSERT_EQUAL(rte_errno, EEXIST, "duplicate: errno %d", rte_errno);
	TEST_ASSERT_NULL(port_create("ut_perr_b", 1, 1, "loop", 1000, &tb),
			 "b as a loop while a is cabled to it");
	TEST_ASSERT_EQUAL(rte_errno, EBUSY, "mismatch: errno %d", rte_errno);
	TEST_ASSERT_NULL(port_create("ut_perr_b", 1, 1, "pair:ut_perr_a.2", 1000, &tb),
			 "b cabled elsewhere while a is cabled to it");
	TEST_ASSERT_NULL(port_create("ut_perr_c", 1, 1, "pair:ut_perr_b", 1000, &tb),
			 "a second port waiting for b accepted");
	TEST_ASSERT_EQUAL(rte_errno, EBUSY, "second waiter: errno %d", rte_errno);
	TEST_ASSERT_NULL(hwsim_wire_port_find("ut_perr_b.1"), "a failed port was registered");
	TEST_ASSERT(!hwsim_wire_link_up(a), "a came up");
	/* A known device with fewer ports than the pair names. */
	b = port_create("ut_perr_b", 1, 1, "pair:ut_perr_a", 1000, &tb);
	TEST_ASSERT_NOT_NULL(b, "b not created");
	TEST_ASSERT(hwsim_wire_link_up(a) && hwsim_wire_link_up(b), "a-b not up");
	TEST_ASSERT_NULL(port_create("ut_perr_c", 1, 1, "pair:ut_perr_b.2", 1000, &tb),
			 "pair to port 2 of a 1-port device accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "peer port range: errno %d", rte_errno);
	TEST_ASSERT_NULL(port_create("ut_perr_c", 1, 1, "pair:ut_perr_b", 1000, &tb),
			 "pair to a cabled port accepted");
	TEST_ASSERT_EQUAL(rte_errno, EBUSY, "taken peer: errno %d", rte_errno);
	hwsim_wire_port_destroy(a);
	hwsim_wire_port_destroy(b);
	rte_devargs_remove(da);
	return TEST_SUCCESS;
}

/*
 * None, link state and callbacks
 */

static int
test_hwsim_wire_none(void)
{
	struct hwsim_wire_stats st;
	struct hwsim_wire_port *p;
	struct test_port tp;
	uint8_t f[TEST_FRAME_LEN];

	test_port_init(&tp);
	p = port_create("ut_none", 1, 1, "none", 1000, &tp);
	TEST_ASSERT_NOT_NULL(p, "create failed");
	TEST_ASSERT(!hwsim_wire_link_up(p), "cable out but link up");
	TEST_ASSERT_EQUAL(hwsim_wire_speed(p), 0u, "speed of a down link");
	test_frame(f, 1);
	TEST_ASSERT_EQUAL(hwsim_wire_send(p, f, sizeof(f)), -ENOLINK, "sent on no cable");
	TEST_ASSERT_EQUAL(hwsim_wire_link_set(p, 1), -ENOTSUP, "plugged a missing cable");
	TEST_ASSERT_EQUAL(hwsim_wire_flap(p), -ENOLINK, "flapped a missing cable");
	TEST_ASSERT_SUCCESS(hwsim_wire_set_admin(p, 1), "admin up");
	TEST_ASSERT(!hwsim_wire_link_up(p), "admin up brought a none link up");
	TEST_ASSERT_SUCCESS(hwsim_wire_stats_get(p, &st), "stats");
	TEST_ASSERT_EQUAL(st.tx_link_down, 1u, "tx_link_down");
	TEST_ASSERT_EQUAL(st.tx_frames, 0u, "tx_frames");
	TEST_ASSERT_EQUAL(ld(&tp.ups) + ld(&tp.downs), 0u, "link events on a none port");
	hwsim_wire_port_destroy(p);
	return TEST_SUCCESS;
}

static int
test_hwsim_wire_link_events(void)
{
	struct hwsim_wire_port *a, *b, *l;
	struct test_port ta, tb, tl;

	test_port_init(&ta);
	test_port_init(&tb);
	test_port_init(&tl);
	l = port_create("ut_ev_l", 1, 1, "loop", 1000, &tl);
	TEST_ASSERT_NOT_NULL(l, "loop");
	TEST_ASSERT_SUCCESS(hwsim_wire_link_set(l, 0), "pull");
	TEST_ASSERT(!hwsim_wire_link_up(l) && ld(&tl.downs) == 1, "pull: not down");
	TEST_ASSERT_SUCCESS(hwsim_wire_link_set(l, 0), "pull twice");
	TEST_ASSERT_EQUAL(ld(&tl.downs), 1u, "no change must raise no event");
	TEST_ASSERT_SUCCESS(hwsim_wire_link_set(l, 1), "plug");
	TEST_ASSERT(hwsim_wire_link_up(l) && ld(&tl.ups) == 2, "plug: not up");
	TEST_ASSERT_SUCCESS(hwsim_wire_set_admin(l, 0), "admin down");
	TEST_ASSERT(!hwsim_wire_link_up(l) && ld(&tl.downs) == 2, "admin down: not down");
	/* Cable pulled while admin down: still down, and up needs both. */
	TEST_ASSERT_SUCCESS(hwsim_wire_link_set(l, 0), "pull");
	TEST_ASSERT_SUCCESS(hwsim_wire_set_admin(l, 1), "admin up");
	TEST_ASSERT(!hwsim_wire_link_up(l), "up with the cable out");
	TEST_ASSERT_SUCCESS(hwsim_wire_link_set(l, 1), "plug");
	TEST_ASSERT(hwsim_wire_link_up(l) && ld(&tl.ups) == 3, "not up again");
	hwsim_wire_port_destroy(l);

	/* On a pair, either end's admin state or cable takes both ends down. */
	a = port_create("ut_ev", 1, 2, "pair:ut_ev.2", 1000, &ta);
	b = port_create("ut_ev", 2, 2, "pair:ut_ev.1", 1000, &tb);
	TEST_ASSERT(a != NULL && b != NULL, "pair");
	TEST_ASSERT_SUCCESS(hwsim_wire_set_admin(b, 0), "b admin down");
	TEST_ASSERT(!hwsim_wire_link_up(a) && !hwsim_wire_link_up(b), "admin down: a up");
	TEST_ASSERT(ld(&ta.downs) == 1 && ld(&tb.downs) == 1, "down events");
	TEST_ASSERT_SUCCESS(hwsim_wire_set_admin(b, 1), "b admin up");
	TEST_ASSERT(ld(&ta.ups) == 2 && ld(&tb.ups) == 2, "up events");
	TEST_ASSERT_SUCCESS(hwsim_wire_link_set(a, 0), "pull at a");
	TEST_ASSERT(!hwsim_wire_link_up(b) && ld(&tb.downs) == 2, "pull at a: b up");
	TEST_ASSERT_SUCCESS(hwsim_wire_link_set(a, 1), "plug at a");
	TEST_ASSERT(hwsim_wire_link_up(b) && ld(&tb.ups) == 3, "plug at a: b down");
	hwsim_wire_port_destroy(a);
	TEST_ASSERT(!hwsim_wire_link_up(b) && ld(&tb.downs) == 3, "b up without a");
	hwsim_wire_port_destroy(b);
	TEST_ASSERT_EQUAL(hwsim_wire_set_admin(NULL, 1), -EINVAL, "NULL port");
	return TEST_SUCCESS;
}

/*
 * Fault knobs
 */

static int
test_hwsim_wire_knobs(void)
{
	struct hwsim_wire_stats st;
	struct hwsim_wire_port *a, *b;
	struct test_port ta, tb;
	uint8_t f[TEST_FRAME_LEN];
	uint8_t orig[TEST_FRAME_LEN];
	int64_t v;

	test_port_init(&ta);
	test_port_init(&tb);
	a = port_create("ut_knob", 1, 2, "pair:ut_knob.2", 1000, &ta);
	b = port_create("ut_knob", 2, 2, "pair:ut_knob.1", 1000, &tb);
	TEST_ASSERT(a != NULL && b != NULL, "pair");

	/* drop_next: exactly the next two frames are lost. */
	hwsim_wire_drop_next(a, 2);
	test_frame(f, 1);
	TEST_ASSERT_EQUAL(hwsim_wire_send(a, f, sizeof(f)), -EIO, "first not dropped");
	TEST_ASSERT_EQUAL(hwsim_wire_send(a, f, sizeof(f)), -EIO, "second not dropped");
	TEST_ASSERT_EQUAL(ld(&tb.frames), 0u, "a dropped frame arrived");
	TEST_ASSERT_SUCCESS(hwsim_wire_send(a, f, sizeof(f)), "third dropped");
	TEST_ASSERT_EQUAL(ld(&tb.frames), 1u, "third did not arrive");
	/* The same knob by name, as devargs and testpmd set it. */
	TEST_ASSERT_SUCCESS(hwsim_knobs_set(hwsim_wire_knobs(a), "drop_next", 1), "by name");
	TEST_ASSERT_EQUAL(hwsim_wire_send(a, f, sizeof(f)), -EIO, "not dropped by name");
	TEST_ASSERT_SUCCESS(hwsim_knobs_get(hwsim_wire_knobs(a), "drop_next", &v), "get");
	TEST_ASSERT_EQUAL(v, 0, "drop_next not consumed");

	/* corrupt_next: one bit flipped, bad FCS flagged, the sender's buffer untouched. */
	hwsim_wire_corrupt_next(a, 1);
	test_frame(f, 2);
	memcpy(orig, f, sizeof(f));
	TEST_ASSERT_SUCCESS(hwsim_wire_send(a, f, sizeof(f)), "corrupt send");
	TEST_ASSERT_EQUAL(ld(&tb.frames), 2u, "corrupted frame lost");
	TEST_ASSERT(memcmp(f, orig, sizeof(f)) == 0, "sender's frame changed");
	TEST_ASSERT(tb.flags & HWSIM_WIRE_RX_FCS_BAD, "bad FCS not flagged");
	TEST_ASSERT(memcmp(tb.last, f, sizeof(f) - 1) == 0, "header/payload changed");
	TEST_ASSERT_EQUAL(tb.last[sizeof(f) - 1], (uint8_t)(f[sizeof(f) - 1] ^ 1),
			  "no bit flipped");
	TEST_ASSERT_SUCCESS(hwsim_wire_send(a, f, sizeof(f)), "clean send");
	TEST_ASSERT(tb.flags == 0 && memcmp(tb.last, f, sizeof(f)) == 0, "still corrupting");
	TEST_ASSERT_SUCCESS(hwsim_wire_stats_get(a, &st), "stats");
	TEST_ASSERT_EQUAL(st.knob_dropped, 3u, "knob_dropped");
	TEST_ASSERT_EQUAL(st.knob_corrupted, 1u, "knob_corrupted");
	TEST_ASSERT_EQUAL(st.tx_frames, 6u, "tx_frames");
	TEST_ASSERT_SUCCESS(hwsim_wire_stats_get(b, &st), "stats");
	TEST_ASSERT_EQUAL(st.rx_frames, 3u, "rx_frames");

	/* Flap: down then up, seen at both ends, and the link is up after. */
	TEST_ASSERT_SUCCESS(hwsim_wire_flap(a), "flap");
	TEST_ASSERT(ld(&ta.downs) == 1 && ld(&ta.ups) == 2, "a: no flap seen");
	TEST_ASSERT(ld(&tb.downs) == 1 && ld(&tb.ups) == 2, "b: no flap seen");
	TEST_ASSERT(hwsim_wire_link_up(a) && hwsim_wire_link_up(b), "down after a flap");
	TEST_ASSERT_SUCCESS(hwsim_wire_link_set(b, 0), "pull");
	TEST_ASSERT_EQUAL(hwsim_wire_flap(b), -ENOLINK, "flapped a pulled cable");
	TEST_ASSERT(!hwsim_wire_link_up(a), "flap plugged the cable in");
	hwsim_wire_port_destroy(a);
	hwsim_wire_port_destroy(b);
	return TEST_SUCCESS;
}

/* Sends from one thread while the peer is destroyed and recreated: nothing is lost track of. */
struct sender_arg {
	uint64_t stop;
	uint64_t sent;
};

static void *
sender_main(void *p)
{
	struct sender_arg *sa = p;
	struct hwsim_wire_port *port = hwsim_wire_port_find("ut_race.1");
	uint8_t f[TEST_FRAME_LEN];

	test_frame(f, 0);
	while (!__atomic_load_n(&sa->stop, __ATOMIC_ACQUIRE)) {
		if (hwsim_wire_send(port, f, sizeof(f)) == 0)
			__atomic_add_fetch(&sa->sent, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static int
test_hwsim_wire_pair_destroy_while_sending(void)
{
	struct sender_arg sa = { .stop = 0 };
	struct hwsim_wire_port *a, *b;
	struct test_port ta, tb;
	pthread_t tid;
	unsigned int i;

	test_port_init(&ta);
	test_port_init(&tb);
	a = port_create("ut_race", 1, 2, "pair:ut_race.2", 1000, &ta);
	TEST_ASSERT_NOT_NULL(a, "a");
	TEST_ASSERT_SUCCESS(pthread_create(&tid, NULL, sender_main, &sa), "thread");
	for (i = 0; i < 50; i++) {
		b = port_create("ut_race", 2, 2, "pair:ut_race.1", 1000, &tb);
		if (b == NULL)
			break;
		/* Let some frames through before unplugging again. */
		ut_wait_counter(&tb.frames, ld(&tb.frames) + 1);
		hwsim_wire_port_destroy(b);
	}
	__atomic_store_n(&sa.stop, 1, __ATOMIC_RELEASE);
	pthread_join(tid, NULL);
	hwsim_wire_port_destroy(a);
	TEST_ASSERT_EQUAL(i, 50u, "b not recreated at round %u", i);
	TEST_ASSERT_EQUAL(ld(&sa.sent), ld(&tb.frames), "sent %" PRIu64 ", received %" PRIu64,
			  ld(&sa.sent), ld(&tb.frames));
	TEST_ASSERT(ld(&tb.frames) >= 50, "too few frames crossed");
	return TEST_SUCCESS;
}

/*
 * Device arguments
 */

static int
test_hwsim_wire_devargs_ok(void)
{
	struct hwsim_wire_devargs wd;
	struct rte_ether_addr m1, m2, mp;
	struct rte_kvargs *kvl;

	/* No arguments: every port a loop, the default MAC and speed. */
	TEST_ASSERT_SUCCESS(hwsim_wire_devargs_parse(NULL, "ut_dev0", 2, 40000, &wd), "none");
	TEST_ASSERT(strcmp(wd.wire[0], "loop") == 0 && strcmp(wd.wire[1], "loop") == 0,
		    "default not loop");
	TEST_ASSERT_EQUAL(wd.speed, 40000u, "default speed");
	TEST_ASSERT_EQUAL(wd.mac_given, 0, "mac_given");
	hwsim_wire_mac_default("ut_dev0", &m1);
	TEST_ASSERT(rte_is_same_ether_addr(&m1, &wd.mac), "default MAC not the derived one");
	TEST_ASSERT(rte_is_unicast_ether_addr(&m1) && !rte_is_universal_ether_addr(&m1),
		    "default MAC not locally administered unicast");
	hwsim_wire_mac_default("ut_dev0", &m2);
	TEST_ASSERT(rte_is_same_ether_addr(&m1, &m2), "default MAC not stable");
	hwsim_wire_mac_default("ut_dev1", &m2);
	TEST_ASSERT(!rte_is_same_ether_addr(&m1, &m2), "two devices share a default MAC");

	kvl = rte_kvargs_parse("wire=pair:ut_x,wire2=tap:ut_t0,mac=02:11:22:33:44:ff,"
			       "speed=25000,wireless=1,other=2", NULL);
	TEST_ASSERT_NOT_NULL(kvl, "kvargs");
	TEST_ASSERT_SUCCESS(hwsim_wire_devargs_parse(kvl, "ut_dev0", 2, 40000, &wd), "parse");
	rte_kvargs_free(kvl);
	TEST_ASSERT(strcmp(wd.wire[0], "pair:ut_x") == 0, "wire: %s", wd.wire[0]);
	TEST_ASSERT(strcmp(wd.wire[1], "tap:ut_t0") == 0, "wire2: %s", wd.wire[1]);
	TEST_ASSERT_EQUAL(wd.speed, 25000u, "speed");
	TEST_ASSERT_EQUAL(wd.mac_given, 1, "mac_given");
	TEST_ASSERT(rte_ether_unformat_addr("02:11:22:33:44:ff", &m1) == 0 &&
		    rte_is_same_ether_addr(&m1, &wd.mac), "mac");
	/* Port 2's MAC is the next one, carried over the byte boundary. */
	hwsim_wire_mac_port(&wd.mac, 2, &mp);
	TEST_ASSERT(rte_ether_unformat_addr("02:11:22:33:45:00", &m2) == 0 &&
		    rte_is_same_ether_addr(&m2, &mp), "port 2 MAC");
	hwsim_wire_mac_port(&wd.mac, 1, &mp);
	TEST_ASSERT(rte_is_same_ether_addr(&m1, &mp), "port 1 MAC");

	TEST_ASSERT(hwsim_wire_devargs_key("wire") && hwsim_wire_devargs_key("wire2") &&
		    hwsim_wire_devargs_key("mac") && hwsim_wire_devargs_key("speed"), "keys");
	TEST_ASSERT(!hwsim_wire_devargs_key("wireless") && !hwsim_wire_devargs_key("class"),
		    "foreign keys claimed");
	return TEST_SUCCESS;
}

static int
test_hwsim_wire_devargs_errors(void)
{
	static const char *const bad[] = {
		"wire",                          /* bare key */
		"wire=",                         /* empty value */
		"mac",
		"speed=",
		"wire=loop,wire=none",           /* duplicate */
		"wire=loop,wire1=none",          /* the same port twice */
		"mac=02:00:00:00:00:01,mac=02:00:00:00:00:02",
		"speed=1000,speed=1000",
		"speed=99999999999999999999999", /* huge */
		"speed=1600001",
		"speed=0",
		"speed=-1",
		"speed=10G",
		"wire3=loop",                    /* port out of range (2 ports) */
		"wire0=loop",
		"wire99999999999999999999=loop",
		"mac=01:00:5e:00:00:01",         /* multicast */
		"mac=00:00:00:00:00:00",
		"mac=02:00:00:00:00",
		"mac=zz:00:00:00:00:00",
		"wire=bogus",
		"wire=pair:",
		"wire=pair:.1",
		"wire=pair:ut_x.0",
		"wire=pair:ut_x.9",
		"wire=pair:ut_x.99999999999999999999",
		"wire=tap:",
		"wire=tap:name_longer_than_15",
		"wire=tap:a/b",
		"wire2=loops",
	};
	struct hwsim_wire_devargs wd;
	struct rte_kvargs *kvl;
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(bad); i++) {
		kvl = rte_kvargs_parse(bad[i], NULL);
		TEST_ASSERT_NOT_NULL(kvl, "kvargs cannot parse \"%s\"", bad[i]);
		ret = hwsim_wire_devargs_parse(kvl, "ut_dev0", 2, 40000, &wd);
		rte_kvargs_free(kvl);
		TEST_ASSERT_EQUAL(ret, -EINVAL, "\"%s\" gave %d", bad[i], ret);
	}
	/* A one-port device has no wire2. */
	kvl = rte_kvargs_parse("wire2=loop", NULL);
	TEST_ASSERT_NOT_NULL(kvl, "kvargs");
	ret = hwsim_wire_devargs_parse(kvl, "ut_dev0", 1, 40000, &wd);
	rte_kvargs_free(kvl);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "wire2 on a 1-port device gave %d", ret);
	return TEST_SUCCESS;
}

/*
 * TAP. The test moves the TAP into a namespace of its own, as a user may while the port
 * runs, and talks to it there through a packet socket.
 */

struct tap_env {
	char ifname[IF_NAMESIZE];
	char ns[32];
	int ns_made;
};

/*
 * A packet socket on ifname inside namespace ns: this thread enters the namespace
 * to open it and comes back; the socket stays in the namespace.
 * @return the socket, or -1.
 */
static int
ns_packet_socket(const char *ns, const char *ifname)
{
	struct sockaddr_ll sll;
	char path[64];
	int self = -1, nsfd = -1, s = -1;
	unsigned int idx;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	nsfd = open(path, O_RDONLY | O_CLOEXEC);
	if (self < 0 || nsfd < 0 || setns(nsfd, CLONE_NEWNET) != 0)
		goto out;
	idx = if_nametoindex(ifname);
	s = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
		   rte_cpu_to_be_16(TEST_ETHERTYPE));
	if (s >= 0) {
		memset(&sll, 0, sizeof(sll));
		sll.sll_family = AF_PACKET;
		sll.sll_protocol = rte_cpu_to_be_16(TEST_ETHERTYPE);
		sll.sll_ifindex = (int)idx;
		if (idx == 0 || bind(s, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
			close(s);
			s = -1;
		}
	}
	if (setns(self, CLONE_NEWNET) != 0) {
		/* Stuck in the test namespace: the rest of the program would be wrong. */
		printf("cannot return to the original network namespace\n");
		abort();
	}
out:
	if (self >= 0)
		close(self);
	if (nsfd >= 0)
		close(nsfd);
	return s;
}

/* @return the length of the first frame on s carrying TEST_MARK and seq, or -1. */
static int
ns_recv_marked(int s, uint8_t seq, uint8_t *buf, size_t size)
{
	struct pollfd pfd = { .fd = s, .events = POLLIN };
	unsigned int ms;
	ssize_t n;

	for (ms = 0; ms < UT_WAIT_LIMIT_MS; ms += 10) {
		if (poll(&pfd, 1, 10) <= 0)
			continue;
		while ((n = recv(s, buf, size, 0)) > 0) {
			if (n >= TEST_FRAME_LEN &&
			    memcmp(buf + RTE_ETHER_HDR_LEN, TEST_MARK, sizeof(TEST_MARK)) == 0 &&
			    buf[TEST_FRAME_LEN - 1] == seq)
				return (int)n;
		}
	}
	return -1;
}

static void
tap_env_cleanup(struct tap_env *env)
{
	if (env->ns_made)
		ut_sh("ip netns del %s >/dev/null 2>&1", env->ns);
	env->ns_made = 0;
}

/* @return 0 once the port has dropped a received frame, -1 after UT_WAIT_LIMIT_MS. */
static int
wait_rx_dropped(const struct hwsim_wire_port *p)
{
	struct hwsim_wire_stats st;

	return UT_WAIT_FOR(hwsim_wire_stats_get(p, &st) == 0 && st.rx_dropped > 0);
}

static int
test_hwsim_wire_tap_netns(void)
{
	struct tap_env env = { .ns_made = 0 };
	struct hwsim_wire_port *p;
	struct test_port tp;
	char spec[32];
	uint8_t f[TEST_FRAME_LEN];
	uint8_t buf[2048];
	int s = -1;
	int same;
	int ret = TEST_FAILED;

	if (ut_tap_usable() != 0)
		return TEST_SKIPPED;
	test_port_init(&tp);
	snprintf(env.ifname, sizeof(env.ifname), "hwt%d", (int)getpid() % 1000000);
	snprintf(env.ns, sizeof(env.ns), "hwsim_wire_ut%d", (int)getpid());
	snprintf(spec, sizeof(spec), "tap:%s", env.ifname);
	p = port_create("ut_tap", 1, 1, spec, 10000, &tp);
	if (p == NULL && (rte_errno == EPERM || rte_errno == EACCES)) {
		printf("skipped: cannot create a TAP (%s)\n", rte_strerror(rte_errno));
		return TEST_SKIPPED;
	}
	TEST_ASSERT_NOT_NULL(p, "TAP port not created: %s", rte_strerror(rte_errno));
	if (if_nametoindex(env.ifname) == 0) {
		printf("TAP %s does not exist\n", env.ifname);
		goto out;
	}
	if (ut_sh("ip netns add %s >/dev/null 2>&1", env.ns) != 0) {
		printf("skipped: cannot create a network namespace\n");
		ret = TEST_SKIPPED;
		goto out;
	}
	env.ns_made = 1;
	/* The kernel moves the TAP while the port runs; the port's fd keeps working. */
	if (ut_sh("ip link set %s netns %s && ip -n %s link set %s up", env.ifname, env.ns,
	       env.ns, env.ifname) != 0) {
		printf("cannot move %s into %s\n", env.ifname, env.ns);
		goto out;
	}
	s = ns_packet_socket(env.ns, env.ifname);
	if (s < 0) {
		printf("no packet socket on %s in %s\n", env.ifname, env.ns);
		goto out;
	}
	/* Wire -> kernel. */
	test_frame(f, 0x5a);
	if (hwsim_wire_send(p, f, sizeof(f)) != 0) {
		printf("send to the TAP failed\n");
		goto out;
	}
	if (ns_recv_marked(s, 0x5a, buf, sizeof(buf)) != TEST_FRAME_LEN ||
	    memcmp(buf, f, sizeof(f)) != 0) {
		printf("the kernel did not get the frame\n");
		goto out;
	}
	/* Kernel -> wire. */
	test_frame(f, 0xa5);
	if (send(s, f, sizeof(f), 0) != (ssize_t)sizeof(f)) {
		printf("packet socket send: %s\n", strerror(errno));
		goto out;
	}
	if (ut_wait_counter(&tp.frames, 1) != 0) {
		printf("the frame from the kernel did not arrive\n");
		goto out;
	}
	pthread_mutex_lock(&tp.lock);
	same = tp.len == sizeof(f) && memcmp(tp.last, f, sizeof(f)) == 0;
	pthread_mutex_unlock(&tp.lock);
	if (!same) {
		printf("the frame from the kernel differs\n");
		goto out;
	}
	/* With the cable pulled the kernel's frames stop at the port. */
	hwsim_wire_link_set(p, 0);
	test_frame(f, 0xa6);
	if (send(s, f, sizeof(f), 0) != (ssize_t)sizeof(f) || wait_rx_dropped(p) != 0 ||
	    ld(&tp.frames) != 1) {
		printf("a frame from the kernel was not dropped with the link down\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (s >= 0)
		close(s);
	hwsim_wire_port_destroy(p);
	/* We created the TAP, so closing removed it, even inside the namespace. */
	if (ret == TEST_SUCCESS && env.ns_made &&
	    ut_sh("ip -n %s link show %s >/dev/null 2>&1", env.ns, env.ifname) == 0) {
		printf("TAP %s left behind in %s\n", env.ifname, env.ns);
		ret = TEST_FAILED;
	}
	tap_env_cleanup(&env);
	if (if_nametoindex(env.ifname) != 0) {
		printf("TAP %s left behind\n", env.ifname);
		ut_sh("ip link del %s >/dev/null 2>&1", env.ifname);
		ret = TEST_FAILED;
	}
	return ret;
}

/* An existing persistent TAP is used and left in place; a non-TAP name is refused. */
static int
test_hwsim_wire_tap_existing(void)
{
	struct hwsim_wire_port *p;
	struct test_port tp;
	char ifname[IF_NAMESIZE];
	char spec[32];
	int kept;

	if (ut_tap_usable() != 0)
		return TEST_SKIPPED;
	test_port_init(&tp);
	snprintf(ifname, sizeof(ifname), "hwu%d", (int)getpid() % 1000000);
	if (ut_sh("ip tuntap add dev %s mode tap >/dev/null 2>&1", ifname) != 0) {
		printf("skipped: cannot create a persistent TAP\n");
		return TEST_SKIPPED;
	}
	snprintf(spec, sizeof(spec), "tap:%s", ifname);
	p = port_create("ut_tapx", 1, 1, spec, 10000, &tp);
	if (p == NULL) {
		ut_sh("ip link del %s", ifname);
		TEST_ASSERT_NOT_NULL(p, "existing TAP not attached: %s", rte_strerror(rte_errno));
	}
	TEST_ASSERT(hwsim_wire_link_up(p), "TAP port down");
	hwsim_wire_port_destroy(p);
	kept = if_nametoindex(ifname) != 0;
	ut_sh("ip link del %s >/dev/null 2>&1", ifname);
	TEST_ASSERT(kept, "a TAP we did not create was removed");

	/* "lo" exists and is no TAP. */
	TEST_ASSERT_NULL(port_create("ut_tapx", 1, 1, "tap:lo", 10000, &tp), "tap:lo accepted");
	TEST_ASSERT_NULL(hwsim_wire_port_find("ut_tapx.1"), "a failed port was registered");
	TEST_ASSERT(if_nametoindex("lo") != 0, "lo gone");
	return TEST_SUCCESS;
}

static struct unit_test_suite hwsim_wire_suite = {
	.suite_name = "hwsim wire unit tests",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE(test_hwsim_wire_loop),
		TEST_CASE(test_hwsim_wire_batch),
		TEST_CASE(test_hwsim_wire_pair_a_first),
		TEST_CASE(test_hwsim_wire_pair_b_first),
		TEST_CASE(test_hwsim_wire_pair_same_device),
		TEST_CASE(test_hwsim_wire_pair_errors),
		TEST_CASE(test_hwsim_wire_none),
		TEST_CASE(test_hwsim_wire_link_events),
		TEST_CASE(test_hwsim_wire_knobs),
		TEST_CASE(test_hwsim_wire_pair_destroy_while_sending),
		TEST_CASE(test_hwsim_wire_devargs_ok),
		TEST_CASE(test_hwsim_wire_devargs_errors),
		TEST_CASE(test_hwsim_wire_tap_netns),
		TEST_CASE(test_hwsim_wire_tap_existing),
		TEST_CASES_END()
	}
};

static int
test_hwsim_wire(void)
{
	return unit_test_suite_runner(&hwsim_wire_suite);
}

REGISTER_TEST_COMMAND(hwsim_wire_autotest, test_hwsim_wire);
