#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Every F: path in MAINTAINERS exists, and every tracked file is covered by one.
set -eu
cd "$(dirname "$0")/.."
rc=0
paths=$(sed -n 's/^F: //p' MAINTAINERS)
for p in $paths; do
	[ -e "$p" ] || { echo "check-maintainers: missing $p" >&2; rc=1; }
done
for f in $(devtools/ls-files.sh); do
	covered=0
	for p in $paths; do
		case $f in
		"$p" | "$p"*) case $p in */ | "$f") covered=1 ;; esac ;;
		esac
	done
	[ $covered -eq 1 ] || { echo "check-maintainers: $f not covered" >&2; rc=1; }
done
[ $rc -eq 0 ] && echo "check-maintainers: OK"
exit $rc
