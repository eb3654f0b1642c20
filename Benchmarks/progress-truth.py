#!/usr/bin/env python3
"""How true `ferry send`'s progress is: the time from the first progress event at or above 95 %
(and at 100 %) to the upload's answer, against `ferry serve --throttle RATE`, which reads bodies
at RATE. Progress that counts what the server acknowledged reaches 95 % about 5 % of the body's
time before the answer; progress that counts what the socket buffer took reaches it seconds early.
Figures, not a test.

Usage: progress-truth.py FERRY_BINARY [SIZE_MIB [THROTTLE [ROUNDS]]]   (default 3 MiB, 300K, 3)
"""
import json, os, statistics, subprocess, sys, tempfile, time

def one_round(ferry, size, throttle, work):
    received = os.path.join(work, "received")
    os.makedirs(received, exist_ok=True)
    serve = subprocess.Popen([ferry, "serve", "--port", "0", "--dir", received, "--throttle", throttle],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = serve.stdout.readline().strip()
        path = os.path.join(work, "body.bin")
        with open(path, "wb") as f:
            f.write(os.urandom(size))
        env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"))
        start = time.monotonic()
        send = subprocess.Popen([ferry, "send", "--json", "--url", url, path], stdout=subprocess.PIPE, text=True, env=env)
        at95 = at100 = done = None
        for line in send.stdout:
            now = time.monotonic() - start
            event = json.loads(line)
            if event.get("event") == "progress" and event.get("total"):
                fraction = event["bytes"] / event["total"]
                if fraction >= 0.95 and at95 is None: at95 = now
                if fraction >= 1 and at100 is None: at100 = now
            if event.get("event") == "succeeded":
                done = now
        send.wait()
        if at95 is None: at95 = done
        if at100 is None: at100 = done
        return done, done - at95, done - at100
    finally:
        serve.terminate()
        serve.wait()

def main():
    ferry = sys.argv[1]
    size = int(float(sys.argv[2]) * 1024 * 1024) if len(sys.argv) > 2 else 3 * 1024 * 1024
    throttle = sys.argv[3] if len(sys.argv) > 3 else "300K"
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    results = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as work:
            results.append(one_round(ferry, size, throttle, work))
    total, after95, after100 = (statistics.median(r[i] for r in results) for i in range(3))
    print(f"{ferry}: {size / 1048576:g} MiB at --throttle {throttle}, {rounds} rounds (medians): "
          f"upload {total:.2f} s; from progress >= 95 % to the answer {after95:.2f} s; from 100 % {after100:.2f} s")

main()
