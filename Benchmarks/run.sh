#!/usr/bin/env bash
# Prints Ferry's benchmark figures. Not a test: nothing here passes or fails.
#   Benchmarks/run.sh encode   # 1 GiB file encoded to a discarding sink vs a plain read loop
#   Benchmarks/run.sh journal  # queueing 10,000 jobs and recording their state changes
#   Benchmarks/run.sh upload   # ferry send vs curl -F to the same discarding nginx receiver
set -euo pipefail
cd "$(dirname "$0")"
what="${1:-encode}"
work="${BENCH_DIR:-/tmp/ferry-bench}"
mkdir -p "$work"

case "$what" in
encode)
    swift build -c release --product encode-benchmark >&2
    bin="$(swift build -c release --show-bin-path)/encode-benchmark"
    file="$work/1GiB.bin"
    [ -f "$file" ] && [ "$(stat -c %s "$file")" = 1073741824 ] || head -c 1073741824 /dev/urandom > "$file"
    chunk="${CHUNK:-262144}"
    cat "$file" > /dev/null # warm the page cache so both loops read from memory
    for round in 1 2 3; do
        "$bin" read "$file" "$chunk"
        "$bin" encode "$file" "$chunk"
    done | python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin]
best = lambda mode: max(r["mbPerSecond"] for r in rows if r["mode"] == mode)
rss = lambda mode: max(r["peakRSSKiB"] for r in rows if r["mode"] == mode)
print(f"plain read loop : {best(\"read\"):8.0f} MB/s  peak RSS {rss(\"read\")/1024:.1f} MiB")
print(f"multipart encode: {best(\"encode\"):8.0f} MB/s  peak RSS {rss(\"encode\")/1024:.1f} MiB")
print(f"ratio encode/read: {best(\"encode\")/best(\"read\"):.2f} (goal >= 0.8); peak RSS goal <= 32 MiB")
'
    ;;
journal)
    swift build -c release --product journal-benchmark >&2
    "$(swift build -c release --show-bin-path)/journal-benchmark"
    ;;
upload)
    command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >&2 || apt-get install -y -qq nginx >&2; }
    (cd .. && swift build -c release --product ferry >&2)
    ferry="$(cd .. && swift build -c release --show-bin-path)/ferry"
    port=18080
    conf="$work/nginx.conf"
    mkdir -p "$work/nginx"
    cat > "$conf" <<NGINX
worker_processes 1;
daemon on;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log $work/nginx/access.log;
    client_body_temp_path $work/nginx/body;
    server {
        listen 127.0.0.1:$port;
        location /upload {
            client_max_body_size 0;
            client_body_buffer_size 1m;
            return 200 "ok\n";
        }
    }
}
NGINX
    nginx -c "$conf"
    trap 'nginx -c "$conf" -s stop' EXIT
    url="http://127.0.0.1:$port/upload"
    file="$work/1GiB.bin"
    [ -f "$file" ] && [ "$(stat -c %s "$file")" = 1073741824 ] || head -c 1073741824 /dev/urandom > "$file"
    cat "$file" > /dev/null
    export XDG_STATE_HOME="$work/state"
    rm -rf "$XDG_STATE_HOME"
    for round in 1 2 3; do
        ./measure.py curl-1GiB curl -s -o /dev/null -F "file=@$file" "$url"
        ./measure.py ferry-1GiB "$ferry" send --retry 0 --url "$url" "$file"
    done > "$work/single.jsonl"
    small="$work/small"
    if [ ! -d "$small" ]; then
        mkdir -p "$small"
        for i in $(seq 1 2000); do head -c 4096 /dev/urandom > "$small/f$i.bin"; done
    fi
    for round in 1 2; do
        ./measure.py curl-2000x4KiB sh -c "ls '$small' | xargs -P8 -I{} curl -s -o /dev/null -F 'file=@$small/{}' '$url'"
        ./measure.py ferry-2000x4KiB sh -c "'$ferry' send --concurrency 8 --retry 0 --url '$url' '$small'/*"
    done > "$work/small.jsonl"
    python3 - "$work/single.jsonl" "$work/small.jsonl" <<'PY'
import json, sys
single = [json.loads(l) for l in open(sys.argv[1])]
small = [json.loads(l) for l in open(sys.argv[2])]
best = lambda rows, label: min(r["seconds"] for r in rows if r["label"] == label)
rss = lambda rows, label: max(r["peakRSSKiB"] for r in rows if r["label"] == label) / 1024
gib = 1073741824 / 1e6
c, f = best(single, "curl-1GiB"), best(single, "ferry-1GiB")
print(f"1 GiB upload: curl {gib / c:.0f} MB/s (peak RSS {rss(single, 'curl-1GiB'):.1f} MiB), "
      f"ferry {gib / f:.0f} MB/s (peak RSS {rss(single, 'ferry-1GiB'):.1f} MiB); ferry/curl = {c / f:.2f} (goal >= 1.0, RSS <= 32 MiB)")
c, f = best(small, "curl-2000x4KiB"), best(small, "ferry-2000x4KiB")
print(f"2,000 x 4 KiB at concurrency 8: curl (xargs -P8) {2000 / c:.0f} files/s, ferry {2000 / f:.0f} files/s; "
      f"ferry/curl = {c / f:.2f} (goal >= 3.0, journal on)")
PY
    ;;
*)
    echo "usage: $0 encode|journal|upload" >&2
    exit 2
    ;;
esac
