#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
#
# Our telemetry commands through the telemetry socket, read with Debian's dpdk-telemetry.py:
# /mlx5v/dev/list, /mlx5v/dev/info,<dev>, /mlx5v/eq/list,<dev> and /mlx4v/obj/list,<dev>
# while our testpmd drives the simulated devices. The replies must agree with what
# testpmd's own commands print; an unknown device or a missing parameter answers null.
. "$(dirname "$0")/lib.sh"
[ -x "$TESTPMD" ] || skip "no testpmd"
TEL=/usr/bin/dpdk-telemetry.py
[ -x "$TEL" ] || skip "$TEL missing (Debian package dpdk)"
# A shared configuration (no --no-shconf) and a prefix of our own: the socket lives in
# the runtime directory of that prefix, which is removed at the end.
prefix=mlxv_tel_$$
if [ "$(id -u)" -eq 0 ]; then
	rundir=/var/run/dpdk/$prefix
else
	rundir=${XDG_RUNTIME_DIR:-/tmp}/dpdk/$prefix
fi
tmp=$(mktemp -d)
out=$tmp/testpmd.log
tp_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$tp_pid" ] && kill "$tp_pid" 2>/dev/null
	rm -rf "$tmp" "$rundir"
}
trap cleanup EXIT
mkfifo "$tmp/in"

# testpmd in the background; its stdin stays open through fd 3 until "quit".
(cd / && exec timeout 120 "$TESTPMD" $(eal_mem 256) --no-pci --file-prefix=$prefix \
	--vdev=mlx5v_sim0,msix=8 --vdev=mlx4v_sim0,ports=2,class=none -- -i --total-num-mbufs=2048) \
	<"$tmp/in" >"$out" 2>&1 &
tp_pid=$!
exec 3>"$tmp/in"

# wait_for REGEX: until testpmd's output has a line matching REGEX (or it exited).
wait_for() {
	n=0
	until grep -Eq -- "$1" "$out"; do
		kill -0 "$tp_pid" 2>/dev/null || { cat "$out"; fail "testpmd exited early"; }
		n=$((n + 1))
		[ $n -lt 600 ] || { cat "$out"; fail "no /$1/ from testpmd"; }
		sleep 0.1
	done
}

# tel NAME QUERY...: one reply line per query into $tmp/NAME.json.
tel() {
	name=$1
	shift
	printf '%s\n' "$@" | timeout 30 /usr/bin/python3 "$TEL" -f "$prefix" >"$tmp/$name.json" ||
		fail "dpdk-telemetry.py failed"
	echo "== telemetry ($name):"
	cat "$tmp/$name.json"
}

printf 'mlx5v msi alloc mlx5v_sim0\nmlx5v eq create mlx5v_sim0 6 0x210 1\n' >&3
printf 'mlx5v sim inject mlx5v_sim0 9 1\nmlx5v eq poll mlx5v_sim0 2\n' >&3
printf 'mlx5v dev show mlx5v_sim0\n' >&3
printf 'mlx4v open mlx4v_sim0\nmlx4v pd create 0\nmlx4v cq create 0 64 0 1\n' >&3
printf 'mlx4v cq create 0 64 0 1\nmlx4v qp create 0 0 0 1 64 16\nmlx4v wq create 0 1 1 64 1\n' >&3
printf 'mlx4v qp modify 0 init\nmlx4v qp modify 0 rtr\nmlx4v qp modify 0 rts\n' >&3
printf 'mlx4v wq modify 0 rdy\nmlx4v list\n' >&3
# "mlx4v list" comes last: once it printed the WQ, every command before it has run.
wait_for '^mlx4v: wq 0: pd 0, .*state rdy'
[ -S "$rundir/dpdk_telemetry.v2" ] || fail "no telemetry socket in $rundir"

tel up /mlx5v/dev/list /mlx5v/dev/info,mlx5v_sim0 /mlx5v/eq/list,mlx5v_sim0 \
	/mlx4v/obj/list,mlx4v_sim0
tel bad /mlx5v/dev/info,nope /mlx5v/dev/info /mlx5v/eq/list,nope /mlx5v/eq/list \
	/mlx5v/dev/info,mlx4v_sim0 /mlx4v/obj/list,nope /mlx4v/obj/list \
	/mlx4v/obj/list,mlx5v_sim0

# What testpmd printed, to compare with.
fw=$(sed -n 's/^mlx5v: mlx5v_sim0: stage 7, firmware \([0-9.]*\),.*/\1/p' "$out" | head -n 1)
create_eq=$(sed -n 's/^mlx5v: mlx5v_sim0: CREATE_EQ *0x301 *\([0-9]*\) .*/\1/p' "$out" |
	head -n 1)
