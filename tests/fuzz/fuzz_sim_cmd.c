/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Fuzz target: the mlx5 simulator's command decoder. Any bytes as a command queue
 * entry and its input mailbox chain, posted on any slot of a simulator brought up once
 * (the unit-test fixture of tests/unit/sim/mlx5v drives it through mlx5v_sim_hw_ops).
 *
 * Input: one flag byte (slot in bits 0-4; bit 5: keep the entry's own iptr/optr; bit 6:
 * keep the blocks' own next/block_num; bit 7: keep the entry's own owner bit), the
 * 64-byte entry, then up to UT_NBLK raw 576-byte input blocks. Findings: a sanitizer
 * report, or a slot the model never hands back (doc/guides/testing/fuzzing.rst).
 */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "test.h"

#include "fuzz_common.h"
#include "ut_mlx5v_sim.h"

#define FUZZ_F_RAW_PTR   0x20
#define FUZZ_F_RAW_CHAIN 0x40
#define FUZZ_F_RAW_OWNER 0x80
/* Bring a fresh model up after this many commands, so that state does not pile up. */
#define FUZZ_CMDS_PER_SIM 1024

static unsigned int fuzz_cmds;

static void
fuzz_sim_up(void)
{
	int ret;

	if (ut_setup() != TEST_SUCCESS)
		fuzz_fail("simulator setup failed");
	ret = ut_bringup();
	if (ret != 0)
		fuzz_fail("simulator bring-up failed at step %d", ret);
	fuzz_cmds = 0;
}

void
fuzz_setup(void)
{
	fuzz_sim_up();
}

void
fuzz_teardown(void)
{
	ut_teardown();
}

/* @return 1 once the model has handed slot s back (its slot state is idle). */
static int
fuzz_slot_idle(unsigned int s)
{
	int idle;

	pthread_mutex_lock(&g_sim->lock);
	idle = g_sim->slot[s].state == MLX5V_SIM_SLOT_IDLE && !(g_sim->db_pending & (1u << s));
	pthread_mutex_unlock(&g_sim->lock);
	return idle;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t flags = fuzz_u8(&in);
	unsigned int s = flags & 0x1f;
	struct ut_mbox *mb = &g_mb[s == UT_PAGE_SLOT];
	uint8_t *ent = g_cmdq + s * MLX5V_CMD_ENT_SIZE;
	uint8_t *blk;
	unsigned int n;
	int state;

	memset(ent, 0, MLX5V_CMD_ENT_SIZE);
	fuzz_take(&in, ent, MLX5V_CMD_ENT_SIZE);
	if (!(flags & FUZZ_F_RAW_PTR)) {
		MLX5V_IFC_SET64(cmd_layout, ent, iptr, mb->in_iova);
		MLX5V_IFC_SET64(cmd_layout, ent, optr, mb->out_iova);
	}
	for (n = 0; n < UT_NBLK; n++) {
		blk = mb->in + n * UT_MBOX_STRIDE;
		memset(blk, 0, MLX5V_MBOX_SIZE);
		fuzz_take(&in, blk, MLX5V_MBOX_SIZE);
		if (!(flags & FUZZ_F_RAW_CHAIN)) {
			MLX5V_IFC_SET64(cmd_mbox, blk, next,
					mb->in_iova + (n + 1) * UT_MBOX_STRIDE);
			MLX5V_IFC_SET(cmd_mbox, blk, block_num, n);
		}
		/* The output chain is always well formed: the model writes through it. */
		blk = mb->out + n * UT_MBOX_STRIDE;
		memset(blk, 0, MLX5V_MBOX_SIZE);
		MLX5V_IFC_SET64(cmd_mbox, blk, next, mb->out_iova + (n + 1) * UT_MBOX_STRIDE);
		MLX5V_IFC_SET(cmd_mbox, blk, block_num, n);
	}
	if (!(flags & FUZZ_F_RAW_OWNER))
		MLX5V_IFC_SET(cmd_layout, ent, status_own, MLX5V_IFC_GET(cmd_layout, ent,
								 status_own) | MLX5V_CMD_OWNER_HW);
	ut_ring(s);
	/* Every command completes: no fault knob that delays or holds one is set here. */
	if (UT_WAIT_FOR(fuzz_slot_idle(s)) != 0)
		fuzz_fail("slot %u never handed back by the model", s);
	state = g_sim->hca_state;
	if (state != MLX5V_SIM_HCA_INITIALIZED || ++fuzz_cmds >= FUZZ_CMDS_PER_SIM) {
		ut_teardown();
		fuzz_sim_up();
	}
	return 0;
}
