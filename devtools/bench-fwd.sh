#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Driver instructions per packet of io forwarding between two ports (Rx burst + Tx burst,
# 64-byte frames), counted by callgrind in one run per PMD: ours on two simulated ports
# cabled by a pair wire, and DPDK's net_null and net_ring as the floor. Only
# bench_rx()/bench_tx() of app/fwd-bench are collected (the ethdev inline wrapper and the
# PMD's burst function) of the main thread: for our PMDs the simulator's work that runs on
# the caller's thread behind a doorbell (the device's side) is toggled off again, and the
# other threads (the simulator's engine, EAL's) are counted apart and left out. A device
# that delivers asynchronously (mlx4v_sim) is polled only once a burst is waiting
# (fwd-bench -w), so that its empty polls are not counted.
# The rows marked @verbs run under dpdk-mlxv-verbs-run on one emulated ConnectX-3 function
# whose two ports are cabled to each other: DPDK's net_mlx4 (the distribution's plugin) and our
# net_mlx4v on its rdma-core backend, on the same ports. net_mlx4 cannot count waiting frames,
# so both poll after a pause (fwd-bench -p) and the run's empty polls are subtracted at the
# cost bench_idle() measures afterwards (fwd-bench -i); the store trap of the UAR page is
# toggled off (the doorbell is one store on silicon), and valgrind keeps the registers exact at
# each instruction so that the trap can carry a faulting store out itself.
# doc/guides/bench/mlx5v_fwd.rst, doc/guides/bench/mlx4v_fwd.rst,
# doc/guides/bench/mlx4_verbs_fwd.rst.
# Usage: devtools/bench-fwd.sh <build dir> [packets] [burst]
# Environment: BENCH_FWD_ONLY="name ..." runs only those PMDs of the list below;
# BENCH_FWD_KEEP=<dir> keeps the main thread's callgrind file there (<name>.cg) for
# callgrind_annotate.
set -e
build=$(realpath "${1:?usage: bench-fwd.sh <build dir> [packets] [burst]}")
pkts=${2:-200000}
burst=${3:-32}
bench=$build/app/fwd-bench/dpdk-mlxv-fwd-bench
command -v valgrind >/dev/null || { echo "bench-fwd: valgrind is not installed" >&2; exit 1; }

# The PMDs, one per line: name | callgrind options | fwd-bench options | EAL arguments,
# where @plugins stands for "-d <our drivers>" (staged as the testpmd tests do it,
# tests/testpmd/lib.sh) and @burst for the burst size.
pmds='
net_null | | | --vdev=net_null0 --vdev=net_null1
net_ring | | | --vdev=net_ring0 --vdev=net_ring1
net_mlx5v | --toggle-collect=mlx5v_sim_hw_db_notify | | @plugins
	--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1,wqe_inline_mode=2,empw=1
	--vdev=mlx5v_sim1,wire=pair:mlx5v_sim0,wqe_inline_mode=2,empw=1
net_mlx5v_nocomp | --toggle-collect=mlx5v_sim_hw_db_notify | | @plugins
	--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1,wqe_inline_mode=2,empw=1,rxq_cqe_comp_en=0
	--vdev=mlx5v_sim1,wire=pair:mlx5v_sim0,wqe_inline_mode=2,empw=1,rxq_cqe_comp_en=0
net_mlx5v_sse | --toggle-collect=mlx5v_sim_hw_db_notify | | @plugins
	--force-max-simd-bitwidth=128
	--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1,wqe_inline_mode=2,empw=1
	--vdev=mlx5v_sim1,wire=pair:mlx5v_sim0,wqe_inline_mode=2,empw=1
net_mlx5v_l2 | --toggle-collect=mlx5v_sim_hw_db_notify | | @plugins
	--vdev=mlx5v_sim0,wire=pair:mlx5v_sim1 --vdev=mlx5v_sim1,wire=pair:mlx5v_sim0
net_mlx4v | | -w @burst | @plugins --vdev=mlx4v_sim0,ports=2,mode=pair
net_mlx4 | @verbs | -p 50 -i 1000 | @verbs -a 0000:00:06.0
net_mlx4v_verbs | @verbs | -p 50 -i 1000 | @verbs @plugins -a 0000:00:06.0,mlx4v=1
'

# shellcheck disable=SC2034 # read by lib.sh
MLXV_BUILD=$build
# shellcheck source=tests/testpmd/lib.sh
. "$(dirname "$0")/../tests/testpmd/lib.sh"
work=$(mktemp -d)
verbs_dev=0000:00:06.0
verbs_run="$build/app/dpdk-mlxv-verbs-run --dev $verbs_dev,wire1=pair:verbs-$verbs_dev.2"
verbs_run="$verbs_run,wire2=pair:verbs-$verbs_dev.1 --"
verbs_cg="--px-default=allregs-at-each-insn --px-file-backed=allregs-at-each-insn"
verbs_cg="$verbs_cg --toggle-collect=emu_trap_segv"
plugins=
trap 'rm -rf "$work" ${plugins:+"$plugins"}' EXIT
plugins=$(stage_plugins) || { echo "bench-fwd: cannot stage our drivers" >&2; exit 1; }

