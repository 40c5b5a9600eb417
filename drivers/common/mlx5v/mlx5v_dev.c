/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Device lifecycle and registry: bring-up and teardown in PRM order. */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_spinlock.h>
#include <rte_string_fns.h>

#include "mlx5v_dev.h"
#include "mlx5v_log.h"

RTE_LOG_REGISTER_DEFAULT(mlx5v_logtype, NOTICE);
RTE_LOG_REGISTER_SUFFIX(mlx5v_logtype_cmd, cmd, NOTICE);
RTE_LOG_REGISTER_SUFFIX(mlx5v_logtype_eq, eq, NOTICE);

/* Registry by EAL device name; process-local like the seam it points to. */
static TAILQ_HEAD(, mlx5v_dev) mlx5v_dev_list = TAILQ_HEAD_INITIALIZER(mlx5v_dev_list);
static rte_spinlock_t mlx5v_dev_list_lock = RTE_SPINLOCK_INITIALIZER;

/* Monotonic: firmware waits must not move when the wall clock is stepped. */
static uint64_t
mlx5v_dev_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- registry, state ---- */

/*
 * The returned pointer is not reference-counted: callers that may race with removal use
 * mlx5v_dev_is_live() or a REMOVE hook.
 */
struct mlx5v_dev *
mlx5v_dev_get(const char *name)
{
	struct mlx5v_dev *dev;

	if (name == NULL)
		return NULL;
	rte_spinlock_lock(&mlx5v_dev_list_lock);
	TAILQ_FOREACH(dev, &mlx5v_dev_list, next)
		if (strcmp(dev->name, name) == 0)
			break;
	rte_spinlock_unlock(&mlx5v_dev_list_lock);
	return dev;
}

unsigned int
mlx5v_dev_names(char (*names)[RTE_DEV_NAME_MAX_LEN], unsigned int n)
{
	struct mlx5v_dev *dev;
	unsigned int i = 0;

	rte_spinlock_lock(&mlx5v_dev_list_lock);
	TAILQ_FOREACH(dev, &mlx5v_dev_list, next) {
		if (i < n)
			strlcpy(names[i], dev->name, sizeof(names[i]));
		i++;
	}
	rte_spinlock_unlock(&mlx5v_dev_list_lock);
	return i;
}

int
mlx5v_dev_is_live(const struct mlx5v_dev *dev)
{
	const struct mlx5v_dev *it;
	int live = 0;

	if (dev == NULL)
		return 0;
	/* Compare addresses first: a removed device's memory is already freed. */
	rte_spinlock_lock(&mlx5v_dev_list_lock);
	TAILQ_FOREACH(it, &mlx5v_dev_list, next) {
		if (it == dev) {
			live = it->stage == MLX5V_STAGE_LOADED &&
			       !__atomic_load_n(&it->removing, __ATOMIC_ACQUIRE);
			break;
		}
	}
	rte_spinlock_unlock(&mlx5v_dev_list_lock);
	return live;
}

/*
 * Acquire pairs with the CAS in mlx5v_dev_set_dead(): a thread that sees dead also sees the flushed
 * command state. Called on every pass of every command wait.
 */
int
mlx5v_dev_is_dead(const struct mlx5v_dev *dev)
{
	return __atomic_load_n(&dev->dead, __ATOMIC_ACQUIRE);
}

/*
 * Called with no device lock held, from the health alarm (EAL interrupt thread) or from unload.
 * hook_lock is recursive so that a hook may unregister itself or another hook from its callback.
 */
void
mlx5v_dev_notify(struct mlx5v_dev *dev, enum mlx5v_dev_event ev)
{
	struct mlx5v_dev_hook *hook;
	struct mlx5v_dev_hook *next;

	/* next is read before the call: a hook may unregister (and free) itself. */
	pthread_mutex_lock(&dev->hook_lock);
	for (hook = TAILQ_FIRST(&dev->hooks); hook != NULL; hook = next) {
		next = TAILQ_NEXT(hook, next);
		if (hook->event != NULL)
			hook->event(dev, ev, hook->arg);
	}
	pthread_mutex_unlock(&dev->hook_lock);
}

/*
 * Any thread: the health alarm, a command waiter or a fault test. The CAS makes the first reason
 * stick and runs the report, flush and DEAD notification exactly once.
 */
