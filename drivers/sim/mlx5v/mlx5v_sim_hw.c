/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The simulator backend of the hardware seam: BAR, UAR pages, DMA and MSI-X. */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include "mlx5v_hw.h"
#include "mlx5v_sim_eth_dp.h"
#include "mlx5v_sim_priv.h"

/*
 * The words of the UAR's second half the model watches: every 0x80 bytes, the smallest half
 * of a BlueFlame register the log_bf_reg_size knob can give (prm/mlx5_eth §6.6).
 */
#define MLX5V_SIM_BF_WATCH 0x80
/* BlueFlame registers of a UAR at most (from UAR + 0x800 on). */
#define MLX5V_SIM_BF_REGS 4

/*
 * Doorbells of several processes. Silicon takes every posted write to a UAR page, whichever
 * process's mapping of BAR0 it came through; the model finds a store only at its next pass
 * over the page, where a later store to the same word would replace it. So each process
 * the page is lent to (uar_fd) rings an alias of it: the same watches and decode, its own
 * memfd, polled with the page. An alias goes once no process maps it any more, found when
 * the next one is lent, or with the model. One not mapped yet may be on its way to its
 * process: it stays for a grace period, longer than the PMD waits for the IPC answer that
 * carries it (doc/guides/sim/mlx5v_sim.rst, "Doorbells of several processes").
 */
#define MLX5V_SIM_UAR_LEND_GRACE_NS (UINT64_C(10) * 1000 * 1000 * 1000)
/* Aliases of one UAR at most, at once: more is a leak (or a storm of secondaries). */
#define MLX5V_SIM_UAR_MAX_ALIASES 64

/*
 * Whether off is the start of a half of one of the UAR's BlueFlame registers of
 * 2^log_bf_reg_size bytes (prm/mlx5_eth §6.6): the only places an SQ doorbell goes.
 */
static int
mlx5v_sim_bf_off_ok(struct mlx5v_sim *sim, uint32_t off)
{
	const uint32_t bf = UINT32_C(1) << mlx5v_sim_knob(sim, MLX5V_SIM_K_LOG_BF_REG_SIZE);
	const uint32_t rel = off - RTE_PMD_MLX5V_UAR_BF_OFF;
	const uint32_t nregs = RTE_MIN((uint32_t)MLX5V_SIM_BF_REGS,
				       (uint32_t)RTE_PMD_MLX5V_UAR_BF_OFF / bf);

	return rel % (bf / 2) == 0 && rel / bf < nregs;
}

static inline struct mlx5v_sim *
mlx5v_to_sim(struct mlx5v_hw *hw)
{
	return hw->priv;
}

/* Doorbell words of a UAR page (prm/mlx5 §8), consumed by the engine. raw is device order. */
static void
mlx5v_sim_uar_db(void *arg, uint32_t off, uint64_t raw)
{
	struct mlx5v_sim_uar *u = arg;
	struct mlx5v_sim *sim = u->sim;
	int allocated;

	pthread_mutex_lock(&sim->lock);
	allocated = u->allocated;
	if (sim->pci_offline) {
		/* Posted writes to a device without a link vanish. */
		pthread_mutex_unlock(&sim->lock);
		return;
	}
	pthread_mutex_unlock(&sim->lock);
	/*
	 * A snapshot: the handlers below take the lock themselves. A DEALLOC_UAR racing its own
	 * doorbell is a driver bug either way.
	 */
	if (!allocated) {
		SIM_LOG(WARNING, "%s: doorbell at UAR %u + 0x%x, a UAR not allocated (driver bug)",
			sim->name, u->index, off);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		return;
	}
	switch (off) {
	case MLX5V_IFC_BYTE_OFF(uar_page, cq_db):
		mlx5v_sim_cq_doorbell(sim, u->index, rte_be_to_cpu_64(raw));
		break;
	case MLX5V_IFC_BYTE_OFF(uar_page, eq_db_arm):
		mlx5v_sim_eq_doorbell(sim, u->index, 1, rte_be_to_cpu_32((uint32_t)raw));
		break;
	case MLX5V_IFC_BYTE_OFF(uar_page, eq_db_noarm):
		mlx5v_sim_eq_doorbell(sim, u->index, 0, rte_be_to_cpu_32((uint32_t)raw));
		break;
	default:
		/*
		 * SQ doorbells: 8 bytes at the start of a half of a BlueFlame register
		 * (prm/mlx5_eth §6.6); elsewhere in the UAR's second half the store reaches no
		 * doorbell, and the model drops it.
		 */
		if (off < RTE_PMD_MLX5V_UAR_BF_OFF)
			break;
		if (!mlx5v_sim_bf_off_ok(sim, off)) {
			SIM_LOG(WARNING, "%s: SQ doorbell at UAR %u + 0x%x: not the start of a "
				"half of a 2^%" PRId64 "-byte BlueFlame register (driver bug)",
				sim->name, u->index, off,
				mlx5v_sim_knob(sim, MLX5V_SIM_K_LOG_BF_REG_SIZE));
			mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
			break;
		}
		mlx5v_sim_eth_sq_doorbell(sim, u->index, raw);
		break;
	}
}

