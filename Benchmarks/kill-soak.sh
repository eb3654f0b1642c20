#!/usr/bin/env bash
# Kill soak (issue 23): ROUNDS rounds of `ferry send` of FILES small files at concurrency 8
# against `ferry serve --delay 50`, killed with SIGKILL at a random moment, then
# `ferry send --resume`; counted server-side, where a second copy of NAME.EXT is stored as
# NAME-1.EXT. Not a test (CI does not run it): it prints counts.
#
# Usage: kill-soak.sh FERRY_BINARY [ROUNDS]   (ROUNDS defaults to 20; FILES to 300)
# Per round and in total it prints:
#   duplicates  files stored more than once (must be 0: nothing is re-sent without the user)
#   lost        files not stored and not reported "may have arrived" by --resume (must be 0)
#   reported    files --resume reported as "may have arrived" (stored or not: the user decides)
#   resent-ok   files whose 2xx the killed run had printed and that --resume sent again (must be 0)
set -euo pipefail
ferry="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
rounds="${2:-20}"
count="${FILES:-300}"
work="$(mktemp -d /tmp/ferry-kill-soak.XXXXXX)"
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
mkdir -p "$work/files"
for i in $(seq -w 1 "$count"); do head -c $((100 + RANDOM % 200)) /dev/urandom > "$work/files/f$i.bin"; done
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
for round in $(seq 1 "$rounds"); do
    up="$work/up$round"; state="$work/state$round"
    mkdir -p "$up" "$state"
    "$ferry" serve --port "$port" --dir "$up" --delay 50 > /dev/null 2>&1 &
    serve=$!
    until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; do sleep 0.05; done
    XDG_STATE_HOME="$state" "$ferry" send --url "http://127.0.0.1:$port/upload" --concurrency 8 --json \
        "$work"/files/*.bin > "$work/send$round.jsonl" 2> "$work/send$round.err" &
    send=$!
    sleep "$(python3 -c 'import random; print(round(random.uniform(0.2, 2.5), 3))')"
    kill -9 "$send" 2>/dev/null || true
    wait "$send" 2>/dev/null || true
    XDG_STATE_HOME="$state" "$ferry" send --resume --json > "$work/resume$round.jsonl" 2> "$work/resume$round.err" || true
    kill "$serve"; wait "$serve" 2>/dev/null || true
    python3 - "$work" "$round" "$count" <<'PY'
import json, os, re, sys
work, round_, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = sorted(os.listdir(f"{work}/files"))
stored = {}
for name in os.listdir(f"{work}/up{round_}"):
    m = re.fullmatch(r"(f\d+)(?:-\d+)?\.bin", name)
    if m: stored[m.group(1) + ".bin"] = stored.get(m.group(1) + ".bin", 0) + 1
def records(path):
    out = []
    for line in open(path, errors="replace"):
        try: out.append(json.loads(line))
        except ValueError: pass
    return out
printed_ok = {os.path.basename(r["path"]) for r in records(f"{work}/send{round_}.jsonl") if r.get("event") == "succeeded"}
resume = records(f"{work}/resume{round_}.jsonl")
reported = {os.path.basename(r["path"]) for r in resume
            if r.get("event") in ("failed", "left") and "may have arrived" in (r.get("error") or "")}
resent = {os.path.basename(r["path"]) for r in resume if r.get("event") == "started"}
dup = sorted(n for n in names if stored.get(n, 0) > 1)
lost = sorted(n for n in names if stored.get(n, 0) == 0 and n not in reported)
resent_ok = sorted(printed_ok & resent)
line = dict(round=int(round_), printedSucceeded=len(printed_ok), resumed=len(resent), duplicates=len(dup),
            lost=len(lost), reported=len(reported), reportedStored=len([n for n in reported if stored.get(n, 0)]),
            resentAfterPrinted2xx=len(resent_ok))
if dup: line["duplicateNames"] = dup[:10]
if lost: line["lostNames"] = lost[:10]
print(json.dumps(line))
with open(f"{work}/rounds.jsonl", "a") as f: f.write(json.dumps(line) + "\n")
PY
done
python3 - "$work" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1] + "/rounds.jsonl")]
total = lambda k: sum(r[k] for r in rows)
print(f"{len(rows)} rounds: duplicates {total('duplicates')}, lost {total('lost')}, "
      f"reported may-have-arrived {total('reported')} ({total('reportedStored')} of them stored), "
      f"re-sent after a printed 2xx {total('resentAfterPrinted2xx')}; work dir {sys.argv[1]}")
PY
