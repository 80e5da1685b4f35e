#!/usr/bin/env bash
# `kfeed serve` behind nginx's proxy_cache, configured as docs/serve.md ("Behind a cache or a CDN") shows, while an
# entry ends under load: wrk at CONNECTIONS connections cycling through the cacheable paths, and a probe reading
# /current.json, the picture it names, /widget and /current.jpg through the proxy every 0.2 s. Both servers run on
# the real clock; the cache's hourly entries are dated with --now so that one ends BEFORE seconds into the run.
# Prints: the requests that reached kfeed per path and entry (nginx's log), the seconds from the entry's end to the
# new picture through the proxy, and the worst "come back at" overshoot: how far past the end of the entry an
# answer shows it tells its client to come back (refresh_rate; the widget's reload, which its script makes 2 s after
# the end the page names, or at most 45 s after a read past it; Expires). Release build.
# Usage: bench/cdn.sh [BEFORE] [AFTER] [CONNECTIONS]   (default 50 s, 15 s, 8); KFEED_BENCH_KEEP=DIR keeps nginx's
# access log and the probe's readings there.
set -euo pipefail
cd "$(dirname "$0")/.."
before="${1:-50}"
after="${2:-15}"
connections="${3:-8}"
scratch="${KFEED_BENCH_SCRATCH:-.build}"
bash scripts/deps.sh nginx-light wrk curl
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kfeed >&2
bin="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)"

work="$(mktemp -d)"
chmod 0755 "$work"  # nginx's workers (nobody, when run as root) reach their cache and temp paths here
kfeed_pid=""
nginx_pid=""
cleanup() {
  [ -n "${KFEED_BENCH_KEEP:-}" ] && cp "$work/access.log" "$work/probes.txt" "$KFEED_BENCH_KEEP" 2>/dev/null
  [ -n "$kfeed_pid" ] && kill "$kfeed_pid" 2>/dev/null && wait "$kfeed_pid" 2>/dev/null
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Hourly entries from the bundled sample replay; entry 1 begins at $end, BEFORE seconds after the load starts.
start=$(($(date +%s) + 3))
end=$((start + before))
cache="$work/cache"
"$bin/kfeed" refresh --replay Fixtures/replay/sample --cache "$cache" --entries 6 --profile trmnl \
  --now "$(date -u -d "@$((end - 3600))" +%Y-%m-%dT%H:%M:%SZ)"
old_image="$("$bin/kfeed" current --cache "$cache" --now "$(date -u -d "@$start" +%Y-%m-%dT%H:%M:%SZ)" --field image)"
new_image="$("$bin/kfeed" current --cache "$cache" --now "$(date -u -d "@$end" +%Y-%m-%dT%H:%M:%SZ)" --field image)"
old_sum="$(md5sum <"$old_image" | cut -c1-32)"
new_sum="$(md5sum <"$new_image" | cut -c1-32)"

"$bin/kfeed" serve --cache "$cache" --listen 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
kfeed_pid=$!
for _ in $(seq 100); do grep -q 'http://' "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
kfeed_port="$(grep -o '127\.0\.0\.1:[0-9]*' "$work/serve.out" | cut -d: -f2)"

# nginx with the documented block (cache path, listen address and upstream port replaced), logging for each request
# when it ended, whether it reached kfeed ($upstream_addr), its cache status and the picture's ETag.
nginx_port=$((kfeed_port == 65535 ? 20000 : kfeed_port + 1))
while (echo >"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null; do nginx_port=$((nginx_port + 1)); done
site="$(awk '/^```nginx$/ { on = 1; next } on && /^```$/ { exit } on' docs/serve.md |
  sed -e "s|/var/cache/nginx/kfeed|$work/nginx-cache|" -e "s|listen 80;|listen 127.0.0.1:$nginx_port;|" \
    -e "s|127.0.0.1:8787|127.0.0.1:$kfeed_port|")"
cat >"$work/nginx.conf" <<CONF
$([ "$(id -u)" -eq 0 ] && echo "user nobody nogroup;")
worker_processes auto;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  log_format kfeed '\$msec \$upstream_addr \$upstream_cache_status \$status "\$request_uri" \$sent_http_etag';
  access_log $work/access.log kfeed;
  client_body_temp_path $work/body;
  proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi;
  scgi_temp_path $work/scgi;
$site
}
CONF
nginx -c "$work/nginx.conf" -p "$work" -e "$work/nginx-error.log" &
nginx_pid=$!
base="http://127.0.0.1:$nginx_port"
for _ in $(seq 100); do curl -fs -o /dev/null "$base/healthz" && break; sleep 0.1; done

