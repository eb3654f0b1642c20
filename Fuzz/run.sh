#!/usr/bin/env bash
# Builds Ferry's libFuzzer targets (Fuzz/Package.swift) and runs each for SECONDS (600), all at
# once (under nice -n 19), then prints per target: executions, seconds, coverage (libFuzzer's cov:
# edges and ft: features), corpus size and findings. Figures, not a test.
#
# Usage: Fuzz/run.sh [SECONDS [TARGET...]]   (TARGET: receiver-multipart receiver-headers
#        response-head curl-form journal-json; default all)
# Environment: BENCH_DIR (/tmp/ferry-bench): fuzz-runs/DATE/ keeps each target's log, the corpus
#   it grew (seeded from Fuzz/Corpus/TARGET, which is never written) and crash-*/timeout-*
#   artifacts. SANITIZE (fuzzer,address). FUZZ_ARGS: more libFuzzer options. FUZZ_NICE (19):
#   the fuzzers' niceness (at 19 they get little CPU while compilers run on the machine).
# A crashing input is reproduced with: .build-fuzz/release/FuzzTarget ARTIFACT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(receiver-multipart receiver-headers response-head curl-form journal-json)
work="${BENCH_DIR:-/tmp/ferry-bench}/fuzz-runs/$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$work"

executable() { # target -> product name
    case "$1" in
    receiver-multipart) echo FuzzReceiverMultipart ;;
    receiver-headers) echo FuzzReceiverHeaders ;;
    response-head) echo FuzzResponseHead ;;
    curl-form) echo FuzzCurlForm ;;
    journal-json) echo FuzzJournalJSON ;;
    *) echo "unknown target $1" >&2; exit 2 ;;
    esac
}

# -enable-testing: the targets reach internal types with @testable import. -parse-as-library:
# no top-level code, libFuzzer's main runs LLVMFuzzerTestOneInput.
build=(swift build -c release --package-path "$here" --scratch-path "$root/.build-fuzz"
       -Xswiftc "-sanitize=${SANITIZE:-fuzzer,address}" -Xswiftc -parse-as-library -Xswiftc -enable-testing)
"${build[@]}" >&2
bin="$("${build[@]}" --show-bin-path)"

pids=()
for target in "${targets[@]}"; do
    mkdir -p "$work/$target/corpus"
    # detect_leaks=0: the Swift runtime's caches live until exit and read as leaks. No Swift
    # backtracer: it reads the crashed process's memory, which ASan reports as a second error.
    (cd "$work/$target" && SWIFT_BACKTRACE="enable=no" ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" nice -n "${FUZZ_NICE:-19}" "$bin/$(executable "$target")" \
        -max_total_time="$seconds" -max_len=4096 -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$work/$target/" ${FUZZ_ARGS:-} corpus "$here/Corpus/$target" > log 2>&1) &
    pids+=($!)
done
echo "fuzzing ${targets[*]} for $seconds s each (logs in $work)" >&2
for pid in "${pids[@]}"; do wait "$pid" || true; done

for target in "${targets[@]}"; do
    log="$work/$target/log"
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    took="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)"
    last="$(grep -E '^#[0-9]+' "$log" | tail -1)"
    cov="$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')"
    ft="$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')"
    corp="$(echo "$last" | sed -n 's/.*corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p')"
    findings="$(find "$work/$target" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)"
    printf '%-19s %10s execs in %4s s (%s/s), cov %s, ft %s, corpus %s, findings %s\n' "$target" "${runs:-?}" "${took:-?}" \
        "$( [ -n "$runs" ] && [ -n "$took" ] && [ "$took" -gt 0 ] && echo $((runs / took)) || echo '?')" \
        "${cov:-?}" "${ft:-?}" "${corp:-?}" "$findings"
    if [ "$findings" -gt 0 ]; then
        grep -m3 -E 'Fatal error|Precondition failed|ERROR: (AddressSanitizer|libFuzzer)' "$log" | sed 's/^/    /'
        find "$work/$target" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sed 's/^/    /'
    fi
done
