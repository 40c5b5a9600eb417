#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# A short, reproducible run of one fuzz target (the meson suite "fuzz"): the seed corpus
# is copied to a scratch directory (the tree is never written), libFuzzer runs with a
# fixed seed for SECONDS (MLXV_FUZZ_SECONDS overrides), and any finding fails the test
# with the crash file named in the log. The long run: doc/guides/testing/fuzzing.rst.
# usage: run.sh FUZZ_EXE SEED_CORPUS_DIR SECONDS
set -eu
exe=$1
seeds=$2
secs=${MLXV_FUZZ_SECONDS:-$3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/corpus" "$work/artifacts"
if [ -d "$seeds" ]; then
	cp "$seeds"/* "$work/corpus/" 2>/dev/null || true
fi
rc=0
# -detect_leaks=0: libFuzzer's check after each input cannot see pointers kept in EAL memory
# (mmap, not malloc), so it would call every driver object reached from there a leak.
# LeakSanitizer still runs at exit, after the targets removed their devices.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
	"$exe" -seed=1 -max_total_time="$secs" -timeout=60 -rss_limit_mb=4096 -detect_leaks=0 \
	-max_len=9300 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
	"$work/corpus" >"$work/log" 2>&1 || rc=$?
grep -E '^(stat::|#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs)' "$work/log" || true
# slow-unit-* files only note inputs that took long (a loaded machine): not findings.
rm -f "$work/artifacts"/slow-unit-*
if [ $rc -ne 0 ] || [ -n "$(ls "$work/artifacts")" ]; then
	tail -60 "$work/log"
	for f in "$work/artifacts"/*; do
		[ -f "$f" ] || continue
		echo "finding: $(basename "$f") ($(wc -c <"$f") bytes):"
		od -A x -t x1z "$f" | head -20
	done
	exit 1
fi
