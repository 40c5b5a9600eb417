#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Packet forwarding through the PMDs' data path between two simulated ports cabled together
# (wire=pair): io, mac and csum forwarding with start tx_first, the counts equal both ways with
# no drops, stop / 1, 2, 4 queues / start, and RSS spreading txonly's flows over 4 queues.
# Usage: test_fwd.sh KIND [ours] [debian]: KIND as sim_kind in lib.sh (mlx5v, mlx4v or mixed);
# the session runs in our testpmd ("ours"), then in Debian's unmodified testpmd loading our
# drivers with -d ("debian"); both when none is named.
. "$(dirname "$0")/lib.sh"
kind=$1
sim_kind "$kind"
shift
[ $# -gt 0 ] || set -- ours debian
out=$(mktemp)
plugins=$(stage_plugins) || fail "cannot stage plugins"
trap 'rm -rf "$out" "$plugins"' EXIT
PAIR=$(sim_pair "$kind")
TP_ARGS="-- -i --total-num-mbufs=16384 --nb-cores=1 --txonly-multi-flow"

# A forwarding round: inject, stop, then start again (testpmd flushes what is still in the
# Rx rings and counts it) and stop, so every frame sent has been received by the end.
round='start tx_first\nstop\nstart\nstop\nshow port stats all\n'
cmds='clear port stats all\nset fwd io\n'"$round"
cmds="${cmds}clear port stats all\nset fwd mac\n$round"
cmds="${cmds}clear port stats all\nset fwd csum\n$round"
for q in 1 2 4; do
	cmds="${cmds}port stop all\nport config all rxq $q\nport config all txq $q\n"
	cmds="${cmds}port start all\nclear port stats all\nset fwd io\n$round"
done
# RSS: txonly's flows on 4 queues; the next start's flush receives them on every queue.
cmds="${cmds}clear port stats all\nset fwd txonly\nstart\nstop\nset fwd io\nstart\nstop\n"
cmds="${cmds}show port xstats 0\nshow port xstats 1\nshow port info 0\nshow port info 1\nquit\n"

# check_rounds FILE: in every stats dump, each port received what the other one sent,
# something was sent, and nothing was missed or in error.
check_rounds() {
	awk '
	/####.*NIC statistics for port/ { port = $(NF - 1); in_nic = 1 }
	/Throughput/ { in_nic = 0 }
	in_nic && /RX-packets:/ { rx[port] = $2; missed[port] = $4 }
	in_nic && /RX-errors:/ { rxerr[port] = $2 }
	in_nic && /TX-packets:/ {
		tx[port] = $2; txerr[port] = $4
		if (port == 1) {
			n++
			if (tx[0] == 0 || tx[1] == 0 || rx[1] != tx[0] || rx[0] != tx[1] ||
			    missed[0] + missed[1] + rxerr[0] + rxerr[1] + txerr[0] + txerr[1] != 0) {
				printf "round %d: port 0 rx %s tx %s, port 1 rx %s tx %s, " \
				       "missed %s/%s, errors %s/%s %s/%s\n", n, rx[0], tx[0], rx[1],
				       tx[1], missed[0], missed[1], rxerr[0], rxerr[1], txerr[0],
				       txerr[1]
				bad = 1
			}
		}
	}
	END { if (n != 6) { printf "%d rounds, 6 expected\n", n; bad = 1 } exit bad }
	' "$1" || fail "forwarding counts differ"
}

# check_rss FILE: every one of the 4 Rx queues of both ports received frames.
check_rss() {
	for p in 0 1; do
		for q in 0 1 2 3; do
			n=$(awk -v p="$p" -v q="rx_q${q}_packets:" '
				/NIC extended statistics for port/ { cur = $NF }
				cur == p && $1 == q { v = $2 }
				END { print v + 0 }' "$1")
			[ "$n" -gt 0 ] || fail "port $p Rx queue $q received nothing"
		done
	done
}

check_session() {
	check_rounds "$1"
	check_rss "$1"
	expect "$1" 'Current number of RX queues: 4'
	# Each port on the device of its kind, in port order.
	devs=$(grep -Eo 'Device name: [a-z0-9_]+' "$1" | sed 's/.* //' | tr '\n' ' ')
	[ "$devs" = "$(sim_dev "$kind" 0) $(sim_dev "$kind" 1) " ] ||
		fail "ports on $devs, not on $kind devices"
	reject "$1" 'Fail to|[a-z] failed|net_mlx[45]v: port'
}

for prog in "$@"; do
	case $prog in
	ours)
		run_testpmd "$out" "$cmds" $EAL_BASE -l 0-1 $PAIR $TP_ARGS ||
			fail "testpmd failed"
		;;
	debian)
		printf '%b' "$cmds" | (cd / && timeout 120 /usr/bin/dpdk-testpmd -d "$plugins" \
			$EAL_BASE -l 0-1 $PAIR $TP_ARGS) >"$out" 2>&1 ||
			{ cat "$out"; fail "Debian's testpmd"; }
		cat "$out"
		;;
	*)
		fail "no testpmd \"$prog\" (ours or debian)"
		;;
	esac
	check_session "$out"
	echo "$prog testpmd: forwarding on $kind ports OK"
done
