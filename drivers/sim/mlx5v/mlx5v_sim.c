/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file The mlx5 device model: creation, registry, engine loop and accounting. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "mlx5v_hw.h"
#include "mlx5v_sim_eth_dp.h"
#include "mlx5v_sim_priv.h"

RTE_LOG_REGISTER_DEFAULT(mlx5v_sim_logtype, NOTICE);

/* Every live simulator, so a front-end or test can find one by its EAL name. */
static TAILQ_HEAD(, mlx5v_sim) mlx5v_sim_list = TAILQ_HEAD_INITIALIZER(mlx5v_sim_list);
static pthread_mutex_t mlx5v_sim_list_lock = PTHREAD_MUTEX_INITIALIZER;

#define MLX5V_SIM_DEF_MSIX 8
#define MLX5V_SIM_DEF_PORTS 1
#define MLX5V_SIM_DEF_BOOT_PAGES 16
#define MLX5V_SIM_DEF_INIT_PAGES 32
#define MLX5V_SIM_DEF_MAX_EQS 64
/* The engine stays awake this long after commands (cmd_hot_us=). */
#define MLX5V_SIM_DEF_CMD_HOT_US 0
#define MLX5V_SIM_MAX_CMD_HOT_US 10000
#define MLX5V_SIM_MAX_PORTS 4
/*
 * Well beyond the 120 000 ms both drivers wait for initializing (prm/mlx5 §1.3), so a test can
 * provoke their EBUSY.
 */
#define MLX5V_SIM_MAX_BOOT_MS 600000

void
mlx5v_sim_params_default(struct mlx5v_sim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->msix = MLX5V_SIM_DEF_MSIX;
	p->ports = MLX5V_SIM_DEF_PORTS;
	p->boot_ms = 0;
	p->boot_pages = MLX5V_SIM_DEF_BOOT_PAGES;
	p->init_pages = MLX5V_SIM_DEF_INIT_PAGES;
	p->log_max_eq_sz = MLX5V_SIM_LOG_MAX_EQ_SZ;
	p->max_eqs = MLX5V_SIM_DEF_MAX_EQS;
	p->host_page = MLX5V_SIM_MIN_HOST_PAGE;
	p->first_num = 1;
	p->cmd_hot_us = MLX5V_SIM_DEF_CMD_HOT_US;
	p->numa_node = -1;
	p->knobs = NULL;
}

/*
 * Devargs parsing is deliberately lenient about keys: device keys are taken here, every
 * other key is left for hwsim_knobs_parse() at create time, which rejects unknown names.
 * A front-end can therefore pass its whole devargs string through.
 */