int
mlx5v_sim_uars_init(struct mlx5v_sim *sim)
{
	/*
	 * With EQN/CQN 0 (first_num=0), a doorbell word can be 0: the EQ and CQ words idle at
	 * all ones, which neither can take (EQN <= 254 then, CQN < 2^24).
	 */
	uint64_t idle = sim->p.first_num == 0 ? UINT64_MAX : 0;
	struct mlx5v_sim_uar *u;
	unsigned int i;
	uint32_t off;
	int ret;

	/* First, so that mlx5v_sim_uars_fini() can take every lock of a partly built model. */
	for (i = 0; i < MLX5V_SIM_NUM_UARS; i++)
		pthread_mutex_init(&sim->uar[i].alias_lock, NULL);
	/*
	 * Every UAR page in range exists, as BAR pages do on hardware; the model checks
	 * ALLOC_UAR when a doorbell arrives, so a store to a free UAR is caught, not lost.
	 */
	for (i = 0; i < MLX5V_SIM_NUM_UARS; i++) {
		u = &sim->uar[i];
		u->sim = sim;
		u->index = MLX5V_UAR_FIRST_INDEX + i;
		u->pg = hwsim_mmio_page_alloc();
		if (u->pg == NULL)
			return -rte_errno;
		/*
		 * Watch order is processing order within one pass: the CI-only word before
		 * the arm word, so a drain that wrote both (no-arm every 128 EQEs, then the
		 * final arm) is applied in the order a consumer writes them.
		 */
		ret = hwsim_mmio_watch_idle(u->pg, MLX5V_IFC_BYTE_OFF(uar_page, cq_db), 8, idle,
					    mlx5v_sim_uar_db, u);
		if (ret == 0)
			ret = hwsim_mmio_watch_idle(u->pg,
						    MLX5V_IFC_BYTE_OFF(uar_page, eq_db_noarm), 4,
						    idle, mlx5v_sim_uar_db, u);
		if (ret == 0)
			ret = hwsim_mmio_watch_idle(u->pg, MLX5V_IFC_BYTE_OFF(uar_page, eq_db_arm),
						    4, idle, mlx5v_sim_uar_db, u);
		/*
		 * The SQ doorbell: both halves of each BlueFlame register of 2^log_bf_reg_size
		 * bytes, and the words between, where a store is refused (prm/mlx5_eth §6.6).
		 */
		for (off = RTE_PMD_MLX5V_UAR_BF_OFF; off < HWSIM_MMIO_PAGE_SIZE && ret == 0;
		     off += MLX5V_SIM_BF_WATCH)
			ret = hwsim_mmio_watch(u->pg, off, 8, mlx5v_sim_uar_db, u);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/* Unlink and free the alias *pa points to. alias_lock held. */
static void
mlx5v_sim_uar_alias_free(struct mlx5v_sim_uar *u, struct mlx5v_sim_uar_alias **pa)
{
	struct mlx5v_sim_uar_alias *a = *pa;

	*pa = a->next;
	hwsim_mmio_page_free(a->pg);
	free(a);
	__atomic_store_n(&u->nb_alias, u->nb_alias - 1, __ATOMIC_RELEASE);
}

void
mlx5v_sim_uars_fini(struct mlx5v_sim *sim)
{
	struct mlx5v_sim_uar *u;
	unsigned int i;

	for (i = 0; i < MLX5V_SIM_NUM_UARS; i++) {
		u = &sim->uar[i];
		/* A process that still maps an alias keeps its memory, which nothing watches. */
		while (u->alias != NULL)
			mlx5v_sim_uar_alias_free(u, &u->alias);
		pthread_mutex_destroy(&u->alias_lock);
		hwsim_mmio_page_free(u->pg);
		u->pg = NULL;
	}
}

/*
 * Each pass over the doorbell pages has a number, kept per thread because the
 * engine and a driver thread (db_notify) may both run a pass.
 */
static uint64_t mlx5v_sim_db_pass_next;
static __thread uint64_t mlx5v_sim_db_pass_cur;

uint64_t
mlx5v_sim_db_pass(void)
{
	return mlx5v_sim_db_pass_cur;
}

/* Start a doorbell pass of the calling thread. */
static void
mlx5v_sim_db_pass_start(void)
{
	mlx5v_sim_db_pass_cur = __atomic_add_fetch(&mlx5v_sim_db_pass_next, 1, __ATOMIC_RELAXED);
}

/* The UAR's aliases, if any: another process's doorbells since the last pass. */
static int
mlx5v_sim_uar_alias_poll(struct mlx5v_sim_uar *u)
{
	struct mlx5v_sim_uar_alias *a;
	int n = 0;

	/* Acquire: an alias counted is linked; one lent during this pass waits for the next. */
	if (__atomic_load_n(&u->nb_alias, __ATOMIC_ACQUIRE) == 0)
		return 0;
	pthread_mutex_lock(&u->alias_lock);
	for (a = u->alias; a != NULL; a = a->next)
		n += hwsim_mmio_poll(a->pg);
	pthread_mutex_unlock(&u->alias_lock);
	return n;
}

int
mlx5v_sim_uars_poll(struct mlx5v_sim *sim)
{
	unsigned int i;
	int n = 0;

	mlx5v_sim_db_pass_start();
	for (i = 0; i < MLX5V_SIM_NUM_UARS; i++) {
		n += hwsim_mmio_poll(sim->uar[i].pg);
		n += mlx5v_sim_uar_alias_poll(&sim->uar[i]);
	}
	return n;
}

void
mlx5v_sim_uar_end(struct mlx5v_sim_uar *u)
{
	u->allocated = 0;
	/* Relaxed: a sweep that reads the old life only keeps an alias one lend longer. */
	__atomic_add_fetch(&u->life, 1, __ATOMIC_RELAXED);
}

/*
 * Free the UAR's aliases no process maps any more, after a last look at their doorbells;
 * keep those mapped, and those never mapped for the grace period (their fd may be on its
 * way), unless lent in an earlier life of the UAR: the PMD allocates the port's UAR at a
 * start and frees it at the stop, and has told the secondaries of the start before the
 * stop, so no process is still to map those.
 */
static void
mlx5v_sim_uar_alias_sweep(struct mlx5v_sim_uar *u, uint64_t now)
{
	uint32_t life = __atomic_load_n(&u->life, __ATOMIC_RELAXED);
	struct mlx5v_sim_uar_alias **pa;
	int ret;

	if (__atomic_load_n(&u->nb_alias, __ATOMIC_ACQUIRE) == 0)
		return;
	pthread_mutex_lock(&u->alias_lock);
	mlx5v_sim_db_pass_start();
	pa = &u->alias;
	while (*pa != NULL) {
		hwsim_mmio_poll((*pa)->pg);
		ret = hwsim_mmio_page_retire((*pa)->pg, (*pa)->life != life ||
					     now - (*pa)->lent_ns > MLX5V_SIM_UAR_LEND_GRACE_NS);
		if (ret == -EBUSY || ret == -EAGAIN)
			pa = &(*pa)->next;
		else
			mlx5v_sim_uar_alias_free(u, pa);
	}
	pthread_mutex_unlock(&u->alias_lock);
}

unsigned int
mlx5v_sim_uar_aliases(struct mlx5v_sim *sim, uint32_t idx)
{
	if (idx < MLX5V_UAR_FIRST_INDEX || idx >= MLX5V_UAR_FIRST_INDEX + MLX5V_SIM_NUM_UARS)
		return 0;
	return __atomic_load_n(&sim->uar[idx - MLX5V_UAR_FIRST_INDEX].nb_alias,
			       __ATOMIC_ACQUIRE);
}

static uint32_t
mlx5v_sim_hw_reg_rd32(struct mlx5v_hw *hw, uint32_t off)
{
	struct mlx5v_sim *sim = mlx5v_to_sim(hw);

	/* A dead PCI link reads all ones (prm/mlx5_eth §4.3 sensor 1). */
	if (__atomic_load_n(&sim->pci_offline, __ATOMIC_RELAXED))
		return UINT32_MAX;
	return mlx5v_sim_iseg_read(sim, off);
}

static void
mlx5v_sim_hw_reg_wr32(struct mlx5v_hw *hw, uint32_t off, uint32_t val)
{
	struct mlx5v_sim *sim = mlx5v_to_sim(hw);

	/* Writes to a device without a link are dropped, as posted PCIe writes are. */
	if (__atomic_load_n(&sim->pci_offline, __ATOMIC_RELAXED))
		return;
	/* Trap-style: the register takes effect before the store "returns". */
	mlx5v_sim_iseg_write(sim, off, val);
}

static void *
mlx5v_sim_hw_uar_addr(struct mlx5v_hw *hw, uint64_t off)
{
	struct mlx5v_sim *sim = mlx5v_to_sim(hw);
	uint32_t size = __atomic_load_n(&sim->uar_size, __ATOMIC_RELAXED);
	uint64_t idx = off / size;

	/*
	 * The BAR as the host maps it: UAR n starts at n * size, size from SET_HCA_CAP (4 KiB with
	 * uar_4k, else host_page). Another offset lands inside some UAR page, where a doorbell
	 * would hit the wrong words: a driver that scales indices wrongly is caught here
	 * (prm/mlx5_eth §8).
	 */
	if (off % size != 0) {
		SIM_LOG(WARNING, "%s: UAR address at BAR0 + 0x%" PRIx64 " is not on a %u-byte UAR "
			"page boundary (driver bug)", sim->name, off, size);
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_DB_MISUSE);
		return NULL;
	}
	/* Pages 0-2 are the init segment, reached through reg_rd32/reg_wr32 only. */
	if (idx < MLX5V_UAR_FIRST_INDEX || idx >= MLX5V_UAR_FIRST_INDEX + MLX5V_SIM_NUM_UARS)
		return NULL;
	return hwsim_mmio_page_addr(sim->uar[idx - MLX5V_UAR_FIRST_INDEX].pg);
}

/*
 * The UAR page as another process of the application maps it: a new alias of the page (see
 * MLX5V_SIM_UAR_LEND_GRACE_NS), so that its stores never meet this process's, or another
 * one's, in one word before the engine takes them, as every store through any mapping of a
 * BAR reaches the device. The aliases no process maps any more go first.
 */
static int
mlx5v_sim_hw_uar_fd(struct mlx5v_hw *hw, uint64_t off)
{
	struct mlx5v_sim *sim = mlx5v_to_sim(hw);
	uint64_t now = hwsim_now_ns();
	struct mlx5v_sim_uar_alias *a;
	struct mlx5v_sim_uar *u;
	unsigned int i;
	int ret;

	if (mlx5v_sim_hw_uar_addr(hw, off) == NULL)
		return -EINVAL;
	off /= __atomic_load_n(&sim->uar_size, __ATOMIC_RELAXED);
	u = &sim->uar[off - MLX5V_UAR_FIRST_INDEX];
	/* Every UAR's: those of a UAR freed at a port's stop are lent no more. */
	for (i = 0; i < MLX5V_SIM_NUM_UARS; i++)
		mlx5v_sim_uar_alias_sweep(&sim->uar[i], now);
	a = calloc(1, sizeof(*a));
	if (a == NULL)
		return -ENOMEM;
	pthread_mutex_lock(&u->alias_lock);
	if (u->nb_alias >= MLX5V_SIM_UAR_MAX_ALIASES) {
		SIM_LOG(ERR, "%s: UAR %u is lent to %u processes that still map it", sim->name,
			u->index, u->nb_alias);
		ret = -ENOSPC;
		goto err_unlock;
	}
	a->pg = hwsim_mmio_page_alias(u->pg);
	if (a->pg == NULL) {
		ret = -rte_errno;
		goto err_unlock;
	}
	a->lent_ns = now;
	a->life = __atomic_load_n(&u->life, __ATOMIC_RELAXED);
	a->next = u->alias;
	u->alias = a;
	/* Release: a pass that counts the alias finds it linked. */
	__atomic_store_n(&u->nb_alias, u->nb_alias + 1, __ATOMIC_RELEASE);
	ret = hwsim_mmio_page_fd(a->pg);
	pthread_mutex_unlock(&u->alias_lock);
	return ret;

err_unlock:
	pthread_mutex_unlock(&u->alias_lock);
	free(a);
	return ret;
}

/*
 * The IOMMU rule of doc/guides/sim/mlx5v_sim.rst ("IOMMU"): a window is accepted only if
 * every 4 KiB page of it is in the container (EAL memory, or external memory mapped by
 * container_map) and IOVA-contiguous as EAL reports it, page by page. Under --no-huge IOVA
 * is VA and any EAL buffer passes; with --iova-mode=pa a buffer across two hugepages that
 * are not physically adjacent is an IOMMU fault, as the device would see on silicon.
 */
static int
mlx5v_sim_hw_dma_map(struct mlx5v_hw *hw, void *va, size_t len, uint64_t *iova)
{
	struct mlx5v_sim *sim = mlx5v_to_sim(hw);

	/* Fault knob: an IOMMU that has no room left for the mapping (VFIO gives ENOMEM). */
	if (hwsim_knob_take(sim->knobs, MLX5V_SIM_K_FAIL_DMA_MAP))
		return -ENOMEM;
	return hwsim_dma_map_eal(sim->dma, va, len, iova);
}

static int
mlx5v_sim_hw_dma_unmap(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len)
{
	/* The model's IOMMU is keyed by IOVA; va only matters to a VFIO backend. */
	RTE_SET_USED(va);
	return hwsim_dma_unmap(mlx5v_to_sim(hw)->dma, iova, len);
}

/* External memory into the model's container, as rte_dev_dma_map() does on VFIO. */
static int
mlx5v_sim_hw_container_map(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len)
{
	return hwsim_dma_container_map(mlx5v_to_sim(hw)->dma, va, iova, len);
}

static int
mlx5v_sim_hw_container_unmap(struct mlx5v_hw *hw, void *va, uint64_t iova, size_t len)
{
	RTE_SET_USED(iova);
	return hwsim_dma_container_unmap(mlx5v_to_sim(hw)->dma, va, len);
}

static int
mlx5v_sim_hw_irq_info(struct mlx5v_hw *hw, struct mlx5v_hw_irq_info *info)
{
	struct mlx5v_sim *sim = mlx5v_to_sim(hw);

	info->count = hwsim_irq_count(sim->irq);
	info->flags = (mlx5v_sim_knob(sim, MLX5V_SIM_K_MSIX_NO_EVENTFD) ? 0 :
		       MLX5V_HW_IRQ_EVENTFD) |
		      (mlx5v_sim_knob(sim, MLX5V_SIM_K_MSIX_NORESIZE) ? MLX5V_HW_IRQ_NORESIZE : 0);
	return 0;
}

/*
 * VFIO_DEVICE_SET_IRQS on the MSI-X index as vfio-pci answers it
 * (doc/guides/sim/mlx5v_sim.rst, "MSI-X"): with MSI-X off, eventfds for start .. start +
 * count - 1 enable vectors 0 .. start + count - 1, and the host must find that many
 * interrupt vectors (msix_host_vectors); with MSI-X on, a vector beyond the enabled ones is
 * added only without msix_noresize; count 0 switches MSI-X off. Refusals are counted.
 */
static int
mlx5v_sim_hw_irq_set(struct mlx5v_hw *hw, unsigned int start, unsigned int count,
		     const int *fds)
{
	struct mlx5v_sim *sim = mlx5v_to_sim(hw);
	unsigned int host = mlx5v_sim_knob(sim, MLX5V_SIM_K_MSIX_HOST_VECTORS);
	unsigned int nvec = hwsim_irq_count(sim->irq);
	unsigned int end = start + count;
	unsigned int v;
	int ret = 0;

	pthread_mutex_lock(&sim->lock);
	if (count == 0) {
		for (v = 0; v < sim->msix_on; v++)
			hwsim_irq_attach(sim->irq, v, -1);
		sim->msix_on = 0;
		goto out;
	}
	if (fds == NULL || start >= nvec || count > nvec - start) {
		SIM_LOG(ERR, "%s: SET_IRQS of vectors %u..%u: the function has %u", sim->name,
			start, end - 1, nvec);
		ret = -EINVAL;
	} else if (mlx5v_sim_knob(sim, MLX5V_SIM_K_MSIX_NO_EVENTFD)) {
		SIM_LOG(ERR, "%s: SET_IRQS with eventfds, which the IRQ info does not offer",
			sim->name);
		ret = -EINVAL;
	} else if (sim->msix_on > 0 && end > sim->msix_on &&
		   mlx5v_sim_knob(sim, MLX5V_SIM_K_MSIX_NORESIZE)) {
		SIM_LOG(ERR, "%s: SET_IRQS adds vectors %u..%u to %u enabled under NORESIZE",
			sim->name, sim->msix_on, end - 1, sim->msix_on);
		ret = -EINVAL;
	} else if (host != 0 && end > host) {
		SIM_LOG(ERR, "%s: SET_IRQS wants %u vectors, the host has %u for the function",
			sim->name, RTE_MAX(end, sim->msix_on), host);
		ret = -ENOSPC;
	}
	if (ret < 0) {
		mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_MSIX_BAD_ENABLE);
		goto out;
	}
	for (v = 0; v < count; v++)
		hwsim_irq_attach(sim->irq, start + v, fds[v] >= 0 ? fds[v] : -1);
	sim->msix_on = RTE_MAX(sim->msix_on, end);
	sim->msix_on_max = RTE_MAX(sim->msix_on_max, sim->msix_on);
out:
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

static int
mlx5v_sim_hw_bus_enable(struct mlx5v_hw *hw)
{
	struct mlx5v_sim *sim = mlx5v_to_sim(hw);

	pthread_mutex_lock(&sim->lock);
	/*
	 * prm/mlx5_eth §2.1 step 4, recorded only. Deviation: the model does not gate DMA on bus
	 * mastering, so a driver that skips this step is not caught here.
	 */
	sim->bus_enabled = 1;
	pthread_mutex_unlock(&sim->lock);
	return 0;
}

static void
mlx5v_sim_hw_db_notify(struct mlx5v_hw *hw)
{
	/*
	 * A doorbell rung through the seam takes effect at once, as a trapped MMIO
	 * write would: the page is consumed in the writer's thread, so two doorbells
	 * written back to back (even by two EQs sharing a UAR page) are both seen.
	 * Stores that bypass the seam are found by the engine's next pass.
	 */
	mlx5v_sim_uars_poll(mlx5v_to_sim(hw));
}

/* The vdev's VFIO_DEVICE_RESET: the model resets in place (mlx5v_sim_reset.c). */
static int
mlx5v_sim_hw_func_reset(struct mlx5v_hw *hw)
{
	return mlx5v_sim_func_reset(mlx5v_to_sim(hw));
}

const struct mlx5v_hw_ops mlx5v_sim_hw_ops = {
	.reg_rd32 = mlx5v_sim_hw_reg_rd32,
	.reg_wr32 = mlx5v_sim_hw_reg_wr32,
	.uar_addr = mlx5v_sim_hw_uar_addr,
	.dma_map = mlx5v_sim_hw_dma_map,
	.dma_unmap = mlx5v_sim_hw_dma_unmap,
	.container_map = mlx5v_sim_hw_container_map,
	.container_unmap = mlx5v_sim_hw_container_unmap,
	.irq_info = mlx5v_sim_hw_irq_info,
	.irq_set = mlx5v_sim_hw_irq_set,
	.bus_enable = mlx5v_sim_hw_bus_enable,
	.db_notify = mlx5v_sim_hw_db_notify,
	.func_reset = mlx5v_sim_hw_func_reset,
	.uar_fd = mlx5v_sim_hw_uar_fd,
};
