/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file Control commands of the Ethernet PMD: the only file of the PMD that builds command
 * mailboxes, always through the compiler-checked layouts of mlx5v_prm_eth.h
 * (doc/guides/platform/layers.rst).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5v_cmd.h"
#include "mlx5v_ethdev.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "rte_pmd_mlx5v_prm.h"


/* The function's one physical port (prm/mlx5_eth §4.12). */
#define LOCAL_PORT 1
/*
 * Bytes of one address-list entry after the vport context: 2 reserved + 6 MAC (prm/mlx5_eth §4.3).
 */
#define MAC_ENTRY MLX5V_IFC_BYTES(mac_address_layout)
/* Register payloads. */
#define PAOS_LEN MLX5V_IFC_BYTES(paos_reg)
#define PTYS_LEN MLX5V_IFC_BYTES(ptys_reg)
#define PMTU_LEN MLX5V_IFC_BYTES(pmtu_reg)
#define PCAM_LEN MLX5V_IFC_BYTES(pcam_reg)
/* The largest register payload: PCAM. */
#define REG_MAX_LEN PCAM_LEN

static void
mlx5v_ethdev_mac_to_layout(uint8_t *l, const struct rte_ether_addr *mac)
{
	memset(l, 0, MAC_ENTRY);
	memcpy(l + 2, mac->addr_bytes, RTE_ETHER_ADDR_LEN);
}

static void
mlx5v_ethdev_mac_from_layout(struct rte_ether_addr *mac, const uint8_t *l)
{
	memcpy(mac->addr_bytes, l + 2, RTE_ETHER_ADDR_LEN);
}

/*
 * Bytes inlined per sqc/vport min_wqe_inline_mode (prm/mlx5_eth §6.4): none, L2, IP, TCP/UDP,
 * reserved (as TCP/UDP), then the inner L2, IP and TCP/UDP headers of a tunnel after 74 outer
 * bytes (tagged L2, IPv6, UDP, VXLAN).
 */
static const uint16_t inline_mode_bytes[8] = { 0, 18, 58, 78, 78, 92, 132, MLX5V_ETH_INLINE_MAX };

/* The Ethernet offload capability (type 1, current) and the reserved lkey. */
static int
mlx5v_ethdev_caps_eth(struct mlx5v_dev *dev, struct mlx5v_ethdev_caps *caps)
{
	uint8_t in[MLX5V_IFC_BYTES(query_hca_cap_in)];
	uint8_t *out = calloc(1, MLX5V_IFC_BYTES(query_hca_cap_out));
	uint8_t sc_out[MLX5V_IFC_BYTES(query_special_contexts_out)];
	uint8_t *cap;
	int ret;

	if (out == NULL)
		return -ENOMEM;
	cap = MLX5V_IFC_ADDR_OF(query_hca_cap_out, out, capability);
	memset(in, 0, sizeof(in));
	MLX5V_SET(query_hca_cap_in, in, opcode, MLX5V_CMD_OP_QUERY_HCA_CAP);
	MLX5V_SET(query_hca_cap_in, in, op_mod,
	    (MLX5V_CAP_TYPE_ETH_OFFLOADS << 1) | MLX5V_CAP_MODE_CUR);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, MLX5V_IFC_BYTES(query_hca_cap_out));
	if (ret == 0) {
		caps->csum_cap = MLX5V_GET(eth_offload_cap, cap, csum_cap);
		caps->vlan_cap = MLX5V_GET(eth_offload_cap, cap, vlan_cap);
		caps->wqe_vlan_insert = MLX5V_GET(eth_offload_cap, cap, wqe_vlan_insert);
		caps->wqe_inline_mode = MLX5V_GET(eth_offload_cap, cap, wqe_inline_mode);
		caps->max_lso_cap = MLX5V_GET(eth_offload_cap, cap, max_lso_cap);
		/* prm/mlx5_empw §1.1: the enhanced form of the multi-packet send WQE. */
		caps->empw = MLX5V_GET(eth_offload_cap, cap, multi_pkt_send_wqe) != 0 &&
			     MLX5V_GET(eth_offload_cap, cap, enhanced_multi_pkt_send_wqe);
	}
	free(out);
	if (ret != 0)
		return ret;
	/* Data segments carry IOVAs under the reserved lkey (prm/mlx5_eth §4.2): no MKEY. */
	memset(in, 0, sizeof(in));
	MLX5V_SET(eth_cmd_in, in, opcode, MLX5V_CMD_OP_QUERY_SPECIAL_CONTEXTS);
	ret = mlx5v_cmd_exec(dev, in, MLX5V_IFC_BYTES(eth_cmd_in), sc_out, sizeof(sc_out));
	if (ret == 0)
		caps->resd_lkey = MLX5V_GET(query_special_contexts_out, sc_out, resd_lkey);
	return ret;
}

static int mlx5v_ethdev_access_reg(struct mlx5v_dev *dev, uint16_t id, int write, uint8_t *reg,
				   size_t size);

/*
 * The match fields rte_flow needs beyond the outer headers (prm/mlx5_eth §3.4): the ICMP
 * flex parsers of the general caps, and the NIC RX tables' ft_field_support bits of the
 * flow table caps (type 7, current) for the VXLAN VNI and the inner headers.
 */
static int
mlx5v_ethdev_caps_ft(struct mlx5v_dev *dev, const uint8_t *gen, struct mlx5v_ethdev_caps *caps)
{
	uint8_t in[MLX5V_IFC_BYTES(query_hca_cap_in)];
	uint8_t *out = calloc(1, MLX5V_IFC_BYTES(query_hca_cap_out));
	const uint8_t *f;
	int ret;

	if (out == NULL)
		return -ENOMEM;
	caps->flex_icmp4 = (MLX5V_GET(cmd_hca_cap_eth, gen, flex_parser_protocols) &
			    MLX5V_FLEX_PARSER_ICMP_V4) != 0;
	caps->flex_icmp6 = (MLX5V_GET(cmd_hca_cap_eth, gen, flex_parser_protocols) &
			    MLX5V_FLEX_PARSER_ICMP_V6) != 0;
	memset(in, 0, sizeof(in));
	MLX5V_SET(query_hca_cap_in, in, opcode, MLX5V_CMD_OP_QUERY_HCA_CAP);
	MLX5V_SET(query_hca_cap_in, in,
		  op_mod, (MLX5V_CAP_TYPE_FLOW_TABLE << 1) | MLX5V_CAP_MODE_CUR);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, MLX5V_IFC_BYTES(query_hca_cap_out));
	if (ret == 0) {
		f = MLX5V_IFC_ADDR_OF(flow_table_nic_cap,
				      MLX5V_IFC_ADDR_OF(query_hca_cap_out, out, capability),
				      flow_table_properties_nic_receive.ft_field_support);
		caps->ft_vxlan_vni = MLX5V_GET(ft_fields_supported, f, outer_vxlan_vni);
		caps->ft_inner = MLX5V_GET(ft_fields_supported, f, inner_dmac) &&
				 MLX5V_GET(ft_fields_supported, f, inner_smac) &&
				 MLX5V_GET(ft_fields_supported, f, inner_ether_type) &&
				 MLX5V_GET(ft_fields_supported, f, inner_ip_version) &&
				 MLX5V_GET(ft_fields_supported, f, inner_first_vid) &&
				 MLX5V_GET(ft_fields_supported, f, inner_sip) &&
				 MLX5V_GET(ft_fields_supported, f, inner_dip) &&
				 MLX5V_GET(ft_fields_supported, f, inner_ip_protocol) &&
				 MLX5V_GET(ft_fields_supported, f, inner_udp_dport) &&
				 MLX5V_GET(ft_fields_supported, f, inner_tcp_dport);
	}
	free(out);
	return ret;
}

