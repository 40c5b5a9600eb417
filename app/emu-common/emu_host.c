/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file One model per function per command tree: the hosting process answers on an abstract
 * unix socket named after the launcher (EMU_HOST_ENV) and the function, with the memfds of the
 * model's pages as SCM_RIGHTS (doc/guides/platform/vfio_emulation.rst, "Several processes").
 * Abstract names vanish with the last process holding them: nothing to clean up.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "emu_host.h"

/* What travels in the message's data: the message without the fds. */
struct emu_host_wire {
	uint32_t nb_fds;
	uint64_t off[EMU_HOST_MAX_FDS];
	uint8_t info[EMU_HOST_INFO_LEN];
};

/* What a process sends: first what it wants, then (a store channel) one per store. */
struct emu_host_req {
	uint32_t op;
	uint32_t off;
	uint64_t val;
};

enum {
	EMU_HOST_FETCH = 1,   /**< the message, then the connection is closed */
	EMU_HOST_CHANNEL,     /**< a store channel: stores until the other process closes it */
	EMU_HOST_STORE,       /**< one store on a channel; the host answers its result */
};

struct emu_host_srv {
	int fd;
	char key[64];
	emu_host_fill_cb fill;
	emu_host_store_cb store;
	void *arg;
};

struct emu_host_chan {
	struct emu_host_srv *s;
	int fd;
};

/* The abstract address of key: "\0<EMU_HOST_ENV value>/<key>". @return its length or -ENOENT. */
static int
emu_host_addr(const char *key, struct sockaddr_un *sa)
{
	const char *tree = getenv(EMU_HOST_ENV);
	int n;

	if (tree == NULL || tree[0] == '\0')
		return -ENOENT;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "%s/%s", tree, key);
	if (n < 0 || (size_t)n >= sizeof(sa->sun_path) - 1)
		return -ENAMETOOLONG;
	return (int)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

/* Answer one connected process: the message of the moment (a reset changes the pages). */
static void
emu_host_answer(struct emu_host_srv *s, int c)
{
	char cbuf[CMSG_SPACE(sizeof(int) * EMU_HOST_MAX_FDS)];
	struct emu_host_msg *m;
	struct emu_host_wire w;
	struct cmsghdr *cm;
	struct msghdr mh;
	struct iovec iov;

	m = calloc(1, sizeof(*m));
	if (m == NULL || s->fill(s->arg, s->key, m) != 0 || m->nb_fds > EMU_HOST_MAX_FDS) {
		free(m);
		return;
	}
	memset(&w, 0, sizeof(w));
	w.nb_fds = m->nb_fds;
	memcpy(w.off, m->off, sizeof(w.off));
	memcpy(w.info, m->info, sizeof(w.info));
	iov.iov_base = &w;
	iov.iov_len = sizeof(w);
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (m->nb_fds > 0) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * m->nb_fds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * m->nb_fds);
		memcpy(CMSG_DATA(cm), m->fd, sizeof(int) * m->nb_fds);
	}
	if (sendmsg(c, &mh, MSG_NOSIGNAL) < 0)
		fprintf(stderr, "mlxv-emu: %s: cannot answer a process: %s\n", s->key,
			strerror(errno));
	free(m);
}

/* One store channel: each store to the model, its result back, until the other side closes. */
static void *
emu_host_chan_thread(void *arg)
{
	struct emu_host_chan *ch = arg;
	struct emu_host_req r;
	int32_t res;
	ssize_t n;

	for (;;) {
		n = recv(ch->fd, &r, sizeof(r), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(r) || r.op != EMU_HOST_STORE)
			break;
		res = ch->s->store != NULL ? ch->s->store(ch->s->arg, r.off, r.val) : -ENOTSUP;
		if (send(ch->fd, &res, sizeof(res), MSG_NOSIGNAL) != (ssize_t)sizeof(res))
			break;
	}
	close(ch->fd);
	free(ch);
	return NULL;
}

