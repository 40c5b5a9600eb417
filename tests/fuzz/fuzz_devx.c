/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Fuzz target: the DEVX raw API, rte_pmd_mlx5v_devx_create_eq() (attribute and
 * inbox validation) and rte_pmd_mlx5v_devx_general_cmd() (any opcode, in/out lengths and
 * bytes), on a simulated device (class=none) created once per process.
 *
 * Input: op byte (bit 0: 0 create_eq, 1 general_cmd), flag byte, 32-bit outlen, then the
 * inbox (inlen = what is left). Flags: bit 0 put the UAR and vector allocated here in the
 * eqc, bit 1 force the CREATE_EQ opcode, bit 2 pass in = NULL, bit 3 pass out = NULL.
 * Findings: sanitizer reports; an EQ that cannot be destroyed; output written although the
 * call failed with EINVAL (doc/guides/testing/fuzzing.rst).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_errno.h>

#include "fuzz_common.h"
#include "rte_pmd_mlx5v.h"
#include "rte_pmd_mlx5v_prm.h"
#include "ut_common.h"

#define FUZZ_DEV "mlx5v_sim_fz0"
/* Commands time out after 1 s, so a command the device never answers costs little. */
#define FUZZ_DEV_ARGS "class=none,cmd_to_ms=1000"
#define FUZZ_F_OWN_EQC  0x01
#define FUZZ_F_OPCODE   0x02
#define FUZZ_F_IN_NULL  0x04
#define FUZZ_F_OUT_NULL 0x08
/* A fresh device after this many inputs, so that raw objects do not pile up. */
#define FUZZ_INPUTS_PER_DEV 2048
/*
 * Bring-up attempts before a failing probe is a finding. cmd_to_ms=1000 also bounds every
 * bring-up command, and on a loaded machine (a niced run next to a CI build) the simulator's
 * thread can be starved for longer than that: the probe then fails with ETIMEDOUT and
 * cleans up, which is the driver doing its job, so the target checks that nothing was left
 * behind and tries again.
 */
#define FUZZ_DEV_UP_TRIES 10
/* Outputs larger than the command limit are accepted by nothing; test a bit beyond it. */
#define FUZZ_OUT_MAX (RTE_PMD_MLX5V_CMD_MAX_LEN + 4096)

static struct rte_pmd_mlx5v_dev *g_dev;
static struct rte_pmd_mlx5v_uar *g_uar;
static struct rte_pmd_mlx5v_msi_vector *g_msi;
static unsigned int g_inputs;

/*
 * One bring-up: the probe, then the UAR and vector every input may use.
 * @return 0, or the probe's or the allocation's -errno with nothing of this attempt left.
 */
static int
fuzz_dev_try_up(void)
{
	int ret;

	/* rte_vdev_init() returns the probe's -errno and leaves rte_errno alone. */
	ret = rte_vdev_init(FUZZ_DEV, FUZZ_DEV_ARGS);
	if (ret != 0)
		return ret;
	g_dev = rte_pmd_mlx5v_dev_get(FUZZ_DEV);
	if (g_dev == NULL)
		fuzz_fail("no mlx5v device %s", FUZZ_DEV);
	errno = 0;
	g_uar = rte_pmd_mlx5v_devx_alloc_uar(g_dev);
	if (g_uar != NULL)
		g_msi = rte_pmd_mlx5v_devx_alloc_msi_vector(g_dev);
	if (g_uar != NULL && g_msi != NULL)
		return 0;
	ret = errno != 0 ? -errno : -EIO;
	fprintf(stderr, "fuzz-devx: cannot allocate the UAR and vector: %s\n", strerror(-ret));
	fuzz_teardown();
	return ret;
}

static void
fuzz_dev_up(void)
{
	struct ut_heap h0, h1;
	unsigned int tries;
	int ret;

	for (tries = 1;; tries++) {
		ut_heap_get(&h0);
		ret = fuzz_dev_try_up();
		if (ret == 0)
			break;
		if (rte_pmd_mlx5v_dev_get(FUZZ_DEV) != NULL)
			fuzz_fail("bring-up of %s failed (%s) but left the device behind",
				  FUZZ_DEV, strerror(-ret));
		ut_heap_get(&h1);
		if (!ut_heap_same(&h0, &h1))
			fuzz_fail("bring-up of %s failed (%s) and kept EAL memory", FUZZ_DEV,
				  strerror(-ret));
		if (ret != -ETIMEDOUT || tries == FUZZ_DEV_UP_TRIES)
			fuzz_fail("bring-up of %s: %s (attempt %u)", FUZZ_DEV, strerror(-ret),
				  tries);
		fprintf(stderr, "fuzz-devx: a bring-up command timed out (loaded machine?), "
			"trying again\n");
	}
	g_inputs = 0;
}

