#!/usr/bin/env python3
"""Run a command; print its wall time, CPU time and the peak RSS of its largest process as JSON.

Usage: measure.py [OPTION=VALUE...] LABEL COMMAND [ARG...]

Options (each written as one word, before LABEL):
  --stdout=FILE      the command's standard output goes to FILE (default: /dev/null)
  --stderr=FILE      the command's standard error goes to FILE (default: inherited)
  --cwd=DIR          run the command in DIR
  --args-from=FILE   append FILE's lines to the command's arguments (one argument per line), so a
                     long list need not pass through this script's own argument list
  --timeout=SECONDS  kill the command after SECONDS (the record then has "timedOut": true)
  --watch-pid=PID    also report the CPU seconds PID used meanwhile as "watchedCPUSeconds" (a
                     server, say); may be repeated, the times are summed

"cpuSeconds" is user + system time of the command and every descendant it waited for
(RUSAGE_CHILDREN, as a difference: Python may have run children of its own before). "peakRSSKiB"
is the largest resident set of any one of them, as GNU time (/usr/bin/time, Debian package `time`)
reports it: the kernel counts a process's memory from before its exec too, so a command started
straight from Python would show at least Python's own ~14 MiB; started from GNU time it shows at
least time's ~1.5 MiB. Without /usr/bin/time the figure comes from RUSAGE_CHILDREN with that floor
("rssFloor": "python").
"""
import errno
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time

options = {"watch-pid": []}
arguments = sys.argv[1:]
while arguments and arguments[0].startswith("--") and "=" in arguments[0]:
    name, _, value = arguments.pop(0)[2:].partition("=")
    if name == "watch-pid":
        options[name].append(int(value))
    elif name in ("stdout", "stderr", "cwd", "args-from", "timeout"):
        options[name] = value
    else:
        sys.exit(f"measure.py: unknown option --{name}")
if len(arguments) < 2:
    sys.exit(__doc__)
label, command = arguments[0], arguments[1:]
if "args-from" in options:
    with open(options["args-from"]) as listing:
        command += listing.read().splitlines()


def process_cpu_seconds(pid):
    """User + system seconds of a live process (fields 14 and 15 of /proc/PID/stat)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime, usage.ru_stime


gnu_time = "/usr/bin/time"
rss_file = None
if os.access(gnu_time, os.X_OK):
    rss_file = tempfile.NamedTemporaryFile(prefix="measure-rss-", mode="r")
    command = [gnu_time, "-q", "-o", rss_file.name, "-f", "%M"] + command
stdout = open(options.get("stdout", os.devnull), "wb")
stderr = open(options["stderr"], "wb") if "stderr" in options else None
timeout = float(options["timeout"]) if "timeout" in options else None
watched_before = sum(process_cpu_seconds(pid) for pid in options["watch-pid"])
user_before, system_before = children_cpu_seconds()
record = {"label": label}
start = time.monotonic()
try:
    # A session of its own, so a timeout can kill the command together with GNU time.
    process = subprocess.Popen(command, stdout=stdout, stderr=stderr, cwd=options.get("cwd"), start_new_session=True)
except OSError as error:
    # E2BIG: the argument list (plus the environment) is larger than the kernel takes.
    record.update(seconds=0.0, peakRSSKiB=0, cpuSeconds=0.0, exit=126 if error.errno == errno.E2BIG else 127,
                  error=os.strerror(error.errno))
    print(json.dumps(record))
    sys.exit(record["exit"])


def stop(signum, frame):
    """Killed or interrupted: the command is in a session of its own, so stop it first."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    sys.exit(128 + signum)


for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(signum, stop)
# Popen.wait(timeout=...) polls with sleeps growing to 50 ms, which rounded every short run up to
# the next poll (2,000 small files took 0.1635 s whatever the client): wait in waitpid, exactly,
# and let a timer kill the command at the timeout instead.
expired = threading.Event()


def expire():
    expired.set()
    os.killpg(process.pid, signal.SIGKILL)


timer = threading.Timer(timeout, expire) if timeout is not None else None
if timer is not None:
    timer.start()
returncode = process.wait()
seconds = time.monotonic() - start
if timer is not None:
    timer.cancel()
timed_out = expired.is_set()
user_after, system_after = children_cpu_seconds()
user, system = user_after - user_before, system_after - system_before
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
if rss_file is not None:
    try:
        peak_kib = int(rss_file.read().split()[-1])
    except (ValueError, IndexError):
        record["rssFloor"] = "python"  # killed before GNU time wrote it: the floored figure
else:
    record["rssFloor"] = "python"
record.update(seconds=seconds, peakRSSKiB=peak_kib, exit=returncode,
              cpuSeconds=user + system, userSeconds=user, systemSeconds=system)
if options["watch-pid"]:
    record["watchedCPUSeconds"] = sum(process_cpu_seconds(pid) for pid in options["watch-pid"]) - watched_before
if timed_out:
    record["timedOut"] = True
print(json.dumps(record))
sys.exit(returncode if returncode >= 0 else 128 - returncode)
