#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Exported-symbol rules for our driver libraries (DRIVERS_DIR, default build/drivers):
#  - no export starts with mlx5_, mlx4_, mlx5dv_ or mlx4dv_ (Debian's DPDK
#    drivers and rdma-core own those names);
#  - every export is versioned by a version map (DPDK_23, EXPERIMENTAL or
#    INTERNAL), i.e. no library exports unversioned symbols;
#  - exports carry our prefixes (mlx5v_, mlx4v_, rte_pmd_mlx5v_, rte_pmd_mlx4v_);
#  - library names and registered driver names are unique and do not collide
#    with Debian's installed plugins;
#  - the version maps list every export by name (no wildcard but "local: *");
#  - something outside its library (another library, a testpmd command file, an app,
#    an example, a tool or a test) references every export;
#  - production libraries (librte_common_*, librte_net_*) export nothing of the
#    simulators (*_sim_*, hwsim_*); only librte_hwsim exports hwsim_*;
#  - every static archive linked whole into one object (as DPDK's static
#    pkg-config link does) gives no duplicate symbol.
set -eu
dir=${1:-build/drivers}
src=$(cd "$(dirname "$0")/.." && pwd)
# Debian's plugin directory, as EAL was built to auto-load it.
cfg=$(echo '#include <rte_build_config.h>' |
	cpp $(pkg-config --cflags-only-I libdpdk) -dM - 2>/dev/null |
	sed -n 's/^#define RTE_EAL_PMD_PATH "\(.*\)"$/\1/p')
pmds=${cfg:-/nonexistent}
rc=0
libs=$(find "$dir" -maxdepth 1 -name 'librte_*.so' | sort)
[ -n "$libs" ] || { echo "check-symbols: no libraries in $dir" >&2; exit 1; }
for lib in $libs; do
	base=$(basename "$lib")
	syms=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBRW]/ {print $3}')
	for s in $syms; do
		name=${s%%@*}
		case $base:$name in
		librte_common_*:*_sim_* | librte_net_*:*_sim_* | librte_common_*:hwsim_* | \
		librte_net_*:hwsim_*)
			echo "check-symbols: production library $base exports simulator symbol $name" >&2
			rc=1
			;;
		esac
		case $name in
		mlx5_* | mlx4_* | mlx5dv_* | mlx4dv_*)
			echo "check-symbols: $base exports forbidden name $name" >&2
			rc=1
			;;
		mlx5v_* | mlx4v_* | rte_pmd_mlx5v_* | rte_pmd_mlx4v_*) ;;
		hwsim_*)
			[ "$base" = librte_hwsim.so ] || {
				echo "check-symbols: $base exports $name (hwsim_ is librte_hwsim's)" >&2
				rc=1
			}
			;;
		DPDK_23 | EXPERIMENTAL | INTERNAL) continue ;;
		*)
			echo "check-symbols: $base exports $name without our prefix" >&2
			rc=1
			;;
		esac
		case $s in
		*@@DPDK_23 | *@@EXPERIMENTAL | *@@INTERNAL) ;;
		*)
			echo "check-symbols: $base exports $s outside a version map" >&2
			rc=1
			;;
		esac
	done
	# Not even a local symbol of the simulators in a production library.
	case $base in
	librte_common_* | librte_net_*)
		simsyms=$(nm "$lib" 2>/dev/null | awk '{print $NF}' | grep -E '_sim_|^hwsim_' || true)
		if [ -n "$simsyms" ]; then
			echo "check-symbols: production library $base contains simulator code:" \
				$simsyms >&2
			rc=1
		fi
		;;
	esac
	if [ -e "$pmds/$base" ]; then
		echo "check-symbols: $base clashes with Debian's $pmds/$base" >&2
		rc=1
	fi
