/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Ethernet function of the model: the port and its NIC vport (vport context, vport
 * state, PAOS, PTYS, PMTU) and the Ethernet capabilities (prm/mlx5_eth §3, §4.3, §4.12, §11).
 */

#include <errno.h>
#include <string.h>

#include "mlx5v_prm_eth.h"
#include "mlx5v_sim_eth_dp.h"
#include "mlx5v_sim_priv.h"


#define MLX5V_SIM_ETH_LOCAL_PORT 1          /* the function's one port (prm/mlx5_eth §4.12) */
#define MLX5V_SIM_ETH_MAC_ENTRY 8           /* 2 reserved bytes + 6-byte MAC (prm/mlx5_eth §4.3) */
#define MLX5V_SIM_ETH_LOG_MAX_LSO 16
#define MLX5V_SIM_ETH_MAX_QP_CNT MLX5V_SIM_ETH_MAX_QCNT
#define MLX5V_SIM_ETH_CQE_VERSION 1
#define MLX5V_SIM_ETH_LOG_MAX_FLOW 12

/*
 * The link modes of the port, fastest first: legacy and extended PTYS bit and speed in Mb/s
 * (prm/mlx5_eth §11.3). The model stores the admin set as a mask of entries of this table,
 * so the legacy and extended views never disagree.
 */
static const struct {
	uint8_t legacy;
	uint8_t ext;
	uint32_t mbps;
} mlx5v_sim_eth_modes[] = {
	{ 20, 9, 100000 },  /* 100GBASE-CR4 */
	{ 30, 7, 50000 },   /* 50GBASE-CR2 */
	{ 6, 5, 40000 },    /* 40GBASE-CR4 */
	{ 27, 6, 25000 },   /* 25GBASE-CR */
	{ 12, 4, 10000 },   /* 10GBASE-CR */
	{ 1, 1, 1000 },     /* 1000BASE-KX */
};

/* PTYS mask (legacy or extended) of the modes in set (a mask of table entries). */
static uint32_t
mlx5v_sim_eth_modes_to_ptys(uint32_t set, int ext)
{
	uint32_t m = 0;
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_sim_eth_modes); i++)
		if (set & (1u << i))
			m |= 1u << (ext ? mlx5v_sim_eth_modes[i].ext :
				    mlx5v_sim_eth_modes[i].legacy);
	return m;
}

/* Table entries of a PTYS mask. @return the set, or -1 if a bit names no mode. */
static int64_t
mlx5v_sim_eth_ptys_to_modes(uint32_t ptys, int ext)
{
	uint32_t set = 0;
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5v_sim_eth_modes); i++) {
		uint32_t bit = 1u << (ext ? mlx5v_sim_eth_modes[i].ext :
				      mlx5v_sim_eth_modes[i].legacy);

		if (ptys & bit) {
			set |= 1u << i;
			ptys &= ~bit;
		}
	}
	return ptys != 0 ? -1 : (int64_t)set;
}

/* The admin set is kept in eth_proto_admin as a mask of mlx5v_sim_eth_modes[] entries. */
static uint32_t
mlx5v_sim_eth_all_modes(void)
{
	return (1u << RTE_DIM(mlx5v_sim_eth_modes)) - 1;
}

