#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
"""Check our PRM layouts against DPDK's own drivers/common/mlx5/mlx5_prm.h, field by field.

usage: check-prm-layouts.py DPDK_SRC SRC_ROOT CC [CFLAGS...]   (default: pkg-config libdpdk)

Every MLX5V_IFC layout of drivers/common/mlx5v/mlx5v_prm*.h is compiled in one program beside
DPDK's mlx5_prm.h (of the DPDK sources the build uses: DPDK_SRC, or its Debian source
tarball beside it, which keeps the header the unpacked tree leaves out). For a layout of the
same name (struct mlx5v_ifc_X_bits and struct mlx5_ifc_X_bits), or one of ALIASES, every
field of the same name must have the same bit offset and width; for the WQE and CQE layouts,
which DPDK writes as C structs of big-endian words (C_STRUCTS), each of our fields must lie
inside the DPDK member it names (SAME_LSB: fields of another width that must end at the
same bit; HOLDS: our dword holding DPDK's narrower field). The compiler computes all offsets
(offsetof, sizeof), none is written here. Exit 0 when all agree, 1 on a difference (each
printed), 77 when the DPDK header or the compiler's headers for it are not there.
"""

import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
from dpdk_src_file import dpdk_src_file_or_skip  # noqa: E402 (after the bytecode switch)

OUR_HEADERS = ["mlx5v_prm_cmd.h", "mlx5v_prm_eq.h", "mlx5v_prm_eth.h"]

# Our layout -> DPDK's bit-struct of another name (the same PRM structure).
ALIASES = {
    "cmd_hca_cap_eth": "cmd_hca_cap",
    "eth_offload_cap": "per_protocol_networking_offload_caps",
    "init_seg": "initial_seg",
}

# Known differences, each fixed on its own branch; reported, not failed. Remove an entry when
# the fix lands (the check then says the entry is stale).
KNOWN = set()

# Fields that end at the same bit as DPDK's of that name but have another width: checked for
# that least significant bit.
SAME_LSB = {
    # The PRM widened log_page_size to 6 bits (Linux mlx5_ifc.h); DPDK 22.11 keeps 5.
    ("mkc", "log_page_size"),
    # Ours is the low half of DPDK's 64-bit modify_bitmask (modify_bitmask_hi the high one).
    ("modify_rq_in", "modify_bitmask"),
    ("modify_sq_in", "modify_bitmask"),
}

# Our dword holding DPDK's narrower field of that name (the code takes the bits it needs:
# initializing is bit 31, health_counter bits 23:0): checked for DPDK's field inside ours.
HOLDS = {
    ("init_seg", "initializing"),
    ("init_seg", "health_counter"),
}

# Our WQE/CQE layouts -> DPDK's C struct and, per field of ours, the member that holds it.
C_STRUCTS = {
    "cqe_eth": ("mlx5_cqe", "pkt_info", {
        "wqe_id": "wqe_id", "rss_hash_result": "rx_hash_res", "check_sum": "csum",
        "vlan_info": "vlan_info", "lro_num_seg": "lro_num_seg",
        "flow_metadata": "flow_table_metadata", "byte_cnt": "byte_cnt",
        "timestamp": "timestamp", "sop": "sop_drop_qpn", "qpn": "sop_drop_qpn",
        "wqe_counter": "wqe_counter", "opcode": "op_own", "cqe_format": "op_own",
        "se": "op_own", "owner": "op_own"}),
    "cqe_err": ("mlx5_err_cqe", None, {
        "vendor_err_synd": "vendor_err_synd", "syndrome": "syndrome",
        "s_wqe_opcode": "s_wqe_opcode_qpn", "qpn": "s_wqe_opcode_qpn",
        "wqe_counter": "wqe_counter", "signature": "signature", "opcode": "op_own",
        "owner": "op_own"}),
    "wqe_ctrl_seg": ("mlx5_wqe_cseg", None, {
        "opmod": "opcode", "wqe_index": "opcode", "opcode": "opcode", "sqn": "sq_ds",
        "ds": "sq_ds", "signature": "flags", "fence_mode": "flags", "ce": "flags",
        "se": "flags", "imm": "misc"}),
    "wqe_eth_seg": ("mlx5_wqe_eseg", None, {
        "swp_offs": "swp_offs", "l4_csum": "cs_flags", "l3_csum": "cs_flags",
        "inner_l4_csum": "cs_flags", "inner_l3_csum": "cs_flags", "swp_flags": "swp_flags",
        "mss": "mss", "flow_metadata": "metadata", "inline_hdr_sz": "inline_hdr_sz",
        "inline_hdr_start": "inline_data"}),
    "wqe_eth_seg_vlan": ("mlx5_wqe_eseg", None, {
        "insert_vlan": "inline_hdr", "svlan": "inline_hdr", "vlan_tci": "vlan_tag"}),
    "wqe_data_seg": ("mlx5_wqe_dseg", None, {
        "byte_count": "bcount", "lkey": "lkey", "addr": "pbuf"}),
    "wqe_inline_seg": ("mlx5_wqe_dseg", None, {
        "is_inline": "bcount", "byte_count": "bcount"}),
    "mini_cqe_hash": ("mlx5_mini_cqe8", None, {
        "rx_hash_result": "rx_hash_result", "byte_cnt": "byte_cnt"}),
    "mini_cqe_csum": ("mlx5_mini_cqe8", None, {
        "check_sum": "checksum", "stride_idx": "stride_idx", "byte_cnt": "byte_cnt"}),
}

