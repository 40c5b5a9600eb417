/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Unit tests of the simulated ConnectX-3's ports on the shared wire, driven through the raw
 * views: wire devargs (good, bad, mode= as their shorthand), loop and pair delivery, a pair
 * between an mlx4v_sim port and an mlx5v_sim port (driven by PRM commands) in both probe
 * orders, link down/up/flap with the class drivers' port events, and a TAP wire with the
 * kernel as the peer inside a network namespace.
 */

#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_arp.h>
#include <rte_bus_vdev.h>
#include <rte_devargs.h>
#include <rte_malloc.h>

#include "test.h"

#include "ethdp_fx.h"
#include "hwsim_wire.h"
#include "mlx4v_class.h"
#include "mlx4v_test_queues.h"
#include "ut_common.h"
#include "ut_sh.h"

#define BUF_SIZE 2048
#define NBUF 32
#define WT_PORTS 4      /* ports=1..4 */

/* One device opened as a raw user: PD, MR over a buffer area, a Tx queue, an Rx queue. */
struct wdev {
	const char *name;
	struct mlx4v_sim *sim;
	struct rte_pmd_mlx4v_dev *dev;
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_mr *mr;
	uint8_t *mem;
	uint32_t lkey;
};

static uint8_t *
buf_at(struct wdev *w, unsigned int i)
{
	return w->mem + (size_t)i * BUF_SIZE;
}

/* Probe (args may be NULL when the device already exists) and open the device. */
static int
wdev_up(struct wdev *w, const char *name, const char *args)
{
	memset(w, 0, sizeof(*w));
	w->name = name;
	if (args != NULL && rte_vdev_init(name, args) != 0) {
		printf("%s: probe with \"%s\" failed\n", name, args);
		return -1;
	}
	w->sim = mlx4v_sim_get(name);
	w->dev = rte_pmd_mlx4v_dev_open(name);
	if (w->sim == NULL || w->dev == NULL)
		return -1;
	w->pd = rte_pmd_mlx4v_alloc_pd(w->dev);
	w->mem = rte_zmalloc(NULL, (size_t)NBUF * BUF_SIZE, 4096);
	if (w->pd == NULL || w->mem == NULL)
		return -1;
	w->mr = rte_pmd_mlx4v_reg_mr(w->pd, w->mem, (size_t)NBUF * BUF_SIZE);
	if (w->mr == NULL || rte_pmd_mlx4v_mr_lkey(w->mr, &w->lkey) != 0)
		return -1;
	return 0;
}

/* @return 0, or -1 if the device model still holds objects (a leak). */
static int
wdev_down(struct wdev *w)
{
	unsigned int k, left = 0;

	if (w->name == NULL)
		return 0;
	rte_pmd_mlx4v_dereg_mr(w->mr);
	rte_pmd_mlx4v_dealloc_pd(w->pd);
	if (w->dev != NULL)
		rte_pmd_mlx4v_dev_close(w->dev);
	rte_free(w->mem);
	if (w->sim != NULL)
		for (k = 0; k < MLX4V_SIM_OBJ_MAX; k++)
			left += mlx4v_sim_live_objects(w->sim, k);
	rte_vdev_uninit(w->name);
	w->name = NULL;
	return left == 0 ? 0 : -1;
}

static int
txq_create(struct mlx4v_test_txq *t, struct wdev *w, uint8_t port)
{
	return mlx4v_test_txq_create(t, w->dev, w->pd, port, 64);
}

/* A receive queue on port (promiscuous rule) with n buffers posted from buffer first on. */
static int
rxq_create(struct mlx4v_test_rxq *r, struct wdev *w, uint8_t port, unsigned int first,
	   unsigned int n)
{
	unsigned int i;

	TEST_ASSERT_SUCCESS(mlx4v_test_rxq_create(r, w->dev, w->pd, port, 16, 0, NULL), "rxq");
	r->first = first;
	for (i = 0; i < n; i++)
		mlx4v_test_rq_post(&r->rq, w->lkey, buf_at(w, first + i), BUF_SIZE);
	return TEST_SUCCESS;
}

