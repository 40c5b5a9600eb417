/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Unit tests of mlx5v_class: class= parsing, probe/remove order, unwind, events,
 * secondary-process attach.
 */

#include <dev_driver.h>
#include <rte_bus_vdev.h>

#include "test.h"

#include "mlx5v_class.h"
#include "rte_pmd_mlx5v.h"
#include "ut_class_log.h"
#include "ut_mlx5v.h"
#include "ut_pci_args.h"

#define CT_DEV "mlx5v_sim_ct0"

static const char *g_fail_probe;   /* the class whose probe fails */
static struct ut_heap g_heap;

static int
ct_probe(const char *cls, struct mlx5v_dev *dev, struct rte_device *edev)
{
	if (dev == NULL || edev == NULL || strcmp(rte_dev_name(edev), dev->name) != 0)
		return -EINVAL;
	/* The raw API already works on the device while its classes probe. */
	if (rte_pmd_mlx5v_dev_get(dev->name) == NULL)
		return -ENODEV;
	if (g_fail_probe != NULL && strcmp(g_fail_probe, cls) == 0) {
		ut_class_log(cls, "!");
		return -ENOTSUP;
	}
	ut_class_log(cls, "+");
	return 0;
}

static void
ct_event(const char *cls, const struct mlx5v_class_event *ev)
{
	char what[20];

	if (ev->type == MLX5V_DEV_EVENT_PORT)
		snprintf(what, sizeof(what), ":port%u/%u", ev->port, ev->sub_type);
	else
		snprintf(what, sizeof(what), ev->type == MLX5V_DEV_EVENT_DEAD ? ":dead" : ":rm");
	ut_class_log(cls, what);
}

/* Secondary-process attach: "a@" attached, "b!" refused, "a~" detached. */
static int
ct_attach(const char *cls, struct rte_device *edev)
{
	if (edev == NULL || strcmp(rte_dev_name(edev), CT_DEV) != 0)
		return -EINVAL;
	if (g_fail_probe != NULL && strcmp(g_fail_probe, cls) == 0) {
		ut_class_log(cls, "!");
		return -ENOTSUP;
	}
	ut_class_log(cls, "@");
	return 0;
}

