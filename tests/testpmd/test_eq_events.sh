#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# examples/eq_events on the simulated ConnectX: it runs and exits by itself, and prints
# each event after an epoll wake-up. Two come from GEN_EQE, four from sources firmware
# raises on its own (GEN_EQE is unverified there, doc/guides/nics/running_on_hardware.rst):
# the port's cable pulled and plugged back (PORT_CHANGE), and two completions of a CQ bound
# to the EQ, the second after the handler re-armed the CQ.
. "$(dirname "$0")/lib.sh"
app=$MLXV_BUILD/examples/eq_events/dpdk-eq_events
[ -x "$app" ] || skip "examples/dpdk-eq_events not built"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
(cd / && timeout 60 "$app" $EAL_BASE --vdev=mlx5v_sim0,msix=8) >"$out" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$out"; fail "dpdk-eq_events exited with $rc"; }
cat "$out"

# expect_step FILE STEP REGEX: between the line starting "-- STEP" and the next "-- " line,
# a line matches REGEX (each event is printed under the step that raised it).
expect_step() {
	STEP="-- $2" RE=$3 awk 'index($0, ENVIRON["STEP"]) == 1 { in_step = 1; next }
		/^-- / { in_step = 0 } in_step && $0 ~ ENVIRON["RE"] { f = 1 }
		END { exit !f }' "$1" || fail "expected /$3/ under \"-- $2\""
}

expect "$out" 'mlx5v_sim0: UAR page [0-9]+, MSI vector 1 \(eventfd [0-9]+\)'
expect "$out" 'mlx5v_sim0: EQ [0-9]+ created, 128 entries'
expect_step "$out" 'GEN_EQE: port 1 down' '^EQ [0-9]+: EQE 0: type 0x09'
expect_step "$out" 'GEN_EQE: port 1 down' 'port 1 changed: DOWN'
expect_step "$out" 'GEN_EQE: a general event' '^EQ [0-9]+: EQE 1: type 0x22'
expect_step "$out" 'simulator: cable pulled' '^EQ [0-9]+: EQE 2: type 0x09'
expect_step "$out" 'simulator: cable pulled' 'port 1 changed: DOWN'
expect_step "$out" 'simulator: cable plugged' '^EQ [0-9]+: EQE 3: type 0x09'
expect_step "$out" 'simulator: cable plugged' 'port 1 changed: ACTIVE'
expect_step "$out" 'simulator: a completion on CQ' '^EQ [0-9]+: EQE 4: type 0x00'
expect_step "$out" 'simulator: a completion on CQ' \
	'completion on CQ [0-9]+: 1 CQE\(s\), CQ consumer index 1'
expect_step "$out" 'simulator: a second completion' '^EQ [0-9]+: EQE 5: type 0x00'
expect_step "$out" 'simulator: a second completion' \
	'completion on CQ [0-9]+: 1 CQE\(s\), CQ consumer index 2'
expect "$out" 'mlx5v_sim0: 6 event\(s\) received, 0 failure\(s\)'
reject "$out" 'no interrupt within'
reject "$out" 'still alive at removal|leaked|driver bug'
echo PASS
