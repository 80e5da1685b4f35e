#!/usr/bin/env bash
# Peak RSS of `kfeed refresh --force` against a hostile API whose answers are 10 GB gzip bombs (10 MB on the wire,
# chunked, so no Content-Length gives it away): MODE=search (the search answer is the bomb) or MODE=images (the
# search answers the bundled sample page, and every picture and avatar it names is the bomb; the default, the
# harder case: dozens of downloads in flight at once), RUNS times in a row, with LOAD busy processes beside it (the
# machine loaded, as it is when the bomb arrives while other work runs). Goal: every run's peak ≤ 128 MiB, and the
# refresh is never killed (search: it fails as temporary, 75; images: placeholders, "image too large").
# Usage: bench/gzip-bomb.sh [RUNS] (default 20; env LOAD, default 2; KFEED_BIN, default the debug build's kfeed)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-20}"
load="${LOAD:-2}"
mode="${MODE:-images}"
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

# The hostile API: 200, Content-Encoding: gzip, and the bomb, chunked; in images mode the search gets the sample page
# with its pictures and avatars moved to this server.
cat >"$work/server.py" <<'PY'
import http.server, socketserver, sys
bomb = open(sys.argv[1], "rb").read()
mode, page = sys.argv[2], open(sys.argv[3], "rb").read()
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
        try:
            for start in range(0, len(bomb), 65536):
                chunk = bomb[start:start + 65536]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
python3 "$work/server.py" "$bomb" "$mode" Fixtures/recent-search.sample-page1.json >"$work/port" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
port="$(cat "$work/port")"

for _ in $(seq "$load"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done

export X_BEARER_TOKEN=bomb-test-token NO_PROXY=127.0.0.1
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
  printf 'run %2d: exit %d, peak RSS %d MiB\n' "$run" "$status" "$mib"
  rm -rf "$cache"
done
echo "gzip bomb (10 GiB decoded) in the $mode answers, $runs runs, $load busy processes beside: worst peak RSS $worst MiB (goal ≤ 128);" \
  "exit statuses:$statuses"
[ "$worst" -le 128 ]
