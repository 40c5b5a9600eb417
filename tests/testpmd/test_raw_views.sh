#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# examples/raw_views on the simulated ConnectX-3: packets sent from a QP on port 1
# arrive intact in an RWQ behind an RSS QP and a MAC rule (port 1 looped back by the
# control segment's MAC, or port 2 with paired ports and -r 2), with one
# completion event per burst, through the mlx4dv views only. The example must use the
# public API alone: no simulator control calls.
. "$(dirname "$0")/lib.sh"
RAW_VIEWS=$MLXV_BUILD/examples/raw_views/dpdk-raw_views
[ -x "$RAW_VIEWS" ] || skip "dpdk-raw_views not built"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# run_rv OUTFILE [args...]: the example exits by itself; 0 means PASS.
run_rv() {
	o=$1
	shift
	(cd / && timeout 60 "$RAW_VIEWS" "$@") >"$o" 2>&1
	rc=$?
	cat "$o"
	return $rc
}

if nm -D --undefined-only "$RAW_VIEWS" | grep -E ' (mlx4v_|mlx4dv_|ibv_)'; then
	fail "the example must use only rte_pmd_mlx4v_* and the views"
fi

# The documented command line: loopback, 64 packets in 4 bursts of 16.
run_rv "$out" $EAL_BASE --vdev=mlx4v_sim0,ports=2 || fail "dpdk-raw_views exited with $?"
expect "$out" '^raw_views: mlx4v_sim0: QP 0x[0-9a-f]+ on port 1 .*RWQ 0x[0-9a-f]+ on port 2 .*RWQ 0x[0-9a-f]+ on port 1 '
expect "$out" '^raw_views: sent 64 packets of 128 bytes in 4 doorbells, 4 send CQEs$'
expect "$out" '^raw_views: RWQ 0x[0-9a-f]+ on port 1 received 64 packets$'
expect "$out" '^raw_views: received 64, bad 0, error CQEs 0, completion events 4$'
expect "$out" '^raw_views: PASS$'

# Paired ports, rings wrapped many times (SQ 128, RWQ 256, CQ 1024 entries).
run_rv "$out" $EAL_BASE --vdev=mlx4v_sim0,ports=2,mode=pair -- -n 3000 -b 48 -s 1514 -r 2 ||
	fail "dpdk-raw_views (pair) exited with $?"
expect "$out" '^raw_views: sent 3000 packets of 1514 bytes in 63 doorbells, 63 send CQEs$'
expect "$out" '^raw_views: RWQ 0x[0-9a-f]+ on port 2 received 3000 packets$'
expect "$out" '^raw_views: received 3000, bad 0, error CQEs 0, completion events 63$'
expect "$out" '^raw_views: PASS$'

# Without a rule nothing arrives: the rule on port 2 of looped-back ports sees nothing.
run_rv "$out" $EAL_BASE --vdev=mlx4v_sim0,ports=2 -- -n 10 -b 5 -r 2 &&
	fail "dpdk-raw_views received without a rule on port 1"
expect "$out" '^raw_views: received 0, '

# A one-port device: no port 2, loopback on port 1 only.
run_rv "$out" $EAL_BASE --vdev=mlx4v_sim0,ports=1 -- -n 10 -b 3 ||
	fail "dpdk-raw_views (one port) exited with $?"
expect "$out" '^raw_views: RWQ 0x[0-9a-f]+ on port 1 received 10 packets$'
expect "$out" '^raw_views: received 10, bad 0, error CQEs 0, completion events 4$'

# Bad use exits non-zero with a reason.
run_rv "$out" $EAL_BASE --vdev=mlx4v_sim0 -- -d nosuch0 && fail "a missing device must fail"
expect "$out" 'raw_views: nosuch0: No such device'
run_rv "$out" $EAL_BASE --vdev=mlx4v_sim0 -- -s 9000 && fail "a bad size must fail"
expect "$out" '^usage: dpdk-raw_views'
exit 0