# wrk cycles through the paths (the pictures asked for without their version among them).
cat >"$work/paths.lua" <<LUA
local paths = { "/current.json", "/current.jpg", "/current.jpg?profile=trmnl", "/widget", "/timeline.json", "/",
  "/${old_image#"$cache"/}", "/${new_image#"$cache"/}" }
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[i % #paths + 1])
end
LUA
while [ "$(date +%s)" -lt "$start" ]; do sleep 0.05; done
wrk -t2 -c"$connections" -d"$((before + after))s" -s "$work/paths.lua" "$base" >"$work/wrk.txt" &
wrk_pid=$!

# The probe: one line per answer, "received path entry-end come-back" in seconds since 1970 (entry-end empty when
# the answer shows no entry it could be matched to).
seconds() { date -u -d "$1" +%s; }
probe() {
  local path="$1" received headers body entry_end come_back=""
  curl -fs -D "$work/h" -o "$work/b" "$base$path" || return 0
  received="$(date +%s.%N)"
  case "$path" in
    /current.json)
      entry_end="$(seconds "$(grep -o '"until" : "[^"]*"' "$work/b" | cut -d'"' -f4)")"
      come_back="$(awk -v t="$received" -v r="$(grep -o '"refresh_rate" : [0-9]*' "$work/b" | awk '{ print $3 }')" \
        'BEGIN { printf "%.3f", t + r }')"
      image_url="$(grep -o '"image_url" : "[^"]*"' "$work/b" | cut -d'"' -f4)"
      curl -fs -o /dev/null "$image_url" || true
      ;;
    /widget)
      entry_end=$(($(seconds "$(grep -o 'datetime="[^"]*"' "$work/b" | cut -d'"' -f2)") + 3600))
      reload_at="$(seconds "$(grep -o 'data-until="[^"]*"' "$work/b" | cut -d'"' -f2)")"
      come_back="$(awk -v t="$received" -v u="$reload_at" 'BEGIN { r = u + 2; printf "%.3f", (r > t ? r : t + 45) }')"
      ;;
    /current.jpg)
      case "$(md5sum <"$work/b" | cut -c1-32)" in
        "$old_sum") entry_end="$end" ;;
        "$new_sum") entry_end=$((end + 3600)) ;;
        *) entry_end="" ;;
      esac
      expires="$(grep -i '^expires:' "$work/h" | cut -d' ' -f2- | tr -d '\r')"
      date="$(grep -i '^date:' "$work/h" | cut -d' ' -f2- | tr -d '\r')"
      [ -n "$expires" ] && come_back="$(awk -v t="$received" -v e="$(seconds "$expires")" -v d="$(seconds "$date")" \
        'BEGIN { printf "%.3f", t + e - d }')"
      ;;
  esac
  echo "$received $path ${entry_end:--} ${come_back:--}" >>"$work/probes.txt"
}
while kill -0 "$wrk_pid" 2>/dev/null; do
  for path in /current.json /widget /current.jpg; do probe "$path"; done
  sleep 0.2
done
wait "$wrk_pid" || true

# Figures.
new_etag="$(awk '$5 == "\"/current.jpg\"" && $4 == 200 { last = $6 } END { print last }' "$work/access.log")"
echo "==================== kfeed serve behind nginx proxy_cache ===================="
echo "  wrk -t2 -c$connections across an entry's end ($before s before, $after s after); $(nginx -v 2>&1)"
awk '/requests in/ { total = $1 } /^Requests\/sec:/ { rate = $2 } /Non-2xx/ { other = ", " $NF " not 2xx" }
  END { printf "  through nginx: %s req/s (%s requests%s)\n", rate, total, other }' "$work/wrk.txt"
echo "  requests that reached kfeed, per path:   entry ending at $(date -u -d "@$end" +%H:%M:%S)Z | next entry"
echo "  (one per path and entry; /current.json, a countdown kept 30 s, once per 30 s: $(((before + 29) / 30)) | $(((after + 29) / 30)))"
awk -v end="$end" '$2 != "-" { uri = $5; if (uri ~ /^"\/(images|avatars|renders)\/.*\?v=/) uri = "\"…?v= (picture by version)\""
    count[uri, ($1 < end ? 0 : 1)]++; seen[uri] = 1 }
  END { for (uri in seen) printf "    %-44s %5d | %d\n", uri, count[uri, 0], count[uri, 1] }' "$work/access.log" | sort
awk '{ status[$3]++ } END { printf "  nginx cache statuses:"; for (s in status) printf " %s %d", s, status[s]; print "" }' \
  "$work/access.log"
# (The ETag through the environment: awk -v would read the \x22 nginx writes for each quote as an escape.)
NEW_ETAG="$new_etag" awk -v end="$end" '$5 == "\"/current.jpg\"" && $4 == 200 && $1 >= end {
    if ($6 == ENVIRON["NEW_ETAG"] && first == "") first = $1 - end; if ($6 != ENVIRON["NEW_ETAG"]) last = $1 - end }
  END { printf "  the new picture through the proxy: first %.3f s after the entry'\''s end; the old one last %s\n",
    first, (last == "" ? "never after it" : sprintf("%.3f s after it", last)) }' "$work/access.log"
awk '$3 != "-" && $4 != "-" { over = $4 - $3; if (n++ == 0 || over > worst) { worst = over; what = $2 } }
  END { printf "  worst \"come back at\" overshoot past the shown entry'\''s end: %.1f s (%s; %d probes; goal ≤ 60)\n",
    worst, what, n }' "$work/probes.txt"
echo "  host: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "=============================================================================="