void
mlx5v_dev_set_dead(struct mlx5v_dev *dev, enum mlx5v_dead_reason why)
{
	int expected = MLX5V_DEAD_NONE;
	int recover;

	if (why == MLX5V_DEAD_NONE)
		return;
	if (!__atomic_compare_exchange_n(&dev->dead, &expected, (int)why, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	/*
	 * rdma-core abort()s here (prm/mlx5 §12 #2). We log the health buffer, complete
	 * pending commands with the dead-device policy and let teardown run.
	 */
	mlx5v_health_report(dev, why);
	mlx5v_cmd_flush(dev);
	/*
	 * The recovery is decided before DEAD goes out, so that a consumer hearing DEAD already
	 * sees the device recovering (mlx5v_dev_recovering()) and its new epoch; it starts
	 * only after, once the consumers have taken their bursts off the rings.
	 */
	recover = mlx5v_recovery_schedule(dev);
	mlx5v_dev_notify(dev, MLX5V_DEV_EVENT_DEAD);
	if (recover)
		mlx5v_recovery_start(dev);
}

/*
 * Overrides one timeout at run time, e.g. a short command timeout in tests; 0 is refused because
 * every wait must stay bounded (prm/mlx5 §3.10).
 */
int
mlx5v_dev_tout_set(struct mlx5v_dev *dev, enum mlx5v_tout t, uint32_t ms)
{
	if (dev == NULL || (unsigned int)t >= MLX5V_TO_MAX || ms == 0)
		return -EINVAL;
	dev->tout_ms[t] = ms;
	return 0;
}

const uint8_t *
mlx5v_dev_hca_cap(struct mlx5v_dev *dev)
{
	/*
	 * Caps are only handed out once INIT_HCA made them final; before that hca_cap_cur may still
	 * change through SET_HCA_CAP.
	 */
	return dev->stage >= MLX5V_STAGE_HCA_INIT ? dev->hca_cap_cur : NULL;
}

int
mlx5v_dev_info_get(struct mlx5v_dev *dev, struct mlx5v_dev_info *info)
{
	const uint8_t *cap;
	struct mlx5v_eq *async;

	if (dev == NULL || info == NULL)
		return -EINVAL;
	/* No lock taken: EQ event handlers call this with their EQ's poll lock held. */
	memset(info, 0, sizeof(*info));
	strlcpy(info->name, dev->name, sizeof(info->name));
	info->stage = dev->stage;
	info->dead = mlx5v_dev_is_dead(dev);
	info->fw_major = dev->fw_rev & 0xffff;
	info->fw_minor = dev->fw_rev >> 16;
	info->function_id = dev->function_id;
	info->uar = dev->uar;
	info->socket = dev->socket;
	info->msi_count = mlx5v_msi_count(dev);
	async = mlx5v_eq_async(dev);
	info->async_eqn = async != NULL ? (int)mlx5v_eq_eqn(async) : -1;
	info->pages_given = mlx5v_pages_given(dev);
	cap = mlx5v_dev_hca_cap(dev);
	if (cap != NULL)
		info->log_max_eq_sz = MLX5V_IFC_GET(cmd_hca_cap, cap, log_max_eq_sz);
	return 0;
}

int
mlx5v_dev_hook_register(struct mlx5v_dev *dev, struct mlx5v_dev_hook *hook)
{
	int ret = 0;

	if (dev == NULL || hook == NULL || hook->event == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->hook_lock);
	/* Checked under hook_lock, which the REMOVE announcement also holds: no hook misses it. */
	if (dev->removing)
		ret = -ENODEV;
	else
		TAILQ_INSERT_TAIL(&dev->hooks, hook, next);
	pthread_mutex_unlock(&dev->hook_lock);
	return ret;
}

int
mlx5v_dev_hook_unregister(struct mlx5v_dev *dev, struct mlx5v_dev_hook *hook)
{
	struct mlx5v_dev_hook *h;

	if (dev == NULL || hook == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->hook_lock);
	TAILQ_FOREACH(h, &dev->hooks, next)
		if (h == hook)
			break;
	if (h != NULL)
		TAILQ_REMOVE(&dev->hooks, h, next);
	pthread_mutex_unlock(&dev->hook_lock);
	return h != NULL ? 0 : -ENOENT;
}

/* ---- init / cleanup (software only) ---- */

struct mlx5v_dev *
mlx5v_dev_init(const char *name, const struct mlx5v_hw *hw, const struct mlx5v_dev_params *p)
{
	pthread_mutexattr_t mattr;
	struct mlx5v_dev *dev;
	unsigned int t, scale;
	int ret;

	if (name == NULL || hw == NULL || hw->ops == NULL || strlen(name) >= sizeof(dev->name)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (mlx5v_dev_get(name) != NULL) {
		rte_errno = EEXIST;
		return NULL;
	}
	dev = rte_zmalloc_socket("mlx5v_dev", sizeof(*dev), 0, hw->numa_node);
	if (dev == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	strlcpy(dev->name, name, sizeof(dev->name));
	ret = mlx5v_hw_slot_alloc(hw);
	if (ret < 0) {
		MLX5V_LOG(ERR, "%s: no free seam slot (%d devices at most)", name, MLX5V_HW_MAX);
		rte_free(dev);
		rte_errno = -ret;
		return NULL;
	}
	dev->hw_slot = ret;
	dev->socket = hw->numa_node;
	/* tout_scale shortens every default (never below 1 ms); explicit values win. */
	scale = p != NULL && p->tout_scale > 1 ? p->tout_scale : 1;
	for (t = 0; t < MLX5V_TO_MAX; t++) {
		if (p != NULL && p->tout_ms[t] != 0)
			dev->tout_ms[t] = p->tout_ms[t];
		else
			dev->tout_ms[t] = RTE_MAX(mlx5v_tout_default_ms[t] / scale, 1u);
	}
	dev->fast_teardown = p != NULL ? p->fast_teardown : 0;
	dev->health_strict = p != NULL ? !!p->health_strict : 0;
	dev->recovery = p != NULL && p->recovery == MLX5V_RECOVERY_RESET ?
			MLX5V_RECOVERY_RESET : MLX5V_RECOVERY_DEAD;
	/*
	 * Off unless asked for: [K] and [R] run without signatures (prm/mlx5 §3.4). Asked for,
	 * they start once SET_HCA_CAP has set cmdif_checksum (mlx5v_dev_set_hca_cap()).
	 */
	dev->cmd_sig = p != NULL ? !!p->cmd_sig : 0;
	dev->cmd.checksum = 0;
	pthread_mutexattr_init(&mattr);
	pthread_mutexattr_settype(&mattr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&dev->hook_lock, &mattr);
	pthread_mutexattr_destroy(&mattr);
	TAILQ_INIT(&dev->hooks);
	TAILQ_INIT(&dev->quarantine);
	rte_spinlock_init(&dev->quarantine_lock);
	rte_spinlock_init(&dev->cmd.lock);
	/*
	 * MSI and page state exist before load so that load and unload can repeat on one dev
	 * without reallocating them.
	 */
	ret = mlx5v_msi_init(dev);
	if (ret < 0)
		goto err_dev_free;
	ret = mlx5v_pages_init(dev);
	if (ret < 0)
		goto err_msi_cleanup;
	rte_spinlock_lock(&mlx5v_dev_list_lock);
	TAILQ_INSERT_TAIL(&mlx5v_dev_list, dev, next);
	rte_spinlock_unlock(&mlx5v_dev_list_lock);
	return dev;

err_msi_cleanup:
	mlx5v_msi_cleanup(dev);
err_dev_free:
	pthread_mutex_destroy(&dev->hook_lock);
	mlx5v_hw_slot_free(dev->hw_slot);
	rte_free(dev);
	rte_errno = -ret;
	return NULL;
}

void
mlx5v_dev_quarantine(struct mlx5v_dev *dev, void *va, size_t size,
		     const struct mlx5v_dma_buf *dma, unsigned int ndma)
{
	struct mlx5v_quarantine *q = malloc(sizeof(*q));
	unsigned int i;

	MLX5V_LOG(WARNING, "%s: keeping %zu bytes at %p until the function is disabled: the "
		  "device may still write into them", dev->name, size, va);
	/* Without memory to remember it, leaking the ring is the only safe choice. */
	if (q == NULL || ndma > MLX5V_QUARANTINE_DMA_MAX) {
		free(q);
		return;
	}
	q->va = va;
	q->size = size;
	q->ndma = ndma;
	for (i = 0; i < ndma; i++)
		q->dma[i] = dma[i];
	rte_spinlock_lock(&dev->quarantine_lock);
	TAILQ_INSERT_TAIL(&dev->quarantine, q, next);
	dev->nb_quarantined++;
	rte_spinlock_unlock(&dev->quarantine_lock);
}

/* After DISABLE_HCA (or on a dead device): nothing can write into the rings any more. */
static void
mlx5v_dev_quarantine_release(struct mlx5v_dev *dev)
{
	struct mlx5v_quarantine *q;
	unsigned int i;

	rte_spinlock_lock(&dev->quarantine_lock);
	while ((q = TAILQ_FIRST(&dev->quarantine)) != NULL) {
		TAILQ_REMOVE(&dev->quarantine, q, next);
		for (i = 0; i < q->ndma; i++)
			mlx5v_dma_buf_unmap(mlx5v_dev_hw(dev), &q->dma[i]);
		rte_free(q->va);
		free(q);
	}
	dev->nb_quarantined = 0;
	rte_spinlock_unlock(&dev->quarantine_lock);
}

void
mlx5v_dev_cleanup(struct mlx5v_dev *dev)
{
	if (dev == NULL)
		return;
	/* A recovery that gave up left the device unloaded; one may still be scheduled. */
	mlx5v_recovery_cancel(dev);
	if (dev->stage != MLX5V_STAGE_NONE)
		mlx5v_dev_unload(dev);
	rte_spinlock_lock(&mlx5v_dev_list_lock);
	TAILQ_REMOVE(&mlx5v_dev_list, dev, next);
	rte_spinlock_unlock(&mlx5v_dev_list_lock);
	mlx5v_pages_cleanup(dev);
	mlx5v_msi_cleanup(dev);
	pthread_mutex_destroy(&dev->hook_lock);
	mlx5v_hw_slot_free(dev->hw_slot);
	rte_free(dev);
}

/* ---- bring-up steps (prm/mlx5 §2.1) ---- */

/*
 * Wait for initializing (0x1fc bit 31) to clear. Called twice, before and after
 * programming the command queue: the kernel order (prm/mlx5 §1.3), which is why the
 * device must not tie the bit to the address write.
 */
static int
mlx5v_dev_wait_fw(struct mlx5v_dev *dev, enum mlx5v_tout t)
{
	uint64_t deadline = mlx5v_dev_now_ms() + mlx5v_tout_ms(dev, t);

	for (;;) {
		uint32_t v = mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_INITIALIZING);

		if (!(v & MLX5V_ISEG_INITIALIZING_BIT))
			return 0;
		/*
		 * All ones is what a dead PCI link reads (prm/mlx5 §1.2); waiting the full FW
		 * timeout for it would only delay the error.
		 */
		if (v == UINT32_MAX) {
			MLX5V_LOG(ERR, "%s: init segment reads all ones", dev->name);
			return -EIO;
		}
		if (mlx5v_dev_now_ms() > deadline) {
			MLX5V_LOG(ERR, "%s: firmware still initializing after %u ms (%s)",
				  dev->name, mlx5v_tout_ms(dev, t), mlx5v_tout_name[t]);
			return -EBUSY;
		}
		/*
		 * Poll every 2 ms as [R], but at least ten times per timeout when tests shorten it.
		 */
		rte_delay_us_sleep(RTE_MIN((unsigned int)MLX5V_FW_INIT_POLL_US,
					   mlx5v_tout_ms(dev, t) * 100));
	}
}

static int
mlx5v_dev_check_cmdif(struct mlx5v_dev *dev)
{
	uint32_t rev = mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDIF_REV_FW_SUB) >> 16;

	dev->fw_rev = mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_FW_REV);
	/* Both drivers refuse any revision other than 5 ([R] with EINVAL, prm/mlx5 §1.1). */
	if (rev != MLX5V_CMDIF_REV) {
		MLX5V_LOG(ERR, "%s: command interface revision %u, only %u is supported",
			  dev->name, rev, MLX5V_CMDIF_REV);
		return -EINVAL;
	}
	MLX5V_LOG(INFO, "%s: firmware %u.%u.%u, command interface %u", dev->name,
		  dev->fw_rev & 0xffff, dev->fw_rev >> 16,
		  mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDIF_REV_FW_SUB) & 0xffff, rev);
	return 0;
}

