#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The checkout as a source tarball ships it, in DIR: `git archive` of the tracked files as they
# are now (HEAD plus uncommitted changes to tracked files; untracked files are left out, as a
# release leaves them out), without .git. DIR is updated in place: a file whose content and
# mode did not change keeps its time stamp, so a build in DIR/build stays incremental.
# DIR/build is kept, DIR/build-cache links to the checkout's build-cache/ (the DPDK source
# package, never exported).
# usage: devtools/export.sh DIR    (from a clone)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
[ $# = 1 ] || { echo "usage: devtools/export.sh DIR" >&2; exit 2; }
dst=$(realpath -m "$1")
[ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$src" && pwd -P)" ] ||
	{ echo "export: $src is not a git clone" >&2; exit 1; }
new=$dst.new
rm -rf "$new" && mkdir -p "$new" "$dst"
rev=$(git -C "$src" stash create 2>/dev/null) || rev=
git -C "$src" archive "${rev:-HEAD}" | tar -x -m -C "$new"
/usr/bin/python3 - "$new" "$dst" <<'PY'
import filecmp, os, shutil, sys

new, dst = sys.argv[1:]
want = set()
for root, dirs, files in os.walk(new):
    rel = os.path.relpath(root, new)
    want.update(os.path.normpath(os.path.join(rel, n)) for n in dirs + files)
# What the export no longer has (build/ and build-cache at the top are kept).
for root, dirs, files in os.walk(dst):
    rel = os.path.relpath(root, dst)
    for n in list(dirs) + files:
        p = os.path.normpath(os.path.join(rel, n))
        if p in ("build", "build-cache") and n in dirs:
            dirs.remove(n)
        if p in want or p in ("build", "build-cache"):
            continue
        q = os.path.join(dst, p)
        if n in dirs and not os.path.islink(q):
            shutil.rmtree(q)
        else:
            os.remove(q)
        if n in dirs:
            dirs.remove(n)
# What changed, in content, mode or kind.
for p in sorted(want):
    a, b = os.path.join(new, p), os.path.join(dst, p)
    if os.path.isdir(a) and not os.path.islink(a):
        if os.path.islink(b) or (os.path.lexists(b) and not os.path.isdir(b)):
            os.remove(b)
        os.makedirs(b, exist_ok=True)
        continue
    if os.path.isdir(b) and not os.path.islink(b):
        shutil.rmtree(b)
    if (os.path.islink(a) or os.path.islink(b) or not os.path.lexists(b)
            or os.stat(a).st_mode != os.stat(b).st_mode
            or not filecmp.cmp(a, b, shallow=False)):
        os.replace(a, b)
PY
rm -rf "$new"
ln -sfn "$src/build-cache" "$dst/build-cache"
