/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Fault knobs and misuse accounting of the simulated ConnectX-3. */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "mlx4v_log.h"
#include "mlx4v_sim_log.h"
#include "mlx4v_sim_priv.h"

/* Order matches enum mlx4v_sim_knob. Every name is also a devarg. */
static const struct hwsim_knob_def mlx4v_sim_knob_defs[MLX4V_SIM_KNOB_MAX] = {
	[MLX4V_SIM_KNOB_STRICT_CQE_OWNER] = { "strict_cqe_owner", 0, 0, 1,
		"do not set CQE owner bits at CQ creation (prm/mlx4 §6)" },
	[MLX4V_SIM_KNOB_FAIL_ALLOC_PD] = { "fail_alloc_pd", 0, 0, INT32_MAX,
		"fail the next N PD allocations" },
	[MLX4V_SIM_KNOB_FAIL_REG_MR] = { "fail_reg_mr", 0, 0, INT32_MAX,
		"fail the next N MR registrations" },
	/*
	 * The create knobs fire after every resource is taken, so one knob walks the whole unwind
	 * ladder of the backend and the common layer.
	 */
	[MLX4V_SIM_KNOB_FAIL_CREATE_CQ] = { "fail_create_cq", 0, 0, INT32_MAX,
		"fail the next N CQ creations after every resource is taken" },
	[MLX4V_SIM_KNOB_FAIL_CREATE_QP] = { "fail_create_qp", 0, 0, INT32_MAX,
		"fail the next N QP creations after every resource is taken" },
	[MLX4V_SIM_KNOB_FAIL_CREATE_SRQ] = { "fail_create_srq", 0, 0, INT32_MAX,
		"fail the next N SRQ creations after every resource is taken" },
	[MLX4V_SIM_KNOB_FAIL_CREATE_WQ] = { "fail_create_wq", 0, 0, INT32_MAX,
		"fail the next N WQ creations after every resource is taken" },
	[MLX4V_SIM_KNOB_FAIL_MODIFY_QP] = { "fail_modify_qp", 0, 0, INT32_MAX,
		"fail the next N QP state changes" },
	[MLX4V_SIM_KNOB_FAIL_MODIFY_WQ] = { "fail_modify_wq", 0, 0, INT32_MAX,
		"fail the next N WQ state changes" },
	[MLX4V_SIM_KNOB_LOSE_CQ_EVENT] = { "lose_cq_event", 0, 0, INT32_MAX,
		"drop the next N completion events (lost interrupt)" },
	/* What a bad lkey or DMA fault would do, without making one: error CQE, QP to ERR. */
	[MLX4V_SIM_KNOB_FAIL_SEND] = { "fail_send", 0, 0, INT32_MAX,
		"complete the next N send WQEs with a protection error" },
	/*
	 * Platform modes (doc/guides/sim/mlx4v_sim.rst): the host and the port configurations a
	 * real ConnectX-3 can present, each refused where the kernel or the device refuses it.
	 */
	[MLX4V_SIM_KNOB_HOST_PAGE] = { "host_page", 0, 0, 65536,
		"play a host of this page size (4096..65536, power of two; 0: this host's): rings "
		"not aligned to it are refused" },
	[MLX4V_SIM_KNOB_IB_PORTS] = { "ib_ports", 0, 0, (1 << MLX4V_SIM_MAX_PORTS) - 1,
		"ports (bit N-1 for port N) in InfiniBand link layer: no Ethernet rule on them" },
	[MLX4V_SIM_KNOB_NO_DMFS] = { "no_dmfs", 0, 0, 1,
		"no device-managed flow steering (mlx4_core log_num_mgm_entry_size != -1): "
		"steering rules are not supported" },
	[MLX4V_SIM_KNOB_NO_NET_RAW] = { "no_net_raw", 0, 0, 1,
		"play a process without CAP_NET_RAW: raw-packet QPs and rules get EPERM" },
	[MLX4V_SIM_KNOB_NETDEV_DOWN] = { "netdev_down", 0, 0, (1 << MLX4V_SIM_MAX_PORTS) - 1,
		"ports (bit N-1 for port N) whose kernel netdev is down at probe, as on a host "
		"that never brought it up: closed until the driver sets it up" },
	[MLX4V_SIM_KNOB_VF] = { "vf", 0, 0, 1,
		"play an SR-IOV virtual function (device id 0x1004) in the device's caps" },
	/*
	 * A ConnectX-3 catastrophic error (doc/guides/sim/mlx4v_sim.rst, "Fatal error"): the
	 * device stops, commands fail with EIO except those that release, the DEAD event.
	 */
	[MLX4V_SIM_KNOB_FATAL] = { "fatal", 0, 0, 1,
		"1: catastrophic error at the next engine pass; the device stays dead until "
		"reset or removed" },
	/*
	 * Silicon prefetches send WQEs (doc/guides/sim/silicon.rst, "mlx4: data path"): on by
	 * default, off only to tell a prefetch failure from another.
	 */
	[MLX4V_SIM_KNOB_SQ_PREFETCH] = { "sq_prefetch", 1, 0, 1,
		"read each send TXBB ahead as soon as its first dword is no stamp, and send what "
		"was read" },
	/* The conservative side of what no public source settles (running_on_hardware.rst). */
	[MLX4V_SIM_KNOB_RX_CSUM_UNVERIFIED] = { "rx_csum_unverified", 1, 0, 1,
		"no checksum OK bit for IPv4 with options or UDP over IPv4 without a checksum, "
		"good or not" },
	/* IB semantics, the conservative side for a ConnectX-3 RWQ (running_on_hardware.rst). */
	[MLX4V_SIM_KNOB_RQ_ERR_TO_ERR] = { "rq_err_to_err", 1, 0, 1,
		"a receive WQE completed in error moves its WQ to ERR: no more frames, posted "
		"WQEs flushed, until RESET" },
	/* Only the pair ever ran on silicon (running_on_hardware.rst). */
	[MLX4V_SIM_KNOB_TX_CSUM_PAIR] = { "tx_csum_pair", 1, 0, 1,
		"a send WQE asking for one checksum flag without the other computes neither and "
		"counts as misuse sq_csum_split" },
	/* DPDK's mlx4 reads the bit only with IPv6; what it holds otherwise is not known. */
	[MLX4V_SIM_KNOB_RX_IPV6F_OTHER] = { "rx_ipv6f_other", 1, 0, 1,
		"set the CQE status bit 12 (IPv6 fragment) on every frame that is not IPv6" },
	[MLX4V_SIM_KNOB_FAIL_RESET] = { "fail_reset", 0, 0, INT32_MAX,
		"fail the next N device resets after a catastrophic error (the device stays "
		"dead)" },
};

