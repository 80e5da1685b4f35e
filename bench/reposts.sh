#!/usr/bin/env bash
# Repost detection on both of its sides (kfeed-bench reposts; Sources/kfeed-bench/RepostBench.swift): pictures that
# must never be called the same (every pair of 26 layout siblings of two generated families, of the bundled sample's
# pictures and of the 24 corpus photos) and reposts that must be (14 kinds for each corpus photo: X's renditions,
# re-encodes at q50–95, progressive, crops of 2–5 %, borders of 4–8 px). Prints the hash and colour distances of
# both sides, the margin the threshold leaves and the counts; exits 1 when a goal is missed.
#
# Usage: bash bench/reposts.sh [SIBLINGS]     (env CORPUS, default /tmp/kfeed-corpus, made when missing)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-/tmp/kfeed-corpus}
[ -d "$CORPUS" ] || bash "$ROOT/bench/corpus.sh" "$CORPUS" >&2

scratch="${KFEED_BENCH_SCRATCH:-.build}"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kfeed-bench >&2)
binary="$(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/kfeed-bench"

echo "==================== kfeed repost detection ===================="
"$binary" reposts --siblings "${1:-26}" --sample "$ROOT/Fixtures/images" "$CORPUS"/*.jpg
echo "================================================================"
