#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# `help drivers` in our dpdk-testpmd lists each driver command section we
# compile in (arguments: the command prefixes to expect).
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run_testpmd "$out" 'help drivers\nquit\n' $EAL_BASE -- -i --total-num-mbufs=2048 ||
	fail "testpmd exited with $?"
for prefix in "$@"; do
	expect "$out" "^ *$prefix "
done
expect "$out" '^Bye'
