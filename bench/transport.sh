#!/usr/bin/env bash
# Benchmarks CurlTransport against the in-process loopback server: 48 × 200 KB with 100 ms added latency,
# concurrent and then sequential through one transport. Extra arguments go to `kfeed-bench transport`
# (--count N --bytes N --latency-ms N --target-ms N). Exits 1 when the concurrent run misses its target.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${KFEED_BENCH_SCRATCH:-.build}"
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kfeed-bench >&2
binary="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/kfeed-bench"

output="$(mktemp)"
timing="$(mktemp)"
trap 'rm -f "$output" "$timing"' EXIT

if [ -x /usr/bin/time ]; then
    /usr/bin/time -v -o "$timing" "$binary" transport "$@" >"$output"
    max_rss_kb="$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$timing")"
else
    "$binary" transport "$@" >"$output"
    max_rss_kb=""
fi

echo "==================== kfeed transport benchmark ===================="
grep -v '^bench-result' "$output"
if [ -n "$max_rss_kb" ]; then
    awk -v kb="$max_rss_kb" 'BEGIN { printf "  peak RSS (/usr/bin/time): %.1f MB\n", kb / 1024 }'
fi
echo "  host: $(nproc) cores, $(uname -sr), $(swift --version 2>/dev/null | head -n 1)"
echo "==================================================================="

grep -q 'met=true' "$output"
