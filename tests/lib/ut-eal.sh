#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# exe_wrapper of the meson test setup "iovapa" (tests/meson.build): a unit-test program (also
# under dpdk-mlxv-vfio-run) and the soak program run on the 2 MiB hugepages of $MLXV_HUGE_DIR
# with --iova-mode=pa instead of --no-huge. devtools/hugepage-pa.sh prepares the (fragmented)
# pool and sets the variable:
#     devtools/hugepage-pa.sh meson test -C build --setup iovapa
# Other programs (the test scripts: tests/testpmd/lib.sh has their hook) run unchanged.
# doc/guides/nics/running_on_hardware.rst, "IOVA modes".

exe=$1
shift
prog=$exe
# The launcher's own options (up to its "--") pass through unchanged: a unit program on an
# emulated PCI function (dpdk-mlxv-vfio-run --dev ... -- ut-NAME EAL...).
keep=0
case ${exe##*/} in
ut-*|mlxv-soak) ;;
dpdk-mlxv-vfio-run)
	for a do
		keep=$((keep + 1))
		[ "$a" = -- ] && break
	done
	[ $keep -lt $# ] || exec "$exe" "$@"
	eval "prog=\${$((keep + 1))}"
	keep=$((keep + 1))
	case ${prog##*/} in
	ut-*) ;;
	*) exec "$exe" "$@" ;;
	esac
	;;
*) exec "$exe" "$@" ;;
esac
# MLXV_IOVAPA_SKIP: program names known not to run in this mode yet, skipped by name.
for s in ${MLXV_IOVAPA_SKIP:-}; do
	if [ "$s" = "${prog##*/}" ]; then
		echo "iovapa: SKIP: ${prog##*/} is listed in MLXV_IOVAPA_SKIP"
		exit 77
	fi
done
if [ -z "${MLXV_HUGE_DIR:-}" ]; then
	echo "iovapa: SKIP: no MLXV_HUGE_DIR; run under devtools/hugepage-pa.sh"
	exit 77
fi
# Drop --no-huge; keep the rest, -m too: EAL then takes its pages from the fragmented pool at
# start-up (and dynamic allocation cannot align to more than a page: rte_malloc of 4 MiB
# aligned to 4 MiB fails without preallocated memory, in either IOVA mode).
# --huge-unlink: no page outlives the program; a prefix of its own per program (whose runtime
# directory devtools/hugepage-pa.sh removes). They go before a "--" (the program's own
# arguments follow it: mlxv-soak).
pa="--huge-dir $MLXV_HUGE_DIR --iova-mode=pa --huge-unlink"
pa="$pa --file-prefix ${MLXV_EAL_PREFIX:-mlxvpa}_ut$$"
for a do
	shift
	if [ $keep -gt 0 ]; then
		keep=$((keep - 1))
		set -- "$@" "$a"
		continue
	fi
	[ "$a" = --no-huge ] && continue
	if [ -n "$pa" ] && [ "$a" = -- ]; then
		set -- "$@" $pa
		pa=
	fi
	set -- "$@" "$a"
done
exec "$exe" "$@" $pa
