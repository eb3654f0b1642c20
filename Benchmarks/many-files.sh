#!/usr/bin/env bash
# ferry send vs one curl process (-Z, 8 in parallel) uploading N small files (100-300 bytes
# each) to a stock nginx on 127.0.0.1. Figures, not a test: nothing here passes or fails.
#
# Usage: many-files.sh FERRY_BINARY [N...]
#   N defaults to $MANY_COUNTS, else "2000 20000 100000". Other knobs (environment):
#   ROUNDS (3): rounds per N, each runs curl then ferry; the summary shows medians.
#   MANY_TIMEOUT (120 + N/50 s): a run still going after this is killed and reported as timed out.
#   MANY_TLS (unset): set to 1 to go over HTTPS (nginx with a certificate made by openssl for this
#     run, HTTP/2 offered by ALPN, so curl -Z multiplexes its transfers over one connection;
#     both clients trust the run's authority with --cacert; Ferry uses HTTP/1.1, its default).
#   FERRY_ARGS (empty): more ferry send options, e.g. --http2 (split at spaces).
#   MANY_SHAPE (sink): how nginx answers. sink: nginx reads each body itself and answers 200.
#     proxy: nginx reads each body, then proxies the request (proxy_pass, kept-alive upstream
#     connections) to an upstream server block of its own that reads it and answers 200, as most
#     production upload endpoints run; answers then come one upstream round trip later.
#   BENCH_DIR (/tmp/ferry-bench): where the files live (generated once per N, then reused) and
#   the per-run records (many-results-DATE-PID.jsonl, one file per invocation).
#
# Prints one summary line per N on standard output, progress on standard error. Two invocations
# on one machine would skew each other's figures: the second waits for the first (a lock in
# BENCH_DIR); everything else an invocation writes is its own (a scratch dir, its own nginx).
set -euo pipefail
. "$(dirname "$0")/nginx-common.sh"
here="$(cd "$(dirname "$0")" && pwd)"
ferry="$1"
shift
counts=("$@")
[ ${#counts[@]} -gt 0 ] || read -r -a counts <<< "${MANY_COUNTS:-2000 20000 100000}"
rounds="${ROUNDS:-3}"
work="${BENCH_DIR:-/tmp/ferry-bench}"
mkdir -p "$work"
exec 9>> "$work/many.lock"
if ! flock -n 9; then
    echo "waiting for another run.sh many to finish (lock $work/many.lock)" >&2
    flock 9
fi

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
command -v nginx >/dev/null || missing+=(nginx)
[ -x /usr/bin/time ] || missing+=(time) # measure.py's peak RSS
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- nginx: its own prefix, config, logs and temp paths in a temp dir; foreground; one worker ---
nginx_dir="$(mktemp -d "${TMPDIR:-/tmp}/ferry-bench-nginx.XXXXXX")"
chmod 755 "$nginx_dir" # started as root, nginx runs its worker as nobody, which must reach the dir
nginx_pid=""
nginx_workers=""
stop_nginx() {
    if [ -n "$nginx_pid" ]; then
        kill -TERM "$nginx_pid" 2>/dev/null || true # fast shutdown: the master stops its worker
        wait "$nginx_pid" 2>/dev/null || true
        for pid in $nginx_workers; do kill -KILL "$pid" 2>/dev/null || true; done # if the master died first
        nginx_pid=""
    fi
}
measured="" # the measure.py running now, if any
scratch="$(mktemp -d "$work/many-scratch.XXXXXX")" # this invocation's lists, curl configs and runs
cleanup() {
    if [ -n "$measured" ]; then
        kill -TERM "$measured" 2>/dev/null || true # it kills its command, then exits
        wait "$measured" 2>/dev/null || true
    fi
    stop_nginx
    rm -rf "$nginx_dir" "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

tls="${MANY_TLS:-}"
scheme=http
trust=() # what curl and ferry are given to trust nginx's certificate
if [ -n "$tls" ]; then
    scheme=https
    "$here/make-cert.sh" "$nginx_dir"
    trust=(--cacert "$nginx_dir/ca.pem")
fi

shape="${MANY_SHAPE:-sink}"
case "$shape" in sink|proxy) ;; *) echo "MANY_SHAPE must be sink or proxy, not $shape" >&2; exit 2 ;; esac


# The front server's /upload: the sink itself, or a proxy to the sink on the upstream port.
front_location() {
    if [ "$shape" = proxy ]; then
        cat <<'EOF'
        # Reads the whole body (proxy_request_buffering on, the default), then proxies it.
        location = /upload {
            client_max_body_size 0;
            proxy_pass http://sink;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
EOF
    else
        sink_location
    fi
}

# With MANY_SHAPE=proxy, the upstream the front server proxies to.
upstream_server() { # upstream-port
    [ "$shape" = proxy ] || return 0
    cat <<EOF
    upstream sink { server 127.0.0.1:$1; keepalive 32; }
    server {
        listen 127.0.0.1:$1;
$(sink_location)
    }
EOF
}

write_nginx_conf() { # front-port upstream-port
    cat > "$nginx_dir/nginx.conf" <<EOF
# Written by Benchmarks/many-files.sh. Stock keep-alive (keepalive_requests 1000,
# keepalive_timeout 75s): a client must cope with nginx closing a connection every 1000 requests.
$(nginx_head "$nginx_dir" 1024 "$nginx_dir/client_body")
    server {
        listen 127.0.0.1:$1${tls:+ ssl http2};
        ${tls:+ssl_certificate $nginx_dir/server.pem; ssl_certificate_key $nginx_dir/server.key;}
        # The upload location must read the whole body before it answers 200. \`return 200\` runs in
        # the rewrite phase, before anything reads the body: nginx answers at once and discards
        # the body afterwards, so a client could be done before its bytes were read. Stock nginx
        # has no content handler that answers a POST with 200, and none that reads the body
        # except proxying, so:
        #   1. mirror (precontent phase) with mirror_request_body on reads the WHOLE body before
        #      the content phase starts (its subrequest to /discard is in-process, no socket);
        #   2. empty_gif, the content handler, refuses POST with 405 ...
        #   3. ... which error_page turns into the 200 of @ok.
        # Checked below: a request whose body is held back gets no answer until the body is
        # complete (without the mirror it is answered at once).
$(front_location)
    }
$(upstream_server "$2")
}
EOF
}

start_nginx() {
    local attempt
    for attempt in 1 2 3; do
        port="$(free_port)"
        write_nginx_conf "$port" "$(free_port)"
        nginx -p "$nginx_dir" -c "$nginx_dir/nginx.conf" -e "$nginx_dir/error.log" 9>&- &
        nginx_pid=$!
        for _ in $(seq 1 50); do
            if curl -s "${trust[@]}" -o /dev/null "$scheme://127.0.0.1:$port/upload" 2>/dev/null; then
                nginx_workers="$(echo $(cat "/proc/$nginx_pid/task/$nginx_pid/children"))"
                return 0
            fi
            kill -0 "$nginx_pid" 2>/dev/null || break
            sleep 0.1
        done
        stop_nginx # the port was taken in between, or nginx did not come up: try another
    done
    echo "nginx did not start:" >&2
    cat "$nginx_dir/error.log" >&2
    exit 1
}

start_nginx
url="$scheme://127.0.0.1:$port/upload"
echo "nginx $(nginx -v 2>&1 | sed 's/.*\///') ($shape) on $url (master $nginx_pid, worker $nginx_workers)" >&2

# The receiver must answer 200 to a multipart POST, and only once it has read the whole body.
printf 'x%.0s' $(seq 1 200) > "$nginx_dir/check.bin"
status="$(curl -s "${trust[@]}" -o /dev/null -w '%{http_code}' -F "file=@$nginx_dir/check.bin" "$url")"
[ "$status" = 200 ] || { echo "nginx answered $status to a multipart POST, not 200" >&2; exit 1; }
python3 - "$port" "${tls:+$nginx_dir/ca.pem}" <<'PY'
import socket, ssl, sys
body = b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x\"\r\n\r\n" + b"x" * 200 + b"\r\n--b--\r\n"
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
if sys.argv[2]:
    s = ssl.create_default_context(cafile=sys.argv[2]).wrap_socket(s, server_hostname="127.0.0.1")
s.sendall(b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
          b"Content-Length: %d\r\n\r\n" % len(body) + body[:50])
s.settimeout(0.5)
try:
    early = s.recv(4096)
except socket.timeout:
    early = b""
if early:
    sys.exit("nginx answered before reading the whole body: " + early.split(b"\r\n")[0].decode())
s.sendall(body[50:])
s.settimeout(5)
answer = s.recv(4096).split(b"\r\n")[0]
if answer != b"HTTP/1.1 200 OK":
    sys.exit("nginx answered %r once the body was complete, not 200" % answer)
PY

# measure.py in the background, waited for: a signal then reaches the trap at once, not only when
# a run (up to MANY_TIMEOUT long) is over.
measure() { # record-file measure.py-arguments...
    local record="$1"
    shift
    "$here/measure.py" "$@" > "$record" 9>&- &
    measured=$!
    wait "$measured" || true
    measured=""
}

# --- files: N of 100-300 random bytes, named 1..N zero-padded, without a directory or an
# extension, so ferry (run inside the directory) gets the shortest argument list ---
make_files() { # dir n
    [ "$(cat "$1/.complete" 2>/dev/null)" = "$2" ] && return 0
    echo "generating $2 files in $1" >&2
    rm -rf "$1" "$scratch/files"
    python3 - "$scratch/files" "$2" <<'PY'
import os, random, sys
directory, count = sys.argv[1], int(sys.argv[2])
width = len(str(count))
os.makedirs(directory)
for index in range(1, count + 1):
    with open(os.path.join(directory, f"{index:0{width}d}"), "wb") as file:
        file.write(os.urandom(random.randint(100, 300)))
with open(os.path.join(directory, ".complete"), "w") as stamp:
    stamp.write(f"{count}\n")
PY
    mv -T "$scratch/files" "$1" # whole or not at all
}

# The largest n' <= n whose ferry command line (argv pointers and strings, plus the environment)
# fits in ARG_MAX. ferry send takes no directory, and one ferry process must get every file.
fitting_count() { # n
    python3 - "$1" "$(getconf ARG_MAX)" "$ferry" "$url" <<'PY'
import os, sys
n, arg_max, ferry, url = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
fixed = [ferry, "send", "--json", "--concurrency", "8", "--retry", "0", "--url", url] + os.environ.get("FERRY_ARGS", "").split()
environment = [f"{k}={v}" for k, v in os.environ.items()] + ["XDG_STATE_HOME=" + "x" * 200]
fixed_bytes = sum(len(a.encode()) + 1 + 8 for a in fixed + environment) + 8 + 4096  # NULL ends, slack
def needed(count):  # each name is len(str(count)) digits + NUL, and an 8-byte pointer
    return fixed_bytes + count * (len(str(count)) + 1 + 8)
while n > 0 and needed(n) > arg_max:
    n = min(n - 1, int((arg_max - fixed_bytes) / (len(str(n)) + 9)))
print(n)
PY
}

results="$work/many-results-$(date +%Y%m%d-%H%M%S)-$$.jsonl"
for requested in "${counts[@]}"; do
    n="$(fitting_count "$requested")"
    if [ "$n" != "$requested" ]; then
        echo "note: $requested file names do not fit in one ferry command line (ARG_MAX $(getconf ARG_MAX));" \
            "measuring $n, the largest count that fits" >&2
    fi
    n_started=$SECONDS
    files="$work/many-$n"
    make_files "$files" "$n"
    list="$scratch/many-$n.list"
    curl_config="$scratch/many-$n.curl"
    (cd "$files" && ls -1 | sort) > "$list"
    # curl's config: one operation per file, `next` between them (a trailing `next` would add an
    # operation without a URL, which makes curl -Z fail every transfer).
    # `next` resets every option, so over TLS each operation names the authority to trust.
    awk -v url="$url" -v cacert="${tls:+$nginx_dir/ca.pem}" 'NR > 1 { print "next" }
        { printf "url = \"%s\"\nform = \"file=@%s\"\noutput = \"/dev/null\"\nwrite-out = \"%%{http_code}\\n\"\n", url, $0 }
        cacert != "" { printf "cacert = \"%s\"\n", cacert }' \
        "$list" > "$curl_config"
    timeout="${MANY_TIMEOUT:-$((120 + n / 50))}"
    run_dir="$scratch/run"
    for round in $(seq 1 "$rounds"); do
        rm -rf "$run_dir"
        mkdir -p "$run_dir/state"
        # curl: one process, 8 transfers at a time. -s does not silence curl 7.88's parallel
        # progress meter, --no-progress-meter does; -S keeps error messages (counted below).
        measure "$run_dir/record" --cwd="$files" --stdout="$run_dir/out" --stderr="$run_dir/err" \
            --timeout="$timeout" --watch-pid="$nginx_workers" "curl" \
            curl -Z --parallel-max 8 -sS --no-progress-meter -K "$curl_config"
        python3 "$here/many-files-record.py" curl "$n" "$round" "$run_dir" >> "$results"
        # ferry: a fresh journal (XDG_STATE_HOME) every run; JSON Lines events are counted.
        XDG_STATE_HOME="$run_dir/state" measure "$run_dir/record" --cwd="$files" --args-from="$list" \
            --stdout="$run_dir/out" --stderr="$run_dir/err" --timeout="$timeout" --watch-pid="$nginx_workers" "ferry" \
            "$ferry" send --json --concurrency 8 --retry 0 ${FERRY_ARGS:-} "${trust[@]}" --url "$url"
        python3 "$here/many-files-record.py" ferry "$n" "$round" "$run_dir" >> "$results"
        kill -0 "$nginx_pid" 2>/dev/null || { echo "nginx died:" >&2; cat "$nginx_dir/error.log" >&2; exit 1; }
    done
    rm -rf "$run_dir"
    python3 "$here/many-files-summary.py" "$results" "$n" "$rounds" "$((SECONDS - n_started))"
done
echo "every run's record: $results" >&2
