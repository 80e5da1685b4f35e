#!/usr/bin/env bash
# Regenerates docs/preview.png, the README's picture of `kfeed preview`: the bundled sample timeline (no token,
# no network) refreshed at 09:00Z and previewed at 12:30Z in UTC, rendered by headless Chromium.
# Needs Debian's chromium and fonts for the sample's Korean text and emoji (installed by scripts/deps.sh as root).
# Usage: scripts/screenshot.sh [output.png]   (KFEED_BINARY=path skips the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-docs/preview.png}"
bash scripts/deps.sh chromium fonts-noto-cjk fonts-noto-color-emoji
if [ -z "${KFEED_BINARY:-}" ]; then
  swift build -c release --static-swift-stdlib --product kfeed >&2
  KFEED_BINARY=.build/release/kfeed
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export TZ=UTC
"$KFEED_BINARY" refresh --replay Fixtures/replay/sample --cache "$work/cache" --now 2026-11-22T09:00:00Z
page="$("$KFEED_BINARY" preview --cache "$work/cache" --now 2026-11-22T12:30:00Z)"
mkdir -p "$(dirname "$output")"
# Two full rows of cards in light mode; a fresh profile so nothing of the user's browser leaks in.
chromium --headless --disable-gpu --no-sandbox --no-first-run --hide-scrollbars --force-device-scale-factor=1 \
  --blink-settings=preferredColorScheme=1 --user-data-dir="$work/profile" --window-size=1168,826 \
  --screenshot="$(realpath -m "$output")" "file://$page" 2>/dev/null
size=$(stat -c %s "$output")
echo "$output: $size bytes" >&2
if [ "$size" -gt 300000 ]; then
  echo "warning: $output is over 300 KB" >&2
fi
