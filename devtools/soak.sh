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
#        (defaults: build 1000000 1000000 8192; the samples go to BUILD_DIR/soak.log, or to
#        $SOAK_LOG; a count of 0 skips its phase, so the phases can run as two processes)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(realpath -m "${1:-$src/build}")
eqs=${2:-1000000}
cmds=${3:-1000000}
bound=${4:-8192}
log=${SOAK_LOG:-$bdir/soak.log}
ninja -C "$bdir" tests/soak/mlxv-soak >/dev/null
start=$(date +%s)
rc=0
"$bdir/tests/soak/mlxv-soak" --no-huge -m 256 --no-pci --no-shconf -l 0 \
	--log-level=pmd.*:warning -- "$eqs" "$cmds" "$bound" >"$log" 2>&1 || rc=$?
grep '^soak:' "$log"
echo "soak: $(($(date +%s) - start)) s wall, samples in $log"
exit $rc
