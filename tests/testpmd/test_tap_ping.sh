#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The Linux kernel as the peer: two simulated ports (usage: test_tap_ping.sh KIND, KIND as
# sim_kind in lib.sh) wired to TAP interfaces, each TAP moved into its own network namespace
# made here; testpmd io-forwards between the ports and ping goes from one namespace to the
# other through them. Pulling port 0's cable (`mlx5v sim link <dev> down`, `mlx4v sim link
# <dev> 1 down`) then raises a link state change event in testpmd and the traffic stops; up
# again, it flows again. Last, the ports leave promiscuous mode and each takes the address of
# the namespace it forwards to: the ping goes on, its ARP request a broadcast the ports must
# take without promiscuous mode.

. "$MLXV_SRC/tests/testpmd/lib.sh"
kind=$1
sim_kind "$kind"
dev0=$(sim_model "$kind" 0)

command -v ping >/dev/null || skip "no ping(8)"
tap_fwd_start "$kind" 10.77.0

# ping_peer WHAT: one answer from the second namespace within 20 one-second tries (the kernel
# resolves its neighbour first, and may hold a failed entry for a moment), or fail with WHAT.
ping_peer() {
	_n=0
	until ip netns exec "$ns1" ping -c 1 -W 1 10.77.0.2 >"$work/ping" 2>&1; do
		_n=$((_n + 1))
		[ $_n -lt 20 ] || { cat "$work/ping" "$bg_out"; fail "$1"; }
	done
	cat "$work/ping"
}

ping_peer "no ping through the forwarding ports"

# Cable out on the first port: testpmd hears of it, and the ping stops.
cmd "$(sim_link_cmd "$dev0" down)"
bg_wait_log 'Port 0: link state change event' 10
if ip netns exec "$ns1" ping -c 2 -i 0.3 -W 1 10.77.0.2 >"$work/ping2" 2>&1; then
	cat "$work/ping2" "$bg_out"
	fail "ping went through a port whose link is down"
fi
cmd "$(sim_link_cmd "$dev0" up)"
bg_wait_log 'Port 0: link state change event' 10 2
ping_peer "no ping after the link came back"

# Promiscuous mode off: port 0 takes frames to the second namespace's address, port 1 to
# the first's; broadcast (the ARP request, the neighbours forgotten first) needs no entry.
mac1=$(ip -n "$ns1" -o link show "$tap1" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
mac2=$(ip -n "$ns2" -o link show "$tap2" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
[ -n "$mac1" ] && [ -n "$mac2" ] || fail "no MAC address on the TAPs"
cmd "set promisc all off"
cmd "mac_addr add 0 $mac2"
cmd "mac_addr add 1 $mac1"
cmd "show port info 1"
bg_wait_log '^Promiscuous mode: disabled' 10
ip -n "$ns1" neigh flush dev "$tap1"
ip -n "$ns2" neigh flush dev "$tap2"
ping_peer "no ping with promiscuous mode off (ARP broadcast, then unicast)"

cmd "stop"
cmd "quit"
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|Bad port|failed'
echo "TAP ping between namespaces through $kind ports OK"