/*
 * prm/mlx5_eth §11.3: whether PTYS reports the speed in its extended fields (PCAM
 * ptys_extended_ethernet, readable when the general cap pcam_reg is set).
 */
static int
mlx5v_ethdev_pcam_query(struct mlx5v_dev *dev, const uint8_t *cap, struct mlx5v_ethdev_caps *caps)
{
	uint8_t reg[PCAM_LEN];
	int ret;

	caps->ptys_ext = 0;
	if (!MLX5V_GET(cmd_hca_cap_eth, cap, pcam_reg))
		return 0;
	/* feature_group 0 and access_reg_group 0: the enhanced features of the port. */
	memset(reg, 0, sizeof(reg));
	ret = mlx5v_ethdev_access_reg(dev, MLX5V_REG_PCAM, 0, reg, sizeof(reg));
	if (ret != 0)
		return ret;
	caps->ptys_ext = MLX5V_GET(pcam_reg, reg, ptys_extended_ethernet);
	return 0;
}

int
mlx5v_ethdev_cmd_caps(struct mlx5v_dev *dev, struct mlx5v_ethdev_caps *caps)
{
	const uint8_t *cap = mlx5v_dev_hca_cap(dev);
	struct mlx5v_ethdev_vport v;
	uint16_t oper;
	int ret;

	if (cap == NULL)
		return -ENODEV;
	caps->log_max_wq_sz = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_wq_sz);
	caps->log_max_uc_list = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_current_uc_list);
	caps->log_max_mc_list = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_current_mc_list);
	caps->log_max_rqt_size = MLX5V_GET(cmd_hca_cap_eth, cap, log_max_rqt_size);
	caps->cqe_comp = MLX5V_GET(cmd_hca_cap_eth, cap, cqe_compression);
	caps->mini_cqe_ftag = MLX5V_GET(cmd_hca_cap_eth, cap, mini_cqe_resp_flow_tag);
	caps->mini_cqe_l34h = MLX5V_GET(cmd_hca_cap_eth, cap, mini_cqe_resp_l3_l4_tag);
	/*
	 * Receive WQEs of 16-byte data segments up to max_wqe_sz_rq bytes (prm/mlx5_eth §7.1; 0:
	 * unsaid).
	 */
	caps->rx_max_sges_log = MLX5V_ETH_RX_MAX_SGES_LOG;
	while (caps->rx_max_sges_log > 0 && MLX5V_GET(cmd_hca_cap_eth, cap, max_wqe_sz_rq) != 0 &&
	       (MLX5V_WQE_DS << caps->rx_max_sges_log) >
			       MLX5V_GET(cmd_hca_cap_eth, cap, max_wqe_sz_rq))
		caps->rx_max_sges_log--;
	caps->fw_rev = dev->fw_rev;
	/*
	 * prm/mlx5_eth §6.1: the largest send WQE in bytes, at most the 63 DS a control segment
	 * counts.
	 */
	caps->max_wqe_ds = RTE_MIN(MLX5V_GET(cmd_hca_cap_eth, cap, max_wqe_sz_sq) / MLX5V_WQE_DS,
				   (uint32_t)MLX5V_WQE_MAX_DS);
	caps->log_bf_reg_size = MLX5V_GET(cmd_hca_cap_eth, cap, log_bf_reg_size);
	/* A half must hold the 8-byte doorbell and the registers fit the UAR's second half. */
	if (caps->log_bf_reg_size < 4 || caps->log_bf_reg_size > 11) {
		MLX5V_ETH_LOG(WARNING, "log_bf_reg_size %u: taken as 9 (512-byte registers)",
			      caps->log_bf_reg_size);
		caps->log_bf_reg_size = 9;
	}
	ret = mlx5v_ethdev_cmd_pmtu_get(dev, &caps->max_hw_mtu, &oper);
	if (ret == 0 && MLX5V_GET(cmd_hca_cap_eth, cap, eth_net_offloads))
		ret = mlx5v_ethdev_caps_eth(dev, caps);
	if (ret == 0 && MLX5V_GET(cmd_hca_cap_eth, cap, nic_flow_table))
		ret = mlx5v_ethdev_caps_ft(dev, cap, caps);
	if (ret != 0)
		return ret;
	/*
	 * prm/mlx5_eth §6.4: the least each send WQE inlines. Mode 0 is the L2 header; mode 1 takes
	 * the vport's mode, which SQs must be created with; mode 2 needs nothing.
	 */
	caps->min_inline_mode = 0;
	switch (caps->wqe_inline_mode) {
	case 0:
		caps->min_inline = MLX5V_WQE_L2_INLINE;
		break;
	case 1:
		ret = mlx5v_ethdev_cmd_vport_query(dev, &v);
		if (ret != 0)
			return ret;
		caps->min_inline_mode = v.min_inline_mode;
		caps->min_inline = inline_mode_bytes[v.min_inline_mode & 7];
		break;
	default:
		caps->min_inline = 0;
		break;
	}
	/*
	 * prm/mlx5_eth §6.3: the tag request and the inline header share bytes 12-15 of the
	 * Ethernet segment, so the device inserts a tag only where no inline header is ever
	 * required (wqe_inline_mode 2, not a vport mode that happens to be none, as DPDK decides);
	 * elsewhere software puts the tag into the inlined header.
	 */
	caps->hw_vlan_insert = caps->wqe_vlan_insert && caps->wqe_inline_mode == 2;
	return mlx5v_ethdev_pcam_query(dev, cap, caps);
}

static int
mlx5v_ethdev_vport_query(struct mlx5v_dev *dev, uint8_t *out, size_t outlen)
{
	uint8_t in[MLX5V_IFC_BYTES(query_nic_vport_context_in)];

	memset(in, 0, sizeof(in));
	MLX5V_SET(query_nic_vport_context_in, in, opcode, MLX5V_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	MLX5V_SET(query_nic_vport_context_in, in, allowed_list_type, MLX5V_VPORT_LIST_UC);
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, outlen);
}

#define VPORT_OUT_LEN (MLX5V_IFC_BYTES(query_nic_vport_context_out) + \
		       MLX5V_ETH_MAX_MAC * MAC_ENTRY)

