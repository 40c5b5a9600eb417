#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Citations stay inside the repository and cannot rot:
# - no tracked file cites the fact sheets the project was started from, a path outside
#   the repository ("shared/reference") or a rule book outside it ("house style"); the
#   hardware digest in doc/guides/prm/ and the rules in doc/guides/contributing/ are what
#   code cites;
# - no issue numbers in code, headers, build files or docs;
# - every "prm/<page> §N.M" (or "prm/<page>.rst §N.M"), and "contributing/<page> §N", names an
#   existing page and a section number printed in one of its headings;
# - every "§N.M" names its page: directly after it, or in a list that follows it
#   ("prm/mlx5 §3.4, §3.6"); inside a page of doc/guides/prm/, a bare "§N.M" is a section
#   of that page.
# The citation forms are described in doc/guides/prm/index.rst and
# doc/guides/contributing/style.rst.
set -eu
cd "$(dirname "$0")/.."
devtools/ls-files.sh drivers lib app examples tests devtools doc meson.build meson_options.txt \
	README.md | /usr/bin/python3 -c '
import os, re, sys

PRM_DIR = "doc/guides/prm"
DOC_DIR = "doc/guides"
SELF = "devtools/check-citations.sh"
# Built from pieces so that this script does not match its own patterns.
FOREIGN = re.compile("|".join([r"mlx5-prm\.md", r"mlx5-eth\.md", r"mlx4dv\.md",
                               r"anchors\.md", r"house-style\.md", r"dpdk-build\.md",
                               r"shared/" + "reference", r"house" + r"[ -]style",
                               r"both " + "anchors", r"task " + "statements?"]),
                     re.IGNORECASE)
ISSUE = re.compile(r"\bissues?\s*#?\s*[0-9]", re.IGNORECASE)
TOKEN = re.compile(r"((?:prm|contributing)/[A-Za-z0-9_]+)(?:\.rst)?|"
                   r"\u00a7\s*([0-9]+(?:\.[0-9]+)*)")
GLUE = re.compile(r"[\s`*#/]*\Z")
# Between the citations of a list: "prm/mlx5 §3.4, §3.6 and §3.7".
LIST = re.compile(r"(?:[\s`*#/,;&-]|and|or)*\Z")
HEAD = re.compile(r"^([0-9]+(?:\.[0-9]+)*)\.?\s+\S")
UNDER = re.compile(r"^([=\-~^\"])\1+\s*$")

def sections(page):
    """Section numbers printed at the start of the headings of a digest page."""
    lines = open(os.path.join(DOC_DIR, page + ".rst"), encoding="utf-8").read().split("\n")
    found = set()
    for title, under in zip(lines, lines[1:]):
        m = HEAD.match(title)
        if m and UNDER.match(under) and len(under.rstrip()) >= len(title.rstrip()):
            found.add(m.group(1))
    return found

pages = {}
def page_sections(page):
    if page not in pages:
        path = os.path.join(DOC_DIR, page + ".rst")
        pages[page] = sections(page) if os.path.isfile(path) else None
    return pages[page]

bad = 0
def fail(path, text, pos, msg):
    global bad
    line = text.count("\n", 0, pos) + 1
    print(f"check-citations: {path}:{line}: {msg}", file=sys.stderr)
    bad += 1

for path in sys.stdin.read().split():
    if path == SELF or not os.path.isfile(path):
        continue
    try:
        text = open(path, encoding="utf-8").read()
    except UnicodeDecodeError:
        continue
    for m in FOREIGN.finditer(text):
        fail(path, text, m.start(), f"cites a source outside the repository ({m.group(0)}); "
             "cite doc/guides/prm/ or doc/guides/contributing/ instead")
    for m in ISSUE.finditer(text):
        fail(path, text, m.start(), f"issue number ({m.group(0)})")
    in_prm = (os.path.dirname(path) == PRM_DIR and path.endswith(".rst") and
              not path.endswith("/index.rst"))
    own = "prm/" + os.path.basename(path)[:-4] if in_prm else None
    current, last_end = None, -1
    for m in TOKEN.finditer(text):
        if m.group(1) is not None:
            page = m.group(1)
            if page_sections(page) is None:
                fail(path, text, m.start(), f"no page {DOC_DIR}/{page}.rst")
                current = None
            else:
                current = page
            last_end = m.end()
            continue
        num = m.group(2)
        linked = last_end >= 0 and LIST.match(text, last_end, m.start())
        page = current if linked else own
        if page is None:
            fail(path, text, m.start(), f"\u00a7{num} without its page (prm/<page> \u00a7{num})")
        elif num not in page_sections(page):
            fail(path, text, m.start(), f"{page} has no section {num}")
        if linked:
            last_end = m.end()
sys.exit(1 if bad else 0)
'
echo "check-citations: OK"
