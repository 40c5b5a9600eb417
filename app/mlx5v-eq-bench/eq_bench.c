/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Benchmarks of the DEVX EQ API: create/destroy rate, EQE drain rate, MSI latency. */

/*
 * Usage: dpdk-mlx5v-eq-bench <EAL args: -l 0-1 --vdev=mlx5v_sim0,msix=8> [-- <iters>]
 *
 * 1. EQ create + destroy per second (public API, 64-entry EQ).
 * 2. EQE drain rate in poll mode (rte_pmd_mlx5v_eq_poll: owner check, read barrier,
 *    CI every 128, arm), against a plain scan of the same ring (one load per EQE).
 * 3. MSI-to-callback latency: simulator event injection to (a) the EAL interrupt
 *    callback, (b) an lcore sleeping in rte_epoll_wait(); against (c) a raw eventfd write
 *    to an lcore in epoll_wait(), measured in the same run.
 *
 * Numbers are simulator numbers: the "device" is a thread of this process.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_epoll.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include <rte_pmd_mlx5v.h>

#include "mlx5v_devx.h"
#include "mlx5v_sim.h"

#define DEV_NAME "mlx5v_sim0"
#define DRAIN_LOG 12               /* 4096-entry EQ */
#define DRAIN_EQES 4000
#define DRAIN_PASSES 2000
#define LAT_GAP_US 300             /* between samples: the re-arm reaches the model */
#define LAT_TIMEOUT_MS 2000

static struct rte_pmd_mlx5v_dev *dev;
static struct mlx5v_sim *sim;
static struct rte_pmd_mlx5v_uar *uar;
static unsigned int iters = 2000;

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double
cyc_to_us(uint64_t c)
{
	return (double)c * 1e6 / (double)rte_get_tsc_hz();
}

static void
report_lat(const char *what, uint64_t *s, unsigned int n, unsigned int lost)
{
	qsort(s, n, sizeof(*s), cmp_u64);
	if (n == 0) {
		printf("%-44s no samples (%u lost)\n", what, lost);
		return;
	}
	printf("%-44s p50 %8.2f us  p99 %8.2f us  max %8.2f us  (%u samples, %u lost)\n",
	       what, cyc_to_us(s[n / 2]), cyc_to_us(s[(n * 99) / 100]), cyc_to_us(s[n - 1]),
	       n, lost);
}

static void
sleep_us(unsigned int us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)us * 1000 };

	nanosleep(&ts, NULL);
}

static struct rte_pmd_mlx5v_eq *
eq_create(unsigned int log_size, int vector, uint64_t mask0, uint32_t *eqn)
{
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE] = { 0 };
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE] = { 0 };
	uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;
	struct rte_pmd_mlx5v_eq *eq;

	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, log_size);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, uar->page_id);
	RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, vector);
	RTE_PMD_MLX5V_SET64(in, RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK, mask0);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	if (eq != NULL)
		*eqn = RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER);
	return eq;
}

static int
gen_eqe(uint32_t eqn)
{
	uint8_t in[RTE_PMD_MLX5V_GEN_EQE_IN_SIZE] = { 0 };
	uint8_t out[RTE_PMD_MLX5V_GEN_EQE_OUT_SIZE];

	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_GEN_EQE);
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_EQ_IN_EQ_NUMBER, eqn);
	in[RTE_PMD_MLX5V_GEN_EQE_IN_EQE + RTE_PMD_MLX5V_EQE_TYPE_OFF] =
		RTE_PMD_MLX5V_EVENT_GENERAL_EVENT;
	return rte_pmd_mlx5v_devx_general_cmd(dev, in, sizeof(in), out, sizeof(out));
}

/* ---- 1. create + destroy ---- */

