#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Build the whole tree with -Wall -Wextra -Werror under gcc and clang, each in
# its own build directory below BUILD_ROOT (default: build-check).
# usage: build-check.sh [BUILD_ROOT] [extra meson options...]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$src/build-check}
[ $# -gt 0 ] && shift
for cc in gcc clang; do
	command -v $cc >/dev/null || { echo "build-check: $cc not installed" >&2; exit 1; }
	bdir=$root/$cc
	if [ ! -f "$bdir/build.ninja" ]; then
		CC=$cc meson setup "$bdir" "$src" -Dwarning_level=2 -Dwerror=true \
			-Dc_args='-Wall -Wextra' -Dtests=true "$@" >/dev/null
	fi
	ninja -C "$bdir" >"$bdir.log" 2>&1 || { tail -40 "$bdir.log"; echo "build-check: $cc FAILED" >&2; exit 1; }
	echo "build-check: $cc OK"
done