int
mlx5v_ethdev_cmd_vport_query(struct mlx5v_dev *dev, struct mlx5v_ethdev_vport *v)
{
	uint8_t out[VPORT_OUT_LEN];
	uint8_t *ctx = MLX5V_IFC_ADDR_OF(query_nic_vport_context_out, out, ctx);
	int ret;

	ret = mlx5v_ethdev_vport_query(dev, out, MLX5V_IFC_BYTES(query_nic_vport_context_out));
	if (ret != 0)
		return ret;
	mlx5v_ethdev_mac_from_layout(&v->perm_mac,
				     MLX5V_IFC_ADDR_OF(nic_vport_context, ctx, permanent_address));
	v->hw_mtu = MLX5V_GET(nic_vport_context, ctx, mtu);
	v->promisc_all = MLX5V_GET(nic_vport_context, ctx, promisc_all);
	v->promisc_mc = MLX5V_GET(nic_vport_context, ctx, promisc_mc);
	v->uc_n = MLX5V_GET(nic_vport_context, ctx, allowed_list_size);
	v->min_inline_mode = MLX5V_GET(nic_vport_context, ctx, min_wqe_inline_mode);
	return 0;
}

/* Start a MODIFY_NIC_VPORT_CONTEXT input in `in`; @return the context. */
static uint8_t *
mlx5v_ethdev_vport_modify_init(uint8_t *in, size_t inlen)
{
	memset(in, 0, inlen);
	MLX5V_SET(modify_nic_vport_context_in, in, opcode, MLX5V_CMD_OP_MODIFY_NIC_VPORT_CONTEXT);
	return MLX5V_IFC_ADDR_OF(modify_nic_vport_context_in, in, ctx);
}

static int
mlx5v_ethdev_vport_modify(struct mlx5v_dev *dev, const uint8_t *in, size_t inlen)
{
	uint8_t out[MLX5V_IFC_BYTES(eth_cmd_out)];

	return mlx5v_cmd_exec(dev, in, inlen, out, sizeof(out));
}

int
mlx5v_ethdev_cmd_vport_promisc(struct mlx5v_dev *dev, int all, int mc)
{
	uint8_t in[MLX5V_IFC_BYTES(modify_nic_vport_context_in)];
	uint8_t *ctx = mlx5v_ethdev_vport_modify_init(in, sizeof(in));

	MLX5V_SET(modify_nic_vport_context_in, in, field_select_promisc, 1);
	MLX5V_SET(nic_vport_context, ctx, promisc_all, !!all);
	MLX5V_SET(nic_vport_context, ctx, promisc_mc, !!mc);
	return mlx5v_ethdev_vport_modify(dev, in, sizeof(in));
}

int
mlx5v_ethdev_cmd_vport_mtu(struct mlx5v_dev *dev, uint16_t hw_mtu)
{
	uint8_t in[MLX5V_IFC_BYTES(modify_nic_vport_context_in)];
	uint8_t *ctx = mlx5v_ethdev_vport_modify_init(in, sizeof(in));

	MLX5V_SET(modify_nic_vport_context_in, in, field_select_mtu, 1);
	MLX5V_SET(nic_vport_context, ctx, mtu, hw_mtu);
	return mlx5v_ethdev_vport_modify(dev, in, sizeof(in));
}

int
mlx5v_ethdev_cmd_vport_list(struct mlx5v_dev *dev, int mc, const struct rte_ether_addr *mac,
			    unsigned int n)
{
	uint8_t in[MLX5V_IFC_BYTES(modify_nic_vport_context_in) + MLX5V_ETH_MAX_MAC * MAC_ENTRY];
	size_t inlen = MLX5V_IFC_BYTES(modify_nic_vport_context_in) + n * MAC_ENTRY;
	uint8_t *ctx;
	unsigned int i;

	if (n > MLX5V_ETH_MAX_MAC)
		return -EINVAL;
	ctx = mlx5v_ethdev_vport_modify_init(in, inlen);
	MLX5V_SET(modify_nic_vport_context_in, in, field_select_addresses_list, 1);
	MLX5V_SET(nic_vport_context, ctx, allowed_list_type,
	    mc ? MLX5V_VPORT_LIST_MC : MLX5V_VPORT_LIST_UC);
	MLX5V_SET(nic_vport_context, ctx, allowed_list_size, n);
	for (i = 0; i < n; i++)
		mlx5v_ethdev_mac_to_layout(in + MLX5V_IFC_BYTES(modify_nic_vport_context_in) +
					   i * MAC_ENTRY, &mac[i]);
	return mlx5v_ethdev_vport_modify(dev, in, inlen);
}

/* ACCESS_REG of one port register; the answer replaces reg. @return 0 or -errno. */
static int
mlx5v_ethdev_access_reg(struct mlx5v_dev *dev, uint16_t id, int write, uint8_t *reg, size_t size)
{
	uint8_t in[MLX5V_IFC_BYTES(access_reg_in) + REG_MAX_LEN];
	uint8_t out[MLX5V_IFC_BYTES(access_reg_in) + REG_MAX_LEN];
	size_t len = MLX5V_IFC_BYTES(access_reg_in) + size;
	int ret;

	RTE_BUILD_BUG_ON(PAOS_LEN > REG_MAX_LEN || PMTU_LEN > REG_MAX_LEN ||
			 PTYS_LEN > REG_MAX_LEN);
	memset(in, 0, len);
	MLX5V_SET(access_reg_in, in, opcode, MLX5V_CMD_OP_ACCESS_REG);
	MLX5V_SET(access_reg_in, in, op_mod,
		  write ? MLX5V_ACCESS_REG_WRITE : MLX5V_ACCESS_REG_READ);
	MLX5V_SET(access_reg_in, in, register_id, id);
	memcpy(in + MLX5V_IFC_BYTES(access_reg_in), reg, size);
	ret = mlx5v_cmd_exec(dev, in, len, out, len);
	if (ret == 0)
		memcpy(reg, out + MLX5V_IFC_BYTES(access_reg_in), size);
	return ret;
}

int
mlx5v_ethdev_cmd_paos_get(struct mlx5v_dev *dev, int *admin_up, int *oper_up)
{
	uint8_t reg[PAOS_LEN];
	int ret;

	memset(reg, 0, sizeof(reg));
	MLX5V_SET(paos_reg, reg, local_port, LOCAL_PORT);
	ret = mlx5v_ethdev_access_reg(dev, MLX5V_REG_PAOS, 0, reg, sizeof(reg));
	if (ret != 0)
		return ret;
	*admin_up = MLX5V_GET(paos_reg, reg, admin_status) == MLX5V_PAOS_UP;
	*oper_up = MLX5V_GET(paos_reg, reg, oper_status) == MLX5V_PAOS_UP;
	return 0;
}

