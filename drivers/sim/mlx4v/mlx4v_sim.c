/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file
 * The simulated ConnectX-3 (mlx4v_sim): devargs, the device engine thread and the
 * registry of simulated devices. Its vdev front-end is mlx4v_sim_vdev.c.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_kvargs.h>

#include "mlx4v_class.h"
#include "mlx4v_log.h"
#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

RTE_LOG_REGISTER_DEFAULT(mlx4v_sim_logtype, NOTICE);

static TAILQ_HEAD(, mlx4v_sim) mlx4v_sims = TAILQ_HEAD_INITIALIZER(mlx4v_sims);
static pthread_mutex_t mlx4v_sims_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * One pass of the device model, sim->lock held: from the engine thread, or from a test that steps
 * the device synchronously through mlx4v_sim_poll(). Returns the amount of work done so the engine
 * can back off when idle.
 */
int
mlx4v_sim_poll_locked(struct mlx4v_sim *sim)
{
	struct mlx4v_sim_qp *qp;
	unsigned int i;
	int work = 0;

	/* The prefetcher reads ahead of the send engine before it walks (sq_prefetch). */
	mlx4v_sim_sq_prefetch_poll_locked(sim);
	/* Doorbells are plain stores: consume each watched word once (prm/mlx4 §7). */
	for (i = 0; i < MLX4V_SIM_MAX_CQ; i++)
		if (sim->cqs[i] != NULL)
			/*
			 * Each CQ and QP has its own UAR page (prm/mlx4 §7): with libmlx4's shared
			 * page a repeated doorbell value would be indistinguishable.
			 */
			work += hwsim_mmio_poll(sim->cqs[i]->page);
	for (i = 0; i < MLX4V_SIM_MAX_QP; i++) {
		qp = sim->qps[i];
		/* WQs and RSS QPs have no SQ, hence no page. */
		if (qp != NULL && qp->page != NULL)
			work += hwsim_mmio_poll(qp->page);
	}
	/* A WQ in ERR flushes what software posts to it (rq_err_to_err). */
	for (i = 0; i < MLX4V_SIM_MAX_QP; i++) {
		qp = sim->qps[i];
		if (qp != NULL && qp->is_wq && qp->wq_state == RTE_PMD_MLX4V_WQS_ERR)
			work += mlx4v_sim_rq_flush(sim, &qp->rq);
	}
	/* The send doorbell is a hint: the SQ walk finds work by owner bits. */
	for (i = 0; i < MLX4V_SIM_MAX_QP; i++) {
		qp = sim->qps[i];
		if (qp == NULL || qp->is_wq || qp->db_pending == 0)
			continue;
		/*
		 * Doorbells only schedule a scan; several rings before a pass collapse into one
		 * walk, which finds every valid WQE anyway.
		 */
		qp->db_pending = 0;
		work += mlx4v_sim_sq_process(qp);
	}
	return work;
}

void
mlx4v_sim_report(struct mlx4v_sim *sim, const struct mlx4v_class_event *ev)
{
	mlx4v_sim_host_event_cb cb = __atomic_load_n(&sim->host_event, __ATOMIC_ACQUIRE);

	if (ev->type == MLX4V_CLASS_EVENT_CQ_ERR)
		mlx4v_class_dev_cq_error(sim->name, ev->cqn);
	else
		mlx4v_class_dev_event(sim->name, ev);
	if (cb != NULL)
		cb(sim, ev, sim->host_event_arg);
}

/* An overrun CQ's asynchronous error event, with no model lock held. */
static void
mlx4v_sim_cq_error_report(struct mlx4v_sim *sim, uint32_t cqn)
{
	struct mlx4v_class_event ev = { .type = MLX4V_CLASS_EVENT_CQ_ERR, .cqn = cqn };

	mlx4v_sim_report(sim, &ev);
}

/*
 * A dead device (catastrophic error, the fatal knob): no doorbell is served, no CQE written,
 * no link reported. The classes hear DEAD once, with no model lock held
 * (doc/guides/sim/mlx4v_sim.rst, "Fatal error").
 */
