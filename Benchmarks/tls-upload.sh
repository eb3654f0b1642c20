#!/usr/bin/env bash
# One 1 GiB file over HTTPS: ferry send vs curl -F, alternating, 3 rounds each. Figures, not a
# test. nginx (TLS, a certificate made for the run, HTTP/2 offered) streams each body unbuffered
# to discard_server.py, which answers once it has read the whole body; both clients trust the
# run's authority with --cacert.
# Usage: tls-upload.sh FERRY_BINARY   (FERRY_ARGS: more ferry send options, e.g. --http2)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/nginx-common.sh"
ferry="$1"
work="${BENCH_DIR:-/tmp/ferry-bench}"
mkdir -p "$work"
nginx_dir="$(mktemp -d "${TMPDIR:-/tmp}/ferry-bench-tls.XXXXXX")"
chmod 755 "$nginx_dir"
discard_port="$(free_port)"
"$here/discard_server.py" "$discard_port" & discard=$!
nginx_pid=""
cleanup() {
    [ -n "$nginx_pid" ] && kill -TERM "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    kill "$discard" 2>/dev/null || true
    rm -rf "$nginx_dir"
}
trap cleanup EXIT
"$here/make-cert.sh" "$nginx_dir"
port="$(free_port)"
cat > "$nginx_dir/nginx.conf" <<CONF
$(nginx_head "$nginx_dir" 64 "$nginx_dir/client_body")
    server {
        listen 127.0.0.1:$port ssl http2;
        ssl_certificate $nginx_dir/server.pem;
        ssl_certificate_key $nginx_dir/server.key;
        location = /upload {
            client_max_body_size 0;
            proxy_pass http://127.0.0.1:$discard_port;
            proxy_http_version 1.1;
            proxy_request_buffering off;
            proxy_buffering off;
        }
    }
}
CONF
nginx -p "$nginx_dir" -c "$nginx_dir/nginx.conf" -e "$nginx_dir/error.log" &
nginx_pid=$!
url="https://127.0.0.1:$port/upload"
for _ in $(seq 1 50); do
    curl -s --cacert "$nginx_dir/ca.pem" -o /dev/null "$url" && break
    sleep 0.1
done
file="$work/1GiB.bin"
[ -f "$file" ] && [ "$(stat -c %s "$file")" = 1073741824 ] || head -c 1073741824 /dev/urandom > "$file"
cat "$file" > /dev/null
export XDG_STATE_HOME="$nginx_dir/state"
for round in 1 2 3; do
    "$here/measure.py" curl-1GiB-tls curl -sS -o /dev/null --cacert "$nginx_dir/ca.pem" -F "file=@$file" "$url"
    "$here/measure.py" ferry-1GiB-tls "$ferry" send --retry 0 ${FERRY_ARGS:-} --cacert "$nginx_dir/ca.pem" --url "$url" "$file"
done > "$nginx_dir/runs.jsonl"
python3 - "$nginx_dir/runs.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
def figures(label):
    runs = [r for r in rows if r["label"] == label]
    failed = [r["exit"] for r in runs if r.get("exit", 0) != 0]
    if failed:
        sys.exit(f"{label}: {len(failed)} of {len(runs)} runs failed (exit {failed}); no figure")
    seconds = statistics.median(r["seconds"] for r in runs)
    return seconds, statistics.median(r["cpuSeconds"] for r in runs), max(r["peakRSSKiB"] for r in runs) / 1024
mb = 1073741824 / 1e6
(cs, cc, cr), (fs, fc, fr) = figures("curl-1GiB-tls"), figures("ferry-1GiB-tls")
print(f"1 GiB over HTTPS (medians of 3): curl {mb / cs:.0f} MB/s CPU {cc:.2f} s RSS {cr:.1f} MiB | "
      f"ferry {mb / fs:.0f} MB/s CPU {fc:.2f} s RSS {fr:.1f} MiB | ferry/curl throughput {cs / fs:.2f} (goal >= 1.0)")
PY
