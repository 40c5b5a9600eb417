#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Our testpmd as the primary and as a secondary forwarding on the same two simulated ports
# (usage: test_secondary_fwd.sh KIND, mlx5v or mlx4v), each on its own of the two queue pairs
# (--num-procs=2), the ports wired to TAP interfaces in a network namespace made here. Frames
# from many source addresses (RSS spreads them) all come out. Then the primary stops its ports:
# the secondary's bursts must become the stopped ones at once (it keeps polling, nothing
# crashes, nothing comes out); started again, the secondary forwards again on the queues made
# anew (a new UAR page for mlx5v). Hugepages as test_secondary.sh.

. "$MLXV_SRC/tests/testpmd/lib.sh"
kind=${1:-mlx5v}
case $kind in
mlx5v|mlx4v) ;;
*) fail "unknown PMD $kind (mlx5v or mlx4v)" ;;
esac
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
command -v ip >/dev/null || skip "no ip(8)"
command -v python3 >/dev/null || skip "no python3"

if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi

ns=mlxvsfw$$
ip netns add "$ns" 2>/dev/null || skip "cannot create a network namespace"
work=$(mktemp -d) || fail "mktemp"
p0=
p1=
# stop PID: the program under timeout(1) PID, then timeout.
stop() {
	pkill -9 -P "$1" 2>/dev/null
	kill -9 "$1" 2>/dev/null
}
cleanup() {
	exec 3>&- 4>&- 2>/dev/null
	[ -n "$p1" ] && stop "$p1"
	[ -n "$p0" ] && stop "$p0"
	ip netns delete "$ns" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

prefix=${MLXV_EAL_PREFIX:-mlxv}_sfw$$
eal="--huge-dir $MLXV_HUGE_DIR --file-prefix $prefix --no-pci ${EAL_IOVA:---iova-mode=va}"
vdevs="$(sim_vdev "$(sim_dev "$kind" 0)" tap:sfwa) $(sim_vdev "$(sim_dev "$kind" 1)" tap:sfwb)"
tp="-i --forward-mode=io --rxq=2 --txq=2 --num-procs=2 --nb-cores=1"

# wait_log FILE REGEX SECONDS PID [MIN_COUNT]: wait for MIN_COUNT lines matching REGEX.
wait_log() {
	_n=0
	until [ "$(grep -Ec -- "$2" "$1")" -ge "${5:-1}" ]; do
		kill -0 "$4" 2>/dev/null || { cat "$1"; fail "the process exited early"; }
		_n=$((_n + 1))
		[ $_n -le $(($3 * 10)) ] || { cat "$1"; fail "no /$2/ in $3 s"; }
		sleep 0.1
	done
}

mkfifo "$work/c0" "$work/c1" || fail "mkfifo"
ip netns exec "$ns" timeout 150 stdbuf -oL "$TESTPMD" $eal -m 256 -l 0-1 --proc-type=primary \
	$vdevs -- $tp --proc-id=0 --total-num-mbufs=8192 <"$work/c0" >"$work/p0.log" 2>&1 &
p0=$!
exec 3>"$work/c0"
wait_log "$work/p0.log" 'testpmd> ' 30 "$p0"
for t in sfwa sfwb; do
	ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$t.disable_ipv6=1" 2>/dev/null
	ip -n "$ns" link set "$t" up || fail "$t up"
done
echo "start" >&3
wait_log "$work/p0.log" 'io packet forwarding' 10 "$p0"

ip netns exec "$ns" timeout 150 stdbuf -oL "$TESTPMD" $eal -l 0-1 --proc-type=secondary -- \
	$tp --proc-id=1 <"$work/c1" >"$work/p1.log" 2>&1 &
p1=$!
exec 4>"$work/c1"
wait_log "$work/p1.log" 'testpmd> ' 30 "$p1"
echo "start" >&4
wait_log "$work/p1.log" 'io packet forwarding' 10 "$p1"

# send N FIRST_SEQ: N frames into sfwa from N source addresses; print how many left sfwb.
send() {
	ip netns exec "$ns" python3 - sfwa sfwb "$1" "$2" <<'PY'
import socket, struct, sys, time
tx_if, rx_if, n, first = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
mark = b"mlxv-sfw-probe"
rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
rx.bind((rx_if, 0))
rx.settimeout(0.2)
tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
tx.bind((tx_if, 0))
for seq in range(first, first + n):
    pay = mark + struct.pack("!I", seq)
    udp = struct.pack("!HHHH", 9000, 9001, 8 + len(pay), 0) + pay
    src = socket.inet_aton("10.%d.%d.%d" % (seq >> 16 & 255, seq >> 8 & 255, seq & 255))
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xffff, 0, 64, 17, 0,
                     src, socket.inet_aton("10.99.0.1"))
    tx.send(b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x99\x08\x00" + ip + udp)
seen = set()
end = time.monotonic() + (10 if n > 0 else 0)
while len(seen) < n and time.monotonic() < end:
    try:
        buf = rx.recv(2048)
    except socket.timeout:
        continue
    i = buf.find(mark)
    if i > 0:
        s = struct.unpack("!I", buf[i + len(mark):i + len(mark) + 4])[0]
        if first <= s < first + n:
            seen.add(s)
print(len(seen))
PY
}

# expect_out N FIRST_SEQ WHAT: all N frames come out, or fail with WHAT.
expect_out() {
	_got=$(send "$1" "$2")
	echo "sent $1 received $_got"
	[ "$_got" = "$1" ] || { cat "$work/p0.log" "$work/p1.log"; fail "$3"; }
}

expect_out 256 0 "frames were lost with two processes forwarding"

# The primary stops the ports: the secondary's lcore keeps polling the stopped bursts.
echo "stop" >&3
echo "port stop all" >&3
wait_log "$work/p0.log" 'Stopping ports' 10 "$p0"
wait_log "$work/p0.log" 'testpmd> ' 20 "$p0" 4
_got=$(send 32 1000)
echo "ports stopped: sent 32 received $_got"
kill -0 "$p1" 2>/dev/null || { cat "$work/p1.log"; fail "the secondary died at the stop"; }

# Started again: new queue objects, and the secondary forwards on them.
echo "port start all" >&3
echo "start" >&3
wait_log "$work/p0.log" 'io packet forwarding' 20 "$p0" 2
expect_out 256 2000 "the secondary forwards no more after the primary's restart"

echo "stop" >&4
echo "quit" >&4
exec 4>&-
wait "$p1"
rc=$?
p1=
cat "$work/p1.log"
[ $rc -eq 0 ] || fail "the secondary exited with $rc"
echo "stop" >&3
echo "quit" >&3
exec 3>&-
wait "$p0"
rc=$?
p0=
cat "$work/p0.log"
[ $rc -eq 0 ] || fail "the primary exited with $rc"
reject "$work/p0.log" 'Segmentation|PANIC'
reject "$work/p1.log" 'Segmentation|PANIC'
echo "testpmd secondary forwarding on net_$kind ports OK"
