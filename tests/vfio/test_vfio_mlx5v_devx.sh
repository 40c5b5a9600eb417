#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# rdma-core's scenario (vfio_rdma_core.c) through rte_pmd_mlx5v_* and our vfio-pci backend on
# the same emulated function (doc/guides/nics/mlx5v_devx.rst, "rdma-core and mlx5v on one
# function"): vfio-mlx5v-devx with class=none, IOVA as VA or (setup iovapa) as PA.
. "$(dirname "$0")/../testpmd/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
(cd / && timeout 120 "$VFIO_RUN" -- "$MLXV_BUILD/tests/vfio/vfio-mlx5v-devx" \
	$(sim_eal vfio 256) -a 0000:00:05.0,mlx5v=1,class=none) >"$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 0 ] || fail "vfio-mlx5v-devx exited with $rc"
expect "$out" '^PASS: 0 failure'
expect "$out" 'unmapped ring: the EQ reports EQ_WRITE_FAILURE'
echo "PASS"