void
mlx5v_sim_eth_port_init(struct mlx5v_sim *sim)
{
	struct mlx5v_sim_eth_port *p = &sim->eth->port;
	uint32_t h = 2166136261u;
	const char *s;

	/* A locally administered MAC derived from the device name (FNV-1a), stable per name. */
	for (s = sim->name; *s != '\0'; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	p->perm_mac[0] = 0x02;
	p->perm_mac[1] = 0x5e;
	p->perm_mac[2] = h >> 24;
	p->perm_mac[3] = h >> 16;
	p->perm_mac[4] = h >> 8;
	p->perm_mac[5] = h;
	p->vport_mtu = MLX5V_SIM_ETH_DEF_MTU;
	p->admin_mtu = MLX5V_SIM_ETH_DEF_MTU;
	p->admin_status = MLX5V_PAOS_UP;
	p->carrier = 1;
	p->eth_proto_admin = mlx5v_sim_eth_all_modes();
	p->ext_eth_proto_admin = mlx5v_sim_eth_all_modes();
	/* What an e-switch manager set for this vport (prm/mlx5_eth §6.4). */
	p->min_wqe_inline_mode = mlx5v_sim_knob(sim, MLX5V_SIM_K_VPORT_INLINE_MODE);
}

/* ---- Capabilities (prm/mlx5_eth §3) ---- */

void
mlx5v_sim_eth_caps_general(struct mlx5v_sim *sim, uint8_t *cap)
{
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_mkey, MLX5V_SIM_ETH_LOG_MAX_MKEY);
	MLX5V_SET(cmd_hca_cap_eth, cap, terminate_scatter_list_mkey, 1);
	MLX5V_SET(cmd_hca_cap_eth, cap, end_pad, 1);
	MLX5V_SET(cmd_hca_cap_eth, cap, max_qp_cnt, MLX5V_SIM_ETH_MAX_QP_CNT);
	MLX5V_SET(cmd_hca_cap_eth, cap, eth_virt, 1);
	MLX5V_SET(cmd_hca_cap_eth, cap, nic_flow_table, 1);
	/* PCAM readable where it says PTYS speaks in its extended fields (prm/mlx5_eth §11.3). */
	MLX5V_SET(cmd_hca_cap_eth, cap, pcam_reg, mlx5v_sim_knob(sim, MLX5V_SIM_K_PTYS_EXT) != 0);
	MLX5V_SET(cmd_hca_cap_eth, cap, num_ports, 1);
	MLX5V_SET(cmd_hca_cap_eth, cap, cqe_version, MLX5V_SIM_ETH_CQE_VERSION);
	MLX5V_SET(cmd_hca_cap_eth, cap, eth_net_offloads, 1);
	MLX5V_SET(cmd_hca_cap_eth, cap, cq_moderation, 1);
	MLX5V_SET(cmd_hca_cap_eth, cap, bf, 1);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_bf_reg_size,
	    mlx5v_sim_knob(sim, MLX5V_SIM_K_LOG_BF_REG_SIZE));
	MLX5V_SET(cmd_hca_cap_eth, cap, max_wqe_sz_sq,
		  mlx5v_sim_knob(sim, MLX5V_SIM_K_MAX_WQE_SZ_SQ));
	/* 32 data segments at most per receive WQE (CREATE_RQ refuses a larger stride). */
	MLX5V_SET(cmd_hca_cap_eth, cap, max_wqe_sz_rq, MLX5V_SIM_ETH_MAX_WQE_SZ_RQ);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_transport_domain, MLX5V_SIM_ETH_LOG_MAX_TD);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_pd, MLX5V_SIM_ETH_LOG_MAX_PD);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_rq, MLX5V_SIM_ETH_LOG_MAX_RQ);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_sq, MLX5V_SIM_ETH_LOG_MAX_SQ);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_tir, MLX5V_SIM_ETH_LOG_MAX_TIR);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_tis, MLX5V_SIM_ETH_LOG_MAX_TIS);
	MLX5V_SET(cmd_hca_cap_eth, cap, basic_cyclic_rcv_wqe, 1);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_rqt, MLX5V_SIM_ETH_LOG_MAX_RQT);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_rqt_size, MLX5V_SIM_ETH_LOG_MAX_RQT_SIZE);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_wq_sz, MLX5V_SIM_ETH_LOG_MAX_WQ_SZ);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_current_mc_list, MLX5V_SIM_ETH_LOG_MAX_MC_LIST);
	MLX5V_SET(cmd_hca_cap_eth, cap, log_max_current_uc_list, MLX5V_SIM_ETH_LOG_MAX_UC_LIST);
	/* sq_ts_format/rq_ts_format follow the ts_format_cap knob (mlx5v_sim_cmd_hca.c). */
	MLX5V_SET(cmd_hca_cap_eth, cap, num_of_uars_per_page, 1);
	MLX5V_SET(cmd_hca_cap_eth, cap, flex_parser_protocols,
	    (mlx5v_sim_eth_flex_icmp(sim, 4) ? MLX5V_FLEX_PARSER_ICMP_V4 : 0) |
	    (mlx5v_sim_eth_flex_icmp(sim, 6) ? MLX5V_FLEX_PARSER_ICMP_V6 : 0));
}

int
mlx5v_sim_eth_flex_icmp(struct mlx5v_sim *sim, unsigned int ver)
{
	return (mlx5v_sim_knob(sim, MLX5V_SIM_K_FLEX_PARSER_ICMP) & (ver == 6 ? 2 : 1)) != 0;
}

