#!/usr/bin/env python3
"""One run of `Benchmarks/run.sh many`, as one JSON line: measure.py's record plus the run's
outcome counted from the client's output, and a progress line on standard error.

Usage: many-files-record.py curl|ferry N ROUND RUN_DIR
  RUN_DIR/record  measure.py's JSON line
  RUN_DIR/out     curl: one %{http_code} per transfer; ferry: its --json events (JSON Lines)
  RUN_DIR/err     the client's standard error

"succeeded" counts 200s (curl) or `succeeded` events (ferry); "failed" is N minus that, so a
transfer that never finished (a crash, a timeout) counts too; "errors" tallies what was said about
the failures (curl's `curl: (N) ...` lines, ferry's `failed` events' error).
"""
import collections
import json
import sys

client, n, round_, run_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
try:
    with open(f"{run_dir}/record") as file:
        record = json.loads(file.read().strip().splitlines()[-1])
except (OSError, ValueError, IndexError):
    record = {"seconds": 0.0, "peakRSSKiB": 0, "cpuSeconds": 0.0, "exit": None, "error": "no record from measure.py"}
errors = collections.Counter()
succeeded = 0
with open(f"{run_dir}/out", "rb") as file:
    if client == "curl":
        codes = collections.Counter(line.strip().decode(errors="replace") for line in file)
        succeeded = codes.pop("200", 0)
        record["otherCodes"] = dict(codes)  # "000": no response (curl says why on stderr)
    else:
        for line in file:
            if b'"event":"succeeded"' in line:
                succeeded += 1
            elif b'"event":"failed"' in line:
                errors[json.loads(line).get("error") or "failed"] += 1
            elif b'"event":"summary"' in line:
                record["summary"] = {k: v for k, v in json.loads(line).items() if k != "event"}
with open(f"{run_dir}/err", "rb") as file:
    stderr_lines = file.read().decode(errors="replace").splitlines()
if client == "curl":
    errors = collections.Counter(line for line in stderr_lines if line.startswith("curl: ("))
else:
    record["stderrLines"] = len(stderr_lines)
    if stderr_lines:
        record["stderrFirst"] = stderr_lines[0][:300]
with open("/proc/loadavg") as file:
    record["loadAverage"] = float(file.read().split()[0])  # 1 minute, as the run ends: others' work skews figures
record.update(client=client, n=n, round=round_, succeeded=succeeded, failed=n - succeeded,
              errors=dict(errors.most_common(5)))
print(json.dumps(record))
took = f"{record['seconds']:.2f} s"
if record.get("timedOut"):
    took += " (timed out, killed)"
detail = "; ".join(f"{count}x {text}" for text, count in errors.most_common(3))
print(f"N={n} round {round_} {client}: {took}, exit {record['exit']}, {n - succeeded} failed, "
      f"load {record['loadAverage']:.1f}"
      + (f" ({detail})" if detail else ""), file=sys.stderr)
