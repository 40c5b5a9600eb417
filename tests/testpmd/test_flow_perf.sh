#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Debian's dpdk-test-flow-perf, unmodified, with our plugins (-d) on one simulated port of
# KIND: it configures the port with RSS types RTE_ETH_RSS_IP (which ethdev checks against
# flow_type_rss_offloads), then inserts RULES rules and deletes them all; an insertion or a
# deletion the PMD refuses ends the program with an error. The rates are printed, not checked.
# doc/guides/bench/flow_perf.rst.
#
# usage: test_flow_perf.sh mlx5v|mlx4v [0|1]: for mlx5v, the flow_async devarg (default 1)
#   mlx5v  --ether --ipv4 --udp --queue (one rule per IPv4 source), 1000 rules all at
#          priority 0: more than one flow group of the priority and mask holds
#   mlx4v  --ether --queue: the only pattern of flow-perf net_mlx4v takes, as DPDK's mlx4
#          (its ETH item matches every frame, and nothing may follow such an item)
. "$MLXV_SRC/tests/testpmd/lib.sh"

FLOW_PERF=/usr/bin/dpdk-test-flow-perf
[ -x "$FLOW_PERF" ] || skip "no $FLOW_PERF (Debian package dpdk)"
case ${1:-} in
mlx5v) pattern="--ether --ipv4 --udp" RULES=1000
	vdev=--vdev=mlx5v_sim0,wire=none,flow_async=${2:-1} ;;
mlx4v) pattern=--ether vdev=--vdev=mlx4v_sim0,ports=1,wire=none RULES=100 ;;
*) fail "usage: $0 mlx5v|mlx4v" ;;
esac
out=$(mktemp)
plugins=$(stage_plugins) || fail "cannot stage the plugins"
trap 'rm -rf "$out" "$plugins"' EXIT

# shellcheck disable=SC2086
(cd / && timeout 120 "$FLOW_PERF" -d "$plugins" $EAL_BASE $vdev -- --ingress $pattern \
	--queue --rules-count=$RULES --rules-batch=$((RULES / 2)) --deletion) >"$out" 2>&1
rc=$?
cat "$out"
[ $rc = 0 ] || fail "dpdk-test-flow-perf exited with $rc"
reject "$out" "can't be created|cannot configure|Error"
expect "$out" "The time for creating $RULES in rules"
expect "$out" "The time for deleting $RULES rules"
expect "$out" "Total flows insertion rate"
expect "$out" "Total deletion rate"
expect "$out" '^Bye'
