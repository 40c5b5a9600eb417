#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Secondary processes on the ports of a PMD (argument: mlx5v or mlx4v; vfio or verbs: the PMD's
# emulated functions under one launcher, mp_lib.sh's mp_launch): our testpmd is the
# primary (two simulated ports cabled by a pair wire, forwarding), and Debian's
# dpdk-proc-info --stats --xstats, dpdk-dumpcap and dpdk-pdump (a capture into a pcap file,
# its frames counted) attach to it as secondaries. dumpcap takes no -d, so in the test's
# private mount namespace our drivers join Debian's plugin directory (a bind mount over it)
# and every binary loads them from there. Hugepages come from devtools/hugepage-pa.sh (reserved,
# mounted privately, restored; a skip where the machine refuses).
#
# Why not Debian's dpdk-testpmd as the primary: it links mempool drivers (dpaa, ...) that
# dumpcap does not, so the two processes number the mempool ops differently; the primary
# then takes dumpcap's capture pool for a dpaa2 pool and exits (it does so with DPDK's own
# net_ring ports too). Our testpmd links no mempool driver: both get them from the plugin
# directory, in the same order.

. "$MLXV_SRC/tests/testpmd/lib.sh"
. "$MLXV_SRC/tests/testpmd/mp_lib.sh"

# The PMD's devices, its first port's ethdev name and an xstat only it has. On the emulated
# functions the secondaries get no -a: they take what the primary took (the PMDs' rule,
# doc/guides/howto/device_selection.rst, "Secondary processes").
kind=${1:-mlx5v}
mp_kind "$kind"
pmd=$mp_pmd
case $kind in
vfio|verbs)
	vdevs="$(sim_vdev "$(sim_dev "$kind" 0)") $(sim_vdev "$(sim_dev "$kind" 1)")"
	port0=$(sim_dev "$kind" 0)
	[ "$kind" = verbs ] && port0="$port0 port 1"
	;;
esac
case $pmd.$kind in
*.vfio|*.verbs) ;;
mlx5v.mlx5v)
	vdevs="--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1 --vdev=mlx5v_sim1,wire=pair:mlx5v_sim0"
	port0=mlx5v_sim0
	;;
mlx4v.mlx4v)
	vdevs="--vdev=mlx4v_sim0,ports=1,wire=pair:mlx4v_sim1"
	vdevs="$vdevs --vdev=mlx4v_sim1,ports=1,wire=pair:mlx4v_sim0"
	port0="mlx4v_sim0 port 1"
	;;
esac
case $pmd in
mlx5v) xstat=rx_out_of_buffer ;;
*) xstat=rx_nombuf_drops ;;
esac

# Hugepages: a pool of the test's own, or, in the IOVA-as-PA run of the suite (meson test setup
# "iovapa"), that run's pool. Either way a mount namespace of the test's own: the plugin
# overlay below must not reach the tests running beside it.
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	exec "$MLXV_SRC/devtools/hugepage-pa.sh" -n 160 sh "$0" "$@"
fi
if [ -z "${MLXV_SECONDARY_NS:-}" ]; then
	MLXV_SECONDARY_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
# The emulated kinds: every process under one launcher, both functions cabled to each other.
mp_launch "$kind" pair pair "$0" "$@"

for b in /usr/bin/dpdk-proc-info /usr/bin/dpdk-dumpcap; do
	[ -x "$b" ] || skip "no $b"
done
# The directory EAL loads plugins from by default: <libdir>/dpdk/pmds-<ABI>.
plugdir=$(ls -d "$(pkg-config --variable=libdir libdpdk)"/dpdk/pmds-* 2>/dev/null | head -1)
[ -n "$plugdir" ] && [ -d "$plugdir" ] || skip "no DPDK plugin directory"

work=$(mktemp -d) || fail "mktemp"
: >"$work/diag"
bg_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	bg_kill
	umount "$plugdir" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# Debian's plugins and ours, over the plugin directory, in this mount namespace only.
# (Debian keeps the plugin files there and points the library directory at them: copies,
# hard links where the file system allows, not symlinks into the directory being covered.)
cp -al "$plugdir" "$work/pmds" 2>/dev/null || cp -a "$plugdir" "$work/pmds" ||
	fail "cannot copy $plugdir"
