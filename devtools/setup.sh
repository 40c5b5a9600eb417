#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Install what dpdk-mlxv needs on Debian 12 and add a deb-src entry for the
# dpdk source package. Safe to re-run: it does nothing when all is present.
set -eu
# MLXV_SETUP_PACKAGES replaces the list (the tests use it to check the non-root path).
pkgs=${MLXV_SETUP_PACKAGES:-"gcc clang libc6-dev pkg-config meson ninja-build python3-pyelftools
xz-utils dpkg-dev dpdk dpdk-dev libdpdk-dev rdma-core libibverbs-dev ibverbs-providers ibverbs-utils man-db
python3-sphinx iproute2 iputils-ping libclang-rt-14-dev openvswitch-switch-dpdk
debhelper lintian fakeroot"}
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
need_src=0
if ! apt-cache showsrc dpdk >/dev/null 2>&1; then
	need_src=1
fi
if [ -z "$missing" ] && [ $need_src -eq 0 ]; then
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "setup: missing packages:${missing:- none}; deb-src entry needed: $need_src" >&2
	echo "setup: installing them needs apt-get as root: run this command as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [ $need_src -eq 1 ]; then
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
			> /etc/apt/sources.list.d/dpdk-mlxv-src.sources
	fi
	if [ -s /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list \
			> /etc/apt/sources.list.d/dpdk-mlxv-src.list
	fi
fi
apt-get update -q >&2
if [ -n "$missing" ]; then
	echo "setup: installing$missing" >&2
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >&2
fi
