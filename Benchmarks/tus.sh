#!/usr/bin/env bash
# 1 GiB over tus to `ferry serve` on 127.0.0.1: `ferry send --tus` (its defaults: 4 MiB chunks,
# sha256 Upload-Checksum) against tuspy, the official Python client, with `upload_checksum`
# (sha1), and `ferry send --tus --no-checksum` against tuspy without; tuspy with 4 MiB chunks
# and with its default (one PATCH for the whole file, read into memory); and `ferry send --tus`
# against `ferry send` over multipart. Same file, same server, alternating runs, page cache warm,
# release build; prints medians (wall, client CPU, the server's CPU meanwhile) and ferry's
# throughput against each. Not a test: nothing here passes or fails.
#   FERRY=path/to/ferry Benchmarks/tus.sh [ROUNDS]   # (run.sh tus builds it) 5 rounds by default; BENCH_DIR (/tmp/ferry-bench) holds the file
set -euo pipefail
cd "$(dirname "$0")"
rounds="${1:-5}"
work="${BENCH_DIR:-/tmp/ferry-bench}"
mkdir -p "$work"
ferry="${FERRY:?give the release binary as FERRY, or run Benchmarks/run.sh tus}"
python3 -c 'import tusclient' 2>/dev/null || { echo "tuspy is missing: pip install tuspy" >&2; exit 1; }
file="$work/1GiB.bin"
[ -f "$file" ] && [ "$(stat -c %s "$file")" = 1073741824 ] || head -c 1073741824 /dev/urandom > "$file"
cat "$file" > /dev/null
received="$work/tus-received"
rm -rf "$received" "$work/tus-state"
port=18970
"$ferry" serve --port "$port" --dir "$received" > "$work/tus-serve.log" 2>&1 & server=$!
trap 'kill $server 2>/dev/null' EXIT
sleep 1
files="http://127.0.0.1:$port/files/"
client="python3 ../Tests/Interop/tus_client.py"
whole=9223372036854775807 # tuspy's default chunk size (sys.maxsize): the whole file in one PATCH
run() { # LABEL COMMAND...: one measured run, then the received file removed
    local label=$1; shift
    XDG_STATE_HOME="$work/tus-state" ./measure.py --watch-pid="$server" "$label" "$@"
    rm -rf "$received"/1GiB* "$work/tus-state"
}
checked=("$ferry" send --retry 0 --tus --url "$files" "$file")
unchecked=("$ferry" send --retry 0 --tus --no-checksum --url "$files" "$file")
for round in $(seq 1 "$rounds"); do
    run ferry-tus "${checked[@]}"
    run tuspy-4MiB-sha1 $client upload "$files" "$file" '{"filename": "1GiB.bin"}' 4194304
    run ferry-tus "${checked[@]}"
    run tuspy-whole-sha1 $client upload "$files" "$file" '{"filename": "1GiB.bin"}' "$whole"
    run ferry-tus-no-checksum "${unchecked[@]}"
    run tuspy-4MiB $client upload "$files" "$file" '{"filename": "1GiB.bin"}' 4194304 - nochecksum
    run ferry-tus-no-checksum "${unchecked[@]}"
    run tuspy-whole $client upload "$files" "$file" '{"filename": "1GiB.bin"}' "$whole" - nochecksum
    run ferry-tus "${checked[@]}"
    run ferry-multipart "$ferry" send --retry 0 --url "http://127.0.0.1:$port/upload" "$file"
done > "$work/tus.jsonl"
python3 - "$work/tus.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
def median(label, key):
    return statistics.median(r.get(key, 0) for r in rows if r["label"] == label)
print(f"{'client':22} {'runs':>4} {'wall s':>7} {'MB/s':>5} {'client CPU s':>12} {'server CPU s':>12}  ferry's throughput against it")
for label, ferry in [("ferry-tus", None), ("ferry-tus-no-checksum", None),
                     ("tuspy-4MiB-sha1", "ferry-tus"), ("tuspy-whole-sha1", "ferry-tus"),
                     ("tuspy-4MiB", "ferry-tus-no-checksum"), ("tuspy-whole", "ferry-tus-no-checksum"),
                     ("ferry-multipart", "ferry-tus")]:
    wall = median(label, "seconds")
    runs = sum(1 for r in rows if r["label"] == label)
    against = f"{ferry}: {wall / median(ferry, 'seconds'):.2f}x" if ferry else ""
    print(f"{label:22} {runs:4} {wall:7.2f} {1073741824 / 1e6 / wall:5.0f} {median(label, 'cpuSeconds'):12.2f} "
          f"{median(label, 'watchedCPUSeconds'):12.2f}  {against}")
PY
