#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# again.sh SCRIPT ARGS...: run the test script SCRIPT (with sh) and, when it fails (a status
# other than 0 and 77, the skip), once more; the second run's status is the test's. For the
# tests with a known intermittent (doc/guides/testing/suites.rst, "Known intermittents"): the
# first run's output stays in the log, followed by a line saying it failed.

sh "$@"
rc=$?
case $rc in
0|77) exit $rc ;;
esac
echo "=== again.sh: $(basename "$1") failed (status $rc), a known intermittent" \
	"(doc/guides/testing/suites.rst): once more"
exec sh "$@"
