/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The device engine: a pthread that polls a device model, backing off when idle. */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_errno.h>

#include "hwsim_log.h"
#include "hwsim_thread.h"

#define HWSIM_ENGINE_NAME_LEN 32
#define HWSIM_THREAD_NAME_LEN 16	/* the kernel's limit, NUL included */
#define HWSIM_IDLE_MIN_US 1
#define HWSIM_IDLE_MAX_US 200

/*
 * lock serialises start/stop/destroy from control threads and is held across
 * pthread_join(); the engine thread itself never takes it, and start/stop/destroy
 * called from the engine thread check hwsim_engine_is_self() before locking.
 */
struct hwsim_engine {
	hwsim_poll_fn fn;
	void *arg;
	uint32_t idle_min_us;  /* atomic: read by the engine on every idle pass */
	uint32_t idle_max_us;  /* atomic */
	int stop;              /* atomic: set by stop, read by the engine */
	int tid_ready;         /* atomic: tid holds the live thread, see hwsim_engine_main() */
	int kick_fd;           /* eventfd: a kick ends the idle sleep at once */
	uint64_t passes;       /* atomic: passes of fn completed */
	uint64_t hot_until_ns; /* atomic: until then an idle pass yields instead of sleeping */
	int started;           /* a thread exists and has not been joined; under lock */
	pthread_t tid;
	pthread_mutex_t lock;
	char name[HWSIM_ENGINE_NAME_LEN];
};

uint64_t
hwsim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Consume pending kicks, so the next idle wait blocks again. */
static void
hwsim_engine_drain(struct hwsim_engine *e)
{
	uint64_t cnt;

	/* Non-blocking eventfd: one read takes the whole counter; EAGAIN means no kick. */
	if (read(e->kick_fd, &cnt, sizeof(cnt)) < 0 && errno != EAGAIN && errno != EINTR)
		HWSIM_LOG(DEBUG, "%s: kick fd read: %s", e->name, strerror(errno));
}

/*
 * Sleep up to us microseconds or until kicked.
 * @return 1 if a kick woke us, 0 on timeout.
 */
static int
hwsim_engine_wait(struct hwsim_engine *e, uint32_t us)
{
	struct pollfd pfd;
	struct timespec ts;

	pfd.fd = e->kick_fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	ts.tv_sec = us / 1000000;
	ts.tv_nsec = (long)(us % 1000000) * 1000;
	/* ppoll, not poll: poll() counts in milliseconds, far above our 1 us back-off floor. */
	if (ppoll(&pfd, 1, &ts, NULL) > 0 && (pfd.revents & POLLIN) != 0) {
		hwsim_engine_drain(e);
		return 1;
	}
	return 0;
}

static void *
hwsim_engine_main(void *p)
{
	struct hwsim_engine *e = p;
	uint32_t sleep_us;
	uint32_t max_us;

	/*
	 * pthread_create() may run us before it stores e->tid; wait for the creator to
	 * publish it so hwsim_engine_is_self() is right from the first pass of fn.
	 */
	while (__atomic_load_n(&e->tid_ready, __ATOMIC_ACQUIRE) == 0)
		sched_yield();
	sleep_us = __atomic_load_n(&e->idle_min_us, __ATOMIC_RELAXED);
	while (__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE) == 0) {
		int work = e->fn(e->arg);

		/* Release: a waiter that sees the count sees what the pass did. */
		__atomic_fetch_add(&e->passes, 1, __ATOMIC_RELEASE);
		if (work > 0) {
			sleep_us = __atomic_load_n(&e->idle_min_us, __ATOMIC_RELAXED);
			continue;
		}
		/*
		 * Hot (hwsim_engine_hot()): more work is expected within microseconds, sooner
		 * than a sleep and a kick's wake-up would take; yield the CPU, do not sleep.
		 */
		if (hwsim_now_ns() < __atomic_load_n(&e->hot_until_ns, __ATOMIC_RELAXED)) {
			sched_yield();
			continue;
		}
		/* Idle (or an error, which we treat the same): back off exponentially. */
		if (hwsim_engine_wait(e, sleep_us) != 0) {
			sleep_us = __atomic_load_n(&e->idle_min_us, __ATOMIC_RELAXED);
			continue;
		}
		max_us = __atomic_load_n(&e->idle_max_us, __ATOMIC_RELAXED);
		sleep_us = sleep_us > max_us / 2 ? max_us : sleep_us * 2;
	}
	return NULL;
}

