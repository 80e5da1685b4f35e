#!/usr/bin/env bash
# What a week of history costs a refresh's repost check (kfeed-bench history; Sources/kfeed-bench/HistoryBench.swift):
# 170 pictures shown (`small` thumbnails of the corpus photos and of every look-alike family, as history.json and
# history-cells.bin keep them), 28 new ones checked against them as the variety step does; prints the comparisons,
# the hash candidates and the step's CPU time (the median of RUNS). The goal: at most 0.1 s of CPU. Then what
# history.json and history-cells.bin cost a refresh, which reads and rewrites them whole: their sizes and the CPU
# time to decode them, to make their pictures' identities and to encode them, with those 170 records and with the
# most kept (2,000), with and without the fine and finer cells.
#
# Usage: bash bench/history.sh [RUNS]     (env CORPUS, default /tmp/kfeed-corpus, made when missing)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-/tmp/kfeed-corpus}
[ -d "$CORPUS" ] || bash "$ROOT/bench/corpus.sh" "$CORPUS" >&2
scratch="${KFEED_BENCH_SCRATCH:-.build}"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kfeed-bench >&2)
binary="$(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/kfeed-bench"
"$binary" history --photos "$CORPUS" --runs "${1:-5}"
