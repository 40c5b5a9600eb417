/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Recovery from a fatal device error without restarting the application
 * (recovery=reset, doc/guides/nics/mlx5v.rst "Recovery"), on the simulated function with a
 * loop wire: after each fault the application hears RMV then RESET, calls
 * rte_eth_dev_reset(), configures and starts the port again, and traffic flows, over RSS and
 * with Rx interrupts armed. DEVX handles of the old life answer an error. recovery=dead keeps
 * the device dead.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "test.h"

#include "mlx5v_dev.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v.h"
#include "ut_common.h"
#include "ut_ethdev.h"

#define VDEV_NAME "mlx5v_sim0"
/* Health polls every 40 ms, commands time out after 100 ms, the heartbeat ticks every 10 ms. */
#define VDEV_ARGS "wire=loop,tout_scale=50,cmd_to_ms=100,health_period_ms=10"
#define NB_MBUF 2048
#define NQ 2
#define BURST 32
#define RX_POLLS 2000
#define LOOPS 50

static struct rte_mempool *g_mp;
static uint16_t g_port;
static struct mlx5v_sim *g_sim;
static struct mlx5v_dev *g_dev;
static int g_attached;
static uint64_t g_rmv, g_reset;
/* The order the events came in: 1 RMV, 2 RESET, per event, for the first four. */
static int g_order[4];
static uint64_t g_nev;
/*
 * Recoveries the device had gone through when the first RMV came, and whether an attempt
 * was running or over by then: the old life's rings must still be there when the
 * application hears RMV (a burst of its lcores may still be running on them).
 */
static uint64_t g_rmv_recoveries;
static unsigned int g_rmv_tries;

static int
event_cb(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret)
{
	uint64_t i;

	RTE_SET_USED(port);
	RTE_SET_USED(arg);
	RTE_SET_USED(ret);
	i = __atomic_fetch_add(&g_nev, 1, __ATOMIC_RELAXED);
	if (i < RTE_DIM(g_order))
		g_order[i] = type == RTE_ETH_EVENT_INTR_RMV ? 1 : 2;
	/* The EAL interrupt thread, where the recovery's attempts run too. */
	if (type == RTE_ETH_EVENT_INTR_RMV && __atomic_load_n(&g_rmv, __ATOMIC_RELAXED) == 0) {
		g_rmv_recoveries = g_dev->recoveries;
		g_rmv_tries = g_dev->recover_tries;
	}
	if (type == RTE_ETH_EVENT_INTR_RMV)
		__atomic_fetch_add(&g_rmv, 1, __ATOMIC_RELEASE);
	else
		__atomic_fetch_add(&g_reset, 1, __ATOMIC_RELEASE);
	return 0;
}

static int
attach(const char *extra)
{
	char args[256];

	snprintf(args, sizeof(args), "%s%s%s", VDEV_ARGS, extra[0] ? "," : "", extra);
	if (rte_vdev_init(VDEV_NAME, args) != 0)
		return -1;
	g_attached = 1;
	g_sim = mlx5v_sim_get(VDEV_NAME);
	g_dev = mlx5v_dev_get(VDEV_NAME);
	if (g_sim == NULL || g_dev == NULL || rte_eth_dev_get_port_by_name(VDEV_NAME, &g_port))
		return -1;
	__atomic_store_n(&g_rmv, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&g_reset, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&g_nev, 0, __ATOMIC_RELAXED);
	memset(g_order, 0, sizeof(g_order));
	g_rmv_recoveries = UINT64_MAX;
	g_rmv_tries = UINT32_MAX;
	if (rte_eth_dev_callback_register(g_port, RTE_ETH_EVENT_INTR_RMV, event_cb, NULL) ||
	    rte_eth_dev_callback_register(g_port, RTE_ETH_EVENT_INTR_RESET, event_cb, NULL))
		return -1;
	return 0;
}

static void
detach(void)
{
	if (!g_attached)
		return;
	rte_eth_dev_callback_unregister(g_port, RTE_ETH_EVENT_INTR_RMV, event_cb, NULL);
	rte_eth_dev_callback_unregister(g_port, RTE_ETH_EVENT_INTR_RESET, event_cb, NULL);
	rte_vdev_uninit(VDEV_NAME);
	g_attached = 0;
}

/* NQ Rx queues under RSS (UDP over IPv4), one Tx queue, RMV and Rx interrupts on. */
static int
port_up(void)
{
	return ut_eth_port_start(g_port, NQ, RTE_ETH_RSS_NONFRAG_IPV4_UDP, 1, 0, 1, g_mp);
}

