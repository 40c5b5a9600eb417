/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file HCA commands of the model: enable, ISSI, capabilities, init/teardown, UARs. */

#include <string.h>

#include <rte_byteorder.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_priv.h"

#define MLX5V_SIM_ISSI_SUPPORTED 0x3        /* ISSI 0 and 1 */
/* cmdif_checksum is 2 bits wide (prm/mlx5 §2.2, DW16[15:14]). */
#define MLX5V_SIM_CMDIF_CHECKSUM_MAX 3
#define MLX5V_SIM_LOG_MAX_QP 10
#define MLX5V_SIM_UAR_SZ 6                  /* log2 of the UAR pages, init segment included */
#define MLX5V_SIM_HOST_ENDIAN_BE 0x80

/* floor(log2(v)) for v >= 1, and 0 for 0. */
static unsigned int
mlx5v_sim_log2(unsigned int v)
{
	unsigned int l = 0;

	while (v > 1) {
		v >>= 1;
		l++;
	}
	return l;
}

/*
 * Capabilities the drivers read (prm/mlx5 §2.2). max and cur start equal except for
 * the fields a driver may turn on with SET_HCA_CAP.
 */
void
mlx5v_sim_caps_init(struct mlx5v_sim *sim)
{
	uint8_t *caps[2] = { sim->cap_max, sim->cap_cur };
	unsigned int log_eq = mlx5v_sim_log2(sim->p.max_eqs);
	unsigned int i;

	/*
	 * Rounded up so that 1 << log_max_eq covers max_num_eqs; the field is 4 bits (prm/mlx5 §2.2
	 * DW7[3:0]), hence the clamp to 15.
	 */
	if ((1u << log_eq) < sim->p.max_eqs)
		log_eq++;
	for (i = 0; i < RTE_DIM(caps); i++) {
		uint8_t *c = caps[i];

		memset(c, 0, MLX5V_HCA_CAP_SIZE);
		MLX5V_IFC_SET(cmd_hca_cap, c, log_max_qp, MLX5V_SIM_LOG_MAX_QP);
		MLX5V_IFC_SET(cmd_hca_cap, c, log_max_cq_sz, MLX5V_SIM_LOG_MAX_CQ_SZ);
		MLX5V_IFC_SET(cmd_hca_cap, c, log_max_cq, MLX5V_SIM_LOG_MAX_CQ);
		MLX5V_IFC_SET(cmd_hca_cap, c, log_max_eq_sz, sim->p.log_max_eq_sz);
		MLX5V_IFC_SET(cmd_hca_cap, c, log_max_eq, RTE_MIN(log_eq, 15u));
		MLX5V_IFC_SET(cmd_hca_cap, c, port_type, MLX5V_CAP_PORT_TYPE_ETH);
		MLX5V_IFC_SET(cmd_hca_cap, c, roce, 1);
		MLX5V_IFC_SET(cmd_hca_cap, c, uar_sz, MLX5V_SIM_UAR_SZ);
		MLX5V_IFC_SET(cmd_hca_cap, c, umem_uid_0, 1);
		MLX5V_IFC_SET(cmd_hca_cap, c, max_num_eqs, sim->p.max_eqs);
		/* 4 KiB UAR pages, the only size the model serves; see SET_HCA_CAP. */
		MLX5V_IFC_SET(cmd_hca_cap, c, log_uar_page_sz, 0);
		/* The Ethernet function's fields (mlx5v_sim_eth_port.c). */
		mlx5v_sim_eth_caps_general(sim, c);
	}
	/* CQE compression (prm/mlx5_eth §8.5), unless the cqe_comp knob turns it off. */
	MLX5V_IFC_SET(cmd_hca_cap_eth, sim->cap_max, cqe_compression,
		      mlx5v_sim_knob(sim, MLX5V_SIM_K_CQE_COMP) != 0);
	MLX5V_IFC_SET(cmd_hca_cap_eth, sim->cap_cur, cqe_compression,
		      mlx5v_sim_knob(sim, MLX5V_SIM_K_CQE_COMP) != 0);
	/*
	 * The clocks queues may stamp with (prm/mlx5_eth §5.1): free-running only (0, the
	 * default), real-time only (1: firmware that runs the real-time clock alone) or both (2).
	 */
	for (i = 0; i < RTE_DIM(caps); i++) {
		/*
		 * The flow tag and L3/L4 header mini-CQE formats (prm/mlx5_eth §8.5), unless
		 * knobbed off.
		 */
		MLX5V_IFC_SET(cmd_hca_cap_eth, caps[i], mini_cqe_resp_flow_tag,
			      mlx5v_sim_knob(sim, MLX5V_SIM_K_MINI_CQE_TAGS) != 0);
		MLX5V_IFC_SET(cmd_hca_cap_eth, caps[i], mini_cqe_resp_l3_l4_tag,
			      mlx5v_sim_knob(sim, MLX5V_SIM_K_MINI_CQE_TAGS) != 0);
		MLX5V_IFC_SET(cmd_hca_cap_eth, caps[i], sq_ts_format,
			      mlx5v_sim_knob(sim, MLX5V_SIM_K_TS_FORMAT_CAP));
		MLX5V_IFC_SET(cmd_hca_cap_eth, caps[i], rq_ts_format,
			      mlx5v_sim_knob(sim, MLX5V_SIM_K_TS_FORMAT_CAP));
	}
	/*
	 * Settable: the driver turns these on; cmdif_checksum starts disabled (prm/mlx5_eth §3.4).
	 */
	MLX5V_IFC_SET(cmd_hca_cap, sim->cap_max, cmdif_checksum, MLX5V_SIM_CMDIF_CHECKSUM_MAX);
	MLX5V_IFC_SET(cmd_hca_cap, sim->cap_max, mkey_by_name, 1);
	MLX5V_IFC_SET(cmd_hca_cap, sim->cap_max, disable_link_up_by_init_hca, 1);
	memset(sim->roce_max, 0, MLX5V_HCA_CAP_SIZE);
	memset(sim->roce_cur, 0, MLX5V_HCA_CAP_SIZE);
	/*
	 * cur 0 and max 1 make [R] set sw_r_roce_src_udp_port, exercising the RoCE SET_HCA_CAP path
	 * (prm/mlx5_eth §2.1 step 14).
	 */
	MLX5V_IFC_SET(roce_cap, sim->roce_max, sw_r_roce_src_udp_port, 1);
	sim->checksum_cap = 0;
	__atomic_store_n(&sim->uar_size, MLX5V_UAR_PAGE_SIZE, __ATOMIC_RELAXED);
}

