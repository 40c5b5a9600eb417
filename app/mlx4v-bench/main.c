/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * dpdk-mlx4v-bench: send and receive through the mlx4dv views (QP on port 1 ->
 * RWQ, busy polling) and report packets/s and the driver-side cost per packet.
 *
 * "Driver side" is what a PMD built on the views executes: the functions named
 * mlx4v_bench_dp_* (send burst, send completion, receive poll/refill), built from
 * the raw mlx4 data path that examples/raw_views and the testpmd commands use too
 * (drivers/common/mlx4v/rte_pmd_mlx4v_rawdp.h), so that the benchmark measures exactly the
 * code the example documents. They are
 * measured with rdtsc always, and with perf_event_open(PERF_COUNT_HW_INSTRUCTIONS)
 * on the calling thread when the kernel offers it. Without perf events, run the
 * binary under valgrind --tool=callgrind --toggle-collect='mlx4v_bench_dp_*'
 * (see doc/guides/bench/mlx4v_views.rst). Everything else — the simulator's
 * engine thread, setup — is excluded.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include <rte_pmd_mlx4v.h>

#include "rte_pmd_mlx4v_rawdp.h"

#define MB_TX_WQES 256u
#define MB_RX_WQES 1024u
#define MB_STALL_S 10           /* no progress for this long: give up (valgrind is slow) */
#define MB_BURSTS_MAX 256u      /* bursts in flight, at most MB_TX_WQES */
#define RV_PKT_MAX RTE_PMD_MLX4V_RAWDP_BUF_SIZE /* one buffer per WQE */

/* The data-path state: views and our indexes only (sq.max_post is unused here). */
struct mb_dp {
	struct rte_pmd_mlx4v_rawdp_sq sq;  /* sq.done: SQ head after the last completed burst */
	struct mlx4dv_rwq rwq;             /* the RWQ view behind rq */
	struct rte_pmd_mlx4v_rawdp_rq rq;  /* rq.tail: receive WQEs completed, running */
	struct rte_pmd_mlx4v_rawdp_cq tx_cq;
	struct rte_pmd_mlx4v_rawdp_cq rx_cq;
	uint32_t burst_end[MB_BURSTS_MAX]; /* SQ head after each signalled burst */
	uint32_t bursts_head;
	uint32_t bursts_tail;
	uint64_t rx_bytes;
};

/* ---- driver side: the functions that are measured ---- */

/*
 * The empty-poll check, kept apart from the per-packet work so that both tools
 * (rdtsc here, callgrind's --toggle-collect) attribute idle polling separately.
 */
__rte_noinline int mlx4v_bench_idle_peek(const struct rte_pmd_mlx4v_rawdp_cq *cq);
__rte_noinline int
mlx4v_bench_idle_peek(const struct rte_pmd_mlx4v_rawdp_cq *cq)
{
	return rte_pmd_mlx4v_rawdp_cq_next(cq) != NULL;
}

/* Post n SEND WQEs of len bytes (frames prepared at setup), the last signalled. */
__rte_noinline void mlx4v_bench_dp_tx_burst(struct mb_dp *dp, uint32_t n, uint32_t len);
__rte_noinline void
mlx4v_bench_dp_tx_burst(struct mb_dp *dp, uint32_t n, uint32_t len)
{
	rte_pmd_mlx4v_rawdp_sq_send(&dp->sq, n, len);
	dp->burst_end[dp->bursts_head++ & (MB_BURSTS_MAX - 1)] = dp->sq.head;
}

/* Consume send CQEs; each completes its burst. @return CQEs consumed. */
__rte_noinline uint32_t mlx4v_bench_dp_tx_complete(struct mb_dp *dp);
__rte_noinline uint32_t
mlx4v_bench_dp_tx_complete(struct mb_dp *dp)
{
	struct rte_pmd_mlx4v_rawdp_cq *cq = &dp->tx_cq;
	uint32_t n = 0;

	while (rte_pmd_mlx4v_rawdp_cq_next(cq) != NULL) {
		dp->sq.done = dp->burst_end[dp->bursts_tail++ & (MB_BURSTS_MAX - 1)];
		cq->ci++;
		n++;
	}
	if (n != 0)
		rte_pmd_mlx4v_rawdp_cq_update_ci(cq);
	return n;
}

