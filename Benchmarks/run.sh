#!/usr/bin/env bash
# Prints Ferry's benchmark figures. Not a test: nothing here passes or fails.
#   Benchmarks/run.sh encode   # 1 GiB file encoded to a discarding sink vs a plain read loop
#   Benchmarks/run.sh journal  # queueing 10,000 jobs and recording their state changes
#   Benchmarks/run.sh upload   # 1 GiB: ferry send vs curl -F to discard_server.py and nginx (upload.sh);
#                              # 2,000 small files to discard_server.py
#   Benchmarks/run.sh many [N...]  # N files of 100-300 bytes to nginx: ferry send vs one curl -Z
#                                  # (MANY_SHAPE=proxy: nginx proxies each request to an upstream)
#   Benchmarks/run.sh many-tls [N...]  # the same over HTTPS (curl -Z multiplexes over HTTP/2;
#                                      # FERRY_ARGS=--http2 makes Ferry do so too)
#   Benchmarks/run.sh upload-tls   # 1 GiB over HTTPS to nginx: ferry send vs curl -F
#   Benchmarks/run.sh tus [ROUNDS]  # 1 GiB over tus to ferry serve: ferry send --tus vs tuspy and multipart
#   Benchmarks/run.sh render   # one frame of the Queue pane with 10,000 jobs
#   Benchmarks/run.sh idle     # interface CPU while idle, in tmux, over 20 s
#   Benchmarks/run.sh footprint  # peak RSS and time of --help, --version and uploads vs curl;
#                                # the idle upload's and interface's memory by mapping
#   Benchmarks/run.sh slow-clients [ARGS]  # 1,000 slow clients vs 100 curl -F uploads to ferry serve
#   Benchmarks/run.sh cancel-soak [FILES [SEED]]  # 10,000 files, 5 % cancelled at random moments,
#                                                # counted by ferry serve (MODE=debug builds debug)
#   Benchmarks/run.sh kill-soak-ui [ROUNDS]  # the interface in tmux killed -9 and restarted
#   Benchmarks/run.sh soak [N [SERVER...]]  # N (100,000) files in one ferry send --concurrency 16 to
#                                           # nginx, php -S and a random idle-closing Go server,
#                                           # counted server-side (issue 24)
#   Benchmarks/run.sh fuzz [SECONDS [TARGET...]]  # the libFuzzer targets of Fuzz/, SECONDS (600) each
set -euo pipefail
cd "$(dirname "$0")"
what="${1:-encode}"
# Ferry's release build as scripts/install.sh makes it (scripts/release-flags.sh); release_ferry
# prints the binary's path.
. ../scripts/release-flags.sh
release_flags_for ../.build
release_ferry() {
    (cd .. && swift build "${release_flags[@]}" --product ferry >&2 &&
        echo "$(swift build "${release_flags[@]}" --show-bin-path)/ferry")
}
work="${BENCH_DIR:-/tmp/ferry-bench}"
mkdir -p "$work"

case "$what" in
slow-clients)
    ferry="$(release_ferry)"
    shift
    ./slow_clients.py "$ferry" "$@"
    ;;
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
read, encode = "read", "encode"
print(f"plain read loop : {best(read):8.0f} MB/s  peak RSS {rss(read)/1024:.1f} MiB")
print(f"multipart encode: {best(encode):8.0f} MB/s  peak RSS {rss(encode)/1024:.1f} MiB")
print(f"ratio encode/read: {best(encode)/best(read):.2f} (goal >= 0.8); peak RSS goal <= 32 MiB")
'
    ;;
journal)
    swift build -c release --product journal-benchmark >&2
    "$(swift build -c release --show-bin-path)/journal-benchmark"
    ;;
