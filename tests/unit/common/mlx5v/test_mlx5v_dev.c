/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of mlx5v_dev: bring-up and teardown on the simulator, unwind per step. */

#include <pthread.h>
#include <stdlib.h>

#include "test.h"

#include "ut_mlx5v.h"

#define VDEV_NAME "mlx5v_sim0"

/* Bring-up and teardown through the EAL vdev bus, as an application does. */
static int
test_mlx5v_dev_vdev_up_down(void)
{
	struct ut_heap before, after;
	struct mlx5v_cmd_info info;
	struct mlx5v_dev *dev;
	struct mlx5v_sim *sim;
	int round;

	ut_heap_get(&before);
	for (round = 0; round < 2; round++) {
		TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, "msix=4"), "rte_vdev_init failed");
		dev = mlx5v_dev_get(VDEV_NAME);
		sim = mlx5v_sim_get(VDEV_NAME);
		TEST_ASSERT_NOT_NULL(dev, "no core device registered");
		TEST_ASSERT_NOT_NULL(sim, "no simulator registered");
		TEST_ASSERT_NOT_NULL(mlx5v_eq_async(dev), "no async EQ after bring-up");
		TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(dev, &info), "info");
		TEST_ASSERT_EQUAL(info.events, 1, "command interface not in event mode");
		TEST_ASSERT_EQUAL(info.page_slot, info.nslots - 1, "page slot is not the last");
		TEST_ASSERT(mlx5v_pages_given(dev) > 0, "no firmware pages given");
		TEST_ASSERT_EQUAL(mlx5v_pages_given(dev),
				  (uint64_t)mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_PAGES),
				  "driver and device disagree on the page count");
		TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_EQ), 1u, "EQs");
		TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(sim, MLX5V_SIM_OBJ_UAR), 1u, "UARs");
		TEST_ASSERT_EQUAL(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_IOMMU_FAULTS), 0u,
				  "IOMMU faults during bring-up");
		TEST_ASSERT_EQUAL(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_DB_MISUSE), 0u,
				  "doorbell misuse during bring-up");
		TEST_ASSERT_EQUAL(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_RING_SW_OWNED), 0u,
				  "EQ created with software-owned entries");
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "rte_vdev_uninit failed");
		TEST_ASSERT_NULL(mlx5v_dev_get(VDEV_NAME), "device still registered");
		TEST_ASSERT_NULL(mlx5v_sim_get(VDEV_NAME), "simulator still registered");
	}
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/* Teardown leaves the model empty before it is destroyed. */
static int
test_mlx5v_dev_unload_leaves_nothing(void)
{
	struct ut_heap before, after;
	struct ut_dev u;

	ut_heap_get(&before);
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_unload", 4, 0, NULL), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load");
	mlx5v_dev_unload(u.dev);
	TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "objects left in the device after unload");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_IOMMU_FAULTS), 0u, "IOMMU");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "reload after unload");
	mlx5v_dev_unload(u.dev);
	TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "objects left after the second unload");
	ut_dev_destroy(&u);
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/* Bad devargs and unknown knobs are refused, nothing leaks. */
static int
test_mlx5v_dev_vdev_bad_devargs(void)
{
	struct ut_heap before, after;

	ut_heap_get(&before);
	TEST_ASSERT_FAIL(rte_vdev_init(VDEV_NAME, "msix=abc"), "bad integer accepted");
	TEST_ASSERT_FAIL(rte_vdev_init(VDEV_NAME, "no_such_knob=1"), "unknown key accepted");
	TEST_ASSERT_NULL(mlx5v_dev_get(VDEV_NAME), "device registered after a failed probe");
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/*
 * function=vf: the model is a VF, which firmware refuses ACCESS_REG HOST_ENDIANNESS. The core
 * learns it through the seam (as from the PCI device id) and skips the register, so the
 * bring-up sends no command the VF is refused. function=pf keeps the PF and its register.
 */
static int
test_mlx5v_dev_vdev_vf(void)
{
	struct ut_heap before, after;
	struct mlx5v_dev *dev;
	struct mlx5v_sim *sim;

	ut_heap_get(&before);
	TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, "function=vf"), "VF bring-up failed");
	dev = mlx5v_dev_get(VDEV_NAME);
	sim = mlx5v_sim_get(VDEV_NAME);
	TEST_ASSERT(dev != NULL && sim != NULL, "VF not registered");
	TEST_ASSERT_EQUAL(mlx5v_dev_hw(dev)->is_vf, 1, "the seam does not say VF");
	TEST_ASSERT_EQUAL(mlx5v_dev_hw(dev)->device_id, 0x1018, "not the VF device id");
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_CMD_ERRORS), 0u,
			  "the VF was sent a command it is refused");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "VF uninit");
	TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, "function=pf"), "PF bring-up failed");
	dev = mlx5v_dev_get(VDEV_NAME);
	TEST_ASSERT(dev != NULL, "PF not registered");
	TEST_ASSERT_EQUAL(mlx5v_dev_hw(dev)->is_vf, 0, "the PF is taken for a VF");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "PF uninit");
	TEST_ASSERT_EQUAL(rte_vdev_init(VDEV_NAME, "function=sf"), -EINVAL,
			  "function=sf accepted");
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/*
 * host_page=65536: the model checks UAR addressing as a 64 KiB-page host: log_uar_page_sz 4,
 * and a UAR at BAR0 + index * 4 KiB only with uar_4k, else index * 64 KiB. The core sets
 * uar_4k when the device allows it (the uar_4k knob), else scales the index by the page;
 * either way the bring-up (async EQ doorbells, event-mode commands) works and no doorbell
 * lands off a UAR page. host_page=4096 keeps 4 KiB pages without uar_4k, as Linux does.
 */
