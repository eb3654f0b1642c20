#!/usr/bin/env python3
"""A discarding HTTP/1.1 receiver for upload benchmarks: reads every request body completely
(Content-Length), throws it away, answers 200 "ok". Keep-alive and `Expect: 100-continue` are
supported; one thread per connection. Unlike nginx's `return 200`, it answers only after the whole
body has arrived, so a client cannot finish before its bytes are read.

Usage: discard_server.py PORT
"""
import socket
import sys
import threading

BUFFER = 4 * 1024 * 1024


def serve(conn):
    buffer = bytearray(BUFFER)
    view = memoryview(buffer)
    pending = b""
    try:
        while True:
            while b"\r\n\r\n" not in pending:
                data = conn.recv(65536)
                if not data:
                    return
                pending += data
            head, pending = pending.split(b"\r\n\r\n", 1)
            headers = {}
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers.get(b"content-length", b"0"))
            if headers.get(b"expect", b"").lower() == b"100-continue":
                conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            consumed = min(length, len(pending))
            pending = pending[consumed:]
            remaining = length - consumed
            while remaining > 0:
                count = conn.recv_into(view, min(remaining, BUFFER))
                if count == 0:
                    return
                remaining -= count
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Type: text/plain\r\n\r\nok\n")
    except OSError:
        pass
    finally:
        conn.close()


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(sys.argv[1])))
    listener.listen(256)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
