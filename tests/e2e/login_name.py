#!/usr/bin/env python3
"""login_name.py: log in once on a gateway and print the name the Welcome shows.

    login_name.py HOST:PORT hello NAME
    login_name.py HOST:PORT device NAME DEVICE_ID

A guest Hello, or a device-id AccountLogin, over the gateway's TCP framing (a 4-byte
big-endian length, then a ClientMessage). Prints the Welcome's name, or "error CODE
MESSAGE" when the Reply refuses. NAME may hold Python escapes ("Carol\\x00x"), so a test
can send bytes that protobuf encoders built on C strings cannot. The protobuf is written
and read by hand: the tests need no protobuf package.
"""
import socket
import struct
import sys


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def fields(data):
    """(number, value) pairs of a message: bytes for length-delimited, ints otherwise."""
    i = 0
    while i < len(data):
        key, i = read_varint(data, i)
        kind = key & 7
        if kind == 0:
            value, i = read_varint(data, i)
        elif kind == 2:
            n, i = read_varint(data, i)
            value, i = data[i:i + n], i + n
        elif kind == 1:
            value, i = data[i:i + 8], i + 8
        else:
            value, i = data[i:i + 4], i + 4
        yield key >> 3, value


def read_varint(data, i):
    n = shift = 0
    while True:
        b = data[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def arg_bytes(s):
    return s.encode("utf-8").decode("unicode_escape").encode("latin-1")


def request(argv):
    cmd = varint(1 << 3) + varint(1)  # cmd_id 1
    if argv[0] == "hello":
        return cmd + field(10, field(1, arg_bytes(argv[1])))
    login = field(1, arg_bytes(argv[1])) + field(3, arg_bytes(argv[2]))
    return cmd + field(17, login)


def recv_frame(sock):
    head = b""
    while len(head) < 4:
        chunk = sock.recv(4 - len(head))
        if not chunk:
            raise SystemExit("closed")
        head += chunk
    (n,) = struct.unpack(">I", head)
    body = b""
    while len(body) < n:
        chunk = sock.recv(n - len(body))
        if not chunk:
            raise SystemExit("closed")
        body += chunk
    return body


def main():
    host, port = sys.argv[1].rsplit(":", 1)
    msg = request(sys.argv[2:])
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(struct.pack(">I", len(msg)) + msg)
        while True:
            top = dict(fields(recv_frame(sock)))
            if 2 in top:  # Welcome
                print(dict(fields(top[2])).get(3, b"").decode("utf-8", "replace"))
                return
            if 1 in top:  # a Reply before any Welcome: refused
                err = dict(fields(dict(fields(top[1])).get(3, b"")))
                print("error", err.get(1, 0), err.get(2, b"").decode("utf-8", "replace"))
                return


if __name__ == "__main__":
    main()
