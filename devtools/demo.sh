#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The main job on the simulator: install what is missing, fetch the DPDK source package,
# configure and build, then show the drivers doing their job on simulated ConnectX devices:
# packets forwarded through net_mlx5v and net_mlx4v by our testpmd, an Rx interrupt waking
# DPDK's l3fwd-power, the Linux kernel pinging across our ports over TAP, the DEVX EQ and
# raw-views examples; a closing summary, one line per part. Safe to re-run.
# usage: devtools/demo.sh [BUILD_DIR]   (default: build)
# Exits 1 when a part failed; a part the machine cannot run (no root for network
# namespaces, no /dev/net/tun) is skipped with its reason and does not fail the demo.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(realpath -m "${1:-$src/build}")
"$src/devtools/setup.sh"
if [ ! -f "$bdir/build.ninja" ]; then
	meson setup "$bdir" "$src" -Ddpdk_src_cache="$src/build-cache"
fi
ninja -C "$bdir"

MLXV_BUILD=$bdir
MLXV_SRC=$src
export MLXV_BUILD MLXV_SRC
# The helpers of the scripted sessions: simulated pairs and TAPs, plugin staging,
# programs in the background (tests/testpmd/lib.sh).
. "$src/tests/testpmd/lib.sh"
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary=$work/summary
: >"$summary"
failed=0

# result PART STATUS TEXT: one line of the closing summary.
result() {
	printf '%-22s %-5s %s\n' "$1" "$2" "$3" >>"$summary"
	[ "$2" != FAIL ] || failed=1
}

# run_part PART FUNCTION: FUNCTION in a subshell, its output shown; it ends with
# "ok TEXT" or "skip TEXT" on fd 3 (a lib.sh fail/skip exits the subshell with 1 or 77).
run_part() {
	: >"$work/status"
	rc=0
	# lib.sh's helpers are written for shells without -e: each part checks what it runs.
	( set +e; "$2" 3>"$work/status" ) || rc=$?
	st=$(tail -n 1 "$work/status")
	case $rc.$st in
	0.ok\ *) result "$1" OK "${st#ok }" ;;
	*.skip\ *) result "$1" SKIP "${st#skip }" ;;
	77.*) result "$1" SKIP "the machine refused it (see above)" ;;
	*) result "$1" FAIL "exit $rc, see its output above" ;;
	esac
}

# --- 1. The drivers ------------------------------------------------------------------------
part_drivers() {
	echo
	echo "== 1. The drivers built (Debian's dpdk-pmdinfo.py on build/drivers)"
	/usr/bin/python3 /usr/bin/dpdk-pmdinfo.py "$bdir"/drivers/librte_*.so >"$work/pmdinfo"
	/usr/bin/python3 - "$work/pmdinfo" 3>&3 <<'PY'
import json, os, sys
# Each library is read with the libraries it links: a driver may be listed more than once.
drv = list({d["name"]: d for d in json.load(open(sys.argv[1]))}.values())
for d in drv:
    ids = len(d.get("pci_ids", []))
    bus = "PCI, %d ConnectX ids, kernel module %s" % (ids, d["kmod"]) if ids else "vdev"
    print("  %-12s %s" % (d["name"], bus))
os.write(3, b"ok %d drivers: %s\n" % (len(drv), ", ".join(d["name"] for d in drv).encode()))
PY
}

# --- 2 and 3. Forwarding through both PMDs ---------------------------------------------------
# fwd KIND VDEVS DRIVER_CMD: our testpmd io-forwards between two cabled ports for 3 s
# (start tx_first), then the port statistics, the forwarding statistics and one driver
# command showing what is behind the ports.
fwd() {
	kind=$1
	vdevs=$2
	drvcmd=$3
	out=$work/fwd_$kind
	{
		printf 'set fwd io\nstart tx_first\n'
		sleep 1
		printf 'show port stats all\n'
		sleep 3
		printf 'show port stats all\nstop\n%s\nquit\n' "$drvcmd"
	} | (cd / && timeout 60 stdbuf -oL "$TESTPMD" $EAL_BASE -l 0-1 $vdevs -- \
		-i --total-num-mbufs=16384 --nb-cores=1) >"$out" 2>&1 ||
		{ cat "$out"; fail "testpmd failed"; }
	# What a user looks for: the rates over the last 3 s, the forwarding totals, then the
	# driver command's answer.
	awk '/^testpmd> show port stats all/ { n++ } n == 2' "$out" |
		grep -E 'NIC statistics|RX-packets|TX-packets|Rx-pps|Tx-pps|Forward statistics|Accumulated' |
		sed 's/^ */  /'
	sed -n "/^testpmd> $drvcmd/,/^testpmd> quit/p" "$out" | sed '$d' | sed 's/^/  /'
	awk -v kind="$kind" '
	/NIC statistics for port/ { port = $(NF - 1) }
	/Rx-pps:/ { pps[port] = $2 }
	/Accumulated forward statistics/ { acc = 1 }
	acc && /RX-packets:/ { rx = $2; acc = 0 }
	END {
		if (rx + 0 == 0)
			exit 1
		printf "ok %s packets forwarded, %.2f Mpps over both ports (simulator-bound)\n",
		       rx, (pps[0] + pps[1]) / 1e6 > "/dev/fd/3"
	}' "$out" || { cat "$out"; fail "no packet forwarded"; }
	reject "$out" 'Segmentation|Fail to|[a-z] failed'
}

