#!/usr/bin/env bash
# kfeed image benchmark: kfeed-bench vs vipsthumbnail vs the djpeg decode floor, at widget sizes small and medium.
#
# Usage: bash bench/images.sh [RUNS]          (default 3 runs per size; env SIZES="small medium", CORPUS, OVERSAMPLING)
# Needs root for apt on a fresh machine. Builds kfeed-bench in release with its own scratch path.
# All three tools process the same photos with two workers (both cores busy) and the same centre crop:
#   kfeed  one process, 2 workers pulling from a shared queue (largest file first), decodes gated by
#          ImageDecodeBudget; glibc returns freed decode buffers to the OS (JPEGThumbnailer.releaseLargeBuffersPromptly)
#   vips   two vipsthumbnail processes (VIPS_CONCURRENCY=1), files split by size (largest first, alternating)
#   floor  djpeg -scale M/8 -outfile /dev/null, two at a time; M/8 = the smallest fast scale still covering the target
# Reported: median wall and CPU seconds, peak RSS (kfeed: the process; vips: sum of its two processes' peaks;
# floor: largest single djpeg), ratios, and SSIM (bench/ssim.py) against a Pillow Lanczos reference.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-3}
SIZES=${SIZES:-small medium}
CORPUS=${CORPUS:-/tmp/kfeed-corpus}
OVERSAMPLING=${OVERSAMPLING:-}
WORK=${WORK:-/tmp/kfeed-bench-images}
export DEBIAN_FRONTEND=noninteractive

need() { command -v "$1" >/dev/null 2>&1; }
if ! need vipsthumbnail || ! need djpeg || [ ! -x /usr/bin/time ] || ! /usr/bin/python3 -c 'import PIL, numpy' 2>/dev/null; then
  apt-get install -y libvips-tools libjpeg-turbo-progs time python3-pil python3-numpy >/dev/null
fi
[ -d "$CORPUS" ] || bash /work/shared/bench/make-corpus.sh "$CORPUS"

(cd "$ROOT" && swift build -c release --scratch-path .build-images --product kfeed-bench 2>&1 | tail -1)
BIN="$ROOT/.build-images/release/kfeed-bench"

rm -rf "$WORK"; mkdir -p "$WORK"
ls "$CORPUS"/*.jpg "$CORPUS-large"/*.jpg 2>/dev/null > "$WORK/files.txt"
# Split for the two vips processes: largest file first, alternating.
ls -S $(cat "$WORK/files.txt") | awk 'NR % 2 == 1' > "$WORK/vips-a.txt"
ls -S $(cat "$WORK/files.txt") | awk 'NR % 2 == 0' > "$WORK/vips-b.txt"
now() { date +%s.%N; }
TIMEFMT="%e %U %S %M"

for size in $SIZES; do
  case $size in small) dims=340x340 ;; medium) dims=720x340 ;; large) dims=720x760 ;; *) dims=$size ;; esac
  "$BIN" images --size "$size" --floor-scales $(cat "$WORK/files.txt") > "$WORK/floor-$size.txt"
  for run in $(seq 1 "$RUNS"); do
    out="$WORK/$size"; rm -rf "$out"; mkdir -p "$out/kfeed" "$out/vips"
    # kfeed
    /usr/bin/time -f "$TIMEFMT" -o "$WORK/t.kfeed" "$BIN" images --size "$size" ${OVERSAMPLING:+--oversampling $OVERSAMPLING} \
      --out "$out/kfeed" $(cat "$WORK/files.txt") >/dev/null
    echo "kfeed $size $(cat "$WORK/t.kfeed")" >> "$WORK/results.txt"
    # vipsthumbnail: two single-threaded processes
    start=$(now)
    for part in a b; do
      VIPS_CONCURRENCY=1 /usr/bin/time -f "$TIMEFMT" -o "$WORK/t.vips-$part" vipsthumbnail --size "$dims" \
        --smartcrop centre -o "$out/vips/%s.jpg[Q=85,strip]" $(cat "$WORK/vips-$part.txt") &
    done
    wait
    wall=$(echo "$(now) - $start" | bc)
    echo "vips $size $wall $(cat "$WORK/t.vips-a" "$WORK/t.vips-b" | awk '{u+=$2; s+=$3; m+=$4} END {print u, s, m}')" \
      >> "$WORK/results.txt"
    # decode floor
    /usr/bin/time -f "$TIMEFMT" -o "$WORK/t.floor" \
      xargs -P 2 -L 1 sh -c 'djpeg -scale "$0/8" -outfile /dev/null "$1"' < "$WORK/floor-$size.txt"
    echo "floor $size $(cat "$WORK/t.floor")" >> "$WORK/results.txt"
    echo "run $run $size: $(tail -3 "$WORK/results.txt" | awk '{printf "%s %.2fs  ", $1, $3}')"
  done
  /usr/bin/python3 "$ROOT/bench/ssim.py" "$dims" "$WORK/files.txt" kfeed="$out/kfeed" vips="$out/vips" \
    | sed "s/^/ssim $size /" >> "$WORK/results.txt"
done

/usr/bin/python3 - "$WORK/results.txt" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
times, ssim = {}, {}
for r in rows:
    if r[0] == "ssim":
        if r[3] == "mean":
            ssim[(r[2], r[1])] = (float(r[4]), float(r[6]), r[7])
        continue
    times.setdefault((r[0], r[1]), []).append(tuple(float(v) for v in r[2:6]))
named = ["small", "medium", "large"]
sizes = sorted({k[1] for k in times}, key=lambda s: (named.index(s) if s in named else len(named), s))
print()
print(f"{'size':7} {'tool':6} {'wall s':>7} {'CPU s':>7} {'peak MiB':>9} {'wall/vips':>10} {'wall/floor':>11} {'SSIM mean':>10} {'SSIM min':>9}")
for size in sizes:
    med = {}
    for tool in ("kfeed", "vips", "floor"):
        runs = times.get((tool, size), [])
        if not runs:
            continue
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] + r[2] for r in runs)
        peak = max(r[3] for r in runs) / 1024
        med[tool] = wall
        s = ssim.get((tool, size))
        ratio_v = f"{wall / med['vips']:.2f}" if "vips" in med else ""
        ratio_f = f"{wall / med['floor']:.2f}" if "floor" in med else ""
        print(f"{size:7} {tool:6} {wall:7.2f} {cpu:7.2f} {peak:9.1f} {ratio_v:>10} {ratio_f:>11} "
              f"{(f'{s[0]:.4f}' if s else ''):>10} {(f'{s[1]:.4f}' if s else ''):>9}")
    k, v, f = (statistics.median(r[0] for r in times[(t, size)]) for t in ("kfeed", "vips", "floor"))
    print(f"{size:7} kfeed/vips wall {k / v:.2f} (target <= 0.80), kfeed/floor wall {k / f:.2f} (stretch <= 1.00); "
          f"n={len(times[('kfeed', size)])} runs, medians")
print("peak: kfeed = its one process; vips = sum of its two processes' peaks; floor = largest single djpeg")
PY
