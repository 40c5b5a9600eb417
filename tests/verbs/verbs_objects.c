/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file rdma-core's libibverbs and libmlx4, unmodified, on the verbs emulation
 * (doc/guides/platform/verbs_emulation.rst, step 2): open the device, query it and its ports,
 * allocate a PD, register an MR, create CQs, take the CQ's view with mlx4dv_init_obj(), and
 * compare what libmlx4 holds with what the model holds; then destroy, and the model is empty.
 * Run under dpdk-mlxv-verbs-run (the model is in this process, "verbs-<BDF>").
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/mlx4dv.h>
#include <infiniband/verbs.h>

#include "mlx4v_sim.h"
#include "verbs_test.h"

/* The model's live objects of each kind the test makes. */
static void
live(struct mlx4v_sim *sim, unsigned int *pd, unsigned int *mr, unsigned int *cq)
{
	*pd = mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_PD);
	*mr = mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_MR);
	*cq = mlx4v_sim_live_objects(sim, MLX4V_SIM_OBJ_CQ);
}

/* A CQ of n entries: its view against the model's CQ. */
static struct ibv_cq *
cq_check(struct ibv_context *ctx, struct mlx4v_sim *sim, int n)
{
	struct mlx4v_sim_cq_info info;
	struct mlx4dv_obj obj;
	struct mlx4dv_cq dv;
	struct ibv_cq *cq;
	long page = sysconf(_SC_PAGESIZE);

	cq = ibv_create_cq(ctx, n, NULL, NULL, 0);
	CHECK(cq != NULL, "ibv_create_cq(%d): %s", n, cq != NULL ? "done" : strerror(errno));
	if (cq == NULL)
		return NULL;
	memset(&obj, 0, sizeof(obj));
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX4DV_CQ_MASK_UAR;
	obj.cq.in = cq;
	obj.cq.out = &dv;
	CHECK(mlx4dv_init_obj(&obj, MLX4DV_OBJ_CQ) == 0, "mlx4dv_init_obj(CQ)");
	CHECK(mlx4v_sim_cq_info(sim, dv.cqn, &info) == 0, "the model holds CQN 0x%x", dv.cqn);
	CHECK(info.buf == dv.buf.buf, "ring: view %p, model %p", dv.buf.buf, info.buf);
	CHECK(info.cqe_cnt == dv.cqe_cnt, "entries: view %u, model %u", dv.cqe_cnt,
	      info.cqe_cnt);
	CHECK(info.cqe_size == dv.cqe_size, "CQE size: view %d, model %d", dv.cqe_size,
	      info.cqe_size);
	CHECK(info.set_ci_db == dv.set_ci_db, "doorbell record: view %p, model %p",
	      (void *)dv.set_ci_db, (const void *)info.set_ci_db);
	CHECK(dv.arm_db == dv.set_ci_db + 1, "arm_db is dword 1 of the record");
	CHECK(((uintptr_t)dv.buf.buf & (page - 1)) == 0, "ring starts a page");
	CHECK(dv.cqe_cnt >= (uint32_t)n + 1 && (dv.cqe_cnt & (dv.cqe_cnt - 1)) == 0,
	      "entries %u: a power of two above %d", dv.cqe_cnt, n);
	CHECK((int)cq->cqe == (int)dv.cqe_cnt - 1, "ibv_cq.cqe %d is entries - 1", cq->cqe);
	CHECK((dv.comp_mask & MLX4DV_CQ_MASK_UAR) && dv.cq_uar != NULL,
	      "the view has the UAR page");
	return cq;
}

/*
 * The core clock: the extended device query gives its frequency and mask (libmlx4 maps the
 * clock page at the offset it reports), and ibv_query_rt_values_ex() reads the counter from
 * that page: it moves on by at least the ticks of a millisecond slept between two reads.
 */
static void
clock_check(struct ibv_context *ctx)
{
	struct timespec ms = { 0, 1000000 };
	struct ibv_device_attr_ex ax;
	struct ibv_values_ex v1, v2;
	uint64_t t1, t2;
	int r1, r2;

	memset(&ax, 0, sizeof(ax));
	CHECK(ibv_query_device_ex(ctx, NULL, &ax) == 0 && ax.hca_core_clock != 0 &&
	      ax.completion_timestamp_mask == (1ull << 48) - 1,
	      "clock: %" PRIu64 " kHz, mask 0x%" PRIx64, ax.hca_core_clock,
	      ax.completion_timestamp_mask);
	memset(&v1, 0, sizeof(v1));
	memset(&v2, 0, sizeof(v2));
	v1.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	v2.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	r1 = ibv_query_rt_values_ex(ctx, &v1);
	nanosleep(&ms, NULL);
	r2 = ibv_query_rt_values_ex(ctx, &v2);
	t1 = (uint64_t)v1.raw_clock.tv_nsec;
	t2 = (uint64_t)v2.raw_clock.tv_nsec;
	CHECK(r1 == 0 && r2 == 0 && (v1.comp_mask & IBV_VALUES_MASK_RAW_CLOCK),
	      "ibv_query_rt_values_ex(RAW_CLOCK): %s", strerror(r1 ? r1 : r2));
	CHECK(t2 > t1 && t2 - t1 >= ax.hca_core_clock,
	      "the clock moved on by %" PRIu64 " ticks in 1 ms or more (%" PRIu64 " kHz)",
	      t2 - t1, ax.hca_core_clock);
}