/* Consume receive CQEs, refill the RQ, publish both indexes. @return packets. */
__rte_noinline uint32_t mlx4v_bench_dp_rx_poll(struct mb_dp *dp, uint32_t budget);
__rte_noinline uint32_t
mlx4v_bench_dp_rx_poll(struct mb_dp *dp, uint32_t budget)
{
	struct rte_pmd_mlx4v_rawdp_cq *cq = &dp->rx_cq;
	struct mlx4_cqe *cqe;
	uint32_t n = 0;

	while (n < budget && (cqe = rte_pmd_mlx4v_rawdp_cq_next(cq)) != NULL) {
		dp->rx_bytes += rte_be_to_cpu_32(cqe->byte_cnt);
		cq->ci++;
		n++;
	}
	if (n == 0)
		return 0;
	dp->rq.tail += n;
	rte_pmd_mlx4v_rawdp_cq_update_ci(cq);
	/* Refill the consumed WQEs in place: same buffers, same lkey. */
	rte_pmd_mlx4v_rawdp_rq_post(&dp->rq, UINT32_MAX);
	return n;
}

/* ---- measurement ---- */

enum mb_part { MB_TX, MB_TXC, MB_RX, MB_IDLE, MB_PARTS };

static const char *const mb_part_names[MB_PARTS] = {
	"tx burst", "tx completion", "rx poll+refill", "CQ owner checks",
};

struct mb_meter {
	int fd;                 /* perf counter, or -1 */
	uint64_t calls[MB_PARTS];
	uint64_t cycles[MB_PARTS];
	uint64_t insns[MB_PARTS];
	uint64_t t0;
	uint64_t i0;
};

static uint64_t
mb_perf_read(const struct mb_meter *m)
{
	uint64_t v = 0;

	if (m->fd >= 0 && read(m->fd, &v, sizeof(v)) != sizeof(v))
		v = 0;
	return v;
}

static inline void
mb_begin(struct mb_meter *m)
{
	if (m->fd >= 0)
		m->i0 = mb_perf_read(m);
	m->t0 = rte_rdtsc_precise();
}

static inline void
mb_end(struct mb_meter *m, enum mb_part p)
{
	uint64_t t1 = rte_rdtsc_precise();

	m->cycles[p] += t1 - m->t0;
	if (m->fd >= 0)
		m->insns[p] += mb_perf_read(m) - m->i0;
	m->calls[p]++;
}

/* Instructions of the calling thread, user space only. @return fd or -errno. */
static int
mb_perf_open(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	return fd < 0 ? -errno : (int)fd;
}

/* ---- setup through the public API ---- */

struct mb_ctx {
	struct rte_pmd_mlx4v_dev *dev;
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_mr *mr;
	struct rte_pmd_mlx4v_cq *tx_cq;
	struct rte_pmd_mlx4v_cq *rx_cq;
	struct rte_pmd_mlx4v_qp *qp;
	struct rte_pmd_mlx4v_wq *wq;
	struct rte_pmd_mlx4v_ind_table *ind;
	struct rte_pmd_mlx4v_qp *rss;
	struct rte_pmd_mlx4v_flow *flow;
	uint8_t *mem;
};

static int
mb_fail(const char *what, int err)
{
	fprintf(stderr, "mlx4v-bench: %s: %s\n", what, strerror(err));
	return -err;
}

/* The frames' destination: the MAC rule of the receive port. */
static const uint8_t mb_dst_mac[6] = { 0x02, 0x00, 0x00, 0x4d, 0x34, 0x02 };

/*
 * The WQ receives through a one-entry table, an RSS QP in RTR on its port and a rule for
 * mb_dst_mac: looped back by the device on port 1, from the wire on another port.
 */
static int
mb_steer(struct mb_ctx *c, uint8_t rx_port)
{
	static const uint8_t key[RTE_PMD_MLX4V_RSS_KEY_LEN] = RTE_PMD_MLX4V_RSS_KEY_DEFAULT;
	struct rte_pmd_mlx4v_rss_qp_attr ra = {
		.hash_fields = RTE_PMD_MLX4V_RX_HASH_SRC_IPV4 | RTE_PMD_MLX4V_RX_HASH_DST_IPV4,
		.key = key, .port = rx_port,
	};
	struct rte_pmd_mlx4v_flow_attr fa = { .type = RTE_PMD_MLX4V_FLOW_MAC, .port = rx_port };
	int ret;

	c->ind = rte_pmd_mlx4v_create_rwq_ind_table(c->dev, 0, &c->wq);
	if (c->ind == NULL)
		return mb_fail("create_rwq_ind_table", errno);
	ra.ind_table = c->ind;
	c->rss = rte_pmd_mlx4v_create_rss_qp(c->pd, &ra);
	if (c->rss == NULL)
		return mb_fail("create_rss_qp", errno);
	ret = rte_pmd_mlx4v_modify_qp(c->rss, RTE_PMD_MLX4V_QPS_INIT);
	if (ret == 0)
		ret = rte_pmd_mlx4v_modify_qp(c->rss, RTE_PMD_MLX4V_QPS_RTR);
	if (ret)
		return mb_fail("modify (RSS QP)", ret);
	memcpy(fa.dmac, mb_dst_mac, sizeof(fa.dmac));
	c->flow = rte_pmd_mlx4v_create_flow(c->rss, &fa);
	if (c->flow == NULL)
		return mb_fail("create_flow", errno);
	return 0;
}

