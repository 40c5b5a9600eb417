#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# The "mlx4v ..." testpmd commands on the simulated ConnectX-3: create every kind
# of object, print every field of the four views, move packets through the views
# (own RQ, SRQ, RWQ, paired ports), arm and take a completion event, an error CQE
# and its recovery, fault knobs, every error path, and a clean teardown with no
# object left in the device model.
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

cmds='help drivers
mlx4v open nosuchdev0
mlx4v pd create 0
mlx4v open mlx4v_sim0
mlx4v pd create 7
mlx4v pd create 0
mlx4v mr create 0 4096
mlx4v mr create 0 0
mlx4v mr create 9 4096
mlx4v cq create 0 64 0 1
mlx4v cq create 0 63 64 0
mlx4v cq create 0 64 48 0
mlx4v cq create 0 64 0 2
mlx4v cq create 0 0 0 0
mlx4v srq create 0 32 1
mlx4v srq create 0 100000 1
mlx4v qp create 0 0 0 1 64 16
mlx4v qp create 0 1 1 1 16 srq 0
mlx4v qp create 0 9 0 1 64 16
mlx4v qp create 0 0 0 0 64 16
mlx4v qp create 0 0 0 1 64 srq 5
mlx4v wq create 0 1 1 64 1
mlx4v wq create 0 1 1 100000 1
mlx4v wq create 0 1 0 64 1
mlx4v view qp 0
mlx4v view qp 1
mlx4v view cq 0
mlx4v view cq 1
mlx4v view srq 0
mlx4v view rwq 0
mlx4v view qp 7
mlx4v view rwq 31
mlx4v view cq 32
mlx4v qp modify 0 init
mlx4v qp modify 0 rtr
mlx4v qp modify 0 rts
mlx4v qp modify 0 rtr
mlx4v qp modify 0 bogus
mlx4v qp modify 1 init
mlx4v qp modify 1 rtr
mlx4v qp modify 1 rts
mlx4v wq modify 0 rts
mlx4v wq modify 0 rdy
mlx4v rss create 0 0 0 1
mlx4v rss create 0 30 0 1
mlx4v qp modify 2 init
mlx4v qp modify 2 rtr
mlx4v qp modify 2 rts
mlx4v send 2 64
mlx4v flow create 0 1 mac 02:00:00:4d:34:00
mlx4v flow create 1 1 mac 02:00:00:4d:34:00
mlx4v flow create 2 1 mac 02:00:00:4d:34:00
mlx4v flow create 2 2 promisc
mlx4v flow create 9 1 allmulti
mlx4v wq destroy 0
mlx4v poll 0
mlx4v post qp 0 1
mlx4v send 0 64
mlx4v poll 0
mlx4v post srq 0 1
mlx4v send 0 100
mlx4v poll 1
mlx4v poll 0
mlx4v post rwq 0 1
mlx4v send 0 200
mlx4v poll 1
mlx4v poll 0
mlx4v send 0 60
mlx4v poll 0
mlx4v post qp 1 1
mlx4v post rwq 0 1000
mlx4v post srq 9 1
mlx4v send 9 64
mlx4v send 0 10
mlx4v send 0 4096
mlx4v send 0 64 1000
mlx4v send nonsense 64
mlx4v arm 0
mlx4v send 0 64 2
mlx4v event 0
mlx4v event 0
mlx4v poll 0
mlx4v arm 1
mlx4v event 1
mlx4v poll 9
mlx4v sim show mlx4v_sim0
mlx4v send 0 64 1 lkey 0x12345
mlx4v poll 0
mlx4v send 0 64
mlx4v poll 0
mlx4v qp modify 0 reset
mlx4v qp modify 0 init
mlx4v qp modify 0 rtr
mlx4v qp modify 0 rts
mlx4v send 0 64
mlx4v poll 0
mlx4v list
mlx4v qp destroy 2
mlx4v flow destroy 2
mlx4v flow destroy 1
mlx4v flow destroy 0
mlx4v flow destroy 0
mlx4v qp destroy 2
mlx4v sim knob mlx4v_sim0 fail_create_cq 1
mlx4v cq create 0 16 0 0
mlx4v sim knob mlx4v_sim0 no_such_knob 1
mlx4v sim knob mlx4v_sim0 strict_cqe_owner 7
mlx4v sim show nosuchdev0
mlx4v list
mlx4v pd destroy 0
mlx4v cq destroy 0
mlx4v srq destroy 0
mlx4v close 0
mlx4v open mlx4v_sim1
mlx4v pd create 1
mlx4v cq create 1 16 0 0
mlx4v qp create 1 2 2 1 16 1
mlx4v wq create 1 2 2 16 1
mlx4v qp modify 2 init
mlx4v qp modify 2 rtr
mlx4v qp modify 2 rts
mlx4v wq modify 1 rdy
mlx4v rss create 1 1 0 2
mlx4v qp modify 3 init
mlx4v qp modify 3 rtr
mlx4v flow create 3 2 promisc
mlx4v post rwq 1 4
mlx4v send 2 512 4
mlx4v poll 2
mlx4v flow destroy 0
mlx4v qp destroy 3
mlx4v qp destroy 2
mlx4v wq destroy 1
mlx4v cq destroy 2
mlx4v pd destroy 1
mlx4v close 1
mlx4v qp destroy 1
mlx4v qp destroy 0
mlx4v wq destroy 0
mlx4v srq destroy 0
mlx4v cq destroy 0
mlx4v cq destroy 1
mlx4v mr destroy 0
mlx4v pd destroy 0
mlx4v close 0
mlx4v qp destroy 0
mlx4v mr destroy 40
mlx4v close 0
mlx4v list
mlx4v sim show mlx4v_sim0
mlx4v sim show mlx4v_sim1
quit
'

