#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The mlx5v Ethernet PMD in testpmd on the simulated function: the port and its MAC,
# queue counts 1/2/4 with start/stop, the device's CQs and UARs back to the core's own after
# close, bad configurations refused with a clear error, the largest rings, link down, Rx
# filter commands, detach/attach, class=none, and Debian's testpmd loading our plugins with -d.
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
plugins=$(stage_plugins) || fail "cannot stage plugins"
trap 'rm -rf "$out" "$plugins"' EXIT
TP_ARGS="-- -i --total-num-mbufs=2048"

# The port, queue counts, cycles, then close: the simulator's live CQs and UARs are the
# core's own again (async EQ, its UAR), as before the port was configured.
cmds='mlx5v dev show mlx5v_sim0\nshow port info 0\n'
for q in 1 2 4; do
	cmds="${cmds}port stop 0\nport config all rxq $q\nport config all txq $q\n"
	cmds="${cmds}port start 0\nshow port info 0\nport stop 0\nport start 0\n"
done
cmds="${cmds}port stop 0\nport close 0\nmlx5v dev show mlx5v_sim0\nquit\n"
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx5v_sim0 $TP_ARGS --disable-device-start ||
	fail "testpmd failed"
expect "$out" '^MAC address: 02:5E:82:36:58:FD'
expect "$out" '^Driver name: mlx5v_sim'
expect "$out" '^Current number of RX queues: 4'
expect "$out" '^Current number of TX queues: 2'
reject "$out" 'Fail to|[a-z] failed'
before=$(grep -m1 'live EQ' "$out" | sed 's/.*live //; s/, link.*//')
after=$(grep 'live EQ' "$out" | tail -1 | sed 's/.*live //; s/, link.*//')
[ "$before" = "EQ 1 CQ 0 UAR 1" ] || fail "before configuration: live $before"
[ "$after" = "$before" ] || fail "after close: live $after, before: $before"

# Bad configurations: 17 queues, a ring that is not a power of two.
cmds='port stop 0\nport config all rxq 17\nport config all rxd 100\nport start 0\n'
cmds="${cmds}port config all rxd 256\nport config all txd 1000\nport start 0\nquit\n"
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx5v_sim0 $TP_ARGS
expect "$out" "rxq \(17\) can't be greater than max_rx_queues \(16\)"
expect "$out" 'Rx queue 0: 100 descriptors, a power of two up to 32768 is required'
expect "$out" 'Tx queue 0: 1000 descriptors, a power of two up to 32768 is required'

# The largest rings, more than a 2 MiB hugepage each with their doorbell page: 32768 Tx
# WQEBBs (2 MiB), 16384 Rx WQEs of 16 data segments (4 MiB, scatter over 128-byte buffers).
# In the IOVA-as-PA run (fragmented pool) they are not IOVA-contiguous: the device reaches
# them page by page (doc/guides/nics/running_on_hardware.rst, "IOVA modes").
cmds='start tx_first\nstop\nquit\n'
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx5v_sim0,wire=loop -- -i --txd=32768 --rxd=16384 \
	--mbuf-size=256 --enable-scatter --total-num-mbufs=280000 || fail "testpmd failed"
expect "$out" 'RX desc=16384 '
expect "$out" 'TX desc=32768 '
grep -Eq 'RX-packets: *[1-9]' "$out" || fail "nothing received on the largest rings"
reject "$out" 'Fail|[a-z] failed|net_mlx5v: '

# Link, Rx filters, MTU.
cmds='set link-down port 0\nshow port info 0\nset link-up port 0\nshow port info 0\n'
cmds="${cmds}set promisc 0 on\nset allmulti 0 on\nmac_addr add 0 02:00:00:00:00:55\n"
cmds="${cmds}show port info 0\nmac_addr remove 0 02:00:00:00:00:55\nset promisc 0 off\n"
cmds="${cmds}port config mtu 0 9000\nshow port info 0\nquit\n"
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx5v_sim0 $TP_ARGS || fail "testpmd failed"
expect "$out" '^Link status: down'
expect "$out" '^Link status: up'
expect "$out" '^Promiscuous mode: enabled'
expect "$out" '^Allmulticast mode: enabled'
expect "$out" '^MTU: 9000'
reject "$out" 'Fail|[a-z] failed|Bad arguments|net_mlx5v: '

# Detach and attach again; class=none gives no port.
cmds='port stop 0\nport close 0\ndevice detach mlx5v_sim0\nport attach mlx5v_sim0\n'
cmds="${cmds}show port summary all\nquit\n"
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx5v_sim0 $TP_ARGS || fail "testpmd failed"
expect "$out" 'Device .*mlx5v_sim0.* is detached'
expect "$out" 'Port 0 is attached'
expect "$out" '^0 +02:5E:82:36:58:FD +mlx5v_sim0'
run_testpmd "$out" 'show port summary all\nquit\n' $EAL_BASE --vdev=mlx5v_sim0,class=none \
	$TP_ARGS
expect "$out" 'No probed ethernet devices|Number of available ports: 0'

# Debian's testpmd with our plugins shows the port.
printf 'show port summary all\nquit\n' |
	(cd / && timeout 60 /usr/bin/dpdk-testpmd -d "$plugins" $EAL_BASE --vdev=mlx5v_sim0 \
		-- -i --total-num-mbufs=2048) >"$out" 2>&1 || { cat "$out"; fail "Debian's testpmd"; }
cat "$out"
expect "$out" '02:5E:82:36:58:FD +mlx5v_sim0'
