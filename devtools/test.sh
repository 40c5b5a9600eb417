#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The test command: install what is missing, fetch the DPDK source package,
# configure and build, then run every test suite (unit, integration, checks)
# and the gcc/clang -Werror build check. Safe to re-run.
# usage: devtools/test.sh [BUILD_DIR]   (default: build)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(realpath -m "${1:-$src/build}")
"$src/devtools/setup.sh"
if [ ! -f "$bdir/build.ninja" ]; then
	meson setup "$bdir" "$src" -Ddpdk_src_cache="$src/build-cache"
fi
ninja -C "$bdir"
rc=0
meson test -C "$bdir" --num-processes 2 --print-errorlogs || rc=$?
"$src/devtools/build-check.sh" "$bdir/check" -Ddpdk_src_cache="$src/build-cache" || rc=1
# One plain summary line from the meson results (CI reads "N passed, N failed").
/usr/bin/python3 - "$bdir/meson-logs/testlog.json" <<'PY'
import json, sys
res = {"OK": 0, "FAIL": 0, "SKIP": 0, "TIMEOUT": 0, "EXPECTEDFAIL": 0, "UNEXPECTEDPASS": 0,
       "ERROR": 0}
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    res[r] = res.get(r, 0) + 1
failed = res["FAIL"] + res["TIMEOUT"] + res["ERROR"] + res["UNEXPECTEDPASS"]
print(f"tests: {res['OK']} passed, {failed} failed, {res['SKIP']} skipped")
PY
exit $rc
