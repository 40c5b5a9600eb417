#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The main job on the simulator: install what is missing, fetch the DPDK
# source package, configure and build, then run our dpdk-testpmd with the
# simulated ConnectX devices and drive them. Safe to re-run.
# usage: devtools/demo.sh [BUILD_DIR]   (default: build)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
bdir=${1:-$src/build}
"$src/devtools/setup.sh"
if [ ! -f "$bdir/build.ninja" ]; then
	meson setup "$bdir" "$src" -Ddpdk_src_cache="$src/build-cache"
fi
ninja -C "$bdir"

eal="--no-huge -m 256 --no-pci --no-shconf"
echo "== Drivers built (dpdk-pmdinfo.py):"
/usr/bin/python3 /usr/bin/dpdk-pmdinfo.py "$bdir"/drivers/librte_*.so
vdevs=
for v in mlx5v_sim0,msix=8 mlx4v_sim0,ports=2; do
	ls "$bdir"/drivers/librte_common_${v%%_sim*}.so >/dev/null 2>&1 &&
		vdevs="$vdevs --vdev=$v"
done
cmds=$(sed -n 's/^# demo: //p' "$src/devtools/demo.cmds" 2>/dev/null || true)
echo "== dpdk-testpmd with$vdevs"
# shellcheck disable=SC2086
printf 'help drivers\n%s\nquit\n' "$cmds" |
	(cd / && timeout 120 "$bdir/app/dpdk-testpmd" $eal $vdevs --vdev=net_null0 \
		-- -i --total-num-mbufs=2048)
if [ -x "$bdir/examples/dpdk-eq_events" ]; then
	echo "== examples/eq_events"
	(cd / && timeout 60 "$bdir/examples/dpdk-eq_events" $eal --vdev=mlx5v_sim0,msix=8)
fi
if [ -x "$bdir/examples/dpdk-raw_views" ]; then
	echo "== examples/raw_views"
	(cd / && timeout 60 "$bdir/examples/dpdk-raw_views" $eal --vdev=mlx4v_sim0,ports=2)
fi