# incl FILE FUNCTION: the inclusive instructions of FUNCTION in a callgrind file (its largest
# entry: callgrind_annotate also lists the part inlined from each header), 0 if absent.
incl() {
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v f=":$2 " 'index($0, f) { v = $1; gsub(",", "", v); if (v + 0 > m) m = v + 0 }
			END { print m + 0 }'
}

# run NAME TOGGLES EAL_ARGS BENCH_OPTIONS
run() {
	name=$1
	launcher=
	nopci=--no-pci
	case " $2 " in *" @verbs "*)
		launcher=$verbs_run
		nopci=
		;;
	esac
	# --fair-sched: the simulator's engine thread must run while the main thread polls;
	# collection is switched on for all threads alike, so each gets its own file and only
	# the main thread's (-01) is read.
	# shellcheck disable=SC2086 # the options and arguments are word lists
	(cd / && $launcher valgrind --tool=callgrind --fair-sched=yes --separate-threads=yes \
		--callgrind-out-file="$work/$name.cg" \
		--toggle-collect=bench_rx --toggle-collect=bench_tx --toggle-collect=bench_idle \
		$(echo "$2" | sed "s|@verbs|$verbs_cg|") \
		"$bench" --no-huge -m 512 $nopci --no-shconf -l 0 \
		--log-level=lib.eal:error $3 -- -n "$pkts" -b "$burst" $4) \
		>"$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
	rx=$(sed -n 's/^fwd-bench: .*, \([0-9]*\) packets received.*/\1/p' "$work/$name.log")
	ir=$(callgrind_annotate "$work/$name.cg-01" 2>/dev/null |
		sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ',')
	[ -n "$rx" ] && [ "$rx" -gt 0 ] && [ -n "$ir" ] ||
		{ cat "$work/$name.log"; echo "bench-fwd: $name: no result" >&2; exit 1; }
	irx=$(incl "$work/$name.cg-01" bench_rx)
	itx=$(incl "$work/$name.cg-01" bench_tx)
	# -i: an empty poll costs what bench_idle() averaged; the run's empty polls come off Rx.
	calib=$(sed -n 's/^fwd-bench: idle calibration: \([0-9]*\) polls, \([0-9]*\) empty$/\1 \2/p' \
		"$work/$name.log")
	if [ -n "$calib" ]; then
		[ "${calib% *}" = "${calib#* }" ] ||
			{ cat "$work/$name.log"; echo "bench-fwd: $name: calibration saw frames" >&2; exit 1; }
		empty=$(sed -n 's/^fwd-bench: .*, \([0-9]*\) empty bursts polled$/\1/p' "$work/$name.log")
		irx=$(awk -v r="$irx" -v e="$empty" -v i="$(incl "$work/$name.cg-01" bench_idle)" \
			-v n="${calib% *}" 'BEGIN { printf "%.0f", r - e * i / n }')
		ir=$((irx + itx))
	fi
	[ -z "$BENCH_FWD_KEEP" ] || cp "$work/$name.cg-01" "$BENCH_FWD_KEEP/$name.cg"
	awk -v n="$name" -v ir="$ir" -v rx="$rx" -v b="$burst" -v irx="$irx" -v itx="$itx" 'BEGIN {
		printf "bench-fwd: %-15s %6.1f instructions/packet (Rx+Tx, burst %d, %d packets;" \
		       " Rx %.1f, Tx %.1f)\n", n, ir / rx, b, rx, irx / rx, itx / rx }'
}

# Entries may continue on lines that start with a tab.
echo "$pmds" | awk '/^\t/ { line = line " " $0; next } { if (line != "") print line; line = $0 }
	END { if (line != "") print line }' | while IFS='|' read -r name toggles opts args; do
	name=$(printf '%s' "$name" | tr -d ' \t')
	[ -n "$name" ] || continue
	case " ${BENCH_FWD_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
	if [ "$name" = net_mlx4 ] && ! ls /usr/lib/*/dpdk/pmds-*/librte_net_mlx4.so >/dev/null 2>&1
	then
		echo "bench-fwd: net_mlx4: skipped, the distribution's plugin is not installed"
		continue
	fi
	run "$name" "$toggles" "$(echo "$args" | sed "s|@plugins|-d $plugins|")" \
		"$(echo "$opts" | sed "s|@burst|$burst|")" </dev/null
done