/* A detached thread running fn(arg). @return 0 or -errno. */
static int
emu_host_thread_new(void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_t tid;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ret = -pthread_create(&tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return ret;
}

static void *
emu_host_thread(void *arg)
{
	struct emu_host_srv *s = arg;
	struct emu_host_chan *ch;
	struct emu_host_req r;
	int c;

	for (;;) {
		c = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			break;
		}
		if (recv(c, &r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
			close(c);
			continue;
		}
		if (r.op == EMU_HOST_CHANNEL) {
			ch = malloc(sizeof(*ch));
			if (ch != NULL) {
				ch->s = s;
				ch->fd = c;
				if (emu_host_thread_new(emu_host_chan_thread, ch) == 0)
					continue;
				free(ch);
			}
		} else if (r.op == EMU_HOST_FETCH) {
			emu_host_answer(s, c);
		}
		close(c);
	}
	return NULL;
}

int
emu_host_serve(const char *key, emu_host_fill_cb fill, emu_host_store_cb store, void *arg)
{
	struct emu_host_srv *s;
	struct sockaddr_un sa;
	int len, ret;

	len = emu_host_addr(key, &sa);
	if (len == -ENOENT)
		return 0;
	if (len < 0)
		return len;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->fill = fill;
	s->store = store;
	s->arg = arg;
	s->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s->fd < 0) {
		ret = -errno;
		goto err_free;
	}
	if (bind(s->fd, (struct sockaddr *)&sa, len) != 0 || listen(s->fd, 16) != 0) {
		ret = -errno;
		goto err_close;
	}
	/* The thread lives as long as the process: the host is there for its whole life. */
	ret = emu_host_thread_new(emu_host_thread, s);
	if (ret != 0)
		goto err_close;
	return 0;
err_close:
	close(s->fd);
err_free:
	free(s);
	return ret;
}

/* A connection to the host of key, asking op. @return its fd, -ENOENT (no host) or -errno. */
static int
emu_host_open(const char *key, uint32_t op)
{
	struct emu_host_req r = { .op = op };
	struct sockaddr_un sa;
	int fd, len, ret;

	len = emu_host_addr(key, &sa);
	if (len < 0)
		return len;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* Nobody bound the name: no process hosts the function yet. */
	if (connect(fd, (struct sockaddr *)&sa, len) != 0) {
		ret = errno == ECONNREFUSED || errno == ENOENT ? -ENOENT : -errno;
		close(fd);
		return ret;
	}
	if (send(fd, &r, sizeof(r), MSG_NOSIGNAL) != (ssize_t)sizeof(r)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

int
emu_host_connect(const char *key)
{
	return emu_host_open(key, EMU_HOST_CHANNEL);
}

int
emu_host_store(int conn, uint32_t off, uint64_t val)
{
	struct emu_host_req r = { .op = EMU_HOST_STORE, .off = off, .val = val };
	int saved = errno;
	int32_t res = -EPIPE;
	ssize_t n;

	/* errno is the interrupted code's: a signal handler leaves it as it found it. */
	if (send(conn, &r, sizeof(r), MSG_NOSIGNAL) == (ssize_t)sizeof(r)) {
		do {
			n = recv(conn, &res, sizeof(res), 0);
		} while (n < 0 && errno == EINTR);
		if (n != (ssize_t)sizeof(res))
			res = -EPIPE;
	}
	errno = saved;
	return res;
}

int
emu_host_memfd_name(int fd, char *name, size_t len)
{
	char path[64], link[128];
	const char *p, *end;
	ssize_t got;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	got = readlink(path, link, sizeof(link) - 1);
	if (got <= 0)
		return -ENOENT;
	link[got] = '\0';
	/* "/memfd:<name> (deleted)" */
	if (strncmp(link, "/memfd:", strlen("/memfd:")) != 0)
		return -ENOENT;
	p = link + strlen("/memfd:");
	end = strstr(p, " (deleted)");
	snprintf(name, len, "%.*s", (int)(end != NULL ? end - p : (ssize_t)strlen(p)), p);
	return 0;
}

int
emu_host_fetch(const char *key, struct emu_host_msg *m)
{
	char cbuf[CMSG_SPACE(sizeof(int) * EMU_HOST_MAX_FDS)];
	struct emu_host_wire w;
	struct cmsghdr *cm;
	struct msghdr mh;
	struct iovec iov;
	unsigned int n = 0;
	ssize_t got;
	int fd, ret;

	fd = emu_host_open(key, EMU_HOST_FETCH);
	if (fd < 0)
		return fd;
	iov.iov_base = &w;
	iov.iov_len = sizeof(w);
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf;
	mh.msg_controllen = sizeof(cbuf);
	do {
		got = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);
	} while (got < 0 && errno == EINTR);
	ret = got < 0 ? -errno : 0;
	close(fd);
	for (cm = CMSG_FIRSTHDR(&mh); ret == 0 && cm != NULL; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(m->fd, CMSG_DATA(cm), n * sizeof(int));
	}
	if (ret == 0 && (got != (ssize_t)sizeof(w) || (mh.msg_flags & MSG_CTRUNC) ||
			 n != w.nb_fds))
		ret = -EPROTO;
	if (ret != 0) {
		while (n > 0)
			close(m->fd[--n]);
		return ret;
	}
	m->nb_fds = n;
	memcpy(m->off, w.off, sizeof(m->off));
	memcpy(m->info, w.info, sizeof(m->info));
	return 0;
}
