#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# rdma-core's mlx5 VFIO provider, unmodified, on the VFIO emulation
# (doc/guides/platform/vfio_emulation.rst, "rdma-core"):
#  1. the whole scenario (vfio-rdma-core) on a PF, the host without the IOVA range
#     capability (rdma-core then picks its own ranges, which start at 64 KiB);
#  2. with x86's IOVA ranges, which start at 0, rdma-core 44 gives firmware a page at IOVA 0,
#     which the model refuses as firmware does ([K], prm/mlx5 §5.2): bring-up fails;
#  3. on a VF, rdma-core 44 writes HOST_ENDIANNESS, which the model refuses from a VF
#     (prm/mlx5 §2.1 step 11): bring-up fails.
#  4. a full IOMMU (--dma-entry-limit 20: MAP_DMA fails with ENOSPC in the middle of the
#     bring-up): ibv_open_device() fails with ENOSPC and returns, nothing hangs;
#  5. a host with 2 MSI-X vectors for the function (msix_host_vectors=2): rdma-core enables
#     all 8 at bring-up, SET_IRQS fails with ENOSPC as vfio-pci's does, so does the open.
# 2 and 3 pin where rdma-core and the model part (doc/guides/platform/vfio_emulation.rst).
set -u
RUN="$MLXV_BUILD/app/dpdk-mlxv-vfio-run"
PROG="$MLXV_BUILD/tests/vfio/vfio-rdma-core"
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

timeout 120 "$RUN" --no-iova-range -- "$PROG" >"$out" 2>&1
rc=$?
grep -v '^ok:' "$out"
if [ $rc -ne 0 ]; then
	echo "FAIL: the rdma-core scenario exits $rc"
	fail=1
else
	echo "ok: the rdma-core scenario ($(grep -c '^ok:' "$out") checks)"
fi

expect_refusal() { # name errno-text pattern args...
	n=$1 err=$2 pat=$3
	shift 3
	timeout 60 "$RUN" --trace "$@" -- "$PROG" >"$out" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -q "ibv_open_device: $err" "$out" &&
	   grep -q "$pat" "$out"; then
		echo "ok: $n"
	else
		echo "FAIL: $n (exit $rc)"
		grep -v '^mlxv-vfio:' "$out" | tail -5
		fail=1
	fi
}
expect_refusal "IOVA 0: firmware page refused" "Invalid argument" \
	"MANAGE_PAGES GIVE: bad page #0 0x0"
expect_refusal "VF: HOST_ENDIANNESS refused" "Invalid argument" \
	"ACCESS_REG (0x805) op_mod 0 -> status 0x2 syndrome 0x51010016" \
	--no-iova-range --dev 0000:00:05.0,function=vf
expect_refusal "IOMMU full: MAP_DMA ENOSPC" "No space left on device" \
	"ioctl([0-9]*, 0x3b71) -> -28" --no-iova-range --dma-entry-limit 20
expect_refusal "2 host vectors: SET_IRQS ENOSPC" "No space left on device" \
	"SET_IRQS wants 8 vectors, the host has 2" --no-iova-range \
	--dev 0000:00:05.0,msix_host_vectors=2
exit $fail
