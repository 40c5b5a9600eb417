#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# "mlx4v sim link <dev> <port> up|down|flap": the cables of the simulated ConnectX-3's ports
# (mode=pair: ports 1 and 2 cabled to each other), seen per port in "mlx4v sim show" with
# the port events they raised, and clear errors for a bad port, a wire=none port and a
# device that is not simulated.
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
[ -x "$TESTPMD" ] || skip "no testpmd"

cmds="mlx4v sim link mlx4v_sim0 1 down
mlx4v sim show mlx4v_sim0
mlx4v sim link mlx4v_sim0 1 flap
mlx4v sim link mlx4v_sim0 1 up
mlx4v sim link mlx4v_sim0 2 flap
mlx4v sim show mlx4v_sim0
mlx4v sim link mlx4v_sim0 3 up
mlx4v sim link mlx4v_sim1 1 up
mlx4v sim show mlx4v_sim1
mlx4v sim link nope 1 down
quit
"
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx4v_sim0,class=none,ports=2,mode=pair \
	--vdev=mlx4v_sim1,class=none,ports=1,wire=none,speed=10000 \
	-- -i --total-num-mbufs=2048 || fail "testpmd exited with an error"
expect "$out" "^mlx4v: mlx4v_sim0: port 1: link down, now down$"
# A pulled cable takes both ends of the pair down.
expect "$out" "^mlx4v: mlx4v_sim0: port 2: wire=pair:mlx4v_sim0\.1, link down 0 Mb/s"
expect "$out" "mlx4v: mlx4v_sim0: port 1: link flap: the cable is out"
expect "$out" "^mlx4v: mlx4v_sim0: port 1: link up, now up$"
expect "$out" "^mlx4v: mlx4v_sim0: port 2: link flap, now up$"
# down, up, then a flap of the other end: two port events each way on both ports.
expect "$out" "^mlx4v: mlx4v_sim0: port 1: wire=pair:mlx4v_sim0\.2, link up 40000 Mb/s, mac ..:..:..:..:..:..,.* events up 2 down 2$"
expect "$out" "^mlx4v: mlx4v_sim0: port 2: wire=pair:mlx4v_sim0\.1, link up 40000 Mb/s,.* events up 2 down 2$"
expect "$out" "mlx4v: mlx4v_sim0: no port 3 \(ports 1\.\.2\)"
expect "$out" "mlx4v: mlx4v_sim1: port 1: link up: wire=none has no cable"
expect "$out" "^mlx4v: mlx4v_sim1: port 1: wire=none, link down 0 Mb/s"
expect "$out" "\"nope\" is not a simulated mlx4v device"
reject "$out" "Segmentation|Aborted"
echo "PASS"
