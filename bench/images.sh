#!/usr/bin/env bash
# kfeed image benchmark: kfeed-bench vs vipsthumbnail vs the djpeg decode floor, at widget sizes small and medium.
#
# Usage: bash bench/images.sh [RUNS]          (default 3 runs per size; env SIZES="small medium", CORPUS, OVERSAMPLING)
# Needs root for apt on a fresh machine. Builds kfeed-bench in release with its own scratch path.
# All three tools process the same photos with two workers (both cores busy) and the same centre crop:
#   kfeed  one process, 2 workers pulling from a shared queue (largest file first), decodes gated by
#          ImageDecodeBudget; glibc returns freed decode buffers to the OS (the executables set it: Sources/kfeed/KFeedMain.swift)
#   vips   two vipsthumbnail processes (VIPS_CONCURRENCY=1), files split by size (largest first, alternating)
#   floor  djpeg -scale M/8 -outfile /dev/null, two at a time; M/8 = the smallest fast scale still covering the target
# Reported: median wall and CPU seconds, peak RSS (kfeed: the process; vips: sum of its two processes' peaks;
# floor: largest single djpeg), ratios, mean output size, and SSIM (bench/ssim.py: R, G, B averaged, and luma)
# against a full-resolution Lanczos-3 reference, with how many photos kfeed scores below vips on.
# vipsthumbnail writes 4:2:0 (its default); kfeed writes 4:4:4. For a same-format comparison, vips444
# (vipsthumbnail with no-subsample, untimed) is scored too. SIZES=338x338 is the size the issue's figures use.
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
[ -d "$CORPUS" ] || bash "$ROOT/bench/corpus.sh" "$CORPUS"

(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path .build-images --product kfeed-bench 2>&1 | tail -1)
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
  # Untimed: vipsthumbnail at 4:4:4 like kfeed, for the same-format SSIM comparison.
  mkdir -p "$out/vips444"
  VIPS_CONCURRENCY=1 vipsthumbnail --size "$dims" --smartcrop centre -o "$out/vips444/%s.jpg[Q=85,strip,no-subsample]" \
    $(cat "$WORK/files.txt")
  for tool in kfeed vips vips444; do
    echo "bytes $size $tool $(cat "$out/$tool"/*.jpg | wc -c) $(ls "$out/$tool"/*.jpg | wc -l)" >> "$WORK/results.txt"
  done
  /usr/bin/python3 "$ROOT/bench/ssim.py" "$dims" "$WORK/files.txt" kfeed="$out/kfeed" vips="$out/vips" \
    vips444="$out/vips444" | sed "s/^/ssim $size /" >> "$WORK/results.txt"
done

/usr/bin/python3 - "$WORK/results.txt" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
times, ssim, below, size_kib = {}, {}, [], {}
for r in rows:
    if r[0] == "ssim":
        if r[3] == "below":
            below.append(r[1:])
        elif r[4] == "mean":
            ssim[(r[2], r[1], r[3])] = (float(r[5]), float(r[7]))
        continue
    if r[0] == "bytes":
        size_kib[(r[2], r[1])] = int(r[3]) / max(int(r[4]), 1) / 1024
        continue
    times.setdefault((r[0], r[1]), []).append(tuple(float(v) for v in r[2:6]))
named = ["small", "medium", "large"]
sizes = sorted({k[1] for k in times}, key=lambda s: (named.index(s) if s in named else len(named), s))
def score(tool, size, metric):
    s = ssim.get((tool, size, metric))
    return (f"{s[0]:.4f}", f"{s[1]:.4f}") if s else ("", "")
print()
print(f"{'size':8} {'tool':8} {'wall s':>7} {'CPU s':>7} {'peak MiB':>9} {'wall/vips':>10} {'wall/floor':>11} "
      f"{'KiB/img':>8} {'SSIM rgb':>9} {'min':>7} {'SSIM luma':>10} {'min':>7}")
for size in sizes:
    med = {t: statistics.median(r[0] for r in times[(t, size)]) for t in ("kfeed", "vips", "floor")}
    for tool in ("kfeed", "vips", "vips444", "floor"):
        runs = times.get((tool, size), [])
        if not runs and (tool, size, "rgb") not in ssim:
            continue
        wall = med.get(tool)
        cpu = f"{statistics.median(r[1] + r[2] for r in runs):7.2f}" if runs else ""
        peak = f"{max(r[3] for r in runs) / 1024:9.1f}" if runs else ""
        ratio_v = f"{wall / med['vips']:.2f}" if wall is not None and "vips" in med else ""
        ratio_f = f"{wall / med['floor']:.2f}" if wall is not None and "floor" in med else ""
        kib = f"{size_kib[(tool, size)]:.1f}" if (tool, size) in size_kib else ""
        rgb_mean, rgb_min = score(tool, size, "rgb")
        luma_mean, luma_min = score(tool, size, "luma")
        print(f"{size:8} {tool:8} {(f'{wall:.2f}' if wall is not None else 'untimed'):>7} {cpu:>7} {peak:>9} "
              f"{ratio_v:>10} {ratio_f:>11} {kib:>8} {rgb_mean:>9} {rgb_min:>7} {luma_mean:>10} {luma_min:>7}")
    k, v, f = (med[t] for t in ("kfeed", "vips", "floor"))
    cpu_k, cpu_v = (statistics.median(r[1] + r[2] for r in times[(t, size)]) for t in ("kfeed", "vips"))
    print(f"{size:8} kfeed/vips wall {k / v:.2f} (target <= 0.25, at a higher SSIM mean and minimum), "
          f"CPU {cpu_k / cpu_v:.2f}; kfeed/floor wall {k / f:.2f}; n={len(times[('kfeed', size)])} runs, medians")
    for b in below:
        if b[0] == size:
            print(f"{size:8} kfeed scores below {b[3]} on {b[5]} of {b[7]} photos ({b[4]} SSIM)")
print("peak: kfeed = its one process; vips = sum of its two processes' peaks; floor = largest single djpeg")
print("SSIM against a full-resolution Lanczos-3 reference (bench/ssim.py); vips444 = vipsthumbnail at 4:4:4")
PY
