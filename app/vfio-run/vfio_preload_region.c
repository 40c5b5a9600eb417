/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The preload's regions of an emulated function: BAR0 mapped onto the model's pages
 * and the config space read and written through the device fd
 * (doc/guides/platform/vfio_emulation.rst, "VFIO", "BAR0 as memory").
 */

/*
 * Both the plain and the 64 names are interposed, so the headers must not alias one to the
 * other (meson builds with _FILE_OFFSET_BITS=64; off_t is 64 bits on LP64 either way).
 */
#undef _FILE_OFFSET_BITS

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/vfio.h>

#include <rte_common.h>

#include "emu_path.h"
#include "mlx5v_sim.h"
#include "vfio_preload.h"

static void
vfio_dev_cfg16(uint8_t *cfg, unsigned int off, uint16_t v)
{
	cfg[off] = v & 0xff;
	cfg[off + 1] = v >> 8;
}

static void
vfio_dev_cfg32(uint8_t *cfg, unsigned int off, uint32_t v)
{
	vfio_dev_cfg16(cfg, off, v & 0xffff);
	vfio_dev_cfg16(cfg, off + 2, v >> 16);
}

void
vfio_dev_cfg_init(struct vfio_dev_fn *fn)
{
	uint8_t *cfg = fn->cfg;

	memset(cfg, 0, sizeof(fn->cfg));
	vfio_dev_cfg16(cfg, 0x00, VFIO_RUN_VENDOR);
	vfio_dev_cfg16(cfg, 0x02, fn->d->device_id);
	vfio_dev_cfg16(cfg, 0x06, 0x0010);              /* status: capability list */
	vfio_dev_cfg32(cfg, 0x08, VFIO_RUN_CLASS << 8); /* class, revision 0 */
	vfio_dev_cfg32(cfg, 0x10, 0xe000000c);          /* BAR0: 64-bit, prefetchable */
	vfio_dev_cfg16(cfg, 0x2c, VFIO_RUN_VENDOR);
	vfio_dev_cfg16(cfg, 0x2e, 0x0007);
	cfg[0x34] = VFIO_DEV_CAP_PCIE;
	cfg[0x3d] = 1;                                  /* INTA */
	cfg[VFIO_DEV_CAP_PCIE] = 0x10;
	cfg[VFIO_DEV_CAP_PCIE + 1] = VFIO_DEV_CAP_MSIX;
	vfio_dev_cfg16(cfg, VFIO_DEV_CAP_PCIE + 2, 0x0002); /* version 2, endpoint */
	/* Device capabilities: function level reset supported (bit 28). */
	vfio_dev_cfg32(cfg, VFIO_DEV_CAP_PCIE + 4, 1u << 28);
	cfg[VFIO_DEV_CAP_MSIX] = 0x11;
	cfg[VFIO_DEV_CAP_MSIX + 1] = 0;
	vfio_dev_cfg16(cfg, VFIO_DEV_CAP_MSIX + 2, (uint16_t)(fn->d->msix - 1));
	vfio_dev_cfg32(cfg, VFIO_DEV_CAP_MSIX + 4, VFIO_DEV_MSIX_TABLE);
	vfio_dev_cfg32(cfg, VFIO_DEV_CAP_MSIX + 8, VFIO_DEV_MSIX_PBA);
}

void
vfio_dev_cfg_msix(struct vfio_dev_fn *fn, int on)
{
	uint16_t ctl = fn->cfg[VFIO_DEV_CAP_MSIX + 2] | (fn->cfg[VFIO_DEV_CAP_MSIX + 3] << 8);

	/* Bit 15 of Message Control: MSI-X enable. */
	vfio_dev_cfg16(fn->cfg, VFIO_DEV_CAP_MSIX + 2, on ? ctl | 0x8000 : ctl & ~0x8000);
}

