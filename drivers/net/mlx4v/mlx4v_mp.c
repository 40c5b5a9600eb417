/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Secondary processes of the mlx4v PMD (placeholder: primary process only). */

#include <errno.h>

#include "mlx4v_ethdev.h"

int
mlx4v_mp_primary_get(void)
{
	return 0;
}

void
mlx4v_mp_primary_put(void)
{
}

int
mlx4v_mp_secondary_attach(struct rte_device *edev, const char *name)
{
	RTE_SET_USED(edev);
	MLX4V_ETH_LOG(ERR, "%s: secondary processes are not supported", name);
	return -ENOTSUP;
}
