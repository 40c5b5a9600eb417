#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# examples/eq_events on the simulated ConnectX: it runs and exits by itself, and prints
# each event (GEN_EQE, a simulator port event, a CQ completion) after an epoll wake-up.
. "$(dirname "$0")/lib.sh"
app=$MLXV_BUILD/examples/eq_events/dpdk-eq_events
[ -x "$app" ] || skip "examples/dpdk-eq_events not built"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
(cd / && timeout 60 "$app" $EAL_BASE --vdev=mlx5v_sim0,msix=8) >"$out" 2>&1 ||
	{ cat "$out"; fail "dpdk-eq_events exited with $?"; }
cat "$out"
expect "$out" 'mlx5v_sim0: UAR page [0-9]+, MSI vector 1 \(eventfd [0-9]+\)'
expect "$out" 'mlx5v_sim0: EQ [0-9]+ created, 128 entries'
expect "$out" '^EQ [0-9]+: EQE 0: type 0x09'
expect "$out" 'port 1 changed: DOWN'
expect "$out" '^EQ [0-9]+: EQE 1: type 0x22'
expect "$out" 'port 1 changed: ACTIVE'
expect "$out" 'completion on CQ [0-9]+: 1 CQE\(s\), CQ consumer index 1'
expect "$out" 'mlx5v_sim0: 4 event\(s\) received, 0 failure\(s\)'
reject "$out" 'no interrupt within'
reject "$out" 'still alive at removal|leaked'
echo PASS
