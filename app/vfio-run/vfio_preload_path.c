/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The preload's file system: a private tree of the emulated functions' sysfs and VFIO
 * nodes, and the libc path calls redirected into it (doc/guides/platform/vfio_emulation.rst,
 * "Paths").
 */

/*
 * Both the plain and the 64 names are interposed, so the headers must not alias one to the
 * other (meson builds with _FILE_OFFSET_BITS=64; off_t is 64 bits on LP64 either way).
 */
#undef _FILE_OFFSET_BITS

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vfio_run.h"

/* How a prefix matches: a whole path component, or the start of a name ("/sys/module/vfio"). */
struct vfio_preload_prefix {
	const char *path;
	int name_prefix;
};

/*
 * Redirected to the tree: all of the PCI bus (so only the emulated functions are seen), the
 * IOMMU groups, the vfio modules, and /dev/vfio. "/sys/devices/pci" hides the host's PCI
 * hierarchy as well.
 */
static const struct vfio_preload_prefix vfio_preload_prefixes[] = {
	{ "/sys/bus/pci", 0 },
	{ "/sys/devices/pci", 1 },
	{ "/sys/kernel/iommu_groups", 0 },
	{ "/sys/module/vfio", 1 },
	{ "/dev/vfio", 0 },
};

static struct vfio_run_dev vfio_preload_dev_tab[VFIO_RUN_MAX_DEVS];
static unsigned int vfio_preload_nb_devs;
static char vfio_preload_root[PATH_MAX];
static size_t vfio_preload_root_len;
static pid_t vfio_preload_root_pid;
static pthread_once_t vfio_preload_once = PTHREAD_ONCE_INIT;
static int vfio_preload_ready;