int
mlx5v_sim_eth_ft_tunnel(struct mlx5v_sim *sim)
{
	return mlx5v_sim_knob(sim, MLX5V_SIM_K_FT_TUNNEL) != 0;
}

/* Type 1, per_protocol_networking_offload_caps (prm/mlx5_eth §3.3). */
static void
mlx5v_sim_eth_caps_offload(struct mlx5v_sim *sim, uint8_t *cap)
{
	MLX5V_SET(eth_offload_cap, cap, csum_cap, 1);
	MLX5V_SET(eth_offload_cap, cap, vlan_cap, 1);
	MLX5V_SET(eth_offload_cap, cap, wqe_vlan_insert, 1);
	MLX5V_SET(eth_offload_cap, cap, self_lb_en_modifiable, 1);
	MLX5V_SET(eth_offload_cap, cap, max_lso_cap, MLX5V_SIM_ETH_LOG_MAX_LSO);
	MLX5V_SET(eth_offload_cap, cap, wqe_inline_mode,
	    mlx5v_sim_knob(sim, MLX5V_SIM_K_WQE_INLINE_MODE));
	/* prm/mlx5_empw §1.1: the multi-packet send WQE, enhanced form only. */
	MLX5V_SET(eth_offload_cap, cap, multi_pkt_send_wqe, mlx5v_sim_knob(sim, MLX5V_SIM_K_EMPW));
	MLX5V_SET(eth_offload_cap, cap, enhanced_multi_pkt_send_wqe,
	    mlx5v_sim_knob(sim, MLX5V_SIM_K_EMPW));
	MLX5V_SET(eth_offload_cap, cap, scatter_fcs, 1);
}

/* flow_table_prop_layout of the NIC receive side (prm/mlx5_eth §3.4). */
static void
mlx5v_sim_eth_caps_ft_rx(struct mlx5v_sim *sim, uint8_t *cap)
{
	uint8_t *p = MLX5V_IFC_ADDR_OF(flow_table_nic_cap, cap, flow_table_properties_nic_receive);
	uint8_t *f = MLX5V_IFC_ADDR_OF(flow_table_prop_layout, p, ft_field_support);
	uint32_t tun = mlx5v_sim_eth_ft_tunnel(sim);

	MLX5V_SET(flow_table_prop_layout, p, ft_support, 1);
	MLX5V_SET(flow_table_prop_layout, p, modify_root, 1);
	MLX5V_SET(flow_table_prop_layout, p, flow_counter, 1);
	MLX5V_SET(flow_table_prop_layout, p, log_max_flow_counter, MLX5V_SIM_ETH_LOG_MAX_FCNT);
	MLX5V_SET(flow_table_prop_layout, p, ignore_flow_level, 1);
	MLX5V_SET(flow_table_prop_layout, p, log_max_ft_size, MLX5V_SIM_ETH_LOG_MAX_FT_SIZE);
	MLX5V_SET(flow_table_prop_layout, p, max_ft_level, MLX5V_SIM_ETH_MAX_FT_LEVEL);
	MLX5V_SET(flow_table_prop_layout, p, log_max_ft_num, MLX5V_SIM_ETH_LOG_MAX_FT);
	MLX5V_SET(flow_table_prop_layout, p, log_max_destination, MLX5V_SIM_ETH_LOG_MAX_DEST);
	MLX5V_SET(flow_table_prop_layout, p, log_max_flow, MLX5V_SIM_ETH_LOG_MAX_FLOW);
	MLX5V_SET(ft_fields_supported, f, outer_dmac, 1);
	/* The VNI and the inner fields the model matches (mlx5v_sim_eth_match_modelled()). */
	MLX5V_SET(ft_fields_supported, f, outer_vxlan_vni, tun);
	MLX5V_SET(ft_fields_supported, f, inner_dmac, tun);
	MLX5V_SET(ft_fields_supported, f, inner_smac, tun);
	MLX5V_SET(ft_fields_supported, f, inner_ether_type, tun);
	MLX5V_SET(ft_fields_supported, f, inner_ip_version, tun);
	MLX5V_SET(ft_fields_supported, f, inner_first_prio, tun);
	MLX5V_SET(ft_fields_supported, f, inner_first_cfi, tun);
	MLX5V_SET(ft_fields_supported, f, inner_first_vid, tun);
	MLX5V_SET(ft_fields_supported, f, inner_sip, tun);
	MLX5V_SET(ft_fields_supported, f, inner_dip, tun);
	MLX5V_SET(ft_fields_supported, f, inner_frag, tun);
	MLX5V_SET(ft_fields_supported, f, inner_ip_protocol, tun);
	MLX5V_SET(ft_fields_supported, f, inner_udp_sport, tun);
	MLX5V_SET(ft_fields_supported, f, inner_udp_dport, tun);
	MLX5V_SET(ft_fields_supported, f, inner_tcp_sport, tun);
	MLX5V_SET(ft_fields_supported, f, inner_tcp_dport, tun);
	MLX5V_SET(ft_fields_supported, f, inner_tcp_flags, tun);
}

