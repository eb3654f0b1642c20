#!/usr/bin/env bash
# Prints the interface's CPU use while idle (goal < 0.5 %): starts `ferry` on the bundled
# samples in a detached tmux pane, lets it settle, then reads utime+stime from /proc/PID/stat
# over SECONDS (default 20). Not a test.
#   Benchmarks/idle-cpu.sh [path/to/ferry]
set -euo pipefail
ferry="${1:?usage: $0 path/to/ferry}"
seconds="${SECONDS_IDLE:-20}"
socket="ferry-idle-$$"
state="$(mktemp -d)"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$state"' EXIT
tmux -L "$socket" -f /dev/null new-session -d -s idle -x 120 -y 40 \
    env XDG_STATE_HOME="$state" TERM=screen "$ferry" --url http://127.0.0.1:9/upload /
sleep 3
pid="$(tmux -L "$socket" display-message -p -t idle '#{pane_pid}')"
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz="$(getconf CLK_TCK)"
before="$(ticks)"; start="$(date +%s.%N)"
sleep "$seconds"
after="$(ticks)"; end="$(date +%s.%N)"
python3 -c "
ticks = $after - $before; wall = $end - $start
print(f'idle CPU over {wall:.1f} s: {ticks} ticks of 1/$hz s = {100 * ticks / $hz / wall:.3f} % (goal < 0.5 %)')
"
