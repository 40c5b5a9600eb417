/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/**
 * @file The device objects of an rte_flow rule of the mlx5v PMD, in command mailboxes
 * (prm/mlx5_eth §4.9, §4.10): its group's table, a flow group of a range of entries whose
 * criteria are the mask of its rules (outer and inner headers, misc, misc 3), the entry with
 * the rule's value, action, destination and flow tag, the direct TIR of a QUEUE rule.
 */

#include <errno.h>
#include <string.h>

#include "mlx5v_cmd.h"
#include "mlx5v_ethdev.h"
#include "mlx5v_prm.h"
#include "mlx5v_prm_eth.h"
#include "mlx5v_rte_flow.h"

/* h into the header match set at o (fte_match_set_lyr_2_4, prm/mlx5_eth §4.10), outer or inner. */
static void
hdrs_put(uint8_t *o, const struct mlx5v_rte_flow_hdrs *h)
{
	const uint8_t *a = h->dmac, *b = h->smac;

	MLX5V_SET(fte_match_set_lyr_2_4, o, dmac_47_16,
	    (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3]);
	MLX5V_SET(fte_match_set_lyr_2_4, o, dmac_15_0, (uint32_t)a[4] << 8 | a[5]);
	MLX5V_SET(fte_match_set_lyr_2_4, o, smac_47_16,
	    (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]);
	MLX5V_SET(fte_match_set_lyr_2_4, o, smac_15_0, (uint32_t)b[4] << 8 | b[5]);
	MLX5V_SET(fte_match_set_lyr_2_4, o, ethertype, h->ethertype);
	MLX5V_SET(fte_match_set_lyr_2_4, o, cvlan_tag, h->cvlan_tag);
	MLX5V_SET(fte_match_set_lyr_2_4, o, first_prio, h->vlan_tci >> 13);
	MLX5V_SET(fte_match_set_lyr_2_4, o, first_cfi, (h->vlan_tci >> 12) & 1);
	MLX5V_SET(fte_match_set_lyr_2_4, o, first_vid, h->vlan_tci & 0xfff);
	MLX5V_SET(fte_match_set_lyr_2_4, o, ip_version, h->ip_version);
	MLX5V_SET(fte_match_set_lyr_2_4, o, frag, h->frag);
	MLX5V_SET(fte_match_set_lyr_2_4, o, ip_protocol, h->ip_protocol);
	MLX5V_SET(fte_match_set_lyr_2_4, o, tcp_flags, h->tcp_flags);
	MLX5V_SET(fte_match_set_lyr_2_4, o, tcp_sport, h->tcp_sport);
	MLX5V_SET(fte_match_set_lyr_2_4, o, tcp_dport, h->tcp_dport);
	MLX5V_SET(fte_match_set_lyr_2_4, o, udp_sport, h->udp_sport);
	MLX5V_SET(fte_match_set_lyr_2_4, o, udp_dport, h->udp_dport);
	memcpy(MLX5V_IFC_ADDR_OF(fte_match_set_lyr_2_4, o, src_ipv4_src_ipv6), h->src_ip, 16);
	memcpy(MLX5V_IFC_ADDR_OF(fte_match_set_lyr_2_4, o, dst_ipv4_dst_ipv6), h->dst_ip, 16);
}

uint32_t
mlx5v_rte_flow_hw_criteria(const struct mlx5v_rte_flow_match *mask)
{
	static const struct mlx5v_rte_flow_hdrs none;
	const struct mlx5v_rte_flow_misc *m = &mask->misc;
	uint32_t en = 0;

	if (memcmp(&mask->outer, &none, sizeof(none)) != 0)
		en |= MLX5V_MATCH_OUTER_HEADERS;
	if (m->vxlan_vni != 0)
		en |= MLX5V_MATCH_MISC_PARAMETERS;
	if (memcmp(&mask->inner, &none, sizeof(none)) != 0)
		en |= MLX5V_MATCH_INNER_HEADERS;
	if ((m->icmp_type | m->icmp_code | m->icmpv6_type | m->icmpv6_code) != 0)
		en |= MLX5V_MATCH_MISC_PARAMETERS_3;
	return en;
}

/*
 * Match m (a mask or a value) into fte_match_param p (prm/mlx5_eth §4.10), the sections of en: the
 * outer and inner headers, the VXLAN VNI (misc), the ICMP and ICMPv6 type and code (misc 3).
 */
static void
match_put(uint8_t *p, const struct mlx5v_rte_flow_match *m, uint32_t en)
{
	if (en & MLX5V_MATCH_OUTER_HEADERS)
		hdrs_put(MLX5V_IFC_ADDR_OF(fte_match_param, p, outer_headers), &m->outer);
	if (en & MLX5V_MATCH_INNER_HEADERS)
		hdrs_put(MLX5V_IFC_ADDR_OF(fte_match_param, p, inner_headers), &m->inner);
	if (en & MLX5V_MATCH_MISC_PARAMETERS)
		MLX5V_SET(fte_match_param, p, misc_parameters.vxlan_vni, m->misc.vxlan_vni);
	if (en & MLX5V_MATCH_MISC_PARAMETERS_3) {
		MLX5V_SET(fte_match_param, p, misc_parameters_3.icmp_type, m->misc.icmp_type);
		MLX5V_SET(fte_match_param, p, misc_parameters_3.icmp_code, m->misc.icmp_code);
		MLX5V_SET(fte_match_param, p, misc_parameters_3.icmpv6_type, m->misc.icmpv6_type);
		MLX5V_SET(fte_match_param, p, misc_parameters_3.icmpv6_code, m->misc.icmpv6_code);
	}
}

