/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Fixture of the DEVX EQ / MSI-vector API programs: one simulated device probed
 * through the vdev bus, or the emulated PCI function EAL's arguments allow (ut_dev.h), a
 * UAR, and the command builders the tests share.
 */

#ifndef _UT_MLX5V_DEVX_H_
#define _UT_MLX5V_DEVX_H_

#include <stddef.h>
#include <stdint.h>

#include "mlx5v_dev.h"
#include "mlx5v_devx.h"
#include "mlx5v_sim.h"
#include "rte_pmd_mlx5v.h"
#include "ut_common.h"
#include "ut_dev.h"

#define VDEV "mlx5v_sim0"
/* The device's name: VDEV, or the PCI function's BDF. */
#define VDEV_NAME ut_dev_name(VDEV)
#define VDEV_ARGS "msix=8"
/* The vectors of the device: the vdev's msix=, the launcher's --dev knobs (meson.build). */
#define NB_MSIX 8

/* The simulator's syndrome for "uar_page not allocated" (mlx5v_sim_priv.h). */
#define SIM_SYND_EQ_UAR 0x51030004u

extern struct rte_pmd_mlx5v_dev *g_dev;
extern struct mlx5v_sim *g_sim;
extern struct rte_pmd_mlx5v_uar *g_uar;

void ut_eq_in_build(uint8_t *in, size_t len, unsigned int log_size, uint32_t uar_page,
		    uint32_t intr, uint64_t mask0);
struct rte_pmd_mlx5v_eq *ut_eq_create(unsigned int log_size, uint32_t intr, uint64_t mask0,
				       uint32_t *eqn);
int ut_eq_query(uint32_t eqn, uint8_t *out, size_t outlen);
int ut_gen_eqe(uint32_t eqn, uint8_t type, uint8_t sub_type, uint8_t tag);
int ut_wait_eq_ci(uint32_t eqn, uint32_t ci);
int ut_wait_eq_st(uint32_t eqn, uint32_t st);
void ut_drain_fd(int fd);
unsigned int ut_live_eqs(void);
unsigned int ut_live_windows(void);
int ut_wait_cq_st(uint32_t cqn, uint32_t st);

/**
 * Where a test's events come from. GEN_EQE is the simulator's way to write any EQE, but no
 * firmware is known to accept it from this function; a completion is what every device
 * raises (doc/guides/nics/running_on_hardware.rst, "Events raised with GEN_EQE").
 */
enum ut_src_kind {
	UT_SRC_GEN_EQE, /**< GENERAL_EVENT EQEs through the GEN_EQE command, tag in data[0] */
	UT_SRC_CQE,     /**< completion EQEs of a CQ bound to the EQ, one CQE per event */
};

/** An event source bound to one EQ. */
struct ut_src {
	enum ut_src_kind kind;
	uint32_t eqn;
	struct mlx5v_devx_cq *cq; /**< UT_SRC_CQE: the CQ whose completions raise events */
};

/** Test cases name (GEN_EQE) and name_cqe (CQ completion) of one run(enum ut_src_kind). */
#define UT_SRC_CASES(name, run) \
	static int name(void) { return run(UT_SRC_GEN_EQE); } \
	static int name ## _cqe(void) { return run(UT_SRC_CQE); }

int ut_src_open(struct ut_src *s, enum ut_src_kind kind, uint32_t eqn);
/** ut_src_open() with the CQ's doorbells on uar instead of g_uar. */
int ut_src_open_uar(struct ut_src *s, enum ut_src_kind kind, uint32_t eqn,
		    struct rte_pmd_mlx5v_uar *uar);
int ut_src_raise(struct ut_src *s, uint8_t tag);
uint8_t ut_src_type(const struct ut_src *s);
int ut_src_eqe_is(const struct ut_src *s, const uint8_t *eqe, uint8_t tag);
int ut_src_close(struct ut_src *s);
const char *ut_src_name(enum ut_src_kind kind);
int ut_devx_setup(void);
void ut_devx_teardown(void);

#endif /* _UT_MLX5V_DEVX_H_ */
