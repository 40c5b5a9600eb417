/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file Fault knobs of the model: the named table, devargs, actions and the code API. */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5v_sim_eth_dp.h"
#include "mlx5v_sim_priv.h"

/** fail_opcode / deliv_opcode / ... value that matches every opcode. */
#define MLX5V_SIM_ANY_OPCODE 0xffff

/*
 * The knob table, in enum mlx5v_sim_knob order. "Next command" knobs are one-shot: the
 * opcode knob returns to 0 once it fired. Action knobs act when written.
 * doc/guides/sim/mlx5v_sim.rst lists the same table.
 */
const struct hwsim_knob_def mlx5v_sim_knob_defs[MLX5V_SIM_K_MAX] = {
	[MLX5V_SIM_K_FAIL_OPCODE] = { "fail_opcode", 0, 0, 0xffff,
		"answer the next command of this opcode (0xffff: any) with fail_status" },
	[MLX5V_SIM_K_FAIL_STATUS] = { "fail_status", MLX5V_CMD_STAT_BAD_PARAM_ERR, 1, 0xff,
		"outbox status for fail_opcode" },
	[MLX5V_SIM_K_FAIL_SYNDROME] = { "fail_syndrome", 0x5100fa11, 0, UINT32_MAX,
		"outbox syndrome for fail_opcode" },
	[MLX5V_SIM_K_FAIL_COUNT] = { "fail_count", 1, -1, 1000000,
		"how many commands fail_opcode fails (-1: all)" },
	[MLX5V_SIM_K_DELIV_OPCODE] = { "deliv_opcode", 0, 0, 0xffff,
		"complete the next command of this opcode with deliv_status" },
	[MLX5V_SIM_K_DELIV_STATUS] = { "deliv_status", MLX5V_CMD_DELIV_FW_ERR, 1, 0x7f,
		"delivery status for deliv_opcode" },
	[MLX5V_SIM_K_DELAY_OPCODE] = { "delay_opcode", 0, 0, 0xffff,
		"hold the completion of the next command of this opcode for delay_ms" },
	[MLX5V_SIM_K_DELAY_MS] = { "delay_ms", 100, 1, 600000, "delay for delay_opcode" },
	[MLX5V_SIM_K_DROP_OPCODE] = { "drop_opcode", 0, 0, 0xffff,
		"run the next command of this opcode but post no CMD EQE" },
	[MLX5V_SIM_K_DROP_HOLD] = { "drop_hold", 0, 0, 1,
		"with drop_opcode: keep the slot owned until release_held" },
	[MLX5V_SIM_K_DUP_OPCODE] = { "dup_opcode", 0, 0, 0xffff,
		"post the CMD EQE of the next command of this opcode twice" },
	[MLX5V_SIM_K_MSIX_VEC] = { "msix_vec", 0, 0, MLX5V_SIM_MAX_MSIX - 1,
		"vector that lose_msix and dup_msix act on" },
	[MLX5V_SIM_K_LOSE_MSIX] = { "lose_msix", 0, 0, 1000000,
		"action: drop the next N interrupts of msix_vec" },
	[MLX5V_SIM_K_DUP_MSIX] = { "dup_msix", 0, 0, 1000000,
		"action: signal the next N interrupts of msix_vec twice" },
	[MLX5V_SIM_K_HEALTH_FREEZE] = { "health_freeze", 0, 0, 1,
		"1: the health counter stops" },
	[MLX5V_SIM_K_HEALTH_SYND] = { "health_synd", 0, 0, 0xff,
		"action: set RFR + this health syndrome (0 clears)" },
	[MLX5V_SIM_K_HEALTH_PERIOD_MS] = { "health_period_ms", 100, 1, 60000,
		"health counter period" },
	[MLX5V_SIM_K_NIC_INTERFACE] = { "nic_interface", -1, -1, 7,
		"action: force the nic_interface read-back (-1: leave)" },
	[MLX5V_SIM_K_PCI_OFFLINE] = { "pci_offline", 0, 0, 1,
		"action: 1 = every BAR read returns all ones, the device stops" },
	[MLX5V_SIM_K_BOOT_MS] = { "boot_ms", 0, 0, 600000,
		"action: initializing reads 1 for this long from now" },
	[MLX5V_SIM_K_BOOT_PAGES] = { "boot_pages", 16, 0, MLX5V_SIM_MAX_PAGES / 2,
		"QUERY_PAGES boot answer" },
	[MLX5V_SIM_K_INIT_PAGES] = { "init_pages", 32, 0, MLX5V_SIM_MAX_PAGES / 2,
		"QUERY_PAGES init answer" },
	[MLX5V_SIM_K_CHECKSUMS] = { "checksums", 0, 0, 1,
		"1: verify entry/mailbox signatures and sign the output" },
	[MLX5V_SIM_K_CHECK_TOKEN] = { "check_token", 0, 0, 1,
		"1: mailbox tokens must match the entry token (delivery 0x2)" },
	[MLX5V_SIM_K_FAST_TEARDOWN] = { "fast_teardown", 1, 0, 1,
		"fast_teardown capability" },
	[MLX5V_SIM_K_TEARDOWN_FAIL] = { "teardown_fail", 0, 0, 1,
		"1: TEARDOWN_HCA profile 2 answers state FORCE_STATE_FAIL" },
	[MLX5V_SIM_K_CMD_EXEC_TO] = { "cmd_exec_to", 0, 0, UINT32_MAX, "0xff8 read value" },
	[MLX5V_SIM_K_CMD_Q_INIT_TO] = { "cmd_q_init_to", 0, 0, UINT32_MAX, "0xffc read value" },
	[MLX5V_SIM_K_REQUEST_PAGES] = { "request_pages", 0, INT32_MIN, INT32_MAX,
		"action: post a PAGE_REQUEST EQE with this signed num_pages" },
	[MLX5V_SIM_K_PAGE_STORM] = { "page_storm", 0, 0, 100000,
		"action: post N PAGE_REQUEST EQEs of page_storm_pages each" },
	[MLX5V_SIM_K_PAGE_STORM_PAGES] = { "page_storm_pages", 1, -50000, 50000,
		"num_pages of each page_storm request" },
	[MLX5V_SIM_K_EQ_OVERRUN] = { "eq_overrun", 0, 0, MLX5V_SIM_MAX_EQN,
		"action: overrun this EQN now" },
	[MLX5V_SIM_K_CQ_OVERRUN] = { "cq_overrun", 0, 0, MLX5V_SIM_MAX_CQN,
		"action: overrun this CQN now (CQ_ERROR, syndrome 0x1)" },
	[MLX5V_SIM_K_PORT_DOWN] = { "port_down", 0, 0, 4,
		"action: port change event DOWN for this port" },
	[MLX5V_SIM_K_PORT_UP] = { "port_up", 0, 0, 4,
		"action: port change event ACTIVE for this port" },
	[MLX5V_SIM_K_FAIL_DMA_MAP] = { "fail_dma_map", 0, 0, 1000000,
		"refuse the next N DMA mappings (IOMMU out of space: -ENOMEM)" },
	[MLX5V_SIM_K_FAIL_OP_MOD] = { "fail_op_mod", -1, -1, 0xffff,
		"fail_opcode hits only commands with this op_mod (-1: any)" },
	[MLX5V_SIM_K_UMEM_UID_0] = { "umem_uid_0", 1, 0, 1,
		"umem_uid_0 general capability (cur and max)" },
	[MLX5V_SIM_K_ROCE] = { "roce", 1, 0, 1, "roce general capability (cur and max)" },
	[MLX5V_SIM_K_PORT_TYPE] = { "port_type", MLX5V_CAP_PORT_TYPE_ETH, 0, 3,
		"port_type general capability: 0 IB, 1 Ethernet" },
	[MLX5V_SIM_K_BAD_OUT_SIG_OPCODE] = { "bad_out_sig_opcode", 0, 0, 0xffff,
		"corrupt the output signature of the next signed command of this opcode" },
	[MLX5V_SIM_K_BAD_OUT_SIG_BLOCK] = { "bad_out_sig_block", 0, 0, 1,
		"with bad_out_sig_opcode: 0 the entry signature, 1 output block 0's" },
	[MLX5V_SIM_K_FAIL_CREATE_SQ] = { "fail_create_sq", 0, 0, 1000000,
		"the next N valid CREATE_SQ fail: NO_RES, no SQ created" },
	[MLX5V_SIM_K_FAIL_CREATE_RQ] = { "fail_create_rq", 0, 0, 1000000,
		"the next N valid CREATE_RQ fail: NO_RES, no RQ created" },
	[MLX5V_SIM_K_FAIL_CREATE_TIR] = { "fail_create_tir", 0, 0, 1000000,
		"the next N valid CREATE_TIR fail: NO_RES, no TIR created" },
	[MLX5V_SIM_K_FAIL_CREATE_MKEY] = { "fail_create_mkey", 0, 0, 1000000,
		"the next N valid CREATE_MKEY fail: NO_RES, no MKEY created" },
	[MLX5V_SIM_K_WQE_INLINE_MODE] = { "wqe_inline_mode", 0, 0, 2,
		"Ethernet offload cap wqe_inline_mode: 0 L2, 1 vport context, 2 none" },
	[MLX5V_SIM_K_VPORT_INLINE_MODE] = { "vport_inline_mode", 0, 0, 7,
		"NIC vport min_wqe_inline_mode at power-on: 0 none, 1 L2, 2 IP, 3 TCP/UDP, "
		"5-7 inner L2/IP/TCP-UDP" },
	[MLX5V_SIM_K_PTYS_EXT] = { "ptys_ext", 0, 0, 1,
		"1: cap pcam_reg and PCAM ptys_extended_ethernet; PTYS speaks in its extended "
		"fields only (ConnectX-6 Dx and later), 0: in its legacy fields only" },
	[MLX5V_SIM_K_LINK_MODE] = { "link_mode", -1, -1, 31,
		"the one link mode of the port's module, as its PTYS bit (extended with "
		"ptys_ext=1; e.g. 13 10GBASE-SR, 29 25GBASE-SR, 21 100GBASE-SR4); -1: the copper "
		"modes" },
	[MLX5V_SIM_K_LOG_BF_REG_SIZE] = { "log_bf_reg_size", 9, 8, 10,
		"cap log_bf_reg_size: BlueFlame registers of 2^N bytes from UAR + 0x800 (at most "
		"4); an SQ doorbell elsewhere than the start of a half is refused" },
	[MLX5V_SIM_K_MAX_WQE_SZ_SQ] = { "max_wqe_sz_sq", 1024, 256, 1024,
		"cap max_wqe_sz_sq: bytes of the largest send WQE; a larger one is refused" },
	[MLX5V_SIM_K_EMPW] = { "empw", 0, 0, 1,
		"Ethernet offload caps multi_pkt_send_wqe, enhanced_multi_pkt_send_wqe: "
		"1 takes enhanced multi-packet send WQEs" },
	[MLX5V_SIM_K_CQE_COMP] = { "cqe_comp", 1, 0, 1,
		"cqe_compression general capability: 1 writes compressed CQE sessions for a CQ "
		"created with cqe_comp_en; 0 refuses cqe_comp_en" },
	[MLX5V_SIM_K_UAR_4K] = { "uar_4k", 1, 0, 1,
		"uar_4k general capability (max): 4 KiB UAR indices on hosts with larger pages" },
	[MLX5V_SIM_K_TX_ERR_NEXT] = { "tx_err_next", 0, 0, 1000000,
		"the next N send WQEs complete with an error CQE (LOCAL_QP_OP_ERR), SQ to ERR" },
	[MLX5V_SIM_K_RX_ERR_NEXT] = { "rx_err_next", 0, 0, 1000000,
		"the next N received frames complete with an error CQE of syndrome rx_err_synd "
		"(0x02 and 0x04 move the RQ to ERR)" },
	[MLX5V_SIM_K_RX_ERR_SYND] = { "rx_err_synd", MLX5V_CQE_SYND_LOCAL_PROT, 1, 0xff,
		"syndrome of the rx_err_next error CQEs (default LOCAL_PROT_ERR 0x04)" },
	[MLX5V_SIM_K_TS_FORMAT_CAP] = { "ts_format_cap", 0, 0, 2,
		"sq_ts_format and rq_ts_format caps: 0 free-running only, 1 real-time only, "
		"2 both; CREATE_SQ/RQ refuse a ts_format the clock cannot give" },
	[MLX5V_SIM_K_RX_CQE_SE] = { "rx_cqe_se", 0, 0, 1,
		"1: good receive CQEs carry the solicited-event bit (the CQE format allows it; "
		"no Ethernet firmware is known to set it)" },
	[MLX5V_SIM_K_MINI_CQE_TAGS] = { "mini_cqe_tags", 1, 0, 1,
		"caps mini_cqe_resp_flow_tag and mini_cqe_resp_l3_l4_tag: the flow tag and the "
		"L3/L4 header mini-CQE formats; 0 refuses them" },
	[MLX5V_SIM_K_WIRE_DROP_NEXT] = { "wire_drop_next", 0, 0, 1000000,
		"action: the wire loses the next N frames the port sends" },
	[MLX5V_SIM_K_WIRE_CORRUPT_NEXT] = { "wire_corrupt_next", 0, 0, 1000000,
		"action: the wire damages the next N frames the port sends (bad FCS)" },
	[MLX5V_SIM_K_LINK] = { "link", 1, 0, 1,
		"action: 0 pulls the port's cable, 1 plugs it back" },
	[MLX5V_SIM_K_LINK_FLAP] = { "link_flap", 0, 0, 1000,
		"action: pull and plug the cable N times" },
	[MLX5V_SIM_K_HOLD_FOR_PAGES] = { "hold_for_pages", 0, 0, 0xffff,
		"hold the next command of this opcode until the hold_pages it requests are given" },
	[MLX5V_SIM_K_HOLD_PAGES] = { "hold_pages", 16, 1, 50000,
		"pages a hold_for_pages command requests" },
	[MLX5V_SIM_K_REQUEST_PAGES_EC] = { "request_pages_ec", 0, 0, 50000,
		"action: request N pages for the embedded-CPU function (ec_function 0x8000)" },
	[MLX5V_SIM_K_RELEASE_ALL_PAGES] = { "release_all_pages", 0, 0, 1,
		"action: drop every page and send a release-all request (ec_function 0x4000)" },
	[MLX5V_SIM_K_TEARDOWN_OFFLINE] = { "teardown_offline", 0, 0, 1,
		"1: the function leaves the bus (all-ones reads) when asked for nic_interface "
		"DISABLED" },
	[MLX5V_SIM_K_MSIX_HOST_VECTORS] = { "msix_host_vectors", 0, 0, MLX5V_SIM_MAX_MSIX,
		"interrupt vectors the host gives the function (0: as many as it has); SET_IRQS "
		"enabling more fails ENOSPC" },
	[MLX5V_SIM_K_MSIX_NORESIZE] = { "msix_noresize", 0, 0, 1,
		"1: VFIO_IRQ_INFO_NORESIZE, no vector can be added while MSI-X is on" },
	[MLX5V_SIM_K_MSIX_NO_EVENTFD] = { "msix_no_eventfd", 0, 0, 1,
		"1: the MSI-X IRQ info lacks VFIO_IRQ_INFO_EVENTFD; SET_IRQS with eventfds fails" },
	[MLX5V_SIM_K_RESET_FAIL] = { "reset_fail", 0, 0, 1000,
		"the next N function resets (VFIO_DEVICE_RESET) fail with EIO" },
	[MLX5V_SIM_K_CMD_HANG] = { "cmd_hang", 0, 0, 1,
		"1: the firmware stops answering: every command is held, until a function reset" },
	[MLX5V_SIM_K_FLEX_PARSER_ICMP] = { "flex_parser_icmp", 3, 0, 3,
		"flex_parser_protocols ICMP bits: 1 ICMP, 2 ICMPv6, 3 both; a flow group matching "
		"the misc 3 type or code of a protocol not parsed is refused" },
	[MLX5V_SIM_K_FT_TUNNEL] = { "ft_tunnel", 1, 0, 1,
		"NIC RX ft_field_support outer_vxlan_vni and inner_*: 0 refuses flow groups "
		"matching the VXLAN VNI or the inner headers" },
};