# class=none: the raw objects alone, without net_mlx4v ports holding their own.
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx4v_sim0,ports=2,class=none \
	--vdev=mlx4v_sim1,ports=2,mode=pair,class=none -- -i --total-num-mbufs=2048 ||
	fail "testpmd exited with $?"

# help drivers lists the command sections.
for c in 'open' 'close' 'pd create' 'mr create' 'cq create' 'srq create' 'qp create' \
	'wq create' 'wq range' 'rss create' 'flow create' 'qp\|wq modify' \
	'pd\|mr\|cq\|qp\|srq\|wq\|flow destroy' 'view qp\|cq\|srq\|rwq' \
	'post qp\|rwq\|srq' 'send' 'poll\|arm\|event' 'list' 'sim show' 'sim knob'; do
	expect "$out" "^mlx4v $c( |$)"
done

# Opening, and commands naming objects that do not exist.
expect "$out" 'cannot open "nosuchdev0": no such mlx4v device'
expect "$out" 'no open device 0 \(see'
expect "$out" '^mlx4v: dev 0: mlx4v_sim0 opened \(simulator\)'
expect "$out" 'no open device 7 '
expect "$out" '^mlx4v: pd 0 created on dev 0'
expect "$out" '^mlx4v: mr 0 created on pd 0: addr 0x[0-9a-f]+ len 4096 lkey 0x[0-9a-f]+'
expect "$out" 'MR length 0: expected 1 to'
expect "$out" 'no PD 9 '

# CQs: default and 64-byte CQEs; bad size, events flag, zero entries.
expect "$out" '^mlx4v: cq 0 created on dev 0 with events'
expect "$out" '^mlx4v: cq 1 created on dev 0$'
expect "$out" 'cannot create a CQ of 64 entries, cqe_size 48 on dev 0: '
expect "$out" 'events must be 0 or 1'
expect "$out" 'cannot create a CQ of 0 entries, cqe_size 0 on dev 0: Invalid argument'