int
mlx5v_sim_uar_allocated(struct mlx5v_sim *sim, uint32_t idx)
{
	/* Indices 0-2 are the init segment and never allocated (prm/mlx5_eth §8). */
	if (idx < MLX5V_UAR_FIRST_INDEX || idx >= MLX5V_UAR_FIRST_INDEX + MLX5V_SIM_NUM_UARS)
		return 0;
	return sim->uar[idx - MLX5V_UAR_FIRST_INDEX].allocated;
}

/*
 * The model has one function, so only function_id 0 of the host (not an embedded CPU)
 * exists. enable_hca_in and disable_hca_in share the layout. @return 1 if in names it.
 */
static int
mlx5v_sim_hca_func_is_ours(const uint8_t *in)
{
	return MLX5V_IFC_GET(enable_hca_in, in, function_id) == 0 &&
	       MLX5V_IFC_GET(enable_hca_in, in, embedded_cpu_function) == 0;
}

/* ENABLE_HCA is the first command of every bring-up (prm/mlx5_eth §2.1 step 6). */
uint8_t
mlx5v_sim_cmd_enable_hca(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	if (!mlx5v_sim_hca_func_is_ours(c->in))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_ENABLE_FUNC);
	/*
	 * A second ENABLE_HCA means the driver lost track of the device (e.g. re-probe without
	 * teardown): BAD_SYS_STATE (0x04) (inference).
	 */
	if (sim->hca_state != MLX5V_SIM_HCA_DISABLED)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR,
					 MLX5V_SIM_SYND_ENABLE_TWICE);
	sim->hca_state = MLX5V_SIM_HCA_ENABLED;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_disable_hca(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	if (!mlx5v_sim_hca_func_is_ours(c->in))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_ENABLE_FUNC);
	if (sim->hca_state == MLX5V_SIM_HCA_DISABLED)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR,
					 MLX5V_SIM_SYND_DISABLE_STATE);
	/* [K] order: TEARDOWN_HCA, reclaim pages, then DISABLE_HCA (prm/mlx5_eth §2.3). */
	if (sim->hca_state == MLX5V_SIM_HCA_INITIALIZED)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR,
					 MLX5V_SIM_SYND_DISABLE_INIT);
	/*
	 * Logged, not refused: pages still held here are a leak in the driver's unwind, not a state
	 * firmware rejects (inference; [R] never reclaims them, prm/mlx5_eth §12 #17).
	 */
	if (sim->nb_pages != 0)
		SIM_LOG(WARNING, "%s: DISABLE_HCA with %u firmware pages still held",
			sim->name, sim->nb_pages);
	sim->hca_state = MLX5V_SIM_HCA_DISABLED;
	/* The function is gone: so are the EQs and CQs whose destroy failed. */
	mlx5v_sim_zombies_release(sim);
	/* ISSI resets with the function, so the next bring-up must SET_ISSI again (inference). */
	sim->issi = 0;
	/*
	 * So do the capabilities SET_HCA_CAP changed: signatures are off again (prm/mlx5_eth §3.4).
	 */
	MLX5V_IFC_SET(cmd_hca_cap, sim->cap_cur, cmdif_checksum, 0);
	sim->checksum_cap = 0;
	return MLX5V_CMD_STAT_OK;
}

