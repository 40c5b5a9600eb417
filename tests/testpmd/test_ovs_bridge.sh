#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Open vSwitch with DPDK (Debian's openvswitch-switch-dpdk, unmodified) on our ports: an
# ovsdb-server and ovs-vswitchd-dpdk of the test's own (database, sockets, logs and pid files in
# a private run directory), on 2 MiB hugepages mounted in a mount namespace of the daemon's own,
# with our build tree's plugins given by "-d" in other_config:dpdk-extra and two simulated
# devices wired to TAP interfaces: mlx5v_sim0 (a port named by its vdev, dpdk-devargs=mlx5v_sim0)
# and port 1 of the two-port mlx4v_sim0 (named by its MAC, dpdk-devargs=class=eth,mac=..., the
# form OVS documents for a device of several ports). Both join a netdev bridge; each TAP is moved
# into a network namespace of its own, and ping goes from one to the other across the bridge.
# ovs-vsctl then reads what OVS learnt from our PMDs: link_state, the MTU given by mtu_request,
# the receive queues of options:n_rxq, the driver's name and the interface statistics.
# doc/guides/howto/ovs.rst.
#
# With MLXV_OVS_HW_OFFLOAD=1 (the test ovs_offload), other_config:hw-offload=true: OVS's
# partial offload puts a MARK + RSS rte_flow rule on each port per datapath flow. On p0
# (net_mlx5v) the ping's IPv4 flow must show "offloaded:partial" in dpctl/dump-flows -m while
# the ping goes on; on p1 (net_mlx4v, no MARK) the rules are refused and OVS keeps the flows
# in software (none "offloaded"), the traffic flowing the same.
#
# usage: test_ovs_bridge.sh [PLUGIN_DIR|installed]
#   PLUGIN_DIR  a private directory of our plugins, given with -d (default: the build tree's
#               drivers, staged privately); "installed": no -d, the plugins of the Debian
#               packages in DPDK's plugin directory (tests/deb/in_root.sh)
# Skips (77) without root, TUN, network namespaces, hugepages or Debian's OVS with DPDK.

. "$MLXV_SRC/tests/testpmd/lib.sh"

VSWITCHD=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
HUGE_SYS=/sys/kernel/mm/hugepages/hugepages-2048kB
NPAGES=384
[ "$(id -u)" = 0 ] || skip "needs root (hugepages, TAP interfaces, namespaces)"
[ -x "$VSWITCHD" ] || skip "no $VSWITCHD (Debian package openvswitch-switch-dpdk)"
for t in ovsdb-server ovsdb-tool ovs-vsctl ovs-appctl ip ping unshare flock; do
	command -v $t >/dev/null || skip "no $t"
done
[ -f "$SCHEMA" ] || skip "no $SCHEMA"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
[ -w $HUGE_SYS/nr_hugepages ] || skip "no writable $HUGE_SYS/nr_hugepages"

ns1=mlxvoa$$
ns2=mlxvob$$
tap1=mlxvoa$$
tap2=mlxvob$$
prefix=mlxvovs$$
mac4=02:00:00:4f:00:01
work=
plugins=
db_pid=
sw_pid=
ping_pid=
old_pages=
cleanup() {
	[ -z "$ping_pid" ] || kill "$ping_pid" 2>/dev/null
	[ -z "$sw_pid" ] || kill "$sw_pid" 2>/dev/null
	[ -z "$db_pid" ] || kill "$db_pid" 2>/dev/null
	for _p in $sw_pid $db_pid; do
		_n=0
		while kill -0 "$_p" 2>/dev/null && [ $_n -lt 100 ]; do
			_n=$((_n + 1))
			sleep 0.1
		done
		kill -9 "$_p" 2>/dev/null
	done
	ip netns delete "$ns1" 2>/dev/null
	ip netns delete "$ns2" 2>/dev/null
	rm -rf "/var/run/dpdk/$prefix"
	[ -z "$old_pages" ] || echo "$old_pages" >$HUGE_SYS/nr_hugepages
	[ -z "$work" ] || rm -rf "$work"
	[ -z "$plugins" ] || [ -n "${1:-}" ] || rm -rf "$plugins"
}
trap 'cleanup "$plugin_arg"' EXIT
trap 'exit 130' INT TERM
plugin_arg=${1:-}

