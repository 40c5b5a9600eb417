#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# A secondary's lcore descheduled in a burst across the primary's stop and close of the port
# (usage: test_secondary_hold.sh KIND, mlx5v or mlx4v). Our testpmd as the primary and as a
# secondary forwarding on the same two simulated ports, each on its own queue pair, as
# test_secondary_fwd.sh. gdb (non-stop: the other threads of the secondary run, its IPC
# thread answers the primary) holds the secondary's lcore where it has taken an Rx queue of
# port 1 from its rte_eth_fp_ops and entered the PMD's burst, before the burst's gate; the
# primary then stops and closes port 1, which frees that queue's structure; released, the
# lcore must not use the freed queue: the secondary lives on, and the primary quits with 0
# (doc/guides/nics/mlx5v.rst, "Secondary processes"). Skipped without gdb, or where
# gdb cannot attach or finds no burst symbol (no debug info).

. "$MLXV_SRC/tests/testpmd/lib.sh"
. "$MLXV_SRC/tests/testpmd/mp_lib.sh"
kind=${1:-mlx5v}
mp_kind "$kind"
command -v python3 >/dev/null || skip "no python3"
command -v gdb >/dev/null || skip "no gdb"
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi
mp_setup shd 1
gdbp=
trap 'exec 3>&- 4>&- 2>/dev/null; [ -n "$gdbp" ] && kill -9 "$gdbp" 2>/dev/null; mp_cleanup' EXIT

mp_fwd_pair "$kind" shda shdb

# Frames pass (the links come up on their own time): batches of 4, at most 30.
_i=0
until [ "$(mp_send shda shdb 4 $((9000 + 4 * _i)) 1)" -gt 0 ]; do
	_i=$((_i + 1))
	[ $_i -lt 30 ] || { cat "$work/p0.log" "$work/p1.log"; fail "no frame passes"; }
done

# The secondary's testpmd (the child of timeout(1), which ip netns exec became).
tp1=$(pgrep -P "$p1")
[ -n "$tp1" ] || fail "no secondary testpmd below $p1"
# The burst entry of the queue: the gate's (mlxv_mp_bursts.h), or, in a tree before the gate
# took its own queues, the PMD's wrapper; port 1 only, so that port 0 stays on.
cat >"$work/gdb.cmd" <<GDB
set pagination off
set confirm off
set non-stop on
attach $tp1
set \$held = 0
break mlxv_mp_gate_rx_burst if ((const struct mlxv_mp_gate_q *)q)->port_id == 1 && (\$held = 1)
break ${kind}_mp_rx_burst if ((const struct ${kind}_rxq *)q)->port_id == 1 && (\$held = 1)
while \$held == 0
continue -a
end
shell touch $work/held; while [ ! -e $work/go ]; do sleep 0.1; done
info threads
detach
GDB
gdb -batch -nx -x "$work/gdb.cmd" >"$work/gdb.log" 2>&1 &
gdbp=$!
_n=0
until [ -e "$work/held" ]; do
	if ! kill -0 "$gdbp" 2>/dev/null || [ $_n -gt 600 ]; then
		cat "$work/gdb.log" "$work/p1.log"
		grep -q "^Breakpoint [0-9]* at" "$work/gdb.log" || skip "gdb cannot hold the burst"
		fail "the secondary's lcore never entered a burst of port 1"
	fi
	_n=$((_n + 1))
	sleep 0.1
done

# Held: the primary stops and closes port 1, its queues freed; port 0 stays started.
echo "stop" >&3
echo "port stop 1" >&3
echo "port close 1" >&3
echo "show port summary all" >&3
mp_wait_log "$work/p0.log" 'Number of available ports' 60 "$p0"
touch "$work/go"
wait "$gdbp"
gdbp=
cat "$work/gdb.log"
grep -q "detached" "$work/gdb.log" || fail "gdb did not release the lcore"
# The released lcore runs its bursts (port 0's frames reach its queue 1 by RSS).
mp_send shda shdb 16 12000 1 >/dev/null
kill -0 "$p1" 2>/dev/null || { cat "$work/p1.log"; fail "the secondary died after its release"; }
# The secondary's own ethdev calls on a port the primary closed are not this test's: it is
# ended, then the primary quits.
mp_stop "$p1"
wait "$p1" 2>/dev/null
p1=
cat "$work/p1.log"
mp_quit 3 "$p0" "$work/p0.log" primary
p0=
cat "$work/p0.log"
reject "$work/p0.log" 'Segmentation|PANIC'
reject "$work/p1.log" 'Segmentation|PANIC'
echo "a secondary's lcore held in a burst across the close of net_$kind port 1 OK"
