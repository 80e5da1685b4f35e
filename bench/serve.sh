#!/usr/bin/env bash
# `kfeed serve` beside nginx serving the same cache directory as static files, each on its own loopback port:
# wrk at 64 connections on /current.jpg (nginx: the same file's path) — requests/s (ratio kfeed/nginx, goal ≥ 0.5),
# p99 latency, and kfeed's peak RSS (VmHWM, goal ≤ 64 MiB). Release builds; one run of each.
# Usage: bench/serve.sh [SECONDS]   (default 10 s per wrk run)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
scratch="${KFEED_BENCH_SCRATCH:-.build}"
bash scripts/deps.sh nginx wrk
swift build -c release --scratch-path "$scratch" --product kfeed >&2
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)"

work="$(mktemp -d)"
kfeed_pid=""
nginx_pid=""
cleanup() {
  [ -n "$kfeed_pid" ] && kill "$kfeed_pid" 2>/dev/null && wait "$kfeed_pid" 2>/dev/null
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# A 24-entry cache from the bundled sample replay, served as of 10:30Z that day (entry 10:00Z is current).
cache="$work/cache"
"$bin/kfeed" refresh --force --replay Fixtures/replay/sample --cache "$cache" --now 2026-11-22T09:00:00Z
now=2026-11-22T10:30:00Z
image="$("$bin/kfeed" current --cache "$cache" --now "$now" --field image)"
image="${image#"$cache"/}"

"$bin/kfeed" serve --cache "$cache" --listen 127.0.0.1:0 --now "$now" >"$work/serve.out" 2>"$work/serve.err" &
kfeed_pid=$!
for _ in $(seq 100); do grep -q 'http://' "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
kfeed_port="$(grep -o '127\.0\.0\.1:[0-9]*' "$work/serve.out" | cut -d: -f2)"

# nginx as a static file server of the same directory; it runs as root here, so its workers may read the
# mktemp directory (mode 0700).
nginx_port=$((kfeed_port == 65535 ? 20000 : kfeed_port + 1))
while (echo >"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null; do nginx_port=$((nginx_port + 1)); done
cat >"$work/nginx.conf" <<CONF
user root;
worker_processes auto;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  etag on;
  server {
    listen 127.0.0.1:$nginx_port;
    root $cache;
    location / { }
  }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$nginx_port/$image" && break; sleep 0.1; done

kfeed_url="http://127.0.0.1:$kfeed_port/current.jpg"
nginx_url="http://127.0.0.1:$nginx_port/$image"
cmp <(curl -fs "$kfeed_url") <(curl -fs "$nginx_url") || { echo "kfeed and nginx serve different bytes" >&2; exit 1; }

run_wrk() { wrk -t2 -c64 -d"${seconds}s" --latency "$1" >"$2"; }
run_wrk "$kfeed_url" "$work/wrk-kfeed.txt"
run_wrk "$nginx_url" "$work/wrk-nginx.txt"
rps() { awk '/^Requests\/sec:/ { print $2 }' "$1"; }
p99() { awk '/^ +99%/ { print $2 }' "$1"; }
errors() { awk '/Non-2xx|Socket errors/ { print }' "$1" | tr -s ' ' | paste -sd ';' -; }
kfeed_rss_kib="$(awk '/^VmHWM:/ { print $2 }' "/proc/$kfeed_pid/status")"

echo "==================== kfeed serve benchmark ===================="
echo "  wrk -t2 -c64 -d${seconds}s --latency, $(stat -c %s "$cache/$image") bytes per answer:"
echo "    kfeed serve  /current.jpg     $(rps "$work/wrk-kfeed.txt") req/s   p99 $(p99 "$work/wrk-kfeed.txt")  $(errors "$work/wrk-kfeed.txt")"
echo "    nginx        /$image  $(rps "$work/wrk-nginx.txt") req/s   p99 $(p99 "$work/wrk-nginx.txt")  $(errors "$work/wrk-nginx.txt")"
echo "    ratio kfeed/nginx $(awk -v a="$(rps "$work/wrk-kfeed.txt")" -v b="$(rps "$work/wrk-nginx.txt")" 'BEGIN { printf "%.2f", a / b }') (goal ≥ 0.5)"
echo "  kfeed serve peak RSS (VmHWM) $((kfeed_rss_kib / 1024)) MiB (goal ≤ 64)"
echo "  host: $(nproc) cores, $(uname -sr); $(nginx -v 2>&1)"
echo "================================================================"
