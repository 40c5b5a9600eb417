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
# so that a recovered function recovers again; then the model's knobs kill it: a fatal
# syndrome, the same with a first reset that fails, a firmware that stops answering. testpmd runs with --no-rmv-interrupt: on RMV it
# would detach the port. Each step waits for testpmd's answer, bounded.
. "$(dirname "$0")/../testpmd/lib.sh"
# Port 0's health polled every 200 ms, its commands time out after 300 ms: faults show fast.
bg_testpmd vfio 120 -a 0000:00:05.0,health_ms=200,cmd_to_ms=300 -a 0000:00:06.0 -- -i \
	--total-num-mbufs=8192 --no-rmv-interrupt

printf 'clear port stats 0\nstart tx_first\n' >&3
bg_forwarding "before the fault"
# fault ROUND COMMANDS WHY: the commands kill port 0's device for WHY (its dead-device log).
model=$(sim_model vfio 0)
round=0
recover() {
	round=$((round + 1))
	printf '%s\n' "$1" >&3
	bg_wait_log "0000:00:05.0: device is dead: $2" 20
	bg_wait_log "0000:00:05.0: recovered \($round recoveries\)" 20
	bg_wait_log 'Port 0: reset event' 20 $round
	printf 'stop\nport stop 0\nport reset 0\nport start 0\n' >&3
	bg_wait_log 'port 0: on the recovered device' 20 $round
	# The reset put the vport back as probe found it: testpmd's frames need promiscuity.
	printf 'set promisc 0 on\nclear port stats 0\nstart tx_first\n' >&3
	bg_forwarding "after recovery $round ($2)"
}
recover 'mlx5v sim flr 0' 'function reset behind the driver'
# Once more: a recovered function recovers again.
recover 'mlx5v sim flr 0' 'function reset behind the driver'
recover "mlx5v sim knob $model health_synd 1" 'firmware syndrome'
# The first VFIO_DEVICE_RESET fails: the recovery tries again.
recover "mlx5v sim knob $model reset_fail 1
mlx5v sim knob $model health_synd 1" 'firmware syndrome'
expect "$bg_out" 'recovery attempt 1: function reset failed'
# The firmware stops answering: three commands (Q counter queries of the stats) time out.
recover "mlx5v sim knob $model cmd_hang 1
show port stats 0
show port stats 0
show port stats 0" 'commands time out'
printf 'stop\nquit\n' >&3
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|Assertion|PANIC'
expect "$bg_out" '^Bye'
echo "PASS"
