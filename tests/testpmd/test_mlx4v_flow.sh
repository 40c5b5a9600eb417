#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# rte_flow on net_mlx4v (doc/guides/nics/mlx4v.rst, "Flow rules (rte_flow)"), with traffic: a
# simulated ConnectX-3 port on a TAP interface in a network namespace of its own, frames sent
# into the TAP by a packet socket, testpmd receiving on 4 queues (RSS off: everything the
# port's own rules take lands on queue 0). In our testpmd: "flow validate"; refused rules
# (COUNT, a UDP destination port at priority 1, a source MAC, a partial IPv4 mask, an
# unaligned RSS block) leave the model's live rule count as it was, and a rule the device
# refuses (its RSS QP's move to RTR fails) its QPs and tables too; a rule sending UDP to 4789
# to queue 3 moves exactly those frames; RSS over queues 2 and 3
# spreads them over both; after "flow destroy" they are back on queue 0; DROP
# drops them; "flow flush"; "flow isolate" (before start) leaves only the rule's frames, and
# off again brings the port's own rules back. In Debian's testpmd with -d on our drivers: one
# rule and its traffic.
# Usage: test_mlx4v_flow.sh [ours] [debian] (both when none is named).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tap_rx_lib.sh"
[ $# -gt 0 ] || set -- ours debian
tap_rx_init mlxvf
MAC=02:00:00:00:aa:01

# The frame sender: COUNT IPv4/UDP (or TCP) frames to DST_MAC and DPORT into IF.
cat >"$work/send.py" <<'EOF'
import socket
import struct
import sys

ifname, dmac, dport, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
proto = 6 if len(sys.argv) > 5 and sys.argv[5] == "tcp" else 17
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
for i in range(count):
    payload = b"mlxv-flow" + bytes(23)
    if proto == 17:
        l4 = struct.pack("!HHHH", 1000 + i, dport, 8 + len(payload), 0) + payload
    else:
        l4 = struct.pack("!HHIIBBHHH", 1000 + i, dport, 0, 0, 0x50, 0x02, 512, 0, 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), i, 0, 64, proto, 0,
                     socket.inet_aton("10.0.0.1"), socket.inet_aton("10.0.0.2"))
    s.send(bytes.fromhex(dmac.replace(":", "")) + bytes.fromhex("020000000099") +
           b"\x08\x00" + ip + l4)
EOF

send() {
	ip netns exec "$ns" python3 "$work/send.py" "$tap" "$@" || fail "cannot send frames"
}

# start PROGRAM [ARGS...]: testpmd on the port, its TAP moved into the namespace and up.
start() {
	tap_rx_start "$(sim_vdev mlx4v_sim0 "tap:$tap")" "$@"
}

# live_objs: the model's live "QPs tables rules", from a new "mlx4v sim show".
live_objs() {
	shows=$(($(grep -cs 'live objects:' "$bg_out") + 1))
	cmd "mlx4v sim show mlx4v_sim0"
	bg_wait_log 'live objects:' 30 "$shows"
	grep 'live objects:' "$bg_out" | sed -n "${shows}p" |
		sed 's/.* qp \([0-9]*\) .* ind_table \([0-9]*\) flow \([0-9]*\).*/\1 \2 \3/'
}

# live_flows: the model's live rule count.
live_flows() {
	live_objs | cut -d' ' -f3
}

RULE="flow create 0 ingress pattern eth dst is $MAC / ipv4 / udp dst is 4789 / end"