# Ours as hard links: our testpmd, linked with them, finds the very files (same inode) in
# the plugin directory and the dynamic loader does not load them a second time.
for f in "$MLXV_BUILD"/drivers/librte_*.so*; do
	[ -f "$f" ] || continue
	if [ -L "$f" ]; then
		cp -P "$f" "$work/pmds/" || fail "cannot copy $f"
	else
		ln "$f" "$work/pmds/" 2>/dev/null ||
			skip "cannot hard-link $f into the plugin overlay (another file system)"
	fi
done
mount --bind "$work/pmds" "$plugdir" || skip "cannot bind-mount over $plugdir"

# IOVA as VA here, as PA in the IOVA-as-PA run (EAL would choose PA as root without an IOMMU);
# the secondaries take the primary's mode. The prefix's runtime directory goes with
# devtools/hugepage-pa.sh.
prefix=${MLXV_EAL_PREFIX:-mlxv}_mp$$
eal="--huge-dir $MLXV_HUGE_DIR --file-prefix $prefix --no-pci -m 256 ${EAL_IOVA:---iova-mode=va}"
# The emulated kinds: the PCI bus in every process ($nopci for the secondaries), each program
# under the launcher's preload ($mp_env).
mp_emu "$kind"
nopci=--no-pci
[ -n "$mp_env" ] && nopci=
bg_out=$work/testpmd.log
mkfifo "$work/cmds" || fail "mkfifo"
(cd / && $mp_env timeout 300 stdbuf -oL "$TESTPMD" $eal -l 0-1 \
	$vdevs -- -i --forward-mode=io --total-num-mbufs=8192 <"$work/cmds" >"$bg_out" 2>&1) &
bg_pid=$!
exec 3>"$work/cmds"
bg_wait_log 'testpmd> ' 60
echo "start tx_first" >&3
bg_wait_log 'io packet forwarding' 10

# watch_secondary PID WHAT: wait for the background secondary PID (a subshell over timeout(1));
# return its status. A secondary waits for the primary's answers (its EAL IPC thread's, its
# interrupt thread's): at 3 s each thread's wait channel and the prefix's IPC sockets with
# their queues (Recv-Q: datagrams not read yet) are noted, at 10 s the threads' stacks of both;
# a failed one leaves in $work/diag the primary's log, those stacks, the primary's stacks
# then, and last (what a shortened log keeps) the wait channels and the sockets.
watch_secondary() {
	_sp=$1
	_n=0
	rm -f "$work/stuck" "$work/early"
	while kill -0 "$_sp" 2>/dev/null; do
		_n=$((_n + 1))
		# At 3 s (EAL's requests wait 5 s): who waits where, and which socket holds what.
		if [ $_n -eq 30 ]; then
			{ bg_threads "$_sp"; bg_threads
			  ss -xa 2>/dev/null | grep -F "/$prefix/"; } >"$work/early" 2>&1
		fi
		if [ $_n -eq 100 ]; then
			{ echo "=== $2 at 10 s:"; bg_dump_stuck "$_sp"; short_sec=$(bg_threads "$_sp")
			  echo "=== the primary at 10 s:"; bg_dump_stuck; } >"$work/stuck" 2>&1
		fi
		sleep 0.1
	done
	wait "$_sp"
	_rc=$?
	[ $_rc -eq 0 ] && return 0
	{
		echo "=== $2 exited with $(ended_how $_rc); the primary's log:"
		cat "$bg_out"
		[ -f "$work/stuck" ] && cat "$work/stuck"
		echo "=== the primary at the failure:"
		bg_dump_stuck
		echo "=== in short: $2 and the primary at 3 s, $2 at 10 s, the primary now, the" \
			"IPC sockets"
		[ -f "$work/early" ] && cat "$work/early"
		[ -f "$work/stuck" ] && echo "$short_sec"
		bg_threads
		ss -xa 2>/dev/null | grep -F "/$prefix/"
	} >>"$work/diag" 2>&1
	return $_rc
}

# secondary OUT CMD...: run the secondary program CMD (under $mp_env, timeout 60 s) with its
# output appended to OUT, through watch_secondary; return its status.
secondary() {
	_out=$1
	shift
	(cd / && exec $mp_env timeout 60 "$@") >>"$_out" 2>&1 &
	watch_secondary $! "${1##*/}"
}