static int
mb_setup(struct mb_ctx *c, struct mb_dp *dp, const char *name, uint8_t rx_port,
	 uint32_t len)
{
	struct rte_pmd_mlx4v_qp_attr qa = {
		.max_send_wr = MB_TX_WQES, .max_recv_wr = 1, .max_send_sge = 1,
		.max_recv_sge = 1, .port = 1,
	};
	struct rte_pmd_mlx4v_wq_attr wa = {
		.max_wr = MB_RX_WQES, .max_sge = 1, .port = rx_port,
	};
	struct rte_pmd_mlx4v_obj obj;
	size_t tx_len, rx_len;
	uint32_t i, j;
	int ret;

	c->dev = rte_pmd_mlx4v_dev_open(name);
	if (c->dev == NULL)
		return mb_fail(name, errno);
	c->pd = rte_pmd_mlx4v_alloc_pd(c->dev);
	if (c->pd == NULL)
		return mb_fail("alloc_pd", errno);
	c->tx_cq = rte_pmd_mlx4v_create_cq(c->dev, MB_TX_WQES, 0, 0);
	c->rx_cq = rte_pmd_mlx4v_create_cq(c->dev, 2 * MB_RX_WQES, 0, 0);
	if (c->tx_cq == NULL || c->rx_cq == NULL)
		return mb_fail("create_cq", errno);
	qa.send_cq = c->tx_cq;
	qa.recv_cq = c->tx_cq;
	c->qp = rte_pmd_mlx4v_create_qp(c->pd, &qa);
	if (c->qp == NULL)
		return mb_fail("create_qp", errno);
	wa.cq = c->rx_cq;
	c->wq = rte_pmd_mlx4v_create_wq(c->pd, &wa);
	if (c->wq == NULL)
		return mb_fail("create_wq", errno);
	memset(&obj, 0, sizeof(obj));
	obj.qp.in = c->qp;
	obj.qp.out = &dp->sq.v;
	obj.cq.in = c->tx_cq;
	obj.cq.out = &dp->tx_cq.v;
	obj.rwq.in = c->wq;
	obj.rwq.out = &dp->rwq;
	ret = rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_QP | MLX4DV_OBJ_CQ | MLX4DV_OBJ_RWQ);
	if (ret)
		return mb_fail("init_obj", ret);
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = c->rx_cq;
	obj.cq.out = &dp->rx_cq.v;
	ret = rte_pmd_mlx4v_init_obj(&obj, MLX4DV_OBJ_CQ);
	if (ret)
		return mb_fail("init_obj", ret);
	tx_len = (size_t)dp->sq.v.sq.wqe_cnt * RV_PKT_MAX;
	rx_len = (size_t)dp->rwq.rq.wqe_cnt * RV_PKT_MAX;
	c->mem = rte_zmalloc("mlx4v_bench", tx_len + rx_len, RTE_CACHE_LINE_SIZE);
	if (c->mem == NULL)
		return mb_fail("rte_zmalloc", ENOMEM);
	c->mr = rte_pmd_mlx4v_reg_mr(c->pd, c->mem, tx_len + rx_len);
	if (c->mr == NULL)
		return mb_fail("reg_mr", errno);
	ret = rte_pmd_mlx4v_mr_lkey(c->mr, &dp->sq.lkey);
	if (ret)
		return mb_fail("mr_lkey", ret);
	dp->sq.bufs = c->mem;
	rte_pmd_mlx4v_rawdp_rq_init_rwq(&dp->rq, &dp->rwq);
	dp->rq.bufs = c->mem + tx_len;
	dp->rq.lkey = dp->sq.lkey;
	/* Frames are prepared once: the benchmark measures the driver, not memcpy. */
	for (i = 0; i < dp->sq.v.sq.wqe_cnt; i++) {
		uint8_t *f = dp->sq.bufs + (size_t)i * RV_PKT_MAX;

		memcpy(f, mb_dst_mac, 6);
		memcpy(f + 6, "\x02\x00\x00\x4d\x34\x01\x88\xb5", 8);
		for (j = 14; j < len; j++)
			f[j] = (uint8_t)j;
	}
	/* A full RQ (the poll function refills it), then the state changes. */
	rte_pmd_mlx4v_rawdp_rq_post(&dp->rq, UINT32_MAX);
	ret = rte_pmd_mlx4v_modify_wq(c->wq, RTE_PMD_MLX4V_WQS_RDY);
	if (ret)
		return mb_fail("modify_wq", ret);
	ret = mb_steer(c, rx_port);
	if (ret)
		return ret;
	ret = rte_pmd_mlx4v_modify_qp(c->qp, RTE_PMD_MLX4V_QPS_INIT);
	if (ret == 0)
		ret = rte_pmd_mlx4v_modify_qp(c->qp, RTE_PMD_MLX4V_QPS_RTR);
	if (ret == 0)
		ret = rte_pmd_mlx4v_modify_qp(c->qp, RTE_PMD_MLX4V_QPS_RTS);
	if (ret)
		return mb_fail("modify", ret);
	return 0;
}

