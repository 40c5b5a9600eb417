#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Every tracked source, build, script and doc file carries an SPDX BSD-3-Clause tag.
set -eu
cd "$(dirname "$0")/.."
# One process for every file (a fork per file took most of the 30 s test limit on a busy
# machine).
devtools/ls-files.sh | /usr/bin/python3 -c '
import fnmatch, sys
skip = ["LICENSE", "MAINTAINERS", ".gitignore", "*.map", "*.ini", "*.json", "*.txt.in",
        "tests/fuzz/corpus/*",  # fuzz inputs: raw bytes, no room for a header
        # Debian formats without comments: the changelog, DEP-5 (its License: field says it)
        "debian/changelog", "debian/copyright", "debian/source/format"]
bad = 0
for f in sys.stdin.read().split("\n"):
    if not f or any(fnmatch.fnmatch(f, p) for p in skip):
        continue
    with open(f, "rb") as fh:
        head = b"".join(fh.readline() for _ in range(5))
    if b"SPDX-License-Identifier: BSD-3-Clause" not in head:
        print(f"check-spdx: {f} has no SPDX tag", file=sys.stderr)
        bad = 1
sys.exit(bad)
'
echo "check-spdx: OK"
