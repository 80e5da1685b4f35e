#!/usr/bin/env bash
# Display renders: kfeed renders the `trmnl` profile (800×480, 1-bit, Floyd–Steinberg, PNG) for the 24 photos of the
# benchmark corpus, against ImageMagick doing the same job in the same run:
#   kfeed   one `kfeed-bench render --profile trmnl --no-caption --workers 2` process (two renders at a time);
#           and once more with the caption band (avatar, name, @username, time and day, X mark, two lines of post
#           text), for its cost
#   magick  `convert SRC -resize 800x480^ -gravity center -extent 800x480 -dither FloydSteinberg -remap PALETTE.png
#           OUT.png`, two processes at a time (xargs -P 2), MAGICK_THREAD_LIMIT=1 so two processes fill the two cores
# Reported: median wall and CPU seconds over RUNS, peak RSS (kfeed: its one process; magick: the largest single
# convert), mean output bytes, and kfeed/magick wall (goal ≤ 0.1).
# Then every preset (PROFILES) renders the same 24 photos without a caption, one worker, once per run: median
# milliseconds a render (wall / 24, one at a time: a render's latency), CPU, mean and largest bytes against the
# profile's cap (goal: a trmnl-x render ≤ 150 ms).
# Usage: bash bench/renders.sh [RUNS]   (default 3; env CORPUS, KFEED_BENCH_SCRATCH, PROFILES, BIN to skip the build)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-3}
CORPUS=${CORPUS:-/tmp/kfeed-corpus}
scratch="${KFEED_BENCH_SCRATCH:-.build}"
export DEBIAN_FRONTEND=noninteractive
need() { command -v "$1" >/dev/null 2>&1; }
# Debian's `convert` is ImageMagick; a stand-in without -remap would not do the job.
if ! need convert || ! convert -version 2>/dev/null | grep -q ImageMagick || [ ! -x /usr/bin/time ]; then
  apt-get install -y -qq imagemagick time >/dev/null
fi
bash "$ROOT/scripts/deps.sh"
[ -d "$CORPUS" ] || bash "$ROOT/bench/corpus.sh" "$CORPUS" >&2

if [ -z "${BIN:-}" ]; then
  (cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kfeed-bench 2>&1 | tail -1)
  BIN="$(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/kfeed-bench"
