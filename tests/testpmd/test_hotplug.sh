#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Hot-plug of a simulated device at run time (usage: test_hotplug.sh KIND, mlx5v or mlx4v):
# testpmd starts with no port, then 100 times attaches a device whose port is cabled to
# itself (wire=loop), starts it, and detaches it again. In the first and the last round the
# port forwards (io, tx_first) and must receive frames. Between the end of the first round
# and the end of the last, EAL's heap (testpmd's dump_socket_mem: bytes and count of
# allocations) and the process's open file descriptors (/proc/PID/fd) must not grow.

. "$MLXV_SRC/tests/testpmd/lib.sh"
kind=${1:-mlx5v}
case $kind in
mlx5v) dev="mlx5v_sim0,wire=loop" ;;
mlx4v) dev="mlx4v_sim0,ports=1,wire=loop" ;;
*) fail "unknown PMD $kind (mlx5v or mlx4v)" ;;
esac
ROUNDS=100

work=$(mktemp -d) || fail "mktemp"
bg_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	bg_kill
	rm -rf "$work"
}
trap cleanup EXIT
bg_out=$work/testpmd.log
mkfifo "$work/cmds" || fail "mkfifo"
(cd / && exec stdbuf -oL "$TESTPMD" $EAL_BASE -l 0-1 -- -i --forward-mode=io \
	--total-num-mbufs=4096 <"$work/cmds" >"$bg_out" 2>&1) &
bg_pid=$!
exec 3>"$work/cmds"
bg_wait_log 'testpmd> ' 30

# Wait until the log holds N lines matching REGEX (the program's answers).
wait_n() {
	bg_wait_log "$1" 60 "$2"
}

# round N TRAFFIC: attach, start, (forward until frames came back,) detach.
round() {
	cmd "port attach $dev"
	wait_n 'is attached' "$1"
	cmd "port start 0"
	if [ "$2" = 1 ]; then
		_rx=$(grep -Ec '^  RX-packets: +[1-9]' "$bg_out")
		cmd "start tx_first"
		_n=0
		until [ "$(grep -Ec '^  RX-packets: +[1-9]' "$bg_out")" -gt "$_rx" ]; do
			_n=$((_n + 1))
			[ $_n -le 100 ] || { cat "$bg_out"; fail "round $1: no frame came back"; }
			cmd "show port stats 0"
			sleep 0.1
		done
		cmd "stop"
	fi
	cmd "port stop 0"
	cmd "port detach 0"
	wait_n 'Device is detached' "$1"
}

# fds PID: open file descriptors of the process.
fds() {
	ls "/proc/$bg_pid/fd" | wc -l
}
heap() {
	grep '^Total' "$bg_out" | sed -n "${1}p" | sed 's/free: [0-9.]* *//'
}

round 1 1
cmd "dump_socket_mem"
wait_n '^Total' 1
fd1=$(fds)
i=2
while [ $i -lt $ROUNDS ]; do
	round $i 0
	i=$((i + 1))
done
round $ROUNDS 1
cmd "dump_socket_mem"
wait_n '^Total' 2
fd2=$(fds)
echo "after round 1: $(heap 1), $fd1 fds"
echo "after round $ROUNDS: $(heap 2), $fd2 fds"
[ "$(heap 1)" = "$(heap 2)" ] || { cat "$bg_out"; fail "the heap grew over $ROUNDS rounds"; }
[ "$fd1" = "$fd2" ] || { ls -l "/proc/$bg_pid/fd"; fail "file descriptors: $fd1, then $fd2"; }
cmd "quit"
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|PANIC'
echo "hot-plug of $kind, $ROUNDS rounds: OK"
