#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Our dpdk-testpmd still runs Debian's own drivers: forward on net_null0.
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run_testpmd "$out" 'show port info 0\nstart tx_first\nstop\nquit\n' \
	$EAL_BASE --vdev=net_null0 -- -i --total-num-mbufs=2048 ||
	fail "testpmd exited with $?"
expect "$out" 'Driver name: net_null'
expect "$out" 'TX-packets: [1-9]'
expect "$out" '^Bye'
