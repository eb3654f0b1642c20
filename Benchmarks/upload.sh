#!/usr/bin/env bash
# One 1 GiB file over plain HTTP/1.1 on 127.0.0.1: ferry send against curl -F, alternating, to two
# receivers that answer only once they have read the whole body — discard_server.py (Python, one
# thread per connection) and nginx (one worker; the body read whole through `mirror`, as
# many-files.sh does, into a temp file on tmpfs). Page cache warm. Prints medians per receiver:
# wall time and throughput, the client's user+system CPU, the receiver's CPU meanwhile, peak RSS,
# and ferry/curl for throughput and CPU. Figures, not a test.
# Usage: upload.sh FERRY_BINARY [ROUNDS]   (5 rounds by default; BENCH_DIR holds the file)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/nginx-common.sh"
ferry="$1"
rounds="${2:-5}"
work="${BENCH_DIR:-/tmp/ferry-bench}"
mkdir -p "$work"
command -v nginx >/dev/null || { echo "nginx is missing: apt-get install nginx" >&2; exit 1; }
nginx_dir="$(mktemp -d "${TMPDIR:-/tmp}/ferry-bench-upload.XXXXXX")"
body_dir="$(mktemp -d /dev/shm/ferry-bench-body.XXXXXX)"
chmod 755 "$nginx_dir"
chmod 777 "$body_dir" # nginx's worker runs as nobody
discard_port="$(free_port)"
"$here/discard_server.py" "$discard_port" & discard=$!
nginx_pid=""
cleanup() {
    [ -n "$nginx_pid" ] && kill -TERM "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    kill "$discard" 2>/dev/null || true
    rm -rf "$nginx_dir" "$body_dir"
}
trap cleanup EXIT
port="$(free_port)"
cat > "$nginx_dir/nginx.conf" <<CONF
$(nginx_head "$nginx_dir" 64 "$body_dir")
    client_body_buffer_size 4m; # the body reaches the temp file in 4 MiB writes (16 KiB by default)
    server {
        listen 127.0.0.1:$port;
$(sink_location)
    }
}
CONF
nginx -p "$nginx_dir" -c "$nginx_dir/nginx.conf" -e "$nginx_dir/error.log" 9>&- &
nginx_pid=$!
for _ in $(seq 1 50); do
    curl -s -o /dev/null "http://127.0.0.1:$port/upload" && break
    sleep 0.1
done
worker="$(cat "/proc/$nginx_pid/task/$nginx_pid/children")"
file="$work/1GiB.bin"
[ -f "$file" ] && [ "$(stat -c %s "$file")" = 1073741824 ] || head -c 1073741824 /dev/urandom > "$file"
cat "$file" > /dev/null
export XDG_STATE_HOME="$nginx_dir/state"
python_url="http://127.0.0.1:$discard_port/upload"
nginx_url="http://127.0.0.1:$port/upload"
for round in $(seq 1 "$rounds"); do
    "$here/measure.py" --watch-pid="$discard" curl-python curl -sS -o /dev/null -F "file=@$file" "$python_url"
    "$here/measure.py" --watch-pid="$discard" ferry-python "$ferry" send --retry 0 --url "$python_url" "$file"
    "$here/measure.py" --watch-pid="$worker" curl-nginx curl -sS -o /dev/null -F "file=@$file" "$nginx_url"
    "$here/measure.py" --watch-pid="$worker" ferry-nginx "$ferry" send --retry 0 --url "$nginx_url" "$file"
done > "$nginx_dir/runs.jsonl"
cp "$nginx_dir/runs.jsonl" "$work/upload-runs.jsonl"
python3 - "$nginx_dir/runs.jsonl" "$rounds" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
def figures(label):
    runs = [r for r in rows if r["label"] == label]
    failed = [r["exit"] for r in runs if r.get("exit", 0) != 0]
    if failed:
        sys.exit(f"{label}: {len(failed)} of {len(runs)} runs failed (exit {failed}); no figure")
    median = lambda key: statistics.median(r[key] for r in runs)
    return median("seconds"), median("cpuSeconds"), median("watchedCPUSeconds"), max(r["peakRSSKiB"] for r in runs) / 1024
mb = 1073741824 / 1e6
for receiver in ("python", "nginx"):
    (cs, cc, cw, cr), (fs, fc, fw, fr) = figures(f"curl-{receiver}"), figures(f"ferry-{receiver}")
    print(f"1 GiB to {receiver} (medians of {sys.argv[2]}): "
          f"curl {mb / cs:.0f} MB/s, CPU {cc:.2f} s, receiver CPU {cw:.2f} s, RSS {cr:.1f} MiB | "
          f"ferry {mb / fs:.0f} MB/s, CPU {fc:.2f} s, receiver CPU {fw:.2f} s, RSS {fr:.1f} MiB | "
          f"ferry/curl throughput {cs / fs:.2f} (goal >= 1.3), CPU {fc / cc:.2f} (goal < 0.5)")
PY
