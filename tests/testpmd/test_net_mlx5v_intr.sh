#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The mlx5v PMD's interrupts in our testpmd on the simulated function: "mlx5v port eq show"
# (the async EQ and each Rx queue's EQ and vector), testpmd printing the link state change
# event that "mlx5v sim link ... down|up" brings through PORT_CHANGE, and none with
# --no-lsc-interrupt. Each step waits for testpmd's answer, never for a fixed time.
. "$(dirname "$0")/lib.sh"
dev=mlx5v_sim0
[ -x "$TESTPMD" ] || skip "no testpmd"
tmp=$(mktemp -d)
tp_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$tp_pid" ] && kill "$tp_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkfifo "$tmp/in"

# start OUT TESTPMD_ARGS: testpmd in the background, its stdin open through fd 3.
start() {
	out=$1
	shift
	(cd / && exec timeout 120 "$TESTPMD" $EAL_BASE --vdev=$dev,wire=loop -- -i \
		--total-num-mbufs=4096 --rxq=2 --txq=2 "$@") <"$tmp/in" >"$out" 2>&1 &
	tp_pid=$!
	exec 3>"$tmp/in"
}

# finish: quit, wait for testpmd, print its output.
finish() {
	printf 'quit\n' >&3
	exec 3>&-
	wait "$tp_pid" || { cat "$out"; fail "testpmd exited with an error"; }
	tp_pid=
	cat "$out"
}

# wait_count REGEX N: until testpmd's output has N lines matching REGEX. Our "mlx5v"
# commands flush testpmd's output; its event lines flush themselves.
wait_count() {
	n=0
	until [ "$(grep -Ec -- "$1" "$out")" -ge "$2" ]; do
		kill -0 "$tp_pid" 2>/dev/null || { cat "$out"; fail "testpmd exited early"; }
		n=$((n + 1))
		[ $n -lt 600 ] || { cat "$out"; fail "no $2 x /$1/ from testpmd"; }
		sleep 0.1
	done
}

lsc="Port 0: link state change event"
start "$tmp/lsc.log"
printf 'mlx5v port eq show 0\nmlx5v port eq show 7\n' >&3
wait_count "not an mlx5v port" 1
printf 'mlx5v sim link %s down\n' "$dev" >&3
wait_count "$lsc" 1
# The PMD stored the link before it raised the event: testpmd reads it back.
printf 'show port info 0\nmlx5v sim link %s up\n' "$dev" >&3
wait_count "$lsc" 2
printf 'show port info 0\nport stop 0\nmlx5v port eq show 0\n' >&3
finish
o=$tmp/lsc.log
# testpmd asks for LSC and RMV events (its defaults) and the PMD offers them.
expect "$o" "Port 0: async EQ 1 on vector 0 \(commands, pages, port changes\); LSC event on, RMV"
# testpmd has no Rx interrupt mode: both queues' CQs stay on the async EQ, never armed.
expect "$o" "Port 0: Rx interrupts off \(intr_conf.rxq\)"
expect "$o" "Port 0: Rx queue 0: CQ [0-9]+ -> EQ 1 \(async\), no interrupt"
expect "$o" "Port 0: Rx queue 1: CQ [0-9]+ -> EQ 1 \(async\), no interrupt"
expect "$o" "mlx5v: port 7: not an mlx5v port"
[ "$(grep -c "$lsc" "$o")" -eq 2 ] || fail "expected two link state change events"
expect "$o" "Link status: down"
expect "$o" "Link status: up"
expect "$o" "Port 0: no Rx queue CQ \(port stopped\)"
reject "$o" "Segmentation|Assertion|PANIC|still alive at removal"
expect "$o" '^Bye'

# Without LSC interrupts: no event; the link is read on demand all the same.
start "$tmp/nolsc.log" --no-lsc-interrupt
printf 'mlx5v sim link %s down\nshow port info 0\nmlx5v port eq show 0\n' "$dev" >&3
wait_count "LSC event off" 1
finish
o=$tmp/nolsc.log
expect "$o" "LSC event off, RMV event on"
reject "$o" "link state change event"
expect "$o" "Link status: down"
expect "$o" '^Bye'
echo "PASS"
