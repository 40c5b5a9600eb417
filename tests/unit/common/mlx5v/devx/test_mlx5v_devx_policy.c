/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The raw command policy of rte_pmd_mlx5v_devx_general_cmd(): function management refused,
 * the driver's objects out of reach, port commands only without a net class, the caller's own
 * objects usable to the end. The fixture device has the net class (the net PMD is linked in);
 * a second device has class=none.
 */

#include <errno.h>
#include <string.h>

#include <rte_bus_vdev.h>

#include "test.h"

#include "mlx5v_class.h"
#include "mlx5v_ifc.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_cmd.h"
#include "mlx5v_prm_eq.h"
#include "mlx5v_prm_eth.h"
#include "ut_mlx5v_devx.h"

#define NONE_NAME "mlx5v_sim9"

static struct rte_pmd_mlx5v_dev *g_none;

/* A command with a zeroed inbox of inlen bytes but for the opcode and an optional id. */
static int
raw(struct rte_pmd_mlx5v_dev *dev, uint16_t opcode, uint16_t op_mod, uint32_t obj,
    size_t inlen, uint8_t *out, size_t outlen)
{
	uint8_t in[0x200];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(eth_obj_in, in, opcode, opcode);
	MLX5V_IFC_SET(eth_obj_in, in, op_mod, op_mod);
	MLX5V_IFC_SET(eth_obj_in, in, obj_id, obj);
	memset(out, 0xee, outlen);
	return rte_pmd_mlx5v_devx_general_cmd(dev, in, inlen, out, outlen);
}

/* The device still answers commands: QUERY_HCA_CAP of the general caps. */
static int
device_works(struct rte_pmd_mlx5v_dev *dev)
{
	uint8_t out[MLX5V_IFC_BYTES(query_hca_cap_out)];

	return raw(dev, MLX5V_CMD_OP_QUERY_HCA_CAP, 1, 0, 0x10, out, sizeof(out));
}

static int
policy_setup(void)
{
	if (ut_devx_setup() != TEST_SUCCESS)
		return TEST_FAILED;
	if (rte_vdev_init(NONE_NAME, "class=none,msix=4") != 0)
		return TEST_FAILED;
	g_none = rte_pmd_mlx5v_dev_get(NONE_NAME);
	return g_none != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
policy_teardown(void)
{
	rte_vdev_uninit(NONE_NAME);
	ut_devx_teardown();
}

/* Function management is the driver's: EPERM on any device, out untouched, nothing sent. */
static int
test_mlx5v_devx_policy_function_cmds(void)
{
	static const uint16_t ops[] = {
		MLX5V_CMD_OP_TEARDOWN_HCA, MLX5V_CMD_OP_MANAGE_PAGES, MLX5V_CMD_OP_QUERY_PAGES,
		MLX5V_CMD_OP_ENABLE_HCA, MLX5V_CMD_OP_DISABLE_HCA, MLX5V_CMD_OP_INIT_HCA,
		MLX5V_CMD_OP_SET_HCA_CAP, MLX5V_CMD_OP_SET_ISSI, 0x10d /* SET_DRIVER_VERSION */,
		MLX5V_CMD_OP_ALLOC_UAR, MLX5V_CMD_OP_DEALLOC_UAR, MLX5V_CMD_OP_CREATE_QP, 0x7ff,
	};
	struct rte_pmd_mlx5v_dev *devs[] = { g_dev, g_none };
	uint64_t pages = mlx5v_pages_given((struct mlx5v_dev *)g_dev);
	uint8_t out[0x40];
	unsigned int i, d;

	for (d = 0; d < RTE_DIM(devs); d++) {
		for (i = 0; i < RTE_DIM(ops); i++) {
			errno = 0;
			TEST_ASSERT_EQUAL(raw(devs[d], ops[i], 0, 0, 0x40, out, sizeof(out)), EPERM,
					  "device %u: opcode 0x%x not refused", d, ops[i]);
			TEST_ASSERT_EQUAL(errno, EPERM, "errno");
			TEST_ASSERT_EQUAL(out[0], 0xee, "opcode 0x%x: out written", ops[i]);
		}
		TEST_ASSERT_SUCCESS(device_works(devs[d]), "device %u no longer answers", d);
	}
	TEST_ASSERT_EQUAL(mlx5v_pages_given((struct mlx5v_dev *)g_dev), pages, "pages moved");
	return TEST_SUCCESS;
}

/* The async EQ: queryable (query_eqn hands it out), never destroyed or fed events. */
static int
test_mlx5v_devx_policy_async_eq(void)
{
	uint8_t out[0x120];
	struct rte_pmd_mlx5v_msi_vector *m;
	struct rte_pmd_mlx5v_eq *eq;
	unsigned int eqs = ut_live_eqs();
	uint32_t async, eqn;

	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_query_eqn(g_dev, 0, &async), "query_eqn");
	TEST_ASSERT_EQUAL(raw(g_dev, MLX5V_CMD_OP_DESTROY_EQ, 0, async, 0x10, out, 0x10), EPERM,
			  "DESTROY_EQ of the async EQ");
	TEST_ASSERT_EQUAL(raw(g_dev, MLX5V_CMD_OP_GEN_EQE, 0, async, 0x50, out, 0x10), EPERM,
			  "GEN_EQE into the async EQ");
	TEST_ASSERT_EQUAL(ut_live_eqs(), eqs, "an EQ went away");
	TEST_ASSERT_SUCCESS(ut_eq_query(async, out, sizeof(out)), "QUERY_EQ of the async EQ");
	/* Commands complete through the async EQ: the device still works. */
	TEST_ASSERT_SUCCESS(device_works(g_dev), "commands after the refused destroy");
	m = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	TEST_ASSERT_NOT_NULL(m, "msi");
	eq = ut_eq_create(4, m->vector, 0, &eqn);
	TEST_ASSERT_NOT_NULL(eq, "create_eq");
	/* The caller's EQ of the DEVX API: events may be generated, not destroyed raw. */
	TEST_ASSERT_SUCCESS(ut_gen_eqe(eqn, RTE_PMD_MLX5V_EVENT_GENERAL_EVENT, 0, 1), "GEN_EQE");
	TEST_ASSERT_EQUAL(raw(g_dev, MLX5V_CMD_OP_DESTROY_EQ, 0, eqn, 0x10, out, 0x10), EPERM,
			  "DESTROY_EQ of a create_eq() EQ");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_destroy_eq(eq), "destroy_eq");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(m), "free msi");
	return TEST_SUCCESS;
}

