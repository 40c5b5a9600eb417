# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Helpers of the rte_flow scripts that send frames into the TAP wire of one simulated port and
# count what testpmd receives per queue. Sourced after lib.sh, not run.

# tap_rx_init PREFIX: skip without TUN, ip(8), python3 or namespaces; make the namespace $ns and
# the directory $work, name the TAP $tap and testpmd's log $bg_out (per PID, from PREFIX), and an
# EXIT trap that removes them (and $plugins, where the script stages some).
tap_rx_init() {
	[ -c /dev/net/tun ] || skip "no /dev/net/tun"
	command -v ip >/dev/null || skip "no ip(8)"
	command -v python3 >/dev/null || skip "no python3"
	ns=${1}n$$
	tap=${1}t$$
	ip netns add "$ns" 2>/dev/null || skip "cannot create a network namespace"
	work=$(mktemp -d) || { ip netns delete "$ns"; fail "mktemp"; }
	bg_pid=
	plugins=
	trap tap_rx_cleanup EXIT
	bg_out=$work/testpmd.log
}

tap_rx_cleanup() {
	exec 3>&- 2>/dev/null
	bg_kill
	ip netns delete "$ns" 2>/dev/null
	rm -rf "$work" "$plugins"
}

cmd() {
	echo "$1" >&3
}

# tap_rx_start VDEV PROGRAM [ARGS...]: testpmd PROGRAM on the port of VDEV (wired to "tap:$tap"),
# rxonly on 4 queues with RSS off (what no rule takes lands on queue 0), its TAP moved into
# the namespace and up, the port's address $MAC.
tap_rx_start() {
	_vdev=$1
	shift
	rm -f "$work/cmds"
	mkfifo "$work/cmds" || fail "mkfifo"
	(cd / && timeout 120 stdbuf -oL "$@" $EAL_BASE -l 0-1 \
		"$_vdev" -- -i --forward-mode=rxonly --rxq=4 --txq=4 \
		--total-num-mbufs=8192 <"$work/cmds" >"$bg_out" 2>&1) &
	bg_pid=$!
	exec 3>"$work/cmds"
	bg_wait_log 'testpmd> ' 60
	ip link set "$tap" netns "$ns" || fail "cannot move $tap"
	ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$tap.disable_ipv6=1" 2>/dev/null
	ip -n "$ns" link set "$tap" up || fail "$tap up"
	cmd "mac_addr set 0 $MAC"
	cmd "port stop 0"
	cmd "port config all rss none"
	cmd "port start 0"
	cmd "start"
	bg_wait_log 'rxonly packet forwarding' 30
}

stop() {
	cmd "quit"
	exec 3>&-
	bg_finish
}

# expect_log REGEX [MIN_COUNT]: testpmd printed a line matching REGEX (MIN_COUNT times).
expect_log() {
	bg_wait_log "$1" 30 "${2:-1}"
}

# rx_counts: "TOTAL Q0 Q1 Q2 Q3" of port 0 from a new "show port xstats 0" (run in a
# subshell: the dumps so far are counted in the log).
rx_counts() {
	dumps=$(($(grep -Ecs '^ *rx_q3_packets:' "$bg_out") + 1))
	cmd "show port xstats 0"
	bg_wait_log '^ *rx_q3_packets:' 30 "$dumps"
	awk -v n="$dumps" '
	/NIC extended statistics for port 0/ { d++ }
	d == n && $1 == "rx_good_packets:" { t = $2 }
	d == n && $1 ~ /^rx_q[0-3]_packets:$/ { q[substr($1, 5, 1)] = $2 }
	END { print t + 0, q[0] + 0, q[1] + 0, q[2] + 0, q[3] + 0 }
	' "$bg_out"
}

# clear_rx: zero port 0's counters, and wait until testpmd has done it (it answers the clear
# with nothing: the next dump, which it prints after, says it is done).
clear_rx() {
	cmd "clear port xstats 0"
	_c=$(rx_counts) || exit 1
}

# expect_rx "TOTAL Q0 Q1 Q2 Q3" WHAT: the counts become those (the model delivers from its
# own thread: polled up to 20 s), else fail naming WHAT.
expect_rx() {
	_i=0
	while _got=$(rx_counts); [ "$_got" != "$1" ]; do
		_i=$((_i + 1))
		[ $_i -le 40 ] || { cat "$bg_out"; fail "$2: rx total q0 q1 q2 q3 = $_got, not $1"; }
		sleep 0.5
	done
}
