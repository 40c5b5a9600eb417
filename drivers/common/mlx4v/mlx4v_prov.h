/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The provider of a verbs backend: what libmlx4 does in user space around the kernel's
 * commands (doc/guides/platform/layers.rst, "mlx4v providers"). Two instances:
 * mlx4v_rdma_prov, libmlx4 itself through rdma-core, which does all of it inside the verbs
 * calls and only gives the mlx4dv views; and mlx4v_sw_prov (mlx4v_prov_sw.c), the same steps
 * in this library, for a backend that is "kernel plus hardware" only (the simulator). A
 * backend names its provider in its struct mlx4v_verbs_ops (prov).
 */

#ifndef _MLX4V_PROV_H_
#define _MLX4V_PROV_H_

#include "mlx4v_verbs.h"

/**
 * Provider steps, each around the backend's verbs call of the same object. Every step but
 * the views is optional: NULL means the backend's call does it all. Verbs lock held.
 */
struct mlx4v_prov_ops {
	const char *name;
	/* Before the backend creates the object: geometry, ring, doorbell record. 0/-errno. */
	int (*cq_layout)(struct mlx4v_cq *cq);
	int (*qp_layout)(struct mlx4v_qp *qp);
	int (*srq_layout)(struct mlx4v_srq *srq);
	int (*wq_layout)(struct mlx4v_wq *wq);
	/* The backend's create failed: undo the layout. */
	void (*cq_layout_free)(struct mlx4v_cq *cq);
	void (*qp_layout_free)(struct mlx4v_qp *qp);
	void (*srq_layout_free)(struct mlx4v_srq *srq);
	void (*wq_layout_free)(struct mlx4v_wq *wq);
	/* After the backend destroyed the object: clean what it left in CQs, free the layout. */
	void (*cq_destroyed)(struct mlx4v_cq *cq);
	void (*qp_destroyed)(struct mlx4v_qp *qp);
	void (*srq_destroyed)(struct mlx4v_srq *srq);
	void (*wq_destroyed)(struct mlx4v_wq *wq);
	/* After the backend created the QP (its number is known). */
	void (*qp_created)(struct mlx4v_qp *qp);
	/* A state change to state: before the backend's (QP only), and after it. */
	void (*qp_modify_pre)(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state);
	void (*qp_modify_post)(struct mlx4v_qp *qp, enum rte_pmd_mlx4v_qp_state state);
	void (*wq_modify_post)(struct mlx4v_wq *wq, enum rte_pmd_mlx4v_wq_state state);
	/* The mlx4dv views (required), as mlx4dv_init_obj() fills them. 0/-errno. */
	int (*qp_view)(struct mlx4v_qp *qp, struct mlx4dv_qp *out);
	int (*cq_view)(struct mlx4v_cq *cq, struct mlx4dv_cq *out);
	int (*srq_view)(struct mlx4v_srq *srq, struct mlx4dv_srq *out);
	int (*rwq_view)(struct mlx4v_wq *wq, struct mlx4dv_rwq *out);
};

/** libmlx4 through rdma-core (mlx4v_verbs_rdma.c). */
extern const struct mlx4v_prov_ops mlx4v_rdma_prov;
/** libmlx4's steps done here (mlx4v_prov_sw.c), for the simulator's backend. */
extern const struct mlx4v_prov_ops mlx4v_sw_prov;

/** The provider of the handle ctx. */
#define MLX4V_PROV(ctx) (mlx4v_verbs_ops_get(ctx)->prov)

/** Run the optional step op that returns 0/-errno: 0 when the provider has none. */
#define MLX4V_PROV_CALL(ctx, op, ...) \
	(MLX4V_PROV(ctx)->op != NULL ? MLX4V_PROV(ctx)->op(__VA_ARGS__) : 0)

/** Run the optional step op that returns nothing. */
#define MLX4V_PROV_RUN(ctx, op, ...) do { \
	if (MLX4V_PROV(ctx)->op != NULL) \
		MLX4V_PROV(ctx)->op(__VA_ARGS__); \
} while (0)

#endif /* _MLX4V_PROV_H_ */