static int
mlx4v_sim_engine_dead(struct mlx4v_sim *sim)
{
	struct mlx4v_class_event ev = { .type = MLX4V_CLASS_EVENT_DEAD };

	if (__atomic_exchange_n(&sim->dead_reported, 1, __ATOMIC_ACQ_REL) != 0)
		return 0;
	mlx4v_sim_report(sim, &ev);
	return 1;
}

/*
 * Engine thread entry: one pass under the model lock, then the frames it sent go on the wire
 * with the model lock released (the receiver may be this device), then the link reports.
 */
static int
mlx4v_sim_engine_poll(void *arg)
{
	struct mlx4v_sim *sim = arg;
	uint32_t cqns[MLX4V_SIM_MAX_CQ], srqns[MLX4V_SIM_MAX_SRQ], qpns[MLX4V_SIM_MAX_QP];
	unsigned int i, nerr, nlim, nlast;
	int work;

	if (mlx4v_sim_dead(sim))
		return mlx4v_sim_engine_dead(sim);
	pthread_mutex_lock(&sim->tx_lock);
	pthread_mutex_lock(&sim->lock);
	work = mlx4v_sim_poll_locked(sim);
	nerr = mlx4v_sim_cq_errors_take(sim, cqns);
	nlim = mlx4v_sim_srq_limits_take(sim, srqns);
	nlast = mlx4v_sim_srq_last_wqe_take(sim, qpns);
	pthread_mutex_unlock(&sim->lock);
	work += mlx4v_sim_wire_flush(sim);
	pthread_mutex_unlock(&sim->tx_lock);
	/* The asynchronous CQ error events, with no model lock held (verbs lock ranks first). */
	for (i = 0; i < nerr; i++)
		mlx4v_sim_cq_error_report(sim, cqns[i]);
	for (i = 0; i < nlim; i++) {
		struct mlx4v_class_event ev = {
			.type = MLX4V_CLASS_EVENT_SRQ_LIMIT, .srqn = srqns[i],
		};

		mlx4v_sim_report(sim, &ev);
	}
	for (i = 0; i < nlast; i++) {
		struct mlx4v_class_event ev = {
			.type = MLX4V_CLASS_EVENT_QP_LAST_WQE, .qpn = qpns[i],
		};

		mlx4v_sim_report(sim, &ev);
	}
	work += nerr + nlim + nlast;
	work += mlx4v_sim_wire_link_poll(sim);
	return work;
}

/* Test hook: run one engine pass synchronously, for deterministic unit tests. */
int
mlx4v_sim_poll(struct mlx4v_sim *sim)
{
	if (sim == NULL)
		return 0;
	return mlx4v_sim_engine_poll(sim);
}

