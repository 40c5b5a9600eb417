/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The fault matrix: each fault knob of both simulators against each object family,
 * one fresh device per cell. A cell passes when the operation gives the expected result
 * (failure for an injected error, success for a fault the driver must absorb), the device
 * still works afterwards (unless the fault kills it), every object is gone from the model
 * and the EAL heap is back to its size before the device was created. The table is in
 * doc/guides/sim/fault_matrix.rst.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "test.h"

#include "mlx4v_sim.h"
#include "rte_pmd_mlx4v.h"
#include "rte_pmd_mlx5v_prm.h"
#include "ut_mlx5v_devx.h"

/*
 * Commands time out after 3 s, the other timeouts are divided by 20 (the recovery poll
 * after a command timeout: 250 ms), and health is polled every 100 ms: cells stay short.
 * The command timeout is not shorter because on a loaded machine the simulator's engine
 * thread can go without CPU for a long time (seen: 300 ms in CI, more than 1.75 s in a
 * stress run of three matrices at once beside two builds): a timeout no fault asked for
 * then fails a cell. recovery=dead: the matrix expects a dead device to stay dead (the
 * recovery has its own tests, tests/unit/net/mlx5v/recovery).
 */
#define FM5_ARGS "msix=8,class=none,cmd_to_ms=3000,tout_scale=20,health_ms=100,recovery=dead"
#define FM4_NAME "mlx4v_sim_fm0"
/* The fatal row checks the dead device: no recovery resets it under the test. */
#define FM4_ARGS "class=none,recovery=dead"

/*
 * A failed cell's line goes to stdout with the suite's output, and is kept for a summary on
 * stderr at the end, where a CI log's tail shows it.
 */
static char fm_failures[4096];

#define FM_BAD(...) do { \
	size_t fm_len_ = strlen(fm_failures); \
	printf(__VA_ARGS__); \
	if (fm_len_ < sizeof(fm_failures)) \
		snprintf(fm_failures + fm_len_, sizeof(fm_failures) - fm_len_, __VA_ARGS__); \
} while (0)

enum fm5_family { FM5_EQ, FM5_UAR, FM5_MSI, FM5_PAGES, FM5_NB };

/* The cell's vector for the EQ family (vector 1), beside the fixture's g_dev, g_uar. */
static struct rte_pmd_mlx5v_msi_vector *g_msi;

enum fm_expect {
	FM_OK,    /* the operation succeeds: the driver absorbs the fault */
	FM_FAIL,  /* the operation reports an error */
	FM_NA,    /* the fault does not reach this family: success */
	/*
	 * The operation fails with ETIMEDOUT; the command completes late and the object it
	 * created is destroyed by the driver (doc/guides/sim/fault_matrix.rst).
	 */
	FM_LATE,
};

static const char *const fm5_family_name[FM5_NB] = { "EQ", "UAR", "MSI", "pages" };
/* The command each family's operation depends on (the fault's target). */
static const uint16_t fm5_family_op[FM5_NB] = {
	RTE_PMD_MLX5V_CMD_OP_CREATE_EQ, RTE_PMD_MLX5V_CMD_OP_ALLOC_UAR,
	RTE_PMD_MLX5V_CMD_OP_CREATE_EQ, 0x108 /* MANAGE_PAGES */,
};

struct fm5_fault {
	const char *name;
	/* Arm the fault on opcode op and MSI-X vector vec; eqn: the cell's EQ, if any. */
	void (*arm)(uint16_t op, unsigned int vec);
	enum fm_expect expect[FM5_NB];
	int kills;         /* the device is dead afterwards: no follow-up check */
};

static void
fm5_cmd_fail(uint16_t op, unsigned int vec)
{
	RTE_SET_USED(vec);
	mlx5v_sim_fail_next_cmd(g_sim, op, 0x03 /* BAD_PARAM */, 0x51ff0001);
}

static void
fm5_deliv_fail(uint16_t op, unsigned int vec)
{
	RTE_SET_USED(vec);
	mlx5v_sim_fail_next_delivery(g_sim, op, 0x06 /* FW_ERR */);
}

