#!/usr/bin/env bash
# The whole test suite: installs what it needs, checks formatting, builds with warnings as errors, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
# Chromium runs the preview's browser test; without it that one test is skipped (and says why).
bash scripts/deps.sh chromium || echo "note: chromium is not installed; the preview browser test will be skipped" >&2
swift format lint --recursive --strict --parallel Package.swift Sources Tests
# Optimised debug build (testable, assertions on): the tests decode hundreds of images, ~30x slower unoptimised.
swift build --build-tests -Xswiftc -O -Xswiftc -warnings-as-errors
# WidgetFallbackProxyTests runs on its own after the rest: it follows nginx's cache on the real clock, through an
# entry's end and the 10 s after it, and beside the parallel suites on a busy machine its awaits could wait longer.
swift test --skip-build --parallel --skip WidgetFallbackProxyTests
swift test --skip-build --filter WidgetFallbackProxyTests
bash scripts/package-test.sh  # the Debian package: built, installed, run as its units run it, purged
