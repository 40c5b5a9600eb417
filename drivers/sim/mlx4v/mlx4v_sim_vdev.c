/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The mlx4v_sim vdev: probe and remove of a simulated ConnectX-3 brought up by the mlx4v
 * class layer. The vdev registration, its name and its devargs string live in this one file
 * for pmdinfogen.
 */

#include <stdlib.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <bus_vdev_driver.h>

#include "mlx4v_class.h"
#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

/*
 * A secondary process: the model lives in the primary, the classes attach to what they made
 * there. The device comes with no devargs from the primary's list (DPDK 22.11 bus/vdev);
 * a class= given to this process is honoured, the model's keys are the primary's business.
 */
static int
mlx4v_sim_probe_secondary(struct rte_vdev_device *vdev, const char *classes)
{
	return mlx4v_class_dev_attach(&vdev->device, classes);
}

/*
 * The devargs, layer by layer (doc/guides/platform/layers.rst, "Devargs"): the common
 * driver's and the classes' first (class= into *classes, valid while a is); every key left
 * is the model's (*model: "key=value,...", NULL for none), which refuses one it does not know.
 */
static int
mlx4v_sim_parse(struct rte_vdev_device *vdev, struct mlxv_class_args *a, const char **classes,
		char **model)
{
	const char *name = rte_vdev_device_name(vdev);
	int ret;

	*model = NULL;
	ret = mlx4v_class_args_parse(a, name, rte_vdev_device_args(vdev));
	if (ret < 0)
		return ret;
	ret = mlx4v_class_args_core(a, name, classes);
	if (ret == 0)
		ret = mlxv_class_args_rest(a, model);
	return ret;
}

static int
mlx4v_sim_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	int socket = vdev->device.numa_node;
	struct mlxv_class_args a;
	const char *classes = NULL;
	struct mlx4v_sim *sim;
	char *model = NULL;
	int ret;

	ret = mlx4v_sim_parse(vdev, &a, &classes, &model);
	if (ret < 0)
		goto free_args;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		ret = mlx4v_sim_probe_secondary(vdev, classes);
		goto free_args;
	}
	if (socket < 0)
		socket = SOCKET_ID_ANY;
	sim = mlx4v_sim_create(name, model, socket);
	if (sim == NULL) {
		ret = -rte_errno;
		goto free_args;
	}
	/*
	 * Registration makes the device reachable through rte_pmd_mlx4v_dev_open(); only now is the
	 * model complete. The class layer then probes the class drivers.
	 */
	ret = mlx4v_class_dev_probe(&vdev->device, name, &mlx4v_sim_verbs_ops, sim, socket,
				    classes);
	if (ret) {
		mlx4v_sim_destroy(sim);
		goto free_args;
	}
	MLX4V_SIM_LOG(INFO, "%s: simulated ConnectX-3, %u port(s), port 1 wire=%s", name,
		      sim->nports, sim->wa.wire[0]);
free_args:
	free(model);
	mlxv_class_args_free(&a);
	return ret;
}

static int
mlx4v_sim_remove(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct mlx4v_sim *sim;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx4v_class_dev_detach(&vdev->device);
	sim = mlx4v_sim_get(name);
	if (sim == NULL)
		return -ENODEV;
	/*
	 * Objects still open are force-released below, and their rings and doorbell
	 * pages freed: the engine must not poll them any more. Stopping joins the
	 * thread, so no pass is running once it returns; stopping again is a no-op.
	 */
	hwsim_engine_stop(sim->engine);
	ret = mlx4v_class_dev_remove(name);
	if (ret)
		MLX4V_SIM_LOG(ERR, "%s: was not registered: %s", name, rte_strerror(-ret));
	/* Removal never fails once the device exists: EAL does not retry it at exit. */
	mlx4v_sim_destroy(sim);
	return 0;
}

static struct rte_vdev_driver mlx4v_sim_driver = {
	.probe = mlx4v_sim_probe,
	.remove = mlx4v_sim_remove,
};

RTE_PMD_REGISTER_VDEV(mlx4v_sim, mlx4v_sim_driver);
RTE_PMD_REGISTER_PARAM_STRING(mlx4v_sim,
	"class=<net|none|name:name> "
	"ports=<1-4> "
	"mode=<loopback|pair> "
	"wire=<loop|pair:dev[.port]|tap:ifname|none> "
	"wire<N>=<loop|pair:dev[.port]|tap:ifname|none> "
	"mac=<xx:xx:xx:xx:xx:xx> "
	"speed=<Mb/s> "
	"strict_cqe_owner=<0|1> "
	"fail_alloc_pd=<int> "
	"fail_reg_mr=<int> "
	"fail_create_cq=<int> "
	"fail_create_qp=<int> "
	"fail_create_srq=<int> "
	"fail_create_wq=<int> "
	"fail_modify_qp=<int> "
	"fail_modify_wq=<int> "
	"lose_cq_event=<int> "
	"host_page=<0|4096..65536> "
	"ib_ports=<port mask> "
	"no_dmfs=<0|1> "
	"no_net_raw=<0|1> "
	"netdev_down=<port mask> "
	"vf=<0|1> "
	"fatal=<0|1> "
	"fail_reset=<int> "
	"recovery=<reset|dead> "

	"fail_send=<int>");