done
# Our registered driver names must be unique, and none may be a name Debian's
# plugins register (EAL would see two drivers of one name).
pmdnames() {
	/usr/bin/python3 /usr/bin/dpdk-pmdinfo.py "$@" 2>/dev/null | grep -o '"name": "[^"]*"' | sed 's/"name": //' | sort
}
# dpdk-pmdinfo.py also lists what a library's DT_NEEDED libraries register (a simulator
# needs its common driver): count each name for the library that registers it.
depnames=$(mktemp)
ours=$(for lib in $libs; do
	: >"$depnames"
	for dep in $(readelf -d "$lib" | sed -n 's/.*Shared library: \[\(librte_[^]]*\)\].*/\1/p'); do
		[ -e "$dir/$dep" ] && pmdnames "$dir/$dep" >>"$depnames"
	done
	pmdnames "$lib" | grep -vxF -f "$depnames" || true
done | sort)
rm -f "$depnames"
theirs=$(pmdnames "$pmds"/librte_*.so | sort -u)
dups=$(echo "$ours" | uniq -d)
if [ -n "$dups" ]; then
	echo "check-symbols: our driver names registered twice: $dups" >&2
	rc=1
fi
tmp=$(mktemp)
printf '%s\n' "$theirs" >"$tmp"
clash=$(printf '%s\n' "$ours" | sort -u | comm -12 - "$tmp")
rm -f "$tmp"
if [ -n "$clash" ]; then
	echo "check-symbols: driver names also registered by Debian's plugins: $clash" >&2
	rc=1
fi
# Version maps name each export: a wildcard would export whatever matches, later too.
for map in $("$src/devtools/ls-files.sh" '*version.map'); do
	if grep -v '^[[:space:]]*local:[[:space:]]*\*;' "$src/$map" | grep -q '\*'; then
		echo "check-symbols: $map uses a wildcard export" >&2
		rc=1
	fi
done
# An export is for another library, an app, an example, a tool or a test: one that nothing
# outside its library references is an internal function. The testpmd command files
# (*_testpmd.c) are programs outside the libraries, and the static inline functions of a
# library's headers (their indented lines) use a symbol wherever the header is included.
"$src/devtools/ls-files.sh" '*.c' '*.h' '*version.map' | (cd "$src" && /usr/bin/python3 -c '
import os, re, sys

files = sys.stdin.read().split()
code = {f: open(f, encoding="utf-8").read() for f in files if not f.endswith(".map")}
bad = 0


def uses(f, lib, w):
    if not f.startswith(lib) or f.endswith("_testpmd.c"):
        return w.search(code[f]) is not None
    return f.endswith(".h") and any(w.search(l) for l in code[f].splitlines()
                                    if l.startswith("\t") and not re.match(r"\t\s*/?\*", l))


for m in (f for f in files if f.endswith("version.map")):
    lib = os.path.dirname(m) + "/"
    for sym in re.findall(r"^\s+(\w+);", open(m).read(), re.M):
        w = re.compile(r"\b" + sym + r"\b")
        if not any(uses(f, lib, w) for f in code):
            print(f"check-symbols: {m}: {sym} is exported, but nothing outside {lib} uses it",
                  file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
') || rc=1
# All static archives in one link, whole: a symbol defined twice is an error here.
archives=$(find "$dir" -maxdepth 1 -name 'librte_*.a' | sort)
if [ -n "$archives" ]; then
	tmpo=$(mktemp -d)
	# shellcheck disable=SC2086
	if ! cc -shared -o "$tmpo/all.so" -Wl,--whole-archive $archives -Wl,--no-whole-archive \
		2>"$tmpo/ld.log"; then
		grep -i 'multiple definition' "$tmpo/ld.log" | head -20 >&2
		echo "check-symbols: linking every static archive whole failed" >&2
		rc=1
	fi
	rm -rf "$tmpo"
fi
[ $rc -eq 0 ] && echo "check-symbols: $(echo "$libs" | wc -w) libraries OK"
exit $rc
