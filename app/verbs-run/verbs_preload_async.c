/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The verbs emulation's asynchronous events (doc/guides/platform/verbs_emulation.rst, "Async
 * events"): what the model reports (a port active or down, a CQ in error, an SRQ below its
 * limit, a QP's last WQE, the catastrophic error) goes, as the kernel's
 * ib_uverbs_event_handler() sends it, to the async event file of every context open on the
 * function (a queue's to its own context), one struct ib_uverbs_async_event_desc per event.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include <infiniband/verbs.h>

#include <rte_common.h>

#include "emu_path.h"
#include "mlx4v_class.h"
#include "mlx4v_sim.h"
#include "verbs_run.h"

#define VERBS_ASYNC_MAX_CTX 64
#define VERBS_ASYNC_MAX_CQ 1024

/** A context's async event file. */
struct verbs_async_ctx {
	int wr;                 /**< its write end, -1: free slot */
	unsigned int idx;       /**< the function */
};

/** What kind of queue an entry of verbs_async_cqs is: its number's kind and its event. */
enum verbs_async_kind {
	VERBS_ASYNC_CQ,         /**< IBV_EVENT_CQ_ERR */
	VERBS_ASYNC_SRQ,        /**< IBV_EVENT_SRQ_LIMIT_REACHED */
	VERBS_ASYNC_QP,         /**< IBV_EVENT_QP_LAST_WQE_REACHED */
};

/**
 * A CQ, SRQ or QP whose events name its user_handle, counted for its destroy command (in
 * *reported, or in count for a QP).
 */
struct verbs_async_cq {
	int wr;                 /**< its context's async file, -1: free slot */
	enum verbs_async_kind kind;
	uint32_t cqn;           /**< the CQ's, SRQ's or QP's number */
	uint64_t user_handle;
	uint32_t *reported;
	uint32_t count;         /**< a QP's events (reported points here) */
};

static const uint32_t verbs_async_kind_event[] = {
	[VERBS_ASYNC_CQ] = IBV_EVENT_CQ_ERR,
	[VERBS_ASYNC_SRQ] = IBV_EVENT_SRQ_LIMIT_REACHED,
	[VERBS_ASYNC_QP] = IBV_EVENT_QP_LAST_WQE_REACHED,
};

static struct verbs_async_ctx verbs_async_ctxs[VERBS_ASYNC_MAX_CTX];
static struct verbs_async_cq verbs_async_cqs[VERBS_ASYNC_MAX_CQ];
static pthread_mutex_t verbs_async_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t verbs_async_once = PTHREAD_ONCE_INIT;

static void
verbs_async_init(void)
{
	unsigned int i;

	for (i = 0; i < VERBS_ASYNC_MAX_CTX; i++)
		verbs_async_ctxs[i].wr = -1;
	for (i = 0; i < VERBS_ASYNC_MAX_CQ; i++)
		verbs_async_cqs[i].wr = -1;
}

/*
 * Lock held. One descriptor to one file; a full file loses it, as no reader is there. The
 * real write(): the interposed one takes the device lock, which a command holds while it
 * waits for this lock (GET_CONTEXT registers its async file here).
 */
static void
verbs_async_send(int wr, uint64_t element, uint32_t type)
{
	struct ib_uverbs_async_event_desc d;

	EMU_PATH_REAL(ssize_t, write, int, const void *, size_t);
	memset(&d, 0, sizeof(d));
	d.element = element;
	d.event_type = type;
	if (real_write(wr, &d, sizeof(d)) != (ssize_t)sizeof(d))
		VERBS_RUN_LOG("async event %s lost: %s", ibv_event_type_str(type),
			      strerror(errno));
}

/*
 * The model's callback (no model lock held). A port event names the port, for every context
 * of the function; a CQ error the CQ's user_handle, for its own context only; the
 * catastrophic error nothing, for every context.
 */
static void
verbs_async_event(struct mlx4v_sim *sim, const struct mlx4v_class_event *ev, void *arg)
{
	unsigned int idx = (unsigned int)(uintptr_t)arg, i;
	uint32_t type;

	RTE_SET_USED(sim);
	pthread_mutex_lock(&verbs_async_lock);
	if (ev->type == MLX4V_CLASS_EVENT_CQ_ERR || ev->type == MLX4V_CLASS_EVENT_SRQ_LIMIT ||
	    ev->type == MLX4V_CLASS_EVENT_QP_LAST_WQE) {
		enum verbs_async_kind kind = ev->type == MLX4V_CLASS_EVENT_CQ_ERR ? VERBS_ASYNC_CQ :
			ev->type == MLX4V_CLASS_EVENT_SRQ_LIMIT ? VERBS_ASYNC_SRQ : VERBS_ASYNC_QP;
		uint32_t num = kind == VERBS_ASYNC_CQ ? ev->cqn :
			kind == VERBS_ASYNC_SRQ ? ev->srqn : ev->qpn;

		for (i = 0; i < VERBS_ASYNC_MAX_CQ; i++) {
			struct verbs_async_cq *c = &verbs_async_cqs[i];

			if (c->wr < 0 || c->kind != kind || c->cqn != num)
				continue;
			/* Counted first: its destroy reports it; libibverbs awaits the ack. */
			(*c->reported)++;
			verbs_async_send(c->wr, c->user_handle, verbs_async_kind_event[kind]);
		}
		pthread_mutex_unlock(&verbs_async_lock);
		return;
	}
	switch (ev->type) {
	case MLX4V_CLASS_EVENT_PORT:
		type = ev->up ? IBV_EVENT_PORT_ACTIVE : IBV_EVENT_PORT_ERR;
		break;
	case MLX4V_CLASS_EVENT_DEAD:
		type = IBV_EVENT_DEVICE_FATAL;
		break;
	default:
		pthread_mutex_unlock(&verbs_async_lock);
		return;
	}
	VERBS_TRACE("mlx4_%u: async event %s", idx, ibv_event_type_str(type));
	for (i = 0; i < VERBS_ASYNC_MAX_CTX; i++)
		if (verbs_async_ctxs[i].wr >= 0 && verbs_async_ctxs[i].idx == idx)
			verbs_async_send(verbs_async_ctxs[i].wr,
					 type == IBV_EVENT_DEVICE_FATAL ? 0 : ev->port, type);
	pthread_mutex_unlock(&verbs_async_lock);
}

int
verbs_async_ctx_add(unsigned int idx, struct mlx4v_sim *sim, int wr)
{
	unsigned int i;
	int flags, ret;

	pthread_once(&verbs_async_once, verbs_async_init);
	/* Never block the model's thread on a context that does not read its events. */
	flags = fcntl(wr, F_GETFL);
	if (flags < 0 || fcntl(wr, F_SETFL, flags | O_NONBLOCK) < 0)
		return -errno;
	pthread_mutex_lock(&verbs_async_lock);
	/* Each time: a reset after a catastrophic error makes a new model (same callback). */
	ret = mlx4v_sim_host_event_set(sim, verbs_async_event, (void *)(uintptr_t)idx);
	if (ret)
		goto out;
	ret = -ENOMEM;
	for (i = 0; i < VERBS_ASYNC_MAX_CTX; i++) {
		if (verbs_async_ctxs[i].wr < 0) {
			verbs_async_ctxs[i].wr = wr;
			verbs_async_ctxs[i].idx = idx;
			ret = 0;
			break;
		}
	}
out:
	pthread_mutex_unlock(&verbs_async_lock);
	return ret;
}

void
verbs_async_ctx_del(int wr)
{
	unsigned int i;

	pthread_once(&verbs_async_once, verbs_async_init);
	pthread_mutex_lock(&verbs_async_lock);
	for (i = 0; i < VERBS_ASYNC_MAX_CTX; i++)
		if (verbs_async_ctxs[i].wr == wr)
			verbs_async_ctxs[i].wr = -1;
	for (i = 0; i < VERBS_ASYNC_MAX_CQ; i++)
		if (verbs_async_cqs[i].wr == wr)
			verbs_async_cqs[i].wr = -1;
	pthread_mutex_unlock(&verbs_async_lock);
}

/* A queue of the context whose async file is wr (reported NULL: a QP, counted in the entry). */
static int
verbs_async_queue_add(int wr, enum verbs_async_kind kind, uint32_t num, uint64_t user_handle,
		      uint32_t *reported)
{
	unsigned int i;
	int ret = -ENOMEM;

	pthread_once(&verbs_async_once, verbs_async_init);
	pthread_mutex_lock(&verbs_async_lock);
	for (i = 0; i < VERBS_ASYNC_MAX_CQ; i++) {
		if (verbs_async_cqs[i].wr < 0) {
			verbs_async_cqs[i].wr = wr;
			verbs_async_cqs[i].kind = kind;
			verbs_async_cqs[i].cqn = num;
			verbs_async_cqs[i].user_handle = user_handle;
			verbs_async_cqs[i].count = 0;
			verbs_async_cqs[i].reported = reported != NULL ? reported :
				&verbs_async_cqs[i].count;
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&verbs_async_lock);
	return ret;
}

/* @return the events the entry counted itself (a QP's), 0 for the others or none. */
static uint32_t
verbs_async_queue_del(int wr, enum verbs_async_kind kind, uint32_t num)
{
	uint32_t count = 0;
	unsigned int i;

	pthread_once(&verbs_async_once, verbs_async_init);
	pthread_mutex_lock(&verbs_async_lock);
	for (i = 0; i < VERBS_ASYNC_MAX_CQ; i++)
		if (verbs_async_cqs[i].wr == wr && verbs_async_cqs[i].kind == kind &&
		    verbs_async_cqs[i].cqn == num) {
			verbs_async_cqs[i].wr = -1;
			count += verbs_async_cqs[i].count;
		}
	pthread_mutex_unlock(&verbs_async_lock);
	return count;
}

int
verbs_async_cq_add(int wr, uint32_t cqn, uint64_t user_handle, uint32_t *reported)
{
	return verbs_async_queue_add(wr, VERBS_ASYNC_CQ, cqn, user_handle, reported);
}

int
verbs_async_srq_add(int wr, uint32_t srqn, uint64_t user_handle, uint32_t *reported)
{
	return verbs_async_queue_add(wr, VERBS_ASYNC_SRQ, srqn, user_handle, reported);
}

int
verbs_async_qp_add(int wr, uint32_t qpn, uint64_t user_handle)
{
	return verbs_async_queue_add(wr, VERBS_ASYNC_QP, qpn, user_handle, NULL);
}

uint32_t
verbs_async_qp_del(int wr, uint32_t qpn)
{
	return verbs_async_queue_del(wr, VERBS_ASYNC_QP, qpn);
}

void
verbs_async_cq_del(int wr, uint32_t cqn)
{
	verbs_async_queue_del(wr, VERBS_ASYNC_CQ, cqn);
}

void
verbs_async_srq_del(int wr, uint32_t srqn)
{
	verbs_async_queue_del(wr, VERBS_ASYNC_SRQ, srqn);
}
