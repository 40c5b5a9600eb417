#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The project's files, as `git ls-files [PATHSPEC...]` lists them, for the tree checks. In a
# clone that is git's list. In an export without .git (git archive, a release tarball, a
# Debian source package) it is every file under the source root but those .gitignore names
# (the build trees), filtered by the same pathspecs: a directory or file name, or a pattern
# whose * matches across directories, as git's default pathspecs do.
# usage: devtools/ls-files.sh [PATHSPEC...]   (paths relative to the source root)
set -eu
cd "$(dirname "$0")/.."
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
	exec git ls-files -- "$@"
fi
exec /usr/bin/python3 - "$@" <<'PY'
import fnmatch, os, sys

specs = sys.argv[1:]
ignore = [".git"]
if os.path.exists(".gitignore"):
    ignore += [l.strip() for l in open(".gitignore") if l.strip() and l[0] != "#"]
dirs = [p.rstrip("/") for p in ignore if p.endswith("/") or p == ".git"]
names = [p for p in ignore if not p.endswith("/")]


def wanted(path):
    if any(fnmatch.fnmatch(os.path.basename(path), p) for p in names):
        return False
    for s in specs:
        if any(c in s for c in "*?[") and fnmatch.fnmatch(path, s):
            return True
        if path == s.rstrip("/") or path.startswith(s.rstrip("/") + "/"):
            return True
    return not specs


out = []
for root, subdirs, files in os.walk("."):
    subdirs[:] = [d for d in subdirs if not any(fnmatch.fnmatch(d, p) for p in dirs)]
    out += [p for p in (os.path.normpath(os.path.join(root, f)) for f in files) if wanted(p)]
print("\n".join(sorted(out)))
PY
