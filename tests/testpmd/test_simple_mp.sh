#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# DPDK's simple_mp example, built unmodified from the source package, as a primary holding
# two simulated ports cabled to each other (usage: test_simple_mp.sh KIND, mlx5v or mlx4v, or
# vfio or verbs: the emulated functions under one launcher, mp_lib.sh's mp_launch) and
# a secondary that attaches to them: the two exchange messages through their rings, then the
# secondary quits. What it leaves behind in the primary must be nothing: the primary's open
# file descriptors are the same as before it came, and the secondary's IPC socket is gone
# from the runtime directory. Hugepages as test_secondary.sh.

. "$MLXV_SRC/tests/testpmd/lib.sh"
. "$MLXV_SRC/tests/testpmd/mp_lib.sh"
kind=${1:-mlx5v}
mp_kind "$kind"
SMP=$MLXV_BUILD/app/multi-process/dpdk-simple_mp
[ -x "$SMP" ] || fail "dpdk-simple_mp was not built"
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi
mp_launch "$kind" pair pair "$0" "$@"
mp_setup simp 0
mp_emu "$kind"
plugins=$(stage_plugins) || fail "cannot stage plugins"
eal="$eal -d $plugins --log-level=pmd.net.$mp_pmd:info"

mkfifo "$work/c0" "$work/c1" || fail "mkfifo"
(cd / && exec $mp_env timeout 360 stdbuf -oL "$SMP" $eal -m 256 -l 0-1 --proc-type=primary \
	$(sim_pair "$kind") <"$work/c0" >"$work/p0.log" 2>&1) &
p0=$!
exec 3>"$work/c0"
mp_wait_log "$work/p0.log" 'Starting core' 90 "$p0"
# The primary's pid is timeout's child.
pid0=$(pgrep -P "$p0" | head -1)
[ -n "$pid0" ] || fail "no primary process"
fd0=$(ls "/proc/$pid0/fd" | wc -l)

(cd / && exec $mp_env timeout 360 stdbuf -oL "$SMP" $eal -l 0-1 --proc-type=secondary \
	$mp_devs <"$work/c1" >"$work/p1.log" 2>&1) &
p1=$!
exec 4>"$work/c1"
mp_wait_log "$work/p1.log" 'Starting core' 90 "$p1"
# Our driver attached the primary's ports in the secondary.
mp_wait_log "$work/p1.log" 'attached \(secondary process\)' 10 "$p1"
echo "send from-secondary" >&4
mp_wait_log "$work/p0.log" "Received 'from-secondary'" 10 "$p0"
echo "send from-primary" >&3
mp_wait_log "$work/p1.log" "Received 'from-primary'" 10 "$p1"
echo "quit" >&4
exec 4>&-
wait "$p1"
rc=$?
p1=
cat "$work/p1.log"
[ $rc -eq 0 ] || fail "the secondary exited with $rc"

# Nothing of the secondary in the primary, nor in the runtime directory.
fd1=$(ls "/proc/$pid0/fd" | wc -l)
[ "$fd0" = "$fd1" ] || { ls -l "/proc/$pid0/fd"; fail "primary fds: $fd0, then $fd1"; }
rundir=${XDG_RUNTIME_DIR:-/var/run}/dpdk/$prefix
[ "$(id -u)" = 0 ] || rundir=${XDG_RUNTIME_DIR:-/tmp}/dpdk/$prefix
if ls "$rundir" 2>/dev/null | grep -q '^mp_socket_'; then
	ls -l "$rundir"
	fail "the secondary's IPC socket is still in $rundir"
fi
echo "quit" >&3
exec 3>&-
wait "$p0"
rc=$?
p0=
cat "$work/p0.log"
[ $rc -eq 0 ] || fail "the primary exited with $rc"
reject "$work/p0.log" 'Segmentation|PANIC'
echo "simple_mp with net_$mp_pmd ports ($kind): OK ($fd0 primary fds before and after the secondary)"
