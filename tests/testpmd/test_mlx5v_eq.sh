#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The "mlx5v ..." DEVX EQ commands of our testpmd on the simulated ConnectX: MSI vectors,
# EQ create/list/show/poll/arm/destroy, GEN_EQE, simulator events and faults, the EAL
# interrupt callback path, and a clear error for every bad argument. Events come from
# GEN_EQE and simulator injection, and, in each part, also from sources that firmware
# raises on its own (GEN_EQE is unverified there, doc/guides/nics/running_on_hardware.rst):
# completions of a CQ bound to the EQ ("mlx5v cq create", CREATE_CQ through the general
# command) and PORT_CHANGE from the port's link going down and up ("mlx5v sim link").
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
out2=$(mktemp)
out3=$(mktemp)
fifo=$(mktemp -u)
bg_pid=
trap '[ -z "$bg_pid" ] || kill "$bg_pid" 2>/dev/null; rm -f "$out" "$out2" "$out3" "$fifo"' EXIT
dev=mlx5v_sim0
[ -x "$TESTPMD" ] || skip "no testpmd"

# expect_next FILE CMD REGEX: a "testpmd> CMD" prompt line (the echo ends in CR) is
# followed directly by a line matching REGEX: results and errors come out in order.
expect_next() {
	PROMPT="testpmd> $2" RE=$3 awk '{ sub(/\r$/, "") } p && $0 ~ ENVIRON["RE"] { f = 1 }
		{ p = $0 == ENVIRON["PROMPT"] } END { exit !f }' "$1" ||
		fail "expected /$3/ right after \"testpmd> $2\""
}

cmds="help drivers
mlx5v dev show $dev
mlx5v msi alloc $dev
mlx5v msi alloc $dev
mlx5v msi list $dev
mlx5v eq create $dev 6 0x210 1
mlx5v eq list $dev
mlx5v sim inject $dev 9 1
mlx5v eq show $dev 2
mlx5v eq poll $dev 2
mlx5v eq gen $dev 2 4 0
mlx5v eq poll $dev 2
mlx5v eq arm $dev 2
mlx5v eq show $dev 2
mlx5v cq create $dev 2 4
mlx5v sim cqe $dev 1
mlx5v eq poll $dev 2
mlx5v sim cqe $dev 1
mlx5v eq poll $dev 2
mlx5v cq poll $dev 1
mlx5v cq arm $dev 1
mlx5v sim cqe $dev 1
mlx5v eq poll $dev 2
mlx5v cq poll $dev 1
mlx5v sim link $dev down
mlx5v eq poll $dev 2
mlx5v sim link $dev up
mlx5v eq poll $dev 2
mlx5v cq destroy $dev 1
mlx5v msi free $dev 1
mlx5v sim fail $dev 0x302 3 0x77
mlx5v eq destroy $dev 2
mlx5v eq destroy $dev 2
mlx5v msi free $dev 1
mlx5v msi list $dev
mlx5v eq create $dev 6 zz 2
mlx5v eq create $dev 6 0x10 5
mlx5v eq create $dev 6 0x10 0
mlx5v eq create $dev 40 0x10 2
mlx5v eq create $dev abc 0x10 2
mlx5v eq show $dev 99
mlx5v eq poll nope 2
mlx5v msi free $dev 7
mlx5v eq gen $dev 2 300 0
mlx5v eq intr $dev 99 on
mlx5v sim fail $dev 0x301 0 1
mlx5v sim inject nope 9 1
mlx5v sim cqe $dev 5
mlx5v cq create $dev 2 9
mlx5v cq poll $dev 7
mlx5v cq destroy $dev 1
mlx5v sim fail $dev 0x301 8 0x1234
mlx5v eq create $dev 6 0 2
mlx5v msi free $dev 2
mlx5v eq list $dev
mlx5v dev show $dev
quit
"
# class=none: the net PMD would add its queues' CQs to the live counts checked below.
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=$dev,msix=8,class=none -- -i --total-num-mbufs=2048 ||
	fail "testpmd exited with $?"