/*
 * For commands whose input is only the header plus dw2 (function_id, profile, uar ...): dw2 is
 * written whole, so callers pass a field already in its place.
 */
static int
mlx5v_dev_simple_cmd(struct mlx5v_dev *dev, uint16_t opcode, uint16_t op_mod,
		     uint32_t dw2, size_t outlen)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, opcode);
	MLX5V_IFC_SET(cmd_in_hdr, in, op_mod, op_mod);
	MLX5V_IFC_SET(cmd_in_hdr, in, command_dw2, dw2);
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, outlen);
}

static int
mlx5v_dev_enable_hca(struct mlx5v_dev *dev)
{
	/* enable_hca_out is 12 bytes (prm/mlx5 §2.1 step 6); function_id 0 is this function. */
	return mlx5v_dev_simple_cmd(dev, MLX5V_CMD_OP_ENABLE_HCA, 0, 0,
				    MLX5V_IFC_BYTES(enable_hca_out));
}

/*
 * Result ignored: unload must complete, and on a dead device it succeeds locally anyway
 * (prm/mlx5 §3.11). [R] never issues DISABLE_HCA; we follow [K] (prm/mlx5 §12 #17).
 */
static void
mlx5v_dev_disable_hca(struct mlx5v_dev *dev)
{
	/* disable_hca_out is 12 bytes, as enable_hca_out (prm/mlx5 §9). */
	mlx5v_dev_simple_cmd(dev, MLX5V_CMD_OP_DISABLE_HCA, 0, 0,
			     MLX5V_IFC_BYTES(disable_hca_out));
	/* The function's capabilities reset with it: cmdif_checksum too (prm/mlx5 §3.4). */
	mlx5v_cmd_checksum_enable(dev, 0);
}

