/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Recovery from a fatal device error (recovery=reset): after a catastrophic error the
 * device is reset, as the kernel's mlx4_core does it on its own, and can be opened again; the
 * classes hear RECOVERED and rebuild on a new handle (doc/guides/nics/mlx4v.rst, "Recovery").
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_devargs.h>
#include <dev_driver.h>
#include <rte_kvargs.h>
#include <rte_string_fns.h>

#include "mlx4v_class.h"
#include "mlx4v_dev_priv.h"
#include "mlx4v_log.h"

/*
 * Attempts of one recovery, one period apart; then the device stays dead. About 2 s: the
 * kernel registers a ConnectX-3 again only after its reset and firmware start
 * (doc/guides/nics/mlx4v.rst, "Recovery": what a card must settle).
 */
#define MLX4V_RECOVERY_TRIES 10
#define MLX4V_RECOVERY_PERIOD_US (200 * 1000)

int
mlx4v_recovery_parse(const char *value)
{
	if (value != NULL && strcmp(value, "reset") == 0)
		return MLX4V_RECOVERY_RESET;
	if (value != NULL && strcmp(value, "dead") == 0)
		return MLX4V_RECOVERY_DEAD;
	return -EINVAL;
}

static int
mlx4v_recovery_kv(const char *key, const char *value, void *arg)
{
	int *mode = arg;

	RTE_SET_USED(key);
	*mode = mlx4v_recovery_parse(value);
	return *mode < 0 ? -1 : 0;
}

int
mlx4v_recovery_devargs(const struct rte_device *edev)
{
	static const char *const keys[] = { MLX4V_RECOVERY_ARG, NULL };
	const char *args = edev != NULL && edev->devargs != NULL ? edev->devargs->args : NULL;
	int mode = MLX4V_RECOVERY_RESET;
	struct rte_kvargs *kv;

	if (args == NULL || strstr(args, MLX4V_RECOVERY_ARG "=") == NULL)
		return mode;
	/* Every key: mlx4v_class_args_core() already refused what nobody takes. */
	kv = rte_kvargs_parse(args, NULL);
	if (kv == NULL)
		return -EINVAL;
	if (rte_kvargs_process(kv, keys[0], mlx4v_recovery_kv, &mode) != 0)
		mode = -EINVAL;
	rte_kvargs_free(kv);
	if (mode < 0)
		MLX4V_LOG(ERR, "%s: devarg %s: expected reset or dead", edev->name,
			  MLX4V_RECOVERY_ARG);
	return mode;
}

void
mlx4v_recovery_mode_set(const char *name, enum mlx4v_recovery_mode mode)
{
	struct mlx4v_dev_entry *e;

	mlx4v_verbs_lock();
	e = mlx4v_dev_lookup(name);
	if (e != NULL)
		e->recovery = mode;
	mlx4v_verbs_unlock();
}

int
mlx4v_dev_state(const char *name, uint32_t *life)
{
	struct mlx4v_dev_entry *e;
	int ret = -ENODEV;

	if (name == NULL)
		return -ENODEV;
	mlx4v_verbs_lock();
	e = mlx4v_dev_lookup(name);
	if (e != NULL) {
		ret = __atomic_load_n(&e->state, __ATOMIC_ACQUIRE);
		if (life != NULL)
			*life = __atomic_load_n(&e->life, __ATOMIC_ACQUIRE);
	}
	mlx4v_verbs_unlock();
	return ret;
}

/* Tell the classes, with no lock held (they call back into the verbs API). */
static void
mlx4v_recovery_notify(const char *name)
{
	struct mlx4v_class_event ev = { .type = MLX4V_CLASS_EVENT_RECOVERED };

	mlx4v_class_dev_event(name, &ev);
}

/*
 * One attempt, on the EAL interrupt thread (an alarm). The backend's reset stands for the
 * kernel's: it leaves the handles of the old life stale, whose objects the classes destroy
 * when they rebuild (every destroy succeeds on a dead device).
 */
