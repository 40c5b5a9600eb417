#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# A secondary process across the death and recovery of the device (usage:
# test_secondary_recovery.sh KIND [dead], KIND mlx5v or vfio; doc/guides/nics/mlx5v.rst,
# "Recovery" and "Secondary processes"): our testpmd as the primary and as a --num-procs=2 secondary
# forwarding on two ports wired to TAP interfaces, as test_secondary_fwd.sh. Port 0's model
# takes a fatal syndrome: the port's death must stop the secondary's bursts as a port stop
# does, before the core's recovery resets the function and frees the rings. Frames into port
# 1, which lives on, then reach the secondary's Rx; a secondary still running its bursts on
# port 0 rings the doorbell of an SQ the reset ended, on a UAR it freed, and the model logs
# ("driver bug") and counts each one (doorbell misuse). The primary answers the reset event
# as an application does (stop, port reset, start); the secondary alone forwards on the new
# queues, then both processes, every frame; no doorbell misuse, nothing crashed. Then the
# secondary exits and the device dies again: the primary waits for no secondary, and a new
# secondary attaching before the primary's answer runs nothing on the dead port's queues.
# With "dead" (recovery=dead, the vdev kind): after the death, the secondary sends nothing on
# the dead port.
# On vfio the function reset is the host's VFIO_DEVICE_RESET and the secondary rings through its
# own BAR mapping, which stays the function's across it as on a card
# (doc/guides/platform/vfio_emulation.rst, "Several processes"): its Tx towards the recovered
# port must come out there too.

. "$MLXV_SRC/tests/testpmd/lib.sh"
. "$MLXV_SRC/tests/testpmd/mp_lib.sh"
kind=${1:-mlx5v}
mode=${2:-reset}
mp_kind "$kind"
[ "$mp_pmd" = mlx5v ] || fail "kind $kind: net_mlx4v has no recovery"
command -v python3 >/dev/null || skip "no python3"
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi
mp_launch "$kind" tap:srca tap:srcb "$0" "$@"
mp_setup src 1

# testpmd's RMV handler would detach the port: the script answers the events itself.
mp_fwd_pair "$kind" srca srcb --no-rmv-interrupt "recovery=$mode"

mp_ready srca srcb 9000
mp_expect srca srcb 64 0 "frames were lost with two processes forwarding"

# finish SECONDARY_LOG: the secondary (logging to SECONDARY_LOG) quits, then the primary; no
# crash and no doorbell misuse logged by any process of the test.
finish() {
	echo "stop" >&4
	mp_quit 4 "$p1" "$1" secondary
	p1=
	echo "stop" >&3
	mp_quit 3 "$p0" "$work/p0.log" primary
	p0=
	touch "$work/p2.log"
	cat "$work/p0.log" "$work/p1.log" "$work/p2.log"
	for _log in "$work/p0.log" "$work/p1.log" "$work/p2.log"; do
		reject "$_log" 'Segmentation|PANIC|driver bug'
	done
}

# recovery=dead: the device stays dead, the secondary's bursts of port 0 stay stopped (the
# model, unlike silicon, still sends what an SQ of a dead function is given). The primary does
# not forward: what comes out of port 0 comes through the secondary (before the death, some).
if [ "$mode" = dead ]; then
	echo "stop" >&3
	mp_wait_log "$work/p0.log" 'Done\.' 30 "$p0"
	mp_ready srcb srca 7000
	echo "mlx5v sim knob $(sim_model "$kind" 0) health_synd 1" >&3
	mp_wait_log "$work/p0.log" 'device is dead: firmware syndrome' 30 "$p0"
	mp_wait_log "$work/p0.log" 'the bursts of 1 secondary process\(es\) stopped' 30 "$p0"
	_got=$(mp_send srcb srca 64 5000 1)
	echo "after the death: sent 64 into port 1, $_got out of port 0"
	[ "$_got" = 0 ] || { cat "$work/p1.log"; fail "the secondary sends on the dead port"; }
	finish "$work/p1.log"
	echo "secondary process at a death of net_mlx5v ($kind, recovery=dead) OK"
	exit 0