/* A frame to dst from src, of len bytes, its payload filled with seed. */
static void
frame_fill(uint8_t *p, uint32_t len, const uint8_t *dst, const uint8_t *src, uint8_t seed)
{
	memset(p, seed, len);
	memcpy(p, dst, RTE_ETHER_ADDR_LEN);
	memcpy(p + RTE_ETHER_ADDR_LEN, src, RTE_ETHER_ADDR_LEN);
	p[12] = 0x88;	/* local experimental EtherType 0x88b5 */
	p[13] = 0xb5;
}


/* ---- the log of a probe, to check its one clear line ---- */

static char *g_logbuf;
static size_t g_loglen;
static FILE *g_logf;

static void
log_begin(void)
{
	g_logf = open_memstream(&g_logbuf, &g_loglen);
	if (g_logf != NULL)
		rte_openlog_stream(g_logf);
}

/* @return 1 if the log since log_begin() holds want (or the log could not be captured). */
static int
log_end(const char *want)
{
	int found;

	rte_openlog_stream(NULL);
	if (g_logf == NULL)
		return 1;
	fclose(g_logf);
	g_logf = NULL;
	found = want == NULL || strstr(g_logbuf, want) != NULL;
	if (!found)
		printf("log lacks \"%s\":\n%s", want, g_logbuf);
	free(g_logbuf);
	g_logbuf = NULL;
	return found;
}

/* ---- a class driver that records the PORT events ---- */

static unsigned int g_ev_up[WT_PORTS + 1];
static unsigned int g_ev_down[WT_PORTS + 1];

static int
wt_probe(struct mlxv_class_dev *cd, struct rte_device *edev, const char *devargs)
{
	RTE_SET_USED(cd);
	RTE_SET_USED(edev);
	RTE_SET_USED(devargs);
	return 0;
}

static int
wt_remove(struct mlxv_class_dev *cd)
{
	RTE_SET_USED(cd);
	return 0;
}

static void
wt_event(struct mlxv_class_dev *cd, const void *arg)
{
	const struct mlx4v_class_event *ev = arg;

	RTE_SET_USED(cd);
	if (ev->type != MLX4V_CLASS_EVENT_PORT || ev->port > WT_PORTS)
		return;
	if (ev->up)
		g_ev_up[ev->port]++;
	else
		g_ev_down[ev->port]++;
}

static struct mlxv_class_driver g_wt_class = {
	.name = "wiretest", .probe = wt_probe, .remove = wt_remove, .event = wt_event,
};