/* Max and current are equal for types 1 and 7: nothing in them is settable. */
int
mlx5v_sim_eth_caps_query(struct mlx5v_sim *sim, unsigned int type, uint8_t *cap)
{
	memset(cap, 0, MLX5V_HCA_CAP_SIZE);
	if (type == MLX5V_CAP_TYPE_ETH_OFFLOADS)
		mlx5v_sim_eth_caps_offload(sim, cap);
	else if (type == MLX5V_CAP_TYPE_FLOW_TABLE)
		mlx5v_sim_eth_caps_ft_rx(sim, cap);
	else
		return -EINVAL;
	return 0;
}

/* ---- Vport (prm/mlx5_eth §4.3) ---- */

static int
mlx5v_sim_eth_other_vport(const uint8_t *in)
{
	/* other_vport DW2[31] and vport_number DW2[15:0] sit alike in every vport input. */
	return MLX5V_GET(query_vport_state_in, in, other_vport) != 0 ||
	       MLX5V_GET(query_vport_state_in, in, vport_number) != 0;
}

/* state follows the link: PAOS admin up and the cable in (prm/mlx5_eth §11.2). */
uint8_t
mlx5v_sim_cmd_query_vport_state(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	if (mlx5v_sim_eth_other_vport(c->in))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_VPORT);
	MLX5V_SET(query_vport_state_out, c->out, admin_state, MLX5V_VPORT_ADMIN_AUTO);
	MLX5V_SET(query_vport_state_out, c->out, state, mlx5v_sim_eth_link_up(sim) ?
	    MLX5V_VPORT_STATE_UP : MLX5V_VPORT_STATE_DOWN);
	return MLX5V_CMD_STAT_OK;
}

static void
mlx5v_sim_eth_mac_put(uint8_t *entry, const uint8_t *mac)
{
	memset(entry, 0, MLX5V_SIM_ETH_MAC_ENTRY);
	memcpy(entry + 2, mac, MLX5V_SIM_ETH_MAC_LEN);
}

uint8_t
mlx5v_sim_cmd_query_nic_vport(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	struct mlx5v_sim_eth_port *p = &sim->eth->port;
	uint8_t *ctx = MLX5V_IFC_ADDR_OF(query_nic_vport_context_out, c->out, ctx);
	uint32_t type = MLX5V_GET(query_nic_vport_context_in, c->in, allowed_list_type);
	uint32_t off = MLX5V_IFC_BYTES(query_nic_vport_context_out);
	uint8_t (*list)[MLX5V_SIM_ETH_MAC_LEN];
	uint32_t n, i;

	if (mlx5v_sim_eth_other_vport(c->in))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_VPORT);
	/* The VLAN list is not modelled. */
	if (type != MLX5V_VPORT_LIST_UC && type != MLX5V_VPORT_LIST_MC)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_VPORT_LIST_TYPE);
	MLX5V_SET(nic_vport_context, ctx, min_wqe_inline_mode, p->min_wqe_inline_mode);
	MLX5V_SET(nic_vport_context, ctx, disable_mc_local_lb, p->disable_mc_local_lb);
	MLX5V_SET(nic_vport_context, ctx, disable_uc_local_lb, p->disable_uc_local_lb);
	MLX5V_SET(nic_vport_context, ctx, roce_en, sim->roce_en);
	MLX5V_SET(nic_vport_context, ctx, mtu, p->vport_mtu);
	MLX5V_SET(nic_vport_context, ctx, promisc_uc, p->promisc_uc);
	MLX5V_SET(nic_vport_context, ctx, promisc_mc, p->promisc_mc);
	MLX5V_SET(nic_vport_context, ctx, promisc_all, p->promisc_all);
	mlx5v_sim_eth_mac_put(MLX5V_IFC_ADDR_OF(nic_vport_context, ctx, permanent_address),
			      p->perm_mac);
	list = type == MLX5V_VPORT_LIST_UC ? p->uc : p->mc;
	n = type == MLX5V_VPORT_LIST_UC ? p->nuc : p->nmc;
	/* As many entries as outlen holds; allowed_list_size says how many were written. */
	for (i = 0; i < n && off + MLX5V_SIM_ETH_MAC_ENTRY * (i + 1) <= c->outlen; i++)
		mlx5v_sim_eth_mac_put(c->out + off + MLX5V_SIM_ETH_MAC_ENTRY * i, list[i]);
	MLX5V_SET(nic_vport_context, ctx, allowed_list_type, type);
	MLX5V_SET(nic_vport_context, ctx, allowed_list_size, i);
	return MLX5V_CMD_STAT_OK;
}

