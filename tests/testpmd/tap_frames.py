#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
"""Send IPv4/UDP frames into one Linux interface and count them on another.

usage: tap_frames.py TX_IF RX_IF COUNT DST_IP [TIMEOUT_S]

Frames carry a marker in the UDP payload; a frame counts when it arrives on RX_IF with the
marker, the same destination address and a TTL one lower than sent (it was routed). Prints
"sent N received M" and exits 0 when every frame arrived, 1 otherwise.
"""

import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
MARK = b"mlxv-l3fwd-probe"
TTL = 64


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def frame(dst_ip, seq):
    payload = MARK + struct.pack("!I", seq)
    udp = struct.pack("!HHHH", 9000, 9001, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xffff, 0, TTL,
                     socket.IPPROTO_UDP, 0, socket.inet_aton("10.11.12.13"),
                     socket.inet_aton(dst_ip))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    eth = b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x99" + b"\x08\x00"
    return eth + ip + udp


def routed(buf, dst_ip):
    if len(buf) < 14 + 20 + 8 + len(MARK) or buf[12:14] != b"\x08\x00":
        return None
    ip = buf[14:34]
    if ip[16:20] != socket.inet_aton(dst_ip) or ip[8] != TTL - 1:
        return None
    if MARK not in buf[42:]:
        return None
    return struct.unpack("!I", buf[42 + len(MARK):46 + len(MARK)])[0]


def main():
    tx_if, rx_if, count, dst_ip = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 10.0
    rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    rx.bind((rx_if, 0))
    rx.settimeout(0.2)
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    tx.bind((tx_if, 0))
    for seq in range(count):
        tx.send(frame(dst_ip, seq))
    seen = set()
    deadline = time.monotonic() + timeout
    while len(seen) < count and time.monotonic() < deadline:
        try:
            buf = rx.recv(2048)
        except socket.timeout:
            continue
        seq = routed(buf, dst_ip)
        if seq is not None:
            seen.add(seq)
    print("sent %d received %d" % (count, len(seen)))
    return 0 if len(seen) == count else 1


if __name__ == "__main__":
    sys.exit(main())
