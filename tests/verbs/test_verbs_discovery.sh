#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# dpdk-mlxv-verbs-run, step 1 (doc/guides/platform/verbs_emulation.rst): rdma-core's own
# tools, unmodified, discover the emulated ConnectX-3 through sysfs and speak the uverbs write
# ABI to it; what the command sees in sysfs; the launcher's refusals.
set -u
RUN="$MLXV_BUILD/app/dpdk-mlxv-verbs-run"
fail=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

. "$(dirname "$0")/lib.sh"

if ! command -v ibv_devices >/dev/null || ! command -v ibv_devinfo >/dev/null; then
	echo "SKIP: ibverbs-utils is not installed (devtools/setup.sh)"
	exit 77
fi

# ibv_devices: libibverbs discovers mlx4_0 (netlink refused, sysfs) and matches libmlx4.
"$RUN" -- ibv_devices >"$out" 2>"$err"
check "ibv_devices exits 0" 0 $?
check "ibv_devices lists mlx4_0" "mlx4_0 0002c9030000b2c0" \
	"$(awk '$1 ~ /^mlx4_/ { print $1, $2 }' "$out")"
check "ibv_devices: no stderr" "" "$(cat "$err")"

# ibv_devinfo: get_context, query_device(_ex), query_port over the write ABI; two ports.
"$RUN" -- ibv_devinfo >"$out" 2>"$err"
check "ibv_devinfo exits 0" 0 $?
check "ibv_devinfo: the device" "mlx4_0 0x02c9 4103 2" \
	"$(awk '/hca_id:/ { h = $2 } /vendor_id:/ { v = $2 } /vendor_part_id:/ { p = $2 }
		/phys_port_cnt:/ { n = $2 } END { print h, v, p, n }' "$out")"
check "ibv_devinfo: two Ethernet ports, active" "1 PORT_ACTIVE Ethernet
2 PORT_ACTIVE Ethernet" \
	"$(awk '/port:/ { p = $2 } /state:/ && !/phys/ { s = $2 }
		/link_layer:/ { print p, s, $2 }' "$out")"
check "ibv_devinfo: no stderr" "" "$(cat "$err")"

# A port without cable (the model's wire2=none): DOWN in query_port and in sysfs.
"$RUN" --dev 0000:00:06.0,wire2=none -- ibv_devinfo -i 2 >"$out" 2>"$err"
check "port 2 without link" "PORT_DOWN" "$(awk '/state:/ && !/phys/ { print $2 }' "$out")"

# One port (ports=1), two functions: mlx4_0 and mlx4_1, each on its BDF.
"$RUN" --dev 0000:03:00.0 --dev 0000:04:00.0,ports=1 -- ibv_devinfo -l >"$out" 2>"$err"
check "two functions" "2 HCAs found:
mlx4_0
mlx4_1" "$(sed 's/^[[:space:]]*//' "$out")"
"$RUN" --dev 0000:03:00.0 --dev 0000:04:00.0,ports=1 -- ibv_devinfo -d mlx4_1 >"$out" 2>&1
check "ports=1 gives one port" "1" "$(awk '/phys_port_cnt:/ { print $2 }' "$out")"

# sysfs as mlx4_core, mlx4_ib and mlx4_en leave it.
D=/sys/class/infiniband/mlx4_0
"$RUN" -- sh -c "ls /sys/class/infiniband; ls /sys/class/infiniband_verbs; \
	cat /sys/class/infiniband_verbs/abi_version /sys/class/infiniband_verbs/uverbs0/ibdev \
	/sys/class/infiniband_verbs/uverbs0/dev $D/device/vendor $D/device/device; \
	readlink $D/device/driver; ls $D/device/net; cat $D/device/net/*/dev_port; \
	realpath $D/device; ls /dev/infiniband" >"$out" 2>"$err"
check "sysfs" "mlx4_0
abi_version
uverbs0
6
mlx4_0
231:192
0x15b3
0x1007
../../../bus/pci/drivers/mlx4_core
enp0s6
enp0s6d1
0
1
/sys/devices/pci0000:00/0000:00:06.0
uverbs0" "$(cat "$out")"
check "sysfs: no stderr" "" "$(cat "$err")"

# The launcher's refusals: exit status 2, a message naming what is wrong.
"$RUN" --dev 0000:00:6.0 -- true 2>"$err"
check "bad BDF refused" 2 $?
grep -q "is not a PCI address" "$err"
check "bad BDF named" 0 $?
"$RUN" --dev 0000:00:06.0,ports=9 -- true 2>"$err"
check "devargs the model refuses" 2 $?
"$RUN" --dev 0000:00:06.0 --dev 0000:00:06.0 -- true 2>"$err"
check "BDF given twice" 2 $?
"$RUN" -- 2>"$err"
check "no command" 2 $?
"$RUN" -- /nonexistent/command 2>"$err"
check "command not found" 127 $?

exit $fail
