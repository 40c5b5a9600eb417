#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Driver instructions per packet of io forwarding between two ports (Rx burst + Tx burst,
# 64-byte frames), counted by callgrind in one run per PMD: net_mlx5v on two mlx5v_sim
# ports cabled by a pair wire, and DPDK's net_null and net_ring as the floor. Only
# bench_rx()/bench_tx() of app/fwd-bench are collected (the ethdev inline wrapper and the
# PMD's burst function); for net_mlx5v the simulator's work that runs on the caller's thread
# behind a doorbell (the device's side) is toggled off again, and its engine thread is not
# counted. doc/guides/bench/mlx5v_fwd.rst.
# Usage: devtools/bench-fwd.sh <build dir> [packets] [burst]
set -e
build=$(realpath "${1:?usage: bench-fwd.sh <build dir> [packets] [burst]}")
pkts=${2:-200000}
burst=${3:-32}
bench=$build/app/fwd-bench/dpdk-mlxv-fwd-bench
command -v valgrind >/dev/null || { echo "bench-fwd: valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# EAL refuses -d paths under world-writable directories: a private copy of our drivers.
plugins=$(mktemp -d -p "${HOME:-/root}" mlxv-plugins.XXXXXX)
trap 'rm -rf "$work" "$plugins"' EXIT
find "$build/drivers" -maxdepth 1 \( -type f -o -type l \) -name 'librte_*.so*' \
	-exec cp -P {} "$plugins" \;

# run NAME EXTRA_TOGGLES EAL_ARGS...
run() {
	name=$1
	toggles=$2
	shift 2
	# --fair-sched: the simulator's engine thread must run while the main thread polls.
	(cd / && valgrind --tool=callgrind --fair-sched=yes \
		--callgrind-out-file="$work/$name.cg" \
		--toggle-collect=bench_rx --toggle-collect=bench_tx $toggles \
		"$bench" --no-huge -m 512 --no-pci --no-shconf -l 0 \
		--log-level=lib.eal:error "$@" -- -n "$pkts" -b "$burst") \
		>"$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
	rx=$(sed -n 's/^fwd-bench: .*, \([0-9]*\) packets received.*/\1/p' "$work/$name.log")
	ir=$(callgrind_annotate "$work/$name.cg" 2>/dev/null |
		sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ',')
	[ -n "$rx" ] && [ "$rx" -gt 0 ] && [ -n "$ir" ] ||
		{ cat "$work/$name.log"; echo "bench-fwd: $name: no result" >&2; exit 1; }
	awk -v n="$name" -v ir="$ir" -v rx="$rx" -v b="$burst" 'BEGIN {
		printf "bench-fwd: %-10s %6.1f instructions/packet (Rx+Tx, burst %d, %d packets)\n",
		       n, ir / rx, b, rx }'
}

run net_null "" --vdev=net_null0 --vdev=net_null1
run net_ring "" --vdev=net_ring0 --vdev=net_ring1
run net_mlx5v "--toggle-collect=mlx5v_sim_hw_db_notify" -d "$plugins" \
	--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1 --vdev=mlx5v_sim1,wire=pair:mlx5v_sim0