static int
mlx5v_dev_set_issi(struct mlx5v_dev *dev)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_IFC_BYTES(query_issi_out)];
	uint32_t sup;
	int ret;

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_QUERY_ISSI);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret < 0)
		return ret;
	sup = MLX5V_IFC_GET(query_issi_out, out, supported_issi_dw0);
	/* supported_issi_dw0 bit 1 = ISSI 1, the only one we speak (prm/mlx5 §2.1 step 7). */
	if (!(sup & 0x2)) {
		MLX5V_LOG(ERR, "%s: ISSI 1 not supported (supported_issi 0x%x)", dev->name, sup);
		return -EOPNOTSUPP;
	}
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(set_issi_in, in, opcode, MLX5V_CMD_OP_SET_ISSI);
	MLX5V_IFC_SET(set_issi_in, in, current_issi, 1);
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, MLX5V_CMD_HDR_SIZE);
}

/*
 * ACCESS_REG write of HOST_ENDIANNESS (prm/mlx5 §2.1 step 11): byte 0 is 0x80 on big-endian hosts.
 */
static int
mlx5v_dev_set_host_endianness(struct mlx5v_dev *dev)
{
	uint8_t in[MLX5V_IFC_BYTES(access_register_in) + MLX5V_REG_HOST_ENDIANNESS_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE + 16];

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(access_register_in, in, opcode, MLX5V_CMD_OP_ACCESS_REG);
	MLX5V_IFC_SET(access_register_in, in, op_mod, MLX5V_ACCESS_REG_WRITE);
	MLX5V_IFC_SET(access_register_in, in, register_id, MLX5V_REG_HOST_ENDIANNESS);
#if RTE_BYTE_ORDER == RTE_BIG_ENDIAN
	*(uint8_t *)MLX5V_IFC_ADDR_OF(access_register_in, in, register_data) = 0x80;
#endif
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

/* QUERY_HCA_CAP of one capability type; op_mod = (cap_type << 1) | mode (prm/mlx5 §2.1 step 12). */
static int
mlx5v_dev_query_cap(struct mlx5v_dev *dev, unsigned int type, unsigned int mode, uint8_t *cap)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t *out;
	int ret;

	/* 0x1010 bytes of output: kept off the stack. */
	out = calloc(1, MLX5V_IFC_BYTES(query_hca_cap_out));
	if (out == NULL)
		return -ENOMEM;
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(query_hca_cap_in, in, opcode, MLX5V_CMD_OP_QUERY_HCA_CAP);
	MLX5V_IFC_SET(query_hca_cap_in, in, op_mod, (type << 1) | mode);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, MLX5V_IFC_BYTES(query_hca_cap_out));
	if (ret == 0)
		memcpy(cap, MLX5V_IFC_ADDR_OF(query_hca_cap_out, out, capability),
		       MLX5V_HCA_CAP_SIZE);
	free(out);
	return ret;
}