/* Checks of modify_nic_vport_context_in before anything changes. @return status. */
static uint8_t
mlx5v_sim_eth_vport_check(struct mlx5v_sim_cmd *c)
{
	const uint8_t *in = c->in;
	const uint8_t *ctx = MLX5V_IFC_ADDR_OF(modify_nic_vport_context_in, in, ctx);
	uint32_t type = MLX5V_GET(nic_vport_context, ctx, allowed_list_type);
	uint32_t size = MLX5V_GET(nic_vport_context, ctx, allowed_list_size);
	uint32_t mtu = MLX5V_GET(nic_vport_context, ctx, mtu);
	uint32_t max;

	if (mlx5v_sim_eth_other_vport(in))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR, MLX5V_SIM_SYND_VPORT);
	/* GUIDs, affiliation and the permanent address belong to the e-switch manager. */
	if (MLX5V_GET(modify_nic_vport_context_in, in, field_select_affiliation) ||
			MLX5V_GET(modify_nic_vport_context_in, in, field_select_node_guid) ||
			MLX5V_GET(modify_nic_vport_context_in, in, field_select_port_guid) ||
			MLX5V_GET(modify_nic_vport_context_in, in, field_select_permanent_address))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_VPORT_FIELD);
	if (MLX5V_GET(modify_nic_vport_context_in, in, field_select_mtu) &&
			(mtu < MLX5V_SIM_ETH_MIN_MTU || mtu > MLX5V_SIM_ETH_MAX_MTU))
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_VPORT_MTU);
	if (!MLX5V_GET(modify_nic_vport_context_in, in, field_select_addresses_list))
		return MLX5V_CMD_STAT_OK;
	if (type != MLX5V_VPORT_LIST_UC && type != MLX5V_VPORT_LIST_MC)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_VPORT_LIST_TYPE);
	/* At most 1 << log_max_current_{uc,mc}_list entries (prm/mlx5_eth §4.3). */
	max = type == MLX5V_VPORT_LIST_UC ? 1u << MLX5V_SIM_ETH_LOG_MAX_UC_LIST :
	      1u << MLX5V_SIM_ETH_LOG_MAX_MC_LIST;
	if (size > max)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_VPORT_LIST_SIZE);
	if (MLX5V_IFC_BYTES(modify_nic_vport_context_in) +
			(uint64_t)size * MLX5V_SIM_ETH_MAC_ENTRY > c->inlen)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
					 MLX5V_SIM_SYND_VPORT_LIST_LEN);
	return MLX5V_CMD_STAT_OK;
}