int
vfio_dev_map_pages(struct vfio_dev_fn *fn, struct vfio_dev_bar *b)
{
	struct mlx5v_sim_bar_page pages[MLX5V_SIM_BAR_PAGES];
	int prot = b->prot;
	int n, i;

	if (fn->remote != NULL) {
		/*
		 * The pages of the model another process hosts: shared memory its engine polls;
		 * a trapped store waits for that engine over the store channel.
		 */
		n = (int)RTE_MIN(fn->remote->nb_fds, RTE_DIM(pages));
		for (i = 0; i < n; i++) {
			pages[i].bar_off = fn->remote->off[i];
			pages[i].fd = fn->remote->fd[i];
		}
	} else {
		n = mlx5v_sim_bar_export(fn->sim, pages, RTE_DIM(pages));
	}
	if (n < 0) {
		VFIO_RUN_LOG("%s: BAR0 cannot be mapped: %s", fn->d->bdf, strerror(-n));
		return n;
	}
	/* Stores to the model's pages are trapped one by one where the architecture allows. */
	if ((prot & PROT_WRITE) && fn->sim != NULL &&
	    vfio_preload_trap_add(b->base, b->len, fn->sim) == 0)
		prot &= ~PROT_WRITE;
	else if ((prot & PROT_WRITE) && fn->remote != NULL && fn->conn >= 0 &&
		 vfio_preload_trap_add_remote(b->base, b->len, fn->conn) == 0)
		prot &= ~PROT_WRITE;
	for (i = 0; i < n; i++) {
		if (pages[i].bar_off < b->off || pages[i].bar_off >= b->off + b->len)
			continue;
		if (mmap(b->base + (pages[i].bar_off - b->off), VFIO_DEV_PAGE, prot,
			 MAP_SHARED | MAP_FIXED, pages[i].fd, 0) == MAP_FAILED) {
			vfio_preload_trap_del(b->base);
			return -errno;
		}
	}
	return 0;
}

static void *
vfio_dev_map_bar(struct vfio_dev_fn *fn, void *addr, size_t len, int prot, int flags,
		 uint64_t off)
{
	struct vfio_dev_bar *b = NULL;
	unsigned int i;
	int ret;

	if (off % VFIO_DEV_PAGE != 0 || len == 0 || off + len > MLX5V_SIM_BAR0_SIZE) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	for (i = 0; i < VFIO_DEV_MAX_BAR_MAPS && b == NULL; i++)
		if (fn->bar[i].base == NULL)
			b = &fn->bar[i];
	if (b == NULL) {
		VFIO_RUN_LOG("%s: more than %d BAR0 mappings (ENOMEM)", fn->d->bdf,
			     VFIO_DEV_MAX_BAR_MAPS);
		errno = ENOMEM;
		return MAP_FAILED;
	}
	/* The whole range first, a hole where the model has no page, then its pages over it. */
	b->base = mmap(addr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | (flags & MAP_FIXED),
		       -1, 0);
	if (b->base == MAP_FAILED) {
		b->base = NULL;
		return MAP_FAILED;
	}
	b->len = len;
	b->off = off;
	b->prot = prot;
	ret = vfio_dev_map_pages(fn, b);
	if (ret != 0) {
		munmap(b->base, len);
		errno = -ret;
		return MAP_FAILED;
	}
	return b->base;
}

void
vfio_preload_dev_unmapped(void *addr, size_t len)
{
	uintptr_t a = (uintptr_t)addr;
	unsigned int i, j;

	pthread_mutex_lock(&vfio_dev_lock);
	for (i = 0; i < VFIO_RUN_MAX_DEVS; i++) {
		for (j = 0; j < VFIO_DEV_MAX_BAR_MAPS; j++) {
			struct vfio_dev_bar *b = &vfio_dev_fns[i].bar[j];

			if (b->base != NULL && a < (uintptr_t)b->base + b->len &&
			    (uintptr_t)b->base < a + len)
				b->base = NULL;
		}
	}
	pthread_mutex_unlock(&vfio_dev_lock);
}

