#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Which driver takes a ConnectX function bound to vfio-pci (doc/guides/howto/device_selection.rst).
# Loaded from DPDK's plugin directory (the Debian packages), mlx5v_pci is in every DPDK program
# of the machine and takes a function only when the user names it for us (-a <BDF>,mlx5v=1);
# linked by the program or given with -d, as here, binding the function to vfio-pci is the
# opt-in, and mlx5v=0 leaves a function to the drivers registered after ours, Debian's
# mlx5_pci among them. Two functions emulated as vfio-pci devices (dpdk-mlxv-vfio-run), our
# testpmd (our drivers registered first, Debian's auto-loaded after them): 0000:00:05.0 with
# mlx5v=1 becomes our port; 0000:00:06.0 without the devarg too, with mlx5v=0 it is left to
# Debian's mlx5_pci, which EAL then asks; mlx5v=2 fails its probe with a message, and so
# do a key no layer reads and a class's key with the class not selected.
. "$(dirname "$0")/../testpmd/lib.sh"
set -u
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# run DEVARGS6: testpmd on both functions, 0000:00:06.0 with DEVARGS6 appended to its -a.
run() {
	printf 'show port summary all\nquit\n' | (cd / && timeout 60 "$VFIO_RUN" \
		--dev 0000:00:05.0 --dev 0000:00:06.0 -- "$TESTPMD" $(sim_eal vfio 512) \
		--log-level=lib.eal:debug --log-level='pmd.common.mlx5v*:info' \
		-a 0000:00:05.0,mlx5v=1 -a "0000:00:06.0$1" -- -i --total-num-mbufs=4096) \
		>"$out" 2>&1
	rc=$?
	cat "$out"
	[ $rc -eq 0 ] || fail "testpmd exited with $rc"
}

echo "== -a 0000:00:05.0,mlx5v=1 -a 0000:00:06.0"
run ""
expect "$out" '^0 +[0-9A-F:]+ +0000:00:05.0 '
expect "$out" '^1 +[0-9A-F:]+ +0000:00:06.0 '
reject "$out" 'left to other drivers'

echo "== -a 0000:00:05.0,mlx5v=1 -a 0000:00:06.0,mlx5v=0"
run ",mlx5v=0"
expect "$out" 'Probe PCI driver: mlx5v_pci \(15b3:[0-9a-f]+\) device: 0000:00:05.0'
expect "$out" '^0 +[0-9A-F:]+ +0000:00:05.0 '
expect "$out" '0000:00:06.0: mlx5v=0, left to other drivers'
expect "$out" 'Probe PCI driver: mlx5_pci \(15b3:[0-9a-f]+\) device: 0000:00:06.0'
reject "$out" '^[0-9]+ +[0-9A-F:]+ +0000:00:06.0 '
# A value other than 0 or 1 is an error, reported, not a silent skip.
echo "== -a 0000:00:05.0,mlx5v=1 -a 0000:00:06.0,mlx5v=2"
run ",mlx5v=2"
expect "$out" '0000:00:06.0: devarg mlx5v=2: expected 0 or 1'
reject "$out" '^[0-9]+ +[0-9A-F:]+ +0000:00:06.0 '
# One owner per devarg (doc/guides/platform/layers.rst, "Devargs"): a key no layer reads,
# and the net class's key with the net class not selected, fail the probe naming the key.
echo "== -a 0000:00:05.0,mlx5v=1 -a 0000:00:06.0,no_such_key=1"
run ",no_such_key=1"
expect "$out" '0000:00:06.0: unknown devarg no_such_key'
reject "$out" '^[0-9]+ +[0-9A-F:]+ +0000:00:06.0 '
echo "== -a 0000:00:05.0,mlx5v=1 -a 0000:00:06.0,class=none,rxq_cqe_comp_en=1"
run ",class=none,rxq_cqe_comp_en=1"
expect "$out" "0000:00:06.0: devarg rxq_cqe_comp_en is class net's, which class= does not"
reject "$out" '^[0-9]+ +[0-9A-F:]+ +0000:00:06.0 '
echo "mlx5v_pci took the functions given to it and left the one with mlx5v=0 to Debian's mlx5_pci: OK"
