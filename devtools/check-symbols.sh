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
#    with Debian's installed plugins.
set -eu
dir=${1:-build/drivers}
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
		case $name in
		mlx5_* | mlx4_* | mlx5dv_* | mlx4dv_*)
			echo "check-symbols: $base exports forbidden name $name" >&2
			rc=1
			;;
		mlx5v_* | mlx4v_* | rte_pmd_mlx5v_* | rte_pmd_mlx4v_*) ;;
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
ours=$(pmdnames $libs)
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
[ $rc -eq 0 ] && echo "check-symbols: $(echo "$libs" | wc -w) libraries OK"
exit $rc
