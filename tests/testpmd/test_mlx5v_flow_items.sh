#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# rte_flow items of net_mlx5v beyond the outer headers (doc/guides/nics/mlx5v.rst, "Flow rules
# (rte_flow)"), with traffic: a simulated ConnectX port on a TAP interface in a network
# namespace of its own, frames sent into the TAP by a packet socket, testpmd receiving on 4
# queues (RSS off: what no rule takes lands on queue 0). An ICMP echo-request rule moves the
# requests alone to its queue (not the replies), an ICMPv6 one likewise; a VXLAN VNI rule
# with an inner IPv4 destination moves the frames of that VNI to that address alone (not
# another VNI's, not another inner address); "flow dump" prints what each rule holds in the
# device; validate refuses what the match sets or the device's caps cannot express, naming
# the field (a model without the ICMP flex parser or the tunnel fields: flex_parser_icmp=0,
# ft_tunnel=0).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tap_rx_lib.sh"
tap_rx_init mlxvi
MAC=02:00:00:00:bb:01

# The frame sender, into IF to DST_MAC, COUNT frames of KIND:
#   icmp TYPE        IPv4 ICMP of that type (8 echo request, 0 echo reply), code 0
#   icmp6 TYPE       IPv6 ICMPv6 of that type (128 echo request, 129 echo reply), code 0
#   vxlan VNI INNER  IPv4/UDP to 4789, VXLAN with VNI, an inner IPv4/UDP frame to INNER
cat >"$work/send.py" <<'EOF'
import socket
import struct
import sys

ifname, dmac, count, kind = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
src = bytes.fromhex("020000000099")
dst = bytes.fromhex(dmac.replace(":", ""))


def ipv4(proto, l4, i, saddr="10.0.0.1", daddr="10.0.0.2"):
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), i, 0, 64, proto, 0,
                       socket.inet_aton(saddr), socket.inet_aton(daddr)) + l4


def udp(sport, dport, payload):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
for i in range(count):
    if kind == "icmp":
        icmp = struct.pack("!BBHHH", int(sys.argv[5]), 0, 0, 0x77, i) + bytes(24)
        frame = dst + src + b"\x08\x00" + ipv4(1, icmp, i)
    elif kind == "icmp6":
        icmp = struct.pack("!BBHHH", int(sys.argv[5]), 0, 0, 0x77, i) + bytes(24)
        ip6 = struct.pack("!IHBB16s16s", 6 << 28, len(icmp), 58, 64,
                          socket.inet_pton(socket.AF_INET6, "fd00::1"),
                          socket.inet_pton(socket.AF_INET6, "fd00::2")) + icmp
        frame = dst + src + b"\x86\xdd" + ip6
    else:
        vni, inner = int(sys.argv[5]), sys.argv[6]
        ieth = bytes.fromhex("02000000cc02020000cc0001") + b"\x08\x00"
        iframe = ieth + ipv4(17, udp(2000 + i, 5000, bytes(18)), i, "192.168.0.1", inner)
        vx = struct.pack("!II", 0x08000000, vni << 8) + iframe
        frame = dst + src + b"\x08\x00" + ipv4(17, udp(3000 + i, 4789, vx), i)
    s.send(frame)
EOF

send() {
	ip netns exec "$ns" python3 "$work/send.py" "$tap" "$MAC" "$@" || fail "cannot send frames"
}

# start [DEVARGS]: testpmd on the port (model devargs DEVARGS), its TAP in the namespace, up.
start() {
	tap_rx_start "$(sim_vdev mlx5v_sim0 "tap:$tap" "$1")" "$TESTPMD"
}

# expect_rxq "Q0 Q1 Q2 Q3" WHAT: queues 1-3 receive exactly those counts, queue 0 at least
# its (what the kernel sends on the TAP itself, if anything, matches no rule: it lands there).
expect_rxq() {
	_i=0
	set -- $1 "$2"
	while _got=$(rx_counts); ! echo "$_got" |
		awk -v q0="$1" -v q="$2 $3 $4" '{ exit !($2 >= q0 && $3 " " $4 " " $5 == q) }'; do
		_i=$((_i + 1))
		[ $_i -le 40 ] || { cat "$bg_out"; fail "$5: rx total q0 q1 q2 q3 = $_got"; }
		sleep 0.5
	done
}

