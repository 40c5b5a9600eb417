/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Unit tests of mlx4v_class: class= parsing, probe/remove order, unwind, events. */

#include <stdio.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>

#include "test.h"

#include "mlx4v_class.h"
#include "mlx4v_test_util.h"
#include "ut_class_log.h"
#include "ut_pci_args.h"

#define CT_DEV "mlx4v_sim_ct0"

static const char *g_fail_probe;   /* the class whose probe fails */
static size_t g_heap;

static int
ct_probe(const char *cls, struct rte_device *edev, const char *name)
{
	struct rte_pmd_mlx4v_dev *h;

	if (edev == NULL || strcmp(rte_dev_name(edev), name) != 0)
		return -EINVAL;
	/* The device is registered before its classes probe: a class can open it. */
	h = rte_pmd_mlx4v_dev_open(name);
	if (h == NULL)
		return -ENODEV;
	rte_pmd_mlx4v_dev_close(h);
	if (g_fail_probe != NULL && strcmp(g_fail_probe, cls) == 0) {
		ut_class_log(cls, "!");
		return -ENOTSUP;
	}
	ut_class_log(cls, "+");
	return 0;
}

static void
ct_event(const char *cls, const struct mlx4v_class_event *ev)
{
	char what[20];

	if (ev->type == MLX4V_CLASS_EVENT_PORT)
		snprintf(what, sizeof(what), ":port%u/%s", ev->port, ev->up ? "up" : "down");
	else if (ev->type == MLX4V_CLASS_EVENT_CQ_ERR)
		snprintf(what, sizeof(what), ":cqerr%u", ev->cqn);
	else
		snprintf(what, sizeof(what), ev->type == MLX4V_CLASS_EVENT_DEAD ? ":dead" : ":rm");
	ut_class_log(cls, what);
}