fi

# Port 0's device dies; the core recovers it a health poll period later.
echo "mlx5v sim knob $(sim_model "$kind" 0) health_synd 1" >&3
mp_wait_log "$work/p0.log" 'device is dead: firmware syndrome' 30 "$p0"
mp_wait_log "$work/p0.log" 'recovered \(1 recoveries\)' 30 "$p0"
mp_wait_log "$work/p0.log" 'Port 0: reset event' 30 "$p0"
# Frames into port 1 (alive): RSS gives the secondary some, which it sends out of port 0, the
# recovered one, before the primary answered the reset. A secondary whose bursts still run
# rings the doorbell of an SQ the function reset ended; stopped, it sends nothing.
# The TAPs up again, in case a reset took one down.
mp_taps_up srca srcb
echo "after the recovery: sent 64 into port 1, $(mp_send srcb srca 64 5000 1) out of port 0"
kill -0 "$p1" 2>/dev/null || { cat "$work/p1.log"; fail "the secondary died at the death"; }

# The primary does the application's part, without forwarding itself: the frames that come
# out went through the secondary, on the new queues.
echo "stop" >&3
echo "port stop all" >&3
echo "port reset 0" >&3
echo "port start all" >&3
echo "set promisc all on" >&3
mp_wait_log "$work/p0.log" 'port 0: on the recovered device' 30 "$p0"
mp_wait_log "$work/p0.log" 'Port 1: [0-9A-F:]*$' 30 "$p0" 2
mp_ready srca srcb 10000
echo "start" >&3
mp_wait_log "$work/p0.log" 'io packet forwarding - ports' 60 "$p0" 2
mp_expect srca srcb 256 2000 \
	"frames were lost with two processes forwarding after the recovery"
# The other way: the secondary's Tx on the recovered port's new queues, its doorbells through
# its own BAR mapping, made before the reset (on vfio, the primary's VFIO_DEVICE_RESET).
mp_expect srcb srca 256 3000 "frames were lost towards the recovered port"

echo "stop" >&4
mp_quit 4 "$p1" "$work/p1.log" secondary
p1=

# Once more with the secondary gone: the death's STOP_RXTX reaches nobody and waits for
# nobody. A secondary attaching after it, before the primary's answer, must get no data path
# on the dead port's queues (frames into port 1 again), and the next start's.
echo "mlx5v sim knob $(sim_model "$kind" 0) health_synd 1" >&3
mp_wait_log "$work/p0.log" 'recovered \(2 recoveries\)' 30 "$p0"
mp_wait_log "$work/p0.log" 'Port 0: reset event' 30 "$p0" 2
mp_secondary "$work/p2.log"
mp_taps_up srca srcb
echo "after the attach: sent 64 into port 1, $(mp_send srcb srca 64 6000 1) out of port 0"
echo "stop" >&3
echo "port stop all" >&3
echo "port reset 0" >&3
echo "port start all" >&3
mp_wait_log "$work/p0.log" 'port 0: on the recovered device' 30 "$p0" 2
mp_wait_log "$work/p0.log" 'Port 1: [0-9A-F:]*$' 30 "$p0" 3
mp_ready srca srcb 12000
echo "start" >&3
mp_wait_log "$work/p0.log" 'io packet forwarding - ports' 60 "$p0" 3
mp_expect srca srcb 256 4000 "frames were lost after the second recovery"
mp_expect srcb srca 256 5000 "frames were lost towards the port recovered again"

# The model's verdict (counted on the vdev; on vfio-pci the model logs it to the primary).
if [ "$kind" = mlx5v ]; then
	echo "mlx5v dev show $(sim_dev "$kind" 0)" >&3
	mp_wait_log "$work/p0.log" 'doorbell misuses' 30 "$p0"
fi
finish "$work/p2.log"
reject "$work/p0.log" ' [1-9][0-9]* doorbell misuses'
reject "$work/p0.log" 'did not answer|cannot reach the secondary'
echo "secondary process across a recovery of net_mlx5v ($kind) OK"