part_fwd_mlx5v() {
	echo
	echo "== 2. net_mlx5v: our testpmd forwards between two cabled ports (mlx5v_sim0 <-> mlx5v_sim1)"
	fwd mlx5v "$(sim_pair mlx5v "")" "mlx5v port eq show 0"
}

part_fwd_mlx4v() {
	echo
	echo "== 3. net_mlx4v: our testpmd forwards between the two ports of one ConnectX-3 (mode=pair)"
	fwd mlx4v "--vdev=mlx4v_sim0,ports=2,mode=pair" "mlx4v sim show mlx4v_sim0"
}

# Network namespaces and TAP interfaces: root and /dev/net/tun.
can_tap() {
	[ "$(id -u)" = 0 ] || { echo "skip needs root (network namespaces, TAP)" >&3; exit 0; }
	[ -c /dev/net/tun ] || { echo "skip no /dev/net/tun" >&3; exit 0; }
	command -v ip >/dev/null || { echo "skip no ip(8)" >&3; exit 0; }
}

# --- 4. Rx interrupts -----------------------------------------------------------------------
# DPDK's l3fwd-power (built unmodified from the source package, our drivers with -d) in
# interrupt-only mode on two net_mlx5v ports wired to TAPs in a namespace: it sleeps in
# rte_epoll_wait until an Rx queue's interrupt (a DEVX EQ event) wakes it; three bursts of
# 64 routed frames from the kernel side.
part_intr() {
	echo
	echo "== 4. Rx interrupts: DPDK's l3fwd-power sleeps until net_mlx5v's Rx interrupt wakes it"
	can_tap
	l3fwd=$bdir/app/l3fwd-power/dpdk-l3fwd-power
	[ -x "$l3fwd" ] || fail "dpdk-l3fwd-power was not built"
	ns=mlxvdemo$$
	# TAP names of this run only: two demos at once must not share one.
	t0=mdl$$a
	t1=mdl$$b
	plugins=$(stage_plugins) || fail "cannot stage plugins"
	ip netns add "$ns" || { rm -rf "$plugins"; echo "skip cannot create a namespace" >&3; exit 0; }
	bg_pid=
	trap 'kill -9 $bg_pid 2>/dev/null; ip netns delete "$ns"; rm -rf "$plugins"' EXIT
	bg_out=$work/l3fwd.log
	ip netns exec "$ns" timeout 60 "$l3fwd" $EAL_BASE -l 0 -d "$plugins" \
		$(sim_taps mlx5v "$t0" "$t1") --log-level=user1,info -- \
		-p 0x3 -P --interrupt-only --config="(0,0,0),(1,0,0)" >"$bg_out" 2>&1 &
	bg_pid=$!
	bg_wait_log 'entering main interrupt loop on lcore 0' 30
	for i in "$t0" "$t1"; do
		ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1"
		ip netns exec "$ns" ip link set "$i" up
	done
	sleep 1
	idle=$(grep -c 'waked up from rx interrupt' "$bg_out" || true)
	echo "  idle for 1 s: $idle wake-up(s)"
	for r in 1 2 3; do
		ip netns exec "$ns" /usr/bin/python3 "$src/tests/testpmd/tap_frames.py" \
			"$t0" "$t1" 64 2.1.1.7 | sed "s/^/  burst $r: /" ||
			{ cat "$bg_out"; fail "l3fwd-power did not route every frame"; }
		sleep 0.5
	done
	kill -INT "$bg_pid"
	wait "$bg_pid" || { cat "$bg_out"; fail "l3fwd-power exited with $?"; }
	grep -E 'waked up|sleeps until' "$bg_out" | head -6 | sed 's/^/  /'
	wakes=$(grep -c 'waked up from rx interrupt' "$bg_out" || true)
	sleeps=$(grep -c 'sleeps until interrupt triggers' "$bg_out" || true)
	echo "  l3fwd-power: $wakes wake-up(s) by Rx interrupt, $sleeps sleep(s)"
	[ "$idle" = 0 ] || fail "an Rx interrupt fired with no traffic"
	[ "$wakes" -gt 0 ] || fail "no wake-up by Rx interrupt (every burst taken by polling)"
	echo "ok 192 frames routed, $wakes wake-up(s) by Rx interrupt, none while idle" >&3
}

