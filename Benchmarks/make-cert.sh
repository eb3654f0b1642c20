#!/usr/bin/env bash
# Makes a certificate authority for one benchmark run and a server certificate it signs for
# 127.0.0.1: DIR/ca.pem (what clients trust, --cacert), DIR/server.pem and DIR/server.key (nginx).
# Usage: make-cert.sh DIR
set -euo pipefail
dir="$1"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$dir/ca.key" -out "$dir/ca.pem" -days 2 \
    -subj "/CN=Ferry benchmark CA" -addext basicConstraints=critical,CA:TRUE 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$dir/server.key" -out "$dir/server.csr" -subj /CN=127.0.0.1 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' > "$dir/server.ext"
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
    -out "$dir/server.pem" -days 2 -extfile "$dir/server.ext" 2>/dev/null