/* QUERY_HCA_CAP max and cur, then SET_HCA_CAP general (prm/mlx5 §2.1 steps 12-13). */
static int
mlx5v_dev_set_hca_cap(struct mlx5v_dev *dev)
{
	struct mlx5v_hw *hw = mlx5v_dev_hw(dev);
	uint32_t page = hw->page_size != 0 ? hw->page_size : MLX5V_UAR_PAGE_SIZE;
	uint8_t out[MLX5V_CMD_HDR_SIZE];
	uint8_t *in, *cap;
	uint32_t sig;
	int ret;

	ret = mlx5v_dev_query_cap(dev, MLX5V_CAP_GENERAL, MLX5V_CAP_MODE_MAX, dev->hca_cap_max);
	if (ret < 0)
		return ret;
	ret = mlx5v_dev_query_cap(dev, MLX5V_CAP_GENERAL, MLX5V_CAP_MODE_CUR, dev->hca_cap_cur);
	if (ret < 0)
		return ret;
	in = calloc(1, MLX5V_IFC_BYTES(set_hca_cap_in));
	if (in == NULL)
		return -ENOMEM;
	MLX5V_IFC_SET(set_hca_cap_in, in, opcode, MLX5V_CMD_OP_SET_HCA_CAP);
	MLX5V_IFC_SET(set_hca_cap_in, in, op_mod, MLX5V_SET_HCA_CAP_OP_MOD_GENERAL);
	cap = MLX5V_IFC_ADDR_OF(set_hca_cap_in, in, capability);
	memcpy(cap, dev->hca_cap_cur, MLX5V_HCA_CAP_SIZE);
	/*
	 * Signatures (prm/mlx5 §3.4): the device checks and signs only once cmdif_checksum is set,
	 * so with cmd_sig the driver starts signing after this command, not before.
	 */
	sig = dev->cmd_sig ? MLX5V_IFC_GET(cmd_hca_cap, dev->hca_cap_max, cmdif_checksum) : 0;
	if (dev->cmd_sig && sig == 0)
		MLX5V_LOG(WARNING, "%s: cmd_sig: the device cannot check signatures "
			  "(cmdif_checksum max 0); commands stay unsigned", dev->name);
	MLX5V_IFC_SET(cmd_hca_cap, cap, cmdif_checksum, sig);
	/*
	 * UAR pages follow the host page size the backend maps BAR0 with: log2(page) - 12
	 * (prm/mlx5 §2.2, §12 #16). Above 4 KiB, uar_4k keeps UAR indices in 4 KiB units when the
	 * device can, as [K] does; otherwise an index counts host pages (prm/mlx5 §2.1 step 13).
	 */
	MLX5V_IFC_SET(cmd_hca_cap, cap, log_uar_page_sz,
		      rte_log2_u64(page) - MLX5V_ADAPTER_PAGE_SHIFT);
	if (page > MLX5V_UAR_PAGE_SIZE && MLX5V_IFC_GET(cmd_hca_cap, dev->hca_cap_max, uar_4k))
		MLX5V_IFC_SET(cmd_hca_cap, cap, uar_4k, 1);
	/* mkey_by_name only if the max caps allow it, as [R] does (prm/mlx5 §2.1 step 13). */
	if (MLX5V_IFC_GET(cmd_hca_cap, dev->hca_cap_max, mkey_by_name))
		MLX5V_IFC_SET(cmd_hca_cap, cap, mkey_by_name, 1);
	ret = mlx5v_cmd_exec(dev, in, MLX5V_IFC_BYTES(set_hca_cap_in), out, sizeof(out));
	/*
	 * Keep our copy in sync with what the device now has; later checks (umem_uid_0, port_type,
	 * fast_teardown) read hca_cap_cur.
	 */
	if (ret == 0) {
		memcpy(dev->hca_cap_cur, cap, MLX5V_HCA_CAP_SIZE);
		if (sig != 0)
			mlx5v_cmd_checksum_enable(dev, 1);
		hw->uar_stride = MLX5V_IFC_GET(cmd_hca_cap, cap, uar_4k) ? MLX5V_UAR_PAGE_SIZE :
				 page;
	}
	free(in);
	return ret;
}

/*
 * RoCE caps, only when the general "roce" cap is set (prm/mlx5 §2.1 step 14, rdma-core
 * handle_hca_cap_roce): query cur (op_mod 0x9) and max (0x8); if the device can set
 * sw_r_roce_src_udp_port but has not, SET_HCA_CAP op_mod 0x8 with the current RoCE caps
 * and that bit set.
 */
static int
mlx5v_dev_set_roce_cap(struct mlx5v_dev *dev)
{
	uint8_t out[MLX5V_CMD_HDR_SIZE];
	uint8_t *in, *cur, *max;
	int ret;

	if (!MLX5V_IFC_GET(cmd_hca_cap, dev->hca_cap_cur, roce))
		return 0;
	in = calloc(1, MLX5V_IFC_BYTES(set_hca_cap_in) + MLX5V_HCA_CAP_SIZE);
	if (in == NULL)
		return -ENOMEM;
	/* cur lands directly where SET_HCA_CAP takes the capability. */
	cur = MLX5V_IFC_ADDR_OF(set_hca_cap_in, in, capability);
	max = in + MLX5V_IFC_BYTES(set_hca_cap_in);
	ret = mlx5v_dev_query_cap(dev, MLX5V_CAP_TYPE_ROCE, MLX5V_CAP_MODE_CUR, cur);
	if (ret == 0)
		ret = mlx5v_dev_query_cap(dev, MLX5V_CAP_TYPE_ROCE, MLX5V_CAP_MODE_MAX, max);
	if (ret < 0 || MLX5V_IFC_GET(roce_cap, cur, sw_r_roce_src_udp_port) ||
	    !MLX5V_IFC_GET(roce_cap, max, sw_r_roce_src_udp_port))
		goto out;
	MLX5V_IFC_SET(set_hca_cap_in, in, opcode, MLX5V_CMD_OP_SET_HCA_CAP);
	MLX5V_IFC_SET(set_hca_cap_in, in, op_mod, MLX5V_SET_HCA_CAP_OP_MOD_ROCE);
	MLX5V_IFC_SET(roce_cap, cur, sw_r_roce_src_udp_port, 1);
	ret = mlx5v_cmd_exec(dev, in, MLX5V_IFC_BYTES(set_hca_cap_in), out, sizeof(out));
out:
	free(in);
	return ret;
}