work=$(mktemp -d) || fail "mktemp"
if [ "$plugin_arg" = installed ]; then
	plugins=
elif [ -n "$plugin_arg" ]; then
	plugins=$plugin_arg
else
	plugins=$(stage_plugins) || fail "cannot stage the plugins"
fi

# Hugepages: one user of the pool at a time (the lock is the sysfs file, as in
# devtools/hugepage-pa.sh), the count restored on exit.
exec 9<$HUGE_SYS/nr_hugepages
flock 9
old_pages=$(cat $HUGE_SYS/nr_hugepages)
echo $((old_pages + NPAGES)) >$HUGE_SYS/nr_hugepages 2>/dev/null
[ "$(cat $HUGE_SYS/nr_hugepages)" -ge $((old_pages + NPAGES)) ] ||
	skip "the kernel gave fewer than $NPAGES hugepages"

ip netns add "$ns1" 2>/dev/null || skip "cannot create a network namespace"
ip netns add "$ns2" || fail "cannot create a second network namespace"

# The daemons' files, all in the private run directory: never the system's.
export OVS_RUNDIR="$work" OVS_LOGDIR="$work" OVS_DBDIR="$work" OVS_SYSCONFDIR="$work"
db=unix:$work/db.sock
vsctl() {
	timeout 30 ovs-vsctl --db="$db" --timeout=20 "$@"
}
ovsdb-tool create "$work/conf.db" "$SCHEMA" || fail "ovsdb-tool create"
ovsdb-server "$work/conf.db" --remote="punix:$work/db.sock" --unixctl="$work/ovsdb.ctl" \
	--pidfile="$work/ovsdb.pid" --log-file="$work/ovsdb.log" >/dev/null 2>&1 &
db_pid=$!
_n=0
until [ -S "$work/db.sock" ]; do
	kill -0 $db_pid 2>/dev/null || { cat "$work/ovsdb.log"; fail "ovsdb-server exited"; }
	_n=$((_n + 1))
	[ $_n -lt 100 ] || fail "no ovsdb-server socket"
	sleep 0.1
done
vsctl --no-wait init || fail "ovs-vsctl init"

# DPDK: our plugins by -d, the two devices with their TAP wires, the hugepages of the daemon's
# mount (below), a file prefix of the test's own; one PMD thread, sleeping when idle.
huge=$work/huge
mkdir "$huge" || fail "mkdir"
extra="--file-prefix=$prefix --huge-dir=$huge --no-pci${plugins:+ -d $plugins}"
extra="$extra --vdev=mlx5v_sim0,wire=tap:$tap1 --vdev=mlx4v_sim0,ports=2,mac=$mac4,wire1=tap:$tap2"
vsctl --no-wait set Open_vSwitch . other_config:dpdk-init=true \
	"other_config:dpdk-extra=\"$extra\"" other_config:dpdk-socket-mem=512 \
	other_config:dpdk-socket-limit=640 other_config:pmd-cpu-mask=0x1 \
	other_config:pmd-maxsleep=1000 || fail "ovs-vsctl set other_config"
offload=${MLXV_OVS_HW_OFFLOAD:-0}
if [ "$offload" = 1 ]; then
	vsctl --no-wait set Open_vSwitch . other_config:hw-offload=true ||
		fail "ovs-vsctl set other_config:hw-offload"
fi

