/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Recovery from a fatal device error (recovery=reset): function reset, the old life torn
 * down locally, the whole bring-up again, the consumers told (doc/guides/nics/mlx5v.rst,
 * "Recovery").
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_common.h>

#include "mlx5v_dev.h"
#include "mlx5v_log.h"

/*
 * Attempts of one recovery: a reset or a bring-up that fails is tried again after one health
 * poll period, then the device stays dead (doc/guides/nics/mlx5v.rst, "Recovery").
 */
#define MLX5V_RECOVERY_TRIES 3

int
mlx5v_recovery_parse(const char *value)
{
	if (value != NULL && strcmp(value, "reset") == 0)
		return MLX5V_RECOVERY_RESET;
	if (value != NULL && strcmp(value, "dead") == 0)
		return MLX5V_RECOVERY_DEAD;
	MLX5V_LOG(ERR, "devarg %s=%s: expected reset or dead", MLX5V_RECOVERY_ARG,
		  value != NULL ? value : "");
	return -EINVAL;
}

uint32_t
mlx5v_dev_epoch(const struct mlx5v_dev *dev)
{
	return __atomic_load_n(&dev->epoch, __ATOMIC_ACQUIRE);
}

int
mlx5v_dev_recovering(const struct mlx5v_dev *dev)
{
	return __atomic_load_n(&dev->recovering, __ATOMIC_ACQUIRE);
}

static void mlx5v_recovery_alarm(void *arg);

/* Arm the next attempt in delay_ms. @return 0 or -errno (the recovery is then given up). */
static int
mlx5v_recovery_arm(struct mlx5v_dev *dev, uint32_t delay_ms)
{
	int ret = rte_eal_alarm_set((uint64_t)delay_ms * 1000 + 1, mlx5v_recovery_alarm, dev);

	if (ret != 0)
		MLX5V_LOG(ERR, "%s: cannot schedule the recovery: %s", dev->name, strerror(-ret));
	return ret;
}

/* Give up: the device stays dead, as with recovery=dead, and says why once. */
static void
mlx5v_recovery_give_up(struct mlx5v_dev *dev, enum mlx5v_dead_reason why, const char *step,
		       int err)
{
	/* A failed bring-up cleared the dead flag when it started: dead again, silently. */
	__atomic_store_n(&dev->dead, (int)why, __ATOMIC_RELEASE);
	dev->recovery_failures++;
	MLX5V_LOG(ERR, "%s: recovery failed after %u attempts (%s: %s); the device stays dead "
		  "until it is removed", dev->name, dev->recover_tries, step, strerror(-err));
	__atomic_store_n(&dev->recovering, 0, __ATOMIC_RELEASE);
}

/*
 * One attempt, on the EAL interrupt thread (an alarm): commands wait by polling there
 * (mlx5v_cmd.c). The order is the Linux health recovery's: reset the function first, so that
 * nothing of the old life can still write into memory, then free that memory, then load.
 */
static void
mlx5v_recovery_alarm(void *arg)
{
	struct mlx5v_dev *dev = arg;
	enum mlx5v_dead_reason why = (enum mlx5v_dead_reason)mlx5v_dev_is_dead(dev);
	const char *step;
	int ret;

	if (__atomic_load_n(&dev->removing, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&dev->recovering, 0, __ATOMIC_RELEASE);
		return;
	}
	dev->recover_tries++;
	MLX5V_LOG(NOTICE, "%s: recovering (%s), attempt %u of %u", dev->name,
		  mlx5v_health_reason_str(why), dev->recover_tries, MLX5V_RECOVERY_TRIES);
	step = "function reset";
	ret = mlx5v_hw_func_reset(mlx5v_dev_hw(dev));
	if (ret < 0)
		goto retry;
	if (dev->stage != MLX5V_STAGE_NONE) {
		/* Still dead: every command of the teardown completes locally (prm/mlx5 §3.11). */
		mlx5v_dev_teardown(dev);
		/* DEVX contexts release their objects now, locally, while the device is dead. */
		mlx5v_dev_notify(dev, MLX5V_DEV_EVENT_RESET);
	}
	step = "bring-up";
	ret = mlx5v_dev_load(dev);
	if (ret < 0)
		goto retry;
	dev->recoveries++;
	dev->recover_tries = 0;
	__atomic_store_n(&dev->recovering, 0, __ATOMIC_RELEASE);
	MLX5V_LOG(NOTICE, "%s: recovered (%" PRIu64 " recoveries)", dev->name, dev->recoveries);
	mlx5v_dev_notify(dev, MLX5V_DEV_EVENT_RECOVERED);
	return;

retry:
	MLX5V_LOG(ERR, "%s: recovery attempt %u: %s failed: %s", dev->name, dev->recover_tries,
		  step, strerror(-ret));
	if (dev->recover_tries >= MLX5V_RECOVERY_TRIES ||
	    mlx5v_recovery_arm(dev, mlx5v_tout_ms(dev, MLX5V_TO_HEALTH_POLL)) != 0) {
		mlx5v_recovery_give_up(dev, why, step, ret);
		return;
	}
	/* The next attempt starts from a dead device again. */
	__atomic_store_n(&dev->dead, (int)why, __ATOMIC_RELEASE);
}

/*
 * Under set_dead's CAS (once per death), before DEAD goes out. A death during a recovery (a
 * command of the bring-up timing out) is that attempt's failure, not a new recovery.
 */
int
mlx5v_recovery_schedule(struct mlx5v_dev *dev)
{
	int expected = 0;

	if (dev->recovery != MLX5V_RECOVERY_RESET ||
	    __atomic_load_n(&dev->removing, __ATOMIC_ACQUIRE) ||
	    !__atomic_compare_exchange_n(&dev->recovering, &expected, 1, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return 0;
	/* Objects made from now on belong to the next life; older ones are stale. */
	__atomic_add_fetch(&dev->epoch, 1, __ATOMIC_RELEASE);
	dev->recover_tries = 0;
	return 1;
}

void
mlx5v_recovery_start(struct mlx5v_dev *dev)
{
	/*
	 * A health poll period after DEAD went out, never at once: the consumers took their
	 * bursts off the rings when they heard DEAD, but a burst that was already running goes
	 * on reading the CQs and writing their doorbell records until it returns, and the first
	 * attempt frees that memory (the DEVX contexts' release). The grace also puts the
	 * alarm after the consumers' own (RMV), which are set while DEAD goes out
	 * (doc/guides/nics/mlx5v.rst, "Recovery").
	 */
	if (mlx5v_recovery_arm(dev, mlx5v_tout_ms(dev, MLX5V_TO_HEALTH_POLL)) != 0)
		mlx5v_recovery_give_up(dev, (enum mlx5v_dead_reason)mlx5v_dev_is_dead(dev),
				       "scheduling", -ENOMEM);
}

void
mlx5v_recovery_cancel(struct mlx5v_dev *dev)
{
	/*
	 * Waits for an attempt running on the interrupt thread (unless called from it, where none
	 * can be running); the attempt checks removing first, so none starts afterwards.
	 */
	rte_eal_alarm_cancel(mlx5v_recovery_alarm, dev);
	__atomic_store_n(&dev->recovering, 0, __ATOMIC_RELEASE);
}