static void
mb_teardown(struct mb_ctx *c)
{
	if (c->mr != NULL)
		rte_pmd_mlx4v_dereg_mr(c->mr);
	rte_free(c->mem);
	if (c->qp != NULL)
		rte_pmd_mlx4v_destroy_qp(c->qp);
	if (c->flow != NULL)
		rte_pmd_mlx4v_destroy_flow(c->flow);
	if (c->rss != NULL)
		rte_pmd_mlx4v_destroy_qp(c->rss);
	if (c->ind != NULL)
		rte_pmd_mlx4v_destroy_rwq_ind_table(c->ind);
	if (c->wq != NULL)
		rte_pmd_mlx4v_destroy_wq(c->wq);
	if (c->rx_cq != NULL)
		rte_pmd_mlx4v_destroy_cq(c->rx_cq);
	if (c->tx_cq != NULL)
		rte_pmd_mlx4v_destroy_cq(c->tx_cq);
	if (c->pd != NULL)
		rte_pmd_mlx4v_dealloc_pd(c->pd);
	if (c->dev != NULL)
		rte_pmd_mlx4v_dev_close(c->dev);
}

/* ---- the run ---- */

static int
mb_run(struct mb_dp *dp, struct mb_meter *m, uint64_t pkts, uint32_t burst, uint32_t len,
       int measure, uint64_t *rx_out)
{
	uint32_t max_post = MB_TX_WQES, n, got;
	uint64_t sent = 0, rx = 0, last = rte_get_timer_cycles();
	uint64_t stall = rte_get_timer_hz() * MB_STALL_S;

	while (rx < pkts) {
		n = RTE_MIN((uint64_t)burst, pkts - sent);
		/* Room in the SQ, and in the RQ so that nothing is dropped. */
		if (n != 0 && dp->sq.head - dp->sq.done + n <= max_post &&
		    sent - rx + n <= dp->rq.wqe_cnt) {
			if (measure)
				mb_begin(m);
			mlx4v_bench_dp_tx_burst(dp, n, len);
			if (measure)
				mb_end(m, MB_TX);
			sent += n;
		}
		if (measure)
			mb_begin(m);
		got = mlx4v_bench_idle_peek(&dp->tx_cq);
		if (measure)
			mb_end(m, MB_IDLE);
		if (got) {
			if (measure)
				mb_begin(m);
			mlx4v_bench_dp_tx_complete(dp);
			if (measure)
				mb_end(m, MB_TXC);
		}
		if (measure)
			mb_begin(m);
		got = mlx4v_bench_idle_peek(&dp->rx_cq);
		if (measure)
			mb_end(m, MB_IDLE);
		if (got) {
			if (measure)
				mb_begin(m);
			got = mlx4v_bench_dp_rx_poll(dp, 64);
			if (measure)
				mb_end(m, MB_RX);
		}
		rx += got;
		if (got != 0) {
			last = rte_get_timer_cycles();
		} else if (rte_get_timer_cycles() - last > stall) {
			fprintf(stderr, "mlx4v-bench: stalled: sent %" PRIu64 ", received %"
				PRIu64 "\n", sent, rx);
			*rx_out = rx;
			return -ETIMEDOUT;
		}
	}
	*rx_out = rx;
	return 0;
}