/* prm/mlx5_eth §2.1 step 7: the driver needs bit 1 (ISSI 1) in supported_issi_dw0. */
uint8_t
mlx5v_sim_cmd_query_issi(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	MLX5V_IFC_SET(query_issi_out, c->out, current_issi, sim->issi);
	MLX5V_IFC_SET(query_issi_out, c->out, supported_issi_dw0, MLX5V_SIM_ISSI_SUPPORTED);
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_set_issi(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint32_t issi = MLX5V_IFC_GET(set_issi_in, c->in, current_issi);

	/* supported_issi_dw0 = 0x3: ISSI 0 and 1 only, anything higher is BAD_PARAM. */
	if (issi > 1)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_BAD_ISSI);
	sim->issi = issi;
	return MLX5V_CMD_STAT_OK;
}

/* op_mod = (cap_type << 1) | mode; the dispatch table admits general and RoCE only. */
uint8_t
mlx5v_sim_cmd_query_hca_cap(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	unsigned int type = c->op_mod >> 1;
	int cur = c->op_mod & 1;
	const uint8_t *src;

	/* One function: another function's capabilities cannot be queried (BAD_PARAM). */
	if (MLX5V_IFC_GET(query_hca_cap_in, c->in, other_function) != 0 ||
			MLX5V_IFC_GET(query_hca_cap_in, c->in, function_id) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_CAP_OTHER_FUNC);
	if (type == MLX5V_CAP_GENERAL) {
		uint8_t *cap = MLX5V_IFC_ADDR_OF(query_hca_cap_out, c->out, capability);

		src = cur ? sim->cap_cur : sim->cap_max;
		memcpy(cap, src, MLX5V_HCA_CAP_SIZE);
		/* Read-only caps that knobs may change at run time (prm/mlx5_eth §2.2). */
		MLX5V_IFC_SET(cmd_hca_cap, cap, fast_teardown,
			      mlx5v_sim_knob(sim, MLX5V_SIM_K_FAST_TEARDOWN) != 0);
		MLX5V_IFC_SET(cmd_hca_cap, cap, umem_uid_0,
			      mlx5v_sim_knob(sim, MLX5V_SIM_K_UMEM_UID_0) != 0);
		MLX5V_IFC_SET(cmd_hca_cap, cap, roce, mlx5v_sim_knob(sim, MLX5V_SIM_K_ROCE) != 0);
		MLX5V_IFC_SET(cmd_hca_cap, cap, port_type,
			      mlx5v_sim_knob(sim, MLX5V_SIM_K_PORT_TYPE));
		/* uar_4k is settable: the knob is the max, cur is what SET_HCA_CAP took. */
		if (!cur)
			MLX5V_IFC_SET(cmd_hca_cap, cap, uar_4k,
				      mlx5v_sim_knob(sim, MLX5V_SIM_K_UAR_4K) != 0);
	} else if (type == MLX5V_CAP_TYPE_ROCE) {
		/* RoCE caps: op_mod 0x8 max, 0x9 cur (prm/mlx5_eth §2.1 step 14). */
		src = cur ? sim->roce_cur : sim->roce_max;
		memcpy(MLX5V_IFC_ADDR_OF(query_hca_cap_out, c->out, capability), src,
		       MLX5V_HCA_CAP_SIZE);
	} else {
		/* Ethernet offloads and flow tables: dispatch admits no other type. */
		mlx5v_sim_eth_caps_query(sim, type,
					 MLX5V_IFC_ADDR_OF(query_hca_cap_out, c->out, capability));
	}
	return MLX5V_CMD_STAT_OK;
}