qpn=$(sed -n 's/^mlx4v: qp 0 created on pd 0: qpn 0x\([0-9a-f]*\) .*/\1/p' "$out")
wqn=$(sed -n 's/^mlx4v: wq 0 created on pd 0: wqn 0x\([0-9a-f]*\) .*/\1/p' "$out")
[ -n "$fw" ] && [ -n "$create_eq" ] && [ -n "$qpn" ] && [ -n "$wqn" ] ||
	{ cat "$out"; fail "testpmd did not print the device state"; }

FW=$fw CREATE_EQ=$create_eq QPN=$qpn WQN=$wqn /usr/bin/python3 - "$tmp/up.json" \
	"$tmp/bad.json" <<'PY' || fail "telemetry replies wrong"
import json, os, sys
up = [json.loads(l) for l in open(sys.argv[1])]
bad = [json.loads(l) for l in open(sys.argv[2])]
env = os.environ
def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
check(len(up) == 4 and len(bad) == 8, "one reply per query")
check(up[0]["/mlx5v/dev/list"] == ["mlx5v_sim0"], "dev list")
info = up[1]["/mlx5v/dev/info"]
check(info["name"] == "mlx5v_sim0" and info["state"] == "loaded" and info["stage"] == 7,
      "device loaded")
check(info["dead_reason"] == "none", "not dead")
check(info["firmware"] == env["FW"], "firmware as testpmd shows it")
check(info["pages"]["given"] > 0 and info["pages"]["give_cmds"] > 0, "firmware pages")
check(info["commands"]["CREATE_EQ"] == int(env["CREATE_EQ"]), "CREATE_EQ count")
for op in ("ENABLE_HCA", "QUERY_HCA_CAP", "INIT_HCA", "MANAGE_PAGES", "ALLOC_UAR"):
    check(info["commands"].get(op, 0) > 0, op + " counted")
check(info["command_errors"] == {}, "no failed command")
check(info["cmd_queue"]["mode"] == "event" and info["cmd_queue"]["slots"] > 0, "cmd queue")
check(info["msix_vectors"] == 8 and info["msix_allocated"] == 1, "MSI-X vectors")
eqs = up[2]["/mlx5v/eq/list"]
check(eqs[str(info["async_eqn"])]["kind"] == "async", "the async EQ listed")
check(eqs[str(info["async_eqn"])]["vector"] == 0, "async EQ on vector 0")
devx = [e for e in eqs.values() if e["kind"] == "devx"]
check(len(devx) == 1, "one DEVX EQ")
e = devx[0]
check(e["eqn"] == 2 and e["entries"] == 64 and e["vector"] == 1, "DEVX EQ 2 attributes")
check(e["eqes"] == 1 and e["polls"] >= 1, "the injected event consumed")
objs = up[3]["/mlx4v/obj/list"]
# testpmd also registers an MR for the buffers of each receive ring and QP.
types = sorted(o["type"] for o in objs.values() if o["type"] != "mr")
check(types == ["cq", "cq", "handle", "pd", "qp", "wq"], "mlx4v objects: %s" % types)
check(any(o["type"] == "mr" and o["length"] > 0 for o in objs.values()), "an MR")
check(objs["handle_0"]["objects"] == len(objs) - 1, "the handle counts its objects")
qp = objs["qp_%d" % int(env["QPN"], 16)]
check(qp["state"] == "RTS" and qp["port"] == 1 and qp["sq_wqes"] >= 64, "QP")
wq = objs["wq_%d" % int(env["WQN"], 16)]
check(wq["state"] == "RDY" and wq["wqes"] >= 64, "WQ")
check(objs["cq_%d" % qp["send_cqn"]]["type"] == "cq", "QP's send CQ listed")
for r in bad:
    check(list(r.values()) == [None], "error answers null: %s" % r)
print("telemetry replies OK")
PY

# The DEVX EQ goes away from the list once destroyed.
printf 'mlx5v eq destroy mlx5v_sim0 2\nmlx5v msi free mlx5v_sim0 1\n' >&3
wait_for '^mlx5v: mlx5v_sim0: MSI vector 1 freed'
tel after /mlx5v/eq/list,mlx5v_sim0 /mlx5v/dev/info,mlx5v_sim0
/usr/bin/python3 - "$tmp/after.json" <<'PY' || fail "EQ list after destroy wrong"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
eqs = r[0]["/mlx5v/eq/list"]
assert [e["kind"] for e in eqs.values()] == ["async"], eqs
assert r[1]["/mlx5v/dev/info"]["commands"]["DESTROY_EQ"] >= 1, r[1]
assert r[1]["/mlx5v/dev/info"]["msix_allocated"] == 0, r[1]
PY

printf 'quit\n' >&3
exec 3>&-
wait "$tp_pid"
rc=$?
tp_pid=
cat "$out"
[ $rc -eq 0 ] || fail "testpmd exited with $rc"
expect "$out" '^Bye'
reject "$out" 'Segmentation|Assertion|PANIC|still alive at removal'
echo PASS
