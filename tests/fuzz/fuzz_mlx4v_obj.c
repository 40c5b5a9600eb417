/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Fuzz target: mlx4v object creation sizes and rte_pmd_mlx4v_init_obj() on the
 * simulated ConnectX-3 (mlx4v_sim, created once per process).
 *
 * Input, read in order (missing bytes read as 0): flags byte; CQ cqe, cqe_size; SRQ
 * max_wr, max_sge; QP max_send_wr, max_recv_wr, max_send_sge, max_recv_sge,
 * max_inline_data (32 bits each), port; WQ max_wr, max_sge, port; QP and WQ target
 * states; init_obj type and the QP/CQ comp_mask inputs. Flags: bit 0 CQ with events,
 * bit 1 SRQ, bit 2 QP, bit 3 WQ, bit 4 QP on the SRQ, bit 5 hand init_obj the objects
 * under the wrong types, bit 6 hand it a destroyed CQ, bit 7 NULL outputs.
 * Findings: sanitizer reports; a destroy that fails; outputs written by a call that
 * failed with EINVAL; EAL memory not returned (doc/guides/testing/fuzzing.rst).
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_errno.h>

#include "fuzz_common.h"
#include "rte_pmd_mlx4v.h"
#include "ut_common.h"

#define FUZZ_DEV "mlx4v_sim_fz0"
#define FUZZ_F_EVENTS   0x01
#define FUZZ_F_SRQ      0x02
#define FUZZ_F_QP       0x04
#define FUZZ_F_WQ       0x08
#define FUZZ_F_QP_SRQ   0x10
#define FUZZ_F_SWAP     0x20
#define FUZZ_F_STALE    0x40
#define FUZZ_F_OUT_NULL 0x80

static struct rte_pmd_mlx4v_dev *g_dev;
static struct rte_pmd_mlx4v_pd *g_pd;

void
fuzz_teardown(void)
{
	rte_pmd_mlx4v_dealloc_pd(g_pd);
	rte_pmd_mlx4v_dev_close(g_dev);
}

void
fuzz_setup(void)
{
	if (rte_vdev_init(FUZZ_DEV, "ports=2,class=none") != 0)
		fuzz_fail("rte_vdev_init(%s): %s", FUZZ_DEV, rte_strerror(rte_errno));
	g_dev = rte_pmd_mlx4v_dev_open(FUZZ_DEV);
	g_pd = g_dev != NULL ? rte_pmd_mlx4v_alloc_pd(g_dev) : NULL;
	if (g_pd == NULL)
		fuzz_fail("cannot open %s and allocate a PD", FUZZ_DEV);
}

struct fuzz_outs {
	struct mlx4dv_qp qp;
	struct mlx4dv_cq cq;
	struct mlx4dv_srq srq;
	struct mlx4dv_rwq rwq;
};

static void
fuzz_init_obj(struct fuzz_in *fi, uint8_t flags, struct rte_pmd_mlx4v_cq *cq,
	      struct rte_pmd_mlx4v_srq *srq, struct rte_pmd_mlx4v_qp *qp,
	      struct rte_pmd_mlx4v_wq *wq)
{
	uint64_t type = fuzz_u8(fi);
	struct rte_pmd_mlx4v_obj obj;
	struct fuzz_outs outs, ref;
	int ret;