void *
vfio_preload_next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* The real functions, looked up on first use. */
#define VFIO_PRELOAD_REAL(ret, name, ...) \
	static ret (*real_##name)(__VA_ARGS__); \
	if (real_##name == NULL) \
		real_##name = (ret (*)(__VA_ARGS__))vfio_preload_next(#name)

static void
vfio_preload_parse(void)
{
	const char *env = getenv(VFIO_RUN_ENV_DEVS);
	char err[256];
	char *s, *tok, *save = NULL;

	if (env == NULL || env[0] == '\0')
		return;
	/* Kept for the life of the process: the devargs point into it. */
	s = strdup(env);
	if (s == NULL)
		return;
	for (tok = strtok_r(s, ";", &save); tok != NULL && vfio_preload_nb_devs <
	     VFIO_RUN_MAX_DEVS; tok = strtok_r(NULL, ";", &save)) {
		if (vfio_run_dev_parse(tok, vfio_preload_nb_devs,
				       &vfio_preload_dev_tab[vfio_preload_nb_devs], err,
				       sizeof(err)) != 0) {
			VFIO_RUN_LOG("%s: %s (function ignored)", VFIO_RUN_ENV_DEVS, err);
			continue;
		}
		vfio_preload_nb_devs++;
	}
}

unsigned int
vfio_preload_dma_limit(void)
{
	const char *env = getenv(VFIO_RUN_ENV_DMA_LIMIT);

	return env != NULL ? (unsigned int)strtoul(env, NULL, 0) : VFIO_RUN_DMA_LIMIT_DEFAULT;
}

struct vfio_run_dev *
vfio_preload_devs(unsigned int *n)
{
	*n = vfio_preload_nb_devs;
	return vfio_preload_dev_tab;
}

/* Write a file of the tree (the root is ours: real libc calls, never redirected). */
static int
vfio_preload_file(const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", vfio_preload_root, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	return fclose(f) == 0 ? 0 : -errno;
}

/* The tree path of the printf-style rel in path (PATH_MAX bytes). */
static void
vfio_preload_vpath(char *path, const char *fmt, va_list ap)
{
	int n;

	n = snprintf(path, PATH_MAX, "%s/", vfio_preload_root);
	vsnprintf(path + n, PATH_MAX - n, fmt, ap);
}

static int
vfio_preload_mkdir(const char *fmt, ...)
{
	char path[PATH_MAX];
	char *p;
	va_list ap;

	va_start(ap, fmt);
	vfio_preload_vpath(path, fmt, ap);
	va_end(ap);
	/* mkdir -p */
	for (p = path + vfio_preload_root_len + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int
vfio_preload_link(const char *target, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vfio_preload_vpath(path, fmt, ap);
	va_end(ap);
	return symlink(target, path) == 0 ? 0 : -errno;
}

/* One function's sysfs directory, as vfio-pci leaves it (relative links, as sysfs's). */
static int
vfio_preload_tree_dev(const struct vfio_run_dev *d)
{
	char dir[PATH_MAX];
	char bus[16];
	int ret = 0;

	/* The bus directory of dddd:bb: "pcidddd:bb". */
	snprintf(bus, sizeof(bus), "pci%.7s", d->bdf);
	snprintf(dir, sizeof(dir), "sys/devices/%s/%s", bus, d->bdf);
	ret |= vfio_preload_mkdir("%s", dir);
	ret |= vfio_preload_mkdir("sys/kernel/iommu_groups/%u/devices", d->group);
	ret |= vfio_preload_link("../../../bus/pci/drivers/vfio-pci", "%s/driver", dir);
	ret |= vfio_preload_link("../../../bus/pci", "%s/subsystem", dir);
	ret |= vfio_preload_mkdir("sys/devices/virtual/iommu/dmar0/intel-iommu");
	ret |= vfio_preload_link("../../virtual/iommu/dmar0", "%s/iommu", dir);
	return ret;
}

static int
vfio_preload_tree_dev_files(const struct vfio_run_dev *d)
{
	char dir[PATH_MAX];
	char tgt[PATH_MAX];
	char f[PATH_MAX + 32];
	char bus[16];
	int ret = 0;

	snprintf(bus, sizeof(bus), "pci%.7s", d->bdf);
	snprintf(dir, sizeof(dir), "sys/devices/%s/%s", bus, d->bdf);
#define DEVFILE(name, ...) \
	(snprintf(f, sizeof(f), "%s/" name, dir), vfio_preload_file(f, __VA_ARGS__))
	ret |= DEVFILE("vendor", "0x%04x\n", VFIO_RUN_VENDOR);
	ret |= DEVFILE("device", "0x%04x\n", d->device_id);
	ret |= DEVFILE("subsystem_vendor", "0x%04x\n", VFIO_RUN_VENDOR);
	ret |= DEVFILE("subsystem_device", "0x%04x\n", 0x0007);
	ret |= DEVFILE("class", "0x%06x\n", VFIO_RUN_CLASS);
	ret |= DEVFILE("revision", "0x00\n");
	ret |= DEVFILE("numa_node", "%d\n", d->numa_node);
	ret |= DEVFILE("irq", "0\n");
	ret |= DEVFILE("enable", "1\n");
	ret |= DEVFILE("modalias", "pci:v%08Xd%08Xsv%08Xsd%08Xbc02sc00i00\n",
		       VFIO_RUN_VENDOR, d->device_id, VFIO_RUN_VENDOR, 0x0007);
	/* BAR0, 64-bit prefetchable memory, at an address no host uses for RAM. */
	ret |= DEVFILE("resource", "0x%016x 0x%016x 0x%016x\n%s", 0xe0000000u,
		       0xe0000000u + (32u << 20) - 1, 0x14220c,
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		       "0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
	ret |= DEVFILE("uevent", "DRIVER=vfio-pci\nPCI_CLASS=20000\nPCI_ID=%04X:%04X\n"
		       "PCI_SLOT_NAME=%s\n", VFIO_RUN_VENDOR, d->device_id, d->bdf);
	/*
	 * An Intel IOMMU with 48-bit guest addresses (MGAW, cap bits 21:16, is 47): EAL
	 * reads it to decide whether IOVA as VA fits.
	 */
	ret |= DEVFILE("iommu/intel-iommu/cap", "d2008c406f0462\n");
	if (d->device_id == 0x1017) {
		/* A PF: SR-IOV capable, no VFs enabled. */
		ret |= DEVFILE("sriov_totalvfs", "%u\n", 8u);
		ret |= DEVFILE("sriov_numvfs", "0\n");
	}
#undef DEVFILE
	snprintf(tgt, sizeof(tgt), "../../../kernel/iommu_groups/%u", d->group);
	ret |= vfio_preload_link(tgt, "%s/iommu_group", dir);
	snprintf(tgt, sizeof(tgt), "../../../devices/%s/%s", bus, d->bdf);
	ret |= vfio_preload_link(tgt, "sys/bus/pci/devices/%s", d->bdf);
	snprintf(tgt, sizeof(tgt), "../../../../devices/%s/%s", bus, d->bdf);
	ret |= vfio_preload_link(tgt, "sys/bus/pci/drivers/vfio-pci/%s", d->bdf);
	ret |= vfio_preload_link(tgt, "sys/kernel/iommu_groups/%u/devices/%s", d->group,
				 d->bdf);
	snprintf(f, sizeof(f), "dev/vfio/%u", d->group);
	ret |= vfio_preload_file(f, "");
	return ret;
}

static int
vfio_preload_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
vfio_preload_tree_remove(void)
{
	/* Only the process that built the tree removes it, not a forked child. */
	if (vfio_preload_root_len != 0 && getpid() == vfio_preload_root_pid)
		nftw(vfio_preload_root, vfio_preload_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void
vfio_preload_tree_build(void)
{
	const char *tmp = getenv("TMPDIR");
	unsigned int i;
	int ret = 0;

	vfio_preload_parse();
	if (vfio_preload_nb_devs == 0)
		return;
	snprintf(vfio_preload_root, sizeof(vfio_preload_root), "%s/mlxv-vfio.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(vfio_preload_root) == NULL) {
		VFIO_RUN_LOG("cannot create the emulated tree under %s: %s",
			     vfio_preload_root, strerror(errno));
		return;
	}
	vfio_preload_root_len = strlen(vfio_preload_root);
	vfio_preload_root_pid = getpid();
	ret |= vfio_preload_mkdir("sys/bus/pci/devices");
	ret |= vfio_preload_mkdir("sys/bus/pci/drivers/vfio-pci");
	ret |= vfio_preload_mkdir("sys/module/vfio/parameters");
	ret |= vfio_preload_mkdir("sys/module/vfio_pci/parameters");
	ret |= vfio_preload_mkdir("sys/module/vfio_iommu_type1/parameters");
	ret |= vfio_preload_file("sys/module/vfio_iommu_type1/parameters/dma_entry_limit",
				 "%u\n", vfio_preload_dma_limit());
	ret |= vfio_preload_file("sys/module/vfio/parameters/enable_unsafe_noiommu_mode",
				 "N\n");
	ret |= vfio_preload_mkdir("dev/vfio");
	ret |= vfio_preload_file("dev/vfio/vfio", "");
	for (i = 0; i < vfio_preload_nb_devs; i++) {
		ret |= vfio_preload_tree_dev(&vfio_preload_dev_tab[i]);
		ret |= vfio_preload_tree_dev_files(&vfio_preload_dev_tab[i]);
	}
	if (ret != 0)
		VFIO_RUN_LOG("the emulated tree in %s is incomplete", vfio_preload_root);
	atexit(vfio_preload_tree_remove);
	vfio_preload_ready = 1;
}

/* The prefix path starts with, or NULL. */
static const struct vfio_preload_prefix *
vfio_preload_match(const char *path)
{
	const struct vfio_preload_prefix *p;
	unsigned int i;
	size_t n;

	if (path == NULL || path[0] != '/')
		return NULL;
	for (i = 0; i < sizeof(vfio_preload_prefixes) / sizeof(vfio_preload_prefixes[0]); i++) {
		p = &vfio_preload_prefixes[i];
		n = strlen(p->path);
		if (strncmp(path, p->path, n) == 0 &&
		    (p->name_prefix || path[n] == '\0' || path[n] == '/'))
			return p;
	}
	return NULL;
}

/*
 * The path to use for path: in the tree if it is one of ours (buf), else path itself.
 * A path under a redirected prefix that the tree lacks is named on stderr once here.
 */
static const char *
vfio_preload_path(const char *path, char *buf, size_t len)
{
	struct stat st;

	if (vfio_preload_match(path) == NULL)
		return path;
	pthread_once(&vfio_preload_once, vfio_preload_tree_build);
	if (!vfio_preload_ready)
		return path;
	snprintf(buf, len, "%s%s", vfio_preload_root, path);
	VFIO_PRELOAD_REAL(int, lstat, const char *, struct stat *);
	if (real_lstat(buf, &st) != 0)
		VFIO_RUN_LOG("%s: not emulated (ENOENT)", path);
	return buf;
}

/* /dev/vfio/vfio -> -1, /dev/vfio/<n> -> n, anything else -> -2. */
static int
vfio_preload_vfio_node(const char *path)
{
	char *end;
	long g;

	if (strncmp(path, "/dev/vfio/", 10) != 0)
		return -2;
	if (strcmp(path + 10, "vfio") == 0)
		return -1;
	errno = 0;
	g = strtol(path + 10, &end, 10);
	if (errno != 0 || end == path + 10 || *end != '\0' || g < 0 || g > INT32_MAX)
		return -2;
	return (int)g;
}

/* The open of an emulated VFIO node, or -2 if path is not one. */
static int
vfio_preload_open_node(const char *path)
{
	int node;

	if (vfio_preload_match(path) == NULL)
		return -2;
	pthread_once(&vfio_preload_once, vfio_preload_tree_build);
	if (!vfio_preload_ready)
		return -2;
	node = vfio_preload_vfio_node(path);
	if (node == -2)
		return -2;
	return vfio_preload_dev_open(node);
}

/* ---- The interposed calls ---- */

#define VFIO_PRELOAD_MODE(flags, mode) do { \
	if ((flags) & (O_CREAT | __O_TMPFILE)) { \
		va_list ap; \
		va_start(ap, flags); \
		mode = va_arg(ap, int); \
		va_end(ap); \
	} \
} while (0)

#define VFIO_PRELOAD_OPEN(name) \
int \
name(const char *path, int flags, ...) \
{ \
	char buf[PATH_MAX]; \
	int mode = 0; \
	int fd; \
	VFIO_PRELOAD_REAL(int, name, const char *, int, ...); \
	VFIO_PRELOAD_MODE(flags, mode); \
	fd = vfio_preload_open_node(path); \
	if (fd != -2) \
		return fd; \
	return real_##name(vfio_preload_path(path, buf, sizeof(buf)), flags, mode); \
}

VFIO_PRELOAD_OPEN(open)
VFIO_PRELOAD_OPEN(open64)

#define VFIO_PRELOAD_OPENAT(name) \
int \
name(int dirfd, const char *path, int flags, ...) \
{ \
	char buf[PATH_MAX]; \
	int mode = 0; \
	int fd; \
	VFIO_PRELOAD_REAL(int, name, int, const char *, int, ...); \
	VFIO_PRELOAD_MODE(flags, mode); \
	fd = vfio_preload_open_node(path); \
	if (fd != -2) \
		return fd; \
	return real_##name(dirfd, vfio_preload_path(path, buf, sizeof(buf)), flags, mode); \
}

VFIO_PRELOAD_OPENAT(openat)
VFIO_PRELOAD_OPENAT(openat64)

/* The fortified variants (_FORTIFY_SOURCE with a non-constant flags argument). */
#define VFIO_PRELOAD_OPEN2(name) \
int \
name(const char *path, int flags) \
{ \
	char buf[PATH_MAX]; \
	int fd; \
	VFIO_PRELOAD_REAL(int, name, const char *, int); \
	fd = vfio_preload_open_node(path); \
	if (fd != -2) \
		return fd; \
	return real_##name(vfio_preload_path(path, buf, sizeof(buf)), flags); \
}

VFIO_PRELOAD_OPEN2(__open_2)
VFIO_PRELOAD_OPEN2(__open64_2)

#define VFIO_PRELOAD_OPENAT2(name) \
int \
name(int dirfd, const char *path, int flags) \
{ \
	char buf[PATH_MAX]; \
	int fd; \
	VFIO_PRELOAD_REAL(int, name, int, const char *, int); \
	fd = vfio_preload_open_node(path); \
	if (fd != -2) \
		return fd; \
	return real_##name(dirfd, vfio_preload_path(path, buf, sizeof(buf)), flags); \
}

VFIO_PRELOAD_OPENAT2(__openat_2)
VFIO_PRELOAD_OPENAT2(__openat64_2)

/* A call whose first argument is the path: redirect it, pass the rest through. */
#define VFIO_PRELOAD_PATH1(ret, name, T2) \
ret \
name(const char *path, T2 a2) \
{ \
	char buf[PATH_MAX]; \
	VFIO_PRELOAD_REAL(ret, name, const char *, T2); \
	return real_##name(vfio_preload_path(path, buf, sizeof(buf)), a2); \
}

VFIO_PRELOAD_PATH1(FILE *, fopen, const char *)
VFIO_PRELOAD_PATH1(FILE *, fopen64, const char *)
VFIO_PRELOAD_PATH1(int, stat, struct stat *)
VFIO_PRELOAD_PATH1(int, lstat, struct stat *)
VFIO_PRELOAD_PATH1(int, stat64, struct stat64 *)
VFIO_PRELOAD_PATH1(int, lstat64, struct stat64 *)
VFIO_PRELOAD_PATH1(int, access, int)

DIR *
opendir(const char *path)
{
	char buf[PATH_MAX];

	VFIO_PRELOAD_REAL(DIR *, opendir, const char *);
	return real_opendir(vfio_preload_path(path, buf, sizeof(buf)));
}

ssize_t
readlink(const char *path, char *out, size_t len)
{
	char buf[PATH_MAX];

	VFIO_PRELOAD_REAL(ssize_t, readlink, const char *, char *, size_t);
	return real_readlink(vfio_preload_path(path, buf, sizeof(buf)), out, len);
}

ssize_t
readlinkat(int dirfd, const char *path, char *out, size_t len)
{
	char buf[PATH_MAX];

	VFIO_PRELOAD_REAL(ssize_t, readlinkat, int, const char *, char *, size_t);
	return real_readlinkat(dirfd, vfio_preload_path(path, buf, sizeof(buf)), out, len);
}

int
faccessat(int dirfd, const char *path, int mode, int flags)
{
	char buf[PATH_MAX];

	VFIO_PRELOAD_REAL(int, faccessat, int, const char *, int, int);
	return real_faccessat(dirfd, vfio_preload_path(path, buf, sizeof(buf)), mode, flags);
}

int
fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	char buf[PATH_MAX];

	VFIO_PRELOAD_REAL(int, fstatat, int, const char *, struct stat *, int);
	return real_fstatat(dirfd, vfio_preload_path(path, buf, sizeof(buf)), st, flags);
}

int
fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	char buf[PATH_MAX];

	VFIO_PRELOAD_REAL(int, fstatat64, int, const char *, struct stat64 *, int);
	return real_fstatat64(dirfd, vfio_preload_path(path, buf, sizeof(buf)), st, flags);
}

int
statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *st)
{
	char buf[PATH_MAX];

	VFIO_PRELOAD_REAL(int, statx, int, const char *, int, unsigned int, struct statx *);
	return real_statx(dirfd, vfio_preload_path(path, buf, sizeof(buf)), flags, mask, st);
}

/* The result names the emulated path, not the private tree. */
char *
realpath(const char *path, char *resolved)
{
	char buf[PATH_MAX];
	char *r;

	VFIO_PRELOAD_REAL(char *, realpath, const char *, char *);
	r = real_realpath(vfio_preload_path(path, buf, sizeof(buf)), resolved);
	if (r != NULL && vfio_preload_root_len != 0 &&
	    strncmp(r, vfio_preload_root, vfio_preload_root_len) == 0 &&
	    r[vfio_preload_root_len] == '/')
		memmove(r, r + vfio_preload_root_len, strlen(r + vfio_preload_root_len) + 1);
	return r;
}

/* Extended attributes: ls -l asks for ACLs and security labels of what it lists. */
#define VFIO_PRELOAD_GETXATTR(name) \
ssize_t \
name(const char *path, const char *attr, void *val, size_t len) \
{ \
	char buf[PATH_MAX]; \
	VFIO_PRELOAD_REAL(ssize_t, name, const char *, const char *, void *, size_t); \
	return real_##name(vfio_preload_path(path, buf, sizeof(buf)), attr, val, len); \
}

VFIO_PRELOAD_GETXATTR(getxattr)
VFIO_PRELOAD_GETXATTR(lgetxattr)

#define VFIO_PRELOAD_LISTXATTR(name) \
ssize_t \
name(const char *path, char *list, size_t len) \
{ \
	char buf[PATH_MAX]; \
	VFIO_PRELOAD_REAL(ssize_t, name, const char *, char *, size_t); \
	return real_##name(vfio_preload_path(path, buf, sizeof(buf)), list, len); \
}

VFIO_PRELOAD_LISTXATTR(listxattr)
VFIO_PRELOAD_LISTXATTR(llistxattr)
