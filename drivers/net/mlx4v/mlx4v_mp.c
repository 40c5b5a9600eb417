/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * Multi-process side of the mlx4v PMD. A secondary process attaches to the ports the primary
 * made (shared ethdev data, queues in EAL memory) and reads them; the device handle, its
 * objects and the data path stay with the primary (doc/guides/nics/mlx4v.rst, "Secondary
 * processes").
 */

#include <errno.h>

#include <ethdev_driver.h>
#include <rte_eal.h>

#include "mlx4v_ethdev.h"

/* Ports of this (primary) process. */
static unsigned int mlx4v_mp_users;

/*
 * Every counter, the link and the RSS state of a port are in its shared data (the queues'
 * software counters, priv->link_up): a secondary reads them itself, the primary serves
 * nothing over EAL IPC. The count only keeps the calls paired.
 */
int
mlx4v_mp_primary_get(void)
{
	mlx4v_mp_users++;
	return 0;
}

void
mlx4v_mp_primary_put(void)
{
	if (mlx4v_mp_users > 0)
		mlx4v_mp_users--;
}

/*
 * What a secondary process may do: read (infos, link, statistics, queue and RSS state) and
 * reset statistics. These are the primary's own callbacks, copied from its table in one
 * place so the two cannot drift; each reads only the port's shared data, never the primary's
 * handle or object pointers. Control and the data path stay with the primary.
 */
static struct eth_dev_ops mlx4v_mp_secondary_ops;

static const struct eth_dev_ops *
mlx4v_mp_secondary_ops_get(void)
{
	const struct eth_dev_ops *p = &mlx4v_ethdev_ops;
	struct eth_dev_ops *s = &mlx4v_mp_secondary_ops;

	/* EAL probes on one thread: no race on the first attach. */
	if (s->dev_infos_get != NULL)
		return s;
	s->link_update = p->link_update;
	s->fw_version_get = p->fw_version_get;
	s->rxq_info_get = p->rxq_info_get;
	s->txq_info_get = p->txq_info_get;
	s->rx_burst_mode_get = p->rx_burst_mode_get;
	s->tx_burst_mode_get = p->tx_burst_mode_get;
	s->dev_supported_ptypes_get = p->dev_supported_ptypes_get;
	s->stats_get = p->stats_get;
	s->stats_reset = p->stats_reset;
	s->xstats_get = p->xstats_get;
	s->xstats_get_names = p->xstats_get_names;
	s->xstats_reset = p->xstats_reset;
	s->rss_hash_conf_get = p->rss_hash_conf_get;
	s->reta_query = p->reta_query;
	s->dev_infos_get = p->dev_infos_get;
	return s;
}

/* Attach the port named ethname of the primary. @return 0 or -errno. */
static int
mlx4v_mp_port_attach(struct rte_device *edev, const char *ethname)
{
	struct rte_eth_dev *eth_dev = rte_eth_dev_attach_secondary(ethname);

	if (eth_dev == NULL)
		return -ENODEV;
	eth_dev->device = edev;
	eth_dev->dev_ops = mlx4v_mp_secondary_ops_get();
	/* The queues' doorbells and completions belong to the primary's data path. */
	eth_dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	eth_dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	rte_eth_dev_probing_finish(eth_dev);
	MLX4V_ETH_LOG(INFO, "%s: port %u attached (secondary process)", ethname,
		      eth_dev->data->port_id);
	return 0;
}

int
mlx4v_mp_secondary_attach(struct rte_device *edev)
{
	const char *name = rte_dev_name(edev);
	char ethname[RTE_ETH_NAME_MAX_LEN];
	unsigned int port, n = 0;

	if (rte_eal_process_type() == RTE_PROC_PRIMARY)
		return -EINVAL;
	/*
	 * The device's port count lives in the primary: take the ports it made, by their
	 * names. A port the application closed there is simply not found.
	 */
	for (port = 1; port <= MLX4V_ETH_MAX_PORTS; port++) {
		mlx4v_ethdev_name(ethname, sizeof(ethname), name, port);
		if (mlx4v_mp_port_attach(edev, ethname) == 0)
			n++;
	}
	if (n == 0) {
		MLX4V_ETH_LOG(ERR, "%s: the primary process has no port of this device", name);
		return -ENODEV;
	}
	return 0;
}

int
mlx4v_mp_secondary_detach(struct rte_device *edev)
{
	uint16_t port;
	int ret, first = 0;

	/* A secondary's release leaves the shared data to the primary. */
	RTE_ETH_FOREACH_DEV_OF(port, edev) {
		ret = rte_eth_dev_release_port(&rte_eth_devices[port]);
		if (ret != 0 && first == 0)
			first = ret;
	}
	return first;
}
