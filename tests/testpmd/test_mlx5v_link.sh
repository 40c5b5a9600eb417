#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# "mlx5v sim link <dev> up|down|flap": the cable of the simulated ConnectX's Ethernet port,
# seen in "mlx5v dev show", and a clear error for a device without a cable.
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
[ -x "$TESTPMD" ] || skip "no testpmd"

cmds="mlx5v sim link mlx5v_sim0 down
mlx5v dev show mlx5v_sim0
mlx5v sim link mlx5v_sim0 flap
mlx5v sim link mlx5v_sim0 up
mlx5v dev show mlx5v_sim0
mlx5v sim link mlx5v_sim0 flap
mlx5v sim link mlx5v_sim1 up
mlx5v sim link nope down
quit
"
run_testpmd "$out" "$cmds" $EAL_BASE --vdev=mlx5v_sim0,class=none,wire=loop \
	--vdev=mlx5v_sim1,class=none,wire=none -- -i --total-num-mbufs=2048 ||
	fail "testpmd exited with an error"
expect "$out" "mlx5v: mlx5v_sim0: link down$"
expect "$out" "mlx5v_sim0: simulator: .*, link down"
expect "$out" "mlx5v: mlx5v_sim0: link flap: the cable is out"
expect "$out" "mlx5v: mlx5v_sim0: link up$"
expect "$out" "mlx5v_sim0: simulator: .*, link up"
expect "$out" "mlx5v: mlx5v_sim0: link flap$"
expect "$out" "mlx5v: mlx5v_sim1: link up: wire=none has no cable"
expect "$out" "\"nope\" is not a simulated device"
echo "PASS"