int
mlx5v_rte_flow_hw_table(struct mlx5v_dev *dev, uint32_t level, uint32_t miss_ft, uint32_t *ft)
{
	uint8_t in[MLX5V_IFC_BYTES(create_flow_table_in)];

	memset(in, 0, sizeof(in));
	MLX5V_SET(create_flow_table_in, in, opcode, MLX5V_CMD_OP_CREATE_FLOW_TABLE);
	MLX5V_SET(create_flow_table_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_table_in, in, ctx.level, level);
	MLX5V_SET(create_flow_table_in, in, ctx.log_size, MLX5V_RTE_FLOW_FT_LOG_SIZE);
	if (miss_ft != 0) {
		MLX5V_SET(create_flow_table_in, in, ctx.table_miss_action, MLX5V_FT_MISS_FWD);
		MLX5V_SET(create_flow_table_in, in, ctx.table_miss_id, miss_ft);
	}
	return mlx5v_ethdev_cmd_create_obj(dev, in, sizeof(in), ft);
}

int
mlx5v_rte_flow_hw_group(struct mlx5v_dev *dev, uint32_t ft, uint32_t start, uint32_t end,
			const struct mlx5v_rte_flow_spec *spec, uint32_t *fg)
{
	uint8_t in[MLX5V_IFC_BYTES(create_flow_group_in)];
	uint32_t en;

	memset(in, 0, sizeof(in));
	MLX5V_SET(create_flow_group_in, in, opcode, MLX5V_CMD_OP_CREATE_FLOW_GROUP);
	MLX5V_SET(create_flow_group_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(create_flow_group_in, in, table_id, ft);
	MLX5V_SET(create_flow_group_in, in, start_flow_index, start);
	MLX5V_SET(create_flow_group_in, in, end_flow_index, end);
	/* The sections the mask uses; an empty pattern is a match-all group: none enabled. */
	en = mlx5v_rte_flow_hw_criteria(&spec->mask);
	MLX5V_SET(create_flow_group_in, in, match_criteria_enable, en);
	match_put(MLX5V_IFC_ADDR_OF(create_flow_group_in, in, match_criteria), &spec->mask, en);
	return mlx5v_ethdev_cmd_create_obj(dev, in, sizeof(in), fg);
}

int
mlx5v_rte_flow_hw_tir(struct mlx5v_dev *dev, uint32_t td, uint32_t rqn, uint32_t *tirn)
{
	uint8_t in[MLX5V_IFC_BYTES(create_tir_in)];

	memset(in, 0, sizeof(in));
	MLX5V_SET(create_tir_in, in, opcode, MLX5V_CMD_OP_CREATE_TIR);
	MLX5V_SET(create_tir_in, in, ctx.disp_type, MLX5V_TIRC_DISP_DIRECT);
	MLX5V_SET(create_tir_in, in, ctx.inline_rqn, rqn);
	MLX5V_SET(create_tir_in, in, ctx.transport_domain, td);
	return mlx5v_ethdev_cmd_create_obj(dev, in, sizeof(in), tirn);
}

/* The longest SET_FLOW_TABLE_ENTRY of a rule: one destination and one counter. */
#define ENTRY_IN_MAX (MLX5V_IFC_BYTES(set_fte_in) + 2 * MLX5V_IFC_BYTES(dest_format))

/* SET_FLOW_TABLE_ENTRY of a rule into in (ENTRY_IN_MAX bytes). @return its length. */
static size_t
entry_build(uint8_t *in, uint32_t ft, uint32_t index, uint32_t fg,
	    const struct mlx5v_rte_flow_spec *spec, uint32_t dest, uint32_t counter)
{
	uint8_t *d = in + MLX5V_IFC_BYTES(set_fte_in);
	uint32_t action = 0;
	size_t inlen = MLX5V_IFC_BYTES(set_fte_in);

	memset(in, 0, ENTRY_IN_MAX);
	MLX5V_SET(set_fte_in, in, opcode, MLX5V_CMD_OP_SET_FLOW_TABLE_ENTRY);
	MLX5V_SET(set_fte_in, in, table_type, MLX5V_FT_TYPE_NIC_RX);
	MLX5V_SET(set_fte_in, in, table_id, ft);
	MLX5V_SET(set_fte_in, in, flow_index, index);
	MLX5V_SET(set_fte_in, in, ctx.group_id, fg);
	MLX5V_SET(set_fte_in, in, ctx.flow_tag, spec->flow_tag);
	/* The value in the sections its group enables (a value bit outside them never matches). */
	match_put(MLX5V_IFC_ADDR_OF(set_fte_in, in, ctx.match_value), &spec->value,
		  mlx5v_rte_flow_hw_criteria(&spec->mask));
	if (spec->fate == MLX5V_RTE_FLOW_FATE_DROP) {
		action = MLX5V_FTE_ACTION_DROP;
	} else {
		/* One destination: the rule's TIR, or the table of the group it jumps to. */
		action = MLX5V_FTE_ACTION_FWD_DEST;
		MLX5V_SET(set_fte_in, in, ctx.destination_list_size, 1);
		MLX5V_SET(dest_format, d, destination_type,
		    spec->fate == MLX5V_RTE_FLOW_FATE_JUMP ? MLX5V_FLOW_DEST_FLOW_TABLE :
		    MLX5V_FLOW_DEST_TIR);
		MLX5V_SET(dest_format, d, destination_id, dest);
		d += MLX5V_IFC_BYTES(dest_format);
		inlen += MLX5V_IFC_BYTES(dest_format);
	}
	if (counter != 0) {
		/* The counter list follows the destinations (prm/mlx5_eth §4.10). */
		action |= MLX5V_FTE_ACTION_COUNT;
		MLX5V_SET(set_fte_in, in, ctx.flow_counter_list_size, 1);
		MLX5V_SET(flow_counter_list, d, flow_counter_id, counter);
		inlen += MLX5V_IFC_BYTES(dest_format);
	}
	MLX5V_SET(set_fte_in, in, ctx.action, action);
	return inlen;
}

int
mlx5v_rte_flow_hw_entry(struct mlx5v_dev *dev, uint32_t ft, uint32_t index, uint32_t fg,
			const struct mlx5v_rte_flow_spec *spec, uint32_t dest, uint32_t counter)
{
	uint8_t in[ENTRY_IN_MAX];
	uint8_t out[MLX5V_IFC_BYTES(eth_cmd_out)];
	size_t inlen = entry_build(in, ft, index, fg, spec, dest, counter);

	return mlx5v_cmd_exec(dev, in, inlen, out, sizeof(out));
}

int
mlx5v_rte_flow_hw_entry_post(struct mlx5v_dev *dev, uint32_t ft, uint32_t index, uint32_t fg,
			     const struct mlx5v_rte_flow_spec *spec, uint32_t dest,
			     uint32_t counter, mlx5v_cmd_done_cb cb, void *arg, uint64_t *ticket)
{
	uint8_t in[ENTRY_IN_MAX];
	size_t inlen = entry_build(in, ft, index, fg, spec, dest, counter);

	return mlx5v_cmd_post_async(dev, in, inlen, MLX5V_IFC_BYTES(eth_cmd_out), cb, arg,
				    ticket);
}

int
mlx5v_rte_flow_hw_counter_alloc(struct mlx5v_dev *dev, uint32_t *id)
{
	uint8_t in[MLX5V_IFC_BYTES(alloc_flow_counter_in)];
	uint8_t out[MLX5V_IFC_BYTES(alloc_flow_counter_out)];
	int ret;

	memset(in, 0, sizeof(in));
	MLX5V_SET(alloc_flow_counter_in, in, opcode, MLX5V_CMD_OP_ALLOC_FLOW_COUNTER);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret == 0)
		*id = MLX5V_GET(alloc_flow_counter_out, out, flow_counter_id);
	return ret;
}

