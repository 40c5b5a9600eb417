#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The data path in secondary processes (usage: test_multi_process.sh KIND, mlx5v or mlx4v, or
# vfio or verbs: the emulated functions under one launcher, mp_lib.sh's mp_launch).
# DPDK's symmetric_mp example, built unmodified from the source package, runs as a primary
# (proc 0, which configures two Rx/Tx queue pairs per port, RSS over IP) and a secondary
# (proc 1) on two simulated ports wired to TAP interfaces in a network namespace made here;
# each process forwards port 0 <-> 1 on its own queue. Frames sent into the first TAP from
# many source addresses are spread over both queues: every one comes out of the second TAP,
# and each process counts some of them (its exit statistics). Then the secondary leaves and
# the primary keeps forwarding the frames of its queue. Hugepages as test_secondary.sh.

. "$MLXV_SRC/tests/testpmd/lib.sh"
. "$MLXV_SRC/tests/testpmd/mp_lib.sh"
kind=${1:-mlx5v}
mp_kind "$kind"
SMP=$MLXV_BUILD/app/multi-process/dpdk-symmetric_mp
[ -x "$SMP" ] || fail "dpdk-symmetric_mp was not built"
command -v python3 >/dev/null || skip "no python3"
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi
mp_launch "$kind" tap:smpa tap:smpb "$0" "$@"
mp_setup smp 1
mp_emu "$kind"
plugins=$(stage_plugins) || fail "cannot stage plugins"
eal="$eal -d $plugins"
vdevs="$(sim_vdev "$(sim_dev "$kind" 0)" tap:smpa) $(sim_vdev "$(sim_dev "$kind" 1)" tap:smpb)"

# The primary: ports and queues; it waits (up to 9 s) for the links, so the TAPs go up now.
ip netns exec "$ns" $mp_env timeout 360 stdbuf -oL "$SMP" $eal -m 256 -l 0 --proc-type=primary \
	$vdevs -- \
	-p 3 --num-procs=2 --proc-id=0 >"$work/p0.log" 2>&1 &
p0=$!
_n=0
until ip -n "$ns" link show smpb >/dev/null 2>&1; do
	_n=$((_n + 1))
	[ $_n -le 300 ] || { cat "$work/p0.log"; fail "no TAP interfaces"; }
	kill -0 "$p0" 2>/dev/null || { cat "$work/p0.log"; fail "the primary exited"; }
	sleep 0.1
done
mp_taps_up smpa smpb
mp_wait_log "$work/p0.log" 'Finished Process Init' 90 "$p0"

# The secondary: the primary's ports, started; queue 1 of each.
ip netns exec "$ns" $mp_env timeout 360 stdbuf -oL "$SMP" $eal -l 1 --proc-type=secondary \
	$mp_devs -- \
	-p 3 --num-procs=2 --proc-id=1 >"$work/p1.log" 2>&1 &
p1=$!
mp_wait_log "$work/p1.log" 'using queue 1' 90 "$p1"

got=$(mp_send smpa smpb 256 0) || fail "cannot send frames"
echo "sent 256 received $got"
[ "$got" = 256 ] ||
	{ cat "$work/p0.log" "$work/p1.log"; fail "frames were lost with two processes forwarding"; }

# rx_of LOG: the frames the process took from port 0 (its exit statistics).
rx_of() {
	sed -n 's/^Port 0: RX - \([0-9]*\),.*/\1/p' "$1" | tail -1
}
# The secondary leaves (its statistics on SIGINT); it took its share of the frames.
kill -INT "$p1"
wait "$p1"
p1=
cat "$work/p1.log"
r1=$(rx_of "$work/p1.log")
[ -n "$r1" ] && [ "$r1" -gt 0 ] || fail "the secondary forwarded nothing (RX ${r1:-none})"

# The primary alone: the frames RSS gives its queue still come out; the others are lost.
r2=$(mp_send smpa smpb 256 1000) || fail "cannot send frames"
echo "sent 256 received $r2"
[ -n "$r2" ] && [ "$r2" -gt 0 ] || fail "the primary stopped forwarding after the secondary left"
kill -INT "$p0"
wait "$p0"
rc=$?
p0=
cat "$work/p0.log"
[ $rc -eq 0 ] || fail "the primary exited with $rc"
r0=$(rx_of "$work/p0.log")
[ -n "$r0" ] && [ "$r0" -gt 0 ] || fail "the primary forwarded nothing (RX ${r0:-none})"
# Both rounds: every frame was taken by one process or the other, none twice.
[ $((r0 + r1)) -ge $((256 + r2)) ] || fail "RX $r0 + $r1 is less than the frames forwarded"
reject "$work/p0.log" 'Segmentation|PANIC'
reject "$work/p1.log" 'Segmentation|PANIC'
echo "symmetric_mp on net_$mp_pmd ports ($kind): primary RX $r0, secondary RX $r1 OK"
