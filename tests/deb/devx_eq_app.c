/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/*
 * A client of the installed packages alone, built with pkg-config libdpdk-mlxv by
 * tests/deb/in_root.sh: a UAR, an MSI vector and a DEVX EQ on the device named by the last
 * argument (default mlx5v_sim0), whose driver EAL loads from its plugin directory.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_pmd_mlx5v.h>
#include <rte_pmd_mlx5v_prm.h>

/* create_eq_in as on hardware, for an EQ of 64 entries on UAR page UAR and MSI vector VEC. */
static void
eq_cmd_fill(uint8_t *in, uint32_t uar, int vec)
{
	uint8_t *ctx = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;
	uint8_t bits[32] = { 0 };

	rte_pmd_mlx5v_event_mask_set(bits, RTE_PMD_MLX5V_EVENT_PORT_CHANGE);
	memcpy(in + RTE_PMD_MLX5V_CREATE_EQ_IN_EVENT_BITMASK, bits, sizeof(bits));
	RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE, RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
	RTE_PMD_MLX5V_SET(ctx, RTE_PMD_MLX5V_EQC_INTR, vec);
	RTE_PMD_MLX5V_SET(ctx, RTE_PMD_MLX5V_EQC_UAR_PAGE, uar);
	RTE_PMD_MLX5V_SET(ctx, RTE_PMD_MLX5V_EQC_LOG_EQ_SIZE, 6);
}

/* A UAR, a vector and the EQ on DEV, printed, then freed in reverse: 0 or -1. */
static int
eq_round_trip(struct rte_pmd_mlx5v_dev *dev, const char *what)
{
	uint8_t out[RTE_PMD_MLX5V_CREATE_EQ_OUT_SIZE] = { 0 };
	uint8_t in[RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE] = { 0 };
	struct rte_pmd_mlx5v_msi_vector *vec;
	struct rte_pmd_mlx5v_uar *uar;
	struct rte_pmd_mlx5v_eq *eq;
	int ret = -1;

	uar = rte_pmd_mlx5v_devx_alloc_uar(dev);
	if (uar == NULL) {
		perror("rte_pmd_mlx5v_devx_alloc_uar");
		return -1;
	}
	vec = rte_pmd_mlx5v_devx_alloc_msi_vector(dev);
	if (vec == NULL) {
		perror("rte_pmd_mlx5v_devx_alloc_msi_vector");
		goto free_uar;
	}
	eq_cmd_fill(in, uar->page_id, vec->vector);
	eq = rte_pmd_mlx5v_devx_create_eq(dev, in, sizeof(in), out, sizeof(out));
	if (eq == NULL) {
		printf("%s: no EQ, command status 0x%x\n", what,
		       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_OUT_STATUS));
		goto free_vec;
	}
	printf("%s: DEVX EQ %u created\n", what,
	       RTE_PMD_MLX5V_GET(out, RTE_PMD_MLX5V_CREATE_EQ_OUT_EQ_NUMBER));
	ret = rte_pmd_mlx5v_devx_destroy_eq(eq) == 0 ? 0 : -1;
free_vec:
	if (rte_pmd_mlx5v_devx_free_msi_vector(vec) != 0)
		ret = -1;
free_uar:
	if (rte_pmd_mlx5v_devx_free_uar(uar) != 0)
		ret = -1;
	return ret;
}

int
main(int argc, char **argv)
{
	struct rte_pmd_mlx5v_dev *dev;
	const char *what;
	int n, rc = 1;

	n = rte_eal_init(argc, argv);
	if (n < 0) {
		printf("rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	what = n + 1 < argc ? argv[argc - 1] : "mlx5v_sim0";
	dev = rte_pmd_mlx5v_dev_get(what);
	if (dev != NULL)
		rc = eq_round_trip(dev, what) == 0 ? 0 : 1;
	else
		printf("%s: not one of our devices (%s)\n", what, strerror(errno));
	rte_eal_cleanup();
	return rc;
}
