#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Debian's unmodified dpdk-test loads our drivers with -d and runs pmd_perf_autotest on two
# simulated ports cabled to each other by the pair wire (usage: test_pmd_perf.sh KIND, KIND as
# sim_kind in lib.sh): every packet it injects must come back, and it must print "Test OK".
# Its cycles-per-packet figure is printed for the record; the benchmark pages quote it, the
# test asserts nothing about it. The test sends for two seconds at the line rate of the link
# it reads: speed=1000 (1 Gb/s, 3 million packets) keeps that within what the simulator moves
# in a reasonable time; at the default 40000 the run does not end in any useful time (the
# simulators' pages name the knob: doc/guides/sim/mlx4v_sim.rst, speed=). KIND vfio: the
# ports on two emulated PCI functions through our vfio-pci backend.

. "$MLXV_SRC/tests/testpmd/lib.sh"
kind=$1
sim_kind "$kind"

DPDK_TEST=/usr/bin/dpdk-test
[ -x "$DPDK_TEST" ] || skip "no $DPDK_TEST (Debian package dpdk-dev)"
work=$(mktemp -d) || fail "mktemp"
plugins=$(stage_plugins) || fail "cannot stage plugins"
trap 'rm -rf "$work" "$plugins"' EXIT
out=$work/dpdk-test.log

printf 'pmd_perf_autotest\nquit\n' | (cd / && timeout 300 \
	$(sim_launcher "$kind" pair pair speed=1000) "$DPDK_TEST" $(sim_eal "$kind" 512) \
	-l 0-1 -d "$plugins" $(sim_pair "$kind" speed=1000)) >"$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 0 ] || fail "dpdk-test exited with $rc"
expect "$out" '^Test OK'
reject "$out" '^Test Failed'
grep -E 'Result: [0-9]+ cycles per packet' "$out" || fail "no cycles-per-packet result"
echo "pmd_perf_autotest on $kind ports OK"
