/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file BAR0 as memory, for a host emulation that maps it (doc/guides/platform/
 * vfio_emulation.rst): the init segment published into shared pages, the UAR pages as they
 * are, and the IOMMU windows a VFIO container maps.
 */

#include <errno.h>
#include <sched.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>

#include "mlx5v_sim_priv.h"

#define MLX5V_SIM_HEALTH_DWORDS 16

/* Pages 0-2 of BAR0 (prm/mlx5 §1.1). */
#define MLX5V_SIM_ISEG_NB_PAGES 3

/* What a load from the mapped init segment returns: the trap-style read, device order. */
static uint32_t
mlx5v_sim_bar_iseg_rd(void *arg, uint32_t off)
{
	struct mlx5v_sim_iseg_page *ip = arg;
	struct mlx5v_sim *sim = ip->sim;

	/* A dead PCI link reads all ones (prm/mlx5 §4.3 sensor 1), as reg_rd32 does. */
	if (__atomic_load_n(&sim->pci_offline, __ATOMIC_RELAXED))
		return UINT32_MAX;
	return rte_cpu_to_be_32(mlx5v_sim_iseg_read(sim, ip->base + off));
}

/* A store found in the mapped init segment (a register or the command doorbell). */
static void
mlx5v_sim_bar_iseg_wr(void *arg, uint32_t off, uint64_t raw)
{
	struct mlx5v_sim_iseg_page *ip = arg;
	struct mlx5v_sim *sim = ip->sim;

	/* Posted writes to a device without a link vanish. */
	if (__atomic_load_n(&sim->pci_offline, __ATOMIC_RELAXED))
		return;
	mlx5v_sim_iseg_write(sim, ip->base + off, rte_be_to_cpu_32((uint32_t)raw));
}

/* Publish the registers of init segment page idx; 0x018 is a doorbell word. */
static int
mlx5v_sim_bar_iseg_page(struct mlx5v_sim *sim, unsigned int idx)
{
	static const uint32_t regs[] = {
		MLX5V_ISEG_FW_REV, MLX5V_ISEG_CMDIF_REV_FW_SUB, MLX5V_ISEG_CMDQ_ADDR_H,
		MLX5V_ISEG_CMDQ_ADDR_L_SZ, MLX5V_ISEG_INITIALIZING, MLX5V_ISEG_CMD_EXEC_TO,
		MLX5V_ISEG_CMD_Q_INIT_TO, MLX5V_ISEG_HEALTH_COUNTER,
		MLX5V_SIM_ISEG_INTERNAL_TIMER_H, MLX5V_SIM_ISEG_INTERNAL_TIMER_L,
		MLX5V_SIM_ISEG_REAL_TIME_H, MLX5V_SIM_ISEG_REAL_TIME_L,
	};
	struct mlx5v_sim_iseg_page *ip = &sim->iseg_pg[idx];
	uint32_t lo = idx * HWSIM_MMIO_PAGE_SIZE;
	uint32_t hi = lo + HWSIM_MMIO_PAGE_SIZE;
	unsigned int i;
	int ret = 0;

	ip->sim = sim;
	ip->base = lo;
	ip->pg = hwsim_mmio_page_alloc();
	if (ip->pg == NULL)
		return -rte_errno;
	for (i = 0; i < RTE_DIM(regs) && ret == 0; i++) {
		if (regs[i] < lo || regs[i] >= hi)
			continue;
		/* Only the queue address takes stores; the others are read-only. */
		ret = hwsim_mmio_reg(ip->pg, regs[i] - lo, mlx5v_sim_bar_iseg_rd,
				     regs[i] == MLX5V_ISEG_CMDQ_ADDR_H ||
				     regs[i] == MLX5V_ISEG_CMDQ_ADDR_L_SZ ?
				     mlx5v_sim_bar_iseg_wr : NULL, ip);
	}
	for (i = 0; i < MLX5V_SIM_HEALTH_DWORDS && ret == 0; i++) {
		uint32_t off = MLX5V_ISEG_HEALTH + 4 * i;

		if (off >= lo && off < hi)
			ret = hwsim_mmio_reg(ip->pg, off - lo, mlx5v_sim_bar_iseg_rd, NULL, ip);
	}
	/* Bit s of the doorbell posts slot s (prm/mlx5 §3.5): consumed once per store. */
	if (ret == 0 && MLX5V_ISEG_CMD_DBELL >= lo && MLX5V_ISEG_CMD_DBELL < hi)
		ret = hwsim_mmio_watch(ip->pg, MLX5V_ISEG_CMD_DBELL - lo, 4,
				       mlx5v_sim_bar_iseg_wr, ip);
	return ret;
}