/* A UDP frame to the port's own address; seed varies the flow. */
static struct rte_mbuf *
frame(uint32_t seed)
{
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_mp);
	const uint16_t len = 128;

	if (m == NULL)
		return NULL;
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, len);
	memset(eth, 0, len);
	rte_eth_macaddr_get(g_port, &eth->dst_addr);
	eth->src_addr = eth->dst_addr;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eth));
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, seed >> 8 & 0xff, seed & 0xff));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 1, 0, 1));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->src_port = rte_cpu_to_be_16(1000 + (seed & 0xfff));
	udp->dst_port = rte_cpu_to_be_16(4789);
	udp->dgram_len = rte_cpu_to_be_16(len - sizeof(*eth) - sizeof(*ip));
	return m;
}

/*
 * Send BURST frames of varied flows through the loop wire and read them back from the NQ
 * queues. @return TEST_SUCCESS when all came back, spread over every queue (RSS works).
 */
static int
traffic(void)
{
	struct rte_mbuf *pkts[BURST];
	unsigned int i, polls, got = 0, hit[NQ] = { 0 };
	uint16_t sent = 0, q, n;

	for (i = 0; i < BURST; i++) {
		pkts[i] = frame(i * 37 + 1);
		TEST_ASSERT_NOT_NULL(pkts[i], "frame");
	}
	for (polls = 0; sent < BURST && polls < RX_POLLS; polls++)
		sent += rte_eth_tx_burst(g_port, 0, pkts + sent, BURST - sent);
	if (sent < BURST)
		rte_pktmbuf_free_bulk(pkts + sent, BURST - sent);
	TEST_ASSERT_EQUAL(sent, BURST, "sent %u of %u", sent, BURST);
	for (polls = 0; got < BURST && polls < RX_POLLS; polls++) {
		for (q = 0; q < NQ; q++) {
			n = rte_eth_rx_burst(g_port, q, pkts, BURST);
			hit[q] += n;
			got += n;
			rte_pktmbuf_free_bulk(pkts, n);
		}
		if (got < BURST && polls > 10)
			ut_sleep_ms(1);
	}
	TEST_ASSERT_EQUAL(got, BURST, "received %u of %u", got, BURST);
	for (q = 0; q < NQ; q++)
		TEST_ASSERT(hit[q] > 0, "RSS: nothing on queue %u", q);
	return TEST_SUCCESS;
}

/*
 * The Rx interrupts are armed: with every queue's event on this lcore's epoll and enabled,
 * one frame wakes the lcore.
 */
static int
rx_intr_wakes(void)
{
	struct rte_epoll_event ev[NQ];
	struct rte_mbuf *m;
	uint16_t q, n = 0;
	int ret;

	for (q = 0; q < NQ; q++) {
		ret = rte_eth_dev_rx_intr_ctl_q(g_port, q, RTE_EPOLL_PER_THREAD,
						RTE_INTR_EVENT_ADD, NULL);
		TEST_ASSERT_SUCCESS(ret, "epoll add queue %u", q);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(g_port, q), "enable %u", q);
	}
	m = frame(7);
	TEST_ASSERT_NOT_NULL(m, "frame");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(g_port, 0, &m, 1), 1, "send");
	ret = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, NQ, UT_WAIT_LIMIT_MS);
	TEST_ASSERT(ret >= 1, "no Rx interrupt after the recovery");
	for (q = 0; q < NQ; q++) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(g_port, q), "disable %u", q);
		rte_eth_dev_rx_intr_ctl_q(g_port, q, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_DEL,
					  NULL);
	}
	while (n == 0)
		for (q = 0; q < NQ && n == 0; q++)
			n = rte_eth_rx_burst(g_port, q, &m, 1);
	rte_pktmbuf_free(m);
	return TEST_SUCCESS;
}

/* The application's side: RMV, then RESET; reset, reconfigure, start. */
static int
app_recover(uint64_t nth)
{
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_rmv, nth), "no RMV event (%" PRIu64 ")", nth);
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_reset, nth), "no RESET event (%" PRIu64 ")", nth);
	TEST_ASSERT_SUCCESS(rte_eth_dev_reset(g_port), "rte_eth_dev_reset");
	TEST_ASSERT_SUCCESS(port_up(), "start after the reset");
	return TEST_SUCCESS;
}

typedef void (*fault_fn)(void);

static void
fault_synd(void)
{
	mlx5v_sim_health_fatal(g_sim, MLX5V_HEALTH_SYND_FW_ERR);
}

static void
fault_offline(void)
{
	mlx5v_sim_pci_offline(g_sim, 1);
}

