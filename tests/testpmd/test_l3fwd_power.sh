#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# DPDK's l3fwd-power example, built unmodified from the source package against Debian's
# libdpdk, loads our drivers with -d and runs --interrupt-only on two simulated ports (usage:
# test_l3fwd_power.sh KIND, KIND as sim_kind in lib.sh) whose wires are TAP interfaces in a
# network namespace made here. With no traffic the lcore sleeps in rte_epoll_wait and no Rx
# interrupt fires; frames sent into the first TAP wake it up through the Rx queue's interrupt
# and come out of the second TAP routed (LPM 2.1.1.0/24 -> port 1, TTL decremented). The ports
# run without promiscuous mode (no -P): the frames go to broadcast, which a port must take
# without it. KIND vfio: the ports on two emulated PCI functions through our vfio-pci backend,
# the Rx interrupts through VFIO MSI-X. KIND dpdkmlx4: DPDK's own net_mlx4 (the distribution's
# plugin) on two emulated ConnectX-3 functions, the Rx interrupts through the completion
# channels of its Rx CQs. No kind may make the device model count a misuse.

. "$MLXV_SRC/tests/testpmd/lib.sh"
kind=$1
sim_kind "$kind"

L3FWD=$MLXV_BUILD/app/l3fwd-power/dpdk-l3fwd-power
[ -x "$L3FWD" ] || fail "dpdk-l3fwd-power was not built"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
command -v ip >/dev/null || skip "no ip(8)"
command -v python3 >/dev/null || skip "no python3"

ns=mlxvl3p$$
ip netns add "$ns" 2>/dev/null || skip "cannot create a network namespace"
work=$(mktemp -d) || fail "mktemp"
plugins=$(stage_plugins) || fail "cannot stage plugins"
bg_pid=
cleanup() {
	bg_kill
	ip netns delete "$ns" 2>/dev/null
	rm -rf "$work" "$plugins"
}
trap cleanup EXIT
bg_out=$work/l3fwd.log

# The lcore logs each Rx-interrupt wake-up and the sleep after it (INFO, its own log type).
ip netns exec "$ns" timeout 120 $(sim_launcher "$kind" tap:l3p0 tap:l3p1) "$L3FWD" \
	$(sim_eal "$kind" 256) -l 0 -d "$plugins" \
	$(sim_taps "$kind" l3p0 l3p1) \
	--log-level=user1,info -- \
	-p 0x3 --interrupt-only --config="(0,0,0),(1,0,0)" >"$bg_out" 2>&1 &
bg_pid=$!

bg_wait_log 'entering main interrupt loop on lcore 0' 30
reject "$bg_out" "RX interrupt won't enable"
# The kernel side: up, without IPv6 (no neighbour discovery chatter on the wires).
for i in l3p0 l3p1; do
	ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1" ||
		fail "cannot disable IPv6 on $i"
	ip netns exec "$ns" ip link set "$i" up || fail "cannot bring $i up"
done
# Idle: the lcore keeps sleeping and no Rx interrupt fires.
sleep 1
if grep -q 'waked up from rx interrupt' "$bg_out"; then
	cat "$bg_out"
	fail "an Rx interrupt fired with no traffic"
fi

# l3fwd-power's lcore wakes from rte_epoll_wait at least every 10 ms and polls its queues a
# little before it sleeps again; a burst whose first frame lands in that window is forwarded
# by polling and logs no wake-up (seen on a loaded CI machine, where the window grows when
# the lcore waits for its CPU). So bursts go in rounds until one is taken by an interrupt;
# every burst must be routed whole. Interrupts that never fire fail all the rounds.
round=0
while :; do
	round=$((round + 1))
	ip netns exec "$ns" python3 "$MLXV_SRC/tests/testpmd/tap_frames.py" l3p0 l3p1 64 \
		2.1.1.7 >"$work/frames" 2>&1
	rc=$?
	cat "$work/frames"
	[ $rc -eq 0 ] || { cat "$bg_out"; fail "l3fwd-power did not route every frame"; }
	if [ $round -eq 5 ]; then
		bg_wait_log 'lcore 0 is waked up from rx interrupt on port 0 queue 0' 10
		break
	fi
	# The frames are all back: the wake-up line, if any, is written already or about to be.
	sleep 0.5
	grep -q 'lcore 0 is waked up from rx interrupt on port 0 queue 0' "$bg_out" && break
	echo "round $round: the burst was taken by polling, not by an interrupt; again"
done
echo "woken by an Rx interrupt in round $round"
# Traffic over: it goes back to sleep waiting for the next interrupt.
bg_wait_log 'lcore 0 sleeps until interrupt triggers' 10

kill -INT "$bg_pid"
bg_finish
reject "$bg_out" 'Error|error|failed'
reject "$bg_out" 'misuse'
echo "l3fwd-power: interrupt-only forwarding on $kind ports OK"