int
mlx4v_sim_cq_info(struct mlx4v_sim *sim, uint32_t cqn, struct mlx4v_sim_cq_info *info)
{
	struct mlx4v_sim_cq *scq;
	int ret = -ENOENT;

	/* CQN n is slot n - 1 (mlx4v_sim_cq_create()). */
	if (cqn == 0 || cqn > MLX4V_SIM_MAX_CQ)
		return -ENOENT;
	pthread_mutex_lock(&sim->lock);
	scq = sim->cqs[cqn - 1];
	if (scq != NULL) {
		info->buf = scq->buf;
		info->cqe_cnt = scq->cqe_cnt;
		info->cqe_size = scq->cqe_size;
		info->set_ci_db = scq->set_ci_db;
		ret = 0;
	}
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

int
mlx4v_sim_qp_info(struct mlx4v_sim *sim, uint32_t qpn, struct mlx4v_sim_qp_info *info)
{
	struct mlx4v_sim_qp *qp;
	unsigned int i;
	int ret = -ENOENT;

	pthread_mutex_lock(&sim->lock);
	for (i = 0; i < MLX4V_SIM_MAX_QP; i++) {
		qp = sim->qps[i];
		if (qp == NULL || qp->qpn != qpn || qp->is_wq || qp->is_rss)
			continue;
		info->sq = qp->sq;
		info->sq_wqe_cnt = qp->sq_wqe_cnt;
		info->sq_shift = qp->sq_shift;
		info->rq = qp->rq.base;
		info->rq_wqe_cnt = qp->rq.wqe_cnt;
		info->rq_shift = qp->rq.wqe_shift;
		info->rdb = qp->rq.rdb;
		info->doorbell_qpn = qp->doorbell_qpn;
		ret = 0;
		break;
	}
	pthread_mutex_unlock(&sim->lock);
	return ret;
}

int
mlx4v_sim_uar_store(struct mlx4v_sim *sim, uint32_t off, uint64_t raw)
{
	struct mlx4v_sim_qp *qp;
	uint32_t cqn;
	unsigned int i;
	int found = 0;

	if (off != MLX4V_CQ_DOORBELL && off != MLX4V_SEND_DOORBELL)
		return -EINVAL;
	if (mlx4v_sim_dead(sim))
		return -EIO;
	pthread_mutex_lock(&sim->lock);
	if (off == MLX4V_CQ_DOORBELL) {
		/* cqn in bits 23:0 of the first big-endian dword (prm/mlx4 §4.8). */
		cqn = rte_be_to_cpu_32((uint32_t)raw) & 0xffffffu;
		if (cqn != 0 && cqn <= MLX4V_SIM_MAX_CQ && sim->cqs[cqn - 1] != NULL) {
			mlx4v_sim_cq_doorbell(sim->cqs[cqn - 1], off, raw);
			found = 1;
		} else {
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_ARM_CQN,
					 "UAR: arm doorbell names CQ 0x%x, not live", cqn);
		}
	} else {
		for (i = 0; i < MLX4V_SIM_MAX_QP && !found; i++) {
			qp = sim->qps[i];
			if (qp != NULL && qp->page != NULL && qp->doorbell_qpn == (uint32_t)raw) {
				mlx4v_sim_sq_doorbell(qp, off, raw);
				found = 1;
			}
		}
		if (!found)
			mlx4v_sim_misuse(sim, MLX4V_SIM_MISUSE_SDB_VALUE,
					 "UAR: send doorbell 0x%08x names no QP", (uint32_t)raw);
	}
	pthread_mutex_unlock(&sim->lock);
	/* The send doorbell only schedules a scan: the engine runs it now. */
	if (found)
		hwsim_engine_kick(sim->engine);
	return 0;
}

/* Only the registry lock: sim itself outlives the lookup until vdev remove. */
struct mlx4v_sim *
mlx4v_sim_get(const char *name)
{
	struct mlx4v_sim *sim;

	pthread_mutex_lock(&mlx4v_sims_lock);
	TAILQ_FOREACH(sim, &mlx4v_sims, next)
		if (name != NULL && strcmp(sim->name, name) == 0)
			break;
	pthread_mutex_unlock(&mlx4v_sims_lock);
	if (sim == NULL)
		rte_errno = ENODEV;
	return sim;
}

int
mlx4v_sim_port_event(struct mlx4v_sim *sim, unsigned int port, int up)
{
	struct mlx4v_class_event ev = { .type = MLX4V_CLASS_EVENT_PORT, .port = port, .up = !!up };

	if (sim == NULL || port < 1 || port > sim->nports)
		return -EINVAL;
	mlx4v_sim_report(sim, &ev);
	return 0;
}

unsigned int
mlx4v_sim_ports(struct mlx4v_sim *sim)
{
	return sim != NULL ? sim->nports : 0;
}

unsigned int
mlx4v_sim_live_objects(struct mlx4v_sim *sim, enum mlx4v_sim_obj kind)
{
	unsigned int n;

	if (sim == NULL || (unsigned int)kind >= MLX4V_SIM_OBJ_MAX)
		return 0;
	pthread_mutex_lock(&sim->lock);
	/* Under the model lock: the engine and the verbs backend update these counters. */
	n = sim->live[kind];
	pthread_mutex_unlock(&sim->lock);
	return n;
}