/* Only the fields whose field_select bit is set change (prm/mlx5_eth §4.3). */
uint8_t
mlx5v_sim_cmd_eth_modify_nic_vport(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	const uint8_t *in = c->in;
	const uint8_t *ctx = MLX5V_IFC_ADDR_OF(modify_nic_vport_context_in, in, ctx);
	struct mlx5v_sim_eth_port *p = &sim->eth->port;
	uint32_t off = MLX5V_IFC_BYTES(modify_nic_vport_context_in);
	uint8_t (*list)[MLX5V_SIM_ETH_MAC_LEN];
	uint32_t n, i;
	uint8_t st;

	st = mlx5v_sim_eth_vport_check(c);
	if (st != MLX5V_CMD_STAT_OK)
		return st;
	if (MLX5V_GET(modify_nic_vport_context_in, in, field_select_roce_en))
		sim->roce_en = MLX5V_GET(nic_vport_context, ctx, roce_en);
	if (MLX5V_GET(modify_nic_vport_context_in, in, field_select_mtu))
		p->vport_mtu = MLX5V_GET(nic_vport_context, ctx, mtu);
	if (MLX5V_GET(modify_nic_vport_context_in, in, field_select_promisc)) {
		p->promisc_uc = MLX5V_GET(nic_vport_context, ctx, promisc_uc);
		p->promisc_mc = MLX5V_GET(nic_vport_context, ctx, promisc_mc);
		p->promisc_all = MLX5V_GET(nic_vport_context, ctx, promisc_all);
	}
	if (MLX5V_GET(modify_nic_vport_context_in, in, field_select_disable_uc_local_lb))
		p->disable_uc_local_lb = MLX5V_GET(nic_vport_context, ctx, disable_uc_local_lb);
	if (MLX5V_GET(modify_nic_vport_context_in, in, field_select_disable_mc_local_lb))
		p->disable_mc_local_lb = MLX5V_GET(nic_vport_context, ctx, disable_mc_local_lb);
	if (MLX5V_GET(modify_nic_vport_context_in, in, field_select_min_inline))
		p->min_wqe_inline_mode = MLX5V_GET(nic_vport_context, ctx, min_wqe_inline_mode);
	if (MLX5V_GET(modify_nic_vport_context_in, in, field_select_addresses_list)) {
		n = MLX5V_GET(nic_vport_context, ctx, allowed_list_size);
		if (MLX5V_GET(nic_vport_context, ctx, allowed_list_type) == MLX5V_VPORT_LIST_UC) {
			list = p->uc;
			p->nuc = n;
		} else {
			list = p->mc;
			p->nmc = n;
		}
		for (i = 0; i < n; i++)
			memcpy(list[i], in + off + MLX5V_SIM_ETH_MAC_ENTRY * i + 2,
			       MLX5V_SIM_ETH_MAC_LEN);
	}
	return MLX5V_CMD_STAT_OK;
}

/* ---- Port registers (prm/mlx5_eth §4.12, §11) ---- */

/*
 * A PORT_CHANGE event when the operational state changed (prm/mlx5_eth §11.2): the vport state,
 * PAOS oper_status and the events stay consistent. Lock held.
 */
static void
mlx5v_sim_eth_link_event(struct mlx5v_sim *sim, int was_up)
{
	uint8_t data[RTE_PMD_MLX5V_EQE_OWNER_OFF - RTE_PMD_MLX5V_EQE_DATA_OFF];
	int up = mlx5v_sim_eth_link_up(sim);

	if (up == was_up)
		return;
	memset(data, 0, sizeof(data));
	data[RTE_PMD_MLX5V_EQE_PORT_OFF - RTE_PMD_MLX5V_EQE_DATA_OFF] =
		MLX5V_SIM_ETH_LOCAL_PORT << 4;
	mlx5v_sim_event_post(sim, RTE_PMD_MLX5V_EVENT_PORT_CHANGE,
			     up ? RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE : RTE_PMD_MLX5V_PORT_CHANGE_DOWN,
			     data, 0);
}

static uint8_t
mlx5v_sim_eth_paos(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, const uint8_t *reg,
		   uint8_t *out)
{
	struct mlx5v_sim_eth_port *p = &sim->eth->port;
	uint32_t admin = MLX5V_GET(paos_reg, reg, admin_status);
	int was_up;

	if (c->op_mod == MLX5V_ACCESS_REG_WRITE && MLX5V_GET(paos_reg, reg, ase)) {
		/* prm/mlx5_eth §11.1: 1 up, 2 down; ase = 1 makes the write take effect. */
		if (admin != MLX5V_PAOS_UP && admin != MLX5V_PAOS_DOWN)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_PAOS_ADMIN);
		was_up = mlx5v_sim_eth_link_up(sim);
		p->admin_status = admin;
		mlx5v_sim_eth_link_event(sim, was_up);
	}
	MLX5V_SET(paos_reg, out, local_port, MLX5V_SIM_ETH_LOCAL_PORT);
	MLX5V_SET(paos_reg, out, admin_status, p->admin_status);
	MLX5V_SET(paos_reg, out, oper_status, mlx5v_sim_eth_link_up(sim) ? MLX5V_PAOS_UP :
	    MLX5V_PAOS_DOWN);
	return MLX5V_CMD_STAT_OK;
}