int
mlx5v_ethdev_cmd_paos_set(struct mlx5v_dev *dev, int up)
{
	uint8_t reg[PAOS_LEN];

	memset(reg, 0, sizeof(reg));
	MLX5V_SET(paos_reg, reg, local_port, LOCAL_PORT);
	MLX5V_SET(paos_reg, reg, admin_status, up ? MLX5V_PAOS_UP : MLX5V_PAOS_DOWN);
	/* ase: the admin status field is written only with this bit set (prm/mlx5_eth §11.1). */
	MLX5V_SET(paos_reg, reg, ase, 1);
	return mlx5v_ethdev_access_reg(dev, MLX5V_REG_PAOS, 1, reg, sizeof(reg));
}

/*
 * Speed in Mb/s of each PTYS eth_proto bit (prm/mlx5_eth §11.3), legacy and extended; 0 for
 * a bit no mode uses.
 */
static const uint32_t ptys_legacy_mbps[32] = {
	[0] = RTE_ETH_SPEED_NUM_1G,     /* 1000BASE-CX-SGMII */
	[1] = RTE_ETH_SPEED_NUM_1G,     /* 1000BASE-KX */
	[2] = RTE_ETH_SPEED_NUM_10G,    /* 10GBASE-CX4 */
	[3] = RTE_ETH_SPEED_NUM_10G,    /* 10GBASE-KX4 */
	[4] = RTE_ETH_SPEED_NUM_10G,    /* 10GBASE-KR */
	[5] = RTE_ETH_SPEED_NUM_20G,    /* 20GBASE-KR2 */
	[6] = RTE_ETH_SPEED_NUM_40G,    /* 40GBASE-CR4 */
	[7] = RTE_ETH_SPEED_NUM_40G,    /* 40GBASE-KR4 */
	[8] = RTE_ETH_SPEED_NUM_56G,    /* 56GBASE-R4 */
	[12] = RTE_ETH_SPEED_NUM_10G,   /* 10GBASE-CR */
	[13] = RTE_ETH_SPEED_NUM_10G,   /* 10GBASE-SR */
	[14] = RTE_ETH_SPEED_NUM_10G,   /* 10GBASE-ER/LR */
	[15] = RTE_ETH_SPEED_NUM_40G,   /* 40GBASE-SR4 */
	[16] = RTE_ETH_SPEED_NUM_40G,   /* 40GBASE-LR4/ER4 */
	[18] = RTE_ETH_SPEED_NUM_50G,   /* 50GBASE-SR2 */
	[20] = RTE_ETH_SPEED_NUM_100G,  /* 100GBASE-CR4 */
	[21] = RTE_ETH_SPEED_NUM_100G,  /* 100GBASE-SR4 */
	[22] = RTE_ETH_SPEED_NUM_100G,  /* 100GBASE-KR4 */
	[23] = RTE_ETH_SPEED_NUM_100G,  /* 100GBASE-LR4/ER4 */
	[24] = RTE_ETH_SPEED_NUM_100M,  /* 100BASE-TX */
	[25] = RTE_ETH_SPEED_NUM_1G,    /* 1000BASE-T */
	[26] = RTE_ETH_SPEED_NUM_10G,   /* 10GBASE-T */
	[27] = RTE_ETH_SPEED_NUM_25G,   /* 25GBASE-CR */
	[28] = RTE_ETH_SPEED_NUM_25G,   /* 25GBASE-KR */
	[29] = RTE_ETH_SPEED_NUM_25G,   /* 25GBASE-SR */
	[30] = RTE_ETH_SPEED_NUM_50G,   /* 50GBASE-CR2 */
	[31] = RTE_ETH_SPEED_NUM_50G,   /* 50GBASE-KR2 */
};

/* 400G and 800G have no RTE_ETH_SPEED_NUM_ in DPDK 22.11: link_speed is Mb/s all the same. */
#define PTYS_400G 400000u
#define PTYS_800G 800000u

static const uint32_t ptys_ext_mbps[32] = {
	[0] = RTE_ETH_SPEED_NUM_100M,   /* SGMII 100M */
	[1] = RTE_ETH_SPEED_NUM_1G,     /* 1000BASE-X, SGMII */
	[3] = RTE_ETH_SPEED_NUM_5G,     /* 5GBASE-R */
	[4] = RTE_ETH_SPEED_NUM_10G,    /* 10GBASE-XFI, XAUI-1 */
	[5] = RTE_ETH_SPEED_NUM_40G,    /* 40GBASE-XLAUI-4, XLPPI-4 */
	[6] = RTE_ETH_SPEED_NUM_25G,    /* 25GAUI-1, 25GBASE-CR/KR */
	[7] = RTE_ETH_SPEED_NUM_50G,    /* 50GAUI-2, LAUI-2, 50GBASE-CR2/KR2 */
	[8] = RTE_ETH_SPEED_NUM_50G,    /* 50GAUI-1, LAUI-1, 50GBASE-CR/KR */
	[9] = RTE_ETH_SPEED_NUM_100G,   /* CAUI-4, 100GBASE-CR4/KR4 */
	[10] = RTE_ETH_SPEED_NUM_100G,  /* 100GAUI-2, 100GBASE-CR2/KR2 */
	[11] = RTE_ETH_SPEED_NUM_100G,  /* 100GAUI-1, 100GBASE-CR/KR */
	[12] = RTE_ETH_SPEED_NUM_200G,  /* 200GAUI-4, 200GBASE-CR4/KR4 */
	[13] = RTE_ETH_SPEED_NUM_200G,  /* 200GAUI-2, 200GBASE-CR2/KR2 */
	[14] = RTE_ETH_SPEED_NUM_200G,  /* 200GAUI-1, 200GBASE-CR1/KR1 */
	[15] = PTYS_400G,               /* 400GAUI-8 */
	[16] = PTYS_400G,               /* 400GAUI-4, 400GBASE-CR4/KR4 */
	[17] = PTYS_400G,               /* 400GAUI-2, 400GBASE-CR2/KR2 */
	[19] = PTYS_800G,               /* 800GAUI-8 */
	[20] = PTYS_800G,               /* 800GAUI-4, 800GBASE-CR4/KR4 */
};

int
mlx5v_ethdev_cmd_ptys_speed(struct mlx5v_dev *dev, int ext, uint32_t *mbps)
{
	const uint32_t *tbl = ext ? ptys_ext_mbps : ptys_legacy_mbps;
	uint8_t reg[PTYS_LEN];
	uint32_t oper;
	unsigned int i;
	int ret;

	memset(reg, 0, sizeof(reg));
	MLX5V_SET(ptys_reg, reg, local_port, LOCAL_PORT);
	MLX5V_SET(ptys_reg, reg, proto_mask, MLX5V_PTYS_PROTO_ETH);
	ret = mlx5v_ethdev_access_reg(dev, MLX5V_REG_PTYS, 0, reg, sizeof(reg));
	if (ret != 0)
		return ret;
	/*
	 * prm/mlx5_eth §11.3: the extended fields when PCAM says so; one bit set while the link is
	 * up.
	 */
	oper = ext ? MLX5V_GET(ptys_reg, reg, ext_eth_proto_oper)
		   : MLX5V_GET(ptys_reg, reg, eth_proto_oper);
	*mbps = RTE_ETH_SPEED_NUM_NONE;
	for (i = 0; i < 32; i++)
		if ((oper & (UINT32_C(1) << i)) && tbl[i] > *mbps)
			*mbps = tbl[i];
	return 0;
}