static void
fault_nic_disabled(void)
{
	mlx5v_sim_nic_interface_set(g_sim, MLX5V_NIC_IF_DISABLED);
}

static void
fault_freeze(void)
{
	mlx5v_sim_health_freeze(g_sim, 1);
}

/* The firmware stops answering: three commands time out, the third declares it dead. */
static void
fault_cmd_hang(void)
{
	struct rte_eth_link link;
	unsigned int i;

	mlx5v_sim_knob_set(g_sim, "cmd_hang", 1);
	for (i = 0; i < MLX5V_CMD_TIMEOUTS_FATAL; i++)
		rte_eth_link_get(g_port, &link);
}

/* One fault, recovered: the events in order, the port rebuilt, traffic, Rx interrupts. */
static int
one_fault(const char *extra, fault_fn fault, const char *what)
{
	TEST_ASSERT_SUCCESS(attach(extra), "attach");
	TEST_ASSERT_SUCCESS(port_up(), "start");
	TEST_ASSERT_SUCCESS(traffic(), "traffic before the fault");
	fault();
	TEST_ASSERT_SUCCESS(app_recover(1), "%s: recovery", what);
	TEST_ASSERT_EQUAL(g_order[0], 1, "%s: RMV not first", what);
	TEST_ASSERT_EQUAL(g_order[1], 2, "%s: RESET not after RMV", what);
	/* The first attempt frees the old life's CQs: not before the bursts were told. */
	TEST_ASSERT(g_rmv_recoveries == 0 && g_rmv_tries == 0,
		    "%s: the recovery tore the old life down before RMV (%" PRIu64 " recoveries, "
		    "attempt %u)", what, g_rmv_recoveries, g_rmv_tries);
	TEST_ASSERT_EQUAL(g_dev->recoveries, 1u, "%s: recoveries", what);
	TEST_ASSERT(!mlx5v_dev_is_dead(g_dev), "%s: still dead", what);
	TEST_ASSERT_SUCCESS(traffic(), "%s: traffic after the recovery", what);
	TEST_ASSERT_SUCCESS(rx_intr_wakes(), "%s: Rx interrupts after the recovery", what);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(g_mp), NB_MBUF, "mbufs leaked");
	return TEST_SUCCESS;
}

static int
test_recovery_synd(void)
{
	return one_fault("", fault_synd, "fatal syndrome");
}

static int
test_recovery_offline(void)
{
	return one_fault("", fault_offline, "PCI offline");
}

static int
test_recovery_nic_disabled(void)
{
	return one_fault("", fault_nic_disabled, "NIC interface disabled");
}

static int
test_recovery_freeze(void)
{
	return one_fault("health_strict=1", fault_freeze, "health counter stuck");
}

static int
test_recovery_cmd_hang(void)
{
	return one_fault("", fault_cmd_hang, "commands time out");
}

/* The first reset fails: the second attempt brings the device back. */
static int
test_recovery_reset_fails_once(void)
{
	TEST_ASSERT_SUCCESS(attach("reset_fail=0"), "attach");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "reset_fail", 1), "reset_fail");
	TEST_ASSERT_SUCCESS(port_up(), "start");
	fault_synd();
	TEST_ASSERT_SUCCESS(app_recover(1), "recovery");
	TEST_ASSERT_EQUAL(g_dev->recovery_failures, 0u, "gave up");
	TEST_ASSERT_SUCCESS(traffic(), "traffic after the recovery");
	return TEST_SUCCESS;
}

/* Every reset fails: the device stays dead, and the port's reset says so. */
static int
test_recovery_gives_up(void)
{
	TEST_ASSERT_SUCCESS(attach(""), "attach");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(g_sim, "reset_fail", 1000), "reset_fail");
	TEST_ASSERT_SUCCESS(port_up(), "start");
	fault_synd();
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_rmv, 1), "no RMV event");
	TEST_ASSERT_SUCCESS(UT_WAIT_FOR(g_dev->recovery_failures == 1), "recovery not given up");
	TEST_ASSERT(mlx5v_dev_is_dead(g_dev), "device not dead");
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_reset, __ATOMIC_ACQUIRE), 0u, "RESET raised");
	TEST_ASSERT_EQUAL(rte_eth_dev_reset(g_port), -ENOLINK, "reset of a dead device");
	return TEST_SUCCESS;
}