/*
 * Longest command delay a creation string may arm. A delay armed at creation hits a
 * bring-up command (0xffff: the very first), so it holds rte_vdev_init() that long.
 */
#define MLX5V_SIM_CREATE_DELAY_MAX_MS 10000

/* Device keys in a devargs string: not knobs, skipped by the knob parser. */
static const char *const mlx5v_sim_dev_keys[] = {
	/*
	 * boot_ms, boot_pages and init_pages are knobs as well, so the knob parser must see them.
	 */
	"msix", "ports", "pages", "log_max_eq_sz", "max_eqs", "function", "host_page", "first_num",
	"cmd_hot_us",
	/* The data path's wire keys (mlx5v_sim_eth_dp_init()). */
	"wire", "wire1", "mac", "speed", NULL,
};

/*
 * Refuse creation knobs that would stall the bring-up which follows creation
 * (doc/guides/sim/mlx5v_sim.rst, "Fault knobs"): a command held until
 * mlx5v_sim_release_held(), which nobody can call before rte_vdev_init() returns, and a
 * delay above MLX5V_SIM_CREATE_DELAY_MAX_MS. At run time both stay available.
 * @return 0 or -EINVAL.
 */
static int
mlx5v_sim_faults_check_create(struct mlx5v_sim *sim)
{
	if (mlx5v_sim_knob(sim, MLX5V_SIM_K_DROP_OPCODE) != 0 &&
	    mlx5v_sim_knob(sim, MLX5V_SIM_K_DROP_HOLD) != 0) {
		SIM_LOG(ERR, "%s: drop_hold with drop_opcode at creation would hold a bring-up "
			"command until release_held; set them at run time", sim->name);
		return -EINVAL;
	}
	if (mlx5v_sim_knob(sim, MLX5V_SIM_K_DELAY_OPCODE) != 0 &&
	    mlx5v_sim_knob(sim, MLX5V_SIM_K_DELAY_MS) > MLX5V_SIM_CREATE_DELAY_MAX_MS) {
		SIM_LOG(ERR, "%s: delay_ms %" PRId64 " with delay_opcode at creation is above %u "
			"ms and would stall the bring-up; set it at run time", sim->name,
			mlx5v_sim_knob(sim, MLX5V_SIM_K_DELAY_MS), MLX5V_SIM_CREATE_DELAY_MAX_MS);
		return -EINVAL;
	}
	return 0;
}

