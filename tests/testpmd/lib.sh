# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Helpers for the scripted dpdk-testpmd sessions. Sourced, not run.
# Environment (set by meson): MLXV_BUILD (build root), MLXV_SRC (source root).

: "${MLXV_BUILD:?MLXV_BUILD must name the build directory}"
TESTPMD=$MLXV_BUILD/app/dpdk-testpmd

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# EAL memory. Normally --no-huge. Under the meson test setup "iovapa" (MLXV_IOVA_PA_SETUP=1,
# run through devtools/hugepage-pa.sh, which sets MLXV_HUGE_DIR and MLXV_EAL_PREFIX): the
# 2 MiB hugepages of the fragmented pool with IOVA as PA, unlinked once mapped.
# doc/guides/nics/running_on_hardware.rst, "IOVA modes".
#   eal_mem MB       the EAL memory arguments for MB megabytes;
#   eal_base MB      those, --no-pci, --no-shconf and (hugepages) a file prefix of the script's
#                    own, whose runtime directory devtools/hugepage-pa.sh removes;
#   EAL_BASE         eal_base 256;
#   EAL_IOVA         what a script with its own --huge-dir adds (test_secondary.sh);
#   iovapa_skip WHY  skip the test in the IOVA-as-PA run, saying why (nothing otherwise).
if [ "${MLXV_IOVA_PA_SETUP:-}" = 1 ]; then
	[ -n "${MLXV_HUGE_DIR:-}" ] ||
		skip "iovapa: no MLXV_HUGE_DIR; run under devtools/hugepage-pa.sh"
	EAL_IOVA=--iova-mode=pa
	eal_mem() {
		echo "-m $1 --huge-dir $MLXV_HUGE_DIR --iova-mode=pa --huge-unlink"
	}
	eal_base() {
		echo "$(eal_mem "$1") --no-pci --no-shconf --file-prefix ${MLXV_EAL_PREFIX:-mlxvpa}_tp$$"
	}
	iovapa_skip() {
		skip "iovapa: $*"
	}
else
	EAL_IOVA=
	eal_mem() {
		echo "--no-huge -m $1"
	}
	eal_base() {
		echo "$(eal_mem "$1") --no-pci --no-shconf"
	}
	iovapa_skip() {
		:
	}
fi
EAL_BASE=$(eal_base 256)

# run_testpmd OUTFILE "commands" [EAL args...] -- [testpmd args...]
# Feeds the commands on stdin (interactive mode), bounded by a timeout.
run_testpmd() {
	out=$1
	cmds=$2
	shift 2
	printf '%b' "$cmds" | (cd / && timeout 60 "$TESTPMD" "$@") >"$out" 2>&1
	rc=$?
	cat "$out"
	return $rc
}

# expect FILE REGEX: the output must contain a line matching REGEX.
expect() {
	grep -Eq -- "$2" "$1" || fail "expected /$2/ in the output"
}

# reject FILE REGEX: no line may match REGEX.
reject() {
	if grep -Eq -- "$2" "$1"; then
		fail "unexpected /$2/ in the output"
	fi
}

# stage_plugins: copy our driver .so files (and their symlinks) to a private
# directory (EAL refuses -d paths under world-writable directories) and print it.
stage_plugins() {
	d=$(mktemp -d -p "${HOME:-/root}" mlxv-plugins.XXXXXX) || return 1
	find "$MLXV_BUILD/drivers" -maxdepth 1 \( -type f -o -type l \) -name 'librte_*.so*' \
		-exec cp -P {} "$d" \;
	echo "$d"
}

# ended_how STATUS: how a program run under timeout(1) ended, for a failure message. testpmd
# takes timeout's SIGTERM silently and quits as at the end of its input ("Bye..."), so a
# program that ran out of its time looks like one that read the end of its commands; the
# status tells them apart.
ended_how() {
	case $1 in
	124) echo "status 124: its timeout(1) ran out" ;;
	*) echo "status $1" ;;
	esac
}