/*
 * PTYS (prm/mlx5_eth §11.3). The port speaks in one kind of fields: the legacy ones, or with
 * ptys_ext only the extended ones (the others read 0), so that a driver reading the wrong kind sees
 * no speed. With link_mode the module takes that one mode (optics, backplane, extended
 * speeds); without it, the copper modes of mlx5v_sim_eth_modes[], the fastest admin mode
 * the wire's speed allows being the operational one while the link is up. Lock held.
 */
static uint8_t
mlx5v_sim_eth_ptys(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, const uint8_t *reg,
		   uint8_t *out)
{
	struct mlx5v_sim_eth_port *p = &sim->eth->port;
	int ext_only = mlx5v_sim_knob(sim, MLX5V_SIM_K_PTYS_EXT) != 0;
	int64_t mode = mlx5v_sim_knob(sim, MLX5V_SIM_K_LINK_MODE);
	uint32_t ext = MLX5V_GET(ptys_reg, reg, ext_eth_proto_admin);
	uint32_t leg = MLX5V_GET(ptys_reg, reg, eth_proto_admin);
	uint32_t cap, admin, oper = 0;
	int64_t set;
	unsigned int i;

	if (MLX5V_GET(ptys_reg, reg, proto_mask) != MLX5V_PTYS_PROTO_ETH)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_PTYS_PROTO);
	if (mode >= 0) {
		/* The module's one mode: an admin write must allow it. */
		if (c->op_mod == MLX5V_ACCESS_REG_WRITE &&
		    ((ext_only ? ext : leg) & (UINT32_C(1) << mode)) == 0)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_PTYS_ADMIN);
		cap = UINT32_C(1) << mode;
		admin = cap;
		oper = mlx5v_sim_eth_link_up(sim) ? cap : 0;
	} else {
		if (c->op_mod == MLX5V_ACCESS_REG_WRITE) {
			set = ext_only ? mlx5v_sim_eth_ptys_to_modes(ext, 1) :
			      mlx5v_sim_eth_ptys_to_modes(leg, 0);
			if (set <= 0)
				return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
							 MLX5V_SIM_SYND_PTYS_ADMIN);
			p->eth_proto_admin = (uint32_t)set;
			p->ext_eth_proto_admin = (uint32_t)set;
			p->an_disable_admin = MLX5V_GET(ptys_reg, reg, an_disable_admin);
		}
		/* The fastest admin mode the wire's speed (the slower end of a pair) allows. */
		for (i = 0; i < RTE_DIM(mlx5v_sim_eth_modes) && mlx5v_sim_eth_link_up(sim); i++)
			if ((p->eth_proto_admin & (1u << i)) &&
			    (mlx5v_sim_eth_modes[i].mbps <= mlx5v_sim_eth_dp_speed(sim) ||
			     i == RTE_DIM(mlx5v_sim_eth_modes) - 1)) {
				oper = 1u << i;
				break;
			}
		cap = mlx5v_sim_eth_modes_to_ptys(mlx5v_sim_eth_all_modes(), ext_only);
		admin = mlx5v_sim_eth_modes_to_ptys(p->eth_proto_admin, ext_only);
		oper = mlx5v_sim_eth_modes_to_ptys(oper, ext_only);
	}
	MLX5V_SET(ptys_reg, out, an_disable_admin, p->an_disable_admin);
	MLX5V_SET(ptys_reg, out, an_disable_cap, 1);
	MLX5V_SET(ptys_reg, out, local_port, MLX5V_SIM_ETH_LOCAL_PORT);
	MLX5V_SET(ptys_reg, out, proto_mask, MLX5V_PTYS_PROTO_ETH);
	if (ext_only) {
		MLX5V_SET(ptys_reg, out, ext_eth_proto_capability, cap);
		MLX5V_SET(ptys_reg, out, ext_eth_proto_admin, admin);
		MLX5V_SET(ptys_reg, out, ext_eth_proto_oper, oper);
	} else {
		MLX5V_SET(ptys_reg, out, eth_proto_capability, cap);
		MLX5V_SET(ptys_reg, out, eth_proto_admin, admin);
		MLX5V_SET(ptys_reg, out, eth_proto_oper, oper);
	}
	return MLX5V_CMD_STAT_OK;
}

/*
 * PCAM (prm/mlx5_eth §11.3), read only, feature and access register groups 0:
 * ptys_extended_ethernet as the ptys_ext knob says. Without the knob the cap pcam_reg is 0 and the
 * register unknown.
 */
