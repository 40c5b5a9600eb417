#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Driver-side instructions per packet of dpdk-mlx4v-bench, counted by callgrind
# (for machines without perf hardware events). Only the data-path functions
# mlx4v_bench_dp_* (per-packet work) and mlx4v_bench_idle_* (CQ owner checks of
# polls that found nothing new) are collected; the simulator thread, EAL and
# setup are not.
# Usage: callgrind.sh <build dir> [packets] [burst] [size]
set -e
build=${1:?usage: callgrind.sh <build dir> [packets] [burst] [size]}
pkts=${2:-100000}
burst=${3:-32}
size=${4:-64}
bench=$(realpath "$build")/app/mlx4v-bench/dpdk-mlx4v-bench
cg=$(mktemp)
log=$(mktemp)
trap 'rm -f "$cg" "$log"' EXIT
# --fair-sched: the simulator's engine thread must run while the main thread polls.
(cd / && valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$cg" \
	--toggle-collect='mlx4v_bench_dp_*' --toggle-collect='mlx4v_bench_idle_*' \
	"$bench" --no-huge -m 256 --no-pci --no-shconf --log-level=lib.eal:error -l 0 \
	--vdev=mlx4v_sim0,ports=2 -- -n "$pkts" -b "$burst" -s "$size" -t) >"$log" 2>&1
grep '^mlx4v-bench:' "$log"
rx=$(sed -n 's/^mlx4v-bench: mlx4v_sim0, \([0-9]*\) packets.*/\1/p' "$log")
[ -n "$rx" ] && [ "$rx" -gt 0 ] || { cat "$log"; echo "no packets received" >&2; exit 1; }
# One line per source file and function: code inlined from headers (rte_pmd_mlx4v_rawdp.h,
# mlx4dv.h, ...) is counted too. Only the first line of an object names it in [...].
callgrind_annotate --threshold=100 --auto=no "$cg" |
	sed -n 's/^ *\([0-9,]*\) .*:\(mlx4v_bench_[a-z_]*\)\( \[.*\]\)\{0,1\}$/\2 \1/p' | tr -d ',' |
	awk -v rx="$rx" '{ ir[$1] += $2 }
	END {
		for (f in ir) {
			printf "callgrind: %-28s %12d Ir  %8.1f Ir/packet\n", f, ir[f], ir[f] / rx
			if (f ~ /_dp_/) dp += ir[f]
		}
		printf "callgrind: driver side (mlx4v_bench_dp_*) %.1f instructions/packet", dp / rx
		printf " over %d packets\n", rx
	}'