/* A CQ of the driver (mlx5v_devx_cq_create(), as the net PMD's queues): out of reach. */
static int
test_mlx5v_devx_policy_driver_cq(void)
{
	unsigned int cqs = mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ);
	struct mlx5v_devx_cq *cq;
	uint8_t out[0x120];
	uint32_t async;

	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_query_eqn(g_dev, 0, &async), "query_eqn");
	cq = mlx5v_devx_cq_create((struct mlx5v_dev *)g_dev, 4, async, g_uar);
	TEST_ASSERT_NOT_NULL(cq, "driver CQ");
	TEST_ASSERT_EQUAL(raw(g_dev, MLX5V_CMD_OP_QUERY_CQ, 0, cq->cqn, 0x10, out, sizeof(out)),
			  EPERM, "QUERY_CQ of a driver CQ");
	TEST_ASSERT_EQUAL(raw(g_dev, MLX5V_CMD_OP_DESTROY_CQ, 0, cq->cqn, 0x10, out, 0x10),
			  EPERM, "DESTROY_CQ of a driver CQ");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ), cqs + 1,
			  "the driver CQ is gone");
	TEST_ASSERT_SUCCESS(mlx5v_devx_cq_destroy(cq), "driver destroy");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(g_sim, MLX5V_SIM_OBJ_CQ), cqs, "CQ leaked");
	return TEST_SUCCESS;
}

/* Port and vport commands: refused under the net class, allowed on class=none. */
static int
test_mlx5v_devx_policy_port(void)
{
	const char *names[MLX5V_CLASS_MAX];
	uint8_t out[0x40];
	int n, i, net = 0;

	n = mlx5v_class_dev_classes(VDEV_NAME, names, RTE_DIM(names));
	for (i = 0; i < n; i++)
		net |= strcmp(names[i], "net") == 0;
	TEST_ASSERT(net, "the fixture device has no net class");
	TEST_ASSERT_EQUAL(raw(g_dev, MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT, 0, 0,
			      MLX5V_IFC_BYTES(modify_nic_vport_context_in), out, 0x10), EPERM,
			  "MODIFY_NIC_VPORT_CONTEXT under the net class");
	TEST_ASSERT_EQUAL(raw(g_dev, MLX5V_CMD_OP_ACCESS_REG, MLX5V_ACCESS_REG_WRITE,
			      MLX5V_REG_PAOS, 0x20, out, 0x20), EPERM, "PAOS write under net");
	TEST_ASSERT_EQUAL(raw(g_dev, MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT, 0, 0,
			      MLX5V_IFC_BYTES(flow_table_obj_in), out, 0x10), EPERM,
			  "SET_FLOW_TABLE_ROOT under net");
	/* Reads change nothing: allowed (the device may still refuse the register). */
	TEST_ASSERT_NOT_EQUAL(raw(g_dev, MLX5V_CMD_OP_ACCESS_REG, MLX5V_ACCESS_REG_READ,
				  MLX5V_REG_PAOS, 0x20, out, 0x20), EPERM, "register read");
	TEST_ASSERT_SUCCESS(raw(g_none, MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT, 0, 0,
				MLX5V_IFC_BYTES(modify_nic_vport_context_in), out, 0x10),
			    "MODIFY_NIC_VPORT_CONTEXT on class=none");
	TEST_ASSERT_NOT_EQUAL(raw(g_none, MLX5V_CMD_OP_ACCESS_REG, MLX5V_ACCESS_REG_WRITE,
				  MLX5V_REG_PAOS, 0x20, out, 0x20), EPERM, "PAOS write, none");
	return TEST_SUCCESS;
}

