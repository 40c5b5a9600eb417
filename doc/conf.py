# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
# Sphinx configuration: sphinx-build -W -q -b html doc build/doc/html

project = 'dpdk-mlxv'
copyright = '2026, dpdk-mlxv authors'
release = '0.1.0'
extensions = []
exclude_patterns = []
html_theme = 'alabaster'
