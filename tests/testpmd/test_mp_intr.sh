#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Rx interrupts in a secondary process (usage: test_mp_intr.sh KIND, mlx5v or mlx4v; verbs or
# vfio: the functions emulated under one launcher): app/mp-intr as the primary and as a
# secondary, each sleeping in rte_epoll_wait() on the Rx interrupts of its own two of the four
# queues of port 0 and forwarding to port 1 only when woken (a wait that times out receives
# nothing), the ports wired to TAP interfaces in a network namespace made here. Frames from
# many source addresses (RSS spreads them over the queues) must all come out, so the
# secondary's queues are drained by its wake-ups alone; again after the primary stopped and
# started the ports (SIGUSR1): the secondary's fds and arm pages are fetched anew. Four queue
# pairs make more fds than one IPC message carries (RTE_MP_MAX_FD_NUM): they come in batches.
# Hugepages as test_multi_process.sh.

. "$MLXV_SRC/tests/testpmd/lib.sh"
. "$MLXV_SRC/tests/testpmd/mp_lib.sh"
kind=${1:-mlx4v}
mp_kind "$kind"
MPI=$MLXV_BUILD/app/mp-intr/dpdk-mlxv-mp-intr
[ -x "$MPI" ] || fail "dpdk-mlxv-mp-intr was not built"
command -v python3 >/dev/null || skip "no python3"
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi
mp_launch "$kind" tap:mpia tap:mpib "$0" "$@"
mp_setup mpi 1
mp_emu "$kind"
plugins=$(stage_plugins) || fail "cannot stage plugins"
# The waits that time out re-register their queue; EAL's note that it is there already is noise.
eal="$eal -d $plugins --log-level=lib.eal:notice"
vdevs="$(sim_vdev "$(sim_dev "$kind" 0)" tap:mpia) $(sim_vdev "$(sim_dev "$kind" 1)" tap:mpib)"

# timeout(1) only ends what a dead script left behind: longer than the test's in meson.
ip netns exec "$ns" $mp_env timeout 300 stdbuf -oL "$MPI" $eal -m 256 -l 0 \
	--proc-type=primary $vdevs -- --num-procs 2 --proc-id 0 --queues 4 >"$work/p0.log" 2>&1 &
p0=$!
mp_wait_log "$work/p0.log" 'sleeping on Rx queue' 90 "$p0"
mp_taps_up mpia mpib
ip netns exec "$ns" $mp_env timeout 300 stdbuf -oL "$MPI" $eal -l 1 \
	--proc-type=secondary $mp_devs -- --num-procs 2 --proc-id 1 --queues 4 >"$work/p1.log" 2>&1 &
p1=$!
mp_wait_log "$work/p1.log" 'sleeping on Rx queue' 90 "$p1"

mp_ready mpia mpib 9000
mp_expect mpia mpib 256 0 "frames were lost: a process was not woken by its queue's interrupt"

# timeout(1) passes on INT and TERM, not USR1: to the program itself.
pkill -USR1 -P "$p0" || fail "no primary to restart the ports"
mp_wait_log "$work/p0.log" 'ports restarted' 60 "$p0"
mp_ready mpia mpib 10000
mp_expect mpia mpib 256 1000 "frames were lost after the primary restarted the ports"
kill -0 "$p1" 2>/dev/null || { cat "$work/p1.log"; fail "the secondary died"; }

# stats LOG: "WAKEUPS FRAMES" of a process that ended.
stats() {
	sed -n 's/^proc [0-9]*: woke \([0-9]*\) times, forwarded \([0-9]*\) frames$/\1 \2/p' "$1"
}
for p in 1 0; do
	eval "pid=\$p$p"
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	eval "p$p="
	cat "$work/p$p.log"
	[ $rc -eq 0 ] || fail "process $p exited with $rc"
	set -- $(stats "$work/p$p.log")
	[ -n "${1:-}" ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] ||
		fail "process $p was never woken by its queue's interrupt (${1:-no} wake-ups)"
	reject "$work/p$p.log" 'Segmentation|PANIC'
done
echo "Rx interrupts of net_$mp_pmd ports in a primary and a secondary ($kind) OK"
