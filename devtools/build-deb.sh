#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Build the Debian packages (dpdk-mlxv, -sim, -dev, -tools) out of the tree, from what a source
# tarball holds (git archive of the tracked files, or a copy of an exported tree), with
# dpkg-buildpackage -us -uc -b; the .deb files (and .buildinfo, .changes) land in OUTDIR.
# usage: devtools/build-deb.sh [OUTDIR]     (default: build/deb)
# Then: apt install ./OUTDIR/dpdk-mlxv_*.deb ./OUTDIR/dpdk-mlxv-sim_*.deb ...
# The DPDK source package the build needs is taken from build-cache/ when devtools/test.sh
# fetched it there, otherwise fetched into OUTDIR (MLXV_DPDK_SRC_CACHE overrides). ccache is
# used when installed. doc/guides/howto/packages.rst.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$src/build/deb}")
command -v dpkg-buildpackage >/dev/null ||
	{ echo "build-deb: no dpkg-buildpackage (devtools/setup.sh installs it)" >&2; exit 1; }
version=$(sed -n "s/^project('dpdk-mlxv', 'c', version: '\([^']*\)'.*/\1/p" "$src/meson.build")
deb_version=$(sed -n '1s/^dpdk-mlxv (\([^)]*\)).*/\1/p' "$src/debian/changelog")
[ "$version" = "$deb_version" ] || {
	echo "build-deb: meson.build says $version, debian/changelog $deb_version" >&2
	exit 1
}
# A fixed path under OUTDIR: ccache hits from one build to the next.
work=$out/src
tree=$work/dpdk-mlxv-$version
rm -rf "$work"
mkdir -p "$tree"
if [ -d "$src/.git" ] || [ -f "$src/.git" ]; then
	# The tracked files as they are now (HEAD plus uncommitted changes).
	rev=$(git -C "$src" stash create 2>/dev/null) || rev=
	git -C "$src" archive "${rev:-HEAD}" | tar -x -C "$tree"
else
	(cd "$src" && tar -c --exclude=./build --exclude=./build-cache --exclude='./obj-*' .) |
		tar -x -C "$tree"
fi
if [ -z "${MLXV_DPDK_SRC_CACHE:-}" ]; then
	MLXV_DPDK_SRC_CACHE=$out/dpdk-src
	[ ! -d "$src/build-cache" ] || MLXV_DPDK_SRC_CACHE=$src/build-cache
fi
export MLXV_DPDK_SRC_CACHE
if command -v ccache >/dev/null && [ -z "${CC:-}" ]; then
	export CC="ccache cc" CCACHE_BASEDIR="$work"
fi
(cd "$tree" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -60 "$out/build.log"
	echo "build-deb: dpkg-buildpackage failed, log: $out/build.log" >&2
	exit 1
}
rm -f "$out"/*.deb "$out"/*.buildinfo "$out"/*.changes
mv "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$out"/
rm -rf "$work"
ls "$out"/*.deb