# The hugetlbfs mount lives in the daemon's own mount namespace and goes with it.
unshare -m sh -c 'mount --make-rprivate / && mount -t hugetlbfs -o pagesize=2M,mode=0700 \
	nodev "$1" && shift && exec "$@"' sh "$huge" "$VSWITCHD" "$db" \
	--unixctl="$work/vswitchd.ctl" --pidfile="$work/vswitchd.pid" \
	--log-file="$work/vswitchd.log" >"$work/vswitchd.out" 2>&1 &
sw_pid=$!
show_logs() {
	cat "$work/vswitchd.out" "$work/vswitchd.log" 2>/dev/null | tail -60
}
_n=0
until [ "$(vsctl get Open_vSwitch . dpdk_initialized 2>/dev/null)" = true ]; do
	kill -0 $sw_pid 2>/dev/null || { show_logs; fail "ovs-vswitchd exited"; }
	_n=$((_n + 1))
	[ $_n -lt 300 ] || { show_logs; fail "DPDK not initialized in ovs-vswitchd"; }
	sleep 0.1
done

vsctl add-br br0 -- set bridge br0 datapath_type=netdev \
	-- add-port br0 p0 -- set Interface p0 type=dpdk options:dpdk-devargs=mlx5v_sim0 \
		options:n_rxq=2 mtu_request=1400 \
	-- add-port br0 p1 -- set Interface p1 type=dpdk "options:dpdk-devargs=class=eth,mac=$mac4" \
		mtu_request=1400 || { show_logs; fail "ovs-vsctl add-br/add-port"; }
for p in p0 p1; do
	err=$(vsctl get Interface $p error 2>/dev/null)
	[ -z "$err" ] || [ "$err" = '[]' ] || { show_logs; fail "interface $p: $err"; }
	[ "$(vsctl get Interface $p ofport)" -gt 0 ] 2>/dev/null || { show_logs; fail "$p has no ofport"; }
done

# The wires' TAPs, created by the simulators in this namespace, go to the two peers.
for t in $tap1 $tap2; do
	ip link show "$t" >/dev/null 2>&1 || { show_logs; fail "no TAP $t"; }
done
ip link set "$tap1" netns "$ns1" || fail "cannot move $tap1"
ip link set "$tap2" netns "$ns2" || fail "cannot move $tap2"
ip netns exec "$ns1" sysctl -qw "net.ipv6.conf.$tap1.disable_ipv6=1" 2>/dev/null
ip netns exec "$ns2" sysctl -qw "net.ipv6.conf.$tap2.disable_ipv6=1" 2>/dev/null
ip -n "$ns1" link set "$tap1" mtu 1400 up || fail "$tap1 up"
ip -n "$ns2" link set "$tap2" mtu 1400 up || fail "$tap2 up"
ip -n "$ns1" addr add 10.79.0.1/24 dev "$tap1" || fail "address on $tap1"
ip -n "$ns2" addr add 10.79.0.2/24 dev "$tap2" || fail "address on $tap2"

_n=0
until [ "$(vsctl get Interface p0 link_state)" = up ] &&
	[ "$(vsctl get Interface p1 link_state)" = up ]; do
	_n=$((_n + 1))
	[ $_n -lt 100 ] || { vsctl list Interface; show_logs; fail "link_state not up"; }
	sleep 0.1
done

# Across the bridge (action NORMAL: MAC learning), full-size frames for the MTU included.
_n=0
until ip netns exec "$ns1" ping -c 1 -W 1 10.79.0.2 >"$work/ping" 2>&1; do
	_n=$((_n + 1))
	[ $_n -lt 20 ] || { cat "$work/ping"; show_logs; fail "no ping across the OVS bridge"; }
done
ip netns exec "$ns1" ping -c 5 -i 0.2 -W 1 -s 1372 -M do 10.79.0.2 >"$work/ping" 2>&1 ||
	{ cat "$work/ping"; show_logs; fail "no 1400-byte ping across the OVS bridge"; }
cat "$work/ping"

