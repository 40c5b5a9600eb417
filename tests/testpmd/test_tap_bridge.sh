#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# A bridge of two simulated ports does not storm (usage: test_tap_bridge.sh KIND,
# KIND as sim_kind in lib.sh): testpmd io-forwards between two ports wired to TAP interfaces in
# two network namespaces made here, as a two-port switch would; one broadcast from the first
# namespace must cross once and stop. A PMD that wrote the control segment's MAC on a PF (the
# device then hands the port's own broadcast back to its broadcast rule) made testpmd forward
# it back and forth without end.

. "$MLXV_SRC/tests/testpmd/lib.sh"
kind=$1
sim_kind "$kind"

command -v ping >/dev/null || skip "no ping(8)"
tap_fwd_start "$kind" 10.78.0

# rx_total: the sum of RX-packets over both ports, from a fresh "show port stats all".
rx_total() {
	_c=$(grep -c 'RX-packets' "$bg_out")
	cmd "show port stats all"
	bg_wait_log 'RX-packets' 10 $((_c + 2))
	grep 'RX-packets' "$bg_out" | tail -n 2 | awk '{ s += $2 } END { print s }'
}

# tap2_count RX|TX: the packets counter of the second namespace's TAP; fails if it is gone
# (testpmd holds it open, so it may not vanish while the test runs).
tap2_count() {
	_s=$(ip -n "$ns2" -s link show "$tap2") || { cat "$bg_out"; fail "TAP $tap2 vanished"; }
	echo "$_s" | awk "/$1:/ { getline; print \$2 }"
}

before=$(rx_total) || exit 1
tx2=$(tap2_count TX) || exit 1
rx2=$(tap2_count RX) || exit 1
# One broadcast ping (Ethernet destination ff:ff:ff:ff:ff:ff) from the first namespace.
ip netns exec "$ns1" ping -b -c 1 -W 1 10.78.0.255 >/dev/null 2>&1
# The second namespace sees it arrive: the bridge carried it.
n=0
while r=$(tap2_count RX) || exit 1; [ "$r" -le "$rx2" ]
do
	n=$((n + 1))
	[ $n -lt 50 ] || { cat "$bg_out"; fail "the broadcast did not cross the bridge"; }
	sleep 0.1
done
# Give a storm time to build, then count what the ports received: the broadcast once on port 0,
# plus at most the second namespace's own frames (its TX count) on port 1.
sleep 2
after=$(rx_total) || exit 1
tx2b=$(tap2_count TX) || exit 1
got=$((after - before))
allowed=$((1 + tx2b - tx2))
echo "ports received $got frame(s); the bridge was offered $allowed"
[ "$got" -le "$allowed" ] || { cat "$bg_out"; fail "bridge storm: $got frames for $allowed offered"; }

cmd "stop"
cmd "quit"
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|Bad port|failed'
echo "a broadcast crosses a bridge of two $kind ports once"