# Every command is listed.
for c in 'mlx5v dev show' 'mlx5v msi alloc\|list' 'mlx5v msi free' 'mlx5v eq create' \
	'mlx5v eq destroy\|show\|poll\|arm' 'mlx5v eq list' 'mlx5v eq intr' 'mlx5v eq gen' \
	'mlx5v sim inject' 'mlx5v sim fail' 'mlx5v sim cqe' 'mlx5v cq create' \
	'mlx5v cq destroy\|poll\|arm'; do
	expect "$out" "^$c"
done
# Device state and per-opcode counters.
expect "$out" "$dev: stage 7, firmware"
expect "$out" "$dev: async EQ 1 on vector 0"
expect "$out" "$dev: CREATE_EQ +0x301 +[0-9]+"
# Vectors: lowest free first, listed.
expect "$out" "$dev: MSI vector 1 allocated, fd [0-9]+"
expect "$out" "$dev: MSI vector 2 allocated, fd [0-9]+"
expect "$out" "MSI vectors \(testpmd's\): 1\(fd [0-9]+, 0 EQ\) 2\(fd [0-9]+, 0 EQ\)"
# EQ life: create, list, an injected port event pending, poll prints it, GEN_EQE.
expect "$out" "$dev: EQ 2 created: 64 entries, vector 1, mask 0x210"
expect "$out" "$dev: 1 DEVX EQ\(s\)"
# The async EQ subscribes PORT_CHANGE too (the net class's link events): two EQs get it.
expect "$out" "event type 0x09 sub_type 0x01 written to 2 EQ\(s\)"
expect "$out" "EQ 2: consumer index 0 \(device 0\), producer 1, pending EQEs 1"
expect "$out" "EQ 2: EQE 0 type 0x09 PORT_CHANGE sub_type 0x01 port 1 DOWN"
expect "$out" "EQ 2: device wrote an EQE of type 0x04"
expect "$out" "EQ 2: EQE 1 type 0x04 CQ_ERROR"
expect "$out" "EQ 2: 1 EQE\(s\) consumed, consumer index 2, armed"
expect "$out" "EQ 2 armed at consumer index 2"
expect "$out" "EQ 2: state ARMED, status 0x0, 64 entries, vector 1"
expect "$out" "EQ 2: consumer index 2 \(device 2\), producer 2, pending EQEs 0"
# Completions of a CQ on EQ 2 (raw CREATE_CQ, armed): one event per arm, each re-arm with
# the next sequence number; then PORT_CHANGE from the link. No GEN_EQE, no injection.
expect "$out" "$dev: CQ 1 created: 16 CQEs, EQ 2, UAR [0-9]+"
expect "$out" "$dev: CQ 1 armed at consumer index 0, sn 0"
expect "$out" "EQ 2: EQE 2 type 0x00 COMP sub_type 0x00 cqn 1$"
expect "$out" "EQ 2: 0 EQE\(s\) consumed, consumer index 3, armed"
expect "$out" "$dev: CQ 1: 2 CQE\(s\) consumed, consumer index 2, 1 event\(s\)"
expect "$out" "$dev: CQ 1 armed at consumer index 2, sn 1"
expect "$out" "EQ 2: EQE 3 type 0x00 COMP sub_type 0x00 cqn 1$"
expect "$out" "$dev: CQ 1: 1 CQE\(s\) consumed, consumer index 3, 2 event\(s\)"
expect "$out" "EQ 2: EQE 4 type 0x09 PORT_CHANGE sub_type 0x01 port 1 DOWN"
expect "$out" "EQ 2: EQE 5 type 0x09 PORT_CHANGE sub_type 0x04 port 1 ACTIVE"
expect "$out" "$dev: CQ 1 destroyed"
expect "$out" "EQ 2: event mask 0x210, log_page_size 0, PAS 0x"
# A vector under a live EQ is busy; a failed destroy keeps the EQ; then both go.
expect "$out" "cannot free MSI vector 1: .*an EQ uses it"
expect "$out" "next DESTROY_EQ \(0x302\) answers status 0x3 syndrome 0x77"
expect "$out" "EQ 2: destroy failed: Invalid argument"
expect "$out" "$dev: EQ 2 destroyed"
expect "$out" "$dev: MSI vector 1 freed"
expect "$out" "MSI vectors \(testpmd's\): 2\(fd"
# Bad arguments: a clear error each.
expect "$out" 'event mask "zz" is not a hexadecimal number'
expect "$out" "vector 5 is not an allocated MSI vector"
expect "$out" "vector 0 is not an allocated MSI vector \(vector 0 is the driver's"
expect "$out" "log_size 40 out of range 1\.\.22"
expect "$out" "Bad arguments"
expect "$out" "$dev: no DEVX EQ 99"
expect "$out" 'no loaded mlx5v device named "nope"'
expect "$out" "MSI vector 7 was not allocated by testpmd"
expect "$out" "event type and sub_type are 8-bit values"
expect "$out" "opcode is 16 bits and status 1\.\.0xff"
expect "$out" '"nope" is not a simulated device'
expect "$out" "cannot post a CQE on CQ 5: no such CQ"
expect "$out" "CQ log_size 9 out of range 1\.\.6"
expect "$out" "$dev: no CQ 7 of testpmd's"
expect "$out" "$dev: no CQ 1 of testpmd's"
# An injected command failure reaches the caller as the device's status and syndrome.
expect "$out" "CREATE_EQ failed in the device: status 0x8 syndrome 0x00001234"
expect "$out" "$dev: MSI vector 2 freed"
expect "$out" "$dev: 0 DEVX EQ\(s\)"
expect "$out" "live EQ 1 CQ 0"
# Each result and each error follows its own command.
expect_next "$out" "mlx5v msi alloc $dev" "$dev: MSI vector 1 allocated"
expect_next "$out" "mlx5v eq create $dev 6 0x210 1" "$dev: EQ 2 created"
expect_next "$out" "mlx5v eq poll $dev 2" "EQ 2: EQE 0 type 0x09 PORT_CHANGE"
expect_next "$out" "mlx5v msi free $dev 1" "cannot free MSI vector 1: .*an EQ uses it"
expect_next "$out" "mlx5v eq destroy $dev 2" "$dev: EQ 2 destroyed"
expect_next "$out" "mlx5v eq create $dev 6 zz 2" 'event mask "zz" is not a hexadecimal'
expect_next "$out" "mlx5v eq show $dev 99" "$dev: no DEVX EQ 99"
expect_next "$out" "mlx5v sim cqe $dev 5" "cannot post a CQE on CQ 5: no such CQ"
expect_next "$out" "mlx5v cq create $dev 2 4" "$dev: CQ 1 created"
expect_next "$out" "mlx5v cq arm $dev 1" "$dev: CQ 1 armed at consumer index 2, sn 1"
expect_next "$out" "mlx5v sim link $dev down" "$dev: link down"
expect_next "$out" "mlx5v cq create $dev 2 9" "CQ log_size 9 out of range"
expect_next "$out" "mlx5v dev show $dev" "$dev: stage 7, firmware"
reject "$out" "still alive at removal"
reject "$out" "Segmentation|Assertion|PANIC"
expect "$out" '^Bye'