/* The command is held until the cell releases it: the driver times out whatever the load. */
static void
fm5_timeout(uint16_t op, unsigned int vec)
{
	RTE_SET_USED(vec);
	mlx5v_sim_drop_next_completion(g_sim, op, 1);
}

static void
fm5_lost_eqe(uint16_t op, unsigned int vec)
{
	RTE_SET_USED(vec);
	mlx5v_sim_drop_next_completion(g_sim, op, 0);
}

static void
fm5_dup_eqe(uint16_t op, unsigned int vec)
{
	RTE_SET_USED(vec);
	mlx5v_sim_dup_next_completion(g_sim, op);
}

static void
fm5_lost_msix(uint16_t op, unsigned int vec)
{
	RTE_SET_USED(op);
	mlx5v_sim_drop_msix(g_sim, vec, 2);
}

static void
fm5_dup_msix(uint16_t op, unsigned int vec)
{
	RTE_SET_USED(op);
	mlx5v_sim_dup_msix(g_sim, vec, 2);
}

static void
fm5_dma_fault(uint16_t op, unsigned int vec)
{
	RTE_SET_USED(op);
	RTE_SET_USED(vec);
	mlx5v_sim_knob_set(g_sim, "fail_dma_map", 1);
}

static void
fm5_health(uint16_t op, unsigned int vec)
{
	RTE_SET_USED(op);
	RTE_SET_USED(vec);
	mlx5v_sim_health_fatal(g_sim, 0x01);
	/*
	 * The driver sees it at its next health poll (health_ms=100), on the EAL interrupt
	 * thread: wait for that rather than a fixed time, which a loaded machine can outlast.
	 */
	if (UT_WAIT_FOR(mlx5v_dev_is_dead(mlx5v_devx_dev_get(VDEV_NAME))) != 0)
		FM_BAD("health failure: the driver did not see the fatal syndrome\n");
}

static const struct fm5_fault fm5_faults[] = {
	{ "command failure (fail_opcode)", fm5_cmd_fail,
	  { FM_FAIL, FM_FAIL, FM_FAIL, FM_FAIL }, 0 },
	{ "delivery error (deliv_opcode)", fm5_deliv_fail,
	  { FM_FAIL, FM_FAIL, FM_FAIL, FM_FAIL }, 0 },
	{ "timeout (drop_opcode, drop_hold)", fm5_timeout,
	  { FM_LATE, FM_LATE, FM_LATE, FM_FAIL }, 0 },
	{ "lost completion EQE (drop_opcode)", fm5_lost_eqe,
	  { FM_OK, FM_OK, FM_OK, FM_OK }, 0 },
	{ "duplicate completion EQE (dup_opcode)", fm5_dup_eqe,
	  { FM_OK, FM_OK, FM_OK, FM_OK }, 0 },
	/* A page request whose interrupt is lost waits for the next interrupt. */
	{ "lost MSI-X (lose_msix)", fm5_lost_msix,
	  { FM_OK, FM_OK, FM_OK, FM_FAIL }, 0 },
	{ "duplicate MSI-X (dup_msix)", fm5_dup_msix,
	  { FM_OK, FM_OK, FM_OK, FM_OK }, 0 },
	{ "DMA fault (fail_dma_map)", fm5_dma_fault,
	  { FM_FAIL, FM_NA, FM_FAIL, FM_FAIL }, 0 },
	{ "health failure (fatal syndrome)", fm5_health,
	  { FM_FAIL, FM_FAIL, FM_FAIL, FM_FAIL }, 1 },
};

/*
 * The EQ family: create, one event, destroy. The event comes from GEN_EQE, or, in the
 * check that the device still works after a fault, also from a completion of a CQ bound
 * to the EQ (doc/guides/nics/running_on_hardware.rst, "Events raised with GEN_EQE").
 * @return 0 or a positive errno.
 */