start
# ICMP echo requests to queue 3, counted: the replies stay on queue 0.
cmd "flow create 0 ingress pattern eth / ipv4 / icmp type is 8 / end actions queue index 3 / count / end"
expect_log 'Flow rule #0 created'
clear_rx
send 10 icmp 8
send 6 icmp 0
expect_rxq "6 0 0 10" "ICMP echo requests to queue 3"
# ICMPv6 echo requests to queue 2: the replies and the ICMP requests elsewhere.
cmd "flow create 0 ingress pattern eth / ipv6 / icmp6 type is 128 / end actions queue index 2 / end"
expect_log 'Flow rule #1 created'
clear_rx
send 5 icmp6 128
send 4 icmp6 129
send 3 icmp 8
expect_rxq "4 0 5 3" "ICMPv6 echo requests to queue 2"
# VNI 42 with the inner destination 192.168.0.2 to queue 1, marked: not VNI 43, not .3.
cmd "flow create 0 ingress pattern eth / ipv4 / udp / vxlan vni is 42 / eth / ipv4 dst is 192.168.0.2 / end actions mark id 0x42 / queue index 1 / end"
expect_log 'Flow rule #2 created'
cmd "flow list 0"
expect_log 'ETH IPV4 UDP VXLAN ETH IPV4 => MARK QUEUE'
clear_rx
send 7 vxlan 42 192.168.0.2
send 5 vxlan 43 192.168.0.2
send 3 vxlan 42 192.168.0.3
expect_rxq "8 7 0 0" "VNI 42 to 192.168.0.2 to queue 1"

# The dump: what each rule holds in the device.
cmd "flow dump 0 all"
expect_log '^mlx5v flow rule 2: '
cmd "flow dump 0 rule 0"
expect_log '^mlx5v flow rule 0: ' 2
stop
rule() {
	sed -n "/^mlx5v flow rule $1: /,/^ *actions/p" "$bg_out" | head -20
}
r0=$(rule 0)
echo "$r0" | grep -Eq 'group 0 .*level 0 .*priority 0 .*index 0 ' || fail "rule 0 place: $r0"
echo "$r0" | grep -Eq 'criteria 0x11 ' || fail "rule 0 criteria (outer, misc 3): $r0"
echo "$r0" | grep -q 'outer: .*ip_version 4/0xf .*ip_protocol 1/0xff' ||
	fail "rule 0 outer match: $r0"
echo "$r0" | grep -q 'misc3: icmp_type 8/0xff icmp_code 0/0x0' || fail "rule 0 misc 3: $r0"
echo "$r0" | grep -Eq 'actions: queue 3 tir 0x[0-9a-f]+ counter 0x[0-9a-f]+ hits 13 ' ||
	fail "rule 0 actions: $r0"
r1=$(rule 1)
echo "$r1" | grep -q 'misc3: icmpv6_type 128/0xff icmpv6_code 0/0x0' ||
	fail "rule 1 misc 3: $r1"
echo "$r1" | grep -Eq 'index 16 ' || fail "rule 1 entry: $r1"
r2=$(rule 2)
echo "$r2" | grep -Eq 'criteria 0x7 ' || fail "rule 2 criteria (outer, misc, inner): $r2"
echo "$r2" | grep -q 'outer: .*udp_dport 4789/0xffff' || fail "rule 2 outer: $r2"
echo "$r2" | grep -q 'misc: vxlan_vni 42/0xffffff' || fail "rule 2 VNI: $r2"
echo "$r2" | grep -q 'inner: .*ip_version 4/0xf .*dst_ip 192.168.0.2/255.255.255.255' ||
	fail "rule 2 inner: $r2"
echo "$r2" | grep -Eq 'actions: queue 1 tir 0x[0-9a-f]+ flow_tag 0x43' || fail "rule 2 actions: $r2"
[ "$(grep -c '^mlx5v flow rule 0: ' "$bg_out")" = 2 ] || fail "rule 0 not in both dumps"
[ "$(grep -c '^mlx5v flow rule 2: ' "$bg_out")" = 1 ] || fail "rule 2 in the one-rule dump"

# What cannot be expressed: refused by validate, naming the field.
start
cmd "flow validate 0 ingress pattern eth / ipv4 / icmp ident is 5 / end actions drop / end"
expect_log 'icmp: only icmp_type and icmp_code are matched'
cmd "flow validate 0 ingress pattern eth / ipv4 / udp / vxlan last_rsvd is 1 / end actions drop / end"
expect_log 'vxlan: only vni is matched'
cmd "flow validate 0 ingress pattern eth / ipv4 / udp / vxlan / eth / ipv4 / icmp / end actions drop / end"
expect_log 'after vxlan only eth, vlan, ipv4, ipv6, udp and tcp'
cmd "flow validate 0 ingress pattern eth / ipv4 / icmp6 / end actions drop / end"
expect_log 'icmp6 without ipv6'
stop
start flex_parser_icmp=2,ft_tunnel=0
cmd "flow validate 0 ingress pattern eth / ipv4 / icmp type is 8 / end actions drop / end"
expect_log 'icmp: icmp_type and icmp_code: the device does not parse ICMP'
cmd "flow validate 0 ingress pattern eth / ipv6 / icmp6 type is 128 / end actions drop / end"
expect_log 'Flow rule validated'
cmd "flow validate 0 ingress pattern eth / ipv4 / udp / vxlan vni is 42 / end actions drop / end"
expect_log "vxlan: vni: the device's NIC RX tables do not match it"
cmd "flow validate 0 ingress pattern eth / ipv4 / udp / vxlan / eth / ipv4 dst is 1.2.3.4 / end actions drop / end"
expect_log "inner headers: the device's NIC RX tables do not match them"
stop
echo "PASS"