static int
bench_create_destroy(struct rte_pmd_mlx5v_msi_vector *msi)
{
	struct rte_pmd_mlx5v_eq *eq;
	uint64_t t0, t1;
	uint32_t eqn;
	unsigned int i;

	t0 = rte_rdtsc();
	for (i = 0; i < iters; i++) {
		eq = eq_create(6, msi->vector, 0, &eqn);
		if (eq == NULL || rte_pmd_mlx5v_devx_destroy_eq(eq) != 0) {
			printf("create/destroy failed at %u: %s\n", i, strerror(errno));
			return -1;
		}
	}
	t1 = rte_rdtsc();
	printf("%-44s %10.0f /s   (%.2f us per pair, %u pairs)\n", "EQ create+destroy (64 EQEs)",
	       iters / (cyc_to_us(t1 - t0) / 1e6), cyc_to_us(t1 - t0) / iters, iters);
	return 0;
}

/* ---- 2. drain ---- */

static void
drain_cb(const void *eqe, void *arg)
{
	uint64_t *sum = arg;

	*sum += rte_pmd_mlx5v_eqe_type(eqe);
}

static int
bench_drain(struct rte_pmd_mlx5v_msi_vector *msi)
{
	struct rte_pmd_mlx5v_eq *eq;
	struct rte_pmd_mlx5v_uar spy;
	const volatile uint8_t *ring;
	uint64_t t0, t1, sum = 0, scan = 0;
	uint8_t *page;
	uint32_t eqn, ci, n = 0;
	unsigned int i, p;

	eq = eq_create(DRAIN_LOG, msi->vector, 0, &eqn);
	if (eq == NULL)
		return -1;
	for (i = 0; i < DRAIN_EQES; i++)
		if (gen_eqe(eqn) != 0)
			return -1;
	/*
	 * The device wrote DRAIN_EQES EQEs once; every pass re-reads them from ci = 0 (the
	 * owner bits of lap 0 still match). The doorbells of the repeated passes go to a
	 * private page, so the device never sees the CI move backwards.
	 */
	page = rte_zmalloc("bench_spy", 4096, 4096);
	if (page == NULL)
		return -1;
	spy.base_addr = page;
	spy.reg_addr = page + 0x800;
	spy.page_id = uar->page_id;
	t0 = rte_rdtsc();
	for (p = 0; p < DRAIN_PASSES; p++) {
		ci = 0;
		n += rte_pmd_mlx5v_eq_poll(eq->vaddr, 1u << DRAIN_LOG, &ci, &spy, eqn, drain_cb,
					   &sum);
	}
	t1 = rte_rdtsc();
	printf("%-44s %10.1f M EQE/s (%.2f ns per EQE, %u EQEs)\n",
	       "EQE drain, rte_pmd_mlx5v_eq_poll", n / cyc_to_us(t1 - t0),
	       cyc_to_us(t1 - t0) * 1000.0 / n, n);
	/* The same ring, one plain load per 64-byte entry, no owner check or barrier. */
	ring = eq->vaddr;
	t0 = rte_rdtsc();
	for (p = 0; p < DRAIN_PASSES; p++)
		for (i = 0; i < DRAIN_EQES; i++)
			scan += ring[(size_t)i * RTE_PMD_MLX5V_EQE_SIZE +
				     RTE_PMD_MLX5V_EQE_TYPE_OFF];
	t1 = rte_rdtsc();
	printf("%-44s %10.1f M EQE/s (%.2f ns per EQE; checksum %" PRIu64 "/%" PRIu64 ")\n",
	       "plain memory scan of the same ring", (double)DRAIN_PASSES * DRAIN_EQES /
	       cyc_to_us(t1 - t0), cyc_to_us(t1 - t0) * 1000.0 / DRAIN_PASSES / DRAIN_EQES,
	       sum, scan);
	rte_free(page);
	/* Tell the device what was really consumed, once, then destroy. */
	rte_pmd_mlx5v_eq_update_ci(uar, eqn, DRAIN_EQES, 0);
	sleep_us(10000);
	return rte_pmd_mlx5v_devx_destroy_eq(eq) == 0 ? 0 : -1;
}