/* Objects of the raw path: usable until destroyed, then refused like anyone else's. */
static int
test_mlx5v_devx_policy_raw_objects(void)
{
	struct mlx5v_dev *dev = (struct mlx5v_dev *)g_none;
	unsigned int tracked = mlx5v_devx_raw_objects(dev);
	uint8_t in[0x100], out[0x100];
	uint32_t td, tis;

	TEST_ASSERT_SUCCESS(raw(g_none, MLX5V_CMD_OP_ALLOC_TRANSPORT_DOMAIN, 0, 0, 0x10, out,
				0x10), "ALLOC_TD");
	td = MLX5V_IFC_GET(eth_obj_out, out, obj_id);
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(create_tis_in, in, opcode, MLX5V_CMD_OP_CREATE_TIS);
	MLX5V_IFC_SET(create_tis_in, in, ctx.transport_domain, td);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_general_cmd(g_none, in,
				MLX5V_IFC_BYTES(create_tis_in), out, 0x10), "CREATE_TIS");
	tis = MLX5V_IFC_GET(eth_obj_out, out, obj_id);
	TEST_ASSERT_EQUAL(mlx5v_devx_raw_objects(dev), tracked + 2, "not tracked");
	TEST_ASSERT_SUCCESS(raw(g_none, MLX5V_CMD_OP_QUERY_TIS, 0, tis, 0x10, out, sizeof(out)),
			    "QUERY_TIS of the caller's TIS");
	TEST_ASSERT_SUCCESS(raw(g_none, MLX5V_CMD_OP_MODIFY_TIS, 0, tis,
				MLX5V_IFC_BYTES(modify_tis_in), out, 0x10), "MODIFY_TIS");
	/* Another number of the family: not the caller's. */
	TEST_ASSERT_EQUAL(raw(g_none, MLX5V_CMD_OP_QUERY_TIS, 0, tis + 1, 0x10, out, sizeof(out)),
			  EPERM, "QUERY_TIS of a TIS the caller did not create");
	TEST_ASSERT_SUCCESS(raw(g_none, MLX5V_CMD_OP_DESTROY_TIS, 0, tis, 0x10, out, 0x10),
			    "DESTROY_TIS");
	TEST_ASSERT_EQUAL(raw(g_none, MLX5V_CMD_OP_QUERY_TIS, 0, tis, 0x10, out, sizeof(out)),
			  EPERM, "QUERY_TIS after destroy");
	/* Destroyed through the raw path: the number is no longer the caller's. */
	TEST_ASSERT_SUCCESS(raw(g_none, MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, 0, td, 0x10, out,
				0x10), "DEALLOC_TD");
	TEST_ASSERT_EQUAL(raw(g_none, MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, 0, td, 0x10, out,
			      0x10), EPERM, "DEALLOC_TD twice");
	TEST_ASSERT_EQUAL(mlx5v_devx_raw_objects(dev), tracked, "still tracked");
	TEST_ASSERT_EQUAL(mlx5v_sim_live_objects(mlx5v_sim_get(NONE_NAME), MLX5V_SIM_OBJ_TIS), 0,
			  "TIS leaked");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx5v_devx_policy_suite = {
	.suite_name = "mlx5v DEVX API: raw command policy",
	.setup = policy_setup,
	.teardown = policy_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mlx5v_devx_policy_function_cmds),
		TEST_CASE(test_mlx5v_devx_policy_async_eq),
		TEST_CASE(test_mlx5v_devx_policy_driver_cq),
		TEST_CASE(test_mlx5v_devx_policy_port),
		TEST_CASE(test_mlx5v_devx_policy_raw_objects),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_devx_policy(void)
{
	return unit_test_suite_runner(&mlx5v_devx_policy_suite);
}

REGISTER_TEST_COMMAND(mlx5v_devx_policy_autotest, test_mlx5v_devx_policy);
