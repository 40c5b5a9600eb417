#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# A host-side function level reset while the ports run (doc/guides/platform/vfio_emulation.rst,
# "Faults of the host side"): our testpmd forwards between two emulated functions cabled with
# wire=pair; "mlx5v sim flr 0" resets port 0's function through VFIO_DEVICE_RESET, the driver
# not told. Stores to the BAR during the reset are dropped (the emulation keeps the BAR
# mapped); the health poll finds the command queue address gone and declares the device
# dead, the port raises its reset event, and stopping it and quitting do not wait for the
# device. testpmd runs with --no-rmv-interrupt: on a removal event it would stop, detach and
# restart forwarding from its interrupt thread, which races with the commands read here
# (a "stop" between its restart's display and launch leaves an lcore forwarding for ever).
# Each step waits for testpmd's answer, bounded.
. "$(dirname "$0")/../testpmd/lib.sh"
bg_testpmd vfio 120 $(sim_pair vfio) -- -i --total-num-mbufs=8192 --no-rmv-interrupt
printf 'start tx_first\n' >&3
k=0
until grep -Eq "RX-packets: +[1-9]" "$bg_out"; do
	k=$((k + 1))
	[ $k -lt 100 ] || { cat "$bg_out"; fail "no frame forwarded before the reset"; }
	printf 'show port stats 0\n' >&3
	sleep 0.2
done
printf 'mlx5v sim flr 0\n' >&3
bg_wait_log 'port 0: function level reset done' 20
# The health poll (every 2 s) notices; a driver that does not would wait 60 s per command.
bg_wait_log '0000:00:05.0: device is dead: function reset behind the driver' 20
bg_wait_log 'Port 0: reset event' 20
# The dead port's commands fail at once: stopping it does not wait for the device.
printf 'stop\nport stop 0\nshow port info 1\n' >&3
bg_wait_log 'Infos for port 1' 20
printf 'quit\n' >&3
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|Assertion|PANIC|timed out'
expect "$bg_out" '^Bye'
echo "PASS"
