# Sourced by the benchmark scripts that start nginx (many-files.sh, upload.sh, tls-upload.sh,
# soak.sh): the parts of their configs that are the same, and a free port to listen on. Not run
# on its own.

# A TCP port on 127.0.0.1 that nothing listens on now.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The config's head, up to the server blocks inside `http {`: foreground, one worker (one core for
# nginx, the other for the client: this machine has 2), logs and temp paths under DIR.
nginx_head() { # DIR WORKER_CONNECTIONS CLIENT_BODY_TEMP_DIR
    cat <<EOF
daemon off;
master_process on;
worker_processes 1;
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections $2; }
http {
    access_log off;
    client_body_temp_path $3;
    proxy_temp_path $1/proxy;
    fastcgi_temp_path $1/fastcgi;
    uwsgi_temp_path $1/uwsgi;
    scgi_temp_path $1/scgi;
EOF
}

# The location that reads the whole body before it answers 200 (see the comment in many-files.sh's config).
sink_location() {
    cat <<'EOF'
        location = /upload {
            client_max_body_size 0;
            mirror /discard;
            mirror_request_body on;
            empty_gif;
            error_page 405 =200 @ok;
        }
        location = /discard { internal; return 204; }
        location @ok { return 200 "ok\n"; }
EOF
}
