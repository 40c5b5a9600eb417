#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Debian's dpdk-pmdinfo.py lists every driver we register, with its PCI ids or
# device arguments (arguments: driver names to expect).
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
/usr/bin/python3 /usr/bin/dpdk-pmdinfo.py "$MLXV_BUILD"/drivers/librte_*.so >"$out" ||
	fail "dpdk-pmdinfo.py failed"
cat "$out"
for name in "$@"; do
	expect "$out" "\"name\": \"$name\""
done
