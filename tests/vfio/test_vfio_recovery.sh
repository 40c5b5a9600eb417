#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Recovery of an emulated vfio-pci function without restarting the application
# (doc/guides/nics/mlx5v.rst, "Recovery"): our testpmd forwards between two emulated functions
# cabled with wire=pair; "mlx5v sim flr 0" resets port 0's function behind the driver, the
# health poll declares it dead, the core resets it (VFIO_DEVICE_RESET) and brings it up again,
# and the port raises its reset event. testpmd only prints that event, so the script does what
# an application does: stop, port reset, port start, and forwarding resumes on the port. Twice,
# so that a recovered function recovers again. testpmd runs with --no-rmv-interrupt: on RMV it
# would detach the port. Each step waits for testpmd's answer, bounded.
. "$(dirname "$0")/../testpmd/lib.sh"
tmp=$(mktemp -d)
bg_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$bg_pid" ] && { pkill -KILL -P "$bg_pid"; kill -KILL "$bg_pid"; } 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkfifo "$tmp/in"
bg_out=$tmp/testpmd.log
# Port 0's health polled every 200 ms: the reset behind the driver is seen at once.
(cd / && exec timeout 120 stdbuf -oL $(sim_launcher vfio pair pair) "$TESTPMD" \
	$(sim_eal vfio 256) -l 0-1 -a 0000:00:05.0,health_ms=200 -a 0000:00:06.0 -- -i \
	--total-num-mbufs=8192 --no-rmv-interrupt) \
	<"$tmp/in" >"$bg_out" 2>&1 &
bg_pid=$!
exec 3>"$tmp/in"
bg_wait_log 'testpmd> ' 30

# forwarding N: wait until port 0 received frames since its statistics were last cleared.
forwarding() {
	_k=0
	until sed -n '/NIC statistics for port 0 cleared/h; /NIC statistics for port 0 cleared/!H;
		      ${x;p}' "$bg_out" | grep -Eq "RX-packets: +[1-9]"; do
		_k=$((_k + 1))
		[ $_k -lt 100 ] || { cat "$bg_out"; fail "port 0 forwards nothing ($1)"; }
		printf 'show port stats 0\n' >&3
		sleep 0.2
	done
}

printf 'clear port stats 0\nstart tx_first\n' >&3
forwarding "before the fault"
for round in 1 2; do
	printf 'mlx5v sim flr 0\n' >&3
	bg_wait_log 'port 0: function level reset done' 20 $round
	bg_wait_log '0000:00:05.0: device is dead: function reset behind the driver' 20 $round
	bg_wait_log "0000:00:05.0: recovered \($round recoveries\)" 20
	bg_wait_log 'Port 0: reset event' 20 $round
	printf 'stop\nport stop 0\nport reset 0\nport start 0\n' >&3
	bg_wait_log 'port 0: on the recovered device' 20 $round
	# The reset put the vport back as probe found it: testpmd's frames need promiscuity.
	printf 'set promisc 0 on\nclear port stats 0\nstart tx_first\n' >&3
	forwarding "after recovery $round"
done
printf 'stop\nquit\n' >&3
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|Assertion|PANIC|timed out'
expect "$bg_out" '^Bye'
echo "PASS"