/*
 * The parameters that are also knobs (boot_ms, boot_pages, init_pages) are copied in
 * first, so that a knob in the same devargs string wins. @return 0 or -EINVAL.
 */
int
mlx5v_sim_faults_init(struct mlx5v_sim *sim, const char *knobs)
{
	sim->knobs = hwsim_knobs_create(mlx5v_sim_knob_defs, MLX5V_SIM_K_MAX);
	if (sim->knobs == NULL)
		return -rte_errno;
	/* Parameters first, so the knob string can override them. */
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_BOOT_MS, sim->p.boot_ms);
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_BOOT_PAGES, sim->p.boot_pages);
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_INIT_PAGES, sim->p.init_pages);
	/* The wire's keys first: its parser names a wire2= the one-port function lacks. */
	if (mlx5v_sim_eth_dp_check(sim, knobs) != 0)
		return -EINVAL;
	if (hwsim_knobs_parse(sim->knobs, knobs, mlx5v_sim_dev_keys) != 0)
		return -EINVAL;
	return mlx5v_sim_faults_check_create(sim);
}

/* Run the side effect of knob k, just set to v. Lock not held. */
static void
mlx5v_sim_knob_action(struct mlx5v_sim *sim, enum mlx5v_sim_knob k, int64_t v)
{
	int64_t i;

	/* Actions that take their own locks (port events, hwsim_irq) run before the model lock. */
	switch (k) {
	case MLX5V_SIM_K_LOSE_MSIX:
		hwsim_irq_drop_next(sim->irq, mlx5v_sim_knob(sim, MLX5V_SIM_K_MSIX_VEC), v);
		return;
	case MLX5V_SIM_K_DUP_MSIX:
		hwsim_irq_dup_next(sim->irq, mlx5v_sim_knob(sim, MLX5V_SIM_K_MSIX_VEC), v);
		return;
	case MLX5V_SIM_K_PORT_DOWN:
		if (v != 0)
			mlx5v_sim_port_event(sim, v, RTE_PMD_MLX5V_PORT_CHANGE_DOWN);
		return;
	case MLX5V_SIM_K_PORT_UP:
		if (v != 0)
			mlx5v_sim_port_event(sim, v, RTE_PMD_MLX5V_PORT_CHANGE_ACTIVE);
		return;
	case MLX5V_SIM_K_WIRE_DROP_NEXT:
	case MLX5V_SIM_K_WIRE_CORRUPT_NEXT:
	case MLX5V_SIM_K_LINK:
	case MLX5V_SIM_K_LINK_FLAP:
		/* The wire takes its own lock and calls back into the engine. */
		mlx5v_sim_eth_dp_knob(sim, k, v);
		return;
	default:
		break;
	}
	pthread_mutex_lock(&sim->lock);
	switch (k) {
	case MLX5V_SIM_K_HEALTH_SYND:
		mlx5v_sim_health_fatal_locked(sim, v);
		break;
	case MLX5V_SIM_K_NIC_INTERFACE:
		/* -1 leaves the driver-written state alone. */
		if (v >= 0)
			sim->nic_if = v;
		break;
	case MLX5V_SIM_K_PCI_OFFLINE:
		__atomic_store_n(&sim->pci_offline, v != 0, __ATOMIC_RELAXED);
		break;
	case MLX5V_SIM_K_BOOT_MS:
		__atomic_store_n(&sim->boot_deadline_ns,
				 hwsim_now_ns() + (uint64_t)v * 1000000ull, __ATOMIC_RELAXED);
		break;
	case MLX5V_SIM_K_REQUEST_PAGES:
		if (v != 0)
			mlx5v_sim_pages_request_locked(sim, v);
		break;
	case MLX5V_SIM_K_REQUEST_PAGES_EC:
		if (v != 0)
			mlx5v_sim_pages_request_ec_locked(sim, v, MLX5V_SIM_EC_EMBEDDED_CPU);
		break;
	case MLX5V_SIM_K_RELEASE_ALL_PAGES:
		if (v != 0)
			mlx5v_sim_pages_request_ec_locked(sim, 0, MLX5V_SIM_EC_RELEASE_ALL);
		break;
	case MLX5V_SIM_K_PAGE_STORM:
		for (i = 0; i < v; i++)
			mlx5v_sim_pages_request_locked(sim,
				mlx5v_sim_knob(sim, MLX5V_SIM_K_PAGE_STORM_PAGES));
		break;
	case MLX5V_SIM_K_EQ_OVERRUN:
		if (mlx5v_sim_eq_get(sim, v) != NULL)
			mlx5v_sim_eq_overrun(sim, mlx5v_sim_eq_get(sim, v));
		break;
	case MLX5V_SIM_K_CQ_OVERRUN:
		if (v != 0)
			mlx5v_sim_cq_overrun_locked(sim, v);
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&sim->lock);
	/*
	 * Raises queued by the action are signalled after the unlock; the kick lets the engine act
	 * on them now.
	 */
	mlx5v_sim_irq_flush(sim);
	hwsim_engine_kick(sim->engine);
}