static int
fm5_eq_round_src(unsigned int vector, int overrun, enum ut_src_kind kind)
{
	struct rte_pmd_mlx5v_eq *eq;
	const uint8_t *eqe;
	struct ut_src src;
	uint32_t eqn = 0;
	int ret;

	eq = ut_eq_create(3, vector, 0, &eqn);
	if (eq == NULL)
		return errno != 0 ? errno : EIO;
	if (overrun)
		mlx5v_sim_knob_set(g_sim, "eq_overrun", eqn);
	if (kind == UT_SRC_GEN_EQE) {
		ret = ut_gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, 0x5a);
		if (ret == 0 && rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 8, 0) == NULL)
			ret = EIO;
	} else if (ut_src_open(&src, kind, eqn) != 0) {
		ret = EIO;
	} else {
		ret = ut_src_raise(&src, 0x5a) != 0 ? EIO : 0;
		eqe = rte_pmd_mlx5v_eq_next_eqe(eq->vaddr, 8, 0);
		if (ret == 0 && (eqe == NULL || !ut_src_eqe_is(&src, eqe, 0x5a)))
			ret = EIO;
		if (ut_src_close(&src) != 0)
			ret = EFAULT;
	}
	/* Destroy succeeds whatever happened to the EQ (dead device included). */
	if (rte_pmd_mlx5v_devx_destroy_eq(eq) != 0) {
		FM_BAD("  destroy_eq failed\n");
		return EFAULT;
	}
	return ret;
}

static int
fm5_eq_round(unsigned int vector, int overrun)
{
	return fm5_eq_round_src(vector, overrun, UT_SRC_GEN_EQE);
}

/* Wait until the model holds want firmware pages. @return 0 or ETIMEDOUT. */
static int
fm5_pages_wait(unsigned int want)
{
	return UT_WAIT_FOR(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PAGES) == want) == 0 ?
	       0 : ETIMEDOUT;
}

/* Run family f's operation once. @return 0 or a positive errno. */
static int
fm5_family_run(enum fm5_family f, unsigned int pages0)
{
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_uar *u;
	int ret;

	switch (f) {
	case FM5_EQ:
		return fm5_eq_round(g_msi->vector, 0);
	case FM5_UAR:
		u = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
		if (u == NULL)
			return errno != 0 ? errno : EIO;
		return rte_pmd_mlx5v_devx_free_uar(u) == 0 ? 0 : EFAULT;
	case FM5_MSI:
		m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
		if (m == NULL)
			return errno != 0 ? errno : EIO;
		ret = fm5_eq_round(m->vector, 0);
		ut_drain_fd(m->fd);
		if (rte_pmd_mlx5v_devx_free_msi_vector(m) != 0)
			ret = EFAULT;
		return ret;
	default:
		/* The device asks for 4 pages, then gives them back. */
		if (mlx5v_sim_request_pages(g_sim, 4) != 0)
			return EIO;
		ret = fm5_pages_wait(pages0 + 4);
		if (ret == 0 && (mlx5v_sim_request_pages(g_sim, -4) != 0 ||
				 fm5_pages_wait(pages0) != 0))
			ret = EIO;
		return ret;
	}
}

static int
fm5_up(void)
{
	if (rte_vdev_init(VDEV_NAME, FM5_ARGS) != 0)
		return -1;
	g_dev = rte_pmd_mlx5v_dev_get(VDEV_NAME);
	g_sim = mlx5v_sim_get(VDEV_NAME);
	g_uar = g_dev != NULL ? rte_pmd_mlx5v_devx_alloc_uar(g_dev) : NULL;
	g_msi = g_dev != NULL ? rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev) : NULL;
	return g_uar != NULL && g_msi != NULL ? 0 : -1;
}

static int
fm5_down(void)
{
	rte_pmd_mlx5v_devx_free_msi_vector(g_msi);
	rte_pmd_mlx5v_devx_free_uar(g_uar);
	g_msi = NULL;
	g_uar = NULL;
	return rte_vdev_uninit(VDEV_NAME);
}

