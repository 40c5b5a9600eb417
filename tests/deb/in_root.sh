#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Run by tests/deb/test_deb.sh inside the fresh root (chroot), as root, with the packages and
# this directory's files in $1. Installs the packages with apt (offline: every dependency is
# in the root already), uses them without the source tree and without -d, then removes and
# purges them and checks that none of their files is left.
# doc/guides/howto/packages.rst.
set -u
dir=$1
log=$dir/log
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
expect() {
	grep -Eq -- "$2" "$1" || { cat "$1"; fail "expected /$2/ in the output"; }
}
export DEBIAN_FRONTEND=noninteractive LC_ALL=C
unset LD_LIBRARY_PATH LD_PRELOAD
pkgs="dpdk-mlxv dpdk-mlxv-sim dpdk-mlxv-dev dpdk-mlxv-tools"

# Every dependency is installed already: apt downloads nothing.
(cd "$dir" && apt-get install -y -q $(ls ./*.deb | grep -v dbgsym)) >"$log" 2>&1 ||
	{ cat "$log"; fail "apt-get install of the packages"; }
tail -3 "$log"
pmds=$(printf 'RTE_EAL_PMD_PATH\n' | cpp -P $(pkg-config --cflags libdpdk) - | tr -d '" \n')
[ -d "$pmds" ] || fail "no DPDK plugin directory ($pmds)"
for l in common_mlx5v common_mlx4v net_mlx5v net_mlx4v sim_mlx5v sim_mlx4v hwsim; do
	[ -e "$pmds/librte_$l.so" ] || fail "$pmds/librte_$l.so missing or dangling"
done
echo "plugins in $pmds OK"

# Debian's testpmd, no -d: the drivers come from the plugin directory. A mlx5v_sim function
# cabled to port 1 of a mlx4v_sim device, io forwarding between them.
(printf 'start tx_first\n'; sleep 3; printf 'stop\nquit\n') |
	(cd / && timeout 60 dpdk-testpmd --no-huge -m 512 --no-pci --no-shconf \
	--log-level=lib.eal:debug --vdev=mlx5v_sim0,wire=pair:mlx4v_sim0 \
	--vdev=mlx4v_sim0,ports=1,wire1=pair:mlx5v_sim0 -- -i --total-num-mbufs=4096) \
	>"$log" 2>&1 || { cat "$log"; fail "Debian's dpdk-testpmd on the installed plugins"; }
expect "$log" "open shared lib $pmds/librte_net_mlx5v.so"
expect "$log" "open shared lib $pmds/librte_sim_mlx4v.so"
grep -E "Forward statistics|RX-packets" "$log"
awk '/Forward statistics for port/ { p = 1 } p && /RX-packets: [1-9]/ { n++; p = 0 }
     END { exit n >= 2 ? 0 : 1 }' "$log" ||
	{ cat "$log"; fail "no packets forwarded in both directions"; }
echo "Debian's dpdk-testpmd forwards between mlx5v_sim0 and mlx4v_sim0 OK"

# dpdk-pmdinfo.py on the installed plugins.
/usr/bin/python3 /usr/bin/dpdk-pmdinfo.py "$pmds"/librte_*mlx*v.so >"$log" 2>&1 ||
	{ cat "$log"; fail "dpdk-pmdinfo.py"; }
for n in mlx5v_pci mlx4v_pci mlx5v_sim mlx4v_sim; do
	expect "$log" "\"name\": \"$n\""
done
echo "dpdk-pmdinfo.py OK"

MANWIDTH=100 man 3 rte_pmd_mlx5v_devx_create_eq >"$log" 2>&1 || { cat "$log"; fail "man 3"; }
expect "$log" 'rte_pmd_mlx5v_devx_create_eq - create an event queue'
echo "man 3 rte_pmd_mlx5v_devx_create_eq OK"

# A program built against pkg-config libdpdk-mlxv creates a DEVX EQ.
cc -o "$dir/eqapp" "$dir/devx_eq_app.c" -DALLOW_EXPERIMENTAL_API \
	$(pkg-config --cflags --libs libdpdk-mlxv) >"$log" 2>&1 ||
	{ cat "$log"; fail "cannot build against pkg-config libdpdk-mlxv"; }
(cd / && timeout 30 "$dir/eqapp" --no-huge -m 256 --no-pci --no-shconf \
	--vdev=mlx5v_sim0,msix=8) >"$log" 2>&1 || { cat "$log"; fail "the DEVX EQ program"; }
expect "$log" 'mlx5v_sim0: DEVX EQ [0-9]+ created'
echo "program built with pkg-config libdpdk-mlxv creates a DEVX EQ OK"

# Installed, mlx5v_pci takes a function only when opted in: two functions emulated on
# vfio-pci by the installed launcher, the installed testpmd (which links the installed
# drivers): 0000:00:05.0 given mlx5v=1 is our port, 0000:00:06.0 is left to other drivers.
printf 'show port summary all\nquit\n' | (cd / && timeout 60 dpdk-mlxv-vfio-run \
	--dev 0000:00:05.0 --dev 0000:00:06.0 -- dpdk-mlxv-testpmd --no-huge -m 512 --no-shconf \
	--log-level='pmd.common.mlx5v*:info' -a 0000:00:05.0,mlx5v=1 -a 0000:00:06.0 -- -i \
	--total-num-mbufs=4096) >"$log" 2>&1 || { cat "$log"; fail "testpmd on emulated functions"; }
expect "$log" '^0 +[0-9A-F:]+ +0000:00:05.0 '
expect "$log" '0000:00:06.0: not selected \(devarg mlx5v=1\), left to other drivers'
grep -Eq '^[0-9]+ +[0-9A-F:]+ +0000:00:06.0 ' "$log" && { cat "$log"; fail "0000:00:06.0 taken"; }
echo "installed mlx5v_pci takes only the function opted in with mlx5v=1 OK"

# Open vSwitch with DPDK on the installed plugins (no -d): tests/testpmd/test_ovs_bridge.sh.
MLXV_SRC=$dir MLXV_BUILD=$dir sh "$dir/tests/testpmd/test_ovs_bridge.sh" installed >"$log" 2>&1
rc=$?
tail -3 "$log"
case $rc in
0) echo "OVS bridge on the installed plugins OK" ;;
77) echo "OVS bridge on the installed plugins skipped: $(grep SKIP "$log")" ;;
*) cat "$log"; fail "OVS bridge on the installed plugins" ;;
esac

# Remove, then purge: no file of ours is left (directories other packages share may stay).
for p in $pkgs; do
	dpkg -L "$p" | while read -r f; do
		[ -d "$f" ] && [ ! -L "$f" ] || echo "$f"
	done
done >"$dir/files"
[ -s "$dir/files" ] || fail "no files listed for the packages"
apt-get remove -y -q $pkgs >"$log" 2>&1 || { cat "$log"; fail "apt-get remove"; }
left=$(while read -r f; do [ ! -e "$f" ] && [ ! -L "$f" ] || echo "$f"; done <"$dir/files")
[ -z "$left" ] || fail "left after apt-get remove: $left"
# Our packages have no conffiles, so remove leaves nothing to purge: install them again and
# purge them from the installed state.
(cd "$dir" && apt-get install -y -q $(ls ./*.deb | grep -v dbgsym)) >"$log" 2>&1 ||
	{ cat "$log"; fail "apt-get install again"; }
apt-get purge -y -q $pkgs >"$log" 2>&1 || { cat "$log"; fail "apt-get purge"; }
left=$(while read -r f; do [ ! -e "$f" ] && [ ! -L "$f" ] || echo "$f"; done <"$dir/files")
[ -z "$left" ] || fail "left after apt-get purge: $left"
for p in $pkgs; do
	dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^.[^n]' &&
		fail "$p still known to dpkg after purge"
done
left=$(ls /var/lib/dpkg/info/dpdk-mlxv* "$pmds"/*mlx5v* "$pmds"/*mlx4v* "$pmds"/*hwsim* 2>/dev/null)
[ -z "$left" ] || fail "left after apt-get purge: $left"
echo "apt-get remove and purge leave none of our files OK"
