/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The emulations' file system, shared by the VFIO and the verbs preloads: a private
 * tree of the emulated sysfs and /dev nodes, and the libc path calls redirected into it
 * (doc/guides/platform/vfio_emulation.rst, "Paths").
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

#include "emu_path.h"

static char emu_path_root[PATH_MAX];
static size_t emu_path_root_len;
static pid_t emu_path_root_pid;
static pthread_once_t emu_path_once = PTHREAD_ONCE_INIT;
static int emu_path_ready;

void *
emu_path_next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* Write a file of the tree (the root is ours: real libc calls, never redirected). */
int
emu_path_file(const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", emu_path_root, rel) >= (int)sizeof(path))
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
emu_path_vpath(char *path, const char *fmt, va_list ap)
{
	int n;

	n = snprintf(path, PATH_MAX, "%s/", emu_path_root);
	vsnprintf(path + n, PATH_MAX - n, fmt, ap);
}

int
emu_path_mkdir(const char *fmt, ...)
{
	char path[PATH_MAX];
	char *p;
	va_list ap;

	va_start(ap, fmt);
	emu_path_vpath(path, fmt, ap);
	va_end(ap);
	/* mkdir -p */
	for (p = path + emu_path_root_len + 1; *p != '\0'; p++) {
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

int
emu_path_link(const char *target, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	emu_path_vpath(path, fmt, ap);
	va_end(ap);
	return symlink(target, path) == 0 ? 0 : -errno;
}

static int
emu_path_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
emu_path_tree_remove(void)
{
	/* Only the process that built the tree removes it, not a forked child. */
	if (emu_path_root_len != 0 && getpid() == emu_path_root_pid)
		nftw(emu_path_root, emu_path_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void
emu_path_tree_build(void)
{
	const char *tmp = getenv("TMPDIR");

	if (emu_path_conf.prepare() == 0)
		return;
	snprintf(emu_path_root, sizeof(emu_path_root), "%s/%s.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp", emu_path_conf.name);
	if (mkdtemp(emu_path_root) == NULL) {
		EMU_PATH_LOG("cannot create the emulated tree under %s: %s", emu_path_root,
			     strerror(errno));
		return;
	}
	emu_path_root_len = strlen(emu_path_root);
	emu_path_root_pid = getpid();
	if (emu_path_conf.build() != 0)
		EMU_PATH_LOG("the emulated tree in %s is incomplete", emu_path_root);
	atexit(emu_path_tree_remove);
	emu_path_ready = 1;
}

/* The prefix path starts with, or NULL. */
static const struct emu_path_prefix *
emu_path_match(const char *path)
{
	const struct emu_path_prefix *p;
	unsigned int i;
	size_t n;

	if (path == NULL || path[0] != '/')
		return NULL;
	for (i = 0; i < emu_path_conf.nb_prefixes; i++) {
		p = &emu_path_conf.prefixes[i];
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
emu_path_path(const char *path, char *buf, size_t len)
{
	struct stat st;

	if (emu_path_match(path) == NULL)
		return path;
	pthread_once(&emu_path_once, emu_path_tree_build);
	if (!emu_path_ready)
		return path;
	snprintf(buf, len, "%s%s", emu_path_root, path);
	EMU_PATH_REAL(int, lstat, const char *, struct stat *);
	if (real_lstat(buf, &st) != 0)
		EMU_PATH_LOG("%s: not emulated (ENOENT)", path);
	return buf;
}

/* The open of an emulated node, or -2 if path is not one. */
static int
emu_path_open_node(const char *path)
{
	if (emu_path_match(path) == NULL)
		return -2;
	pthread_once(&emu_path_once, emu_path_tree_build);
	if (!emu_path_ready)
		return -2;
	return emu_path_conf.open_node(path);
}

/* ---- The interposed calls ---- */

#define EMU_PATH_MODE(flags, mode) do { \
	if ((flags) & (O_CREAT | __O_TMPFILE)) { \
		va_list ap; \
		va_start(ap, flags); \
		mode = va_arg(ap, int); \
		va_end(ap); \
	} \
} while (0)

#define EMU_PATH_OPEN(name) \
int \
name(const char *path, int flags, ...) \
{ \
	char buf[PATH_MAX]; \
	int mode = 0; \
	int fd; \
	EMU_PATH_REAL(int, name, const char *, int, ...); \
	EMU_PATH_MODE(flags, mode); \
	fd = emu_path_open_node(path); \
	if (fd != -2) \
		return fd; \
	return real_##name(emu_path_path(path, buf, sizeof(buf)), flags, mode); \
}

EMU_PATH_OPEN(open)
EMU_PATH_OPEN(open64)

#define EMU_PATH_OPENAT(name) \
int \
name(int dirfd, const char *path, int flags, ...) \
{ \
	char buf[PATH_MAX]; \
	int mode = 0; \
	int fd; \
	EMU_PATH_REAL(int, name, int, const char *, int, ...); \
	EMU_PATH_MODE(flags, mode); \
	fd = emu_path_open_node(path); \
	if (fd != -2) \
		return fd; \
	return real_##name(dirfd, emu_path_path(path, buf, sizeof(buf)), flags, mode); \
}

EMU_PATH_OPENAT(openat)
EMU_PATH_OPENAT(openat64)

/* The fortified variants (_FORTIFY_SOURCE with a non-constant flags argument). */
#define EMU_PATH_OPEN2(name) \
int \
name(const char *path, int flags) \
{ \
	char buf[PATH_MAX]; \
	int fd; \
	EMU_PATH_REAL(int, name, const char *, int); \
	fd = emu_path_open_node(path); \
	if (fd != -2) \
		return fd; \
	return real_##name(emu_path_path(path, buf, sizeof(buf)), flags); \
}

EMU_PATH_OPEN2(__open_2)
EMU_PATH_OPEN2(__open64_2)

#define EMU_PATH_OPENAT2(name) \
int \
name(int dirfd, const char *path, int flags) \
{ \
	char buf[PATH_MAX]; \
	int fd; \
	EMU_PATH_REAL(int, name, int, const char *, int); \
	fd = emu_path_open_node(path); \
	if (fd != -2) \
		return fd; \
	return real_##name(dirfd, emu_path_path(path, buf, sizeof(buf)), flags); \
}

EMU_PATH_OPENAT2(__openat_2)
EMU_PATH_OPENAT2(__openat64_2)

/* A call whose first argument is the path: redirect it, pass the rest through. */
#define EMU_PATH_PATH1(ret, name, T2) \
ret \
name(const char *path, T2 a2) \
{ \
	char buf[PATH_MAX]; \
	EMU_PATH_REAL(ret, name, const char *, T2); \
	return real_##name(emu_path_path(path, buf, sizeof(buf)), a2); \
}

EMU_PATH_PATH1(FILE *, fopen, const char *)
EMU_PATH_PATH1(FILE *, fopen64, const char *)
EMU_PATH_PATH1(int, stat, struct stat *)
EMU_PATH_PATH1(int, lstat, struct stat *)
EMU_PATH_PATH1(int, stat64, struct stat64 *)
EMU_PATH_PATH1(int, lstat64, struct stat64 *)
EMU_PATH_PATH1(int, access, int)

DIR *
opendir(const char *path)
{
	char buf[PATH_MAX];

	EMU_PATH_REAL(DIR *, opendir, const char *);
	return real_opendir(emu_path_path(path, buf, sizeof(buf)));
}

ssize_t
readlink(const char *path, char *out, size_t len)
{
	char buf[PATH_MAX];

	EMU_PATH_REAL(ssize_t, readlink, const char *, char *, size_t);
	return real_readlink(emu_path_path(path, buf, sizeof(buf)), out, len);
}

ssize_t
readlinkat(int dirfd, const char *path, char *out, size_t len)
{
	char buf[PATH_MAX];

	EMU_PATH_REAL(ssize_t, readlinkat, int, const char *, char *, size_t);
	return real_readlinkat(dirfd, emu_path_path(path, buf, sizeof(buf)), out, len);
}

int
faccessat(int dirfd, const char *path, int mode, int flags)
{
	char buf[PATH_MAX];

	EMU_PATH_REAL(int, faccessat, int, const char *, int, int);
	return real_faccessat(dirfd, emu_path_path(path, buf, sizeof(buf)), mode, flags);
}

int
fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	char buf[PATH_MAX];

	EMU_PATH_REAL(int, fstatat, int, const char *, struct stat *, int);
	return real_fstatat(dirfd, emu_path_path(path, buf, sizeof(buf)), st, flags);
}

int
fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	char buf[PATH_MAX];

	EMU_PATH_REAL(int, fstatat64, int, const char *, struct stat64 *, int);
	return real_fstatat64(dirfd, emu_path_path(path, buf, sizeof(buf)), st, flags);
}

int
statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *st)
{
	char buf[PATH_MAX];

	EMU_PATH_REAL(int, statx, int, const char *, int, unsigned int, struct statx *);
	return real_statx(dirfd, emu_path_path(path, buf, sizeof(buf)), flags, mask, st);
}

/* The result names the emulated path, not the private tree. */
char *
realpath(const char *path, char *resolved)
{
	char buf[PATH_MAX];
	char *r;

	EMU_PATH_REAL(char *, realpath, const char *, char *);
	r = real_realpath(emu_path_path(path, buf, sizeof(buf)), resolved);
	if (r != NULL && emu_path_root_len != 0 &&
	    strncmp(r, emu_path_root, emu_path_root_len) == 0 &&
	    r[emu_path_root_len] == '/')
		memmove(r, r + emu_path_root_len, strlen(r + emu_path_root_len) + 1);
	return r;
}

/* Extended attributes: ls -l asks for ACLs and security labels of what it lists. */
#define EMU_PATH_GETXATTR(name) \
ssize_t \
name(const char *path, const char *attr, void *val, size_t len) \
{ \
	char buf[PATH_MAX]; \
	EMU_PATH_REAL(ssize_t, name, const char *, const char *, void *, size_t); \
	return real_##name(emu_path_path(path, buf, sizeof(buf)), attr, val, len); \
}

EMU_PATH_GETXATTR(getxattr)
EMU_PATH_GETXATTR(lgetxattr)

#define EMU_PATH_LISTXATTR(name) \
ssize_t \
name(const char *path, char *list, size_t len) \
{ \
	char buf[PATH_MAX]; \
	EMU_PATH_REAL(ssize_t, name, const char *, char *, size_t); \
	return real_##name(emu_path_path(path, buf, sizeof(buf)), list, len); \
}

EMU_PATH_LISTXATTR(listxattr)
EMU_PATH_LISTXATTR(llistxattr)