/* One cell. @return TEST_SUCCESS or TEST_FAILED (with a line saying why). */
static int
fm5_cell(const struct fm5_fault *ft, enum fm5_family f)
{
	struct rte_pmd_mlx5v_msi_vector *probe;
	unsigned int eqs0, uars0, pages0, cur;
	struct mlx5v_cmd_info ci;
	struct ut_heap h0, h1;
	int ret, bad = 0;

	ut_heap_get(&h0);
	if (fm5_up() != 0) {
		FM_BAD("%s x %s: no device\n", ft->name, fm5_family_name[f]);
		return TEST_FAILED;
	}
	eqs0 = ut_live_eqs();
	uars0 = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_UAR);
	pages0 = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PAGES);
	/* The MSI family's vector is the lowest free one (2); the others' is vector 0. */
	ft->arm(fm5_family_op[f], f == FM5_MSI ? 2 : 0);
	ret = fm5_family_run(f, pages0);
	if (ret == EFAULT || (ret == 0) != (ft->expect[f] == FM_OK || ft->expect[f] == FM_NA) ||
	    (ft->expect[f] == FM_LATE && ret != ETIMEDOUT)) {
		FM_BAD("%s x %s: operation %s (%s)\n", ft->name, fm5_family_name[f],
		       ret == 0 ? "succeeded" : "failed", strerror(ret));
		bad = 1;
	}
	if (!ft->kills) {
		/* The late completion first; then the device must work as before. */
		if (ft->arm == fm5_timeout)
			mlx5v_sim_release_held(g_sim);
		mlx5v_sim_knob_set(g_sim, "fail_dma_map", 0);
		probe = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
		if (probe == NULL || fm5_eq_round(probe->vector, 0) != 0 ||
		    fm5_eq_round_src(probe->vector, 0, UT_SRC_CQE) != 0) {
			FM_BAD("%s x %s: the device no longer works\n", ft->name,
			       fm5_family_name[f]);
			bad = 1;
		}
		if (probe != NULL)
			rte_pmd_mlx5v_devx_free_msi_vector(probe);
		/*
		 * A page request the driver could not serve at once may be served later (at
		 * the next interrupt): give the device's count back before comparing.
		 */
		cur = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_PAGES);
		if (f == FM5_PAGES && cur != pages0)
			mlx5v_sim_request_pages(g_sim, (int32_t)pages0 - (int32_t)cur);
		/*
		 * The late completion's object (EQ or UAR) was destroyed by the commands of the
		 * follow-up round at the latest: no object more than before, and said so.
		 */
		if (ft->expect[f] == FM_LATE &&
		    (mlx5v_cmd_info_get(mlx5v_devx_dev_get(VDEV_NAME), &ci) != 0 ||
		     ci.late_completions != 1 || ci.orphans_destroyed != 1)) {
			FM_BAD("%s x %s: the late completion's object was not destroyed\n",
			       ft->name, fm5_family_name[f]);
			bad = 1;
		}
		/* Commands run on the model's thread: wait for its counts to settle. */
		UT_WAIT_FOR(ut_live_eqs() == eqs0 &&
			    mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_UAR) == uars0);
		if (ut_live_eqs() != eqs0 ||
		    mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_UAR) != uars0 ||
		    fm5_pages_wait(pages0) != 0) {
			FM_BAD("%s x %s: objects left in the model\n", ft->name,
			       fm5_family_name[f]);
			bad = 1;
		}
	}
	if (fm5_down() != 0) {
		FM_BAD("%s x %s: the device cannot be removed\n", ft->name, fm5_family_name[f]);
		bad = 1;
	}
	ut_heap_get(&h1);
	if (!ut_heap_same(&h0, &h1)) {
		FM_BAD("%s x %s: EAL memory leaked (%" PRIu64 " -> %" PRIu64 " bytes)\n",
		       ft->name, fm5_family_name[f], h0.bytes, h1.bytes);
		bad = 1;
	}
	return bad ? TEST_FAILED : TEST_SUCCESS;
}