/* Devargs handled by mlx4v_sim.c itself; the hwsim knob parser must not reject them. */
const char *const mlx4v_sim_dev_keys[] = {
	"ports", "mode",
	/* The wire's keys (mlx4v_sim_wire_args() refuses wire<N>= beyond ports= first). */
	"wire", "wire1", "wire2", "wire3", "wire4", "mac", "speed", NULL,
};

/* Stable names: tests and the testpmd commands look misuse counters up by them. */
static const char *const mlx4v_sim_misuse_names[MLX4V_SIM_MISUSE_MAX] = {
	[MLX4V_SIM_MISUSE_SQ_OWNER] = "sq_owner",
	[MLX4V_SIM_MISUSE_SQ_WQE_SIZE] = "sq_wqe_size",
	[MLX4V_SIM_MISUSE_SQ_OPCODE] = "sq_opcode",
	[MLX4V_SIM_MISUSE_QP_STATE] = "qp_state",
	[MLX4V_SIM_MISUSE_SDB_VALUE] = "sdb_value",
	[MLX4V_SIM_MISUSE_BF_WRITE] = "bf_write",
	[MLX4V_SIM_MISUSE_DB_WRONG_PAGE] = "db_wrong_page",
	[MLX4V_SIM_MISUSE_RQ_DB_RECORD] = "rq_db_record",
	[MLX4V_SIM_MISUSE_ARM_DB_RECORD] = "arm_db_record",
	[MLX4V_SIM_MISUSE_ARM_PACKING] = "arm_packing",
	[MLX4V_SIM_MISUSE_ARM_CQN] = "arm_cqn",
	[MLX4V_SIM_MISUSE_ARM_SN] = "arm_sn",
	[MLX4V_SIM_MISUSE_CI_STALE] = "ci_stale",
	[MLX4V_SIM_MISUSE_CI_BACKWARDS] = "ci_backwards",
	[MLX4V_SIM_MISUSE_CI_AHEAD] = "ci_ahead",
	[MLX4V_SIM_MISUSE_CQ_OVERRUN] = "cq_overrun",
	[MLX4V_SIM_MISUSE_LKEY] = "lkey",
	[MLX4V_SIM_MISUSE_DMA] = "dma",
	[MLX4V_SIM_MISUSE_SQ_DMAC] = "sq_dmac",
	[MLX4V_SIM_MISUSE_SQ_PREFETCH] = "sq_prefetch",
	[MLX4V_SIM_MISUSE_SQ_CSUM_SPLIT] = "sq_csum_split",
};

