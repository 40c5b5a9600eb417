#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 dpdk-mlxv authors
"""Send IPv4/UDP frames from many source addresses into one interface, count them on another.

usage: tap_spread.py TX_IF RX_IF COUNT FIRST_SEQ [TIMEOUT_S]

The source addresses differ frame to frame, so that RSS spreads the frames over a port's
queues. A frame counts when it comes out of RX_IF with its marker and a sequence number
of this run. Prints the number of frames that came out (within TIMEOUT_S, default 10 s).

All COUNT frames are sent before the first is read: the receiving socket must hold them. Its
default buffer (net.core.rmem_default, 208 KiB) holds exactly 256 of the small frames a TAP
hands over (each costs its skb's truesize, 832 bytes, not its length): one late frame of an
earlier run (a readiness probe a queue held) and the socket dropped one of 256, which the
test blamed on the PMD. The buffer is raised (SO_RCVBUFFORCE as root), and drops the socket
still counts (PACKET_STATISTICS) are reported on stderr.
"""

import socket
import struct
import sys
import time

MARK = b"mlxv-spread-probe"
SOL_PACKET = 263
PACKET_STATISTICS = 6
SO_RCVBUFFORCE = 33
RCVBUF = 8 << 20


def frame(seq):
    pay = MARK + struct.pack("!I", seq)
    udp = struct.pack("!HHHH", 9000, 9001, 8 + len(pay), 0) + pay
    src = socket.inet_aton("10.%d.%d.%d" % (seq >> 16 & 255, seq >> 8 & 255, seq & 255))
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xffff, 0, 64, 17, 0,
                     src, socket.inet_aton("10.99.0.1"))
    return b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x99\x08\x00" + ip + udp


def main():
    tx_if, rx_if, n, first = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    try:
        rx.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, RCVBUF)
    except OSError:
        rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
    rx.bind((rx_if, 0))
    rx.settimeout(0.2)
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    tx.bind((tx_if, 0))
    for seq in range(first, first + n):
        tx.send(frame(seq))
    seen = set()
    end = time.monotonic() + (float(sys.argv[5]) if len(sys.argv) > 5 else 10.0)
    while len(seen) < n and time.monotonic() < end:
        try:
            buf = rx.recv(2048)
        except socket.timeout:
            continue
        i = buf.find(MARK)
        if i > 0 and len(buf) >= i + len(MARK) + 4:
            s = struct.unpack("!I", buf[i + len(MARK):i + len(MARK) + 4])[0]
            if first <= s < first + n:
                seen.add(s)
    # struct tpacket_stats: packets, drops (reading clears them).
    drops = struct.unpack("II", rx.getsockopt(SOL_PACKET, PACKET_STATISTICS, 8))[1]
    if drops:
        print("tap_spread: the receiving socket on %s dropped %d frames" % (rx_if, drops),
              file=sys.stderr)
    print(len(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