# Programs run in the background while the test talks to them: bg_pid and bg_out name the
# program and its log.
# bg_wait_log REGEX SECONDS [MIN_COUNT]: wait until bg_out has MIN_COUNT (default 1) lines
# matching REGEX; fail (printing the log) if the program exits or the time runs out.
bg_wait_log() {
	_n=0
	# The log may not exist yet (the program's shell opens it): no count is 0.
	while _c=$(grep -Ecs -- "$1" "$bg_out"); [ "${_c:-0}" -lt "${3:-1}" ]; do
		if ! kill -0 "$bg_pid" 2>/dev/null; then
			wait "$bg_pid"
			_rc=$?
			cat "$bg_out"
			fail "the program exited early ($(ended_how $_rc))"
		fi
		_n=$((_n + 1))
		[ $_n -le $(($2 * 10)) ] || { cat "$bg_out"; fail "timed out waiting for /$1/"; }
		sleep 0.1
	done
}

# bg_forwarding WHEN: wait until port 0 of the background testpmd (its commands on fd 3)
# received frames since its statistics were last cleared; fail (printing the log) after 100
# tries, saying WHEN.
bg_forwarding() {
	_k=0
	until sed -n '/NIC statistics for port 0 cleared/h; /NIC statistics for port 0 cleared/!H;
		      ${x;p}' "$bg_out" | grep -Eq "RX-packets: +[1-9]"; do
		_k=$((_k + 1))
		[ $_k -lt 100 ] || { cat "$bg_out"; fail "port 0 forwards nothing ($1)"; }
		printf 'show port stats 0\n' >&3
		sleep 0.2
	done
}

# bg_descendants PID: PID's processes below it, one per line (children first).
bg_descendants() {
	for _p in $(pgrep -P "$1"); do
		echo "$_p"
		bg_descendants "$_p"
	done
}