fi
PROFILES=${PROFILES:-"trmnl trmnl-bmp trmnl-grey4 trmnl-x grey4 inky7 spectra6 spectra6-13 inkplate inkplate10 inkplate6plus frame"}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ls "$CORPUS"/*.jpg > "$WORK/files.txt"
count=$(wc -l < "$WORK/files.txt")
convert -size 1x1 xc:black xc:white +append "$WORK/palette.png"
avatar="$ROOT/Fixtures/images/avatar-1.jpg"
TIMEFMT="%e %U %S %M"

for run in $(seq 1 "$RUNS"); do
  rm -rf "$WORK/kfeed" "$WORK/captioned" "$WORK/magick"; mkdir -p "$WORK/kfeed" "$WORK/captioned" "$WORK/magick"
  /usr/bin/time -f "$TIMEFMT" -o "$WORK/t.kfeed" "$BIN" render --profile trmnl --no-caption --workers 2 \
    --out "$WORK/kfeed" $(cat "$WORK/files.txt") >/dev/null
  echo "kfeed $(cat "$WORK/t.kfeed") $(cat "$WORK"/kfeed/*.png | wc -c)" >> "$WORK/results.txt"
  /usr/bin/time -f "$TIMEFMT" -o "$WORK/t.captioned" "$BIN" render --profile trmnl --workers 2 \
    --name "김지수 Jisoo" --username jisoo --hour 14:00 --date "26 Nov 2026" --avatar "$avatar" \
    --text "오늘 무대 사진 📸 Backstage before the encore, thank you all for coming tonight! #BLACKPINK https://t.co/AbCdEf1234" \
    --out "$WORK/captioned" $(cat "$WORK/files.txt") >/dev/null
  echo "kfeed+caption $(cat "$WORK/t.captioned") $(cat "$WORK"/captioned/*.png | wc -c)" >> "$WORK/results.txt"
  MAGICK_THREAD_LIMIT=1 /usr/bin/time -f "$TIMEFMT" -o "$WORK/t.magick" xargs -P 2 -I{} sh -c \
    'convert "$1" -resize 800x480^ -gravity center -extent 800x480 -dither FloydSteinberg -remap "$2" \
      "$3/$(basename "$1" .jpg).png"' _ {} "$WORK/palette.png" "$WORK/magick" < "$WORK/files.txt"
  echo "magick $(cat "$WORK/t.magick") $(cat "$WORK"/magick/*.png | wc -c)" >> "$WORK/results.txt"
  echo "run $run: $(tail -3 "$WORK/results.txt" | awk '{printf "%s %.2fs  ", $1, $2}')" >&2
  for profile in $PROFILES; do
    rm -rf "$WORK/p"; mkdir -p "$WORK/p"
    /usr/bin/time -f "$TIMEFMT" -o "$WORK/t.p" "$BIN" render --profile "$profile" --no-caption --workers 1 \
      --out "$WORK/p" $(cat "$WORK/files.txt") >/dev/null
    largest=$(for f in "$WORK"/p/*; do wc -c < "$f"; done | sort -n | tail -1)
    echo "$profile $(cat "$WORK/t.p") $(cat "$WORK"/p/* | wc -c) $largest" >> "$WORK/profiles.txt"
  done
done
# Every output is 800×480 with two colours (ImageMagick's own reading of both tools' files).
for tool in kfeed magick; do
  bad=$(identify -format '%w %h %k\n' "$WORK/$tool"/*.png | grep -cv '^800 480 [12]$' || true)
  [ "$bad" -eq 0 ] || echo "warning: $bad $tool outputs are not 800x480 two-colour" >&2
done

python3 - "$WORK/results.txt" "$count" "$WORK/profiles.txt" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
caps = {"trmnl": 90000, "trmnl-grey4": 90000, "trmnl-x": 750000}
count = int(sys.argv[2])
stats = {}
for tool, wall, user, system, rss, size in rows:
    stats.setdefault(tool, []).append((float(wall), float(user) + float(system), int(rss) / 1024, int(size) / count))
print("==================== kfeed display-render benchmark ====================")
print(f"  trmnl (800x480, 1-bit FS, PNG) for {count} corpus photos, two at a time; medians of {len(stats['kfeed'])} runs")
print(f"  {'tool':14} {'wall s':>7} {'CPU s':>7} {'peak MiB':>9} {'mean bytes':>11}")
for tool in ("kfeed", "kfeed+caption", "magick"):
    runs = stats[tool]
    print(f"  {tool:14} {statistics.median(r[0] for r in runs):7.2f} {statistics.median(r[1] for r in runs):7.2f} "
          f"{max(r[2] for r in runs):9.1f} {statistics.mean(r[3] for r in runs):11.0f}")
k = statistics.median(r[0] for r in stats["kfeed"])
m = statistics.median(r[0] for r in stats["magick"])
print(f"  kfeed/magick wall {k / m:.2f} (goal <= 0.10)")
print("  peak: kfeed = its one process; magick = the largest single convert")
print(f"  every preset, {count} photos one at a time, no caption; medians of the runs")
print(f"  {'profile':14} {'ms/render':>9} {'CPU s':>7} {'peak MiB':>9} {'mean bytes':>11} {'largest':>9} {'cap':>8}")
profiles = {}
for line in open(sys.argv[3]):
    name, wall, user, system, rss, total, largest = line.split()
    profiles.setdefault(name, []).append((float(wall), float(user) + float(system), int(rss) / 1024,
                                           int(total) / count, int(largest)))
for name, runs in profiles.items():
    cap = caps.get(name)
    print(f"  {name:14} {statistics.median(r[0] for r in runs) * 1000 / count:9.0f} "
          f"{statistics.median(r[1] for r in runs):7.2f} {max(r[2] for r in runs):9.1f} "
          f"{statistics.mean(r[3] for r in runs):11.0f} {max(r[4] for r in runs):9d} {cap or '-':>8}")
print("=========================================================================")
PY
