#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The Debian packages end to end: devtools/build-deb.sh builds them from the tracked files
# (as from a source tarball), lintian finds no error in them, and tests/deb/in_root.sh installs,
# uses, removes and purges them in a fresh root. The fresh root is this machine's Debian as an
# overlay (the root filesystem read-only below, a tmpfs above, in a mount namespace of the
# test's own; the source and build trees hidden under empty tmpfs mounts): the same Debian the
# packages were built on, with every dependency installed and none of our packages, that apt
# can change and that vanishes with the namespace - where debootstrap would take minutes and
# a download per run. doc/guides/howto/packages.rst.
# Skips (77) without root, unshare, overlayfs, the packaging tools, or with our packages
# installed on this machine (then the root below would not be fresh).

. "$MLXV_SRC/tests/testpmd/lib.sh"

if [ "${MLXV_DEB_INNER:-}" = 1 ]; then
	# In the private mount namespace: $1 the .deb directory.
	set -u
	t=$(mktemp -d) || fail "mktemp"
	mount --make-rprivate / || fail "mount --make-rprivate /"
	mount -t tmpfs -o mode=0755 mlxvdeb "$t" || fail "tmpfs"
	mkdir "$t/upper" "$t/work" "$t/root"
	mount -t overlay mlxvdeb -o "lowerdir=/,upperdir=$t/upper,workdir=$t/work" "$t/root" ||
		skip "cannot mount an overlay of /"
	r=$t/root
	for d in "$MLXV_SRC" "$MLXV_BUILD"; do
		[ ! -d "$r$d" ] || mount -t tmpfs -o mode=0755 mlxvdeb "$r$d" || fail "hide $d"
	done
	mount --rbind /dev "$r/dev" && mount -t proc proc "$r/proc" &&
		mount --rbind /sys "$r/sys" || fail "/dev, /proc, /sys in the root"
	mkdir -p "$r/tmp/mlxv-deb/tests/testpmd" || fail "mkdir"
	cp "$1"/*.deb "$MLXV_SRC/tests/deb/in_root.sh" "$MLXV_SRC/tests/deb/devx_eq_app.c" \
		"$r/tmp/mlxv-deb/" || fail "copy into the root"
	# The OVS test, run there on the installed plugins.
	cp "$MLXV_SRC/tests/testpmd/lib.sh" "$MLXV_SRC/tests/testpmd/test_ovs_bridge.sh" \
		"$r/tmp/mlxv-deb/tests/testpmd/" || fail "copy into the root"
	[ ! -e "$r$MLXV_SRC/meson.build" ] || fail "the source tree is visible in the root"
	chroot "$r" /bin/sh /tmp/mlxv-deb/in_root.sh /tmp/mlxv-deb
	exit $?
fi

[ "$(id -u)" = 0 ] || skip "needs root (chroot, mounts, apt)"
for t in unshare chroot dpkg-buildpackage lintian apt-get; do
	command -v $t >/dev/null || skip "no $t (devtools/setup.sh installs the packaging tools)"
done
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
	grep -qw overlay /proc/filesystems || skip "no overlayfs"
for p in dpdk-mlxv dpdk-mlxv-sim dpdk-mlxv-dev dpdk-mlxv-tools; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		skip "$p is installed on this machine: the root for the test would not be fresh"
	fi
done

out=$MLXV_BUILD/deb
"$MLXV_SRC/devtools/build-deb.sh" "$out" || fail "devtools/build-deb.sh"
lintian --tag-display-limit 0 "$out"/dpdk-mlxv_*.changes >"$out/lintian.log" 2>&1
cat "$out/lintian.log"
reject "$out/lintian.log" '^E: '
echo "lintian: no error"

MLXV_DEB_INNER=1 unshare -m sh "$0" "$out" || fail "the packages in a fresh root"
echo "Debian packages: build, lintian, install, use, remove and purge OK"