/* recovery=dead: today's dead mode, no reset of the function. */
static int
test_recovery_dead_mode(void)
{
	TEST_ASSERT_SUCCESS(attach("recovery=dead"), "attach");
	TEST_ASSERT_SUCCESS(port_up(), "start");
	fault_synd();
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_rmv, 1), "no RMV event");
	TEST_ASSERT_EQUAL(__atomic_load_n(&g_reset, __ATOMIC_ACQUIRE), 1u, "RESET at death");
	ut_sleep_ms(200);
	TEST_ASSERT(mlx5v_dev_is_dead(g_dev), "device recovered under recovery=dead");
	TEST_ASSERT_EQUAL(g_dev->recoveries, 0u, "recoveries");
	return TEST_SUCCESS;
}

/* The DEVX user's events: RESET count in bits 0-7, RECOVERED in 8-15, order in g_devx_seq. */
static uint32_t g_devx_ev;
static uint32_t g_devx_seq[2];

static void
devx_event_cb(const char *name, enum rte_pmd_mlx5v_dev_event ev, void *arg)
{
	uint32_t n;

	RTE_SET_USED(arg);
	if (strcmp(name, VDEV_NAME) != 0)
		return;
	n = __atomic_fetch_add(&g_devx_ev, ev == RTE_PMD_MLX5V_DEV_EVENT_RESET ? 1 : 0x100,
			       __ATOMIC_ACQ_REL);
	if ((n & 0xff) + (n >> 8) < RTE_DIM(g_devx_seq))
		g_devx_seq[(n & 0xff) + (n >> 8)] = ev;
}

/*
 * A DEVX vector made before the fault: the user hears RESET then RECOVERED, the vector's
 * handle answers an error, and the device opens again.
 */
static int
test_recovery_devx(void)
{
	struct rte_pmd_mlx5v_dev *pdev;
	struct rte_pmd_mlx5v_msi_vector *msi;

	__atomic_store_n(&g_devx_ev, 0, __ATOMIC_RELAXED);
	memset(g_devx_seq, 0, sizeof(g_devx_seq));
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_dev_event_callback_register(VDEV_NAME, devx_event_cb,
								      NULL), "register");
	TEST_ASSERT_SUCCESS(attach(""), "attach");
	pdev = rte_pmd_mlx5v_dev_get(VDEV_NAME);
	TEST_ASSERT_NOT_NULL(pdev, "DEVX device");
	msi = rte_pmd_mlx5v_devx_alloc_msi_vector(pdev);
	TEST_ASSERT_NOT_NULL(msi, "MSI vector");
	fault_synd();
	TEST_ASSERT_SUCCESS(ut_wait_counter32(&g_devx_ev, 0x101), "no RESET and RECOVERED");
	TEST_ASSERT_EQUAL(g_devx_seq[0], (uint32_t)RTE_PMD_MLX5V_DEV_EVENT_RESET, "RESET first");
	TEST_ASSERT_EQUAL(g_devx_seq[1], (uint32_t)RTE_PMD_MLX5V_DEV_EVENT_RECOVERED,
			  "RECOVERED second");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_dev_event_callback_unregister(VDEV_NAME,
									devx_event_cb, NULL),
			    "unregister");
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_reset, 1), "no RESET event");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5v_devx_free_msi_vector(msi), EINVAL,
			  "a vector of the old life freed");
	pdev = rte_pmd_mlx5v_dev_get(VDEV_NAME);
	TEST_ASSERT_NOT_NULL(pdev, "DEVX device after the recovery");
	msi = rte_pmd_mlx5v_devx_alloc_msi_vector(pdev);
	TEST_ASSERT_NOT_NULL(msi, "MSI vector after the recovery");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(msi), "free");
	return TEST_SUCCESS;
}

/* ALLOC_PD (dealloc 0) or DEALLOC_PD of pd through the DEVX general command. */
static int
devx_pd(struct rte_pmd_mlx5v_dev *pdev, int dealloc, uint32_t *pd)
{
	uint8_t in[16] = { 0 }, out[16] = { 0 };
	int ret;

	in[0] = 0x08;
	in[1] = dealloc ? 0x01 : 0x00;
	if (dealloc) {
		in[9] = *pd >> 16;
		in[10] = *pd >> 8;
		in[11] = *pd;
	}
	ret = rte_pmd_mlx5v_devx_general_cmd(pdev, in, sizeof(in), out, sizeof(out));
	if (ret == 0 && !dealloc)
		*pd = (uint32_t)out[9] << 16 | (uint32_t)out[10] << 8 | out[11];
	return ret;
}

/*
 * The objects of the new life are not the port's: a PD a DEVX user makes before the
 * application resets the port (most likely under the number the port's PD had) survives the
 * port's teardown of its old objects.
 */