# SRQ, QPs (own RQ; SRQ), WQ, and their argument errors.
expect "$out" '^mlx4v: srq 0 created on pd 0: 64 WQEs of 32 bytes'
expect "$out" 'cannot create an SRQ of 100000 WRs, 1 SGEs on pd 0: Invalid argument'
expect "$out" '^mlx4v: qp 0 created on pd 0: qpn 0x[0-9a-f]+ port 1, max_send_wr [0-9]+, max_recv_wr 16$'
expect "$out" '^mlx4v: qp 1 created on pd 0: qpn 0x[0-9a-f]+ port 1, .*, SRQ$'
expect "$out" 'no CQ 9 '
expect "$out" 'port 0: ports are 1-based'
expect "$out" 'no SRQ 5 '
expect "$out" '^mlx4v: wq 0 created on pd 0: wqn 0x[0-9a-f]+ port 1, max_wr 64, max_sge 1'
expect "$out" 'cannot create a WQ of 100000 WRs, 1 SGEs on pd 0: Invalid argument'

# Every field of every view, by rdma-core's field names.
expect "$out" '^mlx4v: qp 0 view \(struct mlx4dv_qp\):'
for f in 'rdb +0x[0-9a-f]+ \(\*rdb = 0x00000000\)' 'sdb +0x[0-9a-f]+' \
	'doorbell_qpn +0x[0-9a-f]{8} \(BE32\(qpn << 8\)' 'sq.wqe_cnt +128' 'sq.wqe_shift +6' \
	'sq.offset +0' 'rq.wqe_cnt +16' 'rq.wqe_shift +4' 'rq.offset +8192' \
	'buf.buf +0x[0-9a-f]+' 'buf.length +12288' 'comp_mask +0x1' 'uar_mmap_offset +0'; do
	expect "$out" "^  $f"
done
expect "$out" '^  rdb +\(nil\)'          # qp 1 receives through its SRQ
expect "$out" '^mlx4v: cq 0 view \(struct mlx4dv_cq\):'
for f in 'cqe_cnt +128' 'cqn +0x[0-9a-f]+' 'set_ci_db +0x[0-9a-f]+ \(\*set_ci_db = 0x00000000\)' \
	'arm_db +0x[0-9a-f]+ \(\*arm_db = 0x00000000\)' 'arm_sn +1' 'cqe_size +64' \
	'cqe_size +64' 'cqe_cnt +64' 'cq_uar +0x[0-9a-f]+' 'buf.length +4096'; do
	expect "$out" "^  $f"
done
expect "$out" '^mlx4v: srq 0 view \(struct mlx4dv_srq\):'
for f in 'wqe_shift +5' 'head +0' 'tail +63' 'db +0x[0-9a-f]+ \(\*db = 0x00000000\)' \
	'comp_mask +0x0'; do
	expect "$out" "^  $f"
done
expect "$out" '^mlx4v: rwq 0 view \(struct mlx4dv_rwq\):'
expect "$out" '^  rq.offset +64'
expect "$out" '^  rq.wqe_cnt +64'
expect "$out" 'no QP 7 '
expect "$out" 'no WQ 31 '
expect "$out" 'no CQ 32 '

# State changes, good and bad.
expect "$out" '^mlx4v: qp 0 is now rts'
expect "$out" 'cannot move qp 0 to rtr: Invalid argument'
expect "$out" 'QP state "bogus": expected reset, init, rtr, rts or err'
expect "$out" 'WQ state "rts": expected reset, rdy or err'
expect "$out" '^mlx4v: wq 0 is now rdy'