# dpdk-proc-info: the ports, their counters (from shared queue memory; net_mlx5v asks the
# primary for the live Q counter), the driver's xstats.
: >"$work/procinfo"
secondary "$work/procinfo" /usr/bin/dpdk-proc-info --file-prefix "$prefix" $nopci -- \
	--stats --xstats
rc=$?
# (proc-info shows one of the two per run, the basic statistics first: ask again.)
secondary "$work/procinfo" /usr/bin/dpdk-proc-info --file-prefix "$prefix" $nopci -- \
	--xstats || rc=$?
cat "$work/procinfo"
[ $rc -eq 0 ] || { cat "$work/diag"; fail "dpdk-proc-info exited with $rc"; }
expect "$work/procinfo" 'NIC statistics for port 0'
expect "$work/procinfo" 'NIC statistics for port 1'
expect "$work/procinfo" "$xstat"
# Traffic flows in the primary: the secondary sees non-zero packet counters.
grep -Eq 'RX-packets: *[1-9]' "$work/procinfo" || fail "proc-info saw no received packets"

# dpdk-dumpcap: 32 packets of port 0 into a pcapng file.
: >"$work/dumpcap"
secondary "$work/dumpcap" /usr/bin/dpdk-dumpcap --file-prefix="$prefix" -i 0 -c 32 \
	-w "$work/cap.pcapng"
rc=$?
cat "$work/dumpcap"
[ $rc -eq 0 ] || { cat "$work/diag"; fail "dpdk-dumpcap exited with $rc"; }
expect "$work/dumpcap" "Capturing on '$port0'"
python3 - "$work/cap.pcapng" <<'PY' || fail "the capture does not hold 32 packets"
import struct, sys
data = open(sys.argv[1], "rb").read()
off, epb = 0, 0
while off + 12 <= len(data):
    btype, blen = struct.unpack_from("<II", data, off)
    if blen < 12:
        break
    epb += btype == 6
    off += blen
print("enhanced packet blocks:", epb)
sys.exit(0 if epb >= 32 else 1)
PY

# Debian's dpdk-pdump: port 0's received frames into a pcap file. It writes until stopped:
# once the file holds more than its first buffer of frames, SIGINT, then count them.
if [ -x /usr/bin/dpdk-pdump ]; then
	(cd / && exec $mp_env timeout 60 /usr/bin/dpdk-pdump --file-prefix="$prefix" -- \
		--pdump "port=0,queue=*,rx-dev=$work/rx.pcap") >"$work/pdump" 2>&1 &
	pd=$!
	n=0
	while [ "$(stat -c %s "$work/rx.pcap" 2>/dev/null || echo 0)" -le 8192 ]; do
		n=$((n + 1))
		kill -0 "$pd" 2>/dev/null && [ $n -le 300 ] ||
			{ echo "=== the primary's threads:"; bg_dump_stuck; kill -INT "$pd" 2>/dev/null
			  cat "$work/pdump" "$bg_out"; fail "dpdk-pdump wrote no frames"; }
		sleep 0.1
	done
	kill -INT "$pd"
	watch_secondary "$pd" dpdk-pdump
	rc=$?
	cat "$work/pdump"
	[ $rc -eq 0 ] || { cat "$work/diag"; fail "dpdk-pdump exited with $rc"; }
	python3 - "$work/rx.pcap" <<'PY' || fail "the pcap file does not hold 32 frames"
import struct, sys
data = open(sys.argv[1], "rb").read()
magic = struct.unpack_from("<I", data, 0)[0]
end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
off, n = 24, 0
while off + 16 <= len(data):
    incl = struct.unpack_from(end + "I", data, off + 8)[0]
    if off + 16 + incl > len(data):
        break
    n += 1
    off += 16 + incl
print("pcap frames:", n)
sys.exit(0 if n >= 32 else 1)
PY
fi

# The primary must still run (a write to its closed input would end this script by SIGPIPE).
if ! kill -0 "$bg_pid" 2>/dev/null; then
	wait "$bg_pid"
	rc=$?
	cat "$bg_out"
	fail "the primary testpmd ended early ($(ended_how $rc))"
fi
echo "stop" >&3
echo "quit" >&3
exec 3>&-
bg_finish
reject "$bg_out" 'Segmentation|PANIC'
echo "secondary processes on net_$pmd ports ($kind) OK"
