#!/usr/bin/env bash
# What refreshes cost X's bill: `kfeed refresh` from a simulated cron every 15 minutes for HOURS (default 48)
# against a simulated X, in process (kfeed-bench economy; Sources/kfeed-bench/EconomyBench.swift). Prints search
# requests and distinct posts read per UTC day, the post lookups (deleted-post checks) and the posts they read, and
# the day's bill (posts once a UTC day, searches and lookups together, and the expanded authors as users, at
# [budget]'s default prices) for a busy topic, a quiet one, the busy one without memory, a
# failing API and more, then a week of three feeds under one budget of 60 posts a day (kfeed.toml's [budget]);
# exits 1 when a goal is missed.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${KFEED_BENCH_SCRATCH:-.build}"
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kfeed-bench >&2
binary="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/kfeed-bench"

echo "==================== kfeed economy (posts read) ===================="
"$binary" economy "$@"
echo "===================================================================="
