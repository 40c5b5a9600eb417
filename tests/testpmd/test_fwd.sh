#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Packet forwarding through the PMDs' data path between two simulated ports cabled together
# (wire=pair): io, mac and csum forwarding with start tx_first, the counts equal both ways with
# no drops, stop / 1, 2, 4 queues / start, and RSS spreading txonly's flows over 4 queues.
# A mac forwarding round to broadcast runs with promiscuous mode off: the ports must take
# broadcast without it, and a port must not take back its own (net_mlx4v writes no control
# segment MAC on a PF, so nothing it sends loops back: doc/guides/sim/silicon.rst).
# Usage: test_fwd.sh KIND [ours] [debian]: KIND as sim_kind in lib.sh (mlx5v, mlx4v, mixed, or
# vfio: the ports on two emulated PCI functions through our vfio-pci backend);
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
LAUNCH=$(sim_launcher "$kind" pair pair)
EAL=$(sim_eal "$kind" 256)
TP_ARGS="-- -i --total-num-mbufs=16384 --nb-cores=1 --txonly-multi-flow"

# A forwarding round: inject and stop; then start again (testpmd flushes what is in the Rx
# rings and counts it) and stop, until every frame sent has been received. A frame the
# simulator delivers after that flush (its engine thread is late on a busy machine) would be
# forwarded once more and still be on the wire at the stop: so "start / stop" is repeated
# (bounded) until the ports' counts settle, which the settle dumps ("show port xstats")
# show; the round's own dump ("show port stats all") comes last. stdout line-buffered
# (stdbuf), so that a dump is in the log as soon as it is printed.
TP_CMDS=
tp() { TP_CMDS="$TP_CMDS$1"; }
tp_round() { tp 'start tx_first\nstop\n'; tp '@settle\n'; tp 'show port stats all\n'; }
tp 'clear port stats all\nset fwd io\n'
tp_round
tp 'clear port stats all\nset fwd mac\n'
tp_round
tp 'clear port stats all\nset fwd csum\n'
tp_round
rounds=7
tp 'set promisc all off\nset eth-peer 0 ff:ff:ff:ff:ff:ff\n'
tp 'set eth-peer 1 ff:ff:ff:ff:ff:ff\n'
tp 'clear port stats all\nset fwd mac\n'
tp_round
# testpmd's default peers again (02:00:00:00:00:<port>), promiscuous as before.
tp 'set eth-peer 0 02:00:00:00:00:00\nset eth-peer 1 02:00:00:00:00:01\n'
tp 'set promisc all on\n'
for q in 1 2 4; do
	tp "port stop all\nport config all rxq $q\nport config all txq $q\n"
	tp 'port start all\nclear port stats all\nset fwd io\n'
	tp_round
done
# RSS: txonly's flows on 4 queues; the next start's flush receives them on every queue.
tp 'clear port stats all\nset fwd txonly\nstart\nstop\nset fwd io\nstart\nstop\n'
tp 'show port xstats 0\nshow port xstats 1\nshow port info 0\nshow port info 1\nquit\n'

# settled FILE: "N OK": N settle dumps ("show port xstats 0/1") of port 1 are complete in
# FILE, OK 1 if the last ones say each port received what the other one sent.
settled() {
	awk '
	/NIC extended statistics for port/ { port = $NF }
	$1 == "rx_good_packets:" { rx[port] = $2 }
	$1 == "tx_good_packets:" { tx[port] = $2; if (port == 1) n++ }
	END { print n + 0, (n > 0 && rx[0] == tx[1] && rx[1] == tx[0]) ? 1 : 0 }
	' "$1"
}

# feed FILE: write the session's commands, where each @settle is "start / stop" and the
# settle dumps again (at most 20 times, each dump awaited up to 10 s) until settled.
feed() {
	dumps=0
	printf '%b' "$TP_CMDS" | while IFS= read -r line; do
		if [ "$line" != "@settle" ]; then
			printf '%s\n' "$line"
			continue
		fi
		try=0
		while [ $try -lt 20 ]; do
			try=$((try + 1))
			dumps=$((dumps + 1))
			printf 'start\nstop\nshow port xstats 0\nshow port xstats 1\n'
			w=0
			while set -- "$1" $(settled "$1"); [ "$2" -lt $dumps ] && [ $w -lt 100 ]; do
				w=$((w + 1))
				sleep 0.1
			done
			[ "$3" = 1 ] && break
			sleep 0.2
		done
	done
}

# check_rounds FILE: in every stats dump, each port received what the other one sent,
# something was sent, and nothing was missed or in error.
check_rounds() {
	awk -v rounds="$rounds" '
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
	END { if (n != rounds) { printf "%d rounds, %d expected\n", n, rounds; bad = 1 }
	      exit bad }
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
	devs=$(grep -Eo 'Device name: [a-z0-9_:.]+' "$1" | sed 's/.* //' | tr '\n' ' ')
	[ "$devs" = "$(sim_dev "$kind" 0) $(sim_dev "$kind" 1) " ] ||
		fail "ports on $devs, not on $kind devices"
	reject "$1" 'Fail to|[a-z] failed|net_mlx[45]v: port'
}

for prog in "$@"; do
	case $prog in
	ours)
		: >"$out"
		feed "$out" | (cd / && timeout 300 stdbuf -oL $LAUNCH "$TESTPMD" $EAL -l 0-1 $PAIR \
			$TP_ARGS) \
			>"$out" 2>&1 || { cat "$out"; fail "testpmd failed"; }
		cat "$out"
		;;
	debian)
		: >"$out"
		feed "$out" | (cd / && timeout 300 stdbuf -oL $LAUNCH /usr/bin/dpdk-testpmd \
			-d "$plugins" $EAL -l 0-1 $PAIR $TP_ARGS) >"$out" 2>&1 ||
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
