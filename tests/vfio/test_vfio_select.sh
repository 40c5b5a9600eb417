#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# mlx5v_pci takes a function only when the user names it for us (-a <BDF>,mlx5v=1) and leaves
# every other one to the drivers registered after it, Debian's mlx5_pci among them: once our
# plugins sit in DPDK's plugin directory (the Debian packages), they are in every DPDK program
# of the machine (doc/guides/howto/device_selection.rst). Two functions emulated as vfio-pci
# devices (dpdk-mlxv-vfio-run), our testpmd (our drivers registered first, Debian's
# auto-loaded after them), only 0000:00:05.0 opted in: it becomes our port, 0000:00:06.0 is
# left to Debian's mlx5_pci, which EAL then asks; mlx5v=0 leaves a function the same way, and
# mlx5v=2 fails its probe with a message.
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

for a6 in "" ",mlx5v=0"; do
	echo "== -a 0000:00:05.0,mlx5v=1 -a 0000:00:06.0$a6"
	run "$a6"
	expect "$out" 'Probe PCI driver: mlx5v_pci \(15b3:[0-9a-f]+\) device: 0000:00:05.0'
	expect "$out" '^0 +[0-9A-F:]+ +0000:00:05.0 '
	expect "$out" '0000:00:06.0: (not selected \(devarg mlx5v=1\)|mlx5v=0), left to other drivers'
	expect "$out" 'Probe PCI driver: mlx5_pci \(15b3:[0-9a-f]+\) device: 0000:00:06.0'
	reject "$out" '^[0-9]+ +[0-9A-F:]+ +0000:00:06.0 '
done
# A value other than 0 or 1 is an error, reported, not a silent skip.
echo "== -a 0000:00:05.0,mlx5v=1 -a 0000:00:06.0,mlx5v=2"
run ",mlx5v=2"
expect "$out" '0000:00:06.0: devarg mlx5v=2: expected 0 or 1'
reject "$out" '^[0-9]+ +[0-9A-F:]+ +0000:00:06.0 '
echo "mlx5v_pci took the function opted in and left the other to Debian's mlx5_pci: OK"
