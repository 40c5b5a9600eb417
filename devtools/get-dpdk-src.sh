#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Unpack the parts of Debian's dpdk source package that match the installed
# libdpdk-dev (driver-SDK headers, buildtools, testpmd and app/test sources,
# the l3fwd-power and multi-process examples)
# into a cache directory, and print the path of the unpacked tree.
# The tree is checked against pkg-config and the installed headers; it is
# never committed.
#
# usage: get-dpdk-src.sh CACHE_DIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 CACHE_DIR" >&2; exit 2; }
cache=$1
here=$(cd "$(dirname "$0")" && pwd)
up=$(pkg-config --modversion libdpdk) ||
	{ echo "pkg-config cannot find libdpdk: install libdpdk-dev" >&2; exit 1; }
deb=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null) ||
	{ echo "libdpdk-dev is not installed" >&2; exit 1; }
case $deb in
"$up"-*) ;;
*)
	echo "DPDK version mismatch: libdpdk-dev is $deb but pkg-config libdpdk is $up" >&2
	exit 1
	;;
esac
tree=$cache/dpdk-stable-$up
example="dpdk-stable-$up/examples/l3fwd-power/*"
mp_examples="dpdk-stable-$up/examples/multi_process/symmetric_mp/*
dpdk-stable-$up/examples/multi_process/simple_mp/*"
if [ -f "$tree/.from-$deb" ]; then
	# A cache unpacked before an example was part of it: add the example alone,
	# leaving the rest of the tree (which builds may be reading) in place.
	if [ ! -f "$tree/examples/l3fwd-power/main.c" ]; then
		tar -xJf "$cache/dpdk_$up.orig.tar.xz" -C "$cache" --wildcards "$example"
	fi
	if [ ! -f "$tree/examples/multi_process/symmetric_mp/main.c" ]; then
		# shellcheck disable=SC2086 # one pattern a line
		(IFS='
'; tar -xJf "$cache/dpdk_$up.orig.tar.xz" -C "$cache" --wildcards $mp_examples)
	fi
	echo "$tree"
	exit 0
fi
mkdir -p "$cache"
cd "$cache"
if [ ! -f "dpdk_$up.orig.tar.xz" ]; then
	if ! apt-cache showsrc dpdk 2>/dev/null | grep -qx "Version: $deb"; then
		# No deb-src entry yet: setup.sh adds one (as root; otherwise it says so).
		"$here/setup.sh" >&2 || exit 1
	fi
	if ! apt-cache showsrc dpdk 2>/dev/null | grep -qx "Version: $deb"; then
		echo "no deb-src entry offers dpdk $deb (apt-get install --only-upgrade" \
			"libdpdk-dev dpdk dpdk-dev realigns binaries and sources)" >&2
		exit 1
	fi
	apt-get source --download-only "dpdk=$deb" >&2
fi
rm -rf "$tree"
tar -xJf "dpdk_$up.orig.tar.xz" --wildcards \
	"dpdk-stable-$up/VERSION" "dpdk-stable-$up/lib/*" \
	"dpdk-stable-$up/drivers/bus/*" "dpdk-stable-$up/buildtools/*" \
	"dpdk-stable-$up/app/test-pmd/*" "dpdk-stable-$up/app/test/*" "$example" \
	"dpdk-stable-$up/examples/multi_process/symmetric_mp/*" \
	"dpdk-stable-$up/examples/multi_process/simple_mp/*"
src_ver=$(cat "$tree/VERSION")
[ "$src_ver" = "$up" ] || {
	echo "DPDK version mismatch: source package is $src_ver but pkg-config libdpdk is $up" >&2
	exit 1
}
cmp -s "$tree/lib/ethdev/rte_ethdev.h" /usr/include/dpdk/rte_ethdev.h || {
	echo "DPDK source $src_ver headers differ from the installed libdpdk $up" >&2
	exit 1
}
touch "$tree/.from-$deb"
echo "$tree"