int
mlx4v_sim_stats_get(struct mlx4v_sim *sim, struct mlx4v_sim_stats *st)
{
	if (sim == NULL || st == NULL)
		return -EINVAL;
	pthread_mutex_lock(&sim->lock);
	*st = sim->stats;
	pthread_mutex_unlock(&sim->lock);
	return 0;
}

/* kvargs handler for ports=<1-4>; runs at probe, before the engine exists. */
static int
mlx4v_sim_arg_ports(const char *key, const char *value, void *opaque)
{
	struct mlx4v_sim *sim = opaque;
	char *end;
	unsigned long n;

	if (value == NULL || value[0] == '\0') {
		MLX4V_SIM_LOG(ERR, "%s: %s: no value (expected 1..%d)", sim->name, key,
			      MLX4V_SIM_MAX_PORTS);
		return -EINVAL;
	}
	errno = 0;
	n = strtoul(value, &end, 0);
	if (errno != 0 || *end != '\0' || n < 1 || n > MLX4V_SIM_MAX_PORTS) {
		MLX4V_SIM_LOG(ERR, "%s: %s=%s: expected 1..%d", sim->name, key, value,
			      MLX4V_SIM_MAX_PORTS);
		return -EINVAL;
	}
	sim->nports = n;
	return 0;
}

/*
 * kvargs handler: the shorthand for the wires of every port. loopback loops each port back
 * (wire<N>=loop); pair cables 1<->2, 3<->4 (wire1=pair:<self>.2, ...), see
 * mlx4v_sim_wire_args().
 */
static int
mlx4v_sim_arg_mode(const char *key, const char *value, void *opaque)
{
	struct mlx4v_sim *sim = opaque;

	sim->mode_given = 1;
	if (value == NULL) {
		MLX4V_SIM_LOG(ERR, "%s: %s: no value (expected loopback or pair)", sim->name, key);
		return -EINVAL;
	}
	if (strcmp(value, "loopback") == 0) {
		sim->pair = 0;
	} else if (strcmp(value, "pair") == 0) {
		sim->pair = 1;
	} else {
		MLX4V_SIM_LOG(ERR, "%s: %s=%s: expected loopback or pair", sim->name, key,
			      value);
		return -EINVAL;
	}
	return 0;
}

/*
 * Device keys through kvargs (ports= first: the wire keys depend on it), the wire keys through
 * the shared wire parser, fault knobs through the hwsim parser. No devargs: default wires.
 */
static int
mlx4v_sim_parse_args(struct mlx4v_sim *sim, const char *args)
{
	struct rte_kvargs *kv = NULL;
	int ret = 0;

	/* What the vdev left of its devargs: parsed once there, no key twice (mlx4v_sim_vdev.c). */
	if (args != NULL && args[0] != '\0') {
		kv = rte_kvargs_parse(args, NULL);
		if (kv == NULL) {
			MLX4V_SIM_LOG(ERR, "%s: cannot parse devargs \"%s\"", sim->name, args);
			return -EINVAL;
		}
		ret = rte_kvargs_process(kv, "ports", mlx4v_sim_arg_ports, sim);
		if (ret == 0)
			ret = rte_kvargs_process(kv, "mode", mlx4v_sim_arg_mode, sim);
	}
	if (ret == 0)
		ret = mlx4v_sim_wire_args(sim, kv);
	rte_kvargs_free(kv);
	if (ret)
		return -EINVAL;
	return hwsim_knobs_parse(sim->knobs, args, mlx4v_sim_dev_keys);
}

