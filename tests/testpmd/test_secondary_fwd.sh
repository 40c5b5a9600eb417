#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Our testpmd as the primary and as a secondary forwarding on the same two simulated ports
# (usage: test_secondary_fwd.sh KIND, mlx5v or mlx4v; vfio or verbs: the functions emulated
# under one launcher, the secondary's doorbells through its own BAR mapping or the primary's
# verbs context, doc/guides/nics/mlx5v.rst and mlx4v.rst), each on its own of the two queue pairs
# (--num-procs=2), the ports wired to TAP interfaces in a network namespace made here. Frames
# from many source addresses (RSS spreads them) all come out. Then the primary stops its ports:
# the secondary's bursts must become the stopped ones at once (it keeps polling, nothing
# crashes, nothing comes out); started again, the secondary forwards again on the queues made
# anew (a new UAR page for mlx5v), and again after a reconfiguration (other ring sizes: new
# queue structures). Hugepages as test_secondary.sh.

. "$MLXV_SRC/tests/testpmd/lib.sh"
. "$MLXV_SRC/tests/testpmd/mp_lib.sh"
kind=${1:-mlx5v}
mp_kind "$kind"
command -v python3 >/dev/null || skip "no python3"
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi
mp_launch "$kind" tap:sfwa tap:sfwb "$0" "$@"
mp_setup sfw 1

mp_fwd_pair "$kind" sfwa sfwb

mp_ready sfwa sfwb 9000
mp_expect sfwa sfwb 256 0 "frames were lost with two processes forwarding"

# The primary stops the ports: the secondary's lcore keeps polling the stopped bursts.
echo "stop" >&3
echo "port stop all" >&3
mp_wait_log "$work/p0.log" 'Stopping ports' 60 "$p0"
mp_wait_log "$work/p0.log" 'testpmd> ' 60 "$p0" 4
_got=$(mp_send sfwa sfwb 32 1000)
echo "ports stopped: sent 32 received $_got"
kill -0 "$p1" 2>/dev/null || { cat "$work/p1.log"; fail "the secondary died at the stop"; }

# Started again: new queue objects, and the secondary forwards on them.
echo "port start all" >&3
echo "start" >&3
mp_wait_log "$work/p0.log" 'io packet forwarding - ports' 60 "$p0" 2
mp_ready sfwa sfwb 10000
mp_expect sfwa sfwb 256 2000 "the secondary forwards no more after the primary's restart"

# Reconfigured: rings of another size, so every queue is set up anew (new queue structures
# in the shared queue arrays); the secondary forwards on them after the start.
echo "stop" >&3
echo "port stop all" >&3
echo "port config all rxd 512" >&3
echo "port config all txd 512" >&3
echo "port start all" >&3
echo "start" >&3
mp_wait_log "$work/p0.log" 'io packet forwarding - ports' 60 "$p0" 3
mp_ready sfwa sfwb 11000
mp_expect sfwa sfwb 256 3000 "the secondary forwards no more after the primary's reconfiguration"

echo "stop" >&4
echo "quit" >&4
exec 4>&-
wait "$p1"
rc=$?
p1=
cat "$work/p1.log"
[ $rc -eq 0 ] || fail "the secondary exited with $rc"
echo "stop" >&3
echo "quit" >&3
exec 3>&-
wait "$p0"
rc=$?
p0=
cat "$work/p0.log"
[ $rc -eq 0 ] || fail "the primary exited with $rc"
reject "$work/p0.log" 'Segmentation|PANIC'
reject "$work/p1.log" 'Segmentation|PANIC'
echo "testpmd secondary forwarding on net_$mp_pmd ports ($kind) OK"
