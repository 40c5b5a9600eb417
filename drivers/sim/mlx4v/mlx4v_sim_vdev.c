/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The mlx4v_sim vdev: probe and remove of a simulated ConnectX-3 brought up by the mlx4v
 * class layer. The vdev registration, its name and its devargs string live in this one file
 * for pmdinfogen.
 */

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_kvargs.h>
#include <bus_vdev_driver.h>

#include "mlx4v_class.h"
#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

/*
 * A secondary process: the model lives in the primary, the classes attach to what they made
 * there. The device comes with no devargs from the primary's list (DPDK 22.11 bus/vdev);
 * a class= given to this process is honoured.
 */
static int
mlx4v_sim_probe_secondary(struct rte_vdev_device *vdev)
{
	const char *args = rte_vdev_device_args(vdev);
	struct rte_kvargs *kv = NULL;
	const char *classes = NULL;
	int ret;

	if (args != NULL && args[0] != '\0') {
		kv = rte_kvargs_parse(args, NULL);
		if (kv == NULL) {
			MLX4V_SIM_LOG(ERR, "%s: cannot parse devargs \"%s\"",
				      rte_vdev_device_name(vdev), args);
			return -EINVAL;
		}
		classes = rte_kvargs_get(kv, MLX4V_CLASS_ARG);
	}
	ret = mlx4v_class_dev_attach(&vdev->device, classes);
	rte_kvargs_free(kv);
	return ret;
}

static int
mlx4v_sim_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	int socket = vdev->device.numa_node;
	struct mlx4v_sim *sim;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx4v_sim_probe_secondary(vdev);
	if (socket < 0)
		socket = SOCKET_ID_ANY;
	sim = mlx4v_sim_create(name, rte_vdev_device_args(vdev), socket);
	if (sim == NULL)
		return -rte_errno;
	/*
	 * Registration makes the device reachable through rte_pmd_mlx4v_dev_open(); only now is the
	 * model complete. The class layer then probes the class drivers.
	 */
	ret = mlx4v_class_dev_probe(&vdev->device, name, &mlx4v_sim_verbs_ops, sim, socket,
				    sim->classes[0] != '\0' ? sim->classes : NULL);
	if (ret) {
		mlx4v_sim_destroy(sim);
		return ret;
	}
	MLX4V_SIM_LOG(INFO, "%s: simulated ConnectX-3, %u port(s), port 1 wire=%s", name,
		      sim->nports, sim->wa.wire[0]);
	return 0;
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

	"fail_send=<int>");
