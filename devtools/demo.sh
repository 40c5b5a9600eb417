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
bdir=$(realpath -m "${1:-$src/build}")
"$src/devtools/setup.sh"
if [ ! -f "$bdir/build.ninja" ]; then
	meson setup "$bdir" "$src" -Ddpdk_src_cache="$src/build-cache"
fi
ninja -C "$bdir"

eal="--no-huge -m 256 --no-pci --no-shconf"
echo "== Drivers built (Debian's dpdk-pmdinfo.py):"
/usr/bin/python3 /usr/bin/dpdk-pmdinfo.py "$bdir"/drivers/librte_*.so

# mlx5v: the core brings the simulated ConnectX up (init segment, command queue,
# pages, async EQ); then DEVX EQs and MSI vectors from testpmd.
mlx5v_cmds='mlx5v dev show mlx5v_sim0
mlx5v msi alloc mlx5v_sim0
mlx5v eq create mlx5v_sim0 6 0x210 1
mlx5v eq list mlx5v_sim0
mlx5v sim inject mlx5v_sim0 9 1
mlx5v eq gen mlx5v_sim0 2 4 0
mlx5v eq show mlx5v_sim0 2
mlx5v eq poll mlx5v_sim0 2
mlx5v eq intr mlx5v_sim0 2 on
mlx5v sim inject mlx5v_sim0 9 4
mlx5v eq show mlx5v_sim0 2
mlx5v eq intr mlx5v_sim0 2 off
mlx5v msi free mlx5v_sim0 1
mlx5v eq destroy mlx5v_sim0 2
mlx5v msi free mlx5v_sim0 1
mlx5v eq create mlx5v_sim0 6 zz 1'
# mlx4v: objects on EAL memory, their raw views, and a packet through them.
mlx4v_cmds='mlx4v open mlx4v_sim0
mlx4v pd create 0
mlx4v cq create 0 64 0 1
mlx4v cq create 0 64 0 1
mlx4v qp create 0 0 0 1 64 16
mlx4v wq create 0 1 1 64 1
mlx4v qp modify 0 init
mlx4v qp modify 0 rtr
mlx4v qp modify 0 rts
mlx4v wq modify 0 rdy
mlx4v view qp 0
mlx4v view cq 1
mlx4v view rwq 0
mlx4v post rwq 0 4
mlx4v arm 1
mlx4v send 0 200
mlx4v poll 0
mlx4v poll 1
mlx4v event 1
mlx4v list
mlx4v sim show mlx4v_sim0'

echo "== Our dpdk-testpmd on mlx5v_sim0 and mlx4v_sim0 (and Debian's net_null0)"
printf 'help drivers\n%s\n%s\nshow port summary all\nquit\n' "$mlx5v_cmds" "$mlx4v_cmds" |
	(cd / && timeout 120 "$bdir/app/dpdk-testpmd" $eal --vdev=mlx5v_sim0,msix=8 \
		--vdev=mlx4v_sim0,ports=2 --vdev=net_null0 -- -i --total-num-mbufs=2048)

echo "== examples/eq_events: a vector, an EQ, arm, epoll, events"
(cd / && timeout 60 "$bdir/examples/eq_events/dpdk-eq_events" $eal --vdev=mlx5v_sim0,msix=8)

echo "== examples/raw_views: packets through the mlx4dv views only"
(cd / && timeout 60 "$bdir/examples/raw_views/dpdk-raw_views" $eal --vdev=mlx4v_sim0,ports=2)
