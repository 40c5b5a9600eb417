#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Driver instructions per packet of net_mlx4v's bursts (mlx4v_rx.c, mlx4v_tx.c): io
# forwarding between the two ports of one mlx4v_sim (mode=pair), 64-byte frames, bursts of
# 32, counted by callgrind. The loop is the unit program net_mlx4v_dp's forwarding case
# (MLX4V_DP_FWD=<packets>), which calls the bursts on queues made as the PMD makes them; only
# bench_rx() and bench_tx() are collected, and bench_rx() runs only when a CQE is waiting:
# the simulator's engine thread delivers asynchronously (its doorbells are plain stores it
# polls), so most polls of a busy loop are empty. Their cost is counted apart, on the
# sampled bench_idle() calls. The floor (net_null, net_ring) comes from devtools/bench-fwd.sh
# on the same machine. doc/guides/bench/mlx4v_fwd.rst.
# Usage: devtools/bench-mlx4v-dp.sh <build dir> [packets]
set -e
build=$(realpath "${1:?usage: bench-mlx4v-dp.sh <build dir> [packets]}")
pkts=${2:-200000}
ut=$build/tests/unit/ut-net_mlx4v_dp
command -v valgrind >/dev/null || { echo "bench-mlx4v-dp: valgrind is not installed" >&2; exit 1; }
[ -x "$ut" ] || { echo "bench-mlx4v-dp: $ut not built" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --fair-sched: the simulator's engine thread must run while the main thread polls.
(cd / && MLX4V_DP_FWD=$pkts DPDK_TEST=net_mlx4v_dp_autotest valgrind --tool=callgrind \
	--fair-sched=yes --callgrind-out-file="$work/dp.cg" --toggle-collect=bench_rx \
	--toggle-collect=bench_tx --toggle-collect=bench_idle "$ut" --no-huge -m 512 --no-pci \
	--no-shconf -l 0 --log-level=lib.eal:error) >"$work/dp.log" 2>&1 ||
	{ cat "$work/dp.log"; exit 1; }
rx=$(sed -n 's/^fwd: \([0-9]*\) packets received.*/\1/p' "$work/dp.log")
idle=$(sed -n 's/^fwd: .*(\([0-9]*\) of them measured).*/\1/p' "$work/dp.log")
# Inclusive instructions of each collected function, from the call graph.
incl() {
	callgrind_annotate --inclusive=yes "$work/dp.cg" 2>/dev/null |
		sed -n "s/^ *\([0-9,]*\) .*:$1 .*/\1/p" | head -1 | tr -d ','
}
irx=$(incl bench_rx)
itx=$(incl bench_tx)
iidle=$(incl bench_idle)
[ -n "$rx" ] && [ "$rx" -gt 0 ] && [ -n "$irx" ] && [ -n "$itx" ] ||
	{ cat "$work/dp.log"; echo "bench-mlx4v-dp: no result" >&2; exit 1; }
awk -v rx="$rx" -v irx="$irx" -v itx="$itx" -v ii="${iidle:-0}" -v ni="${idle:-0}" 'BEGIN {
	printf "bench-mlx4v-dp: net_mlx4v %6.1f instructions/packet ", (irx + itx) / rx
	printf "(Rx %.1f + Tx %.1f, burst 32, %d packets)\n", irx / rx, itx / rx, rx
	if (ni > 0)
		printf "bench-mlx4v-dp: empty poll %.1f instructions (%d sampled)\n", ii / ni, ni }'
