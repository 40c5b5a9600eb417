#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The set-up's bad-input promises:
#  - a DPDK source tree whose version differs from pkg-config libdpdk stops the
#    configure with a message naming both versions;
#  - a run that needs apt-get but is not root says so and stops.
# The non-root run uses a copy of setup.sh (it reads no other file of the tree) in a
# directory uid 65534 can read: the checkout itself may be under a mode-0700 directory
# (root's home), which that user cannot enter.
. "$(dirname "$0")/lib.sh"
: "${MLXV_SRC:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have=$(pkg-config --modversion libdpdk)

# A fake source tree of another version: meson must refuse it.
mkdir -p "$tmp/dpdk-stable-0.0.1"
echo 0.0.1 >"$tmp/dpdk-stable-0.0.1/VERSION"
if meson setup "$tmp/build" "$MLXV_SRC" -Ddpdk_src="$tmp/dpdk-stable-0.0.1" \
	>"$tmp/meson.log" 2>&1; then
	cat "$tmp/meson.log"
	fail "configure accepted a DPDK 0.0.1 source tree"
fi
cat "$tmp/meson.log"
expect "$tmp/meson.log" "version mismatch.*0\.0\.1.*$have|version mismatch.*$have.*0\.0\.1"

# A missing package as a non-root user: a clear message, exit 1, nothing installed.
command -v setpriv >/dev/null || skip "setpriv (util-linux) missing"
pub=$(mktemp -d /tmp/mlxv-setup.XXXXXX)
trap 'rm -rf "$tmp" "$pub"' EXIT
cp "$MLXV_SRC/devtools/setup.sh" "$pub/setup.sh"
chmod 755 "$pub" "$pub/setup.sh"
if (cd / && MLXV_SETUP_PACKAGES=mlxv-no-such-package setpriv --reuid=65534 --regid=65534 \
	--clear-groups "$pub/setup.sh") >"$tmp/setup.log" 2>&1; then
	cat "$tmp/setup.log"
	fail "setup.sh succeeded as non-root with a missing package"
fi
cat "$tmp/setup.log"
expect "$tmp/setup.log" 'missing packages: *mlxv-no-such-package'
expect "$tmp/setup.log" 'needs apt-get as root'