/*
 * Take settable field fld of capability layout type from the input if it does not exceed max.
 * @return 0 or -1.
 */
#define MLX5V_SIM_CAP_TAKE(type, cur, max, in, fld) __extension__ ({ \
	uint32_t v_ = MLX5V_IFC_GET(type, in, fld); \
	int r_ = v_ > MLX5V_IFC_GET(type, max, fld) ? -1 : 0; \
	if (r_ == 0) \
		MLX5V_IFC_SET(type, cur, fld, v_); \
	r_; })

uint8_t
mlx5v_sim_cmd_set_hca_cap(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *in = MLX5V_IFC_ADDR_OF(set_hca_cap_in, c->in, capability);
	uint8_t cur[MLX5V_HCA_CAP_SIZE];

	/*
	 * Caps are set between SET_ISSI and INIT_HCA (prm/mlx5_eth §2.1 steps 13-14); afterwards
	 * they would not take effect, so BAD_SYS_STATE (inference).
	 */
	if (sim->hca_state == MLX5V_SIM_HCA_INITIALIZED)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR,
					 MLX5V_SIM_SYND_SET_CAP_STATE);
	/*
	 * op_mod 0x8, the only other one dispatch admits: in the RoCE page only
	 * sw_r_roce_src_udp_port is settable.
	 */
	if (c->op_mod != 0) {
		memcpy(cur, sim->roce_cur, sizeof(cur));
		if (MLX5V_SIM_CAP_TAKE(roce_cap, cur, sim->roce_max, in,
				       sw_r_roce_src_udp_port) != 0)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_SET_CAP_VALUE);
		memcpy(sim->roce_cur, cur, sizeof(cur));
		return MLX5V_CMD_STAT_OK;
	}
	/* Read-only fields in the input are ignored, as firmware does. */
	/*
	 * Except log_uar_page_sz, which [K] and [R] set to log2(host page) - 12 (prm/mlx5_eth §2.1
	 * step 13). The model plays the host too (host_page=): a UAR page of another size could not
	 * be mapped by itself on that host, so it fails here rather than as doorbells at the wrong
	 * offset later (deviation: firmware cannot know the host page).
	 */
	if (MLX5V_IFC_GET(cmd_hca_cap, in, log_uar_page_sz) !=
			mlx5v_sim_log2(sim->p.host_page) - MLX5V_ADAPTER_PAGE_SHIFT)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_UAR_PAGE_SZ);
	memcpy(cur, sim->cap_cur, sizeof(cur));
	MLX5V_IFC_SET(cmd_hca_cap, cur, log_uar_page_sz,
		      MLX5V_IFC_GET(cmd_hca_cap, in, log_uar_page_sz));
	/* uar_4k is settable only when the max (the uar_4k knob) allows it. */
	if (MLX5V_IFC_GET(cmd_hca_cap, in, uar_4k) && mlx5v_sim_knob(sim, MLX5V_SIM_K_UAR_4K) == 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_SET_CAP_VALUE);
	MLX5V_IFC_SET(cmd_hca_cap, cur, uar_4k, MLX5V_IFC_GET(cmd_hca_cap, in, uar_4k));
	if (MLX5V_SIM_CAP_TAKE(cmd_hca_cap, cur, sim->cap_max, in, cmdif_checksum) != 0 ||
			MLX5V_SIM_CAP_TAKE(cmd_hca_cap, cur, sim->cap_max, in, mkey_by_name) != 0 ||
			MLX5V_SIM_CAP_TAKE(cmd_hca_cap, cur, sim->cap_max, in,
					   disable_link_up_by_init_hca) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_SET_CAP_VALUE);
	memcpy(sim->cap_cur, cur, sizeof(cur));
	/*
	 * UAR index n is at BAR0 + n * 4 KiB with uar_4k, else n host pages in (prm/mlx5_eth §8).
	 */
	__atomic_store_n(&sim->uar_size, MLX5V_IFC_GET(cmd_hca_cap, cur, uar_4k) ?
			 MLX5V_UAR_PAGE_SIZE : sim->p.host_page, __ATOMIC_RELAXED);
	/* prm/mlx5_eth §3.4: signatures apply when the driver leaves cmdif_checksum set. */
	sim->checksum_cap = MLX5V_IFC_GET(cmd_hca_cap, cur, cmdif_checksum) != 0;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_init_hca(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint64_t need = (uint64_t)mlx5v_sim_knob(sim, MLX5V_SIM_K_BOOT_PAGES) +
		(uint64_t)mlx5v_sim_knob(sim, MLX5V_SIM_K_INIT_PAGES);

	if (sim->hca_state == MLX5V_SIM_HCA_INITIALIZED)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR,
					 MLX5V_SIM_SYND_INIT_TWICE);
	/* Both drivers SET_ISSI 1 before INIT_HCA (prm/mlx5_eth §2.1 step 8). */
	if (sim->issi != 1)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR,
					 MLX5V_SIM_SYND_INIT_NO_ISSI);
	/* The boot and init pages must have been given (prm/mlx5_eth §2.1 steps 9-10, 16). */
	if (sim->nb_pages < need)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR,
					 MLX5V_SIM_SYND_INIT_NO_PAGES);
	sim->hca_state = MLX5V_SIM_HCA_INITIALIZED;
	mlx5v_sim_eth_hca_init(sim);
	/* A new life forgets a PREPARE_FAST_TEARDOWN of the previous one. */
	sim->fast_teardown_prepared = 0;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_teardown_hca(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint32_t profile = MLX5V_IFC_GET(teardown_hca_in, c->in, profile);
	unsigned int k, n = 0;

	/*
	 * The drivers use profile 0 (GRACEFUL_CLOSE) and 2 (PREPARE_FAST_TEARDOWN) only
	 * (prm/mlx5_eth §2.3).
	 */
	if (profile != MLX5V_TEARDOWN_PROFILE_GRACEFUL_CLOSE &&
			profile != MLX5V_TEARDOWN_PROFILE_PREPARE_FAST_TEARDOWN)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_TEARDOWN_PROFILE);
	if (sim->hca_state != MLX5V_SIM_HCA_INITIALIZED)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_SYS_STATE_ERR,
					 MLX5V_SIM_SYND_TEARDOWN_STATE);
	if (profile == MLX5V_TEARDOWN_PROFILE_PREPARE_FAST_TEARDOWN) {
		/*
		 * Profile 2 needs the fast_teardown cap (prm/mlx5_eth §2.3); a driver that asks
		 * without it is wrong.
		 */
		if (mlx5v_sim_knob(sim, MLX5V_SIM_K_FAST_TEARDOWN) == 0)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_TEARDOWN_NO_FAST);
		/*
		 * prm/mlx5_eth §2.3 step 2: state FORCE_STATE_FAIL makes the driver fall back to
		 * profile 0.
		 */
		if (mlx5v_sim_knob(sim, MLX5V_SIM_K_TEARDOWN_FAIL) != 0) {
			MLX5V_IFC_SET(teardown_hca_out, c->out, state,
				      MLX5V_TEARDOWN_STATE_FORCE_FAIL);
			return MLX5V_CMD_STAT_OK;
		}
		/*
		 * Lets the following nic_interface = DISABLED write pass without a warning
		 * (prm/mlx5_eth §2.3 step 3).
		 */
		sim->fast_teardown_prepared = 1;
	}
	/*
	 * Logged only: [R] destroys its async EQ first (prm/mlx5_eth §2.3), so live objects mean
	 * the driver's teardown skipped a destroy.
	 */
	if (sim->nb_eqs != 0 || sim->nb_cqs != 0)
		SIM_LOG(WARNING, "%s: TEARDOWN_HCA with %u EQ(s) and %u CQ(s) still live",
			sim->name, sim->nb_eqs, sim->nb_cqs);
	for (k = 0; k < MLX5V_SIM_ETH_K_MAX; k++)
		n += mlx5v_sim_eth_live(sim, k);
	if (n != 0)
		SIM_LOG(WARNING, "%s: TEARDOWN_HCA with %u Ethernet object(s) still live",
			sim->name, n);
	/* Back to ENABLED: DISABLE_HCA is a separate step ([K] only, prm/mlx5_eth §2.3). */
	sim->hca_state = MLX5V_SIM_HCA_ENABLED;
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_access_reg(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *data = MLX5V_IFC_ADDR_OF(access_register_in, c->in, register_data);
	uint8_t host = rte_cpu_to_be_16(1) == 1 ? MLX5V_SIM_HOST_ENDIAN_BE : 0;

	/* Only HOST_ENDIANNESS (0x7004) is modelled (prm/mlx5_eth §2.1 step 11). */
	if (MLX5V_IFC_GET(access_register_in, c->in, register_id) != MLX5V_REG_HOST_ENDIANNESS)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_REG_ID);
	/*
	 * HOST_ENDIANNESS belongs to the PF: [K] set_hca_ctrl never sends it from another
	 * function, and the model refuses it from a VF as an operation the function may not do
	 * (prm/mlx5 §2.1 step 11; status BAD_OP is an inference).
	 */
	if (sim->p.vf)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_OP_ERR, MLX5V_SIM_SYND_REG_VF);
	if (MLX5V_IFC_GET(access_register_in, c->in, argument) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_REG_DATA);
	/* Drivers only write this register; the read lets tests check what they wrote. */
	if (c->op_mod == MLX5V_ACCESS_REG_READ) {
		if (c->outlen < MLX5V_IFC_BYTES(access_register_out) +
				MLX5V_REG_HOST_ENDIANNESS_SIZE)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_OUTP_LEN_ERR,
						 MLX5V_SIM_SYND_OUTLEN);
		memcpy(MLX5V_IFC_ADDR_OF(access_register_out, c->out, register_data),
		       sim->host_endianness, MLX5V_REG_HOST_ENDIANNESS_SIZE);
		return MLX5V_CMD_STAT_OK;
	}
	if (c->inlen < MLX5V_IFC_BYTES(access_register_in) + MLX5V_REG_HOST_ENDIANNESS_SIZE)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_INP_LEN_ERR, MLX5V_SIM_SYND_INLEN);
	/* Byte 0 is 0x00 (little-endian host) or 0x80 (big-endian); the rest is reserved. */
	if ((data[0] != 0 && data[0] != MLX5V_SIM_HOST_ENDIAN_BE) ||
			!mlx5v_sim_zero(data, 1, MLX5V_REG_HOST_ENDIANNESS_SIZE - 1))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_REG_DATA);
	/*
	 * Logged, not refused: firmware cannot know the host's byte order, which is why the driver
	 * tells it.
	 */
	if (data[0] != host)
		SIM_LOG(WARNING, "%s: host endianness register set to 0x%02x, host is %s",
			sim->name, data[0], host ? "big-endian" : "little-endian");
	memcpy(sim->host_endianness, data, MLX5V_REG_HOST_ENDIANNESS_SIZE);
	return MLX5V_CMD_STAT_OK;
}

