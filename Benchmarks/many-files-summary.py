#!/usr/bin/env python3
"""The summary line of `Benchmarks/run.sh many` for one N: medians over the rounds of each client.

Usage: many-files-summary.py RESULTS.jsonl N ROUNDS SECONDS_TAKEN

Per client: median seconds, files/s (files that got a 200, per second), CPU seconds (user + system of the client and its
children), CPU per file, peak RSS, and the failures of every round; then the ratios ferry/curl of
files/s (goal >= 1.0) and of CPU per file (goal <= 2.0), and nginx's CPU per file for each. The
highest 1-minute load average seen after a run is shown too: on 2 cores, anything else running
(another build, say) skews the figures.
"""
import json
import statistics
import sys

path, n, rounds, taken = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
records = [json.loads(line) for line in open(path)]
records = [r for r in records if r["n"] == n]


def figures(client):
    runs = [r for r in records if r["client"] == client]
    seconds = statistics.median(r["seconds"] for r in runs)
    cpu = statistics.median(r["cpuSeconds"] for r in runs)
    return {
        "seconds": seconds,
        "rate": statistics.median(r["succeeded"] / r["seconds"] if r["seconds"] > 0 else 0 for r in runs),
        "cpu": cpu,
        "cpuPerFile": statistics.median(r["cpuSeconds"] / n for r in runs),
        "rss": statistics.median(r["peakRSSKiB"] for r in runs) / 1024,
        "server": statistics.median(r.get("watchedCPUSeconds", 0) / n for r in runs),
        "failed": [r["failed"] for r in runs],
        "timedOut": sum(1 for r in runs if r.get("timedOut")),
    }


def line(client, f):
    failed = "/".join(str(x) for x in f["failed"])
    text = (f"{client} {f['seconds']:.2f} s {f['rate']:.0f} files/s CPU {f['cpu']:.2f} s "
            f"({f['cpuPerFile'] * 1e6:.0f} us/file) RSS {f['rss']:.1f} MiB failed {failed}")
    if f["timedOut"]:
        text += f" ({f['timedOut']} timed out)"
    return text


curl, ferry = figures("curl"), figures("ferry")
load = max(r.get("loadAverage", 0) for r in records)
rate_ratio = ferry["rate"] / curl["rate"] if curl["rate"] else float("nan")
cpu_ratio = ferry["cpuPerFile"] / curl["cpuPerFile"] if curl["cpuPerFile"] else float("nan")
print(f"N={n} ({rounds} rounds, {taken} s, max load {load:.1f}): {line('curl', curl)} | {line('ferry', ferry)} | "
      f"ferry/curl files/s {rate_ratio:.2f} (goal >= 1.0), CPU/file {cpu_ratio:.2f} (goal <= 2.0) | "
      f"nginx CPU/file curl {curl['server'] * 1e6:.0f} us, ferry {ferry['server'] * 1e6:.0f} us", flush=True)