struct mlx4v_sim *
mlx4v_sim_create(const char *name, const char *args, int socket)
{
	struct mlx4v_sim *sim;
	int ret;

	sim = calloc(1, sizeof(*sim));
	if (sim == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	strlcpy(sim->name, name, sizeof(sim->name));
	/* Two ports by default, as a dual-port ConnectX-3. */
	sim->nports = 2;
	sim->socket = socket;
	TAILQ_INIT(&sim->flows);
	pthread_mutex_init(&sim->lock, NULL);
	sim->knobs = mlx4v_sim_knobs_create();
	if (sim->knobs == NULL) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = mlx4v_sim_parse_args(sim, args);
	if (ret)
		goto err_knobs_destroy;
	sim->dma = hwsim_dma_create(name);
	if (sim->dma == NULL) {
		ret = -ENOMEM;
		goto err_knobs_destroy;
	}
	sim->irq = hwsim_irq_create(MLX4V_SIM_MAX_CQ);
	if (sim->irq == NULL) {
		ret = -ENOMEM;
		goto err_dma_destroy;
	}
	sim->engine = hwsim_engine_create(name, mlx4v_sim_engine_poll, sim);
	if (sim->engine == NULL) {
		ret = -ENOMEM;
		goto err_irq_destroy;
	}
	/* The ports plug in once the engine exists: their link callbacks kick it. */
	ret = mlx4v_sim_wire_init(sim);
	if (ret)
		goto err_engine_destroy;
	/*
	 * The engine starts polling before the device is registered; harmless, it has no object to
	 * poll until a handle creates one.
	 */
	ret = hwsim_engine_start(sim->engine);
	if (ret)
		goto err_wire_fini;
	pthread_mutex_lock(&mlx4v_sims_lock);
	TAILQ_INSERT_TAIL(&mlx4v_sims, sim, next);
	pthread_mutex_unlock(&mlx4v_sims_lock);
	return sim;

err_wire_fini:
	mlx4v_sim_wire_fini(sim);
err_engine_destroy:
	hwsim_engine_destroy(sim->engine);
err_irq_destroy:
	hwsim_irq_destroy(sim->irq);
err_dma_destroy:
	hwsim_dma_destroy(sim->dma);
err_knobs_destroy:
	hwsim_knobs_destroy(sim->knobs);
err_free:
	pthread_mutex_destroy(&sim->lock);
	free(sim);
	rte_errno = -ret;
	return NULL;
}

/* Mirrors mlx4v_sim_create() in reverse. */
void
mlx4v_sim_destroy(struct mlx4v_sim *sim)
{
	pthread_mutex_lock(&mlx4v_sims_lock);
	TAILQ_REMOVE(&mlx4v_sims, sim, next);
	pthread_mutex_unlock(&mlx4v_sims_lock);
	/* Already stopped on the remove path (a no-op then); needed on probe failure. */
	hwsim_engine_stop(sim->engine);
	mlx4v_sim_wire_fini(sim);
	hwsim_engine_destroy(sim->engine);
	hwsim_irq_destroy(sim->irq);
	hwsim_dma_destroy(sim->dma);
	hwsim_knobs_destroy(sim->knobs);
	pthread_mutex_destroy(&sim->lock);
	free(sim);
}

struct mlx4v_sim *
mlx4v_sim_host_create(const char *name, const char *args)
{
	struct mlx4v_sim *sim = mlx4v_sim_create(name, args, SOCKET_ID_ANY);

	if (sim != NULL)
		sim->hosted = 1;
	return sim;
}

void
mlx4v_sim_host_destroy(struct mlx4v_sim *sim)
{
	if (sim == NULL)
		return;
	/* As the vdev remove: no engine pass may run while the objects go away. */
	hwsim_engine_stop(sim->engine);
	mlx4v_sim_destroy(sim);
}

const struct mlx4v_verbs_ops *
mlx4v_sim_host_ops(void)
{
	return &mlx4v_sim_verbs_ops;
}

int
mlx4v_sim_host_event_set(struct mlx4v_sim *sim, mlx4v_sim_host_event_cb cb, void *arg)
{
	if (sim == NULL || !sim->hosted)
		return -EINVAL;
	/* The argument first: a reporter that sees the callback sees its argument. */
	sim->host_event_arg = arg;
	__atomic_store_n(&sim->host_event, cb, __ATOMIC_RELEASE);
	return 0;
}
