#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Our testpmd with net_mlx4v on the rdma-core backend (libibverbs and libmlx4) on an emulated
# ConnectX-3 of two ports under dpdk-mlxv-verbs-run (doc/guides/platform/verbs_emulation.rst,
# "net_mlx4v on the rdma-core backend"): "-a <BDF>,mlx4v=1" probes one ethdev per port, each
# with its MAC from the port's mlx4_en netdev (sysfs) and its link from the verbs port; the
# cable of each port pulled and plugged back reaches testpmd as link state change events
# (ibv_get_async_event() in the EAL interrupt thread) with the link read back down, then up.
# Then the two ports cabled to each other: io forwarding through both, testpmd's link-down
# and link-up of a port through its netdev (both ends of the cable follow), a new MTU.
# The forwarding runs on this kind are test_fwd.sh, test_net_intr.sh and test_l3fwd_power.sh
# with the port kind "verbs" (tests/testpmd/lib.sh).
. "$MLXV_SRC/tests/testpmd/lib.sh"
[ -x "$TESTPMD" ] || skip "no testpmd"
bdf=0000:01:00.0
mac=02:C9:0A:0B:0C:01
tmp=$(mktemp -d)
bg_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$bg_pid" ] && kill "$bg_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkfifo "$tmp/in"
bg_out=$tmp/testpmd.log
(cd / && exec timeout 120 stdbuf -oL "$VERBS_RUN" --dev "$bdf,mac=$mac" -- "$TESTPMD" \
	$(sim_eal verbs 256) -l 0-1 -a "$bdf,mlx4v=1" -- -i --total-num-mbufs=4096) \
	<"$tmp/in" >"$bg_out" 2>&1 &
bg_pid=$!
exec 3>"$tmp/in"

lsc0="Port 0: link state change event"
lsc1="Port 1: link state change event"
printf 'show port info all\n' >&3
bg_wait_log "Infos for port 1" 60
for p in 1 2; do
	printf 'mlx4v sim link verbs-%s %d down\n' "$bdf" "$p" >&3
	bg_wait_log "Port $((p - 1)): link state change event" 60 1
	printf 'show port info %d\n' $((p - 1)) >&3
	bg_wait_log "Link status: down" 60 "$p"
	printf 'mlx4v sim link verbs-%s %d up\n' "$bdf" "$p" >&3
	bg_wait_log "Port $((p - 1)): link state change event" 60 2
done
printf 'show port info all\n' >&3
bg_wait_log "Infos for port 1" 60 2
printf 'quit\n' >&3
exec 3>&-
bg_finish
o=$bg_out
# Both ports of the function, in port order, on the rdma-core backend's PCI driver.
devs=$(grep -Eo 'Device name: .*' "$o" | head -2 | tr '\n' ';')
[ "$devs" = "Device name: $bdf port 1;Device name: $bdf port 2;" ] ||
	fail "the ports are on $devs"
expect "$o" "Driver name: mlx4v_pci"
# The MACs of the ports' netdevs, none made up.
[ "$(grep -m1 'MAC address:' "$o" | awk '{ print $3 }')" = "$mac" ] ||
	fail "port 0's MAC is not the netdev's $mac"
reject "$o" "gives no MAC|kernel interface stays down"
[ "$(grep -c "$lsc0" "$o")" -eq 2 ] || fail "port 0: not two link state change events"
[ "$(grep -c "$lsc1" "$o")" -eq 2 ] || fail "port 1: not two link state change events"
# Down then up again, for each port, as the last dump shows.
[ "$(grep -c 'Link status: up' "$o")" -ge 4 ] || fail "the links did not come back up"
reject "$o" "Segmentation|Assertion|PANIC"
# Everything the backend asks of the netdevs is answered.
reject "$o" "ioctl.*not emulated"
expect "$o" '^Bye'

# The two ports cabled to each other: io forwarding through both (port 2's queues too);
# "set link-down" of port 0 closes its port through the netdev (IFF_UP), which takes the
# cable down at both ends, and "set link-up" opens it again; a new MTU at the next start.
bg_out=$tmp/pair.log
(cd / && exec timeout 120 stdbuf -oL "$VERBS_RUN" \
	--dev "$bdf,wire1=pair:verbs-$bdf.2,wire2=pair:verbs-$bdf.1" -- "$TESTPMD" \
	$(sim_eal verbs 256) -l 0-1 -a "$bdf,mlx4v=1" -- -i --total-num-mbufs=8192 \
	--forward-mode=io) <"$tmp/in" >"$bg_out" 2>&1 &
bg_pid=$!
exec 3>"$tmp/in"
printf 'start tx_first\n' >&3
bg_wait_log "io packet forwarding" 60
# Both ports forward once port 0 received (tx_first sends from both): a stop right after the
# start could come before any frame went round.
bg_forwarding "after start tx_first"
printf 'stop\n' >&3
bg_wait_log "Accumulated forward statistics" 60
printf 'set link-down port 0\n' >&3
bg_wait_log "$lsc1" 60 1
printf 'show port info 1\nset link-up port 0\n' >&3
bg_wait_log "$lsc1" 60 2
printf 'show port info 1\nport stop all\nport config mtu 0 1400\nport start all\n' >&3
printf 'show port info 0\n' >&3
bg_wait_log "MTU: 1400" 60
printf 'quit\n' >&3
exec 3>&-
bg_finish
o=$bg_out
# Each port received and sent frames, none in error.
for p in 0 1; do
	awk -v p="$p" '/Forward statistics for port/ { cur = $(NF - 1) }
		cur == p && /RX-packets:/ { rx = $2 } cur == p && /TX-packets:/ { tx = $2 }
		END { exit !(rx > 0 && tx > 0) }' "$o" || fail "port $p did not forward"
done
reject "$o" "RX-errors: [1-9]|TX-errors: [1-9]|Fail to|failed"
[ "$(grep -c "$lsc0" "$o")" -eq 2 ] || fail "port 0: not two link state change events"
[ "$(grep -c 'Link status: down' "$o")" -eq 1 ] || fail "port 1 did not go down with port 0"
reject "$o" "Segmentation|Assertion|PANIC|ioctl.*not emulated"
expect "$o" '^Bye'
echo "PASS"
