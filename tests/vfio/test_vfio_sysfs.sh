#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# dpdk-mlxv-vfio-run, step 1 (doc/guides/platform/vfio_emulation.rst): what an unmodified
# command sees of the emulated functions in sysfs and /dev/vfio, and the launcher's refusals.
set -u
RUN="$MLXV_BUILD/app/dpdk-mlxv-vfio-run"
fail=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

check() { # name expected actual
	if [ "$2" = "$3" ]; then
		echo "ok: $1"
	else
		echo "FAIL: $1: expected '$2', got '$3'"
		fail=1
	fi
}

# The default function: one PF at 0000:00:05.0, bound to vfio-pci, in its own group.
D=/sys/bus/pci/devices/0000:00:05.0
"$RUN" -- sh -c "ls /sys/bus/pci/devices; cat $D/vendor $D/device $D/class; \
	readlink $D/driver $D/iommu_group; ls /sys/kernel/iommu_groups/*/devices; ls /dev/vfio; \
	realpath $D; test -d /sys/module/vfio_pci && echo vfio_pci" >"$out" 2>"$err"
check "default run exits 0" 0 $?
check "sysfs and /dev/vfio" "0000:00:05.0
0x15b3
0x1017
0x020000
../../../bus/pci/drivers/vfio-pci
../../../kernel/iommu_groups/40
0000:00:05.0
40
vfio
/sys/devices/pci0000:00/0000:00:05.0
vfio_pci" "$(cat "$out")"
check "no stderr" "" "$(cat "$err")"

# Two functions, the second a VF: each in its own group, only they on the bus.
"$RUN" --dev 0000:03:00.1 --dev 0000:03:00.2,function=vf,msix=4 -- sh -c \
	'ls /sys/bus/pci/devices; cat /sys/bus/pci/devices/*/device; \
	 readlink /sys/bus/pci/devices/0000:03:00.2/iommu_group; \
	 ls /sys/bus/pci/drivers/vfio-pci' >"$out" 2>"$err"
check "two functions" "0000:03:00.1
0000:03:00.2
0x1017
0x1018
../../../kernel/iommu_groups/41
0000:03:00.1
0000:03:00.2" "$(cat "$out")"

# A path under an emulated prefix that does not exist: ENOENT, and named on stderr.
"$RUN" -- cat /sys/bus/pci/devices/0000:00:06.0/vendor >"$out" 2>"$err"
check "absent function fails" 1 $?
grep -q "mlxv-vfio: /sys/bus/pci/devices/0000:00:06.0/vendor: not emulated" "$err"
check "absent path named" 0 $?

# vfio_iommu_type1's dma_entry_limit: the default, and --dma-entry-limit.
L=/sys/module/vfio_iommu_type1/parameters/dma_entry_limit
check "dma_entry_limit" 65535 "$("$RUN" -- cat $L)"
check "--dma-entry-limit 7" 7 "$("$RUN" --dma-entry-limit 7 -- cat $L)"

# Refusals: exit 2 with a message naming what is wrong.
refuse() { # name pattern args...
	n=$1 pat=$2
	shift 2
	"$RUN" "$@" >"$out" 2>"$err"
	check "$n: exit 2" 2 $?
	grep -q -e "$pat" "$err"
	check "$n: message" 0 $?
}
refuse "bad BDF" "'0000:0:05.0' is not a PCI address" --dev 0000:0:05.0 -- true
refuse "upper-case BDF" "is not a PCI address" --dev 0000:00:0A.0 -- true
refuse "function 8" "is not a PCI address" --dev 0000:00:05.8 -- true
refuse "twice" "0000:00:05.0 given twice" --dev 0000:00:05.0 --dev 0000:00:05.0 -- true
refuse "bad devarg value" "bad simulator devargs 'msix=x'" --dev 0000:00:05.0,msix=x -- true
refuse "model refuses" "the model refuses 'msix=1'" --dev 0000:00:05.0,msix=1 -- true
refuse "unknown knob" "unknown knob" --dev 0000:00:05.0,no_such_knob=1 -- true
refuse "no command" "no COMMAND after '--'" --dev 0000:00:05.0 --
refuse "unknown option" "unknown option '--bogus'" --bogus -- true
refuse "missing --dev value" "missing value after '--dev'" --dev
refuse "bad --dma-entry-limit" "--dma-entry-limit 'x': expected a count" \
	--dma-entry-limit x -- true
"$RUN" -- /nonexistent/command >"$out" 2>"$err"
check "command not found: 127" 127 $?
exit $fail
