#!/usr/bin/env bash
# Repost detection on both of its sides, measured where it was not tuned (kfeed-bench reposts;
# Sources/kfeed-bench/RepostBench.swift). Two halves: the tuning half, on which DetailSignature's threshold was set
# (the stage, tint and backdrop look-alike families, the bundled sample's pictures, corpus photos 01–12), and the
# held-out half, only measured (the teaser, night, flat-and-noise and text families, corpus photos 13–24 and
# wallpapers from Debian's lomiri-wallpapers and ukui-wallpapers packages, and four overlapping regions of each of
# those photos). Reposts of 21 kinds of every photo and of two members of every family. Prints per family and per
# half the distinct pairs called the same and the reposts caught, an ROC, the reference pHash on the same pairs and
# the time an identity takes; exits 1 when the held-out half misses a goal.
#
# Usage: bash bench/reposts.sh [MEMBERS]     (env CORPUS, default /tmp/kfeed-corpus, made when missing; installs
#                                             the two wallpaper packages when missing, as root; env DUMP=FILE writes
#                                             every pair's decision and distances there, to diff two builds)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-/tmp/kfeed-corpus}
[ -d "$CORPUS" ] || bash "$ROOT/bench/corpus.sh" "$CORPUS" >&2

WALLPAPERS=(Fossa_by_Jasper_Roks.jpg Kleiber_by_Lukas_Baubkus.jpg Painting-Colors_by__herobrine7gamer.jpg
  analogpattern_by_Peter_Nerlich.jpg greentock_by_Peter_Nerlich.jpg umang_by_Abhishek_Mudgal.jpg
  2004default.jpg firstgeneration.jpg rhythm.jpg string.jpg the-mouse.jpg)
if [ ! -f /usr/share/backgrounds/the-mouse.jpg ] || [ ! -f /usr/share/backgrounds/Fossa_by_Jasper_Roks.jpg ]; then
  apt-get install -y lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 ukui-wallpapers >/dev/null
fi
held=("$CORPUS"/1[3-9]-*.jpg "$CORPUS"/2[0-4]-*.jpg)
for name in "${WALLPAPERS[@]}"; do held+=("/usr/share/backgrounds/$name"); done

scratch="${KFEED_BENCH_SCRATCH:-.build}"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kfeed-bench >&2)
binary="$(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/kfeed-bench"

echo "==================== kfeed repost detection ===================="
"$binary" reposts --members "${1:-60}" --sample "$ROOT/Fixtures/images" ${DUMP:+--dump "$DUMP"} \
  --tuning "$CORPUS"/0[1-9]-*.jpg "$CORPUS"/1[0-2]-*.jpg --held-out "${held[@]}"
echo "================================================================"
