#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Every tracked source, build, script and doc file carries an SPDX BSD-3-Clause tag.
set -eu
cd "$(dirname "$0")/.."
rc=0
for f in $(git ls-files); do
	case $f in
	LICENSE | MAINTAINERS | .gitignore | *.map | *.ini | *.json | *.txt.in) continue ;;
	tests/fuzz/corpus/*) continue ;; # fuzz inputs: raw bytes, no room for a header
	esac
	head -n 5 "$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause' ||
		{ echo "check-spdx: $f has no SPDX tag" >&2; rc=1; }
done
[ $rc -eq 0 ] && echo "check-spdx: OK"
exit $rc
