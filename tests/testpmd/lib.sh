# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Helpers for the scripted dpdk-testpmd sessions. Sourced, not run.
# Environment (set by meson): MLXV_BUILD (build root), MLXV_SRC (source root).

: "${MLXV_BUILD:?MLXV_BUILD must name the build directory}"
TESTPMD=$MLXV_BUILD/app/dpdk-testpmd
EAL_BASE="--no-huge -m 256 --no-pci --no-shconf"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# run_testpmd OUTFILE "commands" [EAL args...] -- [testpmd args...]
# Feeds the commands on stdin (interactive mode), bounded by a timeout.
run_testpmd() {
	out=$1
	cmds=$2
	shift 2
	printf '%b' "$cmds" | (cd / && timeout 60 "$TESTPMD" "$@") >"$out" 2>&1
	rc=$?
	cat "$out"
	return $rc
}

# expect FILE REGEX: the output must contain a line matching REGEX.
expect() {
	grep -Eq -- "$2" "$1" || fail "expected /$2/ in the output"
}

# reject FILE REGEX: no line may match REGEX.
reject() {
	if grep -Eq -- "$2" "$1"; then
		fail "unexpected /$2/ in the output"
	fi
}

# stage_plugins: copy our driver .so files (and their symlinks) to a private
# directory (EAL refuses -d paths under world-writable directories) and print it.
stage_plugins() {
	d=$(mktemp -d -p "${HOME:-/root}" mlxv-plugins.XXXXXX) || return 1
	find "$MLXV_BUILD/drivers" -maxdepth 1 \( -type f -o -type l \) -name 'librte_*.so*' \
		-exec cp -P {} "$d" \;
	echo "$d"
}
