#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Random and malformed command lines (fuzz_lines.py, fixed seeds) fed to testpmd on two
# simulated ports cabled together: our testpmd, then Debian's loading our drivers with -d.
# Each session must not crash or hang, must exit 0 at its "quit", and must have read every
# line (one prompt per line), on the two ports of the kind. Usage: test_testpmd_fuzz.sh KIND
# (sim_kind in lib.sh; vfio and verbs under their launcher).
. "$(dirname "$0")/lib.sh"
kind=$1
sim_kind "$kind"
command -v python3 >/dev/null || skip "no python3"
[ -x /usr/bin/dpdk-testpmd ] || skip "no /usr/bin/dpdk-testpmd"
out=$(mktemp)
cmds=$(mktemp)
plugins=$(stage_plugins) || fail "cannot stage plugins"
trap 'rm -rf "$out" "$cmds" "$plugins"' EXIT
PAIR=$(sim_pair "$kind")
LAUNCH=$(sim_launcher "$kind" pair pair)
EAL=$(sim_eal "$kind" 256)
TP_ARGS="-- -i --total-num-mbufs=16384 --nb-cores=1"
LINES=40

for seed in 1 2 3; do
	python3 "$MLXV_SRC/tests/testpmd/fuzz_lines.py" "$seed" $LINES >"$cmds" ||
		fail "fuzz_lines.py"
	# Interleaved restarts keep the ports in use between the malformed lines.
	awk 'NR % 10 == 0 { print "port start all" } { print } END { print "quit" }' \
		"$cmds" >"$cmds.all"
	mv "$cmds.all" "$cmds"
	n=$(wc -l <"$cmds")
	for prog in ours debian; do
		case $prog in
		ours) set -- "$TESTPMD" ;;
		debian) set -- /usr/bin/dpdk-testpmd -d "$plugins" ;;
		esac
		(cd / && timeout 120 $LAUNCH "$@" $EAL -l 0-1 $PAIR $TP_ARGS) <"$cmds" >"$out" 2>&1
		rc=$?
		prompts=$(grep -o 'testpmd> ' "$out" | wc -l)
		if [ $rc -ne 0 ] || [ "$prompts" -ne "$n" ]; then
			cat "$cmds"
			cat "$out"
			fail "$prog testpmd, seed $seed: exit $rc, $prompts prompts for $n lines"
		fi
		grep -q '^Bye' "$out" || { cat "$out"; fail "$prog testpmd, seed $seed: no Bye"; }
		# The session had the kind's two ports to misuse, not none.
		grep -q '^Configuring Port 1 ' "$out" ||
			{ cat "$out"; fail "$prog testpmd, seed $seed: no port 1"; }
		echo "$prog testpmd, seed $seed: $n lines on $kind ports, exit 0"
	done
done