ours() {
	start "$TESTPMD"
	base=$(live_flows)
	cmd "flow validate 0 ingress pattern eth dst is $MAC / ipv4 / udp dst is 4789 / end actions queue index 3 / end"
	expect_log 'Flow rule validated'
	cmd "$RULE actions count / end"
	expect_log 'COUNT: the device has no flow counters'
	cmd "flow create 0 ingress priority 1 pattern eth dst is $MAC / ipv4 / udp dst is 4789 / end actions queue index 3 / end"
	expect_log 'UDP dst port: only at priority 0'
	cmd "flow create 0 ingress pattern eth src is 02:00:00:00:00:99 / end actions drop / end"
	expect_log 'only the destination MAC can be matched'
	cmd "flow create 0 ingress pattern eth dst is $MAC / ipv4 dst spec 10.0.0.0 dst mask 255.255.255.0 / end actions drop / end"
	expect_log 'full or empty masks only'
	cmd "$RULE actions rss queues 1 2 end / end"
	expect_log 'RSS: the first queue must be a multiple'
	[ "$(live_flows)" = "$base" ] || fail "a refused rule left something in the device"
	# The device refuses the RSS QP's move to RTR: no QP, table or rule may stay.
	objs=$(live_objs)
	cmd "mlx4v sim knob mlx4v_sim0 fail_modify_qp 1"
	cmd "$RULE actions queue index 3 / end"
	expect_log 'the device refused the rule'
	[ "$(live_objs)" = "$objs" ] || fail "a rule the device refused left objects behind"

	cmd "$RULE actions queue index 3 / end"
	expect_log 'Flow rule #0 created'
	[ "$(live_flows)" = "$((base + 1))" ] || fail "the rule is not in the device"
	cmd "flow list 0"
	expect_log 'ETH IPV4 UDP => QUEUE'
	clear_rx
	send "$MAC" 4789 20
	send "$MAC" 53 12
	send "$MAC" 4789 5 tcp
	expect_rx "37 17 0 0 20" "UDP to 4789 to queue 3"

	cmd "flow destroy 0 rule 0"
	expect_log 'Flow rule #0 destroyed'
	clear_rx
	send "$MAC" 4789 20
	expect_rx "20 20 0 0 0" "after flow destroy"

	# RSS over queues 2 and 3: the 20 source ports spread over both, nothing elsewhere.
	cmd "$RULE actions rss queues 2 3 end types ipv4-udp end / end"
	expect_log 'Flow rule #0 created' 2
	clear_rx
	send "$MAC" 4789 20
	_i=0
	while set -- $(rx_counts); [ "$1" != 20 ]; do
		_i=$((_i + 1))
		[ $_i -le 40 ] || fail "RSS: rx total q0 q1 q2 q3 = $*, not 20 in all"
		sleep 0.5
	done
	[ "$2" = 0 ] && [ "$3" = 0 ] && [ "$4" -gt 0 ] && [ "$5" -gt 0 ] ||
		fail "RSS over queues 2 and 3: rx total q0 q1 q2 q3 = $*"
	cmd "flow destroy 0 rule 0"
	expect_log 'Flow rule #0 destroyed' 2

	cmd "$RULE actions drop / end"
	expect_log 'Flow rule #0 created' 3
	clear_rx
	send "$MAC" 4789 20
	send "$MAC" 53 12
	expect_rx "12 12 0 0 0" "DROP"
	cmd "flow flush 0"
	[ "$(live_flows)" = "$base" ] || fail "flow flush left rules in the device"

	# Isolated before start: only the rule's frames; the rule waits for the start (testpmd
	# flushes a port's rules when it stops it).
	cmd "stop"
	cmd "port stop 0"
	cmd "flow isolate 0 true"
	expect_log 'Ingress traffic on port 0 is now restricted'
	cmd "$RULE actions queue index 3 / end"
	expect_log 'Flow rule #0 created' 4
	cmd "port start 0"
	cmd "start"
	bg_wait_log 'rxonly packet forwarding' 30 2
	clear_rx
	send "$MAC" 4789 20
	send "$MAC" 53 12
	send ff:ff:ff:ff:ff:ff 53 4
	expect_rx "20 0 0 0 20" "isolated"
	cmd "flow flush 0"
	cmd "stop"
	cmd "port stop 0"
	cmd "flow isolate 0 false"
	expect_log 'Ingress traffic on port 0 is not restricted anymore'
	cmd "port start 0"
	cmd "start"
	bg_wait_log 'rxonly packet forwarding' 30 3
	clear_rx
	send "$MAC" 53 12
	expect_rx "12 12 0 0 0" "isolation off"
	stop
	reject "$bg_out" "misuse total [1-9]"
}

debian() {
	[ -x /usr/bin/dpdk-testpmd ] || { echo "no Debian testpmd: that part skipped"; return; }
	plugins=$(stage_plugins) || fail "cannot stage plugins"
	start /usr/bin/dpdk-testpmd -d "$plugins"
	cmd "$RULE actions queue index 3 / end"
	expect_log 'Flow rule #0 created'
	clear_rx
	send "$MAC" 4789 20
	send "$MAC" 53 12
	expect_rx "32 12 0 0 20" "Debian testpmd: UDP to 4789 to queue 3"
	stop
}

for prog in "$@"; do
	case $prog in
	ours) ours ;;
	debian) debian ;;
	*) fail "no testpmd \"$prog\" (ours or debian)" ;;
	esac
done
echo "PASS"
