#!/usr/bin/env bash
# Runs every Ferry test on a fresh machine: installs what the tests need, builds (debug), runs the
# whole suite, then runs it again against the release binary. CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# System tools the tests drive: setpriv, tmux (end-to-end interface tests), curl (a client no one here
# wrote), PHP's built-in server (a server no one here wrote, which closes every connection after
# answering), nginx (HTTPS, client certificates, redirects), openssl (the tests' certificates),
# tinyproxy (a proxy), pkg-config + ncurses headers (the CNcursesw module), sqlite (the CSQLite
# module), man (the installed man pages, `man -l`; man-db brings groff), ss (iproute2: a socket's
# congestion control).
missing=()
command -v tmux >/dev/null || missing+=(tmux)
# setpriv: the tests run every ferry process they start as an ordinary user (uid 65534).
command -v setpriv >/dev/null || missing+=(util-linux)
command -v curl >/dev/null || missing+=(curl)
command -v php >/dev/null || missing+=(php-cli)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v openssl >/dev/null || missing+=(openssl)
[ -x /usr/bin/tinyproxy ] || [ -x /usr/sbin/tinyproxy ] || missing+=(tinyproxy)
command -v pkg-config >/dev/null || missing+=(pkg-config)
pkg-config --exists ncursesw 2>/dev/null || missing+=(libncurses-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
command -v man >/dev/null || missing+=(man-db)
command -v ss >/dev/null || missing+=(iproute2)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    as_root apt-get update -qq
    # Services installed here (nginx, tinyproxy) must not start: the tests run their own on free
    # ports. policy-rc.d answering 101 is Debian's way to say so during an install.
    policy=/usr/sbin/policy-rc.d
    added_policy=""
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
        as_root chmod 755 "$policy"
        added_policy=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    if [ -n "$added_policy" ]; then as_root rm -f "$policy"; fi
fi

# Python parsers, clients and servers for the interoperability tests (tuspy: the official tus
# client; tuspyserver, run with uvicorn: a tus server for Ferry's tus client; moto's S3 in server
# mode, with boto3, for presigned POSTs).
if ! python3 -c 'import werkzeug, python_multipart, tusclient, tuspyserver, uvicorn, moto.server, boto3' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore werkzeug python-multipart tuspy tuspyserver \
        uvicorn 'moto[server]' boto3
fi

# A run's failures, printed again at its end: a CI log shows only its tail, and the suite is
# long. The run's own exit status is kept.
tests_reporting_failures() {
    local log status
    log="$(mktemp)"
    set +e
    "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -ne 0 ]; then
        echo "---- what failed (the lines above, again):"
        grep -a -E '✘|↳|error:|Fatal error|Crash' "$log" | cut -c1-1500 | head -n 60
    fi
    rm -f "$log"
    return "$status"
}

swift build --build-tests
tests_reporting_failures swift test

# The binary users install, linked as scripts/install.sh links it (scripts/release-flags.sh: the
# Swift runtime and libstdc++ statically, lld, packed relocations): the whole suite again, against it.
. scripts/release-flags.sh
release_flags_for .build
swift build "${release_flags[@]}" --product ferry
FERRY_BINARY="$(swift build "${release_flags[@]}" --show-bin-path)/ferry" FERRY_BINARY_RELEASE=1 \
    tests_reporting_failures swift test --skip-build
