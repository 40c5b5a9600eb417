#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The mlx4v PMD's events in our testpmd on the simulated ConnectX-3: the link state change
# event that "mlx4v sim link ... down|up|flap" brings through the port events, none with
# --no-lsc-interrupt; then hot-unplug and re-attach ("port detach" of a stopped port, not
# closed, "port attach") four times with traffic before each, the process's open fds the same
# after the last round as after the first, and no removal event for testpmd's own detach;
# then a catastrophic error of the device (the fatal knob): the removal event, testpmd's own
# detach, a working re-attach with no fd left behind. Each step waits for testpmd's answer,
# never for a fixed time.
. "$(dirname "$0")/lib.sh"
dev=mlx4v_sim0
devargs="$dev,ports=1,wire=loop"
[ -x "$TESTPMD" ] || skip "no testpmd"
tmp=$(mktemp -d)
bg_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$bg_pid" ] && kill "$bg_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkfifo "$tmp/in"

# start LOG TESTPMD_ARGS: testpmd in the background (lib.sh's bg_*), its stdin on fd 3.
start() {
	bg_out=$1
	shift
	(cd / && exec timeout 180 stdbuf -oL "$TESTPMD" $EAL_BASE --vdev=$devargs -- -i \
		--total-num-mbufs=4096 --rxq=2 --txq=2 "$@") <"$tmp/in" >"$bg_out" 2>&1 &
	bg_pid=$!
	exec 3>"$tmp/in"
}

# finish: quit, and testpmd must exit with 0.
finish() {
	printf 'quit\n' >&3
	exec 3>&-
	bg_finish
}

lsc="Port 0: link state change event"
start "$tmp/lsc.log"
printf 'mlx4v sim link %s 1 down\n' "$dev" >&3
bg_wait_log "$lsc" 60 1
# The PMD stored the link before it raised the event: testpmd reads it back.
printf 'show port info 0\nmlx4v sim link %s 1 up\n' "$dev" >&3
bg_wait_log "$lsc" 60 2
printf 'show port info 0\nmlx4v sim link %s 1 flap\n' "$dev" >&3
bg_wait_log "$lsc" 60 3
finish
o=$tmp/lsc.log
# The flap is one event, or two when testpmd heard the down before the up came.
n=$(grep -c "$lsc" "$o")
[ "$n" -eq 3 ] || [ "$n" -eq 4 ] || fail "expected 3 or 4 link state change events, got $n"
expect "$o" "Link status: down"
expect "$o" "Link status: up"
reject "$o" "Segmentation|Assertion|PANIC"
expect "$o" '^Bye'

# Without LSC interrupts: no event; the link is read on demand all the same.
start "$tmp/nolsc.log" --no-lsc-interrupt
printf 'mlx4v sim link %s 1 down\nshow port info 0\n' "$dev" >&3
bg_wait_log "Link status: down" 60
finish
o=$tmp/nolsc.log
reject "$o" "link state change event"
expect "$o" '^Bye'

# rx_seen: forwarding runs; ask for the port's counters until they show a received frame
# more than before (the loop wire brings testpmd's frames back, promiscuous).
rx_seen() {
	c=$(grep -Ec "RX-packets: +[1-9]" "$bg_out")
	k=0
	until [ "$(grep -Ec "RX-packets: +[1-9]" "$bg_out")" -gt "$c" ]; do
		kill -0 "$bg_pid" 2>/dev/null || { cat "$bg_out"; fail "testpmd exited early"; }
		k=$((k + 1))
		[ $k -lt 300 ] || { cat "$bg_out"; fail "no frame received after attach"; }
		printf 'show port stats 0\n' >&3
		sleep 0.2
	done
}

# Hot-unplug and re-attach. Round 0 makes what the process keeps for good; rounds 1-3 must
# leave the fd count as round 0 left it. Each round: traffic, stop, detach, attach.
start "$tmp/plug.log" --forward-mode=io
fds0=
for round in 0 1 2 3; do
	printf 'port start 0\nstart tx_first\n' >&3
	rx_seen
	printf 'stop\nport stop 0\nport detach 0\n' >&3
	bg_wait_log "^Device is detached" 60 $((round + 1))
	printf 'port attach %s\n' "$devargs" >&3
	bg_wait_log "Port 0 is attached" 60 $((round + 1))
	# timeout's child is testpmd (stdbuf execs it).
	pid=$(pgrep -P "$bg_pid" | head -1)
	fds=$(ls "/proc/$pid/fd" | wc -l)
	echo "round $round: $fds open fds"
	[ -n "$fds0" ] || fds0=$fds
	[ "$fds" -eq "$fds0" ] || { cat "$bg_out"; fail "fds leaked: $fds0 after round 0, $fds now"; }
done
printf 'port start 0\nstart tx_first\n' >&3
rx_seen
printf 'stop\n' >&3
bg_wait_log "Accumulated forward statistics" 60 5
finish
o=$tmp/plug.log
reject "$o" "Segmentation|Assertion|PANIC|still alive at removal|force-released"
# The application's own detach is no removal event.
reject "$o" "device removal event"
expect "$o" '^Bye'

# A catastrophic error (the simulator's fatal knob): testpmd hears the removal event and
# stops, closes and detaches the port by itself; the same device attached again works, and
# the process keeps no fd of the dead one.
start "$tmp/fatal.log" --forward-mode=io
printf 'port start 0\nstart tx_first\n' >&3
rx_seen
printf 'stop\n' >&3
bg_wait_log "Accumulated forward statistics" 60
pid=$(pgrep -P "$bg_pid" | head -1)
fds0=$(ls "/proc/$pid/fd" | wc -l)
printf 'mlx4v sim knob %s fatal 1\n' "$dev" >&3
bg_wait_log "device removal event" 60
bg_wait_log "^Device is detached" 60
printf 'port attach %s\n' "$devargs" >&3
bg_wait_log "Port 0 is attached" 60
printf 'port start 0\nstart tx_first\n' >&3
rx_seen
printf 'stop\n' >&3
bg_wait_log "Accumulated forward statistics" 60 2
fds=$(ls "/proc/$pid/fd" | wc -l)
echo "fatal: $fds0 open fds before, $fds after re-attach"
[ "$fds" -eq "$fds0" ] || { cat "$bg_out"; fail "fds leaked over the device's death"; }
finish
o=$tmp/fatal.log
reject "$o" "Segmentation|Assertion|PANIC|still alive at removal|force-released"
expect "$o" "catastrophic error"
expect "$o" '^Bye'
echo "PASS"
