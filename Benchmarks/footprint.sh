#!/usr/bin/env bash
# Ferry's footprint against curl's: peak RSS and wall time (medians of ROUNDS runs, curl and ferry
# alternating) of `--help`, `--version`, an upload of a 3-byte file (with the journal of earlier
# runs, and as a first run that creates it), of a 1 GiB file and of 2,000
# small files (to a discarding receiver that reads every body before it answers), then the
# resident memory of an idle upload (waiting for an answer that never comes) and of the idle
# interface (in tmux), broken down by mapping from /proc/PID/smaps. Not a test.
#   Benchmarks/footprint.sh path/to/ferry      # Benchmarks/run.sh footprint builds release first
# ROUNDS (5), IDLE_SECONDS (4), BENCH_DIR (/tmp/ferry-bench: the 1 GiB file and the small files
# are made there once and shared with `run.sh upload`).
set -euo pipefail
ferry="$(realpath "${1:?usage: $0 path/to/ferry}")"
here="$(cd "$(dirname "$0")" && pwd)"
work="${BENCH_DIR:-/tmp/ferry-bench}"
rounds="${ROUNDS:-5}"
idle_seconds="${IDLE_SECONDS:-4}"
mkdir -p "$work"
scratch="$(mktemp -d "$work/footprint.XXXXXX")"
socket="ferry-footprint-$$"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    tmux -L "$socket" kill-server 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for_port() {
    for _ in $(seq 1 100); do
        python3 -c "import socket, sys; socket.create_connection(('127.0.0.1', $1), 1)" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "footprint.sh: nothing listens on port $1" >&2
    exit 1
}

# The receivers: one that reads each body and answers 200, one that reads and never answers.
port="$(free_port)"
"$here/discard_server.py" "$port" & pids+=($!)
stall_port="$(free_port)"
python3 -c '
import socket, sys, threading
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", int(sys.argv[1])))
listener.listen(64)
def drain(conn):
    while conn.recv(65536):
        pass
while True:
    threading.Thread(target=drain, args=(listener.accept()[0],), daemon=True).start()
' "$stall_port" & pids+=($!)
wait_for_port "$port"
wait_for_port "$stall_port"
url="http://127.0.0.1:$port/upload"
stall_url="http://127.0.0.1:$stall_port/upload"

# The files.
tiny="$scratch/three.txt"
printf 'hi\n' > "$tiny"
big="$work/1GiB.bin"
[ -f "$big" ] && [ "$(stat -c %s "$big")" = 1073741824 ] || head -c 1073741824 /dev/urandom > "$big"
cat "$big" > /dev/null # from the page cache, for both
small="$work/small"
if [ ! -d "$small" ] || [ "$(ls "$small" | wc -l)" != 2000 ]; then
    rm -rf "$small"
    mkdir -p "$small"
    for i in $(seq 1 2000); do head -c 4096 /dev/urandom > "$small/f$i.bin"; done
fi
list="$scratch/small.list"
(cd "$small" && ls -1 | sort) > "$list"
# curl -Z: one operation per file, `next` between them (as Benchmarks/many-files.sh does).
awk -v url="$url" 'NR > 1 { print "next" }
    { printf "url = \"%s\"\nform = \"file=@%s\"\noutput = \"/dev/null\"\n", url, $0 }' "$list" > "$scratch/small.curl"

records="$scratch/records.jsonl"
measure() { "$here/measure.py" "$@" >> "$records"; }
fresh_state() { rm -rf "$scratch/state"; mkdir -p "$scratch/state"; echo "$scratch/state"; }
# A one-file send as users run it, with the journal earlier runs left (made here by one run first);
# "ferry-3B-new" is a first run ever, which creates the journal.
kept_state="$scratch/kept-state"
XDG_STATE_HOME="$kept_state" "$ferry" send --retry 0 --url "$url" "$tiny" > /dev/null

echo "footprint: $rounds rounds; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
for round in $(seq 1 "$rounds"); do
    measure curl-help curl --help
    measure ferry-help "$ferry" --help
    measure curl-version curl --version
    measure ferry-version "$ferry" --version
    measure curl-3B curl -s -o /dev/null -F "file=@$tiny" "$url"
    XDG_STATE_HOME="$kept_state" measure ferry-3B "$ferry" send --retry 0 --url "$url" "$tiny"
    measure curl-3B-new curl -s -o /dev/null -F "file=@$tiny" "$url"
    XDG_STATE_HOME="$(fresh_state)" measure ferry-3B-new "$ferry" send --retry 0 --url "$url" "$tiny"
    measure curl-1GiB curl -s -o /dev/null -F "file=@$big" "$url"
    XDG_STATE_HOME="$(fresh_state)" measure ferry-1GiB "$ferry" send --retry 0 --url "$url" "$big"
    measure --cwd="$small" curl-2000 curl -Z --parallel-max 8 -sS --no-progress-meter -K "$scratch/small.curl"
    XDG_STATE_HOME="$(fresh_state)" measure --cwd="$small" --args-from="$list" ferry-2000 \
        "$ferry" send --concurrency 8 --retry 0 --url "$url"
    echo "round $round done" >&2