static int
test_mlx5v_dev_vdev_host_page(void)
{
	static const struct {
		const char *args;
		uint32_t stride;
	} cases[] = {
		{ "host_page=65536", 4096 },
		{ "host_page=65536,uar_4k=0", 65536 },
		{ "host_page=16384,uar_4k=0", 16384 },
		{ "host_page=4096", 4096 },
	};
	struct mlx5v_cmd_info info;
	struct ut_heap before, after;
	struct mlx5v_dev *dev;
	struct mlx5v_sim *sim;
	uint64_t given, deadline;
	unsigned int i;

	ut_heap_get(&before);
	for (i = 0; i < RTE_DIM(cases); i++) {
		TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, cases[i].args), "\"%s\": bring-up",
				    cases[i].args);
		dev = mlx5v_dev_get(VDEV_NAME);
		sim = mlx5v_sim_get(VDEV_NAME);
		TEST_ASSERT(dev != NULL && sim != NULL, "\"%s\": not registered", cases[i].args);
		TEST_ASSERT_EQUAL(mlx5v_dev_hw(dev)->uar_stride, cases[i].stride,
				  "\"%s\": UAR stride %u", cases[i].args,
				  mlx5v_dev_hw(dev)->uar_stride);
		TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(dev, &info), "info");
		TEST_ASSERT_EQUAL(info.events, 1, "\"%s\": commands not in event mode",
				  cases[i].args);
		/* An event through the async EQ, answered by a command. */
		given = mlx5v_pages_given(dev);
		TEST_ASSERT(mlx5v_sim_request_pages(sim, 2) >= 0, "PAGE_REQUEST");
		deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;
		while (mlx5v_pages_given(dev) != given + 2 && ut_now_ms() < deadline)
			ut_sleep_ms(1);
		TEST_ASSERT_EQUAL(mlx5v_pages_given(dev), given + 2, "\"%s\": pages not given",
				  cases[i].args);
		TEST_ASSERT_EQUAL(mlx5v_sim_counter(sim, MLX5V_SIM_CTR_DB_MISUSE), 0u,
				  "\"%s\": doorbell misuse", cases[i].args);
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "uninit");
	}
	TEST_ASSERT_EQUAL(rte_vdev_init(VDEV_NAME, "host_page=5000"), -EINVAL,
			  "host_page=5000 accepted");
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/* health_strict=<0|1> picks the heartbeat policy: reported (default) or fatal. */
static int
test_mlx5v_dev_vdev_health_strict(void)
{
	struct mlx5v_dev *dev;

	TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, "health_strict=1"), "strict bring-up");
	dev = mlx5v_dev_get(VDEV_NAME);
	TEST_ASSERT(dev != NULL && dev->health_strict == 1, "health_strict=1 not applied");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "uninit");
	TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, "msix=4"), "default bring-up");
	dev = mlx5v_dev_get(VDEV_NAME);
	TEST_ASSERT(dev != NULL && dev->health_strict == 0, "strict by default");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "uninit");
	TEST_ASSERT_EQUAL(rte_vdev_init(VDEV_NAME, "health_strict=2"), -EINVAL,
			  "health_strict=2 accepted");
	return TEST_SUCCESS;
}

/*
 * Knobs that would stall the bring-up inside rte_vdev_init() are refused at once: a command
 * held until release_held (which nobody can call during the probe) and a long delay. The
 * same knobs alone, or a short delay, are accepted. cmd_to_ms keeps a regression short.
 */
static int
test_mlx5v_dev_vdev_stalling_knobs(void)
{
	static const char *const refused[] = {
		"cmd_to_ms=2000,drop_opcode=0xffff,drop_hold=1",
		"cmd_to_ms=2000,drop_opcode=0x104,drop_hold=1",
		"cmd_to_ms=2000,delay_opcode=0xffff,delay_ms=600000",
	};
	static const char *const accepted[] = {
		"cmd_to_ms=2000,drop_hold=1",
		"cmd_to_ms=2000,delay_opcode=0xffff,delay_ms=5",
	};
	struct ut_heap before, after;
	unsigned int i;
	int ret;

	ut_heap_get(&before);
	for (i = 0; i < RTE_DIM(refused); i++) {
		ret = rte_vdev_init(VDEV_NAME, refused[i]);
		if (ret == 0)
			rte_vdev_uninit(VDEV_NAME);
		TEST_ASSERT_EQUAL(ret, -EINVAL, "\"%s\": %d", refused[i], ret);
		TEST_ASSERT_NULL(mlx5v_dev_get(VDEV_NAME), "device left after \"%s\"",
				 refused[i]);
	}
	for (i = 0; i < RTE_DIM(accepted); i++) {
		TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, accepted[i]), "\"%s\"", accepted[i]);
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "uninit");
	}
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/* One bring-up step failing, and what the load must return. */
struct step_fault {
	const char *what;
	uint16_t opcode;    /* 0: no command fault, the knob alone makes the step fail */
	uint8_t status;
	int deliv;          /* 1: inject a delivery error instead of a status */
	int expect;
	int op_mod;         /* status faults: only this op_mod (fail_op_mod); 0 here = any */
	const char *knob;   /* a simulator knob set to 0 for the faulty load, then reset */
};