void
fuzz_teardown(void)
{
	/* Whatever the raw commands did to them, the driver's own handles must go. */
	rte_pmd_mlx5v_devx_free_msi_vector(g_msi);
	rte_pmd_mlx5v_devx_free_uar(g_uar);
	g_msi = NULL;
	g_uar = NULL;
	if (rte_vdev_uninit(FUZZ_DEV) != 0)
		fuzz_fail("rte_vdev_uninit(%s) failed", FUZZ_DEV);
	g_dev = NULL;
}

void
fuzz_setup(void)
{
	fuzz_dev_up();
}

/*
 * Opcodes after which the function is no longer the one brought up (HCA life cycle,
 * pages, ISSI, capabilities) or a driver-owned object may be gone: the next input gets a
 * fresh device. Crashes are still findings; only the state is reset.
 */
static int
fuzz_resets_device(uint16_t opcode)
{
	return (opcode >= 0x100 && opcode <= 0x10f) || opcode == RTE_PMD_MLX5V_CMD_OP_DESTROY_EQ ||
	       opcode == RTE_PMD_MLX5V_CMD_OP_DESTROY_CQ ||
	       opcode == RTE_PMD_MLX5V_CMD_OP_DEALLOC_UAR;
}

/* 0 if the bytes of out are all still the fill pattern. */
static int
fuzz_out_touched(const uint8_t *out, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (out[i] != 0xa5)
			return 1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in fi = { data, size };
	uint8_t op = fuzz_u8(&fi);
	uint8_t flags = fuzz_u8(&fi);
	size_t outlen = fuzz_u32(&fi) % (FUZZ_OUT_MAX + 1);
	size_t inlen = fi.n;
	struct rte_pmd_mlx5v_eq *eq;
	uint16_t opcode = 0;
	uint8_t *in, *out;
	int reset = 0;
	int ret;

	/* Own copies, so that an overread of in or an overflow of out is an ASan report. */
	in = malloc(inlen + 1);
	out = malloc(outlen + 1);
	if (in == NULL || out == NULL)
		fuzz_fail("out of memory");
	memcpy(in, fi.p, inlen);
	memset(out, 0xa5, outlen);
	if (inlen >= 2)
		opcode = (uint16_t)(in[0] << 8 | in[1]);
	if (!(op & 1)) {
		if ((flags & FUZZ_F_OPCODE) && inlen >= 4) {
			RTE_PMD_MLX5V_SET(in, RTE_PMD_MLX5V_IN_OPCODE,
					  RTE_PMD_MLX5V_CMD_OP_CREATE_EQ);
			opcode = RTE_PMD_MLX5V_CMD_OP_CREATE_EQ;
		}
		if ((flags & FUZZ_F_OWN_EQC) && inlen >= RTE_PMD_MLX5V_CREATE_EQ_IN_SIZE) {
			uint8_t *eqc = in + RTE_PMD_MLX5V_CREATE_EQ_IN_EQC;

			RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_UAR_PAGE, g_uar->page_id);
			RTE_PMD_MLX5V_SET(eqc, RTE_PMD_MLX5V_EQC_INTR, g_msi->vector);
		}
		errno = 0;
		eq = rte_pmd_mlx5v_devx_create_eq(g_dev, (flags & FUZZ_F_IN_NULL) ? NULL : in,
						  inlen, (flags & FUZZ_F_OUT_NULL) ? NULL : out,
						  outlen);
		if (eq != NULL) {
			ret = rte_pmd_mlx5v_devx_destroy_eq(eq);
			if (ret != 0)
				fuzz_fail("destroy_eq of a created EQ: %s", strerror(ret));
		} else if (errno == 0) {
			fuzz_fail("create_eq failed without errno");
		} else if (errno == EINVAL && fuzz_out_touched(out, outlen)) {
			fuzz_fail("create_eq wrote its output and failed with EINVAL");
		}
	} else {
		ret = rte_pmd_mlx5v_devx_general_cmd(g_dev, (flags & FUZZ_F_IN_NULL) ? NULL : in,
						     inlen, (flags & FUZZ_F_OUT_NULL) ? NULL : out,
						     outlen);
		if (ret < 0)
			fuzz_fail("general_cmd returned %d: positive errno values only", ret);
		if (ret == EINVAL && fuzz_out_touched(out, outlen))
			fuzz_fail("general_cmd wrote its output and failed with EINVAL");
		reset = ret == 0 && fuzz_resets_device(opcode);
	}
	free(in);
	free(out);
	if (reset || ++g_inputs >= FUZZ_INPUTS_PER_DEV) {
		fuzz_teardown();
		fuzz_dev_up();
	}
	return 0;
}
