#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Our vfio-pci backend (drivers/common/mlx5v/mlx5v_hw_pci.c) through EAL's PCI bus on
# emulated functions (doc/guides/platform/vfio_emulation.rst, "EAL"), IOVA as VA (--no-huge),
# or as PA on hugepages under the meson test setup "iovapa" (tests/testpmd/lib.sh, eal_mem):
#  1. examples/eq_events -a BDF (the DEVX EQ API, default class and class=none): two GEN_EQE
#     events, each after an MSI-X through VFIO;
#  2. our testpmd with net_mlx5v on two functions cabled with wire=pair:<BDF>: io forwarding
#     moves frames both ways;
#  3. fewer MSI-X vectors than asked (msix_host_vectors=1: the host has only the control
#     vector): the DEVX vector fails with ENOSPC, eq_events says so and exits 1;
#  4. dpdk-mlxv-vfio-bench, 3 rounds: rdma-core's open and close, then hot-plug add and remove
#     of the function through EAL (the group leaves its container and comes back).
. "$(dirname "$0")/../testpmd/lib.sh"
set -u
RUN="$MLXV_BUILD/app/dpdk-mlxv-vfio-run"
EQ="$MLXV_BUILD/examples/eq_events/dpdk-eq_events"
TP="$MLXV_BUILD/app/dpdk-testpmd"
fail=0
out=$(mktemp)
pfx=${MLXV_EAL_PREFIX:-mlxv}_vfio$$
trap 'rm -f "$out"' EXIT

# check NAME STATUS: ok when STATUS is 0 (lib.sh's fail would stop at the first).
check() {
	if [ "$2" -eq 0 ]; then
		echo "ok: $1"
	else
		echo "FAIL: $1"
		tail -20 "$out"
		fail=1
	fi
}

for devargs in "" ",class=none"; do
	(cd / && timeout 60 "$RUN" -- "$EQ" $(eal_mem 256) --file-prefix "$pfx" \
		-a "0000:00:05.0,mlx5v=1$devargs" -- 0000:00:05.0) >"$out" 2>&1
	check "eq_events -a 0000:00:05.0,mlx5v=1$devargs exits 0" $?
	grep -q "EAL: Probe PCI driver: mlx5v_pci (15b3:1017) device: 0000:00:05.0" "$out"
	check "eq_events$devargs: probed through the PCI bus" $?
	grep -q "^0000:00:05.0: 2 event(s) received, 0 failure(s)" "$out"
	check "eq_events$devargs: two events after MSI-X wake-ups" $?
done

(cd / && timeout 60 "$RUN" --dev 0000:00:05.0,msix_host_vectors=1 -- "$EQ" $(eal_mem 256) \
	--file-prefix "$pfx" -a 0000:00:05.0,mlx5v=1 -- 0000:00:05.0) >"$out" 2>&1
[ $? -eq 1 ]
check "eq_events with 1 host vector exits 1" $?
grep -q "cannot set the trigger of MSI-X vector 1: No space left on device" "$out" &&
	grep -q "^UAR/MSI vector: No space left on device" "$out"
check "eq_events with 1 host vector: the vector refused with ENOSPC" $?

# testpmd: feed commands until both ports have received frames (bounded), then stop.
port_rx() { # FILE PORT: the last RX-packets count shown for PORT
	awk -v p="$2" '/NIC statistics for port/ { port = $(NF - 1) }
		$1 == "RX-packets:" && port == p { n = $2 } END { print n + 0 }' "$1"
}
{
	printf 'start tx_first\n'
	i=0
	while [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.2
		printf 'show port stats all\n'
		[ "$(port_rx "$out" 0)" -gt 0 ] && [ "$(port_rx "$out" 1)" -gt 0 ] && break
	done
	printf 'stop\nquit\n'
} | (cd / && timeout 120 stdbuf -oL "$RUN" --dev 0000:00:05.0,wire=pair:0000:00:06.0 \
	--dev 0000:00:06.0,wire=pair:0000:00:05.0 -- "$TP" $(eal_mem 512) \
	--file-prefix "$pfx" -a 0000:00:05.0,mlx5v=1 -a 0000:00:06.0,mlx5v=1 -- -i \
	--total-num-mbufs=16384) >"$out" 2>&1
check "testpmd on two emulated functions exits 0" $?
[ "$(port_rx "$out" 0)" -gt 0 ] && [ "$(port_rx "$out" 1)" -gt 0 ]
check "io forwarding: port 0 received $(port_rx "$out" 0), port 1 $(port_rx "$out" 1)" $?
grep -q "RX-dropped: 0 .*RX-total" "$out" && ! grep -q "RX-dropped: [1-9]" "$out"
check "no frame dropped" $?
(cd / && timeout 120 "$RUN" --no-iova-range -- "$MLXV_BUILD/app/dpdk-mlxv-vfio-bench" 3 -- \
	$(eal_mem 256) --file-prefix "$pfx" -b 0000:00:05.0) >"$out" 2>&1
check "vfio-bench: rdma-core and EAL hot-plug, 3 rounds each, exits 0" $?
[ "$(grep -c "rounds    3  min" "$out")" -eq 4 ]
check "vfio-bench: four timings" $?
exit $fail