void
mlx5v_sim_faults_apply(struct mlx5v_sim *sim)
{
	unsigned int k;
	int64_t v;

	/* Action knobs given at creation (devargs) act once the device exists. */
	for (k = 0; k < MLX5V_SIM_K_MAX; k++) {
		v = mlx5v_sim_knob(sim, k);
		if (v != mlx5v_sim_knob_defs[k].def)
			mlx5v_sim_knob_action(sim, k, v);
	}
}

/* @return 1 if one-shot opcode knob k matches opcode, and disarms it. Lock held. */
static int
mlx5v_sim_knob_match(struct mlx5v_sim *sim, enum mlx5v_sim_knob k, uint16_t opcode)
{
	int64_t op = mlx5v_sim_knob(sim, k);

	if (op == 0 || (op != opcode && op != MLX5V_SIM_ANY_OPCODE))
		return 0;
	hwsim_knob_set(sim->knobs, k, 0);
	return 1;
}

/*
 * Called once per command, under the lock, before the handler runs. fail_* answers
 * without executing; deliv_* fails delivery (nothing runs, output untouched); delay,
 * drop and dup execute the command and act on its completion.
 */
void
mlx5v_sim_faults_cmd(struct mlx5v_sim *sim, uint16_t opcode, uint16_t op_mod,
		     uint8_t *status, uint32_t *syndrome, uint8_t *deliv, uint32_t *delay_ms,
		     int *drop, int *dup)
{
	int64_t op = mlx5v_sim_knob(sim, MLX5V_SIM_K_FAIL_OPCODE);
	int64_t opm = mlx5v_sim_knob(sim, MLX5V_SIM_K_FAIL_OP_MOD);
	int64_t cnt;

	/* fail_op_mod narrows fail_opcode to one op_mod, e.g. the RoCE caps (0x8/0x9). */
	if (op != 0 && (op == opcode || op == MLX5V_SIM_ANY_OPCODE) &&
			(opm < 0 || opm == op_mod)) {
		*status = mlx5v_sim_knob(sim, MLX5V_SIM_K_FAIL_STATUS);
		*syndrome = mlx5v_sim_knob(sim, MLX5V_SIM_K_FAIL_SYNDROME);
		cnt = mlx5v_sim_knob(sim, MLX5V_SIM_K_FAIL_COUNT);
		/*
		 * fail_count -1 fails every match and stays armed; otherwise the last hit disarms
		 * the fault and restores the defaults (count 1, any op_mod) for the next test.
		 */
		if (cnt > 1) {
			hwsim_knob_set(sim->knobs, MLX5V_SIM_K_FAIL_COUNT, cnt - 1);
		} else if (cnt >= 0) {
			hwsim_knob_set(sim->knobs, MLX5V_SIM_K_FAIL_OPCODE, 0);
			hwsim_knob_set(sim->knobs, MLX5V_SIM_K_FAIL_COUNT, 1);
			hwsim_knob_set(sim->knobs, MLX5V_SIM_K_FAIL_OP_MOD, -1);
		}
	}
	if (mlx5v_sim_knob_match(sim, MLX5V_SIM_K_DELIV_OPCODE, opcode))
		*deliv = mlx5v_sim_knob(sim, MLX5V_SIM_K_DELIV_STATUS);
	if (mlx5v_sim_knob_match(sim, MLX5V_SIM_K_DELAY_OPCODE, opcode))
		*delay_ms = mlx5v_sim_knob(sim, MLX5V_SIM_K_DELAY_MS);
	if (mlx5v_sim_knob_match(sim, MLX5V_SIM_K_DROP_OPCODE, opcode))
		*drop = mlx5v_sim_knob(sim, MLX5V_SIM_K_DROP_HOLD) != 0 ? 2 : 1;
	/* A hung firmware keeps every command, as a held drop_opcode keeps one. */
	if (mlx5v_sim_knob(sim, MLX5V_SIM_K_CMD_HANG) != 0)
		*drop = 2;
	if (mlx5v_sim_knob_match(sim, MLX5V_SIM_K_DUP_OPCODE, opcode))
		*dup = 1;
}