# Offload: the IPv4 flow from p0 offloaded (its rule made by net_mlx5v) while a ping runs,
# nothing from p1 offloaded; the ping answered throughout.
if [ "$offload" = 1 ]; then
	appctl() {
		timeout 30 ovs-appctl -t "$work/vswitchd.ctl" "$@"
	}
	ip netns exec "$ns1" ping -c 25 -i 0.2 -W 1 10.79.0.2 >"$work/ping2" 2>&1 &
	ping_pid=$!
	_n=0
	until appctl dpctl/dump-flows -m >"$work/flows" &&
		grep -q 'in_port(p0).*eth_type(0x0800).*offloaded:partial' "$work/flows"; do
		_n=$((_n + 1))
		[ $_n -lt 100 ] || { cat "$work/flows"; show_logs; fail "p0's flow not offloaded"; }
		sleep 0.1
	done
	wait $ping_pid || { cat "$work/ping2"; show_logs; fail "no ping with offloaded flows"; }
	ping_pid=
	appctl dpctl/dump-flows -m >"$work/flows" || fail "ovs-appctl dpctl/dump-flows"
	cat "$work/flows"
	reject "$work/flows" 'in_port\(p1\).*offloaded'
	expect "$work/vswitchd.log" 'p1: rte_flow creation failed'
	echo "p0's flow offloaded (partial), p1's in software"
fi

# What OVS read from our PMDs.
for p in p0 p1; do
	[ "$(vsctl get Interface $p mtu)" = 1400 ] ||
		fail "$p: mtu $(vsctl get Interface $p mtu), mtu_request was 1400"
done
vsctl get Interface p0 status | grep -q 'driver_name=mlx5v_sim' ||
	fail "p0 status: $(vsctl get Interface p0 status)"
vsctl get Interface p1 status | grep -q 'driver_name=mlx4v_sim' ||
	fail "p1 status: $(vsctl get Interface p1 status)"
timeout 30 ovs-appctl -t "$work/vswitchd.ctl" dpif-netdev/pmd-rxq-show >"$work/rxq" ||
	fail "ovs-appctl dpif-netdev/pmd-rxq-show"
cat "$work/rxq"
grep -q 'port: p0 *queue-id: *1 ' "$work/rxq" || fail "no receive queue 1 of p0 polled"
# The statistics reach the database every 5 s (other_config:stats-update-interval).
_n=0
while :; do
	rx0=$(vsctl get Interface p0 statistics:rx_packets 2>/dev/null)
	tx0=$(vsctl get Interface p0 statistics:tx_packets 2>/dev/null)
	rx1=$(vsctl get Interface p1 statistics:rx_packets 2>/dev/null)
	tx1=$(vsctl get Interface p1 statistics:tx_packets 2>/dev/null)
	[ "${rx0:-0}" -ge 6 ] && [ "${tx0:-0}" -ge 6 ] && [ "${rx1:-0}" -ge 6 ] &&
		[ "${tx1:-0}" -ge 6 ] && break
	_n=$((_n + 1))
	[ $_n -lt 150 ] || fail "statistics: p0 rx $rx0 tx $tx0, p1 rx $rx1 tx $tx1 (6 pings each way)"
	sleep 0.1
done
echo "statistics: p0 rx $rx0 tx $tx0, p1 rx $rx1 tx $tx1"

vsctl del-br br0 || fail "ovs-vsctl del-br"
timeout 30 ovs-appctl -t "$work/vswitchd.ctl" exit || fail "ovs-appctl exit"
_n=0
while kill -0 $sw_pid 2>/dev/null; do
	_n=$((_n + 1))
	[ $_n -lt 300 ] || { show_logs; fail "ovs-vswitchd did not exit"; }
	sleep 0.1
done
wait $sw_pid || { show_logs; fail "ovs-vswitchd exited with $?"; }
sw_pid=
reject "$work/vswitchd.log" 'Segmentation|EMER'
echo "OVS bridge between a mlx5v_sim and a mlx4v_sim port OK"