# Steering: an RSS QP over wq 0 (INIT, RTR, never RTS; no SQ), MAC rules to the QP's RQ,
# the SRQ QP and the RSS QP; a WQ in a table and a QP with rules stay.
expect "$out" '^mlx4v: qp 2 created on pd 0: RSS QP qpn 0x[0-9a-f]+ port 1 over wq 0-0'
expect "$out" 'no WQ 30 '
expect "$out" '^mlx4v: qp 2 is now rtr'
expect "$out" 'cannot move qp 2 to rts: Invalid argument'
expect "$out" 'qp 2 is an RSS QP: it has no send queue'
expect "$out" '^mlx4v: flow 2 created: mac on port 1 to qp 2'
expect "$out" 'cannot create a promisc flow to qp 2 on port 2: Invalid argument'
expect "$out" 'cannot destroy wq 0: Device or resource busy'
expect "$out" 'cannot destroy qp 2: Device or resource busy'
expect "$out" '^mlx4v: qp 2: pd 0, qpn 0x[0-9a-f]+, port 1, state rtr, RSS over wq 0-0'
expect "$out" '^mlx4v: flow 1: qp 1'
expect "$out" 'no flow 0 '

# Data path through the views: an empty poll, then own RQ, SRQ, RWQ, and a drop.
expect "$out" '^mlx4v: cq 0: 0 CQE\(s\) polled, consumer index 0'
expect "$out" '^mlx4v: qp 0: 1 receive WQE\(s\) posted, rdb count 1'
expect "$out" '^mlx4v: qp 0: 1 SEND WQE\(s\) of 64 bytes posted, lkey 0x[0-9a-f]+, sq head 1, doorbell rung'
expect "$out" '^mlx4v: CQ 0: CQE [0-9]+ qpn 0x[0-9a-f]+ send opcode 0x0a .*wqe_index 0 .*\(qp 0\)'
expect "$out" '^mlx4v: CQ 0: CQE [0-9]+ qpn 0x[0-9a-f]+ recv opcode 0x01 byte_cnt 64 wqe_index 0 .*\(qp 0\) seq 0 from port 1 payload ok'
expect "$out" '^mlx4v: srq 0: 1 WQE\(s\) posted, db count 1, head 1 tail 63'
expect "$out" '^mlx4v: CQ 1: CQE 0 qpn 0x[0-9a-f]+ recv opcode 0x01 byte_cnt 100 wqe_index 0 .*\(qp 1 via srq 0\) seq 1 from port 1 payload ok'
expect "$out" '^mlx4v: CQ 1: CQE 1 qpn 0x[0-9a-f]+ recv opcode 0x01 byte_cnt 200 wqe_index 0 .*\(rwq 0\) seq 2 from port 1 payload ok'
expect "$out" 'rx_dropped 1,'
reject "$out" 'payload BAD|no testpmd queue'

# Post and send errors.
expect "$out" 'qp 1 has no RQ of its own'
expect "$out" 'rwq 0: ring full, 64 of 1000 posted'
expect "$out" 'no SRQ 9 '
expect "$out" 'no QP 9 '
expect "$out" 'send length 10: expected 14 to 2048 bytes'
expect "$out" 'send length 4096: expected 14 to 2048 bytes'
expect "$out" 'qp 0: 1000 WQE\(s\) do not fit: 0 in flight, [0-9]+ at most'
expect "$out" '^Bad arguments'

# Arm, event once, no second event without re-arming; arm needs events.
expect "$out" '^mlx4v: cq 0 armed \(sn 1, ci [0-9]+\)'
expect "$out" '^mlx4v: cq 0: completion event \(arm_sn now 2\)'
expect "$out" '^mlx4v: cq 0: no completion event'
expect "$out" 'cq 1 was created without events'
expect "$out" 'no CQ 9 '
# Nothing so far was misuse of the raw interface.
expect "$out" 'misuse total 0$'