/* Parse the unsigned decimal or 0x-hex number in [s, s + len). @return 0 or -EINVAL. */
static int
mlx5v_sim_parse_uint(const char *s, size_t len, unsigned int *out)
{
	char buf[24];
	char *end;
	unsigned long v;

	/* strtoul() accepts a sign and negates modulo 2^64: "-4294967295" would read as 1. */
	if (len == 0 || len >= sizeof(buf) || s[0] == '-' || s[0] == '+')
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoul(buf, &end, 0);
	if (errno != 0 || *end != '\0' || v > UINT32_MAX)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/* One device key of the devargs string. @return 0, -EINVAL, or 1 (not a device key). */
static int
mlx5v_sim_params_key(struct mlx5v_sim_params *p, const char *key, size_t klen,
		     const char *val, size_t vlen)
{
	static const char *const keys[] = {
		"msix", "ports", "boot_ms", "boot_pages", "init_pages", "log_max_eq_sz",
		"max_eqs", "host_page", "first_num", "cmd_hot_us",
	};
	unsigned int *fields[RTE_DIM(keys)];
	const char *colon;
	unsigned int i;

	fields[0] = &p->msix;
	fields[1] = &p->ports;
	fields[2] = &p->boot_ms;
	fields[3] = &p->boot_pages;
	fields[4] = &p->init_pages;
	fields[5] = &p->log_max_eq_sz;
	fields[6] = &p->max_eqs;
	fields[7] = &p->host_page;
	fields[8] = &p->first_num;
	fields[9] = &p->cmd_hot_us;
	if (klen == 8 && strncmp(key, "function", 8) == 0) {
		/* function=pf|vf: which PCI function the model plays. */
		if (vlen == 2 && (strncmp(val, "pf", 2) == 0 || strncmp(val, "vf", 2) == 0)) {
			p->vf = val[0] == 'v';
			return 0;
		}
		return -EINVAL;
	}
	if (klen == 5 && strncmp(key, "pages", 5) == 0) {
		/* pages=<boot>[:<init>] */
		colon = memchr(val, ':', vlen);
		if (colon == NULL)
			return mlx5v_sim_parse_uint(val, vlen, &p->boot_pages);
		if (mlx5v_sim_parse_uint(val, colon - val, &p->boot_pages) != 0)
			return -EINVAL;
		return mlx5v_sim_parse_uint(colon + 1, vlen - (colon - val) - 1,
					    &p->init_pages);
	}
	for (i = 0; i < RTE_DIM(keys); i++)
		if (strlen(keys[i]) == klen && strncmp(keys[i], key, klen) == 0)
			return mlx5v_sim_parse_uint(val, vlen, fields[i]);
	return 1;
}

int
mlx5v_sim_params_parse(struct mlx5v_sim_params *p, const char *devargs)
{
	const char *s = devargs;
	const char *eq;
	const char *end;
	int ret;

	if (p == NULL)
		return -EINVAL;
	/* The whole string is kept for hwsim_knobs_parse(), which skips the device keys. */
	p->knobs = devargs;
	if (devargs == NULL)
		return 0;
	while (*s != '\0') {
		end = strchr(s, ',');
		if (end == NULL)
			end = s + strlen(s);
		eq = memchr(s, '=', end - s);
		if (eq != NULL) {
			ret = mlx5v_sim_params_key(p, s, eq - s, eq + 1, end - eq - 1);
			if (ret < 0) {
				SIM_LOG(ERR, "devargs \"%s\": bad value for '%.*s'", devargs,
					(int)(eq - s), s);
				return ret;
			}
		}
		s = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* The limits come from the model (EQN is 8 bits and 0 is reserved, owner math needs
 * log sizes below 24) and from the control API (ports 1..4). @return 0 or -EINVAL.
 */
static int
mlx5v_sim_params_check(const struct mlx5v_sim_params *p)
{
	if (p->msix < 2 || p->msix > MLX5V_SIM_MAX_MSIX)
		return -EINVAL;
	if (p->ports < 1 || p->ports > MLX5V_SIM_MAX_PORTS)
		return -EINVAL;
	if (p->boot_ms > MLX5V_SIM_MAX_BOOT_MS)
		return -EINVAL;
	if (p->log_max_eq_sz < 1 || p->log_max_eq_sz > MLX5V_SIM_LOG_MAX_EQ_SZ)
		return -EINVAL;
	if (p->max_eqs < 1 || p->max_eqs > MLX5V_SIM_MAX_EQN)
		return -EINVAL;
	if (p->first_num > 1 || (p->first_num == 0 && p->max_eqs > MLX5V_SIM_MAX_EQN - 1))
		return -EINVAL;
	if (p->boot_pages + (uint64_t)p->init_pages > MLX5V_SIM_MAX_PAGES)
		return -EINVAL;
	if (p->cmd_hot_us > MLX5V_SIM_MAX_CMD_HOT_US)
		return -EINVAL;
	if (p->host_page < MLX5V_SIM_MIN_HOST_PAGE || p->host_page > MLX5V_SIM_MAX_HOST_PAGE ||
	    !rte_is_power_of_2(p->host_page))
		return -EINVAL;
	return 0;
}

/* Counters are read by test threads while the engine updates them: relaxed atomics. */
void
mlx5v_sim_ctr_add(struct mlx5v_sim *sim, enum mlx5v_sim_ctr ctr, uint64_t n)
{
	__atomic_fetch_add(&sim->ctr[ctr], n, __ATOMIC_RELAXED);
}

void
mlx5v_sim_ctr_inc(struct mlx5v_sim *sim, enum mlx5v_sim_ctr ctr)
{
	mlx5v_sim_ctr_add(sim, ctr, 1);
}

int64_t
mlx5v_sim_knob(struct mlx5v_sim *sim, enum mlx5v_sim_knob k)
{
	return hwsim_knob(sim->knobs, k);
}

/*
 * MSI-X raises are only queued under the model lock; mlx5v_sim_irq_flush() writes the
 * eventfds after the lock is dropped, so a driver thread blocked on the lock is never
 * waiting behind a system call, and attach/detach (hwsim_irq's own lock) cannot deadlock.
 */
void
mlx5v_sim_irq_queue(struct mlx5v_sim *sim, uint32_t vec)
{
	if (vec >= sim->p.msix)
		return;
	sim->irq_pending[vec]++;
	/*
	 * A hint for the flush fast path; the counts are read under the lock. Release pairs with
	 * the acquire in mlx5v_sim_irq_flush().
	 */
	__atomic_store_n(&sim->irq_queued, 1, __ATOMIC_RELEASE);
	mlx5v_sim_ctr_inc(sim, MLX5V_SIM_CTR_MSIX);
}

#define MLX5V_SIM_IRQ_BATCH 32

int
mlx5v_sim_irq_flush(struct mlx5v_sim *sim)
{
	uint32_t vec[MLX5V_SIM_IRQ_BATCH];
	uint32_t cnt[MLX5V_SIM_IRQ_BATCH];
	unsigned int n;
	unsigned int v;
	unsigned int i;
	int raised = 0;
	int more;

	/* Fast path for the engine's every pass: nothing queued since the last flush. */
	if (__atomic_load_n(&sim->irq_queued, __ATOMIC_ACQUIRE) == 0)
		return 0;
	do {
		/* Take the counts under the lock, signal outside it (eventfd writes). */
		n = 0;
		more = 0;
		pthread_mutex_lock(&sim->lock);
		for (v = 0; v < sim->p.msix; v++) {
			if (sim->irq_pending[v] == 0)
				continue;
			if (v >= sim->msix_on) {
				/* VFIO has not enabled the vector: the interrupt goes nowhere. */
				SIM_LOG(ERR, "%s: MSI-X vector %u raised but not enabled (%u are)",
					sim->name, v, sim->msix_on);
				__atomic_fetch_add(&sim->ctr[MLX5V_SIM_CTR_MSIX_NOT_ENABLED],
						   sim->irq_pending[v], __ATOMIC_RELAXED);
				sim->irq_pending[v] = 0;
				continue;
			}
			if (n == MLX5V_SIM_IRQ_BATCH) {
				more = 1;
				break;
			}
			vec[n] = v;
			cnt[n++] = sim->irq_pending[v];
			sim->irq_pending[v] = 0;
		}
		/*
		 * Cleared under the lock and before signalling: a raise queued after this point
		 * sets the flag again, so none is left pending behind a clear flag.
		 */
		if (!more)
			__atomic_store_n(&sim->irq_queued, 0, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&sim->lock);
		for (i = 0; i < n; i++) {
			/*
			 * One raise per queued event: losing or duplicating an MSI-X is the job of
			 * the hwsim_irq fault knobs, not of coalescing here.
			 */
			while (cnt[i]-- > 0) {
				hwsim_irq_raise(sim->irq, vec[i]);
				raised++;
			}
		}
	} while (more);
	return raised;
}

/* The engine: one pass over everything the device does on its own. */
static int
mlx5v_sim_poll(void *arg)
{
	struct mlx5v_sim *sim = arg;
	int work = 0;

	/*
	 * Doorbells first, then commands: a test (or driver) that rings a UAR doorbell and
	 * then posts a command knows the doorbell was handled once the command completes.
	 * MSI-X last, after everything this pass produced.
	 */
	work += mlx5v_sim_uars_poll(sim);
	/* A host that maps BAR0 stores the queue address and the command doorbell there. */
	work += mlx5v_sim_bar_poll(sim);
	work += mlx5v_sim_cmd_poll(sim);
	work += mlx5v_sim_eth_dp_poll(sim);
	/*
	 * Not counted as work: a heartbeat alone must not keep the engine out of its idle back-off.
	 */
	mlx5v_sim_health_tick(sim, hwsim_now_ns());
	work += mlx5v_sim_irq_flush(sim);
	return work;
}

/* Tear down in reverse creation order; every step accepts a partly built model. */
static void
mlx5v_sim_free(struct mlx5v_sim *sim)
{
	/*
	 * The wire port first: until it is gone the wire may call into the model, and unplugging
	 * it kicks the engine (stopped, not yet freed).
	 */
	mlx5v_sim_eth_dp_fini(sim);
	hwsim_engine_destroy(sim->engine);
	mlx5v_sim_bar_fini(sim);
	mlx5v_sim_uars_fini(sim);
	mlx5v_sim_eth_fini(sim);
	mlx5v_sim_cq_free_all(sim);
	mlx5v_sim_eq_free_all(sim);
	mlx5v_sim_pages_free(sim);
	hwsim_irq_destroy(sim->irq);
	hwsim_dma_destroy(sim->dma);
	hwsim_knobs_destroy(sim->knobs);
	free(sim->irq_pending);
	free(sim->cq);
	pthread_mutex_destroy(&sim->lock);
	free(sim);
}

struct mlx5v_sim *
mlx5v_sim_create(const char *name, const struct mlx5v_sim_params *params)
{
	struct mlx5v_sim_params def;
	struct mlx5v_sim *sim;
	int ret;

	if (name == NULL || strlen(name) >= sizeof(sim->name)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (params == NULL) {
		mlx5v_sim_params_default(&def);
		params = &def;
	}
	ret = mlx5v_sim_params_check(params);
	if (ret != 0) {
		SIM_LOG(ERR, "%s: bad parameters (msix %u ports %u boot_ms %u eq_sz %u eqs %u)",
			name, params->msix, params->ports, params->boot_ms,
			params->log_max_eq_sz, params->max_eqs);
		rte_errno = -ret;
		return NULL;
	}
	if (mlx5v_sim_get(name) != NULL) {
		rte_errno = EEXIST;
		return NULL;
	}
	/* libc, not rte_malloc: the model is process-local state, never device memory. */
	sim = calloc(1, sizeof(*sim));
	if (sim == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	/* A plain mutex: handlers do DMA (hwsim_dma takes a rwlock) with it held. */
	pthread_mutex_init(&sim->lock, NULL);
	snprintf(sim->name, sizeof(sim->name), "%s", name);
	sim->p = *params;
	sim->p.knobs = NULL;
	ret = -ENOMEM;
	sim->cq = calloc(MLX5V_SIM_MAX_CQN + 1, sizeof(*sim->cq));
	sim->irq_pending = calloc(params->msix, sizeof(*sim->irq_pending));
	if (sim->cq == NULL || sim->irq_pending == NULL)
		goto error;
	sim->dma = hwsim_dma_create(name);
	if (sim->dma == NULL)
		goto error_errno;
	sim->irq = hwsim_irq_create(params->msix);
	if (sim->irq == NULL)
		goto error_errno;
	ret = mlx5v_sim_faults_init(sim, params->knobs);
	if (ret != 0)
		goto error;
	ret = mlx5v_sim_uars_init(sim);
	if (ret != 0)
		goto error;
	ret = mlx5v_sim_eth_init(sim);
	if (ret != 0)
		goto error;
	/* The wire keys (wire=, mac=, speed=) travel in the knob string, as other keys do. */
	ret = mlx5v_sim_eth_dp_init(sim, params->knobs);
	if (ret != 0)
		goto error;
	/* The device as after a PCI reset: knobs exist, so boot_ms is known. */
	mlx5v_sim_iseg_init(sim);
	mlx5v_sim_health_init(sim);
	mlx5v_sim_caps_init(sim);
	sim->engine = hwsim_engine_create(name, mlx5v_sim_poll, sim);
	if (sim->engine == NULL)
		goto error_errno;
	/*
	 * Action knobs given in devargs fire now: after the engine exists (an action kicks it),
	 * before it starts.
	 */
	mlx5v_sim_faults_apply(sim);
	ret = hwsim_engine_start(sim->engine);
	if (ret != 0)
		goto error;
	/* Published last: mlx5v_sim_get() never returns a device still being built. */
	pthread_mutex_lock(&mlx5v_sim_list_lock);
	TAILQ_INSERT_TAIL(&mlx5v_sim_list, sim, next);
	pthread_mutex_unlock(&mlx5v_sim_list_lock);
	SIM_LOG(INFO, "%s: created (%u MSI-X, %u ports, boot %u ms, pages %u+%u)", name,
		params->msix, params->ports, params->boot_ms, params->boot_pages,
		params->init_pages);
	return sim;
error_errno:
	ret = -rte_errno;
error:
	mlx5v_sim_free(sim);
	rte_errno = -ret;
	return NULL;
}

void
mlx5v_sim_destroy(struct mlx5v_sim *sim)
{
	unsigned int k;
	static const char *const kind[MLX5V_SIM_OBJ_MAX] = {
		"EQ", "CQ", "UAR", "firmware page", "DMA window", "PD", "TD", "MKEY", "TIS",
		"SQ", "RQ", "RQT", "TIR", "flow table", "flow group", "flow table entry",
		"Q counter", "flow counter",
	};

	if (sim == NULL)
		return;
	pthread_mutex_lock(&mlx5v_sim_list_lock);
	TAILQ_REMOVE(&mlx5v_sim_list, sim, next);
	pthread_mutex_unlock(&mlx5v_sim_list_lock);
	/* Stop the engine before anything it touches goes away. */
	hwsim_engine_stop(sim->engine);
	/* Leaks "in hardware": the driver's unwind or teardown missed a destroy. */
	for (k = 0; k < MLX5V_SIM_OBJ_MAX; k++) {
		unsigned int n = mlx5v_sim_live_objects(sim, k);

		if (n != 0)
			SIM_LOG(WARNING, "%s: destroyed with %u live %s object(s)", sim->name, n,
				kind[k]);
	}
	mlx5v_sim_free(sim);
}

struct mlx5v_sim *
mlx5v_sim_get(const char *name)
{
	struct mlx5v_sim *sim;

	if (name == NULL)
		return NULL;
	pthread_mutex_lock(&mlx5v_sim_list_lock);
	TAILQ_FOREACH(sim, &mlx5v_sim_list, next)
		if (strcmp(sim->name, name) == 0)
			break;
	pthread_mutex_unlock(&mlx5v_sim_list_lock);
	return sim;
}

/* Under the lock: command handlers on the engine thread change these counts. */
unsigned int
mlx5v_sim_live_objects(struct mlx5v_sim *sim, enum mlx5v_sim_obj kind)
{
	unsigned int n = 0;

	pthread_mutex_lock(&sim->lock);
	switch (kind) {
	case MLX5V_SIM_OBJ_EQ:
		n = sim->nb_eqs;
		break;
	case MLX5V_SIM_OBJ_CQ:
		n = sim->nb_cqs;
		break;
	case MLX5V_SIM_OBJ_UAR:
		n = sim->nb_uars;
		break;
	case MLX5V_SIM_OBJ_PAGES:
		n = sim->nb_pages;
		break;
	case MLX5V_SIM_OBJ_DMA_WINDOWS:
		n = hwsim_dma_windows(sim->dma);
		break;
	default:
		/* The Ethernet kinds follow the enum mlx5v_sim_eth_kind order. */
		if (kind >= MLX5V_SIM_OBJ_PD && kind < MLX5V_SIM_OBJ_MAX)
			n = mlx5v_sim_eth_live(sim, kind - MLX5V_SIM_OBJ_PD);
		break;
	}
	pthread_mutex_unlock(&sim->lock);
	return n;
}

uint64_t
mlx5v_sim_counter(struct mlx5v_sim *sim, enum mlx5v_sim_ctr ctr)
{
	if ((unsigned int)ctr >= MLX5V_SIM_CTR_MAX)
		return 0;
	/* The IOMMU owns its fault count; the model does not double-book it. */
	if (ctr == MLX5V_SIM_CTR_IOMMU_FAULTS)
		return hwsim_dma_faults(sim->dma, NULL);
	return __atomic_load_n(&sim->ctr[ctr], __ATOMIC_RELAXED);
}

unsigned int
mlx5v_sim_msix_enabled(struct mlx5v_sim *sim, unsigned int *max)
{
	unsigned int on;

	pthread_mutex_lock(&sim->lock);
	on = sim->msix_on;
	if (max != NULL)
		*max = sim->msix_on_max;
	pthread_mutex_unlock(&sim->lock);
	return on;
}

void
mlx5v_sim_hw_init(struct mlx5v_sim *sim, struct mlx5v_hw *hw)
{
	memset(hw, 0, sizeof(*hw));
	hw->ops = &mlx5v_sim_hw_ops;
	hw->priv = sim;
	hw->numa_node = sim->p.numa_node;
	snprintf(hw->name, sizeof(hw->name), "%s", sim->name);
	/* What the PCI backend reads from the config space: the model is a ConnectX-5 (VF). */
	hw->device_id = sim->p.vf ? MLX5V_SIM_DEVICE_ID_VF : MLX5V_SIM_DEVICE_ID_PF;
	hw->is_vf = !!sim->p.vf;
	hw->page_size = sim->p.host_page;
}