# bg_thread TASKDIR: one line for the thread at /proc/<pid>/task/<tid>: its ids, name, state and
# the kernel's wait channel.
bg_thread() {
	_tp=${1#/proc/}
	echo "${_tp%%/*}/${1##*/} $(cat "$1/comm" 2>/dev/null)" \
		"state $(awk '{ print $3 }' "$1/stat" 2>/dev/null)" \
		"wchan $(cat "$1/wchan" 2>/dev/null)"
}

# bg_threads [PID]: bg_thread for every thread of the processes below PID (default: the
# background program), the short form of bg_dump_stuck.
bg_threads() {
	for _p in $(bg_descendants "${1:-$bg_pid}"); do
		for _t in /proc/"$_p"/task/*; do
			bg_thread "$_t"
		done
	done
}

# bg_dump_stuck [PID]: print where each thread of the processes below PID (default: the
# background program) waits (the kernel's wait channel and stack, and gdb's backtrace where gdb
# is installed), so a program that does not end says why in the test log.
bg_dump_stuck() {
	for _p in $(bg_descendants "${1:-$bg_pid}"); do
		echo "=== process $_p: $(tr '\0' ' ' <"/proc/$_p/cmdline" 2>/dev/null | cut -c1-120)"
		for _t in /proc/"$_p"/task/*; do
			echo "--- thread $(bg_thread "$_t")"
			cat "$_t/stack" 2>/dev/null
		done
		command -v gdb >/dev/null &&
			timeout 30 gdb -p "$_p" -batch -nx -ex 'thread apply all bt' 2>&1 |
			grep -E '^(Thread|#)'
	done
}

# bg_kill: kill the background program and every process below it at once (SIGKILL: the
# program under timeout(1) outlives timeout itself, and one that hangs may not heed SIGTERM).
bg_kill() {
	[ -n "$bg_pid" ] || return 0
	for _p in $(bg_descendants "$bg_pid"); do
		kill -9 "$_p" 2>/dev/null
	done
	kill -9 "$bg_pid" 2>/dev/null
}

# bg_finish: wait (up to 60 s) for the background program, print its log, fail unless it
# exited with 0; a program still running then has its threads' stacks printed and is killed.
bg_finish() {
	_n=0
	while kill -0 "$bg_pid" 2>/dev/null && [ $_n -lt 600 ]; do
		_n=$((_n + 1))
		sleep 0.1
	done
	if kill -0 "$bg_pid" 2>/dev/null; then
		cat "$bg_out"
		echo "the program did not end within 60 s; where its threads wait:"
		bg_dump_stuck
		bg_kill
		fail "the program hung on its way out"
	fi
	wait "$bg_pid"
	_rc=$?
	bg_pid=
	cat "$bg_out"
	[ $_rc -eq 0 ] || fail "the program exited with $(ended_how $_rc)"
}

# bg_testpmd KIND SECONDS ARGS...: our testpmd in the background on KIND's two ports cabled to
# each other (sim_launcher, sim_eal), line-buffered, under timeout SECONDS, with ARGS after
# "-l 0-1" (the devices, then testpmd's own arguments); its command input is fd 3 (cmd LINE),
# its output $bg_out. Makes $tmp and an EXIT trap that kills what is left of the program
# outright (on a port that hangs, timeout's SIGTERM would wait for it) and removes $tmp;
# returns once testpmd prompts.
bg_testpmd() {
	_kind=$1
	_secs=$2
	shift 2
	tmp=$(mktemp -d) || fail "mktemp"
	bg_pid=
	trap 'exec 3>&- 2>/dev/null; bg_kill; rm -rf "$tmp"' EXIT
	mkfifo "$tmp/in" || fail "mkfifo"
	bg_out=$tmp/testpmd.log
	(cd / && exec timeout "$_secs" stdbuf -oL $(sim_launcher "$_kind" pair pair) "$TESTPMD" \
		$(sim_eal "$_kind" 256) -l 0-1 "$@") <"$tmp/in" >"$bg_out" 2>&1 &
	bg_pid=$!
	exec 3>"$tmp/in"
	bg_wait_log 'testpmd> ' 30
}

# The client tests run on two simulated Ethernet ports, ethdev ports 0 and 1, of a KIND:
#   mlx5v  two mlx5v_sim functions (net_mlx5v)
#   mlx4v  two mlx4v_sim devices of one port each (net_mlx4v, one ethdev per port)
#   mixed  port 0 on an mlx4v_sim device (net_mlx4v), port 1 on an mlx5v_sim function
#          (net_mlx5v): the cross-simulator pair of doc/guides/sim/mlx4v_sim.rst
#   vfio   two mlx5v_sim functions emulated as PCI functions bound to vfio-pci, 0000:00:05.0
#          and 0000:00:06.0, under dpdk-mlxv-vfio-run (sim_launcher); net_mlx5v on "-a <BDF>,mlx5v=1"
#          through EAL's PCI bus and our vfio-pci backend (doc/guides/platform/vfio_emulation.rst)
#   verbs  two mlx4v_sim models of one port each presented as ConnectX-3 functions under the
#          kernel's verbs stack, 0000:01:00.0 and 0000:01:01.0, under dpdk-mlxv-verbs-run
#          (sim_launcher); net_mlx4v on "-a <BDF>,mlx4v=1" through EAL's PCI bus and our
#          rdma-core backend, libibverbs and libmlx4 (doc/guides/platform/verbs_emulation.rst)
#   dpdkmlx4  as verbs, on bus 02 (0000:02:00.0 and 0000:02:01.0), with DPDK's own net_mlx4
#          (the distribution's plugin, "-a <BDF>") instead of net_mlx4v
# sim_kind KIND: fail unless KIND is one of those.
sim_kind() {
	case $1 in
	mlx5v|mlx4v|mixed|vfio|verbs) ;;
	dpdkmlx4)
		ls /usr/lib/*/dpdk/pmds-*/librte_net_mlx4.so >/dev/null 2>&1 ||
			skip "the distribution's net_mlx4 plugin is not installed"
		;;
	*) fail "no simulated port kind \"$1\" (mlx5v, mlx4v, mixed, vfio, verbs or dpdkmlx4)" ;;
	esac
	# The rdma-core backend hands the device virtual addresses (memory regions), whatever the
	# EAL's IOVA mode: the IOVA-as-PA run adds nothing there but a slower emulation.
	case $1 in verbs|dpdkmlx4)
		iovapa_skip "the verbs kinds' memory regions are by virtual address" ;;
	esac
}

