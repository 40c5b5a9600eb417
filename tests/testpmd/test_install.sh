#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# `meson install` into a staging directory, then build and run a small
# application against the installed headers, libraries and libdpdk-mlxv.pc,
# and read the installed man(3) pages with man.
. "$(dirname "$0")/lib.sh"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
meson install -C "$MLXV_BUILD" --destdir "$stage" --no-rebuild >"$stage/install.log" 2>&1 ||
	{ cat "$stage/install.log"; fail "meson install failed"; }

# One man(3) page per doc/api/man page; `man 3 NAME` finds and renders it (MANPATH
# stands for the install prefix's share/man, which man searches by default).
if [ "${MLXV_MAN:-false}" = true ]; then
	page=$(find "$stage" -type f -path '*/man3/rte_pmd_mlx5v_devx_create_eq.3*')
	[ -n "$page" ] || fail "man3/rte_pmd_mlx5v_devx_create_eq.3 not installed"
	man3=$(dirname "$page")
	want=$(find "$MLXV_SRC/doc/api/man" -name 'rte_pmd_*.rst' | wc -l)
	have=$(find "$man3" -name 'rte_pmd_*.3*' | wc -l)
	[ "$want" -eq "$have" ] || fail "$have man(3) pages installed for $want API pages"
	LC_ALL=C MANPATH=$(dirname "$man3") MANWIDTH=100 man 3 rte_pmd_mlx5v_devx_create_eq \
		>"$stage/man.txt" 2>&1 || { cat "$stage/man.txt"; fail "man 3 failed"; }
	cat "$stage/man.txt"
	expect "$stage/man.txt" '^RTE_PMD_MLX5V_DEVX_CREATE_EQ\(3\)'
	expect "$stage/man.txt" 'rte_pmd_mlx5v_devx_create_eq - create an event queue'
	expect "$stage/man.txt" '#include <rte_pmd_mlx5v.h>'
	expect "$stage/man.txt" '^RETURN VALUE'
	LC_ALL=C MANPATH=$(dirname "$man3") man -w 3 rte_pmd_mlx4v_init_obj >/dev/null ||
		fail "man cannot find rte_pmd_mlx4v_init_obj(3)"
else
	echo "man pages not built (configured without sphinx-build): not checked"
fi

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
