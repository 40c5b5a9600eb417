/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The preload's VFIO character devices: the type1 container, the groups and the device
 * fds of the emulated functions, each backed by an mlx5v_sim model created on first use
 * (doc/guides/platform/vfio_emulation.rst, "VFIO").
 */

/*
 * Both the plain and the 64 names are interposed, so the headers must not alias one to the
 * other (meson builds with _FILE_OFFSET_BITS=64; off_t is 64 bits on LP64 either way).
 */
#undef _FILE_OFFSET_BITS

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/vfio.h>

#include <rte_errno.h>
#include <rte_log.h>

#include "mlx5v_hw.h"
#include "emu_path.h"
#include "mlx5v_sim.h"
#include "vfio_preload.h"

struct vfio_dev_fn vfio_dev_fns[VFIO_RUN_MAX_DEVS];
static struct vfio_dev_fd vfio_dev_fds[VFIO_DEV_MAX_FDS];
static unsigned int vfio_dev_nb_fds;
/* Recursive: a model's log line may open a file (stderr is open; nothing else is). */
pthread_mutex_t vfio_dev_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

int
vfio_dev_trace_on(void)
{
	static int on = -1;

	if (on < 0)
		on = getenv(VFIO_RUN_ENV_TRACE) != NULL;
	return on;
}

struct vfio_dev_fd *
vfio_dev_find(int fd)
{
	unsigned int i;

	if (fd < 0)
		return NULL;
	for (i = 0; i < vfio_dev_nb_fds; i++)
		if (vfio_dev_fds[i].fd == fd)
			return &vfio_dev_fds[i];
	return NULL;
}

int
vfio_preload_dev_is(int fd)
{
	int r;

	pthread_mutex_lock(&vfio_dev_lock);
	r = vfio_dev_find(fd) != NULL;
	pthread_mutex_unlock(&vfio_dev_lock);
	return r;
}

struct vfio_dev_fd *
vfio_dev_add_fd(int fd, enum vfio_dev_kind kind)
{
	struct vfio_dev_fd *f = NULL;
	unsigned int i;

	for (i = 0; i < vfio_dev_nb_fds; i++)
		if (vfio_dev_fds[i].fd < 0)
			break;
	if (i == VFIO_DEV_MAX_FDS) {
		errno = EMFILE;
		return NULL;
	}
	if (i == vfio_dev_nb_fds)
		vfio_dev_nb_fds++;
	f = &vfio_dev_fds[i];
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->kind = kind;
	return f;
}

/* A real fd to stand for the node: a memfd, so poll() and fstat() work on it. */
struct vfio_dev_fd *
vfio_dev_new_fd(enum vfio_dev_kind kind, const char *name)
{
	struct vfio_dev_fd *f;
	int fd;

	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	f = vfio_dev_add_fd(fd, kind);
	if (f == NULL)
		close(fd);
	return f;
}