int
main(int argc, char **argv)
{
	const char *model = argc > 1 ? argv[1] : "verbs-0000:00:06.0";
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_device_attr attr;
	struct ibv_port_attr port;
	struct ibv_pd *pd, *pd2;
	struct ibv_mr *mr;
	struct ibv_cq *cq1, *cq2;
	struct mlx4v_sim *sim;
	unsigned int npd, nmr, ncq;
	size_t len = 3 * 4096 + 100;
	void *buf;
	int p, ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ctx = verbs_test_open_model(model, &list, &sim);
	if (ctx == NULL)
		return 1;
	CHECK(ibv_query_device(ctx, &attr) == 0, "ibv_query_device");
	CHECK(attr.phys_port_cnt == mlx4v_sim_ports(sim), "ports: %u", attr.phys_port_cnt);
	CHECK(attr.vendor_id == 0x02c9 && attr.vendor_part_id == 4103, "vendor 0x%x part %u",
	      attr.vendor_id, attr.vendor_part_id);
	clock_check(ctx);
	for (p = 1; p <= attr.phys_port_cnt; p++) {
		CHECK(ibv_query_port(ctx, p, &port) == 0, "ibv_query_port(%d)", p);
		CHECK(port.link_layer == IBV_LINK_LAYER_ETHERNET, "port %d: Ethernet", p);
		CHECK((port.state == IBV_PORT_ACTIVE) == (mlx4v_sim_link_get(sim, p) == 1),
		      "port %d: state %d as the model's link", p, port.state);
	}
	CHECK(ibv_query_port(ctx, attr.phys_port_cnt + 1, &port) != 0, "no port %d",
	      attr.phys_port_cnt + 1);

	pd = ibv_alloc_pd(ctx);
	pd2 = ibv_alloc_pd(ctx);
	CHECK(pd != NULL && pd2 != NULL, "ibv_alloc_pd twice");
	if (pd == NULL || pd2 == NULL)
		return 1;
	/* Plain malloc memory, not page aligned: the kernel pins whatever is mapped. */
	buf = malloc(len);
	mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
	CHECK(mr != NULL, "ibv_reg_mr(malloc, %zu): %s", len, mr != NULL ? "done" :
	      strerror(errno));
	CHECK(mr == NULL || (mr->lkey != 0 && mr->lkey != MLX4_INVALID_LKEY), "lkey 0x%x",
	      mr != NULL ? mr->lkey : 0);
	/* Address space that is not mapped cannot be pinned. */
	errno = 0;
	CHECK(ibv_reg_mr(pd2, (void *)(uintptr_t)0x1000, 4096, IBV_ACCESS_LOCAL_WRITE) == NULL &&
	      errno == EFAULT, "ibv_reg_mr of unmapped memory: EFAULT (%s)", strerror(errno));
	/* A PD with an MR cannot be freed (EBUSY), the MR is still there. */
	ret = ibv_dealloc_pd(pd);
	CHECK(ret == EBUSY, "ibv_dealloc_pd with an MR: EBUSY (%d)", ret);
	if (ret == 0)
		pd = NULL;

	cq1 = cq_check(ctx, sim, 1);
	cq2 = cq_check(ctx, sim, 200);
	live(sim, &npd, &nmr, &ncq);
	CHECK(npd == 2 && nmr == 1 && ncq == 2, "the model holds 2 PDs, 1 MR, 2 CQs (%u %u %u)",
	      npd, nmr, ncq);
	/*
	 * Arming: libmlx4 writes the arm_db record, then the doorbell on the context's UAR page;
	 * the model takes it on the CQ the value names, and counts no misuse (arm_db_record,
	 * arm_cqn, ci_stale).
	 */
	if (cq2 != NULL) {
		struct mlx4v_sim_stats st0, st1;

		mlx4v_sim_stats_get(sim, &st0);
		CHECK(ibv_req_notify_cq(cq2, 0) == 0, "ibv_req_notify_cq (next completion)");
		CHECK(ibv_req_notify_cq(cq2, 1) == 0, "ibv_req_notify_cq (solicited)");
		mlx4v_sim_stats_get(sim, &st1);
		CHECK(st1.arms == st0.arms + 2, "the model took 2 arms (%" PRIu64 ")",
		      st1.arms - st0.arms);
		CHECK(mlx4v_sim_misuse_total(sim) == 0, "no misuse after arming");
	}
	CHECK(ibv_create_cq(ctx, attr.max_cqe + 1, NULL, NULL, 0) == NULL,
	      "a CQ above max_cqe %d is refused", attr.max_cqe);

	CHECK(cq1 != NULL && ibv_destroy_cq(cq1) == 0, "ibv_destroy_cq");
	CHECK(mr != NULL && ibv_dereg_mr(mr) == 0, "ibv_dereg_mr");
	CHECK(pd != NULL && ibv_dealloc_pd(pd) == 0, "ibv_dealloc_pd");
	live(sim, &npd, &nmr, &ncq);
	CHECK(npd == 1 && nmr == 0 && ncq == 1, "the model holds 1 PD, 0 MR, 1 CQ (%u %u %u)",
	      npd, nmr, ncq);
	/* Closing the device releases what is left (cq2, pd2), as the kernel does. */
	(void)cq2;
	CHECK(ibv_close_device(ctx) == 0, "ibv_close_device with a CQ and a PD left");
	live(sim, &npd, &nmr, &ncq);
	CHECK(npd == 0 && nmr == 0 && ncq == 0, "the model is empty (%u %u %u)", npd, nmr, ncq);
	CHECK(mlx4v_sim_misuse_total(sim) == 0, "no misuse");
	ibv_free_device_list(list);
	free(buf);
	return verbs_test_fails != 0;
}
