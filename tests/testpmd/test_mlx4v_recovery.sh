#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# net_mlx4v's recovery from a catastrophic error in our testpmd, without restarting it
# (doc/guides/nics/mlx4v.rst, "Recovery"): the two ports of a device, each on a loop wire,
# forward (io) over two queues each; the fatal knob kills the device, the core resets it and
# each port hears the death once and raises its reset event (on rdma-core every context of
# the device hears the error: one recovery all the same). testpmd only prints the events, so
# the script does what an application does: stop, port stop, port reset, port start,
# promiscuous mode again, and forwarding resumes. Twice, then once with a first device reset
# that fails. Then, on a device of one port, recovery=dead: it stays dead and "port reset"
# fails with EIO, as before the recovery existed. testpmd runs with --no-rmv-interrupt: on RMV
# it would detach the port. Each step waits for testpmd's answer, bounded.
# Usage: test_mlx4v_recovery.sh KIND: mlx4v (the vdev) or verbs (an emulated ConnectX-3 under
# dpdk-mlxv-verbs-run, through the rdma-core backend).
. "$(dirname "$0")/lib.sh"
kind=${1:-mlx4v}
sim_kind "$kind"
[ "$kind" = mlx4v ] || [ "$kind" = verbs ] || fail "mlx4v or verbs, not $kind"
[ -x "$TESTPMD" ] || skip "no testpmd"
dev=$(sim_dev "$kind" 0)
model=$(sim_model "$kind" 0)
eal=$(sim_eal "$kind" 256)
tmp=$(mktemp -d)
bg_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$bg_pid" ] && kill "$bg_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkfifo "$tmp/in"

# start LOG RECOVERY PORTS: testpmd in the background (lib.sh's bg_*) with recovery=RECOVERY
# on a device of PORTS ports (sim_launcher and sim_vdev give one), its stdin on fd 3.
start() {
	bg_out=$1
	(cd / && exec timeout 120 stdbuf -oL \
		$(sim_launcher "$kind" loop loop | sed "s/ports=1,/ports=$3,/") "$TESTPMD" $eal \
		$(sim_vdev "$dev" loop | sed "s/ports=1,/ports=$3,/"),recovery=$2 -- -i \
		--total-num-mbufs=8192 --rxq=2 --txq=2 --forward-mode=io --no-rmv-interrupt) \
		<"$tmp/in" >"$bg_out" 2>&1 &
	bg_pid=$!
	exec 3>"$tmp/in"
	bg_wait_log 'testpmd> ' 30
}

# recover COMMANDS: COMMANDS kill the device; wait for the recovery and the ports' reset
# events, do the application's part, and see frames forwarded again.
round=0
recover() {
	round=$((round + 1))
	printf '%s\n' "$1" >&3
	bg_wait_log "recovered from the fatal error \($round recoveries\)" 20
	bg_wait_log 'Port 0: reset event' 20 $round
	bg_wait_log 'Port 1: reset event' 20 $round
	printf 'stop\nport stop all\nport reset all\nport start all\n' >&3
	bg_wait_log 'port [01]: on the recovered device' 20 $((2 * round))
	# The reset put the ports back as probe found them: testpmd's frames need promiscuity.
	printf 'set promisc all on\nclear port stats all\nstart tx_first\n' >&3
	bg_forwarding "after recovery $round"
}

start "$tmp/reset.log" reset 2
printf 'clear port stats all\nstart tx_first\n' >&3
bg_forwarding "before the error"
recover "mlx4v sim knob $model fatal 1"
# Once more: a recovered device recovers again.
recover "mlx4v sim knob $model fatal 1"
# The first device reset fails: the recovery tries again a period later.
recover "mlx4v sim knob $model fail_reset 1
mlx4v sim knob $model fatal 1"
expect "$bg_out" 'recovery attempt 1 of [0-9]+: device reset failed'
printf 'stop\nquit\n' >&3
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|Assertion|PANIC|force-released|misuse'
expect "$bg_out" '^Bye'
# Each port heard each death once, however many contexts of the device heard it.
for p in 0 1; do
	n=$(grep -c "port $p: the device died (recovery under way)" "$bg_out")
	[ "$n" -eq $round ] || fail "port $p heard $n deaths, not $round"
done

# recovery=dead: today's behaviour, the port stays dead.
start "$tmp/dead.log" dead 1
printf 'clear port stats 0\nstart tx_first\n' >&3
bg_forwarding "before the error (recovery=dead)"
printf 'mlx4v sim knob %s fatal 1\n' "$model" >&3
bg_wait_log "port 0: the device died \(dead until removed\)" 20
printf 'stop\nport stop 0\nport reset 0\n' >&3
bg_wait_log 'Failed to reset port 0. diag=-5' 20
printf 'quit\n' >&3
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|Assertion|PANIC|force-released|reset event'
expect "$bg_out" '^Bye'
echo "PASS"