# The EAL interrupt callback path: the event arrives on the interrupt thread. The port's
# link state change events are off: the injected PORT_CHANGE would otherwise also make the
# net PMD read the link with commands from that thread, competing with the callback timed here.
(printf 'mlx5v msi alloc %s\nmlx5v eq create %s 5 0x200 1\nmlx5v eq intr %s 2 on\n' \
	"$dev" "$dev" "$dev"
 printf 'mlx5v sim inject %s 9 4\n' "$dev"
 sleep 1
 printf 'mlx5v eq show %s 2\nmlx5v eq intr %s 2 off\nmlx5v eq intr %s 2 off\n' \
	"$dev" "$dev" "$dev"
 printf 'mlx5v eq poll %s 2\nmlx5v eq destroy %s 2\nmlx5v msi free %s 1\nquit\n' \
	"$dev" "$dev" "$dev") |
	(cd / && timeout 60 "$TESTPMD" $EAL_BASE --vdev=$dev,msix=8 -- -i \
		--total-num-mbufs=2048 --no-lsc-interrupt) >"$out2" 2>&1 || fail "testpmd (interrupts) exited with $?"
cat "$out2"
expect "$out2" "EQ 2: EAL interrupt callback on vector 1 on"
expect "$out2" "EQ 2: EQE 0 type 0x09 PORT_CHANGE sub_type 0x04 port 1 ACTIVE"
expect "$out2" "EQ 2: consumed 1, polls [0-9]+, CI updates 0, arms [0-9]+, interrupts [1-9]"
expect "$out2" "EQ 2: EAL interrupt callback on vector 1 off"
expect "$out2" "interrupt callback stop failed: already off"
expect "$out2" "EQ 2: 0 EQE\(s\) consumed"
expect "$out2" "$dev: EQ 2 destroyed"
expect "$out2" "$dev: MSI vector 1 freed"
expect_next "$out2" "mlx5v eq intr $dev 2 on" "EQ 2: EAL interrupt callback on vector 1 on"
# The interrupt thread's EQE shows before the next command's prompt.
awk -v p="testpmd> mlx5v eq show $dev 2" '{ sub(/\r$/, "") } /EQ 2: EQE 0 type 0x09/ { e = 1 }
	$0 == p { exit !e }' "$out2" || fail "the interrupt thread's EQE came out late"
