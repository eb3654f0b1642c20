#!/usr/bin/env python3
"""Where a live process's resident memory is, from /proc/PID/smaps, as one JSON line.

Usage: footprint_smaps.py LABEL PID

Mappings are grouped: the executable's text (r-x) and its other mappings; each shared library by
name; [heap] (glibc's main arena); [stack] (the main thread's); anonymous mappings holding a
thread's stack pointer (the other threads' stacks, found from /proc/PID/task/TID/syscall, which
needs the right to ptrace the process); the other anonymous mappings (malloc's mmap'd blocks and
other arenas, the Swift runtime's metadata, buffers). "rss" and "private" (Private_Clean +
Private_Dirty) are KiB; a library's shared pages count in "rss" but not "private".
"""
import json
import os
import re
import sys

label, pid = sys.argv[1], int(sys.argv[2])
exe = os.path.realpath(f"/proc/{pid}/exe")

stack_pointers = []
for tid in os.listdir(f"/proc/{pid}/task"):
    try:
        fields = open(f"/proc/{pid}/task/{tid}/syscall").read().split()
    except OSError:
        continue
    # "NR ARG1..ARG6 SP PC" in a system call, "-1 SP PC" blocked outside one, "running" otherwise.
    if len(fields) >= 3:
        stack_pointers.append(int(fields[-2], 16))

status = {}
for line in open(f"/proc/{pid}/status"):
    name, _, value = line.partition(":")
    status[name] = value.split()

header = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$")
groups = {}
current = None
stacks_found = 0
for line in open(f"/proc/{pid}/smaps"):
    match = header.match(line)
    if match:
        start, end, perms, path = int(match[1], 16), int(match[2], 16), match[3], match[4]
        if path == exe:
            name = f"{os.path.basename(exe)} executable " + ("text" if "x" in perms else "data")
        elif path.startswith("/"):
            name = re.sub(r"\.so(\.[0-9.]+)?$", ".so", os.path.basename(path))
        elif path in ("[heap]", "[stack]"):
            name = {"[heap]": "[heap] (main malloc arena)", "[stack]": "[stack] (main thread)"}[path]
        elif path:
            name = path
        else:
            holding = sum(start <= sp < end for sp in stack_pointers)
            stacks_found += holding
            name = "anonymous: thread stacks" if holding else "anonymous: other (malloc mmap/arenas, runtime)"
        current = groups.setdefault(name, {"name": name, "rss": 0, "private": 0, "mappings": 0})
        current["mappings"] += 1
        continue
    if current is None:
        continue
    key, _, value = line.partition(":")
    if key == "Rss":
        current["rss"] += int(value.split()[0])
    elif key in ("Private_Clean", "Private_Dirty"):
        current["private"] += int(value.split()[0])

print(json.dumps({
    "label": label, "pid": pid,
    "rssKiB": int(status["VmRSS"][0]), "hwmKiB": int(status["VmHWM"][0]),
    "threads": int(status["Threads"][0]), "threadStacksFound": stacks_found,
    "groups": sorted(groups.values(), key=lambda g: -g["rss"]),
}))