struct hwsim_knobs *
mlx4v_sim_knobs_create(void)
{
	return hwsim_knobs_create(mlx4v_sim_knob_defs, MLX4V_SIM_KNOB_MAX);
}

/*
 * Any context holding sim->lock (engine thread or verbs backend). Misuse is counted and logged,
 * never fatal: the model behaves as hardware would, and tests assert on the counters.
 */
void
mlx4v_sim_misuse(struct mlx4v_sim *sim, enum mlx4v_sim_misuse kind, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	sim->misuse[kind]++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	MLX4V_SIM_LOG(WARNING, "%s: misuse %s: %s", sim->name, mlx4v_sim_misuse_names[kind],
		      msg);
}

/* "Fail the next N": each call that fails uses up one unit; callers hold sim->lock. */
int
mlx4v_sim_knob_take(struct mlx4v_sim *sim, enum mlx4v_sim_knob knob)
{
	return hwsim_knob_take(sim->knobs, knob);
}

int64_t
mlx4v_sim_knob(struct mlx4v_sim *sim, enum mlx4v_sim_knob knob)
{
	return hwsim_knob(sim->knobs, knob);
}

int
mlx4v_sim_dead(struct mlx4v_sim *sim)
{
	/* Latched: setting the knob back to 0 does not revive a dead device. */
	if (mlx4v_sim_knob(sim, MLX4V_SIM_KNOB_FATAL) != 0 &&
	    __atomic_exchange_n(&sim->dead, 1, __ATOMIC_ACQ_REL) == 0)
		MLX4V_SIM_LOG(ERR, "%s: catastrophic error (fatal knob): the queues stop, every "
			      "later command fails", sim->name);
	return __atomic_load_n(&sim->dead, __ATOMIC_ACQUIRE);
}

int
mlx4v_sim_ctx_stale(const struct mlx4v_ctx *ctx)
{
	const struct mlx4v_sim_ctx *sctx = mlx4v_sim_ctx_of(ctx);

	return sctx->life != __atomic_load_n(&sctx->sim->life, __ATOMIC_ACQUIRE);
}

int
mlx4v_sim_cmd_check(struct mlx4v_sim *sim, const struct mlx4v_ctx *ctx,
		    enum mlx4v_sim_knob knob, int err, int releases)
{
	if (mlx4v_sim_dead(sim) || mlx4v_sim_ctx_stale(ctx))
		return releases ? 0 : -EIO;
	if (knob < MLX4V_SIM_KNOB_MAX && mlx4v_sim_knob_take(sim, knob))
		return err;
	return 0;
}

const char *
mlx4v_sim_misuse_name(enum mlx4v_sim_misuse kind)
{
	if ((unsigned int)kind >= MLX4V_SIM_MISUSE_MAX)
		return "unknown";
	return mlx4v_sim_misuse_names[kind];
}

uint64_t
mlx4v_sim_misuse_count(struct mlx4v_sim *sim, enum mlx4v_sim_misuse kind)
{
	uint64_t n;

	if (sim == NULL || (unsigned int)kind >= MLX4V_SIM_MISUSE_MAX)
		return 0;
	pthread_mutex_lock(&sim->lock);
	/* Under the model lock: the engine thread increments these. */
	n = sim->misuse[kind];
	pthread_mutex_unlock(&sim->lock);
	return n;
}

uint64_t
mlx4v_sim_misuse_total(struct mlx4v_sim *sim)
{
	uint64_t n = 0;
	unsigned int i;

	if (sim == NULL)
		return 0;
	pthread_mutex_lock(&sim->lock);
	for (i = 0; i < MLX4V_SIM_MISUSE_MAX; i++)
		n += sim->misuse[i];
	pthread_mutex_unlock(&sim->lock);
	return n;
}

void
mlx4v_sim_misuse_reset(struct mlx4v_sim *sim)
{
	unsigned int i;

	if (sim == NULL)
		return;
	pthread_mutex_lock(&sim->lock);
	for (i = 0; i < MLX4V_SIM_MISUSE_MAX; i++)
		sim->misuse[i] = 0;
	pthread_mutex_unlock(&sim->lock);
}

int
mlx4v_sim_knob_set(struct mlx4v_sim *sim, const char *name, int64_t value)
{
	if (sim == NULL || name == NULL)
		return -EINVAL;
	return hwsim_knobs_set(sim->knobs, name, value);
}

int
mlx4v_sim_knob_get(struct mlx4v_sim *sim, const char *name, int64_t *value)
{
	if (sim == NULL || name == NULL || value == NULL)
		return -EINVAL;
	return hwsim_knobs_get(sim->knobs, name, value);
}