# --- 5. The kernel as a peer ----------------------------------------------------------------
# Two namespaces, each with a TAP that is the cable of one simulated port (a net_mlx4v port
# and a net_mlx5v port); our testpmd io-forwards between the two; ping goes across.
part_kernel() {
	echo
	echo "== 5. The kernel as a peer: ping between two namespaces across a net_mlx4v and a net_mlx5v port"
	can_tap
	ns1=mlxvdema$$
	ns2=mlxvdemb$$
	t0=mdt$$a
	t1=mdt$$b
	ip netns add "$ns1" || { echo "skip cannot create a namespace" >&3; exit 0; }
	ip netns add "$ns2" || { ip netns delete "$ns1"; fail "cannot create a second namespace"; }
	bg_pid=
	trap 'exec 4>&- 2>/dev/null; kill -9 $bg_pid 2>/dev/null; ip netns delete "$ns1"; ip netns delete "$ns2"' EXIT
	bg_out=$work/kernel.log
	mkfifo "$work/cmds"
	(cd / && timeout 60 stdbuf -oL "$TESTPMD" $EAL_BASE -l 0-1 \
		$(sim_taps mixed "$t0" "$t1") -- -i --forward-mode=io --rxq=1 --txq=1 \
		--total-num-mbufs=8192 <"$work/cmds" >"$bg_out" 2>&1) &
	bg_pid=$!
	exec 4>"$work/cmds"
	bg_wait_log 'testpmd> ' 30
	ip link set "$t0" netns "$ns1"
	ip link set "$t1" netns "$ns2"
	ip -n "$ns1" addr add 10.78.0.1/24 dev "$t0"
	ip -n "$ns2" addr add 10.78.0.2/24 dev "$t1"
	ip -n "$ns1" link set "$t0" up
	ip -n "$ns2" link set "$t1" up
	echo "start" >&4
	bg_wait_log 'io packet forwarding' 10
	# The kernel resolves its neighbour first: up to 20 one-second tries for the first answer.
	n=0
	until ip netns exec "$ns1" ping -c 1 -W 1 10.78.0.2 >/dev/null 2>&1; do
		n=$((n + 1))
		[ $n -lt 20 ] || { cat "$bg_out"; fail "no answer across the ports"; }
	done
	ip netns exec "$ns1" ping -c 5 -i 0.2 -W 1 10.78.0.2 >"$work/ping" 2>&1 || true
	sed 's/^/  /' "$work/ping"
	printf 'stop\nquit\n' >&4
	exec 4>&-
	wait "$bg_pid" || { cat "$bg_out"; fail "testpmd exited with $?"; }
	got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$work/ping")
	[ "${got:-0}" = 5 ] || fail "$got of 5 pings answered"
	rtt=$(sed -n 's|^rtt.* = [0-9.]*/\([0-9.]*\)/.*|\1|p' "$work/ping")
	echo "ok 5 of 5 pings answered across net_mlx4v and net_mlx5v (avg ${rtt:-?} ms)" >&3
}

# --- 6 and 7. The examples ------------------------------------------------------------------
part_eq_events() {
	echo
	echo "== 6. examples/eq_events: a vector, a DEVX EQ, arm, epoll, events"
	(cd / && timeout 60 "$bdir/examples/eq_events/dpdk-eq_events" $EAL_BASE \
		--vdev=mlx5v_sim0,msix=8) | tee "$work/eq_events"
	line=$(grep -E 'event\(s\) received, 0 failure\(s\)' "$work/eq_events") ||
		fail "eq_events did not receive its events"
	echo "ok ${line#*: }" >&3
}

part_raw_views() {
	echo
	echo "== 7. examples/raw_views: packets through the mlx4dv views only"
	(cd / && timeout 60 "$bdir/examples/raw_views/dpdk-raw_views" $EAL_BASE \
		--vdev=mlx4v_sim0,ports=2) | tee "$work/raw_views"
	grep -q '^raw_views: PASS$' "$work/raw_views" || fail "raw_views did not pass"
	echo "ok packets sent and received through the raw QP/CQ/RWQ views" >&3
}

