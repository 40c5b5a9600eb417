# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
# Sphinx configuration: sphinx-build -W -q -b html doc build/doc/html

project = 'dpdk-mlxv'
copyright = '2026, dpdk-mlxv authors'
release = '0.1.0'
extensions = []
exclude_patterns = []
html_theme = 'alabaster'

# man(3) pages of the public API, one per page of doc/api/man (built and installed by
# doc/meson.build): sphinx-build -b man doc OUT. No description here: each page has its
# own NAME section.
import os
man_pages = [('api/man/' + f[:-4], f[:-4], '', [], 3)
             for f in sorted(os.listdir(os.path.join(os.path.dirname(__file__), 'api/man')))
             if f.endswith('.rst')]
