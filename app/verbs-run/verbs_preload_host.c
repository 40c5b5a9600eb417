/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file One model per function per command tree (doc/guides/platform/verbs_emulation.rst,
 * "Several processes"): the first process of the tree that needs a function's model creates
 * and hosts it (emu_host.c); the others build their sysfs tree from the ports the host
 * describes, and hand the stores to a UAR page they map through a received verbs context fd
 * to the host's model.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "emu_host.h"
#include "mlx4v_sim.h"
#include "verbs_run.h"

/* The host's answers, per function: NULL where this process hosts it, or has not asked. */
static struct emu_host_msg *verbs_host_remote[VERBS_RUN_MAX_DEVS];

void
verbs_host_key(unsigned int idx, char *key, size_t len)
{
	unsigned int n;
	const struct verbs_run_dev *d = verbs_preload_devs(&n);

	snprintf(key, len, VERBS_RUN_MODEL_PREFIX "%.12s", d[idx].bdf);
}

/* The ports as the model has them now. */
static void
verbs_host_ports_of(struct mlx4v_sim *sim, struct verbs_host_ports *hp)
{
	unsigned int p;

	memset(hp, 0, sizeof(*hp));
	hp->nports = RTE_MIN(mlx4v_sim_ports(sim), (unsigned int)VERBS_HOST_MAX_PORTS);
	for (p = 1; p <= hp->nports; p++) {
		hp->port[p - 1].up = mlx4v_sim_link_get(sim, p) == 1;
		hp->port[p - 1].mtu = mlx4v_sim_port_mtu_get(sim, p);
		mlx4v_sim_port_mac(sim, p, (struct rte_ether_addr *)hp->port[p - 1].mac);
	}
}

/* Host side (server thread): the ports of function idx for another process. */
static int
verbs_host_fill(void *arg, const char *key, struct emu_host_msg *m)
{
	struct mlx4v_sim *sim = verbs_preload_sim((unsigned int)(uintptr_t)arg);

	RTE_SET_USED(key);
	RTE_BUILD_BUG_ON(sizeof(struct verbs_host_ports) > EMU_HOST_INFO_LEN);
	if (sim == NULL)
		return -ENODEV;
	verbs_host_ports_of(sim, (struct verbs_host_ports *)m->info);
	m->nb_fds = 0;
	return 0;
}

/* Host side (server thread): a store another process made to its UAR page. */
static int
verbs_host_store(void *arg, uint32_t off, uint64_t val)
{
	struct mlx4v_sim *sim = verbs_preload_sim((unsigned int)(uintptr_t)arg);

	if (sim == NULL)
		return -ENODEV;
	return mlx4v_sim_uar_store(sim, off, val);
}

int
verbs_host_serve(unsigned int idx)
{
	char key[32];

	verbs_host_key(idx, key, sizeof(key));
	return emu_host_serve(key, verbs_host_fill, verbs_host_store, (void *)(uintptr_t)idx);
}

int
verbs_host_join(unsigned int idx)
{
	struct emu_host_msg *m;
	char key[32];
	int ret;

	if (verbs_host_remote[idx] != NULL)
		return 0;
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return -ENOMEM;
	verbs_host_key(idx, key, sizeof(key));
	ret = emu_host_fetch(key, m);
	if (ret != 0) {
		free(m);
		if (ret != -ENOENT)
			VERBS_RUN_LOG("%s: the process hosting the model does not answer: %s", key,
				      strerror(-ret));
		return ret;
	}
	verbs_host_remote[idx] = m;
	return 0;
}

int
verbs_host_is_remote(unsigned int idx)
{
	return idx < VERBS_RUN_MAX_DEVS && verbs_host_remote[idx] != NULL;
}

int
verbs_host_ports(unsigned int idx, struct verbs_host_ports *hp)
{
	struct mlx4v_sim *sim;

	if (verbs_host_is_remote(idx)) {
		memcpy(hp, verbs_host_remote[idx]->info, sizeof(*hp));
		return 0;
	}
	sim = verbs_preload_sim(idx);
	if (sim == NULL) {
		memset(hp, 0, sizeof(*hp));
		return -ENODEV;
	}
	verbs_host_ports_of(sim, hp);
	return 0;
}