static int
test_fault_matrix_mlx5v(void)
{
	unsigned int i, f, failed = 0;
	struct ut_heap h0, h1;

	for (i = 0; i < RTE_DIM(fm5_faults); i++)
		for (f = 0; f < FM5_NB; f++)
			failed += fm5_cell(&fm5_faults[i], f) != TEST_SUCCESS;
	/*
	 * A CREATE_EQ whose completion never comes: the device is removed with the slot still
	 * held, the function teardown reclaims the EQ, and the ring the driver kept for it
	 * (quarantine) is freed then: the EAL heap is back to its size.
	 */
	ut_heap_get(&h0);
	TEST_ASSERT_SUCCESS(fm5_up(), "device");
	fm5_timeout(RTE_PMD_MLX5V_CMD_OP_CREATE_EQ, 0);
	TEST_ASSERT_EQUAL(fm5_eq_round(g_msi->vector, 0), ETIMEDOUT, "CREATE_EQ did not time out");
	TEST_ASSERT_SUCCESS(fm5_down(), "remove with a command never completed");
	ut_heap_get(&h1);
	if (!ut_heap_same(&h0, &h1))
		FM_BAD("never completed CREATE_EQ: EAL memory leaked (%" PRIu64 " -> %" PRIu64
		       " bytes)\n", h0.bytes, h1.bytes);
	TEST_ASSERT(ut_heap_same(&h0, &h1), "EAL memory leaked after a never completed CREATE_EQ");
	/* EQ overrun concerns the EQ family only: the EQ errors, destroy still works. */
	TEST_ASSERT_SUCCESS(fm5_up(), "device");
	TEST_ASSERT(fm5_eq_round(g_msi->vector, 1) != EFAULT, "overrun EQ cannot be destroyed");
	TEST_ASSERT_SUCCESS(fm5_down(), "remove");
	TEST_ASSERT_EQUAL(failed, 0, "%u cells of the mlx5v matrix failed", failed);
	return TEST_SUCCESS;
}

/* ---- mlx4v_sim: one knob per object family ---- */

enum fm4_step { FM4_PD, FM4_MR, FM4_CQ, FM4_SRQ, FM4_QP, FM4_WQ, FM4_QP_MOD, FM4_WQ_MOD,
		FM4_NB };

static const char *const fm4_step_name[FM4_NB] = {
	"PD", "MR", "CQ", "SRQ", "QP", "WQ", "QP modify", "WQ modify",
};

struct fm4_fault {
	const char *knob;
	enum fm4_step fails;   /* the step that must fail; FM4_NB: none */
	int dead;              /* set once the chain is built: the device dies under it */
};

static const struct fm4_fault fm4_faults[] = {
	{ "fail_alloc_pd", FM4_PD, 0 },
	{ "fail_reg_mr", FM4_MR, 0 },
	{ "fail_create_cq", FM4_CQ, 0 },
	{ "fail_create_srq", FM4_SRQ, 0 },
	{ "fail_create_qp", FM4_QP, 0 },
	{ "fail_create_wq", FM4_WQ, 0 },
	{ "fail_modify_qp", FM4_QP_MOD, 0 },
	{ "fail_modify_wq", FM4_WQ_MOD, 0 },
	/* A lost completion event: the objects work, only an interrupt is missing. */
	{ "lose_cq_event", FM4_NB, 0 },
	/*
	 * The catastrophic error: the built objects can no longer move to a working state, but
	 * every destroy succeeds, and the device opens no handle any more.
	 */
	{ "fatal", FM4_NB, 1 },
};

struct fm4_objs {
	struct rte_pmd_mlx4v_dev *dev;
	struct rte_pmd_mlx4v_pd *pd;
	struct rte_pmd_mlx4v_mr *mr;
	struct rte_pmd_mlx4v_cq *cq;
	struct rte_pmd_mlx4v_srq *srq;
	struct rte_pmd_mlx4v_qp *qp;
	struct rte_pmd_mlx4v_wq *wq;
	void *buf;
};

