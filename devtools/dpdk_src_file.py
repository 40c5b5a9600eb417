# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
"""A file of the DPDK sources the build uses, for the devtools checks that compare with them.

The unpacked tree (devtools/get-dpdk-src.sh) keeps only what the build needs; the Debian
source tarball beside it (dpdk_<version>.orig.tar.xz in the dpdk_src_cache) has the rest.
"""

import os
import sys
import tarfile


def dpdk_src_file(dpdk_src, rel, tmp):
    """Path of rel in the tree DPDK_SRC, else extracted from its tarball into tmp; or None."""
    path = os.path.join(dpdk_src, rel)
    if os.path.isfile(path):
        return path
    tree = os.path.basename(os.path.normpath(dpdk_src))
    version = tree.replace("dpdk-stable-", "")
    tarball = os.path.join(os.path.dirname(os.path.normpath(dpdk_src)),
                           "dpdk_%s.orig.tar.xz" % version)
    if not os.path.isfile(tarball):
        return None
    with tarfile.open(tarball) as t:
        try:
            member = t.getmember("%s/%s" % (tree, rel))
        except KeyError:
            return None
        data = t.extractfile(member).read()
    path = os.path.join(tmp, os.path.basename(rel))
    with open(path, "wb") as f:
        f.write(data)
    return path


def dpdk_src_file_or_skip(dpdk_src, rel, tmp):
    """dpdk_src_file(), or exit 77 (a skipped test) saying what is missing."""
    path = dpdk_src_file(dpdk_src, rel, tmp)
    if path is None:
        print("SKIP: no %s in %s or its source tarball" % (rel, dpdk_src))
        sys.exit(77)
    return path
