#!/usr/bin/env python3
"""idle_conns.py: open N idle TCP connections to a gateway, for bench/gateway_idle.sh.

    idle_conns.py PORT N READY_FILE STOP_FILE [ws]

Each connection sends one empty frame (a 4-byte zero length: the gateway's read path
runs and a Reply goes out), reads what comes back, then stays idle. With "ws", each first
upgrades to WebSocket on /ws and sends the empty message as one masked binary frame. Writes the number of
connections open and answered to READY_FILE, then holds them until STOP_FILE exists
(at most 120 s). Uses epoll, so N may exceed select()'s 1,024.
"""
import os
import select
import socket
import sys
import time


UPGRADE = (b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
           b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           b"Sec-WebSocket-Version: 13\r\n\r\n")


def main():
    port, n, ready, stop = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    ws = len(sys.argv) > 5 and sys.argv[5] == "ws"
    ep = select.epoll()
    socks = {}
    for _ in range(n):
        s = socket.socket()
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            break
        if ws:
            s.sendall(UPGRADE)
            if b"101" not in s.recv(4096):
                s.close()
                break
            s.sendall(b"\x82\x80\x01\x02\x03\x04")  # binary, masked, empty
        else:
            s.sendall(b"\0\0\0\0")
        s.setblocking(False)
        socks[s.fileno()] = s
        ep.register(s.fileno(), select.EPOLLIN)
    answered = set()
    end = time.monotonic() + 30
    while len(answered) < len(socks) and time.monotonic() < end:
        for fd, _ in ep.poll(0.2):
            try:
                if socks[fd].recv(4096):
                    answered.add(fd)
            except OSError:
                pass
            ep.unregister(fd)
    with open(ready, "w") as f:
        f.write("open=%d answered=%d\n" % (len(socks), len(answered)))
    end = time.monotonic() + 120
    while not os.path.exists(stop) and time.monotonic() < end:
        time.sleep(0.1)


if __name__ == "__main__":
    main()
