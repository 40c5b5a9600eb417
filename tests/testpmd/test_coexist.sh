#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Load our plugins with -d into Debian's own dpdk-testpmd, which links and
# auto-loads Debian's mlx4/mlx5 drivers, and check that nothing clashes:
# both sets of drivers register, EAL starts, and the symbol rules hold.
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
plugins=$(stage_plugins) || fail "cannot stage plugins"
trap 'rm -rf "$out" "$plugins"' EXIT
"$MLXV_SRC/devtools/check-symbols.sh" "$MLXV_BUILD/drivers" || fail "symbol check"
printf 'show port summary all\nquit\n' |
	(cd / && timeout 60 /usr/bin/dpdk-testpmd -d "$plugins" $EAL_BASE \
		--vdev=net_null0 --log-level='lib.eal:debug' -- -i --total-num-mbufs=2048) \
		>"$out" 2>&1 || { cat "$out"; fail "Debian's testpmd failed with our plugins"; }
cat "$out"
reject "$out" 'undefined symbol|Cannot init plugins|already registered|Duplicate'
for lib in "$plugins"/librte_*.so; do
	expect "$out" "open shared lib .*$(basename "$lib")"
done
expect "$out" 'open shared lib .*librte_net_mlx5\.so'
expect "$out" '^Bye'