#define ROCE_CAP_MAX ((MLX5V_CAP_TYPE_ROCE << 1) | MLX5V_CAP_MODE_MAX)
#define ROCE_CAP_CUR ((MLX5V_CAP_TYPE_ROCE << 1) | MLX5V_CAP_MODE_CUR)

static const struct step_fault step_faults[] = {
	{ "ENABLE_HCA", MLX5V_CMD_OP_ENABLE_HCA, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR, 0, -EIO },
	{ "QUERY_ISSI", MLX5V_CMD_OP_QUERY_ISSI, MLX5V_CMD_STAT_BAD_OP_ERR, 0, -EINVAL },
	{ "SET_ISSI", MLX5V_CMD_OP_SET_ISSI, MLX5V_CMD_STAT_BAD_PARAM_ERR, 0, -EINVAL },
	{ "QUERY_PAGES boot", MLX5V_CMD_OP_QUERY_PAGES, MLX5V_CMD_STAT_INT_ERR, 0, -EIO },
	{ "MANAGE_PAGES boot", MLX5V_CMD_OP_MANAGE_PAGES, MLX5V_CMD_STAT_LIM_ERR, 0, -ENOMEM },
	{ "ACCESS_REG", MLX5V_CMD_OP_ACCESS_REG, MLX5V_CMD_STAT_BAD_PARAM_ERR, 0, -EINVAL },
	{ "QUERY_HCA_CAP", MLX5V_CMD_OP_QUERY_HCA_CAP, MLX5V_CMD_STAT_BAD_PARAM_ERR, 0, -EINVAL },
	{ "SET_HCA_CAP", MLX5V_CMD_OP_SET_HCA_CAP, MLX5V_CMD_STAT_BAD_PARAM_ERR, 0, -EINVAL },
	{ "QUERY_HCA_CAP RoCE cur", MLX5V_CMD_OP_QUERY_HCA_CAP, MLX5V_CMD_STAT_BAD_PARAM_ERR, 0,
	  -EINVAL, ROCE_CAP_CUR, NULL },
	{ "QUERY_HCA_CAP RoCE max", MLX5V_CMD_OP_QUERY_HCA_CAP, MLX5V_CMD_STAT_INT_ERR, 0,
	  -EIO, ROCE_CAP_MAX, NULL },
	{ "SET_HCA_CAP RoCE", MLX5V_CMD_OP_SET_HCA_CAP, MLX5V_CMD_STAT_BAD_PARAM_ERR, 0,
	  -EINVAL, MLX5V_SET_HCA_CAP_OP_MOD_ROCE, NULL },
	{ "umem_uid_0 = 0", 0, 0, 0, -EOPNOTSUPP, 0, "umem_uid_0" },
	{ "INIT_HCA", MLX5V_CMD_OP_INIT_HCA, MLX5V_CMD_STAT_NOT_READY, 0, -EAGAIN },
	{ "MODIFY_NIC_VPORT_CONTEXT", MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT,
	  MLX5V_CMD_STAT_BAD_PARAM_ERR, 0, -EINVAL },
	{ "ALLOC_UAR", MLX5V_CMD_OP_ALLOC_UAR, MLX5V_CMD_STAT_LIM_ERR, 0, -ENOMEM },
	{ "CREATE_EQ", MLX5V_CMD_OP_CREATE_EQ, MLX5V_CMD_STAT_LIM_ERR, 0, -ENOMEM },
	{ "ENABLE_HCA delivery", MLX5V_CMD_OP_ENABLE_HCA, MLX5V_CMD_DELIV_FW_ERR, 1, -EIO },
	{ "INIT_HCA delivery", MLX5V_CMD_OP_INIT_HCA, MLX5V_CMD_DELIV_TOK_ERR, 1, -EBADR },
	{ "MODIFY_NIC_VPORT_CONTEXT delivery", MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT,
	  MLX5V_CMD_DELIV_FW_ERR, 1, -EIO },
	{ "CREATE_EQ delivery", MLX5V_CMD_OP_CREATE_EQ, MLX5V_CMD_DELIV_IN_LENGTH_ERR, 1,
	  -ENOMSG },
};