struct hwsim_engine *
hwsim_engine_create(const char *name, hwsim_poll_fn fn, void *arg)
{
	struct hwsim_engine *e;

	if (fn == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* libc calloc: process-local state, usable without EAL. */
	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	e->kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (e->kick_fd < 0) {
		rte_errno = errno;
		HWSIM_LOG(ERR, "cannot create the kick eventfd: %s", strerror(errno));
		free(e);
		return NULL;
	}
	pthread_mutex_init(&e->lock, NULL);
	e->fn = fn;
	e->arg = arg;
	e->idle_min_us = HWSIM_IDLE_MIN_US;
	e->idle_max_us = HWSIM_IDLE_MAX_US;
	snprintf(e->name, sizeof(e->name), "%s", name != NULL ? name : "hwsim");
	return e;
}

/* idle_min_us 0 would busy-spin, so it becomes 1; idle_max_us below the minimum is raised. */
void
hwsim_engine_set_idle(struct hwsim_engine *e, uint32_t idle_min_us, uint32_t idle_max_us)
{
	if (idle_min_us == 0)
		idle_min_us = 1;
	if (idle_max_us < idle_min_us)
		idle_max_us = idle_min_us;
	__atomic_store_n(&e->idle_min_us, idle_min_us, __ATOMIC_RELAXED);
	__atomic_store_n(&e->idle_max_us, idle_max_us, __ATOMIC_RELAXED);
}

/* @return 0, -EBUSY (already started, or called from the engine thread) or -errno. */
int
hwsim_engine_start(struct hwsim_engine *e)
{
	char tname[HWSIM_THREAD_NAME_LEN];
	cpu_set_t all;
	int ret;

	if (hwsim_engine_is_self(e))
		return -EBUSY;
	pthread_mutex_lock(&e->lock);
	if (e->started) {
		ret = -EBUSY;
		goto out;
	}
	__atomic_store_n(&e->stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&e->tid_ready, 0, __ATOMIC_RELAXED);
	hwsim_engine_drain(e);
	ret = pthread_create(&e->tid, NULL, hwsim_engine_main, e);
	if (ret != 0) {
		HWSIM_LOG(ERR, "%s: cannot create the engine thread: %s", e->name, strerror(ret));
		ret = -ret;
		goto out;
	}
	/*
	 * Name and place the thread before it runs fn (it waits for tid_ready).
	 * The kernel keeps 15 characters and rejects longer names: cut ours.
	 */
	snprintf(tname, sizeof(tname), "%.*s", (int)sizeof(tname) - 1, e->name);
	if (pthread_setname_np(e->tid, tname) != 0)
		HWSIM_LOG(DEBUG, "%s: cannot name the engine thread", e->name);
	/*
	 * A device runs beside the CPUs, not on the driver's: EAL pinned the creating
	 * thread to its lcore and the engine would inherit that, so a driver busy-waiting
	 * on the device would starve it. Let it float over every CPU the kernel allows.
	 */
	memset(&all, 0xff, sizeof(all));
	if (pthread_setaffinity_np(e->tid, sizeof(all), &all) != 0)
		HWSIM_LOG(DEBUG, "%s: cannot widen the engine's CPU affinity", e->name);
	__atomic_store_n(&e->tid_ready, 1, __ATOMIC_RELEASE);
	e->started = 1;
out:
	pthread_mutex_unlock(&e->lock);
	return ret;
}

/*
 * From the engine thread itself (e.g. a device model that dies) stop only asks
 * the loop to end after this pass; a later stop or destroy from another thread
 * joins it.
 */
void
hwsim_engine_stop(struct hwsim_engine *e)
{
	if (e == NULL)
		return;
	if (hwsim_engine_is_self(e)) {
		__atomic_store_n(&e->stop, 1, __ATOMIC_RELEASE);
		return;
	}
	pthread_mutex_lock(&e->lock);
	if (e->started) {
		__atomic_store_n(&e->stop, 1, __ATOMIC_RELEASE);
		hwsim_engine_kick(e);
		pthread_join(e->tid, NULL);
		/* A joined thread's id may be reused: is_self must not match it any more. */
		__atomic_store_n(&e->tid_ready, 0, __ATOMIC_RELEASE);
		e->started = 0;
	}
	pthread_mutex_unlock(&e->lock);
}

uint64_t
hwsim_engine_passes(const struct hwsim_engine *e)
{
	return __atomic_load_n(&e->passes, __ATOMIC_ACQUIRE);
}

void
hwsim_engine_hot(struct hwsim_engine *e, uint32_t us)
{
	__atomic_store_n(&e->hot_until_ns, hwsim_now_ns() + (uint64_t)us * 1000, __ATOMIC_RELAXED);
}

void
hwsim_engine_kick(struct hwsim_engine *e)
{
	uint64_t one = 1;

	/* EAGAIN: the counter is saturated, so a wake-up is already pending. */
	if (write(e->kick_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		HWSIM_LOG(DEBUG, "%s: kick: %s", e->name, strerror(errno));
}

int
hwsim_engine_is_self(const struct hwsim_engine *e)
{
	if (e == NULL || __atomic_load_n(&e->tid_ready, __ATOMIC_ACQUIRE) == 0)
		return 0;
	return pthread_equal(e->tid, pthread_self()) != 0;
}

void
hwsim_engine_destroy(struct hwsim_engine *e)
{
	if (e == NULL)
		return;
	if (hwsim_engine_is_self(e)) {
		/* A thread cannot join and free itself; this is a device-model bug. */
		HWSIM_LOG(ERR, "%s: engine destroyed from its own thread, ignored", e->name);
		return;
	}
	hwsim_engine_stop(e);
	close(e->kick_fd);
	pthread_mutex_destroy(&e->lock);
	free(e);
}
