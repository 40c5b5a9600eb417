#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Device removal with live mlx4v objects: quit testpmd while two handles on the
# simulated ConnectX-3 still hold a PD, an MR, CQs (one with events, armed and
# fired), an SRQ, QPs in RTS with traffic in flight and a WQ in RDY. Process exit
# (rte_eal_cleanup -> vdev remove) must force-release them all with one warning,
# stop the device engine first, and exit 0 - no crash, no hang. Then the same with
# "device detach" first: old ids refused, the name gone, a clean exit after.
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

[ -x "$TESTPMD" ] || skip "no dpdk-testpmd in $MLXV_BUILD/app"

cmds='mlx4v open mlx4v_sim0
mlx4v pd create 0
mlx4v mr create 0 4096
mlx4v cq create 0 64 0 1
mlx4v cq create 0 64 0 0
mlx4v srq create 0 32 1
mlx4v qp create 0 0 0 1 64 16
mlx4v qp create 0 1 1 1 16 srq 0
mlx4v wq create 0 1 2 64 1
mlx4v qp modify 0 init
mlx4v qp modify 0 rtr
mlx4v qp modify 0 rts
mlx4v wq modify 0 rdy
mlx4v post qp 0 4
mlx4v arm 0
mlx4v send 0 64 2
mlx4v event 0
mlx4v post rwq 0 8
mlx4v open mlx4v_sim0
mlx4v pd create 1
mlx4v list
quit
'

# class=none: the raw objects alone, without net_mlx4v ports holding their own.
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx4v_sim0,ports=2,class=none -- -i \
	--total-num-mbufs=2048
rc=$?

# The session itself must have built everything the removal has to undo.
expect "$out" 'mlx4v: qp 1 created'
expect "$out" 'mlx4v: wq 0 created'
expect "$out" 'mlx4v: cq 0: completion event'
reject "$out" 'Segmentation fault|Aborted|AddressSanitizer'
reject "$out" 'still has [0-9]+ open handle'
# At least 2 PDs, 1 MR, 2 CQs, 1 SRQ, 2 QPs, 1 WQ (testpmd adds MRs of its own) on
# 2 handles, in one warning.
expect "$out" 'device mlx4v_sim0 removed while in use: force-released ([9]|[1-9][0-9]+) object\(s\) and 2 handle\(s\)'
[ "$(grep -c 'force-released' "$out")" -eq 1 ] || fail "expected exactly one warning"
[ $rc -eq 0 ] || fail "dpdk-testpmd exited with status $rc"

# Hot removal (rte_dev_remove) with live objects: the old ids are refused, the
# name is gone, and the exit that follows has nothing left to release.
cmds='mlx4v open mlx4v_sim0
mlx4v pd create 0
mlx4v cq create 0 64 0 1
device detach mlx4v_sim0
mlx4v pd create 0
mlx4v cq destroy 0
mlx4v open mlx4v_sim0
quit
'
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx4v_sim0,ports=2,class=none -- -i \
	--total-num-mbufs=2048
rc=$?
expect "$out" 'device mlx4v_sim0 removed while in use: force-released 2 object\(s\) and 1 handle\(s\)'
expect "$out" 'Device mlx4v_sim0 is detached'
expect "$out" 'cannot allocate a PD on dev 0: Invalid argument'
expect "$out" 'cannot destroy cq 0: Invalid argument'
expect "$out" 'cannot open "mlx4v_sim0": no such mlx4v device'
reject "$out" 'Segmentation fault|Aborted|AddressSanitizer'
[ "$(grep -c 'force-released' "$out")" -eq 1 ] || fail "expected exactly one warning"
[ $rc -eq 0 ] || fail "dpdk-testpmd exited with status $rc after detach"
echo "PASS"
