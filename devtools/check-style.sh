#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The checkpatches limits that need no kernel tree: C lines at most 100 columns
# (tabs 8 wide) and no trailing white space, in every tracked C source and header.
set -eu
cd "$(dirname "$0")/.."
devtools/ls-files.sh '*.c' '*.h' | /usr/bin/python3 -c '
import sys
bad = 0
for f in sys.stdin.read().split():
    for n, line in enumerate(open(f, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if len(line.expandtabs(8)) > 100:
            print(f"check-style: {f}:{n}: longer than 100 columns", file=sys.stderr)
            bad += 1
        if line != line.rstrip():
            print(f"check-style: {f}:{n}: trailing white space", file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
'
echo "check-style: OK"
