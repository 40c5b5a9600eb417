#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Build the Sphinx documentation (guides and API reference pages) with warnings
# as errors: every page parses and every page is in a toctree.
# usage: check-doc.sh OUTPUT_DIR
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: check-doc.sh OUTPUT_DIR}
command -v sphinx-build >/dev/null ||
	{ echo "check-doc: sphinx-build missing (devtools/setup.sh installs python3-sphinx)" >&2; exit 1; }
sphinx-build -W -q -b html "$src/doc" "$out"
echo "check-doc: OK ($out/index.html)"