int
mlx5v_ethdev_cmd_pmtu_get(struct mlx5v_dev *dev, uint16_t *max_mtu, uint16_t *oper_mtu)
{
	uint8_t reg[PMTU_LEN];
	int ret;

	memset(reg, 0, sizeof(reg));
	MLX5V_SET(pmtu_reg, reg, local_port, LOCAL_PORT);
	ret = mlx5v_ethdev_access_reg(dev, MLX5V_REG_PMTU, 0, reg, sizeof(reg));
	if (ret != 0)
		return ret;
	*max_mtu = MLX5V_GET(pmtu_reg, reg, max_mtu);
	*oper_mtu = MLX5V_GET(pmtu_reg, reg, oper_mtu);
	return 0;
}

int
mlx5v_ethdev_cmd_pmtu_set(struct mlx5v_dev *dev, uint16_t hw_mtu)
{
	uint8_t reg[PMTU_LEN];

	memset(reg, 0, sizeof(reg));
	MLX5V_SET(pmtu_reg, reg, local_port, LOCAL_PORT);
	MLX5V_SET(pmtu_reg, reg, admin_mtu, hw_mtu);
	return mlx5v_ethdev_access_reg(dev, MLX5V_REG_PMTU, 1, reg, sizeof(reg));
}

/* ---------------------------------------------------------------- objects */

/* Run a create or alloc in `in`; *id gets the object number. @return 0 or -errno. */
static int
mlx5v_ethdev_obj_create(struct mlx5v_dev *dev, const uint8_t *in, size_t inlen, uint32_t *id)
{
	uint8_t out[MLX5V_IFC_BYTES(eth_obj_out)];
	int ret;

	ret = mlx5v_cmd_exec(dev, in, inlen, out, sizeof(out));
	if (ret == 0)
		*id = MLX5V_GET(eth_obj_out, out, obj_id);
	return ret;
}

int
mlx5v_ethdev_cmd_create_obj(struct mlx5v_dev *dev, const uint8_t *in, size_t inlen,
			    uint32_t *id)
{
	return mlx5v_ethdev_obj_create(dev, in, inlen, id);
}

static uint8_t *
mlx5v_ethdev_in_init(uint8_t *in, size_t inlen, uint16_t opcode)
{
	memset(in, 0, inlen);
	MLX5V_SET(eth_cmd_in, in, opcode, opcode);
	return in;
}

int
mlx5v_ethdev_cmd_alloc(struct mlx5v_dev *dev, enum mlx5v_ethdev_obj kind, uint32_t *id)
{
	uint8_t in[MLX5V_IFC_BYTES(eth_cmd_in)];
	uint8_t out[MLX5V_IFC_BYTES(alloc_q_counter_out)];
	int ret;

	switch (kind) {
	case MLX5V_ETHDEV_OBJ_PD:
		mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_ALLOC_PD);
		return mlx5v_ethdev_obj_create(dev, in, sizeof(in), id);
	case MLX5V_ETHDEV_OBJ_TD:
		mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
		return mlx5v_ethdev_obj_create(dev, in, sizeof(in), id);
	case MLX5V_ETHDEV_OBJ_QCNT:
		mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_ALLOC_Q_COUNTER);
		ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
		if (ret == 0)
			*id = MLX5V_GET(alloc_q_counter_out, out, counter_set_id);
		return ret;
	default:
		return -EINVAL;
	}
}

void
mlx5v_ethdev_cmd_destroy(struct mlx5v_dev *dev, enum mlx5v_ethdev_obj kind, uint32_t id)
{
	static const uint16_t opcode[MLX5V_ETHDEV_OBJ_MAX] = {
		[MLX5V_ETHDEV_OBJ_PD] = MLX5V_CMD_OP_DEALLOC_PD,
		[MLX5V_ETHDEV_OBJ_TD] = MLX5V_CMD_OP_DEALLOC_TRANSPORT_DOMAIN,
		[MLX5V_ETHDEV_OBJ_TIS] = MLX5V_CMD_OP_DESTROY_TIS,
		[MLX5V_ETHDEV_OBJ_SQ] = MLX5V_CMD_OP_DESTROY_SQ,
		[MLX5V_ETHDEV_OBJ_RQ] = MLX5V_CMD_OP_DESTROY_RQ,
		[MLX5V_ETHDEV_OBJ_RQT] = MLX5V_CMD_OP_DESTROY_RQT,
		[MLX5V_ETHDEV_OBJ_TIR] = MLX5V_CMD_OP_DESTROY_TIR,
	};
	uint8_t in[MLX5V_IFC_BYTES(dealloc_q_counter_in)];
	uint8_t out[MLX5V_IFC_BYTES(eth_cmd_out)];

	RTE_BUILD_BUG_ON(MLX5V_IFC_BYTES(dealloc_q_counter_in) < MLX5V_IFC_BYTES(eth_obj_in));
	if (kind == MLX5V_ETHDEV_OBJ_QCNT) {
		mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_DEALLOC_Q_COUNTER);
		MLX5V_SET(dealloc_q_counter_in, in, counter_set_id, id);
		mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
		return;
	}
	if ((unsigned int)kind >= MLX5V_ETHDEV_OBJ_MAX || opcode[kind] == 0)
		return;
	mlx5v_ethdev_in_init(in, MLX5V_IFC_BYTES(eth_obj_in), opcode[kind]);
	MLX5V_SET(eth_obj_in, in, obj_id, id);
	/* A failure is logged by the command layer; teardown goes on (contributing/style §4). */
	mlx5v_cmd_exec(dev, in, MLX5V_IFC_BYTES(eth_obj_in), out, sizeof(out));
}

int
mlx5v_ethdev_cmd_qcnt_query(struct mlx5v_dev *dev, uint32_t id, int clear, uint64_t *oob)
{
	uint8_t in[MLX5V_IFC_BYTES(query_q_counter_in)];
	uint8_t out[MLX5V_IFC_BYTES(query_q_counter_out)];
	int ret;

	mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_QUERY_Q_COUNTER);
	MLX5V_SET(query_q_counter_in, in, clear, !!clear);
	MLX5V_SET(query_q_counter_in, in, counter_set_id, id);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret == 0)
		*oob = MLX5V_GET(query_q_counter_out, out, out_of_buffer);
	return ret;
}

int
mlx5v_ethdev_cmd_tis_create(struct mlx5v_dev *dev, uint32_t td, uint32_t *tisn)
{
	uint8_t in[MLX5V_IFC_BYTES(create_tis_in)];

	mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_CREATE_TIS);
	MLX5V_SET(create_tis_in, in, ctx.transport_domain, td);
	return mlx5v_ethdev_obj_create(dev, in, sizeof(in), tisn);
}