OUR_LAYOUT = re.compile(r"^MLX5V_IFC\((\w+)\) \{\n(.*?)^\};", re.M | re.S)
OUR_FIELD = re.compile(r"^\s*(?:uint8_t|MLX5V_IFC\(\w+\)) (\w+)((?:\[[^\]]*\])*);", re.M)
# A macro of leading fields (MLX5V_IFC_IN_HDR_FIELDS, ...), written one field a line.
OUR_FIELDS_MACRO = re.compile(r"^#define (MLX5V_IFC_\w+_FIELDS) \\\n((?:.*\\\n)*.*)$", re.M)
DPDK_LAYOUT = re.compile(r"^struct mlx5_ifc_(\w+)_bits \{\n(.*?)^\};", re.M | re.S)
DPDK_FIELD = re.compile(r"^\s*(?:u8|(?:struct|union) mlx5_ifc_\w+_bits) (\w+)((?:\[[^\]]*\])*);",
                        re.M)


def expand_fields(texts):
    """The headers' texts with each use of a fields macro replaced by its fields."""
    macros = {}
    for text in texts:
        for name, body in OUR_FIELDS_MACRO.findall(text):
            macros[name] = [ln.strip().rstrip("\\").strip().rstrip(";") + ";"
                            for ln in body.split("\n")]
    use = re.compile(r"^(\s*)(%s);$" % "|".join(macros) if macros else r"(?!)", re.M)
    out = []
    for text in texts:
        while macros and use.search(text):
            text = use.sub(lambda m: "\n".join(m.group(1) + f for f in macros[m.group(2)]), text)
        out.append(text)
    return out


def fields(body, pattern):
    """Field name -> 1 if it has a size (not a flexible or zero-length array)."""
    out = {}
    for name, dims in pattern.findall(body):
        if name.startswith("reserved") or name in out:
            continue
        flexible = re.search(r"\[\s*(0|0x0)?\s*\]", dims) is not None
        out[name] = 0 if flexible else 1
    return out