/* Class x's callbacks: they log under the name "x". */
#define CT_CLASS_CALLBACKS(x) \
static int \
ct_##x##_probe(struct mlxv_class_dev *cd, struct rte_device *edev, const char *devargs) \
{ \
	RTE_SET_USED(devargs); \
	return ct_probe(#x, cd->ctx, edev); \
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
} \
static int \
ct_##x##_attach(struct rte_device *edev) \
{ \
	return ct_attach(#x, edev); \
} \
static int \
ct_##x##_detach(struct rte_device *edev) \
{ \
	RTE_SET_USED(edev); \
	ut_class_log(#x, "~"); \
	return 0; \
}

CT_CLASS_CALLBACKS(a)
CT_CLASS_CALLBACKS(b)

/* A devargs key of class test_a: the front-end leaves it to the class. */
static const char *const ct_a_keys[] = { "test_a_key", NULL };

static struct mlxv_class_driver g_cls_a = {
	.name = "test_a", .probe = ct_a_probe, .remove = ct_a_remove, .event = ct_a_event,
	.attach = ct_a_attach, .detach = ct_a_detach, .keys = ct_a_keys,
};
static struct mlxv_class_driver g_cls_b = {
	.name = "test_b", .probe = ct_b_probe, .remove = ct_b_remove, .event = ct_b_event,
	.attach = ct_b_attach, .detach = ct_b_detach,
};

static int
class_setup(void)
{
	ut_class_log_reset();
	g_fail_probe = NULL;
	ut_heap_get(&g_heap);
	return TEST_SUCCESS;
}

static void
class_teardown(void)
{
	rte_vdev_uninit(CT_DEV);
}

/* The device and its simulator are gone, and the EAL heap is as before the test. */
static int
ct_nothing_left(void)
{
	struct ut_heap after;

	TEST_ASSERT_NULL(mlx5v_dev_get(CT_DEV), "device still registered");
	TEST_ASSERT_NULL(mlx5v_sim_get(CT_DEV), "simulator still alive");
	ut_heap_get(&after);
	TEST_ASSERT(ut_heap_same(&g_heap, &after), "EAL memory leaked");
	return TEST_SUCCESS;
}

static int
test_mlx5v_class_register_checks(void)
{
	struct mlxv_class_driver none = { .name = "none", .probe = ct_a_probe,
					   .remove = ct_a_remove };
	struct mlxv_class_driver colon = { .name = "x:y", .probe = ct_a_probe,
					    .remove = ct_a_remove };
	struct mlxv_class_driver noprobe = { .name = "test_c", .remove = ct_a_remove };
	struct mlxv_class_driver twin = { .name = "test_a", .probe = ct_a_probe,
					   .remove = ct_a_remove };

	TEST_ASSERT_EQUAL(mlx5v_class_driver_register(NULL), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(mlx5v_class_driver_register(&none), -EINVAL, "\"none\" is reserved");
	TEST_ASSERT_EQUAL(mlx5v_class_driver_register(&colon), -EINVAL, "':' in a name");
	TEST_ASSERT_EQUAL(mlx5v_class_driver_register(&noprobe), -EINVAL, "no probe");
	TEST_ASSERT_EQUAL(mlx5v_class_driver_register(&twin), -EEXIST, "same name twice");
	TEST_ASSERT_EQUAL(mlx5v_class_driver_unregister(&twin), -ENOENT, "never registered");
	return TEST_SUCCESS;
}

static int
test_mlx5v_class_parse(void)
{
	const char *n[MLX5V_CLASS_MAX];

	TEST_ASSERT_EQUAL(mlx5v_class_parse("net", n), 1, "net");
	TEST_ASSERT_EQUAL(strcmp(n[0], "net"), 0, "net name");
	TEST_ASSERT_EQUAL(mlx5v_class_parse("eth", n), 1, "eth");
	TEST_ASSERT_EQUAL(strcmp(n[0], "net"), 0, "eth is an alias of net");
	TEST_ASSERT_EQUAL(mlx5v_class_parse("none", n), 0, "none");
	TEST_ASSERT_EQUAL(mlx5v_class_parse("test_b:net:test_a", n), 3, "three");
	TEST_ASSERT(strcmp(n[0], "test_b") == 0 && strcmp(n[1], "net") == 0 &&
		    strcmp(n[2], "test_a") == 0, "order kept");
	TEST_ASSERT_EQUAL(mlx5v_class_parse("", n), -EINVAL, "empty");
	TEST_ASSERT_EQUAL(mlx5v_class_parse(NULL, n), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(mlx5v_class_parse("vdpa", n), -EINVAL, "unknown");
	TEST_ASSERT_EQUAL(mlx5v_class_parse("net:", n), -EINVAL, "trailing ':'");
	TEST_ASSERT_EQUAL(mlx5v_class_parse(":net", n), -EINVAL, "leading ':'");
	TEST_ASSERT_EQUAL(mlx5v_class_parse("net:eth", n), -EINVAL, "twice, through the alias");
	TEST_ASSERT_EQUAL(mlx5v_class_parse("none:net", n), -EINVAL, "none with others");
	TEST_ASSERT_EQUAL(mlx5v_class_parse("NET", n), -EINVAL, "names are case-sensitive");
	return TEST_SUCCESS;
}

/* Bad class= values fail the probe with nothing left behind. */
static int
test_mlx5v_class_bad_devargs(void)
{
	static const char *const bad[] = {
		"class=", "class", "class=bogus", "class=test_a:test_a", "class=net:none",
		"class=test_a,class=test_b",
		/* The simulator's own keys and knobs: bare, empty, twice, too big. */
		"msix", "msix=", "msix=4,msix=8", "msix=99999999999999999999", "fail_opcode",
		"fail_opcode=1,fail_opcode=2", "no_such_knob=1", "test_b_key=1",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT(rte_vdev_init(CT_DEV, bad[i]) < 0, "\"%s\" accepted", bad[i]);
		TEST_ASSERT_SUCCESS(ct_nothing_left(), "\"%s\" left something", bad[i]);
	}
	TEST_ASSERT_EQUAL(ut_class_log_count(), 0u, "a class was probed");
	return TEST_SUCCESS;
}

/* One owner per devarg, on the simulator's front-end and mlx5v_pci (ut_pci_args.h). */
static int
test_mlx5v_class_args_owner(void)
{
	TEST_ASSERT_SUCCESS(ut_pci_args_owner(0, CT_DEV, ct_nothing_left), "devargs");
	return TEST_SUCCESS;
}

static int
test_mlx5v_class_probe_remove_order(void)
{
	static const char *const want[] = { "b+", "a+", "b:rm", "a:rm", "a-", "b-" };
	const char *names[MLX5V_CLASS_MAX];

	/* test_a_key is test_a's: the front-end leaves it to the class. */
	TEST_ASSERT_SUCCESS(rte_vdev_init(CT_DEV, "class=test_b:test_a,msix=4,test_a_key=1"),
			    "probe");
	TEST_ASSERT_EQUAL(mlx5v_class_dev_classes(CT_DEV, names, MLX5V_CLASS_MAX), 2, "two");
	TEST_ASSERT(strcmp(names[0], "test_b") == 0 && strcmp(names[1], "test_a") == 0,
		    "probe order is the class= order");
	TEST_ASSERT_EQUAL(mlx5v_class_driver_unregister(&g_cls_a), -EBUSY, "in use");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(CT_DEV), "remove");
	/* REMOVE first to every class, then the removes in reverse probe order. */
	TEST_ASSERT(ut_class_log_is(want, RTE_DIM(want)), "order");
	return ct_nothing_left();
}

/* A failing class probe: the classes before it are removed, the device goes down. */
static int
test_mlx5v_class_probe_fails(void)
{
	static const char *const want[] = { "a+", "b!", "a-" };

	int ret;

	g_fail_probe = "b";
	ret = rte_vdev_init(CT_DEV, "class=test_a:test_b");
	TEST_ASSERT_EQUAL(ret, -ENOTSUP, "probe returned %d, not the class probe's error", ret);
	TEST_ASSERT(ut_class_log_is(want, RTE_DIM(want)), "unwind order");
	TEST_ASSERT_SUCCESS(ct_nothing_left(), "leak");
	/* The same device probes fine afterwards. */
	g_fail_probe = NULL;
	ut_class_log_reset();
	TEST_ASSERT_SUCCESS(rte_vdev_init(CT_DEV, "class=test_a:test_b"), "probe again");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(CT_DEV), "remove");
	return ct_nothing_left();
}

/* class=none and a class whose driver is not loaded (net): the raw API serves the device. */
static int
test_mlx5v_class_raw_only(void)
{
	static const char *const args[] = { "class=none", "", "class=net", "class=eth" };
	struct rte_pmd_mlx5v_dev *d;
	struct rte_pmd_mlx5v_msi_vector *msi;
	const char *names[MLX5V_CLASS_MAX];
	unsigned int i;

	for (i = 0; i < RTE_DIM(args); i++) {
		TEST_ASSERT_SUCCESS(rte_vdev_init(CT_DEV, args[i]), "\"%s\"", args[i]);
		TEST_ASSERT_EQUAL(mlx5v_class_dev_classes(CT_DEV, names, MLX5V_CLASS_MAX), 0,
				  "\"%s\": no class driver probed", args[i]);
		d = rte_pmd_mlx5v_dev_get(CT_DEV);
		TEST_ASSERT_NOT_NULL(d, "\"%s\": DEVX device", args[i]);
		msi = rte_pmd_mlx5v_devx_alloc_msi_vector(d);
		TEST_ASSERT_NOT_NULL(msi, "\"%s\": MSI vector", args[i]);
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5v_devx_free_msi_vector(msi), "free");
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(CT_DEV), "remove");
		TEST_ASSERT_SUCCESS(ct_nothing_left(), "\"%s\" left something", args[i]);
	}
	TEST_ASSERT_EQUAL(ut_class_log_count(), 0u, "a test class was probed");
	return TEST_SUCCESS;
}

/*
 * DEAD from health, PORT from a PORT_CHANGE EQE of the core's async EQ (which subscribes it),
 * to every class in order; the EQE reaches the classes once.
 */
static int
test_mlx5v_class_events(void)
{
	static const char *const want[] = {
		"a+", "b+", "a:port1/4", "b:port1/4", "a:dead", "b:dead",
		"a:rm", "b:rm", "b-", "a-",
	};
	struct mlx5v_dev *dev;

	TEST_ASSERT_SUCCESS(rte_vdev_init(CT_DEV, "class=test_a:test_b,msix=4"), "probe");
	dev = mlx5v_dev_get(CT_DEV);
	TEST_ASSERT_NOT_NULL(dev, "device");
	TEST_ASSERT_EQUAL(mlx5v_sim_port_event(mlx5v_sim_get(CT_DEV), 1,
					       RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE), 1,
			  "the port event reaches exactly the async EQ");
	/* The EAL interrupt thread polls the async EQ on vector 0. */
	TEST_ASSERT_SUCCESS(UT_WAIT_FOR(ut_class_log_count() >= 4),
			    "no port event reached the classes");
	mlx5v_dev_set_dead(dev, MLX5V_DEAD_USER);
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(CT_DEV), "remove a dead device");
	TEST_ASSERT(ut_class_log_is(want, RTE_DIM(want)), "events");
	return ct_nothing_left();
}

