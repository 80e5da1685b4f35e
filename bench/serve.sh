#!/usr/bin/env bash
# `kfeed serve` beside nginx serving the same cache directory as static files, each on its own loopback port:
# wrk at 64 connections on /current.jpg (nginx: the same file's path) — requests/s (ratio kfeed/nginx, goal ≥ 0.75),
# p99 latency, and kfeed's peak RSS (VmHWM, goal ≤ 64 MiB). Release builds. The machine is shared, so the two
# servers take turns: ROUNDS rounds of SECONDS each, interleaved; requests/s is the mean, p99 the median.
# Usage: bench/serve.sh [SECONDS] [ROUNDS]   (default 5 s, 4 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-5}"
rounds="${2:-4}"
scratch="${KFEED_BENCH_SCRATCH:-.build}"
bash scripts/deps.sh nginx wrk
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kfeed >&2
bin="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)"

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

# One wrk run: "requests/s p99-in-ms errors".
run_wrk() {
  wrk -t2 -c64 -d"${seconds}s" --latency "$1" | awk '
    function ms(text) {
      if (text ~ /us$/) return text * 0.001; if (text ~ /ms$/) return text * 1; if (text ~ /s$/) return text * 1000
    }
    /^Requests\/sec:/ { rps = $2 } /^ +99%/ { p99 = ms($2) } /Non-2xx|Socket errors/ { errors = errors $0 ";" }
    END { printf "%s %.2f %s\n", rps, p99, (errors == "" ? "-" : errors) }'
}
for round in $(seq "$rounds"); do
  echo "kfeed $(run_wrk "$kfeed_url")" >>"$work/runs.txt"
  echo "nginx $(run_wrk "$nginx_url")" >>"$work/runs.txt"
done
mean_rps() { awk -v who="$1" '$1 == who { sum += $2; n++ } END { printf "%.0f", sum / n }' "$work/runs.txt"; }
median_p99() { awk -v who="$1" '$1 == who { print $3 }' "$work/runs.txt" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
each() { awk -v who="$1" '$1 == who { printf "%s%.0f", (n++ ? " " : ""), $2 }' "$work/runs.txt"; }
errors() { awk -v who="$1" '$1 == who && $4 != "-" { print $4 }' "$work/runs.txt" | sort -u | paste -sd ' ' -; }
kfeed_rss_kib="$(awk '/^VmHWM:/ { print $2 }' "/proc/$kfeed_pid/status")"
kfeed_rps="$(mean_rps kfeed)"
nginx_rps="$(mean_rps nginx)"

echo "==================== kfeed serve benchmark ===================="
echo "  wrk -t2 -c64 --latency, $rounds interleaved rounds of ${seconds} s, $(stat -c %s "$cache/$image") bytes per answer:"
echo "    kfeed serve  /current.jpg   $kfeed_rps req/s (rounds: $(each kfeed))   p99 $(median_p99 kfeed) ms $(errors kfeed)"
echo "    nginx        same file      $nginx_rps req/s (rounds: $(each nginx))   p99 $(median_p99 nginx) ms $(errors nginx)"
echo "    ratio kfeed/nginx $(awk -v a="$kfeed_rps" -v b="$nginx_rps" 'BEGIN { printf "%.2f", a / b }') (goal ≥ 0.75)"
echo "  kfeed serve peak RSS (VmHWM) $((kfeed_rss_kib / 1024)) MiB (goal ≤ 64)"
echo "  host: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg); $(nginx -v 2>&1)"
echo "================================================================"