int
mlx5v_sim_bar_export(struct mlx5v_sim *sim, struct mlx5v_sim_bar_page *pages, unsigned int n)
{
	unsigned int need = MLX5V_SIM_ISEG_NB_PAGES + MLX5V_SIM_NUM_UARS;
	unsigned int i;
	int ret;

	if (sim == NULL || pages == NULL || n < need)
		return -EINVAL;
	/* UAR index i at BAR0 + i * 4 KiB: the host page must be the 4 KiB of a UAR. */
	if (sim->p.host_page != MLX5V_UAR_PAGE_SIZE)
		return -ENOTSUP;
	if (__atomic_load_n(&sim->iseg_mapped, __ATOMIC_ACQUIRE) == 0) {
		for (i = 0; i < MLX5V_SIM_ISEG_NB_PAGES; i++) {
			ret = mlx5v_sim_bar_iseg_page(sim, i);
			if (ret != 0)
				return ret;
		}
		/* Release: the engine polls the pages only once they are complete. */
		__atomic_store_n(&sim->iseg_mapped, 1, __ATOMIC_RELEASE);
	}
	for (i = 0; i < MLX5V_SIM_ISEG_NB_PAGES; i++) {
		pages[i].bar_off = (uint64_t)i * MLX5V_UAR_PAGE_SIZE;
		pages[i].fd = hwsim_mmio_page_fd(sim->iseg_pg[i].pg);
	}
	for (i = 0; i < MLX5V_SIM_NUM_UARS; i++) {
		pages[MLX5V_SIM_ISEG_NB_PAGES + i].bar_off =
			(uint64_t)(MLX5V_UAR_FIRST_INDEX + i) * MLX5V_UAR_PAGE_SIZE;
		pages[MLX5V_SIM_ISEG_NB_PAGES + i].fd = hwsim_mmio_page_fd(sim->uar[i].pg);
	}
	return (int)need;
}

int
mlx5v_sim_bar_poll(struct mlx5v_sim *sim)
{
	unsigned int i;
	int n = 0;

	if (__atomic_load_n(&sim->iseg_mapped, __ATOMIC_ACQUIRE) == 0)
		return 0;
	for (i = 0; i < MLX5V_SIM_ISEG_NB_PAGES; i++)
		n += hwsim_mmio_poll(sim->iseg_pg[i].pg);
	return n;
}

void
mlx5v_sim_bar_fini(struct mlx5v_sim *sim)
{
	unsigned int i;

	for (i = 0; i < MLX5V_SIM_ISEG_NB_PAGES; i++) {
		hwsim_mmio_page_free(sim->iseg_pg[i].pg);
		sim->iseg_pg[i].pg = NULL;
	}
	sim->iseg_mapped = 0;
}

/* Bounded: a held engine (mlx5v_sim_engine_hold()) must not hang a store forever. */
#define MLX5V_SIM_BAR_SYNC_SPINS 2000000u

int
mlx5v_sim_bar_sync(struct mlx5v_sim *sim)
{
	uint64_t start = hwsim_engine_passes(sim->engine);
	unsigned int i;

	hwsim_engine_kick(sim->engine);
	for (i = 0; i < MLX5V_SIM_BAR_SYNC_SPINS; i++) {
		if (hwsim_engine_passes(sim->engine) - start >= 2)
			return 0;
		sched_yield();
	}
	return -ETIMEDOUT;
}

int
mlx5v_sim_iommu_map(struct mlx5v_sim *sim, uint64_t iova, void *va, size_t len)
{
	/* Fault knob: an IOMMU that has no room left for the mapping. */
	if (hwsim_knob_take(sim->knobs, MLX5V_SIM_K_FAIL_DMA_MAP))
		return -ENOSPC;
	return hwsim_dma_map(sim->dma, iova, va, len);
}

int
mlx5v_sim_iommu_unmap(struct mlx5v_sim *sim, uint64_t iova, size_t len)
{
	return hwsim_dma_unmap(sim->dma, iova, len);
}

int
mlx5v_sim_iommu_window(struct mlx5v_sim *sim, uint64_t iova, uint64_t *first, size_t *len,
		       void **va)
{
	return hwsim_dma_window(sim->dma, iova, first, len, va);
}
