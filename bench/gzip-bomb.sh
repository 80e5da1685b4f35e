#!/usr/bin/env bash
# Peak RSS of `kfeed refresh --force` against a hostile API whose answers are 10 GB gzip bombs (10 MB on the wire,
# chunked, so no Content-Length gives it away): MODE=search (the search answer is the bomb) or MODE=images (the
# search answers the bundled sample page, and every picture and avatar it names is the bomb; the default, the
# harder case: dozens of downloads in flight at once), RUNS times in a row for each way of sending it (WAYS):
#   full  the whole bomb in one write, at loopback speed, nothing else running;
#   drip  the bomb in 4 KiB writes, DRIP_MS (default 1) apart, nothing else running;
#   load  as full, with LOAD (default 2) busy processes beside it (the machine loaded, as it is when the bomb
#         arrives while other work runs).
# How many bytes arrive per read, and when, must not decide how much is decoded: the transport's cap on decoded
# bytes is absolute (Sources/KFeedHTTP/CurlEasy.swift). Goal: every run's peak ≤ 128 MiB in every way, and the
# refresh is never killed (search: it fails as temporary, 75; images: placeholders, "image too large").
# Usage: bench/gzip-bomb.sh [RUNS] (default 20; env MODE, WAYS (default "full drip load"), LOAD, DRIP_MS; KFEED_BIN,
# default the debug build's kfeed)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-20}"
load="${LOAD:-2}"
mode="${MODE:-images}"
ways="${WAYS:-full drip load}"
drip_ms="${DRIP_MS:-1}"
bin="${KFEED_BIN:-.build/debug/kfeed}"
[ -x "$bin" ] || swift build --product kfeed -Xswiftc -O >&2
command -v /usr/bin/time >/dev/null || apt-get install -y -qq time >/dev/null

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

bomb="${TMPDIR:-/tmp}/kfeed-bomb-10g.gz"
if [ ! -s "$bomb" ]; then
  echo "making $bomb (10 GiB of zeros, gzip -9; about 20 s)" >&2
  python3 -c '
import sys, zlib
c = zlib.compressobj(9, zlib.DEFLATED, 31)
zeros = bytes(16 << 20)
with open(sys.argv[1] + ".part", "wb") as f:
    for _ in range(640):
        f.write(c.compress(zeros))
    f.write(c.flush())
' "$bomb" && mv "$bomb.part" "$bomb"
fi

# The hostile API: 200, Content-Encoding: gzip, and the bomb, chunked (full: one chunk in one write; drip: 4 KiB
# chunks, each its own write, DRIP_MS apart); in images mode the search gets the sample page with its pictures and
# avatars moved to this server.
cat >"$work/server.py" <<'PY'
import http.server, socket, socketserver, sys, time
bomb = open(sys.argv[1], "rb").read()
mode, page, way, drip = sys.argv[2], open(sys.argv[3], "rb").read(), sys.argv[4], float(sys.argv[5]) / 1000
whole = b"%x\r\n%s\r\n0\r\n\r\n" % (len(bomb), bomb)
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def do_GET(self):
        if mode == "images" and self.path.startswith("/2/tweets/search/recent"):
            base = b"http://127.0.0.1:%d" % self.server.server_address[1]
            body = page.replace(b"https://pbs.twimg.com", base).replace(b'"next_token"', b'"no_next_token"')
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        try:
            if way == "drip":
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                for start in range(0, len(bomb), 4096):
                    chunk = bomb[start:start + 4096]
                    self.connection.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    time.sleep(drip)
                self.connection.sendall(b"0\r\n\r\n")
            else:
                self.connection.sendall(whole)
        except (BrokenPipeError, ConnectionResetError):
            pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY

export X_BEARER_TOKEN=bomb-test-token NO_PROXY=127.0.0.1
summary=""
failed=0
for way in $ways; do
  case "$way" in
    full | drip) busy=0 ;;
    load) busy="$load" ;;
    *) echo "gzip-bomb.sh: unknown way $way (full, drip or load)" >&2; exit 2 ;;
  esac
  send="$way"
  [ "$way" = load ] && send=full
  rm -f "$work/port"
  python3 "$work/server.py" "$bomb" "$mode" Fixtures/recent-search.sample-page1.json "$send" "$drip_ms" >"$work/port" &
  server=$!
  pids+=($server)
  for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
  port="$(cat "$work/port")"
  busies=()
  for _ in $(seq "$busy"); do
    sh -c 'while :; do :; done' &
    busies+=($!)
    pids+=($!)
  done

  worst=0
  statuses=""
  for run in $(seq "$runs"); do
    cache="$work/cache-$run"
    set +e
    /usr/bin/time -f '%M' -o "$work/rss" "$bin" refresh --force --cache "$cache" \
      --api-base "http://127.0.0.1:$port" --now 2026-11-22T09:00:00Z -q 2>"$work/stderr"
    status=$?
    set -e
    kib="$(tail -1 "$work/rss")"
    mib=$(( (kib + 1023) / 1024 ))
    [ "$mib" -gt "$worst" ] && worst=$mib
    statuses="$statuses $status"
    printf '%s run %2d: exit %d, peak RSS %d MiB\n' "$way" "$run" "$status" "$mib"
    rm -rf "$cache"
  done
  for pid in "${busies[@]}" "$server"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  line="$way: worst peak RSS $worst MiB over $runs runs ($busy busy processes beside); exit statuses:$statuses"
  echo "$line"
  summary="$summary$line"$'\n'
  [ "$worst" -le 128 ] || failed=1
done
echo "gzip bomb (10 GiB decoded) in the $mode answers, goal ≤ 128 MiB in every way:"
printf '%s' "$summary"
[ "$failed" -eq 0 ]