/* Build every object in order. @return the first step that failed, or FM4_NB. */
static enum fm4_step
fm4_build(struct fm4_objs *o)
{
	struct rte_pmd_mlx4v_qp_attr qa = { 0 };
	struct rte_pmd_mlx4v_wq_attr wa = { 0 };

	o->pd = rte_pmd_mlx4v_alloc_pd(o->dev);
	if (o->pd == NULL)
		return FM4_PD;
	o->buf = rte_zmalloc("fault_matrix", 4096, 4096);
	o->mr = o->buf != NULL ? rte_pmd_mlx4v_reg_mr(o->pd, o->buf, 4096) : NULL;
	if (o->mr == NULL)
		return FM4_MR;
	o->cq = rte_pmd_mlx4v_create_cq(o->dev, 64, 32, 1);
	if (o->cq == NULL)
		return FM4_CQ;
	o->srq = rte_pmd_mlx4v_create_srq(o->pd, 32, 1);
	if (o->srq == NULL)
		return FM4_SRQ;
	qa.send_cq = o->cq;
	qa.recv_cq = o->cq;
	qa.max_send_wr = 64;
	qa.max_recv_wr = 64;
	qa.max_send_sge = 1;
	qa.max_recv_sge = 1;
	qa.port = 1;
	o->qp = rte_pmd_mlx4v_create_qp(o->pd, &qa);
	if (o->qp == NULL)
		return FM4_QP;
	wa.cq = o->cq;
	wa.max_wr = 64;
	wa.max_sge = 1;
	wa.port = 1;
	o->wq = rte_pmd_mlx4v_create_wq(o->pd, &wa);
	if (o->wq == NULL)
		return FM4_WQ;
	if (rte_pmd_mlx4v_modify_qp(o->qp, RTE_PMD_MLX4V_QPS_INIT) != 0)
		return FM4_QP_MOD;
	if (rte_pmd_mlx4v_modify_wq(o->wq, RTE_PMD_MLX4V_WQS_RDY) != 0)
		return FM4_WQ_MOD;
	return FM4_NB;
}

/*
 * The device died under a built chain: a QP or WQ cannot go back to work, RESET still
 * succeeds (the kernel completes it on a dead device), a new object fails with EIO.
 * @return the number of checks that failed.
 */
static unsigned int
fm4_dead_checks(struct fm4_objs *o)
{
	unsigned int bad = 0;

	bad += rte_pmd_mlx4v_modify_qp(o->qp, RTE_PMD_MLX4V_QPS_RTR) == 0;
	bad += rte_pmd_mlx4v_modify_qp(o->qp, RTE_PMD_MLX4V_QPS_RESET) != 0;
	bad += rte_pmd_mlx4v_modify_wq(o->wq, RTE_PMD_MLX4V_WQS_RESET) != 0;
	bad += rte_pmd_mlx4v_modify_wq(o->wq, RTE_PMD_MLX4V_WQS_RDY) == 0;
	bad += rte_pmd_mlx4v_alloc_pd(o->dev) != NULL || rte_errno != EIO;
	return bad;
}

/* Destroy what exists, in reverse. @return the number of destroys that failed. */
static unsigned int
fm4_teardown(struct fm4_objs *o)
{
	unsigned int bad = 0;

	bad += o->wq != NULL && rte_pmd_mlx4v_destroy_wq(o->wq) != 0;
	bad += o->qp != NULL && rte_pmd_mlx4v_destroy_qp(o->qp) != 0;
	bad += o->srq != NULL && rte_pmd_mlx4v_destroy_srq(o->srq) != 0;
	bad += o->cq != NULL && rte_pmd_mlx4v_destroy_cq(o->cq) != 0;
	bad += o->mr != NULL && rte_pmd_mlx4v_dereg_mr(o->mr) != 0;
	bad += o->pd != NULL && rte_pmd_mlx4v_dealloc_pd(o->pd) != 0;
	rte_free(o->buf);
	memset(o, 0, sizeof(*o));
	return bad;
}

