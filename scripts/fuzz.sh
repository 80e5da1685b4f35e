#!/usr/bin/env bash
# Fuzzes kfeed's parsers of untrusted bytes with libFuzzer and AddressSanitizer (Sources/KFeedFuzz/FuzzTargets.swift).
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#   SECONDS  run time of each target (default 60); the targets run at the same time, one process each
#   TARGET   progressive, jpeg-structure, exif, search-page, problem, dotenv, thumbnail, cache-files, feeds-file,
#            tweets-lookup, usage-tweets, trmnl-log
#            (default: all)
# Environment: KFEED_FUZZ_JOBS  how many targets run at once (default: all of them)
#              KFEED_FUZZ_NICE  niceness of the fuzzers (default 19)
#              KFEED_FUZZ_TIMEOUT  seconds one input may take before it counts as a hang (default 10); the clock is
#                                  the wall's, so a run beside other work at niceness 19 needs more (e.g. 60)
#
# Inputs: the committed seeds (Fuzz/corpus/<target>), the committed regressions (Fixtures/fuzz/<target>) and a
# working corpus that grows between runs (.build-fuzz/corpus/<target>, not committed). Logs go to
# .build-fuzz/runs/<target>.log, findings (crash-*, timeout-*, oom-*, leak-*) to .build-fuzz/artifacts/<target>/.
# Prints one summary line per target and exits non-zero if any target crashed, hung (over KFEED_FUZZ_TIMEOUT seconds
# on one input), ran out of memory (2 GiB) or leaked. Reproduce a finding: KFEED_FUZZ_TARGET=<target> .build-fuzz/debug/kfeed-fuzz FILE
# (or, without sanitizers, swift run kfeed-fuzz <target> FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SECONDS_EACH=${1:-60}
shift || true
ALL=(progressive jpeg-structure exif search-page problem dotenv thumbnail cache-files feeds-file tweets-lookup usage-tweets
  trmnl-log)
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL[@]}")
for target in "${TARGETS[@]}"; do
  [[ " ${ALL[*]} " == *" $target "* ]] || { echo "fuzz.sh: unknown target $target (one of: ${ALL[*]})" >&2; exit 2; }
done
[[ $SECONDS_EACH =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number, not $SECONDS_EACH" >&2; exit 2; }
JOBS=${KFEED_FUZZ_JOBS:-${#TARGETS[@]}}
NICENESS=${KFEED_FUZZ_NICE:-19}
TIMEOUT=${KFEED_FUZZ_TIMEOUT:-10}

bash scripts/deps.sh
SWIFT_LIB=$(dirname "$(dirname "$(command -v swift)")")/lib
if ! compgen -G "$SWIFT_LIB/clang/*/lib/linux/libclang_rt.fuzzer-*.a" >/dev/null; then
  echo "fuzz.sh: this Swift toolchain has no libFuzzer (libclang_rt.fuzzer); use the swift.org Linux toolchain" >&2
  exit 1
fi

# Optimised as the tests are (scripts/test.sh): the parsers run ~30x faster, so the fuzzers try ~30x more inputs.
SCRATCH=.build-fuzz
mkdir -p "$SCRATCH/runs"
echo "building kfeed-fuzz with -sanitize=fuzzer,address in $SCRATCH" >&2
if ! swift build --scratch-path "$SCRATCH" -c debug --product kfeed-fuzz \
  -Xswiftc -O -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKFEED_FUZZ >"$SCRATCH/runs/build.log" 2>&1; then
  # gold's "Cannot export local symbol" warnings about ASan's helpers are noise.
  grep -v "Cannot export local symbol" "$SCRATCH/runs/build.log" >&2
  echo "fuzz.sh: build failed" >&2
  exit 1
fi
# The fuzzers run a copy, so that a rebuild while they run (fixing a finding) does not pull it from under them.
BINARY=$SCRATCH/runs/kfeed-fuzz.$$
cp "$SCRATCH/debug/kfeed-fuzz" "$BINARY"
trap 'rm -f "$BINARY"' EXIT

# Per target: the longest input and the dictionary.
max_len() {
  case $1 in
    search-page | cache-files) echo 32768 ;;
    trmnl-log) echo 65536 ;;
    exif | dotenv) echo 2048 ;;
    *) echo 4096 ;;
  esac
}
# Leak checking, per target. TOMLKit 0.6.0 (the feeds file's TOML library) never frees the error record its
# `TOMLTable(string:)` allocates (24 bytes a parse, and the message on a syntax error): harmless for kfeed, which
# reads the file once per process, but every input would report it; crashes, hangs and memory are still checked.
leaks() {
  case $1 in
    feeds-file) echo 0 ;;
    *) echo 1 ;;
  esac
}
dictionary() {
  case $1 in
    progressive | jpeg-structure | thumbnail) echo Fuzz/dict/jpeg.dict ;;
    exif) echo Fuzz/dict/exif.dict ;;
    search-page | cache-files | tweets-lookup | usage-tweets) echo Fuzz/dict/json.dict ;;
    problem) echo Fuzz/dict/problem.dict ;;
    dotenv) echo Fuzz/dict/dotenv.dict ;;
    feeds-file) echo Fuzz/dict/toml.dict ;;
    trmnl-log) echo Fuzz/dict/json.dict ;;
  esac
}

run() {
  local target=$1
  local corpus=$SCRATCH/corpus/$target artifacts=$SCRATCH/artifacts/$target
  mkdir -p "$corpus" "$artifacts" "Fuzz/corpus/$target"
  local inputs=("$corpus" "Fuzz/corpus/$target")
  [ -d "Fixtures/fuzz/$target" ] && inputs+=("Fixtures/fuzz/$target")
  set +e
  # SWIFT_BACKTRACE: the Swift runtime's own crash reporter would race ASan's and can hang; libFuzzer reports.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=$(leaks "$target")} KFEED_FUZZ_TARGET=$target nice -n "$NICENESS" "$BINARY" \
    -max_total_time="$SECONDS_EACH" -timeout="$TIMEOUT" -rss_limit_mb=2048 -max_len="$(max_len "$target")" \
    -dict="$(dictionary "$target")" -artifact_prefix="$ROOT/$artifacts/" -print_final_stats=1 \
    "${inputs[@]}" >"$SCRATCH/runs/$target.log" 2>&1
  echo $? >"$SCRATCH/runs/$target.status"
  set -e
}

echo "fuzzing ${TARGETS[*]} for ${SECONDS_EACH} s each, $JOBS at a time; logs in $SCRATCH/runs/" >&2
running=0
for target in "${TARGETS[@]}"; do
  if [ "$running" -ge "$JOBS" ]; then
    wait -n
    running=$((running - 1))
  fi
  run "$target" &
  running=$((running + 1))
done
wait

# Summary: libFuzzer's final stats, and what the run left in the artifact directory.
failed=0
for target in "${TARGETS[@]}"; do
  log=$SCRATCH/runs/$target.log
  status=$(cat "$SCRATCH/runs/$target.status" 2>/dev/null || echo "?")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
  findings=$(grep -oE "(Test unit written to|artifact_prefix.*Test unit written to) [^ ]+" "$log" | awk '{print $NF}' |
    tr '\n' ' ' || true)
  verdict=ok
  if [ "$status" != 0 ]; then
    verdict="FAILED (exit $status)"
    failed=1
  fi
  printf '%-15s %s: %s executions, %s exec/s, cov: %s, ft: %s, corpus: %s, findings: %s\n' "$target" "$verdict" \
    "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "${findings:-none}"
done
exit $failed