static int
run_step_fault(const struct step_fault *f)
{
	struct ut_heap before, after;
	struct ut_dev u;
	int ret;

	ut_heap_get(&before);
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_fault", 4, 0, NULL), "create");
	ret = 0;
	if (f->knob != NULL)
		ret = mlx5v_sim_knob_set(u.sim, f->knob, 0);
	if (ret == 0 && f->op_mod != 0)
		ret = mlx5v_sim_knob_set(u.sim, "fail_op_mod", f->op_mod);
	if (ret == 0 && f->opcode != 0 && f->deliv)
		ret = mlx5v_sim_fail_next_delivery(u.sim, f->opcode, f->status);
	else if (ret == 0 && f->opcode != 0)
		ret = mlx5v_sim_fail_next_cmd(u.sim, f->opcode, f->status, 0x5eed0000 | f->opcode);
	TEST_ASSERT_SUCCESS(ret, "cannot arm the fault for %s", f->what);
	ret = mlx5v_dev_load(u.dev);
	TEST_ASSERT_EQUAL(ret, f->expect, "%s: load returned %d, expected %d", f->what, ret,
			  f->expect);
	if (f->knob != NULL)
		TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(u.sim, f->knob, 1), "knob reset");
	TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "%s: unwind left objects in the device",
			    f->what);
	TEST_ASSERT_EQUAL(mlx5v_pages_given(u.dev), 0u, "%s: pages still given", f->what);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_IOMMU_FAULTS), 0u,
			  "%s: IOMMU faults", f->what);
	/* The device must still be usable: the same function loads cleanly afterwards. */
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "%s: reload after the fault", f->what);
	mlx5v_dev_unload(u.dev);
	TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "%s: objects left after reload", f->what);
	ut_dev_destroy(&u);
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "%s: EAL memory leaked", f->what);
	return TEST_SUCCESS;
}

/* Every bring-up command failing once, each unwinding to an empty device. */
static int
test_mlx5v_dev_bringup_step_faults(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(step_faults); i++) {
		printf("  bring-up fault: %s\n", step_faults[i].what);
		if (run_step_fault(&step_faults[i]) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/*
 * The second instance of a repeated opcode (cap cur, QUERY_PAGES/MANAGE_PAGES init). The
 * simulator's fault knobs hit the next command of an opcode, so a helper thread arms the
 * fault once the first instance has run, while the load is parked on a delayed command.
 */
struct late_fault {
	const char *what;
	uint16_t opcode;       /* fails on its second instance */
	uint8_t status;
	int expect;
	uint16_t anchor;       /* arm once a command of this opcode completed... */
	int wait_busy;         /* ...and the next command is in flight */
	uint16_t delay_op;     /* parks the load meanwhile */
};

struct late_arg {
	const struct late_fault *f;
	struct ut_dev *u;
	int armed;
};

static void *
late_fault_thread(void *arg)
{
	struct late_arg *a = arg;
	struct mlx5v_cmd_stats st;
	struct mlx5v_cmd_info info;
	uint64_t deadline = ut_now_ms() + UT_WAIT_LIMIT_MS;

	for (;;) {
		if (ut_now_ms() > deadline)
			return NULL;
		if (mlx5v_cmd_stats_get(a->u->dev, a->f->anchor, &st) == 0 && st.n >= 1)
			break;
		ut_sleep_ms(1);
	}
	if (a->f->wait_busy) {
		for (;;) {
			if (ut_now_ms() > deadline)
				return NULL;
			if (mlx5v_cmd_info_get(a->u->dev, &info) == 0 && info.busy_mask != 0)
				break;
		}
		/* The device picks the doorbell up within its idle period (< 1 ms). */
		ut_sleep_ms(20);
	}
	a->armed = mlx5v_sim_fail_next_cmd(a->u->sim, a->f->opcode, a->f->status,
					   0x5eed0000 | a->f->opcode) == 0;
	return NULL;
}

static int
run_late_fault(const struct late_fault *f)
{
	struct ut_heap before, after;
	struct late_arg a;
	struct ut_dev u;
	pthread_t tid;
	int ret;

	ut_heap_get(&before);
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_late", 4, 0, NULL), "create");
	memset(&a, 0, sizeof(a));
	a.f = f;
	a.u = &u;
	TEST_ASSERT_SUCCESS(mlx5v_sim_delay_next_cmd(u.sim, f->delay_op, 300), "delay knob");
	TEST_ASSERT_SUCCESS(pthread_create(&tid, NULL, late_fault_thread, &a), "thread");
	ret = mlx5v_dev_load(u.dev);
	pthread_join(tid, NULL);
	TEST_ASSERT(a.armed, "%s: the fault was never armed", f->what);
	TEST_ASSERT_EQUAL(ret, f->expect, "%s: load returned %d, expected %d", f->what, ret,
			  f->expect);
	TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "%s: unwind left objects in the device",
			    f->what);
	TEST_ASSERT_EQUAL(mlx5v_pages_given(u.dev), 0u, "%s: pages still given", f->what);
	ut_dev_destroy(&u);
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "%s: EAL memory leaked", f->what);
	return TEST_SUCCESS;
}