static int
test_recovery_new_life_kept(void)
{
	struct rte_pmd_mlx5v_dev *pdev;
	uint32_t pd = 0;

	TEST_ASSERT_SUCCESS(attach(""), "attach");
	TEST_ASSERT_SUCCESS(port_up(), "start");
	fault_synd();
	TEST_ASSERT_SUCCESS(ut_wait_counter(&g_reset, 1), "no RESET event");
	pdev = rte_pmd_mlx5v_dev_get(VDEV_NAME);
	TEST_ASSERT_NOT_NULL(pdev, "DEVX device after the recovery");
	TEST_ASSERT_SUCCESS(devx_pd(pdev, 0, &pd), "ALLOC_PD");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PD), 1u, "PDs");
	TEST_ASSERT_SUCCESS(rte_eth_dev_reset(g_port), "rte_eth_dev_reset");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PD), 1u,
			  "the port's reset destroyed PD %u of the new life", pd);
	TEST_ASSERT_SUCCESS(devx_pd(pdev, 1, &pd), "DEALLOC_PD");
	TEST_ASSERT_SUCCESS(port_up(), "start after the reset");
	TEST_ASSERT_SUCCESS(traffic(), "traffic after the recovery");
	return TEST_SUCCESS;
}

/* EAL heap bytes in use now. */
static size_t
heap_used(void)
{
	struct rte_malloc_socket_stats st;

	if (rte_malloc_get_socket_stats(0, &st) != 0)
		return 0;
	return st.heap_allocsz_bytes;
}

/*
 * LOOPS recoveries in a row, traffic after each, EAL heap memory flat: the most in use over
 * the last SAMPLE recoveries is at most the most over the first SAMPLE. Where aligned
 * allocations land moves the total by a few cache lines from one recovery to the next; a
 * leak of any object per recovery would add up LOOPS - SAMPLE times.
 */
#define SAMPLE 10
static int
test_recovery_loop(void)
{
	size_t first = 0, last = 0, used;
	unsigned int i;

	TEST_ASSERT_SUCCESS(attach(""), "attach");
	TEST_ASSERT_SUCCESS(port_up(), "start");
	for (i = 1; i <= LOOPS; i++) {
		fault_synd();
		TEST_ASSERT_SUCCESS(app_recover(i), "recovery %u", i);
		TEST_ASSERT_SUCCESS(traffic(), "traffic %u", i);
		used = heap_used();
		TEST_ASSERT(used != 0, "heap stats");
		if (i <= SAMPLE)
			first = RTE_MAX(first, used);
		if (i > LOOPS - SAMPLE)
			last = RTE_MAX(last, used);
	}
	TEST_ASSERT_EQUAL(g_dev->recoveries, (uint64_t)LOOPS, "recoveries");
	TEST_ASSERT(last <= first, "EAL heap grew by %zu bytes over %u recoveries",
		    last - first, LOOPS - SAMPLE);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(g_port), "stop");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(g_mp), NB_MBUF, "mbufs leaked");
	return TEST_SUCCESS;
}

static void
teardown(void)
{
	detach();
}

static int
suite_setup(void)
{
	g_mp = rte_pktmbuf_pool_create("recov_mp", NB_MBUF, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	return g_mp != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
suite_teardown(void)
{
	rte_mempool_free(g_mp);
}

static struct unit_test_suite net_mlx5v_recovery_suite = {
	.suite_name = "net_mlx5v_recovery",
	.setup = suite_setup,
	.teardown = suite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(NULL, teardown, test_recovery_synd),
		TEST_CASE_ST(NULL, teardown, test_recovery_offline),
		TEST_CASE_ST(NULL, teardown, test_recovery_nic_disabled),
		TEST_CASE_ST(NULL, teardown, test_recovery_freeze),
		TEST_CASE_ST(NULL, teardown, test_recovery_cmd_hang),
		TEST_CASE_ST(NULL, teardown, test_recovery_reset_fails_once),
		TEST_CASE_ST(NULL, teardown, test_recovery_gives_up),
		TEST_CASE_ST(NULL, teardown, test_recovery_dead_mode),
		TEST_CASE_ST(NULL, teardown, test_recovery_devx),
		TEST_CASE_ST(NULL, teardown, test_recovery_new_life_kept),
		TEST_CASE_ST(NULL, teardown, test_recovery_loop),
		TEST_CASES_END()
	}
};

static int
test_net_mlx5v_recovery(void)
{
	return unit_test_suite_runner(&net_mlx5v_recovery_suite);
}

REGISTER_TEST_COMMAND(net_mlx5v_recovery_autotest, test_net_mlx5v_recovery);