	memset(&outs, 0xa5, sizeof(outs));
	outs.qp.comp_mask = fuzz_u8(fi);
	outs.cq.comp_mask = fuzz_u8(fi);
	ref = outs;
	memset(&obj, 0, sizeof(obj));
	if (flags & FUZZ_F_SWAP) {
		/* Handle confusion: each object under another type. */
		obj.qp.in = (struct rte_pmd_mlx4v_qp *)(void *)cq;
		obj.cq.in = (struct rte_pmd_mlx4v_cq *)(void *)qp;
		obj.srq.in = (struct rte_pmd_mlx4v_srq *)(void *)wq;
		obj.rwq.in = (struct rte_pmd_mlx4v_wq *)(void *)srq;
	} else {
		obj.qp.in = qp;
		obj.cq.in = cq;
		obj.srq.in = srq;
		obj.rwq.in = wq;
	}
	if (!(flags & FUZZ_F_OUT_NULL)) {
		obj.qp.out = &outs.qp;
		obj.cq.out = &outs.cq;
		obj.srq.out = &outs.srq;
		obj.rwq.out = &outs.rwq;
	}
	ret = rte_pmd_mlx4v_init_obj(&obj, type);
	if (ret == EINVAL && memcmp(&outs, &ref, sizeof(outs)) != 0)
		fuzz_fail("init_obj(type 0x%" PRIx64 ") failed with EINVAL but wrote outputs",
			  type);
	if (ret < 0)
		fuzz_fail("init_obj returned %d: positive errno values only", ret);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in fi = { data, size };
	uint8_t flags = fuzz_u8(&fi);
	struct rte_pmd_mlx4v_qp_attr qa;
	struct rte_pmd_mlx4v_wq_attr wa;
	struct rte_pmd_mlx4v_cq *cq, *stale = NULL;
	struct rte_pmd_mlx4v_srq *srq = NULL;
	struct rte_pmd_mlx4v_qp *qp = NULL;
	struct rte_pmd_mlx4v_wq *wq = NULL;
	struct ut_heap h0, h1;
	int cqe, cqe_size;
	uint32_t a, b;
	uint8_t qs, ws;

	ut_heap_get(&h0);
	cqe = (int)fuzz_u32(&fi);
	cqe_size = (int)fuzz_u16(&fi);
	cq = rte_pmd_mlx4v_create_cq(g_dev, cqe, cqe_size, flags & FUZZ_F_EVENTS);
	a = fuzz_u32(&fi);
	b = fuzz_u32(&fi);
	if (flags & FUZZ_F_SRQ)
		srq = rte_pmd_mlx4v_create_srq(g_pd, a, b);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.srq = (flags & FUZZ_F_QP_SRQ) ? srq : NULL;
	qa.max_send_wr = fuzz_u32(&fi);
	qa.max_recv_wr = fuzz_u32(&fi);
	qa.max_send_sge = fuzz_u32(&fi);
	qa.max_recv_sge = fuzz_u32(&fi);
	qa.max_inline_data = fuzz_u32(&fi);
	qa.port = fuzz_u8(&fi);
	if (flags & FUZZ_F_QP)
		qp = rte_pmd_mlx4v_create_qp(g_pd, &qa);
	memset(&wa, 0, sizeof(wa));
	wa.cq = cq;
	wa.max_wr = fuzz_u32(&fi);
	wa.max_sge = fuzz_u32(&fi);
	wa.port = fuzz_u8(&fi);
	if (flags & FUZZ_F_WQ)
		wq = rte_pmd_mlx4v_create_wq(g_pd, &wa);
	qs = fuzz_u8(&fi);
	ws = fuzz_u8(&fi);
	if (qp != NULL)
		rte_pmd_mlx4v_modify_qp(qp, (enum rte_pmd_mlx4v_qp_state)(qs % 6));
	if (wq != NULL)
		rte_pmd_mlx4v_modify_wq(wq, (enum rte_pmd_mlx4v_wq_state)(ws % 4));
	if (flags & FUZZ_F_STALE) {
		stale = rte_pmd_mlx4v_create_cq(g_dev, 16, 32, 0);
		if (stale != NULL && rte_pmd_mlx4v_destroy_cq(stale) != 0)
			fuzz_fail("destroy of a fresh CQ failed");
	}
	fuzz_init_obj(&fi, flags, stale != NULL ? stale : cq, srq, qp, wq);
	if (qp != NULL && rte_pmd_mlx4v_destroy_qp(qp) != 0)
		fuzz_fail("destroy_qp failed");
	if (wq != NULL && rte_pmd_mlx4v_destroy_wq(wq) != 0)
		fuzz_fail("destroy_wq failed");
	if (srq != NULL && rte_pmd_mlx4v_destroy_srq(srq) != 0)
		fuzz_fail("destroy_srq failed");
	if (cq != NULL && rte_pmd_mlx4v_destroy_cq(cq) != 0)
		fuzz_fail("destroy_cq failed");
	ut_heap_get(&h1);
	if (!ut_heap_same(&h0, &h1))
		fuzz_fail("EAL memory not returned");
	return 0;
}
