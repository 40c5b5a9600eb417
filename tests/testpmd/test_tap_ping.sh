#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The Linux kernel as the peer: two simulated ports (usage: test_tap_ping.sh KIND, KIND as
# sim_kind in lib.sh) wired to TAP interfaces, each TAP moved into its own network namespace
# made here; testpmd io-forwards between the ports and ping goes from one namespace to the
# other through them. Pulling port 0's cable (`mlx5v sim link <dev> down`, `mlx4v sim link
# <dev> 1 down`) then raises a link state change event in testpmd and the traffic stops; up
# again, it flows again.

. "$MLXV_SRC/tests/testpmd/lib.sh"
kind=$1
sim_kind "$kind"
dev0=$(sim_dev "$kind" 0)

[ -c /dev/net/tun ] || skip "no /dev/net/tun"
command -v ip >/dev/null || skip "no ip(8)"
command -v ping >/dev/null || skip "no ping(8)"

tag=$$
ns1=mlxvpa$tag
ns2=mlxvpb$tag
tap1=mlxvta$tag
tap2=mlxvtb$tag
ip netns add "$ns1" 2>/dev/null || skip "cannot create a network namespace"
ip netns add "$ns2" || { ip netns delete "$ns1"; fail "cannot create a second namespace"; }
work=$(mktemp -d) || fail "mktemp"
bg_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$bg_pid" ] && kill -9 "$bg_pid" 2>/dev/null
	ip netns delete "$ns1" 2>/dev/null
	ip netns delete "$ns2" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
bg_out=$work/testpmd.log
mkfifo "$work/cmds" || fail "mkfifo"

# Line-buffered: the test reads testpmd's answers while it runs.
(cd / && timeout 120 stdbuf -oL "$TESTPMD" $EAL_BASE -l 0-1 \
	$(sim_taps "$kind" "$tap1" "$tap2") -- \
	-i --forward-mode=io --rxq=1 --txq=1 --total-num-mbufs=8192 <"$work/cmds" >"$bg_out" 2>&1) &
bg_pid=$!
exec 3>"$work/cmds"

cmd() {
	echo "$1" >&3
}

bg_wait_log 'testpmd> ' 30
ip link show "$tap1" >/dev/null 2>&1 || { cat "$bg_out"; fail "no TAP $tap1"; }
# The TAPs leave testpmd's namespace for the two peers; the wire follows them.
ip link set "$tap1" netns "$ns1" || fail "cannot move $tap1"
ip link set "$tap2" netns "$ns2" || fail "cannot move $tap2"
ip -n "$ns1" addr add 10.77.0.1/24 dev "$tap1" || fail "address on $tap1"
ip -n "$ns2" addr add 10.77.0.2/24 dev "$tap2" || fail "address on $tap2"
ip -n "$ns1" link set "$tap1" up || fail "$tap1 up"
ip -n "$ns2" link set "$tap2" up || fail "$tap2 up"
cmd "show port info all"
bg_wait_log '^Link status: up' 10 2
cmd "start"
bg_wait_log 'io packet forwarding' 10

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

cmd "stop"
cmd "quit"
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|Bad port|failed'
echo "TAP ping between namespaces through $kind ports OK"