def program(ours, dpdk):
    """The C program comparing every pair; prints differences, returns their count."""
    # The tree's own static asserts (mlx5v_ifc.h) are silenced here: this check stands on
    # DPDK's header alone, so a moved field shows as a difference, not a build error.
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include <mlx5_prm.h>',
             '#include "mlx5v_ifc.h"']
    for m in ("MLX5V_IFC_ASSERT(t, f, dw, hi, lo)", "MLX5V_IFC_ASSERT_OFF(t, f, off)",
              "MLX5V_IFC_ASSERT_SPAN(t, f, off, n)", "MLX5V_IFC_ASSERT_BYTES(t, n)"):
        lines += ['#undef ' + m.split('(')[0], '#define %s struct mlx5v_ifc_unused' % m]
    lines += ['#include "mlx5v_prm.h"', '',
             '#define O(t, f) offsetof(struct mlx5v_ifc_##t##_bits, f)',
             '#define W(t, f) sizeof(((struct mlx5v_ifc_##t##_bits *)0)->f)',
             '#define DO(t, f) offsetof(struct mlx5_ifc_##t##_bits, f)',
             '#define DW(t, f) sizeof(((struct mlx5_ifc_##t##_bits *)0)->f)',
             '#define CO(s, f) (8 * offsetof(struct s, f))',
             '#define CW(s, f) (8 * sizeof(((struct s *)0)->f))',
             '',
             'static int bad, known, n;',
             '',
             '/*',
             ' * mode 0: same bit and width; 1: ours inside the DPDK member; 2: the same last bit;',
             ' * 3: the DPDK field inside ours.',
             ' */',
             'static void',
             'cmp(const char *t, const char *f, long o, long w, long do_, long dw, int mode,',
             '    int k)',
             '{',
             '\tint ok = mode == 1 ? o >= do_ && o + w <= do_ + dw :',
             '\t\t mode == 2 ? o + w == do_ + dw :',
             '\t\t mode == 3 ? do_ >= o && do_ + dw <= o + w : o == do_ && (w < 0 || w == dw);',
             '',
             '\tn++;',
             '\tif (ok && k)',
             '\t\tprintf("STALE: %s.%s agrees now: drop its KNOWN entry\\n", t, f);',
             '\tif (ok)',
             '\t\treturn;',
             '\tprintf("%s: %s.%s: ours at bit %ld width %ld, DPDK at bit %ld width %ld\\n",',
             '\t       k ? "KNOWN" : "DIFFERS", t, f, o, w, do_, dw);',
             '\tif (k)',
             '\t\tknown++;',
             '\telse',
             '\t\tbad++;',
             '}',
             '',
             'int',
             'main(void)',
             '{']
    pairs = 0
    for name in sorted(ours):
        dname = ALIASES.get(name, name)
        if dname not in dpdk:
            continue
        pairs += 1
        for f in sorted(set(ours[name]) & set(dpdk[dname])):
            sized = ours[name][f] and dpdk[dname][f]
            w = "(long)W(%s, %s)" % (name, f) if sized else "-1L"
            dw = "(long)DW(%s, %s)" % (dname, f) if sized else "-1L"
            mode = 2 if (name, f) in SAME_LSB else 3 if (name, f) in HOLDS else 0
            lines.append('\tcmp("%s", "%s", (long)O(%s, %s), %s, (long)DO(%s, %s), %s, %d, %d);'
                         % (name, f, name, f, w, dname, f, dw, mode, (name, f) in KNOWN))
    for name, (struct, base, members) in sorted(C_STRUCTS.items()):
        if name not in ours:
            continue
        pairs += 1
        base_off = "CO(%s, %s)" % (struct, base) if base else "0"
        for f, m in sorted(members.items()):
            if f not in ours[name]:
                lines.append('\tprintf("DIFFERS: %s.%s: no such field of ours\\n"); bad++;'
                             % (name, f))
                continue
            lines.append('\tcmp("%s", "%s", (long)O(%s, %s), (long)W(%s, %s), '
                         '(long)(CO(%s, %s) - %s), (long)CW(%s, %s), 1, 0);'
                         % (name, f, name, f, name, f, struct, m, base_off, struct, m))
    lines += ['\tprintf("%d fields of ' + str(pairs) + ' layouts compared with DPDK\'s '
              'mlx5_prm.h: %d differ, %d known\\n", n, bad, known);',
              '\treturn bad != 0;', '}', '']
    return "\n".join(lines), pairs


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    dpdk_src, root, cc, cflags = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    if not cflags:
        cflags = subprocess.run(["pkg-config", "--cflags", "libdpdk"], capture_output=True,
                                text=True, check=True).stdout.split()
    inc = os.path.join(root, "drivers/common/mlx5v")
    ours = {}
    texts = []
    for h in OUR_HEADERS:
        with open(os.path.join(inc, h)) as f:
            texts.append(f.read())
    for text in expand_fields(texts):
        for name, body in OUR_LAYOUT.findall(text):
            ours[name] = fields(body, OUR_FIELD)
    with tempfile.TemporaryDirectory() as tmp:
        hdr = dpdk_src_file_or_skip(dpdk_src, "drivers/common/mlx5/mlx5_prm.h", tmp)
        with open(hdr) as f:
            dpdk = {n: fields(b, DPDK_FIELD) for n, b in DPDK_LAYOUT.findall(f.read())}
        # mlx5_prm.h includes the DPDK build's own headers: the glue (rdma-core's verbs and
        # mlx5dv, for the types it borrows) and an empty autoconf.
        stub = os.path.join(tmp, "stub")
        os.mkdir(stub)
        with open(os.path.join(stub, "mlx5_glue.h"), "w") as f:
            f.write("#include <infiniband/verbs.h>\n#include <infiniband/mlx5dv.h>\n")
        open(os.path.join(stub, "mlx5_autoconf.h"), "w").close()
        if not os.path.samefile(os.path.dirname(hdr), tmp):
            os.symlink(hdr, os.path.join(stub, "mlx5_prm.h"))
        src, pairs = program(ours, dpdk)
        cfile = os.path.join(tmp, "prm_layouts.c")
        with open(cfile, "w") as f:
            f.write(src)
        exe = os.path.join(tmp, "prm_layouts")
        r = subprocess.run([cc, "-o", exe, cfile, "-I", stub, "-I", tmp, "-I", inc] + cflags,
                           capture_output=True, text=True)
        if r.returncode != 0:
            if "infiniband/" in r.stderr and "No such file" in r.stderr:
                print("SKIP: rdma-core headers (infiniband/mlx5dv.h) are not installed")
                sys.exit(77)
            sys.stdout.write(r.stderr)
            sys.exit("the layouts do not compile beside DPDK's mlx5_prm.h")
        r = subprocess.run([exe], capture_output=True, text=True)
        sys.stdout.write(r.stdout)
        sys.exit(1 if r.returncode != 0 or pairs == 0 else 0)


if __name__ == "__main__":
    main()
