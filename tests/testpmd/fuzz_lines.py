#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
"""Print random and malformed testpmd command lines, the same ones for the same seed.

usage: fuzz_lines.py SEED COUNT

Port and queue commands name ports 0 and 1 only: Debian's 22.11 testpmd lacks a port-id
check in "port N rxq Q start" and crashes with any driver on a port it does not have
(doc/guides/sim/silicon.rst, "Both simulators: ethdev surface"). No line quits, detaches a
port or blocks; the caller appends "quit".
"""

import random
import re
import sys

# A queue command on a port testpmd lacks: the Debian testpmd crash the lines avoid.
BAD_QUEUE_PORT = re.compile(r"^\s*port\s+(?!(0|1)\s)\S+\s+[rt]xq\s")

NUMS = ["0", "1", "2", "7", "16", "64", "65535", "4294967296", "-1", "0x10", "abc", ""]
MACS = ["02:00:00:00:00:01", "ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:09", "00:00:00:00:00:00",
        "zz:00", "02:00:00:00:00:01:02"]


def num(r):
    return r.choice(NUMS)


def port(r):
    return r.choice(["0", "1", "all"])


def pid(r):
    return r.choice(["0", "1"])


def commands(r):
    """One command of the ethdev surface, with edge or garbage arguments."""
    q = num(r)
    return r.choice([
        "port stop %s" % port(r),
        "port start %s" % port(r),
        "port reset %s" % pid(r),
        "port config %s rxq %s" % (port(r), q),
        "port config %s txq %s" % (port(r), q),
        "port config %s rxd %s" % (port(r), q),
        "port config %s txd %s" % (port(r), q),
        "port config mtu %s %s" % (pid(r), r.choice(["0", "67", "1500", "9000", "9978",
                                                     "65535", "x"])),
        "port config %s rss %s" % (port(r), r.choice(["all", "ip", "udp", "tcp", "none",
                                                      "ipv6-ex", "garbage"])),
        "port config %s rss reta (%s,%s)" % (pid(r), num(r), num(r)),
        "port config %s rss-hash-key ipv4 %s" % (pid(r), r.choice(["00" * 40, "11" * 39,
                                                                   "ab" * 52, "zz"])),
        "port config %s rx_offload %s %s" % (pid(r), r.choice(["scatter", "rss_hash",
                                                               "vlan_strip", "timestamp"]),
                                             r.choice(["on", "off"])),
        "port config %s tx_offload %s %s" % (pid(r), r.choice(["multi_segs", "tcp_tso",
                                                               "vlan_insert"]),
                                             r.choice(["on", "off"])),
        "port config %s burst %s" % (port(r), q),
        "port %s rxq %s setup" % (pid(r), q),
        "port %s txq %s setup" % (pid(r), q),
        "port %s rxq %s %s" % (pid(r), q, r.choice(["start", "stop"])),
        "port %s txq %s %s" % (pid(r), q, r.choice(["start", "stop"])),
        "port %s rxq %s deferred_start %s" % (pid(r), q, r.choice(["on", "off"])),
        "mac_addr %s %s %s" % (r.choice(["add", "remove"]), pid(r), r.choice(MACS)),
        "mac_addr set %s %s" % (pid(r), r.choice(MACS)),
        "set promisc %s %s" % (port(r), r.choice(["on", "off"])),
        "set allmulti %s %s" % (port(r), r.choice(["on", "off"])),
        "set link-%s port %s" % (r.choice(["up", "down"]), pid(r)),
        "vlan set filter %s %s" % (r.choice(["on", "off"]), pid(r)),
        "rx_vlan add %s %s" % (num(r), pid(r)),
        "start tx_first",
        "start",
        "stop",
        "show port info %s" % port(r),
        "show port stats %s" % port(r),
        "show port xstats %s" % port(r),
        "show port %s rss-hash key" % pid(r),
        "show port %s rxq %s desc %s status" % (pid(r), q, num(r)),
        "clear port stats %s" % port(r),
    ])


def malformed(r, line):
    """The line cut short, its words shuffled, garbage appended, or one overlong word."""
    words = line.split()
    kind = r.randrange(4)
    if kind == 0:
        return " ".join(words[:r.randrange(len(words) + 1)])
    if kind == 1:
        r.shuffle(words)
        return " ".join(words)
    if kind == 2:
        return line + " " + "".join(r.choice("abc019 ,()-") for _ in range(r.randrange(1, 20)))
    return r.choice(words) + "x" * r.randrange(100, 400)


def main():
    r = random.Random(int(sys.argv[1]))
    for _ in range(int(sys.argv[2])):
        line = commands(r)
        if r.random() < 0.4:
            bad = malformed(r, line)
            if not BAD_QUEUE_PORT.match(bad):
                line = bad
        print(line.replace("quit", "qu1t"))


if __name__ == "__main__":
    main()