static int
fm4_cell(const struct fm4_fault *ft)
{
	struct ut_heap h0, h1;
	struct fm4_objs o;
	struct mlx4v_sim *sim;
	enum fm4_step got;
	unsigned int k, bad = 0;

	memset(&o, 0, sizeof(o));
	ut_heap_get(&h0);
	TEST_ASSERT_SUCCESS(rte_vdev_init(FM4_NAME, FM4_ARGS), "mlx4v_sim");
	sim = mlx4v_sim_get(FM4_NAME);
	o.dev = rte_pmd_mlx4v_dev_open(FM4_NAME);
	TEST_ASSERT(sim != NULL && o.dev != NULL, "open");
	if (!ft->dead)
		TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(sim, ft->knob, 1), "knob %s", ft->knob);
	got = fm4_build(&o);
	if (ft->dead && got == FM4_NB) {
		TEST_ASSERT_SUCCESS(mlx4v_sim_knob_set(sim, ft->knob, 1), "knob %s", ft->knob);
		if (fm4_dead_checks(&o) != 0) {
			FM_BAD("%s: the objects of a dead device did not fail as expected\n",
			       ft->knob);
			bad++;
		}
	}
	if (got != ft->fails) {
		FM_BAD("%s: %s failed (expected: %s)\n", ft->knob,
		       got == FM4_NB ? "nothing" : fm4_step_name[got],
		       ft->fails == FM4_NB ? "nothing" : fm4_step_name[ft->fails]);
		bad++;
	}
	bad += fm4_teardown(&o);
	/* Then the whole chain works on the same device; a dead one opens nothing. */
	o.dev = rte_pmd_mlx4v_dev_open(FM4_NAME);
	if (ft->dead && (o.dev != NULL || rte_errno != EIO)) {
		FM_BAD("%s: a dead device opened a handle (or not with EIO)\n", ft->knob);
		bad++;
	} else if (!ft->dead && (o.dev == NULL || fm4_build(&o) != FM4_NB)) {
		FM_BAD("%s: the device no longer works\n", ft->knob);
		bad++;
	}
	bad += fm4_teardown(&o);
	for (k = 0; k < MLX4V_SIM_OBJ_MAX; k++)
		if (mlx4v_sim_live_objects(sim, k) != 0) {
			FM_BAD("%s: %u objects of kind %u left in the model\n", ft->knob,
			       mlx4v_sim_live_objects(sim, k), k);
			bad++;
		}
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(FM4_NAME), "remove");
	ut_heap_get(&h1);
	if (!ut_heap_same(&h0, &h1)) {
		FM_BAD("%s: EAL memory leaked (%" PRIu64 " -> %" PRIu64 " bytes)\n", ft->knob,
		       h0.bytes, h1.bytes);
		bad++;
	}
	return bad ? TEST_FAILED : TEST_SUCCESS;
}

static int
test_fault_matrix_mlx4v(void)
{
	unsigned int i, failed = 0;

	for (i = 0; i < RTE_DIM(fm4_faults); i++)
		failed += fm4_cell(&fm4_faults[i]) != TEST_SUCCESS;
	TEST_ASSERT_EQUAL(failed, 0, "%u cells of the mlx4v matrix failed", failed);
	return TEST_SUCCESS;
}

/* One probe of each device first: lazily created EAL state is not a leak of a cell. */
static int
fault_matrix_setup(void)
{
	if (rte_vdev_init(VDEV_NAME, FM5_ARGS) != 0 || rte_vdev_uninit(VDEV_NAME) != 0 ||
	    rte_vdev_init(FM4_NAME, FM4_ARGS) != 0 || rte_vdev_uninit(FM4_NAME) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
fault_matrix_teardown(void)
{
	if (fm_failures[0] != '\0')
		fprintf(stderr, "fault matrix: failed cells:\n%s", fm_failures);
}

static struct unit_test_suite fault_matrix_suite = {
	.suite_name = "fault matrix: both simulators' knobs x object families",
	.setup = fault_matrix_setup,
	.teardown = fault_matrix_teardown,
	.unit_test_cases = {
		TEST_CASE(test_fault_matrix_mlx5v),
		TEST_CASE(test_fault_matrix_mlx4v),
		TEST_CASES_END()
	}
};

static int
test_fault_matrix(void)
{
	return unit_test_suite_runner(&fault_matrix_suite);
}

REGISTER_TEST_COMMAND(fault_matrix_autotest, test_fault_matrix);