/*
 * The secondary-process entry: the classes of class= attach in order, nothing is brought
 * up; a refusing class detaches the ones before it; detach asks every class that can.
 */
static int
test_mlx5v_class_attach(void)
{
	static const char *const want_ok[] = { "b@", "a@", "b~", "a~" };
	static const char *const want_fail[] = { "a@", "b!", "a~" };
	struct rte_device edev = { .name = CT_DEV };
	int ret;

	TEST_ASSERT_SUCCESS(mlx5v_class_dev_attach(&edev, "test_b:test_a"), "attach");
	TEST_ASSERT_NULL(mlx5v_dev_get(CT_DEV), "attach brought a device up");
	TEST_ASSERT_SUCCESS(mlx5v_class_dev_detach(&edev), "detach");
	/* Detach goes over the registered classes, latest first. */
	TEST_ASSERT(ut_class_log_is(want_ok, RTE_DIM(want_ok)), "attach/detach order");
	ut_class_log_reset();
	g_fail_probe = "b";
	ret = mlx5v_class_dev_attach(&edev, "test_a:test_b");
	TEST_ASSERT_EQUAL(ret, -ENOTSUP, "attach returned %d, not the class's error", ret);
	TEST_ASSERT(ut_class_log_is(want_fail, RTE_DIM(want_fail)), "unwind");
	ut_class_log_reset();
	TEST_ASSERT_SUCCESS(mlx5v_class_dev_attach(&edev, "none"), "class=none attaches nothing");
	TEST_ASSERT_EQUAL(mlx5v_class_dev_attach(&edev, "test_a::"), -EINVAL, "bad class=");
	TEST_ASSERT_EQUAL(mlx5v_class_dev_attach(NULL, NULL), -EINVAL, "no device");
	TEST_ASSERT_EQUAL(ut_class_log_count(), 0, "a class attached on a refused call");
	return ct_nothing_left();
}

static struct unit_test_suite mlx5v_class_suite = {
	.suite_name = "mlx5v_class",
	.unit_test_cases = {
		TEST_CASE_ST(class_setup, class_teardown, test_mlx5v_class_register_checks),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx5v_class_parse),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx5v_class_bad_devargs),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx5v_class_args_owner),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx5v_class_probe_remove_order),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx5v_class_probe_fails),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx5v_class_raw_only),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx5v_class_events),
		TEST_CASE_ST(class_setup, class_teardown, test_mlx5v_class_attach),
		TEST_CASES_END()
	}
};

static int
test_mlx5v_class(void)
{
	return ut_class_suite_run(&mlx5v_class_suite, mlx5v_class_driver_register,
				  mlx5v_class_driver_unregister, &g_cls_a, &g_cls_b);
}

REGISTER_TEST_COMMAND(mlx5v_class_autotest, test_mlx5v_class);
