/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Frames per second the simulated ConnectX forwards over a pair wire: device A sends
 * 64-byte UDP frames (send WQEs, doorbell, send CQEs) and device B receives them (steering,
 * RSS over 4 RQs, scatter, receive CQEs). One thread drives both as a raw user.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ip.h>

#include "ethdp_fx.h"

#define BENCH_FRAME 64
#define BENCH_BURST 32

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Take B's receive CQEs, repost their WQEs. @return frames received. */
static unsigned int
bench_rx(struct fx *b, uint64_t *bad)
{
	unsigned int n = 0;
	uint8_t *cqe;

	while ((cqe = cq_poll(b, 1)) != NULL) {
		if (cqe[0x3f] >> 4 != MLX5V_CQE_OPCODE_RESP_SEND ||
		    be32(cqe + 0x2c) != BENCH_FRAME)
			(*bad)++;
		rq_post(b, be32(cqe + 0x20) & 0xffffff, 1);
		n++;
	}
	return n;
}

static int
bench_run(struct fx *a, struct fx *b, uint64_t frames)
{
	uint8_t frame[BENCH_BURST][BENCH_FRAME];
	struct mlx5v_sim_eth_stats st;
	uint64_t sent = 0, rcvd = 0, done = 0, bad = 0;
	uint64_t t0, t1, last;
	unsigned int i, n;
	uint8_t *cqe;

	for (i = 0; i < BENCH_BURST; i++)
		frame_udp(frame[i], BENCH_FRAME, b->mac, RTE_IPV4(10, 0, 0, i + 1), 1024 + i, 0);
	t0 = now_ns();
	last = t0;
	while (done < frames) {
		/* A burst when the SQ has room; a CQE on its last WQE only (prm/mlx5_eth §6.2). */
		n = RTE_MIN((uint64_t)BENCH_BURST, frames - sent);
		if (n > 0 && sent - done + n <= (1u << SQ_LOG)) {
			for (i = 0; i < n; i++)
				sq_post(a, frame[i], BENCH_FRAME, 0, a->lkey, 0, i == n - 1);
			sq_ring(a);
			sent += n;
		}
		while ((cqe = cq_poll(a, 0)) != NULL) {
			if (cqe[0x3f] >> 4 != MLX5V_CQE_OPCODE_REQ) {
				printf("send error CQE, syndrome %#x\n", cqe[0x37]);
				return -EIO;
			}
			/* The CQE completes every WQE up to its wqe_counter (prm/mlx5_eth §6.7). */
			done = sent - (uint16_t)(a->sq_pc - 1 - be16(cqe + 0x3c));
			last = now_ns();
		}
		rcvd += bench_rx(b, &bad);
		if (now_ns() - last > 10000000000ull) {
			printf("stalled: sent %" PRIu64 " done %" PRIu64 " received %" PRIu64 "\n",
			       sent, done, rcvd);
			return -ETIMEDOUT;
		}
	}
	/* The last frame may still be on its way: its send CQE is written first. */
	mlx5v_sim_eth_stats_get(b->sim, &st);
	while (rcvd + st.rx_out_of_buffer < frames && now_ns() - last < 1000000000ull) {
		rcvd += bench_rx(b, &bad);
		mlx5v_sim_eth_stats_get(b->sim, &st);
	}
	t1 = now_ns();
	printf("%" PRIu64 " frames of %u bytes sent, %" PRIu64 " received (%" PRIu64
	       " out_of_buffer, %" PRIu64 " bad CQEs) in %.3f s: %.0f frames/s, %.2f us/frame\n",
	       sent, BENCH_FRAME, rcvd, st.rx_out_of_buffer, bad, (t1 - t0) / 1e9,
	       rcvd * 1e9 / (t1 - t0), (t1 - t0) / 1e3 / (rcvd ? rcvd : 1));
	return bad == 0 ? 0 : -EIO;
}

int
main(int argc, char **argv)
{
	static struct fx a, b;
	uint64_t frames = 1000000;
	struct rte_devargs *da;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("EAL init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (argc - ret > 1)
		frames = strtoull(argv[ret + 1], NULL, 0);
	if (frames == 0)
		frames = 1;
	/* B's devargs first: A's pair names it before it is probed (doc/guides/sim/wire.rst). */
	da = calloc(1, sizeof(*da));
	if (da == NULL || rte_devargs_parse(da, "mlx5v_sim31,class=none,wire=pair:mlx5v_sim30") ||
	    rte_devargs_insert(&da) != 0) {
		printf("cannot add the devargs of mlx5v_sim31\n");
		free(da);
		rte_eal_cleanup();
		return 1;
	}
	ret = fx_up(&a, "mlx5v_sim30", "class=none,wire=pair:mlx5v_sim31");
	if (ret == 0)
		ret = fx_up(&b, "mlx5v_sim31", "class=none,wire=pair:mlx5v_sim30");
	if (ret == 0)
		ret = bench_run(&a, &b, frames);
	fx_down(&a);
	fx_down(&b);
	rte_eal_cleanup();
	return ret == 0 ? 0 : 1;
}
