#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Every command of README.md, run verbatim: each indented code block (four spaces after a
# blank line, ending at the next blank line) runs as one `sh -e` script from the checkout
# root, the README's working directory, and must exit 0; some blocks have output checks.
#  - stdin is "help drivers" and "quit": what the README tells the user to type at the
#    prompt of the interactive testpmd (the other commands do not read stdin);
#  - `./devtools/test.sh` is the command that runs this test (through meson test), so it
#    is not run again here (it would recurse); the test checks that .ci/run runs it, as
#    the README says;
#  - DESTDIR and MANPATH point `meson install` and `man` at a staging directory (the
#    install prefix below it), so the test leaves the system's prefix alone;
#  - the commands name the checkout's build/ directory: run from another build directory,
#    the test skips.
# Not parallel: demo.sh builds in build/ and the EAL programs share the default file prefix.
. "$(dirname "$0")/../testpmd/lib.sh"
: "${MLXV_SRC:?MLXV_SRC must name the source directory}"
src=$(cd "$MLXV_SRC" && pwd -P)
[ "$(cd "$MLXV_BUILD" && pwd -P)" = "$src/build" ] ||
	skip "the README's commands use $src/build, this build is $MLXV_BUILD"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DESTDIR=$tmp/stage
MANPATH=$DESTDIR$(meson introspect "$src/build" --buildoptions | /usr/bin/python3 -c '
import json, os, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(os.path.join(o["prefix"], o["mandir"]))') || fail "cannot read the build options"
export MANPATH

if grep -Eq '^ *(```|~~~)' "$src/README.md"; then
	fail "README.md has a fenced code block: this test reads indented blocks only"
fi
awk -v dir="$tmp" '
	/^    / && (inb || blank) { if (!inb) n++; inb = 1; print substr($0, 5) > (dir "/block" n); next }
	{ inb = 0; blank = $0 == "" }
	END { print n + 0 > (dir "/count") }' "$src/README.md"
n=$(cat "$tmp/count")
[ "$n" -gt 0 ] || fail "no command block found in README.md"

seen=
i=1
while [ $i -le "$n" ]; do
	b=$tmp/block$i
	out=$tmp/out$i
	i=$((i + 1))
	echo "== README block:"
	cat "$b"
	case $(cat "$b") in
	./devtools/test.sh)
		grep -qx 'exec ./devtools/test.sh' "$src/.ci/run" ||
			fail ".ci/run does not run ./devtools/test.sh"
		[ -x "$src/devtools/test.sh" ] || fail "devtools/test.sh is not executable"
		echo "(the command running this test: not run again)"
		seen="$seen test"
		continue;;
	esac
	printf 'help drivers\nquit\n' | (cd "$src" && timeout 500 sh -e "$b") >"$out" 2>&1
	rc=$?
	cat "$out"
	[ $rc -eq 0 ] || fail "README block exited with $rc"
	case $(head -n 1 "$b") in
	./devtools/demo.sh)
		# Every part's line of the closing summary says OK; the parts with network
		# namespaces and TAPs say SKIP only where the test is not root.
		tap=OK
		[ "$(id -u)" = 0 ] || tap=SKIP
		for part in 'drivers' 'net_mlx5v forwarding' 'net_mlx4v forwarding' \
			"Rx interrupts +$tap" "kernel peer \(TAP\) +$tap" 'DEVX EQ example' \
			'raw views example' 'driver commands' 'emulated PCI function' \
			'emulated ConnectX-3'; do
			case $part in
			*" +"*) expect "$out" "^$part ";;
			*) expect "$out" "^$part +OK ";;
			esac
		done
		expect "$out" '^net_mlx5v forwarding +OK +[1-9][0-9]* packets forwarded'
		expect "$out" '^Rx interrupts +(OK +192 frames routed, [1-9]|SKIP)'
		expect "$out" 'mlx5v_sim0: EQ 2 created'
		expect "$out" '^raw_views: PASS$'
		# DPDK's own mlx4 PMD forwards on the emulated ConnectX-3 where Debian ships it.
		if ls /usr/lib/*/dpdk/pmds-*/librte_net_mlx4.so >/dev/null 2>&1 &&
			[ -x /usr/bin/dpdk-testpmd ]; then
			expect "$out" "^emulated ConnectX-3 +OK .*DPDK's net_mlx4: [1-9][0-9]* packets"
		fi
		expect "$out" '^demo: OK$'
		seen="$seen demo";;
	build/app/dpdk-testpmd*)
		expect "$out" '^ *mlx5v eq create '
		expect "$out" '^ *mlx4v view '
		expect "$out" '^Bye'
		seen="$seen testpmd";;
	build/examples/*)
		expect "$out" 'mlx5v_sim0: 6 event\(s\) received, 0 failure\(s\)'
		expect "$out" '^raw_views: PASS$'
		seen="$seen examples";;
	meson\ install*)
		expect "$out" 'rte_pmd_mlx5v_devx_create_eq - create an event queue'
		[ -n "$(find "$DESTDIR" -name rte_pmd_mlx5v.h)" ] || fail "no header installed"
		seen="$seen install";;
	sphinx-build*)
		[ -s "$src/build/doc/html/index.html" ] || fail "no build/doc/html/index.html"
		seen="$seen doc";;
	esac
	reject "$out" 'Segmentation|Assertion|PANIC|still alive at removal'
done
# The README's promises this test holds it to: both set-up commands, the install and its man
# pages, our testpmd, the examples, the documentation build.
for s in demo test install testpmd examples doc; do
	case " $seen " in
	*" $s "*) ;;
	*) fail "README.md lost its $s command";;
	esac
done
echo PASS
