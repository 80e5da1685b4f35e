#!/usr/bin/env bash
# Rewrites api/public-api.txt, the listing of the library's public API (from the symbol graph), after a deliberate
# change to it; PublicAPITests fails while the listing and the code differ. Builds first, as the test command does.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests -Xswiftc -O -Xswiftc -warnings-as-errors
KFEED_WRITE_API=1 swift test --skip-build --filter PublicAPITests
git --no-pager diff --stat -- api/public-api.txt
