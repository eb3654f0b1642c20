#!/usr/bin/env python3
"""Peak RSS with 20,000 and 100,000 queued jobs (goal: 100,000 within 128 MiB).

`ferry send` is the real binary with one small file per job, against `ferry serve` answering at
once (peak over the whole run) and against `ferry serve --stall` (every job stays queued; peak
once the process is idle, then it is interrupted). The interface is queue-memory-benchmark: the
model and the engine as `ferry DIRECTORY` runs them (select all, queue, apply the events, draw).

Usage: queue_memory.py FERRY QUEUE_MEMORY_BENCHMARK WORKDIR [COUNT...]
"""
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time

ferry, benchmark, work = sys.argv[1:4]
counts = [int(c) for c in sys.argv[4:]] or [20_000, 100_000]


def files(count):
    """A directory of `count` files of 100-300 bytes, made once."""
    directory = os.path.join(work, f"files-{count}")
    if not os.path.isdir(directory) or len(os.listdir(directory)) != count:
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
        rng = random.Random(count)
        for index in range(count):
            with open(os.path.join(directory, f"file-{index:06d}.txt"), "wb") as f:
                f.write(b"x" * rng.randint(100, 300))
    return directory


def serve(*options):
    """Starts `ferry serve` on a free port; returns the process and its upload URL."""
    uploads = os.path.join(work, "uploads")
    shutil.rmtree(uploads, ignore_errors=True)
    process = subprocess.Popen([ferry, "serve", "--port", "0", "--dir", uploads, *options],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = process.stdout.readline().strip()
    # The receiver logs a line per request on standard output: keep reading it, or once the pipe
    # is full the receiver blocks (and never stops) after some 200 uploads.
    threading.Thread(target=lambda: shutil.copyfileobj(process.stdout, open(os.devnull, "w")), daemon=True).start()
    return process, url


def environment():
    """A fresh journal for every run."""
    state = os.path.join(work, "state")
    shutil.rmtree(state, ignore_errors=True)
    return dict(os.environ, XDG_STATE_HOME=state)


def raise_argument_limit():
    # ARG_MAX is a quarter of the stack limit: 100,000 paths need more than the usual 2 MiB.
    resource.setrlimit(resource.RLIMIT_STACK, (256 * 1024 * 1024, resource.RLIM_INFINITY))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def send(count, stalled):
    directory = files(count)
    receiver, url = serve("--stall") if stalled else serve()
    # Names relative to the directory ferry runs in: Linux caps an argument list at 6 MiB
    # whatever the stack limit, and 100,000 absolute paths here are more than that.
    names = sorted(os.listdir(directory))
    command = [ferry, "send", "--concurrency", "8", "--retry", "0", "--url", url, *names]
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=directory,
                               env=environment(), preexec_fn=raise_argument_limit)
    if stalled:
        # Everything is queued (and 8 requests hang) once the process stops using CPU.
        last, quiet = -1.0, 0
        while quiet < 3 and process.poll() is None:
            time.sleep(1)
            now = cpu_seconds(process.pid)
            quiet = quiet + 1 if now == last else 0
            last = now
        peak = peak_kib(process.pid)
        process.send_signal(signal.SIGINT)
        process.wait()
        what = "all queued, receiver stalled"
    else:
        _, status, usage = os.wait4(process.pid, 0)
        peak = usage.ru_maxrss
        what = f"sent, exit {os.waitstatus_to_exitcode(status)}"
    receiver.send_signal(signal.SIGINT)
    receiver.wait()
    print(f"ferry send, {count:,} jobs ({what}): peak RSS {peak / 1024:.1f} MiB "
          f"after {time.monotonic() - start:.0f} s (goal for 100,000: <= 128 MiB)", flush=True)


def interface(count, stalled):
    receiver, url = serve("--stall") if stalled else serve()
    seconds = "15" if stalled else "600"
    result = subprocess.run([benchmark, files(count), url, seconds], env=environment(),
                            stdout=subprocess.PIPE, text=True)
    receiver.send_signal(signal.SIGINT)
    receiver.wait()
    label = "receiver stalled" if stalled else "receiver answering"
    for line in result.stdout.splitlines():
        print(f"{line} ({count:,} jobs, {label})", flush=True)


os.makedirs(work, exist_ok=True)
for count in counts:
    for stalled in (True, False):
        send(count, stalled)
        interface(count, stalled)
