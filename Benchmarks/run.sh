#!/usr/bin/env bash
# Prints Ferry's benchmark figures. Not a test: nothing here passes or fails.
#   Benchmarks/run.sh encode   # 1 GiB file encoded to a discarding sink vs a plain read loop
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
*)
    echo "usage: $0 encode" >&2
    exit 2
    ;;
esac