int
main(int argc, char **argv)
{
	uint64_t pkts = 1000000, rx = 0, t0, t1, hz;
	uint32_t burst = 32, len = 64, rx_port = 1;
	const char *name = "mlx4v_sim0";
	struct mb_meter meter;
	struct mb_ctx ctx;
	struct mb_dp *dp;
	unsigned int p;
	int opt, ret, measure = 1;
	uint64_t driver_cycles = 0, driver_insns = 0;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	argc -= ret;
	argv += ret;
	while ((opt = getopt(argc, argv, "d:n:b:s:p:t")) != -1) {
		switch (opt) {
		case 'd': name = optarg; break;
		case 'n': pkts = strtoull(optarg, NULL, 0); break;
		case 'b': burst = strtoul(optarg, NULL, 0); break;
		case 's': len = strtoul(optarg, NULL, 0); break;
		case 'p': rx_port = strtoul(optarg, NULL, 0); break;
		case 't': measure = 0; break;
		default:
			fprintf(stderr, "usage: dpdk-mlx4v-bench <EAL> -- [-d dev] [-n pkts] "
				"[-b burst 1-64] [-s size 60-2048] [-p rx_port] "
				"[-t (timing only)]\n");
			return 2;
		}
	}
	if (pkts == 0 || burst == 0 || burst > 64 || len < 60 || len > RV_PKT_MAX ||
	    rx_port == 0 || rx_port > 4) {
		fprintf(stderr, "mlx4v-bench: bad arguments\n");
		return 2;
	}
	memset(&ctx, 0, sizeof(ctx));
	memset(&meter, 0, sizeof(meter));
	dp = rte_zmalloc("mlx4v_bench_dp", sizeof(*dp), RTE_CACHE_LINE_SIZE);
	if (dp == NULL)
		return 1;
	meter.fd = -1;
	if (measure) {
		ret = mb_perf_open();
		if (ret >= 0)
			meter.fd = ret;
		else
			printf("mlx4v-bench: perf_event_open(instructions): %s; instructions "
			       "not counted (use callgrind, see the guide)\n", strerror(-ret));
	}
	ret = mb_setup(&ctx, dp, name, (uint8_t)rx_port, len);
	if (ret == 0) {
		hz = rte_get_tsc_hz();
		t0 = rte_rdtsc_precise();
		ret = mb_run(dp, &meter, pkts, burst, len, measure, &rx);
		t1 = rte_rdtsc_precise();
		printf("mlx4v-bench: %s, %" PRIu64 " packets of %u bytes, burst %u, rx port %u%s\n",
		       name, rx, len, burst, rx_port,
		       measure ? "" : " (timing only: no per-call measurement)");
		printf("mlx4v-bench: SIMULATOR numbers: %.3f s, %.3f Mpps, %.1f ns/packet "
		       "end to end\n", (double)(t1 - t0) / hz,
		       (double)rx * hz / (double)(t1 - t0) / 1e6,
		       (double)(t1 - t0) * 1e9 / hz / (double)(rx ? rx : 1));
		for (p = 0; measure && p < MB_PARTS; p++) {
			printf("mlx4v-bench: %-15s calls %10" PRIu64 "  cycles/packet %8.1f",
			       mb_part_names[p], meter.calls[p],
			       (double)meter.cycles[p] / (double)(rx ? rx : 1));
			if (meter.fd >= 0)
				printf("  instructions/packet %8.1f",
				       (double)meter.insns[p] / (double)(rx ? rx : 1));
			printf("\n");
			if (p != MB_IDLE) {
				driver_cycles += meter.cycles[p];
				driver_insns += meter.insns[p];
			}
		}
		if (measure) {
			printf("mlx4v-bench: driver side per packet (without owner checks): "
			       "%.1f cycles (rdtsc, includes the timer reads)",
			       (double)driver_cycles / (double)(rx ? rx : 1));
			if (meter.fd >= 0)
				printf(", %.1f instructions (perf)", (double)driver_insns /
				       (double)(rx ? rx : 1));
			printf("\n");
		}
	}
	if (meter.fd >= 0)
		close(meter.fd);
	mb_teardown(&ctx);
	rte_free(dp);
	rte_eal_cleanup();
	return ret == 0 ? 0 : 1;
}