/* Class x's callbacks: they log under the name "x". */
#define CT_CLASS_CALLBACKS(x) \
static int \
ct_##x##_probe(struct mlxv_class_dev *cd, struct rte_device *edev, const char *devargs) \
{ \
	RTE_SET_USED(devargs); \
	return ct_probe(#x, edev, cd->name); \
} \
static int \
ct_##x##_remove(struct mlxv_class_dev *cd) \
{ \
	RTE_SET_USED(cd); \
	ut_class_log(#x, "-"); \
	return 0; \
} \
static void \
ct_##x##_event(struct mlxv_class_dev *cd, const void *ev) \
{ \
	RTE_SET_USED(cd); \
	ct_event(#x, ev); \
}

CT_CLASS_CALLBACKS(a)
CT_CLASS_CALLBACKS(b)

/* A devargs key of class test_a: taken for it when class= selects it. */
static const char *const ct_a_keys[] = { "test_a_key", NULL };

static struct mlxv_class_driver g_cls_a = {
	.name = "test_a", .probe = ct_a_probe, .remove = ct_a_remove, .event = ct_a_event,
	.keys = ct_a_keys,
};
static struct mlxv_class_driver g_cls_b = {
	.name = "test_b", .probe = ct_b_probe, .remove = ct_b_remove, .event = ct_b_event,
};

static int
class_setup(void)
{
	ut_class_log_reset();
	g_fail_probe = NULL;
	g_heap = ut_heap_bytes(NULL);
	return TEST_SUCCESS;
}

static void
class_teardown(void)
{
	rte_vdev_uninit(CT_DEV);
}

static int
ct_nothing_left(void)
{
	struct rte_pmd_mlx4v_dev *h = rte_pmd_mlx4v_dev_open(CT_DEV);

	if (h != NULL)
		rte_pmd_mlx4v_dev_close(h);
	TEST_ASSERT_NULL(h, "device still registered");
	TEST_ASSERT_NULL(mlx4v_sim_get(CT_DEV), "simulator still alive");
	TEST_ASSERT_EQUAL(ut_heap_bytes(NULL), g_heap, "EAL memory leaked");
	return TEST_SUCCESS;
}

static int
test_mlx4v_class_register_checks(void)
{
	struct mlxv_class_driver none = { .name = "none", .probe = ct_a_probe,
					   .remove = ct_a_remove };
	struct mlxv_class_driver twin = { .name = "test_a", .probe = ct_a_probe,
					   .remove = ct_a_remove };
	struct mlxv_class_driver noremove = { .name = "test_c", .probe = ct_a_probe };

	TEST_ASSERT_EQUAL(mlx4v_class_driver_register(NULL), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(mlx4v_class_driver_register(&none), -EINVAL, "\"none\" is reserved");
	TEST_ASSERT_EQUAL(mlx4v_class_driver_register(&noremove), -EINVAL, "no remove");
	TEST_ASSERT_EQUAL(mlx4v_class_driver_register(&twin), -EEXIST, "same name twice");
	TEST_ASSERT_EQUAL(mlx4v_class_driver_unregister(&twin), -ENOENT, "never registered");
	return TEST_SUCCESS;
}

/*
 * One owner per devarg, on the simulator's front-end and mlx4v_pci (ut_pci_args.h); with its
 * class selected the key passes mlx4v_pci, which then declines: no ibverbs device is here.
 */
static int
test_mlx4v_class_args_owner(void)
{
	char *log;
	int ret;

	TEST_ASSERT_SUCCESS(ut_pci_args_owner(1, CT_DEV, ct_nothing_left), "devargs");
	ret = ut_pci_args_probe(1, "mlx4v=1,class=test_a,test_a_key=1", &log);
	free(log);
	TEST_ASSERT_EQUAL(ret, 1, "mlx4v_pci: a selected class's key: %d", ret);
	return ct_nothing_left();
}

static int
test_mlx4v_class_parse(void)
{
	const char *n[MLX4V_CLASS_MAX];

	TEST_ASSERT_EQUAL(mlx4v_class_parse("net", n), 1, "net");
	TEST_ASSERT_EQUAL(mlx4v_class_parse("none", n), 0, "none");
	TEST_ASSERT_EQUAL(mlx4v_class_parse("test_a:eth", n), 2, "two");
	TEST_ASSERT(strcmp(n[0], "test_a") == 0 && strcmp(n[1], "net") == 0, "order, alias");
	TEST_ASSERT_EQUAL(mlx4v_class_parse("", n), -EINVAL, "empty");
	TEST_ASSERT_EQUAL(mlx4v_class_parse("crypto", n), -EINVAL, "unknown");
	TEST_ASSERT_EQUAL(mlx4v_class_parse("net::test_a", n), -EINVAL, "empty name");
	TEST_ASSERT_EQUAL(mlx4v_class_parse("test_b:test_b", n), -EINVAL, "twice");
	return TEST_SUCCESS;
}

static int
test_mlx4v_class_bad_devargs(void)
{
	static const char *const bad[] = {
		"class=", "class", "class=bogus", "class=none:net", "class=net,class=none",
		"ports", "mode", "ports=", "ports=99999999999999999999", "ports=1,ports=2",
		"fail_alloc_pd", "fail_alloc_pd=1,fail_alloc_pd=2", "no_such_knob=1",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT(rte_vdev_init(CT_DEV, bad[i]) < 0, "\"%s\" accepted", bad[i]);
		TEST_ASSERT_SUCCESS(ct_nothing_left(), "\"%s\" left something", bad[i]);
	}
	TEST_ASSERT_EQUAL(ut_class_log_count(), 0u, "a class was probed");
	return TEST_SUCCESS;
}

static int
test_mlx4v_class_probe_remove_order(void)
{
	static const char *const want[] = {
		"b+", "a+", "b:port2/down", "a:port2/down", "b:cqerr7", "a:cqerr7", "b:rm", "a:rm",
		"a-", "b-",
	};
	struct mlx4v_class_event dead = { .type = MLX4V_CLASS_EVENT_DEAD };
	const char *names[MLX4V_CLASS_MAX];

	TEST_ASSERT_SUCCESS(rte_vdev_init(CT_DEV, "class=test_b:test_a,ports=2"), "probe");
	TEST_ASSERT_EQUAL(mlx4v_class_dev_classes(CT_DEV, names, MLX4V_CLASS_MAX), 2, "two");
	TEST_ASSERT_EQUAL(mlx4v_class_driver_unregister(&g_cls_b), -EBUSY, "in use");
	TEST_ASSERT_EQUAL(mlx4v_sim_port_event(mlx4v_sim_get(CT_DEV), 3, 0), -EINVAL,
			  "port 3 of 2");
	TEST_ASSERT_SUCCESS(mlx4v_sim_port_event(mlx4v_sim_get(CT_DEV), 2, 0), "port 2 down");
	/* A CQ error the backend reports reaches every class, even for a CQ no handle has. */
	mlx4v_class_dev_cq_error(CT_DEV, 7);
	/* An event for a device the class layer does not know is ignored. */
	mlx4v_class_dev_event("mlx4v_sim_nosuch", &dead);
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(CT_DEV), "remove");
	TEST_ASSERT(ut_class_log_is(want, RTE_DIM(want)), "order");
	return ct_nothing_left();
}

static int
test_mlx4v_class_probe_fails(void)
{
	static const char *const want[] = { "a+", "b!", "a-" };

	int ret;

	g_fail_probe = "b";
	ret = rte_vdev_init(CT_DEV, "class=test_a:test_b");
	TEST_ASSERT_EQUAL(ret, -ENOTSUP, "probe returned %d, not the class probe's error", ret);
	TEST_ASSERT(ut_class_log_is(want, RTE_DIM(want)), "unwind order");
	return ct_nothing_left();
}

/* The raw API works whatever the class: none, or net whose driver is not loaded. */
static int
test_mlx4v_class_raw_only(void)
{
	static const char *const args[] = { "class=none", "", "class=net" };
	struct rte_pmd_mlx4v_dev *h;
	struct rte_pmd_mlx4v_pd *pd;
	unsigned int i;

	for (i = 0; i < RTE_DIM(args); i++) {
		TEST_ASSERT_SUCCESS(rte_vdev_init(CT_DEV, args[i]), "\"%s\"", args[i]);
		h = rte_pmd_mlx4v_dev_open(CT_DEV);
		TEST_ASSERT_NOT_NULL(h, "\"%s\": open", args[i]);
		pd = rte_pmd_mlx4v_alloc_pd(h);
		TEST_ASSERT_NOT_NULL(pd, "\"%s\": PD", args[i]);
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dealloc_pd(pd), "dealloc");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx4v_dev_close(h), "close");
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(CT_DEV), "remove");
		TEST_ASSERT_SUCCESS(ct_nothing_left(), "\"%s\" left something", args[i]);
	}
	TEST_ASSERT_EQUAL(ut_class_log_count(), 0u, "a test class was probed");
	return TEST_SUCCESS;
}

static struct unit_test_suite mlx4v_class_suite = {
	.suite_name = "mlx4v_class",
	.unit_test_cases = {
		TEST_CASE_ST(class_setup, class_teardown, test_mlx4v_class_register_checks),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx4v_class_parse),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx4v_class_args_owner),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx4v_class_bad_devargs),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx4v_class_probe_remove_order),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx4v_class_probe_fails),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx4v_class_raw_only),
		TEST_CASES_END()
	}
};

static int
test_mlx4v_class(void)
{
	return ut_class_suite_run(&mlx4v_class_suite, mlx4v_class_driver_register,
				  mlx4v_class_driver_unregister, &g_cls_a, &g_cls_b);
}

REGISTER_TEST_COMMAND(mlx4v_class_autotest, test_mlx4v_class);