/* ---- 3. latency ---- */

static volatile uint64_t lat_t1;
static volatile uint32_t lat_seen;

/* (a) EAL interrupt thread: the handler runs inside mlx5v_devx_eq_poll(). */
static void
lat_handler(struct mlx5v_dev *d, uint32_t eqn, const uint8_t *eqe, void *arg)
{
	RTE_SET_USED(d);
	RTE_SET_USED(eqn);
	RTE_SET_USED(eqe);
	RTE_SET_USED(arg);
	lat_t1 = rte_rdtsc();
	__atomic_fetch_add(&lat_seen, 1, __ATOMIC_RELEASE);
}

static int
wait_seen(uint32_t target)
{
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 1000 * LAT_TIMEOUT_MS;

	while (__atomic_load_n(&lat_seen, __ATOMIC_ACQUIRE) < target)
		if (rte_rdtsc() > end)
			return -1;
	return 0;
}

static int
bench_lat_intr(struct rte_pmd_mlx5v_msi_vector *msi, uint64_t *s)
{
	struct rte_pmd_mlx5v_eq *eq;
	struct mlx5v_devx_eq *deq;
	unsigned int i, n = 0, lost = 0;
	uint64_t t0;
	uint32_t eqn;

	eq = eq_create(10, msi->vector, UINT64_C(1) << RTE_PMD_MLX5V_EVENT_PORT_CHANGE, &eqn);
	if (eq == NULL)
		return -1;
	deq = mlx5v_devx_to_eq(eq);
	mlx5v_devx_eq_handler_set(deq, RTE_PMD_MLX5V_EVENT_PORT_CHANGE, lat_handler, NULL);
	if (mlx5v_devx_eq_intr_start(deq) != 0)
		return -1;
	sleep_us(10000);
	lat_seen = 0;
	for (i = 0; i < iters; i++) {
		t0 = rte_rdtsc();
		mlx5v_sim_port_event(sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE);
		if (wait_seen(i + 1 - lost) != 0) {
			lost++;
			continue;
		}
		s[n++] = lat_t1 - t0;
		sleep_us(LAT_GAP_US);
	}
	report_lat("event -> EAL interrupt callback", s, n, lost);
	mlx5v_devx_eq_intr_stop(deq);
	return rte_pmd_mlx5v_devx_destroy_eq(eq) == 0 ? 0 : -1;
}

/* (b) and (c): an lcore sleeping in epoll; main raises, the lcore timestamps. */
struct waiter {
	int fd;
	int raw;                     /* 1: plain epoll_wait, 0: rte_epoll_wait */
	struct rte_pmd_mlx5v_eq *eq; /* (b): consumed and re-armed after each wake */
	uint32_t eqn;
	uint32_t nent;
	uint32_t ci;
	volatile int stop;
	volatile int ready;
};

static void
lat_drain(int fd, void *arg)
{
	uint64_t cnt;

	RTE_SET_USED(arg);
	while (read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		;
}

static int
waiter_main(void *arg)
{
	struct waiter *w = arg;
	struct rte_epoll_event rev, rout[1];
	struct epoll_event ev, out[1];
	uint64_t now, cnt;
	int efd = -1, n;

	if (w->raw) {
		efd = epoll_create1(EPOLL_CLOEXEC);
		memset(&ev, 0, sizeof(ev));
		ev.events = EPOLLIN;
		epoll_ctl(efd, EPOLL_CTL_ADD, w->fd, &ev);
	} else {
		memset(&rev, 0, sizeof(rev));
		rev.epdata.event = EPOLLIN | EPOLLET;
		rev.epdata.cb_fun = lat_drain;
		rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_ADD, w->fd, &rev);
	}
	w->ready = 1;
	while (!w->stop) {
		if (w->raw)
			n = epoll_wait(efd, out, 1, 100);
		else
			n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, rout, 1, 100);
		if (n != 1)
			continue;
		now = rte_rdtsc();
		if (w->raw) {
			while (read(w->fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
				;
		} else {
			rte_pmd_mlx5v_eq_poll(w->eq->vaddr, w->nent, &w->ci, uar, w->eqn, NULL,
					      NULL);
		}
		lat_t1 = now;
		__atomic_fetch_add(&lat_seen, 1, __ATOMIC_RELEASE);
	}
	if (w->raw)
		close(efd);
	else
		rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_DEL, w->fd, &rev);
	return 0;
}