int
vfio_preload_dev_open(int group)
{
	struct vfio_run_dev *devs;
	char name[32];
	struct vfio_dev_fd *f;
	unsigned int n, i;
	int fd = -1;

	devs = vfio_preload_devs(&n);
	pthread_mutex_lock(&vfio_dev_lock);
	if (group < 0) {
		f = vfio_dev_new_fd(VFIO_DEV_CONTAINER, VFIO_DEV_CONTAINER_MEMFD);
		if (f == NULL)
			goto out;
		f->c = calloc(1, sizeof(*f->c));
		if (f->c == NULL) {
			close(f->fd);
			f->fd = -1;
			errno = ENOMEM;
			goto out;
		}
		fd = f->fd;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (devs[i].group == (unsigned int)group)
			break;
	if (i == n) {
		VFIO_RUN_LOG("/dev/vfio/%d: no such IOMMU group (ENOENT)", group);
		errno = ENOENT;
		goto out;
	}
	/* One open group fd at a time, as the kernel's vfio (EBUSY otherwise). */
	for (n = 0; n < vfio_dev_nb_fds; n++) {
		if (vfio_dev_fds[n].fd >= 0 && vfio_dev_fds[n].kind == VFIO_DEV_GROUP &&
		    vfio_dev_fds[n].fn == &vfio_dev_fns[i]) {
			VFIO_RUN_LOG("/dev/vfio/%d: already open (EBUSY)", group);
			errno = EBUSY;
			goto out;
		}
	}
	/* Named after its group: a process that receives the fd knows it by the name. */
	snprintf(name, sizeof(name), VFIO_DEV_GROUP_MEMFD "%u", devs[i].group);
	f = vfio_dev_new_fd(VFIO_DEV_GROUP, name);
	if (f == NULL)
		goto out;
	f->fn = &vfio_dev_fns[i];
	f->fn->d = &devs[i];
	fd = f->fd;
out:
	pthread_mutex_unlock(&vfio_dev_lock);
	VFIO_DEV_TRACE("open /dev/vfio/%s%.0d -> %d", group < 0 ? "vfio" : "", group < 0 ? 0 :
		       group, fd);
	return fd;
}

/* ---- Container ---- */

/* Map one window into a model's IOMMU. */
static int
vfio_dev_win_apply(struct vfio_dev_fn *fn, const struct vfio_dev_win *w)
{
	if (fn->sim == NULL)
		return 0;
	return mlx5v_sim_iommu_map(fn->sim, w->iova, w->va, w->size);
}

static int
vfio_dev_map_dma(struct vfio_dev_container *c, struct vfio_iommu_type1_dma_map *m)
{
	struct vfio_dev_win *w;
	unsigned int i, j;
	int ret = 0;

	if (!c->iommu_set)
		return -EINVAL;
	if (m->argsz < sizeof(*m) || m->size == 0 || m->size % VFIO_DEV_PAGE != 0 ||
	    m->iova % VFIO_DEV_PAGE != 0 || m->vaddr % VFIO_DEV_PAGE != 0 ||
	    m->iova + m->size < m->iova)
		return -EINVAL;
	for (i = 0; i < c->nb_win; i++)
		if (m->iova < c->win[i].iova + c->win[i].size &&
		    c->win[i].iova < m->iova + m->size)
			return -EEXIST;
	/* vfio_iommu_type1 counts its mappings against dma_entry_limit: ENOSPC beyond. */
	if (c->nb_win >= vfio_preload_dma_limit() || c->nb_win == VFIO_DEV_MAX_WIN)
		return -ENOSPC;
	if (c->nb_win % 64 == 0) {
		w = realloc(c->win, (c->nb_win + 64) * sizeof(*w));
		if (w == NULL)
			return -ENOMEM;
		c->win = w;
	}
	w = &c->win[c->nb_win];
	w->iova = m->iova;
	w->size = m->size;
	w->va = (void *)(uintptr_t)m->vaddr;
	for (j = 0; j < VFIO_RUN_MAX_DEVS && ret == 0; j++)
		if (vfio_dev_fns[j].c == c)
			ret = vfio_dev_win_apply(&vfio_dev_fns[j], w);
	if (ret != 0) {
		/* Undo the models that took it. */
		for (i = 0; i < j - 1; i++)
			if (vfio_dev_fns[i].c == c && vfio_dev_fns[i].sim != NULL)
				mlx5v_sim_iommu_unmap(vfio_dev_fns[i].sim, w->iova, w->size);
		return ret;
	}
	c->nb_win++;
	return 0;
}

static int
vfio_dev_unmap_dma(struct vfio_dev_container *c, struct vfio_iommu_type1_dma_unmap *u)
{
	uint64_t done = 0;
	unsigned int i, j;

	if (u->argsz < sizeof(*u) || u->flags != 0)
		return -EINVAL;
	/* type1 unmaps every window inside the range; one cut in two is refused. */
	for (i = 0; i < c->nb_win;) {
		struct vfio_dev_win *w = &c->win[i];

		if (w->iova >= u->iova && w->iova + w->size <= u->iova + u->size) {
			for (j = 0; j < VFIO_RUN_MAX_DEVS; j++)
				if (vfio_dev_fns[j].c == c && vfio_dev_fns[j].sim != NULL)
					mlx5v_sim_iommu_unmap(vfio_dev_fns[j].sim, w->iova,
							      w->size);
			done += w->size;
			*w = c->win[--c->nb_win];
			continue;
		}
		if (w->iova < u->iova + u->size && u->iova < w->iova + w->size)
			return -EINVAL;
		i++;
	}
	u->size = done;
	return 0;
}

/* The IOVA ranges an x86 IOMMU offers: all but the MSI window 0xfee00000-0xfeefffff. */
static int
vfio_dev_iommu_info(struct vfio_iommu_type1_info *info)
{
	struct vfio_iommu_type1_info_cap_iova_range *cap;
	size_t need = sizeof(*info) + sizeof(*cap) + 2 * sizeof(cap->iova_ranges[0]);

	if (info->argsz < sizeof(*info))
		return -EINVAL;
	info->flags = VFIO_IOMMU_INFO_PGSIZES;
	info->iova_pgsizes = 0x40201000ull;   /* 4 KiB, 2 MiB, 1 GiB */
	info->cap_offset = 0;
	/* A kernel before 5.4 has no capability chain: the user picks its own ranges. */
	if (getenv(VFIO_RUN_ENV_NO_IOVA_RANGE) != NULL)
		return 0;
	info->flags |= VFIO_IOMMU_INFO_CAPS;
	if (info->argsz < need) {
		/* Too small for the capability chain: say how much is needed. */
		info->argsz = need;
		return 0;
	}
	cap = (void *)(info + 1);
	memset(cap, 0, need - sizeof(*info));
	cap->header.id = VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE;
	cap->header.version = 1;
	cap->header.next = 0;
	cap->nr_iovas = 2;
	cap->iova_ranges[0].start = 0;
	cap->iova_ranges[0].end = 0xfedfffffull;
	cap->iova_ranges[1].start = 0xfef00000ull;
	cap->iova_ranges[1].end = (1ull << 48) - 1;
	info->cap_offset = sizeof(*info);
	return 0;
}

static int
vfio_dev_container_ioctl(struct vfio_dev_fd *f, unsigned long req, void *arg)
{
	struct vfio_iommu_type1_dma_unmap *u;
	struct vfio_iommu_type1_dma_map *m;
	struct vfio_dev_container *c = f->c;

	if (c->remote && (req == VFIO_IOMMU_MAP_DMA || req == VFIO_IOMMU_UNMAP_DMA)) {
		VFIO_RUN_LOG("container of another process: ioctl 0x%lx not emulated (EINVAL)",
			     req);
		return -EINVAL;
	}
	switch (req) {
	case VFIO_GET_API_VERSION:
		return VFIO_API_VERSION;
	case VFIO_CHECK_EXTENSION:
		return (uintptr_t)arg == VFIO_TYPE1_IOMMU || (uintptr_t)arg == VFIO_TYPE1v2_IOMMU;
	case VFIO_SET_IOMMU:
		/* The kernel needs a group in the container first. */
		if (c->nb_groups == 0 || c->iommu_set)
			return -EINVAL;
		if ((uintptr_t)arg != VFIO_TYPE1_IOMMU && (uintptr_t)arg != VFIO_TYPE1v2_IOMMU)
			return -EINVAL;
		c->iommu_set = 1;
		return 0;
	case VFIO_IOMMU_GET_INFO:
		if (!c->iommu_set)
			return -EINVAL;
		return vfio_dev_iommu_info(arg);
	case VFIO_IOMMU_MAP_DMA:
		m = arg;
		VFIO_DEV_TRACE("MAP_DMA iova 0x%llx size 0x%llx va 0x%llx",
			       (unsigned long long)m->iova, (unsigned long long)m->size,
			       (unsigned long long)m->vaddr);
		return vfio_dev_map_dma(c, arg);
	case VFIO_IOMMU_UNMAP_DMA:
		u = arg;
		VFIO_DEV_TRACE("UNMAP_DMA iova 0x%llx size 0x%llx", (unsigned long long)u->iova,
			       (unsigned long long)u->size);
		return vfio_dev_unmap_dma(c, arg);
	default:
		VFIO_RUN_LOG("container: ioctl 0x%lx not emulated (ENOTTY)", req);
		return -ENOTTY;
	}
}

/* ---- Group ---- */

/*
 * The group leaves its container. The model's IOMMU loses the container's windows; when
 * the last group leaves, type1 detaches: its mappings are gone and the container needs
 * VFIO_SET_IOMMU again (as EAL does when it attaches a device anew).
 */
static void
vfio_dev_group_detach(struct vfio_dev_fn *fn)
{
	struct vfio_dev_container *c = fn->c;
	unsigned int i;

	for (i = 0; i < c->nb_win && fn->sim != NULL; i++)
		mlx5v_sim_iommu_unmap(fn->sim, c->win[i].iova, c->win[i].size);
	fn->c = NULL;
	if (--c->nb_groups == 0) {
		c->nb_win = 0;
		c->iommu_set = 0;
	}
}

static int vfio_dev_device_open(struct vfio_dev_fn *fn);

static int
vfio_dev_group_ioctl(struct vfio_dev_fd *f, unsigned long req, void *arg)
{
	struct vfio_dev_fn *fn = f->fn;
	struct vfio_group_status *st = arg;
	struct vfio_dev_fd *cf;

	switch (req) {
	case VFIO_GROUP_GET_STATUS:
		if (st->argsz < sizeof(*st))
			return -EINVAL;
		st->flags = VFIO_GROUP_FLAGS_VIABLE |
			    (fn->c != NULL ? VFIO_GROUP_FLAGS_CONTAINER_SET : 0);
		return 0;
	case VFIO_GROUP_SET_CONTAINER:
		cf = vfio_dev_find(*(const int *)arg);
		if (cf == NULL || cf->kind != VFIO_DEV_CONTAINER)
			return -EBADF;
		if (fn->c != NULL)
			return -EINVAL;
		/* A second group joins only a container whose IOMMU is set (type1 rule). */
		if (cf->c->nb_groups > 0 && !cf->c->iommu_set)
			return -EINVAL;
		fn->c = cf->c;
		cf->c->nb_groups++;
		return 0;
	case VFIO_GROUP_UNSET_CONTAINER:
		if (fn->c == NULL || fn->dev_open > 0)
			return fn->c == NULL ? -EINVAL : -EBUSY;
		vfio_dev_group_detach(fn);
		return 0;
	case VFIO_GROUP_GET_DEVICE_FD:
		if (strcmp((const char *)arg, fn->d->bdf) != 0) {
			VFIO_RUN_LOG("group %u: no device '%s' (ENODEV)", fn->d->group,
				     (const char *)arg);
			return -ENODEV;
		}
		if (fn->c == NULL || !fn->c->iommu_set)
			return -EINVAL;
		return vfio_dev_device_open(fn);
	default:
		VFIO_RUN_LOG("group %u: ioctl 0x%lx not emulated (ENOTTY)", fn->d->group, req);
		return -ENOTTY;
	}
}

/* ---- Device ---- */

/* A new model for the function, the container's windows in its IOMMU. */
static struct mlx5v_sim *
vfio_dev_model_new(struct vfio_dev_fn *fn)
{
	struct mlx5v_sim_params p;
	struct vfio_run_dev *devs;
	struct mlx5v_sim *sim;
	unsigned int i, n;
	char name[32];

	/* Every function's model may be the peer of a wire=pair: the wire must know them. */
	devs = vfio_preload_devs(&n);
	vfio_run_devs_expect(devs, n);
	mlx5v_sim_params_default(&p);
	if (mlx5v_sim_params_parse(&p, fn->d->devargs) != 0) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* --trace: the model's own log lines too (every refused command, at INFO). */
	if (getenv(VFIO_RUN_ENV_TRACE) != NULL)
		rte_log_set_level_pattern("pmd.sim.*", RTE_LOG_DEBUG);
	snprintf(name, sizeof(name), VFIO_RUN_MODEL_PREFIX "%s", fn->d->bdf);
	sim = mlx5v_sim_create(name, &p);
	if (sim == NULL) {
		VFIO_RUN_LOG("%s: cannot create the model: %s", fn->d->bdf,
			     rte_strerror(rte_errno));
		return NULL;
	}
	for (i = 0; i < fn->c->nb_win; i++) {
		if (mlx5v_sim_iommu_map(sim, fn->c->win[i].iova, fn->c->win[i].va,
					fn->c->win[i].size) != 0) {
			mlx5v_sim_destroy(sim);
			rte_errno = EIO;
			return NULL;
		}
	}
	return sim;
}

/*
 * Destroy the function's model. A BAR mapping still there keeps the old pages, which no
 * engine watches now. The container's windows are the container's, not a leak of the
 * model: unmapped from it first.
 */
static void
vfio_dev_model_drop(struct vfio_dev_fn *fn)
{
	unsigned int i;

	if (fn->sim == NULL)
		return;
	vfio_preload_trap_del_sim(fn->sim);
	for (i = 0; fn->c != NULL && i < fn->c->nb_win; i++)
		mlx5v_sim_iommu_unmap(fn->sim, fn->c->win[i].iova, fn->c->win[i].size);
	mlx5v_sim_destroy(fn->sim);
	fn->sim = NULL;
}

/*
 * What only the process hosting the model does (its MSI-X triggers, a reset): refused and
 * named in the others (doc/guides/platform/vfio_emulation.rst, "Several processes").
 */
static int
vfio_dev_remote_refuse(struct vfio_dev_fn *fn, const char *what)
{
	VFIO_RUN_LOG("%s: %s in a process that does not host the model: not emulated (EINVAL)",
		     fn->d->bdf, what);
	return -EINVAL;
}

/* The function at its first open: reset, as vfio-pci's open resets it. */
static int
vfio_dev_model(struct vfio_dev_fn *fn)
{
	unsigned int v;
	int ret;

	vfio_dev_model_drop(fn);
	if (fn->irq_fd == NULL) {
		fn->irq_fd = malloc(fn->d->msix * sizeof(*fn->irq_fd));
		if (fn->irq_fd == NULL)
			return -ENOMEM;
	}
	for (v = 0; v < fn->d->msix; v++)
		fn->irq_fd[v] = -1;
	fn->irq_on = 0;
	memset(fn->bar, 0, sizeof(fn->bar));
	vfio_dev_cfg_init(fn);
	/* A model another process of the tree hosts is the function: no second one here. */
	vfio_dev_host_leave(fn);
	ret = fn->served ? -ENOENT : vfio_dev_host_join(fn);
	if (ret != -ENOENT)
		return ret;
	fn->sim = vfio_dev_model_new(fn);
	if (fn->sim == NULL)
		return -rte_errno;
	mlx5v_sim_hw_init(fn->sim, &fn->hw);
	ret = vfio_dev_host_serve(fn);
	if (ret == -EADDRINUSE) {
		/* Another process created it at the same time and hosts it: that one is used. */
		vfio_dev_model_drop(fn);
		ret = vfio_dev_host_join(fn);
	}
	return ret;
}

/*
 * VFIO_DEVICE_RESET, a function level reset: the model resets in place through its seam
 * (mlx5v_sim_func_reset(), which the reset_fail knob refuses). What vfio-pci keeps across it
 * stays: the container's windows, the MSI-X triggers, the config space
 * (pci_try_reset_function() saves and restores it) and the BAR. The BAR is the same pages
 * before and after, as a card's BAR is the same across an FLR: every mapping of it, in this
 * process and in the others of the tree (their doorbells), reaches the model after the reset.
 */
static int
vfio_dev_reset(struct vfio_dev_fn *fn)
{
	int ret;

	if (fn->remote != NULL)
		return vfio_dev_remote_refuse(fn, "VFIO_DEVICE_RESET");
	ret = mlx5v_sim_hw_ops.func_reset(&fn->hw);
	/* A refused reset (-EIO) is the model's to log. */
	if (ret != 0 && ret != -EIO)
		VFIO_RUN_LOG("%s: reset incomplete: %s", fn->d->bdf, strerror(-ret));
	return ret;
}

static int
vfio_dev_device_open(struct vfio_dev_fn *fn)
{
	struct vfio_dev_fd *f;
	int ret;

	/* The first open finds the function reset (vfio-pci resets it on open and release). */
	if (fn->dev_open == 0) {
		ret = vfio_dev_model(fn);
		if (ret != 0)
			return ret;
	}
	f = vfio_dev_new_fd(VFIO_DEV_DEVICE, "vfio-device");
	if (f == NULL)
		return -errno;
	f->fn = fn;
	fn->dev_open++;
	return f->fd;
}

static int
vfio_dev_region_info(struct vfio_dev_fn *fn, struct vfio_region_info *ri)
{
	RTE_SET_USED(fn);
	if (ri->argsz < sizeof(*ri))
		return -EINVAL;
	ri->cap_offset = 0;
	ri->offset = VFIO_DEV_REGION_OFF(ri->index);
	switch (ri->index) {
	case VFIO_PCI_BAR0_REGION_INDEX:
		ri->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE |
			    VFIO_REGION_INFO_FLAG_MMAP;
		ri->size = MLX5V_SIM_BAR0_SIZE;
		return 0;
	case VFIO_PCI_CONFIG_REGION_INDEX:
		ri->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
		ri->size = VFIO_DEV_CFG_SIZE;
		return 0;
	case VFIO_PCI_BAR1_REGION_INDEX ... VFIO_PCI_ROM_REGION_INDEX:
		/* BAR1 is BAR0's upper half; ConnectX has no other BAR and no ROM here. */
		ri->flags = 0;
		ri->size = 0;
		return 0;
	default:
		/* VGA and device-specific regions: vfio-pci has none for this function. */
		return -EINVAL;
	}
}

static int
vfio_dev_irq_info(struct vfio_dev_fn *fn, struct vfio_irq_info *ii)
{
	struct mlx5v_hw_irq_info hi;

	if (ii->argsz < sizeof(*ii))
		return -EINVAL;
	switch (ii->index) {
	case VFIO_PCI_INTX_IRQ_INDEX:
		ii->flags = VFIO_IRQ_INFO_EVENTFD | VFIO_IRQ_INFO_MASKABLE |
			    VFIO_IRQ_INFO_AUTOMASKED;
		ii->count = 1;
		return 0;
	case VFIO_PCI_MSI_IRQ_INDEX:
		/* No MSI capability: MSI-X only. */
		ii->flags = VFIO_IRQ_INFO_EVENTFD;
		ii->count = 0;
		return 0;
	case VFIO_PCI_MSIX_IRQ_INDEX:
		if (fn->remote != NULL)
			memcpy(&hi, &((const struct vfio_dev_host_info *)fn->remote->info)->msix,
			       sizeof(hi));
		else
			mlx5v_sim_hw_ops.irq_info(&fn->hw, &hi);
		ii->count = hi.count;
		ii->flags = ((hi.flags & MLX5V_HW_IRQ_EVENTFD) ? VFIO_IRQ_INFO_EVENTFD : 0) |
			    ((hi.flags & MLX5V_HW_IRQ_NORESIZE) ? VFIO_IRQ_INFO_NORESIZE : 0);
		return 0;
	case VFIO_PCI_ERR_IRQ_INDEX:
	case VFIO_PCI_REQ_IRQ_INDEX:
		ii->flags = VFIO_IRQ_INFO_EVENTFD;
		ii->count = 1;
		return 0;
	default:
		return -EINVAL;
	}
}

static int
vfio_dev_set_irqs(struct vfio_dev_fn *fn, struct vfio_irq_set *is)
{
	uint32_t type = is->flags & VFIO_IRQ_SET_DATA_TYPE_MASK;
	uint32_t action = is->flags & VFIO_IRQ_SET_ACTION_TYPE_MASK;
	unsigned int i;
	int ret;

	if (is->argsz < sizeof(*is) ||
	    (type == VFIO_IRQ_SET_DATA_EVENTFD &&
	     is->argsz < sizeof(*is) + (size_t)is->count * sizeof(int)))
		return -EINVAL;
	if (is->index == VFIO_PCI_ERR_IRQ_INDEX || is->index == VFIO_PCI_REQ_IRQ_INDEX) {
		/* Accepted; the emulation never raises them. */
		return 0;
	}
	if (fn->remote != NULL)
		return vfio_dev_remote_refuse(fn, "VFIO_DEVICE_SET_IRQS");
	if (is->index != VFIO_PCI_MSIX_IRQ_INDEX || action != VFIO_IRQ_SET_ACTION_TRIGGER) {
		VFIO_RUN_LOG("%s: SET_IRQS index %u flags 0x%x not emulated (EINVAL)",
			     fn->d->bdf, is->index, is->flags);
		return -EINVAL;
	}
	if (type == VFIO_IRQ_SET_DATA_NONE && is->count == 0) {
		ret = mlx5v_sim_hw_ops.irq_set(&fn->hw, 0, 0, NULL);
		if (ret == 0) {
			for (i = 0; i < fn->irq_on; i++)
				fn->irq_fd[i] = -1;
			fn->irq_on = 0;
		}
	} else if (type == VFIO_IRQ_SET_DATA_EVENTFD) {
		const int *fds = (const int *)(void *)is->data;

		ret = mlx5v_sim_hw_ops.irq_set(&fn->hw, is->start, is->count, fds);
		/* Kept for a reset: vfio-pci's triggers outlive it. */
		for (i = 0; ret == 0 && i < is->count; i++)
			fn->irq_fd[is->start + i] = fds[i];
		if (ret == 0 && is->start + is->count > fn->irq_on)
			fn->irq_on = is->start + is->count;
	} else {
		VFIO_RUN_LOG("%s: SET_IRQS MSI-X data flags 0x%x not emulated (EINVAL)",
			     fn->d->bdf, is->flags);
		return -EINVAL;
	}
	vfio_dev_cfg_msix(fn, mlx5v_sim_msix_enabled(fn->sim, NULL) > 0);
	return ret;
}

static int
vfio_dev_device_ioctl(struct vfio_dev_fd *f, unsigned long req, void *arg)
{
	struct vfio_dev_fn *fn = f->fn;
	struct vfio_device_info *di = arg;

	switch (req) {
	case VFIO_DEVICE_GET_INFO:
		if (di->argsz < sizeof(*di))
			return -EINVAL;
		di->flags = VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET;
		di->num_regions = VFIO_PCI_NUM_REGIONS;
		di->num_irqs = VFIO_PCI_NUM_IRQS;
		return 0;
	case VFIO_DEVICE_GET_REGION_INFO:
		return vfio_dev_region_info(fn, arg);
	case VFIO_DEVICE_GET_IRQ_INFO:
		return vfio_dev_irq_info(fn, arg);
	case VFIO_DEVICE_SET_IRQS:
		return vfio_dev_set_irqs(fn, arg);
	case VFIO_DEVICE_RESET:
		return vfio_dev_reset(fn);
	default:
		VFIO_RUN_LOG("%s: device ioctl 0x%lx not emulated (ENOTTY)", fn->d->bdf, req);
		return -ENOTTY;
	}
}

int
ioctl(int fd, unsigned long req, ...)
{
	static int (*real_ioctl)(int, unsigned long, ...);
	struct vfio_dev_fd *f;
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	pthread_mutex_lock(&vfio_dev_lock);
	f = vfio_dev_find(fd);
	/* A VFIO request on an fd another process of the tree opened and passed here. */
	if (f == NULL && _IOC_TYPE(req) == VFIO_TYPE)
		f = vfio_dev_adopt(fd);
	if (f == NULL) {
		pthread_mutex_unlock(&vfio_dev_lock);
		if (real_ioctl == NULL)
			real_ioctl = (int (*)(int, unsigned long, ...))emu_path_next("ioctl");
		return real_ioctl(fd, req, arg);
	}
	switch (f->kind) {
	case VFIO_DEV_CONTAINER:
		ret = vfio_dev_container_ioctl(f, req, arg);
		break;
	case VFIO_DEV_GROUP:
		ret = vfio_dev_group_ioctl(f, req, arg);
		break;
	default:
		ret = vfio_dev_device_ioctl(f, req, arg);
		break;
	}
	pthread_mutex_unlock(&vfio_dev_lock);
	VFIO_DEV_TRACE("ioctl(%d, 0x%lx) -> %d", fd, req, ret);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

/* ---- close ---- */

static void
vfio_dev_release(struct vfio_dev_fd *f)
{
	struct vfio_dev_fn *fn = f->fn;
	struct vfio_dev_container *c = f->c;
	unsigned int i;

	switch (f->kind) {
	case VFIO_DEV_DEVICE:
		/* The last close: vfio-pci switches MSI-X off (and resets at the next open). */
		if (--fn->dev_open == 0 && fn->sim != NULL)
			mlx5v_sim_hw_ops.irq_set(&fn->hw, 0, 0, NULL);
		break;
	case VFIO_DEV_GROUP:
		if (fn->c != NULL)
			vfio_dev_group_detach(fn);
		break;
	case VFIO_DEV_CONTAINER:
		/* The IOMMU goes with the container: every window is unmapped. */
		for (i = 0; i < VFIO_RUN_MAX_DEVS; i++) {
			unsigned int j;

			if (vfio_dev_fns[i].c != c)
				continue;
			for (j = 0; j < c->nb_win && vfio_dev_fns[i].sim != NULL; j++)
				mlx5v_sim_iommu_unmap(vfio_dev_fns[i].sim, c->win[j].iova,
						      c->win[j].size);
			vfio_dev_fns[i].c = NULL;
		}
		if (!c->remote) {
			free(c->win);
			free(c);
		}
		break;
	}
}

int
close(int fd)
{
	static int (*real_close)(int);
	struct vfio_dev_fd *f;

	if (real_close == NULL)
		real_close = (int (*)(int))emu_path_next("close");
	pthread_mutex_lock(&vfio_dev_lock);
	f = vfio_dev_find(fd);
	if (f != NULL) {
		VFIO_DEV_TRACE("close %d", fd);
		vfio_dev_release(f);
		f->fd = -1;
	}
	pthread_mutex_unlock(&vfio_dev_lock);
	return real_close(fd);
}