static int
test_mlx5v_dev_bringup_init_stage_faults(void)
{
	static const struct late_fault late[] = {
		{ "QUERY_HCA_CAP cur", MLX5V_CMD_OP_QUERY_HCA_CAP, MLX5V_CMD_STAT_INT_ERR, -EIO,
		  MLX5V_CMD_OP_ACCESS_REG, 1, MLX5V_CMD_OP_QUERY_HCA_CAP },
		{ "QUERY_PAGES init", MLX5V_CMD_OP_QUERY_PAGES, MLX5V_CMD_STAT_INT_ERR, -EIO,
		  MLX5V_CMD_OP_QUERY_PAGES, 0, MLX5V_CMD_OP_SET_HCA_CAP },
		{ "MANAGE_PAGES init", MLX5V_CMD_OP_MANAGE_PAGES, MLX5V_CMD_STAT_LIM_ERR, -ENOMEM,
		  MLX5V_CMD_OP_MANAGE_PAGES, 0, MLX5V_CMD_OP_SET_HCA_CAP },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(late); i++) {
		printf("  bring-up fault: %s\n", late[i].what);
		if (run_late_fault(&late[i]) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

static int
query_roce_cur(struct mlx5v_dev *dev, uint32_t *src_udp_port)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t *out;
	int ret;

	out = calloc(1, MLX5V_IFC_BYTES(query_hca_cap_out));
	if (out == NULL)
		return -ENOMEM;
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(query_hca_cap_in, in, opcode, MLX5V_CMD_OP_QUERY_HCA_CAP);
	MLX5V_IFC_SET(query_hca_cap_in, in, op_mod, ROCE_CAP_CUR);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, MLX5V_IFC_BYTES(query_hca_cap_out));
	*src_udp_port = MLX5V_IFC_GET(roce_cap,
				      MLX5V_IFC_ADDR_OF(query_hca_cap_out, out, capability),
				      sw_r_roce_src_udp_port);
	free(out);
	return ret;
}

/* @return the number of commands of opcode the device completed since the load began. */
static uint64_t
cmd_count(struct mlx5v_dev *dev, uint16_t opcode)
{
	struct mlx5v_cmd_stats st;

	if (mlx5v_cmd_stats_get(dev, opcode, &st) != 0)
		return UINT64_MAX;
	return st.n;
}

/*
 * prm/mlx5 §2.1 steps 14 and 18. With the roce cap: RoCE cur and max queried, SET_HCA_CAP op_mod
 * 0x8 sets sw_r_roce_src_udp_port, which the device then reports; a reload finds it set
 * and does not set it again. On an Ethernet port, one MODIFY_NIC_VPORT_CONTEXT. Without
 * the roce cap and on an IB port, none of these commands.
 */
static int
test_mlx5v_dev_bringup_roce_vport(void)
{
	struct ut_heap before, after;
	struct ut_dev u;
	uint32_t bit = 0;

	ut_heap_get(&before);
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_roce", 4, 0, NULL), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load");
	TEST_ASSERT_EQUAL(cmd_count(u.dev, MLX5V_CMD_OP_QUERY_HCA_CAP), 4u, "cap queries");
	TEST_ASSERT_EQUAL(cmd_count(u.dev, MLX5V_CMD_OP_SET_HCA_CAP), 2u, "general + RoCE set");
	TEST_ASSERT_EQUAL(cmd_count(u.dev, MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT), 1u,
			  "roce_en on the Ethernet vport");
	TEST_ASSERT_SUCCESS(query_roce_cur(u.dev, &bit), "RoCE cur query");
	TEST_ASSERT_EQUAL(bit, 1u, "sw_r_roce_src_udp_port not set in the device");
	mlx5v_dev_unload(u.dev);
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "reload");
	TEST_ASSERT_EQUAL(cmd_count(u.dev, MLX5V_CMD_OP_QUERY_HCA_CAP), 4u, "cap queries");
	TEST_ASSERT_EQUAL(cmd_count(u.dev, MLX5V_CMD_OP_SET_HCA_CAP), 1u,
			  "RoCE cap set again although cur already has it");
	mlx5v_dev_unload(u.dev);
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(u.sim, "roce", 0), "knob");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(u.sim, "port_type", MLX5V_CAP_PORT_TYPE_IB),
			    "knob");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load without roce, IB port");
	TEST_ASSERT_EQUAL(cmd_count(u.dev, MLX5V_CMD_OP_QUERY_HCA_CAP), 2u,
			  "RoCE caps queried without the roce cap");
	TEST_ASSERT_EQUAL(cmd_count(u.dev, MLX5V_CMD_OP_SET_HCA_CAP), 1u, "cap sets");
	TEST_ASSERT_EQUAL(cmd_count(u.dev, MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT), 0u,
			  "vport modified on an IB port");
	mlx5v_dev_unload(u.dev);
	TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "objects left");
	ut_dev_destroy(&u);
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/*
 * cmd_sig=1 through the vdev: the commands up to SET_HCA_CAP go unsigned, as the device
 * neither checks nor signs before cmdif_checksum is set (it leaves a wrong signature byte);
 * every command after it is signed both ways and every device signature verifies. A bad
 * output signature on a later bring-up command fails the probe with nothing left behind.
 */