void
mlx5v_rte_flow_hw_counter_free(struct mlx5v_dev *dev, uint32_t id)
{
	uint8_t in[MLX5V_IFC_BYTES(dealloc_flow_counter_in)];
	uint8_t out[MLX5V_IFC_BYTES(eth_cmd_out)];

	memset(in, 0, sizeof(in));
	MLX5V_SET(dealloc_flow_counter_in, in, opcode, MLX5V_CMD_OP_DEALLOC_FLOW_COUNTER);
	MLX5V_SET(dealloc_flow_counter_in, in, flow_counter_id, id);
	/* A failure is logged by the command layer. */
	mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

int
mlx5v_rte_flow_hw_counter_query(struct mlx5v_dev *dev, uint32_t id, uint64_t *packets,
				uint64_t *bytes)
{
	uint8_t in[MLX5V_IFC_BYTES(query_flow_counter_in)];
	uint8_t out[MLX5V_IFC_BYTES(query_flow_counter_out)];
	int ret;

	memset(in, 0, sizeof(in));
	MLX5V_SET(query_flow_counter_in, in, opcode, MLX5V_CMD_OP_QUERY_FLOW_COUNTER);
	MLX5V_SET(query_flow_counter_in, in, flow_counter_id, id);
	ret = mlx5v_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret != 0)
		return ret;
	*packets = MLX5V_IFC_GET64(query_flow_counter_out, out, packets);
	*bytes = MLX5V_IFC_GET64(query_flow_counter_out, out, octets);
	return 0;
}
