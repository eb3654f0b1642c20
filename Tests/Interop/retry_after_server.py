"""An upload endpoint that asks for a pause: its first upload is answered 429 with
Retry-After (seconds, argv[1]); every later one 200.

Prints `PORT n` once it listens, then `REQUEST t` as each request's head arrives and
`ANSWERED STATUS t` as each answer goes (t: time.monotonic() in seconds), so a test can count
the requests that came during the pause.
"""
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RETRY_AFTER = sys.argv[1] if len(sys.argv) > 1 else "2"
lock = threading.Lock()
answered = {"count": 0}
output = threading.Lock()


def say(line):
    """One write per line under a lock: print's pieces from two threads could interleave, and two
    requests arriving together would read as one line."""
    with output:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        say("REQUEST %.3f" % time.monotonic())
        length = int(self.headers.get("Content-Length", "0"))
        while length > 0:
            chunk = self.rfile.read(min(length, 65536))
            if not chunk:
                return
            length -= len(chunk)
        with lock:
            answered["count"] += 1
            first = answered["count"] == 1
        status = 429 if first else 200
        body = b"slow down\n" if first else b"ok\n"
        self.send_response(status)
        if first:
            self.send_header("Retry-After", RETRY_AFTER)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        say("ANSWERED %d %.3f" % (status, time.monotonic()))


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
say("PORT %d" % server.server_address[1])
server.serve_forever()
