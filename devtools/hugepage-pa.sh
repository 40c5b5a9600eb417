#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Run a command with 2 MiB hugepages in IOVA-as-PA mode, on a pool fragmented on purpose:
#     devtools/hugepage-pa.sh [-n PAGES] COMMAND [ARGS...]
# Reserves 2 * PAGES hugepages (default 512 -> 2 GiB) through /sys/kernel/mm/hugepages,
# mounts hugetlbfs twice in a private mount namespace (unshare -m), takes every free page with
# a file in the second mount and releases every other one in physical order
# (devtools/hugepage-frag.py), then runs COMMAND with MLXV_HUGE_DIR=<first mount>,
# MLXV_IOVA_PA=1 and MLXV_EAL_PREFIX=<a file prefix stem>, which the EAL argument hooks of the
# meson test setup "iovapa" (tests/lib/ut-eal.sh for the programs,
# tests/testpmd/lib.sh for the scripts) turn into --huge-dir ... --iova-mode=pa
# --file-prefix <stem>_<name>; the runtime directories of those prefixes are removed at the
# end. nr_hugepages is restored on every exit.
# Exit status: COMMAND's, or 77 (skip) with a message where the machine refuses.
# doc/guides/nics/running_on_hardware.rst, "IOVA modes".

set -u
NPAGES=512
if [ "${1:-}" = "-n" ]; then
	NPAGES=$2
	shift 2
fi
[ $# -gt 0 ] || { echo "usage: $0 [-n PAGES] COMMAND [ARGS...]" >&2; exit 2; }

TOOLS=$(cd "$(dirname "$0")" && pwd)
skip() { echo "hugepage-pa: SKIP: $*"; exit 77; }

if [ "${MLXV_HUGEPA_INNER:-}" = 1 ]; then
	# Inside the private mount namespace: mounts vanish with it, and so do the held pages.
	RUN=$(mktemp -d "${TMPDIR:-/tmp}/mlxv-hugepa.XXXXXX") || exit 1
	PREFIX=mlxvpa$$
	mkdir "$RUN/eal" "$RUN/hold"
	mount --make-rprivate / 2>/dev/null
	mount -t hugetlbfs -o pagesize=2M,mode=0700 nodev "$RUN/eal" ||
		skip "cannot mount hugetlbfs"
	mount -t hugetlbfs -o pagesize=2M,mode=0700 nodev "$RUN/hold" ||
		skip "cannot mount a second hugetlbfs"
	python3 "$TOOLS/hugepage-frag.py" "$RUN/hold"
	rc=$?
	if [ $rc -eq 0 ]; then
		MLXV_HUGE_DIR=$RUN/eal MLXV_IOVA_PA=1 MLXV_EAL_PREFIX=$PREFIX "$@"
		rc=$?
	fi
	umount "$RUN/eal" "$RUN/hold"
	# The runtime directories of the EAL file prefixes given out (EAL leaves them behind).
	rm -rf /var/run/dpdk/"$PREFIX"_*
	rm -rf "$RUN"
	exit $rc
fi

SYS=/sys/kernel/mm/hugepages/hugepages-2048kB
[ "$(id -u)" = 0 ] || skip "needs root (hugepage sysfs, mounts, /proc/self/pagemap)"
[ -w $SYS/nr_hugepages ] || skip "no writable $SYS/nr_hugepages"
command -v unshare >/dev/null || skip "no unshare(1)"
command -v python3 >/dev/null || skip "no python3"

# One user of the pool at a time: the lock is the sysfs file itself.
exec 9<$SYS/nr_hugepages
command -v flock >/dev/null && flock 9
OLD=$(cat $SYS/nr_hugepages)
restore() {
	echo "$OLD" > $SYS/nr_hugepages
	now=$(cat $SYS/nr_hugepages)
	[ "$now" = "$OLD" ] || echo "hugepage-pa: WARNING: nr_hugepages is $now, was $OLD" >&2
}
trap restore EXIT
trap 'exit 130' INT TERM
WANT=$((OLD + 2 * NPAGES))
echo "$WANT" > $SYS/nr_hugepages 2>/dev/null
GOT=$(cat $SYS/nr_hugepages)
[ "$GOT" -ge "$WANT" ] || skip "the kernel gave $((GOT - OLD)) of $((2 * NPAGES)) hugepages"
echo "hugepage-pa: nr_hugepages $OLD -> $GOT (restored on exit)"
MLXV_HUGEPA_INNER=1 unshare -m "$0" "$@"
rc=$?
exit $rc