int
mlx5v_sim_faults_out_sig(struct mlx5v_sim *sim, uint16_t opcode)
{
	if (!mlx5v_sim_knob_match(sim, MLX5V_SIM_K_BAD_OUT_SIG_OPCODE, opcode))
		return 0;
	return mlx5v_sim_knob(sim, MLX5V_SIM_K_BAD_OUT_SIG_BLOCK) != 0 ?
	       MLX5V_SIM_BAD_SIG_BLOCK : MLX5V_SIM_BAD_SIG_ENTRY;
}

uint32_t
mlx5v_sim_faults_hold_pages(struct mlx5v_sim *sim, uint16_t opcode)
{
	/*
	 * Not before a PAGE_REQUEST can reach the driver (a bring-up command keeps the knob
	 * armed), and never MANAGE_PAGES itself, which is what the wait is for.
	 */
	if (opcode == MLX5V_CMD_OP_MANAGE_PAGES ||
	    mlx5v_sim_eq_subscriber(sim, RTE_PMD_MLX5V_EVENT_PAGE_REQUEST) == MLX5V_SIM_EQN_NONE ||
	    !mlx5v_sim_knob_match(sim, MLX5V_SIM_K_HOLD_FOR_PAGES, opcode))
		return 0;
	return mlx5v_sim_knob(sim, MLX5V_SIM_K_HOLD_PAGES);
}

