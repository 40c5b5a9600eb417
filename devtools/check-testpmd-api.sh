#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The testpmd command files (drivers/*/*/*_testpmd.c) use exported functions only, as
# DPDK's own mlx5_testpmd.c does: they may include, of the project's headers, only the
# API headers below, and those headers include nothing else of the project, so no
# structure of a library's internals is in scope of a testpmd file. System and DPDK
# headers are free. doc/guides/platform/layers.rst describes the rule.
set -eu
cd "$(dirname "$0")/.."
devtools/ls-files.sh '*.c' '*.h' | /usr/bin/python3 -c '
import os, re, sys

# The public API (installed rte_pmd_*.h, the raw mlx4 data path among them: static inline
# over the mlx4dv views), the internal APIs for tools (exported through version.map), and
# the testpmd glue of app/.
ALLOWED = {
    "testpmd.h", "mlxv_testpmd.h",
    "rte_pmd_mlx5v.h", "rte_pmd_mlx5v_prm.h", "rte_pmd_mlx4v.h", "rte_pmd_mlx4v_rawdp.h",
    "mlx5v_api.h", "mlx4v_api.h", "mlx5v_sim.h", "mlx4v_sim.h", "mlx5v_ethdev_api.h",
}
INCLUDE = re.compile(r"^\s*#\s*include\s*[<\"]([^>\"]+)[>\"]")

files = sys.stdin.read().split()
ours = {os.path.basename(f) for f in files if f.endswith(".h")}
paths = {}
for f in files:
    if f.endswith(".h"):
        paths.setdefault(os.path.basename(f), []).append(f)
bad = 0


def check(path):
    global bad
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        m = INCLUDE.match(line)
        if m is None:
            continue
        name = os.path.basename(m.group(1))
        if name in ours and name not in ALLOWED:
            print(f"check-testpmd-api: {path}:{n}: includes {name}, not an API header "
                  "(allowed: " + ", ".join(sorted(ALLOWED)) + ")", file=sys.stderr)
            bad += 1


testpmd = [f for f in files if f.startswith("drivers/") and f.endswith("_testpmd.c")]
if not testpmd:
    print("check-testpmd-api: no testpmd command file found", file=sys.stderr)
    sys.exit(1)
for f in testpmd:
    check(f)
# The allowed headers of the project must not pull the internals in behind them.
for name in sorted(ALLOWED & ours):
    if name == "testpmd.h":
        continue
    for p in paths[name]:
        check(p)
sys.exit(1 if bad else 0)
'
echo "check-testpmd-api: OK"
