#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Writes the seed corpora of the fuzz targets (corpus/<target>/seed-*), each input in the
# layout its target's @file comment describes. Re-run after changing a layout; the files
# are committed so that the short runs start from the same inputs everywhere.
# usage: gen_seeds.py   (from any directory)

import base64
import glob
import os
import re
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The opcodes the mlx5 model knows (prm/mlx5 §10 and the Ethernet function).
OPCODES = [0x100, 0x102, 0x103, 0x104, 0x105, 0x107, 0x108, 0x109, 0x10a, 0x10b,
           0x200, 0x201, 0x202, 0x203, 0x301, 0x302, 0x303, 0x304, 0x400, 0x401, 0x402,
           0x500, 0x750, 0x754, 0x755, 0x771, 0x772, 0x773, 0x800, 0x801, 0x802, 0x803,
           0x805, 0x816, 0x817, 0x900, 0x901, 0x902, 0x903, 0x904, 0x905, 0x906, 0x907,
           0x908, 0x909, 0x90a, 0x90b, 0x912, 0x913, 0x914, 0x915, 0x916, 0x917, 0x918,
           0x919, 0x92f, 0x930, 0x931, 0x933, 0x934, 0x936, 0x938, 0xa08, 0xa0a]


def write(target, name, data):
    d = os.path.join(HERE, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'seed-' + name), 'wb') as f:
        f.write(data)


def cmd_in(opcode, op_mod, inlen):
    b = bytearray(inlen)
    struct.pack_into('>H', b, 0, opcode)
    struct.pack_into('>H', b, 6, op_mod)
    return b


def sim_cmd():
    # flag byte (slot 0, harness pointers/chain/owner), the 64-byte entry, input blocks.
    for op in OPCODES:
        for inlen, outlen in ((0x10, 0x10), (0x110, 0x110), (0x10, 0x1010)):
            ent = bytearray(64)
            ent[0] = 7
            struct.pack_into('>I', ent, 0x4, inlen)
            struct.pack_into('>I', ent, 0x38, outlen)
            body = cmd_in(op, 1 if op == 0x100 else 0, inlen)
            ent[0x10:0x20] = body[:16]
            blocks = bytearray()
            rest = body[16:]
            while rest:
                blk = bytearray(0x240)
                blk[:len(rest[:512])] = rest[:512]
                blocks += blk
                rest = rest[512:]
            write('sim_cmd', '%03x-%x-%x' % (op, inlen, outlen), bytes([0]) + ent + blocks)


def devx():
    # op byte, flag byte, LE32 outlen, inbox.
    for log in (1, 6, 12, 31):
        inb = bytearray(0x110)
        inb[0x1c] = log
        inb[0x5f] = 1
        write('devx', 'create_eq-%d' % log, bytes([0, 3]) + struct.pack('<I', 0x10) + inb)
    for op in OPCODES:
        for inlen, outlen in ((0x10, 0x100), (0x110, 0x1010)):
            write('devx', 'cmd-%03x-%x' % (op, inlen),
                  bytes([1, 0]) + struct.pack('<I', outlen) + cmd_in(op, 0, inlen))
    # The input of a finding, as found: a QUERY_ISSI that makes the target bring a fresh
    # device up. On a loaded machine that bring-up outlived cmd_to_ms, which the target took
    # for a finding; it now checks that the failed probe left nothing and tries again.
    write('devx', 'regress-reset-timeout', base64.b64decode(
        'AQAQEAAAAQoAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACxsbGxsbGxsbGx'
        'sbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsQAAAAAAAAAAAAAAAAAA'
        'AAAAAAAAAQAACQQAAAAAAAAAAAAAAAEAAAEAAAcAAAAAAAAAAgAAAAAAAAAA+P////////8AAAAAAAAA'
        'AAAAAAAAAAAAAAAAAAAAAAEAcgAAAAAAAAAAAQAAAAAAAAAJBAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
        'AAAAAAAAAA=='
    ))


DEVARGS = [
    (0, ''), (0, 'msix=4,ports=2'), (0, 'class=none'), (0, 'class=net:none'),
    (0, 'wire=loop'), (0, 'wire=none,mac=02:00:00:00:00:01,speed=25000'),
    (0, 'cmd_to_ms=500,health_ms=100,health_strict=1'), (0, 'function=vf,host_page=65536'),
    (0, 'max_eqs=4,log_max_eq_sz=10,init_pages=8'), (0, 'fail_create_eq=1'),
    (0, 'cmd_sig=1,fast_unload=1'), (0, 'ports'), (0, 'msix=,msix=3'),
    (1, ''), (1, 'ports=2'), (1, 'class=none'), (1, 'ports=1,fail_create_cq=1'), (1, 'mode'),
    (2, 'class=net'), (2, 'cmd_to_ms=100,health_ms=5,cmd_sig=1'), (2, 'fast_unload=1,class'),
    (3, 'mlx4v=1'), (3, 'mlx4v=1,class=none'), (3, 'mlx4v=0'), (3, 'mlx4v'),
    (4, 'net'), (4, 'eth:none'), (4, 'net:net'), (5, 'none'), (5, 'net:eth'),
]


def devargs():
    for i, (sel, s) in enumerate(DEVARGS):
        write('devargs', '%02d' % i, bytes([sel]) + s.encode())


def mlx4v_obj():
    # flags, cqe, cqe_size, srq wr/sge, qp 5 x u32 + port, wq wr/sge/port, states, type, masks.
    for i, (flags, cqe, cqe_size, typ) in enumerate(
            ((0x0f, 64, 32, 0x0f), (0x1f, 256, 64, 0x0f), (0x2f, 64, 32, 0x0f),
             (0x4f, 64, 32, 0x02), (0x8f, 64, 32, 0x0f), (0x01, 0, 0, 0x02),
             (0x07, 1 << 22, 128, 0x01), (0x0b, 64, 32, 0x1f))):
        b = struct.pack('<BIH', flags, cqe, cqe_size)
        b += struct.pack('<II', 64, 1)
        b += struct.pack('<IIIIIB', 64, 64, 2, 1, 64, 1)
        b += struct.pack('<IIB', 64, 1, 2)
        b += bytes([3, 1, typ, 1, 1])
        write('mlx4v_obj', '%02d' % i, b)


def testpmd():
    lines = []
    for f in sorted(glob.glob(os.path.join(ROOT, 'tests/testpmd/*.sh'))):
        for m in re.finditer(r"mlx[45]v [^\n'\"]*", open(f).read()):
            for part in m.group(0).split('\\n'):
                part = part.strip()
                if re.match(r'mlx[45]v [a-z]', part) and '$' not in part and part not in lines:
                    lines.append(part)
    for i, line in enumerate(lines[:160]):
        write('testpmd', '%03d' % i, line.encode())


if __name__ == '__main__':
    shutil.rmtree(os.path.join(HERE, 'corpus'), ignore_errors=True)
    sim_cmd()
    devx()
    devargs()
    mlx4v_obj()
    testpmd()