/*
 * prm/mlx5 §2.1 step 15: rdma-core (mlx5_vfio_setup_function) refuses a function whose
 * umem_uid_0 cap is 0 with EOPNOTSUPP; DEVX UMEMs with uid 0 depend on it.
 */
static int
mlx5v_dev_check_caps(struct mlx5v_dev *dev)
{
	if (!MLX5V_IFC_GET(cmd_hca_cap, dev->hca_cap_cur, umem_uid_0)) {
		MLX5V_LOG(ERR, "%s: cap umem_uid_0 is 0, not supported", dev->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int
mlx5v_dev_init_hca(struct mlx5v_dev *dev)
{
	return mlx5v_dev_simple_cmd(dev, MLX5V_CMD_OP_INIT_HCA, 0, 0, MLX5V_CMD_HDR_SIZE);
}

/*
 * prm/mlx5 §2.1 step 18: on an Ethernet port, MODIFY_NIC_VPORT_CONTEXT of our own vport with
 * field_select.roce_en = 1 and nic_vport_context.roce_en = 1, as rdma-core does after
 * INIT_HCA. Like rdma-core, unload does not undo it: TEARDOWN_HCA ends the vport context
 * with the rest of the HCA state (inference; the kernel's mlx5_ib disables RoCE first).
 */
static int
mlx5v_dev_enable_roce(struct mlx5v_dev *dev)
{
	uint8_t in[MLX5V_IFC_BYTES(modify_nic_vport_context_in)];
	uint8_t out[MLX5V_CMD_HDR_SIZE];

	if (MLX5V_IFC_GET(cmd_hca_cap, dev->hca_cap_cur, port_type) != MLX5V_CAP_PORT_TYPE_ETH)
		return 0;
	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(modify_nic_vport_context_in, in, opcode,
		      MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT);
	MLX5V_IFC_SET(modify_nic_vport_context_in, in, field_select_roce_en, 1);
	MLX5V_IFC_SET(modify_nic_vport_context_in, in, ctx.roce_en, 1);
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

/*
 * Fast teardown (prm/mlx5 §2.3): TEARDOWN_HCA profile 2, then request nic_interface DISABLED
 * through cmdq_addr_l_sz and poll for it. Any failure makes the caller fall back to the graceful
 * path.
 */
static int
mlx5v_dev_teardown_fast(struct mlx5v_dev *dev)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE];
	uint64_t deadline;
	uint32_t v;
	int ret;

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(teardown_hca_in, in, opcode, MLX5V_CMD_OP_TEARDOWN_HCA);
	MLX5V_IFC_SET(teardown_hca_in, in, profile, MLX5V_TEARDOWN_PROFILE_PREPARE_FAST_TEARDOWN);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret < 0)
		return ret;
	/*
	 * state = FORCE_STATE_FAIL: firmware refused the fast path (prm/mlx5 §2.3 step 2,
	 * prm/mlx5 §9).
	 */
	if (MLX5V_IFC_GET(teardown_hca_out, out, state) == MLX5V_TEARDOWN_STATE_FORCE_FAIL)
		return -EIO;
	/* prm/mlx5 §2.3: request nic_interface DISABLED; this also writes 0 into bits 7:0. */
	v = mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDQ_ADDR_L_SZ);
	mlx5v_hw_wr32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDQ_ADDR_L_SZ,
		      (v & MLX5V_CMDQ_ADDR_MASK) | (MLX5V_NIC_IF_DISABLED << MLX5V_NIC_IF_SHIFT));
	deadline = mlx5v_dev_now_ms() + mlx5v_tout_ms(dev, MLX5V_TO_FAST_TEARDOWN);
	/* Poll every 1 ms for up to MLX5V_TO_FAST_TEARDOWN (3 s in [R]); EIO on expiry as [R]. */
	do {
		v = mlx5v_hw_rd32(mlx5v_dev_hw(dev), MLX5V_ISEG_CMDQ_ADDR_L_SZ);
		/*
		 * All ones: the function left the bus (prm/mlx5 §1.2). No later read will show
		 * DISABLED, so stop now instead of polling until the deadline.
		 */
		if (v == UINT32_MAX)
			return -ENODEV;
		if (((v >> MLX5V_NIC_IF_SHIFT) & MLX5V_NIC_IF_MASK) == MLX5V_NIC_IF_DISABLED)
			return 0;
		rte_delay_us_sleep(1000);
	} while (mlx5v_dev_now_ms() < deadline);
	return -EIO;
}

/*
 * TEARDOWN_HCA. Graceful close by default. The fast path (profile 2, then nic_interface
 * DISABLED) leaves no working command interface, so it is used only when asked for; its
 * pages are then freed without TAKE, as in rdma-core.
 */
static void
mlx5v_dev_teardown_hca(struct mlx5v_dev *dev)
{
	int ret = -ENOTSUP;

	if (dev->fast_teardown && dev->hca_cap_cur != NULL &&
	    MLX5V_IFC_GET(cmd_hca_cap, dev->hca_cap_cur, fast_teardown))
		ret = mlx5v_dev_teardown_fast(dev);
	if (ret == -ENODEV) {
		/*
		 * Gone from the bus: a graceful TEARDOWN_HCA would only wait for its timeout.
		 * Dead, so that the rest of unload completes locally (prm/mlx5 §3.11).
		 */
		mlx5v_dev_set_dead(dev, MLX5V_DEAD_PCI_COMM_ERR);
		return;
	}
	if (ret == 0) {
		/* The command interface is gone: later teardown commands complete locally. */
		/*
		 * Not mlx5v_dev_set_dead(): this is an expected state, so no health report and no
		 * DEAD notification; only the dead-device command policy is wanted.
		 */
		__atomic_store_n(&dev->dead, MLX5V_DEAD_CMD_IF, __ATOMIC_RELEASE);
		return;
	}
	/* Result ignored: there is nothing left to fall back to, and unload continues. */
	mlx5v_dev_simple_cmd(dev, MLX5V_CMD_OP_TEARDOWN_HCA, 0,
			     MLX5V_TEARDOWN_PROFILE_GRACEFUL_CLOSE, MLX5V_CMD_HDR_SIZE);
}