upload)
    ferry="$(release_ferry)"
    # 1 GiB: ferry vs curl -F to discard_server.py and to nginx, medians of 5 alternating rounds.
    BENCH_DIR="$work" ./upload.sh "$ferry"
    # A discarding receiver that answers only after reading the whole body (nginx's `return 200`
    # answers before reading it, and a client may stop sending then).
    . ./nginx-common.sh # free_port
    port="$(free_port)"
    ./discard_server.py "$port" & discard=$!
    trap 'kill $discard 2>/dev/null' EXIT
    sleep 1
    export XDG_STATE_HOME="$work/state"
    rm -rf "$XDG_STATE_HOME"
    small="$work/small"
    if [ ! -d "$small" ]; then
        mkdir -p "$small"
        for i in $(seq 1 2000); do head -c 4096 /dev/urandom > "$small/f$i.bin"; done
    fi
    url="http://127.0.0.1:$port/upload"
    for round in 1 2; do
        ./measure.py curl-2000x4KiB sh -c "ls '$small' | xargs -P8 -I{} curl -s -o /dev/null -F 'file=@$small/{}' '$url'"
        ./measure.py ferry-2000x4KiB sh -c "'$ferry' send --concurrency 8 --retry 0 --url '$url' '$small'/* > /dev/null"
    done > "$work/small.jsonl"
    python3 - "$work/small.jsonl" <<'PY'
import json, sys
small = [json.loads(l) for l in open(sys.argv[1])]
best = lambda rows, label: min(r["seconds"] for r in rows if r["label"] == label)
c, f = best(small, "curl-2000x4KiB"), best(small, "ferry-2000x4KiB")
print(f"2,000 x 4 KiB at concurrency 8: curl (xargs -P8) {2000 / c:.0f} files/s, ferry {2000 / f:.0f} files/s; "
      f"ferry/curl = {c / f:.2f} (goal >= 3.0, journal on)")
PY
    ;;
many)
    ferry="$(release_ferry)"
    shift
    BENCH_DIR="$work" ./many-files.sh "$ferry" "$@"
    ;;
many-tls)
    ferry="$(release_ferry)"
    shift
    MANY_TLS=1 BENCH_DIR="$work" ./many-files.sh "$ferry" "$@"
    ;;
upload-tls)
    ferry="$(release_ferry)"
    BENCH_DIR="$work" ./tls-upload.sh "$ferry"
    ;;
tus)
    shift
    FERRY="$(release_ferry)" ./tus.sh "$@"
    ;;
render)
    swift build -c release --product render-benchmark >&2
    "$(swift build -c release --show-bin-path)/render-benchmark"
    ;;
idle)
    ferry="$(release_ferry)"
    ./idle-cpu.sh "$ferry"
    ;;
footprint)
    ferry="$(release_ferry)"
    BENCH_DIR="$work" ./footprint.sh "$ferry"
    ;;
queue-memory) # peak RSS with 20,000 and 100,000 queued jobs: ferry send and the interface
    ferry="$(release_ferry)"
    swift build -c release --product queue-memory-benchmark >&2
    ./queue_memory.py "$ferry" \
        "$(swift build -c release --show-bin-path)/queue-memory-benchmark" "$work/queue-memory"
    ;;
cancel-soak) # not a benchmark: exactly-once counts (issue 23)
    mode="${MODE:-release}"
    (cd .. && swift build -c "$mode" --product ferry >&2)
    swift build -c "$mode" --product cancel-soak >&2
    shift
    "$(swift build -c "$mode" --show-bin-path)/cancel-soak" "$(cd .. && swift build -c "$mode" --show-bin-path)/ferry" "$@"
    ;;
kill-soak-ui) # not a benchmark: exactly-once counts (issue 23)
    (cd .. && swift build -c "${MODE:-release}" --product ferry >&2)
    shift
    ./kill-soak-interface.sh "$(cd .. && swift build -c "${MODE:-release}" --show-bin-path)/ferry" "$@"
    ;;
soak) # not a benchmark: exactly-once counts and leaked connections (issue 24)
    ferry="$(release_ferry)"
    shift
    BENCH_DIR="$work" ./soak.sh "$ferry" "$@"
    ;;
fuzz) # not a benchmark: libFuzzer's executions, coverage and findings (issue 24)
    shift
    BENCH_DIR="$work" ../Fuzz/run.sh "$@"
    ;;
*)
    echo "usage: $0 encode|journal|upload|upload-tls|many [N...]|many-tls [N...]|queue-memory|render|idle|footprint|cancel-soak [FILES [SEED]]|kill-soak-ui [ROUNDS]|soak [N [SERVER...]]|fuzz [SECONDS [TARGET...]]" >&2
    exit 2
    ;;
esac
