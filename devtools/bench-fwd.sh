#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Driver instructions per packet of io forwarding between two ports (Rx burst + Tx burst,
# 64-byte frames), counted by callgrind in one run per PMD: ours on two simulated ports
# cabled by a pair wire, and DPDK's net_null and net_ring as the floor. Only
# bench_rx()/bench_tx() of app/fwd-bench are collected (the ethdev inline wrapper and the
# PMD's burst function) of the main thread: for our PMDs the simulator's work that runs on
# the caller's thread behind a doorbell (the device's side) is toggled off again, and the
# other threads (the simulator's engine, EAL's) are counted apart and left out. A device
# that delivers asynchronously (mlx4v_sim) is polled only once a burst is waiting
# (fwd-bench -w), so that its empty polls are not counted.
# doc/guides/bench/mlx5v_fwd.rst, doc/guides/bench/mlx4v_fwd.rst.
# Usage: devtools/bench-fwd.sh <build dir> [packets] [burst]
# Environment: BENCH_FWD_ONLY="name ..." runs only those PMDs of the list below;
# BENCH_FWD_KEEP=<dir> keeps the main thread's callgrind file there (<name>.cg) for
# callgrind_annotate.
set -e
build=$(realpath "${1:?usage: bench-fwd.sh <build dir> [packets] [burst]}")
pkts=${2:-200000}
burst=${3:-32}
bench=$build/app/fwd-bench/dpdk-mlxv-fwd-bench
command -v valgrind >/dev/null || { echo "bench-fwd: valgrind is not installed" >&2; exit 1; }

# The PMDs, one per line: name | callgrind options | fwd-bench options | EAL arguments,
# where @plugins stands for "-d <our drivers>" (staged as the testpmd tests do it,
# tests/testpmd/lib.sh) and @burst for the burst size.
pmds='
net_null | | | --vdev=net_null0 --vdev=net_null1
net_ring | | | --vdev=net_ring0 --vdev=net_ring1
net_mlx5v | --toggle-collect=mlx5v_sim_hw_db_notify | | @plugins
	--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1,wqe_inline_mode=2,empw=1
	--vdev=mlx5v_sim1,wire=pair:mlx5v_sim0,wqe_inline_mode=2,empw=1
net_mlx5v_nocomp | --toggle-collect=mlx5v_sim_hw_db_notify | | @plugins
	--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1,wqe_inline_mode=2,empw=1,rxq_cqe_comp_en=0
	--vdev=mlx5v_sim1,wire=pair:mlx5v_sim0,wqe_inline_mode=2,empw=1,rxq_cqe_comp_en=0
net_mlx5v_sse | --toggle-collect=mlx5v_sim_hw_db_notify | | @plugins
	--force-max-simd-bitwidth=128
	--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1,wqe_inline_mode=2,empw=1
	--vdev=mlx5v_sim1,wire=pair:mlx5v_sim0,wqe_inline_mode=2,empw=1
net_mlx5v_l2 | --toggle-collect=mlx5v_sim_hw_db_notify | | @plugins
	--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1 --vdev=mlx5v_sim1,wire=pair:mlx5v_sim0
net_mlx4v | | -w @burst | @plugins --vdev=mlx4v_sim0,ports=2,mode=pair
'

# shellcheck disable=SC2034 # read by lib.sh
MLXV_BUILD=$build
# shellcheck source=tests/testpmd/lib.sh
. "$(dirname "$0")/../tests/testpmd/lib.sh"
work=$(mktemp -d)
plugins=
trap 'rm -rf "$work" ${plugins:+"$plugins"}' EXIT
plugins=$(stage_plugins) || { echo "bench-fwd: cannot stage our drivers" >&2; exit 1; }

# run NAME TOGGLES EAL_ARGS BENCH_OPTIONS
run() {
	name=$1
	# --fair-sched: the simulator's engine thread must run while the main thread polls;
	# collection is switched on for all threads alike, so each gets its own file and only
	# the main thread's (-01) is read.
	# shellcheck disable=SC2086 # the options and arguments are word lists
	(cd / && valgrind --tool=callgrind --fair-sched=yes --separate-threads=yes \
		--callgrind-out-file="$work/$name.cg" \
		--toggle-collect=bench_rx --toggle-collect=bench_tx $2 \
		"$bench" --no-huge -m 512 --no-pci --no-shconf -l 0 \
		--log-level=lib.eal:error $3 -- -n "$pkts" -b "$burst" $4) \
		>"$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
	rx=$(sed -n 's/^fwd-bench: .*, \([0-9]*\) packets received.*/\1/p' "$work/$name.log")
	ir=$(callgrind_annotate "$work/$name.cg-01" 2>/dev/null |
		sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ',')
	[ -n "$rx" ] && [ "$rx" -gt 0 ] && [ -n "$ir" ] ||
		{ cat "$work/$name.log"; echo "bench-fwd: $name: no result" >&2; exit 1; }
	[ -z "$BENCH_FWD_KEEP" ] || cp "$work/$name.cg-01" "$BENCH_FWD_KEEP/$name.cg"
	awk -v n="$name" -v ir="$ir" -v rx="$rx" -v b="$burst" 'BEGIN {
		printf "bench-fwd: %-10s %6.1f instructions/packet (Rx+Tx, burst %d, %d packets)\n",
		       n, ir / rx, b, rx }'
}

# Entries may continue on lines that start with a tab.
echo "$pmds" | awk '/^\t/ { line = line " " $0; next } { if (line != "") print line; line = $0 }
	END { if (line != "") print line }' | while IFS='|' read -r name toggles opts args; do
	name=$(printf '%s' "$name" | tr -d ' \t')
	[ -n "$name" ] || continue
	case " ${BENCH_FWD_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
	run "$name" "$toggles" "$(echo "$args" | sed "s|@plugins|-d $plugins|")" \
		"$(echo "$opts" | sed "s|@burst|$burst|")" </dev/null
done
