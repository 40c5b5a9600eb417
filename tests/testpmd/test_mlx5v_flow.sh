#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# rte_flow on net_mlx5v, executed by the simulated function's steering, with traffic: the
# port on a loop wire sends one burst of UDP frames to port 4789 per Tx queue from many source
# addresses (txonly multi-flow, so that RSS spreads them over the 4 Rx queues); rxonly with
# verbose output shows the queue, the FDIR mark and the flags of each frame received. A rule
# to queue 3 moves exactly those frames, RSS spreads them over its queues alone, DROP drops
# them, MARK and FLAG set the mbuf's FDIR fields, COUNT counts them, priorities and JUMP order
# the rules, hundreds of rules of one priority share flow groups, isolated mode stops every
# other frame, and refused rules leave no object in the device (doc/guides/nics/mlx5v.rst,
# "Flow rules (rte_flow)").
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
plugins=
trap 'rm -f "$out"; [ -z "$plugins" ] || rm -rf "$plugins"' EXIT
# Extra arguments before EAL's: Debian's testpmd gets our drivers with -d.
TP_D=
DEV=mlx5v_sim0
TP_ARGS="-- -i --rxq=4 --txq=4 --tx-udp=1234,4789 --txonly-multi-flow --total-num-mbufs=8192"
TRAFFIC='set fwd rxonly\nset verbose 1\nstart tx_first\n#sleep\nstop\nset verbose 0\n'

#
# usage: test_mlx5v_flow.sh [0|1]: the flow_async devarg (default 1 here, 0 in the PMD): with 1
# a rule's flow entry is posted without waiting, and a failure of it the model injects shows on
# the rule's query and destroy; with 0 the create itself fails.
FLOW_ASYNC=${1:-1}
# flow_session "commands": testpmd on the loop wire; a line "#sleep" waits a second (the
# frames of tx_first travel the wire before stop). Line-buffered: the forwarding lcore's
# verbose lines and the command line's echo interleave by whole lines only.
flow_session() {
	printf '%b' "$1" | while IFS= read -r _l; do
		if [ "$_l" = "#sleep" ]; then sleep 1; else echo "$_l"; fi
	done | (cd / && timeout 120 stdbuf -oL "$TESTPMD" $TP_D $EAL_BASE -l 0-1 \
		--vdev=$DEV,wire=loop,flow_async=$FLOW_ASYNC $TP_ARGS) >"$out" 2>&1
	_rc=$?
	cat "$out"
	[ $_rc -eq 0 ] || fail "testpmd exited with $_rc"
}

# The queues that received frames, as "0 1 ...".
rx_queues() {
	grep -Eo 'port 0/queue [0-9]+: received' "$out" | sed -E 's/.*queue ([0-9]+):.*/\1/' |
		sort -u | tr '\n' ' '
}

# The port's RX-packets in the forward statistics of the first stop (not a stream's).
rx_packets() {
	grep -Eo 'RX-packets: +[0-9]+ +RX-dropped' "$out" | head -1 | awk '{ print $2 }'
}

# The device's live steering objects, from "mlx5v dev show" number N (1 = the first).
steering() {
	grep 'simulator steering' "$out" | sed -n "${1}p" | sed 's/.*live //'
}

# Without a rule: RSS spreads the frames over several queues, no FDIR flag.
flow_session "flow list 0\n${TRAFFIC}quit\n"
q=$(rx_queues)
[ "$(echo "$q" | wc -w)" -ge 2 ] || fail "RSS put every frame on queue(s) $q: the test needs spread"
reject "$out" 'FDIR'