done

# Idle: resident memory after IDLE_SECONDS, and where it is (smaps).
idle="$scratch/idle"
mkdir -p "$idle"
snapshot() { # LABEL PID: VmRSS/VmHWM and the smaps breakdown, once the process has settled
    sleep "$idle_seconds"
    python3 "$here/footprint_smaps.py" "$1" "$2" >> "$idle/$1.jsonl"
}
for round in $(seq 1 3); do
    curl -s -o /dev/null -F "file=@$tiny" "$stall_url" & pid=$!
    snapshot curl-idle-upload "$pid"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    XDG_STATE_HOME="$(fresh_state)" "$ferry" send --retry 0 --url "$stall_url" "$tiny" > /dev/null 2>&1 & pid=$!
    snapshot ferry-idle-upload "$pid"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    state="$(fresh_state)"
    tmux -L "$socket" -f /dev/null new-session -d -s idle -x 120 -y 40 \
        env XDG_STATE_HOME="$state" TERM=screen "$ferry" --url "$url" "$here/../Resources/samples"
    pid="$(tmux -L "$socket" display-message -p -t idle '#{pane_pid}')"
    snapshot ferry-idle-interface "$pid"
    tmux -L "$socket" kill-server 2>/dev/null || true
done

python3 - "$records" "$idle" <<'PY'
import json, os, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
failed = [r for r in rows if r["exit"] != 0]
def median(label, key):
    return statistics.median(r[key] for r in rows if r["label"] == label)
print(f"{'case':<22}{'curl s':>9}{'ferry s':>9}{'ratio':>7}   {'curl RSS':>9}{'ferry RSS':>10}{'ratio':>7}")
for case, name in [("help", "--help"), ("version", "--version"), ("3B", "send 3 B"),
                   ("3B-new", "send 3 B, new journal"),
                   ("1GiB", "send 1 GiB"), ("2000", "send 2,000 x 4 KiB")]:
    cs, fs = median(f"curl-{case}", "seconds"), median(f"ferry-{case}", "seconds")
    cr, fr = median(f"curl-{case}", "peakRSSKiB") / 1024, median(f"ferry-{case}", "peakRSSKiB") / 1024
    print(f"{name:<22}{cs:>9.3f}{fs:>9.3f}{fs / cs:>7.2f}   {cr:>7.1f} M{fr:>8.1f} M{fr / cr:>7.2f}")
print("(medians; s = wall seconds, RSS = peak resident MiB of the largest process, ratio = ferry/curl)")
if failed:
    print(f"FAILED RUNS: {len(failed)}: " + ", ".join(sorted({r['label'] for r in failed})))

def load(label):
    path = os.path.join(sys.argv[2], label + ".jsonl")
    return [json.loads(line) for line in open(path)] if os.path.exists(path) else []
def kind(name):
    """The kind of memory a mapping group is, for the one-line summary."""
    if " executable " in name:
        return "executable"
    if name.startswith(("libFoundation", "lib_FoundationICU")):
        return "Foundation + ICU"
    if name.startswith(("libswift", "libdispatch", "libBlocksRuntime")):
        return "Swift runtime + Dispatch"
    if name.startswith(("[heap]", "[stack]", "anonymous")):
        return "heap + anonymous + stacks"
    return "other libraries and files"
snapshots = {label: load(label) for label in ("curl-idle-upload", "ferry-idle-upload", "ferry-idle-interface")}
print()
for label, runs in snapshots.items():
    if not runs:
        continue
    rss = statistics.median(r["rssKiB"] for r in runs) / 1024
    hwm = statistics.median(r["hwmKiB"] for r in runs) / 1024
    threads = statistics.median(r["threads"] for r in runs)
    print(f"{label}: RSS {rss:.1f} MiB (peak {hwm:.1f} MiB), {threads:.0f} threads; by mapping (median run):")
    run = sorted(runs, key=lambda r: r["rssKiB"])[len(runs) // 2]
    total = sum(g["rss"] for g in run["groups"]) or 1
    kinds = {}
    for group in run["groups"]:
        kinds[kind(group["name"])] = kinds.get(kind(group["name"]), 0) + group["rss"]
    print("  " + "; ".join(f"{name} {kib / 1024:.1f} MiB ({100 * kib / total:.0f} %)"
                           for name, kib in sorted(kinds.items(), key=lambda item: -item[1])))
    print(f"  {'mapping':<46}{'RSS KiB':>9}{'private':>9}")
    for group in run["groups"]:
        if group["rss"] >= 64:
            print(f"  {group['name']:<46}{group['rss']:>9}{group['private']:>9}")
    rest = [g for g in run["groups"] if g["rss"] < 64]
    if rest:
        print(f"  {'%d smaller groups' % len(rest):<46}{sum(g['rss'] for g in rest):>9}{sum(g['private'] for g in rest):>9}")
PY