# A bad lkey completes in error; later WQEs are flushed; reset recovers the QP.
expect "$out" 'qp 0: 1 SEND WQE\(s\) of 64 bytes posted, lkey 0x12345,'
expect "$out" 'send ERROR syndrome 0x04 LOCAL_PROT'
expect "$out" 'send ERROR syndrome 0x05 WR_FLUSH'
expect "$out" '^mlx4v: qp 0 is now reset'
expect "$out" 'qp 0: 1 SEND WQE\(s\) of 64 bytes posted, lkey 0x[0-9a-f]+, sq head 1, doorbell'

# Fault knobs.
expect "$out" 'knob fail_create_cq = 1'
expect "$out" 'cannot create a CQ of 16 entries, cqe_size 0 on dev 0: Cannot allocate memory'
expect "$out" 'knob no_such_knob=1: no such knob'
expect "$out" 'knob strict_cqe_owner=7: value out of range'
expect "$out" '"nosuchdev0" is not a simulated mlx4v device'

# list, and destroying objects still in use.
expect "$out" '^mlx4v: dev 0: mlx4v_sim0 \(simulator\)'
expect "$out" '^mlx4v: qp 0: pd 0, qpn 0x[0-9a-f]+, port 1, state rts, send_cq 0, recv_cq 0, rq posted 0 completed 0, sq posted 1 completed 1'
expect "$out" '^mlx4v: qp 1: pd 0, .*srq 0,'
expect "$out" '^mlx4v: wq 0: pd 0, wqn 0x[0-9a-f]+, port 1, state rdy, cq 1, rq posted 65 completed 1'
expect "$out" '^mlx4v: cq 0: dev 0, cqe 64, events yes, cqn 0x[0-9a-f]+, 128 entries'
expect "$out" '^mlx4v: srq 0: pd 0, 64 WQEs, posted 1, completed 1'
expect "$out" '^mlx4v: mr 0: pd 0, addr 0x[0-9a-f]+, len 4096'
expect "$out" 'cannot destroy pd 0: Device or resource busy \(still in use\)'
expect "$out" 'cannot destroy cq 0: Device or resource busy'
expect "$out" 'cannot destroy srq 0: Device or resource busy'
expect "$out" 'cannot close dev 0: Device or resource busy \(destroy its objects first\)'

# Paired ports on a second device: sent on port 1, received on port 2.
expect "$out" '^mlx4v: dev 1: mlx4v_sim1 opened'
expect "$out" '^mlx4v: wq 1 created on pd 1: wqn 0x[0-9a-f]+ port 2,'
n=$(grep -Ec '^mlx4v: CQ 2: CQE [0-9]+ .* recv opcode 0x01 byte_cnt 512 .*\(rwq 1\) seq [0-3] from port 1 payload ok' "$out")
[ "$n" -eq 4 ] || fail "expected 4 packets on port 2 of mlx4v_sim1, got $n"
expect "$out" '^mlx4v: cq 2: 8 CQE\(s\) polled'

# Teardown: everything destroyed, nothing left in either device model.
for o in 'qp 1' 'qp 0' 'wq 0' 'srq 0' 'cq 0' 'cq 1' 'mr 0' 'pd 0' 'qp 2' 'wq 1' 'cq 2' 'pd 1'; do
	expect "$out" "^mlx4v: $o destroyed"
done
expect "$out" '^mlx4v: dev 0: mlx4v_sim0 closed'
expect "$out" '^mlx4v: dev 1: mlx4v_sim1 closed'
expect "$out" 'no MR 40 '
expect "$out" 'mlx4v_sim0: 2 port\(s\); live objects: pd 0 mr 0 cq 0 qp 0 srq 0 wq 0 ind_table 0 flow 0$'
expect "$out" 'mlx4v_sim1: 2 port\(s\); live objects: pd 0 mr 0 cq 0 qp 0 srq 0 wq 0 ind_table 0 flow 0$'
expect "$out" 'mlx4v_sim1: .*misuse total 0$|mlx4v_sim1: misuse total 0$'
reject "$out" 'Segmentation|Aborted|still has [0-9]+ open handle'
expect "$out" '^Bye'