/*
 * Fill the wq context and the page list after `base`: each 4 KiB page's own IOVA, so the ring
 * need not be IOVA-contiguous (doc/guides/nics/running_on_hardware.rst, "IOVA modes").
 */
static void
mlx5v_ethdev_wq_fill(uint8_t *wq, uint8_t *pas, const struct mlx5v_ethdev_wq_attr *a)
{
	uint32_t i;

	MLX5V_SET(wq, wq, wq_type, 1);       /* cyclic (prm/mlx5_eth §4.5) */
	MLX5V_SET(wq, wq, pd, a->pd);
	MLX5V_SET(wq, wq, uar_page, a->uar_page);
	MLX5V_IFC_SET64(wq, wq, dbr_addr, a->dbr_iova);
	MLX5V_SET(wq, wq, log_wq_stride, a->log_stride);
	MLX5V_SET(wq, wq, log_wq_pg_sz, 0);  /* 4 KiB pages */
	MLX5V_SET(wq, wq, log_wq_sz, a->log_wq_sz);
	for (i = 0; i < a->npages; i++)
		MLX5V_IFC_SET64(pas_entry, pas + 8 * i, addr,
				mlx5v_dma_buf_iova(a->ring, (size_t)i * MLX5V_ETH_RING_PAGE));
}

/* The sq_ts_format/rq_ts_format cap value of free-running-only firmware (prm/mlx5_eth §5.1). */
#define WQ_TS_CAP_FREE_RUNNING 0
/* sqc/rqc.ts_format: free-running, or the device's default clock (prm/mlx5_eth §5.1). */
#define WQ_TS_FREE_RUNNING 0
#define WQ_TS_DEFAULT 1

/*
 * The ts_format to create an SQ (sq) or RQ with, converted from the device's cap as DPDK
 * does: free-running where the firmware has only that clock, otherwise the default one
 * (real time on firmware that runs the real-time clock alone, which refuses free-running
 * queues).
 */
static uint32_t
mlx5v_ethdev_wq_ts_format(struct mlx5v_dev *dev, int sq)
{
	const uint8_t *cap = mlx5v_dev_hca_cap(dev);
	uint32_t fmt;

	if (cap == NULL)
		return WQ_TS_DEFAULT;
	fmt = sq ? MLX5V_GET(cmd_hca_cap_eth, cap, sq_ts_format) :
		   MLX5V_GET(cmd_hca_cap_eth, cap, rq_ts_format);
	return fmt == WQ_TS_CAP_FREE_RUNNING ? WQ_TS_FREE_RUNNING : WQ_TS_DEFAULT;
}

static int
mlx5v_ethdev_wq_create(struct mlx5v_dev *dev, int sq, const struct mlx5v_ethdev_wq_attr *a,
		       uint32_t *qn)
{
	size_t base = sq ? MLX5V_IFC_BYTES(create_sq_in) : MLX5V_IFC_BYTES(create_rq_in);
	size_t inlen = base + 8 * (size_t)a->npages;
	uint8_t *in = calloc(1, inlen);
	int ret;

	if (in == NULL)
		return -ENOMEM;
	if (sq) {
		mlx5v_ethdev_in_init(in, inlen, MLX5V_CMD_OP_CREATE_SQ);
		/*
		 * Every data segment carries the reserved lkey: the queue must allow it
		 * (rlky, prm/mlx5_eth §4.2; doc/guides/nics/mlx5v.rst "Memory").
		 */
		MLX5V_SET(create_sq_in, in, ctx.rlky, 1);
		MLX5V_SET(create_sq_in, in, ctx.ts_format, mlx5v_ethdev_wq_ts_format(dev, 1));
		/*
		 * Errors flush what follows, so recovery can wait for every WQE
		 * (prm/mlx5_eth §5.2).
		 */
		MLX5V_SET(create_sq_in, in, ctx.flush_in_error_en, 1);
		MLX5V_SET(create_sq_in, in, ctx.min_wqe_inline_mode, a->min_inline_mode);
		MLX5V_SET(create_sq_in, in, ctx.allow_multi_pkt_send_wqe, a->allow_mpw);
		MLX5V_SET(create_sq_in, in, ctx.cqn, a->cqn);
		MLX5V_SET(create_sq_in, in, ctx.tis_lst_sz, 1);
		MLX5V_SET(create_sq_in, in, ctx.tis_num_0, a->tis_or_qcnt);
		mlx5v_ethdev_wq_fill(MLX5V_IFC_ADDR_OF(create_sq_in, in, ctx.wq), in + base, a);
	} else {
		mlx5v_ethdev_in_init(in, inlen, MLX5V_CMD_OP_CREATE_RQ);
		MLX5V_SET(create_rq_in, in, ctx.rlky, 1);   /* the reserved lkey, as the SQ */
		MLX5V_SET(create_rq_in, in, ctx.ts_format, mlx5v_ethdev_wq_ts_format(dev, 0));
		MLX5V_SET(create_rq_in, in, ctx.vsd, !!a->vsd);
		MLX5V_SET(create_rq_in, in, ctx.flush_in_error_en, 1);
		MLX5V_SET(create_rq_in, in, ctx.cqn, a->cqn);
		MLX5V_SET(create_rq_in, in, ctx.counter_set_id, a->tis_or_qcnt);
		mlx5v_ethdev_wq_fill(MLX5V_IFC_ADDR_OF(create_rq_in, in, ctx.wq), in + base, a);
	}
	ret = mlx5v_ethdev_obj_create(dev, in, inlen, qn);
	free(in);
	return ret;
}

int
mlx5v_ethdev_cmd_sq_create(struct mlx5v_dev *dev, const struct mlx5v_ethdev_wq_attr *a,
			   uint32_t *sqn)
{
	return mlx5v_ethdev_wq_create(dev, 1, a, sqn);
}

int
mlx5v_ethdev_cmd_rq_create(struct mlx5v_dev *dev, const struct mlx5v_ethdev_wq_attr *a,
			   uint32_t *rqn)
{
	return mlx5v_ethdev_wq_create(dev, 0, a, rqn);
}

int
mlx5v_ethdev_cmd_q_ready(struct mlx5v_dev *dev, int sq, uint32_t qn, int ready)
{
	return ready ? mlx5v_ethdev_cmd_q_modify(dev, sq, qn, MLX5V_ETHDEV_Q_RST,
						 MLX5V_ETHDEV_Q_RDY) :
		       mlx5v_ethdev_cmd_q_modify(dev, sq, qn, MLX5V_ETHDEV_Q_RDY,
						 MLX5V_ETHDEV_Q_RST);
}

