#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
"""Check doc/guides/nics/features/*.ini against DPDK's own default.ini: DPDK's vocabulary.

usage: check-features.py DPDK_SRC SRC_ROOT

Every section and key of our features files must be one of DPDK's default.ini (of the DPDK
sources the build uses, see dpdk_src_file.py), in its order, each once, with a value DPDK's
tables use: Y (works) or P (partly). Features that do not work are left out, as in DPDK's
files, not listed as N. Exit 0 when all files pass, 1 otherwise (each problem printed), 77
when default.ini is not there.
"""

import glob
import os
import sys
import tempfile

sys.dont_write_bytecode = True
from dpdk_src_file import dpdk_src_file_or_skip  # noqa: E402 (after the bytecode switch)

VALUES = ("Y", "P")


def ini(path):
    """[(section, key, value, line number)] of an ini file (comments and blanks skipped)."""
    out, section = [], None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith(";"):
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1]
                continue
            key, sep, value = line.partition("=")
            out.append((section, key.strip(), value.strip() if sep else None, n))
    return out


def check(path, order):
    """Problems of one features file, as printed lines."""
    bad, seen, last = [], set(), {}
    name = os.path.relpath(path)
    for section, key, value, n in ini(path):
        where = "%s:%d: [%s] %s" % (name, n, section, key)
        if (section, key) not in order:
            bad.append("%s: not a key of DPDK's default.ini" % where)
            continue
        if (section, key) in seen:
            bad.append("%s: given twice" % where)
        seen.add((section, key))
        if value not in VALUES:
            bad.append("%s = %s: DPDK's tables use %s" % (where, value, " or ".join(VALUES)))
        if order[(section, key)] < last.get(section, -1):
            bad.append("%s: out of default.ini's order" % where)
        last[section] = order[(section, key)]
    return bad


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    dpdk_src, root = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        default = dpdk_src_file_or_skip(dpdk_src, "doc/guides/nics/features/default.ini", tmp)
        order = {(s, k): i for i, (s, k, _, _) in enumerate(ini(default))}
    files = sorted(glob.glob(os.path.join(root, "doc/guides/nics/features/*.ini")))
    bad = []
    for path in files:
        bad += check(path, order)
    for line in bad:
        print(line)
    print("%d features files checked against DPDK's default.ini: %d problems"
          % (len(files), len(bad)))
    sys.exit(1 if bad or not files else 0)


if __name__ == "__main__":
    main()
