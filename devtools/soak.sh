#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Soak of the simulated ConnectX: EQS rounds of DEVX EQ create / one event generated and
# consumed / destroy, then CMDS raw commands, sampling RSS and the EAL heap (tests/soak).
# Fails if the EAL heap grows after the warm-up or RSS grows by more than RSS_BOUND_KB.
# Too long for the test suite at full counts (the suite runs a reduced one, soak_short);
# the figures are in doc/guides/bench/soak.rst.
# usage: devtools/soak.sh [BUILD_DIR] [EQS] [CMDS] [RSS_BOUND_KB]
#        (defaults: build 1000000 1000000 8192; the samples go to BUILD_DIR/soak.log)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(realpath -m "${1:-$src/build}")
eqs=${2:-1000000}
cmds=${3:-1000000}
bound=${4:-8192}
ninja -C "$bdir" tests/soak/mlxv-soak >/dev/null
start=$(date +%s)
rc=0
"$bdir/tests/soak/mlxv-soak" --no-huge -m 256 --no-pci --no-shconf -l 0 \
	--log-level=pmd.*:warning -- "$eqs" "$cmds" "$bound" >"$bdir/soak.log" 2>&1 || rc=$?
grep '^soak:' "$bdir/soak.log"
echo "soak: $(($(date +%s) - start)) s wall, samples in $bdir/soak.log"
exit $rc