int
mlx5v_ethdev_cmd_q_recover(struct mlx5v_dev *dev, int sq, uint32_t qn)
{
	return mlx5v_ethdev_cmd_q_modify(dev, sq, qn, MLX5V_ETHDEV_Q_ERR, MLX5V_ETHDEV_Q_RST) ?:
	       mlx5v_ethdev_cmd_q_modify(dev, sq, qn, MLX5V_ETHDEV_Q_RST, MLX5V_ETHDEV_Q_RDY);
}

int
mlx5v_ethdev_cmd_rq_reset(struct mlx5v_dev *dev, uint32_t rqn)
{
	uint8_t in[MLX5V_IFC_BYTES(eth_obj_in)];
	uint8_t out[MLX5V_IFC_BYTES(query_rq_out)];
	uint32_t state;
	int ret;

	/*
	 * prm/mlx5_eth §5.2: MODIFY names the current state; an RQ may be RDY or ERR after an error
	 * CQE.
	 */
	mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_QUERY_RQ);
	MLX5V_SET(eth_obj_in, in, obj_id, rqn);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret != 0)
		return ret;
	state = MLX5V_GET(query_rq_out, out, ctx.state);
	if (state == MLX5V_ETHDEV_Q_RST)
		return 0;
	return mlx5v_ethdev_cmd_q_modify(dev, 0, rqn, state, MLX5V_ETHDEV_Q_RST);
}

int
mlx5v_ethdev_cmd_rq_vsd(struct mlx5v_dev *dev, uint32_t rqn, int strip)
{
	/*
	 * prm/mlx5_eth §4.6: RDY->RDY with the vsd bit of modify_bitmask changes only the
	 * stripping.
	 */
	uint8_t in[MLX5V_IFC_BYTES(modify_rq_in)];
	uint8_t out[MLX5V_IFC_BYTES(eth_cmd_out)];

	mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_MODIFY_RQ);
	MLX5V_SET(modify_rq_in, in, rqn, rqn);
	MLX5V_SET(modify_rq_in, in, rq_state, MLX5V_ETHDEV_Q_RDY);
	MLX5V_SET(modify_rq_in, in, ctx.state, MLX5V_ETHDEV_Q_RDY);
	MLX5V_SET(modify_rq_in, in, modify_bitmask, MLX5V_MODIFY_RQ_VSD);
	MLX5V_SET(modify_rq_in, in, ctx.vsd, !strip);
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

int
mlx5v_ethdev_cmd_q_modify(struct mlx5v_dev *dev, int sq, uint32_t qn, uint32_t cur,
			  uint32_t next)
{
	/* prm/mlx5_eth §4.5, §5.2: the current state, then the next one in the context. */
	uint8_t in[RTE_MAX(MLX5V_IFC_BYTES(modify_sq_in), MLX5V_IFC_BYTES(modify_rq_in))];
	uint8_t out[MLX5V_IFC_BYTES(eth_cmd_out)];

	if (sq) {
		mlx5v_ethdev_in_init(in, MLX5V_IFC_BYTES(modify_sq_in), MLX5V_CMD_OP_MODIFY_SQ);
		MLX5V_SET(modify_sq_in, in, sqn, qn);
		MLX5V_SET(modify_sq_in, in, sq_state, cur);
		MLX5V_SET(modify_sq_in, in, ctx.state, next);
		return mlx5v_cmd_exec(dev, in, MLX5V_IFC_BYTES(modify_sq_in), out, sizeof(out));
	}
	mlx5v_ethdev_in_init(in, MLX5V_IFC_BYTES(modify_rq_in), MLX5V_CMD_OP_MODIFY_RQ);
	MLX5V_SET(modify_rq_in, in, rqn, qn);
	MLX5V_SET(modify_rq_in, in, rq_state, cur);
	MLX5V_SET(modify_rq_in, in, ctx.state, next);
	return mlx5v_cmd_exec(dev, in, MLX5V_IFC_BYTES(modify_rq_in), out, sizeof(out));
}

int
mlx5v_ethdev_cmd_rqt_create(struct mlx5v_dev *dev, const uint32_t *rqn, uint32_t n,
			    uint32_t *rqtn)
{
	size_t inlen = MLX5V_IFC_BYTES(create_rqt_in) + 4 * (size_t)n;
	uint8_t *in = calloc(1, inlen);
	uint32_t i;
	int ret;

	if (in == NULL)
		return -ENOMEM;
	mlx5v_ethdev_in_init(in, inlen, MLX5V_CMD_OP_CREATE_RQT);
	MLX5V_SET(create_rqt_in, in, ctx.rqt_max_size, n);
	MLX5V_SET(create_rqt_in, in, ctx.rqt_actual_size, n);
	for (i = 0; i < n; i++)
		rte_pmd_mlx5v_prm_set(in + MLX5V_IFC_BYTES(create_rqt_in) + 4 * i, 0, 31, 0,
				      rqn[i]);
	ret = mlx5v_ethdev_obj_create(dev, in, inlen, rqtn);
	free(in);
	return ret;
}

int
mlx5v_ethdev_cmd_rqt_modify(struct mlx5v_dev *dev, uint32_t rqtn, const uint32_t *rqn,
			    uint32_t n)
{
	size_t inlen = MLX5V_IFC_BYTES(modify_rqt_in) + 4 * (size_t)n;
	uint8_t out[MLX5V_IFC_BYTES(eth_cmd_out)];
	uint8_t *in = calloc(1, inlen);
	uint32_t i;
	int ret;

	if (in == NULL)
		return -ENOMEM;
	mlx5v_ethdev_in_init(in, inlen, MLX5V_CMD_OP_MODIFY_RQT);
	MLX5V_SET(modify_rqt_in, in, rqtn, rqtn);
	MLX5V_SET(modify_rqt_in, in, bitmask, 1);  /* the RQ list (prm/mlx5_eth §4.8) */
	MLX5V_SET(modify_rqt_in, in, ctx.rqt_actual_size, n);
	for (i = 0; i < n; i++)
		rte_pmd_mlx5v_prm_set(in + MLX5V_IFC_BYTES(modify_rqt_in) + 4 * i, 0, 31, 0,
				      rqn[i]);
	ret = mlx5v_cmd_exec(dev, in, inlen, out, sizeof(out));
	free(in);
	return ret;
}

