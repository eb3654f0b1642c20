#!/usr/bin/env bash
# The upload soak of issue 24: N small files (100-300 B, each with its own contents) in ONE
# `ferry send --concurrency 16` run, against three servers Ferry's developers did not write,
# each on a free port of 127.0.0.1, every arrival counted on the server's side:
#   nginx  keepalive_requests 100 (closes every 100th answer's connection), reads each body
#          before it answers (mirror_request_body, as many-files.sh), logs each body;
#   php    `php -S` with PHP_CLI_SERVER_WORKERS=4 and soak/router.php (answers with
#          `Connection: close` and closes every connection), logs each file;
#   go     soak/idle_closer.go (net/http, stdlib only) that closes every kept-alive
#          connection after a random 0-2 s idle spell, logs each file.
# Figures, not a test: one line per server with files, seconds, files/s, failures, duplicates,
# lost, the client's connection census at exit (FERRY_CONNECTION_CENSUS=1, see
# Sources/ferry/Send/SendRunner.swift) and the server's connections left (ss, ESTABLISHED or
# CLOSE-WAIT on the port, half a second after ferry exited: 0 expected).
#
# Usage: soak.sh FERRY_BINARY [N [SERVER...]]   (N 100000; SERVER nginx php go, default all)
# Environment: BENCH_DIR (/tmp/ferry-bench): the files (generated once per N, with a manifest of
# name, size, MD5) and soak-runs/DATE-SERVER/ (ferry's --json events, its stderr, the server's
# log). CONCURRENCY (16). FERRY_ARGS: more ferry send options (split at spaces).
# SOAK_NICE (19): ferry's niceness. At 19 on a machine busy with compiles ferry gets almost no
# CPU (2026-11-26: 2,412 files in a minute, then none while ten compilers ran); 0 gives it one
# share among them. ferry runs, when started as root, as nobody (setpriv, convention 9).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/nginx-common.sh"
ferry="$(realpath "$1")"
count="${2:-100000}"
shift $(( $# >= 2 ? 2 : 1 ))
servers=("$@")
[ ${#servers[@]} -gt 0 ] || servers=(nginx php go)
concurrency="${CONCURRENCY:-16}"
niceness="${SOAK_NICE:-19}"
work="${BENCH_DIR:-/tmp/ferry-bench}"
mkdir -p "$work"
chmod 755 "$work"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
command -v nginx >/dev/null || missing+=(nginx-light)
command -v php >/dev/null || missing+=(php-cli)
command -v go >/dev/null || missing+=(golang-go)
command -v ss >/dev/null || missing+=(iproute2)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

unprivileged=()
if [ "$(id -u)" = 0 ]; then unprivileged=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi

# --- files: N of 100-300 bytes named 000001..N (no extension), each "soak NAME " and random
# letters, with a manifest "NAME<TAB>BYTES<TAB>MD5" ---
files="$work/soak-files-$count"
manifest="$work/soak-files-$count.manifest"
if [ "$(cat "$files/.complete" 2>/dev/null)" != "$count" ]; then
    echo "generating $count files in $files" >&2
    rm -rf "$files"
    python3 - "$files" "$count" "$manifest" <<'PY'
import hashlib, os, random, string, sys
directory, count, manifest = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(directory)
width = max(6, len(str(count)))
rng = random.Random(24)
with open(manifest, "w") as out:
    for i in range(1, count + 1):
        name = str(i).zfill(width)
        head = f"soak {name} ".encode()
        size = rng.randint(100, 300)
        data = head + "".join(rng.choices(string.ascii_letters, k=size - len(head))).encode()
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
        out.write(f"{name}\t{len(data)}\t{hashlib.md5(data).hexdigest()}\n")
with open(os.path.join(directory, ".complete"), "w") as f:
    f.write(str(count))
PY
fi
chmod 755 "$files"
mapfile -t names < <(cut -f1 "$manifest")

scratch="$(mktemp -d "${TMPDIR:-/tmp}/ferry-soak.XXXXXX")"
chmod 755 "$scratch"
server_pid="" # the background job running the server
server_group="" # the server's process group: php -S's workers and nginx's worker are in it
# Runs a server in a new session (its own process group), in the background.
spawn() {
    rm -f "$scratch/server.pid"
    setsid -w bash -c 'echo $$ > "$0/server.pid"; exec "$@"' "$scratch" "$@" &
    server_pid=$!
    for _ in $(seq 1 50); do [ -s "$scratch/server.pid" ] && break; sleep 0.02; done
    server_group="$(cat "$scratch/server.pid")"
}
stop_server() {
    if [ -n "$server_group" ]; then
        kill -TERM -- "-$server_group" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 -- "-$server_group" 2>/dev/null || break; sleep 0.1; done
        kill -KILL -- "-$server_group" 2>/dev/null || true
        server_group=""
        server_pid=""
    fi
}
trap 'stop_server; rm -rf "$scratch"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

echo "building soak/idle_closer.go" >&2
(cd "$scratch" && GOCACHE="$scratch/gocache" GO111MODULE=off go build -o idle_closer "$here/soak/idle_closer.go")

start_nginx() { # dir port log
    mkdir -p "$1"
    chmod 755 "$1"
    cat > "$1/nginx.conf" <<CONF
$(nginx_head "$1" 1024 "$1/client_body")
    log_format soak '\$connection \$connection_requests \$request_body_file';
    keepalive_requests 100;
    server {
        listen 127.0.0.1:$2;
        access_log $3 soak;
        # Reads the whole body before answering (see many-files.sh). Every body is kept in a file
        # of its own (client_body_in_file_only on), named in the access log, and read by the count.
        location = /upload {
            client_max_body_size 0;
            client_body_in_file_only on;
            mirror /discard;
            mirror_request_body on;
            empty_gif;
            error_page 405 =200 @ok;
        }
        location = /discard { internal; access_log off; return 204; }
        location @ok { return 200 "ok\n"; }
    }
}
CONF
    : > "$3"
    spawn nginx -p "$1" -c "$1/nginx.conf" -e "$1/error.log"
}

run_one() { # server
    local server="$1" attempt port run log format url status start end sockets
    run="$work/soak-runs/$(date -u +%Y%m%dT%H%M%S)-$server"
    mkdir -p "$run/state"
    chmod 755 "$run"
    [ ${#unprivileged[@]} -eq 0 ] || chown 65534:65534 "$run/state"
    log="$run/server.log"
    for attempt in 1 2 3; do
        port="$(free_port)"
        case "$server" in
        nginx)
            format=nginx
            start_nginx "$run/nginx-$port" "$port" "$log"
            ;;
        php)
            format=tsv
            : > "$log"
            chmod 666 "$log"
            SOAK_LOG="$log" PHP_CLI_SERVER_WORKERS=4 spawn php -d upload_max_filesize=16M -d post_max_size=16M \
                -d max_file_uploads=100 -S "127.0.0.1:$port" "$here/soak/router.php" > "$run/php.out" 2>&1
            ;;
        go)
            format=tsv
            spawn "$scratch/idle_closer" "127.0.0.1:$port" "$log"
            ;;
        *) echo "unknown server $server (nginx, php, go)" >&2; exit 2 ;;
        esac
        url="http://127.0.0.1:$port/upload"
        for _ in $(seq 1 50); do
            curl -s -o /dev/null "$url" 2>/dev/null && break
            kill -0 -- "-$server_group" 2>/dev/null || break
            sleep 0.1
        done
        curl -s -o /dev/null "$url" 2>/dev/null && break
        stop_server
        [ "$attempt" -lt 3 ] || { echo "$server did not start" >&2; exit 1; }
    done
    [ "$server" != nginx ] || : > "$log" # forget the readiness probes (GETs have no body anyway)
    echo "$server on $url: ferry send --concurrency $concurrency, $count files (run dir $run)" >&2
    start="$(date +%s.%N)"
    set +e
    (cd "$files" && XDG_STATE_HOME="$run/state" FERRY_CONNECTION_CENSUS=1 nice -n "$niceness" "${unprivileged[@]}" \
        "$ferry" send --json --concurrency "$concurrency" ${FERRY_ARGS:-} --url "$url" "${names[@]}" \
        > "$run/ferry.jsonl" 2> "$run/ferry.err")
    status=$?
    set -e
    end="$(date +%s.%N)"
    sleep 0.5
    sockets="$(ss -Htn state established state close-wait "( sport = :$port )" | wc -l)"
    ss -Htn "( sport = :$port or dport = :$port )" > "$run/sockets-after" || true
    stop_server
    python3 "$here/soak/soak_count.py" "$server" "$manifest" "$log" "$format" "$run/ferry.jsonl" "$run/ferry.err" \
        "$(echo "$end - $start" | bc)" "$status" "$sockets"
    rm -rf "$run"/nginx-*/client_body "$run/state" # 100,000 bodies; the journal (its events are in ferry.jsonl)
}

for server in "${servers[@]}"; do
    run_one "$server"
done
