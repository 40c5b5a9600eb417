# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Helpers of the verbs emulation's test scripts. Sourced, not run; the script sets fail=0.

# check NAME EXPECTED ACTUAL: one line, ok or FAIL (then fail=1).
check() {
	if [ "$2" = "$3" ]; then
		echo "ok: $1"
	else
		echo "FAIL: $1: expected '$2', got '$3'"
		fail=1
	fi
}
