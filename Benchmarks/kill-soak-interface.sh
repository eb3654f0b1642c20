#!/usr/bin/env bash
# Kill soak of the interface (issue 23): ROUNDS rounds of `ferry` (the interface) in a detached
# tmux session, pointed at `ferry serve --delay 50`: FILES small files selected in the Files pane
# (`a`) and queued (`u`) at concurrency 8, the interface killed with SIGKILL at a random moment,
# started again in tmux to restore (Enter keeps the failed jobs it offers to clear, `p` starts the
# jobs it holds), and left until the queue settles; counted server-side, where a second copy of
# NAME.EXT is stored as NAME-1.EXT. Not a test (CI does not run it): it prints counts.
#
# The interface runs as nobody (setpriv, when this runs as root), its state in a fresh
# XDG_STATE_HOME per round; the server runs as the caller.
#
# Usage: kill-soak-interface.sh FERRY_BINARY [ROUNDS]   (ROUNDS defaults to 10; FILES to 300)
# Per round and in total it prints:
#   duplicates  files stored more than once (must be 0: nothing is re-sent without the user)
#   lost        files not stored and not reported "may have arrived" after the restart (must be 0)
#   reported    jobs the restarted interface shows "may have arrived" (`ferry jobs list --json`)
#   resent-ok   files shown done (✓, on the screen just before the kill) stored twice (must be 0)
set -euo pipefail
ferry="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
rounds="${2:-10}"
count="${FILES:-300}"
work="$(mktemp -d /tmp/ferry-kill-soak-ui.XXXXXX)"
chmod 755 "$work"
session="ferry-soak-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; kill $(jobs -p) 2>/dev/null || true' EXIT
mkdir -p "$work/files"
for i in $(seq -w 1 "$count"); do head -c $((100 + RANDOM % 200)) /dev/urandom > "$work/files/f$i.bin"; done
chmod -R a+rX "$work/files"
as_user=()
if [ "$(id -u)" = 0 ]; then as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi

screen() { tmux capture-pane -p -t "$session" 2>/dev/null || true; }
# Waits (up to $2 s) until the screen matches the regular expression $1.
wait_screen() {
    local deadline=$((SECONDS + $2))
    until screen | grep -Eq "$1"; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}
start_ui() {
    tmux new-session -d -s "$session" -x 160 -y 45 \
        "exec env HOME='$state' XDG_STATE_HOME='$state' XDG_CONFIG_HOME='$state' TERM=xterm-256color ${as_user[*]} '$ferry' --url '$url' --concurrency 8 '$work/files'"
}
wait_session_gone() {
    local deadline=$((SECONDS + 10))
    while tmux has-session -t "$session" 2>/dev/null; do
        if [ $SECONDS -ge $deadline ]; then tmux kill-session -t "$session" 2>/dev/null || true; return; fi
        sleep 0.1
    done
}

for round in $(seq 1 "$rounds"); do
    up="$work/up$round"; state="$work/state$round"
    mkdir -p "$up" "$state"
    [ ${#as_user[@]} = 0 ] || chown 65534:65534 "$state"
    "$ferry" serve --port 0 --dir "$up" --delay 50 > "$work/serve$round.out" 2>&1 &
    serve=$!
    until [ -s "$work/serve$round.out" ]; do sleep 0.05; done
    url="$(head -1 "$work/serve$round.out")"

    start_ui
    wait_screen 'f001\.bin' 20
    tmux send-keys -t "$session" a u
    sleep "$(python3 -c 'import random; print(round(random.uniform(0.2, 2.5), 3))')"
    screen > "$work/before-kill$round.txt"
    kill -9 "$(tmux display -p -t "$session" '#{pane_pid}')"
    wait_session_gone

    start_ui
    # The restore: failed jobs are offered for clearing (Enter keeps them); interrupted jobs wait
    # for `p`.
    wait_screen '│ (queue|paused|queued)' 20
    sleep 0.5
    if screen | tail -1 | grep -q 'c clear'; then tmux send-keys -t "$session" Enter; sleep 0.3; fi
    if screen | grep -q 'p starts them\|│ paused'; then tmux send-keys -t "$session" p; fi
    wait_screen '(queued 0 active 0/|queue empty)' 120 || echo "round $round: the queue did not settle" >&2
    screen > "$work/after$round.txt"
    tmux send-keys -t "$session" q
    wait_session_gone
    XDG_STATE_HOME="$state" "${as_user[@]}" "$ferry" jobs list --json > "$work/jobs$round.jsonl" 2>/dev/null || true
    sleep 0.2
    kill "$serve"; wait "$serve" 2>/dev/null || true
    python3 - "$work" "$round" <<'PY'
import json, os, re, sys
work, round_ = sys.argv[1], sys.argv[2]
names = sorted(os.listdir(f"{work}/files"))
stored = {}
for name in os.listdir(f"{work}/up{round_}"):
    m = re.fullmatch(r"(f\d+)(?:-\d+)?\.bin", name)
    if m: stored[m.group(1) + ".bin"] = stored.get(m.group(1) + ".bin", 0) + 1
jobs = []
for line in open(f"{work}/jobs{round_}.jsonl", errors="replace"):
    try: jobs.append(json.loads(line))
    except ValueError: pass
reported = {os.path.basename(j["path"]) for j in jobs if j.get("mayHaveArrived")}
failed_other = sorted(os.path.basename(j["path"]) for j in jobs if j.get("state") == "failed" and not j.get("mayHaveArrived"))
shown_done = set(re.findall(r"✓ (f\d+\.bin)", open(f"{work}/before-kill{round_}.txt", errors="replace").read()))
dup = sorted(n for n in names if stored.get(n, 0) > 1)
lost = sorted(n for n in names if stored.get(n, 0) == 0 and n not in reported)
line = dict(round=int(round_), storedBeforeRestart=None, duplicates=len(dup), lost=len(lost), reported=len(reported),
            reportedStored=len([n for n in reported if stored.get(n, 0)]), failedOther=len(failed_other),
            shownDoneBeforeKill=len(shown_done), resentAfterShown2xx=len(shown_done & set(dup)))
if dup: line["duplicateNames"] = dup[:10]
if lost: line["lostNames"] = lost[:10]
if failed_other: line["failedOtherNames"] = failed_other[:10]
del line["storedBeforeRestart"]
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
      f"other failures {total('failedOther')}, re-sent after a shown 2xx {total('resentAfterShown2xx')}; work dir {sys.argv[1]}")
PY
