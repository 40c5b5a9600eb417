#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Hot-plug asked by a secondary process (usage: test_hotplug_secondary.sh KIND, mlx5v or
# mlx4v): our testpmd runs as a primary with no port and as a secondary; the secondary's
# "port attach <devargs>" has EAL probe the device in the primary (which owns the model) and
# attach it in every process, its "port detach" removes it everywhere. Ten rounds; each time
# the primary lists the port while it is attached, and the primary's open file descriptors
# are the same after the last round as after the first. Hugepages as test_secondary.sh.

. "$MLXV_SRC/tests/testpmd/lib.sh"
. "$MLXV_SRC/tests/testpmd/mp_lib.sh"
kind=${1:-mlx5v}
mp_kind "$kind"
case $kind in
mlx5v) dev="mlx5v_sim0,wire=loop" ;;
mlx4v) dev="mlx4v_sim0,ports=1,wire=loop" ;;
esac
ROUNDS=10
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi
mp_setup hps 0
tp="-i --num-procs=2 --total-num-mbufs=4096"

mkfifo "$work/c0" "$work/c1" || fail "mkfifo"
(cd / && exec timeout 360 stdbuf -oL "$TESTPMD" $eal -m 256 -l 0-1 --proc-type=primary -- \
	$tp --proc-id=0 <"$work/c0" >"$work/p0.log" 2>&1) &
p0=$!
exec 3>"$work/c0"
mp_wait_log "$work/p0.log" 'testpmd> ' 90 "$p0"
pid0=$(pgrep -P "$p0" | head -1)
[ -n "$pid0" ] || fail "no primary process"
(cd / && exec timeout 360 stdbuf -oL "$TESTPMD" $eal -l 0-1 --proc-type=secondary -- \
	$tp --proc-id=1 <"$work/c1" >"$work/p1.log" 2>&1) &
p1=$!
exec 4>"$work/c1"
mp_wait_log "$work/p1.log" 'testpmd> ' 90 "$p1"

name=${dev%%,*}
i=1
while [ $i -le $ROUNDS ]; do
	echo "port attach $dev" >&4
	mp_wait_log "$work/p1.log" 'is attached' 60 "$p1" $i
	# The primary has the port (and the model) while the secondary holds it.
	echo "show port summary all" >&3
	mp_wait_log "$work/p0.log" "^0 .* $name " 30 "$p0" $i
	echo "port stop 0" >&4
	echo "port detach 0" >&4
	mp_wait_log "$work/p1.log" 'Device is detached' 60 "$p1" $i
	[ $i -eq 1 ] && fd1=$(ls "/proc/$pid0/fd" | wc -l)
	i=$((i + 1))
done
fd2=$(ls "/proc/$pid0/fd" | wc -l)
echo "show port summary all" >&3
mp_wait_log "$work/p0.log" 'Number of available ports: 0' 30 "$p0"
echo "primary fds after round 1: $fd1, after round $ROUNDS: $fd2"
[ "$fd1" = "$fd2" ] || { ls -l "/proc/$pid0/fd"; fail "the primary's fds grew"; }
mp_quit 4 "$p1" "$work/p1.log" secondary
p1=
mp_quit 3 "$p0" "$work/p0.log" primary
p0=
reject "$work/p0.log" 'Segmentation|PANIC'
reject "$work/p1.log" 'Segmentation|PANIC'
echo "hot-plug of $kind from a secondary, $ROUNDS rounds: OK"
