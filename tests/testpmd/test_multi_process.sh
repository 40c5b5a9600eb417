#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The data path in secondary processes (usage: test_multi_process.sh KIND, mlx5v or mlx4v).
# DPDK's symmetric_mp example, built unmodified from the source package, runs as a primary
# (proc 0, which configures two Rx/Tx queue pairs per port, RSS over IP) and a secondary
# (proc 1) on two simulated ports wired to TAP interfaces in a network namespace made here;
# each process forwards port 0 <-> 1 on its own queue. Frames sent into the first TAP from
# many source addresses are spread over both queues: every one comes out of the second TAP,
# and each process counts some of them (its exit statistics). Then the secondary leaves and
# the primary keeps forwarding the frames of its queue. Hugepages as test_secondary.sh.

. "$MLXV_SRC/tests/testpmd/lib.sh"
kind=${1:-mlx5v}
case $kind in
mlx5v|mlx4v) ;;
*) fail "unknown PMD $kind (mlx5v or mlx4v)" ;;
esac

SMP=$MLXV_BUILD/app/multi-process/dpdk-symmetric_mp
[ -x "$SMP" ] || fail "dpdk-symmetric_mp was not built"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
command -v ip >/dev/null || skip "no ip(8)"
command -v python3 >/dev/null || skip "no python3"

if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi

ns=mlxvsmp$$
ip netns add "$ns" 2>/dev/null || skip "cannot create a network namespace"
work=$(mktemp -d) || fail "mktemp"
plugins=$(stage_plugins) || fail "cannot stage plugins"
p0=
p1=
# stop PID: the program under timeout(1) PID, then timeout.
stop() {
	pkill -9 -P "$1" 2>/dev/null
	kill -9 "$1" 2>/dev/null
}
cleanup() {
	[ -n "$p1" ] && stop "$p1"
	[ -n "$p0" ] && stop "$p0"
	ip netns delete "$ns" 2>/dev/null
	rm -rf "$work" "$plugins"
}
trap cleanup EXIT

prefix=${MLXV_EAL_PREFIX:-mlxv}_smp$$
eal="--huge-dir $MLXV_HUGE_DIR --file-prefix $prefix --no-pci ${EAL_IOVA:---iova-mode=va}"
eal="$eal -d $plugins"
vdevs="$(sim_vdev "$(sim_dev "$kind" 0)" tap:smpa) $(sim_vdev "$(sim_dev "$kind" 1)" tap:smpb)"

# wait_log FILE REGEX SECONDS PID: wait for REGEX in FILE while PID lives.
wait_log() {
	_n=0
	until grep -Eq -- "$2" "$1"; do
		kill -0 "$4" 2>/dev/null || { cat "$1"; fail "the process exited early"; }
		_n=$((_n + 1))
		[ $_n -le $(($3 * 10)) ] || { cat "$1"; fail "no /$2/ in $3 s"; }
		sleep 0.1
	done
}

# The primary: ports and queues; it waits (up to 9 s) for the links, so the TAPs go up now.
ip netns exec "$ns" timeout 120 stdbuf -oL "$SMP" $eal -m 256 -l 0 --proc-type=primary $vdevs -- \
	-p 3 --num-procs=2 --proc-id=0 >"$work/p0.log" 2>&1 &
p0=$!
_n=0
until ip -n "$ns" link show smpb >/dev/null 2>&1; do
	_n=$((_n + 1))
	[ $_n -le 300 ] || { cat "$work/p0.log"; fail "no TAP interfaces"; }
	kill -0 "$p0" 2>/dev/null || { cat "$work/p0.log"; fail "the primary exited"; }
	sleep 0.1
done
for t in smpa smpb; do
	ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$t.disable_ipv6=1" 2>/dev/null
	ip -n "$ns" link set "$t" up || fail "$t up"
done
wait_log "$work/p0.log" 'Finished Process Init' 30 "$p0"

# The secondary: the primary's ports, started; queue 1 of each.
ip netns exec "$ns" timeout 120 stdbuf -oL "$SMP" $eal -l 1 --proc-type=secondary -- \
	-p 3 --num-procs=2 --proc-id=1 >"$work/p1.log" 2>&1 &
p1=$!
wait_log "$work/p1.log" 'using queue 1' 30 "$p1"

# send N FIRST_SEQ: N frames into smpa from N source addresses; count them out of smpb.
send() {
	ip netns exec "$ns" python3 - smpa smpb "$1" "$2" <<'PY'
import socket, struct, sys, time
tx_if, rx_if, n, first = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
mark = b"mlxv-smp-probe"
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
end = time.monotonic() + 10
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
print("sent %d received %d" % (n, len(seen)))
PY
}

send 256 0 >"$work/round1" || fail "cannot send frames"
cat "$work/round1"
grep -q 'sent 256 received 256' "$work/round1" ||
	{ cat "$work/p0.log" "$work/p1.log"; fail "frames were lost with two processes forwarding"; }

# rx_of LOG: the frames the process took from port 0 (its exit statistics).
rx_of() {
	sed -n 's/^Port 0: RX - \([0-9]*\),.*/\1/p' "$1" | tail -1
}
# The secondary leaves (its statistics on SIGINT); it took its share of the frames.
kill -INT "$p1"
wait "$p1"
p1=
cat "$work/p1.log"
r1=$(rx_of "$work/p1.log")
[ -n "$r1" ] && [ "$r1" -gt 0 ] || fail "the secondary forwarded nothing (RX ${r1:-none})"

# The primary alone: the frames RSS gives its queue still come out; the others are lost.
send 256 1000 >"$work/round2" || fail "cannot send frames"
cat "$work/round2"
r2=$(sed -n 's/^sent 256 received \([0-9]*\)/\1/p' "$work/round2")
[ -n "$r2" ] && [ "$r2" -gt 0 ] || fail "the primary stopped forwarding after the secondary left"
kill -INT "$p0"
wait "$p0"
rc=$?
p0=
cat "$work/p0.log"
[ $rc -eq 0 ] || fail "the primary exited with $rc"
r0=$(rx_of "$work/p0.log")
[ -n "$r0" ] && [ "$r0" -gt 0 ] || fail "the primary forwarded nothing (RX ${r0:-none})"
# Both rounds: every frame was taken by one process or the other, none twice.
[ $((r0 + r1)) -ge $((256 + r2)) ] || fail "RX $r0 + $r1 is less than the frames forwarded"
reject "$work/p0.log" 'Segmentation|PANIC'
reject "$work/p1.log" 'Segmentation|PANIC'
echo "symmetric_mp on net_$kind ports: primary RX $r0, secondary RX $r1 OK"
