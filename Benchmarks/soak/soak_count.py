#!/usr/bin/env python3
"""Counts one soak run of Benchmarks/soak.sh and prints its line.

Usage: soak_count.py LABEL MANIFEST SERVER_LOG LOG_FORMAT FERRY_OUT FERRY_ERR SECONDS EXIT_STATUS SERVER_SOCKETS

MANIFEST: "NAME<TAB>BYTES<TAB>MD5" per file sent. SERVER_LOG: what the server recorded, in
LOG_FORMAT "tsv" (the same three columns per arrived file) or "nginx"
("$connection $connection_requests $request_body_file" per request; the file is the body). FERRY_OUT: ferry send's
--json events; FERRY_ERR: its standard error (with the FERRY_CONNECTION_CENSUS line).
SERVER_SOCKETS: the server's connections to the port still ESTABLISHED or CLOSE-WAIT after
ferry exited. Counted on the server's side: a file arrived when the server logged its name with
the right size and MD5; duplicates are extra arrivals of one name; lost are names never logged;
wrong are arrivals whose size or MD5 differ from the file's.
"""
import collections, json, re, sys

label, manifest, server_log, log_format, out, err, seconds, status, sockets = sys.argv[1:10]
expected = {}
for line in open(manifest):
    name, size, digest = line.rstrip("\n").split("\t")
    expected[name] = (int(size), digest)

arrivals = collections.Counter()
wrong = 0
connections = set()
requests = 0
if log_format == "tsv":
    for line in open(server_log, encoding="utf-8", errors="surrogateescape"):
        name, size, digest = line.rstrip("\n").split("\t")
        requests += 1
        arrivals[name] += 1
        if expected.get(name) != (int(size), digest):
            wrong += 1
else:
    import hashlib
    part = re.compile(rb'filename="([^"]*)"\r\n(?:[^\r\n]+\r\n)*\r\n(.*?)\r\n--', re.S)
    for line in open(server_log, encoding="utf-8"):
        connection, _, body_file = line.rstrip("\n").split(" ", 2)
        connections.add(connection)
        requests += 1
        if body_file == "-":
            continue
        with open(body_file, "rb") as f:
            raw = f.read()
        for name, content in part.findall(raw):
            name = name.decode()
            arrivals[name] += 1
            if expected.get(name) != (len(content), hashlib.md5(content).hexdigest()):
                wrong += 1

duplicates = sum(count - 1 for name, count in arrivals.items() if count > 1)
lost = sum(1 for name in expected if name not in arrivals)
unknown = sum(1 for name in arrivals if name not in expected)

events = collections.Counter()
summary = {}
errors = collections.Counter()
for line in open(out):
    try:
        record = json.loads(line)
    except ValueError:
        continue
    events[record.get("event")] += 1
    if record.get("event") == "summary":
        summary = record
    if record.get("event") == "failed":
        errors[record.get("error", "?")] += 1
census = "none printed"
for line in open(err):
    if "connection census" in line:
        census = line.split("connection census: ", 1)[1].strip()
failures = max(events["failed"], summary.get("failed") or 0)

files = len(expected)
secs = float(seconds)
text = (f"{label}: files {files}, {secs:.1f} s, {files / secs:.0f} files/s, failures {failures}, "
        f"duplicates {duplicates}, lost {lost}, wrong {wrong + unknown}, retries {events['retrying']}, "
        f"exit {status}, census [{census}], server sockets left {sockets}")
if connections:
    text += f", nginx connections {len(connections)} for {requests} requests"
try:
    text += ", server: " + open(server_log + ".connections").read().strip()
except OSError:
    pass
print(text)
for error, count in errors.most_common(5):
    print(f"  {count} x {error}")
