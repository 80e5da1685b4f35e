#!/usr/bin/env bash
# Repost detection on both of its sides, measured where it was not tuned (kfeed-bench reposts;
# Sources/kfeed-bench/RepostBench.swift). Two halves. The tuning half, on which DetailSignature's thresholds are set:
# the stage, tint, backdrop, teaser, night, flat-and-noise and text look-alike families, the bundled sample's
# pictures, corpus photos 01–24 and wallpapers from Debian's lomiri-wallpapers and ukui-wallpapers packages (all of
# this was the tuning or the earlier held-out half, whose results have been seen). The held-out half, only measured,
# written before the rule it measures was changed: the quote-card, product-shot, collage and spotlight families and
# 18 wallpapers of Debian's mate-backgrounds and plasma-workspace-wallpapers packages that no corpus photo comes
# from. In each half also four overlapping regions of each photo.
# Reposts of 21 kinds of every photo and of four members of every family. Prints per family and per half the
# distinct pairs called the same and the reposts caught, an ROC, the reference pHash on the same pairs and the time
# an identity takes; exits 1 when the held-out half misses a goal.
#
# Usage: bash bench/reposts.sh [--tuning-only] [MEMBERS]
#   --tuning-only   make and print the tuning half only (while a rule is tuned the held-out half stays unseen)
#   env CORPUS, default /tmp/kfeed-corpus, made when missing; installs the wallpaper packages when missing, as root
#   env DUMP=FILE writes every pair's decision and distances there (to diff two builds) and checks the screens' bounds
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-/tmp/kfeed-corpus}
[ -d "$CORPUS" ] || bash "$ROOT/bench/corpus.sh" "$CORPUS" >&2

TUNING_WALLPAPERS=(Fossa_by_Jasper_Roks.jpg Kleiber_by_Lukas_Baubkus.jpg Painting-Colors_by__herobrine7gamer.jpg
  analogpattern_by_Peter_Nerlich.jpg greentock_by_Peter_Nerlich.jpg umang_by_Abhishek_Mudgal.jpg
  2004default.jpg firstgeneration.jpg rhythm.jpg string.jpg the-mouse.jpg)
# Held out: the wallpapers of mate-backgrounds and plasma-workspace-wallpapers that no corpus photo comes from.
MATE=/usr/share/backgrounds/mate
PLASMA=/usr/share/wallpapers
HELD_WALLPAPERS=("$MATE/abstract/Elephants.jpg" "$MATE/desktop/GreenTraditional.jpg" "$MATE/nature/Aqua.jpg"
  "$MATE/nature/Garden.jpg" "$MATE/nature/TwoWings.jpg" "$MATE/nature/Wood.jpg" "$MATE/nature/YellowFlower.jpg")
for name in Autumn ColdRipple DarkestHour EveningGlow Grey Kite OneStandsOut PastelHills Path; do
  HELD_WALLPAPERS+=("$PLASMA/$name/contents/images/1920x1200.jpg")
done
HELD_WALLPAPERS+=("$PLASMA/SafeLanding/contents/images/1622x2880.jpg" "$PLASMA/Shell/contents/images/720x1440.jpg")
if [ ! -f /usr/share/backgrounds/the-mouse.jpg ] || [ ! -f /usr/share/backgrounds/Fossa_by_Jasper_Roks.jpg ] ||
  [ ! -f "$MATE/nature/Wood.jpg" ] || [ ! -f "$PLASMA/Path/contents/images/1920x1200.jpg" ]; then
  apt-get install -y lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 ukui-wallpapers mate-backgrounds \
    plasma-workspace-wallpapers >/dev/null
fi
tuning_only=()
if [ "${1:-}" = --tuning-only ]; then tuning_only=(--tuning-only); shift; fi
tuning=("$CORPUS"/0[1-9]-*.jpg "$CORPUS"/1[0-9]-*.jpg "$CORPUS"/2[0-4]-*.jpg)
for name in "${TUNING_WALLPAPERS[@]}"; do tuning+=("/usr/share/backgrounds/$name"); done
held=("${HELD_WALLPAPERS[@]}")

scratch="${KFEED_BENCH_SCRATCH:-.build}"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kfeed-bench >&2)
binary="$(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/kfeed-bench"

echo "==================== kfeed repost detection ===================="
"$binary" reposts --members "${1:-72}" "${tuning_only[@]}" --sample "$ROOT/Fixtures/images" ${DUMP:+--dump "$DUMP"} \
  --tuning "${tuning[@]}" --held-out "${held[@]}"
echo "================================================================"