reject "$out2" "still alive at removal"
expect "$out2" '^Bye'

# The same interrupt path fed only by events firmware raises on its own: completions of a
# CQ bound to the EQ, then the link going down and up. Each EQE comes from the interrupt
# thread; the next command waits for it (bg_wait_log: no timing assertion).
mkfifo "$fifo"
(cd / && exec timeout 60 "$TESTPMD" $EAL_BASE --vdev=$dev,msix=8,class=none -- -i \
	--total-num-mbufs=2048) <"$fifo" >"$out3" 2>&1 &
bg_pid=$!
bg_out=$out3
exec 3>"$fifo"
send() {
	printf '%s\n' "$*" >&3
}
send "mlx5v msi alloc $dev"
send "mlx5v eq create $dev 5 0x200 1"
send "mlx5v eq intr $dev 2 on"
send "mlx5v cq create $dev 2 4"
send "mlx5v sim cqe $dev 1"
bg_wait_log "EQ 2: EQE 0 type 0x00 COMP sub_type 0x00 cqn 1$" 30
send "mlx5v cq poll $dev 1"
send "mlx5v cq arm $dev 1"
send "mlx5v sim cqe $dev 1"
bg_wait_log "EQ 2: EQE 1 type 0x00 COMP sub_type 0x00 cqn 1$" 30
send "mlx5v sim link $dev down"
bg_wait_log "EQ 2: EQE 2 type 0x09 PORT_CHANGE sub_type 0x01 port 1 DOWN" 30
send "mlx5v sim link $dev up"
bg_wait_log "EQ 2: EQE 3 type 0x09 PORT_CHANGE sub_type 0x04 port 1 ACTIVE" 30
send "mlx5v eq show $dev 2"
send "mlx5v eq intr $dev 2 off"
send "mlx5v cq destroy $dev 1"
send "mlx5v eq destroy $dev 2"
send "mlx5v msi free $dev 1"
send "mlx5v dev show $dev"
send quit
exec 3>&-
bg_finish
expect "$out3" "EQ 2: EAL interrupt callback on vector 1 on"
expect "$out3" "$dev: CQ 1 armed at consumer index 1, sn 1"
expect "$out3" "EQ 2: consumed 4, polls [0-9]+, CI updates [0-9]+, arms [0-9]+, interrupts [1-9]"
expect "$out3" "$dev: CQ 1 destroyed"
expect "$out3" "$dev: EQ 2 destroyed"
expect "$out3" "live EQ 1 CQ 0"
reject "$out3" "still alive at removal|driver bug"
expect "$out3" '^Bye'
echo "PASS"
