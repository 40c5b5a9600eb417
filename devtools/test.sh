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
# The suites run from the tree as a source tarball ships it: in a clone, from an export without
# .git (devtools/export.sh: git archive of the tracked files as they are now) in BUILD_DIR/export,
# built in BUILD_DIR/export/build (incremental from one run to the next); in an export, from it.
tsrc=$src
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$src" && pwd -P)" ]; then
	tsrc=$bdir/export
	# (Before, the export held src/ and build/ for the tree checks alone.)
	[ ! -d "$tsrc/src" ] || rm -rf "$tsrc"
	"$src/devtools/export.sh" "$tsrc"
fi
tb=$tsrc/build
[ "$tsrc" != "$src" ] || tb=$bdir
if [ ! -f "$tb/build.ninja" ]; then
	meson setup "$tb" "$tsrc" -Ddpdk_src_cache="$src/build-cache"
fi
ninja -C "$tb"
rc=0
meson test -C "$tb" --num-processes 2 --print-errorlogs || rc=$?
# The suite again (unit, soak, integration; not the tree checks nor suite "once") on 2 MiB
# hugepages with IOVA as PA, on a pool fragmented on purpose (the meson test setup iovapa,
# tests/meson.build); the wrapper exits 77 with a message where the machine refuses (not
# root, no hugepages, no physical addresses) and restores nr_hugepages.
prc=0
"$src/devtools/hugepage-pa.sh" \
	meson test -C "$tb" --no-rebuild --setup iovapa --num-processes 2 \
	--print-errorlogs || prc=$?
[ $prc = 0 ] || [ $prc = 77 ] || rc=$prc
pa_log=$tb/meson-logs/testlog-iovapa.json
[ $prc != 77 ] || pa_log=
"$src/devtools/build-check.sh" "$bdir/check" -Ddpdk_src_cache="$src/build-cache" || rc=1
# The production drivers alone (-Dsimulators=false): they build, install and pass every
# test that needs no simulator.
nosim=$bdir/nosim
if [ ! -f "$nosim/build.ninja" ]; then
	meson setup "$nosim" "$src" -Ddpdk_src_cache="$src/build-cache" -Dsimulators=false \
		>/dev/null
fi
ninja -C "$nosim" >"$nosim.log" 2>&1 || { tail -40 "$nosim.log"; rc=1; }
meson test -C "$nosim" --num-processes 2 --print-errorlogs || rc=$?
# The unit programs again under AddressSanitizer (leaks included) and UBSan.
asan=$bdir/asan
if [ ! -f "$asan/build.ninja" ]; then
	meson setup "$asan" "$src" -Ddpdk_src_cache="$src/build-cache" \
		-Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C "$asan" >"$asan.log" 2>&1 || { tail -40 "$asan.log"; rc=1; }
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C "$asan" --suite unit --num-processes 2 --print-errorlogs || rc=$?
# The fuzz targets (-Dfuzz=true, clang, ASan/UBSan): only they are built, then a short run
# of each, two at a time (suite fuzz; doc/guides/testing/fuzzing.rst).
fz=$bdir/fuzz
if [ ! -f "$fz/build.ninja" ]; then
	CC=clang meson setup "$fz" "$src" -Ddpdk_src_cache="$src/build-cache" -Dfuzz=true \
		-Dtests=false -Db_lundef=false >/dev/null
fi
ninja -C "$fz" fuzz >"$fz.log" 2>&1 || { tail -40 "$fz.log"; rc=1; }
meson test -C "$fz" --no-rebuild --suite fuzz --num-processes 2 --print-errorlogs || rc=$?
# The end of what each failed test printed (a CI log is often read from its tail only), then
# one plain summary line from the meson results (CI reads "N passed, N failed").
/usr/bin/python3 - "$tb/meson-logs/testlog.json" "$nosim/meson-logs/testlog.json" \
	"$asan/meson-logs/testlog.json" "$fz/meson-logs/testlog.json" ${pa_log:+"$pa_log"} <<'PY'
import json, os, sys
res = {"OK": 0, "FAIL": 0, "SKIP": 0, "TIMEOUT": 0, "EXPECTEDFAIL": 0, "UNEXPECTEDPASS": 0,
       "ERROR": 0}
for log in sys.argv[1:]:
    if not os.path.exists(log):
        res["ERROR"] += 1
        continue
    for line in open(log):
        r = json.loads(line)
        res[r["result"]] = res.get(r["result"], 0) + 1
        if r["result"] in ("FAIL", "TIMEOUT", "UNEXPECTEDPASS"):
            out = ((r.get("stdout") or "") + (r.get("stderr") or "")).splitlines()
            where = "/".join(log.split("/")[-3:])
            print(f"--- {r['name']} ({r['result']}, {where}): last lines ---")
            print("\n".join(out[-40:]))
failed = res["FAIL"] + res["TIMEOUT"] + res["ERROR"] + res["UNEXPECTEDPASS"]
print(f"tests: {res['OK']} passed, {failed} failed, {res['SKIP']} skipped")
PY
exit $rc