/* The knob table checks name and range; the action (if any) runs after the lock. */
int
mlx5v_sim_knob_set(struct mlx5v_sim *sim, const char *name, int64_t value)
{
	unsigned int k;
	int ret;

	if (sim == NULL || name == NULL)
		return -ENOENT;
	/* Under the lock, so the engine never sees half of a multi-knob fault. */
	pthread_mutex_lock(&sim->lock);
	ret = hwsim_knobs_set(sim->knobs, name, value);
	pthread_mutex_unlock(&sim->lock);
	if (ret != 0)
		return ret;
	for (k = 0; k < MLX5V_SIM_K_MAX; k++)
		if (strcmp(mlx5v_sim_knob_defs[k].name, name) == 0)
			mlx5v_sim_knob_action(sim, k, value);
	return 0;
}

int
mlx5v_sim_knob_get(struct mlx5v_sim *sim, const char *name, int64_t *value)
{
	if (sim == NULL || value == NULL)
		return -ENOENT;
	return hwsim_knobs_get(sim->knobs, name, value);
}

/* Arm a one-shot opcode knob after its parameters, under the lock. */
static int
mlx5v_sim_arm(struct mlx5v_sim *sim, uint16_t opcode, enum mlx5v_sim_knob op_knob,
	      enum mlx5v_sim_knob k1, int64_t v1, enum mlx5v_sim_knob k2, int64_t v2)
{
	if (sim == NULL || opcode == 0)
		return -EINVAL;
	pthread_mutex_lock(&sim->lock);
	if (k1 != MLX5V_SIM_K_MAX)
		hwsim_knob_set(sim->knobs, k1, v1);
	if (k2 != MLX5V_SIM_K_MAX)
		hwsim_knob_set(sim->knobs, k2, v2);
	/*
	 * The opcode last: it arms the fault, so a reader never sees it with the previous fault's
	 * parameters.
	 */
	hwsim_knob_set(sim->knobs, op_knob, opcode);
	pthread_mutex_unlock(&sim->lock);
	return 0;
}

