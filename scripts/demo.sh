#!/usr/bin/env bash
# The main job on the bundled sample: no token, no network. Builds kfeed, then prints the 24-hour schedule
# answered from the recorded responses in Fixtures/replay/sample.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
swift build -c release --static-swift-stdlib --product kfeed >&2
exec .build/release/kfeed timeline --replay Fixtures/replay/sample "$@"