# UDP dport 4789 to queue 3 with a mark and a counter: every frame on queue 3, marked,
# counted with its bytes; then a rule that does not match (dport 4790) changes nothing.
# queue_mark_count: the rule's session and its checks (used again with Debian's testpmd).
queue_mark_count() {
	cmds='flow validate 0 ingress pattern eth / ipv4 / udp dst is 4789 / end actions queue index 3 / end\n'
	cmds="${cmds}flow create 0 ingress pattern eth / ipv4 / udp dst is 4789 / end actions mark id 0x1234 / queue index 3 / count / end\n"
	cmds="${cmds}flow list 0\n${TRAFFIC}flow query 0 0 count\nquit\n"
	flow_session "$cmds"
	expect "$out" 'Flow rule validated'
	expect "$out" 'Flow rule #0 created'
	expect "$out" 'ETH IPV4 UDP => MARK QUEUE COUNT'
	[ "$(rx_queues)" = "3 " ] || fail "frames of the rule on queues $(rx_queues), not 3 alone"
	[ "$(grep -o 'FDIR matched ID=0x1234' "$out" | wc -l)" -eq "$(rx_packets)" ] ||
		fail "not every frame received carries the mark"
	hits=$(grep -Eo 'hits: [0-9]+' "$out" | awk '{ print $2 }')
	bytes=$(grep -Eo 'bytes: [0-9]+' "$out" | awk '{ print $2 }')
	[ "${hits:-0}" -ge "$(rx_packets)" ] && [ "${hits:-0}" -gt 0 ] ||
		fail "count: $hits hits for $(rx_packets) frames received"
	[ "$bytes" -eq $((hits * 64)) ] || fail "count: $bytes bytes for $hits frames of 64 bytes"
}
queue_mark_count
# Two QUEUE rules to one queue share its direct TIR: one TIR more in the device, not two.
cmds="mlx5v dev show $DEV\n"
cmds="${cmds}flow create 0 ingress pattern eth / ipv4 / udp dst is 4789 / end actions queue index 3 / end\n"
cmds="${cmds}flow create 0 ingress pattern eth / ipv4 / udp dst is 4790 / end actions queue index 3 / end\n"
cmds="${cmds}mlx5v dev show $DEV\nflow flush 0\nmlx5v dev show $DEV\nquit\n"
flow_session "$cmds"
tirs() {
	steering "$1" | sed -E 's/.*TIR ([0-9]+).*/\1/'
}
[ $(($(tirs 2) - $(tirs 1))) -eq 1 ] ||
	fail "two QUEUE rules to queue 3 made $(($(tirs 2) - $(tirs 1))) TIRs, one expected"
[ "$(tirs 3)" = "$(tirs 1)" ] || fail "flush left TIRs: $(tirs 3), before: $(tirs 1)"

# "Not a fragment" (fragment_offset 0 under 0x3fff, the frag bit at 0, as Open vSwitch asks):
# txonly's frames are not fragments, all on queue 3.
flow_session "flow create 0 ingress pattern eth / ipv4 fragment_offset spec 0 fragment_offset mask 0x3fff / udp dst is 4789 / end actions queue index 3 / end\n${TRAFFIC}quit\n"
[ "$(rx_queues)" = "3 " ] || fail "not-a-fragment rule: frames on queues $(rx_queues)"
flow_session "flow create 0 ingress pattern eth / ipv4 / udp dst is 4790 / end actions queue index 3 / end\n${TRAFFIC}quit\n"
[ "$(rx_queues)" != "3 " ] || fail "a rule for port 4790 took the frames to port 4789"
reject "$out" 'FDIR'

# DROP (with a counter): nothing received, everything counted. FLAG: FDIR without an id.
flow_session "flow create 0 ingress pattern eth / ipv4 / udp dst is 4789 / end actions count / drop / end\n${TRAFFIC}flow query 0 0 count\nquit\n"
[ "$(rx_packets)" -eq 0 ] || fail "DROP: $(rx_packets) frames received"
grep -Eq 'hits: [1-9]' "$out" || fail "DROP: the dropped frames were not counted"
flow_session "flow create 0 ingress pattern eth / ipv4 / udp / end actions flag / queue index 1 / end\n${TRAFFIC}quit\n"
[ "$(rx_queues)" = "1 " ] || fail "FLAG rule: frames on queues $(rx_queues)"
[ "$(grep -o 'FDIR matched hash=' "$out" | wc -l)" -eq "$(rx_packets)" ] || fail "FLAG: no FDIR flag"
reject "$out" 'FDIR matched ID'

# Priorities: the priority-0 rule wins over the priority-1 one whatever the order of
# creation, until it is destroyed. JUMP: group 0 sends IPv4 on to group 1, which picks UDP.
cmds='flow create 0 priority 1 ingress pattern eth / ipv4 / udp dst is 4789 / end actions queue index 1 / end\n'
cmds="${cmds}flow create 0 priority 0 ingress pattern eth / ipv4 / end actions queue index 2 / end\n"
cmds="${cmds}${TRAFFIC}flow destroy 0 rule 1\n${TRAFFIC}quit\n"
flow_session "$cmds"
grep -Eo 'port 0/queue [0-9]+: received' "$out" | head -1 | grep -q 'queue 2' ||
	fail "priority 0 did not win"