static uint8_t
mlx5v_sim_eth_pcam(struct mlx5v_sim_cmd *c, const uint8_t *reg, uint8_t *out)
{
	if (c->op_mod != MLX5V_ACCESS_REG_READ || MLX5V_GET(pcam_reg, reg, feature_group) != 0 ||
	    MLX5V_GET(pcam_reg, reg, access_reg_group) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_REG_DATA);
	memset(out, 0, MLX5V_IFC_BYTES(pcam_reg));
	MLX5V_SET(pcam_reg, out, ptys_extended_ethernet, 1);
	return MLX5V_CMD_STAT_OK;
}

static uint8_t
mlx5v_sim_eth_pmtu(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c, const uint8_t *reg,
		   uint8_t *out)
{
	struct mlx5v_sim_eth_port *p = &sim->eth->port;
	uint32_t mtu = MLX5V_GET(pmtu_reg, reg, admin_mtu);

	if (c->op_mod == MLX5V_ACCESS_REG_WRITE) {
		/* max_mtu and oper_mtu are read-only; admin_mtu within [min, max_mtu]. */
		if (mtu < MLX5V_SIM_ETH_MIN_MTU || mtu > MLX5V_SIM_ETH_MAX_MTU)
			return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
						 MLX5V_SIM_SYND_PMTU_MTU);
		p->admin_mtu = mtu;
	}
	MLX5V_SET(pmtu_reg, out, local_port, MLX5V_SIM_ETH_LOCAL_PORT);
	MLX5V_SET(pmtu_reg, out, max_mtu, MLX5V_SIM_ETH_MAX_MTU);
	MLX5V_SET(pmtu_reg, out, admin_mtu, p->admin_mtu);
	MLX5V_SET(pmtu_reg, out, oper_mtu, p->admin_mtu);
	return MLX5V_CMD_STAT_OK;
}

/*
 * PAOS, PTYS and PMTU: the whole register travels both ways, as [K] sends it (prm/mlx5_eth §4.12),
 * and local_port must be the function's port 1. Other registers go to the HCA handler.
 */
uint8_t
mlx5v_sim_cmd_eth_access_reg(struct mlx5v_sim *sim, struct mlx5v_sim_cmd *c)
{
	uint32_t id = MLX5V_GET(access_reg_in, c->in, register_id);
	uint32_t off = MLX5V_IFC_BYTES(access_reg_in);
	const uint8_t *reg = c->in + off;
	uint32_t size;

	switch (id) {
	case MLX5V_REG_PAOS:
		size = MLX5V_IFC_BYTES(paos_reg);
		break;
	case MLX5V_REG_PTYS:
		size = MLX5V_IFC_BYTES(ptys_reg);
		break;
	case MLX5V_REG_PMTU:
		size = MLX5V_IFC_BYTES(pmtu_reg);
		break;
	case MLX5V_REG_PCAM:
		if (mlx5v_sim_knob(sim, MLX5V_SIM_K_PTYS_EXT) == 0)
			return mlx5v_sim_cmd_access_reg(sim, c);
		size = MLX5V_IFC_BYTES(pcam_reg);
		break;
	default:
		return mlx5v_sim_cmd_access_reg(sim, c);
	}
	if (MLX5V_GET(access_reg_in, c->in, argument) != 0)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_REG_DATA);
	if (c->inlen < off + size)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_INP_LEN_ERR,
					 MLX5V_SIM_SYND_REG_INLEN);
	if (c->outlen < off + size)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_OUTP_LEN_ERR,
					 MLX5V_SIM_SYND_REG_OUTLEN);
	/* PCAM describes every port: no local_port. */
	if (id == MLX5V_REG_PCAM)
		return mlx5v_sim_eth_pcam(c, reg, c->out + off);
	/* local_port is DW0[23:16] in the other three registers. */
	if (MLX5V_GET(paos_reg, reg, local_port) != MLX5V_SIM_ETH_LOCAL_PORT)
		return mlx5v_sim_cmd_err(c, MLX5V_CMD_STAT_BAD_PARAM_ERR,
					 MLX5V_SIM_SYND_REG_PORT);
	if (id == MLX5V_REG_PAOS)
		return mlx5v_sim_eth_paos(sim, c, reg, c->out + off);
	if (id == MLX5V_REG_PTYS)
		return mlx5v_sim_eth_ptys(sim, c, reg, c->out + off);
	return mlx5v_sim_eth_pmtu(sim, c, reg, c->out + off);
}
