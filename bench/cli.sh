#!/usr/bin/env bash
# The cron path's cost, measured side by side with a Swift hello-world that imports Foundation:
#   1. a not-due `kfeed refresh` and `kfeed timeline` on a warm 24-entry cache (target: ≤ 2× hello-world each);
#   2. a full `kfeed refresh --force` from a loopback API with 100 ms latency per response, 24 photos from the
#      benchmark corpus (served whole, as `orig` renditions would be) and their avatars: wall, CPU, peak RSS, and
#      the time a sequential client (one curl, one URL after another) takes for the same responses.
# Usage: bench/cli.sh [RUNS]   (default 20 runs of each quick command, interleaved)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-20}"
scratch="${KFEED_BENCH_SCRATCH:-.build}"
command -v /usr/bin/time >/dev/null || apt-get install -y -qq time >/dev/null
[ -d /tmp/kfeed-corpus ] || bash ../shared/bench/make-corpus.sh >&2
swift build -c release --scratch-path "$scratch" --product kfeed >&2
swift build -c release --scratch-path "$scratch" --product kfeed-bench >&2
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)"

work="$(mktemp -d)"
trap 'exec 3>&- 2>/dev/null; rm -rf "$work"' EXIT
printf 'import Foundation\nprint("hello, \\(ProcessInfo.processInfo.processName)")\n' >"$work/hello.swift"
swiftc -O "$work/hello.swift" -o "$work/hello" 2>/dev/null

# A loopback API for the full refresh; it serves until fd 3 closes.
mkfifo "$work/in"
"$bin/kfeed-bench" serve --photos /tmp/kfeed-corpus --latency-ms 100 <"$work/in" >"$work/serve.out" &
exec 3>"$work/in"
for _ in $(seq 50); do grep -q '^port' "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
port="$(awk '/^port/ { print $2 }' "$work/serve.out")"
export X_BEARER_TOKEN=benchmark-token KFEED_API_BASE="http://127.0.0.1:$port" NO_PROXY=127.0.0.1

cache="$work/cache"
/usr/bin/time -f '%e %U %S %M' -o "$work/full.time" "$bin/kfeed" refresh --force --cache "$cache" -v 2>"$work/full.log"
read -r full_wall full_user full_sys full_rss <"$work/full.time"
full_requests="$(grep -c '^request ' "$work/serve.out")"
requests_before_render="$full_requests"

# The same refresh with one display profile (24 trmnl renders from the rendition that covers the panel).
/usr/bin/time -f '%e %U %S %M' -o "$work/render.time" "$bin/kfeed" refresh --force --cache "$work/cache-trmnl" \
  --profile trmnl -v 2>"$work/render.log"
read -r render_wall render_user render_sys render_rss <"$work/render.time"

# The same job for ImageMagick, side by side: the 24 photos the refresh rendered, cover-cropped and dithered to
# black and white, two processes at a time (as bench/renders.sh does for the whole corpus).
magick_wall=""
if command -v convert >/dev/null && convert -version 2>/dev/null | grep -q ImageMagick; then
  convert -size 1x1 xc:black xc:white +append "$work/palette.png"
  mkdir -p "$work/magick"
  ls /tmp/kfeed-corpus/*.jpg | head -n 24 >"$work/photos.txt"
  magick_start=$(date +%s%N)
  MAGICK_THREAD_LIMIT=1 xargs -P 2 -I{} sh -c 'convert "$1" -resize 800x480^ -gravity center -extent 800x480 \
    -dither FloydSteinberg -remap "$2" "$3/$(basename "$1" .jpg).png" 2>/dev/null' _ {} "$work/palette.png" \
    "$work/magick" <"$work/photos.txt"
  magick_wall=$(awk -v ns="$(( $(date +%s%N) - magick_start ))" 'BEGIN { printf "%.2f", ns / 1e9 }')
fi

# A sequential client in the same run: one curl fetching every URL the refresh fetched, one after another over
# one connection (transfers only: no decoding, no files), with the same 100 ms per response.
urls=()
while read -r _ target; do urls+=(-o /dev/null "http://127.0.0.1:$port$target"); done < <(grep '^request ' "$work/serve.out" | head -n "$requests_before_render")
seq_start=$(date +%s%N)
curl -s -H "Authorization: Bearer benchmark-token" "${urls[@]}"
seq_wall=$(awk -v ns="$(( $(date +%s%N) - seq_start ))" 'BEGIN { printf "%.2f", ns / 1e9 }')

# Quick commands, interleaved so the machine's noise hits them alike.
now_ns() { date +%s%N; }
declare -A total=([hello]=0 [refresh]=0 [timeline]=0)
for _ in $(seq "$runs"); do
  for name in hello refresh timeline; do
    case $name in
      hello) cmd=("$work/hello") ;;
      refresh) cmd=("$bin/kfeed" refresh --cache "$cache") ;;
      timeline) cmd=("$bin/kfeed" timeline --cache "$cache") ;;
    esac
    start=$(now_ns); "${cmd[@]}" >/dev/null; end=$(now_ns)
    total[$name]=$(( total[$name] + end - start ))
  done
done
ms() { awk -v ns="$1" -v n="$runs" 'BEGIN { printf "%.1f", ns / n / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "==================== kfeed cron-path benchmark ===================="
echo "  mean of $runs interleaved runs each:"
echo "    swift hello-world (Foundation)   $(ms ${total[hello]}) ms"
echo "    kfeed refresh (not due)          $(ms ${total[refresh]}) ms   ratio $(ratio ${total[refresh]} ${total[hello]})× (target ≤ 2)"
echo "    kfeed timeline (warm cache)      $(ms ${total[timeline]}) ms   ratio $(ratio ${total[timeline]} ${total[hello]})× (target ≤ 2)"
echo "  full refresh, 100 ms per response, $(grep -c . <(ls "$cache/images")) photos + $(ls "$cache/avatars" | wc -l) avatars:"
echo "    wall ${full_wall} s, CPU $(awk -v u="$full_user" -v s="$full_sys" 'BEGIN { print u + s }') s, peak RSS $(( full_rss / 1024 )) MiB"
grep 'refreshed' "$work/full.log" | sed 's/^/    /'
echo "    $full_requests responses; a sequential client (curl, one at a time) takes ${seq_wall} s for them:" \
  "kfeed is $(awk -v s="$seq_wall" -v k="$full_wall" 'BEGIN { printf "%.1f", s / k }')× faster (goal ≥ 12×)"
echo "  the same refresh with --profile trmnl (24 renders):"
echo "    wall ${render_wall} s (+$(awk -v a="$render_wall" -v b="$full_wall" 'BEGIN { printf "%.2f", a - b }') s)," \
  "CPU $(awk -v u="$render_user" -v s="$render_sys" 'BEGIN { print u + s }') s, peak RSS $(( render_rss / 1024 )) MiB" \
  "(+$(( (render_rss - full_rss) / 1024 )) MiB)"
if [ -n "$magick_wall" ]; then
  echo "    ImageMagick, the same 24 renders two at a time: ${magick_wall} s; kfeed's added wall is" \
    "$(awk -v a="$render_wall" -v b="$full_wall" -v m="$magick_wall" 'BEGIN { printf "%.2f", (a - b) / m }')× (goal ≤ 0.5)"
fi
echo "  host: $(nproc) cores, $(uname -sr)"
echo "==================================================================="
