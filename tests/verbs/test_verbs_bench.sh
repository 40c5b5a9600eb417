#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The forwarding benchmark's verbs rows (devtools/bench-fwd.sh, doc/guides/bench/
# mlx4_verbs_fwd.rst) with a small count: DPDK's net_mlx4 and our net_mlx4v on the rdma-core
# backend, on the same emulated function under callgrind, in one invocation; both figures
# must appear, each with every frame received, the empty polls accounted for.
set -u
SRC=${MLXV_SRC:-$(dirname "$0")/../..}
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

. "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || { echo "SKIP: valgrind is not installed"; exit 77; }
if ! ls /usr/lib/*/dpdk/pmds-*/librte_net_mlx4.so >/dev/null 2>&1; then
	echo "SKIP: the distribution's net_mlx4 plugin is not installed"
	exit 77
fi

BENCH_FWD_ONLY="net_mlx4 net_mlx4v_verbs" timeout 280 sh "$SRC/devtools/bench-fwd.sh" \
	"$MLXV_BUILD" 1000 >"$out" 2>&1
check "bench-fwd exits 0" 0 $?
fig() {
	sed -n "s/^bench-fwd: $1 *\([0-9.]*\) instructions\/packet (Rx+Tx, burst 32, \([0-9]*\) .*/\1 \2/p" \
		"$out"
}
for pmd in net_mlx4 net_mlx4v_verbs; do
	f=$(fig $pmd)
	# A figure (per received frame) and at least the requested count received.
	check "$pmd: a figure of 1000 frames or more" yes \
		"$(echo "$f" | awk '$1 > 0 && $2 >= 1000 { print "yes" }')"
done
[ $fail = 0 ] || cat "$out"
exit $fail
