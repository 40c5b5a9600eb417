/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 dpdk-mlxv authors
 */

/** @file testpmd commands "mlx4v sim ...": the simulated ConnectX-3's counters and knobs. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <rte_common.h>
#include <rte_ether.h>

#include "testpmd.h"

#include "mlxv_testpmd.h"
#include "mlx4v_sim.h"

TP_NUM_FAMILY("mlx4v");

/* ---- mlx4v sim show <dev> / mlx4v sim knob <dev> <knob> <value> ---- */

/* One line per port: its wire, link state and speed, MAC and wire counters. */
static void
tp_sim_show_ports(const char *name, struct mlx4v_sim *sim)
{
	struct mlx4v_sim_port_stats ps;
	struct rte_ether_addr mac;
	char macs[RTE_ETHER_ADDR_FMT_SIZE];
	unsigned int p;

	for (p = 1; p <= mlx4v_sim_ports(sim); p++) {
		if (mlx4v_sim_port_mac(sim, p, &mac) != 0 ||
		    mlx4v_sim_port_stats_get(sim, p, &ps) != 0)
			continue;
		rte_ether_format_addr(macs, sizeof(macs), &mac);
		printf("mlx4v: %s: port %u: wire=%s, link %s %u Mb/s, mac %s, mtu %u, "
		       "rx_link_down %" PRIu64 ", rx_fcs_bad %" PRIu64 ", rx_over_mtu %" PRIu64
		       ", tx_link_down %" PRIu64 ", events up %" PRIu64 " down %" PRIu64 "\n",
		       name, p, mlx4v_sim_port_wire(sim, p),
		       mlx4v_sim_link_get(sim, p) == 1 ? "up" : "down",
		       mlx4v_sim_link_speed(sim, p), macs, mlx4v_sim_port_mtu_get(sim, p),
		       ps.rx_link_down, ps.rx_fcs_bad, ps.rx_over_mtu, ps.tx_link_down,
		       ps.link_up_events, ps.link_down_events);
	}
}

static void
tp_sim_show(const char *name, struct mlx4v_sim *sim)
{
	static const char *const kinds[MLX4V_SIM_OBJ_MAX] = {
		"pd", "mr", "cq", "qp", "srq", "wq", "ind_table", "flow",
	};
	struct mlx4v_sim_stats st;
	unsigned int k;
	uint64_t n;

	printf("mlx4v: %s: %u port(s); live objects:", name, mlx4v_sim_ports(sim));
	for (k = 0; k < MLX4V_SIM_OBJ_MAX; k++)
		printf(" %s %u", kinds[k], mlx4v_sim_live_objects(sim, k));
	printf("\n");
	if (mlx4v_sim_stats_get(sim, &st) == 0)
		printf("mlx4v: %s: doorbells %" PRIu64 ", tx %" PRIu64 " packets %" PRIu64
		       " bytes, rx %" PRIu64 " packets %" PRIu64 " bytes, rx_dropped %" PRIu64
		       ", cqes %" PRIu64 " (errors %" PRIu64 ", dropped %" PRIu64 "), cq errors %"
		       PRIu64 ", events %" PRIu64 " (lost %" PRIu64 "), arms %" PRIu64 "\n", name,
		       st.doorbells, st.tx_packets, st.tx_bytes, st.rx_packets, st.rx_bytes,
		       st.rx_dropped, st.cqes, st.err_cqes, st.cqe_dropped, st.cq_errors, st.events,
		       st.events_lost, st.arms);
	tp_sim_show_ports(name, sim);
	printf("mlx4v: %s: misuse total %" PRIu64, name, mlx4v_sim_misuse_total(sim));
	for (k = 0; k < MLX4V_SIM_MISUSE_MAX; k++) {
		n = mlx4v_sim_misuse_count(sim, k);
		if (n != 0)
			printf(", %s %" PRIu64, mlx4v_sim_misuse_name(k), n);
	}
	printf("\n");
}