# --- 8. The driver commands of our testpmd --------------------------------------------------
# DEVX EQs and MSI vectors from the testpmd prompt (the core behind net_mlx5v).
part_commands() {
	echo
	echo "== 8. Driver commands at our testpmd's prompt: a DEVX EQ on an MSI vector"
	printf '%s\nquit\n' 'mlx5v dev show mlx5v_sim0
mlx5v msi alloc mlx5v_sim0
mlx5v eq create mlx5v_sim0 6 0x210 1
mlx5v eq list mlx5v_sim0
mlx5v sim inject mlx5v_sim0 9 1
mlx5v eq poll mlx5v_sim0 2
mlx5v eq destroy mlx5v_sim0 2
mlx5v msi free mlx5v_sim0 1' |
		(cd / && timeout 60 "$TESTPMD" $EAL_BASE --vdev=mlx5v_sim0,msix=8 -- -i \
			--total-num-mbufs=2048) >"$work/cmds.log" 2>&1 ||
		{ cat "$work/cmds.log"; fail "testpmd failed"; }
	sed -n '/^testpmd> mlx5v msi alloc/,/^testpmd> quit/p' "$work/cmds.log" | sed 's/^/  /'
	expect "$work/cmds.log" 'mlx5v_sim0: EQ 2 created'
	echo "ok EQ 2 created on vector 1, an event polled, destroyed" >&3
}

# --- 9. An emulated PCI function -----------------------------------------------------------
# dpdk-mlxv-vfio-run presents a simulated ConnectX-5 as a vfio-pci function at 0000:00:05.0
# to an unmodified program (doc/guides/platform/vfio_emulation.rst): rdma-core's own mlx5 VFIO
# driver (Debian's libmlx5) brings it up and makes DEVX EQs on it; then our example, through
# EAL's PCI bus and our vfio-pci backend.
part_vfio() {
	echo
	echo "== 9. An emulated PCI function: rdma-core's mlx5 VFIO driver, then our vfio-pci backend"
	run=$bdir/app/dpdk-mlxv-vfio-run
	prog=$bdir/tests/vfio/vfio-rdma-core
	[ -x "$run" ] || fail "dpdk-mlxv-vfio-run was not built"
	[ -x "$prog" ] || { echo "skip the rdma-core program is built with the tests" >&3; exit 0; }
	# rdma-core 44 gives firmware a page at IOVA 0 when the host's IOVA ranges start there,
	# which firmware refuses: the launcher leaves the ranges to rdma-core (vfio_emulation.rst).
	(cd / && timeout 60 "$run" --no-iova-range -- "$prog") >"$work/vfio" 2>&1 ||
		{ cat "$work/vfio"; fail "rdma-core's scenario failed"; }
	grep -E 'ok: ibv_open_device|ok: 2\^(6|17): (mlx5dv_devx_create_eq|one MSI|one EQE)|ok: 2\^6: [0-9]+ EQEs|process_events gave|second ibv_open_device|^PASS' \
		"$work/vfio" | sed 's/^/  /'
	checks=$(grep -c '^ok:' "$work/vfio")
	(cd / && timeout 60 "$run" -- "$bdir/examples/eq_events/dpdk-eq_events" $(eal_mem 256) \
		--file-prefix mlxvdemo$$ -a 0000:00:05.0,mlx5v=1 -- 0000:00:05.0) >"$work/vfio_eal" 2>&1 ||
		{ cat "$work/vfio_eal"; fail "eq_events on the emulated function failed"; }
	grep -E 'Probe PCI driver|event\(s\) received' "$work/vfio_eal" | sed 's/^/  /'
	echo "ok rdma-core's libmlx5: bring-up, DEVX EQs 2^6..2^17, MSI, pages ($checks checks); eq_events -a 0000:00:05.0,mlx5v=1" >&3
}

