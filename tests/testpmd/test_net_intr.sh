#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# A PMD's events in our testpmd on one simulated port: testpmd printing the link state change
# event that "<kind> sim link ... down|up" brings (PORT_CHANGE on mlx5v, the port events on
# mlx4v) with the link read back, and none with --no-lsc-interrupt.
# mlx5v also: "mlx5v port eq show" (the async EQ and each Rx queue's EQ and vector), and
# testpmd's own "port detach" raises no removal event (testpmd would detach twice).
# mlx4v also: a link flap; hot-unplug and re-attach ("port detach" of a stopped port, not
# closed, "port attach") four times with traffic before each, the process's open fds the same
# after the last round as after the first, and no removal event for testpmd's own detach;
# then a catastrophic error of the device (the fatal knob): the removal event, testpmd's own
# detach, a working re-attach with no fd left behind.
# Each step waits for testpmd's answer, never for a fixed time.
# vfio: what mlx5v does, on an emulated PCI function (-a <BDF>) through our vfio-pci backend, the
# events through VFIO MSI-X.
# verbs: what mlx4v does, on an emulated ConnectX-3 (-a <BDF>,mlx4v=1) through our rdma-core
# backend, the events through ibv_get_async_event().
# Usage: test_net_intr.sh KIND: KIND as sim_kind in lib.sh, mlx5v, mlx4v, vfio or verbs.
. "$(dirname "$0")/lib.sh"
kind=$1
sim_kind "$kind"
[ "$kind" != mixed ] || fail "one simulated port: mlx5v, mlx4v, vfio or verbs"
dev=$(sim_dev "$kind" 0)
# The model's name in the "mlx4v sim" commands.
model=$(sim_model "$kind" 0)
devargs=$(sim_vdev "$dev" loop)
devargs=${devargs#--vdev=}
devargs=${devargs#-a }
launch=$(sim_launcher "$kind" loop loop)
eal=$(sim_eal "$kind" 256)
# The driver family from here on: mlx4v (also on verbs) or mlx5v (also on vfio).
case $kind in
mlx4v|verbs) kind=mlx4v ;;
*) kind=mlx5v ;;
esac
# The link command of the device's (first) port.
case $kind in
mlx5v) link="mlx5v sim link $model" ;;
mlx4v) link="mlx4v sim link $model 1" ;;
esac
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
	(cd / && exec timeout 180 stdbuf -oL $launch "$TESTPMD" $eal $(sim_vdev "$dev" loop) -- -i \
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
if [ "$kind" = mlx5v ]; then
	printf 'mlx5v port eq show 0\nmlx5v port eq show 7\n' >&3
	bg_wait_log "not an mlx5v port" 60
fi
printf '%s down\n' "$link" >&3
bg_wait_log "$lsc" 60 1
# The PMD stored the link before it raised the event: testpmd reads it back.
printf 'show port info 0\n%s up\n' "$link" >&3
bg_wait_log "$lsc" 60 2
if [ "$kind" = mlx4v ]; then
	printf 'show port info 0\n%s flap\n' "$link" >&3
	bg_wait_log "$lsc" 60 3
else
	printf 'show port info 0\nport stop 0\nmlx5v port eq show 0\n' >&3
	bg_wait_log "no Rx queue CQ" 60
fi
finish
o=$tmp/lsc.log
n=$(grep -c "$lsc" "$o")
if [ "$kind" = mlx4v ]; then
	# The flap is one event, or two when testpmd heard the down before the up came.
	[ "$n" -eq 3 ] || [ "$n" -eq 4 ] || fail "expected 3 or 4 link state change events, got $n"
else
	[ "$n" -eq 2 ] || fail "expected two link state change events, got $n"
	# testpmd asks for LSC and RMV events (its defaults) and the PMD offers them.
	aeq="Port 0: async EQ 1 on vector 0 \(commands, pages, port changes\)"
	expect "$o" "$aeq; LSC event on, RMV"
	# testpmd has no Rx interrupt mode: both queues' CQs stay on the async EQ, never armed.
	expect "$o" "Port 0: Rx interrupts off \(intr_conf.rxq\)"
	expect "$o" "Port 0: Rx queue 0: CQ [0-9]+ -> EQ 1 \(async\), no interrupt"
	expect "$o" "Port 0: Rx queue 1: CQ [0-9]+ -> EQ 1 \(async\), no interrupt"
	expect "$o" "mlx5v: port 7: not an mlx5v port"
	expect "$o" "Port 0: no Rx queue CQ \(port stopped\)"
fi
expect "$o" "Link status: down"
expect "$o" "Link status: up"
reject "$o" "Segmentation|Assertion|PANIC|still alive at removal"
expect "$o" '^Bye'

# Without LSC interrupts: no event; the link is read on demand all the same.
start "$tmp/nolsc.log" --no-lsc-interrupt
printf '%s down\nshow port info 0\n' "$link" >&3
bg_wait_log "Link status: down" 60
if [ "$kind" = mlx5v ]; then
	printf 'mlx5v port eq show 0\n' >&3
	bg_wait_log "LSC event off" 60
fi
finish
o=$tmp/nolsc.log
[ "$kind" != mlx5v ] || expect "$o" "LSC event off, RMV event on"
reject "$o" "link state change event"

if [ "$kind" = mlx5v ]; then
	start "$tmp/detach.log"
	printf 'port stop 0\nport detach 0\n' >&3
	bg_wait_log "^Device is detached" 60
	printf 'port attach %s\nport start 0\nshow port info 0\n' "$devargs" >&3
	bg_wait_log "Link status: up" 60
	finish
	o=$tmp/detach.log
	reject "$o" "device removal event"
	[ "$(grep -c '^Device is detached' "$o")" -eq 1 ] || fail "the port was detached twice"
fi
expect "$o" '^Bye'
[ "$kind" = mlx4v ] || { echo "PASS"; exit 0; }

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

# fds_settle PID MAX: the open fds of PID once at most MAX (fds of a detached device may be
# closed by EAL's interrupt thread a moment after the detach is reported), or after 5 s
# whatever they are; prints the count.
fds_settle() {
	_k=0
	while _n=$(ls "/proc/$1/fd" | wc -l); [ "$_n" -gt "$2" ] && [ $_k -lt 50 ]; do
		_k=$((_k + 1))
		sleep 0.1
	done
	echo "$_n"
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
	fds=$(fds_settle "$pid" "${fds0:-65536}")
	echo "round $round: $fds open fds"
	[ -n "$fds0" ] || fds0=$fds
	[ "$fds" -le "$fds0" ] ||
		{ cat "$bg_out"; fail "fds leaked: $fds0 after round 0, $fds now"; }
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
printf 'mlx4v sim knob %s fatal 1\n' "$model" >&3
bg_wait_log "device removal event" 60
bg_wait_log "^Device is detached" 60
printf 'port attach %s\n' "$devargs" >&3
bg_wait_log "Port 0 is attached" 60
printf 'port start 0\nstart tx_first\n' >&3
rx_seen
printf 'stop\n' >&3
bg_wait_log "Accumulated forward statistics" 60 2
fds=$(fds_settle "$pid" "$fds0")
echo "fatal: $fds0 open fds before, $fds after re-attach"
[ "$fds" -le "$fds0" ] || { cat "$bg_out"; fail "fds leaked over the device's death"; }
finish
o=$tmp/fatal.log
reject "$o" "Segmentation|Assertion|PANIC|still alive at removal|force-released"
expect "$o" "catastrophic error"
expect "$o" '^Bye'
echo "PASS"