static void
mlx4v_recovery_alarm(void *arg)
{
	struct mlx4v_dev_entry *e = arg;
	char name[RTE_DEV_NAME_MAX_LEN];
	uint64_t n;
	int ret;

	mlx4v_verbs_lock();
	if (e->ops == NULL || __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) !=
	    MLX4V_DEV_RECOVERING) {
		mlx4v_verbs_unlock();
		return;
	}
	strlcpy(name, e->name, sizeof(name));
	e->tries++;
	ret = e->ops->dev_reset != NULL ? e->ops->dev_reset(e->priv) : -ENOTSUP;
	if (ret == 0) {
		__atomic_add_fetch(&e->life, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&e->state, MLX4V_DEV_LIVE, __ATOMIC_RELEASE);
		n = ++e->recoveries;
		e->tries = 0;
		mlx4v_verbs_unlock();
		MLX4V_LOG(NOTICE, "%s: recovered from the fatal error (%" PRIu64 " recoveries)",
			  name, n);
		mlx4v_recovery_notify(name);
		return;
	}
	MLX4V_LOG(WARNING, "%s: recovery attempt %u of %u: device reset failed: %s", name, e->tries,
		  MLX4V_RECOVERY_TRIES, rte_strerror(-ret));
	if (ret == -ENOTSUP || e->tries >= MLX4V_RECOVERY_TRIES ||
	    rte_eal_alarm_set(MLX4V_RECOVERY_PERIOD_US, mlx4v_recovery_alarm, e) != 0) {
		__atomic_store_n(&e->state, MLX4V_DEV_DEAD, __ATOMIC_RELEASE);
		MLX4V_LOG(ERR, "%s: recovery failed after %u attempt(s); the device stays dead "
			  "until it is removed", name, e->tries);
	}
	mlx4v_verbs_unlock();
}

int
mlx4v_recovery_dead(const char *name, const struct mlx4v_class_event *ev)
{
	struct mlx4v_dev_entry *e;
	int recover = 0;

	mlx4v_verbs_lock();
	e = mlx4v_dev_lookup(name);
	if (e != NULL && (__atomic_load_n(&e->state, __ATOMIC_ACQUIRE) != MLX4V_DEV_LIVE ||
			  (ev->has_life && ev->life != e->life))) {
		recover = -1;
	} else if (e != NULL) {
		recover = e->recovery == MLX4V_RECOVERY_RESET;
		e->tries = 0;
		__atomic_store_n(&e->state, recover ? MLX4V_DEV_RECOVERING : MLX4V_DEV_DEAD,
				 __ATOMIC_RELEASE);
	}
	mlx4v_verbs_unlock();
	return recover;
}

void
mlx4v_recovery_schedule(const char *name)
{
	struct mlx4v_dev_entry *e;

	mlx4v_verbs_lock();
	e = mlx4v_dev_lookup(name);
	/* Off the reporting thread, which the reset stops (the simulator's engine). */
	if (e != NULL && __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) == MLX4V_DEV_RECOVERING &&
	    rte_eal_alarm_set(1, mlx4v_recovery_alarm, e) != 0) {
		__atomic_store_n(&e->state, MLX4V_DEV_DEAD, __ATOMIC_RELEASE);
		MLX4V_LOG(ERR, "%s: cannot schedule the recovery", name);
	}
	mlx4v_verbs_unlock();
}

void
mlx4v_recovery_cancel(const char *name)
{
	struct mlx4v_dev_entry *e;

	mlx4v_verbs_lock();
	e = mlx4v_dev_lookup(name);
	if (e != NULL && __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) == MLX4V_DEV_RECOVERING)
		__atomic_store_n(&e->state, MLX4V_DEV_DEAD, __ATOMIC_RELEASE);
	mlx4v_verbs_unlock();
	/* Unlocked: an attempt that runs takes the verbs lock; it then sees DEAD and returns. */
	if (e != NULL)
		rte_eal_alarm_cancel(mlx4v_recovery_alarm, e);
}