static int
test_mlx5v_dev_vdev_signed(void)
{
	struct ut_heap before, after;
	struct mlx5v_cmd_info info;
	struct mlx5v_dev *dev;
	char args[128];

	ut_heap_get(&before);
	TEST_ASSERT_SUCCESS(rte_vdev_init(VDEV_NAME, "msix=4,cmd_sig=1"), "signed bring-up");
	dev = mlx5v_dev_get(VDEV_NAME);
	TEST_ASSERT_NOT_NULL(dev, "no core device registered");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(dev, &info), "info");
	TEST_ASSERT_EQUAL(info.checksum, 1, "signatures not on");
	TEST_ASSERT_EQUAL(info.bad_out_sigs, 0u, "bad signatures during a clean bring-up");
	TEST_ASSERT(MLX5V_IFC_GET(cmd_hca_cap, dev->hca_cap_cur, cmdif_checksum) != 0,
		    "cmdif_checksum not set by SET_HCA_CAP");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(VDEV_NAME), "rte_vdev_uninit failed");
	snprintf(args, sizeof(args), "msix=4,cmd_sig=1,bad_out_sig_opcode=%d,bad_out_sig_block=1",
		 MLX5V_CMD_OP_QUERY_HCA_CAP);
	TEST_ASSERT_FAIL(rte_vdev_init(VDEV_NAME, args), "bad output signature accepted");
	TEST_ASSERT_NULL(mlx5v_dev_get(VDEV_NAME), "device registered after a failed probe");
	snprintf(args, sizeof(args), "msix=4,cmd_sig=1,bad_out_sig_opcode=%d",
		 MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT);
	TEST_ASSERT_FAIL(rte_vdev_init(VDEV_NAME, args), "bad entry signature accepted");
	TEST_ASSERT_NULL(mlx5v_dev_get(VDEV_NAME), "device registered after a failed probe");
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/*
 * A bad output signature (signatures on) on a bring-up command: the load fails with
 * -EBADR (SIGNAT_ERR) and unwinds to an empty device, as for any other step failure.
 * The device did run the command, so only commands whose effect the ladder undoes
 * anyway (queries, SET_HCA_CAP, MODIFY_NIC_VPORT_CONTEXT before TEARDOWN_HCA) can be
 * checked for a clean unwind; see the signatures paragraph of doc/guides/platform/mlx5v.rst.
 */
static int
test_mlx5v_dev_bringup_bad_signature(void)
{
	static const struct {
		const char *what;
		uint16_t opcode;
		int block;
	} cases[] = {
		{ "QUERY_PAGES entry", MLX5V_CMD_OP_QUERY_PAGES, 0 },
		{ "QUERY_HCA_CAP output block", MLX5V_CMD_OP_QUERY_HCA_CAP, 1 },
		{ "SET_HCA_CAP entry", MLX5V_CMD_OP_SET_HCA_CAP, 0 },
		{ "MODIFY_NIC_VPORT_CONTEXT entry", MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT, 0 },
	};
	struct mlx5v_dev_params dp;
	struct ut_heap before, after;
	struct ut_dev u;
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(cases); i++) {
		printf("  bring-up fault: bad signature, %s\n", cases[i].what);
		ut_heap_get(&before);
		ut_dev_params(&dp);
		dp.cmd_sig = 1;
		TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_sig", 4, 0, &dp), "create");
		TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(u.sim, "bad_out_sig_block",
						       cases[i].block), "knob");
		TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(u.sim, "bad_out_sig_opcode",
						       cases[i].opcode), "knob");
		ret = mlx5v_dev_load(u.dev);
		TEST_ASSERT_EQUAL(ret, -EBADR, "%s: load returned %d", cases[i].what, ret);
		TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "%s: unwind left objects in the device",
				    cases[i].what);
		TEST_ASSERT_EQUAL(mlx5v_pages_given(u.dev), 0u, "%s: pages still given",
				  cases[i].what);
		TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "%s: signed reload", cases[i].what);
		mlx5v_dev_unload(u.dev);
		TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "%s: objects left after reload",
				    cases[i].what);
		ut_dev_destroy(&u);
		ut_heap_get(&after);
		TEST_ASSERT(ut_heap_same(&before, &after), "%s: EAL memory leaked", cases[i].what);
	}
	return TEST_SUCCESS;
}

/*
 * The device checks signatures only once SET_HCA_CAP set cmdif_checksum, and from then on
 * refuses an unsigned command (delivery SIGNAT_ERR); DISABLE_HCA turns them off again, so
 * an unsigned bring-up follows a signed one.
 */
static int
test_mlx5v_dev_sig_after_cmdif_checksum(void)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE], out[MLX5V_IFC_BYTES(query_issi_out)];
	struct mlx5v_dev_params dp;
	struct mlx5v_cmd_info info;
	struct ut_dev u;
	int ret;

	ut_dev_params(&dp);
	dp.cmd_sig = 1;
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_sig_on", 4, 0, &dp), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "signed load");
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_exec(u.dev, in, sizeof(in), out, sizeof(out)), "signed");
	mlx5v_cmd_checksum_enable(u.dev, 0);
	/* An unsigned entry XORs to a valid signature once in 256 tokens: two tries. */
	ret = mlx5v_cmd_exec(u.dev, in, sizeof(in), out, sizeof(out));
	if (ret == 0)
		ret = mlx5v_cmd_exec(u.dev, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_EQUAL(ret, -EBADR, "an unsigned command after cmdif_checksum: %d", ret);
	mlx5v_cmd_checksum_enable(u.dev, 1);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_exec(u.dev, in, sizeof(in), out, sizeof(out)), "signed");
	mlx5v_dev_unload(u.dev);
	TEST_ASSERT_SUCCESS(mlx5v_cmd_info_get(u.dev, &info), "info");
	TEST_ASSERT_EQUAL(info.checksum, 0, "signatures still on after DISABLE_HCA");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "signed reload");
	mlx5v_dev_unload(u.dev);
	ut_dev_destroy(&u);
	dp.cmd_sig = 0;
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_sig_off", 4, 0, &dp), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "unsigned load");
	TEST_ASSERT_SUCCESS(mlx5v_cmd_exec(u.dev, in, sizeof(in), out, sizeof(out)), "unsigned");
	mlx5v_dev_unload(u.dev);
	ut_dev_destroy(&u);
	return TEST_SUCCESS;
}