static int
testsuite_setup(void)
{
	return mlx4v_class_driver_register(&g_wt_class) == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static void
testsuite_teardown(void)
{
	mlx4v_class_driver_unregister(&g_wt_class);
}

/* ---- tests ---- */

/* wire=, wire<N>=, mac=, speed= and mode= give the ports their cables. */
static int
test_mlx4v_sim_wire_devargs_good(void)
{
	struct rte_ether_addr mac;
	struct mlx4v_sim *sim;

	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx4v_sim_w0", "class=none,ports=3,wire=loop,"
					  "wire2=none,mac=02:00:00:00:01:ff,speed=10000"), "probe");
	sim = mlx4v_sim_get("mlx4v_sim_w0");
	TEST_ASSERT_NOT_NULL(sim, "device");
	TEST_ASSERT_EQUAL(hwsim_wire_port_kind(mlx4v_sim_wire_port(sim, 1)), HWSIM_WIRE_LOOP,
			  "port 1 kind");
	TEST_ASSERT_EQUAL(hwsim_wire_port_kind(mlx4v_sim_wire_port(sim, 2)), HWSIM_WIRE_NONE,
			  "port 2 kind");
	TEST_ASSERT_EQUAL(hwsim_wire_port_kind(mlx4v_sim_wire_port(sim, 3)), HWSIM_WIRE_LOOP,
			  "port 3 kind (default)");
	TEST_ASSERT_NULL(mlx4v_sim_wire_port(sim, 4), "port 4 of 3");
	TEST_ASSERT_EQUAL(mlx4v_sim_link_get(sim, 1), 1, "loop is up");
	TEST_ASSERT_EQUAL(mlx4v_sim_link_get(sim, 2), 0, "none is down");
	TEST_ASSERT_EQUAL(mlx4v_sim_link_get(sim, 5), -EINVAL, "port 5");
	TEST_ASSERT_EQUAL(mlx4v_sim_link_speed(sim, 1), 10000u, "speed=");
	TEST_ASSERT_EQUAL(mlx4v_sim_link_speed(sim, 2), 0u, "speed of a down port");
	TEST_ASSERT_SUCCESS(mlx4v_sim_port_mac(sim, 3, &mac), "mac");
	TEST_ASSERT(mac.addr_bytes[0] == 0x02 && mac.addr_bytes[4] == 0x02 &&
		    mac.addr_bytes[5] == 0x01, "port 3 MAC is mac= + 2 in the low bytes");
	TEST_ASSERT_EQUAL(mlx4v_sim_link_set(sim, 2, 1), -ENOTSUP, "plugging wire=none");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx4v_sim_w0"), "uninit");
	TEST_ASSERT_NULL(hwsim_wire_port_find("mlx4v_sim_w0.1"), "port left behind");

	/* mode=pair is wire1=pair:<self>.2, wire2=pair:<self>.1; an odd last port loops. */
	TEST_ASSERT_SUCCESS(rte_vdev_init("mlx4v_sim_w0", "class=none,ports=3,mode=pair,"
					  "wire2=pair:mlx4v_sim_w0.1"), "mode=pair");
	sim = mlx4v_sim_get("mlx4v_sim_w0");
	TEST_ASSERT_EQUAL(hwsim_wire_port_kind(mlx4v_sim_wire_port(sim, 1)), HWSIM_WIRE_PAIR,
			  "mode=pair port 1");
	TEST_ASSERT_EQUAL(hwsim_wire_port_kind(mlx4v_sim_wire_port(sim, 3)), HWSIM_WIRE_LOOP,
			  "mode=pair odd last port");
	TEST_ASSERT(mlx4v_sim_link_get(sim, 1) == 1 && mlx4v_sim_link_get(sim, 2) == 1,
		    "the pair is up");
	TEST_ASSERT_EQUAL(mlx4v_sim_link_speed(sim, 1), 40000u, "default speed");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("mlx4v_sim_w0"), "uninit");
	return TEST_SUCCESS;
}

/* Bad devargs fail the probe with one clear line and leave no device and no port. */
static int
test_mlx4v_sim_wire_devargs_bad(void)
{
	static const struct {
		const char *args;
		const char *log;
	} bad[] = {
		{ "ports=2,wire3=loop", "wire3: port out of range" },
		{ "ports=1,wire2=loop", "wire2: port out of range" },
		{ "wire9=loop", "wire9: port out of range" },
		{ "wire0=loop", "wire0: port out of range" },
		{ "wire=pair:mlx4v_sim_nosuch", "unknown device mlx4v_sim_nosuch" },
		{ "wire2=pair:mlx4v_sim_w1.7", "mlx4v_sim_w1 has 2 port(s)" },
		{ "wire=cable", "unknown kind" },
		{ "wire=", "empty value" },
		{ "wire=tap:a/b", "not a valid interface name" },
		{ "wire=loop,wire1=none", "given twice" },
		{ "mode=pair,wire2=loop", "wire2=loop conflicts with mode=pair" },
		{ "mode=loopback,wire=none", "wire=none conflicts with mode=loopback" },
		{ "mac=01:00:00:00:00:01", "multicast" },
		{ "speed=0", "not a speed" },
	};
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(bad); i++) {
		log_begin();
		ret = rte_vdev_init("mlx4v_sim_w1", bad[i].args);
		TEST_ASSERT(log_end(bad[i].log), "%s: no clear log line", bad[i].args);
		TEST_ASSERT(ret != 0, "%s accepted", bad[i].args);
		TEST_ASSERT_NULL(mlx4v_sim_get("mlx4v_sim_w1"), "%s left a device", bad[i].args);
		TEST_ASSERT_NULL(hwsim_wire_port_find("mlx4v_sim_w1.1"), "%s left port 1",
				 bad[i].args);
		TEST_ASSERT_NULL(hwsim_wire_port_find("mlx4v_sim_w1.2"), "%s left port 2",
				 bad[i].args);
	}
	/* A TAP that cannot be created: the name is taken by an interface that is no TAP. */
	if (if_nametoindex("lo") != 0) {
		log_begin();
		ret = rte_vdev_init("mlx4v_sim_w1", "wire2=tap:lo");
		TEST_ASSERT(log_end("wire mlx4v_sim_w1.2: "), "TAP on lo: no log line");
		TEST_ASSERT(ret != 0, "a TAP over lo accepted");
		TEST_ASSERT_NULL(mlx4v_sim_get("mlx4v_sim_w1"), "TAP failure left a device");
		TEST_ASSERT_NULL(hwsim_wire_port_find("mlx4v_sim_w1.1"), "TAP failure left port 1");
	}
	/* mlx5v_sim has one port per function: wire<N>= beyond it is out of range, no knob. */
	log_begin();
	ret = rte_vdev_init("mlx5v_sim_w1", "class=none,wire2=loop");
	TEST_ASSERT(log_end("wire2: port out of range"), "mlx5v_sim wire2= message");
	TEST_ASSERT(ret != 0 && mlx5v_sim_get("mlx5v_sim_w1") == NULL, "mlx5v_sim wire2=");
	log_begin();
	ret = rte_vdev_init("mlx5v_sim_w1", "class=none,wire9=loop");
	TEST_ASSERT(log_end("wire9: port out of range"), "mlx5v_sim wire9= message");
	TEST_ASSERT(ret != 0 && mlx5v_sim_get("mlx5v_sim_w1") == NULL, "mlx5v_sim wire9=");
	TEST_ASSERT_NULL(hwsim_wire_port_find("mlx5v_sim_w1.1"), "mlx5v_sim port left");
	return TEST_SUCCESS;
}