static int
mlx5v_dev_alloc_uar(struct mlx5v_dev *dev)
{
	uint8_t in[MLX5V_CMD_HDR_SIZE];
	uint8_t out[MLX5V_CMD_HDR_SIZE];
	int ret;

	memset(in, 0, sizeof(in));
	MLX5V_IFC_SET(cmd_in_hdr, in, opcode, MLX5V_CMD_OP_ALLOC_UAR);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret < 0)
		return ret;
	dev->uar = MLX5V_IFC_GET(alloc_uar_out, out, uar);
	dev->uar_addr = mlx5v_hw_uar_addr(mlx5v_dev_hw(dev), dev->uar);
	/*
	 * UAR pages 0-2 are the init segment (prm/mlx5 §8): a UAR there would make EQ doorbells
	 * land on init-segment registers.
	 */
	if (dev->uar_addr == NULL || dev->uar < MLX5V_UAR_FIRST_INDEX) {
		MLX5V_LOG(ERR, "%s: ALLOC_UAR returned unusable UAR %u", dev->name, dev->uar);
		mlx5v_dev_simple_cmd(dev, MLX5V_CMD_OP_DEALLOC_UAR, 0, dev->uar,
				     MLX5V_CMD_HDR_SIZE);
		dev->uar_addr = NULL;
		return -EINVAL;
	}
	return 0;
}

static void
mlx5v_dev_dealloc_uar(struct mlx5v_dev *dev)
{
	mlx5v_dev_simple_cmd(dev, MLX5V_CMD_OP_DEALLOC_UAR, 0, dev->uar, MLX5V_CMD_HDR_SIZE);
	dev->uar_addr = NULL;
}

/* max and cur in one allocation; cur is the second half. */
static int
mlx5v_dev_caps_alloc(struct mlx5v_dev *dev)
{
	dev->hca_cap_max = rte_zmalloc_socket("mlx5v_caps", 2 * MLX5V_HCA_CAP_SIZE, 0,
					      dev->socket);
	if (dev->hca_cap_max == NULL)
		return -ENOMEM;
	dev->hca_cap_cur = dev->hca_cap_max + MLX5V_HCA_CAP_SIZE;
	return 0;
}

static void
mlx5v_dev_caps_free(struct mlx5v_dev *dev)
{
	rte_free(dev->hca_cap_max);
	dev->hca_cap_max = NULL;
	dev->hca_cap_cur = NULL;
}

/*
 * Bring-up (prm/mlx5 §2.1, kernel order for the two "initializing" waits). The unwind
 * ladder below runs exactly the steps of mlx5v_dev_unload(), in the same order.
 */
