#!/usr/bin/env python3
"""Run a command; print its wall time and the peak RSS of its largest process as JSON.

Usage: measure.py LABEL COMMAND [ARG...]
"""
import json
import resource
import subprocess
import sys
import time

label, command = sys.argv[1], sys.argv[2:]
start = time.monotonic()
result = subprocess.run(command, stdout=subprocess.DEVNULL)
seconds = time.monotonic() - start
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"label": label, "seconds": seconds, "peakRSSKiB": peak_kib, "exit": result.returncode}))
sys.exit(result.returncode)