# sim_dev KIND N: the simulated device of port N (0 or 1): its vdev name, or its BDF (vfio).
sim_dev() {
	case $1.$2 in
	mixed.0) echo mlx4v_sim0 ;;
	mixed.1) echo mlx5v_sim0 ;;
	vfio.*) echo "0000:00:0$(($2 + 5)).0" ;;
	verbs.*) echo "0000:01:0$2.0" ;;
	dpdkmlx4.*) echo "0000:02:0$2.0" ;;
	*) echo "$1_sim$2" ;;
	esac
}

# sim_model KIND N: the name of port N's model for the "mlx5v sim" and "mlx4v sim" commands.
sim_model() {
	case $1 in
	vfio) echo "vfio-$(sim_dev "$1" "$2")" ;;
	verbs|dpdkmlx4) echo "verbs-$(sim_dev "$1" "$2")" ;;
	*) sim_dev "$1" "$2" ;;
	esac
}

# sim_launcher KIND WIRE0 WIRE1 [DEVARGS]: what a program on ports of KIND runs under: nothing,
# or (vfio, verbs) the launcher emulating both functions, port N's on WIREN ("pair" cables them
# to each other), with the model devargs DEVARGS; sim_pair and sim_taps then name the functions.
VFIO_RUN=$MLXV_BUILD/app/dpdk-mlxv-vfio-run
VERBS_RUN=$MLXV_BUILD/app/dpdk-mlxv-verbs-run
sim_launcher() {
	case $1 in
	vfio) _run=$VFIO_RUN; _ports= ;;
	verbs|dpdkmlx4) _run=$VERBS_RUN; _ports=ports=1, ;;
	*) return 0 ;;
	esac
	_a=$(sim_dev "$1" 0)
	_b=$(sim_dev "$1" 1)
	_w0=$2
	_w1=$3
	# The verbs models name a port of the peer model ("verbs-<BDF>.<port>").
	if [ "$_w0" = pair ] && [ "$_run" = "$VERBS_RUN" ]; then
		_w0=pair:$(sim_model "$1" 1).1
		_w1=pair:$(sim_model "$1" 0).1
	fi
	[ "$_w0" != pair ] || { _w0=pair:$_b; _w1=pair:$_a; }
	echo "$_run --dev $_a,${_ports}wire=$_w0${4:+,$4} --dev $_b,${_ports}wire=$_w1${4:+,$4} --"
}

# sim_eal KIND MB: eal_base MB, but with the PCI bus for vfio's functions.
sim_eal() {
	case $1 in
	vfio|verbs|dpdkmlx4) eal_base "$2" | sed 's/ --no-pci//' ;;
	*) eal_base "$2" ;;
	esac
}

# sim_vdev DEV WIRE [DEVARGS]: the --vdev argument of DEV with its (only) port on WIRE; for
# an emulated function (a BDF) its -a argument, with net_mlx4v's opt-in on the verbs kind's
# bus 01: its wire and devargs are sim_launcher's.
sim_vdev() {
	case $1 in
	0000:01:*) echo "-a $1,mlx4v=1" ;;
	0000:02:*) echo "-a $1" ;;
	0000:*) echo "-a $1,mlx5v=1" ;;
	mlx4v_sim*) echo "--vdev=$1,ports=1,wire=$2${3:+,$3}" ;;
	*) echo "--vdev=$1,wire=$2${3:+,$3}" ;;
	esac
}

# sim_pair KIND [DEVARGS]: the --vdev arguments of ports 0 and 1 cabled to each other.
sim_pair() {
	_a=$(sim_dev "$1" 0)
	_b=$(sim_dev "$1" 1)
	echo "$(sim_vdev "$_a" "pair:$_b" "$2") $(sim_vdev "$_b" "pair:$_a" "$2")"
}

