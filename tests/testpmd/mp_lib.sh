# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Helpers of the multi-process scripts (test_multi_process.sh, test_secondary_fwd.sh,
# test_simple_mp.sh): a primary (p0) and a secondary (p1), each under timeout(1), sharing
# hugepages from devtools/hugepage-pa.sh. Sourced after lib.sh, not run.
#
# The programs that live as long as the test get a timeout(1) longer than the test's own in
# meson (tests/testpmd/meson.build): it only ends what a dead script left behind. Shorter, it
# ended a primary testpmd of a test that ran slowly under load, which (testpmd taking SIGTERM
# silently) looked as if the primary had read the end of its commands.

# mp_kind KIND: fail unless KIND is mlx5v or mlx4v (the simulator vdevs), or vfio or verbs
# (the emulated functions, lib.sh's sim_kind); set $mp_pmd, the PMD of the ports.
mp_kind() {
	case $1 in
	mlx5v|mlx4v) mp_pmd=$1 ;;
	vfio) mp_pmd=mlx5v ;;
	verbs) mp_pmd=mlx4v ;;
	*) fail "unknown port kind $1 (mlx5v, mlx4v, vfio or verbs)" ;;
	esac
	sim_kind "$1"
}

# mp_launch KIND WIRE0 WIRE1 SCRIPT ARGS...: for an emulated KIND (vfio, verbs), run SCRIPT
# again under one launcher (sim_launcher: port N's function on WIREN), so that every process
# of the test reaches the same models (the process that opens a function first hosts it);
# returns at once in that run and for the vdev kinds. Call before mp_setup.
mp_launch() {
	case $1 in
	vfio|verbs) ;;
	*) return 0 ;;
	esac
	[ -n "${MLXV_EMU_HOST:-}" ] && return 0
	_l=$(sim_launcher "$1" "$2" "$3")
	shift 3
	exec $_l sh "$@"
}

# mp_emu KIND: after mp_setup, the EAL arguments of an emulated KIND's processes (the PCI
# bus, both functions named with -a) in $eal and $mp_devs, and in $mp_env what runs a program
# under the launcher's preload; the rest of the script runs without it (each grep or sleep
# would load the models' libraries). Nothing for the vdev kinds.
mp_emu() {
	mp_env=
	mp_devs=
	case $1 in
	vfio|verbs) ;;
	*) return 0 ;;
	esac
	mp_env="env LD_PRELOAD=$LD_PRELOAD"
	unset LD_PRELOAD
	eal=$(echo "$eal" | sed 's/ --no-pci//')
	mp_devs="$(sim_vdev "$(sim_dev "$1" 0)") $(sim_vdev "$(sim_dev "$1" 1)")"
}

# mp_setup NAME NETNS: after the script re-ran itself under devtools/hugepage-pa.sh (the
# caller does: MLXV_HUGE_DIR set), make $work, a network namespace $ns (NETNS 1; a skip where
# the machine refuses) and the EXIT trap that ends p0 and p1 and removes them all; set $eal,
# the EAL arguments both processes share (file prefix with NAME, hugepages, IOVA mode).
mp_setup() {
	[ -n "${MLXV_HUGE_DIR:-}" ] || fail "no MLXV_HUGE_DIR: run under devtools/hugepage-pa.sh"
	ns=
	if [ "$2" = 1 ]; then
		[ -c /dev/net/tun ] || skip "no /dev/net/tun"
		command -v ip >/dev/null || skip "no ip(8)"
		ns=mlxv$1$$
		ip netns add "$ns" 2>/dev/null || skip "cannot create a network namespace"
	fi
	work=$(mktemp -d) || fail "mktemp"
	p0=
	p1=
	trap mp_cleanup EXIT
	prefix=${MLXV_EAL_PREFIX:-mlxv}_$1$$
	eal="--huge-dir $MLXV_HUGE_DIR --file-prefix $prefix --no-pci ${EAL_IOVA:---iova-mode=va}"
}

# mp_stop PID: the program under timeout(1) PID, then timeout itself.
mp_stop() {
	pkill -9 -P "$1" 2>/dev/null
	kill -9 "$1" 2>/dev/null
}

mp_cleanup() {
	exec 3>&- 4>&- 2>/dev/null
	[ -n "$p1" ] && mp_stop "$p1"
	[ -n "$p0" ] && mp_stop "$p0"
	[ -n "$ns" ] && ip netns delete "$ns" 2>/dev/null
	rm -rf "$work" ${plugins:+"$plugins"}
}

# mp_wait_log FILE REGEX SECONDS PID [MIN_COUNT]: wait for MIN_COUNT (default 1) lines of
# FILE matching REGEX while PID lives; fail (printing FILE) otherwise.
mp_wait_log() {
	_n=0
	until [ "$(grep -Ec -- "$2" "$1")" -ge "${5:-1}" ]; do
		if ! kill -0 "$4" 2>/dev/null; then
			wait "$4"
			_rc=$?
			cat "$1"
			fail "the process exited early ($(ended_how $_rc))"
		fi
		_n=$((_n + 1))
		[ $_n -le $(($3 * 10)) ] || { cat "$1"; fail "no /$2/ in $3 s"; }
		sleep 0.1
	done
}