grep -Eo 'port 0/queue [0-9]+: received' "$out" | tail -1 | grep -q 'queue 1' ||
	fail "the priority-1 rule did not take over once the other was destroyed"
# 300 rules of one priority and mask (more than the 128 entries a priority once had) share a
# few flow groups; the one for port 4789, created last, takes the frames; a priority-0 rule of
# another mask still wins over all of them; flush leaves no group.
cmds="mlx5v dev show $DEV\n"
p=5000
while [ $p -lt 5299 ]; do
	cmds="${cmds}flow create 0 priority 1 ingress pattern eth / ipv4 / udp dst is $p / end actions queue index 1 / end\n"
	p=$((p + 1))
done
cmds="${cmds}flow create 0 priority 1 ingress pattern eth / ipv4 / udp dst is 4789 / end actions queue index 1 / end\n"
cmds="${cmds}mlx5v dev show $DEV\n${TRAFFIC}"
cmds="${cmds}flow create 0 priority 0 ingress pattern eth / ipv4 / end actions queue index 2 / end\n"
cmds="${cmds}${TRAFFIC}flow flush 0\nmlx5v dev show $DEV\nquit\n"
flow_session "$cmds"
expect "$out" 'Flow rule #299 created'
fgs() {
	steering "$1" | sed -E 's/.* FG ([0-9]+).*/\1/'
}
ftes() {
	steering "$1" | sed -E 's/.* FTE ([0-9]+).*/\1/'
}
[ $(($(ftes 2) - $(ftes 1))) -eq 300 ] || fail "$(($(ftes 2) - $(ftes 1))) entries for 300 rules"
[ $(($(fgs 2) - $(fgs 1))) -le 8 ] || fail "300 rules of one mask made $(($(fgs 2) - $(fgs 1))) groups"
grep -Eo 'port 0/queue [0-9]+: received' "$out" | head -1 | grep -q 'queue 1' ||
	fail "the 300th rule of priority 1 did not take the frames"
grep -Eo 'port 0/queue [0-9]+: received' "$out" | tail -1 | grep -q 'queue 2' ||
	fail "priority 0 did not win over 300 rules of priority 1"
[ "$(fgs 3)" = "$(fgs 1)" ] && [ "$(ftes 3)" = "$(ftes 1)" ] ||
	fail "flush left groups or entries: $(steering 3), before: $(steering 1)"
cmds='flow create 0 group 1 ingress pattern eth / ipv4 / udp dst is 4789 / end actions queue index 2 / end\n'
cmds="${cmds}flow create 0 group 0 ingress pattern eth / ipv4 / end actions jump group 1 / end\n"
cmds="${cmds}${TRAFFIC}quit\n"
flow_session "$cmds"
[ "$(rx_queues)" = "2 " ] || fail "JUMP: frames on queues $(rx_queues), not 2"

# RSS over queues 1 and 2: the frames spread over those two alone.
flow_session "flow create 0 ingress pattern eth / ipv4 / udp dst is 4789 / end actions rss queues 1 2 end types ipv4-udp end / end\n${TRAFFIC}quit\n"
[ "$(rx_queues)" = "1 2 " ] || fail "RSS over queues 1 2: frames on queues $(rx_queues)"

# Isolated mode: nothing but what a rule takes; a rule for other frames takes nothing.
cmds="port stop 0\nflow isolate 0 true\nport start 0\n${TRAFFIC}"
cmds="${cmds}flow create 0 ingress pattern eth / ipv4 / udp dst is 4790 / end actions queue index 0 / end\n"
cmds="${cmds}${TRAFFIC}"
cmds="${cmds}flow create 0 ingress pattern eth / ipv4 / udp dst is 4789 / end actions queue index 2 / end\n"
cmds="${cmds}${TRAFFIC}quit\n"
flow_session "$cmds"
expect "$out" 'Ingress traffic on port 0 is now restricted to the defined flow rules'
n=$(grep -Eo 'RX-packets: +[0-9]+ +RX-dropped' "$out" | awk 'NR % 2 == 1 { printf "%s ", $2 }')
case $n in
0\ 0\ [1-9]*) ;;
*) fail "isolated: RX-packets per run $n, expected 0, 0, then the rule's frames" ;;
esac
[ "$(rx_queues)" = "2 " ] || fail "isolated: frames on queues $(rx_queues)"

