#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# `meson install` into a staging directory, then build and run a small
# application against the installed headers, libraries and libdpdk-mlxv.pc.
. "$(dirname "$0")/lib.sh"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
meson install -C "$MLXV_BUILD" --destdir "$stage" --no-rebuild >"$stage/install.log" 2>&1 ||
	{ cat "$stage/install.log"; fail "meson install failed"; }
pc=$(find "$stage" -name libdpdk-mlxv.pc | head -n 1)
[ -n "$pc" ] || fail "libdpdk-mlxv.pc not installed"
prefix=$(sed -n 's/^prefix=//p' "$pc")
# Point the staged .pc at the staging directory; its Requires (libdpdk, ...)
# still resolve to the system's own .pc files.
mkdir -p "$stage/pc"
sed "s|^prefix=.*|prefix=$stage$prefix|" "$pc" >"$stage/pc/libdpdk-mlxv.pc"
cflags=$(PKG_CONFIG_PATH=$stage/pc pkg-config --cflags libdpdk-mlxv) || fail "pkg-config --cflags"
libs=$(PKG_CONFIG_PATH=$stage/pc pkg-config --libs libdpdk-mlxv) || fail "pkg-config --libs"
incs=
for h in $(find "$stage" -name 'rte_pmd_mlx*.h' -exec basename {} \; | sort); do
	incs="$incs#include <$h>\n"
done
[ -n "$incs" ] || fail "no public header installed"
printf '%b' "#include <stdio.h>\n#include <rte_eal.h>\n$incs" >"$stage/app.c"
cat >>"$stage/app.c" <<'C'
int
main(int argc, char **argv)
{
	if (rte_eal_init(argc, argv) < 0)
		return 1;
	printf("app built against libdpdk-mlxv runs\n");
	return rte_eal_cleanup();
}
C
libdir=$(dirname "$(find "$stage" -name 'librte_common_mlx*.so' | head -n 1)")
cc -o "$stage/app" "$stage/app.c" -DALLOW_EXPERIMENTAL_API -DALLOW_INTERNAL_API $cflags \
	-Wl,--no-as-needed $libs -Wl,-rpath,"$libdir" || fail "cannot build against the install"
readelf -d "$stage/app" | grep -q 'librte_common_mlx' || fail "app does not link our libraries"
out=$stage/run.log
(cd / && timeout 30 "$stage/app" --no-huge -m 64 --no-pci --no-shconf) >"$out" 2>&1 ||
	{ cat "$out"; fail "installed app failed"; }
cat "$out"
expect "$out" 'app built against libdpdk-mlxv runs'