/* Send on port and expect the frame on the receive queue r (or, with r NULL, nowhere). */
static int
send_recv(struct wdev *w, struct mlx4v_test_txq *t, struct mlx4v_test_rxq *r, uint32_t len,
	  uint8_t seed)
{
	struct mlx4_cqe *cqe;

	frame_fill(buf_at(w, 0), len, (const uint8_t *)"\x02\x00\x00\x00\x00\x01",
		   (const uint8_t *)"\x02\x00\x00\x00\x00\x02", seed);
	mlx4v_test_sq_send(&t->sq, w->lkey, buf_at(w, 0), len, 1);
	cqe = mlx4v_test_cq_wait(&t->tcq, w->sim);
	TEST_ASSERT_NOT_NULL(cqe, "no send CQE");
	TEST_ASSERT_EQUAL((cqe->owner_sr_opcode & MLX4_CQE_OPCODE_MASK), MLX4_OPCODE_SEND,
			  "send CQE opcode");
	mlx4v_test_cq_consume(&t->tcq);
	if (r == NULL)
		return TEST_SUCCESS;
	cqe = mlx4v_test_cq_wait(&r->tcq, w->sim);
	TEST_ASSERT_NOT_NULL(cqe, "frame not received");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->byte_cnt), len, "byte_cnt");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(buf_at(w, r->first + rte_be_to_cpu_16(cqe->wqe_index)),
				      buf_at(w, 0), len, "payload");
	mlx4v_test_cq_consume(&r->tcq);
	return TEST_SUCCESS;
}