uint8_t
mlx5v_sim_cmd_alloc_uar(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	unsigned int i;

	/* Pages 0-2 are the init segment: UAR indices start at 3 (prm/mlx5 §8). */
	for (i = 0; i < MLX5V_SIM_NUM_UARS; i++) {
		if (!sim->uar[i].allocated) {
			sim->uar[i].allocated = 1;
			sim->nb_uars++;
			MLX5V_IFC_SET(alloc_uar_out, c->out, uar, sim->uar[i].index);
			return MLX5V_CMD_STAT_OK;
		}
	}
	/* Out of UAR pages: LIM_ERR (0x08), ENOMEM in both drivers (prm/mlx5 §3.8). */
	return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_LIM_ERR, MLX5V_SIM_SYND_UAR_NONE);
}

/*
 * A UAR still named by an EQ or CQ cannot go: their doorbells would land on a page the
 * device no longer serves (inference; the PRM does not say).
 */
uint8_t
mlx5v_sim_cmd_dealloc_uar(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint32_t idx = MLX5V_IFC_GET(dealloc_uar_in, c->in, uar);
	unsigned int i;

	if (!mlx5v_sim_uar_allocated(sim, idx))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_UAR_INDEX);
	for (i = 0; i <= MLX5V_SIM_MAX_EQN; i++)
		if (sim->eq[i].valid && sim->eq[i].uar == idx)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
						 MLX5V_SIM_SYND_UAR_BUSY);
	for (i = 0; i <= MLX5V_SIM_MAX_CQN; i++)
		if (sim->cq[i].valid && sim->cq[i].uar == idx)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
						 MLX5V_SIM_SYND_UAR_BUSY);
	/* ... nor one an SQ rings through (its wq.uar_page). */
	if (mlx5v_sim_eth_uar_busy(sim, idx))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5V_SIM_SYND_UAR_BUSY);
	mlx5v_sim_uar_end(&sim->uar[idx - MLX5V_UAR_FIRST_INDEX]);
	sim->nb_uars--;
	return MLX5V_CMD_STAT_OK;
}
