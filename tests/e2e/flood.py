#!/usr/bin/env python3
"""flood.py: hold many idle TCP connections to one port (the gateway tests' flood).

    flood.py PORT N STATUS_FILE STOP_FILE [SECONDS]

Opens N connections to 127.0.0.1:PORT (1 s connect timeout each), waits a second, then
writes "opened=A refused=R overloaded=O" to STATUS_FILE: A connections opened, R of them
already closed by the server, O of those closed after sending something (the gateway's
OVERLOADED Reply). Holds the rest until STOP_FILE exists or SECONDS pass (default 60).
"""
import os
import select
import socket
import sys
import time


def main():
    port, n, status, stop = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    limit = float(sys.argv[5]) if len(sys.argv) > 5 else 60.0
    end = time.monotonic() + limit
    socks, got = [], {}
    for _ in range(n):
        s = socket.socket()
        s.settimeout(1)
        try:
            s.connect(("127.0.0.1", port))
            s.setblocking(False)
            socks.append(s)
        except OSError:
            s.close()
        if time.monotonic() > end:
            break
    closed = set()
    settle = time.monotonic() + 1
    while time.monotonic() < settle:
        live = [s for s in socks if s not in closed]
        readable = select.select(live, [], [], 0.1)[0] if live else []
        for s in readable:
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if data:
                got[s] = True
            else:
                closed.add(s)
    overloaded = sum(1 for s in closed if got.get(s))
    tmp = status + ".tmp"
    with open(tmp, "w") as f:
        f.write("opened=%d refused=%d overloaded=%d\n" % (len(socks), len(closed), overloaded))
    os.rename(tmp, status)
    while not os.path.exists(stop) and time.monotonic() < end:
        time.sleep(0.1)
    for s in socks:
        s.close()


main()
