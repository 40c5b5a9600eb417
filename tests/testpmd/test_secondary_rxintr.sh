#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Rx interrupts in a secondary process (usage: test_secondary_rxintr.sh KIND, mlx5v: the
# simulator's vdev; vfio: an emulated function, each process ringing its own BAR mapping):
# app/mp-rxintr as the primary, its port on a TAP interface (in a network namespace made
# here) with ten Rx queues, sleeping on the interrupts of queues 0-8, and as a secondary
# sleeping on queue 9's, the event fds passed by the primary in two batches (EAL IPC carries
# at most 8 per message; doc/guides/nics/mlx5v.rst, "Secondary processes"). Neither receives
# unless an interrupt woke it. With no traffic the secondary stays asleep; frames from many
# sources (RSS spreads them over the queues) wake both, and every frame is received by one
# of them. The functions have 16 MSI-X vectors, so that queue 9 has one of its own (a vector
# shared with a queue of the primary would wake the secondary for that queue's traffic,
# whether its own CQ was armed or not). The primary then restarts the port: the secondary
# keeps sleeping, its registration carried to the new queue's fd, and new frames wake both
# again. Hugepages as test_secondary.sh.

. "$MLXV_SRC/tests/testpmd/lib.sh"
. "$MLXV_SRC/tests/testpmd/mp_lib.sh"
kind=${1:-mlx5v}
mp_kind "$kind"
[ "$mp_pmd" = mlx5v ] || fail "mlx5v or vfio"
command -v python3 >/dev/null || skip "no python3"
MPRX=$MLXV_BUILD/app/mp-rxintr/dpdk-mlxv-mp-rxintr
[ -x "$MPRX" ] || fail "dpdk-mlxv-mp-rxintr was not built"
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi
# mp_launch, with the vectors: every process of the test under one launcher.
if [ "$kind" = vfio ] && [ -z "${MLXV_EMU_HOST:-}" ]; then
	exec $(sim_launcher vfio tap:srxa tap:srxb msix=16) sh "$0" "$@"
fi
mp_setup srx 1
mp_emu "$kind"

vdevs="$(sim_vdev "$(sim_dev "$kind" 0)" tap:srxa msix=16)"
vdevs="$vdevs $(sim_vdev "$(sim_dev "$kind" 1)" tap:srxb msix=16)"
mkfifo "$work/c0" "$work/c1" || fail "mkfifo"
ip netns exec "$ns" $mp_env timeout 120 stdbuf -oL "$MPRX" $eal -m 256 -l 0-1 \
	--proc-type=primary $vdevs -- -n 10 -q 0 -c 9 <"$work/c0" >"$work/p0.log" 2>&1 &
p0=$!
exec 3>"$work/c0"
mp_wait_log "$work/p0.log" 'sleeping on port 0 queue 8' 60 "$p0"
ip netns exec "$ns" $mp_env timeout 120 stdbuf -oL "$MPRX" $eal -l 0-1 \
	--proc-type=secondary $mp_devs -- -q 9 <"$work/c1" >"$work/p1.log" 2>&1 &
p1=$!
exec 4>"$work/c1"
mp_wait_log "$work/p1.log" 'sleeping on port 0 queue 9' 60 "$p1"
mp_taps_up srxa srxb

# stats FD LOG PID: the packets and the wake-ups the process counts so far ("P W").
nstats=0
stats() {
	_c=$(grep -c '^stats ' "$2")
	echo "stats" >&"$1"
	mp_wait_log "$2" '^stats ' 30 "$3" $((_c + 1))
	grep '^stats ' "$2" | tail -1 | awk '{print $5, $7}'
}

# Idle: nothing wakes the secondary (no spinning on a readable fd, no stray arm).
sleep 1
set -- $(stats 4 "$work/p1.log" "$p1")
[ "$2" = 0 ] || { cat "$work/p1.log"; fail "the secondary woke with no traffic"; }

# send N FIRST: N frames from N source addresses into the port's TAP.
send() {
	mp_send srxa srxb "$1" "$2" 0.2 >/dev/null
}

# total: the packets both processes received so far.
total() {
	set -- $(stats 3 "$work/p0.log" "$p0") $(stats 4 "$work/p1.log" "$p1")
	echo $(($1 + $3))
}

# ready FIRST: after a (re)start, until frames reach the port at all (its link comes up on
# its own time): batches of 4 until the total grows, at most 30.
ready() {
	_b=$(total)
	_i=0
	while :; do
		send 4 $(($1 + 4 * _i))
		sleep 0.2
		[ "$(total)" -gt "$_b" ] && break
		_i=$((_i + 1))
		[ $_i -lt 30 ] || { cat "$work/p0.log" "$work/p1.log"; fail "no frame is received"; }
	done
}

# round N FIRST WHAT: N frames; both processes woke for them and every one was received.
round() {
	set -- "$1" "$2" "$3" $(total) $(stats 4 "$work/p1.log" "$p1")
	send "$1" "$2"
	_i=0
	until [ "$(total)" -ge $(($4 + $1)) ]; do
		_i=$((_i + 1))
		[ $_i -lt 100 ] || { cat "$work/p0.log" "$work/p1.log"; fail "$3: frames lost"; }
		sleep 0.1
	done
	set -- "$@" $(stats 4 "$work/p1.log" "$p1")
	echo "$3: secondary received $(($7 - $5)) of $1, woken $(($8 - $6)) times"
	[ $(($7 - $5)) -gt 0 ] && [ $(($8 - $6)) -gt 0 ] ||
		{ cat "$work/p1.log"; fail "$3: the secondary was not woken"; }
}

ready 9000
round 128 0 "first start"

# The primary restarts the port: new EQs, vectors and fds; the secondary sleeps on.
echo "restart" >&3
mp_wait_log "$work/p0.log" 'restart: done' 60 "$p0"
mp_wait_log "$work/p0.log" 'sleeping on port 0 queue 8' 60 "$p0" 2
ready 10000
round 128 1000 "after the primary's restart"

# Both end cleanly, the secondary first (its handle and fds go at its detach).
mp_quit 4 "$p1" "$work/p1.log" secondary
mp_quit 3 "$p0" "$work/p0.log" primary
p0= p1=
for log in p0 p1; do
	reject "$work/$log.log" 'Segmentation|PANIC'
done
echo "Rx interrupts in a secondary process of net_mlx5v ($kind) OK"