/* Firmware that never leaves "initializing" within the pre-init timeout. */
static int
test_mlx5v_dev_bringup_fw_init_timeout(void)
{
	struct mlx5v_dev_params dp;
	struct ut_heap before, after;
	struct ut_dev u;

	ut_heap_get(&before);
	ut_dev_params(&dp);
	dp.tout_ms[MLX5V_TO_FW_PRE_INIT] = 20;
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_boot", 4, 2000, &dp), "create");
	TEST_ASSERT_EQUAL(mlx5v_dev_load(u.dev), -EBUSY, "load must time out with -EBUSY");
	TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "objects left after the boot timeout");
	ut_dev_destroy(&u);
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/* A slow boot within the timeout is waited for. */
static int
test_mlx5v_dev_bringup_slow_boot(void)
{
	struct ut_dev u;

	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_slow", 4, 50, NULL), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load with a 50 ms boot");
	mlx5v_dev_unload(u.dev);
	TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "objects left");
	ut_dev_destroy(&u);
	return TEST_SUCCESS;
}

/* A bring-up fault through the vdev path: rte_vdev_init fails and nothing leaks. */
static int
test_mlx5v_dev_vdev_fault_knob(void)
{
	struct ut_heap before, after;
	char args[128];

	ut_heap_get(&before);
	snprintf(args, sizeof(args), "msix=4,fail_opcode=%d,fail_status=%d",
		 MLX5V_CMD_OP_INIT_HCA, MLX5V_CMD_STAT_INT_ERR);
	TEST_ASSERT_FAIL(rte_vdev_init(VDEV_NAME, args), "INIT_HCA fault did not fail probe");
	TEST_ASSERT_NULL(mlx5v_dev_get(VDEV_NAME), "device registered after a failed probe");
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/*
 * Faults below the command layer, through the seam: a backend whose N-th DMA mapping
 * fails, whose MSI-X attach fails, or whose init segment reports a bad command-interface
 * revision or queue geometry. Every other operation goes to the simulator.
 */
static struct mlx5v_hw_ops g_fault_ops;
static int g_map_fail_at;
static int g_map_calls;
static int g_maps_at_load;
static int g_irq_fail;
static int g_bad_rev;
static int g_bad_geometry;

static int
fault_dma_map(struct mlx5v_hw *hw, void *va, size_t len, uint64_t *iova)
{
	if (++g_map_calls == g_map_fail_at)
		return -EFAULT;
	return mlx5v_sim_hw_ops.dma_map(hw, va, len, iova);
}

static int
fault_irq_set(struct mlx5v_hw *hw, unsigned int start, unsigned int count, const int *fds)
{
	if (g_irq_fail && count > 0 && fds[count - 1] >= 0)
		return -EIO;
	return mlx5v_sim_hw_ops.irq_set(hw, start, count, fds);
}

static uint32_t
fault_rd32(struct mlx5v_hw *hw, uint32_t off)
{
	uint32_t v = mlx5v_sim_hw_ops.reg_rd32(hw, off);

	if (g_bad_rev && off == MLX5V_ISEG_CMDIF_REV_FW_SUB)
		v = (4u << 16) | (v & 0xffff);
	if (g_bad_geometry && off == MLX5V_ISEG_CMDQ_ADDR_L_SZ)
		v = (v & ~0xffu) | (6u << 4) | 7u;   /* 64 slots of 128 bytes: too big */
	return v;
}

static int
run_seam_fault(const char *what, int expect)
{
	struct ut_heap before, after;
	struct ut_dev u;
	int ret;

	ut_heap_get(&before);
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_seam", 4, 0, NULL), "create");
	g_fault_ops = mlx5v_sim_hw_ops;
	g_fault_ops.dma_map = fault_dma_map;
	g_fault_ops.irq_set = fault_irq_set;
	g_fault_ops.reg_rd32 = fault_rd32;
	mlx5v_dev_hw(u.dev)->ops = &g_fault_ops;   /* the device uses its own copy */
	g_map_calls = 0;
	ret = mlx5v_dev_load(u.dev);
	g_maps_at_load = g_map_calls;
	if (expect == 0 && ret == 0) {
		mlx5v_dev_unload(u.dev);
	} else {
		TEST_ASSERT_EQUAL(ret, expect, "%s: load returned %d, expected %d", what, ret,
				  expect);
	}
	TEST_ASSERT_SUCCESS(ut_sim_clean(u.sim), "%s: objects left in the device", what);
	TEST_ASSERT_EQUAL(mlx5v_sim_counter(u.sim, MLX5V_SIM_CTR_IOMMU_FAULTS), 0u,
			  "%s: IOMMU faults", what);
	ut_dev_destroy(&u);
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "%s: EAL memory leaked", what);
	return TEST_SUCCESS;
}