int
mlx5v_dev_load(struct mlx5v_dev *dev)
{
	int ret;

	if (dev == NULL)
		return -EINVAL;
	if (dev->stage != MLX5V_STAGE_NONE)
		return -EBUSY;
	/*
	 * A previous load may have ended with the device dead; each load starts from a clean state.
	 */
	__atomic_store_n(&dev->dead, MLX5V_DEAD_NONE, __ATOMIC_RELEASE);
	__atomic_store_n(&dev->removing, 0, __ATOMIC_RELEASE);
	/* PCI COMMAND memory + bus master; a backend without a bus answers -ENOTSUP. */
	ret = mlx5v_hw_bus_enable(mlx5v_dev_hw(dev));
	if (ret < 0 && ret != -ENOTSUP)
		return ret;
	ret = mlx5v_dev_wait_fw(dev, MLX5V_TO_FW_PRE_INIT);
	if (ret < 0)
		return ret;
	ret = mlx5v_dev_check_cmdif(dev);
	if (ret < 0)
		return ret;
	ret = mlx5v_dev_caps_alloc(dev);
	if (ret < 0)
		return ret;
	ret = mlx5v_cmd_init(dev);
	if (ret < 0)
		goto err_caps_free;
	dev->stage = MLX5V_STAGE_CMD;
	ret = mlx5v_dev_wait_fw(dev, MLX5V_TO_FW_INIT);
	if (ret < 0)
		goto err_cmd_cleanup;
	ret = mlx5v_dev_enable_hca(dev);
	if (ret < 0)
		goto err_cmd_cleanup;
	dev->stage = MLX5V_STAGE_HCA_ENABLED;
	ret = mlx5v_dev_set_issi(dev);
	if (ret < 0)
		goto err_disable_hca;
	/*
	 * Boot pages go before SET_HCA_CAP, init pages after it and before INIT_HCA (prm/mlx5
	 * §2.1 steps 9-10, 16).
	 */
	ret = mlx5v_pages_satisfy(dev, MLX5V_QUERY_PAGES_BOOT);
	if (ret < 0)
		/*
		 * Pages already given must be taken back before DISABLE_HCA (the [K] order,
		 * prm/mlx5 §12 #17); reclaim is a no-op when none were given.
		 */
		goto err_pages_reclaim;
	dev->stage = MLX5V_STAGE_BOOT_PAGES;
	/*
	 * HOST_ENDIANNESS is a PF register: [K] set_hca_ctrl skips it on every other function and
	 * firmware refuses it from a VF (prm/mlx5 §2.1 step 11).
	 */
	if (!mlx5v_dev_hw(dev)->is_vf) {
		ret = mlx5v_dev_set_host_endianness(dev);
		if (ret < 0)
			goto err_pages_reclaim;
	}
	ret = mlx5v_dev_set_hca_cap(dev);
	if (ret < 0)
		goto err_pages_reclaim;
	ret = mlx5v_dev_set_roce_cap(dev);
	if (ret < 0)
		goto err_pages_reclaim;
	ret = mlx5v_dev_check_caps(dev);
	if (ret < 0)
		goto err_pages_reclaim;
	ret = mlx5v_pages_satisfy(dev, MLX5V_QUERY_PAGES_INIT);
	if (ret < 0)
		goto err_pages_reclaim;
	ret = mlx5v_dev_init_hca(dev);
	if (ret < 0)
		goto err_pages_reclaim;
	dev->stage = MLX5V_STAGE_HCA_INIT;
	/* Undone by TEARDOWN_HCA: its failure unwinds exactly like ALLOC_UAR's. */
	ret = mlx5v_dev_enable_roce(dev);
	if (ret < 0)
		goto err_teardown_hca;
	ret = mlx5v_dev_alloc_uar(dev);
	if (ret < 0)
		goto err_teardown_hca;
	dev->stage = MLX5V_STAGE_UAR;
	/*
	 * Page events are armed before the async EQ exists so that a PAGE_REQUEST queued right at
	 * CREATE_EQ finds its handler.
	 */
	ret = mlx5v_pages_events_start(dev);
	if (ret < 0)
		goto err_dealloc_uar;
	ret = mlx5v_eq_async_create(dev);
	if (ret < 0)
		goto err_pages_events_stop;
	dev->stage = MLX5V_STAGE_ASYNC_EQ;
	/*
	 * Last: the health poll runs on the EAL interrupt thread and must only see a fully loaded
	 * device.
	 */
	mlx5v_health_start(dev);
	dev->stage = MLX5V_STAGE_LOADED;
	MLX5V_LOG(INFO,
		  "%s: loaded: %u command slots, async EQ %u, UAR %u, %" PRIu64 " firmware pages",
		  dev->name, dev->cmd.nslots, dev->async_eq->eqn, dev->uar,
		  mlx5v_pages_given(dev));
	return 0;

err_pages_events_stop:
	mlx5v_pages_events_stop(dev);
err_dealloc_uar:
	mlx5v_dev_dealloc_uar(dev);
err_teardown_hca:
	mlx5v_dev_teardown_hca(dev);
err_pages_reclaim:
	mlx5v_pages_reclaim_all(dev);
err_disable_hca:
	mlx5v_dev_disable_hca(dev);
	mlx5v_dev_quarantine_release(dev);
err_cmd_cleanup:
	mlx5v_pages_cleanup(dev);
	mlx5v_cmd_cleanup(dev);
err_caps_free:
	mlx5v_dev_caps_free(dev);
	dev->stage = MLX5V_STAGE_NONE;
	MLX5V_LOG(ERR, "%s: bring-up failed: %s", dev->name, strerror(-ret));
	return ret;
}

void
mlx5v_dev_unload(struct mlx5v_dev *dev)
{
	if (dev == NULL || dev->stage == MLX5V_STAGE_NONE)
		return;
	/*
	 * From here the device is not live (mlx5v_dev_is_live()) and no hook can register:
	 * every consumer that could hold handles of it hears REMOVE below.
	 */
	pthread_mutex_lock(&dev->hook_lock);
	__atomic_store_n(&dev->removing, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&dev->hook_lock);
	/* removing is set: no recovery starts any more, and a running one is waited for. */
	mlx5v_recovery_cancel(dev);
	mlx5v_dev_notify(dev, MLX5V_DEV_EVENT_REMOVE);
	mlx5v_dev_teardown(dev);
}

void
mlx5v_dev_teardown(struct mlx5v_dev *dev)
{
	/*
	 * Runtime activity first: the health alarm and page work both run on the EAL
	 * interrupt thread and may use the async EQ. (Load starts neither before it can no
	 * longer fail, so its ladder has no counterpart of these two lines.)
	 */
	mlx5v_health_stop(dev);
	mlx5v_pages_events_quiesce(dev);
	/* Switches commands back to polling before DESTROY_EQ (prm/mlx5 §2.3 step 1). */
	mlx5v_eq_async_destroy(dev);
	mlx5v_pages_events_stop(dev);
	mlx5v_dev_dealloc_uar(dev);
	/*
	 * After DEALLOC_UAR, as [R]; fast teardown marks the command interface dead, so the
	 * commands that follow complete locally (prm/mlx5 §3.11).
	 */
	mlx5v_dev_teardown_hca(dev);
	/*
	 * [K] order: reclaim every firmware page, then DISABLE_HCA; rdma-core does neither
	 * (prm/mlx5 §12 #17).
	 */
	mlx5v_pages_reclaim_all(dev);
	mlx5v_dev_disable_hca(dev);
	/* The function is disabled: rings whose destroy failed can go now. */
	mlx5v_dev_quarantine_release(dev);
	mlx5v_pages_cleanup(dev);
	mlx5v_cmd_cleanup(dev);
	mlx5v_dev_caps_free(dev);
	dev->stage = MLX5V_STAGE_NONE;
	MLX5V_LOG(INFO, "%s: unloaded%s", dev->name,
		  mlx5v_dev_is_dead(dev) ? " (device was dead)" : "");
}