# mp_taps_up TAP...: the TAP interfaces (in $ns) up, without IPv6 traffic of their own.
mp_taps_up() {
	for _t in "$@"; do
		ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$_t.disable_ipv6=1" 2>/dev/null
		ip -n "$ns" link set "$_t" up || fail "$_t up"
	done
}

# mp_send TX RX N FIRST [TIMEOUT_S]: N frames into TAP TX (in $ns) from N source addresses,
# sequence numbers from FIRST; print how many of them came out of TAP RX.
mp_send() {
	ip netns exec "$ns" python3 "$MLXV_SRC/tests/testpmd/tap_spread.py" "$@"
}

# mp_ready TX RX FIRST_SEQ: after a (re)start, wait until frames from TAP TX come out of TAP
# RX at all (the ports' links come up on their own time): batches of 4 until one comes out,
# at most 30, while the primary $p0 lives.
mp_ready() {
	_i=0
	until [ "$(mp_send "$1" "$2" 4 $(($3 + 4 * _i)) 1)" -gt 0 ]; do
		kill -0 "$p0" 2>/dev/null || { cat "$work/p0.log"; fail "the primary exited"; }
		_i=$((_i + 1))
		[ $_i -lt 30 ] || { cat "$work/p0.log" "$work/p1.log"; fail "no frame passes"; }
	done
}

# mp_expect TX RX N FIRST_SEQ WHAT: all N frames sent into TAP TX come out of TAP RX, or fail
# with WHAT (printing the processes' logs).
mp_expect() {
	_got=$(mp_send "$1" "$2" "$3" "$4")
	echo "sent $3 received $_got"
	[ "$_got" = "$3" ] ||
		{ cat "$work/p0.log" "$work/p1.log" "$work/p2.log" 2>/dev/null; fail "$5"; }
}

# mp_fwd_pair KIND TAPA TAPB: our testpmd as the primary on two simulated KIND devices wired
# to the TAP interfaces TAPA and TAPB ($eal, in $ns) and as a secondary, both forwarding (io)
# on two queue pairs, each process on its own ($tp); the primary's commands on file
# descriptor 3, the secondary's on 4, their logs $work/p0.log and $work/p1.log, their PIDs
# $p0 and $p1. For an emulated KIND, under the launcher (mp_launch), through mp_emu. ARGS
# (optional, after the TAPs): more testpmd arguments of the primary; DEVARGS0 (after them):
# devargs of port 0's device (the vdev kinds only).
mp_fwd_pair() {
	mp_emu "$1"
	vdevs="$(sim_vdev "$(sim_dev "$1" 0)" tap:$2 "$5") $(sim_vdev "$(sim_dev "$1" 1)" tap:$3)"
	tp="-i --forward-mode=io --rxq=2 --txq=2 --num-procs=2 --nb-cores=1"
	_tp0=$4
	shift
	mkfifo "$work/c0" "$work/c1" || fail "mkfifo"
	ip netns exec "$ns" $mp_env timeout 360 stdbuf -oL "$TESTPMD" $eal -m 256 -l 0-1 \
		--proc-type=primary $vdevs -- $tp --proc-id=0 --total-num-mbufs=8192 $_tp0 \
		<"$work/c0" >"$work/p0.log" 2>&1 &
	p0=$!
	exec 3>"$work/c0"
	mp_wait_log "$work/p0.log" 'testpmd> ' 90 "$p0"
	mp_taps_up "$1" "$2"
	echo "start" >&3
	mp_wait_log "$work/p0.log" 'io packet forwarding' 60 "$p0"
	mp_secondary "$work/p1.log"
}

# mp_secondary LOG: after mp_fwd_pair, once its secondary exited, our testpmd as a secondary
# again, forwarding as that one did; its commands on file descriptor 4, its log LOG, its PID
# $p1.
mp_secondary() {
	ip netns exec "$ns" $mp_env timeout 360 stdbuf -oL "$TESTPMD" $eal -l 0-1 \
		--proc-type=secondary $mp_devs -- $tp --proc-id=1 <"$work/c1" >"$1" 2>&1 &
	p1=$!
	exec 4>"$work/c1"
	mp_wait_log "$1" 'testpmd> ' 90 "$p1"
	echo "start" >&4
	mp_wait_log "$1" 'io packet forwarding' 60 "$p1"
}

# mp_quit FD PID LOG WHAT: "quit" to the program on file descriptor FD (3 or 4), wait for
# PID; fail (printing LOG) unless it exits with 0. WHAT names it.
mp_quit() {
	echo "quit" >&"$1"
	eval "exec $1>&-"
	wait "$2"
	_rc=$?
	[ $_rc -eq 0 ] || { cat "$3"; fail "the $4 exited with $(ended_how $_rc)"; }
}