#define VFIO_PRELOAD_MMAP(name) \
void * \
name(void *addr, size_t len, int prot, int flags, int fd, off_t off) \
{ \
	static void *(*real)(void *, size_t, int, int, int, off_t); \
	struct vfio_dev_fd *f; \
	void *r; \
	pthread_mutex_lock(&vfio_dev_lock); \
	f = vfio_dev_find(fd); \
	if (f == NULL) { \
		pthread_mutex_unlock(&vfio_dev_lock); \
		if (real == NULL) \
			real = (void *(*)(void *, size_t, int, int, int, off_t)) \
				emu_path_next(#name); \
		return real(addr, len, prot, flags, fd, off); \
	} \
	if (f->kind != VFIO_DEV_DEVICE || (uint64_t)off >= VFIO_DEV_REGION_OFF(1)) { \
		VFIO_RUN_LOG("mmap of fd %d offset 0x%llx not emulated (EINVAL)", fd, \
			     (unsigned long long)off); \
		errno = EINVAL; \
		r = MAP_FAILED; \
	} else { \
		r = vfio_dev_map_bar(f->fn, addr, len, prot, flags, off); \
	} \
	pthread_mutex_unlock(&vfio_dev_lock); \
	VFIO_DEV_TRACE("mmap(fd %d, 0x%zx @ 0x%llx) -> %p", fd, len, \
		       (unsigned long long)off, r); \
	return r; \
}

VFIO_PRELOAD_MMAP(mmap)
VFIO_PRELOAD_MMAP(mmap64)

/* The config space; @return bytes or -errno. */
static ssize_t
vfio_dev_cfg_rw(struct vfio_dev_fn *fn, void *buf, size_t len, uint64_t off, int wr)
{
	uint64_t base = VFIO_DEV_REGION_OFF(VFIO_PCI_CONFIG_REGION_INDEX);
	uint64_t o;
	uint16_t cmd;

	if (off < base || off - base >= VFIO_DEV_CFG_SIZE) {
		VFIO_RUN_LOG("%s: %s at region offset 0x%llx not emulated (EINVAL)", fn->d->bdf,
			     wr ? "pwrite" : "pread", (unsigned long long)off);
		return -EINVAL;
	}
	o = off - base;
	if (len > VFIO_DEV_CFG_SIZE - o)
		len = VFIO_DEV_CFG_SIZE - o;
	if (!wr) {
		memcpy(buf, fn->cfg + o, len);
		return len;
	}
	/* The command register: memory space and bus mastering (prm/mlx5 §2.1 step 4). */
	if (o == 0x04 && len >= 2) {
		memcpy(&cmd, buf, 2);
		vfio_dev_cfg16(fn->cfg, 0x04, cmd & 0x0546);
		/* The host's model took its own host's enable (its PCI state is not shared). */
		if ((cmd & 0x6) == 0x6 && fn->sim != NULL)
			mlx5v_sim_hw_ops.bus_enable(&fn->hw);
		return len;
	}
	/* vfio-pci virtualises the rest; writes elsewhere are dropped, and named. */
	VFIO_RUN_LOG("%s: config write of %zu bytes at 0x%llx ignored", fn->d->bdf, len,
		     (unsigned long long)o);
	return len;
}

#define VFIO_PRELOAD_PRW(name, T, wr) \
ssize_t \
name(int fd, T buf, size_t len, off_t off) \
{ \
	static ssize_t (*real)(int, T, size_t, off_t); \
	struct vfio_dev_fd *f; \
	ssize_t r; \
	pthread_mutex_lock(&vfio_dev_lock); \
	f = vfio_dev_find(fd); \
	if (f == NULL) { \
		pthread_mutex_unlock(&vfio_dev_lock); \
		if (real == NULL) \
			real = (ssize_t (*)(int, T, size_t, off_t))emu_path_next(#name); \
		return real(fd, buf, len, off); \
	} \
	if (f->kind != VFIO_DEV_DEVICE) { \
		VFIO_RUN_LOG("%s on a VFIO %s fd not emulated (EINVAL)", #name, \
			     f->kind == VFIO_DEV_GROUP ? "group" : "container"); \
		r = -EINVAL; \
	} else { \
		r = vfio_dev_cfg_rw(f->fn, (void *)(uintptr_t)buf, len, off, wr); \
	} \
	pthread_mutex_unlock(&vfio_dev_lock); \
	if (r < 0) { \
		errno = -r; \
		return -1; \
	} \
	return r; \
}

/* The fortified forms (_FORTIFY_SOURCE): rdma-core's libmlx5 calls __pread_chk. */
#define VFIO_PRELOAD_PREAD_CHK(name, plain) \
ssize_t \
name(int fd, void *buf, size_t len, off_t off, size_t buflen) \
{ \
	static ssize_t (*real)(int, void *, size_t, off_t, size_t); \
	if (len > buflen) \
		abort(); \
	if (vfio_preload_dev_is(fd)) \
		return plain(fd, buf, len, off); \
	if (real == NULL) \
		real = (ssize_t (*)(int, void *, size_t, off_t, size_t))emu_path_next(#name); \
	return real(fd, buf, len, off, buflen); \
}

VFIO_PRELOAD_PRW(pread, void *, 0)
VFIO_PRELOAD_PRW(pread64, void *, 0)
VFIO_PRELOAD_PRW(pwrite, const void *, 1)
VFIO_PRELOAD_PRW(pwrite64, const void *, 1)
VFIO_PRELOAD_PREAD_CHK(__pread_chk, pread)
VFIO_PRELOAD_PREAD_CHK(__pread64_chk, pread64)
