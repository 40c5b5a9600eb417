/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file MSI-X as eventfds: per-vector trigger fds, counters and drop/duplicate knobs. */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_errno.h>

#include "hwsim_irq.h"
#include "hwsim_log.h"

struct hwsim_irq_vec {
	int fd;                    /* trigger, owned by the driver; -1 when detached */
	unsigned int drop_next;
	unsigned int dup_next;
	struct hwsim_irq_stats st;
};

/*
 * One mutex for the table. raise() holds it across write(), so once
 * hwsim_irq_attach(vec, -1) returns no raise can still write to the old fd, and
 * the driver may close it (the guarantee VFIO_DEVICE_SET_IRQS gives).
 */
struct hwsim_irq {
	pthread_mutex_t lock;
	unsigned int nvec;
	struct hwsim_irq_vec vec[];
};

struct hwsim_irq *
hwsim_irq_create(unsigned int nvec)
{
	struct hwsim_irq *irq;
	unsigned int i;

	if (nvec == 0) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* libc calloc: process-local state, usable without EAL. */
	irq = calloc(1, sizeof(*irq) + (size_t)nvec * sizeof(irq->vec[0]));
	if (irq == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&irq->lock, NULL);
	irq->nvec = nvec;
	for (i = 0; i < nvec; i++)
		irq->vec[i].fd = -1;
	return irq;
}

void
hwsim_irq_destroy(struct hwsim_irq *irq)
{
	if (irq == NULL)
		return;
	pthread_mutex_destroy(&irq->lock);
	free(irq);
}

unsigned int
hwsim_irq_count(const struct hwsim_irq *irq)
{
	return irq->nvec;
}

int
hwsim_irq_attach(struct hwsim_irq *irq, unsigned int vec, int fd)
{
	if (vec >= irq->nvec || fd < -1)
		return -EINVAL;
	pthread_mutex_lock(&irq->lock);
	irq->vec[vec].fd = fd;
	pthread_mutex_unlock(&irq->lock);
	return 0;
}

int
hwsim_irq_fd(struct hwsim_irq *irq, unsigned int vec)
{
	int fd;

	if (vec >= irq->nvec)
		return -1;
	pthread_mutex_lock(&irq->lock);
	fd = irq->vec[vec].fd;
	pthread_mutex_unlock(&irq->lock);
	return fd;
}

/*
 * Add 1 to the eventfd counter. EAGAIN means the counter is saturated: the
 * interrupt is already pending, which is what the raise asked for.
 * @return 0 or -errno of write().
 */
static int
hwsim_irq_signal(int fd)
{
	uint64_t one = 1;
	ssize_t n;

	for (;;) {
		n = write(fd, &one, sizeof(one));
		if (n == (ssize_t)sizeof(one))
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		return n < 0 ? -errno : -EIO;
	}
}

/*
 * Order of checks: the vector must be attached before a knob can act, so
 * drop_next/dup_next count only raises that would have reached the driver.
 * A dup raise counts once in raised and once in duplicated. A write() error other
 * than EAGAIN is returned as its -errno and logged.
 */
int
hwsim_irq_raise(struct hwsim_irq *irq, unsigned int vec)
{
	struct hwsim_irq_vec *v;
	int ret;

	if (vec >= irq->nvec)
		return -EINVAL;
	v = &irq->vec[vec];
	pthread_mutex_lock(&irq->lock);
	if (v->fd < 0) {
		v->st.unattached++;
		ret = -ENODEV;
		goto out;
	}
	if (v->drop_next > 0) {
		v->drop_next--;
		v->st.dropped++;
		ret = -EAGAIN;
		goto out;
	}
	ret = hwsim_irq_signal(v->fd);
	if (ret != 0) {
		HWSIM_LOG(ERR, "vector %u: cannot signal fd %d: %s", vec, v->fd, strerror(-ret));
		goto out;
	}
	v->st.raised++;
	if (v->dup_next > 0) {
		v->dup_next--;
		/* A spurious second message: the driver must tolerate finding no new work. */
		if (hwsim_irq_signal(v->fd) == 0)
			v->st.duplicated++;
	}
out:
	pthread_mutex_unlock(&irq->lock);
	return ret;
}

/* Both knobs set (not add to) the count; n = 0 cancels. A bad vector is logged and ignored. */
void
hwsim_irq_drop_next(struct hwsim_irq *irq, unsigned int vec, unsigned int n)
{
	if (vec >= irq->nvec) {
		HWSIM_LOG(ERR, "drop_next: vector %u out of range (%u vectors)", vec, irq->nvec);
		return;
	}
	pthread_mutex_lock(&irq->lock);
	irq->vec[vec].drop_next = n;
	pthread_mutex_unlock(&irq->lock);
}

void
hwsim_irq_dup_next(struct hwsim_irq *irq, unsigned int vec, unsigned int n)
{
	if (vec >= irq->nvec) {
		HWSIM_LOG(ERR, "dup_next: vector %u out of range (%u vectors)", vec, irq->nvec);
		return;
	}
	pthread_mutex_lock(&irq->lock);
	irq->vec[vec].dup_next = n;
	pthread_mutex_unlock(&irq->lock);
}

int
hwsim_irq_stats(struct hwsim_irq *irq, unsigned int vec, struct hwsim_irq_stats *st)
{
	if (vec >= irq->nvec || st == NULL)
		return -EINVAL;
	pthread_mutex_lock(&irq->lock);
	*st = irq->vec[vec].st;
	pthread_mutex_unlock(&irq->lock);
	return 0;
}