int
mlx5v_sim_fail_next_cmd(struct mlx5v_sim *sim, uint16_t opcode, uint8_t status,
			uint32_t syndrome)
{
	if (status == 0)
		return -EINVAL;
	pthread_mutex_lock(&sim->lock);
	/* One-shot, whatever fail_count a devargs string left behind. */
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_FAIL_COUNT, 1);
	pthread_mutex_unlock(&sim->lock);
	return mlx5v_sim_arm(sim, opcode, MLX5V_SIM_K_FAIL_OPCODE, MLX5V_SIM_K_FAIL_STATUS,
			     status, MLX5V_SIM_K_FAIL_SYNDROME, syndrome);
}

int
mlx5v_sim_fail_next_delivery(struct mlx5v_sim *sim, uint16_t opcode, uint8_t deliv)
{
	/* Delivery status is 7 bits (status_own >> 1, prm/mlx5 §3.7); 0 would be success. */
	if (deliv == 0 || deliv > 0x7f)
		return -EINVAL;
	return mlx5v_sim_arm(sim, opcode, MLX5V_SIM_K_DELIV_OPCODE, MLX5V_SIM_K_DELIV_STATUS,
			     deliv, MLX5V_SIM_K_MAX, 0);
}

int
mlx5v_sim_delay_next_cmd(struct mlx5v_sim *sim, uint16_t opcode, uint32_t delay_ms)
{
	if (delay_ms == 0 || delay_ms > mlx5v_sim_knob_defs[MLX5V_SIM_K_DELAY_MS].max)
		return -EINVAL;
	return mlx5v_sim_arm(sim, opcode, MLX5V_SIM_K_DELAY_OPCODE, MLX5V_SIM_K_DELAY_MS,
			     delay_ms, MLX5V_SIM_K_MAX, 0);
}