# sim_taps KIND TAP0 TAP1: the --vdev arguments of ports 0 and 1 wired to TAP interfaces.
sim_taps() {
	echo "$(sim_vdev "$(sim_dev "$1" 0)" "tap:$2") $(sim_vdev "$(sim_dev "$1" 1)" "tap:$3")"
}

# sim_link_cmd MODEL up|down: the testpmd command plugging or pulling the cable of the port of
# MODEL (as sim_model names it).
sim_link_cmd() {
	case $1 in
	mlx4v_sim*|verbs-*) echo "mlx4v sim link $1 1 $2" ;;
	*) echo "mlx5v sim link $1 $2" ;;
	esac
}

# tap_fwd_start KIND SUBNET: testpmd io-forwarding between ports 0 and 1 of KIND, wired to TAP
# interfaces $tap1 and $tap2, each moved into its own network namespace ($ns1, $ns2) made here
# with address SUBNET.1 and SUBNET.2 (/24) and no IPv6 (no router solicitations or neighbour
# discovery of their own), links up and forwarding started. Sets $work, $bg_out, $bg_pid and an
# EXIT trap that removes them; cmd LINE sends LINE to testpmd. Skips without TUN, ip(8) or
# namespaces.
tap_fwd_start() {
	[ -c /dev/net/tun ] || skip "no /dev/net/tun"
	command -v ip >/dev/null || skip "no ip(8)"
	ns1=mlxvna$$
	ns2=mlxvnb$$
	tap1=mlxvta$$
	tap2=mlxvtb$$
	ip netns add "$ns1" 2>/dev/null || skip "cannot create a network namespace"
	ip netns add "$ns2" || { ip netns delete "$ns1"; fail "cannot create a second namespace"; }
	work=$(mktemp -d) || fail "mktemp"
	bg_pid=
	trap tap_fwd_cleanup EXIT
	bg_out=$work/testpmd.log
	mkfifo "$work/cmds" || fail "mkfifo"
	# Line-buffered: the test reads testpmd's answers while it runs.
	(cd / && timeout 120 $(sim_launcher "$1" "tap:$tap1" "tap:$tap2") \
		stdbuf -oL "$TESTPMD" $(sim_eal "$1" 256) -l 0-1 \
		$(sim_taps "$1" "$tap1" "$tap2") -- \
		-i --forward-mode=io --rxq=1 --txq=1 --total-num-mbufs=8192 \
		<"$work/cmds" >"$bg_out" 2>&1) &
	bg_pid=$!
	exec 3>"$work/cmds"
	bg_wait_log 'testpmd> ' 30
	ip link show "$tap1" >/dev/null 2>&1 || { cat "$bg_out"; fail "no TAP $tap1"; }
	# The TAPs leave testpmd's namespace for the two peers; the wire follows them.
	ip link set "$tap1" netns "$ns1" || fail "cannot move $tap1"
	ip link set "$tap2" netns "$ns2" || fail "cannot move $tap2"
	ip netns exec "$ns1" sysctl -qw "net.ipv6.conf.$tap1.disable_ipv6=1" 2>/dev/null
	ip netns exec "$ns2" sysctl -qw "net.ipv6.conf.$tap2.disable_ipv6=1" 2>/dev/null
	ip -n "$ns1" addr add "$2.1/24" dev "$tap1" || fail "address on $tap1"
	ip -n "$ns2" addr add "$2.2/24" dev "$tap2" || fail "address on $tap2"
	ip -n "$ns1" link set "$tap1" up || fail "$tap1 up"
	ip -n "$ns2" link set "$tap2" up || fail "$tap2 up"
	cmd "show port info all"
	bg_wait_log '^Link status: up' 10 2
	cmd "start"
	bg_wait_log 'io packet forwarding' 10
}

tap_fwd_cleanup() {
	exec 3>&- 2>/dev/null
	bg_kill
	ip netns delete "$ns1" 2>/dev/null
	ip netns delete "$ns2" 2>/dev/null
	rm -rf "$work"
}

cmd() {
	echo "$1" >&3
}