static int
bench_lat_epoll(struct rte_pmd_mlx5v_msi_vector *msi, uint64_t *s, int raw)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct waiter w;
	unsigned int i, n = 0, lost = 0;
	uint64_t t0, one = 1;
	int ret = 0;

	if (worker >= RTE_MAX_LCORE) {
		printf("epoll latency needs a second lcore (-l 0-1)\n");
		return 0;
	}
	memset(&w, 0, sizeof(w));
	w.raw = raw;
	if (raw) {
		w.fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	} else {
		w.fd = msi->fd;
		w.nent = 1u << 10;
		w.eq = eq_create(10, msi->vector,
				 UINT64_C(1) << RTE_PMD_MLX5V_EVENT_PORT_CHANGE, &w.eqn);
		if (w.eq == NULL)
			return -1;
		rte_pmd_mlx5v_eq_arm(uar, w.eqn, 0);
	}
	rte_eal_remote_launch(waiter_main, &w, worker);
	while (!w.ready)
		;
	sleep_us(10000);
	lat_seen = 0;
	for (i = 0; i < iters; i++) {
		t0 = rte_rdtsc();
		if (raw)
			ret = write(w.fd, &one, sizeof(one)) == (ssize_t)sizeof(one) ? 0 : -1;
		else
			mlx5v_sim_port_event(sim, 1, RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE);
		if (ret != 0 || wait_seen(i + 1 - lost) != 0) {
			lost++;
			continue;
		}
		s[n++] = lat_t1 - t0;
		sleep_us(LAT_GAP_US);
	}
	w.stop = 1;
	rte_eal_wait_lcore(worker);
	report_lat(raw ? "raw eventfd write -> epoll_wait (baseline)" :
		   "event -> rte_epoll_wait on an lcore", s, n, lost);
	if (raw) {
		close(w.fd);
		return 0;
	}
	return rte_pmd_mlx5v_devx_destroy_eq(w.eq) == 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	struct rte_pmd_mlx5v_msi_vector *msi;
	uint64_t *samples;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	if (argc - ret > 1)
		iters = (unsigned int)atoi(argv[ret + 1]);
	if (iters == 0)
		iters = 1;
	dev = rte_pmd_mlx5v_dev_get(DEV_NAME);
	sim = mlx5v_sim_get(DEV_NAME);
	if (dev == NULL || sim == NULL) {
		fprintf(stderr, "needs --vdev=%s,msix=8\n", DEV_NAME);
		return 1;
	}
	uar = rte_pmd_mlx5v_devx_alloc_uar(dev);
	msi = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	samples = calloc(iters, sizeof(*samples));
	if (uar == NULL || msi == NULL || samples == NULL)
		return 1;
	printf("mlx5v DEVX EQ benchmarks on %s (simulator numbers), TSC %" PRIu64 " Hz, "
	       "%u iterations\n", DEV_NAME, rte_get_tsc_hz(), iters);
	ret = bench_create_destroy(msi);
	ret |= bench_drain(msi);
	ret |= bench_lat_epoll(msi, samples, 1);
	ret |= bench_lat_intr(msi, samples);
	ret |= bench_lat_epoll(msi, samples, 0);
	ret |= bench_lat_epoll(msi, samples, 1);
	free(samples);
	rte_pmd_mlx5v_devx_free_msi_vector(msi);
	rte_pmd_mlx5v_devx_free_uar(uar);
	rte_eal_cleanup();
	return ret == 0 ? 0 : 1;
}