/* Each DMA mapping of bring-up failing in turn: queue, mailboxes, pages, EQ ring. */
static int
test_mlx5v_dev_bringup_dma_map_faults(void)
{
	int n, maps;
	char what[64];

	/* A clean load counts the mappings bring-up makes. */
	g_map_fail_at = 0;
	if (run_seam_fault("count", 0) != TEST_SUCCESS)
		return TEST_FAILED;
	maps = g_maps_at_load;
	TEST_ASSERT(maps >= 4, "bring-up made only %d DMA mappings", maps);
	for (n = 1; n <= maps; n++) {
		snprintf(what, sizeof(what), "DMA mapping %d of %d", n, maps);
		g_map_fail_at = n;
		if (run_seam_fault(what, -EFAULT) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	g_map_fail_at = 0;
	return TEST_SUCCESS;
}

static int
test_mlx5v_dev_bringup_msix_attach_fault(void)
{
	int ret;

	g_irq_fail = 1;
	ret = run_seam_fault("MSI-X vector 0 attach", -EIO);
	g_irq_fail = 0;
	return ret;
}

static int
test_mlx5v_dev_bringup_bad_init_segment(void)
{
	int ret;

	g_bad_rev = 1;
	ret = run_seam_fault("command interface revision 4", -EINVAL);
	g_bad_rev = 0;
	if (ret != TEST_SUCCESS)
		return ret;
	g_bad_geometry = 1;
	ret = run_seam_fault("queue geometry beyond one page", -EINVAL);
	g_bad_geometry = 0;
	return ret;
}

/* Fast unload: TEARDOWN_HCA profile 2, nic_interface DISABLED, the rest completes locally. */
static int
test_mlx5v_dev_fast_unload(void)
{
	struct mlx5v_dev_params dp;
	struct ut_heap before, after;
	struct ut_dev u;
	uint32_t v;

	ut_heap_get(&before);
	ut_dev_params(&dp);
	dp.fast_teardown = 1;
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_fast", 4, 0, &dp), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load");
	mlx5v_dev_unload(u.dev);
	v = u.hw.ops->reg_rd32(&u.hw, MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	TEST_ASSERT_EQUAL((v >> MLX5V_NIC_IF_SHIFT) & MLX5V_NIC_IF_MASK,
			  (uint32_t)MLX5V_NIC_IF_DISABLED, "nic_interface not DISABLED");
	ut_dev_destroy(&u);
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&before, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

/*
 * The function leaves the bus during the fast teardown (teardown_offline): the poll for
 * nic_interface DISABLED stops at the first all-ones read and the device is dead, so the
 * rest of unload completes locally instead of timing out command after command.
 */
static int
test_mlx5v_dev_fast_unload_offline(void)
{
	struct mlx5v_dev_params dp;
	struct ut_dev u;
	int dead;

	ut_dev_params(&dp);
	dp.fast_teardown = 1;
	TEST_ASSERT_SUCCESS(ut_dev_create(&u, "ut_dev_fast_off", 4, 0, &dp), "create");
	TEST_ASSERT_SUCCESS(mlx5v_dev_load(u.dev), "load");
	TEST_ASSERT_SUCCESS(mlx5v_sim_knob_set(u.sim, "teardown_offline", 1), "knob");
	mlx5v_dev_unload(u.dev);
	dead = mlx5v_dev_is_dead(u.dev);
	ut_dev_destroy(&u);
	TEST_ASSERT_EQUAL(dead, MLX5V_DEAD_PCI_COMM_ERR, "dead reason %d after all-ones reads",
			  dead);
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_dev_suite = {
	.suite_name = "mlx5v_dev",
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_dev_vdev_up_down),
		TEST_CASE(test_mlx5v_dev_unload_leaves_nothing),
		TEST_CASE(test_mlx5v_dev_vdev_bad_devargs),
		TEST_CASE(test_mlx5v_dev_vdev_vf),
		TEST_CASE(test_mlx5v_dev_vdev_health_strict),
		TEST_CASE(test_mlx5v_dev_vdev_host_page),
		TEST_CASE(test_mlx5v_dev_vdev_stalling_knobs),
		TEST_CASE(test_mlx5v_dev_bringup_step_faults),
		TEST_CASE(test_mlx5v_dev_bringup_init_stage_faults),
		TEST_CASE(test_mlx5v_dev_bringup_roce_vport),
		TEST_CASE(test_mlx5v_dev_vdev_signed),
		TEST_CASE(test_mlx5v_dev_bringup_bad_signature),
		TEST_CASE(test_mlx5v_dev_sig_after_cmdif_checksum),
		TEST_CASE(test_mlx5v_dev_bringup_fw_init_timeout),
		TEST_CASE(test_mlx5v_dev_bringup_slow_boot),
		TEST_CASE(test_mlx5v_dev_vdev_fault_knob),
		TEST_CASE(test_mlx5v_dev_bringup_dma_map_faults),
		TEST_CASE(test_mlx5v_dev_bringup_msix_attach_fault),
		TEST_CASE(test_mlx5v_dev_bringup_bad_init_segment),
		TEST_CASE(test_mlx5v_dev_fast_unload),
		TEST_CASE(test_mlx5v_dev_fast_unload_offline),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_dev(void)
{
	return unit_test_suite_runner(&mlx5v_dev_suite);
}

REGISTER_TEST_COMMAND(mlx5v_dev_autotest, test_mlx5v_dev);