/* Show (data NULL) or set a knob: <dev> in type, <knob> in type2, <value> in snum. */
static void
tp_sim_do(void *parsed_result, __rte_unused struct cmdline *cl, void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	const char *knob = res->type2;
	int64_t value = res->snum;
	struct mlx4v_sim *sim = mlx4v_sim_get(name);
	int ret;

	if (sim == NULL) {
		fprintf(stderr, "mlx4v: \"%s\" is not a simulated mlx4v device\n", name);
		return;
	}
	if (data == NULL) {
		mlx4v_sim_poll(sim);
		tp_sim_show(name, sim);
		return;
	}
	ret = mlx4v_sim_knob_set(sim, knob, value);
	if (ret)
		fprintf(stderr, "mlx4v: %s: knob %s=%" PRId64 ": %s\n", name, knob, value,
			ret == -ENOENT ? "no such knob" :
			ret == -ERANGE ? "value out of range" : strerror(-ret));
	else
		printf("mlx4v: %s: knob %s = %" PRId64 "\n", name, knob, value);
}

TP_CMD(tp_sim)

TP_NUM_CMD(tp_sim_show_cmd, tp_sim_parsed, "sim", "show", NULL, "mlx4v sim show <dev>",
	   (void *)&tp_num_any);
TP_NUM_CMD(tp_sim_knob_cmd, tp_sim_parsed, "sim", "knob", (void *)1,
	   "mlx4v sim knob <dev> <knob> <value>", (void *)&tp_num_any, (void *)&tp_num_any2,
	   (void *)&tp_num_s64);

/* ---- mlx4v sim link <dev> <port> up|down|flap ---- */

static void
tp_sim_link_do(void *parsed_result, __rte_unused struct cmdline *cl, __rte_unused void *data)
{
	struct tp_num_result *res = parsed_result;
	const char *name = res->type;
	uint32_t port = res->num[0];
	const char *what = res->type2;
	struct mlx4v_sim *sim = mlx4v_sim_get(name);
	int ret;

	if (sim == NULL) {
		fprintf(stderr, "mlx4v: \"%s\" is not a simulated mlx4v device\n", name);
		return;
	}
	if (port < 1 || port > mlx4v_sim_ports(sim)) {
		fprintf(stderr, "mlx4v: %s: no port %u (ports 1..%u)\n", name, port,
			mlx4v_sim_ports(sim));
		return;
	}
	if (strcmp(what, "flap") == 0)
		ret = mlx4v_sim_link_flap(sim, port);
	else
		ret = mlx4v_sim_link_set(sim, port, strcmp(what, "up") == 0);
	if (ret != 0)
		fprintf(stderr, "mlx4v: %s: port %u: link %s: %s\n", name, port, what,
			ret == -ENOTSUP ? "wire=none has no cable" :
			ret == -ENOLINK ? "the cable is out" : strerror(-ret));
	else
		printf("mlx4v: %s: port %u: link %s, now %s\n", name, port, what,
		       mlx4v_sim_link_get(sim, port) == 1 ? "up" : "down");
}

TP_CMD(tp_sim_link)

static cmdline_parse_token_string_t tp_sim_link_what =
	TOKEN_STRING_INITIALIZER(struct tp_num_result, type2, "up#down#flap");
TP_NUM_CMD(tp_sim_link_cmd, tp_sim_link_parsed, "sim", "link", NULL,
	   "mlx4v sim link <dev> <port> up|down|flap", (void *)&tp_num_any, (void *)&tp_num_0,
	   (void *)&tp_sim_link_what);

static struct testpmd_driver_commands mlx4v_sim_cmds = {
	.commands = {
		{ &tp_sim_show_cmd, "mlx4v sim show (dev)\n"
		  "    Simulator: live objects, traffic counters and misuse counters.\n" },
		{ &tp_sim_knob_cmd, "mlx4v sim knob (dev) (knob) (value)\n"
		  "    Simulator: set a fault knob (fail_create_cq, lose_cq_event, ...).\n" },
		{ &tp_sim_link_cmd, "mlx4v sim link (dev) (port) (up|down|flap)\n"
		  "    Simulator: plug, pull or flap the cable of a port (port events follow).\n" },
		{ NULL, NULL },
	},
};
TESTPMD_ADD_DRIVER_COMMANDS(mlx4v_sim_cmds)