int
mlx5v_sim_drop_next_completion(struct mlx5v_sim *sim, uint16_t opcode, int hold)
{
	return mlx5v_sim_arm(sim, opcode, MLX5V_SIM_K_DROP_OPCODE, MLX5V_SIM_K_DROP_HOLD,
			     hold != 0, MLX5V_SIM_K_MAX, 0);
}

int
mlx5v_sim_dup_next_completion(struct mlx5v_sim *sim, uint16_t opcode)
{
	return mlx5v_sim_arm(sim, opcode, MLX5V_SIM_K_DUP_OPCODE, MLX5V_SIM_K_MAX, 0,
			     MLX5V_SIM_K_MAX, 0);
}

void
mlx5v_sim_release_held(struct mlx5v_sim *sim)
{
	mlx5v_sim_cmd_release_held(sim);
}

int
mlx5v_sim_engine_hold(struct mlx5v_sim *sim, int hold)
{
	if (sim == NULL)
		return -EINVAL;
	if (!hold)
		return hwsim_engine_start(sim->engine);
	hwsim_engine_stop(sim->engine);
	return 0;
}

int
mlx5v_sim_cmd_pass(struct mlx5v_sim *sim)
{
	int work;

	if (sim == NULL)
		return -EINVAL;
	work = mlx5v_sim_cmd_poll(sim);
	return work + mlx5v_sim_irq_flush(sim);
}

void
mlx5v_sim_drop_msix(struct mlx5v_sim *sim, unsigned int vec, unsigned int n)
{
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_MSIX_VEC, vec);
	/*
	 * Not through mlx5v_sim_knob_set(): the knobs only mirror the request for read-back,
	 * hwsim_irq counts it down.
	 */
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_LOSE_MSIX, n);
	hwsim_irq_drop_next(sim->irq, vec, n);
}

void
mlx5v_sim_dup_msix(struct mlx5v_sim *sim, unsigned int vec, unsigned int n)
{
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_MSIX_VEC, vec);
	hwsim_knob_set(sim->knobs, MLX5V_SIM_K_DUP_MSIX, n);
	hwsim_irq_dup_next(sim->irq, vec, n);
}