# --- 10. An emulated ConnectX-3 ------------------------------------------------------------
# dpdk-mlxv-verbs-run presents simulated ConnectX-3 functions as the kernel's verbs stack does
# (doc/guides/platform/verbs_emulation.rst): Debian's ibv_devinfo lists one, then libmlx4
# (unmodified) sends frames from one function to another over a pair wire, then DPDK's own
# net_mlx4 (Debian's plugin, in Debian's dpdk-testpmd) forwards between them.
part_verbs() {
	echo
	echo "== 10. An emulated ConnectX-3: Debian's ibv_devinfo, libmlx4 over a pair wire, DPDK's net_mlx4"
	run=$bdir/app/dpdk-mlxv-verbs-run
	prog=$bdir/tests/verbs/verbs-pair
	[ -x "$run" ] || fail "dpdk-mlxv-verbs-run was not built"
	command -v ibv_devinfo >/dev/null || { echo "skip no ibv_devinfo (ibverbs-utils)" >&3; exit 0; }
	(cd / && timeout 60 "$run" -- ibv_devinfo) >"$work/verbs" 2>&1 ||
		{ cat "$work/verbs"; fail "ibv_devinfo failed"; }
	grep -E 'hca_id|vendor_part_id|phys_port_cnt|port:|state:|link_layer' "$work/verbs" |
		sed 's/^\t*/  /'
	grep -q 'link_layer:[[:space:]]*Ethernet' "$work/verbs" || fail "no Ethernet port listed"
	[ -x "$prog" ] || { echo "ok ibv_devinfo lists mlx4_0 (the libmlx4 program is built with the tests)" >&3; exit 0; }
	(cd / && timeout 60 "$run" --dev 0000:00:06.0,wire1=pair:verbs-0000:00:07.0.1 \
		--dev 0000:00:07.0,wire1=pair:verbs-0000:00:06.0.1 -- "$prog") >"$work/verbs" 2>&1 ||
		{ cat "$work/verbs"; fail "libmlx4 over the pair wire failed"; }
	sed 's/^/  /' "$work/verbs"
	n=$(sed -n 's/.*frames to its MAC received in order.*(\([0-9]*\))$/\1/p' "$work/verbs")
	[ -n "$n" ] || fail "no frame count in the program's output"
	# DPDK's own mlx4 PMD (the distribution's plugin, unmodified) in the distribution's
	# testpmd, forwarding between the two cabled functions.
	dtp=/usr/bin/dpdk-testpmd
	if [ ! -x "$dtp" ] || ! ls /usr/lib/*/dpdk/pmds-*/librte_net_mlx4.so >/dev/null 2>&1; then
		echo "ok ibv_devinfo lists mlx4_0; libmlx4: $n frames (no Debian net_mlx4 to run)" >&3
		exit 0
	fi
	echo "  DPDK's own net_mlx4 in Debian's dpdk-testpmd, io forwarding between the functions:"
	{ echo "start tx_first"; sleep 3; echo "stop"; echo "quit"; } |
		(cd / && timeout 60 "$run" --dev 0000:00:06.0,wire1=pair:verbs-0000:00:07.0.1 \
		--dev 0000:00:07.0,wire1=pair:verbs-0000:00:06.0.1 -- "$dtp" --no-huge -m 256 \
		--file-prefix mlxvdemo$$ -a 0000:00:06.0,port=0 -a 0000:00:07.0,port=0 -- -i \
		--no-lsc-interrupt --no-rmv-interrupt --total-num-mbufs=8192) >"$work/mlx4" 2>&1 ||
		{ cat "$work/mlx4"; fail "Debian's testpmd with net_mlx4 failed"; }
	grep -E 'Probe PCI driver: net_mlx4|^Port [0-9]+: [0-9A-F:]+$' "$work/mlx4" | sed 's/^/  /'
	rx=$(awk '/Accumulated forward statistics/ { a = 1 } a && /RX-packets:/ { print $2; exit }' \
		"$work/mlx4")
	echo "  forwarded by net_mlx4: ${rx:-0} packets received over both ports"
	[ "${rx:-0}" -gt 64 ] || { cat "$work/mlx4"; fail "net_mlx4 forwarded nothing"; }
	echo "ok ibv_devinfo lists mlx4_0; libmlx4: $n frames; DPDK's net_mlx4: $rx packets forwarded" >&3
}

echo "dpdk-mlxv demo: the drivers on simulated ConnectX devices (everything below runs on"
echo "the simulators; the same driver code runs on hardware)."
t0=$(date +%s)
run_part "drivers" part_drivers
run_part "net_mlx5v forwarding" part_fwd_mlx5v
run_part "net_mlx4v forwarding" part_fwd_mlx4v
run_part "Rx interrupts" part_intr
run_part "kernel peer (TAP)" part_kernel
run_part "DEVX EQ example" part_eq_events
run_part "raw views example" part_raw_views
run_part "driver commands" part_commands
run_part "emulated PCI function" part_vfio
run_part "emulated ConnectX-3" part_verbs

echo
echo "== Summary ($(($(date +%s) - t0)) s after the build)"
cat "$summary"
[ $failed = 0 ] || { echo "demo: a part failed"; exit 1; }
echo "demo: OK"
