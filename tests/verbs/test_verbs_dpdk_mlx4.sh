#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# DPDK's own net_mlx4 (the distribution's plugin, unmodified) and the distribution's
# dpdk-testpmd on emulated ConnectX-3 functions (doc/guides/platform/verbs_emulation.rst,
# "DPDK's mlx4 PMD"): probe of both ports with the model's MACs through the mlx4_en netdev
# ioctls, io and mac forwarding between two functions cabled together (also on both ports of
# each), RSS spreading flows
# over 4 queues, promiscuous mode off and on, all-multicast on and off, MTU set (the model
# refuses what the netdev refuses), link down and up of a port seen at the other end of its
# cable.
set -u
RUN="$MLXV_BUILD/app/dpdk-mlxv-verbs-run"
TESTPMD=${MLXV_DPDK_TESTPMD:-/usr/bin/dpdk-testpmd}
PLUGIN_DIR=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
fail=0
out=$(mktemp) err=$(mktemp)
pfx="mlxv-verbs-mlx4-$$"
trap 'rm -f "$out" "$err"; rm -rf "/var/run/dpdk/$pfx"' EXIT

. "$(dirname "$0")/lib.sh"

if [ ! -x "$TESTPMD" ] || [ ! -e "$PLUGIN_DIR/librte_net_mlx4.so" ]; then
	echo "SKIP: the distribution's dpdk-testpmd or its net_mlx4 plugin is not installed"
	exit 77
fi

F0=0000:00:06.0
F1=0000:00:07.0
CABLE="--dev $F0,wire1=pair:verbs-$F1.1 --dev $F1,wire1=pair:verbs-$F0.1"
CABLE2="--dev $F0,wire1=pair:verbs-$F1.1,wire2=pair:verbs-$F1.2
	--dev $F1,wire1=pair:verbs-$F0.1,wire2=pair:verbs-$F0.2"
EAL="--no-huge -m 256 --file-prefix=$pfx --log-level=pmd.net.mlx4:notice"

# Seconds of forwarding where frames are expected: the model's threads share the CPUs with
# testpmd's polling core, and a loaded machine slows them down a hundredfold; the checks
# only ask for more than the first burst.
FWD=5

# What the emulation or the model refuses, a misuse, a crash.
REFUSED='command .*not emulated|ioctl.*not emulated|refused|misuse|PANIC'

# testpmd DEVARGS PMDARGS < commands: interactive, its output in $out (by lines: fwd_wait
# reads it while it runs), stderr in $err. No link or removal interrupts (the link is read
# through the netdev ioctls): DPDK's mlx4 closes its async fd before it unregisters it
# (mlx4_dev_close()), which the EAL interrupt thread can meet at exit (verbs_emulation.rst,
# "DPDK's mlx4 PMD").
testpmd() {
	devs=$1
	shift
	# shellcheck disable=SC2086
	timeout 60 "$RUN" $CABLE -- stdbuf -oL "$TESTPMD" $EAL $devs -- -i --no-lsc-interrupt \
		--no-rmv-interrupt --total-num-mbufs=16384 "$@" >"$out" 2>"$err"
}

# fwd_wait N: wait (60 s at most) until testpmd has started forwarding N times, so that each
# forwarding window of $FWD s counts from there and not from testpmd's start-up, which a
# loaded machine makes long (the commands are in the pipe before testpmd reads them). The
# caller empties $out before the pipeline: the old log must not count.
fwd_wait() {
	_w=0
	while [ "$(grep -c 'packet forwarding - ports' "$out" 2>/dev/null)" -lt "$1" ] &&
	      [ $_w -lt 600 ]; do
		_w=$((_w + 1))
		sleep 0.1
	done
}

# The RX-packets of each port in the forward statistics: "p0 p1".
fwd_rx() {
	awk '/Forward statistics for port/ { p = $5 } /RX-packets:/ && p != "" { printf "%s%s", s, $2;
		s = " "; p = "" }' "$out"
}

# Probe: one function, both ports, MACs as the model's (its sysfs netdevs), link up at 40G.
mac1=$("$RUN" $CABLE -- cat /sys/bus/pci/devices/$F0/net/enp0s6/address)
mac2=$("$RUN" $CABLE -- cat /sys/bus/pci/devices/$F0/net/enp0s6d1/address)
printf 'show port info all\nquit\n' | testpmd "-a $F0"
check "probe: testpmd exits 0" 0 $?
check "probe: two ports with the model's MACs" "$(echo "$mac1 $mac2" | tr a-f A-F)" \
	"$(awk '/^MAC address:/ { printf "%s%s", s, $3; s = " " }' "$out")"
check "probe: links up, 40 Gbps" "up 40 up 40" \
	"$(awk '/^Link status:/ { printf "%s%s", s, $3; s = " " }
		/^Link speed:/ { printf " %s", $3 }' "$out")"
check "probe: nothing refused" "" "$(grep -E "$REFUSED" "$err" "$out")"

# io forwarding, port 1 of each function (port=0), cabled together: each port receives what
# the other sent first and then forwarded (more than the first burst of 32); then mac
# forwarding; the port statistics count no error.
: >"$out"
(printf 'start tx_first\n'; fwd_wait 1; sleep $FWD; printf 'stop\nset fwd mac\nstart tx_first\n'
 fwd_wait 2; sleep $FWD; printf 'stop\nshow port stats all\nquit\n') |
	testpmd "-a $F0,port=0 -a $F1,port=0"
