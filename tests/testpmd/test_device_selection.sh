#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Device selection (doc/guides/howto/device_selection.rst): with Debian's mlx4/mlx5
# drivers loaded in the same process, OUR drivers probe the mlx4v_sim/mlx5v_sim
# vdevs. Run 1: Debian's /usr/bin/dpdk-testpmd (links Debian's mlx5, auto-loads
# pmds-23.0 with net_mlx4) plus our plugins with -d from a private directory.
# Run 2: our dpdk-testpmd (our drivers linked, Debian's mlx PMDs not linked, still
# auto-loaded). Judged from EAL debug lines and our drivers' own probe lines.
. "$(dirname "$0")/lib.sh"
DEB_TESTPMD=/usr/bin/dpdk-testpmd
PMD_DIR=$(pkg-config --variable=pmdsdir libdpdk 2>/dev/null)
[ -n "$PMD_DIR" ] || PMD_DIR=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
[ -x "$DEB_TESTPMD" ] || skip "Debian's dpdk-testpmd is not installed"
[ -e "$PMD_DIR/librte_net_mlx4.so" ] || skip "Debian's net_mlx4 plugin is not installed"
out=$(mktemp)
plugins=$(stage_plugins) || fail "cannot stage plugins"
trap 'rm -rf "$out" "$plugins"' EXIT

vdevs="--vdev=mlx4v_sim0,ports=2"
mlx5v=0
if [ -e "$MLXV_BUILD/drivers/librte_sim_mlx5v.so" ]; then
	vdevs="$vdevs --vdev=mlx5v_sim0"
	mlx5v=1
fi
logs="--log-level=lib.eal:debug --log-level=bus.vdev:debug"
logs="$logs --log-level=pmd.common.mlx4v*:info --log-level=pmd.common.mlx5v*:info"
logs="$logs --log-level=pmd.sim.mlx4v*:info --log-level=pmd.sim.mlx5v*:info"

# check_probed FILE: our drivers, not Debian's, probed every simulated device.
check_probed() {
	expect "$1" 'Search driver to probe device mlx4v_sim0'
	expect "$1" 'device mlx4v_sim0 registered with the simulator backend'
	expect "$1" 'mlx4v_sim0: simulated ConnectX-3, 2 port\(s\)'
	if [ $mlx5v = 1 ]; then
		expect "$1" 'Search driver to probe device mlx5v_sim0'
		expect "$1" 'mlx5v_sim0: simulated ConnectX up'
	fi
	reject "$1" 'no driver found for|failed to initialize m|Cannot init plugins'
	# Debian's mlx4 and mlx5 were loaded in the same process.
	expect "$1" "open shared lib $PMD_DIR/librte_net_mlx4\.so"
	expect "$1" "open shared lib $PMD_DIR/librte_net_mlx5\.so"
	expect "$1" '^Bye'
}

# line_of FILE REGEX: number of the first matching line (0 when none).
line_of() {
	n=$(grep -En -- "$2" "$1" | head -n 1 | cut -d: -f1)
	echo "${n:-0}"
}

# Run 1: Debian's testpmd, which links net_mlx5 (it registers first), plus -d.
readelf -d "$DEB_TESTPMD" | grep -q 'NEEDED.*librte_net_mlx5\.so' ||
	echo "note: $DEB_TESTPMD does not link net_mlx5 on this system"
printf 'quit\n' | (cd / && timeout 60 "$DEB_TESTPMD" -d "$plugins" $EAL_BASE $vdevs $logs \
	-- -i --total-num-mbufs=2048) >"$out" 2>&1 || { cat "$out"; fail "Debian's testpmd failed"; }
cat "$out"
check_probed "$out"
# -d plugins are opened before the auto-loaded driver directory (appended last).
ours=$(line_of "$out" "open shared lib $plugins/librte_common_mlx4v\.so")
first_auto=$(line_of "$out" "open shared lib $PMD_DIR/")
[ "$ours" -gt 0 ] && [ "$first_auto" -gt "$ours" ] ||
	fail "our -d plugin (line $ours) must load before $PMD_DIR (line $first_auto)"

# Run 2: our testpmd; our drivers are linked, Debian's mlx PMDs are not.
readelf -d "$TESTPMD" | grep -q 'NEEDED.*librte_common_mlx4v' || fail "our testpmd must link mlx4v"
if readelf -d "$TESTPMD" | grep -Eq 'NEEDED.*librte_(net|common)_mlx[45]\.so'; then
	fail "our testpmd must not link Debian's mlx drivers"
fi
run_testpmd "$out" 'mlx4v open mlx4v_sim0\nmlx4v open mlx4v_sim_b1\nmlx4v close 0\nmlx4v close 1\nquit\n' \
	$EAL_BASE $vdevs --vdev=mlx4v_sim_b1,ports=1 $logs -- -i --total-num-mbufs=2048 ||
	fail "our testpmd exited with $?"
check_probed "$out"
expect "$out" '^mlx4v: dev 0: mlx4v_sim0 opened \(simulator\)'
# vdev names match drivers by prefix: mlx4v_sim takes any name starting with it.
expect "$out" 'mlx4v_sim_b1: simulated ConnectX-3, 1 port\(s\)'
expect "$out" '^mlx4v: dev 1: mlx4v_sim_b1 opened \(simulator\)'
