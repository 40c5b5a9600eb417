/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Completion channels of the verbs emulation (doc/guides/platform/verbs_emulation.rst,
 * "Completion channels"): a channel is a pipe whose read end the command gets, as the
 * kernel's channel file, from which libibverbs reads struct ib_uverbs_comp_event_desc. The
 * model raises a CQ's events on its eventfd; one thread of the preload turns each into a
 * descriptor naming the CQ's user handle on the CQ's channel, and counts it for DESTROY_CQ.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include "emu_path.h"
#include "verbs_run.h"

#define VERBS_EVENT_MAX 64
/* The thread looks again for new CQs at least this often. */
#define VERBS_EVENT_POLL_MS 5

struct verbs_event_chan {
	int rd;                 /**< the command's end, -1: free slot */
	int wr;
};

struct verbs_event_cq {
	int event_fd;           /**< the model's eventfd of the CQ, -1: free slot */
	int chan_wr;
	uint64_t user_handle;
	uint32_t *reported;     /**< events delivered, for DESTROY_CQ */
};

static struct verbs_event_chan verbs_event_chans[VERBS_EVENT_MAX];
static struct verbs_event_cq verbs_event_cqs[VERBS_EVENT_MAX];
static pthread_mutex_t verbs_event_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t verbs_event_once = PTHREAD_ONCE_INIT;
static int verbs_event_started;

/* libc's write and close, not the preload's: no lock of the uverbs emulation is taken. */
static ssize_t
verbs_event_write(int fd, const void *buf, size_t len)
{
	EMU_PATH_REAL(ssize_t, write, int, const void *, size_t);
	return real_write(fd, buf, len);
}

static void
verbs_event_close(int fd)
{
	EMU_PATH_REAL(int, close, int);
	real_close(fd);
}

static void
verbs_event_init(void)
{
	unsigned int i;

	for (i = 0; i < VERBS_EVENT_MAX; i++) {
		verbs_event_chans[i].rd = -1;
		verbs_event_cqs[i].event_fd = -1;
	}
}

int
verbs_event_channel_new(void)
{
	unsigned int i;
	int p[2];

	pthread_once(&verbs_event_once, verbs_event_init);
	if (pipe2(p, O_CLOEXEC) != 0)
		return -errno;
	pthread_mutex_lock(&verbs_event_lock);
	for (i = 0; i < VERBS_EVENT_MAX; i++) {
		if (verbs_event_chans[i].rd == -1) {
			verbs_event_chans[i].rd = p[0];
			verbs_event_chans[i].wr = p[1];
			pthread_mutex_unlock(&verbs_event_lock);
			return p[0];
		}
	}
	pthread_mutex_unlock(&verbs_event_lock);
	verbs_event_close(p[0]);
	verbs_event_close(p[1]);
	return -EMFILE;
}

int
verbs_event_channel_wr(int rd)
{
	unsigned int i;
	int wr = -1;

	pthread_once(&verbs_event_once, verbs_event_init);
	pthread_mutex_lock(&verbs_event_lock);
	for (i = 0; i < VERBS_EVENT_MAX && rd >= 0; i++)
		if (verbs_event_chans[i].rd == rd)
			wr = verbs_event_chans[i].wr;
	pthread_mutex_unlock(&verbs_event_lock);
	return wr;
}

void
verbs_event_channel_closed(int fd)
{
	unsigned int i;

	pthread_once(&verbs_event_once, verbs_event_init);
	pthread_mutex_lock(&verbs_event_lock);
	for (i = 0; i < VERBS_EVENT_MAX && fd >= 0; i++) {
		if (verbs_event_chans[i].rd == fd) {
			verbs_event_close(verbs_event_chans[i].wr);
			verbs_event_chans[i].rd = -1;
		}
	}
	pthread_mutex_unlock(&verbs_event_lock);
}

/* Lock held. Deliver what the CQ's eventfd holds. */
static void
verbs_event_deliver(struct verbs_event_cq *c)
{
	struct ib_uverbs_comp_event_desc desc;
	uint64_t cnt;

	if (read(c->event_fd, &cnt, sizeof(cnt)) != (ssize_t)sizeof(cnt))
		return;
	memset(&desc, 0, sizeof(desc));
	desc.cq_handle = c->user_handle;
	while (cnt-- > 0) {
		if (verbs_event_write(c->chan_wr, &desc, sizeof(desc)) != (ssize_t)sizeof(desc)) {
			VERBS_RUN_LOG("completion channel: event lost (%s)", strerror(errno));
			return;
		}
		(*c->reported)++;
	}
}

static void *
verbs_event_thread(void *arg)
{
	struct pollfd pfd[VERBS_EVENT_MAX];
	unsigned int i, n;

	(void)arg;
	for (;;) {
		pthread_mutex_lock(&verbs_event_lock);
		for (i = 0, n = 0; i < VERBS_EVENT_MAX; i++) {
			if (verbs_event_cqs[i].event_fd < 0)
				continue;
			pfd[n].fd = verbs_event_cqs[i].event_fd;
			pfd[n].events = POLLIN;
			n++;
		}
		pthread_mutex_unlock(&verbs_event_lock);
		if (poll(pfd, n, VERBS_EVENT_POLL_MS) <= 0)
			continue;
		pthread_mutex_lock(&verbs_event_lock);
		/* Only CQs still watched: one may have gone since the poll. */
		for (i = 0; i < VERBS_EVENT_MAX; i++) {
			unsigned int k;

			for (k = 0; k < n; k++)
				if ((pfd[k].revents & POLLIN) &&
				    pfd[k].fd == verbs_event_cqs[i].event_fd)
					verbs_event_deliver(&verbs_event_cqs[i]);
		}
		pthread_mutex_unlock(&verbs_event_lock);
	}
	return NULL;
}

int
verbs_event_watch(int event_fd, int chan_wr, uint64_t user_handle, uint32_t *reported)
{
	pthread_t t;
	unsigned int i;
	int ret = -ENOSPC;

	pthread_once(&verbs_event_once, verbs_event_init);
	pthread_mutex_lock(&verbs_event_lock);
	if (!verbs_event_started) {
		if (pthread_create(&t, NULL, verbs_event_thread, NULL) != 0) {
			pthread_mutex_unlock(&verbs_event_lock);
			return -EAGAIN;
		}
		pthread_detach(t);
		verbs_event_started = 1;
	}
	for (i = 0; i < VERBS_EVENT_MAX; i++) {
		struct verbs_event_cq *c = &verbs_event_cqs[i];

		if (c->event_fd != -1)
			continue;
		c->event_fd = event_fd;
		c->chan_wr = chan_wr;
		c->user_handle = user_handle;
		c->reported = reported;
		ret = 0;
		break;
	}
	pthread_mutex_unlock(&verbs_event_lock);
	return ret;
}

void
verbs_event_unwatch(int event_fd)
{
	unsigned int i;

	pthread_once(&verbs_event_once, verbs_event_init);
	pthread_mutex_lock(&verbs_event_lock);
	for (i = 0; i < VERBS_EVENT_MAX && event_fd >= 0; i++)
		if (verbs_event_cqs[i].event_fd == event_fd)
			verbs_event_cqs[i].event_fd = -1;
	pthread_mutex_unlock(&verbs_event_lock);
}
