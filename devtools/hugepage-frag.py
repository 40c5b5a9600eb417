#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
"""Fragment the free 2 MiB hugepage pool on purpose: take every free page with one file each
in the hugetlbfs mount HOLD_DIR, then release every other one in physical-address order.
What stays free is then never two physically adjacent pages, so a buffer larger than one
hugepage is IOVA-contiguous (IOVA as PA) only if the driver made it so.
Exit status 77 (skip) where the machine gives no physical addresses."""

import ctypes
import mmap
import os
import struct
import sys

HUGE = 2 << 20
PAGE = os.sysconf('SC_PAGE_SIZE')


def pfn_of(addr):
    with open('/proc/self/pagemap', 'rb') as pm:
        pm.seek(addr // PAGE * 8)
        ent = struct.unpack('Q', pm.read(8))[0]
    if not ent >> 63:
        return None
    return ent & ((1 << 55) - 1)


def main():
    hold_dir = sys.argv[1]
    held = []
    i = 0
    while True:
        path = os.path.join(hold_dir, 'hold%05d' % i)
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
        try:
            # fallocate, not a store into a mapping: an empty pool is ENOSPC, not SIGBUS.
            os.posix_fallocate(fd, 0, HUGE)
        except OSError:
            os.close(fd)
            os.unlink(path)
            break
        m = mmap.mmap(fd, HUGE)
        _ = m[0]  # fault the (already allocated) page in, so pagemap shows it
        addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
        pfn = pfn_of(addr)
        del addr
        m.close()
        os.close(fd)
        if not pfn:
            print('hugepage-frag: /proc/self/pagemap gives no physical frame numbers '
                  '(needs CAP_SYS_ADMIN): cannot fragment by physical address')
            return 77
        held.append((pfn, path))
        i += 1
    if len(held) < 4:
        print('hugepage-frag: only %d free hugepages, need at least 4' % len(held))
        return 77
    held.sort()
    adjacent = sum(1 for a, b in zip(held, held[1:]) if b[0] - a[0] == HUGE // PAGE)
    freed = 0
    for k, (pfn, path) in enumerate(held):
        if k % 2 == 0:
            os.unlink(path)
            freed += 1
    print('hugepage-frag: %d pages taken (%d physically adjacent pairs), %d released, '
          'every released page has a held page between it and the next one'
          % (len(held), adjacent, freed))
    return 0


if __name__ == '__main__':
    sys.exit(main())