int
mlx5v_ethdev_cmd_tir_create(struct mlx5v_dev *dev, const struct mlx5v_ethdev_tir_attr *a,
			    uint32_t *tirn)
{
	uint8_t in[MLX5V_IFC_BYTES(create_tir_in)];
	uint32_t fields = 0;

	mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_CREATE_TIR);
	MLX5V_SET(create_tir_in, in, ctx.disp_type, MLX5V_TIRC_DISP_INDIRECT);
	MLX5V_SET(create_tir_in, in, ctx.indirect_table, a->rqtn);
	MLX5V_SET(create_tir_in, in, ctx.rx_hash_fn, MLX5V_TIRC_HASH_TOEPLITZ);
	MLX5V_SET(create_tir_in, in, ctx.transport_domain, a->td);
	MLX5V_SET(create_tir_in, in, ctx.hash_outer_l3_prot_type, !!a->ipv6);
	MLX5V_SET(create_tir_in, in, ctx.hash_outer_l4_prot_type, !!a->udp);
	if (a->ip)
		fields |= MLX5V_HASH_FIELD_SRC_IP | MLX5V_HASH_FIELD_DST_IP;
	if (a->l4)
		fields |= MLX5V_HASH_FIELD_L4_SPORT | MLX5V_HASH_FIELD_L4_DPORT;
	MLX5V_SET(create_tir_in, in, ctx.hash_outer_selected_fields, fields);
	memcpy(MLX5V_IFC_ADDR_OF(create_tir_in, in, ctx.rx_hash_toeplitz_key), a->key,
	       MLX5V_ETH_RSS_KEY_LEN);
	return mlx5v_ethdev_obj_create(dev, in, sizeof(in), tirn);
}

/* ---------------------------------------------------------------- steering */

static int
mlx5v_ethdev_ft_obj_cmd(struct mlx5v_dev *dev, uint16_t opcode, uint16_t op_mod, uint32_t ft,
			uint32_t group, uint32_t index)
{
	uint8_t in[MLX5V_IFC_BYTES(flow_table_obj_in)];
	uint8_t out[MLX5V_IFC_BYTES(eth_cmd_out)];

	mlx5v_ethdev_in_init(in, sizeof(in), opcode);
	MLX5V_SET(flow_table_obj_in, in, op_mod, op_mod);
	MLX5V_SET(flow_table_obj_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(flow_table_obj_in, in, table_id, ft);
	MLX5V_SET(flow_table_obj_in, in, group_id, group);
	MLX5V_SET(flow_table_obj_in, in, flow_index, index);
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

int
mlx5v_ethdev_cmd_ft_create(struct mlx5v_dev *dev, uint32_t level, uint32_t log_size,
			   uint32_t *ft)
{
	uint8_t in[MLX5V_IFC_BYTES(create_flow_table_in)];

	mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_CREATE_FLOW_TABLE);
	MLX5V_SET(create_flow_table_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_table_in, in, ctx.level, level);
	MLX5V_SET(create_flow_table_in, in, ctx.log_size, log_size);
	return mlx5v_ethdev_obj_create(dev, in, sizeof(in), ft);
}

void
mlx5v_ethdev_cmd_ft_destroy(struct mlx5v_dev *dev, uint32_t ft)
{
	mlx5v_ethdev_ft_obj_cmd(dev, MLX5V_CMD_OP_DESTROY_FLOW_TABLE, 0, ft, 0, 0);
}

int
mlx5v_ethdev_cmd_ft_root(struct mlx5v_dev *dev, uint32_t ft, int set)
{
	/* op_mod 1 disconnects the root (prm/mlx5_eth §4.10). */
	return mlx5v_ethdev_ft_obj_cmd(dev, MLX5V_CMD_OP_SET_FLOW_TABLE_ROOT, set ? 0 : 1,
				       set ? ft : 0, 0, 0);
}

/* Write m into the outer header match layout at o (prm/mlx5_eth §4.10). */
static void
mlx5v_ethdev_match_set(uint8_t *o, const struct mlx5v_ethdev_match *m)
{
	const uint8_t *a;

	if (m->dmac != NULL) {
		a = m->dmac->addr_bytes;
		MLX5V_SET(fte_match_set_lyr_2_4, o, dmac_47_16,
		    (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3]);
		MLX5V_SET(fte_match_set_lyr_2_4, o, dmac_15_0, (uint32_t)a[4] << 8 | a[5]);
	}
	MLX5V_SET(fte_match_set_lyr_2_4, o, ethertype, m->ethertype);
	MLX5V_SET(fte_match_set_lyr_2_4, o, ip_protocol, m->ip_protocol);
}

int
mlx5v_ethdev_cmd_fg_create(struct mlx5v_dev *dev, uint32_t ft, uint32_t start, uint32_t end,
			   const struct mlx5v_ethdev_match *mask, uint32_t *fg)
{
	uint8_t in[MLX5V_IFC_BYTES(create_flow_group_in)];

	mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_CREATE_FLOW_GROUP);
	MLX5V_SET(create_flow_group_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_group_in, in, table_id, ft);
	MLX5V_SET(create_flow_group_in, in, start_flow_index, start);
	MLX5V_SET(create_flow_group_in, in, end_flow_index, end);
	if (mask != NULL) {
		MLX5V_SET(create_flow_group_in, in, match_criteria_enable,
			  MLX5V_MATCH_OUTER_HEADERS);
		mlx5v_ethdev_match_set(MLX5V_IFC_ADDR_OF(create_flow_group_in, in,
							 match_criteria.outer_headers),
				       mask);
	}
	return mlx5v_ethdev_obj_create(dev, in, sizeof(in), fg);
}

void
mlx5v_ethdev_cmd_fg_destroy(struct mlx5v_dev *dev, uint32_t ft, uint32_t fg)
{
	mlx5v_ethdev_ft_obj_cmd(dev, MLX5V_CMD_OP_DESTROY_FLOW_GROUP, 0, ft, fg, 0);
}

int
mlx5v_ethdev_cmd_fte_set(struct mlx5v_dev *dev, uint32_t ft, uint32_t index, uint32_t fg,
			 int to_table, uint32_t dest, const struct mlx5v_ethdev_match *value)
{
	uint8_t in[MLX5V_IFC_BYTES(set_fte_in) + MLX5V_IFC_BYTES(dest_format)];
	uint8_t out[MLX5V_IFC_BYTES(eth_cmd_out)];
	uint8_t *d = in + MLX5V_IFC_BYTES(set_fte_in);

	mlx5v_ethdev_in_init(in, sizeof(in), MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY);
	MLX5V_SET(set_fte_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(set_fte_in, in, table_id, ft);
	MLX5V_SET(set_fte_in, in, flow_index, index);
	MLX5V_SET(set_fte_in, in, ctx.group_id, fg);
	MLX5V_SET(set_fte_in, in, ctx.action, MLX5V_FTE_ACTION_FWD_DEST);
	MLX5V_SET(set_fte_in, in, ctx.destination_list_size, 1);
	if (value != NULL)
		mlx5v_ethdev_match_set(
				MLX5V_IFC_ADDR_OF(set_fte_in, in, ctx.match_value.outer_headers),
				value);
	MLX5V_SET(dest_format, d, destination_type,
	    to_table ? MLX5V_FLOW_DEST_FLOW_TABLE : MLX5V_FLOW_DEST_TIR);
	MLX5V_SET(dest_format, d, destination_id, dest);
	return mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

void
mlx5v_ethdev_cmd_fte_delete(struct mlx5v_dev *dev, uint32_t ft, uint32_t index)
{
	mlx5v_ethdev_ft_obj_cmd(dev, MLX5V_CMD_OP_DELETE_FLOW_TABLE_ENTRY, 0, ft, 0, index);
}