/* Loop on port 1 and a pair of the device's own ports 2 <-> 3, through the wire. */
static int
test_mlx4v_sim_wire_loop_and_pair(void)
{
	struct hwsim_wire_stats ws;
	struct mlx4v_test_rxq r1, r2, r3;
	struct mlx4v_test_txq t1, t2;
	struct wdev w;
	int ret = TEST_FAILED;

	memset(&t1, 0, sizeof(t1));
	memset(&t2, 0, sizeof(t2));
	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	memset(&r3, 0, sizeof(r3));
	if (wdev_up(&w, "mlx4v_sim_w2", "ports=3,wire=loop,wire2=pair:mlx4v_sim_w2.3,"
		    "wire3=pair:mlx4v_sim_w2.2") != 0)
		goto out;
	if (txq_create(&t1, &w, 1) != 0 || txq_create(&t2, &w, 2) != 0 ||
	    rxq_create(&r1, &w, 1, 8, 2) != 0 || rxq_create(&r2, &w, 2, 10, 2) != 0 ||
	    rxq_create(&r3, &w, 3, 12, 2) != 0)
		goto out;
	/* Port 1 hears itself; port 2's frame arrives on port 3 only. */
	if (send_recv(&w, &t1, &r1, 100, 0x11) != TEST_SUCCESS ||
	    send_recv(&w, &t2, &r3, 200, 0x22) != TEST_SUCCESS)
		goto out;
	mlx4v_test_settle(w.sim);
	if (mlx4v_test_cq_peek(&r2.tcq) != NULL || mlx4v_test_cq_peek(&r1.tcq) != NULL) {
		printf("a frame reached a port it was not sent to\n");
		goto out;
	}
	hwsim_wire_stats_get(mlx4v_sim_wire_port(w.sim, 2), &ws);
	if (ws.tx_frames != 1 || ws.tx_bytes != 200) {
		printf("port 2 wire: %" PRIu64 " frames %" PRIu64 " bytes\n", ws.tx_frames,
		       ws.tx_bytes);
		goto out;
	}
	hwsim_wire_stats_get(mlx4v_sim_wire_port(w.sim, 3), &ws);
	if (ws.rx_frames != 1) {
		printf("port 3 wire received %" PRIu64 " frames\n", ws.rx_frames);
		goto out;
	}
	if (mlx4v_sim_misuse_total(w.sim) != 0) {
		printf("misuse flagged\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	mlx4v_test_rxq_destroy(&r3);
	mlx4v_test_rxq_destroy(&r2);
	mlx4v_test_rxq_destroy(&r1);
	mlx4v_test_txq_destroy(&t2);
	mlx4v_test_txq_destroy(&t1);
	if (wdev_down(&w) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* One frame each way between mlx4v port mport and the mlx5v fixture f (already up). */
static int
cross_traffic(struct wdev *w, unsigned int mport, struct fx *f)
{
	struct rte_ether_addr mac;
	struct mlx4_cqe *cqe4;
	const uint8_t *cqe5;
	uint8_t frame[256];
	struct mlx4v_test_txq t;
	struct mlx4v_test_rxq r;
	int ret = TEST_FAILED;

	memset(&t, 0, sizeof(t));
	memset(&r, 0, sizeof(r));
	if (txq_create(&t, w, mport) != 0 || rxq_create(&r, w, mport, 8, 4) != 0)
		goto out;
	/*
	 * Each simulator takes the peer's arrival at its own engine's next pass: wait for both
	 * ends rather than look once.
	 */
	if (UT_WAIT_FOR(mlx4v_sim_link_get(w->sim, mport) == 1 && mlx5v_sim_link_get(f->sim)) !=
	    0) {
		printf("the cross-simulator pair is not up\n");
		goto out;
	}
	mlx4v_sim_port_mac(w->sim, mport, &mac);
	/* ConnectX-3 -> ConnectX-4: to the fixture's MAC, through its steering. */
	frame_udp(buf_at(w, 0), 180, f->mac, RTE_IPV4(10, 4, 0, 1), 4, 0);
	mlx4v_test_sq_send(&t.sq, w->lkey, buf_at(w, 0), 180, 1);
	if (mlx4v_test_cq_wait(&t.tcq, w->sim) == NULL) {
		printf("no mlx4v send CQE\n");
		goto out;
	}
	mlx4v_test_cq_consume(&t.tcq);
	cqe5 = cq_wait(f, 1);
	if (cqe5 == NULL || be32(cqe5 + CQE_BYTE_CNT) != 180 ||
	    memcmp(rx_buf(f, cqe5), buf_at(w, 0), 180) != 0) {
		printf("mlx5v_sim did not receive the mlx4v_sim frame intact\n");
		goto out;
	}
	rq_post(f, be32(cqe5 + CQE_USER_INDEX) & 0xffffff, 1);
	/* ConnectX-4 -> ConnectX-3: to the mlx4v port's MAC. */
	frame_udp(frame, 96, mac.addr_bytes, RTE_IPV4(10, 5, 0, 1), 5, 0);
	sq_send(f, frame, 96, 0, f->lkey, 0);
	if (cq_wait(f, 0) == NULL) {
		printf("no mlx5v send CQE\n");
		goto out;
	}
	cqe4 = mlx4v_test_cq_wait(&r.tcq, w->sim);
	if (cqe4 == NULL || rte_be_to_cpu_32(cqe4->byte_cnt) != 96 ||
	    memcmp(buf_at(w, 8 + rte_be_to_cpu_16(cqe4->wqe_index)), frame, 96) != 0) {
		printf("mlx4v_sim did not receive the mlx5v_sim frame intact\n");
		goto out;
	}
	mlx4v_test_cq_consume(&r.tcq);
	ret = TEST_SUCCESS;
out:
	mlx4v_test_rxq_destroy(&r);
	mlx4v_test_txq_destroy(&t);
	return ret;
}

/* mlx4v_sim port 1 <-> mlx5v_sim, the mlx4v device probed first. */
static int
test_mlx4v_sim_wire_cross_mlx4_first(void)
{
	static struct fx f;
	struct wdev w;
	int ret = TEST_FAILED;

	if (ut_eal_devargs_add("mlx5v_sim_w3,class=none,wire=pair:mlx4v_sim_w3.1") == NULL) {
		printf("cannot add EAL devargs\n");
		return TEST_FAILED;
	}
	memset(&f, 0, sizeof(f));
	if (wdev_up(&w, "mlx4v_sim_w3", "class=none,wire=pair:mlx5v_sim_w3") != 0)
		goto out;
	if (mlx4v_sim_link_get(w.sim, 1) != 0) {
		printf("a pair without its peer is up\n");
		goto out;
	}
	if (fx_up(&f, "mlx5v_sim_w3", "class=none,wire=pair:mlx4v_sim_w3.1") != 0)
		goto out;
	ret = cross_traffic(&w, 1, &f);
out:
	if (fx_down(&f) != 0 || wdev_down(&w) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* mlx5v_sim <-> mlx4v_sim port 2, the mlx5v device probed first. */
static int
test_mlx4v_sim_wire_cross_mlx5_first(void)
{
	static struct fx f;
	struct wdev w;
	int ret = TEST_FAILED;

	if (ut_eal_devargs_add("mlx4v_sim_w4,class=none,wire2=pair:mlx5v_sim_w4") == NULL) {
		printf("cannot add EAL devargs\n");
		return TEST_FAILED;
	}
	memset(&f, 0, sizeof(f));
	memset(&w, 0, sizeof(w));
	if (fx_up(&f, "mlx5v_sim_w4", "class=none,wire=pair:mlx4v_sim_w4.2") != 0)
		goto out;
	if (wdev_up(&w, "mlx4v_sim_w4", "class=none,wire2=pair:mlx5v_sim_w4") != 0)
		goto out;
	ret = cross_traffic(&w, 2, &f);
	/* The mlx4v end leaves: the mlx5v end goes down and waits for it. */
	if (wdev_down(&w) != 0)
		ret = TEST_FAILED;
	if (hwsim_wire_link_up(mlx5v_sim_wire_port(f.sim))) {
		printf("mlx5v end still up after its peer left\n");
		ret = TEST_FAILED;
	}
out:
	if (fx_down(&f) != 0 || wdev_down(&w) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* Cable pulled, plugged, flapped; a port closed: link state, lost sends, PORT events. */
static int
test_mlx4v_sim_wire_link_events(void)
{
	struct mlx4v_sim_port_stats ps;
	struct mlx4v_test_rxq r1, r2;
	struct mlx4v_test_txq t1;
	struct wdev w;
	int ret = TEST_FAILED;

	memset(&t1, 0, sizeof(t1));
	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	memset(g_ev_up, 0, sizeof(g_ev_up));
	memset(g_ev_down, 0, sizeof(g_ev_down));
	if (wdev_up(&w, "mlx4v_sim_w5", "class=wiretest,ports=2,mode=pair") != 0)
		goto out;
	if (txq_create(&t1, &w, 1) != 0 || rxq_create(&r1, &w, 1, 8, 2) != 0 ||
	    rxq_create(&r2, &w, 2, 10, 2) != 0)
		goto out;
	/* Cable out at port 1: both ends of the pair go down, one event each. */
	if (mlx4v_sim_link_set(w.sim, 1, 0) != 0 || mlx4v_sim_link_get(w.sim, 1) != 0 ||
	    mlx4v_sim_link_get(w.sim, 2) != 0 || g_ev_down[1] != 1 || g_ev_down[2] != 1 ||
	    g_ev_up[1] != 0) {
		printf("cable out: link %d/%d, down events %u/%u\n",
		       mlx4v_sim_link_get(w.sim, 1), mlx4v_sim_link_get(w.sim, 2),
		       g_ev_down[1], g_ev_down[2]);
		goto out;
	}
	/* A send completes (a port cannot tell) but nothing crosses; the loss is counted. */
	if (send_recv(&w, &t1, NULL, 80, 0x31) != TEST_SUCCESS)
		goto out;
	mlx4v_test_settle(w.sim);
	mlx4v_sim_port_stats_get(w.sim, 1, &ps);
	if (mlx4v_test_cq_peek(&r2.tcq) != NULL || ps.tx_link_down != 1) {
		printf("link down: frame crossed or not counted (tx_link_down %" PRIu64 ")\n",
		       ps.tx_link_down);
		goto out;
	}
	/* Cable in: up on both ends, and traffic flows again. */
	if (mlx4v_sim_link_set(w.sim, 1, 1) != 0 || mlx4v_sim_link_get(w.sim, 2) != 1 ||
	    g_ev_up[1] != 1 || g_ev_up[2] != 1) {
		printf("cable in: up events %u/%u\n", g_ev_up[1], g_ev_up[2]);
		goto out;
	}
	if (send_recv(&w, &t1, &r2, 80, 0x32) != TEST_SUCCESS)
		goto out;
	/* A flap: down then up at both ends. */
	if (mlx4v_sim_link_flap(w.sim, 2) != 0 || g_ev_down[1] != 2 || g_ev_up[1] != 2 ||
	    g_ev_down[2] != 2 || g_ev_up[2] != 2 || mlx4v_sim_link_get(w.sim, 1) != 1) {
		printf("flap: events down %u/%u up %u/%u\n", g_ev_down[1], g_ev_down[2],
		       g_ev_up[1], g_ev_up[2]);
		goto out;
	}
	/* Port 2 closed by its driver: the link drops at both ends; opened: back up. */
	if (mlx4v_sim_port_admin_set(w.sim, 2, 0) != 0 || mlx4v_sim_link_get(w.sim, 1) != 0 ||
	    g_ev_down[1] != 3 || mlx4v_sim_port_admin_set(w.sim, 2, 1) != 0 ||
	    mlx4v_sim_link_get(w.sim, 1) != 1 || g_ev_up[1] != 3) {
		printf("admin down/up: events down %u up %u\n", g_ev_down[1], g_ev_up[1]);
		goto out;
	}
	mlx4v_sim_port_stats_get(w.sim, 2, &ps);
	if (ps.link_down_events != 3 || ps.link_up_events != 3) {
		printf("port 2 event counters %" PRIu64 "/%" PRIu64 "\n", ps.link_down_events,
		       ps.link_up_events);
		goto out;
	}
	if (mlx4v_sim_link_set(w.sim, 3, 0) != -EINVAL || mlx4v_sim_link_flap(NULL, 1) != -EINVAL) {
		printf("bad port accepted\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	mlx4v_test_rxq_destroy(&r2);
	mlx4v_test_rxq_destroy(&r1);
	mlx4v_test_txq_destroy(&t1);
	if (wdev_down(&w) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* Port 2 on a TAP moved into a namespace: the kernel answers our ARP request. */
static int
test_mlx4v_sim_wire_tap(void)
{
	struct rte_ether_addr mac;
	struct mlx4_cqe *cqe;
	char ifname[IF_NAMESIZE];
	char ns[32];
	char args[64];
	unsigned int tries, idx;
	struct mlx4v_test_txq t;
	struct mlx4v_test_rxq r;
	struct wdev w;
	int ns_made = 0;
	int ret = TEST_FAILED;

	memset(&w, 0, sizeof(w));
	memset(&t, 0, sizeof(t));
	memset(&r, 0, sizeof(r));
	if (ut_tap_usable() != 0)
		return TEST_SKIPPED;
	snprintf(ifname, sizeof(ifname), "m4w%d", (int)getpid() % 1000000);
	snprintf(ns, sizeof(ns), "mlx4v_wire%d", (int)getpid());
	snprintf(args, sizeof(args), "class=none,wire2=tap:%s", ifname);
	if (ut_sh("ip netns add %s >/dev/null 2>&1", ns) != 0) {
		printf("skipped: cannot create a network namespace\n");
		return TEST_SKIPPED;
	}
	ns_made = 1;
	if (rte_vdev_init("mlx4v_sim_w6", args) != 0) {
		printf("skipped: cannot create the TAP %s\n", ifname);
		ret = TEST_SKIPPED;
		goto out;
	}
	if (wdev_up(&w, "mlx4v_sim_w6", NULL) != 0 || txq_create(&t, &w, 2) != 0 ||
	    rxq_create(&r, &w, 2, 8, 8) != 0)
		goto out;
	if (ut_sh("ip link set %s netns %s && ip -n %s addr add 10.9.1.1/24 dev %s && "
		  "ip -n %s link set %s up", ifname, ns, ns, ifname, ns, ifname) != 0) {
		printf("cannot set %s up in %s\n", ifname, ns);
		goto out;
	}
	mlx4v_sim_port_mac(w.sim, 2, &mac);
	for (tries = 0; tries < 20 && ret != TEST_SUCCESS; tries++) {
		mlx4v_test_sq_send(&t.sq, w.lkey, buf_at(&w, 0),
				   ut_arp_request(buf_at(&w, 0), mac.addr_bytes,
						  RTE_IPV4(10, 9, 1, 2), RTE_IPV4(10, 9, 1, 1)), 1);
		if (mlx4v_test_cq_wait(&t.tcq, w.sim) == NULL) {
			printf("no send CQE\n");
			goto out;
		}
		mlx4v_test_cq_consume(&t.tcq);
		/* Everything the kernel sends lands here: look for the reply, repost. */
		while ((cqe = mlx4v_test_cq_wait(&r.tcq, w.sim)) != NULL) {
			idx = rte_be_to_cpu_16(cqe->wqe_index) & 7;
			if (ut_arp_is_reply(buf_at(&w, 8 + idx), rte_be_to_cpu_32(cqe->byte_cnt),
					    mac.addr_bytes, RTE_IPV4(10, 9, 1, 1)))
				ret = TEST_SUCCESS;
			mlx4v_test_cq_consume(&r.tcq);
			mlx4v_test_rq_post(&r.rq, w.lkey, buf_at(&w, 8 + (r.rq.head & 7)),
					   BUF_SIZE);
			if (ret == TEST_SUCCESS)
				break;
		}
	}
	if (ret != TEST_SUCCESS)
		printf("no ARP reply from the kernel\n");
out:
	mlx4v_test_rxq_destroy(&r);
	mlx4v_test_txq_destroy(&t);
	if (w.name != NULL) {
		if (wdev_down(&w) != 0)
			ret = TEST_FAILED;
	} else {
		rte_vdev_uninit("mlx4v_sim_w6");
	}
	if (ut_tap_done(ns, ns_made, ifname) != 0)
		ret = TEST_FAILED;
	return ret;
}

static struct unit_test_suite mlx4v_sim_wire_suite = {
	.suite_name = "mlx4v sim wire",
	.setup = testsuite_setup,
	.teardown = testsuite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx4v_sim_wire_devargs_good),
		TEST_CASE(test_mlx4v_sim_wire_devargs_bad),
		TEST_CASE(test_mlx4v_sim_wire_loop_and_pair),
		TEST_CASE(test_mlx4v_sim_wire_cross_mlx4_first),
		TEST_CASE(test_mlx4v_sim_wire_cross_mlx5_first),
		TEST_CASE(test_mlx4v_sim_wire_link_events),
		TEST_CASE(test_mlx4v_sim_wire_tap),
		TEST_CASES_END()
	}
};

static int
test_mlx4v_sim_wire(void)
{
	return unit_test_suite_runner(&mlx4v_sim_wire_suite);
}

REGISTER_TEST_COMMAND(mlx4v_sim_wire_autotest, test_mlx4v_sim_wire);