check "io, mac: testpmd exits 0" 0 $?
rx=$(fwd_rx)
check "io, mac: both ports received forwarded frames" "yes" \
	"$(echo "$rx" | awk '{ ok = $1 > 32 && $2 > 32 && $3 > 32 && $4 > 32
		print ok ? "yes" : "no (" $0 ")" }')"
check "stats: no receive or send error" "0 0 0 0" \
	"$(awk '/RX-errors:/ { printf "%s%s", s, $2; s = " " } /TX-errors:/ { printf " %s", $4 }' \
		"$out" | awk '{ print $(NF - 3), $(NF - 2), $(NF - 1), $NF }')"
check "io, mac: nothing refused" "" "$(grep -E "$REFUSED" "$err" "$out")"

# Both ports of both functions, port 1 to port 1 and port 2 to port 2: io forwarding pairs
# ports 0 and 1 (function 0), 2 and 3 (function 1), so every frame crosses both cables and
# port 2's queues (INIT on port 2) carry it.
CABLE1=$CABLE
CABLE=$CABLE2
: >"$out"
(printf 'start tx_first\n'; fwd_wait 1; sleep $FWD; printf 'stop\nquit\n') | testpmd "-a $F0 -a $F1"
check "two ports each: testpmd exits 0" 0 $?
CABLE=$CABLE1
rx=$(fwd_rx)
check "two ports each: all four received forwarded frames" "yes" \
	"$(echo "$rx" | awk '{ ok = $1 > 32 && $2 > 32 && $3 > 32 && $4 > 32
		print ok ? "yes" : "no (" $0 ")" }')"
check "two ports each: nothing refused" "" "$(grep -E "$REFUSED" "$err" "$out")"

# RSS over 4 queues: the RSS QP over a table of 4 WQs; the first bursts vary the source
# address (--txonly-multi-flow), so the Toeplitz hash spreads them over every queue.
: >"$out"
(printf 'start tx_first\n'; fwd_wait 1; sleep $FWD; printf 'stop\nshow port xstats all\nquit\n') |
	testpmd "-a $F0,port=0 -a $F1,port=0" --rxq=4 --txq=4 --txonly-multi-flow
check "rss: testpmd exits 0" 0 $?
rx=$(fwd_rx)
check "rss: both ports received forwarded frames" "yes" \
	"$(echo "$rx" | awk '{ print ($1 > 32 && $2 > 32) ? "yes" : "no (" $0 ")" }')"
check "rss: every queue of both ports received" "8 of 8" \
	"$(awk '/^rx_q[0-3]_packets:/ { n++; if ($2 > 0) k++ } END { print k + 0, "of", n + 0 }' \
		"$out")"
check "rss: nothing refused" "" "$(grep -E "$REFUSED" "$err" "$out")"

# Promiscuous off: testpmd's frames are to other MACs than the ports', nothing is received;
# the same run with promiscuous on again receives the first bursts (and forwards).
: >"$out"
(printf 'set promisc all off\nstart tx_first\n'; fwd_wait 1; sleep 2
 printf 'stop\nset promisc all on\nstart tx_first\n'; fwd_wait 2; sleep $FWD
 printf 'stop\nquit\n') |
	testpmd "-a $F0,port=0 -a $F1,port=0"
check "promisc: testpmd exits 0" 0 $?
rx=$(fwd_rx)
check "promisc off: nothing received; on: the first bursts (to other MACs) and more" "yes" \
	"$(echo "$rx" | awk '{ ok = $1 == 0 && $2 == 0 && $3 >= 32 && $4 >= 32
		print ok ? "yes" : "no (" $0 ")" }')"

# All-multicast, not promiscuous: frames to group addresses (the first bursts' and the
# forwarding's destinations set so) are received while all-multicast is on (the MC_DEFAULT
# rule), not once it is off.
: >"$out"
(printf 'set promisc all off\nset allmulti all on\nset fwd mac\n'
 printf 'set eth-peer 0 01:00:5e:00:00:01\nset eth-peer 1 01:00:5e:00:00:02\nstart tx_first\n'
 fwd_wait 1; sleep $FWD; printf 'stop\nset allmulti all off\nstart tx_first\n'; fwd_wait 2; sleep 2
 printf 'stop\nquit\n') |
	testpmd "-a $F0,port=0 -a $F1,port=0"
check "allmulti: testpmd exits 0" 0 $?
rx=$(fwd_rx)
check "allmulti on: the first bursts (to groups) received; off: nothing" "yes" \
	"$(echo "$rx" | awk '{ ok = $1 >= 32 && $2 >= 32 && $3 == 0 && $4 == 0
		print ok ? "yes" : "no (" $0 ")" }')"

# MTU: 9000 taken by the netdev (the model's port), 9600 refused as mlx4_en refuses it; a
# port taken down is down at the other end of its cable, and up again (the far end's model
# learns of it from its own thread, as a peer port by the signal: a few seconds' wait).
(printf 'port config mtu 0 9000\nshow port info 0\nport config mtu 0 9600\nset link-down port 0\n'
 sleep 3; printf 'show port info 1\nset link-up port 0\n'; sleep 3
 printf 'show port info 1\nquit\n') | testpmd "-a $F0,port=0 -a $F1,port=0"
check "mtu: 9000 set" "9000" "$(awk '/^MTU:/ { print $2; exit }' "$out")"
check "mtu: 9600 refused" "1" "$(cat "$out" "$err" | grep -c 'Set MTU failed')"
check "link: down at the peer, then up" "down up" \
	"$(awk '/^Link status:/ { printf "%s%s", s, $3; s = " " }' "$out" | cut -d' ' -f2-)"

exit $fail