# Refused rules: validate names the field; a rule the device refuses halfway (the entry's
# command fails) leaves no object behind; flush and stop leave the default steering alone.
cmds="mlx5v dev show $DEV\n"
cmds="${cmds}flow validate 0 ingress pattern eth / ipv4 tos is 4 / end actions queue index 0 / end\n"
cmds="${cmds}flow validate 0 ingress pattern eth / ipv4 / icmp ident is 8 / end actions drop / end\n"
cmds="${cmds}flow validate 0 ingress pattern eth / ipv4 fragment_offset spec 0x2000 fragment_offset mask 0x3fff / end actions drop / end\n"
cmds="${cmds}flow validate 0 ingress pattern eth / ipv4 / udp / vxlan last_rsvd is 5 / end actions drop / end\n"
cmds="${cmds}flow validate 0 ingress pattern eth / ipv4 / end actions queue index 4 / end\n"
cmds="${cmds}flow validate 0 priority 8 ingress pattern eth / end actions drop / end\n"
cmds="${cmds}flow validate 0 egress pattern eth / end actions drop / end\n"
cmds="${cmds}flow validate 0 ingress pattern eth / ipv4 / end actions mark id 1 / end\n"
cmds="${cmds}flow validate 0 group 1 ingress pattern eth / end actions jump group 1 / end\n"
cmds="${cmds}flow validate 0 ingress pattern eth / end actions rss queues 1 2 end / end\n"
cmds="${cmds}mlx5v sim fail $DEV 0x936 0x3 0x51070043\n"
cmds="${cmds}flow create 0 group 2 ingress pattern eth / ipv4 / udp dst is 4789 / end actions queue index 3 / count / end\n"
cmds="${cmds}flow query 0 0 count\nflow destroy 0 rule 0\n"
cmds="${cmds}mlx5v dev show $DEV\n"
cmds="${cmds}flow create 0 ingress pattern eth / ipv4 / udp / end actions count / queue index 1 / end\n"
cmds="${cmds}flow create 0 ingress pattern eth / ipv4 / end actions jump group 3 / end\n"
cmds="${cmds}flow create 0 ingress pattern eth / ipv6 / tcp / end actions rss queues 0 1 2 end / end\n"
cmds="${cmds}flow flush 0\nmlx5v dev show $DEV\nquit\n"
flow_session "$cmds"
expect "$out" 'ipv4: only src_addr, dst_addr, next_proto_id and fragment_offset are matched'
expect "$out" 'ipv4: fragment_offset: only 0 under mask 0x3fff'
expect "$out" 'icmp: only icmp_type and icmp_code are matched'
expect "$out" 'vxlan: only vni is matched'
expect "$out" 'queue index beyond the Rx queues'
expect "$out" 'priority: 0 to 7'
expect "$out" 'egress rules are not supported'
expect "$out" 'a fate action is required'
expect "$out" 'jump group: a higher group'
expect "$out" 'rss: the pattern must name ipv4 or ipv6'
expect "$out" 'flow entry'
if [ "$FLOW_ASYNC" = 1 ]; then
	# Created, then its posted entry failed: logged when reaped, reported on query and
	# destroy, counted; the destroy released every object of the rule.
	expect "$out" 'Flow rule #0 created'
	expect "$out" 'its posted flow entry failed'
	expect "$out" "the rule's posted flow entry failed"
	expect "$out" 'rule destroyed; its posted flow entry had failed'
	expect "$out" 'asynchronous commands [0-9]+, failed 1,'
else
	# The create itself failed: no rule to query.
	expect "$out" 'Flow rule #0 not found'
fi
before=$(steering 1)
[ "$(steering 2)" = "$before" ] || fail "a refused rule left objects: $(steering 2), before: $before"
[ "$(steering 3)" = "$before" ] || fail "after flush: $(steering 3), before: $before"
echo "$before" | grep -q 'FTE [1-9]' || fail "no default entries: $before"

# Debian's dpdk-testpmd, our drivers loaded with -d: the same rule moves, marks and counts the
# same frames.
if [ -x /usr/bin/dpdk-testpmd ]; then
	plugins=$(stage_plugins) || fail "cannot stage plugins"
	TESTPMD=/usr/bin/dpdk-testpmd
	TP_D="-d $plugins"
	queue_mark_count
else
	echo "no Debian testpmd: that part skipped"
fi
echo "ok"
